/* race.c — --check=races,uninit within a CTA (race.h): the order its
 * barriers, fences and atomics give, as vector clocks, and the shadow of
 * its shared and local memory; and the launch's state (the global shadow
 * of race_global.c, the findings of race_find.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cta/race_int.h"

/* A new interval of warp w's dedup set. */
static void seen_next(race_seen *t)
{
	t->n = 0;
	t->last = 0;
	if (++t->stamp == 0) {
		/* (the stamp wrapped: no slot may look current) */
		if (t->s)
			memset(t->s, 0, (size_t)t->cap * sizeof *t->s);
		t->stamp = 1;
	}
}

/* ---- the CTA's state -------------------------------------------------- */

race_cta *race_cta_new(const we_launch_ctx *L)
{
	race_cta *k = calloc(1, sizeof *k);
	if (!k)
		return NULL;
	k->L = L;
	k->launch = L->race;
	k->nwords = (L->shared_bytes + 3u) / 4u;
	k->sh = calloc((size_t)k->nwords * SH_STRIDE + 1u, sizeof *k->sh);
	k->shinit = calloc((size_t)k->nwords + 1u, 1);
	k->shwr = calloc((size_t)k->nwords + 1u, 1);
	k->linit_bytes = ((size_t)L->local_bytes * L->warps_per_cta * WE_WARP_SIZE + 7u) / 8u;
	k->linit = calloc(k->linit_bytes + 1u, 1);
	k->lo = k->nwords;
	k->slock_made = k->sh && k->shinit && k->shwr && k->linit && !pthread_mutex_init(&k->slock, NULL);
	if (!k->slock_made) {
		race_cta_free(k);
		return NULL;
	}
	return k;
}

void race_cta_free(race_cta *k)
{
	if (!k)
		return;
	free(k->sh);
	free(k->shinit);
	free(k->shwr);
	free(k->linit);
	free(k->pool.e);
	free(k->sv);
	free(k->svc);
	for (unsigned w = 0; w < 32; w++) {
		free(k->seen[w].s);
		free(k->pendg[w].v);
		free(k->acq[w].v);
		free(k->nacq[w].v);
		free(k->ndacq[w].v);
	}
	for (unsigned b = 0; b < WE_BAR_SLOTS; b++)
		free(k->bacq[b].v);
	free(k->finds.f);
	if (k->slock_made && pthread_mutex_destroy(&k->slock))
		abort(); /* EBUSY: a broken invariant */
	free(k);
}

/* Every shared entry dropped at once: a new generation (race_cta). */
static void shared_drop_all(race_cta *k)
{
	if (++k->gen == 0) {
		/* (wrapped: no word may look current) */
		memset(k->sh, 0, (size_t)k->nwords * SH_STRIDE * sizeof *k->sh);
		k->gen = 1;
	}
	memset(k->maxep, 0, sizeof k->maxep);
	k->pool.n = 1;
	k->pool.free = 0;
}

void race_cta_start(we_cta *c)
{
	race_cta *k = c->race;
	k->nwarps = c->nwarps;
	for (uint32_t w = 0; w < 32; w++) {
		memset(k->vc[w], 0, sizeof k->vc[w]);
		k->vc[w][w] = 1;
		k->from[w] = RACE_NO_PC;
		seen_next(&k->seen[w]);
		k->pendg[w].n = k->acq[w].n = k->nacq[w].n = k->ndacq[w].n = 0;
	}
	memset(k->exited_vc, 0, sizeof k->exited_vc);
	for (uint32_t m = k->bused; m; m &= m - 1) {
		memset(k->bacc[__builtin_ctz(m)], 0, sizeof k->bacc[0]);
		k->bacq[__builtin_ctz(m)].n = 0;
	}
	for (uint32_t m = k->nused; m; m &= m - 1) {
		memset(k->nacc[__builtin_ctz(m)], 0, sizeof k->nacc[0]);
		memset(k->ndone[__builtin_ctz(m)], 0, sizeof k->ndone[0]);
	}
	k->bused = k->nused = 0;
	memset(k->relok, 0, sizeof k->relok);
	memset(k->relgpu, 0, sizeof k->relgpu);
	memset(k->pendok, 0, sizeof k->pendok);
	/* the words' chains: of an older generation */
	shared_drop_all(k);
	if (k->hi > k->lo) {
		memset(k->shinit + k->lo, 0, k->hi - k->lo);
		memset(k->shwr + k->lo, 0, k->hi - k->lo);
	}
	k->lo = k->nwords;
	k->hi = 0;
	if (k->svn)
		memset(k->sv, 0, (size_t)k->svcap * sizeof *k->sv);
	k->svn = 0;
	if (k->linit_hi)
		memset(k->linit, 0, k->linit_hi);
	k->linit_hi = 0;
	k->finds.n = 0;
	atomic_store_explicit(&k->oom, false, memory_order_relaxed);
	race_floors(c);
}

