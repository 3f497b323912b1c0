/* engine.c — what both engines share: launch set-up and checks, CTA
 * slots and set-up, the barrier hooks the executor calls, fault reports
 * and statistics.  The runners are engine_sched.c (a worker per core runs
 * many warps) and engine_wt.c (one host thread per warp).
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/engine.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm/asm.h"
#include "base/bits.h"
#include "units/bru.h"
#include "device/device.h"
#include "engine/engine_int.h"
#include "asm/module.h"
#include "base/strbuf.h"

const char *we_engine_name(we_engine e)
{
	switch (e) {
	case WE_ENGINE_DEFAULT: return "default";
	case WE_ENGINE_SCHEDULER: return "scheduler";
	case WE_ENGINE_WARP_THREADS: return "warp-threads";
	}
	return "unknown";
}

/* ------------------------------------------------------------------ */
/* barrier hooks                                                        */

/* Every change of a warp's state goes through here, which keeps the
 * CTA's mask of ready warps (sched_next) in step. */
static inline void warp_state(we_cta *c, we_warp *w, we_warp_state st)
{
	w->state = st;
	if (st == WE_WS_READY)
		c->ready |= 1u << w->id;
	else
		c->ready &= ~(1u << w->id);
}

void wake_warps(we_cta *c, uint32_t wake)
{
	for (uint32_t m = wake; m; m &= m - 1) {
		we_warp *w = &c->warps[__builtin_ctz(m)];
		if (w->state == WE_WS_BLOCKED) {
			warp_state(c, w, WE_WS_READY);
			w->bar_id = -1;
			if (c->sync)
				c->sync->blocked--;
		}
	}
}

static void cta_lock(we_cta *c)
{
	if (c->sync && pthread_mutex_lock(&c->sync->lock))
		abort(); /* EINVAL/EDEADLK: a broken invariant, not a user error */
}

static void cta_unlock(we_cta *c)
{
	if (c->sync && pthread_mutex_unlock(&c->sync->lock))
		abort();
}

/* Wake every waiter of the CTA (completion of several barriers, abort). */
static void broadcast_all(cta_sync *s)
{
	for (unsigned i = 0; i < WE_BAR_SLOTS; i++)
		if (pthread_cond_broadcast(&s->cv[i]))
			abort();
	if (pthread_cond_broadcast(&s->nbar_cv))
		abort();
	if (s->serial && pthread_cond_broadcast(&s->baton_cv))
		abort();
}

static void set_fault_locked(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes,
			     const char *msg);

/* Under the CTA lock: the deadlock of c, reported at its first blocked
 * warp. */
static void deadlock_locked(we_cta *c)
{
	we_warp *first = NULL;
	for (uint32_t wi = 0; wi < c->nwarps && !first; wi++)
		if (c->warps[wi].state == WE_WS_BLOCKED)
			first = &c->warps[wi];
	set_fault_locked(c, first, WE_FAULT_DEADLOCK, first ? first->active : 0,
			 "every live warp of the CTA is blocked on a barrier that cannot complete");
}

/* Under the CTA lock: every live warp blocked is a deadlock (SPEC-NOTES
 * 11), detected the moment the last warp blocks or exits. */
static void check_deadlock(we_cta *c)
{
	cta_sync *s = c->sync;
	if (!s || !s->live || s->blocked != s->live || c->faulted)
		return;
	deadlock_locked(c);
}

static void complete(we_cta *c, unsigned id, uint32_t wake, uint32_t red_done, uint32_t red_word)
{
	c->barriers_completed++;
	for (uint32_t m = red_done; m; m &= m - 1)
		c->warps[__builtin_ctz(m)].warp_bar_state = red_word;
	wake_warps(c, wake);
	if (c->sync) {
		/* release: the arrivals' memory writes (ordered before their
		 * arrival by the lock) are visible to whoever sees the new phase */
		atomic_fetch_add_explicit(&c->sync->phase[id], 1, memory_order_release);
		if (pthread_cond_broadcast(&c->sync->cv[id]))
			abort();
	}
}

/* --check, arrivals-beyond-count: vector clocks of the order barriers
 * impose (bar_unit.vc).  A completed phase orders its arrivals (`parts`,
 * and the exited warps for a cnt = 0 phase) before whatever its
 * `receivers` do next: its waiters and its completing warp.  Named
 * barriers order all their signallers both ways, more order than there
 * is: fewer warnings, never a false one. */
static void vc_complete(bar_unit *u, uint32_t parts, uint32_t receivers, bool with_exited)
{
	uint32_t j[32] = { 0 };
	if (with_exited)
		memcpy(j, u->vc_exited, sizeof j);
	for (uint32_t m = parts; m; m &= m - 1)
		for (unsigned v = 0; v < 32; v++)
			if (u->vc[__builtin_ctz(m)][v] > j[v])
				j[v] = u->vc[__builtin_ctz(m)][v];
	for (uint32_t m = receivers; m; m &= m - 1)
		j[__builtin_ctz(m)]++;
	for (uint32_t m = receivers; m; m &= m - 1)
		memcpy(u->vc[__builtin_ctz(m)], j, sizeof j);
	u->vc_used = true;
}

/* --check, after warp w's arrival a (before the barrier records a phase
 * it completes): w arrives at a counted barrier after a phase it took no
 * part in completed, and is not ordered after that completion: it could
 * have arrived before it, so more warps reach the barrier than its count
 * and which of them pass together depends on the schedule (e.g. four
 * warps at BAR.SYNC 1, 64). */
static void check_beyond_count(we_cta *c, uint32_t w, const bar_arrival *a)
{
	const bar_state *b = &c->bars.b[a->id];
	uint32_t cnt = a->cnt; /* the phase's (bar_arrive accepted it) */
	if (!cnt || !b->done_parts || ((b->done_parts >> w) & 1u) ||
	    c->bars.vc[w][b->done_warp] >= b->done_clock)
		return;
	eng_warn(c, "arrivals-beyond-count", w, a->pc,
		 "barrier %u, count %u: warps 0x%x completed a phase (the last arrival: warp %u at PC "
		 "0x%04llx) this warp is not ordered after: more warps reach the barrier than its count, "
		 "and which of them pass together depends on the schedule", a->id, cnt / 32u, b->done_parts,
		 b->done_warp, (unsigned long long)b->done_pc);
}

#define SPIN_LIMIT 200

/* Under the CTA lock (released on return): sleep on cv until the warp is
 * released or the CTA aborts; an abort stops the warp. */
static void sleep_blocked(xctx *x, pthread_cond_t *cv)
{
	cta_sync *s = x->cta->sync;
	while (x->w->state == WE_WS_BLOCKED && !atomic_load_explicit(&s->abort, memory_order_relaxed))
		if (pthread_cond_wait(cv, &s->lock))
			abort();
	bool aborted = x->w->state == WE_WS_BLOCKED;
	cta_unlock(x->cta);
	if (aborted) {
		x->stop = true;
		x->why = WE_STOP_FAULT;
	}
}

