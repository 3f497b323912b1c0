/* test_harness — the harness every test program shares (tests/harness.h)
 * and the list of engines (tests/engines.h): what the other suites rely
 * on when they compare launches.
 *
 *   engine_list       every engine of the list is a named engine of the
 *                     API, once, and we_device_describe() writes the
 *                     words the list gives before its thread count;
 *   configs           th_configs() gives each engine's defaults, lockstep
 *                     1 and the group settings exactly where the flags
 *                     say, and th_config_apply() sets only its fields;
 *   runs              th_run_launch() restores every buffer before a
 *                     launch and records all of them, th_view() finds one;
 *   run_diff          th_run_diff() finds every kind of difference it is
 *                     asked for, and none it is not asked for;
 *   sources_and_rng   th_read_source() and the splitmix64 stream.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

START_TEST(engine_list)
{
	we_device *dev;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const th_engine *g = &th_engines[e];
		CHECK(g->id != WE_ENGINE_DEFAULT, "entry %zu: the default engine is not an engine of its own", e);
		CHECK(strcmp(we_engine_name(g->id), "unknown") && !strcmp(th_name(e), we_engine_name(g->id)),
		      "entry %zu: engine %d has no name", e, (int)g->id);
		CHECK(!(g->flags & ~(TH_GROUPS | TH_THREAD_PER_WARP | TH_JITTER)), "%s: unknown flags 0x%x",
		      th_name(e), g->flags);
		CHECK(th_engine_of(g->id) == g && th_engine_has(g->id, g->flags), "%s: listed twice", th_name(e));
		char *s = NULL;
		ck_assert_int_eq(we_device_describe(dev, g->id, WE_PLACE_COMPACT, th_dim1(32), &s), WE_OK);
		const char *p = strstr(s, g->describe_threads);
		CHECK(p && p[strlen(g->describe_threads)] >= '1' && p[strlen(g->describe_threads)] <= '9',
		      "%s: '%s' and a thread count not in:\n%s", th_name(e), g->describe_threads, s);
		free(s);
	}
	CHECK(th_engine_of(WE_ENGINE_DEFAULT) == NULL && !th_engine_has(WE_ENGINE_DEFAULT, 0),
	      "the default engine is in the list");
	we_device_destroy(dev);
}
END_TEST

/* The configurations of one engine in th_configs(): defaults, then
 * lockstep 1, then th_groups[], each where the sets and flags ask. */
static void check_engine_configs(const th_config *c, size_t n, size_t *i, size_t e, unsigned sets)
{
	const th_engine *g = &th_engines[e];
	const bool groups = (g->flags & TH_GROUPS) != 0;
	char want[80];
	if (sets & TH_DEFAULTS) {
		CHECK(*i < n && c[*i].eng == g && !c[*i].lockstep && !c[*i].batch && !c[*i].threads &&
			      !strcmp(c[*i].name, th_name(e)),
		      "sets %u: %s: no defaults at %zu", sets, th_name(e), *i);
		(*i)++;
	}
	if (groups && (sets & TH_UNGROUPED)) {
		snprintf(want, sizeof want, "%s, lockstep 1", th_name(e));
		CHECK(*i < n && c[*i].eng == g && c[*i].lockstep == 1 && !c[*i].batch && !c[*i].threads &&
			      !strcmp(c[*i].name, want),
		      "sets %u: %s: no lockstep 1 at %zu", sets, th_name(e), *i);
		(*i)++;
	}
	for (size_t k = 0; groups && (sets & TH_GROUPED) && k < TH_NGROUPS; k++) {
		snprintf(want, sizeof want, "%s, %s", th_name(e), th_groups[k].name);
		CHECK(*i < n && c[*i].eng == g && c[*i].lockstep == th_groups[k].lockstep &&
			      c[*i].batch == th_groups[k].batch && c[*i].threads == th_groups[k].threads &&
			      !strcmp(c[*i].name, want),
		      "sets %u: %s: no '%s' at %zu", sets, th_name(e), th_groups[k].name, *i);
		(*i)++;
	}
	for (size_t k = 0; groups && (sets & TH_COMPILED) && we_jit_available() && k < TH_NCOMPILED; k++) {
		const struct th_group *tg = &th_groups[th_compiled[k].group];
		const bool st = th_compiled[k].streaming;
		snprintf(want, sizeof want, "%s, %s, jit on%s", th_name(e), tg->name, st ? ", streaming" : "");
		CHECK(*i < n && c[*i].eng == g && c[*i].lockstep == tg->lockstep && c[*i].batch == tg->batch &&
			      c[*i].threads == tg->threads && c[*i].jit == WE_JIT_ON &&
			      c[*i].stream_min == (st ? 1 : UINT64_MAX) && !strcmp(c[*i].name, want),
		      "sets %u: %s: no '%s, jit on' at %zu", sets, th_name(e), tg->name, *i);
		(*i)++;
	}
}

