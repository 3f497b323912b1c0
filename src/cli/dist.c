/* dist.c — warpemu(1) under mpirun (dist.h, doc/distributed.md): MPI's
 * start and end, the ranks' agreement on set-up and exit status, and run's
 * launch over the ranks through libwarpemu_mpi.  Without MPI built in,
 * one process is rank 0 of 1 and nothing here talks to anyone.
 */
#include "config.h"

#include "cli/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef WE_HAVE_MPI
#include <mpi.h>

#include "warpemu/warpemu_mpi.h"
#endif

/* An MPI launcher's environment: MPICH's Hydra (PMI_SIZE), Open MPI
 * (OMPI_COMM_WORLD_SIZE), or a PMIx one (PMIX_RANK). */
static bool under_launcher(void)
{
	return getenv("PMI_SIZE") || getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK");
}

void cli_dist_start(cli_dist *d, int *argc, char ***argv)
{
	memset(d, 0, sizeof *d);
	d->size = 1;
	d->held = -1;
	d->hold_fd = -1;
#ifdef WE_HAVE_MPI
	int provided = 0;
	if (!under_launcher())
		return;
	/* the calling thread alone talks MPI; the launch's host threads
	 * never do */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return;
	d->mpi = true;
	MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d->size);
	if (provided < MPI_THREAD_FUNNELED && d->size > 1) {
		if (d->rank == 0)
			errorf(0, "notice: MPI gives no thread support: running every rank alone");
		d->size = 1;
		d->rank = 0;
	}
#else
	(void)argc;
	(void)argv;
	(void)under_launcher;
#endif
}

void cli_dist_stop(cli_dist *d)
{
#ifdef WE_HAVE_MPI
	if (d->mpi)
		MPI_Finalize();
#endif
	d->mpi = false;
}

void cli_dist_hold(cli_dist *d)
{
	if (!cli_dist_on(d) || d->rank == 0)
		return;
	/* nothing of another rank on stdout; its stderr held in a file */
	if (!freopen("/dev/null", "w", stdout))
		clearerr(stdout);
	FILE *t = tmpfile();
	fflush(stderr);
	d->held = t ? dup(STDERR_FILENO) : -1;
	if (d->held < 0 || dup2(fileno(t), STDERR_FILENO) < 0) {
		if (d->held >= 0)
			close(d->held);
		d->held = -1;
		if (t)
			fclose(t);
		return;
	}
	d->hold_fd = dup(fileno(t));
	fclose(t);
}

/* Stop holding; the held messages to the real stderr when show. */
static void release(cli_dist *d, bool show)
{
	if (d->held < 0)
		return;
	fflush(stderr);
	dup2(d->held, STDERR_FILENO);
	close(d->held);
	d->held = -1;
	if (show && d->hold_fd >= 0 && lseek(d->hold_fd, 0, SEEK_SET) == 0) {
		char buf[4096];
		ssize_t n;
		fprintf(stderr, PROG ": rank %d:\n", d->rank);
		fflush(stderr);
		while ((n = read(d->hold_fd, buf, sizeof buf)) > 0)
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
	}
	if (d->hold_fd >= 0)
		close(d->hold_fd);
	d->hold_fd = -1;
}

