/* isagen — reads ISA descriptions written in the seeds' DSL and generates
 * every table of warpemu: opcode enum and names, the decoded-instruction
 * struct, field tables for the encoder/decoder and the assembler /
 * disassembler, the per-optype dispatch list, the __Exception checks, and
 * the ISA reference page.
 *
 *   isagen -o OUTDIR file.isa...        writes isa_gen.h, isa_gen.c, isa_ref.md
 *   isagen --check file.isa...          parse and validate only
 *
 * Errors are printed as "file:line: message"; the exit status is 1 when
 * any description is malformed.
 *
 * The DSL (seeds 000 and 004):
 *   __DefBitFieldType NAME<W>   followed by one value per line "V;" (the
 *                               project may write "V = N;" to pin a value)
 *   __DefGroup NAME [: [P, ...]]     fields/operand info shared by children
 *   __DefOptype NAME : [P, ...]      one operation (field optype==NAME)
 *   __DefOpcode NAME : [P, ...]      one encoding form (field stype==S)
 *   sections: __Encoding (field<pos,width> Type name [== v | = default];)
 *             __OperandInfo (InList<> OutList<> Order<> Bitwidth<x> = n;
 *                            AsmFormat<x> = Cvt...(...);)
 *             __Exception (EncodingError<Kind, "msg"> = expr;)
 *             __Syntax / __Examples / __Description / __Semantics /
 *             __ModifierInfo (prose, kept for the reference page)
 * and one project extension, documented in doc/isa-dsl.md:
 *   __Amend NAME [: [P, ...]]   adds parents, fields, defaults or operand
 *                               info to an existing definition.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64

typedef struct gen gen;

/* ------------------------------------------------------------------ */
/* diagnostics                                                         */

struct gen {
	int errors;
	int max_errors;
	/* definitions */
	struct bft *bfts;
	int nbft, capbft;
	struct def *defs;
	int ndef, capdef;
	struct amend *amends;
	int namend, capamend;
};

static void err(gen *g, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	g->errors++;
	if (g->errors > g->max_errors)
		return;
	fprintf(stderr, "%s:%d: error: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "isagen: out of memory\n");
		exit(2);
	}
	return q;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

static char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

#define GROW(arr, n, cap)                                                    \
	do {                                                                 \
		if ((n) >= (cap)) {                                          \
			(cap) = (cap) ? (cap) * 2 : 16;                      \
			(arr) = xrealloc((arr), sizeof(*(arr)) * (size_t)(cap)); \
		}                                                            \
	} while (0)

/* ------------------------------------------------------------------ */
/* data model                                                          */

struct bft {                 /* __DefBitFieldType */
	char *name;
	int width;
	int nvalues;
	char **values;          /* index = encoding; NULL = unassigned slot */
	const char *file;
	int line;
	bool used;
};

enum fkind {
	K_OPTYPE, K_STYPE, K_ENUM, K_REG, K_UREG, K_PRED, K_UPRED,
	K_NOT, K_BITNOT, K_NEG, K_ABS, K_UIMM, K_SIMM, K_FIMM, K_CMEM
};

static const char *const kind_c[] = {
	"ISA_K_OPTYPE", "ISA_K_STYPE", "ISA_K_ENUM", "ISA_K_REG", "ISA_K_UREG",
	"ISA_K_PRED", "ISA_K_UPRED", "ISA_K_NOT", "ISA_K_BITNOT", "ISA_K_NEG",
	"ISA_K_ABS", "ISA_K_UIMM", "ISA_K_SIMM", "ISA_K_FIMM", "ISA_K_CMEM"
};

struct field {
	char *name;             /* may contain one '.', e.g. pg.not   */
	char *type;
	int pos, width;
	int kind;
	int bft;                /* K_ENUM / OPTYPE / STYPE: index     */
	bool fixed, has_default;
	char *valtext;          /* as written                         */
	int64_t value;          /* resolved                           */
	const char *file;
	int line;
};

struct kv { char *key; char *val; const char *file; int line; };

struct opinfo {
	bool has_in, has_out, has_order;
	int nin, nout, norder;
	char *in[MAXN], *out[MAXN], *order[MAXN];
	int norder_line;
	struct kv bitwidth[MAXN];
	int nbitwidth;
	struct kv asmfmt[MAXN];
	int nasmfmt;
};

struct exc {
	char *kind, *msg, *expr;
	const char *file;
	int line;
};

enum defkind { D_GROUP, D_OPTYPE, D_OPCODE };

struct def {
	int kind;
	char *name;
	int nparents;
	char *parents[MAXN];
	struct field *fields;
	int nfields, capfields;
	struct opinfo oi;
	struct exc excs[8];
	int nexc;
	char *syntax;           /* __Syntax text (first code block)   */
	char *dialect;          /* __Dialect NAME, or NULL (all)      */
	char *examples;         /* __Examples code text               */
	char *description;      /* first paragraph of __Description   */
	const char *file;
	int line;
	bool used;
};

struct amend {
	char *target;
	struct def d;           /* collected like a definition */
};

/* ------------------------------------------------------------------ */
/* lexing helpers                                                      */

static const char *skipws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

static bool is_ident_start(int c) { return isalpha(c) || c == '_'; }
static bool is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

/* Strip a trailing // comment not inside a string. */
static void strip_comment(char *s)
{
	bool instr = false;
	for (char *p = s; *p; p++) {
		if (*p == '"')
			instr = !instr;
		else if (!instr && p[0] == '/' && p[1] == '/') {
			*p = 0;
			break;
		}
	}
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
		     s[n - 1] == '\n'))
		s[--n] = 0;
}

