/* device.c — devices, global memory, error messages. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "device/device.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const char *we_status_name(we_status s)
{
	switch (s) {
	case WE_OK: return "success";
	case WE_ERR_INVALID: return "invalid argument";
	case WE_ERR_NOMEM: return "out of memory";
	case WE_ERR_ASM: return "assembly error";
	case WE_ERR_LOAD: return "load error";
	case WE_ERR_EXCEPTION: return "runtime exception";
	case WE_ERR_DEADLOCK: return "deadlock";
	case WE_ERR_IO: return "I/O error";
	case WE_ERR_LIMIT: return "limit exceeded";
	case WE_ERR_TIMEOUT: return "watchdog timeout";
	case WE_ERR_INTERNAL: return "internal error";
	case WE_ERR_INTERRUPTED: return "interrupted";
	}
	return "unknown status";
}

void dev_error_take(struct we_device *d, char *msg)
{
	free(d->err);
	d->err = msg;
}

void dev_error(struct we_device *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (m) {
		va_start(ap, fmt);
		vsnprintf(m, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	dev_error_take(d, m);
}

const char *we_last_error(const we_device *dev)
{
	return dev && dev->err ? dev->err : "";
}

const char *we_last_report_json(const we_device *dev)
{
	return dev && dev->report_json ? dev->report_json : "";
}

const char *we_last_profile(const we_device *dev)
{
	return dev && dev->profile ? dev->profile : "";
}

const char *we_last_profile_json(const we_device *dev)
{
	return dev && dev->profile_json ? dev->profile_json : "";
}

const char *we_last_warnings(const we_device *dev)
{
	return dev && dev->warnings ? dev->warnings : "";
}

void we_device_interrupt(we_device *dev)
{
	if (dev)
		atomic_store_explicit(&dev->interrupted, true, memory_order_relaxed);
}

const char *we_device_notice(const we_device *dev)
{
	return dev && dev->notice ? dev->notice : "";
}

void dev_notice(struct we_device *d, const char *msg)
{
	free(d->notice);
	d->notice = msg ? strdup(msg) : NULL;
}

const we_topo *dev_topology(struct we_device *d)
{
	if (!d->topo_tried) {
		char err[256];
		d->topo_tried = true;
		d->topo_status = topo_open(&d->topo, NULL, err, sizeof err);
		if (d->topo_status != WE_OK) {
			d->topo = NULL;
			snprintf(d->topo_err, sizeof d->topo_err, "%s", err);
		}
	}
	return d->topo;
}

/* One host thread per PU of the device's topology, which is what
 * `warpemu info` (we_device_describe) shows and placement plans cover;
 * the online CPUs only when hwloc cannot load the topology. */
static unsigned default_threads(struct we_device *d)
{
	const we_topo *t = dev_topology(d);
	if (t && topo_npus(t) > 0)
		return topo_npus(t);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1u;
}

/* The limit in one cgroup control file: a decimal byte count; "max"
 * (v2's "no limit") and anything unreadable or malformed give none. */
static bool cgroup_file_limit(const char *path, uint64_t *limit)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	bool whole = feof(f) && !ferror(f);
	fclose(f);
	if (!whole || n == 0)
		return false;
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	if (n == 0 || buf[0] < '0' || buf[0] > '9')
		return false; /* "max", garbage, a sign */
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(buf[i] - '0');
	}
	*limit = v;
	return true;
}

/* The smallest limit in `file` of cgroup `cg` (a path from
 * /proc/self/cgroup) and of its ancestors, all under mount point `mnt`:
 * a cgroup's limits apply to its descendants too, and inside a container
 * the process's own path may not exist under the mount (which then is
 * the container's cgroup: the walk finds the mount's own file). */
static uint64_t cgroup_tree_limit(const char *root, const char *mnt, const char *cg, const char *file)
{
	uint64_t best = UINT64_MAX;
	size_t len = strlen(cg);
	while (len && cg[len - 1] == '/')
		len--;
	for (;;) {
		int n = snprintf(NULL, 0, "%s%s%.*s/%s", root, mnt, (int)len, cg, file);
		char *path = n > 0 ? malloc((size_t)n + 1) : NULL;
		if (!path)
			return best;
		snprintf(path, (size_t)n + 1, "%s%s%.*s/%s", root, mnt, (int)len, cg, file);
		uint64_t v;
		if (cgroup_file_limit(path, &v) && v < best)
			best = v;
		free(path);
		if (len == 0)
			return best;
		while (len && cg[len - 1] != '/')
			len--;
		while (len && cg[len - 1] == '/')
			len--;
	}
}

