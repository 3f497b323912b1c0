/* dist.h — warpemu(1) under mpirun: the ranks of MPI_COMM_WORLD
 * (doc/distributed.md).  Without MPI built in (configure --without-mpi)
 * or outside an MPI launcher, one process is the whole run: rank 0 of 1.
 * Only dist.c includes mpi.h.
 */
#ifndef WE_CLI_DIST_H
#define WE_CLI_DIST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_dist {
	int rank, size;      /* 0 and 1 outside mpirun                     */
	bool mpi;            /* MPI initialised (MPI_Finalize at the end)  */
	int held;            /* stderr's descriptor while a rank's messages
				are held (cli_dist_hold), else -1           */
	int hold_fd;         /* where they are held                        */
} cli_dist;

/* One rank's part of a launch, for --stats=json. */
typedef struct cli_rank {
	uint64_t first_cta, ctas, warp_insns;
	double seconds;
	uint64_t bytes_merged;
} cli_rank;

/* Initialise MPI when launched by mpirun/mpiexec (its environment says
 * so) and MPI is built in. */
void cli_dist_start(cli_dist *d, int *argc, char ***argv);
void cli_dist_stop(cli_dist *d);

/* More than one rank: run and stress divide their work. */
static inline bool cli_dist_on(const cli_dist *d)
{
	return d && d->size > 1;
}

/* Ranks other than 0 hold their messages (stderr) and write nothing on
 * stdout: rank 0 speaks for the run.  cli_dist_agree ends the holding:
 * every rank's rc combined (the worst); a rank's held messages are shown
 * when it failed and rank 0 did not (else rank 0 said the same). */
void cli_dist_hold(cli_dist *d);
int cli_dist_agree(cli_dist *d, int rc);
/* Rank 0's exit status, for every rank (so mpirun's is the same). */
int cli_dist_final(const cli_dist *d, int rc);
/* The counts of every rank summed, on every rank (n of them). */
void cli_dist_sum(const cli_dist *d, uint64_t *v, unsigned n);
/* The lowest rank where `have` holds, or -1. */
int cli_dist_lowest(const cli_dist *d, bool have);
/* Rank root's n bytes at p to every rank's p. */
void cli_dist_bcast(const cli_dist *d, int root, void *p, size_t n);
/* Every rank's n bytes at p to rank 0: there, *all (malloc'd, free()
 * it) holds them in rank order, rank r's lens[r] bytes (a malloc'd array
 * of d->size lengths); NULL elsewhere or when out of memory (the
 * collective still completes). */
void cli_dist_gather(const cli_dist *d, const void *p, size_t n, uint8_t **all, size_t **lens);

#endif
