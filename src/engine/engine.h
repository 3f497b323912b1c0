/* engine.h — runs a launch: host threads drive the warps of its CTAs.
 *
 * An engine is one way of driving warps (engine_ops): the scheduler
 * engine (sched.c: a worker per core runs many warps) and the warp-threads
 * engine (warp_threads.c: one host thread per warp).  Both run the same
 * executor (exec/) on the same CTA layer (cta/), so results, faults,
 * deadlock detection and reports are the same whichever runs them.
 * What they share — the launch, CTA buffers and start-up, scheduling
 * decisions, watchdogs — is in engine_int.h.  Adding an engine: a file
 * of its own defining its engine_ops, one line in registry.c, and its
 * name in we_engine (warpemu.h).
 */
#ifndef WE_ENGINE_H
#define WE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "asm/module.h"
#include "warpemu/warpemu.h"

struct launch;

typedef struct engine_ops {
	we_engine id;
	const char *name;          /* as --engine spells it                    */
	/* runs lockstep groups and CTA batches (we_launch_config.lockstep,
	 * batch); without, every warp runs alone */
	bool groups;
	/* honours we_launch_config.jitter */
	bool jitter;
	/* the host threads a launch with `slots` (we_launch_config.threads)
	 * and CTAs of shape `block` starts, and a line saying so (malloc'd)
	 * for we_device_describe (deflt: it is the default engine) */
	unsigned (*host_threads)(unsigned slots, we_dim3 block);
	char *(*describe)(unsigned slots, we_dim3 block, unsigned npus, bool deflt);
	/* run every CTA of the launch; WE_OK, or the status of a failure to
	 * start (the CTAs' own faults are in the launch) */
	we_status (*run)(struct launch *lc);
} engine_ops;

/* The engine of e (WE_ENGINE_DEFAULT: the default one), or NULL. */
const engine_ops *engine_find(we_engine e);

/* What a launch leaves besides its status (malloc'd, NULL when none). */
typedef struct eng_output {
	char *report;       /* exception / deadlock / timeout report, text */
	char *report_json;  /* the same as JSON                            */
	char *warnings;     /* --check hazards, one per line               */
	char *profile;      /* --profile: text, and JSON                    */
	char *profile_json;
	uint64_t report_cta; /* the CTA of the report (linear id)           */
} eng_output;

/* Part of a grid (we_launch_part): CTAs [first, first + count) by linear
 * id, their ids unchanged; NULL runs the whole grid. */
typedef struct eng_part {
	uint64_t first, count;
	bool track_atomics;
} eng_part;

/* The launch limits of warpemu.h and the options' consistency: WE_OK, or
 * the status with the message recorded on dev. */
we_status engine_check_launch(struct we_device *dev, const we_kernel *k, const we_launch_config *cfg,
			      size_t params_size);
/* A CTA shape within WE_BLOCK_*_MAX. */
bool engine_block_ok(we_dim3 b);
/* The smallest allocation that compiled code's stores of whole lines
 * stream into (we_launch_config.stream_min; jit.h) under a launch's
 * cfg_min (its stream_min, 0: the default): the host's largest cache as
 * dev's topology shows it (*largest true), else WE_STREAM_MIN_DEFAULT. */
uint64_t engine_stream_min(struct we_device *dev, uint64_t cfg_min, bool *largest);

/* Run a launch (engine_check_launch first), or the part of its grid
 * `part` names (NULL: all of it). */
we_status engine_launch(struct we_device *dev, const struct we_module *m, const we_kernel *k,
			const we_launch_config *cfg, const void *params, size_t params_size,
			const eng_part *part, we_launch_stats *stats, eng_output *out);

#endif
