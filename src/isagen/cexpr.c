/* cexpr.c — an __Exception condition as C: `field == VALUE` and
 * `field != VALUE` (a number, or a quoted value of the field's enum),
 * combined with `and`, `or`, `not` and parentheses, becomes the same test
 * over the decoded instruction's members (`in->field`).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

typedef struct xparse {
	gen *g;
	const struct opc *o;
	const char *s;
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
	char *m = cname(name);
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


bool exc_to_c(gen *g, const struct opc *o, const struct exc *e, char *out, size_t outsz)
{
	xparse x;
	memset(&x, 0, sizeof x);
	x.g = g;
	x.o = o;
	x.s = e->expr;
	x_or(&x);
	if (x.bad || *skipws(x.s) || strlen(x.out) >= outsz)
		return false;
	strcpy(out, x.out);
	return true;
}
