/* test_barkern — barrier kernels and barrier-unit behaviour through the
 * public API, under every engine of tests/engines.h.
 *
 * Part 1 runs the shared-memory kernels of kernels/ (scan, transpose,
 * histogram, prodcons) on grids of at least 10,000 CTAs and checks every
 * output against a host reference.  Part 2 runs small inline kernels that
 * pin down the barrier rules of seed 000 and spec-reading decisions 1-9:
 * BAR.RED results, cnt = 0 with exiting warps, counted barriers on subsets
 * of warps, reuse, B2R/R2B state words, every operand form, the memory
 * fence through global memory and the runtime exceptions.
 *
 * Every test loops over th_engines[]: the scheduler (a worker per core runs
 * many warps) and warp-threads (one host thread per warp).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* A launch of t on engine e with a budget of max_insns instructions. */
static we_status launch(th_kernel *t, we_dim3 grid, we_dim3 block, we_engine e, uint64_t max_insns,
			we_launch_stats *s)
{
	we_launch_config cfg = { .grid = grid, .block = block, .engine = e, .max_instructions = max_insns };
	return th_launch(t, &cfg, s);
}

/* A launch of t on engine e, which must succeed. */
static void launch_ok(th_kernel *t, we_dim3 grid, we_dim3 block, we_engine e, we_launch_stats *s)
{
	we_launch_config cfg = { .grid = grid, .block = block, .engine = e };
	th_launch_ok(t, &cfg, s, we_engine_name(e));
}

#define SENTINEL 0xa5a5a5a5u

/* ================================================================ */
/* Part 1: the kernels of kernels/ on 10,000-CTA grids                */

START_TEST(scan_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/scan.we", "scan");
	const uint32_t grid = 10000, maxblock = 256, cap = grid * maxblock;
	uint32_t *in = malloc(cap * 4u), *out = malloc(cap * 4u);
	ck_assert(in && out);
	th_rng_seed(1);
	for (uint32_t i = 0; i < cap; i++)
		in[i] = (i % 5 == 0) ? th_rng() : th_rng() & 0xffffu; /* wrapping sums too */
	we_devptr din = th_buf_new(&t, "in", in, cap * 4u, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, cap * 4u, 0xa5);
	(void)din;
	for (size_t e = 0; e < TH_NENGINES; e++) {
		/* warp-threads runs a host thread per warp: half the block there */
		const uint32_t block = (th_engines[e].flags & TH_THREAD_PER_WARP) ? 128 : maxblock;
		const uint32_t n = grid * block - 100; /* partial last CTA */
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, cap * 4u), WE_OK);
		th_u32(&t, "n", n);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		th_get(&t, out, dout, grid * block * 4u);
		uint32_t sum = 0;
		for (uint32_t i = 0; i < grid * block; i++) {
			if (i % block == 0)
				sum = 0;
			sum += in[i];
			uint32_t want = i < n ? sum : SENTINEL;
			CHECK(out[i] == want, "[%s] block %u: out[%u] = 0x%08x, want 0x%08x",
			      th_name(e), block, i, out[i], want);
		}
		ck_assert_uint_eq(s.ctas, grid);
		/* 1 + log2(block) BAR.SYNC per CTA */
		uint64_t steps = 1;
		for (uint32_t d = 1; d < block; d *= 2)
			steps++;
		ck_assert_uint_eq(s.barriers, grid * steps);
	}
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

START_TEST(transpose_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/transpose.we", "transpose");
	/* 125 x 80 = 10,000 tiles, the last tile column and row partial */
	const uint32_t width = 125 * 32 - 1, height = 80 * 32 - 10;
	const size_t n = (size_t)width * height;
	uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
	ck_assert(in && out);
	for (size_t i = 0; i < n; i++)
		in[i] = (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
	th_u32(&t, "width", width);
	th_u32(&t, "height", height);
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 4), WE_OK);
		we_launch_stats s;
		launch_ok(&t, (we_dim3){ (width + 31) / 32, (height + 31) / 32, 1 }, (we_dim3){ 32, 8, 1 },
		          th_id(e), &s);
		ck_assert_uint_eq(s.ctas, 10000);
		ck_assert_uint_eq(s.barriers, 10000);
		th_get(&t, out, dout, n * 4);
		for (uint32_t x = 0; x < width; x++)
			for (uint32_t y = 0; y < height; y++) {
				uint32_t got = out[(size_t)x * height + y], want = in[(size_t)y * width + x];
				CHECK(got == want, "[%s] out[%u][%u] = 0x%08x, want in[%u][%u] = 0x%08x",
				      th_name(e), x, y, got, y, x, want);
			}
	}
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

START_TEST(histogram_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/histogram.we", "histogram");
	const uint32_t per_cta = 1024, grid = 10000, n = grid * per_cta - 333;
	uint8_t *in = malloc(n);
	ck_assert_ptr_nonnull(in);
	uint32_t want[256] = { 0 }, got[256];
	th_rng_seed(3);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = th_rng();
		/* a hot bin (many lanes of a warp on one shared address), a few
		 * warm ones and a uniform rest; bin 0 stays empty */
		uint8_t v = (r & 3) == 0 ? 0x7f : (r & 7) == 1 ? (uint8_t)(0xf0 + ((r >> 8) & 7))
			: (uint8_t)(1 + (r >> 16) % 255);
		in[i] = v;
		want[v]++;
	}
	ck_assert_uint_eq(want[0], 0);
	th_u32(&t, "n", n);
	th_u32(&t, "per_cta", per_cta);
	th_buf_new(&t, "in", in, n, 0);
	we_devptr dh = th_buf_new(&t, "hist", NULL, sizeof got, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		/* the second engine also runs a block that does not divide 256 */
		const uint32_t block = e == 0 ? 128 : 96;
		ck_assert_int_eq(we_memset(t.dev, dh, 0, sizeof got), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, 2u * grid);
		th_get(&t, got, dh, sizeof got);
		for (unsigned b = 0; b < 256; b++)
			CHECK(got[b] == want[b], "[%s] block %u: hist[%u] = %u, want %u",
			      th_name(e), block, b, got[b], want[b]);
	}
	free(in);
	th_close(&t);
}
END_TEST

START_TEST(prodcons_kernel)
{
	th_kernel t;
	th_file(&t, "kernels/prodcons.we", "prodcons");
	const uint32_t grid = 10000, block = 128, nslots = block / 2, iters = 64;
	uint32_t *in = malloc(iters * nslots * 4u), *out = malloc(grid * nslots * 4u);
	ck_assert(in && out);
	th_rng_seed(4);
	for (uint32_t i = 0; i < iters * nslots; i++)
		in[i] = th_rng();
	th_u32(&t, "iters", iters);
	th_buf_new(&t, "in", in, iters * nslots * 4u, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, grid * nslots * 4u, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, grid * nslots * 4u), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		/* barriers 0 and 1 complete once per iteration */
		ck_assert_uint_eq(s.barriers, 2ull * iters * grid);
		th_get(&t, out, dout, grid * nslots * 4u);
		for (uint32_t c = 0; c < grid; c++)
			for (uint32_t slot = 0; slot < nslots; slot++) {
				uint32_t acc = 0;
				for (uint32_t i = 0; i < iters; i++)
					acc = acc * 31u + (in[i * nslots + slot] ^ (c * 0x10001u + i));
				uint32_t got = out[c * nslots + slot];
				CHECK(got == acc, "[%s] CTA %u consumer slot %u: checksum 0x%08x, want 0x%08x",
				      th_name(e), c, slot, got, acc);
			}
	}
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

/* ================================================================ */
/* Part 2: barrier-unit tests with inline kernels                     */

/* BAR.RED.POPC/.AND/.OR over per-thread predicates, four forms of the
 * operands (RIR, two-operand Rb, RR, RIR with !P0); threads flagged in
 * data bit 1 EXIT first.  BAR.RESULT after each (decision 7). */
static const char red_text[] =
	".param u32 cnt           // 0 or the CTA's threads rounded up to 32\n"
	".param ptr data          // u32 per thread: bit 0 predicate, bit 1 exit first\n"
	".param ptr out           // u32[5] per thread\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R3, R1, R2, R0 ;\n"
	"        MOV R20, c[0x0][0x8] ;\n"
	"        MOV R21, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R3, 0x4, R[20:21] ;\n"
	"        LDG R4, [R20.64] ;\n"
	"        LOP3.LUT R5, R4, 0x2, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R5, RZ, PT ;\n"
	"   @P1  EXIT ;\n"
	"        LOP3.LUT R5, R4, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R5, RZ, PT ;\n"
	"        MOV R9, c[0x0][0x0] ;\n"
	"        BAR.RED.POPC 0x1, R9, P0 ;\n"
	"        BAR.RESULT R10, P2 ;\n"
	"        SHF.L.U32 R8, R9, 0x4, RZ ;\n"
	"        LOP3.LUT R8, R8, 0x2, RZ, 0xfc, !PT ;       // id 2 | cnt << 4\n"
	"        BAR.RED.AND R8, P0 ;\n"
	"        BAR.RESULT R11, P3 ;\n"
	"        MOV R7, 0x3 ;\n"
	"        BAR.RED.OR R7, R9, P0 ;\n"
	"        BAR.RESULT R12, P4 ;\n"
	"        BAR.RED.POPC 0x4, R9, !P0 ;\n"
	"        B2R.RESULT R13, P5 ;\n"
	"        P2R R14, PR, RZ, 0x3c ;\n"
	"        MOV R22, c[0x0][0x10] ;\n"
	"        MOV R23, c[0x0][0x14] ;\n"
	"        IMAD R3, R3, 0x5, RZ ;\n"
	"        IMAD.WIDE.U32 R[22:23], R3, 0x4, R[22:23] ;\n"
	"        STG [R22.64], R10 ;\n"
	"        STG [R22.64+0x4], R11 ;\n"
	"        STG [R22.64+0x8], R12 ;\n"
	"        STG [R22.64+0xc], R13 ;\n"
	"        STG [R22.64+0x10], R14 ;\n"
	"        EXIT ;\n";

