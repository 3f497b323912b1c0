/* turn.c — what both engines decide at each turn of a warp: which warp
 * runs next under a seeded schedule, and the watchdogs; where a host
 * thread runs (placement); which CTAs it takes next; the time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bits.h"
#include "engine/engine_int.h"

double engine_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sched_next_seeded(we_cta *c, uint64_t *budget)
{
	uint32_t ready = c->ready;
	if (!ready)
		return -1;
	unsigned k = (unsigned)(sched_rand(&c->rng) % (uint64_t)popc32(ready));
	while (k--)
		ready &= ready - 1;
	*budget = 1 + sched_rand(&c->rng) % 64u;
	return __builtin_ctz(ready);
}

bool watchdog_check(we_cta *c, we_warp *w, uint64_t *budget, bool clock_turn)
{
	char m[200];
	if (c->L->max_instructions) {
		if (w->insns >= c->L->max_instructions) {
			snprintf(m, sizeof m, "warp %u executed %llu instructions (--max-instructions): "
				 "a livelock or an infinite loop", w->id, (unsigned long long)w->insns);
			cta_set_fault(c, w, WE_FAULT_WATCHDOG, w->active, m);
			return false;
		}
		if (c->L->max_instructions - w->insns < *budget)
			*budget = c->L->max_instructions - w->insns;
	}
	if (atomic_load_explicit(&c->L->dev->interrupted, memory_order_relaxed)) {
		cta_set_fault(c, w, WE_FAULT_INTERRUPTED, w->active, "the launch was interrupted");
		return false;
	}
	if (c->linear_id >= atomic_load_explicit(&c->L->dev->cancel_from, memory_order_relaxed)) {
		/* we_device_cancel_from: a lower CTA of the grid failed elsewhere */
		cta_set_fault(c, w, WE_FAULT_INTERRUPTED, w->active, "cancelled: a lower CTA failed");
		return false;
	}
	if (clock_turn && engine_now() > c->L->deadline) {
		snprintf(m, sizeof m, "the launch ran past its wall-clock limit (--timeout): "
			 "a livelock, an infinite loop, or too much work");
		cta_set_fault(c, w, WE_FAULT_WATCHDOG, w->active, m);
		return false;
	}
	return true;
}

void place_thread(launch *lc, unsigned k)
{
	if (!lc->topo || lc->placement == WE_PLACE_NONE)
		return;
	const char *why = NULL;
	int pu = topo_pu_for(lc->topo, lc->placement, k);
	if (pu < 0 || topo_bind_self(lc->topo, pu, &why))
		return;
	if (pthread_mutex_lock(&lc->lock))
		abort();
	if (!lc->bind_notice) {
		lc->bind_notice = true;
		size_t n = strlen(why ? why : "") + 80;
		lc->notice = malloc(n);
		if (lc->notice)
			snprintf(lc->notice, n, "thread binding unavailable (%s): running unpinned",
				 why ? why : "unknown reason");
	}
	if (pthread_mutex_unlock(&lc->lock))
		abort();
}

/* CTA id is below the lowest one with a report (the launch stopped). */
static bool below_report(launch *lc, uint64_t id)
{
	if (pthread_mutex_lock(&lc->lock))
		abort(); /* EINVAL/EDEADLK: a broken invariant */
	const bool below = lc->status != WE_OK && id < lc->report_cta;
	if (pthread_mutex_unlock(&lc->lock))
		abort();
	return below;
}

bool chunk_take(launch *lc, cta_chunk *c, uint32_t per, uint32_t most, unsigned takers, uint64_t *id, uint32_t *n)
{
	if (atomic_load_explicit(&lc->stop, memory_order_acquire) && (c->id >= c->end || !below_report(lc, c->id)))
		return false;
	if (c->id >= c->end) {
		const uint64_t next = atomic_load_explicit(&lc->next, memory_order_relaxed);
		const uint64_t left = next < lc->nctas ? lc->nctas - next : 0;
		uint64_t units = left / ((uint64_t)per * (takers ? takers : 1u) * 8u);
		if (units > most)
			units = most;
		const uint64_t chunk = (units ? units : 1u) * per;
		c->id = atomic_fetch_add_explicit(&lc->next, chunk, memory_order_relaxed);
		if (c->id >= lc->nctas) {
			c->end = c->id;
			return false;
		}
		c->end = lc->nctas - c->id < chunk ? lc->nctas : c->id + chunk;
	}
	*id = c->id;
	*n = c->end - c->id < per ? (uint32_t)(c->end - c->id) : per;
	c->id += *n;
	return true;
}
