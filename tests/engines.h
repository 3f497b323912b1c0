/* engines.h — the one list of engines every test program runs, and the
 * launch configurations built from it.
 *
 * Adding an engine to the tests is one line of th_engines[]: its id, what
 * it does that tests must know (the flags below) and the words
 * we_device_describe() writes before the number of host threads a launch
 * of it starts.  The configurations (th_configs) follow from that list:
 * every engine with its defaults, and for an engine that forms lockstep
 * groups, lockstep 1 and the group settings of th_groups[].
 *
 * Header only, without libcheck, so that the libFuzzer harnesses of
 * tests/fuzz use the same list. */
#ifndef WE_TESTS_ENGINES_H
#define WE_TESTS_ENGINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "warpemu/warpemu.h"

/* Runs consecutive warps at one PC as lockstep groups and CTAs in
 * batches (we_launch_config.lockstep and .batch apply). */
#define TH_GROUPS 1u
/* One host thread per warp: tests size their blocks and grids down. */
#define TH_THREAD_PER_WARP 2u
/* Runs the jitter schedule (we_launch_config.jitter). */
#define TH_JITTER 4u

typedef struct th_engine {
	we_engine id;
	unsigned flags;
	/* what we_device_describe() writes right before the number of host
	 * threads a launch starts (scheduler workers, or CTA slots of
	 * one-warp CTAs) */
	const char *describe_threads;
} th_engine;

static const th_engine th_engines[] = {
	{ WE_ENGINE_SCHEDULER, TH_GROUPS, "engine scheduler: " },
	{ WE_ENGINE_WARP_THREADS, TH_THREAD_PER_WARP | TH_JITTER, "1 warp per CTA x " },
};
#define TH_NENGINES (sizeof th_engines / sizeof th_engines[0])

/* The id and the name of th_engines[e]. */
static inline we_engine th_id(size_t e)
{
	return th_engines[e].id;
}

static inline const char *th_name(size_t e)
{
	return we_engine_name(th_engines[e].id);
}

/* The group settings compared with lockstep 1 on an engine that forms
 * groups: groups of two (the smallest), 8 and 32 (a whole 1024-thread
 * CTA), and CTA batches (1: groups within one CTA only) on all cores or
 * on one worker (a batch holds at most a worker's share of the grid: on
 * one worker the tests' few CTAs are batched).  The default (lockstep 0,
 * i.e. 8) is the engine's TH_DEFAULTS configuration, and the last entry
 * on one worker: the engine's own batch sizes (sched.c batch_size; a
 * straight kernel's narrowed to a group's warps, batch_fit). */
static const struct th_group {
	unsigned lockstep, batch, threads;
	const char *name;
} th_groups[] = {
	{ 2, 0, 0, "lockstep 2" },
	{ 8, 1, 0, "lockstep 8, batch 1" },
	{ 8, 2, 1, "lockstep 8, batch 2, 1 thread" },
	{ 32, 0, 1, "lockstep 32, 1 thread" },
	{ 0, 0, 1, "lockstep 8, 1 thread" },
};
#define TH_NGROUPS (sizeof th_groups / sizeof th_groups[0])

/* The group settings run again with the compiled tier on (jit on:
 * src/exec/jit.h), where the library has it (we_jit_available()): a
 * group of two, one CTA at a time (a CTA of one warp runs the compiled
 * warp function from its start), CTA batches (groups across CTAs), whole
 * 32-warp groups and the engine's own batches on one worker; the second
 * and third with every store that can stream past the host's caches
 * streaming (we_launch_config.stream_min 1: "streaming"), the others
 * with none. */
static const struct th_jit {
	size_t group; /* in th_groups[] */
	bool streaming;
} th_compiled[] = { { 0, false }, { 1, true }, { 2, true }, { 3, false }, { 4, false } };
#define TH_NCOMPILED (sizeof th_compiled / sizeof th_compiled[0])

/* Sets of configurations, for th_configs(). */
#define TH_DEFAULTS 1u  /* every engine with its defaults ("lockstep 0") */
#define TH_UNGROUPED 2u /* lockstep 1 on an engine with TH_GROUPS */
#define TH_GROUPED 4u   /* th_groups[] on an engine with TH_GROUPS */
#define TH_COMPILED 8u  /* th_compiled[] with jit on, on an engine with
			   TH_GROUPS, when the library has the tier */

/* One launch configuration: what th_config_apply() sets. */
typedef struct th_config {
	const th_engine *eng;
	unsigned lockstep, batch, threads;
	we_jit jit;
	uint64_t stream_min;
	char name[80]; /* "scheduler, lockstep 8, batch 1" */
} th_config;

#define TH_MAXCONFIGS (TH_NENGINES * (2 + TH_NGROUPS + TH_NCOMPILED))

/* The configurations of `sets` on the engines that have every flag of
 * `need`, engine by engine (defaults, ungrouped, grouped), into out[]
 * (TH_MAXCONFIGS of room); returns how many. */
static inline size_t th_configs(unsigned sets, unsigned need, th_config out[TH_MAXCONFIGS])
{
	size_t n = 0;
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const th_engine *eng = &th_engines[e];
		const char *en = we_engine_name(eng->id);
		if ((eng->flags & need) != need)
			continue;
		if (sets & TH_DEFAULTS) {
			out[n] = (th_config){ .eng = eng };
			snprintf(out[n++].name, sizeof out->name, "%s", en);
		}
		if (!(eng->flags & TH_GROUPS))
			continue;
		if (sets & TH_UNGROUPED) {
			out[n] = (th_config){ .eng = eng, .lockstep = 1 };
			snprintf(out[n++].name, sizeof out->name, "%s, lockstep 1", en);
		}
		for (size_t g = 0; (sets & TH_GROUPED) && g < TH_NGROUPS; g++) {
			out[n] = (th_config){ .eng = eng, .lockstep = th_groups[g].lockstep,
					      .batch = th_groups[g].batch, .threads = th_groups[g].threads };
			snprintf(out[n++].name, sizeof out->name, "%s, %s", en, th_groups[g].name);
		}
		for (size_t k = 0; (sets & TH_COMPILED) && we_jit_available() && k < TH_NCOMPILED; k++) {
			const struct th_group *g = &th_groups[th_compiled[k].group];
			const bool st = th_compiled[k].streaming;
			out[n] = (th_config){ .eng = eng, .lockstep = g->lockstep, .batch = g->batch,
					      .threads = g->threads, .jit = WE_JIT_ON, .stream_min = st ? 1 : UINT64_MAX };
			snprintf(out[n++].name, sizeof out->name, "%s, %s, jit on%s", en, g->name, st ? ", streaming" : "");
		}
	}
	return n;
}

/* Set the engine, lockstep, batch, thread count and jit mode of cfg to
 * c's. */
static inline void th_config_apply(we_launch_config *cfg, const th_config *c)
{
	cfg->engine = c->eng->id;
	cfg->jit = c->jit;
	cfg->lockstep = c->lockstep;
	cfg->batch = c->batch;
	cfg->threads = c->threads;
	cfg->stream_min = c->stream_min;
}

/* The entry of engine id (NULL: not in the list). */
static inline const th_engine *th_engine_of(we_engine id)
{
	for (size_t e = 0; e < TH_NENGINES; e++)
		if (th_engines[e].id == id)
			return &th_engines[e];
	return NULL;
}

/* Whether engine id has every flag of `flags`. */
static inline bool th_engine_has(we_engine id, unsigned flags)
{
	const th_engine *e = th_engine_of(id);
	return e && (e->flags & flags) == flags;
}

#endif
