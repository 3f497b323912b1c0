/* straight.c — straight kernels (exec.h, exec_straight): compiled blocks
 * joined by the EXITs, BRAs and BARs that a lockstep group of whole CTAs
 * runs as one while its threads agree, for the warps of whole CTAs with
 * one call per block.  A grid of small CTAs (bench/kernels/tiny.we)
 * spent as much host time in starting, grouping, exiting and retiring
 * each CTA's warps as in its block, and a kernel's first branch or
 * barrier cost a CTA of eight warps as much again (bench/README.md);
 * here the blocks' calls and the barrier units' completions are all of
 * it.
 */
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/loop.h"
#include "exec/red.h"
#include "units/bar.h"

/* The step for instruction i at pc, not in a block, of a kernel of
 * nw-warp CTAs: an EXIT, a BRA or a BAR that a whole group runs as one
 * (group.c's group_whole, the BAR completed by all the CTA's warps
 * arriving in an empty phase: bar_arrive_all_ok on a unit as a CTA
 * starts it), a BSSY or a BSYNC.  false: no such step. */
static bool plan_step(const xinsn *i, uint64_t pc, uint32_t nw, xstraight_step *s)
{
	*s = (xstraight_step){ .pc = pc, .len = 1, .pg = i->pg, .pg_xor = i->pg_xor, .releases = i->releases };
	if (i->optype == ISA_OPT_EXIT && xopd_pt(&i->o[EXIT_pp])) {
		s->kind = XS_EXIT;
		return true;
	}
	if (xbra_whole(i)) {
		s->kind = XS_BRA;
		return true;
	}
	if (i->optype == ISA_OPT_BSSY || i->optype == ISA_OPT_BSYNC) {
		s->kind = i->optype == ISA_OPT_BSSY ? XS_BSSY : XS_BSYNC;
		s->breg = (uint8_t)((unsigned)i->o[i->optype == ISA_OPT_BSSY ? BSSY_breg : BSYNC_breg].imm &
				   (WE_NUM_BREGS - 1));
		return true;
	}
	if (i->optype != ISA_OPT_BAR || !xbar_imm_arrival(i, pc, 0xffffffffu, &s->bar))
		return false;
	bar_unit u;
	bar_init(&u, nw);
	s->kind = XS_BAR;
	return bar_arrive_all_ok(&u, nw, &s->bar);
}

/* The step that starts at pc, or UINT16_MAX */
static uint16_t step_at(const xstraight *p, uint64_t pc)
{
	for (uint32_t k = 0; k < p->n; k++)
		if (p->step[k].pc == pc)
			return (uint16_t)k;
	return UINT16_MAX;
}

bool exec_straight_plan(const we_launch_ctx *L, const struct xjit *jit, xstraight *p)
{
	p->n = 0;
	p->resets = 0;
	if (!jit || L->k->trap_handler >= 0)
		return false;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	for (uint64_t pc = start; pc < end;) {
		if (p->n == XSTRAIGHT_STEPS)
			return p->n = 0, false;
		xstraight_step *s = &p->step[p->n];
		const xjit_entry *e = xjit_at(jit, pc);
		if (e) {
			*s = (xstraight_step){ .at = e, .pc = pc, .len = e->len, .kind = XS_BLOCK };
			for (uint32_t q = 0; q < e->len; q++)
				if (L->mod->x[pc / WE_INST_SIZE + q].writes_pred)
					p->resets |= XS_RESET_PREDS;
		} else if (!plan_step(&L->mod->x[pc / WE_INST_SIZE], pc, L->warps_per_cta, s)) {
			return p->n = 0, false;
		}
		if (s->kind == XS_BAR)
			p->resets |= XS_RESET_BARS;
		if (s->kind == XS_BSSY || s->kind == XS_BSYNC)
			p->resets |= XS_RESET_BREGS;
		pc += (uint64_t)s->len * WE_INST_SIZE;
		p->n++;
	}
	/* (the last instruction's next is outside the code: only an EXIT
	 * every thread meets or a jump may end the kernel straight) */
	const xstraight_step *last = p->n ? &p->step[p->n - 1] : NULL;
	if (!last || !((last->kind == XS_EXIT || last->kind == XS_BRA) && last->pg == 7 && !last->pg_xor))
		return p->n = 0, false;
	for (p->tail = p->n; p->tail && (p->step[p->tail - 1].kind == XS_BLOCK || p->step[p->tail - 1].kind == XS_EXIT);)
		p->tail--;
	for (uint32_t k = 0; k < p->n; k++) {
		xstraight_step *s = &p->step[k];
		if (s->kind == XS_BRA &&
		    (s->to = step_at(p, xbra_target(&L->mod->x[s->pc / WE_INST_SIZE], s->pc))) == UINT16_MAX)
			return p->n = 0, false;
	}
	return true;
}

