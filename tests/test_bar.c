/* test_bar — the barrier rules of bar.c (seed 000, spec-reading decisions 1-8),
 * driven directly: arrivals, completion, exits, reductions, exceptions,
 * and the state word. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units/bar.h"

typedef struct arr_out {
	bar_result r;
	uint32_t wake, red_done, red_word;
	bool completed;
	char msg[256];
} arr_out;

static arr_out arrive(bar_unit *u, uint32_t warp, unsigned id, unsigned cnt, uint8_t kind, bool wait,
		      uint8_t redop, uint32_t lanes, uint32_t pred)
{
	arr_out o;
	bar_arrival a = { .id = id, .cnt = cnt, .kind = kind, .redop = redop, .wait = wait,
			  .lanes = lanes, .pred = pred, .pc = 0x40 };
	o.r = bar_arrive(u, warp, &a, &o.wake, &o.red_done, &o.red_word, &o.completed, o.msg, sizeof o.msg);
	return o;
}

static arr_out sync_(bar_unit *u, uint32_t w, unsigned id, unsigned cnt)
{
	return arrive(u, w, id, cnt, BAR_KIND_SYNC, true, 0, ~0u, 0);
}

START_TEST(sync_all_warps)
{
	for (uint32_t nw = 1; nw <= 32; nw++) {
		bar_unit u;
		bar_init(&u, nw);
		for (uint32_t w = 0; w < nw; w++) {
			arr_out o = sync_(&u, w, 0, 0);
			if (w + 1 < nw) {
				ck_assert_int_eq(o.r, BAR_BLOCKED);
				ck_assert(!o.completed);
			} else {
				ck_assert_int_eq(o.r, BAR_PASSED);
				ck_assert(o.completed);
				ck_assert_uint_eq(o.wake, nw == 32 ? 0x7fffffffu : (1u << (nw - 1)) - 1u);
			}
		}
		/* reset and reusable */
		ck_assert_uint_eq(u.b[0].count, 0);
		ck_assert_uint_eq(u.b[0].phase, 1);
	}
}
END_TEST

START_TEST(reuse_10000)
{
	bar_unit u;
	bar_init(&u, 4);
	for (unsigned it = 0; it < 10000; it++)
		for (uint32_t w = 0; w < 4; w++) {
			arr_out o = sync_(&u, w, 5, 128);
			ck_assert_int_eq(o.r, w == 3 ? BAR_PASSED : BAR_BLOCKED);
		}
	ck_assert_uint_eq(u.b[5].phase, 10000);
}
END_TEST

START_TEST(counted_subset)
{
	/* warps 0,1 use barrier 1 with count 64; warps 2,3 barrier 2 count 64 */
	bar_unit u;
	bar_init(&u, 4);
	ck_assert_int_eq(sync_(&u, 0, 1, 64).r, BAR_BLOCKED);
	ck_assert_int_eq(sync_(&u, 2, 2, 64).r, BAR_BLOCKED);
	arr_out o = sync_(&u, 1, 1, 64);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert_uint_eq(o.wake, 1u);
	o = sync_(&u, 3, 2, 64);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert_uint_eq(o.wake, 1u << 2);
}
END_TEST

START_TEST(arv_does_not_block)
{
	bar_unit u;
	bar_init(&u, 2);
	arr_out o = arrive(&u, 1, 0, 64, BAR_KIND_SYNC, false, 0, ~0u, 0);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert(!o.completed);
	o = sync_(&u, 0, 0, 64);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert(o.completed);
	ck_assert_uint_eq(o.wake, 0);
}
END_TEST

START_TEST(exits_complete_cnt0)
{
	/* early exit: warp 3 exits before the others arrive */
	bar_unit u;
	bar_init(&u, 4);
	unsigned nc;
	uint32_t rd, words[32];
	ck_assert_uint_eq(bar_warp_exited(&u, 3, &nc, &rd, words), 0);
	ck_assert_int_eq(sync_(&u, 0, 0, 0).r, BAR_BLOCKED);
	ck_assert_int_eq(sync_(&u, 1, 0, 0).r, BAR_BLOCKED);
	arr_out o = sync_(&u, 2, 0, 0);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert_uint_eq(o.wake, 3u);
	/* late exit: warps 0 and 1 wait, warp 2 exits and releases them */
	ck_assert_int_eq(sync_(&u, 0, 0, 0).r, BAR_BLOCKED);
	ck_assert_int_eq(sync_(&u, 1, 0, 0).r, BAR_BLOCKED);
	ck_assert_uint_eq(bar_warp_exited(&u, 2, &nc, &rd, words), 3u);
	ck_assert_uint_eq(nc, 1);
	/* an exit does not complete a counted barrier */
	bar_unit v;
	bar_init(&v, 2);
	ck_assert_int_eq(sync_(&v, 0, 1, 64).r, BAR_BLOCKED);
	ck_assert_uint_eq(bar_warp_exited(&v, 1, &nc, &rd, words), 0);
	ck_assert_uint_eq(nc, 0);
}
END_TEST

