/* check.h — --check: hazards that do not stop a launch (README, "--check"),
 * one `check: KIND: CTA (x,y,z) warp W PC 0x...: INSTRUCTION: explanation`
 * line each, collected in the launch's log.
 *
 * The CTA layer (sync.c) and the branch-unit handlers call the check_*
 * hooks only when the launch checks (we_launch_ctx.check); the state here
 * is per CTA (check_cta, reset at each CTA's start) and per launch
 * (check_log, shared by the host threads under its own lock).
 */
#ifndef WE_CTA_CHECK_H
#define WE_CTA_CHECK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "units/bar.h"

struct we_cta;
struct we_warp;

/* The launch's hazard lines. */
typedef struct check_log {
	pthread_mutex_t lock;
	char *text;          /* one line per hazard (the first CHECK_LOG_MAX) */
	size_t len, cap;
	uint64_t count;      /* hazards found, all of them                   */
} check_log;
#define CHECK_LOG_MAX 1000u

/* false when the mutex cannot be made. */
bool check_log_init(check_log *l);
/* One hazard line (without its newline) into the log. */
void check_log_add(check_log *l, const char *line);
/* The lines (malloc'd, NULL when none) and the log destroyed. */
char *check_log_finish(check_log *l);

/* Per CTA: the order barrier completions impose, as vector clocks
 * (arrivals-beyond-count), and what each barrier saw. */
typedef struct check_cta {
	bool used;                  /* vc touched since the CTA started      */
	uint32_t vc[32][32];        /* vc[w][v]: how many of warp v's barrier
				       completions warp w is ordered after   */
	uint32_t vc_exited[32];     /* the clocks of the exited warps, joined */
	/* the last completed counted phase of each barrier, valid while the
	 * barrier's phase is still done_phase (a later completion of any
	 * phase replaces it) */
	struct {
		uint32_t parts;     /* its warps                              */
		uint32_t warp;      /* the warp whose arrival completed it    */
		uint32_t clock;     /* vc[warp][warp] right after it          */
		uint32_t phase;     /* the barrier's phase right after it     */
		uint64_t pc;        /* that arrival's PC                      */
	} done[WE_BAR_SLOTS];
	uint8_t kinds[WE_BAR_SLOTS]; /* bar_kind bits of every phase so far  */
} check_cta;

/* A new CTA. */
void check_reset(check_cta *k);

/* A hazard of CTA c at warp `warp`, PC pc: one line in the launch's log. */
void check_warn(struct we_cta *c, const char *kind, uint32_t warp, uint64_t pc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Around warp w's arrival a at a CTA barrier (guard & ActiveMask pmask),
 * under the CTA lock: before bar_arrive, the hazards of the arrival
 * itself (divergent-barrier, second-arrival, scan-result-unread,
 * red-after-sync); after it, when it was accepted, arrivals-beyond-count
 * and the order a completion imposes.  `before` returns what `after`
 * needs of the phase as it was. */
typedef struct check_arrival {
	uint32_t parts;             /* the phase's warps, if this completes it */
	bool counted;               /* a phase with a count (cnt > 0)         */
} check_arrival;
check_arrival check_bar_before(struct we_cta *c, const struct we_warp *w, uint32_t pmask,
			       const bar_arrival *a);
void check_bar_after(struct we_cta *c, const struct we_warp *w, const bar_arrival *a,
		     const check_arrival *ca, bool completed, uint32_t wake);
/* Warp wi exited; `completed` cnt = 0 phases completed, releasing wake. */
void check_warp_exited(struct we_cta *c, uint32_t wi, unsigned completed, uint32_t wake);
/* A named-barrier signal or wait by w (divergent-barrier), and a phase of
 * named barrier id that completed (the order it imposes). */
void check_nbar(struct we_cta *c, const struct we_warp *w, uint64_t pc, uint32_t id);
void check_nbar_completed(struct we_cta *c, uint32_t id);
/* The CTA ended: barriers left armed, named barriers never waited. */
void check_cta_end(struct we_cta *c);

#endif
