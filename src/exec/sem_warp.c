/* sem_warp.c — special registers, warp-wide operations (warp.isa) and the
 * uniform datapath (uniform.isa).
 *
 * Thread ids: lane l of warp w is the CTA's linear thread t = w*32 + l,
 * tid.x = t % ntid.x, tid.y = (t / ntid.x) % ntid.y,
 * tid.z = t / (ntid.x * ntid.y).
 */
#include <stdatomic.h>

#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/sem.h"

/* One 32-bit special register for lane l. */
static uint32_t sreg(xctx *x, unsigned sr, unsigned l)
{
	const we_launch_ctx *L = x->L;
	const uint32_t t = x->w->id * XLANES + l;
	const uint32_t bx = L->block.x ? L->block.x : 1u, by = L->block.y ? L->block.y : 1u;
	switch (sr) {
	case ISA_SReg_SR_LANEID: return l;
	case ISA_SReg_SR_TID_X: return t % bx;
	case ISA_SReg_SR_TID_Y: return (t / bx) % by;
	case ISA_SReg_SR_TID_Z: return t / (bx * by);
	case ISA_SReg_SR_CTAID_X: return x->cta->ctaid[0];
	case ISA_SReg_SR_CTAID_Y: return x->cta->ctaid[1];
	case ISA_SReg_SR_CTAID_Z: return x->cta->ctaid[2];
	case ISA_SReg_SR_NTID_X: return L->block.x;
	case ISA_SReg_SR_NTID_Y: return L->block.y;
	case ISA_SReg_SR_NTID_Z: return L->block.z;
	case ISA_SReg_SR_NCTAID_X: return L->grid.x;
	case ISA_SReg_SR_NCTAID_Y: return L->grid.y;
	case ISA_SReg_SR_NCTAID_Z: return L->grid.z;
	case ISA_SReg_SR_WARPID: return x->w->id;
	case ISA_SReg_SR_NWARPS: return x->cta->nwarps;
	case ISA_SReg_SR_EQMASK: return 1u << l;
	case ISA_SReg_SR_LTMASK: return (1u << l) - 1u;
	case ISA_SReg_SR_LEMASK: return (uint32_t)((UINT64_C(2) << l) - 1u);
	case ISA_SReg_SR_GTMASK: return (uint32_t)(~UINT64_C(0) << (l + 1));
	case ISA_SReg_SR_GEMASK: return ~0u << l;
	case ISA_SReg_SR_CLOCKLO:
	case ISA_SReg_SR_GLOBALTIMERLO: return (uint32_t)x->w->clock;
	case ISA_SReg_SR_CLOCKHI:
	case ISA_SReg_SR_GLOBALTIMERHI: return (uint32_t)(x->w->clock >> 32);
	case ISA_SReg_SR_DYNSMEM: return L->shared_bytes - L->k->shared_bytes;
	default: return 0; /* SRZ */
	}
}

/* S2R of one warp */
static inline void s2r_one(xctx *x, const xinsn *i)
{
	uint32_t res[XLANES];
	const unsigned sr = (unsigned)i->in->sr;
	switch (sr) {
	case ISA_SReg_SR_LANEID:
		for_lanes(l) res[l] = l;
		break;
	case ISA_SReg_SR_TID_X:
	case ISA_SReg_SR_TID_Y:
	case ISA_SReg_SR_TID_Z: {
		/* three divisions for lane 0, then count on (no division per
		 * lane); sreg() is the definition */
		const uint32_t bx = x->L->block.x ? x->L->block.x : 1u, by = x->L->block.y ? x->L->block.y : 1u;
		const uint32_t t0 = x->w->id * XLANES;
		uint32_t c[3] = { t0 % bx, (t0 / bx) % by, t0 / (bx * by) };
		const unsigned dim = sr == ISA_SReg_SR_TID_X ? 0 : sr == ISA_SReg_SR_TID_Y ? 1 : 2;
		if (bx % XLANES == 0) {
			/* a warp within one row of x: x counts up, y and z are
			 * the same in every lane */
			for_lanes(l) res[l] = c[dim] + (dim ? 0u : l);
			break;
		}
		for_lanes(l) {
			res[l] = c[dim];
			if (++c[0] == bx) {
				c[0] = 0;
				if (++c[1] == by) {
					c[1] = 0;
					c[2]++;
				}
			}
		}
		break;
	}
	case ISA_SReg_SR_EQMASK:
	case ISA_SReg_SR_LTMASK:
	case ISA_SReg_SR_LEMASK:
	case ISA_SReg_SR_GTMASK:
	case ISA_SReg_SR_GEMASK:
		for_lanes(l) res[l] = sreg(x, sr, l);
		break;
	default: {
		uint32_t v = sreg(x, sr, 0);
		for_lanes(l) res[l] = v;
		break;
	}
	}
	xwrite(x, &i->o[S2R_rd], 0, res, x->pmask);
}

