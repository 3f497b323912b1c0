/* race_global.c — --check=races on global memory (race.h): the launch's
 * shadow of the words the kernel touches, shared by every CTA and host
 * thread under one mutex, and the hand-offs between CTAs through
 * MEMBAR + atomics. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cta/race_int.h"

/* A release into a sync word: an atomic after a MEMBAR, by a CTA, with
 * the clock of the warp at the fence; chained per (word, CTA), newest
 * first. */
typedef struct grec {
	uint64_t cta;
	uint32_t seq;        /* its number among the word's releases */
	uint32_t next;       /* the same CTA's previous release, + 1 */
	uint32_t vnext;      /* the word's previous release (any CTA), + 1 */
	uint32_t hb, nhb;    /* what the warp had acquired from other CTAs
				(race_cta.acq: its (var, len) pairs), at
				g->hb[hb, hb + nhb): what came before the
				release in other CTAs (global_chained) */
	bool gpu;            /* MEMBAR.GPU/SYS: other CTAs may acquire it */
	uint32_t vc[32];
} grec;

typedef struct gpair {
	uint32_t var, len;
} gpair;

/* A sync word (a var): its releases so far, the newest (+ 1), and how
 * many of them global_chained has explored in its current search. */
typedef struct gvar {
	uint32_t len, head, done;
} gvar;

typedef struct gslot {
	uint64_t key;        /* page number, sync word, or (var, CTA) hash key */
	uint64_t key2;
	uint32_t idx;        /* + 1; 0: empty */
} gslot;

/* An open-addressing map of 64-bit keys (and a second one) to indices. */
typedef struct gmap {
	gslot *s;
	uint32_t cap, n;
} gmap;

struct race_gshadow {
	pthread_mutex_t lock;
	gmap pages;                  /* page number -> pages[idx]            */
	uint32_t **page;             /* RACE_WORDS_PER_PAGE * CH_N heads each */
	uint32_t npages, pagecap;
	uint64_t last_pg;            /* the page last looked up (+ 1), and its heads */
	uint32_t *last_heads;
	race_pool pool;
	gmap vars;                   /* sync word -> var                     */
	gvar *v;                     /* per var - 1                          */
	uint32_t nvars, varcap;
	gpair *hb;                   /* the releases' acquired sets (grec.hb) */
	uint32_t nhb, hbcap;
	bool chained;                /* some release has a non-empty set     */
	/* global_chained's worklist and the vars it touched */
	gpair *work;
	uint32_t nwork, workcap;
	uint32_t *touched;
	uint32_t ntouched, touchcap;
	gmap last;                   /* (var, CTA) -> newest record + 1      */
	grec *rec;
	uint32_t nrec, reccap;
	bool oom;
	bool cta_scoped;             /* a strong access of CTA scope was made */
};

static inline uint32_t gmap_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * UINT64_C(0x9e3779b97f4a7c15) ^ (b + UINT64_C(0x632be59bd9b4e019));
	h ^= h >> 31;
	return (uint32_t)((h * UINT64_C(0xbf58476d1ce4e5b9)) >> 32);
}

/* The slot of (a, b): found, or the empty one where it goes. */
static gslot *gmap_slot(const gmap *m, uint64_t a, uint64_t b)
{
	uint32_t h = gmap_hash(a, b) & (m->cap - 1u);
	while (m->s[h].idx && (m->s[h].key != a || m->s[h].key2 != b))
		h = (h + 1u) & (m->cap - 1u);
	return &m->s[h];
}

/* Room for one more key; false when out of memory. */
static bool gmap_room(gmap *m)
{
	if (m->cap && (m->n + 1u) * 2u <= m->cap)
		return true;
	const uint32_t cap = m->cap ? m->cap * 2u : 256u;
	gslot *s = calloc(cap, sizeof *s), *old = m->s;
	if (!s)
		return false;
	const uint32_t oldcap = m->cap;
	m->s = s;
	m->cap = cap;
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].idx)
			*gmap_slot(m, old[i].key, old[i].key2) = old[i];
	free(old);
	return true;
}

