/* merge.c — what each rank changed in the buffers, and the merge of those
 * changes on rank 0 (doc/distributed.md, "What distributes").
 *
 * A rank's message is, buffer by buffer: the runs of bytes its launch
 * changed with plain stores (its contents against the copy taken before
 * the launch, outside the words it updated atomically), then its atomic
 * words (the word, the operation and type, the final value).  Device
 * memory is read in chunks (CHUNK) as it is compared, never copied whole.
 * Rank 0's own result, in its device memory, is the start; each other
 * rank's message is applied there in rank order:
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

/* Bytes into a message (a strbuf holds bytes as well as text). */
static void put(strbuf *o, const void *p, size_t n)
{
	sb_add(o, (const char *)p, n);
}

static void put_u64(strbuf *o, uint64_t v)
{
	put(o, &v, sizeof v);
}

/* A code's operation and type (WE_ATOMIC_CODE), and whether an atomic
 * on the word returned its old value (WE_ATOMIC_FETCHED). */
static unsigned code_op(uint8_t code)
{
	return ((code & ~WE_ATOMIC_FETCHED) - 1u) % 16u;
}

static unsigned code_type(uint8_t code)
{
	return ((code & ~WE_ATOMIC_FETCHED) - 1u) / 16u;
}

static bool code_fetched(uint8_t code)
{
	return code != WE_ATOMIC_MIXED && (code & WE_ATOMIC_FETCHED);
}

static bool code_is64(uint8_t code)
{
	const unsigned type = code_type(code);
	return code != WE_ATOMIC_MIXED && (type == WE_ATOM_U64 || type == WE_ATOM_S64 || type == WE_ATOM_F64);
}

/* An integer ADD, MIN, MAX, AND, OR or XOR: the ranks' results combine
 * exactly (floating-point addition does not associate, .INC/.DEC wrap). */
static bool code_merges(uint8_t code)
{
	return code != WE_ATOMIC_MIXED && code_op(code) <= WE_ATOM_XOR && code_type(code) <= WE_ATOM_S64;
}

/* Bytes [o, o + n) of a word-sized value in a buffer of `size` bytes
 * (the last word may be partial). */
static size_t word_bytes(uint64_t off, unsigned n, size_t size)
{
	return off >= size ? 0 : size - off < n ? (size_t)(size - off) : n;
}

/* Runs are found 64 bytes at a time and may hold bytes the rank did not
 * change: those equal the copy before the launch, and applying a run
 * skips them (apply_runs), so a run means "these bytes changed" exactly
 * where they differ from before. */
#define BLOCK 64u

/* Device memory is compared and merged this many bytes at a time. */
#define CHUNK ((size_t)4 << 20)
#define PAGE 4096u

/* Whether any of the n bytes at p is non-zero. */
static bool any_set(const uint8_t *p, size_t n)
{
	uint64_t acc = 0;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= p[i];
	return acc != 0;
}

/* The runs of chunk [lo, lo + n) of buffer d (its bytes now at cur) to
 * runs, and its atomic words to atoms; the bytes put in runs. */
