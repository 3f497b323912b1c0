/* run.c — warpemu run (and the parts of stress it shares): the options'
 * values, the device, module and kernel, the library's launch check, and
 * the launch.
 */
#include "cli/run.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * Options
 * ====================================================================== */

static int opt_err(const run_ctx *c, const char *opt, const cli_err *e)
{
	return usage_errf(c->cmd, "%s: %s", opt, e->msg);
}

/* Usage error about one of the repeatable NAME=... options. */
static int req_err(const run_ctx *c, const char *opt, const char *text, const cli_err *e)
{
	return usage_errf(c->cmd, "%s %.120s: %s", opt, text, e->msg);
}

static bool parse_u64_opt(const char *s, uint64_t max, uint64_t *out, cli_err *e)
{
	if (!cli_parse_u64(s, strlen(s), out, e))
		return false;
	if (*out <= max)
		return true;
	snprintf(e->msg, sizeof e->msg, "%" PRIu64 " is too large (max %" PRIu64 ")", *out, max);
	return false;
}

/* The shapes' syntax; the library checks their limits (launch_check). */
static int run_check_dims(run_ctx *c)
{
	cli_err e;

	if (!OPT(c, GRID))
		return usage_err(c->cmd, "missing --grid X[,Y,Z]");
	if (!OPT(c, BLOCK))
		return usage_err(c->cmd, "missing --block X[,Y,Z]");
	if (!cli_parse_dim3(OPT(c, GRID), &c->grid, &e))
		return opt_err(c, "--grid", &e);
	if (!cli_parse_dim3(OPT(c, BLOCK), &c->block, &e))
		return opt_err(c, "--block", &e);
	return CLI_EXIT_OK;
}

/* --schedule, --timeout, --report and stress's --runs, --seed, --jobs. */
static int run_check_debug(run_ctx *c)
{
	cli_err e;

	if (OPT(c, SCHEDULE) && !cli_parse_schedule(OPT(c, SCHEDULE), &c->seed, &c->jitter, &e))
		return opt_err(c, "--schedule", &e);
	c->seeded = OPT(c, SCHEDULE) && !c->jitter;
	if (OPT(c, JITTER))
		c->jitter = true;
	if (c->jitter && c->engine != WE_ENGINE_WARP_THREADS)
		return usage_err(c->cmd, c->stress ? "--jitter needs --engine warp-threads"
					 : "--schedule=jitter:N needs --engine warp-threads");
	if (c->jitter && OPT(c, TRACE))
		return usage_err(c->cmd, "--schedule=jitter:N cannot be used with --trace (a trace "
				 "runs one warp at a time)");
	if (OPT(c, TIMEOUT) && !cli_parse_seconds(OPT(c, TIMEOUT), &c->timeout, &e))
		return opt_err(c, "--timeout", &e);
	c->report = CLI_REPORT_TEXT;
	if (OPT(c, REPORT) && !cli_parse_report(OPT(c, REPORT), &c->report, &e))
		return opt_err(c, "--report", &e);
	c->first_seed = 1;
	if (c->stress && !OPT(c, RUNS))
		return usage_err(c->cmd, "missing --runs N");
	if (OPT(c, RUNS) && !cli_parse_runs(OPT(c, RUNS), &c->runs, &e))
		return opt_err(c, "--runs", &e);
	if (OPT(c, SEED) && !cli_parse_u64(OPT(c, SEED), strlen(OPT(c, SEED)), &c->first_seed, &e))
		return opt_err(c, "--seed", &e);
	if (OPT(c, JOBS) && !cli_parse_jobs(OPT(c, JOBS), &c->jobs, &e))
		return opt_err(c, "--jobs", &e);
	if (!cli_check_seeds(c->first_seed, c->runs, &e))
		return opt_err(c, "--seed", &e);
	return CLI_EXIT_OK;
}

/* Numbers within their types' ranges; the library checks the launch
 * limits (--lockstep, --batch, --shared). */
