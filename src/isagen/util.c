/* util.c — isagen's diagnostics, memory and lexing helpers (isagen.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

void err(gen *g, const char *file, int line, const char *fmt, ...)
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

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "isagen: out of memory\n");
		exit(2);
	}
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

/* ---- lexing ----------------------------------------------------------- */

const char *skipws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

bool is_ident_start(int c) { return isalpha(c) || c == '_'; }
bool is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

void strip_comment(char *s)
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

bool parse_int(const char *s, int64_t *out)
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

int split_list(const char *s, char **items, int max)
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

/* ---- lookups -------------------------------------------------------- */

int find_bft(gen *g, const char *name)
{
	for (int i = 0; i < g->nbft; i++)
		if (!strcmp(g->bfts[i].name, name))
			return i;
	return -1;
}

int find_def(gen *g, const char *name)
{
	for (int i = 0; i < g->ndef; i++)
		if (!strcmp(g->defs[i].name, name))
			return i;
	return -1;
}

struct def *get_def(gen *g, const char *name)
{
	int i = find_def(g, name);
	return i < 0 ? NULL : &g->defs[i];
}

int enum_index(const struct bft *b, const char *v)
{
	for (int i = 0; i < b->nvalues; i++)
		if (b->values[i] && !strcmp(b->values[i], v))
			return i;
	return -1;
}

int rf_find(const struct opc *o, const char *name)
{
	for (int i = 0; i < o->nf; i++)
		if (!strcmp(o->fl[i].f.name, name))
			return i;
	return -1;
}

int parse_call(const char *s, char *fn, size_t fnsz, char **args, int max)
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

char *cname(const char *s)
{
	char *m = xstrdup(s);
	for (char *p = m; *p; p++)
		if (*p == '.')
			*p = '_';
	return m;
}

/* ---- the flags of __Properties -------------------------------------- */

/* Each replaces a list of instructions the executor or an engine would
 * otherwise keep by hand; doc/isa-dsl.md says who reads which. */
const struct flagdef isa_flags[] = {
	{ "Branch", "BRANCH",
	  "may move the warp's PC, change its masks or stop it (yield, sleep, exit)" },
	{ "Barrier", "BARRIER",
	  "reads or changes the CTA's barrier or named-barrier state: may block the warp or release others" },
	{ "MayBlock", "MAY_BLOCK", "may leave the warp, or some of its lanes, waiting for other warps or lanes" },
	{ "Preempt", "PREEMPT",
	  "a preemption point: other warps see what it does (memory, barriers), so the order of warps "
	  "around it matters" },
	{ "PerCTA", "PER_CTA", "reads or writes state of the warp's own CTA (shared memory, CTA ids, barriers)" },
	{ "Indirect", "INDIRECT",
	  "control flow to a target the instruction does not hold (a register, a stack, a trap handler)" },
	{ "WritesPred", "WRITES_PRED",
	  "writes P predicates (set for every opcode with a Pred field in OutList<>)" },
};
const int isa_nflags = (int)(sizeof isa_flags / sizeof isa_flags[0]);

int flag_index(const char *name)
{
	for (int i = 0; i < isa_nflags; i++)
		if (!strcmp(isa_flags[i].name, name))
			return i;
	return -1;
}