/* Does the comma-separated controller list [s, s+n) name "memory"? */
static bool names_memory(const char *s, size_t n)
{
	while (n) {
		size_t k = 0;
		while (k < n && s[k] != ',')
			k++;
		if (k == 6 && memcmp(s, "memory", 6) == 0)
			return true;
		s += k < n ? k + 1 : k;
		n -= k < n ? k + 1 : k;
	}
	return false;
}

uint64_t dev_cgroup_memory_limit(const char *root)
{
	/* (so that "/" reads "/proc/self/cgroup", not "//proc/self/cgroup") */
	if (!root || (root[0] == '/' && root[1] == 0))
		root = "";
	uint64_t best = UINT64_MAX;
	int n = snprintf(NULL, 0, "%s/proc/self/cgroup", root);
	char *path = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (!path)
		return best;
	snprintf(path, (size_t)n + 1, "%s/proc/self/cgroup", root);
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return best;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	/* lines "ID:CONTROLLERS:PATH": v2 is "0::PATH", v1's memory
	 * controller "N:...memory...:PATH" (the mount points are the usual
	 * ones: v2 at /sys/fs/cgroup, v1's memory at /sys/fs/cgroup/memory) */
	while ((got = getline(&line, &cap, f)) > 0) {
		if (line[got - 1] == '\n')
			line[--got] = 0;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2 || c2[1] != '/')
			continue;
		uint64_t v = UINT64_MAX;
		if (c2 == c1 + 1 && strncmp(line, "0:", 2) == 0)
			v = cgroup_tree_limit(root, "/sys/fs/cgroup", c2 + 1, "memory.max");
		else if (names_memory(c1 + 1, (size_t)(c2 - c1 - 1)))
			v = cgroup_tree_limit(root, "/sys/fs/cgroup/memory", c2 + 1, "memory.limit_in_bytes");
		if (v < best)
			best = v;
	}
	free(line);
	fclose(f);
	return best;
}

uint64_t dev_default_max_memory(const char *root, uint64_t phys)
{
	uint64_t host = dev_cgroup_memory_limit(root);
	if (phys && phys < host)
		host = phys;
	return host != UINT64_MAX ? host / 4 * 3 : WE_DEFAULT_MAX_MEMORY;
}

we_status we_device_create(const we_device_config *cfg, we_device **out)
{
	if (!out)
		return WE_ERR_INVALID;
	*out = NULL;
	we_device *d = calloc(1, sizeof *d);
	if (!d)
		return WE_ERR_NOMEM;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	d->phys_memory = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
	/* default limit: 3/4 of the RAM or of the memory cgroup's limit,
	 * whichever is smaller (never more), so that the OOM killer is not
	 * what ends a run */
	uint64_t cap = dev_default_max_memory("/", d->phys_memory);
	d->max_memory = cfg && cfg->max_memory ? cfg->max_memory : cap;
	if (d->max_memory > cap)
		d->max_memory = cap;
	atomic_init(&d->interrupted, false);
	atomic_init(&d->cancel_from, UINT64_MAX);
	d->next_base = WE_GMEM_BASE;
	d->threads = cfg && cfg->threads ? cfg->threads : default_threads(d);
	*out = d;
	return WE_OK;
}

static void dev_host_free(const struct galloc *a);

void we_device_destroy(we_device *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nallocs; i++)
		dev_host_free(&d->allocs[i]);
	free(d->allocs);
	free(d->err);
	free(d->notice);
	free(d->report_json);
	free(d->warnings);
	free(d->profile);
	free(d->profile_json);
	if (d->topo)
		topo_close(d->topo);
	for (unsigned k = 0; k < WE_KEPT_BLOCKS; k++)
		free(d->kept[k].p);
	free(d);
}

void *dev_keep_take(struct we_device *d, unsigned k, size_t size, size_t *cap)
{
	size = size ? (size + 63) / 64 * 64 : 64;
	if (k < WE_KEPT_BLOCKS && d->kept[k].p) {
		void *p = d->kept[k].p;
		d->kept[k].p = NULL;
		if (d->kept[k].size >= size) {
			*cap = d->kept[k].size;
			return p;
		}
		free(p);
	}
	*cap = size;
	return aligned_alloc(64, size);
}

