/* test_report — what a stopped launch tells: the watchdogs under every
 * engine, lockstep and batch configuration, and the reports of deadlocks
 * and watchdogs (the CTA's whole state, barriers that expect more threads
 * than the CTA has, the shortest wait-for cycle, the lane groups of a
 * diverged warp), through the public API.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "engines.h"
#include "harness.h"

typedef struct rrun {
	we_status st;
	char *text, *json;
} rrun;

/* Launch the kernel of `text` (no parameters) with cfg; its status and
 * reports. */
static rrun run_text(const char *text, const we_launch_config *cfg)
{
	th_kernel t;
	th_load(&t, text, "report.we", NULL);
	rrun r = { .st = th_launch(&t, cfg, NULL) };
	r.text = th_xstrdup(we_last_error(t.dev));
	r.json = th_xstrdup(we_last_report_json(t.dev));
	th_close(&t);
	return r;
}

static void rrun_free(rrun *r)
{
	free(r->text);
	free(r->json);
}

#define HAS(s, part) ck_assert_msg(strstr((s), (part)) != NULL, "missing '%s' in:\n%s", (part), (s))

/* ---- the watchdogs everywhere ------------------------------------------ */

static const char spin_text[] =
	".loop:\n"
	"        BRA `(.loop) ;\n";

/* The wall-clock watchdog stops an endless loop under every engine,
 * lockstep group and batch size, with grids that fill batches of one, a
 * few and many CTAs (it once never fired when a worker ran a batch of two
 * CTAs or more). */
START_TEST(timeout_every_configuration)
{
	static const uint32_t grids[] = { 1, 2, 4, 64 }, blocks[] = { 32, 64 };
	static const unsigned locksteps[] = { 1, 8 }, batches[] = { 0, 1, 3, 32 };
	for (unsigned g = 0; g < 4; g++)
		for (unsigned b = 0; b < 2; b++)
			for (size_t e = 0; e < TH_NENGINES; e++)
				for (unsigned v = 0; v < 10; v++) {
					/* each engine with its defaults and under a seeded
					 * schedule; one that forms groups, every lockstep
					 * and batch */
					const bool groups = th_engines[e].flags & TH_GROUPS;
					if (v >= 2 && !groups)
						break;
					we_launch_config cfg = { .grid = th_dim1(grids[g]), .block = th_dim1(blocks[b]),
								 .engine = th_id(e), .timeout = 0.05,
								 .schedule_seeded = v == 1, .schedule_seed = 7 };
					if (v >= 2) {
						cfg.lockstep = locksteps[(v - 2) / 4];
						cfg.batch = batches[(v - 2) % 4];
					}
					rrun r = run_text(spin_text, &cfg);
					ck_assert_msg(r.st == WE_ERR_TIMEOUT, "grid %u block %u, %s%s, lockstep %u batch %u: %s",
						      grids[g], blocks[b], th_name(e), v == 1 ? " seeded" : "", cfg.lockstep,
						      cfg.batch, we_status_name(r.st));
					HAS(r.text, "wall-clock limit (--timeout)");
					rrun_free(&r);
				}
}
END_TEST

/* ---- watchdog reports: the whole state -------------------------------- */

/* The usual livelock: warp 0 spins on a shared flag nobody sets while
 * warp 1 waits at a barrier for it. */
static const char livelock_text[] =
	".shared 4\n"
	"        S2R R0, SR_TID.X ;\n"
	"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	"   @P0  BRA `(.wait) ;\n"
	".spin:\n"
	"        LDS R1, [RZ] ;\n"
	"        ISETP.EQ.U32.AND P1, PT, R1, RZ, PT ;\n"
	"   @P1  BRA `(.spin) ;\n"
	".wait:\n"
	"        BAR.SYNC 0x0 ;\n"
	"        EXIT ;\n";

START_TEST(watchdog_report_state)
{
	for (size_t e = 0; e < TH_NENGINES; e++) {
		/* (an engine of a thread per warp under a seeded schedule: the
		 * state when the watchdog fires is reproducible) */
		const bool threads = th_engines[e].flags & TH_THREAD_PER_WARP;
		we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(64), .max_instructions = 3000,
					 .engine = th_id(e), .schedule_seeded = threads, .schedule_seed = 3 };
		rrun r = run_text(livelock_text, &cfg);
		ck_assert_int_eq(r.st, WE_ERR_TIMEOUT);
		HAS(r.text, "watchdog in kernel main: warp 0 executed");
		HAS(r.text, "barrier 0: phase 0, sync/arv, count 32 of 64 (all live warps), arrived: warp 1");
		HAS(r.text, "warp 0: ready at PC");
		HAS(r.text, "warp 1: blocked on barrier 0 (count 32, expected 64 = all live warps) at PC 0x0060");
		HAS(r.json, "\"verdict\":\"timeout\"");
		HAS(r.json, "\"barriers\":[{\"id\":0,");
		HAS(r.json, "{\"warp\":1,\"state\":\"blocked\",\"barrier\":0,\"pc\":\"0x0060\"");
		rrun_free(&r);
	}
}
END_TEST

