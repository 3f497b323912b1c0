/* nbar.h — Intel vISA named barriers (seed 002, NBARRIER) as warpemu
 * reads them (spec-reading "Dialects"): 32 named barriers per CTA; one vISA
 * thread is one warp.
 *
 *  - NBARRIER.signal id, num_threads                (baseline: type 0,
 *    num_producers = num_consumers = num_threads)
 *  - NBARRIER.signal id, type, num_producers, num_consumers (general)
 *    type 0: the warp is a producer and a consumer, 1: producer only,
 *    2: consumer only.  Counts are in warps (1..warps of the CTA).
 *  - NBARRIER.wait id: only a warp that signalled the current phase as a
 *    consumer may wait; it blocks until the phase completes.
 *  - A phase completes when num_producers producer signals and
 *    num_consumers consumer signals arrived.  signal never blocks.
 *  - The id may be reused (other warps, other counts) once every consumer
 *    of the completed phase has finished its wait.
 *
 * Exceptions: id outside 0..31, type outside 0..2, counts outside
 * 1..nwarps, a participant whose id/counts disagree with the phase's first
 * signal, a warp signalling the same phase twice, a wait by a warp that did
 * not signal the phase as a consumer (a producer-only warp, or no signal),
 * and a signal on a barrier whose previous phase still has consumers that
 * have not waited ("reused too early").  Also (nbar.c): a signal that agrees
 * with the counts but would exceed num_producers or num_consumers of the
 * phase, a warp outside the CTA (>= nwarps or >= 32), and a wait by a warp
 * already blocked (or released, before nbar_wait_done) on the phase.  A
 * fault leaves the unit unchanged.
 *
 * Like bar.c these are the rules only: no blocking, no locking.
 */
#ifndef WE_NBAR_H
#define WE_NBAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WE_NUM_NBARRIERS 32u

typedef struct nbar_state {
	uint32_t phase;          /* completed phases so far                     */
	bool active;             /* a phase is collecting signals               */
	bool draining;           /* completed; consumers still to finish waits  */
	uint32_t nprod, ncons;   /* counts of the phase (from its first signal) */
	uint32_t prod, cons;     /* signals so far                              */
	uint32_t signalled;      /* warps that signalled this phase             */
	uint32_t consumers;      /* warps that signalled as consumers           */
	uint32_t waited;         /* consumers whose wait has finished (mask)    */
	uint32_t waiters;        /* consumers blocked in wait, until wait_done  */
	uint32_t producers;      /* warps that signalled as producers           */
	uint64_t first_pc;
	uint32_t first_warp;
	/* the last freed phase, for the report of a late wait by one of its
	 * producer-only warps */
	uint32_t prev_prod_only;
	uint32_t prev_first_warp;
	uint64_t prev_first_pc;
	uint64_t signal_pc[32];  /* PC of each signal of the phase (reports)    */
} nbar_state;

typedef struct nbar_unit {
	nbar_state b[WE_NUM_NBARRIERS];
	uint32_t nwarps;
	uint32_t dirty;          /* ids touched since nbar_init              */
	uint64_t wait_pc[32];    /* PC of each warp's blocked wait (reports) */
} nbar_unit;

typedef enum nbar_result { NBAR_OK = 0, NBAR_BLOCKED, NBAR_FAULT } nbar_result;

void nbar_init(nbar_unit *u, uint32_t nwarps);
/* Reset a unit initialised before, for a new CTA: only the ids used since
 * are cleared (CTAs are started by the million). */
static inline void nbar_reset(nbar_unit *u, uint32_t nwarps)
{
	for (uint32_t m = u->dirty; m; m &= m - 1)
		memset(&u->b[__builtin_ctz(m)], 0, sizeof u->b[0]);
	u->dirty = 0;
	u->nwarps = nwarps;
}

/* A signal by `warp`.  On completion of the phase *wake gets the waiting
 * consumers to release.  NBAR_FAULT with a message in msg. */
nbar_result nbar_signal(nbar_unit *u, uint32_t warp, uint32_t id, uint32_t type,
			uint32_t nprod, uint32_t ncons, uint64_t pc, uint32_t *wake,
			char *msg, size_t msglen);

/* A wait by `warp`: NBAR_OK when the phase has completed (the wait is
 * finished at once), NBAR_BLOCKED when the warp must wait (the engine
 * calls nbar_wait_done when it is released; wait_pc[warp] is pc until
 * then), NBAR_FAULT on misuse. */
nbar_result nbar_wait(nbar_unit *u, uint32_t warp, uint32_t id, uint64_t pc,
		      char *msg, size_t msglen);

/* A released waiter finished its wait (frees the barrier after the last). */
void nbar_wait_done(nbar_unit *u, uint32_t warp, uint32_t id);

#endif
