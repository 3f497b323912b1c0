/* args.h — parsing of warpemu(1) argument values.
 *
 * Pure functions: no I/O, no allocation, no global state.  Everything
 * that can fail returns false and leaves a one-line message (without a
 * "warpemu:" prefix or trailing newline) in a cli_err.
 *
 * Device data is little-endian: cli_store_elem / cli_load_elem convert
 * between element values and bytes independently of the host's order.
 */
#ifndef WE_CLI_ARGS_H
#define WE_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "warpemu/warpemu.h"

/* Exit statuses of warpemu(1); keep in sync with doc/warpemu.1. */
typedef enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_CHECK = 1,      /* --expect found a mismatch               */
	CLI_EXIT_USAGE = 2,      /* bad command line                        */
	CLI_EXIT_LOAD = 3,       /* assembly or module load error           */
	CLI_EXIT_EXCEPTION = 4,  /* runtime exception in the kernel         */
	CLI_EXIT_DEADLOCK = 5,   /* a CTA deadlocked                        */
	CLI_EXIT_IO = 6,         /* host file I/O                           */
	CLI_EXIT_LIMIT = 7,      /* watchdog, launch limit, out of memory   */
	CLI_EXIT_INTERNAL = 70,  /* bug in warpemu                          */
	CLI_EXIT_INTERRUPTED = 130 /* SIGINT (SIGTERM: 143; main sets 128 + the signal) */
} cli_exit;

cli_exit cli_exit_for_status(we_status s);

/* Binary modules start with these 8 bytes. */
#define CLI_MODULE_MAGIC "WEMODULE"
#define CLI_MODULE_MAGIC_LEN 8u

typedef struct cli_err { char msg[320]; } cli_err;

