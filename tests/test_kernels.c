/* test_kernels — runs every kernel of kernels/ through the public API and
 * checks the results against a host reference.  Also checks that runtime
 * exceptions stop a launch with the right status and a precise report. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* A one-dimensional launch of t on engine e with `threads` host threads
 * (0: the default). */
static we_status run1(th_kernel *t, we_engine e, uint32_t grid, uint32_t block, unsigned threads,
		      we_launch_stats *s)
{
	we_launch_config cfg = th_cfg1(e, grid, block);
	cfg.threads = threads;
	return th_launch(t, &cfg, s);
}

/* ---------------------------------------------------------------- */

START_TEST(vecadd)
{
	th_kernel t;
	th_file(&t, "kernels/vecadd.we", "vecadd");
	const we_engine e = th_id(_i);
	const uint32_t n = 10000 * 128 - 77; /* partial last CTA */
	float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(i % 1000) - 3.25f;
	}
	th_u32(&t, "n", n);
	th_buf_new(&t, "a", a, n * 4, 0);
	th_buf_new(&t, "b", b, n * 4, 0);
	we_devptr dc = th_buf_new(&t, "c", NULL, n * 4, 0);
	we_launch_stats s;
	we_status st = run1(&t, e, (n + 127) / 128, 128, 0, &s);
	ck_assert_msg(st == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, c, dc, n * 4), WE_OK);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_msg(c[i] == a[i] + b[i], "c[%u] = %g, want %g", i, c[i], a[i] + b[i]);
	ck_assert_uint_eq(s.ctas, (n + 127) / 128);
	ck_assert_uint_gt(s.warp_insns, 0);
	free(a);
	free(b);
	free(c);
	th_close(&t);
}
END_TEST

START_TEST(ifelse)
{
	th_kernel t;
	th_file(&t, "kernels/ifelse.we", "ifelse");
	const we_engine e = th_id(_i);
	const uint32_t n = 1000 * 96 + 40;
	uint32_t *out = malloc(n * 4), *mask = malloc(n * 4);
	th_u32(&t, "n", n);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	we_devptr dmask = th_buf_new(&t, "mask", NULL, n * 4, 0);
	ck_assert_msg(run1(&t, e, (n + 95) / 96, 96, 0, NULL) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, dout, n * 4), WE_OK);
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, mask, dmask, n * 4), WE_OK);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = (i & 1) ? i + 0x100 : 3 * i;
		ck_assert_msg(out[i] == want, "out[%u] = %u, want %u", i, out[i], want);
		/* lanes that passed the i < n test in this warp */
		uint32_t first = i & ~31u;
		uint32_t cta_end = (i / 96 + 1) * 96;
		uint32_t end = first + 32 < cta_end ? first + 32 : cta_end;
		if (end > n)
			end = n;
		uint32_t m = end - first == 32 ? 0xffffffffu : (1u << (end - first)) - 1u;
		ck_assert_msg(mask[i] == m, "mask[%u] = 0x%08x, want 0x%08x", i, mask[i], m);
	}
	free(out);
	free(mask);
	th_close(&t);
}
END_TEST

static uint32_t collatz_ref(uint32_t x)
{
	uint32_t steps = 0;
	while (x != 1) {
		x = (x & 1) ? 3 * x + 1 : x >> 1;
		if (++steps >= 64)
			return 0xffffffffu;
	}
	return steps;
}

START_TEST(loopbreak)
{
	th_kernel t;
	th_file(&t, "kernels/loopbreak.we", "loopbreak");
	const we_engine e = th_id(_i);
	const uint32_t n = 64 * 1000;
	uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = 1 + (i * 2654435761u) % 100000u;
	th_u32(&t, "n", n);
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	ck_assert_msg(run1(&t, e, n / 64, 64, 0, NULL) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, dout, n * 4), WE_OK);
	unsigned broke = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = collatz_ref(in[i]);
		broke += want == 0xffffffffu;
		ck_assert_msg(out[i] == want, "out[%u] (x=%u) = %u, want %u", i, in[i], out[i], want);
	}
	ck_assert_uint_gt(broke, 0);      /* both exits are exercised */
	ck_assert_uint_lt(broke, n);
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

START_TEST(callret)
{
	th_kernel t;
	th_file(&t, "kernels/callret.we", "callret");
	const we_engine e = th_id(_i);
	const uint32_t n = 32 * 1000 + 5;
	uint32_t *out = malloc(n * 4);
	th_u32(&t, "n", n);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	ck_assert_msg(run1(&t, e, (n + 31) / 32, 32, 0, NULL) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, dout, n * 4), WE_OK);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f1 = i * i + 1, want = (f1 + 7) * (f1 + 7) + 1;
		ck_assert_msg(out[i] == want, "out[%u] = %u, want %u", i, out[i], want);
	}
	free(out);
	th_close(&t);
}
END_TEST

START_TEST(warpreduce)
{
	th_kernel t;
	th_file(&t, "kernels/warpreduce.we", "warpreduce");
	const we_engine e = th_id(_i);
	const uint32_t nwarps = 8 * 1000, n = nwarps * 32;
	uint32_t *in = malloc(n * 4), *sum = malloc(nwarps * 4), *cnt = malloc(nwarps * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = (i * 7919u) % 2000u;
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr ds = th_buf_new(&t, "sum", NULL, nwarps * 4, 0);
	we_devptr dc = th_buf_new(&t, "count", NULL, nwarps * 4, 0);
	ck_assert_msg(run1(&t, e, n / 256, 256, 0, NULL) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, sum, ds, nwarps * 4), WE_OK);
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, cnt, dc, nwarps * 4), WE_OK);
	for (uint32_t w = 0; w < nwarps; w++) {
		uint32_t s = 0, c = 0;
		for (uint32_t l = 0; l < 32; l++) {
			s += in[w * 32 + l];
			c += in[w * 32 + l] > 1000;
		}
		ck_assert_msg(sum[w] == s, "sum[%u] = %u, want %u", w, sum[w], s);
		ck_assert_msg(cnt[w] == c, "count[%u] = %u, want %u", w, cnt[w], c);
	}
	free(in);
	free(sum);
	free(cnt);
	th_close(&t);
}
END_TEST

