/* merge.c — what each rank changed in the buffers, and the merge of those
 * changes on rank 0 (doc/distributed.md, "What distributes").
 *
 * A rank's message is, buffer by buffer: the runs of bytes its launch
 * changed with plain stores (its contents against the copy taken before
 * the launch, outside the words it updated atomically), then its atomic
 * words (the word, the operation and type, the final value).  Rank 0's
 * own result is the start; each other rank's message is applied in rank
 * order:
 *   - a changed byte is taken unless an earlier rank changed it to a
 *     different value (two plain stores: the order of CTAs decides, so
 *     the grid's CTAs communicate) or a rank updated its word atomically;
 *   - an atomic word combines with the earlier ranks' by its operation:
 *     ADD adds the ranks' differences, MIN/MAX/AND/OR take the
 *     operation of the final values, XOR the XOR of the differences,
 *     which is what applying all the ranks' atomics in any order gives.
 *     EXCH and CAS do not combine: such a word may be touched by one
 *     rank only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist_int.h"

/* An atomic record: word index, final value (64 bits for U64/S64), code. */
#define ATOM_REC 24u

static void put(dbytes *o, const void *p, size_t n)
{
	if (!o || o->nomem)
		return;
	if (o->cap - o->len < n) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap - o->len < n)
			cap *= 2;
		uint8_t *q = realloc(o->p, cap);
		if (!q) {
			o->nomem = true;
			return;
		}
		o->p = q;
		o->cap = cap;
	}
	memcpy(o->p + o->len, p, n);
	o->len += n;
}

static void put_u64(dbytes *o, uint64_t v)
{
	put(o, &v, sizeof v);
}

static bool code_is64(uint8_t code)
{
	const unsigned type = (code - 1u) / 8u;
	return code != WE_ATOMIC_MIXED && (type == WE_ATOM_U64 || type == WE_ATOM_S64);
}

/* Bytes [o, o + n) of a word-sized value in a buffer of `size` bytes
 * (the last word may be partial). */
static size_t word_bytes(uint64_t off, unsigned n, size_t size)
{
	return off >= size ? 0 : size - off < n ? (size_t)(size - off) : n;
}

/* Byte i is a plain change: it differs and its word is not atomic. */
static bool plain_change(const uint8_t *cur, const uint8_t *snap, const uint8_t *map, size_t i)
{
	return cur[i] != snap[i] && !(map && map[i / 4]);
}

/* The plain runs: a count, then each run (offset, length, bytes).  The
 * count is patched in once known. */
static uint64_t diff_runs(const dbuf *d, const uint8_t *cur, const uint8_t *map, dbytes *out)
{
	const size_t size = d->b->bytes;
	const size_t at = out ? out->len : 0;
	uint64_t nruns = 0, changed = 0;
	put_u64(out, 0);
	size_t i = 0;
	while (i < size) {
		/* skip equal blocks quickly (most of a buffer, usually) */
		if (size - i >= 64 && memcmp(cur + i, d->snap + i, 64) == 0) {
			i += 64;
			continue;
		}
		if (!plain_change(cur, d->snap, map, i)) {
			i++;
			continue;
		}
		size_t j = i + 1;
		while (j < size && plain_change(cur, d->snap, map, j))
			j++;
		put_u64(out, i);
		put_u64(out, j - i);
		put(out, cur + i, j - i);
		nruns++;
		changed += j - i;
		i = j;
	}
	if (out && !out->nomem)
		memcpy(out->p + at, &nruns, sizeof nruns);
	return changed;
}

