/* cta.h — a running launch and its CTAs: the state shared by the warps
 * of one CTA (shared memory, the barrier units, the fault record, the
 * --check state), the read-only launch context shared by all CTAs, and
 * what the executor and the engines do to a CTA through this layer:
 *
 *  - barriers (sync.c): a warp arrives at a CTA barrier or a named
 *    barrier, exits, reads or writes a barrier's state word.  The rules
 *    are those of units/bar.c and units/nbar.c; this layer applies them
 *    under the CTA's lock (when several host threads run the CTA), keeps
 *    the warps' states and the ready mask in step, and wakes the warps a
 *    completion releases.  It never waits: a warp that must wait is left
 *    BLOCKED and the caller hands it back to its engine, which waits in
 *    its own way (engine/sched.c: another warp runs; engine/
 *    warp_threads.c: the host thread sleeps on the barrier's condition
 *    variable);
 *  - faults (fault.c): the first fault of a CTA is recorded and stops it;
 *  - --check hazards (check.c).
 *
 * Below it: the units (bar, nbar, bru, warp.h), the module and its
 * disassembler (asm/), the device.  Above it: the executor (exec/) and
 * the engines (engine/), which call down into it and never the reverse.
 */
#ifndef WE_CTA_H
#define WE_CTA_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cta/check.h"
#include "cta/profile.h"
#include "cta/race.h"
#include "units/bar.h"
#include "units/nbar.h"
#include "units/warp.h"
#include "warpemu/warpemu.h"

struct we_module;
struct we_kernel;
struct we_device;

typedef enum we_fault_kind {
	WE_FAULT_NONE = 0,
	WE_FAULT_ILLEGAL_INSTR,   /* undefined opcode / illegal encoding      */
	WE_FAULT_MEM_RANGE,       /* address outside every allocation/window  */
	WE_FAULT_MEM_ALIGN,       /* misaligned access                        */
	WE_FAULT_PC_RANGE,        /* branch/return outside the kernel         */
	WE_FAULT_BARRIER,         /* barrier misuse (spec-reading decision 5) */
	WE_FAULT_WARPSYNC,        /* WARPSYNC membermask misuse               */
	WE_FAULT_TRAP,            /* TRAP without a handler                   */
	WE_FAULT_SYSCALL,         /* SYSCALL (no host services)               */
	WE_FAULT_RTT,             /* RTT outside a trap handler               */
	WE_FAULT_DEADLOCK,        /* every live warp blocked                  */
	WE_FAULT_WATCHDOG,        /* instruction budget or wall clock         */
	WE_FAULT_INTERRUPTED      /* we_device_interrupt()                    */
} we_fault_kind;

const char *we_fault_name(we_fault_kind k);

typedef struct we_fault {
	we_fault_kind kind;
	uint32_t warp;
	uint32_t lanes;
	uint64_t pc;
	uint64_t addr;
	char msg[512];
} we_fault;

/* Read-only for the duration of a launch. */
typedef struct we_launch_ctx {
	struct we_device *dev;
	const struct we_module *mod;
	const struct we_kernel *k;
	we_dim3 grid, block;
	uint32_t threads_per_cta;
	uint32_t warps_per_cta;
	uint32_t shared_bytes;           /* static + dynamic                */
	uint32_t local_bytes;            /* per thread                      */
	uint32_t nrows;                  /* register rows per warp          */
	uint8_t params[4096];            /* constant bank 0                 */
	uint32_t param_bytes;
	uint64_t max_instructions;       /* per warp, 0 = unlimited         */
	double deadline;                 /* monotonic seconds, 0 = no timeout */
	bool hooked;                     /* trace, seeded, memcheck or profile:
					    the slow loop                    */
	uint32_t lockstep;               /* largest lockstep group (exec_group),
					    1: none                          */
	uint32_t batch;                  /* CTAs per scheduler worker batch,
					    0: as many as fill 32 warps      */
	bool seeded;                     /* reproducible schedule           */
	uint64_t seed;
	bool check;                      /* --check hazards                 */
	check_log *checklog;             /* where they go (with check or
					    memcheck)                        */
	uint32_t memcheck;               /* RACE_RACES | RACE_UNINIT (race.h):
					    the hooked loop observes memory  */
	race_launch *race;               /* their launch state (memcheck)   */
	bool profile;                    /* --profile (cta/profile.h)       */
	bool jitter;                     /* warp threads: seeded random
					    delays (seed), real timing      */
	void (*trace)(void *ctx, const char *line);
	void *trace_ctx;
	/* the compiled blocks of the kernel (exec/jit.h), NULL: interpreted;
	 * set before the workers start, or once by sched.c's sample of batches
	 * (release; exec_group loads it with acquire) */
	_Atomic(const struct xjit *) jit;
	uint64_t stream_min;             /* we_launch_config.stream_min, the
					    default applied                 */
	bool track_atomics;              /* note global atomics per word
					    (dev_note_atomic), for merging
					    parts of a grid               */
} we_launch_ctx;

