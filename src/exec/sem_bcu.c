/* sem_bcu.c — the barrier unit's instructions (seed 000).  The rules
 * live in units/bar.c, applied to the CTA by cta/sync.c; a warp that must
 * wait is handed back to its engine (WE_STOP_BLOCKED). */
#include <stdio.h>

#include "units/bar.h"
#include "exec/sem.h"

/* 003: "BAR.RED, BAR.SYNC, and BAR.ARV in trap mode are UNPREDICTABLE":
 * reported as an error. */
static bool not_in_trap(xctx *x, const char *what)
{
	if (!x->w->in_trap)
		return true;
	xfault(x, WE_FAULT_BARRIER, x->pmask, 0,
	       "%s inside the trap handler (UNPREDICTABLE in SASS: only BAR.SYNCALL is allowed there)", what);
	return false;
}

/* The barrier id and count of a BAR-family instruction (BAR, BAR.RED but
 * its one-register form, BAR.SCAN: the same positions).
 * 000: "如果SrcBarId的来源位宽大于4位，则只有最低的4bit是有效的" (12 bits for
 * the count).  SASS (003) with two registers — the same one — takes the
 * count from Ra[27:16]. */
_Static_assert(BAR_RED_id == BAR_id && BAR_RED_cnt == BAR_cnt && BAR_SCAN_id == BAR_id &&
	       BAR_SCAN_cnt == BAR_cnt, "the BAR family names the same positions");
static inline void id_count(xctx *x, const xinsn *i, unsigned *id, unsigned *cnt)
{
	uint32_t a = xscalar(x, &i->o[BAR_id], 0);
	*id = a & 0xfu;
	if (x->L->k->dialect == WE_DIALECT_SASS && i->o[BAR_id].kind == XO_REG && i->o[BAR_cnt].kind == XO_REG)
		*cnt = (a >> 16) & 0xfffu;
	else
		*cnt = xscalar(x, &i->o[BAR_cnt], 0) & 0xfffu;
}

/* What an arrival at a (named) barrier means for the warp: a fault, or
 * handing it back to its engine to wait, or (lockstep groups) to let the
 * warps it released go on with it as one group. */
static void arrived(xctx *x, cta_arrive r, const char *msg)
{
	switch (r) {
	case CTA_FAULT:
		xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
		break;
	case CTA_BLOCKED:
		x->stop = true;
		x->why = WE_STOP_BLOCKED;
		break;
	case CTA_RELEASED:
		if (x->L->lockstep > 1) {
			x->stop = true;
			x->why = WE_STOP_RELEASED;
		}
		break;
	case CTA_PASSED:
		break;
	}
}

void sem_bar_arrive(xctx *x, const bar_arrival *a)
{
	char msg[256];
	arrived(x, cta_bar_arrive(x->cta, x->w, x->pmask, a, msg, sizeof msg), msg);
}

/* A PTX kernel's BAR/BAR.RED is an aligned barrier (bar.sync,
 * barrier.sync.aligned, ...): every non-exited thread of the warp executes
 * it together.  Executed divergently it is undefined in 001; it must not
 * complete as if the missing lanes had arrived (doc/spec-reading.md, "PTX
 * barriers (seed 001)"), so it is an exception. */
static bool aligned_ok(xctx *x, const char *what)
{
	if (x->L->k->dialect != WE_DIALECT_PTX || x->pmask == x->w->valid)
		return true;
	xfault(x, WE_FAULT_BARRIER, x->pmask, 0,
	       "aligned barrier executed divergently: %s by lanes 0x%08x of the warp's live lanes 0x%08x "
	       "(undefined in PTX: every non-exited thread of the warp must execute the same aligned barrier; "
	       "barrier.sync without .aligned arrives per thread)", what, x->pmask, x->w->valid);
	return false;
}

/* BAR{.SYNC,.ARV} SrcBarId, SrcCnt */
static void bar_one(xctx *x, const xinsn *i)
{
	const char *what = i->in->mode == ISA_BARMode_SYNC ? "BAR.SYNC" : "BAR.ARV";
	if (!not_in_trap(x, what) || !aligned_ok(x, what))
		return;
	bar_arrival a = {
		.kind = BAR_KIND_SYNC,
		.wait = i->in->mode == ISA_BARMode_SYNC,
		.lanes = x->pmask,
		.pc = x->pc,
	};
	id_count(x, i, &a.id, &a.cnt);
	sem_bar_arrive(x, &a);
}

