/* warpemu — public C API.
 *
 * A device owns global memory and runs launches.  A module is assembled
 * text or a binary image holding one or more kernels.  Every function that
 * can fail returns a we_status; the detailed message of the last failure on
 * a device is available from we_last_error().  Nothing here prints, exits or
 * touches global state: two devices are independent.
 */
#ifndef WARPEMU_H
#define WARPEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with -fvisibility=hidden: what is declared here
 * is its whole exported interface. */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

#define WE_VERSION_STRING "0.1.0"

/* Status codes.  The CLI maps them to its exit statuses (see warpemu(1)). */
typedef enum we_status {
	WE_OK = 0,
	WE_ERR_INVALID = 1,     /* bad argument to an API call               */
	WE_ERR_NOMEM = 2,       /* host or device memory exhausted / limit   */
	WE_ERR_ASM = 3,         /* assembly errors (see we_last_error)       */
	WE_ERR_LOAD = 4,        /* bad binary module or kernel lookup failed */
	WE_ERR_EXCEPTION = 5,   /* runtime exception in the kernel           */
	WE_ERR_DEADLOCK = 6,    /* a CTA deadlocked                           */
	WE_ERR_IO = 7,          /* host file I/O                              */
	WE_ERR_LIMIT = 8,       /* launch exceeds an ISA or configured limit  */
	WE_ERR_TIMEOUT = 9,     /* watchdog: instruction budget or wall clock */
	WE_ERR_INTERNAL = 10,
	WE_ERR_INTERRUPTED = 11 /* we_device_interrupt() stopped the launch   */
} we_status;

const char *we_status_name(we_status s);

typedef struct we_device we_device;
typedef struct we_module we_module;
typedef uint64_t we_devptr;

/* ---- devices ---------------------------------------------------------- */
typedef struct we_device_config {
	uint64_t max_memory;   /* bytes of global memory allowed; 0 = default:
				  3/4 of the RAM or of the memory cgroup's
				  limit (v2 memory.max, v1
				  memory.limit_in_bytes, of the process's
				  cgroup or an ancestor), the smaller; a
				  larger value is lowered to that */
	unsigned threads;      /* host worker threads; 0 = one per PU (hwloc)  */
} we_device_config;

we_status we_device_create(const we_device_config *cfg, we_device **out);
void we_device_destroy(we_device *dev);
/* Message of the last failed call on dev (never NULL, "" when none). */
const char *we_last_error(const we_device *dev);
/* A one-line notice of the last launch that is not an error, e.g. that
 * threads could not be pinned (never NULL, "" when none). */
const char *we_device_notice(const we_device *dev);
/* Stop the running launch of dev (and any later one) cleanly: every host
 * thread finishes its current turn and is joined, and we_launch returns
 * WE_ERR_INTERRUPTED.  Async-signal-safe: it only stores an atomic flag. */
void we_device_interrupt(we_device *dev);

/* ---- global memory ---------------------------------------------------- */
/* Memory from we_malloc reads as zeros until written. */
we_status we_malloc(we_device *dev, size_t bytes, we_devptr *out);
we_status we_free(we_device *dev, we_devptr p);
we_status we_memcpy_htod(we_device *dev, we_devptr dst, const void *src, size_t n);
we_status we_memcpy_dtoh(we_device *dev, void *dst, we_devptr src, size_t n);
we_status we_memset(we_device *dev, we_devptr dst, int byte, size_t n);
/* The global memory limit of dev (we_device_config.max_memory, or the
 * default when that is 0) and the bytes allocated now: a caller can
 * refuse a buffer, or stop reading one, before we_malloc would. */
void we_device_memory(const we_device *dev, uint64_t *limit, uint64_t *used);

/* ---- modules ---------------------------------------------------------- */
/* filename is used in diagnostics only (may be NULL). */
we_status we_module_load_text(we_device *dev, const char *text, size_t len,
			      const char *filename, we_module **out);
we_status we_module_load_binary(we_device *dev, const void *image, size_t len,
				we_module **out);
/* Serialise a loaded module; *image is malloc'd, free() it. */
we_status we_module_save_binary(const we_module *m, void **image, size_t *len);
/* Disassemble the whole module (malloc'd text, free() it). */
we_status we_module_disassemble(const we_module *m, char **text);
void we_module_destroy(we_module *m);

