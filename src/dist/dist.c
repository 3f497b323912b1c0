/* dist.c — one launch over the ranks of an MPI communicator
 * (warpemu_mpi.h, doc/distributed.md).
 *
 * Each rank copies the buffers (the "before" of its diff), runs its
 * contiguous range of the grid's CTAs on a host thread of its own
 * (we_launch_part, atomics tracked) while the calling thread takes the
 * other ranks' failures: a rank whose part fails sends its lowest failing
 * CTA to every other rank, and a rank still running cancels its CTAs
 * above it (we_device_cancel_from), so a fault, deadlock or watchdog
 * stops every rank and the report is the lowest failing CTA's, as in one
 * process.  Then the ranks agree on the
 * outcome, send their changes to rank 0, which merges them (merge.c),
 * and rank 0 gathers the per-rank figures.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist/dist_int.h"

/* Messages go in pieces of at most this (MPI counts are ints). */
#define PIECE (1u << 30)
/* How often the calling thread looks for the other ranks' failures, and
 * for the end of a wait. */
#define POLL_NS 2000000L
#define WAIT_NS 200000L

/* The launch on its own host thread. */
typedef struct runner {
	we_device *dev;
	const we_module *m;
	const char *kernel;
	const we_launch_config *cfg;
	const void *params;
	size_t params_size;
	we_grid_part part;
	we_launch_stats stats;
	uint64_t report_cta;
	we_status st;
	_Atomic bool done;
} runner;

static void *runner_main(void *arg)
{
	runner *r = arg;
	r->st = we_launch_part(r->dev, r->m, r->kernel, r->cfg, r->params, r->params_size, &r->part,
			       &r->stats, &r->report_cta);
	atomic_store_explicit(&r->done, true, memory_order_release);
	return NULL;
}

/* What each rank tells the others after its launch. */
typedef struct outcome {
	int32_t st;
	int32_t failing;        /* a report that may be the grid's (not a
				   cancellation of its own) */
	uint64_t report_cta;
} outcome;

static bool is_verdict(we_status st)
{
	return st == WE_ERR_EXCEPTION || st == WE_ERR_DEADLOCK || st == WE_ERR_TIMEOUT ||
	       st == WE_ERR_INTERRUPTED;
}

static void nap_ns(long ns)
{
	struct timespec ts = { 0, ns };
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static void nap(void)
{
	nap_ns(POLL_NS);
}

/* Wait for r napping between tests: MPI's own waits spin, and on a
 * machine that ranks share (or oversubscribe) a spinning rank takes the
 * cores of the ranks it waits for. */
static void nap_wait(MPI_Request *r)
{
	int done = 0;
	for (MPI_Test(r, &done, MPI_STATUS_IGNORE); !done; MPI_Test(r, &done, MPI_STATUS_IGNORE))
		nap_ns(WAIT_NS);
}

/* A barrier that naps while it waits (nap_wait). */
static void nap_barrier(MPI_Comm comm)
{
	MPI_Request r;
	MPI_Ibarrier(comm, &r);
	nap_wait(&r);
}

/* An MPI call's error as a status (MPI's default handler aborts on an
 * error; this is for the handlers that return). */
static we_status mpi_ok(we_device *dev, int rc, const char *what)
{
	if (rc == MPI_SUCCESS)
		return WE_OK;
	char msg[MPI_MAX_ERROR_STRING] = "";
	int n = 0;
	MPI_Error_string(rc, msg, &n);
	(void)we_device_set_report(dev, what, NULL);
	fprintf(stderr, "warpemu: %s: %s\n", what, msg);
	return WE_ERR_INTERNAL;
}

/* A failing rank tells every other rank its lowest failing CTA (a
 * message of this tag), so that they stop their CTAs above it. */
#define TAG_FAULT 10

/* Take the failure messages that have arrived: the lowest CTA in them
 * lowers *low; *got counts them. */
static void take_faults(MPI_Comm comm, uint64_t *low, int *got)
{
	for (;;) {
		int flag = 0;
		MPI_Status s;
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAULT, comm, &flag, &s);
		if (!flag)
			return;
		uint64_t cta = UINT64_MAX;
		MPI_Recv(&cta, 1, MPI_UINT64_T, s.MPI_SOURCE, TAG_FAULT, comm, MPI_STATUS_IGNORE);
		(*got)++;
		if (cta < *low)
			*low = cta;
	}
}