uint64_t dist_diff(const dbuf *d, const uint8_t *cur, const uint8_t *map, dbytes *out)
{
	const size_t size = d->b->bytes, words = (size + 3) / 4;
	uint64_t changed = diff_runs(d, cur, map, out);
	const size_t at = out ? out->len : 0;
	uint64_t natoms = 0;
	put_u64(out, 0);
	for (size_t w = 0; map && w < words; w++) {
		if (!map[w])
			continue;
		const unsigned n = code_is64(map[w]) ? 8u : 4u;
		uint8_t rec[ATOM_REC] = { 0 };
		uint64_t idx = w, v = 0;
		memcpy(&v, cur + 4 * w, word_bytes(4 * w, n, size));
		memcpy(rec, &idx, 8);
		memcpy(rec + 8, &v, 8);
		rec[16] = map[w];
		put(out, rec, sizeof rec);
		natoms++;
		changed += n;
		if (n == 8)
			w++; /* both words of a 64-bit atomic (8-aligned: w even) */
	}
	if (out && !out->nomem)
		memcpy(out->p + at, &natoms, sizeof natoms);
	return changed;
}

/* A cursor over a message. */
typedef struct rd {
	const uint8_t *p;
	size_t len, pos;
} rd;

static bool get(rd *r, void *v, size_t n)
{
	if (r->len - r->pos < n)
		return false;
	memcpy(v, r->p + r->pos, n);
	r->pos += n;
	return true;
}

static bool conflict(dmerge_err *e, dconflict kind, unsigned buf, uint64_t off, int rank, uint8_t code)
{
	*e = (dmerge_err){ kind, buf, off, rank, code };
	return false;
}

static bool apply_runs(dbuf *d, unsigned bi, rd *r, int rank, dmerge_err *e)
{
	uint64_t nruns;
	if (!get(r, &nruns, 8))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	for (uint64_t k = 0; k < nruns; k++) {
		uint64_t off, n;
		if (!get(r, &off, 8) || !get(r, &n, 8) || off > d->b->bytes || n > d->b->bytes - off ||
		    n > r->len - r->pos)
			return conflict(e, DC_NONE, bi, 0, rank, 0);
		const uint8_t *v = r->p + r->pos;
		for (uint64_t i = 0; i < n; i++) {
			const uint64_t o = off + i;
			if (d->state[o / 4])
				return conflict(e, DC_PLAIN_ATOMIC, bi, o, rank, 0);
			if (d->cur[o] != d->snap[o] && d->cur[o] != v[i])
				return conflict(e, DC_TWO_PLAIN, bi, o, rank, 0);
			d->cur[o] = v[i];
		}
		r->pos += n;
	}
	return true;
}

/* The combination of an atomic word: `old` the merged value so far,
 * `v` this rank's final value, `init` the value before the launch. */
static uint64_t combine(uint8_t code, uint64_t init, uint64_t old, uint64_t v)
{
	const unsigned op = (code - 1u) % 8u, type = (code - 1u) / 8u;
	const bool w64 = type == WE_ATOM_U64 || type == WE_ATOM_S64;
	const bool sgn = type == WE_ATOM_S32 || type == WE_ATOM_S64;
	const uint64_t mask = w64 ? UINT64_MAX : UINT32_MAX;
	bool less;
	if (sgn)
		less = w64 ? (int64_t)v < (int64_t)old : (int32_t)(uint32_t)v < (int32_t)(uint32_t)old;
	else
		less = (v & mask) < (old & mask);
	switch (op) {
	case WE_ATOM_ADD: return (old + v - init) & mask;
	case WE_ATOM_MIN: return less ? v : old;
	case WE_ATOM_MAX: return less || v == old ? old : v;
	case WE_ATOM_AND: return old & v;
	case WE_ATOM_OR: return old | v;
	default: return (old ^ v ^ init) & mask; /* XOR */
	}
}

