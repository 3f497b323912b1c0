/* diag.c — the PTX front end's diagnostics: file:line:col, the message,
 * the source line and a caret, gcc style (as the assembler's). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

#define PTX_MAX_ERRORS 50

void ptx_err(ptx_diags *g, uint32_t line, uint32_t col, const char *fmt, ...)
{
	if (g->oom)
		return;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		ptx_diag *d = realloc(g->d, cap * sizeof *d);
		if (!d) {
			g->oom = true;
			return;
		}
		g->d = d;
		g->cap = cap;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char *m = strdup(msg);
	if (!m) {
		g->oom = true;
		return;
	}
	g->d[g->n++] = (ptx_diag){ line, col, m };
}

static int diag_cmp(const void *a, const void *b)
{
	const ptx_diag *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

/* the text of line `line` (1-based) of the source, or NULL */
static const char *line_at(const ptx_diags *g, uint32_t line, size_t *n)
{
	const char *p = g->src, *e = g->src + g->len;
	for (uint32_t l = 1; l < line && p < e; l++) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p > e)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	*n = nl ? (size_t)(nl - p) : (size_t)(e - p);
	return p;
}

static void show_line(strbuf *b, const char *ls, size_t n, uint32_t col)
{
	if (n > 200)
		n = 200;
	while (n && ls[n - 1] == '\r')
		n--;
	for (size_t i = 0; i < n; i++) {
		char ch = ls[i];
		sb_add(b, (unsigned char)ch < 0x20 && ch != '\t' ? " " : &ch, 1);
	}
	sb_add(b, "\n", 1);
	for (size_t i = 0; col && i + 1 < col && i < n; i++)
		sb_add(b, ls[i] == '\t' ? "\t" : " ", 1);
	sb_add(b, "^\n", 2);
}

char *ptx_format_diags(const ptx_diags *g)
{
	if (!g->n)
		return NULL;
	qsort(g->d, g->n, sizeof *g->d, diag_cmp);
	strbuf b = { 0 };
	const char *fn = g->fname ? g->fname : "<input>";
	for (size_t i = 0; i < g->n && i < PTX_MAX_ERRORS; i++) {
		const ptx_diag *d = &g->d[i];
		if (!d->line) {
			sb_printf(&b, "%s: error: %s\n", fn, d->msg);
			continue;
		}
		sb_printf(&b, "%s:%" PRIu32 ":%" PRIu32 ": error: %s\n", fn, d->line, d->col, d->msg);
		size_t n;
		const char *ls = line_at(g, d->line, &n);
		if (ls)
			show_line(&b, ls, n, d->col);
	}
	if (g->n > PTX_MAX_ERRORS)
		sb_printf(&b, "%zu more errors\n", g->n - PTX_MAX_ERRORS);
	return sb_take(&b);
}

void ptx_diags_free(ptx_diags *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->d[i].msg);
	free(g->d);
	g->d = NULL;
	g->n = g->cap = 0;
}