XSEM(S2R)
{
	/* a lockstep group (sem_lockstep_form: no clock, which the group's
	 * deferred counters would leave behind): a register of the CTA in
	 * every lane of the group's rows, thread ids counted up; else warp
	 * by warp */
	if (x->group) {
		const unsigned sr = (unsigned)i->in->sr;
		const uint32_t bx = x->L->block.x ? x->L->block.x : 1u;
		uint32_t *d = xrow(x, &i->o[S2R_rd], 0);
		const size_t nj = (size_t)x->group + 1u;
		switch (sr) {
		case ISA_SReg_SR_CTAID_X:
		case ISA_SReg_SR_CTAID_Y:
		case ISA_SReg_SR_CTAID_Z:
		case ISA_SReg_SR_NTID_X:
		case ISA_SReg_SR_NTID_Y:
		case ISA_SReg_SR_NTID_Z:
		case ISA_SReg_SR_NCTAID_X:
		case ISA_SReg_SR_NCTAID_Y:
		case ISA_SReg_SR_NCTAID_Z:
		case ISA_SReg_SR_NWARPS: {
			const uint32_t v = sreg(x, sr, 0);
			for (size_t l = 0; l < nj * XLANES; l++)
				d[l] = v;
			return;
		}
		case ISA_SReg_SR_LANEID:
			for (size_t j = 0; j < nj; j++)
				for_lanes(l) d[j * XLANES + l] = l;
			return;
		case ISA_SReg_SR_TID_X:
			if (bx % XLANES)
				break;
			for (size_t j = 0; j < nj; j++) {
				const uint32_t t0 = (x->w[j].id * XLANES) % bx;
				for_lanes(l) d[j * XLANES + l] = t0 + l;
			}
			return;
		default:
			break;
		}
	}
	for (uint32_t j = 0; j <= x->group; j++) {
		xctx xj = xwarp_ctx(x, j);
		s2r_one(&xj, i);
	}
}

bool sem_s2r_lockstep(const xinsn *i)
{
	switch (i->in->sr) {
	case ISA_SReg_SR_CLOCKLO:
	case ISA_SReg_SR_CLOCKHI:
	case ISA_SReg_SR_GLOBALTIMERLO:
	case ISA_SReg_SR_GLOBALTIMERHI:
		return false;
	default:
		return true;
	}
}

/* rd spans two registers */
XSEM(CS2R)
{
	uint32_t lo[XLANES], hi[XLANES];
	const unsigned sr = (unsigned)i->in->sr;
	uint32_t vlo = 0, vhi = 0;
	switch (sr) {
	case ISA_SReg_SR_CLOCKLO:
	case ISA_SReg_SR_GLOBALTIMERLO:
		vlo = (uint32_t)x->w->clock;
		vhi = (uint32_t)(x->w->clock >> 32);
		break;
	case ISA_SReg_SRZ:
		break;
	default: /* any other register: its 32-bit value, zero-extended */
		for_lanes(l) {
			lo[l] = sreg(x, sr, l);
			hi[l] = 0;
		}
		goto write;
	}
	for_lanes(l) {
		lo[l] = vlo;
		hi[l] = vhi;
	}
write:
	xwrite(x, &i->o[CS2R_rd], 0, lo, x->pmask);
	xwrite(x, &i->o[CS2R_rd], 1, hi, x->pmask);
}