/* Guard pg ^ pg_xor over the n warps: 1 true in every lane of every
 * warp, 0 false in all, -1 else. */
static inline __attribute__((always_inline)) int guard_all(const we_warp *w, uint32_t n, uint8_t pg, uint32_t pg_xor)
{
	if (pg == 7 && !pg_xor)
		return 1; /* (PT) */
	const uint32_t g = w[0].p[pg] ^ pg_xor;
	if (g && g != ~0u)
		return -1;
	for (uint32_t j = 1; j < n; j++)
		if ((w[j].p[pg] ^ pg_xor) != g)
			return -1;
	return g ? 1 : 0;
}

/* Step s (not a block or an EXIT) of the n warps whose guard is true in
 * every lane: what it changes besides the PC.  BRA: nothing (sem_BRA's
 * plain jump).  BAR: the completion, CTA by CTA.  BSSY: 004's breg |=
 * pmask.  BSYNC: its full sync (ActiveMask is every lane, every valid
 * lane: no bit of the B register stays, no YieldMask bit either, as
 * none ran a YIELD). */
static void step_all(const xstraight_step *s, we_warp *w, uint32_t n, uint32_t nw)
{
	switch (s->kind) {
	case XS_BAR:
		for (uint32_t j = 0; j < n; j += nw)
			cta_bar_complete_group(w[j].cta, &s->bar);
		break;
	case XS_BSSY:
	case XS_BSYNC:
		for (uint32_t j = 0; j < n; j++)
			w[j].breg[s->breg] = s->kind == XS_BSSY ? 0xffffffffu : 0u;
		break;
	default:
		break;
	}
}

/* Warp w at the EXIT at pc, its guard true in every thread, runs it as
 * a turn of one warp would, and leaves as cta_turn retires a warp.
 * (Every thread valid and active, exec_straight's: the exit of them all
 * ends the warp, units/bru.c bru_exit.) */
static void exit_whole(const we_launch_ctx *L, we_warp *w, uint64_t pc)
{
	xctx x = { .w = w, .cta = w->cta, .L = L };
	sem_EXIT(&x, fetch(&x, L->mod->x, pc, L->k->code_start, L->k->code_end));
	(void)retire(&x);
	cta_warp_exited(w->cta, w->id);
}

/* Warps w[0..n) at an EXIT (pc) after which the kernel has only blocks
 * and EXITs (xstraight.tail), its guard differing between threads, their
 * counters `full` and `part` behind (straight_run).  A warp whose guard
 * holds in every thread ends at it as at the EXIT that ends a straight
 * kernel (xstraight_count counts it).  Each other warp, in order, runs
 * on alone from it to its end (exec_run, its warp function where it has
 * one), its counters settled first, as a turn of one warp would run it,
 * and leaves as cta_turn retires a warp: bit j of *ran.  No warp waits
 * for another: the tail has no barrier or branch.  true when every warp
 * ended.  false, with no warp run, when some warp keeps every thread
 * (the interpreter's lockstep groups run such warps faster than one at
 * a time: a bounds check's last CTA), and at the first warp that stopped
 * otherwise than by exiting (a fault; the budget, which a tail without
 * loops never meets): then the warps are as the interpreter's turns of
 * one warp leave them, those before it exited, those after it still at
 * pc (tail_stopped). */
static void tail_stopped(const we_launch_ctx *L, we_warp *w, uint32_t n, uint32_t j, uint64_t pc, uint64_t full,
			 uint64_t part, uint32_t ran);
