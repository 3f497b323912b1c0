/* test_dialects — the neighbouring barrier systems of the seeds through the
 * public API, under every engine: NVIDIA SASS BAR (seed 003: the
 * same-register form, counts 0/omitted/RZ, BAR.SCAN, BAR.RED results,
 * BAR.SYNCALL and the trap handler with TRAP/RTT of seed 004) and Intel
 * vISA NBARRIER (seed 002), as spec-reading "Dialects" and
 * doc/spec-reading.md read them.
 *
 * Part 1 runs the kernels kernels/nbpipe.we (warp-specialised pipeline over
 * named barriers), kernels/compact.we (stream compaction with BAR.SCAN)
 * and kernels/traphandler.we (a TRAP in the middle of a barrier kernel,
 * with and without the trap) on large grids and checks every output
 * against a host reference.  Part 2 pins down each rule and exception with
 * small inline kernels.
 *
 * Every test loops over th_engines[]: the scheduler and warp-threads.
 */
#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* Safety nets: a kernel that hangs fails instead of stalling make check. */
#define UNIT_MAX_INSNS 2000000u
#define WALL_TIMEOUT_S 240.0 /* (within the kernels case's 600 s: sanitizer builds on a loaded machine run a 10,000-CTA kernel for minutes) */

/* A seeded schedule from seed (0: unseeded), check mode, and a budget of
 * max_insns instructions (0: none). */
static we_launch_config sched(uint64_t seed, bool check, uint64_t max_insns)
{
	return (we_launch_config){ .schedule_seeded = seed != 0, .schedule_seed = seed, .check = check,
				   .max_instructions = max_insns };
}

/* Launch t on `grid` CTAs of `block` threads of engine e, with the
 * schedule, check mode and budget of o (NULL: none), under the wall-clock
 * safety net. */
static we_status launch(th_kernel *t, uint32_t grid, uint32_t block, we_engine e, const we_launch_config *o,
			we_launch_stats *s)
{
	we_launch_config cfg = o ? *o : sched(0, false, 0);
	cfg.grid = th_dim1(grid);
	cfg.block = th_dim1(block);
	cfg.engine = e;
	cfg.timeout = WALL_TIMEOUT_S;
	we_launch_stats dummy;
	return th_launch(t, &cfg, s ? s : &dummy);
}

/* launch(), which must succeed. */
static void launch_ok(th_kernel *t, uint32_t grid, uint32_t block, we_engine e, const we_launch_config *o,
		      we_launch_stats *s)
{
	we_status st = launch(t, grid, block, e, o, s);
	CHECK(st == WE_OK, "[%s] %s: status %s: %s", we_engine_name(e), t->k->name, we_status_name(st),
	      we_last_error(t->dev));
}

#define SENTINEL 0xa5a5a5a5u

/* Case-insensitive substring. */
static bool has_ci(const char *hay, const char *needle)
{
	/* "a|b": either (a report whose wording depends on which warp the
	 * host ran first) */
	const char *bar = strchr(needle, '|');
	if (bar) {
		char first[160];
		snprintf(first, sizeof first, "%.*s", (int)(bar - needle), needle);
		return has_ci(hay, first) || has_ci(hay, bar + 1);
	}
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return n == 0;
}

/* ---- small inline kernels: one `out` buffer of u32 words ---------- */

typedef struct mini {
	th_kernel t;
	we_devptr out;
	size_t words;
	uint32_t *host;
	we_launch_stats stats;
} mini;

static void mini_load(mini *m, const char *src, size_t words)
{
	memset(m, 0, sizeof *m);
	th_load(&m->t, src, "inline.we", NULL);
	m->words = words;
	if (words) {
		m->out = th_buf_new(&m->t, "out", NULL, words * 4, 0);
		m->host = calloc(words, 4);
		CHECK(m->host != NULL, "out of memory");
	}
}

/* Zero `out`, launch, read `out` back. */
static we_status mini_launch(mini *m, uint32_t grid, uint32_t block, we_engine e, const we_launch_config *o)
{
	we_launch_config def = sched(0, false, UNIT_MAX_INSNS);
	if (!o)
		o = &def;
	th_restore(&m->t);
	we_status st = launch(&m->t, grid, block, e, o, &m->stats);
	if (m->words)
		th_get(&m->t, m->host, m->out, m->words * 4);
	return st;
}

static void mini_ok(mini *m, uint32_t grid, uint32_t block, we_engine e, const we_launch_config *o)
{
	we_status st = mini_launch(m, grid, block, e, o);
	CHECK(st == WE_OK, "[%s] status %s: %s", we_engine_name(e), we_status_name(st), we_last_error(m->t.dev));
}

static void mini_close(mini *m)
{
	free(m->host);
	th_close(&m->t);
}

/* The kernel raises an exception whose JSON kind is `kind` and whose
 * message contains `msg` (case-insensitive), under every engine. */
static void expect_exception(const char *src, uint32_t block, const char *kind, const char *msg)
{
	for (size_t e = 0; e < TH_NENGINES; e++) {
		mini m;
		mini_load(&m, src, 0);
		we_status st = mini_launch(&m, 2, block, th_id(e), NULL);
		const char *text = we_last_error(m.t.dev), *json = we_last_report_json(m.t.dev);
		CHECK(st == WE_ERR_EXCEPTION, "[%s] status %s, want an exception (%s): %s\n---\n%s", th_name(e),
		      we_status_name(st), msg, text, src);
		char want[160];
		snprintf(want, sizeof want, "\"kind\":\"%s\"", kind);
		CHECK(strstr(json, want) != NULL, "[%s] exception kind, want %s:\n%s", th_name(e), want, json);
		CHECK(strstr(json, "\"verdict\":\"exception\"") != NULL, "[%s] verdict:\n%s", th_name(e), json);
		CHECK(has_ci(text, msg), "[%s] the report lacks \"%s\":\n%s", th_name(e), msg, text);
		mini_close(&m);
	}
}

/* The text does not load: status `want` with `msg` in the message. */
static void expect_load_error(const char *src, we_status want, const char *msg)
{
	we_device *dev;
	we_module *mod = NULL;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	we_status st = we_module_load_text(dev, src, strlen(src), "bad.we", &mod);
	CHECK(st == want, "status %s, want %s (%s): %s\n---\n%s", we_status_name(st), we_status_name(want), msg,
	      we_last_error(dev), src);
	CHECK(has_ci(we_last_error(dev), msg), "the message lacks \"%s\": %s", msg, we_last_error(dev));
	if (mod)
		we_module_destroy(mod);
	we_device_destroy(dev);
}

static void expect_loads(const char *src)
{
	we_device *dev;
	we_module *mod = NULL;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	we_status st = we_module_load_text(dev, src, strlen(src), "good.we", &mod);
	CHECK(st == WE_OK, "status %s: %s\n---\n%s", we_status_name(st), we_last_error(dev), src);
	we_module_destroy(mod);
	we_device_destroy(dev);
}

/* ================================================================ */
/* Part 1: the kernels                                                */

/* ---- nbpipe (vISA named barriers) --------------------------------- */

static uint32_t nbpipe_ref(const uint32_t *in, uint32_t iters, uint32_t cta, uint32_t c, uint32_t lane)
{
	uint32_t acc = 0, add = cta * 0x9e3779b1u;
	for (uint32_t i = 0; i < iters; i++) {
		uint32_t a = in[i * 64 + lane] + add;
		uint32_t b = in[i * 64 + 32 + ((lane + c) & 31)] + add;
		acc = ((acc ^ (a ^ b)) * 0x01000193u) + c;
	}
	return acc;
}

START_TEST(nbpipe_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/nbpipe.we", "nbpipe");
	ck_assert_str_eq(t.k->dialect, "visa");
	const uint32_t iters = 64, maxgrid = 10000;
	uint32_t *in = malloc(iters * 64 * 4), *out = malloc((size_t)maxgrid * 96 * 4);
	ck_assert(in && out);
	th_rng_seed(7);
	for (uint32_t i = 0; i < iters * 64; i++)
		in[i] = th_rng();
	th_u32(&t, "iters", iters);
	th_buf_new(&t, "in", in, iters * 64 * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, (size_t)maxgrid * 96 * 4, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		/* warp-threads blocks a host thread per named-barrier wait */
		const uint32_t grid = (th_engines[e].flags & TH_THREAD_PER_WARP) ? 2000 : maxgrid;
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, (size_t)maxgrid * 96 * 4), WE_OK);
		we_launch_stats s;
		launch_ok(&t, grid, 160, th_id(e), NULL, &s);
		ck_assert_uint_eq(s.ctas, grid);
		th_get(&t, out, dout, (size_t)maxgrid * 96 * 4);
		for (uint32_t cta = 0; cta < maxgrid; cta++)
			for (uint32_t c = 0; c < 3; c++)
				for (uint32_t l = 0; l < 32; l++) {
					size_t i = (size_t)cta * 96 + c * 32 + l;
					uint32_t want = cta < grid ? nbpipe_ref(in, iters, cta, c, l) : SENTINEL;
					CHECK(out[i] == want, "[%s] CTA %u consumer %u lane %u: 0x%08x, want 0x%08x",
					      th_name(e), cta, c, l, out[i], want);
				}
	}
	/* seeded schedules: other interleavings of producers and consumers */
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			we_launch_config o = sched(seed, true, 0);
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, 64 * 96 * 4), WE_OK);
			launch_ok(&t, 64, 160, th_id(e), &o, NULL);
			th_get(&t, out, dout, 64 * 96 * 4);
			for (uint32_t cta = 0; cta < 64; cta++)
				for (uint32_t c = 0; c < 3; c++)
					for (uint32_t l = 0; l < 32; l++) {
						uint32_t want = nbpipe_ref(in, iters, cta, c, l);
						CHECK(out[cta * 96 + c * 32 + l] == want,
						      "[%s seed %llu] CTA %u consumer %u lane %u: 0x%08x, want 0x%08x",
						      th_name(e), (unsigned long long)seed, cta, c, l,
						      out[cta * 96 + c * 32 + l], want);
					}
			CHECK(!*we_last_warnings(t.dev), "[%s] check warnings: %s", th_name(e),
			      we_last_warnings(t.dev));
		}
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

/* ---- compact (BAR.SCAN) -------------------------------------------- */

/* Checks CTA `cta`'s output: per chunk, the kept elements of each warp in
 * lane order, the warps' runs in any order (their arrival order at
 * BAR.SCAN).  Returns whether some chunk's runs were not in warp order. */
static bool compact_check(const char *L, const uint32_t *in, const uint32_t *out, const uint32_t *count,
			  uint32_t cta, uint32_t seg, uint32_t block, uint32_t thresh)
{
	const uint32_t *x = in + (size_t)cta * seg, *o = out + (size_t)cta * seg;
	const uint32_t nw = block / 32;
	uint32_t pos = 0;
	bool reordered = false;
	for (uint32_t j = 0; j < seg; j += block) {
		uint32_t start[32], len[32], total = 0;
		for (uint32_t w = 0; w < nw; w++) {
			len[w] = 0;
			start[w] = j + w * 32;
			for (uint32_t l = 0; l < 32; l++) {
				uint32_t i = j + w * 32 + l;
				if (i < seg && x[i] < thresh)
					len[w]++;
			}
			total += len[w];
		}
		uint32_t used = 0, end = pos + total, prev = 0;
		bool first = true;
		while (pos < end) {
			/* the run starting here belongs to the warp whose first kept
			 * element it is (the values are distinct) */
			uint32_t w = 0;
			for (; w < nw; w++) {
				if (!len[w] || ((used >> w) & 1u))
					continue;
				uint32_t i = start[w];
				while (x[i] >= thresh)
					i++;
				if (x[i] == o[pos])
					break;
			}
			CHECK(w < nw, "%s: CTA %u chunk at %u: out[%u] = 0x%08x starts no warp's kept run", L, cta, j,
			      pos, o[pos]);
			if (!first && w < prev)
				reordered = true;
			first = false;
			prev = w;
			used |= 1u << w;
			uint32_t k = 0;
			for (uint32_t l = 0; l < 32; l++) {
				uint32_t i = j + w * 32 + l;
				if (i < seg && x[i] < thresh) {
					CHECK(o[pos + k] == x[i],
					      "%s: CTA %u chunk at %u warp %u: out[%u] = 0x%08x, want 0x%08x (lane %u)", L,
					      cta, j, w, pos + k, o[pos + k], x[i], l);
					k++;
				}
			}
			pos += k;
		}
	}
	CHECK(count[cta] == pos, "%s: CTA %u: count %u, want %u", L, cta, count[cta], pos);
	for (uint32_t i = pos; i < seg; i++)
		CHECK(o[i] == SENTINEL, "%s: CTA %u: out[%u] = 0x%08x past the kept elements", L, cta, i, o[i]);
	return reordered;
}

