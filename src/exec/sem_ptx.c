/* sem_ptx.c — the instructions of src/isa/ptx.isa, which the PTX front
 * end (src/ptx/) needs beyond the seeds: TBAR, per-thread arrival at a
 * CTA barrier (001 barrier{.cta} without .aligned; units/tbar.c),
 * loads, stores and atomics at generic addresses, MATCH and REDUX. */
#include <stdio.h>

#include "units/bar.h"
#include "units/bru.h"
#include "units/tbar.h"
#include "exec/sem.h"

/* Intra-warp deadlock: every live lane is parked at a TBAR, not all at
 * the same barrier (spec-reading decision 11: reported at once, nothing
 * another warp does can move them). */
static void tbar_stuck(xctx *x, unsigned id)
{
	we_warp *w = x->w;
	char desc[460];
	size_t len = 0;
	desc[0] = 0;
	for (uint32_t left = w->valid; left && len + 80 < sizeof desc;) {
		uint64_t pc = bru_lane_pc(w, (unsigned)__builtin_ctz(left));
		uint32_t g = 0;
		for (uint32_t m = left; m; m &= m - 1)
			if (bru_lane_pc(w, (unsigned)__builtin_ctz(m)) == pc)
				g |= 1u << __builtin_ctz(m);
		left &= ~g;
		len += (size_t)snprintf(desc + len, sizeof desc - len, "%slanes 0x%08x at PC 0x%04llx", len ? ", " : "",
					g, (unsigned long long)pc);
	}
	if (len + 80 < sizeof desc)
		snprintf(desc + len, sizeof desc - len,
			 " wait at per-thread barriers (TBAR) and not all at barrier %u", id);
	/* every group waits (the report marks the groups of sync_seen as
	 * parked, sem_bru.c) */
	w->sync_seen = w->valid;
	x->stop = true;
	x->why = WE_STOP_FAULT;
	cta_sync_deadlock(x->cta, w, x->pc, w->active, desc);
}

static void tbar(xctx *x, const xinsn *i, int kind, uint32_t pred)
{
	_Static_assert(TBAR_RED_id == TBAR_id && TBAR_RED_cnt == TBAR_cnt, "TBAR and TBAR.RED name the same positions");
	we_warp *w = x->w;
	unsigned id = xscalar(x, &i->o[TBAR_id], 0) & 0xfu;
	unsigned cnt = xscalar(x, &i->o[TBAR_cnt], 0) & 0xfffu;
	uint32_t was_active = w->active, before = w->tbar.arrived[id];
	tbar_warp_arrival wa;
	char msg[300];
	tbar_result r = tbar_arrive(w, x->pc, x->pmask, id, cnt, kind, pred, &wa, msg, sizeof msg);
	if (r == TBAR_FAULT) {
		xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
		return;
	}
	x->pc_set = true;
	switch (r) {
	case TBAR_STUCK:
		tbar_stuck(x, id);
		return;
	case TBAR_SLEEP:
		x->stop = true;
		x->why = WE_STOP_SLEEP;
		return;
	case TBAR_CONT:
		sem_sync_progress(x, was_active, w->tbar.arrived[id] != before);
		return;
	default:
		break;
	}
	/* the warp arrives (+32, 000) as BAR.SYNC/ARV/RED would */
	bar_arrival a = {
		.id = id,
		.cnt = wa.cnt,
		.kind = wa.kind == TBAR_RED ? BAR_KIND_RED : BAR_KIND_SYNC,
		.redop = wa.kind == TBAR_RED ? (uint8_t)i->in->redop : 0,
		.wait = wa.kind != TBAR_ARV,
		.lanes = wa.lanes,
		.pred = wa.pred,
		.pc = x->pc,
		.per_thread = true,
	};
	sem_bar_arrive(x, &a);
}

/* TBAR.SYNC / TBAR.ARV SrcBarId, SrcCnt */
XSEM(TBAR) { tbar(x, i, i->in->mode == ISA_BARMode_SYNC ? TBAR_SYNC : TBAR_ARV, 0); }

/* TBAR.RED.op SrcBarId, SrcCnt, {!}Pp */
XSEM(TBAR_RED) { tbar(x, i, TBAR_RED, xpred(x, &i->o[TBAR_RED_pp]) & x->pmask); }

/* ---- generic addresses ---------------------------------------------------------- */

/* LD.size Rd, [Ra.64+off] */
XSEM(GEN_LD) { sem_generic_load(x, i); }

/* ST.size [Ra.64+off], Rb */
XSEM(GEN_ST) { sem_generic_store(x, i); }

/* ATOM.op.type Rd, [Ra.64+off], Rb {, Rc} */
XSEM(GEN_ATOM) { sem_generic_atom(x, i); }

/* ---- match, redux -------------------------------------------------------------- */

/* MATCH.{ANY,ALL}.{U32,U64} Pu, Rd, Ra over the active lanes */
XSEM(MATCH)
{
	const uint32_t pm = x->pmask;
	const bool w64 = i->in->width == ISA_MatchWidth_U64;
	uint32_t t0[XLANES], t1[XLANES];
	const uint32_t *lo = xsrc(x, &i->o[MATCH_ra], 0, t0, false);
	const uint32_t *hi = w64 ? xsrc(x, &i->o[MATCH_ra], 1, t1, false) : lo;
	uint32_t res[XLANES];
	for_lanes(l) {
		res[l] = 0;
		if (!LANE_ON(pm, l))
			continue;
		for (uint32_t m = pm; m; m &= m - 1) {
			const unsigned k = (unsigned)__builtin_ctz(m);
			if (lo[k] == lo[l] && hi[k] == hi[l])
				res[l] |= 1u << k;
		}
	}
	if (i->in->mode == ISA_MatchMode_ALL) {
		const bool all = res[xffs(pm)] == pm;
		for_lanes(l) res[l] = all ? pm : 0u;
		xset_pred(x, &i->o[MATCH_pu], all ? ~0u : 0u, pm);
	}
	xwrite(x, &i->o[MATCH_rd], 0, res, pm);
}

/* REDUX.op.type Rd, Ra over the active lanes */
XSEM(REDUX)
{
	const uint32_t pm = x->pmask;
	const bool sgn = i->in->type == ISA_ReduxType_S32;
	uint32_t tmp[XLANES];
	const uint32_t *a = xsrc(x, &i->o[REDUX_ra], 0, tmp, false);
	uint32_t r = a[xffs(pm)];
	for (uint32_t m = pm & (pm - 1u); m; m &= m - 1) {
		const uint32_t v = a[__builtin_ctz(m)];
		switch (i->in->op) {
		case ISA_ReduxOp_SUM: r += v; break;
		case ISA_ReduxOp_MIN: r = (sgn ? (int32_t)v < (int32_t)r : v < r) ? v : r; break;
		case ISA_ReduxOp_MAX: r = (sgn ? (int32_t)v > (int32_t)r : v > r) ? v : r; break;
		case ISA_ReduxOp_AND: r &= v; break;
		case ISA_ReduxOp_OR: r |= v; break;
		default: r ^= v; break; /* XOR */
		}
	}
	uint32_t res[XLANES];
	for_lanes(l) res[l] = r;
	xwrite(x, &i->o[REDUX_rd], 0, res, pm);
}
