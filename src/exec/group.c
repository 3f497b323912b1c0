/* group.c — lockstep groups (exec.h, exec_group): consecutive warps at
 * one PC with every lane active run an instruction as one handler call
 * over their registers, with the results of running them one by one.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "device/device.h"
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/red.h"
#include "exec/loop.h"
#include "exec/observe.h"
#include "units/bar.h"
#include "units/bru.h"

/* The guards of a group (ActiveMasks all ones): each warp's lanes of one
 * guard predicate, and whether they are all true or all false.  A guard
 * is read again only after an instruction that may write a predicate
 * (exec_group: anything but a plain lockstep form that writes none). */
typedef struct gguard {
	unsigned key;            /* pg * 2 + negated; GUARD_NONE: not read */
	bool full, none;
	bool bits;               /* some and all are known (group_guard_bits) */
	uint32_t some, all;      /* bit j: warp j's guard true in some lane,
				    in every lane (a group has <= 32 warps) */
	uint32_t pm[WE_WARP_SIZE];
} gguard;
#define GUARD_NONE 0xffffu

static inline void group_guard(gguard *g, const we_warp *w, uint32_t n, const xinsn *i)
{
	const unsigned key = i->pg * 2u + (i->pg_xor != 0);
	if (key == g->key)
		return;
	uint32_t all = 0xffffffffu, any = 0;
	for (uint32_t j = 0; j < n; j++) {
		const uint32_t pm = w[j].p[i->pg] ^ i->pg_xor;
		g->pm[j] = pm;
		all &= pm;
		any |= pm;
	}
	g->key = key;
	g->full = all == 0xffffffffu;
	g->none = any == 0;
	g->bits = false;
}

/* The warp masks of guards that differ between the n warps (group_plain
 * walks only the warps with a lane to run), once per guard. */
static inline void group_guard_bits(gguard *g, uint32_t n)
{
	if (g->bits)
		return;
	uint32_t none = 0, all = 0, j = 0;
#ifdef __SSE2__
	/* four warps per comparison, their bits by MOVMSKPS */
	const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi32(-1);
	for (; j + 4 <= n; j += 4) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)&g->pm[j]);
		none |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero))) << j;
		all |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, ones))) << j;
	}
#endif
	for (; j < n; j++) {
		none |= (uint32_t)(g->pm[j] == 0) << j;
		all |= (uint32_t)(g->pm[j] == 0xffffffffu) << j;
	}
	const uint32_t some = ~none & (n == 32 ? ~0u : (1u << n) - 1u);
	g->some = some;
	g->all = all;
	g->bits = true;
}

/* The group still shares w[0]'s PC and full masks, and is ready. */
static inline bool group_intact(const we_warp *w, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++)
		if (w[j].active_pc != w[0].active_pc || w[j].active != 0xffffffffu || w[j].sleep ||
		    !((w[j].cta->ready >> w[j].id) & 1u))
			return false;
	return true;
}

/* The handler of every optype, for calls outside DISPATCH. */
static void (*const handler[ISA_NUM_OPTYPES])(xctx *, const xinsn *) = {
#define X_HANDLER(name) sem_##name,
	ISA_OPTYPE_LIST(X_HANDLER)
#undef X_HANDLER
};

/* A plain instruction (no branch or barrier unit: it changes no PC, mask
 * or scheduling state) at pc for the n warps of a group, each with its
 * own guard; a run of consecutive warps whose guard is true in every lane
 * is one handler call when the form allows (i->lockstep).  Counts the
 * instruction in each warp as fetch() does; with the group's guards g (a
 * lockstep form: it reads no counter) only the thread counts, and the
 * caller counts the instruction with the group's next settle.  false after a
 * fault, the faulting warp in *who: the warps before it ran the
 * instruction, those after it did not (the group settled, `done` and
 * `guarded` as group_settle). */
