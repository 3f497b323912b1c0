/* results.c — what run reports after a launch: the summary, --out files,
 * --print values, --expect checks and the --stats=json object.
 */
#include "cli/run.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRINT_COLUMN_MIN 16   /* buffers up to this many values: one a line */
#define PRINT_PER_ROW 8

static double rate(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
}

/* The disk cache's entry of the launch's kernel (we_launch_stats
 * .jit_cache_key) in path; false when it has none. */
static bool jit_entry(const run_ctx *c, const we_launch_stats *s, char *path, size_t len)
{
	char dir[4096];
	if (!s->jit_cache_key[0] || we_jit_cache_dir(OPT(c, JIT_CACHE), dir, sizeof dir) != WE_OK || !dir[0])
		return false;
	const int n = snprintf(path, len, "%s/%s.wjit", dir, s->jit_cache_key);
	return n > 0 && (size_t)n < len;
}

/* The compiled tier's lines: what was compiled or loaded, and why the
 * disk cache was not used or written. */
static void print_jit(const run_ctx *c, const we_launch_stats *s)
{
	char path[4200];
	const char *cache = s->jit_cache ? s->jit_cache : "unused";
	const bool entry = jit_entry(c, s, path, sizeof path);
	char warp[64] = "";
	if (s->jit_warp_entries)
		snprintf(warp, sizeof warp, " and a warp function of %" PRIu32 " entries", s->jit_warp_entries);
	if (s->jit_blocks && !strcmp(cache, "loaded"))
		fprintf(stderr, PROG ": jit: %" PRIu32 " blocks of %" PRIu32 " instructions%s loaded in %.6f s from "
			"%s\n", s->jit_blocks, s->jit_insns, warp, s->jit_load_seconds, entry ? path : "the disk cache");
	else if (s->jit_blocks)
		fprintf(stderr, PROG ": jit: %" PRIu32 " blocks of %" PRIu32 " instructions%s compiled in %.6f s%s%s\n",
			s->jit_blocks, s->jit_insns, warp, s->jit_seconds,
			entry && !strcmp(cache, "stored") ? ", stored in " : "", entry && !strcmp(cache, "stored") ? path : "");
	if (s->jit_straight_ctas)
		fprintf(stderr, PROG ": jit: %" PRIu64 " of %" PRIu64 " CTAs ran straight (a batch of CTAs through "
			"the blocks, one call per block)\n", s->jit_straight_ctas, s->ctas);
	if (s->jit_cache_note[0])
		fprintf(stderr, PROG ": jit cache: %s\n", s->jit_cache_note);
}

static void print_summary(const run_ctx *c)
{
	const we_launch_stats *s = &c->stats;

	fprintf(stderr, PROG ": kernel %s, grid %" PRIu32 ",%" PRIu32 ",%" PRIu32 ", block %" PRIu32
		",%" PRIu32 ",%" PRIu32 "\n", c->k->name, c->grid.x, c->grid.y, c->grid.z,
		c->block.x, c->block.y, c->block.z);
	fprintf(stderr, PROG ": %" PRIu64 " CTAs, %" PRIu64 " warp-instructions, %" PRIu64
		" thread-instructions, %" PRIu64 " barriers\n", s->ctas, s->warp_insns,
		s->thread_insns, s->barriers);
	fprintf(stderr, PROG ": %.6f s, %.1f CTAs/s, %.1f warp-instr/s\n", s->seconds,
		rate(s->ctas, s->seconds), rate(s->warp_insns, s->seconds));
	print_jit(c, s);
	for (int r = 0; c->ranks && r < c->nranks; r++)
		fprintf(stderr, PROG ": rank %d: CTAs %" PRIu64 "..%" PRIu64 ", %.6f s, %" PRIu64
			" bytes merged%s\n", r, c->ranks[r].first_cta, c->ranks[r].first_cta + c->ranks[r].ctas,
			c->ranks[r].seconds, c->ranks[r].bytes_merged, r ? "" : " (its own result)");
	if (c->ranks)
		fprintf(stderr, PROG ": merged on rank 0 in %.6f s\n", c->merge_seconds);
}

/* Under mpirun with several ranks: each rank's part (doc/json.md). */
static void json_ranks(jw *w, const run_ctx *c)
{
	if (!c->ranks)
		return;
	jw_num(w, "merge_seconds", c->merge_seconds, true);
	jw_array(w, "ranks");
	for (int r = 0; r < c->nranks; r++) {
		jw_object(w, NULL);
		jw_int(w, "rank", r);
		jw_u64(w, "first_cta", c->ranks[r].first_cta);
		jw_u64(w, "ctas", c->ranks[r].ctas);
		jw_u64(w, "warp_instructions", c->ranks[r].warp_insns);
		jw_num(w, "seconds", c->ranks[r].seconds, true);
		jw_u64(w, "bytes_merged", c->ranks[r].bytes_merged);
		jw_end(w);
	}
	jw_end(w);
}