static uint64_t diff_chunk(const dbuf *d, size_t lo, size_t n, const uint8_t *cur, const uint8_t *map,
			   strbuf *runs, uint64_t *nruns, strbuf *atoms, uint64_t *natoms)
{
	const uint8_t *snap = d->snap + lo;
	uint64_t sent = 0;
	size_t i = 0;
	if (map && !any_set(map + lo / 4, (n + 3) / 4))
		map = NULL; /* no atomic word here: nothing to mask */
	while (i < n) {
		/* unchanged stretches a page at a time, then blocks */
		if (n - i >= PAGE && i % PAGE == 0 && memcmp(cur + i, snap + i, PAGE) == 0) {
			i += PAGE;
			continue;
		}
		size_t k = n - i < BLOCK ? n - i : BLOCK;
		if (memcmp(cur + i, snap + i, k) == 0) {
			i += k;
			continue;
		}
		size_t j = i + k;
		while (j < n) {
			k = n - j < BLOCK ? n - j : BLOCK;
			if (memcmp(cur + j, snap + j, k) == 0)
				break;
			j += k;
		}
		put_u64(runs, lo + i);
		put_u64(runs, j - i);
		const size_t v = runs->n;
		put(runs, cur + i, j - i);
		/* (lo + i is a multiple of 64, so of 4: whole words) */
		for (size_t w = (lo + i) / 4; map && !runs->oom && w * 4 < lo + j; w++)
			if (map[w]) {
				const size_t o = w * 4 - lo, m = j - o < 4 ? j - o : 4;
				memcpy(runs->s + v + (o - i), snap + o, m);
			}
		(*nruns)++;
		sent += j - i;
		i = j;
	}
	/* the atomic words that begin in this chunk (a 64-bit one may end in
	 * the next: lo is a multiple of 8, so it never does) */
	for (size_t w = lo / 4; map && w * 4 < lo + n; w++) {
		if (!map[w])
			continue;
		const unsigned bytes = code_is64(map[w]) ? 8u : 4u;
		uint8_t rec[ATOM_REC] = { 0 };
		uint64_t idx = w, v = 0;
		memcpy(&v, cur + (w * 4 - lo), word_bytes(w * 4 - lo, bytes, n));
		memcpy(rec, &idx, 8);
		memcpy(rec + 8, &v, 8);
		rec[16] = map[w];
		put(atoms, rec, sizeof rec);
		(*natoms)++;
		sent += bytes;
		if (bytes == 8)
			w++; /* both words of a 64-bit atomic (8-aligned: w even) */
	}
	return sent;
}

