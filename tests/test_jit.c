/* test_jit — the compiled tier (src/exec/jit.h, we_launch_config.jit).
 *
 * The differential test of every kernel of the tree under every engine
 * configuration with the tier on is test_lockstep (tests/engines.h,
 * TH_COMPILED) and tests/ptx.sh (--jit on); this file asserts what those
 * cannot see:
 *   ops      one block of every compiled instruction form (guards from
 *            per-lane predicates, carries, .X, .HI, WIDE, every SHF shape
 *            with per-lane counts, LOP3 with Pu, FADD/FMUL/FFMA with
 *            -/|x| on NaNs, infinities, zeros and subnormals, c[0x0][..]
 *            operands) is compiled whole (the stats count its
 *            instructions exactly) and gives the interpreter's buffers
 *            and counters in every group setting;
 *   fault    a fault at the end of a compiled block: the same status, text
 *            and JSON report (CTA, warp, lanes, PC) as interpreted;
 *   states   when the tier is used: auto on a small launch and a short
 *            one of many CTAs, auto after on (the module's cache: not
 *            compiled again), on, off, and the launches that keep the
 *            interpreter (warp-threads, lockstep 1, check, profile, trace,
 *            a seeded schedule); a kernel with nothing to compile;
 *            without LLVM, on is refused;
 *   auto_rule      xjit_auto_pays, the rule of auto;
 *   auto_compiles  auto compiling during a long launch (two workers),
 *            with the interpreter's results.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "exec/jit.h"
#include "harness.h"

#define WALL_TIMEOUT_S 60.0

/* The block between the loads and the stores: OPS_BLOCK instructions,
 * all of forms jit.c compiles.  Inputs R4..R7 integers, R8..R11 floats;
 * results R12..R37. */
