/* tier.c — the compiled tier's choice for a launch (exec/jit.h): whether
 * its lockstep groups run compiled blocks, from the module's cache, the
 * disk cache (exec/jit_disk.h) or a compile, and under --jit auto the
 * choice a worker of the scheduler makes after its sample of batches (sched.c).
 * Below both the launch (launch.c) and the engines. */
#include <stdatomic.h>
#include <stdio.h>

#include "engine/engine_int.h"
#include "exec/jit.h"
#include "exec/jit_disk.h"

bool we_jit_available(void)
{
#ifdef WE_HAVE_LLVM
	return true;
#else
	return false;
#endif
}

we_status we_jit_cache_dir(const char *setting, char *buf, size_t len)
{
	char note[XJIT_NOTE];
	if (!buf || !len)
		return WE_ERR_INVALID;
	if (!xjit_disk_dir(setting, buf, len, note, sizeof note))
		buf[0] = 0;
	return WE_OK;
}

#ifdef WE_HAVE_LLVM
/* The launch's code j (from a cache or compiled): L.jit when it has
 * blocks (order: release when workers already run, sched.c). */
static void launch_jit_use(launch *lc, const xjit *j, memory_order order)
{
	lc->jit_note = j->blocks ? "compiled" : "no block";
	if (j->blocks)
		atomic_store_explicit(&lc->L.jit, j, order);
}
#endif

/* The compiled tier of the launch (we_launch_config.jit): L.jit, and why
 * it is used or not in lc->jit_note.  A kernel compiles or loads once per
 * module (the cache, exec/jit.h): on takes the disk cache's entry, else
 * compiles, before the launch runs; auto uses the module's code at once,
 * else leaves the choice to the scheduler's sample of batches
 * (launch_jit_decide), which compiles or loads there while the other
 * workers go on interpreting. */
void launch_jit_choose(launch *lc, const we_launch_config *cfg)
{
	const we_launch_ctx *L = &lc->L;
	xjit_use *u = &lc->jit_use;
	u->disk = XJIT_DISK_UNUSED;
	if (cfg->jit == WE_JIT_OFF) {
		lc->jit_note = "off";
	} else if (!we_jit_available()) {
		lc->jit_note = "not built";
	} else if (L->lockstep < 2 || L->check || L->memcheck) {
		/* compiled blocks run lockstep groups only; the hooked loop (and
		 * --check, which is left the interpreter's per-warp order, and
		 * the memory checks, which observe instructions in the group:
		 * exec_checked) keep every instruction interpreted */
		lc->jit_note = "interpreter needed";
	} else {
#ifdef WE_HAVE_LLVM
		xjit_cache *c = L->mod->jit;
		if (xjit_disk_dir(cfg->jit_cache, lc->jit_dir, sizeof lc->jit_dir, u->note, sizeof u->note))
			u->dir = lc->jit_dir;
		const xjit *j = xjit_cache_find(c, L, u);
		if (!j && cfg->jit == WE_JIT_ON) {
			if (u->entry)
				j = xjit_cache_load(c, L, u);
			if (!j)
				j = xjit_cache_compile(c, L, u);
		}
		if (u->failed) {
			lc->jit_note = "failed";
		} else if (!j) {
			/* (auto, neither compiled nor loaded yet) */
			lc->jit_auto = true;
			lc->jit_note = "below the auto threshold";
		} else {
			launch_jit_use(lc, j, memory_order_relaxed);
		}
#endif
	}
}

/* --jit auto, from the worker that decides (sched.c), once: predicted,
 * the interpreter's remaining time.  Loads the disk cache's entry when
 * the time repays its load, else compiles when it repays the compile
 * (xjit_auto_compiles: less of it when the code is stored for later
 * runs); L.jit published with release (the code is complete before a
 * worker that sees the pointer calls it). */
void launch_jit_decide(launch *lc, double predicted)
{
#ifdef WE_HAVE_LLVM
	xjit_cache *c = lc->L.mod->jit;
	xjit_use *u = &lc->jit_use;
	const xjit *j = NULL;
	if (u->entry && xjit_auto_loads(predicted, xjit_cache_load_estimate(c)))
		j = xjit_cache_load(c, &lc->L, u);
	if (!j && xjit_auto_compiles(predicted, xjit_cache_estimate(c), u->dir && u->writable))
		j = xjit_cache_compile(c, &lc->L, u);
	if (u->failed)
		lc->jit_note = "failed";
	else if (j)
		launch_jit_use(lc, j, memory_order_release);
#else
	(void)lc;
	(void)predicted;
#endif
}
