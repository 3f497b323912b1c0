/* cta.h — a running launch and its CTAs: the state shared by the warps
 * of one CTA (shared memory, the 16 barriers, the fault record) and the
 * read-only launch context shared by all CTAs.
 */
#ifndef WE_CTA_H
#define WE_CTA_H

#include <stdbool.h>
#include <stdint.h>

#include "units/bar.h"
#include "units/nbar.h"
#include "units/warp.h"
#include "warpemu/warpemu.h"

struct we_module;
struct cta_sync;
struct we_kernel;
struct we_device;

typedef enum we_fault_kind {
	WE_FAULT_NONE = 0,
	WE_FAULT_ILLEGAL_INSTR,   /* undefined opcode / illegal encoding      */
	WE_FAULT_MEM_RANGE,       /* address outside every allocation/window  */
	WE_FAULT_MEM_ALIGN,       /* misaligned access                        */
	WE_FAULT_PC_RANGE,        /* branch/return outside the kernel         */
	WE_FAULT_BARRIER,         /* barrier misuse (SPEC-NOTES decision 5)   */
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
	bool hooked;                     /* trace or seeded: the slow loop  */
	uint32_t lockstep;               /* largest lockstep group (exec_group),
					    1: none                          */
	uint32_t batch;                  /* CTAs per scheduler worker batch,
					    0: as many as fill 32 warps      */
	bool seeded;                     /* reproducible schedule           */
	uint64_t seed;
	bool check;                      /* --check hazards                 */
	bool jitter;                     /* warp threads: seeded random
					    delays (seed), real timing      */
	void (*trace)(void *ctx, const char *line);
	void *trace_ctx;
} we_launch_ctx;

/* splitmix64: the seeded schedule's random numbers */
static inline uint64_t sched_rand(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

typedef struct we_cta {
	const we_launch_ctx *L;
	struct cta_sync *sync;           /* NULL: one host thread runs the CTA */
	uint32_t ctaid[3];
	uint64_t linear_id;
	uint32_t nwarps;
	uint8_t *shared;
	we_warp *warps;
	bar_unit bars;
	nbar_unit nbars;                 /* vISA named barriers             */
	uint64_t rng;                    /* seeded schedule state           */
	uint32_t rr_next;                /* round-robin position            */
	uint32_t ready;                  /* warps in WE_WS_READY (warp_state) */
	bool faulted;
	we_fault fault;
	uint64_t barriers_completed;
} we_cta;

#endif
