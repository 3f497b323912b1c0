/* lower_num.c — the numeric PTX instructions that need num.isa: integer
 * division and remainder, 64-bit mul.hi, 16-bit mul.wide/hi, the carry
 * chain (add.cc, addc, sub.cc, subc), saturating add, shf, bfe, bfi,
 * 64-bit clz/brev/bfind; f64 arithmetic, comparisons and
 * min/max; f32 rounding modes, .ftz and .sat, div, rcp, sqrt, rsqrt and
 * the .approx functions; testp, copysign, set; conversions between
 * integers and floats with every rounding mode.
 *
 * lower_num() is tried before lower_ops.c's families: it takes the forms
 * above (returning true, also when it reports an error) and leaves the
 * rest, among them the plain f32 forms lower_ops.c lowers, to them.  What
 * it takes but cannot run exactly is "not supported" (never an
 * approximation beyond PTX's own .approx bounds; doc/ptx.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ptx/lower.h"

static bool op_is(const lx *x, const char *s)
{
	return !strcmp(x->in->op, s);
}

/* every modifier is one of the NULL-terminated list ok; otherwise "not
 * supported", naming the first other one */
static bool mods_in(lx *x, const char *const *ok)
{
	for (int i = 0; i < x->in->nmods; i++) {
		const char *m = x->in->mods[i];
		size_t k = 0;
		while (ok[k] && strcmp(ok[k], m))
			k++;
		if (!ok[k]) {
			char why[48];
			snprintf(why, sizeof why, "the modifier .%s", m);
			lx_unsupported(x, why);
			return false;
		}
	}
	return true;
}

/* the IEEE rounding modifier as the ISA's suffix (.rn: none) */
static const char *frnd(const lx *x)
{
	return lx_has(x, "rz") ? ".RZ" : lx_has(x, "rm") ? ".RM" : lx_has(x, "rp") ? ".RP" : "";
}

static bool has_frnd(const lx *x)
{
	return lx_has(x, "rn") || lx_has(x, "rz") || lx_has(x, "rm") || lx_has(x, "rp");
}

/* the rounding, .FTZ and .SAT suffixes of a binary32 instruction */
static const char *fmods(const lx *x, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", frnd(x), lx_has(x, "ftz") ? ".FTZ" : "", lx_has(x, "sat") ? ".SAT" : "");
	return buf;
}

static const char *ftz(const lx *x)
{
	return lx_has(x, "ftz") ? ".FTZ" : "";
}

/* a 32-bit register holding constant v */
static int const32(lx *x, uint32_t v)
{
	int t = lx_tmp(x, RC_32);
	emit(x, "dr", V(t), "MOV $0, 0x%" PRIx32, v);
	return t;
}

/* a register pair holding constant v */
static int const64(lx *x, uint64_t v)
{
	int t = lx_tmp(x, RC_64);
	emit(x, "dr", V(t), "MOV $0, 0x%" PRIx32, (uint32_t)v);
	emit(x, "dh", V(t), "MOV $0, 0x%" PRIx32, (uint32_t)(v >> 32));
	return t;
}

/* the condition code CC.CF of add.cc/addc: one predicate vreg per kernel */
static int cc_reg(lx *x)
{
	if (!x->cc1)
		x->cc1 = lx_tmp(x, RC_PRED) + 1;
	return x->cc1 - 1;
}

static const char *itype(ptype t)
{
	if (t.bits == 64)
		return t.k == 's' ? "S64" : "U64";
	return t.k == 's' ? "S32" : "U32";
}

/* ---- integer ------------------------------------------------------------------ */

/* div/rem of every width: IDIV (narrow operands normalised to 32 bits) */
static bool num_idiv(lx *x, ptype t)
{
	if (!lx_nops(x, 3, 3))
		return true;
	const ptx_opnd *o = x->in->o;
	const char *rem = op_is(x, "rem") ? ".REM" : "";
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		if (d >= 0)
			emit(x, "dw uw uw", V(d, a, b), "IDIV%s.%s $0, $1, $2", rem, itype(t));
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_norm(x, lx_reg32(x, &o[1]), t);
	char b[32];
	int bv = t.bits < 32 ? lx_norm(x, lx_reg32(x, &o[2]), t) : lx_src32(x, &o[2], b, sizeof b);
	if (d < 0)
		return true;
	if (bv >= 0)
		emit(x, "dr ur ur", V(d, a, bv), "IDIV%s.%s $0, $1, $2", rem, itype(t));
	else
		emit(x, "dr ur", V(d, a), "IDIV%s.%s $0, $1, %s", rem, itype(t), b);
	return true;
}

