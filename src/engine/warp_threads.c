/* warp_threads.c — the warp-threads engine of the user's design: every warp
 * of a running CTA is driven by its own host thread.
 *
 * The launch has `nthreads` CTA slots running at once; each slot owns
 * warps_per_cta threads, created once per launch and reused CTA after CTA
 * (thread w of a slot always runs warp w).  Warp 0's thread leads: it takes
 * the next CTA of the slot's chunk of the grid (chunk_take), sets the slot
 * up and releases the others, then waits until every warp has finished
 * before the next CTA.
 *
 * Barriers: the warp's BAR instruction arrives through the CTA layer
 * (cta/sync.c), which applies the rules of units/bar.c under the CTA lock;
 * when the warp must wait the executor hands it back here (WE_STOP_BLOCKED)
 * and its thread spins briefly on the barrier's atomic phase counter, then
 * sleeps on the barrier's condition variable (wait_released); the
 * completing arrival (or an exit completing a cnt = 0 barrier) bumps the
 * phase with release order and broadcasts.  A fault or a deadlock aborts
 * the CTA: its blocked warps are woken and every warp thread stops; the
 * launch hands out no more CTAs.
 *
 * Jitter (we_launch_config.jitter, warpemu stress --jitter): the threads
 * run unserialised, one instruction at a time, and wait for short random
 * times drawn from the seed, more often before barrier and memory
 * instructions, so that stress sees real thread timing.
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/asm.h"
#include "units/bru.h"
#include "base/strbuf.h"
#include "engine/engine_int.h"
#include "asm/module.h"

#define WARP_STACK (512u * 1024u)

typedef struct wslot {
	launch *lc;
	unsigned index;
	unsigned nslots;            /* slots of the launch                 */
	unsigned spin;              /* polls of a barrier's phase before
				       sleeping (0: no other core could
				       release it meanwhile)              */
	cta_batch batch;            /* its one CTA's buffers (batch_alloc:
				       kept by the device between launches) */
	cta_slot *slot;             /* batch.slot                          */
	cta_sync sync;
	pthread_mutex_t m;          /* guards gen, finished, done          */
	pthread_cond_t start_cv;    /* leader -> warps: a CTA is ready     */
	pthread_cond_t done_cv;     /* warps -> leader: all warps finished */
	uint64_t gen;
	uint32_t finished;
	cta_chunk ck;               /* its CTAs (chunk_take), its warp 0's */
	bool done;
	bool inited;                /* m, cvs and sync initialised         */
} wslot;

typedef struct wthread {
	wslot *s;
	unsigned warp;
	pthread_t tid;
	bool started;
	uint32_t clock_turns;       /* its watchdog_ok calls                */
} wthread;

static void lock(pthread_mutex_t *m)
{
	if (pthread_mutex_lock(m))
		abort();
}

static void unlock(pthread_mutex_t *m)
{
	if (pthread_mutex_unlock(m))
		abort();
}

/* Jitter: a barrier, named-barrier or memory instruction at pc, where the
 * seeded schedule may preempt too (ISA_F_PREEMPT); false outside the
 * kernel's code. */
static bool jitter_point(const we_cta *c, uint64_t pc)
{
	const we_launch_ctx *L = c->L;
	if (pc < L->k->code_start || pc >= L->k->code_end || pc % WE_INST_SIZE)
		return false;
	return (isa_opcodes[L->mod->x[pc / WE_INST_SIZE].opcode].flags & ISA_F_PREEMPT) != 0;
}

/* Jitter before the warp's next instruction: with probability 1/2 before
 * a jitter point, 1/16 elsewhere, wait a random while: mostly a short
 * spin or a yield of the core, one time in 8 a sleep of 1..64 us. */
static void jitter(const we_cta *c, const we_warp *w, uint64_t *rng)
{
	uint64_t r = sched_rand(rng);
	if ((r & 15u) >= (jitter_point(c, w->active_pc) ? 8u : 1u))
		return;
	r >>= 4;
	switch (r & 7u) {
	case 0: {
		struct timespec ts = { 0, (long)(1000u + (r >> 3) % 63001u) };
		nanosleep(&ts, NULL); /* EINTR: a shorter wait will do */
		break;
	}
	case 1:
	case 2:
	case 3:
		sched_yield();
		break;
	default:
		for (volatile uint32_t k = (uint32_t)((r >> 3) % 2000u); k; k--)
			;
		break;
	}
}

#define SPIN_LIMIT 200

/* Warp w is blocked on a barrier (or a named barrier): wait until it is
 * released, polling the barrier's phase counter `spin` times before
 * sleeping on its condition variable.  false when the CTA aborted (a
 * fault or a deadlock: the warp stops). */
