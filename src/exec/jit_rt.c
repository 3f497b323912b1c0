/* jit_rt.c — what the compiled tier's code calls in the library
 * (jit.h, xjit_rt): the translation of a global span and the narrow
 * loads of lanes one by one, for the lockstep groups (group.c) and the warp
 * function (run.c).
 */
#include <stdint.h>

#include "device/device.h"
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/red.h"

/* The compiled code's translation of a global span (jit.h, xjit_rt):
 * the interpreter's, with warp w's allocation cache, which then holds
 * the allocation, whose host bytes the code then reaches without it. */
static uint8_t *jit_global(we_warp *w, const we_launch_ctx *L, uint64_t addr, uint64_t span, uint64_t win[2])
{
	xctx x = { .w = w, .cta = w->cta, .L = L };
	uint8_t *h = xglobal_span(&x, addr, span);
	if (h) {
		win[0] = w->gcache->base;
		win[1] = w->gcache->base + w->gcache->size;
		/* the code goes on in the whole allocation without coming back
		 * here: what the turn holds back of it goes to memory first
		 * (exec/red.h; the code holds nothing back itself) */
		xred_touch(w->red, w->gcache->host, w->gcache->size);
	}
	return h;
}

/* The compiled code's loads of 8 or 16 bits lane by lane (jit.h,
 * xjit_rt): single relaxed atomics, as sem_mem.c's (other host threads
 * may touch the same global words). */
static void jit_lanes(uint64_t base, const uint32_t off[32], uint32_t pm, uint32_t bytes, uint32_t lo[32])
{
	for (; pm; pm &= pm - 1) {
		const unsigned l = (unsigned)__builtin_ctz(pm);
		const void *p = (const void *)(uintptr_t)(base + off[l]);
		lo[l] = bytes == 1 ? __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED)
				   : __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
	}
}

/* (jit.h) */
void xjit_rt_init(xjit_rt *rt, const we_launch_ctx *L)
{
	*rt = (xjit_rt){ .params = L->params, .L = L, .global = jit_global, .lanes = jit_lanes,
			 .shared_bytes = L->shared_bytes };
}