START_TEST(bar_red_results)
{
	th_kernel t;
	th_load(&t, red_text, "red.we", "main");
	const uint32_t grid = 6, maxthreads = 32 * 32 * grid;
	uint32_t *data = malloc(maxthreads * 4), *out = malloc(maxthreads * 20);
	ck_assert(data && out);
	we_devptr ddata = th_buf_new(&t, "data", NULL, maxthreads * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, maxthreads * 20, 0);
	th_rng_seed(5);
	for (uint32_t nw = 1; nw <= 32; nw++) {
		/* even warp counts get a partial last warp (1..31 lanes) */
		const uint32_t block = nw % 2 ? nw * 32 : nw * 32 - (nw * 7) % 31 - 1;
		const uint32_t nthreads = grid * block;
		for (int counted = 0; counted < 2; counted++) {
			/* CTA c: predicate all true (c%3==0), all false (1), random (2) */
			for (uint32_t c = 0; c < grid; c++) {
				/* cnt = 0 only: whole warps may exit (decision 2), the
				 * last one too (the scheduler runs it last, so its exit
				 * completes the reductions); one warp stays */
				uint32_t gone = 0;
				if (!counted && nw > 1) {
					for (uint32_t w = 0; w < nw; w++)
						gone |= (uint32_t)(th_rng() % 4 == 0 || (c == 4 && w == nw - 1)) << w;
					uint32_t keep = th_rng() % (c == 4 ? nw - 1 : nw);
					gone &= ~(1u << keep);
				}
				for (uint32_t w = 0; w < nw; w++) {
					uint32_t first = w * 32, last = first + 32 < block ? first + 32 : block;
					bool all_exit = (gone >> w) & 1u;
					bool kept = false;
					for (uint32_t l = first; l < last; l++) {
						uint32_t r = th_rng();
						bool p = c % 3 == 0 ? true : c % 3 == 1 ? false : (r & 1);
						bool ex = all_exit || (r >> 8) % 8 == 0;
						if (!all_exit && !ex)
							kept = true;
						if (!all_exit && l == last - 1 && !kept)
							ex = false; /* a counted warp keeps a lane */
						data[c * block + l] = (uint32_t)p | (uint32_t)ex << 1;
					}
				}
			}
			ck_assert_int_eq(we_memcpy_htod(t.dev, ddata, data, nthreads * 4), WE_OK);
			th_u32(&t, "cnt", counted ? (block + 31) / 32 * 32 : 0);
			for (size_t e = 0; e < TH_NENGINES; e++) {
				ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, nthreads * 20), WE_OK);
				we_launch_stats s;
				we_status st = launch(&t, th_dim1(grid), th_dim1(block), th_id(e), 1000000, &s);
				CHECK(st == WE_OK, "[%s] block %u cnt %s: %s: %s", th_name(e),
				      block, counted ? "counted" : "0", we_status_name(st),
				      we_last_error(t.dev));
				ck_assert_uint_eq(s.barriers, 4u * grid);
				th_get(&t, out, dout, nthreads * 20);
				for (uint32_t c = 0; c < grid; c++) {
					uint32_t live = 0, popc = 0;
					for (uint32_t i = c * block; i < (c + 1) * block; i++)
						if (!(data[i] & 2)) {
							live++;
							popc += data[i] & 1;
						}
					bool all = popc == live, any = popc != 0;
					uint32_t want[5] = { popc, all ? ~0u : 0u, any ? ~0u : 0u, live - popc,
							     (uint32_t)(popc != 0) << 2 | (uint32_t)all << 3 |
								     (uint32_t)any << 4 | (uint32_t)(live != popc) << 5 };
					static const char *const what[5] = { "POPC Rd", "AND Rd", "OR Rd", "POPC(!p) Rd",
									     "P2..P5" };
					for (uint32_t i = c * block; i < (c + 1) * block; i++)
						for (unsigned k = 0; k < 5; k++) {
							uint32_t w = (data[i] & 2) ? SENTINEL : want[k];
							CHECK(out[i * 5 + k] == w,
							      "[%s] block %u cnt %s CTA %u thread %u: %s = 0x%x, want 0x%x "
							      "(%u live, %u true)",
							      th_name(e), block,
							      counted ? "counted" : "0", c, i - c * block, what[k],
							      out[i * 5 + k], w, live, popc);
						}
				}
			}
		}
	}
	free(data);
	free(out);
	th_close(&t);
}
END_TEST

/* cnt = 0 (decision 2) with warps that exit: role 1 exits at once, role 2
 * spins `spin` iterations (others are waiting by then) and exits.  The
 * remaining threads count themselves into shared words around three
 * BAR.SYNC 0x0 and read the totals back. */
static const char cnt0_text[] =
	".param ptr role          // u32 per thread: 0 take part, 1 exit early, 2 exit late\n"
	".param ptr out           // u32[3] per thread\n"
	".param u32 spin\n"
	".shared 16\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R3, R1, R2, R0 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R3, 0x4, R[20:21] ;\n"
	"        LDG R4, [R20.64] ;\n"
	"        ISETP.EQ.U32.AND P1, PT, R4, 0x1, PT ;\n"
	"   @P1  EXIT ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R4, 0x2, PT ;\n"
	"   @!P2 BRA `(.part) ;\n"
	"        MOV R5, c[0x0][0x10] ;\n"
	".spin:\n"
	"        IADD3 R5, R5, -0x1, RZ ;\n"
	"        ISETP.NE.U32.AND P3, PT, R5, RZ, PT ;\n"
	"   @P3  BRA `(.spin) ;\n"
	"        EXIT ;\n"
	".part:\n"
	"        MOV R8, 0x1 ;\n"
	"        ATOMS.ADD RZ, [RZ], R8 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        LDS R10, [RZ] ;\n"
	"        ATOMS.ADD RZ, [RZ+0x4], R8 ;\n"
	"        MOV R9, RZ ;\n"
	"        BAR.SYNC R9, R9 ;                            // id 0, cnt 0 from one register\n"
	"        LDS R11, [RZ+0x4] ;\n"
	"        ATOMS.ADD RZ, [RZ+0x8], R8 ;\n"
	"        BAR.SYNC 0x0, 0x0 ;\n"
	"        LDS R12, [RZ+0x8] ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD R3, R3, 0x3, RZ ;\n"
	"        IMAD.WIDE.U32 R[22:23], R3, 0x4, R[22:23] ;\n"
	"        STG [R22.64], R10 ;\n"
	"        STG [R22.64+0x4], R11 ;\n"
	"        STG [R22.64+0x8], R12 ;\n"
	"        EXIT ;\n";

START_TEST(cnt0_exiting_warps)
{
	th_kernel t;
	th_load(&t, cnt0_text, "cnt0.we", "main");
	static const uint32_t blocks[] = { 64, 96, 128, 200, 256, 512, 1024 };
	const uint32_t grid = 8;
	uint32_t *role = malloc(1024 * grid * 4), *out = malloc(1024 * grid * 12);
	ck_assert(role && out);
	we_devptr drole = th_buf_new(&t, "role", NULL, 1024 * grid * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, 1024 * grid * 12, 0);
	th_u32(&t, "spin", 5000);
	th_rng_seed(6);
	for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
		const uint32_t block = blocks[bi], nw = (block + 31) / 32, n = grid * block;
		unsigned with_part = 0;
		for (uint32_t c = 0; c < grid; c++) {
			bool any = false;
			for (uint32_t w = 0; w < nw; w++) {
				/* CTA 0: warp 0 exits early, the last warp late; CTA 1:
				 * everyone but warp 1 exits late; CTA 2: nobody takes
				 * part; the others random */
				uint32_t r = th_rng() % 4, wr;
				if (c == 0)
					wr = w == 0 ? 1 : w == nw - 1 ? 2 : 0;
				else if (c == 1)
					wr = w == 1 ? 0 : 2;
				else if (c == 2)
					wr = 1 + (w & 1);
				else
					wr = r < 2 ? 0 : r - 1;
				for (uint32_t l = w * 32; l < (w + 1) * 32 && l < block; l++) {
					/* lanes of taking-part warps may exit on their own */
					uint32_t lr = wr == 0 && th_rng() % 8 == 0 ? 1 : wr;
					role[c * block + l] = lr;
					any |= lr == 0;
				}
			}
			with_part += any;
		}
		ck_assert_int_eq(we_memcpy_htod(t.dev, drole, role, n * 4), WE_OK);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 12), WE_OK);
			we_launch_stats s;
			we_status st = launch(&t, th_dim1(grid), th_dim1(block), th_id(e), 10000000, &s);
			CHECK(st == WE_OK, "[%s] block %u: %s: %s", th_name(e), block,
			      we_status_name(st), we_last_error(t.dev));
			/* a CTA where nobody arrives completes no barrier */
			CHECK(s.barriers == 3u * with_part, "[%s] block %u: %llu barriers, want %u",
			      th_name(e), block, (unsigned long long)s.barriers,
			      3u * with_part);
			th_get(&t, out, dout, n * 12);
			for (uint32_t c = 0; c < grid; c++) {
				uint32_t part = 0;
				for (uint32_t i = c * block; i < (c + 1) * block; i++)
					part += role[i] == 0;
				for (uint32_t i = c * block; i < (c + 1) * block; i++)
					for (unsigned k = 0; k < 3; k++) {
						uint32_t want = role[i] == 0 ? part : SENTINEL;
						CHECK(out[i * 3 + k] == want,
						      "[%s] block %u CTA %u thread %u (role %u): count %u after "
						      "barrier %u = %u, want %u",
						      th_name(e), block, c, i - c * block, role[i], k,
						      k + 1, out[i * 3 + k], want);
					}
			}
		}
	}
	free(role);
	free(out);
	th_close(&t);
}
END_TEST

