/* engine_int.h — what the engines share: the launch, CTA slots (the
 * buffers one running CTA needs), CTA set-up, fault reports and the
 * statistics. */
#ifndef WE_ENGINE_INT_H
#define WE_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"
#include "engine/engine.h"
#include "device/topo.h"

/* Synchronisation of a CTA whose warps run on several host threads
 * (the warp-threads engine); NULL in the scheduler engine, where one
 * host thread runs all warps of a CTA. */
typedef struct cta_sync {
	pthread_mutex_t lock;          /* guards the barrier unit, warp states,
					  the fault record and the counters */
	pthread_cond_t cv[WE_BAR_SLOTS]; /* waiters of each barrier      */
	_Atomic uint32_t phase[WE_BAR_SLOTS]; /* completions, for the
					  bounded spin before sleeping      */
	pthread_cond_t nbar_cv;        /* waiters of named barriers         */
	_Atomic bool abort;            /* a warp faulted or deadlock: stop  */
	uint32_t live;                 /* warps not exited                  */
	uint32_t blocked;              /* warps blocked on a barrier        */
	/* Serialised mode (seeded schedule or trace): only the warp holding
	 * the baton runs, for the budget the scheduler gave it; the same
	 * decisions as the scheduler engine, so the run is reproducible. */
	bool serial;
	int baton;                     /* warp allowed to run, -1: none     */
	uint64_t baton_budget;
	pthread_cond_t baton_cv;
} cta_sync;

/* The buffers of one running CTA, reused for CTA after CTA: its own
 * (slot_alloc), or its part of a batch's (batch_alloc). */
typedef struct cta_slot {
	we_cta cta;
	we_warp *warps;
	uint32_t *regs;                /* R0 of warp 0; rows of rstride lanes */
	uint32_t rstride;
	uint8_t *shared;
	uint8_t *local;
	bool batched;                  /* the buffers are a batch's          */
	uint64_t ctas, warp_insns, thread_insns, barriers;
} cta_slot;

/* The CTAs one scheduler worker runs side by side (engine_sched.c): their
 * warps are one array and their register rows interleave (a row holds
 * warp 0..n-1 of CTA 0, then of CTA 1, ...), so the warps of CTAs that
 * are at one PC form one lockstep group (exec_group). */
typedef struct cta_batch {
	uint32_t n;                    /* CTA slots                         */
	cta_slot *slot;
	we_warp *warps;
	uint32_t *regs;
	uint8_t *shared, *local;
} cta_batch;

typedef struct launch {
	we_launch_ctx L;
	const we_topo *topo;           /* NULL: no placement                */
	we_placement placement;
	uint64_t nctas;
	_Atomic uint64_t next;         /* next CTA to hand out              */
	_Atomic bool stop;             /* an exception: hand out no more    */
	pthread_mutex_t lock;          /* guards status/report/notice       */
	we_status status;
	char *report;
	uint64_t report_cta;
	bool bind_notice;              /* the no-binding notice was printed */
	char *notice;                  /* that notice, for the caller       */
	unsigned nthreads;             /* host threads to use               */
	we_launch_stats stats;         /* summed by the runner after joining */
	double deadline;               /* monotonic seconds, 0 = no timeout */
	char *report_json;             /* the report's JSON form            */
	char *warnings;                /* --check hazards, one per line     */
	size_t warn_len, warn_cap;
	uint64_t nwarnings;
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
 * warp (a warp switch can come at every barrier: clock_gettime there
 * would cost more than the barrier); a turn is at most QUANTUM
 * instructions.  Inline for the usual turn with nothing to check. */
bool watchdog_check(we_cta *c, we_warp *w, uint64_t *budget, bool clock_turn);
static inline bool watchdog_ok(we_cta *c, we_warp *w, uint64_t *budget)
{
	const launch *lc = (const launch *)c->L;
	const bool clock_turn = lc->deadline > 0 && (w->clock_checks++ & 63u) == 0;
	if (!c->L->max_instructions && !clock_turn &&
	    !atomic_load_explicit(&c->L->dev->interrupted, memory_order_relaxed))
		return true;
	return watchdog_check(c, w, budget, clock_turn);
}
/* The seeded schedule and check mode at the end of a CTA. */
void cta_end_checks(we_cta *c);


/* Add a slot's statistics to the launch's (call after joining). */
void slot_stats(launch *lc, const cta_slot *s);

bool slot_alloc(cta_slot *s, const launch *lc);
void slot_free(cta_slot *s);
/* n slots sharing one warp array and one register file; false when out of
 * memory (batch_free then frees what there is). */
bool batch_alloc(cta_batch *b, uint32_t n, const launch *lc);
void batch_free(cta_batch *b);
/* Start CTA id in slot s: its registers of the kernel's zero_rows zeroed
 * unless `regs_clear` (the batch zeroed the rows of all its slots at
 * once). */
void cta_init(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync);
void cta_init_regs(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync, bool regs_clear);
/* Zero the registers of the kernel's zero_rows: `lanes` words from regs
 * in each row (rows rstride words apart). */
void cta_zero_rows(const we_launch_ctx *L, uint32_t *regs, size_t rstride, size_t lanes);
/* After a CTA ends: add its statistics; if it faulted record its report
 * (the lowest CTA id wins) and stop the launch.  Thread-safe. */
void cta_finish(cta_slot *s, launch *lc);
/* First fault of a CTA (later ones are dropped), for faults the engine
 * finds (deadlock, watchdog); exec faults go through xfault().  Takes the
 * CTA lock and stops the CTA's other warps when it has several threads. */
void set_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg);
/* The CTA is deadlocked (nothing ready and nothing running can change
 * that): a DEADLOCK fault at its first blocked warp. */
void set_deadlock(we_cta *c);
/* Make the blocked warps of `wake` runnable. */
void wake_warps(we_cta *c, uint32_t wake);
/* A warp exited completely: cnt = 0 barriers may complete. */
void warp_exited(we_cta *c, uint32_t wi);
/* Bind the calling host thread to the PU of thread k (no-op for none). */
void place_thread(launch *lc, unsigned k);

we_status run_scheduler(launch *lc);
we_status run_warp_threads(launch *lc);

#endif