/* ---------------------------------------------------------------- SHFL */
/* As PTX shfl.sync: per lane, with
 * segmask = c[12:8] and clamp = c[4:0],
 *   maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane & segmask
 *   IDX  j = minLane | (b & ~segmask)  valid j <= maxLane
 *   UP   j = lane - b                  valid j >= maxLane
 *   DOWN j = lane + b                  valid j <= maxLane
 *   BFLY j = lane ^ b                  valid j <= maxLane
 * b is b[4:0].  A lane whose source is not valid or not among the
 * executing lanes gets its own Ra and Pu = false. */
XSEM(SHFL)
{
	uint32_t ta[XLANES], tb[XLANES], tc[XLANES];
	const uint32_t *a = xsrc(x, &i->o[SHFL_ra], 0, ta, true);
	const uint32_t *b = xsrc(x, &i->o[SHFL_b], 0, tb, true);
	const uint32_t *c = xsrc(x, &i->o[SHFL_c], 0, tc, true);
	const int mode = i->in->mode;
	const uint32_t pm = x->pmask;
	uint32_t res[XLANES], ok = 0;
	for_lanes(l) {
		int32_t lane = (int32_t)l;
		int32_t bv = (int32_t)(b[l] & 31u);
		int32_t seg = (int32_t)((c[l] >> 8) & 31u);
		int32_t clamp = (int32_t)(c[l] & 31u);
		int32_t maxl = (lane & seg) | (clamp & ~seg);
		int32_t minl = lane & seg;
		int32_t j;
		bool valid;
		switch (mode) {
		case ISA_ShflMode_UP: j = lane - bv; valid = j >= maxl; break;
		case ISA_ShflMode_DOWN: j = lane + bv; valid = j <= maxl; break;
		case ISA_ShflMode_BFLY: j = lane ^ bv; valid = j <= maxl; break;
		default: j = minl | (bv & ~seg); valid = j <= maxl; break;
		}
		if (valid && j >= 0 && j < (int32_t)XLANES && LANE_ON(pm, (unsigned)j)) {
			res[l] = a[j];
			ok |= 1u << l;
		} else {
			res[l] = a[l];
		}
	}
	xset_pred(x, &i->o[SHFL_pu], ok, pm);
	xwrite(x, &i->o[SHFL_rd], 0, res, pm);
}

/* ---------------------------------------------------------------- VOTE */
XSEM(VOTE)
{
	const uint32_t pm = x->pmask;
	const uint32_t ballot = xpred(x, &i->o[VOTE_pp]) & pm;
	bool r;
	switch (i->in->mode) {
	case ISA_VoteMode_ALL: r = ballot == pm; break;
	case ISA_VoteMode_ANY: r = ballot != 0; break;
	default: r = ballot == 0 || ballot == pm; break; /* EQ */
	}
	xset_pred(x, &i->o[VOTE_pu], r ? ~0u : 0u, pm);
	uint32_t res[XLANES];
	for_lanes(l) res[l] = ballot;
	xwrite(x, &i->o[VOTE_rd], 0, res, pm);
}

/* ---------------------------------------------------------------- MEMBAR, NOP */
XSEM(MEMBAR)
{
	(void)x;
	(void)i;
	atomic_thread_fence(memory_order_seq_cst);
	/* (and the compiled code's streaming stores before it) */
	xjit_stream_fence();
}

XSEM(NOP)
{
	(void)x;
	(void)i;
}

/* ---------------------------------------------------------------- uniform datapath */

/* .32 or .64 (UR[d:d+1]) */
XSEM(ULDC)
{
	const xopd *od = &i->o[ULDC_urd], *oc = &i->o[ULDC_cb];
	const bool w64 = i->in->size == ISA_MemSize_64;
	uint32_t v[2] = { 0, 0 };
	if (!xconst_read(x, oc->bank, oc->imm, w64 ? 8u : 4u, v))
		return;
	if (od->row == ISA_UREG_URZ)
		return;
	xset_ureg(x, od->row, v[0]);
	if (w64)
		xset_ureg(x, od->row + 1u, v[1]);
}

