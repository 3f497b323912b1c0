/* parse.c — the DSL's text into definitions: __DefBitFieldType values,
 * and __DefGroup / __DefOptype / __DefOpcode / __Amend with their
 * sections, as written (resolve.c merges and checks them).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

enum section { S_NONE, S_ENCODING, S_OPINFO, S_EXCEPTION, S_PROPERTIES, S_SYNTAX,
	       S_EXAMPLES, S_DESCRIPTION, S_OTHER };

typedef struct pstate {
	gen *g;
	const char *file;
	int line;
	int cur_bft_i;          /* the __DefBitFieldType being read, or -1   */
	bool in_bft;
	int cur_def_i, cur_amend_i; /* indices: g->defs and g->amends grow */
	int section;
	bool in_fence;
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

/* Roles<a, b, ...>: the operands after the guard, named for the
 * handlers (lower case: OWNER_role constants cannot meet other names). */
static void parse_roles(pstate *ps, struct opinfo *oi, const char *t)
{
	if (oi->has_roles) {
		err(ps->g, ps->file, ps->line, "Roles given twice");
		return;
	}
	parse_list_angle(ps, t, "Roles", oi->roles, &oi->nroles, &oi->has_roles);
	if (!oi->has_roles)
		return;
	oi->roles_file = ps->file;
	oi->roles_line = ps->line;
	for (int i = 0; i < oi->nroles; i++) {
		const char *r = oi->roles[i];
		if (!role_name_ok(r))
			err(ps->g, ps->file, ps->line,
			    "bad role name '%s' in Roles<> (lower-case letters, digits and '_', a letter first)", r);
		for (int k = 0; k < i; k++)
			if (!strcmp(oi->roles[k], r))
				err(ps->g, ps->file, ps->line, "Roles<> names '%s' twice", r);
	}
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
		oi->norder_file = ps->file;
		oi->norder_line = ps->line;
	} else if (!strncmp(t, "Roles", 5)) {
		parse_roles(ps, oi, t);
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

/* __Properties: Flags<Name, ...>; (the names of isa_flags[]) */
static void parse_properties(pstate *ps, struct def *d, const char *t)
{
	char *items[MAXN];
	int n = 0;
	if (strncmp(t, "Flags", 5)) {
		err(ps->g, ps->file, ps->line, "expected 'Flags<...>;' in __Properties");
		return;
	}
	if (d->has_flags) {
		err(ps->g, ps->file, ps->line, "Flags given twice");
		return;
	}
	parse_list_angle(ps, t, "Flags", items, &n, &d->has_flags);
	for (int i = 0; i < n; i++) {
		int f = flag_index(items[i]);
		if (f >= 0) {
			d->flags |= 1u << f;
		} else {
			char known[256] = "";
			for (int k = 0; k < isa_nflags; k++)
				snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
					 k ? ", " : "", isa_flags[k].name);
			err(ps->g, ps->file, ps->line, "unknown flag '%s' (known: %s)", items[i], known);
		}
		free(items[i]);
	}
}

static bool starts_kw(const char *t, const char *kw)
{
	size_t n = strlen(kw);
	return !strncmp(t, kw, n) && !is_ident_char((unsigned char)t[n]);
}

/* A line inside a ``` block: the text of __Syntax and __Examples. */
static void fenced_line(pstate *ps, const char *buf)
{
	struct def *d = pcur(ps);
	char keep[4096];
	size_t len = strlen(buf);
	memcpy(keep, buf, len + 1);
	while (len && (keep[len - 1] == '\n' || keep[len - 1] == '\r'))
		keep[--len] = 0;
	if (d && ps->section == S_SYNTAX)
		append_text(&d->syntax, keep);
	else if (d && ps->section == S_EXAMPLES)
		append_text(&d->examples, keep);
}

