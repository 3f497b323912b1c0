/* cfg.c — the control-flow graph of lowered code and its immediate
 * post-dominators (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
 * Algorithm", on the reverse graph with one virtual exit node that every
 * EXIT reaches).  Blocks start at labels and after branches and exits. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

static bool ends_block(const lins *l)
{
	return l->kind == LK_BRA || l->kind == LK_BRX || l->kind == LK_EXIT;
}

bool cfg_build(const lcode *c, lcfg *g)
{
	memset(g, 0, sizeof *g);
	g->block_of = calloc(c->n + 1, sizeof *g->block_of);
	g->label_block = malloc((c->nlabels + 1) * sizeof *g->label_block);
	g->b = calloc(c->n + 1, sizeof *g->b);
	if (!g->block_of || !g->label_block || !g->b)
		return false;
	for (uint32_t i = 0; i < c->nlabels; i++)
		g->label_block[i] = -1;
	uint32_t nb = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		const lins *l = &c->ins[i];
		bool leader = i == 0 || l->kind == LK_LABEL || ends_block(&c->ins[i - 1]);
		/* consecutive labels share a block */
		if (l->kind == LK_LABEL && i > 0 && c->ins[i - 1].kind == LK_LABEL)
			leader = false;
		if (leader) {
			if (nb)
				g->b[nb - 1].last = i - 1;
			g->b[nb].first = i;
			nb++;
		}
		g->block_of[i] = nb - 1;
		if (l->kind == LK_LABEL && l->target >= 0 && (uint32_t)l->target < c->nlabels)
			g->label_block[l->target] = (int)(nb - 1);
	}
	if (nb)
		g->b[nb - 1].last = c->n - 1;
	g->nb = nb;
	for (uint32_t b = 0; b < nb; b++) {
		const lins *l = &c->ins[g->b[b].last];
		int *s = g->b[b].succ;
		s[0] = s[1] = -1;
		bool fall = b + 1 < nb;
		if (l->kind == LK_BRA) {
			s[0] = l->target >= 0 ? g->label_block[l->target] : -1;
			if (l->guard < 0)
				fall = false;
		} else if (l->kind == LK_EXIT) {
			if (l->guard < 0)
				fall = false;
		} else if (l->kind == LK_BRX) {
			g->b[b].xsucc = malloc(((size_t)l->ntargets + 1) * sizeof(int));
			if (!g->b[b].xsucc)
				return false;
			for (int k = 0; k < l->ntargets; k++)
				g->b[b].xsucc[k] = g->label_block[l->targets[k]];
			g->b[b].nxsucc = l->ntargets;
			fall = false;
		}
		if (fall)
			s[s[0] >= 0 ? 1 : 0] = (int)b + 1;
		if (s[0] == s[1])
			s[1] = -1;
	}
	return true;
}

int cfg_succ(const lcfg *g, uint32_t b, int *out, int cap)
{
	int n = 0;
	for (int k = 0; k < 2; k++)
		if (g->b[b].succ[k] >= 0 && n < cap)
			out[n++] = g->b[b].succ[k];
	for (int k = 0; k < g->b[b].nxsucc && n < cap; k++)
		if (g->b[b].xsucc[k] >= 0)
			out[n++] = g->b[b].xsucc[k];
	return n;
}

/* does block b reach the virtual exit directly (an EXIT, or nothing after it)? */
static bool exits(const lcfg *g, const lcode *c, uint32_t b)
{
	const lins *l = &c->ins[g->b[b].last];
	if (l->kind == LK_EXIT)
		return true;
	int s[64];
	return cfg_succ(g, b, s, 64) == 0;
}

typedef struct pdctx {
	const lcfg *g;
	int **pred;                   /* forward predecessors */
	int *npred;
	int *po;                      /* postorder number in the reverse graph */
	int *order;                   /* nodes by postorder */
	int n;
} pdctx;

static int intersect(const pdctx *p, const int *idom, int a, int b)
{
	while (a != b) {
		while (p->po[a] < p->po[b])
			a = idom[a];
		while (p->po[b] < p->po[a])
			b = idom[b];
	}
	return a;
}

