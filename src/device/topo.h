/* topo.h — the host topology (hwloc) and where host threads run.
 *
 * A device discovers the topology once (or loads a synthetic one for
 * tests, e.g. "pack:2 core:4 pu:2").  A launch asks for a placement plan:
 * for each of its host threads, the PU (hwloc logical index) it is bound
 * to, or -1 for no binding.
 *
 * Policies (documented in doc/placement.md):
 *  - compact: thread k of the launch runs on PU k mod npus in hwloc's
 *    logical (locality) order, so the warps of one CTA — consecutive
 *    threads — sit on neighbouring PUs sharing caches;
 *  - scatter: consecutive threads go to PUs as far apart as the topology
 *    allows: round-robin over packages, then cores within a package, then
 *    PUs within a core;
 *  - none: no binding.
 */
#ifndef WE_TOPO_H
#define WE_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "warpemu/warpemu.h"

typedef struct we_topo we_topo;

/* synthetic: NULL for this machine, else an hwloc synthetic description.
 * On failure returns an error status with a message in err. */
we_status topo_open(we_topo **out, const char *synthetic, char *err, size_t errlen);
void topo_close(we_topo *t);

unsigned topo_npackages(const we_topo *t);
unsigned topo_ncores(const we_topo *t);
unsigned topo_npus(const we_topo *t);
/* The bytes of the largest data cache hwloc shows (the last level's), 0
 * when it shows none. */
uint64_t topo_cache_max(const we_topo *t);

/* PU (logical index) for host thread k of a launch under policy p, or -1
 * for WE_PLACE_NONE.  WE_PLACE_DEFAULT means compact. */
int topo_pu_for(const we_topo *t, we_placement p, unsigned k);

/* Bind the calling thread to PU pu (logical index); pu = -1 (no binding)
 * is a no-op that returns true.  Returns false when binding is unsupported
 * or fails; *why then says why (static text). */
bool topo_bind_self(const we_topo *t, int pu, const char **why);

/* Human-readable description: packages, cores, PUs, and the plan of the
 * first nthreads threads under policy p.  malloc'd; NULL on no memory. */
char *topo_describe(const we_topo *t, we_placement p, unsigned nthreads);

#endif
