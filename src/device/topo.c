/* topo.c — the host topology (hwloc) and placement plans (see topo.h and
 * doc/placement.md).
 *
 * topo_open loads the topology once and precomputes, for every PU in
 * hwloc's logical order, its package and core numbers and the scatter
 * order; after that a we_topo is read-only, so any number of threads may
 * use one concurrently (hwloc allows concurrent reads and binding calls
 * on a loaded topology).
 *
 * "Packages" and "cores" are counted so that every PU has both: PUs of a
 * machine without package objects (e.g. the synthetic "core:2 pu:1") all
 * belong to one package, and a PU without a core ancestor is a core of
 * its own.  Numbers are given in logical (tree) order, where the PUs of
 * one core, and the cores of one package, are consecutive.
 */
#include "device/topo.h"
#include "base/strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

/* A synthetic description may describe at most this many objects per
 * level (product of the arities); a typo like "pack:1000 core:1000
 * pu:1000" would otherwise build a billion objects. */
#define SYNTH_MAX_PUS 65536u

#if defined(__GNUC__)
#define TOPO_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TOPO_PRINTF(a, b)
#endif

struct we_topo {
	hwloc_topology_t hw;
	bool thissystem;        /* hwloc describes the machine we run on */
	bool synthetic;         /* loaded from a synthetic description   */
	unsigned npackages, ncores, npus;
	unsigned *pu_package;   /* [npus]: package number of PU i */
	unsigned *pu_core;      /* [npus]: core number of PU i    */
	unsigned *scatter;      /* [npus]: k-th PU of the scatter order */
	uint64_t cache_max;     /* bytes of the largest data cache, 0: none
				   known                                */
};

/* ---- the public name of a placement (we_engine_name is in engine.c) ---- */

const char *we_placement_name(we_placement p)
{
	switch (p) {
	case WE_PLACE_DEFAULT: return "default";
	case WE_PLACE_NONE:    return "none";
	case WE_PLACE_COMPACT: return "compact";
	case WE_PLACE_SCATTER: return "scatter";
	}
	return "unknown";
}

/* ---- opening ----------------------------------------------------------- */

static we_status open_fail(we_status st, char *err, size_t errlen,
			   const char *fmt, ...) TOPO_PRINTF(4, 5);

static we_status open_fail(we_status st, char *err, size_t errlen,
			   const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return st;
}

/* Text of errno value e in buf (strerror is not thread-safe). */
static const char *errno_text(int e, char *buf, size_t len)
{
	if (strerror_r(e, buf, len) != 0)
		snprintf(buf, len, "error %d", e);
	return buf;
}

/* Product of the arities of a synthetic description ("pack:2 core:4"
 * -> 8), saturated above SYNTH_MAX_PUS.  Attributes in parentheses are
 * skipped; anything else odd is left for hwloc to reject. */
static unsigned long synth_size(const char *s)
{
	unsigned long total = 1;
	unsigned depth = 0;

	for (; *s; s++) {
		unsigned long n = 0;

		if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		if (depth || *s != ':')
			continue;
		while (s[1] >= '0' && s[1] <= '9') {
			if (n <= SYNTH_MAX_PUS)
				n = n * 10 + (unsigned long)(s[1] - '0');
			s++;
		}
		total *= n > SYNTH_MAX_PUS ? SYNTH_MAX_PUS + 1 : n;
		if (total > SYNTH_MAX_PUS)
			return SYNTH_MAX_PUS + 1;
	}
	return total;
}

typedef struct pu_key {
	unsigned pu_in_core, core_in_package, package, pu;
} pu_key;

static int cmp_key(const void *a, const void *b)
{
	const pu_key *x = a, *y = b;

	if (x->pu_in_core != y->pu_in_core)
		return x->pu_in_core < y->pu_in_core ? -1 : 1;
	if (x->core_in_package != y->core_in_package)
		return x->core_in_package < y->core_in_package ? -1 : 1;
	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return x->pu < y->pu ? -1 : x->pu > y->pu;
}

/* Number packages and cores, and build the scatter order: sorted by
 * (PU within its core, core within its package, package). */
