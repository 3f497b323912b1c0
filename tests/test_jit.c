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
 *            operands, LEA with .HI, .X and Pu, SEL, IMNMX, SHFL of every
 *            mode and form, VOTE, POPC) is compiled whole (the stats count its
 *            instructions exactly) and gives the interpreter's buffers
 *            and counters in every group setting;
 *   fault    a fault at the end of a compiled block: the same status, text
 *            and JSON report (CTA, warp, lanes, PC) as interpreted;
 *   order    loads and stores of two warps of a group to each other's
 *            shared and global words without a barrier: instruction by
 *            instruction over the group, as interpreted (asserted);
 *   memfault faults inside a compiled block (misaligned, outside the
 *            shared window, outside a global buffer; one lane of warp 1
 *            of CTA 1): the side exit, the interpreter's report;
 *   guards   memory instructions under partial guards (lanes outside
 *            every window unguarded), 64-bit accesses, two lanes storing
 *            one word, lanes in two allocations (a side exit);
 *   linear   global addresses linear in the lane, checked from lane 0's
 *            (jit.c wide_linear): wraps, swapped lanes, guards, a base
 *            changed in a loop before, as interpreted;
 *   uniform_rows  registers that hold a parameter throughout the kernel
 *            (jit.c kernel_uniform), and those that do not;
 *   twins    a check taken from an earlier one's (jit.c check_twin), and
 *            those that must not be: each fault and value as interpreted;
 *   warpsync WARPSYNC of every lane compiled (jit.c warpsync_all), in
 *            blocks and, while every valid thread is active, in the warp
 *            function; those that must not be: faults as interpreted;
 *   strong   a strong store stays interpreted (it splits the block);
 *   narrow   loads of 8 and 16 bits and the shared ATOMS.ADD compiled
 *            (lanes in order and out of it, shared bins, old values, a
 *            guard) as interpreted, and their faults the interpreter's;
 *   held     global adds whose old values nothing reads (RED.ADD,
 *            ATOMG.ADD to RZ), which the turn holds back, compiled with
 *            loads of their words in one block: what the loads and memory
 *            show, and a fault's report, as interpreted;
 *   windows_per_launch  the allocations compiled code keeps from call to
 *            call are a launch's: a freed buffer's address faults;
 *   streams  stores that stream past the host's caches (whole lines, or
 *            not; a guard: never), streaming or not, as interpreted;
 *   warpfn   the warp function (a warp alone, its branches compiled):
 *            divergent loops and branches through every BSYNC path,
 *            YIELD, SHFL and VOTE on one side, partial EXIT, loads and
 *            stores under partial masks,
 *            CTAs of one, three and two and a half warps, as interpreted;
 *   warpfn_stops  a fault in divergent code, the watchdog's exact
 *            instruction count and an intra-warp deadlock of two BSYNCs:
 *            the interpreter's reports;
 *   ifelse   the if/else shapes the warp function runs in one pass, and
 *            those it must not (a B register holding other threads,
 *            threads that yield), in a loop whose threads leave it one
 *            by one: a model's values, the interpreter's counters, and
 *            the watchdog's report at each count of a stretch;
 *   s2r      every special register compiled (thread and CTA ids, sizes,
 *            lane masks, SRZ; guarded), in CTAs of shapes whose x is a
 *            multiple of 32 or not, over a 3-D grid, as interpreted;
 *   states   when the tier is used: auto on a small launch and a short
 *            one of many CTAs, auto after on (the module's cache: not
 *            compiled again), on, off, and the launches that keep the
 *            interpreter (warp-threads, lockstep 1, check, profile, trace,
 *            a seeded schedule); a kernel with nothing to compile;
 *            without LLVM, on is refused;
 *   auto_rule      xjit_auto_pays, the rule of auto, and its rules with the
 *            disk cache (xjit_auto_compiles, xjit_auto_loads);
 *   auto_compiles  auto compiling during a long launch (two workers),
 *            with the interpreter's results, also of a kernel whose
 *            batches narrow when they start to run straight;
 *   disk     the disk cache of compiled kernels through the API
 *            (we_launch_config.jit_cache): an entry stored, a module of
 *            its own loading it with the interpreter's results, the
 *            stats (state, key, file, load time), auto finding it on a
 *            launch of one batch, off, a directory that cannot be made;
 *   cache_dir      where the cache is (we_jit_cache_dir): the setting,
 *            WARPEMU_JIT_CACHE, XDG_CACHE_HOME, HOME.
 * (tests/jit_cache.sh tests the disk cache end to end: other
 * processes, corrupt entries, concurrent writers.)
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "warpemu/warpemu.h"

#include "exec/jit.h"
#include "harness.h"

#define WALL_TIMEOUT_S 60.0

/* The block between the loads and the stores: OPS_BLOCK instructions,
 * all of forms jit.c compiles.  Inputs R4..R7 integers, R8..R11 floats;
 * results R12..R37. */
#define OPS_BLOCK 87
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
	"        LEA R37, P4, R37, R4, 0x5 ;\n"
	"        LEA.HI.X R37, R5, R37, R6, 0x7, P4 ;\n"
	"        LEA.X R37, P5, R37, c[0x0][0x10], 0x1f, !P4 ;\n"
	"   @P5  IADD3 R37, R37, 0x9, RZ ;\n"
	"        LOP3.LUT R37, R37, R12, R13, 0x1e, !PT ;\n"
	/* IMAD.WIDE by 2^sh (a shift in 32-bit lanes, jit.c): signed and
	 * unsigned, sh 0, 4 and 30, a carry into the high word */
	"        IMAD.WIDE R[38:39], R4, 0x10, R[6:7] ;\n"
	"        IMAD.WIDE.U32 R[40:41], R5, 0x1, R[6:7] ;\n"
	"        IMAD.WIDE R[42:43], R6, 0x1, R[4:5] ;\n"
	"   @P1  IMAD.WIDE.U32 R[44:45], R7, 0x40000000, R[4:5] ;\n"
	"        LOP3.LUT R37, R37, R38, R39, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R40, R41, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R42, R43, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R44, R45, 0x96, !PT ;\n"
	/* SEL and IMNMX: per lane and uniform choices, negated, signed and
	 * unsigned, of registers, immediates and parameters */
	"        SEL R46, R4, R5, P0 ;\n"
	"   @P2  SEL R47, R6, c[0x0][0x10], !P3 ;\n"
	"        IMNMX R48, R4, R5, PT ;\n"
	"        IMNMX.U32 R49, R4, R6, !PT ;\n"
	"        IMNMX R50, R5, 0x7, !P1 ;\n"
	"   @!P0 IMNMX.U32 R51, R7, c[0x0][0x10], P2 ;\n"
	"        LOP3.LUT R37, R37, R46, R47, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R48, R49, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R50, R51, 0x96, !PT ;\n"
	/* SHFL: every mode, every form of B and C, per-lane lanes, deltas,
	 * clamps and segment masks (R5..R7: random words and edges), under
	 * guards (source lanes outside them read their own), Pu */
	"        SHFL.IDX P4, R52, R4, R5, R6 ;\n"
	"   @P0  SHFL.UP P5, R53, R4, R7, 0x1c03 ;\n"
	"        SHFL.DOWN P6, R54, R5, 0x3, R7 ;\n"
	"   @!P1 SHFL.BFLY P4, R55, R6, 0x5, 0x1f ;\n"
	"        SHFL.IDX PT, R56, R4, 0x7, 0x181f ;\n"
	"   @P2  SHFL.UP P5, R57, R7, 0x2, 0x0 ;\n"
	"        SHFL.DOWN P6, R58, R4, R5, 0x1f ;\n"
	"        SHFL.BFLY P3, R59, R4, R6, R7 ;\n"
	"        LOP3.LUT R37, R37, R52, R53, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R54, R55, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R56, R57, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R58, R59, 0x96, !PT ;\n"
	"   @P3  IADD3 R37, R37, 0x100, RZ ;\n"
	"   @P4  IADD3 R37, R37, 0x200, RZ ;\n"
	"   @P5  IADD3 R37, R37, 0x400, RZ ;\n"
	"   @P6  IADD3 R37, R37, 0x800, RZ ;\n"
	/* VOTE of every mode (Pp negated, guarded: the ballot of the lanes
	 * under the guard) and POPC of a register and an immediate */
	"        VOTE.ANY R52, P3, P0 ;\n"
	"   @P1  VOTE.ALL R53, P4, !P2 ;\n"
	"        VOTE.EQ R54, P5, P6 ;\n"
	"        POPC R55, R4 ;\n"
	"   @!P0 POPC R56, 0xf0f0 ;\n"
	"        LOP3.LUT R37, R37, R52, R53, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R54, R55, 0x96, !PT ;\n"
	"        LOP3.LUT R37, R37, R56, RZ, 0x96, !PT ;\n"
	"   @P3  IADD3 R37, R37, 0x1000, RZ ;\n"
	"   @P4  IADD3 R37, R37, 0x2000, RZ ;\n"
	"   @P5  IADD3 R37, R37, 0x4000, RZ ;\n"
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
/* the kernel's one block: everything before the EXIT: the three S2Rs,
 * IMAD, MOV, MOV, IMAD.WIDE, the 8 loads, the block, MOV, MOV, IMAD.WIDE
 * and the 26 stores */
#define OPS_COMPILED (3 + 4 + 8 + OPS_BLOCK + 3 + 26)

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

/* ---- memory instructions in compiled blocks -------------------------- */

/* The kernels' first lines: R0 the thread's index in its CTA, R1 the
 * CTA's, R2 the CTA's size, R3 the thread's index in the grid (the S2Rs
 * are compiled with what follows them). */
#define GTID_R3                                                                                      \
	"        S2R R0, SR_TID.X ;\n"                                                                \
	"        S2R R1, SR_CTAID.X ;\n"                                                              \
	"        S2R R2, SR_NTID.X ;\n"                                                               \
	"        IMAD R3, R1, R2, R0 ;\n"

/* R4 = in[R3] (in: parameter 0x8, a word per thread), R[12:13] = the
 * address of thread R3's `bytes` bytes of out (parameter 0x0) */
#define IN_R4_OUT_R12(bytes)                                                                         \
	"        MOV R10, c[0x0][0x8] ;\n"                                                            \
	"        MOV R11, c[0x0][0xc] ;\n"                                                            \
	"        IMAD.WIDE.U32 R[10:11], R3, 0x4, R[10:11] ;\n"                                       \
	"        LDG R4, [R10.64] ;\n"                                                                \
	"        MOV R12, c[0x0][0x0] ;\n"                                                            \
	"        MOV R13, c[0x0][0x4] ;\n"                                                            \
	"        IMAD.WIDE.U32 R[12:13], R3, " bytes ", R[12:13] ;\n"

/* A loop of R5 trips (R7 = 0, 1, ...: a thread's own count, none when
 * R5 is 0) with R6 = 0 before it, its threads reconverging at B0 after
 * it */
#define LOOP_R5_BEGIN                                                                                \
	"        MOV R6, RZ ;\n"                                                                      \
	"        MOV R7, RZ ;\n"                                                                      \
	"        BSSY B0, `(.after) ;\n"                                                              \
	"        ISETP.EQ.U32.AND P0, PT, R5, RZ, PT ;\n"                                             \
	"   @P0  BRA `(.done) ;\n"                                                                    \
	".loop:\n"
#define LOOP_R5_END                                                                                  \
	"        IADD3 R7, R7, 0x1, RZ ;\n"                                                           \
	"        ISETP.LT.U32.AND P0, PT, R7, R5, PT ;\n"                                             \
	"   @P0  BRA `(.loop) ;\n"                                                                    \
	".done:\n"                                                                                    \
	"        BSYNC B0 ;\n"                                                                        \
	".after:\n"

/* The interpreter's run of t on the scheduler engine, ctas x block
 * threads in groups of lockstep warps, which must succeed: the reference
 * of the tests below. */
static void interp_ref(th_kernel *t, uint32_t ctas, uint32_t block, unsigned lockstep, th_run *ref,
		       we_launch_config *c)
{
	*c = th_cfg1(WE_ENGINE_SCHEDULER, ctas, block);
	c->timeout = WALL_TIMEOUT_S;
	c->jit = WE_JIT_OFF;
	c->lockstep = lockstep;
	th_run_launch(t, c, ref);
	th_expect_ok(ref, "jit off");
}

/* The configurations of `sets` (th_configs) of c give ref's buffers and
 * counters; those with jit on compiled blocks of `insns` instructions
 * (any number when 0). */
static void expect_as_interpreted(th_kernel *t, const we_launch_config *c, const th_run *ref, unsigned sets,
				  uint32_t insns)
{
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(sets, TH_GROUPS, cs);
	size_t compiled = 0;
	for (size_t i = 0; i < n; i++) {
		th_run r;
		we_launch_config ci = *c;
		th_config_apply(&ci, &cs[i]);
		th_run_launch(t, &ci, &r);
		th_expect_same(t, ref, &r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off", cs[i].name);
		if (cs[i].jit == WE_JIT_ON) {
			compiled++;
			CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks >= 1 && (!insns || r.s.jit_insns == insns),
			      "%s: jit %s, %u blocks of %u instructions (%u expected)", cs[i].name, r.s.jit,
			      r.s.jit_blocks, r.s.jit_insns, insns);
		}
		th_run_free(&r);
	}
	CHECK(compiled == (we_jit_available() ? TH_NCOMPILED : 0), "%zu configurations with jit on", compiled);
}

/* Every thread writes a shared word and a global word, then, without a
 * barrier, reads the words of the thread 32 places on (the other warp of
 * its 64-thread CTA): a lockstep group runs each instruction over all
 * its warps before the next (exec_group), so every load sees the other
 * warp's store; a block run warp by warp would read stale words for
 * warp 0.  Everything before the EXIT is one block of ORDER_COMPILED. */
static const char order_text[] =
	".kernel order\n"
	".param ptr out\n"     /* 0x0: two words per thread */
	".param ptr scratch\n" /* 0x8: a word per thread    */
	".shared 256\n"
	GTID_R3
	"        IADD3 R4, R0, 0x64, RZ ;\n"
	"        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
	"        STS [R5], R4 ;\n"
	"        MOV R10, c[0x0][0x8] ;\n"
	"        MOV R11, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0x4, R[10:11] ;\n"
	"        IADD3 R8, R3, 0x1000, RZ ;\n"
	"        STG [R12.64], R8 ;\n"
	"        IADD3 R6, R0, 0x20, RZ ;\n"
	"        LOP3.LUT R6, R6, 0x3f, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R7, R6, 0x2, RZ ;\n"
	"        LDS R8, [R7] ;\n"
	"        IMAD R9, R1, R2, R6 ;\n"
	"        IMAD.WIDE.U32 R[14:15], R9, 0x4, R[10:11] ;\n"
	"        LDG R16, [R14.64] ;\n"
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[18:19], R3, 0x8, R[10:11] ;\n"
	"        STG [R18.64], R8 ;\n"
	"        STG [R18.64+0x4], R16 ;\n"
	"        EXIT ;\n"
	".end\n";
#define ORDER_COMPILED (3u + 21u)
#define ORDER_CTAS 4u

START_TEST(order)
{
	th_kernel t;
	th_load(&t, order_text, "order", "order");
	th_buf_new(&t, "out", NULL, ORDER_CTAS * 64 * 8, 0);
	th_buf_new(&t, "scratch", NULL, ORDER_CTAS * 64 * 4, 0);
	we_launch_config c;
	th_run ref;
	interp_ref(&t, ORDER_CTAS, 64, 2, &ref, &c);
	/* the interpreter's order, asserted: each load saw the other warp's
	 * store */
	const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
	for (uint32_t g = 0; g < ORDER_CTAS * 64; g++) {
		const uint32_t p = (g % 64 + 32) % 64;
		CHECK(out[2 * g] == p + 100 && out[2 * g + 1] == g / 64 * 64 + p + 0x1000,
		      "jit off: thread %u read %u, %#x (want %u, %#x)", g, out[2 * g], out[2 * g + 1], p + 100,
		      g / 64 * 64 + p + 0x1000);
	}
	expect_as_interpreted(&t, &c, &ref, TH_COMPILED, ORDER_COMPILED);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* Faults inside a compiled block (its side exit, jit.h): thread `bad`
 * (CTA 1, warp 1, lane 5) alone gets, by `kind`, a misaligned shared
 * address (1), a shared address past the CTA's 512 bytes (2) or a
 * global address past its buffer (3), in the middle of the first block,
 * or a misaligned global address at the first instruction of the second
 * (4: the side exit before anything ran); the stores before it ran in
 * every warp.  Kind 0 faults nowhere.  The faults are at 0x0160 (LDS),
 * 0x0170 and 0x01a0 (LDG). */
static const char memfault_text[] =
	".kernel memfault\n"
	".param ptr out\n"  /* 0x0 */
	".param u32 bad\n"  /* 0x8 */
	".param u32 kind\n" /* 0xc */
	".shared 512\n"
	GTID_R3
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0x4, R[10:11] ;\n"
	"        STG [R12.64], R3 ;\n"
	"        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
	"        STS [R5], R3 ;\n"
	"        MOV R20, c[0x0][0xc] ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R3, c[0x0][0x8], PT ;\n"
	"        ISETP.EQ.U32.AND P1, PT, R20, 0x1, P0 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R20, 0x2, P0 ;\n"
	"        ISETP.EQ.U32.AND P3, PT, R20, 0x3, P0 ;\n"
	"        ISETP.EQ.U32.AND P4, PT, R20, 0x4, P0 ;\n"
	"   @P1  IADD3 R5, R5, 0x2, RZ ;\n"
	"   @P2  IADD3 R5, R5, 0x200, RZ ;\n"
	"   @P3  IMAD.WIDE.U32 R[12:13], R20, 0x100000, R[12:13] ;\n"
	"        MOV R14, R12 ;\n"
	"        MOV R15, R13 ;\n"
	"   @P4  IADD3 R14, R14, 0x2, RZ ;\n"
	"        LDS R6, [R5] ;\n"
	"        LDG R7, [R12.64] ;\n"
	"        IADD3 R8, R6, R7, RZ ;\n"
	"        S2R R21, SR_DYNSMEM ;\n"
	"        LDG R9, [R14.64] ;\n"
	"        IADD3 R8, R8, R9, RZ ;\n"
	"        STG [R12.64], R8 ;\n"
	"        EXIT ;\n"
	".end\n";
/* the blocks from the first S2R to the S2R of SR_DYNSMEM (interpreted),
 * and from the LDG after it */
#define MEMFAULT_COMPILED (3u + 22u + 3u)

/* The launch of t on configuration cs (th_configs), grid CTAs of block
 * threads, with one worker (which CTAs of other workers ran before a
 * fault stopped them would vary): *ref with --jit off, *got with --jit
 * on. */
static void run_off_on(th_kernel *t, const th_config *cs, uint32_t grid, uint32_t block, th_run *ref, th_run *got)
{
	we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, grid, block);
	c.timeout = WALL_TIMEOUT_S;
	th_config_apply(&c, cs);
	c.threads = 1;
	c.jit = WE_JIT_OFF;
	th_run_launch(t, &c, ref);
	c.jit = WE_JIT_ON;
	th_run_launch(t, &c, got);
}

/* run_off_on's runs: the same buffers, status and report, and counters
 * unless the launch faulted (which warps ran before the fault stopped it
 * depends on the groups); compiled (insns instructions, or any number
 * when 0); both freed. */
static void expect_compiled_same(th_kernel *t, th_run *ref, th_run *r, bool faults, uint32_t insns, const char *what)
{
	th_expect_same(t, ref, r, TH_SAME_ALL_MEMORY | (faults ? 0u : TH_SAME_COUNTERS), "jit off", what);
	CHECK(!strcmp(r->s.jit, "compiled") && r->s.jit_blocks >= 1 && (!insns || r->s.jit_insns == insns),
	      "%s: jit %s, %u blocks of %u instructions (%u expected)", what, r->s.jit, r->s.jit_blocks, r->s.jit_insns,
	      insns);
	th_run_free(r);
	th_run_free(ref);
}