static int run_check_numbers(run_ctx *c)
{
	const struct { cli_opt_id id; uint64_t max; uint64_t *out; } nums[] = {
		{ OPT_MAX_INSNS, UINT64_MAX, &c->max_insns },
		{ OPT_THREADS, UINT_MAX, &c->threads },
		{ OPT_LOCKSTEP, UINT_MAX, &c->lockstep },
		{ OPT_BATCH, UINT_MAX, &c->batch },
	};
	cli_err e;

	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		const char *v = c->o.value[nums[i].id];

		if (v && !parse_u64_opt(v, nums[i].max, nums[i].out, &e))
			return usage_errf(c->cmd, "--%s: %s", cli_opts_table[nums[i].id].name, e.msg);
	}
	if (OPT(c, SHARED) && !cli_parse_size(OPT(c, SHARED), &c->shared, &e))
		return opt_err(c, "--shared", &e);
	if (c->shared > UINT32_MAX)
		return usage_errf(c->cmd, "--shared: at most %" PRIu32 " bytes", UINT32_MAX);
	if (OPT(c, MAX_MEMORY) && !cli_parse_size(OPT(c, MAX_MEMORY), &c->max_memory, &e))
		return opt_err(c, "--max-memory", &e);
	if (OPT(c, STATS) && strcmp(OPT(c, STATS), "json") != 0)
		return usage_err(c->cmd, "--stats: the only format is 'json'");
	if (OPT(c, ENGINE) && !cli_parse_engine(OPT(c, ENGINE), &c->engine, &e))
		return opt_err(c, "--engine", &e);
	if (OPT(c, JIT) && !cli_parse_jit(OPT(c, JIT), &c->jit, &e))
		return opt_err(c, "--jit", &e);
	if (c->jit == WE_JIT_ON && !we_jit_available())
		return usage_err(c->cmd, "--jit=on: this build has no compiled tier (configure found no "
				 "LLVM: install llvm-14-dev and rebuild)");
	if (OPT(c, JIT_CACHE) && !*OPT(c, JIT_CACHE))
		return usage_err(c->cmd, "--jit-cache: give a directory, or off");
	if (OPT(c, STREAM_MIN)) {
		if (!strcmp(OPT(c, STREAM_MIN), "off"))
			c->stream_min = UINT64_MAX;
		else if (!cli_parse_size(OPT(c, STREAM_MIN), &c->stream_min, &e))
			return usage_errf(c->cmd, "--stream-min: '%s' is neither a byte count (such as 64M) nor off",
					  OPT(c, STREAM_MIN));
	}
	if (OPT(c, PLACEMENT) && !cli_parse_placement(OPT(c, PLACEMENT), &c->placement, &e))
		return opt_err(c, "--placement", &e);
	c->json = OPT(c, STATS) != NULL;
	return run_check_debug(c);
}

static int run_parse_requests(run_ctx *c)
{
	const strlist *outs = OPTS(c, OUT), *prints = OPTS(c, PRINT), *expects = OPTS(c, EXPECT);
	cli_err e;

	c->outs = calloc_n(outs->n, sizeof *c->outs);
	c->prints = calloc_n(prints->n, sizeof *c->prints);
	c->expects = calloc_n(expects->n, sizeof *c->expects);
	if (!c->outs || !c->prints || !c->expects)
		return nomem("arguments");
	for (size_t i = 0; i < outs->n; i++)
		if (!cli_parse_assign(outs->v[i], &c->outs[i].a, &e))
			return opt_err(c, "--out", &e);
	for (size_t i = 0; i < prints->n; i++)
		if (!cli_parse_print(prints->v[i], &c->prints[i].p, &e))
			return req_err(c, "--print", prints->v[i], &e);
	for (size_t i = 0; i < expects->n; i++) {
		expect_req *x = &c->expects[i];

		if (!cli_parse_assign(expects->v[i], &x->a, &e))
			return opt_err(c, "--expect", &e);
		if (!cli_parse_spec(x->a.value, true, &x->c.spec, &e))
			return req_err(c, "--expect", expects->v[i], &e);
	}
	return CLI_EXIT_OK;
}

