/* parse.c — the assembler's front end: diagnostics, comment removal,
 * the lexer, labels, expressions and operands.  Knows nothing about
 * instructions; match.c maps operands onto the ISA tables.
 */
#include "asm/asm_int.h"
#include "base/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * Small helpers (ASCII only, independent of the locale)
 * ====================================================================== */

static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static bool is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static bool is_xdigit(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}
static int xval(int ch)
{
	return is_digit(ch) ? ch - '0' : (ch | 0x20) - 'a' + 10;
}
static bool is_id_start(int ch) { return is_alpha(ch) || ch == '_' || ch == '.'; }
static bool is_id_char(int ch) { return is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '.' || ch == '$'; }

bool asm_is_ident(const char *s)
{
	/* as the lexer reads it: '.' and a digit start a number */
	if (!s || !is_id_start((unsigned char)s[0]) || (s[0] == '.' && is_digit((unsigned char)s[1])))
		return false;
	for (; *s; s++)
		if (!is_id_char((unsigned char)*s))
			return false;
	return true;
}

void *asm_grow(asm_ctx *c, void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t nc = *cap ? *cap : 16;
	while (nc < need) {
		if (nc > SIZE_MAX / 2 / elem) {
			c->oom = true;
			return NULL;
		}
		nc *= 2;
	}
	void *q = realloc(p, nc * elem);
	if (!q) {
		c->oom = true;
		return NULL;
	}
	*cap = nc;
	return q;
}