START_TEST(memfault)
{
	static const char *const where[5] = { NULL, "PC 0x0160", "PC 0x0160", "PC 0x0170", "PC 0x01a0" };
	static const char *const what[5] = { NULL, "LDS R6", "LDS R6", "LDG R7", "LDG R9" };
	th_kernel t;
	th_load(&t, memfault_text, "memfault", "memfault");
	th_buf_new(&t, "out", NULL, 4 * 128 * 4, 0);
	th_u32(&t, "bad", 128 + 32 + 5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (uint32_t kind = 0; kind < 5; kind++) {
		th_u32(&t, "kind", kind);
		/* each group setting against the interpreter in the same
		 * setting (which warps ran before the fault stopped the launch
		 * depends on the groups) */
		for (size_t i = 0; i < n; i++) {
			char what_run[128];
			snprintf(what_run, sizeof what_run, "%s, kind %u", cs[i].name, kind);
			th_run ref, r;
			run_off_on(&t, &cs[i], 4, 128, &ref, &r);
			if (!kind) {
				th_expect_ok(&ref, "jit off, no fault");
			} else {
				/* the report names CTA 1, warp 1, lane 5 alone */
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, where[kind]) &&
					      strstr(ref.err, what[kind]) && strstr(ref.err, "CTA (1,0,0) warp 1 lanes 5 PC"),
				      "%s, jit off: %s\n%s", what_run, we_status_name(ref.st), ref.err);
			}
			th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY | (kind ? 0u : TH_SAME_COUNTERS), "jit off",
				       what_run);
			CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks == 2 && r.s.jit_insns == MEMFAULT_COMPILED,
			      "%s: jit %s, %u blocks, %u instructions", what_run, r.s.jit, r.s.jit_blocks, r.s.jit_insns);
			th_run_free(&r);
			th_run_free(&ref);
		}
	}
	th_close(&t);
}
END_TEST

/* Lanes at consecutive words (the compiled check's fast case, from the
 * first and the last lane under the guard) at the end of an allocation
 * of 100 words: a tail warp whose unguarded lanes would read past it
 * (n = 100: no fault), one lane more (n = 101: the fault of thread 100
 * alone), and every lane unguarded (n = 128: lanes 4-31 of the last
 * warp).  Each as the interpreter. */
static const char edge_text[] =
	".kernel edge\n"
	".param ptr in\n"      /* 0x0  */
	".param ptr out\n"     /* 0x8  */
	".param u32 n\n"       /* 0x10 */
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R0, R1, R2, R0 ;\n"
	"        ISETP.LT.U32.AND P0, PT, R0, c[0x0][0x10], PT ;\n"
	"        MOV R4, c[0x0][0x0] ;\n"
	"        MOV R5, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n"
	"        MOV R6, RZ ;\n"
	"   @P0  LDG R6, [R4.64] ;\n"
	"        IADD3 R6, R6, 0x1000, RZ ;\n"
	"        MOV R8, c[0x0][0x8] ;\n"
	"        MOV R9, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[8:9], R0, 0x4, R[8:9] ;\n"
	"        STG [R8.64], R6 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(edge)
{
	static const uint32_t ns[3] = { 100, 101, 128 };
	static const char *const lanes[3] = { NULL, "warp 1 lanes 4 PC", "warp 1 lanes 4-31 PC" };
	th_kernel t;
	th_load(&t, edge_text, "edge", "edge");
	uint32_t in[100];
	for (uint32_t g = 0; g < 100; g++)
		in[g] = 3u * g;
	th_buf_new(&t, "in", in, sizeof in, 0);
	th_buf_new(&t, "out", NULL, 128 * 4, 0xa5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (unsigned v = 0; v < 3; v++) {
		th_u32(&t, "n", ns[v]);
		for (size_t i = 0; i < n; i++) {
			char what_run[128];
			snprintf(what_run, sizeof what_run, "%s, n %u", cs[i].name, ns[v]);
			th_run ref, r;
			run_off_on(&t, &cs[i], 2, 64, &ref, &r);
			if (!lanes[v]) {
				th_expect_ok(&ref, "jit off");
				const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
				for (uint32_t g = 0; g < 128; g++)
					CHECK(out[g] == (g < 100 ? 3u * g : 0u) + 0x1000u, "%s: out[%u] = %#x", what_run, g,
					      out[g]);
			} else {
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "CTA (1,0,0)") && strstr(ref.err, lanes[v]),
				      "%s, jit off: %s\n%s", what_run, we_status_name(ref.st), ref.err);
			}
			th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY | (lanes[v] ? 0u : TH_SAME_COUNTERS), "jit off",
				       what_run);
			CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks >= 1, "%s: jit %s, %u blocks", what_run, r.s.jit,
			      r.s.jit_blocks);
			th_run_free(&r);
			th_run_free(&ref);
		}
	}
	th_close(&t);
}
END_TEST

/* Addresses linear in the lane (jit.c lane_range_linear), of IMAD.WIDE
 * by 4: the last load's of a = (tid + k) ^ x and a uniform base.  Each
 * launch as the interpreter: k = x = 0 (a in every lane a[0] + l, one
 * and two warps); x = 1 (lanes swapped in pairs: not linear, a gather);
 * a U32 a that wraps past 2^32 in lane 16 and an S32 one that passes
 * 2^31 there (the lanes from 16 on fault, 16 GiB below the buffer, the
 * others read it); an S32 a of -16 to 15 and a base 32 words into the
 * buffer (linear: each lane reads the word 16 after its own).  The base
 * is moved in from the parameters in the first loop: the last one reads
 * it from there again (jit.c uniform_after).  The loads before it, which
 * never fault (a fault of theirs would rerun the block from its start,
 * whatever the last one's check found), read
 * - tid + 1: the IMAD.WIDE's low row changed after it (its own check);
 * - 2 tid: a by 8, not size apart (a gather);
 * - tid below 16, 0 from there: a guarded IMAD.WIDE and an unguarded
 *   load (the other lanes keep their address);
 * - under the guard tid < 16: word 0 (the IMAD.WIDE under the guard
 *   negated) and tid (under the same guard: linear);
 * - tid + 2: the base's low word added to in a loop before (no longer a
 *   parameter's). */
#define LINEAR_TEXT(name, wide)                                           \
	".kernel " name "\n"                                              \
	".param ptr in\n"   /* 0x0  */                                    \
	".param ptr out\n"  /* 0x8  */                                    \
	".param u32 k\n"    /* 0x10 */                                    \
	".param u32 x\n"    /* 0x14 */                                    \
	".param u32 blo\n"  /* 0x18: the base address */                  \
	".param u32 bhi\n"  /* 0x1c */                                    \
	"        S2R R0, SR_TID.X ;\n"                                    \
	"        MOV R2, c[0x0][0x0] ;\n"                                 \
	"        MOV R3, c[0x0][0x4] ;\n"                                 \
	"        MOV R4, c[0x0][0x18] ;\n"                                \
	"        MOV R5, c[0x0][0x1c] ;\n"                                \
	"        " wide " R[6:7], R0, 0x4, R[2:3] ;\n"                    \
	"        IADD3 R6, R6, 0x4, RZ ;\n"                               \
	"        LDG R9, [R6.64] ;\n"                                     \
	"        MOV R10, c[0x0][0x0] ;\n"                                \
	"        MOV R11, c[0x0][0x4] ;\n"                                \
	"        " wide " R[10:11], R0, 0x8, R[10:11] ;\n"                \
	"        LDG R12, [R10.64] ;\n"                                   \
	"        ISETP.LT.U32.AND P0, PT, R0, 0x10, PT ;\n"               \
	"        MOV R16, c[0x0][0x0] ;\n"                                \
	"        MOV R17, c[0x0][0x4] ;\n"                                \
	"   @P0  " wide " R[16:17], R0, 0x4, R[16:17] ;\n"               \
	"        MOV R22, c[0x0][0x0] ;\n"                                \
	"        MOV R23, c[0x0][0x4] ;\n"                                \
	"   @!P0 " wide " R[22:23], R0, 0x4, R[22:23] ;\n"               \
	"        IADD3 R2, R2, 0x8, RZ ;\n"                               \
	"        LDG R13, [R16.64] ;\n"                                   \
	"   @P0  LDG R24, [R22.64] ;\n"                                   \
	"   @P0  LDG R25, [R16.64] ;\n"                                   \
	"        " wide " R[26:27], R0, 0x4, R[2:3] ;\n"                  \
	"        LDG R28, [R26.64] ;\n"                                   \
	"        IADD3 R1, R0, c[0x0][0x10], RZ ;\n"                      \
	"        LOP3.LUT R1, R1, c[0x0][0x14], RZ, 0x3c, !PT ;\n"        \
	"        " wide " R[14:15], R1, 0x4, R[4:5] ;\n"                  \
	"        LDG R8, [R14.64] ;\n"                                    \
	"        MOV R18, c[0x0][0x8] ;\n"                                \
	"        MOV R19, c[0x0][0xc] ;\n"                                \
	"        IMAD.WIDE.U32 R[20:21], R0, 0x20, R[18:19] ;\n"          \
	"        STG [R20.64], R8 ;\n"                                    \
	"        STG [R20.64+0x4], R9 ;\n"                                \
	"        STG [R20.64+0x8], R12 ;\n"                               \
	"        STG [R20.64+0xc], R13 ;\n"                               \
	"        STG [R20.64+0x10], R24 ;\n"                              \
	"        STG [R20.64+0x14], R25 ;\n"                              \
	"        STG [R20.64+0x18], R28 ;\n"                              \
	"        EXIT ;\n"                                                \
	".end\n"
static const char linear_u_text[] = LINEAR_TEXT("linear_u", "IMAD.WIDE.U32");
static const char linear_s_text[] = LINEAR_TEXT("linear_s", "IMAD.WIDE");

START_TEST(linear)
{
	if (!we_jit_available())
		return;
	static const struct {
		const char *text, *kernel;
		bool u;
		uint32_t k, x, block;
		int64_t off; /* the base: in + off bytes */
	} v[] = {
		{ linear_u_text, "linear_u", true, 0, 0, 32, 0 },
		{ linear_u_text, "linear_u", true, 0, 0, 64, 0 },
		{ linear_s_text, "linear_s", false, 0, 0, 64, 0 },
		{ linear_u_text, "linear_u", true, 0, 1, 32, 0 },
		{ linear_u_text, "linear_u", true, 0xfffffff0u, 0, 32, -4 * (int64_t)0xfffffff0u },
		{ linear_s_text, "linear_s", false, 0x7ffffff0u, 0, 32, -4 * (int64_t)0x7ffffff0u },
		{ linear_s_text, "linear_s", false, 0xfffffff0u, 0, 32, 128 },
	};
	uint32_t in[256];
	for (uint32_t g = 0; g < 256; g++)
		in[g] = 0x1000u + 7u * g;
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (size_t e = 0; e < sizeof v / sizeof v[0]; e++) {
		th_kernel t;
		th_load(&t, v[e].text, v[e].kernel, v[e].kernel);
		const uint64_t base = th_buf_new(&t, "in", in, sizeof in, 0) + (uint64_t)v[e].off;
		th_buf_new(&t, "out", NULL, 64 * 32, 0xa5);
		th_u32(&t, "k", v[e].k);
		th_u32(&t, "x", v[e].x);
		th_u32(&t, "blo", (uint32_t)base);
		th_u32(&t, "bhi", (uint32_t)(base >> 32));
		const bool faults = v[e].off < 0;
		for (size_t i = 0; i < n; i++) {
			char what[160];
			snprintf(what, sizeof what, "%s, k %#x, x %u, block %u, %s", v[e].kernel, v[e].k, v[e].x,
				 v[e].block, cs[i].name);
			th_run ref, r;
			run_off_on(&t, &cs[i], 1, v[e].block, &ref, &r);
			if (faults) {
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "warp 0 lanes 16-31 PC 0x01c0") &&
					      strstr(ref.err, "LDG R8"),
				      "%s, jit off: %s\n%s", what, we_status_name(ref.st), ref.err);
			} else {
				th_expect_ok(&ref, what);
				const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
				for (uint32_t l = 0; l < v[e].block; l++) {
					/* (the word lane l reads at a from the base) */
					const uint32_t a = (l + v[e].k) ^ v[e].x, *o = &out[8 * l];
					const int64_t w = v[e].off / 4 + (v[e].u ? (int64_t)a : (int64_t)(int32_t)a);
					const bool g = l < 16;
					CHECK(o[0] == in[w] && o[1] == in[l + 1] && o[2] == in[2 * l] && o[3] == in[g ? l : 0] &&
						      o[4] == (g ? in[0] : 0) && o[5] == (g ? in[l] : 0) && o[6] == in[l + 2],
					      "%s: thread %u: %#x %#x %#x %#x %#x %#x %#x", what, l, o[0], o[1], o[2], o[3], o[4],
					      o[5], o[6]);
				}
			}
			expect_compiled_same(&t, &ref, &r, faults, 0, what);
		}
		th_close(&t);
	}
}
END_TEST

/* Checks that a memory instruction takes from an earlier one's (jit.c
 * check_twin), and those it must not, in one block of two warps over 512
 * bytes of shared memory (shared[w] below: word w), each as interpreted:
 *  1 tid < 48: shared[tid] += shared[tid + 64] (a tree reduction's step:
 *    its STS [R5] takes the check of the LDS [R5], in the slot after the
 *    first load's), then shared[tid + 64] += 2 (the STS [R5+0x100] takes
 *    the LDS [R5+0x100]'s in its own slot);
 *  2 the LDS [R7] and STS [R7] of shared[tid] to shared[tid + d / 4]:
 *    R7 added to between them;
 *  3 @P0 LDS [R8] and an unguarded STS [R8], R8 = 4 tid + e;
 *  4 @P0 LDS [R12] and @P0 STS [R12], P0 set again between them (to
 *    tid < 64), R12 = 4 tid + f;
 *  5 LDS [R14] and STS [R14+0x4], R14 = 4 tid + g;
 *  6 LDS [R16] and STS.64 [R16], R16 = 8 tid + h;
 *  7 two phases of two loads: LDS [R5], LDS [R16], then LDS [R22],
 *    LDS [R5], R22 = R5 + 0x100: the second LDS [R5] is checked in the
 *    second phase's slot 1, the first one's slot 0 then holds the LDS
 *    [R22]'s check;
 *  8 an ATOMS.ADD to shared[tid + 32] and a load of the word (an atomic's
 *    check records no first address);
 *  9 when z: an LDG [R30.64] of the buffer and an STS [R30].
 * d = 4, e = f = g = h = z = 0: every access in the window.  A fault at
 * the store of case 2, 3, 4 or 5 in lane 31 of warp 1, past the window,
 * or in every lane of warp 0, misaligned at case 6's and outside the
 * window at case 9's: d = 0x104, e = 0x104, f = 0x104, g = 0x100, h = 4,
 * z = 1; the load before it passes its check. */
static const char twins_text[] =
	".kernel twins\n"
	".param ptr out\n" /* 0x0  */
	".param u32 d\n"   /* 0x8  */
	".param u32 e\n"   /* 0xc  */
	".param u32 f\n"   /* 0x10 */
	".param u32 g\n"   /* 0x14 */
	".param u32 h\n"   /* 0x18 */
	".param u32 z\n"   /* 0x1c */
	".shared 512\n"
	"        S2R R0, SR_TID.X ;\n"
	"        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
	"        IADD3 R1, R0, 0x100, RZ ;\n"
	"        STS [R5], R1 ;\n"
	"        IADD3 R1, R0, 0x200, RZ ;\n"
	"        STS [R5+0x100], R1 ;\n"
	"        ISETP.LT.U32.AND P0, PT, R0, 0x30, PT ;\n"
	"   @P0  LDS R6, [R5+0x100] ;\n"                    /* 1 */
	"   @P0  LDS R9, [R5] ;\n"
	"   @P0  IADD3 R9, R9, R6, RZ ;\n"
	"   @P0  STS [R5], R9 ;\n"
	"   @P0  LDS R4, [R5+0x100] ;\n"
	"   @P0  IADD3 R4, R4, 0x2, RZ ;\n"
	"   @P0  STS [R5+0x100], R4 ;\n"
	"        MOV R7, R5 ;\n"                            /* 2 */
	"        LDS R10, [R7] ;\n"
	"        IADD3 R7, R7, c[0x0][0x8], RZ ;\n"
	"        STS [R7], R10 ;\n"
	"        IADD3 R8, R5, c[0x0][0xc], RZ ;\n"         /* 3 */
	"   @P0  LDS R11, [R8] ;\n"
	"        STS [R8], R11 ;\n"
	"        IADD3 R12, R5, c[0x0][0x10], RZ ;\n"       /* 4 */
	"   @P0  LDS R13, [R12] ;\n"
	"        ISETP.LT.U32.AND P0, PT, R0, 0x40, PT ;\n"
	"   @P0  STS [R12], R13 ;\n"
	"        IADD3 R14, R5, c[0x0][0x14], RZ ;\n"       /* 5 */
	"        LDS R15, [R14] ;\n"
	"        STS [R14+0x4], R15 ;\n"
	"        SHF.L.U32 R16, R0, 0x3, RZ ;\n"            /* 6 */
	"        IADD3 R16, R16, c[0x0][0x18], RZ ;\n"
	"        LDS R18, [R16] ;\n"
	"        MOV R19, R0 ;\n"
	"        STS.64 [R16], R[18:19] ;\n"
	"        LDS R20, [R5] ;\n"                         /* 7 */
	"        LDS R21, [R16] ;\n"
	"        IADD3 R22, R5, 0x100, RZ ;\n"
	"        LDS R23, [R22] ;\n"
	"        LDS R24, [R5] ;\n"
	"        IADD3 R28, R5, 0x80, RZ ;\n"               /* 8 */
	"        ATOMS.ADD RZ, [R28], R0 ;\n"
	"        LDS R27, [R28] ;\n"
	"        ISETP.NE.U32.AND P1, PT, RZ, c[0x0][0x1c], PT ;\n" /* 9 */
	"        MOV R30, c[0x0][0x0] ;\n"
	"        MOV R31, c[0x0][0x4] ;\n"
	"   @P1  LDG R29, [R30.64] ;\n"
	"   @P1  STS [R30], R29 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R25, [R5] ;\n"
	"        LDS R26, [R5+0x100] ;\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[2:3], R0, 0x40, R[2:3] ;\n"
	"        STG [R2.64], R9 ;\n"
	"        STG [R2.64+0x4], R20 ;\n"
	"        STG [R2.64+0x8], R21 ;\n"
	"        STG [R2.64+0xc], R23 ;\n"
	"        STG [R2.64+0x10], R24 ;\n"
	"        STG [R2.64+0x14], R25 ;\n"
	"        STG [R2.64+0x18], R26 ;\n"
	"        STG [R2.64+0x1c], R18 ;\n"
	"        STG [R2.64+0x20], R4 ;\n"
	"        STG [R2.64+0x24], R27 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(twins)
{
	if (!we_jit_available())
		return;
	static const struct {
		uint32_t d, e, f, g, h, z;
		const char *fault; /* the report's warp, lanes and PC, the store's text */
		const char *insn;
	} v[] = {
		{ 4, 0, 0, 0, 0, 0, NULL, NULL },
		{ 0x104, 0, 0, 0, 0, 0, "warp 1 lanes 31 PC 0x0110", "STS [R7]" },
		{ 4, 0x104, 0, 0, 0, 0, "warp 1 lanes 31 PC 0x0140", "STS [R8]" },
		{ 4, 0, 0x104, 0, 0, 0, "warp 1 lanes 31 PC 0x0180", "STS [R12]" },
		{ 4, 0, 0, 0x100, 0, 0, "warp 1 lanes 31 PC 0x01b0", "STS [R14+0x4]" },
		{ 4, 0, 0, 0, 4, 0, "warp 0 lanes 0-31 PC 0x0200", "STS.64 [R16]" },
		{ 4, 0, 0, 0, 0, 1, "warp 0 lanes 0-31 PC 0x02d0", "STS [R30]" },
	};
	th_kernel t;
	th_load(&t, twins_text, "twins", "twins");
	th_buf_new(&t, "out", NULL, 64 * 64, 0xa5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		th_u32(&t, "d", v[k].d);
		th_u32(&t, "e", v[k].e);
		th_u32(&t, "f", v[k].f);
		th_u32(&t, "g", v[k].g);
		th_u32(&t, "h", v[k].h);
		th_u32(&t, "z", v[k].z);
		for (size_t i = 0; i < n; i++) {
			char what[160];
			snprintf(what, sizeof what, "variant %zu, %s", k, cs[i].name);
			th_run ref, r;
			run_off_on(&t, &cs[i], 1, 64, &ref, &r);
			if (v[k].fault) {
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, v[k].fault) &&
					      strstr(ref.err, v[k].insn),
				      "%s, jit off: %s\n%s", what, we_status_name(ref.st), ref.err);
			} else {
				th_expect_ok(&ref, what);
				/* case 1's sums, case 7's loads */
				const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
				for (uint32_t l = 0; l < 64; l++) {
					const uint32_t *o = &out[16 * l];
					CHECK((l >= 48 || (o[0] == 2 * l + 0x300 && o[8] == l + 0x202)) && o[3] != o[4] &&
						      o[1] == o[4],
					      "%s: thread %u: %#x %#x %#x %#x %#x", what, l, o[0], o[1], o[3], o[4], o[8]);
				}
			}
			expect_compiled_same(&t, &ref, &r, v[k].fault != NULL, 0, what);
		}
	}
	th_close(&t);
}
END_TEST