/* Warps [0, nA) use barrier 1 with count nA*32, the others barrier 2 with
 * the rest of the CTA (ids and counts from registers, BAR_RR, with high
 * bits that decision 3 truncates away); group B
 * runs three more rounds.  Each round every thread publishes a value,
 * syncs with its group, reads the same lane of the group's next warp and
 * syncs again before the slot is rewritten. */
static const char subset_text[] =
	".param u32 nA\n"
	".param u32 rounds\n"
	".param ptr out\n"
	".shared 4096\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;               // warp\n"
	"        MOV R4, c[0x0][0x0] ;\n"
	"        SHF.L.U32 R5, R4, 0x5, RZ ;                  // nA * 32\n"
	"        ISETP.LT.U32.AND P0, PT, R3, R4, PT ;        // group A\n"
	"        SEL R10, RZ, R5, P0 ;                        // first thread of the group\n"
	"        IADD3 R11, R2, -R5, RZ ;\n"
	"        SEL R11, R5, R11, P0 ;                       // threads of the group\n"
	"        MOV R6, 0x32 ;                               // barrier: A 1, B 2; only\n"
	"   @P0  MOV R6, 0x11 ;                               // the low 4 bits count\n"
	"        LOP3.LUT R17, R11, 0xf000, RZ, 0xfc, !PT ;   // and 12 bits of the count\n"
	"        MOV R12, c[0x0][0x4] ;\n"
	"   @!P0 IADD3 R12, R12, 0x3, RZ ;                    // rounds\n"
	"        IADD3 R7, R0, -R10, RZ ;\n"
	"        IADD3 R7, R7, 0x20, RZ ;\n"
	"        ISETP.GE.U32.AND P1, PT, R7, R11, PT ;\n"
	"   @P1  IADD3 R7, R7, -R11, RZ ;\n"
	"        IADD3 R7, R7, R10, RZ ;                      // partner\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"
	"        SHF.L.U32 R8, R0, 0x2, RZ ;\n"
	"        SHF.L.U32 R9, R0, 0x8, RZ ;\n"
	"        IADD3 R9, R9, R1, RZ ;                       // tid * 256 + ctaid\n"
	"        MOV R13, RZ ;                                // round\n"
	"        MOV R14, RZ ;                                // acc\n"
	".round:\n"
	"        IADD3 R15, R9, R13, RZ ;\n"
	"        STS [R8], R15 ;\n"
	"        BAR.SYNC R6, R11 ;\n"
	"        LDS R16, [R7] ;\n"
	"        IMAD R14, R14, 0x7, R16 ;\n"
	"        BAR.SYNC R6, R17 ;\n"
	"        IADD3 R13, R13, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P2, PT, R13, R12, PT ;\n"
	"   @P2  BRA `(.round) ;\n"
	"        IMAD R3, R1, R2, R0 ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[22:23], R3, 0x4, R[22:23] ;\n"
	"        STG [R22.64], R14 ;\n"
	"        EXIT ;\n";

START_TEST(counted_subsets)
{
	th_kernel t;
	th_load(&t, subset_text, "subset.we", "main");
	static const struct { uint32_t nw, nA; } cfgs[] = { { 8, 3 }, { 5, 1 }, { 16, 8 }, { 4, 3 }, { 32, 31 } };
	const uint32_t grid = 16, rounds = 40;
	uint32_t *out = malloc(1024 * grid * 4);
	ck_assert_ptr_nonnull(out);
	we_devptr dout = th_buf_new(&t, "out", NULL, 1024 * grid * 4, 0);
	th_u32(&t, "rounds", rounds);
	for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
		const uint32_t block = cfgs[ci].nw * 32, nA = cfgs[ci].nA;
		th_u32(&t, "nA", nA);
		for (size_t e = 0; e < TH_NENGINES; e++) {
			ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, block * grid * 4), WE_OK);
			we_launch_stats s;
			we_status st = launch(&t, th_dim1(grid), th_dim1(block), th_id(e), 10000000, &s);
			CHECK(st == WE_OK, "[%s] %u warps, nA %u: %s: %s", th_name(e),
			      cfgs[ci].nw, nA, we_status_name(st), we_last_error(t.dev));
			ck_assert_uint_eq(s.barriers, (uint64_t)grid * (2 * rounds + 2 * (rounds + 3)));
			th_get(&t, out, dout, block * grid * 4);
			for (uint32_t c = 0; c < grid; c++)
				for (uint32_t tid = 0; tid < block; tid++) {
					bool a = tid / 32 < nA;
					uint32_t first = a ? 0 : nA * 32, size = a ? nA * 32 : block - nA * 32;
					uint32_t partner = first + (tid - first + 32) % size;
					uint32_t nr = a ? rounds : rounds + 3, acc = 0;
					for (uint32_t r = 0; r < nr; r++)
						acc = acc * 7u + partner * 256u + c + r;
					uint32_t got = out[c * block + tid];
					CHECK(got == acc, "[%s] %u warps, nA %u, CTA %u thread %u: 0x%08x, want 0x%08x",
					      th_name(e), cfgs[ci].nw, nA, c, tid, got, acc);
				}
		}
	}
	free(out);
	th_close(&t);
}
END_TEST

/* One barrier (5, counted from a register) reused 10,000 times: double
 * buffered so one BAR.SYNC per iteration suffices. */
static const char loop_text[] =
	".param u32 iters\n"
	".param ptr out\n"
	".shared 2048\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IADD3 R7, R0, 0x20, RZ ;\n"
	"        ISETP.GE.U32.AND P1, PT, R7, R2, PT ;\n"
	"   @P1  IADD3 R7, R7, -R2, RZ ;                      // (tid + 32) % ntid\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"
	"        SHF.L.U32 R8, R0, 0x2, RZ ;\n"
	"        SHF.L.U32 R6, R2, 0x2, RZ ;                  // buffer size\n"
	"        MOV R13, RZ ;                                // i\n"
	"        MOV R14, RZ ;                                // acc\n"
	"        MOV R12, RZ ;                                // buffer base\n"
	".loop:\n"
	"        IMAD R15, R13, 0x10, R0 ;\n"
	"        IADD3 R9, R8, R12, RZ ;\n"
	"        STS [R9], R15 ;\n"
	"        BAR.SYNC 0x5, R2 ;\n"
	"        IADD3 R9, R7, R12, RZ ;\n"
	"        LDS R16, [R9] ;\n"
	"        IMAD R14, R14, 0x3, R16 ;\n"
	"        IADD3 R12, R6, -R12, RZ ;                    // the other buffer\n"
	"        IADD3 R13, R13, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P2, PT, R13, c[0x0][0x0], PT ;\n"
	"   @P2  BRA `(.loop) ;\n"
	"        IMAD R3, R1, R2, R0 ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[22:23], R3, 0x4, R[22:23] ;\n"
	"        STG [R22.64], R14 ;\n"
	"        EXIT ;\n";

START_TEST(barrier_reuse_loop)
{
	th_kernel t;
	th_load(&t, loop_text, "loop.we", "main");
	const uint32_t grid = 4, block = 128, iters = 10000;
	uint32_t out[4 * 128];
	we_devptr dout = th_buf_new(&t, "out", NULL, sizeof out, 0);
	th_u32(&t, "iters", iters);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, sizeof out), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, (uint64_t)grid * iters);
		th_get(&t, out, dout, sizeof out);
		for (uint32_t c = 0; c < grid; c++)
			for (uint32_t tid = 0; tid < block; tid++) {
				uint32_t partner = (tid + 32) % block, acc = 0;
				for (uint32_t i = 0; i < iters; i++)
					acc = acc * 3u + i * 16u + partner;
				CHECK(out[c * block + tid] == acc, "[%s] CTA %u thread %u: 0x%08x, want 0x%08x",
				      th_name(e), c, tid, out[c * block + tid], acc);
			}
	}
	th_close(&t);
}
END_TEST

/* B2R.BAR / R2B.BAR on a one-warp CTA: save the state of barrier 2 in the
 * middle of a phase (1 arrival of 4), clear it, restore it and finish the
 * phase from the restored state; then round-trip arbitrary words through
 * barriers 0, 9 and 15. */
static const char b2r_bar_text[] =
	".param ptr in            // u32[3] per CTA\n"
	".param ptr out           // u32[8] per CTA\n"
	"        S2R R0, SR_CTAID.X ;\n"
	"        BAR.ARV 0x2, 0x80 ;\n"
	"        B2R.BAR R1, 0x2 ;\n"
	"        R2B.BAR 0x2, RZ ;\n"
	"        B2R.BAR R2, 0x2 ;\n"
	"        R2B.BAR 0x2, R1 ;\n"
	"        B2R R3, 0x2 ;\n"
	"        BAR.ARV 0x2, 0x80 ;\n"
	"        BAR.ARV 0x2, 0x80 ;\n"
	"        B2R.BAR R4, 0x2 ;\n"
	"        BAR.SYNC 0x2, 0x80 ;                        // 4th arrival: completes\n"
	"        B2R.BAR R5, 0x2 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD R6, R0, 0xc, RZ ;\n"
	"        IMAD.WIDE.U32 R[20:21], R6, 0x1, R[20:21] ;\n"
	"        LDG R6, [R20.64] ;\n"
	"        LDG R8, [R20.64+0x4] ;\n"
	"        LDG R10, [R20.64+0x8] ;\n"
	"        R2B.BAR 0x0, R6 ;\n"
	"        R2B.BAR 0x9, R8 ;\n"
	"        R2B 0xf, R10 ;\n"
	"        B2R.BAR R7, 0x0 ;\n"
	"        B2R.BAR R9, 0x9 ;\n"
	"        B2R.BAR R11, 0xf ;\n"
	"        S2R R12, SR_TID.X ;\n"
	"        ISETP.NE.U32.AND P0, PT, R12, RZ, PT ;\n"
	"   @P0  EXIT ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD R6, R0, 0x20, RZ ;\n"
	"        IMAD.WIDE.U32 R[22:23], R6, 0x1, R[22:23] ;\n"
	"        STG [R22.64], R1 ;\n"
	"        STG [R22.64+0x4], R2 ;\n"
	"        STG [R22.64+0x8], R3 ;\n"
	"        STG [R22.64+0xc], R4 ;\n"
	"        STG [R22.64+0x10], R5 ;\n"
	"        STG [R22.64+0x14], R7 ;\n"
	"        STG [R22.64+0x18], R9 ;\n"
	"        STG [R22.64+0x1c], R11 ;\n"
	"        EXIT ;\n";