START_TEST(compact_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/compact.we", "compact");
	ck_assert_str_eq(t.k->dialect, "sass");
	const uint32_t grid = 10000, maxseg = 2 * 256 - 37;
	const uint32_t thresh = 0x60000000u; /* below SENTINEL: ~37% kept */
	const size_t n = (size_t)grid * maxseg;
	uint32_t *in = malloc(n * 4), *out = malloc(n * 4), *count = malloc(grid * 4);
	ck_assert(in && out && count);
	/* distinct values: an odd multiplier is a bijection mod 2^32 */
	for (size_t i = 0; i < n; i++)
		in[i] = (uint32_t)i * 2654435761u + 12345u;
	th_u32(&t, "thresh", thresh);
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	we_devptr dcount = th_buf_new(&t, "count", NULL, grid * 4, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		/* two chunks, the second partial */
		const uint32_t block = (th_engines[e].flags & TH_THREAD_PER_WARP) ? 128 : 256;
		const uint32_t seg = 2 * block - 37;
		th_u32(&t, "seg", seg);
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 4), WE_OK);
		ck_assert_int_eq(we_memset(t.dev, dcount, 0xa5, grid * 4), WE_OK);
		we_launch_stats s;
		launch_ok(&t, grid, block, th_id(e), NULL, &s);
		ck_assert_uint_eq(s.ctas, grid);
		/* per chunk: the BAR.SCAN phase and the BAR.RED */
		ck_assert_uint_eq(s.barriers, (uint64_t)grid * 2 * 2);
		th_get(&t, out, dout, n * 4);
		th_get(&t, count, dcount, grid * 4);
		/* the input of CTA c starts at c * seg */
		for (uint32_t cta = 0; cta < grid; cta++)
			compact_check(th_name(e), in, out, count, cta, seg, block, thresh);
	}
	/* seeded schedules: warps arrive at BAR.SCAN in other orders, and
	 * the output follows them */
	for (size_t e = 0; e < TH_NENGINES; e++) {
		bool reordered = false;
		for (uint64_t seed = 1; seed <= 4; seed++) {
			const uint32_t block = 256, seg = 2 * block - 37, g = 100;
			char L[64];
			snprintf(L, sizeof L, "%s seed %llu", th_name(e), (unsigned long long)seed);
			th_u32(&t, "seg", seg);
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, (size_t)g * seg * 4), WE_OK);
			ck_assert_int_eq(we_memset(t.dev, dcount, 0xa5, g * 4), WE_OK);
			we_launch_config o = sched(seed, true, 0);
			launch_ok(&t, g, block, th_id(e), &o, NULL);
			CHECK(!*we_last_warnings(t.dev), "[%s] check warnings: %s", L, we_last_warnings(t.dev));
			th_get(&t, out, dout, (size_t)g * seg * 4);
			th_get(&t, count, dcount, g * 4);
			for (uint32_t cta = 0; cta < g; cta++)
				reordered |= compact_check(L, in, out, count, cta, seg, block, thresh);
		}
		CHECK(reordered, "[%s] seeded schedules never changed the warps' arrival order at BAR.SCAN",
		      th_name(e));
	}
	free(in);
	free(out);
	free(count);
	th_close(&t);
}
END_TEST

/* ---- traphandler (TRAP, BAR.SYNCALL, RTT) -------------------------- */

START_TEST(traphandler_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/traphandler.we", "traphandler");
	ck_assert_str_eq(t.k->dialect, "sass");
	const uint32_t grid = 10000, block = 128, nw = block / 32;
	const size_t n = (size_t)grid * block;
	uint32_t *in = malloc(n * 4), *out = malloc(n * 4), *ref = malloc(n * 4), *trapped = malloc(grid * nw * 4);
	uint32_t *first = malloc(n * 4);
	ck_assert(in && out && ref && trapped && first);
	th_rng_seed(3);
	for (size_t i = 0; i < n; i++)
		in[i] = th_rng();
	for (uint32_t c = 0; c < grid; c++) {
		const uint32_t *x = in + (size_t)c * block;
		uint32_t odd = 0;
		for (uint32_t tt = 0; tt < block; tt++)
			odd += x[tt] & 1u;
		for (uint32_t tt = 0; tt < block; tt++) {
			uint32_t lane = tt & 31, w = tt >> 5;
			uint32_t r = (lane & 1u) ? x[tt] ^ 0xabcu : (x[tt] + 5u) * 7u;
			if (!(w & 1u)) /* the odd partner's 3 * x[t ^ 32] + x[t] */
				r += 3u * x[tt ^ 32u] + x[tt];
			ref[(size_t)c * block + tt] = r + odd;
		}
	}
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	we_devptr dtr = th_buf_new(&t, "trapped", NULL, grid * nw * 4, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		for (uint32_t trap = 0; trap < 2; trap++) {
			th_u32(&t, "trap", trap);
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 4), WE_OK);
			ck_assert_int_eq(we_memset(t.dev, dtr, 0, grid * nw * 4), WE_OK);
			we_launch_stats s;
			launch_ok(&t, grid, block, th_id(e), NULL, &s);
			/* BAR.RED 3 and barrier 2; with the trap four BAR.SYNCALL */
			ck_assert_uint_eq(s.barriers, (uint64_t)grid * (trap ? 6 : 2));
			th_get(&t, out, dout, n * 4);
			th_get(&t, trapped, dtr, grid * nw * 4);
			for (size_t i = 0; i < n; i++)
				CHECK(out[i] == ref[i], "[%s trap=%u] out[%zu] = 0x%08x, want 0x%08x", th_name(e),
				      trap, i, out[i], ref[i]);
			if (!trap)
				memcpy(first, out, n * 4);
			else
				CHECK(!memcmp(first, out, n * 4), "[%s] the trap changed the result", th_name(e));
			for (uint32_t i = 0; i < grid * nw; i++)
				CHECK(trapped[i] == (trap ? i % nw + 1 : 0), "[%s trap=%u] trapped[%u] = %u",
				      th_name(e), trap, i, trapped[i]);
		}
	}
	/* seeded schedules with the trap, in check mode */
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			const uint32_t g = 200;
			th_u32(&t, "trap", 1);
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 4), WE_OK);
			we_launch_config o = sched(seed, true, 0);
			launch_ok(&t, g, block, th_id(e), &o, NULL);
			/* BAR.SYNCALL in the handler, BAR.RED and BAR.SYNC around the
			 * trap: no hazard */
			CHECK(!*we_last_warnings(t.dev), "[%s seed %llu] check warnings: %s", th_name(e),
			      (unsigned long long)seed, we_last_warnings(t.dev));
			th_get(&t, out, dout, (size_t)g * block * 4);
			for (size_t i = 0; i < (size_t)g * block; i++)
				CHECK(out[i] == ref[i], "[%s seed %llu] out[%zu] = 0x%08x, want 0x%08x", th_name(e),
				      (unsigned long long)seed, i, out[i], ref[i]);
		}
	free(in);
	free(out);
	free(ref);
	free(trapped);
	free(first);
	th_close(&t);
}
END_TEST

/* ================================================================ */
/* Part 2: SASS BAR (seed 003)                                        */

/* Same-register form: id Ra[3:0], count Ra[27:16]; the other bits of Ra
 * are ignored.  Warps 0/1 pair on barrier 5 (R9 = 0xa0401235: id 5,
 * count 64, junk in [15:4] and [31:28]), warps 2/3 on barrier 6
 * (R10 = 0x70402236); the even warp stores and BAR.ARV, the odd one
 * BAR.SYNC and loads (out[t]).  Then BAR.RED.POPC R11, R11 (id 7, count
 * 128; out[128 + t]) and B2R.BAR of barriers 0..7 (out[256 + id]): bit 31
 * (phase parity) is set exactly for 5, 6 and 7. */
static const char same_reg_src[] =
	".param ptr out\n"
	".shared 256\n"
	".dialect sass\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        MOV R9, 0xa0401235 ;\n"
	"        MOV R10, 0x70402236 ;\n"
	"        MOV R11, 0x00800007 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD R5, R1, 0x110, R0 ;\n"           /* 272 words per CTA */
	"        IMAD.WIDE.U32 R[22:23], R5, 0x4, R[20:21] ;\n"
	"        SHF.R.U32.HI R6, RZ, 0x1, R3 ;\n"       /* pair */
	"        IMAD R7, R6, 0x20, R4 ;\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"          /* the pair's slot */
	"        LOP3.LUT R8, R3, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R8, RZ, PT ;\n" /* odd warp */
	"        ISETP.NE.U32.AND P1, PT, R6, RZ, PT ;\n" /* pair 1 */
	"   @P0  BRA `(.odd) ;\n"
	"        IADD3 R12, R0, 0x1000, RZ ;\n"
	"        STS [R7], R12 ;\n"
	"   @!P1 BAR.ARV R9, R9 ;\n"
	"   @P1  BAR.ARV R10, R10 ;\n"
	"        MOV R13, RZ ;\n"
	"        BRA `(.red) ;\n"
	".odd:\n"
	"   @!P1 BAR.SYNC R9, R9 ;\n"
	"   @P1  BAR.SYNC R10, R10 ;\n"
	"        LDS R13, [R7] ;\n"
	".red:\n"
	"        STG [R22.64], R13 ;\n"                  /* out[t]: the partner's */
	"        ISETP.LT.U32.AND P2, PT, R4, 0x5, PT ;\n"
	"        BAR.RED.POPC R11, R11, P2 ;\n"          /* 5 lanes x 4 warps */
	"        BAR.RESULT R14 ;\n"
	"        STG [R22.64+0x200], R14 ;\n"            /* out[128 + t] */
	"        ISETP.NE.U32.AND P3, PT, R0, RZ, PT ;\n"
	"   @P3  EXIT ;\n"
	"        B2R.BAR R15, 0x0 ;\n"
	"        STG [R22.64+0x400], R15 ;\n"
	"        B2R.BAR R15, 0x1 ;\n"
	"        STG [R22.64+0x404], R15 ;\n"
	"        B2R.BAR R15, 0x2 ;\n"
	"        STG [R22.64+0x408], R15 ;\n"
	"        B2R.BAR R15, 0x3 ;\n"
	"        STG [R22.64+0x40c], R15 ;\n"
	"        B2R.BAR R15, 0x4 ;\n"
	"        STG [R22.64+0x410], R15 ;\n"
	"        B2R.BAR R15, 0x5 ;\n"
	"        STG [R22.64+0x414], R15 ;\n"
	"        B2R.BAR R15, 0x6 ;\n"
	"        STG [R22.64+0x418], R15 ;\n"
	"        B2R.BAR R15, 0x7 ;\n"
	"        STG [R22.64+0x41c], R15 ;\n"
	"        EXIT ;\n";

