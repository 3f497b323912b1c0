/* run.c — the interpreter loop of one warp: fetch by PC, evaluate the
 * guard, call the optype's handler, advance the PC, until the warp
 * blocks, exits, yields, sleeps, faults or uses up its budget.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "asm/asm.h"
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/loop.h"
#include "exec/observe.h"
#include "exec/red.h"

/* --profile's counters of instruction i, which warp w (ActiveMask
 * `active` before it) ran with x: executions and lanes, a BRA or BRX
 * that split the active lanes, a BSYNC that joined lanes, and where the
 * warp blocked. */
static inline void profile_insn(we_cta *cta, const we_warp *w, const xinsn *i, const xctx *x, uint32_t active)
{
	prof_pc *p = prof_at(cta->prof, w->id, x->pc);
	p->warp_insns++;
	p->thread_insns += popc32(x->pmask);
	if ((i->optype == ISA_OPT_BRA || i->optype == ISA_OPT_BRX) && w->active && (w->active & active) != active)
		p->diverged++;
	if (i->optype == ISA_OPT_BSYNC && popc32(w->active) > popc32(active))
		p->reconverged++;
	if (x->stop && x->why == WE_STOP_BLOCKED)
		cta->prof->block_pc[w->id] = x->pc;
}

/* --check's memory checks around instruction i (fetched into x): its
 * accesses observed before it runs (how many: in acc[], one per space),
 * an atomic's release and acquire with them ... */
static inline unsigned checked_before(xctx *x, const xinsn *i, race_access acc[3])
{
	const unsigned n = x->L->memcheck && x->pmask ? observe_mem(x, i, acc) : 0;
	for (unsigned j = 0; j < n; j++)
		if (acc[j].kind & RACE_ATOMIC)
			race_atomic_begin(x->cta, x->w, &acc[j]);
	return n;
}

/* ... and checked after it runs; a MEMBAR's order. */
static inline void checked_after(xctx *x, const xinsn *i, const race_access acc[3], unsigned n)
{
	for (unsigned j = n; j-- > 0;)
		if (acc[j].kind & RACE_ATOMIC)
			race_atomic_end(x->cta, &acc[j]);
	if (n && !(x->stop && x->why == WE_STOP_FAULT))
		for (unsigned j = 0; j < n; j++)
			race_access_mem(x->cta, x->w, &acc[j]);
	else if (x->L->memcheck && x->pmask && i->optype == ISA_OPT_MEMBAR)
		race_fence(x->cta, x->w, x->pc, (unsigned)i->in->scope);
}

we_stop exec_checked(we_warp *w, uint32_t n, uint64_t pc, uint32_t *j)
{
	const we_launch_ctx *L = w->cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	for (*j = 0; *j < n; (*j)++) {
		xctx xc = { .w = &w[*j], .cta = w[*j].cta, .L = L }, *x = &xc;
		const xinsn *i = fetch(x, code, pc, start, end);
		if (!i)
			return x->why;
		race_access acc[3];
		const unsigned mem = checked_before(x, i, acc);
		if (x->pmask)
			DISPATCH(x, i);
		checked_after(x, i, acc, mem);
		retire(x);
		if (x->stop)
			return x->why;
	}
	return WE_STOP_BUDGET;
}

/* The loop with hooks: the instruction trace, the seeded schedule's
 * preemption after memory and barrier instructions (ISA_F_PREEMPT),
 * --check's memory checks (each memory access and fence, observe.h) and
 * --profile. */
static we_stop exec_run_hooked(we_cta *cta, we_warp *w, uint64_t budget)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	xctx xc = { .w = w, .cta = cta, .L = L }, *x = &xc;
	for (uint64_t n = 0; n < budget; n++) {
		uint64_t pc = w->active_pc;
		if (L->trace && pc >= start && pc < end && !(pc & (WE_INST_SIZE - 1))) {
			char ins[200], loc[300], line[600];
			dis_insn(&L->mod->insn[pc / WE_INST_SIZE], pc, ins, sizeof ins);
			module_ptx_loc(L->mod, pc, loc, sizeof loc);
			snprintf(line, sizeof line, "cta=%u,%u,%u warp=%u pc=0x%04llx active=0x%08x %s%s",
				 cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], w->id,
				 (unsigned long long)pc, w->active, ins, loc);
			L->trace(L->trace_ctx, line);
		}
		const xinsn *i = fetch(x, code, w->active_pc, start, end);
		if (!i)
			return x->why;
		const uint32_t active = w->active;
		race_access acc[3];
		const unsigned mem = checked_before(x, i, acc);
		if (x->pmask)
			DISPATCH(x, i);
		checked_after(x, i, acc, mem);
		if (cta->prof)
			profile_insn(cta, w, i, x, active);
		retire(x);
		if (x->stop)
			return x->why;
		/* preemption points of the seeded schedule: after memory
		 * accesses and barrier instructions, named barriers too, with
		 * probability 1/4 */
		if (L->seeded && (isa_opcodes[i->opcode].flags & ISA_F_PREEMPT) &&
		    (sched_rand(&cta->rng) & 3u) == 0)
			return WE_STOP_BUDGET;
	}
	return WE_STOP_BUDGET;
}

/* exec_run's loop without hooks; red: where the turn holds reductions
 * back (exec/red.h), or NULL. */
static we_stop run_plain(we_cta *cta, we_warp *w, uint64_t budget, xred *red)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	xctx xc = { .w = w, .cta = cta, .L = L }, *x = &xc;
	uint64_t pc = w->active_pc;
	/* the compiled warp function (jit.h), where it has an entry: it runs
	 * until it meets what it leaves to the interpreter, which runs that
	 * instruction (a launch under --jit auto publishes its code
	 * mid-launch: engine/sched.c) */
	const struct xjit *jit = atomic_load_explicit(&L->jit, memory_order_acquire);
	xjit_rt rt;
	rt.L = NULL; /* (set at the first entry: most turns that end at once, an EXIT, need none) */
	if (jit && !jit->wfn)
		jit = NULL;
	for (uint64_t n = 0; n < budget; n++) {
		if (jit && xjit_warp_at(jit, pc)) {
			if (!rt.L)
				xjit_rt_init(&rt, L);
			n += jit->wfn(w, &rt, budget - n);
			pc = w->active_pc;
			if (n >= budget)
				break;
		}
		const xinsn *i = fetch(x, code, pc, start, end);
		if (!i)
			return x->why;
		if (red && red->n && i->releases)
			xred_flush(red);
		if (x->pmask)
			DISPATCH(x, i);
		pc = retire(x);
		if (x->stop)
			return x->why;
	}
	return WE_STOP_BUDGET;
}

we_stop exec_run(we_cta *cta, we_warp *w, uint64_t budget)
{
	const we_launch_ctx *L = cta->L;
	if (L->hooked)
		return exec_run_hooked(cta, w, budget);
	if (!xred_on(L))
		return run_plain(cta, w, budget, NULL);
	/* (the turn's reductions held back: exec/red.h) */
	xred red;
	xred_begin(&red, w, 1);
	const we_stop st = run_plain(cta, w, budget, &red);
	xred_end(&red, w, 1);
	return st;
}