void dev_keep_give(struct we_device *d, unsigned k, void *p, size_t cap)
{
	if (k >= WE_KEPT_BLOCKS || cap > WE_KEPT_MAX || d->kept[k].p) {
		free(p);
		return;
	}
	d->kept[k].p = p;
	d->kept[k].size = cap;
}

/* The first allocation that ends after addr (it holds addr or lies
 * after it), or nallocs. */
static uint32_t first_ending_after(const struct we_device *d, uint64_t addr)
{
	uint32_t lo = 0, hi = d->nallocs;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->allocs[mid].base + d->allocs[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int find_alloc(const struct we_device *d, uint64_t addr)
{
	uint32_t lo = first_ending_after(d, addr);
	if (lo < d->nallocs && addr >= d->allocs[lo].base &&
	    addr < d->allocs[lo].base + d->allocs[lo].size)
		return (int)lo;
	return -1;
}

const galloc *dev_nearest_alloc(const struct we_device *d, uint64_t addr, uint64_t *distance)
{
	/* the first allocation that ends after addr, and the one before it */
	uint32_t lo = first_ending_after(d, addr);
	const galloc *before = lo ? &d->allocs[lo - 1] : NULL, *after = lo < d->nallocs ? &d->allocs[lo] : NULL;
	uint64_t db = before ? addr - (before->base + before->size) : UINT64_MAX;
	uint64_t da = after ? (addr >= after->base ? 0 : after->base - addr) : UINT64_MAX;
	if (!before && !after)
		return NULL;
	/* a tie goes to the one before: overruns are the likelier bug */
	*distance = db <= da ? db : da;
	return db <= da ? before : after;
}

uint8_t *dev_translate_alloc(const struct we_device *d, uint64_t addr, uint64_t size,
			     const galloc **alloc)
{
	int i = find_alloc(d, addr);
	if (i < 0)
		return NULL;
	const galloc *a = &d->allocs[i];
	if (size > a->size - (addr - a->base))
		return NULL;
	*alloc = a;
	return a->host + (addr - a->base);
}

uint8_t *dev_translate(const struct we_device *d, uint64_t addr, uint64_t size)
{
	const galloc *a;
	return dev_translate_alloc(d, addr, size, &a);
}

/* The host memory of an allocation, zeroed, from a 64-byte boundary as
 * its device address (WE_GMEM_ALIGN): a warp's 128 consecutive bytes
 * then span two host cache lines, not three, and whole lines can stream
 * (exec/jit.c emit_stream).  One of 2 MiB or more is
 * mapped on its own, from a 2 MiB boundary, with the advice to back it
 * with transparent huge pages (where THP is "madvise", Debian's default):
 * a kernel streaming through a large buffer then misses the TLB once per
 * 2 MiB instead of once per 4 KiB (reduce's LDG of 16M ints: 3 ms of
 * 50 on one core).  The pages stay untouched until used, as calloc's
 * would.  *mapped: the length to munmap, or 0 for free(). */
#define DEV_HUGE ((size_t)2 << 20)
/* (AddressSanitizer builds keep the heap: its redzones catch a host-side
 * overrun of a device buffer, which a mapping of our own would not) */
#if defined(__SANITIZE_ADDRESS__)
#define DEV_HUGE_MAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEV_HUGE_MAPS 0
#endif
#endif
#ifndef DEV_HUGE_MAPS
#define DEV_HUGE_MAPS 1
#endif
static uint8_t *dev_host_alloc(size_t bytes, size_t *mapped)
{
	*mapped = 0;
	if (bytes < DEV_HUGE) {
		void *p;
		if (posix_memalign(&p, 64, bytes))
			return NULL;
		return memset(p, 0, bytes);
	}
	if (!DEV_HUGE_MAPS)
		return calloc(1, bytes);
	if (bytes > SIZE_MAX - 2 * DEV_HUGE)
		return NULL;
	const size_t len = (bytes + DEV_HUGE - 1) & ~(DEV_HUGE - 1);
	uint8_t *p = mmap(NULL, len + DEV_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* the aligned part; the rest back (a failed munmap of our own
	 * mapping's ends can only leave them mapped, unused) */
	uint8_t *a = p + ((DEV_HUGE - (uintptr_t)p % DEV_HUGE) % DEV_HUGE);
	if (a > p)
		(void)munmap(p, (size_t)(a - p));
	if (p + len + DEV_HUGE > a + len)
		(void)munmap(a + len, (size_t)(p + len + DEV_HUGE - (a + len)));
#ifdef MADV_HUGEPAGE
	/* (advice only: without THP the pages are ordinary ones) */
	(void)madvise(a, len, MADV_HUGEPAGE);
#endif
	*mapped = len;
	return a;
}

static void dev_host_free(const galloc *a)
{
	free(a->atoms);
	if (a->mapped)
		(void)munmap(a->host, a->mapped);
	else
		free(a->host);
}

we_status we_malloc(we_device *d, size_t bytes, we_devptr *out)
{
	if (!d || !out)
		return WE_ERR_INVALID;
	*out = 0;
	if (bytes == 0) {
		dev_error(d, "we_malloc: size 0");
		return WE_ERR_INVALID;
	}
	if (bytes > d->max_memory || d->used > d->max_memory - bytes) {
		dev_error(d, "we_malloc: %zu bytes would exceed the device memory limit "
			  "(%llu of %llu bytes in use)", bytes, (unsigned long long)d->used,
			  (unsigned long long)d->max_memory);
		return WE_ERR_NOMEM;
	}
	if (d->nallocs == d->capallocs) {
		uint32_t cap = d->capallocs ? d->capallocs * 2 : 16;
		galloc *na = realloc(d->allocs, sizeof *na * cap);
		if (!na) {
			dev_error(d, "we_malloc: out of host memory");
			return WE_ERR_NOMEM;
		}
		d->allocs = na;
		d->capallocs = cap;
	}
	size_t mapped;
	uint8_t *h = dev_host_alloc(bytes, &mapped);
	if (!h) {
		dev_error(d, "we_malloc: out of host memory for %zu bytes", bytes);
		return WE_ERR_NOMEM;
	}
	uint64_t base = d->next_base;
	d->next_base = (base + bytes + WE_GMEM_GAP + WE_GMEM_ALIGN - 1) & ~(uint64_t)(WE_GMEM_ALIGN - 1);
	d->allocs[d->nallocs++] = (galloc){ base, bytes, h, mapped, NULL };
	d->used += bytes;
	*out = base;
	return WE_OK;
}

we_status we_free(we_device *d, we_devptr p)
{
	if (!d)
		return WE_ERR_INVALID;
	int i = find_alloc(d, p);
	if (i < 0 || d->allocs[i].base != p) {
		dev_error(d, "we_free: 0x%llx is not the start of an allocation", (unsigned long long)p);
		return WE_ERR_INVALID;
	}
	dev_host_free(&d->allocs[i]);
	d->used -= d->allocs[i].size;
	memmove(&d->allocs[i], &d->allocs[i + 1], sizeof(galloc) * (d->nallocs - (uint32_t)i - 1));
	d->nallocs--;
	return WE_OK;
}

static uint8_t *range(we_device *d, we_devptr p, size_t n, const char *what)
{
	uint8_t *h = n ? dev_translate(d, p, n) : NULL;
	if (!h)
		dev_error(d, "%s: [0x%llx, +%zu) is not inside one allocation", what,
			  (unsigned long long)p, n);
	return h;
}

we_status we_memcpy_htod(we_device *d, we_devptr dst, const void *src, size_t n)
{
	if (!d || (!src && n))
		return WE_ERR_INVALID;
	uint8_t *h = range(d, dst, n, "we_memcpy_htod");
	if (!h)
		return WE_ERR_INVALID;
	memcpy(h, src, n);
	return WE_OK;
}

we_status we_memcpy_dtoh(we_device *d, void *dst, we_devptr src, size_t n)
{
	if (!d || (!dst && n))
		return WE_ERR_INVALID;
	uint8_t *h = range(d, src, n, "we_memcpy_dtoh");
	if (!h)
		return WE_ERR_INVALID;
	memcpy(dst, h, n);
	return WE_OK;
}

we_status we_memset(we_device *d, we_devptr dst, int byte, size_t n)
{
	if (!d)
		return WE_ERR_INVALID;
	uint8_t *h = range(d, dst, n, "we_memset");
	if (!h)
		return WE_ERR_INVALID;
	memset(h, byte, n);
	return WE_OK;
}