/* ---- clocks ------------------------------------------------------------- */

/* d = max(d, s): clocks of the CTA's warps (entries past nwarps stay 0) */
static inline void vc_join(const race_cta *k, uint32_t *d, const uint32_t *s)
{
	for (unsigned v = 0; v < k->nwarps; v++)
		d[v] = s[v] > d[v] ? s[v] : d[v];
}

void race_tick(race_cta *k, uint32_t w, uint64_t pc)
{
	k->vc[w][w]++;
	k->from[w] = (uint32_t)pc;
	seen_next(&k->seen[w]);
}

void race_floors(we_cta *c)
{
	race_cta *k = c->race;
	uint32_t live = 0;
	for (uint32_t w = 0; w < k->nwarps; w++)
		if (c->warps[w].state != WE_WS_EXITED)
			live |= 1u << w;
	for (uint32_t v = 0; v < k->nwarps; v++) {
		uint32_t f = UINT32_MAX;
		for (uint32_t m = live & ~(1u << v); m; m &= m - 1) {
			const uint32_t x = k->vc[__builtin_ctz(m)][v];
			f = x < f ? x : f;
		}
		k->floor[v] = f;
	}
	/* every shared entry one every live warp is ordered after: all
	 * dropped now (race_cta: what the lazy drop in shared_chain would do
	 * word by word).  Not the current interval's of a live warp: its
	 * repeats are found on its chains (shared_word). */
	bool all = k->pool.n > 1;
	for (uint32_t v = 0; v < k->nwarps && all; v++)
		all = !k->maxep[v] || (k->maxep[v] <= k->floor[v] && (!((live >> v) & 1u) || k->maxep[v] < k->vc[v][v]));
	if (all)
		shared_drop_all(k);
}

/* Warp w releases into acc (and its acquired hand-offs into acq). */
static void release_into(race_cta *k, uint32_t w, uint32_t *acc, race_acq *acq)
{
	vc_join(k, acc, k->vc[w]);
	if (!race_acq_merge(acq, &k->acq[w]))
		race_set_oom(k);
}

/* The warps of recv acquire acc (and acq). */
static void acquire_from(race_cta *k, uint32_t recv, const uint32_t *acc, const race_acq *acq)
{
	for (uint32_t m = recv; m; m &= m - 1) {
		const uint32_t r = (uint32_t)__builtin_ctz(m);
		vc_join(k, k->vc[r], acc);
		if (!race_acq_merge(&k->acq[r], acq))
			race_set_oom(k);
	}
}

void race_bar_arrive(we_cta *c, const we_warp *w, const bar_arrival *a, bool counted, bool completed,
		     uint32_t wake)
{
	race_cta *k = c->race;
	const unsigned id = a->id;
	release_into(k, w->id, k->bacc[id], &k->bacq[id]);
	k->bused |= 1u << id;
	race_tick(k, w->id, a->pc);
	if (!completed)
		return;
	/* a cnt = 0 phase counts the exited warps as arrived */
	if (!counted)
		vc_join(k, k->bacc[id], k->exited_vc);
	/* the waiters, and the completing warp when it would have waited
	 * (BAR.ARV and BAR.SCAN only release) */
	acquire_from(k, wake | (a->wait ? 1u << w->id : 0u), k->bacc[id], &k->bacq[id]);
	memset(k->bacc[id], 0, sizeof k->bacc[id]);
	k->bacq[id].n = 0;
	race_floors(c);
}

