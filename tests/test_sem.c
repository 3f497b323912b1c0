/* test_sem.c — libcheck suite "sem": the semantic handlers of the ALU,
 * FPU, memory, warp and uniform instructions, called directly.
 *
 * Build: make tests/test_sem (with tests/harness.c and the library).
 *
 * A fake launch (one CTA, one warp with a register file, shared and local
 * memory, constant banks 0 and 1, a device with global allocations)
 * stands around each test.  Instructions are xinsn records built by hand:
 * operands in Order<> positions without the guard, modifiers in the raw
 * we_insn fields.  Each optype is checked on hand-computed values and on
 * random inputs against a plain-C reference per lane.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

#include "harness.h"

#define ALL 0xffffffffu
#define NREGS 64u
#define NROWS (NREGS + 8u)
#define SHARED_BYTES 4096u
#define LOCAL_BYTES 256u
#define PARAM_BYTES 256u
#define BANK1_BYTES 256u

/* ---- random numbers --------------------------------------------------- */

static uint32_t rnd32(void) { return (uint32_t)th_rng64(); }
static unsigned rndn(unsigned n) { return (unsigned)(th_rng64() % n); }

/* Interesting 32-bit values more often than uniform ones. */
static uint32_t rnd_edge32(void)
{
	static const uint32_t edge[] = { 0, 1, 2, 0x7fffffffu, 0x80000000u, 0x80000001u,
					 0xffffffffu, 0xfffffffeu, 0xffffu, 0x10000u };
	switch (rndn(4)) {
	case 0: return edge[rndn(sizeof edge / sizeof edge[0])];
	case 1: return rnd32() >> rndn(32);
	default: return rnd32();
	}
}

/* ---- the fake launch ---------------------------------------------------- */

static we_launch_ctx L;
static we_cta cta;
static we_warp w;
static uint32_t regs[NROWS * XLANES];
static uint8_t shmem[SHARED_BYTES];
static uint8_t lmem[XLANES * LOCAL_BYTES];
static uint8_t bank1[BANK1_BYTES];
static struct we_module mod;
static we_device *dev;
static we_insn in;
static xinsn xi;
static xctx X;

static void setup(void)
{
	memset(&L, 0, sizeof L);
	memset(&cta, 0, sizeof cta);
	memset(&w, 0, sizeof w);
	memset(regs, 0, sizeof regs);
	memset(shmem, 0, sizeof shmem);
	memset(lmem, 0, sizeof lmem);
	memset(&mod, 0, sizeof mod);
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	L.dev = dev;
	L.mod = &mod;
	L.grid = (we_dim3){ 5, 3, 2 };
	L.block = (we_dim3){ 64, 1, 1 };
	L.threads_per_cta = 64;
	L.warps_per_cta = 2;
	L.shared_bytes = SHARED_BYTES;
	L.local_bytes = LOCAL_BYTES;
	L.nrows = NROWS;
	L.param_bytes = PARAM_BYTES;
	for (unsigned k = 0; k < PARAM_BYTES; k++)
		L.params[k] = (uint8_t)(k * 7 + 3);
	for (unsigned k = 0; k < BANK1_BYTES; k++)
		bank1[k] = (uint8_t)(0xa0 ^ k);
	mod.cbank[1].size = BANK1_BYTES;
	mod.cbank[1].data = bank1;
	cta.L = &L;
	cta.nwarps = 2;
	cta.shared = shmem;
	cta.warps = &w;
	w.r = regs;
	w.nrows = NROWS;
	w.rstride = XLANES;
	w.valid = w.active = ALL;
	w.p[7] = ALL;
	w.local = lmem;
	w.local_size = LOCAL_BYTES;
	th_rng_seed(0x5eed0000u);
}

static void teardown(void)
{
	we_device_destroy(dev);
	dev = NULL;
}

static uint32_t *reg(unsigned r) { return we_row(&w, r); }

static void set_reg(unsigned r, const uint32_t v[XLANES]) { memcpy(reg(r), v, 4 * XLANES); }

static void fill_reg(unsigned r, uint32_t v)
{
	for_lanes(l) reg(r)[l] = v;
}

/* ---- operands and instructions ------------------------------------------ */

static xopd R(unsigned r) { return (xopd){ .kind = XO_REG, .nregs = 1, .row = (uint16_t)r, .reg = (uint16_t)r }; }
static xopd R2(unsigned r) { return (xopd){ .kind = XO_REG, .nregs = 2, .row = (uint16_t)r, .reg = (uint16_t)r }; }
static xopd IMM(int64_t v) { return (xopd){ .kind = XO_IMM, .imm = v }; }
static xopd ENUMV(int64_t v) { return (xopd){ .kind = XO_ENUM, .imm = v }; }
static xopd P(unsigned p) { return (xopd){ .kind = XO_PRED, .row = (uint16_t)p }; }
static xopd NP(unsigned p) { return (xopd){ .kind = XO_PRED, .row = (uint16_t)p, .flags = XF_NOT }; }
static xopd UR(unsigned u) { return (xopd){ .kind = XO_UREG, .nregs = 1, .row = (uint16_t)u }; }
static xopd UP(unsigned p) { return (xopd){ .kind = XO_UPRED, .row = (uint16_t)p }; }
static xopd NUP(unsigned p) { return (xopd){ .kind = XO_UPRED, .row = (uint16_t)p, .flags = XF_NOT }; }
static xopd CM(unsigned bank, unsigned off) { return (xopd){ .kind = XO_CMEM, .bank = (uint8_t)bank, .imm = off }; }
static xopd MEM(unsigned r, int64_t off) { return (xopd){ .kind = XO_MEM, .nregs = 1, .row = (uint16_t)r, .reg = (uint16_t)r, .imm = off }; }
static xopd MEM64(unsigned r, int64_t off) { return (xopd){ .kind = XO_MEM, .nregs = 2, .row = (uint16_t)r, .reg = (uint16_t)r, .imm = off }; }
static xopd CMI(unsigned bank, unsigned r, int64_t off)
{
	return (xopd){ .kind = XO_CMEMIND, .bank = (uint8_t)bank, .nregs = 1, .row = (uint16_t)r, .reg = (uint16_t)r, .imm = off };
}
static xopd FIMM(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return (xopd){ .kind = XO_FIMM, .imm = u };
}
static xopd NEG(xopd o) { o.flags |= XF_NEG; return o; }
static xopd ABS(xopd o) { o.flags |= XF_ABS; return o; }

static xinsn *mk(int op, const xopd *o, unsigned n)
{
	memset(&in, 0, sizeof in);
	memset(&xi, 0, sizeof xi);
	in.opcode = (int16_t)op;
	in.pg = 7;
	xi.opcode = (uint16_t)op;
	xi.optype = isa_op_optype[op];
	xi.pg = 7;
	xi.nopd = (uint8_t)n;
	for (unsigned k = 0; k < n; k++)
		xi.o[k] = o[k];
	xi.in = &in;
	return &xi;
}
#define INSN0(op) mk(ISA_OP_##op, NULL, 0)
#define INSN(op, ...) mk(ISA_OP_##op, (const xopd[]){ __VA_ARGS__ }, \
			 sizeof((const xopd[]){ __VA_ARGS__ }) / sizeof(xopd))

typedef void (*sem_fn)(xctx *, const xinsn *);

/* Execute the current instruction on the lanes of pmask. */
static void run(sem_fn f, uint32_t pmask)
{
	memset(&X, 0, sizeof X);
	X.w = &w;
	X.cta = &cta;
	X.L = &L;
	X.pmask = pmask;
	X.pc = 0x100;
	f(&X, &xi);
}

static void expect_no_fault(void)
{
	ck_assert_msg(!X.stop && !cta.faulted, "unexpected fault: %s", cta.fault.msg);
}

static void expect_mask(const char *what, uint32_t got, uint32_t exp)
{
	if (got != exp)
		ck_abort_msg("%s: mask 0x%08x, expected 0x%08x", what, got, exp);
}

static void expect_fault_lanes(we_fault_kind k, uint32_t lanes)
{
	ck_assert_msg(X.stop && cta.faulted, "expected a fault");
	ck_assert_int_eq(cta.fault.kind, k);
	if (lanes)
		expect_mask("fault lanes", cta.fault.lanes, lanes);
	cta.faulted = false;
	memset(&cta.fault, 0, sizeof cta.fault);
}

/* Compare a register with expected lane values (only failures reach check). */
static void expect_row(const char *what, unsigned r, const uint32_t exp[XLANES])
{
	for_lanes(l) if (reg(r)[l] != exp[l])
		ck_abort_msg("%s: R%u lane %u = 0x%08x, expected 0x%08x", what, r, l, reg(r)[l], exp[l]);
}

static void expect_fill(const char *what, unsigned r, uint32_t v)
{
	for_lanes(l) if (reg(r)[l] != v)
		ck_abort_msg("%s: R%u lane %u = 0x%08x, expected 0x%08x", what, r, l, reg(r)[l], v);
}

static void expect_fault(we_fault_kind k) { expect_fault_lanes(k, 0); }

static void expect_u32(const char *what, unsigned lane, uint32_t got, uint32_t exp)
{
	if (got != exp)
		ck_abort_msg("%s: lane %u = 0x%08x, expected 0x%08x", what, lane, got, exp);
}

static void rand_reg(unsigned r)
{
	for_lanes(l) reg(r)[l] = rnd_edge32();
}

/* ======================================================================== */
/* ALU                                                                       */
/* ======================================================================== */

START_TEST(test_mov)
{
	uint32_t v[XLANES];
	for_lanes(l) v[l] = l * 0x01010101u;
	set_reg(1, v);
	INSN(MOV_R, R(0), R(1));
	run(sem_MOV, ALL);
	expect_row("MOV R", 0, v);

	INSN(MOV_I, R(2), IMM(-5));
	run(sem_MOV, ALL);
	expect_fill("MOV imm", 2, 0xfffffffbu);

	INSN(MOV_C, R(3), CM(0, 8));
	run(sem_MOV, ALL);
	expect_fill("MOV c[0]", 3, (uint32_t)(8 * 7 + 3) | (uint32_t)(9 * 7 + 3) << 8 |
					   (uint32_t)(10 * 7 + 3) << 16 | (uint32_t)(11 * 7 + 3) << 24);
	INSN(MOV_C, R(3), CM(1, 4));
	run(sem_MOV, ALL);
	expect_fill("MOV c[1]", 3, 0xa4u | (0xa5u << 8) | (0xa6u << 16) | (0xa7u << 24));

	/* partial mask leaves the other lanes alone */
	fill_reg(4, 0x11111111u);
	INSN(MOV_I, R(4), IMM(0x22));
	run(sem_MOV, 0x0000ff0fu);
	for_lanes(l) expect_u32("MOV partial", l, reg(4)[l], LANE_ON(0x0000ff0fu, l) ? 0x22u : 0x11111111u);
	expect_no_fault();
}
END_TEST

/* IADD3 Rd, Pu, Pv, Ra, Rb, Rc */
static void iadd3(unsigned d, unsigned pu, unsigned pv, xopd a, xopd b, xopd c, xopd pp, xopd pq,
		  bool x)
{
	INSN(IADD3_R, R(d), P(pu), P(pv), a, b, c, pp, pq);
	in.x = x ? ISA_AddX_X : ISA_AddX_NoX;
	run(sem_IADD3, ALL);
}

START_TEST(test_iadd3_hand)
{
	fill_reg(1, 1);
	fill_reg(2, 2);
	fill_reg(3, 3);
	iadd3(0, 0, 1, R(1), R(2), R(3), NP(7), NP(7), false);
	expect_fill("1+2+3", 0, 6);
	expect_mask("no carry P0", w.p[0], 0);
	expect_mask("no carry P1", w.p[1], 0);

	fill_reg(1, 0xffffffffu);
	fill_reg(2, 0xffffffffu);
	fill_reg(3, 0xffffffffu);
	iadd3(0, 0, 1, R(1), R(2), R(3), NP(7), NP(7), false);
	expect_fill("3 * max", 0, 0xfffffffdu);
	expect_mask("carry 2: Pu", w.p[0], ALL);
	expect_mask("carry 2: Pv", w.p[1], ALL);

	fill_reg(1, 0xffffffffu);
	fill_reg(2, 1);
	fill_reg(3, 0);
	iadd3(0, 0, 1, R(1), R(2), R(3), NP(7), NP(7), false);
	expect_fill("max + 1", 0, 0);
	expect_mask("carry", w.p[0], ALL);
	expect_mask("carry hi", w.p[1], 0);

	/* 10 - 3 + 0: carry out = no borrow */
	fill_reg(1, 10);
	fill_reg(2, 3);
	iadd3(0, 0, 1, R(1), NEG(R(2)), R(3), NP(7), NP(7), false);
	expect_fill("10 - 3", 0, 7);
	expect_mask("no borrow", w.p[0], ALL);
	/* 3 - 10 borrows */
	iadd3(0, 0, 1, R(2), NEG(R(1)), R(3), NP(7), NP(7), false);
	expect_fill("3 - 10", 0, (uint32_t)-7);
	expect_mask("borrow", w.p[0], 0);
	/* x - 0: no borrow */
	iadd3(0, 0, 1, R(2), NEG(R(3)), R(3), NP(7), NP(7), false);
	expect_fill("3 - 0", 0, 3);
	expect_mask("3 - 0 no borrow", w.p[0], ALL);

	/* .X adds Pp and Pq */
	w.p[2] = 0x0000ffffu;
	w.p[3] = 0x00ff00ffu;
	fill_reg(1, 5);
	iadd3(0, 7, 7, R(1), R(3), R(3), P(2), P(3), true);
	for_lanes(l) expect_u32(".X", l, reg(0)[l], 5u + LANE_ON(0x0000ffffu, l) + LANE_ON(0x00ff00ffu, l));
	iadd3(0, 7, 7, R(1), R(3), R(3), NP(2), P(3), true);
	for_lanes(l) expect_u32(".X !Pp", l, reg(0)[l], 5u + !LANE_ON(0x0000ffffu, l) + LANE_ON(0x00ff00ffu, l));
	/* without .X Pp/Pq are ignored */
	iadd3(0, 7, 7, R(1), R(3), R(3), P(2), P(3), false);
	expect_fill("no .X", 0, 5);

	/* immediate B */
	INSN(IADD3_I, R(0), P(7), P(7), R(1), IMM(-7), R(1), NP(7), NP(7));
	run(sem_IADD3, ALL);
	expect_fill("imm", 0, 3);
	/* constant B, negated: 5 - c[0][4] */
	uint32_t c4;
	memcpy(&c4, L.params + 4, 4);
	INSN(IADD3_C, R(0), P(0), P(7), R(1), NEG(CM(0, 4)), R(63), NP(7), NP(7));
	fill_reg(63, 0);
	run(sem_IADD3, ALL);
	expect_fill("5 - c", 0, 5u - c4);
	expect_mask("5 - c borrows", w.p[0], 5u >= c4 ? ALL : 0);
	expect_no_fault();
}
END_TEST

