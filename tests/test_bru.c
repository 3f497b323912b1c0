/* test_bru.c — libcheck suite "bru": the branch unit of seed 004.
 *
 * Build: make tests/test_bru (with tests/harness.c and the library).
 *
 * Besides direct checks of each function, a tiny program interpreter
 * (struct sim) drives warps through short programs the way the executor
 * will: BRU functions for control flow, PC += 16 for everything else.
 * The "kernels" case runs BMOV, CALL/RET and BRX forms through the
 * assembler and the executor (kernels as strings, results stored and
 * checked).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units/bru.h"
#include "warpemu/warpemu.h"

#include "harness.h"

#define ALL 0xffffffffu
#define POISON 0xdead0000dead0000ull  /* never a PC of a test program */

/* ---- helpers ------------------------------------------------------------ */

static uint32_t rnd32(void) { return (uint32_t)th_rng64(); }
static unsigned rndn(unsigned n) { return (unsigned)(th_rng64() % n); }

static void warp_init(we_warp *w, uint32_t valid, uint64_t pc)
{
	memset(w, 0, sizeof *w);
	w->valid = valid;
	w->active = valid;
	w->active_pc = pc;
	for (unsigned l = 0; l < 32; l++)
		w->rpc[l] = POISON;
}

/* Park lanes m at pc (inactive threads with RPC = pc). */
static void park(we_warp *w, uint32_t m, uint64_t pc)
{
	for (unsigned l = 0; l < 32; l++)
		if (m >> l & 1u)
			w->rpc[l] = pc;
}

/* Every lane of m has RPC == pc. */
static bool rpc_all(const we_warp *w, uint32_t m, uint64_t pc)
{
	for (unsigned l = 0; l < 32; l++)
		if ((m >> l & 1u) && w->rpc[l] != pc)
			return false;
	return true;
}

/* The seed-004 part of a warp, for "state unchanged" checks. */
static bool same_state(const we_warp *a, const we_warp *b)
{
	return a->active_pc == b->active_pc && a->valid == b->valid &&
	       a->active == b->active && a->yield == b->yield &&
	       a->sleep == b->sleep && a->swmask == b->swmask &&
	       a->wake_time == b->wake_time &&
	       memcmp(a->breg, b->breg, sizeof a->breg) == 0 &&
	       memcmp(a->rpc, b->rpc, sizeof a->rpc) == 0;
}

/* ---- BRA golden model: an independent port over bool arrays ------------ */

static void to_arr(uint32_t m, bool a[32])
{
	for (unsigned i = 0; i < 32; i++)
		a[i] = (m >> i) & 1u;
}

static uint32_t from_arr(const bool a[32])
{
	uint32_t m = 0;
	for (unsigned i = 0; i < 32; i++)
		if (a[i])
			m |= 1u << i;
	return m;
}

/* Mirrors getGoldenBranchCondition() of seed 004 with numpy semantics:
 * element-wise ops on 32 bools, np.any / np.all over selections (all of an
 * empty selection is True).  *raised = the Python would raise. */
static uint32_t ref_bra(uint32_t am, uint32_t vm, uint32_t pgm, int modi,
			bool has_ur, uint32_t urm, bool *raised)
{
	bool a[32], v[32], pg[32], ur[32], pgv[32], bm[32];
	bool is_div;

	to_arr(am, a);
	to_arr(vm, v);
	to_arr(pgm, pg);
	to_arr(urm, ur);
	*raised = false;
	for (unsigned i = 0; i < 32; i++) {
		pgv[i] = pg[i] && a[i];
		bm[i] = false;
	}

	if (!has_ur) {
		is_div = false;
		for (unsigned i = 0; i < 32; i++)
			if (pgv[i] != v[i])
				is_div = true;
		if (modi == BRU_COND_NONE) {
			memcpy(bm, pgv, sizeof bm);
		} else if (modi == BRU_COND_U) {
			bool all = true;
			for (unsigned i = 0; i < 32; i++)
				if (a[i] && !pgv[i])
					all = false;
			for (unsigned i = 0; i < 32; i++)
				if (a[i])
					bm[i] = all;
		} else if (modi == BRU_COND_DIV) {
			for (unsigned i = 0; i < 32; i++)
				bm[i] = is_div ? pgv[i] : (false && pgv[i]);
		} else if (modi == BRU_COND_CONV) {
			for (unsigned i = 0; i < 32; i++)
				bm[i] = is_div ? false : pgv[i];
		} else {
			*raised = true;
		}
	} else {
		bool any_vna = false;
		for (unsigned i = 0; i < 32; i++)
			if ((v[i] != a[i]) && ur[i])
				any_vna = true;
		if (any_vna) {
			is_div = true;
		} else {
			bool all_pv = true, all_npv = true;  /* over pgv[a] */
			for (unsigned i = 0; i < 32; i++) {
				if (!a[i])
					continue;
				if (pgv[i])
					all_npv = false;
				else
					all_pv = false;
			}
			if (!(all_pv || all_npv)) {
				is_div = false;
				for (unsigned i = 0; i < 32; i++)
					if (a[i] && !pg[i] && ur[i])
						is_div = true;
			} else {
				is_div = false;
			}
		}
		bool any_pgv = false;
		for (unsigned i = 0; i < 32; i++)
			if (pgv[i])
				any_pgv = true;
		if (modi == BRU_COND_DIV || modi == BRU_COND_CONV) {
			bool val = any_pgv && (modi == BRU_COND_DIV ? is_div : !is_div);
			for (unsigned i = 0; i < 32; i++)
				if (a[i])
					bm[i] = val;
		} else {
			*raised = true;
		}
	}
	return from_arr(bm);
}

static uint32_t rnd_valid(void)
{
	switch (rndn(6)) {
	case 0: return ALL;
	case 1: return (uint32_t)((1ull << (1 + rndn(32))) - 1); /* partial warp */
	case 2: return 0;
	default: return rnd32();
	}
}

static uint32_t rnd_subset(uint32_t m)
{
	switch (rndn(6)) {
	case 0: return m;
	case 1: return 0;
	case 2: return m & (1u << rndn(32));
	case 3: return m & (rnd32() | rnd32());
	default: return m & rnd32();
	}
}

static uint32_t rnd_pred(uint32_t active)
{
	switch (rndn(7)) {
	case 0: return ALL;
	case 1: return 0;
	case 2: return active;
	case 3: return ~active;
	case 4: return active & rnd32();
	default: return rnd32();
	}
}

static uint32_t rnd_ur(uint32_t valid, uint32_t active, uint32_t pg)
{
	switch (rndn(8)) {
	case 0: return 0;            /* URZ */
	case 1: return ALL;          /* ~URZ */
	case 2: return active;
	case 3: return valid ^ active;
	case 4: return active & ~pg;
	case 5: return rnd_subset(active);
	default: return rnd32();
	}
}

START_TEST(test_bra_golden_random)
{
	static const struct { int cond; bool ur; } forms[] = {
		{ BRU_COND_NONE, false }, { BRU_COND_U, false },
		{ BRU_COND_DIV, false }, { BRU_COND_CONV, false },
		{ BRU_COND_DIV, true }, { BRU_COND_CONV, true },
	};
	unsigned jumps[6] = { 0 }, nojumps[6] = { 0 };

	th_rng_seed(0x5eed0001);
	for (unsigned it = 0; it < 20000; it++) {
		uint32_t valid = rnd_valid();
		uint32_t active = rnd_subset(valid);
		uint32_t pg = rnd_pred(active);
		uint32_t ur = rnd_ur(valid, active, pg);

		for (unsigned f = 0; f < 6; f++) {
			bool raised;
			uint32_t want = ref_bra(active, valid, pg, forms[f].cond,
						forms[f].ur, ur, &raised);
			uint32_t got = bru_bra_mask(active, valid, pg, forms[f].cond,
						    forms[f].ur, ur);

			ck_assert(!raised);
			ck_assert_msg(got == want,
				      "form %u: a=%08x v=%08x pg=%08x ur=%08x: got %08x want %08x",
				      f, active, valid, pg, ur, got, want);
			ck_assert_uint_eq(got & ~active, 0);
			if (got)
				jumps[f]++;
			else
				nojumps[f]++;
		}
	}
	/* the generator reaches both outcomes for every form */
	for (unsigned f = 0; f < 6; f++) {
		ck_assert_uint_gt(jumps[f], 500);
		ck_assert_uint_gt(nojumps[f], 500);
	}
}
END_TEST

START_TEST(test_bra_ur_invalid_forms)
{
	/* the Python raises for the UR form with '' / .U (an EncodingError
	 * of BRA_U); the port returns "no jump" */
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_NONE, true, ALL), 0);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_U, true, ALL), 0);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, 7, false, 0), 0);
}
END_TEST