/* ---- deadlock reports ------------------------------------------------- */

/* BAR.SYNC 1, 256 in a 128-thread CTA can never complete. */
START_TEST(deadlock_count_over_cta)
{
	we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(128) };
	rrun r = run_text("        BAR.SYNC 0x1, 0x100 ;\n        EXIT ;\n", &cfg);
	ck_assert_int_eq(r.st, WE_ERR_DEADLOCK);
	HAS(r.text, "barrier 1: phase 0, sync/arv, count 128 of 256, arrived:");
	HAS(r.text, "(it expects 256 threads, more than the CTA's 128: it can never complete)");
	HAS(r.json, "\"count\":128,\"expected\":256,\"all_live\":false,\"over_cta\":true,\"cta_threads\":128");
	rrun_free(&r);
	/* a count the CTA reaches: it completes */
	r = run_text("        BAR.SYNC 0x1, 0x80 ;\n        EXIT ;\n", &cfg);
	ck_assert_int_eq(r.st, WE_OK);
	rrun_free(&r);
}
END_TEST

/* Four warps at four counted barriers of two warps each: every warp waits
 * for every other (any of them could complete its barrier).  The report
 * names the shortest cycle through the reported warp 0, two warps long,
 * not the longest one (0 -> 1 -> 2 -> 3 -> 0). */
static const char four_bars_text[] =
	"        S2R R0, SR_TID.X ;\n"
	"        SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R1, 0x1, PT ;\n"
	"   @P0  BRA `(.w1) ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R1, 0x2, PT ;\n"
	"   @P0  BRA `(.w2) ;\n"
	"        ISETP.EQ.U32.AND P0, PT, R1, 0x3, PT ;\n"
	"   @P0  BRA `(.w3) ;\n"
	"        BAR.SYNC 0x1, 0x40 ;\n"
	"        EXIT ;\n"
	".w1:\n"
	"        BAR.SYNC 0x2, 0x40 ;\n"
	"        EXIT ;\n"
	".w2:\n"
	"        BAR.SYNC 0x3, 0x40 ;\n"
	"        EXIT ;\n"
	".w3:\n"
	"        BAR.SYNC 0x4, 0x40 ;\n"
	"        EXIT ;\n";

START_TEST(deadlock_shortest_cycle)
{
	for (size_t e = 0; e < TH_NENGINES; e++) {
		we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(128), .engine = th_id(e) };
		rrun r = run_text(four_bars_text, &cfg);
		ck_assert_int_eq(r.st, WE_ERR_DEADLOCK);
		HAS(r.text, "wait-for cycle: warp 0 (barrier 1) -> warp 1 (barrier 2) -> warp 0 (barrier 1)\n");
		HAS(r.json, "\"cycle\":[{\"warp\":0,\"barrier\":1},{\"warp\":1,\"barrier\":2},{\"warp\":0,\"barrier\":1}]");
		rrun_free(&r);
	}
}
END_TEST

/* Warp 0's lanes 0-15 reach the barrier (count 96: three arrivals) and
 * block the whole warp; its lanes 16-31, which would make the third
 * arrival through the other BAR.SYNC, never run.  The report shows both
 * groups of the warp and where each is. */
static const char halves_text[] =
	"        S2R R0, SR_TID.X ;\n"
	"        ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n"
	"        BSSY B0, `(.join) ;\n"
	"   @P0  BRA `(.b) ;\n"
	"        BAR.SYNC 0x1, 0x60 ;\n"
	"        BRA `(.sync) ;\n"
	".b:\n"
	"        BAR.SYNC 0x1, 0x60 ;\n"
	".sync:\n"
	"        BSYNC B0 ;\n"
	".join:\n"
	"        EXIT ;\n";

START_TEST(deadlock_lane_groups)
{
	for (size_t e = 0; e < TH_NENGINES; e++) {
		we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(64), .engine = th_id(e) };
		rrun r = run_text(halves_text, &cfg);
		ck_assert_int_eq(r.st, WE_ERR_DEADLOCK);
		HAS(r.text, "warp 0: blocked on barrier 1 (count 64, expected 96) at PC 0x0040");
		HAS(r.text, "    lanes 0x0000ffff at PC 0x0040: BAR.SYNC 0x1, 0x60 (report.we:5) (active)\n");
		HAS(r.text, "    lanes 0xffff0000 at PC 0x0060: BAR.SYNC 0x1, 0x60 (report.we:8) "
			    "(diverged: waiting for the active lanes)\n");
		HAS(r.json, "\"groups\":[{\"lanes\":\"0x0000ffff\",\"pc\":\"0x0040\"");
		HAS(r.json, "\"active\":true},{\"lanes\":\"0xffff0000\",\"pc\":\"0x0060\"");
		/* warp 1, all its lanes at one PC, has no groups */
		ck_assert_ptr_null(strstr(strstr(r.json, "{\"warp\":1,\"state\""), "groups"));
		rrun_free(&r);
	}
}
END_TEST

