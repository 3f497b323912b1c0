/* sem_num.c — semantic handlers of num.isa: integer division, 64-bit
 * multiply-add, saturating add and bit fields; binary64 arithmetic;
 * correctly rounded binary32 division and square root; conversions; and
 * the rounding-mode, .FTZ and .SAT forms of FADD/FMUL/FFMA.
 *
 * Correct rounding is the host's IEEE-754 arithmetic: round-to-nearest-
 * even by default, the directed modes (.RZ/.RM/.RP) by fesetround around
 * the lane loop.  GCC has no FENV_ACCESS, so the operations whose
 * rounding the mode changes read their operands from and write their
 * result to volatile objects: the compiler can neither fold them nor move
 * them across the fesetround calls.  .FTZ flushes subnormal binary32
 * inputs and results (after rounding) to zeros of their sign; .SAT clamps
 * a result to [0, 1] (NaN and -0 to +0).  NaN results are canonical
 * (sem_float.h).
 *
 * Handlers compute every lane into local arrays and write the
 * destinations last, so a destination may name a source.
 */
#include <fenv.h>
#include <math.h>

#include "device/device.h"
#include "exec/exec.h"
#include "exec/sem.h"
#include "exec/sem_float.h"

#ifdef __clang__
#pragma STDC FENV_ACCESS ON
#endif

/* ---- operands ---------------------------------------------------------- */

/* A 64-bit source (a register pair, or an immediate sign-extended) with
 * the float -/|x| modifiers applied to its sign bit when fmods. */
static void src64(xctx *x, const xopd *o, uint64_t v[XLANES], bool fmods)
{
	uint32_t tl[XLANES], th[XLANES];
	const uint32_t *lo = xsrc(x, o, 0, tl, false);
	const uint32_t *hi = xsrc(x, o, 1, th, false);
	uint64_t and_m = ~UINT64_C(0), xor_m = 0;
	if (fmods && (o->flags & XF_ABS))
		and_m = UINT64_C(0x7fffffffffffffff);
	if (fmods && (o->flags & XF_NEG))
		xor_m = UINT64_C(1) << 63;
	for_lanes(l) v[l] = ((((uint64_t)hi[l] << 32) | lo[l]) & and_m) ^ xor_m;
}

/* A float source: binary64 (a register pair) or binary32 (zero-extended),
 * with its -/|x| */
static void srcfp(xctx *x, const xopd *o, bool f64, uint64_t v[XLANES])
{
	if (f64) {
		src64(x, o, v, true);
		return;
	}
	uint32_t t[XLANES];
	const uint32_t *a = fsrc(x, o, t);
	for_lanes(l) v[l] = a[l];
}

/* An integer source of 32 bits (sign- or zero-extended) or 64. */
static void srcint(xctx *x, const xopd *o, bool w64, bool sgn, uint64_t v[XLANES])
{
	if (w64) {
		src64(x, o, v, false);
		return;
	}
	uint32_t t[XLANES];
	const uint32_t *a = xsrc(x, o, 0, t, false);
	if (sgn) {
		for_lanes(l) v[l] = (uint64_t)(int64_t)(int32_t)a[l];
	} else {
		for_lanes(l) v[l] = a[l];
	}
}

/* Write the low 32 bits, or all 64 (a register pair), of v. */
static void write_int(xctx *x, const xopd *o, bool w64, const uint64_t v[XLANES])
{
	uint32_t lo[XLANES], hi[XLANES];
	for_lanes(l) {
		lo[l] = (uint32_t)v[l];
		hi[l] = (uint32_t)(v[l] >> 32);
	}
	xwrite(x, o, 0, lo, x->pmask);
	if (w64)
		xwrite(x, o, 1, hi, x->pmask);
}

static bool int_type_64(int t) { return t == ISA_IntType_S64 || t == ISA_IntType_U64; }
static bool int_type_signed(int t) { return t == ISA_IntType_S32 || t == ISA_IntType_S64; }

