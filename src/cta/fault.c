/* fault.c — a CTA's fault record: the first fault of a CTA stops it
 * (cta.h), and the report (report/) reads it with the CTA's state. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cta/cta.h"
#include "cta/cta_int.h"
#include "units/bru.h"

const char *we_fault_name(we_fault_kind k)
{
	switch (k) {
	case WE_FAULT_NONE: return "none";
	case WE_FAULT_ILLEGAL_INSTR: return "illegal instruction";
	case WE_FAULT_MEM_RANGE: return "out-of-range memory access";
	case WE_FAULT_MEM_ALIGN: return "misaligned memory access";
	case WE_FAULT_PC_RANGE: return "PC outside the kernel";
	case WE_FAULT_BARRIER: return "barrier exception";
	case WE_FAULT_WARPSYNC: return "WARPSYNC exception";
	case WE_FAULT_TRAP: return "TRAP";
	case WE_FAULT_SYSCALL: return "SYSCALL";
	case WE_FAULT_RTT: return "RTT outside a trap handler";
	case WE_FAULT_DEADLOCK: return "deadlock";
	case WE_FAULT_WATCHDOG: return "watchdog";
	case WE_FAULT_INTERRUPTED: return "interrupted";
	}
	return "unknown fault";
}

/* The CTA stops: in a multi-threaded one every warp thread sees the
 * abort and every waiter wakes. */
static void stop_locked(we_cta *c)
{
	if (c->sync) {
		atomic_store_explicit(&c->sync->abort, true, memory_order_release);
		cta_broadcast_all(c->sync);
	}
}

static void record(we_cta *c, we_fault_kind kind, uint32_t warp, uint32_t lanes, uint64_t pc,
		   uint64_t addr, const char *prefix, const char *msg)
{
	c->faulted = true;
	c->fault.kind = kind;
	c->fault.warp = warp;
	c->fault.lanes = lanes;
	c->fault.pc = pc;
	c->fault.addr = addr;
	snprintf(c->fault.msg, sizeof c->fault.msg, "%s%s", prefix, msg);
}

uint64_t cta_blocked_pc(const we_cta *c, const we_warp *w)
{
	/* Not ActivePC: the executor moves it past the instruction when the
	 * handler hands the warp back */
	if (w->bar_id >= 0)
		return c->bars.b[w->bar_id].arrive_pc[w->id];
	if (w->nbar_id >= 0)
		return c->nbars.wait_pc[w->id];
	uint32_t seen = w->sync_seen & w->valid;
	return seen ? bru_lane_pc(w, (unsigned)__builtin_ctz(seen)) : w->active_pc;
}

void cta_fault_locked(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg)
{
	if (c->faulted)
		return;
	/* a deadlock names the barrier instruction the (blocked) warp waits
	 * at; a watchdog or an interrupt stops a warp before the instruction
	 * at its ActivePC, which may follow a branch */
	uint64_t pc = !w ? 0 : kind == WE_FAULT_DEADLOCK ? cta_blocked_pc(c, w) : w->active_pc;
	record(c, kind, w ? w->id : 0, lanes, pc, 0, "", msg);
	stop_locked(c);
}

void cta_deadlock_locked(we_cta *c)
{
	we_warp *first = NULL;
	for (uint32_t wi = 0; wi < c->nwarps && !first; wi++)
		if (c->warps[wi].state == WE_WS_BLOCKED)
			first = &c->warps[wi];
	cta_fault_locked(c, first, WE_FAULT_DEADLOCK, first ? first->active : 0,
			 "every live warp of the CTA is blocked on a barrier that cannot complete");
}

void cta_set_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg)
{
	cta_lock(c);
	cta_fault_locked(c, w, kind, lanes, msg);
	cta_unlock(c);
}

void cta_set_deadlock(we_cta *c)
{
	cta_lock(c);
	cta_deadlock_locked(c);
	cta_unlock(c);
}

void cta_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, uint64_t pc, uint64_t addr,
	       const char *msg)
{
	cta_lock(c);
	cta_warp_state(c, w, WE_WS_FAULTED);
	if (!c->faulted)
		record(c, kind, w->id, lanes, pc, addr, "", msg);
	else if (c->fault.warp == w->id && c->fault.pc == pc && c->fault.kind == kind)
		c->fault.lanes |= lanes;
	stop_locked(c);
	cta_unlock(c);
}

void cta_sync_deadlock(we_cta *c, we_warp *w, uint64_t pc, uint32_t lanes, const char *groups)
{
	cta_lock(c);
	/* blocked, on no barrier: the report reads its groups (cta_sync_blocked) */
	cta_warp_state(c, w, WE_WS_BLOCKED);
	if (c->sync)
		c->sync->blocked++;
	if (!c->faulted)
		record(c, WE_FAULT_DEADLOCK, w->id, lanes, pc, 0, "intra-warp deadlock: ", groups);
	stop_locked(c);
	cta_unlock(c);
}

we_status cta_status(const we_cta *c)
{
	if (!c->faulted)
		return WE_OK;
	switch (c->fault.kind) {
	case WE_FAULT_DEADLOCK: return WE_ERR_DEADLOCK;
	case WE_FAULT_WATCHDOG: return WE_ERR_TIMEOUT;
	case WE_FAULT_INTERRUPTED: return WE_ERR_INTERRUPTED;
	default: return WE_ERR_EXCEPTION;
	}
}