START_TEST(test_bra_hand_cases)
{
	/* converged full warp, all jump */
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_NONE, false, 0), ALL);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_U, false, 0), ALL);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_DIV, false, 0), 0);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_CONV, false, 0), ALL);
	/* @P0 with P0 = low half: .U needs all active lanes to agree */
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, 0xffff, BRU_COND_NONE, false, 0), 0xffff);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, 0xffff, BRU_COND_U, false, 0), 0);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, 0xffff, BRU_COND_DIV, false, 0), 0xffff);
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, 0xffff, BRU_COND_CONV, false, 0), 0);
	/* .U: predicate-false lanes outside ActiveMask do not matter */
	ck_assert_uint_eq(bru_bra_mask(0xff, ALL, 0x00ff, BRU_COND_U, false, 0), 0xff);
	/* partial warp (blockDim 8), converged: not divergent */
	ck_assert_uint_eq(bru_bra_mask(0xff, 0xff, ALL, BRU_COND_CONV, false, 0), 0xff);
	ck_assert_uint_eq(bru_bra_mask(0xff, 0xff, ALL, BRU_COND_DIV, false, 0), 0);
	/* already diverged: active 0x0f of valid 0xff -> is_div even if all jump */
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, ALL, BRU_COND_DIV, false, 0), 0x0f);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, ALL, BRU_COND_CONV, false, 0), 0);
	/* no active lane: .U has nothing to assign */
	ck_assert_uint_eq(bru_bra_mask(0, 0xff, ALL, BRU_COND_U, false, 0), 0);

	/* UR form: UR lanes valid but not active -> divergent; all active
	 * lanes jump (not just the predicate-true ones) */
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, 0x01, BRU_COND_DIV, true, 0xf0), 0x0f);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, 0x01, BRU_COND_CONV, true, 0xf0), 0);
	/* UR inside the active lanes, predicate uniform -> not divergent */
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, 0x0f, BRU_COND_CONV, true, 0x0f), 0x0f);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, 0x0f, BRU_COND_DIV, true, 0x0f), 0);
	/* mixed predicate: divergent iff a UR lane is active and predicated off */
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0x0f, 0x05, BRU_COND_DIV, true, 0x03), 0x0f);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0x0f, 0x05, BRU_COND_DIV, true, 0x01), 0);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0x0f, 0x05, BRU_COND_CONV, true, 0x01), 0x0f);
	/* np.any(pgv) is false: nobody jumps */
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0xff, 0x00, BRU_COND_DIV, true, 0xf0), 0);
	ck_assert_uint_eq(bru_bra_mask(0x0f, 0x0f, 0xf0, BRU_COND_CONV, true, 0), 0);
	/* ~URZ (all lanes) on a converged warp with a uniform predicate */
	ck_assert_uint_eq(bru_bra_mask(ALL, ALL, ALL, BRU_COND_CONV, true, ALL), ALL);
}
END_TEST

/* ---- jumps (BRX semantic) -------------------------------------------- */

START_TEST(test_jump_uniform)
{
	we_warp w;

	warp_init(&w, ALL, 0x100);
	bru_jump_uniform(&w, 0, 0x800);                 /* all false */
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert_uint_eq(w.active, ALL);

	bru_jump_uniform(&w, ALL, 0x800);               /* all jump */
	ck_assert_uint_eq(w.active_pc, 0x800);
	ck_assert_uint_eq(w.active, ALL);

	bru_jump_uniform(&w, 0x0000ff00, 0x400);        /* partial: fall through first */
	ck_assert_uint_eq(w.active_pc, 0x810);
	ck_assert_uint_eq(w.active, 0xffff00ff);
	ck_assert(rpc_all(&w, 0x0000ff00, 0x400));

	/* bits outside ActiveMask are ignored: all active lanes jump */
	bru_jump_uniform(&w, ALL, 0x900);
	ck_assert_uint_eq(w.active_pc, 0x900);
	ck_assert_uint_eq(w.active, 0xffff00ff);
	ck_assert(rpc_all(&w, 0x0000ff00, 0x400));

	/* partial from a diverged state: ActiveMask & ~b_jump, not ~b_jump */
	bru_jump_uniform(&w, 0x0000000f, 0xa00);
	ck_assert_uint_eq(w.active_pc, 0x910);
	ck_assert_uint_eq(w.active, 0xffff00f0);
	ck_assert(rpc_all(&w, 0x0000000f, 0xa00));
	ck_assert(rpc_all(&w, 0x0000ff00, 0x400));
}
END_TEST

START_TEST(test_jump_per_lane)
{
	we_warp w;
	uint64_t t[32];

	/* all active lanes jump, three targets: ffs(ActiveMask)'s target wins */
	warp_init(&w, ALL, 0x60);
	w.active = 0xfffffff0;                         /* lanes 0..3 parked */
	park(&w, 0xf, 0x2000);
	for (unsigned l = 0; l < 32; l++)
		t[l] = 0x70 + 0x20 * (l % 3);          /* 0x70, 0x90, 0xb0 */
	bru_jump(&w, ALL, t);
	/* ffs = lane 4, target 0x70 + 0x20*1 = 0x90 */
	ck_assert_uint_eq(w.active_pc, 0x90);
	uint32_t want = 0;
	for (unsigned l = 4; l < 32; l++)
		if (l % 3 == 1)
			want |= 1u << l;
	ck_assert_uint_eq(w.active, want);
	for (unsigned l = 4; l < 32; l++)
		if (l % 3 != 1)
			ck_assert_uint_eq(w.rpc[l], t[l]);
	ck_assert(rpc_all(&w, 0xf, 0x2000));           /* inactive lanes untouched */

	/* partial: fall-through first, jumping lanes get their own targets */
	warp_init(&w, ALL, 0x60);
	bru_jump(&w, 0x00ff00ff, t);
	ck_assert_uint_eq(w.active_pc, 0x70);
	ck_assert_uint_eq(w.active, 0xff00ff00);
	for (unsigned l = 0; l < 32; l++)
		if (0x00ff00ffu >> l & 1u)
			ck_assert_uint_eq(w.rpc[l], t[l]);
		else
			ck_assert_uint_eq(w.rpc[l], POISON);

	/* all false */
	warp_init(&w, 0xff, 0x60);
	bru_jump(&w, 0xff00, t);                        /* no active bit */
	ck_assert_uint_eq(w.active_pc, 0x70);
	ck_assert_uint_eq(w.active, 0xff);
}
END_TEST

START_TEST(test_rpc_eq_and_switch)
{
	we_warp w;

	warp_init(&w, ALL, 0x0);
	w.active = 0x3;
	park(&w, 0x0000fffc, 0x500);
	park(&w, 0xffff0000, 0x300);
	ck_assert_uint_eq(bru_rpc_eq(&w, 0x500), 0x0000fffc);
	ck_assert_uint_eq(bru_rpc_eq(&w, 0x300), 0xffff0000);
	ck_assert_uint_eq(bru_rpc_eq(&w, 0x400), 0);
	/* whole 64-bit compares (SSE2: two halves ANDed; AVX2: four lanes
	 * at once): a PC equal in one half only is no match */
	{
		we_warp v = w;
		uint32_t want = 0;
		for (unsigned l = 0; l < 32; l++) {
			v.rpc[l] = l % 3 == 0 ? UINT64_C(0x100000500) : l % 3 == 1 ? UINT64_C(0x500) : UINT64_C(0x500) << 32;
			want |= (uint32_t)(l % 3 == 1) << l;
		}
		ck_assert_uint_eq(bru_rpc_eq(&v, 0x500), want);
		ck_assert_uint_eq(bru_rpc_eq(&v, UINT64_C(0x100000500)), 0x49249249u);
	}

	/* only lanes of cmask with the chosen RPC become active */
	bru_switch_pc_by_mask(&w, 0x00f0fff0);
	ck_assert_uint_eq(w.active_pc, 0x500);
	ck_assert_uint_eq(w.active, 0x0000fff0);

	w.active = 0xffff;
	bru_switch_pc_by_mask(&w, 0xff000000);
	ck_assert_uint_eq(w.active_pc, 0x300);
	ck_assert_uint_eq(w.active, 0xff000000);
}
END_TEST

/* ---- EXIT -------------------------------------------------------------- */

START_TEST(test_exit_partial)
{
	we_warp w;

	warp_init(&w, ALL, 0x40);
	ck_assert_int_eq(bru_exit(&w, 0x0000ffff, ALL), BRU_CONT);
	ck_assert_uint_eq(w.valid, 0xffff0000);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x50);

	/* Pp participates: @P0 EXIT, P1 */
	warp_init(&w, ALL, 0x40);
	ck_assert_int_eq(bru_exit(&w, 0x0000ffff, 0x000000ff), BRU_CONT);
	ck_assert_uint_eq(w.valid, 0xffffff00);
	ck_assert_uint_eq(w.active, 0xffffff00);

	/* predicated off entirely: a NOP */
	warp_init(&w, ALL, 0x40);
	ck_assert_int_eq(bru_exit(&w, 0, ALL), BRU_CONT);
	ck_assert_uint_eq(w.valid, ALL);
	ck_assert_uint_eq(w.active, ALL);
	ck_assert_uint_eq(w.active_pc, 0x50);
}
END_TEST

