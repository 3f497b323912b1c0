/* bru.c — the branch unit of seed 004 (004_a37352338750f4ae.txt).
 *
 * Each function is the seed's pseudo code for one instruction, with the
 * seed's variable names, so it can be read side by side with 004.  The
 * warp-level state variables are spelled as in 004 through the macros
 * below (every function names its warp `w`).  Where 004's pseudo code is
 * incomplete or reads two ways, the choice made is marked `Reading:`.
 *
 * General readings used throughout:
 *  - 004 writes tests like `ValidMask ^ ActiveMask == 0`, which in C parse
 *    as `ValidMask ^ (ActiveMask == 0)`; the intended `(a ^ b) == 0` is
 *    used everywhere.
 *  - 004's rule "在所有流控制指令前运行RPC[ActiveMask] = ActivePC总是合法操作"
 *    licenses every RPC store of the active threads made below.
 *  - array2mask(RPC==x) covers all 32 lanes; callers mask it as 004 does.
 *
 * No global state, no printing, no allocation.
 */
#include "units/bru.h"

#ifdef __SSE2__
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif
#endif

#define INST_SIZE 16u /* = WE_INST_SIZE: one 128-bit instruction */

/* Seed 004's names for the warp state. */
#define ActivePC   (w->active_pc)
#define ValidMask  (w->valid)
#define ActiveMask (w->active)
#define YieldMask  (w->yield)
#define SleepMask  (w->sleep)
#define SwitchMask (w->swmask)
#define RPC        (w->rpc)

/* 004's ffs(): index of the lowest set bit, 0-based.  m != 0. */
static inline unsigned ffs32(uint32_t m)
{
	return (unsigned)__builtin_ctz(m);
}

/* The all-sleep test of 004 ("判断候选mask内是否都是sleep线程").
 * Reading: 004 writes `(cmask & SleepMask) ^ SleepMask == 0`, which in C
 * is `(cmask & SleepMask) ^ (SleepMask == 0)` and, with the precedence
 * fixed, "SleepMask ⊆ cmask" — neither is what the comment beside it says
 * ("所有可选线程均处于Sleep状态").  We implement the comment: every candidate
 * thread sleeps, (cmask & ~SleepMask) == 0.  For cmask == 0 this is
 * vacuously true.  Only BSYNC can get there with cmask == 0 (EXIT, YIELD,
 * NANOSLEEP and both WARPSYNC forms always have a candidate, see each
 * function), and for BSYNC "all candidates sleep" and "no candidate"
 * both end in the same 让步放行 (release) path, so nothing depends on it. */
static inline bool all_sleeping(const we_warp *w, uint32_t cmask)
{
	return (cmask & ~SleepMask) == 0;
}

/* ---- helpers of 004 "基础流程" ---------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* four lanes per compare where the host has AVX2 (x86-64-v3) */
__attribute__((target("avx2"))) static uint32_t rpc_eq_avx2(const we_warp *w, uint64_t pc)
{
	const __m256i p = _mm256_set1_epi64x((long long)pc);
	uint32_t m = 0;
	for (unsigned l = 0; l < WE_WARP_SIZE; l += 4) {
		const __m256i c = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(const void *)&RPC[l]), p);
		m |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(c)) << l;
	}
	return m;
}
#define WE_RPC_AVX2 1
#endif

uint32_t bru_rpc_eq(const we_warp *w, uint64_t pc)
{
#ifdef WE_RPC_AVX2
	if (__builtin_cpu_supports("avx2"))
		return rpc_eq_avx2(w, pc);
#endif
	uint32_t m = 0;
#ifdef __SSE2__
	/* two lanes per compare (their 32-bit halves, ANDed with each
	 * other's), a bit each by MOVMSKPD: BSYNC asks at every
	 * reconvergence, twice when it switches groups */
	const __m128i p = _mm_set1_epi64x((long long)pc);
	for (unsigned l = 0; l < WE_WARP_SIZE; l += 2) {
		__m128i c = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)&RPC[l]), p);
		c = _mm_and_si128(c, _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 3, 0, 1)));
		m |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(c)) << l;
	}