void asm_fmt_hex(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		snprintf(buf, n, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
	else
		snprintf(buf, n, "0x%" PRIx64, (uint64_t)v);
}

/* ======================================================================
 * Diagnostics
 * ====================================================================== */

static void vdiag(asm_ctx *c, bool warn, uint32_t line, uint32_t col,
		  const char *fmt, va_list ap)
{
	if (warn)
		c->nwarnings++;
	else
		c->nerrors++;
	if (c->ndiags >= ASM_MAX_DIAGS) {
		if (warn)
			c->ndropped_warn++;
		else
			c->ndropped_err++;
		return;
	}
	char msg[ASM_MSG];
	vsnprintf(msg, sizeof msg, fmt, ap);
	diag_ent *d = asm_grow(c, c->diags, &c->capdiags, c->ndiags + 1, sizeof *d);
	if (!d)
		return;
	c->diags = d;
	char *m = malloc(strlen(msg) + 1);
	if (!m) {
		c->oom = true;
		return;
	}
	strcpy(m, msg);
	d[c->ndiags++] = (diag_ent){ line, col, warn, c->seq++, m };
}

void asm_diag(asm_ctx *c, bool warn, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(c, warn, line, col, fmt, ap);
	va_end(ap);
}

void asm_err(asm_ctx *c, uint32_t col, const char *fmt, ...)
{
	if (c->pass != 2)
		return;
	va_list ap;
	va_start(ap, fmt);
	vdiag(c, false, c->line, col, fmt, ap);
	va_end(ap);
}

void asm_warn(asm_ctx *c, uint32_t col, const char *fmt, ...)
{
	if (c->pass != 2)
		return;
	va_list ap;
	va_start(ap, fmt);
	vdiag(c, true, c->line, col, fmt, ap);
	va_end(ap);
}

static int diag_cmp(const void *a, const void *b)
{
	const diag_ent *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

#define SHOW_WIDTH 160

/* The source line (original text) and a caret under column col. */
static void show_line(strbuf *b, const char *ls, size_t ln, uint32_t col)
{
	while (ln && (ls[ln - 1] == '\r'))
		ln--;
	size_t c0 = col ? col - 1 : 0;
	if (c0 > ln)
		c0 = ln;
	size_t start = 0;
	bool pre = false, post = false;
	if (ln > SHOW_WIDTH) {
		if (c0 > SHOW_WIDTH / 2) {
			start = c0 - SHOW_WIDTH / 2;
			pre = true;
		}
		if (start + SHOW_WIDTH < ln)
			post = true;
	}
	size_t end = post ? start + SHOW_WIDTH : ln;
	strbuf line = { 0 }, caret = { 0 };
	if (pre) {
		sb_add(&line, "...", 3);
		sb_add(&caret, "   ", 3);
	}
	for (size_t i = start; i < end; i++) {
		unsigned char ch = (unsigned char)ls[i];
		char out = (char)ch;
		if (ch < 0x20 && ch != '\t')
			out = ' ';
		if (ch == 0x7f)
			out = ' ';
		sb_add(&line, &out, 1);
		if (i < c0 && (ch & 0xc0) != 0x80)
			sb_add(&caret, ch == '\t' ? "\t" : " ", 1);
	}
	if (post)
		sb_add(&line, "...", 3);
	sb_add(&caret, "^", 1);
	if (line.oom || caret.oom)
		b->oom = true;
	sb_add(b, line.s ? line.s : "", line.n);
	sb_add(b, "\n", 1);
	sb_add(b, caret.s ? caret.s : "^", caret.s ? caret.n : 1);
	sb_add(b, "\n", 1);
	free(line.s);
	free(caret.s);
}

char *asm_format_diags(asm_ctx *c)
{
	if (!c->ndiags && !c->ndropped_err && !c->ndropped_warn)
		return NULL;
	if (c->ndiags > 1)
		qsort(c->diags, c->ndiags, sizeof *c->diags, diag_cmp);
	strbuf b = { 0 };
	const char *fn = c->fname ? c->fname : "<input>";
	size_t shown_err = 0, shown_warn = 0;
	/* walk the source once, in line order */
	uint32_t cur_line = 1;
	size_t pos = 0;
	for (size_t i = 0; i < c->ndiags; i++) {
		diag_ent *d = &c->diags[i];
		if (d->warn ? shown_warn >= ASM_MAX_ERRORS : shown_err >= ASM_MAX_ERRORS)
			continue;
		if (d->warn)
			shown_warn++;
		else
			shown_err++;
		if (d->line)
			sb_printf(&b, "%s:%" PRIu32 ":%" PRIu32 ": %s: %s\n", fn, d->line, d->col,
				  d->warn ? "warning" : "error", d->msg);
		else
			sb_printf(&b, "%s: %s: %s\n", fn, d->warn ? "warning" : "error", d->msg);
		if (!d->line)
			continue;
		while (cur_line < d->line && pos < c->len) {
			const char *nl = memchr(c->src + pos, '\n', c->len - pos);
			if (!nl) {
				pos = c->len;
				break;
			}
			pos = (size_t)(nl - c->src) + 1;
			cur_line++;
		}
		if (cur_line == d->line) {
			const char *ls = c->src + pos;
			const char *nl = memchr(ls, '\n', c->len - pos);
			size_t ln = nl ? (size_t)(nl - ls) : c->len - pos;
			show_line(&b, ls, ln, d->col);
		}
	}
	if (c->nerrors > shown_err)
		sb_printf(&b, "%zu more error%s\n", c->nerrors - shown_err,
			  c->nerrors - shown_err == 1 ? "" : "s");
	if (c->nwarnings > shown_warn)
		sb_printf(&b, "%zu more warning%s\n", c->nwarnings - shown_warn,
			  c->nwarnings - shown_warn == 1 ? "" : "s");
	char *text = sb_take(&b);
	if (!text)
		c->oom = true;
	return text;
}

/* ======================================================================
 * Comments: // to end of line and / * ... * / (which may span lines) are
 * replaced by blanks in c->buf, keeping columns and newlines.
 * ====================================================================== */

void asm_strip_comments(asm_ctx *c)
{
	char *b = c->buf;
	size_t n = c->len, i = 0, ls = 0;
	uint32_t line = 1;
	bool in_str = false;
	while (i < n) {
		char ch = b[i];
		if (ch == '\n') {
			in_str = false;
			line++;
			ls = ++i;
			continue;
		}
		if (in_str) {
			if (ch == '\\' && i + 1 < n && b[i + 1] != '\n')
				i++;
			else if (ch == '"')
				in_str = false;
			i++;
			continue;
		}
		if (ch == '"') {
			in_str = true;
			i++;
			continue;
		}
		if (ch == '/' && i + 1 < n && b[i + 1] == '/') {
			while (i < n && b[i] != '\n')
				b[i++] = ' ';
			continue;
		}
		if (ch == '/' && i + 1 < n && b[i + 1] == '*') {
			uint32_t sl = line, sc = (uint32_t)(i - ls + 1);
			b[i++] = ' ';
			b[i++] = ' ';
			while (i < n && !(b[i] == '*' && i + 1 < n && b[i + 1] == '/')) {
				if (b[i] == '\n') {
					line++;
					ls = i + 1;
				} else {
					b[i] = ' ';
				}
				i++;
			}
			if (i >= n) {
				asm_diag(c, false, sl, sc, "unterminated comment");
				return;
			}
			b[i++] = ' ';
			b[i++] = ' ';
			continue;
		}
		i++;
	}
}

/* ======================================================================
 * Lexer: one line into c->toks.  '$word' annotations ($sched $req $wsb)
 * are skipped.
 * ====================================================================== */

static bool add_tok(asm_ctx *c, tok t)
{
	tok *v = asm_grow(c, c->toks, &c->captoks, c->ntoks + 1, sizeof *v);
	if (!v)
		return false;
	c->toks = v;
	v[c->ntoks++] = t;
	return true;
}

/* number starting at p[i]; on success fills t and advances *pi */
static bool lex_number(asm_ctx *c, const char *p, size_t n, size_t *pi, tok *t)
{
	size_t i = *pi, s = i;
	uint32_t col = (uint32_t)(p + i - c->lp + 1);
	bool bad = false, big = false, isfloat = false, hex = false;
	uint64_t v = 0;
	if (p[i] == '0' && i + 1 < n && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
		hex = true;
		i += 2;
		size_t d0 = i;
		while (i < n && is_xdigit((unsigned char)p[i])) {
			if (v >> 60)
				big = true;
			v = v << 4 | (uint64_t)xval((unsigned char)p[i]);
			i++;
		}
		if (i == d0)
			bad = true;
	} else {
		while (i < n && is_digit((unsigned char)p[i])) {
			unsigned d = (unsigned)(p[i] - '0');
			if (v > (UINT64_MAX - d) / 10)
				big = true;
			v = v * 10 + d;
			i++;
		}
		if (i < n && p[i] == '.' && (i + 1 >= n || is_digit((unsigned char)p[i + 1]) ||
					     !is_id_char((unsigned char)p[i + 1]) || p[i + 1] == 'e' ||
					     p[i + 1] == 'E')) {
			isfloat = true;
			i++;
			while (i < n && is_digit((unsigned char)p[i]))
				i++;
		}
		if (i < n && (p[i] == 'e' || p[i] == 'E')) {
			size_t j = i + 1;
			if (j < n && (p[j] == '+' || p[j] == '-'))
				j++;
			if (j < n && is_digit((unsigned char)p[j])) {
				isfloat = true;
				i = j;
				while (i < n && is_digit((unsigned char)p[i]))
					i++;
			}
		}
	}
	if (i < n && is_id_char((unsigned char)p[i])) {
		bad = true;
		while (i < n && is_id_char((unsigned char)p[i]))
			i++;
	}
	if (bad) {
		asm_err(c, col, "bad number '%.*s'", (int)(i - s > 64 ? 64 : i - s), p + s);
		return false;
	}
	if (big && !isfloat) {
		asm_err(c, col, "number '%.*s' is too large", (int)(i - s > 64 ? 64 : i - s), p + s);
		return false;
	}
	*t = (tok){ .kind = isfloat ? T_FLOAT : T_NUM, .hex = hex, .huge = v > INT64_MAX,
		    .col = col, .s = p + s, .n = i - s, .num = v };
	*pi = i;
	return true;
}

bool asm_lex_line(asm_ctx *c, const char *p, size_t n)
{
	c->ntoks = 0;
	size_t i = 0;
	while (i < n) {
		unsigned char ch = (unsigned char)p[i];
		uint32_t col = (uint32_t)(p + i - c->lp + 1);
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f') {
			i++;
			continue;
		}
		tok t = { .col = col, .s = p + i };
		if (ch == '$' && i + 1 < n && is_id_char((unsigned char)p[i + 1])) {
			i++;
			while (i < n && is_id_char((unsigned char)p[i]))
				i++;
			continue;
		}
		if (is_digit(ch) || (ch == '.' && i + 1 < n && is_digit((unsigned char)p[i + 1]) &&
				     (i == 0 || !is_id_char((unsigned char)p[i - 1])))) {
			if (!lex_number(c, p, n, &i, &t))
				return false;
		} else if (is_id_start(ch)) {
			size_t s = i;
			while (i < n && is_id_char((unsigned char)p[i]))
				i++;
			t.kind = T_IDENT;
			t.n = i - s;
		} else if (ch == '"') {
			size_t s = i++;
			while (i < n && p[i] != '"') {
				if (p[i] == '\\' && i + 1 < n)
					i++;
				i++;
			}
			if (i >= n) {
				asm_err(c, col, "unterminated string");
				return false;
			}
			i++;
			t.kind = T_STR;
			t.n = i - s;
		} else if (ch == '(' && i + 1 < n && p[i + 1] == '*') {
			size_t s = i;
			i += 2;
			while (i + 1 < n && !(p[i] == '*' && p[i + 1] == ')'))
				i++;
			if (i + 1 >= n) {
				asm_err(c, col, "unterminated '(*' annotation (missing '*)')");
				return false;
			}
			i += 2;
			t.kind = T_HINT;
			t.n = i - s;
		} else if (ch == '<' || ch == '>') {
			if (i + 1 < n && p[i + 1] == (char)ch) {
				t.kind = T_PUNCT;
				t.p = ch == '<' ? P_SHL : P_SHR;
				t.n = 2;
				i += 2;
			} else {
				asm_err(c, col, "unexpected character '%c' (did you mean '%c%c'?)", ch, ch, ch);
				return false;
			}
		} else if (strchr(",;[]()+-*/%~!|&^:@`{}=", ch) && ch) {
			t.kind = T_PUNCT;
			t.p = (char)ch;
			t.n = 1;
			i++;
		} else {
			if (ch >= 0x20 && ch < 0x7f)
				asm_err(c, col, "unexpected character '%c'", ch);
			else
				asm_err(c, col, "unexpected character 0x%02x", ch);
			return false;
		}
		if (!add_tok(c, t))
			return false;
	}
	return true;
}

/* ======================================================================
 * Labels
 * ====================================================================== */

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

label *asm_label_find(asm_ctx *c, const char *s, size_t n)
{
	if (!c->caplabels)
		return NULL;
	size_t mask = c->caplabels - 1;
	for (size_t h = (size_t)hash_name(s, n) & mask;; h = (h + 1) & mask) {
		label *l = &c->labels[h];
		if (!l->name)
			return NULL;
		if (l->n == n && !memcmp(l->name, s, n))
			return l;
	}
}

label *asm_label_add(asm_ctx *c, const char *s, size_t n)
{
	if ((c->nlabels + 1) * 2 > c->caplabels) {
		size_t nc = c->caplabels ? c->caplabels * 2 : 64;
		label *nl = calloc(nc, sizeof *nl);
		if (!nl) {
			c->oom = true;
			return NULL;
		}
		for (size_t i = 0; i < c->caplabels; i++) {
			label *l = &c->labels[i];
			if (!l->name)
				continue;
			size_t h = (size_t)hash_name(l->name, l->n) & (nc - 1);
			while (nl[h].name)
				h = (h + 1) & (nc - 1);
			nl[h] = *l;
		}
		free(c->labels);
		c->labels = nl;
		c->caplabels = nc;
	}
	size_t mask = c->caplabels - 1;
	size_t h = (size_t)hash_name(s, n) & mask;
	while (c->labels[h].name)
		h = (h + 1) & mask;
	char *name = malloc(n + 1);
	if (!name) {
		c->oom = true;
		return NULL;
	}
	memcpy(name, s, n);
	name[n] = 0;
	c->labels[h] = (label){ .name = name, .n = n };
	c->nlabels++;
	return &c->labels[h];
}

/* ======================================================================
 * Token cursor
 * ====================================================================== */

const tok *tok_cur(const pcur *p)
{
	return p->i < p->end ? &p->c->toks[p->i] : NULL;
}

bool tok_is(const pcur *p, char punct)
{
	const tok *t = tok_cur(p);
	return t && t->kind == T_PUNCT && t->p == punct;
}

bool tok_ident_is(const tok *t, const char *s)
{
	size_t n = strlen(s);
	return t && t->kind == T_IDENT && t->n == n && !memcmp(t->s, s, n);
}

/* column for "at end of statement" messages */
static uint32_t end_col(const pcur *p)
{
	if (p->end > 0 && p->end <= p->c->ntoks) {
		const tok *t = &p->c->toks[p->end - 1];
		return t->col + (uint32_t)t->n;
	}
	return 1;
}

static uint32_t cur_col(const pcur *p)
{
	const tok *t = tok_cur(p);
	return t ? t->col : end_col(p);
}

/* ======================================================================
 * Expressions: C precedence over | ^ & << >> + - * / % and unary - + ~;
 * primaries are numbers, labels, '.', ( expr ) and the fixup form `(expr).
 * ====================================================================== */

static int new_node(pcur *p, uint8_t op, uint32_t col, int a, int b)
{
	asm_ctx *c = p->c;
	if (c->nnodes >= ASM_MAX_NODES) {
		asm_err(c, col, "expression too large");
		return -1;
	}
	enode *v = asm_grow(c, c->nodes, &c->capnodes, c->nnodes + 1, sizeof *v);
	if (!v)
		return -1;
	c->nodes = v;
	unsigned h = 1;
	if (a >= 0 && v[a].height + 1u > h)
		h = v[a].height + 1u;
	if (b >= 0 && v[b].height + 1u > h)
		h = v[b].height + 1u;
	if (h > ASM_MAX_EXPR_HEIGHT) {
		asm_err(c, col, "expression nested too deeply");
		return -1;
	}
	v[c->nnodes] = (enode){ .op = op, .col = col, .a = a, .b = b, .height = (uint16_t)h };
	return (int)c->nnodes++;
}

static int parse_or(pcur *p);

static int parse_primary(pcur *p)
{
	asm_ctx *c = p->c;
	const tok *t = tok_cur(p);
	if (!t) {
		asm_err(c, end_col(p), "expected an expression");
		return -1;
	}
	if (t->kind == T_NUM || t->kind == T_FLOAT) {
		int k = new_node(p, t->kind == T_NUM ? E_NUM : E_FLOAT, t->col, -1, -1);
		if (k < 0)
			return -1;
		enode *e = &c->nodes[k];
		e->num = t->num;
		e->hex = t->hex;
		e->huge = t->huge;
		e->s = t->s;
		e->n = t->n;
		p->i++;
		return k;
	}
	if (t->kind == T_IDENT) {
		bool dot = t->n == 1 && t->s[0] == '.';
		int k = new_node(p, dot ? E_DOT : E_NAME, t->col, -1, -1);
		if (k < 0)
			return -1;
		c->nodes[k].s = t->s;
		c->nodes[k].n = t->n;
		p->i++;
		return k;
	}
	if (t->kind == T_PUNCT && (t->p == '(' || t->p == '`')) {
		uint32_t col = t->col;
		if (t->p == '`') {
			p->i++;
			if (!tok_is(p, '(')) {
				asm_err(c, cur_col(p), "expected '(' after '`'");
				return -1;
			}
		}
		p->i++;
		if (++p->depth > ASM_MAX_EXPR_HEIGHT) {
			asm_err(c, col, "expression nested too deeply");
			return -1;
		}
		int k = parse_or(p);
		p->depth--;
		if (k < 0)
			return -1;
		if (!tok_is(p, ')')) {
			if (tok_cur(p))
				asm_err(c, cur_col(p), "expected ')'");
			else
				asm_err(c, col, "unbalanced '(' (missing ')')");
			return -1;
		}
		p->i++;
		return k;
	}
	if (t->kind == T_PUNCT)
		asm_err(c, t->col, "expected an expression before '%.*s'", (int)t->n, t->s);
	else
		asm_err(c, t->col, "expected an expression");
	return -1;
}

static int parse_unary(pcur *p)
{
	const tok *t = tok_cur(p);
	if (t && t->kind == T_PUNCT && (t->p == '-' || t->p == '+' || t->p == '~')) {
		uint8_t op = t->p == '-' ? E_NEG : t->p == '+' ? E_POS : E_NOT;
		uint32_t col = t->col;
		p->i++;
		if (++p->depth > ASM_MAX_EXPR_HEIGHT) {
			asm_err(p->c, col, "expression nested too deeply");
			return -1;
		}
		int a = parse_unary(p);
		p->depth--;
		if (a < 0)
			return -1;
		return new_node(p, op, col, a, -1);
	}
	return parse_primary(p);
}

typedef struct binop { char p; uint8_t op; } binop;

static int parse_level(pcur *p, int level);

static const binop levels[][4] = {
	{ { '|', E_OR } },
	{ { '^', E_XOR } },
	{ { '&', E_AND } },
	{ { P_SHL, E_SHL }, { P_SHR, E_SHR } },
	{ { '+', E_ADD }, { '-', E_SUB } },
	{ { '*', E_MUL }, { '/', E_DIV }, { '%', E_MOD } },
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static int parse_level(pcur *p, int level)
{
	if (level == NLEVELS)
		return parse_unary(p);
	int a = parse_level(p, level + 1);
	while (a >= 0) {
		const tok *t = tok_cur(p);
		if (!t || t->kind != T_PUNCT)
			break;
		uint8_t op = 0;
		bool found = false;
		for (int k = 0; k < 4 && levels[level][k].p; k++)
			if (levels[level][k].p == t->p) {
				op = levels[level][k].op;
				found = true;
			}
		if (!found)
			break;
		uint32_t col = t->col;
		p->i++;
		int b = parse_level(p, level + 1);
		if (b < 0)
			return -1;
		a = new_node(p, op, col, a, b);
	}
	return a;
}

static int parse_or(pcur *p)
{
	return parse_level(p, 0);
}

int asm_parse_expr(pcur *p)
{
	return parse_or(p);
}

static bool xfail(xerr *e, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static bool xfail(xerr *e, uint32_t col, const char *fmt, ...)
{
	e->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return false;
}

static int merge_bank(int a, int b)
{
	if (a == -1)
		return b;
	if (b == -1 || a == b)
		return a;
	return -2;
}

static bool eval_rec(asm_ctx *c, int k, evalue *out, xerr *e, bool labels)
{
	const enode *n = &c->nodes[k];
	*out = (evalue){ 0, false, -1 };
	switch (n->op) {
	case E_NUM:
		out->v = (int64_t)n->num;
		out->huge = n->huge;
		return true;
	case E_FLOAT:
		return xfail(e, n->col, "floating-point number '%.*s' in an integer expression",
			     (int)(n->n > 40 ? 40 : n->n), n->s);
	case E_DOT:
		if (!labels)
			return xfail(e, n->col, "'.' is not allowed in a constant expression");
		out->v = (int64_t)c->stmt_pc;
		if (c->in_data)
			out->bank = (int)c->bank;
		return true;
	case E_NAME: {
		if (!labels)
			return xfail(e, n->col, "label '%.*s' is not allowed in a constant expression",
				     (int)(n->n > 64 ? 64 : n->n), n->s);
		label *l = asm_label_find(c, n->s, n->n);
		if (!l)
			return xfail(e, n->col, "undefined label '%.*s'", (int)(n->n > 64 ? 64 : n->n), n->s);
		out->v = l->value;
		if (l->data)
			out->bank = l->bank;
		return true;
	}
	default:
		break;
	}
	evalue a, b = { 0, false, -1 };
	if (!eval_rec(c, n->a, &a, e, labels))
		return false;
	if (n->b >= 0 && !eval_rec(c, n->b, &b, e, labels))
		return false;
	if (n->op == E_NEG && a.huge && (uint64_t)a.v == (UINT64_C(1) << 63)) {
		out->v = INT64_MIN;
		return true;
	}
	if (a.huge || b.huge)
		return xfail(e, n->col, "integer overflow in expression");
	int64_t x = a.v, y = b.v, r = 0;
	bool ovf = false;
	out->bank = merge_bank(a.bank, b.bank);
	switch (n->op) {
	case E_NEG:
		ovf = x == INT64_MIN;
		r = ovf ? 0 : -x;
		break;
	case E_POS:
		r = x;
		break;
	case E_NOT:
		r = ~x;
		break;
	case E_ADD:
		ovf = (y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y);
		r = ovf ? 0 : x + y;
		break;
	case E_SUB:
		ovf = (y < 0 && x > INT64_MAX + y) || (y > 0 && x < INT64_MIN + y);
		r = ovf ? 0 : x - y;
		break;
	case E_MUL:
		if (x && y) {
			if (x > 0)
				ovf = y > 0 ? x > INT64_MAX / y : y < INT64_MIN / x;
			else
				ovf = y > 0 ? x < INT64_MIN / y : y < INT64_MAX / x;
		}
		r = ovf ? 0 : x * y;
		break;
	case E_DIV:
	case E_MOD:
		if (!y)
			return xfail(e, n->col, "division by zero");
		ovf = x == INT64_MIN && y == -1;
		r = ovf ? 0 : n->op == E_DIV ? x / y : x % y;
		break;
	case E_SHL:
	case E_SHR:
		if (y < 0 || y > 63)
			return xfail(e, n->col, "shift count %" PRId64 " out of range (0..63)", y);
		if (n->op == E_SHL) {
			r = (int64_t)((uint64_t)x << y);
			ovf = (r < 0 ? ~(~r >> y) : r >> y) != x;
		} else {
			r = x < 0 ? ~(~x >> y) : x >> y;
		}
		break;
	case E_AND:
		r = x & y;
		break;
	case E_XOR:
		r = x ^ y;
		break;
	case E_OR:
		r = x | y;
		break;
	default:
		return xfail(e, n->col, "bad expression");
	}
	if (ovf)
		return xfail(e, n->col, "integer overflow in expression");
	out->v = r;
	return true;
}

bool asm_eval(asm_ctx *c, int node, evalue *out, xerr *e)
{
	return eval_rec(c, node, out, e, true);
}

bool asm_eval_const(asm_ctx *c, int node, int64_t *v, xerr *e)
{
	evalue r;
	if (!eval_rec(c, node, &r, e, false))
		return false;
	if (r.huge)
		return xfail(e, c->nodes[node].col, "number too large");
	*v = r.v;
	return true;
}

/* ======================================================================
 * Floats
 * ====================================================================== */

static bool name_ieq(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	if (n != k)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((s[i] | 0x20) != w[i])
			return false;
	return true;
}

static uint32_t f2bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

bool asm_parse_float(const char *s, size_t n, uint32_t *bits)
{
	bool neg = false;
	size_t i = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	const char *b = s + i;
	size_t m = n - i;
	uint32_t u;
	if (name_ieq(b, m, "inf") || name_ieq(b, m, "infinity")) {
		u = 0x7f800000u;
	} else if (name_ieq(b, m, "nan")) {
		u = 0x7fc00000u;
	} else {
		/* digits [. digits] [e [+-] digits], at least one digit */
		size_t j = 0, nd = 0;
		while (j < m && is_digit((unsigned char)b[j]))
			j++, nd++;
		if (j < m && b[j] == '.') {
			j++;
			while (j < m && is_digit((unsigned char)b[j]))
				j++, nd++;
		}
		if (!nd)
			return false;
		if (j < m && (b[j] == 'e' || b[j] == 'E')) {
			j++;
			if (j < m && (b[j] == '+' || b[j] == '-'))
				j++;
			size_t e0 = j;
			while (j < m && is_digit((unsigned char)b[j]))
				j++;
			if (j == e0)
				return false;
		}
		if (j != m || m >= 128)
			return false;
		char tmp[128];
		memcpy(tmp, b, m);
		tmp[m] = 0;
		errno = 0;
		float f = strtof(tmp, NULL);
		if (isinf(f))
			return false;
		u = f2bits(f);
	}
	*bits = neg ? u ^ 0x80000000u : u;
	return true;
}

int asm_float_expr(asm_ctx *c, int node, uint32_t *bits, xerr *e)
{
	uint32_t sign = 0;
	int k = node;
	while (c->nodes[k].op == E_NEG || c->nodes[k].op == E_POS) {
		if (c->nodes[k].op == E_NEG)
			sign ^= 0x80000000u;
		k = c->nodes[k].a;
	}
	const enode *n = &c->nodes[k];
	uint32_t u;
	if (n->op == E_FLOAT) {
		if (!asm_parse_float(n->s, n->n, &u)) {
			xfail(e, n->col, "bad or out-of-range float '%.*s'", (int)(n->n > 64 ? 64 : n->n), n->s);
			return -1;
		}
	} else if (n->op == E_NUM && !n->hex) {
		u = f2bits((float)n->num);
	} else if (n->op == E_NAME && (name_ieq(n->s, n->n, "inf") || name_ieq(n->s, n->n, "infinity"))) {
		u = 0x7f800000u;
	} else if (n->op == E_NAME && name_ieq(n->s, n->n, "nan")) {
		u = 0x7fc00000u;
	} else {
		return 0;
	}
	*bits = u ^ sign;
	return 1;
}

/* ======================================================================
 * Operands
 * ====================================================================== */

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	return true;
}

static unsigned small_num(const char *s, size_t n)
{
	unsigned v = 0;
	for (size_t i = 0; i < n; i++) {
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > 100000)
			return 100000;
	}
	return v;
}

int asm_reg_name(const tok *t, regref *r, xerr *e)
{
	if (!t || t->kind != T_IDENT)
		return 0;
	const char *s = t->s;
	size_t n = t->n;
	bool dot64 = false;
	if (n > 3 && !memcmp(s + n - 3, ".64", 3)) {
		dot64 = true;
		n -= 3;
	}
	*r = (regref){ .count = 1, .dot64 = dot64 };
	struct { const char *name; uint8_t kind; unsigned num; } fixed[] = {
		{ "RZ", O_REG, ISA_REG_RZ }, { "URZ", O_UREG, ISA_UREG_URZ },
		{ "PT", O_PRED, ISA_PRED_PT }, { "UPT", O_UPRED, ISA_PRED_PT },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strlen(fixed[i].name) == n && !memcmp(fixed[i].name, s, n)) {
			if (dot64 && (fixed[i].kind == O_PRED || fixed[i].kind == O_UPRED))
				return 0;
			r->kind = fixed[i].kind;
			r->num = fixed[i].num;
			return 1;
		}
	struct { const char *pre; uint8_t kind; unsigned max; const char *range; } pre[] = {
		{ "UR", O_UREG, 62, "UR0..UR62 or URZ" }, { "UP", O_UPRED, 6, "UP0..UP6 or UPT" },
		{ "R", O_REG, 254, "R0..R254 or RZ" }, { "P", O_PRED, 6, "P0..P6 or PT" },
	};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		size_t k = strlen(pre[i].pre);
		if (n <= k || memcmp(s, pre[i].pre, k) || !all_digits(s + k, n - k))
			continue;
		if (dot64 && (pre[i].kind == O_PRED || pre[i].kind == O_UPRED))
			return 0;
		unsigned v = small_num(s + k, n - k);
		if (v > pre[i].max) {
			xfail(e, t->col, "%s %.*s out of range (%s)",
			      pre[i].kind == O_PRED || pre[i].kind == O_UPRED ? "predicate" : "register",
			      (int)(n > 32 ? 32 : n), s, pre[i].range);
			return -1;
		}
		r->kind = pre[i].kind;
		r->num = v;
		return 1;
	}
	return 0;
}

