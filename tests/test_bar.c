/* test_bar — the barrier rules of bar.c (seed 000, SPEC-NOTES 1-8),
 * driven directly: arrivals, completion, exits, reductions, exceptions,
 * and the state word. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bar.h"

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
	srand(7);
	for (unsigned i = 0; i < 100000; i++) {
		uint32_t w = (uint32_t)rand() ^ ((uint32_t)rand() << 15) ^ ((uint32_t)rand() << 30);
		/* only valid field values: arrivals <= 32, kind <= 2, redop <= 2, popc <= 1024 */
		w &= ~(BAR_WORD_VALID);
		if ((w & 0x3fu) > 32)
			w &= ~0x20u;
		if (((w >> 13) & 3u) == 3)
			w &= ~(1u << 14);
		if (((w >> 15) & 3u) == 3)
			w &= ~(1u << 16);
		if (((w >> 19) & 0x7ffu) > 1024)
			w &= ~(0x3ffu << 19);
		bar_state b;
		memset(&b, 0, sizeof b);
		bar_set_state_word(&b, w);
		ck_assert_uint_eq(bar_state_word(&b), w);
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
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
