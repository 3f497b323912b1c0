/* check.c — --check hazards (check.h). */
#define _POSIX_C_SOURCE 200809L
#include "cta/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "base/bits.h"
#include "cta/cta.h"

bool check_log_init(check_log *l)
{
	memset(l, 0, sizeof *l);
	return pthread_mutex_init(&l->lock, NULL) == 0;
}

char *check_log_finish(check_log *l)
{
	char *t = l->text;
	l->text = NULL;
	if (pthread_mutex_destroy(&l->lock))
		abort(); /* EBUSY/EINVAL: a broken invariant */
	return t;
}

void check_log_add(check_log *l, const char *line)
{
	if (pthread_mutex_lock(&l->lock))
		abort();
	l->count++;
	size_t n = strlen(line);
	if (l->count <= CHECK_LOG_MAX && l->len + n + 2 > l->cap) {
		size_t cap = (l->cap ? l->cap * 2 : 4096) + n;
		char *q = realloc(l->text, cap);
		if (q) {
			l->text = q;
			l->cap = cap;
		}
	}
	if (l->count <= CHECK_LOG_MAX && l->len + n + 2 <= l->cap) {
		memcpy(l->text + l->len, line, n);
		l->len += n;
		l->text[l->len++] = '\n';
		l->text[l->len] = 0;
	}
	if (pthread_mutex_unlock(&l->lock))
		abort();
}