/* WARPSYNC of every lane (jit.c warpsync_all): compiled, in blocks and
 * the warp function, where its membermask is the immediate 0xffffffff
 * or a register that an unguarded MOV of -1 wrote last on every path
 * (R27, which held the thread index before); in the warp function it
 * passes only while every valid thread is active: after the branch of
 * the threads of lanes 0-15 to .sync, the lanes 16-31 that arrive there
 * first leave it to the interpreter, which syncs them with the others
 * (004: they wait at .sync).  Not compiled: a register that a guarded
 * MOV may have changed (R30) and one moved in from the parameter m
 * (R29), nor one that nothing writes (R31, zero: run when s >= 2).
 * m = 0xffffffff: every WARPSYNC passes but R31's; m = 0xffff: the
 * WARPSYNC R30 faults (the membermasks of lanes 0-15 omit lanes 16-31),
 * and with the R30 case skipped (s = 1) the WARPSYNC R29 faults.  Each as
 * interpreted: buffers, counters, reports; CTAs of two warps and of a
 * warp and a half. */
#define WSYNC_COMPILED 28u /* all but the BRAs, WARPSYNC R29, R30 and R31, the EXIT */
static const char wsync_text[] =
	".kernel wsync\n"
	".param ptr out\n" /* 0x0 */
	".param u32 m\n"   /* 0x8 */
	".param u32 s\n"   /* 0xc */
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R5, SR_LANEID ;\n"
	"        S2R R8, SR_CTAID.X ;\n"
	"        S2R R9, SR_NTID.X ;\n"
	"        IMAD R10, R8, R9, R0 ;\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[2:3], R10, 0x10, R[2:3] ;\n"
	"        MOV R27, R0 ;\n"
	"        MOV R27, -0x1 ;\n"
	"        WARPSYNC R27 ;\n"
	"        SHFL.BFLY PT, R4, R0, 0x1, 0x1f ;\n"
	"        WARPSYNC 0xffffffff ;\n"
	"        SHFL.BFLY PT, R6, R4, 0x2, 0x1f ;\n"
	"        STG [R2.64], R6 ;\n"
	"        ISETP.LT.U32.AND P0, PT, R5, 0x10, PT ;\n"
	"   @P0  BRA `(.sync) ;\n"
	"        IADD3 R4, R4, 0x100, RZ ;\n"
	".sync:\n"
	"        WARPSYNC R27 ;\n"
	"        SHFL.BFLY PT, R7, R4, 0x10, 0x1f ;\n"
	"        WARPSYNC R27 ;\n"
	"        STG [R2.64+0x4], R7 ;\n"
	"        ISETP.NE.U32.AND P1, PT, RZ, c[0x0][0xc], PT ;\n"
	"   @P1  BRA `(.late) ;\n"
	"        MOV R30, -0x1 ;\n"
	"   @P0  MOV R30, c[0x0][0x8] ;\n"
	"        WARPSYNC R30 ;\n"
	".late:\n"
	"        MOV R29, c[0x0][0x8] ;\n"
	"        WARPSYNC R29 ;\n"
	"        MOV R11, 0x1 ;\n"
	"        ISETP.GE.U32.AND P2, PT, R11, c[0x0][0xc], PT ;\n"
	"   @P2  BRA `(.end) ;\n"
	"        WARPSYNC R31 ;\n"
	".end:\n"
	"        STG [R2.64+0x8], R0 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(warpsync)
{
	if (!we_jit_available())
		return;
	static const struct {
		uint32_t m, s;
		const char *fault; /* the report's warp, lanes and instruction */
	} v[] = {
		{ 0xffffffffu, 0, NULL },
		{ 0xffffffffu, 1, NULL },
		{ 0xffffu, 0, "WARPSYNC R30" },
		{ 0xffffu, 1, "WARPSYNC R29" },
		{ 0xffffffffu, 2, "WARPSYNC R31" },
	};
	th_kernel t;
	th_load(&t, wsync_text, "wsync", "wsync");
	th_buf_new(&t, "out", NULL, 4 * 64 * 16, 0xa5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		th_u32(&t, "m", v[k].m);
		th_u32(&t, "s", v[k].s);
		for (uint32_t block = 48; block <= 64; block += 16)
			for (size_t i = 0; i < n; i++) {
				char what[160];
				snprintf(what, sizeof what, "m %#x, s %u, block %u, %s", v[k].m, v[k].s, block, cs[i].name);
				th_run ref, r;
				run_off_on(&t, &cs[i], 4, block, &ref, &r);
				if (v[k].fault) {
					CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, v[k].fault),
					      "%s, jit off: %s\n%s", what, we_status_name(ref.st), ref.err);
				} else {
					th_expect_ok(&ref, what);
					/* (each thread's lanes' sums as the model has them) */
					const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
					for (uint32_t g = 0; g < 4 * block; g++) {
						const uint32_t tid = g % block, l = tid % 32, o6 = tid ^ 3u,
							       o7 = (tid ^ 0x10u ^ 1u) + ((l ^ 0x10u) >= 16 ? 0x100u : 0u);
						if (tid - l + 32 > block)
							continue; /* (the half warp: SHFL reads lanes off the CTA) */
						CHECK(out[4 * g] == o6 && out[4 * g + 1] == o7 && out[4 * g + 2] == tid,
						      "%s: thread %u: %#x %#x %#x, want %#x %#x %#x", what, g, out[4 * g],
						      out[4 * g + 1], out[4 * g + 2], o6, o7, tid);
					}
				}
				expect_compiled_same(&t, &ref, &r, v[k].fault != NULL, WSYNC_COMPILED, what);
			}
	}
	th_close(&t);
}
END_TEST

/* Registers that hold a parameter wherever a thread reads them (jit.c
 * kernel_uniform), read again from the parameters in a block after the
 * one that moved them in: R10:R11, linear (each thread reads its word).
 * Not R14:R15, which the warps below w add 4 to (they read the word
 * after theirs), nor R2:R3, which those warps alone move in: the others
 * read zero there, an address outside every allocation (w = 1: warp 1
 * faults, as interpreted).  (The BAR.SYNC makes the block after it the
 * lockstep groups': the warp function would run on past the BRA.) */
static const char uniform_rows_text[] =
	".kernel uniform_rows\n"
	".param ptr in\n"  /* 0x0  */
	".param ptr out\n" /* 0x8  */
	".param u32 w\n"   /* 0x10 */
	"        S2R R0, SR_TID.X ;\n"
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        MOV R14, c[0x0][0x0] ;\n"
	"        MOV R15, c[0x0][0x4] ;\n"
	"        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	"        ISETP.GE.U32.AND P0, PT, R1, c[0x0][0x10], PT ;\n"
	"   @P0  BRA `(.late) ;\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        IADD3 R14, R14, 0x4, RZ ;\n"
	".late:\n"
	"        BAR.SYNC 0x0 ;\n"
	"        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[2:3] ;\n"
	"        LDG R6, [R4.64] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R0, 0x4, R[10:11] ;\n"
	"        LDG R7, [R12.64] ;\n"
	"        IMAD.WIDE.U32 R[16:17], R0, 0x4, R[14:15] ;\n"
	"        LDG R18, [R16.64] ;\n"
	"        MOV R8, c[0x0][0x8] ;\n"
	"        MOV R9, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[8:9], R0, 0xc, R[8:9] ;\n"
	"        STG [R8.64], R6 ;\n"
	"        STG [R8.64+0x4], R7 ;\n"
	"        STG [R8.64+0x8], R18 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(uniform_rows)
{
	if (!we_jit_available())
		return;
	uint32_t in[65];
	for (uint32_t g = 0; g < 65; g++)
		in[g] = 0x5000u + 3u * g;
	th_kernel t;
	th_load(&t, uniform_rows_text, "uniform_rows", "uniform_rows");
	th_buf_new(&t, "in", in, sizeof in, 0);
	th_buf_new(&t, "out", NULL, 64 * 12, 0xa5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (uint32_t w = 1; w <= 2; w++) {
		th_u32(&t, "w", w);
		for (size_t i = 0; i < n; i++) {
			char what[128];
			snprintf(what, sizeof what, "w %u, %s", w, cs[i].name);
			th_run ref, r;
			run_off_on(&t, &cs[i], 2, 64, &ref, &r);
			if (w == 1) {
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "CTA (0,0,0) warp 1 lanes 0-31 PC 0x00d0"),
				      "%s, jit off: %s\n%s", what, we_status_name(ref.st), ref.err);
			} else {
				th_expect_ok(&ref, what);
				const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
				for (uint32_t l = 0; l < 64; l++)
					CHECK(out[3 * l] == in[l] && out[3 * l + 1] == in[l] && out[3 * l + 2] == in[l + 1],
					      "%s: thread %u: %#x %#x %#x", what, l, out[3 * l], out[3 * l + 1], out[3 * l + 2]);
			}
			expect_compiled_same(&t, &ref, &r, w == 1, 0, what);
		}
	}
	th_close(&t);
}
END_TEST

/* A straight kernel (src/exec/straight.c): one block to an EXIT of every
 * thread, run for batches of CTAs in one call, the slots restarted
 * between batches with only what the block changes reset.  Each CTA
 * must start as the interpreter starts it: P0, guard of the first
 * instruction and set by the block for most lanes, false (R5 stays
 * zero); shared memory zero (the LDS before the STS).  In CTA `bad`, in
 * a batch after the first, the load takes the block's side exit: its
 * odd lanes read `alt`, its even ones `in` (two allocations: the
 * interpreter runs it, no fault; counters as interpreted), and with
 * `far` both far outside every allocation (the interpreter's report,
 * every CTA before it as interpreted).  The bounds check's EXIT is a
 * second block's start, and in a tail (n below the threads) some threads
 * exit there: the interpreter's too.  One- and two-warp CTAs, every
 * group setting. */
static const char straight_text[] =
	".kernel straight\n"
	".param ptr out\n" /* 0x0: 3 words per thread */
	".param ptr in\n"  /* 0x8: a word per thread  */
	".param u32 bad\n" /* 0x10                    */
	".param u32 far\n" /* 0x14                    */
	".param ptr alt\n" /* 0x18: a word per thread */
	".param u32 n\n"   /* 0x20: threads that run */
	".shared 256\n"
	"   @P0  IADD3 R5, RZ, 0x7, RZ ;\n"
	GTID_R3
	"        ISETP.GE.U32.AND P3, PT, R3, c[0x0][0x20], PT ;\n"
	"   @P3  EXIT ;\n"
	"        SHF.L.U32 R4, R0, 0x2, RZ ;\n"
	"        LDS R6, [R4] ;\n"
	"        IADD3 R7, R1, 0x1, RZ ;\n"
	"        STS [R4], R7 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R1, c[0x0][0x10], PT ;\n"
	"        LOP3.LUT R11, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R11, RZ, P2 ;\n"
	"        MOV R8, c[0x0][0x8] ;\n"
	"        MOV R9, c[0x0][0xc] ;\n"
	"   @P1  MOV R8, c[0x0][0x18] ;\n"
	"   @P1  MOV R9, c[0x0][0x1c] ;\n"
	"        IMAD.WIDE.U32 R[8:9], R3, 0x4, R[8:9] ;\n"
	"   @P2  IADD3 R9, R9, c[0x0][0x14], RZ ;\n"
	"        LDG R10, [R8.64] ;\n"
	"        ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;\n"
	"        MOV R12, c[0x0][0x0] ;\n"
	"        MOV R13, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0xc, R[12:13] ;\n"
	"        IADD3 R10, R10, R5, RZ ;\n"
	"        STG [R12.64], R10 ;\n"
	"        STG [R12.64+0x4], R6 ;\n"
	"        STG [R12.64+0x8], R7 ;\n"
	"        EXIT ;\n"
	".end\n";
#define STRAIGHT_THREADS 6400u

/* The interpreter's words of a straight run without a fault, bad CTA
 * `bad` (the odd lanes' word from alt), threads from `tail` on none. */
static void straight_values(th_kernel *t, const th_run *ref, uint32_t block, uint32_t bad, uint32_t tail,
			    const char *what)
{
	const uint32_t *out = (const uint32_t *)(const void *)th_view(t, ref->mem, "out");
	const uint32_t *in = (const uint32_t *)(const void *)th_view(t, ref->mem, "in");
	const uint32_t *alt = (const uint32_t *)(const void *)th_view(t, ref->mem, "alt");
	for (uint32_t g = 0, wrong = 0; g < STRAIGHT_THREADS && wrong < 3; g++) {
		const uint32_t want = g / block == bad && (g & 1u) ? alt[g] : in[g];
		if (g >= tail ? out[3 * g] != 0xa5a5a5a5u
			      : out[3 * g] != want || out[3 * g + 1] || out[3 * g + 2] != g / block + 1) {
			wrong++;
			CHECK(0, "%s: thread %u: %#x %#x %#x", what, g, out[3 * g], out[3 * g + 1], out[3 * g + 2]);
		}
	}
}

START_TEST(straight)
{
	/* (block, bad CTA): CTA 150 of 200 (batches of 32 one-warp CTAs),
	 * CTA 70 of 100 (batches of 16) */
	static const uint32_t blocks[2] = { 32, 64 }, bads[2] = { 150, 70 };
	static const char *const kinds[4] = { "", ", two allocations", ", a fault", ", a tail" };
	th_kernel t;
	th_load(&t, straight_text, "straight", "straight");
	uint32_t *in = malloc(STRAIGHT_THREADS * 4);
	ck_assert_ptr_nonnull(in);
	for (uint32_t g = 0; g < STRAIGHT_THREADS; g++)
		in[g] = g * 2654435761u;
	th_buf_new(&t, "out", NULL, STRAIGHT_THREADS * 12, 0xa5);
	th_buf_new(&t, "in", in, STRAIGHT_THREADS * 4, 0);
	for (uint32_t g = 0; g < STRAIGHT_THREADS; g++)
		in[g] = ~g;
	th_buf_new(&t, "alt", in, STRAIGHT_THREADS * 4, 0);
	free(in);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (unsigned v = 0; v < 2; v++) {
		const uint32_t grid = STRAIGHT_THREADS / blocks[v];
		for (unsigned kind = 0; kind < 4; kind++) {
			const uint32_t tail = kind == 3 ? STRAIGHT_THREADS - 40u : STRAIGHT_THREADS;
			th_u32(&t, "bad", kind == 1 || kind == 2 ? bads[v] : 0xffffffffu);
			th_u32(&t, "far", kind == 2 ? 0x100000u : 0);
			th_u32(&t, "n", tail);
			for (size_t i = 0; i < n; i++) {
				char what_run[160];
				snprintf(what_run, sizeof what_run, "%u-warp CTAs, %s%s", blocks[v] / 32, cs[i].name,
					 kinds[kind]);
				th_run ref, r;
				run_off_on(&t, &cs[i], grid, blocks[v], &ref, &r);
				if (kind != 2) {
					th_expect_ok(&ref, "jit off");
					straight_values(&t, &ref, blocks[v], kind == 1 ? bads[v] : UINT32_MAX, tail,
							what_run);
					/* (the batch of the side exit runs on as usual; in
					 * the tail, a batch whose warps all leave or keep
					 * some threads runs straight, one with a warp that
					 * keeps all leaves the straight path: at most one
					 * batch of at most 32 warps) */
					const uint64_t st = r.s.jit_straight_ctas;
					CHECK(kind == 1	  ? st < grid && st >= grid / 2
					      : kind == 3 ? st <= grid && st + 32u >= grid
							  : st == grid,
					      "%s: %llu CTAs of %u straight", what_run, (unsigned long long)st, grid);
				} else {
					char cta[32];
					snprintf(cta, sizeof cta, "CTA (%u,0,0) warp 0 lanes 0-31", bads[v]);
					CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, cta) && strstr(ref.err, "LDG R10"),
					      "%s, jit off: %s\n%s", what_run, we_status_name(ref.st), ref.err);
					CHECK(r.s.jit_straight_ctas <= bads[v], "%s: %llu CTAs straight", what_run,
					      (unsigned long long)r.s.jit_straight_ctas);
					/* every CTA below the faulting one ran, in both; of
					 * those above it, the ones a worker had taken before
					 * the launch stopped (engine/turn.c chunk_take) */
					const size_t below = (size_t)bads[v] * blocks[v] * 12u;
					CHECK(!memcmp(th_view(&t, ref.mem, "out"), th_view(&t, r.mem, "out"), below),
					      "%s: the output of the CTAs below CTA %u differs", what_run, bads[v]);
				}
				th_expect_same(&t, &ref, &r, kind != 2 ? TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS : 0u,
					       "jit off", what_run);
				th_run_free(&r);
				th_run_free(&ref);
			}
		}
	}
	th_close(&t);
}
END_TEST

/* A straight kernel with a loop and barriers (src/exec/straight.c): each
 * trip every thread stores its word in shared memory, BAR.SYNC, reads
 * the word of the thread a warp further on (thread t + 32 of the 128),
 * BAR.ARV of all four warps (it completes barrier 1, no one waits),
 * folds the word into its own, BAR.SYNC; then the loop's uniform BRA,
 * in a BSSY and BSYNC as a PTX loop's (doc/ptx.md); then an if/else
 * (BSSY, BRA, BSYNC) that adds 0x22 in the odd threads of CTA `split`
 * and 0x11 elsewhere.
 * Plain, every CTA runs straight: the words are the C model's, and the
 * buffers and counters (barriers too) the interpreter's.  Then the runs
 * that leave the straight path where the interpreter must go on: CTA
 * `odd` loops once more (a BRA whose guard differs between the CTAs of a
 * batch), in CTA `early` warp 1 loops once less (differs between a CTA's
 * warps: the others' last trip completes barrier 0 without it, as the
 * exited-warp rule has it, and barrier 1 not at all), a loop longer
 * than XSTRAIGHT_BUDGET (the engine's turns take over), and CTA `split`,
 * whose warps split at the if/else after the BSSY ran straight (the
 * interpreter's BSYNC then waits for the lanes that the B register the
 * straight run set holds).  A kernel whose
 * BAR.SYNC counts two of its four warps runs no CTA straight. */
static const char flow_text[] =
	".kernel flow\n"
	".param ptr out\n"   /* 0x0: 2 words per thread             */
	".param u32 trips\n" /* 0x8                                 */
	".param u32 odd\n"   /* 0xc: a CTA with a trip more         */
	".param u32 early\n" /* 0x10: a CTA whose warp 1 has one less */
	".param u32 split\n" /* 0x14: a CTA whose odd threads add 0x22 */
	".shared 512\n"
	GTID_R3
	"        SHF.L.U32 R4, R0, 0x2, RZ ;\n"
	"        IADD3 R5, R0, 0x20, RZ ;\n"
	"        LOP3.LUT R5, R5, 0x7f, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R5, R5, 0x2, RZ ;\n"
	"        MOV R6, R3 ;\n"
	"        MOV R7, c[0x0][0x8] ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R1, c[0x0][0xc], PT ;\n"
	"   @P0  IADD3 R7, R7, 0x1, RZ ;\n"
	"        SHF.R.U32.HI R9, RZ, 0x5, R0 ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R9, 0x1, PT ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R1, c[0x0][0x10], P0 ;\n"
	"   @P0  IADD3 R7, R7, -0x1, RZ ;\n"
	"        MOV R8, RZ ;\n"
	".loop:\n"
	"        STS [R4], R6 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R9, [R5] ;\n"
	"        BAR.ARV 0x1, 0x80 ;\n"
	"        IMAD R6, R6, 0x3, R9 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        IADD3 R8, R8, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R8, R7, PT ;\n"
	"        BSSY B1, `(.done) ;\n"
	"   @P1  BRA `(.loop) ;\n"
	".done:\n"
	"        BSYNC B1 ;\n"
	"        LOP3.LUT R9, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P2, PT, R9, RZ, PT ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R1, c[0x0][0x14], P2 ;\n"
	"        BSSY B0, `(.join) ;\n"
	"   @P2  BRA `(.odd) ;\n"
	"        IADD3 R6, R6, 0x11, RZ ;\n"
	"        BRA `(.sync) ;\n"
	".odd:\n"
	"        IADD3 R6, R6, 0x22, RZ ;\n"
	".sync:\n"
	"        BSYNC B0 ;\n"
	".join:\n"
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R3, 0x8, R[10:11] ;\n"
	"        STG [R10.64], R6 ;\n"
	"        STG [R10.64+0x4], R8 ;\n"
	"        EXIT ;\n"
	".end\n";
