/* test_nbar — the named-barrier rules of nbar.c (seed 002, vISA NBARRIER;
 * spec-reading "Dialects"), driven directly: baseline and general signals,
 * completion, release, reuse, every exception of nbar.h, a double-buffered
 * producer/consumer ring, and random legal schedules checked against a
 * model of the rules. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "units/nbar.h"

#define PC 0x1230u
#define WPC 0x9000u

typedef struct sig_out {
	nbar_result r;
	uint32_t wake;
	char msg[512];
} sig_out;

typedef struct wait_out {
	nbar_result r;
	char msg[512];
} wait_out;

static sig_out sig(nbar_unit *u, uint32_t w, uint32_t id, uint32_t type, uint32_t np, uint32_t nc)
{
	sig_out o;
	memset(&o, 0, sizeof o);
	o.wake = 0xdeadbeefu;
	o.r = nbar_signal(u, w, id, type, np, nc, PC + 0x10u * w, &o.wake, o.msg, sizeof o.msg);
	return o;
}

/* the baseline form NBARRIER.signal id, num_threads */
static sig_out sig_base(nbar_unit *u, uint32_t w, uint32_t id, uint32_t n)
{
	return sig(u, w, id, 0, n, n);
}

static wait_out wait_(nbar_unit *u, uint32_t w, uint32_t id)
{
	wait_out o;
	memset(&o, 0, sizeof o);
	o.r = nbar_wait(u, w, id, WPC + 0x10u * w, o.msg, sizeof o.msg);
	return o;
}

static bool idle(const nbar_unit *u, uint32_t id)
{
	const nbar_state *b = &u->b[id];
	return !b->active && !b->draining && !b->prod && !b->cons && !b->signalled && !b->consumers &&
	       !b->waited && !b->waiters;
}

/* Checks for the hot loops of the model below: libcheck records every
 * passing ck_assert, these only act on failure. */