void race_warp_exited(we_cta *c, uint32_t wi, const uint32_t *phase_before, uint32_t wake)
{
	race_cta *k = c->race;
	vc_join(k, k->exited_vc, k->vc[wi]);
	for (unsigned id = 0; id < WE_BAR_SLOTS; id++) {
		if (c->bars.b[id].phase == phase_before[id])
			continue;
		vc_join(k, k->bacc[id], k->exited_vc);
		uint32_t recv = 0;
		for (uint32_t m = wake; m; m &= m - 1)
			if (c->warps[__builtin_ctz(m)].bar_id == (int)id)
				recv |= m & -m;
		acquire_from(k, recv, k->bacc[id], &k->bacq[id]);
		memset(k->bacc[id], 0, sizeof k->bacc[id]);
		k->bacq[id].n = 0;
	}
	race_floors(c);
}

void race_nbar_signal(we_cta *c, const we_warp *w, uint64_t pc, uint32_t id, bool completed, uint32_t wake)
{
	race_cta *k = c->race;
	id &= 31u;
	release_into(k, w->id, k->nacc[id], &k->nacq[id]);
	k->nused |= 1u << id;
	race_tick(k, w->id, pc);
	if (!completed)
		return;
	/* the completed phase, kept for its consumers' waits (the id is not
	 * reused before every consumer waited: nbar.h) */
	memcpy(k->ndone[id], k->nacc[id], sizeof k->ndone[id]);
	memset(k->nacc[id], 0, sizeof k->nacc[id]);
	k->ndacq[id].n = 0;
	if (!race_acq_merge(&k->ndacq[id], &k->nacq[id]))
		race_set_oom(k);
	k->nacq[id].n = 0;
	acquire_from(k, wake, k->ndone[id], &k->ndacq[id]);
	race_floors(c);
}

void race_nbar_passed(we_cta *c, const we_warp *w, uint32_t id)
{
	race_cta *k = c->race;
	acquire_from(k, 1u << w->id, k->ndone[id & 31u], &k->ndacq[id & 31u]);
	race_floors(c);
}

/* ---- shared sync words (atomics within the CTA) ----------------------- */

/* Grow the shared sync words' table; false when out of memory. */
static bool shared_sync_grow(race_cta *k)
{
	const uint32_t cap = k->svcap ? k->svcap * 2u : 64u;
	race_svslot *sv = calloc(cap, sizeof *sv);
	uint32_t(*svc)[32] = sv ? realloc(k->svc, (size_t)cap * sizeof *k->svc) : NULL;
	if (!svc) {
		free(sv);
		return false;
	}
	k->svc = svc;
	for (uint32_t i = 0; i < k->svcap; i++) {
		if (!k->sv[i].idx)
			continue;
		uint32_t h = (k->sv[i].word * 2654435761u) & (cap - 1u);
		while (sv[h].idx)
			h = (h + 1u) & (cap - 1u);
		sv[h] = k->sv[i];
	}
	free(k->sv);
	k->sv = sv;
	k->svcap = cap;
	return true;
}

/* The clock of shared word `word` (created when `make`), or NULL. */
static uint32_t *shared_sync(race_cta *k, uint32_t word, bool make)
{
	if (make && k->svn * 2u >= k->svcap && !shared_sync_grow(k)) {
		race_set_oom(k);
		return NULL;
	}
	if (!k->svcap)
		return NULL;
	uint32_t h = (word * 2654435761u) & (k->svcap - 1u);
	for (; k->sv[h].idx; h = (h + 1u) & (k->svcap - 1u))
		if (k->sv[h].word == word)
			return k->svc[k->sv[h].idx - 1u];
	if (!make)
		return NULL;
	k->sv[h].word = word;
	k->sv[h].idx = ++k->svn;
	memset(k->svc[k->svn - 1u], 0, sizeof k->svc[0]);
	return k->svc[k->svn - 1u];
}

/* An atomic of warp w on shared word `word`: it releases what its last
 * MEMBAR did (rel), and acquires for its next one (acq). */
static void shared_atomic_sync(race_cta *k, uint32_t w, uint32_t word, bool rel, bool acq)
{
	rel = rel && k->relok[w];
	uint32_t *s = shared_sync(k, word, rel);
	if (!s)
		return;
	if (rel)
		vc_join(k, s, k->rel[w]);
	if (acq) {
		vc_join(k, k->pend[w], s);
		k->pendok[w] = true;
	}
}

