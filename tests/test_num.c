/* test_num.c — libcheck suite "num": the instructions of num.isa and the
 * rounding-mode, .FTZ and .SAT forms of fpu.isa's instructions, assembled
 * into a kernel and run on every engine of engines.h.
 *
 * Each case runs one instruction over 256 threads: thread i reads three
 * 64-bit operands (A, B, C) from `in`, the instruction writes D, and D
 * goes to `out`.  Results are compared with a reference computed here:
 * the host's IEEE-754 arithmetic under fesetround for the floating-point
 * operations (operands through volatile objects, as the host cannot be
 * told about FENV_ACCESS), plain C for the integer ones, and hand-made
 * values where the result is known (directed roundings of 1 + 2^-30,
 * CUDA's division by zero, flushed subnormals, saturation, NaN).
 */
#include <check.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define N 256u            /* threads: 2 CTAs of 128 */
#define CANON32 0x7fffffffu
#define CANON64 UINT64_C(0x7fffffffffffffff)

typedef struct trip {
	uint64_t a, b, c;
} trip;

static const char *const mode_sfx[4] = { "", ".RZ", ".RM", ".RP" };
static const int host_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

/* ---- bits --------------------------------------------------------------- */

/* ---- one instruction over N threads ------------------------------------ */

/* Run `insn` (with R10/R[10:11] = A, R12 = B, R14 = C, writing R16 or
 * R[16:17]) on every engine; out[i] = R[16:17] of thread i, R17 zero
 * unless written.  Every engine must give the same words. */
static void run_insn(const char *insn, const trip *in, uint64_t *out)
{
	th_sbuf src = { 0 };
	th_sb_add(&src, ".kernel k\n.param ptr in\n.param ptr out\n"
			"        S2R R0, SR_TID.X ;\n"
			"        S2R R1, SR_CTAID.X ;\n"
			"        S2R R2, SR_NTID.X ;\n"
			"        IMAD R0, R1, R2, R0 ;\n"
			"        MOV R3, 0x18 ;\n"
			"        IMAD.WIDE.U32 R[4:5], R0, R3, c[0x0][0x0] ;\n"
			"        MOV R3, 0x8 ;\n"
			"        IMAD.WIDE.U32 R[6:7], R0, R3, c[0x0][0x8] ;\n"
			"        LDG.E.64 R[10:11], [R4.64] ;\n"
			"        LDG.E.64 R[12:13], [R4.64+0x8] ;\n"
			"        LDG.E.64 R[14:15], [R4.64+0x10] ;\n"
			"        MOV R16, RZ ;\n"
			"        MOV R17, RZ ;\n"
			"        %s ;\n"
			"        STG.E.64 [R6.64], R[16:17] ;\n"
			"        EXIT ;\n.end\n",
		  insn);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		th_kernel t;
		th_load(&t, src.p, insn, "k");
		th_buf_new(&t, "in", in, N * sizeof *in, 0);
		we_devptr d = th_buf_new(&t, "out", NULL, N * 8, 0);
		we_launch_config cfg = th_cfg1(th_id(e), 2, N / 2);
		th_launch_ok(&t, &cfg, NULL, insn);
		uint64_t got[N];
		th_get(&t, got, d, sizeof got);
		if (e == 0)
			memcpy(out, got, sizeof got);
		else
			for (unsigned i = 0; i < N; i++)
				CHECK(got[i] == out[i], "%s: thread %u: %s gives 0x%016llx, %s 0x%016llx", insn, i,
				      th_name(e), (unsigned long long)got[i], th_name(0), (unsigned long long)out[i]);
		th_close(&t);
	}
	free(src.p);
}

static void expect_word(const char *insn, unsigned i, const trip *in, uint64_t got, uint64_t want)
{
	CHECK(got == want, "%s: thread %u (A 0x%016llx, B 0x%016llx, C 0x%016llx): 0x%016llx, expected 0x%016llx",
	      insn, i, (unsigned long long)in->a, (unsigned long long)in->b, (unsigned long long)in->c,
	      (unsigned long long)got, (unsigned long long)want);
}

/* ---- inputs -------------------------------------------------------------- */

static uint32_t rnd_f32_bits(void)
{
	static const uint32_t special[] = {
		0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x807fffffu,
		0x00800000u, 0x7f7fffffu, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0x4b800000u, 0x3effffffu,
	};
	uint32_t r = th_rng();
	switch (r % 8) {
	case 0: return special[(r >> 8) % (sizeof special / sizeof special[0])];
	case 1: return (th_rng() & 0x807fffffu);                               /* subnormals */
	case 2: return (th_rng() & 0x80ffffffu) | ((uint32_t)(100 + (r >> 8) % 50) << 23); /* near 1 */
	default: return th_rng();
	}
}

static uint64_t rnd_f64_bits(void)
{
	static const uint64_t special[] = {
		0, UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000),
		UINT64_C(0x7ff8000000000000), 1, UINT64_C(0x0010000000000000), UINT64_C(0x7fefffffffffffff),
		UINT64_C(0x3ff0000000000000), UINT64_C(0xbff0000000000000), UINT64_C(0x3ff0000000000001),
	};
	uint32_t r = th_rng();
	switch (r % 8) {
	case 0: return special[(r >> 8) % (sizeof special / sizeof special[0])];
	case 1: return th_rng64() & UINT64_C(0x800fffffffffffff);
	case 2: return (th_rng64() & UINT64_C(0x800fffffffffffff)) | ((uint64_t)(1000 + (r >> 8) % 50) << 52);
	default: return th_rng64();
	}
}