START_TEST(configs)
{
	static const unsigned needs[] = { 0, TH_GROUPS, TH_THREAD_PER_WARP, TH_JITTER, TH_GROUPS | TH_JITTER };
	size_t groupers = 0;
	for (size_t e = 0; e < TH_NENGINES; e++)
		groupers += (th_engines[e].flags & TH_GROUPS) != 0;
	CHECK(groupers > 0 && TH_NGROUPS > 0, "no engine forms lockstep groups: test_lockstep compares nothing");
	for (unsigned sets = 0; sets <= (TH_DEFAULTS | TH_UNGROUPED | TH_GROUPED | TH_COMPILED); sets++)
		for (size_t j = 0; j < sizeof needs / sizeof needs[0]; j++) {
			th_config c[TH_MAXCONFIGS + 1];
			memset(c, 0, sizeof c);
			size_t n = th_configs(sets, needs[j], c), i = 0;
			CHECK(n <= TH_MAXCONFIGS && !c[TH_MAXCONFIGS].eng, "sets %u: %zu configurations", sets, n);
			for (size_t e = 0; e < TH_NENGINES; e++)
				if ((th_engines[e].flags & needs[j]) == needs[j])
					check_engine_configs(c, n, &i, e, sets);
			CHECK(i == n, "sets %u, flags %u: %zu configurations, %zu expected", sets, needs[j], n, i);
		}
	th_config c[TH_MAXCONFIGS];
	size_t n = th_configs(TH_DEFAULTS | TH_UNGROUPED | TH_GROUPED | TH_COMPILED, 0, c);
	const size_t compiled = we_jit_available() ? TH_NCOMPILED : 0;
	CHECK(n == TH_NENGINES + groupers * (1 + TH_NGROUPS + compiled), "%zu configurations in all", n);
	for (size_t i = 0; i < n; i++) {
		we_launch_config cfg = { .grid = th_dim3(3, 2, 1), .block = th_dim1(96), .lockstep = 9, .batch = 9,
					 .threads = 9, .max_instructions = 77, .check = true };
		th_config_apply(&cfg, &c[i]);
		CHECK(cfg.engine == c[i].eng->id && cfg.lockstep == c[i].lockstep && cfg.batch == c[i].batch &&
			      cfg.threads == c[i].threads && cfg.jit == c[i].jit,
		      "%s: not applied", c[i].name);
		CHECK(cfg.grid.x == 3 && cfg.grid.y == 2 && cfg.block.x == 96 && cfg.max_instructions == 77 &&
			      cfg.check,
		      "%s: th_config_apply changed more than its fields", c[i].name);
		for (size_t k = 0; k < i; k++)
			CHECK(strcmp(c[i].name, c[k].name), "two configurations named %s", c[i].name);
	}
}
END_TEST

/* io[i] += k (in place) and out[i] = io[i] before, for i < n. */
static const char add_text[] =
	".param ptr io\n"
	".param ptr out\n"
	".param u32 k\n"
	"        S2R R0, SR_TID.X ;\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[2:3], R0, 0x4, R[2:3] ;\n"
	"        MOV R4, c[0x0][0x8] ;\n"
	"        MOV R5, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n"
	"        LDG R6, [R2.64] ;\n"
	"        STG [R4.64], R6 ;\n"
	"        IADD3 R6, R6, c[0x0][0x10], RZ ;\n"
	"        STG [R2.64], R6 ;\n"
	"        EXIT ;\n";

