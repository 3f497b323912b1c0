/* engine.h — drives the warps of a launch on host threads.
 *
 * The executor (exec.c) advances one warp; this module decides which warp
 * runs on which host thread, blocks and wakes warps at barriers, handles
 * exits and sleeps, detects deadlock, and collects statistics and the
 * fault report.  The barrier handlers reach the engine through the
 * eng_* functions below, so that the barrier rules (bar.c) stay the same
 * whichever engine runs them.
 */
#ifndef WE_ENGINE_H
#define WE_ENGINE_H

#include "units/bar.h"
#include "exec/exec.h"

/* A warp arrives at a barrier (BAR.SYNC/ARV/RED): applies the rules,
 * blocks the warp (x->stop, WE_STOP_BLOCKED) or wakes the waiters. */
void eng_barrier(xctx *x, const bar_arrival *a);
/* The n warps x->w[0..n-1] of a lockstep group arrive at a barrier with
 * the same arrival a: true when that completed the barrier in one step
 * (bar_arrive_all; the scheduler engine without --check), else false
 * and nothing changed. */
bool eng_barrier_group(xctx *x, const bar_arrival *a, uint32_t n);
/* Record a runtime exception of x's instruction and stop the warp (and,
 * in a multi-threaded CTA, its other warps).  exec.c's xfault calls it. */
void eng_record_fault(xctx *x, we_fault_kind kind, uint32_t lanes, uint64_t addr, const char *msg);
/* An intra-warp deadlock found at x's BSYNC/WARPSYNC (sem_bru.c): the
 * warp is blocked there for good; record the deadlock (lanes: those at
 * x->pc, groups: their description) and stop the CTA. */
void eng_sync_deadlock(xctx *x, uint32_t lanes, const char *groups);
/* --check: a barrier hazard of CTA c (kind, warp, PC, message). */
void eng_warn(we_cta *c, const char *kind, uint32_t warp, uint64_t pc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* NBARRIER.signal / NBARRIER.wait (nbar.c rules; wait may block). */
void eng_nbar_signal(xctx *x, uint32_t id, uint32_t type, uint32_t nprod, uint32_t ncons);
void eng_nbar_wait(xctx *x, uint32_t id);
/* B2R.BAR / R2B.BAR */
uint32_t eng_bar_get(xctx *x, unsigned id);
void eng_bar_set(xctx *x, unsigned id, uint32_t word);

/* What a launch leaves besides its status (malloc'd, NULL when none). */
typedef struct eng_output {
	char *report;       /* exception / deadlock / timeout report, text */
	char *report_json;  /* the same as JSON                            */
	char *warnings;     /* --check hazards, one per line               */
} eng_output;

/* The launch limits of warpemu.h and the options' consistency: WE_OK, or
 * the status with the message recorded on dev. */
we_status engine_check_launch(struct we_device *dev, const we_kernel *k, const we_launch_config *cfg,
			      size_t params_size);
/* A CTA shape within WE_BLOCK_*_MAX. */
bool engine_block_ok(we_dim3 b);

/* Run a launch (engine_check_launch first). */
we_status engine_launch(struct we_device *dev, const struct we_module *m,
			const we_kernel *k, const we_launch_config *cfg,
			const void *params, size_t params_size,
			we_launch_stats *stats, eng_output *out);

#endif
