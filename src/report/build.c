/* build.c — a faulted CTA's report as data (report.h). */
#include <stdlib.h>
#include <string.h>

#include "asm/module.h"
#include "report/report.h"
#include "units/bru.h"

/* The PC a report shows for warp w: where a blocked warp waits, the next
 * instruction of a ready or sleeping one, the faulting one of a faulted
 * one. */
static uint64_t report_pc(const we_cta *c, const we_warp *w)
{
	if (w->id == c->fault.warp && (w->state == WE_WS_FAULTED || cta_sync_blocked(w)))
		return c->fault.pc;
	if (w->state == WE_WS_BLOCKED)
		return cta_blocked_pc(c, w);
	if (w->state == WE_WS_FAULTED) /* the executor moved past it */
		return w->active_pc >= WE_INST_SIZE ? w->active_pc - WE_INST_SIZE : 0;
	return w->active_pc;
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

/* The groups of w's valid lanes by PC: the active lanes (where the warp
 * is: rw->pc) first for a warp that diverged, lowest lane first for a
 * warp at an intra-warp deadlock (as bru parks them). */
static void warp_groups(const we_warp *w, rep_warp *rw)
{
	uint32_t left = w->valid;
	rw->ngroups = 0;
	if (!rw->intra && w->active && (w->active & w->valid) != w->valid) {
		rw->groups[rw->ngroups++] = (rep_group){ .lanes = w->active & w->valid, .pc = rw->pc, .active = true };
		left &= ~w->active;
	}
	while (left && rw->ngroups < 32) {
		uint64_t gpc = bru_lane_pc(w, (unsigned)__builtin_ctz(left));
		uint32_t g = lanes_at(w, gpc) & left;
		rw->groups[rw->ngroups++] = (rep_group){ .lanes = g, .pc = gpc,
							 .parked = rw->intra && (w->sync_seen & g) != 0 };
		left &= ~g;
	}
	if (rw->ngroups == 1 && !rw->intra)
		rw->ngroups = 0; /* all at one PC: nothing to show */
}

static void cta_barriers(const we_cta *c, we_report *r)
{
	for (unsigned id = 0; id < WE_BAR_SLOTS; id++) {
		const bar_state *b = &c->bars.b[id];
		if (!b->count)
			continue;
		rep_barrier *rb = &r->barriers[r->nbarriers++];
		memset(rb, 0, sizeof *rb);
		rb->id = id;
		rb->phase = b->phase;
		rb->kind = b->kind;
		rb->count = b->count;
		rb->expected = b->expected;
		rb->over_cta = b->expected > r->cta_threads;
		for (uint32_t m = b->arrived; m; m &= m - 1) {
			uint32_t wi = (uint32_t)__builtin_ctz(m);
			rb->who[rb->n++] = (rep_arrival){ .warp = wi, .pc = b->arrive_pc[wi] };
		}
	}
	/* vISA named barriers whose phase is collecting signals */
	for (uint32_t m = c->nbars.dirty; m; m &= m - 1) {
		unsigned id = (unsigned)__builtin_ctz(m);
		const nbar_state *b = &c->nbars.b[id];
		if (!b->active)
			continue;
		rep_barrier *rb = &r->barriers[r->nbarriers++];
		memset(rb, 0, sizeof *rb);
		rb->named = true;
		rb->id = id;
		rb->phase = b->phase;
		rb->prod = b->prod;
		rb->nprod = b->nprod;
		rb->cons = b->cons;
		rb->ncons = b->ncons;
		for (uint32_t sm = b->signalled; sm; sm &= sm - 1) {
			uint32_t wi = (uint32_t)__builtin_ctz(sm);
			uint8_t role = (uint8_t)(((b->producers >> wi) & 1u) << 1 | ((b->consumers >> wi) & 1u));
			rb->who[rb->n++] = (rep_arrival){ .warp = wi, .role = role, .pc = b->signal_pc[wi] };
		}
	}
}

/* The wait-for graph: a blocked warp waits for every live warp that has
 * not arrived at (signalled) its barrier in this phase (a counted
 * barrier could be completed by any of them); a warp blocked at an
 * intra-warp deadlock, for every live warp. */
static uint32_t wait_succ(const we_cta *c, uint32_t w, uint32_t live, uint32_t blocked)
{
	const we_warp *ww = &c->warps[w];
	uint32_t arrived = ww->bar_id >= 0 ? c->bars.b[ww->bar_id].arrived
		: ww->nbar_id >= 0 ? c->nbars.b[ww->nbar_id].signalled : live;
	return live & ~arrived & blocked;
}

/* The shortest cycle of the wait-for graph through warp s (breadth
 * first): its length with the warps in cyc[0..len], cyc[0] = cyc[len] =
 * s; 0 when s is on none. */
static unsigned cycle_through(const we_cta *c, uint32_t s, uint32_t live, uint32_t blocked,
			      uint32_t cyc[33])
{
	int8_t parent[32];
	uint32_t queue[32], seen = 1u << s;
	unsigned head = 0, tail = 0;
	queue[tail++] = s;
	while (head < tail) {
		uint32_t u = queue[head++];
		uint32_t succ = wait_succ(c, u, live, blocked);
		if ((succ >> s) & 1u) {
			/* u -> s closes it: s ... u, back to s */
			uint32_t path[33];
			unsigned n = 0;
			for (int v = (int)u; v != (int)s; v = parent[v])
				path[n++] = (uint32_t)v;
			path[n++] = s;
			for (unsigned k = 0; k < n; k++)
				cyc[k] = path[n - 1 - k];
			cyc[n] = s;
			return n;
		}
		for (uint32_t m = succ & ~seen; m; m &= m - 1) {
			uint32_t v = (uint32_t)__builtin_ctz(m);
			seen |= 1u << v;
			parent[v] = (int8_t)u;
			queue[tail++] = v;
		}
	}
	return 0;
}

/* The shortest cycle through the reported warp; if it is on none, the
 * shortest one of any blocked warp (the lowest warp of those of equal
 * length). */
static void wait_cycle(const we_cta *c, we_report *r)
{
	uint32_t live = 0, blocked = 0, cyc[33], best[33];
	unsigned nbest = 0;
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		if (c->warps[wi].state != WE_WS_EXITED)
			live |= 1u << wi;
		if (c->warps[wi].state == WE_WS_BLOCKED)
			blocked |= 1u << wi;
	}
	const uint32_t first = c->fault.warp < c->nwarps ? c->fault.warp : 0;
	if ((blocked >> first) & 1u)
		nbest = cycle_through(c, first, live, blocked, best);
	for (uint32_t m = nbest ? 0 : blocked; m; m &= m - 1) {
		unsigned n = cycle_through(c, (uint32_t)__builtin_ctz(m), live, blocked, cyc);
		if (n && (!nbest || n < nbest)) {
			nbest = n;
			memcpy(best, cyc, sizeof cyc);
		}
	}
	r->ncycle = nbest;
	for (unsigned k = 0; nbest && k <= nbest; k++) {
		const we_warp *w = &c->warps[best[k]];
		r->cycle[k] = (rep_step){ .warp = best[k], .named = w->nbar_id >= 0,
					  .id = w->nbar_id >= 0 ? w->nbar_id : w->bar_id };
	}
}