static bool parse_int(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	bool neg = false;
	s = skipws(s);
	if (*s == '-') {
		neg = true;
		s++;
	}
	if (!isdigit((unsigned char)*s))
		return false;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *skipws(end))
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* Parse "NAME<args>" lists like "InList<a, b>"; returns malloc'd items. */
static int split_list(const char *s, char **items, int max)
{
	int n = 0;
	while (*s) {
		s = skipws(s);
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != ',')
			e++;
		const char *t = e;
		while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
			t--;
		if (t > s) {
			if (n == max)
				return -1;
			items[n++] = xstrndup(s, (size_t)(t - s));
		}
		s = *e ? e + 1 : e;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* parser                                                              */

enum section { S_NONE, S_ENCODING, S_OPINFO, S_EXCEPTION, S_SYNTAX,
	       S_EXAMPLES, S_DESCRIPTION, S_OTHER };

typedef struct pstate {
	gen *g;
	const char *file;
	int line;
	struct bft *cur_bft;    /* index-stable? no: use index */
	int cur_bft_i;
	struct def *cur;        /* pointer into defs or amends: re-fetched */
	int cur_def_i, cur_amend_i;
	int section;
	bool in_fence;
	char *textbuf;          /* collected code text for syntax/examples */
	size_t textlen;
	bool desc_done;
} pstate;

static struct def *pcur(pstate *ps)
{
	if (ps->cur_def_i >= 0)
		return &ps->g->defs[ps->cur_def_i];
	if (ps->cur_amend_i >= 0)
		return &ps->g->amends[ps->cur_amend_i].d;
	return NULL;
}

static void append_text(char **buf, const char *line)
{
	size_t old = *buf ? strlen(*buf) : 0, n = strlen(line);
	*buf = xrealloc(*buf, old + n + 2);
	memcpy(*buf + old, line, n);
	(*buf)[old + n] = '\n';
	(*buf)[old + n + 1] = 0;
}

static int find_bft(gen *g, const char *name)
{
	for (int i = 0; i < g->nbft; i++)
		if (!strcmp(g->bfts[i].name, name))
			return i;
	return -1;
}

static int find_def(gen *g, const char *name)
{
	for (int i = 0; i < g->ndef; i++)
		if (!strcmp(g->defs[i].name, name))
			return i;
	return -1;
}

/* "NAME<W>" */
static void parse_bft_header(pstate *ps, const char *s)
{
	gen *g = ps->g;
	const char *n0 = skipws(s);
	const char *n1 = n0;
	while (is_ident_char((unsigned char)*n1))
		n1++;
	if (n1 == n0 || *skipws(n1) != '<') {
		err(g, ps->file, ps->line, "expected '__DefBitFieldType NAME<WIDTH>'");
		ps->cur_bft_i = -1;
		return;
	}
	char *name = xstrndup(n0, (size_t)(n1 - n0));
	const char *w0 = skipws(n1) + 1;
	char *close = strchr(w0, '>');
	int64_t w;
	char *wtxt = close ? xstrndup(w0, (size_t)(close - w0)) : NULL;
	if (!close || !parse_int(wtxt, &w) || w < 1 || w > 32 || *skipws(close + 1)) {
		err(g, ps->file, ps->line, "bad width in __DefBitFieldType %s", name);
		free(wtxt);
		free(name);
		ps->cur_bft_i = -1;
		return;
	}
	free(wtxt);
	if (find_bft(g, name) >= 0) {
		err(g, ps->file, ps->line, "bit field type '%s' defined twice", name);
		free(name);
		ps->cur_bft_i = -1;
		return;
	}
	GROW(g->bfts, g->nbft, g->capbft);
	struct bft *b = &g->bfts[g->nbft];
	memset(b, 0, sizeof *b);
	b->name = name;
	b->width = (int)w;
	b->file = ps->file;
	b->line = ps->line;
	ps->cur_bft_i = g->nbft++;
}

static void parse_bft_value(pstate *ps, const char *s)
{
	gen *g = ps->g;
	struct bft *b = &g->bfts[ps->cur_bft_i];
	const char *e = strchr(s, ';');
	if (!e || *skipws(e + 1)) {
		err(g, ps->file, ps->line, "expected 'VALUE;' in %s", b->name);
		return;
	}
	char *body = xstrndup(s, (size_t)(e - s));
	char *eq = strchr(body, '=');
	int64_t idx = b->nvalues;
	if (eq) {
		*eq = 0;
		if (!parse_int(eq + 1, &idx) || idx < 0) {
			err(g, ps->file, ps->line, "bad value number in %s", b->name);
			free(body);
			return;
		}
	}
	strip_comment(body);
	char *nm = (char *)skipws(body);
	size_t nl = strlen(nm);
	while (nl && (nm[nl - 1] == ' ' || nm[nl - 1] == '\t'))
		nm[--nl] = 0;
	/* value names may start with a digit: size modifiers such as .64 */
	bool ok = nl > 0 && (is_ident_start((unsigned char)nm[0]) || isdigit((unsigned char)nm[0]));
	for (size_t i = 0; ok && i < nl; i++)
		ok = is_ident_char((unsigned char)nm[i]);
	if (!ok) {
		err(g, ps->file, ps->line, "bad value name '%s' in %s", nm, b->name);
		free(body);
		return;
	}
	if (idx >= ((int64_t)1 << b->width)) {
		err(g, ps->file, ps->line,
		    "value %s = %lld does not fit %s<%d>", nm, (long long)idx,
		    b->name, b->width);
		free(body);
		return;
	}
	for (int i = 0; i < b->nvalues; i++)
		if (b->values[i] && !strcmp(b->values[i], nm)) {
			err(g, ps->file, ps->line, "value '%s' repeated in %s", nm, b->name);
			free(body);
			return;
		}
	if (idx < b->nvalues && b->values[idx]) {
		err(g, ps->file, ps->line, "value number %lld used twice in %s",
		    (long long)idx, b->name);
		free(body);
		return;
	}
	if (idx >= b->nvalues) {
		b->values = xrealloc(b->values, sizeof(char *) * (size_t)(idx + 1));
		for (int64_t i = b->nvalues; i <= idx; i++)
			b->values[i] = NULL;
		b->nvalues = (int)idx + 1;
	}
	b->values[idx] = xstrdup(nm);
	free(body);
}

/* "NAME [: [A, B]]" */
static bool parse_def_header(pstate *ps, const char *s, struct def *d, bool need_parents)
{
	gen *g = ps->g;
	const char *n0 = skipws(s), *n1 = n0;
	while (is_ident_char((unsigned char)*n1))
		n1++;
	if (n1 == n0) {
		err(g, ps->file, ps->line, "expected a name");
		return false;
	}
	d->name = xstrndup(n0, (size_t)(n1 - n0));
	d->file = ps->file;
	d->line = ps->line;
	const char *r = skipws(n1);
	if (!*r) {
		if (need_parents) {
			err(g, ps->file, ps->line, "'%s' needs a parent list ': [..]'", d->name);
			return false;
		}
		return true;
	}
	if (*r != ':') {
		err(g, ps->file, ps->line, "expected ':' after '%s'", d->name);
		return false;
	}
	r = skipws(r + 1);
	if (*r != '[') {
		err(g, ps->file, ps->line, "expected '[' after ':'");
		return false;
	}
	const char *close = strchr(r, ']');
	if (!close || *skipws(close + 1)) {
		err(g, ps->file, ps->line, "unterminated parent list");
		return false;
	}
	char *inner = xstrndup(r + 1, (size_t)(close - r - 1));
	int n = split_list(inner, d->parents, MAXN);
	free(inner);
	if (n < 0) {
		err(g, ps->file, ps->line, "too many parents");
		return false;
	}
	d->nparents = n;
	return true;
}

static void parse_field(pstate *ps, struct def *d, const char *s)
{
	gen *g = ps->g;
	/* field<pos, width> Type name [== v | = v]; */
	const char *p = skipws(s) + 5;
	p = skipws(p);
	if (*p != '<') {
		err(g, ps->file, ps->line, "expected 'field<pos, width>'");
		return;
	}
	const char *close = strchr(p, '>');
	if (!close) {
		err(g, ps->file, ps->line, "unterminated 'field<'");
		return;
	}
	char *args = xstrndup(p + 1, (size_t)(close - p - 1));
	char *it[4];
	int n = split_list(args, it, 4);
	free(args);
	int64_t pos = -1, width = -1;
	if (n != 2 || !parse_int(it[0], &pos) || !parse_int(it[1], &width) ||
	    pos < 0 || width < 1 || pos + width > 128) {
		err(g, ps->file, ps->line, "bad field position/width (must lie within 128 bits)");
		for (int i = 0; i < n; i++)
			free(it[i]);
		return;
	}
	for (int i = 0; i < n; i++)
		free(it[i]);
	const char *q = strchr(close, ';');
	if (!q || *skipws(q + 1)) {
		err(g, ps->file, ps->line, "field declaration must end with ';'");
		return;
	}
	char *rest = xstrndup(close + 1, (size_t)(q - close - 1));
	char *t0 = (char *)skipws(rest), *t1 = t0;
	while (is_ident_char((unsigned char)*t1))
		t1++;
	char *n0 = (char *)skipws(t1), *n1 = n0;
	while (is_ident_char((unsigned char)*n1))
		n1++;
	if (t1 == t0 || n1 == n0) {
		err(g, ps->file, ps->line, "expected 'Type name' in field declaration");
		free(rest);
		return;
	}
	struct field f;
	memset(&f, 0, sizeof f);
	f.type = xstrndup(t0, (size_t)(t1 - t0));
	f.name = xstrndup(n0, (size_t)(n1 - n0));
	f.pos = (int)pos;
	f.width = (int)width;
	f.file = ps->file;
	f.line = ps->line;
	f.bft = -1;
	const char *r = skipws(n1);
	if (r[0] == '=' && r[1] == '=') {
		f.fixed = true;
		r = skipws(r + 2);
	} else if (r[0] == '=') {
		f.has_default = true;
		r = skipws(r + 1);
	} else if (*r) {
		err(g, ps->file, ps->line, "unexpected '%s' after field name", r);
		free(rest);
		free(f.type);
		free(f.name);
		return;
	}
	if (f.fixed || f.has_default) {
		const char *v1 = r + strlen(r);
		while (v1 > r && (v1[-1] == ' ' || v1[-1] == '\t'))
			v1--;
		if (v1 == r) {
			err(g, ps->file, ps->line, "missing value after '='");
			free(rest);
			free(f.type);
			free(f.name);
			return;
		}
		f.valtext = xstrndup(r, (size_t)(v1 - r));
	}
	free(rest);
	GROW(d->fields, d->nfields, d->capfields);
	d->fields[d->nfields++] = f;
}

static void parse_kv_angle(pstate *ps, const char *s, const char *kw, struct kv *arr, int *n)
{
	gen *g = ps->g;
	const char *p = skipws(s) + strlen(kw);
	if (*p != '<') {
		err(g, ps->file, ps->line, "expected '%s<name>'", kw);
		return;
	}
	const char *c = strchr(p, '>');
	const char *eq = c ? strchr(c, '=') : NULL;
	const char *semi = eq ? strrchr(eq, ';') : NULL;
	if (!c || !eq || !semi || *skipws(semi + 1)) {
		err(g, ps->file, ps->line, "expected '%s<name> = value;'", kw);
		return;
	}
	if (*n >= MAXN) {
		err(g, ps->file, ps->line, "too many %s entries", kw);
		return;
	}
	char *key = xstrndup(p + 1, (size_t)(c - p - 1));
	char *k = (char *)skipws(key);
	memmove(key, k, strlen(k) + 1);
	size_t kl = strlen(key);
	while (kl && key[kl - 1] == ' ')
		key[--kl] = 0;
	const char *v0 = skipws(eq + 1), *v1 = semi;
	while (v1 > v0 && (v1[-1] == ' ' || v1[-1] == '\t'))
		v1--;
	arr[*n].key = key;
	arr[*n].val = xstrndup(v0, (size_t)(v1 - v0));
	arr[*n].file = ps->file;
	arr[*n].line = ps->line;
	(*n)++;
}

static void parse_list_angle(pstate *ps, const char *s, const char *kw,
			     char **items, int *n, bool *has)
{
	gen *g = ps->g;
	const char *p = skipws(s) + strlen(kw);
	const char *c = strrchr(p, '>');
	if (*p != '<' || !c || c[1] != ';' || *skipws(c + 2)) {
		err(g, ps->file, ps->line, "expected '%s<a, b, ...>;'", kw);
		return;
	}
	if (*has) {
		err(g, ps->file, ps->line, "%s given twice", kw);
		return;
	}
	char *inner = xstrndup(p + 1, (size_t)(c - p - 1));
	int k = split_list(inner, items, MAXN);
	free(inner);
	if (k < 0) {
		err(g, ps->file, ps->line, "%s too long", kw);
		return;
	}
	for (int i = 0; i < k; i++) {
		const char *t = items[i];
		bool ok = is_ident_start((unsigned char)t[0]);
		for (; ok && *t; t++)
			ok = is_ident_char((unsigned char)*t);
		if (!ok)
			err(g, ps->file, ps->line, "bad name '%s' in %s", items[i], kw);
	}
	*n = k;
	*has = true;
}

static void parse_opinfo(pstate *ps, struct def *d, const char *s)
{
	const char *t = skipws(s);
	struct opinfo *oi = &d->oi;
	if (!strncmp(t, "InList", 6))
		parse_list_angle(ps, t, "InList", oi->in, &oi->nin, &oi->has_in);
	else if (!strncmp(t, "OutList", 7))
		parse_list_angle(ps, t, "OutList", oi->out, &oi->nout, &oi->has_out);
	else if (!strncmp(t, "Order", 5)) {
		parse_list_angle(ps, t, "Order", oi->order, &oi->norder, &oi->has_order);
		oi->norder_line = ps->line;
	} else if (!strncmp(t, "Bitwidth", 8))
		parse_kv_angle(ps, t, "Bitwidth", oi->bitwidth, &oi->nbitwidth);
	else if (!strncmp(t, "AsmFormat", 9))
		parse_kv_angle(ps, t, "AsmFormat", oi->asmfmt, &oi->nasmfmt);
	else {
		/* An optype's __OperandInfo is prose (seed 000); only a line of
		 * the form Word<...> is meant as a declaration. */
		const char *e = t;
		while (isalpha((unsigned char)*e))
			e++;
		if (e > t && *e == '<')
			err(ps->g, ps->file, ps->line, "unknown operand info '%.*s'", (int)(e - t), t);
	}
}

static void parse_exception(pstate *ps, struct def *d, const char *s)
{
	gen *g = ps->g;
	const char *t = skipws(s);
	if (strncmp(t, "EncodingError<", 14)) {
		err(g, ps->file, ps->line, "expected 'EncodingError<Kind, \"message\"> = expr;'");
		return;
	}
	const char *k0 = t + 14, *comma = strchr(k0, ',');
	const char *q0 = comma ? strchr(comma, '"') : NULL;
	const char *q1 = q0 ? strchr(q0 + 1, '"') : NULL;
	const char *gt = q1 ? strchr(q1, '>') : NULL;
	const char *eq = gt ? strchr(gt, '=') : NULL;
	const char *semi = eq ? strrchr(eq, ';') : NULL;
	if (!semi || *skipws(semi + 1)) {
		err(g, ps->file, ps->line, "malformed EncodingError");
		return;
	}
	if (d->nexc == 8) {
		err(g, ps->file, ps->line, "too many exceptions");
		return;
	}
	struct exc *e = &d->excs[d->nexc++];
	e->kind = xstrndup(k0, (size_t)(comma - k0));
	e->msg = xstrndup(q0 + 1, (size_t)(q1 - q0 - 1));
	e->expr = xstrndup(eq + 1, (size_t)(semi - eq - 1));
	e->file = ps->file;
	e->line = ps->line;
}

static bool starts_kw(const char *t, const char *kw)
{
	size_t n = strlen(kw);
	return !strncmp(t, kw, n) && !is_ident_char((unsigned char)t[n]);
}

/* Parse `path`; messages and tables name it `name`. */
static void parse_file2(gen *g, const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		err(g, name, 0, "cannot open: %s", strerror(errno));
		return;
	}
	pstate ps;
	memset(&ps, 0, sizeof ps);
	ps.g = g;
	ps.file = name;
	ps.cur_bft_i = -1;
	ps.cur_def_i = -1;
	ps.cur_amend_i = -1;
	char buf[4096];
	bool in_bft = false;
	while (fgets(buf, sizeof buf, f)) {
		ps.line++;
		size_t len = strlen(buf);
		if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
			err(g, name, ps.line, "line too long");
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		if (memchr(buf, 0, len) != NULL && strlen(buf) != len) {
			err(g, name, ps.line, "NUL byte in description");
			continue;
		}
		char raw[4096];
		memcpy(raw, buf, len + 1);
		strip_comment(raw);
		const char *t = skipws(raw);
		/* fenced code in prose sections */
		if (!strncmp(skipws(buf), "```", 3)) {
			ps.in_fence = !ps.in_fence;
			continue;
		}
		if (ps.in_fence) {
			struct def *d = pcur(&ps);
			char keep[4096];
			memcpy(keep, buf, len + 1);
			while (len && (keep[len - 1] == '\n' || keep[len - 1] == '\r'))
				keep[--len] = 0;
			if (d && ps.section == S_SYNTAX)
				append_text(&d->syntax, keep);
			else if (d && ps.section == S_EXAMPLES)
				append_text(&d->examples, keep);
			continue;
		}
		/* top level */
		if (buf[0] == '_' && buf[1] == '_') {
			in_bft = false;
			ps.cur_def_i = ps.cur_amend_i = -1;
			ps.section = S_NONE;
			ps.desc_done = false;
			if (starts_kw(t, "__DefBitFieldType")) {
				parse_bft_header(&ps, t + 17);
				in_bft = ps.cur_bft_i >= 0;
				continue;
			}
			int kind = -1;
			const char *rest = NULL;
			if (starts_kw(t, "__DefGroup"))
				kind = D_GROUP, rest = t + 10;
			else if (starts_kw(t, "__DefOptype"))
				kind = D_OPTYPE, rest = t + 11;
			else if (starts_kw(t, "__DefOpcode"))
				kind = D_OPCODE, rest = t + 11;
			if (kind >= 0) {
				struct def d;
				memset(&d, 0, sizeof d);
				d.kind = kind;
				if (!parse_def_header(&ps, rest, &d, kind != D_GROUP))
					continue;
				if (find_def(g, d.name) >= 0 || find_bft(g, d.name) >= 0) {
					err(g, name, ps.line, "'%s' defined twice", d.name);
					continue;
				}
				GROW(g->defs, g->ndef, g->capdef);
				g->defs[g->ndef] = d;
				ps.cur_def_i = g->ndef++;
				continue;
			}
			if (starts_kw(t, "__Amend")) {
				struct amend a;
				memset(&a, 0, sizeof a);
				if (!parse_def_header(&ps, t + 7, &a.d, false))
					continue;
				a.target = xstrdup(a.d.name);
				GROW(g->amends, g->namend, g->capamend);
				g->amends[g->namend] = a;
				ps.cur_amend_i = g->namend++;
				continue;
			}
			err(g, name, ps.line, "unknown definition '%.40s'", t);
			continue;
		}
		if (!*t)
			continue;
		if (in_bft) {
			parse_bft_value(&ps, t);
			continue;
		}
		struct def *d = pcur(&ps);
		if (!d) {
			err(g, name, ps.line, "text outside any definition: '%.40s'", t);
			continue;
		}
		if (starts_kw(t, "__Dialect")) {
			/* project extension: the dialect an instruction belongs to */
			const char *n0 = skipws(t + 9), *n1 = n0;
			while (isalnum((unsigned char)*n1))
				n1++;
			if (n1 == n0 || *skipws(n1) || d->dialect)
				err(g, name, ps.line, "expected '__Dialect NAME' (once per definition)");
			else
				d->dialect = xstrndup(n0, (size_t)(n1 - n0));
			continue;
		}
		if (t[0] == '_' && t[1] == '_') {
			if (starts_kw(t, "__Encoding"))
				ps.section = S_ENCODING;
			else if (starts_kw(t, "__OperandInfo"))
				ps.section = S_OPINFO;
			else if (starts_kw(t, "__Exception"))
				ps.section = S_EXCEPTION;
			else if (starts_kw(t, "__Syntax"))
				ps.section = S_SYNTAX;
			else if (starts_kw(t, "__Examples"))
				ps.section = S_EXAMPLES;
			else if (starts_kw(t, "__Description"))
				ps.section = S_DESCRIPTION;
			else if (starts_kw(t, "__Semantics") || starts_kw(t, "__ModifierInfo"))
				ps.section = S_OTHER;
			else {
				err(g, name, ps.line, "unknown section '%.40s'", t);
				ps.section = S_OTHER;
			}
			continue;
		}
		switch (ps.section) {
		case S_ENCODING:
			if (starts_kw(t, "field"))
				parse_field(&ps, d, t);
			else
				err(g, name, ps.line, "expected 'field<pos, width> Type name;' in __Encoding");
			break;
		case S_OPINFO:
			parse_opinfo(&ps, d, t);
			break;
		case S_EXCEPTION:
			parse_exception(&ps, d, t);
			break;
		case S_DESCRIPTION:
			if (!ps.desc_done && t[0] != '#' && t[0] != '|' && t[0] != '*') {
				append_text(&d->description, t);
				ps.desc_done = true;
			}
			break;
		case S_NONE:
			err(g, name, ps.line, "text before any section: '%.40s'", t);
			break;
		default:
			break;
		}
	}
	if (ps.in_fence)
		err(g, name, ps.line, "unterminated ``` block");
	if (ferror(f))
		err(g, name, ps.line, "read error");
	fclose(f);
}