/* The warp-threads engine: wait on the barrier's condition variable
 * (after a short bounded spin) until released or the CTA aborts. */
static void wait_released(xctx *x, unsigned id, uint32_t phase)
{
	we_cta *c = x->cta;
	cta_sync *s = c->sync;
	for (int i = 0; i < SPIN_LIMIT; i++) {
		if (atomic_load_explicit(&s->phase[id], memory_order_acquire) != phase ||
		    atomic_load_explicit(&s->abort, memory_order_acquire))
			break;
	}
	cta_lock(c);
	sleep_blocked(x, &s->cv[id]);
}

void eng_barrier(xctx *x, const bar_arrival *a)
{
	we_cta *c = x->cta;
	uint32_t wake, red_done, red_word;
	bool completed;
	char msg[256];
	cta_lock(c);
	if (c->L->check) {
		/* SPEC-NOTES 6 and seed 001: divergent barriers, and a warp that
		 * arrives twice before the barrier resets (ARV then ARV/SYNC) */
		if (x->w->active != x->w->valid)
			eng_warn(c, "divergent-barrier", x->w->id, x->pc,
				 "ActiveMask 0x%08x != ValidMask 0x%08x at a CTA barrier", x->w->active,
				 x->w->valid);
		const bar_state *b = &c->bars.b[a->id];
		if (b->count && ((b->arrived >> x->w->id) & 1u))
			eng_warn(c, "second-arrival", x->w->id, x->pc,
				 "warp %u arrives at barrier %u a second time before it resets (first at PC 0x%04llx)",
				 x->w->id, a->id, (unsigned long long)b->arrive_pc[x->w->id]);
	}
	if (c->L->check && x->w->scan_unread)
		eng_warn(c, "scan-result-unread", x->w->id, x->pc,
			 "the warp's BAR.SCAN result was not read before its next barrier instruction");
	/* --check: the phase's arrivals if this one completes it */
	bar_state *bs = &c->bars.b[a->id];
	uint32_t parts = c->L->check ? bs->arrived | 1u << x->w->id : 0;
	bool counted = c->L->check && (bs->count ? bs->expected : a->cnt) != 0;
	bar_result r = bar_arrive(&c->bars, x->w->id, a, &wake, &red_done, &red_word, &completed,
				  msg, sizeof msg);
	if (r == BAR_FAULT) {
		cta_unlock(c);
		xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
		return;
	}
	if (c->L->check) {
		check_beyond_count(c, x->w->id, a);
		if (completed) {
			vc_complete(&c->bars, parts, wake | 1u << x->w->id, !counted);
			bs->done_parts = counted ? parts : 0;
			bs->done_warp = x->w->id;
			bs->done_clock = c->bars.vc[x->w->id][x->w->id];
			bs->done_pc = a->pc;
		}
	}
	if (a->scan) {
		x->w->warp_bar_state = red_word;
		x->w->scan_unread = true;
	} else {
		x->w->scan_unread = false;
	}
	if (completed)
		complete(c, a->id, wake, red_done, red_word);
	if (r != BAR_BLOCKED) {
		cta_unlock(c);
		if (completed && c->L->lockstep > 1 && (wake & ~(1u << x->w->id))) {
			/* the scheduler engine with lockstep groups: the warps just
			 * released are at the completing warp's PC; handing this one
			 * back lets them go on as one group */
			x->stop = true;
			x->why = WE_STOP_RELEASED;
		}
		return;
	}
	warp_state(c, x->w, WE_WS_BLOCKED);
	x->w->bar_id = (int8_t)a->id;
	if (!c->sync || c->sync->serial) {
		/* the scheduler engine, or serialised warp threads: hand the warp
		 * back to its driver; complete() makes it ready again */
		if (c->sync) {
			c->sync->blocked++;
			check_deadlock(c);
		}
		cta_unlock(c);
		x->stop = true;
		x->why = WE_STOP_BLOCKED;
		return;
	}
	c->sync->blocked++;
	uint32_t phase = atomic_load_explicit(&c->sync->phase[a->id], memory_order_relaxed);
	check_deadlock(c);
	cta_unlock(c);
	wait_released(x, a->id, phase);
}

bool eng_barrier_group(xctx *x, const bar_arrival *a, uint32_t n)
{
	we_cta *c = x->cta;
	/* the scheduler engine (no lock, no other thread), and no --check
	 * hazards to look for on the way */
	if (c->sync || c->L->check || !bar_arrive_all(&c->bars, n, a))
		return false;
	/* (scan_unread, which a BAR.SYNC clears, is read only by --check,
	 * which never comes here) */
	c->barriers_completed++;
	return true;
}

void warp_exited(we_cta *c, uint32_t wi)
{
	cta_lock(c);
	unsigned nc;
	uint32_t red_done, words[32];
	warp_state(c, &c->warps[wi], WE_WS_EXITED);
	if (c->L->check)
		for (unsigned v = 0; v < 32; v++)
			if (c->bars.vc[wi][v] > c->bars.vc_exited[v])
				c->bars.vc_exited[v] = c->bars.vc[wi][v];
	uint32_t wake = bar_warp_exited(&c->bars, wi, &nc, &red_done, words);
	c->barriers_completed += nc;
	if (c->L->check && nc) /* cnt = 0 phases: every live warp arrived */
		vc_complete(&c->bars, (c->nwarps == 32 ? ~0u : (1u << c->nwarps) - 1u) & ~c->bars.exited, wake,
			    true);
	for (uint32_t m = red_done; m; m &= m - 1)
		c->warps[__builtin_ctz(m)].warp_bar_state = words[__builtin_ctz(m)];
	wake_warps(c, wake);
	if (c->sync) {
		c->sync->live--;
		if (nc) {
			for (unsigned i = 0; i < WE_BAR_SLOTS; i++)
				atomic_fetch_add_explicit(&c->sync->phase[i], 1, memory_order_release);
			broadcast_all(c->sync);
		}
		check_deadlock(c);
	}
	cta_unlock(c);
}

/* ---- vISA named barriers (nbar.c) ------------------------------- */

/* --check: a divergent warp at a named barrier signals or waits for the
 * whole warp (one vISA thread), like a divergent warp at a CTA barrier. */
static void nbar_check_divergent(xctx *x, uint32_t id)
{
	if (x->cta->L->check && x->w->active != x->w->valid)
		eng_warn(x->cta, "divergent-barrier", x->w->id, x->pc,
			 "ActiveMask 0x%08x != ValidMask 0x%08x at named barrier %u", x->w->active,
			 x->w->valid, id);
}

static void nbar_wake(we_cta *c, uint32_t id, uint32_t wake)
{
	for (uint32_t m = wake; m; m &= m - 1) {
		uint32_t wi = (uint32_t)__builtin_ctz(m);
		we_warp *w = &c->warps[wi];
		nbar_wait_done(&c->nbars, wi, id);
		if (w->state == WE_WS_BLOCKED) {
			warp_state(c, w, WE_WS_READY);
			w->nbar_id = -1;
			if (c->sync)
				c->sync->blocked--;
		}
	}
	if (wake && c->sync && pthread_cond_broadcast(&c->sync->nbar_cv))
		abort();
}