static uint64_t rnd_int(void)
{
	static const uint64_t special[] = {
		0, 1, 2, 3, 7, UINT64_C(0xffffffff), UINT64_C(0x80000000), UINT64_C(0x7fffffff),
		UINT64_C(0xffffffffffffffff), UINT64_C(0x8000000000000000), UINT64_C(0x7fffffffffffffff),
		UINT64_C(0xfffffffffffffffe), UINT64_C(0x100000000),
	};
	uint32_t r = th_rng();
	switch (r % 4) {
	case 0: return special[(r >> 8) % (sizeof special / sizeof special[0])];
	case 1: return th_rng64() >> (r >> 8) % 64;
	case 2: return (uint64_t)(int64_t)(int32_t)th_rng() >> (r >> 8) % 8;
	default: return th_rng64();
	}
}

/* ---- the host's IEEE arithmetic under a rounding mode ------------------- */

enum fop { OP_ADD, OP_MUL, OP_FMA, OP_DIV, OP_SQRT };

static float host_f32(enum fop op, float a, float b, float c, int mode)
{
	volatile float va = a, vb = b, vc = c, r;
	fesetround(host_modes[mode]);
	switch (op) {
	case OP_ADD: r = va + vb; break;
	case OP_MUL: r = va * vb; break;
	case OP_FMA: r = fmaf(va, vb, vc); break;
	case OP_DIV: r = va / vb; break;
	default: r = sqrtf(va); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static double host_f64(enum fop op, double a, double b, double c, int mode)
{
	volatile double va = a, vb = b, vc = c, r;
	fesetround(host_modes[mode]);
	switch (op) {
	case OP_ADD: r = va + vb; break;
	case OP_MUL: r = va * vb; break;
	case OP_FMA: r = fma(va, vb, vc); break;
	case OP_DIV: r = va / vb; break;
	default: r = sqrt(va); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static uint32_t flush32(uint32_t u)
{
	return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u;
}

/* CUDA's binary32 result: NaN canonical, .FTZ, .SAT ([0, 1], NaN -> +0) */
static uint32_t f32_result(float f, bool ftz, bool sat)
{
	uint32_t u = isnan(f) ? CANON32 : f2u(f);
	if (ftz)
		u = flush32(u);
	if (sat) {
		float g = u2f(u);
		u = isnan(g) || g <= 0.0f ? 0 : g >= 1.0f ? 0x3f800000u : u;
	}
	return u;
}

static uint64_t f64_result(double d)
{
	return isnan(d) ? CANON64 : d2u(d);
}

/* ======================================================================== */

static const char *const fop_name[] = { "FADD", "FMUL", "FFMA", "FDIV", "FSQRT" };

/* every binary32 operation in every mode, with and without .FTZ/.SAT */
START_TEST(test_f32_modes)
{
	th_rng_seed(0x32);
	trip in[N];
	uint64_t out[N];
	for (int op = OP_ADD; op <= OP_SQRT; op++)
		for (int m = 0; m < 4; m++)
			for (int fs = 0; fs < 4; fs++) {
				const bool ftz = fs & 1, sat = fs & 2;
				for (unsigned i = 0; i < N; i++)
					in[i] = (trip){ rnd_f32_bits(), rnd_f32_bits(), rnd_f32_bits() };
				char insn[96];
				const char *ops = op == OP_FMA ? "R16, R10, R12, R14"
						  : op == OP_SQRT ? "R16, R10" : "R16, R10, R12";
				snprintf(insn, sizeof insn, "%s%s%s%s %s", fop_name[op], mode_sfx[m], ftz ? ".FTZ" : "",
					 sat ? ".SAT" : "", ops);
				run_insn(insn, in, out);
				for (unsigned i = 0; i < N; i++) {
					uint32_t a = (uint32_t)in[i].a, b = (uint32_t)in[i].b, c = (uint32_t)in[i].c;
					if (ftz) {
						a = flush32(a);
						b = flush32(b);
						c = flush32(c);
					}
					float r = host_f32((enum fop)op, u2f(a), u2f(b), u2f(c), m);
					expect_word(insn, i, &in[i], out[i], f32_result(r, ftz, sat));
				}
			}
}
END_TEST

/* hand values: directed roundings, flushes, saturation */
START_TEST(test_f32_hand)
{
	trip in[N];
	uint64_t out[N];
	/* 1 + 2^-30 and -1 - 2^-30 in the four modes */
	static const uint32_t want_p[4] = { 0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800001u };
	static const uint32_t want_n[4] = { 0xbf800000u, 0xbf800000u, 0xbf800001u, 0xbf800000u };
	for (int m = 0; m < 4; m++) {
		for (unsigned i = 0; i < N; i++)
			in[i] = (i & 1) ? (trip){ f2u(-1.0f), f2u(-0x1p-30f), 0 } : (trip){ f2u(1.0f), f2u(0x1p-30f), 0 };
		char insn[64];
		snprintf(insn, sizeof insn, "FADD%s R16, R10, R12", mode_sfx[m]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++)
			expect_word(insn, i, &in[i], out[i], (i & 1) ? want_n[m] : want_p[m]);
	}
	/* .FTZ: a subnormal input is zero, a subnormal result too */
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ 0x00000001u, 0x00000000u, 0 };
	run_insn("FADD R16, R10, R12", in, out);
	expect_word("FADD denormal", 0, &in[0], out[0], 0x00000001u);
	run_insn("FADD.FTZ R16, R10, R12", in, out);
	expect_word("FADD.FTZ denormal", 0, &in[0], out[0], 0);
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ f2u(-0x1p-100f), f2u(0x1p-30f), 0 };
	run_insn("FMUL R16, R10, R12", in, out);
	expect_word("FMUL subnormal", 0, &in[0], out[0], f2u(-0x1p-130f));
	run_insn("FMUL.FTZ R16, R10, R12", in, out);
	expect_word("FMUL.FTZ subnormal", 0, &in[0], out[0], 0x80000000u);
	/* .SAT */
	static const float sa[] = { 1.5f, -3.0f, 0.25f, -0.0f };
	static const uint32_t sw[] = { 0x3f800000u, 0, 0x3e800000u, 0 };
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ f2u(sa[i % 4]), f2u(0.0f), 0 };
	run_insn("FADD.SAT R16, R10, R12", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("FADD.SAT", i, &in[i], out[i], sw[i % 4]);
	/* NaN: canonical, and 0 under .SAT */
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ 0xffc12345u, f2u(1.0f), 0 };
	run_insn("FMUL.RZ R16, R10, R12", in, out);
	expect_word("FMUL.RZ NaN", 0, &in[0], out[0], CANON32);
	run_insn("FMUL.RZ.SAT R16, R10, R12", in, out);
	expect_word("FMUL.RZ.SAT NaN", 0, &in[0], out[0], 0);
	/* FDIV is correctly rounded: 1/3 in the four modes */
	static const uint32_t third[4] = { 0x3eaaaaabu, 0x3eaaaaaau, 0x3eaaaaaau, 0x3eaaaaabu };
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ f2u(1.0f), f2u(3.0f), 0 };
	for (int m = 0; m < 4; m++) {
		char insn[64];
		snprintf(insn, sizeof insn, "FDIV%s R16, R10, R12", mode_sfx[m]);
		run_insn(insn, in, out);
		expect_word(insn, 0, &in[0], out[0], third[m]);
	}
}
END_TEST