void race_atomic_begin(we_cta *c, we_warp *w, const race_access *a)
{
	race_cta *k = c->race;
	/* (a generic atomic on local memory: the thread's own, no hand-off) */
	if (a->space == RACE_LOCAL)
		return;
	race_word u[32 * 4];
	const unsigned n = race_words_of(a, u);
	/* a read-modify-write releases and acquires; a strong store only
	 * releases, a strong load only acquires (PTX's release and acquire
	 * patterns: doc/spec-reading.md, "Races") */
	const bool strong = (a->kind & RACE_STRONG) != 0;
	const bool rel = !strong || (a->kind & RACE_WRITE), acq = !strong || (a->kind & RACE_READ);
	if (a->space == RACE_GLOBAL) {
		race_global_atomic(c, w->id, u, n, rel, acq, (a->kind & RACE_SCOPE_CTA) != 0);
		return;
	}
	if (c->sync && pthread_mutex_lock(&k->slock))
		abort(); /* EINVAL/EDEADLK: a broken invariant */
	for (unsigned j = 0; j < n; j++)
		if (u[j].word < k->nwords)
			shared_atomic_sync(k, w->id, (uint32_t)u[j].word, rel, acq);
}

void race_atomic_end(we_cta *c, const race_access *a)
{
	if (a->space == RACE_GLOBAL)
		race_global_unlock(c);
	else if (a->space == RACE_SHARED && c->sync && pthread_mutex_unlock(&c->race->slock))
		abort();
}

void race_fence(we_cta *c, we_warp *w, uint64_t pc, unsigned scope)
{
	race_cta *k = c->race;
	const uint32_t wi = w->id;
	cta_lock(c);
	/* acquire: the atomics since the last fence */
	if (k->pendok[wi]) {
		vc_join(k, k->vc[wi], k->pend[wi]);
		memset(k->pend[wi], 0, sizeof k->pend[wi]);
		k->pendok[wi] = false;
	}
	race_global_fence(c, wi, scope);
	race_floors(c);
	/* release: what the warp did so far, for its next atomics */
	memcpy(k->rel[wi], k->vc[wi], sizeof k->rel[wi]);
	k->relok[wi] = true;
	k->relgpu[wi] = scope != 0;
	race_tick(k, wi, pc);
	cta_unlock(c);
}

/* ---- shared memory ------------------------------------------------------ */

static inline bool writes(unsigned kind) { return (kind & RACE_WRITE) != 0; }

/* What the words of one shared access share: its entry (less each word's
 * lanes and bytes), the warp's clock, the checks on, and the CTA's
 * shadow (copied: the byte stores to it would make the compiler load
 * them again from k word after word). */
typedef struct sh_acc {
	race_ent t;
	const uint32_t *vcw, *floor;
	uint32_t *sh;
	uint8_t *shinit, *shwr;
	uint32_t gen;
	bool races, uninit;
} sh_acc;

/* The chain at *link of a shared word, for access s (of kind `kind`;
 * bytes, lanes) to it: entries every live warp is ordered after dropped
 * (their writes count as initialising the word's bytes), the bytes of
 * the writes ordered before s into *covered, the others that race with
 * s found. */
static inline __attribute__((always_inline)) void shared_chain(race_cta *k, const sh_acc *s, unsigned kind,
							       uint32_t word, uint32_t *link, unsigned bytes,
							       uint32_t lanes, unsigned *covered)
{
	race_ent *pe = k->pool.e;
	while (*link) {
		race_ent *f = &pe[*link];
		const uint32_t fw = f->warp, fe = f->epoch;
		if (fe <= s->floor[fw]) {
			if (writes(f->kind))
				s->shinit[word] |= f->bytes;
			const uint32_t dead = *link;
			*link = f->next;
			race_pool_put(&k->pool, dead);
			continue;
		}
		link = &f->next;
		/* (the warp's own entries are ordered: vcw[w] is its clock) */
		if (s->vcw[fw] >= fe) {
			if (writes(f->kind))
				*covered |= f->bytes;
			continue;
		}
		if ((f->bytes & bytes) && (writes(f->kind) || writes(kind)) && !((f->kind & kind) & RACE_ATOMIC) &&
		    s->races) {
			race_ent e = s->t;
			e.lanes = lanes;
			e.bytes = (uint8_t)bytes;
			race_pair(k, FK_SHARED, f, &e, (uint64_t)word * 4u, (uint8_t)(f->bytes & bytes));
		}
	}
}

