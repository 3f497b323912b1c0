/* race_find.c — what --check=races,uninit found (race.h): the sets of
 * findings (race.c merges a CTA's into the launch's at the CTA's end) and
 * their --check lines: one per kind and pair of PCs, with its count and
 * the example of the lowest CTA (the same whatever the schedule). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/module.h"
#include "cta/race_int.h"

static const char *const fk_names[FK_N] = {
	[FK_SHARED] = "shared-race",       [FK_GLOBAL] = "global-race",
	[FK_CTAS] = "cta-race",            [FK_LANES] = "lane-conflict",
	[FK_UNINIT_SHARED] = "uninit-shared", [FK_UNINIT_LOCAL] = "uninit-local",
};

static const char *const space_names[] = { "shared", "global", "local" };

/* ---- the sets of findings ---------------------------------------------- */

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

static int side_cmp(const race_side *a, const race_side *b)
{
	int r;
	if ((r = cmp_u64(a->cta, b->cta)) || (r = cmp_u64(a->warp, b->warp)) ||
	    (r = cmp_u64(a->epoch, b->epoch)) || (r = cmp_u64(a->lanes, b->lanes)))
		return r;
	return cmp_u64(a->kind, b->kind);
}

/* The example to keep: the lowest CTAs, then address, warps, intervals. */
static bool race_less(const race_find *a, const race_find *b)
{
	int r;
	if ((r = cmp_u64(a->s1.cta < a->s2.cta ? a->s1.cta : a->s2.cta,
			 b->s1.cta < b->s2.cta ? b->s1.cta : b->s2.cta)) ||
	    (r = cmp_u64(a->addr, b->addr)) || (r = side_cmp(&a->s1, &b->s1)) || (r = side_cmp(&a->s2, &b->s2)))
		return r < 0;
	return cmp_u64(a->nbytes, b->nbytes) < 0;
}

bool race_finds_add(race_finds *s, const race_find *f)
{
	for (size_t i = s->n; i-- > 0;) {
		race_find *g = &s->f[i];
		if (g->fk != f->fk || g->pc1 != f->pc1 || g->pc2 != f->pc2)
			continue;
		const uint64_t n = g->count + f->count;
		if (race_less(f, g))
			*g = *f;
		g->count = n;
		return true;
	}
	if (s->n == s->cap) {
		const size_t cap = s->cap ? s->cap * 2u : 16u;
		race_find *q = realloc(s->f, cap * sizeof *q);
		if (!q)
			return false;
		s->f = q;
		s->cap = cap;
	}
	s->f[s->n++] = *f;
	return true;
}

bool race_finds_merge(race_finds *a, const race_finds *b)
{
	bool ok = true;
	for (size_t i = 0; i < b->n; i++)
		ok = race_finds_add(a, &b->f[i]) && ok;
	return ok;
}

static race_side side_of(const race_ent *e)
{
	return (race_side){ .cta = e->cta, .warp = e->warp, .lanes = e->lanes, .pc = e->pc, .from = e->from,
			    .epoch = e->epoch, .kind = e->kind };
}

void race_pair(race_cta *k, uint8_t fk, const race_ent *a, const race_ent *b, uint64_t word_addr, uint8_t bytes)
{
	race_find f = { .fk = fk, .count = 1 };
	f.space = fk == FK_SHARED || fk == FK_UNINIT_SHARED ? RACE_SHARED
		  : fk == FK_UNINIT_LOCAL                   ? RACE_LOCAL
							    : RACE_GLOBAL;
	f.s1 = side_of(a);
	if (b) {
		f.s2 = side_of(b);
		/* the two accesses by PC, then CTA and warp */
		if (b->pc < a->pc || (b->pc == a->pc && side_cmp(&f.s2, &f.s1) < 0)) {
			f.s1 = side_of(b);
			f.s2 = side_of(a);
		}
		f.pc2 = f.s2.pc;
	}
	f.pc1 = f.s1.pc;
	if (fk == FK_UNINIT_LOCAL) {
		f.addr = word_addr; /* (a byte offset, and its size in bytes) */
		f.nbytes = bytes;
	} else {
		f.addr = word_addr + (unsigned)__builtin_ctz(bytes);
		f.nbytes = (unsigned)(32 - __builtin_clz(bytes) - __builtin_ctz(bytes));
	}
	if (!race_finds_add(&k->finds, &f))
		race_set_oom(k);
}

/* ---- the lines ----------------------------------------------------------- */

/* "INSN (file:line)" of the instruction at pc. */
static void insn_at(const we_launch_ctx *L, uint32_t pc, char *buf, size_t n)
{
	char ins[200];
	const char *file;
	uint32_t line;
	dis_at(L->mod, pc, ins, sizeof ins);
	if (module_source_line(L->mod, pc, &file, &line))
		snprintf(buf, n, "%s (%s:%" PRIu32 ")", ins, file, line);
	else
		snprintf(buf, n, "%s", ins);
}