/* Set e's message from the format; false. */
bool cli_fail(cli_err *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* ---- numbers ------------------------------------------------------- */
/* Strict: no whitespace, no trailing characters, overflow is an error.
 * Unsigned: decimal or 0x hex.  Signed: optional '-' then the same. */
bool cli_parse_u64(const char *s, size_t n, uint64_t *out, cli_err *e);
bool cli_parse_s64(const char *s, size_t n, int64_t *out, cli_err *e);
/* Byte count: unsigned number with an optional K, M or G suffix
 * (binary multiples: 1K = 1024).  zeros:BYTES takes the same syntax. */
bool cli_parse_size(const char *s, uint64_t *out, cli_err *e);
/* "X[,Y,Z]": missing components are 1; each must fit in 32 bits.  The
 * launch limits are the library's (we_launch_check). */
bool cli_parse_dim3(const char *s, we_dim3 *out, cli_err *e);

/* ---- engines and placements ------------------------------------------ */
/* "scheduler" or "warp-threads" (WE_ENGINE_DEFAULT is the option left
 * out).  "compact", "scatter" or "none". */
bool cli_parse_engine(const char *s, we_engine *out, cli_err *e);
/* "auto", "on" or "off" (--jit) */
bool cli_parse_jit(const char *s, we_jit *out, cli_err *e);
bool cli_parse_placement(const char *s, we_placement *out, cli_err *e);

/* ---- element types --------------------------------------------------- */
typedef enum cli_elem_type {
	CLI_U8, CLI_S8, CLI_U16, CLI_S16, CLI_U32, CLI_S32,
	CLI_U64, CLI_S64, CLI_F32, CLI_F64
} cli_elem_type;

/* An element value: raw bits (zero-extended) for integer types, the
 * value as a double for f32 and f64. */
typedef union cli_value { uint64_t u; double f; } cli_value;

bool cli_parse_elem_type(const char *s, size_t n, cli_elem_type *out,
			 cli_err *e);
const char *cli_elem_type_name(cli_elem_type t);
size_t cli_elem_size(cli_elem_type t);
bool cli_elem_is_float(cli_elem_type t);
/* Integers: unsigned types take 0..max; signed types take min..max in
 * decimal, or any bit pattern of their width in hex (0xff is -1 as s8).
 * Floats: C floating syntax (also inf, nan, hex floats); f32 values must
 * be within float range. */
bool cli_parse_elem_value(cli_elem_type t, const char *s, size_t n,
			  cli_value *out, cli_err *e);
void cli_store_elem(cli_elem_type t, uint8_t *p, cli_value v);
cli_value cli_load_elem(cli_elem_type t, const uint8_t *p);
/* Decimal text of v (floats with round-trip precision). */
void cli_format_elem(cli_elem_type t, cli_value v, char *buf, size_t len);

/* ---- scalar kernel parameters ----------------------------------------- */
const char *cli_param_type_name(we_param_type t);
/* Bytes a parameter of type t occupies (4 or 8). */
uint32_t cli_param_type_size(we_param_type t);
/* Parse the value of a scalar parameter (not WE_PARAM_PTR) into the
 * little-endian bytes out[0..cli_param_type_size(t)). */
bool cli_parse_scalar(we_param_type t, const char *s, uint8_t out[8],
		      cli_err *e);
/* The value of an aggregate parameter (WE_PARAM_BYTES) of size bytes:
 * fields TYPE:VALUE (a buffer element type), ptr:NAME (a device address,
 * 8 bytes) or pad:N (N zero bytes), comma-separated, each aligned to its
 * size as a C compiler lays out a struct; the bytes after the last field
 * are zero.  ptr(ctx, NAME, n, offset, e) resolves and records each
 * ptr:NAME field (false: an error in e). */
typedef bool (*cli_ptr_field)(void *ctx, const char *name, size_t n, uint32_t offset, cli_err *e);
bool cli_parse_aggregate(const char *s, uint8_t *out, uint32_t size, cli_ptr_field ptr, void *ctx,
			 cli_err *e);
/* Heuristics for "wrong kind" messages. */
bool cli_looks_like_spec(const char *s);
bool cli_looks_like_number(const char *s);

/* ---- buffer specifications ----------------------------------------- */
typedef enum cli_spec_kind {
	CLI_SPEC_FILE, CLI_SPEC_ZEROS, CLI_SPEC_FILL, CLI_SPEC_IOTA,
	CLI_SPEC_RANDOM
} cli_spec_kind;

typedef struct cli_spec {
	cli_spec_kind kind;
	cli_elem_type type;   /* CLI_U8 for FILE and ZEROS             */
	uint64_t count;       /* elements (FILE: unknown, 0)           */
	uint64_t bytes;       /* count * element size (FILE: 0)        */
	cli_value value;      /* FILL: value; IOTA: start              */
	cli_value step;       /* IOTA: step (two's complement for ints) */
	uint64_t seed;        /* RANDOM                                */
	const char *path;     /* FILE: points into the parsed string   */
	double tol;           /* --expect: ~TOL, 0 = exact              */
} cli_spec;

/* Parse s.  With allow_tol, a trailing "~TOL" (f32/f64 only) sets tol;
 * a FILE spec never has one (the whole rest is the path). */
bool cli_parse_spec(const char *s, bool allow_tol, cli_spec *out,
		    cli_err *e);
/* Fill buf[0..sp->bytes) from a non-FILE spec. */
void cli_spec_generate(const cli_spec *sp, uint8_t *buf);
/* Elements first..first+n-1 of it into buf: the same bytes as those of
 * cli_spec_generate at that offset, so that a buffer can be made chunk
 * by chunk. */
void cli_spec_generate_range(const cli_spec *sp, uint64_t first, uint64_t n, uint8_t *buf);

/* The PRNG behind random: specs (splitmix64). */
uint64_t cli_splitmix64(uint64_t *state);

/* ---- NAME=VALUE and NAME[:TYPE[:COUNT]] ------------------------------- */
typedef struct cli_assign {
	const char *name;     /* not NUL-terminated: name[0..namelen) */
	size_t namelen;
	const char *value;    /* NUL-terminated rest                  */
} cli_assign;

bool cli_parse_assign(const char *s, cli_assign *out, cli_err *e);

typedef struct cli_print {
	const char *name;     /* not NUL-terminated */
	size_t namelen;
	cli_elem_type type;   /* default CLI_U32    */
	bool has_count;
	uint64_t count;
} cli_print;

bool cli_parse_print(const char *s, cli_print *out, cli_err *e);
bool cli_name_eq(const char *name, size_t namelen, const char *z);

/* ---- result checks ----------------------------------------------------- */
typedef struct cli_mismatch {
	uint64_t index;
	cli_value got, exp;
} cli_mismatch;

/* Compare count elements of type t.  Integers compare exactly; floats
 * are equal when ==, both NaN, or |got - exp| <= tol.  Returns the
 * number of mismatches and stores the first nfirst of them. */
uint64_t cli_compare(cli_elem_type t, const uint8_t *got,
		     const uint8_t *exp, uint64_t count, double tol,
		     cli_mismatch *first, size_t nfirst);

bool cli_is_binary_module(const void *data, size_t len);

/* ---- schedules, watchdogs and reports ---------------------------------- */
/* --schedule: "seed:N" (*jitter false) or "jitter:N" (*jitter true), N a
 * 64-bit decimal or 0x hex number. */
bool cli_parse_schedule(const char *s, uint64_t *seed, bool *jitter, cli_err *e);
/* --timeout: seconds as a finite decimal number >= 0, e.g. 0.25, 10 or
 * 1e-3 (no sign, hex, inf or nan); 0 means no limit. */
bool cli_parse_seconds(const char *s, double *out, cli_err *e);

typedef enum cli_report { CLI_REPORT_TEXT, CLI_REPORT_JSON } cli_report;

/* --report: "text" or "json". */
bool cli_parse_report(const char *s, cli_report *out, cli_err *e);

/* ---- stress ------------------------------------------------------------ */
#define CLI_JOBS_MAX 1024u

/* --runs: a number >= 1.  --jobs: 0..CLI_JOBS_MAX, 0 = one per online
 * CPU.  The seeds first..first+runs-1 must all fit in 64 bits. */
bool cli_parse_runs(const char *s, uint64_t *out, cli_err *e);
bool cli_parse_jobs(const char *s, unsigned *out, cli_err *e);
bool cli_check_seeds(uint64_t first, uint64_t runs, cli_err *e);

/* The verdict of one stress run. */
typedef enum cli_class {
	CLI_CLASS_OK, CLI_CLASS_DIFFERS, CLI_CLASS_DEADLOCK,
	CLI_CLASS_EXCEPTION, CLI_CLASS_TIMEOUT
} cli_class;
#define CLI_NCLASS 5

const char *cli_class_name(cli_class c);
/* The class of a launch that returned s: WE_OK gives CLI_CLASS_OK (to be
 * compared further), the exception, deadlock and timeout statuses their
 * class; any other status is not a verdict on the kernel (false). */
bool cli_class_for_status(we_status s, cli_class *out);
/* The exit status of a stress run from the counts per class: that of
 * the most severe class present, in the order exception (4), deadlock
 * (5), timeout (7), differs (1); 0 when every run is ok. */
cli_exit cli_stress_exit(const uint64_t count[CLI_NCLASS]);

/* ---- shell quoting ------------------------------------------------------ */
/* Quote s as one word for a POSIX shell: unchanged when it is non-empty
 * and made only of letters, digits and _ @ % + = : , . / -, otherwise in
 * single quotes (a ' becomes '\'').  Writes at most len bytes with a NUL
 * (when len > 0) and returns the length of the full quoted text, like
 * snprintf. */
size_t cli_shell_quote(const char *s, char *buf, size_t len);

#endif