#else
	for (unsigned l = 0; l < WE_WARP_SIZE; l++)
		m |= (uint32_t)(RPC[l] == pc) << l;
#endif
	return m;
}

/* 004 switchPCByMask(cmask).
 * Preconditions (004's asserts): (cmask & ActiveMask) == 0 and
 * (cmask & ValidMask) == cmask.  Reading: cmask == 0 leaves the warp
 * unchanged (004 never calls it so; ffs(0) is undefined). */
void bru_switch_pc_by_mask(we_warp *w, uint32_t cmask)
{
	if (cmask == 0)
		return;

	unsigned lid = ffs32(cmask);  /* 在可选线程中选取一个，这里总是选最低位的1 */
	uint64_t target = RPC[lid];

	ActiveMask = cmask & bru_rpc_eq(w, target); /* 只选择候选mask内与目标RPC相同的线程 */
	ActivePC = target;
}

/* ---- BRA: getGoldenBranchCondition() ------------------------------- */

/* 004 BRA __Description, Python golden model getGoldenBranchCondition().
 * pg = {!}Pg & {!}Pp as a lane mask (pg_array).  Returns branch_mask_array.
 * Python's np.all() over an empty selection is True, so with no active
 * lane .U gives 0 (nothing to assign) and the UR form is "not divergent".
 * Reading: combinations the Python raises on (an unknown modifier, the UR
 * form with '' or .U, which the encoding rejects as BRA_U EncodingError)
 * return 0: no lane jumps. */
uint32_t bru_bra_mask(uint32_t active, uint32_t valid, uint32_t pg,
		      int cond, bool has_ur, uint32_t ur)
{
	uint32_t pgv = pg & active;           /* pgv = pg_array & activemask_array */
	uint32_t branch_mask = 0;
	bool is_div;

	if (!has_ur) {
		is_div = (pgv ^ valid) != 0;  /* np.any(pgv ^ validmask_array) */

		switch (cond) {
		case BRU_COND_NONE:
			branch_mask = pgv;
			break;
		case BRU_COND_U:
			/* branch_mask_array[activemask_array] =
			 *	np.all(pgv[activemask_array]) */
			branch_mask = ((pgv & active) == active) ? active : 0;
			break;
		case BRU_COND_DIV:
			branch_mask = is_div ? pgv : 0;
			break;
		case BRU_COND_CONV:
			branch_mask = is_div ? 0 : pgv;
			break;
		default:
			branch_mask = 0;      /* Python: raise Exception */
			break;
		}
	} else {
		if (((valid ^ active) & ur) != 0) {
			is_div = true;    /* some threads in ur are valid but not active */
		} else {
			/* pv = pgv[activemask_array] */
			bool all_pv = (pgv & active) == active;  /* np.all(pv)  */
			bool all_not_pv = (pgv & active) == 0;   /* np.all(~pv) */

			if (!(all_pv || all_not_pv))
				/* some threads in ur are active but guard predicated off */
				is_div = (active & ~pg & ur) != 0;
			else
				is_div = false;
		}

		switch (cond) {
		case BRU_COND_DIV:
			/* branch_mask_array[activemask_array] = np.any(pgv) & is_div */
			branch_mask = (pgv != 0 && is_div) ? active : 0;
			break;
		case BRU_COND_CONV:
			/* branch_mask_array[activemask_array] = np.any(pgv) & (not is_div) */
			branch_mask = (pgv != 0 && !is_div) ? active : 0;
			break;
		default:
			branch_mask = 0;      /* Python: raise Exception */
			break;
		}
	}
	return branch_mask;
}

/* ---- BRX / CALL / RET / BRA: the jump --------------------------------- */

/* 004 BRX __Semantics (CALL/RET "跳转行为的语义参考BRX", BRA likewise).
 * Reading: b_jump is intersected with ActiveMask again, so a caller's
 * mask that strays outside ActiveMask cannot wake inactive lanes. */
