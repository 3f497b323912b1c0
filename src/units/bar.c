/* bar.c — barrier rules of seed 000 (see bar.h and doc/spec-reading.md, decisions 1-8). */
#include "units/bar.h"
#include "base/bits.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

void bar_init(bar_unit *u, uint32_t nwarps)
{
	memset(u, 0, sizeof *u);
	u->nwarps = nwarps;
	u->all_count = 32u * nwarps;
}

static const char *kind_name(unsigned k)
{
	return k == BAR_KIND_RED ? "BAR.RED" : k == BAR_KIND_SYNC ? "BAR.SYNC/ARV" : "none";
}

/* 000: "cnt = 0: barrier计数 + 已经完全退出的warp数 * 32 = CTA内线程总数"
 * (thread total rounded up to whole warps, decision 2);
 * "cnt > 0: barrier计数 = cnt". */
static bool bar_complete(const bar_unit *u, const bar_state *b)
{
	if (b->count == 0)
		return false;
	if (b->expected == 0)
		return b->count == u->all_count; /* = 32 x nwarps - 32 x exited warps */
	return b->count == b->expected;
}

/* Complete barrier b: hand back the warps to wake, reset for reuse. */
static uint32_t bar_release(bar_state *b, uint32_t *red_done, uint32_t *red_word)
{
	uint32_t wake = b->waiters;
	*red_word = 0;
	if (b->kind == BAR_KIND_RED) {
		/* each participating warp gets a copy of the state with the result
		 * (000: "每个参与同步的线程所在的warp都会获得一个包含归约结果的副本") */
		*red_done = b->arrived;
		*red_word = bar_state_word(b) | BAR_WORD_VALID;
	} else {
		*red_done = 0;
	}
	uint32_t phase = b->phase + 1;
	memset(b, 0, offsetof(bar_state, arrive_pc));
	b->phase = phase;
	return wake;
}

bar_result bar_arrive(bar_unit *u, uint32_t warp, const bar_arrival *a,
		      uint32_t *wake, uint32_t *red_done, uint32_t *red_word,
		      bool *completed, char *msg, size_t msglen)
{
	bar_state *b = &u->b[a->id < WE_BAR_SLOTS ? a->id : a->id & 15u];
	u->dirty |= 1u << (a->id < WE_BAR_SLOTS ? a->id : a->id & 15u);
	*wake = 0;
	*red_done = 0;
	*completed = false;
	if (a->cnt % 32u) {
		snprintf(msg, msglen, "barrier %u: count %u is not a multiple of 32", a->id, a->cnt);
		return BAR_FAULT;
	}
	if (!a->wait && !a->scan && a->kind == BAR_KIND_SYNC && a->cnt == 0) {
		snprintf(msg, msglen, "barrier %u: BAR.ARV needs a count > 0", a->id);
		return BAR_FAULT;
	}
	if (b->count == 0) {
		b->expected = a->cnt;
		b->kind = a->kind;
		b->redop = a->redop;
		b->red_and = a->kind == BAR_KIND_RED; /* AND of no input: only for RED */
		b->red_or = false;
		b->red_popc = 0;
		b->first_pc = a->pc;
		b->first_warp = warp;
	} else {
		if (b->kind != a->kind) {
			snprintf(msg, msglen,
				 "barrier %u: %s mixed with %s in one phase (first arrival: warp %u at PC 0x%llx)",
				 a->id, kind_name(a->kind), kind_name(b->kind), b->first_warp,
				 (unsigned long long)b->first_pc);
			return BAR_FAULT;
		}
		if (b->expected != a->cnt) {
			snprintf(msg, msglen,
				 "barrier %u: count %u differs from %u of the phase's first arrival (warp %u at PC 0x%llx)",
				 a->id, a->cnt, b->expected, b->first_warp, (unsigned long long)b->first_pc);
			return BAR_FAULT;
		}
		if (a->kind == BAR_KIND_RED && b->redop != a->redop) {
			snprintf(msg, msglen,
				 "barrier %u: reduction operator differs from the phase's first arrival (warp %u at PC 0x%llx)",
				 a->id, b->first_warp, (unsigned long long)b->first_pc);
			return BAR_FAULT;
		}
	}
	/* decision 1: +32 per warp execution, whatever its active mask */
	b->count += 32u;
	b->arrived |= 1u << warp;
	b->arrive_pc[warp & 31u] = a->pc;
	uint32_t scan_word = 0;
	if (a->scan) {
		/* 003: the sum of the predicates of every thread that executed a
		 * BAR instruction on this barrier before this warp; its own
		 * excluded.  The word reads like a POPC result (BAR.RESULT). */
		scan_word = BAR_WORD_VALID | (uint32_t)BAR_KIND_SYNC << BAR_WORD_KIND_SHIFT |
			    2u << BAR_WORD_REDOP_SHIFT | (b->scan_sum & BAR_WORD_POPC_MASK) << BAR_WORD_POPC_SHIFT;
		b->scan_sum += popc32(a->pred & a->lanes);
	}
	if (a->kind == BAR_KIND_RED) {
		uint32_t t = a->pred & a->lanes;
		b->red_popc += popc32(t);
		b->red_and = b->red_and && t == a->lanes;
		b->red_or = b->red_or || t != 0;
	}
	if (bar_complete(u, b)) {
		*completed = true;
		*wake = bar_release(b, red_done, red_word);
	} else if (a->wait) {
		b->waiters |= 1u << warp;
		return BAR_BLOCKED;
	}
	if (a->scan)
		*red_word = scan_word;
	return BAR_PASSED;
}