/* ------------------------------------------------------------------ */
/* resolution                                                          */

struct rfield {               /* a field of a resolved opcode */
	struct field f;
	int bitwidth;            /* Bitwidth<> */
	int asm_shift;
	bool pcrel;              /* CvtPCRel: printed as an absolute target */
	int pcrel_if_field;      /* CvtPCRelIf(x, n, field == V): index or -1 */
	int64_t pcrel_if_value;
	int mem_off;             /* Mem(ra, off): index of the offset field */
	int cmem_bank;           /* CMemInd(bank, ra, off): bank field index */
	bool consumed;           /* part of another field's operand       */
	bool is_in, is_out;
	int base;                /* NOT/BITNOT/NEG/ABS -> modified field  */
	int member;
};

struct opc {                  /* a resolved opcode */
	struct def *d;
	struct def *optype;
	const char *unit;
	struct rfield fl[MAXN];
	int nf;
	int order[MAXN];
	int norder;
	int mods[MAXN];
	int nmods;
	int optype_val, stype_val;
	char *mnemonic, *alt;
	struct exc *excs[16];
	int nexc;
	uint64_t used_lo, used_hi;
	const char *dialect;
};

static int lookup_kind(gen *g, const char *type, int width, int *bft, const char *file, int line)
{
	*bft = -1;
	if (!strcmp(type, "Optype") || !strcmp(type, "SType")) {
		*bft = find_bft(g, type);
		if (*bft < 0) {
			err(g, file, line, "no '__DefBitFieldType %s' assigns its values", type);
			return -1;
		}
		return !strcmp(type, "Optype") ? K_OPTYPE : K_STYPE;
	}
	if (!strcmp(type, "Reg"))
		return K_REG;
	if (!strcmp(type, "UReg"))
		return K_UREG;
	if (!strcmp(type, "Pred"))
		return K_PRED;
	if (!strcmp(type, "UPred"))
		return K_UPRED;
	if (!strcmp(type, "PModi"))
		return K_NOT;
	if (!strcmp(type, "SignModi"))
		return K_BITNOT;
	if (!strcmp(type, "NegModi"))
		return K_NEG;
	if (!strcmp(type, "AbsModi"))
		return K_ABS;
	if (!strcmp(type, "CMem"))
		return K_CMEM;
	if (!strcmp(type, "F32Imm"))
		return K_FIMM;
	int64_t n;
	if (!strncmp(type, "UImm", 4) && parse_int(type + 4, &n)) {
		if (n != width)
			err(g, file, line, "%s in a %d-bit field", type, width);
		return K_UIMM;
	}
	if (!strncmp(type, "SImm", 4) && parse_int(type + 4, &n)) {
		if (n != width)
			err(g, file, line, "%s in a %d-bit field", type, width);
		return K_SIMM;
	}
	*bft = find_bft(g, type);
	if (*bft >= 0)
		return K_ENUM;
	err(g, file, line, "unknown field type '%s'", type);
	return -1;
}

static int expect_width(int kind)
{
	switch (kind) {
	case K_REG: return 8;
	case K_UREG: return 6;
	case K_PRED: case K_UPRED: return 3;
	case K_NOT: case K_BITNOT: case K_NEG: case K_ABS: return 1;
	case K_CMEM: return 22;
	case K_FIMM: return 32;
	default: return 0;
	}
}

static int enum_index(const struct bft *b, const char *v)
{
	for (int i = 0; i < b->nvalues; i++)
		if (b->values[i] && !strcmp(b->values[i], v))
			return i;
	return -1;
}