START_TEST(test_exit_full)
{
	we_warp w;

	warp_init(&w, 0x00ffffff, 0x40);                /* partial warp */
	ck_assert_int_eq(bru_exit(&w, ALL, ALL), BRU_EXIT);
	ck_assert_uint_eq(w.valid, 0);
	ck_assert_uint_eq(w.active, 0);

	/* the last active branch exits, others remain: switch to them,
	 * preferring non-yield threads even at a higher lane */
	warp_init(&w, ALL, 0x40);
	w.active = 0x000000ff;
	park(&w, 0x0000ff00, 0x200);
	park(&w, 0x00ff0000, 0x300);
	park(&w, 0xff000000, 0x200);
	w.yield = 0x0000ff00;
	ck_assert_int_eq(bru_exit(&w, ALL, ALL), BRU_CONT);
	ck_assert_uint_eq(w.valid, 0xffffff00);
	ck_assert_uint_eq(w.active_pc, 0x300);
	ck_assert_uint_eq(w.active, 0x00ff0000);

	/* only yielding threads left: take the lowest */
	w.yield = 0xffffff00;
	w.active = 0x00ff0000;
	ck_assert_int_eq(bru_exit(&w, ALL, ALL), BRU_CONT);
	ck_assert_uint_eq(w.valid, 0xff00ff00);
	ck_assert_uint_eq(w.active_pc, 0x200);
	/* array2mask(RPC==RPC[lid]) & ValidMask: both groups at 0x200 */
	ck_assert_uint_eq(w.active, 0xff00ff00);

	/* sleeping threads are skipped while others can run */
	warp_init(&w, ALL, 0x40);
	w.active = 0xf;
	park(&w, 0xf0, 0x100);
	park(&w, 0xffffff00, 0x180);
	w.sleep = 0xf0;
	w.wake_time = 99;
	ck_assert_int_eq(bru_exit(&w, ALL, ALL), BRU_CONT);
	ck_assert_uint_eq(w.active_pc, 0x180);
	ck_assert_uint_eq(w.active, 0xffffff00);
}
END_TEST

START_TEST(test_exit_all_sleeping)
{
	we_warp w;

	warp_init(&w, ALL, 0x40);
	w.active = 0xffff;
	park(&w, 0xffff0000, 0x700);
	w.sleep = 0xffff0000;
	w.wake_time = 1000;
	ck_assert_int_eq(bru_exit(&w, ALL, ALL), BRU_SLEEP);
	ck_assert_uint_eq(w.valid, 0xffff0000);
	/* PC and masks are set before warpSleep() */
	ck_assert_uint_eq(w.active_pc, 0x700);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert(!bru_timer_expired(&w, 999));
	ck_assert(bru_timer_expired(&w, 1000));
	ck_assert_uint_eq(w.sleep, 0);
}
END_TEST

/* ---- BSSY / BREAK ------------------------------------------------------ */

START_TEST(test_bssy_break)
{
	we_warp w;

	warp_init(&w, ALL, 0x10);
	w.active = 0x00ff00ff;
	bru_bssy(&w, 0x0000ffff, 3);                    /* @P BSSY B3 */
	ck_assert_uint_eq(w.breg[3], 0x000000ff);
	bru_bssy(&w, ALL, 3);                           /* BSSY appends */
	ck_assert_uint_eq(w.breg[3], 0x00ff00ff);
	bru_bssy(&w, 0, 4);                             /* pmask == 0 */
	ck_assert_uint_eq(w.breg[4], 0);
	ck_assert_uint_eq(w.active_pc, 0x10);           /* PC is the executor's */

	bru_break(&w, ALL, 0x0000000f, 3);              /* BREAK clears pmask bits */
	ck_assert_uint_eq(w.breg[3], 0x00ff00f0);
	bru_break(&w, 0x00f00000, ALL, 3);
	ck_assert_uint_eq(w.breg[3], 0x000f00f0);
	bru_break(&w, 0xff00ff00, ALL, 3);              /* inactive lanes: no effect */
	ck_assert_uint_eq(w.breg[3], 0x000f00f0);
	ck_assert_uint_eq(w.breg[15], 0);
	bru_bssy(&w, ALL, 15);
	ck_assert_uint_eq(w.breg[15], 0x00ff00ff);
}
END_TEST

/* ---- the program interpreter ------------------------------------------ */

enum { OP_NOP, OP_BSSY, OP_BSYNC, OP_BRA, OP_BRX, OP_EXIT, OP_YIELD,
       OP_NANOSLEEP, OP_BREAK, OP_WSYNC, OP_WSYNC_R, OP_COUNT };

typedef struct insn {
	int op;
	uint32_t pg;            /* guard predicate per lane */
	unsigned b;             /* B register */
	uint64_t target;        /* BRA */
	uint64_t tgt[32];       /* BRX */
	uint32_t mm;            /* WARPSYNC I */
	uint32_t mmr[32];       /* WARPSYNC R */
	uint64_t ns;            /* NANOSLEEP */
} insn;

#define MAXPROG 256

typedef struct sim {
	insn prog[MAXPROG];
	unsigned n;
	uint64_t now;
	uint32_t ran[MAXPROG];    /* OR of the ActiveMasks that executed each PC */
	unsigned count[MAXPROG];  /* how often each PC was executed */
	uint32_t expect[MAXPROG]; /* for generated programs */
	bool has_expect[MAXPROG];
	bool poison;              /* poison RPC of active lanes after each step */
	unsigned yields, sleeps, steps;
} sim;

static unsigned emit(sim *s, int op, uint32_t pg)
{
	insn *i = &s->prog[s->n];
	memset(i, 0, sizeof *i);
	i->op = op;
	i->pg = pg;
	return s->n++;
}

/* CHECK (harness.h) for hot loops: the per-step invariant checks only
 * call into libcheck when they fail. */
/* Checks after every step. */
static void check_invariants(const we_warp *w, bru_result r)
{
	CHECK((w->active & ~w->valid) == 0, "active %08x valid %08x", w->active, w->valid);
	if (r == BRU_EXIT) {
		CHECK(w->valid == 0 && w->active == 0, "exit with valid %08x", w->valid);
		return;
	}
	CHECK(w->active != 0, "pc %#llx", (unsigned long long)w->active_pc);
	CHECK(w->active_pc % 16 == 0, "pc %#llx", (unsigned long long)w->active_pc);
	if (r == BRU_SLEEP)       /* the timer must be armed */
		CHECK(w->sleep != 0, "sleep without timer");
	/* every valid inactive lane has a real resume PC */
	for (unsigned l = 0; l < 32; l++)
		if (((w->valid & ~w->active) >> l) & 1u)
			CHECK(w->rpc[l] != POISON, "lane %u lost its RPC", l);
}

static bru_result sim_step(sim *s, we_warp *w)
{
	uint64_t pc = w->active_pc;
	unsigned idx = (unsigned)(pc / 16);
	insn end = { .op = OP_EXIT, .pg = ALL };
	const insn *i = idx < s->n ? &s->prog[idx] : &end;
	bru_result r = BRU_CONT;
	uint32_t fl;

	if (idx < MAXPROG) {
		s->ran[idx] |= w->active;
		s->count[idx]++;
	}
	s->steps++;
	switch (i->op) {
	case OP_NOP:
		w->active_pc += 16;
		break;
	case OP_BSSY:
		bru_bssy(w, i->pg, i->b);
		w->active_pc += 16;
		break;
	case OP_BREAK:
		bru_break(w, i->pg, ALL, i->b);
		w->active_pc += 16;
		break;
	case OP_BSYNC:
		r = bru_bsync(w, i->pg, ALL, i->b);
		break;
	case OP_BRA:
		bru_jump_uniform(w, w->active & i->pg, i->target);
		break;
	case OP_BRX:
		bru_jump(w, w->active & i->pg, i->tgt);
		break;
	case OP_EXIT:
		r = bru_exit(w, i->pg, ALL);
		break;
	case OP_YIELD:
		r = bru_yield(w, i->pg, ALL);
		break;
	case OP_NANOSLEEP:
		r = bru_nanosleep(w, i->pg, ALL, s->now, i->ns);
		break;
	case OP_WSYNC:
		r = bru_warpsync(w, i->pg, ALL, i->mm);
		break;
	case OP_WSYNC_R:
		r = bru_warpsync_grouped(w, i->pg, ALL, i->mmr, &fl);
		break;
	}
	return r;
}

/* Runs until EXIT or FAULT or max steps; the driver side of the timer:
 * time advances by 1 per instruction, and a sleeping warp is woken when
 * its timer expires. */
static bru_result sim_run(sim *s, we_warp *w, unsigned max_steps)
{
	for (unsigned k = 0; k < max_steps; k++) {
		bru_result r;
		w->rpc_written = false;
		we_warp before = *w;

		r = sim_step(s, w);
		/* (a CTA start refills the RPCs only where this says so:
		 * units/warp.h warp_clear_flow) */
		CHECK(w->rpc_written || !memcmp(before.rpc, w->rpc, sizeof w->rpc),
		      "an RPC changed and rpc_written is not set");
		if (r == BRU_FAULT) {
			CHECK(same_state(&before, w), "fault changed the state");
			return r;
		}
		check_invariants(w, r);
		if (r == BRU_EXIT)
			return r;
		if (r == BRU_YIELD)
			s->yields++;
		s->now++;
		if (r == BRU_SLEEP) {
			s->sleeps++;
			if (s->now < w->wake_time)
				s->now = w->wake_time;
			CHECK(bru_timer_expired(w, s->now), "timer did not expire");
			CHECK(w->sleep == 0, "sleep %08x", w->sleep);
		} else {
			(void)bru_timer_expired(w, s->now);
		}
		if (s->poison)
			for (unsigned l = 0; l < 32; l++)
				if (w->active >> l & 1u)
					w->rpc[l] = POISON;
	}
	return BRU_CONT;
}

static void sim_init(sim *s)
{
	memset(s, 0, sizeof *s);
	s->poison = true;
}

/* ---- BSYNC ------------------------------------------------------------ */