we_status dist_diff(const dbuf *d, we_device *dev, const uint8_t *map, strbuf *out, uint64_t *sent)
{
	const size_t size = d->b->bytes;
	strbuf runs = { 0 }, atoms = { 0 };
	uint64_t nruns = 0, natoms = 0;
	uint8_t *cur = malloc(size < CHUNK ? (size ? size : 1) : CHUNK);
	we_status st = cur ? WE_OK : WE_ERR_NOMEM;
	for (size_t lo = 0; st == WE_OK && lo < size; lo += CHUNK) {
		const size_t n = size - lo < CHUNK ? size - lo : CHUNK;
		st = we_memcpy_dtoh(dev, cur, d->b->ptr + lo, n);
		if (st == WE_OK)
			*sent += diff_chunk(d, lo, n, cur, map, &runs, &nruns, &atoms, &natoms);
	}
	free(cur);
	put_u64(out, nruns);
	put(out, runs.s, runs.n);
	put_u64(out, natoms);
	put(out, atoms.s, atoms.n);
	if (st == WE_OK && (runs.oom || atoms.oom || out->oom))
		st = WE_ERR_NOMEM;
	free(runs.s);
	free(atoms.s);
	return st;
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

/* One byte per byte that differs between x and y, as 0xff (a mask). */
static uint64_t bytes_differing(uint64_t x, uint64_t y)
{
	uint64_t t = x ^ y;
	t |= t >> 4;
	t |= t >> 2;
	t |= t >> 1;
	return (t & UINT64_C(0x0101010101010101)) * 0xffu;
}

/* Bytes [o, o + n) of a run (n <= 8) at v: the ones the rank changed
 * (differing from before) are taken, unless an earlier rank changed one
 * to another value or a word of them is atomic. */
static bool apply_chunk(dbuf *d, unsigned bi, uint64_t o, const uint8_t *v, uint8_t *c, size_t n, int rank,
			dmerge_err *e)
{
	uint64_t nv = 0, sv = 0, cv = 0;
	memcpy(&nv, v, n);
	memcpy(&sv, d->snap + o, n);
	memcpy(&cv, c, n);
	const uint64_t mine = bytes_differing(nv, sv);
	if (!mine)
		return true;
	/* (an atomic word first: its value differs from before too) */
	for (size_t k = 0; k < n; k += 4)
		if (((mine >> (8 * k)) & 0xffffffffu) && d->state[(o + k) / 4])
			return conflict(e, DC_PLAIN_ATOMIC, bi, o + k, rank, 0);
	const uint64_t clash = mine & bytes_differing(cv, sv) & bytes_differing(cv, nv);
	if (clash)
		return conflict(e, DC_TWO_PLAIN, bi, o + (unsigned)__builtin_ctzll(clash) / 8u, rank, 0);
	cv = (cv & ~mine) | (nv & mine);
	memcpy(c, &cv, n);
	return true;
}

/* Run [off, off + n) with bytes v into device memory, CHUNK by CHUNK
 * (tmp holds CHUNK bytes): read, apply, write back. */
static bool apply_run(dbuf *d, unsigned bi, we_device *dev, uint64_t off, uint64_t n, const uint8_t *v,
		      uint8_t *tmp, int rank, dmerge_err *e)
{
	for (uint64_t at = 0; at < n; at += CHUNK) {
		const size_t m = n - at < CHUNK ? (size_t)(n - at) : CHUNK;
		if (we_memcpy_dtoh(dev, tmp, d->b->ptr + off + at, m) != WE_OK)
			return conflict(e, DC_IO, bi, off + at, rank, 0);
		const uint64_t o = off + at;
		if (memcmp(tmp, d->snap + o, m) == 0 && !any_set(d->state + o / 4, (m + 3) / 4)) {
			/* the usual case: nobody changed these bytes before and
			 * none is atomic, so the rank's bytes are the result */
			memcpy(tmp, v + at, m);
		} else {
			/* 8 bytes at a time from a word boundary (off is one):
			 * the state check needs whole words */
			for (size_t i = 0; i < m; i += 8)
				if (!apply_chunk(d, bi, o + i, v + at + i, tmp + i, m - i < 8 ? m - i : 8, rank, e))
					return false;
		}
		if (we_memcpy_htod(dev, d->b->ptr + off + at, tmp, m) != WE_OK)
			return conflict(e, DC_IO, bi, off + at, rank, 0);
	}
	return true;
}

static bool apply_runs(dbuf *d, unsigned bi, we_device *dev, rd *r, uint8_t *tmp, int rank, dmerge_err *e)
{
	uint64_t nruns;
	if (!get(r, &nruns, 8))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	for (uint64_t k = 0; k < nruns; k++) {
		uint64_t off, n;
		if (!get(r, &off, 8) || !get(r, &n, 8) || off > d->b->bytes || n > d->b->bytes - off ||
		    n > r->len - r->pos || off % 4)
			return conflict(e, DC_NONE, bi, 0, rank, 0);
		if (!apply_run(d, bi, dev, off, n, r->p + r->pos, tmp, rank, e))
			return false;
		r->pos += n;
	}
	return true;
}

/* The combination of an atomic word: `old` the merged value so far,
 * `v` this rank's final value, `init` the value before the launch. */
static uint64_t combine(uint8_t code, uint64_t init, uint64_t old, uint64_t v)
{
	const unsigned op = code_op(code), type = code_type(code);
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

static bool apply_atom(dbuf *d, unsigned bi, we_device *dev, const uint8_t rec[ATOM_REC], int rank,
		       dmerge_err *e)
{
	uint64_t w, v;
	memcpy(&w, rec, 8);
	memcpy(&v, rec + 8, 8);
	const uint8_t code = rec[16];
	const size_t size = d->b->bytes, words = (size + 3) / 4;
	const unsigned n = code_is64(code) ? 8u : 4u;
	if (code != WE_ATOMIC_MIXED &&
	    ((code & ~WE_ATOMIC_FETCHED) == 0 || code_op(code) > WE_ATOM_DEC || code_type(code) > WE_ATOM_F64))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	if (w >= words || (n == 8 && (w % 2 || w + 1 >= words)))
		return conflict(e, DC_NONE, bi, 0, rank, 0);
	const uint64_t off = 4 * w;
	const size_t nb = word_bytes(off, n, size);
	uint64_t init = 0, old = 0;
	memcpy(&init, d->snap + off, nb);
	if (we_memcpy_dtoh(dev, &old, d->b->ptr + off, nb) != WE_OK)
		return conflict(e, DC_IO, bi, off, rank, 0);
	const uint8_t st = d->state[w];
	if (!st) {
		/* the first rank to update it atomically: nobody else may have
		 * stored there */
		if (old != init)
			return conflict(e, DC_PLAIN_ATOMIC, bi, off, rank, 0);
		d->state[w] = code;
		if (n == 8)
			d->state[w + 1] = code;
		return we_memcpy_htod(dev, d->b->ptr + off, &v, nb) == WE_OK ? true
			: conflict(e, DC_IO, bi, off, rank, 0);
	}
	const uint8_t sb = code_fetched(st) ? st & ~WE_ATOMIC_FETCHED : st;
	const uint8_t cb = code_fetched(code) ? code & ~WE_ATOMIC_FETCHED : code;
	if (sb != cb)
		return conflict(e, DC_ATOMIC_KINDS, bi, off, rank, 0);
	if (!code_merges(cb))
		return conflict(e, DC_NOT_MERGEABLE, bi, off, rank, cb);
	/* a value an atomic returned would have been another with the other
	 * ranks' updates before it */
	if (code_fetched(st) || code_fetched(code))
		return conflict(e, DC_FETCHED, bi, off, rank, cb);
	const uint64_t r = combine(code, init, old, v);
	return we_memcpy_htod(dev, d->b->ptr + off, &r, nb) == WE_OK ? true : conflict(e, DC_IO, bi, off, rank, 0);
}

bool dist_apply(dbuf *bufs, unsigned nbufs, we_device *dev, const uint8_t *msg, size_t len, int rank,
		dmerge_err *e)
{
	rd r = { msg, len, 0 };
	uint8_t *tmp = malloc(CHUNK);
	bool ok = tmp != NULL;
	if (!ok)
		conflict(e, DC_NOMEM, 0, 0, rank, 0);
	for (unsigned bi = 0; ok && bi < nbufs; bi++) {
		uint64_t natoms = 0;
		ok = apply_runs(&bufs[bi], bi, dev, &r, tmp, rank, e);
		if (ok && !get(&r, &natoms, 8))
			ok = conflict(e, DC_NONE, bi, 0, rank, 0);
		for (uint64_t k = 0; ok && k < natoms; k++) {
			uint8_t rec[ATOM_REC];
			ok = get(&r, rec, sizeof rec) ? apply_atom(&bufs[bi], bi, dev, rec, rank, e)
						      : conflict(e, DC_NONE, bi, 0, rank, 0);
		}
	}
	free(tmp);
	if (ok && r.pos != len)
		ok = conflict(e, DC_NONE, 0, 0, rank, 0);
	return ok;
}

static const char *op_name(uint8_t code)
{
	static const char *const names[] = { "ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CAS", "INC", "DEC" };
	if (code == WE_ATOMIC_MIXED)
		return "mixed";
	if (code_type(code) == WE_ATOM_F32)
		return "ADD.F32";
	if (code_type(code) == WE_ATOM_F64)
		return "ADD.F64";
	return code_op(code) <= WE_ATOM_DEC ? names[code_op(code)] : "?";
}

char *dist_conflict_text(const dbuf *bufs, const dmerge_err *e)
{
	/* by kind; each takes the rank, then the operation's name */
	static const char *const why_fmt[] = {
		[DC_NONE] = "the message of rank %d is malformed",
		[DC_TWO_PLAIN] = "rank %d and a lower rank stored different values there",
		[DC_PLAIN_ATOMIC] = "one rank stored there and another updated it atomically (rank %d and a "
				    "lower rank)",
		[DC_ATOMIC_KINDS] = "rank %d and a lower rank updated it with atomics of different operations "
				    "or types",
		[DC_NOT_MERGEABLE] = "rank %d and a lower rank updated it with %s atomics, which do not merge",
		[DC_FETCHED] = "rank %d and a lower rank updated it with %s atomics, and one of them used the "
			       "old value the atomic returned (which depends on the other ranks' updates)",
		[DC_IO] = "device memory could not be read or written while merging rank %d's changes",
		[DC_NOMEM] = "out of host memory while merging rank %d's changes",
	};
	char why[200];
	snprintf(why, sizeof why, why_fmt[e->kind], e->rank, op_name(e->code ? e->code : 1));
	const char *name = bufs[e->buf].b->name ? bufs[e->buf].b->name : "?";
	size_t n = strlen(name) + strlen(why) + 300;
	char *m = malloc(n);
	if (m && (e->kind == DC_NONE || e->kind == DC_IO || e->kind == DC_NOMEM))
		snprintf(m, n, "cannot merge the ranks' buffers: %s", why);
	else if (m)
		snprintf(m, n, "cannot distribute this launch faithfully: parameter '%s', offset %" PRIu64
			 " (0x%" PRIx64 "): %s: the grid's CTAs communicate through global memory "
			 "(doc/distributed.md); run it without mpirun or with one rank", name, e->offset,
			 e->offset, why);
	return m;
}
