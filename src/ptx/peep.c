/* peep.c — rewrites of the lowered code before reconvergence and register
 * allocation (doc/ptx.md "Speed"): exact rewrites that make lowered PTX
 * run as a hand-written kernel does.
 *
 * If-conversion: nvcc guards a short `if` by branching over its body
 * (`@p bra L; body; L:`).  A divergent branch costs BSSY, BRA and BSYNC,
 * parks lanes and breaks the scheduler's lockstep groups (warps that go
 * different ways leave the group).  The body under the negated guard
 * does the same in every lane: the lanes that branched run none of it,
 * and the others run all of it and fall through to L.  Only bodies of
 * straight per-lane instructions qualify: no labels (nothing else enters
 * the body), no guard of their own, no write of the guard, and nothing
 * whose effect depends on which lanes run it (warp-wide and control
 * instructions). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"

/* longest body converted: beyond it, warps that skip the body pay more
 * for its guarded instructions than for a branch */
#define IFCONV_MAX 8

/* mnemonics whose effect depends on the set of lanes that run them, or
 * that transfer control: never moved under a guard */
static bool lane_sensitive(const char *text)
{
	static const char *const no[] = { "BAR", "TBAR", "SHFL", "VOTE", "MATCH", "REDUX", "WARPSYNC", "BSSY", "BSYNC",
					  "NANOSLEEP", "TRAP", "CALL", "RET", "BRX", "LEPC", "EXIT", "YIELD" };
	if (!text)
		return true;
	size_t n = strcspn(text, " .");
	for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
		if (strlen(no[k]) == n && !strncmp(text, no[k], n))
			return true;
	return false;
}

static bool convertible(const lins *l, int guard)
{
	if (l->kind != LK_INS || l->guard >= 0 || lane_sensitive(l->text))
		return false;
	for (int k = 0; k < l->nslot; k++)
		if ((l->s[k].use & LU_DEF) && l->s[k].v == guard)
			return false;
	return true;
}

void peep_ifconvert(lcode *c)
{
	uint32_t o = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		lins *b = &c->ins[i];
		uint32_t j = i + 1;
		if (b->kind == LK_BRA && b->guard >= 0) {
			while (j < c->n && j - i - 1 < IFCONV_MAX && convertible(&c->ins[j], b->guard))
				j++;
		}
		if (j > i + 1 && j < c->n && c->ins[j].kind == LK_LABEL && c->ins[j].target == b->target) {
			for (uint32_t k = i + 1; k < j; k++) {
				c->ins[k].guard = b->guard;
				c->ins[k].guard_neg = !b->guard_neg;
			}
			free(b->text);
			free(b->targets);
			continue;
		}
		c->ins[o++] = *b;
	}
	c->n = o;
}

/* Copy folding: the lowering often computes into a temporary and moves
 * it to the PTX register (`S2R t, SR_TID.X; MOV d, t`, the low word of a
 * 64-bit add).  When temporary t is written once and read only by the
 * MOV, in the same straight run of instructions under the same guard,
 * and nothing between them reads d or writes the same word of d, the
 * instruction that writes t writes d instead and the MOV goes. */

/* how often each vreg is read (guards too) and written */
static void count_uses(const lcode *c, uint32_t *reads, uint32_t *writes)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const lins *l = &c->ins[i];
		if (l->guard >= 0)
			reads[l->guard]++;
		for (int k = 0; k < l->nslot; k++) {
			reads[l->s[k].v] += (l->s[k].use & LU_USE) != 0;
			writes[l->s[k].v] += (l->s[k].use & LU_DEF) != 0;
		}
	}
}

static bool is_copy32(const lins *l)
{
	return l->kind == LK_INS && l->nslot == 2 && l->text && !strcmp(l->text, "MOV $0, $1") &&
	       l->s[0].form == 'r' && l->s[0].use == LU_DEF && l->s[1].form == 'r' && l->s[1].use == LU_USE;
}

/* whether moving the write of d (its low word, form 'r') from after p to
 * p's place would change what p sees or does: p is guarded by d, or
 * reads or writes d's low word (forms other than 'h', the high word of a
 * pair: `add.s64 %rd2, %rd2, %rd1` reads %rd2's high word after the low
 * word's IADD3) */
