/* options.h — every option of warpemu(1), in one table.
 *
 * CLI_OPTIONS lists each option once: its id, long name, short letter,
 * value name (NULL for a flag), kind, the commands that take it, whether
 * stress's replay command passes it on, why run or stress refuses it
 * when only the other one takes it, and its help text ('\n' breaks a
 * line).  Everything else comes from the table: the scanning of every
 * command's arguments, the options part of each command's help and the
 * options of stress's replay commands; tests/test_cli_opts.c checks the
 * man page (doc/warpemu.1) and README.md against it.  A new option is
 * one line here and the code that uses its value.
 *
 * A value name that starts with a capital is a metavariable, shown as
 * "--grid X[,Y,Z]"; one in lower case is literal text, shown as
 * "--stats=json".  Either way "--opt VALUE" and "--opt=VALUE" are the same.
 */
#ifndef WE_CLI_OPTIONS_H
#define WE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The commands, as bits of an option's set of commands. */
enum {
	CLI_RUN = 1u << 0,
	CLI_STRESS = 1u << 1,
	CLI_ASM = 1u << 2,
	CLI_DISASM = 1u << 3,
	CLI_INFO = 1u << 4,
	CLI_ALL = (1u << 5) - 1
};

typedef enum cli_opt_kind {
	CLI_FLAG,       /* no value; giving it twice is harmless      */
	CLI_ONCE,       /* one value; giving it twice is an error    */
	CLI_LIST,       /* repeatable; every value kept, in order     */
	CLI_OPTVAL      /* a value only after '=' ("--check=races"), or
			   none (value ""); a lower-case value name lists
			   the words allowed, a comma-separated set of them
			   may be given; given again, the last one counts */
} cli_opt_kind;

#define CLI_RS (CLI_RUN | CLI_STRESS)
/* Why run refuses an option of stress, and stress one of run. */
#define CLI_OF_STRESS "is an option of stress"
#define CLI_NO_BUFFERS "cannot be used: replay a run to see its buffers"

/* X(ID, name, short, VALUE, kind, commands, replayed, refusal, help) */
#define CLI_OPTIONS(X) \
X(KERNEL, "kernel", 0, "NAME", CLI_ONCE, CLI_RS, true, NULL, \
  "kernel to run (needed if FILE has several)") \
X(GRID, "grid", 0, "X[,Y,Z]", CLI_ONCE, CLI_RS, true, NULL, \
  "CTAs in x, y and z (missing ones are 1)") \
X(BLOCK, "block", 0, "X[,Y,Z]", CLI_ONCE, CLI_RS | CLI_INFO, true, NULL, \
  "threads per CTA in x, y and z (missing ones are 1)") \
X(ARG, "arg", 0, "NAME=VALUE", CLI_LIST, CLI_RS, true, NULL, \
  "set parameter NAME; every parameter exactly once") \
X(BUFFER, "buffer", 0, "NAME=SPEC", CLI_LIST, CLI_RS, true, NULL, \
  "a device buffer for the field ptr:NAME of an\n" \
  "aggregate parameter's value (--out, --print and\n" \
  "--expect name it like a pointer parameter)") \
X(OUT, "out", 0, "NAME=FILE", CLI_LIST, CLI_RUN, false, CLI_NO_BUFFERS, \
  "after the run write buffer NAME to FILE ('-' = stdout)") \
X(PRINT, "print", 0, "NAME[:TYPE[:COUNT]]", CLI_LIST, CLI_RUN, false, CLI_NO_BUFFERS, \
  "print buffer NAME (default u32, whole buffer)") \
X(EXPECT, "expect", 0, "NAME=SPEC[~TOL]", CLI_LIST, CLI_RS, true, NULL, \
  "compare buffer NAME with SPEC; ~TOL for f32/f64") \
X(SHARED, "shared", 0, "BYTES", CLI_ONCE, CLI_RS, true, NULL, \
  "dynamic shared memory per CTA") \
X(MAX_INSNS, "max-instructions", 0, "N", CLI_ONCE, CLI_RS, true, NULL, \
  "watchdog: instructions per warp (0 = unlimited)") \
