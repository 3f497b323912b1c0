/* sem_bcu.c — the barrier unit's instructions (seed 000).  The rules
 * live in bar.c; blocking and waking in the engine. */
#include <stdio.h>

#include "bar.h"
#include "engine.h"
#include "sem.h"

/* BAR{.SYNC,.ARV} SrcBarId, SrcCnt — every form: o[0] = id, o[1] = count.
 * 000: "如果SrcBarId的来源位宽大于4位，则只有最低的4bit是有效的" (and 12 bits
 * for the count). */
XSEM(BAR)
{
	bar_arrival a = {
		.id = xscalar(x, &i->o[0], 0) & 0xfu,
		.cnt = xscalar(x, &i->o[1], 0) & 0xfffu,
		.kind = BAR_KIND_SYNC,
		.wait = i->in->mode == ISA_BARMode_SYNC,
		.lanes = x->pmask,
		.pc = x->pc,
	};
	eng_barrier(x, &a);
}

/* BAR.RED.op SrcBarId, SrcCnt, {!}Pp  or  BAR.RED.op Rb, {!}Pp
 * (Rb[3:0] = id, Rb[15:4] = count: "用Rb的低4bit作为barrier的编号，
 * 接下来的12bit作为barrier完成时预期达到的计数值", decision 4). */
XSEM(BAR_RED)
{
	bar_arrival a = { .kind = BAR_KIND_RED, .redop = (uint8_t)i->in->redop, .wait = true,
			  .lanes = x->pmask, .pc = x->pc };
	const xopd *pp;
	if (i->opcode == ISA_OP_BAR_RED_R) {
		uint32_t v = xscalar(x, &i->o[0], 0);
		a.id = v & 0xfu;
		a.cnt = (v >> 4) & 0xfffu;
		pp = &i->o[1];
	} else {
		a.id = xscalar(x, &i->o[0], 0) & 0xfu;
		a.cnt = xscalar(x, &i->o[1], 0) & 0xfffu;
		pp = &i->o[2];
	}
	a.pred = xpred(x, pp) & x->pmask;
	eng_barrier(x, &a);
}

/* B2R.BAR Rd, id: Rd = getBarState(id); B2R.WARP Rd: the warp's copy. */
XSEM(B2R)
{
	uint32_t v = i->in->mode == ISA_B2RMode_WARP ? x->w->warp_bar_state
						      : eng_bar_get(x, (unsigned)i->o[1].imm & 0xfu);
	uint32_t res[XLANES];
	for_lanes(l) res[l] = v;
	xwrite(x, &i->o[0], 0, res, x->pmask);
}

/* BAR.RESULT Rd, pu (decision 7, from the warp's WarpBARState). */
XSEM(B2R_RESULT)
{
	uint32_t rd;
	bool pu;
	bar_result_of(x->w->warp_bar_state, &rd, &pu);
	uint32_t res[XLANES];
	for_lanes(l) res[l] = rd;
	xwrite(x, &i->o[0], 0, res, x->pmask);
	xset_pred(x, &i->o[1], pu ? ~0u : 0u, x->pmask);
}

/* R2B.BAR id, Ra: setBarState(id, Ra); R2B.WARP Ra: setWarpBarState(Ra). */
XSEM(R2B)
{
	uint32_t v = xscalar(x, &i->o[1], 0);
	if (i->in->mode == ISA_B2RMode_WARP)
		x->w->warp_bar_state = v;
	else
		eng_bar_set(x, (unsigned)i->o[0].imm & 0xfu, v);
}

bool sem_check_static(const xinsn *i, char *err, size_t errlen)
{
	/* decision 3: an immediate count that is not a multiple of 32, or an
	 * immediate 0 for BAR.ARV, is refused when the module is loaded. */
	const xopd *cnt = NULL;
	bool arv = false;
	switch (i->opcode) {
	case ISA_OP_BAR_I:
	case ISA_OP_BAR_RRI:
		cnt = &i->o[1];
		arv = i->in->mode == ISA_BARMode_ARV;
		break;
	case ISA_OP_BAR_RED_I:
	case ISA_OP_BAR_RED_RRI:
		cnt = &i->o[1];
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