static we_status build_plan(we_topo *t, char *err, size_t errlen)
{
	hwloc_obj_t prev_pkg = NULL, prev_core = NULL;
	unsigned pu_in_core = 0, core_in_pkg = 0;
	pu_key *keys;

	t->pu_package = calloc((size_t)t->npus * 3, sizeof *t->pu_package);
	keys = calloc(t->npus, sizeof *keys);
	if (!t->pu_package || !keys) {
		free(keys);
		return open_fail(WE_ERR_NOMEM, err, errlen, "out of memory "
				 "describing %u PUs", t->npus);
	}
	t->pu_core = t->pu_package + t->npus;
	t->scatter = t->pu_core + t->npus;
	for (unsigned i = 0; i < t->npus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PU, i);
		hwloc_obj_t pkg, core;

		if (!pu) {
			free(keys);
			return open_fail(WE_ERR_INTERNAL, err, errlen, "hwloc "
					 "has no PU with logical index %u", i);
		}
		pkg = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, pu);
		core = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu);
		if (!core)
			core = pu;
		if (i == 0 || pkg != prev_pkg) {
			t->npackages++;
			t->ncores++;
			core_in_pkg = 0;
			pu_in_core = 0;
		} else if (core != prev_core) {
			t->ncores++;
			core_in_pkg++;
			pu_in_core = 0;
		} else {
			pu_in_core++;
		}
		prev_pkg = pkg;
		prev_core = core;
		t->pu_package[i] = t->npackages - 1;
		t->pu_core[i] = t->ncores - 1;
		keys[i].pu_in_core = pu_in_core;
		keys[i].core_in_package = core_in_pkg;
		keys[i].package = t->npackages - 1;
		keys[i].pu = i;
	}
	qsort(keys, t->npus, sizeof *keys, cmp_key);
	for (unsigned i = 0; i < t->npus; i++)
		t->scatter[i] = keys[i].pu;
	free(keys);
	return WE_OK;
}

/* The bytes of the topology's largest data (or unified) cache, 0 when
 * it shows none. */
static uint64_t largest_cache(hwloc_topology_t hw)
{
	static const hwloc_obj_type_t levels[] = { HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
						   HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE };
	uint64_t most = 0;
	for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
		const int n = hwloc_get_nbobjs_by_type(hw, levels[l]);
		for (int i = 0; i < n; i++) {
			hwloc_obj_t c = hwloc_get_obj_by_type(hw, levels[l], (unsigned)i);
			if (c && c->attr && c->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
			    c->attr->cache.size > most)
				most = c->attr->cache.size;
		}
	}
	return most;
}

static we_status load(we_topo *t, const char *synthetic, char *err,
		      size_t errlen)
{
	char ebuf[128];
	int n;

	if (hwloc_topology_init(&t->hw) != 0) {
		t->hw = NULL;
		return open_fail(WE_ERR_INTERNAL, err, errlen, "hwloc_topology_"
				 "init failed: %s", errno_text(errno, ebuf,
							       sizeof ebuf));
	}
	if (synthetic) {
		if (synth_size(synthetic) > SYNTH_MAX_PUS)
			return open_fail(WE_ERR_INVALID, err, errlen,
					 "synthetic topology '%.80s' is too "
					 "large (at most %u PUs)", synthetic,
					 SYNTH_MAX_PUS);
		if (hwloc_topology_set_synthetic(t->hw, synthetic) != 0)
			return open_fail(WE_ERR_INVALID, err, errlen,
					 "invalid synthetic topology '%.80s' "
					 "(expected e.g. \"pack:2 core:4 "
					 "pu:2\")", synthetic);
	}
	if (hwloc_topology_load(t->hw) != 0)
		return open_fail(WE_ERR_INTERNAL, err, errlen, "hwloc cannot "
				 "load the %s topology: %s",
				 synthetic ? "synthetic" : "host",
				 errno_text(errno, ebuf, sizeof ebuf));
	t->thissystem = hwloc_topology_is_thissystem(t->hw) == 1;
	t->synthetic = synthetic != NULL;
	n = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU);
	if (n <= 0)
		return open_fail(WE_ERR_INTERNAL, err, errlen, "hwloc found no "
				 "processing units (PUs)");
	t->npus = (unsigned)n;
	t->cache_max = largest_cache(t->hw);
	return build_plan(t, err, errlen);
}

we_status topo_open(we_topo **out, const char *synthetic, char *err,
		    size_t errlen)
{
	unsigned api = hwloc_get_api_version();
	we_topo *t;
	we_status st;

	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return open_fail(WE_ERR_INVALID, err, errlen, "topo_open: no "
				 "result pointer");
	*out = NULL;
	if ((api >> 16) != (HWLOC_API_VERSION >> 16))
		return open_fail(WE_ERR_INTERNAL, err, errlen, "built with "
				 "hwloc API 0x%x but running with 0x%x",
				 (unsigned)HWLOC_API_VERSION, api);
	t = calloc(1, sizeof *t);
	if (!t)
		return open_fail(WE_ERR_NOMEM, err, errlen, "out of memory");
	st = load(t, synthetic, err, errlen);
	if (st != WE_OK) {
		topo_close(t);
		return st;
	}
	*out = t;
	return WE_OK;
}

void topo_close(we_topo *t)
{
	if (!t)
		return;
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	free(t->pu_package);
	free(t);
}

/* ---- queries ----------------------------------------------------------- */

unsigned topo_npackages(const we_topo *t)
{
	return t ? t->npackages : 0;
}

unsigned topo_ncores(const we_topo *t)
{
	return t ? t->ncores : 0;
}

unsigned topo_npus(const we_topo *t)
{
	return t ? t->npus : 0;
}

uint64_t topo_cache_max(const we_topo *t)
{
	return t ? t->cache_max : 0;
}

