/* bru.h — the branch unit's mask algorithms of seed 004, one function per
 * instruction, each written to be held line by line against the seed's
 * pseudo code.  They only touch the seed-004 state of a warp (PC, masks,
 * RPC, B registers); operand fetch and register writes are the
 * executor's job, which passes the already-evaluated values in.
 *
 * Conventions:
 *  - pgv  : lane mask of the guard predicate value ({!}Pg), all 32 lanes.
 *  - ppv  : lane mask of the extra predicate ({!}Pp); all-ones when absent.
 *  - PCs are byte offsets; INST_SIZE = 16.
 *  - Return value says what the warp does next (bru_result).
 */
#ifndef WE_BRU_H
#define WE_BRU_H

#include <stdbool.h>
#include <stdint.h>

#include "units/warp.h"

typedef enum bru_result {
	BRU_CONT = 0,   /* keep executing at w->active_pc                     */
	BRU_YIELD,      /* YIELD executed: the driver may switch warps        */
	BRU_SLEEP,      /* warpSleep(): the warp sleeps until w->wake_time    */
	BRU_EXIT,       /* warpExit(): ValidMask became 0                      */
	BRU_FAULT       /* usage error (e.g. WARPSYNC mask omits the lane);
			   *fault_lanes says which lanes                      */
} bru_result;

/* BRACond values, in the order of seed 004's __DefBitFieldType BRACond. */
enum { BRU_COND_NONE = 0, BRU_COND_U = 1, BRU_COND_DIV = 2, BRU_COND_CONV = 3 };

/* 004's RPC[mask2array(m)] = pc; it says so (rpc_written: every writer
 * of the RPCs does, for warp_clear_flow) */
static inline void bru_rpc_set(we_warp *w, uint32_t m, uint64_t pc)
{
	w->rpc_written = true;
	for (; m; m &= m - 1)
		w->rpc[__builtin_ctz(m)] = pc;
}

/* A thread's PC: ActivePC for an active lane, else its RPC (004). */
static inline uint64_t bru_lane_pc(const we_warp *w, unsigned l)
{
	return ((w->active >> l) & 1u) ? w->active_pc : w->rpc[l];
}

/* Seed 004 helpers. */
uint32_t bru_rpc_eq(const we_warp *w, uint64_t pc); /* array2mask(RPC==pc) */
void bru_switch_pc_by_mask(we_warp *w, uint32_t cmask); /* switchPCByMask */

/* The branch mask of BRA: a line-by-line port of 004's Python golden
 * model getGoldenBranchCondition().  pg is the lane mask {!}Pg & {!}Pp.
 * has_ur selects the UR form (ur is the 32-bit UR mask, already ~'d if
 * the operand had the bitnot modifier). */
uint32_t bru_bra_mask(uint32_t active, uint32_t valid, uint32_t pg,
		      int cond, bool has_ur, uint32_t ur);

/* Apply a jump with per-lane targets (the BRX semantic, shared by BRA,
 * CALL and RET): bjump = ActiveMask & pgv & ppv. */
void bru_jump(we_warp *w, uint32_t bjump, const uint64_t target[32]);
/* Same with one target for all lanes (BRA). */
void bru_jump_uniform(we_warp *w, uint32_t bjump, uint64_t target);

bru_result bru_exit(we_warp *w, uint32_t pgv, uint32_t ppv);
void bru_bssy(we_warp *w, uint32_t pgv, unsigned breg);
bru_result bru_bsync(we_warp *w, uint32_t pgv, uint32_t ppv, unsigned breg);
bru_result bru_yield(we_warp *w, uint32_t pgv, uint32_t ppv);
void bru_break(we_warp *w, uint32_t pgv, uint32_t ppv, unsigned breg);
/* WARPSYNC with one membermask for the warp (I/U/C forms). */
bru_result bru_warpsync(we_warp *w, uint32_t pgv, uint32_t ppv, uint32_t mmask);
/* WARPSYNC Rb: per-lane membermasks.  Lanes whose own mask omits them, or
 * whose group masks disagree, are reported through *fault_lanes with
 * BRU_FAULT. */
bru_result bru_warpsync_grouped(we_warp *w, uint32_t pgv, uint32_t ppv,
				const uint32_t mmask[32], uint32_t *fault_lanes);
/* NANOSLEEP: now = the warp's emulated time in ns, ns = requested sleep. */
bru_result bru_nanosleep(we_warp *w, uint32_t pgv, uint32_t ppv,
			 uint64_t now, uint64_t ns);
/* The timer: called by drivers when emulated time advances; clears
 * SleepMask at once when the timer expired (seed 004: one timer). */
bool bru_timer_expired(we_warp *w, uint64_t now);

#endif
