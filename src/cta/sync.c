/* sync.c — barriers of a running CTA: the rules of units/bar.c and
 * units/nbar.c applied under the CTA's lock, warp states kept in step,
 * the warps a completion releases woken (cta.h).  Nothing here waits. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cta/cta.h"
#include "cta/cta_int.h"

void cta_wake_warps(we_cta *c, uint32_t wake)
{
	for (uint32_t m = wake; m; m &= m - 1) {
		we_warp *w = &c->warps[__builtin_ctz(m)];
		if (w->state == WE_WS_BLOCKED) {
			cta_warp_state(c, w, WE_WS_READY);
			w->bar_id = -1;
			if (c->sync)
				c->sync->blocked--;
		}
	}
}

/* Under the CTA lock: every live warp blocked is a deadlock (spec-reading
 * decision 11), detected the moment the last warp blocks or exits.  (One
 * host thread per CTA: its engine sees that no warp is ready.) */
static void check_deadlock(we_cta *c)
{
	cta_sync *s = c->sync;
	if (!s || !s->live || s->blocked != s->live || c->faulted)
		return;
	cta_deadlock_locked(c);
}

static void complete(we_cta *c, unsigned id, uint32_t wake, uint32_t red_done, uint32_t red_word)
{
	c->barriers_completed++;
	for (uint32_t m = red_done; m; m &= m - 1)
		c->warps[__builtin_ctz(m)].warp_bar_state = red_word;
	cta_wake_warps(c, wake);
	if (c->sync) {
		/* release: the arrivals' memory writes (ordered before their
		 * arrival by the lock) are visible to whoever sees the new phase */
		atomic_fetch_add_explicit(&c->sync->phase[id], 1, memory_order_release);
		if (pthread_cond_broadcast(&c->sync->cv[id]))
			abort();
	}
}

/* Under the CTA lock (kept): warp w must wait. */
static void block(we_cta *c, we_warp *w)
{
	cta_warp_state(c, w, WE_WS_BLOCKED);
	if (c->sync) {
		c->sync->blocked++;
		check_deadlock(c);
	}
}

cta_arrive cta_bar_arrive(we_cta *c, we_warp *w, uint32_t pmask, const bar_arrival *a, char *msg,
			  size_t msglen)
{
	uint32_t wake, red_done, red_word;
	bool completed;
	check_arrival ca = { 0 };
	cta_lock(c);
	if (c->L->check)
		ca = check_bar_before(c, w, pmask, a);
	/* (a phase with a count, for the race checks' order) */
	const bool counted = c->race && (c->bars.b[a->id].count ? c->bars.b[a->id].expected : a->cnt) != 0;
	bar_result r = bar_arrive(&c->bars, w->id, a, &wake, &red_done, &red_word, &completed, msg, msglen);
	if (r == BAR_FAULT) {
		cta_unlock(c);
		return CTA_FAULT;
	}
	if (c->L->check)
		check_bar_after(c, w, a, &ca, completed, wake);
	if (c->race)
		race_bar_arrive(c, w, a, counted, completed, wake);
	if (a->scan) {
		w->warp_bar_state = red_word;
		w->scan_unread = true;
	} else {
		w->scan_unread = false;
	}
	if (completed)
		complete(c, a->id, wake, red_done, red_word);
	if (completed && c->prof)
		prof_completed(c->prof, a->pc);
	if (r != BAR_BLOCKED) {
		cta_unlock(c);
		return completed && (wake & ~(1u << w->id)) ? CTA_RELEASED : CTA_PASSED;
	}
	w->bar_id = (int8_t)a->id;
	w->bar_waited = (int8_t)a->id;
	if (c->sync)
		w->bar_phase = atomic_load_explicit(&c->sync->phase[a->id], memory_order_relaxed);
	block(c, w);
	cta_unlock(c);
	return CTA_BLOCKED;
}

bool cta_bar_group_ok(const we_cta *c, const bar_arrival *a, uint32_t n)
{
	/* one host thread (no lock, no other thread), and no --check hazards
	 * to look for on the way */
	return !c->sync && !c->L->check && !c->race && !c->prof && bar_arrive_all_ok(&c->bars, n, a);
}

bool cta_bar_arrive_group(we_cta *c, const bar_arrival *a, uint32_t n)
{
	if (!cta_bar_group_ok(c, a, n))
		return false;
	cta_bar_complete_group(c, a);
	return true;
}

void cta_bar_complete_group(we_cta *c, const bar_arrival *a)
{
	bar_arrive_all_now(&c->bars, a);
	/* (scan_unread, which a BAR.SYNC clears, is read only by --check,
	 * which never comes here) */
	c->barriers_completed++;
}

