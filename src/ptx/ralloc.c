/* ralloc.c — register allocation of the lowered code (doc/ptx.md,
 * "Registers").
 *
 * Liveness by the usual backward dataflow over the CFG (a guarded write
 * of a PTX register keeps its old value in the lanes whose guard is
 * false, so it also reads it; a temporary lives only inside one PTX
 * instruction, under one guard, so its guarded write is a full one).
 * Each virtual register gets one interval [first, last] over the code
 * order covering every point where it is live, and a linear scan
 * (Poletto and Sarkar) assigns
 *   predicates  P0..P4          (P5, P6: scratch of the spill code)
 *   32-bit      R0..R239        (R240..R248: scratch of the spill code;
 *                               R250, R252:R253: the stack and return
 *                               address of calls, call.c)
 *   64-bit      an even/odd pair of the same
 * and, where none is free, spills the interval that ends last to the
 * thread's local memory (after the kernel's own .local bytes): its
 * instructions then load it into a scratch register before and store it
 * after.  Predicates spill the same way, as 0/1 words.  Overlapping
 * intervals never share a register, not even at an instruction that
 * ends one and starts the other (a handler may write a pair's low word
 * before it reads its sources' high words). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

#define NPRED 5u
#define NREG 240u
#define SCRATCH_R 240u              /* R240..R247: four scratch pairs */
#define SCRATCH_T 248u              /* R248: predicate spill temp */

typedef struct ival {
	int v;
	uint32_t start, end;
} ival;

typedef struct live {
	uint32_t words;               /* bitset words per set */
	uint64_t *in, *out, *use, *def;
} live;

static inline void bset(uint64_t *s, int v) { s[v >> 6] |= UINT64_C(1) << (v & 63); }
static inline bool bget(const uint64_t *s, int v) { return (s[v >> 6] >> (v & 63)) & 1u; }

/* the reads and writes of one instruction: calls f(v, is_def) */
static bool reads_def(const lcode *c, const lins *l, const lslot *s)
{
	/* a guarded write of a PTX register also reads it (partial) */
	return l->guard >= 0 && c->v[s->v].ptx >= 0;
}

static bool liveness(const lcode *c, const lcfg *g, live *L)
{
	L->words = (c->nv + 63) / 64 + 1;
	size_t n = (size_t)g->nb * L->words;
	L->in = calloc(n, 8);
	L->out = calloc(n, 8);
	L->use = calloc(n, 8);
	L->def = calloc(n, 8);
	if (!L->in || !L->out || !L->use || !L->def)
		return false;
	for (uint32_t b = 0; b < g->nb; b++) {
		uint64_t *U = L->use + (size_t)b * L->words, *D = L->def + (size_t)b * L->words;
		for (uint32_t i = g->b[b].first; i <= g->b[b].last; i++) {
			const lins *l = &c->ins[i];
			if (l->guard >= 0 && !bget(D, l->guard))
				bset(U, l->guard);
			for (int k = 0; k < l->nslot; k++) {
				const lslot *s = &l->s[k];
				if (((s->use & LU_USE) || ((s->use & LU_DEF) && reads_def(c, l, s))) && !bget(D, s->v))
					bset(U, s->v);
			}
			for (int k = 0; k < l->nslot; k++)
				if (l->s[k].use & LU_DEF)
					bset(D, l->s[k].v);
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = g->nb; b-- > 0;) {
			uint64_t *O = L->out + (size_t)b * L->words, *I = L->in + (size_t)b * L->words;
			const uint64_t *U = L->use + (size_t)b * L->words, *D = L->def + (size_t)b * L->words;
			int s[512];
			int ns = cfg_succ(g, b, s, 512);
			for (int k = 0; k < ns; k++) {
				const uint64_t *SI = L->in + (size_t)s[k] * L->words;
				for (uint32_t w = 0; w < L->words; w++)
					O[w] |= SI[w];
			}
			for (uint32_t w = 0; w < L->words; w++) {
				uint64_t ni = U[w] | (O[w] & ~D[w]);
				if (ni != I[w]) {
					I[w] = ni;
					changed = true;
				}
			}
		}
	}
	return true;
}

static void live_free(live *L)
{
	free(L->in);
	free(L->out);
	free(L->use);
	free(L->def);
}

static void touch(ival *iv, int v, uint32_t pos)
{
	if (iv[v].start > pos)
		iv[v].start = pos;
	if (iv[v].end < pos || iv[v].end == UINT32_MAX)
		iv[v].end = pos;
}