static bool wait_released(we_cta *c, we_warp *w, unsigned spin)
{
	cta_sync *s = c->sync;
	pthread_cond_t *cv = &s->nbar_cv;
	/* (bar_waited, not bar_id: the warp that releases this one clears
	 * bar_id under the lock) */
	if (w->bar_waited >= 0) {
		const unsigned id = (unsigned)w->bar_waited;
		cv = &s->cv[id];
		for (unsigned i = 0; i < spin; i++)
			if (atomic_load_explicit(&s->phase[id], memory_order_acquire) != w->bar_phase ||
			    atomic_load_explicit(&s->abort, memory_order_acquire))
				break;
	}
	lock(&s->lock);
	while (w->state == WE_WS_BLOCKED && !atomic_load_explicit(&s->abort, memory_order_relaxed))
		if (pthread_cond_wait(cv, &s->lock))
			abort();
	const bool released = w->state != WE_WS_BLOCKED;
	unlock(&s->lock);
	return released;
}

/* Drive warp wi of CTA c on this host thread until it exits, faults, or
 * the CTA aborts.  In serialised mode the warp runs only while it holds
 * the baton, and hands it on as the scheduler decides. */
static void run_warp(we_cta *c, uint32_t wi, unsigned spin, uint32_t *clock_turns)
{
	cta_sync *sy = c->sync;
	we_warp *w = &c->warps[wi];
	const bool jit = c->L->jitter && !sy->serial;
	uint64_t rng = c->L->seed ^ (c->linear_id * UINT64_C(0xd1b54a32d192ed03)) ^
		       ((uint64_t)(wi + 1) * UINT64_C(0x9e3779b97f4a7c15));
	double blocked_at = -1; /* --profile: when the warp blocked */
	for (;;) {
		uint64_t budget = QUANTUM;
		if (jit) {
			jitter(c, w, &rng);
			budget = 1;
		}
		if (sy->serial) {
			lock(&sy->lock);
			while (sy->baton != (int)wi && !atomic_load_explicit(&sy->abort, memory_order_relaxed))
				if (pthread_cond_wait(&sy->baton_cv, &sy->lock))
					abort();
			budget = sy->baton_budget;
			unlock(&sy->lock);
		}
		if (atomic_load_explicit(&sy->abort, memory_order_acquire))
			return;
		if (!watchdog_ok(c, w, &budget, clock_turns))
			return;
		if (blocked_at >= 0) {
			/* (the warp-threads engine's blocked time: wall clock) */
			prof_blocked(c->prof, wi, (uint64_t)((engine_now() - blocked_at) * 1e9));
			blocked_at = -1;
		}
		we_stop st = exec_run(c, w, budget);
		switch (st) {
		case WE_STOP_BUDGET:
		case WE_STOP_RELEASED: /* (scheduler engine only) */
			break;
		case WE_STOP_BLOCKED:
			if (c->prof)
				blocked_at = engine_now();
			/* serialised: wait for the baton again; else until the
			 * barrier releases the warp */
			if (!sy->serial && !wait_released(c, w, spin))
				return;
			break;
		case WE_STOP_YIELD:
			if (!sy->serial)
				sched_yield();
			break;
		case WE_STOP_SLEEP:
			/* emulated time (spec-reading decision 10): the clock jumps to the timer,
			 * and the host thread gives its core away */
			if (w->clock < w->wake_time)
				w->clock = w->wake_time;
			bru_timer_expired(w, w->clock);
			if (!sy->serial)
				sched_yield();
			break;
		case WE_STOP_EXITED:
			cta_warp_exited(c, wi);
			break;
		case WE_STOP_FAULT:
			break;
		}
		if (sy->serial) {
			lock(&sy->lock);
			if (!atomic_load_explicit(&sy->abort, memory_order_relaxed)) {
				uint64_t b = QUANTUM;
				sy->baton = sched_next(c, &b);
				sy->baton_budget = b;
			}
			if (pthread_cond_broadcast(&sy->baton_cv))
				abort();
			unlock(&sy->lock);
		}
		if (st == WE_STOP_EXITED || st == WE_STOP_FAULT)
			return;
	}
}

/* A slot's chunks of CTAs (chunk_take): up to this many */
#define WT_CHUNK_CTAS 64u