typedef enum we_param_type {
	WE_PARAM_U32, WE_PARAM_S32, WE_PARAM_F32, WE_PARAM_U64, WE_PARAM_PTR,
	WE_PARAM_F64,                  /* (after PTR: binary modules' numbers stay) */
	WE_PARAM_BYTES                 /* an aggregate by value (PTX .b8 name[N]):
					  we_param_info.size bytes */
} we_param_type;

typedef struct we_param_info {
	const char *name;
	we_param_type type;
	uint32_t offset;       /* byte offset in constant bank 0 */
	uint32_t size;
} we_param_info;

typedef struct we_kernel_info {
	const char *name;
	const char *dialect;
	unsigned nparams;
	const we_param_info *params;
	uint32_t param_bytes;  /* size of the parameter block */
	uint32_t shared_bytes; /* static shared memory        */
	uint32_t local_bytes;  /* per-thread local memory     */
	uint32_t ninsns;
	uint32_t nregs;        /* registers per thread used    */
} we_kernel_info;

unsigned we_module_kernel_count(const we_module *m);
const we_kernel_info *we_module_kernel(const we_module *m, unsigned i);
const we_kernel_info *we_module_find_kernel(const we_module *m, const char *name);
/* A parameter type's name ("u32", ... as in .param; "?" for none) and
 * its size in the parameter block (0 for none, and for WE_PARAM_BYTES,
 * whose size is each parameter's own). */
const char *we_param_type_name(we_param_type t);
uint32_t we_param_type_size(we_param_type t);
/* The device memory holding a PTX module's .global variables, placed on
 * the device at load (*bytes 0 when the module has none): global memory
 * its kernels may write besides their parameters' buffers. */
we_status we_module_globals(const we_module *m, we_devptr *ptr, size_t *bytes);

/* ---- launches --------------------------------------------------------- */
typedef struct we_dim3 { uint32_t x, y, z; } we_dim3;

/* How host threads drive warps. */
typedef enum we_engine {
	WE_ENGINE_DEFAULT = 0,     /* the faster one, see README         */
	WE_ENGINE_SCHEDULER,       /* a worker per core runs many warps  */
	WE_ENGINE_WARP_THREADS     /* one host thread per warp           */
} we_engine;

/* Where host threads run (hwloc binding). */
typedef enum we_placement {
	WE_PLACE_DEFAULT = 0,      /* compact                            */
	WE_PLACE_NONE,             /* no binding                         */
	WE_PLACE_COMPACT,          /* a CTA's warps on neighbouring PUs  */
	WE_PLACE_SCATTER           /* spread over packages and cores     */
} we_placement;

/* The compiled tier (we_launch_config.jit). */
typedef enum we_jit {
	WE_JIT_AUTO = 0,           /* compile when the launch is large   */
	WE_JIT_ON,                 /* compile whenever it can be used    */
	WE_JIT_OFF                 /* interpret every instruction        */
} we_jit;

const char *we_engine_name(we_engine e);
/* true when the library was built with the compiled tier (LLVM). */
bool we_jit_available(void);
/* The directory of the disk cache of compiled kernels a launch with
 * we_launch_config.jit_cache = setting uses (see there), in buf; "" when
 * it has none (off).  WE_ERR_INVALID without a buffer; a name longer
 * than len counts as none. */
we_status we_jit_cache_dir(const char *setting, char *buf, size_t len);
const char *we_placement_name(we_placement p);

/* Describe the host topology and the placement a launch with engine e,
 * placement p and CTAs of block threads would use: the host threads it
 * starts and the PU each is bound to; and the default of
 * we_launch_config.stream_min on this host.  *text is malloc'd, free() it.
 * block must be within the launch limits even for the scheduler engine,
 * which does not depend on it. */
we_status we_device_describe(we_device *dev, we_engine e, we_placement p,
			     we_dim3 block, char **text);