void cta_warp_exited_hooked(we_cta *c, uint32_t wi)
{
	cta_lock(c);
	unsigned nc;
	uint32_t red_done, words[32];
	uint32_t phases[WE_BAR_SLOTS];
	uint64_t first_pc[WE_BAR_SLOTS];
	cta_warp_state(c, &c->warps[wi], WE_WS_EXITED);
	if (c->race || c->prof)
		for (unsigned i = 0; i < WE_BAR_SLOTS; i++) {
			phases[i] = c->bars.b[i].phase;
			first_pc[i] = c->bars.b[i].first_pc;
		}
	uint32_t wake = bar_warp_exited(&c->bars, wi, &nc, &red_done, words);
	c->barriers_completed += nc;
	/* (a phase the exit completed counts at its first arrival's PC) */
	for (unsigned i = 0; nc && c->prof && i < WE_BAR_SLOTS; i++)
		if (c->bars.b[i].phase != phases[i])
			prof_completed(c->prof, first_pc[i]);
	if (c->L->check)
		check_warp_exited(c, wi, nc, wake);
	if (c->race)
		race_warp_exited(c, wi, phases, wake);
	for (uint32_t m = red_done; m; m &= m - 1)
		c->warps[__builtin_ctz(m)].warp_bar_state = words[__builtin_ctz(m)];
	cta_wake_warps(c, wake);
	if (c->sync) {
		c->sync->live--;
		if (nc) {
			for (unsigned i = 0; i < WE_BAR_SLOTS; i++)
				atomic_fetch_add_explicit(&c->sync->phase[i], 1, memory_order_release);
			cta_broadcast_all(c->sync);
		}
		check_deadlock(c);
	}
	cta_unlock(c);
}

/* ---- vISA named barriers (units/nbar.c) ------------------------------ */

static void nbar_wake(we_cta *c, uint32_t id, uint32_t wake)
{
	for (uint32_t m = wake; m; m &= m - 1) {
		uint32_t wi = (uint32_t)__builtin_ctz(m);
		we_warp *w = &c->warps[wi];
		nbar_wait_done(&c->nbars, wi, id);
		if (w->state == WE_WS_BLOCKED) {
			cta_warp_state(c, w, WE_WS_READY);
			w->nbar_id = -1;
			if (c->sync)
				c->sync->blocked--;
		}
	}
	if (wake && c->sync && pthread_cond_broadcast(&c->sync->nbar_cv))
		abort();
}

cta_arrive cta_nbar_signal(we_cta *c, we_warp *w, uint64_t pc, uint32_t id, uint32_t type,
			   uint32_t nprod, uint32_t ncons, char *msg, size_t msglen)
{
	uint32_t wake;
	cta_lock(c);
	if (c->L->check)
		check_nbar(c, w, pc, id);
	uint32_t phase = c->nbars.b[id & 31u].phase;
	nbar_result r = nbar_signal(&c->nbars, w->id, id, type, nprod, ncons, pc, &wake, msg, msglen);
	if (r == NBAR_OK) {
		const bool completed = c->nbars.b[id & 31u].phase != phase;
		if (completed) {
			c->barriers_completed++;
			if (c->L->check)
				check_nbar_completed(c, id);
			if (c->prof)
				prof_completed(c->prof, pc);
		}
		if (c->race)
			race_nbar_signal(c, w, pc, id, completed, wake);
		nbar_wake(c, id, wake);
	}
	cta_unlock(c);
	return r == NBAR_FAULT ? CTA_FAULT : CTA_PASSED;
}

cta_arrive cta_nbar_wait(we_cta *c, we_warp *w, uint64_t pc, uint32_t id, char *msg, size_t msglen)
{
	cta_lock(c);
	if (c->L->check)
		check_nbar(c, w, pc, id);
	nbar_result r = nbar_wait(&c->nbars, w->id, id, pc, msg, msglen);
	if (r == NBAR_OK && c->race)
		race_nbar_passed(c, w, id);
	if (r != NBAR_BLOCKED) {
		cta_unlock(c);
		return r == NBAR_FAULT ? CTA_FAULT : CTA_PASSED;
	}
	w->nbar_id = (int8_t)id;
	w->bar_waited = -1;
	block(c, w);
	cta_unlock(c);
	return CTA_BLOCKED;
}

uint32_t cta_bar_get(we_cta *c, unsigned id)
{
	cta_lock(c);
	uint32_t v = bar_state_word(&c->bars.b[id & 15u]);
	cta_unlock(c);
	return v;
}

void cta_bar_set(we_cta *c, unsigned id, uint32_t word)
{
	cta_lock(c);
	c->bars.dirty |= 1u << (id & 15u);
	bar_set_state_word(&c->bars.b[id & 15u], word);
	cta_unlock(c);
}