#define CHK(c) do { if (!(c)) ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)
#define CHKMSG(c, ...) do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)
#define CHK_EQ(a, b) do { unsigned long long a_ = (a), b_ = (b); \
	if (a_ != b_) ck_abort_msg("%s:%d: %s == %s (%llu != %llu)", __FILE__, __LINE__, #a, #b, a_, b_); } while (0)

static void msg_has(const char *msg, const char *want)
{
	CHKMSG(strstr(msg, want) != NULL, "message \"%s\" lacks \"%s\"", msg, want);
}

/* A fault leaves the unit unchanged and its message names what is given. */
static void sig_fault(nbar_unit *u, uint32_t w, uint32_t id, uint32_t type, uint32_t np, uint32_t nc,
		      const char *const *want)
{
	nbar_unit before = *u;
	sig_out o = sig(u, w, id, type, np, nc);
	CHKMSG(o.r == NBAR_FAULT, "signal w%u id%u type%u %u/%u: expected a fault", w, id, type, np, nc);
	CHK_EQ(o.wake, 0);
	CHK(memcmp(&before, u, sizeof before) == 0);
	for (; *want; want++)
		msg_has(o.msg, *want);
}

static void wait_fault(nbar_unit *u, uint32_t w, uint32_t id, const char *const *want)
{
	nbar_unit before = *u;
	wait_out o = wait_(u, w, id);
	CHKMSG(o.r == NBAR_FAULT, "wait w%u id%u: expected a fault", w, id);
	CHK(memcmp(&before, u, sizeof before) == 0);
	for (; *want; want++)
		msg_has(o.msg, *want);
}

#define WANT(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* ------------------------------------------------------------ baseline */

START_TEST(baseline_all_warps)
{
	/* every warp of the CTA signals (baseline form) and waits, 3 phases */
	for (uint32_t nw = 1; nw <= 32; nw++) {
		nbar_unit u;
		nbar_init(&u, nw);
		for (unsigned ph = 0; ph < 3; ph++) {
			uint32_t id = 31u - ph;
			for (uint32_t w = 0; w < nw; w++) {
				sig_out s = sig_base(&u, w, id, nw);
				ck_assert_int_eq(s.r, NBAR_OK);
				if (w + 1 < nw) {
					ck_assert_uint_eq(s.wake, 0);
					ck_assert(u.b[id].active);
					ck_assert_int_eq(wait_(&u, w, id).r, NBAR_BLOCKED);
				} else {
					/* the last signal releases everybody who waits */
					ck_assert_uint_eq(s.wake, nw == 32 ? 0x7fffffffu : (1u << (nw - 1)) - 1u);
					ck_assert(u.b[id].draining && !u.b[id].active);
					/* the signaller waits on a completed phase: at once */
					ck_assert_int_eq(wait_(&u, w, id).r, NBAR_OK);
				}
			}
			for (uint32_t w = 0; w + 1 < nw; w++) {
				ck_assert(!idle(&u, id));
				nbar_wait_done(&u, w, id);
			}
			ck_assert(idle(&u, id));
			ck_assert_uint_eq(u.b[id].phase, 1);
		}
		/* and again on the same id: 1000 phases, waits after completion */
		for (unsigned ph = 0; ph < 1000; ph++) {
			for (uint32_t w = 0; w < nw; w++)
				CHK_EQ(sig_base(&u, w, 5, nw).r, NBAR_OK);
			for (uint32_t w = 0; w < nw; w++)
				CHK_EQ(wait_(&u, w, 5).r, NBAR_OK);
			CHK(idle(&u, 5));
		}
		ck_assert_uint_eq(u.b[5].phase, 1000);
	}
}
END_TEST

START_TEST(type0_counts_as_producer_and_consumer)
{
	nbar_unit u;
	nbar_init(&u, 4);
	ck_assert_int_eq(sig_base(&u, 2, 7, 3).r, NBAR_OK);
	ck_assert_uint_eq(u.b[7].prod, 1);
	ck_assert_uint_eq(u.b[7].cons, 1);
	ck_assert_uint_eq(u.b[7].nprod, 3);
	ck_assert_uint_eq(u.b[7].ncons, 3);
	ck_assert_uint_eq(u.b[7].consumers, 1u << 2);
	ck_assert_uint_eq(u.b[7].signalled, 1u << 2);
	ck_assert_uint_eq(u.b[7].first_warp, 2);
	ck_assert_uint_eq(u.b[7].first_pc, PC + 0x20u);
	/* the baseline form and the general form type 0 with equal counts agree */
	ck_assert_int_eq(sig(&u, 0, 7, 0, 3, 3).r, NBAR_OK);
	sig_out s = sig_base(&u, 3, 7, 3);
	ck_assert_int_eq(s.r, NBAR_OK);
	ck_assert_uint_eq(s.wake, 0);
	ck_assert(u.b[7].draining);
	ck_assert_uint_eq(u.b[7].phase, 1);
	ck_assert_uint_eq(u.b[7].consumers, 0xdu);
	/* warp 1 did not take part */
	wait_fault(&u, 1, 7, WANT("named barrier 7", "warp 1", "without a signal"));
}
END_TEST

/* -------------------------------------------------------- general form */

START_TEST(general_both_counts_needed)
{
	/* nprod 3, ncons 2: w0 type 0 (P+C), w1 type 1 (P), w2 type 2 (C), w3 type 1 (P) */
	nbar_unit u;
	nbar_init(&u, 4);
	ck_assert_int_eq(sig(&u, 0, 1, 0, 3, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 0, 1).r, NBAR_BLOCKED);
	ck_assert_int_eq(sig(&u, 2, 1, 2, 3, 2).r, NBAR_OK); /* consumers complete, producers 1/3 */
	ck_assert(u.b[1].active);
	ck_assert_uint_eq(u.b[1].cons, 2);
	ck_assert_uint_eq(u.b[1].prod, 1);
	ck_assert_int_eq(wait_(&u, 2, 1).r, NBAR_BLOCKED);
	/* where each blocked waiter waits (the deadlock report's PC) */
	ck_assert_uint_eq(u.wait_pc[0], WPC);
	ck_assert_uint_eq(u.wait_pc[2], WPC + 0x20u);
	sig_out s = sig(&u, 1, 1, 1, 3, 2);
	ck_assert_int_eq(s.r, NBAR_OK);
	ck_assert_uint_eq(s.wake, 0);
	ck_assert(u.b[1].active);
	s = sig(&u, 3, 1, 1, 3, 2);
	ck_assert_int_eq(s.r, NBAR_OK);
	ck_assert_uint_eq(s.wake, 0x5u);
	ck_assert(u.b[1].draining);
	ck_assert_uint_eq(u.b[1].waiters, 0x5u);
	/* producers never wait */
	wait_fault(&u, 1, 1, WANT("named barrier 1", "warp 1", "producer-only"));
	wait_fault(&u, 3, 1, WANT("producer-only"));
	nbar_wait_done(&u, 2, 1);
	ck_assert(u.b[1].draining);
	ck_assert_uint_eq(u.b[1].waited, 0x4u);
	nbar_wait_done(&u, 0, 1);
	ck_assert(idle(&u, 1));
	ck_assert_uint_eq(u.b[1].phase, 1);

	/* producers all first, consumers later (and the reverse below) */
	ck_assert_int_eq(sig(&u, 1, 2, 1, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 3, 2, 1, 2, 2).r, NBAR_OK);
	ck_assert(u.b[2].active);
	ck_assert_uint_eq(u.b[2].prod, 2);
	ck_assert_int_eq(sig(&u, 0, 2, 2, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 0, 2).r, NBAR_BLOCKED);
	s = sig(&u, 2, 2, 2, 2, 2);
	ck_assert_uint_eq(s.wake, 0x1u);
	ck_assert_int_eq(wait_(&u, 2, 2).r, NBAR_OK);
	ck_assert(u.b[2].draining);
	nbar_wait_done(&u, 0, 2);
	ck_assert(idle(&u, 2));

	/* consumers first: they signal and block; the producers release them */
	ck_assert_int_eq(sig(&u, 0, 3, 2, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 2, 3, 2, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 0, 3).r, NBAR_BLOCKED);
	ck_assert_int_eq(wait_(&u, 2, 3).r, NBAR_BLOCKED);
	ck_assert_uint_eq(u.b[3].cons, 2);
	s = sig(&u, 3, 3, 1, 2, 2);
	ck_assert_uint_eq(s.wake, 0);
	s = sig(&u, 1, 3, 1, 2, 2);
	ck_assert_uint_eq(s.wake, 0x5u);
	nbar_wait_done(&u, 0, 3);
	nbar_wait_done(&u, 2, 3);
	ck_assert(idle(&u, 3));
}
END_TEST

START_TEST(single_producer_single_consumer)
{
	/* 1 producer, 1 consumer: the smallest general phase, 100 times */
	nbar_unit u;
	nbar_init(&u, 2);
	for (unsigned i = 0; i < 100; i++) {
		if (i & 1) {
			ck_assert_int_eq(sig(&u, 1, 0, 2, 1, 1).r, NBAR_OK);
			ck_assert_int_eq(wait_(&u, 1, 0).r, NBAR_BLOCKED);
			sig_out s = sig(&u, 0, 0, 1, 1, 1);
			ck_assert_uint_eq(s.wake, 0x2u);
			nbar_wait_done(&u, 1, 0);
		} else {
			ck_assert_uint_eq(sig(&u, 0, 0, 1, 1, 1).wake, 0);
			ck_assert_uint_eq(sig(&u, 1, 0, 2, 1, 1).wake, 0);
			ck_assert_int_eq(wait_(&u, 1, 0).r, NBAR_OK);
		}
		ck_assert(idle(&u, 0));
	}
	ck_assert_uint_eq(u.b[0].phase, 100);
}
END_TEST

START_TEST(release_through_wake_and_done)
{
	/* a blocked wait is released by the completing signal's wake mask; the
	 * barrier stays draining until nbar_wait_done, and nothing else frees it */
	nbar_unit u;
	nbar_init(&u, 8);
	ck_assert_int_eq(sig(&u, 4, 9, 2, 1, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 4, 9).r, NBAR_BLOCKED);
	ck_assert_uint_eq(u.b[9].waiters, 1u << 4);
	ck_assert_int_eq(sig(&u, 6, 9, 2, 1, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 6, 9).r, NBAR_BLOCKED);
	sig_out s = sig(&u, 5, 9, 1, 1, 2);
	ck_assert_int_eq(s.r, NBAR_OK);
	ck_assert_uint_eq(s.wake, (1u << 4) | (1u << 6));
	/* calls that match no released waiter are ignored */
	nbar_unit before = u;
	nbar_wait_done(&u, 5, 9); /* the producer */
	nbar_wait_done(&u, 7, 9); /* not a participant */
	nbar_wait_done(&u, 4, 8); /* another id */
	nbar_wait_done(&u, 4, 40); /* no such id */
	nbar_wait_done(&u, 40, 9); /* no such warp */
	ck_assert(memcmp(&before, &u, sizeof u) == 0);
	/* a released waiter cannot wait again before it is done */
	wait_fault(&u, 4, 9, WANT("named barrier 9", "warp 4", "already waiting"));
	nbar_wait_done(&u, 6, 9);
	ck_assert(u.b[9].draining);
	nbar_wait_done(&u, 6, 9); /* twice: ignored */
	ck_assert(u.b[9].draining);
	ck_assert_uint_eq(u.b[9].waited, 1u << 6);
	nbar_wait_done(&u, 4, 9);
	ck_assert(idle(&u, 9));
	ck_assert_uint_eq(u.b[9].phase, 1);
}
END_TEST

START_TEST(wait_after_completion_at_once)
{
	nbar_unit u;
	nbar_init(&u, 3);
	for (uint32_t w = 0; w < 3; w++)
		ck_assert_int_eq(sig_base(&u, w, 0, 3).r, NBAR_OK);
	ck_assert(u.b[0].draining);
	ck_assert_int_eq(wait_(&u, 1, 0).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 0, 0).r, NBAR_OK);
	ck_assert(u.b[0].draining);
	/* a second wait of a warp whose wait finished: it has no signal */
	wait_fault(&u, 1, 0, WANT("named barrier 0", "warp 1", "without a signal", "already finished"));
	ck_assert_int_eq(wait_(&u, 2, 0).r, NBAR_OK);
	ck_assert(idle(&u, 0));
	/* after the reset, a wait has no phase at all */
	wait_fault(&u, 2, 0, WANT("named barrier 0", "warp 2", "without a signal"));
}
END_TEST

