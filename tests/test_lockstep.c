/* test_lockstep — lockstep groups of the scheduler engine.
 *
 * With we_launch_config.lockstep > 1 the scheduler engine runs consecutive
 * warps of a CTA that are at one PC with every lane active as one group
 * (group_of in src/engine_sched.c, exec_group in src/exec.c): MOV, IADD3,
 * IMAD, IMAD.WIDE, ISETP, LOP3.LUT, SHF, S2R and BRA in their plain
 * operand forms (and 32-bit loads and stores whose addresses allow it)
 * run the whole group, or a run of its warps whose guard is true, in one
 * handler call over the CTA's register-by-register arrays; a BAR.SYNC
 * whose arrivals are exactly the group's completes in one step, and an
 * EXIT runs in every warp of the group; anything else runs warp by warp.
 * The result must be exactly the one of running the warps one at a time
 * (lockstep 1), and that is what every test here asserts:
 *
 * Part 1  every kernel of kernels/ and bench/kernels/, with the launch
 *         parameters of the tests and the benchmark that know it
 *         (test_kernels, test_barkern, test_dialects, bench/wbench) on
 *         small grids, under lockstep 1, 2, 8, 32 and the default (the
 *         group settings of tests/engines.h): byte-identical buffers and
 *         the same ctas, warp_insns, thread_insns and barriers.
 * Part 2  purpose-built kernels that store every register: guards that
 *         differ per warp on each lockstep instruction, loops whose trip
 *         count differs per warp meeting again at BAR.SYNC, intra-warp
 *         divergence inside a group, every operand kind (immediates,
 *         c[0x0][..] parameters, a .const bank, RZ, registers, uniform
 *         registers that differ per warp), partial warps and 2-D/3-D
 *         blocks, all 256 LOP3 tables, every ISETP comparison and SHF
 *         shape and count.  Every lockstep value equals lockstep 1, and
 *         lockstep 1 equals a host reference.
 * Part 3  faults inside a group and the max-instructions watchdog in a
 *         lockstep loop: the same status, text report and JSON report.
 * Part 4  lockstep 33 is rejected; the warp-threads engine, a seeded
 *         schedule and a trace run one warp at a time whatever lockstep.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* A safety net: a launch that hangs fails instead of stalling make check. */
#define WALL_TIMEOUT_S 60.0

/* ================================================================ */
/* launches and their comparison with lockstep 1                      */

/* Restore t's buffers and launch it under c (engine 0: the scheduler). */
static void lk_run(th_kernel *t, const we_launch_config *c, th_run *r)
{
	we_launch_config cfg = *c;
	if (!cfg.engine)
		cfg.engine = WE_ENGINE_SCHEDULER;
	cfg.timeout = WALL_TIMEOUT_S;
	th_run_launch(t, &cfg, r);
}

/* got must be what the lockstep-1 launch ref gave: the status and both
 * reports (of a watchdog report the fault: the CTA's state it shows
 * follows the order of turns); after a launch that succeeded, every byte
 * of every buffer and the counters. */
static void expect_same(const th_kernel *t, const th_run *ref, const th_run *got, const char *what)
{
	th_expect_same(t, ref, got, TH_SAME_OK_MEMORY | TH_SAME_COUNTERS | TH_SAME_WATCHDOG_FAULT, "lockstep 1", what);
}

typedef void (*canon_fn)(const th_kernel *, const we_launch_config *, uint8_t *);

/* Launch c with lockstep 1 (the reference) into *ref; it must succeed. */
static void run_ref(th_kernel *t, we_launch_config c, const char *label, th_run *ref, canon_fn canon)
{
	char what[200];
	c.lockstep = 1;
	lk_run(t, &c, ref);
	snprintf(what, sizeof what, "%s, lockstep 1", label);
	th_expect_ok(ref, what);
	if (canon)
		canon(t, &c, ref->mem);
}

/* Launch c on every engine with the flags `need` (engines.h), with its
 * defaults and every group setting: each must give exactly ref. */
static void compare_configs(th_kernel *t, we_launch_config c, const char *label, const th_run *ref, canon_fn canon,
			    unsigned need)
{
	char what[200];
	th_config cs[TH_MAXCONFIGS];
	size_t n = th_configs(TH_DEFAULTS | TH_GROUPED | TH_COMPILED, need, cs);
	for (size_t i = 0; i < n; i++) {
		th_run r;
		th_config_apply(&c, &cs[i]);
		lk_run(t, &c, &r);
		snprintf(what, sizeof what, "%s, %s", label, cs[i].name);
		if (canon && r.st == WE_OK)
			canon(t, &c, r.mem);
		expect_same(t, ref, &r, what);
		th_run_free(&r);
	}
}

/* The engines that form lockstep groups, with every group setting. */
static void compare_rest(th_kernel *t, we_launch_config c, const char *label, const th_run *ref, canon_fn canon)
{
	compare_configs(t, c, label, ref, canon, TH_GROUPS);
}

/* compare_rest, and every other engine with its defaults. */
static void compare_engines(th_kernel *t, we_launch_config c, const char *label, const th_run *ref)
{
	compare_configs(t, c, label, ref, NULL, 0);
}

/* One worker with lockstep groups of up to `lockstep` warps and batches
 * of 1, 2, 4, ... 32 CTAs: each exactly ref. */
static void compare_batches(th_kernel *t, we_launch_config c, unsigned lockstep, const char *label, const th_run *ref)
{
	for (unsigned b = 1; b <= 32; b *= 2) {
		th_run r;
		c.lockstep = lockstep;
		c.batch = b;
		c.threads = 1;
		lk_run(t, &c, &r);
		char what[128];
		snprintf(what, sizeof what, "%s, batch %u, 1 thread", label, b);
		expect_same(t, ref, &r, what);
		th_run_free(&r);
	}
}

/* ================================================================ */
/* Part 1: the kernels of kernels/ and bench/kernels/                 */

/* A kernel file and how to launch it: setup() makes the buffers and
 * parameters of launch li and sets its grid and block. */
typedef struct fcase {
	const char *file, *kernel;
	unsigned nlaunch;
	void (*setup)(th_kernel *t, unsigned li, we_launch_config *c);
	/* NULL, or puts into a canonical order what the schedule orders by
	 * design */
	void (*canon)(const th_kernel *t, const we_launch_config *c, uint8_t *mem);
} fcase;

static uint32_t *random_words(size_t n, uint64_t seed)
{
	uint32_t *p = th_xmalloc(n * 4);
	th_rng_seed(seed);
	for (size_t i = 0; i < n; i++)
		p[i] = th_rng();
	return p;
}

/* test_kernels: 128-thread CTAs, the last one partial; and 1024-thread
 * CTAs, so that lockstep 32 has a whole CTA to group. */
static void setup_vecadd(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 1024 : 128, n = (li ? 6 : 40) * block - 77;
	float *a = th_xmalloc(n * 4), *b = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(i % 1000) - 3.25f;
	}
	th_u32(t, "n", n);
	th_buf_new(t, "a", a, n * 4, 0);
	th_buf_new(t, "b", b, n * 4, 0);
	th_buf_new(t, "c", NULL, n * 4, 0xa5);
	c->grid = th_dim3((n + block - 1) / block, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(a);
	free(b);
}

/* test_kernels: 96-thread CTAs and a partial last one; and 1024 */
static void setup_ifelse(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 1024 : 96, n = li ? 4 * 1024 - 77 : 30 * 96 + 40;
	th_u32(t, "n", n);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	th_buf_new(t, "mask", NULL, n * 4, 0xa5);
	c->grid = th_dim3((n + block - 1) / block, 1, 1);
	c->block = th_dim3(block, 1, 1);
}