static void *wthread_main(void *arg)
{
	wthread *t = arg;
	wslot *s = t->s;
	launch *lc = s->lc;
	const uint32_t nwarps = lc->L.warps_per_cta;
	place_thread(lc, s->index + t->warp * s->nslots);
	uint64_t seen = 0;
	for (;;) {
		lock(&s->m);
		if (t->warp == 0) {
			uint64_t id;
			uint32_t one;
			if (!chunk_take(lc, &s->ck, 1, WT_CHUNK_CTAS, s->nslots, &id, &one)) {
				s->done = true;
				if (pthread_cond_broadcast(&s->start_cv))
					abort();
				unlock(&s->m);
				break;
			}
			cta_start(s->slot, lc, id, &s->sync, false);
			/* (the memory checks run unserialised, under the CTA lock) */
			s->sync.serial = lc->L.seeded || lc->L.trace;
			s->sync.baton = -1;
			if (s->sync.serial) {
				uint64_t b = QUANTUM;
				s->sync.baton = sched_next(&s->slot->cta, &b);
				s->sync.baton_budget = b;
			}
			s->finished = 0;
			s->gen++;
			if (pthread_cond_broadcast(&s->start_cv))
				abort();
		} else {
			while (s->gen == seen && !s->done)
				if (pthread_cond_wait(&s->start_cv, &s->m))
					abort();
			if (s->gen == seen) { /* done */
				unlock(&s->m);
				break;
			}
		}
		seen = s->gen;
		unlock(&s->m);

		run_warp(&s->slot->cta, t->warp, s->spin, &t->clock_turns);

		lock(&s->m);
		s->finished++;
		if (t->warp == 0) {
			while (s->finished < nwarps)
				if (pthread_cond_wait(&s->done_cv, &s->m))
					abort();
			cta_finish(s->slot, lc);
		} else if (s->finished == nwarps) {
			if (pthread_cond_signal(&s->done_cv))
				abort();
		}
		unlock(&s->m);
	}
	return NULL;
}

/* Warp w of CTA slot s is host thread s + w x slots (place_thread): with
 * as many slots as PUs or a multiple (the default: one per PU) the warps
 * of a CTA share one PU, whose run queue hands a barrier from warp to
 * warp without crossing cores, and the CTAs run side by side; with fewer
 * slots than PUs a CTA's warps spread over them.  Measured on 2 cores
 * (bench/README.md): a CTA's warps on one PU run the reduction 1.8x as
 * fast as the warps of each CTA alternating between the two PUs.  A warp
 * of a CTA on one PU need not poll its barrier before sleeping: no other
 * core can release it meanwhile. */
static bool cta_on_one_pu(const launch *lc, unsigned ns)
{
	const unsigned npus = lc->topo ? topo_npus(lc->topo) : 0;
	/* (one PU for the whole process: whatever the placement) */
	return npus == 1 || (lc->placement != WE_PLACE_NONE && npus && ns % npus == 0);
}

static bool slot_init(wslot *s)
{
	if (pthread_mutex_init(&s->m, NULL))
		return false;
	if (pthread_cond_init(&s->start_cv, NULL)) {
		pthread_mutex_destroy(&s->m);
		return false;
	}
	if (pthread_cond_init(&s->done_cv, NULL)) {
		pthread_cond_destroy(&s->start_cv);
		pthread_mutex_destroy(&s->m);
		return false;
	}
	if (pthread_mutex_init(&s->sync.lock, NULL))
		goto fail_lock;
	unsigned i;
	for (i = 0; i < WE_BAR_SLOTS; i++) {
		if (pthread_cond_init(&s->sync.cv[i], NULL))
			break;
		atomic_init(&s->sync.phase[i], 0);
	}
	if (i < WE_BAR_SLOTS) {
		while (i--)
			pthread_cond_destroy(&s->sync.cv[i]);
		pthread_mutex_destroy(&s->sync.lock);
		goto fail_lock;
	}
	atomic_init(&s->sync.abort, false);
	if (pthread_cond_init(&s->sync.baton_cv, NULL)) {
		for (i = 0; i < WE_BAR_SLOTS; i++)
			pthread_cond_destroy(&s->sync.cv[i]);
		pthread_mutex_destroy(&s->sync.lock);
		goto fail_lock;
	}
	if (pthread_cond_init(&s->sync.nbar_cv, NULL)) {
		pthread_cond_destroy(&s->sync.baton_cv);
		for (i = 0; i < WE_BAR_SLOTS; i++)
			pthread_cond_destroy(&s->sync.cv[i]);
		pthread_mutex_destroy(&s->sync.lock);
		goto fail_lock;
	}
	s->inited = true;
	return true;
fail_lock:
	pthread_cond_destroy(&s->done_cv);
	pthread_cond_destroy(&s->start_cv);
	pthread_mutex_destroy(&s->m);
	return false;
}

