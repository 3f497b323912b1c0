/* stress.c — warpemu stress: one launch under many seeded schedules.
 *
 * Jobs (host threads) take the runs in seed order, each on its own
 * device, and finish them in any order; the verdicts are then settled in
 * seed order (the first ok run, by seed, is the reference the later ones
 * are compared with), so the outcome does not depend on the number of
 * jobs or on timing.  A job waits before starting a run while more than
 * STRESS_WINDOW_PER_JOB runs per job lie between the last settled one and
 * it, which bounds the buffers held in memory.
 */
#include "cli/run.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"

#define STRESS_WINDOW_PER_JOB 4
#define STRESS_FAILS_SHOWN 20      /* in the table */
#define STRESS_FAILS_KEPT 1000     /* in --stats=json */
#define REASON_TEXT 256
#define PROGRESS_INTERVAL 0.1      /* seconds between progress updates */

typedef struct stress_run {
	uint64_t seed;
	bool done;                 /* finished, waiting to be settled */
	cli_class cls;
	uint8_t **bufs;            /* per parameter: contents after OK */
	uint64_t warnings;
	char reason[REASON_TEXT];
	char warning[REASON_TEXT]; /* its first --check line */
} stress_run;

typedef struct stress_fail {
	uint64_t seed;
	cli_class cls;
	char reason[REASON_TEXT];
	bool replayed;             /* jitter: rerun under its seeded schedule, */
	cli_class replay_cls;      /* which gave this class                    */
} stress_fail;

/* Consecutive failing seeds of one class. */
typedef struct seed_range {
	uint64_t first, last;
	cli_class cls;
} seed_range;

typedef struct stress_ctx {
	const run_ctx *c;          /* the prototype, read-only */
	uint64_t first;            /* the seed of run 0 */
	uint64_t runs;
	unsigned jobs;
	bool progress;             /* stderr is a terminal */
	pthread_mutex_t lock;
	pthread_cond_t cv;
	/* under lock */
	uint64_t next, completed, settled, failing;
	stress_run *win;           /* run i is win[i % nwin] */
	size_t nwin;
	uint8_t **ref;             /* the reference run's buffers */
	uint64_t ref_seed;
	uint64_t count[CLI_NCLASS];
	stress_fail *fails;
	size_t nfails;
	seed_range *ranges;        /* every failing run, in seed order */
	size_t nranges, ranges_cap;
	bool ranges_oom;           /* some seeds could not be kept */
	size_t rnext;              /* jitter: next failure to replay */
	uint64_t warnings, warned_runs, warned_seed;
	char warning[REASON_TEXT];
	int fatal;                 /* exit status of an error, or 0 */
	char fatal_msg[512];
	bool stop;
	double last_progress;
	bool progress_shown;
} stress_ctx;

static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every pthread call's return is checked: a lock, wait, signal or join
 * that fails leaves the jobs' state unknown, which is fatal. */
static void pthread_ok(int e, const char *what)
{
	if (!e)
		return;
	fprintf(stderr, PROG ": internal error: %s failed (error %d)\n", what, e);
	_Exit(CLI_EXIT_INTERNAL);
}

static void stress_lock(stress_ctx *sc)
{
	pthread_ok(pthread_mutex_lock(&sc->lock), "pthread_mutex_lock");
}

static void stress_unlock(stress_ctx *sc)
{
	pthread_ok(pthread_mutex_unlock(&sc->lock), "pthread_mutex_unlock");
}

static void stress_wait(stress_ctx *sc)
{
	pthread_ok(pthread_cond_wait(&sc->cv, &sc->lock), "pthread_cond_wait");
}

static void stress_wake(stress_ctx *sc)
{
	pthread_ok(pthread_cond_broadcast(&sc->cv), "pthread_cond_broadcast");
}

static void free_bufs(uint8_t **bufs, unsigned n)
{
	if (!bufs)
		return;
	for (unsigned i = 0; i < n; i++)
		free(bufs[i]);
	free(bufs);
}

/* Copy the first line of text into buf. */
static void copy_line(char *buf, size_t len, const char *text)
{
	snprintf(buf, len, "%.*s", first_line(text), text);
}

/* After an OK launch: read every buffer back (kept to compare with the
 * reference run's). */
static we_status stress_read_back(const run_ctx *c, we_device *dev, const we_devptr *ptrs,
				  stress_run *r)
{
	for (unsigned i = 0; i < c->nslots; i++) {
		uint64_t bytes = c->slots[i].c.bytes;
		we_status st;

		if (!c->slots[i].buffer)
			continue;
		if (!(r->bufs[i] = malloc(bytes ? (size_t)bytes : 1)))
			return WE_ERR_NOMEM;
		if (bytes && (st = we_memcpy_dtoh(dev, r->bufs[i], ptrs[i], (size_t)bytes)) != WE_OK)
			return st;
	}
	return WE_OK;
}

/* The --expect checks of an OK run, the expected data made chunk by
 * chunk; the first failing one makes it differ.  0 or an exit status. */