void eng_nbar_signal(xctx *x, uint32_t id, uint32_t type, uint32_t nprod, uint32_t ncons)
{
	we_cta *c = x->cta;
	uint32_t wake;
	char msg[300];
	cta_lock(c);
	nbar_check_divergent(x, id);
	uint32_t phase = c->nbars.b[id & 31u].phase;
	nbar_result r = nbar_signal(&c->nbars, x->w->id, id, type, nprod, ncons, x->pc, &wake, msg,
				    sizeof msg);
	if (r == NBAR_OK) {
		if (c->nbars.b[id & 31u].phase != phase) {
			c->barriers_completed++;
			if (c->L->check)
				vc_complete(&c->bars, c->nbars.b[id & 31u].signalled,
					    c->nbars.b[id & 31u].signalled, false);
		}
		nbar_wake(c, id, wake);
	}
	cta_unlock(c);
	if (r == NBAR_FAULT)
		xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
}

void eng_nbar_wait(xctx *x, uint32_t id)
{
	we_cta *c = x->cta;
	char msg[300];
	cta_lock(c);
	nbar_check_divergent(x, id);
	nbar_result r = nbar_wait(&c->nbars, x->w->id, id, x->pc, msg, sizeof msg);
	if (r != NBAR_BLOCKED) {
		cta_unlock(c);
		if (r == NBAR_FAULT)
			xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
		return;
	}
	warp_state(c, x->w, WE_WS_BLOCKED);
	x->w->nbar_id = (int8_t)id;
	if (c->sync)
		c->sync->blocked++;
	check_deadlock(c);
	if (!c->sync || c->sync->serial) {
		cta_unlock(c);
		x->stop = true;
		x->why = WE_STOP_BLOCKED;
		return;
	}
	sleep_blocked(x, &c->sync->nbar_cv);
}

uint32_t eng_bar_get(xctx *x, unsigned id)
{
	cta_lock(x->cta);
	uint32_t v = bar_state_word(&x->cta->bars.b[id & 15u]);
	cta_unlock(x->cta);
	return v;
}

void eng_bar_set(xctx *x, unsigned id, uint32_t word)
{
	cta_lock(x->cta);
	x->cta->bars.dirty |= 1u << (id & 15u);
	bar_set_state_word(&x->cta->bars.b[id & 15u], word);
	cta_unlock(x->cta);
}

/* ------------------------------------------------------------------ */
/* reports                                                              */

static void lanes_text(uint32_t lanes, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	if (lanes == 0xffffffffu) {
		snprintf(buf, n, "0-31");
		return;
	}
	for (unsigned l = 0; l < 32 && len + 8 < n; l++) {
		if (!((lanes >> l) & 1u))
			continue;
		unsigned e = l;
		while (e + 1 < 32 && ((lanes >> (e + 1)) & 1u))
			e++;
		len += (size_t)snprintf(buf + len, n - len, "%s%u", len ? "," : "", l);
		if (e > l)
			len += (size_t)snprintf(buf + len, n - len, "-%u", e);
		l = e;
	}
	if (!len)
		snprintf(buf, n, "none");
}

static void insn_text(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	if (pc % WE_INST_SIZE || idx >= m->ninsns) {
		snprintf(buf, n, "<no instruction>");
		return;
	}
	int k = dis_insn(&m->insn[idx], pc, buf, n);
	/* PTX kernels: the PTX line beside the lowered instruction */
	if (k >= 0 && (size_t)k < n)
		module_ptx_loc(m, pc, buf + k, n - (size_t)k);
}

static void src_text(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	char ptx[8];
	buf[0] = 0;
	module_ptx_loc(m, pc, ptx, sizeof ptx);
	if (m->line && idx < m->ninsns && m->line[idx] && !ptx[0])
		snprintf(buf, n, " (%s:%u)", m->source ? m->source : "<module>", m->line[idx]);
}

static const char *warp_state_name(const we_warp *w)
{
	switch (w->state) {
	case WE_WS_READY: return "ready";
	case WE_WS_BLOCKED: return "blocked";
	case WE_WS_SLEEPING: return "sleeping";
	case WE_WS_EXITED: return "exited";
	case WE_WS_FAULTED: return "faulted";
	}
	return "unknown";
}

static const char *bar_kind_name(unsigned k)
{
	return k == BAR_KIND_RED ? "red" : k == BAR_KIND_SYNC ? "sync/arv" : "none";
}

/* Blocked at a BSYNC/WARPSYNC of an intra-warp deadlock (on no barrier,
 * eng_sync_deadlock). */
static bool sync_blocked(const we_warp *w)
{
	return w->state == WE_WS_BLOCKED && w->bar_id < 0 && w->nbar_id < 0;
}

/* The valid lanes of w at pc. */
static uint32_t lanes_at(const we_warp *w, uint64_t pc)
{
	uint32_t m = 0;
	for (uint32_t v = w->valid; v; v &= v - 1)
		if (bru_lane_pc(w, (unsigned)__builtin_ctz(v)) == pc)
			m |= v & -v;
	return m;
}

/* The barrier instruction a blocked warp waits at.  Not ActivePC: the
 * executor moves it past the instruction when the handler hands the warp
 * back (scheduler, serialised warp threads), not while the handler sleeps
 * in it (warp threads).  A warp blocked at BSYNC/WARPSYNC: the PC of its
 * lowest parked group. */
static uint64_t blocked_pc(const we_cta *c, const we_warp *w)
{
	if (w->bar_id >= 0)
		return c->bars.b[w->bar_id].arrive_pc[w->id];
	if (w->nbar_id >= 0)
		return c->nbars.wait_pc[w->id];
	uint32_t seen = w->sync_seen & w->valid;
	return seen ? bru_lane_pc(w, (unsigned)__builtin_ctz(seen)) : w->active_pc;
}

/* The PC a report shows for warp w of a faulted CTA: where a blocked warp
 * waits, the next instruction of a ready or sleeping one, the faulting
 * one of a faulted one. */
static uint64_t report_pc(const we_cta *c, const we_warp *w)
{
	if (w->id == c->fault.warp && (w->state == WE_WS_FAULTED || sync_blocked(w)))
		return c->fault.pc;
	if (w->state == WE_WS_BLOCKED)
		return blocked_pc(c, w);
	if (w->state == WE_WS_FAULTED) /* the executor moved past it */
		return w->active_pc >= WE_INST_SIZE ? w->active_pc - WE_INST_SIZE : 0;
	return w->active_pc;
}

static const char *const nbar_type_name[4] = { "none", "consumer-only", "producer-only", "producer-consumer" };

/* The wait-for graph of a deadlocked CTA: a blocked warp waits for every
 * live warp that has not arrived at (signalled) its barrier in this
 * phase.  Depth-first search over the blocked warps for a cycle, going
 * deeper before closing one, and closing it at the earliest warp of the
 * path: the longest cycle on the path (three warps that each wait for the
 * next are that cycle, not two of them waiting for each other at counted
 * barriers any live warp could complete).  Returns its length with the
 * cycle in cyc[0..len] (cyc[len] == cyc[0]), or 0. */
