/* test_ptx.c — libcheck suite "ptx": the PTX front end's own parts.
 *
 *  - tbar: the per-thread barrier arrival of units/tbar.c (seed 001's
 *    barrier without .aligned, doc/spec-reading.md), as a pure function
 *    of a warp: parking, the switch to other lanes, the warp's arrival,
 *    exited lanes, the exceptions and the intra-warp deadlock;
 *  - postdom: the immediate post-dominators of cfg.c, BRX successors;
 *  - lowering: what the translation of calls, jump tables and barriers
 *    prints (the frame, spills across a call, the per-kernel labels);
 *  - kernels: hand-written PTX run through the library (a guarded call
 *    and a guarded brx.idx reconverge before a barrier, two kernels with
 *    branches in one module, mov.pred of a constant, a register of a
 *    { } scope, a store of a wider register) and .global variables that
 *    keep their values from one launch to the next;
 *  - lowering also: release/acquire fences, B registers shared by
 *    reconvergence points.
 * The kernels nvcc wrote are tests/ptx.sh's.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptx_int.h"
#include "units/tbar.h"
#include "warpemu/warpemu.h"

#include "harness.h"

#define ALL 0xffffffffu

/* ---- tbar ------------------------------------------------------------------ */

/* a warp whose active lanes are at pc, the other valid ones at other */
static void warp_at(we_warp *w, uint32_t valid, uint32_t active, uint64_t pc, uint64_t other)
{
	memset(w, 0, sizeof *w);
	w->valid = valid;
	w->active = active;
	w->active_pc = pc;
	for (unsigned l = 0; l < 32; l++)
		w->rpc[l] = (active >> l) & 1u ? pc : other;
}

/* A warp's halves reach barrier 0 through two instructions: the first
 * half parks at its TBAR and the warp switches to the other half, whose
 * arrival makes the warp's; both halves resume after their own TBAR. */
START_TEST(tbar_two_pcs)
{
	we_warp w;
	warp_at(&w, ALL, 0x0000ffffu, 0x100, 0x200);
	tbar_warp_arrival a;
	char msg[256];
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0x0000ffffu, 0, 64, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000u);
	ck_assert_uint_eq(w.active_pc, 0x200);
	ck_assert_uint_eq(w.tbar.parked, 0x0000ffffu);
	ck_assert_int_eq(tbar_arrive(&w, 0x200, 0xffff0000u, 0, 64, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_WARP);
	ck_assert_int_eq(a.kind, TBAR_SYNC);
	ck_assert_uint_eq(a.cnt, 64);
	ck_assert_uint_eq(a.lanes, ALL);
	ck_assert_uint_eq(w.active_pc, 0x210);
	for (unsigned l = 0; l < 16; l++)
		ck_assert_uint_eq(w.rpc[l], 0x110);
	ck_assert_uint_eq(w.tbar.parked, 0);
	ck_assert_uint_eq(w.tbar.arrived[0], 0);
}
END_TEST

/* Exited lanes are not waited for: the live lanes' arrival is the warp's. */
START_TEST(tbar_exited)
{
	we_warp w;
	warp_at(&w, 0x00ff00ffu, 0x00ff00ffu, 0x100, 0x100);
	tbar_warp_arrival a;
	char msg[256];
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0x00ff00ffu, 3, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_WARP);
	ck_assert_uint_eq(a.lanes, 0x00ff00ffu);
	/* lanes that exit after others parked: the parked lanes, switched to
	 * again (EXIT's switch), see the warp complete */
	warp_at(&w, ALL, 0x0000ffffu, 0x100, 0x300);
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0x0000ffffu, 3, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_CONT);
	w.valid = 0x0000ffffu; /* the other half exited */
	w.active = 0x0000ffffu;
	w.active_pc = 0x100;
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0x0000ffffu, 3, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_WARP);
	ck_assert_uint_eq(a.lanes, 0x0000ffffu);
	ck_assert_uint_eq(w.active_pc, 0x110);
}
END_TEST

/* barrier.arrive: the lanes go on; the warp arrives without waiting when
 * its last lane does; a lane arriving twice before that is an exception. */
START_TEST(tbar_arrive_twice)
{
	we_warp w;
	warp_at(&w, ALL, 0x0000000fu, 0x100, 0x100);
	tbar_warp_arrival a;
	char msg[256];
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xfu, 1, 64, TBAR_ARV, 0, &a, msg, sizeof msg), TBAR_CONT);
	ck_assert_uint_eq(w.active_pc, 0x110);
	ck_assert_uint_eq(w.active, 0xfu);
	ck_assert_uint_eq(w.tbar.parked, 0);
	ck_assert_int_eq(tbar_arrive(&w, 0x180, 0x3u, 1, 64, TBAR_ARV, 0, &a, msg, sizeof msg), TBAR_FAULT);
	ck_assert_ptr_nonnull(strstr(msg, "a second time"));
	w.active = ~0xfu;
	w.active_pc = 0x140;
	ck_assert_int_eq(tbar_arrive(&w, 0x140, ~0xfu, 1, 64, TBAR_ARV, 0, &a, msg, sizeof msg), TBAR_WARP);
	ck_assert_int_eq(a.kind, TBAR_ARV);
	/* a lane arriving through barrier.sync makes the warp's arrival wait */
	warp_at(&w, ALL, 0xfu, 0x100, 0x100);
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xfu, 1, 64, TBAR_ARV, 0, &a, msg, sizeof msg), TBAR_CONT);
	w.active = ~0xfu;
	ck_assert_int_eq(tbar_arrive(&w, 0x200, ~0xfu, 1, 64, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_WARP);
	ck_assert_int_eq(a.kind, TBAR_SYNC);
}
END_TEST