START_TEST(sass_same_register)
{
	const uint32_t grid = 50;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			mini m;
			mini_load(&m, same_reg_src, grid * 272);
			we_launch_config o = sched(seed, false, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 128, th_id(e), &o);
			ck_assert_uint_eq(m.stats.barriers, grid * 3);
			for (uint32_t c = 0; c < grid; c++) {
				const uint32_t *o2 = m.host + c * 272;
				for (uint32_t t = 0; t < 128; t++) {
					uint32_t w = t / 32;
					uint32_t want = (w & 1) ? (t - 32) + 0x1000 : 0;
					CHECK(o2[t] == want, "[%s seed %llu] CTA %u thread %u: 0x%x, want 0x%x",
					      th_name(e), (unsigned long long)seed, c, t, o2[t], want);
					CHECK(o2[128 + t] == 20, "[%s] CTA %u thread %u: BAR.RED.POPC R11, R11 = %u, want 20",
					      th_name(e), c, t, o2[128 + t]);
				}
				for (uint32_t id = 0; id < 8; id++) {
					uint32_t parity = o2[256 + id] >> 31;
					CHECK(parity == (id >= 5), "[%s] CTA %u: barrier %u has %s phase (state 0x%08x)",
					      th_name(e), c, id, parity ? "completed a" : "no completed",
					      o2[256 + id]);
				}
			}
			mini_close(&m);
		}
}
END_TEST

/* 003: with both operands registers, "the register specified has to be
 * the same for both": a load error in the sass dialect; the target ISA
 * (000) takes the count from Rb. */
START_TEST(sass_different_registers)
{
	static const char *const insns[][2] = {
		{ "BAR.SYNC R1, R2 ;", "BAR.SYNC R1, R1 ;" },
		{ "BAR.ARV R1, R2 ;", "BAR.ARV R2, R2 ;" },
		{ "BAR.RED.POPC R1, R2, PT ;", "BAR.RED.POPC R2, R2, PT ;" },
		{ "BAR.RED.AND R3, R1, P0 ;", "BAR.RED.AND R3, R3, P0 ;" },
		{ "BAR.SCAN R1, R2, PT ;", "BAR.SCAN R1, R1, PT ;" },
	};
	for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++) {
		char src[256];
		snprintf(src, sizeof src, ".dialect sass\n        MOV R1, 0x1 ;\n        %s\n        EXIT ;\n", insns[i][0]);
		expect_load_error(src, WE_ERR_LOAD, "same register");
		/* the same register loads */
		snprintf(src, sizeof src, ".dialect sass\n        MOV R1, 0x1 ;\n        %s\n        EXIT ;\n", insns[i][1]);
		expect_loads(src);
	}
	/* target ISA: different registers are legal */
	expect_loads("        MOV R1, 0x1 ;\n        MOV R2, 0x40 ;\n        BAR.SYNC R1, R2 ;\n        EXIT ;\n");
	expect_loads(".dialect target\n        BAR.RED.POPC R1, R2, PT ;\n        EXIT ;\n");
}
END_TEST

/* 003: "If SbarCnt is not specified, all of the threads in the CTA
 * participate ... explicitly specifying a U12 of 0 or an Ra equal to RZ"
 * likewise.  Five rounds, each with one spelling; in each round every
 * thread stores, the barrier, every thread loads a value of the next warp
 * (warp 3 first spins, so a barrier that does not wait for the whole CTA
 * reads a stale value), then the barrier again. */
static const char cnt0_src[] =
	".param ptr out\n"
	".shared 512\n"
	".dialect sass\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
	"        SHF.L.U32 R7, R0, 0x2, RZ ;\n"           /* &sh[t] */
	"        IADD3 R8, R0, 0x20, RZ ;\n"
	"        LOP3.LUT R8, R8, 0x7f, RZ, 0xc0, !PT ;\n"
	"        SHF.L.U32 R8, R8, 0x2, RZ ;\n"           /* &sh[(t + 32) % 128] */
	"        MOV R9, 0x5 ;\n"                         /* id 5, count field 0 */
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD R5, R1, 0x280, R0 ;\n"              /* 5 x 128 words per CTA */
	"        ISETP.EQ.U32.AND P0, PT, R3, 0x3, PT ;\n"
	"        MOV R10, RZ ;\n"                         /* round */
	".round:\n"
	"   @!P0 BRA `(.store) ;\n"
	"        MOV R11, RZ ;\n"
	".spin:\n"
	"        IADD3 R11, R11, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R11, 0x100, PT ;\n"
	"   @P1  BRA `(.spin) ;\n"
	".store:\n"
	"        IMAD R12, R10, 0x1000, R0 ;\n"
	"        IADD3 R12, R12, 0x1, RZ ;\n"            /* round * 4096 + t + 1 */
	"        STS [R7], R12 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x0, PT ;\n"
	"   @P2  BAR.SYNC 0x1 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x1, PT ;\n"
	"   @P2  BAR.SYNC 0x2, 0x0 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x2, PT ;\n"
	"   @P2  BAR.SYNC 0x3, RZ ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x3, PT ;\n"
	"   @P2  BAR.SYNC RZ, RZ ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x4, PT ;\n"
	"   @P2  BAR.SYNC R9, R9 ;\n"
	"        LDS R13, [R8] ;\n"
	"        IMAD R6, R10, 0x80, R5 ;\n"              /* the round's row */
	"        IMAD.WIDE.U32 R[22:23], R6, 0x4, R[20:21] ;\n"
	"        STG [R22.64], R13 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x0, PT ;\n"
	"   @P2  BAR.SYNC 0x1 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x1, PT ;\n"
	"   @P2  BAR.SYNC 0x2, 0x0 ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x2, PT ;\n"
	"   @P2  BAR.SYNC 0x3, RZ ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x3, PT ;\n"
	"   @P2  BAR.SYNC RZ, RZ ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R10, 0x4, PT ;\n"
	"   @P2  BAR.SYNC R9, R9 ;\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P3, PT, R10, 0x5, PT ;\n"
	"   @P3  BRA `(.round) ;\n"
	"        EXIT ;\n";

START_TEST(sass_count_whole_cta)
{
	const uint32_t grid = 40;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			mini m;
			mini_load(&m, cnt0_src, grid * 640);
			we_launch_config o = sched(seed, false, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 128, th_id(e), &o);
			ck_assert_uint_eq(m.stats.barriers, grid * 10);
			for (uint32_t c = 0; c < grid; c++)
				for (uint32_t r = 0; r < 5; r++)
					for (uint32_t t = 0; t < 128; t++) {
						uint32_t got = m.host[c * 640 + r * 128 + t];
						uint32_t want = r * 4096 + ((t + 32) & 127) + 1;
						CHECK(got == want, "[%s seed %llu] CTA %u round %u thread %u: %u, want %u",
						      th_name(e), (unsigned long long)seed, c, r, t, got, want);
					}
			mini_close(&m);
		}
	/* the spellings assemble to a count of 0 */
	expect_loads(".dialect sass\n BAR.SYNC 0x1 ;\n BAR.SYNC 0x1, 0x0 ;\n BAR.SYNC 0x1, RZ ;\n EXIT ;\n");
}
END_TEST

/* BAR.SCAN: warp w's predicate holds in lanes <= (3w + ctaid) % 32 (lanes
 * >= 20 of warp 5 exited first and do not count).  Round 1 scans P0 on
 * barrier 1 (count 256, immediate), round 2, after a BAR.SYNC 2, scans !P0
 * on barrier 1 again (count 256, same-register form).  Lane 0 stores
 * (result, predicate) per round. */
static const char scan_src[] =
	".param ptr out\n"
	".dialect sass\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        ISETP.EQ.U32.AND P4, PT, R3, 0x5, PT ;\n"
	"        ISETP.GE.U32.AND P5, PT, R4, 0x14, P4 ;\n"
	"   @P5  EXIT ;\n"
	"        IMAD R5, R3, 0x3, R1 ;\n"
	"        LOP3.LUT R5, R5, 0x1f, RZ, 0xc0, !PT ;\n"
	"        ISETP.LE.U32.AND P0, PT, R4, R5, PT ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD R6, R1, 0x8, R3 ;\n"
	"        SHF.L.U32 R6, R6, 0x2, RZ ;\n"           /* 4 words per warp */
	"        IMAD.WIDE.U32 R[22:23], R6, 0x4, R[20:21] ;\n"
	"        ISETP.NE.U32.AND P6, PT, R4, RZ, PT ;\n"
	"        BAR.SCAN 0x1, 0x100, P0 ;\n"
	"        BAR.RESULT R10, P1 ;\n"
	"        SEL R11, RZ, 0x1, !P1 ;\n"
	"        BAR.SYNC 0x2 ;\n"
	"        MOV R9, 0x1000001 ;\n"                  /* id 1, count 256 */
	"        BAR.SCAN R9, R9, !P0 ;\n"
	"        B2R.RESULT R12, P2 ;\n"
	"        SEL R13, RZ, 0x1, !P2 ;\n"
	"   @P6  EXIT ;\n"
	"        STG [R22.64], R10 ;\n"
	"        STG [R22.64+0x4], R11 ;\n"
	"        STG [R22.64+0x8], R12 ;\n"
	"        STG [R22.64+0xc], R13 ;\n"
	"        EXIT ;\n";

/* results r[w] and counts c[w] of n warps form a prefix sum in some
 * arrival order; *order gets it (warp indices, arrival first) */
static bool valid_prefix(const uint32_t *r, const uint32_t *c, unsigned n, unsigned *order)
{
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	/* by result, ties (zero counts) by count: insertion sort */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0; j--) {
			unsigned a = order[j - 1], b = order[j];
			if (r[a] > r[b] || (r[a] == r[b] && c[a] > c[b])) {
				order[j - 1] = b;
				order[j] = a;
			} else {
				break;
			}
		}
	uint32_t sum = 0;
	for (unsigned i = 0; i < n; i++) {
		if (r[order[i]] != sum)
			return false;
		sum += c[order[i]];
	}
	return true;
}

START_TEST(sass_scan_prefix_order)
{
	const uint32_t grid = 60, nw = 8;
	for (size_t e = 0; e < TH_NENGINES; e++) {
		unsigned orders_seen = 0;
		unsigned first_order[8] = { 0 };
		bool have_first = false;
		for (uint64_t seed = 0; seed <= 6; seed++) {
			mini m;
			mini_load(&m, scan_src, grid * nw * 4);
			we_launch_config o = sched(seed, true, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 256, th_id(e), &o);
			CHECK(!*we_last_warnings(m.t.dev), "[%s] check warnings: %s", th_name(e),
			      we_last_warnings(m.t.dev));
			/* the two scan phases and BAR.SYNC 2 */
			ck_assert_uint_eq(m.stats.barriers, grid * 3);
			for (uint32_t cta = 0; cta < grid; cta++) {
				uint32_t r1[8], r2[8], c1[8], c2[8];
				for (uint32_t w = 0; w < nw; w++) {
					uint32_t lanes = w == 5 ? 20 : 32, k = (3 * w + cta) % 32 + 1;
					c1[w] = k < lanes ? k : lanes;
					c2[w] = lanes - c1[w];
					const uint32_t *q = m.host + (cta * nw + w) * 4;
					r1[w] = q[0];
					r2[w] = q[2];
					CHECK(q[1] == (q[0] != 0) && q[3] == (q[2] != 0),
					      "[%s] CTA %u warp %u: BAR.RESULT predicate %u/%u for results %u/%u",
					      th_name(e), cta, w, q[1], q[3], q[0], q[2]);
				}
				unsigned ord[8];
				char L[200];
				int len = snprintf(L, sizeof L, "results");
				for (uint32_t w = 0; w < nw && len < (int)sizeof L; w++)
					len += snprintf(L + len, sizeof L - (size_t)len, " %u/%u", r1[w], r2[w]);
				CHECK(valid_prefix(r2, c2, nw, ord), "[%s seed %llu] CTA %u round 2: not a prefix sum in any "
				      "arrival order: %s", th_name(e), (unsigned long long)seed, cta, L);
				CHECK(valid_prefix(r1, c1, nw, ord), "[%s seed %llu] CTA %u round 1: not a prefix sum in any "
				      "arrival order: %s", th_name(e), (unsigned long long)seed, cta, L);
				if (!have_first) {
					memcpy(first_order, ord, sizeof ord);
					have_first = true;
					orders_seen = 1;
				} else if (orders_seen == 1 && memcmp(first_order, ord, sizeof ord)) {
					orders_seen = 2;
				}
			}
			mini_close(&m);
		}
		/* the result is by arrival order, which the schedule decides */
		CHECK(orders_seen == 2, "[%s] every CTA and seed saw the same arrival order at BAR.SCAN",
		      th_name(e));
	}
}
END_TEST