void check_warn(we_cta *c, const char *kind, uint32_t warp, uint64_t pc, const char *fmt, ...)
{
	char ins[200], loc[300], msg[300], line[1000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	dis_at(c->L->mod, pc, ins, sizeof ins);
	module_ptx_loc(c->L->mod, pc, loc, sizeof loc); /* a PTX kernel's line */
	snprintf(line, sizeof line, "check: %s: CTA (%u,%u,%u) warp %u PC 0x%04llx: %s%s: %s", kind,
		 c->ctaid[0], c->ctaid[1], c->ctaid[2], warp, (unsigned long long)pc, ins, loc, msg);
	check_log_add(c->L->checklog, line);
}

void check_reset(check_cta *k)
{
	if (k->used) {
		memset(k->vc, 0, sizeof k->vc);
		memset(k->vc_exited, 0, sizeof k->vc_exited);
		k->used = false;
	}
	memset(k->done, 0, sizeof k->done);
	memset(k->kinds, 0, sizeof k->kinds);
}

/* A completed phase orders its arrivals (`parts`, and the exited warps
 * for a cnt = 0 phase) before whatever its `receivers` do next: its
 * waiters and its completing warp.  Named barriers order all their
 * signallers both ways, more order than there is: fewer warnings, never
 * a false one. */
static void vc_complete(check_cta *k, uint32_t parts, uint32_t receivers, bool with_exited)
{
	uint32_t j[32] = { 0 };
	if (with_exited)
		memcpy(j, k->vc_exited, sizeof j);
	for (uint32_t m = parts; m; m &= m - 1)
		for (unsigned v = 0; v < 32; v++)
			if (k->vc[__builtin_ctz(m)][v] > j[v])
				j[v] = k->vc[__builtin_ctz(m)][v];
	for (uint32_t m = receivers; m; m &= m - 1)
		j[__builtin_ctz(m)]++;
	for (uint32_t m = receivers; m; m &= m - 1)
		memcpy(k->vc[__builtin_ctz(m)], j, sizeof j);
	k->used = true;
}

static const char *kind_name(unsigned kind)
{
	return kind == BAR_KIND_RED ? "BAR.RED" : "BAR.SYNC/ARV";
}

check_arrival check_bar_before(we_cta *c, const we_warp *w, uint32_t pmask, const bar_arrival *a)
{
	const bar_state *b = &c->bars.b[a->id];
	/* spec-reading decision 6 and seed 001: a divergent warp, or a guard
	 * true in only some of its active lanes, arrives for the whole warp
	 * (a TBAR's warp arrives once all its lanes did, from any PC) */
	if (a->per_thread)
		;
	else if (w->active != w->valid)
		check_warn(c, "divergent-barrier", w->id, a->pc,
			   "ActiveMask 0x%08x != ValidMask 0x%08x at a CTA barrier", w->active, w->valid);
	else if (pmask != w->active)
		check_warn(c, "divergent-barrier", w->id, a->pc,
			   "the guard is true in lanes 0x%08x of ActiveMask 0x%08x at a CTA barrier: the whole "
			   "warp arrives", pmask, w->active);
	/* a warp that arrives twice before the barrier resets (ARV then
	 * ARV/SYNC) */
	if (b->count && ((b->arrived >> w->id) & 1u))
		check_warn(c, "second-arrival", w->id, a->pc,
			   "warp %u arrives at barrier %u a second time before it resets (first at PC 0x%04llx)",
			   w->id, a->id, (unsigned long long)b->arrive_pc[w->id]);
	if (w->scan_unread)
		check_warn(c, "scan-result-unread", w->id, a->pc,
			   "the warp's BAR.SCAN result was not read before its next barrier instruction");
	/* 000: BAR.RED may not share a barrier id with BAR.SYNC/ARV.  Within
	 * one phase that is an exception (bar_arrive); across phases of the
	 * CTA, a hazard, once per barrier.  001 forbids the mix only on an
	 * active barrier (one phase), so a PTX kernel's __syncthreads_count()
	 * after __syncthreads(), both on barrier 0, is no hazard */
	if (a->id < WE_NUM_BARRIERS && c->L->k->dialect != WE_DIALECT_PTX) {
		uint8_t *kinds = &c->chk.kinds[a->id];
		const unsigned other = a->kind == BAR_KIND_RED ? BAR_KIND_SYNC : BAR_KIND_RED;
		if ((*kinds & other) && !(*kinds & 0x80u) && !(b->count && b->kind == other)) {
			check_warn(c, "red-shares-barrier", w->id, a->pc,
				   "%s on barrier %u, which %s used in an earlier phase of the CTA (000: BAR.RED may "
				   "not share a barrier id with BAR.SYNC/ARV)", kind_name(a->kind), a->id,
				   kind_name(other));
			*kinds |= 0x80u;
		}
		*kinds |= (uint8_t)a->kind;
	}
	check_arrival ca = {
		.parts = b->arrived | 1u << w->id,
		.counted = (b->count ? b->expected : a->cnt) != 0,
	};
	return ca;
}

/* arrivals-beyond-count: warp w arrives at a counted barrier after a
 * phase it took no part in completed (d, as it was before this arrival),
 * and is not ordered after that completion: it could have arrived before
 * it, so more warps reach the barrier than its count and which of them
 * pass together depends on the schedule (four warps at BAR.SYNC 1, 64). */
static void beyond_count(we_cta *c, uint32_t w, const bar_arrival *a, uint32_t phase_before)
{
	const check_cta *k = &c->chk;
	const unsigned id = a->id;
	if (!a->cnt || k->done[id].phase != phase_before || !k->done[id].parts ||
	    ((k->done[id].parts >> w) & 1u) || k->vc[w][k->done[id].warp] >= k->done[id].clock)
		return;
	check_warn(c, "arrivals-beyond-count", w, a->pc,
		   "barrier %u, count %u: warps 0x%x completed a phase (the last arrival: warp %u at PC "
		   "0x%04llx) this warp is not ordered after: more warps reach the barrier than its count, "
		   "and which of them pass together depends on the schedule", id, a->cnt / 32u,
		   k->done[id].parts, k->done[id].warp, (unsigned long long)k->done[id].pc);
}

void check_bar_after(we_cta *c, const we_warp *w, const bar_arrival *a, const check_arrival *ca,
		     bool completed, uint32_t wake)
{
	check_cta *k = &c->chk;
	const uint32_t phase = c->bars.b[a->id].phase;
	beyond_count(c, w->id, a, completed ? phase - 1u : phase);
	if (!completed)
		return;
	vc_complete(k, ca->parts, wake | 1u << w->id, !ca->counted);
	k->done[a->id].parts = ca->counted ? ca->parts : 0;
	k->done[a->id].warp = w->id;
	k->done[a->id].clock = k->vc[w->id][w->id];
	k->done[a->id].phase = phase;
	k->done[a->id].pc = a->pc;
}

void check_warp_exited(we_cta *c, uint32_t wi, unsigned completed, uint32_t wake)
{
	check_cta *k = &c->chk;
	for (unsigned v = 0; v < 32; v++)
		if (k->vc[wi][v] > k->vc_exited[v])
			k->vc_exited[v] = k->vc[wi][v];
	/* cnt = 0 phases: every live warp arrived */
	if (completed)
		vc_complete(k, (c->nwarps == 32 ? ~0u : (1u << c->nwarps) - 1u) & ~c->bars.exited, wake, true);
}

void check_nbar(we_cta *c, const we_warp *w, uint64_t pc, uint32_t id)
{
	/* a divergent warp at a named barrier signals or waits for the whole
	 * warp (one vISA thread), like a divergent warp at a CTA barrier */
	if (w->active != w->valid)
		check_warn(c, "divergent-barrier", w->id, pc,
			   "ActiveMask 0x%08x != ValidMask 0x%08x at named barrier %u", w->active, w->valid, id);
}

void check_nbar_completed(we_cta *c, uint32_t id)
{
	const nbar_state *b = &c->nbars.b[id & 31u];
	vc_complete(&c->chk, b->signalled, b->signalled, false);
}

void check_cta_end(we_cta *c)
{
	if (c->faulted)
		return;
	for (unsigned id = 0; id < WE_BAR_SLOTS; id++) {
		const bar_state *b = &c->bars.b[id];
		if (b->count)
			check_warn(c, "barrier-left-armed", b->first_warp, b->first_pc,
				   "barrier %u left with %u arrivals (of %u) when the CTA exited: more arrivals "
				   "than its count, or a missing one", id, b->count / 32u,
				   (b->expected ? b->expected : 32u * c->nwarps) / 32u);
	}
	/* named barriers (units/nbar.c): a phase still collecting signals, or
	 * a completed one some of whose consumers never waited (the id stays
	 * busy: its next signal would be "reused too early") */
	for (uint32_t m = c->nbars.dirty; m; m &= m - 1) {
		unsigned id = (unsigned)__builtin_ctz(m);
		const nbar_state *b = &c->nbars.b[id];
		if (b->active)
			check_warn(c, "named-barrier-left-armed", b->first_warp, b->first_pc,
				   "named barrier %u left with producers %u of %u, consumers %u of %u when the "
				   "CTA exited: a missing signal (warp and PC of the phase's first signal)", id,
				   b->prod, b->nprod, b->cons, b->ncons);
		else if (b->draining)
			check_warn(c, "named-barrier-never-waited", b->first_warp, b->first_pc,
				   "named barrier %u: consumer warps 0x%x signalled its completed phase but never "
				   "waited, so the id is never free again (warp and PC of the phase's first signal)",
				   id, b->consumers & ~b->waited);
	}
}