/* the state word layout of doc/spec-reading.md (decision 8); the OR of a
 * reduction has no bit: it is the popcount's being non-zero */
#define W_ARRIVALS(n) ((uint32_t)(n))
#define W_EXPECTED(n) ((uint32_t)(n) << 7)
#define W_KIND_SYNC (1u << 14)
#define W_KIND_RED (2u << 14)
#define W_OP(op) ((uint32_t)(op) << 16)
#define W_AND (1u << 18)
#define W_POPC(n) ((uint32_t)(n) << 19)
#define W_VALID (1u << 30)
#define W_PHASE (1u << 31)
/* the fields that mean something in a BAR.SYNC/ARV phase (a SYNC phase
 * may carry the identity values of the reduction fields) */
#define W_SYNC_FIELDS (0x7fu | 0x7fu << 7 | 3u << 14 | W_PHASE)
enum { OP_AND = 0, OP_OR = 1, OP_POPC = 2 };

START_TEST(b2r_r2b_bar)
{
	th_kernel t;
	th_load(&t, b2r_bar_text, "b2r.we", "main");
	const uint32_t grid = 64;
	uint32_t in[64 * 3], out[64 * 8];
	th_rng_seed(7);
	/* any word without the WarpBARState valid bit (30), which a barrier's
	 * own state does not hold */
	for (unsigned i = 0; i < 64 * 3; i++)
		in[i] = th_rng() & ~W_VALID;
	in[0] = 0;
	in[1] = ~W_VALID;
	th_buf_new(&t, "in", in, sizeof in, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, sizeof out, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, sizeof out), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(32), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, grid);
		th_get(&t, out, dout, sizeof out);
		const uint32_t mid = W_ARRIVALS(1) | W_EXPECTED(4) | W_KIND_SYNC;
		for (uint32_t c = 0; c < grid; c++) {
			const uint32_t *o = out + c * 8;
			const char *en = th_name(e);
			CHECK((o[0] & W_SYNC_FIELDS) == mid, "[%s] CTA %u: B2R.BAR mid-phase 0x%08x, want 0x%08x",
			      en, c, o[0], mid);
			CHECK(o[1] == 0, "[%s] CTA %u: after R2B.BAR 0: 0x%08x", en, c, o[1]);
			CHECK(o[2] == o[0], "[%s] CTA %u: restored 0x%08x, saved 0x%08x", en, c, o[2], o[0]);
			CHECK((o[3] & W_SYNC_FIELDS) == mid + 2, "[%s] CTA %u: 3 arrivals 0x%08x, want 0x%08x", en,
			      c, o[3], mid + 2);
			CHECK((o[4] & W_SYNC_FIELDS) == W_PHASE,
			      "[%s] CTA %u: completed 0x%08x, want 0x%08x (next phase)", en, c, o[4], W_PHASE);
			for (unsigned k = 0; k < 3; k++)
				CHECK(o[5 + k] == in[c * 3 + k], "[%s] CTA %u: R2B/B2R round trip of 0x%08x gave 0x%08x",
				      en, c, in[c * 3 + k], o[5 + k]);
		}
	}
	th_close(&t);
}
END_TEST

/* Two-warp kernels around barrier 3 (64-thread CTAs): warp 1 goes to
 * .waiter, warp 0 spins on B2R.BAR until warp 1's arrival shows in the
 * arrivals field (so that what warp 0 saves includes it).  R0 = tid,
 * R1 = ctaid, R2 = warp, R3 = the state word with warp 1's arrival. */
#define WARP0_AWAITS_WARP1_AT_BAR3                                                    \
	"        S2R R0, SR_TID.X ;\n"                                                 \
	"        S2R R1, SR_CTAID.X ;\n"                                               \
	"        SHF.R.U32.HI R2, RZ, 0x5, R0 ;\n"                                     \
	"        ISETP.NE.U32.AND P0, PT, R2, RZ, PT ;\n"                              \
	"   @P0  BRA `(.waiter) ;\n"                                                   \
	".spin:\n"                                                                     \
	"        B2R.BAR R3, 0x3 ;\n"                                                  \
	"        LOP3.LUT R4, R3, 0x7f, RZ, 0xc0, !PT ;\n"                             \
	"        ISETP.EQ.U32.AND P1, PT, R4, RZ, PT ;\n"                              \
	"   @P1  BRA `(.spin) ;                               // until warp 1 arrived\n"
/* .store: lane 0 of each warp points R[22:23] at its STRIDE bytes of out
 * (the first parameter), the other lanes exit. */
#define LANE0_STORES_AT(stride)                                                       \
	".store:\n"                                                                    \
	"        LOP3.LUT R24, R0, 0x1f, RZ, 0xc0, !PT ;\n"                            \
	"        ISETP.NE.U32.AND P2, PT, R24, RZ, PT ;\n"                             \
	"   @P2  EXIT ;\n"                                                             \
	"        IMAD R25, R1, 0x2, R2 ;\n"                                            \
	"        IMAD R25, R25, " stride ", RZ ;\n"                                    \
	"        MOV R22, c[0x0][0x0] ;\n"                                             \
	"        MOV R23, c[0x0][0x4] ;\n"                                             \
	"        IMAD.WIDE.U32 R[22:23], R25, 0x1, R[22:23] ;\n"

/* Run a two-warp kernel on `grid` CTAs of 64 threads (bounded: a hang is
 * a deadlock or a watchdog stop, not a stuck test): it succeeds with one
 * barrier completion per CTA; `out` gets the buffer dout. */
static void run_two_warp_ctas(th_kernel *t, uint32_t grid, size_t e, we_devptr dout, void *out, size_t bytes)
{
	ck_assert_int_eq(we_memset(t->dev, dout, 0xa5, bytes), WE_OK);
	we_launch_stats s;
	we_status st = launch(t, th_dim1(grid), th_dim1(64), th_id(e), 10000000, &s);
	CHECK(st == WE_OK, "[%s] %s: %s", th_name(e), we_status_name(st), we_last_error(t->dev));
	ck_assert_uint_eq(s.barriers, grid);
	th_get(t, out, dout, bytes);
}

/* A barrier saved and cleared while another warp waits on it, then
 * restored: the next arrival completes the phase and releases the waiter. */
static const char b2r_wait_text[] =
	".param ptr out\n"
	WARP0_AWAITS_WARP1_AT_BAR3
	"        R2B.BAR 0x3, RZ ;\n"
	"        B2R.BAR R5, 0x3 ;\n"
	"        R2B.BAR 0x3, R3 ;\n"
	"        BAR.SYNC 0x3, 0x40 ;\n"
	"        B2R.BAR R6, 0x3 ;\n"
	"        BRA `(.store) ;\n"
	".waiter:\n"
	"        BAR.SYNC 0x3, 0x40 ;\n"
	"        MOV R3, 0x1 ;\n"
	"        MOV R5, 0x1 ;\n"
	"        MOV R6, 0x1 ;\n"
	LANE0_STORES_AT("0xc")
	"        STG [R22.64], R3 ;\n"
	"        STG [R22.64+0x4], R5 ;\n"
	"        STG [R22.64+0x8], R6 ;\n"
	"        EXIT ;\n";

START_TEST(b2r_r2b_with_waiter)
{
	th_kernel t;
	th_load(&t, b2r_wait_text, "b2rwait.we", "main");
	const uint32_t grid = 16;
	uint32_t out[16 * 6];
	we_devptr dout = th_buf_new(&t, "out", NULL, sizeof out, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		run_two_warp_ctas(&t, grid, e, dout, out, sizeof out);
		const uint32_t saved = W_ARRIVALS(1) | W_EXPECTED(2) | W_KIND_SYNC;
		for (uint32_t c = 0; c < grid; c++) {
			const uint32_t *o = out + c * 6;
			CHECK((o[0] & W_SYNC_FIELDS) == saved && o[1] == 0 && (o[2] & W_SYNC_FIELDS) == W_PHASE,
			      "[%s] CTA %u: saved 0x%08x (fields want 0x%08x), cleared 0x%08x (want 0), after 0x%08x (fields want 0x%08x)",
			      th_name(e), c, o[0], saved, o[1], o[2], W_PHASE);
			CHECK(o[3] == 1 && o[4] == 1 && o[5] == 1, "[%s] CTA %u: the waiter did not finish",
			      th_name(e), c);
		}
	}
	th_close(&t);
}
END_TEST

/* A phase of count 0xfe0 reaches 127 arrivals, the most a 12-bit count
 * allows (a warp arrives once per execution, here BAR.ARV in a loop):
 * warp 1 waits on barrier 3, warp 0 arrives 100 more times, saves the
 * state with B2R.BAR, clears it, restores it with R2B.BAR, arrives 25
 * more times and completes the phase with its BAR.SYNC, the 127th.  A
 * 6-bit arrivals field restored 100 as 36 and the phase never completed
 * (issue 15: a deadlock). */