void bru_jump(we_warp *w, uint32_t bjump, const uint64_t target[32])
{
	const uint64_t *TargetPC = target;
	uint32_t b_jump = bjump & ActiveMask;   /* b_jump = ActiveMask & pgv & ppv */

	if (b_jump == 0) {                      /* b_jump 全 False，fall through */
		ActivePC += INST_SIZE;
	} else if (b_jump == ActiveMask) {      /* 活跃线程全部跳转 */
		unsigned lid = ffs32(ActiveMask);
		uint32_t same = 0;              /* array2mask(TargetPC == ActivePC) */

		ActivePC = TargetPC[lid];
		w->rpc_written = true;
		/* Reading: 004's RPC[TargetPC!=ActivePC] = TargetPC[...] is
		 * over the lanes of ActiveMask only: TargetPC of an inactive
		 * lane is not a target, and its RPC is its real PC. */
		for (uint32_t m = ActiveMask; m; m &= m - 1) {
			unsigned l = ffs32(m);
			if (TargetPC[l] == ActivePC)
				same |= 1u << l;
			else
				RPC[l] = TargetPC[l];
		}
		ActiveMask &= same;
	} else {                                /* 活跃线程部分跳转，优先执行Fall through分支 */
		ActivePC += INST_SIZE;
		/* Reading: 004 writes `ActiveMask = ~b_jump`; ActiveMask must
		 * stay a subset of the old ActiveMask (and of ValidMask), so
		 * this is ActiveMask & ~b_jump: the non-jumping active lanes. */
		ActiveMask = ActiveMask & ~b_jump;
		w->rpc_written = true;
		for (uint32_t m = b_jump; m; m &= m - 1) {
			unsigned l = ffs32(m);
			RPC[l] = TargetPC[l];   /* RPC[b_jump] = TargetPC[b_jump] */
		}
	}
}

/* BRX with every lane's TargetPC equal (BRA): the "all jump" case keeps
 * the whole ActiveMask, since every lane has ActivePC's target. */
void bru_jump_uniform(we_warp *w, uint32_t bjump, uint64_t target)
{
	uint32_t b_jump = bjump & ActiveMask;

	if (b_jump == 0) {                      /* fall through */
		ActivePC += INST_SIZE;
	} else if (b_jump == ActiveMask) {      /* 活跃线程全部跳转 */
		ActivePC = target;              /* ActiveMask unchanged */
	} else {                                /* 部分跳转，优先执行Fall through分支 */
		ActivePC += INST_SIZE;
		ActiveMask = ActiveMask & ~b_jump; /* Reading: see bru_jump */
		bru_rpc_set(w, b_jump, target);     /* RPC[b_jump] = TargetPC */
	}
}

/* ---- EXIT -------------------------------------------------------------- */

/* 004 EXIT __Semantics.  Returns BRU_EXIT for warpExit(), BRU_SLEEP for
 * warpSleep() (PC and masks already set), BRU_CONT otherwise. */