/* Standard input can feed FILE or one @- spec, not several. */
static int run_check_stdin(const run_ctx *c)
{
	unsigned uses = strcmp(c->o.file, "-") == 0;
	cli_assign a;
	cli_err e;

	for (size_t i = 0; i < OPTS(c, ARG)->n; i++)
		if (cli_parse_assign(OPTS(c, ARG)->v[i], &a, &e) && strcmp(a.value, "@-") == 0)
			uses++;
	for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++)
		if (c->expects[i].c.spec.kind == CLI_SPEC_FILE &&
		    strcmp(c->expects[i].c.spec.path, "-") == 0)
			uses++;
	if (uses > 1)
		return usage_err(c->cmd, "standard input ('-') can be read only once");
	/* every rank reads its inputs itself; mpirun gives rank 0 alone stdin */
	if (uses && cli_dist_on(c->dist))
		return usage_err(c->cmd, "under mpirun every rank reads its inputs itself: standard "
				 "input ('-') reaches rank 0 only (use a file)");
	if (cli_dist_on(c->dist) && OPT(c, TRACE))
		return usage_err(c->cmd, "--trace cannot be used under mpirun with several ranks (each "
				 "rank runs its own CTAs): run it in one process");
	return CLI_EXIT_OK;
}

/* With --stats=json, stdout is that one document: nothing else may go
 * there. */
static int run_check_stdout(const run_ctx *c)
{
	if (!c->json)
		return CLI_EXIT_OK;
	for (size_t i = 0; i < OPTS(c, OUT)->n; i++)
		if (strcmp(c->outs[i].a.value, "-") == 0)
			return usage_errf(c->cmd, "--out %s: standard output holds the --stats=json "
					  "document", OPTS(c, OUT)->v[i]);
	if (OPT(c, TRACE) && strcmp(OPT(c, TRACE), "-") == 0)
		return usage_err(c->cmd, "--trace -: standard output holds the --stats=json document");
	if (OPT(c, PROFILE) && strcmp(OPT(c, PROFILE), "-") == 0)
		return usage_err(c->cmd, "--profile=-: standard output holds the --stats=json document (which has "
				 "the profile)");
	return CLI_EXIT_OK;
}

/* No output of run may overwrite an input or another output: checked
 * before anything is read or written. */
static int run_check_clobber(const run_ctx *c)
{
	const strlist *args = OPTS(c, ARG), *outs = OPTS(c, OUT), *exps = OPTS(c, EXPECT);
	file_use *u = calloc_n(3 + args->n + outs->n + exps->n, sizeof *u);
	size_t n = 0;
	cli_assign a;
	cli_err e;
	int rc;

	if (!u)
		return nomem("file names");
	u[n++] = (file_use){ c->o.file, "FILE", c->o.file, false };
	for (size_t i = 0; i < args->n; i++)
		if (cli_parse_assign(args->v[i], &a, &e) && a.value[0] == '@')
			u[n++] = (file_use){ a.value + 1, "--arg", args->v[i], false };
	for (size_t i = 0; i < exps->n; i++)
		if (c->expects[i].c.spec.kind == CLI_SPEC_FILE)
			u[n++] = (file_use){ c->expects[i].c.spec.path, "--expect", exps->v[i], false };
	for (size_t i = 0; i < outs->n; i++)
		u[n++] = (file_use){ c->outs[i].a.value, "--out", outs->v[i], true };
	if (OPT(c, TRACE))
		u[n++] = (file_use){ OPT(c, TRACE), "--trace", OPT(c, TRACE), true };
	if (OPT(c, PROFILE) && *OPT(c, PROFILE))
		u[n++] = (file_use){ OPT(c, PROFILE), "--profile", OPT(c, PROFILE), true };
	rc = check_clobber(c->cmd, u, n);
	free(u);
	return rc;
}

static int run_options(run_ctx *c, int argc, char **argv)
{
	int rc = opts_scan(&c->o, c->stress ? CLI_STRESS : CLI_RUN, c->cmd, argc, argv);

	if (rc || OPT(c, HELP))
		return rc;
	if (!c->o.file)
		return usage_err(c->cmd, "missing FILE");
	if ((rc = run_check_dims(c)) != 0 || (rc = run_check_numbers(c)) != 0 ||
	    (rc = run_parse_requests(c)) != 0 || (rc = run_check_stdin(c)) != 0 ||
	    (rc = run_check_stdout(c)) != 0)
		return rc;
	return run_check_clobber(c);
}

/* ======================================================================
 * Device, module, kernel
 * ====================================================================== */

static void print_kernel_names(FILE *f, const we_module *m)
{
	unsigned n = we_module_kernel_count(m);

	for (unsigned i = 0; i < n; i++) {
		const we_kernel_info *k = we_module_kernel(m, i);

		fprintf(f, "%s%s", i ? ", " : "", k && k->name ? k->name : "?");
	}
}

