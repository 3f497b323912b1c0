/* engine_int.h — what the engines share: the launch, CTA slots (the
 * buffers one running CTA needs), CTA start and finish, scheduling
 * decisions and watchdogs, thread placement. */
#ifndef WE_ENGINE_INT_H
#define WE_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cta/cta.h"
#include "device/device.h"
#include "device/topo.h"
#include "engine/engine.h"
#include "exec/exec.h"
#include "exec/jit.h"

/* What a slot's CTAs ran, added to the launch's stats at its end
 * (slot_stats). */
typedef struct slot_counts {
	uint64_t ctas, warp_insns, thread_insns, barriers;
	uint64_t straight;             /* of ctas, those exec_straight ended */
} slot_counts;

/* The buffers of one running CTA, reused for CTA after CTA: its part
 * of a batch's (batch_alloc; the warp-threads engine's batches hold one
 * CTA). */
typedef struct cta_slot {
	we_cta cta;
	we_warp *warps;
	uint32_t *regs;                /* R0 of warp 0; rows of rstride lanes */
	uint32_t rstride;
	uint8_t *shared;
	uint8_t *local;
	race_cta *race;                /* --check races/uninit state, or NULL */
	prof *prof;                    /* --profile counters, or NULL        */
	slot_counts counts;            /* of the CTAs it ran (slot_stats)    */
	uint8_t leaves;                /* what the kernel's CTAs may leave in
					  their warps besides warp_clear_hot's
					  fields (slot.c, KERNEL_*)          */
	bool primed;                   /* the warps hold a CTA start's state
					  but for those (cta_start)          */
} cta_slot;

/* The CTAs one scheduler worker runs side by side (sched.c): their warps
 * are one array and their register rows interleave (a row holds warp
 * 0..n-1 of CTA 0, then of CTA 1, ...), so the warps of CTAs that are at
 * one PC form one lockstep group (exec_group). */
typedef struct cta_batch {
	uint32_t n;                    /* CTA slots                         */
	cta_slot *slot;
	we_warp *warps;
	uint32_t *regs;
	uint8_t *shared, *local;
	void *block;                   /* all of the above: the device's kept
					  block `key` (dev_keep_take), of cap
					  bytes                              */
	size_t cap;
	unsigned key;
	uint32_t clock_turns;          /* its worker's watchdog_ok calls    */
	uint32_t fresh;                /* slots [0, fresh) hold a CTA start's
					  state, or a straight kernel's end
					  (batch_retire)                    */
	uint32_t ran;                  /* of that end, the warps that ran on
					  alone after a tail's EXIT (bit j:
					  warps[j], xstraight_count.ran): a
					  restart starts them again         */
} cta_batch;

typedef struct launch {
	we_launch_ctx L;
	const engine_ops *engine;
	const we_topo *topo;           /* NULL: no placement                */
	we_placement placement;
	uint64_t nctas;                /* the end of the CTAs to run (linear
					  ids [first, nctas): the grid, or a
					  part of it, eng_part)              */
	uint64_t first;
	/* (next and stop on lines of their own: a worker's chunk_take
	 * writes next, and every worker reads stop and L per batch) */
	_Alignas(64) _Atomic uint64_t next; /* next CTA to hand out         */
	_Alignas(64) _Atomic bool stop;     /* an exception: hand out no more */
	pthread_mutex_t lock;          /* guards status/report/notice       */
	we_status status;
	char *report;
	char *report_json;             /* the report's JSON form            */
	uint64_t report_cta;
	bool bind_notice;              /* the no-binding notice was printed */
	char *notice;                  /* that notice, for the caller       */
	unsigned nthreads;             /* host threads to use               */
	double timeout;                /* wall-clock seconds, 0 = none      */
	we_launch_stats stats;         /* summed by the runner after joining */
	check_log checklog;            /* --check hazards                   */
	race_launch *race;             /* --check races/uninit (L.race)     */
	prof *prof;                    /* --profile: the slots' sums        */
	/* the compiled tier (exec/jit.h; tier.c) */
	const char *jit_note;          /* why it is used or not (stats.jit)  */
	bool jit_auto;                 /* --jit auto: sched.c's sample of batches
					  decides (launch_jit_decide)       */
	xjit_use jit_use;              /* the caches, compiling, loading    */
	char jit_dir[4096];            /* the disk cache (jit_use.dir)      */
} launch;