int cli_dist_agree(cli_dist *d, int rc)
{
	if (!cli_dist_on(d))
		return rc;
#ifdef WE_HAVE_MPI
	int pair[2] = { rc, d->rank == 0 ? rc : 0 }, worst[2] = { 0, 0 };
	MPI_Allreduce(pair, worst, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	release(d, rc != CLI_EXIT_OK && worst[1] == CLI_EXIT_OK);
	if (d->rank == 0 && rc == CLI_EXIT_OK && worst[0] != CLI_EXIT_OK)
		errorf(worst[0], "another rank could not set the run up (its messages are above)");
	return worst[0];
#else
	release(d, false);
	return rc;
#endif
}

int cli_dist_final(const cli_dist *d, int rc)
{
#ifdef WE_HAVE_MPI
	if (cli_dist_on(d))
		MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
#else
	(void)d;
#endif
	return rc;
}

void cli_dist_sum(const cli_dist *d, uint64_t *v, unsigned n)
{
#ifdef WE_HAVE_MPI
	if (cli_dist_on(d))
		MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
#else
	(void)d;
	(void)v;
	(void)n;
#endif
}

int cli_dist_lowest(const cli_dist *d, bool have)
{
	int mine = have ? d->rank : d->size, low = mine;
#ifdef WE_HAVE_MPI
	if (cli_dist_on(d))
		MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
	return low < d->size ? low : -1;
}

/* Bytes go in pieces of at most this (MPI counts are ints). */
#define PIECE ((size_t)1 << 30)

void cli_dist_bcast(const cli_dist *d, int root, void *p, size_t n)
{
#ifdef WE_HAVE_MPI
	for (size_t off = 0; cli_dist_on(d) && off < n; off += PIECE)
		MPI_Bcast((uint8_t *)p + off, (int)(n - off < PIECE ? n - off : PIECE), MPI_BYTE, root,
			  MPI_COMM_WORLD);
#else
	(void)d;
	(void)root;
	(void)p;
	(void)n;
#endif
}

void cli_dist_gather(const cli_dist *d, const void *p, size_t n, uint8_t **all, size_t **lens)
{
	*all = NULL;
	*lens = NULL;
#ifdef WE_HAVE_MPI
	if (!cli_dist_on(d))
		return;
	uint64_t len = n;
	if (d->rank != 0) {
		MPI_Send(&len, 1, MPI_UINT64_T, 0, 3, MPI_COMM_WORLD);
		for (size_t off = 0; off < n; off += PIECE)
			MPI_Send((const uint8_t *)p + off, (int)(n - off < PIECE ? n - off : PIECE), MPI_BYTE, 0, 4,
				 MPI_COMM_WORLD);
		return;
	}
	size_t *ls = calloc((size_t)d->size, sizeof *ls), at = n;
	uint8_t *buf = ls ? malloc(n ? n : 1) : NULL, *sink = NULL;
	bool ok = buf != NULL;
	if (ok)
		memcpy(buf, p, n);
	for (int r = 1; r < d->size; r++) {
		uint64_t rl = 0;
		MPI_Recv(&rl, 1, MPI_UINT64_T, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		uint8_t *nb = ok ? realloc(buf, at + rl + 1) : NULL;
		if (ok && !nb)
			ok = false;
		if (nb)
			buf = nb;
		if (!ok && !sink && !(sink = malloc(PIECE)))
			abort(); /* the pieces must be received somewhere */
		for (size_t off = 0; off < rl; off += PIECE)
			MPI_Recv(ok ? buf + at + off : sink, (int)(rl - off < PIECE ? rl - off : PIECE), MPI_BYTE, r,
				 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (ok)
			ls[r] = (size_t)rl;
		at += (size_t)rl;
	}
	free(sink);
	if (!ok) {
		free(buf);
		free(ls);
		return;
	}
	ls[0] = n;
	*all = buf;
	*lens = ls;
#else
	(void)d;
	(void)p;
	(void)n;
#endif
}

we_status run_dist_launch(run_ctx *c, const we_launch_config *cfg)
{
#ifdef WE_HAVE_MPI
	const we_kernel_info *k = c->k;
	we_mpi_buffer *bufs = calloc_n(c->nslots, sizeof *bufs);
	unsigned n = 0;
	if (!bufs)
		return WE_ERR_NOMEM;
	/* every buffer (pointer parameters and --buffer): the kernel may
	 * write any of them */
	for (unsigned i = 0; i < c->nslots; i++)
		if (c->slots[i].buffer && c->slots[i].allocated)
			bufs[n++] = (we_mpi_buffer){ c->slots[i].name, c->slots[i].ptr, c->slots[i].c.bytes };
	we_mpi_stats s;
	we_status st = we_mpi_launch(MPI_COMM_WORLD, c->dev, c->mod, k->name, cfg, c->params, k->param_bytes,
				     bufs, n, &s);
	free(bufs);
	c->stats = s.total;
	c->merge_seconds = s.merge_seconds;
	c->nranks = s.nranks;
	if (s.ranks && (c->ranks = calloc_n((size_t)s.nranks, sizeof *c->ranks)) != NULL)
		for (int r = 0; r < s.nranks; r++)
			c->ranks[r] = (cli_rank){ s.ranks[r].first_cta, s.ranks[r].ctas, s.ranks[r].warp_insns,
						  s.ranks[r].seconds, s.ranks[r].bytes_merged };
	free(s.ranks);
	return st;
#else
	return we_launch(c->dev, c->mod, c->k->name, cfg, c->params, c->k->param_bytes, &c->stats);
#endif
}