static int select_kernel(const we_module *m, const char *path, const char *name,
			 const we_kernel_info **out)
{
	unsigned n = we_module_kernel_count(m);

	*out = name ? we_module_find_kernel(m, name) : n == 1 ? we_module_kernel(m, 0) : NULL;
	if (*out)
		return CLI_EXIT_OK;
	if (n == 0)
		return errorf(CLI_EXIT_LOAD, "%s defines no kernels", display_name(path));
	fprintf(stderr, PROG ": ");
	if (name)
		fprintf(stderr, "%s has no kernel '%s'", display_name(path), name);
	else
		fprintf(stderr, "%s defines %u kernels; choose one with --kernel", display_name(path), n);
	fputs(" (kernels: ", stderr);
	print_kernel_names(stderr, m);
	fputs(")\n", stderr);
	return name ? CLI_EXIT_LOAD : CLI_EXIT_USAGE;
}

/* The CLI relies on the layout the library reports; check it. */
static int check_kernel_info(const we_kernel_info *k)
{
	if (!k->name || (k->nparams && !k->params))
		return errorf(CLI_EXIT_INTERNAL, "kernel info without %s",
			      k->name ? "parameters" : "a name");
	for (unsigned i = 0; i < k->nparams; i++) {
		const we_param_info *p = &k->params[i];

		if (!p->name || (p->type == WE_PARAM_BYTES ? !p->size : p->size != cli_param_type_size(p->type)) ||
		    (uint64_t)p->offset + p->size > k->param_bytes)
			return errorf(CLI_EXIT_INTERNAL, "kernel %s: inconsistent layout of parameter %u",
				      k->name, i);
	}
	return CLI_EXIT_OK;
}

/* Whether --check's value (validated by the scanner) names `kind`; no
 * value names them all. */
static bool check_names(const char *v, const char *kind)
{
	const size_t n = strlen(kind);
	if (!*v)
		return true;
	for (; *v; v += strcspn(v, ","), v += *v == ',')
		if (strcspn(v, ",") == n && !strncmp(v, kind, n))
			return true;
	return false;
}

void launch_config(const run_ctx *c, we_launch_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->grid = c->grid;
	cfg->block = c->block;
	cfg->dynamic_shared = (uint32_t)c->shared;
	cfg->max_instructions = c->max_insns;
	cfg->threads = (unsigned)c->threads;
	cfg->lockstep = (unsigned)c->lockstep;
	cfg->batch = (unsigned)c->batch;
	cfg->engine = c->engine;
	cfg->jit = c->jit;
	cfg->jit_cache = OPT(c, JIT_CACHE);
	cfg->stream_min = c->stream_min;
	cfg->placement = c->placement;
	cfg->schedule_seeded = c->seeded;
	cfg->schedule_seed = c->seed;
	cfg->jitter = c->jitter;
	if (OPT(c, CHECK)) {
		cfg->check = check_names(OPT(c, CHECK), "barriers");
		cfg->check_memory = (check_names(OPT(c, CHECK), "races") ? WE_CHECK_RACES : 0u) |
				    (check_names(OPT(c, CHECK), "uninit") ? WE_CHECK_UNINIT : 0u);
	}
	cfg->timeout = c->timeout;
	cfg->profile = OPT(c, PROFILE) != NULL;
	if (c->stress) {
		/* every stress run: one thread, unbound, its own schedule */
		cfg->threads = 1;
		cfg->placement = WE_PLACE_NONE;
		cfg->schedule_seeded = !c->jitter;
	}
}

/* The library alone knows the launch limits: ask it before any buffer is
 * read or made.  A launch shape it refuses is a usage error (warpemu(1),
 * EXIT STATUS 2) and a kernel's resources over a limit exit status 7:
 * when the check fails with WE_ERR_LIMIT, the same check with one thread
 * in one CTA tells which. */
