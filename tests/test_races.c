/* test_races — the race corpus of tests/races/ (tests/races/README.md).
 *
 * Each kernel runs through the public API with every check on (barrier
 * hazards, WE_CHECK_RACES, WE_CHECK_UNINIT) under every engine
 * (tests/engines.h): unseeded on every core (or the header's threads)
 * with the engine's defaults, lockstep 1 and the group settings of
 * th_groups[] (memory instructions observed within lockstep groups),
 * under seeded schedules 1..N on one host thread, and with jitter on an
 * engine that has it.  Every run must succeed, give the header's buffer
 * values and exactly the header's check lines (sorted: barrier hazards
 * come as they are found, the race lines at the launch's end).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MIN_KERNELS 20u
#define MIN_EACH 8u        /* racy ones, and silent ones */
#define MAX_FILES 128
#define MAX_LINES 16
#define MAX_ARGS 8
#define WALL_TIMEOUT_S 30.0

static char corpus_dir[1024];
static char *files[MAX_FILES];
static unsigned nfiles;

typedef struct harg {
	char name[64];
	bool buf;
	uint32_t value; /* u32, or the buffer's bytes */
} harg;

typedef struct hbuf {
	char name[64];
	uint32_t index, value;
} hbuf;

typedef struct header {
	we_dim3 grid, block;
	unsigned threads, seeds;
	harg args[MAX_ARGS];
	unsigned nargs;
	hbuf bufs[MAX_ARGS];
	unsigned nbufs;
	char *lines[MAX_LINES]; /* "check: ..." lines, sorted */
	unsigned nlines;
	bool expect, why;
} header;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static we_dim3 parse_dim(const char *s, const char *file)
{
	uint32_t v[3] = { 1, 1, 1 };
	unsigned n = 0;
	for (const char *p = s; *p && n < 3; n++) {
		char *end;
		v[n] = (uint32_t)strtoul(p, &end, 0);
		CHECK(end != p && v[n], "%s: bad dimensions '%s'", file, s);
		p = *end == ',' ? end + 1 : end;
	}
	return (we_dim3){ v[0], v[1], v[2] };
}

/* "launch:" items. */
static void parse_launch(header *h, char *rest, const char *file)
{
	char *save = NULL;
	for (char *t = strtok_r(rest, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (!strncmp(t, "grid=", 5)) {
			h->grid = parse_dim(t + 5, file);
		} else if (!strncmp(t, "block=", 6)) {
			h->block = parse_dim(t + 6, file);
		} else if (!strncmp(t, "threads=", 8)) {
			h->threads = (unsigned)strtoul(t + 8, NULL, 0);
		} else if (!strncmp(t, "seeds=", 6)) {
			h->seeds = (unsigned)strtoul(t + 6, NULL, 0);
		} else if (!strcmp(t, "arg")) {
			char *a = strtok_r(NULL, " ", &save), *eq = a ? strchr(a, '=') : NULL;
			CHECK(eq && h->nargs < MAX_ARGS && (size_t)(eq - a) < sizeof h->args[0].name,
			      "%s: bad arg '%s'", file, a ? a : "");
			harg *g = &h->args[h->nargs++];
			memcpy(g->name, a, (size_t)(eq - a));
			g->buf = !strncmp(eq + 1, "buf:", 4);
			CHECK(g->buf || !strncmp(eq + 1, "u32:", 4), "%s: bad arg '%s'", file, a);
			g->value = (uint32_t)strtoul(eq + 5, NULL, 0);
		} else {
			CHECK(false, "%s: unknown launch item '%s'", file, t);
		}
	}
}

/* "expect: ok [buf NAME u32 I=V ...]" */
static void parse_expect(header *h, char *rest, const char *file)
{
	char *save = NULL, *t = strtok_r(rest, " ", &save);
	CHECK(t && !strcmp(t, "ok"), "%s: the verdict must be ok", file);
	while ((t = strtok_r(NULL, " ", &save))) {
		char *name = strtok_r(NULL, " ", &save), *type = strtok_r(NULL, " ", &save);
		CHECK(!strcmp(t, "buf") && name && type && !strcmp(type, "u32"), "%s: bad expect item", file);
		char *iv;
		while ((iv = strtok_r(NULL, " ", &save))) {
			char *eq = strchr(iv, '=');
			CHECK(eq && h->nbufs < MAX_ARGS, "%s: bad check '%s'", file, iv);
			hbuf *b = &h->bufs[h->nbufs++];
			snprintf(b->name, sizeof b->name, "%s", name);
			b->index = (uint32_t)strtoul(iv, NULL, 0);
			b->value = (uint32_t)strtoul(eq + 1, NULL, 0);
		}
	}
}

/* The header: its leading "// " lines. */
static void parse_header(header *h, const char *text, const char *file)
{
	memset(h, 0, sizeof *h);
	h->seeds = 3;
	for (const char *p = text; !strncmp(p, "//", 2);) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = th_xmalloc(len + 1);
		memcpy(line, p, len);
		line[len] = 0;
		if (!strncmp(line, "// launch: ", 11)) {
			parse_launch(h, line + 11, file);
		} else if (!strncmp(line, "// expect: ", 11)) {
			parse_expect(h, line + 11, file);
			h->expect = true;
		} else if (!strncmp(line, "// check: ", 10)) {
			CHECK(h->nlines < MAX_LINES, "%s: too many check lines", file);
			h->lines[h->nlines++] = th_xstrdup(line + 3);
		} else if (!strncmp(line, "// why: ", 8)) {
			h->why = true;
		} else {
			CHECK(!strncmp(line, "//   ", 5) && h->why, "%s: bad header line '%s'", file, line);
		}
		free(line);
		p += len + (eol != NULL);
	}
	CHECK(h->grid.x && h->block.x && h->expect && h->why, "%s: launch:, expect: and why: are required", file);
	qsort(h->lines, h->nlines, sizeof *h->lines, cmp_str);
}

