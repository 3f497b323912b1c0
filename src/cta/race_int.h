/* race_int.h — what race.c (a CTA's clocks and shared and local memory),
 * race_global.c (the launch's global memory) and race_find.c (findings
 * and their lines) share. */
#ifndef WE_CTA_RACE_INT_H
#define WE_CTA_RACE_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "cta/cta.h"
#include "cta/race.h"

#define RACE_NO_PC UINT32_MAX  /* an interval that began at the warp's start */
#define RACE_WORDS_PER_PAGE 1024u
#define SH_STRIDE 4u           /* a shared word's generation and CH_N heads */

/* One access: one warp instruction's lanes on one 4-byte word, in one
 * interval of the warp (between two of its synchronisation points).
 * Entries are chained per word and kind (race_chain); index 0 is none. */
typedef struct race_ent {
	uint32_t next;
	uint32_t lanes;
	uint64_t cta;        /* the CTA's linear id (global memory)           */
	uint32_t epoch;      /* the warp's own clock at the access            */
	uint32_t pc;
	uint32_t from;       /* PC of the sync point that began the interval
				(its number is epoch - 1), RACE_NO_PC: none */
	uint8_t warp, kind, bytes; /* bytes: mask of the word's bytes         */
} race_ent;

/* A word's chains: reads, plain writes, atomics. */
enum { CH_READ = 0, CH_WRITE, CH_ATOMIC, CH_N };
static inline unsigned race_chain(unsigned kind)
{
	return kind & RACE_ATOMIC ? CH_ATOMIC : kind & RACE_WRITE ? CH_WRITE : CH_READ;
}

/* A growing pool of entries with a free list. */
typedef struct race_pool {
	race_ent *e;
	uint32_t n, cap, free;
} race_pool;
/* A new entry's index (0: out of memory): race_pool_get, which grows
 * the pool; race_pool_new, its fast path inline (one per access word). */
uint32_t race_pool_get(race_pool *p);
static inline uint32_t race_pool_new(race_pool *p)
{
	if (p->free) {
		const uint32_t i = p->free;
		p->free = p->e[i].next;
		return i;
	}
	if (p->n && p->n < p->cap)
		return p->n++;
	return race_pool_get(p);
}
static inline void race_pool_put(race_pool *p, uint32_t i)
{
	p->e[i].next = p->free;
	p->free = i;
}

/* Acquired hand-offs from other CTAs: (global sync word, how many of its
 * releases) pairs, the largest count per word. */
typedef struct race_acq {
	uint32_t n, cap;
	struct { uint32_t var, len; } *v;
} race_acq;
bool race_acq_add(race_acq *a, uint32_t var, uint32_t len);
bool race_acq_merge(race_acq *a, const race_acq *b);

/* The finding kinds, in the order their lines are printed. */
enum race_fkind {
	FK_SHARED = 0,     /* shared-race                                 */
	FK_GLOBAL,         /* global-race: two warps of one CTA            */
	FK_CTAS,           /* cta-race: global memory, two CTAs            */
	FK_LANES,          /* lane-conflict                               */
	FK_UNINIT_SHARED,  /* uninit-shared                               */
	FK_UNINIT_LOCAL,   /* uninit-local                                */
	FK_N
};

/* One side of a finding: an access as its entry has it. */
typedef struct race_side {
	uint64_t cta;
	uint32_t warp, lanes, pc, from, epoch;
	uint8_t kind;
} race_side;

/* A finding: one kind and pair of PCs (pc2 unused by the one-access
 * kinds), how many times, and its example (the least by race_less). */
typedef struct race_find {
	uint8_t fk;
	uint8_t space;       /* race_space of the address                     */
	uint32_t pc1, pc2;
	uint64_t count;
	race_side s1, s2;
	uint64_t addr;       /* the example's first byte                      */
	uint32_t nbytes;
	uint32_t v1, v2;     /* lane-conflict: two of the values              */
} race_find;

typedef struct race_finds {
	race_find *f;
	size_t n, cap;
} race_finds;

/* Add one occurrence of f (count 1) to the set: a new finding, or the
 * count of its kind and PCs, keeping the lesser example. */
bool race_finds_add(race_finds *s, const race_find *f);
/* Add every finding of b (with its count) to a. */
bool race_finds_merge(race_finds *a, const race_finds *b);
/* The findings as --check lines, in a fixed order (kind, then PCs). */
void race_finds_write(const we_launch_ctx *L, race_finds *fs, check_log *log);

/* Two accesses race: the finding, sides ordered by PC (then warp). */
void race_pair(race_cta *k, uint8_t fk, const race_ent *a, const race_ent *b, uint64_t word_addr,
	       uint8_t bytes);

/* The launch's global shadow (race_global.c). */
typedef struct race_gshadow race_gshadow;
race_gshadow *race_gshadow_new(void);
void race_gshadow_free(race_gshadow *g);

struct race_launch {
	const we_launch_ctx *L;
	pthread_mutex_t lock;        /* finds                                   */
	race_finds finds;
	bool oom;                    /* a finding was lost to memory            */
	race_gshadow *g;             /* under its own lock                      */
};

typedef struct race_svslot {
	uint32_t word, idx;
} race_svslot;

/* The words an access touches, each with its bytes and the lanes that
 * touch it (one per word for the whole instruction): how many into u
 * (room for 32 * 4). */
typedef struct race_word {
	uint64_t word;
	uint32_t lanes;
	uint8_t bytes;
} race_word;
unsigned race_words_of(const race_access *a, race_word *u);

/* Per warp of a CTA: the dedup set of its accesses in its current
 * interval (an access seen in it is not recorded again).  A slot holds 32
 * consecutive words of one (space, pc, kind, bytes) as a bit mask, so
 * that a warp's run of words looks up one or two slots; the last slot
 * used is remembered. */