static bool resolve_value(gen *g, struct field *f)
{
	const char *v = f->valtext;
	int64_t n;
	switch (f->kind) {
	case K_OPTYPE: case K_STYPE: case K_ENUM: {
		int i = enum_index(&g->bfts[f->bft], v);
		if (i < 0) {
			err(g, f->file, f->line, "'%s' is not a value of %s", v, g->bfts[f->bft].name);
			return false;
		}
		f->value = i;
		return true;
	}
	case K_PRED: case K_UPRED:
		if (!strcmp(v, "PT") || !strcmp(v, "UPT")) {
			f->value = 7;
			return true;
		}
		if ((v[0] == 'P' && v[1] >= '0' && v[1] <= '6' && !v[2]) ||
		    (v[0] == 'U' && v[1] == 'P' && v[2] >= '0' && v[2] <= '6' && !v[3])) {
			f->value = v[strlen(v) - 1] - '0';
			return true;
		}
		break;
	case K_REG:
		if (!strcmp(v, "RZ")) {
			f->value = 255;
			return true;
		}
		break;
	case K_UREG:
		if (!strcmp(v, "URZ")) {
			f->value = 63;
			return true;
		}
		break;
	case K_NOT: case K_BITNOT: case K_NEG: case K_ABS:
		if (!strcmp(v, "False") || !strcmp(v, "false")) {
			f->value = 0;
			return true;
		}
		if (!strcmp(v, "True") || !strcmp(v, "true")) {
			f->value = 1;
			return true;
		}
		break;
	default:
		if (parse_int(v, &n)) {
			int64_t lo, hi;
			if (f->kind == K_SIMM) {
				hi = f->width >= 64 ? INT64_MAX : ((int64_t)1 << (f->width - 1)) - 1;
				lo = -hi - 1;
			} else {
				lo = 0;
				hi = f->width >= 63 ? INT64_MAX : ((int64_t)1 << f->width) - 1;
			}
			if (n < lo || n > hi) {
				err(g, f->file, f->line, "value %s does not fit field '%s'", v, f->name);
				return false;
			}
			f->value = n;
			return true;
		}
		break;
	}
	err(g, f->file, f->line, "bad value '%s' for field '%s' of type %s", v, f->name, f->type);
	return false;
}

static bool check_field(gen *g, struct field *f)
{
	f->kind = lookup_kind(g, f->type, f->width, &f->bft, f->file, f->line);
	if (f->kind < 0)
		return false;
	int ew = expect_width(f->kind);
	if (ew && ew != f->width) {
		err(g, f->file, f->line, "field '%s' of type %s must be %d bits wide, not %d",
		    f->name, f->type, ew, f->width);
		return false;
	}
	if (f->bft >= 0) {
		g->bfts[f->bft].used = true;
		if (g->bfts[f->bft].width != f->width) {
			err(g, f->file, f->line, "field '%s' is %d bits but %s is %d bits",
			    f->name, f->width, f->type, g->bfts[f->bft].width);
			return false;
		}
	}
	if (!strcmp(f->name, "opcode")) {
		err(g, f->file, f->line, "'opcode' is reserved and cannot name a field");
		return false;
	}
	bool dotted = strchr(f->name, '.') != NULL;
	bool modi = f->kind == K_NOT || f->kind == K_BITNOT || f->kind == K_NEG || f->kind == K_ABS;
	if (dotted != modi) {
		err(g, f->file, f->line, modi ? "modifier field '%s' must be named 'operand.modifier'"
					       : "field name '%s' may not contain '.'", f->name);
		return false;
	}
	if ((f->kind == K_OPTYPE || f->kind == K_STYPE) && !f->fixed) {
		err(g, f->file, f->line, "%s field must be fixed with '=='", f->type);
		return false;
	}
	if (f->fixed && f->kind != K_OPTYPE && f->kind != K_STYPE) {
		err(g, f->file, f->line, "only Optype and SType fields may be fixed with '=='");
		return false;
	}
	if (f->valtext && !resolve_value(g, f))
		return false;
	return true;
}

static struct def *get_def(gen *g, const char *name)
{
	int i = find_def(g, name);
	return i < 0 ? NULL : &g->defs[i];
}

static void apply_amends(gen *g)
{
	for (int a = 0; a < g->namend; a++) {
		struct amend *am = &g->amends[a];
		struct def *d = get_def(g, am->target);
		if (!d) {
			err(g, am->d.file, am->d.line, "__Amend of unknown definition '%s'", am->target);
			continue;
		}
		for (int i = 0; i < am->d.nparents; i++) {
			if (d->nparents == MAXN) {
				err(g, am->d.file, am->d.line, "too many parents");
				break;
			}
			d->parents[d->nparents++] = am->d.parents[i];
		}
		for (int i = 0; i < am->d.nfields; i++) {
			struct field *nf = &am->d.fields[i];
			int j;
			for (j = 0; j < d->nfields; j++)
				if (!strcmp(d->fields[j].name, nf->name))
					break;
			if (j < d->nfields) {
				struct field *of = &d->fields[j];
				if (of->pos != nf->pos || of->width != nf->width || strcmp(of->type, nf->type)) {
					err(g, nf->file, nf->line,
					    "__Amend may change only the default of field '%s' (declared at %s:%d)",
					    nf->name, of->file, of->line);
					continue;
				}
				*of = *nf;
			} else {
				GROW(d->fields, d->nfields, d->capfields);
				d->fields[d->nfields++] = *nf;
			}
		}
		struct opinfo *s = &am->d.oi, *o = &d->oi;
		if (s->has_in) {
			memcpy(o->in, s->in, sizeof o->in);
			o->nin = s->nin;
			o->has_in = true;
		}
		if (s->has_out) {
			memcpy(o->out, s->out, sizeof o->out);
			o->nout = s->nout;
			o->has_out = true;
		}
		if (s->has_order) {
			memcpy(o->order, s->order, sizeof o->order);
			o->norder = s->norder;
			o->has_order = true;
		}
		for (int i = 0; i < s->nbitwidth && o->nbitwidth < MAXN; i++)
			o->bitwidth[o->nbitwidth++] = s->bitwidth[i];
		for (int i = 0; i < s->nasmfmt && o->nasmfmt < MAXN; i++)
			o->asmfmt[o->nasmfmt++] = s->asmfmt[i];
		for (int i = 0; i < am->d.nexc && d->nexc < 8; i++)
			d->excs[d->nexc++] = am->d.excs[i];
		if (am->d.syntax && !d->syntax)
			d->syntax = am->d.syntax;
	}
}

/* Collect ancestors (parents first, depth first, each once). */
static void collect(gen *g, struct def *d, struct def **out, int *n, int depth, bool *bad)
{
	if (depth > 32) {
		err(g, d->file, d->line, "inheritance cycle through '%s'", d->name);
		*bad = true;
		return;
	}
	for (int i = 0; i < d->nparents; i++) {
		if (!strcmp(d->parents[i], "ALL"))
			continue;
		struct def *p = get_def(g, d->parents[i]);
		if (!p) {
			err(g, d->file, d->line, "'%s' has unknown parent '%s'", d->name, d->parents[i]);
			*bad = true;
			continue;
		}
		if (p->kind == D_OPCODE) {
			err(g, d->file, d->line, "'%s' cannot derive from opcode '%s'", d->name, p->name);
			*bad = true;
			continue;
		}
		collect(g, p, out, n, depth + 1, bad);
	}
	for (int i = 0; i < *n; i++)
		if (out[i] == d)
			return;
	if (*n < MAXN)
		out[(*n)++] = d;
}

static const char *root_unit(gen *g, struct def *d, int depth)
{
	if (depth > 32)
		return d->name;
	for (int i = 0; i < d->nparents; i++) {
		if (!strcmp(d->parents[i], "ALL"))
			return d->name;
		struct def *p = get_def(g, d->parents[i]);
		if (p) {
			const char *u = root_unit(g, p, depth + 1);
			if (u)
				return u;
		}
	}
	return NULL;
}

static int rf_find(struct opc *o, const char *name)
{
	for (int i = 0; i < o->nf; i++)
		if (!strcmp(o->fl[i].f.name, name))
			return i;
	return -1;
}

/* parse "Fn(a, b, ...)" into parts; returns count or -1 */
static int parse_call(const char *s, char *fn, size_t fnsz, char **args, int max)
{
	const char *p = strchr(s, '(');
	const char *c = strrchr(s, ')');
	if (!p || !c || c < p || *skipws(c + 1))
		return -1;
	size_t n = (size_t)(p - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n == 0 || n >= fnsz)
		return -1;
	memcpy(fn, s, n);
	fn[n] = 0;
	char *inner = xstrndup(p + 1, (size_t)(c - p - 1));
	int k = split_list(inner, args, max);
	free(inner);
	return k;
}