/* 003: "explicitly specifying a U12 of 0 or an Ra equal to RZ, will cause
 * all of the threads in the CTA to participate": BAR.SCAN with count 0,
 * RZ or a same-register count field of 0 scans the whole CTA.  Four warps,
 * warp w's predicate in w + 1 lanes; the results must be a prefix sum of
 * 1..4 in some order, and the phase completes (two completions per CTA
 * with the BAR.SYNC 2 that follows). */
START_TEST(sass_scan_count0)
{
	static const char *const scans[] = { "BAR.SCAN 0x1, 0x0, P0", "BAR.SCAN 0x1, RZ, P0", "BAR.SCAN R9, R9, P0" };
	for (size_t i = 0; i < sizeof scans / sizeof scans[0]; i++) {
		char src[1024];
		snprintf(src, sizeof src,
			 ".param ptr out\n"
			 ".dialect sass\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        S2R R1, SR_CTAID.X ;\n"
			 "        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
			 "        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
			 "        ISETP.LE.U32.AND P0, PT, R4, R3, PT ;\n"
			 "        MOV R9, 0x1 ;\n"
			 "        %s ;\n"
			 "        BAR.RESULT R10 ;\n"
			 "        BAR.SYNC 0x2 ;\n"
			 "        IMAD R6, R1, 0x4, R3 ;\n"
			 "        MOV R20, c[0x0][0x0] ;\n"
			 "        MOV R21, c[0x0][0x4] ;\n"
			 "        IMAD.WIDE.U32 R[22:23], R6, 0x4, R[20:21] ;\n"
			 "        STG [R22.64], R10 ;\n"
			 "        EXIT ;\n",
			 scans[i]);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			mini m;
			mini_load(&m, src, 8 * 4);
			we_status st = mini_launch(&m, 8, 128, th_id(e), NULL);
			CHECK(st == WE_OK, "[%s] %s: status %s: %s", th_name(e), scans[i], we_status_name(st),
			      we_last_error(m.t.dev));
			ck_assert_uint_eq(m.stats.barriers, 8 * 2);
			for (uint32_t c = 0; c < 8; c++) {
				uint32_t cnt[4] = { 1, 2, 3, 4 };
				unsigned ord[4];
				CHECK(valid_prefix(m.host + c * 4, cnt, 4, ord), "[%s] %s: CTA %u results %u %u %u %u",
				      th_name(e), scans[i], c, m.host[c * 4], m.host[c * 4 + 1], m.host[c * 4 + 2],
				      m.host[c * 4 + 3]);
			}
			mini_close(&m);
		}
	}
	expect_loads(".dialect sass\n BAR.SCAN 0x1, 0x0, PT ;\n BAR.RESULT R1 ;\n EXIT ;\n");
}
END_TEST

/* SASS with a register id and an immediate count (BAR Ra, imm; BAR.SCAN
 * Ra, imm, Pp): the id is Ra[3:0] and the count the immediate, whatever
 * Ra[27:16] holds (the count only of the same-register form).  Warps 0/1
 * pair on barrier 5 (R9 = 0xa0801235: [27:16] would say 128, which two
 * warps never reach), warps 2/3 on barrier 6 (R10 = 0x70802236), as in
 * same_reg_src (out[t]); then BAR.SCAN R11, 0x80 with R11 = 0x50200a47
 * (id 7; [27:16] would say 32, a phase per warp), warp w's predicate in
 * w + 1 lanes: one phase of the four warps, a prefix sum of 1..4 in some
 * arrival order (out[128 + t]). */
static const char reg_imm_src[] =
	".param ptr out\n"
	".shared 256\n"
	".dialect sass\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        MOV R9, 0xa0801235 ;\n"
	"        MOV R10, 0x70802236 ;\n"
	"        MOV R11, 0x50200a47 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD R5, R1, 0x100, R0 ;\n"           /* 256 words per CTA */
	"        IMAD.WIDE.U32 R[22:23], R5, 0x4, R[20:21] ;\n"
	"        SHF.R.U32.HI R6, RZ, 0x1, R3 ;\n"       /* pair */
	"        IMAD R7, R6, 0x20, R4 ;\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"          /* the pair's slot */
	"        LOP3.LUT R8, R3, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R8, RZ, PT ;\n" /* odd warp */
	"        ISETP.NE.U32.AND P1, PT, R6, RZ, PT ;\n" /* pair 1 */
	"   @P0  BRA `(.odd) ;\n"
	"        IADD3 R12, R0, 0x1000, RZ ;\n"
	"        STS [R7], R12 ;\n"
	"   @!P1 BAR.ARV R9, 0x40 ;\n"
	"   @P1  BAR.ARV R10, 0x40 ;\n"
	"        MOV R13, RZ ;\n"
	"        BRA `(.scan) ;\n"
	".odd:\n"
	"   @!P1 BAR.SYNC R9, 0x40 ;\n"
	"   @P1  BAR.SYNC R10, 0x40 ;\n"
	"        LDS R13, [R7] ;\n"
	".scan:\n"
	"        STG [R22.64], R13 ;\n"                  /* out[t]: the partner's */
	"        ISETP.LE.U32.AND P2, PT, R4, R3, PT ;\n"
	"        BAR.SCAN R11, 0x80, P2 ;\n"
	"        BAR.RESULT R14 ;\n"
	"        STG [R22.64+0x200], R14 ;\n"            /* out[128 + t] */
	"        EXIT ;\n";

START_TEST(sass_register_id_immediate_count)
{
	const uint32_t grid = 40;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			mini m;
			mini_load(&m, reg_imm_src, grid * 256);
			we_launch_config o = sched(seed, true, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 128, th_id(e), &o);
			CHECK(!*we_last_warnings(m.t.dev), "[%s] check warnings: %s", th_name(e),
			      we_last_warnings(m.t.dev));
			/* barriers 5 and 6, and one scan phase */
			ck_assert_uint_eq(m.stats.barriers, grid * 3);
			for (uint32_t c = 0; c < grid; c++) {
				const uint32_t *o2 = m.host + c * 256;
				uint32_t r[4], cnt[4] = { 1, 2, 3, 4 };
				unsigned ord[4];
				for (uint32_t t = 0; t < 128; t++) {
					uint32_t w = t / 32;
					uint32_t want = (w & 1) ? (t - 32) + 0x1000 : 0;
					CHECK(o2[t] == want, "[%s seed %llu] CTA %u thread %u: 0x%x, want 0x%x",
					      th_name(e), (unsigned long long)seed, c, t, o2[t], want);
					CHECK(o2[128 + t] == o2[128 + w * 32], "[%s] CTA %u thread %u: scan result %u, its warp's %u",
					      th_name(e), c, t, o2[128 + t], o2[128 + w * 32]);
				}
				for (uint32_t w = 0; w < 4; w++)
					r[w] = o2[128 + w * 32];
				CHECK(valid_prefix(r, cnt, 4, ord), "[%s seed %llu] CTA %u: scan results %u %u %u %u",
				      th_name(e), (unsigned long long)seed, c, r[0], r[1], r[2], r[3]);
			}
			mini_close(&m);
		}
}
END_TEST

/* --check: a second barrier instruction before the scan result was read
 * is reported as scan-result-unread; reading it (BAR.RESULT, B2R.RESULT
 * or B2R.WARP) first is not. */
START_TEST(sass_scan_result_unread)
{
	static const struct {
		const char *between;
		bool warn;
	} cases[] = {
		{ "", true },
		{ "        BAR.RESULT R5 ;\n", false },
		{ "        B2R.RESULT R5, P1 ;\n", false },
		{ "        B2R.WARP R5 ;\n", false },
		{ "        IADD3 R5, R5, 0x1, RZ ;\n", true },
	};
	static const char *const next[] = { "BAR.SYNC 0x2", "BAR.SCAN 0x3, 0x40, PT", "BAR.RED.OR 0x4, 0x0, PT" };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (size_t j = 0; j < sizeof next / sizeof next[0]; j++) {
			char src[512];
			snprintf(src, sizeof src,
				 ".dialect sass\n"
				 "        BAR.SCAN 0x1, 0x40, PT ;\n"
				 "%s"
				 "        %s ;\n"
				 "        B2R.WARP R6 ;\n"
				 "        EXIT ;\n",
				 cases[i].between, next[j]);
			for (size_t e = 0; e < TH_NENGINES; e++) {
				mini m;
				mini_load(&m, src, 0);
				we_launch_config o = sched(0, true, UNIT_MAX_INSNS);
				mini_ok(&m, 2, 64, th_id(e), &o);
				const char *w = we_last_warnings(m.t.dev);
				bool got = strstr(w, "scan-result-unread") != NULL;
				CHECK(got == cases[i].warn, "[%s] %s scan-result-unread with\n%s\nwarnings: %s",
				      th_name(e), cases[i].warn ? "no" : "unexpected", src, *w ? w : "(none)");
				if (got)
					CHECK(m.stats.warnings > 0, "[%s] stats.warnings = 0 with warnings", th_name(e));
				mini_close(&m);
				/* without --check nothing is reported */
				mini_load(&m, src, 0);
				mini_ok(&m, 2, 64, th_id(e), NULL);
				CHECK(!*we_last_warnings(m.t.dev), "[%s] warnings without check: %s", th_name(e),
				      we_last_warnings(m.t.dev));
				mini_close(&m);
			}
		}
}
END_TEST

/* BAR.RED results via BAR.RESULT / B2R.RESULT (003, decision 7): .AND and
 * .OR give 0xffffffff or 0 and the predicate; .POPC the count and
 * (count != 0).  `BAR.RED.op Ra, Pp` has no count: the whole CTA.  Each
 * case stores (Rd, Pd) from thread 0. */
START_TEST(sass_red_results)
{
	static const struct {
		const char *setup, *red, *read;
		uint32_t rd, pd;
	} cases[] = {
		{ "", "BAR.RED.AND 0x1, 0x0, PT", "BAR.RESULT", 0xffffffffu, 1 },
		{ "ISETP.NE.U32.AND P0, PT, R0, 0x4d, PT ;", "BAR.RED.AND 0x1, 0x0, P0", "B2R.RESULT", 0, 0 },
		{ "ISETP.EQ.U32.AND P0, PT, R0, 0x4d, PT ;", "BAR.RED.AND 0x1, 0x80, !P0", "BAR.RESULT", 0, 0 },
		{ "ISETP.EQ.U32.AND P0, PT, R0, 0x4d, PT ;", "BAR.RED.OR 0x2, 0x0, P0", "B2R.RESULT", 0xffffffffu, 1 },
		{ "", "BAR.RED.OR 0x2, 0x80, !PT", "BAR.RESULT", 0, 0 },
		{ "LOP3.LUT R6, R0, 0x3, RZ, 0xc0, !PT ; ISETP.EQ.U32.AND P0, PT, R6, RZ, PT ;",
		  "BAR.RED.POPC 0x3, 0x0, P0", "B2R.RESULT", 32, 1 },
		{ "LOP3.LUT R6, R0, 0x3, RZ, 0xc0, !PT ; ISETP.EQ.U32.AND P0, PT, R6, RZ, PT ;",
		  "BAR.RED.POPC 0x3, 0x80, !P0", "BAR.RESULT", 96, 1 },
		{ "", "BAR.RED.POPC 0x3, 0x0, !PT", "BAR.RESULT", 0, 0 },
		{ "MOV R7, 0x2 ; ISETP.LT.U32.AND P0, PT, R0, 0x7, PT ;", "BAR.RED.POPC R7, P0", "B2R.RESULT", 7, 1 },
		{ "MOV R7, 0x4 ;", "BAR.RED.AND R7, PT", "BAR.RESULT", 0xffffffffu, 1 },
		{ "MOV R7, 0x800004 ; ISETP.LT.U32.AND P0, PT, R0, 0x40, PT ;", "BAR.RED.POPC R7, R7, P0",
		  "B2R.RESULT", 64, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[1024];
		snprintf(src, sizeof src,
			 ".param ptr out\n"
			 ".dialect sass\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        %s\n"
			 "        %s ;\n"
			 "        %s R4, P1 ;\n"
			 "        SEL R5, RZ, 0x1, !P1 ;\n"
			 "        S2R R1, SR_CTAID.X ;\n"
			 "        IMAD R2, R1, 0x100, R0 ;\n"
			 "        MOV R20, c[0x0][0x0] ;\n"
			 "        MOV R21, c[0x0][0x4] ;\n"
			 "        IMAD.WIDE.U32 R[22:23], R2, 0x8, R[20:21] ;\n"
			 "        STG [R22.64], R4 ;\n"
			 "        STG [R22.64+0x4], R5 ;\n"
			 "        EXIT ;\n",
			 cases[i].setup, cases[i].red, cases[i].read);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			mini m;
			mini_load(&m, src, 2 * 256 * 2);
			mini_ok(&m, 2, 128, th_id(e), NULL);
			for (uint32_t c = 0; c < 2; c++)
				for (uint32_t t = 0; t < 128; t++) {
					const uint32_t *q = m.host + (c * 256 + t) * 2;
					CHECK(q[0] == cases[i].rd && q[1] == cases[i].pd,
					      "[%s] %s; %s: thread %u got Rd 0x%08x Pd %u, want 0x%08x %u", th_name(e),
					      cases[i].red, cases[i].read, t, q[0], q[1], cases[i].rd, cases[i].pd);
				}
			mini_close(&m);
		}
	}
}
END_TEST