static bool straight_tail(const we_launch_ctx *L, we_warp *w, uint32_t n, uint64_t pc, uint64_t full, uint64_t part,
			  uint32_t *ran)
{
	const xinsn *exit = &L->mod->x[pc / WE_INST_SIZE];
	*ran = 0;
	for (uint32_t j = 0; j < n; j++)
		if (!(w[j].p[exit->pg] ^ exit->pg_xor)) {
			group_settle(w, n, pc, full, part);
			return false;
		}
	const uint64_t budget = (L->k->code_end - pc) / WE_INST_SIZE + 1u;
	for (uint32_t j = 0; j < n; j++) {
		if ((w[j].p[exit->pg] ^ exit->pg_xor) == ~0u)
			continue;
		group_settle(&w[j], 1, pc, full, part);
		if (exec_run(w[j].cta, &w[j], budget) != WE_STOP_EXITED) {
			tail_stopped(L, w, n, j, pc, full, part, *ran);
			return false;
		}
		cta_warp_exited(w[j].cta, w[j].id);
		*ran |= 1u << j;
	}
	return true;
}

/* straight_tail's warp j stopped: the warps it did not run settled at
 * the EXIT, and those before j exit there (exit_whole). */
static void tail_stopped(const we_launch_ctx *L, we_warp *w, uint32_t n, uint32_t j, uint64_t pc, uint64_t full,
			 uint64_t part, uint32_t ran)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i == j || ((ran >> i) & 1u))
			continue;
		group_settle(&w[i], 1, pc, full, part);
		if (i < j)
			exit_whole(L, &w[i], pc);
	}
}

/* red: where the call holds reductions back (exec/red.h), or NULL */
static xstraight_end straight_run(const we_launch_ctx *L, const xstraight *p, we_warp *w, uint32_t n, xstraight_count *c,
			 xred *red)
{
	xjit_rt rt;
	xjit_rt_init(&rt, L);
	const uint32_t nw = L->warps_per_cta;
	/* the warps' counters lag behind by `full` instructions in every
	 * thread and `part` whose threads the blocks counted or none ran
	 * (group_settle's done and guarded) */
	uint64_t full = 0, part = 0, bars = 0;
	for (uint32_t k = 0;;) {
		const xstraight_step *s = &p->step[k];
		uint32_t next = k + 1;
		if (s->kind == XS_BLOCK) {
			const uint32_t ran = s->at->fn(w->r, w->rstride, n, w, &rt);
			/* (the unguarded ones: every thread of every warp) */
			const uint32_t all = xjit_unguarded(s->at, ran);
			full += all;
			part += ran - all;
			/* (a side exit: the warps as exec_group's group_block
			 * leaves them, the block's thread counts added) */
			if (ran < s->len) {
				group_settle(w, n, s->pc + (uint64_t)ran * WE_INST_SIZE, full, part);
				return XSTRAIGHT_LEFT;
			}
		} else {
			const int g = guard_all(w, n, s->pg, s->pg_xor);
			if (g < 0 && s->kind == XS_EXIT && k + 1 >= p->tail) {
				/* (the turns of one warp hold their own adds) */
				if (red && red->n)
					xred_flush(red);
				*c = (xstraight_count){ full + part + 1u, full + 1u, bars, 0 };
				return straight_tail(L, w, n, s->pc, full, part, &c->ran) ? XSTRAIGHT_DONE
											  : XSTRAIGHT_LEFT;
			}
			if (g < 0 || (g == 0 && s->kind == XS_BAR) ||
			    (s->kind == XS_BRA && s->to <= k && g && full + part >= XSTRAIGHT_BUDGET)) {
				/* the interpreter's (or the engine's watchdogs
				 * before the loop goes round again) */
				group_settle(w, n, s->pc, full, part);
				return XSTRAIGHT_LEFT;
			}
			if (g == 0) {
				/* (exec_group's idle instruction: it counts, with
				 * no thread) */
				part++;
			} else if (s->kind == XS_EXIT) {
				*c = (xstraight_count){ full + part + 1u, full + 1u, bars, 0 };
				return XSTRAIGHT_DONE;
			} else {
				full++;
				bars += s->kind == XS_BAR;
				/* (a barrier instruction releases the held adds) */
				if (s->releases && red && red->n)
					xred_flush(red);
				step_all(s, w, n, nw);
				if (s->kind == XS_BRA)
					next = s->to;
			}
		}
		k = next;
	}
}

xstraight_end exec_straight(const we_launch_ctx *L, const xstraight *p, we_warp *w, uint32_t n, xstraight_count *c)
{
	if (!xred_on(L))
		return straight_run(L, p, w, n, c, NULL);
	/* (a call is a turn of the n warps: its global adds held back,
	 * exec/red.h) */
	xred red;
	xred_begin(&red, w, n);
	const xstraight_end end = straight_run(L, p, w, n, c, &red);
	xred_end(&red, w, n);
	return end;
}