/* mul/mad .hi of 64 bits (IMAD64.HI), .wide and .hi of 16 bits */
static bool num_imul(lx *x, ptype t)
{
	const bool mad = op_is(x, "mad"), hi = lx_has(x, "hi"), wide = lx_has(x, "wide");
	if (!(t.bits == 64 && hi) && !(t.bits == 16 && (hi || wide)))
		return false;
	if (!lx_nops(x, mad ? 4 : 3, mad ? 4 : 3))
		return true;
	if (lx_has(x, "sat")) {
		lx_unsupported(x, "mad.hi.sat");
		return true;
	}
	const ptx_opnd *o = x->in->o;
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		int c = mad ? lx_reg64(x, &o[3]) : -1;
		if (d < 0)
			return true;
		const char *u = t.k == 's' ? "" : ".U64";
		if (c >= 0)
			emit(x, "dw uw uw uw", V(d, a, b, c), "IMAD64.HI%s $0, $1, $2, $3", u);
		else
			emit(x, "dw uw uw", V(d, a, b), "IMAD64.HI%s $0, $1, $2, RZ", u);
		return true;
	}
	/* 16 bits: the 32-bit product of the normalised operands */
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_norm(x, lx_reg32(x, &o[1]), t), b = lx_norm(x, lx_reg32(x, &o[2]), t);
	int c = mad ? lx_reg32(x, &o[3]) : -1;
	if (d < 0)
		return true;
	if (wide) {
		if (c >= 0)
			emit(x, "dr ur ur ur", V(d, a, b, c), "IMAD $0, $1, $2, $3");
		else
			emit(x, "dr ur ur", V(d, a, b), "IMAD $0, $1, $2, RZ");
		return true;
	}
	int p = lx_tmp(x, RC_32);
	emit(x, "dr ur ur", V(p, a, b), "IMAD $0, $1, $2, RZ");
	emit(x, "dr ur", V(d, p), "SHF.R.%s.HI $0, RZ, 0x10, $1", t.k == 's' ? "S32" : "U32");
	if (c >= 0)
		emit(x, "mr ur", V(d, c), "IADD3 $0, $0, $1, RZ");
	return true;
}

/* one word of a carry chain: d = a + b (sub: a - b) + the carry in ci
 * (ci_neg: its negation; -1: none), the carry out into co (-1: none);
 * f: the words' form ('r' low, 'h' high), df the destination's */
static void carry_word(lx *x, int d, char df, int co, int a, int b, char f, int ci, bool ci_neg, bool sub)
{
	int v[5] = { d, a, b, -1, -1 };
	char sl[40], cot[8] = "PT", cit[24] = "";
	int n = snprintf(sl, sizeof sl, "d%c u%c u%c", df, f, f), k = 3;
	if (co >= 0) {
		v[k] = co;
		n += snprintf(sl + n, sizeof sl - (size_t)n, " %cp", co == ci ? 'm' : 'd');
		snprintf(cot, sizeof cot, "$%d", k++);
	}
	if (ci >= 0) {
		int ck = 3;
		if (co != ci) {
			v[k] = ci;
			snprintf(sl + n, sizeof sl - (size_t)n, " up");
			ck = k;
		}
		snprintf(cit, sizeof cit, ", %s$%d, !PT", ci_neg ? "!" : "", ck);
	}
	/* without .X a negated operand is ~b + 1; with .X, ~b plus the carry */
	emit(x, sl, v, "IADD3%s $0, %s, PT, $1, %s$2, RZ%s", ci >= 0 ? ".X" : "", cot,
	     sub ? "-" : "", cit);
}

/* add.cc, addc{.cc}, sub.cc, subc{.cc} of 32 and 64 bits.  CC.CF holds
 * the carry of an addition and the borrow of a subtraction (PTX: subc
 * computes a - (b + CC.CF)); IADD3's carry out of a - b is "no borrow",
 * so a subtraction stores the negated carry, and subc adds !CC. */
static bool num_carry(lx *x, ptype t)
{
	const bool sub = op_is(x, "sub") || op_is(x, "subc");
	const bool cin = op_is(x, "addc") || op_is(x, "subc"), cout = lx_has(x, "cc");
	if (!cin && !cout)
		return false;
	if (!lx_nops(x, 3, 3))
		return true;
	const ptx_opnd *o = x->in->o;
	const int cc = cc_reg(x);
	const bool w = t.bits == 64;
	int d = lx_dst(x, &o[0], w ? RC_64 : RC_32);
	int a = w ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	int b = w ? lx_reg64(x, &o[2]) : lx_reg32(x, &o[2]);
	if (d < 0)
		return true;
	if (!w) {
		carry_word(x, d, 'r', cout ? cc : -1, a, b, 'r', cin ? cc : -1, sub, sub);
	} else {
		/* the low word into a temp first: d may be a or b */
		int lo = lx_tmp(x, RC_32), mid = lx_tmp(x, RC_PRED);
		carry_word(x, lo, 'r', mid, a, b, 'r', cin ? cc : -1, sub, sub);
		carry_word(x, d, 'h', cout ? cc : -1, a, b, 'h', mid, false, sub);
		emit(x, "dr ur", V(d, lo), "MOV $0, $1");
	}
	if (cout && sub)
		emit(x, "mp", V(cc), "ISETP.EQ.AND $0, PT, RZ, RZ, !$0");
	return true;
}

/* add.sat.s32 / sub.sat.s32 */
static bool num_addsat(lx *x, ptype t)
{
	if (!lx_has(x, "sat"))
		return false;
	if (!lx_nops(x, 3, 3))
		return true;
	if (t.bits != 32 || t.k != 's') {
		lx_error(x, NULL, "%s.sat is defined for .s32 only", x->in->op);
		return true;
	}
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	if (d >= 0)
		emit(x, "dr ur ur", V(d, a, b), "IADD.SAT $0, $1, %s$2", op_is(x, "sub") ? "-" : "");
	return true;
}

/* shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: the funnel b:a shifted by c */
static bool num_shf(lx *x)
{
	if (!lx_nops(x, 4, 4))
		return true;
	static const char *const ok[] = { "l", "r", "clamp", "wrap", "b32", NULL };
	if (!mods_in(x, ok))
		return true;
	/* SHF.L.HI gives the high word of (Rc:Ra) << n, SHF.R the low word of
	 * (Rc:Ra) >> n; n clamped to 32 or, .W, taken modulo 32 */
	const char *form = lx_has(x, "l") ? "L" : "R", *w = lx_has(x, "wrap") ? ".W" : "";
	const char *hi = lx_has(x, "l") ? ".HI" : "";
	char mnem[32];
	snprintf(mnem, sizeof mnem, "SHF.%s%s.U32%s", form, w, hi);
	lx_emit_dacb(x, mnem);
	return true;
}

/* bfe.type d, a, pos, len and bfi.b32/b64 f, a, b, pos, len */
static bool num_bitfield(lx *x, ptype t)
{
	const bool bfi = op_is(x, "bfi");
	if (!lx_nops(x, bfi ? 5 : 4, bfi ? 5 : 4))
		return true;
	const ptx_opnd *o = x->in->o;
	const bool w = t.bits == 64;
	const char f = w ? 'w' : 'r';
	int d = lx_dst(x, &o[0], w ? RC_64 : RC_32);
	int a = w ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	if (bfi) {
		int b = w ? lx_reg64(x, &o[2]) : lx_reg32(x, &o[2]);
		int pos = lx_reg32(x, &o[3]), len = lx_reg32(x, &o[4]);
		char sl[24];
		snprintf(sl, sizeof sl, "d%c u%c u%c ur ur", f, f, f);
		if (d >= 0)
			emit(x, sl, V(d, a, b, pos, len), "BFI.%s $0, $1, $2, $3, $4", w ? "B64" : "B32");
		return true;
	}
	int pos = lx_reg32(x, &o[2]), len = lx_reg32(x, &o[3]);
	char sl[24];
	snprintf(sl, sizeof sl, "d%c u%c ur ur", f, f);
	if (d >= 0)
		emit(x, sl, V(d, a, pos, len), "BFE.%s $0, $1, $2, $3", itype(t));
	return true;
}

