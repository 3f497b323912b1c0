/* warp.h — the state of one warp, exactly the variables of seed 004
 * ("BRU相关基础变量"), plus the register files the ALU needs.
 *
 * A warp is plain data.  The executor (exec/) advances it until it
 * blocks, exits, yields, sleeps or faults; who drives warps on which host
 * thread is the business of the engine modules, not of this one.
 */
#ifndef WE_WARP_H
#define WE_WARP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"

#define WE_WARP_SIZE 32u
#define WE_NUM_BREGS 16u
#define WE_NUM_PREDS 8u   /* P0..P6 and PT (index 7, always all-ones)   */
#define WE_NUM_UREGS 64u  /* UR0..UR62 and URZ (index 63, always zero)  */
#define WE_NUM_UPREDS 8u
#define WE_JWINS 8u       /* compiled code's global windows (we_warp.jwin) */

/* Why the executor handed a warp back to its driver. */
typedef enum we_stop {
	WE_STOP_BUDGET = 0,  /* instruction budget used up, still runnable   */
	WE_STOP_YIELD,       /* YIELD executed: let other warps run          */
	WE_STOP_RELEASED,    /* completed a barrier, releasing other warps
				(scheduler engine with lockstep groups): the
				driver may regroup them with this one      */
	WE_STOP_BLOCKED,     /* waiting on a CTA barrier                     */
	WE_STOP_SLEEP,       /* warpSleep(): NANOSLEEP or all-sleep switch   */
	WE_STOP_EXITED,      /* warpExit(): ValidMask == 0                   */
	WE_STOP_FAULT        /* runtime exception recorded in the CTA        */
} we_stop;

typedef enum we_warp_state {
	WE_WS_READY = 0,
	WE_WS_BLOCKED,       /* on barrier warp->bar_id                      */
	WE_WS_SLEEPING,      /* until warp->wake_time (emulated)             */
	WE_WS_EXITED,
	WE_WS_FAULTED
} we_warp_state;

typedef struct we_warp {
	/* The fields every instruction reads or counts come first, in the
	 * warp's first cache line (a lockstep group walks them warp by warp;
	 * warps start on 64-byte boundaries). */

	/* ---- seed 004 state ------------------------------------------- */
	uint64_t active_pc;           /* ActivePC: byte offset in the code */
	uint32_t valid;               /* ValidMask                         */
	uint32_t active;              /* ActiveMask                        */
	uint32_t sleep;               /* SleepMask                         */
	we_warp_state state;          /* (scheduling)                      */
	uint32_t p[WE_NUM_PREDS];     /* predicate p as a lane bit mask    */
	uint64_t clock;               /* the warp's emulated time in ns: one
					 per instruction, plus slept time  */
	/* (64 bytes) */
	uint64_t insns;               /* warp-instructions executed        */
	uint64_t thread_insns;        /* sum of popcount(ActiveMask)       */
	uint32_t yield;               /* YieldMask                         */
	uint32_t swmask;              /* SwitchMask                        */
	uint32_t pm_last, pm_count;   /* the last partial guard & ActiveMask
					 counted and its popcount (exec/loop.h:
					 without POPCNT in the baseline ISA a
					 popcount costs a dozen instructions,
					 and a divergent warp runs many
					 instructions under one mask)      */

	/* ---- register files ------------------------------------------- */
	/* General registers as r[row * rstride + lane] so lane loops
	 * vectorize.  Rows 0..nregs-1 are R0.., then 4 zero rows (RZ reads)
	 * and 4 sink rows (RZ writes); see exec.h for the mapping.  A CTA
	 * keeps its warps' rows register by register (rstride = 32 lanes x
	 * its warps): one register of consecutive warps is one array, which
	 * the executor's lockstep groups run over in one pass. */
	uint32_t *r;
	uint32_t nrows;
	uint32_t rstride;
	uint32_t id;                  /* warp index within the CTA         */
	struct we_cta *cta;           /* its CTA                           */
	uint8_t up;                   /* uniform predicates, bit i = UPi   */

	/* ---- the rest of this line: what a CTA start resets besides the
	 * first two lines (warp_clear_flow; gcache: warp_clear_hot) ------ */
	bool rpc_written;             /* some RPC changed since the CTA's
					 start (warp_clear_flow: every writer
					 of rpc[] sets it)                  */
	/* scheduling (the rest) */
	uint64_t wake_time;           /* clock at which SleepMask clears    */
	uint64_t sync_fail_at;        /* insns at the last failing BSYNC/WARPSYNC */
	uint32_t sync_seen;           /* groups (lowest lane) parked by the
					 failing syncs in a row (sem_bru.c) */
	/* the barrier unit, per warp (seed 000) */
	int8_t bar_id;                /* barrier waited on, -1 if none     */
	int8_t bar_waited;            /* the barrier it last blocked on, -1: a
					 named barrier (the warp's own copy:
					 whoever releases it clears bar_id) */
	bool scan_unread;             /* a BAR.SCAN result not yet read    */
	uint32_t bar_phase;           /* phase of that barrier when joined */
	uint32_t warp_bar_state;      /* WarpBARState: the barrier state word
					 (bar.h) of the last completed BAR.RED,
					 holding its result; B2R.WARP / R2B.WARP
					 / BAR.RESULT read and write it    */
	const struct galloc *gcache;  /* last global allocation hit (exec/operand.c) */
	struct xred *red;             /* the reductions the host thread running
					 the warp holds back during its turn
					 (exec/red.h), or NULL            */

	uint32_t ur[WE_NUM_UREGS];    /* uniform registers                 */

	/* ---- seed 004 state (the rest) -------------------------------- */
	uint32_t breg[WE_NUM_BREGS];  /* B0..B15                           */
	uint64_t rpc[WE_WARP_SIZE];   /* RPC: per-thread PC                */

	/* ---- trap handler (dialect sass, issue 5) --------------------- */
	bool in_trap;                 /* executing the kernel's trap handler */
	struct {
		uint64_t active_pc;   /* where RTT resumes (after the TRAP) */
		uint32_t active, yield, sleep, swmask;
		uint64_t rpc[WE_WARP_SIZE];
	} trap_save;                  /* the interrupted seed-004 state     */
	/* compiled code's global windows (exec/jit.c win_load), kept from
	 * call to call: the allocation that a memory instruction q of the
	 * kernel with entry jwin[q % WE_JWINS] last reached from a group
	 * this warp led or from its warp function (exec/jit.c
	 * global_xlate), device bytes [lo, hi) at host address + delta
	 * (zero: none).  Allocations do not change during a launch, and a
	 * launch's warps start zeroed (engine/slot.c batch_alloc); a CTA
	 * start keeps them (warp_clear). */
	struct {
		uint64_t lo, hi, delta;
	} jwin[WE_JWINS];

	/* ---- named barriers (dialect visa) ----------------------------- */
	int8_t nbar_id;               /* named barrier waited on, -1 if none */

	/* ---- per-thread barriers (dialect ptx: TBAR, units/tbar.c) ------ */
	struct {
		uint32_t arrived[16]; /* lanes arrived at barrier id in the warp's
					 pending arrival                   */
		uint32_t pred[16];    /* TBAR.RED: those whose predicate is true */
		uint16_t cnt[16];     /* the count of the first lane's TBAR  */
		uint8_t kind[16];     /* 0 none, TBAR_SYNC, TBAR_ARV, TBAR_RED */
		uint32_t parked;      /* lanes waiting at a TBAR (RPC = it)   */
	} tbar;

	/* per-thread local memory: local_size bytes per lane */
	uint8_t *local;
	uint32_t local_size;
} we_warp;