/* t with add_text, io = 100..163 and out 0xa5 bytes, k = 5. */
static void add_load(th_kernel *t)
{
	uint32_t io[64];
	for (uint32_t i = 0; i < 64; i++)
		io[i] = 100 + i;
	th_load(t, add_text, "add.we", NULL);
	th_buf_new(t, "io", io, sizeof io, 0);
	th_buf_new(t, "out", NULL, sizeof io, 0xa5);
	th_u32(t, "k", 5);
}

START_TEST(runs)
{
	th_kernel t;
	add_load(&t);
	ck_assert_uint_eq(t.nb, 2);
	ck_assert_uint_eq(t.total, 512);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		we_launch_config cfg = th_cfg1(th_id(e), 1, 64);
		th_run a, b;
		th_run_launch(&t, &cfg, &a);
		th_run_launch(&t, &cfg, &b);
		th_expect_ok(&a, th_name(e));
		CHECK(!*a.err && !*a.json && a.s.ctas == 1, "%s: report after a success: %s%s", th_name(e), a.err,
		      a.json);
		const uint32_t *io = (const uint32_t *)(void *)th_view(&t, a.mem, "io");
		const uint32_t *out = (const uint32_t *)(void *)th_view(&t, a.mem, "out");
		CHECK((const uint8_t *)out == a.mem + 256, "%s: out is not the second buffer", th_name(e));
		for (uint32_t i = 0; i < 64; i++)
			CHECK(io[i] == 105 + i && out[i] == 100 + i, "%s: io[%u] = %u, out[%u] = %u", th_name(e), i,
			      io[i], i, out[i]);
		/* the second launch started from the same buffers */
		CHECK(!memcmp(a.mem, b.mem, t.total), "%s: th_run_launch did not restore the buffers", th_name(e));
		th_run_free(&a);
		th_run_free(&b);
	}
	/* without th_run, buffers keep what a launch wrote until th_restore */
	we_launch_config cfg = th_cfg1(th_id(0), 1, 64);
	th_restore(&t);
	th_launch_ok(&t, &cfg, NULL, th_name(0));
	th_launch_ok(&t, &cfg, NULL, th_name(0));
	uint32_t io[64];
	th_get(&t, io, t.b[0].d, sizeof io);
	CHECK(io[7] == 117, "io[7] = %u after two launches", io[7]);
	th_restore(&t);
	th_get(&t, io, t.b[0].d, sizeof io);
	CHECK(io[7] == 107, "io[7] = %u after th_restore", io[7]);
	th_close(&t);
}
END_TEST

/* a copy of r */
static th_run run_copy(const th_kernel *t, const th_run *r)
{
	th_run c = *r;
	c.mem = th_xmalloc(t->total);
	memcpy(c.mem, r->mem, t->total);
	c.err = th_xstrdup(r->err);
	c.json = th_xstrdup(r->json);
	c.warn = th_xstrdup(r->warn);
	return c;
}

/* th_run_diff(ref, got, flags) finds a difference with `want` in its
 * message (NULL: finds none). */
static void expect_diff(const th_kernel *t, const th_run *ref, const th_run *got, unsigned flags,
			const char *want, const char *what)
{
	char *d = th_run_diff(t, ref, got, flags, "REF", "GOT");
	if (!want)
		CHECK(d == NULL, "%s: a difference: %s", what, d);
	else
		CHECK(d && strstr(d, want) && !strncmp(d, "GOT: ", 5) && strstr(d, "REF"),
		      "%s: want a difference with '%s', got %s", what, want, d ? d : "none");
	free(d);
}