/* Grow an array of `size`-byte items to hold n + 1. */
static bool grow(void **p, uint32_t *cap, uint32_t n, size_t size)
{
	if (n < *cap)
		return true;
	const uint32_t c = *cap ? *cap * 2u : 64u;
	void *q = realloc(*p, (size_t)c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

race_gshadow *race_gshadow_new(void)
{
	race_gshadow *g = calloc(1, sizeof *g);
	if (g && pthread_mutex_init(&g->lock, NULL)) {
		free(g);
		return NULL;
	}
	return g;
}

void race_gshadow_free(race_gshadow *g)
{
	if (!g)
		return;
	for (uint32_t i = 0; i < g->npages; i++)
		free(g->page[i]);
	free(g->page);
	free(g->pages.s);
	free(g->pool.e);
	free(g->vars.s);
	free(g->v);
	free(g->touched);
	free(g->hb);
	free(g->work);
	free(g->last.s);
	free(g->rec);
	if (pthread_mutex_destroy(&g->lock))
		abort(); /* EBUSY: a broken invariant */
	free(g);
}

/* The chain heads of global word wd, its page made when new (the slow
 * path of word_heads). */
static uint32_t *word_heads_page(race_gshadow *g, uint64_t wd)
{
	const uint64_t pg = wd / RACE_WORDS_PER_PAGE;
	if (!gmap_room(&g->pages))
		return NULL;
	gslot *s = gmap_slot(&g->pages, pg, 0);
	if (!s->idx) {
		uint32_t *p = calloc((size_t)RACE_WORDS_PER_PAGE * CH_N, sizeof *p);
		if (!p || !grow((void **)&g->page, &g->pagecap, g->npages, sizeof *g->page)) {
			free(p);
			return NULL;
		}
		g->page[g->npages++] = p;
		*s = (gslot){ .key = pg, .key2 = 0, .idx = g->npages };
		g->pages.n++;
	}
	g->last_pg = pg + 1u;
	g->last_heads = g->page[s->idx - 1u];
	return g->last_heads + (size_t)(wd % RACE_WORDS_PER_PAGE) * CH_N;
}

/* The chain heads of global word wd: the last page looked up, or
 * word_heads_page. */
static inline uint32_t *word_heads(race_gshadow *g, uint64_t wd)
{
	if (g->last_pg == wd / RACE_WORDS_PER_PAGE + 1u)
		return g->last_heads + (size_t)(wd % RACE_WORDS_PER_PAGE) * CH_N;
	return word_heads_page(g, wd);
}

/* The sync variable of global word wd (+ 1), made when `make`; 0: none. */
static uint32_t sync_var(race_gshadow *g, uint64_t wd, bool make)
{
	if (make && !gmap_room(&g->vars))
		return 0;
	if (!g->vars.cap)
		return 0;
	gslot *s = gmap_slot(&g->vars, wd, 1);
	if (s->idx || !make)
		return s->idx;
	if (!grow((void **)&g->v, &g->varcap, g->nvars, sizeof *g->v))
		return 0;
	g->v[g->nvars++] = (gvar){ 0, 0, 0 };
	*s = (gslot){ .key = wd, .key2 = 1, .idx = g->nvars };
	g->vars.n++;
	return s->idx;
}

/* The newest release of CTA cta into var (+ 1), 0: none. */
static uint32_t last_rec(const race_gshadow *g, uint32_t var, uint64_t cta)
{
	if (!g->last.cap)
		return 0;
	return gmap_slot(&g->last, cta, var)->idx;
}

/* A global atomic of warp w of CTA c on word wd: a release (when rel)
 * when the warp fenced before (its clock at the MEMBAR; for other CTAs
 * too when the fence and the access are of GPU scope or wider), and an
 * acquire (when acq) for its next MEMBAR (the word's releases so far). */
static void global_atomic(race_gshadow *g, we_cta *c, uint32_t w, uint64_t wd, bool rel, bool acq, bool cta)
{
	race_cta *k = c->race;
	rel = rel && k->relok[w];
	const uint32_t var = sync_var(g, wd, rel);
	if (!var) {
		g->oom = g->oom || rel;
		return;
	}
	if (rel) {
		const race_acq *a = &k->acq[w];
		bool room = true;
		while (room && g->nhb + a->n > g->hbcap)
			room = grow((void **)&g->hb, &g->hbcap, g->hbcap, sizeof *g->hb);
		if (!room || !grow((void **)&g->rec, &g->reccap, g->nrec, sizeof *g->rec) || !gmap_room(&g->last)) {
			g->oom = true;
			return;
		}
		gslot *s = gmap_slot(&g->last, c->linear_id, var);
		grec *r = &g->rec[g->nrec];
		r->cta = c->linear_id;
		r->seq = g->v[var - 1u].len++;
		r->next = s->idx;
		r->vnext = g->v[var - 1u].head;
		g->v[var - 1u].head = g->nrec + 1u;
		r->gpu = k->relgpu[w] && !cta;
		r->hb = g->nhb;
		r->nhb = a->n;
		for (uint32_t j = 0; j < a->n; j++)
			g->hb[g->nhb++] = (gpair){ a->v[j].var, a->v[j].len };
		g->chained = g->chained || a->n;
		memcpy(r->vc, k->rel[w], sizeof r->vc);
		if (!s->idx)
			g->last.n++;
		*s = (gslot){ .key = c->linear_id, .key2 = var, .idx = ++g->nrec };
	}
	if (acq && !race_acq_add(&k->pendg[w], var, g->v[var - 1u].len))
		race_set_oom(k);
}

void race_global_fence(we_cta *c, uint32_t w, unsigned scope)
{
	race_cta *k = c->race;
	race_gshadow *g = k->launch->g;
	if (!k->pendg[w].n)
		return;
	if (pthread_mutex_lock(&g->lock))
		abort();
	for (uint32_t j = 0; j < k->pendg[w].n; j++) {
		const uint32_t var = k->pendg[w].v[j].var, len = k->pendg[w].v[j].len;
		/* this CTA's releases join the warp's clock at once; other
		 * CTAs' are looked up when an access of theirs is met
		 * (global_ordered), and only by a fence of GPU scope */
		for (uint32_t r = last_rec(g, var, c->linear_id); r; r = g->rec[r - 1u].next)
			if (g->rec[r - 1u].seq < len)
				for (unsigned v = 0; v < 32; v++)
					if (g->rec[r - 1u].vc[v] > k->vc[w][v])
						k->vc[w][v] = g->rec[r - 1u].vc[v];
		if (scope && !race_acq_add(&k->acq[w], var, len))
			race_set_oom(k);
	}
	k->pendg[w].n = 0;
	if (pthread_mutex_unlock(&g->lock))
		abort();
}

/* Whether release x (of f's CTA) came after f and reaches other CTAs. */
static inline bool rec_covers(const grec *x, const race_ent *f)
{
	return x->gpu && x->vc[f->warp] >= f->epoch;
}

/* A var's releases [from, len) to be explored by global_chained. */
static bool chain_push(race_gshadow *g, uint32_t var, uint32_t len)
{
	gvar *v = &g->v[var - 1u];
	if (len <= v->done)
		return true;
	if (!grow((void **)&g->work, &g->workcap, g->nwork, sizeof *g->work) ||
	    (!v->done && !grow((void **)&g->touched, &g->touchcap, g->ntouched, sizeof *g->touched)))
		return false;
	if (!v->done)
		g->touched[g->ntouched++] = var;
	g->work[g->nwork++] = (gpair){ var, v->done };
	v->done = len;
	return true;
}

/* The hand-offs between CTAs followed through other CTAs (spec-reading:
 * "Races"): f is ordered before what warp w does now when w acquired a
 * release of some CTA B that B made after acquiring a release of f's
 * CTA that came after f, and so on along any chain of CTAs.  A search
 * over the releases w's acquisitions reach: each var's releases explored
 * once (gvar.done). */
static bool global_chained(race_gshadow *g, const race_cta *k, uint32_t w, const race_ent *f)
{
	const race_acq *a = &k->acq[w];
	bool found = false, ok = true;
	g->nwork = g->ntouched = 0;
	for (uint32_t j = 0; j < a->n && ok; j++)
		ok = chain_push(g, a->v[j].var, a->v[j].len);
	while (ok && !found && g->nwork) {
		const gpair p = g->work[--g->nwork];
		/* (the releases of seq in [p.len, done) were pushed as this pair) */
		const uint32_t from = p.len, to = g->v[p.var - 1u].done;
		for (uint32_t r = g->v[p.var - 1u].head; r && ok && !found; r = g->rec[r - 1u].vnext) {
			const grec *x = &g->rec[r - 1u];
			if (x->seq < from || x->seq >= to || !x->gpu)
				continue;
			if (x->cta == f->cta) {
				found = rec_covers(x, f);
				continue;
			}
			for (uint32_t j = 0; j < x->nhb && ok; j++)
				ok = chain_push(g, g->hb[x->hb + j].var, g->hb[x->hb + j].len);
		}
	}
	for (uint32_t j = 0; j < g->ntouched; j++)
		g->v[g->touched[j] - 1u].done = 0;
	if (!ok)
		g->oom = true;
	return found;
}

/* f, an access of another CTA, is ordered before what warp w does now
 * by a hand-off: w acquired (atomic, then MEMBAR.GPU) a release of f's
 * CTA (MEMBAR.GPU, then atomic) that came after f, directly or through
 * other CTAs (global_chained). */
static bool global_ordered(race_gshadow *g, const race_cta *k, uint32_t w, const race_ent *f)
{
	const race_acq *a = &k->acq[w];
	for (uint32_t j = 0; j < a->n; j++)
		for (uint32_t r = last_rec(g, a->v[j].var, f->cta); r; r = g->rec[r - 1u].next) {
			const grec *x = &g->rec[r - 1u];
			if (x->seq < a->v[j].len && rec_covers(x, f))
				return true;
		}
	return g->chained && a->n && global_chained(g, k, w, f);
}

static inline bool writes(unsigned kind) { return (kind & RACE_WRITE) != 0; }

/* What the words of one global access share: its entry (less each word's
 * lanes and bytes), the warp's clock. */
typedef struct gl_acc {
	race_ent t;
	const uint32_t *vcw;
} gl_acc;

/* Chain ch of a global word, for access s (bytes, lanes) to it: the
 * entries that race with s found. */
static inline __attribute__((always_inline)) void global_chain(race_gshadow *g, race_cta *k, const gl_acc *s,
							       uint64_t wd, uint32_t i, unsigned bytes,
							       uint32_t lanes)
{
	const unsigned kind = s->t.kind;
	for (; i; i = g->pool.e[i].next) {
		const race_ent *f = &g->pool.e[i];
		if (!(f->bytes & bytes) || (!writes(f->kind) && !writes(kind)))
			continue;
		/* two atomic or strong accesses race only from two CTAs, one of
		 * them strong for its CTA only */
		if (((f->kind & kind) & RACE_ATOMIC) &&
		    (f->cta == s->t.cta || !((f->kind | kind) & RACE_SCOPE_CTA)))
			continue;
		unsigned fk;
		if (f->cta == s->t.cta) {
			/* (the warp's own entries are ordered: vcw[w] is its clock) */
			if (s->vcw[f->warp] >= f->epoch)
				continue;
			fk = FK_GLOBAL;
		} else {
			if (global_ordered(g, k, s->t.warp, f))
				continue;
			fk = FK_CTAS;
		}
		race_ent e = s->t;
		e.lanes = lanes;
		e.bytes = (uint8_t)bytes;
		race_pair(k, (uint8_t)fk, f, &e, wd * 4u, (uint8_t)(f->bytes & bytes));
	}
}

/* The access s to global word wd (its bytes, the lanes that touch it):
 * compared with the word's earlier accesses it may race with (a read
 * with writes and atomics, a write with everything, an atomic with plain
 * accesses, and with atomics once a strong access of CTA scope was
 * made), then recorded. */
static inline __attribute__((always_inline)) void global_word(race_gshadow *g, race_cta *k, const gl_acc *s,
							      uint64_t wd, unsigned bytes, uint32_t lanes)
{
	uint32_t *head = word_heads(g, wd);
	if (!head) {
		g->oom = true;
		return;
	}
	const unsigned kind = s->t.kind;
	if (head[CH_READ] && writes(kind))
		global_chain(g, k, s, wd, head[CH_READ], bytes, lanes);
	if (head[CH_WRITE])
		global_chain(g, k, s, wd, head[CH_WRITE], bytes, lanes);
	if (head[CH_ATOMIC] && (!(kind & RACE_ATOMIC) || g->cta_scoped))
		global_chain(g, k, s, wd, head[CH_ATOMIC], bytes, lanes);
	const uint32_t n = race_pool_new(&g->pool);
	if (!n) {
		g->oom = true;
		return;
	}
	race_ent *d = &g->pool.e[n];
	*d = s->t;
	d->lanes = lanes;
	d->bytes = (uint8_t)bytes;
	d->next = head[race_chain(kind)];
	head[race_chain(kind)] = n;
}

void race_global_access(we_cta *c, const we_warp *w, const race_access *a, bool inc)
{
	race_cta *k = c->race;
	race_gshadow *g = k->launch->g;
	const bool races = (c->L->memcheck & RACE_RACES) != 0;
	const gl_acc s = { .t = { .cta = c->linear_id, .warp = (uint8_t)w->id, .kind = a->kind,
				  .epoch = k->vc[w->id][w->id], .pc = (uint32_t)a->pc, .from = k->from[w->id] },
			   .vcw = k->vc[w->id] };
	if (pthread_mutex_lock(&g->lock))
		abort();
	if (races && inc && a->size >= 4) {
		/* each lane's words alone: no search for the lanes of a word */
		const unsigned nw = a->size / 4u;
		for (uint32_t m = a->lanes; m; m &= m - 1) {
			const unsigned l = (unsigned)__builtin_ctz(m);
			for (uint64_t wd = a->addr[l] / 4u, j = 0; j < nw; j++)
				if (race_seen_new(k, w->id, RACE_GLOBAL, wd + j, s.t.pc, a->kind, 0xfu))
					global_word(g, k, &s, wd + j, 0xfu, 1u << l);
		}
	} else if (races) {
		race_word u[32 * 4];
		const unsigned n = race_words_of(a, u);
		for (unsigned j = 0; j < n; j++)
			if (race_seen_new(k, w->id, RACE_GLOBAL, u[j].word, s.t.pc, a->kind, u[j].bytes))
				global_word(g, k, &s, u[j].word, u[j].bytes, u[j].lanes);
	}
	if (g->oom)
		race_set_oom(k);
	if (pthread_mutex_unlock(&g->lock))
		abort();
}

void race_global_atomic(we_cta *c, uint32_t w, const race_word *u, unsigned n, bool rel, bool acq, bool cta)
{
	race_gshadow *g = c->race->launch->g;
	if (pthread_mutex_lock(&g->lock))
		abort();
	if (cta)
		g->cta_scoped = true;
	for (unsigned j = 0; j < n; j++)
		global_atomic(g, c, w, u[j].word, rel, acq, cta);
}

void race_global_unlock(we_cta *c)
{
	if (pthread_mutex_unlock(&c->race->launch->g->lock))
		abort();
}