START_TEST(test_bsync_if_else)
{
	static sim s;
	we_warp w;
	const uint32_t P = 0x0f0f0f0f;

	sim_init(&s);
	emit(&s, OP_BSSY, ALL); s.prog[0].b = 0;                /* 0x00 BSSY B0    */
	emit(&s, OP_BRA, P); s.prog[1].target = 0x40;            /* 0x10 @P BRA else */
	emit(&s, OP_NOP, ALL);                                   /* 0x20 then       */
	emit(&s, OP_BRA, ALL); s.prog[3].target = 0x50;          /* 0x30 BRA join   */
	emit(&s, OP_NOP, ALL);                                   /* 0x40 else       */
	emit(&s, OP_BSYNC, ALL); s.prog[5].b = 0;                /* 0x50 BSYNC B0   */
	emit(&s, OP_NOP, ALL);                                   /* 0x60 joined     */
	emit(&s, OP_EXIT, ALL);                                  /* 0x70 EXIT       */

	warp_init(&w, ALL, 0);
	ck_assert_int_eq(sim_run(&s, &w, 100), BRU_EXIT);
	ck_assert_uint_eq(s.ran[2], ~P);
	ck_assert_uint_eq(s.ran[4], P);
	ck_assert_uint_eq(s.ran[6], ALL);                        /* reconverged */
	ck_assert_uint_eq(s.count[6], 1);
	ck_assert_uint_eq(s.count[5], 2);                        /* each side   */

	/* step by step: the final ActiveMask after BSYNC is the original */
	warp_init(&w, 0x00ffffff, 0);
	memset(s.ran, 0, sizeof s.ran);
	s.poison = false;
	for (unsigned k = 0; k < 20 && w.active_pc != 0x60; k++)
		ck_assert_int_eq(sim_step(&s, &w), BRU_CONT);
	ck_assert_uint_eq(w.active_pc, 0x60);
	ck_assert_uint_eq(w.active, 0x00ffffff);
	ck_assert_uint_eq(w.breg[0], 0);                          /* written back */
}
END_TEST

START_TEST(test_bsync_pred_false_falls_through)
{
	we_warp w;

	/* @!P BSYNC: the pmask=false threads go on, the others wait here */
	warp_init(&w, ALL, 0x100);
	w.breg[1] = ALL;
	ck_assert_int_eq(bru_bsync(&w, 0xffff0000, ALL, 1), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0xffff0000, 0x100));
	ck_assert_uint_eq(w.breg[1], ALL);
}
END_TEST

START_TEST(test_bsync_switch_to_missing)
{
	we_warp w;

	/* A (0..7) arrives; bmask still has B (8..15, non-yield) and C is
	 * outside bmask: switch to B, not C, although C is... higher? no,
	 * C has the lowest lanes here */
	warp_init(&w, ALL, 0x300);
	w.active = 0x0000ff00;
	w.breg[2] = 0x00ffff00;
	park(&w, 0x000000ff, 0x800);   /* C: outside bmask, lowest lanes */
	park(&w, 0x00ff0000, 0x200);   /* B: in bmask */
	park(&w, 0xff000000, 0x900);
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 2), BRU_CONT);
	ck_assert_uint_eq(w.active_pc, 0x200);
	ck_assert_uint_eq(w.active, 0x00ff0000);
	ck_assert(rpc_all(&w, 0x0000ff00, 0x300));      /* A waits at the BSYNC */
	ck_assert_uint_eq(w.breg[2], 0x00ff0000);       /* A's bits cleared */

	/* B arrives: complete, A and B go on together */
	w.active_pc = 0x300;
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 2), BRU_CONT);
	ck_assert_uint_eq(w.active_pc, 0x310);
	ck_assert_uint_eq(w.active, 0x00ffff00);
	ck_assert_uint_eq(w.breg[2], 0);
}
END_TEST

START_TEST(test_bsync_yield_release)
{
	we_warp w;

	/* B0 holds A (active) and Y (yielded elsewhere); nothing else: 让步放行 */
	warp_init(&w, ALL, 0x300);
	w.active = 0x0000ffff;
	w.breg[0] = ALL;
	w.yield = 0xffff0000;
	park(&w, 0xffff0000, 0x120);
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 0), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x310);
	ck_assert_uint_eq(w.breg[0], 0xffff0000);       /* Y still expected */
	ck_assert_uint_eq(w.yield, 0xffff0000);
	ck_assert(rpc_all(&w, 0xffff0000, 0x120));

	/* Y later arrives at the same BSYNC: completes with only Y, and Y
	 * leaves the YieldMask */
	w.active = 0xffff0000;
	w.active_pc = 0x300;
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 0), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x310);
	ck_assert_uint_eq(w.breg[0], 0);
	ck_assert_uint_eq(w.yield, 0);

	/* a yielding thread that had arrived is cleared from YieldMask too */
	warp_init(&w, ALL, 0x300);
	w.breg[0] = ALL;
	w.yield = 0x3;
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 0), BRU_CONT);
	ck_assert_uint_eq(w.yield, 0);
	ck_assert_uint_eq(w.active, ALL);
}
END_TEST

START_TEST(test_bsync_sleep_release)
{
	we_warp w;

	/* the missing threads of bmask all sleep: BSYNC releases (004) */
	warp_init(&w, ALL, 0x300);
	w.active = 0x0000ffff;
	w.breg[5] = ALL;
	w.sleep = 0xffff0000;
	w.wake_time = 50;
	park(&w, 0xffff0000, 0x120);
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 5), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x310);
	ck_assert_uint_eq(w.breg[5], 0xffff0000);
	ck_assert_uint_eq(w.sleep, 0xffff0000);

	/* one missing thread awake: switch to it instead */
	warp_init(&w, ALL, 0x300);
	w.active = 0x0000ffff;
	w.breg[5] = ALL;
	w.sleep = 0x7fff0000;
	park(&w, 0x7fff0000, 0x120);
	park(&w, 0x80000000, 0x140);
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 5), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x80000000);
	ck_assert_uint_eq(w.active_pc, 0x140);
	ck_assert(rpc_all(&w, 0x0000ffff, 0x300));
}
END_TEST

START_TEST(test_bsync_release_then_switch)
{
	we_warp w;

	/* only yielding threads (Y) of bmask are missing, and some other
	 * thread O outside bmask can run: the arrived threads are released
	 * (resume at PC+16) and the warp switches to O first */
	warp_init(&w, ALL, 0x300);
	w.active = 0x000000ff;                  /* A */
	w.breg[1] = 0x0000ffff;                 /* A | Y */
	w.yield = 0x0000ff00;                   /* Y */
	park(&w, 0x0000ff00, 0x250);
	park(&w, 0xffff0000, 0x500);            /* O */
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 1), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x500);
	ck_assert(rpc_all(&w, 0x000000ff, 0x310));
	ck_assert(rpc_all(&w, 0x0000ff00, 0x250));
	ck_assert_uint_eq(w.breg[1], 0x0000ff00);

	/* threads parked at this BSYNC whose bit is still set (here after a
	 * pmask=false fall-through) are released too, and leave the B
	 * register: no stale bit for the next BSSY/BSYNC pair */
	warp_init(&w, ALL, 0x300);
	w.active = 0x000000ff;                  /* A */
	w.breg[1] = 0x0000ffff;                 /* A | P | Y */
	park(&w, 0x00000f00, 0x300);            /* P: parked here, bit set */
	w.yield = 0x0000f000;                   /* Y */
	park(&w, 0x0000f000, 0x250);
	park(&w, 0xffff0000, 0x500);
	ck_assert_int_eq(bru_bsync(&w, ALL, ALL, 1), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert(rpc_all(&w, 0x00000fff, 0x310));
	ck_assert_uint_eq(w.breg[1], 0x0000f000);
}
END_TEST

/* A spin lock inside a divergent if: O waits at the outer BSYNC B0, Y
 * spins with YIELD inside the inner region B1, A holds the lock and
 * reaches BSYNC B1.  Read literally, 004's BSYNC ping-pongs between A
 * and O forever; it must terminate. */
START_TEST(test_bsync_nested_yield_progress)
{
	static sim s;
	we_warp w;
	const uint32_t A = 0x000000ff, Y = 0x0000ff00, O = 0xffff0000;

	sim_init(&s);
	emit(&s, OP_BSSY, ALL); s.prog[0].b = 0;        /* 0x00 BSSY B0 */
	emit(&s, OP_BRA, O); s.prog[1].target = 0xa0;    /* 0x10 @O BRA 0xa0 */
	emit(&s, OP_BSSY, ALL); s.prog[2].b = 1;        /* 0x20 BSSY B1 */
	emit(&s, OP_BRA, Y); s.prog[3].target = 0x60;    /* 0x30 @Y BRA 0x60 */
	emit(&s, OP_NOP, ALL);                           /* 0x40 A: critical */
	emit(&s, OP_BRA, ALL); s.prog[5].target = 0x90;  /* 0x50 BRA 0x90 */
	emit(&s, OP_YIELD, ALL);                         /* 0x60 Y: YIELD */
	emit(&s, OP_NOP, ALL);                           /* 0x70 */
	emit(&s, OP_NOP, ALL);                           /* 0x80 */
	emit(&s, OP_BSYNC, ALL); s.prog[9].b = 1;       /* 0x90 BSYNC B1 */
	emit(&s, OP_BSYNC, ALL); s.prog[10].b = 0;      /* 0xa0 BSYNC B0 */
	emit(&s, OP_NOP, ALL);                           /* 0xb0 */
	emit(&s, OP_EXIT, ALL);                          /* 0xc0 */

	warp_init(&w, ALL, 0);
	ck_assert_int_eq(sim_run(&s, &w, 1000), BRU_EXIT);
	ck_assert_uint_lt(s.steps, 100);
	ck_assert_uint_eq(s.ran[4], A);
	ck_assert_uint_eq(s.ran[7], Y);
	ck_assert_uint_eq(s.ran[11], ALL);
	ck_assert_uint_ge(s.yields, 1);
}
END_TEST