/* Run this rank's part on its own thread while this thread takes the
 * other ranks' failures (cancelling this rank's CTAs above them); then
 * send its own failure to the others and wait for every rank, napping
 * rather than spinning in MPI (on a machine that ranks share, a spinning
 * rank takes the cores of those still running).  *got: the failure
 * messages taken. */
static we_status run_watched(MPI_Comm comm, runner *r, uint64_t *cancelled, int *got)
{
	int rank, nranks;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &nranks);
	*cancelled = UINT64_MAX;
	*got = 0;
	pthread_t tid;
	we_status st = WE_OK;
	uint64_t low = UINT64_MAX;
	if (pthread_create(&tid, NULL, runner_main, r)) {
		st = WE_ERR_INTERNAL;
		r->st = WE_ERR_INTERNAL;
		r->report_cta = UINT64_MAX;
	} else {
		const uint64_t end = r->part.first + r->part.count;
		while (!atomic_load_explicit(&r->done, memory_order_acquire)) {
			nap();
			take_faults(comm, &low, got);
			if (low < end && low < *cancelled) {
				*cancelled = low;
				we_device_cancel_from(r->dev, low);
			}
		}
		if (pthread_join(tid, NULL))
			st = WE_ERR_INTERNAL;
	}
	we_device_cancel_from(r->dev, UINT64_MAX);
	MPI_Request *req = calloc(nranks > 1 ? (size_t)nranks : 1u, sizeof(MPI_Request));
	if (!req)
		abort(); /* (a few bytes per rank: the protocol cannot be skipped) */
	int nreq = 0;
	uint64_t mine = r->report_cta;
	if (is_verdict(r->st) && r->report_cta < *cancelled)
		for (int k = 0; k < nranks; k++)
			if (k != rank)
				MPI_Isend(&mine, 1, MPI_UINT64_T, k, TAG_FAULT, comm, &req[nreq++]);
	MPI_Request bar;
	int done = 0;
	MPI_Ibarrier(comm, &bar);
	while (!done) {
		MPI_Test(&bar, &done, MPI_STATUS_IGNORE);
		take_faults(comm, &low, got);
		if (!done)
			nap_ns(WAIT_NS);
	}
	for (int k = 0; k < nreq; k++)
		MPI_Wait(&req[k], MPI_STATUS_IGNORE);
	free(req);
	return st;
}

/* The failure messages not taken yet (every rank knows how many were
 * sent to it once the outcomes are shared): none may be left for a later
 * launch to find. */
static void drain_faults(MPI_Comm comm, int left)
{
	for (; left > 0; left--) {
		uint64_t cta;
		MPI_Recv(&cta, 1, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_FAULT, comm, MPI_STATUS_IGNORE);
	}
}

/* Send / receive a blob of any size: its length, then pieces. */
static void send_blob(MPI_Comm comm, int to, const uint8_t *p, uint64_t n)
{
	MPI_Request r;
	MPI_Isend(&n, 1, MPI_UINT64_T, to, 1, comm, &r);
	nap_wait(&r);
	for (uint64_t off = 0; off < n; off += PIECE) {
		const uint64_t k = n - off < PIECE ? n - off : PIECE;
		MPI_Isend(p + off, (int)k, MPI_BYTE, to, 2, comm, &r);
		nap_wait(&r);
	}
}