/* ---- rounding modes ------------------------------------------------------ */

/* FRound (num.isa: RN, RZ, RM, RP) -> the host's mode */
static int host_mode(int rm)
{
	switch (rm) {
	case ISA_FRound_RZ: return FE_TOWARDZERO;
	case ISA_FRound_RM: return FE_DOWNWARD;
	case ISA_FRound_RP: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

/* Enter rounding mode rm; returns the mode to restore (rm_leave). */
static int rm_enter(int rm)
{
	if (rm == ISA_FRound_RN)
		return -1;
	int old = fegetround();
	fesetround(host_mode(rm));
	return old;
}

static void rm_leave(int old)
{
	if (old >= 0)
		fesetround(old);
}

/* One binary32 or binary64 operation in the current rounding mode
 * (through volatile objects: see the head of the file). */
static float f32_op(enum num_fop op, float a, float b, float c)
{
	volatile float va = a, vb = b, vc = c;
	volatile float r;
	switch (op) {
	case NUM_FADD: r = va + vb; break;
	case NUM_FMUL: r = va * vb; break;
	case NUM_FFMA: r = fmaf(va, vb, vc); break;
	case NUM_FDIV: r = va / vb; break;
	default: r = sqrtf(va); break;
	}
	return r;
}

static double f64_op(enum num_fop op, double a, double b, double c)
{
	volatile double va = a, vb = b, vc = c;
	volatile double r;
	switch (op) {
	case NUM_FADD: r = va + vb; break;
	case NUM_FMUL: r = va * vb; break;
	case NUM_FFMA: r = fma(va, vb, vc); break;
	case NUM_FDIV: r = va / vb; break;
	default: r = sqrt(va); break;
	}
	return r;
}

/* .SAT: [0, 1]; NaN, negatives and -0 give +0 */
static uint32_t sat32(uint32_t u)
{
	if (nan_bits(u) || (u & 0x80000000u))
		return 0;
	return u > 0x3f800000u ? 0x3f800000u : u;
}

/* A binary32 result: NaN canonical, then .FTZ and .SAT */
static uint32_t fin32(float f, bool ftz, bool sat)
{
	uint32_t u = fres(f);
	if (ftz)
		u = ftz32(u);
	return sat ? sat32(u) : u;
}

static uint64_t fin64(double d) { return d != d ? CANON_NAN64 : d2u(d); }

/* ---- FADD/FMUL/FFMA with modifiers, FDIV, FSQRT -------------------------- */

_Static_assert(FADD_ra == FFMA_ra && FMUL_ra == FFMA_ra && FDIV_ra == FFMA_ra && FSQRT_ra == FFMA_ra &&
		       FADD_b == FFMA_b && FMUL_b == FFMA_b && FDIV_b == FFMA_b && FADD_rd == FFMA_rd &&
		       FMUL_rd == FFMA_rd && FDIV_rd == FFMA_rd && FSQRT_rd == FFMA_rd,
	       "the binary32 operations name the same positions");

void sem_num_farith(xctx *x, const xinsn *i, enum num_fop op)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES];
	const bool ftz = i->in->ftz == ISA_Ftz_FTZ, sat = i->in->sat == ISA_FSat_SAT;
	const uint32_t *a = fsrc(x, &i->o[FFMA_ra], ta);
	const uint32_t *b = op == NUM_FSQRT ? a : fsrc(x, &i->o[FFMA_b], tb);
	const uint32_t *c = op == NUM_FFMA ? fsrc(x, &i->o[FFMA_c], tc) : a;
	if (ftz) {
		a = ftz_row(a, ta);
		b = op == NUM_FSQRT ? a : ftz_row(b, tb);
		c = op == NUM_FFMA ? ftz_row(c, tc) : a;
	}
	const int old = rm_enter(i->in->rm);
	for_lanes(l) res[l] = fin32(f32_op(op, u2f(a[l]), u2f(b[l]), u2f(c[l])), ftz, sat);
	rm_leave(old);
	xwrite(x, &i->o[FFMA_rd], 0, res, x->pmask);
}