/* clz, bfind and brev of 64 bits (popc.b64 is lower_ops.c's) */
static bool num_bits64(lx *x, ptype t)
{
	if (t.bits != 64 || op_is(x, "popc"))
		return false;
	if (!lx_nops(x, 2, 2))
		return true;
	const ptx_opnd *o = x->in->o;
	int a = lx_reg64(x, &o[1]);
	if (op_is(x, "brev")) {
		int d = lx_dst(x, &o[0], RC_64), lo = lx_tmp(x, RC_32);
		if (d < 0)
			return true;
		emit(x, "dr uh", V(lo, a), "BREV $0, $1");
		emit(x, "dh ur", V(d, a), "BREV $0, $1");
		emit(x, "dr ur", V(d, lo), "MOV $0, $1");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int th = lx_tmp(x, RC_32), tl = lx_tmp(x, RC_32), p = lx_tmp(x, RC_PRED);
	if (d < 0)
		return true;
	if (op_is(x, "clz")) {
		/* hi != 0 ? clz(hi) : 32 + clz(lo), FLO.SH giving ~0 for 0 */
		emit(x, "dr uh", V(th, a), "FLO.U32.SH $0, $1");
		emit(x, "dr ur", V(tl, a), "FLO.U32.SH $0, $1");
		emit(x, "mr", V(tl), "IMNMX.U32 $0, $0, 0x20, PT");
		emit(x, "mr", V(tl), "IADD3 $0, $0, 0x20, RZ");
		emit(x, "dp uh", V(p, a), "ISETP.EQ.U32.AND $0, PT, $1, RZ, PT");
		emit(x, "dr ur ur up", V(d, tl, th, p), "SEL $0, $1, $2, $3");
		return true;
	}
	/* bfind: the most significant 1 (.s64: of a negative value's
	 * complement), ~0 for none; .shiftamt: 63 minus it */
	int v = a;
	if (t.k == 's') {
		int s = lx_tmp(x, RC_32);
		v = lx_tmp(x, RC_64);
		emit(x, "dr uh", V(s, a), "SHF.R.S32.HI $0, RZ, 0x1f, $1");
		emit(x, "dr ur ur", V(v, a, s), "LOP3.LUT $0, $1, $2, RZ, 0x3c, !PT");
		emit(x, "dh uh ur", V(v, a, s), "LOP3.LUT $0, $1, $2, RZ, 0x3c, !PT");
	}
	emit(x, "dr uh", V(th, v), "FLO.U32 $0, $1");
	emit(x, "dr ur", V(tl, v), "FLO.U32 $0, $1");
	emit(x, "mr", V(th), "IADD3 $0, $0, 0x20, RZ");
	emit(x, "dp uh", V(p, v), "ISETP.EQ.U32.AND $0, PT, $1, RZ, PT");
	if (!lx_has(x, "shiftamt")) {
		emit(x, "dr ur ur up", V(d, tl, th, p), "SEL $0, $1, $2, $3");
		return true;
	}
	emit(x, "mr ur up", V(th, tl, p), "SEL $0, $1, $0, $2");
	emit(x, "dp ur", V(p, th), "ISETP.EQ.U32.AND $0, PT, $1, -0x1, PT");
	emit(x, "dr ur", V(tl, th), "IADD3 $0, -$1, 0x3f, RZ");
	emit(x, "dr ur ur up", V(d, th, tl, p), "SEL $0, $1, $2, $3");
	return true;
}

/* ---- floating point ------------------------------------------------------------ */

static const char *const ok_f32[] = { "rn", "rz", "rm", "rp", "ftz", "sat", "f32", NULL };
static const char *const ok_f64[] = { "rn", "rz", "rm", "rp", "f64", NULL };

/* add/sub/mul/fma/mad of f64, and of f32 with .rz/.rm/.rp, .ftz or .sat
 * (the plain f32 forms are lower_ops.c's) */
static bool num_farith(lx *x, ptype t)
{
	const bool three = op_is(x, "fma") || op_is(x, "mad");
	if (t.bits == 32 && !lx_has(x, "rz") && !lx_has(x, "rm") && !lx_has(x, "rp") && !lx_has(x, "ftz") && !lx_has(x, "sat"))
		return false;
	if (!mods_in(x, t.bits == 32 ? ok_f32 : ok_f64) || !lx_nops(x, three ? 4 : 3, three ? 4 : 3))
		return true;
	if (three && !has_frnd(x)) {
		lx_error(x, NULL, "%s.f%u needs a rounding modifier (.rn, .rz, .rm or .rp)", x->in->op, t.bits);
		return true;
	}
	const ptx_opnd *o = x->in->o;
	const char *mn = three ? "FMA" : op_is(x, "mul") ? "MUL" : "ADD";
	const char *neg = op_is(x, "sub") ? "-" : "";
	if (t.bits == 32) {
		char m[24];
		int d = lx_dst(x, &o[0], RC_32);
		int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
		int c = three ? lx_reg32(x, &o[3]) : -1;
		if (d < 0)
			return true;
		if (three)
			emit(x, "dr ur ur ur", V(d, a, b, c), "FFMA%s $0, $1, $2, $3", fmods(x, m, sizeof m));
		else
			emit(x, "dr ur ur", V(d, a, b), "F%s%s $0, $1, %s$2", mn, fmods(x, m, sizeof m), neg);
		return true;
	}
	int d = lx_dst(x, &o[0], RC_64);
	int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
	int c = three ? lx_reg64(x, &o[3]) : -1;
	if (d < 0)
		return true;
	if (three)
		emit(x, "dw uw uw uw", V(d, a, b, c), "DFMA%s $0, $1, $2, $3", frnd(x));
	else
		emit(x, "dw uw uw", V(d, a, b), "D%s%s $0, $1, %s$2", mn, frnd(x), neg);
	return true;
}

/* div of f32 (.approx, .full, .rn/.rz/.rm/.rp) and f64 */
static bool num_fdiv(lx *x, ptype t)
{
	static const char *const ok32[] = { "approx", "full", "rn", "rz", "rm", "rp", "ftz", "f32", NULL };
	if (!mods_in(x, t.bits == 32 ? ok32 : ok_f64) || !lx_nops(x, 3, 3))
		return true;
	const ptx_opnd *o = x->in->o;
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		if (d >= 0)
			emit(x, "dw uw uw", V(d, a, b), "DDIV%s $0, $1, $2", frnd(x));
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	if (d < 0)
		return true;
	if (lx_has(x, "approx")) {
		/* a * (1/b) with the reciprocal flushed: PTX's div.approx gives 0
		 * for 2^126 < |b| < 2^128 (NaN for an infinite a) */
		int r = lx_tmp(x, RC_32);
		emit(x, "dr ur", V(r, b), "MUFU.RCP.FTZ $0, $1");
		emit(x, "dr ur ur", V(d, a, r), "FMUL%s $0, $1, $2", ftz(x));
		return true;
	}
	/* .full (2 ulp in PTX) is computed correctly rounded */
	emit(x, "dr ur ur", V(d, a, b), "FDIV%s%s $0, $1, $2", frnd(x), ftz(x));
	return true;
}

/* rcp, sqrt, rsqrt, ex2, lg2, sin, cos */
static bool num_funary(lx *x, ptype t)
{
	static const char *const ok32[] = { "approx", "rn", "rz", "rm", "rp", "ftz", "f32", NULL };
	const char *op = x->in->op;
	const bool approx = lx_has(x, "approx");
	if (!mods_in(x, t.bits == 32 ? ok32 : ok_f64) || !lx_nops(x, 2, 2))
		return true;
	if (!approx && !has_frnd(x)) {
		lx_error(x, NULL, "%s needs .approx or a rounding modifier", op);
		return true;
	}
	const bool exact_op = !strcmp(op, "rcp") || !strcmp(op, "sqrt");
	if (!approx && !exact_op) {
		lx_error(x, NULL, "%s is defined with .approx only", op);
		return true;
	}
	const ptx_opnd *o = x->in->o;
	if (t.bits == 64) {
		if (approx) {
			lx_unsupported(x, "the .approx f64 functions");
			return true;
		}
		int d = lx_dst(x, &o[0], RC_64), a = lx_reg64(x, &o[1]);
		if (d < 0)
			return true;
		if (!strcmp(op, "sqrt"))
			emit(x, "dw uw", V(d, a), "DSQRT%s $0, $1", frnd(x));
		else
			emit(x, "dw uw uw", V(d, const64(x, UINT64_C(0x3ff0000000000000)), a), "DDIV%s $0, $1, $2",
			     frnd(x));
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32), a = lx_reg32(x, &o[1]);
	if (d < 0)
		return true;
	if (!approx) {
		if (!strcmp(op, "sqrt"))
			emit(x, "dr ur", V(d, a), "FSQRT%s%s $0, $1", frnd(x), ftz(x));
		else
			emit(x, "dr ur ur", V(d, const32(x, 0x3f800000u), a), "FDIV%s%s $0, $1, $2", frnd(x), ftz(x));
		return true;
	}
	/* MUFU computes in binary64 and rounds once: within PTX's bounds */
	static const struct { const char *ptx, *fn; } mufu[] = {
		{ "rcp", "RCP" }, { "sqrt", "SQRT" }, { "rsqrt", "RSQ" }, { "ex2", "EX2" },
		{ "lg2", "LG2" }, { "sin", "SIN" }, { "cos", "COS" },
	};
	for (size_t k = 0; k < sizeof mufu / sizeof mufu[0]; k++)
		if (!strcmp(op, mufu[k].ptx))
			emit(x, "dr ur", V(d, a), "MUFU.%s%s $0, $1", mufu[k].fn, ftz(x));
	return true;
}

/* min/max of f64 and min/max.ftz.f32 */
static bool num_fminmax(lx *x, ptype t)
{
	if (t.bits == 32 && !lx_has(x, "ftz") && x->in->nmods == 1)
		return false;
	static const char *const ok32[] = { "ftz", "f32", NULL };
	if (!mods_in(x, t.bits == 32 ? ok32 : ok_f64) || !lx_nops(x, 3, 3))
		return true;
	const ptx_opnd *o = x->in->o;
	const char *sel = op_is(x, "min") ? "PT" : "!PT";
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64), a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		if (d >= 0)
			emit(x, "dw uw uw", V(d, a, b), "DMNMX $0, $1, $2, %s", sel);
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32), a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	if (d >= 0)
		emit(x, "dr ur ur", V(d, a, b), "FMNMX.FTZ $0, $1, $2, %s", sel);
	return true;
}