static uint8_t *recv_blob(MPI_Comm comm, int from, uint64_t *len)
{
	uint64_t n = 0;
	MPI_Request r;
	MPI_Irecv(&n, 1, MPI_UINT64_T, from, 1, comm, &r);
	nap_wait(&r);
	uint8_t *p = malloc(n ? n : 1);
	uint8_t *sink = p ? NULL : malloc(PIECE); /* drain the pieces anyway */
	if (!p && !sink)
		abort(); /* (they must be received somewhere) */
	for (uint64_t off = 0; off < n; off += PIECE) {
		const uint64_t k = n - off < PIECE ? n - off : PIECE;
		MPI_Irecv(p ? p + off : sink, (int)k, MPI_BYTE, from, 2, comm, &r);
		nap_wait(&r);
	}
	free(sink);
	*len = n;
	return p;
}

/* The rank whose outcome is the grid's: the lowest with an error that is
 * not a verdict, else the one with the lowest failing CTA; -1 when every
 * rank succeeded. */
static int deciding_rank(const outcome *o, int n)
{
	int best = -1;
	for (int r = 0; r < n; r++)
		if (o[r].st != WE_OK && !is_verdict((we_status)o[r].st))
			return r;
	for (int r = 0; r < n; r++)
		if (o[r].failing && (best < 0 || o[r].report_cta < o[best].report_cta))
			best = r;
	return best;
}

/* This rank's atomic maps (NULL where it tracked none). */
static void atomic_maps(we_device *dev, const dbuf *d, unsigned nbufs, const uint8_t **map)
{
	for (unsigned i = 0; i < nbufs; i++) {
		const we_mpi_buffer *b = d[i].b;
		map[i] = NULL;
		if (b->bytes >= 4 && we_atomic_map(dev, b->ptr, b->bytes & ~(size_t)3, &map[i]) != WE_OK)
			map[i] = NULL;
	}
}

/* Rank 0: merge the other ranks' messages into its own result (its
 * device memory); *conflict the message of the first change that cannot
 * merge (the later messages are still received, not applied). */
static we_status merge_root(MPI_Comm comm, int nranks, we_device *dev, dbuf *d, unsigned nbufs,
			    const uint8_t **map, char **conflict)
{
	bool stop = false, nomem = false;
	for (unsigned i = 0; i < nbufs; i++) {
		const size_t words = (d[i].b->bytes + 3) / 4;
		d[i].state = calloc(words ? words : 1, 1);
		if (!d[i].state)
			nomem = true;
		else if (map[i])
			memcpy(d[i].state, map[i], d[i].b->bytes / 4);
	}
	for (int r = 1; r < nranks; r++) {
		uint64_t len = 0;
		uint8_t *msg = recv_blob(comm, r, &len);
		dmerge_err e;
		if (!msg)
			nomem = true;
		else if (!stop && !nomem && !dist_apply(d, nbufs, dev, msg, len, r, &e)) {
			stop = true;
			*conflict = dist_conflict_text(d, &e);
			nomem |= !*conflict;
		}
		free(msg);
	}
	return nomem ? WE_ERR_NOMEM : WE_OK;
}

/* Every rank: its changes to rank 0 (or, there, the merge); *sent the
 * bytes it sent. */
static we_status merge(MPI_Comm comm, int rank, int nranks, we_device *dev, dbuf *d, unsigned nbufs,
		       uint64_t *sent, char **conflict)
{
	const uint8_t **map = calloc(nbufs ? nbufs : 1, sizeof *map);
	we_status st = map ? WE_OK : WE_ERR_NOMEM;
	if (map)
		atomic_maps(dev, d, nbufs, map);
	if (rank == 0 && st != WE_OK) {
		/* rank 0 still receives from everyone (they are sending) */
		for (int r = 1; r < nranks; r++) {
			uint64_t len;
			free(recv_blob(comm, r, &len));
		}
	} else if (rank == 0) {
		st = merge_root(comm, nranks, dev, d, nbufs, map, conflict);
	} else {
		/* (a rank that fails sends an empty message, which rank 0
		 * finds malformed unless there are no buffers) */
		strbuf out = { 0 };
		for (unsigned i = 0; st == WE_OK && i < nbufs; i++)
			st = dist_diff(&d[i], dev, map[i], &out, sent);
		if (st != WE_OK)
			out.n = 0;
		send_blob(comm, 0, (const uint8_t *)out.s, out.n);
		free(out.s);
	}
	free(map);
	return st;
}