#define OPS_BLOCK 39
static const char ops_text[] =
	".kernel ops\n"
	".param ptr out\n"        /* 0x0  */
	".param ptr in\n"         /* 0x8  */
	".param u32 k0\n"         /* 0x10 */
	".param f32 f0\n"         /* 0x14 */
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R0, R1, R2, R0 ;\n"
	"        MOV R62, c[0x0][0x8] ;\n"
	"        MOV R63, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[60:61], R0, 0x20, R[62:63] ;\n"
	"        LDG R4, [R60.64] ;\n"
	"        LDG R5, [R60.64+0x4] ;\n"
	"        LDG R6, [R60.64+0x8] ;\n"
	"        LDG R7, [R60.64+0xc] ;\n"
	"        LDG R8, [R60.64+0x10] ;\n"
	"        LDG R9, [R60.64+0x14] ;\n"
	"        LDG R10, [R60.64+0x18] ;\n"
	"        LDG R11, [R60.64+0x1c] ;\n"
	/* the block */
	"        ISETP.LT.AND P0, PT, R4, R5, PT ;\n"
	"        ISETP.GE.U32.OR P1, PT, R6, c[0x0][0x10], P0 ;\n"
	"        ISETP.NE.XOR P2, P3, R7, 0x5, !P1 ;\n"
	"   @P0  IADD3 R12, R4, -R5, R6 ;\n"
	"        IADD3 R13, P4, P5, R4, R5, R6 ;\n"
	"        IADD3.X R14, R7, R8, RZ, P4, !P5 ;\n"
	"   @!P1 IMAD.HI R15, R4, R5, R6 ;\n"
	"        IMAD.HI.U32 R16, R4, R5, R6 ;\n"
	"        IMAD R17, R6, 0x3, R7 ;\n"
	"        IMAD.WIDE R[18:19], R4, R5, R[6:7] ;\n"
	"   @P2  IMAD.WIDE.U32 R[20:21], R5, c[0x0][0x10], R[8:9] ;\n"
	"        LOP3.LUT P6, R22, R4, R5, R6, 0x96, !PT ;\n"
	"        LOP3.LUT R23, R4, 0xff00ff, R7, 0xe2, !PT ;\n"
	"        SHF.L.U32 R24, R4, R5, RZ ;\n"
	"        SHF.R.S32.HI R25, RZ, R6, R4 ;\n"
	"        SHF.R.U64 R26, R4, R7, R5 ;\n"
	"        SHF.L.W.U32.HI R27, R4, R5, R6 ;\n"
	"        SHF.R.S64 R28, R4, 0x23, R5 ;\n"
	"        FADD R29, R8, R9 ;\n"
	"        FADD R30, -R8, |R10| ;\n"
	"        FMUL R31, R9, R10 ;\n"
	"   @P3  FMUL R32, R9, c[0x0][0x14] ;\n"
	"        FFMA R33, R8, R9, R10 ;\n"
	"        FFMA R34, -|R8|, R11, -R10 ;\n"
	"        MOV R35, c[0x0][0x14] ;\n"
	"   @!P0 MOV R35, R11 ;\n"
	"        MOV R36, RZ ;\n"
	"   @P0  IADD3 R36, R36, 0x1, RZ ;\n"
	"   @P1  IADD3 R36, R36, 0x2, RZ ;\n"
	"   @P2  IADD3 R36, R36, 0x4, RZ ;\n"
	"   @P3  IADD3 R36, R36, 0x8, RZ ;\n"
	"   @P4  IADD3 R36, R36, 0x10, RZ ;\n"
	"   @P5  IADD3 R36, R36, 0x20, RZ ;\n"
	"   @P6  IADD3 R36, R36, 0x40, RZ ;\n"
	"   @!PT MOV R36, RZ ;\n"
	"        IADD3 R37, R4, R0, RZ ;\n"
	"        SHF.R.U32.HI R37, RZ, 0x1, R37 ;\n"
	"        IMAD R37, R37, R37, R36 ;\n"
	"        LOP3.LUT R37, R37, R12, R13, 0x1e, !PT ;\n"
	/* the stores: R12..R37 */
	"        MOV R62, c[0x0][0x0] ;\n"
	"        MOV R63, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[60:61], R0, 0x68, R[62:63] ;\n"
	"        STG [R60.64], R12 ;\n"
	"        STG [R60.64+0x4], R13 ;\n"
	"        STG [R60.64+0x8], R14 ;\n"
	"        STG [R60.64+0xc], R15 ;\n"
	"        STG [R60.64+0x10], R16 ;\n"
	"        STG [R60.64+0x14], R17 ;\n"
	"        STG [R60.64+0x18], R18 ;\n"
	"        STG [R60.64+0x1c], R19 ;\n"
	"        STG [R60.64+0x20], R20 ;\n"
	"        STG [R60.64+0x24], R21 ;\n"
	"        STG [R60.64+0x28], R22 ;\n"
	"        STG [R60.64+0x2c], R23 ;\n"
	"        STG [R60.64+0x30], R24 ;\n"
	"        STG [R60.64+0x34], R25 ;\n"
	"        STG [R60.64+0x38], R26 ;\n"
	"        STG [R60.64+0x3c], R27 ;\n"
	"        STG [R60.64+0x40], R28 ;\n"
	"        STG [R60.64+0x44], R29 ;\n"
	"        STG [R60.64+0x48], R30 ;\n"
	"        STG [R60.64+0x4c], R31 ;\n"
	"        STG [R60.64+0x50], R32 ;\n"
	"        STG [R60.64+0x54], R33 ;\n"
	"        STG [R60.64+0x58], R34 ;\n"
	"        STG [R60.64+0x5c], R35 ;\n"
	"        STG [R60.64+0x60], R36 ;\n"
	"        STG [R60.64+0x64], R37 ;\n"
	"        EXIT ;\n"
	".end\n";
/* the kernel's one block: everything from the IMAD after the S2Rs (not
 * compiled) to the EXIT: IMAD, MOV, MOV, IMAD.WIDE, the 8 loads, the
 * block, MOV, MOV, IMAD.WIDE and the 26 stores */
#define OPS_COMPILED (4 + 8 + OPS_BLOCK + 3 + 26)

#define OPS_CTAS 6u
#define OPS_BLOCKDIM 128u
#define OPS_THREADS (OPS_CTAS * OPS_BLOCKDIM)

/* Inputs: integers from edge values and random words, shift counts
 * 0..70; floats from NaNs (with payloads), infinities, zeros,
 * subnormals, 1 and random bits. */