static void header_free(header *h)
{
	for (unsigned i = 0; i < h->nlines; i++)
		free(h->lines[i]);
}

/* The run's warning lines, sorted, against the header's. */
static void expect_lines(const header *h, const char *warn, const char *label)
{
	char *copy = th_xstrdup(warn), *got[64], *save = NULL;
	unsigned n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		CHECK(n < 64, "%s: too many check lines", label);
		got[n++] = l;
	}
	qsort(got, n, sizeof *got, cmp_str);
	for (unsigned i = 0; i < n || i < h->nlines; i++)
		CHECK(i < n && i < h->nlines && !strcmp(got[i], h->lines[i]),
		      "%s: check line %u\n  got:  %s\n  want: %s\n(all of them:\n%s)", label, i + 1,
		      i < n ? got[i] : "(none)", i < h->nlines ? h->lines[i] : "(none)", warn);
	free(copy);
}

static void expect_bufs(const th_kernel *t, const header *h, const th_run *r, const char *label)
{
	for (unsigned i = 0; i < h->nbufs; i++) {
		uint32_t v;
		memcpy(&v, th_view(t, r->mem, h->bufs[i].name) + 4u * h->bufs[i].index, 4);
		CHECK(v == h->bufs[i].value, "%s: %s[%u] = 0x%x, want 0x%x", label, h->bufs[i].name,
		      h->bufs[i].index, v, h->bufs[i].value);
	}
}

/* One run on engine e: unseeded under the group settings gc (lockstep
 * groups observe memory instructions warp by warp: the same lines), or
 * seeded, or with jitter. */
static void one_run(th_kernel *t, const header *h, const th_config *gc, we_engine e, bool seeded, bool jitter,
		    uint64_t seed, const char *file)
{
	char label[300];
	snprintf(label, sizeof label, "%s [%s, %s %llu]", file, gc ? gc->name : we_engine_name(e),
		 jitter ? "jitter" : seeded ? "seed" : "unseeded", (unsigned long long)seed);
	we_launch_config cfg = { .grid = h->grid, .block = h->block, .engine = e, .check = true,
				 .check_memory = WE_CHECK_RACES | WE_CHECK_UNINIT, .timeout = WALL_TIMEOUT_S,
				 .schedule_seeded = seeded, .schedule_seed = seed, .jitter = jitter,
				 .threads = seeded ? 1 : h->threads };
	if (gc) {
		cfg.lockstep = gc->lockstep;
		cfg.batch = gc->batch;
		if (gc->threads)
			cfg.threads = gc->threads;
	}
	th_run r;
	th_run_launch(t, &cfg, &r);
	if (getenv("RACES_VERBOSE"))
		fprintf(stderr, "== %s: %s\n%s\n", label, we_status_name(r.st), r.warn);
	CHECK(r.st == WE_OK, "%s: %s: %s", label, we_status_name(r.st), r.err);
	expect_bufs(t, h, &r, label);
	expect_lines(h, r.warn, label);
	th_run_free(&r);
}