int topo_pu_for(const we_topo *t, we_placement p, unsigned k)
{
	if (!t || t->npus == 0)
		return -1;
	switch (p) {
	case WE_PLACE_DEFAULT:
	case WE_PLACE_COMPACT:
		return (int)(k % t->npus);
	case WE_PLACE_SCATTER:
		return (int)t->scatter[k % t->npus];
	case WE_PLACE_NONE:
		break;
	}
	return -1;
}

/* ---- binding ----------------------------------------------------------- */

static bool no_bind(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return false;
}

/* pu < 0 (the plan of WE_PLACE_NONE) leaves the thread alone: true. */
bool topo_bind_self(const we_topo *t, int pu, const char **why)
{
	const struct hwloc_topology_support *sup;
	hwloc_obj_t obj;

	if (why)
		*why = NULL;
	if (pu < 0)
		return true;
	if (!t)
		return no_bind(why, "no topology");
	if ((unsigned)pu >= t->npus)
		return no_bind(why, "no such PU in the topology");
	if (!t->thissystem)
		return no_bind(why, "the topology is synthetic or imported, "
			       "not this machine's");
	sup = hwloc_topology_get_support(t->hw);
	if (!sup || !sup->cpubind || !sup->cpubind->set_thisthread_cpubind)
		return no_bind(why, "this system does not support binding "
			       "threads to PUs");
	obj = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PU, (unsigned)pu);
	if (!obj || !obj->cpuset)
		return no_bind(why, "hwloc has no cpuset for the PU");
	if (hwloc_set_cpubind(t->hw, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0)
		return true;
	switch (errno) {
	case ENOSYS:
		return no_bind(why, "the operating system does not support "
			       "binding threads");
	case EXDEV:
		return no_bind(why, "the operating system cannot enforce the "
			       "binding");
	case EPERM:
	case EINVAL:
		return no_bind(why, "the PU is not available to this process");
	default:
		break;
	}
	return no_bind(why, "binding the thread failed");
}

/* ---- description ------------------------------------------------------- */

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* "core 3" or "cores 2-5" */
static void sb_range(strbuf *b, const char *what, unsigned lo, unsigned hi)
{
	if (lo == hi)
		sb_printf(b, "%s %u", what, lo);
	else
		sb_printf(b, "%ss %u-%u", what, lo, hi);
}

/* Threads first..last run on the consecutive PUs pu..pu+(last-first). */
static void describe_run(strbuf *b, const we_topo *t, unsigned first,
			 unsigned last, unsigned pu)
{
	unsigned end = pu + (last - first);

	if (first == last)
		sb_printf(b, "  thread %u -> PU %u (", first, pu);
	else
		sb_printf(b, "  threads %u-%u -> PUs %u-%u (", first, last, pu,
			  end);
	sb_range(b, "core", t->pu_core[pu], t->pu_core[end]);
	sb_printf(b, ", ");
	sb_range(b, "package", t->pu_package[pu], t->pu_package[end]);
	sb_printf(b, ")\n");
}

static void describe_plan(strbuf *b, const we_topo *t, we_placement p,
			  unsigned nthreads)
{
	unsigned period = nthreads < t->npus ? nthreads : t->npus;
	unsigned first = 0;

	for (unsigned k = 1; k <= period; k++) {
		unsigned start = (unsigned)topo_pu_for(t, p, first);

		if (k < period && (unsigned)topo_pu_for(t, p, k) ==
				  start + (k - first))
			continue;
		describe_run(b, t, first, k - 1, start);
		first = k;
	}
	if (nthreads <= t->npus)
		return;
	if (nthreads == t->npus + 1)
		sb_printf(b, "  thread %u", t->npus);
	else
		sb_printf(b, "  threads %u-%u", t->npus, nthreads - 1);
	if (nthreads == t->npus + 1 || t->npus == 1)
		sb_printf(b, " -> the PU of thread 0\n");
	else
		sb_printf(b, " -> the PUs of threads 0-%u again (thread k runs "
			  "where thread k mod %u does)\n", t->npus - 1,
			  t->npus);
}

char *topo_describe(const we_topo *t, we_placement p, unsigned nthreads)
{
	strbuf b = { 0 };
	const char *name = p == WE_PLACE_DEFAULT ? "compact (default)"
						 : we_placement_name(p);

	if (!t)
		return NULL;
	sb_printf(&b, "topology: %u package%s, %u core%s, %u PU%s%s\n",
		  t->npackages, plural(t->npackages), t->ncores,
		  plural(t->ncores), t->npus, plural(t->npus),
		  t->thissystem ? "" : t->synthetic ? " (synthetic)"
		  : " (imported: not this machine)");
	if (topo_pu_for(t, p, 0) < 0)
		sb_printf(&b, "placement %s: %u thread%s, not bound\n", name,
			  nthreads, plural(nthreads));
	else if (nthreads == 0)
		sb_printf(&b, "placement %s: no threads\n", name);
	else {
		sb_printf(&b, "placement %s, %u thread%s:\n", name, nthreads,
			  plural(nthreads));
		describe_plan(&b, t, p, nthreads);
	}
	return sb_take(&b);
}