static bool resolve_opcode(gen *g, struct def *d, struct opc *o)
{
	struct def *anc[MAXN];
	int na = 0;
	bool bad = false;
	memset(o, 0, sizeof *o);
	o->d = d;
	collect(g, d, anc, &na, 0, &bad);
	if (bad)
		return false;
	const char *unit = root_unit(g, d, 0);
	o->unit = unit ? unit : "ALL";
	struct opinfo oi;
	memset(&oi, 0, sizeof oi);
	for (int a = 0; a < na; a++) {
		struct def *x = anc[a];
		x->used = true;
		if (x->kind == D_OPTYPE) {
			if (o->optype && o->optype != x) {
				err(g, d->file, d->line, "opcode '%s' has two optypes (%s, %s)",
				    d->name, o->optype->name, x->name);
				return false;
			}
			o->optype = x;
		}
		for (int i = 0; i < x->nfields; i++) {
			struct field *f = &x->fields[i];
			int j = rf_find(o, f->name);
			if (j >= 0) {
				struct field *e = &o->fl[j].f;
				if (e->pos != f->pos || e->width != f->width || strcmp(e->type, f->type)) {
					err(g, f->file, f->line,
					    "field '%s' of '%s' conflicts with its declaration at %s:%d",
					    f->name, d->name, e->file, e->line);
					return false;
				}
				o->fl[j].f = *f; /* later (more derived) wins */
				continue;
			}
			if (o->nf == MAXN) {
				err(g, d->file, d->line, "too many fields");
				return false;
			}
			memset(&o->fl[o->nf], 0, sizeof o->fl[o->nf]);
			o->fl[o->nf].f = *f;
			o->nf++;
		}
		struct opinfo *s = &x->oi;
		if (s->has_in) {
			memcpy(oi.in, s->in, sizeof oi.in);
			oi.nin = s->nin;
			oi.has_in = true;
		}
		if (s->has_out) {
			memcpy(oi.out, s->out, sizeof oi.out);
			oi.nout = s->nout;
			oi.has_out = true;
		}
		if (s->has_order) {
			memcpy(oi.order, s->order, sizeof oi.order);
			oi.norder = s->norder;
			oi.has_order = true;
			oi.norder_line = s->norder_line;
		}
		for (int i = 0; i < s->nbitwidth && oi.nbitwidth < MAXN; i++)
			oi.bitwidth[oi.nbitwidth++] = s->bitwidth[i];
		for (int i = 0; i < s->nasmfmt && oi.nasmfmt < MAXN; i++)
			oi.asmfmt[oi.nasmfmt++] = s->asmfmt[i];
		for (int i = 0; i < x->nexc && o->nexc < 16; i++)
			o->excs[o->nexc++] = &x->excs[i];
		if (x->dialect) {
			if (o->dialect && strcmp(o->dialect, x->dialect)) {
				err(g, d->file, d->line, "'%s' inherits two dialects (%s, %s)", d->name,
				    o->dialect, x->dialect);
				return false;
			}
			o->dialect = x->dialect;
		}
	}
	if (!o->optype) {
		err(g, d->file, d->line, "opcode '%s' has no __DefOptype ancestor", d->name);
		return false;
	}
	/* field checks */
	int optf = -1, stf = -1;
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		if (!check_field(g, &r->f))
			return false;
		r->bitwidth = 32;
		r->base = -1;
		r->mem_off = -1;
		r->cmem_bank = -1;
		r->pcrel_if_field = -1;
		if (r->f.kind == K_OPTYPE)
			optf = i;
		if (r->f.kind == K_STYPE)
			stf = i;
	}
	if (optf < 0 || stf < 0) {
		err(g, d->file, d->line, "opcode '%s' needs both an Optype and an SType field", d->name);
		return false;
	}
	if (strcmp(g->bfts[o->fl[optf].f.bft].values[o->fl[optf].f.value], o->optype->name)) {
		err(g, o->fl[optf].f.file, o->fl[optf].f.line,
		    "optype field of '%s' names '%s'", o->optype->name,
		    g->bfts[o->fl[optf].f.bft].values[o->fl[optf].f.value]);
		return false;
	}
	o->optype_val = (int)o->fl[optf].f.value;
	o->stype_val = (int)o->fl[stf].f.value;
	/* overlaps */
	for (int i = 0; i < o->nf; i++) {
		struct field *a = &o->fl[i].f;
		for (int b = a->pos; b < a->pos + a->width; b++) {
			uint64_t bit = UINT64_C(1) << (b & 63);
			uint64_t *word = b < 64 ? &o->used_lo : &o->used_hi;
			if (*word & bit) {
				int j;
				for (j = 0; j < i; j++) {
					struct field *c = &o->fl[j].f;
					if (b >= c->pos && b < c->pos + c->width)
						break;
				}
				err(g, a->file, a->line,
				    "field '%s' overlaps field '%s' (%s:%d) at bit %d in opcode '%s'",
				    a->name, o->fl[j].f.name, o->fl[j].f.file, o->fl[j].f.line, b, d->name);
				return false;
			}
			*word |= bit;
		}
	}
	/* modifier fields belong to their operand */
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		char *dot = strchr(r->f.name, '.');
		if (!dot)
			continue;
		char *bname = xstrndup(r->f.name, (size_t)(dot - r->f.name));
		r->base = rf_find(o, bname);
		if (r->base < 0) {
			err(g, r->f.file, r->f.line, "modifier '%s' of unknown operand '%s' in '%s'",
			    r->f.name, bname, d->name);
			free(bname);
			return false;
		}
		free(bname);
	}
	/* operand info */
	if (!oi.has_order) {
		err(g, d->file, d->line, "opcode '%s' has no Order<>", d->name);
		return false;
	}
	for (int i = 0; i < oi.norder; i++) {
		int j = rf_find(o, oi.order[i]);
		if (j < 0) {
			err(g, d->file, oi.norder_line ? oi.norder_line : d->line,
			    "Order<> of '%s' names unknown field '%s'", d->name, oi.order[i]);
			return false;
		}
		for (int k = 0; k < i; k++)
			if (o->order[k] == j) {
				err(g, d->file, oi.norder_line, "Order<> of '%s' names '%s' twice",
				    d->name, oi.order[i]);
				return false;
			}
		o->order[o->norder++] = j;
	}
	for (int i = 0; i < oi.nin; i++) {
		int j = rf_find(o, oi.in[i]);
		if (j < 0) {
			err(g, d->file, d->line, "InList<> of '%s' names unknown field '%s'", d->name, oi.in[i]);
			return false;
		}
		o->fl[j].is_in = true;
	}
	for (int i = 0; i < oi.nout; i++) {
		int j = rf_find(o, oi.out[i]);
		if (j < 0) {
			err(g, d->file, d->line, "OutList<> of '%s' names unknown field '%s'", d->name, oi.out[i]);
			return false;
		}
		o->fl[j].is_out = true;
	}
	for (int i = 0; i < oi.nbitwidth; i++) {
		struct kv *kv = &oi.bitwidth[i];
		int j = rf_find(o, kv->key);
		int64_t w;
		if (j < 0) {
			err(g, kv->file, kv->line, "Bitwidth<> names unknown field '%s' in '%s'", kv->key, d->name);
			return false;
		}
		if (!parse_int(kv->val, &w) || (w != 1 && w != 4 && w != 8 && w != 12 &&
						 w != 16 && w != 32 && w != 64 && w != 128)) {
			err(g, kv->file, kv->line, "bad Bitwidth '%s'", kv->val);
			return false;
		}
		o->fl[j].bitwidth = (int)w;
	}
	for (int i = 0; i < oi.nasmfmt; i++) {
		struct kv *kv = &oi.asmfmt[i];
		int j = rf_find(o, kv->key);
		if (j < 0) {
			err(g, kv->file, kv->line, "AsmFormat<> names unknown field '%s' in '%s'", kv->key, d->name);
			return false;
		}
		char fn[32];
		char *args[4] = { 0 };
		int k = parse_call(kv->val, fn, sizeof fn, args, 4);
		bool ok = k >= 1 && !strcmp(args[0], kv->key);
		struct rfield *r = &o->fl[j];
		int64_t sh = 0;
		if (ok && (!strcmp(fn, "CvtIShift") || !strcmp(fn, "CvtPCRel"))) {
			ok = k == 2 && parse_int(args[1], &sh) && sh >= 0 && sh < 16;
			r->asm_shift = (int)sh;
			r->pcrel = !strcmp(fn, "CvtPCRel");
		} else if (ok && !strcmp(fn, "CvtPCRelIf")) {
			/* CvtPCRelIf(x, shift, field == VALUE) */
			char *eq = k == 3 ? strstr(args[2], "==") : NULL;
			ok = eq && parse_int(args[1], &sh) && sh >= 0 && sh < 16;
			if (ok) {
				char *fname = xstrndup(args[2], (size_t)(eq - args[2]));
				size_t fl = strlen(fname);
				while (fl && fname[fl - 1] == ' ')
					fname[--fl] = 0;
				int cf = rf_find(o, fname);
				const char *vv = skipws(eq + 2);
				ok = cf >= 0 && o->fl[cf].f.kind == K_ENUM;
				if (ok) {
					int v = enum_index(&g->bfts[o->fl[cf].f.bft], vv);
					ok = v >= 0;
					r->pcrel_if_field = cf;
					r->pcrel_if_value = v;
				}
				free(fname);
			}
			r->asm_shift = (int)sh;
		} else if (ok && !strcmp(fn, "Mem")) {
			int off = k == 2 ? rf_find(o, args[1]) : -1;
			ok = off >= 0 && r->f.kind == K_REG &&
			     (o->fl[off].f.kind == K_SIMM || o->fl[off].f.kind == K_UIMM);
			r->mem_off = off;
			if (ok)
				o->fl[off].consumed = true;
		} else if (ok && !strcmp(fn, "CMemInd")) {
			/* CMemInd(ra, bank, off): c[bank][ra+off] */
			int bank = k == 3 ? rf_find(o, args[1]) : -1;
			int off = k == 3 ? rf_find(o, args[2]) : -1;
			ok = bank >= 0 && off >= 0 && r->f.kind == K_REG &&
			     o->fl[bank].f.kind == K_UIMM &&
			     (o->fl[off].f.kind == K_SIMM || o->fl[off].f.kind == K_UIMM);
			r->mem_off = off;
			r->cmem_bank = bank;
			if (ok) {
				o->fl[off].consumed = true;
				o->fl[bank].consumed = true;
			}
		} else {
			ok = false;
		}
		for (int q = 0; q < 4; q++)
			free(args[q]);
		if (!ok) {
			err(g, kv->file, kv->line, "bad AsmFormat '%s' for '%s'", kv->val, kv->key);
			return false;
		}
	}
	/* modifiers: enum fields not in Order and not consumed */
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		if (r->f.kind != K_ENUM || r->consumed)
			continue;
		bool in_order = false;
		for (int k = 0; k < o->norder; k++)
			in_order |= o->order[k] == i;
		if (!in_order)
			o->mods[o->nmods++] = i;
	}
	/* modifier value names must not be ambiguous within the opcode */
	for (int a = 0; a < o->nmods; a++)
		for (int b = a + 1; b < o->nmods; b++) {
			struct bft *x = &g->bfts[o->fl[o->mods[a]].f.bft];
			struct bft *y = &g->bfts[o->fl[o->mods[b]].f.bft];
			for (int i = 0; i < x->nvalues; i++)
				if (x->values[i] && enum_index(y, x->values[i]) >= 0) {
					err(g, d->file, d->line,
					    "modifier value '%s' is ambiguous in '%s' (%s and %s)",
					    x->values[i], d->name, x->name, y->name);
					return false;
				}
		}
	/* every operand field must appear in Order or be a modifier/consumed */
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		if (r->f.kind == K_OPTYPE || r->f.kind == K_STYPE || r->base >= 0 ||
		    r->consumed || r->f.kind == K_ENUM)
			continue;
		bool in_order = false;
		for (int k = 0; k < o->norder; k++)
			in_order |= o->order[k] == i;
		if (!in_order) {
			err(g, r->f.file, r->f.line, "field '%s' of '%s' is in no Order<>",
			    r->f.name, d->name);
			return false;
		}
	}
	return true;
}

