/* tbar.h — per-thread arrival at a CTA barrier (seed 001's barrier{.cta}
 * without .aligned), mapped onto seed 000's warp counting and seed 004's
 * masks: the TBAR instructions of src/isa/ptx.isa.  doc/spec-reading.md,
 * "PTX barriers (seed 001)", gives the reading.
 *
 * The lanes that execute a TBAR arrive for themselves.  A TBAR.SYNC or
 * TBAR.RED parks them at the instruction as a failing BSYNC does (RPC =
 * its PC, another group of the warp's lanes runs); a TBAR.ARV lets them
 * go on.  When every valid lane of the warp has arrived at some TBAR of
 * the barrier id, the warp arrives at the CTA barrier once (+32), and
 * every parked lane resumes after its own TBAR.  Like units/bru.c, these
 * are pure functions of the warp: the executor passes the evaluated
 * operands in and makes the CTA arrival. */
#ifndef WE_TBAR_H
#define WE_TBAR_H

#include <stddef.h>
#include <stdint.h>

#include "units/warp.h"

enum { TBAR_SYNC = 1, TBAR_ARV = 2, TBAR_RED = 3 };

typedef enum tbar_result {
	TBAR_CONT = 0,   /* lanes arrived, the warp goes on (w's PC and masks
			    are set: some lanes parked, others run)          */
	TBAR_SLEEP,      /* as CONT, but every lane that could run sleeps  */
	TBAR_WARP,       /* the warp's last lane arrived: it arrives at the
			    CTA barrier (*out); PC and masks are set         */
	TBAR_STUCK,      /* every valid lane is parked, not all at this
			    barrier: an intra-warp deadlock                  */
	TBAR_FAULT       /* msg says why                                    */
} tbar_result;

/* What the warp's arrival at the CTA barrier is. */
typedef struct tbar_warp_arrival {
	unsigned cnt;        /* the count (12 bits)                           */
	int kind;            /* TBAR_SYNC (wait), TBAR_ARV, TBAR_RED (wait)   */
	uint32_t lanes;      /* the lanes that arrived                        */
	uint32_t pred;       /* TBAR_RED: those whose predicate is true       */
} tbar_warp_arrival;

/* The ActiveMask lanes pmask (guard true) of warp w arrive at barrier id
 * (4 bits) with count cnt through the TBAR at pc, of kind `kind`; pred:
 * the lanes whose reduction predicate is true (TBAR_RED). */
tbar_result tbar_arrive(we_warp *w, uint64_t pc, uint32_t pmask, unsigned id, unsigned cnt, int kind,
			uint32_t pred, tbar_warp_arrival *out, char *msg, size_t msglen);

#endif