START_TEST(red_random)
{
	srand(12345);
	for (unsigned trial = 0; trial < 2000; trial++) {
		uint32_t nw = 1 + (uint32_t)rand() % 32;
		uint32_t last_lanes = 1 + (uint32_t)rand() % 32; /* partial last warp */
		uint8_t op = (uint8_t)(rand() % 3);
		bar_unit u;
		bar_init(&u, nw);
		uint32_t popc = 0;
		bool all = true, any = false;
		arr_out o = { 0 };
		for (uint32_t w = 0; w < nw; w++) {
			uint32_t valid = w + 1 == nw && last_lanes < 32 ? (1u << last_lanes) - 1u : ~0u;
			uint32_t lanes = valid & ((uint32_t)rand() | (uint32_t)rand() << 16); /* exited lanes */
			if (!lanes)
				lanes = 1;
			uint32_t pred = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
			if (rand() % 4 == 0)
				pred = ~0u;
			uint32_t t = pred & lanes;
			popc += (uint32_t)__builtin_popcount(t);
			all = all && t == lanes;
			any = any || t;
			o = arrive(&u, w, 7, 0, BAR_KIND_RED, true, op, lanes, pred);
			ck_assert_int_eq(o.r, w + 1 == nw ? BAR_PASSED : BAR_BLOCKED);
		}
		ck_assert(o.completed);
		ck_assert_uint_eq(o.red_done, nw == 32 ? ~0u : (1u << nw) - 1u);
		uint32_t rd;
		bool pu;
		bar_result_of(o.red_word, &rd, &pu);
		if (op == 2) {
			ck_assert_uint_eq(rd, popc);
			ck_assert(pu == (popc != 0));
		} else {
			bool r = op == 0 ? all : any;
			ck_assert(pu == r);
			ck_assert_uint_eq(rd, r ? 0xffffffffu : 0u);
		}
		ck_assert(o.red_word & BAR_WORD_VALID);
	}
}
END_TEST

START_TEST(exceptions)
{
	bar_unit u;
	bar_init(&u, 4);
	arr_out o = sync_(&u, 0, 1, 48);
	ck_assert_int_eq(o.r, BAR_FAULT);
	ck_assert_ptr_nonnull(strstr(o.msg, "not a multiple of 32"));
	o = arrive(&u, 0, 1, 0, BAR_KIND_SYNC, false, 0, ~0u, 0);
	ck_assert_int_eq(o.r, BAR_FAULT);
	ck_assert_ptr_nonnull(strstr(o.msg, "BAR.ARV needs a count > 0"));
	ck_assert_int_eq(sync_(&u, 0, 2, 96).r, BAR_BLOCKED);
	o = sync_(&u, 1, 2, 64);
	ck_assert_int_eq(o.r, BAR_FAULT);
	ck_assert_ptr_nonnull(strstr(o.msg, "count 64 differs from 96"));
	o = arrive(&u, 1, 2, 96, BAR_KIND_RED, true, 2, ~0u, 0);
	ck_assert_int_eq(o.r, BAR_FAULT);
	ck_assert_ptr_nonnull(strstr(o.msg, "BAR.RED mixed with BAR.SYNC/ARV"));
	ck_assert_int_eq(arrive(&u, 0, 3, 64, BAR_KIND_RED, true, 0, ~0u, 0).r, BAR_BLOCKED);
	o = arrive(&u, 1, 3, 64, BAR_KIND_RED, true, 1, ~0u, 0);
	ck_assert_int_eq(o.r, BAR_FAULT);
	ck_assert_ptr_nonnull(strstr(o.msg, "reduction operator differs"));
}
END_TEST