START_TEST(test_iadd3_random)
{
	for (int it = 0; it < 300; it++) {
		rand_reg(10);
		rand_reg(11);
		rand_reg(12);
		rand_reg(13);
		rand_reg(14);
		rand_reg(15);
		bool na = rndn(2), nb = rndn(2), nc = rndn(2);
		xopd a = R(10), b = R(11), c = R(12);
		if (na) a = NEG(a);
		if (nb) b = NEG(b);
		if (nc) c = NEG(c);
		iadd3(20, 0, 1, a, b, c, NP(7), NP(7), false);
		for_lanes(l) {
			uint32_t va = reg(10)[l], vb = reg(11)[l], vc = reg(12)[l];
			uint32_t exp = (na ? 0u - va : va) + (nb ? 0u - vb : vb) + (nc ? 0u - vc : vc);
			expect_u32("IADD3 random", l, reg(20)[l], exp);
			if (!na && !nb && !nc) {
				uint64_t s = (uint64_t)va + vb + vc;
				expect_u32("carry >= 1", l, LANE_ON(w.p[0], l), (s >> 32) >= 1);
				expect_u32("carry >= 2", l, LANE_ON(w.p[1], l), (s >> 32) >= 2);
			}
		}
		/* 64-bit add: R[13:14] = R[10:11] + R[12:13] */
		uint64_t A[XLANES], B[XLANES], C[XLANES];
		for_lanes(l) {
			A[l] = (uint64_t)reg(11)[l] << 32 | reg(10)[l];
			B[l] = (uint64_t)reg(13)[l] << 32 | reg(12)[l];
			C[l] = (uint64_t)reg(15)[l] << 32 | reg(14)[l];
		}
		iadd3(20, 0, 7, R(10), R(12), R(63), NP(7), NP(7), false);
		iadd3(21, 7, 7, R(11), R(13), R(63), P(0), NP(7), true);
		for_lanes(l) {
			uint64_t s = A[l] + B[l];
			expect_u32("add64 lo", l, reg(20)[l], (uint32_t)s);
			expect_u32("add64 hi", l, reg(21)[l], (uint32_t)(s >> 32));
		}
		/* 64-bit subtract: A - B */
		iadd3(20, 0, 7, R(10), NEG(R(12)), R(63), NP(7), NP(7), false);
		iadd3(21, 7, 7, R(11), NEG(R(13)), R(63), P(0), NP(7), true);
		for_lanes(l) {
			uint64_t s = A[l] - B[l];
			expect_u32("sub64 lo", l, reg(20)[l], (uint32_t)s);
			expect_u32("sub64 hi", l, reg(21)[l], (uint32_t)(s >> 32));
		}
		/* 64-bit three-way add: A + B + C with both carry bits */
		iadd3(20, 0, 1, R(10), R(12), R(14), NP(7), NP(7), false);
		iadd3(21, 7, 7, R(11), R(13), R(15), P(0), P(1), true);
		for_lanes(l) {
			uint64_t s = A[l] + B[l] + C[l];
			expect_u32("add3x64 lo", l, reg(20)[l], (uint32_t)s);
			expect_u32("add3x64 hi", l, reg(21)[l], (uint32_t)(s >> 32));
		}
	}
	expect_no_fault();
}
END_TEST

START_TEST(test_imad)
{
	static const int modes[] = { ISA_IMADMode_LO, ISA_IMADMode_HI, ISA_IMADMode_SHL, ISA_IMADMode_MOV };
	for (int it = 0; it < 200; it++) {
		rand_reg(1);
		rand_reg(2);
		rand_reg(3);
		int mode = modes[rndn(4)];
		bool u = rndn(2);
		INSN(IMAD_R, R(0), R(1), R(2), R(3));
		in.mode = mode;
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_IMAD, ALL);
		for_lanes(l) {
			uint32_t a = reg(1)[l], b = reg(2)[l], c = reg(3)[l], exp;
			if (mode == ISA_IMADMode_HI) {
				uint64_t p = u ? (uint64_t)a * b : (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b);
				exp = (uint32_t)(p >> 32) + c;
			} else {
				exp = (uint32_t)((uint64_t)a * b) + c;
			}
			expect_u32("IMAD", l, reg(0)[l], exp);
		}
	}
	fill_reg(1, 7);
	fill_reg(3, 100);
	INSN(IMAD_I, R(0), R(1), IMM(-3), R(3));
	run(sem_IMAD, ALL);
	expect_fill("IMAD imm", 0, 79);
	INSN(IMAD_C, R(0), R(1), CM(0, 0), R(3));
	run(sem_IMAD, ALL);
	uint32_t c0;
	memcpy(&c0, L.params, 4);
	expect_fill("IMAD c", 0, 7 * c0 + 100);
	/* IMAD.HI.U32 of 0xffffffff * 0xffffffff = 0xfffffffe_00000001 */
	fill_reg(1, 0xffffffffu);
	fill_reg(3, 1);
	INSN(IMAD_R, R(0), R(1), R(1), R(3));
	in.mode = ISA_IMADMode_HI;
	in.sign = ISA_Signedness_U32;
	run(sem_IMAD, ALL);
	expect_fill("HI.U32", 0, 0xffffffffu);
	in.sign = ISA_Signedness_S32; /* (-1)*(-1) = 1: high word 0 */
	run(sem_IMAD, ALL);
	expect_fill("HI.S32", 0, 1);
	expect_no_fault();
}
END_TEST

START_TEST(test_imad_wide)
{
	for (int it = 0; it < 200; it++) {
		rand_reg(1);
		rand_reg(2);
		rand_reg(4);
		rand_reg(5);
		bool u = rndn(2);
		uint32_t a[XLANES], b[XLANES];
		uint64_t c[XLANES];
		memcpy(a, reg(1), sizeof a);
		memcpy(b, reg(2), sizeof b);
		for_lanes(l) c[l] = (uint64_t)reg(5)[l] << 32 | reg(4)[l];
		/* half of the time write over the addend (rd == rc) */
		unsigned d = rndn(2) ? 4 : 8;
		INSN(IMAD_WIDE_R, R2(d), R(1), R(2), R2(4));
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_IMAD_WIDE, ALL);
		for_lanes(l) {
			uint64_t p = u ? (uint64_t)a[l] * b[l] : (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]);
			uint64_t r = p + c[l];
			expect_u32("WIDE lo", l, reg(d)[l], (uint32_t)r);
			expect_u32("WIDE hi", l, reg(d + 1)[l], (uint32_t)(r >> 32));
		}
	}
	/* the common address idiom: IMAD.WIDE R2, R0, 4, R2 */
	fill_reg(0, 0xfffffffeu); /* -2 */
	fill_reg(2, 0x00001000u);
	fill_reg(3, 0x00000001u);
	INSN(IMAD_WIDE_I, R2(2), R(0), IMM(4), R2(2));
	run(sem_IMAD_WIDE, ALL);
	expect_fill("idx*4 lo", 2, 0x00000ff8u);
	expect_fill("idx*4 hi", 3, 1);
	fill_reg(2, 0x00001000u);
	fill_reg(3, 0x00000001u);
	INSN(IMAD_WIDE_I, R2(2), R(0), IMM(4), R2(2));
	in.sign = ISA_Signedness_U32;
	run(sem_IMAD_WIDE, ALL);
	expect_fill("U32 lo", 2, 0x00000ff8u);
	expect_fill("U32 hi", 3, 5);
	expect_no_fault();
}
END_TEST

static bool ref_icmp(uint32_t a, uint32_t b, int cmp, bool u)
{
	int64_t x = u ? (int64_t)a : (int64_t)(int32_t)a;
	int64_t y = u ? (int64_t)b : (int64_t)(int32_t)b;
	switch (cmp) {
	case ISA_ICmp_F: return false;
	case ISA_ICmp_LT: return x < y;
	case ISA_ICmp_EQ: return x == y;
	case ISA_ICmp_LE: return x <= y;
	case ISA_ICmp_GT: return x > y;
	case ISA_ICmp_NE: return x != y;
	case ISA_ICmp_GE: return x >= y;
	default: return true;
	}
}

static bool ref_bop(bool a, bool p, int bop)
{
	return bop == ISA_BoolOp_AND ? (a && p) : bop == ISA_BoolOp_OR ? (a || p) : (a != p);
}

START_TEST(test_isetp)
{
	for (int cmp = 0; cmp < 8; cmp++)
		for (int u = 0; u < 2; u++)
			for (int bop = 0; bop < 3; bop++)
				for (int it = 0; it < 12; it++) {
					rand_reg(1);
					for_lanes(l) reg(2)[l] = rndn(3) ? rnd_edge32() : reg(1)[l];
					w.p[3] = rnd32();
					bool pn = rndn(2);
					uint32_t old0 = rnd32(), old1 = rnd32(), pm = rndn(2) ? ALL : rnd32() | 1u;
					w.p[0] = old0;
					w.p[1] = old1;
					INSN(ISETP_R, P(0), P(1), R(1), R(2), pn ? NP(3) : P(3));
					in.cmp = cmp;
					in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
					in.bop = bop;
					run(sem_ISETP, pm);
					for_lanes(l) {
						bool t = ref_icmp(reg(1)[l], reg(2)[l], cmp, u);
						bool p = LANE_ON(w.p[3], l) != pn;
						bool eu = LANE_ON(pm, l) ? ref_bop(t, p, bop) : LANE_ON(old0, l);
						bool ev = LANE_ON(pm, l) ? ref_bop(!t, p, bop) : LANE_ON(old1, l);
						expect_u32("ISETP Pu", l, LANE_ON(w.p[0], l), eu);
						expect_u32("ISETP Pv", l, LANE_ON(w.p[1], l), ev);
					}
				}
	/* immediate and constant B */
	for_lanes(l) reg(1)[l] = l;
	INSN(ISETP_I, P(0), P(7), R(1), IMM(10), P(7));
	in.cmp = ISA_ICmp_LT;
	run(sem_ISETP, ALL);
	expect_mask("lane < 10", w.p[0], 0x3ffu);
	INSN(ISETP_I, P(0), P(7), R(1), IMM(-1), P(7));
	in.cmp = ISA_ICmp_GT;
	run(sem_ISETP, ALL);
	expect_mask("lane > -1 signed", w.p[0], ALL);
	in.sign = ISA_Signedness_U32;
	run(sem_ISETP, ALL);
	expect_mask("lane > 0xffffffff unsigned", w.p[0], 0);
	expect_no_fault();
}
END_TEST

static uint32_t ref_lut(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
	uint32_t r = 0;
	for (unsigned bit = 0; bit < 32; bit++) {
		unsigned idx = ((a >> bit) & 1u) * 4 + ((b >> bit) & 1u) * 2 + ((c >> bit) & 1u);
		r |= ((lut >> idx) & 1u) << bit;
	}
	return r;
}

START_TEST(test_lop3)
{
	for (int it = 0; it < 300; it++) {
		rand_reg(1);
		rand_reg(2);
		rand_reg(3);
		if (it % 5 == 0)
			fill_reg(1, 0);
		unsigned lut = rndn(256);
		INSN(LOP3_LUT_R, P(0), R(0), R(1), R(2), R(3), IMM(lut), NP(7));
		in.lut = (int32_t)lut;
		run(sem_LOP3_LUT, ALL);
		for_lanes(l) {
			uint32_t e = ref_lut(reg(1)[l], reg(2)[l], reg(3)[l], lut);
			expect_u32("LOP3", l, reg(0)[l], e);
			expect_u32("LOP3 Pu", l, LANE_ON(w.p[0], l), e != 0);
		}
	}
	/* named functions: a&b, a|b, a^b, a^b^c, ~a */
	fill_reg(1, 0xf0f0f0f0u);
	fill_reg(2, 0xff00ff00u);
	fill_reg(3, 0xffff0000u);
	static const struct { unsigned lut; uint32_t exp; } named[] = {
		{ 0xc0, 0xf000f000u }, { 0xfc, 0xfff0fff0u }, { 0x3c, 0x0ff00ff0u },
		{ 0x96, 0xf00f0ff0u }, { 0x0f, 0x0f0f0f0fu }, { 0x00, 0 }, { 0xff, ALL },
	};
	for (unsigned k = 0; k < sizeof named / sizeof named[0]; k++) {
		INSN(LOP3_LUT_R, P(7), R(0), R(1), R(2), R(3), IMM(named[k].lut), NP(7));
		in.lut = (int32_t)named[k].lut;
		run(sem_LOP3_LUT, ALL);
		expect_fill("LOP3 named", 0, named[k].exp);
	}
	INSN(LOP3_LUT_I, P(7), R(0), R(1), IMM(0xff), R(3), IMM(0xc0), NP(7));
	in.lut = 0xc0;
	run(sem_LOP3_LUT, ALL);
	expect_fill("LOP3 imm", 0, 0xf0u);
	expect_no_fault();
}
END_TEST

/* SHF reference on 128-bit host integers. */
static uint32_t ref_shf(uint32_t a, uint32_t b, uint32_t c, int dir, int type, int hi, int wrap)
{
	unsigned width = (type == ISA_ShfType_S64 || type == ISA_ShfType_U64) ? 64 : 32;
	unsigned n = wrap ? b % width : (b > width ? width : b);
	bool sgn = type == ISA_ShfType_S32 || type == ISA_ShfType_S64;
	unsigned __int128 v = (unsigned __int128)(((uint64_t)c << 32) | a);
	unsigned __int128 r;
	if (dir == ISA_ShfDir_L)
		r = v << n;
	else if (sgn)
		r = (unsigned __int128)((__int128)(int64_t)(uint64_t)v >> n);
	else
		r = v >> n;
	return (uint32_t)(r >> (hi ? 32 : 0));
}

START_TEST(test_shf)
{
	for (int dir = 0; dir < 2; dir++)
		for (int type = 0; type < 4; type++)
			for (int hi = 0; hi < 2; hi++)
				for (int wrap = 0; wrap < 2; wrap++) {
					rand_reg(1);
					rand_reg(3);
					for_lanes(l) reg(2)[l] = rndn(4) ? rndn(72) : rnd32();
					INSN(SHF_R, R(0), R(1), R(2), R(3));
					in.dir = dir;
					in.type = type;
					in.hi = hi;
					in.wrap = wrap;
					run(sem_SHF, ALL);
					for_lanes(l) {
						uint32_t e = ref_shf(reg(1)[l], reg(2)[l], reg(3)[l], dir, type, hi, wrap);
						if (reg(0)[l] != e)
							ck_abort_msg("SHF dir %d type %d hi %d wrap %d: a %08x b %u c %08x lane %u = %08x expected %08x",
								     dir, type, hi, wrap, reg(1)[l], reg(2)[l], reg(3)[l], l, reg(0)[l], e);
					}
				}
	/* the compiler's idioms */
	fill_reg(1, 0x80000001u);
	INSN(SHF_I, R(0), R(63), IMM(31), R(1)); /* SHF.R.S32.HI Rd, RZ, 0x1f, Ra: sign */
	fill_reg(63, 0);
	in.dir = ISA_ShfDir_R;
	in.type = ISA_ShfType_S32;
	in.hi = ISA_ShfHi_HI;
	run(sem_SHF, ALL);
	expect_fill("sign", 0, ALL);
	INSN(SHF_I, R(0), R(1), IMM(4), R(63)); /* SHF.L.U32 Rd, Ra, 4, RZ */
	in.type = ISA_ShfType_U32;
	run(sem_SHF, ALL);
	expect_fill("shl", 0, 0x00000010u);
	INSN(SHF_I, R(0), R(63), IMM(4), R(1)); /* SHF.R.U32.HI Rd, RZ, 4, Ra */
	in.dir = ISA_ShfDir_R;
	in.type = ISA_ShfType_U32;
	in.hi = ISA_ShfHi_HI;
	run(sem_SHF, ALL);
	expect_fill("shr", 0, 0x08000000u);
	fill_reg(2, 0x12345678u);
	INSN(SHF_I, R(0), R(2), IMM(8), R(1)); /* SHF.L.U64.HI: high word of 64-bit shift */
	in.dir = ISA_ShfDir_L;
	in.type = ISA_ShfType_U64;
	in.hi = ISA_ShfHi_HI;
	run(sem_SHF, ALL);
	expect_fill("shl64 hi", 0, 0x00000112u);
	INSN(SHF_I, R(0), R(2), IMM(40), R(1)); /* clamp 32: (c:a) << 32 -> low 0 */
	in.dir = ISA_ShfDir_L;
	in.type = ISA_ShfType_U32;
	run(sem_SHF, ALL);
	expect_fill("clamp", 0, 0);
	in.wrap = ISA_ShfWrap_W; /* 40 & 31 = 8 */
	run(sem_SHF, ALL);
	expect_fill("wrap", 0, 0x34567800u);
	expect_no_fault();
}
END_TEST

/* The full-mask vector paths (exec.h xv8) against the references and the
 * partial-mask (lane loop) paths: every LOP3 table with no Pu, every
 * uniform SHF count 0..72 in every form, and destinations that are also
 * sources. */