/* A buffer read back chunk by chunk, so that the host never holds it
 * whole. */
typedef struct reader {
	run_ctx *c;
	unsigned slot;
	uint64_t pos, end;
	uint8_t *buf;
} reader;

static int reader_open(reader *r, run_ctx *c, unsigned slot, uint64_t end)
{
	r->c = c;
	r->slot = slot;
	r->pos = 0;
	r->end = end;
	r->buf = malloc(end < CLI_CHUNK ? (size_t)(end ? end : 1) : CLI_CHUNK);
	return r->buf ? CLI_EXIT_OK : nomem("buffer read-back");
}

/* The next chunk (*n bytes, 0 at the end): 0 or an exit status. */
static int reader_next(reader *r, size_t *n)
{
	we_status st;

	*n = r->end - r->pos < CLI_CHUNK ? (size_t)(r->end - r->pos) : CLI_CHUNK;
	if (*n == 0)
		return CLI_EXIT_OK;
	st = we_memcpy_dtoh(r->c->dev, r->buf, r->c->slots[r->slot].ptr + r->pos, *n);
	if (st != WE_OK)
		return api_err(r->c->dev, st);
	r->pos += *n;
	return CLI_EXIT_OK;
}

static int write_out(run_ctx *c, const out_req *o)
{
	reader r;
	out_stream s;
	size_t n = 1;
	int rc = reader_open(&r, c, o->slot, c->slots[o->slot].c.bytes);

	if (rc == CLI_EXIT_OK && (rc = stream_open(&s, o->a.value)) == CLI_EXIT_OK) {
		while (rc == CLI_EXIT_OK && n && (rc = reader_next(&r, &n)) == CLI_EXIT_OK)
			stream_write(&s, r.buf, n);
		rc = worse(rc, stream_close(&s, rc == CLI_EXIT_OK));
	}
	free(r.buf);
	return rc;
}

static int print_buffer(run_ctx *c, const print_req *p)
{
	size_t size = cli_elem_size(p->p.type), n = 1;
	bool rows = p->p.count > PRINT_COLUMN_MIN;
	char val[VALUE_TEXT];
	uint64_t i = 0;
	reader r;
	int rc = reader_open(&r, c, p->slot, p->p.count * size);

	printf("# %.*s: %" PRIu64 " x %s\n", (int)p->p.namelen, p->p.name, p->p.count,
	       cli_elem_type_name(p->p.type));
	while (rc == CLI_EXIT_OK && n && (rc = reader_next(&r, &n)) == CLI_EXIT_OK) {
		for (size_t at = 0; at < n; at += size, i++) {
			cli_format_elem(p->p.type, cli_load_elem(p->p.type, r.buf + at), val, sizeof val);
			if (!rows)
				printf("%s\n", val);
			else if (i % PRINT_PER_ROW == 0)
				printf("%s%8" PRIu64 ": %s", i ? "\n" : "", i, val);
			else
				printf(" %s", val);
		}
	}
	if (rows)
		putchar('\n');
	free(r.buf);
	return rc;
}

/* Compare buffer and expected data chunk by chunk: x->bad mismatches,
 * the first MISMATCHES_SHOWN in x->m. */
static int compare(run_ctx *c, expect_req *x)
{
	size_t size = cli_elem_size(x->c.spec.type), n = 1;
	feed f = { &x->c, &x->c, 0, c->intr };
	uint8_t *exp = malloc(x->c.bytes < CLI_CHUNK ? (size_t)(x->c.bytes ? x->c.bytes : 1)
			      : CLI_CHUNK);
	reader r;
	cli_err e;
	int rc = exp ? reader_open(&r, c, x->slot, x->c.bytes) : nomem("expected data");

	x->count = x->c.bytes / size;
	x->bad = 0;
	while (exp && rc == CLI_EXIT_OK && n && (rc = reader_next(&r, &n)) == CLI_EXIT_OK && n) {
		size_t shown = x->bad < MISMATCHES_SHOWN ? (size_t)x->bad : MISMATCHES_SHOWN;
		uint64_t first = (r.pos - n) / size, bad;

		if ((rc = feed_next(&f, exp, n, &e)) != 0) {
			if (e.msg[0])
				errorf(rc, "--expect %.*s: %s", (int)x->a.namelen, x->a.name, e.msg);
			break;
		}
		bad = cli_compare(x->c.spec.type, r.buf, exp, n / size, x->c.spec.tol, x->m + shown,
				  MISMATCHES_SHOWN - shown);
		for (size_t k = shown; k < MISMATCHES_SHOWN && k < shown + bad; k++)
			x->m[k].index += first;
		x->bad += bad;
	}
	if (exp)
		free(r.buf);
	free(exp);
	return rc;
}