static int stress_expect(const run_ctx *c, stress_run *r)
{
	uint8_t *exp = malloc(CLI_CHUNK);
	int rc = exp ? CLI_EXIT_OK : CLI_EXIT_LIMIT;

	for (size_t i = 0; i < OPTS(c, EXPECT)->n && !rc && r->cls == CLI_CLASS_OK; i++) {
		const expect_req *x = &c->expects[i];
		size_t size = cli_elem_size(x->c.spec.type);
		feed f = { &x->c, NULL, 0, c->intr };
		uint64_t bad = 0, count = x->c.bytes / size;
		cli_mismatch m = { 0, { 0 }, { 0 } };
		char got[VALUE_TEXT], want[VALUE_TEXT];
		cli_err e;

		for (uint64_t off = 0; off < x->c.bytes && !rc; off += CLI_CHUNK) {
			size_t n = x->c.bytes - off < CLI_CHUNK ? (size_t)(x->c.bytes - off) : CLI_CHUNK;
			cli_mismatch first;
			uint64_t k;

			if ((rc = feed_next(&f, exp, n, &e)) != 0)
				break;
			k = cli_compare(x->c.spec.type, r->bufs[x->slot] + off, exp, n / size,
					x->c.spec.tol, &first, 1);
			if (k && !bad) {
				m = first;
				m.index += off / size;
			}
			bad += k;
		}
		if (rc || bad == 0)
			continue;
		cli_format_elem(x->c.spec.type, m.got, got, sizeof got);
		cli_format_elem(x->c.spec.type, m.exp, want, sizeof want);
		snprintf(r->reason, sizeof r->reason, "check %.*s: %" PRIu64 " of %" PRIu64 " elements "
			 "differ, first [%" PRIu64 "] got %s, expected %s", (int)x->a.namelen, x->a.name,
			 bad, count, m.index, got, want);
		r->cls = CLI_CLASS_DIFFERS;
	}
	free(exp);
	return rc;
}

/* A run's device with the module and every buffer made: 0, or an exit
 * status with its message in e. */
static int stress_device(const run_ctx *c, we_device **dev, we_module **mod, we_devptr *ptrs,
			 bool *alloc, uint8_t *params, cli_err *e)
{
	we_device_config dc = { .max_memory = c->max_memory, .threads = 1 };
	we_status st = we_device_create(&dc, dev);
	int rc = CLI_EXIT_OK;

	if (st == WE_OK)
		st = load_module_data(*dev, c->image, c->image_len, c->o.file, mod);
	if (st != WE_OK) {
		snprintf(e->msg, sizeof e->msg, "%s", *dev && *we_last_error(*dev)
			 ? we_last_error(*dev) : we_status_name(st));
		return cli_exit_for_status(st);
	}
	if (c->k->param_bytes)
		memcpy(params, c->params, c->k->param_bytes);
	for (unsigned i = 0; !rc && i < c->nslots; i++) {
		if (!c->slots[i].buffer)
			continue;
		rc = slot_upload(*dev, &c->slots[i], NULL, c->intr, &ptrs[i], &alloc[i], e);
		store_ptr(params, &c->slots[i], ptrs[i]);
	}
	return rc;
}

/* Make the device and buffers, launch with r->seed (its seeded schedule,
 * or with jitter its random delays) and classify the outcome as far as
 * one run can tell (the comparison with the reference comes when the run
 * is settled).  Returns 0, or the exit status of an error that is no
 * verdict on the kernel, with its message in msg (none for an
 * interruption). */