/* One count and one kind per warp arrival (decision 5 within a warp). */
START_TEST(tbar_mismatch)
{
	we_warp w;
	tbar_warp_arrival a;
	char msg[256];
	warp_at(&w, ALL, 0xffu, 0x100, 0x200);
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xffu, 2, 64, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_CONT);
	ck_assert_int_eq(tbar_arrive(&w, 0x200, ~0xffu, 2, 96, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_FAULT);
	ck_assert_ptr_nonnull(strstr(msg, "count 96"));
	ck_assert_int_eq(tbar_arrive(&w, 0x200, ~0xffu, 2, 64, TBAR_RED, 0, &a, msg, sizeof msg), TBAR_FAULT);
	ck_assert_ptr_nonnull(strstr(msg, "barrier.red"));
}
END_TEST

/* barrier.red: each lane's predicate, from whichever instruction it came
 * through; lanes whose guard is false fall through first. */
START_TEST(tbar_red_and_guard)
{
	we_warp w;
	tbar_warp_arrival a;
	char msg[256];
	warp_at(&w, ALL, ALL, 0x100, 0x100);
	/* guard true in the low half: it parks, the high half falls through */
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xffffu, 4, 0, TBAR_RED, 0x00f0u, &a, msg, sizeof msg), TBAR_CONT);
	ck_assert_uint_eq(w.active, 0xffff0000u);
	ck_assert_uint_eq(w.active_pc, 0x110);
	w.active_pc = 0x300;
	ck_assert_int_eq(tbar_arrive(&w, 0x300, 0xffff0000u, 4, 0, TBAR_RED, 0x0f000000u, &a, msg, sizeof msg),
			 TBAR_WARP);
	ck_assert_int_eq(a.kind, TBAR_RED);
	ck_assert_uint_eq(a.pred, 0x0f0000f0u);
}
END_TEST

/* Every live lane parked, not all at the barrier: an intra-warp deadlock;
 * a parked lane re-executing its TBAR (004's switch chose it) is no new
 * arrival. */
START_TEST(tbar_stuck)
{
	we_warp w;
	tbar_warp_arrival a;
	char msg[256];
	warp_at(&w, ALL, 0xffffu, 0x100, 0x200);
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xffffu, 1, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_CONT);
	/* the low half again, as a switch would bring it back */
	uint32_t hi = w.active;
	w.active = 0xffffu;
	w.active_pc = 0x100;
	ck_assert_int_eq(tbar_arrive(&w, 0x100, 0xffffu, 1, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_CONT);
	ck_assert_uint_eq(w.active, hi);
	ck_assert_int_eq(tbar_arrive(&w, 0x200, 0xffff0000u, 2, 0, TBAR_SYNC, 0, &a, msg, sizeof msg), TBAR_STUCK);
}
END_TEST

/* ---- post-dominators ------------------------------------------------------- */

static lins *add(lcode *c, uint8_t kind, int target, int guard)
{
	lins *l = lc_add(c, kind, 1);
	l->target = target;
	l->guard = guard;
	return l;
}

/* if/else (a diamond) and a jump table: the branch's immediate
 * post-dominator is the join block; BRX's successors are its targets */
START_TEST(postdom)
{
	lcode c = { 0 };
	int p = lc_vreg(&c, RC_PRED, -1);
	int l1 = lc_label(&c), l2 = lc_label(&c), l3 = lc_label(&c);
	add(&c, LK_BRA, l1, p);      /* 0: @p BRA l1          block 0 */
	add(&c, LK_INS, -1, -1);     /* 1:                    block 1 */
	add(&c, LK_BRA, l2, -1);     /* 2: BRA l2                     */
	add(&c, LK_LABEL, l1, -1);   /* 3: l1:                block 2 */
	add(&c, LK_INS, -1, -1);     /* 4:                            */
	add(&c, LK_LABEL, l2, -1);   /* 5: l2:                block 3 */
	lins *x = add(&c, LK_BRX, -1, -1); /* 6: BRX {l1, l3}         */
	x->targets = malloc(2 * sizeof *x->targets);
	ck_assert_ptr_nonnull(x->targets);
	x->targets[0] = l1;
	x->targets[1] = l3;
	x->ntargets = 2;
	add(&c, LK_LABEL, l3, -1);   /* 7: l3:                block 4 */
	add(&c, LK_EXIT, -1, -1);    /* 8: EXIT                       */
	lcfg g;
	ck_assert(cfg_build(&c, &g));
	ck_assert(cfg_postdom_with(&g, &c));
	ck_assert_uint_eq(g.nb, 5);
	ck_assert_int_eq(g.ipdom[g.block_of[0]], (int)g.block_of[5]);
	ck_assert_int_eq(g.b[g.block_of[6]].nxsucc, 2);
	ck_assert_int_eq(g.b[g.block_of[6]].xsucc[1], (int)g.block_of[7]);
	ck_assert_int_eq(g.ipdom[g.block_of[6]], (int)g.block_of[7]);
	ck_assert_int_eq(g.ipdom[g.block_of[8]], -1);
	cfg_free(&g);
	lcode_free(&c);
}
END_TEST

/* ---- lowering ---------------------------------------------------------------- */

static void run_words(const char *ptx, const char *kernel, uint32_t threads, uint32_t *out);

