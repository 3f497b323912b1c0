/* sched.c — the scheduler engine: one worker thread per core
 * (pinned by the placement policy), each taking CTAs from the launch's
 * counter and running all warps of its CTA itself, round-robin.  A warp
 * that blocks on a barrier is parked in the barrier unit's state and the
 * worker goes on with the next ready warp; the completing arrival makes
 * the waiters ready again.  No lock or atomic on the per-instruction path.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "engine/engine_int.h"
#include "exec/jit.h"
#include "units/bru.h"


typedef struct sworker {
	launch *lc;
	unsigned index;
	uint32_t per;               /* CTAs per batch (batch_size)        */
	uint32_t per_straight;      /* of those, per straight batch
				       (batch_size)                       */
	bool nomem;                 /* its batch could not be allocated   */
	cta_batch batch;            /* allocated by the worker itself     */
	pthread_t tid;
	bool started;
	bool straight;              /* the launch may run batches straight
				       (sched_straight_ok)                */
	const struct xjit *jit;     /* the compiled blocks `plan` is of   */
	xstraight plan;             /* exec_straight_plan of them         */
	bool narrow;                /* plan_narrow(&plan)                 */
} sworker;

/* Warp w can be part of a lockstep group: exec_group runs a group's
 * instructions in every lane of every warp (its guards ignore
 * ActiveMask) and runs no sleep timer, so every lane must be active and
 * none asleep. */
static inline bool group_member(const we_warp *w)
{
	return w->active == 0xffffffffu && !w->sleep;
}

/* The lockstep group that warp wi starts: it and the ready warps after
 * it at its PC with every lane active, at most L->lockstep of them, each
 * with *budget instructions left under --max-instructions (else *budget
 * shrinks or the group ends before it).  1 both for a warp that starts
 * no group and for a group of one. */
static uint32_t group_of(const we_cta *c, uint32_t wi, uint64_t *budget)
{
	const we_warp *w = &c->warps[wi];
	const uint64_t max = c->L->max_instructions;
	if (c->L->lockstep < 2 || !group_member(w))
		return 1;
	uint32_t n = 1;
	while (n < c->L->lockstep && wi + n < c->nwarps) {
		const we_warp *v = &w[n];
		if (!((c->ready >> (wi + n)) & 1u) || v->active_pc != w->active_pc || !group_member(v))
			break;
		if (max) {
			if (v->insns >= max)
				break;
			if (max - v->insns < *budget)
				*budget = max - v->insns;
		}
		n++;
	}
	return n;
}

/* --profile: a scheduling round of the CTA for each of its warps blocked
 * at a barrier (the scheduler engine's blocked time). */
static void profile_round(we_cta *c)
{
	for (uint32_t wi = 0; wi < c->nwarps; wi++)
		if (c->warps[wi].state == WE_WS_BLOCKED)
			prof_blocked(c->prof, wi, 1);
}

/* One turn of a CTA: its next ready warp or lockstep group runs until it
 * stops.  false when the CTA has ended (every warp exited, or a fault:
 * also one a watchdog recorded while the CTA waited to join a group,
 * batch_joins). */
static bool cta_turn(we_cta *c, uint32_t *live, uint32_t *clock_turns)
{
	if (c->faulted)
		return false;
	if (c->prof)
		profile_round(c);
	uint64_t budget;
	int wi = sched_next(c, &budget);
	if (wi < 0) {
		/* nothing ready and nothing running can change that */
		cta_set_deadlock(c);
		return false;
	}
	we_warp *w = &c->warps[wi];
	if (!watchdog_ok(c, w, &budget, clock_turns))
		return false;
	uint32_t n = group_of(c, (uint32_t)wi, &budget);
	uint32_t exited = 1u << wi;
	we_stop st;
	if (n > 1) {
		uint32_t who;
		st = exec_group(c, (uint32_t)wi, n, n, budget, &who, &exited);
		c->rr_next = (uint32_t)wi + n;
		wi = (int)who;
		w = &c->warps[wi];
	} else {
		st = exec_run(c, w, budget);
	}
	switch (st) {
	case WE_STOP_BUDGET:
	case WE_STOP_YIELD:
	case WE_STOP_RELEASED:
	case WE_STOP_BLOCKED:
		break;
	case WE_STOP_SLEEP:
		/* emulated time (spec-reading decision 10): the warp gives its turn away
		 * and its clock jumps to the timer, which clears SleepMask */
		if (w->clock < w->wake_time)
			w->clock = w->wake_time;
		bru_timer_expired(w, w->clock);
		break;
	case WE_STOP_EXITED:
		/* (several warps of a group may have run one EXIT) */
		for (uint32_t m = exited; m; m &= m - 1) {
			*live -= 1;
			cta_warp_exited(c, (uint32_t)__builtin_ctz(m));
		}
		break;
	case WE_STOP_FAULT:
		return false;
	}
	return *live != 0;
}