static bool touches(const lins *p, int d)
{
	if (p->guard == d)
		return true;
	for (int k = 0; k < p->nslot; k++)
		if (p->s[k].v == d && p->s[k].form != 'h')
			return true;
	return false;
}

/* p is guarded by d or writes d's low word (the copy's own word) */
static bool writes_low(const lins *p, int d)
{
	if (p->guard == d)
		return true;
	for (int k = 0; k < p->nslot; k++)
		if (p->s[k].v == d && p->s[k].form != 'h' && (p->s[k].use & LU_DEF))
			return true;
	return false;
}

/* fold the copy at i into the write of its source; false if it does not
 * qualify */
static bool fold(lcode *c, uint32_t i, const uint32_t *reads, const uint32_t *writes, const bool *gone)
{
	const lins *m = &c->ins[i];
	int d = m->s[0].v, t = m->s[1].v;
	if (c->v[t].ptx >= 0 || c->v[t].rc != RC_32 || reads[t] != 1 || writes[t] != 1 || d == t)
		return false;
	for (uint32_t j = i; j-- > 0;) {
		lins *p = &c->ins[j];
		if (gone[j])
			continue;
		if (p->kind != LK_INS)
			return false;
		for (int k = 0; k < p->nslot; k++)
			if (p->s[k].v == t) {
				/* (p itself may read d: an instruction reads its
				 * sources before it writes, `IADD3 R4, P0, R4, R2`) */
				if (p->s[k].use != LU_DEF || p->s[k].form != 'r' || p->guard != m->guard ||
				    (m->guard >= 0 && p->guard_neg != m->guard_neg) || writes_low(p, d))
					return false;
				p->s[k].v = d;
				return true;
			}
		if (touches(p, d))
			return false;
	}
	return false;
}

void peep_copies(lcode *c)
{
	uint32_t *reads = calloc(c->nv + 1, sizeof *reads), *writes = calloc(c->nv + 1, sizeof *writes);
	bool *gone = calloc(c->n + 1, sizeof *gone);
	if (!reads || !writes || !gone) {
		c->oom = true;
	} else {
		count_uses(c, reads, writes);
		for (uint32_t i = 0; i < c->n; i++)
			gone[i] = is_copy32(&c->ins[i]) && fold(c, i, reads, writes, gone);
		uint32_t o = 0;
		for (uint32_t i = 0; i < c->n; i++) {
			if (gone[i])
				free(c->ins[i].text);
			else
				c->ins[o++] = c->ins[i];
		}
		c->n = o;
	}
	free(reads);
	free(writes);
	free(gone);
}

/* Multiply-add of an address: nvcc computes a global address as
 * `mul.wide.u32 %rd6, %r5, 4; add.s64 %rd7, %rd1, %rd6`, lowered to
 * IMAD.WIDE into t and a 64-bit add through a carry (IADD3, IADD3.X).
 * When t is read only by that add, IMAD.WIDE adds the base itself (its
 * 64-bit addend; the product plus the base modulo 2^64 is the same sum).
 * A byte index (`cvt.u64.u32 %rd5, %r15; add.s64 %rd6, %rd1, %rd5`: MOV
 * of the low word, MOV RZ to the high word) is the product by 1. */

static bool slot_is(const lins *l, int k, int v, char form, uint8_t use)
{
	return k < l->nslot && l->s[k].v == v && l->s[k].form == form && l->s[k].use == use;
}

static bool same_guard(const lins *a, const lins *b)
{
	return a->guard == b->guard && (a->guard < 0 || a->guard_neg == b->guard_neg);
}

/* p, q: d = base + t, a 64-bit add through a carry read nowhere else, t
 * not the base; *d and *base */
static bool add64_of(const lcode *c, const lins *p, const lins *q, int t, const uint32_t *reads, int *d,
		     int *base)
{
	if (p->kind != LK_INS || q->kind != LK_INS || !p->text || !q->text || p->nslot != 4 ||
	    strcmp(p->text, "IADD3 $0, $1, PT, $2, $3, RZ") || strcmp(q->text, "IADD3.X $0, $1, $2, RZ, $3, !PT") ||
	    !same_guard(p, q))
		return false;
	int cy = p->s[1].v, kt = p->s[2].v == t ? 2 : 3, kb = kt == 2 ? 3 : 2;
	*d = p->s[0].v;
	*base = p->s[kb].v;
	return reads[cy] == 1 && *base != t && c->v[*base].rc == RC_64 && slot_is(p, 0, *d, 'r', LU_DEF) &&
	       slot_is(p, 1, cy, 'p', LU_DEF) && slot_is(p, kt, t, 'r', LU_USE) && slot_is(q, 0, *d, 'h', LU_DEF) &&
	       slot_is(q, kt - 1, t, 'h', LU_USE) && slot_is(q, kb - 1, *base, 'h', LU_USE) &&
	       slot_is(q, 3, cy, 'p', LU_USE);
}