static uint32_t wait_succ(const we_cta *c, uint32_t w, uint32_t live, uint32_t blocked)
{
	const we_warp *ww = &c->warps[w];
	uint32_t arrived = ww->bar_id >= 0 ? c->bars.b[ww->bar_id].arrived
		: ww->nbar_id >= 0 ? c->nbars.b[ww->nbar_id].signalled : live;
	return live & ~arrived & blocked;
}

static unsigned wait_cycle(const we_cta *c, uint32_t cyc[33])
{
	uint32_t live = 0, blocked = 0;
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		if (c->warps[wi].state != WE_WS_EXITED)
			live |= 1u << wi;
		if (c->warps[wi].state == WE_WS_BLOCKED)
			blocked |= 1u << wi;
	}
	uint32_t done = 0; /* fully explored: on no cycle */
	for (uint32_t start = 0; start < c->nwarps; start++) {
		if (!((blocked >> start) & 1u) || ((done >> start) & 1u))
			continue;
		/* iterative DFS: path[0..depth], tried[k] = successors already tried */
		uint32_t path[33], tried[33], onpath = 1u << start;
		unsigned depth = 0;
		path[0] = start;
		tried[0] = 0;
		while (true) {
			uint32_t w = path[depth];
			uint32_t succ = wait_succ(c, w, live, blocked) & ~done & ~tried[depth];
			if (succ & onpath && !(succ & ~onpath)) {
				unsigned k = 0;
				while (!((succ >> path[k]) & 1u))
					k++;
				unsigned len = depth + 1 - k;
				for (unsigned q = 0; q < len; q++)
					cyc[q] = path[k + q];
				cyc[len] = path[k];
				return len;
			}
			if (!succ) {
				done |= 1u << w;
				onpath &= ~(1u << w);
				if (depth == 0)
					break;
				depth--;
				continue;
			}
			uint32_t v = (uint32_t)__builtin_ctz(succ & ~onpath);
			tried[depth] |= 1u << v;
			path[++depth] = v;
			tried[depth] = 0;
			onpath |= 1u << v;
		}
	}
	return 0;
}