XSEM(BAR)
{
	if (!x->group) {
		bar_one(x, i);
		return;
	}
	/* a lockstep group (sem_lockstep_form) whose arrivals alone complete
	 * the barrier: one step, when no warp is in the trap handler and the
	 * id and count are immediates (else each warp's own lowest lane's) */
	bar_arrival a;
	if (xbar_imm_arrival(i, x->pc, x->pmask, &a)) {
		/* (the usual miss first: a group of some of the CTA's warps; a
		 * warp can be in the trap handler only if the kernel has one) */
		bool one_by_one = 32u * (x->group + 1) != (a.cnt ? a.cnt : x->cta->bars.all_count);
		if (x->L->k->trap_handler >= 0)
			for (uint32_t j = 0; j <= x->group && !one_by_one; j++)
				one_by_one = x->w[j].in_trap;
		if (!one_by_one) {
			if (cta_bar_arrive_group(x->cta, &a, x->group + 1)) {
				for (uint32_t j = 0; j <= x->group; j++)
					x->w[j].active_pc = x->pc + WE_INST_SIZE;
				x->pc_set = true;
				x->intact = true;
				return;
			}
		}
	}
	/* else the warps arrive one after the other, as one by one; a warp
	 * that blocks or completes the barrier needs nothing of the group, a
	 * fault stops it (exec_group finds the faulting warp by its state).
	 * Each warp's ActivePC moves past the instruction, as retire() does,
	 * and the group is left to see whether the barrier released all of
	 * it (pc_set). */
	for (uint32_t j = 0; j <= x->group; j++) {
		xctx xj = xwarp_ctx(x, j);
		bar_one(&xj, i);
		xj.w->active_pc = x->pc + WE_INST_SIZE;
		if (xj.stop && xj.why != WE_STOP_BLOCKED && xj.why != WE_STOP_RELEASED) {
			x->stop = true;
			x->why = xj.why;
			return;
		}
	}
	x->pc_set = true;
}

/* BAR.SCAN SaName, SbarCnt, {!}Pp (003): a non-blocking arrival; the
 * warp's result is the prefix sum of the predicates of earlier arrivals. */
XSEM(BAR_SCAN)
{
	if (!not_in_trap(x, "BAR.SCAN"))
		return;
	bar_arrival a = { .kind = BAR_KIND_SYNC, .scan = true, .lanes = x->pmask, .pc = x->pc };
	id_count(x, i, &a.id, &a.cnt);
	a.pred = xpred(x, &i->o[BAR_SCAN_pp]) & x->pmask;
	sem_bar_arrive(x, &a);
}

/* BAR.SYNCALL (003): the dedicated barrier, count = live warps x 32,
 * legal only in the trap handler. */
XSEM(BAR_SYNCALL)
{
	(void)i;
	if (!x->w->in_trap) {
		xfault(x, WE_FAULT_ILLEGAL_INSTR, x->pmask, 0,
		       "ILLEGAL_INSTR_ENCODING: BAR.SYNCALL outside a trap handler");
		return;
	}
	bar_arrival a = { .id = BAR_SYNCALL_ID, .cnt = 0, .kind = BAR_KIND_SYNC, .wait = true,
			  .lanes = x->pmask, .pc = x->pc };
	sem_bar_arrive(x, &a);
}

/* BAR.RED.op SrcBarId, SrcCnt, {!}Pp  or  BAR.RED.op Rb, {!}Pp
 * (Rb[3:0] = id, Rb[15:4] = count: "用Rb的低4bit作为barrier的编号，
 * 接下来的12bit作为barrier完成时预期达到的计数值", decision 4). */
