/* lcode.c — the lowered code of a kernel (ptx_int.h lcode): virtual
 * registers, labels and instructions, which the lowering (lower_ops.c),
 * the reconvergence (reconv.c) and the register allocator (ralloc.c) all
 * add to.  Below them all. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

int lc_vreg(lcode *c, ptx_rclass rc, int ptx)
{
	if (c->nv == c->capv) {
		uint32_t cap = c->capv ? c->capv * 2 : 256;
		lvreg *v = realloc(c->v, cap * sizeof *v);
		if (!v) {
			c->oom = true;
			return 0;
		}
		c->v = v;
		c->capv = cap;
	}
	c->v[c->nv] = (lvreg){ rc, -1, -1, ptx };
	return (int)c->nv++;
}

int lc_label(lcode *c)
{
	return (int)c->nlabels++;
}

lins *lc_add(lcode *c, uint8_t kind, uint32_t line)
{
	static lins sink;
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 256;
		lins *ni = realloc(c->ins, cap * sizeof *ni);
		if (!ni) {
			c->oom = true;
			memset(&sink, 0, sizeof sink);
			return &sink;
		}
		c->ins = ni;
		c->cap = cap;
	}
	lins *l = &c->ins[c->n++];
	memset(l, 0, sizeof *l);
	l->kind = kind;
	l->guard = -1;
	l->target = -1;
	l->line = line;
	return l;
}

void lcode_free(lcode *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		free(c->ins[i].text);
		free(c->ins[i].targets);
	}
	free(c->ins);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* ---- emission helpers ------------------------------------------------------- */