/* No interrupt of the launch, and no cancellation of a CTA below `end`
 * (we_device_cancel_from), for now. */
static bool uninterrupted(const we_launch_ctx *L, uint64_t end)
{
	return !atomic_load_explicit(&L->dev->interrupted, memory_order_relaxed) &&
	       end <= atomic_load_explicit(&L->dev->cancel_from, memory_order_relaxed);
}

/* No watchdog has anything to say about a CTA below `end` for now
 * (watchdog_ok's first case, for a run of CTAs at once: no instruction
 * limit or wall clock, no interrupt or cancellation of them). */
static bool watchdogs_quiet(const we_launch_ctx *L, uint64_t end)
{
	return !L->max_instructions && !(L->deadline > 0) && uninterrupted(L, end);
}

/* CTA c of a batch as the next part of a group spanning CTAs at pc: every
 * warp ready (all: the mask of its warps), at pc, with every lane active
 * and none asleep, and the watchdogs content, or `quiet`
 * (watchdogs_quiet) (*budget shrinks to its warps' --max-instructions).
 * Warp 0 is tested here: group_of's count cannot tell a one-warp CTA
 * whose warp starts no group (stopped mid-divergence by a YIELD, say)
 * from a group of one, and exec_group would run such a warp's inactive
 * lanes; for a one-warp CTA group_of adds nothing. */
static bool batch_joins(we_cta *c, uint64_t pc, uint32_t all, bool quiet, uint64_t *budget, uint32_t *clock_turns)
{
	if (c->ready != all || c->warps[0].active_pc != pc || !group_member(&c->warps[0]))
		return false;
	uint64_t b = *budget;
	if (!(quiet || watchdog_ok(c, &c->warps[0], &b, clock_turns)) || (c->nwarps > 1 && group_of(c, 0, &b) != c->nwarps))
		return false;
	*budget = b;
	return true;
}

/* The warps of a group spanning the batch's CTAs from c0 (nw warps
 * each) that exited (bit j: the group's warp j), retired as cta_turn
 * retires them; the CTAs they ended. */
static uint32_t batch_exited(cta_batch *b, uint32_t c0, uint32_t nw, uint32_t exited, uint32_t *live)
{
	uint32_t ended = 0;
	const uint32_t all = nw == 32 ? ~0u : (1u << nw) - 1u;
	for (uint32_t k = c0, j = 0; j < WE_WARP_SIZE && (exited >> j); k++, j += nw) {
		for (uint32_t m = (exited >> j) & all; m; m &= m - 1) {
			cta_warp_exited(&b->slot[k].cta, (uint32_t)__builtin_ctz(m));
			if (--live[k] == 0)
				ended |= 1u << k;
		}
	}
	return ended;
}

/* Run the CTAs of batch slots [0, n) to their ends.  While a run of them,
 * each with all its warps at one PC, can go as one lockstep group
 * (exec_group across CTAs) it does; otherwise each CTA takes a turn. */
