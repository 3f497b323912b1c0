/* sem_bru.c — the branch unit's instructions (seed 004): operand fetch
 * and target computation here, the mask algorithms in units/bru.c. */
#include <stdio.h>
#include <string.h>

#include "units/bru.h"
#include "exec/sem.h"

/* Maximum emulated sleep of one NANOSLEEP, ns (spec-reading decision 10:
 * the duration is bounded). */
#define NANOSLEEP_MAX_NS (1u << 20)

static void after_bru(xctx *x, bru_result r)
{
	x->pc_set = true;
	switch (r) {
	case BRU_CONT:
		break;
	case BRU_YIELD:
		x->stop = true;
		x->why = WE_STOP_YIELD;
		break;
	case BRU_SLEEP:
		x->stop = true;
		x->why = WE_STOP_SLEEP;
		break;
	case BRU_EXIT:
		x->stop = true;
		x->why = WE_STOP_EXITED;
		break;
	case BRU_FAULT:
		break; /* the caller records the fault */
	}
}

static inline uint32_t ppv_of(xctx *x, const xopd *pp) { return xpred(x, pp); }

/* The lanes of the warp that existed at launch (a partial last warp has
 * fewer): those not in ValidMask any more have exited. */
static uint32_t launch_valid(const xctx *x)
{
	uint32_t n = x->L->threads_per_cta - x->w->id * WE_WARP_SIZE;
	return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

static inline uint64_t next_pc(const xctx *x) { return x->pc + WE_INST_SIZE; }

/* A uniform register operand of `nregs` registers as one value. */
static uint64_t ureg_value(xctx *x, const xopd *o)
{
	uint64_t v = xureg(x, o->row);
	if (o->nregs > 1 && o->row != ISA_UREG_URZ)
		v |= (uint64_t)xureg(x, o->row + 1u) << 32;
	return v;
}

/* BRA{.U,.DIV,.CONV} {UR,} {!Pp,} target — the Python golden model gives
 * the jump mask, BRX's algorithm applies it. */
XSEM(BRA)
{
	bool has_ur = i->opcode == ISA_OP_BRA_U;
	_Static_assert(BRA_U_pp == BRA_pp, "BRA and BRA.U name the same predicate");
	const xopd *pp = &i->o[BRA_pp];
	const xopd *off = &i->o[has_ur ? BRA_U_offset : BRA_offset];
	uint32_t ur = 0;
	if (has_ur) {
		ur = xureg(x, i->o[BRA_U_ur].row);
		if (i->o[BRA_U_ur].flags & XF_BITNOT)
			ur = ~ur;
	}
	uint64_t target = next_pc(x) + (uint64_t)off->imm * WE_INST_SIZE;
	bool all_jumped = true;
	/* the usual BRA of a group: no .U/.DIV/... condition, guard true
	 * everywhere, predicate PT (pg all ones without reading it per warp) */
	const bool plain_jump = !has_ur && i->in->cond == BRU_COND_NONE;
	const bool pt = x->pmask == 0xffffffffu && xopd_pt(pp);
	/* warp by warp over a lockstep group (BRA without a uniform register) */
	for (unsigned j = 0; j <= x->group; j++) {
		we_warp *w = x->w + j;
		uint32_t pg = pt ? 0xffffffffu : x->pmask & wpred(w, pp);
		if (plain_jump && w->active && (pg & w->active) == w->active) {
			/* every active thread branches: bru_bra_mask gives
			 * branch_mask = pgv = ActiveMask, and bru_jump_uniform
			 * sets ActivePC = target with the masks unchanged */
			w->active_pc = target;
			continue;
		}
		all_jumped = false;
		/* (from this instruction: exec_group leaves a group's
		 * ActivePC behind for BRA) */
		w->active_pc = x->pc;
		uint32_t b = bru_bra_mask(w->active, w->valid, pg, (int)i->in->cond, has_ur, ur);
		bru_jump_uniform(w, b, target);
	}
	after_bru(x, BRU_CONT);
	x->intact = x->group && all_jumped;
}

/* Per-lane targets for BRX/CALL/RET: base + Vb + offset*16. */
static void jump_lanes(xctx *x, uint32_t bjump, const uint64_t tgt[32])
{
	bru_jump(x->w, bjump, tgt);
	after_bru(x, BRU_CONT);
}

/* Vb per lane: from a register (32 bits sign-extended, or a 64-bit pair),
 * a uniform register, or constant memory. */
static bool vb_lanes(xctx *x, const xopd *o, bool wide, uint64_t v[32])
{
	if (o->kind == XO_REG) {
		const uint32_t *lo = xrow(x, o, 0);
		const uint32_t *hi = wide ? xrow(x, o, 1) : NULL;
		for_lanes(l) v[l] = wide ? ((uint64_t)hi[l] << 32 | lo[l]) : (uint64_t)(int64_t)(int32_t)lo[l];
		return true;
	}
	uint64_t s;
	if (o->kind == XO_UREG) {
		s = ureg_value(x, o);
		if (!wide)
			s = (uint64_t)(int64_t)(int32_t)s;
	} else if (o->kind == XO_CMEM) {
		if (wide) {
			if (!xconst_read(x, o->bank, o->imm, 8, &s))
				return false;
		} else {
			uint32_t t;
			if (!xconst_read(x, o->bank, o->imm, 4, &t))
				return false;
			s = (uint64_t)(int64_t)(int32_t)t;
		}
	} else {
		s = 0;
	}
	for_lanes(l) v[l] = s;
	return true;
}

/* BRX: TargetPC = ActivePC + INST_SIZE + Vb + offset*INST_SIZE */
_Static_assert(BRX_C_pp == BRX_pp && BRX_C_vb == BRX_vb, "BRX.C names the same positions");
XSEM(BRX)
{
	const xopd *pp = &i->o[BRX_pp];
	uint64_t v[32];
	if (!vb_lanes(x, &i->o[BRX_vb], false, v))
		return;
	int64_t off = i->opcode == ISA_OP_BRX_C ? 0 : i->o[BRX_offset].imm;
	uint64_t t[32];
	for_lanes(l) t[l] = next_pc(x) + v[l] + (uint64_t)off * WE_INST_SIZE;
	jump_lanes(x, x->pmask & ppv_of(x, pp), t);
}

/* CALL/RET: ABS: TargetPC = Va + offset*16; REL: ActivePC + 16 + Va + offset*16.
 * 004: "CALL/RET在硬件实现上没有区别". */
_Static_assert(CALL_C_pp == CALL_pp && CALL_C_vb == CALL_vb && RET_pp == CALL_pp && RET_vb == CALL_vb &&
	       RET_C_pp == CALL_pp && RET_C_vb == CALL_vb && RET_offset == CALL_offset,
	       "CALL and RET name the same positions");
static void call_ret(xctx *x, const xinsn *i, bool is_c)
{
	const xopd *pp = &i->o[CALL_pp];
	uint64_t v[32];
	if (!vb_lanes(x, &i->o[CALL_vb], true, v))
		return;
	int64_t off = is_c ? 0 : i->o[CALL_offset].imm;
	bool abs = i->in->mode == ISA_BasePCMode_ABS;
	uint64_t t[32];
	for_lanes(l) t[l] = (abs ? 0 : next_pc(x)) + v[l] + (uint64_t)off * WE_INST_SIZE;
	jump_lanes(x, x->pmask & ppv_of(x, pp), t);
}

XSEM(CALL) { call_ret(x, i, i->opcode == ISA_OP_CALL_C); }
XSEM(RET) { call_ret(x, i, i->opcode == ISA_OP_RET_C); }

/* LEPC Rd64: rd[pmask] = ActivePC (+ the optional offset, 0 by default). */
XSEM(LEPC)
{
	uint64_t pc = x->pc + (uint64_t)i->o[LEPC_offset].imm * WE_INST_SIZE;
	uint32_t lo[XLANES], hi[XLANES];
	for_lanes(l) {
		lo[l] = (uint32_t)pc;
		hi[l] = (uint32_t)(pc >> 32);
	}
	xwrite(x, &i->o[LEPC_rd], 0, lo, x->pmask);
	xwrite(x, &i->o[LEPC_rd], 1, hi, x->pmask);
}

XSEM(EXIT)
{
	after_bru(x, bru_exit(x->w, x->pmask, ppv_of(x, &i->o[EXIT_pp])));
}

/* BMOV Rd, Bn {.CLEAR} / BMOV Bn, Ra */
XSEM(BMOV)
{
	we_warp *w = x->w;
	if (i->opcode == ISA_OP_BMOV_X) {
		unsigned b = (unsigned)i->o[BMOV_X_breg].imm;
		uint32_t res[XLANES];
		for_lanes(l) res[l] = w->breg[b];
		xwrite(x, &i->o[BMOV_X_rd], 0, res, x->pmask);
		if (i->in->clear == ISA_BRClear_CLEAR)
			w->breg[b] = 0;
	} else {
		unsigned b = (unsigned)i->o[BMOV_R_breg].imm;
		w->breg[b] = xrow(x, &i->o[BMOV_R_ra], 0)[xffs(x->pmask)];
	}
}

XSEM(BSSY) { bru_bssy(x->w, x->pmask, (unsigned)i->o[BSSY_breg].imm); }

/* The valid lanes at pc: the active ones at ActivePC, the others by
 * their RPC.  (Without a branch per lane: sync_progress asks at every
 * BSYNC that parks its lanes, a divergent kernel's usual case, and the
 * lane-by-lane test mispredicted its way to a third of such a run.) */
static inline uint32_t lanes_at(const we_warp *w, uint64_t pc)
{
	const uint32_t parked = bru_rpc_eq(w, pc) & ~w->active;
	return (parked | (w->active_pc == pc ? w->active : 0u)) & w->valid;
}

/* spec-reading decision 11, intra-warp.  A BSYNC/WARPSYNC that fails moves no lane:
 * the executing lanes park at it and 004 switches to another group.  In a
 * run of failing syncs with no other instruction between, no B register
 * changed and no lane asleep, nothing the syncs read changes (guards,
 * membermasks, YieldMask, the lanes' PCs), every lane at the PC counts as
 * arrived, and so the group switched to depends on the PC alone: a PC that
 * fails a second time in the run repeats it for ever.  Exact both ways: a
 * run that ends never repeats a PC under the same state, and an endless
 * one repeats one within a round over the warp's (at most 32) groups.
 * w->sync_seen holds the groups (lowest lane) that failed in the run. */
void sem_sync_progress(xctx *x, uint32_t was_active, bool breg_changed)
{
	we_warp *w = x->w;
	if (x->stop || ((w->active & was_active) && w->active_pc != x->pc)) {
		w->sync_seen = 0; /* the executing lanes went on, or the warp sleeps */
		return;
	}
	uint32_t here = lanes_at(w, x->pc);
	if ((was_active & ~here) || w->sleep) {
		/* lanes went on; or the timer will wake sleeping lanes, which
		 * changes the choice */
		w->sync_seen = 0;
		return;
	}
	if (w->insns != w->sync_fail_at + 1 || breg_changed)
		w->sync_seen = 0;
	w->sync_fail_at = w->insns;
	uint32_t key = here & -here;
	if (!(w->sync_seen & key)) {
		w->sync_seen |= key;
		return;
	}
	/* name the groups, lanes and PC: the parked ones, then any others
	 * (004 never switches to them while the run lasts) */
	char desc[460];
	size_t len = 0;
	desc[0] = 0;
	for (int pass = 0; pass < 2; pass++) {
		unsigned n = 0;
		for (uint32_t left = w->valid; left && len + 60 < sizeof desc;) {
			uint64_t pc = bru_lane_pc(w, xffs(left));
			uint32_t g = lanes_at(w, pc);
			left &= ~g;
			if (((w->sync_seen & g) != 0) != (pass == 0))
				continue;
			len += (size_t)snprintf(desc + len, sizeof desc - len, "%slanes 0x%08x at PC 0x%04llx",
						n ? ", " : pass ? "; never switched to: " : "", g,
						(unsigned long long)pc);
			n++;
		}
		if (!pass && len + 40 < sizeof desc)
			len += (size_t)snprintf(desc + len, sizeof desc - len,
						" wait at BSYNC/WARPSYNC/TBAR for each other");
	}
	x->stop = true;
	x->why = WE_STOP_FAULT;
	cta_sync_deadlock(x->cta, x->w, x->pc, here, desc);
}

XSEM(BSYNC)
{
	unsigned b = (unsigned)i->o[BSYNC_breg].imm & (WE_NUM_BREGS - 1);
	uint32_t was_active = x->w->active, breg = x->w->breg[b];
	after_bru(x, bru_bsync(x->w, x->pmask, ~0u, b));
	sem_sync_progress(x, was_active, x->w->breg[b] != breg);
}

XSEM(YIELD) { after_bru(x, bru_yield(x->w, x->pmask, ppv_of(x, &i->o[YIELD_pp]))); }

XSEM(BREAK) { bru_break(x->w, x->pmask, ppv_of(x, &i->o[BREAK_pp]), (unsigned)i->o[BREAK_breg].imm); }

XSEM(WARPSYNC)
{
	const xopd *pp = &i->o[WARPSYNC_pp], *m = &i->o[WARPSYNC_mask];
	uint32_t ppv = ppv_of(x, pp), was_active = x->w->active;
	if (i->opcode == ISA_OP_WARPSYNC_R) {
		uint32_t mm[XLANES], tmp[XLANES];
		const uint32_t *r = xsrc(x, m, 0, tmp, true);
		for_lanes(l) mm[l] = r[l];
		uint32_t bad = 0;
		if (x->L->check) {
			uint32_t named = 0;
			for_lanes(l) if (LANE_ON(x->pmask, l)) named |= mm[l];
			named &= ~x->w->valid & launch_valid(x);
			if (named)
				check_warn(x->cta, "warpsync-exited-lanes", x->w->id, x->pc,
					 "WARPSYNC membermasks name exited lanes 0x%08x", named);
		}
		bru_result res = bru_warpsync_grouped(x->w, x->pmask, ppv, mm, &bad);
		if (res == BRU_FAULT) {
			xfault(x, WE_FAULT_WARPSYNC, bad, 0,
			       "WARPSYNC membermask of lanes 0x%08x omits the lane itself or differs within its group",
			       bad);
			return;
		}
		after_bru(x, res);
		sem_sync_progress(x, was_active, false);
		return;
	}
	uint32_t mask;
	if (m->kind == XO_UREG) {
		mask = xureg(x, m->row);
		if (m->flags & XF_BITNOT)
			mask = ~mask;
	} else if (m->kind == XO_CMEM) {
		if (!xconst_read(x, m->bank, m->imm, 4, &mask))
			return;
		if (m->flags & XF_BITNOT)
			mask = ~mask;
	} else {
		mask = (uint32_t)m->imm;
	}
	if (x->L->check && (mask & ~x->w->valid & launch_valid(x)))
		check_warn(x->cta, "warpsync-exited-lanes", x->w->id, x->pc,
			 "WARPSYNC membermask 0x%08x names exited lanes 0x%08x", mask,
			 mask & ~x->w->valid & launch_valid(x));
	bru_result r = bru_warpsync(x->w, x->pmask, ppv, mask);
	if (r == BRU_FAULT) {
		uint32_t bad = x->pmask & ppv & x->w->active & ~mask;
		xfault(x, WE_FAULT_WARPSYNC, bad, 0,
		       "WARPSYNC membermask 0x%08x omits executing lanes 0x%08x", mask, bad);
		return;
	}
	after_bru(x, r);
	sem_sync_progress(x, was_active, false);
}

XSEM(NANOSLEEP)
{
	const xopd *pp = &i->o[NANOSLEEP_pp], *v = &i->o[NANOSLEEP_ns];
	uint32_t ns;
	if (v->kind == XO_REG) {
		/* one timer: the shortest duration of the sleeping lanes wins */
		const uint32_t *r = xrow(x, v, 0);
		ns = UINT32_MAX;
		for_lanes(l) if (LANE_ON(x->pmask, l) && r[l] < ns) ns = r[l];
	} else if (v->kind == XO_UREG) {
		ns = xureg(x, v->row);
	} else if (v->kind == XO_CMEM) {
		if (!xconst_read(x, v->bank, v->imm, 4, &ns))
			return;
	} else {
		ns = (uint32_t)v->imm;
	}
	if (ns > NANOSLEEP_MAX_NS)
		ns = NANOSLEEP_MAX_NS;
	after_bru(x, bru_nanosleep(x->w, x->pmask, ppv_of(x, pp), x->w->clock, ns));
}

/* RTT: return from the trap handler to the interrupted state. */
XSEM(RTT)
{
	(void)i;
	we_warp *w = x->w;
	if (!w->in_trap) {
		xfault(x, WE_FAULT_RTT, x->pmask, 0, "RTT executed outside a trap handler");
		return;
	}
	w->active_pc = w->trap_save.active_pc;
	w->active = w->trap_save.active & w->valid;
	w->yield = w->trap_save.yield;
	w->sleep = w->trap_save.sleep;
	w->swmask = w->trap_save.swmask;
	memcpy(w->rpc, w->trap_save.rpc, sizeof w->rpc);
	w->rpc_written = true;
	w->in_trap = false;
	x->pc_set = true;
	if (!w->active) {
		/* every interrupted active lane exited inside the handler */
		w->active = w->valid;
		xfault(x, WE_FAULT_RTT, x->pmask, 0, "RTT: no interrupted lane is left to resume");
	}
}

/* TRAP: enter the kernel's trap handler (.trap_handler) with the
 * interrupted seed-004 state saved: the whole warp enters with every valid
 * lane active and resumes after the TRAP on RTT.  The handler saves and
 * restores B registers (BMOV) and barrier state (B2R/R2B) itself. */
XSEM(TRAP)
{
	uint32_t idx = i->opcode == ISA_OP_TRAP_I ? (uint32_t)i->o[TRAP_idx].imm : xscalar(x, &i->o[TRAP_idx], 0);
	we_warp *w = x->w;
	int handler = x->L->k->trap_handler;
	if (handler < 0) {
		xfault(x, WE_FAULT_TRAP, x->pmask, 0, "TRAP 0x%x with no trap handler", idx);
		return;
	}
	if (w->in_trap) {
		xfault(x, WE_FAULT_TRAP, x->pmask, 0, "TRAP 0x%x inside the trap handler", idx);
		return;
	}
	w->trap_save.active_pc = x->pc + WE_INST_SIZE;
	w->trap_save.active = w->active;
	w->trap_save.yield = w->yield;
	w->trap_save.sleep = w->sleep;
	w->trap_save.swmask = w->swmask;
	memcpy(w->trap_save.rpc, w->rpc, sizeof w->rpc);
	w->in_trap = true;
	w->active = w->valid;
	w->yield = w->sleep = w->swmask = 0;
	for_lanes(l) w->rpc[l] = (uint64_t)handler;
	w->rpc_written = true;
	w->active_pc = (uint64_t)handler;
	x->pc_set = true;
}

XSEM(SYSCALL)
{
	(void)i;
	xfault(x, WE_FAULT_SYSCALL, x->pmask, 0, "SYSCALL: the emulator provides no system calls");
}
