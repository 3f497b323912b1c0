/* race_base.c — the containers of the race and uninitialised-read checks
 * (race_int.h): the entry pool, the acquired-variable lists, the dedup
 * set, and the words an access covers.  Below race.c (a CTA's shared and
 * local memory) and race_global.c (global memory), which both use them. */
#include <stdlib.h>
#include <string.h>

#include "cta/race_int.h"

/* ---- small containers ------------------------------------------------ */

uint32_t race_pool_get(race_pool *p)
{
	if (p->free) {
		const uint32_t i = p->free;
		p->free = p->e[i].next;
		return i;
	}
	if (!p->n)
		p->n = 1; /* index 0 is "none" */
	if (p->n >= p->cap) {
		const uint32_t cap = p->cap ? p->cap * 2u : 1024u;
		race_ent *e = cap > p->cap ? realloc(p->e, (size_t)cap * sizeof *e) : NULL;
		if (!e)
			return 0;
		p->e = e;
		p->cap = cap;
	}
	return p->n++;
}

bool race_acq_add(race_acq *a, uint32_t var, uint32_t len)
{
	for (uint32_t j = 0; j < a->n; j++)
		if (a->v[j].var == var) {
			if (len > a->v[j].len)
				a->v[j].len = len;
			return true;
		}
	if (a->n == a->cap) {
		const uint32_t cap = a->cap ? a->cap * 2u : 4u;
		void *v = realloc(a->v, (size_t)cap * sizeof *a->v);
		if (!v)
			return false;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n].var = var;
	a->v[a->n++].len = len;
	return true;
}

bool race_acq_merge(race_acq *a, const race_acq *b)
{
	bool ok = true;
	if (!b->n)
		return true;
	for (uint32_t j = 0; j < b->n; j++)
		ok = race_acq_add(a, b->v[j].var, b->v[j].len) && ok;
	return ok;
}

/* An open-addressing slot of the dedup set, by its key. */
static inline uint32_t seen_hash(uint64_t blk, uint32_t pc, unsigned kb)
{
	uint64_t h = (blk * UINT64_C(0x9e3779b97f4a7c15)) ^ ((uint64_t)pc << 7) ^ kb;
	h ^= h >> 29;
	return (uint32_t)(h * UINT64_C(0xbf58476d1ce4e5b9) >> 32);
}

static bool seen_grow(race_seen *t)
{
	const uint32_t cap = t->cap ? t->cap * 2u : 256u;
	struct seen_slot *s = calloc(cap, sizeof *s), *old = t->s;
	if (!s)
		return false;
	for (uint32_t i = 0; i < t->cap; i++) {
		if (old[i].stamp != t->stamp)
			continue;
		uint32_t h = seen_hash(old[i].blk, old[i].pc, old[i].kb) & (cap - 1u);
		while (s[h].stamp == t->stamp)
			h = (h + 1u) & (cap - 1u);
		s[h] = old[i];
	}
	free(old);
	t->s = s;
	t->cap = cap;
	t->last = 0;
	return true;
}

struct seen_slot *race_seen_slot(race_seen *t, uint64_t blk, uint32_t pc, uint16_t kb)
{
	if (t->n * 2u >= t->cap && !seen_grow(t))
		return NULL;
	uint32_t h = seen_hash(blk, pc, kb) & (t->cap - 1u);
	/* slots of an earlier stamp (interval) are empty */
	for (; t->s[h].stamp == t->stamp; h = (h + 1u) & (t->cap - 1u))
		if (t->s[h].blk == blk && t->s[h].pc == pc && t->s[h].kb == kb)
			break;
	struct seen_slot *s = &t->s[h];
	if (s->stamp != t->stamp) {
		*s = (struct seen_slot){ .blk = blk, .pc = pc, .stamp = t->stamp, .kb = kb };
		t->n++;
	}
	t->last = h + 1u;
	return s;
}

/* ---- the words of an access ------------------------------------------- */

/* race_words_of for aligned 4-byte accesses (the usual ones): one word
 * per lane; false when a lane is unaligned. */
static bool words_of4(const race_access *a, race_word *u, unsigned *nout)
{
	unsigned n = 0;
	uint64_t top = 0; /* the words so far are below it: a new one appends */
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		const uint64_t ad = a->addr[l];
		if (ad & 3u)
			return false;
		const uint64_t wd = ad >> 2;
		unsigned j = n;
		if (wd < top)
			for (j = 0; j < n && u[j].word != wd; j++)
				;
		if (j == n) {
			u[n++] = (race_word){ .word = wd, .lanes = 1u << l, .bytes = 0xf };
			top = wd + 1u > top ? wd + 1u : top;
		} else {
			u[j].lanes |= 1u << l;
		}
	}
	*nout = n;
	return true;
}

unsigned race_words_of(const race_access *a, race_word *u)
{
	unsigned n4;
	if (a->size == 4 && words_of4(a, u, &n4))
		return n4;
	unsigned n = 0;
	uint64_t top = 0; /* words so far are below top: a new one appends */
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		const uint64_t a0 = a->addr[l], a1 = a0 + a->size;
		for (uint64_t wd = a0 / 4u; wd * 4u < a1; wd++) {
			const uint64_t b0 = wd * 4u > a0 ? wd * 4u : a0, b1 = wd * 4u + 4u < a1 ? wd * 4u + 4u : a1;
			const uint8_t bytes = (uint8_t)(((1u << (b1 - b0)) - 1u) << (b0 - wd * 4u));
			unsigned j = n;
			if (n && wd < top)
				for (j = 0; j < n && u[j].word != wd; j++)
					;
			if (j == n) {
				u[n++] = (race_word){ .word = wd, .lanes = 0, .bytes = 0 };
				top = wd + 1u > top ? wd + 1u : top;
			}
			u[j].lanes |= 1u << l;
			u[j].bytes |= bytes;
		}
	}
	return n;
}
