/* jit_rt.c — what the compiled tier's code calls in the library
 * (jit.h, xjit_rt): the translation of a global span, the narrow loads
 * of lanes one by one, and the global adds a turn holds back (exec/red.h),
 * for the lockstep groups (group.c) and the warp function (run.c).
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
		 * here, for the rest of the launch (jit.c win_load): what the
		 * turn holds back of it goes to memory first (exec/red.h; in a
		 * kernel with adds to hold, each compiled access settles them
		 * as well: jit.c emit_settle) */
		xred_touch(w->red, w->gcache->host, w->gcache->size);
	}
	return h;
}

/* jit_global for a held add's own translation (jit.h, xjit_rt): as
 * do_atom's, it applies nothing the turn holds. */
static uint8_t *jit_global_red(we_warp *w, const we_launch_ctx *L, uint64_t addr, uint64_t span, uint64_t win[2])
{
	xred *const r = w->red;
	w->red = NULL;
	uint8_t *h = jit_global(w, L, addr, span, win);
	w->red = r;
	return h;
}

/* The compiled code's 32-bit global ADD whose old value nothing reads
 * (jit.h, xjit_rt): do_atom's for such an add, held back by the turn
 * when it can be (exec/red.h). */
static void jit_red(we_warp *w, uint64_t base, const uint32_t off[32], const uint32_t v[32], uint32_t pm,
		    uint32_t type)
{
	uint8_t *ptr[32];
	uint32_t lo = UINT32_MAX, hi = 0;
	for (unsigned l = 0; l < 32; l++) {
		ptr[l] = NULL;
		if ((pm >> l) & 1u) {
			ptr[l] = (uint8_t *)(uintptr_t)(base + off[l]);
			lo = off[l] < lo ? off[l] : lo;
			hi = off[l] > hi ? off[l] : hi;
		}
	}
	if (pm)
		xred_lanes(w->cta->L, w->red, ptr, v, hi - lo, (int)type);
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
			 .shared_bytes = L->shared_bytes, .global_red = jit_global_red, .red = jit_red,
			 .flush = xred_flush, .stream_min = L->stream_min };
}