typedef struct race_seen {
	struct seen_slot {
		uint64_t blk;        /* word / 32 | space << 62               */
		uint32_t pc, stamp;
		uint32_t bits;       /* the words of the block seen           */
		uint16_t kb;         /* kind | bytes << 5                     */
	} *s;
	uint32_t cap, n, stamp;
	uint32_t last;               /* the last slot used + 1 (0: none)     */
} race_seen;

struct race_cta {
	const we_launch_ctx *L;
	race_launch *launch;
	uint32_t nwarps;
	/* vc[w][v]: how many of warp v's sync points warp w is ordered after
	 * (vc[w][w]: its own clock, from 1) */
	uint32_t vc[32][32];
	uint32_t from[32];           /* PC of each warp's last sync point       */
	uint32_t floor[32];          /* min over the other live warps of vc[.][v] */
	uint32_t exited_vc[32];
	uint32_t bacc[WE_BAR_SLOTS][32]; /* what a barrier phase's arrivals released */
	uint32_t bused;                  /* barriers with a non-empty bacc        */
	uint32_t nacc[32][32], ndone[32][32]; /* named barriers: current, completed */
	uint32_t nused;
	/* fences and atomics */
	uint32_t rel[32][32];        /* the clock at the warp's last MEMBAR     */
	bool relok[32], relgpu[32];  /* a warp has one; of scope GPU/SYS        */
	uint32_t pend[32][32];       /* acquired by atomics, for the next MEMBAR */
	bool pendok[32];
	/* A multi-threaded CTA's atomics: a shared one takes slock, a global
	 * one the global shadow's lock, from its release and acquire until
	 * the access is done (race_atomic_begin/end), so that they happen in
	 * the order of the memory's atomics.  What they touch of the warp
	 * (rel, relok, relgpu, pend, pendok, pendg) only its own thread
	 * writes. */
	pthread_mutex_t slock;
	bool slock_made;
	race_acq pendg[32], acq[32], bacq[WE_BAR_SLOTS], nacq[32], ndacq[32];
	/* shared memory: per word, its generation and entry chains, and the
	 * bytes written by an access every live warp is ordered after
	 * (uninit).  When every entry of the CTA is one every live warp is
	 * ordered after (after a CTA-wide barrier, usually), they are all
	 * dropped at once (race_floors): the generation moves on, a word of an
	 * older one has no entries, and every write recorded in it (shwr)
	 * initialised its bytes. */
	uint32_t nwords;
	uint32_t *sh;                /* nwords * SH_STRIDE: generation, heads   */
	uint8_t *shinit, *shwr;      /* bytes initialised; written (recorded)  */
	uint32_t gen;
	uint32_t maxep[32];          /* each warp's newest entry's epoch (0: none) */
	uint32_t lo, hi;             /* words touched: [lo, hi)                  */
	race_pool pool;
	/* shared sync words (atomics): word -> clock */
	race_svslot *sv;             /* open addressing, idx + 1                */
	uint32_t svcap, svn;
	uint32_t (*svc)[32];
	/* local memory: bits written, per thread */
	uint8_t *linit;
	size_t linit_bytes, linit_hi;
	race_seen seen[32];
	race_finds finds;
	_Atomic bool oom;            /* something was not recorded: no memory */
};

static inline void race_set_oom(race_cta *k)
{
	atomic_store_explicit(&k->oom, true, memory_order_relaxed);
}

/* The clock of warp w moves on: a sync point at pc. */
void race_tick(race_cta *k, uint32_t w, uint64_t pc);
/* After warps' clocks grew: the floors. */
void race_floors(we_cta *c);

/* Global memory: warp w's access a (under the CTA lock); inc: its lanes
 * at increasing aligned addresses (one word of it to each lane alone). */
void race_global_access(we_cta *c, const struct we_warp *w, const race_access *a, bool inc);
/* A global atomic of warp w on the n words of u: its releases (rel) and
 * acquires (acq), the shadow's lock taken (kept until
 * race_global_unlock); cta: of CTA scope (its release is for its own
 * CTA only). */
void race_global_atomic(we_cta *c, uint32_t w, const race_word *u, unsigned n, bool rel, bool acq, bool cta);
void race_global_unlock(we_cta *c);
/* Warp w's MEMBAR: what it acquired from global sync words (pendg) into
 * its clock (its own CTA's releases) and acq (other CTAs'). */
void race_global_fence(we_cta *c, uint32_t w, unsigned scope);

/* The dedup set's slot of (blk, pc, kb), made when new (the slow path of
 * race_seen_new); NULL when out of memory. */
struct seen_slot *race_seen_slot(race_seen *t, uint64_t blk, uint32_t pc, uint16_t kb);

/* The dedup set: true when (space, word, pc, kind, bytes) is new to
 * warp w's interval (and records it). */
static inline bool race_seen_new(race_cta *k, uint32_t w, unsigned space, uint64_t word, uint32_t pc,
				 unsigned kind, unsigned bytes)
{
	race_seen *t = &k->seen[w];
	const uint64_t blk = word / 32u | (uint64_t)space << 62;
	const uint32_t bit = 1u << (word % 32u);
	const uint16_t kb = (uint16_t)(kind | bytes << 5);
	struct seen_slot *s = t->last ? &t->s[t->last - 1u] : NULL;
	if (!s || s->blk != blk || s->pc != pc || s->kb != kb) {
		s = race_seen_slot(t, blk, pc, kb);
		if (!s)
			return true; /* (out of memory: recorded again, never lost) */
	}
	if (s->bits & bit)
		return false;
	s->bits |= bit;
	return true;
}

#endif
