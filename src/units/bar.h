/* bar.h — the barrier unit of one CTA (seed 000): 16 barriers with the
 * count / cnt = 0 / exited-warp rules of spec-reading decisions 1-8.
 *
 * The functions here are the rules only; they do not block and do not
 * lock.  The CTA layer (cta/sync.c) calls them under the CTA's lock and
 * makes the warps in the returned wake mask runnable.
 */
#ifndef WE_BAR_H
#define WE_BAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"

#define WE_NUM_BARRIERS 16u   /* addressable: ids 0..15                      */
#define BAR_SYNCALL_ID 16u    /* 003: BAR.SYNCALL's dedicated barrier         */
#define WE_BAR_SLOTS 17u

enum bar_kind { BAR_KIND_NONE = 0, BAR_KIND_SYNC = 1 /* SYNC/ARV */, BAR_KIND_RED = 2 };

typedef struct bar_state {
	uint32_t count;      /* +32 per warp arrival in this phase            */
	uint32_t expected;   /* count of the first arrival; 0 = all live warps */
	uint8_t kind;        /* enum bar_kind of the first arrival             */
	uint8_t redop;       /* BARREDOp of a RED phase                        */
	bool red_and, red_or;
	uint32_t red_popc;
	uint32_t phase;
	uint32_t arrived;    /* warps that arrived in this phase               */
	uint32_t waiters;    /* warps blocked on this barrier                  */
	uint64_t first_pc;   /* where the phase's first arrival came from      */
	uint32_t first_warp;
	uint32_t scan_sum;   /* BAR.SCAN (003): true predicates so far        */
	/* last: a completing phase resets everything above (bar.c), and this
	 * is read only for the warps of `arrived` */
	uint64_t arrive_pc[32]; /* PC of each warp's arrival in this phase     */
} bar_state;

typedef struct bar_unit {
	bar_state b[WE_BAR_SLOTS];
	uint32_t nwarps;     /* warps of the CTA (threads rounded up / 32)     */
	uint32_t exited;     /* warps that exited completely                   */
	uint32_t all_count;  /* 32 x (nwarps - exited warps): what a cnt = 0
				barrier's count must reach (kept in step)       */
	uint32_t dirty;      /* barriers touched since bar_init                */
} bar_unit;

typedef struct bar_arrival {
	unsigned id;         /* already truncated to 4 bits                     */
	unsigned cnt;        /* already truncated to 12 bits                    */
	uint8_t kind;        /* BAR_KIND_SYNC or BAR_KIND_RED                   */
	uint8_t redop;
	bool wait;           /* SYNC/RED block; ARV does not                    */
	uint32_t lanes;      /* RED/SCAN: the executing lanes                   */
	uint32_t pred;       /* RED/SCAN: lanes whose predicate is true         */
	bool scan;           /* BAR.SCAN: a SYNC-kind arrival that does not wait
				and gets the prefix sum in *red_word            */
	uint64_t pc;
	bool per_thread;     /* a TBAR's (units/tbar.h): the warp's lanes arrived
				on their own, maybe from several PCs          */
} bar_arrival;

typedef enum bar_result { BAR_PASSED = 0, BAR_BLOCKED, BAR_FAULT } bar_result;

void bar_init(bar_unit *u, uint32_t nwarps);
/* Reset a unit that was initialised before, for a new CTA: only the
 * barriers used since are cleared (CTAs are started by the million).
 * Whoever changes a barrier outside bar_arrive marks it in `dirty`. */
static inline void bar_reset(bar_unit *u, uint32_t nwarps)
{
	for (uint32_t m = u->dirty; m; m &= m - 1)
		zero_small(&u->b[__builtin_ctz(m)], sizeof u->b[0]);
	u->dirty = 0;
	u->exited = 0;
	u->nwarps = nwarps;
	u->all_count = 32u * nwarps;
}

/* Warp `warp` arrives.  On completion, *wake gets the warps to release
 * and *red_done the warps whose WarpBARState must be set to *red_word.
 * For BAR.SCAN *red_word is the arriving warp's own result word (its
 * prefix sum) whether or not the barrier completes.
 * On BAR_FAULT, msg holds the exception text. */
bar_result bar_arrive(bar_unit *u, uint32_t warp, const bar_arrival *a,
		      uint32_t *wake, uint32_t *red_done, uint32_t *red_word,
		      bool *completed, char *msg, size_t msglen);

/* n warps arrive at once with one SYNC-kind arrival a (BAR.SYNC/ARV of a
 * lockstep group) when they alone complete an empty phase of the
 * barrier: the phase completes and the barrier is left exactly as n
 * calls of bar_arrive would leave it, no warp blocked or woken.  false,
 * nothing changed, otherwise (the caller then arrives them one by one). */
bool bar_arrive_all(bar_unit *u, uint32_t n, const bar_arrival *a);
/* bar_arrive_all would complete the phase (it changes nothing). */
bool bar_arrive_all_ok(const bar_unit *u, uint32_t n, const bar_arrival *a);
/* bar_arrive_all's completion, where bar_arrive_all_ok holds. */
void bar_arrive_all_now(bar_unit *u, const bar_arrival *a);

/* Warp `warp` exited completely: cnt = 0 barriers may complete.  Returns
 * the warps to release; *ncompleted counts the barriers that completed;
 * warps in *red_done get red_words[warp] as their WarpBARState. */
uint32_t bar_warp_exited(bar_unit *u, uint32_t warp, unsigned *ncompleted,
			 uint32_t *red_done, uint32_t red_words[32]);
/* What bar_warp_exited does when no barrier has an arrival waiting
 * (bar_waiting; none can complete): the exited warps and all_count, kept
 * without a popcount (no POPCNT in the baseline ISA; a CTA of small
 * warps ends every few instructions). */
static inline void bar_warp_exited_idle(bar_unit *u, uint32_t warp)
{
	if (!((u->exited >> warp) & 1u)) {
		u->exited |= 1u << warp;
		u->all_count -= 32u;
	}
}

/* Some barrier has arrivals in its current phase: an exit may complete
 * it (bar_warp_exited's test; only a barrier touched since bar_reset has
 * any). */
static inline bool bar_waiting(const bar_unit *u)
{
	for (uint32_t m = u->dirty; m; m &= m - 1)
		if (u->b[__builtin_ctz(m)].count)
			return true;
	return false;
}

/* The barrier state word (spec-reading decision 8), see bar.c. */
uint32_t bar_state_word(const bar_state *b);
void bar_set_state_word(bar_state *b, uint32_t word);

/* BAR.RESULT from a WarpBARState word (spec-reading decision 7). */
void bar_result_of(uint32_t word, uint32_t *rd, bool *pu);

/* The fields of the state word (layout above bar_state_word). */
#define BAR_WORD_ARRIVALS_SHIFT 0   /* 7 bits: count / 32, up to 4064 / 32 */
#define BAR_WORD_EXPECTED_SHIFT 7   /* 7 bits: expected / 32               */
#define BAR_WORD_KIND_SHIFT 14      /* 2 bits: enum bar_kind               */
#define BAR_WORD_REDOP_SHIFT 16     /* 2 bits: BARREDOp                    */
#define BAR_WORD_AND (1u << 18)
#define BAR_WORD_POPC_SHIFT 19      /* 11 bits: 0..1024                    */
#define BAR_WORD_VALID (1u << 30)
#define BAR_WORD_PHASE (1u << 31)
#define BAR_WORD_COUNT_MASK 0x7fu   /* the arrivals and expected fields    */
#define BAR_WORD_POPC_MASK 0x7ffu

#endif
