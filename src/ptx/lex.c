/* lex.c — PTX tokens: identifiers (%r12, $L__BB0_2, _Z3fooi), dotted
 * words (.reg, .u32, .x), integers (decimal, 0x hex, 0 octal, 0b binary,
 * an optional U suffix), float literals (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX,
 * decimal), strings and punctuation, each with its line and column and
 * whether it touches the token before it (opcode modifiers and %tid.x
 * must).  Comments (// and slash-star) are skipped. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lex.h"

static bool id_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%';
}

static bool id_cont(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

static bool push(ptx_lexer *L, ptx_tok t)
{
	if (L->n == L->cap) {
		size_t cap = L->cap ? L->cap * 2 : 1024;
		ptx_tok *nt = realloc(L->t, cap * sizeof *nt);
		if (!nt) {
			L->g->oom = true;
			return false;
		}
		L->t = nt;
		L->cap = cap;
	}
	L->t[L->n++] = t;
	return true;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* a number at s (s[0] is a digit): sets t, returns its length */
static size_t lex_number(ptx_lexer *L, const char *s, size_t avail, ptx_tok *t)
{
	size_t i = 0;
	if (avail >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
		size_t want = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
		uint64_t v = 0;
		for (i = 2; i < avail && i < 2 + want && hexval((unsigned char)s[i]) >= 0; i++)
			v = v << 4 | (uint64_t)hexval((unsigned char)s[i]);
		if (i != 2 + want || (i < avail && id_cont((unsigned char)s[i]))) {
			ptx_err(L->g, t->line, t->col, "bad float literal (0f needs 8 hex digits, 0d 16)");
			t->kind = PT_INT;
			while (i < avail && id_cont((unsigned char)s[i]))
				i++;
			return i;
		}
		t->kind = PT_FLT;
		t->fbits = v;
		t->f64 = want == 16;
		return i;
	}
	/* decimal float? digits '.' digits or an exponent */
	size_t j = 0;
	while (j < avail && isdigit((unsigned char)s[j]))
		j++;
	if (j < avail && (s[j] == '.' || s[j] == 'e' || s[j] == 'E') && !(avail > 1 && (s[1] == 'x' || s[1] == 'X'))) {
		char buf[64];
		size_t k = j;
		if (s[k] == '.') {
			k++;
			while (k < avail && isdigit((unsigned char)s[k]))
				k++;
		}
		if (k < avail && (s[k] == 'e' || s[k] == 'E')) {
			k++;
			if (k < avail && (s[k] == '+' || s[k] == '-'))
				k++;
			while (k < avail && isdigit((unsigned char)s[k]))
				k++;
		}
		if (k < sizeof buf) {
			memcpy(buf, s, k);
			buf[k] = 0;
			double d = strtod(buf, NULL);
			memcpy(&t->fbits, &d, 8);
			t->kind = PT_FLT;
			t->f64 = true;
			return k;
		}
	}
	t->kind = PT_INT;
	uint64_t v = 0;
	bool over = false;
	int base = 10;
	i = 0;
	if (avail >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (avail >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		i = 2;
	} else if (s[0] == '0' && avail >= 2 && isdigit((unsigned char)s[1])) {
		base = 8;
		i = 1;
	}
	size_t d0 = i;
	for (; i < avail; i++) {
		int d = hexval((unsigned char)s[i]);
		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (i == d0 && base != 10)
		ptx_err(L->g, t->line, t->col, "bad number: no digits after the prefix");
	if (i < avail && (s[i] == 'U' || s[i] == 'u'))
		i++;
	if (i < avail && id_cont((unsigned char)s[i])) {
		ptx_err(L->g, t->line, t->col, "bad number '%.*s'", (int)(i + 1 > 32 ? 32 : i + 1), s);
		while (i < avail && id_cont((unsigned char)s[i]))
			i++;
	}
	if (over)
		ptx_err(L->g, t->line, t->col, "number too large for 64 bits");
	t->ival = v;
	return i;
}

/* skip a comment at p; returns the new position (updates line/col) */
static size_t skip_comment(ptx_lexer *L, size_t p, uint32_t *line, size_t *lstart)
{
	const char *s = L->src;
	if (s[p + 1] == '/') {
		while (p < L->len && s[p] != '\n')
			p++;
		return p;
	}
	uint32_t l0 = *line, c0 = (uint32_t)(p - *lstart + 1);
	p += 2;
	while (p + 1 < L->len && !(s[p] == '*' && s[p + 1] == '/')) {
		if (s[p] == '\n') {
			(*line)++;
			*lstart = p + 1;
		}
		p++;
	}
	if (p + 1 >= L->len) {
		ptx_err(L->g, l0, c0, "unterminated comment");
		return L->len;
	}
	return p + 2;
}

bool ptx_lex(ptx_lexer *L)
{
	const char *s = L->src;
	size_t p = 0, lstart = 0, prev_end = (size_t)-1;
	uint32_t line = 1;
	while (p < L->len && !L->g->oom) {
		unsigned char c = (unsigned char)s[p];
		if (c == '\n') {
			line++;
			lstart = ++p;
			continue;
		}
		if (isspace(c) || c == 0) {
			p++;
			continue;
		}
		if (c == '/' && p + 1 < L->len && (s[p + 1] == '/' || s[p + 1] == '*')) {
			p = skip_comment(L, p, &line, &lstart);
			continue;
		}
		ptx_tok t = { 0 };
		t.line = line;
		t.col = (uint32_t)(p - lstart + 1);
		t.s = s + p;
		t.adj = p == prev_end;
		size_t n = 1;
		if (id_start(c)) {
			t.kind = PT_ID;
			while (p + n < L->len && id_cont((unsigned char)s[p + n]))
				n++;
		} else if (c == '.' && p + 1 < L->len && (isalpha((unsigned char)s[p + 1]) || s[p + 1] == '_')) {
			t.kind = PT_DOT;
			while (p + n < L->len && id_cont((unsigned char)s[p + n]))
				n++;
		} else if (isdigit(c)) {
			n = lex_number(L, s + p, L->len - p, &t);
		} else if (c == '"') {
			t.kind = PT_STR;
			while (p + n < L->len && s[p + n] != '"' && s[p + n] != '\n')
				n++;
			if (p + n >= L->len || s[p + n] != '"')
				ptx_err(L->g, line, t.col, "unterminated string");
			else
				n++;
		} else if (strchr("{}()[];:,@!+-|<>=*", c)) {
			t.kind = PT_PUNCT;
		} else {
			ptx_err(L->g, line, t.col, "unexpected character '%c'", c >= 0x20 && c < 0x7f ? c : '?');
			p++;
			continue;
		}
		t.n = (uint32_t)n;
		if (!push(L, t))
			return false;
		p += n;
		prev_end = p;
	}
	ptx_tok e = { .kind = PT_EOF, .line = line, .col = (uint32_t)(p - lstart + 1), .s = s + p };
	return push(L, e) && !L->g->oom;
}

bool ptx_tok_is(const ptx_tok *t, const char *w)
{
	size_t n = strlen(w);
	return t->n == n && !memcmp(t->s, w, n) && t->kind != PT_STR;
}

bool ptx_tok_punct(const ptx_tok *t, char c)
{
	return t->kind == PT_PUNCT && t->s[0] == c;
}