bool bar_arrive_all_ok(const bar_unit *u, uint32_t n, const bar_arrival *a)
{
	if (a->id >= WE_NUM_BARRIERS || a->kind != BAR_KIND_SYNC || a->scan || a->cnt % 32u ||
	    (!a->wait && a->cnt == 0))
		return false;
	const bar_state *b = &u->b[a->id];
	/* an empty phase with nobody waiting (R2B may have emptied one that
	 * had waiters), and these arrivals are exactly the ones it needs:
	 * the first n - 1 would wait, the last complete it and wake them */
	return n && !b->count && !b->waiters && 32u * n == (a->cnt ? a->cnt : u->all_count);
}

bool bar_arrive_all(bar_unit *u, uint32_t n, const bar_arrival *a)
{
	if (!bar_arrive_all_ok(u, n, a))
		return false;
	bar_arrive_all_now(u, a);
	return true;
}

void bar_arrive_all_now(bar_unit *u, const bar_arrival *a)
{
	bar_state *b = &u->b[a->id];
	u->dirty |= 1u << a->id;
	/* what bar_release leaves (R2B may have left other fields set) */
	uint32_t wake, red_done, red_word;
	wake = bar_release(b, &red_done, &red_word);
	(void)wake, (void)red_done, (void)red_word;
}

uint32_t bar_warp_exited(bar_unit *u, uint32_t warp, unsigned *ncompleted,
			 uint32_t *red_done, uint32_t red_words[32])
{
	uint32_t wake = 0;
	*ncompleted = 0;
	*red_done = 0;
	bar_warp_exited_idle(u, warp);
	/* decision 2: a warp that exits can complete a cnt = 0 barrier (only
	 * a barrier touched since bar_init can have arrivals; in id order) */
	for (uint32_t m = u->dirty; m; m &= m - 1) {
		bar_state *b = &u->b[__builtin_ctz(m)];
		if (b->count && b->expected == 0 && bar_complete(u, b)) {
			uint32_t rd, rw;
			wake |= bar_release(b, &rd, &rw);
			(*ncompleted)++;
			*red_done |= rd;
			for (unsigned w = 0; w < 32; w++)
				if ((rd >> w) & 1u)
					red_words[w] = rw;
		}
	}
	return wake;
}