START_TEST(state_word_roundtrip)
{
	/* every field of the word is stored as it is (bit 30, WarpBARState's
	 * valid bit, excepted), so every other word reads back unchanged */
	srand(7);
	for (unsigned i = 0; i < 100000; i++) {
		uint32_t w = (uint32_t)rand() ^ ((uint32_t)rand() << 15) ^ ((uint32_t)rand() << 30);
		w &= ~(BAR_WORD_VALID);
		bar_state b;
		memset(&b, 0, sizeof b);
		bar_set_state_word(&b, w);
		ck_assert_uint_eq(bar_state_word(&b), w);
		/* the OR of the reduction is the popcount's being non-zero */
		ck_assert_int_eq(b.red_or, ((w >> BAR_WORD_POPC_SHIFT) & BAR_WORD_POPC_MASK) != 0);
	}
	/* and from a live barrier: save, disturb, restore */
	bar_unit u;
	bar_init(&u, 8);
	sync_(&u, 0, 4, 256);
	sync_(&u, 1, 4, 256);
	uint32_t saved = bar_state_word(&u.b[4]);
	bar_set_state_word(&u.b[4], 0);
	bar_set_state_word(&u.b[4], saved);
	ck_assert_uint_eq(bar_state_word(&u.b[4]), saved);
	ck_assert_uint_eq(u.b[4].count, 64);
	ck_assert_uint_eq(u.b[4].expected, 256);
}
END_TEST

/* Every arrival count a phase can hold, 0..126 of count 0xfe0 (a warp
 * arrives once per divergent piece, so one warp can make them all):
 * saved mid-phase, cleared, restored, the phase still completes at its
 * 127th arrival and wakes its waiters.  With a 6-bit arrivals field a
 * phase restored at 64 or more never completed (issue 15). */
START_TEST(state_word_every_arrival_count)
{
	for (unsigned n = 0; n < 127; n++) {
		bar_unit u;
		bar_init(&u, 2);
		/* warp 1 waits in the phase (when n > 0), warp 0 makes the rest */
		for (unsigned k = 0; k < n; k++)
			ck_assert_int_eq(arrive(&u, k == 0 ? 1 : 0, 5, 0xfe0, BAR_KIND_SYNC, k == 0, 0, ~0u, 0).r,
					 k == 0 ? BAR_BLOCKED : BAR_PASSED);
		uint32_t saved = bar_state_word(&u.b[5]);
		ck_assert_uint_eq((saved >> BAR_WORD_ARRIVALS_SHIFT) & BAR_WORD_COUNT_MASK, n);
		ck_assert_uint_eq((saved >> BAR_WORD_EXPECTED_SHIFT) & BAR_WORD_COUNT_MASK, n ? 127 : 0);
		bar_set_state_word(&u.b[5], 0);
		ck_assert_uint_eq(u.b[5].count, 0);
		bar_set_state_word(&u.b[5], saved);
		ck_assert_uint_eq(bar_state_word(&u.b[5]), saved);
		ck_assert_uint_eq(u.b[5].count, 32u * n);
		for (unsigned k = n; k < 127; k++) {
			arr_out o = arrive(&u, 0, 5, 0xfe0, BAR_KIND_SYNC, k == 126, 0, ~0u, 0);
			if (k < 126) {
				ck_assert_int_eq(o.r, BAR_PASSED);
				ck_assert(!o.completed);
			} else {
				ck_assert_msg(o.completed, "%u arrivals restored: no completion at the 127th", n);
				ck_assert_uint_eq(o.wake, n ? 0x2u : 0u);
			}
		}
		ck_assert_uint_eq(u.b[5].count, 0);
		ck_assert_uint_eq(u.b[5].phase, 1);
	}
}
END_TEST

/* ---- bar_arrive_all: a lockstep group completing an empty phase at once */

static bar_arrival sync_arrival(unsigned id, unsigned cnt, bool wait)
{
	bar_arrival a = { .id = id, .cnt = cnt, .kind = BAR_KIND_SYNC, .wait = wait, .lanes = ~0u,
			  .pred = 0, .pc = 0x40 };
	return a;
}

/* NULL if x and y agree in every field of the unit and of each barrier
 * slot that is read outside the phase it was written in (arrive_pc is
 * read only for the warps of `arrived`, see bar.h, and is not compared),
 * else a description of the first difference. */
