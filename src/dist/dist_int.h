/* dist_int.h — the parts of the MPI distribution layer (warpemu_mpi.h):
 * the buffers' diffs and their merge (merge.c), the launch over the
 * ranks (dist.c).  MPI appears only in this folder. */
#ifndef WE_DIST_INT_H
#define WE_DIST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "warpemu/warpemu.h"
#include "warpemu/warpemu_mpi.h"


/* One buffer under merge: its contents before the launch (snap) and, on
 * rank 0, the combined atomic code of each word so far (state).  Rank
 * 0's device memory holds the merged result so far. */
typedef struct dbuf {
	const we_mpi_buffer *b;
	uint8_t *snap;
	uint8_t *state;
} dbuf;

/* Why the changes cannot be merged. */
typedef enum dconflict {
	DC_NONE = 0,
	DC_TWO_PLAIN,       /* two ranks stored different values      */
	DC_PLAIN_ATOMIC,    /* a plain store and an atomic            */
	DC_ATOMIC_KINDS,    /* atomics of different operations/types  */
	DC_NOT_MERGEABLE,   /* EXCH, CAS (or mixed) on two ranks      */
	DC_FETCHED,         /* an atomic's returned value used, on a
			       word two ranks update                 */
	DC_IO,              /* device memory access failed            */
	DC_NOMEM
} dconflict;

typedef struct dmerge_err {
	dconflict kind;
	unsigned buf;
	uint64_t offset;
	int rank;           /* the rank whose change met the earlier one */
	uint8_t code;       /* the atomic's, for DC_NOT_MERGEABLE       */
} dmerge_err;

/* Append this rank's changes to buffer d (its device memory now against
 * snap, atomic words per map, which may be NULL) to out; *sent grows by
 * the bytes of runs and atomic words put there. */
we_status dist_diff(const dbuf *d, we_device *dev, const uint8_t *map, strbuf *out, uint64_t *sent);
/* Apply a rank's message (the diffs of every buffer, in order) to rank
 * 0's device memory: false with *e set on a conflict, a malformed message
 * (kind DC_NONE) or a failure (DC_IO, DC_NOMEM). */
bool dist_apply(dbuf *bufs, unsigned nbufs, we_device *dev, const uint8_t *msg, size_t len, int rank,
		dmerge_err *e);
/* The message of e (malloc'd, NULL when out of memory). */
char *dist_conflict_text(const dbuf *bufs, const dmerge_err *e);

#endif
