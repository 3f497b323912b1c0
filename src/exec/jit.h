/* jit.h — the compiled tier: runs of plain ALU instructions of a kernel
 * compiled to host code (jit.c, with LLVM's ORC JIT) for the scheduler
 * engine's lockstep groups, and a warp function that also runs the
 * branch unit's common instructions for a warp alone (xjit_wfn below).
 *
 * A block is a run of consecutive instructions of xjit_compilable() form
 * (plain ALU forms, S2R of the thread and CTA ids, sizes and lane masks,
 * 32- and 64-bit global and shared loads and stores, loads of 8 and 16
 * bits, the shared ATOMS.ADD of 32 bits, the global ADD of 32 bits whose
 * old value nothing reads, which the turn holds back (exec/red.h); no
 * branch or barrier unit, no clock read: nothing that can block or read
 * another warp's state), guards included.  Its function
 * runs every instruction of the run for each of n consecutive warps of a
 * lockstep group (ActiveMask all ones, rows consecutive: warp.h), in
 * registers, and adds each warp's thread-instructions (the popcount of
 * guard & ActiveMask of every instruction); the caller adds the
 * warp-instructions and clocks (len each) and moves the PC, as
 * exec_group's group_settle does for interpreted instructions.  Memory
 * instructions run instruction-major, as exec_group runs them: every
 * warp's accesses of one before any warp's of the next (jit.c), so that
 * warps of a group that share words see what the interpreter shows them.  The results are those of running
 * the instructions one by one (tests/test_jit.c compares them).  A
 * warp's store of whole lines into an allocation larger than the host's
 * caches streams past them (xjit_rt.stream_min, xjit_stream_fence).
 *
 * Without LLVM (configure --without-llvm, or none found) nothing builds
 * an xjit and every launch is interpreted.
 */
#ifndef WE_EXEC_JIT_H
#define WE_EXEC_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "units/warp.h"

struct xinsn;
struct we_launch_ctx;
struct xred;

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
	/* the lanes of pm of a load of 8 or 16 bits (bytes) that are not at
	 * consecutive addresses, one by one in lane order as do_load: base +
	 * off[l] the lane's host address, the value zero-extended into lo[l]
	 * (words of 32 and 64 bits are gathered and scattered in the compiled
	 * code itself) */
	void (*lanes)(uint64_t base, const uint32_t off[32], uint32_t pm, uint32_t bytes, uint32_t lo[32]);
	uint64_t shared_bytes;
	/* a 32-bit global ADD whose old value nothing reads (RED.ADD,
	 * ATOMG.ADD to RZ), which the turn holds back (exec/red.h): its
	 * translation, global's without applying what the turn holds; its
	 * lanes of pm, at host address base + off[l] adding v[l], type the
	 * ISA's AtomType; and what a compiled global access that overlaps
	 * the held words calls first (xred_flush) */
	uint8_t *(*global_red)(we_warp *w, const struct we_launch_ctx *L, uint64_t addr, uint64_t span,
			       uint64_t win[2]);
	void (*red)(we_warp *w, uint64_t base, const uint32_t off[32], const uint32_t v[32], uint32_t pm,
		    uint32_t type);
	void (*flush)(struct xred *r);
	/* a store of whole lines into an allocation of at least this many
	 * bytes streams past the host's caches (we_launch_config.stream_min;
	 * jit.c emit_stream) */
	uint64_t stream_min;
} xjit_rt;
/* (the library's: exec/jit_rt.c) rt for a launch's warps */
void xjit_rt_init(xjit_rt *rt, const struct we_launch_ctx *L);

/* Orders the compiled code's streaming stores (jit.c emit_stream: the
 * host's non-temporal stores, which x86 orders neither with later plain
 * stores nor, as documented, with locked instructions, and so with none
 * of the C11 atomics that GCC compiles to those) before what this host
 * thread does next.  MEMBAR runs it (sem_warp.c): it is the only way
 * the ISA orders a weak store before another host thread's reads, a
 * release access being a MEMBAR then the access (doc/ptx.md); and a
 * scheduler worker runs it after its last CTA (engine/sched.c), before
 * the launch's end, where the caller reads the buffers. */