/* A register at the cursor: plain name or R[a:b] / UR[a:b].
 * 1 consumed, 0 not a register, -1 error reported. */
static int parse_reg(pcur *p, regref *r)
{
	asm_ctx *c = p->c;
	const tok *t = tok_cur(p);
	if (!t || t->kind != T_IDENT)
		return 0;
	bool isR = tok_ident_is(t, "R"), isUR = tok_ident_is(t, "UR");
	if ((isR || isUR) && p->i + 1 < p->end && c->toks[p->i + 1].kind == T_PUNCT &&
	    c->toks[p->i + 1].p == '[') {
		uint32_t col = t->col;
		size_t i = p->i + 2;
		const tok *a = i < p->end ? &c->toks[i] : NULL;
		const tok *colon = i + 1 < p->end ? &c->toks[i + 1] : NULL;
		const tok *b = i + 2 < p->end ? &c->toks[i + 2] : NULL;
		const tok *cl = i + 3 < p->end ? &c->toks[i + 3] : NULL;
		if (!a || a->kind != T_NUM || !colon || colon->kind != T_PUNCT || colon->p != ':' ||
		    !b || b->kind != T_NUM || !cl || cl->kind != T_PUNCT || cl->p != ']') {
			if (!cl && !(b && b->kind == T_PUNCT && b->p == ']'))
				asm_err(c, col, "unterminated register range '%s[' (missing ']')", isR ? "R" : "UR");
			else
				asm_err(c, col, "bad register range: expected %s[first:last]", isR ? "R" : "UR");
			return -1;
		}
		uint64_t lo = a->num, hi = b->num, max = isR ? 254 : 62;
		if (hi < lo || hi - lo >= 8) {
			asm_err(c, col, "bad register range %s[%" PRIu64 ":%" PRIu64 "]", isR ? "R" : "UR", lo, hi);
			return -1;
		}
		if (hi > max) {
			asm_err(c, col, "register range %s[%" PRIu64 ":%" PRIu64 "] out of range (%s0..%s%" PRIu64 ")",
				isR ? "R" : "UR", lo, hi, isR ? "R" : "UR", isR ? "R" : "UR", max);
			return -1;
		}
		*r = (regref){ .kind = isR ? O_REG : O_UREG, .num = (unsigned)lo,
			       .count = (unsigned)(hi - lo + 1), .range = true };
		p->i += 6;
		return 1;
	}
	xerr e;
	int k = asm_reg_name(t, r, &e);
	if (k < 0) {
		asm_err(c, e.col, "%s", e.msg);
		return -1;
	}
	if (k > 0)
		p->i++;
	return k;
}