/* (inlined: four call sites, each with its own constant arguments) */
static inline __attribute__((always_inline)) bool group_plain(we_cta *cta, we_warp *w, uint32_t n,
							      const xinsn *i, uint64_t pc, bool runs,
							      const gguard *g, uint64_t done, uint64_t guarded,
							      uint32_t *who)
{
	/* with g (a lockstep form, which reads no counter): only the thread
	 * counts here, the rest with the group's next settle */
	const bool defer = g != NULL;
	for (uint32_t j = 0; j < n;) {
		if (g) {
			/* (straight to the next warp with a lane to run) */
			const uint32_t rest = g->some >> j;
			if (!rest)
				break;
			j += (uint32_t)__builtin_ctz(rest);
		}
		const uint32_t pm = g ? g->pm[j] : (w[j].p[i->pg] ^ i->pg_xor) & w[j].active;
		if (!pm) {
			/* guard false in every lane: counted, nothing to run */
			if (!defer)
				count_insn(&w[j], 0);
			j++;
			continue;
		}
		xctx xc = { .w = &w[j], .cta = w[j].cta, .L = cta->L, .pc = pc, .pmask = pm };
		uint32_t r = j + 1;
		if (runs && i->lockstep && xc.pmask == 0xffffffffu && g && !i->per_cta)
			r = j + (uint32_t)__builtin_ctzll(~((uint64_t)g->all >> j));
		else if (runs && i->lockstep && xc.pmask == 0xffffffffu)
			while (r < n && (g ? g->pm[r] : (w[r].p[i->pg] ^ i->pg_xor) & w[r].active) == 0xffffffffu &&
			       (!i->per_cta || w[r].cta == w[j].cta))
				r++;
		xc.group = r - j - 1;
		/* warp j counted before it runs, as fetch() does (S2R reads the
		 * clock); the rest of a run after it (its forms read none).  Its
		 * ActivePC is pc while it runs (a fault report reads it). */
		if (defer)
			w[j].thread_insns += warp_popc(&w[j], pm);
		else
			count_insn(&w[j], pm);
		w[j].active_pc = pc;
		handler[i->optype](&xc, i);
		if (xc.declined) {
			/* not as one call: the first warp alone, then the rest */
			xc.declined = false;
			xc.group = 0;
			r = j + 1;
			handler[i->optype](&xc, i);
		}
		if (__builtin_expect(xc.stop, 0)) {
			/* (a run's handler faults for its first warp, before
			 * writing anything) */
			group_settle(w, n, pc, done, guarded);
			for (uint32_t f = 0; f <= j; f++) {
				w[f].active_pc = pc + WE_INST_SIZE;
				if (defer) {
					w[f].insns++;
					w[f].clock++;
				}
			}
			*who = (uint32_t)(&w[j] - cta->warps);
			return false;
		}
		for (uint32_t f = j + 1; f < r; f++) {
			if (defer)
				w[f].thread_insns += XLANES;
			else
				count_insn(&w[f], 0xffffffffu);
		}
		j = r;
	}
	return true;
}

/* A per_cta instruction for a group spanning CTAs (exec_group): each
 * CTA's warps as a group of their own, as gx would run them.  Stops at
 * the first CTA whose handler faults (gx->stop) or declines (gx->declined,
 * *done: the warps before it ran the instruction). */
static void group_per_cta(xctx *gx, const xinsn *i, uint32_t n, uint32_t nw, uint32_t *done)
{
	bool intact = true;
	for (uint32_t c = 0; c < n; c += nw) {
		xctx cx = { .w = gx->w + c, .cta = gx->w[c].cta, .L = gx->L, .group = nw - 1,
			    .pmask = 0xffffffffu, .pc = gx->pc };
		handler[i->optype](&cx, i);
		*done = c;
		if (cx.declined || cx.stop) {
			gx->declined = cx.declined;
			gx->stop = cx.stop;
			gx->why = cx.why;
			return;
		}
		if (cx.pc_set) {
			gx->pc_set = true;
			intact &= cx.intact;
		}
	}
	*done = n;
	gx->intact = gx->pc_set && intact;
}