/* neg.ftz.f32, abs.ftz.f32: -x or |x| plus -0 (exact) with the flush */
static bool num_fnegabs(lx *x, ptype t)
{
	if (t.bits != 32 || !lx_has(x, "ftz"))
		return false;
	if (!lx_nops(x, 2, 2))
		return true;
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], RC_32), a = lx_reg32(x, &o[1]);
	if (d < 0)
		return true;
	int z = const32(x, 0x80000000u);
	emit(x, "dr ur ur", V(d, a, z), op_is(x, "neg") ? "FADD.FTZ $0, -$1, $2" : "FADD.FTZ $0, |$1|, $2");
	return true;
}

/* FSETP/DSETP p, q, a, b, {!}c of the comparison named by the first
 * modifier, combined by .and/.or/.xor (none: AND with PT); q, c < 0: PT */
static void fsetp_emit(lx *x, ptype t, int p, int q, int a, int b, int c, bool cn)
{
	const char *bop = lx_has(x, "and") ? "AND" : lx_has(x, "or") ? "OR" : lx_has(x, "xor") ? "XOR" : "AND";
	const char *cmp = lx_fcmp(x->in->mods[0]);
	const char f = t.bits == 64 ? 'w' : 'r';
	int v[5] = { p, a, b, -1, -1 }, k = 3;
	char sl[32], qt[8] = "PT", ct[8] = "PT";
	int n = snprintf(sl, sizeof sl, "dp u%c u%c", f, f);
	if (c >= 0) {
		v[k] = c;
		n += snprintf(sl + n, sizeof sl - (size_t)n, " up");
		snprintf(ct, sizeof ct, "%s$%d", cn ? "!" : "", k++);
	}
	if (q >= 0) {
		v[k] = q;
		snprintf(sl + n, sizeof sl - (size_t)n, " dp");
		snprintf(qt, sizeof qt, "$%d", k);
	}
	emit(x, sl, v, "%sSETP.%s%s.%s $0, %s, $1, $2, %s", t.bits == 64 ? "D" : "F", cmp,
	     t.bits == 64 ? "" : ftz(x), bop, qt, ct);
}

/* setp of f64 and setp.ftz.f32 */
static bool num_fsetp(lx *x, ptype t)
{
	if (t.bits == 32 && !lx_has(x, "ftz"))
		return false;
	const ptx_ins *in = x->in;
	const ptx_opnd *o = in->o;
	const bool comb = lx_has(x, "and") || lx_has(x, "or") || lx_has(x, "xor");
	if (!lx_nops(x, comb ? 4 : 3, comb ? 4 : 3))
		return true;
	if (!in->nmods || !lx_fcmp(in->mods[0])) {
		lx_error(x, NULL, "unknown comparison '%s'", in->nmods ? in->mods[0] : "");
		return true;
	}
	int p = lx_dst(x, &o[0], RC_PRED);
	int q = o[0].reg2 >= 0 ? lx_reg(x, o[0].reg2) : -1;
	bool cn = false;
	int c = comb ? lx_pred(x, &o[3], &cn) : -1;
	int a = t.bits == 64 ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	int b = t.bits == 64 ? lx_reg64(x, &o[2]) : lx_reg32(x, &o[2]);
	if (p >= 0)
		fsetp_emit(x, t, p, q, a, b, c, cn);
	return true;
}

/* set.cmp{.ftz}.dtype.stype d, a, b {, {!}c}: d = all ones (1.0f for an
 * .f32 destination) where the comparison (combined with c) holds, else 0;
 * float comparisons of f32 and f64 */
