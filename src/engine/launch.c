/* launch.c — a launch from start to end: its checks, its context, the
 * engine that runs it, and what it leaves (status, report, hazards,
 * statistics). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"
#include "exec/jit.h"
#include "report/report.h"

uint64_t engine_stream_min(struct we_device *dev, uint64_t cfg_min, bool *largest)
{
	/* (streaming stores: past the largest cache, where lines would not
	 * stay) */
	const uint64_t cache = cfg_min ? 0 : topo_cache_max(dev_topology(dev));
	if (largest)
		*largest = !cfg_min && cache;
	return cfg_min ? cfg_min : cache ? cache : WE_STREAM_MIN_DEFAULT;
}

bool engine_block_ok(we_dim3 b)
{
	return b.x && b.y && b.z && b.x <= WE_BLOCK_XY_MAX && b.y <= WE_BLOCK_XY_MAX &&
	       b.z <= WE_BLOCK_Z_MAX && (uint64_t)b.x * b.y * b.z <= WE_BLOCK_THREADS_MAX;
}

/* The options of cfg other than the shape: engine, placement, groups. */
static we_status check_options(struct we_device *dev, const we_launch_config *cfg)
{
	const engine_ops *eng = engine_find(cfg->engine);
	if (!eng || cfg->placement > WE_PLACE_SCATTER) {
		dev_error(dev, "unknown engine %d or placement %d", (int)cfg->engine, (int)cfg->placement);
		return WE_ERR_INVALID;
	}
	if (cfg->batch > WE_BATCH_MAX) {
		dev_error(dev, "batches of %u CTAs: at most %u", cfg->batch, WE_BATCH_MAX);
		return WE_ERR_INVALID;
	}
	if (cfg->lockstep > WE_LOCKSTEP_MAX) {
		dev_error(dev, "lockstep groups of %u warps: at most %u (a CTA's warps)", cfg->lockstep,
			  WE_LOCKSTEP_MAX);
		return WE_ERR_INVALID;
	}
	if (cfg->jit > WE_JIT_OFF || (cfg->jit == WE_JIT_ON && !we_jit_available())) {
		dev_error(dev, cfg->jit == WE_JIT_ON ? "jit on: this build has no compiled tier (configure "
						       "found no LLVM: install llvm-14-dev and rebuild)"
						     : "unknown jit mode %d", (int)cfg->jit);
		return WE_ERR_INVALID;
	}
	if (cfg->jitter && (!eng->jitter || cfg->schedule_seeded || cfg->trace)) {
		dev_error(dev, "jitter needs the warp-threads engine, without a seeded schedule or trace "
			  "(which run one warp at a time)");
		return WE_ERR_INVALID;
	}
	return WE_OK;
}

we_status engine_check_launch(struct we_device *dev, const we_kernel *k, const we_launch_config *cfg,
			      size_t params_size)
{
	const we_dim3 g = cfg->grid, b = cfg->block;
	if (!g.x || !g.y || !g.z || g.x > WE_GRID_X_MAX || g.y > WE_GRID_YZ_MAX || g.z > WE_GRID_YZ_MAX) {
		dev_error(dev, "grid (%u,%u,%u) is outside the limits 1..%u x 1..%u x 1..%u", g.x, g.y, g.z,
			  WE_GRID_X_MAX, WE_GRID_YZ_MAX, WE_GRID_YZ_MAX);
		return WE_ERR_LIMIT;
	}
	if (!engine_block_ok(b)) {
		dev_error(dev, "block (%u,%u,%u) is outside the limits (x,y <= %u, z <= %u, x*y*z <= %u)",
			  b.x, b.y, b.z, WE_BLOCK_XY_MAX, WE_BLOCK_Z_MAX, WE_BLOCK_THREADS_MAX);
		return WE_ERR_LIMIT;
	}
	if (params_size != k->info.param_bytes) {
		dev_error(dev, "kernel %s takes %u bytes of parameters, %zu given", k->name,
			  k->info.param_bytes, params_size);
		return WE_ERR_INVALID;
	}
	uint64_t shared = (uint64_t)k->shared_bytes + cfg->dynamic_shared;
	if (shared > WE_SHARED_MAX) {
		dev_error(dev, "kernel %s needs %llu bytes of shared memory; the limit is %u",
			  k->name, (unsigned long long)shared, WE_SHARED_MAX);
		return WE_ERR_LIMIT;
	}
	if (k->local_bytes > WE_LOCAL_MAX) {
		dev_error(dev, "kernel %s needs %u bytes of local memory per thread; the limit is %u",
			  k->name, k->local_bytes, WE_LOCAL_MAX);
		return WE_ERR_LIMIT;
	}
	return check_options(dev, cfg);
}