/* exec_group's loop goes on (GROUP_GO_ON) or returns the stop. */
#define GROUP_GO_ON (-1)

/* Instruction i at *pc as one handler call for the whole group (every
 * lane of every warp runs it): the counters wait (*pending); a handler
 * that declines runs warp by warp; a fault settles the group. */
static inline __attribute__((always_inline)) int group_full(we_cta *cta, we_warp *w, uint32_t wi, uint32_t n,
							    uint32_t nw, xctx *gx, const xinsn *i, uint64_t *pc,
							    uint64_t *pending, uint64_t *guarded, uint32_t *who)
{
	gx->pc = *pc;
	if (!i->plain && i->optype != ISA_OPT_BRA) {
		/* a branch moves each warp's ActivePC from pc (the 004
		 * algorithms: ActivePC += INST_SIZE, ...); the counters can
		 * wait.  (BRA sets it itself where it needs it: most groups all
		 * jump, sem_BRA) */
		for (uint32_t j = 0; j < n; j++)
			w[j].active_pc = *pc;
	}
	uint32_t done = 0;
	if (nw < n && i->per_cta)
		group_per_cta(gx, i, n, nw, &done);
	else
		handler[i->optype](gx, i);
	if (gx->declined) {
		/* (a memory access that may fault) warp by warp, after the CTAs
		 * that ran it as a group (group_per_cta) */
		gx->declined = false;
		group_settle(w, n, *pc, *pending, *guarded);
		*pending = *guarded = 0;
		for (uint32_t j = 0; j < done; j++)
			count_insn(&w[j], 0xffffffffu);
		if (!group_plain(cta, w + done, n - done, i, *pc, false, NULL, 0, 0, who)) {
			for (uint32_t j = 0; j < done; j++)
				w[j].active_pc = *pc + WE_INST_SIZE;
			return WE_STOP_FAULT;
		}
		*pc += WE_INST_SIZE;
		return GROUP_GO_ON;
	}
	if (__builtin_expect(gx->stop, 0)) {
		/* a fault: of the first warp for an ALU form (a constant read
		 * out of range), of the warp the handler stopped at for a
		 * barrier; those before it ran the instruction, those after it
		 * did not */
		uint32_t f = 0;
		while (f + 1 < n && w[f].state != WE_WS_FAULTED)
			f++;
		group_settle(w, n, *pc, *pending, *guarded);
		for (uint32_t j = 0; j <= f; j++) {
			w[j].active_pc = *pc + WE_INST_SIZE;
			count_insn(&w[j], 0xffffffffu);
		}
		*who = wi + f;
		return gx->why;
	}
	(*pending)++;
	if (!gx->pc_set) {
		*pc += WE_INST_SIZE;
		return GROUP_GO_ON;
	}
	/* a branch: each warp's ActivePC and ActiveMask are its own now */
	gx->pc_set = false;
	if (gx->intact) {
		gx->intact = false;
	} else if (!group_intact(w, n)) {
		group_settle(w, n, UINT64_MAX, *pending, *guarded);
		return WE_STOP_BUDGET;
	}
	*pc = w->active_pc;
	return GROUP_GO_ON;
}

/* One instruction of the group at pc warp by warp, as exec_run runs it
 * (one CTA's group; an EXIT is group_exit's): GROUP_GO_ON when the group
 * stays together (each warp's active_pc the next), else the stop (*who
 * as exec_group's). */
