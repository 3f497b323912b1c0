/* test_profile — --profile through the public API (we_launch_config
 * .profile, we_last_profile, we_last_profile_json): under every engine
 * and every lockstep, batch and thread configuration of tests/engines.h,
 * and with a seeded schedule, check mode and a trace beside it,
 *  - its totals are the launch's statistics (warp- and thread-
 *    instructions, barrier completions), in the text and the JSON;
 *  - every count but the blocked time is the same in every configuration
 *    (they follow the program, not the schedule);
 *  - a purpose-built kernel gives the exact counts per PC: executions,
 *    lanes, a BRA that diverges, the BSYNC that reconverges, barrier
 *    completions, time blocked at a barrier warps wait at;
 *  - a launch without it has no profile.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* warp 0 of two diverges at the BRA (odd lanes jump), reconverges at the
 * BSYNC, then both warps meet at BAR.SYNC, warp 1 after a loop of 40
 * instructions, so warp 0 waits there. */
static const char kernel[] =
	".param ptr out\n"
	"        S2R R0, SR_TID.X ;\n"                          /* 0x00 */
	"        LOP3.LUT R1, R0, 0x1, RZ, 0xc0, !PT ;\n"       /* 0x10 */
	"        ISETP.NE.U32.AND P0, PT, R1, RZ, PT ;\n"       /* 0x20 */
	"        SHF.R.U32.HI R2, RZ, 0x5, R0 ;\n"              /* 0x30 */
	"        ISETP.NE.U32.AND P1, PT, R2, RZ, PT ;\n"       /* 0x40 */
	"        BSSY B0, `(.join) ;\n"                         /* 0x50 */
	"   @P0  BRA `(.odd) ;\n"                               /* 0x60 */
	"        MOV R3, 0x1 ;\n"                               /* 0x70 */
	"        BRA `(.join) ;\n"                              /* 0x80 */
	".odd:\n"
	"        MOV R3, 0x2 ;\n"                               /* 0x90 */
	".join:\n"
	"        BSYNC B0 ;\n"                                  /* 0xa0 */
	"   @!P1 BRA `(.bar) ;\n"                               /* 0xb0 */
	"        MOV R4, 0x14 ;\n"                              /* 0xc0 */
	".spin:\n"
	"        IADD3 R4, R4, -0x1, RZ ;\n"                    /* 0xd0 */
	"        ISETP.NE.U32.AND P2, PT, R4, RZ, PT ;\n"       /* 0xe0 */
	"   @P2  BRA `(.spin) ;\n"                              /* 0xf0 */
	".bar:\n"
	"        BAR.SYNC 0x0 ;\n"                              /* 0x100 */
	"        MOV R20, c[0x0][0x0] ;\n"                      /* 0x110 */
	"        MOV R21, c[0x0][0x4] ;\n"                      /* 0x120 */
	"        IMAD.WIDE.U32 R[20:21], R0, 0x4, R[20:21] ;\n" /* 0x130 */
	"        STG [R20.64], R3 ;\n"                          /* 0x140 */
	"        EXIT ;\n";                                     /* 0x150 */

#define NPC 22

typedef struct row {
	uint64_t wi, ti, div, rec, done, blocked;
} row;

/* The per-PC rows of a text profile. */
static unsigned rows_of(const char *text, row *r, unsigned max)
{
	unsigned n = 0;
	for (const char *p = strstr(text, "\n  0x"); p && n < max; p = strstr(p + 1, "\n  0x")) {
		unsigned long long pc, wi, ti, dv, rc, dn, bl;
		double lanes;
		CHECK(sscanf(p + 1, " %llx %llu %llu %lf %llu %llu %llu %llu", &pc, &wi, &ti, &lanes, &dv, &rc, &dn, &bl) == 8,
		      "bad profile line: %.80s", p + 1);
		CHECK(pc == 16u * n, "profile line %u has PC 0x%llx", n, pc);
		r[n++] = (row){ wi, ti, dv, rc, dn, bl };
	}
	return n;
}

static void load(th_kernel *t, uint32_t grid)
{
	th_load(t, kernel, "profile.we", NULL);
	th_buf_new(t, "out", NULL, 4u * 64u * grid, 0);
}

/* Launch with cfg (profile on): its rows, and the totals checked against
 * the statistics in the text and in the JSON. */
static void profiled(th_kernel *t, we_launch_config *cfg, row *r, const char *what)
{
	we_launch_stats s;
	cfg->profile = true;
	th_restore(t);
	th_launch_ok(t, cfg, &s, what);
	const char *text = we_last_profile(t->dev), *json = we_last_profile_json(t->dev);
	CHECK(rows_of(text, r, NPC + 1) == NPC, "%s: %u profile lines, want %u", what, rows_of(text, r, NPC + 1),
	      NPC);
	row sum = { 0 };
	for (unsigned i = 0; i < NPC; i++) {
		sum.wi += r[i].wi;
		sum.ti += r[i].ti;
		sum.done += r[i].done;
	}
	CHECK(sum.wi == s.warp_insns && sum.ti == s.thread_insns && sum.done == s.barriers,
	      "%s: profile totals %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", statistics %" PRIu64 "/%" PRIu64 "/%" PRIu64,
	      what, sum.wi, sum.ti, sum.done, s.warp_insns, s.thread_insns, s.barriers);
	char want[200];
	snprintf(want, sizeof want, "\"totals\":{\"warp_insns\":%" PRIu64 ",\"thread_insns\":%" PRIu64, s.warp_insns,
		 s.thread_insns);
	CHECK(!strncmp(json, "{\"schema\":\"warpemu.profile/1\",", 30) && strstr(json, want) &&
	      json[strlen(json) - 1] == '}', "%s: JSON profile lacks %s:\n%.300s", what, want, json);
}