/* ---------------------------------------------------------------- reuse */

START_TEST(reuse_other_warps_other_counts)
{
	nbar_unit u;
	nbar_init(&u, 16);
	/* phase 1: warps 0..3 baseline 4 */
	for (uint32_t w = 0; w < 4; w++)
		ck_assert_int_eq(sig_base(&u, w, 12, 4).r, NBAR_OK);
	for (uint32_t w = 0; w < 4; w++)
		ck_assert_int_eq(wait_(&u, w, 12).r, NBAR_OK);
	ck_assert(idle(&u, 12));
	/* phase 2: warps 8..15, 3 producers and 5 consumers */
	for (uint32_t w = 8; w < 16; w++) {
		sig_out s = sig(&u, w, 12, w < 11 ? 1 : 2, 3, 5);
		ck_assert_int_eq(s.r, NBAR_OK);
		if (w >= 11 && w < 15)
			ck_assert_int_eq(wait_(&u, w, 12).r, NBAR_BLOCKED);
		if (w == 15)
			ck_assert_uint_eq(s.wake, 0x7800u);
	}
	ck_assert_uint_eq(u.b[12].first_warp, 8);
	ck_assert_uint_eq(u.b[12].first_pc, PC + 0x80u);
	ck_assert_int_eq(wait_(&u, 15, 12).r, NBAR_OK);
	for (uint32_t w = 11; w < 15; w++)
		nbar_wait_done(&u, w, 12);
	ck_assert(idle(&u, 12));
	/* phase 3: a warp of phase 1 and one of phase 2, type 0 with 2/2 */
	ck_assert_int_eq(sig(&u, 9, 12, 0, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 1, 12, 0, 2, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 1, 12).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 9, 12).r, NBAR_OK);
	ck_assert(idle(&u, 12));
	ck_assert_uint_eq(u.b[12].phase, 3);
	for (uint32_t id = 0; id < WE_NUM_NBARRIERS; id++)
		if (id != 12)
			ck_assert_uint_eq(u.b[id].phase, 0);
}
END_TEST

