/* tier.c — the compiled tier's choice for a launch (exec/jit.h): whether
 * its lockstep groups run compiled blocks, and under --jit auto the
 * compile a worker of the scheduler decides on (sched.c).  Below both the
 * launch (launch.c) and the engines. */
#include <stdatomic.h>

#include "engine/engine_int.h"
#include "exec/jit.h"

bool we_jit_available(void)
{
#ifdef WE_HAVE_LLVM
	return true;
#else
	return false;
#endif
}

/* The compiled tier of the launch (we_launch_config.jit): L.jit, and why
 * it is used or not in lc->jit_note.  A kernel compiles once per module
 * (the cache, exec/jit.h): on compiles before the launch runs; auto uses
 * the cached code at once, else leaves the choice to the scheduler's
 * first batch (sched.c, xjit_auto_pays), which compiles there while the
 * other workers go on interpreting. */
void launch_jit_choose(launch *lc, const we_launch_config *cfg)
{
	const we_launch_ctx *L = &lc->L;
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
		bool failed;
		const xjit *j = xjit_cache_get(L->mod->jit, L, cfg->jit == WE_JIT_ON, &lc->jit_seconds, &failed,
					       lc->jit_err, sizeof lc->jit_err);
		if (failed) {
			lc->jit_note = "failed";
		} else if (!j) {
			/* (auto, not compiled yet) */
			lc->jit_auto = true;
			lc->jit_note = "below the auto threshold";
		} else {
			atomic_store_explicit(&lc->L.jit, j->blocks ? j : NULL, memory_order_relaxed);
			lc->jit_note = j->blocks ? "compiled" : "no block";
		}
#endif
	}
}

/* Compile under --jit auto, from a worker (sched.c): L.jit published
 * (release: the code is complete before a worker that sees the pointer
 * calls it).  Only the worker that decides calls it, once. */
void launch_jit_compile(launch *lc)
{
#ifdef WE_HAVE_LLVM
	bool failed;
	const xjit *j = xjit_cache_get(lc->L.mod->jit, &lc->L, true, &lc->jit_seconds, &failed, lc->jit_err,
				       sizeof lc->jit_err);
	if (failed) {
		lc->jit_note = "failed";
		return;
	}
	lc->jit_note = j->blocks ? "compiled" : "no block";
	if (j->blocks)
		atomic_store_explicit(&lc->L.jit, j, memory_order_release);
#else
	(void)lc;
#endif
}

/* The expected compile time of the launch's kernel (xjit_auto_pays). */
double launch_jit_estimate(const launch *lc)
{
#ifdef WE_HAVE_LLVM
	return xjit_cache_estimate(lc->L.mod->jit);
#else
	(void)lc;
	return XJIT_COMPILE_GUESS;
#endif
}