static bool num_set(lx *x)
{
	const ptx_ins *in = x->in;
	const ptx_opnd *o = in->o;
	ptype dt = lx_type_at(in, 0), st = lx_type_at(in, 1);
	const bool comb = lx_has(x, "and") || lx_has(x, "or") || lx_has(x, "xor");
	if (!lx_nops(x, comb ? 4 : 3, comb ? 4 : 3))
		return true;
	if (st.k != 'f' || (st.bits != 32 && st.bits != 64) || dt.bits != 32 || dt.k == 'h') {
		lx_unsupported(x, "set with an integer or f16 comparison");
		return true;
	}
	if (!in->nmods || !lx_fcmp(in->mods[0])) {
		lx_error(x, NULL, "unknown comparison '%s'", in->nmods ? in->mods[0] : "");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	bool cn = false;
	int c = comb ? lx_pred(x, &o[3], &cn) : -1;
	int a = st.bits == 64 ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	int b = st.bits == 64 ? lx_reg64(x, &o[2]) : lx_reg32(x, &o[2]);
	if (d < 0)
		return true;
	int p = lx_tmp(x, RC_PRED);
	fsetp_emit(x, st, p, -1, a, b, c, cn);
	emit(x, "dr up", V(d, p), "SEL $0, RZ, %s, !$1", dt.k == 'f' ? "0x3f800000" : "-0x1");
	return true;
}

/* testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64} */
static bool num_testp(lx *x, ptype t)
{
	if (!lx_nops(x, 2, 2))
		return true;
	if (t.k != 'f' || (t.bits != 32 && t.bits != 64)) {
		lx_error(x, NULL, "testp takes .f32 or .f64");
		return true;
	}
	const ptx_opnd *o = x->in->o;
	const bool w = t.bits == 64;
	int p = lx_dst(x, &o[0], RC_PRED);
	int a = w ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	if (p < 0)
		return true;
	const char *D = w ? "D" : "F", *sl = w ? "dp uw uw" : "dp ur ur", *slm = w ? "mp uw uw" : "mp ur ur";
	int inf = w ? const64(x, UINT64_C(0x7ff0000000000000)) : const32(x, 0x7f800000u);
	int mn = w ? const64(x, UINT64_C(0x0010000000000000)) : const32(x, 0x00800000u);
	if (lx_has(x, "finite")) {
		emit(x, sl, V(p, a, inf), "%sSETP.LT.AND $0, PT, |$1|, $2, PT", D);
	} else if (lx_has(x, "infinite")) {
		emit(x, sl, V(p, a, inf), "%sSETP.EQ.AND $0, PT, |$1|, $2, PT", D);
	} else if (lx_has(x, "number")) {
		emit(x, sl, V(p, a, a), "%sSETP.NUM.AND $0, PT, $1, $2, PT", D);
	} else if (lx_has(x, "notanumber")) {
		emit(x, sl, V(p, a, a), "%sSETP.NAN.AND $0, PT, $1, $2, PT", D);
	} else if (lx_has(x, "normal")) {
		emit(x, sl, V(p, a, mn), "%sSETP.GE.AND $0, PT, |$1|, $2, PT", D);
		emit(x, slm, V(p, a, inf), "%sSETP.LT.AND $0, PT, |$1|, $2, $0", D);
	} else if (lx_has(x, "subnormal")) {
		/* 0 < |a| < the smallest normal */
		emit(x, sl, V(p, a, mn), "%sSETP.LT.AND $0, PT, |$1|, $2, PT", D);
		emit(x, w ? "mp uw" : "mp ur", V(p, a), "%sSETP.GT.AND $0, PT, |$1|, RZ, $0", D);
	} else {
		lx_error(x, NULL, "testp needs .finite, .infinite, .number, .notanumber, .normal or .subnormal");
	}
	return true;
}

/* copysign.type d, a, b: b with the sign of a */
static bool num_copysign(lx *x, ptype t)
{
	if (!lx_nops(x, 3, 3))
		return true;
	const ptx_opnd *o = x->in->o;
	/* LUT 0xe2: (a & m) | (b & ~m) with m = 0x80000000 as B */
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64), a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		if (d < 0)
			return true;
		emit(x, "dh uh uh", V(d, a, b), "LOP3.LUT $0, $1, 0x80000000, $2, 0xe2, !PT");
		emit(x, "dr ur", V(d, b), "MOV $0, $1");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32), a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	if (d >= 0)
		emit(x, "dr ur ur", V(d, a, b), "LOP3.LUT $0, $1, 0x80000000, $2, 0xe2, !PT");
	return true;
}

/* ---- conversions ------------------------------------------------------------------ */

static const char *const ok_cvt[] = { "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat",
				      "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f32", "f64",
				      NULL };

/* the integer rounding of cvt as F2IRound, NULL if none */
static const char *int_rnd(const lx *x)
{
	return lx_has(x, "rni") ? "RN" : lx_has(x, "rzi") ? "TRUNC" : lx_has(x, "rmi") ? "FLOOR" : lx_has(x, "rpi") ? "CEIL" : NULL;
}

/* clamp the 32-bit value v in place to [lo, hi] (signed or unsigned
 * comparisons); a bound that is the full range is skipped */
static void clamp32(lx *x, int v, bool uns, bool have_lo, int32_t lo, bool have_hi, uint32_t hi)
{
	if (have_lo)
		emit(x, "mr", V(v), "IMNMX%s $0, $0, %" PRId32 ", !PT", uns ? ".U32" : "", lo);
	if (have_hi)
		emit(x, "mr", V(v), "IMNMX%s $0, $0, %" PRId32 ", PT", uns ? ".U32" : "", (int32_t)hi);
}