typedef struct we_launch_config {
	we_dim3 grid, block;
	uint32_t dynamic_shared;        /* bytes added to the static size */
	uint64_t max_instructions;      /* per warp; 0 = unlimited          */
	unsigned threads;               /* scheduler workers / concurrent CTAs
					   of warp-threads; 0 = one per core */
	we_engine engine;
	we_placement placement;
	/* Deadlock stress (see warpemu(1) --schedule, --check, --trace):
	 * a seeded schedule runs one CTA at a time, so that the same seed
	 * gives the same interleaving, trace, result and verdict. */
	bool schedule_seeded;           /* reproducible interleaving from... */
	uint64_t schedule_seed;         /* ...this seed                      */
	bool check;                     /* report barrier hazards            */
	double timeout;                 /* wall-clock seconds, 0 = none      */
	/* Per-warp instruction trace: called with one line per executed
	 * warp-instruction ("cta=x,y,z warp=W pc=0x0040 active=0x... INSN"),
	 * CTA by CTA and warp by warp, never concurrently.  Tracing runs one
	 * CTA at a time. */
	void (*trace)(void *ctx, const char *line);
	void *trace_ctx;
	/* Scheduler engine: consecutive warps of a CTA that are at one PC
	 * with every lane active run in lockstep groups of up to this many
	 * warps, one instruction for the whole group at a time (the results
	 * are those of running them one by one).  0 = the default
	 * (WE_LOCKSTEP_DEFAULT), 1 = one warp at a time; at most 32.  A
	 * seeded schedule or a trace runs one warp at a time. */
	unsigned lockstep;
	/* Scheduler engine: each worker runs up to this many CTAs side by
	 * side; when all warps of consecutive ones are at one PC with every
	 * lane active they run as one lockstep group (at most 32 warps in
	 * all; the results are those of running the CTAs one after the
	 * other).  0 = as many CTAs as fill 32 warps (a kernel without
	 * branches or barriers: `lockstep` warps), 1 = one CTA at a time;
	 * at most 32.  Without lockstep groups it is 1. */
	unsigned batch;
	/* Warp-threads engine, without a seeded schedule or trace: every warp
	 * thread runs one instruction at a time and waits for short random
	 * times drawn from schedule_seed (more often before barrier and
	 * memory instructions), so that stress runs see real thread timing.
	 * Not replayable exactly: the timing is the host's. */
	bool jitter;
	/* --check's memory checks, beside the barrier hazards of `check`:
	 * WE_CHECK_RACES (data races between warps and CTAs, lanes writing
	 * one address with different values) and WE_CHECK_UNINIT (reads of
	 * shared or local memory that nothing wrote first); 0 = none.  Their
	 * lines go with the hazards (we_last_warnings, stats.warnings).  The
	 * launch then runs one warp at a time (no lockstep groups), every
	 * instruction observed: several times slower. */
	unsigned check_memory;
	/* Count, per instruction of the kernel, its executions, lanes,
	 * divergence (BRA/BRX), reconvergence (BSYNC), barrier completions and
	 * the time warps spent blocked there: we_last_profile() and
	 * we_last_profile_json() after the launch.  Like check_memory it runs
	 * one warp at a time, every instruction observed. */
	bool profile;
	/* The compiled tier: runs of plain ALU instructions, and of global
	 * and shared loads and stores (no branch or barrier instruction),
	 * compiled to host code with LLVM for the scheduler engine's
	 * lockstep groups; the results are those of the interpreter.  A
	 * kernel compiles once per module (later launches reuse its code),
	 * and its code is kept in the disk cache (jit_cache) for later runs.
	 * AUTO uses a kernel's code at once when the module has it; else,
	 * from the interpreter's remaining time predicted from the first
	 * CTAs, it loads the disk cache's entry when that time is at least
	 * the load time expected, or compiles when it is at least the
	 * compile time expected (16 times that without a writable disk
	 * cache: the compile must then repay itself in this launch).  ON
	 * loads or compiles in every launch that runs lockstep groups, OFF
	 * neither.  The warp-threads engine, lockstep 1, check,
	 * check_memory, profile, a seeded schedule and a trace always
	 * interpret.  ON in a library built without LLVM is refused
	 * (WE_ERR_INVALID). */
	we_jit jit;
	/* The disk cache of compiled kernels: NULL or "" for the default,
	 * "off" for none, else a directory.  The default is the environment
	 * variable WARPEMU_JIT_CACHE ("off" or a directory), else
	 * $XDG_CACHE_HOME/warpemu, else $HOME/.cache/warpemu
	 * (we_jit_cache_dir).  A kernel compiled is written there (the
	 * directory made if missing, private to the user) as one file per
	 * kernel and host, and later runs load it instead of compiling.  An
	 * entry of another build, LLVM, host CPU or kernel is never used, a
	 * corrupt or truncated one is ignored, and a directory that cannot
	 * be written only leaves a note (we_launch_stats.jit_cache_note).
	 * Removing the directory clears it. */
	const char *jit_cache;
	/* The compiled tier's streaming stores: a warp's global store in
	 * which every lane writes 32 or 64 bits, at consecutive addresses
	 * from the start of a 64-byte line, into an allocation of at least
	 * this many bytes bypasses the host's caches (non-temporal stores),
	 * so that a stream larger than the caches is not read before it is
	 * written.  0 = the size of the host's largest cache (hwloc), or
	 * WE_STREAM_MIN_DEFAULT when hwloc shows none; 1 = every such store;
	 * UINT64_MAX = none.  The results are the same either way. */
	uint64_t stream_min;
} we_launch_config;

