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

#include "bar.h"
#include "exec.h"

/* A warp arrives at a barrier (BAR.SYNC/ARV/RED): applies the rules,
 * blocks the warp (x->stop, WE_STOP_BLOCKED) or wakes the waiters. */
void eng_barrier(xctx *x, const bar_arrival *a);
/* B2R.BAR / R2B.BAR */
uint32_t eng_bar_get(xctx *x, unsigned id);
void eng_bar_set(xctx *x, unsigned id, uint32_t word);

/* Run a launch.  On an exception or deadlock returns the status and a
 * malloc'd report in *report. */
we_status engine_launch(struct we_device *dev, const struct we_module *m,
			const we_kernel *k, const we_launch_config *cfg,
			const void *params, size_t params_size,
			we_launch_stats *stats, char **report);

#endif