static const char *const dop_name[] = { "DADD", "DMUL", "DFMA", "DDIV", "DSQRT" };

START_TEST(test_f64_modes)
{
	th_rng_seed(0x64);
	trip in[N];
	uint64_t out[N];
	for (int op = OP_ADD; op <= OP_SQRT; op++)
		for (int m = 0; m < 4; m++) {
			for (unsigned i = 0; i < N; i++)
				in[i] = (trip){ rnd_f64_bits(), rnd_f64_bits(), rnd_f64_bits() };
			char insn[96];
			const char *ops = op == OP_FMA ? "R[16:17], R[10:11], R[12:13], R[14:15]"
					  : op == OP_SQRT ? "R[16:17], R[10:11]" : "R[16:17], R[10:11], R[12:13]";
			snprintf(insn, sizeof insn, "%s%s %s", dop_name[op], mode_sfx[m], ops);
			run_insn(insn, in, out);
			for (unsigned i = 0; i < N; i++) {
				double r = host_f64((enum fop)op, u2d(in[i].a), u2d(in[i].b), u2d(in[i].c), m);
				expect_word(insn, i, &in[i], out[i], f64_result(r));
			}
		}
	/* 1 + 2^-60 in the four modes; negated operands */
	static const uint64_t want[4] = { UINT64_C(0x3ff0000000000000), UINT64_C(0x3ff0000000000000),
					  UINT64_C(0x3ff0000000000000), UINT64_C(0x3ff0000000000001) };
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ d2u(1.0), d2u(0x1p-60), 0 };
	for (int m = 0; m < 4; m++) {
		char insn[64];
		snprintf(insn, sizeof insn, "DADD%s R[16:17], R[10:11], R[12:13]", mode_sfx[m]);
		run_insn(insn, in, out);
		expect_word(insn, 0, &in[0], out[0], want[m]);
	}
	run_insn("DADD.RM R[16:17], -R[10:11], -R[12:13]", in, out);
	expect_word("DADD.RM negated", 0, &in[0], out[0], UINT64_C(0xbff0000000000001));
	run_insn("DMUL R[16:17], |R[12:13]|, -R[10:11]", in, out);
	expect_word("DMUL |b| * -a", 0, &in[0], out[0], d2u(-0x1p-60));
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ d2u(-4.0), 0, 0 };
	run_insn("DSQRT R[16:17], R[10:11]", in, out);
	expect_word("DSQRT(-4)", 0, &in[0], out[0], CANON64);
	run_insn("DSQRT R[16:17], |R[10:11]|", in, out);
	expect_word("DSQRT(|-4|)", 0, &in[0], out[0], d2u(2.0));
}
END_TEST

/* DSETP (every comparison), DMNMX */
START_TEST(test_f64_compare)
{
	th_rng_seed(0xc0);
	static const char *const cmps[] = { "F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM",
					    "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T" };
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++) {
		uint64_t a = rnd_f64_bits();
		in[i] = (trip){ a, (i % 5 == 0) ? a : (i % 7 == 0) ? a ^ (UINT64_C(1) << 63) : rnd_f64_bits(), 0 };
	}
	for (unsigned c = 0; c < 16; c++) {
		char insn[128];
		snprintf(insn, sizeof insn, "DSETP.%s.AND P0, P1, R[10:11], R[12:13], PT ; SEL R16, RZ, 0x1, !P0 ; "
					    "SEL R17, RZ, 0x1, !P1", cmps[c]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++) {
			double a = u2d(in[i].a), b = u2d(in[i].b);
			bool un = isnan(a) || isnan(b);
			bool r = (c & 1 && a < b) || (c & 2 && a == b) || (c & 4 && a > b) || (c & 8 && un);
			expect_word(insn, i, &in[i], out[i], (uint64_t)r | (uint64_t)!r << 32);
		}
	}
	run_insn("DMNMX R[16:17], R[10:11], R[12:13], PT", in, out);
	for (unsigned i = 0; i < N; i++) {
		double a = u2d(in[i].a), b = u2d(in[i].b);
		uint64_t want = isnan(a) && isnan(b) ? CANON64 : isnan(a) ? in[i].b : isnan(b) ? in[i].a
				: a < b ? in[i].a : b < a ? in[i].b : (in[i].a | in[i].b);
		expect_word("DMNMX min", i, &in[i], out[i], want);
	}
	run_insn("DMNMX R[16:17], R[10:11], R[12:13], !PT", in, out);
	for (unsigned i = 0; i < N; i++) {
		double a = u2d(in[i].a), b = u2d(in[i].b);
		uint64_t want = isnan(a) && isnan(b) ? CANON64 : isnan(a) ? in[i].b : isnan(b) ? in[i].a
				: a > b ? in[i].a : b > a ? in[i].b : (in[i].a & in[i].b);
		expect_word("DMNMX max", i, &in[i], out[i], want);
	}
}
END_TEST