/* ---- YIELD ------------------------------------------------------------ */

START_TEST(test_yield_simple)
{
	we_warp w;

	/* no divergence: a NOP for the warp, but the driver may switch */
	warp_init(&w, ALL, 0x80);
	ck_assert_int_eq(bru_yield(&w, ALL, ALL), BRU_YIELD);
	ck_assert_uint_eq(w.active_pc, 0x90);
	ck_assert_uint_eq(w.active, ALL);
	ck_assert_uint_eq(w.yield, 0);

	/* pmask=false threads fall through first; the others wait at YIELD */
	warp_init(&w, ALL, 0x80);
	ck_assert_int_eq(bru_yield(&w, 0xff, 0x0f), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xfffffff0);
	ck_assert_uint_eq(w.active_pc, 0x90);
	ck_assert(rpc_all(&w, 0xf, 0x80));

	/* divergent: switch, the yielders resume after the YIELD */
	warp_init(&w, ALL, 0x80);
	w.active = 0xff;
	park(&w, 0xffffff00, 0x400);
	ck_assert_int_eq(bru_yield(&w, ALL, ALL), BRU_YIELD);
	ck_assert_uint_eq(w.active, 0xffffff00);
	ck_assert_uint_eq(w.active_pc, 0x400);
	ck_assert_uint_eq(w.yield, 0xff);
	ck_assert(rpc_all(&w, 0xff, 0x90));
	ck_assert_uint_eq(w.swmask, 0xff);
}
END_TEST

START_TEST(test_yield_rotation)
{
	static sim s;
	we_warp w;
	unsigned visits[4] = { 0 };
	unsigned max_gap = 0, since[4] = { 0 };

	/* four branches, each spinning on YIELD; group g = lanes 8g..8g+7
	 * at 0x100*g */
	sim_init(&s);
	for (unsigned g = 0; g < 4; g++) {
		s.n = 16 * g;
		emit(&s, OP_YIELD, ALL);
		emit(&s, OP_BRA, ALL);
		s.prog[16 * g + 1].target = 0x100 * g;
	}
	s.n = 64;
	warp_init(&w, ALL, 0);
	w.active = 0xff;
	for (unsigned g = 1; g < 4; g++)
		park(&w, 0xffu << (8 * g), 0x100 * g);

	for (unsigned k = 0; k < 400; k++) {
		bru_result r;

		if (s.prog[w.active_pc / 16].op == OP_YIELD) {
			unsigned g = (unsigned)(w.active_pc / 0x100);
			ck_assert_uint_eq(w.active, 0xffu << (8 * g));
			visits[g]++;
			for (unsigned h = 0; h < 4; h++)
				if (h != g && ++since[h] > max_gap)
					max_gap = since[h];
			since[g] = 0;
		}
		r = sim_step(&s, &w);
		ck_assert(r == BRU_CONT || r == BRU_YIELD);
		check_invariants(&w, r);
	}
	/* 004's SwitchMask is refilled with every inactive branch when it
	 * runs empty, so the order is 0,1,2,0,1,3,... : not round robin, but
	 * every branch is chosen, within at most 5 YIELDs of the others
	 * (about 200 YIELDs: 2:2:1:1). */
	for (unsigned g = 0; g < 4; g++)
		ck_assert_uint_ge(visits[g], 30);
	ck_assert_uint_ge(visits[0] + visits[1] + visits[2] + visits[3], 200);
	ck_assert_uint_le(max_gap, 5);
}
END_TEST

START_TEST(test_yield_all_sleeping)
{
	we_warp w;

	warp_init(&w, ALL, 0x80);
	w.active = 0xffff;
	park(&w, 0xffff0000, 0x600);
	w.sleep = 0xffff0000;
	w.wake_time = 77;
	ck_assert_int_eq(bru_yield(&w, ALL, ALL), BRU_SLEEP);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x600);
	ck_assert(rpc_all(&w, 0xffff, 0x90));
	ck_assert_uint_eq(w.yield, 0xffff);
}
END_TEST

/* ---- NANOSLEEP -------------------------------------------------------- */

START_TEST(test_nanosleep_converged)
{
	we_warp w;

	warp_init(&w, 0xff, 0x40);
	ck_assert(!bru_timer_expired(&w, 1000000));     /* not armed */
	ck_assert_int_eq(bru_nanosleep(&w, ALL, ALL, 1000, 250), BRU_SLEEP);
	ck_assert_uint_eq(w.sleep, 0xff);
	ck_assert_uint_eq(w.wake_time, 1250);
	ck_assert_uint_eq(w.active_pc, 0x50);
	ck_assert_uint_eq(w.active, 0xff);
	ck_assert(!bru_timer_expired(&w, 1249));
	ck_assert_uint_eq(w.sleep, 0xff);
	ck_assert(bru_timer_expired(&w, 1250));
	ck_assert_uint_eq(w.sleep, 0);
	ck_assert(!bru_timer_expired(&w, 2000));

	/* pmask=false threads fall through; no timer yet */
	warp_init(&w, ALL, 0x40);
	ck_assert_int_eq(bru_nanosleep(&w, 0xf, ALL, 0, 100), BRU_CONT);
	ck_assert_uint_eq(w.sleep, 0);
	ck_assert_uint_eq(w.active, 0xfffffff0);
	ck_assert_uint_eq(w.active_pc, 0x50);
	ck_assert(rpc_all(&w, 0xf, 0x40));
}
END_TEST

START_TEST(test_nanosleep_divergent)
{
	we_warp w;

	/* A sleeps 500ns, B can run */
	warp_init(&w, ALL, 0x40);
	w.active = 0x0000ffff;
	park(&w, 0xffff0000, 0x200);
	ck_assert_int_eq(bru_nanosleep(&w, ALL, ALL, 100, 500), BRU_CONT);
	ck_assert_uint_eq(w.sleep, 0x0000ffff);
	ck_assert_uint_eq(w.wake_time, 600);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x200);
	ck_assert(rpc_all(&w, 0x0000ffff, 0x50));

	/* B sleeps 100ns at t=200: the timer keeps the shortest (300), and
	 * with A asleep the warp sleeps, A set up to run on wake-up */
	ck_assert_int_eq(bru_nanosleep(&w, ALL, ALL, 200, 100), BRU_SLEEP);
	ck_assert_uint_eq(w.sleep, ALL);
	ck_assert_uint_eq(w.wake_time, 300);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x50);
	ck_assert(rpc_all(&w, 0xffff0000, 0x210));
	ck_assert(bru_timer_expired(&w, 300));          /* one timer clears all */
	ck_assert_uint_eq(w.sleep, 0);

	/* a longer sleep does not postpone an armed timer; a sleeping lane
	 * (4, the lowest candidate) is not chosen */
	warp_init(&w, ALL, 0x40);
	w.active = 0xf;
	park(&w, ~0xfu, 0x200);
	park(&w, 0x10, 0x300);
	w.sleep = 0x10;
	w.wake_time = 150;
	ck_assert_int_eq(bru_nanosleep(&w, ALL, ALL, 100, 1000), BRU_CONT);
	ck_assert_uint_eq(w.wake_time, 150);
	ck_assert_uint_eq(w.sleep, 0x1f);
	ck_assert_uint_eq(w.active_pc, 0x200);
	ck_assert_uint_eq(w.active, 0xffffffe0);

	/* Reading kept from 004: array2mask(RPC==RPC[lid]) takes a sleeping
	 * thread at the same PC along (nanosleep may end early) */
	warp_init(&w, ALL, 0x40);
	w.active = 0xf;
	park(&w, ~0xfu, 0x200);
	w.sleep = 0x80000000;
	w.wake_time = 150;
	ck_assert_int_eq(bru_nanosleep(&w, ALL, ALL, 100, 1000), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xfffffff0);
	ck_assert_uint_eq(w.active_pc, 0x200);
}
END_TEST

/* ---- WARPSYNC --------------------------------------------------------- */

START_TEST(test_warpsync_uniform_if_else)
{
	static sim s;
	we_warp w;
	const uint32_t P = 0xaaaaaaaa;

	sim_init(&s);
	emit(&s, OP_BRA, P); s.prog[0].target = 0x30;    /* 0x00 @P BRA 0x30 */
	emit(&s, OP_NOP, ALL);                           /* 0x10 */
	emit(&s, OP_BRA, ALL); s.prog[2].target = 0x40;  /* 0x20 BRA 0x40 */
	emit(&s, OP_NOP, ALL);                           /* 0x30 */
	emit(&s, OP_WSYNC, ALL); s.prog[4].mm = ALL;     /* 0x40 WARPSYNC ~0 */
	emit(&s, OP_NOP, ALL);                           /* 0x50 */
	emit(&s, OP_EXIT, ALL);

	warp_init(&w, ALL, 0);
	ck_assert_int_eq(sim_run(&s, &w, 100), BRU_EXIT);
	ck_assert_uint_eq(s.ran[5], ALL);
	ck_assert_uint_eq(s.count[5], 1);
	ck_assert_uint_eq(s.count[4], 2);
}
END_TEST