/* The launch context of cfg (read-only once the engine runs). */
static void launch_ctx(launch *lc, struct we_device *dev, const struct we_module *m, const we_kernel *k,
		       const we_launch_config *cfg, const void *params, size_t params_size)
{
	we_launch_ctx *L = &lc->L;
	L->dev = dev;
	L->mod = m;
	L->k = k;
	L->grid = cfg->grid;
	L->block = cfg->block;
	L->threads_per_cta = cfg->block.x * cfg->block.y * cfg->block.z;
	L->warps_per_cta = (L->threads_per_cta + WE_WARP_SIZE - 1) / WE_WARP_SIZE;
	L->shared_bytes = k->shared_bytes + cfg->dynamic_shared;
	L->local_bytes = k->local_bytes;
	L->nrows = k->nregs + ZERO_ROWS + SINK_ROWS;
	if (params_size)
		memcpy(L->params, params, params_size);
	L->param_bytes = (uint32_t)params_size;
	L->max_instructions = cfg->max_instructions;
	L->seeded = cfg->schedule_seeded;
	L->seed = cfg->schedule_seed;
	L->check = cfg->check;
	L->checklog = &lc->checklog;
	L->jitter = cfg->jitter; /* its delays drawn from L->seed */
	L->trace = cfg->trace;
	L->trace_ctx = cfg->trace_ctx;
	L->memcheck = cfg->check_memory & (RACE_RACES | RACE_UNINIT);
	L->profile = cfg->profile;
	/* the memory checks and the profile observe every instruction in the
	 * hooked loop */
	L->hooked = L->seeded || L->trace || L->memcheck || L->profile;
	/* lockstep groups where the engine runs them, and not under a seeded
	 * schedule, a trace or the profile (one warp at a time); the memory
	 * checks observe their instructions in the group (exec_checked) */
	L->lockstep = !lc->engine->groups || L->seeded || L->trace || L->profile ? 1u
		      : cfg->lockstep                                  ? cfg->lockstep
								       : WE_LOCKSTEP_DEFAULT;
	L->batch = cfg->batch;
	L->stream_min = engine_stream_min(dev, cfg->stream_min, NULL);
}

/* Placement and host threads of the launch (notices on dev). */
static void launch_threads(launch *lc, struct we_device *dev, const we_launch_config *cfg)
{
	lc->placement = cfg->placement == WE_PLACE_DEFAULT ? WE_PLACE_COMPACT : cfg->placement;
	lc->topo = lc->placement == WE_PLACE_NONE ? NULL : dev_topology(dev);
	if (!lc->topo && lc->placement != WE_PLACE_NONE) {
		char note[400];
		snprintf(note, sizeof note, "host topology unavailable (%s): running unpinned",
			 dev->topo_err);
		dev_notice(dev, note);
	}
	lc->nthreads = cfg->threads ? cfg->threads : dev->threads;
	if (lc->nthreads < 1 || lc->L.trace || lc->L.seeded)
		lc->nthreads = 1; /* a trace is written one CTA at a time; a seeded
				     schedule replays exactly only when CTAs do not
				     race each other through global memory */
}

/* Refuse up front what would not fit (never leave it to the OOM killer):
 * the buffers of the CTAs in flight, one per host thread (a CTA slot). */
static we_status launch_fits(const launch *lc, struct we_device *dev)
{
	const we_launch_ctx *L = &lc->L;
	uint64_t slots = lc->nthreads < launch_ctas(lc) ? lc->nthreads : launch_ctas(lc);
	uint64_t per_slot = (uint64_t)L->nrows * WE_WARP_SIZE * 4u * L->warps_per_cta +
			    L->shared_bytes + (uint64_t)L->local_bytes * WE_WARP_SIZE * L->warps_per_cta;
	uint64_t need = slots * per_slot;
	if (need <= dev->max_memory - (dev->used < dev->max_memory ? dev->used : dev->max_memory))
		return WE_OK;
	dev_error(dev, "the launch needs %llu bytes for the registers, shared and local memory of "
		  "its %llu CTAs in flight; with %llu bytes of device memory in use the limit of %llu "
		  "bytes (--max-memory) leaves too little", (unsigned long long)need,
		  (unsigned long long)slots, (unsigned long long)dev->used,
		  (unsigned long long)dev->max_memory);
	return WE_ERR_NOMEM;
}

/* Run the engine; the launch's status, report and hazards into out. */
static we_status launch_run(launch *lc, struct we_device *dev, eng_output *out, double *seconds)
{
	double t0 = engine_now();
	lc->L.deadline = lc->timeout > 0 ? t0 + lc->timeout : 0;
	we_status st = lc->engine->run(lc);
	*seconds = engine_now() - t0;
	if (st == WE_ERR_NOMEM)
		dev_error(dev, "out of host memory for the launch's CTA buffers");
	else if (st != WE_OK)
		dev_error(dev, "%s engine: cannot start its host threads", lc->engine->name);
	if (st == WE_OK && lc->status != WE_OK) {
		st = lc->status;
		out->report = lc->report;
		out->report_json = lc->report_json;
		out->report_cta = lc->report_cta;
		lc->report = lc->report_json = NULL;
	}
	if (lc->notice)
		dev_notice(dev, lc->notice);
	return st;
}