/* .FTZ of FSETP, FMNMX and MUFU */
START_TEST(test_fpu_ftz)
{
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ 0x00000005u, 0x80000000u, 0 };
	run_insn("FSETP.EQ.AND P0, PT, R10, R12, PT ; SEL R16, RZ, 0x1, !P0", in, out);
	expect_word("FSETP.EQ denormal", 0, &in[0], out[0], 0);
	run_insn("FSETP.EQ.FTZ.AND P0, PT, R10, R12, PT ; SEL R16, RZ, 0x1, !P0", in, out);
	expect_word("FSETP.EQ.FTZ denormal", 0, &in[0], out[0], 1);
	run_insn("FMNMX R16, R10, R12, !PT", in, out);
	expect_word("FMNMX max", 0, &in[0], out[0], 0x00000005u);
	run_insn("FMNMX.FTZ R16, R10, R12, !PT", in, out);
	expect_word("FMNMX.FTZ max", 0, &in[0], out[0], 0);
	/* 1/2^127 is subnormal: flushed under .FTZ */
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ f2u(0x1p127f), 0, 0 };
	run_insn("MUFU.RCP R16, R10", in, out);
	expect_word("MUFU.RCP", 0, &in[0], out[0], f2u(0x1p-127f));
	run_insn("MUFU.RCP.FTZ R16, R10", in, out);
	expect_word("MUFU.RCP.FTZ", 0, &in[0], out[0], 0);
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ 0x80000001u, 0, 0 };
	run_insn("MUFU.RSQ.FTZ R16, R10", in, out);
	expect_word("MUFU.RSQ.FTZ of -denormal", 0, &in[0], out[0], 0xff800000u);
}
END_TEST

/* distance in units in the last place of two finite binary32 values of
 * one sign (or zeros) */
static uint32_t ulps(uint32_t a, uint32_t b)
{
	if ((a << 1) == 0 && (b << 1) == 0)
		return 0;
	if ((a ^ b) & 0x80000000u)
		return UINT32_MAX;
	return a > b ? a - b : b - a;
}

/* The .approx functions (MUFU) are within PTX's error bounds: at most one
 * ulp from the exact value (PTX allows 1 ulp for rcp, 2 for ex2,
 * 2^-22.9 relative for rsqrt, 2^-20.9 absolute for sin/cos in [-pi, pi],
 * 2^-22.6 absolute for lg2 near 1). */
START_TEST(test_mufu_bounds)
{
	static const char *const fn[] = { "RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS" };
	th_rng_seed(0xa99);
	trip in[N];
	uint64_t out[N];
	for (unsigned f = 0; f < 7; f++) {
		for (unsigned i = 0; i < N; i++) {
			float v = ldexpf((float)(th_rng() >> 8) * 0x1p-24f + 0.5f, (int)(th_rng() % 60) - 30);
			if (f == 3)
				v = ((float)(th_rng() >> 8) * 0x1p-24f - 0.5f) * 200.0f;
			if (f >= 5)
				v = ((float)(th_rng() >> 8) * 0x1p-24f - 0.5f) * 6.28f;
			in[i] = (trip){ f2u(v), 0, 0 };
		}
		char insn[48];
		snprintf(insn, sizeof insn, "MUFU.%s R16, R10", fn[f]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++) {
			long double v = u2f((uint32_t)in[i].a), r;
			switch (f) {
			case 0: r = 1.0L / v; break;
			case 1: r = 1.0L / sqrtl(v); break;
			case 2: r = sqrtl(v); break;
			case 3: r = exp2l(v); break;
			case 4: r = log2l(v); break;
			case 5: r = sinl(v); break;
			default: r = cosl(v); break;
			}
			const uint32_t want = f2u((float)r), got = (uint32_t)out[i];
			CHECK(ulps(got, want) <= 1, "%s(%a) = %a, expected %a within 1 ulp", insn, (double)v,
			      (double)u2f(got), (double)r);
		}
	}
}
END_TEST

/* PTX's .approx instructions, lowered from PTX text: within the error
 * bounds PTX documents (sin/cos 2^-20.9 absolute in [-pi, pi]; ex2, lg2
 * (absolute 2^-22 near 1), div.approx and div.full 2 ulp; rcp, sqrt,
 * rsqrt 1 ulp), and div.approx gives 0 for 2^126 < |b| < 2^128. */
