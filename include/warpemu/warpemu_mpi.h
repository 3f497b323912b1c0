/* warpemu_mpi — one launch over the ranks of an MPI communicator
 * (libwarpemu_mpi, built when configure finds MPI; doc/distributed.md).
 *
 * Every rank has its own device, with the same module loaded and the
 * same buffers holding the same bytes (each rank makes them itself).
 * we_mpi_launch is collective over comm: the grid's CTAs are divided into
 * contiguous ranges, one per rank, each rank runs its range with its own
 * host threads, and the buffers' changes are merged on rank 0, where they
 * then hold what a single-process launch leaves, for kernels whose CTAs
 * do not communicate through global memory within the launch.  The
 * status is the same on every rank; a report (exception, deadlock,
 * watchdog) is that of the grid's lowest failing CTA, on rank 0's device
 * (we_last_error, we_last_report_json).  Call with MPI initialised
 * (MPI_THREAD_FUNNELED at least: host threads run the CTAs while the
 * calling thread talks to the other ranks).
 */
#ifndef WARPEMU_MPI_H
#define WARPEMU_MPI_H

#include <mpi.h>

#include "warpemu/warpemu.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

/* A buffer to merge: every global buffer the kernel may write. */
typedef struct we_mpi_buffer {
	const char *name;       /* in messages (its parameter's name) */
	we_devptr ptr;
	size_t bytes;           /* a multiple of 4 is not needed      */
} we_mpi_buffer;

/* One rank's part. */
typedef struct we_mpi_rank_stats {
	uint64_t first_cta, ctas;   /* its range, and the CTAs it ran    */
	uint64_t warp_insns, thread_insns, barriers;
	double seconds;             /* its launch                        */
	uint64_t bytes_merged;      /* changed bytes and atomic words sent */
} we_mpi_rank_stats;

typedef struct we_mpi_stats {
	we_launch_stats total;      /* the whole launch; seconds: wall clock
				       from the start to the merged result */
	double merge_seconds;       /* of those, the diff and the merge   */
	int nranks;
	we_mpi_rank_stats *ranks;   /* rank 0 only: nranks entries, free() */
} we_mpi_stats;

/* Collective over comm.  WE_ERR_LIMIT (message on rank 0's device) when
 * the ranks' changes cannot be merged faithfully: two ranks changed one
 * byte to different values with plain stores, a word was changed with a
 * plain store on one rank and atomically on another, or a word was
 * updated atomically by two ranks with different operations or with one
 * that does not merge (EXCH, CAS).  stats may be NULL. */
we_status we_mpi_launch(MPI_Comm comm, we_device *dev, const we_module *m, const char *kernel,
			const we_launch_config *cfg, const void *params, size_t params_size,
			const we_mpi_buffer *bufs, unsigned nbufs, we_mpi_stats *stats);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