/* mnemonic: __Syntax's first word with modifier placeholders/values
 * removed; the name-derived spelling ('_' -> '.') is the alternative. */
static void set_mnemonics(gen *g, struct opc *o)
{
	char *byname = xstrdup(o->optype->name);
	for (char *p = byname; *p; p++)
		if (*p == '_')
			*p = '.';
	char *bysyn = NULL;
	const char *syn = o->optype->syntax;
	if (syn) {
		const char *s = skipws(syn);
		while (*s == '\n')
			s = skipws(s + 1);
		const char *e = s;
		while (*e && !isspace((unsigned char)*e))
			e++;
		char *w = xstrndup(s, (size_t)(e - s));
		/* drop optional groups: IADD3{.X} -> IADD3 */
		for (char *ob = strchr(w, '{'); ob; ob = strchr(w, '{')) {
			char *cb = strchr(ob, '}');
			if (!cb) {
				*ob = 0;
				break;
			}
			memmove(ob, cb + 1, strlen(cb + 1) + 1);
		}
		char out[256] = "";
		char *save = NULL;
		for (char *part = strtok_r(w, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
			/* a placeholder names a field (.redop, .mode); a value of a
			 * modifier (.SYNC) is no part of the mnemonic either */
			bool drop = rf_find(o, part) >= 0;
			for (int m = 0; m < o->nmods && !drop; m++)
				if (enum_index(&g->bfts[o->fl[o->mods[m]].f.bft], part) >= 0)
					drop = true;
			if (drop || strlen(out) + strlen(part) + 2 > sizeof out)
				continue;
			if (out[0])
				strcat(out, ".");
			strcat(out, part);
		}
		free(w);
		if (out[0])
			bysyn = xstrdup(out);
	}
	if (bysyn && strcmp(bysyn, byname)) {
		o->mnemonic = bysyn;
		o->alt = byname;
	} else {
		free(bysyn);
		o->mnemonic = byname;
		o->alt = NULL;
	}
}

/* ------------------------------------------------------------------ */
/* exception expressions → C                                           */

typedef struct xparse {
	gen *g;
	struct opc *o;
	const char *s;
	const char *file;
	int line;
	char out[1024];
	bool bad;
} xparse;

static void xout(xparse *x, const char *t)
{
	if (strlen(x->out) + strlen(t) + 1 < sizeof x->out)
		strcat(x->out, t);
	else
		x->bad = true;
}

static void x_or(xparse *x);

static void x_primary(xparse *x)
{
	x->s = skipws(x->s);
	if (*x->s == '(') {
		x->s++;
		xout(x, "(");
		x_or(x);
		x->s = skipws(x->s);
		if (*x->s != ')') {
			x->bad = true;
			return;
		}
		x->s++;
		xout(x, ")");
		return;
	}
	if (!strncmp(x->s, "not ", 4)) {
		x->s += 4;
		xout(x, "!");
		x_primary(x);
		return;
	}
	/* field (==|!=) value */
	const char *n0 = x->s, *n1 = n0;
	while (is_ident_char((unsigned char)*n1))
		n1++;
	if (n1 == n0) {
		x->bad = true;
		return;
	}
	char *name = xstrndup(n0, (size_t)(n1 - n0));
	int fi = rf_find(x->o, name);
	x->s = skipws(n1);
	const char *op = NULL;
	if (!strncmp(x->s, "==", 2))
		op = "==";
	else if (!strncmp(x->s, "!=", 2))
		op = "!=";
	if (fi < 0 || !op) {
		x->bad = true;
		free(name);
		return;
	}
	x->s = skipws(x->s + 2);
	int64_t v;
	if (*x->s == '"') {
		const char *q = strchr(x->s + 1, '"');
		if (!q || x->o->fl[fi].f.kind != K_ENUM) {
			x->bad = true;
			free(name);
			return;
		}
		char *lit = xstrndup(x->s + 1, (size_t)(q - x->s - 1));
		int idx = enum_index(&x->g->bfts[x->o->fl[fi].f.bft], lit);
		free(lit);
		if (idx < 0) {
			x->bad = true;
			free(name);
			return;
		}
		v = idx;
		x->s = q + 1;
	} else {
		const char *e = x->s;
		while (isalnum((unsigned char)*e) || *e == '-')
			e++;
		char *num = xstrndup(x->s, (size_t)(e - x->s));
		bool ok = parse_int(num, &v);
		free(num);
		if (!ok) {
			x->bad = true;
			free(name);
			return;
		}
		x->s = e;
	}
	char buf[160];
	char *m = xstrdup(name);
	for (char *p = m; *p; p++)
		if (*p == '.')
			*p = '_';
	snprintf(buf, sizeof buf, "(in->%s %s %lld)", m, op, (long long)v);
	free(m);
	free(name);
	xout(x, buf);
}

static void x_and(xparse *x)
{
	x_primary(x);
	for (;;) {
		x->s = skipws(x->s);
		if (!strncmp(x->s, "and", 3) && !is_ident_char((unsigned char)x->s[3])) {
			x->s += 3;
			xout(x, " && ");
			x_primary(x);
		} else
			return;
	}
}

static void x_or(xparse *x)
{
	x_and(x);
	for (;;) {
		x->s = skipws(x->s);
		if (!strncmp(x->s, "or", 2) && !is_ident_char((unsigned char)x->s[2])) {
			x->s += 2;
			xout(x, " || ");
			x_and(x);
		} else
			return;
	}
}

/* ------------------------------------------------------------------ */
/* output                                                              */

static void c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s < 32)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

struct member { char *name; bool is_signed; int width; };

static int member_find(struct member *m, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return i;
	return -1;
}

static char *cname(const char *s)
{
	char *m = xstrdup(s);
	for (char *p = m; *p; p++)
		if (*p == '.')
			*p = '_';
	return m;
}

static FILE *open_out(const char *dir, const char *name, char **path)
{
	size_t n = strlen(dir) + strlen(name) + 8;
	*path = xrealloc(NULL, n);
	snprintf(*path, n, "%s/%s.tmp", dir, name);
	FILE *f = fopen(*path, "w");
	if (!f) {
		fprintf(stderr, "isagen: cannot write %s: %s\n", *path, strerror(errno));
		exit(2);
	}
	return f;
}

static void close_out(FILE *f, char *tmp)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "isagen: write error on %s\n", tmp);
		exit(2);
	}
	char *final = xstrdup(tmp);
	final[strlen(final) - 4] = 0;
	if (rename(tmp, final)) {
		fprintf(stderr, "isagen: cannot rename %s: %s\n", tmp, strerror(errno));
		exit(2);
	}
	free(final);
	free(tmp);
}

static const char *kind_label(int k)
{
	static const char *const l[] = { "optype", "stype", "modifier", "Reg", "UReg", "Pred",
					 "UPred", "!", "~", "-", "|x|", "UImm", "SImm", "F32Imm", "CMem" };
	return l[k];
}