static const char *unit_diff(const bar_unit *x, const bar_unit *y, char *buf, size_t n)
{
#define UDIFF(fx, fy, what, ...)                                                              \
	do {                                                                                  \
		if ((fx) != (fy)) {                                                           \
			snprintf(buf, n, what ": %llu (all at once) != %llu (one by one)",    \
				 __VA_ARGS__, (unsigned long long)(fx), (unsigned long long)(fy)); \
			return buf;                                                           \
		}                                                                             \
	} while (0)
#define UFIELD(f) UDIFF(x->b[s].f, y->b[s].f, "barrier %u: " #f, s)
	UDIFF(x->nwarps, y->nwarps, "%s", "nwarps");
	UDIFF(x->exited, y->exited, "%s", "exited");
	UDIFF(x->all_count, y->all_count, "%s", "all_count");
	UDIFF(x->dirty, y->dirty, "%s", "dirty");
	for (unsigned s = 0; s < WE_BAR_SLOTS; s++) {
		UFIELD(count);
		UFIELD(expected);
		UFIELD(kind);
		UFIELD(redop);
		UFIELD(red_and);
		UFIELD(red_or);
		UFIELD(red_popc);
		UFIELD(phase);
		UFIELD(arrived);
		UFIELD(waiters);
		UFIELD(first_pc);
		UFIELD(first_warp);
		UFIELD(scan_sum);
		UDIFF(bar_state_word(&x->b[s]), bar_state_word(&y->b[s]), "barrier %u: state word", s);
	}
	return NULL;
#undef UFIELD
#undef UDIFF
}

#define ck_assert_units_equal(x, y)                                   \
	do {                                                          \
		char diff_[160];                                      \
		const char *d_ = unit_diff((x), (y), diff_, sizeof diff_); \
		ck_assert_msg(d_ == NULL, "%s", d_ ? d_ : "");        \
	} while (0)

/* The first n warps of `live` (a warp mask), in order, arrive one by one
 * with a; returns the last arrival's outcome.  *early_ok: the ones before
 * did not complete the phase and blocked (SYNC) or passed (ARV). */
static arr_out arrive_seq(bar_unit *u, uint32_t live, uint32_t n, const bar_arrival *a, bool *early_ok)
{
	arr_out o = { 0 };
	uint32_t m = live;
	*early_ok = true;
	for (uint32_t i = 0; i < n; i++, m &= m - 1) {
		uint32_t w = (uint32_t)__builtin_ctz(m);
		o.r = bar_arrive(u, w, a, &o.wake, &o.red_done, &o.red_word, &o.completed, o.msg,
				 sizeof o.msg);
		if (i + 1 < n && (o.completed || o.r != (a->wait ? BAR_BLOCKED : BAR_PASSED)))
			*early_ok = false;
	}
	return o;
}

/* the first n warps of mask m */
static uint32_t first_n(uint32_t m, uint32_t n)
{
	uint32_t r = 0;
	for (uint32_t i = 0; i < n && m; i++, m &= m - 1)
		r |= m & -m;
	return r;
}

/* One phase: u's n warps of `live` arrive at barrier a->id all at once, v's
 * one by one.  NULL if both complete the phase and agree, else what went
 * wrong.  (One assertion per case in the callers: libcheck's assertions
 * are not free, and the sweep runs tens of thousands of cases.) */
static const char *all_vs_seq(bar_unit *u, bar_unit *v, uint32_t live, uint32_t n, const bar_arrival *a,
			      char *buf, size_t len)
{
	uint32_t phase0 = u->b[a->id].phase;
	bool early_ok;
	if (!bar_arrive_all_ok(u, n, a))
		return "bar_arrive_all_ok refused";
	if (!bar_arrive_all(u, n, a))
		return "bar_arrive_all refused";
	arr_out o = arrive_seq(v, live, n, a, &early_ok);
	if (!early_ok)
		return "one by one: an arrival before the last completed the phase or did not wait";
	if (o.r != BAR_PASSED || !o.completed)
		return "one by one: the last arrival did not complete the phase";
	/* the first n - 1 waited (SYNC) and are released by the last */
	if (o.wake != (a->wait ? first_n(live, n - 1) : 0u) || o.red_done)
		return "one by one: wrong wake mask";
	if (u->b[a->id].phase != phase0 + 1 || u->b[a->id].count || !((u->dirty >> a->id) & 1u))
		return "all at once: phase not advanced, count left or not marked dirty";
	return unit_diff(u, v, buf, len);
}

#define ck_assert_all_vs_seq(u, v, live, n, a)                                                \
	do {                                                                                  \
		char m_[160];                                                                 \
		const char *d_ = all_vs_seq((u), (v), (live), (n), (a), m_, sizeof m_);       \
		ck_assert_msg(d_ == NULL, "nwarps %u exited 0x%x id %u cnt %u wait %d n %u: %s", \
			      (u)->nwarps, (u)->exited, (a)->id, (a)->cnt, (a)->wait, (n), d_ ? d_ : ""); \
	} while (0)