/* splitmix64: the seeded schedule's random numbers */
static inline uint64_t sched_rand(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Synchronisation of a CTA whose warps run on several host threads (the
 * warp-threads engine); NULL in the scheduler engine, where one host
 * thread runs all warps of a CTA and nothing here locks.  The engine
 * that owns it initialises it (pthread objects) and sets it up per CTA
 * (cta_sync_start). */
typedef struct cta_sync {
	pthread_mutex_t lock;          /* guards the barrier units, warp states,
					  the fault record and the counters */
	pthread_cond_t cv[WE_BAR_SLOTS]; /* waiters of each barrier      */
	_Atomic uint32_t phase[WE_BAR_SLOTS]; /* completions, for the
					  bounded spin before sleeping      */
	pthread_cond_t nbar_cv;        /* waiters of named barriers         */
	_Atomic bool abort;            /* a warp faulted or deadlock: stop  */
	uint32_t live;                 /* warps not exited                  */
	uint32_t blocked;              /* warps blocked on a barrier        */
	/* Serialised mode (seeded schedule or trace): only the warp holding
	 * the baton runs, for the budget the scheduler gave it; the same
	 * decisions as the scheduler engine, so the run is reproducible. */
	bool serial;
	int baton;                     /* warp allowed to run, -1: none     */
	uint64_t baton_budget;
	pthread_cond_t baton_cv;
} cta_sync;

typedef struct we_cta {
	const we_launch_ctx *L;
	cta_sync *sync;                  /* NULL: one host thread runs the CTA */
	uint32_t ctaid[3];
	uint64_t linear_id;
	uint32_t nwarps;
	uint8_t *shared;
	we_warp *warps;
	bar_unit bars;
	nbar_unit nbars;                 /* vISA named barriers             */
	uint64_t rng;                    /* seeded schedule state           */
	uint32_t rr_next;                /* round-robin position            */
	uint32_t ready;                  /* warps in WE_WS_READY (cta_warp_state) */
	bool faulted;
	we_fault fault;
	uint64_t barriers_completed;
	check_cta chk;                   /* --check state (check.c)         */
	race_cta *race;                  /* races, uninit (race.c), or NULL */
	prof *prof;                      /* --profile counters, or NULL     */
} we_cta;

/* ---- warp states ---------------------------------------------------- */

/* Every change of a warp's state goes through here, which keeps the
 * CTA's mask of ready warps (the engines' schedulers) in step. */
static inline void cta_warp_state(we_cta *c, we_warp *w, we_warp_state st)
{
	w->state = st;
	if (st == WE_WS_READY)
		c->ready |= 1u << w->id;
	else
		c->ready &= ~(1u << w->id);
}

/* The CTA's lock, when several host threads run it (no-op otherwise:
 * inline, for the scheduler engine's barriers).  A failure is a broken
 * invariant (EINVAL/EDEADLK), not a user error. */
static inline void cta_lock(we_cta *c)
{
	if (c->sync && pthread_mutex_lock(&c->sync->lock))
		abort();
}
static inline void cta_unlock(we_cta *c)
{
	if (c->sync && pthread_mutex_unlock(&c->sync->lock))
		abort();
}

/* ---- barriers (sync.c) ---------------------------------------------- */

/* What an arrival did to the arriving warp. */
typedef enum cta_arrive {
	CTA_PASSED = 0,  /* goes on (ARV, or a barrier it did not complete) */
	CTA_RELEASED,    /* completed the barrier and released other warps  */
	CTA_BLOCKED,     /* must wait: its state is BLOCKED, bar_id or nbar_id
			    set; hand it back to its engine                */
	CTA_FAULT        /* a barrier exception: the message in msg         */
} cta_arrive;

/* Warp w arrives at a CTA barrier (BAR.SYNC/ARV/RED/SCAN/SYNCALL) with
 * its guard & ActiveMask pmask. */
cta_arrive cta_bar_arrive(we_cta *c, we_warp *w, uint32_t pmask, const bar_arrival *a, char *msg,
			  size_t msglen);
/* The n warps from w of a lockstep group arrive at once with the same
 * SYNC-kind arrival a: true when that completed the barrier in one step
 * (one host thread, no --check; bar_arrive_all), else false and nothing
 * changed (the caller arrives them one by one). */
bool cta_bar_arrive_group(we_cta *c, const bar_arrival *a, uint32_t n);
/* cta_bar_arrive_group would complete the barrier (nothing changes). */
bool cta_bar_group_ok(const we_cta *c, const bar_arrival *a, uint32_t n);
/* cta_bar_arrive_group's completion, where cta_bar_group_ok holds. */
void cta_bar_complete_group(we_cta *c, const bar_arrival *a);
/* NBARRIER.signal / NBARRIER.wait (units/nbar.c): CTA_PASSED, CTA_BLOCKED
 * (wait) or CTA_FAULT. */
cta_arrive cta_nbar_signal(we_cta *c, we_warp *w, uint64_t pc, uint32_t id, uint32_t type,
			   uint32_t nprod, uint32_t ncons, char *msg, size_t msglen);
cta_arrive cta_nbar_wait(we_cta *c, we_warp *w, uint64_t pc, uint32_t id, char *msg, size_t msglen);
/* B2R.BAR / R2B.BAR */
uint32_t cta_bar_get(we_cta *c, unsigned id);
void cta_bar_set(we_cta *c, unsigned id, uint32_t word);
/* Warp wi exited completely: cnt = 0 barriers may complete. */
void cta_warp_exited_hooked(we_cta *c, uint32_t wi);
static inline void cta_warp_exited(we_cta *c, uint32_t wi)
{
	if (!c->sync && !c->L->check && !c->race && !bar_waiting(&c->bars)) {
		/* no barrier has an arrival waiting (only such a one can
		 * complete: bar.h), so none to count, profile or wake, and no
		 * thread to tell: the usual end of a warp of a CTA that one host
		 * thread runs, also after its barriers */
		cta_warp_state(c, &c->warps[wi], WE_WS_EXITED);
		bar_warp_exited_idle(&c->bars, wi);
		return;
	}
	cta_warp_exited_hooked(c, wi);
}
/* Make the blocked warps of `wake` runnable. */
void cta_wake_warps(we_cta *c, uint32_t wake);
/* A new CTA on c's buffers (after cta_warp_state for each warp): the
 * barrier units, the check state and the synchronisation counters.
 * (Inline: a grid of small CTAs starts one every few instructions.) */
static inline void cta_sync_start(we_cta *c)
{
	bar_reset(&c->bars, c->nwarps);
	nbar_reset(&c->nbars, c->nwarps);
	if (c->L->check)
		check_reset(&c->chk);
	if (c->sync) {
		c->sync->live = c->nwarps;
		c->sync->blocked = 0;
		atomic_store_explicit(&c->sync->abort, false, memory_order_relaxed);
	}
}

/* ---- faults (fault.c) ----------------------------------------------- */

/* A runtime exception of warp w's instruction at pc (the executor's
 * xfault): the first one of a CTA is kept, more lanes of the same one
 * are added to it; the warp is FAULTED and, in a multi-threaded CTA, the
 * other warps are stopped. */
void cta_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, uint64_t pc, uint64_t addr,
	       const char *msg);