/* the largest value of integer type t (bits < 64) */
static uint32_t int_max(ptype t)
{
	return t.k == 's' ? (uint32_t)((UINT64_C(1) << (t.bits - 1)) - 1) : (uint32_t)((UINT64_C(1) << t.bits) - 1);
}

/* cvt.sat between integers (the rest is lower_ops.c's cvt_int) */
static bool num_cvt_isat(lx *x, ptype dt, ptype st)
{
	if (!lx_has(x, "sat") || (dt.bits >= st.bits && dt.k == st.k))
		return false;
	if (!lx_nops(x, 2, 2))
		return true;
	if (st.bits == 64) {
		lx_unsupported(x, "saturating conversions from 64-bit integers");
		return true;
	}
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], dt.bits == 64 ? RC_64 : RC_32);
	int s = lx_norm(x, lx_reg32(x, &o[1]), st);
	if (d < 0)
		return true;
	int v = lx_tmp(x, RC_32);
	emit(x, "dr ur", V(v, s), "MOV $0, $1");
	const bool ssrc = st.k == 's';
	/* the bounds of the destination that the source's range exceeds */
	const bool lo_needed = ssrc && (dt.k != 's' || dt.bits < st.bits);
	const int32_t lo = dt.k != 's' ? 0 : dt.bits < 32 ? -(int32_t)int_max(dt) - 1 : INT32_MIN;
	const bool hi_needed = dt.bits < 32 ? true : dt.bits == 32 && dt.k == 's' && !ssrc;
	const uint32_t hi = dt.bits < 32 ? int_max(dt) : 0x7fffffffu;
	clamp32(x, v, !ssrc, lo_needed && (dt.k != 's' || dt.bits < 32), lo, hi_needed, hi);
	emit(x, "dr ur", V(d, v), "MOV $0, $1");
	if (dt.bits == 64) {
		if (dt.k == 's' && ssrc)
			emit(x, "dh ur", V(d, v), "SHF.R.S32.HI $0, RZ, 0x1f, $1");
		else
			emit(x, "dh", V(d), "MOV $0, 0");
	}
	return true;
}

/* int -> float: I2F.dtype.itype.rm (narrow integers normalised first) */
static void cvt_i2f(lx *x, ptype dt, ptype st)
{
	const ptx_opnd *o = x->in->o;
	if (lx_has(x, "sat")) {
		lx_unsupported(x, "saturating integer to float conversions");
		return;
	}
	if (!has_frnd(x)) {
		lx_error(x, NULL, "an integer to float cvt needs .rn, .rz, .rm or .rp");
		return;
	}
	const bool dw = dt.bits == 64, sw = st.bits == 64;
	int d = lx_dst(x, &o[0], dw ? RC_64 : RC_32);
	int s = sw ? lx_reg64(x, &o[1]) : lx_norm(x, lx_reg32(x, &o[1]), st);
	char sl[16];
	snprintf(sl, sizeof sl, "d%c u%c", dw ? 'w' : 'r', sw ? 'w' : 'r');
	if (d >= 0)
		emit(x, sl, V(d, s), "I2F.F%u.%s%s $0, $1", dt.bits, itype(st), frnd(x));
}

/* float -> int: F2I.itype.ftype.rnd, saturated; 8/16-bit destinations
 * through 32 bits and a clamp */
static void cvt_f2i(lx *x, ptype dt, ptype st)
{
	const ptx_opnd *o = x->in->o;
	const char *rnd = int_rnd(x);
	if (!rnd) {
		lx_error(x, NULL, "a float to integer cvt needs .rni, .rzi, .rmi or .rpi");
		return;
	}
	const bool dw = dt.bits == 64, sw = st.bits == 64;
	int d = lx_dst(x, &o[0], dw ? RC_64 : RC_32);
	int s = sw ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	if (d < 0)
		return;
	ptype it = { dw ? 64u : 32u, dt.k == 's' ? 's' : 'u' };
	char sl[16];
	snprintf(sl, sizeof sl, "d%c u%c", dw ? 'w' : 'r', sw ? 'w' : 'r');
	emit(x, sl, V(d, s), "F2I.%s.F%u.%s%s $0, $1", itype(it), st.bits, rnd, sw ? "" : ftz(x));
	if (dt.bits < 32)
		clamp32(x, d, dt.k != 's', dt.k == 's', -(int32_t)int_max(dt) - 1, true, int_max(dt));
}

/* float -> float: F2F between f32 and f64, FRND for the integer
 * roundings, FADD.FTZ/.SAT with -0 (exact) for .ftz/.sat alone */