#define FLOW_CTAS 40u
#define FLOW_BLOCK 128u

/* The C model of a flow CTA whose threads all make `trips` trips: out's
 * words of thread g of CTA c must be its fold and trips (CTA split's odd
 * threads added 0x22, the others 0x11). */
static void flow_values(th_kernel *t, const th_run *r, uint32_t trips, uint32_t split, const char *what)
{
	const uint32_t *out = (const uint32_t *)(const void *)th_view(t, r->mem, "out");
	for (uint32_t c = 0, wrong = 0; c < FLOW_CTAS && wrong < 3; c++) {
		uint32_t acc[FLOW_BLOCK], sh[FLOW_BLOCK];
		for (uint32_t k = 0; k < FLOW_BLOCK; k++)
			acc[k] = c * FLOW_BLOCK + k;
		for (uint32_t i = 0; i < trips; i++) {
			memcpy(sh, acc, sizeof sh);
			for (uint32_t k = 0; k < FLOW_BLOCK; k++)
				acc[k] = acc[k] * 3u + sh[(k + 32u) % FLOW_BLOCK];
		}
		for (uint32_t k = 0; k < FLOW_BLOCK; k++) {
			const uint32_t g = c * FLOW_BLOCK + k;
			acc[k] += c == split && (k & 1u) ? 0x22u : 0x11u;
			if (out[2 * g] != acc[k] || out[2 * g + 1] != trips) {
				wrong++;
				CHECK(0, "%s: thread %u: %#x %u, expected %#x %u", what, g, out[2 * g], out[2 * g + 1],
				      acc[k], trips);
			}
		}
	}
}

START_TEST(straight_flow)
{
	if (!we_jit_available())
		return;
	/* plain, CTA 17 a trip more, CTA 23's warp 1 a trip less, a loop
	 * past XSTRAIGHT_BUDGET instructions per warp (ten a trip), CTA 29's
	 * threads split */
	static const char *const kinds[5] = { "plain", "a CTA's loop longer", "a warp's loop shorter",
					      "a loop past the budget", "a CTA's threads split" };
	static const uint32_t trips[5] = { 5, 5, 5, 110000, 5 },
			      grids[5] = { FLOW_CTAS, FLOW_CTAS, FLOW_CTAS, 2, FLOW_CTAS };
	th_kernel t;
	th_load(&t, flow_text, "flow", "flow");
	th_buf_new(&t, "out", NULL, FLOW_CTAS * FLOW_BLOCK * 8, 0xa5);
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (unsigned kind = 0; kind < 5; kind++) {
		th_u32(&t, "trips", trips[kind]);
		th_u32(&t, "odd", kind == 1 ? 17u : UINT32_MAX);
		th_u32(&t, "early", kind == 2 ? 23u : UINT32_MAX);
		th_u32(&t, "split", kind == 4 ? 29u : UINT32_MAX);
		for (size_t i = 0; i < n; i++) {
			char what[160];
			snprintf(what, sizeof what, "%s, %s", cs[i].name, kinds[kind]);
			th_run ref, r;
			run_off_on(&t, &cs[i], grids[kind], FLOW_BLOCK, &ref, &r);
			th_expect_ok(&ref, what);
			th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS, "jit off", what);
			if (kind == 0 || kind == 4)
				flow_values(&t, &ref, trips[0], kind == 4 ? 29u : UINT32_MAX, what);
			if (kind == 0) {
				CHECK(r.s.barriers == (uint64_t)FLOW_CTAS * trips[0] * 3u, "%s: %llu barriers", what,
				      (unsigned long long)r.s.barriers);
			}
			/* (batches of one CTA where a group holds less than
			 * one: CTA 17 then loops on its own) */
			const unsigned ls = cs[i].lockstep ? cs[i].lockstep : WE_LOCKSTEP_DEFAULT;
			const bool one = cs[i].batch == 1 || ls < FLOW_BLOCK / 32;
			const uint64_t st = r.s.jit_straight_ctas;
			CHECK(kind == 0 || (kind == 1 && one)	  ? st == FLOW_CTAS
			      : kind == 3			  ? st == 0
			      : (kind == 2 || kind == 4) && one	  ? st == FLOW_CTAS - 1
							  : st < FLOW_CTAS && st >= FLOW_CTAS / 2,
			      "%s: %llu CTAs of %u straight", what, (unsigned long long)st, grids[kind]);
			th_run_free(&r);
			th_run_free(&ref);
		}
	}
	th_close(&t);
	/* a barrier of two of the four warps: not straight */
	char half[sizeof flow_text];
	snprintf(half, sizeof half, "%s", flow_text);
	char *b = strstr(half, "BAR.ARV 0x1, 0x80");
	ck_assert_ptr_nonnull(b);
	memcpy(b, "BAR.ARV 0x1, 0x40", 17);
	th_load(&t, half, "flow", "flow");
	th_buf_new(&t, "out", NULL, FLOW_CTAS * FLOW_BLOCK * 8, 0xa5);
	th_u32(&t, "trips", 5);
	th_u32(&t, "odd", UINT32_MAX);
	th_u32(&t, "early", UINT32_MAX);
	th_u32(&t, "split", UINT32_MAX);
	for (size_t i = 0; i < n; i++) {
		th_run ref, r;
		run_off_on(&t, &cs[i], FLOW_CTAS, FLOW_BLOCK, &ref, &r);
		th_expect_ok(&ref, cs[i].name);
		th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS, "jit off", cs[i].name);
		flow_values(&t, &ref, 5, UINT32_MAX, cs[i].name);
		CHECK(r.s.jit_straight_ctas == 0, "%s, BAR.ARV of 64: %llu CTAs straight", cs[i].name,
		      (unsigned long long)r.s.jit_straight_ctas);
		th_run_free(&r);
		th_run_free(&ref);
	}
	th_close(&t);
}
END_TEST

/* A straight kernel's tail (src/exec/straight.c, straight_tail): every
 * thread loads its word and stores it in shared memory, BAR.SYNC, then
 * the threads whose tid & `gone` is not zero EXIT, and the others add
 * their neighbour's shared word (tid + 1, which may have exited) to
 * their own and store both words.  In CTA `bad`, thread 36 (warp 1,
 * lane 4) loads `far` beyond its word.  gone 0x7f: only thread 0 stays
 * (a tree reduction's end: three warps leave whole, one keeps a lane);
 * 0x41: warps 0 and 1 keep their even lanes, 2 and 3 leave: each warp
 * then runs alone to its end, and every CTA counts as straight.  0x40:
 * warps 0 and 1 stay whole (no tail: the batches leave the straight path
 * at the EXIT); 0: no thread leaves (the EXIT is idle, no tail).  The
 * words are a model's, the buffers and counters the interpreter's.  A
 * fault in the tail (gone 0x1), after warp 0 of its CTA ran to its end,
 * or, when the threads below `below` = 32 exit too, after warp 0 left
 * whole at the EXIT: the interpreter's report, every CTA below it as
 * interpreted.  With a BAR.SYNC after the EXIT the kernel has no tail:
 * the batches leave the straight path at the EXIT, as before. */
static const char tail_head[] =
	".kernel tail\n"
	".param ptr out\n"  /* 0x0: 2 words per thread */
	".param ptr in\n"   /* 0x8: a word per thread  */
	".param u32 gone\n" /* 0x10                    */
	".param u32 bad\n"  /* 0x14                    */
	".param u32 far\n"  /* 0x18                    */
	".param u32 below\n" /* 0x1c                   */
	".shared 512\n"
	GTID_R3
	"        SHF.L.U32 R4, R0, 0x2, RZ ;\n"
	"        MOV R10, c[0x0][0x8] ;\n"
	"        MOV R11, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R3, 0x4, R[10:11] ;\n"
	"        LDG R5, [R10.64] ;\n"
	"        STS [R4], R5 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LOP3.LUT R6, R0, c[0x0][0x10], RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P2, PT, R6, RZ, PT ;\n"
	"        ISETP.LT.U32.OR P2, PT, R0, c[0x0][0x1c], P2 ;\n"
	"   @P2  EXIT ;\n";
static const char tail_rest[] =
	"        IADD3 R7, R0, 0x1, RZ ;\n"
	"        LOP3.LUT R7, R7, 0x7f, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"
	"        LDS R8, [R7] ;\n"
	"        IADD3 R8, R8, R5, RZ ;\n"
	"        ISETP.EQ.U32.AND P3, PT, R1, c[0x0][0x14], PT ;\n"
	"        ISETP.EQ.U32.AND P3, PT, R0, 0x24, P3 ;\n"
	"   @P3  IADD3 R11, R11, c[0x0][0x18], RZ ;\n"
	"        LDG R9, [R10.64] ;\n"
	"        MOV R12, c[0x0][0x0] ;\n"
	"        MOV R13, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0x8, R[12:13] ;\n"
	"        STG [R12.64], R8 ;\n"
	"        STG [R12.64+0x4], R9 ;\n"
	"        EXIT ;\n"
	".end\n";
#define TAIL_CTAS 40u
#define TAIL_BLOCK 128u
#define TAIL_BAD 29u

START_TEST(straight_tail)
{
	if (!we_jit_available())
		return;
	static const uint32_t gones[4] = { 0x7f, 0x41, 0x40, 0 };
	uint32_t *in = malloc(TAIL_CTAS * TAIL_BLOCK * 4);
	ck_assert_ptr_nonnull(in);
	for (uint32_t g = 0; g < TAIL_CTAS * TAIL_BLOCK; g++)
		in[g] = g * 2654435761u;
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_COMPILED, TH_GROUPS, cs);
	for (unsigned bar = 0; bar < 2; bar++) {
		char text[sizeof tail_head + sizeof tail_rest + 32];
		snprintf(text, sizeof text, "%s%s%s", tail_head, bar ? "        BAR.SYNC 0x0 ;\n" : "", tail_rest);
		th_kernel t;
		th_load(&t, text, "tail", "tail");
		th_buf_new(&t, "out", NULL, TAIL_CTAS * TAIL_BLOCK * 8, 0xa5);
		th_buf_new(&t, "in", in, TAIL_CTAS * TAIL_BLOCK * 4, 0);
		th_u32(&t, "bad", TAIL_BAD);
		for (unsigned kind = 0; kind < 6; kind++) {
			const uint32_t gone = kind < 4 ? gones[kind] : 0x1;
			th_u32(&t, "gone", gone);
			th_u32(&t, "far", kind >= 4 ? 0x100000u : 0);
			th_u32(&t, "below", kind == 5 ? 32u : 0u);
			for (size_t i = 0; i < n; i++) {
				char what[160];
				snprintf(what, sizeof what, "%s, gone %#x%s%s", cs[i].name, gone,
					 kind == 4 ? ", a fault" : kind == 5 ? ", a fault after warp 0 left" : "",
					 bar ? ", a barrier after the EXIT" : "");
				th_run ref, r;
				run_off_on(&t, &cs[i], TAIL_CTAS, TAIL_BLOCK, &ref, &r);
				const uint64_t st = r.s.jit_straight_ctas;
				if (kind >= 4) {
					CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "CTA (29,0,0) warp 1 lanes 4 ") &&
						      strstr(ref.err, "LDG R9"),
					      "%s, jit off: %s\n%s", what, we_status_name(ref.st), ref.err);
					const size_t below = (size_t)TAIL_BAD * TAIL_BLOCK * 8u;
					CHECK(!memcmp(th_view(&t, ref.mem, "out"), th_view(&t, r.mem, "out"), below),
					      "%s: the output of the CTAs below CTA %u differs", what, TAIL_BAD);
					CHECK(st <= TAIL_BAD && (bar || st > 0), "%s: %llu CTAs straight", what,
					      (unsigned long long)st);
					th_expect_same(&t, &ref, &r, 0u, "jit off", what);
					th_run_free(&r);
					th_run_free(&ref);
					continue;
				}
				th_expect_ok(&ref, what);
				th_expect_same(&t, &ref, &r, TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS, "jit off", what);
				const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
				for (uint32_t g = 0, wrong = 0; g < TAIL_CTAS * TAIL_BLOCK && wrong < 3; g++) {
					const uint32_t tid = g % TAIL_BLOCK, nb = g - tid + (tid + 1) % TAIL_BLOCK;
					const bool stays = !(tid & gone);
					const uint32_t w0 = stays ? in[g] + in[nb] : 0xa5a5a5a5u, w1 = stays ? in[g] : 0xa5a5a5a5u;
					if (out[2 * g] != w0 || out[2 * g + 1] != w1) {
						wrong++;
						CHECK(0, "%s: thread %u: %#x %#x, expected %#x %#x", what, g, out[2 * g],
						      out[2 * g + 1], w0, w1);
					}
				}
				/* (gone 0: the EXIT idle everywhere, no tail) */
				CHECK((bar && gone) || gone == 0x40 ? st == 0 : st == TAIL_CTAS,
				      "%s: %llu CTAs of %u straight", what, (unsigned long long)st, TAIL_CTAS);
				th_run_free(&r);
				th_run_free(&ref);
			}
		}
		th_close(&t);
	}
	free(in);
}
END_TEST

/* A block's restartable prefix (jit.c, defer_plan): each warp of a
 * 32-thread CTA loads lanes 0-15 from buffer a and lanes 16-31 from
 * buffer b, so its check fails (two allocations) and, when the first
 * loop is in the prefix, the interpreter runs the block again from its
 * start, the address rows R4 and R5 never stored.  What the loop stores
 * must not change what that run reads: with `reg`, R9 is read before
 * the block writes it (0 at the start: 7 after one IADD3, 14 after two);
 * with `pred`, P1 is (false at the start, so lanes 0-15 take a; after
 * its ISETP, true there).  Each keeps the loop out of the prefix.
 * out[2g] is the word loaded, out[2g + 1] R9. */
static const char restart_head[] =
	".kernel restart\n"
	".param ptr a\n"   /* 0x0: 16 words */
	".param ptr b\n"   /* 0x8: 32 words */
	".param ptr out\n" /* 0x10: two words per thread */
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n";
static const char restart_rest[] =
	"        ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n"
	"        ISETP.LT.U32.AND P1, PT, R0, 0x10, PT ;\n"
	"   @P0  MOV R4, c[0x0][0x8] ;\n"
	"   @P0  MOV R5, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n"
	"        LDG R6, [R4.64] ;\n"
	"        IMAD R3, R1, 0x20, R0 ;\n"
	"        MOV R10, c[0x0][0x10] ;\n"
	"        MOV R11, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R3, 0x8, R[10:11] ;\n"
	"        STG [R10.64], R6 ;\n"
	"        STG [R10.64+0x4], R9 ;\n"
	"        EXIT ;\n"
	".end\n";
#define RESTART_CTAS 24u

/* t on RESTART_CTAS CTAs of `block` threads: the interpreter's run gives
 * want(tid, k, ctx) as word k of each thread's `words` in buffer out,
 * and every compiled configuration the interpreter's buffers and
 * counters. */
static void restart_run(th_kernel *t, uint32_t block, unsigned words,
			uint32_t (*want)(uint32_t tid, unsigned k, const void *ctx), const void *ctx, const char *what)
{
	we_launch_config c;
	th_run ref;
	interp_ref(t, RESTART_CTAS, block, 2, &ref, &c);
	const uint32_t *out = (const uint32_t *)(const void *)th_view(t, ref.mem, "out");
	for (uint32_t g = 0, wrong = 0; g < RESTART_CTAS * block * words && wrong < 3; g++) {
		const uint32_t w = want(g / words % block, g % words, ctx);
		if (out[g] != w) {
			wrong++;
			CHECK(0, "%s, jit off: thread %u, word %u: %#x, expected %#x", what, g / words, g % words, out[g], w);
		}
	}
	expect_as_interpreted(t, &c, &ref, TH_COMPILED, 0);
	th_run_free(&ref);
}

/* restart's words: the load's and R9 */
static uint32_t restart_want(uint32_t tid, unsigned k, const void *ctx)
{
	const uint32_t *a = ctx, *b = a + 16;
	return k ? 7u : tid < 16 ? a[tid] : b[tid];
}

START_TEST(restart)
{
	static const char *const r9[2] = { "        IADD3 R9, RZ, 0x7, RZ ;\n", "        IADD3 R9, R9, 0x7, RZ ;\n" };
	static const char *const p1[2] = { "", "   @P1  MOV R4, c[0x0][0x8] ;\n   @P1  MOV R5, c[0x0][0xc] ;\n" };
	static const char base[] = "        MOV R4, c[0x0][0x0] ;\n        MOV R5, c[0x0][0x4] ;\n";
	static const char *const what[3] = { "a restart", "R9 read first", "P1 read first" };
	/* (a: 16 words, then b: 32) */
	uint32_t ab[48];
	for (uint32_t k = 0; k < 48; k++)
		ab[k] = k < 16 ? 0x1000u + k : 0x2000u + k - 16u;
	for (unsigned v = 0; v < 3; v++) {
		char text[sizeof restart_head + sizeof restart_rest + 512];
		snprintf(text, sizeof text, "%s%s%s%s%s", restart_head, r9[v == 1], base, p1[v == 2], restart_rest);
		th_kernel t;
		th_load(&t, text, "restart", "restart");
		th_buf_new(&t, "a", ab, 16 * 4, 0);
		th_buf_new(&t, "b", ab + 16, 32 * 4, 0);
		th_buf_new(&t, "out", NULL, RESTART_CTAS * 32 * 8, 0);
		restart_run(&t, 32, 2, restart_want, ab, what[v]);
		th_close(&t);
	}
}
END_TEST

/* A restartable prefix whose first loop is all under one guard: warp 0
 * of each 64-thread CTA (P0 false in every lane) is passed over there,
 * so its count of the prefix starts at zero without that loop (jit.c,
 * emit_run).  The second load's index comes from the first's, so it is
 * a phase of its own, and its lanes take b or c by bit 4 of the thread
 * index: its check fails in the prefix's second loop, which takes back
 * both loops' counts.  out[g] = (tid & 16 ? c : b)[i], i = a[tid] where
 * tid >= 32, else 0. */
static const char restart_guarded_text[] =
	".kernel restart_guarded\n"
	".param ptr a\n"   /* 0x0: 64 words */
	".param ptr b\n"   /* 0x8: 16 words */
	".param ptr c\n"   /* 0x10: 16 words */
	".param ptr out\n" /* 0x18: a word per thread */
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"   @P0  MOV R4, c[0x0][0x0] ;\n"
	"   @P0  MOV R5, c[0x0][0x4] ;\n"
	"   @P0  IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n"
	"   @P0  LDG R6, [R4.64] ;\n"
	"        LOP3.LUT R8, R0, 0x10, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R8, RZ, PT ;\n"
	"        MOV R12, c[0x0][0x8] ;\n"
	"        MOV R13, c[0x0][0xc] ;\n"
	"   @P1  MOV R12, c[0x0][0x10] ;\n"
	"   @P1  MOV R13, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R6, 0x4, R[12:13] ;\n"
	"        LDG R7, [R12.64] ;\n"
	"        IMAD R3, R1, 0x40, R0 ;\n"
	"        MOV R10, c[0x0][0x18] ;\n"
	"        MOV R11, c[0x0][0x1c] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R3, 0x4, R[10:11] ;\n"
	"        STG [R10.64], R7 ;\n"
	"        EXIT ;\n"
	".end\n";

/* restart_guarded's word: ctx holds a, b and c */
static uint32_t guarded_want(uint32_t tid, unsigned k, const void *ctx)
{
	const uint32_t *a = ctx, *b = a + 64, *c = b + 16;
	(void)k;
	return (tid & 16 ? c : b)[tid >= 32 ? a[tid] : 0];
}

START_TEST(restart_guarded)
{
	/* (a: 64 indices, then b and c: 16 words each) */
	uint32_t abc[96];
	for (uint32_t k = 0; k < 96; k++)
		abc[k] = k < 64 ? (k * 7u) % 16u : k < 80 ? 0x4000u + k - 64u : 0x5000u + k - 80u;
	th_kernel t;
	th_load(&t, restart_guarded_text, "restart_guarded", "restart_guarded");
	th_buf_new(&t, "a", abc, 64 * 4, 0);
	th_buf_new(&t, "b", abc + 64, 16 * 4, 0);
	th_buf_new(&t, "c", abc + 80, 16 * 4, 0);
	th_buf_new(&t, "out", NULL, RESTART_CTAS * 64 * 4, 0xa5);
	restart_run(&t, 64, 1, guarded_want, abc, "a first loop under one guard");
	th_close(&t);
}
END_TEST

