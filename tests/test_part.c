/* test_part — the primitives a distribution layer builds on (warpemu.h,
 * "parts of a grid"): a grid run as parts gives the buffers of the whole
 * launch, a failing part reports its lowest CTA, the atomic map names
 * each word's operation, and a cancelled range stops. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* Run t's kernel as `nparts` contiguous parts of a grid of `grid` CTAs. */
static we_status run_parts(th_kernel *t, we_engine e, uint32_t grid, uint32_t block, unsigned nparts,
			   bool track, uint64_t *report_cta)
{
	we_launch_config cfg = th_cfg1(e, grid, block);
	for (unsigned r = 0; r < nparts; r++) {
		const uint64_t first = (uint64_t)grid * r / nparts, end = (uint64_t)grid * (r + 1) / nparts;
		const we_grid_part p = { first, end - first, track };
		we_launch_stats s;
		we_status st = we_launch_part(t->dev, t->mod, t->k->name, &cfg, t->params, t->k->param_bytes,
					      &p, &s, report_cta);
		if (st != WE_OK)
			return st;
		ck_assert_uint_eq(s.ctas, end - first);
	}
	return WE_OK;
}

START_TEST(parts_make_the_grid)
{
	th_kernel t;
	th_file(&t, "kernels/vecadd.we", "vecadd");
	const we_engine e = th_id(_i);
	const uint32_t n = 77 * 64 - 5;
	float *a = th_xmalloc(n * 4), *whole = th_xmalloc(n * 4), *parts = th_xmalloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		a[i] = (float)i * 0.25f;
	th_u32(&t, "n", n);
	th_buf_new(&t, "a", a, n * 4, 0);
	th_buf_new(&t, "b", a, n * 4, 0);
	we_devptr c = th_buf_new(&t, "c", NULL, n * 4, 0);
	we_launch_config cfg = th_cfg1(e, 77, 64);
	th_launch_ok(&t, &cfg, NULL, "the whole grid");
	th_get(&t, whole, c, n * 4);
	/* 3 parts one after the other on one device: every CTA once */
	th_restore(&t);
	ck_assert_int_eq(run_parts(&t, e, 77, 64, 3, false, NULL), WE_OK);
	th_get(&t, parts, c, n * 4);
	ck_assert(memcmp(whole, parts, n * 4) == 0);
	/* one part alone writes its CTAs' elements only */
	th_restore(&t);
	const we_grid_part p = { 10, 5, false };
	ck_assert_int_eq(we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &p, NULL, NULL),
			 WE_OK);
	th_get(&t, parts, c, n * 4);
	for (uint32_t i = 0; i < n; i++)
		CHECK(parts[i] == (i >= 640 && i < 960 ? whole[i] : 0.0f), "c[%u] = %g", i, parts[i]);
	free(a);
	free(whole);
	free(parts);
	th_close(&t);
}
END_TEST

START_TEST(part_outside_the_grid)
{
	th_kernel t;
	th_file(&t, "kernels/vecadd.we", "vecadd");
	th_u32(&t, "n", 64);
	th_buf_new(&t, "a", NULL, 256, 0);
	th_buf_new(&t, "b", NULL, 256, 0);
	th_buf_new(&t, "c", NULL, 256, 0);
	we_launch_config cfg = th_cfg1(th_id(_i), 2, 32);
	const we_grid_part bad = { 1, 2, false }, empty = { 2, 0, false };
	ck_assert_int_eq(we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &bad, NULL, NULL),
			 WE_ERR_INVALID);
	ck_assert_msg(strstr(we_last_error(t.dev), "outside the grid of 2 CTAs"), "%s", we_last_error(t.dev));
	we_launch_stats s;
	ck_assert_int_eq(we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &empty, &s, NULL),
			 WE_OK);
	ck_assert_uint_eq(s.ctas, 0);
	th_close(&t);
}
END_TEST

/* CTA ctaid >= k/2 of 32 threads stores R0 = 7 past its buffer when
 * ctaid == bad, else writes out[ctaid] = ctaid; with loop != 0, CTAs at
 * or above `loop` spin forever. */
static const char faulty[] =
	".param u32 bad\n.param u32 loop\n.param ptr out\n"
	"        S2R R0, SR_CTAID.X ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R0, c[0x0][0x0], PT ;\n"
	"        ISETP.NE.U32.AND P1, PT, RZ, c[0x0][0x4], PT ;\n"
	"        ISETP.GE.U32.AND P1, PT, R0, c[0x0][0x4], P1 ;\n"
	".spin:\n"
	"   @P1  BRA `(.spin) ;\n"
	"        MOV R2, c[0x0][0x8] ;\n"
	"        MOV R3, c[0x0][0xc] ;\n"
	"        SHF.L.U32 R4, R0, 0x2, RZ ;\n"
	"   @P0  IADD3 R4, R4, 0x100000, RZ ;\n"
	"        IADD3 R2, P2, PT, R2, R4, RZ ;\n"
	"        IADD3.X R3, RZ, R3, RZ, P2, !PT ;\n"
	"        STG [R2.64], R0 ;\n"
	"        EXIT ;\n";

START_TEST(part_reports_its_lowest_cta)
{
	th_kernel t;
	th_load(&t, faulty, "faulty.we", NULL);
	th_u32(&t, "bad", 13);
	th_u32(&t, "loop", 0);
	th_buf_new(&t, "out", NULL, 4 * 40, 0);
	uint64_t cta = 0;
	/* CTA 13 is in the second of 3 parts of 40: parts 1 runs fine, part 2
	 * reports CTA 13 */
	we_status st = run_parts(&t, th_id(_i), 40, 32, 3, false, &cta);
	ck_assert_int_eq(st, WE_ERR_EXCEPTION);
	ck_assert_uint_eq(cta, 13);
	ck_assert_msg(strstr(we_last_error(t.dev), "CTA (13,0,0)"), "%s", we_last_error(t.dev));
	th_close(&t);
}
END_TEST