static const char approx_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .f32 %f<16>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmad.lo.s32 %r1, %r2, %r3, %r1;\n"
	"\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tld.global.f32 %f1, [%rd4];\n\tld.global.f32 %f2, [%rd4+4];\n"
	"\tmul.wide.u32 %rd5, %r1, 40;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
	"\tsin.approx.ftz.f32 %f3, %f1;\n\tcos.approx.f32 %f4, %f1;\n"
	"\tex2.approx.ftz.f32 %f5, %f2;\n\tlg2.approx.f32 %f6, %f2;\n"
	"\trsqrt.approx.ftz.f32 %f7, %f2;\n\trcp.approx.f32 %f8, %f2;\n"
	"\tsqrt.approx.ftz.f32 %f9, %f2;\n\tdiv.approx.f32 %f10, %f1, %f2;\n"
	"\tdiv.full.ftz.f32 %f11, %f1, %f2;\n\tdiv.approx.ftz.f32 %f12, %f1, 0f7F000000;\n"
	"\tst.global.f32 [%rd6], %f3;\n\tst.global.f32 [%rd6+4], %f4;\n"
	"\tst.global.f32 [%rd6+8], %f5;\n\tst.global.f32 [%rd6+12], %f6;\n"
	"\tst.global.f32 [%rd6+16], %f7;\n\tst.global.f32 [%rd6+20], %f8;\n"
	"\tst.global.f32 [%rd6+24], %f9;\n\tst.global.f32 [%rd6+28], %f10;\n"
	"\tst.global.f32 [%rd6+32], %f11;\n\tst.global.f32 [%rd6+36], %f12;\n"
	"\tret;\n}\n";

START_TEST(test_ptx_approx)
{
	th_rng_seed(0xa9);
	float in[2 * N], out[10 * N];
	for (unsigned i = 0; i < N; i++) {
		in[2 * i] = ((float)(th_rng() >> 8) * 0x1p-24f - 0.5f) * 6.28f;                       /* [-pi, pi] */
		in[2 * i + 1] = ldexpf((float)(th_rng() >> 8) * 0x1p-24f + 0.5f, (int)(th_rng() % 40) - 20); /* > 0 */
	}
	for (size_t e = 0; e < TH_NENGINES; e++) {
		th_kernel t;
		th_load(&t, approx_ptx, "approx.ptx", "k");
		th_buf_new(&t, "k_in", in, sizeof in, 0);
		we_devptr d = th_buf_new(&t, "k_out", NULL, sizeof out, 0);
		we_launch_config cfg = th_cfg1(th_id(e), 2, N / 2);
		th_launch_ok(&t, &cfg, NULL, "approx.ptx");
		th_get(&t, out, d, sizeof out);
		th_close(&t);
		for (unsigned i = 0; i < N; i++) {
			const long double x = in[2 * i], y = in[2 * i + 1];
			const float *o = out + 10 * i;
			const long double want[9] = { sinl(x), cosl(x), exp2l(y), log2l(y), 1.0L / sqrtl(y),
						      1.0L / y, sqrtl(y), x / y, x / y };
			static const uint32_t max_ulps[9] = { 0, 0, 2, 2, 1, 1, 1, 2, 2 };
			for (unsigned k = 0; k < 9; k++) {
				const float w = (float)want[k];
				const bool ok = k < 2 ? fabsl((long double)o[k] - want[k]) <= exp2l(-20.9L)
					      : k == 3 && fabsl(want[k]) < 1.0L
						      ? fabsl((long double)o[k] - want[k]) <= 0x1p-22L
						      : ulps(f2u(o[k]), f2u(w)) <= max_ulps[k];
				CHECK(ok, "%s: result %u of thread %u (%a, %a): %a, exact %La", th_name(e), k, i,
				      (double)x, (double)y, (double)o[k], want[k]);
			}
			CHECK(f2u(o[9]) << 1 == 0, "div.approx by 2^127: %a, expected 0", (double)o[9]);
		}
	}
}
END_TEST

/* ---- integer ---------------------------------------------------------------- */

static const char *const itypes[4] = { "S32", "U32", "S64", "U64" };

static uint64_t idiv_ref(uint64_t a, uint64_t b, int t, bool rem)
{
	if (t < 2) {
		uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
		if (b32 == 0)
			return 0xffffffffu;
		if (t == 1)
			return rem ? a32 % b32 : a32 / b32;
		int32_t sa = (int32_t)a32, sb = (int32_t)b32;
		if (sa == INT32_MIN && sb == -1)
			return rem ? 0 : 0x80000000u;
		return (uint32_t)(rem ? sa % sb : sa / sb);
	}
	if (b == 0)
		return ~UINT64_C(0);
	if (t == 3)
		return rem ? a % b : a / b;
	int64_t sa = (int64_t)a, sb = (int64_t)b;
	if (sa == INT64_MIN && sb == -1)
		return rem ? 0 : a;
	return (uint64_t)(rem ? sa % sb : sa / sb);
}