XSEM(FDIV) { sem_num_farith(x, i, NUM_FDIV); }
XSEM(FSQRT) { sem_num_farith(x, i, NUM_FSQRT); }

/* ---- binary64 -------------------------------------------------------------- */

_Static_assert(DADD_ra == DFMA_ra && DMUL_ra == DFMA_ra && DDIV_ra == DFMA_ra && DSQRT_ra == DFMA_ra &&
		       DADD_rb == DFMA_rb && DMUL_rb == DFMA_rb && DDIV_rb == DFMA_rb && DADD_rd == DFMA_rd &&
		       DMUL_rd == DFMA_rd && DDIV_rd == DFMA_rd && DSQRT_rd == DFMA_rd,
	       "the binary64 operations name the same positions");

static void darith(xctx *x, const xinsn *i, enum num_fop op)
{
	uint64_t a[XLANES], b[XLANES], c[XLANES], res[XLANES];
	src64(x, &i->o[DFMA_ra], a, true);
	if (op != NUM_FSQRT)
		src64(x, &i->o[DFMA_rb], b, true);
	else
		memcpy(b, a, sizeof b);
	if (op == NUM_FFMA)
		src64(x, &i->o[DFMA_rc], c, true);
	else
		memcpy(c, a, sizeof c);
	const int old = rm_enter(i->in->rm);
	for_lanes(l) res[l] = fin64(f64_op(op, u2d(a[l]), u2d(b[l]), u2d(c[l])));
	rm_leave(old);
	write_int(x, &i->o[DFMA_rd], true, res);
}

XSEM(DADD) { darith(x, i, NUM_FADD); }
XSEM(DMUL) { darith(x, i, NUM_FMUL); }
XSEM(DFMA) { darith(x, i, NUM_FFMA); }
XSEM(DDIV) { darith(x, i, NUM_FDIV); }
XSEM(DSQRT) { darith(x, i, NUM_FSQRT); }

_Static_assert(DSETP_pu == ISETP_pu && DSETP_pv == ISETP_pv && DSETP_pp == ISETP_pp,
	       "DSETP and ISETP name the same positions");

XSEM(DSETP)
{
	uint64_t a[XLANES], b[XLANES];
	uint32_t r[XLANES];
	src64(x, &i->o[DSETP_ra], a, true);
	src64(x, &i->o[DSETP_rb], b, true);
	/* FCmp codes are a mask of LT=1, EQ=2, GT=4, unordered=8 */
	const unsigned cmp = (unsigned)i->in->cmp & 15u;
	for_lanes(l) {
		const double da = u2d(a[l]), db = u2d(b[l]);
		const uint32_t lt = da < db, eq = da == db, gt = da > db;
		const uint32_t un = (uint32_t)nan_bits64(a[l]) | (uint32_t)nan_bits64(b[l]);
		r[l] = (lt & cmp) | (eq & (cmp >> 1)) | (gt & (cmp >> 2)) | (un & (cmp >> 3));
	}
	sem_setp(x, i, lanes_mask(r));
}

/* IEEE minNum/maxNum with -0 < +0, as FMNMX */
static uint64_t dminmax(uint64_t ua, uint64_t ub, bool want_min)
{
	const bool na = nan_bits64(ua), nb = nan_bits64(ub);
	if (na || nb)
		return na && nb ? CANON_NAN64 : na ? ub : ua;
	const double a = u2d(ua), b = u2d(ub);
	if (a == b)
		return want_min ? (ua | ub) : (ua & ub);
	return (a < b) == want_min ? ua : ub;
}