START_TEST(reuse_too_early)
{
	nbar_unit u;
	nbar_init(&u, 4);
	/* 1 producer (w0), consumers w1 and w2 */
	ck_assert_int_eq(sig(&u, 1, 3, 2, 1, 2).r, NBAR_OK);
	ck_assert_int_eq(wait_(&u, 1, 3).r, NBAR_BLOCKED);
	ck_assert_int_eq(sig(&u, 2, 3, 2, 1, 2).r, NBAR_OK);
	ck_assert_uint_eq(sig(&u, 0, 3, 1, 1, 2).wake, 0x2u);
	/* w1 released but not done, w2 has not waited: every signal faults,
	 * whoever gives it and whatever its counts */
	sig_fault(&u, 0, 3, 1, 1, 2, WANT("named barrier 3", "warp 0", "reused too early", "0x6", "warp 1 at PC 0x1240"));
	sig_fault(&u, 3, 3, 0, 4, 4, WANT("reused too early", "warp 3"));
	sig_fault(&u, 1, 3, 2, 1, 2, WANT("reused too early"));
	nbar_wait_done(&u, 1, 3);
	sig_fault(&u, 0, 3, 1, 1, 2, WANT("reused too early", "consumers 0x4 "));
	ck_assert_int_eq(wait_(&u, 2, 3).r, NBAR_OK);
	ck_assert(idle(&u, 3));
	ck_assert_int_eq(sig(&u, 0, 3, 1, 1, 2).r, NBAR_OK);
	/* other ids are not affected by a draining one */
	nbar_unit v;
	nbar_init(&v, 2);
	ck_assert_int_eq(sig_base(&v, 0, 0, 1).r, NBAR_OK);
	ck_assert(v.b[0].draining);
	ck_assert_int_eq(sig_base(&v, 0, 1, 1).r, NBAR_OK);
	ck_assert_int_eq(wait_(&v, 0, 1).r, NBAR_OK);
	/* a consumer that never waits keeps the id draining for ever */
	for (unsigned i = 0; i < 10; i++)
		sig_fault(&v, 1, 0, 0, 1, 1, WANT("named barrier 0", "reused too early", "consumers 0x1 "));
}
END_TEST

/* ----------------------------------------------------------- exceptions */

START_TEST(counts_disagree)
{
	nbar_unit u;
	nbar_init(&u, 8);
	ck_assert_int_eq(sig(&u, 2, 4, 1, 3, 2).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 5, 4, 2, 3, 2).r, NBAR_OK);
	sig_fault(&u, 6, 4, 1, 2, 2,
		  WANT("named barrier 4", "warp 6", "num_producers 2 differs from 3", "warp 2 at PC 0x1250"));
	sig_fault(&u, 6, 4, 2, 3, 4,
		  WANT("named barrier 4", "warp 6", "num_consumers 4 differs from 2", "warp 2 at PC 0x1250"));
	/* the baseline form against a general phase: counts 3/3 vs 3/2 */
	sig_fault(&u, 7, 4, 0, 3, 3, WANT("num_consumers 3 differs from 2"));
	sig_fault(&u, 7, 4, 0, 2, 2, WANT("num_producers 2 differs from 3"));
	/* the phase is undisturbed and completes with agreeing signals */
	ck_assert_int_eq(sig(&u, 6, 4, 1, 3, 2).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 7, 4, 0, 3, 2).r, NBAR_OK);
	ck_assert(u.b[4].draining);
	/* baseline vs baseline */
	ck_assert_int_eq(sig_base(&u, 0, 20, 4).r, NBAR_OK);
	sig_fault(&u, 1, 20, 0, 5, 5, WANT("named barrier 20", "num_producers 5 differs from 4"));
}
END_TEST

START_TEST(double_signal)
{
	nbar_unit u;
	nbar_init(&u, 4);
	ck_assert_int_eq(sig_base(&u, 1, 6, 3).r, NBAR_OK);
	ck_assert_int_eq(sig_base(&u, 2, 6, 3).r, NBAR_OK);
	sig_fault(&u, 2, 6, 0, 3, 3, WANT("named barrier 6", "warp 2", "twice", "warp 1 at PC 0x1240"));
	/* also with another type or other counts: the warp already signalled */
	sig_fault(&u, 1, 6, 1, 3, 3, WANT("twice"));
	sig_fault(&u, 1, 6, 2, 1, 1, WANT("twice"));
	/* a producer-only warp, too */
	nbar_unit v;
	nbar_init(&v, 4);
	ck_assert_int_eq(sig(&v, 0, 6, 1, 2, 1).r, NBAR_OK);
	sig_fault(&v, 0, 6, 1, 2, 1, WANT("warp 0", "twice"));
}
END_TEST