/* ---- TRAP / RTT / BAR.SYNCALL ------------------------------------ */

/* A divergent warp traps from two of its three groups (lane % 3); lanes
 * 30 and 31 exited first.  The handler (whole warp) counts its entries
 * per lane in out[64 + t] and stores its ActiveMask (VOTE) in
 * out[128 + warp]; RTT resumes the trapping group after its TRAP while
 * the other groups resume at their own PCs.  Results: group 0
 * 1100 + lane, group 1 200 + lane, group 2 2300 + lane; two entries per
 * live lane; the handler saw the valid mask 0x3fffffff. */
static const char trap_resume_src[] =
	".param ptr out\n"
	".dialect sass\n"
	".trap_handler handler\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_LANEID ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        ISETP.GE.U32.AND P5, PT, R1, 0x1e, PT ;\n"
	"   @P5  EXIT ;\n"
	"        IMAD.WIDE.U32 R[22:23], R0, 0x4, R[20:21] ;\n"
	"        IMAD.HI.U32 R2, R1, 0x55555556, RZ ;\n"  /* lane / 3 */
	"        IMAD R2, R2, -0x3, R1 ;\n"               /* lane % 3 */
	"        BSSY B0, `(.join) ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R2, 0x1, PT ;\n"
	"   @P0  BRA `(.g1) ;\n"
	"        ISETP.EQ.U32.AND P1, PT, R2, 0x2, PT ;\n"
	"   @P1  BRA `(.g2) ;\n"
	"        IADD3 R3, R1, 0x64, RZ ;\n"
	"        TRAP 0x1 ;\n"
	"        IADD3 R3, R3, 0x3e8, RZ ;\n"
	"        BRA `(.join) ;\n"
	".g1:\n"
	"        IADD3 R3, R1, 0xc8, RZ ;\n"
	"        BRA `(.join) ;\n"
	".g2:\n"
	"        IADD3 R3, R1, 0x12c, RZ ;\n"
	"        TRAP 0x2 ;\n"
	"        IADD3 R3, R3, 0x7d0, RZ ;\n"
	".join:\n"
	"        BSYNC B0 ;\n"
	"        STG [R22.64], R3 ;\n"
	"        EXIT ;\n"
	"handler:\n"
	"        S2R R40, SR_TID.X ;\n"
	"        IADD3 R41, R40, 0x40, RZ ;\n"
	"        IMAD.WIDE.U32 R[42:43], R41, 0x4, R[20:21] ;\n"
	"        LDG R44, [R42.64] ;\n"
	"        IADD3 R44, R44, 0x1, RZ ;\n"
	"        STG [R42.64], R44 ;\n"
	"        VOTE.ANY R45, PT, PT ;\n"
	"        SHF.R.U32.HI R46, RZ, 0x5, R40 ;\n"
	"        IADD3 R46, R46, 0x80, RZ ;\n"
	"        IMAD.WIDE.U32 R[42:43], R46, 0x4, R[20:21] ;\n"
	"        STG [R42.64], R45 ;\n"
	"        RTT ;\n";

START_TEST(trap_rtt_resume)
{
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 2; seed++) {
			mini m;
			mini_load(&m, trap_resume_src, 136);
			we_launch_config o = sched(seed, false, UNIT_MAX_INSNS);
			mini_ok(&m, 1, 64, th_id(e), &o);
			for (uint32_t t = 0; t < 64; t++) {
				uint32_t lane = t & 31;
				uint32_t want = lane >= 30 ? 0 : lane % 3 == 0 ? 1100 + lane : lane % 3 == 1 ? 200 + lane
													: 2300 + lane;
				CHECK(m.host[t] == want, "[%s] thread %u (group %u): %u, want %u", th_name(e), t,
				      lane % 3, m.host[t], want);
				CHECK(m.host[64 + t] == (lane >= 30 ? 0u : 2u), "[%s] thread %u entered the handler %u times",
				      th_name(e), t, m.host[64 + t]);
			}
			for (uint32_t w = 0; w < 2; w++)
				CHECK(m.host[128 + w] == 0x3fffffffu, "[%s] warp %u: handler ActiveMask 0x%08x, want 0x3fffffff",
				      th_name(e), w, m.host[128 + w]);
			mini_close(&m);
		}
}
END_TEST

/* BAR.SYNCALL waits for the live warps only (003: "#remaining_warps_in_cta
 * * 32"): warp 3 exits at once, warp 0 spins before trapping; in the
 * handler every warp stores 1 + warp to shared memory, BAR.SYNCALL, and
 * sums what warps 0..2 stored (6). */
START_TEST(syncall_live_warps)
{
	static const char src[] =
		".param ptr out\n"
		".shared 64\n"
		".dialect sass\n"
		".trap_handler handler\n"
		"        S2R R0, SR_TID.X ;\n"
		"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
		"        ISETP.EQ.U32.AND P0, PT, R3, 0x3, PT ;\n"
		"   @P0  EXIT ;\n"
		"        ISETP.NE.U32.AND P1, PT, R3, RZ, PT ;\n"
		"   @P1  BRA `(.trap) ;\n"
		"        MOV R5, RZ ;\n"
		".spin:\n"
		"        IADD3 R5, R5, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P2, PT, R5, 0x200, PT ;\n"
		"   @P2  BRA `(.spin) ;\n"
		".trap:\n"
		"        TRAP 0x0 ;\n"
		"        S2R R1, SR_CTAID.X ;\n"
		"        IMAD R2, R1, 0x80, R0 ;\n"
		"        MOV R20, c[0x0][0x0] ;\n"
		"        MOV R21, c[0x0][0x4] ;\n"
		"        IMAD.WIDE.U32 R[22:23], R2, 0x4, R[20:21] ;\n"
		"        STG [R22.64], R40 ;\n"
		"        EXIT ;\n"
		"handler:\n"
		"        IADD3 R41, R3, 0x1, RZ ;\n"
		"        SHF.L.U32 R42, R3, 0x2, RZ ;\n"
		"        STS [R42], R41 ;\n"
		"        BAR.SYNCALL ;\n"
		"        LDS R43, [RZ] ;\n"
		"        LDS R44, [RZ+0x4] ;\n"
		"        LDS R45, [RZ+0x8] ;\n"
		"        IADD3 R40, R43, R44, R45 ;\n"
		"        BAR.SYNCALL ;\n"
		"        RTT ;\n";
	const uint32_t grid = 20;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			mini m;
			mini_load(&m, src, grid * 128);
			we_launch_config o = sched(seed, false, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 128, th_id(e), &o);
			ck_assert_uint_eq(m.stats.barriers, grid * 2);
			for (uint32_t i = 0; i < grid * 128; i++)
				CHECK(m.host[i] == ((i % 128) < 96 ? 6u : 0u), "[%s seed %llu] out[%u] = %u",
				      th_name(e), (unsigned long long)seed, i, m.host[i]);
			mini_close(&m);
		}
}
END_TEST

START_TEST(syncall_outside_handler)
{
	expect_exception(".dialect sass\n        BAR.SYNCALL ;\n        EXIT ;\n", 64, "illegal instruction",
			 "ILLEGAL_INSTR_ENCODING");
	/* also in a kernel that has a handler, outside it */
	expect_exception(".dialect sass\n.trap_handler h\n        BAR.SYNCALL ;\n        EXIT ;\nh:      RTT ;\n", 64,
			 "illegal instruction", "ILLEGAL_INSTR_ENCODING");
}
END_TEST

/* 003: "BAR.RED, BAR.SYNC, and BAR.ARV in trap mode are UNPREDICTABLE";
 * BAR.SCAN likewise: a barrier exception. */
START_TEST(bar_inside_handler)
{
	static const char *const insns[] = { "BAR.SYNC 0x0", "BAR.SYNC 0x1, 0x40", "BAR.ARV 0x1, 0x40",
					     "BAR.RED.POPC 0x1, 0x0, PT", "BAR.SCAN 0x1, 0x0, PT" };
	for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++) {
		char src[256];
		snprintf(src, sizeof src,
			 ".dialect sass\n.trap_handler h\n        TRAP 0x0 ;\n        EXIT ;\nh:\n        %s ;\n        RTT ;\n",
			 insns[i]);
		expect_exception(src, 64, "barrier exception", "trap handler");
	}
}
END_TEST

START_TEST(trap_without_handler)
{
	expect_exception(".dialect sass\n        TRAP 0x5 ;\n        EXIT ;\n", 64, "TRAP", "no trap handler");
	/* the target ISA too */
	expect_exception("        TRAP 0x5 ;\n        EXIT ;\n", 64, "TRAP", "no trap handler");
}
END_TEST

START_TEST(trap_nested)
{
	expect_exception(".dialect sass\n.trap_handler h\n        TRAP 0x1 ;\n        EXIT ;\nh:\n        TRAP 0x2 ;\n"
			 "        RTT ;\n",
			 64, "TRAP", "inside the trap handler");
}
END_TEST

START_TEST(rtt_outside_handler)
{
	expect_exception(".dialect sass\n        RTT ;\n        EXIT ;\n", 64, "RTT outside a trap handler",
			 "outside a trap handler");
	/* after a handler returned, the next RTT is outside again */
	expect_exception(".dialect sass\n.trap_handler h\n        TRAP 0x1 ;\n        RTT ;\n        EXIT ;\nh:      RTT ;\n",
			 64, "RTT outside a trap handler", "outside a trap handler");
}
END_TEST

/* ================================================================ */
/* Part 2: vISA NBARRIER (seed 002)                                   */

/* Warp 0 (and warp 2 when there are three) produce: they spin, store
 * their lane's value to shared memory and signal; warp 1 consumes:
 * signals, waits, loads both values.  out[t] of warp 1 = sum of the
 * producers' 100 * (warp + 1) + lane. */