START_TEST(test_idiv)
{
	th_rng_seed(0xd1);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++) {
		uint64_t a = rnd_int(), b = rnd_int();
		if (i % 9 == 0)
			b = 0;
		if (i % 11 == 0)
			b = ~UINT64_C(0);
		if (i % 13 == 0)
			b = 3;
		in[i] = (trip){ a, b, 0 };
	}
	for (int t = 0; t < 4; t++)
		for (int rem = 0; rem < 2; rem++) {
			char insn[96];
			const char *ops = t < 2 ? "R16, R10, R12" : "R[16:17], R[10:11], R[12:13]";
			snprintf(insn, sizeof insn, "IDIV%s.%s %s", rem ? ".REM" : "", itypes[t], ops);
			run_insn(insn, in, out);
			for (unsigned i = 0; i < N; i++)
				expect_word(insn, i, &in[i], out[i], idiv_ref(in[i].a, in[i].b, t, rem));
		}
	/* an immediate divisor, sign-extended for 64 bits */
	run_insn("IDIV.S64 R[16:17], R[10:11], -0x7", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("IDIV.S64 imm", i, &in[i], out[i], idiv_ref(in[i].a, (uint64_t)-7, 2, false));
	run_insn("IDIV.REM.U32 R16, R10, 0xa", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("IDIV.REM.U32 imm", i, &in[i], out[i], (uint32_t)in[i].a % 10u);
}
END_TEST

START_TEST(test_imad64_iadd_sat)
{
	th_rng_seed(0x1a);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ rnd_int(), rnd_int(), rnd_int() };
	run_insn("IMAD64 R[16:17], R[10:11], R[12:13], R[14:15]", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("IMAD64", i, &in[i], out[i], in[i].a * in[i].b + in[i].c);
	run_insn("IMAD64.HI.U64 R[16:17], R[10:11], R[12:13], R[14:15]", in, out);
	for (unsigned i = 0; i < N; i++) {
		unsigned __int128 p = (unsigned __int128)in[i].a * in[i].b;
		expect_word("IMAD64.HI.U64", i, &in[i], out[i], (uint64_t)(p >> 64) + in[i].c);
	}
	run_insn("IMAD64.HI R[16:17], R[10:11], R[12:13], RZ", in, out);
	for (unsigned i = 0; i < N; i++) {
		__int128 p = (__int128)(int64_t)in[i].a * (int64_t)in[i].b;
		expect_word("IMAD64.HI", i, &in[i], out[i], (uint64_t)((unsigned __int128)p >> 64));
	}
	run_insn("IADD.SAT R16, R10, R12", in, out);
	for (unsigned i = 0; i < N; i++) {
		int64_t s = (int64_t)(int32_t)in[i].a + (int32_t)in[i].b;
		s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
		expect_word("IADD.SAT", i, &in[i], out[i], (uint32_t)s);
	}
	run_insn("IADD.SAT R16, R10, -R12", in, out);
	for (unsigned i = 0; i < N; i++) {
		int64_t s = (int64_t)(int32_t)in[i].a - (int32_t)in[i].b;
		s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
		expect_word("IADD.SAT sub", i, &in[i], out[i], (uint32_t)s);
	}
}
END_TEST

/* PTX's bfe and bfi, bit by bit as PTX writes them */
static uint64_t bfe_ref(uint64_t a, uint32_t b, uint32_t c, unsigned msb, bool sgn)
{
	unsigned pos = b & 0xff, len = c & 0xff;
	unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
	unsigned sbit = sgn && len ? (unsigned)(a >> top) & 1u : 0;
	uint64_t d = 0;
	for (unsigned i = 0; i <= msb; i++) {
		unsigned bit = i < len && pos + i <= msb ? (unsigned)(a >> (pos + i)) & 1u : sbit;
		d |= (uint64_t)bit << i;
	}
	return d;
}

static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t c, uint32_t dd, unsigned msb)
{
	unsigned pos = c & 0xff, len = dd & 0xff;
	uint64_t f = b;
	for (unsigned i = 0; i < len && pos + i <= msb; i++)
		f = (f & ~(UINT64_C(1) << (pos + i))) | (((a >> i) & 1u) << (pos + i));
	return f;
}