static int stress_one(const run_ctx *c, stress_run *r, bool jitter, char *msg, size_t msglen)
{
	unsigned np = c->nslots;
	we_devptr *ptrs = calloc_n(np, sizeof *ptrs);
	bool *alloc = calloc_n(np, sizeof *alloc);
	uint8_t *params = calloc_n(c->k->param_bytes, 1);
	we_launch_config cfg;
	we_launch_stats stats;
	we_device *dev = NULL;
	we_module *mod = NULL;
	we_status st = WE_OK;
	cli_err e = { "out of host memory" };
	int rc = CLI_EXIT_LIMIT;

	r->bufs = calloc_n(np, sizeof *r->bufs);
	if (ptrs && alloc && params && r->bufs)
		rc = stress_device(c, &dev, &mod, ptrs, alloc, params, &e);
	if (rc == CLI_EXIT_OK) {
		launch_config(c, &cfg);
		cfg.schedule_seeded = !jitter;
		cfg.jitter = jitter;
		cfg.schedule_seed = r->seed;
		memset(&stats, 0, sizeof stats);
		cli_intr_watch(c->intr, dev);
		st = we_launch(dev, mod, c->k->name, &cfg, params, c->k->param_bytes, &stats);
		cli_intr_unwatch(c->intr, dev);
		r->warnings = stats.warnings;
		copy_line(r->warning, sizeof r->warning, we_last_warnings(dev));
		if (is_verdict(st)) {
			cli_class_for_status(st, &r->cls);
			copy_line(r->reason, sizeof r->reason,
				  *we_last_error(dev) ? we_last_error(dev) : we_status_name(st));
			st = WE_OK;
		} else if (st == WE_OK) {
			r->cls = CLI_CLASS_OK;
			if ((st = stress_read_back(c, dev, ptrs, r)) == WE_OK)
				rc = stress_expect(c, r);
		}
		if (st == WE_ERR_INTERRUPTED) {
			rc = CLI_EXIT_INTERRUPTED;
			e.msg[0] = '\0';   /* main reports it */
		} else if (st != WE_OK) {
			rc = cli_exit_for_status(st);
			snprintf(e.msg, sizeof e.msg, "%s", *we_last_error(dev) ? we_last_error(dev)
				 : st == WE_ERR_NOMEM ? "out of memory" : we_status_name(st));
		}
	}
	if (rc)
		copy_line(msg, msglen, e.msg);
	for (unsigned i = 0; alloc && i < np; i++)
		if (alloc[i] && we_free(dev, ptrs[i]) != WE_OK && !rc) {
			rc = CLI_EXIT_INTERNAL;
			copy_line(msg, msglen, we_last_error(dev));
		}
	we_module_destroy(mod);
	we_device_destroy(dev);
	free(params);
	free(alloc);
	free(ptrs);
	return rc;
}

/* Compare an OK run with the reference; the first difference makes it
 * differ. */
static void stress_compare(const stress_ctx *sc, stress_run *r)
{
	const run_ctx *c = sc->c;

	for (unsigned i = 0; i < c->nslots; i++) {
		const param_slot *s = &c->slots[i];
		cli_elem_type t = s->c.spec.type;
		size_t size = cli_elem_size(t), j = 0;
		char got[VALUE_TEXT], ref[VALUE_TEXT];

		if (!s->buffer ||
		    memcmp(sc->ref[i], r->bufs[i], (size_t)s->c.bytes) == 0)
			continue;
		while (sc->ref[i][j] == r->bufs[i][j])
			j++;
		j -= j % size;
		cli_format_elem(t, cli_load_elem(t, r->bufs[i] + j), got,
				sizeof got);
		cli_format_elem(t, cli_load_elem(t, sc->ref[i] + j), ref,
				sizeof ref);
		snprintf(r->reason, sizeof r->reason, "buffer %s differs at "
			 "element %zu (%s): %s, but %s in seed %" PRIu64,
			 s->name, j / size, cli_elem_type_name(t),
			 got, ref, sc->ref_seed);
		r->cls = CLI_CLASS_DIFFERS;
		return;
	}
}

/* Add a failing run's seed to the ranges (under lock; seeds come in
 * order). */
static void stress_range_add(stress_ctx *sc, uint64_t seed, cli_class cls)
{
	seed_range *last = sc->nranges ? &sc->ranges[sc->nranges - 1] : NULL;

	if (last && last->cls == cls && last->last + 1 == seed) {
		last->last = seed;
		return;
	}
	if (sc->nranges == sc->ranges_cap) {
		size_t cap = sc->ranges_cap ? 2 * sc->ranges_cap : 64;
		seed_range *p = realloc(sc->ranges, cap * sizeof *p);

		if (!p) {
			sc->ranges_oom = true;
			return;
		}
		sc->ranges = p;
		sc->ranges_cap = cap;
	}
	sc->ranges[sc->nranges++] = (seed_range){ seed, seed, cls };
}

/* Settle the verdict of the lowest unsettled run (under lock). */
static void stress_settle(stress_ctx *sc, stress_run *r)
{
	if (r->cls == CLI_CLASS_OK && !sc->ref) {
		sc->ref = r->bufs;
		sc->ref_seed = r->seed;
		r->bufs = NULL;
	} else if (r->cls == CLI_CLASS_OK) {
		stress_compare(sc, r);
		if (r->cls != CLI_CLASS_OK)
			sc->failing++;
	}
	sc->count[r->cls]++;
	if (r->warnings) {
		sc->warnings += r->warnings;
		if (sc->warned_runs++ == 0) {
			sc->warned_seed = r->seed;
			memcpy(sc->warning, r->warning, sizeof sc->warning);
		}
	}
	if (r->cls != CLI_CLASS_OK)
		stress_range_add(sc, r->seed, r->cls);
	if (r->cls != CLI_CLASS_OK && sc->nfails < STRESS_FAILS_KEPT) {
		stress_fail *f = &sc->fails[sc->nfails++];

		f->seed = r->seed;
		f->cls = r->cls;
		memcpy(f->reason, r->reason, sizeof f->reason);
	}
	free_bufs(r->bufs, sc->c->nslots);
	r->bufs = NULL;
	r->done = false;
}