static void nbar_forms_case(const char *name, unsigned nwarps, const char *prod_sig, const char *prod_wait,
			    const char *cons_sig, const char *cons_wait, const char *setup)
{
	char src[2048];
	snprintf(src, sizeof src,
		 ".param ptr out\n"
		 ".shared 256\n"
		 ".dialect visa\n"
		 "        S2R R0, SR_TID.X ;\n"
		 "        S2R R1, SR_CTAID.X ;\n"
		 "        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
		 "        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
		 "        %s\n"
		 "        ISETP.EQ.U32.AND P0, PT, R3, 0x1, PT ;\n"
		 "   @P0  BRA `(.consumer) ;\n"
		 "        MOV R10, RZ ;\n"
		 ".spin:\n"
		 "        IADD3 R10, R10, 0x1, RZ ;\n"
		 "        ISETP.LT.U32.AND P1, PT, R10, 0x180, PT ;\n"
		 "   @P1  BRA `(.spin) ;\n"
		 "        IADD3 R11, R3, 0x1, RZ ;\n"
		 "        IMAD R11, R11, 0x64, R4 ;\n"           /* 100 * (warp + 1) + lane */
		 "        SHF.R.U32.HI R12, RZ, 0x1, R3 ;\n"
		 "        IMAD R12, R12, 0x20, R4 ;\n"
		 "        SHF.L.U32 R12, R12, 0x2, RZ ;\n"
		 "        STS [R12], R11 ;\n"
		 "        %s\n"
		 "        %s\n"
		 "        EXIT ;\n"
		 ".consumer:\n"
		 "        %s\n"
		 "        %s\n"
		 "        SHF.L.U32 R12, R4, 0x2, RZ ;\n"
		 "        LDS R13, [R12] ;\n"
		 "        %s\n"
		 "        IADD3 R13, R13, R14, RZ ;\n"
		 "        IMAD R15, R1, 0x20, R4 ;\n"
		 "        MOV R20, c[0x0][0x0] ;\n"
		 "        MOV R21, c[0x0][0x4] ;\n"
		 "        IMAD.WIDE.U32 R[22:23], R15, 0x4, R[20:21] ;\n"
		 "        STG [R22.64], R13 ;\n"
		 "        EXIT ;\n",
		 setup, prod_sig, prod_wait, cons_sig, cons_wait,
		 nwarps == 3 ? "LDS R14, [R12+0x80] ;" : "MOV R14, RZ ;");
	const uint32_t grid = 16;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			mini m;
			mini_load(&m, src, grid * 32);
			we_launch_config o = sched(seed, true, UNIT_MAX_INSNS);
			we_status st = mini_launch(&m, grid, nwarps * 32, th_id(e), &o);
			CHECK(st == WE_OK, "[%s seed %llu] %s: %s: %s", th_name(e), (unsigned long long)seed, name,
			      we_status_name(st), we_last_error(m.t.dev));
			for (uint32_t i = 0; i < grid * 32; i++) {
				uint32_t lane = i % 32, want = 100 + lane + (nwarps == 3 ? 300 + lane : 0);
				CHECK(m.host[i] == want, "[%s seed %llu] %s: CTA %u lane %u: %u, want %u", th_name(e),
				      (unsigned long long)seed, name, i / 32, lane, m.host[i], want);
			}
			CHECK(!*we_last_warnings(m.t.dev), "[%s] %s: warnings %s", th_name(e), name,
			      we_last_warnings(m.t.dev));
			mini_close(&m);
		}
}

START_TEST(nbar_forms)
{
	/* baseline (type 0, num_producers = num_consumers = 2): both wait */
	nbar_forms_case("baseline immediates", 2, "NBARRIER.signal 0x4, 0x2 ;", "NBARRIER.wait 0x4 ;",
			"NBARRIER.signal 0x4, 0x2 ;", "NBARRIER.wait 0x4 ;", "");
	nbar_forms_case("baseline registers", 2, "NBARRIER.signal R5, R6 ;", "NBARRIER.wait R5 ;",
			"NBARRIER.signal R5, R6 ;", "NBARRIER.wait R5 ;", "MOV R5, 0x1f ; MOV R6, 0x2 ;");
	/* general: producer-only and consumer-only */
	nbar_forms_case("general immediates", 2, "NBARRIER.signal 0x11, 0x1, 0x1, 0x1 ;", "",
			"NBARRIER.signal 0x11, 0x2, 0x1, 0x1 ;", "NBARRIER.wait 0x11 ;", "");
	nbar_forms_case("general registers", 2, "NBARRIER.signal R5, R6, R7, R7 ;", "",
			"NBARRIER.signal R5, R8, R7, R7 ;", "NBARRIER.wait R5 ;",
			"MOV R5, 0x0 ; MOV R6, 0x1 ; MOV R7, 0x1 ; MOV R8, 0x2 ;");
	/* two producers (warps 0 and 2), one consumer: waits for both */
	nbar_forms_case("two producers", 3, "NBARRIER.signal 0x8, 0x1, 0x2, 0x1 ;", "",
			"NBARRIER.signal 0x8, 0x2, 0x2, 0x1 ;", "NBARRIER.wait 0x8 ;", "");
	/* type 0 counts as a producer and a consumer: warps 0 and 2 are
	 * producer-consumers (and wait), warp 1 a consumer: 2 + 3 */
	nbar_forms_case("producer-consumers", 3, "NBARRIER.signal 0x9, 0x0, 0x2, 0x3 ;", "NBARRIER.wait 0x9 ;",
			"NBARRIER.signal 0x9, 0x2, 0x2, 0x3 ;", "NBARRIER.wait 0x9 ;", "");
	/* mixed forms in one phase: baseline (type 0, 2/2) and general */
	nbar_forms_case("mixed forms", 2, "NBARRIER.signal 0x3, 0x2 ;", "NBARRIER.wait R5 ;",
			"NBARRIER.signal R5, R6, R7, R7 ;", "NBARRIER.wait 0x3 ;",
			"MOV R5, 0x3 ; MOV R6, 0x0 ; MOV R7, 0x2 ;");
}
END_TEST

/* 002: "signal" never blocks: the producer signals first and then
 * stores 42 to shared memory; the consumer signals only once it has seen
 * the 42, waits, and stores what it saw (out[ctaid]).  A blocking signal
 * would never let the producer store: a watchdog timeout.  Both as a
 * producer-only warp and as a producer-consumer that waits afterwards.
 * The consumer spins until every lane saw the 42 (VOTE.ANY): the lanes
 * of one LDS are separate loads, and with warp threads the store may
 * fall between them; a warp split there would signal twice. */
START_TEST(nbar_signal_does_not_block)
{
	static const char *const prod[][3] = {
		{ "NBARRIER.signal 0x2, 0x1, 0x1, 0x1 ;", "", "NBARRIER.signal 0x2, 0x2, 0x1, 0x1 ;" },
		{ "NBARRIER.signal 0x2, 0x2 ;", "NBARRIER.wait 0x2 ;", "NBARRIER.signal 0x2, 0x2 ;" },
	};
	for (size_t i = 0; i < sizeof prod / sizeof prod[0]; i++) {
		char src[1536];
		snprintf(src, sizeof src,
			 ".param ptr out\n"
			 ".shared 16\n"
			 ".dialect visa\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        S2R R1, SR_CTAID.X ;\n"
			 "        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
			 "        ISETP.NE.U32.AND P0, PT, R3, RZ, PT ;\n"
			 "   @P0  BRA `(.consumer) ;\n"
			 "        %s\n"
			 "        MOV R5, 0x2a ;\n"
			 "        STS [RZ], R5 ;\n"
			 "        %s\n"
			 "        EXIT ;\n"
			 ".consumer:\n"
			 "        LDS R7, [RZ] ;\n"
			 "        ISETP.EQ.U32.AND P1, PT, R7, RZ, PT ;\n"
			 "        VOTE.ANY R8, P3, P1 ;\n"
			 "   @P3  BRA `(.consumer) ;\n"
			 "        %s\n"
			 "        NBARRIER.wait 0x2 ;\n"
			 "        ISETP.NE.U32.AND P2, PT, R0, 0x20, PT ;\n"
			 "   @P2  EXIT ;\n"
			 "        MOV R20, c[0x0][0x0] ;\n"
			 "        MOV R21, c[0x0][0x4] ;\n"
			 "        IMAD.WIDE.U32 R[20:21], R1, 0x4, R[20:21] ;\n"
			 "        STG [R20.64], R7 ;\n"
			 "        EXIT ;\n",
			 prod[i][0], prod[i][1], prod[i][2]);
		const uint32_t grid = 16;
		for (size_t e = 0; e < TH_NENGINES; e++)
			for (uint64_t seed = 0; seed <= 3; seed++) {
				mini m;
				mini_load(&m, src, grid);
				we_launch_config o = sched(seed, true, UNIT_MAX_INSNS);
				we_status st = mini_launch(&m, grid, 64, th_id(e), &o);
				CHECK(st == WE_OK, "[%s seed %llu] %s: %s: %s", th_name(e), (unsigned long long)seed,
				      prod[i][0], we_status_name(st), we_last_error(m.t.dev));
				ck_assert_uint_eq(m.stats.barriers, grid);
				for (uint32_t c = 0; c < grid; c++)
					CHECK(m.host[c] == 42, "[%s seed %llu] %s: CTA %u: the consumer saw %u, want 42",
					      th_name(e), (unsigned long long)seed, prod[i][0], c, m.host[c]);
				CHECK(!*we_last_warnings(m.t.dev), "[%s] %s: warnings %s", th_name(e), prod[i][0],
				      we_last_warnings(m.t.dev));
				mini_close(&m);
			}
	}
}
END_TEST

/* --check on named barriers: a phase still collecting signals when the
 * CTA exits, a completed phase whose consumer never waited, and a
 * divergent warp at NBARRIER.signal/wait; one line per hazard, each with
 * the kind, the CTA, warp, PC and instruction. */
START_TEST(nbar_check_hazards)
{
	static const struct {
		const char *body, *kind, *msg;
		uint32_t block, per_cta;
	} cases[] = {
		/* warp 0 produces, warp 1 signals as 1 of 2 consumers; no wait */
		{ "   @P0  BRA `(.w1) ;\n"
		  "        NBARRIER.signal 0x4, 0x1, 0x1, 0x2 ;\n"
		  "        EXIT ;\n"
		  ".w1:\n"
		  "        NBARRIER.signal 0x4, 0x2, 0x1, 0x2 ;\n"
		  "        EXIT ;\n",
		  "named-barrier-left-armed", "named barrier 4 left with producers 1 of 1, consumers 1 of 2", 64, 1 },
		/* 1 + 1 completes; the consumer exits without its wait */
		{ "   @P0  BRA `(.w1) ;\n"
		  "        NBARRIER.signal 0x6, 0x1, 0x1, 0x1 ;\n"
		  "        EXIT ;\n"
		  ".w1:\n"
		  "        NBARRIER.signal 0x6, 0x2, 0x1, 0x1 ;\n"
		  "        EXIT ;\n",
		  "named-barrier-never-waited", "named barrier 6: consumer warps 0x2", 64, 1 },
		/* lanes 0-15 of the one warp, inside an if */
		{ "        ISETP.GE.U32.AND P1, PT, R0, 0x10, PT ;\n"
		  "        BSSY B0, `(.join) ;\n"
		  "   @P1  BRA `(.join) ;\n"
		  "        NBARRIER.signal 0x1, 0x1 ;\n"
		  "        NBARRIER.wait 0x1 ;\n"
		  ".join:\n"
		  "        BSYNC B0 ;\n"
		  "        EXIT ;\n",
		  "divergent-barrier", "ActiveMask 0x0000ffff != ValidMask 0xffffffff at named barrier 1", 32, 2 },
	};
	const uint32_t grid = 4;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[1024];
		snprintf(src, sizeof src,
			 ".dialect visa\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
			 "        ISETP.NE.U32.AND P0, PT, R3, RZ, PT ;\n"
			 "%s",
			 cases[i].body);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			mini m;
			mini_load(&m, src, 0);
			we_launch_config o = sched(0, true, UNIT_MAX_INSNS);
			mini_ok(&m, grid, cases[i].block, th_id(e), &o);
			const char *w = we_last_warnings(m.t.dev);
			CHECK(m.stats.warnings == grid * cases[i].per_cta, "[%s] %s: %llu warnings, want %u:\n%s",
			      th_name(e), cases[i].kind, (unsigned long long)m.stats.warnings,
			      grid * cases[i].per_cta, w);
			unsigned lines = 0;
			for (const char *p = w; *p; lines++) {
				const char *eol = strchr(p, '\n');
				char line[512];
				snprintf(line, sizeof line, "%.*s", eol ? (int)(eol - p) : (int)strlen(p), p);
				char head[96];
				snprintf(head, sizeof head, "check: %s: CTA (", cases[i].kind);
				CHECK(!strncmp(line, head, strlen(head)) && strstr(line, ") warp ") &&
					      strstr(line, " PC 0x") && strstr(line, ": NBARRIER.") && strstr(line, cases[i].msg),
				      "[%s] warning line: %s\nwant kind %s, CTA, warp, PC, the NBARRIER instruction and "
				      "\"%s\"", th_name(e), line, cases[i].kind, cases[i].msg);
				p = eol ? eol + 1 : p + strlen(p);
			}
			CHECK(lines == grid * cases[i].per_cta, "[%s] %s: %u lines:\n%s", th_name(e),
			      cases[i].kind, lines, w);
			mini_close(&m);
			/* without --check nothing is reported */
			mini_load(&m, src, 0);
			mini_ok(&m, grid, cases[i].block, th_id(e), NULL);
			CHECK(!*we_last_warnings(m.t.dev) && m.stats.warnings == 0, "[%s] warnings without check: %s",
			      th_name(e), we_last_warnings(m.t.dev));
			mini_close(&m);
		}
	}
}
END_TEST