START_TEST(race_kernel)
{
	const char *file = files[_i];
	char rel[1200];
	snprintf(rel, sizeof rel, "tests/races/%s", file);
	char *text = th_read_source(rel, NULL);
	header h;
	parse_header(&h, text, file);
	th_kernel t;
	th_load(&t, text, file, NULL);
	for (unsigned i = 0; i < h.nargs; i++) {
		if (h.args[i].buf)
			th_buf_new(&t, h.args[i].name, NULL, h.args[i].value, 0);
		else
			th_u32(&t, h.args[i].name, h.args[i].value);
	}
	th_config gc[TH_MAXCONFIGS];
	const size_t ngc = th_configs(TH_DEFAULTS | TH_UNGROUPED | TH_GROUPED, 0, gc);
	for (size_t c = 0; c < ngc; c++)
		one_run(&t, &h, &gc[c], gc[c].eng->id, false, false, 0, file);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		for (unsigned s = 1; s <= h.seeds; s++)
			one_run(&t, &h, NULL, th_id(e), true, false, s, file);
		if (th_engines[e].flags & TH_JITTER)
			one_run(&t, &h, NULL, th_id(e), false, true, 1, file);
	}
	th_close(&t);
	header_free(&h);
	free(text);
}
END_TEST

/* Enough kernels of both sorts ("_ok" ones silent, the others not), and
 * README.md lists exactly the files. */
START_TEST(corpus)
{
	unsigned racy = 0, silent = 0;
	char *readme = th_read_source("tests/races/README.md", NULL);
	CHECK(nfiles >= MIN_KERNELS, "%s: %u kernels, want at least %u", corpus_dir, nfiles, MIN_KERNELS);
	for (unsigned i = 0; i < nfiles; i++) {
		char rel[1200], item[1100];
		snprintf(rel, sizeof rel, "tests/races/%s", files[i]);
		char *text = th_read_source(rel, NULL);
		header h;
		parse_header(&h, text, files[i]);
		const bool ok = strstr(files[i], "_ok.we") != NULL;
		CHECK(ok == (h.nlines == 0), "%s: a kernel named *_ok.we has no check lines, any other has some",
		      files[i]);
		racy += !ok;
		silent += ok;
		snprintf(item, sizeof item, "`%s`", files[i]);
		CHECK(strstr(readme, item), "tests/races/README.md does not list %s", files[i]);
		header_free(&h);
		free(text);
	}
	CHECK(racy >= MIN_EACH && silent >= MIN_EACH, "%u racy and %u silent kernels, want %u of each", racy,
	      silent, MIN_EACH);
	unsigned listed = th_occurrences(readme, "\n| `");
	CHECK(listed == nfiles, "tests/races/README.md lists %u kernels, the folder has %u", listed, nfiles);
	free(readme);
}
END_TEST

static void find_corpus(void)
{
	th_source_path(corpus_dir, sizeof corpus_dir, "tests/races");
	DIR *d = opendir(corpus_dir);
	if (!d)
		return; /* the corpus test reports it */
	struct dirent *de;
	while ((de = readdir(d)) && nfiles < MAX_FILES) {
		size_t len = strlen(de->d_name);
		if (len > 3 && !strcmp(de->d_name + len - 3, ".we") && de->d_name[0] != '.')
			files[nfiles++] = th_xstrdup(de->d_name);
	}
	closedir(d);
	qsort(files, nfiles, sizeof *files, cmp_str);
}

int main(void)
{
	find_corpus();
	Suite *s = suite_create("races");
	TCase *t = tcase_create("corpus");
	tcase_set_timeout(t, 600);
	tcase_add_test(t, corpus);
	tcase_add_loop_test(t, race_kernel, 0, (int)nfiles);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (unsigned i = 0; i < nfiles; i++)
		free(files[i]);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