static const char b2r_127_text[] =
	".param ptr out           // u32[4] per warp\n"
	WARP0_AWAITS_WARP1_AT_BAR3
	"        MOV R5, RZ ;\n"
	".first:\n"
	"        BAR.ARV 0x3, 0xfe0 ;\n"
	"        IADD3 R5, R5, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R5, 0x64, PT ;\n"
	"   @P1  BRA `(.first) ;                              // arrivals 2..101\n"
	"        B2R.BAR R6, 0x3 ;\n"
	"        R2B.BAR 0x3, RZ ;\n"
	"        B2R.BAR R7, 0x3 ;\n"
	"        R2B.BAR 0x3, R6 ;\n"
	".second:\n"
	"        BAR.ARV 0x3, 0xfe0 ;\n"
	"        IADD3 R5, R5, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R5, 0x7d, PT ;\n"
	"   @P1  BRA `(.second) ;                             // arrivals 102..126\n"
	"        B2R.BAR R8, 0x3 ;\n"
	"        BAR.SYNC 0x3, 0xfe0 ;                        // the 127th: completes\n"
	"        B2R.BAR R9, 0x3 ;\n"
	"        BRA `(.store) ;\n"
	".waiter:\n"
	"        BAR.SYNC 0x3, 0xfe0 ;\n"
	"        MOV R6, 0x1 ;\n"
	"        MOV R7, 0x1 ;\n"
	"        MOV R8, 0x1 ;\n"
	"        MOV R9, 0x1 ;\n"
	LANE0_STORES_AT("0x10")
	"        STG [R22.64], R6 ;\n"
	"        STG [R22.64+0x4], R7 ;\n"
	"        STG [R22.64+0x8], R8 ;\n"
	"        STG [R22.64+0xc], R9 ;\n"
	"        EXIT ;\n";

START_TEST(b2r_r2b_127_arrivals)
{
	th_kernel t;
	th_load(&t, b2r_127_text, "b2r127.we", "main");
	const uint32_t grid = 8;
	uint32_t out[8 * 8];
	we_devptr dout = th_buf_new(&t, "out", NULL, sizeof out, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const char *en = th_name(e);
		run_two_warp_ctas(&t, grid, e, dout, out, sizeof out);
		const uint32_t saved = W_ARRIVALS(101) | W_EXPECTED(127) | W_KIND_SYNC;
		for (uint32_t c = 0; c < grid; c++) {
			const uint32_t *o = out + c * 8;
			CHECK((o[0] & W_SYNC_FIELDS) == saved, "[%s] CTA %u: saved 0x%08x, want 0x%08x", en, c,
			      o[0], saved);
			CHECK(o[1] == 0, "[%s] CTA %u: cleared 0x%08x, want 0", en, c, o[1]);
			CHECK((o[2] & W_SYNC_FIELDS) == (saved + 25),
			      "[%s] CTA %u: 126 arrivals 0x%08x, want 0x%08x", en, c, o[2], saved + 25);
			CHECK((o[3] & W_SYNC_FIELDS) == W_PHASE, "[%s] CTA %u: completed 0x%08x, want 0x%08x", en, c,
			      o[3], W_PHASE);
			for (unsigned k = 4; k < 8; k++)
				CHECK(o[k] == 1, "[%s] CTA %u: the waiter did not finish", en, c);
		}
	}
	th_close(&t);
}
END_TEST

/* B2R.WARP after BAR.RED: the warp's copy of the barrier state with the
 * valid bit and the result; R2B.WARP restores a saved copy (context
 * switch) and crafted words, read back by BAR.RESULT and B2R.WARP. */
static const char b2r_warp_text[] =
	".param ptr words         // u32[6]: words for R2B.WARP\n"
	".param ptr out           // u32[24] per warp\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_LANEID ;\n"
	"        ISETP.LT.U32.AND P0, PT, R1, 0x5, PT ;      // 5 lanes per warp\n"
	"        BAR.RED.POPC 0x1, 0x40, P0 ;\n"
	"        B2R.WARP R2 ;\n"
	"        BAR.RESULT R3, P1 ;\n"
	"        BAR.RED.AND 0x6, 0x0, P0 ;\n"
	"        B2R.WARP R4, 0x0 ;\n"
	"        BAR.RED.OR 0x6, 0x0, P0 ;\n"
	"        B2R.WARP R5, 0x6 ;\n"
	"        BAR.RED.AND 0x7, 0x40, PT ;\n"
	"        B2R.WARP R6 ;\n"
	"        BAR.RED.OR 0x8, 0x40, !PT ;\n"
	"        B2R.WARP R7 ;\n"
	"        R2B.WARP R2 ;                                // restore the POPC copy\n"
	"        BAR.RESULT R8, P2 ;\n"
	"        B2R.WARP R9 ;\n"
	"        P2R R10, PR, RZ, 0x6 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        SHF.R.U32.HI R11, RZ, 0x5, R0 ;\n"
	"        IMAD R12, R11, 0x60, RZ ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[22:23], R12, 0x1, R[22:23] ;\n"
	"        STG [R22.64], R2 ;\n"
	"        STG [R22.64+0x4], R3 ;\n"
	"        STG [R22.64+0x8], R4 ;\n"
	"        STG [R22.64+0xc], R5 ;\n"
	"        STG [R22.64+0x10], R6 ;\n"
	"        STG [R22.64+0x14], R7 ;\n"
	"        STG [R22.64+0x18], R8 ;\n"
	"        STG [R22.64+0x1c], R9 ;\n"
	"        STG [R22.64+0x20], R10 ;\n"
	"        MOV R13, RZ ;\n"
	"        MOV R18, 0x1 ;\n"
	".next:\n"
	"        LDG R14, [R20.64] ;\n"
	"        R2B.WARP 0x4, R14 ;\n"
	"        B2R.WARP R15 ;\n"
	"        BAR.RESULT R16, P3 ;\n"
	"        SEL R17, R18, RZ, P3 ;\n"
	"        STG [R22.64+0x24], R15 ;\n"
	"        STG [R22.64+0x28], R16 ;\n"
	"        STG [R22.64+0x2c], R17 ;\n"
	"        IADD3 R20, P4, PT, R20, 0x4, RZ ;\n"
	"        IADD3.X R21, RZ, R21, RZ, P4, !PT ;\n"
	"        IADD3 R22, P4, PT, R22, 0xc, RZ ;\n"
	"        IADD3.X R23, RZ, R23, RZ, P4, !PT ;\n"
	"        IADD3 R13, R13, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P5, PT, R13, 0x5, PT ;\n"
	"   @P5  BRA `(.next) ;\n"
	"        EXIT ;\n";

START_TEST(b2r_r2b_warp)
{
	th_kernel t;
	th_load(&t, b2r_warp_text, "b2rwarp.we", "main");
	const uint32_t words[5] = {
		W_VALID | W_OP(OP_POPC) | W_POPC(77),
		W_VALID | W_OP(OP_POPC),                   /* popcount 0        */
		W_VALID | W_OP(OP_AND) | W_AND,            /* AND true          */
		W_VALID | W_OP(OP_AND) | W_POPC(3),        /* AND false, OR true */
		W_VALID | W_OP(OP_OR) | W_POPC(3),         /* OR true: popc > 0 */
	};
	const uint32_t want_rd[5] = { 77, 0, ~0u, 0, ~0u }, want_pu[5] = { 1, 0, 1, 0, 1 };
	uint32_t out[2 * 24];
	th_buf_new(&t, "words", words, sizeof words, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, sizeof out, 0);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const char *en = th_name(e);
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, sizeof out), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(1), th_dim1(64), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, 5);
		th_get(&t, out, dout, sizeof out);
		for (unsigned w = 0; w < 2; w++) {
			const uint32_t *o = out + w * 24;
			/* POPC over 64 threads (5 true lanes a warp) on barrier 1 */
			const uint32_t popc = W_VALID | W_ARRIVALS(2) | W_EXPECTED(2) | W_KIND_RED | W_OP(OP_POPC) |
					      W_POPC(10);
			CHECK((o[0] & ~W_PHASE) == popc, "[%s] warp %u: B2R.WARP after POPC 0x%08x, want 0x%08x",
			      en, w, o[0], popc);
			CHECK(o[1] == 10, "[%s] warp %u: BAR.RESULT after POPC = %u", en, w, o[1]);
			/* AND (false), then OR (true) on barrier 6 with cnt = 0 */
			const uint32_t and6 = W_VALID | W_ARRIVALS(2) | W_KIND_RED | W_OP(OP_AND) | W_POPC(10);
			CHECK((o[2] & ~W_PHASE) == and6, "[%s] warp %u: after AND 0x%08x, want 0x%08x", en, w,
			      o[2], and6);
			const uint32_t or6 = W_VALID | W_ARRIVALS(2) | W_KIND_RED | W_OP(OP_OR) | W_POPC(10);
			CHECK((o[3] & ~W_PHASE) == or6, "[%s] warp %u: after OR 0x%08x, want 0x%08x", en, w,
			      o[3], or6);
			CHECK((o[2] & W_PHASE) != (o[3] & W_PHASE), "[%s] warp %u: phases of barrier 6 0x%08x 0x%08x",
			      en, w, o[2], o[3]);
			/* AND over PT (true), OR over !PT (false) */
			const uint32_t and7 = W_VALID | W_ARRIVALS(2) | W_EXPECTED(2) | W_KIND_RED | W_OP(OP_AND) | W_AND |
					      W_POPC(64);
			CHECK((o[4] & ~W_PHASE) == and7, "[%s] warp %u: AND PT 0x%08x, want 0x%08x", en, w, o[4],
			      and7);
			const uint32_t or8 = W_VALID | W_ARRIVALS(2) | W_EXPECTED(2) | W_KIND_RED | W_OP(OP_OR);
			CHECK((o[5] & ~W_PHASE) == or8, "[%s] warp %u: OR !PT 0x%08x, want 0x%08x", en, w, o[5],
			      or8);
			/* the POPC copy restored by R2B.WARP */
			CHECK(o[6] == 10, "[%s] warp %u: BAR.RESULT after R2B.WARP = %u, want 10", en, w, o[6]);
			CHECK(o[7] == o[0], "[%s] warp %u: B2R.WARP after R2B.WARP 0x%08x, want 0x%08x", en, w,
			      o[7], o[0]);
			CHECK(o[8] == 0x6, "[%s] warp %u: P1, P2 = 0x%x, want both true", en, w, o[8]);
			for (unsigned k = 0; k < 5; k++) {
				CHECK(o[9 + 3 * k] == words[k], "[%s] warp %u: R2B.WARP/B2R.WARP 0x%08x gave 0x%08x",
				      en, w, words[k], o[9 + 3 * k]);
				CHECK(o[10 + 3 * k] == want_rd[k] && o[11 + 3 * k] == want_pu[k],
				      "[%s] warp %u: BAR.RESULT of 0x%08x: Rd 0x%x pu %u, want 0x%x %u", en, w,
				      words[k], o[10 + 3 * k], o[11 + 3 * k], want_rd[k], want_pu[k]);
			}
		}
	}
	th_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* BAR.SYNC and BAR.ARV in all four operand forms (I, RR, RRI, RIR),    */