START_TEST(reduce)
{
	th_kernel t;
	th_file(&t, "kernels/reduce.we", "reduce");
	const we_engine e = th_id(_i);
	const uint32_t nctas = 10000, n = nctas * 256;
	uint32_t *in = malloc(n * 4), *out = malloc(nctas * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = i ^ (i >> 3);
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, nctas * 4, 0);
	we_launch_stats s;
	ck_assert_msg(run1(&t, e, nctas, 256, 0, &s) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, dout, nctas * 4), WE_OK);
	for (uint32_t c = 0; c < nctas; c++) {
		uint32_t want = 0;
		for (uint32_t l = 0; l < 256; l++)
			want += in[c * 256 + l];
		ck_assert_msg(out[c] == want, "out[%u] = %u, want %u", c, out[c], want);
	}
	/* 1 + log2(256) barriers per CTA */
	ck_assert_uint_eq(s.barriers, (uint64_t)nctas * 9);
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

/* The CTA buffers a device keeps from launch to launch (device.h
 * dev_keep_take): launches of reduce with CTAs of 256, 1024 and 64
 * threads, one that faults in between, on one device: every sum, CTA
 * and barrier count right each time. */
START_TEST(kept_across_launches)
{
	th_kernel t;
	th_file(&t, "kernels/reduce.we", "reduce");
	const we_engine e = th_id(_i);
	const uint32_t n = 1u << 18;
	uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = i * 2654435761u;
	th_buf_new(&t, "in", in, n * 4, 0);
	we_devptr dout = th_buf_new(&t, "out", NULL, n * 4, 0);
	static const uint32_t blocks[] = { 256, 1024, 0, 64, 256 };
	for (size_t r = 0; r < sizeof blocks / sizeof blocks[0]; r++) {
		const uint32_t block = blocks[r] ? blocks[r] : 128, nctas = n / block;
		we_launch_config cfg = th_cfg1(e, nctas, block);
		cfg.threads = 2;
		/* (reduce.we declares 1024 bytes of shared memory) */
		cfg.dynamic_shared = block > 256 ? block * 4 - 1024 : 0;
		we_launch_stats s;
		if (!blocks[r]) {
			/* out points nowhere: the CTAs fault at their store */
			const we_param_info *p = th_param(&t, "out");
			we_devptr bad = 8;
			memcpy(t.params + p->offset, &bad, 8);
			ck_assert_int_eq(th_launch(&t, &cfg, &s), WE_ERR_EXCEPTION);
			memcpy(t.params + p->offset, &dout, 8);
			continue;
		}
		ck_assert_msg(th_launch(&t, &cfg, &s) == WE_OK, "%s", we_last_error(t.dev));
		ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, dout, nctas * 4), WE_OK);
		for (uint32_t c = 0; c < nctas; c++) {
			uint32_t want = 0;
			for (uint32_t l = 0; l < block; l++)
				want += in[c * block + l];
			ck_assert_msg(out[c] == want, "launch %zu (block %u): out[%u] = %u, want %u", r, block, c,
				      out[c], want);
		}
		ck_assert_uint_eq(s.ctas, nctas);
		ck_assert_uint_eq(s.barriers, (uint64_t)nctas * (1 + (uint32_t)__builtin_ctz(block)));
	}
	free(in);
	free(out);
	th_close(&t);
}
END_TEST

/* The same launch with 1 and with 2 host threads gives the same bytes. */
START_TEST(threads_agree)
{
	th_kernel t;
	th_file(&t, "kernels/ifelse.we", "ifelse");
	const we_engine e = th_id(_i);
	const uint32_t n = 4096;
	uint32_t *o1 = malloc(n * 4), *o2 = malloc(n * 4);
	th_u32(&t, "n", n);
	we_devptr d = th_buf_new(&t, "out", NULL, n * 4, 0);
	th_buf_new(&t, "mask", NULL, n * 4, 0);
	ck_assert_int_eq(run1(&t, e, n / 64, 64, 1, NULL), WE_OK);
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, o1, d, n * 4), WE_OK);
	ck_assert_int_eq(we_memset(t.dev, d, 0, n * 4), WE_OK);
	ck_assert_int_eq(run1(&t, e, n / 64, 64, 2, NULL), WE_OK);
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, o2, d, n * 4), WE_OK);
	ck_assert_int_eq(memcmp(o1, o2, n * 4), 0);
	free(o1);
	free(o2);
	th_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* runtime exceptions: status and report                              */

/* Load text as t.we and launch it on `grid` CTAs of `block` threads of
 * engine e, with a budget of max_insns instructions. */
static we_status run_text(th_kernel *t, const char *text, uint32_t grid, uint32_t block, uint64_t max_insns,
			  we_engine e)
{
	th_load(t, text, "t.we", NULL);
	we_launch_config cfg = th_cfg1(e, grid, block);
	cfg.max_instructions = max_insns;
	return th_launch(t, &cfg, NULL);
}

static void expect_fault_e(const char *text, uint32_t block, we_status want, const char *const *parts,
			   we_engine e)
{
	th_kernel t;
	we_status st = run_text(&t, text, 3, block, 100000, e);
	th_expect_report(&t, st, want, parts, we_engine_name(e));
	th_close(&t);
}