START_TEST(arrive_all_matches_sequential)
{
	/* exit patterns: none, the last warp, warp 0, every third warp */
	unsigned cases = 0;
	for (uint32_t nw = 1; nw <= 32; nw++) {
		uint32_t all = nw == 32 ? ~0u : (1u << nw) - 1u;
		for (unsigned pat = 0; pat < 4; pat++) {
			uint32_t ex = 0;
			if (pat == 1)
				ex = 1u << (nw - 1);
			else if (pat == 2)
				ex = 1u;
			else if (pat == 3)
				ex = all & 0x92492492u; /* warps 1, 4, 7, ... */
			if (pat && (ex == 0 || ex == all))
				continue; /* same as no exits, or no warp left */
			uint32_t live = all & ~ex;
			uint32_t nlive = (uint32_t)__builtin_popcount(live);
			for (unsigned id = 0; id < WE_NUM_BARRIERS; id++) {
				/* cnt = 0 (all live warps), then cnt = 32n for n = 1..live */
				for (uint32_t n = 0; n <= nlive; n++) {
					bar_unit u, v;
					bar_init(&u, nw);
					unsigned nc;
					uint32_t rd, words[32], woken = 0;
					for (uint32_t m = ex; m; m &= m - 1)
						woken |= bar_warp_exited(&u, (uint32_t)__builtin_ctz(m), &nc, &rd,
									 words);
					if (woken || u.all_count != 32u * nlive || u.exited != ex)
						ck_abort_msg("exits: nwarps %u exited 0x%x", nw, ex);
					memcpy(&v, &u, sizeof v);
					bar_arrival a = sync_arrival(id, 32u * n, true);
					/* two phases in a row: the barrier is reusable */
					ck_assert_all_vs_seq(&u, &v, live, n ? n : nlive, &a);
					ck_assert_all_vs_seq(&u, &v, live, n ? n : nlive, &a);
					if (u.b[id].phase != 2 || u.dirty != 1u << id || u.exited != ex)
						ck_abort_msg("nwarps %u exited 0x%x id %u n %u: phase %u dirty 0x%x",
							     nw, ex, id, n, u.b[id].phase, u.dirty);
					cases++;
				}
			}
		}
	}
	ck_assert_uint_eq(cases, 31936); /* 16 ids x (live warps + 1) over 125 (CTA size, exits) pairs */
}
END_TEST

START_TEST(arrive_all_with_other_barriers_busy)
{
	/* other barriers mid-phase (waiters, an ARV, a RED) are left alone,
	 * and a sequential phase after bar_arrive_all matches too */
	bar_unit u, v;
	bar_init(&u, 8);
	ck_assert_int_eq(sync_(&u, 6, 1, 64).r, BAR_BLOCKED);
	ck_assert_int_eq(arrive(&u, 7, 2, 96, BAR_KIND_SYNC, false, 0, ~0u, 0).r, BAR_PASSED);
	ck_assert_int_eq(arrive(&u, 5, 3, 0, BAR_KIND_RED, true, 2, ~0u, 0x5u).r, BAR_BLOCKED);
	unsigned nc;
	uint32_t rd, words[32];
	ck_assert_uint_eq(bar_warp_exited(&u, 4, &nc, &rd, words), 0);
	memcpy(&v, &u, sizeof v);
	bar_arrival a = sync_arrival(9, 128, true);
	ck_assert_all_vs_seq(&u, &v, 0x0fu, 4, &a);
	ck_assert_all_vs_seq(&u, &v, 0x0fu, 4, &a);
	ck_assert_uint_eq(u.b[9].phase, 2);
	ck_assert_uint_eq(u.b[1].waiters, 1u << 6);
	ck_assert_uint_eq(u.b[2].count, 32);
	ck_assert_uint_eq(u.b[3].red_popc, 2);
	ck_assert_uint_eq(u.dirty, (1u << 1) | (1u << 2) | (1u << 3) | (1u << 9));
	/* phase 3 one by one on both: same outcome, same state */
	bool eu, ev;
	arr_out ou = arrive_seq(&u, 0x0fu, 4, &a, &eu), ov = arrive_seq(&v, 0x0fu, 4, &a, &ev);
	ck_assert(eu && ev);
	ck_assert(ou.completed && ov.completed);
	ck_assert_uint_eq(ou.wake, 0x7u);
	ck_assert_uint_eq(ov.wake, 0x7u);
	ck_assert_uint_eq(u.b[9].phase, 3);
	ck_assert_units_equal(&u, &v);
}
END_TEST