/* Rank `from`'s report (text and JSON) to rank 0's device. */
static void move_report(MPI_Comm comm, int rank, int from, we_device *dev)
{
	if (from <= 0)
		return;
	if (rank == from) {
		const char *t = we_last_error(dev), *j = we_last_report_json(dev);
		send_blob(comm, 0, (const uint8_t *)t, strlen(t) + 1);
		send_blob(comm, 0, (const uint8_t *)j, strlen(j) + 1);
	} else if (rank == 0) {
		uint64_t tl = 0, jl = 0;
		uint8_t *t = recv_blob(comm, from, &tl), *j = recv_blob(comm, from, &jl);
		if (t && j && tl && jl && !t[tl - 1] && !j[jl - 1])
			(void)we_device_set_report(dev, (char *)t, *j ? (char *)j : NULL);
		free(t);
		free(j);
	}
}

/* Per-rank figures to rank 0, and the totals. */
static void gather_stats(MPI_Comm comm, int rank, int nranks, const runner *r, uint64_t merged,
			 we_mpi_stats *stats)
{
	we_mpi_rank_stats mine = { r->part.first, r->stats.ctas, r->stats.warp_insns, r->stats.thread_insns,
				   r->stats.barriers, r->stats.seconds, merged };
	we_mpi_rank_stats *all = rank == 0 ? calloc((size_t)nranks, sizeof *all) : NULL;
	uint64_t warnings = r->stats.warnings, total_warnings = 0;
	MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, comm);
	MPI_Reduce(&warnings, &total_warnings, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
	if (!stats) {
		free(all);
		return;
	}
	memset(&stats->total, 0, sizeof stats->total);
	stats->nranks = nranks;
	stats->ranks = all;
	stats->total.warnings = rank == 0 ? total_warnings : warnings;
	for (int k = 0; all && k < nranks; k++) {
		stats->total.ctas += all[k].ctas;
		stats->total.warp_insns += all[k].warp_insns;
		stats->total.thread_insns += all[k].thread_insns;
		stats->total.barriers += all[k].barriers;
	}
}

/* Copies of the buffers before the launch; false (on every rank) when a
 * rank could not make them. */
static we_status snapshot(MPI_Comm comm, we_device *dev, const we_mpi_buffer *bufs, dbuf *d, unsigned nbufs)
{
	we_status st = WE_OK;
	for (unsigned i = 0; i < nbufs; i++) {
		d[i].b = &bufs[i];
		d[i].snap = malloc(bufs[i].bytes ? bufs[i].bytes : 1);
		if (!d[i].snap)
			st = WE_ERR_NOMEM;
		else if (st == WE_OK)
			st = we_memcpy_dtoh(dev, d[i].snap, bufs[i].ptr, bufs[i].bytes);
	}
	int bad = st != WE_OK, any = 0;
	MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
	if (any && st == WE_OK) {
		(void)we_device_set_report(dev, "another rank could not copy its buffers", NULL);
		st = WE_ERR_NOMEM;
	}
	return st;
}

static void free_dbufs(dbuf *d, unsigned nbufs)
{
	for (unsigned i = 0; d && i < nbufs; i++) {
		free(d[i].snap);
		free(d[i].state);
	}
	free(d);
}