static void emit(gen *g, struct opc *ops, int nops, const char *dir, int argc, char **files)
{
	/* members */
	struct member mem[256];
	int nmem = 0;
	for (int i = 0; i < nops; i++)
		for (int j = 0; j < ops[i].nf; j++) {
			struct rfield *r = &ops[i].fl[j];
			if (r->f.kind == K_OPTYPE || r->f.kind == K_STYPE)
				continue;
			char *c = cname(r->f.name);
			int m = member_find(mem, nmem, c);
			if (m < 0) {
				if (nmem == 256) {
					fprintf(stderr, "isagen: too many distinct fields\n");
					exit(2);
				}
				m = nmem++;
				mem[m].name = c;
				mem[m].is_signed = false;
				mem[m].width = 0;
			} else
				free(c);
			if (r->f.kind == K_SIMM)
				mem[m].is_signed = true;
			if (r->f.width > mem[m].width)
				mem[m].width = r->f.width;
			r->member = m;
		}

	char *tmp;
	FILE *h = open_out(dir, "isa_gen.h", &tmp);
	fprintf(h, "/* Generated by isagen from");
	for (int i = 0; i < argc; i++)
		fprintf(h, " %s", files[i]);
	fprintf(h, ".\n * Do not edit: change the descriptions and rebuild. */\n");
	fprintf(h, "#ifndef WE_ISA_GEN_H\n#define WE_ISA_GEN_H\n\n#include \"isa/isa.h\"\n\n");
	fprintf(h, "#define ISA_NUM_OPCODES %d\n\n", nops);
	fprintf(h, "/* X(opcode, optype) for every __DefOpcode */\n#define ISA_OPCODE_LIST(X) \\\n");
	for (int i = 0; i < nops; i++)
		fprintf(h, "\tX(%s, %s) \\\n", ops[i].d->name, ops[i].optype->name);
	fprintf(h, "\n/* X(optype) for every __DefOptype that has an opcode: one semantic\n"
		   " * handler sem_<optype> each (a missing one fails to link) */\n"
		   "#define ISA_OPTYPE_LIST(X) \\\n");
	int noptypes = 0;
	for (int i = 0; i < g->ndef; i++) {
		if (g->defs[i].kind != D_OPTYPE)
			continue;
		bool has = false;
		for (int k = 0; k < nops; k++)
			has |= ops[k].optype == &g->defs[i];
		if (has) {
			fprintf(h, "\tX(%s) \\\n", g->defs[i].name);
			noptypes++;
		}
	}
	fprintf(h, "\n#define ISA_NUM_OPTYPES %d\n\n", noptypes);
	fprintf(h, "enum isa_op {\n");
	for (int i = 0; i < nops; i++)
		fprintf(h, "\tISA_OP_%s = %d,\n", ops[i].d->name, i);
	fprintf(h, "};\n\nenum isa_optype_index {\n");
	{
		int k = 0;
		for (int i = 0; i < g->ndef; i++) {
			if (g->defs[i].kind != D_OPTYPE)
				continue;
			bool has = false;
			for (int q = 0; q < nops; q++)
				has |= ops[q].optype == &g->defs[i];
			if (has)
				fprintf(h, "\tISA_OPT_%s = %d,\n", g->defs[i].name, k++);
		}
	}
	fprintf(h, "};\n\n/* values of every __DefBitFieldType */\n");
	for (int i = 0; i < g->nbft; i++) {
		struct bft *b = &g->bfts[i];
		for (int v = 0; v < b->nvalues; v++) {
			if (!b->values[v])
				continue;
			char *c = cname(b->values[v]);
			fprintf(h, "#define ISA_%s_%s %d\n", b->name, c, v);
			free(c);
		}
	}
	fprintf(h, "\nenum isa_enum_id {\n");
	for (int i = 0; i < g->nbft; i++)
		fprintf(h, "\tISA_ENUM_%s = %d,\n", g->bfts[i].name, i);
	fprintf(h, "};\n\n/* the decoded instruction: one member per distinct field name */\n");
	fprintf(h, "enum isa_member {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(h, "\tISA_M_%s = %d,\n", mem[i].name, i);
	fprintf(h, "\tISA_M__COUNT = %d\n};\n\n", nmem);
	fprintf(h, "typedef struct we_insn {\n\tint16_t opcode; /* enum isa_op */\n");
	for (int i = 0; i < nmem; i++) {
		const char *t = mem[i].width > 31 || mem[i].is_signed ? "int64_t" : "int32_t";
		fprintf(h, "\t%s %s;\n", t, mem[i].name);
	}
	fprintf(h, "} we_insn;\n\n");
	fprintf(h, "extern const isa_opcode isa_opcodes[ISA_NUM_OPCODES];\n");
	fprintf(h, "extern const isa_enum isa_enums[%d];\n", g->nbft);
	fprintf(h, "#define ISA_NUM_ENUMS %d\n", g->nbft);
	fprintf(h, "extern const char *const isa_member_names[ISA_M__COUNT];\n");
	fprintf(h, "extern const uint8_t isa_op_optype[ISA_NUM_OPCODES];\n\n");
	fprintf(h, "int64_t isa_insn_get(const we_insn *in, int member);\n");
	fprintf(h, "void isa_insn_set(we_insn *in, int member, int64_t v);\n");
	fprintf(h, "/* Fill *in from a word (defaults for nothing: every field is read).\n"
		   " * Returns the opcode, or -1 for an illegal encoding. */\n");
	fprintf(h, "int isa_decode(const we_word *w, we_insn *in);\n");
	fprintf(h, "void isa_encode(const we_insn *in, we_word *w);\n");
	fprintf(h, "/* Reset *in to opcode op with every field at its default. */\n");
	fprintf(h, "void isa_insn_init(we_insn *in, int op);\n");
	fprintf(h, "/* __Exception checks: NULL when fine, else the message. */\n");
	fprintf(h, "const char *isa_check(const we_insn *in);\n\n#endif\n");
	close_out(h, tmp);

	FILE *c = open_out(dir, "isa_gen.c", &tmp);
	fprintf(c, "/* Generated by isagen. Do not edit. */\n#include \"isa/isa_gen.h\"\n\n");
	for (int i = 0; i < g->nbft; i++) {
		struct bft *b = &g->bfts[i];
		fprintf(c, "static const char *const enum_%s[] = {", b->name);
		for (int v = 0; v < b->nvalues; v++) {
			fputs(v ? ", " : " ", c);
			if (b->values[v])
				c_string(c, b->values[v]);
			else
				fputs("0", c);
		}
		fprintf(c, " };\n");
	}
	fprintf(c, "\nconst isa_enum isa_enums[%d] = {\n", g->nbft);
	for (int i = 0; i < g->nbft; i++)
		fprintf(c, "\t{ \"%s\", %d, %d, enum_%s },\n", g->bfts[i].name, g->bfts[i].width,
			g->bfts[i].nvalues, g->bfts[i].name);
	fprintf(c, "};\n\nconst char *const isa_member_names[ISA_M__COUNT] = {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\t\"%s\",\n", mem[i].name);
	fprintf(c, "};\n\n");
	for (int i = 0; i < nops; i++) {
		struct opc *o = &ops[i];
		fprintf(c, "/* %s:%d */\nstatic const isa_field fields_%s[] = {\n", o->d->file, o->d->line,
			o->d->name);
		for (int j = 0; j < o->nf; j++) {
			struct rfield *r = &o->fl[j];
			fprintf(c, "\t{ \"%s\", %d, %d, %s, %d, %d, %d, %s, %s, %lld, %d, %d, %s, %s, %d },\n",
				r->f.name, r->f.pos, r->f.width, kind_c[r->f.kind],
				r->f.kind == K_ENUM ? r->f.bft : -1,
				(r->f.kind == K_OPTYPE || r->f.kind == K_STYPE) ? -1 : r->member,
				r->base, r->f.has_default ? "true" : "false", r->f.fixed ? "true" : "false",
				(long long)r->f.value, r->bitwidth, r->asm_shift, r->is_out ? "true" : "false",
				r->is_in ? "true" : "false", r->f.line);
		}
		fprintf(c, "};\nstatic const int8_t order_%s[] = {", o->d->name);
		for (int k = 0; k < o->norder; k++)
			fprintf(c, "%s%d", k ? ", " : " ", o->order[k]);
		fprintf(c, "%s};\nstatic const int8_t mods_%s[] = {", o->norder ? " " : "-1", o->d->name);
		for (int k = 0; k < o->nmods; k++)
			fprintf(c, "%s%d", k ? ", " : " ", o->mods[k]);
		fprintf(c, "%s};\n", o->nmods ? " " : "-1");
		fprintf(c, "static const isa_asmfmt asmfmt_%s[] = {\n", o->d->name);
		for (int j = 0; j < o->nf; j++) {
			struct rfield *r = &o->fl[j];
			fprintf(c, "\t{ %s, %d, %lld, %d, %d, %s },\n", r->pcrel ? "true" : "false",
				r->pcrel_if_field, (long long)r->pcrel_if_value, r->mem_off, r->cmem_bank,
				r->consumed ? "true" : "false");
		}
		fprintf(c, "};\n\n");
	}
	fprintf(c, "const isa_opcode isa_opcodes[ISA_NUM_OPCODES] = {\n");
	for (int i = 0; i < nops; i++) {
		struct opc *o = &ops[i];
		fprintf(c, "\t{ \"%s\", \"%s\", \"%s\", ", o->d->name, o->optype->name, o->mnemonic);
		if (o->alt)
			fprintf(c, "\"%s\"", o->alt);
		else
			fputs("0", c);
		fprintf(c, ", 0x%02x, 0x%x, %d, fields_%s, %d, order_%s, %d, mods_%s, \"%s\", %d, \"%s\",\n"
			   "\t  asmfmt_%s, 0x%016llxull, 0x%016llxull, ",
			o->optype_val, o->stype_val, o->nf, o->d->name, o->norder, o->d->name, o->nmods,
			o->d->name, o->d->file, o->d->line, o->unit, o->d->name,
			(unsigned long long)o->used_lo, (unsigned long long)o->used_hi);
		if (o->dialect)
			fprintf(c, "\"%s\" },\n", o->dialect);
		else
			fprintf(c, "0 },\n");
	}
	fprintf(c, "};\n\nconst uint8_t isa_op_optype[ISA_NUM_OPCODES] = {\n");
	for (int i = 0; i < nops; i++)
		fprintf(c, "\tISA_OPT_%s,\n", ops[i].optype->name);
	fprintf(c, "};\n\n");
	/* opcode lookup */
	fprintf(c, "static const int16_t op_by_code[256][16] = {\n");
	for (int ot = 0; ot < 256; ot++) {
		bool any = false;
		for (int i = 0; i < nops; i++)
			any |= ops[i].optype_val == ot;
		if (!any)
			continue;
		fprintf(c, "\t[0x%02x] = {", ot);
		for (int st = 0; st < 16; st++) {
			int found = -1;
			for (int i = 0; i < nops; i++)
				if (ops[i].optype_val == ot && ops[i].stype_val == st)
					found = i;
			fprintf(c, "%s%d", st ? ", " : " ", found);
		}
		fprintf(c, " },\n");
	}
	fprintf(c, "};\nstatic const bool optype_present[256] = {");
	for (int ot = 0, k = 0; ot < 256; ot++) {
		bool any = false;
		for (int i = 0; i < nops; i++)
			any |= ops[i].optype_val == ot;
		if (any)
			fprintf(c, "%s[0x%02x] = true", k++ ? ", " : " ", ot);
	}
	fprintf(c, " };\n\n");
	/* optype/stype field positions are shared by every opcode: check */
	int opos = -1, spos = -1;
	for (int i = 0; i < nops; i++)
		for (int j = 0; j < ops[i].nf; j++) {
			struct rfield *r = &ops[i].fl[j];
			int *p = r->f.kind == K_OPTYPE ? &opos : r->f.kind == K_STYPE ? &spos : NULL;
			int want = r->f.kind == K_OPTYPE ? 8 : 4;
			if (!p)
				continue;
			if (r->f.width != want || (*p >= 0 && *p != r->f.pos)) {
				err(g, r->f.file, r->f.line, "%s must be field<%d, %d> in every opcode",
				    r->f.type, r->f.kind == K_OPTYPE ? 0 : 8, want);
			}
			*p = r->f.pos;
		}
	fprintf(c, "int isa_decode_opcode(const we_word *w)\n{\n"
		   "\tunsigned ot = (unsigned)isa_get(w, %d, 8), st = (unsigned)isa_get(w, %d, 4);\n"
		   "\tif (!optype_present[ot])\n\t\treturn -1;\n"
		   "\tint op = op_by_code[ot][st];\n"
		   "\tif (op < 0)\n\t\treturn -1;\n"
		   "\tif ((w->lo & ~isa_opcodes[op].used_lo) || (w->hi & ~isa_opcodes[op].used_hi))\n"
		   "\t\treturn -1; /* bits outside every field */\n"
		   "\treturn op;\n}\n\n", opos < 0 ? 0 : opos, spos < 0 ? 8 : spos);
	fprintf(c, "int64_t isa_insn_get(const we_insn *in, int member)\n{\n\tswitch (member) {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\tcase ISA_M_%s: return in->%s;\n", mem[i].name, mem[i].name);
	fprintf(c, "\tdefault: return 0;\n\t}\n}\n\n");
	fprintf(c, "void isa_insn_set(we_insn *in, int member, int64_t v)\n{\n\tswitch (member) {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\tcase ISA_M_%s: in->%s = (%s)v; break;\n", mem[i].name, mem[i].name,
			mem[i].width > 31 || mem[i].is_signed ? "int64_t" : "int32_t");
	fprintf(c, "\tdefault: break;\n\t}\n}\n\n");
	fprintf(c,
		"void isa_insn_init(we_insn *in, int op)\n{\n"
		"\tconst isa_opcode *o = &isa_opcodes[op];\n"
		"\t*in = (we_insn){ .opcode = (int16_t)op };\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tif (f->member < 0)\n\t\t\tcontinue;\n"
		"\t\tif (f->has_default)\n\t\t\tisa_insn_set(in, f->member, f->value);\n"
		"\t\telse if (f->kind == ISA_K_PRED || f->kind == ISA_K_UPRED)\n"
		"\t\t\tisa_insn_set(in, f->member, ISA_PRED_PT);\n"
		"\t}\n}\n\n");
	fprintf(c,
		"int isa_decode(const we_word *w, we_insn *in)\n{\n"
		"\tint op = isa_decode_opcode(w);\n\tif (op < 0)\n\t\treturn -1;\n"
		"\tconst isa_opcode *o = &isa_opcodes[op];\n"
		"\t*in = (we_insn){ .opcode = (int16_t)op };\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tif (f->member < 0)\n\t\t\tcontinue;\n"
		"\t\tuint64_t v = isa_get(w, f->pos, f->width);\n"
		"\t\tint64_t s = (int64_t)v;\n"
		"\t\tif (f->kind == ISA_K_SIMM && f->width < 64 && (v >> (f->width - 1)) & 1)\n"
		"\t\t\ts = (int64_t)(v | ~((UINT64_C(1) << f->width) - 1));\n"
		"\t\tif (f->kind == ISA_K_ENUM && (v >= isa_enums[f->enum_id].nvalues ||\n"
		"\t\t\t\t\t\t !isa_enums[f->enum_id].values[v]))\n"
		"\t\t\treturn -1;\n"
		"\t\tisa_insn_set(in, f->member, s);\n"
		"\t}\n\treturn op;\n}\n\n");
	fprintf(c,
		"void isa_encode(const we_insn *in, we_word *w)\n{\n"
		"\tconst isa_opcode *o = &isa_opcodes[in->opcode];\n"
		"\tw->lo = w->hi = 0;\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tuint64_t v = f->member < 0 ? (uint64_t)f->value : (uint64_t)isa_insn_get(in, f->member);\n"
		"\t\tisa_set(w, f->pos, f->width, v);\n"
		"\t}\n}\n\n");
	fprintf(c, "const char *isa_check(const we_insn *in)\n{\n\tswitch (in->opcode) {\n");
	for (int i = 0; i < nops; i++) {
		struct opc *o = &ops[i];
		if (!o->nexc)
			continue;
		fprintf(c, "\tcase ISA_OP_%s:\n", o->d->name);
		for (int k = 0; k < o->nexc; k++) {
			xparse x;
			memset(&x, 0, sizeof x);
			x.g = g;
			x.o = o;
			x.s = o->excs[k]->expr;
			x_or(&x);
			if (x.bad || *skipws(x.s)) {
				err(g, o->excs[k]->file, o->excs[k]->line, "cannot parse exception condition '%s'",
				    o->excs[k]->expr);
				continue;
			}
			fprintf(c, "\t\tif (%s)\n\t\t\treturn ", x.out);
			char msg[512];
			snprintf(msg, sizeof msg, "%s: %s", o->excs[k]->kind, o->excs[k]->msg);
			c_string(c, msg);
			fprintf(c, ";\n");
		}
		fprintf(c, "\t\tbreak;\n");
	}
	fprintf(c, "\tdefault:\n\t\tbreak;\n\t}\n\treturn 0;\n}\n");
	close_out(c, tmp);

	/* reference page */
	FILE *m = open_out(dir, "isa_ref.md", &tmp);
	fprintf(m, "# warpemu ISA reference\n\nGenerated by `isagen` from the ISA descriptions"
		   " (`src/isa/*.isa`); do not edit.\nEvery instruction is 128 bits; fields are"
		   " `[pos, pos+width)` of the 128-bit word.\n\n");
	fprintf(m, "## Units and instructions\n\n| unit | mnemonic | opcode | optype | stype | operands |\n"
		   "|---|---|---|---|---|---|\n");
	for (int i = 0; i < nops; i++) {
		struct opc *o = &ops[i];
		fprintf(m, "| %s | `%s`%s%s%s | %s | 0x%02x | 0x%x | ", o->unit, o->mnemonic,
			o->alt ? " (`" : "", o->alt ? o->alt : "", o->alt ? "`)" : "", o->d->name,
			o->optype_val, o->stype_val);
		for (int k = 0; k < o->norder; k++) {
			struct rfield *r = &o->fl[o->order[k]];
			fprintf(m, "%s%s:%s", k ? ", " : "", r->f.name,
				r->f.kind == K_ENUM ? g->bfts[r->f.bft].name : kind_label(r->f.kind));
			if ((r->f.kind == K_REG || r->f.kind == K_UREG) && r->bitwidth > 32)
				fprintf(m, "%d", r->bitwidth);
		}
		fprintf(m, " |\n");
	}
	fprintf(m, "\n## Opcodes\n");
	for (int i = 0; i < nops; i++) {
		struct opc *o = &ops[i];
		fprintf(m, "\n### %s — `%s`\n\nDefined at `%s:%d`; unit %s.", o->d->name, o->mnemonic,
			o->d->file, o->d->line, o->unit);
		if (o->dialect)
			fprintf(m, " Dialect `%s` only (`.dialect %s`).", o->dialect, o->dialect);
		if (o->optype->description)
			fprintf(m, " %s", o->optype->description);
		fprintf(m, "\n\n");
		if (o->optype->syntax) {
			fprintf(m, "```\n%s```\n\n", o->optype->syntax);
		}
		fprintf(m, "| field | bits | type | default |\n|---|---|---|---|\n");
		for (int j = 0; j < o->nf; j++) {
			struct rfield *r = &o->fl[j];
			fprintf(m, "| %s | %d..%d | %s | %s%s%s |\n", r->f.name, r->f.pos,
				r->f.pos + r->f.width - 1, r->f.type, r->f.fixed ? "== " : "",
				r->f.valtext ? r->f.valtext : "", r->f.kind == K_OPTYPE || r->f.kind == K_STYPE
				? "" : "");
		}
		for (int k = 0; k < o->nexc; k++)
			fprintf(m, "\nEncoding error (%s): %s when `%s`.\n", o->excs[k]->kind,
				o->excs[k]->msg, o->excs[k]->expr);
	}
	fprintf(m, "\n## Bit field types\n\n");
	for (int i = 0; i < g->nbft; i++) {
		struct bft *b = &g->bfts[i];
		fprintf(m, "- **%s**<%d>:", b->name, b->width);
		for (int v = 0; v < b->nvalues; v++)
			if (b->values[v])
				fprintf(m, " %s=%d", b->values[v], v);
		fprintf(m, "\n");
	}
	close_out(m, tmp);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	gen g;
	memset(&g, 0, sizeof g);
	g.max_errors = 50;
	const char *outdir = NULL;
	const char *root = NULL;
	bool check_only = false;
	int first = 1;
	while (first < argc && argv[first][0] == '-') {
		if (!strcmp(argv[first], "-o") && first + 1 < argc) {
			outdir = argv[first + 1];
			first += 2;
		} else if (!strcmp(argv[first], "--root") && first + 1 < argc) {
			/* record file names relative to this directory */
			root = argv[first + 1];
			first += 2;
		} else if (!strcmp(argv[first], "--check")) {
			check_only = true;
			first++;
		} else {
			fprintf(stderr, "usage: isagen (-o OUTDIR | --check) FILE.isa...\n");
			return 2;
		}
	}
	if (first >= argc || (!outdir && !check_only)) {
		fprintf(stderr, "usage: isagen (-o OUTDIR | --check) FILE.isa...\n");
		return 2;
	}
	size_t rootlen = root ? strlen(root) : 0;
	for (int i = first; i < argc; i++) {
		const char *f = argv[i];
		if (root && !strncmp(f, root, rootlen) && f[rootlen] == '/')
			f += rootlen + 1;
		parse_file2(&g, argv[i], f);
	}
	apply_amends(&g);
	struct opc *ops = xrealloc(NULL, sizeof(struct opc) * (size_t)(g.ndef + 1));
	int nops = 0;
	if (!g.errors) {
		for (int i = 0; i < g.ndef; i++) {
			if (g.defs[i].kind != D_OPCODE)
				continue;
			if (resolve_opcode(&g, &g.defs[i], &ops[nops])) {
				set_mnemonics(&g, &ops[nops]);
				nops++;
			}
		}
	}
	if (!g.errors) {
		for (int i = 0; i < nops; i++)
			for (int j = 0; j < i; j++)
				if (ops[i].optype_val == ops[j].optype_val &&
				    ops[i].stype_val == ops[j].stype_val)
					err(&g, ops[i].d->file, ops[i].d->line,
					    "opcode '%s' has the same optype/stype as '%s' (%s:%d)",
					    ops[i].d->name, ops[j].d->name, ops[j].d->file, ops[j].d->line);
		for (int i = 0; i < g.ndef; i++)
			if (g.defs[i].kind == D_OPTYPE && !g.defs[i].used)
				err(&g, g.defs[i].file, g.defs[i].line, "optype '%s' has no opcode",
				    g.defs[i].name);
		int ot = find_bft(&g, "Optype");
		if (ot >= 0)
			for (int v = 0; v < g.bfts[ot].nvalues; v++) {
				const char *n = g.bfts[ot].values[v];
				if (n && !get_def(&g, n))
					err(&g, g.bfts[ot].file, g.bfts[ot].line,
					    "Optype value '%s' names no __DefOptype", n);
			}
		if (nops == 0)
			err(&g, argv[first], 1, "no opcodes defined");
	}
	for (int i = 0; !g.errors && i < nops; i++)
		for (int k = 0; k < ops[i].nexc; k++) {
			xparse x;
			memset(&x, 0, sizeof x);
			x.g = &g;
			x.o = &ops[i];
			x.s = ops[i].excs[k]->expr;
			x_or(&x);
			if (x.bad || *skipws(x.s))
				err(&g, ops[i].excs[k]->file, ops[i].excs[k]->line,
				    "cannot parse exception condition '%s'", ops[i].excs[k]->expr);
		}
	if (!g.errors && !check_only)
		emit(&g, ops, nops, outdir, argc - first, argv + first);
	if (g.errors) {
		if (g.errors > g.max_errors)
			fprintf(stderr, "isagen: %d more errors not shown\n", g.errors - g.max_errors);
		return 1;
	}
	return 0;
}