static void batch_run(cta_batch *b, uint32_t n)
{
	uint32_t live[WE_WARP_SIZE], ended = 0;
	const uint32_t nw = b->slot[0].cta.nwarps, all = n == 32 ? ~0u : (1u << n) - 1u;
	const uint32_t warps = nw == 32 ? ~0u : (1u << nw) - 1u;
	/* (a straight kernel's tail may have left some warps exited,
	 * exec_straight) */
	for (uint32_t k = 0; k < n; k++) {
		live[k] = 0;
		for (uint32_t wi = 0; wi < nw; wi++)
			live[k] += b->slot[k].cta.warps[wi].state != WE_WS_EXITED;
		if (!live[k])
			ended |= 1u << k;
	}
	/* (the warps leave their start state: batch_straight restarts
	 * none of them) */
	b->fresh = 0;
	while (ended != all) {
		const uint32_t c0 = (uint32_t)__builtin_ctz(~ended);
		we_cta *c = &b->slot[c0].cta;
		uint32_t m = 0;
		uint64_t budget = QUANTUM;
		if (n > 1 && c->L->lockstep > 1) {
			const bool quiet = watchdogs_quiet(c->L, b->slot[n - 1].cta.linear_id + 1);
			while (c0 + m < n && !((ended >> (c0 + m)) & 1u)) {
				we_cta *cm = &b->slot[c0 + m].cta;
				if (!batch_joins(cm, c->warps[0].active_pc, warps, quiet, &budget, &b->clock_turns)) {
					/* (a watchdog's fault ends it: the CTAs before
					 * it may go on as a group without it) */
					if (cm->faulted)
						ended |= 1u << (c0 + m);
					break;
				}
				m++;
			}
		}
		if (m >= 2) {
			uint32_t who, exited = 0;
			const we_stop st = exec_group(c, 0, m * nw, nw, budget, &who, &exited);
			for (uint32_t k = c0; k < c0 + m; k++)
				b->slot[k].cta.rr_next = nw;
			if (st == WE_STOP_FAULT)
				ended |= 1u << (c0 + who / nw);
			if (st == WE_STOP_EXITED)
				ended |= batch_exited(b, c0, nw, exited, live);
			if (st != WE_STOP_YIELD && st != WE_STOP_EXITED)
				continue;
			/* (an instruction the CTAs run one by one; after an
			 * EXIT that ended the group's CTAs, the turns of the
			 * CTAs after them, as when each CTA ran it alone) */
		}
		for (uint32_t k = c0; k < n; k++)
			if (!((ended >> k) & 1u) && !cta_turn(&b->slot[k].cta, &live[k], &b->clock_turns))
				ended |= 1u << k;
	}
}

/* The scheduler's chunks of CTAs (chunk_take): up to this many batches
 * (16 took each worker to the shared counter every 512 one-warp CTAs of
 * tiny: 64 ran it 6% faster on two workers, bench/README.md) */
#define CHUNK_BATCHES 64u

/* --jit auto (tier.c, exec/jit.h): from the time worker 0 took for its
 * sample of batches, the interpreter's remaining time (the CTAs no
 * worker has taken, and own: the rest of worker 0's chunk) over the
 * workers; tier.c loads or compiles when that repays it.  The other
 * workers interpret meanwhile and switch to the compiled blocks at their
 * next group (exec_group loads L.jit).
 * The sample leaves out worker 0's first batch, which pays for cold
 * caches, first page touches and lazily bound symbols: on tiny.we
 * (20,000 one-warp CTAs, 4-6 ms interpreted) it predicted ten times the
 * time and compiled for 38 ms (bench/README.md, "A disk cache of
 * compiled kernels"); then batches until XJIT_SAMPLE_SECONDS or
 * XJIT_SAMPLE_BATCHES of them, so that one preempted batch of a few
 * microseconds does not decide alone. */
#define XJIT_SAMPLE_SECONDS 0.001
#define XJIT_SAMPLE_BATCHES 8u
typedef struct tier_sample {
	bool on;          /* worker 0 of an auto launch, not decided yet   */
	bool warm;        /* the first batch ran (not timed)               */
	unsigned batches; /* timed so far                                  */
	uint64_t ctas;
	double seconds;
} tier_sample;

/* Count a batch of n CTAs that took seconds into the sample; decide when
 * it is complete. */
static void sched_tier(launch *lc, tier_sample *ts, double seconds, uint32_t n, uint64_t own)
{
	if (!ts->warm) {
		ts->warm = true;
		return;
	}
	ts->seconds += seconds;
	ts->ctas += n;
	if (ts->seconds < XJIT_SAMPLE_SECONDS && ++ts->batches < XJIT_SAMPLE_BATCHES)
		return;
	ts->on = false;
	const uint64_t next = atomic_load_explicit(&lc->next, memory_order_relaxed);
	const uint64_t left = (next < lc->nctas ? lc->nctas - next : 0) + own;
	if (!atomic_load_explicit(&lc->stop, memory_order_acquire))
		launch_jit_decide(lc, xjit_auto_predict(ts->seconds, ts->ctas, left, lc->nthreads));
}

/* A launch whose batches may run as a straight kernel's (exec.h,
 * exec_straight) once its blocks are compiled: nothing observes the
 * warps one by one (no hooks, --check, memory checks, seeded schedule or
 * instruction limit), lockstep groups allowed, and every lane of every
 * warp valid.  (What a straight kernel's CTAs leave in their warps,
 * batch_restart resets: its plan has only blocks and the branch and
 * barrier unit instructions that a group runs as one, xstraight.resets.) */