/* A warp's state at a CTA's start: every field zero but rpc, which the
 * caller sets (to the entry PC), trap_save, which TRAP writes before RTT
 * (only inside the handler, in_trap) reads it, and jwin, which holds for
 * the whole launch.  They are more than half the struct, and a grid of
 * small CTAs clears a warp per 8 to 20 instructions it runs. */
static inline void warp_clear(we_warp *w)
{
	_Static_assert(offsetof(we_warp, rpc) < offsetof(we_warp, trap_save) &&
			       offsetof(we_warp, jwin) == offsetof(we_warp, trap_save) + sizeof w->trap_save,
		       "warp_clear's ranges");
	char *b = (char *)w;
	const size_t r0 = offsetof(we_warp, rpc), r1 = r0 + sizeof w->rpc;
	const size_t t0 = offsetof(we_warp, trap_save), t1 = offsetof(we_warp, jwin) + sizeof w->jwin;
	zero_small(b, r0);
	zero_small(b + r1, t0 - r1);
	zero_small(b + t1, sizeof *w - t1);
}

/* The part of a warp's start state that warp_clear zeroes and that
 * every kernel's instructions may change: the first two cache lines (the
 * seed-004 masks and PC, predicates, clock, counters), the uniform
 * predicates, the uniform registers when `uregs` (only uniform-unit
 * instructions write them) and the global allocation cache.  A warp
 * whose other fields still hold a CTA start's values (engine/slot.c: the
 * kernel has no branch or barrier unit instruction but EXIT) starts
 * again with this. */
static inline void warp_clear_hot(we_warp *w, bool uregs)
{
	_Static_assert(offsetof(we_warp, r) < offsetof(we_warp, up) &&
			       offsetof(we_warp, up) < offsetof(we_warp, ur) &&
			       offsetof(we_warp, ur) + sizeof w->ur <= offsetof(we_warp, breg),
		       "warp_clear_hot's ranges");
	zero_const(w, offsetof(we_warp, r));
	w->up = 0;
	if (uregs)
		zero_const(w->ur, sizeof w->ur);
	w->gcache = NULL;
}

/* The fields that BRA and the barrier unit's instructions (BAR, seed
 * 000) may change beyond warp_clear_hot's, as a CTA start leaves them
 * (warp_clear, engine/slot.c): the RPCs at the kernel's first
 * instruction pc, no barrier waited on, the barrier state word and scan
 * result, the sleep timer and the failing syncs' record.  With
 * warp_clear_hot, the restart of a warp whose kernel has no other branch
 * or barrier unit instruction but EXIT. */
static inline void warp_clear_flow(we_warp *w, uint64_t pc)
{
	/* (the RPCs are four lines that a kernel whose branches are all
	 * uniform never touches: only those written) */
	if (w->rpc_written)
		for (unsigned l = 0; l < WE_WARP_SIZE; l++)
			w->rpc[l] = pc;
	w->rpc_written = false;
	w->wake_time = 0;
	w->sync_fail_at = 0;
	w->sync_seen = 0;
	w->bar_id = -1;
	w->bar_phase = 0;
	w->bar_waited = 0;
	w->warp_bar_state = 0;
	w->scan_unread = false;
}

static inline uint32_t *we_row(we_warp *w, unsigned row)
{
	return w->r + (uint64_t)row * w->rstride;
}

#endif