static inline void xjit_stream_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_sfence();
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* r: the first warp's register rows (w[0].r), rstride: w[0].rstride,
 * n: warps, w: the first warp (the others follow it).  Returns the
 * instructions run for every warp: the block's length, or the index of a
 * memory instruction whose addresses, or those of a load after it checked
 * with it (jit.c emit_run), are not the fast case (a lane outside the
 * window or allocation, misaligned, lanes in two allocations): a side
 * exit, no warp has run it and every warp has run
 * the instructions before it (their registers, predicates and thread
 * counts stored), and the interpreter runs it from there (its faults are
 * the interpreter's).  A side exit in the block's restartable prefix
 * (jit.c defer_plan: up to there only loads and ALU instructions, none
 * reading a register or predicate the block stored before) returns 0:
 * the registers stored so far change nothing the block reads from its
 * start, its thread counts are taken back, and the interpreter runs it
 * all. */
typedef uint32_t (*xjit_fn)(uint32_t *r, uint64_t rstride, uint64_t n, we_warp *w, const xjit_rt *rt);

/* The warp function: one warp (ActiveMask any, no lane asleep) from its
 * ActivePC, which must be one of its entries, with the kernel's branches
 * compiled too: runs of the block instructions above, BSSY, BREAK, BRA
 * without .U or a condition (uniform, not taken, or divergent: 004's BRX
 * algorithm for one target), an EXIT of some of the executing threads,
 * and BSYNC (004's full sync, the failed sync that switches groups, the
 * release: bru_bsync); it returns to the interpreter at anything else (a
 * BSYNC whose guard splits the executing threads or that would report a
 * deadlock, an EXIT of every executing thread, barriers, YIELD, ...), at
 * a memory instruction's side exit, and before a run longer than the
 * budget left.  It keeps every counter, the
 * PC and the masks as exec_run would, and returns the instructions it
 * ran (at most budget); the interpreter then runs the one at ActivePC.
 * From its entry to its return it keeps the warp's masks, RPCs, B
 * registers, predicates and counters in values of its own (stored back
 * before it returns: nothing it calls reads them).  An if/else whose
 * sides are block instructions without memory runs in one pass when its
 * threads split: both sides under their masks, and 004's end state of
 * the switches it saves (jit.c wemit_diamond).
 * exec_run calls it where xjit_warp_at says it has an entry. */
typedef uint64_t (*xjit_wfn)(we_warp *w, const xjit_rt *rt, uint64_t budget);

typedef struct xjit_entry {
	xjit_fn fn;        /* NULL: no block starts here                    */
	uint32_t len;      /* instructions of the block                     */
	uint32_t plain;    /* the kernel's unguarded instructions before
			      this one (xjit_unguarded)                  */
	bool warp;         /* the warp function has an entry here           */
} xjit_entry;

typedef struct xjit {
	xjit_entry *at;    /* per instruction of [start, end), and one after */
	uint64_t start, end;
	xjit_wfn wfn;      /* the warp function, or NULL                    */
	uint32_t wentries; /* its entries                                   */
	uint32_t blocks;   /* block functions compiled                      */
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

/* Of the first ran instructions of block e (xjit_at), those without a
 * guard: a block function counts no thread-instruction for them (every
 * lane of every warp runs them), its caller counts them as a group's
 * (jit.c set_guard; exec_group, exec_straight). */
static inline uint32_t xjit_unguarded(const xjit_entry *e, uint32_t ran)
{
	return e[ran].plain - e[0].plain;
}

/* The warp function has an entry at pc. */
static inline bool xjit_warp_at(const xjit *j, uint64_t pc)
{
	return j->wfn && pc >= j->start && pc < j->end && !(pc & (WE_INST_SIZE - 1)) &&
	       j->at[(pc - j->start) / WE_INST_SIZE].warp;
}

/* --jit auto's rules (engine/tier.c applies them from sched.c's sample
 * of worker 0's batches).  The interpreter's predicted remaining time:
 * batch_seconds, one worker's time for its sample of batch_ctas CTAs,
 * left: the CTAs no worker has taken yet, workers: the workers. */
static inline double xjit_auto_predict(double batch_seconds, uint64_t batch_ctas, uint64_t left, unsigned workers)
{
	if (!batch_ctas || !workers)
		return 0;
	return batch_seconds / (double)batch_ctas * (double)left / (double)workers;
}

/* Without the disk cache (we_launch_config.jit_cache off, or a directory
 * it cannot write): compile when the predicted remaining time is at
 * least XJIT_AUTO_FACTOR times the compile time expected (the module's
 * last compile measured, else XJIT_COMPILE_GUESS seconds): the compile
 * must repay itself in this launch.  The factor 16 is about the inverse
 * of the smallest gain measured (reduce: the compiled tier, memory
 * instructions included, saved 6.4% of the interpreter's host
 * instructions, bench/README.md; 8 when it compiled ALU runs only and
 * saved 12%): on alu, triad and reduce it repays the compile at least. */
#define XJIT_AUTO_FACTOR 16.0
#define XJIT_COMPILE_GUESS 0.05

/* With a writable disk cache the code serves later runs too (other
 * processes load it instead of compiling): compile when the predicted
 * remaining time is at least XJIT_STORE_FACTOR times the compile time
 * expected.  At 1 a run that compiles spends at most as long compiling
 * as it would interpret (it is at most about twice as slow as
 * interpreted, and at once faster by the gain), while a run shorter than
 * a compile never pays one; the kernels of `make bench` compile in their
 * first launch (bench/README.md, "A disk cache of compiled kernels").
 * An entry of the disk cache is loaded when the predicted remaining time
 * is at least XJIT_LOAD_FACTOR times the load time expected (the
 * module's last load, else XJIT_LOAD_GUESS seconds: mapping LLVM is most
 * of it, bench/README.md): a run too short to notice the compiled code
 * does not map LLVM for it. */
#define XJIT_STORE_FACTOR 1.0
#define XJIT_LOAD_FACTOR 1.0
#define XJIT_LOAD_GUESS 0.02

/* compile, the code stored on disk (stored) or not */
static inline bool xjit_auto_compiles(double predicted, double compile_seconds, bool stored)
{
	return predicted > 0 && predicted >= (stored ? XJIT_STORE_FACTOR : XJIT_AUTO_FACTOR) * compile_seconds;
}
/* load the disk cache's entry */
static inline bool xjit_auto_loads(double predicted, double load_seconds)
{
	return predicted > 0 && predicted >= XJIT_LOAD_FACTOR * load_seconds;
}
/* the rule without the disk cache, from the sample */
static inline bool xjit_auto_pays(double batch_seconds, uint64_t batch_ctas, uint64_t left,
				  unsigned workers, double compile_seconds)
{
	return xjit_auto_compiles(xjit_auto_predict(batch_seconds, batch_ctas, left, workers), compile_seconds, false);
}

/* What compiled code is, for the disk cache (jit_disk.c): the blocks'
 * table and the object file the module (below) made of them, which it
 * links again into a process that loads the entry.  Every pointer is
 * malloc'd (xjit_image_free). */
typedef struct xjit_image {
	uint32_t nblocks;
	uint32_t (*block)[2];  /* per block: its first instruction (the index
				  from the kernel's start; its function is
				  named "b" and that number) and length */
	uint8_t *obj;          /* the object file (ELF on Linux)            */
	size_t objlen;
	char *host;            /* LLVM's host CPU name and features it was
				  compiled for: another is refused          */
} xjit_image;
static inline void xjit_image_free(xjit_image *img)
{
	free(img->block);
	free(img->obj);
	free(img->host);
	memset(img, 0, sizeof *img);
}

/* the code generation level (LLVMCodeGenLevelLess: jit.c's create_tm)
 * and the IR passes (build_module): both in the disk cache's key */
#define XJIT_OPT_LEVEL 1
#define XJIT_PASSES "mem2reg,instcombine,early-cse"

/* the layouts the module and the library share, and the version of
 * xjit_fn's signature (0x1a: params added; 0x1b: xjit_rt and the side
 * exit; 0x1c: the plugin's load and images; 0x1d: the warp function;
 * 0x1e: consecutive lanes' range from the first and last lane; 0x1f:
 * xjit_rt.lanes for narrow loads only; 0x20: xjit_rt.stream_min;
 * 0x21: a block function's callers count its unguarded instructions'
 * threads, xjit_entry.plain, and a prefix's side exit returns 0;
 * 0x22: an address linear in the lane checked from lane 0's; 0x23: a
 * check taken from an earlier one's, check_twin; 0x24: the warp
 * function's windows kept in we_warp.jwin; 0x25: WARPSYNC of every
 * lane compiled, warpsync_all): a module
 * of another build is refused (and an entry of the disk cache, which
 * holds code of this generator only) */
#define XJIT_ABI                                                                                  \
	((uint64_t)sizeof(struct we_launch_ctx) << 40 ^ (uint64_t)sizeof(we_warp) << 24 ^            \
	 (uint64_t)sizeof(xjit_rt) << 32 ^ (uint64_t)sizeof(struct xinsn) << 12 ^                    \
	 (uint64_t)sizeof(xjit) ^ (uint64_t)sizeof(xjit_image) << 52 ^ UINT64_C(0x25) << 56)

/* A launch's use of the caches: dir in, the rest out (its stats). */
#define XJIT_NOTE 256
typedef struct xjit_use {
	const char *dir;       /* the disk cache's directory, NULL: off     */
	bool entry;            /* xjit_cache_find: the disk holds an entry  */
	bool writable;         /* ... and dir can take a new one            */
	const char *disk;      /* what the disk cache did (XJIT_DISK_*)     */
	char key[33];          /* the entry's name (jit_disk.h), or ""      */
	char note[XJIT_NOTE];  /* why an entry was ignored or not written   */
	double compile_seconds, load_seconds; /* in this launch            */
	bool failed;           /* LLVM failed (err): interpreted            */
	char err[256];
} xjit_use;
/* (the states of xjit_use.disk, we_launch_stats.jit_cache) */
#define XJIT_DISK_OFF "off"
#define XJIT_DISK_MISS "miss"
#define XJIT_DISK_FOUND "found"        /* an entry, not loaded (auto)     */
#define XJIT_DISK_LOADED "loaded"
#define XJIT_DISK_STORED "stored"
#define XJIT_DISK_NOT_STORED "not stored"
#define XJIT_DISK_UNUSED "unused"      /* the launch runs no compiled code */

/* the shortest block compiled (in the disk cache's key): one, so that
 * every plain instruction between a straight kernel's branches and
 * barriers is in a block (exec.h exec_straight); elsewhere a block of
 * one instruction costs a call, as its handler does */
#define XJIT_MIN_LEN 1

#ifdef WE_HAVE_LLVM
/* The compiler lives in a module of its own, warpemu-jit.so (jit.c,
 * linked with LLVM), loaded with dlopen by the first launch that compiles
 * (jit_load.c): a run that compiles nothing never maps LLVM (about 45 MB
 * and its load time).  The module exports one xjit_plugin. */
typedef struct xjit_plugin {
	uint64_t abi;      /* XJIT_ABI of the module's build                */
	/* Compile the blocks of L's kernel of at least min_len instructions,
	 * and when img is not NULL describe them in *img (the disk cache).
	 * NULL with a message in err when LLVM fails. */
	xjit *(*compile)(const struct we_launch_ctx *L, uint32_t min_len, xjit_image *img, char *err,
			 size_t errlen);
	/* The code of img (a disk cache entry for L's kernel, checked by the
	 * library) linked into this process; NULL with a message in err when
	 * it is for another host CPU or LLVM cannot link it. */
	xjit *(*load)(const struct we_launch_ctx *L, const xjit_image *img, char *err, size_t errlen);
	void (*free)(xjit *j);
} xjit_plugin;
#define XJIT_PLUGIN_SYMBOL "we_jit_plugin"

/* The compiled code of a module's kernels (we_module.jit): compiled, or
 * loaded from the disk cache (jit_disk.h), once per kernel (and
 * parameter size) and kept until the module is destroyed, so that
 * launches after the first, and every CTA and group of a launch, run it
 * without compiling again.  Thread-safe: launches of one module from
 * several threads compile or load a kernel once. */
typedef struct xjit_cache xjit_cache;
xjit_cache *xjit_cache_new(void);
void xjit_cache_free(xjit_cache *c);

/* L's kernel's code from the module's cache (compiled or loaded by an
 * earlier launch: u->disk says where it came from), else NULL; then,
 * with u->dir, u->entry and u->writable say what the disk cache holds
 * (probed without loading LLVM) and u->disk is "found" or "miss". */
const xjit *xjit_cache_find(xjit_cache *c, const struct we_launch_ctx *L, xjit_use *u);
/* L's kernel's code loaded from its disk entry (u->load_seconds), or
 * NULL with the reason in u->note and u->disk "miss" (a missing,
 * corrupt, truncated or foreign entry is ignored, as is one LLVM cannot
 * link). */
const xjit *xjit_cache_load(xjit_cache *c, const struct we_launch_ctx *L, xjit_use *u);
/* L's kernel compiled now (u->compile_seconds) and kept, and with u->dir
 * written to its disk entry (u->disk "stored", or "not stored" with the
 * reason in u->note); NULL when LLVM fails (u->failed, u->err). */
const xjit *xjit_cache_compile(xjit_cache *c, const struct we_launch_ctx *L, xjit_use *u);
/* the compile and the load time to expect (xjit_auto_*) */
double xjit_cache_estimate(xjit_cache *c);
double xjit_cache_load_estimate(xjit_cache *c);
#endif

#endif