/* An address the block reads before it writes it (R2, 0 at the start),
 * the same in every lane, so not consecutive, and outside every
 * allocation: its check stores the row for a gather (jit.c
 * store_scattered) and then fails.  That store keeps the block's first
 * loop out of the restartable prefix: a restart would add 0x100000 twice
 * and report 0x200000 (found by fuzz_exec). */
static const char restart_scattered_text[] =
	".kernel restart_scattered\n"
	".param ptr a\n"
	"        MOV R0, 0x0 ;\n"
	"        IADD3 R2, R2, 0x100000, RZ ;\n"
	"        LDG R1, [R2.64] ;\n"
	"        EXIT ;\n"
	".end\n";

static void fault_as_interpreted(th_kernel *t, we_launch_config c, const char *where, const char *what);

START_TEST(restart_scattered)
{
	if (!we_jit_available())
		return;
	th_kernel t;
	th_load(&t, restart_scattered_text, "restart_scattered", "restart_scattered");
	th_buf_new(&t, "a", NULL, 256, 0);
	we_launch_config d = th_cfg1(WE_ENGINE_SCHEDULER, 2, 64);
	d.timeout = WALL_TIMEOUT_S;
	d.threads = 1;
	fault_as_interpreted(&t, d, "4 bytes at 0x100000 ", "an address read first, scattered");
	th_close(&t);
}
END_TEST

/* A straight kernel's batches honour --timeout: a grid of 2^31 - 1 CTAs
 * stops at the wall-clock limit with the watchdog's report, after some
 * of them ran straight. */
START_TEST(straight_timeout)
{
	if (!we_jit_available())
		return;
	th_kernel t;
	th_load(&t,
		".kernel spin\n"
		GTID_R3
		"        IMAD R4, R3, 0x3, R1 ;\n"
		"        EXIT ;\n"
		".end\n",
		"spin", "spin");
	we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, 2147483647u, 32);
	c.grid = (we_dim3){ 2147483647u, 1, 1 };
	c.timeout = 1.0;
	c.jit = WE_JIT_ON;
	th_run r;
	th_run_launch(&t, &c, &r);
	CHECK(r.st == WE_ERR_TIMEOUT && strstr(r.err, "wall-clock limit") && r.s.jit_straight_ctas > 0 &&
		      r.s.jit_straight_ctas < 2147483647u,
	      "%s, %llu CTAs straight\n%s", we_status_name(r.st), (unsigned long long)r.s.jit_straight_ctas, r.err);
	th_run_free(&r);
	th_close(&t);
}
END_TEST

/* Memory instructions under partial guards and at other addresses than
 * thread i at word i: 64-bit loads and stores, global and shared; loads
 * whose unguarded lanes' addresses are far outside every window (no
 * fault); a shared store where two guarded lanes write one word (the
 * higher lane's value stays, as lane order: compiled as a scatter, as
 * are the global stores, 12 words apart); a partial load of a few
 * lanes; a load whose lanes address two allocations (not the fast case:
 * the side exit, then the interpreter); loads of lanes that are not
 * consecutive (compiled as gathers): 32 bits at a stride, four lanes of
 * one word, 64 bits of the neighbour's pair (shared) and in reverse
 * lane order (global).  The buffers and counters are the interpreter's,
 * and the first of them are asserted. */
static const char guards_text[] =
	".kernel guards\n"
	".param ptr out\n"   /* 0x0: 12 words per thread */
	".param ptr in\n"    /* 0x8: 2 words per thread  */
	".param ptr other\n" /* 0x10: a word per thread  */
	".shared 1024\n"
	GTID_R3
	"        LOP3.LUT R4, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;\n"
	"        ISETP.LT.U32.AND P1, PT, R0, 0x5, PT ;\n"
	"        MOV R10, c[0x0][0x8] ;\n"
	"        MOV R11, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0x8, R[10:11] ;\n"
	"        LDG.64 R[14:15], [R12.64] ;\n"
	"        MOV R16, R12 ;\n"
	"        MOV R17, R13 ;\n"
	"   @!P0 IADD3 R17, R17, 0x1000, RZ ;\n"
	"        MOV R18, 0xdead ;\n"
	"   @P0  LDG R18, [R16.64+0x4] ;\n"
	"        MOV R20, 0xbeef ;\n"
	"        MOV R21, 0xbeef ;\n"
	"   @P0  LDG.64 R[20:21], [R16.64] ;\n"
	"        SHF.L.U32 R22, R0, 0x3, RZ ;\n"
	"        STS.64 [R22], R[14:15] ;\n"
	"        LOP3.LUT R36, R22, 0x8, RZ, 0x3c, !PT ;\n"
	"        LDS.64 R[34:35], [R36] ;\n"
	"        LOP3.LUT R37, R3, 0x1f, RZ, 0x3c, !PT ;\n"
	"        IMAD.WIDE.U32 R[38:39], R37, 0x8, R[10:11] ;\n"
	"        LDG.64 R[40:41], [R38.64] ;\n"
	"        IADD3 R25, R0, 0x1, RZ ;\n"
	"        LOP3.LUT R25, R25, 0xff, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R25, R25, 0x2, RZ ;\n"
	"        MOV R24, 0x5a5a ;\n"
	"   @P1  LDS R24, [R25] ;\n"
	"        SHF.R.U32.HI R26, RZ, 0x2, R0 ;\n"
	"        SHF.L.U32 R26, R26, 0x2, RZ ;\n"
	"   @P0  STS [R26], R0 ;\n"
	"        LDS R27, [R26] ;\n"
	"        MOV R28, c[0x0][0x8] ;\n"
	"        MOV R29, c[0x0][0xc] ;\n"
	"   @P0  MOV R28, c[0x0][0x10] ;\n"
	"   @P0  MOV R29, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[28:29], R3, 0x4, R[28:29] ;\n"
	"        LDG R30, [R28.64] ;\n"
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[32:33], R3, 0x30, R[10:11] ;\n"
	"        STG.64 [R32.64], R[14:15] ;\n"
	"        STG [R32.64+0x8], R18 ;\n"
	"        STG [R32.64+0xc], R24 ;\n"
	"        STG.64 [R32.64+0x10], R[20:21] ;\n"
	"        STG [R32.64+0x18], R27 ;\n"
	"        STG [R32.64+0x1c], R30 ;\n"
	"        STG.64 [R32.64+0x20], R[34:35] ;\n"
	"        STG.64 [R32.64+0x28], R[40:41] ;\n"
	"        EXIT ;\n"
	".end\n";
#define GUARDS_CTAS 3u
#define GUARDS_THREADS (GUARDS_CTAS * 128u)

START_TEST(guards)
{
	th_kernel t;
	th_load(&t, guards_text, "guards", "guards");
	uint32_t *in = th_xmalloc(GUARDS_THREADS * 8), *other = th_xmalloc(GUARDS_THREADS * 4);
	for (uint32_t g = 0; g < GUARDS_THREADS * 2; g++)
		in[g] = 0x10000u + g;
	for (uint32_t g = 0; g < GUARDS_THREADS; g++)
		other[g] = 0x70000u + g;
	th_buf_new(&t, "out", NULL, GUARDS_THREADS * 48, 0xa5);
	th_buf_new(&t, "in", in, GUARDS_THREADS * 8, 0);
	th_buf_new(&t, "other", other, GUARDS_THREADS * 4, 0);
	free(in);
	free(other);
	we_launch_config c;
	th_run ref;
	interp_ref(&t, GUARDS_CTAS, 128, 1, &ref, &c);
	const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
	for (uint32_t g = 0; g < GUARDS_THREADS; g++) {
		const uint32_t tid = g % 128, odd = tid & 1u, *o = out + 12 * g;
		/* word 3: shared word tid + 1 for the first 5 threads of each
		 * CTA (half of the STS.64 of thread (tid + 1) / 2), word 6:
		 * shared word tid / 4, which odd lanes 4k + 1 and 4k + 3 stored
		 * (the higher lane's value stays); words 8-9: thread g ^ 1's
		 * pair, 10-11: thread g ^ 31's */
		const uint32_t want[12] = { 0x10000u + 2 * g,
					    0x10001u + 2 * g,
					    odd ? 0x10001u + 2 * g : 0xdeadu,
					    tid < 5 ? 0x10000u + 2 * (g - tid) + tid + 1 : 0x5a5au,
					    odd ? 0x10000u + 2 * g : 0xbeefu,
					    odd ? 0x10001u + 2 * g : 0xbeefu,
					    (tid & ~3u) + 3,
					    odd ? 0x70000u + g : 0x10000u + g,
					    0x10000u + 2 * (g ^ 1u),
					    0x10001u + 2 * (g ^ 1u),
					    0x10000u + 2 * (g ^ 31u),
					    0x10001u + 2 * (g ^ 31u) };
		for (unsigned k = 0; k < 12; k++)
			CHECK(o[k] == want[k], "jit off: thread %u word %u is %#x, want %#x", g, k, o[k], want[k]);
	}
	expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, 0);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* The warp function (jit.h, xjit_wfn): a warp alone runs its branches
 * compiled.  Data-dependent loops and if/else under BSSY/BSYNC (full
 * syncs, failed ones that switch groups, releases that run the lanes
 * outside the B register first: the lanes that left the loop), a BRA
 * straight to its BSYNC, a guarded BSYNC only some lanes run (the
 * interpreter's), a YIELD in a branch (the yield mask the BSYNCs read),
 * loads and stores under partial masks, a SHFL and a VOTE among one
 * side's threads (the others' values and votes left out), an EXIT of
 * some lanes, then more
 * syncs over the valid lanes left and a loop left by BREAK.  in[t] bit 31 makes thread t store
 * outside out in the odd branch: a fault inside divergent code. */
static const char wfn_text[] =
	".kernel wfn\n"
	".param ptr out\n" /* 0x0: four words per thread */
	".param ptr in\n"  /* 0x8: a word per thread */
	GTID_R3
	"        S2R R20, SR_LANEID ;\n"
	IN_R4_OUT_R12("0x10")
	"        LOP3.LUT R5, R4, 0x1f, RZ, 0xc0, !PT ;\n"
	"        SHF.R.U32.HI R21, RZ, 0x1f, R4 ;\n"
	"        IMAD R21, R21, 0x40000000, RZ ;\n"
	"        LOP3.LUT R4, R4, 0x7fffffff, RZ, 0xc0, !PT ;\n"
	LOOP_R5_BEGIN
	"        LOP3.LUT R8, R4, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R8, RZ, PT ;\n"
	"        BSSY B1, `(.join1) ;\n"
	"   @P1  BRA `(.odd) ;\n"
	"        SHF.R.U32.HI R4, RZ, 0x1, R4 ;\n"
	"        LOP3.LUT R6, R6, R4, RZ, 0x3c, !PT ;\n"
	"        LDG R9, [R10.64] ;\n"
	"        IADD3 R6, R6, R9, RZ ;\n"
	"        BRA `(.sync1) ;\n"
	".odd:\n"
	"        IMAD R4, R4, 0x3, RZ ;\n"
	"        IADD3 R4, R4, 0x1, RZ ;\n"
	"        IADD3 R6, R6, R4, RZ ;\n"
	/* (warp-wide instructions among the active threads of one side:
	 * the other side's threads, !P1, are no source and have no vote) */
	"        SHFL.DOWN P5, R16, R6, 0x1, 0x1f ;\n"
	"        VOTE.ANY R17, PT, !P1 ;\n"
	"        VOTE.ALL R18, PT, P5 ;\n"
	"        LOP3.LUT R6, R6, R16, R17, 0x96, !PT ;\n"
	"        IADD3 R6, R6, R18, RZ ;\n"
	"        IADD3 R14, P5, R12, R21, RZ ;\n"
	"        IADD3.X R15, R13, RZ, RZ, P5, !PT ;\n"
	"        STG [R14.64+0x4], R4 ;\n"
	"        LOP3.LUT R8, R4, 0x30, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P4, PT, R8, RZ, PT ;\n"
	"   @P4  YIELD ;\n"
	".sync1:\n"
	"        BSYNC B1 ;\n"
	".join1:\n"
	"        LOP3.LUT R8, R4, 0x6, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P2, PT, R8, RZ, PT ;\n"
	"        BSSY B2, `(.join2) ;\n"
	"   @P2  BRA `(.sync2) ;\n"
	"        IMAD R6, R6, 0x3, R7 ;\n"
	".sync2:\n"
	"        BSYNC B2 ;\n"
	".join2:\n"
	LOOP_R5_END
	"        ISETP.LT.U32.AND P3, PT, R20, 0x8, PT ;\n"
	"        BSSY B3, `(.after3) ;\n"
	"   @P3  BSYNC B3 ;\n"
	"        IADD3 R6, R6, 0x5, RZ ;\n"
	"        BSYNC B3 ;\n"
	".after3:\n"
	"        STG [R12.64], R6 ;\n"
	"        LOP3.LUT R8, R6, 0x7, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P6, PT, R8, RZ, PT ;\n"
	"   @P6  EXIT ;\n"
	"        BSSY B4, `(.after4) ;\n"
	"        ISETP.LT.U32.AND P0, PT, R20, 0x10, PT ;\n"
	"   @P0  BRA `(.hi) ;\n"
	"        IADD3 R7, R7, 0x100, RZ ;\n"
	"        BRA `(.sync4) ;\n"
	".hi:\n"
	"        IADD3 R7, R7, 0x200, RZ ;\n"
	".sync4:\n"
	"        BSYNC B4 ;\n"
	".after4:\n"
	"        MOV R9, RZ ;\n"
	"        BSSY B5, `(.brk_after) ;\n"
	".brk_loop:\n"
	"        IADD3 R9, R9, 0x1, RZ ;\n"
	"        ISETP.GE.U32.AND P0, PT, R9, R5, PT ;\n"
	"   @P0  BREAK B5 ;\n"
	"   @P0  BRA `(.brk_sync) ;\n"
	"        BRA `(.brk_loop) ;\n"
	".brk_sync:\n"
	"        BSYNC B5 ;\n"
	".brk_after:\n"
	"        IMAD R7, R9, 0x10000, R7 ;\n"
	"        STG [R12.64+0x8], R7 ;\n"
	"        STG [R12.64+0xc], R20 ;\n"
	"        EXIT ;\n"
	".end\n";

static void wfn_inputs(th_kernel *t, uint32_t threads, uint32_t bad)
{
	uint32_t *in = th_xmalloc(threads * 4);
	th_rng_seed(23);
	for (uint32_t g = 0; g < threads; g++)
		in[g] = (th_rng() & 0x7fffffffu) | (g == bad ? 0x80000001u : 0u);
	th_buf_new(t, "out", NULL, threads * 16, 0xa5);
	th_buf_new(t, "in", in, threads * 4, 0);
	free(in);
}

START_TEST(warpfn)
{
	/* CTAs of one warp (the warp function from their start), of three,
	 * and of two and a half */
	static const uint32_t blocks[] = { 32, 96, 80 };
	const uint32_t ctas = 5;
	for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
		th_kernel t;
		th_load(&t, wfn_text, "wfn", "wfn");
		wfn_inputs(&t, ctas * blocks[k], UINT32_MAX);
		we_launch_config c;
		th_run ref;
		interp_ref(&t, ctas, blocks[k], 1, &ref, &c);
		/* the kernel ran what it should: some threads exited early,
		 * the others stored their lane */
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		uint32_t early = 0;
		for (uint32_t g = 0; g < ctas * blocks[k]; g++) {
			const bool exited = (out[4 * g] & 7u) == 0;
			early += exited;
			CHECK(exited ? out[4 * g + 3] == 0xa5a5a5a5u : out[4 * g + 3] == g % blocks[k] % 32u,
			      "block %u, thread %u: word 3 is %#x", blocks[k], g, out[4 * g + 3]);
		}
		CHECK(early > 0 && early < ctas * blocks[k], "block %u: %u threads exited early", blocks[k], early);
		expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, 0);
		if (we_jit_available()) {
			we_launch_config on = c;
			on.jit = WE_JIT_ON;
			on.lockstep = 8;
			on.batch = 1;
			th_run r;
			th_run_launch(&t, &on, &r);
			th_expect_same(&t, &ref, &r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off", "jit on, batch 1");
			CHECK(r.s.jit_warp_entries >= 20, "block %u: the warp function has %u entries", blocks[k],
			      r.s.jit_warp_entries);
			th_run_free(&r);
		}
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* Lanes 0-15 wait at BSYNC B0 and lanes 16-31 at BSYNC B1, each for the
 * other half: the warp switches between them for ever, which
 * sem_sync_progress reports as an intra-warp deadlock (the warp function
 * leaves that report to the interpreter). */
static const char crossed_text[] =
	".kernel crossed\n"
	".param ptr out\n"
	GTID_R3
	"        S2R R4, SR_LANEID ;\n"
	"        ISETP.GE.U32.AND P0, PT, R4, 0x10, PT ;\n"
	"        BSSY B0, `(.j0) ;\n"
	"        BSSY B1, `(.j1) ;\n"
	"   @P0  BRA `(.other) ;\n"
	"        BSYNC B0 ;\n"
	"        BRA `(.j1) ;\n"
	".other:\n"
	"        BSYNC B1 ;\n"
	".j1:\n"
	"        NOP ;\n"
	".j0:\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R3, 0x4, R[20:21] ;\n"
	"        STG [R20.64], R4 ;\n"
	"        EXIT ;\n"
	".end\n";

/* c with jit on (where the library has the tier) must give ref's
 * status, reports and buffers, also of a stopped launch; *s its stats.
 * false without the tier. */
static bool jit_on_same(th_kernel *t, we_launch_config c, const th_run *ref, const char *what, we_launch_stats *s)
{
	if (!we_jit_available())
		return false;
	th_run r;
	c.jit = WE_JIT_ON;
	th_run_launch(t, &c, &r);
	th_expect_same(t, ref, &r, TH_SAME_ALL_MEMORY, "jit off", what);
	*s = r.s;
	th_run_free(&r);
	return true;
}

/* Launch c of t must stop at a fault whose report names `where` with
 * jit off, and with jit on (where the library has the tier) give the
 * same status, reports and buffers from compiled code. */
static void fault_as_interpreted(th_kernel *t, we_launch_config c, const char *where, const char *what)
{
	th_run ref;
	c.jit = WE_JIT_OFF;
	th_run_launch(t, &c, &ref);
	CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, where), "%s, jit off: %s\n%s", what,
	      we_status_name(ref.st), ref.err);
	we_launch_stats st;
	if (jit_on_same(t, c, &ref, what, &st))
		CHECK(!strcmp(st.jit, "compiled"), "%s: jit %s", what, st.jit);
	th_run_free(&ref);
}

/* Where the warp function must give the interpreter's report: a fault
 * of one lane in divergent code (a side exit), the watchdog stopping a
 * warp at its exact instruction count (the budget: a run longer than
 * what is left is the interpreter's), and crossed_text's deadlock.  CTAs of one warp,
 * one at a time: the same order of turns jit on and off. */