static int group_each(we_cta *cta, uint32_t wi, uint32_t n, uint64_t pc, uint32_t *who)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	we_warp *w = &cta->warps[wi];
	bool blocked = false;
	for (uint32_t j = 0; j < n; j++) {
		xctx xc = { .w = &w[j], .cta = w[j].cta, .L = L }, *x = &xc;
		const xinsn *i = fetch(x, code, pc, start, end);
		if (i) {
			if (x->pmask)
				DISPATCH(x, i);
			retire(x);
		}
		/* a warp that blocks (on a barrier) or completes one needs
		 * nothing of its driver: the others run the instruction
		 * too, and when the barrier released them all the group
		 * goes on */
		if (x->stop && x->why == WE_STOP_BLOCKED && !blocked) {
			blocked = true;
			*who = wi + j;
		} else if (x->stop && x->why != WE_STOP_BLOCKED && x->why != WE_STOP_RELEASED) {
			*who = wi + j;
			return x->why;
		}
	}
	if (!group_intact(w, n))
		return blocked ? WE_STOP_BLOCKED : WE_STOP_BUDGET;
	return GROUP_GO_ON;
}

/* EXIT i at the group's PC pc, after group_settle: what group_each
 * gives, without the dispatch.  Each warp counts it with the lanes of
 * its guard (fetch); bru_exit runs it for a warp whose guard is true in
 * some lane (sem_EXIT), and the ActivePC of one whose guard is false in
 * every lane moves on (retire).  A group's warps have every lane valid
 * and active and none asleep, so bru_exit ends the warp (BRU_EXIT) or
 * some of its lanes (ActivePC moves on) and never switches lanes or
 * sleeps.  The driver retires the warps that ended (*exited, as
 * exec_group's); GROUP_GO_ON when the group stays together at pc's next
 * (no lane exited). */
static int group_exit(we_warp *w, const xinsn *i, uint64_t pc, uint32_t wi, uint32_t n, uint32_t *who,
		      uint32_t *exited)
{
	uint32_t ended = 0;
	bool split = false;
	for (uint32_t j = 0; j < n; j++) {
		const uint32_t pm = (w[j].p[i->pg] ^ i->pg_xor) & w[j].active;
		count_insn(&w[j], pm);
		if (!pm) {
			w[j].active_pc = pc + WE_INST_SIZE;
			continue;
		}
		if (bru_exit(&w[j], pm, wpred(&w[j], &i->o[EXIT_pp])) == BRU_EXIT)
			ended |= 1u << j;
		else
			split |= w[j].active != 0xffffffffu;
	}
	if (ended) {
		*exited = ended << wi;
		*who = wi + (uint32_t)__builtin_ctz(ended);
		return WE_STOP_EXITED;
	}
	return split ? WE_STOP_BUDGET : GROUP_GO_ON;
}

/* A compiled block at *pc for the group (jit.h), where one starts and
 * fits the budget left: the thread counts of its guarded instructions
 * done, the rest of their counters wait as guarded ones do (*guarded),
 * its unguarded ones wait as the group's (*pending: xjit_unguarded),
 * *pc and the loop's *k moved on (k wraps back when it ran none); a
 * side exit after `ran` instructions leaves the next one to the
 * interpreter (*side_pc).  false: no block. */
static inline bool group_block(const struct xjit *jit, we_warp *w, uint32_t n, const xjit_rt *rt, uint64_t budget,
			       uint64_t *k, uint64_t *pc, uint64_t *pending, uint64_t *guarded, uint64_t *side_pc)
{
	const xjit_entry *e = xjit_at(jit, *pc);
	if (!e || e->len > budget - *k)
		return false;
	const uint32_t ran = e->fn(w->r, w->rstride, n, w, rt);
	const uint32_t all = xjit_unguarded(e, ran);
	*pending += all;
	*guarded += ran - all;
	*pc += (uint64_t)ran * WE_INST_SIZE;
	*k += (uint64_t)ran - 1u;
	if (ran < e->len)
		*side_pc = *pc;
	return true;
}