START_TEST(too_many_signals)
{
	/* signals that agree with the counts but exceed one of them */
	nbar_unit u;
	nbar_init(&u, 8);
	ck_assert_int_eq(sig(&u, 0, 2, 1, 1, 3).r, NBAR_OK);
	sig_fault(&u, 1, 2, 1, 1, 3, WANT("named barrier 2", "warp 1", "more producer signals than num_producers 1"));
	sig_fault(&u, 1, 2, 0, 1, 3, WANT("producer-consumer", "more producer signals"));
	ck_assert_int_eq(sig(&u, 1, 2, 2, 1, 3).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 2, 2, 2, 1, 3).r, NBAR_OK);
	ck_assert(u.b[2].active);
	ck_assert_int_eq(sig(&u, 3, 2, 2, 1, 3).r, NBAR_OK);
	ck_assert(u.b[2].draining);
	sig_fault(&u, 4, 2, 2, 1, 3, WANT("reused too early"));
	nbar_unit v;
	nbar_init(&v, 8);
	ck_assert_int_eq(sig(&v, 0, 2, 2, 3, 1).r, NBAR_OK);
	sig_fault(&v, 1, 2, 2, 3, 1, WANT("more consumer signals than num_consumers 1"));
	sig_fault(&v, 1, 2, 0, 3, 1, WANT("more consumer signals"));
	ck_assert_int_eq(sig(&v, 1, 2, 1, 3, 1).r, NBAR_OK);
}
END_TEST

START_TEST(wait_by_producer_only)
{
	nbar_unit u;
	nbar_init(&u, 4);
	ck_assert_int_eq(sig(&u, 3, 17, 1, 1, 1).r, NBAR_OK); /* producer: would complete with the consumer */
	wait_fault(&u, 3, 17, WANT("named barrier 17", "warp 3", "producer-only", "warp 3 at PC 0x1260"));
	ck_assert_int_eq(sig(&u, 0, 17, 2, 1, 1).r, NBAR_OK);
	wait_fault(&u, 3, 17, WANT("producer-only")); /* and after completion */
	ck_assert_int_eq(wait_(&u, 0, 17).r, NBAR_OK);
	ck_assert(idle(&u, 17));
	/* and once the phase is freed (the consumer waited first): still a
	 * producer-only wait, not one without a signal */
	wait_fault(&u, 3, 17, WANT("producer-only", "just completed", "warp 3 at PC 0x1260"));
	wait_fault(&u, 1, 17, WANT("warp 1", "without a signal"));
}
END_TEST

START_TEST(wait_without_signal)
{
	nbar_unit u;
	nbar_init(&u, 4);
	/* no phase */
	wait_fault(&u, 0, 0, WANT("named barrier 0", "warp 0", "without a signal", "PC 0x9000"));
	/* a phase the warp did not signal, active and completed */
	ck_assert_int_eq(sig_base(&u, 1, 0, 2).r, NBAR_OK);
	wait_fault(&u, 0, 0, WANT("named barrier 0", "warp 0", "without a signal", "warp 1 at PC 0x1240"));
	ck_assert_int_eq(sig_base(&u, 2, 0, 2).r, NBAR_OK);
	wait_fault(&u, 0, 0, WANT("without a signal"));
	wait_fault(&u, 3, 0, WANT("warp 3", "without a signal"));
	/* a signal on another id does not count */
	ck_assert_int_eq(sig_base(&u, 3, 1, 2).r, NBAR_OK);
	wait_fault(&u, 3, 0, WANT("without a signal"));
	/* blocked waiters cannot wait twice (an engine error) */
	ck_assert_int_eq(wait_(&u, 3, 1).r, NBAR_BLOCKED);
	wait_fault(&u, 3, 1, WANT("already waiting"));
}
END_TEST

START_TEST(out_of_range)
{
	nbar_unit u;
	nbar_init(&u, 4);
	sig_fault(&u, 0, 32, 0, 1, 1, WANT("named barrier 32", "outside 0..31", "warp 0", "PC 0x1230"));
	sig_fault(&u, 0, 0xffffffffu, 0, 1, 1, WANT("named barrier 4294967295", "outside 0..31"));
	wait_fault(&u, 1, 32, WANT("named barrier 32", "outside 0..31", "warp 1", "PC 0x9010"));
	sig_fault(&u, 0, 0, 3, 1, 1, WANT("named barrier 0", "type 3 outside 0..2"));
	sig_fault(&u, 0, 0, 0xffffu, 1, 1, WANT("type 65535 outside 0..2"));
	sig_fault(&u, 0, 0, 1, 0, 1, WANT("num_producers 0 outside 1..4"));
	sig_fault(&u, 0, 0, 1, 5, 1, WANT("num_producers 5 outside 1..4"));
	sig_fault(&u, 0, 0, 2, 1, 0, WANT("num_consumers 0 outside 1..4"));
	sig_fault(&u, 0, 0, 2, 1, 5, WANT("num_consumers 5 outside 1..4"));
	sig_fault(&u, 0, 0, 0, 0, 0, WANT("outside 1..4"));
	sig_fault(&u, 0, 0, 0, 5, 5, WANT("outside 1..4"));
	/* the counts are checked also for the type they do not count */
	sig_fault(&u, 0, 0, 1, 1, 0, WANT("num_consumers 0"));
	sig_fault(&u, 0, 0, 2, 0, 1, WANT("num_producers 0"));
	/* the boundary values are accepted */
	ck_assert_int_eq(sig(&u, 0, 31, 0, 4, 4).r, NBAR_OK);
	ck_assert_int_eq(sig(&u, 0, 30, 0, 1, 1).r, NBAR_OK);
	/* warps outside the CTA */
	sig_fault(&u, 4, 1, 0, 1, 1, WANT("named barrier 1", "warp 4", "outside the CTA"));
	sig_fault(&u, 32, 1, 0, 1, 1, WANT("warp 32", "outside the CTA"));
	wait_fault(&u, 4, 31, WANT("warp 4", "outside the CTA"));
	nbar_unit v;
	nbar_init(&v, 32);
	ck_assert_int_eq(sig(&v, 31, 0, 0, 32, 32).r, NBAR_OK);
	sig_fault(&v, 0, 1, 0, 33, 1, WANT("num_producers 33 outside 1..32"));
}
END_TEST

