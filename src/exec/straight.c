/* straight.c — straight kernels (exec.h, exec_straight): compiled blocks
 * from the kernel's first instruction to an EXIT that every thread runs,
 * with only EXITs between them whose guard no thread meets (a bounds
 * check's @P0 EXIT), for the warps of whole CTAs with one call per
 * block.  A grid of small CTAs (bench/kernels/tiny.we) spent as much
 * host time in starting, grouping, exiting and retiring each CTA's warps
 * as in its block (bench/README.md); here the blocks' calls are all of
 * it.
 */
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/loop.h"
#include "exec/red.h"

/* i is an EXIT of predicate operand PT (its guard: the caller's) */
static bool plain_exit(const xinsn *i)
{
	const xopd *pp = &i->o[EXIT_pp];
	return i->optype == ISA_OPT_EXIT && xopd_pt(pp);
}

bool exec_straight_plan(const we_launch_ctx *L, const struct xjit *jit, xstraight *p)
{
	p->n = 0;
	p->insns = 0;
	p->preds = false;
	if (!jit || L->k->trap_handler >= 0)
		return false;
	for (uint64_t pc = L->k->code_start; p->n < XSTRAIGHT_BLOCKS;) {
		const xjit_entry *e = xjit_at(jit, pc);
		if (!e)
			return false;
		const uint64_t at = pc + (uint64_t)e->len * WE_INST_SIZE;
		if (at >= L->k->code_end)
			return false;
		/* (a block ends where an instruction of another form is) */
		const xinsn *i = &L->mod->x[at / WE_INST_SIZE];
		if (!plain_exit(i))
			return false;
		p->block[p->n++] = (xstraight_block){ .fn = e->fn, .pc = pc, .len = e->len, .pg = i->pg,
						      .pg_xor = i->pg_xor };
		for (uint32_t q = 0; q < e->len; q++)
			p->preds |= L->mod->x[pc / WE_INST_SIZE + q].writes_pred;
		p->insns += e->len + 1u;
		if (xunguarded(i))
			return true;
		pc = at + WE_INST_SIZE;
	}
	p->n = 0;
	return false;
}

static bool straight_run(const we_launch_ctx *L, const xstraight *p, we_warp *w, uint32_t n)
{
	xjit_rt rt;
	xjit_rt_init(&rt, L);
	uint32_t done = 0;
	for (uint32_t b = 0; b < p->n; b++) {
		const xstraight_block *s = &p->block[b];
		const uint32_t ran = s->fn(w->r, w->rstride, n, w, &rt);
		done += ran;
		/* (at a side exit, or at an EXIT some thread runs: the
		 * warps as exec_group's group_block leaves them, the block's
		 * thread counts added) */
		if (ran < s->len) {
			group_settle(w, n, s->pc + (uint64_t)ran * WE_INST_SIZE, 0, done);
			return false;
		}
		if (b + 1 == p->n)
			return true;
		/* an EXIT no thread runs (exec_group's idle instruction: it
		 * counts, with no thread), else the interpreter's */
		for (uint32_t j = 0; j < n; j++)
			if (w[j].p[s->pg] ^ s->pg_xor) {
				group_settle(w, n, s->pc + (uint64_t)s->len * WE_INST_SIZE, 0, done);
				return false;
			}
		done++;
	}
	return true;
}

bool exec_straight(const we_launch_ctx *L, const xstraight *p, we_warp *w, uint32_t n)
{
	if (!xred_on(L))
		return straight_run(L, p, w, n);
	/* (a call is a turn of the n warps: its global adds held back,
	 * exec/red.h) */
	xred red;
	xred_begin(&red, w, n);
	const bool done = straight_run(L, p, w, n);
	xred_end(&red, w, n);
	return done;
}
