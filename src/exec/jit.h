/* jit.h — the compiled tier: runs of plain ALU instructions of a kernel
 * compiled to host code (jit.c, with LLVM's ORC JIT) for the scheduler
 * engine's lockstep groups.
 *
 * A block is a run of consecutive instructions of xjit_compilable() form
 * (plain ALU forms, and 32- and 64-bit global and shared loads and
 * stores; no branch or barrier unit, no counter read: nothing that can
 * block or read another warp's state), guards included.  Its function
 * runs every instruction of the run for each of n consecutive warps of a
 * lockstep group (ActiveMask all ones, rows consecutive: warp.h), in
 * registers, and adds each warp's thread-instructions (the popcount of
 * guard & ActiveMask of every instruction); the caller adds the
 * warp-instructions and clocks (len each) and moves the PC, as
 * exec_group's group_settle does for interpreted instructions.  Memory
 * instructions run instruction-major, as exec_group runs them: every
 * warp's accesses of one before any warp's of the next (jit.c), so that
 * warps of a group that share words see what the interpreter shows them.  The results are those of running
 * the instructions one by one (tests/test_jit.c compares them).
 *
 * Without LLVM (configure --without-llvm, or none found) nothing builds
 * an xjit and every launch is interpreted.
 */
#ifndef WE_EXEC_JIT_H
#define WE_EXEC_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "units/warp.h"

struct xinsn;
struct we_launch_ctx;

/* What a block reads at run time besides the warps (not folded into the
 * code, so that one compilation serves every launch of the kernel: the
 * cache below): the launch's parameters, its shared memory size, and the
 * library's translation of a global span (xglobal_span for warp w: the
 * host address of [addr, addr + span) inside one allocation, and that
 * allocation's device addresses [win[0], win[1]), else NULL; jit.c links
 * no function of the library). */
typedef struct xjit_rt {
	const uint8_t *params;
	const struct we_launch_ctx *L;
	uint8_t *(*global)(we_warp *w, const struct we_launch_ctx *L, uint64_t addr, uint64_t span, uint64_t win[2]);
	/* the lanes of pm of an access that is not at consecutive addresses,
	 * one by one in lane order as do_load/do_store: base + off[l] the
	 * lane's host address; op XJIT_STORE (else a load) | XJIT_64 (else
	 * 32 bits); the words loaded into, or stored from, lo[l] (and hi[l]) */
	void (*lanes)(uint64_t base, const uint32_t off[32], uint32_t pm, uint32_t op, uint32_t lo[32],
		      uint32_t hi[32]);
	uint64_t shared_bytes;
} xjit_rt;
#define XJIT_STORE 1u
#define XJIT_64 2u

/* r: the first warp's register rows (w[0].r), rstride: w[0].rstride,
 * n: warps, w: the first warp (the others follow it).  Returns the
 * instructions run for every warp: the block's length, or the index of a
 * memory instruction whose addresses are not the fast case (a lane
 * outside the window or allocation, misaligned, lanes in two
 * allocations): a side exit, no warp has run it and every warp has run
 * the instructions before it (their registers, predicates and thread
 * counts stored), and the interpreter runs it from there (its faults are
 * the interpreter's). */
typedef uint32_t (*xjit_fn)(uint32_t *r, uint64_t rstride, uint64_t n, we_warp *w, const xjit_rt *rt);

typedef struct xjit_entry {
	xjit_fn fn;        /* NULL: no block starts here                    */
	uint32_t len;      /* instructions of the block                     */
} xjit_entry;

typedef struct xjit {
	xjit_entry *at;    /* per instruction of [start, end)               */
	uint64_t start, end;
	uint32_t blocks;   /* functions compiled                            */
	uint32_t insns;    /* instructions in some block                    */
	double seconds;    /* building and compiling them                   */
	void *impl;        /* the JIT that owns the code (jit.c)            */
} xjit;