START_TEST(warpfn_stops)
{
	const uint32_t ctas = 4, block = 32;
	for (unsigned kind = 0; kind < 3; kind++) {
		th_kernel t;
		if (kind < 2) {
			th_load(&t, wfn_text, "wfn", "wfn");
			wfn_inputs(&t, ctas * block, kind == 0 ? 2 * block + 5 : UINT32_MAX);
		} else {
			th_load(&t, crossed_text, "crossed", "crossed");
			th_buf_new(&t, "out", NULL, ctas * block * 4, 0);
		}
		we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, ctas, block);
		c.timeout = WALL_TIMEOUT_S;
		c.lockstep = 8;
		c.batch = 1;
		c.threads = 1;
		if (kind == 1)
			c.max_instructions = 300;
		c.jit = WE_JIT_OFF;
		th_run ref;
		th_run_launch(&t, &c, &ref);
		static const char *const wants[3] = { "CTA (2,0,0) warp 0 lanes 5 PC", "--max-instructions",
						      "wait at BSYNC/WARPSYNC/TBAR for each other" };
		static const char *const names[3] = { "fault, jit on", "watchdog, jit on", "deadlock, jit on" };
		const char *want = wants[kind];
		CHECK(ref.st != WE_OK && strstr(ref.err, want), "kind %u, jit off: %s\n%s", kind,
		      we_status_name(ref.st), ref.err);
		we_launch_stats st;
		if (jit_on_same(&t, c, &ref, names[kind], &st))
			CHECK(st.jit_warp_entries > 0, "kind %u: no warp function", kind);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* If/else shapes the warp function runs in one pass (jit.c
 * wemit_diamond), in a loop whose threads leave it one by one (they wait
 * at .done: the release of an if-then switches to them and back): an
 * if/else (B1, B7), an if-then (B2), threads that do not jump running
 * on into the others' side (B3), an if-then whose others end in BRA
 * (B4), an empty side (B5, whose other side writes a predicate); and
 * shapes it must leave to 004's way: B6 holding threads outside the
 * if/else (those of P3, waiting at .w6), threads that yield (P6: YIELD)
 * among those that jump at B1 (in even trips).  In odd trips only
 * threads that do not jump at B1 yield: the one pass, whose BSYNC ends
 * their yield, as 004's; B7's threads that jump are those (P5), which
 * must not yield there.  out: acc and x of each thread (ifelse_model). */
static const char ifelse_text[] =
	".kernel ifelse\n"
	".param ptr out\n" /* 0x0: two words per thread */
	".param ptr in\n"  /* 0x8: a word per thread */
	GTID_R3
	IN_R4_OUT_R12("0x8")
	"        LOP3.LUT R5, R4, 0x7, RZ, 0xc0, !PT ;\n"
	LOOP_R5_BEGIN
	"        IMAD R4, R4, 0x5, R7 ;\n"
	"        SHF.R.U32.HI R8, RZ, 0x3, R4 ;\n"
	"        LOP3.LUT R9, R8, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R9, RZ, PT ;\n"
	"        LOP3.LUT R9, R8, 0x2, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P2, PT, R9, RZ, PT ;\n"
	"        LOP3.LUT R9, R8, 0x4, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P3, PT, R9, RZ, PT ;\n"
	"        LOP3.LUT R14, R7, 0x1, RZ, 0xc0, !PT ;\n"
	"        LOP3.LUT R14, R14, 0x30, RZ, 0xfc, !PT ;\n"
	"        LOP3.LUT R9, R8, R14, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P6, PT, R9, 0x30, PT ;\n"
	"        LOP3.LUT R9, R8, 0x31, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P5, PT, R9, 0x30, PT ;\n"
	"   @P6  YIELD ;\n"
	"        BSSY B1, `(.j1) ;\n"
	"   @P1  BRA `(.x1) ;\n"
	"        IADD3 R6, R6, 0x3, RZ ;\n"
	"        LOP3.LUT R6, R6, R4, RZ, 0x3c, !PT ;\n"
	"        BRA `(.s1) ;\n"
	".x1:\n"
	"        IMAD R6, R6, 0x7, R4 ;\n"
	".s1:\n"
	"        BSYNC B1 ;\n"
	".j1:\n"
	"        BSSY B7, `(.j7) ;\n"
	"   @P5  BRA `(.x7) ;\n"
	"        IADD3 R6, R6, 0x21, RZ ;\n"
	"        BRA `(.s7) ;\n"
	".x7:\n"
	"        IADD3 R6, R6, 0x23, RZ ;\n"
	".s7:\n"
	"        BSYNC B7 ;\n"
	".j7:\n"
	"        BSSY B2, `(.j2) ;\n"
	"   @P2  BRA `(.s2) ;\n"
	"        IADD3 R6, R6, 0x100, RZ ;\n"
	".s2:\n"
	"        BSYNC B2 ;\n"
	".j2:\n"
	"        BSSY B3, `(.j3) ;\n"
	"  @!P3  BRA `(.x3) ;\n"
	"        SHF.L.U32 R6, R6, 0x1, RZ ;\n"
	".x3:\n"
	"        IADD3 R6, R6, R7, RZ ;\n"
	"        BSYNC B3 ;\n"
	".j3:\n"
	"        BSSY B4, `(.j4) ;\n"
	"   @P1  BRA `(.s4) ;\n"
	"        LOP3.LUT R6, R6, 0x55, RZ, 0x3c, !PT ;\n"
	"        BRA `(.s4) ;\n"
	".s4:\n"
	"        BSYNC B4 ;\n"
	".j4:\n"
	"        BSSY B5, `(.j5) ;\n"
	"  @!P2  BRA `(.x5) ;\n"
	"        BRA `(.s5) ;\n"
	".x5:\n"
	"        IADD3 R6, R6, 0x9, RZ ;\n"
	"        ISETP.GT.U32.AND P4, PT, R6, 0x10000, PT ;\n"
	".s5:\n"
	"        BSYNC B5 ;\n"
	".j5:\n"
	"   @P4  LOP3.LUT R6, R6, 0xffff, RZ, 0xc0, !PT ;\n"
	"        BSSY B6, `(.j6) ;\n"
	"   @P3  BRA `(.w6) ;\n"
	"        BSSY B6, `(.w6) ;\n"
	"   @P1  BRA `(.x6) ;\n"
	"        IADD3 R6, R6, 0x11, RZ ;\n"
	"        BRA `(.s6) ;\n"
	".x6:\n"
	"        IADD3 R6, R6, 0x13, RZ ;\n"
	".s6:\n"
	"        BSYNC B6 ;\n"
	".w6:\n"
	"        BSYNC B6 ;\n"
	".j6:\n"
	LOOP_R5_END
	"        STG [R12.64], R6 ;\n"
	"        STG [R12.64+0x4], R4 ;\n"
	"        EXIT ;\n"
	".end\n";

/* What ifelse_text stores for a thread of input v: out[0] acc, out[1] x */
static void ifelse_model(uint32_t v, uint32_t out[2])
{
	uint32_t x = v, acc = 0;
	bool p4 = false;
	for (uint32_t j = 0; j < (v & 7u); j++) {
		x = x * 5u + j;
		const uint32_t b = x >> 3;
		acc = (b & 1u) ? acc * 7u + x : (acc + 3u) ^ x;
		acc += (b & 0x31u) == 0x30u ? 0x23u : 0x21u;
		if (!(b & 2u))
			acc += 0x100u;
		if (b & 4u)
			acc <<= 1;
		acc += j;
		if (!(b & 1u))
			acc ^= 0x55u;
		if (!(b & 2u)) {
			acc += 9u;
			p4 = acc > 0x10000u;
		}
		if (p4)
			acc &= 0xffffu;
		if (!(b & 4u))
			acc += (b & 1u) ? 0x13u : 0x11u;
	}
	out[0] = acc;
	out[1] = x;
}

/* Threads that yield in an if/else the warp function runs in one pass:
 * lanes 0-15 wait at .a; 24-31 wait at .p; 16-23 YIELD, all the
 * threads running (004: they yield, their RPC .p, the warp switches to
 * 0-15); 0-15 exit and the warp goes on with all of 16-31 at .p, 16-23
 * yielding.  At B1 only some of those that do not jump yield: the BSYNC
 * ends their yield (004's full sync); so B2, where just 16-23 jump, is
 * one pass too (were they still yielding, 24-31 would go on past its
 * BSYNC alone).  out: lane + 0x100 or 0x200 + 0x1000 or 0x2000, for
 * lanes 16-31. */
static const char yielded_text[] =
	".kernel yielded\n"
	".param ptr out\n"
	GTID_R3
	"        S2R R4, SR_LANEID ;\n"
	"        MOV R6, R4 ;\n"
	"        ISETP.LT.U32.AND P0, PT, R4, 0x10, PT ;\n"
	"        ISETP.LT.U32.AND P1, PT, R4, 0x18, PT ;\n"
	"        ISETP.GE.U32.AND P2, PT, R4, 0x1c, PT ;\n"
	"        ISETP.GE.U32.AND P3, PT, R4, 0x10, P1 ;\n"
	"   @P0  BRA `(.a) ;\n"
	"  @!P1  BRA `(.p) ;\n"
	"        YIELD ;\n"
	".p:\n"
	"        BSSY B1, `(.j1) ;\n"
	"   @P2  BRA `(.x1) ;\n"
	"        IADD3 R6, R6, 0x100, RZ ;\n"
	"        BRA `(.s1) ;\n"
	".x1:\n"
	"        IADD3 R6, R6, 0x200, RZ ;\n"
	".s1:\n"
	"        BSYNC B1 ;\n"
	".j1:\n"
	"        BSSY B2, `(.j2) ;\n"
	"   @P3  BRA `(.x2) ;\n"
	"        IADD3 R6, R6, 0x1000, RZ ;\n"
	"        BRA `(.s2) ;\n"
	".x2:\n"
	"        IADD3 R6, R6, 0x2000, RZ ;\n"
	".s2:\n"
	"        BSYNC B2 ;\n"
	".j2:\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R3, 0x4, R[20:21] ;\n"
	"        STG [R20.64], R6 ;\n"
	"        EXIT ;\n"
	".a:\n"
	"        EXIT ;\n"
	".end\n";

/* yielded_text in ctas CTAs of one warp: its stores, and jit on as
 * interpreted (counters too) */
static void ifelse_yielded(uint32_t ctas)
{
	th_kernel t;
	th_load(&t, yielded_text, "yielded", "yielded");
	th_buf_new(&t, "out", NULL, ctas * 32 * 4, 0xa5);
	we_launch_config c;
	th_run ref;
	interp_ref(&t, ctas, 32, 1, &ref, &c);
	const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
	for (uint32_t g = 0; g < ctas * 32; g++) {
		const uint32_t l = g % 32, want = l < 16 ? 0xa5a5a5a5u
							: l + (l >= 28 ? 0x200u : 0x100u) + (l < 24 ? 0x2000u : 0x1000u);
		CHECK(out[g] == want, "yielded, thread %u: %#x, %#x expected", g, out[g], want);
	}
	expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, 0);
	th_run_free(&ref);
	th_close(&t);
}

START_TEST(ifelse)
{
	/* CTAs of one warp (the warp function from their start) and of three */
	static const uint32_t blocks[] = { 32, 96 };
	const uint32_t ctas = 4;
	for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
		const uint32_t n = ctas * blocks[k];
		th_kernel t;
		th_load(&t, ifelse_text, "ifelse", "ifelse");
		uint32_t *in = th_xmalloc(n * 4);
		th_rng_seed(29);
		for (uint32_t g = 0; g < n; g++)
			in[g] = th_rng();
		th_buf_new(&t, "out", NULL, n * 8, 0xa5);
		th_buf_new(&t, "in", in, n * 4, 0);
		we_launch_config c;
		th_run ref;
		interp_ref(&t, ctas, blocks[k], 1, &ref, &c);
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		for (uint32_t g = 0; g < n; g++) {
			uint32_t want[2];
			ifelse_model(in[g], want);
			CHECK(out[2 * g] == want[0] && out[2 * g + 1] == want[1],
			      "block %u, thread %u: %#x %#x, the model %#x %#x", blocks[k], g, out[2 * g], out[2 * g + 1],
			      want[0], want[1]);
		}
		expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, 0);
		/* the watchdog stopping the warps at each instruction count of
		 * a stretch of them, inside the if/else shapes too (a budget
		 * too small for one: 004's way as far as it reaches), one CTA
		 * at a time in the same order of turns jit on and off */
		c.lockstep = 8;
		c.batch = 1;
		c.threads = 1;
		for (uint64_t m = 150; m < 230 && we_jit_available(); m++) {
			c.max_instructions = m;
			c.jit = WE_JIT_OFF;
			th_run stop;
			th_run_launch(&t, &c, &stop);
			CHECK(stop.st != WE_OK && strstr(stop.err, "--max-instructions"), "block %u, %" PRIu64 ": %s",
			      blocks[k], m, stop.err);
			we_launch_stats st;
			jit_on_same(&t, c, &stop, "watchdog, jit on", &st);
			th_run_free(&stop);
		}
		free(in);
		th_run_free(&ref);
		th_close(&t);
	}
	ifelse_yielded(3);
}
END_TEST

/* Warps that run nothing (jit.c emit_run): after an unguarded ISETP, a
 * run all under @P0 (tid < bound) skips to the warp's end where P0 is
 * false in every lane (skip_rest: R16, written before, is stored), and
 * its loops after a memory instruction run only the warps the loop
 * before listed; a run under @!P3 (P3 true in every lane) lists no warp
 * at all.  A, B and C are shared words 0-127, 128-255 and 256-383
 * (tid & (ntid - 1): no word is written by one thread and read by
 * another between the barriers); a lane tid == bad reads 1 MiB past R5
 * in the second load of a phase (run_phases): a fault, through the side
 * exit of the loop that checks both loads. */
static const char idle_text[] =
	".kernel idle\n"
	".param ptr out\n" /* 0x0: 7 words per thread */
	".param u32 bound\n" /* 0x8 */
	".param u32 bad\n"   /* 0xc */
	".shared 1536\n"
	GTID_R3
	"        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
	"        STS [R5], R3 ;\n"
	"        MOV R6, 0xbbbb ;\n"
	"        STS [R5+0x200], R6 ;\n"
	"        MOV R6, 0xcccc ;\n"
	"        STS [R5+0x400], R6 ;\n"
	"        IADD3 R13, R2, 0xffffffff, RZ ;\n"
	"        MOV R15, R5 ;\n"
	"        ISETP.EQ.U32.AND P5, PT, R0, c[0x0][0xc], PT ;\n"
	"   @P5  IADD3 R15, R5, 0x100000, RZ ;\n"
	"        MOV R7, 0x77 ;\n"
	"        MOV R8, 0x88 ;\n"
	"        MOV R9, 0x99 ;\n"
	"        MOV R10, 0x5678 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        ISETP.LT.U32.AND P0, PT, R0, c[0x0][0x8], PT ;\n"
	"        IADD3 R16, R0, 0x3, RZ ;\n"
	"   @P0  IADD3 R7, R0, 0x1, RZ ;\n"
	"   @P0  LOP3.LUT R7, R7, R13, RZ, 0xc0, !PT ;\n"
	"   @P0  SHF.L.U32 R7, R7, 0x2, RZ ;\n"
	"   @P0  LDS R8, [R7] ;\n"
	"   @P0  LDS R9, [R15] ;\n"
	"   @P0  IADD3 R9, R9, R8, RZ ;\n"
	"   @P0  STS [R5+0x200], R9 ;\n"
	"        ISETP.LT.U32.AND P3, PT, R0, 0x10000, PT ;\n"
	"  @!P3  IADD3 R12, R5, 0x400, RZ ;\n"
	"  @!P3  LDS R10, [R12] ;\n"
	"  @!P3  IADD3 R10, R10, 0x1, RZ ;\n"
	"  @!P3  STS [R12], R10 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R11, [R5+0x200] ;\n"
	"        LDS R12, [R5+0x400] ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R3, 0x1c, R[20:21] ;\n"
	"        STG [R20.64], R7 ;\n"
	"        STG [R20.64+0x4], R8 ;\n"
	"        STG [R20.64+0x8], R9 ;\n"
	"        STG [R20.64+0xc], R10 ;\n"
	"        STG [R20.64+0x10], R11 ;\n"
	"        STG [R20.64+0x14], R12 ;\n"
	"        STG [R20.64+0x18], R16 ;\n"
	"        EXIT ;\n"
	".end\n";
#define IDLE_CTAS 5u

START_TEST(idle_warps)
{
	/* CTAs of four warps: none, warp 0 and part of warp 1, or every
	 * warp under @P0; CTAs of one warp (the warp function): none, some
	 * lanes, all */
	static const struct {
		uint32_t block, bound;
	} cases[6] = { { 128, 0 }, { 128, 40 }, { 128, 128 }, { 32, 0 }, { 32, 5 }, { 32, 32 } };
	for (unsigned k = 0; k < 6; k++) {
		const uint32_t block = cases[k].block, bound = cases[k].bound, threads = IDLE_CTAS * block;
		th_kernel t;
		th_load(&t, idle_text, "idle", "idle");
		th_buf_new(&t, "out", NULL, threads * 28, 0xa5);
		th_u32(&t, "bound", bound);
		th_u32(&t, "bad", UINT32_MAX);
		we_launch_config c;
		th_run ref;
		interp_ref(&t, IDLE_CTAS, block, 1, &ref, &c);
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		for (uint32_t g = 0; g < threads; g++) {
			const uint32_t tid = g % block, on = tid < bound, nb = (tid + 1) & (block - 1u);
			const uint32_t r8 = on ? g - tid + nb : 0x88u, r9 = on ? g + r8 : 0x99u;
			const uint32_t want[7] = { on ? nb * 4 : 0x77u, r8, r9, 0x5678u, on ? r9 : 0xbbbbu, 0xccccu,
						   tid + 3 };
			for (unsigned w = 0; w < 7; w++)
				CHECK(out[7 * g + w] == want[w], "block %u bound %u, jit off: thread %u word %u is %#x, want %#x",
				      block, bound, g, w, out[7 * g + w], want[w]);
		}
		expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, 0);
		th_run_free(&ref);
		/* a lane of a listed warp out of shared memory: the
		 * interpreter's fault, jit on too */
		if (bound) {
			th_u32(&t, "bad", bound - 1u);
			we_launch_config d = th_cfg1(WE_ENGINE_SCHEDULER, 1, block);
			d.timeout = WALL_TIMEOUT_S;
			d.jit = WE_JIT_OFF;
			th_run_launch(&t, &d, &ref);
			char lane[48];
			snprintf(lane, sizeof lane, "lanes %u PC", (bound - 1u) % 32u);
			CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, lane) && strstr(ref.err, "LDS R9"),
			      "block %u bound %u, bad lane, jit off: %s\n%s", block, bound, we_status_name(ref.st), ref.err);
			we_launch_stats st;
			if (jit_on_same(&t, d, &ref, "bad lane, jit on", &st))
				CHECK(!strcmp(st.jit, "compiled"), "block %u bound %u: jit %s", block, bound, st.jit);
			th_run_free(&ref);
		}
		th_close(&t);
	}
}
END_TEST

/* Loads of 8 and 16 bits (zero- and sign-extended; lanes at
 * consecutive bytes and halves, and lanes out of order: rt->lanes) and
 * the shared ATOMS.ADD (bins that lanes of a warp share, old values in
 * Rd, an RZ destination, a guard; each warp its own bins, as the order
 * of warps after a barrier is the schedule's), global and shared, against the
 * interpreter.  Thread c[0x0][0x10] gets a bad address: c[0x0][0x14]
 * added to its 16-bit load's (misaligned), c[0x0][0x18] to its ATOMS's
 * (outside the window): the side exit, the interpreter's report. */
static const char narrow_text[] =
	".kernel narrow\n"
	".param ptr out\n" /* 0x0: 8 words per thread */
	".param ptr in\n"  /* 0x8: bytes */
	".param u32 bad\n" /* 0x10 */
	".param u32 mis\n" /* 0x14 */
	".param u32 far\n" /* 0x18 */
	".shared 1024\n"
	GTID_R3
	"        ISETP.EQ.U32.AND P2, PT, R3, c[0x0][0x10], PT ;\n"
	"        LOP3.LUT R4, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R4, RZ, PT ;\n"
	"        MOV R10, c[0x0][0x8] ;\n"
	"        MOV R11, c[0x0][0xc] ;\n"
	"        IADD3 R12, P0, R10, R3, RZ ;\n"
	"        IADD3.X R13, R11, RZ, RZ, P0, !PT ;\n"
	"        LDG.U8 R14, [R12.64] ;\n"
	"        LDG.S8 R15, [R12.64+0x1] ;\n"
	"        IMAD.WIDE.U32 R[16:17], R3, 0x2, R[10:11] ;\n"
	"   @P2  IADD3 R16, R16, c[0x0][0x14], RZ ;\n"
	"        LDG.U16 R18, [R16.64] ;\n"
	"   @P1  LDG.S16 R19, [R16.64+0x2] ;\n"
	"        LOP3.LUT R20, R0, 0x1f, RZ, 0x3c, !PT ;\n"
	"        IMAD R20, R20, 0x3, R3 ;\n"
	"        IADD3 R21, P0, R10, R20, RZ ;\n"
	"        IADD3.X R22, R11, RZ, RZ, P0, !PT ;\n"
	"        LDG.S8 R23, [R21.64] ;\n"
	"        SHF.L.U32 R24, R0, 0x2, RZ ;\n"
	"        STS [R24], R3 ;\n"
	"        LDS.U16 R28, [R24+0x2] ;\n"
	"        LDS.S8 R29, [R24+0x1] ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        STS [R24], RZ ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LOP3.LUT R25, R14, 0x7, RZ, 0xc0, !PT ;\n"
	"        SHF.R.U32.HI R31, RZ, 0x5, R0 ;\n"
	"        IMAD R25, R31, 0x18, R25 ;\n"
	"        SHF.L.U32 R25, R25, 0x2, RZ ;\n"
	"   @P2  IADD3 R25, R25, c[0x0][0x18], RZ ;\n"
	"        ATOMS.ADD R26, [R25], R15 ;\n"
	"        ATOMS.ADD RZ, [R25+0x20], R0 ;\n"
	"        MOV R27, 0x77 ;\n"
	"   @P1  ATOMS.ADD R27, [R25+0x40], R23 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R30, [R24] ;\n"
	"        LOP3.LUT R28, R28, R29, RZ, 0x96, !PT ;\n"
	"        IADD3 R30, R30, R28, RZ ;\n"
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[32:33], R3, 0x20, R[10:11] ;\n"
	"        STG [R32.64], R14 ;\n"
	"        STG [R32.64+0x4], R15 ;\n"
	"        STG [R32.64+0x8], R18 ;\n"
	"        STG [R32.64+0xc], R19 ;\n"
	"        STG [R32.64+0x10], R23 ;\n"
	"        STG [R32.64+0x14], R26 ;\n"
	"        STG [R32.64+0x18], R27 ;\n"
	"        STG [R32.64+0x1c], R30 ;\n"
	"        EXIT ;\n"
	".end\n";
