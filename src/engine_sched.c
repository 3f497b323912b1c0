/* engine_sched.c — the scheduler engine: one worker thread per core
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

#include "bru.h"
#include "engine_int.h"


typedef struct sworker {
	launch *lc;
	unsigned index;
	cta_slot slot;
	pthread_t tid;
	bool started;
} sworker;

/* The lockstep group that warp wi starts: it and the ready warps after
 * it at its PC with every lane active, at most L->lockstep of them, each
 * with *budget instructions left under --max-instructions (else *budget
 * shrinks or the group ends before it). */
static uint32_t group_of(const we_cta *c, uint32_t wi, uint64_t *budget)
{
	const we_warp *w = &c->warps[wi];
	const uint64_t max = c->L->max_instructions;
	if (c->L->lockstep < 2 || w->active != 0xffffffffu || w->sleep)
		return 1;
	uint32_t n = 1;
	while (n < c->L->lockstep && wi + n < c->nwarps) {
		const we_warp *v = &w[n];
		if (!((c->ready >> (wi + n)) & 1u) || v->active_pc != w->active_pc ||
		    v->active != 0xffffffffu || v->sleep)
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

/* Run one CTA to its end or its first fault. */
static void cta_run(we_cta *c)
{
	uint32_t live = c->nwarps;
	while (live) {
		uint64_t budget;
		int wi = sched_next(c, &budget);
		if (wi < 0) {
			/* nothing ready and nothing running can change that */
			we_warp *first = NULL;
			for (uint32_t k = 0; k < c->nwarps && !first; k++)
				if (c->warps[k].state == WE_WS_BLOCKED)
					first = &c->warps[k];
			set_fault(c, first, WE_FAULT_DEADLOCK, first ? first->active : 0,
				  "every live warp of the CTA is blocked on a barrier that cannot complete");
			return;
		}
		we_warp *w = &c->warps[wi];
		if (!watchdog_ok(c, w, &budget))
			return;
		uint32_t n = group_of(c, (uint32_t)wi, &budget);
		uint32_t exited = 1u << wi;
		we_stop st;
		if (n > 1) {
			uint32_t who;
			st = exec_group(c, (uint32_t)wi, n, budget, &who, &exited);
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
			/* emulated time (SPEC-NOTES 10): the warp gives its turn away
			 * and its clock jumps to the timer, which clears SleepMask */
			if (w->clock < w->wake_time)
				w->clock = w->wake_time;
			bru_timer_expired(w, w->clock);
			break;
		case WE_STOP_EXITED:
			/* (several warps of a group may have run one EXIT) */
			for (uint32_t m = exited; m; m &= m - 1) {
				live--;
				warp_exited(c, (uint32_t)__builtin_ctz(m));
			}
			break;
		case WE_STOP_FAULT:
			return;
		}
	}
}

static void *sworker_main(void *arg)
{
	sworker *wk = arg;
	launch *lc = wk->lc;
	place_thread(lc, wk->index);
	for (;;) {
		if (atomic_load_explicit(&lc->stop, memory_order_acquire))
			break;
		uint64_t id = atomic_fetch_add_explicit(&lc->next, 1, memory_order_relaxed);
		if (id >= lc->nctas)
			break;
		cta_init(&wk->slot, lc, id, NULL);
		cta_run(&wk->slot.cta);
		cta_finish(&wk->slot, lc);
	}
	return NULL;
}

we_status run_scheduler(launch *lc)
{
	unsigned nw = lc->nthreads;
	if (nw > lc->nctas)
		nw = (unsigned)lc->nctas;
	sworker *ws = calloc(nw, sizeof *ws);
	if (!ws)
		return WE_ERR_NOMEM;
	we_status st = WE_OK;
	for (unsigned i = 0; i < nw && st == WE_OK; i++) {
		ws[i].lc = lc;
		ws[i].index = i;
		if (!slot_alloc(&ws[i].slot, lc))
			st = WE_ERR_NOMEM;
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
		slot_stats(lc, &ws[i].slot);
		slot_free(&ws[i].slot);
	}
	free(ws);
	return st;
}