#define QUANTUM 4096u

/* The next warp to run and its budget (both engines, so a seeded
 * schedule is the same decision sequence in either): round-robin with
 * QUANTUM, or a seeded random ready warp with a random budget.  -1 when
 * no warp is ready.  Call under the CTA lock in the warp-threads engine.
 * (Inline: the scheduler engine calls it at every warp switch.) */
int sched_next_seeded(we_cta *c, uint64_t *budget);
static inline int sched_next(we_cta *c, uint64_t *budget)
{
	if (c->L->seeded)
		return sched_next_seeded(c, budget);
	uint32_t ready = c->ready;
	if (!ready)
		return -1;
	/* round robin: the first ready warp at or after rr_next, else the
	 * first one */
	uint32_t after = c->rr_next < 32 ? ready & (~0u << c->rr_next) : 0;
	int wi = __builtin_ctz(after ? after : ready);
	c->rr_next = (uint32_t)wi + 1;
	*budget = QUANTUM;
	return wi;
}

/* Charge the watchdogs (max-instructions, interrupt, wall clock) before a
 * turn of `*budget` instructions; false after recording a WATCHDOG or
 * INTERRUPTED fault.  The wall clock is read on every 64th turn of the
 * host thread that counts *turns (its own: a warp switch can come at
 * every barrier, and a grid of small CTAs starts a warp every few
 * instructions: clock_gettime per warp or CTA cost tiny.we as much as its
 * instructions, bench/README.md); a turn is at most QUANTUM instructions.
 * Inline for the usual turn with nothing to check. */
bool watchdog_check(we_cta *c, we_warp *w, uint64_t *budget, bool clock_turn);
static inline bool watchdog_ok(we_cta *c, we_warp *w, uint64_t *budget, uint32_t *turns)
{
	const bool clock_turn = c->L->deadline > 0 && ((*turns)++ & 63u) == 0;
	if (!c->L->max_instructions && !clock_turn &&
	    !atomic_load_explicit(&c->L->dev->interrupted, memory_order_relaxed) &&
	    c->linear_id < atomic_load_explicit(&c->L->dev->cancel_from, memory_order_relaxed))
		return true;
	return watchdog_check(c, w, budget, clock_turn);
}
/* CTAs the launch runs (the grid, or its part). */
static inline uint64_t launch_ctas(const launch *lc)
{
	return lc->nctas - lc->first;
}
/* Warps of a CTA of shape block. */
static inline unsigned engine_warps(we_dim3 block)
{
	return (block.x * block.y * block.z + WE_WARP_SIZE - 1) / WE_WARP_SIZE;
}
/* Monotonic seconds. */
double engine_now(void);
/* The compiled tier (tier.c): choose it for the launch (L.jit and
 * lc->jit_note, from cfg->jit and cfg->jit_cache); under --jit auto,
 * from the interpreter's predicted remaining time, load or compile the
 * launch's kernel and publish L.jit */
void launch_jit_choose(launch *lc, const we_launch_config *cfg);
void launch_jit_decide(launch *lc, double predicted);

/* Add a slot's statistics to the launch's (call after joining). */
void slot_stats(launch *lc, const cta_slot *s);

/* What L's kernel's CTAs may leave in their warps besides what every CTA
 * start clears (slot.c, KERNEL_*; cta_slot.leaves): 0 for a kernel whose
 * only branch or barrier unit instruction is EXIT and that has no
 * uniform one. */