/* postorder of the reverse graph from the exit node (iterative DFS) */
static void rev_postorder(pdctx *p, int exitn, int **rsucc, int *nrsucc)
{
	int nn = (int)p->g->nb + 1;
	int *stack = malloc((size_t)nn * 2 * sizeof *stack);
	char *seen = calloc((size_t)nn, 1);
	if (!stack || !seen) {
		free(stack);
		free(seen);
		return;
	}
	int sp = 0, cnt = 0;
	stack[sp++] = exitn;
	stack[sp++] = 0;
	seen[exitn] = 1;
	while (sp) {
		int v = stack[sp - 2], k = stack[sp - 1];
		if (k < nrsucc[v]) {
			stack[sp - 1]++;
			int w = rsucc[v][k];
			if (!seen[w]) {
				seen[w] = 1;
				stack[sp++] = w;
				stack[sp++] = 0;
			}
		} else {
			p->po[v] = cnt;
			p->order[cnt++] = v;
			sp -= 2;
		}
	}
	p->n = cnt;
	free(stack);
	free(seen);
}

bool cfg_postdom_with(lcfg *g, const lcode *c)
{
	int nb = (int)g->nb, exitn = nb, nn = nb + 1;
	/* reverse successors: rsucc[v] = forward predecessors of v; exit's
	 * are the exiting blocks */
	int **rs = calloc((size_t)nn, sizeof *rs);
	int *nrs = calloc((size_t)nn, sizeof *nrs);
	int *cap = calloc((size_t)nn, sizeof *cap);
	int *idom = malloc((size_t)nn * sizeof *idom);
	pdctx p = { .g = g, .po = malloc((size_t)nn * sizeof(int)), .order = malloc((size_t)nn * sizeof(int)) };
	bool ok = rs && nrs && cap && idom && p.po && p.order;
	for (int b = 0; ok && b < nb; b++) {
		int s[256];
		int ns = cfg_succ(g, (uint32_t)b, s, 256);
		if (exits(g, c, (uint32_t)b))
			s[ns++] = exitn;
		for (int k = 0; k < ns && ok; k++) {
			int w = s[k];
			if (nrs[w] == cap[w]) {
				cap[w] = cap[w] ? cap[w] * 2 : 4;
				int *na = realloc(rs[w], (size_t)cap[w] * sizeof *na);
				if (!na) {
					ok = false;
					break;
				}
				rs[w] = na;
			}
			rs[w][nrs[w]++] = b;
		}
	}
	g->ipdom = malloc((size_t)nn * sizeof *g->ipdom);
	ok = ok && g->ipdom;
	if (ok) {
		for (int v = 0; v < nn; v++) {
			p.po[v] = -1;
			idom[v] = -1;
		}
		rev_postorder(&p, exitn, rs, nrs);
		idom[exitn] = exitn;
		for (bool changed = true; changed;) {
			changed = false;
			for (int k = p.n - 1; k >= 0; k--) {
				int v = p.order[k];
				if (v == exitn)
					continue;
				/* predecessors in the reverse graph = forward successors */
				int s[256], ns = cfg_succ(g, (uint32_t)v, s, 255);
				if (exits(g, c, (uint32_t)v))
					s[ns++] = exitn;
				int nd = -1;
				for (int j = 0; j < ns; j++) {
					int w = s[j];
					if (idom[w] < 0 || p.po[w] < 0)
						continue;
					nd = nd < 0 ? w : intersect(&p, idom, w, nd);
				}
				if (nd >= 0 && idom[v] != nd) {
					idom[v] = nd;
					changed = true;
				}
			}
		}
		for (int v = 0; v < nb; v++)
			g->ipdom[v] = idom[v] == exitn ? -1 : idom[v];
		g->ipdom[nb] = -1;
	}
	for (int v = 0; rs && v < nn; v++)
		free(rs[v]);
	free(rs);
	free(nrs);
	free(cap);
	free(idom);
	free(p.po);
	free(p.order);
	return ok;
}

void cfg_free(lcfg *g)
{
	for (uint32_t b = 0; g->b && b < g->nb; b++)
		free(g->b[b].xsucc);
	free(g->b);
	free(g->block_of);
	free(g->label_block);
	free(g->ipdom);
	memset(g, 0, sizeof *g);
}