#define expect_fault(text, block, want, parts) expect_fault_e(text, block, want, parts, th_id(_i))

START_TEST(fault_global_range)
{
	const char *parts[] = { "out-of-range", "global access of 4 bytes at 0x8", "CTA (0,0,0)",
				"warp 0", "lanes 0-31", "PC 0x0010", "LDG R1, [R2.64+0x8]", "t.we:2", NULL };
	expect_fault("MOV R2, RZ\nLDG R1, [R2.64+0x8]\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_shared_range)
{
	const char *parts[] = { "shared access of 4 bytes at 0x40", "outside the CTA's 64 bytes",
				"lanes 3", "STS [R0], R1", NULL };
	expect_fault(".shared 64\nS2R R0, SR_TID.X\nISETP.EQ.AND P0, PT, R0, 0x3, PT\n"
		     "@P0 MOV R0, 0x40\n@!P0 MOV R0, RZ\nSTS [R0], R1\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_misaligned)
{
	const char *parts[] = { "misaligned", "not 4-byte aligned", "LDS R1, [0x2]", NULL };
	expect_fault(".shared 64\nLDS R1, [0x2]\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_local)
{
	const char *parts[] = { "local access of 4 bytes at 0x10", "thread's 16 bytes", NULL };
	expect_fault(".local 16\nSTL [0x10], R1\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_const)
{
	const char *parts[] = { "c[0x0][0x0]", "outside the bank (0 bytes)", NULL };
	expect_fault("MOV R1, c[0x0][0x0]\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_pc)
{
	const char *parts[] = { "PC 0x1000 is outside the kernel's code", NULL };
	expect_fault("BRA 0x1000\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_trap)
{
	const char *parts[] = { "TRAP 0x5 with no trap handler", "lanes 0-15", NULL };
	expect_fault("TRAP 0x5\nEXIT\n", 16, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_barrier_count)
{
	const char *parts[] = { "barrier exception", "count 36 is not a multiple of 32", NULL };
	expect_fault("MOV R1, 0x24\nBAR.SYNC 0x1, R1\nEXIT\n", 64, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_barrier_mismatch)
{
	/* which warp arrives first depends on the host threads in the
	 * warp-threads engine: either count may be the phase's */
	const char *parts[] = { "barrier exception", "barrier 2: count ", " of the phase's first arrival",
				NULL };
	expect_fault("S2R R0, SR_TID.X\nSHF.R.U32.HI R0, RZ, 0x5, R0\nISETP.EQ.AND P0, PT, R0, RZ, PT\n"
		     "@P0 BAR.ARV 0x2, 0x60\n@!P0 BAR.SYNC 0x2, 0x40\nEXIT\n", 64, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_red_mixed)
{
	/* the order of the two kinds depends on which warp arrives first */
	const char *parts[] = { "barrier exception", " mixed with ", "BAR.RED", "BAR.SYNC/ARV", NULL };
	expect_fault("S2R R0, SR_TID.X\nSHF.R.U32.HI R0, RZ, 0x5, R0\nISETP.EQ.AND P0, PT, R0, RZ, PT\n"
		     "@P0 BAR.ARV 0x2, 0x40\n@!P0 BAR.RED.POPC 0x2, 0x40, PT\nEXIT\n", 64, WE_ERR_EXCEPTION,
		     parts);
}
END_TEST

START_TEST(deadlock_exit_before_counted)
{
	/* warp 1 exits; warp 0 waits for a count of 64 that can never come */
	const char *parts[] = { "deadlock", "warp 0: blocked on barrier 3 (count 32, expected 64)",
				"warp 1: exited", NULL };
	expect_fault("S2R R0, SR_TID.X\nISETP.GE.U32.AND P0, PT, R0, 0x20, PT\n@P0 EXIT\n"
		     "BAR.SYNC 0x3, 0x40\nEXIT\n", 64, WE_ERR_DEADLOCK, parts);
}
END_TEST

START_TEST(cnt0_released_by_exit)
{
	/* cnt = 0: warp 1 exits, which completes warp 0's barrier */
	th_kernel t;
	we_status st = run_text(&t, "S2R R0, SR_TID.X\nISETP.GE.U32.AND P0, PT, R0, 0x20, PT\n@P0 EXIT\n"
				"BAR.SYNC 0x0\nEXIT\n", 4, 64, 100000, th_id(_i));
	ck_assert_msg(st == WE_OK, "%s", we_last_error(t.dev));
	th_close(&t);
}
END_TEST

START_TEST(fault_warpsync)
{
	const char *parts[] = { "WARPSYNC exception", "omits executing lanes 0xffff0000", "lanes 16-31", NULL };
	expect_fault("WARPSYNC 0xffff\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_syscall)
{
	const char *parts[] = { "SYSCALL", "no system calls", NULL };
	expect_fault("SYSCALL\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

START_TEST(fault_rtt)
{
	const char *parts[] = { "RTT executed outside a trap handler", NULL };
	expect_fault("RTT\nEXIT\n", 32, WE_ERR_EXCEPTION, parts);
}
END_TEST

/* The brx_test listing of seed 004, verbatim, called from a prologue:
 * lane t takes jump-table entry t % 4 with R4 = t; entry 3 EXITs inside
 * the function, the others RET.ABS to the caller through R[20:21]. */
START_TEST(brx_test_listing)
{
	static const char prologue[] =
		".param ptr out\n"
		"        S2R R0, SR_TID.X ;\n"
		"        LOP3.LUT R6, R0, 0x3, RZ, 0xc0, !PT ;\n"
		"        MOV R4, R0 ;\n"
		"        MOV R10, R0 ;                           // the listing uses R0\n"
		".Lpc:   LEPC R[20:21] ;\n"
		"        IADD3 R20, R20, `(.Lret - .Lpc), RZ ;\n"
		"        BRA `(brx_test) ;\n"
		".Lret:  MOV R2, c[0x0][0x0] ;\n"
		"        MOV R3, c[0x0][0x4] ;\n"
		"        IMAD.WIDE.U32 R[2:3], R10, 0x4, R[2:3] ;\n"
		"        STG [R2.64], R4 ;\n"
		"        EXIT ;\n";
	size_t len;
	char *listing = th_read_source("tests/data/brx_test.s", &len);
	char *text = malloc(sizeof prologue + len);
	ck_assert_ptr_nonnull(text);
	memcpy(text, prologue, sizeof prologue - 1);
	memcpy(text + sizeof prologue - 1, listing, len + 1);
	free(listing);
	th_kernel t;
	th_load(&t, text, "brx_test.s", "main");
	free(text);
	const we_engine e = th_id(_i);
	const uint32_t n = 128;
	uint32_t out[128];
	memset(out, 0xab, sizeof out);
	we_devptr d = th_buf_new(&t, "out", out, sizeof out, 0);
	ck_assert_msg(run1(&t, e, 1, n, 0, NULL) == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, d, sizeof out), WE_OK);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = (i & 3) == 0 ? i + 1 : (i & 3) == 1 ? i << 1 : (i & 3) == 2 ? i - 3 : 0xabababab;
		ck_assert_msg(out[i] == want, "out[%u] = 0x%x, want 0x%x", i, out[i], want);
	}
	th_close(&t);
}
END_TEST

START_TEST(watchdog)
{
	const char *parts[] = { "--max-instructions", NULL };
	expect_fault(".loop:\nBRA `(.loop)\n", 32, WE_ERR_TIMEOUT, parts);
}
END_TEST

START_TEST(launch_limits)
{
	we_device *dev;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	we_module *m;
	ck_assert_int_eq(we_module_load_text(dev, "EXIT\n", 5, "t.we", &m), WE_OK);
	we_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 1025, 1, 1 } };
	ck_assert_int_eq(we_launch(dev, m, NULL, &cfg, NULL, 0, NULL), WE_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(we_last_error(dev), "block (1025,1,1)"));
	cfg.block.x = 32;
	cfg.grid.y = 65536;
	ck_assert_int_eq(we_launch(dev, m, NULL, &cfg, NULL, 0, NULL), WE_ERR_LIMIT);
	cfg.grid.y = 1;
	uint32_t junk = 0;
	ck_assert_int_eq(we_launch(dev, m, NULL, &cfg, &junk, 4, NULL), WE_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(we_last_error(dev), "takes 0 bytes of parameters, 4 given"));
	we_module_destroy(m);
	we_device_destroy(dev);
}
END_TEST

START_TEST(load_rejects_bad_barrier_imm)
{
	we_device *dev;
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	we_module *m = NULL;
	const char *t = "BAR.SYNC 0x1, 0x30\nEXIT\n";
	ck_assert_int_eq(we_module_load_text(dev, t, strlen(t), "t.we", &m), WE_ERR_LOAD);
	ck_assert_ptr_nonnull(strstr(we_last_error(dev), "t.we:1:"));
	ck_assert_ptr_nonnull(strstr(we_last_error(dev), "not a multiple of 32"));
	const char *t2 = "BAR.ARV 0x1, 0x0\nEXIT\n";
	ck_assert_int_eq(we_module_load_text(dev, t2, strlen(t2), "t.we", &m), WE_ERR_LOAD);
	ck_assert_ptr_nonnull(strstr(we_last_error(dev), "BAR.ARV needs a count > 0"));
	we_device_destroy(dev);
}
END_TEST

/* ---------------------------------------------------------------- */
/* grids of any size the ISA allows: up to (2^31-1) x 65535 x 65535 CTAs */

static const we_dim3 max_grid = { 2147483647u, 65535u, 65535u };

/* Peak resident memory of this process so far, in KiB (Linux). */
static long max_rss_kib(void)
{
	struct rusage ru;
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/* What a launch of 1024-thread CTAs on 2 host threads (scheduler) or 2
 * CTA slots (warp-threads: 64 threads) may add to the peak: the buffers
 * of the CTAs in flight and 2 MiB per host thread (its stack, and what a
 * sanitizer keeps per thread), never anything per CTA of the grid. */
static long rss_bound_kib(we_engine e)
{
	return 64L * 1024 + 2048L * (th_engine_has(e, TH_THREAD_PER_WARP) ? 64 : 2);
}

static we_status launch3(th_kernel *t, const char *text, we_dim3 grid, we_dim3 block, we_engine e,
			 double timeout, we_launch_stats *s)
{
	th_load(t, text, "t.we", NULL);
	/* (jit off: the compiled tier, which auto may choose for these
	 * grids, maps LLVM once, some 60 MB that no CTA adds to; the bounds
	 * are on what grows with the CTAs run) */
	we_launch_config cfg = { .grid = grid, .block = block, .engine = e, .timeout = timeout,
				 .threads = 2, .jit = WE_JIT_OFF };
	memset(s, 0, sizeof *s);
	return th_launch(t, &cfg, s);
}

/* CTA (0,0,0) of the largest grid TRAPs with no handler, the others exit:
 * the launch stops after a bounded number of CTAs with one report. */
START_TEST(max_grid_trap)
{
	static const char text[] =
		"        S2R R0, SR_CTAID.X ;\n"
		"        S2R R1, SR_CTAID.Y ;\n"
		"        S2R R2, SR_CTAID.Z ;\n"
		"        LOP3.LUT R3, R0, R1, R2, 0xfe, !PT ;\n"
		"        ISETP.EQ.U32.AND P0, PT, R3, RZ, PT ;\n"
		"   @P0  TRAP 0x1 ;\n"
		"        EXIT ;\n";
	const char *en = th_name(_i);
	long rss0 = max_rss_kib();
	th_kernel t;
	we_launch_stats s;
	we_status st = launch3(&t, text, max_grid, (we_dim3){ 1024, 1, 1 }, th_id(_i), 0, &s);
	const char *msg = we_last_error(t.dev), *json = we_last_report_json(t.dev);
	ck_assert_msg(st == WE_ERR_EXCEPTION, "%s: status %s: %s", en, we_status_name(st), msg);
	ck_assert_msg(th_occurrences(msg, "runtime exception") == 1 && th_occurrences(msg, "\n  CTA (") == 1 &&
		      strstr(msg, "CTA (0,0,0) warp ") && strstr(msg, "TRAP 0x1 with no trap handler"),
		      "%s: report:\n%s", en, msg);
	ck_assert_msg(th_occurrences(json, "\"verdict\"") == 1 && strstr(json, "\"cta\":[0,0,0]"), "%s: %s",
		      en, json);
	/* CTAs are handed out in order and none after the fault: a handful */
	ck_assert_msg(s.ctas >= 1 && s.ctas < 1000000, "%s: %llu CTAs ran", en,
		      (unsigned long long)s.ctas);
	long grew = max_rss_kib() - rss0;
	ck_assert_msg(grew < rss_bound_kib(th_id(_i)), "%s: peak memory grew by %ld KiB", en, grew);
	th_close(&t);
}
END_TEST

/* The largest grid of CTAs that exit at once, under a 0.3 s wall-clock
 * limit: a timeout report, and memory that does not grow with the CTAs
 * run (1023-thread CTAs: 32 warps, the last one partial). */
START_TEST(max_grid_timeout)
{
	const char *en = th_name(_i);
	long rss0 = max_rss_kib();
	th_kernel t;
	we_launch_stats s;
	we_status st = launch3(&t, "EXIT ;\n", max_grid, (we_dim3){ 31, 3, 11 }, th_id(_i), 0.3, &s);
	const char *msg = we_last_error(t.dev);
	ck_assert_msg(st == WE_ERR_TIMEOUT, "%s: status %s: %s", en, we_status_name(st), msg);
	ck_assert_msg(th_occurrences(msg, "wall-clock limit") == 1, "%s: report:\n%s", en, msg);
	ck_assert_msg(th_occurrences(we_last_report_json(t.dev), "\"verdict\":\"timeout\"") == 1, "%s: %s", en,
		      we_last_report_json(t.dev));
	ck_assert_msg(s.ctas >= 1 && s.seconds < 30, "%s: %llu CTAs in %.1f s", en,
		      (unsigned long long)s.ctas, s.seconds);
	long grew = max_rss_kib() - rss0;
	ck_assert_msg(grew < rss_bound_kib(th_id(_i)), "%s: peak memory grew by %ld KiB over %llu CTAs", en, grew,
		      (unsigned long long)s.ctas);
	th_close(&t);
}
END_TEST

/* A grid of 2 x 65535 x 3 CTAs (y at its limit): thread 0 of every CTA
 * writes its (x, y, z) at its linear index, all checked. */
START_TEST(tall_grid_ctaids)
{
	static const char text[] =
		".param ptr out           // u32[3] per CTA\n"
		"        S2R R0, SR_TID.X ;\n"
		"        ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;\n"
		"   @P0  EXIT ;\n"
		"        S2R R1, SR_CTAID.X ;\n"
		"        S2R R2, SR_CTAID.Y ;\n"
		"        S2R R3, SR_CTAID.Z ;\n"
		"        S2R R4, SR_NCTAID.X ;\n"
		"        S2R R5, SR_NCTAID.Y ;\n"
		"        IMAD R6, R3, R5, R2 ;                       // z * ny + y\n"
		"        IMAD R6, R6, R4, R1 ;                       // (z * ny + y) * nx + x\n"
		"        IMAD R6, R6, 0x3, RZ ;\n"
		"        MOV R20, c[0x0][0x0] ;\n"
		"        MOV R21, c[0x0][0x4] ;\n"
		"        IMAD.WIDE.U32 R[20:21], R6, 0x4, R[20:21] ;\n"
		"        STG [R20.64], R1 ;\n"
		"        STG [R20.64+0x4], R2 ;\n"
		"        STG [R20.64+0x8], R3 ;\n"
		"        EXIT ;\n";
	const we_dim3 grid = { 2, 65535, 3 };
	const size_t nctas = (size_t)grid.x * grid.y * grid.z, bytes = nctas * 12;
	th_kernel t;
	th_load(&t, text, "ctaid.we", NULL);
	uint32_t *out = malloc(bytes);
	ck_assert_ptr_nonnull(out);
	we_devptr d = th_buf_new(&t, "out", NULL, bytes, 0xff);
	we_launch_config cfg = { .grid = grid, .block = { 32, 1, 1 }, .engine = th_id(_i) };
	we_launch_stats s;
	we_status st = th_launch(&t, &cfg, &s);
	ck_assert_msg(st == WE_OK, "%s", we_last_error(t.dev));
	ck_assert_uint_eq(s.ctas, nctas);
	ck_assert_int_eq(we_memcpy_dtoh(t.dev, out, d, bytes), WE_OK);
	size_t bad = 0, first = 0;
	for (uint32_t z = 0; z < grid.z; z++)
		for (uint32_t y = 0; y < grid.y; y++)
			for (uint32_t x = 0; x < grid.x; x++) {
				size_t i = ((size_t)z * grid.y + y) * grid.x + x;
				if (out[3 * i] != x || out[3 * i + 1] != y || out[3 * i + 2] != z) {
					if (!bad++)
						first = i;
				}
			}
	ck_assert_msg(bad == 0, "%s: %zu CTAs wrong, first at %zu: (%u,%u,%u)", th_name(_i),
		      bad, first, out[3 * first], out[3 * first + 1], out[3 * first + 2]);
	free(out);
	th_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* reductions a turn holds back (src/exec/red.h): what memory and the
 * kernel's own reads show is what adding lane by lane shows, on every
 * configuration (engines, groups, batches, compiled code)              */

/* every configuration of every set (kernels_suite fills it) */
static th_config held_cfg[TH_MAXCONFIGS];
#define HELD_SETS (TH_DEFAULTS | TH_UNGROUPED | TH_GROUPED | TH_COMPILED)

/* A launch of grid x block on configuration i. */
static we_launch_config held_config(int i, uint32_t grid, uint32_t block)
{
	we_launch_config cfg = th_cfg1(held_cfg[i].eng->id, grid, block);
	th_config_apply(&cfg, &held_cfg[i]);
	return cfg;
}

/* Many CTAs add to 512 bins (words 1 KB apart share a slot of the
 * table: red.h) and to a word of a second buffer, with RED.ADD and
 * ATOMG.ADD to RZ by turns, and to bins whose lanes lie too far apart
 * to be held (XRED_APART). */
static const char held_tally[] =
	".kernel tally\n"
	".param ptr bins\n"
	".param ptr other\n"
	".param u32 iters\n"
	"        S2R R0, SR_TID.X ;\n"
	"        S2R R1, SR_CTAID.X ;\n"
	"        S2R R2, SR_NTID.X ;\n"
	"        IMAD R3, R1, R2, R0 ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        LOP3.LUT R6, R3, 0x7, RZ, 0xc0, !PT ;\n"
	"        IMAD.WIDE.U32 R[12:13], R6, 0x4, R[22:23] ;\n"
	"        MOV R8, 0x1 ;\n"
	"        MOV R4, RZ ;\n"
	".loop:\n"
	"        IMAD R5, R4, 0xd, RZ ;\n"
	"        IMAD R5, R3, 0x7, R5 ;\n"
	"        LOP3.LUT R5, R5, 0x1ff, RZ, 0xc0, !PT ;\n"
	"        IMAD.WIDE.U32 R[10:11], R5, 0x4, R[20:21] ;\n"
	"        IADD3 R7, R4, 0x1, RZ ;\n"
	"        LOP3.LUT R9, R4, 0x1, RZ, 0xc0, !PT ;\n"
	"        ISETP.NE.U32.AND P0, PT, R9, RZ, PT ;\n"
	"   @!P0 RED.ADD [R10.64], R7 ;\n"
	"   @P0  ATOMG.ADD RZ, [R10.64], R7 ;\n"
	"        RED.ADD [R12.64], R8 ;\n"
	"        IMAD R5, R3, 0x25, R4 ;\n"
	"        LOP3.LUT R5, R5, 0x1ff, RZ, 0xc0, !PT ;\n"
	"        IMAD.WIDE.U32 R[10:11], R5, 0x4, R[20:21] ;\n"
	"        RED.ADD [R10.64], R8 ;\n"
	"        IADD3 R4, R4, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R4, c[0x0][0x10], PT ;\n"
	"   @P1  BRA `(.loop) ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(held_tally_sums)
{
	const uint32_t grid = 40, block = 96, iters = 50, n = grid * block;
	we_launch_config cfg = held_config(_i, grid, block);
	th_kernel t;
	th_load(&t, held_tally, "tally.we", NULL);
	we_devptr bins = th_buf_new(&t, "bins", NULL, 512 * 4, 0);
	we_devptr other = th_buf_new(&t, "other", NULL, 8 * 4, 0);
	th_u32(&t, "iters", iters);
	th_launch_ok(&t, &cfg, NULL, held_cfg[_i].name);
	uint32_t want[512] = { 0 }, want_o[8] = { 0 }, got[512], got_o[8];
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < iters; k++) {
			want[(7 * i + 13 * k) & 511] += k + 1;
			want[(37 * i + k) & 511] += 1;
		}
		want_o[i & 7] += iters;
	}
	th_get(&t, got, bins, sizeof got);
	th_get(&t, got_o, other, sizeof got_o);
	for (unsigned b = 0; b < 512; b++)
		ck_assert_msg(got[b] == want[b], "%s: bins[%u] = %u, want %u", held_cfg[_i].name, b, got[b],
			      want[b]);
	for (unsigned b = 0; b < 8; b++)
		ck_assert_msg(got_o[b] == want_o[b], "%s: other[%u] = %u, want %u", held_cfg[_i].name, b,
			      got_o[b], want_o[b]);
	th_close(&t);
}
END_TEST

/* One CTA of 4 warps, each adding to 64 words of its own: in each trip
 * every lane reads its word back (LDG, compiled where the tier is on);
 * then a fetching ATOMG.ADD on it, and after a BAR.SYNC the next warp's
 * word: every read sees every add before it. */
static const char held_own[] =
	".kernel own\n"
	".param ptr region\n"
	".param ptr seen\n"
	".param u32 iters\n"
	"        S2R R0, SR_TID.X ;\n"
	"        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R3, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[20:21], R1, 0x100, R[20:21] ;\n"
	"        IMAD.WIDE.U32 R[14:15], R3, 0x4, R[20:21] ;\n"
	"        MOV R16, RZ ;\n"
	"        MOV R4, RZ ;\n"
	".loop:\n"
	"        IMAD R5, R3, 0x3, R4 ;\n"
	"        LOP3.LUT R5, R5, 0x3f, RZ, 0xc0, !PT ;\n"
	"        IMAD.WIDE.U32 R[10:11], R5, 0x4, R[20:21] ;\n"
	"        IADD3 R7, R4, 0x1, RZ ;\n"
	"        RED.ADD [R10.64], R7 ;\n"
	"        LDG R9, [R14.64] ;\n"
	"        IMAD R16, R16, 0x1f, R9 ;\n"
	"        IADD3 R4, R4, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R4, c[0x0][0x10], PT ;\n"
	"   @P1  BRA `(.loop) ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        IMAD.WIDE.U32 R[12:13], R0, 0x4, R[22:23] ;\n"
	"        STG [R12.64], R16 ;\n"
	"        MOV R8, 0x1 ;\n"
	"        ATOMG.ADD R17, [R14.64], R8 ;\n"
	"        STG [R12.64+0x200], R17 ;\n"
	"        BAR.SYNC 0x0 ;\n"
	"        IADD3 R6, R1, 0x1, RZ ;\n"
	"        LOP3.LUT R6, R6, 0x3, RZ, 0xc0, !PT ;\n"
	"        MOV R24, c[0x0][0x0] ;\n"
	"        MOV R25, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[24:25], R6, 0x100, R[24:25] ;\n"
	"        IMAD.WIDE.U32 R[24:25], R3, 0x4, R[24:25] ;\n"
	"        LDG R18, [R24.64] ;\n"
	"        STG [R12.64+0x400], R18 ;\n"
	"        EXIT ;\n"
	".end\n";

START_TEST(held_own_reads)
{
	const uint32_t iters = 40;
	we_launch_config cfg = held_config(_i, 1, 128);
	th_kernel t;
	th_load(&t, held_own, "own.we", NULL);
	th_buf_new(&t, "region", NULL, 4 * 64 * 4, 0);
	we_devptr seen = th_buf_new(&t, "seen", NULL, 3 * 128 * 4, 0);
	th_u32(&t, "iters", iters);
	th_launch_ok(&t, &cfg, NULL, held_cfg[_i].name);
	/* a warp's 64 words (the same in each warp) trip by trip */
	uint32_t word[64] = { 0 }, hash[32] = { 0 };
	for (uint32_t k = 0; k < iters; k++) {
		for (uint32_t l = 0; l < 32; l++)
			word[(3 * l + k) & 63] += k + 1;
		for (uint32_t l = 0; l < 32; l++)
			hash[l] = hash[l] * 31 + word[l];
	}
	uint32_t got[3 * 128];
	th_get(&t, got, seen, sizeof got);
	for (uint32_t tid = 0; tid < 128; tid++) {
		const uint32_t l = tid & 31;
		ck_assert_msg(got[tid] == hash[l], "%s: thread %u read %08x in its trips, want %08x",
			      held_cfg[_i].name, tid, got[tid], hash[l]);
		ck_assert_msg(got[128 + tid] == word[l], "%s: thread %u fetched %u, want %u", held_cfg[_i].name,
			      tid, got[128 + tid], word[l]);
		ck_assert_msg(got[256 + tid] == word[l] + 1, "%s: thread %u read %u after the barrier, want %u",
			      held_cfg[_i].name, tid, got[256 + tid], word[l] + 1);
	}
	th_close(&t);
}
END_TEST

/* The producers add, MEMBAR, count themselves in (32 each, a fetching
 * ATOMG.ADD: not held) and wait for the consumers, which wait for the
 * count, MEMBAR, and read the sum: the MEMBAR puts the adds in memory
 * before the count, while the producers' turn goes on.  Warps 0 and 1
 * of one CTA, or the two warps of CTA 0 and those of CTA 1 (by_cta). */
static const char held_handoff[] =
	".kernel handoff\n"
	".param ptr data\n"
	".param ptr flags\n"
	".param ptr out\n"
	".param u32 iters\n"
	".param u32 by_cta\n"
	"        S2R R0, SR_TID.X ;\n"
	"        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	"        S2R R2, SR_CTAID.X ;\n"
	"        MOV R5, c[0x0][0x1c] ;\n"
	"        ISETP.NE.U32.AND P3, PT, R5, RZ, PT ;\n"
	"   @P3  MOV R1, R2 ;\n"
	"        LOP3.LUT R3, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        MOV R20, c[0x0][0x0] ;\n"
	"        MOV R21, c[0x0][0x4] ;\n"
	"        MOV R22, c[0x0][0x8] ;\n"
	"        MOV R23, c[0x0][0xc] ;\n"
	"        MOV R8, 0x1 ;\n"
	"        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;\n"
	"   @P0  BRA `(.consumer) ;\n"
	"        MOV R4, RZ ;\n"
	".produce:\n"
	"        IADD3 R7, R3, 0x1, RZ ;\n"
	"        RED.ADD [R20.64], R7 ;\n"
	"        IADD3 R4, R4, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R4, c[0x0][0x18], PT ;\n"
	"   @P1  BRA `(.produce) ;\n"
	"        MEMBAR.GPU ;\n"
	"        ATOMG.ADD R9, [R22.64], R8 ;\n"
	".wait:\n"
	"        LDG.E.STRONG.GPU R9, [R22.64+0x4] ;\n"
	"        ISETP.EQ.U32.AND P2, PT, R9, RZ, PT ;\n"
	"   @P2  BRA `(.wait) ;\n"
	"        EXIT ;\n"
	".consumer:\n"
	"        IADD3 R11, R5, 0x1, RZ ;\n"
	"        SHF.L.U32 R11, R11, 0x5, RZ ;\n"
	".poll:\n"
	"        LDG.E.STRONG.GPU R9, [R22.64] ;\n"
	"        ISETP.NE.U32.AND P2, PT, R9, R11, PT ;\n"
	"   @P2  BRA `(.poll) ;\n"
	"        MEMBAR.GPU ;\n"
	"        LDG R10, [R20.64] ;\n"
	"        MOV R24, c[0x0][0x10] ;\n"
	"        MOV R25, c[0x0][0x14] ;\n"
	"        IMAD.WIDE.U32 R[24:25], R3, 0x4, R[24:25] ;\n"
	"        STG [R24.64], R10 ;\n"
	"        STG.E.STRONG.GPU [R22.64+0x4], R8 ;\n"
	"        EXIT ;\n"
	".end\n";

/* The handoff of two warps of one CTA (ctas 1), or of two CTAs on two
 * host threads (ctas 2). */
static void held_handoff_run(int i, uint32_t ctas)
{
	const uint32_t iters = 30, want = iters * 528 * ctas;
	we_launch_config cfg = held_config(i, ctas, 64);
	if (ctas > 1)
		cfg.threads = ctas;
	cfg.timeout = 60;
	th_kernel t;
	th_load(&t, held_handoff, "handoff.we", NULL);
	th_buf_new(&t, "data", NULL, 4, 0);
	th_buf_new(&t, "flags", NULL, 8, 0);
	we_devptr out = th_buf_new(&t, "out", NULL, 32 * 4, 0);
	th_u32(&t, "iters", iters);
	th_u32(&t, "by_cta", ctas > 1);
	th_launch_ok(&t, &cfg, NULL, held_cfg[i].name);
	uint32_t got[32];
	th_get(&t, got, out, sizeof got);
	for (unsigned l = 0; l < 32; l++)
		ck_assert_msg(got[l] == want, "%s, %u CTAs: lane %u read %u, want %u", held_cfg[i].name, ctas, l,
			      got[l], want);
	th_close(&t);
}

START_TEST(held_membar)
{
	held_handoff_run(_i, 1);
	held_handoff_run(_i, 2);
}
END_TEST

/* A fault after adds: the launch stops, and the adds before the fault
 * are in memory, as lane by lane. */
START_TEST(held_fault)
{
	static const char text[] = "MOV R20, c[0x0][0x0]\nMOV R21, c[0x0][0x4]\nMOV R8, 0x1\n"
				   "RED.ADD [R20.64], R8\nATOMG.ADD RZ, [R20.64+0x4], R8\n"
				   "MOV R2, RZ\nLDG R1, [R2.64+0x8]\nEXIT\n";
	we_launch_config cfg = held_config(_i, 1, 32);
	char src[512];
	snprintf(src, sizeof src, ".kernel late\n.param ptr bins\n%s.end\n", text);
	th_kernel t;
	th_load(&t, src, "late.we", NULL);
	we_devptr bins = th_buf_new(&t, "bins", NULL, 8, 0);
	const char *parts[] = { "global access of 4 bytes at 0x8", "LDG R1, [R2.64+0x8]", NULL };
	th_expect_report(&t, th_launch(&t, &cfg, NULL), WE_ERR_EXCEPTION, parts, held_cfg[_i].name);
	uint32_t got[2];
	th_get(&t, got, bins, sizeof got);
	ck_assert_msg(got[0] == 32 && got[1] == 32, "%s: %u and %u, want 32 and 32", held_cfg[_i].name, got[0],
		      got[1]);
	th_close(&t);
}
END_TEST

static Suite *kernels_suite(void)
{
	Suite *s = suite_create("kernels");
	TCase *k = tcase_create("kernels");
	tcase_set_timeout(k, 300);
	tcase_add_loop_test(k, vecadd, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, ifelse, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, loopbreak, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, callret, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, warpreduce, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, reduce, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, threads_agree, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, kept_across_launches, 0, (int)TH_NENGINES);
	tcase_add_loop_test(k, brx_test_listing, 0, (int)TH_NENGINES);
	suite_add_tcase(s, k);
	TCase *g = tcase_create("grids");
	tcase_set_timeout(g, 120);
	tcase_add_loop_test(g, max_grid_trap, 0, (int)TH_NENGINES);
	tcase_add_loop_test(g, max_grid_timeout, 0, (int)TH_NENGINES);
	tcase_add_loop_test(g, tall_grid_ctaids, 0, (int)TH_NENGINES);
	suite_add_tcase(s, g);
	TCase *f = tcase_create("faults");
	tcase_add_loop_test(f, fault_global_range, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_shared_range, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_misaligned, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_local, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_const, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_pc, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_trap, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_barrier_count, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_barrier_mismatch, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_red_mixed, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, deadlock_exit_before_counted, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, cnt0_released_by_exit, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_warpsync, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_syscall, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, fault_rtt, 0, (int)TH_NENGINES);
	tcase_add_loop_test(f, watchdog, 0, (int)TH_NENGINES);
	tcase_add_test(f, launch_limits);
	tcase_add_test(f, load_rejects_bad_barrier_imm);
	suite_add_tcase(s, f);
	TCase *h = tcase_create("held reductions");
	tcase_set_timeout(h, 300);
	const int nh = (int)th_configs(HELD_SETS, 0, held_cfg);
	tcase_add_loop_test(h, held_tally_sums, 0, nh);
	tcase_add_loop_test(h, held_own_reads, 0, nh);
	tcase_add_loop_test(h, held_membar, 0, nh);
	tcase_add_loop_test(h, held_fault, 0, nh);
	suite_add_tcase(s, h);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(kernels_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