/* Barrier state word, 32 bits (spec-reading decision 8; the table and
 * what the word leaves out are in doc/spec-reading.md):
 *   [6:0]   arrivals in this phase (count / 32: up to 4064 / 32 = 127, a
 *           warp arriving once per divergent piece)
 *   [13:7]  expected count / 32 (0 = all live warps; 12-bit counts / 32)
 *   [15:14] kind: 0 none, 1 SYNC/ARV, 2 RED
 *   [17:16] reduction operator (BARREDOp: AND, OR, POPC)
 *   [18]    AND of the reduction so far / result
 *   [29:19] popcount so far / result (0..1024)
 *   [30]    valid: set only in WarpBARState copies (bar_release, BAR.SCAN),
 *           never here; bar_set_state_word ignores it
 *   [31]    phase parity
 * The OR of the reduction has no bit of its own: it is popcount != 0 in
 * every phase the unit reaches, and its bit went to the arrivals.
 * Not in the word: which warps arrived (ARV arrivals included), the
 * waiters, the first arrival, the BAR.SCAN sum, the phase beyond parity.
 */
uint32_t bar_state_word(const bar_state *b)
{
	uint32_t w = 0;
	w |= ((b->count / 32u) & BAR_WORD_COUNT_MASK) << BAR_WORD_ARRIVALS_SHIFT;
	w |= ((b->expected / 32u) & BAR_WORD_COUNT_MASK) << BAR_WORD_EXPECTED_SHIFT;
	w |= (uint32_t)(b->kind & 3u) << BAR_WORD_KIND_SHIFT;
	w |= (uint32_t)(b->redop & 3u) << BAR_WORD_REDOP_SHIFT;
	w |= b->red_and ? BAR_WORD_AND : 0u;
	w |= (b->red_popc & BAR_WORD_POPC_MASK) << BAR_WORD_POPC_SHIFT;
	w |= (b->phase & 1u) ? BAR_WORD_PHASE : 0u;
	return w;
}

void bar_set_state_word(bar_state *b, uint32_t w)
{
	b->count = ((w >> BAR_WORD_ARRIVALS_SHIFT) & BAR_WORD_COUNT_MASK) * 32u;
	b->expected = ((w >> BAR_WORD_EXPECTED_SHIFT) & BAR_WORD_COUNT_MASK) * 32u;
	b->kind = (uint8_t)((w >> BAR_WORD_KIND_SHIFT) & 3u);
	b->redop = (uint8_t)((w >> BAR_WORD_REDOP_SHIFT) & 3u);
	b->red_and = (w & BAR_WORD_AND) != 0;
	b->red_popc = (w >> BAR_WORD_POPC_SHIFT) & BAR_WORD_POPC_MASK;
	b->red_or = b->red_popc != 0;
	b->phase = (b->phase & ~1u) | (w >> 31);
	/* the word does not say which warps arrived: keep only the warps that
	 * are certainly among them, the ones blocked on the barrier */
	b->arrived = b->waiters;
}

/* decision 7: after .POPC Rd = popcount, pu = popcount != 0; after
 * .AND/.OR pu = result, Rd = 0xFFFFFFFF or 0. */
void bar_result_of(uint32_t w, uint32_t *rd, bool *pu)
{
	unsigned op = (w >> BAR_WORD_REDOP_SHIFT) & 3u;
	uint32_t popc = (w >> BAR_WORD_POPC_SHIFT) & BAR_WORD_POPC_MASK;
	if (op == 2) { /* POPC */
		*rd = popc;
		*pu = *rd != 0;
	} else {
		/* OR: some predicate was true, i.e. popcount != 0 (bar_state_word) */
		bool r = op == 0 ? (w & BAR_WORD_AND) != 0 : popc != 0;
		*pu = r;
		*rd = r ? 0xffffffffu : 0u;
	}
}