static void cvt_f2f(lx *x, ptype dt, ptype st)
{
	const ptx_opnd *o = x->in->o;
	const char *rnd = int_rnd(x);
	char m[24];
	if (dt.bits != st.bits) {
		if (rnd || (dt.bits == 64 && lx_has(x, "sat"))) {
			lx_unsupported(x, "integer rounding or .sat in a conversion between f32 and f64");
			return;
		}
		if (dt.bits == 32) {
			if (!has_frnd(x)) {
				lx_error(x, NULL, "cvt.f32.f64 needs .rn, .rz, .rm or .rp");
				return;
			}
			int d = lx_dst(x, &o[0], RC_32), s = lx_reg64(x, &o[1]);
			if (d >= 0)
				emit(x, "dr uw", V(d, s), "F2F.F32.F64%s $0, $1", fmods(x, m, sizeof m));
		} else {
			int d = lx_dst(x, &o[0], RC_64), s = lx_reg32(x, &o[1]);
			if (d >= 0)
				emit(x, "dw ur", V(d, s), "F2F.F64.F32%s $0, $1", ftz(x));
		}
		return;
	}
	const bool w = dt.bits == 64;
	int d = lx_dst(x, &o[0], w ? RC_64 : RC_32);
	int s = w ? lx_reg64(x, &o[1]) : lx_reg32(x, &o[1]);
	if (d < 0)
		return;
	if (rnd) {
		emit(x, w ? "dw uw" : "dr ur", V(d, s), "FRND%s.%s%s%s $0, $1", w ? ".F64" : "", rnd, w ? "" : ftz(x),
		     lx_has(x, "sat") ? ".SAT" : "");
	} else if (w && lx_has(x, "sat")) {
		lx_unsupported(x, "cvt.sat.f64.f64");
	} else if (!w && (lx_has(x, "ftz") || lx_has(x, "sat"))) {
		emit(x, "dr ur ur", V(d, s, const32(x, 0x80000000u)), "FADD%s%s $0, $1, $2", ftz(x),
		     lx_has(x, "sat") ? ".SAT" : "");
	} else if (w) {
		emit(x, "dr ur", V(d, s), "MOV $0, $1");
		emit(x, "dh uh", V(d, s), "MOV $0, $1");
	} else {
		emit(x, "dr ur", V(d, s), "MOV $0, $1");
	}
}

/* cvt with a float on either side, and integer cvt.sat; the forms
 * lower_ops.c lowers (cvt.rn.f32.{s32,u32}, cvt.{rni,...}.{s32,u32}.f32,
 * integer conversions) are left to it */
static bool num_cvt(lx *x)
{
	ptype dt = lx_type_at(x->in, 0), st = lx_type_at(x->in, 1);
	if (!dt.bits || !st.bits || dt.k == 'h' || st.k == 'h')
		return false;
	if (dt.k != 'f' && st.k != 'f')
		return num_cvt_isat(x, dt, st);
	const bool dir = lx_has(x, "rz") || lx_has(x, "rm") || lx_has(x, "rp");
	if (dt.k == 'f' && dt.bits == 32 && st.k != 'f' && st.bits == 32 && !dir && !lx_has(x, "ftz") && !lx_has(x, "sat"))
		return false;
	if (st.k == 'f' && st.bits == 32 && dt.k != 'f' && dt.bits == 32 && !lx_has(x, "ftz"))
		return false;
	if (!mods_in(x, ok_cvt) || !lx_nops(x, 2, 2))
		return true;
	if (dt.k == 'f' && st.k == 'f')
		cvt_f2f(x, dt, st);
	else if (dt.k == 'f')
		cvt_i2f(x, dt, st);
	else
		cvt_f2i(x, dt, st);
	return true;
}

/* ---- dispatch ------------------------------------------------------------------------- */

bool lower_num(lx *x)
{
	const char *op = x->in->op;
	ptype t = lx_type(x->in);
	const bool f = t.k == 'f' && (t.bits == 32 || t.bits == 64);
	static const char *const arith[] = { "add", "sub", "mul", "mad", "fma", "min", "max", "neg", "abs",
					     "div", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh",
					     "setp", "set", "testp", "copysign" };
	for (size_t k = 0; t.k == 'h' && k < sizeof arith / sizeof arith[0]; k++)
		if (!strcmp(op, arith[k])) {
			lx_unsupported(x, "f16 and bf16 arithmetic");
			return true;
		}
	if (!strcmp(op, "cvt"))
		return num_cvt(x);
	if (!strcmp(op, "div") || !strcmp(op, "rem"))
		return f ? num_fdiv(x, t) : num_idiv(x, t);
	if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "addc") || !strcmp(op, "subc"))
		return f ? num_farith(x, t) : num_carry(x, t) || num_addsat(x, t);
	if (!strcmp(op, "mul") || !strcmp(op, "mad") || !strcmp(op, "fma"))
		return f ? num_farith(x, t) : num_imul(x, t);
	if (!strcmp(op, "min") || !strcmp(op, "max"))
		return f && num_fminmax(x, t);
	if (!strcmp(op, "neg") || !strcmp(op, "abs"))
		return f && num_fnegabs(x, t);
	if (!strcmp(op, "setp"))
		return f && num_fsetp(x, t);
	if (!strcmp(op, "rcp") || !strcmp(op, "sqrt") || !strcmp(op, "rsqrt") || !strcmp(op, "ex2") ||
	    !strcmp(op, "lg2") || !strcmp(op, "sin") || !strcmp(op, "cos")) {
		if (!f)
			return false;
		return num_funary(x, t);
	}
	if (!strcmp(op, "set"))
		return num_set(x);
	if (!strcmp(op, "testp"))
		return num_testp(x, t);
	if (!strcmp(op, "copysign"))
		return num_copysign(x, t);
	if (!strcmp(op, "shf"))
		return num_shf(x);
	if (!strcmp(op, "bfe") || !strcmp(op, "bfi"))
		return num_bitfield(x, t);
	if (!strcmp(op, "clz") || !strcmp(op, "brev") || !strcmp(op, "bfind") || !strcmp(op, "popc"))
		return num_bits64(x, t);
	return false;
}
