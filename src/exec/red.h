/* red.h — the reductions a host thread holds back during a turn: the
 * 32-bit global ADDs whose old value nothing reads (RED.ADD, ATOMG.ADD to
 * RZ: a histogram's bins, a counter's tallies), summed per word in a
 * small table and applied to memory with one host atomic per word
 * (xred_flush) instead of one per lane.  Two host threads adding to the
 * same few lines (a histogram's bins) otherwise trade them at every
 * add, and a second core made such a kernel slower than one
 * (bench/README.md).
 *
 * The reading that allows it (doc/spec-reading.md, "A warp's atomics"):
 * a reduction whose result nothing reads is a relaxed atomic, and another
 * thread may see it at any later time until something orders it.  So
 * what is held back is applied before
 *  - an access of the holding host thread that overlaps the held words
 *    (xred_touch, from the global translation: exec/operand.c
 *    xglobal_span; compiled code's window over a whole allocation,
 *    exec/jit_rt.c; and in a kernel that has such adds, each of its
 *    compiled global accesses, whose windows last the launch: exec/jit.c
 *    emit_settle), so every warp of the turn, the adding one included,
 *    reads its own adds in order;
 *  - a MEMBAR, and any Barrier instruction (isa_flag: BAR, named and
 *    per-thread barriers, which release other warps, in the warp-threads
 *    engine on other host threads): xinsn.releases;
 *  - the end of the turn (exec_run, exec_group and exec_straight before
 *    they return: blocked, yielded, exited, faulted, budget used up), so
 *    every held add reaches memory within one turn and before the engine
 *    looks at the CTA again.
 * The memory a launch leaves is bit for bit what adding lane by lane
 * leaves (32-bit addition is associative and commutative).
 *
 * A turn holds reductions only where nothing observes single accesses:
 * not under --check's memory checks, the hooked loop (trace, seeded
 * schedule, profile) or a grid part's atomics map (xred_on).  The table
 * lives on the turn's stack; w->red (warp.h) points at it for the warps
 * of the turn.
 */
#ifndef WE_EXEC_RED_H
#define WE_EXEC_RED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cta/cta.h"
#include "units/warp.h"

#define XRED_SLOTS 256u /* a byte histogram's 256 bins, one slot each */

typedef struct xred {
	uint32_t n;                   /* slots in use: used[0..n)          */
	bool ready;                   /* word[] cleared (at the first add)  */
	uintptr_t lo, hi;             /* the held words' host span [lo, hi) */
	uint32_t *word[XRED_SLOTS];   /* a slot's word (by its address's
					 bits 2..9), or NULL              */
	uint32_t add[XRED_SLOTS];     /* what is held for it                */
	uint8_t used[XRED_SLOTS];
} xred;

/* Whether a turn of the launch may hold reductions back (above). */
static inline bool xred_on(const we_launch_ctx *L)
{
	return !L->hooked && !L->memcheck && !L->track_atomics;
}

/* Apply what r holds: one relaxed host atomic per word. */
void xred_flush(xred *r);

/* A turn of the n warps from w (exec_run, exec_group, exec_straight)
 * begins: r empty (word[] is cleared at its first add: most turns hold
 * nothing), and the warps point at it (w->red) ... */
static inline void xred_begin(xred *r, we_warp *w, uint32_t n)
{
	r->n = 0;
	r->ready = false;
	r->lo = UINTPTR_MAX;
	r->hi = 0;
	for (uint32_t j = 0; j < n; j++)
		w[j].red = r;
}

/* ... and ends: the warps point at nothing, and what r holds goes to
 * memory. */
static inline void xred_end(xred *r, we_warp *w, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		w[j].red = NULL;
	if (r->n)
		xred_flush(r);
}

/* An access of host bytes [p, p + bytes) by the holding thread: what r
 * holds is applied first when the bytes overlap the held span. */
static inline void xred_touch(xred *r, const void *p, uint64_t bytes)
{
	if (r && r->n && (uintptr_t)p < r->hi && (uintptr_t)p + bytes > r->lo)
		xred_flush(r);
}

/* A turn holds the adds of a warp instruction whose active lanes' words
 * lie less than XRED_APART bytes apart, so that they fit the table side
 * by side (a histogram's bins).  Lanes scattered wider would only pass
 * through it: random adds over 64 MB took a third longer held than one
 * host atomic each (bench/README.md); they go lane by lane (what the
 * turn holds of the same words stays held: adds in either order leave
 * the same sum, and the turn's reads see both). */
#define XRED_APART (XRED_SLOTS * 4u)

/* Hold v for the 32-bit word at p (aligned). */
static inline void xred_add(xred *r, uint8_t *p, uint32_t v)
{
	if (!r->ready) {
		memset(r->word, 0, sizeof r->word);
		r->ready = true;
	}
	const uintptr_t a = (uintptr_t)p;
	const unsigned s = (unsigned)(a >> 2) & (XRED_SLOTS - 1u);
	uint32_t *w = (uint32_t *)(void *)p;
	if (r->word[s] == w) {
		r->add[s] += v;
		return;
	}
	if (r->word[s]) {
		/* another word in the slot: it goes to memory now */
		__atomic_fetch_add(r->word[s], r->add[s], __ATOMIC_RELAXED);
	} else {
		r->used[r->n++] = (uint8_t)s;
	}
	r->word[s] = w;
	r->add[s] = v;
	r->lo = a < r->lo ? a : r->lo;
	r->hi = a + 4 > r->hi ? a + 4 : r->hi;
}

/* The lanes of a 32-bit global ADD whose old value nothing reads: lane l
 * adds v[l] to the host word ptr[l] (NULL: the lane is off), its words
 * `apart` bytes from the lowest to the highest (as translate_span's).
 * Held in r when r is the turn's table (not NULL) and they are close
 * enough (XRED_APART); else false, and nothing done. */
static inline bool xred_hold(xred *r, uint8_t *const ptr[32], const uint32_t v[32], uint64_t apart)
{
	if (!r || apart >= XRED_APART)
		return false;
	for (unsigned l = 0; l < 32; l++)
		if (ptr[l])
			xred_add(r, ptr[l], v[l]);
	return true;
}

/* Such an add as the interpreter's atomics run it when it is not held
 * (xred_hold false): lane by lane, one relaxed host atomic each (the
 * lanes' sum at once when they all add to one word), noted in the grid
 * part's atomics map when L tracks atomics; `type` the ISA's AtomType
 * (U32 or S32).  For compiled code (exec/jit_rt.c), which holds these
 * adds as the interpreter does (exec/sem_mem.c). */
void xred_lanes(const we_launch_ctx *L, xred *r, uint8_t *const ptr[32], const uint32_t v[32], uint64_t apart,
		int type);

#endif