START_TEST(test_bitfield)
{
	th_rng_seed(0xbf);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++) {
		/* C: pos in bits 0..7, len in bits 32..39 (R14, R15) */
		uint64_t pos = th_rng() % (i % 4 ? 70u : 256u), len = th_rng() % (i % 3 ? 70u : 256u);
		in[i] = (trip){ rnd_int(), rnd_int(), pos | (len << 32) | ((uint64_t)th_rng() << 8 & 0xff00ffff00u) };
	}
	for (int t = 0; t < 4; t++) {
		char insn[96];
		snprintf(insn, sizeof insn, "BFE.%s %s, R14, R15", itypes[t], t < 2 ? "R16, R10" : "R[16:17], R[10:11]");
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++)
			expect_word(insn, i, &in[i], out[i],
				    bfe_ref(t < 2 ? (uint32_t)in[i].a : in[i].a, (uint32_t)in[i].c,
					    (uint32_t)(in[i].c >> 32), t < 2 ? 31 : 63, t == 0 || t == 2));
	}
	run_insn("BFI.B32 R16, R10, R12, R14, R15", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("BFI.B32", i, &in[i], out[i],
			    bfi_ref((uint32_t)in[i].a, (uint32_t)in[i].b, (uint32_t)in[i].c, (uint32_t)(in[i].c >> 32), 31));
	run_insn("BFI.B64 R[16:17], R[10:11], R[12:13], R14, R15", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("BFI.B64", i, &in[i], out[i],
			    bfi_ref(in[i].a, in[i].b, (uint32_t)in[i].c, (uint32_t)(in[i].c >> 32), 63));
}
END_TEST

/* the prmt modes, from PTX's table (d.b3 d.b2 d.b1 d.b0 per selector) */
START_TEST(test_prmt_modes)
{
	static const char *const modes[] = { "F4E", "B4E", "RC8", "ECL", "ECR", "RC16" };
	static const uint8_t tab[6][4][4] = {
		{ { 3, 2, 1, 0 }, { 4, 3, 2, 1 }, { 5, 4, 3, 2 }, { 6, 5, 4, 3 } },
		{ { 5, 6, 7, 0 }, { 6, 7, 0, 1 }, { 7, 0, 1, 2 }, { 0, 1, 2, 3 } },
		{ { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
		{ { 3, 2, 1, 0 }, { 3, 2, 1, 1 }, { 3, 2, 2, 2 }, { 3, 3, 3, 3 } },
		{ { 0, 0, 0, 0 }, { 1, 1, 1, 0 }, { 2, 2, 1, 0 }, { 3, 2, 1, 0 } },
		{ { 1, 0, 1, 0 }, { 3, 2, 3, 2 }, { 1, 0, 1, 0 }, { 3, 2, 3, 2 } },
	};
	th_rng_seed(0x9e);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ th_rng(), th_rng(), th_rng() };
	for (unsigned m = 0; m < 6; m++) {
		char insn[64];
		snprintf(insn, sizeof insn, "PRMT.%s R16, R10, R12, R14", modes[m]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++) {
			uint64_t v = (uint32_t)in[i].a | (in[i].c << 32);
			const uint8_t *sel = tab[m][in[i].b & 3];
			uint32_t want = 0;
			for (unsigned k = 0; k < 4; k++)
				want |= (uint32_t)((v >> (8 * sel[3 - k])) & 0xff) << (8 * k);
			expect_word(insn, i, &in[i], out[i], want);
		}
	}
}
END_TEST

/* ---- conversions ---------------------------------------------------------------- */

static double host_i2f(uint64_t v, int t, bool d64, int mode)
{
	volatile uint64_t vv = v;
	volatile double r;
	volatile float f;
	fesetround(host_modes[mode]);
	switch (t) {
	case 0: if (d64) r = (double)(int32_t)vv; else f = (float)(int32_t)vv; break;
	case 1: if (d64) r = (double)(uint32_t)vv; else f = (float)(uint32_t)vv; break;
	case 2: if (d64) r = (double)(int64_t)vv; else f = (float)(int64_t)vv; break;
	default: if (d64) r = (double)vv; else f = (float)vv; break;
	}
	fesetround(FE_TONEAREST);
	return d64 ? r : (double)f;
}

START_TEST(test_i2f)
{
	th_rng_seed(0x12f);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ rnd_int(), 0, 0 };
	for (int t = 0; t < 4; t++)
		for (int d64 = 0; d64 < 2; d64++)
			for (int m = 0; m < 4; m++) {
				char insn[96];
				snprintf(insn, sizeof insn, "I2F.F%d.%s%s %s, %s", d64 ? 64 : 32, itypes[t], mode_sfx[m],
					 d64 ? "R[16:17]" : "R16", t < 2 ? "R10" : "R[10:11]");
				run_insn(insn, in, out);
				for (unsigned i = 0; i < N; i++) {
					double r = host_i2f(in[i].a, t, d64, m);
					expect_word(insn, i, &in[i], out[i], d64 ? d2u(r) : f2u((float)r));
				}
			}
	/* 2^24 + 1 and 2^64 - 1 */
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ (i & 1) ? ~UINT64_C(0) : 0x1000001u, 0, 0 };
	run_insn("I2F.F32.U64.RP R16, R[10:11]", in, out);
	expect_word("2^24+1 .RP", 0, &in[0], out[0], f2u(16777218.0f));
	expect_word("2^64-1 .RP", 1, &in[1], out[1], f2u(0x1p64f));
	run_insn("I2F.F32.U64.RZ R16, R[10:11]", in, out);
	expect_word("2^24+1 .RZ", 0, &in[0], out[0], f2u(16777216.0f));
	expect_word("2^64-1 .RZ", 1, &in[1], out[1], 0x5f7fffffu);
}
END_TEST

static uint64_t f2i_ref(double d, int t, int rnd)
{
	if (isnan(d))
		return 0;
	d = rnd == 0 ? trunc(d) : rnd == 1 ? nearbyint(d) : rnd == 2 ? floor(d) : ceil(d);
	static const double lo[4] = { -2147483648.0, 0.0, -0x1p63, 0.0 };
	static const double hi[4] = { 2147483647.0, 4294967295.0, 0x1p63, 0x1p64 };
	static const uint64_t lov[4] = { 0x80000000u, 0, UINT64_C(1) << 63, 0 };
	static const uint64_t hiv[4] = { 0x7fffffffu, 0xffffffffu, UINT64_C(0x7fffffffffffffff), ~UINT64_C(0) };
	if (d <= lo[t])
		return lov[t];
	if (d >= hi[t])
		return hiv[t];
	if (t == 0)
		return (uint32_t)(int32_t)d;
	if (t == 2)
		return (uint64_t)(int64_t)d;
	return (uint64_t)d;
}