/* everything but the three BAR.SYNCs and the EXIT (the STS alone
 * between two of them too: a block of one instruction, XJIT_MIN_LEN) */
#define NARROW_COMPILED 50u
#define NARROW_CTAS 3u
#define NARROW_THREADS (NARROW_CTAS * 128u)

static void narrow_load(th_kernel *t, uint32_t bad, uint32_t mis, uint32_t far)
{
	th_load(t, narrow_text, "narrow", "narrow");
	const size_t bytes = NARROW_THREADS * 3 + 64;
	uint8_t *in = th_xmalloc(bytes);
	th_rng_seed(29);
	for (size_t k = 0; k < bytes; k++)
		in[k] = (uint8_t)th_rng();
	th_buf_new(t, "out", NULL, NARROW_THREADS * 32, 0xa5);
	th_buf_new(t, "in", in, bytes, 0);
	free(in);
	th_u32(t, "bad", bad);
	th_u32(t, "mis", mis);
	th_u32(t, "far", far);
}

START_TEST(narrow)
{
	th_kernel t;
	narrow_load(&t, UINT32_MAX, 0, 0);
	we_launch_config c;
	th_run ref;
	interp_ref(&t, NARROW_CTAS, 128, 1, &ref, &c);
	/* the bytes and halves as loaded */
	const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
	const uint8_t *in = t.b[1].init;
	for (uint32_t g = 0; g < NARROW_THREADS; g++) {
		const uint32_t *o = out + 8 * g;
		/* (R20: the lanes of a warp in reverse order, 3 bytes apart) */
		const uint32_t rev = ((g % 128u) ^ 31u) * 3u + g;
		CHECK(o[0] == in[g] && o[1] == (uint32_t)(int32_t)(int8_t)in[g + 1] &&
			      o[2] == (uint32_t)(in[2 * g] | in[2 * g + 1] << 8) &&
			      o[4] == (uint32_t)(int32_t)(int8_t)in[rev],
		      "jit off: thread %u loaded %#x %#x %#x %#x", g, o[0], o[1], o[2], o[4]);
	}
	expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, NARROW_COMPILED);
	th_run_free(&ref);
	th_close(&t);
	/* the bad addresses: the interpreter's faults */
	for (unsigned kind = 0; kind < 2; kind++) {
		narrow_load(&t, 128 + 37, kind == 0 ? 1 : 0, kind == 1 ? 0x10000 : 0);
		/* (CTA 1 the last: none after it runs on, or is cancelled,
		 * at a point of its own) */
		we_launch_config d = th_cfg1(WE_ENGINE_SCHEDULER, 2, 128);
		d.timeout = WALL_TIMEOUT_S;
		fault_as_interpreted(&t, d, "CTA (1,0,0) warp 1 lanes 5 PC",
				     kind ? "far ATOMS" : "misaligned LDG.U16");
		th_close(&t);
	}
}
END_TEST

/* Global adds whose old values nothing reads (RED.ADD, ATOMG.ADD to
 * RZ: exec/red.h), compiled in one block with loads of the words they
 * add to.  Each warp adds to 16 words of its own region (lanes 5 apart
 * mod 16: two lanes a word), its odd lanes also to the 16 after them
 * (guarded), and every thread to a word of `far` 0x101 words on from the
 * last thread's (lanes 1 KB apart or more: not held); then each thread
 * loads its two words back, which hold its warp's adds whatever the
 * grouping, and stores their sum.  The loads come right after the adds:
 * the next warp's adds come between a warp's check of its loads and the
 * loads, so the turn must apply what it holds at the loads themselves
 * (jit.c emit_settle).  Thread `bad` adds 1 MB past its region: the side
 * exit, the interpreter's fault at the RED (0x0170).
 * Everything before the EXIT is one block of HELD_COMPILED. */
#define HELD_BODY                                                                                    \
	".kernel held\n"                                                                                    \
	".param ptr out\n"    /* 0x0: a word per thread   */                                                \
	".param ptr region\n" /* 0x8: 32 words per warp   */                                                \
	".param ptr far\n"    /* 0x10: 1024 words         */                                                \
	".param u32 bad\n"    /* 0x18                     */                                                \
	GTID_R3                                                                                             \
	"        SHF.R.U32.HI R4, RZ, 0x5, R3 ;\n"                                                          \
	"        LOP3.LUT R5, R3, 0x1f, RZ, 0xc0, !PT ;\n"                                                  \
	"        MOV R10, c[0x0][0x8] ;\n"                                                                  \
	"        MOV R11, c[0x0][0xc] ;\n"                                                                  \
	"        IMAD.WIDE.U32 R[10:11], R4, 0x80, R[10:11] ;\n"                                            \
	"        IMAD R6, R5, 0x5, RZ ;\n"                                                                  \
	"        LOP3.LUT R6, R6, 0xf, RZ, 0xc0, !PT ;\n"                                                   \
	"        IMAD.WIDE.U32 R[12:13], R6, 0x4, R[10:11] ;\n"                                             \
	"        ISETP.EQ.U32.AND P1, PT, R3, c[0x0][0x18], PT ;\n"                                         \
	"   @P1  IADD3 R12, R12, 0x100000, RZ ;\n"                                                          \
	"        IADD3 R7, R3, 0x1, RZ ;\n"                                                                 \
	"        IMAD R9, R3, 0x101, RZ ;\n"                                                                \
	"        LOP3.LUT R9, R9, 0x3ff, RZ, 0xc0, !PT ;\n"                                                 \
	"        MOV R14, c[0x0][0x10] ;\n"                                                                 \
	"        MOV R15, c[0x0][0x14] ;\n"                                                                 \
	"        IMAD.WIDE.U32 R[14:15], R9, 0x4, R[14:15] ;\n"                                             \
	"        RED.ADD [R14.64], R7 ;\n"                                                                  \
	"        LOP3.LUT R8, R5, 0x1, RZ, 0xc0, !PT ;\n"                                                   \
	"        ISETP.NE.U32.AND P0, PT, R8, RZ, PT ;\n"                                                   \
	"        RED.ADD [R12.64], R7 ;\n"                                                                  \
	"   @P0  ATOMG.ADD RZ, [R12.64+0x40], R7 ;\n"                                                       \
	"        LDG R16, [R12.64] ;\n"                                                                     \
	"        LDG R17, [R12.64+0x40] ;\n"                                                                \
	"        IADD3 R16, R16, R17, RZ ;\n"                                                               \
	"        MOV R18, c[0x0][0x0] ;\n"                                                                  \
	"        MOV R19, c[0x0][0x4] ;\n"                                                                  \
	"        IMAD.WIDE.U32 R[18:19], R3, 0x4, R[18:19] ;\n"                                             \
	"        STG [R18.64], R16 ;\n"
static const char held_text[] = HELD_BODY "        EXIT ;\n.end\n";
/* (a barrier at the end: no straight kernel, exec/straight.c, and a
 * turn's release, exec/red.h) */
static const char held_bar_text[] = HELD_BODY "        BAR.SYNC 0x0 ;\n        EXIT ;\n.end\n";
#define HELD_COMPILED 32u
#define HELD_THREADS 256u

static void held_load(th_kernel *t, const char *text, uint32_t bad)
{
	th_load(t, text, "held", "held");
	th_buf_new(t, "out", NULL, HELD_THREADS * 4, 0);
	th_buf_new(t, "region", NULL, HELD_THREADS * 4, 0);
	th_buf_new(t, "far", NULL, 1024 * 4, 0);
	th_u32(t, "bad", bad);
}

START_TEST(held)
{
	/* CTAs of 2 and 4 warps, and of one (the warp function), each a
	 * straight kernel and not */
	static const uint32_t blocks[] = { 64, 128, 32 };
	for (size_t k = 0; k < 2 * sizeof blocks / sizeof blocks[0]; k++) {
		const uint32_t block = blocks[k / 2];
		th_kernel t;
		held_load(&t, k % 2 ? held_bar_text : held_text, UINT32_MAX);
		we_launch_config c;
		th_run ref;
		interp_ref(&t, HELD_THREADS / block, block, 1, &ref, &c);
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		const uint32_t *far = (const uint32_t *)(const void *)th_view(&t, ref.mem, "far");
		uint32_t want_far[1024] = { 0 };
		for (uint32_t g = 0; g < HELD_THREADS; g++) {
			uint32_t want = 0;
			for (uint32_t m = g & ~31u; m < (g & ~31u) + 32u; m++)
				if (((5u * (m & 31u)) & 15u) == ((5u * (g & 31u)) & 15u))
					want += (m + 1u) * (1u + (m & 1u));
			CHECK(out[g] == want, "block %u, jit off: thread %u read %u, want %u", block, g, out[g], want);
			want_far[(g * 0x101u) & 0x3ffu] += g + 1u;
		}
		CHECK(!memcmp(far, want_far, sizeof want_far), "block %u, jit off: far", block);
		expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, HELD_COMPILED);
		th_run_free(&ref);
		th_close(&t);
	}
	/* thread 101 (CTA 1, warp 1, lane 5) adds outside its region */
	for (unsigned k = 0; k < 2; k++) {
		th_kernel t;
		held_load(&t, k ? held_bar_text : held_text, 64 + 37);
		we_launch_config d = th_cfg1(WE_ENGINE_SCHEDULER, 2, 64);
		d.timeout = WALL_TIMEOUT_S;
		d.threads = 1;
		fault_as_interpreted(&t, d, "CTA (1,0,0) warp 1 lanes 5 PC 0x0170: RED.ADD",
				     k ? "RED outside, a barrier" : "RED outside");
		th_close(&t);
	}
}
END_TEST

/* Compiled code keeps the allocation each global instruction last
 * reached from call to call (we_warp.jwin), for the whole launch only:
 * a copy out[i] = in[i] from one buffer, then from a second, then from
 * the second after it is freed, which must fault at its LDG (0x0070)
 * as interpreted, not read freed memory through the last launch's
 * window.  In blocks over CTAs of two warps, and in the warp function
 * (CTAs of one warp, one at a time). */
static const char copy_text[] =
	".kernel copy\n"
	".param ptr out\n"
	".param ptr in\n"
	GTID_R3
	IN_R4_OUT_R12("0x4")
	"        STG [R12.64], R4 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(windows_per_launch)
{
	const uint32_t n = 4096;
	th_kernel t;
	th_load(&t, copy_text, "copy", "copy");
	we_devptr out = th_buf_new(&t, "out", NULL, n * 4, 0);
	const size_t at = th_param(&t, "in")->offset;
	uint32_t *host = malloc(n * 4), *got = malloc(n * 4);
	we_devptr in[2];
	for (unsigned k = 0; k < 6; k++) {
		const bool wfn = k >= 3;
		const unsigned m = k % 3;
		if (m < 2) {
			for (uint32_t i = 0; i < n; i++)
				host[i] = i * 2654435761u + k;
			ck_assert_int_eq(we_malloc(t.dev, n * 4, &in[m]), WE_OK);
			ck_assert_int_eq(we_memcpy_htod(t.dev, in[m], host, n * 4), WE_OK);
		} else {
			ck_assert_int_eq(we_free(t.dev, in[1]), WE_OK);
		}
		memcpy(t.params + at, &in[m < 2 ? m : 1], 8);
		we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, n / (wfn ? 32 : 64), wfn ? 32 : 64);
		c.timeout = WALL_TIMEOUT_S;
		c.threads = 1;
		c.batch = wfn ? 1 : 0;
		c.jit = we_jit_available() ? WE_JIT_ON : WE_JIT_OFF;
		th_run r;
		th_run_launch(&t, &c, &r);
		if (m < 2) {
			th_expect_ok(&r, "jit on");
			ck_assert_int_eq(we_memcpy_dtoh(t.dev, got, out, n * 4), WE_OK);
			CHECK(!memcmp(got, host, n * 4), "launch %u: out differs from in", k);
		} else {
			CHECK(r.st == WE_ERR_EXCEPTION && strstr(r.err, "CTA (0,0,0) warp 0 lanes 0-31 PC 0x0070"),
			      "a freed buffer%s: %s\n%s", wfn ? ", the warp function" : "", we_status_name(r.st), r.err);
			ck_assert_int_eq(we_free(t.dev, in[0]), WE_OK);
		}
		th_run_free(&r);
	}
	free(host);
	free(got);
	th_close(&t);
}
END_TEST

/* Stores that stream past the host's caches (we_launch_config.stream_min,
 * jit.c emit_stream): out[i + shift] = in[i] and wide[i] = in[i] | (i +
 * shift) << 32, every lane of every warp storing (with shift 0 whole
 * 64-byte lines: a buffer's host memory starts a line, as its device
 * address does; with shift 3 no line is whole), in[i] read back from
 * out (a load of a streaming store's address checks it again: jit.c
 * check_twins), and
 * part[i] = i for i < n only (guarded: never streams).  Streaming every
 * store it can (stream_min 1), or none, compiled code stores what the
 * interpreter does, whatever the grouping. */
#define STREAMS_N (1u << 16) /* threads */
static const char streams_text[] =
	".kernel streams\n"
	".param ptr out\n"   /* 0x0: STREAMS_N + 16 words */
	".param ptr in\n"    /* 0x8 */
	".param ptr wide\n"  /* 0x10: STREAMS_N 8-byte words */
	".param ptr part\n"  /* 0x18 */
	".param u32 shift\n" /* 0x20 */
	".param u32 n\n"     /* 0x24 */
	GTID_R3
	"        MOV R10, c[0x0][0x8] ;\n"
	"        MOV R11, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R3, 0x4, R[10:11] ;\n"
	"        LDG R4, [R10.64] ;\n"
	"        IADD3 R5, R3, c[0x0][0x20], RZ ;\n"
	"        MOV R12, c[0x0][0x0] ;\n"
	"        MOV R13, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R5, 0x4, R[12:13] ;\n"
	"        STG [R12.64], R4 ;\n"
	"        LDG R4, [R12.64] ;\n"
	"        MOV R14, c[0x0][0x10] ;\n"
	"        MOV R15, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[14:15], R3, 0x8, R[14:15] ;\n"
	"        STG.64 [R14.64], R[4:5] ;\n"
	"        ISETP.LT.U32.AND P0, PT, R3, c[0x0][0x24], PT ;\n"
	"        MOV R16, c[0x0][0x18] ;\n"
	"        MOV R17, c[0x0][0x1c] ;\n"
	"        IMAD.WIDE.U32 R[16:17], R3, 0x4, R[16:17] ;\n"
	"   @P0  STG [R16.64], R3 ;\n"
	"        EXIT ;\n"
	".end\n";
#define STREAMS_COMPILED 23u /* S2R .. STG: all of it but the EXIT */

START_TEST(streams)
{
	const uint32_t n = STREAMS_N - 1000;
	uint32_t *in = th_xmalloc(STREAMS_N * 4);
	th_rng_seed(41);
	for (uint32_t i = 0; i < STREAMS_N; i++)
		in[i] = (uint32_t)th_rng();
	for (uint32_t shift = 0; shift <= 3; shift += 3) {
		th_kernel t;
		th_load(&t, streams_text, "streams", "streams");
		th_buf_new(&t, "out", NULL, (STREAMS_N + 16) * 4, 0xa5);
		th_buf_new(&t, "in", in, STREAMS_N * 4, 0);
		th_buf_new(&t, "wide", NULL, STREAMS_N * 8, 0xa5);
		th_buf_new(&t, "part", NULL, STREAMS_N * 4, 0xa5);
		th_u32(&t, "shift", shift);
		th_u32(&t, "n", n);
		we_launch_config c;
		th_run ref;
		interp_ref(&t, STREAMS_N / 128, 128, 1, &ref, &c);
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		const uint32_t *wide = (const uint32_t *)(const void *)th_view(&t, ref.mem, "wide");
		const uint32_t *part = (const uint32_t *)(const void *)th_view(&t, ref.mem, "part");
		for (uint32_t i = 0; i < STREAMS_N; i++)
			CHECK(out[i + shift] == in[i] && wide[2 * i] == in[i] && wide[2 * i + 1] == i + shift &&
				      part[i] == (i < n ? i : 0xa5a5a5a5u),
			      "shift %u, jit off: thread %u stored %#x, %#x:%#x, %#x", shift, i, out[i + shift],
			      wide[2 * i + 1], wide[2 * i], part[i]);
		expect_as_interpreted(&t, &c, &ref, TH_COMPILED, STREAMS_COMPILED);
		th_run_free(&ref);
		th_close(&t);
	}
	free(in);
}
END_TEST

/* A strong store (another thread's flag) is not compiled: it splits
 * the run around it into two blocks, S2R .. STG and IADD3 .. STG. */