/* [Ra], [Ra+x], [Ra-x], [x] — the cursor is on '['.  The closing ']' is
 * consumed.  what names the construct in messages. */
static bool parse_addr(pcur *p, operand *o, uint32_t open_col, const char *what)
{
	asm_ctx *c = p->c;
	p->i++; /* '[' */
	if (tok_is(p, ']')) {
		asm_err(c, cur_col(p), "empty %s", what);
		return false;
	}
	if (!tok_cur(p)) {
		asm_err(c, open_col, "unterminated %s (missing ']')", what);
		return false;
	}
	regref r;
	int k = parse_reg(p, &r);
	if (k < 0)
		return false;
	if (k > 0) {
		if (r.kind != O_REG && r.kind != O_UREG) {
			asm_err(c, cur_col(p), "a predicate cannot be an address register");
			return false;
		}
		o->has_base = true;
		o->r = r;
		if (tok_is(p, '+') || tok_is(p, '-')) {
			const tok *t = tok_cur(p);
			bool neg = t->p == '-';
			uint32_t col = t->col;
			p->i++;
			int e = asm_parse_expr(p);
			if (e < 0)
				return false;
			o->off = neg ? new_node(p, E_NEG, col, e, -1) : e;
			if (o->off < 0)
				return false;
		}
	} else {
		o->off = asm_parse_expr(p);
		if (o->off < 0)
			return false;
	}
	if (!tok_is(p, ']')) {
		if (!tok_cur(p))
			asm_err(c, open_col, "unterminated %s (missing ']')", what);
		else
			asm_err(c, cur_col(p), "expected ']' in %s", what);
		return false;
	}
	p->i++;
	return true;
}