uint8_t kernel_leaves(const we_launch_ctx *L);
/* n slots sharing one warp array and one register file, in the block
 * that the launch's host thread k keeps from launch to launch (device.h
 * dev_keep_take); false when out of memory (batch_free then frees what
 * there is, and gives the block back). */
bool batch_alloc(cta_batch *b, uint32_t n, const launch *lc, unsigned k);
/* Batch b laid out again for n slots (n <= b->n) in its block, as
 * batch_alloc lays out n: between two batches, none of its slots
 * running.  Its rows then stride over n CTAs' warps; the counts of the
 * CTAs its slots ran (slot_stats) are the first slot's. */
bool batch_narrow(cta_batch *b, uint32_t n, const launch *lc);
void batch_free(cta_batch *b, const launch *lc);
/* Start CTA id in slot s (sync: its synchronisation, NULL when one host
 * thread runs it): its registers of the kernel's zero_rows zeroed unless
 * `regs_clear` (the batch zeroed the rows of all its slots at once). */
void cta_start(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync, bool regs_clear);
/* cta_start for n CTAs from id in batch b's slots (its registers zeroed
 * at once, cta_zero_rows). */
void batch_start(cta_batch *b, const launch *lc, uint64_t id, uint32_t n);
/* The next n CTAs from id in batch b's slots [0, n), which hold a CTA
 * start's state (b->fresh) but for what a straight kernel's steps change
 * (exec.h, exec_straight): its ids, zeroed registers of the kernel's
 * zero_rows, shared and local memory, what `resets` names
 * (xstraight.resets, XS_RESET_*: predicates P0-P6, barrier units, B
 * registers), and the warps that ran on after a tail's EXIT (b->ran:
 * started as cta_start starts a warp, their CTA's barrier units reset). */
void batch_restart(cta_batch *b, const launch *lc, uint64_t id, uint32_t n, unsigned resets);
/* The end of the n CTAs of batch b that exec_straight ran, with the
 * counts c: those, the counters of the warps that ran on after a tail's
 * EXIT (c->ran) and the CTAs into the first slot's (slot_stats sums the
 * slots; the warps' counters back to 0); their warps stay as they are,
 * for batch_restart. */
void batch_retire(cta_batch *b, uint32_t n, const xstraight_count *c);
/* Zero the registers of the kernel's zero_rows: `lanes` words from regs
 * in each row (rows rstride words apart). */
void cta_zero_rows(const we_launch_ctx *L, uint32_t *regs, size_t rstride, size_t lanes);
/* After a CTA ends: the check mode's end-of-CTA hazards, its statistics;
 * if it faulted its report (the lowest CTA id wins) and the launch stops.
 * Thread-safe. */
void cta_finish(cta_slot *s, launch *lc);
/* cta_finish for the first n CTAs of batch b. */
void batch_finish(cta_batch *b, launch *lc, uint32_t n);
/* Bind the calling host thread to the PU of thread k (no-op for none). */
void place_thread(launch *lc, unsigned k);

/* A host thread's share of the grid's CTAs, [id, end): taken from
 * lc->next a chunk at a time (guided, as OpenMP's schedule: an eighth of
 * what is left per taker, in whole units of `per` CTAs, from one unit up
 * to `most`).  One atomic add per CTA would be one on a line that every
 * thread writes, per CTA, and would put neighbouring CTAs (whose results
 * usually share cache lines: reduce's out[ctaid]) on different cores;
 * the shrinking chunks keep the threads finishing together at the grid's
 * end.  After the launch stopped, the rest of a chunk still runs up to
 * the lowest CTA with a report (cta_finish: every lower CTA runs, so the
 * report is the same whichever thread got which chunk). */
typedef struct cta_chunk {
	uint64_t id, end;
} cta_chunk;
/* The next CTAs of c for one of `takers` threads: *id and at most per of
 * them (*n), or false when none is left. */
bool chunk_take(launch *lc, cta_chunk *c, uint32_t per, uint32_t most, unsigned takers, uint64_t *id, uint32_t *n);

#endif