static int launch_check(run_ctx *c)
{
	we_launch_config cfg;
	we_status st;
	char *msg;
	bool shape;
	int rc;

	launch_config(c, &cfg);
	st = we_launch_check(c->dev, c->mod, c->k->name, &cfg, c->k->param_bytes);
	if (st == WE_OK)
		return CLI_EXIT_OK;
	if (!(msg = strdup(we_last_error(c->dev))))
		return nomem("messages");
	cfg.grid = cfg.block = (we_dim3){ 1, 1, 1 };
	shape = st == WE_ERR_LIMIT &&
		we_launch_check(c->dev, c->mod, c->k->name, &cfg, c->k->param_bytes) == WE_OK;
	rc = shape ? CLI_EXIT_USAGE : cli_exit_for_status(st);
	if (shape)
		errorf(rc, "--grid %s --block %s: %s", OPT(c, GRID), OPT(c, BLOCK), msg);
	else
		errorf(rc, "%s", *msg ? msg : we_status_name(st));
	if (rc == CLI_EXIT_USAGE)
		try_help(c->cmd);
	free(msg);
	return rc;
}

static int run_setup(run_ctx *c)
{
	int rc;

	if ((rc = create_device(c->max_memory, (unsigned)c->threads, &c->dev)) != 0 ||
	    (rc = load_module(c->dev, c->o.file, c->intr, &c->mod, c->stress ? &c->image : NULL,
			      &c->image_len)) != 0 ||
	    (rc = select_kernel(c->mod, c->o.file, OPT(c, KERNEL), &c->k)) != 0 ||
	    (rc = check_kernel_info(c->k)) != 0 ||
	    (rc = launch_check(c)) != 0 ||
	    (rc = run_bind_args(c)) != 0 ||
	    (rc = run_bind_requests(c)) != 0 ||
	    (rc = run_make_buffers(c)) != 0)
		return rc;
	return run_prepare_checks(c);
}

/* ======================================================================
 * The launch
 * ====================================================================== */

/* A launch's notice that is not an error (e.g. threads left unpinned). */
static void print_notice(const run_ctx *c)
{
	const char *n = we_device_notice(c->dev);
	size_t len = strlen(n);

	if (len && !OPT(c, QUIET))
		fprintf(stderr, PROG ": %s%s", n, n[len - 1] == '\n' ? "" : "\n");
}

/* The --check lines of the launch and their count, on stderr. */
static void print_warnings(const run_ctx *c)
{
	const char *w = we_last_warnings(c->dev);
	uint64_t shown = 0, n = c->stats.warnings;

	while (*w) {
		int len = first_line(w);

		fprintf(stderr, PROG ": %.*s\n", len, w);
		shown++;
		w += len + (w[len] == '\n');
	}
	if (n > shown)
		fprintf(stderr, PROG ": check: %" PRIu64 " more hazard%s not listed\n", n - shown,
			n - shown == 1 ? "" : "s");
	fprintf(stderr, PROG ": check: %" PRIu64 " hazard%s\n", n, n == 1 ? "" : "s");
}

/* A failed launch: its report as text on stderr or, with --report=json,
 * as JSON on stdout (inside the --stats=json document when there is one)
 * with the report's first line on stderr. */
static int launch_err(const run_ctx *c, we_status st)
{
	const char *json = we_last_report_json(c->dev);
	const char *text = we_last_error(c->dev);
	size_t n = strlen(json);

	if (c->report != CLI_REPORT_JSON || !is_verdict(st) || n == 0)
		return api_err(c->dev, st);
	if (!c->json)
		printf("%s%s", json, json[n - 1] == '\n' ? "" : "\n");
	if (*text)
		fprintf(stderr, PROG ": %.*s\n", first_line(text), text);
	else
		errorf(0, "%s", we_status_name(st));
	return cli_exit_for_status(st);
}

/* --profile[=FILE]: the launch's profile, text on stderr or into FILE
 * ('-': stdout), JSON when FILE ends in ".json"; also after a launch that
 * stopped (what ran until then). */
static int write_profile(const run_ctx *c)
{
	const char *path = OPT(c, PROFILE);
	const size_t n = strlen(path);
	const bool json = n > 5 && strcmp(path + n - 5, ".json") == 0;
	const char *p = json ? we_last_profile_json(c->dev) : we_last_profile(c->dev);
	if (!*path) {
		fputs(p, stderr);
		return CLI_EXIT_OK;
	}
	size_t len = strlen(p);
	char *text = malloc(len + 2);
	if (!text)
		return nomem("the profile");
	memcpy(text, p, len);
	if (json)
		text[len++] = '\n';
	int rc = strcmp(path, "-") == 0 ? write_stdout(text, len) : write_file_atomic(path, text, len);
	free(text);
	return rc;
}