static void check_refused(const bar_unit *u0, uint32_t n, bar_arrival a)
{
	bar_unit u;
	memcpy(&u, u0, sizeof u);
	ck_assert_msg(!bar_arrive_all_ok(&u, n, &a) && !bar_arrive_all(&u, n, &a),
		      "accepted: n %u id %u cnt %u kind %u wait %d scan %d", n, a.id, a.cnt, a.kind, a.wait, a.scan);
	ck_assert_msg(memcmp(&u, u0, sizeof u) == 0, "refused but changed: n %u id %u cnt %u", n, a.id, a.cnt);
}

START_TEST(arrive_all_refusals)
{
	/* 8 warps, warp 7 exited (all_count 224), barrier 1 with a waiter */
	bar_unit u;
	bar_init(&u, 8);
	unsigned nc;
	uint32_t rd, words[32];
	ck_assert_uint_eq(bar_warp_exited(&u, 7, &nc, &rd, words), 0);
	ck_assert_uint_eq(u.all_count, 224);
	ck_assert_int_eq(sync_(&u, 0, 1, 0).r, BAR_BLOCKED);
	ck_assert_int_eq(sync_(&u, 3, 2, 128).r, BAR_BLOCKED);
	ck_assert_int_eq(arrive(&u, 4, 4, 96, BAR_KIND_SYNC, false, 0, ~0u, 0).r, BAR_PASSED);

	/* the phase already has arrivals: cnt = 0, counted, ARV-only */
	check_refused(&u, 7, sync_arrival(1, 0, true));
	check_refused(&u, 6, sync_arrival(1, 0, true));
	check_refused(&u, 4, sync_arrival(2, 128, true));
	check_refused(&u, 3, sync_arrival(2, 128, true));
	check_refused(&u, 3, sync_arrival(4, 96, true));
	check_refused(&u, 2, sync_arrival(4, 96, false));
	/* cnt > 0 and not 32n: larger, smaller */
	check_refused(&u, 2, sync_arrival(5, 96, true));
	check_refused(&u, 4, sync_arrival(5, 96, true));
	check_refused(&u, 1, sync_arrival(5, 4064, true));
	/* cnt = 0 and 32n != all_count (224): fewer, the CTA with the exited warp, more */
	check_refused(&u, 6, sync_arrival(5, 0, true));
	check_refused(&u, 8, sync_arrival(5, 0, true));
	check_refused(&u, 1, sync_arrival(5, 0, true));
	/* RED, BAR.SCAN, no kind */
	bar_arrival r = sync_arrival(5, 0, true);
	r.kind = BAR_KIND_RED;
	check_refused(&u, 7, r);
	r.cnt = 96;
	check_refused(&u, 3, r);
	bar_arrival sc = sync_arrival(5, 0, false);
	sc.scan = true;
	check_refused(&u, 7, sc);
	sc.cnt = 96;
	check_refused(&u, 3, sc);
	bar_arrival none = sync_arrival(5, 96, true);
	none.kind = BAR_KIND_NONE;
	check_refused(&u, 3, none);
	/* cnt not a multiple of 32 (bar_arrive would fault) */
	check_refused(&u, 3, sync_arrival(5, 80, true));
	check_refused(&u, 3, sync_arrival(5, 112, true));
	check_refused(&u, 7, sync_arrival(5, 16, true));
	/* ARV with cnt = 0 (bar_arrive would fault), even for all live warps */
	check_refused(&u, 7, sync_arrival(5, 0, false));
	/* not an addressable barrier: BAR.SYNCALL's, beyond */
	check_refused(&u, 7, sync_arrival(BAR_SYNCALL_ID, 0, true));
	check_refused(&u, 3, sync_arrival(BAR_SYNCALL_ID, 96, true));
	check_refused(&u, 3, sync_arrival(31, 96, true));

	/* and the same unit accepts the matching arrivals: proof that the
	 * refusals above were for the reasons given */
	bar_unit w;
	memcpy(&w, &u, sizeof w);
	ck_assert(bar_arrive_all(&w, 7, &(bar_arrival){ .id = 5, .kind = BAR_KIND_SYNC, .wait = true }));
	ck_assert(bar_arrive_all(&w, 3, &(bar_arrival){ .id = 5, .cnt = 96, .kind = BAR_KIND_SYNC }));
	ck_assert(bar_arrive_all(&w, 3, &(bar_arrival){ .id = 15, .cnt = 96, .kind = BAR_KIND_SYNC, .wait = true }));
	ck_assert_uint_eq(w.b[5].phase, 2);
	ck_assert_uint_eq(w.b[15].phase, 1);
	ck_assert_uint_eq(w.dirty, u.dirty | (1u << 5) | (1u << 15));
	ck_assert_uint_eq(w.b[1].count, 32);
	ck_assert_uint_eq(w.b[1].waiters, 1u);
}
END_TEST