/* (noinline: GCC 12 takes the result for a pointer to the local `text`) */
__attribute__((noinline)) static char *translate(const char *ptx)
{
	char *text = NULL, *diag = NULL;
	we_status st = ptx_translate(ptx, strlen(ptx), "t.ptx", &text, &diag);
	if (st != WE_OK)
		ck_abort_msg("translate: %s", diag ? diag : "?");
	free(diag);
	return text;
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"
/* out[%tid] = %r3 (%r1 = %tid, parameter o) */
#define STORE_R3                                                                  \
	" ld.param.u64 %rd1, [o];\n cvta.to.global.u64 %rd2, %rd1;\n"              \
	" mul.wide.u32 %rd1, %r1, 4;\n add.s64 %rd2, %rd2, %rd1;\n st.global.u32 [%rd2], %r3;\n"

/* a value live across a call is in the caller's frame: stored before the
 * call, loaded after it, relative to SP (R250); the callee saves the
 * return address and returns through it */
static const char *const call_ptx = HEAD
	".func (.param .b32 r) f(.param .b32 a)\n{\n .reg .b32 %r<3>;\n"
	" ld.param.u32 %r1, [a];\n add.s32 %r2, %r1, 1;\n st.param.b32 [r], %r2;\n ret;\n}\n"
	".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n .reg .b64 %rd<3>;\n"
	" .reg .pred %p<2>;\n"
	" mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 7;\n"
	" { .param .b32 p0;\n st.param.b32 [p0], %r1;\n .param .b32 r0;\n"
	" @%p1 call.uni (r0), f, (p0);\n ld.param.b32 %r2, [r0];\n }\n"
	" add.s32 %r3, %r2, %r1;\n" STORE_R3 " bar.sync 0;\n ret;\n}\n";

/* every string of the NULL-terminated parts is in text s */
static void has_all(const char *s, const char *const *parts)
{
	for (; *parts; parts++)
		if (!strstr(s, *parts))
			ck_abort_msg("'%s' is not in the lowered text:\n%s", *parts, s);
}

START_TEST(lower_call)
{
	char *s = translate(call_ptx);
	/* %r1 (the thread index) lives across the call: spilled in k's frame
	 * (STL [R250+..]); the guarded call is a branch over it: BSSY/BSYNC
	 * reconverge the lanes before the barrier */
	has_all(s, (const char *const[]){ "MOV R250, RZ", "LEPC R[252:253], 0x20", "CALL.REL `(.L1_entry)",
					   ".L1_entry:", "STL.64 [R250+0x8], R[252:253]",
					   "RET.ABS R[252:253], 0x0", "STL [R250+", "BSSY B", NULL });
	size_t call = (size_t)(strstr(s, "CALL.REL") - s), st = (size_t)(strstr(s, "STL [R250+") - s);
	ck_assert_uint_lt(st, call);
	ck_assert_ptr_nonnull(strstr(s + call, "LDL R240, [R250+"));
	free(s);
}
END_TEST

/* brx.idx: the table of offsets from the instruction after the BRX in
 * c[2]; two kernels' labels do not clash */
static const char *const brx_ptx = HEAD
	".visible .entry k1(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
	" mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 1;\n mov.u32 %r3, 5;\n"
	" ts: .branchtargets A, B;\n brx.idx %r2, ts;\nA:\n mov.u32 %r3, 7;\n bra.uni C;\n"
	"B:\n mov.u32 %r3, 9;\nC:\n" STORE_R3 " ret;\n}\n"
	".visible .entry k2(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n .reg .pred %p<2>;\n"
	" mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 3;\n mov.u32 %r3, 1;\n setp.ne.u32 %p1, %r2, 0;\n"
	" add.s32 %r2, %r2, -1;\n ts: .branchtargets A, B, C;\n @%p1 brx.idx %r2, ts;\n mov.u32 %r3, 2;\n"
	" bra.uni D;\n"
	"A:\n mov.u32 %r3, 3;\n bra.uni D;\nB:\n mov.u32 %r3, 4;\n bra.uni D;\nC:\n mov.u32 %r3, 6;\n"
	"D:\n bar.sync 0;\n" STORE_R3 " ret;\n}\n";

START_TEST(lower_brx)
{
	char *s = translate(brx_ptx);
	has_all(s, (const char *const[]){ ".const 2", "BRX R", ".L0_", ".L1_", "LDC R", "c[0x2][R", NULL });
	free(s);
}
END_TEST

/* if-conversion (peep.c): a short body that lanes >= 7 branch over runs
 * under the negated guard, without BSSY/BSYNC; a body with a warp-wide
 * instruction (activemask: the lanes that run it) stays a branch.
 * kernel_ifconv runs it. */
static const char *const ifconv_ptx = HEAD
	".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n .reg .b64 %rd<3>;\n .reg .pred %p<3>;\n"
	" mov.u32 %r1, %tid.x;\n mov.u32 %r3, 100;\n setp.ge.u32 %p1, %r1, 7;\n @%p1 bra L1;\n"
	" add.s32 %r3, %r1, 1;\n shl.b32 %r3, %r3, 2;\nL1:\n"
	" setp.lt.u32 %p2, %r1, 40;\n @%p2 bra L2;\n activemask.b32 %r4;\n add.s32 %r3, %r3, %r4;\nL2:\n"
	STORE_R3 " ret;\n}\n";

START_TEST(lower_ifconv)
{
	char *s = translate(ifconv_ptx);
	const char *sh = strstr(s, "SHF.L.U32");
	ck_assert_ptr_nonnull(sh);
	/* the first body: guarded, no branch before the barrier's BSSY */
	ck_assert_ptr_nonnull(strstr(s, "@!P0 IADD3"));
	ck_assert(!strncmp(sh - 5, "@!P0 ", 5));
	const char *bssy = strstr(s, "BSSY");
	ck_assert_ptr_nonnull(bssy);
	ck_assert_ptr_null(strstr(bssy + 1, "BSSY"));
	ck_assert_ptr_nonnull(strstr(bssy, "VOTE"));
	ck_assert_ptr_null(strstr(s, "@!P0 VOTE"));
	/* setp against an immediate: ISETP's immediate form, no MOV first */
	const char *is = strstr(s, "ISETP.GE.U32.AND P0, PT, R");
	ck_assert_ptr_nonnull(is);
	ck_assert(!strncmp(strchr(is + 26, ','), ", 7, PT ;", 9));
	/* copies folded (peep.c): S2R writes %r1's register itself; the low
	 * word of add.s64 %rd2, %rd2, %rd1 goes to %rd2 at once, no MOV
	 * between the IADD3.X and the store */
	const char *s2r = strstr(s, "S2R R");
	char reg[8], copy[16];
	ck_assert(s2r && sscanf(s2r, "S2R %7[^,]", reg) == 1);
	snprintf(copy, sizeof copy, ", %s ;", reg);
	for (const char *m = strstr(s, "MOV R"); m; m = strstr(m + 1, "MOV R"))
		ck_assert(strncmp(strchr(m, ','), copy, strlen(copy)));
	const char *x = strstr(s, "IADD3.X"), *st = strstr(s, "STG"), *mv = x ? strstr(x, "MOV") : NULL;
	ck_assert(x && st && x < st);
	ck_assert(!mv || mv > st);
	free(s);
}
END_TEST

/* st.release / ld.acquire / atom.acq_rel: a fence of the access's scope
 * before a release and after an acquire (PTX's release and acquire
 * patterns), so --check's MEMBAR hand-offs see them; the loads and
 * stores strong of their scope (.STRONG), a plain store weak */
START_TEST(lower_release_acquire)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n .reg .b64 %rd<3>;\n"
		" ld.param.u64 %rd1, [o];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, 5;\n"
		" st.release.gpu.global.u32 [%rd2], %r1;\n ld.acquire.cta.global.u32 %r2, [%rd2+4];\n"
		" atom.acq_rel.sys.global.add.u32 %r3, [%rd2+8], %r2;\n ld.relaxed.gpu.global.u32 %r4, [%rd2+12];\n"
		" st.global.u32 [%rd2+16], %r4;\n ret;\n}\n";
	char *s = translate(ptx);
	const char *rel = strstr(s, "MEMBAR.GPU"), *st = strstr(s, "STG.E.STRONG.GPU [");
	const char *ld = strstr(s, "LDG.E.STRONG.CTA R"), *acq = strstr(s, "MEMBAR.CTA");
	const char *sys1 = strstr(s, "MEMBAR.SYS"), *at = strstr(s, "ATOMG.ADD");
	ck_assert_msg(rel && st && ld && acq && sys1 && at, "%s", s);
	ck_assert(rel < st);
	ck_assert(st < ld);
	ck_assert(ld < acq);
	ck_assert(acq < sys1);
	ck_assert(sys1 < at);
	ck_assert_ptr_nonnull(strstr(at, "MEMBAR.SYS"));
	/* the relaxed load strong, the plain store after it weak */
	const char *rx = strstr(at, "LDG.E.STRONG.GPU R"), *weak = rx ? strstr(rx, "STG.E [") : NULL;
	ck_assert_msg(rx && weak, "%s", s);
	/* three fences in all: none for the relaxed load or the plain store */
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, "MEMBAR")); p++)
		n++;
	ck_assert_uint_eq(n, 4);
	free(s);
}
END_TEST