START_TEST(test_vector_paths)
{
	const uint32_t part = 0x7ffffffeu;
	for (unsigned lut = 0; lut < 256; lut++) {
		for (int form = 0; form < 2; form++) {
			rand_reg(1);
			rand_reg(2);
			rand_reg(3);
			uint32_t bimm = rnd32(), a[XLANES], b[XLANES], c[XLANES], old[XLANES];
			memcpy(a, reg(1), sizeof a);
			memcpy(b, reg(2), sizeof b);
			memcpy(c, reg(3), sizeof c);
			for (int mask = 0; mask < 2; mask++) {
				memcpy(reg(1), a, sizeof a);
				rand_reg(0);
				memcpy(old, reg(0), sizeof old);
				/* the destination is A in the register form */
				unsigned d = form ? 0 : 1;
				if (form)
					INSN(LOP3_LUT_I, P(7), R(0), R(1), IMM(bimm), R(3), IMM(lut), NP(7));
				else
					INSN(LOP3_LUT_R, P(7), R(1), R(1), R(2), R(3), IMM(lut), NP(7));
				in.lut = (int32_t)lut;
				uint32_t pm = mask ? part : ALL;
				run(sem_LOP3_LUT, pm);
				for_lanes(l) {
					uint32_t e = ref_lut(a[l], form ? bimm : b[l], c[l], lut);
					if (!LANE_ON(pm, l))
						e = form ? old[l] : a[l];
					if (reg(d)[l] != e)
						ck_abort_msg("LOP3 lut 0x%02x form %d mask %08x lane %u: %08x, expected %08x",
							     lut, form, pm, l, reg(d)[l], e);
				}
			}
		}
	}
	for (int dir = 0; dir < 2; dir++)
		for (int type = 0; type < 4; type++)
			for (int hi = 0; hi < 2; hi++)
				for (int wrap = 0; wrap < 2; wrap++)
					for (uint32_t n = 0; n <= 72; n++) {
						uint32_t b = n == 72 ? 0xffffffe1u : n;
						rand_reg(1);
						rand_reg(3);
						/* some lanes with the sign bit of C set */
						for_lanes(l) if (l & 1) reg(3)[l] |= 0x80000000u;
						uint32_t a[XLANES];
						memcpy(a, reg(1), sizeof a);
						for (int mask = 0; mask < 2; mask++) {
							memcpy(reg(1), a, sizeof a);
							INSN(SHF_I, R(1), R(1), IMM(b), R(3)); /* Rd = Ra */
							in.dir = dir;
							in.type = type;
							in.hi = hi;
							in.wrap = wrap;
							uint32_t pm = mask ? part : ALL;
							run(sem_SHF, pm);
							for_lanes(l) {
								uint32_t e = LANE_ON(pm, l) ? ref_shf(a[l], b, reg(3)[l], dir, type, hi, wrap) : a[l];
								if (reg(1)[l] != e)
									ck_abort_msg("SHF_I dir %d type %d hi %d wrap %d n %u mask %08x lane %u: a %08x c %08x = %08x, expected %08x",
										     dir, type, hi, wrap, b, pm, l, a[l], reg(3)[l], reg(1)[l], e);
							}
						}
					}
	/* IMAD, IADD3, MOV with Rd = Ra and immediates */
	for (int it = 0; it < 50; it++) {
		rand_reg(1);
		rand_reg(3);
		uint32_t a[XLANES], k = rnd32();
		memcpy(a, reg(1), sizeof a);
		INSN(IMAD_I, R(1), R(1), IMM(k), R(3));
		in.mode = ISA_IMADMode_LO;
		run(sem_IMAD, ALL);
		for_lanes(l) expect_u32("IMAD Rd=Ra", l, reg(1)[l], a[l] * k + reg(3)[l]);
		memcpy(reg(1), a, sizeof a);
		INSN(IADD3_I, R(1), P(7), P(7), R(1), IMM(k), R(3), NP(7), NP(7));
		in.x = ISA_AddX_NoX;
		run(sem_IADD3, ALL);
		for_lanes(l) expect_u32("IADD3 Rd=Ra", l, reg(1)[l], a[l] + k + reg(3)[l]);
		INSN(MOV_I, R(1), IMM(k));
		run(sem_MOV, ALL);
		expect_fill("MOV imm", 1, k);
		memcpy(reg(1), a, sizeof a);
		INSN(MOV_R, R(3), R(1));
		run(sem_MOV, ALL);
		for_lanes(l) expect_u32("MOV reg", l, reg(3)[l], a[l]);
	}
	expect_no_fault();
}
END_TEST

START_TEST(test_sel_imnmx)
{
	for (int it = 0; it < 100; it++) {
		rand_reg(1);
		rand_reg(2);
		w.p[2] = rnd32();
		bool pn = rndn(2), u = rndn(2);
		INSN(SEL_R, R(0), R(1), R(2), pn ? NP(2) : P(2));
		run(sem_SEL, ALL);
		for_lanes(l) expect_u32("SEL", l, reg(0)[l], (LANE_ON(w.p[2], l) != pn) ? reg(1)[l] : reg(2)[l]);
		INSN(IMNMX_R, R(0), R(1), R(2), pn ? NP(2) : P(2));
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_IMNMX, ALL);
		for_lanes(l) {
			uint32_t a = reg(1)[l], b = reg(2)[l];
			bool lt = u ? a < b : (int32_t)a < (int32_t)b;
			uint32_t mn = lt ? a : b, mx = lt ? b : a;
			expect_u32("IMNMX", l, reg(0)[l], (LANE_ON(w.p[2], l) != pn) ? mn : mx);
		}
	}
	fill_reg(1, (uint32_t)-5);
	INSN(IMNMX_I, R(0), R(1), IMM(3), P(7));
	run(sem_IMNMX, ALL);
	expect_fill("min s32", 0, (uint32_t)-5);
	in.sign = ISA_Signedness_U32;
	run(sem_IMNMX, ALL);
	expect_fill("min u32", 0, 3);
	INSN(SEL_I, R(0), R(1), IMM(9), NP(7));
	run(sem_SEL, ALL);
	expect_fill("SEL !PT", 0, 9);
	expect_no_fault();
}
END_TEST

START_TEST(test_unary_bits)
{
	for (int it = 0; it < 100; it++) {
		rand_reg(1);
		INSN(IABS_R, R(0), R(1));
		run(sem_IABS, ALL);
		for_lanes(l) {
			int64_t v = (int32_t)reg(1)[l];
			expect_u32("IABS", l, reg(0)[l], (uint32_t)(v < 0 ? -v : v));
		}
		INSN(POPC_R, R(0), R(1));
		run(sem_POPC, ALL);
		for_lanes(l) {
			uint32_t n = 0;
			for (unsigned bit = 0; bit < 32; bit++)
				n += (reg(1)[l] >> bit) & 1u;
			expect_u32("POPC", l, reg(0)[l], n);
		}
		INSN(BREV_R, R(0), R(1));
		run(sem_BREV, ALL);
		for_lanes(l) {
			uint32_t r = 0;
			for (unsigned bit = 0; bit < 32; bit++)
				r |= ((reg(1)[l] >> bit) & 1u) << (31 - bit);
			expect_u32("BREV", l, reg(0)[l], r);
		}
		for (int sgn = 0; sgn < 2; sgn++)
			for (int sh = 0; sh < 2; sh++) {
				INSN(FLO_R, R(0), R(1));
				in.sign = sgn ? ISA_Signedness_S32 : ISA_Signedness_U32;
				in.sh = sh ? ISA_FloShift_SH : ISA_FloShift_NoSH;
				run(sem_FLO, ALL);
				for_lanes(l) {
					uint32_t v = reg(1)[l];
					uint32_t signbit = v >> 31;
					int pos = -1;
					for (int bit = 31; bit >= 0; bit--) {
						uint32_t b = (v >> bit) & 1u;
						if (sgn ? b != signbit : b) {
							pos = bit;
							break;
						}
					}
					uint32_t e = pos < 0 ? 0xffffffffu : sh ? 31u - (uint32_t)pos : (uint32_t)pos;
					expect_u32("FLO", l, reg(0)[l], e);
				}
			}
	}
	INSN(IABS_I, R(0), IMM(INT32_MIN));
	run(sem_IABS, ALL);
	expect_fill("|INT_MIN|", 0, 0x80000000u);
	INSN(POPC_I, R(0), IMM(0xff));
	run(sem_POPC, ALL);
	expect_fill("POPC imm", 0, 8);
	INSN(FLO_I, R(0), IMM(0));
	in.sign = ISA_Signedness_U32;
	run(sem_FLO, ALL);
	expect_fill("FLO 0", 0, 0xffffffffu);
	INSN(FLO_I, R(0), IMM(0x10000));
	in.sign = ISA_Signedness_U32;
	run(sem_FLO, ALL);
	expect_fill("FLO 0x10000", 0, 16);
	in.sh = ISA_FloShift_SH;
	run(sem_FLO, ALL);
	expect_fill("FLO.SH 0x10000", 0, 15);
	INSN(FLO_I, R(0), IMM(-1));
	run(sem_FLO, ALL); /* S32, -1: no bit differs from the sign */
	expect_fill("FLO -1", 0, 0xffffffffu);
	INSN(FLO_I, R(0), IMM(-2));
	run(sem_FLO, ALL);
	expect_fill("FLO -2", 0, 0);
	INSN(BREV_I, R(0), IMM(1));
	run(sem_BREV, ALL);
	expect_fill("BREV 1", 0, 0x80000000u);
	expect_no_fault();
}
END_TEST

static uint32_t ref_prmt(uint32_t a, uint32_t sel, uint32_t c)
{
	uint8_t bytes[8];
	for (unsigned k = 0; k < 4; k++) {
		bytes[k] = (uint8_t)(a >> (8 * k));
		bytes[k + 4] = (uint8_t)(c >> (8 * k));
	}
	uint32_t r = 0;
	for (unsigned k = 0; k < 4; k++) {
		unsigned nib = (sel >> (4 * k)) & 15u;
		uint8_t b = bytes[nib & 7u];
		if (nib & 8u)
			b = (b & 0x80u) ? 0xff : 0x00;
		r |= (uint32_t)b << (8 * k);
	}
	return r;
}

START_TEST(test_prmt)
{
	fill_reg(1, 0x44332211u);
	fill_reg(3, 0x88776655u);
	static const struct { uint32_t sel, exp; } hand[] = {
		{ 0x3210, 0x44332211u }, { 0x7654, 0x88776655u }, { 0x0123, 0x11223344u },
		{ 0x5410, 0x66552211u }, { 0x7610, 0x88772211u }, { 0x8880, 0x00000011u },
		{ 0xfff7, 0xffffff88u }, { 0x4444, 0x55555555u },
	};
	for (unsigned k = 0; k < sizeof hand / sizeof hand[0]; k++) {
		INSN(PRMT_I, R(0), R(1), IMM(hand[k].sel), R(3));
		run(sem_PRMT, ALL);
		expect_fill("PRMT hand", 0, hand[k].exp);
	}
	for (int it = 0; it < 200; it++) {
		rand_reg(1);
		rand_reg(2);
		rand_reg(3);
		INSN(PRMT_R, R(0), R(1), R(2), R(3));
		run(sem_PRMT, ALL);
		for_lanes(l) expect_u32("PRMT", l, reg(0)[l], ref_prmt(reg(1)[l], reg(2)[l], reg(3)[l]));
	}
	expect_no_fault();
}
END_TEST

START_TEST(test_lea)
{
	/* &base[idx] for a signed 32-bit idx and element size 1 << s:
	 *   LEA      Rlo, P0, Ridx, Rbase_lo, s
	 *   LEA.HI.X Rhi, Ridx, Rbase_hi, Ridx_hi, s, P0     (Ridx_hi = sign) */
	for (int it = 0; it < 300; it++) {
		unsigned s = rndn(32);
		rand_reg(1);                      /* idx */
		for_lanes(l) reg(2)[l] = (uint32_t)((int32_t)reg(1)[l] >> 31);
		rand_reg(4);                      /* base lo */
		rand_reg(5);                      /* base hi */
		INSN(LEA_R, R(10), P(0), R(1), R(4), R(63), IMM(s), NP(7));
		in.shift = (int32_t)s;
		run(sem_LEA, ALL);
		INSN(LEA_R, R(11), P(7), R(1), R(5), R(2), IMM(s), P(0));
		in.shift = (int32_t)s;
		in.hi = ISA_ShfHi_HI;
		in.x = ISA_AddX_X;
		run(sem_LEA, ALL);
		for_lanes(l) {
			uint64_t base = (uint64_t)reg(5)[l] << 32 | reg(4)[l];
			uint64_t idx = (uint64_t)(int64_t)(int32_t)reg(1)[l];
			uint64_t e = base + (idx << s);
			expect_u32("LEA lo", l, reg(10)[l], (uint32_t)e);
			expect_u32("LEA hi", l, reg(11)[l], (uint32_t)(e >> 32));
			uint64_t lo = (uint64_t)reg(4)[l] + (uint32_t)(reg(1)[l] << s);
			expect_u32("LEA carry", l, LANE_ON(w.p[0], l), (uint32_t)(lo >> 32));
		}
	}
	/* LEA.HI without .X: B + bits 63..32 of (Rc:Ra) << s */
	fill_reg(1, 0xc0000000u);
	fill_reg(2, 0x1u);
	fill_reg(3, 10);
	INSN(LEA_R, R(0), P(7), R(1), R(3), R(2), IMM(2), P(7));
	in.shift = 2;
	in.hi = ISA_ShfHi_HI;
	run(sem_LEA, ALL);
	expect_fill("LEA.HI", 0, 10 + 7);
	INSN(LEA_I, R(0), P(1), R(3), IMM(0x100), R(63), IMM(4), NP(7));
	in.shift = 4;
	run(sem_LEA, ALL);
	expect_fill("LEA imm", 0, 0x100 + 160);
	expect_mask("LEA no carry", w.p[1], 0);
	expect_no_fault();
}
END_TEST

START_TEST(test_p2r_r2p)
{
	for (unsigned p = 0; p < 7; p++)
		w.p[p] = rnd32();
	uint32_t saved[7];
	memcpy(saved, w.p, sizeof saved);
	fill_reg(1, 0xabcdef00u);
	INSN(P2R_I, R(0), ENUMV(ISA_PRName_PR), R(1), IMM(0x7f));
	in.mask = 0x7f;
	run(sem_P2R, ALL);
	for_lanes(l) {
		uint32_t pw = 0;
		for (unsigned p = 0; p < 7; p++)
			pw |= LANE_ON(saved[p], l) << p;
		expect_u32("P2R", l, reg(0)[l], 0xabcdef00u | pw);
	}
	/* a partial mask keeps Ra's other bits */
	INSN(P2R_I, R(2), ENUMV(ISA_PRName_PR), R(1), IMM(0x05));
	in.mask = 0x05;
	run(sem_P2R, ALL);
	for_lanes(l) expect_u32("P2R mask", l, reg(2)[l],
				(0xabcdef00u & ~5u) | LANE_ON(saved[0], l) | LANE_ON(saved[2], l) << 2);
	/* R2P restores them */
	for (unsigned p = 0; p < 7; p++)
		w.p[p] = 0;
	INSN(R2P_I, ENUMV(ISA_PRName_PR), R(0), IMM(0x7f));
	in.mask = 0x7f;
	run(sem_R2P, ALL);
	for (unsigned p = 0; p < 7; p++)
		expect_mask("R2P", w.p[p], saved[p]);
	expect_mask("PT untouched", w.p[7], ALL);
	/* only masked predicates, only executing lanes */
	for (unsigned p = 0; p < 7; p++)
		w.p[p] = 0;
	fill_reg(3, 0xff);
	INSN(R2P_I, ENUMV(ISA_PRName_PR), R(3), IMM(0x12));
	in.mask = 0x12;
	run(sem_R2P, 0x0000ffffu);
	for (unsigned p = 0; p < 7; p++)
		expect_mask("R2P partial", w.p[p], (p == 1 || p == 4) ? 0x0000ffffu : 0);
	expect_no_fault();
}
END_TEST

/* ======================================================================== */
/* FPU                                                                       */
/* ======================================================================== */

static uint32_t canon(float f) { return isnan(f) ? 0x7fffffffu : f2u(f); }

static uint32_t rnd_float_bits(void)
{
	static const uint32_t special[] = {
		0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
		0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x00000001u, 0x807fffffu, 0x7f7fffffu,
		0x4b800000u, 0xcf000000u, 0x4f800000u,
	};
	switch (rndn(6)) {
	case 0: return special[rndn(sizeof special / sizeof special[0])];
	case 1: return rnd32();
	default: { /* a moderate float */
		float f = (float)((double)(int32_t)rnd32() / (double)(1u << rndn(31)));
		return f2u(f);
	}
	}
}

static void rand_freg(unsigned r)
{
	for_lanes(l) reg(r)[l] = rnd_float_bits();
}

static uint32_t fmod_bits(uint32_t v, bool neg, bool abs_)
{
	if (abs_)
		v &= 0x7fffffffu;
	if (neg)
		v ^= 0x80000000u;
	return v;
}