static const char strong_text[] =
	".kernel strong\n"
	".param ptr out\n"
	GTID_R3
	"        MOV R10, c[0x0][0x0] ;\n"
	"        MOV R11, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R3, 0x8, R[10:11] ;\n"
	"        STG [R12.64], R3 ;\n"
	"        STG.E.STRONG.GPU [R12.64+0x4], R3 ;\n"
	"        IADD3 R4, R3, 0x7, RZ ;\n"
	"        STG [R12.64+0x4], R4 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(strong)
{
	th_kernel t;
	th_load(&t, strong_text, "strong", "strong");
	th_buf_new(&t, "out", NULL, 3 * 128 * 8, 0);
	we_launch_config c;
	th_run ref;
	interp_ref(&t, 3, 128, 1, &ref, &c);
	const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
	for (uint32_t g = 0; g < 3 * 128; g++)
		CHECK(out[2 * g] == g && out[2 * g + 1] == g + 7, "jit off: thread %u wrote %u, %u", g, out[2 * g],
		      out[2 * g + 1]);
	expect_as_interpreted(&t, &c, &ref, TH_COMPILED, 8u + 2u);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* Every special register S2R reads in compiled code, and two S2Rs
 * under guards; each thread stores them at its index in the grid. */
static const char s2r_text[] =
	".kernel s2r\n"
	".param ptr out\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_TID.Y ;\n"
	"        S2R R2, SR_TID.Z ;\n"
	"        S2R R3, SR_NTID.X ;\n"
	"        S2R R4, SR_NTID.Y ;\n"
	"        S2R R5, SR_NTID.Z ;\n"
	"        S2R R6, SR_CTAID.X ;\n"
	"        S2R R7, SR_CTAID.Y ;\n"
	"        S2R R8, SR_CTAID.Z ;\n"
	"        S2R R9, SR_NCTAID.X ;\n"
	"        S2R R10, SR_NCTAID.Y ;\n"
	"        S2R R11, SR_NCTAID.Z ;\n"
	"        S2R R12, SR_LANEID ;\n"
	"        S2R R13, SR_WARPID ;\n"
	"        S2R R14, SR_NWARPS ;\n"
	"        S2R R15, SR_EQMASK ;\n"
	"        S2R R16, SR_LTMASK ;\n"
	"        S2R R17, SR_LEMASK ;\n"
	"        S2R R18, SR_GTMASK ;\n"
	"        S2R R19, SR_GEMASK ;\n"
	"        S2R R20, SRZ ;\n"
	"        LOP3.LUT R21, R12, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.AND P0, PT, R21, RZ, PT ;\n"
	"   @P0  S2R R20, SR_LANEID ;\n"
	"   @!P0 S2R R21, SR_TID.Y ;\n"
	"        IMAD R22, R2, R4, R1 ;\n"
	"        IMAD R22, R22, R3, R0 ;\n"
	"        IMAD R23, R8, R10, R7 ;\n"
	"        IMAD R23, R23, R9, R6 ;\n"
	"        IMAD R24, R3, R4, RZ ;\n"
	"        IMAD R24, R24, R5, RZ ;\n"
	"        IMAD R22, R23, R24, R22 ;\n"
	"        MOV R26, c[0x0][0x0] ;\n"
	"        MOV R27, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[26:27], R22, 0x58, R[26:27] ;\n"
	"        STG [R26.64], R0 ;\n"
	"        STG [R26.64+0x4], R1 ;\n"
	"        STG [R26.64+0x8], R2 ;\n"
	"        STG [R26.64+0xc], R3 ;\n"
	"        STG [R26.64+0x10], R4 ;\n"
	"        STG [R26.64+0x14], R5 ;\n"
	"        STG [R26.64+0x18], R6 ;\n"
	"        STG [R26.64+0x1c], R7 ;\n"
	"        STG [R26.64+0x20], R8 ;\n"
	"        STG [R26.64+0x24], R9 ;\n"
	"        STG [R26.64+0x28], R10 ;\n"
	"        STG [R26.64+0x2c], R11 ;\n"
	"        STG [R26.64+0x30], R12 ;\n"
	"        STG [R26.64+0x34], R13 ;\n"
	"        STG [R26.64+0x38], R14 ;\n"
	"        STG [R26.64+0x3c], R15 ;\n"
	"        STG [R26.64+0x40], R16 ;\n"
	"        STG [R26.64+0x44], R17 ;\n"
	"        STG [R26.64+0x48], R18 ;\n"
	"        STG [R26.64+0x4c], R19 ;\n"
	"        STG [R26.64+0x50], R20 ;\n"
	"        STG [R26.64+0x54], R21 ;\n"
	"        EXIT ;\n"
	".end\n";
/* everything before the EXIT: 21 S2Rs, LOP3, ISETP, 2 S2Rs, 7 IMADs, 2
 * MOVs, IMAD.WIDE, 22 stores */
#define S2R_COMPILED (21u + 2u + 2u + 7u + 3u + 22u)

START_TEST(s2r)
{
	/* x a multiple of 32 (a warp in one row: the per-warp path) or not
	 * (lane by lane; 20 x 3 x 2 also leaves a partial warp, which runs
	 * alone, interpreted) */
	static const we_dim3 shapes[] = { { 64, 2, 2 }, { 32, 2, 1 }, { 96, 1, 3 }, { 24, 4, 1 }, { 20, 3, 2 } };
	const we_dim3 grid = { 3, 2, 2 };
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		const we_dim3 blk = shapes[k];
		const uint32_t threads = blk.x * blk.y * blk.z * grid.x * grid.y * grid.z;
		th_kernel t;
		th_load(&t, s2r_text, "s2r", "s2r");
		th_buf_new(&t, "out", NULL, (size_t)threads * 0x58, 0xa5);
		we_launch_config c = th_cfg1(WE_ENGINE_SCHEDULER, 1, 32);
		c.timeout = WALL_TIMEOUT_S;
		c.jit = WE_JIT_OFF;
		c.lockstep = 1;
		c.grid = grid;
		c.block = blk;
		th_run ref;
		th_run_launch(&t, &c, &ref);
		th_expect_ok(&ref, "jit off, lockstep 1");
		/* (the interpreter's ids: thread (x, y, z) of the first CTA) */
		const uint32_t *out = (const uint32_t *)(const void *)th_view(&t, ref.mem, "out");
		for (uint32_t i = 0; i < blk.x * blk.y * blk.z; i++)
			CHECK(out[i * 22] == i % blk.x && out[i * 22 + 1] == i / blk.x % blk.y &&
				      out[i * 22 + 2] == i / (blk.x * blk.y) && out[i * 22 + 12] == i % 32,
			      "%ux%ux%u, thread %u: tid %u,%u,%u lane %u", blk.x, blk.y, blk.z, i, out[i * 22],
			      out[i * 22 + 1], out[i * 22 + 2], out[i * 22 + 12]);
		expect_as_interpreted(&t, &c, &ref, TH_GROUPED | TH_COMPILED, S2R_COMPILED);
		th_run_free(&ref);
		th_close(&t);
	}
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

	/* nothing to compile (the dynamic shared size and the clock stay
	 * interpreted) */
	static const char none_text[] = ".kernel none\n.param ptr out\n"
					"        S2R R0, SR_DYNSMEM ;\n"
					"        S2R R4, SR_CLOCKLO ;\n"
					"        S2R R1, SR_DYNSMEM ;\n"
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
 * time against 16 compile times */
START_TEST(auto_rule)
{
	/* 10 ms per batch of 4 CTAs, 320 CTAs left, 1 worker: 0.8 s */
	CHECK(xjit_auto_pays(0.01, 4, 320, 1, 0.05), "0.8 s against 16 x 0.05 s");
	CHECK(!xjit_auto_pays(0.01, 4, 319, 1, 0.05), "0.7975 s against 16 x 0.05 s");
	CHECK(!xjit_auto_pays(0.01, 4, 320, 2, 0.05), "two workers: 0.4 s");
	CHECK(xjit_auto_pays(0.01, 4, 320, 2, 0.025), "two workers, 0.025 s compiles");
	CHECK(!xjit_auto_pays(0.01, 4, 0, 1, 0.001), "nothing left");
	CHECK(!xjit_auto_pays(0.01, 0, 320, 1, 0.1) && !xjit_auto_pays(0.01, 4, 320, 0, 0.1), "no batch, no worker");
	/* the predicted time; with a writable disk cache, once the compile
	 * time (XJIT_STORE_FACTOR), else 16 times; a load, once its time */
	CHECK(xjit_auto_predict(0.01, 4, 320, 2) == 0.01 / 4 * 320 / 2 && xjit_auto_predict(0.01, 0, 320, 2) == 0 &&
		      xjit_auto_predict(0.01, 4, 320, 0) == 0,
	      "xjit_auto_predict");
	CHECK(XJIT_STORE_FACTOR == 1.0 && XJIT_LOAD_FACTOR == 1.0, "the factors the rules below assume");
	CHECK(xjit_auto_compiles(0.05, 0.05, true) && !xjit_auto_compiles(0.0499, 0.05, true), "stored: 1 x 0.05 s");
	CHECK(!xjit_auto_compiles(0.79, 0.05, false) && xjit_auto_compiles(0.8, 0.05, false), "not stored: 16 x 0.05 s");
	CHECK(!xjit_auto_compiles(0, 0.0, true), "nothing left");
	CHECK(xjit_auto_loads(0.02, 0.02) && !xjit_auto_loads(0.0199, 0.02) && !xjit_auto_loads(0, 0),
	      "a load: 1 x 0.02 s");
}
END_TEST

/* t under c (two workers) with jit off, then auto: the interpreter's
 * buffers and counters in both.  Whether auto compiles depends on this
 * host's speed: the rule predicts the launch's time from worker 0's
 * sample of batches.  true where the interpreted run took 4 times the
 * rule's threshold (auto must have compiled: a faster host may rightly
 * not). */
static bool off_then_auto(th_kernel *t, we_launch_config *c, const char *what, th_run *r)
{
	th_run ref;
	c->jit = WE_JIT_OFF;
	th_run_launch(t, c, &ref);
	th_expect_ok(&ref, what);
	c->jit = WE_JIT_AUTO;
	th_run_launch(t, c, r);
	th_expect_same(t, &ref, r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off", what);
	const bool slow = ref.s.seconds >= 4.0 * XJIT_AUTO_FACTOR * XJIT_COMPILE_GUESS;
	th_run_free(&ref);
	return slow;
}

/* auto on a long launch of a kernel not compiled yet: worker 0's first
 * batch predicts about 1 s of interpretation on the project's machine
 * (1.25 times the rule's 16 x 50 ms; more under ASan), so it
 * compiles while the launch runs; the results are the interpreter's.
 * Then alu's loop with a BAR.SYNC in it: once the blocks are compiled,
 * each worker lays its batch out again for the straight batches' fewer
 * CTAs (sched.c batch_fit), keeping the counts of the CTAs it ran
 * interpreted (slot.c batch_narrow). */
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
	th_run r;
	if (off_then_auto(&t, &c, "jit auto", &r))
		CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks > 0 && r.s.jit_seconds > 0,
		      "auto, a long launch: jit %s, %u blocks, %g s compiling, %g s, %llu warp-instructions", r.s.jit,
		      r.s.jit_blocks, r.s.jit_seconds, r.s.seconds, (unsigned long long)r.s.warp_insns);
	th_run_free(&r);
	th_close(&t);

	th_load(&t,
		".kernel autobar\n"
		".param u32 iters\n"
		".param ptr out\n"
		GTID_R3
		"        MOV R4, R3 ;\n"
		"        LOP3.LUT R5, R3, 0x1234567, RZ, 0x3c, !PT ;\n"
		"        MOV R8, RZ ;\n"
		"        MOV R9, RZ ;\n"
		".loop:\n"
		"        IMAD R4, R4, 0x19660d, R3 ;\n"
		"        SHF.R.U32.HI R7, RZ, 0xd, R4 ;\n"
		"        LOP3.LUT R5, R5, R7, RZ, 0x3c, !PT ;\n"
		"        SHF.L.U32 R7, R5, 0x5, RZ ;\n"
		"        IADD3 R5, R5, R7, R4 ;\n"
		"        LOP3.LUT R8, R8, R5, RZ, 0x3c, !PT ;\n"
		"        IMAD R8, R8, 0x5, R4 ;\n"
		"        BAR.SYNC 0x0 ;\n"
		"        IADD3 R9, R9, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P0, PT, R9, c[0x0][0x0], PT ;\n"
		"   @P0  BRA `(.loop) ;\n"
		"        LOP3.LUT R5, R5, R8, RZ, 0x3c, !PT ;\n"
		"        MOV R10, c[0x0][0x8] ;\n"
		"        MOV R11, c[0x0][0xc] ;\n"
		"        IMAD.WIDE.U32 R[10:11], R3, 0x4, R[10:11] ;\n"
		"        STG [R10.64], R5 ;\n"
		"        EXIT ;\n"
		".end\n",
		"autobar", "autobar");
	/* (some 1.9 s interpreted on the project's machine; the loops pass
	 * XSTRAIGHT_BUDGET: no CTA runs straight to its end) */
#ifdef __SANITIZE_THREAD__
	th_u32(&t, "iters", 10000);
#else
	th_u32(&t, "iters", 100000);
#endif
	th_buf_new(&t, "out", NULL, 256 * 256 * 4, 0);
	if (off_then_auto(&t, &c, "a barrier, jit auto", &r))
		CHECK(!strcmp(r.s.jit, "compiled"), "auto, a long launch with a barrier: jit %s, %g s", r.s.jit,
		      r.s.seconds);
	th_run_free(&r);
	th_close(&t);
}
END_TEST

/* rm -r of a directory of files and directories (the test's own) */
static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		(void)unlink(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		rm_tree(p);
	}
	closedir(d);
	(void)rmdir(dir);
}

/* A run of the ops kernel under c, the interpreter's buffers and
 * counters (ref), the disk cache in state want. */
static void expect_disk(th_kernel *t, const we_launch_config *c, const th_run *ref, const char *want, const char *what,
			th_run *r)
{
	th_run_launch(t, c, r);
	th_expect_same(t, ref, r, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, "jit off", what);
	CHECK(r->s.jit_cache && !strcmp(r->s.jit_cache, want), "%s: jit_cache %s, expected %s (note: %s)", what,
	      r->s.jit_cache ? r->s.jit_cache : "(null)", want, r->s.jit_cache_note);
}

START_TEST(disk)
{
	if (!we_jit_available())
		return;
	char tmp[] = "/tmp/test_jit.XXXXXX", cache[64], path[4200], dir[4096];
	CHECK(mkdtemp(tmp) != NULL, "mkdtemp");
	snprintf(cache, sizeof cache, "%s/cache", tmp);
	th_kernel t;
	ops_load(&t);
	we_launch_config c = ops_cfg();
	c.jit = WE_JIT_OFF;
	c.jit_cache = cache;
	th_run ref, r;
	th_run_launch(&t, &c, &ref);
	th_expect_ok(&ref, "jit off");
	CHECK(!strcmp(ref.s.jit_cache, "unused") && !ref.s.jit_cache_key[0], "jit off: jit_cache %s", ref.s.jit_cache);

	/* on: compiled, stored as CACHE/KEY.wjit, private */
	c.jit = WE_JIT_ON;
	expect_disk(&t, &c, &ref, "stored", "on, stored", &r);
	CHECK(r.s.jit_seconds > 0 && r.s.jit_load_seconds == 0 && strlen(r.s.jit_cache_key) == 32 &&
		      strspn(r.s.jit_cache_key, "0123456789abcdef") == 32 && !r.s.jit_cache_note[0],
	      "on, stored: %g s compiling, %g s loading, key %s, note %s", r.s.jit_seconds, r.s.jit_load_seconds,
	      r.s.jit_cache_key, r.s.jit_cache_note);
	CHECK(we_jit_cache_dir(cache, dir, sizeof dir) == WE_OK && !strcmp(dir, cache), "we_jit_cache_dir: %s", dir);
	snprintf(path, sizeof path, "%s/%s.wjit", dir, r.s.jit_cache_key);
	struct stat st;
	CHECK(!stat(path, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600, "no entry %s", path);
	char key[40];
	snprintf(key, sizeof key, "%s", r.s.jit_cache_key);
	th_run_free(&r);
	/* a later launch of the module: its code, and where it came from */
	c.jit = WE_JIT_AUTO;
	expect_disk(&t, &c, &ref, "stored", "auto, the module's code", &r);
	CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_seconds == 0 && r.s.jit_load_seconds == 0,
	      "auto, the module's code: jit %s, %g s, %g s", r.s.jit, r.s.jit_seconds, r.s.jit_load_seconds);
	th_run_free(&r);
	th_close(&t);

	/* another module of the kernel: the entry loaded, nothing compiled */
	ops_load(&t);
	c.jit = WE_JIT_ON;
	expect_disk(&t, &c, &ref, "loaded", "on, loaded", &r);
	CHECK(!strcmp(r.s.jit, "compiled") && r.s.jit_blocks == 1 && r.s.jit_insns == OPS_COMPILED &&
		      r.s.jit_seconds == 0 && r.s.jit_load_seconds > 0 && !strcmp(r.s.jit_cache_key, key),
	      "on, loaded: jit %s, %u blocks of %u instructions, %g s compiling, %g s loading, key %s", r.s.jit,
	      r.s.jit_blocks, r.s.jit_insns, r.s.jit_seconds, r.s.jit_load_seconds, r.s.jit_cache_key);
	th_run_free(&r);
	th_close(&t);

	/* auto on a launch of one batch (no time left to predict): found,
	 * not loaded; off: nothing */
	ops_load(&t);
	c.jit = WE_JIT_AUTO;
	expect_disk(&t, &c, &ref, "found", "auto, one batch", &r);
	CHECK(!strcmp(r.s.jit, "below the auto threshold") && !strcmp(r.s.jit_cache_key, key), "auto, one batch: %s",
	      r.s.jit);
	th_run_free(&r);
	c.jit = WE_JIT_ON;
	c.jit_cache = "off";
	expect_disk(&t, &c, &ref, "off", "on, cache off", &r);
	CHECK(!r.s.jit_cache_key[0] && r.s.jit_seconds > 0, "on, cache off: key %s", r.s.jit_cache_key);
	th_run_free(&r);
	th_close(&t);

	/* a directory that cannot be made: compiled, a note */
	ops_load(&t);
	char file[64], sub[80];
	snprintf(file, sizeof file, "%s/file", tmp);
	snprintf(sub, sizeof sub, "%s/sub", file);
	FILE *f = fopen(file, "w");
	CHECK(f && !fclose(f), "cannot make %s", file);
	c.jit_cache = sub;
	expect_disk(&t, &c, &ref, "not stored", "on, a directory under a file", &r);
	CHECK(strstr(r.s.jit_cache_note, "cannot create the directory") && !strcmp(r.s.jit, "compiled"),
	      "on, a directory under a file: note %s", r.s.jit_cache_note);
	th_run_free(&r);
	th_close(&t);
	th_run_free(&ref);
	rm_tree(tmp);
}
END_TEST

/* we_jit_cache_dir: the setting, else WARPEMU_JIT_CACHE, else
 * $XDG_CACHE_HOME/warpemu (absolute only), else $HOME/.cache/warpemu,
 * else none (the environment put back after) */
START_TEST(cache_dir)
{
	char *env = getenv("WARPEMU_JIT_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *saved[3] = { env ? th_xstrdup(env) : NULL, xdg ? th_xstrdup(xdg) : NULL, home ? th_xstrdup(home) : NULL };
	char d[256];
	CHECK(we_jit_cache_dir("/a/b", d, sizeof d) == WE_OK && !strcmp(d, "/a/b"), "setting: %s", d);
	CHECK(we_jit_cache_dir("off", d, sizeof d) == WE_OK && !d[0], "off: %s", d);
	CHECK(we_jit_cache_dir("/a", NULL, 0) == WE_ERR_INVALID, "no buffer");
	CHECK(!setenv("WARPEMU_JIT_CACHE", "/e", 1) && !setenv("XDG_CACHE_HOME", "/x", 1) && !setenv("HOME", "/h", 1),
	      "setenv");
	CHECK(we_jit_cache_dir(NULL, d, sizeof d) == WE_OK && !strcmp(d, "/e"), "WARPEMU_JIT_CACHE: %s", d);
	CHECK(we_jit_cache_dir("", d, sizeof d) == WE_OK && !strcmp(d, "/e"), "\"\": %s", d);
	CHECK(we_jit_cache_dir("/s", d, sizeof d) == WE_OK && !strcmp(d, "/s"), "the setting over the environment: %s",
	      d);
	CHECK(!setenv("WARPEMU_JIT_CACHE", "off", 1) && we_jit_cache_dir(NULL, d, sizeof d) == WE_OK && !d[0],
	      "WARPEMU_JIT_CACHE=off: %s", d);
	CHECK(!unsetenv("WARPEMU_JIT_CACHE") && we_jit_cache_dir(NULL, d, sizeof d) == WE_OK && !strcmp(d, "/x/warpemu"),
	      "XDG_CACHE_HOME: %s", d);
	CHECK(!setenv("XDG_CACHE_HOME", "rel", 1) && we_jit_cache_dir(NULL, d, sizeof d) == WE_OK &&
		      !strcmp(d, "/h/.cache/warpemu"),
	      "a relative XDG_CACHE_HOME, HOME: %s", d);
	CHECK(!unsetenv("XDG_CACHE_HOME") && !unsetenv("HOME") && we_jit_cache_dir(NULL, d, sizeof d) == WE_OK && !d[0],
	      "nothing: %s", d);
	CHECK(we_jit_cache_dir("/a/very/long/directory", d, 8) == WE_OK && !d[0], "too long: %s", d);
	const char *names[3] = { "WARPEMU_JIT_CACHE", "XDG_CACHE_HOME", "HOME" };
	for (unsigned i = 0; i < 3; i++) {
		if (saved[i])
			CHECK(!setenv(names[i], saved[i], 1), "setenv %s", names[i]);
		free(saved[i]);
	}
}
END_TEST

static Suite *jit_suite(void)
{
	Suite *s = suite_create("jit");
	TCase *tc = tcase_create("jit");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, ops);
	tcase_add_test(tc, fault);
	tcase_add_test(tc, order);
	tcase_add_test(tc, memfault);
	tcase_add_test(tc, guards);
	tcase_add_test(tc, idle_warps);
	tcase_add_test(tc, edge);
	tcase_add_test(tc, linear);
	tcase_add_test(tc, uniform_rows);
	tcase_add_test(tc, twins);
	tcase_add_test(tc, warpsync);
	tcase_add_test(tc, straight);
	tcase_add_test(tc, straight_timeout);
	tcase_add_test(tc, straight_flow);
	tcase_add_test(tc, straight_tail);
	tcase_add_test(tc, restart);
	tcase_add_test(tc, restart_guarded);
	tcase_add_test(tc, restart_scattered);
	tcase_add_test(tc, strong);
	tcase_add_test(tc, narrow);
	tcase_add_test(tc, held);
	tcase_add_test(tc, windows_per_launch);
	tcase_add_test(tc, streams);
	tcase_add_test(tc, warpfn);
	tcase_add_test(tc, warpfn_stops);
	tcase_add_test(tc, ifelse);
	tcase_add_test(tc, s2r);
	tcase_add_test(tc, states);
	tcase_add_test(tc, auto_rule);
	tcase_add_test(tc, auto_compiles);
	tcase_add_test(tc, disk);
	tcase_add_test(tc, cache_dir);
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