/* atom/red scopes: .cta and .sys written on the instruction (mem.isa's
 * AtomScope, which --check reads), .gpu the default, not written */
START_TEST(lower_atom_scope)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n .reg .f32 %f<3>;\n .reg .b64 %rd<3>;\n"
		" ld.param.u64 %rd1, [o];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, 5;\n"
		" atom.global.cta.add.u32 %r2, [%rd2], %r1;\n atom.global.gpu.max.s32 %r3, [%rd2+4], %r2;\n"
		" red.global.sys.add.u32 [%rd2+8], %r3;\n mov.f32 %f1, 0f3F800000;\n"
		" atom.global.cta.add.f32 %f2, [%rd2+12], %f1;\n atom.global.inc.u32 %r4, [%rd2+16], %r1;\n"
		" st.global.u32 [%rd2+20], %r4;\n st.global.f32 [%rd2+24], %f2;\n ret;\n}\n";
	char *s = translate(ptx);
	const char *a = strstr(s, "ATOMG.ADD.U32.CTA R"), *b = strstr(s, "ATOMG.MAX.S32 R");
	const char *c = strstr(s, "ATOMG.ADD.U32.SYS RZ"), *d = strstr(s, "ATOMG.ADD.F32.CTA R");
	const char *e = strstr(s, "ATOMG.INC.U32 R");
	ck_assert_msg(a && b && c && d && e, "%s", s);
	ck_assert(a < b && b < c && c < d && d < e);
	ck_assert_msg(!strstr(s, ".GPU"), "%s", s);
	free(s);
}
END_TEST

/* mul.wide + add.s64 of an address (peep.c): one IMAD.WIDE with the base
 * as its addend when the product is read by the add only, and a byte
 * index (cvt.u64.u32 + add.s64) the product by 1; %rd1 written twice in
 * STORE_R3 (lower_ifconv) keeps the add.  Thread t stores 3t at word t,
 * then the threads 4k..4k+3 store their index to byte 128 + k in turn */