START_TEST(test_farith)
{
	for (int it = 0; it < 300; it++) {
		rand_freg(1);
		rand_freg(2);
		rand_freg(3);
		bool na = rndn(2), aa = rndn(2), nb = rndn(2), ab = rndn(2), nc = rndn(2);
		xopd a = R(1), b = R(2), c = R(3);
		if (na) a = NEG(a);
		if (aa) a = ABS(a);
		if (nb) b = NEG(b);
		if (ab) b = ABS(b);
		if (nc) c = NEG(c);
		uint32_t A[XLANES], B[XLANES], C[XLANES];
		for_lanes(l) {
			A[l] = fmod_bits(reg(1)[l], na, aa);
			B[l] = fmod_bits(reg(2)[l], nb, ab);
			C[l] = fmod_bits(reg(3)[l], nc, false);
		}
		INSN(FADD_R, R(0), a, b);
		run(sem_FADD, ALL);
		for_lanes(l) expect_u32("FADD", l, reg(0)[l], canon(u2f(A[l]) + u2f(B[l])));
		INSN(FMUL_R, R(0), a, b);
		run(sem_FMUL, ALL);
		for_lanes(l) expect_u32("FMUL", l, reg(0)[l], canon(u2f(A[l]) * u2f(B[l])));
		INSN(FFMA_R, R(0), a, b, c);
		run(sem_FFMA, ALL);
		for_lanes(l) expect_u32("FFMA", l, reg(0)[l], canon(fmaf(u2f(A[l]), u2f(B[l]), u2f(C[l]))));
	}
	/* FFMA rounds once: (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 fused, 0 when
	 * the product is rounded first */
	fill_reg(1, f2u(1.0f + 0x1p-12f));
	fill_reg(3, f2u(-(1.0f + 0x1p-11f)));
	INSN(FFMA_R, R(0), R(1), R(1), R(3));
	run(sem_FFMA, ALL);
	expect_fill("FFMA fused", 0, f2u(0x1p-24f));
	/* hand values */
	fill_reg(1, f2u(1.5f));
	INSN(FADD_I, R(0), R(1), FIMM(2.25f));
	run(sem_FADD, ALL);
	expect_fill("1.5 + 2.25", 0, f2u(3.75f));
	INSN(FADD_I, R(0), NEG(R(1)), FIMM(1.0f));
	run(sem_FADD, ALL);
	expect_fill("-1.5 + 1", 0, f2u(-0.5f));
	INSN(FMUL_I, R(0), R(1), FIMM(-4.0f));
	run(sem_FMUL, ALL);
	expect_fill("1.5 * -4", 0, f2u(-6.0f));
	float cf;
	memcpy(&cf, L.params + 16, 4);
	INSN(FMUL_C, R(0), R(1), CM(0, 16));
	run(sem_FMUL, ALL);
	expect_fill("FMUL c", 0, canon(1.5f * cf));
	/* single rounding: (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly with FMA */
	float t = 1.0f + 0x1p-12f;
	fill_reg(1, f2u(t));
	fill_reg(3, f2u(-(1.0f + 0x1p-11f)));
	INSN(FFMA_R, R(0), R(1), R(1), R(3));
	run(sem_FFMA, ALL);
	expect_fill("FFMA single rounding", 0, f2u(0x1p-24f));
	/* NaN results are canonical */
	fill_reg(1, 0x7f800000u);
	fill_reg(2, 0xff800000u);
	INSN(FADD_R, R(0), R(1), R(2));
	run(sem_FADD, ALL);
	expect_fill("inf - inf", 0, 0x7fffffffu);
	fill_reg(1, 0xffc12345u);
	INSN(FMUL_R, R(0), R(1), R(1));
	run(sem_FMUL, ALL);
	expect_fill("NaN propagates canonical", 0, 0x7fffffffu);
	/* denormals are kept */
	fill_reg(1, 0x00000001u);
	INSN(FADD_R, R(0), R(1), R(1));
	run(sem_FADD, ALL);
	expect_fill("denormal", 0, 0x00000002u);
	expect_no_fault();
}
END_TEST

static bool ref_fcmp(float a, float b, int cmp)
{
	bool un = isnan(a) || isnan(b);
	switch (cmp) {
	case ISA_FCmp_F: return false;
	case ISA_FCmp_LT: return !un && a < b;
	case ISA_FCmp_EQ: return !un && a == b;
	case ISA_FCmp_LE: return !un && a <= b;
	case ISA_FCmp_GT: return !un && a > b;
	case ISA_FCmp_NE: return !un && a != b;
	case ISA_FCmp_GE: return !un && a >= b;
	case ISA_FCmp_NUM: return !un;
	case ISA_FCmp_NAN: return un;
	case ISA_FCmp_LTU: return un || a < b;
	case ISA_FCmp_EQU: return un || a == b;
	case ISA_FCmp_LEU: return un || a <= b;
	case ISA_FCmp_GTU: return un || a > b;
	case ISA_FCmp_NEU: return un || a != b;
	case ISA_FCmp_GEU: return un || a >= b;
	default: return true;
	}
}

START_TEST(test_fsetp)
{
	for (int cmp = 0; cmp < 16; cmp++)
		for (int bop = 0; bop < 3; bop++)
			for (int it = 0; it < 8; it++) {
				rand_freg(1);
				for_lanes(l) reg(2)[l] = rndn(3) ? rnd_float_bits() : reg(1)[l];
				bool na = rndn(2), ab = rndn(2), pn = rndn(2);
				xopd a = R(1), b = R(2);
				if (na) a = NEG(a);
				if (ab) b = ABS(b);
				w.p[4] = rnd32();
				INSN(FSETP_R, P(0), P(1), a, b, pn ? NP(4) : P(4));
				in.cmp = cmp;
				in.bop = bop;
				run(sem_FSETP, ALL);
				for_lanes(l) {
					float fa = u2f(fmod_bits(reg(1)[l], na, false));
					float fb = u2f(fmod_bits(reg(2)[l], false, ab));
					bool t = ref_fcmp(fa, fb, cmp);
					bool p = LANE_ON(w.p[4], l) != pn;
					expect_u32("FSETP Pu", l, LANE_ON(w.p[0], l), ref_bop(t, p, bop));
					expect_u32("FSETP Pv", l, LANE_ON(w.p[1], l), ref_bop(!t, p, bop));
				}
			}
	/* NaN: ordered false, unordered true; NE vs NEU */
	fill_reg(1, 0x7fc00000u);
	INSN(FSETP_I, P(0), P(1), R(1), FIMM(1.0f), P(7));
	in.cmp = ISA_FCmp_NE;
	run(sem_FSETP, ALL);
	expect_mask("NaN NE", w.p[0], 0);
	expect_mask("NaN !NE", w.p[1], ALL);
	in.cmp = ISA_FCmp_NEU;
	run(sem_FSETP, ALL);
	expect_mask("NaN NEU", w.p[0], ALL);
	fill_reg(1, 0x80000000u);
	INSN(FSETP_I, P(0), P(1), R(1), FIMM(0.0f), P(7));
	in.cmp = ISA_FCmp_EQ;
	run(sem_FSETP, ALL);
	expect_mask("-0 == 0", w.p[0], ALL);
	expect_no_fault();
}
END_TEST

START_TEST(test_fmnmx)
{
	static const struct { float a, b; uint32_t mn, mx; } hand[] = {
		{ 1.0f, 2.0f, 0x3f800000u, 0x40000000u },
		{ -0.0f, 0.0f, 0x80000000u, 0x00000000u },
		{ 0.0f, -0.0f, 0x80000000u, 0x00000000u },
		{ NAN, 3.0f, 0x40400000u, 0x40400000u },
		{ 3.0f, NAN, 0x40400000u, 0x40400000u },
		{ NAN, NAN, 0x7fffffffu, 0x7fffffffu },
		{ -INFINITY, 5.0f, 0xff800000u, 0x40a00000u },
	};
	for (unsigned k = 0; k < sizeof hand / sizeof hand[0]; k++) {
		fill_reg(1, f2u(hand[k].a));
		fill_reg(2, f2u(hand[k].b));
		INSN(FMNMX_R, R(0), R(1), R(2), P(7));
		run(sem_FMNMX, ALL);
		expect_fill("FMNMX min", 0, hand[k].mn);
		INSN(FMNMX_R, R(0), R(1), R(2), NP(7));
		run(sem_FMNMX, ALL);
		expect_fill("FMNMX max", 0, hand[k].mx);
	}
	for (int it = 0; it < 200; it++) {
		rand_freg(1);
		rand_freg(2);
		w.p[3] = rnd32();
		INSN(FMNMX_R, R(0), NEG(R(1)), R(2), P(3));
		run(sem_FMNMX, ALL);
		for_lanes(l) {
			float a = -u2f(reg(1)[l]), b = u2f(reg(2)[l]);
			bool mn = LANE_ON(w.p[3], l);
			/* PTX min/max: a NaN operand (quiet or signalling) yields the other */
			float r = isnan(a) ? b : isnan(b) ? a : mn ? fminf(a, b) : fmaxf(a, b);
			uint32_t e = isnan(a) && !isnan(b) ? reg(2)[l] : isnan(b) && !isnan(a) ? f2u(a) : canon(r);
			if (a == 0.0f && b == 0.0f)
				e = mn ? (f2u(a) | f2u(b)) : (f2u(a) & f2u(b));
			expect_u32("FMNMX random", l, reg(0)[l], e);
		}
	}
	INSN(FMNMX_I, R(0), R(1), FIMM(0.5f), P(7));
	fill_reg(1, f2u(0.25f));
	run(sem_FMNMX, ALL);
	expect_fill("FMNMX imm", 0, f2u(0.25f));
	expect_no_fault();
}
END_TEST

/* |a - b| in units in the last place of b (both finite floats). */
static uint32_t ulp_diff(float a, float b)
{
	int32_t ia = (int32_t)f2u(a), ib = (int32_t)f2u(b);
	if (ia < 0)
		ia = (int32_t)0x80000000 - ia;
	if (ib < 0)
		ib = (int32_t)0x80000000 - ib;
	int64_t d = (int64_t)ia - ib;
	return (uint32_t)(d < 0 ? -d : d);
}

START_TEST(test_mufu)
{
	static const int funcs[] = { ISA_MufuOp_RCP, ISA_MufuOp_RSQ, ISA_MufuOp_SQRT, ISA_MufuOp_EX2,
				     ISA_MufuOp_LG2, ISA_MufuOp_SIN, ISA_MufuOp_COS };
	for (unsigned fi = 0; fi < 7; fi++)
		for (int it = 0; it < 40; it++) {
			int func = funcs[fi];
			for_lanes(l) {
				float v;
				switch (func) {
				case ISA_MufuOp_EX2: v = (float)((int32_t)rnd32() / 2147483648.0 * 140.0); break;
				case ISA_MufuOp_SIN:
				case ISA_MufuOp_COS: v = (float)((int32_t)rnd32() / 2147483648.0 * 100.0); break;
				case ISA_MufuOp_RSQ:
				case ISA_MufuOp_SQRT:
				case ISA_MufuOp_LG2: v = u2f(rnd32() & 0x7f7fffffu); break;
				default: v = u2f(rnd32() & 0xff7fffffu); break;
				}
				reg(1)[l] = f2u(v);
			}
			INSN(MUFU_R, R(0), R(1));
			in.func = func;
			run(sem_MUFU, ALL);
			for_lanes(l) {
				float v = u2f(reg(1)[l]), e;
				switch (func) {
				case ISA_MufuOp_RCP: e = 1.0f / v; break;
				case ISA_MufuOp_RSQ: e = (float)(1.0 / sqrt((double)v)); break;
				case ISA_MufuOp_SQRT: e = sqrtf(v); break;
				case ISA_MufuOp_EX2: e = exp2f(v); break;
				case ISA_MufuOp_LG2: e = log2f(v); break;
				case ISA_MufuOp_SIN: e = sinf(v); break;
				default: e = cosf(v); break;
				}
				float got = u2f(reg(0)[l]);
				if (isinf(e) || e == 0.0f) {
					if (f2u(got) != f2u(e))
						ck_abort_msg("MUFU %d(%a) = %a, expected %a", func, (double)v, (double)got, (double)e);
				} else if (ulp_diff(got, e) > 1) {
					ck_abort_msg("MUFU %d(%a) = %a, expected %a within 1 ulp", func, (double)v,
						     (double)got, (double)e);
				}
			}
		}
	static const struct { int func; float in; uint32_t out; } special[] = {
		{ ISA_MufuOp_RCP, 0.0f, 0x7f800000u },  { ISA_MufuOp_RCP, -0.0f, 0xff800000u },
		{ ISA_MufuOp_RCP, 4.0f, 0x3e800000u },  { ISA_MufuOp_RSQ, 4.0f, 0x3f000000u },
		{ ISA_MufuOp_RSQ, -0.0f, 0xff800000u }, { ISA_MufuOp_RSQ, -1.0f, 0x7fffffffu },
		{ ISA_MufuOp_SQRT, 16.0f, 0x40800000u }, { ISA_MufuOp_SQRT, -1.0f, 0x7fffffffu },
		{ ISA_MufuOp_EX2, 10.0f, 0x44800000u }, { ISA_MufuOp_EX2, -INFINITY, 0 },
		{ ISA_MufuOp_EX2, 200.0f, 0x7f800000u }, { ISA_MufuOp_LG2, 8.0f, 0x40400000u },
		{ ISA_MufuOp_LG2, 0.0f, 0xff800000u },  { ISA_MufuOp_LG2, -2.0f, 0x7fffffffu },
		{ ISA_MufuOp_SIN, 0.0f, 0 },            { ISA_MufuOp_COS, 0.0f, 0x3f800000u },
		{ ISA_MufuOp_SIN, INFINITY, 0x7fffffffu },
	};
	for (unsigned k = 0; k < sizeof special / sizeof special[0]; k++) {
		fill_reg(1, f2u(special[k].in));
		INSN(MUFU_R, R(0), R(1));
		in.func = special[k].func;
		run(sem_MUFU, ALL);
		expect_fill("MUFU special", 0, special[k].out);
	}
	/* |x| and -x modifiers: RCP(-|-2|) = -0.5 */
	fill_reg(1, f2u(-2.0f));
	INSN(MUFU_R, R(0), NEG(ABS(R(1))));
	in.func = ISA_MufuOp_RCP;
	run(sem_MUFU, ALL);
	expect_fill("MUFU -|x|", 0, f2u(-0.5f));
	expect_no_fault();
}
END_TEST

START_TEST(test_i2f)
{
	static const struct { uint32_t v; bool u; float f; } hand[] = {
		{ 0, false, 0.0f }, { 1, false, 1.0f }, { (uint32_t)-1, false, -1.0f },
		{ (uint32_t)-1, true, 4294967296.0f }, { 16777217u, false, 16777216.0f },
		{ 16777219u, false, 16777220.0f }, { 0x80000000u, false, -2147483648.0f },
		{ 0x80000000u, true, 2147483648.0f }, { 0x7fffffffu, false, 2147483648.0f },
	};
	for (unsigned k = 0; k < sizeof hand / sizeof hand[0]; k++) {
		INSN(I2F_I, R(0), IMM((int64_t)(int32_t)hand[k].v));
		in.sign = hand[k].u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_I2F, ALL);
		expect_fill("I2F hand", 0, f2u(hand[k].f));
	}
	for (int it = 0; it < 100; it++) {
		rand_reg(1);
		bool u = rndn(2);
		INSN(I2F_R, R(0), R(1));
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_I2F, ALL);
		for_lanes(l) {
			/* via double (exact) then float: one rounding */
			double d = u ? (double)reg(1)[l] : (double)(int32_t)reg(1)[l];
			expect_u32("I2F", l, reg(0)[l], f2u((float)d));
		}
	}
	expect_no_fault();
}
END_TEST

static uint32_t ref_f2i(float f, int rnd, bool u)
{
	if (isnan(f))
		return 0;
	long double d = f;
	long double r;
	switch (rnd) {
	case ISA_F2IRound_RN: {
		r = floorl(d);
		long double frac = d - r;
		if (frac > 0.5L || (frac == 0.5L && fmodl(r, 2.0L) != 0))
			r += 1;
		break;
	}
	case ISA_F2IRound_FLOOR: r = floorl(d); break;
	case ISA_F2IRound_CEIL: r = ceill(d); break;
	default: r = truncl(d); break;
	}
	if (u) {
		if (r < 0)
			return 0;
		if (r > 4294967295.0L)
			return 0xffffffffu;
		return (uint32_t)r;
	}
	if (r < -2147483648.0L)
		return 0x80000000u;
	if (r > 2147483647.0L)
		return 0x7fffffffu;
	return (uint32_t)(int32_t)r;
}

