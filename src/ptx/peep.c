/* peep.c — rewrites of the lowered code before reconvergence and register
 * allocation (doc/ptx.md "Speed"): exact rewrites that make lowered PTX
 * run as a hand-written kernel does.
 *
 * If-conversion: nvcc guards a short `if` by branching over its body
 * (`@p bra L; body; L:`).  A divergent branch costs BSSY, BRA and BSYNC,
 * parks lanes and breaks the scheduler's lockstep groups (warps that go
 * different ways leave the group).  The body under the negated guard
 * does the same in every lane: the lanes that branched run none of it,
 * and the others run all of it and fall through to L.  Only bodies of
 * straight per-lane instructions qualify: no labels (nothing else enters
 * the body), no guard of their own, no write of the guard, and nothing
 * whose effect depends on which lanes run it (warp-wide and control
 * instructions). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

/* longest body converted: beyond it, warps that skip the body pay more
 * for its guarded instructions than for a branch */
#define IFCONV_MAX 8

/* mnemonics whose effect depends on the set of lanes that run them, or
 * that transfer control: never moved under a guard */
static bool lane_sensitive(const char *text)
{
	static const char *const no[] = { "BAR", "SHFL", "VOTE", "MATCH", "REDUX", "WARPSYNC", "BSSY", "BSYNC",
					  "NANOSLEEP", "TRAP", "CALL", "RET", "BRX", "LEPC", "EXIT", "YIELD" };
	if (!text)
		return true;
	size_t n = strcspn(text, " .");
	for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
		if (strlen(no[k]) == n && !strncmp(text, no[k], n))
			return true;
	return false;
}

static bool convertible(const lins *l, int guard)
{
	if (l->kind != LK_INS || l->guard >= 0 || lane_sensitive(l->text))
		return false;
	for (int k = 0; k < l->nslot; k++)
		if ((l->s[k].use & LU_DEF) && l->s[k].v == guard)
			return false;
	return true;
}

void peep_ifconvert(lcode *c)
{
	uint32_t o = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		lins *b = &c->ins[i];
		uint32_t j = i + 1;
		if (b->kind == LK_BRA && b->guard >= 0) {
			while (j < c->n && j - i - 1 < IFCONV_MAX && convertible(&c->ins[j], b->guard))
				j++;
		}
		if (j > i + 1 && j < c->n && c->ins[j].kind == LK_LABEL && c->ins[j].target == b->target) {
			for (uint32_t k = i + 1; k < j; k++) {
				c->ins[k].guard = b->guard;
				c->ins[k].guard_neg = !b->guard_neg;
			}
			free(b->text);
			free(b->targets);
			continue;
		}
		c->ins[o++] = *b;
	}
	c->n = o;
}