/* 002's operands are scalars: each one an immediate or a register, in
 * any combination.  Bit k of `regs` (from the left) makes operand k a
 * register. */
static void nbar_signal_text(char *buf, size_t n, unsigned nopd, unsigned regs, const char *const reg[],
			     const char *const imm[])
{
	int len = snprintf(buf, n, "NBARRIER.signal");
	for (unsigned k = 0; k < nopd && len > 0 && (size_t)len < n; k++)
		len += snprintf(buf + len, n - (size_t)len, "%s %s", k ? "," : "",
				(regs >> (nopd - 1 - k)) & 1u ? reg[k] : imm[k]);
	if (len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " ;");
}

START_TEST(nbar_forms_mixed)
{
	/* baseline: id 0xe, num_threads 2; both warps wait */
	static const char *const breg[] = { "R5", "R6" }, *const bimm[] = { "0xe", "0x2" };
	for (unsigned m = 0; m < 4; m++) {
		char sig[96], cons[96], name[224];
		nbar_signal_text(sig, sizeof sig, 2, m, breg, bimm);
		nbar_signal_text(cons, sizeof cons, 2, 3u - m, breg, bimm);
		snprintf(name, sizeof name, "baseline %s / %s", sig, cons);
		nbar_forms_case(name, 2, sig, "NBARRIER.wait R5 ;", cons, "NBARRIER.wait 0xe ;",
				"MOV R5, 0xe ; MOV R6, 0x2 ;");
	}
	/* general: warp 0 producer-only, warp 1 consumer-only, 1 + 1, the
	 * consumer with the complementary sources */
	static const char *const preg[] = { "R5", "R6", "R7", "R7" }, *const pimm[] = { "0xc", "0x1", "0x1", "0x1" };
	static const char *const creg[] = { "R5", "R8", "R7", "R7" }, *const cimm[] = { "0xc", "0x2", "0x1", "0x1" };
	for (unsigned m = 0; m < 16; m++) {
		char sig[96], cons[96], name[64];
		nbar_signal_text(sig, sizeof sig, 4, m, preg, pimm);
		nbar_signal_text(cons, sizeof cons, 4, 15u - m, creg, cimm);
		snprintf(name, sizeof name, "general sources 0x%x", m);
		nbar_forms_case(name, 2, sig, "", cons, "NBARRIER.wait 0xc ;",
				"MOV R5, 0xc ; MOV R6, 0x1 ; MOV R7, 0x1 ; MOV R8, 0x2 ;");
	}
	/* the statement of the issue */
	expect_loads(".dialect visa\n        NBARRIER.signal R5, 0x2 ;\n        EXIT ;\n");
}
END_TEST

/* 002: "Type ... Valid values are [0-2]", counts "[1-thread_group_size]":
 * an immediate that can never be legal is refused when the module is
 * loaded, in every form; the same value from a register is a runtime
 * barrier exception. */
START_TEST(nbar_static_checks)
{
	static const struct {
		const char *insn, *msg;
	} bad[] = {
		{ "NBARRIER.signal 0x1, 0x3, 0x1, 0x1", "type 3" },
		{ "NBARRIER.signal R1, 0x3, R2, R2", "type 3" },
		{ "NBARRIER.signal 0x1, 0x3, R2, 0x1", "type 3" },
		{ "NBARRIER.signal 0x1, 0x0", "num_threads 0" },
		{ "NBARRIER.signal R1, 0x0", "num_threads 0" },
		{ "NBARRIER.signal 0x1, 0x21", "num_threads 33" },
		{ "NBARRIER.signal 0x1, 0x0, 0x0, 0x1", "num_producers 0" },
		{ "NBARRIER.signal R1, R2, 0x0, R3", "num_producers 0" },
		{ "NBARRIER.signal 0x1, 0x2, 0x1, 0x0", "num_consumers 0" },
		{ "NBARRIER.signal 0x1, R0, R1, 0x0", "num_consumers 0" },
		{ "NBARRIER.signal 0x1, 0x1, 0xff, 0x1", "num_producers 255" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char src[256];
		snprintf(src, sizeof src, ".dialect visa\n        %s ;\n        EXIT ;\n", bad[i].insn);
		expect_load_error(src, WE_ERR_LOAD, bad[i].msg);
		expect_load_error(src, WE_ERR_LOAD, "bad.we:2:");
	}
	/* the extremes load */
	expect_loads(".dialect visa\n        NBARRIER.signal 0x1f, 0x2, 0x20, 0x20 ;\n        NBARRIER.signal 0x1, 0x20 ;\n"
		     "        NBARRIER.signal R1, 0x0, R2, 0x1 ;\n        EXIT ;\n");
	/* registers are checked when the signal runs */
	expect_exception(".dialect visa\n        MOV R5, 0x3 ;\n        MOV R6, 0x1 ;\n"
			 "        NBARRIER.signal 0x1, R5, R6, 0x1 ;\n        EXIT ;\n",
			 64, "barrier exception", "type 3");
	expect_exception(".dialect visa\n        NBARRIER.signal 0x1, RZ ;\n        EXIT ;\n", 64, "barrier exception",
			 "num_producers 0");
}
END_TEST

START_TEST(nbar_wait_by_producer_only)
{
	expect_exception(".dialect visa\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
			 "   @P0  BRA `(.c) ;\n"
			 "        NBARRIER.signal 0x2, 0x1, 0x1, 0x1 ;\n"
			 "        NBARRIER.wait 0x2 ;\n"
			 "        EXIT ;\n"
			 ".c:\n"
			 "        NBARRIER.signal 0x2, 0x2, 0x1, 0x1 ;\n"
			 "        NBARRIER.wait 0x2 ;\n"
			 "        EXIT ;\n",
			 64, "barrier exception", "producer-only");
	/* a wait with no signal at all */
	expect_exception(".dialect visa\n        NBARRIER.wait 0x3 ;\n        EXIT ;\n", 64, "barrier exception",
			 "without a signal");
}
END_TEST

START_TEST(nbar_id_out_of_range)
{
	expect_exception(".dialect visa\n        MOV R5, 0x20 ;\n        MOV R6, 0x2 ;\n        NBARRIER.signal R5, R6 ;\n"
			 "        EXIT ;\n",
			 64, "barrier exception", "outside 0..31");
	expect_exception(".dialect visa\n        MOV R5, 0x1 ;\n        MOV R6, 0x40 ;\n"
			 "        NBARRIER.signal R6, R5, R5, R5 ;\n        EXIT ;\n",
			 64, "barrier exception", "outside 0..31");
	expect_exception(".dialect visa\n        MOV R5, 0x100 ;\n        NBARRIER.wait R5 ;\n        EXIT ;\n", 64,
			 "barrier exception", "outside 0..31");
	/* an immediate id does not fit the 5-bit field */
	expect_load_error(".dialect visa\n        NBARRIER.wait 0x20 ;\n        EXIT ;\n", WE_ERR_ASM, "");
	expect_load_error(".dialect visa\n        NBARRIER.signal 0x20, 0x1 ;\n        EXIT ;\n", WE_ERR_ASM, "");
	/* type and counts out of range */
	expect_exception(".dialect visa\n        MOV R5, 0x3 ;\n        MOV R6, 0x1 ;\n"
			 "        NBARRIER.signal R6, R5, R6, R6 ;\n        EXIT ;\n",
			 64, "barrier exception", "type 3");
	expect_exception(".dialect visa\n        NBARRIER.signal 0x1, 0x0, RZ, 0x1 ;\n        EXIT ;\n", 64,
			 "barrier exception", "num_producers 0");
	expect_exception(".dialect visa\n        NBARRIER.signal 0x1, 0x0, 0x1, 0x3 ;\n        EXIT ;\n", 64,
			 "barrier exception", "num_consumers 3");
}
END_TEST

START_TEST(nbar_counts_disagree)
{
	/* three warps: 2/2 against 2/3, in whichever order they signal */
	static const char src[] =
		".dialect visa\n"
		"        S2R R0, SR_TID.X ;\n"
		"        ISETP.GE.U32.AND P0, PT, R0, 0x40, PT ;\n"
		"   @P0  EXIT ;\n"
		"        ISETP.GE.U32.AND P1, PT, R0, 0x20, PT ;\n"
		"   @P1  BRA `(.w1) ;\n"
		"        NBARRIER.signal 0x3, 0x0, 0x2, 0x2 ;\n"
		"        NBARRIER.wait 0x3 ;\n"
		"        EXIT ;\n"
		".w1:\n"
		"        NBARRIER.signal 0x3, 0x0, 0x2, 0x3 ;\n"
		"        NBARRIER.wait 0x3 ;\n"
		"        EXIT ;\n";
	expect_exception(src, 96, "barrier exception", "differs from");
	/* the baseline count against a general one */
	expect_exception(".dialect visa\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        ISETP.GE.U32.AND P1, PT, R0, 0x20, PT ;\n"
			 "   @P1  BRA `(.w1) ;\n"
			 "        NBARRIER.signal 0x6, 0x2 ;\n"
			 "        NBARRIER.wait 0x6 ;\n"
			 "        EXIT ;\n"
			 ".w1:\n"
			 "        NBARRIER.signal 0x6, 0x0, 0x1, 0x2 ;\n"
			 "        NBARRIER.wait 0x6 ;\n"
			 "        EXIT ;\n",
			 64, "barrier exception", "differs from");
	/* a third producer signal for num_producers 2 */
	expect_exception(".dialect visa\n        NBARRIER.signal 0x7, 0x1, 0x2, 0x1 ;\n        EXIT ;\n", 96,
			 "barrier exception", "more producer signals");
	/* one warp signalling the same phase twice; under the warp-threads
	 * engine the other warp may signal in between, which completes the
	 * phase, so that the second signal reuses it too early */
	expect_exception(".dialect visa\n        NBARRIER.signal 0x6, 0x2 ;\n        NBARRIER.signal 0x6, 0x2 ;\n"
			 "        EXIT ;\n",
			 64, "barrier exception", "twice|reused too early");
}
END_TEST

START_TEST(nbar_reuse_too_early)
{
	/* warp 1 signals again after its own wait while warp 0, a consumer
	 * of the completed phase, has not waited */
	expect_exception(".dialect visa\n"
			 "        S2R R0, SR_TID.X ;\n"
			 "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
			 "   @P0  BRA `(.w1) ;\n"
			 "        NBARRIER.signal 0x7, 0x2 ;\n"
			 "        EXIT ;\n"
			 ".w1:\n"
			 "        NBARRIER.signal 0x7, 0x2 ;\n"
			 "        NBARRIER.wait 0x7 ;\n"
			 "        NBARRIER.signal 0x7, 0x2 ;\n"
			 "        EXIT ;\n",
			 64, "barrier exception", "reused too early");
	/* a consumer that signals the next phase before its own wait: one
	 * warp, one thread of each kind, the phase completes at once */
	expect_exception(".dialect visa\n        NBARRIER.signal 0x7, 0x1 ;\n        NBARRIER.signal 0x7, 0x1 ;\n"
			 "        EXIT ;\n",
			 32, "barrier exception", "reused too early");
}
END_TEST

/* 002: "The barrier <id> is free and may be reused, potentially by a
 * different subset of threads, once all threads complete their wait".
 * Eight rounds on barrier 9, each with three phases:
 *   A: warp 0 produces, warp 1 consumes (1 + 1);
 *   B: warp 1 produces (after its wait on A, and after storing 17 + round
 *      to shared memory), warps 2 and 3 consume (1 + 2); they start only
 *      after barrier 10, which warp 1 signals after its wait on A;
 *   C: all four warps, baseline form (4), after a rendezvous on 11 that
 *      follows every wait on B; a rendezvous on 12 follows every wait on
 *      C before the next round's A.
 * Warps 2 and 3 sum what they read: 17 + ... + 24 = 164. */
START_TEST(nbar_reuse_other_warps)
{
	static const char src[] =
		".param ptr out\n"
		".shared 128\n"
		".dialect visa\n"
		"        S2R R0, SR_TID.X ;\n"
		"        S2R R1, SR_CTAID.X ;\n"
		"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
		"        LOP3.LUT R4, R0, 0x1f, RZ, 0xc0, !PT ;\n"
		"        SHF.L.U32 R7, R4, 0x2, RZ ;\n"
		"        IMAD R10, R1, 0x80, R0 ;\n"
		"        MOV R20, c[0x0][0x0] ;\n"
		"        MOV R21, c[0x0][0x4] ;\n"
		"        IMAD.WIDE.U32 R[20:21], R10, 0x4, R[20:21] ;\n"
		"        MOV R9, RZ ;\n"                          /* acc */
		"        MOV R11, RZ ;\n"                         /* round */
		".round:\n"
		"        IADD3 R12, R11, 0x11, RZ ;\n"            /* 17 + round */
		"        ISETP.GE.U32.AND P0, PT, R3, 0x2, PT ;\n"
		"   @P0  BRA `(.second) ;\n"
		"        ISETP.NE.U32.AND P1, PT, R3, RZ, PT ;\n"
		"   @P1  BRA `(.w1) ;\n"
		"        NBARRIER.signal 0x9, 0x1, 0x1, 0x1 ;\n"  /* A: producer */
		"        BRA `(.all) ;\n"
		".w1:\n"
		"        NBARRIER.signal 0x9, 0x2, 0x1, 0x1 ;\n"  /* A: consumer */
		"        NBARRIER.wait 0x9 ;\n"
		"        STS [R7], R12 ;\n"
		"        NBARRIER.signal 0xa, 0x1, 0x1, 0x2 ;\n"  /* 9 is free */
		"        NBARRIER.signal 0x9, 0x1, 0x1, 0x2 ;\n"  /* B: producer */
		"        BRA `(.all) ;\n"
		".second:\n"
		"        NBARRIER.signal 0xa, 0x2, 0x1, 0x2 ;\n"
		"        NBARRIER.wait 0xa ;\n"
		"        NBARRIER.signal 0x9, 0x2, 0x1, 0x2 ;\n"  /* B: consumer */
		"        NBARRIER.wait 0x9 ;\n"
		"        LDS R13, [R7] ;\n"
		"        IADD3 R9, R9, R13, RZ ;\n"
		".all:\n"
		"        NBARRIER.signal 0xb, 0x4 ;\n"
		"        NBARRIER.wait 0xb ;\n"
		"        NBARRIER.signal 0x9, 0x4 ;\n"            /* C: everybody */
		"        NBARRIER.wait 0x9 ;\n"
		"        NBARRIER.signal 0xc, 0x4 ;\n"
		"        NBARRIER.wait 0xc ;\n"
		"        IADD3 R11, R11, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P4, PT, R11, 0x8, PT ;\n"
		"   @P4  BRA `(.round) ;\n"
		"        STG [R20.64], R9 ;\n"
		"        EXIT ;\n";
	const uint32_t grid = 16;
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 4; seed++) {
			mini m;
			mini_load(&m, src, grid * 128);
			we_launch_config o = sched(seed, true, UNIT_MAX_INSNS);
			mini_ok(&m, grid, 128, th_id(e), &o);
			/* warps 2 and 3 sum 17..24 = 164 */
			for (uint32_t i = 0; i < grid * 128; i++)
				CHECK(m.host[i] == ((i % 128) >= 64 ? 164u : 0u), "[%s seed %llu] out[%u] = %u",
				      th_name(e), (unsigned long long)seed, i, m.host[i]);
			mini_close(&m);
		}
}
END_TEST