START_TEST(test_warpsync_uniform_cases)
{
	we_warp w, before;

	/* synced: arrived threads outside mmask are not released */
	warp_init(&w, ALL, 0x100);
	w.active = 0x0000000f;
	park(&w, 0x000000f0, 0x100);                    /* arrived, in mmask */
	park(&w, 0x0000ff00, 0x100);                    /* arrived, outside */
	park(&w, 0xffff0000, 0x700);
	ck_assert_int_eq(bru_warpsync(&w, ALL, ALL, 0xff), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xff);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0x0000ff00, 0x100));

	/* exited threads of mmask are not waited for */
	warp_init(&w, 0x0000ffff, 0x100);
	ck_assert_int_eq(bru_warpsync(&w, ALL, ALL, ALL), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff);

	/* not synced: switch to a missing non-yield thread first */
	warp_init(&w, ALL, 0x100);
	w.active = 0xf;
	park(&w, 0xf0, 0x300);
	park(&w, 0xf00, 0x200);
	park(&w, 0xfffff000, 0x900);
	w.yield = 0xf0;
	ck_assert_int_eq(bru_warpsync(&w, ALL, ALL, 0xfff), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xf00);
	ck_assert_uint_eq(w.active_pc, 0x200);
	ck_assert(rpc_all(&w, 0xf, 0x100));

	/* missing threads all sleep: switch to them and sleep */
	warp_init(&w, ALL, 0x100);
	w.active = 0xf;
	park(&w, 0xfffffff0, 0x300);
	w.sleep = 0xf0;
	w.wake_time = 10;
	ck_assert_int_eq(bru_warpsync(&w, ALL, ALL, 0xff), BRU_SLEEP);
	ck_assert_uint_eq(w.active, 0xf0);
	ck_assert_uint_eq(w.active_pc, 0x300);
	ck_assert(rpc_all(&w, 0xf, 0x100));

	/* usage error: an executing thread outside mmask */
	warp_init(&w, ALL, 0x100);
	w.active = 0xff;
	park(&w, ~0xffu, 0x300);
	before = w;
	ck_assert_int_eq(bru_warpsync(&w, ALL, ALL, 0x7f), BRU_FAULT);
	ck_assert(same_state(&before, &w));
	/* ... but not when that thread is predicated off */
	ck_assert_int_eq(bru_warpsync(&w, 0x7f, ALL, 0x7f), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x80);
	ck_assert(rpc_all(&w, 0x7f, 0x100));
}
END_TEST

START_TEST(test_warpsync_grouped)
{
	we_warp w;
	uint32_t mm[32], fl;

	for (unsigned l = 0; l < 32; l++)
		mm[l] = l < 16 ? 0x0000ffff : 0xffff0000;

	/* both groups complete: released one group at a time */
	warp_init(&w, ALL, 0x100);
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(fl, 0);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0xffff0000, 0x100));
	/* later the other group is switched in and released */
	w.active = 0xffff0000;
	w.active_pc = 0x100;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x110);

	/* group 0 incomplete (lanes 8..15 elsewhere), group 1 complete */
	warp_init(&w, ALL, 0x100);
	w.active = 0xffff00ff;
	park(&w, 0x0000ff00, 0x040);
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0x000000ff, 0x100));
	/* group 1 moves on; lanes 0..7 come back: switch to 8..15 */
	park(&w, 0xffff0000, 0x500);
	w.active = 0xff;
	w.active_pc = 0x100;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ff00);
	ck_assert_uint_eq(w.active_pc, 0x040);
	ck_assert(rpc_all(&w, 0xff, 0x100));
	/* 8..15 arrive: group 0 complete */
	w.active_pc = 0x100;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0xffff0000, 0x500));

	/* missing threads all sleep: switch and sleep */
	warp_init(&w, ALL, 0x100);
	w.active = 0x0000000f;
	park(&w, 0xfffffff0, 0x040);
	w.sleep = 0x0000fff0;
	w.wake_time = 5;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_SLEEP);
	ck_assert_uint_eq(w.active, 0xfffffff0);   /* array2mask(RPC==RPC[lid]) & ValidMask */
	ck_assert_uint_eq(w.active_pc, 0x040);

	/* membermasks of threads that are not here are ignored: lane 20
	 * (elsewhere) holds a value that would look complete */
	warp_init(&w, ALL, 0x100);
	w.active = 0x0000000f;
	park(&w, 0xfffffff0, 0x040);
	mm[20] = 0x1;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active_pc, 0x040);                /* switched away */
	ck_assert_uint_eq(w.active, 0xfffffff0);
	ck_assert(rpc_all(&w, 0xf, 0x100));
	mm[20] = 0xffff0000;

	/* pmask=false threads first */
	warp_init(&w, ALL, 0x100);
	ck_assert_int_eq(bru_warpsync_grouped(&w, 0xffff, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert(rpc_all(&w, 0xffff, 0x100));
}
END_TEST

START_TEST(test_warpsync_grouped_faults)
{
	we_warp w, before;
	uint32_t mm[32], fl;

	/* lane 3's membermask omits lane 3 */
	for (unsigned l = 0; l < 32; l++)
		mm[l] = ALL;
	mm[3] = ALL & ~(1u << 3);
	warp_init(&w, ALL, 0x100);
	before = w;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_FAULT);
	ck_assert_uint_eq(fl & (1u << 3), 1u << 3);
	ck_assert(same_state(&before, &w));
	/* predicated off, lane 3 is not checked */
	ck_assert_int_eq(bru_warpsync_grouped(&w, ~(1u << 3), ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(fl, 0);

	/* lane 5 disagrees with its group 0..15 */
	for (unsigned l = 0; l < 32; l++)
		mm[l] = l < 16 ? 0x0000ffff : 0xffff0000;
	mm[5] = 0x000000ff;
	warp_init(&w, ALL, 0x100);
	before = w;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_FAULT);
	ck_assert_uint_eq(fl, 0x0000ffff);
	ck_assert(same_state(&before, &w));

	/* lane 1 names lane 0, lane 0 names only itself: both disagree */
	for (unsigned l = 0; l < 32; l++)
		mm[l] = 1u << l;
	mm[1] = 0x3;
	warp_init(&w, ALL, 0x100);
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_FAULT);
	ck_assert_uint_eq(fl, 0x3);
	/* singleton groups alone are fine: lane 0 is released first */
	mm[1] = 0x2;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x1);
	ck_assert(rpc_all(&w, ~1u, 0x100));

	/* a parked participant with a different mask is a conflict too */
	for (unsigned l = 0; l < 32; l++)
		mm[l] = ALL;
	mm[31] = 0x80000000;
	warp_init(&w, ALL, 0x100);
	w.active = 0x7fffffff;
	park(&w, 0x80000000, 0x100);
	before = w;
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_FAULT);
	ck_assert_uint_eq(fl, 0x7fffffff);
	ck_assert(same_state(&before, &w));

	/* exited lanes are removed before comparing */
	for (unsigned l = 0; l < 32; l++)
		mm[l] = ALL;
	mm[0] = 0x0000ffff;
	warp_init(&w, 0x0000ffff, 0x100);
	ck_assert_int_eq(bru_warpsync_grouped(&w, ALL, ALL, mm, &fl), BRU_CONT);
	ck_assert_uint_eq(w.active, 0x0000ffff);
	ck_assert_uint_eq(w.active_pc, 0x110);
}
END_TEST

/* ---- random programs -------------------------------------------------- */

/* Structured programs: nested if/else regions (BSSY; @P BRA else; then;
 * BRA join; else; join: BSYNC), leaves with NOPs, predicated EXITs and
 * optionally YIELD / NANOSLEEP.  Each NOP records which lanes must run it;
 * the NOP after a join must run all lanes that reach it together (in one
 * execution) when nothing yields or sleeps. */
typedef struct gen {
	sim *s;
	bool yields;
	bool sleeps;
} gen;

static uint32_t gen_block(gen *g, uint32_t cur, unsigned depth);

static uint32_t gen_leaf(gen *g, uint32_t cur)
{
	sim *s = g->s;
	unsigned k;

	if (rndn(4) == 0 && s->n < MAXPROG - 8) {       /* @Q EXIT */
		uint32_t q = rnd32() & rnd32();
		emit(s, OP_EXIT, q);
		cur &= ~q;
	}
	if (g->yields && rndn(3) == 0)
		emit(s, OP_YIELD, rnd32() | rnd32());
	if (g->sleeps && rndn(3) == 0) {
		k = emit(s, OP_NANOSLEEP, rnd32());
		s->prog[k].ns = rndn(40);
	}
	k = emit(s, OP_NOP, ALL);
	s->expect[k] = cur;
	s->has_expect[k] = true;
	return cur;
}

static uint32_t gen_block(gen *g, uint32_t cur, unsigned depth)
{
	sim *s = g->s;
	unsigned choice = depth >= 4 || s->n > MAXPROG - 40 ? 0 : rndn(4);

	if (choice == 0)
		return gen_leaf(g, cur);
	if (choice == 1) {
		uint32_t out = gen_block(g, cur, depth + 1);
		return gen_block(g, out, depth + 1);
	}

	/* if/else region on B[depth] */
	uint32_t p = rndn(5) == 0 ? (rndn(2) ? ALL : 0) : rnd32();
	unsigned bssy = emit(s, OP_BSSY, ALL);
	unsigned bra = emit(s, OP_BRA, p);
	s->prog[bssy].b = depth;
	uint32_t then_out = gen_block(g, cur & ~p, depth + 1);
	unsigned bj = emit(s, OP_BRA, ALL);
	s->prog[bra].target = 16ull * s->n;
	uint32_t else_out = gen_block(g, cur & p, depth + 1);
	unsigned bsync = emit(s, OP_BSYNC, ALL);
	s->prog[bsync].b = depth;
	s->prog[bj].target = 16ull * bsync;
	unsigned k = emit(s, OP_NOP, ALL);
	s->expect[k] = then_out | else_out;
	s->has_expect[k] = true;
	s->prog[k].b = 1;                               /* marks a join */
	return then_out | else_out;
}