/* The check's lines: on stdout, or on stderr when stdout holds the
 * --stats=json document (which has the check too). */
static int check_buffer(run_ctx *c, expect_req *x)
{
	FILE *out = c->json ? stderr : stdout;
	char got[VALUE_TEXT], exp[VALUE_TEXT];
	uint64_t shown;
	int rc = compare(c, x);

	if (rc)
		return rc;
	x->checked = true;
	if (x->bad == 0) {
		fprintf(out, "check %.*s: OK (%" PRIu64 " elements)\n", (int)x->a.namelen, x->a.name,
			x->count);
		return CLI_EXIT_OK;
	}
	fprintf(out, "check %.*s: FAILED, %" PRIu64 " of %" PRIu64 " elements differ\n",
		(int)x->a.namelen, x->a.name, x->bad, x->count);
	shown = x->bad < MISMATCHES_SHOWN ? x->bad : MISMATCHES_SHOWN;
	for (uint64_t i = 0; i < shown; i++) {
		cli_format_elem(x->c.spec.type, x->m[i].got, got, sizeof got);
		cli_format_elem(x->c.spec.type, x->m[i].exp, exp, sizeof exp);
		fprintf(out, "  [%" PRIu64 "] got %s, expected %s\n", x->m[i].index, got, exp);
	}
	if (x->bad > shown)
		fprintf(out, "  ... and %" PRIu64 " more\n", x->bad - shown);
	return CLI_EXIT_CHECK;
}

/* ---- the --stats=json document (warpemu.run/1, doc/json.md) ------------- */

void json_head(jw *w, const char *schema, const run_ctx *c)
{
	jw_begin(w, stdout);
	jw_object(w, NULL);
	jw_str(w, "schema", schema);
	jw_str(w, "kernel", c->k->name);
	jw_dim3(w, "grid", c->grid);
	jw_dim3(w, "block", c->block);
}

static const char *status_name(we_status st)
{
	switch (st) {
	case WE_OK:              return "ok";
	case WE_ERR_EXCEPTION:   return "exception";
	case WE_ERR_DEADLOCK:    return "deadlock";
	case WE_ERR_TIMEOUT:     return "timeout";
	case WE_ERR_INTERRUPTED: return "interrupted";
	default:                 return "error";
	}
}

/* An element: a JSON number, or a string for a float that is none
 * ("nan", "inf", "-inf"). */
static void json_value(jw *w, const char *key, cli_elem_type t, cli_value v)
{
	char text[VALUE_TEXT];

	cli_format_elem(t, v, text, sizeof text);
	if (cli_elem_is_float(t) && !isfinite(v.f))
		jw_str(w, key, text);
	else
		jw_raw(w, key, text, strlen(text));
}

static void json_checks(jw *w, const run_ctx *c)
{
	jw_array(w, "checks");
	for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++) {
		const expect_req *x = &c->expects[i];
		uint64_t shown = x->bad < MISMATCHES_SHOWN ? x->bad : MISMATCHES_SHOWN;

		if (!x->checked)
			continue;
		jw_object(w, NULL);
		jw_strn(w, "buffer", x->a.name, x->a.namelen);
		jw_bool(w, "ok", x->bad == 0);
		jw_u64(w, "elements", x->count);
		jw_u64(w, "mismatches", x->bad);
		jw_array(w, "first");
		for (uint64_t k = 0; k < shown; k++) {
			jw_object(w, NULL);
			jw_u64(w, "index", x->m[k].index);
			json_value(w, "got", x->c.spec.type, x->m[k].got);
			json_value(w, "expected", x->c.spec.type, x->m[k].exp);
			jw_end(w);
		}
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
}