/* Branch and barrier instructions that a full group (guard true in every
 * lane of every warp: every warp's ActiveMask is all ones) runs as a
 * whole, its PCs and counters deferred like a plain instruction's
 * (group_settle counts it in every lane of every warp, as count_insn
 * does): *pc becomes the group's next PC.  false: not such a case,
 * nothing done (group_full runs it).
 *
 * BRA without .U or a condition whose predicate is PT: every active
 * thread of every warp branches (sem_BRA's plain jump: ActivePC = the
 * target, masks unchanged).
 *
 * BAR.SYNC or .ARV of immediates, in a group of whole CTAs of nw >= 2
 * warps each: sem_BAR's group step for every CTA, each CTA's warps the
 * arrivals that complete its barrier (cta_bar_arrive_group: the barrier
 * unit and the CTA's count; no warp state changes).  Every CTA is
 * checked before any arrives. */
static inline bool group_whole(const we_warp *w, uint32_t n, uint32_t nw, const xinsn *i, uint64_t *pc)
{
	if (i->optype == ISA_OPT_BRA) {
		if (!xbra_whole(i))
			return false;
		*pc = xbra_target(i, *pc);
		return true;
	}
	if (i->optype != ISA_OPT_BAR || nw < 2 || n % nw)
		return false;
	bar_arrival a;
	if (w->cta->L->k->trap_handler >= 0 || !xbar_imm_arrival(i, *pc, 0xffffffffu, &a))
		return false;
	for (uint32_t c = 0; c < n; c += nw)
		if (!cta_bar_group_ok(w[c].cta, &a, nw))
			return false;
	for (uint32_t c = 0; c < n; c += nw)
		cta_bar_complete_group(w[c].cta, &a);
	*pc += WE_INST_SIZE;
	return true;
}

/* Instruction i's guard over the group (g): *full when a lockstep form's
 * is true in every lane of every warp; *idle when another form's is
 * false in every lane of every warp (it runs nothing: fetch, retire, and
 * the group goes on, also across CTAs: a bounds check's @P0 EXIT). */
static inline void group_guard_state(gguard *g, const we_warp *w, uint32_t n, const xinsn *i, bool *full,
				     bool *idle)
{
	if (xunguarded(i)) {
		*full = i->lockstep;
		return;
	}
	group_guard(g, w, n, i);
	if (i->lockstep)
		*full = g->full;
	else
		*idle = g->none;
}

/* exec_group's loop; red: where the turn holds reductions back
 * (exec/red.h), or NULL. */
