/* profile.h — --profile: per instruction of the kernel, what its warps
 * did there (we_launch_config.profile).  Collected in the hooked loop
 * (exec/run.c: executions, lanes, divergence at BRA, reconvergence at
 * BSYNC), by the CTA layer (sync.c: barrier completions, under the CTA's
 * lock) and by the engines (the time warps spent blocked at a barrier:
 * scheduling rounds in the scheduler engine, wall time in nanoseconds in
 * the warp-threads engine).  Each CTA slot has its own counters, a row
 * per warp so that warp threads never share one; they are summed into the
 * launch's (prof_add) after the host threads are joined.  Printed by
 * report/profile.c. */
#ifndef WE_CTA_PROFILE_H
#define WE_CTA_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The counters of one instruction. */
typedef struct prof_pc {
	uint64_t warp_insns;       /* executions (a false guard counts)          */
	uint64_t thread_insns;     /* their active lanes with a true guard       */
	uint64_t diverged;         /* BRA/BRX: some active lanes went, some not  */
	uint64_t reconverged;      /* BSYNC: lanes joined the active mask        */
	uint64_t completions;      /* barrier phases the instruction completed   */
	uint64_t blocked;          /* rounds or nanoseconds warps waited there   */
} prof_pc;

typedef struct prof {
	uint32_t ninsns;           /* the kernel's instructions                  */
	uint64_t code_start;
	uint32_t nwarps;
	prof_pc *pc;               /* nwarps rows of ninsns (a slot), or one     */
	uint64_t *block_pc;        /* per warp: where it blocked last            */
} prof;

/* Counters for nwarps warps (1: the launch's sums) of a kernel of
 * ninsns instructions from code_start; NULL when out of memory. */
prof *prof_new(uint32_t nwarps, uint32_t ninsns, uint64_t code_start);
void prof_free(prof *p);
/* d += a, count by count. */
static inline void prof_pc_add(prof_pc *d, const prof_pc *a)
{
	d->warp_insns += a->warp_insns;
	d->thread_insns += a->thread_insns;
	d->diverged += a->diverged;
	d->reconverged += a->reconverged;
	d->completions += a->completions;
	d->blocked += a->blocked;
}

/* Add every warp's row of s into the one row of sum. */
void prof_add(prof *sum, const prof *s);

/* The row of warp w at pc (inside the kernel: the loop checked it). */
static inline prof_pc *prof_at(prof *p, uint32_t w, uint64_t pc)
{
	return &p->pc[(size_t)w * p->ninsns + (pc - p->code_start) / 16u];
}

/* A barrier phase completed by the arrival at pc (under the CTA lock:
 * counted in row 0). */
static inline void prof_completed(prof *p, uint64_t pc)
{
	if (pc >= p->code_start && (pc - p->code_start) / 16u < p->ninsns)
		prof_at(p, 0, pc)->completions++;
}

/* Warp w waited `amount` (rounds or nanoseconds) at its last blocking
 * instruction. */
static inline void prof_blocked(prof *p, uint32_t w, uint64_t amount)
{
	const uint64_t pc = p->block_pc[w];
	if (pc >= p->code_start && (pc - p->code_start) / 16u < p->ninsns)
		prof_at(p, w, pc)->blocked += amount;
}

#endif