START_TEST(arrive_all_arv_counted)
{
	/* BAR.ARV with cnt = 32n: accepted, completes the phase, matches n
	 * ARVs one by one (no warp waits, none is woken) */
	for (uint32_t n = 1; n <= 8; n++) {
		bar_unit u, v;
		bar_init(&u, 8);
		memcpy(&v, &u, sizeof v);
		bar_arrival a = sync_arrival(n + 3, 32u * n, false);
		ck_assert(bar_arrive_all(&u, n, &a));
		ck_assert_uint_eq(u.b[n + 3].phase, 1);
		ck_assert_uint_eq(u.b[n + 3].count, 0);
		ck_assert_uint_eq(u.b[n + 3].expected, 0);
		ck_assert_uint_eq(u.b[n + 3].kind, BAR_KIND_NONE);
		ck_assert_uint_eq(u.b[n + 3].arrived, 0);
		ck_assert_uint_eq(u.b[n + 3].waiters, 0);
		ck_assert_uint_eq(u.dirty, 1u << (n + 3));
		bool early_ok;
		arr_out o = arrive_seq(&v, 0xffu, n, &a, &early_ok);
		ck_assert(early_ok);
		ck_assert_int_eq(o.r, BAR_PASSED);
		ck_assert(o.completed);
		ck_assert_uint_eq(o.wake, 0);
		ck_assert_units_equal(&u, &v);
		ck_assert_all_vs_seq(&u, &v, 0xffu, n, &a);
		ck_assert_uint_eq(u.b[n + 3].phase, 2);
	}
	/* ARV alone and SYNC together: 2 ARVs then the 2-warp group SYNC on
	 * the same barrier is not an empty phase */
	bar_unit u;
	bar_init(&u, 4);
	bar_arrival arv = sync_arrival(0, 128, false);
	bool early_ok;
	arr_out o = arrive_seq(&u, 0x3u, 2, &arv, &early_ok);
	ck_assert(early_ok);
	ck_assert_int_eq(o.r, BAR_PASSED);
	ck_assert(!o.completed);
	ck_assert_uint_eq(u.b[0].count, 64);
	check_refused(&u, 2, sync_arrival(0, 128, true));
}
END_TEST

/* A phase with count 0 whose other fields are not the reset ones, which
 * only bar_set_state_word (R2B, eng_bar_set) makes: bar_arrive_all must
 * leave what n bar_arrive calls leave (bar_release clears the slot), or
 * refuse when they would wake warps (waiters left by R2B). */
/* either refused, the unit unchanged, or accepted and equal to one by one */
static void check_refused_or_same(bar_unit *u, bar_unit *v, uint32_t live, uint32_t n, const bar_arrival *a)
{
	bar_unit w;
	memcpy(&w, u, sizeof w);
	if (!bar_arrive_all(&w, n, a)) {
		ck_assert_msg(memcmp(&w, u, sizeof w) == 0, "refused but changed");
		return;
	}
	ck_assert_all_vs_seq(u, v, live, n, a);
}

START_TEST(arrive_all_r2b_stale_fields)
{
	/* a state word with no arrivals but kind RED, expected 96, POPC 5 */
	bar_unit u, v;
	bar_init(&u, 4);
	u.dirty |= 1u << 3;
	bar_set_state_word(&u.b[3], (3u << BAR_WORD_EXPECTED_SHIFT) | (BAR_KIND_RED << BAR_WORD_KIND_SHIFT) |
					    (2u << BAR_WORD_REDOP_SHIFT) | BAR_WORD_AND | (5u << BAR_WORD_POPC_SHIFT));
	ck_assert_uint_eq(u.b[3].expected, 96);
	ck_assert_uint_eq(u.b[3].red_popc, 5);
	ck_assert_uint_eq(u.b[3].count, 0);
	memcpy(&v, &u, sizeof v);
	check_refused_or_same(&u, &v, 0x3u, 2, &(bar_arrival){ .id = 3, .cnt = 64, .kind = BAR_KIND_SYNC,
							   .wait = true, .pc = 0x40 });
}
END_TEST