we_report *report_build(const we_cta *c)
{
	we_report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	const we_launch_ctx *L = c->L;
	r->mod = L->mod;
	r->kernel = L->k->name;
	r->fault = c->fault;
	memcpy(r->cta, c->ctaid, sizeof r->cta);
	r->cta_threads = 32u * c->nwarps;
	r->state = c->fault.kind == WE_FAULT_DEADLOCK || c->fault.kind == WE_FAULT_WATCHDOG;
	if (!r->state)
		return r;
	cta_barriers(c, r);
	r->nwarps = c->nwarps;
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		const we_warp *w = &c->warps[wi];
		rep_warp *rw = &r->warps[wi];
		rw->id = wi;
		rw->state = w->state;
		rw->bar = w->state == WE_WS_BLOCKED ? w->bar_id : -1;
		rw->nbar = w->state == WE_WS_BLOCKED ? w->nbar_id : -1;
		rw->intra = cta_sync_blocked(w);
		rw->pc = report_pc(c, w);
		rw->active = w->active;
		rw->valid = w->valid;
		if (w->state != WE_WS_EXITED)
			warp_groups(w, rw);
	}
	r->exited = c->bars.exited;
	wait_cycle(c, r);
	return r;
}

void report_free(we_report *r)
{
	free(r);
}

const char *report_verdict(const we_report *r)
{
	switch (r->fault.kind) {
	case WE_FAULT_DEADLOCK: return "deadlock";
	case WE_FAULT_WATCHDOG: return "timeout";
	case WE_FAULT_INTERRUPTED: return "interrupted";
	default: return "exception";
	}
}
