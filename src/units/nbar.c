/* nbar.c — Intel vISA named barriers (seed 002, NBARRIER; doc/spec-reading.md
 * "Dialects"), see nbar.h for the rules and exceptions.
 *
 * The life of one barrier id:
 *
 *   idle ──first signal──▶ active ──prod == nprod && cons == ncons──▶ draining
 *     ▲                                                                  │
 *     └──────────── the last consumer finishes its wait ◀────────────────┘
 *
 *  - idle: no phase.  A signal starts a phase and fixes its counts (the
 *    first signal's nprod/ncons, PC and warp); a wait is a fault.
 *  - active: signals arrive; type 0 adds one producer AND one consumer,
 *    type 1 one producer, type 2 one consumer.  A consumer's wait blocks
 *    (its bit goes to `waiters`).  The signal that reaches both counts
 *    completes the phase: `phase` is incremented and *wake gets `waiters`.
 *  - draining: the phase has completed; no signal is accepted ("reused too
 *    early").  A consumer that waits now finishes its wait at once
 *    (NBAR_OK); a released waiter finishes its wait when the engine calls
 *    nbar_wait_done.  When the last consumer finished, the state is reset
 *    (all but `phase`) and the id is free for other warps and other counts.
 *
 * Who must wait.  The consumers of a phase are exactly the warps that
 * signalled it as consumers (types 0 and 2); `consumers` is their mask and
 * `waited` the mask of those whose wait has finished, so "every consumer's
 * wait completed" is `waited == consumers`.  Because every warp signals a
 * phase at most once and a signal beyond a count is a fault, a completed
 * phase has exactly ncons consumer warps.  A producer-only warp (type 1)
 * never waits and is not waited for.  A consumer warp that signalled but
 * never waits (it exits, or takes another path) keeps the barrier in
 * `draining` for ever: the next signal on that id is the "reused too
 * early" fault, whose message names the consumers that have not waited.
 * Nothing else frees a draining barrier.
 *
 * Counting beyond the counts.  nbar.h's "counts outside 1..nwarps" and
 * "disagree with the first signal" cover the declared counts; a signal
 * that agrees with them but would push the producer (or consumer) signals
 * of the active phase past num_producers (num_consumers) cannot belong to
 * this phase (it would need more participants than declared) nor to the
 * next one (the id is not free before the phase completes and drains), so
 * it is a fault too ("more producer signals than ...").
 *
 * A wait on an id whose current phase the warp has already finished
 * waiting on (its bit in `waited`) is a wait without a signal: the warp
 * has not signalled a phase it could still wait for.  A wait by a warp
 * already blocked or released-but-not-done on the phase is an engine error
 * and reported as a fault as well.
 *
 * A fault leaves the unit unchanged.  A warp outside 0..31 or outside the
 * CTA (>= nwarps) is a fault (the masks are 32 bits); nbar_wait_done
 * ignores calls that do not match a released waiter.
 */
#include "units/nbar.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
#define NBAR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define NBAR_PRINTF(f, a)
#endif

static const char *const type_name[3] = { "producer-consumer", "producer-only", "consumer-only" };