/* The access s (of kind `kind`: a constant where the caller can) to
 * shared word `word` (its bytes, the lanes that touch it): compared with
 * every access of the word it may race with, and recorded. */
static inline __attribute__((always_inline)) void shared_word(race_cta *k, const sh_acc *s, unsigned kind,
							      uint32_t word, unsigned bytes, uint32_t lanes)
{
	uint32_t *sw = s->sh + (size_t)word * SH_STRIDE, *head = sw + 1;
	const unsigned own = race_chain(kind);
	unsigned covered = 0; /* bytes a write ordered before this one wrote */
	if (sw[0] != s->gen) {
		/* its entries were dropped with their generation */
		sw[0] = s->gen;
		head[CH_READ] = head[CH_WRITE] = head[CH_ATOMIC] = 0;
		s->shinit[word] = s->shwr[word];
	} else {
		/* the warp's same access in this interval (a loop without a
		 * barrier) is recorded once: its entry is in the chain of its
		 * kind, newer than every older entry of the warp */
		const race_ent *pe = k->pool.e;
		for (uint32_t i = head[own]; i; i = pe[i].next) {
			const race_ent *f = &pe[i];
			if (f->warp != s->t.warp)
				continue;
			if (f->epoch != s->t.epoch)
				break;
			if (f->pc == s->t.pc && f->bytes == bytes && f->kind == kind)
				return;
		}
		/* a read races with no read: the reads are walked only to drop
		 * them, once the newest can go (then usually all can) */
		const uint32_t r = head[CH_READ];
		if (r && (writes(kind) || pe[r].epoch <= s->floor[pe[r].warp]))
			shared_chain(k, s, kind, word, &head[CH_READ], bytes, lanes, &covered);
		if (head[CH_WRITE])
			shared_chain(k, s, kind, word, &head[CH_WRITE], bytes, lanes, &covered);
		if (head[CH_ATOMIC])
			shared_chain(k, s, kind, word, &head[CH_ATOMIC], bytes, lanes, &covered);
	}
	if ((kind & RACE_READ) && s->uninit) {
		const unsigned missing = bytes & ~(covered | s->shinit[word]);
		if (missing) {
			race_ent e = s->t;
			e.lanes = lanes;
			e.bytes = (uint8_t)bytes;
			race_pair(k, FK_UNINIT_SHARED, &e, NULL, (uint64_t)word * 4u, (uint8_t)missing);
		}
	}
	const uint32_t n = race_pool_new(&k->pool);
	if (!n) {
		race_set_oom(k);
		return;
	}
	race_ent *d = &k->pool.e[n];
	*d = s->t;
	d->lanes = lanes;
	d->bytes = (uint8_t)bytes;
	d->next = head[own];
	head[own] = n;
	if (writes(kind))
		s->shwr[word] |= (uint8_t)bytes;
}

/* The lanes of a are at strictly increasing addresses, each aligned to
 * the size (the usual thread-indexed access): no two lanes touch one
 * word of it, each lane's words are its own. */
static bool lanes_increasing(const race_access *a)
{
	const uint64_t align = a->size - 1u, *ad = a->addr;
	if (a->lanes == 0xffffffffu) {
		/* (every lane: without branches) */
		/* (a valid access's lanes are far less than 2^63 bytes apart: a
		 * lane below the one before it gives a negative difference) */
		uint64_t any = ad[0], neg = 0;
		for (unsigned l = 1; l < 32; l++) {
			any |= ad[l];
			neg |= ad[l] - ad[l - 1] - a->size;
		}
		return !(any & align) && !(neg >> 63);
	}
	uint64_t next = 0; /* the least address the next lane may have */
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const uint64_t x = ad[__builtin_ctz(m)];
		if ((x & align) || x < next)
			return false;
		next = x + a->size;
	}
	return true;
}

/* Warp w's access a to shared memory (inc: lanes_increasing), word by
 * word in the order of race_words_of. */
/* The word of each lane of a (lanes_increasing, 4 bytes each) for
 * access s of kind `kind` (a constant: one copy per usual kind). */
