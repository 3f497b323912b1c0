/* api_topo.c — we_device_describe: the host topology and the placement a
 * launch would use (see doc/placement.md).  Both come from the device:
 * its topology, discovered once (dev_topology), and its thread count,
 * which is what a launch with threads = 0 uses.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/topo.h"
#include "engine/engine.h"
#include "units/warp.h"
#include "warpemu/warpemu.h"

/* The engine WE_ENGINE_DEFAULT stands for. */
static we_engine effective_engine(we_engine e)
{
	return e == WE_ENGINE_DEFAULT ? WE_ENGINE_SCHEDULER : e;
}

static we_status check_args(we_device *dev, we_engine e, we_placement p,
			    we_dim3 block)
{
	if (e != WE_ENGINE_DEFAULT && e != WE_ENGINE_SCHEDULER &&
	    e != WE_ENGINE_WARP_THREADS) {
		dev_error(dev, "unknown engine %d", (int)e);
		return WE_ERR_INVALID;
	}
	if (p != WE_PLACE_DEFAULT && p != WE_PLACE_NONE &&
	    p != WE_PLACE_COMPACT && p != WE_PLACE_SCATTER) {
		dev_error(dev, "unknown placement %d", (int)p);
		return WE_ERR_INVALID;
	}
	if (!engine_block_ok(block)) {
		dev_error(dev, "block (%u,%u,%u) is outside the limits "
			  "(x,y <= %u, z <= %u, x*y*z <= %u)", block.x,
			  block.y, block.z, WE_BLOCK_XY_MAX, WE_BLOCK_Z_MAX,
			  WE_BLOCK_THREADS_MAX);
		return WE_ERR_LIMIT;
	}
	return WE_OK;
}

static char *fmt_alloc(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* printf into a malloc'd string; NULL on no memory. */
static char *fmt_alloc(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* The engine line and the number of host threads of the launch, from
 * the device's thread count `slots` (as engine_launch takes it):
 * scheduler, `slots` workers; warp-threads, a thread per warp of each of
 * `slots` concurrent CTAs. */
static char *engine_line(we_engine e, we_dim3 block, unsigned slots,
			 unsigned npus, unsigned *nthreads)
{
	const char *deflt = e == WE_ENGINE_DEFAULT ? " (default)" : "";
	uint32_t threads = block.x * block.y * block.z;
	unsigned warps = (threads + WE_WARP_SIZE - 1) / WE_WARP_SIZE;

	if (slots == 0)
		slots = 1;
	if (effective_engine(e) == WE_ENGINE_SCHEDULER) {
		*nthreads = slots;
		return fmt_alloc("engine scheduler%s: %u worker thread%s%s "
				 "(worker i is thread i)\n", deflt, slots,
				 plural(slots), slots == npus ? ", one per PU"
				 : "");
	}
	*nthreads = warps * slots;
	return fmt_alloc("engine warp-threads%s, block %u,%u,%u: %u warp%s "
			 "per CTA x %u CTA slot%s = %u host thread%s (warp w "
			 "of slot s is thread s*%u+w)\n", deflt, block.x,
			 block.y, block.z, warps, plural(warps), slots,
			 plural(slots), *nthreads, plural(*nthreads), warps);
}

/* desc with line inserted after its first line (the topology). */
static char *insert_line(const char *desc, const char *line)
{
	const char *nl = strchr(desc, '\n');
	size_t head = nl ? (size_t)(nl - desc) + 1 : strlen(desc);
	size_t nline = strlen(line), ntail = strlen(desc + head);
	char *s = malloc(head + nline + ntail + 1);

	if (s) {
		memcpy(s, desc, head);
		memcpy(s + head, line, nline);
		memcpy(s + head + nline, desc + head, ntail + 1);
	}
	return s;
}

we_status we_device_describe(we_device *dev, we_engine e, we_placement p,
			     we_dim3 block, char **text)
{
	char *line = NULL, *desc = NULL;
	unsigned nthreads = 0;
	const we_topo *t;
	we_status st;

	if (text)
		*text = NULL;
	if (!dev || !text)
		return WE_ERR_INVALID;
	st = check_args(dev, e, p, block);
	if (st != WE_OK)
		return st;
	t = dev_topology(dev);
	if (!t) {
		dev_error(dev, "%s", dev->topo_err);
		return dev->topo_status;
	}
	line = engine_line(e, block, dev->threads, topo_npus(t), &nthreads);
	if (line)
		desc = topo_describe(t, p, nthreads);
	if (desc)
		*text = insert_line(desc, line);
	free(line);
	free(desc);
	if (!*text) {
		dev_error(dev, "out of memory describing the topology");
		return WE_ERR_NOMEM;
	}
	return WE_OK;
}
