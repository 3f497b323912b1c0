/* sem_fpu.c — semantic handlers of the binary32 floating-point unit and
 * the conversions (fpu.isa).
 *
 * Arithmetic is the host's binary32 in its default rounding mode
 * (round-to-nearest-even), denormals kept.  A NaN result is always the
 * canonical NaN 0x7fffffff, as on NVIDIA GPUs, so that results do not
 * depend on which NaN the host's FPU produces.  The '-' and '|x|'
 * modifiers act on the sign bit (|x| first), also on NaNs.  The rounding
 * modes, .FTZ and .SAT of num.isa are handled in sem_num.c (FADD, FMUL,
 * FFMA) or here as a flush of the inputs (FSETP, FMNMX, MUFU).
 */
#include <math.h>

#include "exec/exec.h"
#include "exec/sem.h"
#include "exec/sem_float.h"

/* ---------------------------------------------------------------- FADD, FMUL, FFMA */
XSEM(FADD)
{
	if (num_fmods(i)) {
		sem_num_farith(x, i, NUM_FADD);
		return;
	}
	uint32_t ta[XLANES], tb[XLANES], res[XLANES];
	const uint32_t *a = fsrc(x, &i->o[FADD_ra], ta);
	const uint32_t *b = fsrc(x, &i->o[FADD_b], tb);
	for_lanes(l) res[l] = fres(u2f(a[l]) + u2f(b[l]));
	xwrite(x, &i->o[FADD_rd], 0, res, x->pmask);
}

XSEM(FMUL)
{
	if (num_fmods(i)) {
		sem_num_farith(x, i, NUM_FMUL);
		return;
	}
	uint32_t ta[XLANES], tb[XLANES], res[XLANES];
	const uint32_t *a = fsrc(x, &i->o[FMUL_ra], ta);
	const uint32_t *b = fsrc(x, &i->o[FMUL_b], tb);
	for_lanes(l) res[l] = fres(u2f(a[l]) * u2f(b[l]));
	xwrite(x, &i->o[FMUL_rd], 0, res, x->pmask);
}

XSEM(FFMA)
{
	if (num_fmods(i)) {
		sem_num_farith(x, i, NUM_FFMA);
		return;
	}
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES];
	const uint32_t *a = fsrc(x, &i->o[FFMA_ra], ta);
	const uint32_t *b = fsrc(x, &i->o[FFMA_b], tb);
	const uint32_t *c = fsrc(x, &i->o[FFMA_c], tc);
	for_lanes(l) res[l] = fres(fmaf(u2f(a[l]), u2f(b[l]), u2f(c[l])));
	xwrite(x, &i->o[FFMA_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- FSETP */
/* FCmp codes are a mask of LT=1, EQ=2, GT=4, unordered=8. */
static inline uint32_t fcmp(uint32_t ua, uint32_t ub, unsigned cmp)
{
	float a = u2f(ua), b = u2f(ub);
	uint32_t lt = a < b, eq = a == b, gt = a > b;
	uint32_t un = (uint32_t)nan_bits(ua) | (uint32_t)nan_bits(ub);
	return (lt & cmp) | (eq & (cmp >> 1)) | (gt & (cmp >> 2)) | (un & (cmp >> 3));
}

XSEM(FSETP)
{
	uint32_t ta[XLANES], tb[XLANES], r[XLANES];
	const uint32_t *a = fsrc(x, &i->o[FSETP_ra], ta);
	const uint32_t *b = fsrc(x, &i->o[FSETP_b], tb);
	if (i->in->ftz) {
		a = ftz_row(a, ta);
		b = ftz_row(b, tb);
	}
	const unsigned cmp = (unsigned)i->in->cmp & 15u;
	for_lanes(l) r[l] = fcmp(a[l], b[l], cmp);
	sem_setp(x, i, lanes_mask(r));
}

/* ---------------------------------------------------------------- FMNMX */
/* IEEE minNum/maxNum with -0 < +0: a NaN operand yields the other one. */
static inline uint32_t fminmax(uint32_t ua, uint32_t ub, bool want_min)
{
	bool na = nan_bits(ua), nb = nan_bits(ub);
	if (na || nb)
		return na && nb ? CANON_NAN : na ? ub : ua;
	float a = u2f(ua), b = u2f(ub);
	if (a == b) /* equal, or +0 and -0: min takes the sign bit, max drops it */
		return want_min ? (ua | ub) : (ua & ub);
	return (a < b) == want_min ? ua : ub;
}

XSEM(FMNMX)
{
	uint32_t ta[XLANES], tb[XLANES], res[XLANES];
	const uint32_t *a = fsrc(x, &i->o[FMNMX_ra], ta);
	const uint32_t *b = fsrc(x, &i->o[FMNMX_b], tb);
	if (i->in->ftz) {
		a = ftz_row(a, ta);
		b = ftz_row(b, tb);
	}
	const uint32_t p = xpred(x, &i->o[FMNMX_pp]);
	for_lanes(l) res[l] = fminmax(a[l], b[l], (p >> l) & 1u);
	xwrite(x, &i->o[FMNMX_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- MUFU */
XSEM(MUFU)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = fsrc(x, &i->o[MUFU_rb], tb);
	const int func = i->in->func;
	const bool ftz = i->in->ftz;
	if (ftz)
		b = ftz_row(b, tb);
	for_lanes(l) {
		double v = (double)u2f(b[l]), r;
		switch (func) {
		case ISA_MufuOp_RCP: r = 1.0 / v; break;
		case ISA_MufuOp_RSQ: r = 1.0 / sqrt(v); break;
		case ISA_MufuOp_SQRT: r = sqrt(v); break;
		case ISA_MufuOp_EX2: r = exp2(v); break;
		case ISA_MufuOp_LG2: r = log2(v); break;
		case ISA_MufuOp_SIN: r = sin(v); break;
		case ISA_MufuOp_COS: r = cos(v); break;
		default: r = NAN; break;
		}
		res[l] = fres((float)r);
	}
	if (ftz)
		ftz_row(res, res);
	xwrite(x, &i->o[MUFU_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- conversions */
XSEM(I2F)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = xsrc(x, &i->o[I2F_b], 0, tb, true);
	if (i->in->sign == ISA_Signedness_U32) {
		for_lanes(l) res[l] = f2u((float)b[l]);
	} else {
		for_lanes(l) res[l] = f2u((float)(int32_t)b[l]);
	}
	xwrite(x, &i->o[I2F_rd], 0, res, x->pmask);
}

XSEM(F2I)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = fsrc(x, &i->o[F2I_rb], tb);
	const int rnd = i->in->rnd;
	const bool u = i->in->sign == ISA_Signedness_U32;
	for_lanes(l) {
		float f = u2f(b[l]);
		if (f != f) {
			res[l] = 0;
			continue;
		}
		double d = (double)f;
		switch (rnd) {
		case ISA_F2IRound_RN: d = nearbyint(d); break;
		case ISA_F2IRound_FLOOR: d = floor(d); break;
		case ISA_F2IRound_CEIL: d = ceil(d); break;
		default: d = trunc(d); break;
		}
		if (u)
			res[l] = d <= 0.0 ? 0u : d >= 4294967295.0 ? 0xffffffffu : (uint32_t)d;
		else
			res[l] = d <= -2147483648.0 ? 0x80000000u
				 : d >= 2147483647.0 ? 0x7fffffffu : (uint32_t)(int32_t)d;
	}
	xwrite(x, &i->o[F2I_rd], 0, res, x->pmask);
}