START_TEST(null_message_buffer)
{
	nbar_unit u;
	nbar_init(&u, 2);
	uint32_t wake = 1;
	ck_assert_int_eq(nbar_signal(&u, 0, 40, 0, 1, 1, 0, &wake, NULL, 0), NBAR_FAULT);
	ck_assert_uint_eq(wake, 0);
	ck_assert_int_eq(nbar_wait(&u, 0, 0, 0, NULL, 0), NBAR_FAULT);
	char small[8];
	ck_assert_int_eq(nbar_wait(&u, 0, 0, 0, small, sizeof small), NBAR_FAULT);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
}
END_TEST

/* --------------------------------------------- a model-checked engine */

/* A small engine: warps run programs of signal/wait steps; a warp blocked in
 * a wait becomes runnable when a wake mask names it, and calls
 * nbar_wait_done when it next runs.  A model of the rules checks every
 * result: no consumer released before both counts are reached, every
 * consumer released (or finished at once) exactly once per phase, the
 * barrier free exactly when the last consumer finished. */

enum { ST_SIGNAL, ST_WAIT };
enum { W_RUN, W_BLOCKED, W_RELEASED, W_DONE };

#define MAX_EP 2048
#define MAX_STEPS 4096

typedef struct episode {
	uint32_t id, nprod, ncons;
	int8_t type[32];   /* -1: not a participant */
	uint32_t prod, cons, finished;
	uint32_t released; /* warps released by a wake mask  */
	uint32_t done;     /* warps whose wait finished      */
	bool complete;
	int next_on_id;    /* the next episode on this id    */
} episode;

typedef struct step {
	uint8_t kind;
	uint16_t ep;
} step;

typedef struct sim {
	nbar_unit u;
	uint32_t nw;
	episode ep[MAX_EP];
	unsigned nep;
	step prog[32][MAX_STEPS];
	unsigned len[32], pc[32];
	int state[32];
	int cur[WE_NUM_NBARRIERS]; /* the episode that owns each id, -1: none left */
	uint32_t phases[WE_NUM_NBARRIERS];
	unsigned long ops, blocked, at_once, early_tries;
	/* ring-buffer payload check (sim_ring) */
	bool ring;
	uint32_t slot[2][32];
} sim;

static void sim_add_episode(sim *s, uint32_t id, const int8_t type[32])
{
	CHK(s->nep < MAX_EP);
	episode *e = &s->ep[s->nep];
	memset(e, 0, sizeof *e);
	e->id = id;
	e->next_on_id = -1;
	for (uint32_t w = 0; w < 32; w++) {
		e->type[w] = type[w];
		if (type[w] < 0)
			continue;
		if (type[w] != 2)
			e->nprod++;
		if (type[w] != 1)
			e->ncons++;
		CHK(s->len[w] + 2 < MAX_STEPS);
		s->prog[w][s->len[w]++] = (step){ ST_SIGNAL, (uint16_t)s->nep };
		if (type[w] != 1)
			s->prog[w][s->len[w]++] = (step){ ST_WAIT, (uint16_t)s->nep };
	}
	CHK(e->nprod >= 1 && e->ncons >= 1);
	s->nep++;
}

static void sim_link(sim *s)
{
	for (uint32_t id = 0; id < WE_NUM_NBARRIERS; id++)
		s->cur[id] = -1;
	int last[WE_NUM_NBARRIERS];
	for (uint32_t id = 0; id < WE_NUM_NBARRIERS; id++)
		last[id] = -1;
	for (unsigned i = 0; i < s->nep; i++) {
		uint32_t id = s->ep[i].id;
		if (last[id] < 0)
			s->cur[id] = (int)i;
		else
			s->ep[last[id]].next_on_id = (int)i;
		last[id] = (int)i;
	}
}

/* the wait of warp w on episode e finished */
static void sim_finish_wait(sim *s, uint32_t w, unsigned ei)
{
	episode *e = &s->ep[ei];
	CHK(e->complete);
	CHKMSG(!((e->done >> w) & 1u), "warp %u finished its wait twice", w);
	e->done |= 1u << w;
	e->finished++;
	if (s->ring && e->id < 2) {
		/* the consumer reads the slot: both producers wrote this item, and
		 * neither has overwritten it with the next one */
		for (uint32_t v = 0; v < 32; v++)
			if (e->type[v] == 1)
				CHK_EQ(s->slot[e->id][v], ei);
	}
	const nbar_state *b = &s->u.b[e->id];
	if (e->finished == e->ncons) {
		/* the last consumer: the id is free */
		CHK(idle(&s->u, e->id));
		CHK_EQ(b->phase, ++s->phases[e->id]);
		s->cur[e->id] = e->next_on_id;
	} else {
		CHK(b->draining);
		CHK_EQ(b->waited, e->done);
	}
}

/* the warp's signal would reuse a barrier too early: try it, it must fault
 * and change nothing */