/* A per-thread register reads the value of the lowest executing lane. */
XSEM(S2UR)
{
	xset_ureg(x, i->o[S2UR_urd].row, sreg(x, (unsigned)i->in->sr, xffs(x->pmask)));
}

XSEM(R2UR)
{
	xset_ureg(x, i->o[R2UR_urd].row, xscalar(x, &i->o[R2UR_ra], 0));
}

XSEM(UMOV)
{
	xset_ureg(x, i->o[UMOV_urd].row, xscalar(x, &i->o[UMOV_b], 0));
}

/* A uniform predicate source with its '!' (UPT reads true). */
static inline bool xupred(const xctx *x, const xopd *o)
{
	const bool v = o->row == ISA_PRED_PT || ((x->w->up >> o->row) & 1u);
	return (o->flags & XF_NOT) ? !v : v;
}

/* Set uniform predicate destination o (UPT ignored). */
static inline void xset_upred(xctx *x, const xopd *o, bool v)
{
	if (o->row < ISA_PRED_PT)
		x->w->up = (uint8_t)((x->w->up & ~(1u << o->row)) | ((unsigned)v << o->row));
}

/* The carry out of bit 31 (0..2) as UPu = carry >= 1, UPv = carry >= 2;
 * .X adds UPp + UPq. */
XSEM(UIADD3)
{
	uint64_t s = (uint64_t)xscalar(x, &i->o[UIADD3_ura], 0) + xscalar(x, &i->o[UIADD3_b], 0) +
		     xscalar(x, &i->o[UIADD3_urc], 0);
	if (i->in->x == ISA_AddX_X)
		s += (uint64_t)xupred(x, &i->o[UIADD3_upp]) + xupred(x, &i->o[UIADD3_upq]);
	xset_upred(x, &i->o[UIADD3_upu], (s >> 32) >= 1);
	xset_upred(x, &i->o[UIADD3_upv], (s >> 32) >= 2);
	xset_ureg(x, i->o[UIADD3_urd].row, (uint32_t)s);
}

/* UPu = (URd != 0) */
XSEM(ULOP3_LUT)
{
	uint32_t a = xscalar(x, &i->o[ULOP3_LUT_ura], 0), b = xscalar(x, &i->o[ULOP3_LUT_b], 0);
	uint32_t c = xscalar(x, &i->o[ULOP3_LUT_urc], 0);
	uint32_t m[8];
	lut_masks((unsigned)i->in->lut & 0xffu, m);
	const uint32_t r = lop3(a, b, c, m);
	xset_upred(x, &i->o[ULOP3_LUT_upu], r != 0);
	xset_ureg(x, i->o[ULOP3_LUT_urd].row, r);
}

/* ISETP of one value (cmp: a mask of LT = 1, EQ = 2, GT = 4) */
XSEM(UISETP)
{
	const uint32_t a = xscalar(x, &i->o[UISETP_ura], 0), b = xscalar(x, &i->o[UISETP_b], 0);
	const unsigned cmp = (unsigned)i->in->cmp & 7u;
	const bool lt = i->in->sign == ISA_Signedness_U32 ? a < b : (int32_t)a < (int32_t)b;
	const bool t = lt ? cmp & 1u : a == b ? cmp & 2u : cmp & 4u;
	const bool p = xupred(x, &i->o[UISETP_upp]);
	bool vu, vv;
	switch (i->in->bop) {
	case ISA_BoolOp_OR: vu = t || p; vv = !t || p; break;
	case ISA_BoolOp_XOR: vu = t != p; vv = !t != p; break;
	default: vu = t && p; vv = !t && p; break;
	}
	xset_upred(x, &i->o[UISETP_upu], vu);
	xset_upred(x, &i->o[UISETP_upv], vv);
}

XSEM(USEL)
{
	const xopd *src = xupred(x, &i->o[USEL_upp]) ? &i->o[USEL_ura] : &i->o[USEL_b];
	xset_ureg(x, i->o[USEL_urd].row, xscalar(x, src, 0));
}