/* BAR.RED in the Rb, imm form (RRI); ids and counts taken from the     */
/* low 4 and 12 bits of registers whose other bits are set              */

/* 128-thread CTAs (4 warps, every count 0x80 or 0 = all of them).
 * Part 1: six rounds of STS, BAR.SYNC (one form each), LDS of the word
 * of thread (tid + 32) % 128, double buffered.  Part 2: odd warps
 * produce (STS, BAR.ARV, BAR.SYNC), even warps consume (BAR.SYNC, LDS,
 * BAR.ARV), four rounds with a forward and a back barrier each, ARV in
 * every form.  Part 3: BAR.RED Rb, imm, Pp.  Then BAR.SYNC 0x0 and
 * thread 0 saves B2R.BAR of barriers 0..15: the phase parity tells how
 * often each completed (decision 8), so each id is the one meant. */
static const char forms_text[] =
	".param ptr pin           // u32 per thread: bit 0 the BAR.RED predicate\n"
	".param ptr out           // u32[5] per thread\n"
	".param ptr state         // u32[16] per CTA: B2R.BAR 0..15 at the end\n"
	".shared 1024\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        SHF.R.U32.HI R3, RZ, 0x5, R0 ;              // warp\n"
	"        IADD3 R7, R0, 0x20, RZ ;\n"
	"        LOP3.LUT R7, R7, 0x7f, RZ, 0xc0, !PT ;      // partner (tid + 32) % 128\n"
	"        SHF.L.U32 R7, R7, 0x2, RZ ;\n"
	"        SHF.L.U32 R8, R0, 0x2, RZ ;\n"
	"        IMAD R9, R1, 0x10000, RZ ;\n"
	"        IMAD R9, R0, 0x10, R9 ;                     // ctaid << 16 | tid << 4\n"
	"        MOV R10, RZ ;\n"
	"        MOV R20, 0xfffffff2 ;                       // id 2\n"
	"        MOV R21, 0xfffff080 ;                       // count 0x80\n"
	"        MOV R22, 0x12345673 ;                       // id 3\n"
	"        MOV R23, 0xabcde080 ;                       // count 0x80\n"
	"        MOV R24, 0x7ffffff6 ;                       // id 6\n"
	"        MOV R25, 0xfffffff8 ;                       // id 8\n"
	"        MOV R26, 0x00abcde9 ;                       // id 9\n"
	"        MOV R27, 0x8000000b ;                       // id 11\n"
	"        MOV R28, 0xfffffffc ;                       // id 12\n"
	"        MOV R29, 0xfedcba9f ;                       // id 15\n"
	"        MOV R30, 0x55555555 ;                       // id 5\n"
	// part 1: BAR.SYNC
	"        STS [R8], R9 ;\n"
	"        BAR.SYNC 0x1, 0x80 ;                        // I\n"
	"        LDS R12, [R7] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        IADD3 R11, R9, 0x1, RZ ;\n"
	"        STS [R8+0x200], R11 ;\n"
	"        BAR.SYNC R20, R21 ;                         // RR: id 2, 0x80\n"
	"        LDS R12, [R7+0x200] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        IADD3 R11, R9, 0x2, RZ ;\n"
	"        STS [R8], R11 ;\n"
	"        BAR.SYNC R22, 0x80 ;                        // RRI: id 3\n"
	"        LDS R12, [R7] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        IADD3 R11, R9, 0x3, RZ ;\n"
	"        STS [R8+0x200], R11 ;\n"
	"        BAR.SYNC 0x4, R23 ;                         // RIR: count 0x80\n"
	"        LDS R12, [R7+0x200] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        IADD3 R11, R9, 0x4, RZ ;\n"
	"        STS [R8], R11 ;\n"
	"        BAR.SYNC 0x5 ;                              // I, count 0\n"
	"        LDS R12, [R7] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        IADD3 R11, R9, 0x5, RZ ;\n"
	"        STS [R8+0x200], R11 ;\n"
	"        BAR.SYNC R24 ;                              // RRI, count 0: id 6\n"
	"        LDS R12, [R7+0x200] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        MOV R13, R10 ;\n"
	// part 2: BAR.ARV -> BAR.SYNC, forward ids 7-10, back ids 11-14
	"        MOV R10, RZ ;\n"
	"        LOP3.LUT R14, R3, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R14, RZ, PT ;      // odd warp: producer\n"
	"   @!P0 BRA `(.cons) ;\n"
	"        IADD3 R11, R9, 0x8, RZ ;\n"
	"        STS [R8], R11 ;\n"
	"        BAR.ARV 0x7, 0x80 ;                         // I\n"
	"        BAR.SYNC R27, R21 ;                         // RR: id 11\n"
	"        IADD3 R11, R9, 0x9, RZ ;\n"
	"        STS [R8+0x200], R11 ;\n"
	"        BAR.ARV R25, R21 ;                          // RR: id 8\n"
	"        BAR.SYNC R28, 0x80 ;                        // RRI: id 12\n"
	"        IADD3 R11, R9, 0xa, RZ ;\n"
	"        STS [R8], R11 ;\n"
	"        BAR.ARV R26, 0x80 ;                         // RRI: id 9\n"
	"        BAR.SYNC 0xd, R23 ;                         // RIR\n"
	"        IADD3 R11, R9, 0xb, RZ ;\n"
	"        STS [R8+0x200], R11 ;\n"
	"        BAR.ARV 0xa, R23 ;                          // RIR\n"
	"        BAR.SYNC 0xe, 0x80 ;                        // I\n"
	"        BRA `(.red) ;\n"
	".cons:  BAR.SYNC 0x7, 0x80 ;\n"
	"        LDS R12, [R7] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        BAR.ARV R27, R21 ;\n"
	"        BAR.SYNC R25, R21 ;\n"
	"        LDS R12, [R7+0x200] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        BAR.ARV R28, 0x80 ;\n"
	"        BAR.SYNC R26, 0x80 ;\n"
	"        LDS R12, [R7] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        BAR.ARV 0xd, R23 ;\n"
	"        BAR.SYNC 0xa, R23 ;\n"
	"        LDS R12, [R7+0x200] ;\n"
	"        IMAD R10, R10, 0x3, R12 ;\n"
	"        BAR.ARV 0xe, 0x80 ;\n"
	// part 3: BAR.RED Rb, imm, Pp (id 15; id 5 again, now RED, count 0)
	".red:   S2R R2, SR_NTID.X ;\n"
	"        IMAD R4, R1, R2, R0 ;                       // global thread\n"
	"        MOV R16, c[0x0][0x0] ;\n"
	"        MOV R17, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[16:17], R4, 0x4, R[16:17] ;\n"
	"        LDG R5, [R16.64] ;\n"
	"        LOP3.LUT R5, R5, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, R5, RZ, PT ;\n"
	"        BAR.RED.POPC R29, 0x80, P1 ;\n"
	"        BAR.RESULT R15, P2 ;\n"
	"        BAR.RED.OR R30, 0x0, !P1 ;\n"
	"        BAR.RESULT R18, P3 ;\n"
	"        P2R R19, PR, RZ, 0xc ;\n"
	"        MOV R16, c[0x0][0x8] ;\n"
	"        MOV R17, c[0x0][0xc] ;\n"
	"        IMAD R4, R4, 0x5, RZ ;\n"
	"        IMAD.WIDE.U32 R[16:17], R4, 0x4, R[16:17] ;\n"
	"        STG [R16.64], R13 ;\n"
	"        STG [R16.64+0x4], R10 ;\n"
	"        STG [R16.64+0x8], R15 ;\n"
	"        STG [R16.64+0xc], R18 ;\n"
	"        STG [R16.64+0x10], R19 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        ISETP.NE.U32.AND P4, PT, R0, RZ, PT ;\n"
	"   @P4  EXIT ;\n"
	"        MOV R16, c[0x0][0x10] ;\n"
	"        MOV R17, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[16:17], R1, 0x40, R[16:17] ;\n"
	"        B2R.BAR R4, 0x0 ;\n"
	"        STG [R16.64], R4 ;\n"
	"        B2R.BAR R4, 0x1 ;\n"
	"        STG [R16.64+0x4], R4 ;\n"
	"        B2R.BAR R4, 0x2 ;\n"
	"        STG [R16.64+0x8], R4 ;\n"
	"        B2R.BAR R4, 0x3 ;\n"
	"        STG [R16.64+0xc], R4 ;\n"
	"        B2R.BAR R4, 0x4 ;\n"
	"        STG [R16.64+0x10], R4 ;\n"
	"        B2R.BAR R4, 0x5 ;\n"
	"        STG [R16.64+0x14], R4 ;\n"
	"        B2R.BAR R4, 0x6 ;\n"
	"        STG [R16.64+0x18], R4 ;\n"
	"        B2R.BAR R4, 0x7 ;\n"
	"        STG [R16.64+0x1c], R4 ;\n"
	"        B2R.BAR R4, 0x8 ;\n"
	"        STG [R16.64+0x20], R4 ;\n"
	"        B2R.BAR R4, 0x9 ;\n"
	"        STG [R16.64+0x24], R4 ;\n"
	"        B2R.BAR R4, 0xa ;\n"
	"        STG [R16.64+0x28], R4 ;\n"
	"        B2R.BAR R4, 0xb ;\n"
	"        STG [R16.64+0x2c], R4 ;\n"
	"        B2R.BAR R4, 0xc ;\n"
	"        STG [R16.64+0x30], R4 ;\n"
	"        B2R.BAR R4, 0xd ;\n"
	"        STG [R16.64+0x34], R4 ;\n"
	"        B2R.BAR R4, 0xe ;\n"
	"        STG [R16.64+0x38], R4 ;\n"
	"        B2R.BAR R4, 0xf ;\n"
	"        STG [R16.64+0x3c], R4 ;\n"
	"        EXIT ;\n";

