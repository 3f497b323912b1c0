/* reconv.c — divergence analysis and reconvergence (doc/ptx.md).
 *
 * A value is varying when an instruction that differs per lane produced
 * it (%tid, loads, shuffles, ...), when it is computed from a varying
 * value, or when it is written inside the region of a divergent branch
 * (lanes that went different ways hold different values after the join).
 * A branch is divergent when its guard is varying.  Each divergent branch
 * gets BSSY Bk just before it and BSYNC Bk at the start of its immediate
 * post-dominator: seed 004's mask algorithms then park the lanes that
 * arrive first until the others come (BSSY ORs the active lanes into Bk,
 * so a BSSY inside a loop is re-executed harmlessly, and BSYNC drops
 * lanes that exited).  Branches with the same post-dominator share one B
 * register and one BSYNC.  A divergent branch whose paths never meet
 * again (its post-dominator is the exit) needs no reconvergence.
 * Reconvergence points whose B registers cannot be in use at once share
 * one (color_points), so a kernel may have more than 16 of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/reconv.h"

/* blocks reachable from b's successors before reaching stop (not incl.) */
static void region(const lcfg *g, uint32_t b, int stop, char *in, int *stack)
{
	int sp = 0, s[256];
	memset(in, 0, g->nb);
	int ns = cfg_succ(g, b, s, 256);
	for (int k = 0; k < ns; k++)
		if (s[k] != stop && !in[s[k]]) {
			in[s[k]] = 1;
			stack[sp++] = s[k];
		}
	while (sp) {
		int v = stack[--sp];
		ns = cfg_succ(g, (uint32_t)v, s, 256);
		for (int k = 0; k < ns; k++)
			if (s[k] != stop && !in[s[k]]) {
				in[s[k]] = 1;
				stack[sp++] = s[k];
			}
	}
}

static bool is_cond_branch(const lins *l)
{
	return (l->kind == LK_BRA && l->guard >= 0 && !l->uniform) || l->kind == LK_BRX;
}

static bool branch_varying(const lins *l, const bool *varying)
{
	if (l->kind == LK_BRX)
		return !l->uniform && l->nslot && varying[l->s[0].v];
	return varying[l->guard];
}

bool reconv_analyse(const lcode *c, const lcfg *g, bool *varying, bool *div)
{
	char *in = malloc(g->nb + 1);
	int *stack = malloc((g->nb + 1) * sizeof *stack);
	if (!in || !stack) {
		free(in);
		free(stack);
		return false;
	}
	memset(varying, 0, c->nv * sizeof *varying);
	memset(div, 0, c->n * sizeof *div);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < c->n; i++) {
			const lins *l = &c->ins[i];
			bool v = l->varying || (l->guard >= 0 && varying[l->guard]);
			for (int k = 0; k < l->nslot && !v; k++)
				v = (l->s[k].use & LU_USE) && varying[l->s[k].v];
			for (int k = 0; k < l->nslot && v; k++)
				if ((l->s[k].use & LU_DEF) && !varying[l->s[k].v])
					varying[l->s[k].v] = changed = true;
		}
		for (uint32_t i = 0; i < c->n; i++) {
			const lins *l = &c->ins[i];
			if (div[i] || !is_cond_branch(l) || !branch_varying(l, varying))
				continue;
			div[i] = changed = true;
			uint32_t b = g->block_of[i];
			region(g, b, g->ipdom[b], in, stack);
			for (uint32_t rb = 0; rb < g->nb; rb++) {
				if (!in[rb])
					continue;
				for (uint32_t j = g->b[rb].first; j <= g->b[rb].last; j++)
					for (int k = 0; k < c->ins[j].nslot; k++)
						if (c->ins[j].s[k].use & LU_DEF)
							varying[c->ins[j].s[k].v] = true;
			}
		}
	}
	free(in);
	free(stack);
	return true;
}

typedef struct rpoint {
	uint32_t block;               /* the post-dominator */
	int breg;
	uint32_t line;
	int label;                    /* after the BSYNC: the BSSY's operand */
} rpoint;

/* Give each reconvergence point a B register from c->bbase on (a
 * function's are not its callers', call.c).  Bk is in use from a BSSY
 * to its BSYNC, which leaves it 0 once every lane it names has arrived
 * (004's BSYNC clears the arrived lanes; exited ones are dropped), so
 * two points may share Bk when no lane can be between the BSSY and the
 * BSYNC of one while another lane of the warp is between those of the
 * other.  Conservatively, points interfere when their spans (the
 * branches' blocks, their regions and the post-dominator) share a block,
 * or when both touch the region of one divergent branch (its lanes run
 * the two paths interleaved; with the exit as post-dominator the region
 * is all that follows).  Greedy colouring in program order; false when a
 * point finds no register below 16. */