/* The exact counts of one CTA (two warps) at the PCs that show them. */
START_TEST(exact_counts)
{
	th_kernel t;
	load(&t, 3);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		we_launch_config cfg = th_cfg1(th_id(e), 3, 64);
		row r[NPC + 1];
		profiled(&t, &cfg, r, we_engine_name(th_id(e)));
		/* 3 CTAs of 2 warps */
		CHECK(r[0].wi == 6 && r[0].ti == 192, "S2R: %" PRIu64 "/%" PRIu64, r[0].wi, r[0].ti);
		/* the BRA at 0x60 splits every warp (odd lanes jump) */
		CHECK(r[6].wi == 6 && r[6].ti == 96 && r[6].div == 6, "BRA 0x60: %" PRIu64 " %" PRIu64 " %" PRIu64,
		      r[6].wi, r[6].ti, r[6].div);
		CHECK(r[7].ti == 96 && r[9].ti == 96, "the two paths: %" PRIu64 ", %" PRIu64, r[7].ti, r[9].ti);
		/* BSYNC joins them: each warp reconverges once */
		CHECK(r[10].rec == 6 && r[10].div == 0, "BSYNC: reconverged %" PRIu64, r[10].rec);
		/* a uniform branch diverges nowhere */
		CHECK(r[11].div == 0 && r[15].div == 0, "uniform branches diverged");
		/* the loop: 20 trips of warp 1 in each CTA */
		CHECK(r[13].wi == 60 && r[13].ti == 60 * 32, "IADD3 in the loop: %" PRIu64, r[13].wi);
		/* one completion per CTA, and warp 0 waited there */
		CHECK(r[16].done == 3 && r[16].wi == 6, "BAR.SYNC: %" PRIu64 " completions", r[16].done);
		CHECK(r[16].blocked > 0, "BAR.SYNC: no blocked time (%s)", we_engine_name(th_id(e)));
		for (unsigned i = 0; i < NPC; i++)
			CHECK(i == 16 || (!r[i].done && !r[i].blocked), "PC 0x%x: completions or blocked time",
			      16u * i);
	}
	th_close(&t);
}
END_TEST

/* Every configuration, and a seeded schedule, check mode and a trace
 * beside it: the same counts (blocked time aside), the totals right. */
START_TEST(every_configuration)
{
	th_config cs[TH_MAXCONFIGS];
	const size_t n = th_configs(TH_DEFAULTS | TH_UNGROUPED | TH_GROUPED, 0, cs);
	th_kernel t;
	load(&t, 40);
	row ref[NPC + 1];
	bool have = false;
	th_sbuf trace = { 0 };
	for (size_t k = 0; k < n + 3; k++) {
		we_launch_config cfg = th_cfg1(WE_ENGINE_SCHEDULER, 40, 64);
		char what[120];
		if (k < n) {
			th_config_apply(&cfg, &cs[k]);
			snprintf(what, sizeof what, "%s", cs[k].name);
		} else if (k == n) {
			cfg.schedule_seeded = true;
			cfg.schedule_seed = 7;
			snprintf(what, sizeof what, "seed 7");
		} else if (k == n + 1) {
			cfg.engine = WE_ENGINE_WARP_THREADS;
			cfg.check = true;
			cfg.check_memory = WE_CHECK_RACES | WE_CHECK_UNINIT;
			snprintf(what, sizeof what, "warp-threads, --check");
		} else {
			th_trace_into(&cfg, &trace);
			snprintf(what, sizeof what, "trace");
		}
		row r[NPC + 1];
		profiled(&t, &cfg, r, what);
		for (unsigned i = 0; have && i < NPC; i++)
			CHECK(r[i].wi == ref[i].wi && r[i].ti == ref[i].ti && r[i].div == ref[i].div &&
			      r[i].rec == ref[i].rec && r[i].done == ref[i].done,
			      "%s: PC 0x%x counts differ from %s's", what, 16u * i, cs[0].name);
		if (!have)
			memcpy(ref, r, sizeof ref);
		have = true;
	}
	free(trace.p);
	/* without --profile, nothing */
	we_launch_config cfg = th_cfg1(WE_ENGINE_SCHEDULER, 40, 64);
	th_restore(&t);
	th_launch_ok(&t, &cfg, NULL, "no profile");
	CHECK(!*we_last_profile(t.dev) && !*we_last_profile_json(t.dev), "a profile without profile");
	th_close(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *t = tcase_create("profile");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, exact_counts);
	tcase_add_test(t, every_configuration);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