START_TEST(test_random_structured)
{
	static sim s;
	gen g = { .s = &s };

	th_rng_seed(0xb5cbu + (uint64_t)_i * 7919u);
	for (unsigned it = 0; it < 1000; it++) {
		we_warp w;
		uint32_t valid = rndn(3) ? ALL : (uint32_t)((1ull << (1 + rndn(32))) - 1);

		sim_init(&s);
		g.yields = _i >= 1;
		g.sleeps = _i >= 2;
		gen_block(&g, valid, 0);
		emit(&s, OP_EXIT, ALL);
		warp_init(&w, valid, 0);
		ck_assert_int_eq(sim_run(&s, &w, 20000), BRU_EXIT);
		for (unsigned k = 0; k < s.n; k++) {
			if (!s.has_expect[k])
				continue;
			CHECK(s.ran[k] == s.expect[k],
			      "it %u pc %#x: ran %08x expected %08x",
			      it, 16 * k, s.ran[k], s.expect[k]);
			if (!g.yields && !g.sleeps && s.prog[k].op == OP_NOP &&
			    s.prog[k].b == 1 && s.expect[k])
				CHECK(s.count[k] == 1, "it %u pc %#x: not reconverged",
				      it, 16 * k);
		}
	}
}
END_TEST

/* Unstructured random programs of every BRU instruction: whatever
 * happens, the warp state stays consistent after every step. */
START_TEST(test_random_invariants)
{
	static sim s;
	unsigned faults = 0, exits = 0, sleeps = 0, yields = 0;

	th_rng_seed(0x1a2b3c4d);
	for (unsigned it = 0; it < 1500; it++) {
		we_warp w;
		unsigned n = 8 + rndn(40);
		uint32_t valid = rndn(3) ? ALL : rnd32() | 1u;

		sim_init(&s);
		for (unsigned k = 0; k < n; k++) {
			int op = (int)rndn(OP_COUNT);
			unsigned i;

			if (op == OP_EXIT && rndn(3))
				op = OP_NOP;            /* keep programs running a while */
			i = emit(&s, op, rndn(3) ? ALL : rnd32());
			insn *in = &s.prog[i];
			in->b = rndn(3);
			in->target = 16ull * rndn(n + 1);
			for (unsigned l = 0; l < 32; l++)
				in->tgt[l] = 16ull * rndn(n + 1);
			if (rndn(3) == 0)
				for (unsigned l = 0; l < 32; l++)
					in->tgt[l] = in->tgt[0];
			in->mm = rndn(2) ? ALL : rnd32() | in->pg;
			/* grouped: lanes in 1, 2, 4 or 8 groups, rarely broken */
			unsigned gs = 4u << rndn(4);    /* 4..32 lanes */
			for (unsigned l = 0; l < 32; l++) {
				uint32_t grp = (gs == 32) ? ALL :
					(((1u << gs) - 1) << (l / gs * gs));
				in->mmr[l] = grp;
			}
			if (rndn(20) == 0)
				in->mmr[rndn(32)] = rnd32();
			in->ns = rndn(30);
		}
		warp_init(&w, valid, 0);
		bru_result r = sim_run(&s, &w, 400);
		if (r == BRU_FAULT)
			faults++;
		if (r == BRU_EXIT)
			exits++;
		sleeps += s.sleeps;
		yields += s.yields;
	}
	/* the generator exercises every outcome */
	ck_assert_uint_gt(faults, 10);
	ck_assert_uint_gt(exits, 100);
	ck_assert_uint_gt(sleeps, 100);
	ck_assert_uint_gt(yields, 100);
}
END_TEST

/* ---- kernels: BMOV, CALL/RET and BRX forms executed ----------------------- */

/* Run the one kernel of src on one CTA of `block` threads of each engine
 * (an engine with lockstep groups also without them) and return the first
 * `words` 32-bit words per thread of its `out` buffer (its only
 * parameter), which must be the same for every run. */
static void run_kernel(const char *src, uint32_t block, unsigned words, uint32_t *res)
{
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_DEFAULTS | TH_UNGROUPED, 0, cs);
	const size_t bytes = (size_t)block * words * 4;
	uint32_t *got = th_xmalloc(bytes);
	for (size_t r = 0; r < n; r++) {
		th_kernel t;
		th_load(&t, src, "bru.we", NULL);
		we_devptr out = th_buf_new(&t, "out", NULL, bytes, 0xee);
		we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(block), .max_instructions = 100000 };
		th_config_apply(&cfg, &cs[r]);
		cfg.threads = 1;
		we_launch_stats stats;
		th_launch_ok(&t, &cfg, &stats, cs[r].name);
		th_get(&t, got, out, bytes);
		if (r == 0)
			memcpy(res, got, bytes);
		else
			ck_assert_msg(!memcmp(res, got, bytes), "%s differs from %s", cs[r].name, cs[0].name);
		th_close(&t);
	}
	free(got);
}

/* the valid lanes of warp t / 32 of a CTA of n threads */
static uint32_t warp_valid(uint32_t t, uint32_t n)
{
	uint32_t left = n - t / 32 * 32;
	return left >= 32 ? ALL : (1u << left) - 1u;
}

/* BMOV Bn, Ra / BMOV Rd, Bn / BMOV.CLEAR: a B register saved, cleared and
 * restored inside a BSSY/BSYNC region around a divergent branch (the
 * restore is what reconverges the warp); a partial guard. */
START_TEST(test_kernel_bmov)
{
	static const char src[] =
		".param ptr out\n"
		"        S2R R0, SR_TID.X ;\n"
		"        MOV R22, 0x30 ;\n"
		"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
		"        LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
		"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
		"        ISETP.GT.U32.AND P1, PT, R0, 0x1000, PT ;\n"
		"        MOV R1, 0x1234 ;\n"
		"        BMOV B3, R1 ;\n"
		"        BMOV R2, B3 ;\n"
		"        BMOV.CLEAR R3, B3 ;\n"
		"        BMOV R4, B3 ;\n"
		"        IADD3 R5, R0, 0x100, RZ ;\n"
		"   @P0  BMOV B6, R5 ;\n"
		"        BMOV R6, B6 ;\n"
		"        MOV R7, 0x77 ;\n"
		"   @P1  BMOV.CLEAR R7, B6 ;\n"
		"        BMOV R8, B6 ;\n"
		"        MOV R14, RZ ;\n"
		"        BSSY B0, `(.j0) ;\n"
		"        BMOV.CLEAR R11, B0 ;\n"
		"        BMOV R12, B0 ;\n"
		"        BMOV B0, R11 ;\n"
		"   @P0  BRA `(.odd) ;\n"
		"        IADD3 R14, R14, 0x1, RZ ;\n"
		"        BRA `(.j0) ;\n"
		".odd:   IADD3 R14, R14, 0x2, RZ ;\n"
		".j0:    BSYNC B0 ;\n"
		"        VOTE.ANY R13, PT, PT ;\n"
		"        BMOV R9, B0 ;\n"
		"        STG.E.128 [R20.64], R[2:5] ;\n"
		"        STG.E.128 [R20.64+0x10], R[6:9] ;\n"
		"        STG.E.64 [R20.64+0x20], R[11:12] ;\n"
		"        EXIT ;\n";
	enum { N = 72, W = 12 };
	uint32_t res[N * W];
	run_kernel(src, N, W, res);
	for (uint32_t t = 0; t < N; t++) {
		const uint32_t v = warp_valid(t, N), base = t / 32 * 32;
		const uint32_t e[W] = {
			0x1234, 0x1234, 0, 0x100 + t,
			0x100 + base + 1, 0x77, 0x100 + base + 1, 0,
			v, 0, 0xeeeeeeeeu, 0xeeeeeeeeu,
		};
		for (unsigned k = 0; k < W; k++)
			if (res[t * W + k] != e[k])
				ck_abort_msg("thread %u word %u: 0x%x, expected 0x%x", t, k, res[t * W + k], e[k]);
	}
}
END_TEST

/* The same, the VOTE after the reconvergence point: every valid lane */
START_TEST(test_kernel_bmov_reconverge)
{
	static const char src[] =
		".param ptr out\n"
		"        S2R R0, SR_TID.X ;\n"
		"        MOV R22, 0x8 ;\n"
		"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
		"        LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
		"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
		"        MOV R14, RZ ;\n"
		"        BSSY B0, `(.j0) ;\n"
		"        BMOV.CLEAR R11, B0 ;\n"
		"        BMOV B0, R11 ;\n"
		"   @P0  BRA `(.odd) ;\n"
		"        IADD3 R14, R14, 0x1, RZ ;\n"
		"        BRA `(.j0) ;\n"
		".odd:   IADD3 R14, R14, 0x2, RZ ;\n"
		".j0:    BSYNC B0 ;\n"
		"        VOTE.ANY R13, PT, PT ;\n"
		"        STG.E.64 [R20.64], R[13:14] ;\n"
		"        EXIT ;\n";
	enum { N = 72 };
	uint32_t res[N * 2];
	run_kernel(src, N, 2, res);
	for (uint32_t t = 0; t < N; t++) {
		if (res[2 * t] != warp_valid(t, N) || res[2 * t + 1] != (t & 1 ? 2u : 1u))
			ck_abort_msg("thread %u: ballot 0x%x, R14 %u", t, res[2 * t], res[2 * t + 1]);
	}
}
END_TEST