/* the instructions from i that fuse into one IMAD.WIDE at i (0: none) */
static unsigned fuse_madwide(lcode *c, uint32_t i, const uint32_t *reads, const uint32_t *writes)
{
	lins *m = &c->ins[i];
	size_t n = m->text ? strlen(m->text) : 0;
	int d, base;
	if (i + 2 < c->n && m->kind == LK_INS && n >= 4 && !strncmp(m->text, "IMAD.WIDE", 9) &&
	    !strcmp(m->text + n - 4, ", RZ") && m->nslot < L_MAX_SLOTS && m->s[0].form == 'w' &&
	    m->s[0].use == LU_DEF) {
		/* IMAD.WIDE t, a, b, RZ (mul.wide) */
		int t = m->s[0].v;
		if (reads[t] != 2 || writes[t] != 1 || !same_guard(m, &c->ins[i + 1]) ||
		    !add64_of(c, &c->ins[i + 1], &c->ins[i + 2], t, reads, &d, &base))
			return 0;
		/* "..., RZ" -> "..., $N" with slot N (< L_MAX_SLOTS) the base pair */
		m->text[n - 2] = '$';
		m->text[n - 1] = (char)('0' + m->nslot);
		m->s[0].v = d;
		m->s[m->nslot++] = (lslot){ base, 'w', LU_USE };
		return 3;
	}
	/* MOV t.lo, a; MOV t.hi, RZ (cvt.u64.u32) */
	if (i + 3 >= c->n || !is_copy32(m))
		return 0;
	const lins *h = &c->ins[i + 1];
	if (!h->text || strcmp(h->text, "MOV $0, RZ") || h->nslot != 1 || !same_guard(m, h))
		return 0;
	int t = m->s[0].v;
	if (c->v[t].rc != RC_64 || !slot_is(h, 0, t, 'h', LU_DEF) || reads[t] != 2 || writes[t] != 2 ||
	    !same_guard(m, &c->ins[i + 2]) || !add64_of(c, &c->ins[i + 2], &c->ins[i + 3], t, reads, &d, &base))
		return 0;
	char *text = strdup("IMAD.WIDE.U32 $0, $1, 0x1, $2");
	if (!text) {
		c->oom = true;
		return 0;
	}
	free(m->text);
	m->text = text;
	m->s[0] = (lslot){ d, 'w', LU_DEF };
	m->s[m->nslot++] = (lslot){ base, 'w', LU_USE };
	return 4;
}

/* Each fuse(c, i, reads, writes) rewrites instruction i to stand for the
 * k instructions from i and returns k (0: nothing fused); those after i
 * go. */
typedef unsigned fuse_fn(lcode *c, uint32_t i, const uint32_t *reads, const uint32_t *writes);

static void fuse_pass(lcode *c, fuse_fn *fuse)
{
	uint32_t *reads = calloc(c->nv + 1, sizeof *reads), *writes = calloc(c->nv + 1, sizeof *writes);
	if (!reads || !writes) {
		free(reads);
		free(writes);
		c->oom = true;
		return;
	}
	count_uses(c, reads, writes);
	uint32_t o = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		unsigned k = fuse(c, i, reads, writes);
		for (unsigned j = 1; j < k; j++)
			free(c->ins[i + j].text);
		c->ins[o++] = c->ins[i];
		if (k)
			i += k - 1;
	}
	c->n = o;
	free(reads);
	free(writes);
}

void peep_madwide(lcode *c)
{
	fuse_pass(c, fuse_madwide);
}