static bool sched_straight_ok(const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	return !L->hooked && !L->check && !L->memcheck && !L->seeded && !L->max_instructions && L->lockstep > 1 &&
	       L->threads_per_cta % WE_WARP_SIZE == 0;
}

/* A straight kernel's plan runs in batches of per_straight CTAs
 * (batch_size) when it has a barrier or no branch: the phases between
 * its barriers, each over all of a batch's CTAs, then keep their
 * registers and shared memory in the first-level cache.  A loop without
 * barriers keeps the full batch: each of its trips costs a step of
 * exec_straight for the whole batch (alu ran 10-12% slower with 8 warps
 * than with 32; bench/README.md). */
static bool plan_narrow(const xstraight *p)
{
	bool bra = false;
	for (uint32_t i = 0; i < p->n; i++) {
		if (p->step[i].kind == XS_BAR)
			return true;
		bra |= p->step[i].kind == XS_BRA;
	}
	return !bra;
}

/* The worker's plan is a straight kernel's (exec_straight_plan), made
 * again whenever the compiled tier has published more blocks. */
static bool straight_plan(sworker *wk)
{
	const struct xjit *jit = atomic_load_explicit(&wk->lc->L.jit, memory_order_acquire);
	if (!wk->straight || !jit)
		return false;
	if (jit != wk->jit) {
		wk->jit = jit;
		(void)exec_straight_plan(&wk->lc->L, jit, &wk->plan);
		wk->narrow = plan_narrow(&wk->plan);
	}
	return wk->plan.n != 0;
}

/* Batch b's next n CTAs from id, run straight when they can be: the
 * kernel is straight with the blocks compiled so far, no watchdog has
 * anything to say (the wall clock read on 1 batch in 64, as watchdog_ok
 * reads it on 1 turn in 64), and the slots start from a CTA start's
 * state (b->fresh).  false: nothing done.  A side exit leaves the batch
 * to batch_run. */
static bool batch_straight(sworker *wk, uint64_t id, uint32_t n)
{
	launch *lc = wk->lc;
	const we_launch_ctx *L = &lc->L;
	cta_batch *b = &wk->batch;
	if (!straight_plan(wk) || !uninterrupted(L, id + n))
		return false;
	if (L->deadline > 0 && (b->clock_turns++ & 63u) == 0 && engine_now() > L->deadline) {
		/* batch_run's watchdogs report it (within 64 turns) */
		wk->straight = false;
		return false;
	}
	if (n <= b->fresh)
		batch_restart(b, lc, id, n, wk->plan.resets);
	else
		batch_start(b, lc, id, n);
	xstraight_count c;
	switch (exec_straight(L, &wk->plan, b->warps, n * L->warps_per_cta, &c)) {
	case XSTRAIGHT_DONE:
		batch_retire(b, n, &c);
		break;
	case XSTRAIGHT_LEFT:
		batch_run(b, n);
		batch_finish(b, lc, n);
		break;
	}
	return true;
}

/* Worker wk's batch, narrowed to per_straight CTAs once the kernel runs
 * straight (plan_narrow); false: out of memory, the launch stopped. */
static bool batch_fit(sworker *wk)
{
	if (wk->batch.n <= wk->per_straight || !straight_plan(wk) || !wk->narrow)
		return true;
	if (batch_narrow(&wk->batch, wk->per_straight, wk->lc))
		return true;
	wk->nomem = true;
	atomic_store_explicit(&wk->lc->stop, true, memory_order_release);
	return false;
}

static void *sworker_main(void *arg)
{
	sworker *wk = arg;
	launch *lc = wk->lc;
	cta_batch *b = &wk->batch;
	place_thread(lc, wk->index);
	/* (its slots in the block the device keeps for worker k, which the
	 * worker touched first, on its own core, in the device's first
	 * launch: none shares a line with another worker's) */
	if (!batch_alloc(b, wk->per, lc, wk->index)) {
		wk->nomem = true;
		atomic_store_explicit(&lc->stop, true, memory_order_release);
		return NULL;
	}
	cta_chunk ck = { 0, 0 };
	/* --jit auto: worker 0 decides after its sample of batches */
	tier_sample ts = { .on = lc->jit_auto && wk->index == 0 };
	wk->straight = sched_straight_ok(lc);
	uint64_t id;
	uint32_t n;
	/* the next b->n CTAs of the worker's chunk (fewer at its end) */
	while (batch_fit(wk) && chunk_take(lc, &ck, b->n, CHUNK_BATCHES, lc->nthreads, &id, &n)) {
		if (batch_straight(wk, id, n))
			continue;
		batch_start(b, lc, id, n);
		const double t0 = ts.on ? engine_now() : 0;
		batch_run(b, n);
		batch_finish(b, lc, n);
		if (ts.on)
			sched_tier(lc, &ts, engine_now() - t0, n, ck.end - ck.id);
	}
	/* (the compiled code's streaming stores, before the launch ends) */
	xjit_stream_fence();
	return NULL;
}