/* The report of a faulted CTA, as text and as JSON (SPEC-NOTES 11). */
static void fault_reports(const we_cta *c, char **text, char **json)
{
	const we_launch_ctx *L = c->L;
	const we_fault *f = &c->fault;
	const char *verdict = f->kind == WE_FAULT_DEADLOCK ? "deadlock"
		: f->kind == WE_FAULT_WATCHDOG ? "timeout" : "exception";
	char lanes[160], ins[256], src[300];
	lanes_text(f->lanes, lanes, sizeof lanes);
	insn_text(L->mod, f->pc, ins, sizeof ins);
	src_text(L->mod, f->pc, src, sizeof src);
	strbuf t = { 0 }, j = { 0 };
	sb_printf(&t, "%s in kernel %s: %s: %s\n  CTA (%u,%u,%u) warp %u lanes %s PC 0x%04llx: %s%s\n",
		  f->kind == WE_FAULT_DEADLOCK ? "deadlock" : f->kind == WE_FAULT_WATCHDOG
		  ? "watchdog" : "runtime exception", L->k->name, we_fault_name(f->kind), f->msg,
		  c->ctaid[0], c->ctaid[1], c->ctaid[2], f->warp, lanes, (unsigned long long)f->pc,
		  ins, src);
	sb_printf(&j, "{\"verdict\":\"%s\",\"kind\":", verdict);
	sb_json_str(&j, we_fault_name(f->kind));
	sb_printf(&j, ",\"kernel\":");
	sb_json_str(&j, L->k->name);
	sb_printf(&j, ",\"message\":");
	sb_json_str(&j, f->msg);
	sb_printf(&j, ",\"cta\":[%u,%u,%u],\"warp\":%u,\"lanes\":\"%s\",\"pc\":\"0x%04llx\",\"instruction\":",
		  c->ctaid[0], c->ctaid[1], c->ctaid[2], f->warp, lanes, (unsigned long long)f->pc);
	sb_json_str(&j, ins);
	if (f->kind == WE_FAULT_MEM_RANGE || f->kind == WE_FAULT_MEM_ALIGN)
		sb_printf(&j, ",\"address\":\"0x%llx\"", (unsigned long long)f->addr);
	if (f->kind == WE_FAULT_DEADLOCK) {
		/* barriers with arrivals */
		sb_printf(&j, ",\"barriers\":[");
		bool firstb = true;
		for (unsigned id = 0; id < WE_BAR_SLOTS; id++) {
			const bar_state *b = &c->bars.b[id];
			if (!b->count)
				continue;
			uint32_t expected = b->expected ? b->expected : 32u * c->nwarps;
			sb_printf(&t, "  barrier %u: phase %u, %s, count %u of %u%s, arrived:", id, b->phase,
				  bar_kind_name(b->kind), b->count, expected,
				  b->expected ? "" : " (all live warps)");
			sb_printf(&j, "%s{\"id\":%u,\"phase\":%u,\"kind\":\"%s\",\"count\":%u,\"expected\":%u,"
				  "\"all_live\":%s,\"arrived\":[", firstb ? "" : ",", id, b->phase,
				  bar_kind_name(b->kind), b->count, expected, b->expected ? "false" : "true");
			firstb = false;
			bool firsta = true;
			for (uint32_t m = b->arrived; m; m &= m - 1) {
				uint32_t wi = (uint32_t)__builtin_ctz(m);
				insn_text(L->mod, b->arrive_pc[wi], ins, sizeof ins);
				sb_printf(&t, " warp %u at 0x%04llx (%s);", wi, (unsigned long long)b->arrive_pc[wi], ins);
				sb_printf(&j, "%s{\"warp\":%u,\"pc\":\"0x%04llx\",\"instruction\":", firsta ? "" : ",",
					  wi, (unsigned long long)b->arrive_pc[wi]);
				sb_json_str(&j, ins);
				sb_printf(&j, "}");
				firsta = false;
			}
			sb_printf(&t, "\n");
			sb_printf(&j, "]}");
		}
		/* vISA named barriers whose phase is collecting signals */
		for (uint32_t m = c->nbars.dirty; m; m &= m - 1) {
			unsigned id = (unsigned)__builtin_ctz(m);
			const nbar_state *b = &c->nbars.b[id];
			if (!b->active)
				continue;
			sb_printf(&t, "  named barrier %u: phase %u, producers %u of %u, consumers %u of %u, signalled:",
				  id, b->phase, b->prod, b->nprod, b->cons, b->ncons);
			sb_printf(&j, "%s{\"named_barrier\":%u,\"phase\":%u,\"producers\":%u,\"num_producers\":%u,"
				  "\"consumers\":%u,\"num_consumers\":%u,\"signalled\":[", firstb ? "" : ",", id,
				  b->phase, b->prod, b->nprod, b->cons, b->ncons);
			firstb = false;
			for (uint32_t sm = b->signalled; sm; sm &= sm - 1) {
				uint32_t wi = (uint32_t)__builtin_ctz(sm);
				const char *type = nbar_type_name[((b->producers >> wi) & 1u) << 1 |
								 ((b->consumers >> wi) & 1u)];
				insn_text(L->mod, b->signal_pc[wi], ins, sizeof ins);
				sb_printf(&t, " warp %u %s at 0x%04llx (%s);", wi, type,
					  (unsigned long long)b->signal_pc[wi], ins);
				sb_printf(&j, "%s{\"warp\":%u,\"type\":\"%s\",\"pc\":\"0x%04llx\",\"instruction\":",
					  sm == b->signalled ? "" : ",", wi, type, (unsigned long long)b->signal_pc[wi]);
				sb_json_str(&j, ins);
				sb_printf(&j, "}");
			}
			sb_printf(&t, "\n");
			sb_printf(&j, "]}");
		}
		sb_printf(&j, "]");
		/* warp by warp */
		sb_printf(&j, ",\"warps\":[");
		for (uint32_t wi = 0; wi < c->nwarps; wi++) {
			const we_warp *w = &c->warps[wi];
			uint64_t pc = report_pc(c, w);
			insn_text(L->mod, pc, ins, sizeof ins);
			sb_printf(&j, "%s{\"warp\":%u,\"state\":\"%s\"", wi ? "," : "", wi, warp_state_name(w));
			if (w->state == WE_WS_EXITED) {
				sb_printf(&t, "  warp %u: exited\n", wi);
				sb_printf(&j, "}");
				continue;
			}
			sb_printf(&t, "  warp %u: %s", wi, warp_state_name(w));
			if (w->state == WE_WS_BLOCKED && w->bar_id >= 0) {
				const bar_state *b = &c->bars.b[w->bar_id];
				sb_printf(&t, " on %sbarrier %d (count %u, expected %u%s)",
					  w->bar_id == BAR_SYNCALL_ID ? "the BAR.SYNCALL " : "", w->bar_id, b->count,
					  b->expected ? b->expected : 32u * c->nwarps,
					  b->expected ? "" : " = all live warps");
				sb_printf(&j, ",\"barrier\":%d", w->bar_id);
			} else if (w->state == WE_WS_BLOCKED && w->nbar_id >= 0) {
				const nbar_state *nb = &c->nbars.b[w->nbar_id];
				sb_printf(&t, " on named barrier %d (producers %u of %u, consumers %u of %u)",
					  w->nbar_id, nb->prod, nb->nprod, nb->cons, nb->ncons);
				sb_printf(&j, ",\"named_barrier\":%d,\"producers\":%u,\"num_producers\":%u,"
					  "\"consumers\":%u,\"num_consumers\":%u", w->nbar_id, nb->prod, nb->nprod,
					  nb->cons, nb->ncons);
			} else if (sync_blocked(w)) {
				sb_printf(&t, " (intra-warp)");
				sb_printf(&j, ",\"sync\":true");
			}
			sb_printf(&t, " at PC 0x%04llx: %s  active 0x%08x valid 0x%08x\n",
				  (unsigned long long)pc, ins, w->active, w->valid);
			sb_printf(&j, ",\"pc\":\"0x%04llx\",\"instruction\":", (unsigned long long)pc);
			sb_json_str(&j, ins);
			sb_printf(&j, ",\"active\":\"0x%08x\",\"valid\":\"0x%08x\"", w->active, w->valid);
			if (sync_blocked(w)) {
				/* each group of lanes and where it is: the parked ones
				 * wait for each other, 004 never switches to the rest */
				sb_printf(&j, ",\"groups\":[");
				for (uint32_t left = w->valid; left;) {
					uint64_t gpc = bru_lane_pc(w, (unsigned)__builtin_ctz(left));
					uint32_t g = lanes_at(w, gpc);
					bool parked = (w->sync_seen & g) != 0;
					insn_text(L->mod, gpc, ins, sizeof ins);
					sb_printf(&t, "    lanes 0x%08x at PC 0x%04llx: %s%s\n", g, (unsigned long long)gpc,
						  ins, parked ? "" : " (never switched to)");
					sb_printf(&j, "%s{\"lanes\":\"0x%08x\",\"pc\":\"0x%04llx\",\"instruction\":",
						  left == w->valid ? "" : ",", g, (unsigned long long)gpc);
					sb_json_str(&j, ins);
					sb_printf(&j, ",\"parked\":%s}", parked ? "true" : "false");
					left &= ~g;
				}
				sb_printf(&j, "]");
			}
			sb_printf(&j, "}");
		}
		sb_printf(&j, "]");
		sb_printf(&t, "  exited warps: %u of %u\n", (unsigned)popc32(c->bars.exited),
			  c->nwarps);
		sb_printf(&j, ",\"exited\":[");
		bool firste = true;
		for (uint32_t m = c->bars.exited; m; m &= m - 1) {
			sb_printf(&j, "%s%d", firste ? "" : ",", __builtin_ctz(m));
			firste = false;
		}
		sb_printf(&j, "]");
		uint32_t cyc[33];
		unsigned n = wait_cycle(c, cyc);
		sb_printf(&j, ",\"cycle\":[");
		if (n) {
			sb_printf(&t, "  wait-for cycle:");
			for (unsigned k = 0; k <= n; k++) {
				const we_warp *w = &c->warps[cyc[k]];
				if (w->nbar_id >= 0) {
					sb_printf(&t, "%s warp %u (named barrier %d)", k ? " ->" : "", cyc[k], w->nbar_id);
					sb_printf(&j, "%s{\"warp\":%u,\"named_barrier\":%d}", k ? "," : "", cyc[k],
						  w->nbar_id);
				} else {
					sb_printf(&t, "%s warp %u (barrier %d)", k ? " ->" : "", cyc[k], w->bar_id);
					sb_printf(&j, "%s{\"warp\":%u,\"barrier\":%d}", k ? "," : "", cyc[k], w->bar_id);
				}
			}
			sb_printf(&t, "\n");
		}
		sb_printf(&j, "]");
	}
	sb_printf(&j, "}");
	*text = sb_take(&t);
	*json = sb_take(&j);
}

/* ------------------------------------------------------------------ */
/* scheduling decisions, watchdogs, check mode                          */

static double now_s(void);

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
	const launch *lc = (const launch *)c->L;
	char m[200];
	if (c->L->max_instructions) {
		if (w->insns >= c->L->max_instructions) {
			snprintf(m, sizeof m, "warp %u executed %llu instructions (--max-instructions): "
				 "a livelock or an infinite loop", w->id, (unsigned long long)w->insns);
			set_fault(c, w, WE_FAULT_WATCHDOG, w->active, m);
			return false;
		}
		if (c->L->max_instructions - w->insns < *budget)
			*budget = c->L->max_instructions - w->insns;
	}
	if (atomic_load_explicit(&c->L->dev->interrupted, memory_order_relaxed)) {
		set_fault(c, w, WE_FAULT_INTERRUPTED, w->active, "the launch was interrupted");
		return false;
	}
	if (clock_turn && now_s() > lc->deadline) {
		snprintf(m, sizeof m, "the launch ran past its wall-clock limit (--timeout): "
			 "a livelock, an infinite loop, or too much work");
		set_fault(c, w, WE_FAULT_WATCHDOG, w->active, m);
		return false;
	}
	return true;
}