/* "\r"-updated progress on a terminal (under lock). */
static void stress_progress(stress_ctx *sc, bool last)
{
	double t;

	if (!sc->progress)
		return;
	t = now_s();
	if (!last && t - sc->last_progress < PROGRESS_INTERVAL)
		return;
	sc->last_progress = t;
	sc->progress_shown = true;
	fprintf(stderr, "\r" PROG ": stress: %" PRIu64 "/%" PRIu64
		" runs, %" PRIu64 " failing%s", sc->completed, sc->runs,
		sc->failing, last ? "\n" : "");
}

/* Record a run just finished and settle what can be settled. */
static void stress_done(stress_ctx *sc, uint64_t i, stress_run *r)
{
	stress_run *w;

	r->done = true;
	sc->win[i % sc->nwin] = *r;
	sc->completed++;
	if (r->cls != CLI_CLASS_OK)
		sc->failing++;
	while (sc->settled < sc->next &&
	       (w = &sc->win[sc->settled % sc->nwin])->done) {
		stress_settle(sc, w);
		sc->settled++;
	}
	stress_progress(sc, false);
}

/* Under the lock: run failure rc (message msg) stops every job; the
 * first one is reported. */
static void stress_fatal(stress_ctx *sc, int rc, const char *msg)
{
	if (!sc->fatal) {
		sc->fatal = rc;
		snprintf(sc->fatal_msg, sizeof sc->fatal_msg, "%s", msg);
	}
	sc->stop = true;
}

static void *stress_job(void *arg)
{
	stress_ctx *sc = arg;
	stress_run r;
	char msg[sizeof sc->fatal_msg];
	uint64_t i;
	int rc;

	for (;;) {
		stress_lock(sc);
		while (!sc->stop && sc->next < sc->runs &&
		       sc->next - sc->settled >= sc->nwin)
			stress_wait(sc);
		if (sc->stop || sc->next >= sc->runs) {
			stress_unlock(sc);
			return NULL;
		}
		i = sc->next++;
		stress_unlock(sc);
		memset(&r, 0, sizeof r);
		r.seed = sc->first + i;
		msg[0] = '\0';
		rc = stress_one(sc->c, &r, sc->c->jitter, msg, sizeof msg);
		stress_lock(sc);
		if (rc) {
			stress_fatal(sc, rc, msg);
			free_bufs(r.bufs, sc->c->nslots);
		} else {
			stress_done(sc, i, &r);
		}
		stress_wake(sc);
		stress_unlock(sc);
	}
}

/* Jitter: rerun a listed failing run under its seeded schedule, which
 * replays exactly when it gives the same class (the reference buffers
 * are fixed by now: no lock to compare with them). */
static void *stress_replay_job(void *arg)
{
	stress_ctx *sc = arg;
	stress_run r;
	char msg[sizeof sc->fatal_msg];
	size_t i;
	int rc;

	for (;;) {
		stress_lock(sc);
		if (sc->stop || sc->rnext >= sc->nfails) {
			stress_unlock(sc);
			return NULL;
		}
		i = sc->rnext++;
		stress_unlock(sc);
		memset(&r, 0, sizeof r);
		r.seed = sc->fails[i].seed;
		msg[0] = '\0';
		rc = stress_one(sc->c, &r, false, msg, sizeof msg);
		if (!rc && r.cls == CLI_CLASS_OK && sc->ref)
			stress_compare(sc, &r);
		stress_lock(sc);
		if (rc) {
			stress_fatal(sc, rc, msg);
		} else {
			sc->fails[i].replayed = true;
			sc->fails[i].replay_cls = r.cls;
		}
		stress_unlock(sc);
		free_bufs(r.bufs, sc->c->nslots);
	}
}

/* ---- the replay command -------------------------------------------------- */

/* Append word to the command line, quoted for a POSIX shell. */
static void add_word(void *ctx, const char *word)
{
	strbuf *b = ctx;
	size_t n = cli_shell_quote(word, NULL, 0);
	char *q = malloc(n + 1);

	if (!q) {
		b->oom = true;
		return;
	}
	cli_shell_quote(word, q, n + 1);
	if (b->n)
		sb_add(b, " ", 1);
	sb_add(b, q, n);
	free(q);
}

/* "warpemu run FILE <the launch options> --threads 1 --schedule=seed:N":
 * the command line that reruns one stress run exactly; with jitter,
 * "--schedule=jitter:N", which reruns it with the same delays but not the
 * same timing (malloc'd, NULL when out of memory).  The options are the
 * table's replayed ones (options.h). */
static char *replay_command(const run_ctx *c, uint64_t seed, bool jitter)
{
	strbuf b = { NULL, 0, 0, false, false };
	const char *file = c->o.file;
	char word[64];

	add_word(&b, PROG);
	add_word(&b, "run");
	if (file[0] == '-' && file[1] != '\0') {
		/* given after "--": the same file as ./-NAME */
		char *dot = malloc(strlen(file) + 3);

		if (!dot) {
			free(sb_take(&b));
			return NULL;
		}
		sprintf(dot, "./%s", file);
		add_word(&b, dot);
		free(dot);
	} else {
		add_word(&b, file);
	}
	opts_replay(&c->o, add_word, &b);
	add_word(&b, "--threads");
	add_word(&b, "1");
	snprintf(word, sizeof word, "--schedule=%s:%" PRIu64, jitter ? "jitter" : "seed", seed);
	add_word(&b, word);
	return sb_take(&b);
}