START_TEST(cancel_stops_a_range)
{
	th_kernel t;
	th_load(&t, faulty, "faulty.we", NULL);
	th_u32(&t, "bad", 1000);
	th_u32(&t, "loop", 20); /* CTAs 20.. never end */
	we_devptr out = th_buf_new(&t, "out", NULL, 4 * 40, 0);
	we_launch_config cfg = th_cfg1(th_id(_i), 40, 32);
	cfg.threads = 2;
	/* a cancel made before the launch (another process already failed
	 * lower) applies to it: CTAs 20.. stop at once, the rest complete */
	we_device_cancel_from(t.dev, 20);
	uint64_t cta = 0;
	const we_grid_part p = { 0, 40, false };
	we_status st = we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &p, NULL, &cta);
	ck_assert_int_eq(st, WE_ERR_INTERRUPTED);
	ck_assert_uint_ge(cta, 20);
	ck_assert_msg(strstr(we_last_error(t.dev), "cancelled"), "%s", we_last_error(t.dev));
	uint32_t got[40];
	th_get(&t, got, out, sizeof got);
	for (uint32_t i = 0; i < 20; i++)
		ck_assert_uint_eq(got[i], i);
	/* cleared: the next launch of CTAs 0..19 runs normally */
	we_device_cancel_from(t.dev, UINT64_MAX);
	const we_grid_part low = { 0, 20, false };
	ck_assert_int_eq(we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &low, NULL, NULL),
			 WE_OK);
	th_close(&t);
}
END_TEST

/* RED.ADD.S32 into word 0 (in compiled code with jit on), RED.MAX.S32 into word 1, ATOMG.CAS on word 2 (its
 * old value fetched into R6), and on word 3 an ADD from even CTAs and an
 * XOR from odd ones; a 64-bit RED.ADD.U64 into words 4-5; ATOMG.ADD
 * returning nothing (RZ) into word 6. */
static const char atomics[] =
	".param ptr p\n"
	"        S2R R0, SR_CTAID.X ;\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        MOV R5, 0x1 ;\n"
	"        RED.ADD.S32 [R2.64], R5 ;\n"
	"        RED.MAX.S32 [R2.64+0x4], R0 ;\n"
	"        ATOMG.CAS R6, [R2.64+0x8], RZ, R5 ;\n"
	"        LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n"
	"   @!P0 RED.ADD [R2.64+0xc], R5 ;\n"
	"   @P0  RED.XOR [R2.64+0xc], R5 ;\n"
	"        MOV R6, RZ ;\n"
	"        RED.ADD.U64 [R2.64+0x10], R[5:6] ;\n"
	"        ATOMG.ADD RZ, [R2.64+0x18], R5 ;\n"
	"        EXIT ;\n";

START_TEST(atomic_map)
{
	th_kernel t;
	th_load(&t, atomics, "atomics.we", NULL);
	we_devptr p = th_buf_new(&t, "p", NULL, 32, 0);
	we_launch_config cfg = th_cfg1(th_id(_i), 4, 32);
	const we_grid_part part = { 0, 4, true };
	const uint8_t *m = NULL;
	/* the compiled tier (where there is one) notes what it runs too */
	for (int jit = we_jit_available() ? 0 : 1; jit < 2; jit++) {
		cfg.jit = jit ? WE_JIT_AUTO : WE_JIT_ON;
		ck_assert_int_eq(we_launch_part(t.dev, t.mod, NULL, &cfg, t.params, t.k->param_bytes, &part, NULL,
						NULL),
				 WE_OK);
		ck_assert_int_eq(we_atomic_map(t.dev, p, 32, &m), WE_OK);
		ck_assert_ptr_nonnull(m);
		ck_assert_uint_eq(m[0], WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_S32));
		ck_assert_uint_eq(m[1], WE_ATOMIC_CODE(WE_ATOM_MAX, WE_ATOM_S32));
		ck_assert_uint_eq(m[2], WE_ATOMIC_CODE(WE_ATOM_CAS, WE_ATOM_U32) | WE_ATOMIC_FETCHED);
		ck_assert_uint_eq(m[3], WE_ATOMIC_MIXED);
		ck_assert_uint_eq(m[4], WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U64));
		ck_assert_uint_eq(m[5], WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U64));
		ck_assert_uint_eq(m[6], WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U32));
		ck_assert_uint_eq(m[7], 0);
	}
	/* a launch without tracking leaves no map */
	ck_assert_int_eq(th_launch(&t, &cfg, NULL), WE_OK);
	ck_assert_int_eq(we_atomic_map(t.dev, p, 32, &m), WE_OK);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(we_atomic_map(t.dev, p + 2, 4, &m), WE_ERR_INVALID);
	th_close(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("part");
	TCase *tc = tcase_create("part");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, parts_make_the_grid, 0, TH_NENGINES);
	tcase_add_loop_test(tc, part_outside_the_grid, 0, TH_NENGINES);
	tcase_add_loop_test(tc, part_reports_its_lowest_cta, 0, TH_NENGINES);
	tcase_add_loop_test(tc, cancel_stops_a_range, 0, TH_NENGINES);
	tcase_add_loop_test(tc, atomic_map, 0, TH_NENGINES);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