static bool apply_atom(dbuf *d, unsigned bi, const uint8_t rec[ATOM_REC], int rank, dmerge_err *e)
{
	uint64_t w, v;
	memcpy(&w, rec, 8);
	memcpy(&v, rec + 8, 8);
	const uint8_t code = rec[16];
	const size_t size = d->b->bytes, words = (size + 3) / 4;
	const unsigned n = code_is64(code) ? 8u : 4u;
	if (code != WE_ATOMIC_MIXED && (code == 0 || code > WE_ATOMIC_CODE(WE_ATOM_CAS, WE_ATOM_S64)))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	if (w >= words || (n == 8 && (w % 2 || w + 1 >= words)))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	const uint64_t off = 4 * w;
	const size_t nb = word_bytes(off, n, size);
	uint64_t init = 0, old = 0;
	memcpy(&init, d->snap + off, nb);
	memcpy(&old, d->cur + off, nb);
	const uint8_t st = d->state[w];
	if (!st) {
		/* the first rank to update it atomically: nobody else may have
		 * stored there */
		if (old != init)
			return conflict(e, DC_PLAIN_ATOMIC, bi, off, rank, 0);
		d->state[w] = code;
		if (n == 8)
			d->state[w + 1] = code;
		memcpy(d->cur + off, &v, nb);
		return true;
	}
	if (st != code)
		return conflict(e, DC_ATOMIC_KINDS, bi, off, rank, 0);
	const unsigned op = (code - 1u) % 8u;
	if (code == WE_ATOMIC_MIXED || op == WE_ATOM_EXCH || op == WE_ATOM_CAS)
		return conflict(e, DC_NOT_MERGEABLE, bi, off, rank, code);
	const uint64_t r = combine(code, init, old, v);
	memcpy(d->cur + off, &r, nb);
	return true;
}

bool dist_apply(dbuf *bufs, unsigned nbufs, const uint8_t *msg, size_t len, int rank, dmerge_err *e)
{
	rd r = { msg, len, 0 };
	for (unsigned bi = 0; bi < nbufs; bi++) {
		if (!apply_runs(&bufs[bi], bi, &r, rank, e))
			return false;
		uint64_t natoms;
		if (!get(&r, &natoms, 8))
			return conflict(e, DC_NONE, bi, 0, rank, 0);
		for (uint64_t k = 0; k < natoms; k++) {
			uint8_t rec[ATOM_REC];
			if (!get(&r, rec, sizeof rec) || !apply_atom(&bufs[bi], bi, rec, rank, e))
				return e->kind != DC_NONE ? false : conflict(e, DC_NONE, bi, 0, rank, 0);
		}
	}
	return r.pos == len ? true : conflict(e, DC_NONE, 0, 0, rank, 0);
}

static const char *op_name(uint8_t code)
{
	static const char *const names[] = { "ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CAS" };
	return code == WE_ATOMIC_MIXED ? "mixed" : names[(code - 1u) % 8u];
}

char *dist_conflict_text(const dbuf *bufs, const dmerge_err *e)
{
	char why[200];
	switch (e->kind) {
	case DC_TWO_PLAIN:
		snprintf(why, sizeof why, "rank %d and a lower rank stored different values there", e->rank);
		break;
	case DC_PLAIN_ATOMIC:
		snprintf(why, sizeof why, "one rank stored there and another updated it atomically "
			 "(rank %d and a lower rank)", e->rank);
		break;
	case DC_ATOMIC_KINDS:
		snprintf(why, sizeof why, "rank %d and a lower rank updated it with atomics of different "
			 "operations or types", e->rank);
		break;
	case DC_NOT_MERGEABLE:
		snprintf(why, sizeof why, "rank %d and a lower rank updated it with %s atomics, which do "
			 "not merge", e->rank, op_name(e->code));
		break;
	default:
		snprintf(why, sizeof why, "the message of rank %d is malformed", e->rank);
		break;
	}
	const char *name = bufs[e->buf].b->name ? bufs[e->buf].b->name : "?";
	size_t n = strlen(name) + strlen(why) + 300;
	char *m = malloc(n);
	if (m && e->kind == DC_NONE)
		snprintf(m, n, "cannot merge the ranks' buffers: %s", why);
	else if (m)
		snprintf(m, n, "cannot distribute this launch faithfully: parameter '%s', offset %" PRIu64
			 " (0x%" PRIx64 "): %s: the grid's CTAs communicate through global memory "
			 "(doc/distributed.md); run it without mpirun or with one rank", name, e->offset,
			 e->offset, why);
	return m;
}