START_TEST(test_f2i)
{
	static const struct { float f; int rnd; bool u; uint32_t r; } hand[] = {
		{ 2.5f, ISA_F2IRound_TRUNC, false, 2 },     { -2.5f, ISA_F2IRound_TRUNC, false, (uint32_t)-2 },
		{ 2.5f, ISA_F2IRound_RN, false, 2 },        { 3.5f, ISA_F2IRound_RN, false, 4 },
		{ -2.5f, ISA_F2IRound_RN, false, (uint32_t)-2 }, { -2.5f, ISA_F2IRound_FLOOR, false, (uint32_t)-3 },
		{ -2.5f, ISA_F2IRound_CEIL, false, (uint32_t)-2 }, { 2.1f, ISA_F2IRound_CEIL, false, 3 },
		{ 3e9f, ISA_F2IRound_TRUNC, false, 0x7fffffffu }, { -3e9f, ISA_F2IRound_TRUNC, false, 0x80000000u },
		{ 3e9f, ISA_F2IRound_TRUNC, true, 3000000000u }, { 5e9f, ISA_F2IRound_TRUNC, true, 0xffffffffu },
		{ -1.0f, ISA_F2IRound_TRUNC, true, 0 },    { -0.5f, ISA_F2IRound_TRUNC, true, 0 },
		{ INFINITY, ISA_F2IRound_TRUNC, false, 0x7fffffffu }, { -INFINITY, ISA_F2IRound_TRUNC, false, 0x80000000u },
		{ NAN, ISA_F2IRound_TRUNC, false, 0 },     { NAN, ISA_F2IRound_RN, true, 0 },
		{ 2147483648.0f, ISA_F2IRound_TRUNC, false, 0x7fffffffu },
		{ -2147483648.0f, ISA_F2IRound_TRUNC, false, 0x80000000u },
		{ 4294967296.0f, ISA_F2IRound_TRUNC, true, 0xffffffffu },
	};
	for (unsigned k = 0; k < sizeof hand / sizeof hand[0]; k++) {
		fill_reg(1, f2u(hand[k].f));
		INSN(F2I_R, R(0), R(1));
		in.rnd = hand[k].rnd;
		in.sign = hand[k].u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_F2I, ALL);
		if (reg(0)[0] != hand[k].r)
			ck_abort_msg("F2I #%u (%a rnd %d u %d) = 0x%08x, expected 0x%08x", k, (double)hand[k].f,
				     hand[k].rnd, hand[k].u, reg(0)[0], hand[k].r);
	}
	for (int it = 0; it < 200; it++) {
		for_lanes(l) {
			if (rndn(2))
				reg(1)[l] = rnd_float_bits();
			else /* halves and near-integers near the limits */
				reg(1)[l] = f2u((float)((int32_t)rnd32() / (double)(1u << rndn(8))) * (rndn(4) ? 1.0f : 4.0f));
		}
		int rnd = (int)rndn(4);
		bool u = rndn(2);
		INSN(F2I_R, R(0), R(1));
		in.rnd = rnd;
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		run(sem_F2I, ALL);
		for_lanes(l) {
			uint32_t e = ref_f2i(u2f(reg(1)[l]), rnd, u);
			if (reg(0)[l] != e)
				ck_abort_msg("F2I(%a rnd %d u %d) = 0x%08x, expected 0x%08x", (double)u2f(reg(1)[l]), rnd,
					     u, reg(0)[l], e);
		}
	}
	expect_no_fault();
}
END_TEST

/* ======================================================================== */
/* special registers, warp-wide operations, uniform datapath                 */
/* ======================================================================== */

START_TEST(test_s2r)
{
	L.block = (we_dim3){ 8, 4, 3 }; /* 96 threads, 3 warps */
	cta.nwarps = 3;
	cta.ctaid[0] = 4;
	cta.ctaid[1] = 2;
	cta.ctaid[2] = 1;
	w.clock = 0x123456789abcull;
	w.id = 1;
	INSN(S2R_X, R(0), ENUMV(ISA_SReg_SR_LANEID));
	in.sr = ISA_SReg_SR_LANEID;
	run(sem_S2R, ALL);
	for_lanes(l) expect_u32("laneid", l, reg(0)[l], l);
	for (int d = 0; d < 3; d++) {
		int sr = ISA_SReg_SR_TID_X + d;
		INSN(S2R_X, R(0), ENUMV(sr));
		in.sr = sr;
		run(sem_S2R, ALL);
		for_lanes(l) {
			uint32_t t = 32 + l;
			uint32_t e = d == 0 ? t % 8 : d == 1 ? (t / 8) % 4 : t / 32;
			expect_u32("tid", l, reg(0)[l], e);
		}
	}
	/* odd shapes, every warp: the division-free count against t % bx ... */
	static const we_dim3 shapes[] = { { 5, 3, 7 }, { 33, 1, 1 }, { 1, 1, 64 }, { 7, 9, 2 }, { 1024, 1, 1 }, { 3, 1, 5 } };
	for (unsigned sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
		L.block = shapes[sh];
		const uint32_t n = shapes[sh].x * shapes[sh].y * shapes[sh].z;
		for (uint32_t wi = 0; wi < (n + 31) / 32; wi++) {
			w.id = wi;
			for (int d = 0; d < 3; d++) {
				int sr = ISA_SReg_SR_TID_X + d;
				INSN(S2R_X, R(0), ENUMV(sr));
				in.sr = sr;
				run(sem_S2R, ALL);
				const uint32_t bx = shapes[sh].x, by = shapes[sh].y;
				for_lanes(l) {
					uint32_t t = wi * 32 + l;
					uint32_t e = d == 0 ? t % bx : d == 1 ? (t / bx) % by : t / (bx * by);
					expect_u32("tid (shapes)", l, reg(0)[l], e);
				}
			}
		}
	}
	L.block = (we_dim3){ 8, 4, 3 };
	w.id = 1;
	static const struct { int sr; uint32_t v; } uni[] = {
		{ ISA_SReg_SR_CTAID_X, 4 }, { ISA_SReg_SR_CTAID_Y, 2 }, { ISA_SReg_SR_CTAID_Z, 1 },
		{ ISA_SReg_SR_NTID_X, 8 },  { ISA_SReg_SR_NTID_Y, 4 },  { ISA_SReg_SR_NTID_Z, 3 },
		{ ISA_SReg_SR_NCTAID_X, 5 }, { ISA_SReg_SR_NCTAID_Y, 3 }, { ISA_SReg_SR_NCTAID_Z, 2 },
		{ ISA_SReg_SR_WARPID, 1 },  { ISA_SReg_SR_NWARPS, 3 },
		{ ISA_SReg_SR_CLOCKLO, 0x56789abcu }, { ISA_SReg_SR_CLOCKHI, 0x1234u },
		{ ISA_SReg_SR_GLOBALTIMERLO, 0x56789abcu }, { ISA_SReg_SR_GLOBALTIMERHI, 0x1234u },
		{ ISA_SReg_SRZ, 0 },
	};
	for (unsigned k = 0; k < sizeof uni / sizeof uni[0]; k++) {
		INSN(S2R_X, R(0), ENUMV(uni[k].sr));
		in.sr = uni[k].sr;
		run(sem_S2R, ALL);
		expect_fill("S2R uniform", 0, uni[k].v);
	}
	static const int masks[] = { ISA_SReg_SR_EQMASK, ISA_SReg_SR_LTMASK, ISA_SReg_SR_LEMASK,
				     ISA_SReg_SR_GTMASK, ISA_SReg_SR_GEMASK };
	for (unsigned k = 0; k < 5; k++) {
		INSN(S2R_X, R(0), ENUMV(masks[k]));
		in.sr = masks[k];
		run(sem_S2R, ALL);
		for_lanes(l) {
			uint32_t e = 0;
			for (unsigned j = 0; j < 32; j++) {
				bool on = k == 0 ? j == l : k == 1 ? j < l : k == 2 ? j <= l : k == 3 ? j > l : j >= l;
				e |= (uint32_t)on << j;
			}
			expect_u32("lane mask", l, reg(0)[l], e);
		}
	}
	/* CS2R: the 64-bit clock; SRZ zeroes a pair */
	INSN(CS2R_X, R2(2), ENUMV(ISA_SReg_SR_CLOCKLO));
	in.sr = ISA_SReg_SR_CLOCKLO;
	run(sem_CS2R, ALL);
	expect_fill("CS2R lo", 2, 0x56789abcu);
	expect_fill("CS2R hi", 3, 0x1234u);
	INSN(CS2R_X, R2(2), ENUMV(ISA_SReg_SRZ));
	in.sr = ISA_SReg_SRZ;
	run(sem_CS2R, ALL);
	expect_fill("CS2R SRZ lo", 2, 0);
	expect_fill("CS2R SRZ hi", 3, 0);
	/* partial mask */
	fill_reg(4, 77);
	INSN(S2R_X, R(4), ENUMV(ISA_SReg_SR_LANEID));
	in.sr = ISA_SReg_SR_LANEID;
	run(sem_S2R, 0xf0f0f0f0u);
	for_lanes(l) expect_u32("S2R partial", l, reg(4)[l], LANE_ON(0xf0f0f0f0u, l) ? l : 77);
	expect_no_fault();
}
END_TEST

/* PTX shfl.sync, written from CUDA's width form: c = ((32 - width) << 8) | clamp. */
static void ref_shfl(int mode, const uint32_t a[XLANES], const uint32_t b[XLANES],
		     const uint32_t c[XLANES], uint32_t pm, uint32_t out[XLANES], uint32_t *okm)
{
	uint32_t ok = 0;
	for_lanes(l) {
		int lane = (int)l;
		int bval = (int)(b[l] & 31u), clamp = (int)(c[l] & 31u), seg = (int)((c[l] >> 8) & 31u);
		int maxl = (lane & seg) | (clamp & ~seg), minl = lane & seg;
		int j = lane;
		bool pval;
		if (mode == ISA_ShflMode_UP) {
			j = lane - bval;
			pval = j >= maxl;
		} else if (mode == ISA_ShflMode_DOWN) {
			j = lane + bval;
			pval = j <= maxl;
		} else if (mode == ISA_ShflMode_BFLY) {
			j = lane ^ bval;
			pval = j <= maxl;
		} else {
			j = minl | (bval & ~seg);
			pval = j <= maxl;
		}
		if (pval && j >= 0 && j < 32 && ((pm >> j) & 1u)) {
			out[l] = a[j];
			ok |= 1u << l;
		} else {
			out[l] = a[l];
		}
	}
	*okm = ok;
}

static void shfl(int mode, xopd b, xopd c, uint32_t pm)
{
	if (b.kind == XO_IMM && c.kind == XO_IMM)
		INSN(SHFL_II, P(0), R(0), R(1), b, c);
	else if (b.kind == XO_IMM)
		INSN(SHFL_IR, P(0), R(0), R(1), b, c);
	else if (c.kind == XO_IMM)
		INSN(SHFL_RI, P(0), R(0), R(1), b, c);
	else
		INSN(SHFL_RR, P(0), R(0), R(1), b, c);
	in.mode = mode;
	run(sem_SHFL, pm);
}

START_TEST(test_shfl_cuda)
{
	/* CUDA __shfl_*_sync(ALL, v, x, width) for every width */
	for_lanes(l) reg(1)[l] = 1000 + l;
	for (unsigned width = 1; width <= 32; width <<= 1) {
		uint32_t seg = (32 - width) << 8;
		for (unsigned x = 0; x < 40; x++) {
			/* __shfl_sync(v, srcLane = x) */
			shfl(ISA_ShflMode_IDX, IMM(x), IMM(seg | 0x1f), ALL);
			for_lanes(l) {
				uint32_t src = (l & ~(width - 1)) + (x % width);
				expect_u32("shfl idx", l, reg(0)[l], 1000 + src);
			}
			expect_mask("shfl idx pu", w.p[0], ALL);
			if (x >= 32)
				continue;
			/* __shfl_down_sync(v, delta = x) */
			shfl(ISA_ShflMode_DOWN, IMM(x), IMM(seg | 0x1f), ALL);
			for_lanes(l) {
				bool in_seg = (l % width) + x < width;
				expect_u32("shfl down", l, reg(0)[l], 1000 + (in_seg ? l + x : l));
				expect_u32("shfl down pu", l, LANE_ON(w.p[0], l), in_seg);
			}
			/* __shfl_up_sync(v, delta = x) */
			shfl(ISA_ShflMode_UP, IMM(x), IMM(seg), ALL);
			for_lanes(l) {
				bool in_seg = (l % width) >= x;
				expect_u32("shfl up", l, reg(0)[l], 1000 + (in_seg ? l - x : l));
				expect_u32("shfl up pu", l, LANE_ON(w.p[0], l), in_seg);
			}
			/* __shfl_xor_sync(v, laneMask = x) */
			shfl(ISA_ShflMode_BFLY, IMM(x), IMM(seg | 0x1f), ALL);
			for_lanes(l) {
				uint32_t src = l ^ x;
				bool ok = src < (l & ~(width - 1)) + width;
				expect_u32("shfl xor", l, reg(0)[l], 1000 + (ok ? src : l));
				expect_u32("shfl xor pu", l, LANE_ON(w.p[0], l), ok);
			}
		}
	}
	expect_no_fault();
}
END_TEST

START_TEST(test_shfl_random)
{
	for (int it = 0; it < 400; it++) {
		int mode = (int)rndn(4);
		rand_reg(1);
		for_lanes(l) {
			reg(2)[l] = rndn(4) ? rndn(40) : rnd32();
			reg(3)[l] = rndn(2) ? (rndn(32) | rndn(32) << 8) : rnd32();
		}
		uint32_t pm = rndn(3) ? ALL : rnd32() | 1u;
		fill_reg(0, 0xdeadbeefu);
		w.p[0] = 0x5a5a5a5au;
		uint32_t a[XLANES], exp[XLANES], ok;
		memcpy(a, reg(1), sizeof a);
		xopd b = R(2), c = R(3);
		if (rndn(3) == 0) {
			b = IMM(reg(2)[0] & 0xff);
			fill_reg(2, reg(2)[0] & 0xff);
		}
		if (rndn(3) == 0) {
			c = IMM(reg(3)[0] & 0xffff);
			fill_reg(3, reg(3)[0] & 0xffff);
		}
		ref_shfl(mode, a, reg(2), reg(3), pm, exp, &ok);
		shfl(mode, b, c, pm);
		for_lanes(l) expect_u32("SHFL", l, reg(0)[l], LANE_ON(pm, l) ? exp[l] : 0xdeadbeefu);
		expect_mask("SHFL pu", w.p[0], (ok & pm) | (0x5a5a5a5au & ~pm));
	}
	/* in place: Rd == Ra */
	for_lanes(l) reg(1)[l] = l;
	INSN(SHFL_II, P(7), R(1), R(1), IMM(1), IMM(0x1f));
	in.mode = ISA_ShflMode_BFLY;
	run(sem_SHFL, ALL);
	for_lanes(l) expect_u32("SHFL in place", l, reg(1)[l], l ^ 1u);
	/* an inactive source lane gives the own value and Pu = false */
	for_lanes(l) reg(1)[l] = l;
	INSN(SHFL_II, P(0), R(0), R(1), IMM(0), IMM(0x1f));
	in.mode = ISA_ShflMode_IDX;
	run(sem_SHFL, 0xfffffffeu);
	for_lanes(l) if (l) expect_u32("SHFL inactive source", l, reg(0)[l], l);
	expect_mask("SHFL inactive source pu", w.p[0] & 0xfffffffeu, 0);
	expect_no_fault();
}
END_TEST

START_TEST(test_vote)
{
	for (int it = 0; it < 200; it++) {
		uint32_t pm = rndn(2) ? ALL : rnd32() | (1u << rndn(32));
		uint32_t pv = rndn(4) == 0 ? ALL : rndn(4) == 0 ? 0 : rnd32();
		int mode = (int)rndn(3);
		bool pn = rndn(2);
		w.p[2] = pv;
		w.p[0] = 0x33333333u;
		fill_reg(5, 0xcafef00du);
		INSN(VOTE_X, R(5), P(0), pn ? NP(2) : P(2));
		in.mode = mode;
		run(sem_VOTE, pm);
		uint32_t ballot = (pn ? ~pv : pv) & pm;
		for_lanes(l) expect_u32("VOTE ballot", l, reg(5)[l], LANE_ON(pm, l) ? ballot : 0xcafef00du);
		bool r = mode == ISA_VoteMode_ALL ? ballot == pm : mode == ISA_VoteMode_ANY ? ballot != 0
			 : (ballot == 0 || ballot == pm);
		expect_mask("VOTE pu", w.p[0], (r ? pm : 0) | (0x33333333u & ~pm));
	}
	expect_no_fault();
}
END_TEST