static bool color_points(lcode *c, const lcfg *g, const bool *div, const int *pt_of, rpoint *pts,
			 uint32_t npts)
{
	size_t nb = g->nb + 1;
	char *span = calloc((size_t)npts * nb, 1), *in = malloc(nb);
	char *conflict = calloc((size_t)npts * npts + 1, 1);
	int *stack = malloc(nb * sizeof *stack);
	bool ok = span && in && conflict && stack;
	if (!ok)
		c->oom = true;
	for (uint32_t i = 0; ok && i < c->n; i++) {
		if (pt_of[i] < 0)
			continue;
		char *sp = span + (size_t)pt_of[i] * nb;
		uint32_t b = g->block_of[i];
		region(g, b, (int)pts[pt_of[i]].block, in, stack);
		for (uint32_t rb = 0; rb < g->nb; rb++)
			sp[rb] |= in[rb];
		sp[b] = sp[pts[pt_of[i]].block] = 1;
	}
	for (uint32_t a = 0; ok && a < npts; a++)
		for (uint32_t b2 = a + 1; b2 < npts; b2++)
			for (uint32_t rb = 0; rb < g->nb; rb++)
				if (span[a * nb + rb] && span[b2 * nb + rb]) {
					conflict[a * npts + b2] = conflict[b2 * npts + a] = 1;
					break;
				}
	for (uint32_t i = 0; ok && i < c->n; i++) {
		if (!div[i])
			continue;
		region(g, g->block_of[i], g->ipdom[g->block_of[i]], in, stack);
		for (uint32_t a = 0; a < npts; a++)
			for (uint32_t b2 = a + 1; b2 < npts; b2++) {
				bool ta = false, tb = false;
				for (uint32_t rb = 0; rb < g->nb && !(ta && tb); rb++) {
					ta = ta || (in[rb] && span[a * nb + rb]);
					tb = tb || (in[rb] && span[b2 * nb + rb]);
				}
				if (ta && tb)
					conflict[a * npts + b2] = conflict[b2 * npts + a] = 1;
			}
	}
	for (uint32_t a = 0; ok && a < npts; a++) {
		uint32_t taken = 0;
		for (uint32_t b2 = 0; b2 < a; b2++)
			if (conflict[a * npts + b2])
				taken |= 1u << pts[b2].breg;
		uint32_t r = c->bbase;
		while (r < 16 && (taken >> r & 1))
			r++;
		pts[a].breg = (int)r;
		ok = r < 16;
	}
	free(span);
	free(in);
	free(conflict);
	free(stack);
	return ok;
}

static bool place(lcode *c, const lcfg *g, const bool *div)
{
	/* one reconvergence point per distinct post-dominator */
	rpoint *pts = malloc((g->nb + 1) * sizeof *pts);
	int *pt_of = malloc((c->n + 1) * sizeof *pt_of);
	if (!pts || !pt_of) {
		free(pts);
		free(pt_of);
		c->oom = true;
		return true;
	}
	uint32_t npts = 0;
	bool ok = true;
	for (uint32_t i = 0; i < c->n; i++) {
		pt_of[i] = -1;
		int p = div[i] ? g->ipdom[g->block_of[i]] : -1;
		if (p < 0)
			continue;
		uint32_t k = 0;
		while (k < npts && pts[k].block != (uint32_t)p)
			k++;
		if (k == npts)
			pts[npts++] = (rpoint){ (uint32_t)p, -1, c->ins[i].line, lc_label(c) };
		pt_of[i] = (int)k;
	}
	ok = color_points(c, g, div, pt_of, pts, npts);
	/* from the end, so that earlier indices stay valid: BSYNCs at the
	 * start of each post-dominator block (after its labels), BSSYs before
	 * the branches */
	uint32_t *bsync_at = malloc((npts + 1) * sizeof *bsync_at);
	if (!bsync_at) {
		c->oom = true;
		ok = false;
		npts = 0;
	}
	for (uint32_t k = 0; k < npts; k++) {
		uint32_t at = g->b[pts[k].block].first;
		while (at < c->n && c->ins[at].kind == LK_LABEL)
			at++;
		bsync_at[k] = at;
	}
	/* build the new code in one pass */
	/* the same vregs, labels and frame; new instructions */
	lcode out = *c;
	out.ins = NULL;
	out.n = out.cap = 0;
	for (uint32_t i = 0; i < c->n && ok && !out.oom; i++) {
		for (uint32_t k = 0; k < npts; k++)
			if (bsync_at[k] == i) {
				lins *l = lc_add(&out, LK_INS, pts[k].line);
				char buf[32];
				snprintf(buf, sizeof buf, "BSYNC B%d", pts[k].breg);
				l->text = strdup(buf);
				if (!l->text)
					out.oom = true;
				lc_add(&out, LK_LABEL, 0)->target = pts[k].label;
			}
		if (pt_of[i] >= 0) {
			lins *l = lc_add(&out, LK_INS, c->ins[i].line);
			char buf[48];
			snprintf(buf, sizeof buf, "BSSY B%d, `(.L%u_%d)", pts[pt_of[i]].breg, c->kidx, pts[pt_of[i]].label);
			l->text = strdup(buf);
			if (!l->text)
				out.oom = true;
		}
		lins *l = lc_add(&out, 0, 0);
		if (!out.oom) {
			*l = c->ins[i];
			c->ins[i].text = NULL;
			c->ins[i].targets = NULL;
		}
	}
	if (out.oom)
		c->oom = true;
	free(bsync_at);
	free(pts);
	free(pt_of);
	if (!ok || out.oom) {
		for (uint32_t i = 0; i < out.n; i++)
			free(out.ins[i].text), free(out.ins[i].targets);
		free(out.ins);
		return ok;
	}
	for (uint32_t i = 0; i < c->n; i++)
		free(c->ins[i].text), free(c->ins[i].targets);
	free(c->ins);
	c->ins = out.ins;
	c->n = out.n;
	c->cap = out.cap;
	return true;
}

bool reconv_place(lcode *c)
{
	lcfg g;
	bool ok = cfg_build(c, &g) && cfg_postdom_with(&g, c);
	bool *varying = ok ? malloc((c->nv + 1) * sizeof *varying) : NULL;
	bool *div = ok ? malloc((c->n + 1) * sizeof *div) : NULL;
	if (!ok || !varying || !div || !reconv_analyse(c, &g, varying, div)) {
		c->oom = true;
		free(varying);
		free(div);
		cfg_free(&g);
		return true;
	}
	ok = place(c, &g, div);
	free(varying);
	free(div);
	cfg_free(&g);
	return ok;
}