START_TEST(operand_forms)
{
	th_kernel t;
	th_load(&t, forms_text, "forms.we", "main");
	const uint32_t grid = 200, block = 128, n = grid * block;
	uint32_t *pin = malloc(n * 4), *out = malloc(n * 20), *state = malloc(grid * 64);
	ck_assert(pin && out && state);
	th_rng_seed(11);
	for (uint32_t i = 0; i < n; i++) /* every 4th CTA: all true */
		pin[i] = (i / block) % 4 == 0 ? 1u : th_rng() & 1u;
	th_buf_new(&t, "pin", pin, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 20, 0);
	we_devptr dstate = th_buf_new(&t, "state", NULL, grid * 64, 0);
	/* completions per id: 0, 1-4, 6: one SYNC; 5: SYNC then RED; 7-14:
	 * one ARV/SYNC phase; 15: one RED */
	static const unsigned done[16] = { 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const char *en = th_name(e);
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, n * 20), WE_OK);
		ck_assert_int_eq(we_memset(t.dev, dstate, 0xa5, grid * 64), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, (uint64_t)grid * 17);
		th_get(&t, out, dout, n * 20);
		th_get(&t, state, dstate, grid * 64);
		for (uint32_t c = 0; c < grid; c++) {
			uint32_t popc = 0;
			for (uint32_t i = 0; i < block; i++)
				popc += pin[c * block + i];
			for (uint32_t tid = 0; tid < block; tid++) {
				const uint32_t *o = &out[(c * block + tid) * 5], p = (tid + 32) % block;
				const uint32_t base = c << 16 | p << 4;
				uint32_t sync = 0, arv = 0;
				for (uint32_t k = 0; k < 6; k++)
					sync = sync * 3 + base + k;
				for (uint32_t k = 0; (tid / 32) % 2 == 0 && k < 4; k++)
					arv = arv * 3 + base + 8 + k;
				uint32_t want[5] = { sync, arv, popc, popc == block ? 0 : ~0u,
						     (uint32_t)(popc != 0) << 2 | (uint32_t)(popc != block) << 3 };
				for (unsigned k = 0; k < 5; k++)
					CHECK(o[k] == want[k], "[%s] CTA %u thread %u: word %u = 0x%08x, want 0x%08x",
					      en, c, tid, k, o[k], want[k]);
			}
			for (unsigned id = 0; id < 16; id++)
				CHECK(state[c * 16 + id] == (done[id] & 1u) << 31,
				      "[%s] CTA %u: B2R.BAR of barrier %u = 0x%08x, want phase parity %u", en, c, id,
				      state[c * 16 + id], done[id] & 1u);
		}
	}
	free(pin);
	free(out);
	free(state);
	th_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* memory-fence semantics through global memory (decision 9)          */

/* Every thread stores a word of global memory, and reads the word of
 * thread (tid + 32) % ntid, in another warp, after a barrier: BAR.SYNC
 * (part 1), BAR.RED (part 2, whose second BAR.RED.OR also tells whether
 * any thread of the CTA read a stale word), and BAR.ARV -> BAR.SYNC
 * (part 3: odd warps store and BAR.ARV, even warps BAR.SYNC and read; a
 * back barrier before the next store).  `rounds` rounds each, new values
 * every round: v = gtid + round * 0x9e3779b1 (+ 0x1234567 in part 2,
 * + 0x2345678 in part 3).  ntid: a multiple of 64. */
static const char gfence_text[] =
	".param u32 rounds\n"
	".param ptr buf           // u32 per thread\n"
	".param ptr out           // u32[4] per thread\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R3, R1, R2, R0 ;                       // gtid\n"
	"        IADD3 R4, R0, 0x20, RZ ;\n"
	"        ISETP.GE.U32.AND P0, PT, R4, R2, PT ;\n"
	"   @P0  IADD3 R4, R4, -R2, RZ ;\n"
	"        IMAD R4, R1, R2, R4 ;                       // the partner's gtid\n"
	"        MOV R20, c[0x0][0x8] ;\n"
	"        MOV R21, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[22:23], R3, 0x4, R[20:21] ;\n"
	"        IMAD.WIDE.U32 R[24:25], R4, 0x4, R[20:21] ;\n"
	"        MOV R9, 0x9e3779b1 ;\n"
	"        MOV R11, RZ ;\n"
	"        MOV R12, RZ ;\n"
	"        MOV R13, RZ ;\n"
	"        MOV R14, RZ ;\n"
	"        MOV R10, RZ ;\n"
	".sync:  IMAD R5, R10, R9, R3 ;\n"
	"        STG [R22.64], R5 ;\n"
	"        BAR.SYNC 0x1 ;\n"
	"        LDG R6, [R24.64] ;\n"
	"        IMAD R11, R11, 0x3, R6 ;\n"
	"        BAR.SYNC 0x2 ;                              // read before the next store\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R10, c[0x0][0x0], PT ;\n"
	"   @P1  BRA `(.sync) ;\n"
	"        MOV R10, RZ ;\n"
	".red:   IMAD R5, R10, R9, R3 ;\n"
	"        IADD3 R5, R5, 0x1234567, RZ ;\n"
	"        STG [R22.64], R5 ;\n"
	"        BAR.RED.AND 0x3, 0x0, PT ;\n"
	"        LDG R6, [R24.64] ;\n"
	"        IMAD R12, R12, 0x3, R6 ;\n"
	"        IMAD R7, R10, R9, R4 ;\n"
	"        IADD3 R7, R7, 0x1234567, RZ ;               // what the partner stored\n"
	"        ISETP.NE.U32.AND P2, PT, R6, R7, PT ;\n"
	"        BAR.RED.OR 0x4, 0x0, P2 ;\n"
	"        BAR.RESULT R8, P3 ;\n"
	"   @P3  IADD3 R13, R13, 0x1, RZ ;                   // a stale read in the CTA\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R10, c[0x0][0x0], PT ;\n"
	"   @P1  BRA `(.red) ;\n"
	"        MOV R10, RZ ;\n"
	"        SHF.R.U32.HI R8, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R8, R8, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P4, PT, R8, RZ, PT ;      // odd warp: producer\n"
	"   @!P4 BRA `(.cons) ;\n"
	".prod:  IMAD R5, R10, R9, R3 ;\n"
	"        IADD3 R5, R5, 0x2345678, RZ ;\n"
	"        STG [R22.64], R5 ;\n"
	"        BAR.ARV 0x5, R2 ;                           // release, no wait\n"
	"        BAR.SYNC 0x6, R2 ;                          // consumers have read\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R10, c[0x0][0x0], PT ;\n"
	"   @P1  BRA `(.prod) ;\n"
	"        BRA `(.done) ;\n"
	".cons:  BAR.SYNC 0x5, R2 ;\n"
	"        LDG R6, [R24.64] ;\n"
	"        IMAD R14, R14, 0x3, R6 ;\n"
	"        BAR.ARV 0x6, R2 ;\n"
	"        IADD3 R10, R10, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R10, c[0x0][0x0], PT ;\n"
	"   @P1  BRA `(.cons) ;\n"
	".done:  MOV R26, c[0x0][0x10] ;\n"
	"        MOV R27, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[26:27], R3, 0x10, R[26:27] ;\n"
	"        STG [R26.64], R11 ;\n"
	"        STG [R26.64+0x4], R12 ;\n"
	"        STG [R26.64+0x8], R13 ;\n"
	"        STG [R26.64+0xc], R14 ;\n"
	"        EXIT ;\n";

START_TEST(global_fence)
{
	th_kernel t;
	th_load(&t, gfence_text, "gfence.we", "main");
	const uint32_t grid = 2000, block = 256, n = grid * block, rounds = 3;
	const uint32_t K = 0x9e3779b1u;
	uint32_t *out = malloc((size_t)n * 16);
	ck_assert(out);
	we_devptr dbuf = th_buf_new(&t, "buf", NULL, (size_t)n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, (size_t)n * 16, 0);
	th_u32(&t, "rounds", rounds);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		const char *en = th_name(e);
		ck_assert_int_eq(we_memset(t.dev, dbuf, 0, (size_t)n * 4), WE_OK);
		ck_assert_int_eq(we_memset(t.dev, dout, 0xa5, (size_t)n * 16), WE_OK);
		we_launch_stats s;
		launch_ok(&t, th_dim1(grid), th_dim1(block), th_id(e), &s);
		ck_assert_uint_eq(s.barriers, (uint64_t)grid * 6 * rounds);
		th_get(&t, out, dout, (size_t)n * 16);
		for (uint32_t c = 0; c < grid; c++)
			for (uint32_t tid = 0; tid < block; tid++) {
				const uint32_t g = c * block + tid, pg = c * block + (tid + 32) % block;
				uint32_t want[4] = { 0, 0, 0, 0 };
				for (uint32_t r = 0; r < rounds; r++) {
					want[0] = want[0] * 3 + pg + r * K;
					want[1] = want[1] * 3 + pg + r * K + 0x1234567u;
					if ((tid / 32) % 2 == 0)
						want[3] = want[3] * 3 + pg + r * K + 0x2345678u;
				}
				static const char *const what[4] = { "BAR.SYNC sum", "BAR.RED sum",
								     "rounds with a stale read (BAR.RED.OR)",
								     "BAR.ARV -> BAR.SYNC sum" };
				for (unsigned k = 0; k < 4; k++)
					CHECK(out[g * 4 + k] == want[k], "[%s] CTA %u thread %u: %s = 0x%08x, want 0x%08x",
					      en, c, tid, what[k], out[g * 4 + k], want[k]);
			}
	}
	free(out);
	th_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* exceptions: WE_ERR_EXCEPTION and a report naming the barrier and the */