XSEM(DMNMX)
{
	uint64_t a[XLANES], b[XLANES], res[XLANES];
	src64(x, &i->o[DMNMX_ra], a, true);
	src64(x, &i->o[DMNMX_rb], b, true);
	const uint32_t p = xpred(x, &i->o[DMNMX_pp]);
	for_lanes(l) res[l] = dminmax(a[l], b[l], (p >> l) & 1u);
	write_int(x, &i->o[DMNMX_rd], true, res);
}

/* ---- integer ---------------------------------------------------------------- */

/* Division and remainder of one lane: CUDA's results for a zero divisor
 * (all ones, from the final select of nvcc's division sequence) and for
 * the most negative value divided by -1 (itself, remainder 0). */
static uint64_t idiv1(uint64_t a, uint64_t b, bool w64, bool sgn, bool rem)
{
	const uint64_t ones = w64 ? ~UINT64_C(0) : UINT64_C(0xffffffff);
	if (b == 0)
		return ones;
	if (!sgn)
		return rem ? a % b : a / b;
	const int64_t sa = (int64_t)a, sb = (int64_t)b;
	if (sb == -1)
		return rem ? 0 : (0 - a) & ones;
	return (uint64_t)(rem ? sa % sb : sa / sb) & ones;
}

XSEM(IDIV)
{
	const int t = i->in->type;
	const bool w64 = int_type_64(t), sgn = int_type_signed(t);
	const bool rem = i->in->op == ISA_DivOp_REM;
	uint64_t a[XLANES], b[XLANES], r[XLANES];
	srcint(x, &i->o[IDIV_ra], w64, sgn, a);
	srcint(x, &i->o[IDIV_b], w64, sgn, b);
	for_lanes(l) r[l] = idiv1(a[l], b[l], w64, sgn, rem);
	write_int(x, &i->o[IDIV_rd], w64, r);
}