/* Consumers that never reach num_consumers: a deadlock, reported with the
 * named barrier and its counts. */
START_TEST(nbar_deadlock)
{
	static const char src[] =
		".dialect visa\n"
		"        S2R R0, SR_TID.X ;\n"
		"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;\n"
		"        ISETP.NE.U32.AND P0, PT, R3, RZ, PT ;\n"
		"   @P0  BRA `(.consumer) ;\n"
		"        NBARRIER.signal 0x5, 0x1, 0x1, 0x3 ;\n"
		"        EXIT ;\n"
		".consumer:\n"
		"        NBARRIER.signal 0x5, 0x2, 0x1, 0x3 ;\n"
		"        NBARRIER.wait 0x5 ;\n"
		"        EXIT ;\n";
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (uint64_t seed = 0; seed <= 2; seed++) {
			mini m;
			mini_load(&m, src, 0);
			we_launch_config o = sched(seed, false, UNIT_MAX_INSNS);
			we_status st = mini_launch(&m, 2, 96, th_id(e), &o);
			const char *json = we_last_report_json(m.t.dev);
			CHECK(st == WE_ERR_DEADLOCK, "[%s] status %s, want a deadlock: %s", th_name(e),
			      we_status_name(st), we_last_error(m.t.dev));
			CHECK(strstr(json, "\"verdict\":\"deadlock\"") && strstr(json, "\"named_barrier\":5") &&
				      strstr(json, "\"num_consumers\":3") && strstr(json, "\"consumers\":2"),
			      "[%s] deadlock report:\n%s", th_name(e), json);
			CHECK(strstr(we_last_error(m.t.dev), "named barrier 5") != NULL, "[%s] text report:\n%s",
			      th_name(e), we_last_error(m.t.dev));
			mini_close(&m);
		}
}
END_TEST

/* ================================================================ */
/* dialects                                                           */

/* An instruction of one dialect in a kernel of another is an assembly
 * error whose message names the dialect the instruction needs. */
START_TEST(dialect_mismatch)
{
	static const struct {
		const char *dialect, *insn, *needs;
	} cases[] = {
		{ "sass", "NBARRIER.wait 0x1 ;", "visa" },
		{ "sass", "NBARRIER.signal 0x1, 0x2 ;", "visa" },
		{ "target", "NBARRIER.signal 0x1, 0x1, 0x1, 0x1 ;", "visa" },
		{ NULL, "NBARRIER.wait 0x1 ;", "visa" },
		{ "ptx", "NBARRIER.wait 0x1 ;", "visa" },
		{ "visa", "BAR.SCAN 0x1, 0x0, PT ;", "sass" },
		{ "visa", "BAR.SYNCALL ;", "sass" },
		{ "target", "BAR.SCAN 0x1, 0x0, PT ;", "sass" },
		{ NULL, "BAR.SYNCALL ;", "sass" },
		{ "ptx", "BAR.SCAN 0x1, 0x0, PT ;", "sass" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[256], good[256], msg[64];
		snprintf(src, sizeof src, "%s%s%s        %s\n        EXIT ;\n", cases[i].dialect ? ".dialect " : "",
			 cases[i].dialect ? cases[i].dialect : "", cases[i].dialect ? "\n" : "", cases[i].insn);
		snprintf(msg, sizeof msg, ".dialect %s", cases[i].needs);
		expect_load_error(src, WE_ERR_ASM, msg);
		/* the message names the line */
		expect_load_error(src, WE_ERR_ASM, cases[i].dialect ? "bad.we:2:" : "bad.we:1:");
		snprintf(good, sizeof good, ".dialect %s\n        %s\n        EXIT ;\n", cases[i].needs, cases[i].insn);
		expect_loads(good);
	}
	/* every error of a file is reported at once */
	expect_load_error(".dialect sass\n NBARRIER.wait 0x1 ;\n BAR.SCAN 0x1, 0x0, PT ;\n NBARRIER.wait 0x2 ;\n EXIT ;\n",
			  WE_ERR_ASM, "bad.we:4:");
	/* the kernel's dialect is reported by the API */
	th_kernel t;
	th_load(&t, ".kernel a\n.dialect visa\n EXIT ;\n.end\n.kernel b\n.dialect sass\n EXIT ;\n.end\n.kernel c\n EXIT ;\n.end\n",
		"dialects.we", "a");
	ck_assert_str_eq(we_module_find_kernel(t.mod, "a")->dialect, "visa");
	ck_assert_str_eq(we_module_find_kernel(t.mod, "b")->dialect, "sass");
	ck_assert_str_eq(we_module_find_kernel(t.mod, "c")->dialect, "target");
	th_close(&t);
}
END_TEST

/* ================================================================ */

static Suite *dialects_suite(void)
{
	Suite *s = suite_create("dialects");
	TCase *k = tcase_create("kernels");
	tcase_set_timeout(k, 600);
	tcase_add_test(k, nbpipe_kernel);
	tcase_add_test(k, compact_kernel);
	tcase_add_test(k, traphandler_kernel);
	suite_add_tcase(s, k);
	TCase *b = tcase_create("sass");
	tcase_set_timeout(b, 300);
	tcase_add_test(b, sass_same_register);
	tcase_add_test(b, sass_different_registers);
	tcase_add_test(b, sass_register_id_immediate_count);
	tcase_add_test(b, sass_count_whole_cta);
	tcase_add_test(b, sass_scan_prefix_order);
	tcase_add_test(b, sass_scan_count0);
	tcase_add_test(b, sass_scan_result_unread);
	tcase_add_test(b, sass_red_results);
	suite_add_tcase(s, b);
	TCase *tr = tcase_create("trap");
	tcase_set_timeout(tr, 300);
	tcase_add_test(tr, trap_rtt_resume);
	tcase_add_test(tr, syncall_live_warps);
	tcase_add_test(tr, syncall_outside_handler);
	tcase_add_test(tr, bar_inside_handler);
	tcase_add_test(tr, trap_without_handler);
	tcase_add_test(tr, trap_nested);
	tcase_add_test(tr, rtt_outside_handler);
	suite_add_tcase(s, tr);
	TCase *n = tcase_create("nbarrier");
	tcase_set_timeout(n, 300);
	tcase_add_test(n, nbar_forms);
	tcase_add_test(n, nbar_forms_mixed);
	tcase_add_test(n, nbar_static_checks);
	tcase_add_test(n, nbar_signal_does_not_block);
	tcase_add_test(n, nbar_check_hazards);
	tcase_add_test(n, nbar_wait_by_producer_only);
	tcase_add_test(n, nbar_id_out_of_range);
	tcase_add_test(n, nbar_counts_disagree);
	tcase_add_test(n, nbar_reuse_too_early);
	tcase_add_test(n, nbar_reuse_other_warps);
	tcase_add_test(n, nbar_deadlock);
	suite_add_tcase(s, n);
	TCase *d = tcase_create("dialects");
	tcase_set_timeout(d, 120);
	tcase_add_test(d, dialect_mismatch);
	suite_add_tcase(s, d);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(dialects_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