static const char *const madwide_ptx = HEAD
	".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<7>;\n"
	" ld.param.u64 %rd1, [o];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n"
	" mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n mul.lo.s32 %r2, %r1, 3;\n"
	" st.global.u32 [%rd4], %r2;\n bar.sync 0;\n shr.u32 %r2, %r1, 2;\n cvt.u64.u32 %rd5, %r2;\n"
	" add.s64 %rd6, %rd2, %rd5;\n st.global.u8 [%rd6+128], %r1;\n ret;\n}\n";

START_TEST(lower_madwide)
{
	char *s = translate(madwide_ptx);
	const char *m = strstr(s, "IMAD.WIDE.U32 R[");
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(strstr(m, ", 4, R["));
	ck_assert_ptr_nonnull(strstr(m, ", 0x1, R["));
	ck_assert_ptr_null(strstr(s, "IADD3.X"));
	free(s);
}
END_TEST

/* or.pred/and.pred of a comparison just made (peep.c): the comparison
 * combines with the other predicate (ISETP.*.OR), no SEL to a 0/1
 * register; %p1 is read twice, so the first combination fuses %p2's
 * comparison and the second %p4's */
static const char *const plogic_ptx = HEAD
	".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n .reg .pred %p<6>;\n"
	" mov.u32 %r1, %tid.x;\n mov.u32 %r3, 0;\n setp.lt.u32 %p1, %r1, 5;\n setp.gt.u32 %p2, %r1, 40;\n"
	" or.pred %p3, %p1, %p2;\n selp.u32 %r3, 1, 0, %p3;\n setp.ne.u32 %p4, %r1, 3;\n and.pred %p5, %p1, %p4;\n"
	" @%p5 add.s32 %r3, %r3, 2;\n" STORE_R3 " ret;\n}\n";

START_TEST(lower_plogic)
{
	char *s = translate(plogic_ptx);
	ck_assert_ptr_nonnull(strstr(s, "ISETP.GT.U32.OR P"));
	ck_assert_ptr_nonnull(strstr(s, "ISETP.NE.U32.AND P"));
	ck_assert_ptr_null(strstr(s, "ISETP.NE.OR"));
	ck_assert_ptr_null(strstr(s, ", RZ, 0x1, "));
	free(s);
}
END_TEST

/* reconvergence points share B registers when they cannot be in use at
 * once: 20 divergent ifs one after the other need two (each one's span
 * meets its neighbours'), not 20 (more than the 16 the ISA has); ifs
 * nested in the two paths of a divergent if, whose lanes run
 * interleaved, get registers of their own.  (Each if's body has an
 * activemask into a register nothing reads, so that if-conversion
 * (peep.c) keeps it a branch.) */
START_TEST(lower_bregs_shared)
{
	char ptx[8192];
	int n = snprintf(ptx, sizeof ptx, HEAD ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %%r<5>;\n"
			 " .reg .b64 %%rd<3>;\n .reg .pred %%p<3>;\n mov.u32 %%r1, %%tid.x;\n mov.u32 %%r3, 0;\n");
	for (int k = 0; k < 20; k++)
		n += snprintf(ptx + n, sizeof ptx - (size_t)n,
			      " and.b32 %%r2, %%r1, %d;\n setp.eq.u32 %%p1, %%r2, 0;\n @%%p1 bra S%d;\n"
			      " add.s32 %%r3, %%r3, %d;\n activemask.b32 %%r4;\nS%d:\n", 1 << (k % 5), k, k + 1, k);
	/* nested: outer on bit 0, inner on bits 1 and 2 */
	n += snprintf(ptx + n, sizeof ptx - (size_t)n,
		      " and.b32 %%r2, %%r1, 1;\n setp.eq.u32 %%p1, %%r2, 0;\n @%%p1 bra E;\n"
		      " and.b32 %%r2, %%r1, 2;\n setp.eq.u32 %%p2, %%r2, 0;\n @%%p2 bra J1;\n"
		      " add.s32 %%r3, %%r3, 1000;\n activemask.b32 %%r4;\nJ1:\n add.s32 %%r3, %%r3, 1;\n bra.uni J;\n"
		      "E:\n and.b32 %%r2, %%r1, 4;\n setp.eq.u32 %%p2, %%r2, 0;\n @%%p2 bra J2;\n"
		      " add.s32 %%r3, %%r3, 2000;\n activemask.b32 %%r4;\nJ2:\n add.s32 %%r3, %%r3, 2;\n"
		      "J:\n bar.sync 0;\n%s ret;\n}\n", STORE_R3);
	ck_assert_int_lt(n, (int)sizeof ptx);
	char *s = translate(ptx);
	uint32_t used = 0;
	for (const char *p = s; (p = strstr(p, "BSSY B")); p++)
		used |= 1u << (atoi(p + 6) & 15);
	/* the sequence: B0 and B1 in turn; the nested ifs: the outer one's
	 * and two inner ones that differ (B0, B1 and B2: the first inner one
	 * may reuse a register of the sequence, the second may not) */
	ck_assert_uint_eq(used, 0x7u);
	free(s);
	uint32_t out[64];
	run_words(ptx, "k", 64, out);
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t want = 0;
		for (uint32_t k = 0; k < 20; k++)
			if (i & (1u << (k % 5)))
				want += k + 1;
		if (i & 1)
			want += (i & 2) ? 1001 : 1;
		else
			want += (i & 4) ? 2002 : 2;
		ck_assert_uint_eq(out[i], want);
	}
}
END_TEST

