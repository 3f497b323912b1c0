/* run.c — the interpreter loop of one warp: fetch by PC, evaluate the
 * guard, call the optype's handler, advance the PC, until the warp
 * blocks, exits, yields, sleeps, faults or uses up its budget.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "asm/asm.h"
#include "exec/exec.h"
#include "exec/loop.h"

/* The loop with hooks: the instruction trace, and the seeded schedule's
 * preemption after memory and barrier instructions (ISA_F_PREEMPT). */
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
		if (x->pmask)
			DISPATCH(x, i);
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

we_stop exec_run(we_cta *cta, we_warp *w, uint64_t budget)
{
	const we_launch_ctx *L = cta->L;
	if (L->hooked)
		return exec_run_hooked(cta, w, budget);
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	xctx xc = { .w = w, .cta = cta, .L = L }, *x = &xc;
	uint64_t pc = w->active_pc;
	for (uint64_t n = 0; n < budget; n++) {
		const xinsn *i = fetch(x, code, pc, start, end);
		if (!i)
			return x->why;
		if (x->pmask)
			DISPATCH(x, i);
		pc = retire(x);
		if (x->stop)
			return x->why;
	}
	return WE_STOP_BUDGET;
}
