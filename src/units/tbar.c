/* tbar.c — per-thread arrival at a CTA barrier (tbar.h; the reading is
 * doc/spec-reading.md, "PTX barriers (seed 001)").  The parking and the
 * switch to another group of lanes are seed 004's BSYNC algorithm with
 * "arrived at barrier id" in place of "at this PC"; the warp's arrival
 * itself is seed 000's (+32), made by the caller. */
#include <stdio.h>

#include "units/bru.h"
#include "units/tbar.h"

#define INST_SIZE 16u /* = WE_INST_SIZE */

/* RPC[mask2array(m)] += d (parked lanes resume after their own TBAR) */
static void rpc_add(we_warp *w, uint32_t m, uint64_t d)
{
	w->rpc_written = true;
	for (; m; m &= m - 1)
		w->rpc[__builtin_ctz(m)] += d;
}

/* The arrival is legal: no lane arrives twice (001: a thread arrives once
 * per phase of the barrier), one count and one kind per warp arrival. */
static bool legal(const we_warp *w, uint32_t pmask, unsigned id, unsigned cnt, int kind, char *msg, size_t msglen)
{
	uint32_t arr = w->tbar.arrived[id];
	uint32_t again = pmask & arr & ~w->tbar.parked;
	if (again) {
		snprintf(msg, msglen,
			 "lanes 0x%08x arrive at barrier %u a second time before every live lane of their warp "
			 "arrived once (a thread arrives once per phase, 001)", again, id);
		return false;
	}
	if (!(pmask & ~arr) || !arr)
		return true;
	if (w->tbar.cnt[id] != cnt) {
		snprintf(msg, msglen, "barrier %u: lanes 0x%08x arrive with count %u, lanes 0x%08x of their warp with %u",
			 id, pmask & ~arr, cnt, arr, w->tbar.cnt[id]);
		return false;
	}
	if ((kind == TBAR_RED) != (w->tbar.kind[id] == TBAR_RED)) {
		snprintf(msg, msglen, "barrier %u: lanes 0x%08x arrive through barrier.%s, lanes 0x%08x of their warp "
			 "through barrier.%s (000: BAR.RED and BAR.SYNC/ARV may not share a barrier)",
			 id, pmask & ~arr, kind == TBAR_RED ? "red" : "sync/arrive", arr,
			 kind == TBAR_RED ? "sync/arrive" : "red");
		return false;
	}
	return true;
}

/* Every active lane waits: switch to a group of lanes that is not parked
 * at a TBAR, as BSYNC switches to the threads that have not arrived (004:
 * sleeping threads last, non-yielding ones first). */
static tbar_result switch_away(we_warp *w)
{
	uint32_t cmask = w->valid & ~w->tbar.parked;
	if (!cmask)
		return TBAR_STUCK;
	bool do_sleep = (cmask & ~w->sleep) == 0;
	if (!do_sleep)
		cmask &= ~w->sleep;
	uint32_t ny = cmask & ~w->yield;
	bru_switch_pc_by_mask(w, ny ? ny : cmask);
	return do_sleep ? TBAR_SLEEP : TBAR_CONT;
}

tbar_result tbar_arrive(we_warp *w, uint64_t pc, uint32_t pmask, unsigned id, unsigned cnt, int kind,
			uint32_t pred, tbar_warp_arrival *out, char *msg, size_t msglen)
{
	id &= WE_NUM_BREGS - 1u; /* 16 barriers, 000 */
	cnt &= 0xfffu;
	if (!legal(w, pmask, id, cnt, kind, msg, msglen))
		return TBAR_FAULT;
	uint32_t *arr = &w->tbar.arrived[id];
	if (!*arr) {
		w->tbar.cnt[id] = (uint16_t)cnt;
		w->tbar.kind[id] = (uint8_t)kind;
	}
	*arr |= pmask;
	w->tbar.pred[id] = (w->tbar.pred[id] & ~pmask) | (pred & pmask);
	if (kind != TBAR_ARV)
		w->tbar.parked |= pmask;

	if ((w->valid & ~*arr) == 0) {
		/* the warp's last live lane arrived: the warp arrives (+32);
		 * every parked lane resumes after its own TBAR, the active
		 * ones (those of pmask, and the guard-false ones falling
		 * through) after this one */
		uint32_t park = w->tbar.parked & *arr;
		out->cnt = w->tbar.cnt[id];
		out->kind = w->tbar.kind[id] == TBAR_RED ? TBAR_RED : park ? TBAR_SYNC : TBAR_ARV;
		out->lanes = *arr & w->valid;
		out->pred = w->tbar.pred[id] & out->lanes;
		rpc_add(w, park & ~w->active, INST_SIZE);
		w->tbar.parked &= ~park;
		*arr = 0;
		w->tbar.pred[id] = 0;
		w->tbar.kind[id] = 0;
		w->active_pc = pc + INST_SIZE;
		return TBAR_WARP;
	}
	uint32_t mask_np = w->active & ~pmask;
	if (kind == TBAR_ARV || mask_np) {
		/* the lanes of a TBAR.ARV go on; of a TBAR.SYNC/RED whose guard
		 * is false in some lanes, those fall through first and the
		 * arrived ones park (BSYNC's order) */
		if (kind != TBAR_ARV) {
			bru_rpc_set(w, pmask, pc);
			w->active = mask_np;
		}
		w->active_pc = pc + INST_SIZE;
		return TBAR_CONT;
	}
	bru_rpc_set(w, w->active, pc);
	return switch_away(w);
}