we_status engine_launch(struct we_device *dev, const struct we_module *m, const we_kernel *k,
			const we_launch_config *cfg, const void *params, size_t params_size,
			const eng_part *part, we_launch_stats *stats, eng_output *out)
{
	memset(out, 0, sizeof *out);
	we_status st = engine_check_launch(dev, k, cfg, params_size);
	if (st != WE_OK)
		return st;
	/* (aligned: its counter of CTAs handed out has a line of its own) */
	_Static_assert(sizeof(launch) % _Alignof(launch) == 0, "aligned_alloc's size");
	launch *lc = aligned_alloc(_Alignof(launch), sizeof *lc);
	if (!lc) {
		dev_error(dev, "out of memory");
		return WE_ERR_NOMEM;
	}
	memset(lc, 0, sizeof *lc);
	lc->engine = engine_find(cfg->engine);
	launch_ctx(lc, dev, m, k, cfg, params, params_size);
	lc->timeout = cfg->timeout;
	lc->nctas = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
	if (part) {
		lc->first = part->first;
		lc->nctas = part->first + part->count;
		lc->L.track_atomics = part->track_atomics;
	}
	atomic_init(&lc->next, lc->first);
	atomic_init(&lc->stop, false);
	lc->status = WE_OK;
	dev_notice(dev, NULL);
	launch_threads(lc, dev, cfg);
	st = launch_fits(lc, dev);
	if (st != WE_OK) {
		free(lc);
		return st;
	}
	int e = pthread_mutex_init(&lc->lock, NULL);
	if (e || !check_log_init(&lc->checklog)) {
		if (!e)
			pthread_mutex_destroy(&lc->lock);
		free(lc);
		dev_error(dev, "pthread_mutex_init: %s", strerror(e ? e : EAGAIN));
		return WE_ERR_INTERNAL;
	}
	if ((lc->L.memcheck && !(lc->race = lc->L.race = race_launch_new(&lc->L))) ||
	    (lc->L.profile && !(lc->prof = prof_new(1, (k->code_end - k->code_start) / WE_INST_SIZE, k->code_start)))) {
		race_launch_finish(lc->race, &lc->checklog);
		free(check_log_finish(&lc->checklog));
		if (pthread_mutex_destroy(&lc->lock))
			abort();
		free(lc);
		dev_error(dev, "out of memory for the --check or --profile state");
		return WE_ERR_NOMEM;
	}
	double seconds = 0;
	launch_jit_choose(lc, cfg);
	/* (compiling or loading before the run is part of the launch's
	 * time; under auto it is inside the run) */
	const double jit_before = lc->jit_use.compile_seconds + lc->jit_use.load_seconds;
	st = launch_run(lc, dev, out, &seconds);
	if (lc->jit_use.failed) {
		char msg[320];
		snprintf(msg, sizeof msg, "the compiled tier failed, interpreting: %s", lc->jit_use.err);
		dev_notice(dev, msg);
	}
	const xjit *jit = atomic_load_explicit(&lc->L.jit, memory_order_relaxed);
	const uint32_t jit_blocks = jit ? jit->blocks : 0, jit_insns = jit ? jit->insns : 0,
		       jit_wentries = jit ? jit->wentries : 0;
	race_launch_finish(lc->race, &lc->checklog);
	if (lc->prof) {
		/* (the scheduler engine counts blocked time in scheduling
		 * rounds, the warp-threads engine in wall-clock nanoseconds) */
		const bool rounds = lc->engine->id == WE_ENGINE_SCHEDULER;
		out->profile = profile_text(&lc->L, lc->prof, lc->engine->name, rounds);
		out->profile_json = profile_json(&lc->L, lc->prof, lc->engine->name, rounds);
		prof_free(lc->prof);
	}
	out->warnings = check_log_finish(&lc->checklog);
	free(lc->notice);
	free(lc->report);
	free(lc->report_json);
	e = pthread_mutex_destroy(&lc->lock);
	if (e && st == WE_OK) {
		dev_error(dev, "pthread_mutex_destroy: %s", strerror(e));
		st = WE_ERR_INTERNAL;
	}
	if (stats) {
		stats->seconds = seconds + jit_before;
		stats->jit = lc->jit_note;
		stats->jit_blocks = jit_blocks;
		stats->jit_insns = jit_insns;
		stats->jit_warp_entries = jit_wentries;
		stats->jit_seconds = lc->jit_use.compile_seconds;
		stats->jit_load_seconds = lc->jit_use.load_seconds;
		stats->jit_cache = lc->jit_use.disk;
		snprintf(stats->jit_cache_key, sizeof stats->jit_cache_key, "%s", lc->jit_use.key);
		snprintf(stats->jit_cache_note, sizeof stats->jit_cache_note, "%s", lc->jit_use.note);
		stats->ctas = lc->stats.ctas;
		stats->warp_insns = lc->stats.warp_insns;
		stats->thread_insns = lc->stats.thread_insns;
		stats->barriers = lc->stats.barriers;
		stats->jit_straight_ctas = lc->stats.jit_straight_ctas;
		stats->warnings = lc->checklog.count;
	}
	free(lc);
	return st;
}