START_TEST(run_diff)
{
	const unsigned all = TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS | TH_SAME_WARNINGS;
	th_kernel t;
	add_load(&t);
	we_launch_config cfg = th_cfg1(th_id(0), 1, 64);
	th_run ref;
	th_run_launch(&t, &cfg, &ref);
	th_expect_ok(&ref, "ref");
	th_run got = run_copy(&t, &ref);
	expect_diff(&t, &ref, &got, all, NULL, "a copy");
	/* a byte of io (buffer 0), then of out (buffer 1) */
	got.mem[13] ^= 1;
	expect_diff(&t, &ref, &got, TH_SAME_OK_MEMORY, "io word 3 = 0x", "io changed");
	expect_diff(&t, &ref, &got, TH_SAME_COUNTERS | TH_SAME_WARNINGS, NULL, "io changed, memory not compared");
	got.mem[13] ^= 1;
	got.mem[256 + 4 * 9] ^= 0x80;
	expect_diff(&t, &ref, &got, TH_SAME_ALL_MEMORY, "out word 9 = 0x", "out changed");
	t.row_words = 4;
	expect_diff(&t, &ref, &got, TH_SAME_ALL_MEMORY, "thread 2 word 1 = 0x", "out changed, 4 words a thread");
	t.row_words = 0;
	got.mem[256 + 4 * 9] ^= 0x80;
	/* counters */
	got.s.thread_insns++;
	expect_diff(&t, &ref, &got, TH_SAME_COUNTERS, "thread_insns", "a counter");
	expect_diff(&t, &ref, &got, TH_SAME_ALL_MEMORY | TH_SAME_WARNINGS, NULL, "counters not compared");
	got.s.thread_insns--;
	/* warnings */
	free(got.warn);
	got.warn = th_xstrdup("check: second-arrival: ...\n");
	expect_diff(&t, &ref, &got, TH_SAME_WARNINGS, "warnings", "warnings");
	expect_diff(&t, &ref, &got, TH_SAME_ALL_MEMORY | TH_SAME_COUNTERS, NULL, "warnings not compared");
	/* a stopped launch: status and reports always, its memory and
	 * counters only when asked (the memory with TH_SAME_ALL_MEMORY) */
	th_run stop = run_copy(&t, &ref), stop2 = run_copy(&t, &ref);
	stop.st = stop2.st = WE_ERR_EXCEPTION;
	expect_diff(&t, &ref, &stop, 0, "status runtime exception, REF gave success", "a status");
	stop2.mem[0] ^= 1;
	stop2.s.ctas++;
	expect_diff(&t, &stop, &stop2, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS, NULL, "stopped: memory and counters");
	expect_diff(&t, &stop, &stop2, TH_SAME_ALL_MEMORY, "io word 0", "stopped: all memory");
	free(stop2.err);
	stop2.err = th_xstrdup("another report");
	expect_diff(&t, &stop, &stop2, 0, "report\nanother report", "a text report");
	free(stop2.err);
	stop2.err = th_xstrdup(stop.err);
	free(stop2.json);
	stop2.json = th_xstrdup("{\"verdict\":\"exception\"}");
	expect_diff(&t, &stop, &stop2, 0, "JSON report", "a JSON report");
	th_run_free(&stop);
	th_run_free(&stop2);
	th_run_free(&got);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

START_TEST(sources_and_rng)
{
	size_t len = 0;
	char *text = th_read_source("tests/deadlock/README.md", &len);
	CHECK(len > 0 && strlen(text) == len, "README.md: %zu bytes, strlen %zu", len, strlen(text));
	free(text);
	char path[2048];
	th_source_path(path, sizeof path, "kernels/reduce.we");
	CHECK(strstr(path, "/kernels/reduce.we") != NULL, "path %s", path);
	/* splitmix64 from 0 (the values test_cli_args pins for the CLI's) */
	th_rng_seed(0);
	ck_assert(th_rng64() == UINT64_C(0xe220a8397b1dcdaf));
	ck_assert(th_rng64() == UINT64_C(0x6e789e6aa1b965f4));
	th_rng_seed(0);
	ck_assert_uint_eq(th_rng(), 0xe220a839u);
	ck_assert_uint_eq(th_occurrences("abababa", "aba"), 3);
	th_sbuf b = { 0 };
	for (int i = 0; i < 1000; i++)
		th_sb_add(&b, "%d,", i);
	CHECK(b.len == strlen(b.p) && !strncmp(b.p, "0,1,2,", 6) && strstr(b.p, ",999,"), "th_sb_add");
	free(b.p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("harness");
	TCase *tc = tcase_create("harness");
	tcase_add_test(tc, engine_list);
	tcase_add_test(tc, configs);
	tcase_add_test(tc, runs);
	tcase_add_test(tc, run_diff);
	tcase_add_test(tc, sources_and_rng);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