START_TEST(test_membar_nop)
{
	uint32_t before[NROWS * XLANES];
	rand_reg(3);
	memcpy(before, regs, sizeof before);
	uint32_t p[WE_NUM_PREDS];
	memcpy(p, w.p, sizeof p);
	for (int s = 0; s < 3; s++) {
		INSN0(MEMBAR_X);
		in.scope = s;
		run(sem_MEMBAR, ALL);
	}
	INSN0(NOP_X);
	run(sem_NOP, ALL);
	ck_assert(memcmp(before, regs, sizeof before) == 0);
	ck_assert(memcmp(p, w.p, sizeof p) == 0);
	expect_no_fault();
}
END_TEST

START_TEST(test_uniform)
{
	uint32_t c8, c12;
	memcpy(&c8, L.params + 8, 4);
	memcpy(&c12, L.params + 12, 4);
	INSN(ULDC_C, UR(4), CM(0, 8));
	in.size = ISA_MemSize_32;
	run(sem_ULDC, ALL);
	ck_assert_uint_eq(w.ur[4], c8);
	INSN(ULDC_C, UR(6), CM(0, 8));
	in.size = ISA_MemSize_64;
	run(sem_ULDC, ALL);
	ck_assert_uint_eq(w.ur[6], c8);
	ck_assert_uint_eq(w.ur[7], c12);
	INSN(ULDC_C, UR(8), CM(1, 0));
	run(sem_ULDC, ALL);
	ck_assert_uint_eq(w.ur[8], 0xa3a2a1a0u);
	expect_no_fault();
	/* out of the bank: fault, nothing written */
	w.ur[9] = 99;
	INSN(ULDC_C, UR(9), CM(1, BANK1_BYTES));
	run(sem_ULDC, ALL);
	expect_fault(WE_FAULT_MEM_RANGE);
	ck_assert_uint_eq(w.ur[9], 99);

	cta.ctaid[1] = 7;
	w.id = 1;
	INSN(S2UR_X, UR(1), ENUMV(ISA_SReg_SR_CTAID_Y));
	in.sr = ISA_SReg_SR_CTAID_Y;
	run(sem_S2UR, ALL);
	ck_assert_uint_eq(w.ur[1], 7);
	in.sr = ISA_SReg_SR_WARPID;
	run(sem_S2UR, ALL);
	ck_assert_uint_eq(w.ur[1], 1);
	in.sr = ISA_SReg_SR_NTID_X;
	run(sem_S2UR, ALL);
	ck_assert_uint_eq(w.ur[1], 64);

	for_lanes(l) reg(3)[l] = 100 + l;
	INSN(R2UR_R, UR(2), R(3));
	run(sem_R2UR, 0xffff0000u);
	ck_assert_uint_eq(w.ur[2], 116);
	run(sem_R2UR, ALL);
	ck_assert_uint_eq(w.ur[2], 100);

	INSN(UMOV_I, UR(10), IMM(0x1234));
	run(sem_UMOV, ALL);
	ck_assert_uint_eq(w.ur[10], 0x1234);
	INSN(UMOV_U, UR(11), UR(10));
	run(sem_UMOV, ALL);
	ck_assert_uint_eq(w.ur[11], 0x1234);
	INSN(UMOV_U, UR(11), UR(63));
	run(sem_UMOV, ALL);
	ck_assert_uint_eq(w.ur[11], 0);
	INSN(UMOV_I, UR(63), IMM(5)); /* URZ stays zero */
	run(sem_UMOV, ALL);
	ck_assert_uint_eq(w.ur[63], 0);

	w.ur[12] = 0xfffffff0u;
	w.ur[13] = 0x20;
	INSN(UIADD3_U, UR(14), UP(7), UP(7), UR(12), UR(13), UR(13), NUP(7), NUP(7));
	run(sem_UIADD3, ALL);
	ck_assert_uint_eq(w.ur[14], 0x30);
	INSN(UIADD3_I, UR(14), UP(7), UP(7), UR(12), IMM(-1), UR(63), NUP(7), NUP(7));
	run(sem_UIADD3, ALL);
	ck_assert_uint_eq(w.ur[14], 0xffffffefu);
	/* carries into UP0/UP1, added back by .X */
	w.up = 0x80;
	w.ur[15] = 0xffffffffu;
	INSN(UIADD3_U, UR(14), UP(0), UP(1), UR(15), UR(15), UR(15), NUP(7), NUP(7));
	run(sem_UIADD3, ALL);
	ck_assert_uint_eq(w.ur[14], 0xfffffffdu);
	ck_assert_uint_eq(w.up, 0x83);
	INSN(UIADD3_U, UR(14), UP(7), UP(7), UR(12), UR(63), UR(63), UP(0), UP(1));
	in.x = ISA_AddX_X;
	run(sem_UIADD3, ALL);
	ck_assert_uint_eq(w.ur[14], 0xfffffff2u);
	INSN(UIADD3_I, UR(14), UP(2), UP(7), UR(13), IMM(5), UR(63), NUP(0), UP(7));
	in.x = ISA_AddX_X;
	run(sem_UIADD3, ALL);
	ck_assert_uint_eq(w.ur[14], 0x26);
	ck_assert_uint_eq(w.up, 0x83); /* no carry: UP2 cleared */
	in.x = ISA_AddX_NoX;

	for (int it = 0; it < 100; it++) {
		uint32_t a = rnd32(), b = rnd32(), c = rnd32();
		unsigned lut = rndn(256);
		w.ur[20] = a;
		w.ur[21] = b;
		w.ur[22] = c;
		INSN(ULOP3_LUT_U, UP(3), UR(23), UR(20), UR(21), UR(22), IMM(lut), NUP(7));
		in.lut = (int32_t)lut;
		run(sem_ULOP3_LUT, ALL);
		if (w.ur[23] != ref_lut(a, b, c, lut))
			ck_abort_msg("ULOP3 lut 0x%02x", lut);
		if (((w.up >> 3) & 1u) != (w.ur[23] != 0))
			ck_abort_msg("ULOP3 lut 0x%02x: UP3", lut);
	}
	w.ur[20] = 0xf0f0f0f0u;
	INSN(ULOP3_LUT_I, UP(7), UR(23), UR(20), IMM(0xffff), UR(63), IMM(0xc0), NUP(7));
	in.lut = 0xc0;
	run(sem_ULOP3_LUT, ALL);
	ck_assert_uint_eq(w.ur[23], 0xf0f0u);
	INSN(ULOP3_LUT_I, UP(4), UR(23), UR(20), IMM(0x0f0f), UR(63), IMM(0xc0), NUP(7));
	in.lut = 0xc0;
	w.up |= 1u << 4;
	run(sem_ULOP3_LUT, ALL);
	ck_assert_uint_eq(w.ur[23], 0);
	ck_assert_uint_eq((w.up >> 4) & 1u, 0);
	expect_no_fault();
}
END_TEST

/* UISETP against ISETP's comparison on random and edge values, every
 * cmp, signedness and bop; USEL */
START_TEST(test_uniform_pred)
{
	static const uint32_t edge[] = { 0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu };
	for (int it = 0; it < 2000; it++) {
		const uint32_t a = it < 25 ? edge[it % 5] : rnd32();
		const uint32_t b = it < 25 ? edge[it / 5] : rndn(4) ? rnd32() : a;
		const unsigned cmp = rndn(8), bop = rndn(3);
		const bool u = rndn(2), pin = rndn(2), pnot = rndn(2);
		w.ur[1] = a;
		w.ur[2] = b;
		w.up = (uint8_t)(0x80 | (pin ? 1u << 5 : 0));
		INSN(UISETP_U, UP(1), UP(2), UR(1), UR(2), pnot ? NUP(5) : UP(5));
		in.cmp = (int32_t)cmp;
		in.sign = u ? ISA_Signedness_U32 : ISA_Signedness_S32;
		in.bop = (int32_t)bop;
		run(sem_UISETP, ALL);
		const bool lt = u ? a < b : (int32_t)a < (int32_t)b;
		const bool t = ((cmp & 1) && lt) || ((cmp & 2) && a == b) || ((cmp & 4) && !lt && a != b);
		const bool p = pin != pnot;
		const bool eu = bop == ISA_BoolOp_AND ? t && p : bop == ISA_BoolOp_OR ? t || p : t != p;
		const bool ev = bop == ISA_BoolOp_AND ? !t && p : bop == ISA_BoolOp_OR ? !t || p : !t != p;
		if (((w.up >> 1) & 1u) != eu || ((w.up >> 2) & 1u) != ev)
			ck_abort_msg("UISETP cmp %u bop %u u %d: 0x%08x, 0x%08x, p %d: up 0x%02x", cmp, bop, u,
				     a, b, p, w.up);
		ck_assert_uint_eq((w.up >> 5) & 1u, pin);
	}
	/* UPT as a destination stays true; an immediate B */
	w.up = 0x80;
	w.ur[1] = 3;
	INSN(UISETP_I, UP(7), UP(0), UR(1), IMM(3), UP(7));
	in.cmp = ISA_ICmp_NE;
	in.bop = ISA_BoolOp_AND;
	run(sem_UISETP, ALL);
	ck_assert_uint_eq(w.up, 0x81);

	w.ur[3] = 11;
	w.ur[4] = 22;
	w.up = 0x80 | 1u << 6;
	INSN(USEL_U, UR(5), UR(3), UR(4), UP(6));
	run(sem_USEL, ALL);
	ck_assert_uint_eq(w.ur[5], 11);
	INSN(USEL_U, UR(5), UR(3), UR(4), NUP(6));
	run(sem_USEL, ALL);
	ck_assert_uint_eq(w.ur[5], 22);
	INSN(USEL_I, UR(5), UR(3), IMM(-7), UP(0));
	run(sem_USEL, ALL);
	ck_assert_uint_eq(w.ur[5], (uint32_t)-7);
	INSN(USEL_I, UR(5), UR(3), IMM(-7), UP(7));
	run(sem_USEL, ALL);
	ck_assert_uint_eq(w.ur[5], 11);

	/* MOV Rd, URb */
	w.ur[6] = 0xdeadbeefu;
	INSN(MOV_U, R(9), UR(6));
	run(sem_MOV, 0x0000ffffu);
	for_lanes(l) expect_u32("MOV R9, UR6", l, reg(9)[l], l < 16 ? 0xdeadbeefu : 0);
	run(sem_MOV, ALL);
	expect_fill("MOV R9, UR6", 9, 0xdeadbeefu);
	expect_no_fault();
}
END_TEST

/* ======================================================================== */
/* memory                                                                    */
/* ======================================================================== */

static const int sizes[] = { ISA_MemSize_U8, ISA_MemSize_S8, ISA_MemSize_U16, ISA_MemSize_S16,
			     ISA_MemSize_32, ISA_MemSize_64, ISA_MemSize_128 };
static const unsigned size_bytes[] = { 1, 1, 2, 2, 4, 8, 16 };

/* Expected register k of a load of `bytes` from p with size code sz. */
static uint32_t ref_load(const uint8_t *p, int sz, unsigned k)
{
	uint32_t v = 0;
	switch (sz) {
	case ISA_MemSize_U8: return k ? 0 : p[0];
	case ISA_MemSize_S8: return k ? 0 : (uint32_t)(int32_t)(int8_t)p[0];
	case ISA_MemSize_U16: return k ? 0 : (uint32_t)(p[0] | p[1] << 8);
	case ISA_MemSize_S16: return k ? 0 : (uint32_t)(int32_t)(int16_t)(uint16_t)(p[0] | p[1] << 8);
	default:
		for (unsigned j = 0; j < 4; j++)
			v |= (uint32_t)p[4 * k + j] << (8 * j);
		return v;
	}
}

static unsigned size_regs(unsigned bytes) { return bytes <= 4 ? 1 : bytes / 4; }

/* Global memory: one allocation, lanes at scattered aligned addresses. */
START_TEST(test_global_ldst)
{
	const size_t n = 4096;
	we_devptr base;
	ck_assert_int_eq(we_malloc(dev, n, &base), WE_OK);
	uint8_t img[4096];
	for (size_t k = 0; k < n; k++)
		img[k] = (uint8_t)rnd32();
	ck_assert_int_eq(we_memcpy_htod(dev, base, img, n), WE_OK);
	for (unsigned si = 0; si < 7; si++)
		for (int it = 0; it < 10; it++) {
			int sz = sizes[si];
			unsigned bytes = size_bytes[si], nr = size_regs(bytes);
			int64_t off = (int64_t)(rndn(64) * 16) - 256;
			uint32_t pm = rndn(2) ? ALL : rnd32();
			if (!pm)
				pm = 1;
			/* lane l's address: base + 512 + slot*bytes, slot distinct per lane */
			uint64_t addr[XLANES];
			for_lanes(l) {
				addr[l] = base + 512 + (uint64_t)(((l * 7 + (unsigned)it) % 32) * bytes);
				uint64_t ra = addr[l] - (uint64_t)off;
				reg(2)[l] = (uint32_t)ra;
				reg(3)[l] = (uint32_t)(ra >> 32);
			}
			for (unsigned k = 0; k < 4; k++)
				fill_reg(8 + k, 0x5555aaaau + k);
			INSN(LDG_R, R(8), MEM64(2, off));
			in.size = sz;
			run(sem_LDG, pm);
			expect_no_fault();
			for_lanes(l) for (unsigned k = 0; k < 4; k++) {
				uint32_t e = (LANE_ON(pm, l) && k < nr) ? ref_load(img + (addr[l] - base), sz, k)
									 : 0x5555aaaau + k;
				if (reg(8 + k)[l] != e)
					ck_abort_msg("LDG size %d lane %u reg %u = 0x%08x, expected 0x%08x", sz, l, k,
						     reg(8 + k)[l], e);
			}
			/* store new data and compare the whole allocation */
			for (unsigned k = 0; k < 4; k++)
				rand_reg(12 + k);
			INSN(STG_R, MEM64(2, off), R(12));
			in.size = sz;
			run(sem_STG, pm);
			expect_no_fault();
			for_lanes(l) {
				if (!LANE_ON(pm, l))
					continue;
				uint8_t *p = img + (addr[l] - base);
				for (unsigned j = 0; j < bytes; j++)
					p[j] = (uint8_t)(reg(12 + j / 4)[l] >> (8 * (j % 4)));
			}
			uint8_t back[4096];
			ck_assert_int_eq(we_memcpy_dtoh(dev, back, base, n), WE_OK);
			ck_assert_msg(memcmp(back, img, n) == 0, "STG size %d wrote the wrong bytes", sz);
		}
}
END_TEST