/* ---- the summary ---------------------------------------------------------- */

/* The seeds of the failing runs after `after` (those the table does not
 * list), class by class, consecutive ones as ranges, wrapped. */
static void print_more_seeds(FILE *out, const stress_ctx *sc, uint64_t n, uint64_t after)
{
	fprintf(out, "  and %" PRIu64 " more, by class:\n", n);
	for (unsigned k = 1; k < CLI_NCLASS; k++) {
		size_t col = 0;

		for (size_t i = 0; i < sc->nranges; i++) {
			const seed_range *r = &sc->ranges[i];
			uint64_t first = r->first > after ? r->first : after + 1;
			char item[48];
			int len;

			if (r->cls != (cli_class)k || r->last <= after)
				continue;
			if (first == r->last)
				len = snprintf(item, sizeof item, "%" PRIu64, first);
			else
				len = snprintf(item, sizeof item, "%" PRIu64 "-%" PRIu64,
					       first, r->last);
			if (col == 0) {
				col = (size_t)fprintf(out, "    %s seeds %s",
						     cli_class_name((cli_class)k),
						     item);
			} else if (col + (size_t)len + 2 > 78) {
				fprintf(out, ",\n");
				col = (size_t)fprintf(out, "      %s", item);
			} else {
				col += (size_t)fprintf(out, ", %s", item);
			}
		}
		if (col)
			putc('\n', out);
	}
	if (sc->ranges_oom)
		fprintf(out, "    (out of memory: not every seed is listed)\n");
}

/* The table (on stdout, or on stderr when stdout holds --stats=json). */
static void print_stress_table(FILE *out, const stress_ctx *sc, double seconds)
{
	const run_ctx *c = sc->c;
	size_t shown = sc->nfails < STRESS_FAILS_SHOWN ? sc->nfails
						       : STRESS_FAILS_SHOWN;
	uint64_t failing = sc->runs - sc->count[CLI_CLASS_OK];

	fprintf(out, "stress: kernel %s, grid %" PRIu32 ",%" PRIu32 ",%" PRIu32
	       ", block %" PRIu32 ",%" PRIu32 ",%" PRIu32 ", %" PRIu64
	       " run%s (seeds %" PRIu64 "..%" PRIu64 "%s), %u job%s, %.2f s\n",
	       c->k->name, c->grid.x, c->grid.y, c->grid.z, c->block.x,
	       c->block.y, c->block.z, sc->runs, sc->runs == 1 ? "" : "s",
	       c->first_seed, c->first_seed + (sc->runs - 1),
	       c->jitter ? ", jitter" : "", sc->jobs, sc->jobs == 1 ? "" : "s",
	       seconds);
	for (unsigned k = 0; k < CLI_NCLASS; k++)
		fprintf(out, "  %-10s %10" PRIu64 "\n", cli_class_name((cli_class)k),
		       sc->count[k]);
	if (OPT(c, CHECK)) {
		fprintf(out, "  check: %" PRIu64 " hazard%s in %" PRIu64 " run%s\n",
		       sc->warnings, sc->warnings == 1 ? "" : "s",
		       sc->warned_runs, sc->warned_runs == 1 ? "" : "s");
		if (sc->warned_runs)
			fprintf(out, "    first (seed %" PRIu64 "): %s\n",
			       sc->warned_seed, sc->warning);
	}
	if (failing == 0)
		return;
	fprintf(out, "failing runs%s:\n", c->jitter ? " (jitter: real thread timing, "
	       "not replayable exactly)" : "");
	for (size_t i = 0; i < shown; i++) {
		const stress_fail *f = &sc->fails[i];
		char *cmd = replay_command(c, f->seed, c->jitter);
		char *exact = c->jitter && f->replayed && f->replay_cls == f->cls
			      ? replay_command(c, f->seed, false) : NULL;

		fprintf(out, "  seed %" PRIu64 ": %s: %s\n", f->seed,
		       cli_class_name(f->cls), f->reason);
		if (!c->jitter) {
			fprintf(out, "    replay: %s\n", cmd ? cmd : "(out of memory)");
		} else {
			fprintf(out, "    rerun: %s\n", cmd ? cmd : "(out of memory)");
			if (f->replayed && f->replay_cls == f->cls)
				fprintf(out, "    seeded replay (also %s, exact): %s\n",
				       cli_class_name(f->cls),
				       exact ? exact : "(out of memory)");
			else if (f->replayed)
				fprintf(out, "    no exact replay: its seeded schedule "
				       "gives %s\n", cli_class_name(f->replay_cls));
		}
		free(cmd);
		free(exact);
	}
	if (failing > shown)
		print_more_seeds(out, sc, failing - shown,
				 shown ? sc->fails[shown - 1].seed : 0);
}