static we_stop group_run(we_cta *cta, uint32_t wi, uint32_t n, uint32_t nw, uint64_t budget, uint32_t *who,
			 uint32_t *exited, xred *red)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	/* (a launch under --jit auto publishes its code mid-launch:
	 * engine/sched.c) */
	const struct xjit *jit = atomic_load_explicit(&L->jit, memory_order_acquire);
	we_warp *w = &cta->warps[wi];
	xjit_rt rt;
	xjit_rt_init(&rt, L);
	/* a compiled block's side exit (jit.h): the instruction at side_pc
	 * is interpreted, even where a block starts */
	uint64_t side_pc = UINT64_MAX;
	/* one handler call for the whole group: the rows of w[0] start the
	 * group's arrays, pmask is all ones in every warp */
	xctx gx = { .w = w, .cta = cta, .L = L, .group = n - 1, .pmask = 0xffffffffu };
	/* the warps' PCs and counters lag behind by `pending` instructions
	 * run as one call for the group and `guarded` ones whose guard
	 * differed between warps (group_settle) */
	uint64_t pc = w->active_pc, pending = 0, guarded = 0;
	gguard g; /* (pm is written before it is read: no clearing per call) */
	g.key = GUARD_NONE;
	g.full = g.none = false;
	g.some = g.all = 0;
	g.bits = false;
	*who = wi;
	*exited = 0;
	for (uint64_t k = 0; k < budget; k++) {
		/* (outside the code: warp by warp, where fetch() faults) */
		const bool in_code = pc >= start && pc < end && !(pc & (WE_INST_SIZE - 1));
		const xinsn *i = in_code ? &code[pc / WE_INST_SIZE] : NULL;
		if (jit && in_code && pc == side_pc) {
			side_pc = UINT64_MAX;
		} else if (jit && in_code && group_block(jit, w, n, &rt, budget, &k, &pc, &pending, &guarded, &side_pc)) {
			g.key = GUARD_NONE;
			continue;
		}
		if (red && red->n && in_code && i->releases)
			xred_flush(red);
		bool full = false, idle = false;
		int r;
		if (L->memcheck && in_code && observe_wants(i)) {
			/* --check observes it: warp by warp, as the hooked loop */
			group_settle(w, n, pc, pending, guarded);
			pending = guarded = 0;
			g.key = GUARD_NONE;
			uint32_t j;
			const we_stop st = exec_checked(w, n, pc, &j);
			if (st != WE_STOP_BUDGET) {
				*who = wi + j;
				return st;
			}
			pc += WE_INST_SIZE;
			continue;
		}
		if (in_code)
			group_guard_state(&g, w, n, i, &full, &idle);
		/* the guards stay known across plain lockstep forms that write
		 * no predicate */
		if (!in_code || !i->lockstep || !i->plain || i->writes_pred)
			g.key = GUARD_NONE;
		if (full && group_whole(w, n, nw, i, &pc)) {
			pending++;
			continue;
		}
		if (full) {
			r = group_full(cta, w, wi, n, nw, &gx, i, &pc, &pending, &guarded, who);
			if (r != GROUP_GO_ON)
				return (we_stop)r;
			continue;
		}
		if (in_code && (idle || (i->lockstep && (i->plain || g.none)))) {
			/* guards that differ between warps: a lockstep form reads
			 * no counter and no other warp's ActivePC, so the group's
			 * counts can wait (group_plain settles them on a fault).
			 * A guard false in every lane of every warp runs nothing,
			 * of any form (fetch, retire: idle). */
			if (!g.none) {
				group_guard_bits(&g, n);
				if (!group_plain(cta, w, n, i, pc, true, &g, pending, guarded, who))
					return WE_STOP_FAULT;
			}
			guarded++;
			pc += WE_INST_SIZE;
			continue;
		}
		group_settle(w, n, pc, pending, guarded);
		pending = guarded = 0;
		/* an EXIT, also of a group spanning CTAs: the warps it ends
		 * end their CTAs as their own turns would, one by one
		 * (engine/sched.c batch_run); an EXIT of some of the lanes or
		 * of some of the warps is each warp's own, in its group too */
		if (in_code && i->optype == ISA_OPT_EXIT) {
			r = group_exit(w, i, pc, wi, n, who, exited);
			if (r != GROUP_GO_ON)
				return (we_stop)r;
			pc += WE_INST_SIZE;
			continue;
		}
		if (nw < n && !(in_code && i->plain))
			return WE_STOP_YIELD;
		if (in_code && i->plain) {
			if (!group_plain(cta, w, n, i, pc, true, NULL, 0, 0, who))
				return WE_STOP_FAULT;
			pc += WE_INST_SIZE;
			continue;
		}
		/* warp by warp, as exec_run runs it */
		r = group_each(cta, wi, n, pc, who);
		if (r != GROUP_GO_ON)
			return (we_stop)r;
		pc = w->active_pc;
	}
	group_settle(w, n, pc, pending, guarded);
	return WE_STOP_BUDGET;
}

we_stop exec_group(we_cta *cta, uint32_t wi, uint32_t n, uint32_t nw, uint64_t budget,
		   uint32_t *who, uint32_t *exited)
{
	if (!xred_on(cta->L))
		return group_run(cta, wi, n, nw, budget, who, exited, NULL);
	/* (the turn's reductions held back, for all the group's warps:
	 * exec/red.h) */
	xred red;
	xred_begin(&red, &cta->warps[wi], n);
	const we_stop st = group_run(cta, wi, n, nw, budget, who, exited, &red);
	xred_end(&red, &cta->warps[wi], n);
	return st;
}