static void warn_line(launch *lc, const char *line)
{
	if (pthread_mutex_lock(&lc->lock))
		abort();
	lc->nwarnings++;
	size_t n = strlen(line);
	if (lc->nwarnings <= 1000 && lc->warn_len + n + 2 > lc->warn_cap) {
		size_t cap = (lc->warn_cap ? lc->warn_cap * 2 : 4096) + n;
		char *q = realloc(lc->warnings, cap);
		if (q) {
			lc->warnings = q;
			lc->warn_cap = cap;
		}
	}
	if (lc->nwarnings <= 1000 && lc->warn_len + n + 2 <= lc->warn_cap) {
		memcpy(lc->warnings + lc->warn_len, line, n);
		lc->warn_len += n;
		lc->warnings[lc->warn_len++] = '\n';
		lc->warnings[lc->warn_len] = 0;
	}
	if (pthread_mutex_unlock(&lc->lock))
		abort();
}

void eng_warn(we_cta *c, const char *kind, uint32_t warp, uint64_t pc, const char *fmt, ...)
{
	char ins[200], msg[300], line[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	insn_text(c->L->mod, pc, ins, sizeof ins);
	snprintf(line, sizeof line, "check: %s: CTA (%u,%u,%u) warp %u PC 0x%04llx: %s: %s", kind,
		 c->ctaid[0], c->ctaid[1], c->ctaid[2], warp, (unsigned long long)pc, ins, msg);
	warn_line((launch *)c->L, line);
}

void cta_end_checks(we_cta *c)
{
	if (!c->L->check || c->faulted)
		return;
	for (unsigned id = 0; id < WE_BAR_SLOTS; id++) {
		const bar_state *b = &c->bars.b[id];
		if (b->count)
			eng_warn(c, "barrier-left-armed", b->first_warp, b->first_pc,
				 "barrier %u left with %u arrivals (of %u) when the CTA exited: more arrivals "
				 "than its count, or a missing one", id, b->count / 32u,
				 (b->expected ? b->expected : 32u * c->nwarps) / 32u);
	}
	/* named barriers (nbar.c): a phase still collecting signals, or a
	 * completed one some of whose consumers never waited (the id stays
	 * busy: its next signal would be "reused too early") */
	for (uint32_t m = c->nbars.dirty; m; m &= m - 1) {
		unsigned id = (unsigned)__builtin_ctz(m);
		const nbar_state *b = &c->nbars.b[id];
		if (b->active)
			eng_warn(c, "named-barrier-left-armed", b->first_warp, b->first_pc,
				 "named barrier %u left with producers %u of %u, consumers %u of %u when the "
				 "CTA exited: a missing signal (warp and PC of the phase's first signal)", id,
				 b->prod, b->nprod, b->cons, b->ncons);
		else if (b->draining)
			eng_warn(c, "named-barrier-never-waited", b->first_warp, b->first_pc,
				 "named barrier %u: consumer warps 0x%x signalled its completed phase but never "
				 "waited, so the id is never free again (warp and PC of the phase's first signal)",
				 id, b->consumers & ~b->waited);
	}
}

/* ------------------------------------------------------------------ */
/* CTA slots                                                            */

/* n CTAs' buffers: one warp array, one register file whose rows hold the
 * lanes of all n CTAs' warps, n shared and local areas.  Rows are 128
 * bytes per warp: on 64-byte boundaries no vector load of a row crosses a
 * cache line.  The zero rows (RZ reads) stay zero from here on: nothing
 * writes them (RZ writes go to the sink rows, which nothing reads). */
static bool buffers_alloc(const launch *lc, uint32_t n, we_warp **warps, uint32_t **regs,
			  uint8_t **shared, uint8_t **local)
{
	const we_launch_ctx *L = &lc->L;
	const size_t nw = L->warps_per_cta;
	size_t regbytes = (size_t)L->nrows * WE_WARP_SIZE * sizeof(uint32_t) * nw * n;
	size_t localbytes = (size_t)L->local_bytes * WE_WARP_SIZE * nw * n;
	size_t sharedbytes = (size_t)L->shared_bytes * n;
	*warps = calloc(nw * n, sizeof **warps);
	*regs = aligned_alloc(64, (regbytes + 63) / 64 * 64);
	if (*regs)
		memset(*regs, 0, regbytes);
	*shared = malloc(sharedbytes ? sharedbytes : 1);
	*local = malloc(localbytes ? localbytes : 1);
	return *warps && *regs && *shared && *local;
}

bool slot_alloc(cta_slot *s, const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	memset(s, 0, sizeof *s);
	bar_init(&s->cta.bars, L->warps_per_cta);
	nbar_init(&s->cta.nbars, L->warps_per_cta);
	s->rstride = L->warps_per_cta * WE_WARP_SIZE;
	return buffers_alloc(lc, 1, &s->warps, &s->regs, &s->shared, &s->local);
}

void slot_free(cta_slot *s)
{
	if (!s->batched) {
		free(s->warps);
		free(s->regs);
		free(s->shared);
		free(s->local);
	}
	s->warps = NULL;
	s->regs = NULL;
	s->shared = s->local = NULL;
}

bool batch_alloc(cta_batch *b, uint32_t n, const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	const uint32_t nw = L->warps_per_cta;
	memset(b, 0, sizeof *b);
	b->slot = calloc(n, sizeof *b->slot);
	if (!b->slot)
		return false;
	b->n = n;
	bool ok = buffers_alloc(lc, n, &b->warps, &b->regs, &b->shared, &b->local);
	for (uint32_t k = 0; k < n; k++) {
		cta_slot *s = &b->slot[k];
		bar_init(&s->cta.bars, nw);
		nbar_init(&s->cta.nbars, nw);
		s->batched = true;
		s->rstride = n * nw * WE_WARP_SIZE;
		if (!ok)
			continue;
		s->warps = b->warps + (size_t)k * nw;
		s->regs = b->regs + (size_t)k * nw * WE_WARP_SIZE;
		s->shared = b->shared + (size_t)k * L->shared_bytes;
		s->local = b->local + (size_t)k * L->local_bytes * WE_WARP_SIZE * nw;
	}
	return ok;
}

void batch_free(cta_batch *b)
{
	for (uint32_t k = 0; k < b->n; k++)
		slot_free(&b->slot[k]);
	free(b->slot);
	free(b->warps);
	free(b->regs);
	free(b->shared);
	free(b->local);
	memset(b, 0, sizeof *b);
}

void cta_zero_rows(const we_launch_ctx *L, uint32_t *regs, size_t rstride, size_t lanes)
{
	const uint64_t *z = L->k->zero_rows;
	for (uint32_t w = 0; w < 4; w++)
		for (uint64_t m = z[w]; m; m &= m - 1) {
			const uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(m);
			if (r < L->k->nregs)
				memset(regs + (size_t)r * rstride, 0, lanes * sizeof(uint32_t));
		}
}

void cta_init(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync)
{
	cta_init_regs(s, lc, id, sync, false);
}

void cta_init_regs(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync, bool regs_clear)
{
	const we_launch_ctx *L = &lc->L;
	we_cta *c = &s->cta;
	/* not a memset of the whole CTA: the barrier units reset only what the
	 * previous CTA used (slots start zeroed) */
	c->faulted = false;
	c->fault.kind = WE_FAULT_NONE;
	c->barriers_completed = 0;
	c->rr_next = 0;
	c->ready = 0;
	c->L = L;
	c->sync = sync;
	c->linear_id = id;
	c->ctaid[0] = (uint32_t)(id % L->grid.x);
	c->ctaid[1] = (uint32_t)((id / L->grid.x) % L->grid.y);
	c->ctaid[2] = (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y));
	c->nwarps = L->warps_per_cta;
	c->warps = s->warps;
	c->shared = s->shared;
	bar_reset(&c->bars, c->nwarps);
	nbar_reset(&c->nbars, c->nwarps);
	c->rng = L->seed ^ (id * UINT64_C(0xd1b54a32d192ed03));
	if (sync) {
		sync->live = c->nwarps;
		sync->blocked = 0;
		sync->serial = L->hooked;
		sync->baton = -1;
		atomic_store_explicit(&sync->abort, false, memory_order_relaxed);
	}
	if (L->shared_bytes)
		memset(s->shared, 0, L->shared_bytes);
	/* R0.. start at zero, those a thread may read before it writes them
	 * (we_kernel.zero_rows; the zero and sink rows after them need
	 * nothing, buffers_alloc) */
	if (!regs_clear)
		cta_zero_rows(L, s->regs, s->rstride, (size_t)WE_WARP_SIZE * c->nwarps);
	if (L->local_bytes)
		memset(s->local, 0, (size_t)L->local_bytes * WE_WARP_SIZE * c->nwarps);
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		we_warp *w = &s->warps[wi];
		warp_clear(w);
		uint32_t n = L->threads_per_cta - wi * WE_WARP_SIZE;
		w->valid = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
		w->active = w->valid;
		w->active_pc = L->k->code_start;
		for (unsigned l = 0; l < 32; l++)
			w->rpc[l] = w->active_pc;
		w->r = s->regs + (size_t)wi * WE_WARP_SIZE;
		w->nrows = L->nrows;
		w->rstride = s->rstride;
		w->cta = c;
		w->p[7] = 0xffffffffu;
		w->up = 0x80;
		w->id = wi;
		warp_state(c, w, WE_WS_READY);
		w->bar_id = -1;
		w->nbar_id = -1;
		w->local = s->local + (size_t)wi * WE_WARP_SIZE * L->local_bytes;
		w->local_size = L->local_bytes;
	}
}