static void ops_inputs(uint32_t *in)
{
	static const uint32_t iedge[] = { 0u, 1u, 5u, 31u, 32u, 33u, 63u, 64u, 0x7fffffffu, 0x80000000u,
					  0xffffffffu, 0xfffffffeu };
	static const uint32_t fedge[] = { 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
					  0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u,
					  0x7f7fffffu, 0xbf800000u };
	th_rng_seed(19);
	for (size_t t = 0; t < OPS_THREADS; t++) {
		for (unsigned k = 0; k < 4; k++) {
			const uint32_t r = th_rng();
			in[t * 8 + k] = (r & 3u) == 0 ? iedge[(r >> 2) % 12u] : (r & 3u) == 1 ? (r >> 8) % 71u : th_rng();
		}
		for (unsigned k = 4; k < 8; k++) {
			const uint32_t r = th_rng();
			in[t * 8 + k] = (r & 1u) ? fedge[(r >> 1) % 12u] : th_rng();
		}
	}
}

static void ops_load(th_kernel *t)
{
	th_load(t, ops_text, "ops", "ops");
	uint32_t *in = th_xmalloc(OPS_THREADS * 8 * 4);
	ops_inputs(in);
	th_buf_new(t, "out", NULL, OPS_THREADS * 0x68, 0xa5);
	th_buf_new(t, "in", in, OPS_THREADS * 8 * 4, 0);
	free(in);
	th_u32(t, "k0", 0x40000000u);
	th_f32(t, "f0", -2.5f);
}

static we_launch_config ops_cfg(void)
{
	we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, OPS_CTAS, OPS_BLOCKDIM);
	c.timeout = WALL_TIMEOUT_S;
	return c;
}

START_TEST(ops)
{
	th_kernel t;
	ops_load(&t);
	we_launch_config c = ops_cfg();
	c.jit = WE_JIT_OFF;
	c.lockstep = 1;
	th_run ref;
	th_run_launch(&t, &c, &ref);
	th_expect_ok(&ref, "jit off, lockstep 1");
	CHECK(!strcmp(ref.s.jit, "off") && ref.s.jit_blocks == 0, "jit off: %s", ref.s.jit);
	/* the interpreter's own group settings, then the tier's */
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_DEFAULTS | TH_GROUPED | TH_COMPILED, TH_GROUPS, cs);
	size_t compiled = 0;
	for (size_t i = 0; i < n; i++) {
		th_run r;
		we_launch_config ci = c;
		th_config_apply(&ci, &cs[i]);
		th_run_launch(&t, &ci, &r);
		th_expect_same(&t, &ref, &r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off, lockstep 1", cs[i].name);
		if (cs[i].jit == WE_JIT_ON) {
			/* compiled by the first launch only: the module's
			 * cache serves the others */
			compiled++;
			CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_insns == OPS_COMPILED && r.s.jit_blocks == 1 &&
				      (compiled == 1 ? r.s.jit_seconds > 0 : r.s.jit_seconds == 0),
			      "%s: jit %s, %u blocks of %u instructions (%u expected) in %g s", cs[i].name, r.s.jit,
			      r.s.jit_blocks, r.s.jit_insns, OPS_COMPILED, r.s.jit_seconds);
		}
		th_run_free(&r);
	}
	CHECK(compiled == (we_jit_available() ? TH_NCOMPILED : 0), "%zu configurations with jit on", compiled);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* A block ending in an STG past the buffer's end (warp 1's lanes 0-31
 * of CTA 1 fault first: lower warps store in range): the compiled
 * block's side exit leaves the STG to the interpreter. */