START_TEST(test_global_faults)
{
	we_devptr base;
	ck_assert_int_eq(we_malloc(dev, 256, &base), WE_OK);
	ck_assert_int_eq(we_memset(dev, base, 0x11, 256), WE_OK);
	for_lanes(l) {
		uint64_t a = base + 4 * l;
		reg(2)[l] = (uint32_t)a;
		reg(3)[l] = (uint32_t)(a >> 32);
	}
	/* misaligned on one lane: nothing loaded */
	reg(2)[17] += 2;
	fill_reg(8, 0x77);
	INSN(LDG_R, R(8), MEM64(2, 0));
	in.size = ISA_MemSize_32;
	run(sem_LDG, ALL);
	expect_fault_lanes(WE_FAULT_MEM_ALIGN, 1u << 17);
	expect_fill("no partial load", 8, 0x77);
	/* ... and nothing stored */
	fill_reg(9, 0x22222222u);
	INSN(STG_R, MEM64(2, 0), R(9));
	in.size = ISA_MemSize_32;
	run(sem_STG, ALL);
	expect_fault(WE_FAULT_MEM_ALIGN);
	uint8_t back[256];
	ck_assert_int_eq(we_memcpy_dtoh(dev, back, base, 256), WE_OK);
	for (unsigned k = 0; k < 256; k++)
		ck_assert_uint_eq(back[k], 0x11);
	/* the misaligned lane excluded by the mask: fine */
	run(sem_STG, ~(1u << 17));
	expect_no_fault();
	/* out of range: past the end on the last lane */
	reg(2)[17] -= 2;
	reg(2)[31] = (uint32_t)(base + 256);
	INSN(LDG_R, R(8), MEM64(2, 0));
	in.size = ISA_MemSize_32;
	run(sem_LDG, ALL);
	expect_fault_lanes(WE_FAULT_MEM_RANGE, 1u << 31);
	expect_fill("no partial load (range)", 8, 0x77);
	/* 64-bit: 4-byte aligned is not enough */
	reg(2)[31] = (uint32_t)(base + 252);
	INSN(LDG_R, R2(8), MEM64(2, 0));
	in.size = ISA_MemSize_64;
	run(sem_LDG, 1u << 31);
	expect_fault(WE_FAULT_MEM_ALIGN);
	/* 128-bit at base + 248 + 8 = the end: out of range */
	reg(2)[31] = (uint32_t)(base + 248);
	INSN(LDG_R, R(8), MEM64(2, 8));
	in.size = ISA_MemSize_128;
	run(sem_LDG, 1u << 31);
	expect_fault(WE_FAULT_MEM_RANGE);
	/* 128-bit at base + 240: fine, four registers */
	reg(2)[31] = (uint32_t)(base + 232);
	run(sem_LDG, 1u << 31);
	expect_no_fault();
	for (unsigned k = 0; k < 4; k++)
		expect_u32("LDG.128", 31, reg(8 + k)[31], k < 4 ? 0x11111111u : 0);
}
END_TEST

static void shared_local_ldst(bool local)
{
	uint8_t *mem = local ? lmem : shmem;
	const unsigned span = local ? LOCAL_BYTES : SHARED_BYTES;
	for (unsigned k = 0; k < (local ? sizeof lmem : sizeof shmem); k++)
		mem[k] = (uint8_t)rnd32();
	sem_fn ld = local ? sem_LDL : sem_LDS, st = local ? sem_STL : sem_STS;
	int ldop = local ? ISA_OP_LDL_R : ISA_OP_LDS_R, stop = local ? ISA_OP_STL_R : ISA_OP_STS_R;
	for (unsigned si = 0; si < 7; si++)
		for (int it = 0; it < 10; it++) {
			int sz = sizes[si];
			unsigned bytes = size_bytes[si], nr = size_regs(bytes);
			int64_t off = (int64_t)rndn(7) * 16 - 32; /* Ra = a - off stays >= 0 */
			uint32_t pm = rndn(2) ? ALL : (rnd32() | 2u);
			uint32_t a[XLANES];
			for_lanes(l) {
				/* local: every lane the same address in its own memory */
				a[l] = local ? 64 + (unsigned)it * 16 : 64 + ((l * 5 + (unsigned)it) % 32) * bytes;
				reg(2)[l] = (uint32_t)((int64_t)a[l] - off);
			}
			for (unsigned k = 0; k < 4; k++)
				fill_reg(8 + k, 0x5555aaaau + k);
			xopd ops[2] = { R(8), MEM(2, off) };
			mk(ldop, ops, 2);
			in.size = sz;
			run(ld, pm);
			expect_no_fault();
			for_lanes(l) for (unsigned k = 0; k < 4; k++) {
				const uint8_t *p = mem + (local ? l * LOCAL_BYTES : 0) + a[l];
				uint32_t e = (LANE_ON(pm, l) && k < nr) ? ref_load(p, sz, k) : 0x5555aaaau + k;
				if (reg(8 + k)[l] != e)
					ck_abort_msg("%s size %d lane %u reg %u = 0x%08x, expected 0x%08x",
						     local ? "LDL" : "LDS", sz, l, k, reg(8 + k)[l], e);
			}
			uint8_t before[XLANES * LOCAL_BYTES > SHARED_BYTES ? XLANES * LOCAL_BYTES : SHARED_BYTES];
			memcpy(before, mem, local ? sizeof lmem : sizeof shmem);
			for (unsigned k = 0; k < 4; k++)
				rand_reg(12 + k);
			xopd sops[2] = { MEM(2, off), R(12) };
			mk(stop, sops, 2);
			in.size = sz;
			run(st, pm);
			expect_no_fault();
			for_lanes(l) {
				if (!LANE_ON(pm, l))
					continue;
				uint8_t *p = before + (local ? l * LOCAL_BYTES : 0) + a[l];
				for (unsigned j = 0; j < bytes; j++)
					p[j] = (uint8_t)(reg(12 + j / 4)[l] >> (8 * (j % 4)));
			}
			ck_assert_msg(memcmp(before, mem, local ? sizeof lmem : sizeof shmem) == 0,
				      "%s size %d wrote the wrong bytes", local ? "STL" : "STS", sz);
		}
	/* faults: misaligned, past the end, negative */
	fill_reg(8, 0x99);
	for_lanes(l) reg(2)[l] = 4 * l;
	xopd ops[2] = { R(8), MEM(2, 0) };
	mk(ldop, ops, 2);
	in.size = ISA_MemSize_32;
	reg(2)[5] = 6;
	run(ld, ALL);
	expect_fault(WE_FAULT_MEM_ALIGN);
	reg(2)[5] = span;
	run(ld, ALL);
	expect_fault(WE_FAULT_MEM_RANGE);
	reg(2)[5] = span - 4;
	run(ld, ALL);
	expect_no_fault();
	xopd nops[2] = { R(8), MEM(2, -8) };
	mk(ldop, nops, 2);
	in.size = ISA_MemSize_32;
	reg(2)[5] = 4;
	fill_reg(8, 0x99);
	run(ld, ALL);
	expect_fault(WE_FAULT_MEM_RANGE);
	expect_fill("no partial load", 8, 0x99);
}

START_TEST(test_shared_ldst) { shared_local_ldst(false); }
END_TEST

START_TEST(test_local_ldst) { shared_local_ldst(true); }
END_TEST

START_TEST(test_ldc)
{
	for (unsigned si = 0; si < 7; si++) {
		int sz = sizes[si];
		unsigned bytes = size_bytes[si], nr = size_regs(bytes);
		for (unsigned bank = 0; bank < 2; bank++) {
			const uint8_t *data = bank ? bank1 : L.params;
			for_lanes(l) reg(2)[l] = (l % 8) * 16;
			for (unsigned k = 0; k < 4; k++)
				fill_reg(8 + k, 0xabababab);
			INSN(LDC_R, R(8), CMI(bank, 2, 32));
			in.size = sz;
			uint32_t pm = 0x7fff7fffu;
			run(sem_LDC, pm);
			expect_no_fault();
			for_lanes(l) for (unsigned k = 0; k < 4; k++) {
				uint32_t e = (LANE_ON(pm, l) && k < nr) ? ref_load(data + 32 + (l % 8) * 16, sz, k)
									 : 0xababababu;
				if (reg(8 + k)[l] != e)
					ck_abort_msg("LDC bank %u size %d lane %u reg %u = 0x%08x, expected 0x%08x",
						     bank, sz, l, k, reg(8 + k)[l], e);
			}
		}
	}
	/* one lane out of the bank: fault, nothing written */
	for_lanes(l) reg(2)[l] = 4 * l;
	reg(2)[9] = PARAM_BYTES;
	fill_reg(8, 0x42);
	INSN(LDC_R, R(8), CMI(0, 2, 0));
	in.size = ISA_MemSize_32;
	run(sem_LDC, ALL);
	expect_fault(WE_FAULT_MEM_RANGE);
	expect_fill("LDC no partial", 8, 0x42);
}
END_TEST

/* One atomic instruction on a global word array; every lane hits word
 * lane % nwords (so several lanes share a word and lane order matters). */
static void atom_case(bool shared, int op, int type, unsigned nwords, uint32_t pm)
{
	const bool w64 = type == ISA_AtomType_U64 || type == ISA_AtomType_S64;
	const bool sgn = type == ISA_AtomType_S32 || type == ISA_AtomType_S64;
	const unsigned esz = w64 ? 8 : 4;
	we_devptr base = 0;
	uint8_t *host;
	uint8_t *gbuf = NULL;
	if (shared) {
		host = shmem + 128;
	} else {
		ck_assert_int_eq(we_malloc(dev, 1024, &base), WE_OK);
		gbuf = calloc(1, 1024);
		host = gbuf;
	}
	/* reference memory as 64-bit words */
	uint64_t ref[32];
	for (unsigned k = 0; k < nwords; k++) {
		ref[k] = rndn(3) ? th_rng64() : rndn(4);
		if (!w64)
			ref[k] &= 0xffffffffu;
		memcpy(host + k * esz, &ref[k], esz);
	}
	if (!shared)
		ck_assert_int_eq(we_memcpy_htod(dev, base, host, 1024), WE_OK);
	for_lanes(l) {
		uint64_t a = shared ? 128 + (l % nwords) * esz : base + (l % nwords) * esz;
		reg(2)[l] = (uint32_t)a;
		reg(3)[l] = (uint32_t)(a >> 32);
		uint64_t bv = rndn(2) ? th_rng64() : ref[l % nwords] + rndn(3) - 1;
		uint64_t cv = th_rng64();
		reg(4)[l] = (uint32_t)bv;
		reg(5)[l] = (uint32_t)(bv >> 32);
		reg(6)[l] = (uint32_t)cv;
		reg(7)[l] = (uint32_t)(cv >> 32);
	}
	fill_reg(8, 0x1111);
	fill_reg(9, 0x2222);
	uint64_t exp_old[XLANES];
	for_lanes(l) {
		exp_old[l] = 0;
		if (!LANE_ON(pm, l))
			continue;
		uint64_t mask = w64 ? ~0ull : 0xffffffffull;
		uint64_t *m = &ref[l % nwords];
		uint64_t old = *m, v = ((uint64_t)reg(5)[l] << 32 | reg(4)[l]) & mask;
		uint64_t c = ((uint64_t)reg(7)[l] << 32 | reg(6)[l]) & mask;
		int64_t so = w64 ? (int64_t)old : (int64_t)(int32_t)old;
		int64_t sv = w64 ? (int64_t)v : (int64_t)(int32_t)v;
		uint64_t nv = old;
		switch (op) {
		case ISA_AtomOp_ADD: nv = old + v; break;
		case ISA_AtomOp_MIN: nv = (sgn ? sv < so : v < old) ? v : old; break;
		case ISA_AtomOp_MAX: nv = (sgn ? sv > so : v > old) ? v : old; break;
		case ISA_AtomOp_AND: nv = old & v; break;
		case ISA_AtomOp_OR: nv = old | v; break;
		case ISA_AtomOp_XOR: nv = old ^ v; break;
		case ISA_AtomOp_EXCH: nv = v; break;
		case ISA_AtomOp_CAS: nv = old == v ? c : old; break;
		}
		*m = nv & mask;
		exp_old[l] = old;
	}
	if (shared) {
		INSN(ATOMS_R, w64 ? R2(8) : R(8), MEM(2, 0), w64 ? R2(4) : R(4), w64 ? R2(6) : R(6));
		in.op = op;
		in.type = type;
		run(sem_ATOMS, pm);
	} else {
		INSN(ATOMG_R, w64 ? R2(8) : R(8), MEM64(2, 0), w64 ? R2(4) : R(4), w64 ? R2(6) : R(6));
		in.op = op;
		in.type = type;
		run(sem_ATOMG, pm);
	}
	expect_no_fault();
	for_lanes(l) {
		uint32_t elo = LANE_ON(pm, l) ? (uint32_t)exp_old[l] : 0x1111u;
		uint32_t ehi = (LANE_ON(pm, l) && w64) ? (uint32_t)(exp_old[l] >> 32) : 0x2222u;
		if (reg(8)[l] != elo || reg(9)[l] != ehi)
			ck_abort_msg("ATOM%s op %d type %d lane %u: old %08x:%08x, expected %08x:%08x",
				     shared ? "S" : "G", op, type, l, reg(9)[l], reg(8)[l], ehi, elo);
	}
	if (!shared)
		ck_assert_int_eq(we_memcpy_dtoh(dev, host, base, 1024), WE_OK);
	for (unsigned k = 0; k < nwords; k++) {
		uint64_t got = 0;
		memcpy(&got, host + k * esz, esz);
		if (got != ref[k])
			ck_abort_msg("ATOM%s op %d type %d word %u = %llx, expected %llx", shared ? "S" : "G", op,
				     type, k, (unsigned long long)got, (unsigned long long)ref[k]);
	}
	free(gbuf);
	if (!shared)
		we_free(dev, base);
}

START_TEST(test_atomics)
{
	for (int shared = 0; shared < 2; shared++)
		for (int op = 0; op < 8; op++)
			for (int type = 0; type < 4; type++)
				for (int it = 0; it < 6; it++) {
					static const unsigned nw[] = { 1, 3, 32 };
					uint32_t pm = rndn(2) ? ALL : rnd32() | 1u;
					atom_case(shared, op, type, nw[rndn(3)], pm);
				}
}
END_TEST

START_TEST(test_atomics_hand)
{
	we_devptr base;
	ck_assert_int_eq(we_malloc(dev, 64, &base), WE_OK);
	fill_reg(2, (uint32_t)base);
	fill_reg(3, (uint32_t)(base >> 32));
	/* ATOMG.ADD 1 from every lane to one word: old = 0, 1, ..., 31 */
	fill_reg(4, 1);
	INSN(ATOMG_R, R(8), MEM64(2, 0), R(4), R(63));
	in.op = ISA_AtomOp_ADD;
	run(sem_ATOMG, ALL);
	for_lanes(l) expect_u32("ADD ticket", l, reg(8)[l], l);
	/* ADD to one word from lanes that do not include lane 0, each adding
	 * its number: each gets the word plus the numbers of the active lanes
	 * below it; the idle lanes' registers stay */
	const uint32_t some = 0xf0f0f0f0u;
	uint32_t acc = 1000, w1;
	we_memcpy_htod(dev, base + 4, &acc, 4);
	for_lanes(l) reg(4)[l] = l;
	fill_reg(8, 0x7777);
	INSN(ATOMG_R, R(8), MEM64(2, 4), R(4), R(63));
	in.op = ISA_AtomOp_ADD;
	run(sem_ATOMG, some);
	for_lanes(l) {
		expect_u32("ADD, lane 0 idle", l, reg(8)[l], LANE_ON(some, l) ? acc : 0x7777u);
		acc += LANE_ON(some, l) ? l : 0;
	}
	we_memcpy_dtoh(dev, &w1, base + 4, 4);
	ck_assert_uint_eq(w1, acc);
	/* CAS: lane l swaps l -> l+1 when the word is l: all succeed in lane order */
	uint32_t zero = 0;
	we_memcpy_htod(dev, base, &zero, 4);
	for_lanes(l) {
		reg(4)[l] = l;
		reg(6)[l] = l + 1;
	}
	INSN(ATOMG_R, R(8), MEM64(2, 0), R(4), R(6));
	in.op = ISA_AtomOp_CAS;
	run(sem_ATOMG, ALL);
	for_lanes(l) expect_u32("CAS chain", l, reg(8)[l], l);
	uint32_t word;
	we_memcpy_dtoh(dev, &word, base, 4);
	ck_assert_uint_eq(word, 32);
	/* CAS with one compare value: only the first lane succeeds */
	fill_reg(4, 32);
	for_lanes(l) reg(6)[l] = 100 + l;
	run(sem_ATOMG, ALL);
	for_lanes(l) expect_u32("CAS one winner", l, reg(8)[l], l == 0 ? 32 : 100);
	/* signed vs unsigned MIN */
	uint32_t five = 5;
	we_memcpy_htod(dev, base, &five, 4);
	fill_reg(4, (uint32_t)-1);
	INSN(ATOMG_R, R(8), MEM64(2, 0), R(4), R(63));
	in.op = ISA_AtomOp_MIN;
	in.type = ISA_AtomType_U32;
	run(sem_ATOMG, 1);
	we_memcpy_dtoh(dev, &word, base, 4);
	ck_assert_uint_eq(word, 5);
	in.type = ISA_AtomType_S32;
	run(sem_ATOMG, 1);
	we_memcpy_dtoh(dev, &word, base, 4);
	ck_assert_uint_eq(word, 0xffffffffu);
	/* 64-bit ADD with a carry into the high word */
	uint64_t big = 0xffffffffull;
	we_memcpy_htod(dev, base + 8, &big, 8);
	fill_reg(4, 1);
	fill_reg(5, 0);
	INSN(ATOMG_R, R2(8), MEM64(2, 8), R2(4), R2(6));
	in.op = ISA_AtomOp_ADD;
	in.type = ISA_AtomType_U64;
	run(sem_ATOMG, 0x3);
	expect_u32("ADD64 lane0 lo", 0, reg(8)[0], 0xffffffffu);
	expect_u32("ADD64 lane0 hi", 0, reg(9)[0], 0);
	expect_u32("ADD64 lane1 lo", 1, reg(8)[1], 0);
	expect_u32("ADD64 lane1 hi", 1, reg(9)[1], 1);
	we_memcpy_dtoh(dev, &big, base + 8, 8);
	ck_assert(big == 0x100000001ull);
	/* RED: no destination */
	fill_reg(4, 3);
	fill_reg(8, 0x5151);
	INSN(RED_R, MEM64(2, 16), R(4));
	in.op = ISA_AtomOp_ADD;
	run(sem_RED, ALL);
	we_memcpy_dtoh(dev, &word, base + 16, 4);
	ck_assert_uint_eq(word, 96);
	expect_fill("RED writes no register", 8, 0x5151);
	INSN(RED_R, MEM64(2, 16), R(4));
	in.op = ISA_AtomOp_MAX;
	fill_reg(4, 1000);
	run(sem_RED, 0x10);
	we_memcpy_dtoh(dev, &word, base + 16, 4);
	ck_assert_uint_eq(word, 1000);
	expect_no_fault();
	/* a misaligned lane: nothing happens */
	reg(2)[3] += 4;
	INSN(ATOMG_R, R2(8), MEM64(2, 8), R2(4), R2(6));
	in.op = ISA_AtomOp_EXCH;
	in.type = ISA_AtomType_U64;
	fill_reg(8, 0x99);
	run(sem_ATOMG, ALL);
	expect_fault(WE_FAULT_MEM_ALIGN);
	expect_fill("no partial atom", 8, 0x99);
	we_memcpy_dtoh(dev, &big, base + 8, 8);
	ck_assert(big == 0x100000001ull);
	/* shared out of range */
	fill_reg(2, SHARED_BYTES);
	INSN(ATOMS_R, R(8), MEM(2, 0), R(4), R(63));
	in.op = ISA_AtomOp_ADD;
	run(sem_ATOMS, ALL);
	expect_fault(WE_FAULT_MEM_RANGE);
}
END_TEST