/* ---- kernels ------------------------------------------------------------------ */

static void run_words(const char *ptx, const char *kernel, uint32_t threads, uint32_t *out)
{
	th_kernel t;
	th_load(&t, ptx, "t.ptx", kernel);
	we_devptr d = th_buf_new(&t, "o", NULL, 4u * threads, 0);
	for (unsigned e = 0; e < TH_NENGINES; e++) {
		we_launch_config cfg = th_cfg1(th_engines[e].id, 1, threads);
		th_restore(&t);
		th_launch_ok(&t, &cfg, NULL, kernel);
		th_get(&t, out, d, 4u * threads);
	}
	th_close(&t);
}

/* nanosleep in both arms of nested divergent ifs, then bar.sync: 004's
 * BSYNC lets the awake threads past while the sleepers sleep, so the
 * aligned barrier needs the WARPSYNC the lowering puts before it in a
 * function that sleeps (else: "aligned barrier executed divergently") */
START_TEST(kernel_nanosleep_bar)
{
	static const char ptx[] = HEAD ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n"
		" .reg .b64 %rd<3>;\n .reg .pred %p<3>;\n mov.u32 %r1, %tid.x;\n mov.u32 %r3, 0;\n"
		" and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra E;\n"
		" and.b32 %r2, %r1, 2;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 bra J1;\n"
		" add.s32 %r3, %r3, 1000;\n nanosleep.u32 0;\nJ1:\n add.s32 %r3, %r3, 1;\n bra.uni J;\n"
		"E:\n and.b32 %r2, %r1, 4;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 bra J2;\n"
		" add.s32 %r3, %r3, 2000;\n nanosleep.u32 0;\nJ2:\n add.s32 %r3, %r3, 2;\n"
		"J:\n bar.sync 0;\n" STORE_R3 " ret;\n}\n";
	char *s = translate(ptx);
	ck_assert_ptr_nonnull(strstr(s, "WARPSYNC 0xffffffff"));
	free(s);
	uint32_t out[64];
	run_words(ptx, "k", 64, out);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], (i & 1) ? ((i & 2) ? 1001 : 1) : ((i & 4) ? 2002 : 2));
}
END_TEST

START_TEST(kernel_guarded_call)
{
	uint32_t out[64];
	run_words(call_ptx, "k", 64, out);
	for (uint32_t i = 0; i < 64; i++) {
		/* lanes < 7 call f (t + 1); the others read the stale return slot */
		if (i < 7)
			ck_assert_uint_eq(out[i], 2 * i + 1);
	}
}
END_TEST

START_TEST(kernel_ifconv)
{
	uint32_t out[64];
	/* lanes 40..63 add the mask of the lanes that run the body */
	run_words(ifconv_ptx, "k", 64, out);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], (i < 7 ? 4 * (i + 1) : 100) + (i >= 40 ? 0xffffff00u : 0));
}
END_TEST

START_TEST(kernel_madwide)
{
	uint32_t out[64];
	run_words(madwide_ptx, "k", 64, out);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(out[i], 3 * i);
	/* bytes 128..143 (words 32..35): one of the four threads of each
	 * byte, whichever stored last */
	const uint8_t *b = (const uint8_t *)out + 128;
	for (uint32_t k = 0; k < 16; k++)
		ck_assert_uint_eq(b[k] >> 2, k);
	for (uint32_t i = 36; i < 64; i++)
		ck_assert_uint_eq(out[i], 3 * i);
}
END_TEST

START_TEST(kernel_plogic)
{
	uint32_t out[64];
	run_words(plogic_ptx, "k", 64, out);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], (i < 5 || i > 40 ? 1u : 0u) + (i < 5 && i != 3 ? 2u : 0u));
}
END_TEST

START_TEST(kernel_brx)
{
	uint32_t out[64];
	run_words(brx_ptx, "k1", 64, out);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], (i & 1) ? 9u : 7u);
	run_words(brx_ptx, "k2", 64, out);
	static const uint32_t want[4] = { 2, 3, 4, 6 };
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(out[i], want[i & 3]);
}
END_TEST

/* mov.pred of a constant (it gave the negation) */
START_TEST(kernel_mov_pred)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
		" .reg .pred %p<3>;\n mov.u32 %r1, %tid.x;\n mov.pred %p1, 0;\n mov.pred %p2, 1;\n"
		" selp.u32 %r2, 10, 20, %p1;\n selp.u32 %r3, 1, 2, %p2;\n add.s32 %r3, %r2, %r3;\n"
		STORE_R3 " ret;\n}\n";
	uint32_t out[32];
	run_words(ptx, "k", 32, out);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(out[i], 21u);
}
END_TEST

/* .global variables live on the device with their module: a second
 * launch sees the counter where the first left it (CUDA's __device__
 * variables); the initialised tables are there from the load on */
START_TEST(kernel_globals_persist)
{
	th_kernel t;
	th_file(&t, "tests/ptx/globals.sm90.ptx", "globals");
	we_devptr d = th_buf_new(&t, "globals_param_0", NULL, 4u * 193u, 0);
	uint32_t out[193];
	for (uint32_t run = 1; run <= 2; run++) {
		we_launch_config cfg = th_cfg1(WE_ENGINE_SCHEDULER, 2, 96);
		th_restore(&t);
		th_launch_ok(&t, &cfg, NULL, "globals");
		th_get(&t, out, d, sizeof out);
		ck_assert_uint_eq(out[192], 192u * run);
		ck_assert_uint_eq(out[0], 10u);
		ck_assert_uint_eq(out[5], 60u + 5u + 16u);
	}
	th_close(&t);
}
END_TEST