static inline __attribute__((always_inline)) void shared_lanes(race_cta *k, const sh_acc *s, unsigned kind,
							       const race_access *a)
{
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		const uint64_t wd = a->addr[l] >> 2;
		if (wd < k->nwords)
			shared_word(k, s, kind, (uint32_t)wd, 0xfu, 1u << l);
	}
}

/* Warp w's access a to shared memory (inc: lanes_increasing), word by
 * word in the order of race_words_of. */
static void shared_access(we_cta *c, const we_warp *w, const race_access *a, bool inc)
{
	race_cta *k = c->race;
	const sh_acc s = { .t = { .cta = c->linear_id, .warp = (uint8_t)w->id, .kind = a->kind,
				  .epoch = k->vc[w->id][w->id], .pc = (uint32_t)a->pc, .from = k->from[w->id] },
			   .vcw = k->vc[w->id],
			   .floor = k->floor,
			   .sh = k->sh,
			   .shinit = k->shinit,
			   .shwr = k->shwr,
			   .gen = k->gen,
			   .races = (c->L->memcheck & RACE_RACES) != 0,
			   .uninit = (c->L->memcheck & RACE_UNINIT) != 0 };
	uint64_t lo = k->lo, hi = k->hi; /* the words touched (race_cta_start clears them) */
	k->maxep[w->id] = s.t.epoch;
	if (inc && a->size >= 4) {
		/* each lane's words alone: no search for the lanes of a word */
		const unsigned nw = a->size / 4u;
		if (nw == 1 && a->kind == RACE_READ)
			shared_lanes(k, &s, RACE_READ, a);
		else if (nw == 1 && a->kind == RACE_WRITE)
			shared_lanes(k, &s, RACE_WRITE, a);
		else
			for (uint32_t m = a->lanes; m; m &= m - 1) {
				const unsigned l = (unsigned)__builtin_ctz(m);
				const uint64_t wd = a->addr[l] >> 2;
				for (unsigned j = 0; j < nw; j++)
					if (wd + j < k->nwords)
						shared_word(k, &s, a->kind, (uint32_t)(wd + j), 0xfu, 1u << l);
			}
		/* (the lanes in increasing order: the first and the last) */
		const uint64_t first = a->addr[__builtin_ctz(a->lanes)] >> 2;
		const uint64_t last = (a->addr[31 - __builtin_clz(a->lanes)] >> 2) + nw;
		lo = first < lo ? first : lo;
		hi = last > hi ? last : hi;
	} else {
		race_word u[32 * 4];
		const unsigned n = race_words_of(a, u);
		for (unsigned j = 0; j < n; j++) {
			if (u[j].word >= k->nwords)
				continue;
			shared_word(k, &s, a->kind, (uint32_t)u[j].word, u[j].bytes, u[j].lanes);
			lo = u[j].word < lo ? u[j].word : lo;
			hi = u[j].word + 1u > hi ? u[j].word + 1u : hi;
		}
	}
	k->lo = (uint32_t)lo;
	k->hi = (uint32_t)(hi < k->nwords ? hi : k->nwords);
}

/* Lanes of one plain store writing one address with different values
 * (aligned accesses of one size overlap only at equal addresses). */
static void lane_conflicts(we_cta *c, const we_warp *w, const race_access *a)
{
	uint64_t prev = 0;
	bool first = true, sorted = true;
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const uint64_t ad = a->addr[__builtin_ctz(m)];
		sorted = sorted && (first || ad > prev);
		prev = ad;
		first = false;
	}
	if (sorted)
		return;
	const unsigned nr = a->size > 4 ? a->size / 4u : 1u;
	const uint32_t mask = a->size >= 4 ? ~0u : (1u << (8u * a->size)) - 1u;
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		uint32_t same = 1u << l, diff = 0;
		for (uint32_t n = m & (m - 1); n; n &= n - 1) {
			const unsigned j = (unsigned)__builtin_ctz(n);
			if (a->addr[j] != a->addr[l])
				continue;
			same |= 1u << j;
			for (unsigned r = 0; r < nr; r++)
				if ((a->val[r][j] & mask) != (a->val[r][l] & mask) && !diff)
					diff = 1u << j;
		}
		if (!diff)
			continue;
		race_ent e = { .warp = (uint8_t)w->id, .kind = a->kind, .lanes = same, .epoch = c->race->vc[w->id][w->id],
			       .pc = (uint32_t)a->pc, .from = c->race->from[w->id], .cta = c->linear_id };
		const unsigned j = (unsigned)__builtin_ctz(diff);
		race_find f = { .fk = FK_LANES, .pc1 = e.pc, .count = 1, .addr = a->addr[l], .nbytes = a->size,
				.v1 = a->val[0][l] & mask, .v2 = a->val[0][j] & mask };
		f.s1 = (race_side){ .cta = e.cta, .warp = e.warp, .lanes = same, .pc = e.pc, .from = e.from,
				    .epoch = e.epoch, .kind = e.kind };
		f.space = (uint8_t)a->space;
		if (!race_finds_add(&c->race->finds, &f))
			race_set_oom(c->race);
		return; /* one finding per instruction */
	}
}