X(TIMEOUT, "timeout", 0, "SECONDS", CLI_ONCE, CLI_RS, true, NULL, \
  "watchdog: wall-clock limit of the launch (0 = none)") \
X(SCHEDULE, "schedule", 0, "seed:N|jitter:N", CLI_ONCE, CLI_RUN, false, \
  "cannot be used: stress sets the seed of every run", \
  "seed:N: reproducible warp interleaving from seed N;\n" \
  "jitter:N: warp-threads only, real threads with\n" \
  "random delays from seed N (not reproducible; see\n" \
  "stress --jitter)") \
X(CHECK, "check", 0, "barriers,races,uninit", CLI_OPTVAL, CLI_RS, true, NULL, \
  "report hazards on stderr (no effect on the exit\n" \
  "status), then 'check: N hazards': barrier misuse,\n" \
  "data races, reads of memory never written; all of\n" \
  "them, or the kinds named (races and uninit run one\n" \
  "warp at a time, observing every access: slower)") \
X(REPORT, "report", 0, "text|json", CLI_ONCE, CLI_RUN, false, \
  "cannot be used: replay a run for its report", \
  "report of an exception, deadlock or timeout: text\n" \
  "on stderr (default) or one JSON object on stdout") \
X(PROFILE, "profile", 0, "FILE", CLI_OPTVAL, CLI_RUN, false, \
  "cannot be used: replay a run to profile it", \
  "count per instruction its executions, lanes,\n" \
  "divergence, reconvergence, barrier completions and\n" \
  "blocked time: the annotated disassembly on stderr,\n" \
  "or into FILE (JSON when it ends in .json; '-' =\n" \
  "stdout); runs one warp at a time") \
X(TRACE, "trace", 0, "FILE", CLI_ONCE, CLI_RUN, false, \
  "cannot be used: replay a run to trace it", \
  "write one line per executed warp-instruction to\n" \
  "FILE, atomically, also when the launch fails") \
X(THREADS, "threads", 0, "N", CLI_ONCE, CLI_RUN, false, \
  "cannot be used: every stress run uses one host thread (see --jobs)", \
  "host worker threads (0 = all cores)") \
X(ENGINE, "engine", 0, "E", CLI_ONCE, CLI_RS | CLI_INFO, true, NULL, \
  "scheduler (a worker per PU runs many warps) or\n" \
  "warp-threads (a host thread per warp)") \
X(LOCKSTEP, "lockstep", 0, "N", CLI_ONCE, CLI_RS, false, NULL, \
  "scheduler: run up to N warps of a CTA at one PC\n" \
  "together, an instruction at a time (default 8,\n" \
  "1 = one warp at a time)") \
X(BATCH, "batch", 0, "N", CLI_ONCE, CLI_RS, false, NULL, \
  "scheduler: a worker runs N CTAs side by side, the\n" \
  "warps of those at one PC as one lockstep group\n" \
  "(default: as many as fill 32 warps, 1 = one CTA\n" \
  "at a time)") \
X(JIT, "jit", 0, "MODE", CLI_ONCE, CLI_RS, true, NULL, \
  "scheduler: compile the kernel to host code for\n" \
  "lockstep groups (runs of ALU and memory\n" \
  "instructions) and for warps alone (branches too):\n" \
  "auto (default: when the first CTAs predict it\n" \
  "pays), on or off") \
X(JIT_CACHE, "jit-cache", 0, "DIR", CLI_ONCE, CLI_RS, true, NULL, \
  "the disk cache of compiled kernels (--jit), or\n" \
  "off (default: $WARPEMU_JIT_CACHE, else\n" \
  "$XDG_CACHE_HOME/warpemu or ~/.cache/warpemu)") \
X(STREAM_MIN, "stream-min", 0, "BYTES", CLI_ONCE, CLI_RS, true, NULL, \
  "compiled code: a warp's store of whole cache lines\n" \
  "into an allocation of at least BYTES bypasses the\n" \
  "host's caches (default: the largest cache's size;\n" \
  "off = never)") \