/* CALL and RET in every form: a register pair, a uniform register pair or
 * a constant, .ABS and .REL.  A .REL operand is written as the target the
 * offset reaches when the register is 0 (the assembler encodes target -
 * next PC), so CALL.REL Rp, `(.base) goes to .base + Rp.  Each callee
 * does R14 = 3 * R14 + k, so the order is checked too. */
START_TEST(test_kernel_call_ret)
{
	static const char src[] =
		".kernel k\n"
		".param ptr out\n"
		".base:  S2R R0, SR_TID.X ;\n"
		"        MOV R22, 0x4 ;\n"
		"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
		"        MOV R14, RZ ;\n"
		/* 1: CALL.ABS Rp; RET.ABS Rp */
		"        LEPC R[10:11], `(.r1 - .) ;\n"
		"        LEPC R[8:9], `(.fA - .) ;\n"
		"        CALL.ABS R[8:9], 0x0 ;\n"
		/* 2: CALL.REL label (RZ); RET.REL Rp, base */
		".r1:    MOV R10, `(.r2 - .base) ;\n"
		"        MOV R11, RZ ;\n"
		"        CALL.REL `(.fB) ;\n"
		/* 3: CALL.ABS URp; RET.ABS URp */
		".r2:    ULDC.64 UR[4:5], c[0x2][0x0] ;\n"
		"        LEPC R[10:11], `(.r3 - .) ;\n"
		"        R2UR UR6, R10 ;\n"
		"        R2UR UR7, R11 ;\n"
		"        CALL.ABS UR[4:5] ;\n"
		/* 4: CALL.REL URp, base; RET.REL URp, base */
		".r3:    ULDC.64 UR[4:5], c[0x2][0x8] ;\n"
		"        ULDC.64 UR[6:7], c[0x2][0x10] ;\n"
		"        CALL.REL UR[4:5], `(.base) ;\n"
		/* 5: CALL.ABS c[]; RET.ABS c[] */
		".r4:    CALL.ABS c[0x2][0x18] ;\n"
		/* 6: CALL.REL c[]; RET.REL c[] (relative to the next PC) */
		".r5:    CALL.REL c[0x2][0x28] ;\n"
		/* 7: a guarded CALL: the odd lanes call fG, the even ones skip it */
		".r6:    LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
		"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
		"        BSSY B0, `(.r7) ;\n"
		"        LEPC R[10:11], `(.r7 - .) ;\n"
		"   @P0  CALL.REL `(.fG) ;\n"
		".r7:    BSYNC B0 ;\n"
		"        STG.E [R20.64], R14 ;\n"
		"        EXIT ;\n"
		".fA:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x1, RZ ;\n"
		"        RET.ABS R[10:11], 0x0 ;\n"
		".fB:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x2, RZ ;\n"
		"        RET.REL R[10:11], `(.base) ;\n"
		".fC:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x3, RZ ;\n"
		"        RET.ABS UR[6:7] ;\n"
		".fD:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x4, RZ ;\n"
		"        RET.REL UR[6:7], `(.base) ;\n"
		".fE:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x5, RZ ;\n"
		"        RET.ABS c[0x2][0x20] ;\n"
		".fF:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x6, RZ ;\n"
		".fFr:   RET.REL c[0x2][0x30] ;\n"
		".fG:    IMAD R14, R14, 0x3, RZ ;\n"
		"        IADD3 R14, R14, 0x7, RZ ;\n"
		"        RET.ABS R[10:11], 0x0 ;\n"
		".end\n"
		".const 2\n"
		"        .dword .fC\n"
		"        .dword .fD - .base\n"
		"        .dword .r4 - .base\n"
		"        .dword .fE\n"
		"        .dword .r5\n"
		"        .dword .fF - .r6\n"
		"        .dword .r6 - .fFr - 0x10\n";
	enum { N = 40 };
	uint32_t res[N];
	run_kernel(src, N, 1, res);
	uint32_t e = 0;
	for (uint32_t k = 1; k <= 6; k++)
		e = 3 * e + k;
	for (uint32_t t = 0; t < N; t++)
		if (res[t] != (t & 1 ? 3 * e + 7 : e))
			ck_abort_msg("thread %u: R14 = %u, expected %u", t, res[t], t & 1 ? 3 * e + 7 : e);
}
END_TEST

/* BRX with a uniform register and with a constant: uniform jumps through
 * a table in bank 2, then a guarded BRX UR that diverges and reconverges
 * at a BSYNC. */
START_TEST(test_kernel_brx_ur_c)
{
	static const char src[] =
		".kernel k\n"
		".param ptr out\n"
		".base:  S2R R0, SR_TID.X ;\n"
		"        MOV R22, 0x8 ;\n"
		"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
		"        MOV R14, RZ ;\n"
		"        ULDC UR4, c[0x2][0x0] ;\n"
		"        BRX UR4, `(.base - . - 0x10) ;\n"
		"        EXIT ;\n"
		".t1:    IADD3 R14, R14, 0x1, RZ ;\n"
		"        BRX c[0x2][0x4] ;\n"
		".n2:    EXIT ;\n"
		".t2:    IADD3 R14, R14, 0x10, RZ ;\n"
		"        LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
		"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
		"        ULDC UR5, c[0x2][0x8] ;\n"
		"        BSSY B0, `(.join) ;\n"
		"   @P0  BRX UR5, `(.base - . - 0x10) ;\n"
		"        IADD3 R14, R14, 0x100, RZ ;\n"
		"        BRA `(.join) ;\n"
		".odd:   IADD3 R14, R14, 0x200, RZ ;\n"
		".join:  BSYNC B0 ;\n"
		"        VOTE.ANY R13, PT, PT ;\n"
		"        STG.E.64 [R20.64], R[13:14] ;\n"
		"        EXIT ;\n"
		".end\n"
		".const 2\n"
		"        .word .t1 - .base\n"
		"        .word .t2 - .n2\n"
		"        .word .odd - .base\n";
	enum { N = 72 };
	uint32_t res[N * 2];
	run_kernel(src, N, 2, res);
	for (uint32_t t = 0; t < N; t++) {
		const uint32_t r14 = 0x11 + (t & 1 ? 0x200u : 0x100u);
		if (res[2 * t] != warp_valid(t, N) || res[2 * t + 1] != r14)
			ck_abort_msg("thread %u: ballot 0x%x, R14 0x%x (expected 0x%x, 0x%x)", t, res[2 * t],
				     res[2 * t + 1], warp_valid(t, N), r14);
	}
}
END_TEST

/* ---- suite ------------------------------------------------------------ */

static Suite *bru_suite(void)
{
	Suite *s = suite_create("bru");
	TCase *tc;

	tc = tcase_create("bra");
	tcase_add_test(tc, test_bra_golden_random);
	tcase_add_test(tc, test_bra_ur_invalid_forms);
	tcase_add_test(tc, test_bra_hand_cases);
	suite_add_tcase(s, tc);

	tc = tcase_create("jump");
	tcase_add_test(tc, test_jump_uniform);
	tcase_add_test(tc, test_jump_per_lane);
	tcase_add_test(tc, test_rpc_eq_and_switch);
	suite_add_tcase(s, tc);

	tc = tcase_create("exit");
	tcase_add_test(tc, test_exit_partial);
	tcase_add_test(tc, test_exit_full);
	tcase_add_test(tc, test_exit_all_sleeping);
	suite_add_tcase(s, tc);

	tc = tcase_create("bssy_bsync");
	tcase_add_test(tc, test_bssy_break);
	tcase_add_test(tc, test_bsync_if_else);
	tcase_add_test(tc, test_bsync_pred_false_falls_through);
	tcase_add_test(tc, test_bsync_switch_to_missing);
	tcase_add_test(tc, test_bsync_yield_release);
	tcase_add_test(tc, test_bsync_sleep_release);
	tcase_add_test(tc, test_bsync_release_then_switch);
	tcase_add_test(tc, test_bsync_nested_yield_progress);
	suite_add_tcase(s, tc);

	tc = tcase_create("yield_sleep");
	tcase_add_test(tc, test_yield_simple);
	tcase_add_test(tc, test_yield_rotation);
	tcase_add_test(tc, test_yield_all_sleeping);
	tcase_add_test(tc, test_nanosleep_converged);
	tcase_add_test(tc, test_nanosleep_divergent);
	suite_add_tcase(s, tc);

	tc = tcase_create("warpsync");
	tcase_add_test(tc, test_warpsync_uniform_if_else);
	tcase_add_test(tc, test_warpsync_uniform_cases);
	tcase_add_test(tc, test_warpsync_grouped);
	tcase_add_test(tc, test_warpsync_grouped_faults);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernels");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_kernel_bmov);
	tcase_add_test(tc, test_kernel_bmov_reconverge);
	tcase_add_test(tc, test_kernel_call_ret);
	tcase_add_test(tc, test_kernel_brx_ur_c);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_random_structured, 0, 3);
	tcase_add_test(tc, test_random_invariants);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bru_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