/* c[bank][addr] or c[Ra+x]; the cursor is on 'c' */
static bool parse_cmem(pcur *p, operand *o)
{
	asm_ctx *c = p->c;
	uint32_t col = tok_cur(p)->col;
	o->kind = O_CMEM;
	p->i++; /* c */
	uint32_t open = cur_col(p);
	/* does the first bracket start with a register? */
	regref r;
	xerr e;
	size_t save = p->i;
	p->i++;
	const tok *t = tok_cur(p);
	bool reg_first = t && ((tok_ident_is(t, "R") || tok_ident_is(t, "UR")) ||
			       asm_reg_name(t, &r, &e) != 0);
	p->i = save;
	if (reg_first) {
		o->bank = -1;
		return parse_addr(p, o, open, "constant address 'c['");
	}
	p->i++;
	if (!tok_cur(p)) {
		asm_err(c, col, "unterminated 'c[' (missing ']')");
		return false;
	}
	o->bank = asm_parse_expr(p);
	if (o->bank < 0)
		return false;
	if (!tok_is(p, ']')) {
		if (!tok_cur(p))
			asm_err(c, col, "unterminated 'c[' (missing ']')");
		else
			asm_err(c, cur_col(p), "expected ']' after the constant bank");
		return false;
	}
	p->i++;
	if (!tok_is(p, '[')) {
		asm_err(c, cur_col(p), "expected '[offset]' after c[bank]");
		return false;
	}
	return parse_addr(p, o, cur_col(p), "constant address 'c[bank]['");
}