/* membermasks are honoured (GPGPU-Sim's functional model treats
 * bar.warp.sync as a no-op and its shfl ignores the membermask): a
 * shuffle among the lanes of its mask works inside a branch that only
 * they take; executed by lanes outside its mask, shfl.sync and
 * bar.warp.sync stop the kernel with an exception naming the PTX line */
#define MASK_PTX(body)                                                                             \
	HEAD ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"        \
	     " .reg .pred %p<2>;\n mov.u32 %r1, %tid.x;\n mov.u32 %r3, 7;\n" body STORE_R3 " ret;\n}\n"

START_TEST(kernel_membermask)
{
	uint32_t out[32];
	run_words(MASK_PTX(" setp.lt.u32 %p1, %r1, 16;\n @!%p1 bra J;\n"
			   " shfl.sync.bfly.b32 %r3, %r1, 1, 31, 0x0000ffff;\nJ:\n"),
		  "k", 32, out);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(out[i], i < 16 ? i ^ 1u : 7u);
	static const char *const bodies[2] = { " shfl.sync.bfly.b32 %r3, %r1, 1, 31, 0x0000ffff;\n",
					       " bar.warp.sync 0x0000ffff;\n" };
	static const char *const texts[2] = { MASK_PTX(" shfl.sync.bfly.b32 %r3, %r1, 1, 31, 0x0000ffff;\n"),
					      MASK_PTX(" bar.warp.sync 0x0000ffff;\n") };
	for (unsigned k = 0; k < 2; k++) {
		th_kernel t;
		th_load(&t, texts[k], "t.ptx", "k");
		th_buf_new(&t, "o", NULL, 4u * 32u, 0);
		we_launch_config cfg = th_cfg1(WE_ENGINE_SCHEDULER, 1, 32);
		we_status st = th_launch(&t, &cfg, NULL);
		th_expect_report(&t, st, WE_ERR_EXCEPTION,
				 (const char *const[]){ "WARPSYNC", "0xffff0000", "t.ptx:11)", NULL }, bodies[k]);
		th_close(&t);
	}
}
END_TEST

/* barrier ids and counts from registers, a count below the CTA's size
 * (gpuocelot wants immediate ids with count = CTA size): warps 0-1 meet at
 * barrier 1, warps 2-3 at barrier 2, 64 threads each; each thread reads
 * what its partner in the other warp of its pair wrote */
START_TEST(kernel_register_barriers)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<9>;\n .reg .b64 %rd<3>;\n"
		" .shared .align 4 .b8 sh[512];\n"
		" mov.u32 %r1, %tid.x;\n shr.u32 %r4, %r1, 6;\n add.s32 %r4, %r4, 1;\n mov.u32 %r5, 64;\n"
		" shl.b32 %r6, %r1, 2;\n mov.u32 %r7, sh;\n add.s32 %r7, %r7, %r6;\n"
		" mul.lo.s32 %r8, %r1, 3;\n st.shared.u32 [%r7], %r8;\n"
		" bar.sync %r4, %r5;\n"
		" xor.b32 %r6, %r6, 128;\n mov.u32 %r7, sh;\n add.s32 %r7, %r7, %r6;\n"
		" ld.shared.u32 %r3, [%r7];\n" STORE_R3 " ret;\n}\n";
	uint32_t out[128];
	run_words(ptx, "k", 128, out);
	for (uint32_t i = 0; i < 128; i++)
		ck_assert_uint_eq(out[i], 3u * (i ^ 32u));
}
END_TEST

/* a register declared in a { } scope shadows the outer one of its name
 * only until the scope ends (nvcc's __syncthreads_count() block has its
 * own %p1; the branch after it must test the kernel's %p1) */
START_TEST(kernel_scope_shadow)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<5>;\n .reg .b64 %rd<3>;\n .reg .pred %p<2>;\n"
		" mov.u32 %r1, %tid.x;\n mov.u32 %r3, 7;\n setp.lt.u32 %p1, %r1, 5;\n"
		" { .reg .pred %p1;\n setp.ne.u32 %p1, %r1, 100;\n selp.u32 %r4, 1, 0, %p1;\n }\n"
		" @%p1 bra L;\n add.s32 %r3, %r3, %r4;\nL:\n" STORE_R3 " ret;\n}\n";
	uint32_t out[32];
	run_words(ptx, "k", 32, out);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(out[i], i < 5 ? 7u : 8u);
}
END_TEST

/* st.u32 of a 64-bit register stores its low word (nvcc emits it) */
START_TEST(kernel_wide_store)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<6>;\n"
		" mov.u32 %r1, %tid.x;\n cvt.u64.u32 %rd4, %r1;\n shl.b64 %rd5, %rd4, 32;\n"
		" or.b64 %rd5, %rd5, %rd4;\n add.s64 %rd5, %rd5, 0x500000003;\n"
		" ld.param.u64 %rd1, [o];\n cvta.to.global.u64 %rd2, %rd1;\n"
		" mul.wide.u32 %rd1, %r1, 4;\n add.s64 %rd2, %rd2, %rd1;\n st.global.u32 [%rd2], %rd5;\n"
		" ret;\n}\n";
	uint32_t out[32];
	run_words(ptx, "k", 32, out);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(out[i], i + 3u);
}
END_TEST