/* ---- suite ---------------------------------------------------------------- */

/* ======================================================================== */
/* kernels from text: the assembler, the loader and a launch                 */
/* ======================================================================== */

/* Launch the one kernel of src on one CTA of `block` threads with the
 * parameter block params, on configuration c (one host thread). */
static void launch_text(const char *src, uint32_t block, const th_config *c, const void *params, size_t np)
{
	we_module *m = NULL;
	we_status st = we_module_load_text(dev, src, strlen(src), "sem.we", &m);
	ck_assert_msg(st == WE_OK, "load: %s", we_last_error(dev));
	we_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { block, 1, 1 } };
	th_config_apply(&cfg, c);
	cfg.threads = 1;
	we_launch_stats stats;
	st = we_launch(dev, m, NULL, &cfg, params, np, &stats);
	ck_assert_msg(st == WE_OK, "%s: launch: %s", c->name, we_last_error(dev));
	we_module_destroy(m);
}

/* IMAD, IMAD.WIDE and FFMA with an immediate or a constant as C (B a
 * register), full and partial masks; 64- and 128-bit stores and loads of
 * register ranges. */
static const char third_src[] =
	".param ptr out\n"
	".param u32 s\n"
	".param u64 big\n"
	".param f32 fx\n"
	"        S2R R0, SR_TID.X ;\n"
	"        MOV R22, 0x40 ;\n"
	"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
	"        IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x8] ;\n"
	"        IMAD R2, R0, R0, 0x10 ;\n"
	"        IMAD R3, R0, R1, -0x3 ;\n"
	"        IMAD.HI.U32 R4, R0, R1, 0x5 ;\n"
	"        IMAD R5, R0, R1, c[0x0][0x8] ;\n"
	"        IMAD.WIDE R[6:7], R0, R1, c[0x0][0x10] ;\n"
	"        IMAD.WIDE.U32 R[8:9], R0, R1, -0x1 ;\n"
	"        I2F R10, R0 ;\n"
	"        FFMA R11, R10, R10, 1.0 ;\n"
	"        FFMA R12, R10, -R10, -0.5 ;\n"
	"        FFMA R13, R10, R10, c[0x0][0x18] ;\n"
	"        FFMA R14, R10, R10, -c[0x0][0x18] ;\n"
	"        LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
	"   @P0  IMAD R16, R0, R1, 0x7 ;\n"
	"   @!P0 FFMA R16, R10, R10, 2 ;\n"
	"   @P0  IMAD.WIDE R[18:19], R0, R1, c[0x0][0x10] ;\n"
	"   @!P0 IMAD.WIDE.U32 R[18:19], R0, R1, 0x7fffffff ;\n"
	"        STG.E [R20.64], R2 ;\n"
	"        STG.E [R20.64+0x4], R3 ;\n"
	"        STG.E [R20.64+0x8], R4 ;\n"
	"        STG.E [R20.64+0xc], R5 ;\n"
	"        STG.E.64 [R20.64+0x10], R[6:7] ;\n"
	"        STG.E.64 [R20.64+0x18], R[8:9] ;\n"
	"        STG.E.128 [R20.64+0x20], R[11:14] ;\n"
	"        STG.E [R20.64+0x30], R16 ;\n"
	"        LDG.E.64 R[24:25], [R20.64+0x18] ;\n"
	"        STG.E.64 [R20.64+0x38], R[18:19] ;\n"
	"        LDG.E.128 R[28:31], [R20.64+0x20] ;\n"
	"        STG.64 [R20.64+0x30], R[24:25] ;\n"
	"        EXIT ;\n";

START_TEST(test_kernel_third_operand)
{
	enum { T = 64, W = 16 };
	const uint32_t sv = 0x9e3779b9u;
	const uint64_t big = 0x00000001fffffff0ull;
	const float fx = 0.25f;
	/* every engine, and one with lockstep groups also without them */
	th_config cs[TH_MAXCONFIGS];
	const size_t nr = th_configs(TH_DEFAULTS | TH_UNGROUPED, 0, cs);
	for (size_t r = 0; r < nr; r++) {
		we_devptr out;
		ck_assert_int_eq(we_malloc(dev, T * W * 4, &out), WE_OK);
		ck_assert_int_eq(we_memset(dev, out, 0xee, T * W * 4), WE_OK);
		uint8_t params[32] = { 0 };
		memcpy(params, &out, 8);
		memcpy(params + 8, &sv, 4);
		memcpy(params + 16, &big, 8);
		memcpy(params + 24, &fx, 4);
		launch_text(third_src, T, &cs[r], params, 28);
		uint32_t got[T * W];
		ck_assert_int_eq(we_memcpy_dtoh(dev, got, out, sizeof got), WE_OK);
		for (uint32_t t = 0; t < T; t++) {
			const float ft = (float)t;
			const uint64_t ws = big + (uint64_t)((int64_t)(int32_t)t * (int32_t)sv);
			const uint64_t wu = (uint64_t)t * sv - 1u;
			const uint64_t w2 = t & 1 ? ws : (uint64_t)t * sv + 0x7fffffffu;
			const uint32_t e[W] = {
				t * t + 16, t * sv - 3, (uint32_t)(((uint64_t)t * sv) >> 32) + 5, t * sv + sv,
				(uint32_t)ws, (uint32_t)(ws >> 32), (uint32_t)wu, (uint32_t)(wu >> 32),
				f2u(fmaf(ft, ft, 1.0f)), f2u(fmaf(ft, -ft, -0.5f)), f2u(fmaf(ft, ft, fx)),
				f2u(fmaf(ft, ft, -fx)),
				/* +0x30: the LDG.E.64 of +0x18 */
				(uint32_t)wu, (uint32_t)(wu >> 32), (uint32_t)w2, (uint32_t)(w2 >> 32),
			};
			for (unsigned k = 0; k < W; k++)
				if (got[t * W + k] != e[k])
					ck_abort_msg("%s: thread %u word %u: 0x%08x, expected 0x%08x", cs[r].name, t, k,
						     got[t * W + k], e[k]);
		}
		ck_assert_int_eq(we_free(dev, out), WE_OK);
	}
}
END_TEST

/* The same, partial-mask IMAD/FFMA results (R16) before they are
 * overwritten: odd threads t*s + 7, even ones t*t + 2.0 */
START_TEST(test_kernel_third_operand_guarded)
{
	static const char src[] =
		".param ptr out\n"
		".param u32 s\n"
		"        S2R R0, SR_TID.X ;\n"
		"        MOV R22, 0x4 ;\n"
		"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
		"        IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x8] ;\n"
		"        I2F R10, R0 ;\n"
		"        LOP3.LUT R15, R0, 0x1, RZ, 0xc0, !PT ;\n"
		"        ISETP.NE.AND P0, PT, R15, RZ, PT ;\n"
		"   @P0  IMAD R16, R0, R1, 0x7 ;\n"
		"   @!P0 FFMA R16, R10, R10, 2 ;\n"
		"        STG.E [R20.64], R16 ;\n"
		"        EXIT ;\n";
	enum { T = 96 };
	const uint32_t sv = 0x12345u;
	/* every engine, and one with lockstep groups also without them */
	th_config cs[TH_MAXCONFIGS];
	const size_t nr = th_configs(TH_DEFAULTS | TH_UNGROUPED, 0, cs);
	for (size_t r = 0; r < nr; r++) {
		we_devptr out;
		ck_assert_int_eq(we_malloc(dev, T * 4, &out), WE_OK);
		uint8_t params[12] = { 0 };
		memcpy(params, &out, 8);
		memcpy(params + 8, &sv, 4);
		launch_text(src, T, &cs[r], params, sizeof params);
		uint32_t got[T];
		ck_assert_int_eq(we_memcpy_dtoh(dev, got, out, sizeof got), WE_OK);
		for (uint32_t t = 0; t < T; t++)
			expect_u32("R16", t, got[t], t & 1 ? t * sv + 7 : f2u((float)t * (float)t + 2.0f));
		ck_assert_int_eq(we_free(dev, out), WE_OK);
	}
}
END_TEST

/* Uniform predicates: UISETP, USEL, UIADD3 carries and .X, ULOP3.LUT's
 * predicate output, read back through MOV Rd, URb. */
static const char upred_src[] =
	".param ptr out\n"
	".param u32 a\n"
	"        S2R R0, SR_TID.X ;\n"
	"        MOV R22, 0x20 ;\n"
	"        IMAD.WIDE.U32 R[20:21], R0, R22, c[0x0][0x0] ;\n"
	"        ULDC UR4, c[0x0][0x8] ;\n"
	"        UMOV UR5, 0x10 ;\n"
	"        UISETP.GT.U32.AND UP0, UP1, UR4, UR5, UPT ;\n"
	"        USEL UR6, UR4, UR5, UP0 ;\n"
	"        USEL UR7, UR4, UR5, UP1 ;\n"
	"        UIADD3 UR8, UP2, UPT, UR4, -0x1, URZ ;\n"
	"        UIADD3.X UR9, URZ, URZ, URZ, UP2, !UPT ;\n"
	"        ULOP3.LUT UP3, UR10, UR4, 0xf, URZ, 0xc0, !UPT ;\n"
	"        USEL UR11, URZ, 0x1, UP3 ;\n"
	"        UISETP.EQ.OR UP4, UPT, UR4, 0x5, !UP0 ;\n"
	"        USEL UR12, URZ, 0x1, !UP4 ;\n"
	"        UISETP.LT.AND UP5, UPT, UR4, 0x0, UPT ;\n"
	"        UIADD3 UR13, UR12, UR11, URZ ;\n"
	"        USEL UR13, UR13, 0x63, !UP5 ;\n"
	"        MOV R1, UR6 ;\n"
	"        MOV R2, UR7 ;\n"
	"        MOV R3, UR8 ;\n"
	"        MOV R4, UR9 ;\n"
	"        MOV R5, UR10 ;\n"
	"        MOV R6, UR11 ;\n"
	"        MOV R7, UR12 ;\n"
	"        MOV R8, UR13 ;\n"
	"        STG.E.128 [R20.64], R[1:4] ;\n"
	"        STG.E.128 [R20.64+0x10], R[5:8] ;\n"
	"        EXIT ;\n";

START_TEST(test_kernel_uniform_pred)
{
	static const uint32_t as[] = { 0, 1, 5, 16, 17, 0x30, 0x80000005u, 0xffffffffu };
	enum { T = 40 };
	/* every engine, and one with lockstep groups also without them */
	th_config cs[TH_MAXCONFIGS];
	const size_t nr = th_configs(TH_DEFAULTS | TH_UNGROUPED, 0, cs);
	for (size_t r = 0; r < nr; r++)
		for (size_t j = 0; j < sizeof as / sizeof as[0]; j++) {
			const uint32_t a = as[j];
			we_devptr out;
			ck_assert_int_eq(we_malloc(dev, T * 32, &out), WE_OK);
			uint8_t params[12] = { 0 };
			memcpy(params, &out, 8);
			memcpy(params + 8, &a, 4);
			launch_text(upred_src, T, &cs[r], params, sizeof params);
			uint32_t got[T * 8];
			ck_assert_int_eq(we_memcpy_dtoh(dev, got, out, sizeof got), WE_OK);
			const bool gt = a > 16, low = (a & 0xf) != 0, up4 = a == 5 || !gt;
			const uint32_t e[8] = {
				gt ? a : 16, gt ? 16 : a, a - 1, a != 0, a & 0xf, low ? 0 : 1, up4,
				(int32_t)a < 0 ? 0x63 : (uint32_t)up4 + (low ? 0 : 1),
			};
			for (uint32_t t = 0; t < T; t++)
				for (unsigned k = 0; k < 8; k++)
					if (got[t * 8 + k] != e[k])
						ck_abort_msg("%s: a 0x%x thread %u word %u: 0x%x, expected 0x%x",
							     cs[r].name, a, t, k, got[t * 8 + k], e[k]);
			ck_assert_int_eq(we_free(dev, out), WE_OK);
		}
}
END_TEST

static Suite *sem_suite(void)
{
	Suite *s = suite_create("sem");
	TCase *tc;

	tc = tcase_create("alu");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mov);
	tcase_add_test(tc, test_iadd3_hand);
	tcase_add_test(tc, test_iadd3_random);
	tcase_add_test(tc, test_imad);
	tcase_add_test(tc, test_imad_wide);
	tcase_add_test(tc, test_isetp);
	tcase_add_test(tc, test_lop3);
	tcase_add_test(tc, test_shf);
	tcase_add_test(tc, test_vector_paths);
	tcase_add_test(tc, test_sel_imnmx);
	tcase_add_test(tc, test_unary_bits);
	tcase_add_test(tc, test_prmt);
	tcase_add_test(tc, test_lea);
	tcase_add_test(tc, test_p2r_r2p);
	suite_add_tcase(s, tc);

	tc = tcase_create("fpu");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_farith);
	tcase_add_test(tc, test_fsetp);
	tcase_add_test(tc, test_fmnmx);
	tcase_add_test(tc, test_mufu);
	tcase_add_test(tc, test_i2f);
	tcase_add_test(tc, test_f2i);
	suite_add_tcase(s, tc);

	tc = tcase_create("warp");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_s2r);
	tcase_add_test(tc, test_shfl_cuda);
	tcase_add_test(tc, test_shfl_random);
	tcase_add_test(tc, test_vote);
	tcase_add_test(tc, test_membar_nop);
	tcase_add_test(tc, test_uniform);
	tcase_add_test(tc, test_uniform_pred);
	suite_add_tcase(s, tc);

	tc = tcase_create("mem");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_global_ldst);
	tcase_add_test(tc, test_global_faults);
	tcase_add_test(tc, test_shared_ldst);
	tcase_add_test(tc, test_local_ldst);
	tcase_add_test(tc, test_ldc);
	tcase_add_test(tc, test_atomics);
	tcase_add_test(tc, test_atomics_hand);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernels");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_kernel_third_operand);
	tcase_add_test(tc, test_kernel_third_operand_guarded);
	tcase_add_test(tc, test_kernel_uniform_pred);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sem_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