bru_result bru_exit(we_warp *w, uint32_t pgv, uint32_t ppv)
{
	uint32_t pmask = pgv & ppv & ActiveMask;
	uint32_t mask_np = ActiveMask & ~pmask;
	uint32_t cmask, mask_ny, mask_y;
	unsigned lid;
	bool do_sleep;

	if (mask_np) {  /* 部分退出：pmask 线程退出，其余 fall through */
		ValidMask = ValidMask & ~pmask;
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	/* 当前Active线程全部退出 */
	ValidMask = ValidMask & ~ActiveMask;

	if (ValidMask == 0) {
		/* Reading: the exited warp is left with ActiveMask = 0, so
		 * ActiveMask ⊆ ValidMask still holds. */
		ActiveMask = 0;
		return BRU_EXIT;        /* warpExit() */
	}

	/* EXIT的切换候选为所有Valid线程; cmask != 0 here. */
	cmask = ValidMask;
	if (all_sleeping(w, cmask)) {
		do_sleep = true;
	} else {
		do_sleep = false;
		cmask = cmask & ~SleepMask;
	}

	mask_ny = cmask & ~YieldMask;   /* 优先跳转到不处于Yield状态的线程 */
	mask_y = cmask & YieldMask;

	if (mask_ny)
		lid = ffs32(mask_ny);
	else
		lid = ffs32(mask_y);

	/* Reading: as 004 writes it, the new ActiveMask takes every valid
	 * thread at RPC[lid], sleeping or yielding ones included (004 allows a
	 * nanosleep to end early; they are at the same PC). */
	ActivePC = RPC[lid];
	ActiveMask = bru_rpc_eq(w, RPC[lid]) & ValidMask;

	return do_sleep ? BRU_SLEEP : BRU_CONT;   /* if (do_sleep) warpSleep(); */
}

/* ---- BSSY / BREAK ------------------------------------------------------ */

/* 004 BSSY __Semantics (no Pp operand).
 * Reading: BSSY and BREAK do not touch ActivePC; the executor advances it
 * as for any non-branch instruction.  breg is a 4-bit field (B0..B15). */
void bru_bssy(we_warp *w, uint32_t pgv, unsigned breg)
{
	uint32_t pmask = ActiveMask & pgv;

	if (pmask != 0)
		w->breg[breg & (WE_NUM_BREGS - 1)] |= pmask;  /* breg |= pmask */
}

/* 004 BREAK __Semantics: 把BReg中对应bit清除.  PC: see bru_bssy. */
void bru_break(we_warp *w, uint32_t pgv, uint32_t ppv, unsigned breg)
{
	uint32_t pmask = ActiveMask & pgv & ppv;
	uint32_t *b = &w->breg[breg & (WE_NUM_BREGS - 1)];

	*b = *b ^ (*b & pmask);
}

/* ---- BSYNC ------------------------------------------------------------- */

/* 004 BSYNC __Semantics.  bmask is B[breg]; OutList<breg> so the cleared
 * bmask is written back to the B register.  BSYNC never sleeps the warp:
 * its all-sleep case is a release (让步放行). */
bru_result bru_bsync(we_warp *w, uint32_t pgv, uint32_t ppv, unsigned breg)
{
	uint32_t *B = &w->breg[breg & (WE_NUM_BREGS - 1)];
	uint32_t bmask = *B;
	uint32_t pmask, arrivemask, mask_np, mask_p, cmask;
	uint32_t mask_ny_b, mask_ny_nb;

	bmask = bmask & ValidMask;      /* 去除所有退出线程 */

	pmask = pgv & ppv & ActiveMask;
	arrivemask = ActiveMask | (ValidMask & bru_rpc_eq(w, ActivePC));

	mask_np = ActiveMask & ~pmask;
	mask_p = ActiveMask & pmask;

	if (mask_np) {  /* pmask=false 的线程先 fall through，pmask 线程停在本指令 */
		bru_rpc_set(w, mask_p, ActivePC);   /* RPC[mask_p] = ActivePC */
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		*B = bmask;
		return BRU_CONT;
	}

	/* 将bmask中对应ActiveMask的bit清除 */
	bmask = bmask & (bmask ^ ActiveMask);

	if (bmask == 0) {               /* 完全同步成功 */
		ActiveMask = arrivemask;
		ActivePC += INST_SIZE;
		YieldMask = YieldMask ^ (YieldMask & ActiveMask);
		*B = bmask;
		return BRU_CONT;
	}

	/* 未能完全同步成功 */
	/* Reading: on both 让步放行 paths below, the threads released past
	 * the BSYNC (arrivemask) are also cleared from the written-back B
	 * register.  004 clears only ActiveMask, but arrivemask may hold
	 * threads parked at this BSYNC (RPC == ActivePC) whose bit is still
	 * set; released without clearing it, a stale bit would make a later
	 * BSYNC on this register wait for threads that already passed. */

	/* 可选的切换目标：当前未到达线程中的非Yield线程 */
	cmask = ValidMask & ~arrivemask & ~YieldMask;
	if (all_sleeping(w, cmask)) {   /* 所有可选线程均处于Sleep状态 → 让步放行 */
		/* Also reached with cmask == 0 (every missing thread yields),
		 * which is the same release as 004's final else below. */
		ActiveMask = arrivemask;
		ActivePC += INST_SIZE;
		YieldMask = YieldMask ^ (YieldMask & pmask);
		*B = bmask & ~arrivemask;
		return BRU_CONT;
	}
	cmask = cmask & ~SleepMask;

	mask_ny_b = cmask & bmask;      /* 未到达、非Yield、bmask内 */
	mask_ny_nb = cmask & ~bmask;    /* 未到达、非Yield、bmask外 */

	bru_rpc_set(w, ActiveMask, ActivePC);       /* RPC[ActiveMask] = ActivePC */

	if (mask_ny_b) {                /* 同步不成功：切换到需同步但未到达的非yield分支 */
		*B = bmask;
		bru_switch_pc_by_mask(w, mask_ny_b);
		return BRU_CONT;
	}

	/* 同步不完全成功，但可以让步放行 (only yielding or sleeping threads
	 * of bmask are missing). */
	ActiveMask = arrivemask;
	ActivePC += INST_SIZE;
	YieldMask = YieldMask ^ (YieldMask & pmask);
	*B = bmask & ~arrivemask;

	if (mask_ny_nb) {
		/* Reading: 004 switches to mask_ny_nb ("先切换到不需同步的非
		 * Yield线程") and leaves the arrived threads waiting at this
		 * BSYNC.  Taken literally that livelocks: when mask_ny_nb
		 * waits at an outer BSYNC for the arrived threads, it switches
		 * straight back here, and here switches to it again, forever
		 * (e.g. a spin lock with YIELD inside a divergent if).  We
		 * read the comment's "可以让步放行" as granted: the arrived
		 * threads are released (they resume after the BSYNC), and the
		 * warp then switches to mask_ny_nb first, as 004 orders. */
		bru_rpc_set(w, ActiveMask, ActivePC);   /* released: resume at PC+16 */
		bru_switch_pc_by_mask(w, mask_ny_nb);
	}
	/* else: ValidMask中已经没有非Yield线程，让步放行当前BSYNC */
	return BRU_CONT;
}

/* ---- YIELD / NANOSLEEP: the branch switch ------------------------------ */

/* The branch switch that 004 writes out in YIELD and again, identically,
 * in NANOSLEEP ("参考：[[YIELD]]"): pick the next branch from SwitchMask,
 * preferring non-yield threads, and make it active.  Called with
 * ValidMask != ActiveMask.  Returns do_sleep.  As written, SwitchMask is
 * refilled with every inactive branch when it runs empty, so four branches
 * spinning on YIELD run 0,1,2,0,1,3,...: every branch is chosen (004's
 * claim), not strictly round robin. */
static bool switch_branch(we_warp *w)
{
	uint32_t cmask, mask_ny, mask_y;
	unsigned lid;
	bool do_sleep;

	SwitchMask = SwitchMask & (ValidMask ^ ActiveMask); /* 只保留Valid但不Active的部分 */
	if (SwitchMask == 0)                                /* 已被清空则重置 */
		SwitchMask = ValidMask ^ ActiveMask;

	/* YIELD只能在当前SwitchMask中挑选线程; cmask != 0 since
	 * ValidMask ^ ActiveMask != 0. */
	cmask = SwitchMask;

	if (all_sleeping(w, cmask)) {
		do_sleep = true;
	} else {
		do_sleep = false;
		cmask = cmask & ~SleepMask;
	}

	mask_ny = cmask & ~YieldMask;   /* 优先跳转到SwitchMask中不处于Yield状态的线程 */
	mask_y = cmask & YieldMask;

	if (mask_ny)
		lid = ffs32(mask_ny);
	else
		lid = ffs32(mask_y);

	YieldMask |= ActiveMask;

	ActivePC = RPC[lid];
	ActiveMask = bru_rpc_eq(w, RPC[lid]) & (ValidMask ^ ActiveMask);

	SwitchMask = SwitchMask & (ValidMask ^ ActiveMask); /* 更新SwitchMask */
	if (SwitchMask == 0)
		SwitchMask = ValidMask ^ ActiveMask;

	return do_sleep;
}

/* 004 YIELD __Semantics.
 * Reading (return): BRU_YIELD whenever all active threads executed the
 * YIELD (with or without a switch inside the warp): the driver may let
 * other warps run, which is what a spinning YIELD needs.  The pmask=false
 * fall-through returns BRU_CONT; the all-sleep switch returns BRU_SLEEP. */
bru_result bru_yield(we_warp *w, uint32_t pgv, uint32_t ppv)
{
	uint32_t pmask = pgv & ppv & ActiveMask;
	uint32_t mask_np = ActiveMask & ~pmask;
	uint32_t mask_p = ActiveMask & pmask;

	if (mask_np) {
		bru_rpc_set(w, mask_p, ActivePC);   /* RPC[mask_p] = ActivePC */
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	if ((ValidMask ^ ActiveMask) == 0) {    /* No divergence here, same as nop */
		ActivePC += INST_SIZE;
		return BRU_YIELD;
	}

	/* Reading: 004 switches away without saving where the yielding
	 * threads resume; they resume after the YIELD:
	 * RPC[ActiveMask] = ActivePC + INST_SIZE. */
	bru_rpc_set(w, ActiveMask, ActivePC + INST_SIZE);

	return switch_branch(w) ? BRU_SLEEP : BRU_YIELD;
}

/* 004 NANOSLEEP __Semantics.  now: the warp's emulated time in ns.
 * Readings:
 *  - setTimer(): one timer per warp; armed <=> SleepMask != 0.  It is
 *    set to now + ns, or kept if already armed for earlier ("计时器会以
 *    各线程最短的睡眠时间为准").  No unit conversion (ns ~ cycles, 注2).
 *  - SleepMask |= pmask: 004's prose says NANOSLEEP sets SleepMask; the
 *    pseudo code forgets it.
 *  - the sleeping threads resume after the NANOSLEEP:
 *    RPC[ActiveMask] = ActivePC + INST_SIZE before switching (as YIELD).
 *  - YieldMask |= ActiveMask is kept as 004 writes it (sleepers then do
 *    not hold up a BSYNC, which 004's BSYNC all-sleep release intends).
 * Returns BRU_SLEEP for warpSleep(), BRU_CONT otherwise. */
bru_result bru_nanosleep(we_warp *w, uint32_t pgv, uint32_t ppv,
			 uint64_t now, uint64_t ns)
{
	uint32_t pmask = pgv & ppv & ActiveMask;
	uint32_t mask_np = ActiveMask & ~pmask;
	uint32_t mask_p = ActiveMask & pmask;
	uint64_t wake;

	if (mask_np) {
		bru_rpc_set(w, mask_p, ActivePC);   /* RPC[mask_p] = ActivePC */
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	/* setTimer(vb * CYCLE_PER_NS) */
	wake = (ns > UINT64_MAX - now) ? UINT64_MAX : now + ns;
	if (SleepMask == 0 || wake < w->wake_time)
		w->wake_time = wake;
	SleepMask |= pmask;

	if ((ValidMask ^ ActiveMask) == 0) {    /* No divergence here */
		ActivePC += INST_SIZE;
		return BRU_SLEEP;               /* warpSleep() */
	}

	bru_rpc_set(w, ActiveMask, ActivePC + INST_SIZE);

	return switch_branch(w) ? BRU_SLEEP : BRU_CONT;
}

/* The single timer of 004: when it expires it clears every bit of
 * SleepMask at once.  Returns whether it did (false when not armed). */
bool bru_timer_expired(we_warp *w, uint64_t now)
{
	if (SleepMask == 0 || now < w->wake_time)
		return false;
	SleepMask = 0;
	return true;
}

/* ---- WARPSYNC ---------------------------------------------------------- */

/* 004 WARPSYNC __Semantics, stype != R (I/U/C: one membermask).
 * Reading: a thread of pmask outside mmask is a usage error (004 注2:
 * "WARPSYNC正确性要求原ActiveMask必须在membermask中"; PTX bar.warp.sync
 * leaves it undefined).  Releasing ActiveMask = mmask would lose it, so
 * BRU_FAULT is returned with the state unchanged; the faulting lanes are
 * pgv & ppv & ActiveMask & ~mmask. */
bru_result bru_warpsync(we_warp *w, uint32_t pgv, uint32_t ppv, uint32_t mmask)
{
	uint32_t pmask, arrivemask, mask_np, mask_p, cmask;
	uint32_t mask_m_ny, mask_m_y;
	bool do_sleep;

	mmask = mmask & ValidMask;      /* 去除所有退出线程 */

	pmask = pgv & ppv & ActiveMask;
	if (pmask & ~mmask)
		return BRU_FAULT;

	arrivemask = ActiveMask | (ValidMask & bru_rpc_eq(w, ActivePC));

	mask_np = ActiveMask & ~pmask;
	mask_p = ActiveMask & pmask;

	if (mask_np) {
		bru_rpc_set(w, mask_p, ActivePC);   /* RPC[mask_p] = ActivePC */
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	if (((arrivemask & mmask) ^ mmask) == 0) {      /* 同步成功 */
		/* WARPSYNC不能放行mmask外的指令; ActiveMask ⊆ mmask (checked
		 * above), so no active thread is left without an RPC. */
		ActiveMask = mmask;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	/* 未同步成功: 所有需同步但未到达的线程; cmask != 0 because some
	 * thread of mmask (⊆ ValidMask) has not arrived. */
	cmask = ValidMask & ~arrivemask & mmask;
	if (all_sleeping(w, cmask)) {
		do_sleep = true;
	} else {
		do_sleep = false;
		cmask = cmask & ~SleepMask;
	}

	mask_m_ny = cmask & ~YieldMask;
	mask_m_y = cmask & YieldMask;

	bru_rpc_set(w, ActiveMask, ActivePC);       /* RPC[ActiveMask] = ActivePC */

	if (mask_m_ny)
		bru_switch_pc_by_mask(w, mask_m_ny);
	else
		bru_switch_pc_by_mask(w, mask_m_y);

	return do_sleep ? BRU_SLEEP : BRU_CONT;
}

/* 004 WARPSYNC __Semantics, stype == R: per-lane membermasks.
 * Readings:
 *  - mmask[l] is read only for lanes whose Rb is meaningful here: the
 *    threads executing (pmask) and those already parked at this WARPSYNC
 *    (arrivemask); other lanes' values are ignored.
 *  - 合法性判断 (004: "assert(lanemask & mmask != 0)", "同组各线程的
 *    membermask必须完全相同(How?)"): a thread l of pmask faults if l is
 *    not in its own mmask[l], or if it shares a group with another
 *    participant k (k in mmask[l] or l in mmask[k]) and
 *    mmask[k] != mmask[l] (compared after & ValidMask).  Checked before
 *    anything else, so BRU_FAULT leaves the state unchanged.
 *  - warp_syncmask = ValidMask & array2mask(thd_syncmask==0) is taken over
 *    arrivemask (threads not here have no membermask); 004's
 *    `ffs(sync_mask)` is ffs(warp_syncmask).
 *  - cmask = array_or(mmask) ^ arrivemask is read as
 *    array_or(mmask) & ~arrivemask ("mmask中未到达的valid线程"); the or is
 *    over the arrived threads.  It is != 0 when no group is complete. */
bru_result bru_warpsync_grouped(we_warp *w, uint32_t pgv, uint32_t ppv,
				const uint32_t mmask_in[32], uint32_t *fault_lanes)
{
	uint32_t mmask[WE_WARP_SIZE];
	uint32_t pmask, arrivemask, mask_np, mask_p, cmask, mask_ny, mask_y;
	uint32_t warp_syncmask, participants, bad;
	unsigned lid;
	bool do_sleep;

	for (unsigned l = 0; l < WE_WARP_SIZE; l++)
		mmask[l] = mmask_in[l] & ValidMask;    /* 去除所有退出线程 */

	pmask = pgv & ppv & ActiveMask;
	arrivemask = ActiveMask | (ValidMask & bru_rpc_eq(w, ActivePC));

	/* 合法性判断 */
	participants = pmask | (arrivemask & ~ActiveMask);
	bad = 0;
	for (uint32_t m = pmask; m; m &= m - 1) {
		unsigned l = ffs32(m);

		if (!(mmask[l] & (1u << l))) {          /* 1. 当前线程必须在membermask中 */
			bad |= 1u << l;
			continue;
		}
		for (uint32_t n = participants & ~(1u << l); n; n &= n - 1) {
			unsigned k = ffs32(n);              /* 2. 同组各线程的membermask必须完全相同 */
			bool same_group = ((mmask[l] >> k) & 1u) || ((mmask[k] >> l) & 1u);

			if (same_group && mmask[k] != mmask[l]) {
				bad |= 1u << l;
				break;
			}
		}
	}
	if (fault_lanes)
		*fault_lanes = bad;
	if (bad)
		return BRU_FAULT;

	mask_np = ActiveMask & ~pmask;
	mask_p = ActiveMask & pmask;

	if (mask_np) {
		bru_rpc_set(w, mask_p, ActivePC);   /* RPC[mask_p] = ActivePC */
		ActiveMask = mask_np;
		ActivePC += INST_SIZE;
		return BRU_CONT;
	}

	/* thd_syncmask = mmask ^ (mmask & arrivemask): 当前线程分组的未到达线程 */
	warp_syncmask = 0;
	for (uint32_t m = ValidMask & arrivemask; m; m &= m - 1) {
		unsigned l = ffs32(m);
		uint32_t thd_syncmask = mmask[l] ^ (mmask[l] & arrivemask);

		if (thd_syncmask == 0)
			warp_syncmask |= 1u << l;
	}

	if (warp_syncmask != 0) {
		/* 分组放行，每次只放行一组 (NV WARPSYNC.EXCLUSIVE) */
		uint32_t amask;

		lid = ffs32(warp_syncmask);
		amask = mmask[lid];             /* contains lid: checked above */

		bru_rpc_set(w, ActiveMask ^ (ActiveMask & amask), ActivePC); /* 未放行线程 */
		ActivePC += INST_SIZE;
		ActiveMask = amask;
		return BRU_CONT;
	}

	/* 没有分组完成同步：从mmask中未到达的valid线程中选取一组 */
	cmask = 0;
	for (uint32_t m = arrivemask; m; m &= m - 1)
		cmask |= mmask[ffs32(m)];       /* array_or(mmask) */
	cmask = cmask & ~arrivemask;

	if (all_sleeping(w, cmask)) {
		do_sleep = true;
	} else {
		do_sleep = false;
		cmask = cmask & ~SleepMask;
	}

	mask_ny = cmask & ~YieldMask;
	mask_y = cmask & YieldMask;

	if (mask_ny)
		lid = ffs32(mask_ny);
	else
		lid = ffs32(mask_y);

	bru_rpc_set(w, ActiveMask, ActivePC);       /* RPC[mask2array(ActiveMask)] = ActivePC */

	ActivePC = RPC[lid];
	ActiveMask = bru_rpc_eq(w, RPC[lid]) & ValidMask;

	return do_sleep ? BRU_SLEEP : BRU_CONT;
}