/* test_kernels: Collatz steps with BREAK, 64-thread CTAs; and 512 */
static void setup_loopbreak(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 512 : 64, n = li ? 8 * 512 - 3 : 64 * 50;
	uint32_t *in = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = 1 + (i * 2654435761u) % 100000u;
	th_u32(t, "n", n);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	c->grid = th_dim3((n + block - 1) / block, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(in);
}

/* test_kernels: one-warp CTAs (no group at all); and 256 */
static void setup_callret(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 256 : 32, n = li ? 256 * 10 + 5 : 32 * 60 + 5;
	th_u32(t, "n", n);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	c->grid = th_dim3((n + block - 1) / block, 1, 1);
	c->block = th_dim3(block, 1, 1);
}

/* test_kernels: SHFL/VOTE per warp, 256-thread CTAs; and 1024 */
static void setup_warpreduce(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 1024 : 256, grid = li ? 6 : 24, nwarps = grid * block / 32;
	uint32_t *in = th_xmalloc(nwarps * 32 * 4);
	for (uint32_t i = 0; i < nwarps * 32; i++)
		in[i] = (i * 7919u) % 2000u;
	th_buf_new(t, "in", in, nwarps * 32 * 4, 0);
	th_buf_new(t, "sum", NULL, nwarps * 4, 0xa5);
	th_buf_new(t, "count", NULL, nwarps * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(in);
}

/* test_kernels: the tree reduction, 256-thread CTAs (its fixed size) */
static void setup_reduce(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 40, n = grid * 256;
	uint32_t *in = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = i ^ (i >> 3);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, grid * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(256, 1, 1);
	free(in);
}

/* test_barkern: 256-thread CTAs (128 for warp-threads there), the last
 * CTA partial */
static void setup_scan(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 128 : 256, grid = 30, n = grid * block - 100;
	uint32_t *in = random_words(grid * block, 1);
	for (uint32_t i = 0; i < grid * block; i++)
		if (i % 5)
			in[i] &= 0xffffu;
	th_u32(t, "n", n);
	th_buf_new(t, "in", in, grid * block * 4, 0);
	th_buf_new(t, "out", NULL, grid * block * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(in);
}

/* test_barkern: 32x8 CTAs over a 2-D grid, partial last tiles */
static void setup_transpose(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t width = 6 * 32 - 1, height = 5 * 32 - 10, n = width * height;
	uint32_t *in = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = (i * 2654435761u) ^ 0x5bd1e995u;
	th_u32(t, "width", width);
	th_u32(t, "height", height);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	c->grid = th_dim3((width + 31) / 32, (height + 31) / 32, 1);
	c->block = th_dim3(32, 8, 1);
	free(in);
}

/* test_barkern: shared-memory atomics, 128- and 96-thread CTAs */
static void setup_histogram(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t per_cta = 1024, grid = 24, n = grid * per_cta - 333;
	uint8_t *in = th_xmalloc(n);
	th_rng_seed(3);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = th_rng();
		/* a hot bin (many lanes on one shared address) and a spread */
		in[i] = (r & 3) == 0 ? 0x7f : (uint8_t)(1 + (r >> 16) % 255);
	}
	th_u32(t, "n", n);
	th_u32(t, "per_cta", per_cta);
	th_buf_new(t, "in", in, n, 0);
	th_buf_new(t, "hist", NULL, 256 * 4, 0);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(li ? 96 : 128, 1, 1);
	free(in);
}

/* test_barkern: BAR.ARV/BAR.SYNC hand-offs, 128-thread CTAs; and 256 */
static void setup_prodcons(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 256 : 128, nslots = block / 2, iters = 16, grid = 30;
	uint32_t *in = random_words(iters * nslots, 4);
	th_u32(t, "iters", iters);
	th_buf_new(t, "in", in, iters * nslots * 4, 0);
	th_buf_new(t, "out", NULL, grid * nslots * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(in);
}

/* test_dialects: vISA named barriers, 160-thread CTAs */
static void setup_nbpipe(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t iters = 16, grid = 30;
	uint32_t *in = random_words(iters * 64, 7);
	th_u32(t, "iters", iters);
	th_buf_new(t, "in", in, iters * 64 * 4, 0);
	th_buf_new(t, "out", NULL, grid * 96 * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(160, 1, 1);
	free(in);
}

/* test_dialects: BAR.SCAN compaction, 256-thread CTAs, two chunks per
 * CTA, the second partial */
#define COMPACT_THRESH 0x60000000u
static void setup_compact(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 30, seg = 2 * 256 - 37, n = grid * seg;
	uint32_t *in = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = i * 2654435761u + 12345u; /* distinct */
	th_u32(t, "seg", seg);
	th_u32(t, "thresh", COMPACT_THRESH);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	th_buf_new(t, "count", NULL, grid * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(256, 1, 1);
	free(in);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* compact.we writes a chunk's kept elements warp run by warp run in the
 * order the warps arrived at BAR.SCAN, which the schedule decides (and
 * which lockstep groups change: their warps arrive in warp order, and the
 * warp completing a barrier hands its turn back): a valid compaction up to
 * that order (test_dialects checks the runs).  So each CTA's output is
 * compared as a multiset (sorted); count[] and the untouched tail exactly. */
static void canon_compact(const th_kernel *t, const we_launch_config *c, uint8_t *mem)
{
	const uint32_t seg = 2 * 256 - 37;
	uint32_t *out = (uint32_t *)(void *)th_view(t, mem, "out");
	const uint32_t *count = (const uint32_t *)(void *)th_view(t, mem, "count");
	for (uint32_t cta = 0; cta < c->grid.x; cta++) {
		CHECK(count[cta] <= seg, "compact: CTA %u count %u", cta, count[cta]);
		qsort(out + (size_t)cta * seg, count[cta], 4, cmp_u32);
	}
}

/* test_dialects: a TRAP (and BAR.SYNCALL, RTT) in a barrier kernel,
 * 128-thread CTAs; launch 0 without the trap, 1 with it */
static void setup_traphandler(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t grid = 30, block = 128, n = grid * block;
	uint32_t *in = random_words(n, 3);
	th_u32(t, "trap", li);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	th_buf_new(t, "trapped", NULL, grid * block / 32 * 4, 0);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(block, 1, 1);
	free(in);
}

/* bench/wbench "alu": the ALU loop, mostly lockstep instructions */
static void setup_alu(th_kernel *t, unsigned li, we_launch_config *c)
{
	const uint32_t block = li ? 1024 : 256, grid = li ? 2 : 8;
	th_u32(t, "iters", 64);
	th_buf_new(t, "out", NULL, grid * block * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(block, 1, 1);
}

/* bench/wbench "barrier": 32 warps, 8 BAR.SYNC per trip */
static void setup_barrier(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 3;
	th_u32(t, "iters", 8);
	th_buf_new(t, "out", NULL, grid * 1024 * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(1024, 1, 1);
}

/* bench/wbench "diverge": per-lane trips and branches in 256-thread CTAs */
static void setup_diverge(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 12, n = grid * 256 - 33;
	uint32_t *in = random_words(n, 5);
	th_u32(t, "n", n);
	th_buf_new(t, "in", in, n * 4, 0);
	th_buf_new(t, "out", NULL, n * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(256, 1, 1);
	free(in);
}

/* bench/wbench "tiny": one-warp CTAs (lockstep has nothing to group) */
static void setup_tiny(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 200;
	uint32_t *in = random_words(grid * 32, 6);
	th_buf_new(t, "in", in, grid * 32 * 4, 0);
	th_buf_new(t, "out", NULL, grid * 32 * 4, 0xa5);
	c->grid = th_dim3(grid, 1, 1);
	c->block = th_dim3(32, 1, 1);
	free(in);
}

/* bench/wbench "triad": f32, 256-thread CTAs, the last partial */
static void setup_triad(th_kernel *t, unsigned li, we_launch_config *c)
{
	(void)li;
	const uint32_t grid = 16, n = grid * 256 - 10;
	float *b = th_xmalloc(n * 4), *cc = th_xmalloc(n * 4);
	th_rng_seed(8);
	for (uint32_t i = 0; i < n; i++) {
		b[i] = (float)(th_rng() % 100000) / 7.0f;
		cc[i] = (float)(th_rng() % 100000) / 3.0f - 1000.0f;
	}
	th_u32(t, "n", n);
	th_f32(t, "s", 2.5f);
	th_buf_new(t, "a", NULL, n * 4, 0xa5);
	th_buf_new(t, "b", b, n * 4, 0);
	th_buf_new(t, "c", cc, n * 4, 0);
	c->grid = th_dim3((n + 255) / 256, 1, 1);
	c->block = th_dim3(256, 1, 1);
	free(b);
	free(cc);
}

static const fcase fcases[] = {
	{ "kernels/vecadd.we", "vecadd", 2, setup_vecadd, NULL },
	{ "kernels/ifelse.we", "ifelse", 2, setup_ifelse, NULL },
	{ "kernels/loopbreak.we", "loopbreak", 2, setup_loopbreak, NULL },
	{ "kernels/callret.we", "callret", 2, setup_callret, NULL },
	{ "kernels/warpreduce.we", "warpreduce", 2, setup_warpreduce, NULL },
	{ "kernels/reduce.we", "reduce", 1, setup_reduce, NULL },
	{ "kernels/scan.we", "scan", 2, setup_scan, NULL },
	{ "kernels/transpose.we", "transpose", 1, setup_transpose, NULL },
	{ "kernels/histogram.we", "histogram", 2, setup_histogram, NULL },
	{ "kernels/prodcons.we", "prodcons", 2, setup_prodcons, NULL },
	{ "kernels/nbpipe.we", "nbpipe", 1, setup_nbpipe, NULL },
	{ "kernels/compact.we", "compact", 1, setup_compact, canon_compact },
	{ "kernels/traphandler.we", "traphandler", 2, setup_traphandler, NULL },
	{ "bench/kernels/alu.we", "alu", 2, setup_alu, NULL },
	{ "bench/kernels/barrier.we", "barrier", 1, setup_barrier, NULL },
	{ "bench/kernels/diverge.we", "diverge", 1, setup_diverge, NULL },
	{ "bench/kernels/tiny.we", "tiny", 1, setup_tiny, NULL },
	{ "bench/kernels/triad.we", "triad", 1, setup_triad, NULL },
};
#define NFCASES (sizeof fcases / sizeof fcases[0])

START_TEST(kernel_files)
{
	const fcase *f = &fcases[_i];
	for (unsigned li = 0; li < f->nlaunch; li++) {
		th_kernel t;
		th_file(&t, f->file, f->kernel);
		we_launch_config c = { 0 };
		f->setup(&t, li, &c);
		char label[160];
		snprintf(label, sizeof label, "%s, grid (%u,%u,%u), block (%u,%u,%u)", f->file, c.grid.x, c.grid.y,
			 c.grid.z, c.block.x, c.block.y, c.block.z);
		th_run ref;
		run_ref(&t, c, label, &ref, f->canon);
		compare_rest(&t, c, label, &ref, f->canon);
		/* the launch did something: some output differs from its fill */
		CHECK(ref.s.warp_insns > 0 && ref.s.ctas == (uint64_t)c.grid.x * c.grid.y * c.grid.z,
		      "%s: %llu CTAs, %llu warp-instructions", label, (unsigned long long)ref.s.ctas,
		      (unsigned long long)ref.s.warp_insns);
		bool wrote = false;
		size_t off = 0;
		for (unsigned i = 0; i < t.nb && !wrote; i++) {
			wrote = memcmp(ref.mem + off, t.b[i].init, t.b[i].bytes) != 0;
			off += t.b[i].bytes;
		}
		CHECK(wrote, "%s: no buffer changed", label);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* ================================================================ */
/* Part 2: purpose-built kernels                                      */

/* Every kernel below is a prologue, a body and an epilogue.  The
 * prologue leaves
 *   R0 = t (linear thread index in the CTA, x fastest), R1 = w = t / 32,
 *   R2 = lane, R3 = g (global linear index), R4..R7 = a, b, c, d =
 *   in[4g .. 4g+3], R8..R55 = init_reg() of a..d, R56 = n (threads per
 *   CTA), R[58:59] = &in[4g], R[60:61] = &out[g * nout];
 * a body writes R8..R55, P0..P6 (and may use R57..R59, R62, R63, UR, B)
 * and may store words NREGW.. of its thread's row of out (nout words);
 * the epilogue stores R0..R56 and P6..P0 (P2R) in words 0..57.  Constant
 * bank 0 holds out, in and K0..K3; bank 2 holds ctab[].  Every buffer
 * word a launch does not store keeps the fill 0xa5. */
#define NREGW 64u       /* words per thread before a body's own stores */
#define K0 0x7fffffffu  /* c[0x0][0x10] */
#define K1 0x80000000u  /* c[0x0][0x14] */
#define K2 33u          /* c[0x0][0x18]: a shift count past 32 */
#define K3 0x9e3779b9u  /* c[0x0][0x1c] */
static const uint32_t ctab[4] = { 0x01234567u, 0x89abcdefu, 0xdeadbeefu, 0x0badf00du };

/* Inputs a and b come from values around the signed and unsigned
 * limits (every pair in every 256 threads), c and d are random. */
static const uint32_t edge[16] = { 0x00000000u, 0x00000001u, 0x00000002u, 0x7ffffffeu,
				   0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu,
				   0xffffffffu, 0x55555555u, 0xaaaaaaaau, 0x12345678u,
				   0xdeadbeefu, 0x0000ffffu, 0xffff0000u, 0x40000000u };

#define MAXTHREADS 2048u

static uint32_t init_mul(unsigned k)
{
	return (0x9e3779b1u * k) | 1u;
}

static uint32_t init_reg(const uint32_t in4[4], unsigned k)
{
	return in4[k & 3] * init_mul(k) + in4[(k + 1) & 3];
}

static char *kernel_text(const char *body, unsigned nout)
{
	th_sbuf b = { 0 };
	th_sb_add(&b, "%s",
	          ".kernel lockstep\n"
	          ".param ptr out\n"
	          ".param ptr in\n"
	          ".param u32 k0\n"
	          ".param u32 k1\n"
	          ".param u32 k2\n"
	          ".param u32 k3\n"
	          ".shared 16384\n"
	          "        S2R R0, SR_TID.X ;\n"
	          "        S2R R1, SR_TID.Y ;\n"
	          "        S2R R2, SR_TID.Z ;\n"
	          "        S2R R56, SR_NTID.X ;\n"
	          "        S2R R57, SR_NTID.Y ;\n"
	          "        S2R R58, SR_NTID.Z ;\n"
	          "        IMAD R2, R2, R57, R1 ;\n"
	          "        IMAD R0, R2, R56, R0 ;\n"
	          "        IMAD R56, R56, R57, RZ ;\n"
	          "        IMAD R56, R56, R58, RZ ;\n"
	          "        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	          "        LOP3.LUT R2, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	          "        S2R R3, SR_CTAID.X ;\n"
	          "        IMAD R3, R3, R56, R0 ;\n"
	          "        MOV R62, c[0x0][0x8] ;\n"
	          "        MOV R63, c[0x0][0xc] ;\n"
	          "        IMAD.WIDE.U32 R[58:59], R3, 0x10, R[62:63] ;\n"
	          "        LDG R4, [R58.64] ;\n"
	          "        LDG R5, [R58.64+0x4] ;\n"
	          "        LDG R6, [R58.64+0x8] ;\n"
	          "        LDG R7, [R58.64+0xc] ;\n"
	          "        MOV R62, c[0x0][0x0] ;\n"
	          "        MOV R63, c[0x0][0x4] ;\n");
	th_sb_add(&b, "        IMAD.WIDE.U32 R[60:61], R3, 0x%x, R[62:63] ;\n", nout * 4);
	for (unsigned k = 8; k < 56; k++)
		th_sb_add(&b, "        IMAD R%u, R%u, 0x%08x, R%u ;\n", k, 4 + (k & 3), init_mul(k), 4 + ((k + 1) & 3));
	th_sb_add(&b, "%s", body);
	th_sb_add(&b, "        P2R R57, PR, RZ, 0x7f ;\n");
	for (unsigned k = 0; k < 58; k++)
		th_sb_add(&b, "        STG [R60.64+0x%x], R%u ;\n", 4 * k, k);
	th_sb_add(&b, "        EXIT ;\n.end\n.const 2\nctab:   .word 0x%08x, 0x%08x, 0x%08x, 0x%08x\n", ctab[0],
	          ctab[1], ctab[2], ctab[3]);
	return b.p;
}

/* A thread of a launch, as the prologue sees it. */
typedef struct thr {
	uint32_t t, w, lane, g, n, cta;
	uint32_t valid;         /* the lanes its warp has */
	uint32_t in[4];         /* a, b, c, d */
} thr;

static void fill_in(uint32_t *in)
{
	th_rng_seed(42);
	for (uint32_t g = 0; g < MAXTHREADS; g++) {
		in[4 * g] = edge[g & 15];
		in[4 * g + 1] = edge[((g >> 4) + (g >> 8)) & 15];
		in[4 * g + 2] = th_rng();
		in[4 * g + 3] = th_rng();
	}
}

static thr thread_of(const we_launch_config *c, const uint32_t *in, uint32_t g)
{
	thr x;
	x.n = c->block.x * c->block.y * c->block.z;
	x.g = g;
	x.cta = g / x.n;
	x.t = g % x.n;
	x.w = x.t / 32;
	x.lane = x.t % 32;
	uint32_t lanes = x.n - x.w * 32;
	x.valid = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
	memcpy(x.in, in + 4 * (size_t)g, sizeof x.in);
	return x;
}

/* ---- host reference helpers ----------------------------------------- */

static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 32; i++) {
		unsigned k = ((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u);
		r |= ((lut >> k) & 1u) << i;
	}
	return r;
}

/* The SHF description of alu.isa: a funnel shift of the 64-bit C:A by n
 * (.W: n modulo the type's width, else clamped to it), the low word or
 * (.HI) the high one; .S32/.S64 shift right arithmetically. */
enum { SHF_S32, SHF_U32, SHF_S64, SHF_U64 };
static const char *const shf_type_name[4] = { "S32", "U32", "S64", "U64" };
static uint32_t shf_ref(bool right, unsigned type, bool hi, bool wrap, uint32_t a, uint32_t n, uint32_t c)
{
	const uint32_t width = type == SHF_S64 || type == SHF_U64 ? 64 : 32;
	const uint32_t s = wrap ? n & (width - 1) : n < width ? n : width;
	const uint64_t v = (uint64_t)c << 32 | a;
	uint64_t r;
	if (!right)
		r = s >= 64 ? 0 : v << s;
	else if (type == SHF_S32 || type == SHF_S64)
		r = (uint64_t)((int64_t)v >> (s >= 64 ? 63 : s));
	else
		r = s >= 64 ? 0 : v >> s;
	return hi ? (uint32_t)(r >> 32) : (uint32_t)r;
}

/* ICmp codes of alu.isa: F LT EQ LE GT NE GE T */
static const char *const cmp_name[8] = { "F", "LT", "EQ", "LE", "GT", "NE", "GE", "T" };
static bool icmp_ref(unsigned cmp, bool u, uint32_t a, uint32_t b)
{
	const bool lt = u ? a < b : (int32_t)a < (int32_t)b, eq = a == b, gt = !lt && !eq;
	switch (cmp) {
	case 0: return false;
	case 1: return lt;
	case 2: return eq;
	case 3: return lt || eq;
	case 4: return gt;
	case 5: return !eq;
	case 6: return gt || eq;
	default: return true;
	}
}

/* ISETP's Pu, Pv with the .bop (0 AND, 1 OR, 2 XOR) and Pp value p */
static void setp_ref(bool t, unsigned bop, bool p, bool *pu, bool *pv)
{
	switch (bop) {
	case 1: *pu = t || p; *pv = !t || p; break;
	case 2: *pu = t != p; *pv = !t != p; break;
	default: *pu = t && p; *pv = !t && p; break;
	}
}

/* A body's expected registers R0..R57 (R57: P6..P0) of thread x. */
typedef void (*ref_fn)(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58]);

static void ref_common(const thr *x, uint32_t R[58])
{
	R[0] = x->t;
	R[1] = x->w;
	R[2] = x->lane;
	R[3] = x->g;
	for (unsigned k = 0; k < 4; k++)
		R[4 + k] = x->in[k];
	for (unsigned k = 8; k < 56; k++)
		R[k] = init_reg(x->in, k);
	R[56] = x->n;
	R[57] = 0;
}

static uint32_t pbits(bool p0, bool p1, bool p2, bool p3, bool p4, bool p5, bool p6)
{
	return (uint32_t)p0 | (uint32_t)p1 << 1 | (uint32_t)p2 << 2 | (uint32_t)p3 << 3 | (uint32_t)p4 << 4 |
	       (uint32_t)p5 << 5 | (uint32_t)p6 << 6;
}

/* ---- body: guards that differ per warp -------------------------------- */

/* Each lockstep instruction under a guard true in the odd warps only (or
 * only the even ones, or warp 2 alone): in a group some warps execute it
 * and the others skip it, so the group runs it warp by warp.  Guards true
 * in some lanes of every warp, and a guard that is not PT but true in
 * every lane of every warp (the group runs it in one call), and a branch
 * taken by the odd warps only. */
static const char body_guard[] =
	"        LOP3.LUT R8, R1, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R8, RZ, PT ;\n"          /* odd warp */
	"        ISETP.LT.U32.AND P1, PT, R2, 0xb, PT ;\n"         /* lanes 0-10 */
	"        ISETP.EQ.U32.AND P2, PT, R1, 0x2, PT ;\n"         /* warp 2 */
	"        ISETP.GE.U32.AND P3, PT, R1, 0x40, PT ;\n"        /* never */
	"   @P0  IADD3 R10, R10, 0x5, R0 ;\n"
	"   @!P0 IADD3 R11, R11, c[0x0][0x1c], R5 ;\n"
	"   @P0  LOP3.LUT R12, R12, R6, R7, 0x96, !PT ;\n"
	"   @!P0 LOP3.LUT R13, R13, 0xff00ff, R4, 0x6c, !PT ;\n"
	"   @P0  IMAD R14, R14, R5, R6 ;\n"
	"   @!P0 IMAD R15, R15, c[0x0][0x1c], R3 ;\n"
	"   @P0  SHF.L.U32 R16, R16, 0x7, RZ ;\n"
	"   @!P0 SHF.R.S32.HI R17, RZ, 0x3, R17 ;\n"
	"   @P0  MOV R18, c[0x0][0x10] ;\n"
	"   @!P0 MOV R19, R7 ;\n"
	"   @P0  ISETP.GT.AND P4, PT, R4, R5, PT ;\n"
	"   @!P0 ISETP.LT.U32.AND P5, PT, R6, R7, PT ;\n"
	"   @P1  IADD3 R20, R20, 0x1, RZ ;\n"
	"   @P1  LOP3.LUT R21, R21, R5, RZ, 0x3c, !PT ;\n"
	"   @!P1 SHF.L.W.U32.HI R22, R22, 0x5, R23 ;\n"
	"   @P2  IMAD R23, R23, 0x3, R0 ;\n"
	"   @!P2 MOV R24, 0x55 ;\n"
	"   @!P3 IADD3 R25, R25, R0, R1 ;\n"
	"   @!P3 SHF.L.W.U32.HI R26, R26, 0x5, R27 ;\n"
	"   @!P3 LOP3.LUT R27, R27, R4, R5, 0xe8, !PT ;\n"
	"   @P3  MOV R28, RZ ;\n"
	"   @P0  BRA `(.odd) ;\n"
	"        IADD3 R29, R29, 0x11, RZ ;\n"
	"        IMAD R30, R30, R30, R9 ;\n"
	".odd:\n"
	"        IADD3 R31, R31, 0x22, R1 ;\n"
	"   @!P0 BRA `(.even) ;\n"
	"        LOP3.LUT R32, R32, R0, RZ, 0xfc, !PT ;\n"
	".even:\n"
	"        IADD3 R33, R33, R29, R31 ;\n";

static void ref_guard(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	(void)c, (void)in;
	ref_common(x, R);
	const uint32_t a = x->in[0], b = x->in[1], cc = x->in[2], d = x->in[3];
	const bool odd = x->w & 1, p1 = x->lane < 11, p2 = x->w == 2;
	R[8] = x->w & 1;
	if (odd) {
		R[10] += 5 + x->t;
		R[12] ^= cc ^ d;
		R[14] = R[14] * b + cc;
		R[16] <<= 7;
		R[18] = K0;
		R[32] |= x->t;
	} else {
		R[11] += b + K3;
		R[13] = lop3_ref(R[13], 0xff00ff, a, 0x6c);
		R[15] = R[15] * K3 + x->g;
		R[17] = (uint32_t)((int32_t)R[17] >> 3);
		R[19] = d;
		R[29] += 0x11;
		R[30] = R[30] * R[30] + R[9];
	}
	const bool p4 = odd && (int32_t)a > (int32_t)b, p5 = !odd && cc < d;
	if (p1) {
		R[20] += 1;
		R[21] ^= b;
	} else {
		R[22] = shf_ref(false, SHF_U32, true, true, R[22], 5, R[23]);
	}
	if (p2)
		R[23] = R[23] * 3 + x->t;
	else
		R[24] = 0x55;
	R[25] += x->t + x->w;
	R[26] = shf_ref(false, SHF_U32, true, true, R[26], 5, R[27]);
	R[27] = lop3_ref(R[27], a, b, 0xe8);
	R[31] += 0x22 + x->w;
	R[33] += R[29] + R[31];
	R[57] = pbits(odd, p1, p2, false, p4, p5, false);
}

/* ---- body: per-warp loop trips, then BAR.SYNC ------------------------ */

/* Loop 1 runs 2*(w & 3) + (w >> 2) + 1 trips: the group's warps leave it
 * one after the other (BRA with the per-warp Pp operand and a PT guard, so
 * the group runs the branch in one call and splits).  They meet at
 * BAR.SYNC 0 and read the next warp's result from shared memory; loop 2
 * has the same trips everywhere (the group runs it whole, @P2 BRA), loop
 * 3 again w + 1 trips (@P3 BRA.U), then a last BAR.SYNC. */
static const char body_loop[] =
	"        LOP3.LUT R8, R1, 0x3, RZ, 0xc0, !PT ;\n"
	"        SHF.R.U32.HI R9, RZ, 0x2, R1 ;\n"
	"        IMAD R8, R8, 0x2, R9 ;\n"
	"        IADD3 R8, R8, 0x1, RZ ;\n"
	"        MOV R10, RZ ;\n"
	"        MOV R11, R3 ;\n"
	".loop1:\n"
	"        IMAD R11, R11, 0x19660d, R10 ;\n"
	"        LOP3.LUT R11, R11, R4, RZ, 0x3c, !PT ;\n"
	"        SHF.R.U32.HI R12, RZ, 0xd, R11 ;\n"
	"        IADD3 R11, R11, c[0x0][0x1c], R12 ;\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P0, PT, R10, R8, PT ;\n"
	"        BRA P0, `(.loop1) ;\n"
	"        SHF.L.U32 R13, R0, 0x2, RZ ;\n"
	"        STS [R13], R11 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        IADD3 R14, R0, 0x20, RZ ;\n"
	"        ISETP.GE.U32.AND P1, PT, R14, R56, PT ;\n"
	"   @P1  IADD3 R14, R14, -R56, RZ ;\n"
	"        SHF.L.U32 R14, R14, 0x2, RZ ;\n"
	"        LDS R15, [R14] ;\n"
	"        MOV R16, RZ ;\n"
	"        MOV R17, R15 ;\n"
	".loop2:\n"
	"        LOP3.LUT R17, R17, R16, R5, 0x96, !PT ;\n"
	"        IMAD R17, R17, 0x5, R0 ;\n"
	"        IADD3 R16, R16, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P2, PT, R16, 0x6, PT ;\n"
	"   @P2  BRA `(.loop2) ;\n"
	"        MOV R18, RZ ;\n"
	"        MOV R19, R6 ;\n"
	".loop3:\n"
	"        IADD3 R19, R19, R18, R1 ;\n"
	"        IADD3 R18, R18, 0x1, RZ ;\n"
	"        ISETP.LE.U32.AND P3, PT, R18, R1, PT ;\n"
	"   @P3  BRA.U `(.loop3) ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        IADD3 R20, R11, R17, R19 ;\n";

static uint32_t loop_trips(uint32_t w)
{
	return 2 * (w & 3) + (w >> 2) + 1;
}

/* loop 1 of thread x: the final acc and R12 */
static uint32_t loop1_acc(const thr *x, uint32_t *r12)
{
	uint32_t acc = x->g, last = 0;
	for (uint32_t i = 0; i < loop_trips(x->w); i++) {
		acc = acc * 0x19660du + i;
		acc ^= x->in[0];
		last = acc >> 13;
		acc = acc + last + K3;
	}
	if (r12)
		*r12 = last;
	return acc;
}

static void ref_loop(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	ref_common(x, R);
	R[8] = loop_trips(x->w);
	R[9] = x->w >> 2;
	R[10] = R[8];
	R[11] = loop1_acc(x, &R[12]);
	R[13] = x->t * 4;
	const uint32_t nb = (x->t + 32) % x->n;
	const bool p1 = x->t + 32 >= x->n;
	R[14] = nb * 4;
	const thr y = thread_of(c, in, x->cta * x->n + nb);
	R[15] = loop1_acc(&y, NULL);
	uint32_t v = R[15];
	for (uint32_t i = 0; i < 6; i++)
		v = (v ^ i ^ x->in[1]) * 5 + x->t;
	R[16] = 6;
	R[17] = v;
	uint32_t s = x->in[2];
	for (uint32_t i = 0; i <= x->w; i++)
		s += i + x->w;
	R[18] = x->w + 1;
	R[19] = s;
	R[20] = R[11] + R[17] + R[19];
	R[57] = pbits(false, p1, false, false, false, false, false);
}

/* ---- body: intra-warp divergence inside a group ----------------------- */

/* The lanes below 5w branch: none in warp 0, some in warps 1-6, all of
 * warps 7.. (a uniform jump); BSSY/BSYNC reconverge them.  Then a loop of
 * lane & 7 trips (lanes leave it at different trips) in a BSSY region. */
static const char body_diverge[] =
	"        IMAD R8, R1, 0x5, RZ ;\n"
	"        ISETP.LT.U32.AND P0, PT, R2, R8, PT ;\n"
	"        MOV R9, R4 ;\n"
	"        MOV R10, R5 ;\n"
	"        BSSY B0, `(.join) ;\n"
	"   @P0  BRA `(.taken) ;\n"
	"        IADD3 R9, R9, 0x100, R2 ;\n"
	"        LOP3.LUT R10, R9, R10, RZ, 0x3c, !PT ;\n"
	"        BRA `(.sync) ;\n"
	".taken:\n"
	"        IMAD R9, R9, 0x3, R2 ;\n"
	"        SHF.L.U64.HI R10, R9, 0x3, R10 ;\n"
	".sync:\n"
	"        BSYNC B0 ;\n"
	".join:\n"
	"        IADD3 R11, R9, R10, RZ ;\n"
	"        VOTE.ANY R12, PT, P0 ;\n"
	"        ISETP.NE.U32.AND P1, PT, R12, RZ, PT ;\n"
	"        MOV R13, RZ ;\n"
	"        MOV R14, R6 ;\n"
	"        LOP3.LUT R15, R2, 0x7, RZ, 0xc0, !PT ;\n"
	"        BSSY B1, `(.after) ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R15, RZ, PT ;\n"
	"   @P2  BRA `(.done) ;\n"
	".loop:\n"
	"        IMAD R14, R14, 0x3, R13 ;\n"
	"        IADD3 R13, R13, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P2, PT, R13, R15, PT ;\n"
	"   @P2  BRA `(.loop) ;\n"
	".done:\n"
	"        BSYNC B1 ;\n"
	".after:\n"
	"        IADD3 R16, R14, R11, R1 ;\n";

static void ref_diverge(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	(void)c, (void)in;
	ref_common(x, R);
	const uint32_t a = x->in[0], b = x->in[1];
	const bool p0 = x->lane < 5 * x->w;
	R[8] = 5 * x->w;
	if (p0) {
		R[9] = a * 3 + x->lane;
		R[10] = shf_ref(false, SHF_U64, true, false, R[9], 3, b);
	} else {
		R[9] = a + 0x100 + x->lane;
		R[10] = R[9] ^ b;
	}
	R[11] = R[9] + R[10];
	const uint32_t below = 5 * x->w >= 32 ? 0xffffffffu : (1u << (5 * x->w)) - 1u;
	R[12] = x->valid & below;
	const uint32_t trips = x->lane & 7;
	uint32_t v = x->in[2];
	for (uint32_t i = 0; i < trips; i++)
		v = v * 3 + i;
	R[13] = trips;
	R[14] = v;
	R[15] = trips;
	R[16] = v + R[11] + x->w;
	R[57] = pbits(p0, R[12] != 0, trips == 0, false, false, false, false);
}

/* ---- body: branches whose guard is true in every warp -------------------- */

/* A BRA whose guard is PT (or true everywhere) is one handler call for the
 * whole group even when some warps or lanes do not jump: BRA.DIV without
 * divergence falls through, BRA.CONV jumps, BRA with a Pp operand that
 * differs per warp (some warps fall through) or per lane (an intra-warp
 * split, BSSY/BSYNC), BRA.U with a per-warp Pp.  Each comes after other
 * lockstep instructions, so the warps' next PC is the branch's, not the
 * one the group started at. */
static const char body_branch[] =
	"        MOV R8, RZ ;\n"
	"        IADD3 R8, R8, 0x1, RZ ;\n"
	"        BRA.DIV `(.b1) ;\n"
	"        IADD3 R8, R8, 0x10, RZ ;\n"
	".b1:\n"
	"        IADD3 R9, R8, 0x2, RZ ;\n"
	"        BRA.CONV `(.b2) ;\n"
	"        IADD3 R9, R9, 0x100, RZ ;\n"
	".b2:\n"
	"        LOP3.LUT R10, R1, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R10, RZ, PT ;\n"
	"        MOV R11, 0x3 ;\n"
	"        BRA P0, `(.b3) ;\n"
	"        IADD3 R11, R11, 0x20, RZ ;\n"
	".b3:\n"
	"        ISETP.LT.U32.AND P1, PT, R2, 0x7, PT ;\n"
	"        MOV R12, 0x5 ;\n"
	"        BSSY B0, `(.b5) ;\n"
	"        BRA P1, `(.b4) ;\n"
	"        IADD3 R12, R12, 0x40, RZ ;\n"
	".b4:\n"
	"        BSYNC B0 ;\n"
	".b5:\n"
	"        IADD3 R13, R12, R11, R9 ;\n"
	"        MOV R14, 0x7 ;\n"
	"        BRA.U !P0, `(.b6) ;\n"
	"        IADD3 R14, R14, 0x80, RZ ;\n"
	".b6:\n"
	"        IADD3 R15, R14, R8, RZ ;\n";

static void ref_branch(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	(void)c, (void)in;
	ref_common(x, R);
	const bool odd = x->w & 1, p1 = x->lane < 7;
	R[8] = 0x11;
	R[9] = 0x13;
	R[10] = odd;
	R[11] = odd ? 0x3 : 0x23;
	R[12] = p1 ? 0x5 : 0x45;
	R[13] = R[12] + R[11] + R[9];
	R[14] = odd ? 0x87 : 0x7;
	R[15] = R[14] + R[8];
	R[57] = pbits(odd, p1, false, false, false, false, false);
}

/* ---- body: memory accesses and guarded runs of warps ----------------------- */

/* 32-bit LDS/STS/LDG/STG run as one call for a group when every address
 * is inside shared memory or one allocation, warp by warp otherwise; a
 * guard true in some warps only splits the group into runs of warps.
 *   - every warp stores its t to sh[lane]: a write-write race of the
 *     warps, which one-at-a-time execution resolves in warp order (the
 *     round robin runs warp 0 first, each warp up to the BAR.SYNC): the
 *     group's one call must store in warp order too (so this body is not
 *     run under the warp-threads engine or a seeded schedule);
 *   - 8 lanes of a warp store to one word: the highest lane's value;
 *   - guarded stores and loads in runs of 4 warps (P1: w & 4 == 0) and
 *     all warps but warp 2 (P2), guarded ALU instructions likewise;
 *   - an LDG whose lanes read two allocations (the even warps `in`, the
 *     odd ones `out`, through a word stored first): declined as one call.
 * (R16:17 hold device addresses: cleared before the epilogue stores it;
 * 0x100 is the row of out of a body without table words, NREGW * 4.) */
static const char body_mem[] =
	"        SHF.L.U32 R8, R2, 0x2, RZ ;\n"
	"        SHF.L.U32 R9, R0, 0x2, RZ ;\n"
	"        SHF.R.U32.HI R13, RZ, 0x3, R0 ;\n"
	"        SHF.L.U32 R13, R13, 0x2, RZ ;\n"
	"        LOP3.LUT R11, R0, 0x1, RZ, 0x3c, !PT ;\n"
	"        SHF.L.U32 R11, R11, 0x2, RZ ;\n"
	"        LOP3.LUT R20, R1, 0x4, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P1, PT, R20, RZ, PT ;\n"
	"        ISETP.NE.U32.AND P2, PT, R1, 0x2, PT ;\n"
	"        STS [R8], R0 ;\n"
	"        STS [R9+0x1000], R4 ;\n"
	"   @P1  STS [R9+0x2000], R5 ;\n"
	"        STS [R13+0x800], R0 ;\n"
	"   @P1  IADD3 R24, R24, 0x3, R0 ;\n"
	"   @!P1 LOP3.LUT R25, R25, R6, R0, 0x96, !PT ;\n"
	"   @P2  IMAD R26, R26, 0x5, R1 ;\n"
	"   @!P2 SHF.R.U32.HI R27, RZ, 0x1, R27 ;\n"
	"   @P1  ISETP.LT.U32.AND P4, PT, R4, R5, PT ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R10, [R8] ;\n"
	"        LDS R12, [R11+0x1000] ;\n"
	"        LDS R14, [R13+0x800] ;\n"
	"   @P2  LDS R15, [R11+0x2000] ;\n"
	"        LDG R22, [R58.64+0x8] ;\n"
	"   @P1  LDG R23, [R58.64+0xc] ;\n"
	"   @P1  STG [R60.64+0xf8], R6 ;\n"
	"        STG [R60.64+0x4], R7 ;\n"
	"        LOP3.LUT R21, R1, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P3, PT, R21, RZ, PT ;\n"
	"        MOV R16, c[0x0][0x8] ;\n"
	"        MOV R17, c[0x0][0xc] ;\n"
	"        MOV R18, 0x10 ;\n"
	"   @P3  MOV R16, c[0x0][0x0] ;\n"
	"   @P3  MOV R17, c[0x0][0x4] ;\n"
	"   @P3  MOV R18, 0x100 ;\n"
	"        IMAD.WIDE.U32 R[16:17], R3, R18, R[16:17] ;\n"
	"        LDG R19, [R16.64+0x4] ;\n"
	"        MOV R16, RZ ;\n"
	"        MOV R17, RZ ;\n";

static void ref_mem(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	ref_common(x, R);
	const uint32_t n = x->n, nw = (n + 31) / 32, last_lanes = n - (nw - 1) * 32;
	const bool p1 = (x->w & 4) == 0, p2 = x->w != 2, odd = x->w & 1;
	const thr y = thread_of(c, in, x->cta * n + (x->t ^ 1u)); /* t ^ 1 < n: n is even */
	R[8] = x->lane * 4;
	R[9] = x->t * 4;
	R[13] = (x->t >> 3) * 4;
	R[11] = (x->t ^ 1u) * 4;
	R[20] = x->w & 4;
	if (p1) {
		R[24] += 3 + x->t;
		R[23] = x->in[3];
	} else {
		R[25] ^= x->in[2] ^ x->t;
	}
	if (p2)
		R[26] = R[26] * 5 + x->w;
	else
		R[27] >>= 1;
	const bool p4 = p1 && x->in[0] < x->in[1];
	R[10] = (x->lane < last_lanes ? nw - 1 : nw - 2) * 32 + x->lane;
	R[12] = y.in[0];
	R[14] = (x->t | 7u) < n ? x->t | 7u : n - 1;
	if (p2)
		R[15] = p1 ? y.in[1] : 0; /* y is in x's warp */
	R[22] = x->in[2];
	R[21] = odd;
	R[16] = R[17] = 0;
	R[18] = odd ? 0x100 : 0x10;
	R[19] = odd ? x->in[3] : x->in[1];
	R[57] = pbits(false, p1, p2, odd, p4, false, false);
}

/* ---- body: every operand kind ----------------------------------------- */

/* MOV, IADD3, IMAD, LOP3, SHF and ISETP with immediates, c[0x0][..]
 * parameters, a .const bank, RZ (read, and written then read) and
 * registers, a destination that is also a source; and the forms that run
 * warp by warp inside a group (negated operands, carries, .X, IMAD.HI,
 * a LOP3 predicate result, a register shift count).  Then BRA.DIV and
 * BRA.CONV with a uniform register that differs per warp (R2UR): the ALU
 * instructions take no uniform register operand (alu.isa has only the
 * B_R, B_I and B_C forms); BRA is the lockstep instruction that does,
 * and with one it runs warp by warp (sem_lockstep_form). */
static const char body_operands[] =
	"        MOV R8, 0x12345678 ;\n"
	"        MOV R9, c[0x0][0x1c] ;\n"
	"        MOV R10, R4 ;\n"
	"        MOV R11, RZ ;\n"
	"        MOV R12, c[0x2][0x8] ;\n"
	"        MOV RZ, R5 ;\n"
	"        IADD3 R13, R4, 0x11, R5 ;\n"
	"        IADD3 R14, R4, c[0x0][0x10], RZ ;\n"
	"        IADD3 R15, RZ, R5, R6 ;\n"
	"        IADD3 R16, R4, -0x7, R6 ;\n"
	"        IADD3 R17, RZ, RZ, RZ ;\n"
	"        IADD3 R18, R18, R18, R4 ;\n"
	"        IADD3 R19, -R4, R5, RZ ;\n"
	"        IADD3 R20, P0, P1, R4, R5, R6 ;\n"
	"        IADD3.X R21, R6, R7, RZ, P0, P1 ;\n"
	"        IMAD R22, R4, R5, R6 ;\n"
	"        IMAD R23, R4, 0x3, RZ ;\n"
	"        IMAD R24, R4, c[0x0][0x1c], R7 ;\n"
	"        IMAD.HI.U32 R25, R4, R5, R6 ;\n"
	"        IMAD.HI R26, R4, R5, RZ ;\n"
	"        IMAD.SHL R27, R4, 0x10, RZ ;\n"
	"        IMAD.MOV.U32 R28, RZ, RZ, R7 ;\n"
	"        IMAD R29, R5, c[0x0][0x14], R29 ;\n"
	"        LOP3.LUT R30, R4, R5, R6, 0xe8, !PT ;\n"
	"        LOP3.LUT R31, R4, 0xff00ff, R6, 0xca, !PT ;\n"
	"        LOP3.LUT R32, R4, c[0x2][0xc], RZ, 0x3c, !PT ;\n"
	"        LOP3.LUT R33, RZ, R5, RZ, 0x33, !PT ;\n"
	"        LOP3.LUT P2, R34, R4, R5, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R35, R4, 0x5, RZ ;\n"
	"        SHF.R.U32.HI R36, RZ, c[0x0][0x18], R5 ;\n"
	"        SHF.R.W.U32.HI R37, RZ, c[0x0][0x18], R5 ;\n"
	"        SHF.L.U64.HI R38, R4, c[0x0][0x18], R5 ;\n"
	"        SHF.R.S32.HI R39, RZ, R2, R6 ;\n"
	"        ISETP.GT.U32.AND P3, P4, R4, R5, PT ;\n"
	"        ISETP.LE.OR P5, P6, R4, c[0x0][0x14], P2 ;\n"
	"        ISETP.NE.XOR P0, P1, R6, 0x7fffffff, !P3 ;\n"
	"        P2R R40, PR, RZ, 0x7f ;\n"
	"        LOP3.LUT R41, R1, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R41, RZ, PT ;\n"
	"        MOV R42, 0xffff ;\n"
	"   @P0  MOV R42, 0xffff0000 ;\n"
	"        R2UR UR4, R42 ;\n"
	"        ISETP.LT.U32.AND P1, PT, R2, 0x10, PT ;\n"
	"        MOV R43, 0x1 ;\n"
	"        BRA.DIV P1, UR4, `(.u1) ;\n"
	"        MOV R43, 0x2 ;\n"
	".u1:\n"
	"        MOV R44, 0x1 ;\n"
	"        BRA.CONV P1, UR4, `(.u2) ;\n"
	"        MOV R44, 0x2 ;\n"
	".u2:\n"
	"        IADD3 R45, R43, R44, R45 ;\n"
	"        IMAD.WIDE R[46:47], R4, R5, R[6:7] ;\n"
	"        IMAD.WIDE.U32 R[48:49], R4, 0x7654321, RZ ;\n"
	"        IMAD.WIDE R[50:51], R5, c[0x0][0x1c], R[50:51] ;\n"
	"        IMAD.WIDE.U32 R[52:53], R7, R6, R[4:5] ;\n"
	"        IMAD.WIDE R[54:55], R6, 0x1, RZ ;\n"
	"        IMAD.WIDE R[54:55], R6, 0x8, R[54:55] ;\n";

static void ref_operands(const we_launch_config *c, const uint32_t *in, const thr *x, uint32_t R[58])
{
	(void)c, (void)in;
	ref_common(x, R);
	const uint32_t a = x->in[0], b = x->in[1], cc = x->in[2], d = x->in[3];
	R[8] = 0x12345678u;
	R[9] = K3;
	R[10] = a;
	R[11] = 0;
	R[12] = ctab[2];
	R[13] = a + 0x11 + b;
	R[14] = a + K0;
	R[15] = b + cc;
	R[16] = a - 7 + cc;
	R[17] = 0;
	R[18] = 2 * R[18] + a;
	R[19] = b - a;
	const uint64_t s3 = (uint64_t)a + b + cc;
	R[20] = (uint32_t)s3;
	const bool c0 = (s3 >> 32) >= 1, c1 = (s3 >> 32) >= 2;
	R[21] = cc + d + c0 + c1;
	R[22] = a * b + cc;
	R[23] = a * 3;
	R[24] = a * K3 + d;
	R[25] = (uint32_t)(((uint64_t)a * b) >> 32) + cc;
	R[26] = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
	R[27] = a << 4;
	R[28] = d;
	R[29] = b * K1 + R[29];
	R[30] = lop3_ref(a, b, cc, 0xe8);
	R[31] = lop3_ref(a, 0xff00ff, cc, 0xca);
	R[32] = a ^ ctab[3];
	R[33] = ~b;
	R[34] = a & b;
	const bool p2 = (a & b) != 0;
	R[35] = a << 5;
	R[36] = shf_ref(true, SHF_U32, true, false, 0, K2, b);
	R[37] = shf_ref(true, SHF_U32, true, true, 0, K2, b);
	R[38] = shf_ref(false, SHF_U64, true, false, a, K2, b);
	R[39] = shf_ref(true, SHF_S32, true, false, 0, x->lane, cc);
	const bool p3 = a > b, p4 = !p3;
	bool p5, p6, q0, q1;
	setp_ref(icmp_ref(3, false, a, K1), 1, p2, &p5, &p6);
	setp_ref(cc != 0x7fffffffu, 2, !p3, &q0, &q1);
	R[40] = pbits(q0, q1, p2, p3, p4, p5, p6);
	/* BRA.{DIV,CONV} with UR4 (bru_bra_mask, the UR form): the lanes of
	 * Pp are 0-15; the warp is divergent when some active lane of UR4
	 * has Pp false and Pp is neither all true nor all false; the whole
	 * warp then jumps (.DIV) or falls through (.CONV). */
	const bool odd = x->w & 1;
	const uint32_t ur = odd ? 0xffff0000u : 0xffffu, pgv = x->valid & 0xffffu;
	const bool is_div = pgv != x->valid && pgv != 0 && (x->valid & ~pgv & ur) != 0;
	R[41] = odd;
	R[42] = ur;
	R[43] = pgv && is_div ? 1 : 2;
	R[44] = pgv && !is_div ? 1 : 2;
	R[45] = R[43] + R[44] + R[45];
	/* IMAD.WIDE (64-bit lanes for a group): signed and unsigned, the
	 * addend a register pair, RZ, the destination itself */
	uint64_t w = (uint64_t)((int64_t)(int32_t)a * (int32_t)b) + ((uint64_t)d << 32 | cc);
	R[46] = (uint32_t)w, R[47] = (uint32_t)(w >> 32);
	w = (uint64_t)a * 0x7654321u;
	R[48] = (uint32_t)w, R[49] = (uint32_t)(w >> 32);
	w = (uint64_t)((int64_t)(int32_t)b * (int32_t)K3) + ((uint64_t)R[51] << 32 | R[50]);
	R[50] = (uint32_t)w, R[51] = (uint32_t)(w >> 32);
	w = (uint64_t)d * cc + ((uint64_t)b << 32 | a);
	R[52] = (uint32_t)w, R[53] = (uint32_t)(w >> 32);
	/* times 2^0 and 2^3, signed (a shift in 32-bit lanes for a group) */
	w = (uint64_t)((int64_t)(int32_t)cc * 9);
	R[54] = (uint32_t)w, R[55] = (uint32_t)(w >> 32);
	R[57] = pbits(odd, x->lane < 16, p2, p3, p4, p5, p6);
}

/* ---- tables: LOP3, ISETP, SHF ---------------------------------------- */

/* A table body computes its results into R8..R47, 40 at a time, and
 * stores each batch in words NREGW.. of its thread; tab_desc[j]
 * describes result j for the host reference. */
#define BATCH 40u
#define MAXTAB 400u

typedef struct tdesc {
	uint8_t kind;           /* 'L', 'I', 'S' */
	uint8_t form;           /* which operands */
	uint16_t op;            /* lut / cmp | sign << 3 | bop << 4 / shape */
	uint32_t imm;           /* an immediate operand */
} tdesc;

typedef struct tbody {
	th_sbuf text;
	tdesc desc[MAXTAB];
	unsigned n, pending;
} tbody;

static unsigned tb_reg(const tbody *tb)
{
	return 8 + tb->pending;
}

static void tb_flush(tbody *tb)
{
	for (unsigned k = 0; k < tb->pending; k++)
		th_sb_add(&tb->text, "        STG [R60.64+0x%x], R%u ;\n", 4 * (NREGW + tb->n - tb->pending + k), 8 + k);
	tb->pending = 0;
}

/* The instruction just added wrote result tb->n into tb_reg(). */
static void tb_result(tbody *tb, tdesc d)
{
	CHECK(tb->n < MAXTAB, "table too long");
	tb->desc[tb->n++] = d;
	if (++tb->pending == BATCH)
		tb_flush(tb);
}

/* LOP3: every table on three registers; a set of tables (the ones the
 * handler has its own loops for, and others) with an immediate, a
 * parameter and RZ operands. */
static const unsigned lop3_sel[] = { 0x3c, 0x5a, 0x66, 0x96, 0xc0, 0xa0, 0x88, 0x80, 0xfc, 0xfa, 0xee,
				     0xfe, 0x30, 0x0c, 0xf8, 0xe8, 0xca, 0x00, 0xff, 0x0f, 0xf0, 0x55,
				     0xaa, 0x33, 0xcc, 0x01, 0x7f, 0x69, 0x1e, 0xb4, 0xd2, 0x6c };

static void build_lop3(tbody *tb)
{
	for (unsigned lut = 0; lut < 256; lut++) {
		th_sb_add(&tb->text, "        LOP3.LUT R%u, R4, R5, R6, 0x%02x, !PT ;\n", tb_reg(tb), lut);
		tb_result(tb, (tdesc){ 'L', 0, (uint16_t)lut, 0 });
	}
	for (size_t i = 0; i < sizeof lop3_sel / sizeof lop3_sel[0]; i++) {
		const unsigned lut = lop3_sel[i];
		th_sb_add(&tb->text, "        LOP3.LUT R%u, R4, 0x0ff0f00f, R6, 0x%02x, !PT ;\n", tb_reg(tb), lut);
		tb_result(tb, (tdesc){ 'L', 1, (uint16_t)lut, 0x0ff0f00fu });
		th_sb_add(&tb->text, "        LOP3.LUT R%u, R5, c[0x0][0x1c], R7, 0x%02x, !PT ;\n", tb_reg(tb), lut);
		tb_result(tb, (tdesc){ 'L', 2, (uint16_t)lut, 0 });
		th_sb_add(&tb->text, "        LOP3.LUT R%u, RZ, R6, RZ, 0x%02x, !PT ;\n", tb_reg(tb), lut);
		tb_result(tb, (tdesc){ 'L', 3, (uint16_t)lut, 0 });
	}
}

/* ISETP: every comparison, signed and unsigned, against a register,
 * immediates at the limits and parameters; then the .OR and .XOR
 * combinations with a Pp that differs per warp (P6: odd warp) and per
 * lane (!P5: even lane).  Each result is P1:P0 (P2R). */
static const uint32_t isetp_imm[] = { 0x7fffffffu, 0x80000000u, 0x0u, 0xffffffffu, 0x7ffffffeu };

static void build_isetp(tbody *tb)
{
	th_sb_add(&tb->text, "        LOP3.LUT R57, R1, 0x1, RZ, 0xc0, !PT ;\n"
			  "        ISETP.NE.U32.AND P6, PT, R57, RZ, PT ;\n"
			  "        LOP3.LUT R57, R2, 0x1, RZ, 0xc0, !PT ;\n"
			  "        ISETP.NE.U32.AND P5, PT, R57, RZ, PT ;\n");
	for (unsigned cmp = 0; cmp < 8; cmp++)
		for (unsigned u = 0; u < 2; u++) {
			const char *sg = u ? ".U32" : "";
			const uint16_t op = (uint16_t)(cmp | u << 3);
			th_sb_add(&tb->text, "        ISETP.%s%s.AND P0, P1, R4, R5, PT ;\n", cmp_name[cmp], sg);
			th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
			tb_result(tb, (tdesc){ 'I', 0, op, 0 });
			for (size_t k = 0; k < sizeof isetp_imm / sizeof isetp_imm[0]; k++) {
				th_sb_add(&tb->text, "        ISETP.%s%s.AND P0, P1, R4, 0x%x, PT ;\n", cmp_name[cmp],
					  sg, isetp_imm[k]);
				th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
				tb_result(tb, (tdesc){ 'I', 1, op, isetp_imm[k] });
			}
			th_sb_add(&tb->text, "        ISETP.%s%s.AND P0, P1, R5, c[0x0][0x10], PT ;\n", cmp_name[cmp],
				  sg);
			th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
			tb_result(tb, (tdesc){ 'I', 2, op, K0 });
			th_sb_add(&tb->text, "        ISETP.%s%s.AND P0, P1, R5, c[0x0][0x14], PT ;\n", cmp_name[cmp],
				  sg);
			th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
			tb_result(tb, (tdesc){ 'I', 2, op, K1 });
			th_sb_add(&tb->text, "        ISETP.%s%s.OR P0, P1, R4, R5, P6 ;\n", cmp_name[cmp], sg);
			th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
			tb_result(tb, (tdesc){ 'I', 3, (uint16_t)(op | 1u << 4), 0 });
			th_sb_add(&tb->text, "        ISETP.%s%s.XOR P0, P1, R4, R5, !P5 ;\n", cmp_name[cmp], sg);
			th_sb_add(&tb->text, "        P2R R%u, PR, RZ, 0x3 ;\n", tb_reg(tb));
			tb_result(tb, (tdesc){ 'I', 4, (uint16_t)(op | 2u << 4), 0 });
		}
}

/* SHF: both directions, every type, .HI or not, .W or clamped, with
 * immediate counts 0, 1, 31, 32, 33, 63, 64; the count 33 from a
 * parameter; and (warp by warp in a group) per-lane counts d & 0x7f from
 * a register.  shape = dir | type << 1 | hi << 3 | wrap << 4. */
static const uint32_t shf_counts[] = { 0, 1, 31, 32, 33, 63, 64 };

static void build_shf(tbody *tb)
{
	th_sb_add(&tb->text, "        LOP3.LUT R57, R7, 0x7f, RZ, 0xc0, !PT ;\n");
	for (unsigned shape = 0; shape < 32; shape++) {
		const bool right = shape & 1, hi = (shape >> 3) & 1, wrap = (shape >> 4) & 1;
		const unsigned type = (shape >> 1) & 3;
		char op[40];
		snprintf(op, sizeof op, "SHF.%s%s.%s%s", right ? "R" : "L", wrap ? ".W" : "", shf_type_name[type],
			 hi ? ".HI" : "");
		for (size_t k = 0; k < sizeof shf_counts / sizeof shf_counts[0]; k++) {
			th_sb_add(&tb->text, "        %s R%u, R4, 0x%x, R5 ;\n", op, tb_reg(tb), shf_counts[k]);
			tb_result(tb, (tdesc){ 'S', 0, (uint16_t)shape, shf_counts[k] });
		}
		th_sb_add(&tb->text, "        %s R%u, R6, c[0x0][0x18], R4 ;\n", op, tb_reg(tb));
		tb_result(tb, (tdesc){ 'S', 1, (uint16_t)shape, K2 });
		th_sb_add(&tb->text, "        %s R%u, R5, R57, R6 ;\n", op, tb_reg(tb));
		tb_result(tb, (tdesc){ 'S', 2, (uint16_t)shape, 0 });
	}
}

static uint32_t tab_ref(const tdesc *d, const thr *x)
{
	const uint32_t a = x->in[0], b = x->in[1], c = x->in[2], dd = x->in[3];
	switch (d->kind) {
	case 'L':
		switch (d->form) {
		case 0: return lop3_ref(a, b, c, d->op);
		case 1: return lop3_ref(a, d->imm, c, d->op);
		case 2: return lop3_ref(b, K3, dd, d->op);
		default: return lop3_ref(0, c, 0, d->op);
		}
	case 'I': {
		const unsigned cmp = d->op & 7, bop = (d->op >> 4) & 3;
		const bool u = (d->op >> 3) & 1;
		bool t, p = true, pu, pv;
		switch (d->form) {
		case 0: t = icmp_ref(cmp, u, a, b); break;
		case 1: t = icmp_ref(cmp, u, a, d->imm); break;
		case 2: t = icmp_ref(cmp, u, b, d->imm); break;
		case 3: t = icmp_ref(cmp, u, a, b); p = x->w & 1; break;
		default: t = icmp_ref(cmp, u, a, b); p = !(x->lane & 1); break;
		}
		setp_ref(t, bop, p, &pu, &pv);
		return (uint32_t)pu | (uint32_t)pv << 1;
	}
	default: {
		const bool right = d->op & 1, hi = (d->op >> 3) & 1, wrap = (d->op >> 4) & 1;
		const unsigned type = (d->op >> 1) & 3;
		switch (d->form) {
		case 0: return shf_ref(right, type, hi, wrap, a, d->imm, b);
		case 1: return shf_ref(right, type, hi, wrap, c, K2, a);
		default: return shf_ref(right, type, hi, wrap, b, dd & 0x7f, c);
		}
	}
	}
}

/* ---- running a body ---------------------------------------------------- */

static const struct shape {
	const char *name;
	we_dim3 grid, block;
} shapes[] = {
	{ "block 256", { 3, 1, 1 }, { 256, 1, 1 } },
	{ "block 1024", { 2, 1, 1 }, { 1024, 1, 1 } },
	{ "block 100 (partial last warp)", { 3, 1, 1 }, { 100, 1, 1 } },
	{ "block 16x6", { 2, 1, 1 }, { 16, 6, 1 } },
	{ "block 32x32", { 2, 1, 1 }, { 32, 32, 1 } },
	{ "block 20x5x3 (partial last warp)", { 2, 1, 1 }, { 20, 5, 3 } },
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* A purpose-built kernel: body (with ntab table words) loaded, its
 * parameters set, `in` filled and `out` at 0xa5. */
typedef struct bk {
	th_kernel t;
	unsigned nout;
	uint32_t *in;
} bk;

static void bk_open(bk *k, const char *label, const char *body, unsigned ntab)
{
	k->nout = NREGW + ntab;
	char *text = kernel_text(body, k->nout);
	th_load(&k->t, text, label, "lockstep");
	free(text);
	k->t.row_words = k->nout;
	k->in = th_xmalloc(MAXTHREADS * 16);
	fill_in(k->in);
	th_buf_new(&k->t, "out", NULL, (size_t)MAXTHREADS * k->nout * 4, 0xa5);
	th_buf_new(&k->t, "in", k->in, MAXTHREADS * 16, 0);
	th_u32(&k->t, "k0", K0);
	th_u32(&k->t, "k1", K1);
	th_u32(&k->t, "k2", K2);
	th_u32(&k->t, "k3", K3);
}

static void bk_close(bk *k)
{
	free(k->in);
	th_close(&k->t);
}

/* Checks a launch's out against the host: the registers when ref is set,
 * the table words when tb is. */
static void bk_check(bk *k, const we_launch_config *c, const th_run *r, ref_fn ref, const tbody *tb, const char *label)
{
	const uint32_t *out = (const uint32_t *)(void *)th_view(&k->t, r->mem, "out");
	const uint32_t nthreads = c->grid.x * c->block.x * c->block.y * c->block.z;
	CHECK(nthreads <= MAXTHREADS, "%s: %u threads", label, nthreads);
	for (uint32_t g = 0; g < nthreads; g++) {
		const thr x = thread_of(c, k->in, g);
		const uint32_t *o = out + (size_t)g * k->nout;
		uint32_t R[58];
		if (ref) {
			ref(c, k->in, &x, R);
			for (unsigned q = 0; q < 58; q++)
				CHECK(o[q] == R[q], "%s: thread %u (CTA %u warp %u lane %u): %s%u = 0x%08x, want 0x%08x",
				      label, g, x.cta, x.w, x.lane, q == 57 ? "P6..P0 " : "R", q == 57 ? 0 : q, o[q],
				      R[q]);
		} else {
			ref_common(&x, R);
			for (unsigned q = 0; q < 8; q++)
				CHECK(o[q] == R[q], "%s: thread %u: R%u = 0x%08x, want 0x%08x", label, g, q, o[q], R[q]);
		}
		if (tb)
			for (unsigned j = 0; j < tb->n; j++) {
				const uint32_t want = tab_ref(&tb->desc[j], &x);
				CHECK(o[NREGW + j] == want,
				      "%s: thread %u (warp %u lane %u, a 0x%08x b 0x%08x c 0x%08x d 0x%08x): "
				      "result %u (%c form %u op 0x%x imm 0x%x) = 0x%08x, want 0x%08x",
				      label, g, x.w, x.lane, x.in[0], x.in[1], x.in[2], x.in[3], j, tb->desc[j].kind,
				      tb->desc[j].form, tb->desc[j].op, tb->desc[j].imm, o[NREGW + j], want);
			}
	}
	/* the rest of out is untouched */
	for (size_t i = (size_t)nthreads * k->nout; i < (size_t)MAXTHREADS * k->nout; i++)
		CHECK(out[i] == 0xa5a5a5a5u, "%s: out[%zu] = 0x%08x past the threads", label, i, out[i]);
}

/* The body on every shape: lockstep 1 against the host, every other
 * lockstep value against lockstep 1. */
static void run_body(const char *name, const char *body, ref_fn ref, const tbody *tb)
{
	bk k;
	bk_open(&k, name, body, tb ? tb->n : 0);
	for (size_t s = 0; s < NSHAPES; s++) {
		we_launch_config c = { .grid = shapes[s].grid, .block = shapes[s].block };
		char label[160];
		snprintf(label, sizeof label, "%s, %s", name, shapes[s].name);
		th_run r;
		run_ref(&k.t, c, label, &r, NULL);
		bk_check(&k, &c, &r, ref, tb, label);
		compare_rest(&k.t, c, label, &r, NULL);
		th_run_free(&r);
	}
	bk_close(&k);
}

START_TEST(guard_per_warp)
{
	run_body("guard", body_guard, ref_guard, NULL);
}
END_TEST

START_TEST(loop_trips_per_warp)
{
	run_body("loop", body_loop, ref_loop, NULL);
}
END_TEST

START_TEST(divergence_in_group)
{
	run_body("diverge", body_diverge, ref_diverge, NULL);
}
END_TEST

START_TEST(branch_in_group)
{
	run_body("branch", body_branch, ref_branch, NULL);
}
END_TEST

START_TEST(memory_and_runs)
{
	run_body("memory", body_mem, ref_mem, NULL);
}
END_TEST

START_TEST(operand_kinds)
{
	run_body("operands", body_operands, ref_operands, NULL);
}
END_TEST

static void run_table(const char *name, void (*build)(tbody *))
{
	tbody *tb = th_xmalloc(sizeof *tb);
	memset(tb, 0, sizeof *tb);
	build(tb);
	tb_flush(tb);
	run_body(name, tb->text.p, NULL, tb);
	free(tb->text.p);
	free(tb);
}

START_TEST(lop3_tables)
{
	run_table("LOP3.LUT", build_lop3);
}
END_TEST

START_TEST(isetp_comparisons)
{
	run_table("ISETP", build_isetp);
}
END_TEST

START_TEST(shf_shapes)
{
	run_table("SHF", build_shf);
}
END_TEST

/* ================================================================ */
/* Part 3: faults and the watchdog                                    */

/* A kernel that stops: lockstep 1 must give status `want` with a report
 * naming every string of parts (a host-side statement of what the
 * report is), and every other lockstep value exactly the same text and
 * JSON reports.  (The counters and buffers of a stopped launch depend on
 * how far the other warps got, which the schedule decides.) */
static void expect_stop(const char *label, const char *text, we_dim3 block, uint64_t max_insns, we_status want,
			const char *const *parts)
{
	th_kernel t;
	th_load(&t, text, "stop.we", NULL);
	if (t.k->nparams)
		th_buf_new(&t, "out", NULL, 4096, 0);
	we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = block, .max_instructions = max_insns, .lockstep = 1 };
	th_run ref;
	lk_run(&t, &c, &ref);
	CHECK(ref.st == want, "%s, lockstep 1: status %s, want %s\n%s", label, we_status_name(ref.st),
	      we_status_name(want), ref.err);
	for (; *parts; parts++)
		CHECK(strstr(ref.err, *parts), "%s, lockstep 1: the report lacks '%s':\n%s", label, *parts, ref.err);
	CHECK(*ref.json == '{', "%s: no JSON report", label);
	compare_rest(&t, c, label, &ref, NULL);
	th_run_free(&ref);
	th_close(&t);
}

/* Every warp of the CTA reaches a constant read out of the parameter
 * block (4 bytes) at the same time with every lane active: the group's
 * one handler call faults, and the report must be warp 0's, as when warp
 * 0 runs alone first.  One kernel per lockstep handler reading c[][]. */
START_TEST(fault_const_in_group)
{
	static const char *const insn[] = {
		"MOV R3, c[0x0][0x40]",
		"IADD3 R3, R1, c[0x0][0x40], RZ",
		"IMAD R3, R1, c[0x0][0x40], R2",
		"ISETP.LT.U32.AND P0, PT, R1, c[0x0][0x40], PT",
		"LOP3.LUT R3, R1, c[0x0][0x40], R2, 0x96, !PT",
		"SHF.L.U32 R3, R1, c[0x0][0x40], RZ",
	};
	const char *text_fmt = ".param u32 k\n"
			       "        S2R R0, SR_TID.X ;\n"
			       "        IADD3 R1, R0, 0x1, RZ ;\n"
			       "        LOP3.LUT R2, R1, 0x3c, RZ, 0xc0, !PT ;\n"
			       "        %s ;\n"
			       "        EXIT ;\n";
	for (size_t i = 0; i < sizeof insn / sizeof insn[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, text_fmt, insn[i]);
		const char *parts[] = { "c[0x0][0x40]", "outside the bank (4 bytes)", "CTA (0,0,0) warp 0 lanes 0-31",
					"PC 0x0030", NULL };
		th_kernel t;
		th_load(&t, text, "stop.we", NULL);
		th_u32(&t, "k", 7);
		we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(256, 1, 1), .lockstep = 1 };
		th_run ref;
		lk_run(&t, &c, &ref);
		CHECK(ref.st == WE_ERR_EXCEPTION, "%s: status %s\n%s", insn[i], we_status_name(ref.st), ref.err);
		for (const char *const *p = parts; *p; p++)
			CHECK(strstr(ref.err, *p), "%s: the report lacks '%s':\n%s", insn[i], *p, ref.err);
		CHECK(strstr(ref.json, "\"warp\":0,") && strstr(ref.json, "\"pc\":\"0x0030\""),
		      "%s: JSON report %s", insn[i], ref.json);
		compare_rest(&t, c, insn[i], &ref, NULL);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* Every warp stores out of range (warp by warp inside a group). */
START_TEST(fault_global_in_group)
{
	const char *parts[] = { "out-of-range", "global access of 4 bytes at 0x100", "warp 0 lanes 0-31",
				"STG [R2.64], R0", NULL };
	expect_stop("global store", "        S2R R0, SR_TID.X ;\n"
				    "        SHF.L.U32 R1, R0, 0x2, RZ ;\n"
				    "        MOV R2, 0x100 ;\n"
				    "        MOV R3, RZ ;\n"
				    "        IADD3 R2, R2, R1, RZ ;\n"
				    "        STG [R2.64], R0 ;\n"
				    "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, parts);
}
END_TEST

/* Warp 5 alone faults (a guard per warp inside a group of 8): its report,
 * whether warps 0-4 ran to their end first or just skipped the read. */
START_TEST(fault_one_warp_in_group)
{
	const char *parts[] = { "c[0x0][0x40]", "warp 5 lanes 0-31", "PC 0x0030", NULL };
	expect_stop("warp 5", ".param ptr out\n"
			      "        S2R R0, SR_TID.X ;\n"
			      "        SHF.R.U32.HI R4, RZ, 0x5, R0 ;\n"
			      "        ISETP.EQ.U32.AND P0, PT, R4, 0x5, PT ;\n"
			      "   @P0  MOV R3, c[0x0][0x40] ;\n"
			      "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, parts);
	/* lanes 16-25 of warp 2: the fault names those lanes */
	const char *parts2[] = { "warp 2 lanes 16-25", "global access of 4 bytes at 0x", NULL };
	expect_stop("warp 2 lanes 16-25", ".param ptr out\n"
					  "        S2R R0, SR_TID.X ;\n"
					  "        ISETP.GE.U32.AND P0, PT, R0, 0x50, PT ;\n"
					  "        ISETP.LT.U32.AND P0, PT, R0, 0x5a, P0 ;\n"
					  "        MOV R2, c[0x0][0x0] ;\n"
					  "        MOV R3, c[0x0][0x4] ;\n"
					  "   @P0  IADD3 R3, R3, 0x100, RZ ;\n"
					  "        IMAD.WIDE.U32 R[2:3], R0, 0x4, R[2:3] ;\n"
					  "        STG [R2.64], R0 ;\n"
					  "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, parts2);
}
END_TEST

/* Memory accesses a group would run as one call, declined because some
 * address is out of range: the warps then run one by one, and the report
 * is the one of the first warp and lanes that fault. */
START_TEST(fault_memory_in_group)
{
	const char *p1[] = { "out-of-range", "global access of 4 bytes at 0x200", "warp 0 lanes 0-31",
			     "LDG R4, [R2.64+0x100]", NULL };
	expect_stop("global load", "        S2R R0, SR_TID.X ;\n"
				   "        SHF.L.U32 R1, R0, 0x2, RZ ;\n"
				   "        MOV R2, 0x100 ;\n"
				   "        MOV R3, RZ ;\n"
				   "        IADD3 R2, R2, R1, RZ ;\n"
				   "        LDG R4, [R2.64+0x100] ;\n"
				   "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, p1);
	/* warp 3 (t = 96..127) stores past the CTA's 1024 bytes of shared
	 * memory, from 0x300 + 4 * 96 on */
	const char *p2[] = { "shared access of 4 bytes at 0x480", "outside the CTA's 1024 bytes", "warp 3 lanes 0-31",
			     "STS [R1], R0", NULL };
	expect_stop("shared store", ".shared 1024\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        LOP3.LUT R1, R0, 0xff, RZ, 0xc0, !PT ;\n"
				   "        SHF.L.U32 R1, R1, 0x2, RZ ;\n"
				   "        SHF.R.U32.HI R2, RZ, 0x5, R0 ;\n"
				   "        ISETP.EQ.U32.AND P0, PT, R2, 0x3, PT ;\n"
				   "   @P0  IADD3 R1, R1, 0x300, RZ ;\n"
				   "        STS [R1], R0 ;\n"
				   "        LDS R3, [R1] ;\n"
				   "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, p2);
	/* lane 5 of warp 6 stores misaligned */
	const char *p3[] = { "misaligned", "warp 6 lanes 5", "STS [R1], R0", NULL };
	expect_stop("misaligned shared store", ".shared 1024\n"
				    "        S2R R0, SR_TID.X ;\n"
				    "        SHF.L.U32 R1, R0, 0x2, RZ ;\n"
				    "        ISETP.EQ.U32.AND P0, PT, R0, 0xc5, PT ;\n"
				    "   @P0  IADD3 R1, R1, 0x2, RZ ;\n"
				    "        STS [R1], R0 ;\n"
				    "        EXIT ;\n",
		    th_dim3(256, 1, 1), 0, WE_ERR_EXCEPTION, p3);
}
END_TEST

/* s with the number after every "warp " and "\"warp\":" replaced by '#';
 * *warp gets the first such number. */
static char *mask_warp(const char *s, unsigned *warp)
{
	char *m = th_xstrdup(s), *o = m;
	bool first = true;
	for (const char *p = s; *p;) {
		size_t k = !strncmp(p, "warp ", 5) ? 5 : !strncmp(p, "\"warp\":", 7) ? 7 : 0;
		if (k && p[k] >= '0' && p[k] <= '9') {
			memcpy(o, p, k);
			o += k;
			p += k;
			if (first)
				*warp = (unsigned)strtoul(p, NULL, 10);
			first = false;
			*o++ = '#';
			while (*p >= '0' && *p <= '9')
				p++;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return m;
}

/* Every warp faults at the same instruction right after a BAR.SYNC.
 * Which warp runs it first is a scheduling decision: one warp at a time,
 * the warp whose arrival completes the barrier goes on and faults (warp
 * 7); with lockstep groups it hands its turn back so that the released
 * warps go on as one group (eng_barrier), and warp 0 faults first.  So
 * the reports agree in everything but the warp: the kind, message, CTA,
 * lanes, PC and instruction, and the warp is one of the CTA's.  Also
 * after a loop of barriers and a branch every thread takes, which a
 * group of whole CTAs runs without writing its warps' PCs (exec_group's
 * group_whole). */
static void fault_after_barrier_in(const char *text, const char *pc)
{
	th_kernel t;
	th_load(&t, text, "stop.we", NULL);
	th_u32(&t, "k", 7);
	we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(256, 1, 1), .lockstep = 1 };
	th_run ref;
	lk_run(&t, &c, &ref);
	CHECK(ref.st == WE_ERR_EXCEPTION, "lockstep 1: status %s\n%s", we_status_name(ref.st), ref.err);
	CHECK(strstr(ref.err, "c[0x0][0x40]") && strstr(ref.err, pc), "lockstep 1: %s", ref.err);
	unsigned w0 = 99, j0 = 99;
	char *err0 = mask_warp(ref.err, &w0), *json0 = mask_warp(ref.json, &j0);
	CHECK(w0 < 8 && j0 == w0, "lockstep 1: warp %u / %u", w0, j0);
	th_config cs[TH_MAXCONFIGS];
	size_t ncs = th_configs(TH_DEFAULTS | TH_GROUPED | TH_COMPILED, TH_GROUPS, cs);
	for (size_t i = 0; i < ncs; i++) {
		th_run r;
		th_config_apply(&c, &cs[i]);
		lk_run(&t, &c, &r);
		CHECK(r.st == ref.st, "%s: status %s", cs[i].name, we_status_name(r.st));
		unsigned w = 99, j = 99;
		char *err = mask_warp(r.err, &w), *json = mask_warp(r.json, &j);
		CHECK(w < 8 && j == w, "%s: warp %u / %u\n%s", cs[i].name, w, j, r.err);
		CHECK(!strcmp(err, err0), "%s: report\n%s\nlockstep 1 reported\n%s", cs[i].name, r.err,
		      ref.err);
		CHECK(!strcmp(json, json0), "%s: JSON report\n%s\nlockstep 1 reported\n%s", cs[i].name,
		      r.json, ref.json);
		free(err);
		free(json);
		th_run_free(&r);
	}
	free(err0);
	free(json0);
	th_run_free(&ref);
	th_close(&t);
}

START_TEST(fault_after_barrier)
{
	fault_after_barrier_in(".param u32 k\n"
			       "        S2R R0, SR_TID.X ;\n"
			       "        IADD3 R1, R0, 0x1, RZ ;\n"
			       "        BAR.SYNC 0x0 ;\n"
			       "        MOV R3, c[0x0][0x40] ;\n"
			       "        EXIT ;\n",
			       "lanes 0-31 PC 0x0030");
	fault_after_barrier_in(".param u32 k\n"
			       "        S2R R0, SR_TID.X ;\n"
			       "        MOV R1, RZ ;\n"
			       ".loop:\n"
			       "        BAR.SYNC 0x0 ;\n"
			       "        IADD3 R1, R1, 0x1, RZ ;\n"
			       "        BAR.SYNC 0x1, 0x100 ;\n"
			       "        ISETP.LT.U32.AND P0, PT, R1, 0x5, PT ;\n"
			       "   @P0  BRA `(.loop) ;\n"
			       "        BRA `(.out) ;\n"
			       "        EXIT ;\n"
			       ".out:\n"
			       "        MOV R3, c[0x0][0x40] ;\n"
			       "        EXIT ;\n",
			       "lanes 0-31 PC 0x0090");
}
END_TEST

/* An EXIT that ends several warps of a group at once (exec_group runs it
 * in all of them and the driver retires them in warp order): warps 0-7
 * (a group) spin past a scheduler turn and then exit, all but thread 3;
 * warps 8-15 are by then waiting at BAR.SYNC 0x0 (cnt = 0), which the
 * exits complete (decision 2).  Then BAR.RED.POPC over the survivors
 * and stores that show who ran after what.  With the spin count 0 the
 * exits come first and the barrier completes at once for a group of
 * the waiting warps (bar_arrive_all). */
START_TEST(exits_in_group)
{
	static const char text[] = ".param ptr out\n"
				   ".param u32 spin\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
				   "        MOV R10, c[0x0][0x0] ;\n"
				   "        MOV R11, c[0x0][0x4] ;\n"
				   "        S2R R7, SR_CTAID.X ;\n"
				   "        IMAD R8, R7, 0x200, R0 ;\n"
				   "        IMAD.WIDE.U32 R[10:11], R8, 0x4, R[10:11] ;\n"
				   "        ISETP.GE.U32.AND P0, PT, R1, 0x8, PT ;\n"
				   "   @P0  BRA `(.wait) ;\n"
				   "        MOV R2, c[0x0][0x8] ;\n"
				   ".spin:\n"
				   "        ISETP.NE.U32.AND P1, PT, R2, RZ, PT ;\n"
				   "   @P1  IADD3 R2, R2, -0x1, RZ ;\n"
				   "   @P1  BRA `(.spin) ;\n"
				   "        ISETP.NE.U32.AND P2, PT, R0, 0x3, PT ;\n"
				   "   @P2  EXIT ;\n"
				   ".wait:\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        ISETP.GT.U32.AND P3, PT, R0, 0x100, PT ;\n"
				   "        BAR.RED.POPC 0x1, 0x0, P3 ;\n"
				   "        BAR.RESULT R4, P4 ;\n"
				   "        IMAD R5, R0, 0x3, R4 ;\n"
				   "        STG [R10.64], R5 ;\n"
				   "        EXIT ;\n";
	static const uint32_t spins[] = { 0, 1, 5000 };
	for (size_t k = 0; k < sizeof spins / sizeof spins[0]; k++) {
		th_kernel t;
		th_load(&t, text, "exits.we", NULL);
		th_buf_new(&t, "out", NULL, 2 * 512 * 4, 0xa5);
		th_u32(&t, "spin", spins[k]);
		we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(512, 1, 1) };
		char label[64];
		snprintf(label, sizeof label, "exits in a group, spin %u", spins[k]);
		th_run ref;
		run_ref(&t, c, label, &ref, NULL);
		/* lockstep 1 against the host: thread 3 and warps 8-15 store
		 * 3 tid + the count of survivors with tid > 256 */
		const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
		for (uint32_t cta = 0; cta < 2; cta++)
			for (uint32_t tid = 0; tid < 512; tid++) {
				const uint32_t want = tid == 3 || tid >= 256 ? tid * 3u + 255u : 0xa5a5a5a5u;
				CHECK(out[cta * 512 + tid] == want, "%s: CTA %u thread %u: 0x%08x, want 0x%08x", label, cta,
				      tid, out[cta * 512 + tid], want);
			}
		/* two barriers per CTA */
		CHECK(ref.s.barriers == 4, "%s: %llu barriers", label, (unsigned long long)ref.s.barriers);
		compare_rest(&t, c, label, &ref, NULL);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* 32-bit shared accesses at consecutive words (thread i at word i), which
 * the scheduler engine copies as one block (src/sem_mem.c
 * shared_consecutive): full warps and groups, partial warps (a blend by
 * the mask), a partial warp whose inactive lanes' words are outside the
 * CTA's shared memory (lane by lane then, no fault), and an offset that
 * shifts the block.  Checked against the host and against the
 * warp-threads engine, which reads and writes word by word. */
START_TEST(shared_consecutive_words)
{
	static const char text[] = ".param ptr out\n"
				   ".shared 256\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        S2R R7, SR_CTAID.X ;\n"
				   "        LOP3.LUT R1, R0, 0x1f, RZ, 0xc0, !PT ;\n"
				   "        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
				   "        IMAD R9, R0, 0x3, R7 ;\n"
				   "        ISETP.LT.U32.AND P0, PT, R0, 0x40, PT ;\n"
				   "   @P0  STS [R5], R9 ;\n"               /* warps 0-1 whole: words 0..63 */
				   "        BAR.SYNC 0x0 ;\n"
				   "        LOP3.LUT P1, RZ, R1, 0x1, RZ, 0xc0, !PT ;\n"
				   "        ISETP.LT.U32.AND P1, PT, R0, 0x40, P1 ;\n"
				   "        IADD3 R10, R9, 0x1000, RZ ;\n"
				   "   @P1  STS [R5], R10 ;\n"              /* odd lanes of warps 0-1 */
				   "        BAR.SYNC 0x0 ;\n"
				   "        MOV R8, 0xdead ;\n"
				   "        ISETP.LT.U32.AND P2, PT, R1, 0x10, PT ;\n"
				   "        ISETP.LT.U32.AND P3, PT, R0, 0x20, P2 ;\n"
				   "   @P3  LDS R8, [R5+0xc0] ;\n"          /* warp 0 lanes 0-15: words 48..63; lanes
									   16-31 would be past the end */
				   "        MOV R11, 0xbeef ;\n"
				   "        ISETP.LT.U32.AND P4, PT, R0, 0x3f, PT ;\n"
				   "   @P4  LDS R11, [R5+0x4] ;\n"          /* warps 0-1, one word on: the inactive
									   last lane of warp 1 past the end */
				   "        MOV R12, 0xf00d ;\n"
				   "   @P1  LDS R12, [R5] ;\n"
				   "        IMAD R13, R7, 0x80, R0 ;\n"
				   "        MOV R2, c[0x0][0x0] ;\n"
				   "        MOV R3, c[0x0][0x4] ;\n"
				   "        IMAD.WIDE.U32 R[2:3], R13, 0xc, R[2:3] ;\n"
				   "        STG [R2.64], R8 ;\n"
				   "        STG [R2.64+0x4], R11 ;\n"
				   "        STG [R2.64+0x8], R12 ;\n"
				   "        EXIT ;\n";
	th_kernel t;
	th_load(&t, text, "consecutive.we", NULL);
	th_buf_new(&t, "out", NULL, 3 * 128 * 3 * 4, 0xa5);
	we_launch_config c = { .grid = th_dim3(3, 1, 1), .block = th_dim3(128, 1, 1) };
	th_run ref;
	run_ref(&t, c, "consecutive words", &ref, NULL);
	/* the words after both stores: odd words 0x1000 + 3i + cta, even ones
	 * 3i + cta (i < 64) */
	const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
	for (uint32_t cta = 0; cta < 3; cta++)
		for (uint32_t tid = 0; tid < 128; tid++) {
			uint32_t word[64];
			for (uint32_t i = 0; i < 64; i++)
				word[i] = 3 * i + cta + ((i & 1) ? 0x1000u : 0u);
			const uint32_t lane = tid & 31;
			const uint32_t w8 = tid < 32 && lane < 16 ? word[tid + 48] : 0xdeadu;
			const uint32_t w11 = tid < 63 ? word[tid + 1] : 0xbeefu;
			const uint32_t w12 = tid < 64 && (lane & 1) ? word[tid] : 0xf00du;
			const uint32_t *o = out + (cta * 128 + tid) * 3;
			CHECK(o[0] == w8 && o[1] == w11 && o[2] == w12,
			      "consecutive words: CTA %u thread %u: 0x%x 0x%x 0x%x, want 0x%x 0x%x 0x%x", cta, tid, o[0],
			      o[1], o[2], w8, w11, w12);
		}
	compare_engines(&t, c, "consecutive words", &ref);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* S2R of every special register a group reads in one call (thread ids,
 * block and grid sizes, CTA ids, lane, warp, warps): each thread stores
 * them all, on 3-D grids and blocks, partial warps included; checked
 * against the host, then every lockstep value against lockstep 1. */
START_TEST(s2r_registers)
{
	static const char *const sregs[] = { "SR_TID.X",    "SR_TID.Y",    "SR_TID.Z",    "SR_NTID.X",
					     "SR_NTID.Y",   "SR_NTID.Z",   "SR_CTAID.X",  "SR_CTAID.Y",
					     "SR_CTAID.Z",  "SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z",
					     "SR_LANEID",   "SR_WARPID",   "SR_NWARPS" };
	enum { NS = sizeof sregs / sizeof sregs[0] };
	th_sbuf b = { 0 };
	th_sb_add(&b, ".param ptr out\n");
	for (unsigned k = 0; k < NS; k++)
		th_sb_add(&b, "        S2R R%u, %s ;\n", 10 + k, sregs[k]);
	/* linear thread id, then the CTA's: out + 4 * NS * (cta * nthreads + t) */
	th_sb_add(&b, "        IMAD R1, R12, R14, R11 ;\n"
		      "        IMAD R1, R1, R13, R10 ;\n"
		      "        IMAD R2, R18, R20, R17 ;\n"
		      "        IMAD R2, R2, R19, R16 ;\n"
		      "        IMAD R3, R13, R14, RZ ;\n"
		      "        IMAD R3, R3, R15, RZ ;\n"
		      "        IMAD R1, R2, R3, R1 ;\n"
		      "        MOV R4, c[0x0][0x0] ;\n"
		      "        MOV R5, c[0x0][0x4] ;\n"
		      "        IMAD.WIDE.U32 R[4:5], R1, 0x%x, R[4:5] ;\n",
	          4 * NS);
	for (unsigned k = 0; k < NS; k++)
		th_sb_add(&b, "        STG [R4.64+0x%x], R%u ;\n", 4 * k, 10 + k);
	th_sb_add(&b, "        EXIT ;\n");
	static const struct {
		we_dim3 grid, block;
	} cases[] = {
		{ { 3, 2, 2 }, { 256, 1, 1 } }, { { 2, 2, 1 }, { 100, 1, 1 } }, { { 3, 1, 2 }, { 16, 6, 1 } },
		{ { 2, 1, 1 }, { 32, 32, 1 } }, { { 1, 2, 3 }, { 20, 5, 3 } },  { { 2, 1, 1 }, { 64, 4, 2 } },
	};
	for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
		const we_dim3 g = cases[n].grid, bl = cases[n].block;
		const uint32_t nt = bl.x * bl.y * bl.z, nc = g.x * g.y * g.z;
		th_kernel t;
		th_load(&t, b.p, "s2r.we", NULL);
		th_buf_new(&t, "out", NULL, (size_t)nc * nt * NS * 4, 0xa5);
		we_launch_config c = { .grid = g, .block = bl };
		char label[96];
		snprintf(label, sizeof label, "S2R, grid %ux%ux%u block %ux%ux%u", g.x, g.y, g.z, bl.x, bl.y, bl.z);
		th_run ref;
		run_ref(&t, c, label, &ref, NULL);
		const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
		for (uint32_t cta = 0; cta < nc; cta++)
			for (uint32_t th = 0; th < nt; th++) {
				const uint32_t want[NS] = { th % bl.x,
							    th / bl.x % bl.y,
							    th / (bl.x * bl.y),
							    bl.x,
							    bl.y,
							    bl.z,
							    cta % g.x,
							    cta / g.x % g.y,
							    cta / (g.x * g.y),
							    g.x,
							    g.y,
							    g.z,
							    th % 32,
							    th / 32,
							    (nt + 31) / 32 };
				const uint32_t *o = out + ((size_t)cta * nt + th) * NS;
				for (unsigned k = 0; k < NS; k++)
					CHECK(o[k] == want[k], "%s: CTA %u thread %u: %s = %u, want %u", label, cta, th,
					      sregs[k], o[k], want[k]);
			}
		compare_rest(&t, c, label, &ref, NULL);
		th_run_free(&ref);
		th_close(&t);
	}
	free(b.p);
}
END_TEST

/* The watchdog inside a loop the group runs in lockstep: each warp's
 * instruction count is its own, so warp 0 reaches the limit at the same
 * PC whatever the grouping; limits below, at and past a scheduler turn
 * (4096 instructions) and at each instruction of the loop. */
START_TEST(watchdog_in_group)
{
	static const char text[] = "        S2R R0, SR_TID.X ;\n"
				   "        MOV R1, RZ ;\n"
				   ".loop:\n"
				   "        IADD3 R1, R1, 0x1, RZ ;\n"
				   "        LOP3.LUT R2, R1, R0, RZ, 0x3c, !PT ;\n"
				   "        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;\n"
				   "   @P0  BRA `(.loop) ;\n"
				   "        EXIT ;\n";
	static const char uneven[] = "        S2R R0, SR_TID.X ;\n"
				     "        SHF.R.U32.HI R4, RZ, 0x5, R0 ;\n"
				     "        MOV R5, RZ ;\n"
				     ".pre:\n"
				     "        IADD3 R5, R5, 0x1, RZ ;\n"
				     "        ISETP.LE.U32.AND P0, PT, R5, R4, PT ;\n"
				     "   @P0  BRA `(.pre) ;\n"
				     "        MOV R1, RZ ;\n"
				     ".loop:\n"
				     "        IADD3 R1, R1, 0x1, RZ ;\n"
				     "        LOP3.LUT R2, R1, R0, RZ, 0x3c, !PT ;\n"
				     "        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;\n"
				     "   @P0  BRA `(.loop) ;\n"
				     "        EXIT ;\n";
	static const uint64_t limits[] = { 3, 100, 4095, 4096, 4097, 10001, 10002, 10003, 10004 };
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		char label[80], m[120];
		snprintf(label, sizeof label, "watchdog at %llu", (unsigned long long)limits[i]);
		snprintf(m, sizeof m, "warp 0 executed %llu instructions (--max-instructions)",
			 (unsigned long long)limits[i]);
		const char *parts[] = { "watchdog", m, "warp 0 lanes 0-31", NULL };
		expect_stop(label, text, th_dim3(256, 1, 1), limits[i], WE_ERR_TIMEOUT, parts);
		expect_stop(label, text, th_dim3(1024, 1, 1), limits[i], WE_ERR_TIMEOUT, parts);
		/* the warps enter the loop after w + 1 trips of another one: their
		 * counts differ, and groups form again in the loop */
		expect_stop(label, uneven, th_dim3(256, 1, 1), limits[i], WE_ERR_TIMEOUT, parts);
	}
}
END_TEST

/* The "warp" and "pc" fields of a JSON report. */
static void json_warp_pc(const char *json, unsigned *warp, unsigned long long *pc)
{
	const char *w = strstr(json, "\"warp\":"), *p = strstr(json, "\"pc\":\"");
	CHECK(w && p, "JSON report without warp or pc: %s", json);
	*warp = (unsigned)strtoul(w + 7, NULL, 10);
	*pc = strtoull(p + 6, NULL, 16);
}

/* The watchdog when the warps of a group have executed different numbers
 * of instructions: warp w runs w + 1 trips of a 3-instruction loop, then
 * all meet at BAR.SYNC and loop forever together.  group_of caps a
 * group's turn at its member with the fewest instructions left, and the
 * warp the round robin picks first after that differs from the one of
 * lockstep 1 (warp 7 there, warp 1 with lockstep 2): which warp the
 * report names depends on the schedule.  Everything else must agree:
 * the kind, the message up to the warp number (every warp stopped at
 * exactly the limit), the lanes; and the PC must be the reported warp's
 * own, found from its instruction count: after the limit L warp w is
 * (L - (3w + 8)) mod 4 instructions into the loop at 0x80, and the
 * report names its PC as lockstep 1's names warp 7's. */
START_TEST(watchdog_uneven_counts)
{
	static const char text[] = "        S2R R0, SR_TID.X ;\n"
				   "        SHF.R.U32.HI R4, RZ, 0x5, R0 ;\n"
				   "        MOV R5, RZ ;\n"
				   ".pre:\n"
				   "        IADD3 R5, R5, 0x1, RZ ;\n"
				   "        ISETP.LE.U32.AND P0, PT, R5, R4, PT ;\n"
				   "   @P0  BRA `(.pre) ;\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        MOV R1, RZ ;\n"
				   ".loop:\n"
				   "        IADD3 R1, R1, 0x1, RZ ;\n"
				   "        LOP3.LUT R2, R1, R0, RZ, 0x3c, !PT ;\n"
				   "        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;\n"
				   "   @P0  BRA `(.loop) ;\n"
				   "        EXIT ;\n";
	static const uint64_t limits[] = { 100, 1001, 4097, 10002, 10003 };
	th_kernel t;
	th_load(&t, text, "uneven.we", NULL);
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		const uint64_t L = limits[i];
		we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(256, 1, 1), .max_instructions = L,
				       .lockstep = 1 };
		th_run ref;
		lk_run(&t, &c, &ref);
		CHECK(ref.st == WE_ERR_TIMEOUT, "limit %llu, lockstep 1: status %s\n%s", (unsigned long long)L,
		      we_status_name(ref.st), ref.err);
		unsigned w0, m0 = 99, jw;
		unsigned long long pc0;
		json_warp_pc(ref.json, &w0, &pc0);
		char *err0 = mask_warp(ref.err, &m0), *json0 = mask_warp(ref.json, &jw);
		CHECK(w0 < 8 && m0 == w0, "limit %llu: warp %u / %u\n%s", (unsigned long long)L, w0, m0, ref.err);
		/* how the report's PC relates to the warp's next instruction */
		const long long d0 = (long long)pc0 - (long long)(0x80 + ((L - (3 * w0 + 8)) % 4) * 16);
		th_config cs[TH_MAXCONFIGS];
		size_t ncs = th_configs(TH_DEFAULTS | TH_GROUPED | TH_COMPILED, TH_GROUPS, cs);
		for (size_t j = 0; j < ncs; j++) {
			th_run r;
			th_config_apply(&c, &cs[j]);
			lk_run(&t, &c, &r);
			CHECK(r.st == WE_ERR_TIMEOUT, "limit %llu, %s: status %s\n%s", (unsigned long long)L,
			      cs[j].name, we_status_name(r.st), r.err);
			unsigned w, m = 99;
			unsigned long long pc;
			json_warp_pc(r.json, &w, &pc);
			char *err = mask_warp(r.err, &m), *json = mask_warp(r.json, &jw);
			CHECK(w < 8 && m == w, "limit %llu, %s: warp %u / %u\n%s", (unsigned long long)L,
			      cs[j].name, w, m, r.err);
			const long long d = (long long)pc - (long long)(0x80 + ((L - (3 * w + 8)) % 4) * 16);
			CHECK(d == d0, "limit %llu, %s: warp %u reported at PC 0x%llx, not its own "
			      "(lockstep 1: warp %u at 0x%llx)", (unsigned long long)L, cs[j].name, w, pc, w0, pc0);
			/* the rest of the reports, up to the PC and its instruction */
			char *e1 = strstr(err, " PC "), *e0 = strstr(err0, " PC ");
			char *j1 = strstr(json, ",\"pc\":"), *j0 = strstr(json0, ",\"pc\":");
			CHECK(e1 && e0 && j1 && j0, "limit %llu: reports without a PC", (unsigned long long)L);
			*e1 = *e0 = *j1 = *j0 = '\0';
			CHECK(!strcmp(err, err0), "limit %llu, %s: report\n%s\nlockstep 1 reported\n%s",
			      (unsigned long long)L, cs[j].name, r.err, ref.err);
			CHECK(!strcmp(json, json0), "limit %llu, %s: JSON report\n%s\nlockstep 1 reported\n%s",
			      (unsigned long long)L, cs[j].name, r.json, ref.json);
			*e0 = ' ';
			*j0 = ',';
			free(err);
			free(json);
			th_run_free(&r);
		}
		free(err0);
		free(json0);
		th_run_free(&ref);
	}
	th_close(&t);
}
END_TEST

/* ================================================================ */
/* Part 4: limits, the warp-threads engine, seeded schedules, traces  */

START_TEST(lockstep_limit)
{
	we_device *dev;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	we_module *m;
	static const char text[] = "S2R R0, SR_TID.X ;\nIADD3 R1, R0, 0x1, RZ ;\nEXIT ;\n";
	ck_assert_int_eq(we_module_load_text(dev, text, strlen(text), "t.we", &m), WE_OK);
	static const unsigned bad[] = { 33, 64, 1000, 0xffffffffu };
	/* the default engine, then every engine */
	for (size_t e = 0; e <= TH_NENGINES; e++) {
		const we_engine eng = e ? th_id(e - 1) : WE_ENGINE_DEFAULT;
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			we_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 }, .engine = eng,
						 .lockstep = bad[i] };
			we_status st = we_launch(dev, m, NULL, &cfg, NULL, 0, NULL);
			CHECK(st == WE_ERR_INVALID, "%s, lockstep %u: status %s", we_engine_name(eng), bad[i],
			      we_status_name(st));
			const char *msg = we_last_error(dev);
			char num[16];
			snprintf(num, sizeof num, "%u", bad[i]);
			CHECK(strstr(msg, "lockstep") && strstr(msg, "at most 32") && strstr(msg, num),
			      "%s, lockstep %u: message '%s' names neither the value nor the limit",
			      we_engine_name(eng), bad[i], msg);
			/* the CTAs per batch have the same limit */
			cfg.lockstep = 0;
			cfg.batch = bad[i];
			st = we_launch(dev, m, NULL, &cfg, NULL, 0, NULL);
			CHECK(st == WE_ERR_INVALID, "%s, batch %u: status %s", we_engine_name(eng), bad[i],
			      we_status_name(st));
			msg = we_last_error(dev);
			CHECK(strstr(msg, "batch") && strstr(msg, "at most 32") && strstr(msg, num),
			      "%s, batch %u: message '%s' names neither the value nor the limit",
			      we_engine_name(eng), bad[i], msg);
		}
		static const unsigned good[] = { 0, 1, 2, 7, 8, 31, 32 };
		for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
			const unsigned ls = good[i];
			we_launch_config cfg = { .grid = { 2, 1, 1 }, .block = { 1024, 1, 1 }, .engine = eng,
						 .lockstep = ls, .batch = ls };
			we_status st = we_launch(dev, m, NULL, &cfg, NULL, 0, NULL);
			CHECK(st == WE_OK, "%s, lockstep and batch %u: %s: %s", we_engine_name(eng), ls,
			      we_status_name(st), we_last_error(dev));
		}
	}
	we_module_destroy(m);
	we_device_destroy(dev);
}
END_TEST

/* The warp-threads engine (every engine without lockstep groups) runs a
 * warp per host thread: lockstep does not apply, and every value up to 32
 * gives the scheduler's lockstep-1 result. */
START_TEST(warp_threads_ignore_lockstep)
{
	static const struct {
		const char *name, *body;
		ref_fn ref;
	} bodies[] = {
		{ "guard", body_guard, ref_guard },
		{ "loop", body_loop, ref_loop },
		{ "diverge", body_diverge, ref_diverge },
		{ "branch", body_branch, ref_branch },
		{ "operands", body_operands, ref_operands },
	};
	static const unsigned ls[] = { 0, 1, 2, 8, 32 };
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		bk k;
		bk_open(&k, bodies[i].name, bodies[i].body, 0);
		we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(256, 1, 1), .lockstep = 1 };
		th_run ref;
		lk_run(&k.t, &c, &ref);
		th_expect_ok(&ref, bodies[i].name);
		bk_check(&k, &c, &ref, bodies[i].ref, NULL, bodies[i].name);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			if (th_engines[e].flags & TH_GROUPS)
				continue;
			c.engine = th_id(e);
			for (size_t j = 0; j < sizeof ls / sizeof ls[0]; j++) {
				char what[120];
				snprintf(what, sizeof what, "%s, %s, lockstep %u", bodies[i].name, th_name(e), ls[j]);
				c.lockstep = ls[j];
				th_run r;
				lk_run(&k.t, &c, &r);
				expect_same(&k.t, &ref, &r, what);
				th_run_free(&r);
			}
		}
		th_run_free(&ref);
		bk_close(&k);
	}
}
END_TEST

/* A seeded schedule or a trace runs one warp at a time (we_launch_config):
 * with lockstep 32 the same interleaving, result and trace lines as with
 * lockstep 1. */
START_TEST(seeded_and_trace_ignore_lockstep)
{
	bk k;
	bk_open(&k, "loop", body_loop, 0);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		th_sbuf tr1 = { 0 }, tr32 = { 0 };
		we_launch_config c = { .grid = th_dim3(2, 1, 1), .block = th_dim3(256, 1, 1), .schedule_seeded = true,
				       .schedule_seed = seed, .lockstep = 1 };
		th_trace_into(&c, &tr1);
		th_run ref, r;
		lk_run(&k.t, &c, &ref);
		th_expect_ok(&ref, "seeded, lockstep 1");
		bk_check(&k, &c, &ref, ref_loop, NULL, "seeded");
		c.lockstep = 32;
		th_trace_into(&c, &tr32);
		lk_run(&k.t, &c, &r);
		expect_same(&k.t, &ref, &r, "seeded, lockstep 32");
		CHECK(tr1.len > 0 && tr32.len == tr1.len && !memcmp(tr1.p, tr32.p, tr1.len),
		      "seed %llu: the trace with lockstep 32 differs from lockstep 1's",
		      (unsigned long long)seed);
		th_run_free(&ref);
		th_run_free(&r);
		free(tr1.p);
		free(tr32.p);
	}
	bk_close(&k);
}
END_TEST

/* CTA batches (engine_sched.c): CTAs that part ways and meet again.  Each
 * CTA of 4 warps loops ctaid % 3 + 1 times around BAR.SYNC with shared
 * memory, the CTAs of a batch leaving the loop at different trips; CTA
 * ids, shared sums and a guarded tail every CTA reaches.  Grids of 1..9
 * CTAs, so batches end part full; one worker, so they are batched. */
START_TEST(batch_ctas_part_ways)
{
	static const char text[] = ".param ptr out\n"
				   ".shared 512\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        S2R R1, SR_CTAID.X ;\n"
				   "        MOV R10, c[0x0][0x0] ;\n"
				   "        MOV R11, c[0x0][0x4] ;\n"
				   "        IMAD R8, R1, 0x80, R0 ;\n"
				   "        IMAD.WIDE.U32 R[10:11], R8, 0x4, R[10:11] ;\n"
				   "        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
				   "        IMAD.HI.U32 R2, R1, 0x55555556, RZ ;\n"
				   "        IMAD R2, R2, -0x3, R1 ;\n"
				   "        IADD3 R2, R2, 0x1, RZ ;\n"
				   "        MOV R6, R0 ;\n"
				   ".loop:\n"
				   "        STS [R5], R6 ;\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        LOP3.LUT R7, R5, 0x1fc, RZ, 0x3c, !PT ;\n"
				   "        LDS R7, [R7] ;\n"
				   "        IADD3 R6, R6, R7, R1 ;\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        IADD3 R2, R2, -0x1, RZ ;\n"
				   "        ISETP.NE.U32.AND P0, PT, R2, RZ, PT ;\n"
				   "   @P0  BRA `(.loop) ;\n"
				   "        ISETP.LT.U32.AND P1, PT, R0, 0x40, PT ;\n"
				   "   @P1  IADD3 R6, R6, 0x1000, RZ ;\n"
				   "        STG [R10.64], R6 ;\n"
				   "        EXIT ;\n";
	for (uint32_t grid = 1; grid <= 9; grid++) {
		th_kernel t;
		th_load(&t, text, "batch.we", NULL);
		th_buf_new(&t, "out", NULL, grid * 128 * 4, 0xa5);
		we_launch_config c = { .grid = th_dim3(grid, 1, 1), .block = th_dim3(128, 1, 1) };
		char label[64];
		snprintf(label, sizeof label, "CTAs parting ways, grid %u", grid);
		th_run ref;
		run_ref(&t, c, label, &ref, NULL);
		/* lockstep 1 against the host */
		const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
		for (uint32_t cta = 0; cta < grid; cta++) {
			uint32_t v[128], nv[128];
			for (uint32_t i = 0; i < 128; i++)
				v[i] = i;
			for (uint32_t trip = 0; trip < cta % 3 + 1; trip++) {
				for (uint32_t i = 0; i < 128; i++)
					nv[i] = v[i] + v[i ^ 0x7f] + cta;
				memcpy(v, nv, sizeof v);
			}
			for (uint32_t i = 0; i < 128; i++) {
				const uint32_t want = v[i] + (i < 0x40 ? 0x1000u : 0u);
				CHECK(out[cta * 128 + i] == want, "%s: CTA %u thread %u: 0x%08x, want 0x%08x", label,
				      cta, i, out[cta * 128 + i], want);
			}
		}
		compare_rest(&t, c, label, &ref, NULL);
		compare_batches(&t, c, 8, label, &ref);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* A fault in a later CTA of a batch, inside a group instruction run CTA
 * by CTA (LDS, per_cta) and in one over all the batch's warps (LDG): warp
 * 0 of CTA 1 of 3 alone reads out of range, and the report is its own, as
 * with lockstep 1. */
/* Two workers take the grid in chunks; after a fault the CTAs of every
 * chunk below the faulting one still run, so the report is the lowest
 * faulting CTA's whichever worker got which chunk.  CTA 200 and CTA 224
 * fault: with 1-warp CTAs in batches of 32, 224 starts a later chunk than
 * 200 and the worker that has it faults at once, while the other still
 * has batches to run before 200. */
START_TEST(lowest_fault_wins)
{
	const char *text = ".param ptr out\n"
			   ".shared 16\n"
			   "        S2R R1, SR_CTAID.X ;\n"
			   "        ISETP.EQ.U32.AND P0, PT, R1, 0xc8, PT ;\n"
			   "        ISETP.EQ.U32.OR P0, PT, R1, 0xe0, P0 ;\n"
			   "        SEL R5, RZ, 0x10000, !P0 ;\n"
			   "        LDS R4, [R5] ;\n"
			   "        EXIT ;\n";
	th_kernel t;
	th_load(&t, text, "lowest.we", NULL);
	th_buf_new(&t, "out", NULL, 64, 0);
	for (unsigned rep = 0; rep < 8; rep++) {
		we_launch_config c = { .grid = th_dim3(4000, 1, 1), .block = th_dim3(32, 1, 1), .threads = 2 };
		th_run r;
		lk_run(&t, &c, &r);
		CHECK(r.st == WE_ERR_EXCEPTION, "run %u: status %s\n%s", rep, we_status_name(r.st), r.err);
		CHECK(strstr(r.err, "CTA (200,0,0)"), "run %u: the report is not CTA 200's:\n%s", rep, r.err);
		th_run_free(&r);
	}
	th_close(&t);
}
END_TEST

START_TEST(batch_fault_in_later_cta)
{
	static const char *const insn[] = { "LDS R4, [R5]", "LDG R4, [R12.64]" };
	static const char *const what_fault[] = { "shared access", "global access" };
	const char *text_fmt = ".param ptr out\n"
			       ".shared 512\n"
			       "        S2R R0, SR_TID.X ;\n"
			       "        S2R R1, SR_CTAID.X ;\n"
			       "        ISETP.EQ.U32.AND P0, PT, R1, 0x1, PT ;\n"
			       "        ISETP.LT.U32.AND P0, PT, R0, 0x20, P0 ;\n"
			       "        SEL R2, RZ, 0x10000, !P0 ;\n"
			       "        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
			       "        STS [R5], R0 ;\n"
			       "        BAR.SYNC 0x0 ;\n"
			       "        IADD3 R5, R5, R2, RZ ;\n"
			       "        MOV R12, c[0x0][0x0] ;\n"
			       "        MOV R13, c[0x0][0x4] ;\n"
			       "        IMAD R6, R1, 0x80, R0 ;\n"
			       "        IMAD.WIDE.U32 R[10:11], R6, 0x4, R[12:13] ;\n"
			       "        IMAD R3, R2, 0x100, RZ ;\n"
			       "        IMAD.WIDE.U32 R[12:13], R0, 0x4, R[12:13] ;\n"
			       "        IADD3 R12, R12, R3, RZ ;\n"
			       "        %s ;\n"
			       "        STG [R10.64], R4 ;\n"
			       "        EXIT ;\n";
	for (size_t i = 0; i < sizeof insn / sizeof insn[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text, text_fmt, insn[i]);
		const char *parts[] = { what_fault[i], "CTA (1,0,0) warp 0 lanes 0-31", NULL };
		th_kernel t;
		th_load(&t, text, "stop.we", NULL);
		th_buf_new(&t, "out", NULL, 3 * 128 * 4, 0);
		we_launch_config c = { .grid = th_dim3(3, 1, 1), .block = th_dim3(128, 1, 1), .lockstep = 1 };
		th_run ref;
		lk_run(&t, &c, &ref);
		CHECK(ref.st == WE_ERR_EXCEPTION, "%s: status %s\n%s", insn[i], we_status_name(ref.st), ref.err);
		for (const char *const *p = parts; *p; p++)
			CHECK(strstr(ref.err, *p), "%s: the report lacks '%s':\n%s", insn[i], *p, ref.err);
		compare_rest(&t, c, insn[i], &ref, NULL);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

/* Registers read before they are written start at zero in every CTA,
 * also in a slot that ran another CTA before (a CTA start zeroes only
 * the registers some thread may read before writing, exec/decode.c
 * kernel_zero_rows): R2 written under a guard, R4 on one side of a
 * branch, R5 and R12 read in a loop before the write, R13 read by SHFL
 * from a lane that wrote it while the reader did not; R15 read under the
 * guard it was written under (it needs no zero), R17 under a guard whose
 * predicate was written again in between (it does).  Which lanes write
 * alternates from CTA to CTA, so a register left from the previous CTA
 * in the slot would show.  Many CTAs per worker and batch, both engines;
 * against the host. */
/* Shared-memory accesses of a partial warp: active lanes (not from lane
 * 0) at consecutive words while the inactive ones hold addresses far
 * outside (a tree reduction's guarded lanes), once with the warp's 32
 * words inside the shared memory (one masked block) and once running past
 * its end (lane by lane); and active lanes at every other word (lane by
 * lane).  None may fault, and only the active lanes load or store. */
START_TEST(partial_shared_blocks)
{
	static const char text[] = ".param ptr out\n"
				   ".shared 256\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        S2R R1, SR_CTAID.X ;\n"
				   "        SHF.L.U32 R5, R0, 0x2, RZ ;\n"
				   "        IADD3 R2, R0, 0x64, RZ ;\n"
				   "        STS [R5], R2 ;\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        MOV R7, 0x55 ;\n"
				   "        MOV R9, 0x77 ;\n"
				   "        IADD3 R8, R0, 0xc8, RZ ;\n"
				   "        LOP3.LUT R3, R0, 0x1f, RZ, 0xc0, !PT ;\n"
				   "        IADD3 R3, R3, -0x3, RZ ;\n"
				   "        ISETP.LT.U32.AND P0, PT, R3, 0x8, PT ;\n"
				   "        IADD3 R6, R5, 0x20, RZ ;\n"
				   "        SEL R6, R6, 0x10000, P0 ;\n"
				   "   @P0  LDS R7, [R6] ;\n"
				   "   @P0  STS [R6], R8 ;\n"
				   "        BAR.SYNC 0x0 ;\n"
				   "        LOP3.LUT R4, R0, 0x21, RZ, 0xc0, !PT ;\n"
				   "        ISETP.EQ.U32.AND P1, PT, R4, RZ, PT ;\n"
				   "        SHF.L.U32 R10, R0, 0x3, RZ ;\n"
				   "        SEL R10, R10, 0x20000, P1 ;\n"
				   "   @P1  LDS R9, [R10] ;\n"
				   "        LDS R11, [R5] ;\n"
				   "        MOV R12, c[0x0][0x0] ;\n"
				   "        MOV R13, c[0x0][0x4] ;\n"
				   "        IMAD R14, R1, 0x40, R0 ;\n"
				   "        IMAD.WIDE.U32 R[12:13], R14, 0xc, R[12:13] ;\n"
				   "        STG [R12.64], R7 ;\n"
				   "        STG [R12.64+0x4], R9 ;\n"
				   "        STG [R12.64+0x8], R11 ;\n"
				   "        EXIT ;\n";
	const uint32_t grid = 3;
	th_kernel t;
	th_load(&t, text, "partial.we", NULL);
	th_buf_new(&t, "out", NULL, grid * 64 * 12, 0xa5);
	we_launch_config c = { .grid = th_dim3(grid, 1, 1), .block = th_dim3(64, 1, 1), .threads = 1 };
	th_run ref;
	run_ref(&t, c, "partial shared blocks", &ref, NULL);
	CHECK(ref.st == WE_OK, "status %s\n%s", we_status_name(ref.st), ref.err);
	/* shared memory after the partial STS: word w = w + 100, except the
	 * words 11..18 and 43..50 the lanes 3..10 of each warp wrote (warp
	 * 0's 32 words from word 8 fit, warp 1's from word 40 do not) */
	uint32_t sh[64];
	for (uint32_t w = 0; w < 64; w++)
		sh[w] = ((w >= 11 && w < 19) || (w >= 43 && w < 51)) ? w - 8 + 200 : w + 100;
	const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
	for (uint32_t cta = 0; cta < grid; cta++)
		for (uint32_t i = 0; i < 64; i++) {
			const bool p0 = (i & 31) - 3u < 8u, p1 = !(i & 0x21);
			const uint32_t want[3] = { p0 ? i + 8 + 100 : 0x55, p1 ? sh[2 * i] : 0x77, sh[i] };
			for (unsigned w = 0; w < 3; w++)
				CHECK(out[(cta * 64 + i) * 3 + w] == want[w], "CTA %u thread %u word %u: 0x%08x, want 0x%08x",
				      cta, i, w, out[(cta * 64 + i) * 3 + w], want[w]);
		}
	compare_engines(&t, c, "partial shared blocks", &ref);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

START_TEST(registers_start_at_zero)
{
	static const char text[] = ".param ptr out\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        S2R R1, SR_CTAID.X ;\n"
				   "        MOV R10, c[0x0][0x0] ;\n"
				   "        MOV R11, c[0x0][0x4] ;\n"
				   "        IMAD R8, R1, 0x40, R0 ;\n"
				   "        IMAD.WIDE.U32 R[10:11], R8, 0x1c, R[10:11] ;\n"
				   "        IADD3 R3, R0, R1, RZ ;\n"
				   "        LOP3.LUT R3, R3, 0x1, RZ, 0xc0, !PT ;\n"
				   "        ISETP.NE.U32.AND P0, PT, R3, RZ, PT ;\n"
				   "   @P0  IADD3 R2, R1, 0x100, RZ ;\n"
				   "   @P0  IADD3 R13, R1, 0x400, RZ ;\n"
				   "        SHFL.BFLY PT, R14, R13, 0x1, 0x1f ;\n"
				   "   @P0  BRA `(.skip) ;\n"
				   "        IADD3 R4, R1, 0x200, RZ ;\n"
				   ".skip:\n"
				   "        MOV R6, 0x3 ;\n"
				   ".loop:\n"
				   "        IADD3 R12, R12, R5, RZ ;\n"
				   "        IADD3 R5, R1, 0x300, RZ ;\n"
				   "        IADD3 R6, R6, -0x1, RZ ;\n"
				   "        ISETP.NE.U32.AND P1, PT, R6, RZ, PT ;\n"
				   "   @P1  BRA `(.loop) ;\n"
				   "   @P0  IADD3 R15, R1, 0x500, RZ ;\n"
				   "   @P0  IADD3 R16, R15, 0x1, RZ ;\n"
				   "        ISETP.NE.U32.AND P2, PT, R3, RZ, PT ;\n"
				   "   @P2  IADD3 R17, R1, 0x600, RZ ;\n"
				   "        ISETP.EQ.U32.AND P2, PT, R1, R1, PT ;\n"
				   "        STG [R10.64], R2 ;\n"
				   "        STG [R10.64+0x4], R4 ;\n"
				   "        STG [R10.64+0x8], R12 ;\n"
				   "        STG [R10.64+0xc], R5 ;\n"
				   "        STG [R10.64+0x10], R14 ;\n"
				   "        STG [R10.64+0x14], R16 ;\n"
				   "   @P2  STG [R10.64+0x18], R17 ;\n"
				   "        EXIT ;\n";
	const uint32_t grid = 40;
	th_kernel t;
	th_load(&t, text, "zero.we", NULL);
	th_buf_new(&t, "out", NULL, grid * 64 * 28, 0xa5);
	we_launch_config c = { .grid = th_dim3(grid, 1, 1), .block = th_dim3(64, 1, 1), .threads = 1 };
	th_run ref;
	run_ref(&t, c, "registers at zero", &ref, NULL);
	const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
	for (uint32_t cta = 0; cta < grid; cta++)
		for (uint32_t i = 0; i < 64; i++) {
			const bool odd = (i + cta) & 1;
			const uint32_t want[7] = { odd ? cta + 0x100 : 0, odd ? 0 : cta + 0x200, 2 * (cta + 0x300),
						   cta + 0x300, odd ? 0 : cta + 0x400, odd ? cta + 0x501 : 0,
						   odd ? cta + 0x600 : 0 };
			for (unsigned w = 0; w < 7; w++)
				CHECK(out[(cta * 64 + i) * 7 + w] == want[w],
				      "CTA %u thread %u word %u: 0x%08x, want 0x%08x", cta, i, w,
				      out[(cta * 64 + i) * 7 + w], want[w]);
		}
	compare_engines(&t, c, "registers at zero", &ref);
	th_run_free(&ref);
	th_close(&t);
}
END_TEST

/* CTAs that end at one EXIT: in a batch of CTAs whose warps all leave
 * at it, the group retires them at once (src/exec/group.c group_exit,
 * src/engine/sched.c batch_exited); where some lanes stay (EXIT's
 * predicate false for threads 16..31 of CTA 37) or a warp is partial, the
 * CTAs go on one by one.  A CTA start resets only what the slot's last
 * CTA could change (src/engine/slot.c warp_start): UR5 and P1, read
 * before they are written, must be zero in every CTA; a variant with a
 * BSSY/BSYNC pair resets everything.  One-warp CTAs, a partial one-warp
 * CTA (which must not join a group), two-warp CTAs with and without a
 * partial warp; every batch size on one worker and the default on two.
 * Against the host (values and counters) and lockstep 1 (also the
 * warp-threads engine, whose slots start CTAs the same way); the fault
 * variant stores out of range in CTA 37 instead: the same report. */
START_TEST(ctas_exit_together)
{
	static const char head[] = ".param ptr out\n"
				   "        S2R R0, SR_TID.X ;\n"
				   "        S2R R1, SR_CTAID.X ;\n"
				   "        S2R R2, SR_NTID.X ;\n"
				   "        MOV R10, c[0x0][0x0] ;\n"
				   "        MOV R11, c[0x0][0x4] ;\n"
				   "        IMAD R8, R1, R2, R0 ;\n"
				   "        IMAD.WIDE.U32 R[10:11], R8, 0x4, R[10:11] ;\n"
				   "        MOV R4, UR5 ;\n"
				   "        IADD3 R3, R0, R4, RZ ;\n"
				   "        UIADD3 UR5, UR5, 0x100, URZ ;\n"
				   "   @P1  IADD3 R3, R3, 0x1000, RZ ;\n"
				   "        ISETP.EQ.U32.AND P1, PT, R1, R1, PT ;\n"
				   "        ISETP.NE.U32.AND P5, PT, R1, 0x25, PT ;\n"
				   "        ISETP.LT.U32.OR P5, PT, R0, 0x10, P5 ;\n"
				   "        ISETP.GE.U32.OR P5, PT, R0, 0x20, P5 ;\n";
	/* what comes before EXIT P5 and what the staying threads run after
	 * it (then a store and EXIT) */
	static const char *const before_exit[] = {
		"        STG [R10.64], R3 ;\n",
		"        BSSY B0, `(.join) ;\n"
		"        STG [R10.64], R3 ;\n"
		"        BSYNC B0 ;\n"
		".join:\n",
		"        STG [R10.64], R3 ;\n",
	};
	static const char *const after_exit[] = {
		"        IADD3 R3, R3, 0x20000, RZ ;\n",
		"        IADD3 R3, R3, 0x20000, RZ ;\n",
		"        IADD3 R11, R11, 0x100, RZ ;\n",
	};
	/* instructions before EXIT P5 (and those of them a thread runs with
	 * its guard false: @P1), after it */
	static const unsigned before[] = { 17, 19, 17 }, after = 3;
	static const uint32_t blocks[] = { 32, 20, 64, 48 };
	const uint32_t grid = 64;
	for (unsigned v = 0; v < 3; v++)
		for (unsigned bi = 0; bi < 4; bi++) {
			const uint32_t nt = blocks[bi], nw = (nt + 31) / 32;
			char text[2048], label[96];
			snprintf(text, sizeof text, "%s%s        EXIT P5 ;\n%s        STG [R10.64], R3 ;\n        EXIT ;\n",
				 head, before_exit[v], after_exit[v]);
			snprintf(label, sizeof label, "EXIT together, variant %u, block %u", v, nt);
			th_kernel t;
			th_load(&t, text, "exits.we", NULL);
			th_buf_new(&t, "out", NULL, grid * nt * 4, 0xa5);
			we_launch_config c = { .grid = th_dim3(grid, 1, 1), .block = th_dim3(nt, 1, 1), .lockstep = 1 };
			th_run ref;
			lk_run(&t, &c, &ref);
			if (v == 2) {
				/* CTA 37's threads 16..31 store 2^40 bytes past out */
				CHECK(ref.st == WE_ERR_EXCEPTION && strstr(ref.err, "CTA (37,0,0)"),
				      "%s: status %s\n%s", label, we_status_name(ref.st), ref.err);
			} else {
				th_expect_ok(&ref, label);
				const uint32_t *out = (const uint32_t *)(void *)th_view(&t, ref.mem, "out");
				for (uint32_t cta = 0; cta < grid; cta++)
					for (uint32_t i = 0; i < nt; i++) {
						const uint32_t want = i + (cta == 37 && i >= 16 && i < 32 ? 0x20000u : 0u);
						CHECK(out[cta * nt + i] == want, "%s: CTA %u thread %u: 0x%08x, want 0x%08x",
						      label, cta, i, out[cta * nt + i], want);
					}
				/* warp 0 of CTA 37 runs 3 more, with threads 16..31 */
				const uint64_t late_warps = 1, late_threads = (nt < 32 ? nt : 32) - 16;
				const uint64_t wi = (uint64_t)grid * nw * before[v] + late_warps * after;
				const uint64_t ti = (uint64_t)grid * nt * (before[v] - 1) + late_threads * after;
				CHECK(ref.s.warp_insns == wi && ref.s.thread_insns == ti,
				      "%s: %llu warp-instructions (want %llu), %llu thread-instructions (want %llu)",
				      label, (unsigned long long)ref.s.warp_insns, (unsigned long long)wi,
				      (unsigned long long)ref.s.thread_insns, (unsigned long long)ti);
			}
			compare_engines(&t, c, label, &ref);
			compare_batches(&t, c, 32, label, &ref);
			th_run_free(&ref);
			th_close(&t);
		}
}
END_TEST

/* CTA batches of one-warp CTAs whose warps stop (a YIELD) with lanes
 * inactive, every CTA of the batch at one PC: such a warp must not join a
 * lockstep group across CTAs, which runs its instructions in every lane
 * (src/engine/sched.c, batch_joins).  tests/data/batch_partial.we: lanes
 * 16..31 YIELD inside a divergent if (the inactive lanes ran the other
 * side too), and lanes 16..31 EXIT before a YIELD (exited lanes stored);
 * and instructions of every form under guards false in every lane (a
 * group runs nothing of them and goes on: exec_group); against the
 * host.  tests/data/batch_yield.we: divergent loops, BSSY/
 * BSYNC, a BRA straight to its BSYNC and a guarded YIELD inside a
 * divergent branch (its loop counter ran twice in some lanes).  Each on
 * every engine and group setting, plus CTA batches of 3 on one worker
 * (lockstep 2 and 32), against lockstep 1; grids of 3 and 8 CTAs. */
static void batch_compare(th_kernel *t, we_launch_config c, const char *label, const th_run *ref)
{
	static const unsigned lockstep[] = { 2, 32 };
	char what[200];
	for (unsigned k = 0; k < 2; k++) {
		th_run r;
		c.lockstep = lockstep[k];
		c.batch = 3;
		c.threads = 1;
		lk_run(t, &c, &r);
		snprintf(what, sizeof what, "%s, lockstep %u, batch 3, 1 thread", label, lockstep[k]);
		expect_same(t, ref, &r, what);
		th_run_free(&r);
	}
	c.lockstep = c.batch = c.threads = 0;
	compare_engines(t, c, label, ref);
}

START_TEST(batch_partial_masks)
{
	static const char *const kernels[3] = { "yield_mid_if", "yield_after_exit", "idle_guards" };
	static const unsigned grids[2] = { 3, 8 };
	for (unsigned k = 0; k < 3; k++)
		for (unsigned gi = 0; gi < 2; gi++) {
			const uint32_t n = grids[gi] * 32;
			th_kernel t;
			th_file(&t, "tests/data/batch_partial.we", kernels[k]);
			th_buf_new(&t, "out", NULL, n * 4, 0xa5);
			we_launch_config c = { .grid = th_dim3(grids[gi], 1, 1), .block = th_dim3(32, 1, 1) };
			char label[120];
			snprintf(label, sizeof label, "%s, grid %u", kernels[k], grids[gi]);
			th_run ref;
			run_ref(&t, c, label, &ref, NULL);
			const uint32_t *out = (const uint32_t *)(const void *)ref.mem;
			for (uint32_t g = 0; g < n; g++) {
				const uint32_t want = k == 2       ? 9u
						      : g % 32 < 16 ? (k ? 7u : 3u)
						      : k           ? 0xa5a5a5a5u
								    : 0u;
				CHECK(out[g] == want, "%s: out[%u] = 0x%08x, want 0x%08x", label, g, out[g], want);
			}
			batch_compare(&t, c, label, &ref);
			th_run_free(&ref);
			th_close(&t);
		}
	for (unsigned gi = 0; gi < 2; gi++) {
		const uint32_t n = grids[gi] * 32;
		uint32_t *in = th_xmalloc(n * 4);
		for (uint32_t g = 0; g < n; g++)
			in[g] = 12345u + 7u * g;
		th_kernel t;
		th_file(&t, "tests/data/batch_yield.we", "wfn");
		th_buf_new(&t, "out", NULL, n * 16, 0);
		th_buf_new(&t, "in", in, n * 4, 0);
		free(in);
		we_launch_config c = { .grid = th_dim3(grids[gi], 1, 1), .block = th_dim3(32, 1, 1) };
		char label[120];
		snprintf(label, sizeof label, "batch_yield.we, grid %u", grids[gi]);
		th_run ref;
		run_ref(&t, c, label, &ref, NULL);
		batch_compare(&t, c, label, &ref);
		th_run_free(&ref);
		th_close(&t);
	}
}
END_TEST

static Suite *lockstep_suite(void)
{
	Suite *s = suite_create("lockstep");
	TCase *f = tcase_create("kernel_files");
	tcase_set_timeout(f, 120);
	tcase_add_loop_test(f, kernel_files, 0, (int)NFCASES);
	suite_add_tcase(s, f);
	TCase *b = tcase_create("purpose_built");
	tcase_set_timeout(b, 120);
	tcase_add_test(b, guard_per_warp);
	tcase_add_test(b, loop_trips_per_warp);
	tcase_add_test(b, divergence_in_group);
	tcase_add_test(b, branch_in_group);
	tcase_add_test(b, memory_and_runs);
	tcase_add_test(b, operand_kinds);
	tcase_add_test(b, lop3_tables);
	tcase_add_test(b, isetp_comparisons);
	tcase_add_test(b, shf_shapes);
	suite_add_tcase(s, b);
	TCase *x = tcase_create("faults");
	tcase_set_timeout(x, 120);
	tcase_add_test(x, fault_const_in_group);
	tcase_add_test(x, fault_global_in_group);
	tcase_add_test(x, fault_one_warp_in_group);
	tcase_add_test(x, fault_after_barrier);
	tcase_add_test(x, fault_memory_in_group);
	tcase_add_test(x, watchdog_uneven_counts);
	tcase_add_test(x, watchdog_in_group);
	tcase_add_test(x, exits_in_group);
	tcase_add_test(x, shared_consecutive_words);
	tcase_add_test(x, s2r_registers);
	tcase_add_test(x, batch_ctas_part_ways);
	tcase_add_test(x, batch_fault_in_later_cta);
	tcase_add_test(x, lowest_fault_wins);
	tcase_add_test(x, registers_start_at_zero);
	tcase_add_test(x, partial_shared_blocks);
	tcase_add_test(x, ctas_exit_together);
	tcase_add_test(x, batch_partial_masks);
	suite_add_tcase(s, x);
	TCase *l = tcase_create("limits");
	tcase_set_timeout(l, 120);
	tcase_add_test(l, lockstep_limit);
	tcase_add_test(l, warp_threads_ignore_lockstep);
	tcase_add_test(l, seeded_and_trace_ignore_lockstep);
	suite_add_tcase(s, l);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(lockstep_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