/* Predicate logic: `or.pred %p7, %p6, %p5` (and/xor) goes through a 0/1
 * register, `SEL t, RZ, 0x1, !r; ISETP.NE.OR d, PT, t, RZ, c`, since the
 * ISA has no predicate logic instruction.  When r or c comes from the
 * comparison just before (`ISETP.GE.U32.AND r, PT, a, b, PT`) and nothing
 * else reads it, that comparison combines with the other predicate
 * itself: `ISETP.GE.U32.OR d, PT, a, b, c` (an ISETP's bop takes its Pp
 * operand, possibly negated).  All three unguarded and adjacent. */

/* "XSETP.cmp...AND $0, PT, $1, X, PT" with slot 0 the predicate p */
static bool plain_setp(const lins *l, int p)
{
	const char *t = l->text, *sp = t ? strchr(t, ' ') : NULL;
	size_t n = t ? strlen(t) : 0;
	return l->kind == LK_INS && l->guard < 0 && sp && (!strncmp(t, "ISETP.", 6) || !strncmp(t, "FSETP.", 6)) &&
	       sp - t > 4 && !strncmp(sp - 4, ".AND", 4) && !strncmp(sp, " $0, PT, $1, ", 13) &&
	       n > 4 && !strcmp(t + n - 4, ", PT") && slot_is(l, 0, p, 'p', LU_DEF) && l->nslot < L_MAX_SLOTS;
}

static unsigned fuse_plogic(lcode *c, uint32_t i, const uint32_t *reads, const uint32_t *writes)
{
	(void)writes;
	if (i + 2 >= c->n)
		return 0;
	lins *dd = &c->ins[i], *s = &c->ins[i + 1], *l = &c->ins[i + 2];
	if (s->kind != LK_INS || l->kind != LK_INS || s->guard >= 0 || l->guard >= 0 || !s->text || !l->text ||
	    s->nslot != 2 || l->nslot != 4 || strncmp(l->text, "ISETP.NE.", 9))
		return 0;
	bool rn;
	if (!strcmp(s->text, "SEL $0, RZ, 0x1, !$1"))
		rn = false;
	else if (!strcmp(s->text, "SEL $0, RZ, 0x1, $1"))
		rn = true;
	else
		return 0;
	const char *bop = l->text + 9, *tail = strstr(bop, " $0, PT, $1, RZ, ");
	if (!tail || (tail - bop != 2 && tail - bop != 3))
		return 0;
	tail += 17;
	int t = s->s[0].v, r = s->s[1].v, d = l->s[0].v, cp = l->s[3].v;
	bool cn = !strcmp(tail, "!$3");
	if ((!cn && strcmp(tail, "$3")) || !slot_is(s, 0, t, 'r', LU_DEF) || !slot_is(s, 1, r, 'p', LU_USE) ||
	    !slot_is(l, 1, t, 'r', LU_USE) || !slot_is(l, 2, cp, 'p', LU_USE) || !slot_is(l, 3, cp, 'p', LU_USE) ||
	    reads[t] != 1 || r == cp)
		return 0;
	/* the comparison writes r (read by the SEL alone) or c (by l alone) */
	int other;
	bool neg;
	if (plain_setp(dd, r) && reads[r] == 1) {
		other = cp;
		neg = cn;
	} else if (plain_setp(dd, cp) && reads[cp] == 2 && !cn) {
		other = r;
		neg = rn;
	} else {
		return 0;
	}
	const char *sp = strchr(dd->text, ' ');
	size_t head = (size_t)(sp - dd->text) - 3, n = strlen(dd->text);
	char *text = malloc(n + 8);
	if (!text) {
		c->oom = true;
		return 0;
	}
	/* "...AND $0, PT, $1, X, PT" -> "...<bop> $0, PT, $1, X, [!]$k" */
	memcpy(text, dd->text, head);
	memcpy(text + head, bop, (size_t)(tail - 17 - bop));
	size_t o = head + (size_t)(tail - 17 - bop);
	memcpy(text + o, sp, (size_t)(dd->text + n - 2 - sp));
	o += (size_t)(dd->text + n - 2 - sp);
	if (neg)
		text[o++] = '!';
	text[o++] = '$';
	text[o++] = (char)('0' + dd->nslot);
	text[o] = 0;
	free(dd->text);
	dd->text = text;
	dd->s[0].v = d;
	dd->s[dd->nslot++] = (lslot){ other, 'p', LU_USE };
	dd->varying |= s->varying || l->varying;
	return 3;
}

void peep_plogic(lcode *c)
{
	fuse_pass(c, fuse_plogic);
}