/* Every report names the source line of its instruction, in text and in
 * JSON, and carries its schema; "deadlock ...: deadlock:" does not double. */
START_TEST(report_source_and_schema)
{
	we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(128) };
	rrun r = run_text("        BAR.SYNC 0x1, 0x100 ;\n        EXIT ;\n", &cfg);
	HAS(r.text, "deadlock in kernel main: every live warp of the CTA is blocked");
	ck_assert_ptr_null(strstr(r.text, "deadlock: every"));
	HAS(r.text, "PC 0x0000: BAR.SYNC 0x1, 0x100 (report.we:1)\n");
	HAS(r.json, "\"schema\":\"warpemu.report/1\"");
	HAS(r.json, "\"instruction\":\"BAR.SYNC 0x1, 0x100\",\"source\":\"report.we:1\"");
	rrun_free(&r);
}
END_TEST

/* ---- --check hazards of the barrier unit ----------------------------- */

static char *warnings_of(const char *text, uint32_t block)
{
	th_kernel t;
	th_load(&t, text, "check.we", NULL);
	we_launch_config cfg = { .grid = th_dim1(1), .block = th_dim1(block), .check = true,
				 .max_instructions = 100000 };
	(void)th_launch(&t, &cfg, NULL);
	char *w = th_xstrdup(we_last_warnings(t.dev));
	th_close(&t);
	return w;
}

/* A guard true in only some active lanes makes the whole warp arrive,
 * twice here (@P0 and @!P0): a divergent barrier, like one in a branch. */
START_TEST(check_partial_guard)
{
	char *w = warnings_of("        S2R R0, SR_TID.X ;\n"
			      "        ISETP.LT.U32.AND P0, PT, R0, 0x10, PT ;\n"
			      "   @P0  BAR.SYNC 0x0 ;\n"
			      "  @!P0  BAR.SYNC 0x0 ;\n"
			      "        EXIT ;\n", 64);
	HAS(w, "check: divergent-barrier: CTA (0,0,0) warp 0 PC 0x0020: @P0 BAR.SYNC 0x0: the guard is true "
	       "in lanes 0x0000ffff of ActiveMask 0xffffffff");
	HAS(w, "check: divergent-barrier: CTA (0,0,0) warp 0 PC 0x0030: @!P0 BAR.SYNC 0x0: the guard is true "
	       "in lanes 0xffff0000");
	free(w);
	/* a guard true in all or none of a warp's lanes is no hazard */
	w = warnings_of("        S2R R0, SR_TID.X ;\n"
			"        ISETP.LT.U32.AND P0, PT, R0, 0x20, PT ;\n"
			"   @P0  BAR.ARV 0x1, 0x20 ;\n"
			"        EXIT ;\n", 64);
	ck_assert_msg(!strstr(w, "divergent-barrier"), "%s", w);
	free(w);
}
END_TEST

/* BAR.RED on a barrier BAR.SYNC used in an earlier phase of the CTA
 * (000: they may not share an id); in one phase it is an exception. */
START_TEST(check_red_shares_barrier)
{
	char *w = warnings_of("        BAR.SYNC 0x2 ;\n"
			      "        BAR.RED.POPC 0x2, 0x0, PT ;\n"
			      "        BAR.RED.POPC 0x2, 0x0, PT ;\n"
			      "        EXIT ;\n", 64);
	HAS(w, "check: red-shares-barrier: CTA (0,0,0) warp 0 PC 0x0010: BAR.RED.POPC 0x2, PT: BAR.RED on "
	       "barrier 2, which BAR.SYNC/ARV used in an earlier phase of the CTA");
	/* once per barrier */
	ck_assert_ptr_null(strstr(strstr(w, "red-shares-barrier") + 1, "red-shares-barrier"));
	free(w);
	w = warnings_of("        BAR.RED.OR 0x3, 0x0, PT ;\n"
			"        BAR.SYNC 0x3 ;\n"
			"        EXIT ;\n", 32);
	HAS(w, "check: red-shares-barrier: CTA (0,0,0) warp 0 PC 0x0010: BAR.SYNC 0x3: BAR.SYNC/ARV on barrier 3, "
	       "which BAR.RED used");
	free(w);
	/* different ids: nothing */
	w = warnings_of("        BAR.SYNC 0x2 ;\n        BAR.RED.POPC 0x3, 0x0, PT ;\n        EXIT ;\n", 64);
	ck_assert_msg(!strstr(w, "red-shares-barrier"), "%s", w);
	free(w);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("watchdog");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, timeout_every_configuration);
	tcase_add_test(tc, watchdog_report_state);
	suite_add_tcase(s, tc);
	tc = tcase_create("deadlock");
	tcase_add_test(tc, deadlock_count_over_cta);
	tcase_add_test(tc, deadlock_shortest_cycle);
	tcase_add_test(tc, deadlock_lane_groups);
	tcase_add_test(tc, report_source_and_schema);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_test(tc, check_partial_guard);
	tcase_add_test(tc, check_red_shares_barrier);
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