/* A replay command as a member (null when out of memory). */
static void json_command(jw *w, const char *key, char *cmd)
{
	if (cmd)
		jw_str(w, key, cmd);
	else
		jw_null(w, key);
	free(cmd);
}

/* The warpemu.stress/1 document (doc/json.md). */
static void print_stress_json(const stress_ctx *sc, double seconds)
{
	const run_ctx *c = sc->c;
	jw w;

	json_head(&w, "warpemu.stress/1", c);
	jw_u64(&w, "runs", sc->runs);
	jw_u64(&w, "first_seed", c->first_seed);
	jw_u64(&w, "jobs", sc->jobs);
	jw_num(&w, "seconds", seconds, true);
	for (unsigned k = 0; k < CLI_NCLASS; k++)
		jw_u64(&w, cli_class_name((cli_class)k), sc->count[k]);
	jw_bool(&w, "jitter", c->jitter);
	jw_u64(&w, "warnings", sc->warnings);
	if (sc->ref)
		jw_u64(&w, "reference_seed", sc->ref_seed);
	else
		jw_null(&w, "reference_seed");
	jw_array(&w, "failures");
	for (size_t i = 0; i < sc->nfails; i++) {
		const stress_fail *f = &sc->fails[i];
		bool exact = !c->jitter || (f->replayed && f->replay_cls == f->cls);

		jw_object(&w, NULL);
		jw_u64(&w, "seed", f->seed);
		jw_str(&w, "class", cli_class_name(f->cls));
		jw_str(&w, "reason", f->reason);
		json_command(&w, "replay", exact ? replay_command(c, f->seed, false) : NULL);
		if (c->jitter) {
			json_command(&w, "rerun", replay_command(c, f->seed, true));
			if (f->replayed)
				jw_str(&w, "seeded_class", cli_class_name(f->replay_cls));
		}
		jw_end(&w);
	}
	jw_end(&w);
	jw_u64(&w, "failures_not_listed", sc->runs - sc->count[CLI_CLASS_OK] - sc->nfails);
	jw_array(&w, "failing_seeds");
	for (size_t i = 0; i < sc->nranges; i++) {
		jw_object(&w, NULL);
		jw_str(&w, "class", cli_class_name(sc->ranges[i].cls));
		jw_u64(&w, "first", sc->ranges[i].first);
		jw_u64(&w, "last", sc->ranges[i].last);
		jw_end(&w);
	}
	jw_end(&w);
	jw_bool(&w, "failing_seeds_complete", !sc->ranges_oom);
	jw_end(&w);
	putchar('\n');
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)CLI_JOBS_MAX ? CLI_JOBS_MAX : (unsigned)n;
}

static int stress_alloc(stress_ctx *sc, const run_ctx *c)
{
	uint64_t kept = c->runs < STRESS_FAILS_KEPT ? c->runs
						    : STRESS_FAILS_KEPT;

	memset(sc, 0, sizeof *sc);
	sc->c = c;
	sc->first = c->first_seed;
	sc->runs = c->runs;
	sc->jobs = c->jobs ? c->jobs : online_cpus();
	if (sc->jobs > sc->runs)
		sc->jobs = (unsigned)sc->runs;
	sc->nwin = (size_t)sc->jobs * STRESS_WINDOW_PER_JOB;
	sc->progress = !OPT(c, QUIET) && isatty(STDERR_FILENO);
	sc->win = calloc(sc->nwin, sizeof *sc->win);
	sc->fails = calloc((size_t)kept, sizeof *sc->fails);
	if (sc->win && sc->fails)
		return CLI_EXIT_OK;
	free(sc->win);
	free(sc->fails);
	return nomem("stress");
}

/* Start the jobs (fn) and wait for them; 0 or the exit status of an
 * error that stopped them (message printed). */