/* Local memory: the bytes each thread wrote (uninit-local). */
static void local_access(we_cta *c, const we_warp *w, const race_access *a)
{
	race_cta *k = c->race;
	const uint64_t lb = c->L->local_bytes;
	uint32_t missing = 0;
	uint64_t maddr = 0;
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		const uint64_t base = ((uint64_t)w->id * WE_WARP_SIZE + l) * lb + a->addr[l];
		for (unsigned b = 0; b < a->size; b++) {
			const uint64_t bit = base + b;
			uint8_t *p = &k->linit[bit / 8u];
			if (writes(a->kind)) {
				*p |= (uint8_t)(1u << (bit % 8u));
				if (bit / 8u + 1u > k->linit_hi)
					k->linit_hi = bit / 8u + 1u;
			} else if (!(*p & (1u << (bit % 8u))) && !((missing >> l) & 1u)) {
				if (!missing)
					maddr = a->addr[l];
				missing |= 1u << l;
			}
		}
	}
	if (!missing)
		return;
	race_ent e = { .warp = (uint8_t)w->id, .kind = a->kind, .lanes = missing, .epoch = k->vc[w->id][w->id],
		       .pc = (uint32_t)a->pc, .from = k->from[w->id], .cta = c->linear_id };
	race_pair(k, FK_UNINIT_LOCAL, &e, NULL, maddr, (uint8_t)a->size);
}

void race_access_mem(we_cta *c, we_warp *w, const race_access *a)
{
	cta_lock(c);
	if (a->space == RACE_LOCAL) {
		if (c->L->memcheck & RACE_UNINIT)
			local_access(c, w, a);
		cta_unlock(c);
		return;
	}
	const bool inc = lanes_increasing(a);
	if (!inc && (c->L->memcheck & RACE_RACES) && a->kind == RACE_WRITE && a->val[0] && (a->lanes & (a->lanes - 1u)))
		lane_conflicts(c, w, a);
	if (a->space == RACE_GLOBAL)
		race_global_access(c, w, a, inc);
	else
		shared_access(c, w, a, inc);
	cta_unlock(c);
}

/* ---- the launch -------------------------------------------------------- */

race_launch *race_launch_new(const we_launch_ctx *L)
{
	race_launch *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->L = L;
	r->g = race_gshadow_new();
	if (!r->g || pthread_mutex_init(&r->lock, NULL)) {
		race_gshadow_free(r->g);
		free(r);
		return NULL;
	}
	return r;
}

void race_cta_end(we_cta *c)
{
	race_cta *k = c->race;
	race_launch *r = k->launch;
	if (!k->finds.n && !k->oom)
		return;
	if (pthread_mutex_lock(&r->lock))
		abort();
	if (!race_finds_merge(&r->finds, &k->finds) || k->oom)
		r->oom = true;
	if (pthread_mutex_unlock(&r->lock))
		abort();
}

void race_launch_finish(race_launch *r, check_log *log)
{
	if (!r)
		return;
	race_finds_write(r->L, &r->finds, log);
	if (r->oom)
		check_log_add(log, "check: out-of-memory: the race and uninitialised-read checks ran out of host "
				   "memory: some accesses were not checked");
	free(r->finds.f);
	race_gshadow_free(r->g);
	if (pthread_mutex_destroy(&r->lock))
		abort();
	free(r);
}