#define WE_STREAM_MIN_DEFAULT (32u << 20) /* we_launch_config.stream_min */

#define WE_CHECK_RACES 1u
#define WE_CHECK_UNINIT 2u

#define WE_LOCKSTEP_DEFAULT 8u

/* Launch limits.  we_launch refuses a launch outside them (WE_ERR_LIMIT,
 * or WE_ERR_INVALID for the engine options), with a message naming the
 * limit; we_launch_check applies the same checks without running. */
#define WE_GRID_X_MAX 2147483647u      /* CTAs in x                      */
#define WE_GRID_YZ_MAX 65535u          /* CTAs in y and in z             */
#define WE_BLOCK_XY_MAX 1024u          /* threads of a CTA in x and in y */
#define WE_BLOCK_Z_MAX 64u             /* threads of a CTA in z          */
#define WE_BLOCK_THREADS_MAX 1024u     /* threads of a CTA               */
#define WE_SHARED_MAX (227u * 1024u)   /* shared bytes, static + dynamic */
#define WE_LOCAL_MAX (512u * 1024u)    /* local bytes per thread         */
#define WE_LOCKSTEP_MAX 32u            /* we_launch_config.lockstep      */
#define WE_BATCH_MAX 32u               /* we_launch_config.batch         */

typedef struct we_launch_stats {
	uint64_t ctas;
	uint64_t warp_insns;
	uint64_t thread_insns;
	uint64_t barriers;           /* barrier completions */
	uint64_t warnings;           /* --check hazards found */
	double seconds;
	/* the compiled tier (we_launch_config.jit): why it was used or not
	 * (a static string: "compiled", "off", "not built", "below the
	 * auto threshold", "interpreter needed", "no block", "failed"), the
	 * functions compiled, the kernel's instructions in them and the
	 * seconds spent compiling in this launch (part of `seconds`; 0 when
	 * the module's code of the kernel was compiled by an earlier launch,
	 * or loaded from the disk cache) */
	const char *jit;
	uint32_t jit_blocks;
	uint32_t jit_insns;
	double jit_seconds;
	/* the disk cache (we_launch_config.jit_cache): a static string,
	 * "unused" (the launch runs no compiled code: jit off, not built,
	 * interpreter needed), "off", "miss" (no entry loaded, nothing
	 * compiled), "loaded" (the code came from the cache), "stored"
	 * (compiled, and written to it) or "not stored" (compiled, but the
	 * entry could not be written: jit_cache_note says why); for code an
	 * earlier launch of the module compiled or loaded, where it came
	 * from.  The seconds spent loading the entry in this launch (part
	 * of `seconds`), the entry's file name in the cache's directory
	 * (without ".wjit"; "" when none), and why an entry was ignored or
	 * not written ("" when nothing was) */
	const char *jit_cache;
	double jit_load_seconds;
	char jit_cache_key[40];
	char jit_cache_note[256];
	/* the compiled warp function's entries (0: none): the code that runs
	 * a warp alone (divergent, or --lockstep groups broken up), the
	 * branch unit's BRA, BSSY and BSYNC included */
	uint32_t jit_warp_entries;
	/* the CTAs that ran straight: a kernel of compiled blocks joined by
	 * EXIT, uniform BRA, CTA-wide BAR, BSSY and BSYNC, run for a batch of
	 * CTAs one call per block with nothing else per warp, and after an
	 * EXIT of some threads followed only by blocks and EXITs, each warp
	 * alone to its end (0: none) */
	uint64_t jit_straight_ctas;
} we_launch_stats;

/* After a launch that failed with WE_ERR_EXCEPTION, WE_ERR_DEADLOCK or
 * WE_ERR_TIMEOUT: the report as one JSON object ("" otherwise).  The text
 * form is we_last_error(). */