static bool parse_operand(pcur *p, operand *o)
{
	asm_ctx *c = p->c;
	*o = (operand){ .expr = -1, .off = -1, .bank = -1 };
	const tok *t = tok_cur(p);
	o->col = t->col;
	size_t save = p->i;
	bool nt = false, bn = false, ng = false, ab = false;
	uint32_t abs_col = 0;
	for (;;) {
		t = tok_cur(p);
		if (!t || t->kind != T_PUNCT)
			break;
		if (t->p == '!' && !nt)
			nt = true;
		else if (t->p == '~' && !bn)
			bn = true;
		else if (t->p == '-' && !ng && !ab)
			ng = true;
		else if (t->p == '|' && !ab) {
			ab = true;
			abs_col = t->col;
		} else
			break;
		p->i++;
	}
	t = tok_cur(p);
	bool core = false;
	if (t && t->kind == T_IDENT) {
		regref r;
		int k = parse_reg(p, &r);
		if (k < 0)
			return false;
		if (k > 0) {
			o->kind = r.kind;
			o->r = r;
			core = true;
		} else if (tok_ident_is(t, "c") && p->i + 1 < p->end &&
			   c->toks[p->i + 1].kind == T_PUNCT && c->toks[p->i + 1].p == '[') {
			if (!parse_cmem(p, o))
				return false;
			core = true;
		}
	}
	if (!core && t && t->kind == T_PUNCT && t->p == '[' && !(nt || bn || ng || ab)) {
		o->kind = O_MEM;
		return parse_addr(p, o, t->col, "address '['");
	}
	if (!core) {
		if (nt || ab) {
			asm_err(c, t ? t->col : end_col(p), "expected a %s after '%c'",
				nt ? "predicate" : "register", nt ? '!' : '|');
			return false;
		}
		p->i = save;
		o->kind = O_EXPR;
		o->expr = asm_parse_expr(p);
		return o->expr >= 0;
	}
	if (ab) {
		if (!tok_is(p, '|')) {
			asm_err(c, abs_col, "missing closing '|'");
			return false;
		}
		p->i++;
	}
	o->p_not = nt;
	o->p_bitnot = bn;
	o->p_neg = ng;
	o->p_abs = ab;
	return true;
}