/* A line starting with "__" in column 0: a new definition. */
static void toplevel_line(pstate *ps, const char *t)
{
	gen *g = ps->g;
	ps->in_bft = false;
	ps->cur_def_i = ps->cur_amend_i = -1;
	ps->section = S_NONE;
	ps->desc_done = false;
	if (starts_kw(t, "__DefBitFieldType")) {
		parse_bft_header(ps, t + 17);
		ps->in_bft = ps->cur_bft_i >= 0;
		return;
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
		if (!parse_def_header(ps, rest, &d, kind != D_GROUP))
			return;
		if (find_def(g, d.name) >= 0 || find_bft(g, d.name) >= 0) {
			err(g, ps->file, ps->line, "'%s' defined twice", d.name);
			return;
		}
		GROW(g->defs, g->ndef, g->capdef);
		g->defs[g->ndef] = d;
		ps->cur_def_i = g->ndef++;
		return;
	}
	if (starts_kw(t, "__Amend")) {
		struct amend a;
		memset(&a, 0, sizeof a);
		if (!parse_def_header(ps, t + 7, &a.d, false))
			return;
		a.target = xstrdup(a.d.name);
		GROW(g->amends, g->namend, g->capamend);
		g->amends[g->namend] = a;
		ps->cur_amend_i = g->namend++;
		return;
	}
	err(g, ps->file, ps->line, "unknown definition '%.40s'", t);
}

/* "__Dialect NAME" (project extension): the dialect an instruction
 * belongs to. */
static void dialect_line(pstate *ps, struct def *d, const char *t)
{
	const char *n0 = skipws(t + 9), *n1 = n0;
	while (isalnum((unsigned char)*n1))
		n1++;
	if (n1 == n0 || *skipws(n1) || d->dialect)
		err(ps->g, ps->file, ps->line, "expected '__Dialect NAME' (once per definition)");
	else
		d->dialect = xstrndup(n0, (size_t)(n1 - n0));
}

/* An indented "__Section" line. */
static void section_line(pstate *ps, const char *t)
{
	static const struct { const char *kw; int section; } sections[] = {
		{ "__Encoding", S_ENCODING }, { "__OperandInfo", S_OPINFO },
		{ "__Exception", S_EXCEPTION }, { "__Properties", S_PROPERTIES },
		{ "__Syntax", S_SYNTAX },
		{ "__Examples", S_EXAMPLES }, { "__Description", S_DESCRIPTION },
		{ "__Semantics", S_OTHER }, { "__ModifierInfo", S_OTHER },
	};
	for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++)
		if (starts_kw(t, sections[k].kw)) {
			ps->section = sections[k].section;
			return;
		}
	err(ps->g, ps->file, ps->line, "unknown section '%.40s'", t);
	ps->section = S_OTHER;
}

/* A line of the current section of definition d. */
static void body_line(pstate *ps, struct def *d, const char *t)
{
	switch (ps->section) {
	case S_ENCODING:
		if (starts_kw(t, "field"))
			parse_field(ps, d, t);
		else
			err(ps->g, ps->file, ps->line, "expected 'field<pos, width> Type name;' in __Encoding");
		break;
	case S_OPINFO:
		parse_opinfo(ps, d, t);
		break;
	case S_EXCEPTION:
		parse_exception(ps, d, t);
		break;
	case S_PROPERTIES:
		parse_properties(ps, d, t);
		break;
	case S_DESCRIPTION:
		if (!ps->desc_done && t[0] != '#' && t[0] != '|' && t[0] != '*') {
			append_text(&d->description, t);
			ps->desc_done = true;
		}
		break;
	case S_NONE:
		err(ps->g, ps->file, ps->line, "text before any section: '%.40s'", t);
		break;
	default:
		break;
	}
}

/* One line as read (buf, with its newline), len its length. */
static void one_line(pstate *ps, const char *buf, size_t len)
{
	char raw[4096];
	memcpy(raw, buf, len + 1);
	strip_comment(raw);
	const char *t = skipws(raw);
	/* fenced code in prose sections */
	if (!strncmp(skipws(buf), "```", 3)) {
		ps->in_fence = !ps->in_fence;
		return;
	}
	if (ps->in_fence) {
		fenced_line(ps, buf);
		return;
	}
	if (buf[0] == '_' && buf[1] == '_') {
		toplevel_line(ps, t);
		return;
	}
	if (!*t)
		return;
	if (ps->in_bft) {
		parse_bft_value(ps, t);
		return;
	}
	struct def *d = pcur(ps);
	if (!d)
		err(ps->g, ps->file, ps->line, "text outside any definition: '%.40s'", t);
	else if (starts_kw(t, "__Dialect"))
		dialect_line(ps, d, t);
	else if (t[0] == '_' && t[1] == '_')
		section_line(ps, t);
	else
		body_line(ps, d, t);
}

void parse_file(gen *g, const char *path, const char *name)
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
		one_line(&ps, buf, len);
	}
	if (ps.in_fence)
		err(g, name, ps.line, "unterminated ``` block");
	if (ferror(f))
		err(g, name, ps.line, "read error");
	fclose(f);
}