/* values, under every engine                                          */

static void expect_exception(const char *text, uint32_t block, const char *const *parts)
{
	/* decision 5: the report names the CTA, the warp and the PC too */
	static const char *const common[] = { "barrier exception", "CTA (", "warp ", "PC 0x", NULL };
	th_kernel t;
	th_load(&t, text, "exc.we", "main");
	for (size_t e = 0; e < TH_NENGINES; e++) {
		we_status st = launch(&t, th_dim1(2), th_dim1(block), th_id(e), 1000000, NULL);
		th_expect_report(&t, st, WE_ERR_EXCEPTION, common, th_name(e));
		th_expect_report(&t, st, WE_ERR_EXCEPTION, parts, th_name(e));
	}
	th_close(&t);
}

/* Warp 0 arrives at barrier 2 first (then signals barrier 1), so the
 * order of arrivals is fixed under either engine. */
#define ORDERED_PROLOGUE                                       \
	"        S2R R0, SR_TID.X ;\n"                           \
	"        SHF.R.U32.HI R0, RZ, 0x5, R0 ;\n"               \
	"        ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;\n"        \
	"   @P0  BRA `(.w1) ;\n"

START_TEST(exc_count_mismatch)
{
	const char *parts[] = { "barrier 2", "count 64", "96", "warp 1", NULL };
	expect_exception(ORDERED_PROLOGUE
			 "        MOV R1, 0x60 ;\n"
			 "        BAR.ARV 0x2, R1 ;                 // count 96 from a register\n"
			 "        BAR.ARV 0x1, 0x40 ;\n"
			 "        EXIT ;\n"
			 ".w1:    BAR.SYNC 0x1, 0x40 ;\n"
			 "        BAR.SYNC 0x2, 0x40 ;              // 64 in the same phase\n"
			 "        EXIT ;\n",
			 64, parts);
	/* cnt = 0 after a counted first arrival */
	const char *parts0[] = { "barrier 4", "count 0", "64", "warp 1", NULL };
	expect_exception(ORDERED_PROLOGUE
			 "        BAR.ARV 0x4, 0x40 ;\n"
			 "        BAR.ARV 0x1, 0x40 ;\n"
			 "        EXIT ;\n"
			 ".w1:    BAR.SYNC 0x1, 0x40 ;\n"
			 "        BAR.SYNC 0x4 ;\n"
			 "        EXIT ;\n",
			 64, parts0);
}
END_TEST

START_TEST(exc_red_mixed)
{
	const char *parts[] = { "barrier 3", "BAR.RED", "BAR.SYNC", NULL };
	/* RED after ARV */
	expect_exception(ORDERED_PROLOGUE
			 "        BAR.ARV 0x3, 0x40 ;\n"
			 "        BAR.ARV 0x1, 0x40 ;\n"
			 "        EXIT ;\n"
			 ".w1:    BAR.SYNC 0x1, 0x40 ;\n"
			 "        BAR.RED.POPC 0x3, 0x40, PT ;\n"
			 "        EXIT ;\n",
			 64, parts);
	/* SYNC after RED: warp 1 waits in BAR.RED, warp 0 sees it with B2R */
	expect_exception(ORDERED_PROLOGUE
			 ".spin:  B2R.BAR R2, 0x3 ;\n"
			 "        LOP3.LUT R2, R2, 0x3f, RZ, 0xc0, !PT ;\n"
			 "        ISETP.EQ.U32.AND P1, PT, R2, RZ, PT ;\n"
			 "   @P1  BRA `(.spin) ;\n"
			 "        BAR.SYNC 0x3, 0x40 ;\n"
			 "        EXIT ;\n"
			 ".w1:    BAR.RED.OR 0x3, 0x40, PT ;\n"
			 "        EXIT ;\n",
			 64, parts);
	/* different reduction operators in one phase */
	const char *parts_op[] = { "barrier 5", "operator", NULL };
	expect_exception(ORDERED_PROLOGUE
			 ".spin:  B2R.BAR R2, 0x5 ;\n"
			 "        LOP3.LUT R2, R2, 0x3f, RZ, 0xc0, !PT ;\n"
			 "        ISETP.EQ.U32.AND P1, PT, R2, RZ, PT ;\n"
			 "   @P1  BRA `(.spin) ;\n"
			 "        BAR.RED.OR 0x5, 0x40, PT ;\n"
			 "        EXIT ;\n"
			 ".w1:    BAR.RED.AND 0x5, 0x40, PT ;\n"
			 "        EXIT ;\n",
			 64, parts_op);
}
END_TEST

START_TEST(exc_register_count)
{
	const char *p1[] = { "barrier 1", "count 36", "multiple of 32", NULL };
	expect_exception("MOV R1, 0x24 ;\nBAR.SYNC 0x1, R1 ;\nEXIT ;\n", 64, p1);
	/* both from registers (BAR_RR): id 5, count 48 */
	const char *p2[] = { "barrier 5", "count 48", "multiple of 32", NULL };
	expect_exception("MOV R1, 0x5 ;\nMOV R2, 0x30 ;\nBAR.ARV R1, R2 ;\nEXIT ;\n", 64, p2);
	/* two-operand BAR.RED: Rb = id 7 | count 65 << 4 */
	const char *p3[] = { "barrier 7", "count 65", "multiple of 32", NULL };
	expect_exception("MOV R3, 0x417 ;\nBAR.RED.POPC R3, PT ;\nEXIT ;\n", 64, p3);
	/* three warps wait on barrier 1 when the fourth faults on it: the
	 * launch stops with the exception, nobody hangs */
	expect_exception(".spin:  S2R R0, SR_TID.X ;\n"
			 "        SHF.R.U32.HI R0, RZ, 0x5, R0 ;\n"
			 "        ISETP.NE.U32.AND P0, PT, R0, 0x3, PT ;\n"
			 "   @P0  BRA `(.wait) ;\n"
			 "        B2R.BAR R2, 0x1 ;\n"
			 "        LOP3.LUT R2, R2, 0x3f, RZ, 0xc0, !PT ;\n"
			 "        ISETP.NE.U32.AND P1, PT, R2, 0x3, PT ;\n"
			 "   @P1  BRA `(.spin) ;\n"
			 "        MOV R1, 0x24 ;\n"
			 "        BAR.SYNC 0x1, R1 ;\n"
			 "        EXIT ;\n"
			 ".wait:  BAR.SYNC 0x1, 0x80 ;\n"
			 "        EXIT ;\n",
			 128, p1);
	/* only the low 12 bits count: 0x1010 is 16 */
	const char *p4[] = { "count 16", "multiple of 32", NULL };
	expect_exception("MOV R1, 0x1010 ;\nBAR.SYNC 0x1, R1 ;\nEXIT ;\n", 32, p4);
}
END_TEST

START_TEST(exc_arv_count0)
{
	const char *p[] = { "barrier 4", "BAR.ARV", "count > 0", NULL };
	expect_exception("BAR.ARV 0x4, RZ ;\nEXIT ;\n", 64, p);
	/* 0x1000 truncates to 12 bits: 0 */
	expect_exception("MOV R1, 0x1000 ;\nBAR.ARV 0x4, R1 ;\nEXIT ;\n", 64, p);
	/* id and count from registers (BAR_RR): id 4, count 0 */
	const char *pr[] = { "barrier 4", "BAR.ARV", NULL };
	expect_exception("MOV R1, 0x4 ;\nMOV R2, RZ ;\nBAR.ARV R1, R2 ;\nEXIT ;\n", 64, pr);
}
END_TEST

/* ---------------------------------------------------------------- */

static Suite *barkern_suite(void)
{
	Suite *s = suite_create("barkern");
	TCase *k = tcase_create("kernels");
	tcase_set_timeout(k, 600);
	tcase_add_test(k, scan_kernel);
	tcase_add_test(k, transpose_kernel);
	tcase_add_test(k, histogram_kernel);
	tcase_add_test(k, prodcons_kernel);
	suite_add_tcase(s, k);
	TCase *u = tcase_create("barriers");
	tcase_set_timeout(u, 600);
	tcase_add_test(u, bar_red_results);
	tcase_add_test(u, cnt0_exiting_warps);
	tcase_add_test(u, counted_subsets);
	tcase_add_test(u, barrier_reuse_loop);
	tcase_add_test(u, b2r_r2b_bar);
	tcase_add_test(u, b2r_r2b_with_waiter);
	tcase_add_test(u, b2r_r2b_127_arrivals);
	tcase_add_test(u, b2r_r2b_warp);
	tcase_add_test(u, operand_forms);
	tcase_add_test(u, global_fence);
	suite_add_tcase(s, u);
	TCase *x = tcase_create("exceptions");
	tcase_set_timeout(x, 120);
	tcase_add_test(x, exc_count_mismatch);
	tcase_add_test(x, exc_red_mixed);
	tcase_add_test(x, exc_register_count);
	tcase_add_test(x, exc_arv_count0);
	suite_add_tcase(s, x);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(barkern_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