/* high 64 bits of the 128-bit product, unsigned and signed */
static uint64_t umulhi64(uint64_t a, uint64_t b)
{
	const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static uint64_t smulhi64(uint64_t a, uint64_t b)
{
	uint64_t h = umulhi64(a, b);
	if ((int64_t)a < 0)
		h -= b;
	if ((int64_t)b < 0)
		h -= a;
	return h;
}

XSEM(IMAD64)
{
	uint64_t a[XLANES], b[XLANES], c[XLANES], r[XLANES];
	src64(x, &i->o[IMAD64_ra], a, false);
	src64(x, &i->o[IMAD64_rb], b, false);
	src64(x, &i->o[IMAD64_rc], c, false);
	if (i->in->hi != ISA_ShfHi_HI) {
		for_lanes(l) r[l] = a[l] * b[l] + c[l];
	} else if (i->in->type == ISA_Sign64_U64) {
		for_lanes(l) r[l] = umulhi64(a[l], b[l]) + c[l];
	} else {
		for_lanes(l) r[l] = smulhi64(a[l], b[l]) + c[l];
	}
	write_int(x, &i->o[IMAD64_rd], true, r);
}

XSEM(IADD_SAT)
{
	uint32_t ta[XLANES], tb[XLANES], res[XLANES];
	const uint32_t *a = xsrc(x, &i->o[IADD_SAT_ra], 0, ta, false);
	const uint32_t *b = xsrc(x, &i->o[IADD_SAT_b], 0, tb, false);
	const int64_t sa = (i->o[IADD_SAT_ra].flags & XF_NEG) ? -1 : 1;
	const int64_t sb = (i->o[IADD_SAT_b].flags & XF_NEG) ? -1 : 1;
	for_lanes(l) {
		int64_t s = sa * (int32_t)a[l] + sb * (int32_t)b[l];
		s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
		res[l] = (uint32_t)(int32_t)s;
	}
	xwrite(x, &i->o[IADD_SAT_rd], 0, res, x->pmask);
}

/* the low n bits (n <= 64) */
static uint64_t low_mask(unsigned n) { return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1; }

/* PTX bfe of one lane: w-bit a, pos and len from the low bytes */
static uint64_t bfe1(uint64_t a, uint32_t pos, uint32_t len, unsigned w, bool sgn)
{
	pos &= 0xffu;
	len &= 0xffu;
	if (len == 0)
		return 0;
	const unsigned last = pos + len - 1 < w - 1 ? pos + len - 1 : w - 1;
	const uint64_t sbit = sgn ? (a >> last) & 1u : 0;
	const unsigned n = pos >= w ? 0 : (len < w - pos ? len : w - pos);
	const uint64_t field = pos >= w ? 0 : (a >> pos) & low_mask(n);
	return (field | (sbit ? ~low_mask(n) : 0)) & low_mask(w);
}

XSEM(BFE)
{
	const int t = i->in->type;
	const bool w64 = int_type_64(t), sgn = int_type_signed(t);
	uint64_t a[XLANES], r[XLANES];
	uint32_t tb[XLANES], tc[XLANES];
	srcint(x, &i->o[BFE_ra], w64, false, a);
	const uint32_t *pos = xsrc(x, &i->o[BFE_rb], 0, tb, false);
	const uint32_t *len = xsrc(x, &i->o[BFE_rc], 0, tc, false);
	for_lanes(l) r[l] = bfe1(a[l], pos[l], len[l], w64 ? 64 : 32, sgn);
	write_int(x, &i->o[BFE_rd], w64, r);
}

XSEM(BFI)
{
	const bool w64 = i->in->width == ISA_BWidth_B64;
	const unsigned w = w64 ? 64 : 32;
	uint64_t a[XLANES], b[XLANES], r[XLANES];
	uint32_t tc[XLANES], te[XLANES];
	srcint(x, &i->o[BFI_ra], w64, false, a);
	srcint(x, &i->o[BFI_rb], w64, false, b);
	const uint32_t *pos = xsrc(x, &i->o[BFI_rc], 0, tc, false);
	const uint32_t *len = xsrc(x, &i->o[BFI_re], 0, te, false);
	for_lanes(l) {
		const unsigned p = pos[l] & 0xffu, n = len[l] & 0xffu;
		if (p >= w || n == 0) {
			r[l] = b[l];
			continue;
		}
		const uint64_t m = low_mask(n < w - p ? n : w - p) << p;
		r[l] = (b[l] & ~m) | ((a[l] << p) & m);
	}
	write_int(x, &i->o[BFI_rd], w64, r);
}

/* ---- conversions -------------------------------------------------------------- */

/* integer -> float in the current rounding mode (volatile: see the head) */
static float i2f32(uint64_t v, bool is_unsigned)
{
	volatile uint64_t vu = v;
	volatile float r;
	if (is_unsigned)
		r = (float)vu;
	else
		r = (float)(int64_t)vu;
	return r;
}

static double i2f64(uint64_t v, bool is_unsigned)
{
	volatile uint64_t vu = v;
	volatile double r;
	if (is_unsigned)
		r = (double)vu;
	else
		r = (double)(int64_t)vu;
	return r;
}

XSEM(I2FX)
{
	const int t = i->in->itype;
	const bool w64 = int_type_64(t), sgn = int_type_signed(t);
	const bool d64 = i->in->dtype == ISA_FType_F64;
	uint64_t v[XLANES], r[XLANES];
	srcint(x, &i->o[I2FX_rb], w64, sgn, v);
	const int old = rm_enter(i->in->rm);
	if (d64) {
		for_lanes(l) r[l] = d2u(i2f64(v[l], !sgn));
	} else {
		for_lanes(l) r[l] = f2u(i2f32(v[l], !sgn));
	}
	rm_leave(old);
	write_int(x, &i->o[I2FX_rd], d64, r);
}

/* d rounded to an integral value as F2IRound (the host in its default
 * mode: nearbyint is to nearest even) */
static double round_int(double d, int rnd)
{
	switch (rnd) {
	case ISA_F2IRound_RN: return nearbyint(d);
	case ISA_F2IRound_FLOOR: return floor(d);
	case ISA_F2IRound_CEIL: return ceil(d);
	default: return trunc(d);
	}
}

/* an integral double saturated to IntType t; NaN gives 0 */
static uint64_t sat_int(double d, int t)
{
	if (d != d)
		return 0;
	switch (t) {
	case ISA_IntType_S32:
		return d <= -2147483648.0 ? 0x80000000u : d >= 2147483647.0 ? 0x7fffffffu : (uint32_t)(int32_t)d;
	case ISA_IntType_U32:
		return d <= 0.0 ? 0 : d >= 4294967295.0 ? 0xffffffffu : (uint32_t)d;
	case ISA_IntType_S64:
		return d < -0x1p63 ? UINT64_C(1) << 63
		       : d >= 0x1p63 ? UINT64_C(0x7fffffffffffffff) : (uint64_t)(int64_t)d;
	default:
		return d <= 0.0 ? 0 : d >= 0x1p64 ? ~UINT64_C(0) : (uint64_t)d;
	}
}

XSEM(F2IX)
{
	const int t = i->in->itype;
	const bool f64 = i->in->ftype == ISA_FType_F64, ftz = i->in->ftz == ISA_Ftz_FTZ;
	uint64_t v[XLANES], r[XLANES];
	srcfp(x, &i->o[F2IX_rb], f64, v);
	for_lanes(l) {
		double d = f64 ? u2d(v[l]) : (double)u2f(ftz ? ftz32((uint32_t)v[l]) : (uint32_t)v[l]);
		r[l] = sat_int(round_int(d, i->in->rnd), t);
	}
	write_int(x, &i->o[F2IX_rd], int_type_64(t), r);
}

XSEM(F2F_F32_F64)
{
	uint64_t v[XLANES];
	uint32_t res[XLANES];
	const bool ftz = i->in->ftz == ISA_Ftz_FTZ, sat = i->in->sat == ISA_FSat_SAT;
	src64(x, &i->o[F2F_F32_F64_rb], v, true);
	const int old = rm_enter(i->in->rm);
	for_lanes(l) {
		volatile double d = u2d(v[l]);
		volatile float f = (float)d;
		res[l] = fin32(f, ftz, sat);
	}
	rm_leave(old);
	xwrite(x, &i->o[F2F_F32_F64_rd], 0, res, x->pmask);
}

XSEM(F2F_F64_F32)
{
	uint32_t tb[XLANES];
	uint64_t r[XLANES];
	const uint32_t *b = fsrc(x, &i->o[F2F_F64_F32_rb], tb);
	if (i->in->ftz == ISA_Ftz_FTZ)
		b = ftz_row(b, tb);
	for_lanes(l) r[l] = fin64((double)u2f(b[l]));
	write_int(x, &i->o[F2F_F64_F32_rd], true, r);
}

XSEM(FRND)
{
	const bool f64 = i->in->ftype == ISA_FType_F64;
	const bool ftz = i->in->ftz == ISA_Ftz_FTZ, sat = i->in->sat == ISA_FSat_SAT;
	uint64_t v[XLANES], r[XLANES];
	srcfp(x, &i->o[FRND_rb], f64, v);
	for_lanes(l) {
		if (f64) {
			/* .SAT of a binary64: [0, 1], NaN and -0 to +0 */
			double d = round_int(u2d(v[l]), i->in->rnd);
			if (sat)
				d = d != d || d <= 0.0 ? 0.0 : d > 1.0 ? 1.0 : d;
			r[l] = fin64(d);
		} else {
			uint32_t u = ftz ? ftz32((uint32_t)v[l]) : (uint32_t)v[l];
			r[l] = fin32((float)round_int((double)u2f(u), i->in->rnd), ftz, sat);
		}
	}
	write_int(x, &i->o[FRND_rd], f64, r);
}

/* ---- atomics ------------------------------------------------------------------ */

/* The host pointers of the lanes of pmask for [Ra+off] (global: a 64-bit
 * address pair; shared: a 32-bit offset, Ra + off below 0 out of range),
 * every lane translated before any is accessed; false after a fault. */
static bool atomx_ptrs(xctx *x, const xopd *om, bool global, unsigned size, uint8_t *ptr[XLANES])
{
	const uint32_t *lo = xrow(x, om, 0);
	for_lanes(l) {
		ptr[l] = NULL;
		if (!LANE_ON(x->pmask, l))
			continue;
		if (global) {
			const uint64_t a = (((uint64_t)xrow(x, om, 1)[l] << 32) | lo[l]) + (uint64_t)om->imm;
			ptr[l] = xglobal(x, a, size, l);
		} else {
			ptr[l] = xshared(x, (uint64_t)((int64_t)lo[l] + om->imm), size, l);
		}
		if (!ptr[l])
			return false;
	}
	return true;
}

/* one lane's read-modify-write (a relaxed host atomic, CAS loop) */
static uint64_t atomx1(uint8_t *p, int opx, int typex, uint64_t v)
{
	if (typex == ISA_AtomTypeX_F64) {
		uint64_t *q = (uint64_t *)(void *)p;
		uint64_t old = __atomic_load_n(q, __ATOMIC_RELAXED), nw;
		do
			nw = fin64(u2d(old) + u2d(v));
		while (!__atomic_compare_exchange_n(q, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
		return old;
	}
	uint32_t *q = (uint32_t *)(void *)p;
	const uint32_t b = (uint32_t)v;
	uint32_t old = __atomic_load_n(q, __ATOMIC_RELAXED), nw;
	do {
		if (typex == ISA_AtomTypeX_F32)
			nw = ftz32(fres(u2f(ftz32(old)) + u2f(ftz32(b))));
		else if (opx == ISA_AtomOpX_INC)
			nw = old >= b ? 0 : old + 1;
		else
			nw = old == 0 || old > b ? b : old - 1;
	} while (!__atomic_compare_exchange_n(q, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return old;
}

static void do_atomx(xctx *x, const xinsn *i, bool global, const xopd *od, const xopd *om, const xopd *ob)
{
	const int opx = i->in->opx, typex = i->in->typex;
	const bool w64 = typex == ISA_AtomTypeX_F64;
	uint8_t *ptr[XLANES];
	if (!atomx_ptrs(x, om, global, w64 ? 8u : 4u, ptr))
		return;
	if (global && x->L->track_atomics) {
		/* for merging grid parts (device/atomics.c): none of these
		 * merges, but a word two parts update is named as such */
		const uint8_t code = WE_ATOMIC_CODE(opx == ISA_AtomOpX_INC ? WE_ATOM_INC
						    : opx == ISA_AtomOpX_DEC ? WE_ATOM_DEC : WE_ATOM_ADD,
						    typex == ISA_AtomTypeX_F64 ? WE_ATOM_F64
						    : typex == ISA_AtomTypeX_F32 ? WE_ATOM_F32 : WE_ATOM_U32);
		for_lanes(l) if (ptr[l]) dev_note_atomic(x->L->dev, ptr[l], w64 ? 8u : 4u, code);
	}
	uint64_t b[XLANES], r[XLANES];
	srcint(x, ob, w64, false, b);
	for_lanes(l) r[l] = ptr[l] ? atomx1(ptr[l], opx, typex, b[l]) : 0;
	if (od)
		write_int(x, od, w64, r);
}

XSEM(ATOMG_X) { do_atomx(x, i, true, &i->o[ATOMX_rd], &i->o[ATOMX_addr], &i->o[ATOMX_rb]); }
XSEM(ATOMS_X) { do_atomx(x, i, false, &i->o[ATOMX_rd], &i->o[ATOMX_addr], &i->o[ATOMX_rb]); }
XSEM(RED_X) { do_atomx(x, i, true, NULL, &i->o[RED_X_addr], &i->o[RED_X_rb]); }