/* An aggregate parameter through the C API: the caller writes its bytes
 * at the offset we_kernel_info gives (its .align kept), and the kernel
 * reads its fields with scalar and .v2/.v4 ld.param (the vectors nvcc
 * emits for some aggregates), bytes and halves sign- or zero-extended */
START_TEST(kernel_struct_param)
{
	static const char *const ptx = HEAD
		".visible .entry k(.param .u32 n, .param .align 16 .b8 s[40], .param .u64 o)\n{\n"
		" .reg .pred %p<2>;\n .reg .b16 %rs<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<6>;\n"
		" ld.param.v4.u32 {%r4, %r5, %r6, %r7}, [s];\n ld.param.v2.u32 {%r8, _}, [s+16];\n"
		" ld.param.u64 %rd3, [s+24];\n ld.param.s8 %rs1, [s+32];\n ld.param.u16 %rs2, [s+34];\n"
		" cvt.s32.s8 %r9, %rs1;\n cvt.u32.u16 %r10, %rs2;\n ld.param.u32 %r11, [n];\n"
		" mov.u32 %r1, %tid.x;\n mov.u32 %r3, %r4;\n"
		" setp.eq.u32 %p1, %r1, 1;\n @%p1 mov.u32 %r3, %r5;\n setp.eq.u32 %p1, %r1, 2;\n @%p1 mov.u32 %r3, %r6;\n"
		" setp.eq.u32 %p1, %r1, 3;\n @%p1 mov.u32 %r3, %r7;\n setp.eq.u32 %p1, %r1, 4;\n @%p1 mov.u32 %r3, %r8;\n"
		" setp.eq.u32 %p1, %r1, 5;\n @%p1 cvt.u32.u64 %r3, %rd3;\n shr.u64 %rd4, %rd3, 32;\n"
		" setp.eq.u32 %p1, %r1, 6;\n @%p1 cvt.u32.u64 %r3, %rd4;\n setp.eq.u32 %p1, %r1, 7;\n @%p1 mov.u32 %r3, %r9;\n"
		" setp.eq.u32 %p1, %r1, 8;\n @%p1 mov.u32 %r3, %r10;\n setp.eq.u32 %p1, %r1, 9;\n @%p1 mov.u32 %r3, %r11;\n"
		STORE_R3 " ret;\n}\n";
	th_kernel t;
	th_load(&t, ptx, "t.ptx", "k");
	const we_param_info *sp = th_param(&t, "s");
	ck_assert_int_eq(sp->type, WE_PARAM_BYTES);
	ck_assert_uint_eq(sp->size, 40);
	ck_assert_uint_eq(sp->offset, 16); /* after n, at its .align 16 */
	ck_assert_uint_eq(th_param(&t, "o")->offset, 56);
	uint8_t s[40] = { 0 };
	const uint32_t w[5] = { 11, 22, 33, 44, 55 };
	const uint64_t q = 0x0123456789abcdefull;
	const int8_t b = -5;
	const uint16_t h = 60000;
	memcpy(s, w, sizeof w);
	memcpy(s + 24, &q, 8);
	memcpy(s + 32, &b, 1);
	memcpy(s + 34, &h, 2);
	memcpy(t.params + sp->offset, s, sizeof s);
	th_u32(&t, "n", 77);
	we_devptr d = th_buf_new(&t, "o", NULL, 4u * 32, 0);
	const uint32_t want[10] = { 11, 22, 33, 44, 55, 0x89abcdefu, 0x01234567u, (uint32_t)-5, 60000, 77 };
	for (unsigned e = 0; e < TH_NENGINES; e++) {
		uint32_t out[32];
		we_launch_config cfg = th_cfg1(th_engines[e].id, 1, 32);
		th_restore(&t);
		th_launch_ok(&t, &cfg, NULL, "k");
		th_get(&t, out, d, sizeof out);
		for (unsigned i = 0; i < 10; i++)
			ck_assert_uint_eq(out[i], want[i]);
	}
	th_close(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ptx");
	TCase *t = tcase_create("tbar");
	tcase_add_test(t, tbar_two_pcs);
	tcase_add_test(t, tbar_exited);
	tcase_add_test(t, tbar_arrive_twice);
	tcase_add_test(t, tbar_mismatch);
	tcase_add_test(t, tbar_red_and_guard);
	tcase_add_test(t, tbar_stuck);
	suite_add_tcase(s, t);
	t = tcase_create("lowering");
	tcase_add_test(t, postdom);
	tcase_add_test(t, lower_call);
	tcase_add_test(t, lower_brx);
	tcase_add_test(t, lower_ifconv);
	tcase_add_test(t, lower_madwide);
	tcase_add_test(t, lower_plogic);
	tcase_add_test(t, lower_release_acquire);
	tcase_add_test(t, lower_atom_scope);
	tcase_add_test(t, lower_bregs_shared);
	suite_add_tcase(s, t);
	t = tcase_create("kernels");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, kernel_guarded_call);
	tcase_add_test(t, kernel_brx);
	tcase_add_test(t, kernel_ifconv);
	tcase_add_test(t, kernel_madwide);
	tcase_add_test(t, kernel_plogic);
	tcase_add_test(t, kernel_mov_pred);
	tcase_add_test(t, kernel_globals_persist);
	tcase_add_test(t, kernel_membermask);
	tcase_add_test(t, kernel_register_barriers);
	tcase_add_test(t, kernel_scope_shadow);
	tcase_add_test(t, kernel_wide_store);
	tcase_add_test(t, kernel_struct_param);
	tcase_add_test(t, kernel_nanosleep_bar);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