we_status we_mpi_launch(MPI_Comm comm, we_device *dev, const we_module *m, const char *kernel,
			const we_launch_config *cfg, const void *params, size_t params_size,
			const we_mpi_buffer *bufs, unsigned nbufs, we_mpi_stats *stats)
{
	if (stats)
		memset(stats, 0, sizeof *stats);
	if (!dev || !m || !cfg || (nbufs && !bufs))
		return WE_ERR_INVALID;
	int rank = 0, nranks = 1;
	if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &nranks) != MPI_SUCCESS)
		return mpi_ok(dev, MPI_ERR_COMM, "we_mpi_launch: not a communicator");
	/* the ranks made their inputs at their own pace: the launch starts
	 * when all are there */
	nap_barrier(comm);
	const double t0 = MPI_Wtime();
	/* the module's .global variables are global memory its CTAs may
	 * write too: merged like a buffer */
	we_mpi_buffer *all_bufs = malloc((nbufs + 1) * sizeof *all_bufs);
	dbuf *d = calloc(nbufs + 1, sizeof *d);
	int have = d != NULL && all_bufs != NULL, all = 0;
	MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, comm);
	if (!all) {
		free(d);
		free(all_bufs);
		return WE_ERR_NOMEM;
	}
	if (nbufs)
		memcpy(all_bufs, bufs, nbufs * sizeof *bufs);
	we_mpi_buffer *gv = &all_bufs[nbufs];
	gv->name = ".global variables";
	if (we_module_globals(m, &gv->ptr, &gv->bytes) == WE_OK && gv->bytes)
		nbufs++;
	bufs = all_bufs;
	we_status st = snapshot(comm, dev, bufs, d, nbufs);
	if (st != WE_OK) {
		free_dbufs(d, nbufs);
		free(all_bufs);
		return st;
	}
	/* contiguous ranges of CTAs (doc/distributed.md says why) */
	const uint64_t n = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
	const uint64_t first = n * (uint64_t)rank / (uint64_t)nranks;
	const uint64_t end = n * (uint64_t)(rank + 1) / (uint64_t)nranks;
	runner r = { dev, m, kernel, cfg, params, params_size, { first, end - first, true }, { 0 }, 0,
		     WE_OK, false };
	uint64_t cancelled = UINT64_MAX;
	int got = 0;
	we_status ls = run_watched(comm, &r, &cancelled, &got);
	outcome mine = { (int32_t)(ls != WE_OK ? ls : r.st), 0, r.report_cta };
	mine.failing = is_verdict(r.st) && r.report_cta < cancelled;
	outcome *o = calloc((size_t)nranks, sizeof *o);
	if (!o)
		abort(); /* (a few bytes per rank: the collective cannot be skipped) */
	MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, o, (int)sizeof mine, MPI_BYTE, comm);
	int sent = 0; /* failure messages sent to this rank */
	for (int k = 0; k < nranks; k++)
		sent += k != rank && o[k].failing;
	drain_faults(comm, sent - got);
	const int dr = deciding_rank(o, nranks);
	we_status result = dr < 0 ? WE_OK : (we_status)o[dr].st;
	free(o);
	const double tm = MPI_Wtime();
	uint64_t merged = 0;
	char *conflict = NULL;
	we_status ms = merge(comm, rank, nranks, dev, d, nbufs, &merged, &conflict);
	move_report(comm, rank, dr, dev);
	/* a failed merge or one that cannot be faithful is the outcome unless
	 * the launch already failed (its report says more) */
	int verdict = (int)result;
	if (rank == 0 && result == WE_OK && (ms != WE_OK || conflict)) {
		verdict = ms != WE_OK ? (int)ms : (int)WE_ERR_LIMIT;
		(void)we_device_set_report(dev, conflict ? conflict : "out of memory merging the ranks' buffers",
					   NULL);
	}
	free(conflict);
	MPI_Bcast(&verdict, 1, MPI_INT, 0, comm);
	gather_stats(comm, rank, nranks, &r, merged, stats);
	if (stats) {
		stats->merge_seconds = MPI_Wtime() - tm;
		stats->total.seconds = MPI_Wtime() - t0;
	}
	free_dbufs(d, nbufs);
	free(all_bufs);
	return (we_status)verdict;
}
