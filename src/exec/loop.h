/* loop.h — what the interpreter loops share (run.c: one warp; group.c:
 * a lockstep group): dispatch to the handlers, fetching an instruction
 * (PC check, timer, guard, counters) and retiring it (the next PC).
 * Inline: they are the per-instruction path. */
#ifndef WE_EXEC_LOOP_H
#define WE_EXEC_LOOP_H

#include "base/bits.h"
#include "exec/exec.h"
#include "units/bru.h"

/* Dispatch one instruction to its optype's handler: computed goto where
 * GNU C has it; the plain switch otherwise (configure
 * --disable-computed-goto, or -DWE_FORCE_SWITCH: `make check` builds and
 * runs the kernel tests that way too, tests/test_kernels_switch). */
#if defined(WE_COMPUTED_GOTO) && !defined(WE_FORCE_SWITCH)
#define X_LABEL(name) &&op_##name,
#define DISPATCH(x, i)                                                        \
	do {                                                                  \
		static const void *const labels_[ISA_NUM_OPTYPES] = {         \
			ISA_OPTYPE_LIST(X_LABEL)                              \
		};                                                            \
		goto *labels_[(i)->optype];                                   \
		ISA_OPTYPE_LIST(X_GOTO_CASE)                                  \
	dispatched_:;                                                         \
	} while (0)
#define X_GOTO_CASE(name)                                                     \
	op_##name : sem_##name(x, i);                                         \
	goto dispatched_;
#else
#define DISPATCH(x, i)                                                        \
	do {                                                                  \
		switch ((i)->optype) {                                        \
			ISA_OPTYPE_LIST(X_SWITCH_CASE)                        \
		default:                                                      \
			break;                                                \
		}                                                             \
	} while (0)
#define X_SWITCH_CASE(name)                                                   \
	case ISA_OPT_##name:                                                  \
		sem_##name(x, i);                                             \
		break;
#endif

/* popc32(pm), remembered for the next instruction under the same mask. */
static inline uint32_t warp_popc(we_warp *w, uint32_t pm)
{
	if (pm != w->pm_last) {
		w->pm_last = pm;
		w->pm_count = popc32(pm);
	}
	return w->pm_count;
}

/* The counters and PC of the group instructions exec_group defers: `done`
 * run for the whole group (every lane of every warp) and `guarded` whose
 * thread counts group_plain (or a compiled block) added already.  Each warp gets what fetch()
 * and retire() would have given it (group.c, straight.c). */
static inline void group_settle(we_warp *w, uint32_t n, uint64_t pc, uint64_t done, uint64_t guarded)
{
	for (uint32_t j = 0; j < n; j++) {
		if (pc != UINT64_MAX)
			w[j].active_pc = pc;
		w[j].insns += done + guarded;
		w[j].thread_insns += done * XLANES;
		w[j].clock += done + guarded;
	}
}

/* The counters of one executed warp-instruction with guard & ActiveMask
 * pmask (its emulated time is one per instruction). */
static inline void count_insn(we_warp *w, uint32_t pmask)
{
	w->insns++;
	w->thread_insns += pmask == 0xffffffffu ? XLANES : warp_popc(w, pmask);
	w->clock++;
}

/* Before an instruction at pc: the PC check, the timer, the guard and
 * the counters.  NULL after a fault.  w->active_pc is pc while the
 * handler runs (handlers, faults and reports read it). */
static inline const xinsn *fetch(xctx *x, const xinsn *code, uint64_t pc, uint64_t start,
				 uint64_t end)
{
	we_warp *w = x->w;
	x->pc = pc;
	if (__builtin_expect(pc < start || pc >= end || (pc & (WE_INST_SIZE - 1)), 0)) {
		xfault(x, WE_FAULT_PC_RANGE, w->active, pc,
		       "PC 0x%llx is outside the kernel's code [0x%llx, 0x%llx)",
		       (unsigned long long)pc, (unsigned long long)start, (unsigned long long)end);
		return NULL;
	}
	const xinsn *i = &code[pc / WE_INST_SIZE];
	if (__builtin_expect(w->sleep != 0, 0) && w->clock >= w->wake_time)
		bru_timer_expired(w, w->clock);
	/* a branch-free guard */
	x->pmask = (w->p[i->pg] ^ i->pg_xor) & w->active;
	x->pc_set = false;
	count_insn(w, x->pmask);
	return i;
}

/* After it: the next PC (the handler's when it moved it). */
static inline uint64_t retire(xctx *x)
{
	if (x->pc_set)
		return x->w->active_pc;
	uint64_t pc = x->pc + WE_INST_SIZE;
	x->w->active_pc = pc;
	return pc;
}

#endif
