/* sem_alu.c — semantic handlers of the integer ALU (alu.isa).
 *
 * Every handler computes the whole warp into local arrays first and
 * writes its destinations last, so a destination may name a source.  The
 * lane loops run over plain uint32_t rows so that GCC vectorizes them.
 *
 * Operands are read by name: i->o[OPTYPE_role], the Roles<> of alu.isa.
 */
#include "exec/exec.h"
#include "exec/sem.h"



/* A predicate source as per-lane 0/1 values. */
static inline void pred_bits(uint32_t m, uint32_t out[XLANES])
{
	for_lanes(l) out[l] = (m >> l) & 1u;
}

/* The three-input truth table of LOP3: minterm k = a*4 + b*2 + c. */

/* cmp codes of ICmp (and FCmp) are a mask of LT=1, EQ=2, GT=4. */
static inline uint32_t icmp(uint32_t a, uint32_t b, unsigned cmp, bool is_unsigned)
{
	uint32_t lt = is_unsigned ? a < b : (int32_t)a < (int32_t)b;
	uint32_t eq = a == b;
	uint32_t gt = !lt & !eq;
	return (lt & cmp) | (eq & (cmp >> 1)) | (gt & (cmp >> 2));
}

/* ---------------------------------------------------------------- MOV */
XSEM(MOV)
{
	uint32_t tb[XLANES];
	if (x->pmask == 0xffffffffu) {
		const xvop b = xvop_of(x, &i->o[MOV_b], 0, tb, true);
		uint32_t *d = xrow(x, &i->o[MOV_rd], 0);
		XV_UNROLL
		for (size_t k = 0, nk = xv_chunks(x); k < nk; k++)
			xv_st(d, k, xv_get(&b, k));
		return;
	}
	const uint32_t *b = xsrc(x, &i->o[MOV_b], 0, tb, true);
	uint32_t res[XLANES];
	memcpy(res, b, sizeof res);
	xwrite(x, &i->o[MOV_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- IADD3 */
/* A negated operand enters the 34-bit sum as its complement ~v; without
 * .X each negation adds its +1 as a carry-in (so -v contributes 2^32 - v
 * and the carry out of a - b is "no borrow", a >= b), with .X the
 * carry-in is Pp + Pq instead, so IADD3.X with -Rb adds ~Rb + carry: the
 * high word of a 64-bit subtraction.
 *
 * The carry out of bit 31 (0, 1 or 2; 3 only when all three operands are
 * negated) is split as Pu = carry >= 1, Pv = carry >= 2, so that a later
 * IADD3.X ..., Pu, Pv adds it back as Pp + Pq.  With RZ as third operand
 * (the two-operand case) Pu is the plain carry and Pv false. */
XSEM(IADD3)
{
	const xopd *oa = &i->o[IADD3_ra], *ob = &i->o[IADD3_b], *oc = &i->o[IADD3_rc];
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES];
	const unsigned inv = XF_NEG | XF_BITNOT;
	const xopd *pu = &i->o[IADD3_pu], *pv = &i->o[IADD3_pv];
	if (iadd3_plain(i) && x->pmask == 0xffffffffu) {
		const xvop va = xvop_of(x, oa, 0, ta, false);
		const xvop vb = xvop_of(x, ob, 0, tb, false);
		const xvop vc = xvop_of(x, oc, 0, tc, false);
		uint32_t *d = xrow(x, &i->o[IADD3_rd], 0);
		XV_UNROLL
		for (size_t k = 0, nk = xv_chunks(x); k < nk; k++)
			xv_st(d, k, xv_get(&va, k) + xv_get(&vb, k) + xv_get(&vc, k));
		return;
	}
	const uint32_t *a = xsrc(x, oa, 0, ta, false);
	const uint32_t *c = xsrc(x, oc, 0, tc, false);
	if (iadd3_plain(i)) {
		uint32_t res[XLANES], bu;
		if (xuniform(x, ob, 0, &bu)) {
			for_lanes(l) res[l] = a[l] + bu + c[l];
		} else {
			const uint32_t *b = xrow(x, ob, 0);
			for_lanes(l) res[l] = a[l] + b[l] + c[l];
		}
		xwrite(x, &i->o[IADD3_rd], 0, res, x->pmask);
		return;
	}
	const uint32_t *b = xsrc(x, ob, 0, tb, false);
	const uint32_t ma = (oa->flags & inv) ? ~0u : 0u;
	const uint32_t mb = (ob->flags & inv) ? ~0u : 0u;
	const uint32_t mc = (oc->flags & inv) ? ~0u : 0u;
	uint32_t cin[XLANES];
	if (i->in->x == ISA_AddX_X) {
		uint32_t pp[XLANES], pq[XLANES];
		pred_bits(xpred(x, &i->o[IADD3_pp]), pp);
		pred_bits(xpred(x, &i->o[IADD3_pq]), pq);
		for_lanes(l) cin[l] = pp[l] + pq[l];
	} else {
		uint32_t n = !!(oa->flags & XF_NEG) + !!(ob->flags & XF_NEG) + !!(oc->flags & XF_NEG);
		for_lanes(l) cin[l] = n;
	}
	uint32_t res[XLANES], carry[XLANES];
	for_lanes(l) {
		uint64_t s = (uint64_t)(a[l] ^ ma) + (b[l] ^ mb) + (c[l] ^ mc) + cin[l];
		res[l] = (uint32_t)s;
		carry[l] = (uint32_t)(s >> 32);
	}
	if (pu->row != 7 || pv->row != 7) {
		uint32_t c0 = 0, c1 = 0;
		for_lanes(l) {
			c0 |= (uint32_t)(carry[l] >= 1) << l;
			c1 |= (uint32_t)(carry[l] >= 2) << l;
		}
		xset_pred(x, pu, c0, x->pmask);
		xset_pred(x, pv, c1, x->pmask);
	}
	xwrite(x, &i->o[IADD3_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- IMAD */
XSEM(IMAD)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES];
	if (x->pmask == 0xffffffffu && i->in->mode != ISA_IMADMode_HI) {
		const xvop a = xvop_of(x, &i->o[IMAD_ra], 0, ta, true);
		const xvop b = xvop_of(x, &i->o[IMAD_b], 0, tb, true);
		const xvop c = xvop_of(x, &i->o[IMAD_c], 0, tc, true);
		uint32_t *d = xrow(x, &i->o[IMAD_rd], 0);
		XV_UNROLL
		for (size_t k = 0, nk = xv_chunks(x); k < nk; k++)
			xv_st(d, k, xv_get(&a, k) * xv_get(&b, k) + xv_get(&c, k));
		return;
	}
	const uint32_t *a = xsrc(x, &i->o[IMAD_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[IMAD_b], 0, tb, true);
	const uint32_t *c = xsrc(x, &i->o[IMAD_c], 0, tc, true);
	if (i->in->mode == ISA_IMADMode_HI) {
		if (i->in->sign == ISA_Signedness_U32) {
			for_lanes(l) res[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32) + c[l];
		} else {
			for_lanes(l) res[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] *
								   (int32_t)b[l]) >> 32) + c[l];
		}
	} else {
		/* LO, SHL, MOV: the low word does not depend on signedness */
		for_lanes(l) res[l] = a[l] * b[l] + c[l];
	}
	xwrite(x, &i->o[IMAD_rd], 0, res, x->pmask);
}

/* rd and c span two registers */
XSEM(IMAD_WIDE)
{
	uint32_t ta[XLANES], tb[XLANES], tc0[XLANES], tc1[XLANES];
	uint32_t lo[XLANES], hi[XLANES];
	if (x->pmask == 0xffffffffu) {
		/* 8 lanes at a time as 64-bit vector lanes, stored straight into
		 * Rd (every source of the chunk is read before) */
		typedef uint64_t v8u64 __attribute__((vector_size(64)));
		typedef int64_t v8s64 __attribute__((vector_size(64)));
		typedef uint32_t v8u32 __attribute__((vector_size(32)));
		typedef int32_t v8s32 __attribute__((vector_size(32)));
		typedef uint32_t v8u32u __attribute__((vector_size(32), aligned(4), may_alias));
		uint32_t *dlo = xrow(x, &i->o[IMAD_WIDE_rd], 0), *dhi = xrow(x, &i->o[IMAD_WIDE_rd], 1);
		const bool u = i->in->sign == ISA_Signedness_U32;
		/* (a lockstep group: the rows of all its warps, xv_chunks) */
		const xvop oa = xvop_of(x, &i->o[IMAD_WIDE_ra], 0, ta, true);
		const xvop ob = xvop_of(x, &i->o[IMAD_WIDE_b], 0, tb, true);
		const xvop oc0 = xvop_of(x, &i->o[IMAD_WIDE_c], 0, tc0, true);
		const xvop oc1 = xvop_of(x, &i->o[IMAD_WIDE_c], 1, tc1, false);
		_Static_assert(XV_W == 8, "IMAD.WIDE's chunks are XV_W lanes");
		/* b an immediate 2^sh (0 <= sh < 31: positive as S32 too: an
		 * address), a shift instead of a 64 x 64-bit vector product */
		const int sh = ximm_log2(&i->o[IMAD_WIDE_b]);
		if (sh >= 0) {
			/* in 32-bit lanes: a << sh with the bits shifted out
			 * (and for S32 the sign) as the high word, plus c with
			 * the carry */
			for (size_t k = 0, nk = xv_chunks(x); k < nk; k++) {
				const xvec a = xv_get(&oa, k), c0 = xv_get(&oc0, k), c1 = xv_get(&oc1, k);
				const xvec vlo = a << (unsigned)sh;
				const xvec vhi = u ? (sh ? a >> (unsigned)(32 - sh) : xv_splat(0))
						   : (xvec)((xvecs)a >> (unsigned)(sh ? 32 - sh : 31));
				const xvec r0 = vlo + c0;
				xv_st(dlo, k, r0);
				xv_st(dhi, k, vhi + c1 - (xvec)(r0 < vlo));
			}
			return;
		}
		for (size_t k = 0, nk = xv_chunks(x); k < nk; k++) {
			const size_t q = XV_W * k;
			const v8u32 va = (v8u32)xv_get(&oa, k), vb = (v8u32)xv_get(&ob, k);
			const v8u64 vc = __builtin_convertvector((v8u32)xv_get(&oc0, k), v8u64) |
					 __builtin_convertvector((v8u32)xv_get(&oc1, k), v8u64) << 32;
			const v8u64 p = u ? __builtin_convertvector(va, v8u64) * __builtin_convertvector(vb, v8u64)
					  : (v8u64)(__builtin_convertvector((v8s32)va, v8s64) *
						    __builtin_convertvector((v8s32)vb, v8s64));
			const v8u64 r = p + vc;
			*(v8u32u *)(dlo + q) = __builtin_convertvector(r, v8u32);
			*(v8u32u *)(dhi + q) = __builtin_convertvector(r >> 32, v8u32);
		}
		return;
	}
	const uint32_t *a = xsrc(x, &i->o[IMAD_WIDE_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[IMAD_WIDE_b], 0, tb, true);
	const uint32_t *c0 = xsrc(x, &i->o[IMAD_WIDE_c], 0, tc0, true);
	const uint32_t *c1 = xsrc(x, &i->o[IMAD_WIDE_c], 1, tc1, false);
	if (i->in->sign == ISA_Signedness_U32) {
		for_lanes(l) {
			uint64_t r = (uint64_t)a[l] * b[l] + (((uint64_t)c1[l] << 32) | c0[l]);
			lo[l] = (uint32_t)r;
			hi[l] = (uint32_t)(r >> 32);
		}
	} else {
		for_lanes(l) {
			uint64_t p = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]);
			uint64_t r = p + (((uint64_t)c1[l] << 32) | c0[l]);
			lo[l] = (uint32_t)r;
			hi[l] = (uint32_t)(r >> 32);
		}
	}
	xwrite(x, &i->o[IMAD_WIDE_rd], 0, lo, x->pmask);
	xwrite(x, &i->o[IMAD_WIDE_rd], 1, hi, x->pmask);
}

/* ---------------------------------------------------------------- ISETP */
/* The predicates of a full-mask group from each warp's comparison tm[j]:
 * the usual ISETP.cmp.AND Pu, PT, ..., PT writes tm[j] to Pu, nothing
 * else (sem_setp_warp with p all ones, Pv = PT, every lane). */
static inline void isetp_group_preds(xctx *x, const xinsn *i, const uint32_t *tm)
{
	const xopd *pu = &i->o[ISETP_pu], *pv = &i->o[ISETP_pv], *pp = &i->o[ISETP_pp];
	if (xopd_pt(pp) && pv->row == 7 && i->in->bop == ISA_BoolOp_AND) {
		if (pu->row != 7)
			for (size_t j = 0; j <= x->group; j++)
				x->w[j].p[pu->row] = tm[j];
		return;
	}
	for (size_t j = 0; j <= x->group; j++)
		sem_setp_warp(x->w + j, i, tm[j], x->pmask);
}

XSEM(ISETP)
{
	uint32_t ta[XLANES], tb[XLANES], r[XLANES];
	const unsigned cmp = (unsigned)i->in->cmp & 7u;
	const bool u = i->in->sign == ISA_Signedness_U32;
	if (x->pmask == 0xffffffffu) {
		/* vector compares, a lane mask per warp (of the group): every
		 * cmp as a < b or a == b, the operands maybe swapped, the result
		 * maybe negated; unsigned as signed with the sign bits flipped */
		xvop a = xvop_of(x, &i->o[ISETP_ra], 0, ta, true);
		xvop b = xvop_of(x, &i->o[ISETP_b], 0, tb, true);
		static const struct { uint8_t eq, swap, neg; } form[8] = {
			[1] = { 0, 0, 0 }, /* LT: a < b     */
			[2] = { 1, 0, 0 }, /* EQ            */
			[3] = { 0, 1, 1 }, /* LE: !(b < a)  */
			[4] = { 0, 1, 0 }, /* GT: b < a     */
			[5] = { 1, 0, 1 }, /* NE            */
			[6] = { 0, 0, 1 }, /* GE: !(a < b)  */
		};
		if (form[cmp].swap) {
			const xvop t = a;
			a = b;
			b = t;
		}
		const xvec bias = xv_splat(u ? 0x80000000u : 0u);
		const uint32_t neg = form[cmp].neg ? ~0u : 0u;
		const size_t nj = x->group;
		if (cmp == 0 || cmp == 7) {
			/* F, T */
			for (size_t j = 0; j <= nj; j++)
				sem_setp_warp(x->w + j, i, cmp ? ~0u : 0u, x->pmask);
			return;
		}
		/* every warp's lane mask first, then the predicates: the vector
		 * work of one warp does not wait for the stores of the last */
		uint32_t tm[XLANES];
#ifdef XV_HAVE_MASKS_AVX2
		if (xv_have_avx2()) {
			xv_cmp_masks_avx2(&a, &b, nj + 1, form[cmp].eq, u, neg, tm);
			isetp_group_preds(x, i, tm);
			return;
		}
#endif
		for (size_t j = 0; j <= nj; j++) {
			xvec t = xv_splat(0);
			if (form[cmp].eq) {
				for (unsigned k = 0; k < XV_N; k++)
					t |= xv_bits((xvec)(xv_get(&a, j * XV_N + k) == xv_get(&b, j * XV_N + k)), k);
			} else {
				for (unsigned k = 0; k < XV_N; k++)
					t |= xv_bits((xvec)((xvecs)(xv_get(&a, j * XV_N + k) ^ bias) <
							    (xvecs)(xv_get(&b, j * XV_N + k) ^ bias)), k);
			}
			tm[j] = xv_or_lanes(t) ^ neg;
		}
		isetp_group_preds(x, i, tm);
		return;
	}
	const uint32_t *a = xsrc(x, &i->o[ISETP_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[ISETP_b], 0, tb, true);
	if (u) {
		for_lanes(l) r[l] = icmp(a[l], b[l], cmp, true);
	} else {
		for_lanes(l) r[l] = icmp(a[l], b[l], cmp, false);
	}
	sem_setp(x, i, lanes_mask(r));
}

/* ---------------------------------------------------------------- LOP3 */
XSEM(LOP3_LUT)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES], nz[XLANES];
	const xopd *pu = &i->o[LOP3_LUT_pu];
	if (x->pmask == 0xffffffffu && pu->row == 7) {
		const xvop a = xvop_of(x, &i->o[LOP3_LUT_ra], 0, ta, true);
		const xvop b = xvop_of(x, &i->o[LOP3_LUT_b], 0, tb, true);
		const xvop c = xvop_of(x, &i->o[LOP3_LUT_rc], 0, tc, true);
		uint32_t *d = xrow(x, &i->o[LOP3_LUT_rd], 0);
		const size_t nk = xv_chunks(x);
		/* the usual tables as the operation they are (the loads of an
		 * operand the expression does not use are dropped) */
#define LOP3_AS(expr)                                                                   \
	do {                                                                            \
		XV_UNROLL                                                               \
		for (size_t k = 0; k < nk; k++) {                                       \
			const xvec va = xv_get(&a, k), vb = xv_get(&b, k), vc = xv_get(&c, k); \
			(void)va, (void)vb, (void)vc;                                   \
			xv_st(d, k, (expr));                                            \
		}                                                                       \
		return;                                                                 \
	} while (0)
		switch ((unsigned)i->in->lut & 0xffu) {
		case 0x3c: LOP3_AS(va ^ vb);
		case 0x5a: LOP3_AS(va ^ vc);
		case 0x66: LOP3_AS(vb ^ vc);
		case 0x96: LOP3_AS(va ^ vb ^ vc);
		case 0xc0: LOP3_AS(va & vb);
		case 0xa0: LOP3_AS(va & vc);
		case 0x88: LOP3_AS(vb & vc);
		case 0x80: LOP3_AS(va & vb & vc);
		case 0xfc: LOP3_AS(va | vb);
		case 0xfa: LOP3_AS(va | vc);
		case 0xee: LOP3_AS(vb | vc);
		case 0xfe: LOP3_AS(va | vb | vc);
		case 0x30: LOP3_AS(va & ~vb);
		case 0x0c: LOP3_AS(~va & vb);
		case 0xf8: LOP3_AS(va | (vb & vc));
		case 0xe8: LOP3_AS((va & vb) | (vc & (va | vb)));
		case 0xca: LOP3_AS((va & vb) | (~va & vc));
		default: break;
		}
#undef LOP3_AS
		/* any other table in its algebraic normal form: f = XOR of the
		 * monomials 1, c, b, bc, a, ac, ab, abc whose coefficient is 1
		 * (the Moebius transform of lut) */
		unsigned t = (unsigned)i->in->lut & 0xffu;
		t ^= (t & 0x55u) << 1;
		t ^= (t & 0x33u) << 2;
		t ^= (t & 0x0fu) << 4;
		xvec e[8];
		for (unsigned m = 0; m < 8; m++)
			e[m] = xv_splat(0u - ((t >> m) & 1u));
		XV_UNROLL
		for (size_t k = 0; k < nk; k++) {
			const xvec va = xv_get(&a, k), vb = xv_get(&b, k), vc = xv_get(&c, k);
			const xvec bc = vb & vc;
			xvec r = e[0] ^ (e[1] & vc) ^ (e[2] & vb) ^ (e[3] & bc);
			r ^= va & (e[4] ^ (e[5] & vc) ^ (e[6] & vb) ^ (e[7] & bc));
			xv_st(d, k, r);
		}
		return;
	}
	const uint32_t *a = xsrc(x, &i->o[LOP3_LUT_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[LOP3_LUT_b], 0, tb, true);
	const uint32_t *c = xsrc(x, &i->o[LOP3_LUT_rc], 0, tc, true);
	uint32_t m[8];
	lut_masks((unsigned)i->in->lut & 0xffu, m);
	for_lanes(l) res[l] = lop3(a[l], b[l], c[l], m);
	if (pu->row != 7) {
		for_lanes(l) nz[l] = res[l] != 0;
		xset_pred(x, pu, lanes_mask(nz), x->pmask);
	}
	xwrite(x, &i->o[LOP3_LUT_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- SHF */
/* The full-mask SHF by one count n (0..64) for every lane, in 32-bit
 * vectors: the result word of the 64-bit C:A shifted is
 * (P << ps) | (Q >> qs), P and Q each A, C or 0, both shifts < 32, Q's
 * shift arithmetic when qa. */
XV_INLINE void shf_uniform(xctx *x, const xinsn *i, const xvop *a, const xvop *c,
			       uint32_t n, bool arith, bool hi, uint32_t *d)
{
	enum { Z, A, C } p = Z, q = Z;
	unsigned ps = 0, qs = 0;
	bool qa = false;
	if (i->in->dir == ISA_ShfDir_L) {
		if (!hi) {
			if (n < 32)
				p = A, ps = n;
		} else if (n == 0) {
			p = C;
		} else if (n < 32) {
			p = C, ps = n, q = A, qs = 32 - n;
		} else if (n < 64) {
			p = A, ps = n - 32;
		}
	} else if (arith) {
		if (n >= 64)
			n = 63;
		if (!hi) {
			if (n == 0)
				p = A;
			else if (n < 32)
				p = C, ps = 32 - n, q = A, qs = n;
			else
				q = C, qs = n - 32, qa = true;
		} else {
			q = C, qs = n < 32 ? n : 31, qa = true;
		}
	} else if (!hi) {
		if (n == 0)
			p = A;
		else if (n < 32)
			p = C, ps = 32 - n, q = A, qs = n;
		else if (n < 64)
			q = C, qs = n - 32;
	} else if (n < 32) {
		q = C, qs = n;
	}
	/* one loop per shape, so that none tests the shape per chunk */
	const xvop *vp = p == A ? a : c, *vq = q == A ? a : c;
	const size_t nk = xv_chunks(x);
	if (p == Z && q == Z) {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, xv_splat(0));
	} else if (q == Z) {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, xv_get(vp, k) << ps);
	} else if (p == Z && qa) {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, (xvec)((xvecs)xv_get(vq, k) >> (int)qs));
	} else if (p == Z) {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, xv_get(vq, k) >> qs);
	} else if (qa) {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, (xv_get(vp, k) << ps) | (xvec)((xvecs)xv_get(vq, k) >> (int)qs));
	} else {
		XV_UNROLL
		for (size_t k = 0; k < nk; k++)
			xv_st(d, k, (xv_get(vp, k) << ps) | (xv_get(vq, k) >> qs));
	}
}