XSEM(BAR_RED)
{
	if (!not_in_trap(x, "BAR.RED") || !aligned_ok(x, "BAR.RED"))
		return;
	bar_arrival a = { .kind = BAR_KIND_RED, .redop = (uint8_t)i->in->redop, .wait = true,
			  .lanes = x->pmask, .pc = x->pc };
	const xopd *pp;
	if (i->opcode == ISA_OP_BAR_RED_R) {
		uint32_t v = xscalar(x, &i->o[BAR_RED_R_idcnt], 0);
		a.id = v & 0xfu;
		/* target ISA: count in Rb[15:4]; SASS: BAR.RED Ra, Pp has no count
		 * operand, i.e. the whole CTA (003) */
		a.cnt = x->L->k->dialect == WE_DIALECT_SASS ? 0 : (v >> 4) & 0xfffu;
		pp = &i->o[BAR_RED_R_pp];
	} else {
		id_count(x, i, &a.id, &a.cnt);
		pp = &i->o[BAR_RED_pp];
	}
	a.pred = xpred(x, pp) & x->pmask;
	sem_bar_arrive(x, &a);
}

/* B2R.BAR Rd, id: Rd = getBarState(id); B2R.WARP Rd: the warp's copy. */
XSEM(B2R)
{
	uint32_t v = i->in->mode == ISA_B2RMode_WARP ? x->w->warp_bar_state
						      : cta_bar_get(x->cta, (unsigned)i->o[B2R_barid].imm & 0xfu);
	uint32_t res[XLANES];
	for_lanes(l) res[l] = v;
	xwrite(x, &i->o[B2R_rd], 0, res, x->pmask);
	if (i->in->mode == ISA_B2RMode_WARP)
		x->w->scan_unread = false;
}

/* BAR.RESULT Rd, pu (decision 7, from the warp's WarpBARState). */
XSEM(B2R_RESULT)
{
	uint32_t rd;
	bool pu;
	bar_result_of(x->w->warp_bar_state, &rd, &pu);
	uint32_t res[XLANES];
	for_lanes(l) res[l] = rd;
	xwrite(x, &i->o[B2R_RESULT_rd], 0, res, x->pmask);
	xset_pred(x, &i->o[B2R_RESULT_pu], pu ? ~0u : 0u, x->pmask);
	x->w->scan_unread = false;
}

/* NBARRIER.signal id, num_threads | id, type, num_producers, num_consumers
 * (002): each operand an immediate or a register (the lowest executing
 * lane's value); the mixed general forms are the NBARRIER_SIGNAL_N*
 * optypes. */
static void nbarrier_signal(xctx *x, const xinsn *i)
{
	uint32_t v[4];
	for (unsigned k = 0; k < i->nopd && k < 4; k++)
		v[k] = xscalar(x, &i->o[k], 0);
	char msg[300];
	cta_arrive r;
	if (i->nopd == 2) /* baseline: a producer-consumer, both counts equal */
		r = cta_nbar_signal(x->cta, x->w, x->pc, v[NBAR_SIGNAL_BASE_id], 0, v[NBAR_SIGNAL_BASE_nthreads],
				    v[NBAR_SIGNAL_BASE_nthreads], msg, sizeof msg);
	else
		r = cta_nbar_signal(x->cta, x->w, x->pc, v[NBAR_SIGNAL_id], v[NBAR_SIGNAL_type], v[NBAR_SIGNAL_nprod],
				    v[NBAR_SIGNAL_ncons], msg, sizeof msg);
	arrived(x, r, msg);
}

XSEM(NBARRIER_SIGNAL) { nbarrier_signal(x, i); }
XSEM(NBARRIER_SIGNAL_NII) { nbarrier_signal(x, i); }
XSEM(NBARRIER_SIGNAL_NIR) { nbarrier_signal(x, i); }
XSEM(NBARRIER_SIGNAL_NRI) { nbarrier_signal(x, i); }
XSEM(NBARRIER_SIGNAL_NRR) { nbarrier_signal(x, i); }

/* NBARRIER.wait id */
XSEM(NBARRIER_WAIT)
{
	char msg[300];
	arrived(x, cta_nbar_wait(x->cta, x->w, x->pc, xscalar(x, &i->o[NBARRIER_WAIT_id], 0), msg, sizeof msg),
		msg);
}

/* R2B.BAR id, Ra: setBarState(id, Ra); R2B.WARP Ra: setWarpBarState(Ra). */
XSEM(R2B)
{
	uint32_t v = xscalar(x, &i->o[R2B_ra], 0);
	if (i->in->mode == ISA_B2RMode_WARP)
		x->w->warp_bar_state = v;
	else
		cta_bar_set(x->cta, (unsigned)i->o[R2B_barid].imm & 0xfu, v);
}

