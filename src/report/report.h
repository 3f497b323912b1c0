/* report.h — the report of a faulted CTA (exception, deadlock, watchdog,
 * interruption), built once as data from the CTA's state (build.c) and
 * printed by one printer per form: text (text.c) and JSON (json.c).
 *
 * The data holds facts: warps, lanes, barrier counts and PCs.  The
 * printers render each PC as its disassembled instruction and, where the
 * module knows it, its source file:line.
 */
#ifndef WE_REPORT_H
#define WE_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "cta/cta.h"

struct we_module;

/* A warp at a barrier: its arrival (CTA barrier) or signal (named). */
typedef struct rep_arrival {
	uint32_t warp;
	uint8_t role;              /* named barrier: bit 1 producer, bit 0 consumer */
	uint64_t pc;
} rep_arrival;

/* A barrier whose phase is collecting arrivals. */
typedef struct rep_barrier {
	bool named;                /* a vISA named barrier                        */
	unsigned id, phase;
	uint8_t kind;              /* CTA barrier: enum bar_kind                   */
	uint32_t count, expected;  /* CTA barrier: threads (expected 0: all live)  */
	bool over_cta;             /* expects more threads than the CTA has        */
	uint32_t prod, nprod, cons, ncons; /* named barrier: signals and counts   */
	uint32_t n;
	rep_arrival who[32];
} rep_barrier;

/* A group of a warp's lanes at one PC. */
typedef struct rep_group {
	uint32_t lanes;
	uint64_t pc;
	bool active;               /* the lanes the warp runs (ActiveMask)         */
	bool parked;               /* intra-warp deadlock: parked at its sync      */
} rep_group;

typedef struct rep_warp {
	uint32_t id;
	we_warp_state state;
	int bar, nbar;             /* blocked on (-1: none)                        */
	bool intra;                /* blocked at an intra-warp deadlock            */
	uint64_t pc;               /* where it waits / its next instruction        */
	uint32_t active, valid;
	uint32_t ngroups;          /* > 1 when its valid lanes are at several PCs  */
	rep_group groups[32];
} rep_warp;

/* One step of the wait-for cycle: warp waits on (named) barrier id. */
typedef struct rep_step {
	uint32_t warp;
	int id;
	bool named;
} rep_step;

typedef struct we_report {
	const struct we_module *mod;
	const char *kernel;
	we_fault fault;            /* kind, warp, lanes, PC, address, message     */
	uint32_t cta[3];
	uint32_t cta_threads;      /* the CTA's threads rounded up to warps       */
	/* the CTA's state (deadlock, watchdog): every barrier collecting
	 * arrivals, every warp, the exited ones and a wait-for cycle */
	bool state;
	uint32_t nbarriers;
	rep_barrier barriers[WE_BAR_SLOTS + WE_NUM_NBARRIERS];
	uint32_t nwarps;
	rep_warp warps[32];
	uint32_t exited;           /* mask of the exited warps                    */
	uint32_t ncycle;           /* steps of the cycle (0: none)                */
	rep_step cycle[33];        /* cycle[ncycle] == cycle[0]                   */
} we_report;

/* The report of faulted CTA c (malloc'd; NULL on out of memory). */
we_report *report_build(const we_cta *c);
void report_free(we_report *r);

/* The printers (malloc'd text; NULL on out of memory). */
char *report_text(const we_report *r);
char *report_json(const we_report *r);

/* A launch's --profile (cta/profile.h, the launch's one row per
 * instruction): text, the kernel's disassembly annotated; JSON,
 * "warpemu.profile/1" (doc/json.md).  rounds: blocked time is in
 * scheduling rounds (else nanoseconds).  malloc'd; NULL out of memory. */
char *profile_text(const we_launch_ctx *L, const prof *p, const char *engine, bool rounds);
char *profile_json(const we_launch_ctx *L, const prof *p, const char *engine, bool rounds);

/* "deadlock", "timeout", "interrupted" or "exception" */
const char *report_verdict(const we_report *r);

#endif
