/* race.h — --check=races and --check=uninit: data races between warps of
 * a CTA and between CTAs, lanes of a warp writing one address with
 * different values, and reads of shared or local memory nothing wrote
 * first.  The model (README, "--check"; doc/spec-reading.md, "Races"):
 *
 *  - Order within a CTA comes from barriers (spec-reading decision 9):
 *    an arrival at BAR.SYNC/ARV/RED/SCAN, a named-barrier signal and a
 *    MEMBAR release what the warp did before; the warps a completion
 *    releases (BAR.SYNC/RED waiters, and the completing warp unless it
 *    only arrives: ARV, SCAN), and a consumer's NBARRIER.wait, acquire
 *    what the phase's arrivals released.  A warp is one thread of this
 *    order: its lanes never race with each other across instructions.
 *    The order is kept as vector clocks over the warps of the CTA.
 *  - Atomics: two atomic accesses never race.  A MEMBAR then an atomic
 *    on a word releases (the fence's clock joins the word's); an atomic
 *    then a MEMBAR acquires (what the word had at the atomic joins the
 *    warp's clock at the fence).  MEMBAR.CTA orders only within the CTA.
 *    Strong loads and stores (RACE_STRONG) are atomics that only acquire,
 *    resp. only release; of CTA scope, they race with another CTA's.
 *  - Between CTAs no barrier orders anything: a plain global write of one
 *    CTA and a plain (or atomic) access of another to the same byte race
 *    unless a MEMBAR.GPU/SYS + atomic hand-off (above) orders them,
 *    directly: a hand-off through a third CTA is not followed.
 *  - Races are found exactly, whatever the schedule: every access (one
 *    warp instruction's lanes on one 4-byte word, in one interval of the
 *    warp between synchronisation points) is compared with every earlier
 *    one it may race with, and forgotten only once every live warp of
 *    the CTA is ordered after it (shared memory; global memory keeps
 *    everything until the launch ends).
 *
 * Findings are collected per CTA and merged into the launch's table at
 * the CTA's end; at the launch's end one line per kind and pair of PCs
 * (with how many times) goes to the --check log, sorted, its example the
 * lowest CTA's.  Shadow state is sized by what the kernel touches: the
 * CTA's shared words, the pages of global memory it accesses.
 *
 * Locking: the per-CTA state is used under the CTA's lock (cta_lock:
 * the warp-threads engine), the launch's global shadow under its own
 * mutex (taken after the CTA's), the findings table under another.
 */
#ifndef WE_CTA_RACE_H
#define WE_CTA_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "units/bar.h"

struct we_cta;
struct we_warp;
struct check_log;
struct we_launch_ctx;

/* What --check looks for beyond the barrier hazards (check.h), as bits
 * of we_launch_ctx.memcheck (warpemu.h: WE_CHECK_*). */
#define RACE_RACES 1u
#define RACE_UNINIT 2u

/* An access, by kind. */
#define RACE_READ 1u
#define RACE_WRITE 2u
#define RACE_ATOMIC 4u /* with RACE_READ | RACE_WRITE */
/* A strong load or store (.STRONG of mem.isa: PTX .relaxed, .acquire,
 * .release, .volatile): RACE_ATOMIC with RACE_READ or RACE_WRITE, so that
 * two strong accesses do not race; a strong store only releases, a
 * strong load only acquires.  RACE_SCOPE_CTA: strong or atomic for its
 * CTA only (PTX's .cta scope: it races with another CTA's strong or
 * atomic access, and is no hand-off between CTAs). */
#define RACE_STRONG 8u
#define RACE_SCOPE_CTA 16u

typedef enum race_space { RACE_SHARED = 0, RACE_GLOBAL, RACE_LOCAL } race_space;

/* One warp instruction's memory access, before it runs (its addresses:
 * the instruction may overwrite its address registers). */
typedef struct race_access {
	uint8_t space;             /* race_space                              */
	uint8_t kind;              /* RACE_READ | RACE_WRITE | RACE_ATOMIC ... */
	uint8_t size;              /* bytes per lane: 1, 2, 4, 8 or 16        */
	uint32_t lanes;            /* the lanes that access                   */
	uint64_t pc;
	uint64_t addr[32];         /* per lane (shared, local: byte offsets)  */
	const uint32_t *val[4];    /* a plain store: its data rows, per
				      register (NULL past the size)       */
} race_access;

typedef struct race_launch race_launch;
typedef struct race_cta race_cta;

/* The launch's state (global shadow, findings): NULL when out of memory
 * or a mutex cannot be made. */
race_launch *race_launch_new(const struct we_launch_ctx *L);
/* The findings as --check lines into log (sorted), then everything freed. */
void race_launch_finish(race_launch *r, struct check_log *log);

/* A CTA slot's state (reused CTA after CTA); NULL when out of memory. */
race_cta *race_cta_new(const struct we_launch_ctx *L);
void race_cta_free(race_cta *k);
/* A new CTA starts in c (c->race set). */
void race_cta_start(struct we_cta *c);
/* The CTA ended: its findings into the launch's table. */
void race_cta_end(struct we_cta *c);

/* Warp w's access a, about to run (takes the CTA's lock). */
void race_access_mem(struct we_cta *c, struct we_warp *w, const race_access *a);
/* Around an atomic access a of warp w (after race_access_mem would be
 * too late: another warp's atomic may see its value first): begin, its
 * release and acquire, before it runs; end after (each takes and keeps
 * the lock its memory needs). */
void race_atomic_begin(struct we_cta *c, struct we_warp *w, const race_access *a);
void race_atomic_end(struct we_cta *c, const race_access *a);
/* Warp w's MEMBAR at pc with its scope (ISA_MembarScope_*: 0 = CTA). */
void race_fence(struct we_cta *c, struct we_warp *w, uint64_t pc, unsigned scope);

/* ---- the order barriers give (called by sync.c under the CTA lock) ---- */

/* Warp w arrives at CTA barrier a (accepted by bar_arrive); counted: the
 * phase has a count (cnt > 0).  completed: this arrival completed it,
 * releasing `wake`. */
void race_bar_arrive(struct we_cta *c, const struct we_warp *w, const bar_arrival *a, bool counted,
		     bool completed, uint32_t wake);
/* Warp wi exited; the cnt = 0 barriers whose phase moved (phase_before:
 * each barrier's phase before) released `wake` (before cta_wake_warps:
 * each woken warp's bar_id still names its barrier). */
void race_warp_exited(struct we_cta *c, uint32_t wi, const uint32_t *phase_before, uint32_t wake);
/* A named-barrier signal by w at pc; completed: it completed the phase,
 * releasing `wake` (blocked consumers). */
void race_nbar_signal(struct we_cta *c, const struct we_warp *w, uint64_t pc, uint32_t id, bool completed,
		      uint32_t wake);
/* A consumer's wait on named barrier id passed at once (phase complete). */
void race_nbar_passed(struct we_cta *c, const struct we_warp *w, uint32_t id);

#endif
