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

#include <stdint.h>

#include "warpemu/warpemu.h"

#define WE_GMEM_BASE UINT64_C(0x10000000)
#define WE_GMEM_ALIGN 256u
#define WE_GMEM_GAP 4096u
#define WE_DEFAULT_MAX_MEMORY (UINT64_C(8) << 30)

typedef struct galloc {
	uint64_t base, size;
	uint8_t *host;
} galloc;

struct we_device {
	uint64_t max_memory;
	uint64_t used;
	uint64_t next_base;
	galloc *allocs;         /* sorted by base */
	uint32_t nallocs, capallocs;
	unsigned threads;       /* host worker threads for launches */
	char *err;              /* last error message (malloc'd) */
};

/* Host pointer for [addr, addr+size) inside one allocation, or NULL. */
uint8_t *dev_translate(const struct we_device *d, uint64_t addr, uint64_t size);

/* Set the device's last error (printf-style; replaces the previous). */
void dev_error(struct we_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Take ownership of a malloc'd message as the last error. */
void dev_error_take(struct we_device *d, char *msg);

#endif