static void skip_hints(pcur *p)
{
	while (p->i < p->end && p->c->toks[p->i].kind == T_HINT)
		p->i++;
}

bool asm_parse_operands(pcur *p, operand *ops, int *nops)
{
	asm_ctx *c = p->c;
	int n = 0;
	bool first = true;
	*nops = 0;
	for (;;) {
		skip_hints(p);
		const tok *t = tok_cur(p);
		if (!t)
			break;
		if (first && t->kind == T_PUNCT && t->p == ',') {
			/* "EXIT, P2" (seed 004): a comma right after the mnemonic */
			p->i++;
			skip_hints(p);
			if (!tok_cur(p)) {
				asm_err(c, t->col, "expected an operand after ','");
				return false;
			}
		}
		first = false;
		if (n == ASM_MAX_OPERANDS) {
			asm_err(c, cur_col(p), "too many operands");
			return false;
		}
		if (!parse_operand(p, &ops[n]))
			return false;
		n++;
		skip_hints(p);
		t = tok_cur(p);
		if (!t)
			break;
		if (t->kind == T_PUNCT && t->p == ',') {
			p->i++;
			skip_hints(p);
			if (!tok_cur(p)) {
				asm_err(c, t->col, "expected an operand after ','");
				return false;
			}
		}
	}
	*nops = n;
	return true;
}