/* A fault the engine finds (watchdog, interrupt) at warp w (may be NULL),
 * before the instruction at its ActivePC. */
void cta_set_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg);
/* The CTA is deadlocked (nothing ready and nothing running can change
 * that): a DEADLOCK fault at its first blocked warp. */
void cta_set_deadlock(we_cta *c);
/* An intra-warp deadlock found at warp w's BSYNC/WARPSYNC at pc: the warp
 * is blocked there for good (on no barrier); lanes: those at pc, groups:
 * their description. */
void cta_sync_deadlock(we_cta *c, we_warp *w, uint64_t pc, uint32_t lanes, const char *groups);
/* The status a finished CTA gives its launch (WE_OK when not faulted). */
we_status cta_status(const we_cta *c);

/* ---- what reports read ---------------------------------------------- */

/* Blocked at a BSYNC/WARPSYNC of an intra-warp deadlock (on no barrier). */
static inline bool cta_sync_blocked(const we_warp *w)
{
	return w->state == WE_WS_BLOCKED && w->bar_id < 0 && w->nbar_id < 0;
}
/* The instruction a blocked warp waits at: its arrival at its barrier,
 * its named-barrier wait, or the PC of its lowest group parked at an
 * intra-warp deadlock. */
uint64_t cta_blocked_pc(const we_cta *c, const we_warp *w);

#endif