START_TEST(test_f2i)
{
	static const char *const rnds[] = { "TRUNC", "RN", "FLOOR", "CEIL" };
	th_rng_seed(0xf21);
	trip in[N];
	uint64_t out[N];
	for (int f64 = 0; f64 < 2; f64++) {
		for (unsigned i = 0; i < N; i++) {
			uint64_t v = f64 ? rnd_f64_bits() : rnd_f32_bits();
			if (i % 3 == 0)   /* halves and values near the ranges' ends */
				v = f64 ? d2u((double)((int)(th_rng() % 41) - 20) * 0.5 * ((i % 2) ? 0x1p63 / 8 : 1))
					: f2u((float)((int)(th_rng() % 41) - 20) * 0.5f * ((i % 2) ? 0x1p31f / 8 : 1));
			in[i] = (trip){ v, 0, 0 };
		}
		for (int t = 0; t < 4; t++)
			for (int r = 0; r < 4; r++)
				for (int fz = 0; fz < (f64 ? 1 : 2); fz++) {
					char insn[96];
					snprintf(insn, sizeof insn, "F2I.%s.F%d.%s%s %s, %s", itypes[t], f64 ? 64 : 32, rnds[r],
						 fz ? ".FTZ" : "", t < 2 ? "R16" : "R[16:17]", f64 ? "R[10:11]" : "R10");
					run_insn(insn, in, out);
					for (unsigned i = 0; i < N; i++) {
						double d = f64 ? u2d(in[i].a)
							       : (double)u2f(fz ? flush32((uint32_t)in[i].a) : (uint32_t)in[i].a);
						expect_word(insn, i, &in[i], out[i], f2i_ref(d, t, r));
					}
				}
	}
	/* hand values */
	static const float hv[] = { 2.5f, -2.5f, 3.5f, -0.5f, 1e10f, -1e10f };
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ f2u(hv[i % 6]), 0, 0 };
	run_insn("F2I.S32.F32.RN R16, R10", in, out);
	static const uint32_t hw[] = { 2, 0xfffffffeu, 4, 0, 0x7fffffffu, 0x80000000u };
	for (unsigned i = 0; i < 6; i++)
		expect_word("F2I.S32.F32.RN", i, &in[i], out[i], hw[i]);
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ 0x80000001u, 0, 0 };
	run_insn("F2I.S32.F32.FLOOR R16, R10", in, out);
	expect_word("floor(-denormal)", 0, &in[0], out[0], 0xffffffffu);
	run_insn("F2I.S32.F32.FLOOR.FTZ R16, R10", in, out);
	expect_word("floor(-denormal) .FTZ", 0, &in[0], out[0], 0);
}
END_TEST

START_TEST(test_f2f_frnd)
{
	th_rng_seed(0xf2f);
	trip in[N];
	uint64_t out[N];
	for (unsigned i = 0; i < N; i++) {
		uint64_t v = rnd_f64_bits();
		if (i % 2)   /* in binary32's range, subnormals included */
			v = (v & UINT64_C(0x800fffffffffffff)) | ((uint64_t)(1023 - 160 + th_rng() % 300) << 52);
		in[i] = (trip){ v, 0, 0 };
	}
	for (int m = 0; m < 4; m++)
		for (int fs = 0; fs < 4; fs++) {
			const bool ftz = fs & 1, sat = fs & 2;
			char insn[96];
			snprintf(insn, sizeof insn, "F2F.F32.F64%s%s%s R16, R[10:11]", mode_sfx[m], ftz ? ".FTZ" : "",
				 sat ? ".SAT" : "");
			run_insn(insn, in, out);
			for (unsigned i = 0; i < N; i++) {
				volatile double d = u2d(in[i].a);
				volatile float f;
				fesetround(host_modes[m]);
				f = (float)d;
				fesetround(FE_TONEAREST);
				expect_word(insn, i, &in[i], out[i], f32_result(f, ftz, sat));
			}
		}
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ rnd_f32_bits(), 0, 0 };
	run_insn("F2F.F64.F32 R[16:17], R10", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("F2F.F64.F32", i, &in[i], out[i], f64_result((double)u2f((uint32_t)in[i].a)));
	run_insn("F2F.F64.F32.FTZ R[16:17], R10", in, out);
	for (unsigned i = 0; i < N; i++)
		expect_word("F2F.F64.F32.FTZ", i, &in[i], out[i], f64_result((double)u2f(flush32((uint32_t)in[i].a))));
	/* FRND: binary32 and binary64, four roundings */
	static const char *const rnds[] = { "TRUNC", "RN", "FLOOR", "CEIL" };
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ (i % 4 == 0) ? f2u((float)((int)(th_rng() % 21) - 10) * 0.5f) : rnd_f32_bits(), 0, 0 };
	for (int r = 0; r < 4; r++) {
		char insn[64];
		snprintf(insn, sizeof insn, "FRND.%s R16, R10", rnds[r]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++) {
			float f = u2f((uint32_t)in[i].a);
			float g = r == 0 ? truncf(f) : r == 1 ? nearbyintf(f) : r == 2 ? floorf(f) : ceilf(f);
			expect_word(insn, i, &in[i], out[i], f32_result(g, false, false));
		}
	}
	for (unsigned i = 0; i < N; i++)
		in[i] = (trip){ (i % 4 == 0) ? d2u((double)((int)(th_rng() % 21) - 10) * 0.5) : rnd_f64_bits(), 0, 0 };
	for (int r = 0; r < 4; r++) {
		char insn[64];
		snprintf(insn, sizeof insn, "FRND.F64.%s R[16:17], R[10:11]", rnds[r]);
		run_insn(insn, in, out);
		for (unsigned i = 0; i < N; i++) {
			double f = u2d(in[i].a);
			double g = r == 0 ? trunc(f) : r == 1 ? nearbyint(f) : r == 2 ? floor(f) : ceil(f);
			expect_word(insn, i, &in[i], out[i], f64_result(g));
		}
	}
}
END_TEST

/* ======================================================================== */

static Suite *num_suite(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("float");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_f32_modes);
	tcase_add_test(tc, test_f32_hand);
	tcase_add_test(tc, test_f64_modes);
	tcase_add_test(tc, test_f64_compare);
	tcase_add_test(tc, test_fpu_ftz);
	tcase_add_test(tc, test_mufu_bounds);
	tcase_add_test(tc, test_ptx_approx);
	suite_add_tcase(s, tc);
	tc = tcase_create("integer");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_idiv);
	tcase_add_test(tc, test_imad64_iadd_sat);
	tcase_add_test(tc, test_bitfield);
	tcase_add_test(tc, test_prmt_modes);
	suite_add_tcase(s, tc);
	tc = tcase_create("conversions");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_i2f);
	tcase_add_test(tc, test_f2i);
	tcase_add_test(tc, test_f2f_frnd);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(num_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