/* 002: "Type ... Valid values are [0-2]", "Num_producers ... Num_consumers
 * ... Valid values are [1-thread_group_size]": an immediate type 3 or an
 * immediate count of 0, or above the 32 warps a CTA has at most, can
 * never be legal.  (Counts above the launch's warps are runtime faults.) */
static bool nbar_check_static(const xinsn *i, char *err, size_t errlen)
{
	const xopd *type = &i->o[NBAR_SIGNAL_type];
	if (i->nopd == 4 && type->kind == XO_IMM && type->imm > 2) {
		snprintf(err, errlen, "NBARRIER.signal type %llu is outside 0..2 (0 producer-consumer, "
			 "1 producer, 2 consumer)", (unsigned long long)type->imm);
		return false;
	}
	/* the counts: num_threads (baseline), num_producers and num_consumers
	 * (general) */
	const bool general = i->nopd == 4;
	const xopd *cnt[2] = { &i->o[general ? NBAR_SIGNAL_nprod : NBAR_SIGNAL_BASE_nthreads],
			       general ? &i->o[NBAR_SIGNAL_ncons] : NULL };
	const char *const name[2] = { general ? "num_producers" : "num_threads", "num_consumers" };
	for (unsigned c = 0; c < 2 && cnt[c]; c++) {
		if (cnt[c]->kind != XO_IMM || (cnt[c]->imm >= 1 && cnt[c]->imm <= 32))
			continue;
		snprintf(err, errlen, "NBARRIER.signal %s %llu is outside 1..32 (a count of warps, at most "
			 "the CTA's)", name[c], (unsigned long long)cnt[c]->imm);
		return false;
	}
	return true;
}

bool sem_check_static(const xinsn *i, we_dialect dialect, char *err, size_t errlen)
{
	switch (i->optype) {
	case ISA_OPT_NBARRIER_SIGNAL:
	case ISA_OPT_NBARRIER_SIGNAL_NII:
	case ISA_OPT_NBARRIER_SIGNAL_NIR:
	case ISA_OPT_NBARRIER_SIGNAL_NRI:
	case ISA_OPT_NBARRIER_SIGNAL_NRR:
		return nbar_check_static(i, err, errlen);
	default:
		break;
	}
	/* 003: with both operands registers, "the register specified has to be
	 * the same for both" */
	if (dialect == WE_DIALECT_SASS &&
	    (i->opcode == ISA_OP_BAR_RR || i->opcode == ISA_OP_BAR_RED_RR || i->opcode == ISA_OP_BAR_SCAN_RR) &&
	    i->o[BAR_id].reg != i->o[BAR_cnt].reg) {
		snprintf(err, errlen, "SASS BAR with two registers needs the same register for the barrier "
			 "and the count (R%u[3:0] and R%u[27:16]), not R%u and R%u", i->o[BAR_id].reg,
			 i->o[BAR_id].reg, i->o[BAR_id].reg, i->o[BAR_cnt].reg);
		return false;
	}
	/* decision 3: an immediate count that is not a multiple of 32, or an
	 * immediate 0 for BAR.ARV, is refused when the module is loaded. */
	const xopd *cnt = NULL;
	bool arv = false;
	switch (i->opcode) {
	case ISA_OP_BAR_I:
	case ISA_OP_BAR_RRI:
		cnt = &i->o[BAR_cnt];
		arv = i->in->mode == ISA_BARMode_ARV;
		break;
	case ISA_OP_BAR_RED_I:
	case ISA_OP_BAR_RED_RRI:
	case ISA_OP_BAR_SCAN_I:
	case ISA_OP_BAR_SCAN_RRI:
		cnt = &i->o[BAR_cnt]; /* (BAR_RED_cnt, BAR_SCAN_cnt) */
		break;
	default:
		return true;
	}
	if (cnt->imm % 32) {
		snprintf(err, errlen, "barrier count 0x%llx is not a multiple of 32",
			 (unsigned long long)cnt->imm);
		return false;
	}
	if (arv && cnt->imm == 0) {
		snprintf(err, errlen, "BAR.ARV needs a count > 0 (0 means \"all live warps\", which only BAR.SYNC and BAR.RED may use)");
		return false;
	}
	return true;
}
