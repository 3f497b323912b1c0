/* describe.c — we_device_describe: the host topology and the placement a
 * launch would use (see doc/placement.md).  Both come from the device:
 * its topology, discovered once (dev_topology), and its thread count,
 * which is what a launch with threads = 0 uses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "device/device.h"
#include "device/topo.h"
#include "engine/engine.h"
#include "units/warp.h"
#include "warpemu/warpemu.h"

static we_status check_args(we_device *dev, we_engine e, we_placement p,
			    we_dim3 block)
{
	if (!engine_find(e)) {
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

/* desc and, after the placement's lines, the line on the stores that
 * stream past the caches (engine.h engine_stream_min); NULL when out of
 * memory. */
static char *add_stream_line(we_device *dev, const char *desc)
{
	bool largest = false;
	uint64_t v = engine_stream_min(dev, 0, &largest);
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB" };
	unsigned u = 0;
	while (u < 3 && v >= 1024 && v % 1024 == 0)
		v /= 1024, u++;
	strbuf b = { 0 };
	sb_printf(&b,
		  "%sstreaming stores: compiled code's stores of whole lines into allocations of at least %llu %s "
		  "(%s; --stream-min)\n",
		  desc, (unsigned long long)v, unit[u],
		  largest ? "the host's largest cache" : "no cache in the topology: the default");
	return sb_take(&b);
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
	/* the engine's line and host threads, from the device's thread count
	 * (as engine_launch takes it) */
	const engine_ops *eng = engine_find(e);
	const unsigned slots = dev->threads ? dev->threads : 1;
	nthreads = eng->host_threads(slots, block);
	line = eng->describe(slots, block, topo_npus(t), e == WE_ENGINE_DEFAULT);
	if (line)
		desc = topo_describe(t, p, nthreads);
	char *both = desc ? insert_line(desc, line) : NULL;
	if (both)
		*text = add_stream_line(dev, both);
	free(both);
	free(line);
	free(desc);
	if (!*text) {
		dev_error(dev, "out of memory describing the topology");
		return WE_ERR_NOMEM;
	}
	return WE_OK;
}