static NBAR_PRINTF(3, 4) nbar_result fault(char *msg, size_t msglen, const char *fmt, ...)
{
	if (msg && msglen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return NBAR_FAULT;
}

void nbar_init(nbar_unit *u, uint32_t nwarps)
{
	memset(u, 0, sizeof *u);
	u->nwarps = nwarps;
}

/* the last consumer finished its wait: free the id, keep the phase count */
static void nbar_free(nbar_state *b)
{
	uint32_t phase = b->phase, prod_only = b->signalled & ~b->consumers, fw = b->first_warp;
	uint64_t fpc = b->first_pc;
	memset(b, 0, sizeof *b);
	b->phase = phase;
	b->prev_prod_only = prod_only;
	b->prev_first_warp = fw;
	b->prev_first_pc = fpc;
}

static bool warp_ok(const nbar_unit *u, uint32_t warp)
{
	return warp < 32u && warp < u->nwarps;
}

static nbar_result signal_(nbar_unit *u, uint32_t warp, uint32_t id, uint32_t type,
			   uint32_t nprod, uint32_t ncons, uint64_t pc, uint32_t *wake,
			   char *msg, size_t msglen)
{
	unsigned long long upc = (unsigned long long)pc;
	*wake = 0;
	if (!warp_ok(u, warp))
		return fault(msg, msglen, "named barrier %u: signal by warp %u outside the CTA's %u warps (PC 0x%llx)",
			     id, warp, u->nwarps, upc);
	if (id >= WE_NUM_NBARRIERS)
		return fault(msg, msglen, "named barrier %u: id outside 0..%u (signal by warp %u at PC 0x%llx)",
			     id, WE_NUM_NBARRIERS - 1u, warp, upc);
	if (type > 2u)
		return fault(msg, msglen, "named barrier %u: type %u outside 0..2 (signal by warp %u at PC 0x%llx)",
			     id, type, warp, upc);
	if (nprod < 1u || nprod > u->nwarps)
		return fault(msg, msglen,
			     "named barrier %u: num_producers %u outside 1..%u (signal by warp %u at PC 0x%llx)",
			     id, nprod, u->nwarps, warp, upc);
	if (ncons < 1u || ncons > u->nwarps)
		return fault(msg, msglen,
			     "named barrier %u: num_consumers %u outside 1..%u (signal by warp %u at PC 0x%llx)",
			     id, ncons, u->nwarps, warp, upc);

	nbar_state *b = &u->b[id];
	uint32_t bit = 1u << warp;
	if (b->draining)
		return fault(msg, msglen,
			     "named barrier %u: reused too early: signal by warp %u at PC 0x%llx while consumers 0x%x of the completed phase (first signal: warp %u at PC 0x%llx) have not finished their wait",
			     id, warp, upc, b->consumers & ~b->waited, b->first_warp,
			     (unsigned long long)b->first_pc);
	if (b->active) {
		unsigned long long fpc = (unsigned long long)b->first_pc;
		if (b->signalled & bit)
			return fault(msg, msglen,
				     "named barrier %u: warp %u signals the same phase twice (PC 0x%llx; first signal: warp %u at PC 0x%llx)",
				     id, warp, upc, b->first_warp, fpc);
		if (nprod != b->nprod)
			return fault(msg, msglen,
				     "named barrier %u: warp %u at PC 0x%llx: num_producers %u differs from %u of the phase's first signal (warp %u at PC 0x%llx)",
				     id, warp, upc, nprod, b->nprod, b->first_warp, fpc);
		if (ncons != b->ncons)
			return fault(msg, msglen,
				     "named barrier %u: warp %u at PC 0x%llx: num_consumers %u differs from %u of the phase's first signal (warp %u at PC 0x%llx)",
				     id, warp, upc, ncons, b->ncons, b->first_warp, fpc);
	}
	bool is_prod = type != 2u, is_cons = type != 1u;
	/* on a new phase prod = cons = 0 and the counts are >= 1: no overflow */
	if (is_prod && b->prod >= nprod)
		return fault(msg, msglen,
			     "named barrier %u: %s signal by warp %u at PC 0x%llx: more producer signals than num_producers %u (first signal: warp %u at PC 0x%llx)",
			     id, type_name[type], warp, upc, nprod, b->first_warp,
			     (unsigned long long)b->first_pc);
	if (is_cons && b->cons >= ncons)
		return fault(msg, msglen,
			     "named barrier %u: %s signal by warp %u at PC 0x%llx: more consumer signals than num_consumers %u (first signal: warp %u at PC 0x%llx)",
			     id, type_name[type], warp, upc, ncons, b->first_warp,
			     (unsigned long long)b->first_pc);

	if (!b->active) {
		b->active = true;
		b->nprod = nprod;
		b->ncons = ncons;
		b->first_pc = pc;
		b->first_warp = warp;
	}
	b->signalled |= bit;
	b->signal_pc[warp] = pc;
	if (is_prod) {
		b->prod++;
		b->producers |= bit;
	}
	if (is_cons) {
		b->cons++;
		b->consumers |= bit;
	}
	if (b->prod == b->nprod && b->cons == b->ncons) {
		/* complete: release the blocked consumers.  Their bits stay in
		 * `waiters` until nbar_wait_done says their wait finished. */
		b->active = false;
		b->draining = true;
		b->phase++;
		*wake = b->waiters;
	}
	return NBAR_OK;
}

static nbar_result wait_(nbar_unit *u, uint32_t warp, uint32_t id, uint64_t pc,
			 char *msg, size_t msglen)
{
	unsigned long long upc = (unsigned long long)pc;
	if (!warp_ok(u, warp))
		return fault(msg, msglen, "named barrier %u: wait by warp %u outside the CTA's %u warps (PC 0x%llx)",
			     id, warp, u->nwarps, upc);
	if (id >= WE_NUM_NBARRIERS)
		return fault(msg, msglen, "named barrier %u: id outside 0..%u (wait by warp %u at PC 0x%llx)",
			     id, WE_NUM_NBARRIERS - 1u, warp, upc);
	nbar_state *b = &u->b[id];
	uint32_t bit = 1u << warp;
	unsigned long long fpc = (unsigned long long)b->first_pc;
	if (!b->active && !b->draining && (b->prev_prod_only & bit))
		return fault(msg, msglen,
			     "named barrier %u: wait by warp %u at PC 0x%llx, a producer-only warp of the phase that has just completed (first signal: warp %u at PC 0x%llx)",
			     id, warp, upc, b->prev_first_warp, (unsigned long long)b->prev_first_pc);
	if (!b->active && !b->draining)
		return fault(msg, msglen,
			     "named barrier %u: wait by warp %u at PC 0x%llx without a signal (the barrier has no phase)",
			     id, warp, upc);
	if (b->signalled & bit & ~b->consumers)
		return fault(msg, msglen,
			     "named barrier %u: wait by warp %u at PC 0x%llx, a producer-only warp of the phase (first signal: warp %u at PC 0x%llx)",
			     id, warp, upc, b->first_warp, fpc);
	if (b->waited & bit)
		return fault(msg, msglen,
			     "named barrier %u: wait by warp %u at PC 0x%llx without a signal (its wait on the phase of the first signal by warp %u at PC 0x%llx has already finished)",
			     id, warp, upc, b->first_warp, fpc);
	if (!(b->consumers & bit))
		return fault(msg, msglen,
			     "named barrier %u: wait by warp %u at PC 0x%llx without a signal of the phase (first signal: warp %u at PC 0x%llx)",
			     id, warp, upc, b->first_warp, fpc);
	if (b->waiters & bit)
		return fault(msg, msglen,
			     "named barrier %u: warp %u at PC 0x%llx waits while already waiting on the phase (first signal: warp %u at PC 0x%llx)",
			     id, warp, upc, b->first_warp, fpc);
	if (b->active) {
		b->waiters |= bit;
		u->wait_pc[warp] = pc;
		return NBAR_BLOCKED;
	}
	/* draining: the phase has completed, the wait finishes at once */
	b->waited |= bit;
	if (b->waited == b->consumers)
		nbar_free(b);
	return NBAR_OK;
}

void nbar_wait_done(nbar_unit *u, uint32_t warp, uint32_t id)
{
	if (!warp_ok(u, warp) || id >= WE_NUM_NBARRIERS)
		return;
	nbar_state *b = &u->b[id];
	uint32_t bit = 1u << warp;
	if (!b->draining || !(b->waiters & bit))
		return;
	b->waiters &= ~bit;
	b->waited |= bit;
	if (b->waited == b->consumers)
		nbar_free(b);
}

/* A fault leaves the unit untouched; anything else marks the id for
 * nbar_reset. */
nbar_result nbar_signal(nbar_unit *u, uint32_t warp, uint32_t id, uint32_t type,
			uint32_t nprod, uint32_t ncons, uint64_t pc, uint32_t *wake,
			char *msg, size_t msglen)
{
	nbar_result r = signal_(u, warp, id, type, nprod, ncons, pc, wake, msg, msglen);
	if (r != NBAR_FAULT)
		u->dirty |= 1u << (id & 31u);
	return r;
}

nbar_result nbar_wait(nbar_unit *u, uint32_t warp, uint32_t id, uint64_t pc,
		      char *msg, size_t msglen)
{
	nbar_result r = wait_(u, warp, id, pc, msg, msglen);
	if (r != NBAR_FAULT)
		u->dirty |= 1u << (id & 31u);
	return r;
}