X(PLACEMENT, "placement", 0, "P", CLI_ONCE, CLI_RUN | CLI_INFO, false, \
  "cannot be used: stress jobs run unbound", \
  "binding of host threads to PUs: compact (default),\n" \
  "scatter or none") \
X(MAX_MEMORY, "max-memory", 0, "BYTES", CLI_ONCE, CLI_RS, true, NULL, \
  "device global memory limit (0 = default)") \
X(RUNS, "runs", 0, "N", CLI_ONCE, CLI_STRESS, false, CLI_OF_STRESS, \
  "number of runs (required, >= 1)") \
X(SEED, "seed", 0, "S", CLI_ONCE, CLI_STRESS, false, CLI_OF_STRESS, \
  "first seed (default 1)") \
X(JOBS, "jobs", 0, "J", CLI_ONCE, CLI_STRESS, false, CLI_OF_STRESS, \
  "runs at a time, one host thread each (default and\n" \
  "0: one per online CPU)") \
X(JITTER, "jitter", 0, NULL, CLI_FLAG, CLI_STRESS, false, \
  CLI_OF_STRESS " (run takes --schedule=jitter:N)", \
  "with --engine warp-threads: run each warp on its\n" \
  "own thread unserialised, with random delays from\n" \
  "the run's seed (real timing: not replayable\n" \
  "exactly; a failing run is retried under its\n" \
  "seeded schedule for an exact replay)") \
X(QUIET, "quiet", 0, NULL, CLI_FLAG, CLI_RS, false, NULL, \
  "run: no summary on stderr; stress: no progress\n" \
  "and no table") \
X(STATS, "stats", 0, "json", CLI_ONCE, CLI_RS, false, NULL, \
  "print the results as one JSON document on stdout\n" \
  "(doc/json.md)") \
X(OUTPUT, "output", 'o', "OUT", CLI_ONCE, CLI_ASM, false, NULL, \
  "output file (required; '-' = stdout)") \
X(HELP, "help", 'h', NULL, CLI_FLAG, CLI_ALL, false, NULL, \
  "print this help")

typedef enum cli_opt_id {
#define CLI_OPT_ID(id, ...) OPT_##id,
	CLI_OPTIONS(CLI_OPT_ID)
#undef CLI_OPT_ID
	CLI_NOPT
} cli_opt_id;

typedef struct cli_opt {
	const char *name;      /* without the leading "--"              */
	char shrt;             /* 'o' for -o, or 0                      */
	const char *value;     /* value name, NULL for a flag           */
	cli_opt_kind kind;
	unsigned cmds;         /* CLI_RUN | ...: the commands taking it  */
	bool replayed;         /* stress's replay command passes it on  */
	const char *refusal;   /* run/stress: why the other refuses it  */
	const char *help;
} cli_opt;

extern const cli_opt cli_opts_table[CLI_NOPT];

typedef struct strlist { const char **v; size_t n; } strlist;

/* A command's arguments, scanned. */
typedef struct cli_opts {
	const char *file;               /* the positional argument, or NULL */
	const char *value[CLI_NOPT];    /* ONCE: the value; FLAG: "" when given */
	strlist list[CLI_NOPT];         /* LIST: every value, in order */
} cli_opts;

/* Scan the arguments after the command name for command cmd (one bit;
 * name for messages): 0, or the exit status of a usage error, whose
 * message is printed.  Run and stress scan each other's options too, to
 * refuse them with the reason of the table.  Stops at --help. */
int opts_scan(cli_opts *o, unsigned cmd, const char *name, int argc, char **argv);
void opts_free(cli_opts *o);

static inline bool opts_given(const cli_opts *o, cli_opt_id id)
{
	return o->value[id] != NULL || o->list[id].n > 0;
}

/* The options part of command cmd's help: stress lists its own options,
 * then the launch options it shares with run. */
void opts_help(FILE *f, unsigned cmd);

/* The replayed options of o as words ("--grid", "4", "--check", ...), in
 * table order. */
void opts_replay(const cli_opts *o, void (*word)(void *ctx, const char *w), void *ctx);

#endif