static const char fault_text[] =
	".kernel fault\n"
	".param ptr out\n"
	".param u32 n\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R0, R1, R2, R0 ;\n"
	"        MOV R4, c[0x0][0x0] ;\n"
	"        MOV R5, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n"
	"        LOP3.LUT R6, R0, 0x1234, RZ, 0x3c, !PT ;\n"
	"        IMAD R6, R6, R6, R0 ;\n"
	"        STG [R4.64], R6 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(fault)
{
	th_kernel t;
	th_load(&t, fault_text, "fault", "fault");
	th_buf_new(&t, "out", NULL, 160 * 4, 0);
	th_u32(&t, "n", 0);
	we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, 2, 128);
	c.timeout = WALL_TIMEOUT_S;
	c.jit = WE_JIT_OFF;
	th_run ref;
	th_run_launch(&t, &c, &ref);
	CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "PC 0x0090") && strstr(ref.err, "STG"),
	      "jit off: %s\n%s", we_status_name(ref.st), ref.err);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (size_t i = 0; i < n; i++) {
		th_run r;
		we_launch_config ci = c;
		th_config_apply(&ci, &cs[i]);
		th_run_launch(&t, &ci, &r);
		th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY, "jit off", cs[i].name);
		CHECK(!strcmp(r.s.jit, "compiled"), "%s: jit %s", cs[i].name, r.s.jit);
		th_run_free(&r);
	}
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* The state of the tier in a launch of the ops kernel under c. */
static void expect_state(th_kernel *t, we_launch_config c, const char *want, const char *what)
{
	th_run r;
	th_run_launch(t, &c, &r);
	th_expect_ok(&r, what);
	CHECK(r.s.jit && !strcmp(r.s.jit, want), "%s: jit %s, expected %s", what, r.s.jit ? r.s.jit : "(null)",
	      want);
	CHECK((r.s.jit_blocks != 0) == !strcmp(want, "compiled"), "%s: %u blocks", what, r.s.jit_blocks);
	th_run_free(&r);
}

static void trace_sink(void *ctx, const char *line)
{
	(void)line;
	(*(unsigned *)ctx)++;
}

START_TEST(states)
{
	th_kernel t;
	ops_load(&t);
	we_launch_config c = ops_cfg();
	if (!we_jit_available()) {
		c.jit = WE_JIT_ON;
		CHECK(th_launch(&t, &c, NULL) == WE_ERR_INVALID, "jit on without LLVM is not refused");
		c.jit = WE_JIT_AUTO;
		expect_state(&t, c, "not built", "auto without LLVM");
		th_close(&t);
		return;
	}
	expect_state(&t, c, "below the auto threshold", "auto, a small launch");
	c.jit = WE_JIT_OFF;
	expect_state(&t, c, "off", "off");
	c.jit = WE_JIT_ON;
	expect_state(&t, c, "compiled", "on");
	/* auto, the kernel compiled by the launch before: its code at once,
	 * nothing compiled again */
	we_launch_config d = c;
	d.jit = WE_JIT_AUTO;
	th_run r;
	th_run_launch(&t, &d, &r);
	th_expect_ok(&r, "auto, compiled before");
	CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks == 1 && r.s.jit_seconds == 0,
	      "auto, compiled before: jit %s, %u blocks, %g s", r.s.jit, r.s.jit_blocks, r.s.jit_seconds);
	th_run_free(&r);
	d = c;
	d.engine = WE_ENGINE_WARP_THREADS;
	expect_state(&t, d, "interpreter needed", "warp-threads");
	d = c;
	d.lockstep = 1;
	expect_state(&t, d, "interpreter needed", "lockstep 1");
	d = c;
	d.check = true;
	expect_state(&t, d, "interpreter needed", "check");
	d = c;
	d.check_memory = WE_CHECK_RACES;
	expect_state(&t, d, "interpreter needed", "check races");
	d = c;
	d.profile = true;
	expect_state(&t, d, "interpreter needed", "profile");
	d = c;
	d.schedule_seeded = true;
	d.schedule_seed = 3;
	expect_state(&t, d, "interpreter needed", "seeded schedule");
	unsigned lines = 0;
	d = c;
	d.trace = trace_sink;
	d.trace_ctx = &lines;
	expect_state(&t, d, "interpreter needed", "trace");
	CHECK(lines > 0, "no trace");
	th_close(&t);

	/* auto, a short launch of many CTAs (2^20 threads) of a kernel not
	 * compiled yet: far below the rule's 8 compile times */
	th_load(&t, fault_text, "fault", "fault");
	th_buf_new(&t, "out", NULL, (size_t)(1u << 20) * 4, 0);
	th_u32(&t, "n", 0);
	c = th_cfg1(WE_ENGINE_SCHEDULER, 1024, 1024);
	c.timeout = WALL_TIMEOUT_S;
	/* (asserted where the interpreted launch takes under a quarter of
	 * the rule's threshold: a sanitizer build on a loaded host may be
	 * slow enough for auto to compile rightly) */
	c.jit = WE_JIT_OFF;
	th_run off;
	th_run_launch(&t, &c, &off);
	th_expect_ok(&off, "off, 2^20 threads of a short kernel");
	c.jit = WE_JIT_AUTO;
	if (off.s.seconds * 4.0 < XJIT_AUTO_FACTOR * XJIT_COMPILE_GUESS)
		expect_state(&t, c, "below the auto threshold", "auto, 2^20 threads of a short kernel");
	th_run_free(&off);
	th_close(&t);

	/* nothing to compile: no two plain ALU instructions in a row */
	static const char none_text[] = ".kernel none\n.param ptr out\n"
					"        S2R R0, SR_TID.X ;\n"
					"        MOV R4, c[0x0][0x0] ;\n"
					"        S2R R1, SR_LANEID ;\n"
					"        EXIT ;\n.end\n";
	th_load(&t, none_text, "none", "none");
	th_buf_new(&t, "out", NULL, 4, 0);
	c = th_cfg1(WE_ENGINE_SCHEDULER, 1, 64);
	c.jit = WE_JIT_ON;
	expect_state(&t, c, "no block", "a kernel without a block");
	th_close(&t);
}
END_TEST