START_TEST(arrive_all_r2b_stale_waiters)
{
	/* warps 0 and 1 wait on barrier 3 (cnt 128); a state word of 0 drops
	 * the count but not the waiters; warps 2 and 3 then complete a cnt 64
	 * phase: one by one, the last wakes warps 0..2, so all at once (which
	 * wakes nobody) must refuse */
	bar_unit u, v;
	bar_init(&u, 4);
	ck_assert_int_eq(sync_(&u, 0, 3, 128).r, BAR_BLOCKED);
	ck_assert_int_eq(sync_(&u, 1, 3, 128).r, BAR_BLOCKED);
	bar_set_state_word(&u.b[3], 0);
	ck_assert_uint_eq(u.b[3].count, 0);
	ck_assert_uint_eq(u.b[3].waiters, 0x3u);
	memcpy(&v, &u, sizeof v);
	bar_arrival a = sync_arrival(3, 64, true);
	bool early_ok;
	arr_out o = arrive_seq(&v, 0xcu, 2, &a, &early_ok);
	ck_assert(early_ok);
	ck_assert(o.completed);
	ck_assert_uint_eq(o.wake, 0x7u);
	check_refused(&u, 2, a);
}
END_TEST

START_TEST(arrive_all_r2b_stale_scan_sum)
{
	/* warp 0's BAR.SCAN (5 true predicates) on barrier 3, then a state
	 * word of 0 (first_pc, first_warp and scan_sum stay); the group
	 * completes the phase; the next phase's first BAR.SCAN must read a
	 * prefix sum of 0 */
	bar_unit u, v;
	bar_init(&u, 4);
	bar_arrival s = { .id = 3, .cnt = 128, .kind = BAR_KIND_SYNC, .scan = true, .lanes = ~0u,
			  .pred = 0x1fu, .pc = 0x40 };
	arr_out o;
	ck_assert_int_eq(bar_arrive(&u, 0, &s, &o.wake, &o.red_done, &o.red_word, &o.completed, o.msg,
				    sizeof o.msg),
			 BAR_PASSED);
	bar_set_state_word(&u.b[3], 0);
	ck_assert_uint_eq(u.b[3].scan_sum, 5);
	memcpy(&v, &u, sizeof v);
	bar_arrival a = sync_arrival(3, 128, true);
	check_refused_or_same(&u, &v, 0xfu, 4, &a);
	if (u.b[3].phase == 0) /* refused: the group arrives one by one */
		ck_assert(arrive_seq(&u, 0xfu, 4, &a, &(bool){ 0 }).completed);
	ck_assert_uint_eq(u.b[3].phase, 1);
	ck_assert_int_eq(bar_arrive(&u, 0, &s, &o.wake, &o.red_done, &o.red_word, &o.completed, o.msg,
				    sizeof o.msg),
			 BAR_PASSED);
	ck_assert_uint_eq((o.red_word >> BAR_WORD_POPC_SHIFT) & BAR_WORD_POPC_MASK, 0);
}
END_TEST

START_TEST(arrive_all_r2b_no_warps)
{
	/* n = 0 is no arrival and completes nothing (bar_complete needs a
	 * count), so bar_arrive_all must refuse it even when, with every warp
	 * exited, all_count is 0 = 32 x 0.  eng_barrier_group never passes
	 * n = 0 (n = group + 1), so this is about the contract only. */
	bar_unit u;
	bar_init(&u, 2);
	unsigned nc;
	uint32_t rd, words[32];
	bar_warp_exited(&u, 0, &nc, &rd, words);
	bar_warp_exited(&u, 1, &nc, &rd, words);
	ck_assert_uint_eq(u.all_count, 0);
	check_refused(&u, 0, sync_arrival(0, 0, true));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bar");
	TCase *t = tcase_create("rules");
	tcase_add_test(t, sync_all_warps);
	tcase_add_test(t, reuse_10000);
	tcase_add_test(t, counted_subset);
	tcase_add_test(t, arv_does_not_block);
	tcase_add_test(t, exits_complete_cnt0);
	tcase_add_test(t, red_random);
	tcase_add_test(t, exceptions);
	tcase_add_test(t, state_word_roundtrip);
	tcase_add_test(t, state_word_every_arrival_count);
	suite_add_tcase(s, t);
	TCase *g = tcase_create("arrive_all");
	tcase_add_test(g, arrive_all_matches_sequential);
	tcase_add_test(g, arrive_all_with_other_barriers_busy);
	tcase_add_test(g, arrive_all_refusals);
	tcase_add_test(g, arrive_all_arv_counted);
	tcase_add_test(g, arrive_all_r2b_stale_fields);
	tcase_add_test(g, arrive_all_r2b_stale_waiters);
	tcase_add_test(g, arrive_all_r2b_stale_scan_sum);
	tcase_add_test(g, arrive_all_r2b_no_warps);
	suite_add_tcase(s, g);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