static bool slot_destroy(wslot *s)
{
	if (!s->inited)
		return true;
	bool ok = true;
	for (unsigned i = 0; i < WE_BAR_SLOTS; i++)
		ok &= pthread_cond_destroy(&s->sync.cv[i]) == 0;
	ok &= pthread_cond_destroy(&s->sync.baton_cv) == 0;
	ok &= pthread_cond_destroy(&s->sync.nbar_cv) == 0;
	ok &= pthread_mutex_destroy(&s->sync.lock) == 0;
	ok &= pthread_cond_destroy(&s->done_cv) == 0;
	ok &= pthread_cond_destroy(&s->start_cv) == 0;
	ok &= pthread_mutex_destroy(&s->m) == 0;
	return ok;
}

static we_status run_warp_threads(launch *lc)
{
	unsigned ns = lc->nthreads;
	if (ns > launch_ctas(lc))
		ns = (unsigned)launch_ctas(lc);
	const uint32_t nw = lc->L.warps_per_cta;
	wslot *slots = calloc(ns, sizeof *slots);
	wthread *ts = calloc((size_t)ns * nw, sizeof *ts);
	if (!slots || !ts) {
		free(slots);
		free(ts);
		return WE_ERR_NOMEM;
	}
	we_status st = WE_OK;
	for (unsigned i = 0; i < ns && st == WE_OK; i++) {
		slots[i].lc = lc;
		slots[i].index = i;
		slots[i].nslots = ns;
		slots[i].spin = cta_on_one_pu(lc, ns) ? 0 : SPIN_LIMIT;
		const bool got = batch_alloc(&slots[i].batch, 1, lc, i);
		slots[i].slot = slots[i].batch.slot;
		if (!got)
			st = WE_ERR_NOMEM;
		else if (!slot_init(&slots[i]))
			st = WE_ERR_INTERNAL;
	}
	pthread_attr_t attr;
	bool have_attr = st == WE_OK && pthread_attr_init(&attr) == 0;
	if (st == WE_OK && !have_attr)
		st = WE_ERR_INTERNAL;
	if (have_attr && pthread_attr_setstacksize(&attr, WARP_STACK))
		st = WE_ERR_INTERNAL;
	for (unsigned i = 0; i < ns && st == WE_OK; i++) {
		/* the leader (warp 0) last: a slot runs CTAs only when all its
		 * warp threads exist */
		for (uint32_t w = nw; w-- > 0;) {
			wthread *t = &ts[(size_t)i * nw + w];
			t->s = &slots[i];
			t->warp = w;
			if (pthread_create(&t->tid, &attr, wthread_main, t)) {
				st = WE_ERR_INTERNAL;
				break;
			}
			t->started = true;
		}
	}
	if (st != WE_OK) {
		/* let the threads already started finish: no more CTAs */
		atomic_store_explicit(&lc->stop, true, memory_order_release);
		for (unsigned i = 0; i < ns; i++) {
			if (!slots[i].inited)
				continue;
			/* a slot whose leader never started: release its warps */
			if (!ts[(size_t)i * nw].started) {
				lock(&slots[i].m);
				slots[i].done = true;
				if (pthread_cond_broadcast(&slots[i].start_cv))
					abort();
				unlock(&slots[i].m);
			}
		}
	}
	for (size_t k = 0; k < (size_t)ns * nw; k++)
		if (ts[k].started && pthread_join(ts[k].tid, NULL) && st == WE_OK)
			st = WE_ERR_INTERNAL;
	if (have_attr && pthread_attr_destroy(&attr) && st == WE_OK)
		st = WE_ERR_INTERNAL;
	for (unsigned i = 0; i < ns; i++) {
		if (slots[i].batch.slot)
			slot_stats(lc, &slots[i].batch.slot[0]);
		batch_free(&slots[i].batch, lc);
		if (!slot_destroy(&slots[i]) && st == WE_OK)
			st = WE_ERR_INTERNAL;
	}
	free(ts);
	free(slots);
	return st;
}

static unsigned host_threads(unsigned slots, we_dim3 block)
{
	return slots * engine_warps(block);
}

static char *describe(unsigned slots, we_dim3 block, unsigned npus, bool deflt)
{
	(void)npus;
	const unsigned warps = engine_warps(block), n = slots * warps;
	strbuf b = { 0 };
	sb_printf(&b, "engine warp-threads%s, block %u,%u,%u: %u warp%s per CTA x %u CTA slot%s = %u "
			   "host thread%s (warp w of slot s is thread s+%u*w)\n", deflt ? " (default)" : "",
			   block.x, block.y, block.z, warps, warps == 1 ? "" : "s", slots, slots == 1 ? "" : "s",
			   n, n == 1 ? "" : "s", slots);
	return sb_take(&b);
}

const engine_ops engine_warp_threads = {
	.id = WE_ENGINE_WARP_THREADS,
	.name = "warp-threads",
	.groups = false,
	.jitter = true,
	.host_threads = host_threads,
	.describe = describe,
	.run = run_warp_threads,
};