static void trace_line(void *ctx, const char *line)
{
	stream_line(ctx, line);
}

static int run_launch(run_ctx *c)
{
	we_launch_config cfg;
	out_stream trace;
	we_status st;
	int rc;

	launch_config(c, &cfg);
	if (OPT(c, TRACE)) {
		if ((rc = stream_open(&trace, OPT(c, TRACE))) != 0)
			return rc;
		cfg.trace = trace_line;
		cfg.trace_ctx = &trace;
	}
	memset(&c->stats, 0, sizeof c->stats);
	cli_intr_watch(c->intr, c->dev);
	if (cli_dist_on(c->dist))
		st = run_dist_launch(c, &cfg);
	else
		st = we_launch(c->dev, c->mod, c->k->name, &cfg, c->params, c->k->param_bytes, &c->stats);
	cli_intr_unwatch(c->intr, c->dev);
	c->launch_status = st;
	if (cli_dist_on(c->dist) && c->dist->rank != 0) {
		/* rank 0 reports the launch; a rank's own --check hazards are
		 * about its CTAs (dist.h) */
		if (OPT(c, CHECK))
			print_warnings(c);
		return st == WE_OK ? CLI_EXIT_OK : cli_exit_for_status(st);
	}
	print_notice(c);
	if (OPT(c, CHECK))
		print_warnings(c);
	if (OPT(c, PROFILE) && st != WE_ERR_INTERRUPTED && (rc = write_profile(c)) != CLI_EXIT_OK)
		return rc;
	/* an interruption has no report: main says what happened */
	rc = st == WE_OK ? CLI_EXIT_OK : st == WE_ERR_INTERRUPTED ? CLI_EXIT_INTERRUPTED
			 : launch_err(c, st);
	/* the partial trace of a failed launch is the useful one: kept */
	if (OPT(c, TRACE))
		rc = worse(rc, stream_close(&trace, true));
	return rc;
}

int run_free(run_ctx *c, int rc)
{
	for (unsigned i = 0; c->slots && i < c->nslots; i++) {
		we_status st = c->slots[i].allocated ? we_free(c->dev, c->slots[i].ptr) : WE_OK;

		if (st != WE_OK)
			rc = worse(rc, api_err(c->dev, st));
		contents_free(&c->slots[i].c);
		free(c->slots[i].at);
		if (i >= c->k->nparams)
			free((char *)c->slots[i].name);  /* a --buffer's (bind_buffer) */
	}
	for (size_t i = 0; c->expects && i < OPTS(c, EXPECT)->n; i++)
		contents_free(&c->expects[i].c);
	free(c->slots);
	free(c->params);
	free(c->outs);
	free(c->prints);
	free(c->expects);
	free(c->ranks);
	free(c->image);
	opts_free(&c->o);
	we_module_destroy(c->mod);
	we_device_destroy(c->dev);
	return rc;
}

int run_prepare(run_ctx *c, bool stress, cli_intr *intr, const cli_dist *dist, int argc, char **argv,
		bool *help)
{
	int rc;

	memset(c, 0, sizeof *c);
	c->intr = intr;
	c->dist = dist;
	c->stress = stress;
	c->cmd = stress ? "stress" : "run";
	rc = run_options(c, argc, argv);
	*help = rc == CLI_EXIT_OK && OPT(c, HELP);
	if (*help)
		print_help(stress ? CLI_STRESS : CLI_RUN);
	else if (rc == CLI_EXIT_OK)
		rc = run_setup(c);
	return rc;
}

int cmd_run(cli_intr *intr, cli_dist *dist, int argc, char **argv)
{
	run_ctx c;
	bool help;
	int rc;

	/* under mpirun rank 0 speaks for the run (dist.h) */
	cli_dist_hold(dist);
	rc = cli_dist_agree(dist, run_prepare(&c, false, intr, dist, argc, argv, &help));
	if (rc == CLI_EXIT_OK && !help) {
		rc = run_launch(&c);
		if (dist->rank == 0)
			rc = run_results(&c, rc);
	}
	return run_free(&c, cli_dist_final(dist, rc));
}