static bool intervals(const lcode *c, const lcfg *g, ival *iv)
{
	live L;
	if (!liveness(c, g, &L)) {
		live_free(&L);
		return false;
	}
	for (uint32_t v = 0; v < c->nv; v++)
		iv[v] = (ival){ (int)v, UINT32_MAX, UINT32_MAX };
	for (uint32_t b = 0; b < g->nb; b++) {
		const uint64_t *I = L.in + (size_t)b * L.words, *O = L.out + (size_t)b * L.words;
		for (uint32_t v = 0; v < c->nv; v++) {
			if (bget(I, (int)v))
				touch(iv, (int)v, g->b[b].first);
			if (bget(O, (int)v))
				touch(iv, (int)v, g->b[b].last);
		}
		for (uint32_t i = g->b[b].first; i <= g->b[b].last; i++) {
			const lins *l = &c->ins[i];
			if (l->guard >= 0)
				touch(iv, l->guard, i);
			for (int k = 0; k < l->nslot; k++)
				touch(iv, l->s[k].v, i);
		}
	}
	live_free(&L);
	return true;
}

static int by_start(const void *a, const void *b)
{
	const ival *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* ---- the scan --------------------------------------------------------------- */

typedef struct scan {
	lcode *c;
	ival *act;                    /* active intervals (unsorted) */
	uint32_t nact;
	int owner[NREG];              /* R: vreg using it or -1 */
	int powner[NPRED];
	uint32_t *local;
	uint32_t spilled;
} scan;

static void spill(scan *S, int v)
{
	lvreg *r = &S->c->v[v];
	uint32_t size = r->rc == RC_64 ? 8 : 4;
	*S->local = (*S->local + size - 1) / size * size;
	r->slot = (int)*S->local;
	*S->local += size;
	r->phys = -1;
	S->spilled++;
}

static void release(scan *S, int v)
{
	lvreg *r = &S->c->v[v];
	if (r->phys < 0)
		return;
	if (r->rc == RC_PRED) {
		S->powner[r->phys] = -1;
	} else {
		S->owner[r->phys] = -1;
		if (r->rc == RC_64)
			S->owner[r->phys + 1] = -1;
	}
}

static int find_free(const scan *S, ptx_rclass rc)
{
	if (rc == RC_PRED) {
		for (unsigned p = 0; p < NPRED; p++)
			if (S->powner[p] < 0)
				return (int)p;
		return -1;
	}
	if (rc == RC_64) {
		for (unsigned r = 0; r < NREG; r += 2)
			if (S->owner[r] < 0 && S->owner[r + 1] < 0)
				return (int)r;
		return -1;
	}
	/* a 32-bit value: prefer a register whose pair partner is taken, to
	 * keep whole pairs free for 64-bit values */
	int any = -1;
	for (unsigned r = 0; r < NREG; r++)
		if (S->owner[r] < 0) {
			if (S->owner[r ^ 1u] >= 0)
				return (int)r;
			if (any < 0)
				any = (int)r;
		}
	return any;
}

static void take(scan *S, int v, int phys)
{
	lvreg *r = &S->c->v[v];
	r->phys = phys;
	if (r->rc == RC_PRED) {
		S->powner[phys] = v;
	} else {
		S->owner[phys] = v;
		if (r->rc == RC_64)
			S->owner[phys + 1] = v;
	}
}

static void alloc_one(scan *S, const ival *cur)
{
	/* expire intervals that ended before this one starts (strictly) */
	for (uint32_t k = 0; k < S->nact;) {
		if (S->act[k].end < cur->start) {
			release(S, S->act[k].v);
			S->act[k] = S->act[--S->nact];
		} else {
			k++;
		}
	}
	lvreg *r = &S->c->v[cur->v];
	int p = find_free(S, r->rc);
	while (p < 0) {
		/* spill the active interval of the same class that ends last, if
		 * it ends after this one; else this one */
		int best = -1;
		for (uint32_t k = 0; k < S->nact; k++) {
			const lvreg *a = &S->c->v[S->act[k].v];
			bool fits = r->rc == RC_PRED ? a->rc == RC_PRED : a->rc != RC_PRED && (r->rc == RC_32 || a->rc == RC_64);
			if (fits && (best < 0 || S->act[k].end > S->act[best].end))
				best = (int)k;
		}
		if (best < 0 || S->act[best].end <= cur->end) {
			spill(S, cur->v);
			return;
		}
		release(S, S->act[best].v);
		spill(S, S->act[best].v);
		S->act[best] = S->act[--S->nact];
		p = find_free(S, r->rc);
	}
	take(S, cur->v, p);
	S->act[S->nact++] = *cur;
}

/* ---- spill code ---------------------------------------------------------------- */

static bool add_text(lcode *c, uint32_t line, const char *fmt, int a, int b)
{
	lins *l = lc_add(c, LK_INS, line);
	char buf[96];
	snprintf(buf, sizeof buf, fmt, a, b);
	l->text = strdup(buf);
	return l->text != NULL;
}

/* the base of spill slots: the frame (SP) where there are calls, else
 * local address 0 */
static const char *slot_base(const lcode *c)
{
	return c->stack ? "R250" : "RZ"; /* PTX_SP_REG (lower.h) */
}

static void spill_load(lcode *out, uint32_t line, const lvreg *r, int scratch)
{
	char buf[64];
	if (r->rc == RC_PRED) {
		snprintf(buf, sizeof buf, "LDL R%%d, [%s+%%d]", slot_base(out));
		add_text(out, line, buf, SCRATCH_T, r->slot);
		add_text(out, line, "ISETP.NE.AND P%d, PT, R%d, RZ, PT", scratch, SCRATCH_T);
	} else if (r->rc == RC_64) {
		snprintf(buf, sizeof buf, "LDL.64 R[%d:%d], [%s+%%d]", scratch, scratch + 1, slot_base(out));
		add_text(out, line, buf, r->slot, 0);
	} else {
		snprintf(buf, sizeof buf, "LDL R%%d, [%s+%%d]", slot_base(out));
		add_text(out, line, buf, scratch, r->slot);
	}
}

static void spill_store(lcode *out, uint32_t line, const lvreg *r, int scratch)
{
	char buf[64];
	if (r->rc == RC_PRED) {
		add_text(out, line, "SEL R%d, RZ, 0x1, !P%d", SCRATCH_T, scratch);
		snprintf(buf, sizeof buf, "STL [%s+%%d], R%%d", slot_base(out));
		add_text(out, line, buf, r->slot, SCRATCH_T);
	} else if (r->rc == RC_64) {
		snprintf(buf, sizeof buf, "STL.64 [%s+%%d], R[%d:%d]", slot_base(out), scratch, scratch + 1);
		add_text(out, line, buf, r->slot, 0);
	} else {
		snprintf(buf, sizeof buf, "STL [%s+%%d], R%%d", slot_base(out));
		add_text(out, line, buf, r->slot, scratch);
	}
}

/* Instruction l with its spilled vregs loaded into scratch registers
 * before it (those it reads; every one under a guard, since a guarded
 * write keeps the old values) and the ones it writes stored after it.
 * false: more spilled operands than scratch. */
static bool rewrite(lcode *out, lins *l)
{
	int seen[L_MAX_SLOTS + 1], nvr[L_MAX_SLOTS + 1], ns = 0, nr = 0, np = 0;
	bool def[L_MAX_SLOTS + 1], need[L_MAX_SLOTS + 1];
	char half[L_MAX_SLOTS + 1]; /* a pair written by one half only: 'r' low, 'h' high */
	for (int k = -1; k < l->nslot; k++) {
		int v = k < 0 ? l->guard : l->s[k].v;
		if (v < 0 || out->v[v].phys >= 0)
			continue;
		int j = 0;
		while (j < ns && seen[j] != v)
			j++;
		if (j == ns) {
			seen[ns] = v;
			def[ns] = false;
			/* a guarded instruction keeps the old value in the lanes
			 * whose guard is false, and the store after it writes
			 * them back */
			need[ns] = l->guard >= 0;
			half[ns] = 0;
			ptx_rclass rc = out->v[v].rc;
			int sc = rc == RC_PRED ? 5 + np++ : (int)SCRATCH_R + 2 * nr++;
			if (nr > 4 || np > 2)
				return false;
			nvr[ns] = lc_vreg(out, rc, -1);
			if (out->oom)
				return true;
			out->v[nvr[ns]].phys = sc;
			ns++;
		}
		if (k >= 0 && (l->s[k].use & LU_DEF))
			def[j] = true;
		/* read: the guard or a source; a pair written by one of its
		 * halves stores that half alone */
		if (k < 0 || (l->s[k].use & LU_USE))
			need[j] = true;
		else if (out->v[v].rc == RC_64 && l->s[k].form != 'w')
			half[j] = half[j] && half[j] != l->s[k].form ? 'w' : l->s[k].form;
	}
	for (int j = 0; j < ns; j++)
		if (need[j] || half[j] == 'w')
			spill_load(out, l->line, &out->v[seen[j]], out->v[nvr[j]].phys);
	lins m = *l;
	for (int j = 0; j < ns; j++) {
		if (m.guard == seen[j])
			m.guard = nvr[j];
		for (int k = 0; k < m.nslot; k++)
			if (m.s[k].v == seen[j])
				m.s[k].v = nvr[j];
	}
	lins *d = lc_add(out, 0, 0);
	if (!out->oom)
		*d = m;
	for (int j = 0; j < ns; j++) {
		if (!def[j])
			continue;
		if (need[j] || (half[j] != 'r' && half[j] != 'h')) {
			spill_store(out, l->line, &out->v[seen[j]], out->v[nvr[j]].phys);
			continue;
		}
		char buf[64];
		bool hi = half[j] == 'h';
		snprintf(buf, sizeof buf, "STL [%s+%%d], R%%d", slot_base(out));
		add_text(out, l->line, buf, out->v[seen[j]].slot + (hi ? 4 : 0), out->v[nvr[j]].phys + hi);
	}
	return true;
}

static bool spill_code(lcode *c)
{
	/* the same vregs, labels and frame; new instructions */
	lcode out = *c;
	out.ins = NULL;
	out.n = out.cap = 0;
	bool ok = true;
	for (uint32_t i = 0; i < c->n && !out.oom; i++) {
		lins *l = &c->ins[i];
		bool any = l->guard >= 0 && out.v[l->guard].phys < 0;
		for (int k = 0; k < l->nslot; k++)
			any = any || out.v[l->s[k].v].phys < 0;
		if (!any) {
			lins *m = lc_add(&out, 0, 0);
			*m = *l;
			continue;
		}
		if (!rewrite(&out, l))
			ok = false;
	}
	free(c->ins);
	c->ins = out.ins;
	c->n = out.n;
	c->cap = out.cap;
	c->v = out.v;
	c->nv = out.nv;
	c->capv = out.capv;
	if (out.oom)
		c->oom = true;
	return ok;
}

/* ncall[p]: the calls before position p; an interval is live across a
 * call when one lies strictly inside it */
static uint32_t *calls_before(const lcode *c)
{
	uint32_t *ncall = malloc(((size_t)c->n + 1) * sizeof *ncall);
	if (!ncall)
		return NULL;
	ncall[0] = 0;
	for (uint32_t p = 0; p < c->n; p++)
		ncall[p + 1] = ncall[p] + (c->ins[p].kind == LK_CALL);
	return ncall;
}

bool ralloc_run(lcode *c, ralloc_info *ri)
{
	lcfg g;
	ival *iv = malloc((c->nv + 1) * sizeof *iv);
	scan S = { .c = c, .local = &ri->local_bytes };
	S.act = malloc((c->nv + 1) * sizeof *S.act);
	bool ok = iv && S.act && cfg_build(c, &g) && intervals(c, &g, iv);
	if (ok) {
		for (unsigned r = 0; r < NREG; r++)
			S.owner[r] = -1;
		for (unsigned p = 0; p < NPRED; p++)
			S.powner[p] = -1;
		/* a value live across a call lives in the caller's frame: the
		 * callee may use every register (doc/ptx.md, "Calls") */
		uint32_t n = 0, *ncall = calls_before(c);
		ok = ncall != NULL;
		for (uint32_t v = 0; ok && v < c->nv; v++) {
			if (iv[v].start == UINT32_MAX)
				continue;
			if (iv[v].end > iv[v].start && ncall[iv[v].end] > ncall[iv[v].start + 1])
				spill(&S, (int)v);
			else
				iv[n++] = iv[v];
		}
		free(ncall);
		if (n > 1)
			qsort(iv, n, sizeof *iv, by_start);
		for (uint32_t k = 0; k < n; k++)
			alloc_one(&S, &iv[k]);
		/* never referenced: any register (nothing prints them) */
		for (uint32_t v = 0; v < c->nv; v++)
			if (c->v[v].phys < 0 && c->v[v].slot < 0)
				c->v[v].phys = 0;
		ri->spilled = S.spilled;
		if (S.spilled && !spill_code(c))
			ok = false;
	}
	cfg_free(&g);
	free(iv);
	free(S.act);
	return ok;
}