/* The --print buffers, read back chunk by chunk into the document. */
static int json_prints(jw *w, run_ctx *c)
{
	int rc = CLI_EXIT_OK;

	jw_array(w, "prints");
	for (size_t i = 0; i < OPTS(c, PRINT)->n && !rc; i++) {
		const print_req *p = &c->prints[i];
		size_t size = cli_elem_size(p->p.type), n = 1;
		reader r;

		jw_object(w, NULL);
		jw_strn(w, "buffer", p->p.name, p->p.namelen);
		jw_str(w, "type", cli_elem_type_name(p->p.type));
		jw_u64(w, "count", p->p.count);
		jw_array(w, "values");
		rc = reader_open(&r, c, p->slot, p->p.count * size);
		while (rc == CLI_EXIT_OK && n && (rc = reader_next(&r, &n)) == CLI_EXIT_OK)
			for (size_t at = 0; at < n; at += size)
				json_value(w, NULL, p->p.type, cli_load_elem(p->p.type, r.buf + at));
		free(r.buf);
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
	return rc;
}

/* The compiled tier of the launch: "jit": { "state", "blocks",
 * "instructions", "warp_entries", "straight_ctas", "compile_seconds", "cache": { "state", "entry",
 * "load_seconds", "note" } } (doc/json.md). */
static void json_jit(jw *w, const run_ctx *c, const we_launch_stats *s)
{
	char path[4200];
	jw_object(w, "jit");
	jw_str(w, "state", s->jit ? s->jit : "off");
	jw_u64(w, "blocks", s->jit_blocks);
	jw_u64(w, "instructions", s->jit_insns);
	jw_u64(w, "warp_entries", s->jit_warp_entries);
	jw_u64(w, "straight_ctas", s->jit_straight_ctas);
	jw_num(w, "compile_seconds", s->jit_seconds, true);
	jw_object(w, "cache");
	jw_str(w, "state", s->jit_cache ? s->jit_cache : "unused");
	if (jit_entry(c, s, path, sizeof path))
		jw_str(w, "entry", path);
	else
		jw_null(w, "entry");
	jw_num(w, "load_seconds", s->jit_load_seconds, true);
	if (s->jit_cache_note[0])
		jw_str(w, "note", s->jit_cache_note);
	else
		jw_null(w, "note");
	jw_end(w);
	jw_end(w);
}

/* stdout is this one document: the results, the report of a failed
 * launch (with --report=json) and, last, the exit status. */
static int print_document(run_ctx *c, int rc)
{
	const we_launch_stats *s = &c->stats;
	const char *report = we_last_report_json(c->dev);
	bool timed = s->seconds > 0;
	jw w;

	json_head(&w, "warpemu.run/1", c);
	jw_str(&w, "status", status_name(c->launch_status));
	jw_u64(&w, "ctas", s->ctas);
	jw_u64(&w, "warp_instructions", s->warp_insns);
	jw_u64(&w, "thread_instructions", s->thread_insns);
	jw_u64(&w, "barriers", s->barriers);
	jw_num(&w, "seconds", s->seconds, true);
	jw_num(&w, "ctas_per_second", rate(s->ctas, s->seconds), timed);
	jw_num(&w, "warp_instructions_per_second", rate(s->warp_insns, s->seconds), timed);
	jw_u64(&w, "warnings", s->warnings);
	if (c->seeded)
		jw_u64(&w, "schedule_seed", c->seed);
	else
		jw_null(&w, "schedule_seed");
	if (c->jitter)
		jw_u64(&w, "jitter_seed", c->seed);
	jw_bool(&w, "outputs_at_stop", c->outs_at_stop);
	json_ranks(&w, c);
	json_checks(&w, c);
	if (c->launch_status == WE_OK) {
		rc = worse(rc, json_prints(&w, c));
	} else {
		jw_array(&w, "prints");
		jw_end(&w);
	}
	if (c->report == CLI_REPORT_JSON && is_verdict(c->launch_status) && *report)
		jw_raw(&w, "report", report, strcspn(report, "\n"));
	else
		jw_null(&w, "report");
	if (OPT(c, PROFILE) && *we_last_profile_json(c->dev))
		jw_raw(&w, "profile", we_last_profile_json(c->dev), strlen(we_last_profile_json(c->dev)));
	else
		jw_null(&w, "profile");
	json_jit(&w, c, s);
	jw_int(&w, "exit_status", rc);
	jw_end(&w);
	putchar('\n');
	return rc;
}

/* After the launch (rc its outcome): the summary, --out, --print and
 * --expect when it succeeded, then the --stats=json document. */
int run_results(run_ctx *c, int rc)
{
	if (rc == CLI_EXIT_OK) {
		if (!OPT(c, QUIET))
			print_summary(c);
		for (size_t i = 0; i < OPTS(c, OUT)->n; i++)
			rc = worse(rc, write_out(c, &c->outs[i]));
		for (size_t i = 0; i < OPTS(c, PRINT)->n && !c->json; i++)
			rc = worse(rc, print_buffer(c, &c->prints[i]));
		for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++)
			rc = worse(rc, check_buffer(c, &c->expects[i]));
	} else if (is_verdict(c->launch_status) && OPTS(c, OUT)->n) {
		/* the memory image where the launch stopped, to be looked at;
		 * the exit status stays the launch's */
		for (size_t i = 0; i < OPTS(c, OUT)->n; i++)
			rc = worse(rc, write_out(c, &c->outs[i]));
		c->outs_at_stop = true;
		if (!OPT(c, QUIET))
			fprintf(stderr, PROG ": --out: wrote the buffers as they were when the launch stopped\n");
	}
	return c->json ? print_document(c, rc) : rc;
}