static void sim_try_early(sim *s, uint32_t w, const episode *e)
{
	nbar_unit before = s->u;
	uint32_t wake = 1;
	char msg[512];
	nbar_result r = nbar_signal(&s->u, w, e->id, (uint32_t)e->type[w], e->nprod, e->ncons, 0x100u * w,
				    &wake, msg, sizeof msg);
	CHK_EQ(r, NBAR_FAULT);
	CHK_EQ(wake, 0);
	msg_has(msg, "reused too early");
	CHK(memcmp(&before, &s->u, sizeof before) == 0);
	s->early_tries++;
}

/* is a wait by warp w on id legal now (its next step is that wait)? */
static bool sim_wait_legal(const sim *s, uint32_t w, uint32_t id)
{
	if (s->state[w] != W_RUN || s->pc[w] >= s->len[w])
		return false;
	const step *st = &s->prog[w][s->pc[w]];
	return st->kind == ST_WAIT && s->ep[st->ep].id == id;
}

/* run warp w one step; false if it cannot progress now */
static bool sim_step(sim *s, uint32_t w)
{
	if (s->state[w] == W_RELEASED) {
		const step *st = &s->prog[w][s->pc[w]];
		nbar_wait_done(&s->u, w, s->ep[st->ep].id);
		sim_finish_wait(s, w, st->ep);
		s->state[w] = W_RUN;
		s->pc[w]++;
		goto advanced;
	}
	const step *st = &s->prog[w][s->pc[w]];
	unsigned ei = st->ep;
	episode *e = &s->ep[ei];
	nbar_state *b = &s->u.b[e->id];
	if (st->kind == ST_SIGNAL) {
		if (s->cur[e->id] != (int)ei) {
			/* an earlier episode still owns the id */
			if (b->draining)
				sim_try_early(s, w, e);
			return false;
		}
		uint32_t t = (uint32_t)e->type[w];
		if (s->ring && t == 1 && e->id < 2) {
			/* the ring's producers write their slot before signalling */
			s->slot[e->id][w] = ei;
		}
		uint32_t wake = 0xdeadbeefu;
		char msg[512];
		nbar_result r = nbar_signal(&s->u, w, e->id, t, e->nprod, e->ncons, 0x100u * w, &wake, msg,
					    sizeof msg);
		CHKMSG(r == NBAR_OK, "legal signal faulted: %s", msg);
		if (t != 2)
			e->prod++;
		if (t != 1)
			e->cons++;
		bool complete = e->prod == e->nprod && e->cons == e->ncons;
		if (!complete) {
			/* no consumer is released before both counts are reached */
			CHK_EQ(wake, 0);
			CHK(b->active && !b->draining);
			CHK_EQ(b->prod, e->prod);
			CHK_EQ(b->cons, e->cons);
		} else {
			e->complete = true;
			CHK(b->draining && !b->active);
			CHK_EQ(b->phase, s->phases[e->id] + 1);
			/* exactly the blocked consumers are released */
			uint32_t blocked = 0;
			for (uint32_t v = 0; v < s->nw; v++)
				if (s->state[v] == W_BLOCKED && s->prog[v][s->pc[v]].ep == ei)
					blocked |= 1u << v;
			CHK_EQ(wake, blocked);
			for (uint32_t v = 0; v < 32; v++)
				if ((wake >> v) & 1u) {
					CHK(e->type[v] == 0 || e->type[v] == 2);
					CHK(!((e->released >> v) & 1u));
					e->released |= 1u << v;
					s->state[v] = W_RELEASED;
				}
		}
		s->pc[w]++;
		goto advanced;
	}
	/* ST_WAIT */
	char msg[512];
	nbar_result r = nbar_wait(&s->u, w, e->id, 0x100u * w + 8, msg, sizeof msg);
	CHKMSG(r != NBAR_FAULT, "legal wait faulted: %s", msg);
	if (r == NBAR_BLOCKED) {
		CHK(!e->complete);
		s->state[w] = W_BLOCKED;
		s->blocked++;
		return true;
	}
	CHK(e->complete);
	s->at_once++;
	sim_finish_wait(s, w, ei);
	s->pc[w]++;
advanced:
	if (s->pc[w] == s->len[w])
		s->state[w] = W_DONE;
	s->ops++;
	return true;
}

/* run every warp to its end in a random order */
static void sim_run(sim *s, unsigned seed)
{
	srand(seed);
	for (uint32_t w = 0; w < 32; w++)
		s->state[w] = s->len[w] ? W_RUN : W_DONE;
	for (;;) {
		uint32_t cand[32];
		unsigned n = 0;
		for (uint32_t w = 0; w < s->nw; w++)
			if (s->state[w] == W_RUN || s->state[w] == W_RELEASED)
				cand[n++] = w;
		if (!n)
			break;
		/* sometimes an illegal wait by a running warp: a fault, no change */
		if (rand() % 8 == 0) {
			uint32_t w = cand[(unsigned)rand() % n];
			uint32_t id = (uint32_t)rand() % WE_NUM_NBARRIERS;
			if (!sim_wait_legal(s, w, id))
				wait_fault(&s->u, w, id, WANT("named barrier"));
		}
		/* pick runnable warps at random until one progresses */
		bool progressed = false;
		for (unsigned tries = 0; tries < 4 * n && !progressed; tries++)
			progressed = sim_step(s, cand[(unsigned)rand() % n]);
		for (unsigned i = 0; i < n && !progressed; i++)
			progressed = sim_step(s, cand[i]);
		CHKMSG(progressed, "seed %u: no warp can progress", seed);
	}
	for (uint32_t w = 0; w < s->nw; w++)
		CHKMSG(s->state[w] == W_DONE, "seed %u: warp %u blocked at the end", seed, w);
	/* every consumer released or finished at once exactly once per phase */
	for (unsigned i = 0; i < s->nep; i++) {
		const episode *e = &s->ep[i];
		CHK(e->complete);
		CHK_EQ(e->finished, e->ncons);
		uint32_t cons = 0;
		for (uint32_t w = 0; w < 32; w++)
			if (e->type[w] == 0 || e->type[w] == 2)
				cons |= 1u << w;
		CHK_EQ(e->done, cons);
		CHK_EQ(e->released & ~cons, 0);
	}
	for (uint32_t id = 0; id < WE_NUM_NBARRIERS; id++) {
		CHK(idle(&s->u, id));
		CHK_EQ(s->u.b[id].phase, s->phases[id]);
	}
}

