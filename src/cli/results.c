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
}

void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

void json_number(const char *key, double v, bool valid)
{
	if (valid && isfinite(v))
		printf(",\"%s\":%.9g", key, v);
	else
		printf(",\"%s\":null", key);
}

static void print_json(const run_ctx *c)
{
	const we_launch_stats *s = &c->stats;
	bool timed = s->seconds > 0;

	fputs("{\"kernel\":", stdout);
	json_string(c->k->name);
	printf(",\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", c->grid.x, c->grid.y, c->grid.z);
	printf(",\"block\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", c->block.x, c->block.y,
	       c->block.z);
	printf(",\"ctas\":%" PRIu64 ",\"warp_instructions\":%" PRIu64 ",\"thread_instructions\":%"
	       PRIu64 ",\"barriers\":%" PRIu64, s->ctas, s->warp_insns, s->thread_insns, s->barriers);
	json_number("seconds", s->seconds, true);
	json_number("ctas_per_second", rate(s->ctas, s->seconds), timed);
	json_number("warp_instructions_per_second", rate(s->warp_insns, s->seconds), timed);
	printf(",\"warnings\":%" PRIu64, s->warnings);
	if (c->seeded)
		printf(",\"schedule_seed\":%" PRIu64, c->seed);
	else
		fputs(",\"schedule_seed\":null", stdout);
	if (c->jitter)
		printf(",\"jitter_seed\":%" PRIu64, c->seed);
	fputs("}\n", stdout);
}

/* Read a buffer back once; later requests reuse the copy. */
static int fetch_result(run_ctx *c, unsigned i)
{
	param_slot *s = &c->slots[i];
	we_status st;

	if (s->result)
		return CLI_EXIT_OK;
	s->result = malloc(s->bytes ? (size_t)s->bytes : 1);
	if (!s->result)
		return nomem("buffer read-back");
	if (s->bytes == 0)
		return CLI_EXIT_OK;
	st = we_memcpy_dtoh(c->dev, s->result, s->ptr, (size_t)s->bytes);
	if (st == WE_OK)
		return CLI_EXIT_OK;
	free(s->result);
	s->result = NULL;
	return api_err(c->dev, st);
}

static int write_out(run_ctx *c, const out_req *r)
{
	int rc = fetch_result(c, r->slot);

	if (rc)
		return rc;
	return write_file_atomic(r->a.value, c->slots[r->slot].result,
				 (size_t)c->slots[r->slot].bytes);
}

static void print_values(const print_req *r, const uint8_t *p)
{
	size_t size = cli_elem_size(r->p.type);
	bool rows = r->p.count > PRINT_COLUMN_MIN;
	char buf[VALUE_TEXT];

	printf("# %.*s: %" PRIu64 " x %s\n", (int)r->p.namelen, r->p.name, r->p.count,
	       cli_elem_type_name(r->p.type));
	for (uint64_t i = 0; i < r->p.count; i++) {
		cli_format_elem(r->p.type, cli_load_elem(r->p.type, p + i * size), buf, sizeof buf);
		if (!rows)
			printf("%s\n", buf);
		else if (i % PRINT_PER_ROW == 0)
			printf("%s%8" PRIu64 ": %s", i ? "\n" : "", i, buf);
		else
			printf(" %s", buf);
	}
	if (rows)
		putchar('\n');
}

static int print_buffer(run_ctx *c, const print_req *r)
{
	int rc = fetch_result(c, r->slot);

	if (rc == CLI_EXIT_OK)
		print_values(r, c->slots[r->slot].result);
	return rc;
}

static void report_mismatches(const expect_req *x, const cli_mismatch *m, uint64_t bad,
			      uint64_t count)
{
	char got[VALUE_TEXT], exp[VALUE_TEXT];
	uint64_t shown = bad < MISMATCHES_SHOWN ? bad : MISMATCHES_SHOWN;

	printf("check %.*s: FAILED, %" PRIu64 " of %" PRIu64 " elements differ\n",
	       (int)x->a.namelen, x->a.name, bad, count);
	for (uint64_t i = 0; i < shown; i++) {
		cli_format_elem(x->spec.type, m[i].got, got, sizeof got);
		cli_format_elem(x->spec.type, m[i].exp, exp, sizeof exp);
		printf("  [%" PRIu64 "] got %s, expected %s\n", m[i].index, got, exp);
	}
	if (bad > shown)
		printf("  ... and %" PRIu64 " more\n", bad - shown);
}

static int check_buffer(run_ctx *c, const expect_req *x)
{
	cli_mismatch m[MISMATCHES_SHOWN];
	uint64_t count = x->bytes / cli_elem_size(x->spec.type), bad;
	int rc = fetch_result(c, x->slot);

	if (rc)
		return rc;
	bad = cli_compare(x->spec.type, c->slots[x->slot].result, x->data, count, x->spec.tol, m,
			  MISMATCHES_SHOWN);
	if (bad == 0) {
		printf("check %.*s: OK (%" PRIu64 " elements)\n", (int)x->a.namelen, x->a.name,
		       count);
		return CLI_EXIT_OK;
	}
	report_mismatches(x, m, bad, count);
	return CLI_EXIT_CHECK;
}

int run_results(run_ctx *c)
{
	int rc = CLI_EXIT_OK;

	if (!OPT(c, QUIET))
		print_summary(c);
	for (size_t i = 0; i < OPTS(c, OUT)->n; i++)
		rc = worse(rc, write_out(c, &c->outs[i]));
	for (size_t i = 0; i < OPTS(c, PRINT)->n; i++)
		rc = worse(rc, print_buffer(c, &c->prints[i]));
	for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++)
		rc = worse(rc, check_buffer(c, &c->expects[i]));
	if (c->json)
		print_json(c);
	return rc;
}