static void cta_xyz(const we_launch_ctx *L, uint64_t id, char *buf, size_t n)
{
	snprintf(buf, n, "(%u,%u,%u)", (unsigned)(id % L->grid.x), (unsigned)((id / L->grid.x) % L->grid.y),
		 (unsigned)(id / ((uint64_t)L->grid.x * L->grid.y)));
}

/* ctas: the access is named in a report between CTAs, where its scope
 * matters (race.h: RACE_SCOPE_CTA) */
static const char *kind_word(unsigned kind, bool ctas)
{
	const bool cta = ctas && (kind & RACE_SCOPE_CTA) != 0;
	if (kind & RACE_STRONG)
		return kind & RACE_WRITE ? (cta ? "a strong write of CTA scope" : "a strong write")
					 : (cta ? "a strong read of CTA scope" : "a strong read");
	if (kind & RACE_ATOMIC)
		return cta ? "an atomic of CTA scope" : "an atomic";
	return kind & RACE_WRITE ? "a write" : "a read";
}

/* "warp W PC 0x...: INSN (f:l): a write by lanes 0x... in interval N
 * (from the start | after PC 0x...: INSN)" */
static void side_text(const we_launch_ctx *L, const race_side *s, bool ctas, char *buf, size_t n)
{
	char ins[400], from[440] = "from the start";
	insn_at(L, s->pc, ins, sizeof ins);
	if (s->from != RACE_NO_PC) {
		char f[400];
		insn_at(L, s->from, f, sizeof f);
		snprintf(from, sizeof from, "after PC 0x%04" PRIx32 ": %s", s->from, f);
	}
	snprintf(buf, n, "warp %" PRIu32 " PC 0x%04" PRIx32 ": %s: %s by lanes 0x%08" PRIx32 " in interval %" PRIu32
		 " (%s)", s->warp, s->pc, ins, kind_word(s->kind, ctas), s->lanes, s->epoch - 1u, from);
}

static void find_line(const we_launch_ctx *L, const race_find *f, char *line, size_t n)
{
	char c1[40], c2[40], a[1200], b[1200], range[80];
	cta_xyz(L, f->s1.cta, c1, sizeof c1);
	cta_xyz(L, f->s2.cta, c2, sizeof c2);
	side_text(L, &f->s1, f->fk == FK_CTAS, a, sizeof a);
	snprintf(range, sizeof range, "%s [0x%04" PRIx64 ", 0x%04" PRIx64 ")", space_names[f->space], f->addr,
		 f->addr + f->nbytes);
	const char *times = f->count == 1 ? "" : "s";
	switch (f->fk) {
	case FK_SHARED:
	case FK_GLOBAL:
		side_text(L, &f->s2, false, b, sizeof b);
		snprintf(line, n, "check: %s: CTA %s %s, and %s, at %s: no barrier orders them (%" PRIu64
			 " pair%s of accesses)", fk_names[f->fk], c1, a, b, range, f->count, times);
		break;
	case FK_CTAS:
		side_text(L, &f->s2, true, b, sizeof b);
		snprintf(line, n, "check: %s: CTA %s %s, and CTA %s %s, at %s: no barrier orders two CTAs, nor a "
			 "MEMBAR + atomic hand-off (%" PRIu64 " pair%s of accesses)", fk_names[f->fk], c1, a, c2, b,
			 range, f->count, times);
		break;
	case FK_LANES:
		snprintf(line, n, "check: %s: CTA %s %s, at %s: the lanes write different values there in one "
			 "instruction (0x%" PRIx32 " and 0x%" PRIx32 "), of which one is kept (%" PRIu64 " time%s)",
			 fk_names[f->fk], c1, a, range, f->v1, f->v2, f->count, times);
		break;
	case FK_UNINIT_SHARED:
		snprintf(line, n, "check: %s: CTA %s %s, at %s: no write ordered before the read wrote %s "
			 "(%" PRIu64 " time%s)", fk_names[f->fk], c1, a, range, f->nbytes == 1 ? "it" : "them",
			 f->count, times);
		break;
	default: /* FK_UNINIT_LOCAL */
		snprintf(line, n, "check: %s: CTA %s %s, at local [0x%04" PRIx64 ", 0x%04" PRIx64 ") of lane %u: the "
			 "thread never wrote there (%" PRIu64 " time%s)", fk_names[f->fk], c1, a, f->addr,
			 f->addr + f->nbytes, (unsigned)__builtin_ctz(f->s1.lanes), f->count, times);
		break;
	}
}

static int find_cmp(const void *pa, const void *pb)
{
	const race_find *a = pa, *b = pb;
	int r;
	if ((r = cmp_u64(a->fk, b->fk)) || (r = cmp_u64(a->pc1, b->pc1)))
		return r;
	return cmp_u64(a->pc2, b->pc2);
}

void race_finds_write(const we_launch_ctx *L, race_finds *fs, check_log *log)
{
	if (fs->n > 1) /* qsort's base must not be NULL, even for 0 */
		qsort(fs->f, fs->n, sizeof *fs->f, find_cmp);
	for (size_t i = 0; i < fs->n; i++) {
		char line[4000];
		find_line(L, &fs->f[i], line, sizeof line);
		check_log_add(log, line);
	}
}
