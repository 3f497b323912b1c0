/* device.h — a device: global memory allocations and the last error.
 *
 * Device addresses are 64-bit.  Allocations are placed at increasing
 * addresses from WE_GMEM_BASE, each 256-byte aligned with an unmapped gap
 * after it, so a null or overrunning pointer faults instead of landing in
 * a neighbour.  The allocation table is read-only during a launch; a
 * device is used by one host thread at a time (its launches use many).
 */
#ifndef WE_DEVICE_H
#define WE_DEVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "device/topo.h"
#include "warpemu/warpemu.h"

#define WE_GMEM_BASE UINT64_C(0x10000000)
#define WE_GMEM_ALIGN 256u
#define WE_GMEM_GAP 4096u
#define WE_DEFAULT_MAX_MEMORY (UINT64_C(8) << 30)

/* Host threads of a launch whose buffers a device keeps (dev_keep_take),
 * and the largest block it keeps for one. */
#define WE_KEPT_BLOCKS 64u
#define WE_KEPT_MAX (UINT64_C(16) << 20)

typedef struct galloc {
	uint64_t base, size;
	uint8_t *host;
	size_t mapped;          /* bytes mapped for it (dev_host_alloc), or 0:
				   from calloc */
	uint8_t *atoms;         /* a launch's global atomics per 32-bit word
				   (atomics.c), or NULL */
} galloc;

struct we_device {
	uint64_t max_memory;
	uint64_t used;
	uint64_t next_base;
	galloc *allocs;         /* sorted by base */
	uint32_t nallocs, capallocs;
	unsigned threads;       /* host worker threads for launches */
	char *err;              /* last error message (malloc'd) */
	char *notice;           /* last launch's notice, e.g. no binding */
	char *report_json;      /* last launch's report as JSON         */
	char *warnings;         /* last launch's --check hazards        */
	char *profile;          /* last launch's --profile: text, JSON  */
	char *profile_json;
	we_topo *topo;          /* discovered once: at creation for the
				   default thread count, else on first use */
	bool topo_tried;
	_Atomic bool interrupted; /* we_device_interrupt()            */
	_Atomic uint64_t cancel_from; /* we_device_cancel_from(): CTAs of
				   this linear id and above stop      */
	uint64_t phys_memory;     /* bytes of RAM, for up-front refusals */
	char topo_err[256];     /* why topo is NULL                   */
	we_status topo_status;  /* and topo_open's status then        */
	/* the blocks a launch's host threads keep for the next launch
	 * (dev_keep_take): block k is host thread k's */
	struct {
		void *p;
		size_t size;
	} kept[WE_KEPT_BLOCKS];
};

/* The buffers a host thread of a launch needs, kept from one launch to
 * the next (a device runs one launch at a time): freeing them at a
 * launch's end and allocating them at the next one's start had the next
 * launch take them from fresh pages, one page fault each
 * (bench/README.md).  Host thread k takes its block, at least `size`
 * bytes (*cap: how many) and 64-byte aligned, its contents undefined
 * (NULL when out of memory), and gives it back at the launch's end.
 * Threads take and give back their own blocks concurrently; the device
 * keeps block k for k < WE_KEPT_BLOCKS and up to WE_KEPT_MAX bytes, and
 * frees it at we_device_destroy. */
void *dev_keep_take(struct we_device *d, unsigned k, size_t size, size_t *cap);
void dev_keep_give(struct we_device *d, unsigned k, void *p, size_t cap);

/* The host topology, discovered once per device; NULL when hwloc cannot
 * load it (launches then run unpinned, with a notice). */
const we_topo *dev_topology(struct we_device *d);
/* Replace the device's notice (a copy of msg). */
void dev_notice(struct we_device *d, const char *msg);

/* Host pointer for [addr, addr+size) inside one allocation, or NULL. */
uint8_t *dev_translate(const struct we_device *d, uint64_t addr, uint64_t size);
/* The same, also giving the allocation. */
uint8_t *dev_translate_alloc(const struct we_device *d, uint64_t addr, uint64_t size,
			     const galloc **alloc);

/* The memory limit of the cgroup this process is in, with every file
 * read under `root` ("/", or a fake tree in tests): from
 * /proc/self/cgroup, cgroup v2's memory.max under /sys/fs/cgroup and v1's
 * memory.limit_in_bytes under /sys/fs/cgroup/memory, of the cgroup and
 * each ancestor; the smallest.  UINT64_MAX when none is set ("max") or
 * none can be read. */
uint64_t dev_cgroup_memory_limit(const char *root);
/* The default (and largest) device memory limit: 3/4 of the smaller of
 * phys (bytes of RAM, 0 = unknown) and the cgroup limit under root;
 * WE_DEFAULT_MAX_MEMORY when neither is known. */
uint64_t dev_default_max_memory(const char *root, uint64_t phys);

/* The allocation nearest to addr: the one holding it (*distance 0), or
 * the closest before or after it (*distance: bytes from its end or to
 * its start; the one before on a tie); NULL when there is none.  For the
 * messages of accesses outside every allocation. */
const galloc *dev_nearest_alloc(const struct we_device *d, uint64_t addr, uint64_t *distance);

/* ---- atomics.c: the global atomics of a launch, per 32-bit word, for
 * merging the memory of grid parts run apart (we_launch_part). */
/* Give every allocation a zeroed map (on) or none: false when out of
 * memory (the maps are then freed). */
bool dev_atomics_reset(struct we_device *d, bool on);
/* Note an atomic of `bytes` (4 or 8) at host address p with code
 * WE_ATOMIC_CODE(op, type); a word that sees two codes becomes
 * WE_ATOMIC_MIXED.  Thread-safe; a no-op outside every map. */
void dev_note_atomic(struct we_device *d, const uint8_t *p, unsigned bytes, uint8_t code);

/* Set the device's last error (printf-style; replaces the previous). */
void dev_error(struct we_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Take ownership of a malloc'd message as the last error. */
void dev_error_take(struct we_device *d, char *msg);

#endif