/* --jit auto's rule (exec/jit.h): the interpreter's predicted remaining
 * time against 8 compile times */
START_TEST(auto_rule)
{
	/* 10 ms per batch of 4 CTAs, 320 CTAs left, 1 worker: 0.8 s */
	CHECK(xjit_auto_pays(0.01, 4, 320, 1, 0.1), "0.8 s against 8 x 0.1 s");
	CHECK(!xjit_auto_pays(0.01, 4, 319, 1, 0.1), "0.7975 s against 8 x 0.1 s");
	CHECK(!xjit_auto_pays(0.01, 4, 320, 2, 0.1), "two workers: 0.4 s");
	CHECK(xjit_auto_pays(0.01, 4, 320, 2, 0.05), "two workers, 0.05 s compiles");
	CHECK(!xjit_auto_pays(0.01, 4, 0, 1, 0.001), "nothing left");
	CHECK(!xjit_auto_pays(0.01, 0, 320, 1, 0.1) && !xjit_auto_pays(0.01, 4, 320, 0, 0.1), "no batch, no worker");
}
END_TEST

/* auto on a long launch of a kernel not compiled yet: worker 0's first
 * batch predicts about 1 s of interpretation on the project's machine
 * (2.5 times the rule's 8 x 50 ms; more under ASan), so it
 * compiles while the launch runs; the results are the interpreter's. */
START_TEST(auto_compiles)
{
	if (!we_jit_available())
		return;
	th_kernel t;
	th_file(&t, "bench/kernels/alu.we", "alu");
	/* (ThreadSanitizer runs this some 10 times slower: as many trips
	 * would pass the wall-clock limit, and a tenth of them predicts as
	 * much time) */
#ifdef __SANITIZE_THREAD__
	th_u32(&t, "iters", 2500);
#else
	th_u32(&t, "iters", 25000);
#endif
	th_buf_new(&t, "out", NULL, 256 * 256 * 4, 0);
	we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, 256, 256);
	c.timeout = WALL_TIMEOUT_S;
	c.threads = 2;
	c.jit = WE_JIT_OFF;
	th_run ref, r;
	th_run_launch(&t, &c, &ref);
	th_expect_ok(&ref, "jit off");
	c.jit = WE_JIT_AUTO;
	th_run_launch(&t, &c, &r);
	th_expect_same(&t, &ref, &r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off", "jit auto");
	/* Whether auto compiles depends on this host's speed: the rule
	 * predicts the launch's time from its first batch.  It is asserted
	 * only where the interpreted run took 4 times the rule's threshold
	 * (a faster host may rightly not compile); the results always. */
	if (ref.s.seconds >= 4.0 * XJIT_AUTO_FACTOR * XJIT_COMPILE_GUESS)
		CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks > 0 && r.s.jit_seconds > 0,
		      "auto, a long launch: jit %s, %u blocks, %g s compiling, %g s, %llu warp-instructions", r.s.jit,
		      r.s.jit_blocks, r.s.jit_seconds, r.s.seconds, (unsigned long long)r.s.warp_insns);
	th_run_free(&r);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

static Suite *jit_suite(void)
{
	Suite *s = suite_create("jit");
	TCase *tc = tcase_create("jit");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, ops);
	tcase_add_test(tc, fault);
	tcase_add_test(tc, states);
	tcase_add_test(tc, auto_rule);
	tcase_add_test(tc, auto_compiles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(jit_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