static int stress_jobs(stress_ctx *sc, void *(*fn)(void *))
{
	pthread_t *tids = calloc(sc->jobs, sizeof *tids);
	unsigned started = 0;
	int e;

	if (!tids)
		return nomem("stress jobs");
	for (; started < sc->jobs; started++) {
		e = pthread_create(&tids[started], NULL, fn, sc);
		if (e == 0)
			continue;
		stress_lock(sc);
		if (!sc->fatal) {
			sc->fatal = CLI_EXIT_INTERNAL;
			snprintf(sc->fatal_msg, sizeof sc->fatal_msg, "cannot "
				 "start stress job %u: %s", started, strerror(e));
		}
		sc->stop = true;
		stress_wake(sc);
		stress_unlock(sc);
		break;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_ok(pthread_join(tids[i], NULL), "pthread_join");
	free(tids);
	if (sc->progress_shown)
		stress_progress(sc, true);
	if (sc->fatal && sc->fatal_msg[0])
		return errorf(sc->fatal, "stress: %s", sc->fatal_msg);
	if (sc->fatal)
		return sc->fatal;   /* interrupted: main reports it */
	return CLI_EXIT_OK;
}

/* ---- over the ranks of mpirun (doc/distributed.md) ------------------------ */

/* Under mpirun each rank runs a contiguous range of the seeds.  The
 * reference is the first ok run of the whole range: each rank runs its
 * seeds in order up to its first ok one (usually its first), the lowest
 * rank that found one sends its buffers to every rank, and the ranks go
 * on comparing with them, so each run gets the verdict it gets alone.
 * 0, or the exit status of an error (printed). */
static int stress_ranks_begin(stress_ctx *sc)
{
	const run_ctx *c = sc->c;
	const cli_dist *d = c->dist;
	const uint64_t lo = c->runs * (uint64_t)d->rank / (uint64_t)d->size;
	const uint64_t n = c->runs * (uint64_t)(d->rank + 1) / (uint64_t)d->size - lo;
	stress_run first_ok;
	char msg[sizeof sc->fatal_msg] = "";
	bool have = false;
	uint64_t k = 0;
	int rc = CLI_EXIT_OK;

	sc->first = c->first_seed + lo;
	for (; k < n && !have && !rc; k++) {
		stress_run r;

		memset(&r, 0, sizeof r);
		r.seed = sc->first + k;
		rc = stress_one(c, &r, c->jitter, msg, sizeof msg);
		if (rc) {
			free_bufs(r.bufs, c->nslots);
			if (msg[0])
				errorf(rc, "stress: %s", msg);
			break;
		}
		sc->completed++;
		if (r.cls == CLI_CLASS_OK) {
			first_ok = r;
			have = true;
		} else {
			sc->failing++;
			stress_settle(sc, &r);
		}
	}
	const int root = cli_dist_lowest(d, have);
	if (root >= 0) {
		sc->ref = calloc_n(c->nslots, sizeof *sc->ref);
		for (unsigned i = 0; sc->ref && i < c->nslots; i++) {
			const size_t bytes = (size_t)c->slots[i].c.bytes;

			if (!c->slots[i].buffer)
				continue;
			if (!(sc->ref[i] = malloc(bytes ? bytes : 1)))
				abort(); /* (every rank must receive the broadcast) */
			if (d->rank == root)
				memcpy(sc->ref[i], first_ok.bufs[i], bytes);
			cli_dist_bcast(d, root, sc->ref[i], bytes);
		}
		if (!sc->ref)
			abort();
		sc->ref_seed = have ? first_ok.seed : 0;
		cli_dist_bcast(d, root, &sc->ref_seed, sizeof sc->ref_seed);
	}
	if (have) /* compared with the reference like any later run */
		stress_settle(sc, &first_ok);
	sc->first += k;
	sc->runs = rc ? 0 : n - k;
	return rc;
}

/* One rank's outcome, for rank 0: this, then its failures and ranges. */
typedef struct stress_part {
	uint64_t count[CLI_NCLASS];
	uint64_t failing, warnings, warned_runs, warned_seed, nfails, nranges;
	int32_t fatal, ranges_oom;
	char warning[REASON_TEXT];
} stress_part;

/* Rank 0: add rank's part p (its failures f, ranges g) to sc. */
static void stress_add_part(stress_ctx *sc, const stress_part *p, const stress_fail *f, const seed_range *g)
{
	const uint64_t kept = sc->c->runs < STRESS_FAILS_KEPT ? sc->c->runs : STRESS_FAILS_KEPT;

	for (unsigned k = 0; k < CLI_NCLASS; k++)
		sc->count[k] += p->count[k];
	sc->failing += p->failing;
	sc->warnings += p->warnings;
	if (!sc->warned_runs && p->warned_runs) {
		sc->warned_seed = p->warned_seed;
		memcpy(sc->warning, p->warning, sizeof sc->warning);
	}
	sc->warned_runs += p->warned_runs;
	for (uint64_t i = 0; i < p->nfails && sc->nfails < kept; i++)
		sc->fails[sc->nfails++] = f[i];
	for (uint64_t i = 0; i < p->nranges; i++) {
		seed_range *last = sc->nranges ? &sc->ranges[sc->nranges - 1] : NULL;

		if (last && last->cls == g[i].cls && last->last + 1 == g[i].first) {
			last->last = g[i].last;
			continue;
		}
		stress_range_add(sc, g[i].first, g[i].cls);
		if (sc->nranges)
			sc->ranges[sc->nranges - 1].last = g[i].last;
	}
	sc->ranges_oom |= p->ranges_oom != 0;
	sc->fatal = worse(sc->fatal, p->fatal);
}

/* After every rank ran its seeds (rc its outcome): rank 0 gathers the
 * verdicts of all, in seed order, as one stress run's.  Rank 0's status. */
static int stress_ranks_end(stress_ctx *sc, int rc)
{
	stress_part p;
	size_t n = sizeof p + sc->nfails * sizeof *sc->fails + sc->nranges * sizeof *sc->ranges, *lens;
	uint8_t *mine = malloc(n), *all;

	memset(&p, 0, sizeof p);
	memcpy(p.count, sc->count, sizeof p.count);
	p.failing = sc->failing;
	p.warnings = sc->warnings;
	p.warned_runs = sc->warned_runs;
	p.warned_seed = sc->warned_seed;
	memcpy(p.warning, sc->warning, sizeof p.warning);
	p.nfails = mine ? sc->nfails : 0;
	p.nranges = mine ? sc->nranges : 0;
	p.ranges_oom = sc->ranges_oom || !mine;
	p.fatal = rc;
	if (mine) {
		memcpy(mine, &p, sizeof p);
		memcpy(mine + sizeof p, sc->fails, sc->nfails * sizeof *sc->fails);
		memcpy(mine + sizeof p + sc->nfails * sizeof *sc->fails, sc->ranges,
		       sc->nranges * sizeof *sc->ranges);
	}
	cli_dist_gather(sc->c->dist, mine ? (void *)mine : (void *)&p, mine ? n : sizeof p, &all, &lens);
	free(mine);
	if (sc->c->dist->rank != 0)
		return rc;
	if (!all)
		return worse(rc, nomem("stress: the ranks' verdicts"));
	memset(sc->count, 0, sizeof sc->count);
	sc->failing = sc->warnings = sc->warned_runs = 0;
	sc->nfails = sc->nranges = 0;
	sc->fatal = 0;
	for (size_t at = 0, r = 0; r < (size_t)sc->c->dist->size; at += lens[r++]) {
		memcpy(&p, all + at, sizeof p);
		const stress_fail *f = (const stress_fail *)(all + at + sizeof p);
		const seed_range *g = (const seed_range *)(all + at + sizeof p + p.nfails * sizeof *f);

		stress_add_part(sc, &p, f, g);
	}
	free(all);
	free(lens);
	sc->runs = sc->c->runs;
	return sc->fatal;
}

static int stress_main(const run_ctx *c)
{
	stress_ctx sc;
	double t0, seconds;
	int rc = stress_alloc(&sc, c), e;

	if (rc)
		return rc;
	if ((e = pthread_mutex_init(&sc.lock, NULL)) != 0) {
		rc = errorf(CLI_EXIT_INTERNAL, "pthread_mutex_init: %s",
			    strerror(e));
	} else if ((e = pthread_cond_init(&sc.cv, NULL)) != 0) {
		rc = errorf(CLI_EXIT_INTERNAL, "pthread_cond_init: %s",
			    strerror(e));
		if ((e = pthread_mutex_destroy(&sc.lock)) != 0)
			errorf(CLI_EXIT_INTERNAL, "pthread_mutex_destroy: %s",
			       strerror(e));
	} else {
		t0 = now_s();
		if (cli_dist_on(c->dist))
			rc = stress_ranks_begin(&sc);
		if (rc == CLI_EXIT_OK && sc.runs)
			rc = stress_jobs(&sc, stress_job);
		if (rc == CLI_EXIT_OK && c->jitter && sc.nfails)
			rc = stress_jobs(&sc, stress_replay_job);
		if (cli_dist_on(c->dist))
			rc = stress_ranks_end(&sc, rc);
		seconds = now_s() - t0;
		if (rc == CLI_EXIT_OK && c->dist->rank == 0) {
			if (!OPT(c, QUIET))
				print_stress_table(c->json ? stderr : stdout, &sc, seconds);
			if (c->json)
				print_stress_json(&sc, seconds);
			rc = cli_stress_exit(sc.count);
		}
		if ((e = pthread_cond_destroy(&sc.cv)) != 0)
			rc = worse(rc, errorf(CLI_EXIT_INTERNAL,
					      "pthread_cond_destroy: %s",
					      strerror(e)));
		if ((e = pthread_mutex_destroy(&sc.lock)) != 0)
			rc = worse(rc, errorf(CLI_EXIT_INTERNAL,
					      "pthread_mutex_destroy: %s",
					      strerror(e)));
	}
	for (size_t i = 0; i < sc.nwin; i++)
		free_bufs(sc.win[i].bufs, c->nslots);
	free_bufs(sc.ref, c->nslots);
	free(sc.win);
	free(sc.fails);
	free(sc.ranges);
	return rc;
}

int cmd_stress(cli_intr *intr, cli_dist *dist, int argc, char **argv)
{
	run_ctx c;
	bool help;
	int rc;

	/* under mpirun the ranks share the seeds; rank 0 speaks (dist.h) */
	cli_dist_hold(dist);
	rc = cli_dist_agree(dist, run_prepare(&c, true, intr, dist, argc, argv, &help));
	if (rc == CLI_EXIT_OK && !help)
		rc = stress_main(&c);
	return run_free(&c, cli_dist_final(dist, rc));
}