/* shift the 64-bit Rc:Ra */
XSEM(SHF)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES];
	const unsigned type = (unsigned)i->in->type;
	const uint32_t width = type == ISA_ShfType_S64 || type == ISA_ShfType_U64 ? 64u : 32u;
	const bool arith = type == ISA_ShfType_S32 || type == ISA_ShfType_S64;
	const bool wrap = i->in->wrap == ISA_ShfWrap_W;
	const unsigned hs = i->in->hi == ISA_ShfHi_HI ? 32u : 0u;
	if (i->o[SHF_b].kind != XO_REG) {
		/* a uniform shift amount: one count for every lane, so the 64-bit
		 * shifts vectorize; under a partial mask into res, then the
		 * active lanes */
		const uint32_t b0 = xsrc_word(x, &i->o[SHF_b], 0, true);
		const xvop a = xvop_of(x, &i->o[SHF_ra], 0, ta, true);
		const xvop c = xvop_of(x, &i->o[SHF_rc], 0, tc, true);
		const bool full = x->pmask == 0xffffffffu;
		shf_uniform(x, i, &a, &c, wrap ? b0 & (width - 1u) : (b0 < width ? b0 : width), arith,
			    hs != 0, full ? xrow(x, &i->o[SHF_rd], 0) : res);
		if (!full)
			xwrite(x, &i->o[SHF_rd], 0, res, x->pmask);
		return;
	}
	const uint32_t *a = xsrc(x, &i->o[SHF_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[SHF_b], 0, tb, true);
	const uint32_t *c = xsrc(x, &i->o[SHF_rc], 0, tc, true);
	uint32_t n[XLANES];
	if (wrap) {
		for_lanes(l) n[l] = b[l] & (width - 1u);
	} else {
		for_lanes(l) n[l] = b[l] < width ? b[l] : width;
	}
	if (i->in->dir == ISA_ShfDir_L) {
		for_lanes(l) {
			uint64_t v = ((uint64_t)c[l] << 32) | a[l];
			uint64_t r = n[l] >= 64 ? 0 : v << n[l];
			res[l] = (uint32_t)(r >> hs);
		}
	} else if (arith) {
		for_lanes(l) {
			int64_t v = (int64_t)(((uint64_t)c[l] << 32) | a[l]);
			uint64_t r = (uint64_t)(v >> (n[l] >= 64 ? 63 : n[l]));
			res[l] = (uint32_t)(r >> hs);
		}
	} else {
		for_lanes(l) {
			uint64_t v = ((uint64_t)c[l] << 32) | a[l];
			uint64_t r = n[l] >= 64 ? 0 : v >> n[l];
			res[l] = (uint32_t)(r >> hs);
		}
	}
	xwrite(x, &i->o[SHF_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- SEL, IMNMX */
XSEM(SEL)
{
	uint32_t ta[XLANES], tb[XLANES], res[XLANES], p[XLANES];
	const uint32_t *a = xsrc(x, &i->o[SEL_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[SEL_b], 0, tb, true);
	pred_bits(xpred(x, &i->o[SEL_pp]), p);
	for_lanes(l) res[l] = p[l] ? a[l] : b[l];
	xwrite(x, &i->o[SEL_rd], 0, res, x->pmask);
}

XSEM(IMNMX)
{
	uint32_t ta[XLANES], tb[XLANES], res[XLANES], p[XLANES];
	const uint32_t *a = xsrc(x, &i->o[IMNMX_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[IMNMX_b], 0, tb, true);
	pred_bits(xpred(x, &i->o[IMNMX_pp]), p);
	/* min (p) takes a when a < b, max (!p) when !(a < b) */
	if (i->in->sign == ISA_Signedness_U32) {
		for_lanes(l) {
			uint32_t take_a = (uint32_t)(a[l] < b[l]) ^ p[l] ^ 1u;
			res[l] = take_a ? a[l] : b[l];
		}
	} else {
		for_lanes(l) {
			uint32_t take_a = (uint32_t)((int32_t)a[l] < (int32_t)b[l]) ^ p[l] ^ 1u;
			res[l] = take_a ? a[l] : b[l];
		}
	}
	xwrite(x, &i->o[IMNMX_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- unary */
XSEM(IABS)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = xsrc(x, &i->o[IABS_b], 0, tb, true);
	for_lanes(l) res[l] = (int32_t)b[l] < 0 ? 0u - b[l] : b[l];
	xwrite(x, &i->o[IABS_rd], 0, res, x->pmask);
}

XSEM(POPC)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = xsrc(x, &i->o[POPC_b], 0, tb, true);
	for_lanes(l) res[l] = (uint32_t)__builtin_popcount(b[l]);
	xwrite(x, &i->o[POPC_rd], 0, res, x->pmask);
}

XSEM(FLO)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = xsrc(x, &i->o[FLO_b], 0, tb, true);
	const bool sgn = i->in->sign == ISA_Signedness_S32;
	const bool sh = i->in->sh == ISA_FloShift_SH;
	for_lanes(l) {
		uint32_t v = b[l];
		if (sgn && (int32_t)v < 0)
			v = ~v;
		if (!v) {
			res[l] = 0xffffffffu;
		} else {
			uint32_t lz = (uint32_t)__builtin_clz(v);
			res[l] = sh ? lz : 31u - lz;
		}
	}
	xwrite(x, &i->o[FLO_rd], 0, res, x->pmask);
}

static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}

XSEM(BREV)
{
	uint32_t tb[XLANES], res[XLANES];
	const uint32_t *b = xsrc(x, &i->o[BREV_b], 0, tb, true);
	for_lanes(l) res[l] = brev32(b[l]);
	xwrite(x, &i->o[BREV_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- PRMT */
/* PRMT's modes (num.isa, in PrmtMode order after IDX): the nibble
 * selector each builds from the low two bits of B (PTX prmt's table) */
static const uint16_t prmt_mode_sel[6][4] = {
	{ 0x3210, 0x4321, 0x5432, 0x6543 }, /* F4E */
	{ 0x5670, 0x6701, 0x7012, 0x0123 }, /* B4E */
	{ 0x0000, 0x1111, 0x2222, 0x3333 }, /* RC8 */
	{ 0x3210, 0x3211, 0x3222, 0x3333 }, /* ECL */
	{ 0x0000, 0x1110, 0x2210, 0x3210 }, /* ECR */
	{ 0x1010, 0x3232, 0x1010, 0x3232 }, /* RC16 */
};

XSEM(PRMT)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], res[XLANES];
	const uint32_t *a = xsrc(x, &i->o[PRMT_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[PRMT_b], 0, tb, true);
	const uint32_t *c = xsrc(x, &i->o[PRMT_rc], 0, tc, true);
	if (i->in->mode != ISA_PrmtMode_IDX) {
		const uint16_t *sel = prmt_mode_sel[(i->in->mode - ISA_PrmtMode_F4E) % 6];
		for_lanes(l) tb[l] = sel[b[l] & 3u];
		b = tb;
	}
	for_lanes(l) {
		uint64_t v = ((uint64_t)c[l] << 32) | a[l];
		uint32_t r = 0;
		for (unsigned k = 0; k < 4; k++) {
			uint32_t nib = (b[l] >> (4 * k)) & 0xfu;
			uint32_t byte = (uint32_t)(v >> (8 * (nib & 7u))) & 0xffu;
			if (nib & 8u)
				byte = (byte & 0x80u) ? 0xffu : 0u;
			r |= byte << (8 * k);
		}
		res[l] = r;
	}
	xwrite(x, &i->o[PRMT_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- LEA */
XSEM(LEA)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES], sh[XLANES], cin[XLANES];
	const uint32_t *a = xsrc(x, &i->o[LEA_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[LEA_b], 0, tb, true);
	const unsigned s = (unsigned)i->in->shift & 31u;
	if (i->in->hi == ISA_ShfHi_HI) {
		const uint32_t *c = xsrc(x, &i->o[LEA_rc], 0, tc, true);
		for_lanes(l) sh[l] = (uint32_t)(((((uint64_t)c[l] << 32) | a[l]) << s) >> 32);
	} else {
		for_lanes(l) sh[l] = a[l] << s;
	}
	if (i->in->x == ISA_AddX_X) {
		pred_bits(xpred(x, &i->o[LEA_pp]), cin);
	} else {
		memset(cin, 0, sizeof cin);
	}
	uint32_t res[XLANES], carry[XLANES];
	for_lanes(l) {
		uint64_t r = (uint64_t)b[l] + sh[l] + cin[l];
		res[l] = (uint32_t)r;
		carry[l] = (uint32_t)(r >> 32);
	}
	if (i->o[LEA_pu].row != 7)
		xset_pred(x, &i->o[LEA_pu], lanes_mask(carry), x->pmask);
	xwrite(x, &i->o[LEA_rd], 0, res, x->pmask);
}

/* ---------------------------------------------------------------- P2R / R2P */
XSEM(P2R)
{
	uint32_t ta[XLANES], res[XLANES];
	const uint32_t *a = xsrc(x, &i->o[P2R_ra], 0, ta, true);
	const uint32_t mask = (uint32_t)i->in->mask & 0xffu;
	uint32_t pw[XLANES];
	memset(pw, 0, sizeof pw);
	for (unsigned p = 0; p < 7; p++) {
		uint32_t m = x->w->p[p];
		for_lanes(l) pw[l] |= ((m >> l) & 1u) << p;
	}
	for_lanes(l) res[l] = (a[l] & ~mask) | (pw[l] & mask);
	xwrite(x, &i->o[P2R_rd], 0, res, x->pmask);
}

XSEM(R2P)
{
	uint32_t ta[XLANES];
	const uint32_t *a = xsrc(x, &i->o[R2P_ra], 0, ta, true);
	const uint32_t mask = (uint32_t)i->in->mask;
	for (unsigned p = 0; p < 7; p++) {
		if (!((mask >> p) & 1u))
			continue;
		uint32_t m = 0;
		for_lanes(l) m |= ((a[l] >> p) & 1u) << l;
		uint32_t *pr = &x->w->p[p];
		*pr = (*pr & ~x->pmask) | (m & x->pmask);
	}
}
