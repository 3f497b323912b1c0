/* sem_float.h — what the floating-point handlers share (sem_fpu.c, the
 * binary32 unit of fpu.isa; sem_num.c, the numeric instructions of
 * num.isa): bit views of binary32/binary64 values, the canonical NaNs,
 * source operands with their -/|x| modifiers, and the .FTZ and .SAT
 * modifiers (num.isa). */
#ifndef WE_SEM_FLOAT_H
#define WE_SEM_FLOAT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec/exec.h"

/* NaN results are canonical, as on NVIDIA GPUs: binary32 0x7fffffff; for
 * binary64 the project takes the same pattern, 0x7fffffffffffffff
 * (doc/ptx.md, "Numerics"). */
#define CANON_NAN 0x7fffffffu
#define CANON_NAN64 UINT64_C(0x7fffffffffffffff)

static inline float u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline double u2d(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static inline uint64_t d2u(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static inline bool nan_bits(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline bool nan_bits64(uint64_t u)
{
	return (u & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000);
}

/* Result bits of a float, NaN canonicalized. */
static inline uint32_t fres(float f) { return f != f ? CANON_NAN : f2u(f); }

/* Source operand k as binary32 bits with its -/|x| applied (into tmp). */
static inline const uint32_t *fsrc(xctx *x, const xopd *o, uint32_t tmp[XLANES])
{
	const uint32_t *v = xsrc(x, o, 0, tmp, false);
	if (!(o->flags & (XF_NEG | XF_ABS)))
		return v;
	const uint32_t and_m = (o->flags & XF_ABS) ? 0x7fffffffu : 0xffffffffu;
	const uint32_t xor_m = (o->flags & XF_NEG) ? 0x80000000u : 0u;
	for_lanes(l) tmp[l] = (v[l] & and_m) ^ xor_m;
	return tmp;
}

/* .FTZ: a binary32 subnormal is a zero of its sign. */
static inline uint32_t ftz32(uint32_t u)
{
	return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u;
}

/* The lanes of v with .FTZ applied, into tmp (which may be v). */
static inline const uint32_t *ftz_row(const uint32_t *v, uint32_t tmp[XLANES])
{
	for_lanes(l) tmp[l] = ftz32(v[l]);
	return tmp;
}

/* The .RZ/.RM/.RP/.FTZ/.SAT forms of FADD, FMUL and FFMA (sem_num.c); the
 * handlers of fpu.isa keep the plain forms. */
enum num_fop { NUM_FADD, NUM_FMUL, NUM_FFMA, NUM_FDIV, NUM_FSQRT };
static inline bool num_fmods(const xinsn *i)
{
	return (i->in->rm | i->in->ftz | i->in->sat) != 0;
}
WE_INTERNAL void sem_num_farith(xctx *x, const xinsn *i, enum num_fop op);

#endif
