/* run.h — a run of warpemu(1), or the prototype of stress's runs: its
 * options, kernel, parameters and buffers.  After set-up, stress jobs
 * only read it.
 */
#ifndef WE_CLI_RUN_H
#define WE_CLI_RUN_H

#include "cli/cli.h"
#include "cli/dist.h"
#include "cli/io.h"
#include "cli/json.h"
#include "cli/options.h"

#define MISMATCHES_SHOWN 8
#define VALUE_TEXT 48

/* The value of option ID given to c, or NULL. */
#define OPT(c, ID) ((c)->o.value[OPT_##ID])
#define OPTS(c, ID) (&(c)->o.list[OPT_##ID])

/* A buffer's contents: its spec, generated as the bytes are needed, or
 * for @FILE the file, read as it goes (run, a regular file) or held on
 * the host (a pipe, whose size is known only at its end; stress, whose
 * every run needs the bytes). */
typedef struct contents {
	cli_spec spec;
	uint64_t bytes;
	in_file file;        /* FILE read as it goes, when open */
	bool open;
	held held;           /* FILE held, when is_held */
	bool is_held;
} contents;

/* The bytes of contents in order, chunk by chunk.  own: the contents
 * themselves when this feed may read their file or release their held
 * bytes as they go (run); NULL when others read them too (stress). */
typedef struct feed {
	const contents *c;
	contents *own;
	uint64_t pos;
	const cli_intr *intr;
} feed;

/* The next n bytes (a whole number of elements unless the last): 0, or
 * an exit status with the message in e (none for an interruption). */
int feed_next(feed *f, uint8_t *buf, size_t n, cli_err *e);

/* Parsed --out, --print and --expect; slot = parameter index. */
typedef struct out_req { cli_assign a; unsigned slot; } out_req;
typedef struct print_req { cli_print p; unsigned slot; } print_req;
typedef struct expect_req {
	cli_assign a;
	contents c;          /* the expected bytes */
	unsigned slot;
	/* run: the outcome */
	bool checked;
	uint64_t count, bad;
	cli_mismatch m[MISMATCHES_SHOWN];
} expect_req;

/* One per kernel parameter, then one per --buffer; the buffer fields are
 * used for buffers only (pointer parameters and --buffer). */
typedef struct param_slot {
	const char *name;    /* the parameter's, or --buffer's NAME */
	const char *value;   /* from --arg or --buffer, NULL until bound */
	bool buffer;         /* a device buffer */
	contents c;          /* the initial contents */
	we_devptr ptr;       /* run: the device buffer */
	bool allocated;
	uint32_t *at;        /* where its address goes in the parameter block */
	unsigned nat;
} param_slot;

typedef struct run_ctx {
	const char *cmd;     /* "run" or "stress", for messages */
	bool stress;
	cli_opts o;
	cli_intr *intr;      /* SIGINT/SIGTERM: interrupts the launches */
	/* the options' values */
	we_dim3 grid, block;
	uint64_t shared, max_insns, threads, max_memory, lockstep, batch;
	uint64_t stream_min;  /* --stream-min (0: the default)  */
	we_engine engine;
	we_jit jit;
	we_placement placement;
	bool json, seeded, jitter;
	uint64_t seed;       /* --schedule=seed:N or jitter:N */
	double timeout;
	cli_report report;
	uint64_t runs, first_seed;   /* stress */
	unsigned jobs;
	out_req *outs;
	print_req *prints;
	expect_req *expects;
	/* the module, kernel, parameters and buffers */
	uint8_t *image;      /* stress: the bytes of FILE */
	size_t image_len;
	we_device *dev;
	we_module *mod;
	const we_kernel_info *k;
	param_slot *slots;   /* nslots: the parameters', then the --buffer ones */
	unsigned nslots;
	uint8_t *params;
	we_launch_stats stats;
	we_status launch_status;
	bool outs_at_stop;           /* --out written after a stopped launch */
	/* under mpirun with several ranks (dist.h) */
	const cli_dist *dist;
	cli_rank *ranks;             /* rank 0: nranks entries          */
	int nranks;
	double merge_seconds;
} run_ctx;

/* ---- run.c ---------------------------------------------------------------- */
/* run and stress: scan and check the options and print the help when it
 * is asked for (*help), else make the device, module, kernel, parameters
 * and buffers (stress: the prototype of its runs).  0 or an exit status
 * (printed); run_free(c) in either case. */
int run_prepare(run_ctx *c, bool stress, cli_intr *intr, const cli_dist *dist, int argc, char **argv,
		bool *help);
/* Free c: rc, or the status of an error in doing so. */
int run_free(run_ctx *c, int rc);
/* The launch configuration of the options (stress's: one thread,
 * unbound, a seeded schedule; stress_one sets the seed). */
void launch_config(const run_ctx *c, we_launch_config *cfg);

/* ---- dist.c: the launch over the ranks of mpirun (we_mpi_launch) ---------- */
we_status run_dist_launch(run_ctx *c, const we_launch_config *cfg);

/* ---- buffers.c -------------------------------------------------------------- */
int run_bind_args(run_ctx *c);
int run_bind_requests(run_ctx *c);
int run_make_buffers(run_ctx *c);
int run_prepare_checks(run_ctx *c);
/* Allocate a device buffer for s on dev and fill it chunk by chunk:
 * 0, or an exit status with the message in e.  *allocated tells whether
 * *ptr must be freed, also on failure.  own: s itself, when its file may
 * be read or its held bytes released as they go (run). */
int slot_upload(we_device *dev, const param_slot *s, param_slot *own, const cli_intr *intr,
		we_devptr *ptr, bool *allocated, cli_err *e);
void contents_free(contents *ct);
/* Put buffer s's address ptr into the parameter block params. */
void store_ptr(uint8_t *params, const param_slot *s, we_devptr ptr);

/* ---- results.c ------------------------------------------------------------- */
/* After the launch, whose outcome is rc. */
int run_results(run_ctx *c, int rc);
/* A JSON document on stdout opened with its schema, kernel, grid and
 * block (doc/json.md). */
void json_head(jw *w, const char *schema, const run_ctx *c);

#endif