static sim *sim_new(uint32_t nw)
{
	sim *s = calloc(1, sizeof *s);
	CHK(s);
	s->nw = nw;
	nbar_init(&s->u, nw);
	return s;
}

START_TEST(ring_buffer_pipeline)
{
	/* 2 producer warps (0, 1) and 2 consumer warps (2, 3), double-buffered:
	 * full[s] = id s (producers type 1, consumers type 2) and empty[s] =
	 * id 2 + s (consumers type 1, producers type 2); 400 items. */
	for (unsigned seed = 1; seed <= 50; seed++) {
		sim *s = sim_new(4);
		s->ring = true;
		const unsigned N = 400;
		for (unsigned k = 0; k < N; k++) {
			uint32_t sl = k & 1u;
			int8_t t[32];
			if (k >= 2) {
				/* the producers wait until the slot's item k - 2 was read */
				memset(t, -1, sizeof t);
				t[0] = t[1] = 2;
				t[2] = t[3] = 1;
				sim_add_episode(s, 2 + sl, t);
			}
			memset(t, -1, sizeof t);
			t[0] = t[1] = 1;
			t[2] = t[3] = 2;
			sim_add_episode(s, sl, t);
		}
		/* the episode order above is every warp's program order: a
		 * producer waits on empty[k % 2] ("item k - 2 was read") and then
		 * writes item k and signals full[k % 2]; a consumer signals
		 * full[k % 2], waits, reads item k, and signals empty for item
		 * k + 1 (freeing the slot of item k - 1). */
		sim_link(s);
		sim_run(s, seed);
		ck_assert_uint_eq(s->u.b[0].phase, N / 2);
		ck_assert_uint_eq(s->u.b[1].phase, N / 2);
		ck_assert_uint_eq(s->u.b[2].phase, N / 2 - 1);
		ck_assert_uint_eq(s->u.b[3].phase, N / 2 - 1);
		ck_assert(s->blocked > 0);
		free(s);
	}
}
END_TEST

START_TEST(random_legal_sequences)
{
	unsigned long blocked = 0, at_once = 0, early = 0;
	for (unsigned seed = 1; seed <= 400; seed++) {
		srand(seed * 7919u);
		uint32_t nw = 1 + (uint32_t)rand() % 32;
		uint32_t nids = 1 + (uint32_t)rand() % WE_NUM_NBARRIERS;
		sim *s = sim_new(nw);
		unsigned nep = 20 + (unsigned)rand() % 100;
		for (unsigned i = 0; i < nep; i++) {
			int8_t t[32];
			memset(t, -1, sizeof t);
			unsigned pct = 10 + (unsigned)rand() % 90; /* participation */
			int form = rand() % 3;                     /* 0: baseline, else general */
			uint32_t np = 0, nc = 0, last = 0;
			for (uint32_t w = 0; w < nw; w++) {
				if ((unsigned)rand() % 100 >= pct)
					continue;
				t[w] = form == 0 ? 0 : (int8_t)(rand() % 3);
				np += t[w] != 2;
				nc += t[w] != 1;
				last = w;
			}
			if (np == 0 && nc == 0)
				t[(uint32_t)rand() % nw] = 0;
			else if (np == 0 || nc == 0)
				t[last] = 0;
			sim_add_episode(s, (uint32_t)rand() % nids, t);
		}
		sim_link(s);
		sim_run(s, seed);
		blocked += s->blocked;
		at_once += s->at_once;
		early += s->early_tries;
		free(s);
	}
	/* the schedules exercised every path */
	ck_assert(blocked > 1000);
	ck_assert(at_once > 1000);
	ck_assert(early > 100);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nbar");
	TCase *t = tcase_create("rules");
	tcase_add_test(t, baseline_all_warps);
	tcase_add_test(t, type0_counts_as_producer_and_consumer);
	tcase_add_test(t, general_both_counts_needed);
	tcase_add_test(t, single_producer_single_consumer);
	tcase_add_test(t, release_through_wake_and_done);
	tcase_add_test(t, wait_after_completion_at_once);
	tcase_add_test(t, reuse_other_warps_other_counts);
	tcase_add_test(t, reuse_too_early);
	tcase_add_test(t, counts_disagree);
	tcase_add_test(t, double_signal);
	tcase_add_test(t, too_many_signals);
	tcase_add_test(t, wait_by_producer_only);
	tcase_add_test(t, wait_without_signal);
	tcase_add_test(t, out_of_range);
	tcase_add_test(t, null_message_buffer);
	suite_add_tcase(s, t);
	TCase *m = tcase_create("model");
	tcase_set_timeout(m, 120);
	tcase_add_test(m, ring_buffer_pipeline);
	tcase_add_test(m, random_legal_sequences);
	suite_add_tcase(s, m);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