const char *we_last_report_json(const we_device *dev);
/* The --profile of the last launch (we_launch_config.profile; "" when
 * it had none): the kernel's disassembly annotated with the counts, and
 * the same as one JSON object, "warpemu.profile/1" (doc/json.md). */
const char *we_last_profile(const we_device *dev);
const char *we_last_profile_json(const we_device *dev);
/* The --check hazards of the last launch, one per line ("" if none). */
const char *we_last_warnings(const we_device *dev);

/* params: the parameter block laid out as we_kernel_info describes. */
we_status we_launch(we_device *dev, const we_module *m, const char *kernel,
		    const we_launch_config *cfg, const void *params,
		    size_t params_size, we_launch_stats *stats);
/* The checks of we_launch (kernel, limits, options) without running it:
 * WE_OK, or the status and message (we_last_error) we_launch would give. */
we_status we_launch_check(we_device *dev, const we_module *m, const char *kernel,
			  const we_launch_config *cfg, size_t params_size);

/* ---- parts of a grid ------------------------------------------------ */
/* What a distribution layer (warpemu_mpi.h: one launch over the ranks of
 * an MPI communicator) builds on; nothing here knows of MPI.  A part is
 * the CTAs [first, first + count) of cfg->grid by linear id
 * (x + grid.x * (y + grid.y * z)), run with their ids unchanged; its
 * report, when it fails, is that of its lowest failing CTA, whose linear
 * id *report_cta gives. */
typedef struct we_grid_part {
	uint64_t first, count;   /* count 0: nothing runs, WE_OK          */
	bool track_atomics;      /* keep the launch's we_atomic_map        */
} we_grid_part;

we_status we_launch_part(we_device *dev, const we_module *m, const char *kernel,
			 const we_launch_config *cfg, const void *params, size_t params_size,
			 const we_grid_part *part, we_launch_stats *stats, uint64_t *report_cta);

/* Stop the CTAs of linear id cta and above of the running launch, and of
 * any later one until cleared with UINT64_MAX: a CTA not yet started
 * stops at its first instruction, a running one at its next turn, with
 * the status WE_ERR_INTERRUPTED ("cancelled") as its report.  For a
 * failure of a lower CTA in another process.  Thread-safe and
 * async-signal-safe (an atomic store). */
void we_device_cancel_from(we_device *dev, uint64_t cta);

/* Global atomics of the last launch with track_atomics, per 32-bit word
 * (a 64-bit atomic marks both of its words): 0 none, WE_ATOMIC_CODE(op,
 * type) when every atomic on the word had that operation and type
 * (with WE_ATOMIC_FETCHED when one returned the old value), WE_ATOMIC_MIXED
 * when they differed. */
typedef enum we_atomic_op {
	WE_ATOM_ADD, WE_ATOM_MIN, WE_ATOM_MAX, WE_ATOM_AND, WE_ATOM_OR, WE_ATOM_XOR,
	WE_ATOM_EXCH, WE_ATOM_CAS,
	WE_ATOM_INC, WE_ATOM_DEC       /* the wrapping .INC/.DEC (U32) */
} we_atomic_op;
typedef enum we_atomic_type {
	WE_ATOM_U32, WE_ATOM_S32, WE_ATOM_U64, WE_ATOM_S64,
	WE_ATOM_F32, WE_ATOM_F64       /* .ADD.F32, .ADD.F64 */
} we_atomic_type;
#define WE_ATOMIC_CODE(op, type) ((uint8_t)(1u + (unsigned)(op) + 16u * (unsigned)(type)))
#define WE_ATOMIC_MIXED 0xffu
/* Or'ed into a word's code when an atomic on it returned the old value
 * to a register (ATOM, not RED): that value depends on which CTAs updated
 * the word before, so the word cannot be merged from grid parts. */
#define WE_ATOMIC_FETCHED 0x80u
/* The map of the allocation holding [p, p + bytes) (p and bytes
 * multiples of 4): *map points at the code of p's word, or is NULL when
 * the last launch tracked none (valid until the next launch or we_free). */
we_status we_atomic_map(const we_device *dev, we_devptr p, size_t bytes, const uint8_t **map);

/* Make text (we_last_error) and json (we_last_report_json, may be NULL)
 * the report of dev's last launch: the report of a CTA run elsewhere. */
we_status we_device_set_report(we_device *dev, const char *text, const char *json);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