/* CTAs per batch: as many as fill a lockstep group of 32 warps (a
 * group's warp masks are 32 bits); one without lockstep groups, with a
 * seeded schedule, or when a CTA has more warps than a group within it
 * may (they never join, batch_joins); never more than a worker's share
 * of the grid or than --batch.  *straight: the CTAs of a batch that runs
 * straight where its plan asks for fewer (plan_narrow): as many as fill
 * a group of L->lockstep warps (a CTA at least), whose register rows stay
 * in the first-level cache between the steps of the plan.  On one core
 * with 8 warps instead of 32, tiny and triad ran 12% and 17% faster,
 * scan, transpose and the PTX reduce 19-22% (bench/README.md); the
 * interpreter ran transpose and reduce 48% and 25% slower.  A kernel
 * without branches or barriers (kernel_leaves) has the smaller batch also
 * when interpreted (as it had before it could run straight). */
static uint32_t batch_size(const launch *lc, unsigned nw, uint32_t *straight)
{
	const we_launch_ctx *L = &lc->L;
	uint64_t n = L->lockstep > 1 && !L->seeded && L->warps_per_cta <= L->lockstep
			     ? WE_WARP_SIZE / L->warps_per_cta : 1;
	uint64_t s = n > 1 ? L->lockstep / L->warps_per_cta : n;
	if (kernel_leaves(L) == 0)
		n = s;
	if (L->batch && L->batch < n)
		n = L->batch;
	const uint64_t share = (launch_ctas(lc) + nw - 1) / nw;
	if (n > share)
		n = share;
	if (L->batch || s > n)
		s = n;
	*straight = s ? (uint32_t)s : 1u;
	return n ? (uint32_t)n : 1u;
}

static we_status run_scheduler(launch *lc)
{
	unsigned nw = lc->nthreads;
	if (nw > launch_ctas(lc))
		nw = (unsigned)launch_ctas(lc);
	sworker *ws = calloc(nw, sizeof *ws);
	if (!ws)
		return WE_ERR_NOMEM;
	we_status st = WE_OK;
	uint32_t per_straight;
	const uint32_t per = batch_size(lc, nw, &per_straight);
	for (unsigned i = 0; i < nw; i++) {
		ws[i].lc = lc;
		ws[i].index = i;
		ws[i].per = per;
		ws[i].per_straight = per_straight;
	}
	for (unsigned i = 0; i < nw && st == WE_OK; i++) {
		if (pthread_create(&ws[i].tid, NULL, sworker_main, &ws[i])) {
			st = WE_ERR_INTERNAL;
			atomic_store_explicit(&lc->stop, true, memory_order_release);
			break;
		}
		ws[i].started = true;
	}
	for (unsigned i = 0; i < nw; i++) {
		if (ws[i].started && pthread_join(ws[i].tid, NULL) && st == WE_OK)
			st = WE_ERR_INTERNAL;
		if (ws[i].nomem && st == WE_OK)
			st = WE_ERR_NOMEM;
		for (uint32_t k = 0; k < ws[i].batch.n; k++)
			slot_stats(lc, &ws[i].batch.slot[k]);
		batch_free(&ws[i].batch, lc);
	}
	free(ws);
	return st;
}

static unsigned host_threads(unsigned slots, we_dim3 block)
{
	(void)block;
	return slots;
}

static char *describe(unsigned slots, we_dim3 block, unsigned npus, bool deflt)
{
	(void)block;
	strbuf b = { 0 };
	sb_printf(&b, "engine scheduler%s: %u worker thread%s%s (worker i is thread i)\n",
			   deflt ? " (default)" : "", slots, slots == 1 ? "" : "s",
			   slots == npus ? ", one per PU" : "");
	return sb_take(&b);
}

const engine_ops engine_scheduler = {
	.id = WE_ENGINE_SCHEDULER,
	.name = "scheduler",
	.groups = true,
	.jitter = false,
	.host_threads = host_threads,
	.describe = describe,
	.run = run_scheduler,
};