static void set_fault_locked(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes,
			     const char *msg)
{
	if (c->faulted)
		return;
	c->faulted = true;
	c->fault.kind = kind;
	c->fault.warp = w ? w->id : 0;
	c->fault.lanes = lanes;
	/* a deadlock names the barrier instruction the (blocked) warp waits
	 * at; a watchdog or an interrupt stops a warp before the instruction
	 * at its ActivePC, which may follow a branch */
	if (!w)
		c->fault.pc = 0;
	else if (kind == WE_FAULT_DEADLOCK)
		c->fault.pc = blocked_pc(c, w);
	else
		c->fault.pc = w->active_pc;
	snprintf(c->fault.msg, sizeof c->fault.msg, "%s", msg);
	if (c->sync) {
		atomic_store_explicit(&c->sync->abort, true, memory_order_release);
		broadcast_all(c->sync);
	}
}

void set_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg)
{
	cta_lock(c);
	set_fault_locked(c, w, kind, lanes, msg);
	cta_unlock(c);
}

void set_deadlock(we_cta *c)
{
	cta_lock(c);
	deadlock_locked(c);
	cta_unlock(c);
}

static we_status cta_status(const we_cta *c)
{
	if (!c->faulted)
		return WE_OK;
	switch (c->fault.kind) {
	case WE_FAULT_DEADLOCK: return WE_ERR_DEADLOCK;
	case WE_FAULT_WATCHDOG: return WE_ERR_TIMEOUT;
	case WE_FAULT_INTERRUPTED: return WE_ERR_INTERRUPTED;
	default: return WE_ERR_EXCEPTION;
	}
}

void cta_finish(cta_slot *s, launch *lc)
{
	cta_end_checks(&s->cta);
	we_status st = cta_status(&s->cta);
	for (uint32_t wi = 0; wi < s->cta.nwarps; wi++) {
		s->warp_insns += s->warps[wi].insns;
		s->thread_insns += s->warps[wi].thread_insns;
	}
	s->barriers += s->cta.barriers_completed;
	s->ctas++;
	if (st == WE_OK)
		return;
	char *rep, *json;
	fault_reports(&s->cta, &rep, &json);
	if (pthread_mutex_lock(&lc->lock))
		abort();
	/* the lowest CTA id wins, so the report is reproducible: every lower
	 * CTA was handed out before this one and runs to its end */
	if (lc->status == WE_OK || s->cta.linear_id < lc->report_cta) {
		free(lc->report);
		free(lc->report_json);
		lc->status = st;
		lc->report = rep;
		lc->report_json = json;
		lc->report_cta = s->cta.linear_id;
		rep = json = NULL;
	}
	if (pthread_mutex_unlock(&lc->lock))
		abort();
	free(rep);
	free(json);
	atomic_store_explicit(&lc->stop, true, memory_order_release);
}

void slot_stats(launch *lc, const cta_slot *s)
{
	lc->stats.ctas += s->ctas;
	lc->stats.warp_insns += s->warp_insns;
	lc->stats.thread_insns += s->thread_insns;
	lc->stats.barriers += s->barriers;
}

/* A runtime exception of the current instruction (exec.c's xfault): the
 * first one of a CTA is kept, later lanes of the same instruction are
 * added to it; in a multi-threaded CTA the other warps are stopped. */
void eng_record_fault(xctx *x, we_fault_kind kind, uint32_t lanes, uint64_t addr, const char *msg)
{
	we_cta *c = x->cta;
	x->stop = true;
	x->why = WE_STOP_FAULT;
	cta_lock(c);
	warp_state(c, x->w, WE_WS_FAULTED);
	if (c->faulted) {
		if (c->fault.warp == x->w->id && c->fault.pc == x->pc && c->fault.kind == kind)
			c->fault.lanes |= lanes;
	} else {
		c->faulted = true;
		c->fault.kind = kind;
		c->fault.warp = x->w->id;
		c->fault.lanes = lanes;
		c->fault.pc = x->pc;
		c->fault.addr = addr;
		snprintf(c->fault.msg, sizeof c->fault.msg, "%s", msg);
	}
	if (c->sync) {
		atomic_store_explicit(&c->sync->abort, true, memory_order_release);
		broadcast_all(c->sync);
	}
	cta_unlock(c);
}

