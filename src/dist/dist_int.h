/* dist_int.h — the parts of the MPI distribution layer (warpemu_mpi.h):
 * the buffers' diffs and their merge (merge.c), the launch over the
 * ranks (dist.c).  MPI appears only in this folder. */
#ifndef WE_DIST_INT_H
#define WE_DIST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "warpemu/warpemu.h"
#include "warpemu/warpemu_mpi.h"

/* A growing byte array (a rank's message). */
typedef struct dbytes {
	uint8_t *p;
	size_t len, cap;
	bool nomem;
} dbytes;

/* One buffer under merge: its contents before the launch (snap) and, on
 * rank 0, the merged result so far (cur, which starts as rank 0's own
 * result), with the combined atomic code of each word (state). */
typedef struct dbuf {
	const we_mpi_buffer *b;
	uint8_t *snap;
	uint8_t *cur;
	uint8_t *state;
} dbuf;

/* Why the changes cannot be merged. */
typedef enum dconflict {
	DC_NONE = 0,
	DC_TWO_PLAIN,       /* two ranks stored different values      */
	DC_PLAIN_ATOMIC,    /* a plain store and an atomic            */
	DC_ATOMIC_KINDS,    /* atomics of different operations/types  */
	DC_NOT_MERGEABLE    /* EXCH, CAS (or mixed) on two ranks      */
} dconflict;

typedef struct dmerge_err {
	dconflict kind;
	unsigned buf;
	uint64_t offset;
	int rank;           /* the rank whose change met the earlier one */
	uint8_t code;       /* the atomic's, for DC_NOT_MERGEABLE       */
} dmerge_err;

/* Append rank's changes to buffer d (its current contents cur against
 * snap, atomic words per map, which may be NULL) to out, or only count
 * them (out NULL).  The bytes it changed and the atomic words it
 * updated. */
uint64_t dist_diff(const dbuf *d, const uint8_t *cur, const uint8_t *map, dbytes *out);
/* Apply a rank's message (the diffs of every buffer, in order) to the
 * bufs' cur on rank 0: false with *e set on a conflict or a malformed
 * message (kind DC_NONE). */
bool dist_apply(dbuf *bufs, unsigned nbufs, const uint8_t *msg, size_t len, int rank, dmerge_err *e);
/* The message of e (malloc'd, NULL when out of memory). */
char *dist_conflict_text(const dbuf *bufs, const dmerge_err *e);

#endif