/* The block that starts at pc, or NULL. */
static inline const xjit_entry *xjit_at(const xjit *j, uint64_t pc)
{
	if (pc < j->start || pc >= j->end)
		return NULL;
	const xjit_entry *e = &j->at[(pc - j->start) / WE_INST_SIZE];
	return e->fn ? e : NULL;
}

/* --jit auto's rule (engine/sched.c applies it): compile when the
 * interpreter's predicted remaining time, measured on the launch's first
 * batch, is at least XJIT_AUTO_FACTOR times the compile time expected
 * (the module's last compile measured, else XJIT_COMPILE_GUESS seconds).
 * The factor 16 is about the inverse of the smallest gain measured
 * (reduce: the compiled tier, memory instructions included, saved 6.4% of
 * the interpreter's host instructions, bench/README.md; 8 when it
 * compiled ALU runs only and saved 12%): on alu, triad and reduce it
 * repays the compile at least.
 * batch_seconds: one worker's time for its first batch of batch_ctas
 * CTAs, left: the CTAs no worker has taken yet, workers: the workers. */
#define XJIT_AUTO_FACTOR 16.0
#define XJIT_COMPILE_GUESS 0.05
static inline bool xjit_auto_pays(double batch_seconds, uint64_t batch_ctas, uint64_t left,
				  unsigned workers, double compile_seconds)
{
	if (!batch_ctas || !workers)
		return false;
	const double predicted = batch_seconds / (double)batch_ctas * (double)left / (double)workers;
	return predicted >= XJIT_AUTO_FACTOR * compile_seconds;
}

#ifdef WE_HAVE_LLVM
/* The compiler lives in a module of its own, warpemu-jit.so (jit.c,
 * linked with LLVM), loaded with dlopen by the first launch that compiles
 * (jit_load.c): a run that compiles nothing never maps LLVM (about 45 MB
 * and its load time).  The module exports one xjit_plugin. */
typedef struct xjit_plugin {
	uint64_t abi;      /* XJIT_ABI of the module's build                */
	/* Compile the blocks of L's kernel of at least min_len instructions.
	 * NULL with a message in err when LLVM fails. */
	xjit *(*compile)(const struct we_launch_ctx *L, uint32_t min_len, char *err, size_t errlen);
	void (*free)(xjit *j);
} xjit_plugin;
#define XJIT_PLUGIN_SYMBOL "we_jit_plugin"
/* the layouts the module and the library share, and the version of
 * xjit_fn's signature (0x1a: params added; 0x1b: xjit_rt and the side
 * exit): a module of another build is refused */
#define XJIT_ABI                                                                                  \
	((uint64_t)sizeof(struct we_launch_ctx) << 40 ^ (uint64_t)sizeof(we_warp) << 24 ^            \
	 (uint64_t)sizeof(xjit_rt) << 32 ^ (uint64_t)sizeof(struct xinsn) << 12 ^                    \
	 (uint64_t)sizeof(xjit) ^ UINT64_C(0x1b) << 56)

/* The module's plugin (*handle for xjit_plugin_close), or NULL with a
 * message in err. */
const xjit_plugin *xjit_plugin_open(void **handle, char *err, size_t errlen);
void xjit_plugin_close(void *handle);

/* The compiled code of a module's kernels (we_module.jit): compiled once
 * per kernel (and parameter size) and kept until the module is
 * destroyed, so that launches after the first, and every CTA and group
 * of a launch, run it without compiling again.  Thread-safe: launches of
 * one module from several threads compile a kernel once. */
typedef struct xjit_cache xjit_cache;
xjit_cache *xjit_cache_new(void);
void xjit_cache_free(xjit_cache *c);
/* L's kernel's compiled code: from the cache (*seconds = 0), or, when
 * compile, compiled now and cached (*seconds: the compile's time).
 * NULL when not cached and !compile, or with a message in err when LLVM
 * fails (*failed). */
const xjit *xjit_cache_get(xjit_cache *c, const struct we_launch_ctx *L, bool compile, double *seconds,
			   bool *failed, char *err, size_t errlen);
/* the compile time to expect (xjit_auto_pays) */
double xjit_cache_estimate(xjit_cache *c);
#endif

#endif