void eng_sync_deadlock(xctx *x, uint32_t lanes, const char *groups)
{
	we_cta *c = x->cta;
	x->stop = true;
	x->why = WE_STOP_FAULT;
	cta_lock(c);
	/* blocked, on no barrier: the report reads its groups (sync_blocked) */
	warp_state(c, x->w, WE_WS_BLOCKED);
	if (c->sync)
		c->sync->blocked++;
	if (!c->faulted) {
		c->faulted = true;
		c->fault.kind = WE_FAULT_DEADLOCK;
		c->fault.warp = x->w->id;
		c->fault.lanes = lanes;
		c->fault.pc = x->pc;
		c->fault.addr = 0;
		snprintf(c->fault.msg, sizeof c->fault.msg, "intra-warp deadlock: %s", groups);
	}
	if (c->sync) {
		atomic_store_explicit(&c->sync->abort, true, memory_order_release);
		broadcast_all(c->sync);
	}
	cta_unlock(c);
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

/* ------------------------------------------------------------------ */
/* launches                                                             */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
	if (cfg->engine > WE_ENGINE_WARP_THREADS || cfg->placement > WE_PLACE_SCATTER) {
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
	if (cfg->jitter && (cfg->engine != WE_ENGINE_WARP_THREADS || cfg->schedule_seeded || cfg->trace)) {
		dev_error(dev, "jitter needs the warp-threads engine, without a seeded schedule or trace "
			  "(which run one warp at a time)");
		return WE_ERR_INVALID;
	}
	return WE_OK;
}

bool engine_block_ok(we_dim3 b)
{
	return b.x && b.y && b.z && b.x <= WE_BLOCK_XY_MAX && b.y <= WE_BLOCK_XY_MAX &&
	       b.z <= WE_BLOCK_Z_MAX && (uint64_t)b.x * b.y * b.z <= WE_BLOCK_THREADS_MAX;
}

we_status engine_launch(struct we_device *dev, const struct we_module *m, const we_kernel *k,
			const we_launch_config *cfg, const void *params, size_t params_size,
			we_launch_stats *stats, eng_output *out)
{
	memset(out, 0, sizeof *out);
	we_status st = engine_check_launch(dev, k, cfg, params_size);
	if (st != WE_OK)
		return st;
	launch *lc = calloc(1, sizeof *lc);
	if (!lc) {
		dev_error(dev, "out of memory");
		return WE_ERR_NOMEM;
	}
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
	L->jitter = cfg->jitter; /* its delays drawn from L->seed */
	L->trace = cfg->trace;
	L->trace_ctx = cfg->trace_ctx;
	L->hooked = L->seeded || L->trace;
	lc->nctas = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
	atomic_init(&lc->next, 0);
	atomic_init(&lc->stop, false);
	lc->status = WE_OK;
	dev_notice(dev, NULL);
	lc->placement = cfg->placement == WE_PLACE_DEFAULT ? WE_PLACE_COMPACT : cfg->placement;
	lc->topo = lc->placement == WE_PLACE_NONE ? NULL : dev_topology(dev);
	if (!lc->topo && lc->placement != WE_PLACE_NONE) {
		char note[400];
		snprintf(note, sizeof note, "host topology unavailable (%s): running unpinned",
			 dev->topo_err);
		dev_notice(dev, note);
	}
	lc->nthreads = cfg->threads ? cfg->threads : dev->threads;
	if (lc->nthreads < 1 || L->trace || L->seeded)
		lc->nthreads = 1; /* a trace is written one CTA at a time; a seeded
				     schedule replays exactly only when CTAs do not
				     race each other through global memory */
	/* refuse up front what would not fit (never leave it to the OOM
	 * killer): the buffers of the CTAs in flight, one per host thread (a
	 * CTA slot) */
	uint64_t slots = lc->nthreads < lc->nctas ? lc->nthreads : lc->nctas;
	uint64_t per_slot = (uint64_t)L->nrows * WE_WARP_SIZE * 4u * L->warps_per_cta +
			    L->shared_bytes + (uint64_t)L->local_bytes * WE_WARP_SIZE * L->warps_per_cta;
	uint64_t need = slots * per_slot;
	if (need > dev->max_memory - (dev->used < dev->max_memory ? dev->used : dev->max_memory)) {
		dev_error(dev, "the launch needs %llu bytes for the registers, shared and local memory of "
			  "its %llu CTAs in flight; with %llu bytes of device memory in use the limit of %llu "
			  "bytes (--max-memory) leaves too little", (unsigned long long)need,
			  (unsigned long long)slots, (unsigned long long)dev->used,
			  (unsigned long long)dev->max_memory);
		free(lc);
		return WE_ERR_NOMEM;
	}
	int e = pthread_mutex_init(&lc->lock, NULL);
	if (e) {
		free(lc);
		dev_error(dev, "pthread_mutex_init: %s", strerror(e));
		return WE_ERR_INTERNAL;
	}
	double t0 = now_s();
	lc->deadline = cfg->timeout > 0 ? t0 + cfg->timeout : 0;
	we_engine eng = cfg->engine == WE_ENGINE_DEFAULT ? WE_ENGINE_SCHEDULER : cfg->engine;
	L->lockstep = eng != WE_ENGINE_SCHEDULER || L->hooked ? 1u
		      : cfg->lockstep ? cfg->lockstep : WE_LOCKSTEP_DEFAULT;
	L->batch = cfg->batch;
	st = eng == WE_ENGINE_WARP_THREADS ? run_warp_threads(lc) : run_scheduler(lc);
	double t1 = now_s();
	if (st != WE_OK && st != WE_ERR_NOMEM)
		dev_error(dev, "%s engine: cannot start its host threads", we_engine_name(eng));
	else if (st == WE_ERR_NOMEM)
		dev_error(dev, "out of host memory for the launch's CTA buffers");
	if (st == WE_OK && lc->status != WE_OK) {
		st = lc->status;
		out->report = lc->report;
		out->report_json = lc->report_json;
		lc->report = lc->report_json = NULL;
	}
	out->warnings = lc->warnings;
	lc->warnings = NULL;
	if (lc->notice)
		dev_notice(dev, lc->notice);
	free(lc->notice);
	free(lc->report);
	free(lc->report_json);
	free(lc->warnings);
	e = pthread_mutex_destroy(&lc->lock);
	if (e && st == WE_OK) {
		dev_error(dev, "pthread_mutex_destroy: %s", strerror(e));
		st = WE_ERR_INTERNAL;
	}
	if (stats) {
		stats->seconds = t1 - t0;
		stats->ctas = lc->stats.ctas;
		stats->warp_insns = lc->stats.warp_insns;
		stats->thread_insns = lc->stats.thread_insns;
		stats->barriers = lc->stats.barriers;
		stats->warnings = lc->nwarnings;
	}
	free(lc);
	return st;
}
