/* run.h — a run of warpemu(1), or the prototype of stress's runs: its
 * options, kernel, parameters and buffers.  After set-up, stress jobs
 * only read it.
 */
#ifndef WE_CLI_RUN_H
#define WE_CLI_RUN_H

#include "cli/cli.h"
#include "cli/io.h"
#include "cli/options.h"

#define MISMATCHES_SHOWN 8
#define VALUE_TEXT 48

/* The value of option ID given to c, or NULL. */
#define OPT(c, ID) ((c)->o.value[OPT_##ID])
#define OPTS(c, ID) (&(c)->o.list[OPT_##ID])

/* Parsed --out, --print and --expect; slot = parameter index. */
typedef struct out_req { cli_assign a; unsigned slot; } out_req;
typedef struct print_req { cli_print p; unsigned slot; } print_req;
typedef struct expect_req {
	cli_assign a;
	cli_spec spec;
	unsigned slot;
	uint8_t *data;       /* expected bytes */
	uint64_t bytes;
} expect_req;

/* One per kernel parameter; buffer fields are used for pointers only. */
typedef struct param_slot {
	const char *value;   /* from --arg, NULL until bound */
	cli_spec spec;
	uint64_t bytes;
	uint8_t *init;       /* initial contents; NULL: zeros (or uploaded) */
	we_devptr ptr;
	bool allocated;
	uint8_t *result;     /* buffer contents after the run */
} param_slot;

typedef struct run_ctx {
	const char *cmd;     /* "run" or "stress", for messages */
	bool stress;
	cli_opts o;
	cli_intr *intr;      /* SIGINT/SIGTERM: interrupts the launches */
	/* the options' values */
	we_dim3 grid, block;
	uint64_t shared, max_insns, threads, max_memory, lockstep, batch;
	we_engine engine;
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
	param_slot *slots;
	uint8_t *params;
	we_launch_stats stats;
} run_ctx;

/* ---- run.c ---------------------------------------------------------------- */
/* The launch configuration of the options (stress overrides a few). */
void launch_config(const run_ctx *c, we_launch_config *cfg);
bool is_verdict(we_status st);
/* The first line of text (without its newline). */
int first_line(const char *text);
/* Load a module from bytes (text or binary). */
we_status load_module_data(we_device *dev, const uint8_t *data, size_t len, const char *path,
			   we_module **mod);
void *calloc_n(size_t n, size_t size);

/* ---- buffers.c -------------------------------------------------------------- */
int run_bind_args(run_ctx *c);
int run_bind_requests(run_ctx *c);
int run_make_buffers(run_ctx *c);
int run_prepare_checks(run_ctx *c);
/* Allocate a device buffer for s and fill it; *allocated tells whether
 * *ptr must be freed, also on failure. */
we_status slot_upload(we_device *dev, const param_slot *s, we_devptr *ptr, bool *allocated);
void store_ptr(uint8_t *params, const we_param_info *p, we_devptr ptr);

/* ---- results.c ------------------------------------------------------------- */
int run_results(run_ctx *c);
void json_string(const char *s);
void json_number(const char *key, double v, bool valid);

/* ---- stress.c -------------------------------------------------------------- */
int stress_main(const run_ctx *c);

#endif
