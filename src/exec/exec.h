/* exec.h — the warp executor: decode-once records, the semantic-handler
 * contract, and the operand helpers handlers use.
 *
 * Each optype has one handler  void sem_<OPTYPE>(xctx *x, const xinsn *i)
 * (the list is generated: ISA_OPTYPE_LIST; a missing handler fails to
 * link).  A handler executes the whole warp instruction over the lanes of
 * x->pmask (= guard predicate & ActiveMask, never 0 when called).  It
 * leaves the PC alone unless it is a control-flow handler, which sets
 * x->pc_set after updating w->active_pc.  Faults go through xfault(); a
 * handler that must hand the warp back to its driver sets x->stop.
 */
#ifndef WE_EXEC_H
#define WE_EXEC_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "cta/cta.h"
#include "isa/isa_gen.h"
#include "asm/module.h"
#include "exec/jit.h"
#include "units/bru.h"
#include "units/warp.h"

/* The operand helpers handlers use in their lane loops are forced inline:
 * one left out of line would be compiled for the baseline target, not for
 * the calling handler's clone (WE_LANES_FN). */
#define XV_INLINE static inline __attribute__((always_inline))

/* ---- decode-once records ------------------------------------------ */

enum xo_kind {
	XO_NONE = 0,
	XO_REG,     /* row = register-file row (RZ mapped to zero/sink rows) */
	XO_UREG,    /* row = UR index (63 = URZ)                              */
	XO_PRED,    /* row = predicate 0..7 (7 = PT)                          */
	XO_UPRED,   /* row = uniform predicate 0..7                          */
	XO_IMM,     /* imm = value (already shifted back for asm_shift fields)*/
	XO_FIMM,    /* imm = binary32 bits                                    */
	XO_CMEM,    /* bank, imm = byte offset: c[bank][offset]               */
	XO_MEM,     /* row = address register row, imm = offset: [Ra+off]     */
	XO_CMEMIND, /* bank, row = index register row, imm = offset           */
	XO_ENUM     /* imm = enum value (B register number, SR, PR ...)       */
};

enum xo_flag { XF_NOT = 1, XF_BITNOT = 2, XF_NEG = 4, XF_ABS = 8, XF_OUT = 16 /* a destination */ };
/* the flags xsrc applies as integer operations when asked (int_mods) */
#define XF_INT_MODS (XF_NEG | XF_ABS | XF_BITNOT)

typedef struct xopd {
	uint8_t kind;      /* enum xo_kind                                   */
	uint8_t flags;     /* enum xo_flag                                   */
	uint8_t nregs;     /* registers spanned by a REG operand (1, 2, 4)   */
	uint8_t bank;      /* CMEM / CMEMIND                                 */
	uint16_t row;
	uint16_t reg;      /* the register number as written (RZ = 255)      */
	int64_t imm;
} xopd;

#define XMAX_OPD 8

typedef struct xinsn {
	uint16_t opcode;   /* enum isa_op                                    */
	uint8_t optype;    /* enum isa_optype_index                          */
	uint8_t pg;        /* guard predicate index (7 = PT)                 */
	uint32_t pg_xor;   /* ~0 for a negated guard (@!Pg), else 0        */
	uint8_t nopd;
	bool lockstep;     /* sem_lockstep_form(): a lockstep group of warps
			      runs it in one handler call (exec_group)    */
	bool plain;        /* neither Branch nor Barrier (isa_flag): changes
			      no PC, mask or scheduling state of the warp  */
	bool per_cta;      /* reads or writes state of the warp's CTA (shared
			      memory, CTA ids, barriers): a lockstep group
			      spanning CTAs runs it CTA by CTA             */
	bool writes_pred;  /* writes a P predicate (not only PT): a guard
			      may read another value after it             */
	bool releases;     /* a MEMBAR or a Barrier instruction (isa_flag):
			      the reductions a turn holds back are applied
			      before it (exec/red.h)                      */
	xopd o[XMAX_OPD];  /* the Order<> operands after the guard: read by
			      name, o[OPTYPE_role] (Roles<>, isa_gen.h) */
	const we_insn *in; /* all fields, for modifiers: i->in->mode, ...    */
} xinsn;

/* i has no guard (@PT): every executing thread runs it */
static inline bool xunguarded(const xinsn *i) { return i->pg == 7 && !i->pg_xor; }
/* predicate operand o is PT (true in every lane) */
static inline bool xopd_pt(const xopd *o) { return o->row == 7 && !(o->flags & XF_NOT); }

/* ---- the execution context of one warp instruction ---------------- */

/* Register rows: [0, nregs) = R0.., then 4 zero rows for RZ reads and 4
 * sink rows for RZ writes (a 128-bit operand spans 4).  Nothing writes the
 * zero rows and nothing reads the sink rows. */
#define ZERO_ROWS 4u
#define SINK_ROWS 4u

typedef struct xctx {
	we_warp *w;
	we_cta *cta;
	const we_launch_ctx *L;
	uint32_t group;    /* warps w[1..group] run this instruction with w in
			      lockstep (exec_group; 0: w alone); only for a
			      sem_lockstep_form() instruction, with pmask
			      all ones in every warp                        */
	uint32_t pmask;    /* guard & ActiveMask                              */
	bool declined;     /* a group handler left everything untouched: the
			      caller runs the group's warps one by one      */
	uint64_t pc;       /* PC of this instruction                          */
	bool pc_set;       /* handler moved w->active_pc itself               */
	bool intact;       /* with pc_set, for a group: the handler left every
			      warp of it at one PC with the masks unchanged
			      (exec_group need not look)                    */
	bool stop;         /* hand the warp back after this instruction       */
	we_stop why;       /* reason when stop                                */
} xctx;

/* Warp j of x's group as a context of its own (a group handler that runs
 * its warps one by one). */
static inline xctx xwarp_ctx(const xctx *x, uint32_t j)
{
	xctx xj = *x;
	xj.w = x->w + j;
	xj.group = 0;
	return xj;
}

/* Build the decode-once records of a module and compute each kernel's
 * register count.  Returns WE_ERR_LOAD with a message in err on an
 * instruction the executor cannot run (register out of range, immediate
 * barrier count not a multiple of 32, ...). */
we_status exec_prepare_module(struct we_module *m, char *err, size_t errlen);
void exec_free_module(struct we_module *m);

/* Run warp w until it blocks, exits, yields, sleeps, faults, or has
 * executed `budget` instructions. */
we_stop exec_run(we_cta *cta, we_warp *w, uint64_t budget);
/* For exec_group under --check's memory checks: the instruction at pc,
 * one they observe (observe_wants), for warps w[0..n) one by one as the
 * hooked loop runs it (each in its own CTA).  WE_STOP_BUDGET when every
 * warp ran it; else the stop of w[*j] (those before it ran it, those
 * after it did not). */
we_stop exec_checked(we_warp *w, uint32_t n, uint64_t pc, uint32_t *j);

/* Lockstep groups.  Warps wi..wi+n-1 of a CTA (n >= 2), all ready, at one
 * PC, ActiveMask all ones, SleepMask 0, with `budget` instructions left
 * each: run them together, one instruction for all of them at a time.
 * An instruction of sem_lockstep_form() whose guard is true in every
 * lane of every warp is one handler call over the group's registers (one
 * array per register, warp.h); any other instruction runs warp by warp,
 * exactly as exec_run would, in warp order.  Each warp's state, counters
 * and results are what running it alone gives.  Returns when the warps
 * no longer share a PC and full masks (WE_STOP_BUDGET), when one of them
 * stops (its index in *who, its reason returned: the warps after it
 * have not executed that instruction), or after `budget` instructions.
 * An EXIT that ends several of the warps is run by all of them: then
 * WE_STOP_EXITED, *who is the first to exit and *exited the mask (CTA
 * warp indices) of all that did, for the driver to retire in order.
 *
 * A group may also span CTAs (nw < n): all nw warps of n / nw CTAs of a
 * batch (engine_int.h, cta_batch), cta the first, wi 0, each CTA's warps
 * ready with SleepMask 0 at the one PC.  A per_cta instruction then runs
 * CTA by CTA, and the group returns WE_STOP_YIELD, the instruction not
 * run, at one that it would run warp by warp (a branch or barrier unit
 * form that is not lockstep: divergence, BSYNC, ...): the CTAs go on one
 * by one from there.  An EXIT runs in the group, warp by warp where its
 * guard differs: WE_STOP_EXITED when it ended some of the warps,
 * *exited the group's warps that it ended (bit j: the group's warp j),
 * for the driver to retire CTA by CTA; else, when it ended lanes only,
 * WE_STOP_BUDGET.  *who indexes the warps from cta's first.  With nw ==
 * n it is one CTA's group. */
we_stop exec_group(we_cta *cta, uint32_t wi, uint32_t n, uint32_t nw, uint64_t budget,
		   uint32_t *who, uint32_t *exited);
/* Straight kernels (straight.c): a kernel whose every instruction is in
 * a compiled block (jit.h) or is one of the branch and barrier unit's
 * instructions that a whole lockstep group of whole CTAs can run as one:
 * an EXIT of predicate operand PT, a BRA without .U or a condition of
 * predicate operand PT, a BAR.SYNC or BAR.ARV of immediates that all the
 * CTA's warps complete (exec_group's group_whole), a BSSY, and a BSYNC
 * (which every thread reaches at once: 004's full sync).  exec_straight_plan:
 * *p, its steps with the blocks of jit; false when L's kernel is not
 * straight with them.
 * exec_straight: warps w[0..n) of whole CTAs (a batch's, consecutive,
 * rows consecutive), every lane valid and active, in a CTA start's state
 * at the kernel's first instruction, its barrier units unused, run the
 * steps from the first, one call per block, while the guard of every
 * other step is the same in every thread: true when an EXIT whose guard
 * every thread meets ended them all, its counts in *c.  Then only their
 * registers, predicates, B registers, thread counts (the blocks'),
 * barrier units (a completed phase of each BAR run, counted in each
 * CTA's barriers_completed) and memory changed: the engine counts the
 * rest (c) and retires the CTAs itself, and their slots can start their
 * next CTAs from this state: XSTRAIGHT_DONE.
 * An EXIT whose guard differs between threads, when only blocks and
 * EXITs follow it (xstraight.tail): a warp whose guard is true in every
 * thread ends there as at that last EXIT; each other warp runs on alone
 * from it (exec_run, as a one-warp turn would), and when all of those
 * exited, XSTRAIGHT_DONE too: those warps (c->ran) have the counters,
 * masks and states of the interpreter's turns, the engine counts their
 * instructions from their counters and starts them again for the next
 * CTA.
 * XSTRAIGHT_LEFT at a side exit (an instruction a block leaves to the
 * interpreter, jit.h), at another step whose guard differs between
 * threads (or is false for a BAR), when the warps ran XSTRAIGHT_BUDGET
 * instructions (a loop: the engine's watchdogs run between turns), and
 * when a warp of such a tail stopped otherwise than by exiting (a
 * fault): the warps are where exec_group would have left them, at that
 * instruction with its counters, or (a tail) where one-warp turns in
 * warp order would have left them (those before the one that stopped
 * exited, those after it at the EXIT), for the engine to run on as
 * usual. */
#define XSTRAIGHT_STEPS 64u
#define XSTRAIGHT_BUDGET (UINT64_C(1) << 20)
enum { XS_BLOCK, XS_EXIT, XS_BRA, XS_BAR, XS_BSSY, XS_BSYNC };
/* What a CTA start resets that a straight kernel's steps may change
 * besides the registers, ids and memory (xstraight.resets; engine/slot.c
 * batch_restart): the predicates P0-P6 (a block writes some), the
 * barrier units (a BAR), the B registers (a BSSY or BSYNC) */
enum { XS_RESET_PREDS = 1, XS_RESET_BARS = 2, XS_RESET_BREGS = 4 };
typedef struct xstraight_step {
	const xjit_entry *at; /* XS_BLOCK: the block's entry (jit.h)      */
	uint64_t pc;     /* its first instruction                         */
	uint32_t len;    /* its instructions (1 but for a block)          */
	uint32_t pg_xor; /* the guard of an EXIT, BRA, BAR, BSSY or BSYNC */
	uint8_t pg;
	uint8_t kind;    /* XS_*                                          */
	uint8_t breg;    /* XS_BSSY, XS_BSYNC: the B register             */
	bool releases;   /* xinsn.releases (exec/red.h)                   */
	uint16_t to;     /* XS_BRA: the step of its target                */
	bar_arrival bar; /* XS_BAR: every warp's arrival                  */
} xstraight_step;
typedef struct xstraight {
	uint32_t n;      /* steps, 0: not straight                        */
	uint32_t tail;   /* steps [tail, n) are blocks and EXITs          */
	unsigned resets; /* XS_RESET_*                                    */
	xstraight_step step[XSTRAIGHT_STEPS];
} xstraight;
/* What a warp of exec_straight's ran: `insns` instructions, `full` of
 * them (the other steps than blocks whose guard was true, the last EXIT)
 * in every thread (the blocks counted their own threads); and the
 * barriers each CTA completed (`bars`, also in its barriers_completed).
 * The warps of `ran` (bit j: w[j]) ran on alone after a tail's EXIT:
 * their own counters hold all they ran. */
typedef struct xstraight_count {
	uint64_t insns, full, bars;
	uint32_t ran;
} xstraight_count;
bool exec_straight_plan(const we_launch_ctx *L, const struct xjit *jit, xstraight *p);
typedef enum { XSTRAIGHT_LEFT, XSTRAIGHT_DONE } xstraight_end;
xstraight_end exec_straight(const we_launch_ctx *L, const xstraight *p, we_warp *w, uint32_t n, xstraight_count *c);
/* true when the full-mask path of i's handler runs a lockstep group
 * (x->group): no per-warp operand (uniform register or predicate), no
 * operand copied into a one-warp array, a form the handler vectorizes. */
bool sem_lockstep_form(const xinsn *i);

/* ---- faults --------------------------------------------------------- */

/* Record a runtime exception for the current instruction (first one per
 * CTA wins) and stop the warp.  lanes: the offending lanes. */
void xfault(xctx *x, we_fault_kind kind, uint32_t lanes, uint64_t addr,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- operand helpers ------------------------------------------------ */

#define XLANES WE_WARP_SIZE
#define for_lanes(l) for (unsigned l = 0; l < XLANES; l++)
#define LANE_ON(mask, l) (((mask) >> (l)) & 1u)

/* Row of registers (32 lanes) for a REG operand, register k of its span. */
XV_INLINE uint32_t *xrow(xctx *x, const xopd *o, unsigned k)
{
	return we_row(x->w, o->row + k);
}

/* 32 lane values of source operand o (register k of a multi-register
 * operand for REG; the same value in every lane for immediates, constants
 * and uniform registers).  NEG/ABS/BITNOT flags are applied as integer
 * operations for XO_IMM/REG when int_mods is true; float handlers pass
 * false and apply -/|x| themselves. */
const uint32_t *xsrc_slow(xctx *x, const xopd *o, unsigned k, uint32_t tmp[XLANES],
			  bool int_mods);
/* The value of a non-register source operand (IMM, FIMM, UREG, CMEM),
 * register k of its span, integer modifiers applied when int_mods. */
uint32_t xsrc_scalar(xctx *x, const xopd *o, unsigned k, bool int_mods);
XV_INLINE uint32_t ximm_word(const xopd *o, unsigned k)
{
	return k ? (uint32_t)((uint64_t)o->imm >> 32) : (uint32_t)o->imm;
}
/* sh when o is a plain immediate 2^sh below 2^31 (positive as S32 too:
 * an address's scale, IMAD.WIDE's b), else -1 */
XV_INLINE int ximm_log2(const xopd *o)
{
	if (o->kind != XO_IMM || (o->flags & XF_INT_MODS))
		return -1;
	const uint32_t v = ximm_word(o, 0);
	return v && !(v & (v - 1u)) && v < 0x80000000u ? __builtin_ctz(v) : -1;
}
/* A BRA that a lockstep group runs as one jump where its guard is true in
 * every lane of every warp (sem_BRA's plain jump: ActivePC = the target,
 * masks unchanged): no .U or condition, predicate operand PT.  Its
 * target at pc: xbra_target. */
XV_INLINE bool xbra_whole(const xinsn *i)
{
	return i->optype == ISA_OPT_BRA && i->opcode != ISA_OP_BRA_U && i->in->cond == BRU_COND_NONE &&
	       xopd_pt(&i->o[BRA_pp]);
}
XV_INLINE uint64_t xbra_target(const xinsn *i, uint64_t pc)
{
	return pc + WE_INST_SIZE + (uint64_t)i->o[BRA_offset].imm * WE_INST_SIZE;
}
/* The arrival of BAR.SYNC or BAR.ARV i by `lanes` at pc when its id and
 * count are plain immediates (the same arrival for every warp of a
 * group: sem_bcu.c's group step, group.c's whole-group barrier), else
 * false (each warp's own operands, sem_bcu.c id_count). */
XV_INLINE bool xbar_imm_arrival(const xinsn *i, uint64_t pc, uint32_t lanes, bar_arrival *a)
{
	const xopd *oi = &i->o[BAR_id], *oc = &i->o[BAR_cnt];
	if (oi->kind != XO_IMM || oc->kind != XO_IMM || ((oi->flags | oc->flags) & XF_INT_MODS))
		return false;
	*a = (bar_arrival){ .kind = BAR_KIND_SYNC, .wait = i->in->mode == ISA_BARMode_SYNC,
			    .id = ximm_word(oi, 0) & 0xfu, .cnt = ximm_word(oc, 0) & 0xfffu,
			    .lanes = lanes, .pc = pc };
	return true;
}
/* xsrc_scalar, with a plain immediate read without a call */
XV_INLINE uint32_t xsrc_word(xctx *x, const xopd *o, unsigned k, bool int_mods)
{
	if ((o->kind == XO_IMM || o->kind == XO_FIMM) && !(o->flags & XF_INT_MODS))
		return ximm_word(o, k);
	if (o->kind == XO_CMEM && o->bank == 0 && !(o->flags & XF_INT_MODS) && o->imm >= 0 &&
	    !(o->imm & 3) && (uint64_t)o->imm + 4u * k + 4u <= x->L->param_bytes) {
		/* a kernel parameter (constant bank 0), in range and aligned */
		uint32_t v;
		memcpy(&v, x->L->params + o->imm + 4u * k, 4);
		return v;
	}
	return xsrc_scalar(x, o, k, int_mods);
}
XV_INLINE const uint32_t *xsrc(xctx *x, const xopd *o, unsigned k, uint32_t tmp[XLANES],
				   bool int_mods)
{
	if (o->kind == XO_REG) {
		/* the common case, a plain register, without a call */
		if (!int_mods || !(o->flags & XF_INT_MODS))
			return xrow(x, o, k);
		return xsrc_slow(x, o, k, tmp, int_mods);
	}
	/* one value for every lane; broadcast here, in the handler's own
	 * (vectorized) code, so that the stores are as wide as the loads
	 * that follow and forward to them */
	uint32_t v = xsrc_word(x, o, k, int_mods);
	for_lanes(l) tmp[l] = v;
	return tmp;
}

/* true when operand o is the same in every lane (an immediate, a uniform
 * register or a constant), with that value (integer modifiers applied)
 * in *v, so that a handler can use a scalar in its lane loop. */
XV_INLINE bool xuniform(xctx *x, const xopd *o, unsigned k, uint32_t *v)
{
	if (o->kind == XO_REG)
		return false;
	*v = xsrc_word(x, o, k, true);
	return true;
}

/* Write res to the lanes of mask in destination operand o, register k. */
XV_INLINE void xwrite(xctx *x, const xopd *o, unsigned k, const uint32_t *res,
			  uint32_t mask)
{
	uint32_t *d = xrow(x, o, k);
	if (mask == 0xffffffffu) {
		/* a lane loop, not memcpy: stores as wide as the next handler's
		 * loads (memcpy's 16-byte stores defeat store forwarding into
		 * the AVX2 clones' 32-byte loads) */
		for_lanes(l) d[l] = res[l];
		return;
	}
	for_lanes(l) d[l] = LANE_ON(mask, l) ? res[l] : d[l];
}

/* ---- whole-row vector access (full-mask fast paths) ------------------
 *
 * A row of 32 lanes as XV_N GCC vectors (chunks) of XV_W = 8 lanes: the
 * AVX2 clones make one 256-bit operation of each, the baseline two SSE2
 * ones.  (16-lane chunks measured no faster on an AVX-512 host once the
 * loops are unrolled, and GCC 12 turns comparisons of vectors wider than
 * the target's registers into lane-by-lane code.)  A handler's fast path
 * loads its sources chunk by chunk, computes in registers and stores into
 * the destination row directly: no result array and no copy, and a
 * destination that is also a source is fine since every lane reads its
 * sources before its result is stored. */
/* these are static inline, never called across files: the ABI of passing
 * 32-byte vectors without AVX does not matter.  (GCC and clang warn at
 * every call, so the warning stays off for the rest of each file that
 * includes this header; it is only about vector arguments and results.) */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define XV_W 8u
typedef uint32_t xvec __attribute__((vector_size(4 * XV_W)));
typedef uint32_t xvecu __attribute__((vector_size(4 * XV_W), aligned(4), may_alias));
typedef int32_t xvecs __attribute__((vector_size(4 * XV_W)));
#define XV_N (XLANES / XV_W)
/* before a loop over chunks: a warp's XV_N chunks per trip (fewer loop
 * instructions per vector operation) */
#if defined(__clang__)
#define XV_UNROLL _Pragma("clang loop unroll_count(4)")
#elif defined(__GNUC__)
#define XV_UNROLL _Pragma("GCC unroll 4")
#else
#define XV_UNROLL
#endif
/* the chunks a full-mask path covers: one warp's, or a lockstep group's
 * (the group's rows are consecutive: warp.h) */
XV_INLINE size_t xv_chunks(const xctx *x) { return XV_N * ((size_t)x->group + 1u); }
XV_INLINE xvec xv_ld(const uint32_t *p, size_t c) { return *(const xvecu *)(p + XV_W * c); }
XV_INLINE void xv_st(uint32_t *p, size_t c, xvec v) { *(xvecu *)(p + XV_W * c) = v; }
#ifdef __clang__
#define XV_SHUF(v, ...) __builtin_shufflevector((v), (v), __VA_ARGS__)
#else
#define XV_SHUF(v, ...) __builtin_shuffle((v), (xvec){ __VA_ARGS__ })
#endif
/* (a shuffle of lane 0 becomes one broadcast, where GCC 12 builds
 * { v, v, ... } or vector + v lane by lane) */
XV_INLINE xvec xv_splat(uint32_t v)
{
	const xvec t = { v };
	return XV_SHUF(t, 0, 0, 0, 0, 0, 0, 0, 0);
}
/* OR of the XV_W lanes */
XV_INLINE uint32_t xv_or_lanes(xvec v)
{
	v |= XV_SHUF(v, 4, 5, 6, 7, 0, 1, 2, 3);
	v |= XV_SHUF(v, 2, 3, 0, 1, 6, 7, 4, 5);
	v |= XV_SHUF(v, 1, 0, 3, 2, 5, 4, 7, 6);
	return v[0];
}

/* A source operand for the vector paths: a row, or one value in every
 * lane (XV_W copies in the caller's tmp, read again for every chunk: a
 * load is cheaper than a branch on the operand's kind in every chunk). */
typedef struct xvop {
	const uint32_t *p;
	size_t step;       /* XV_W for a row, 0 for one value */
} xvop;
XV_INLINE xvop xvop_of(xctx *x, const xopd *o, unsigned k, uint32_t tmp[XLANES], bool int_mods)
{
	xvop r;
	if (o->kind == XO_REG) {
		r.p = xsrc(x, o, k, tmp, int_mods);
		r.step = XV_W;
	} else {
		xv_st(tmp, 0, xv_splat(xsrc_word(x, o, k, int_mods)));
		r.p = tmp;
		r.step = 0;
	}
	return r;
}
XV_INLINE xvec xv_get(const xvop *o, size_t c) { return *(const xvecu *)(o->p + o->step * c); }

/* Lanes XV_W*c.. of lane mask m as vector lanes all ones or zero. */
XV_INLINE xvec xv_lanes(uint32_t m, unsigned c)
{
	const xvec idx = { 0, 1, 2, 3, 4, 5, 6, 7 };
	return -((xv_splat(m >> (XV_W * c)) >> idx) & 1u);
}

/* The bits of lanes XV_W*c.. of a lane mask from a vector comparison
 * (lanes all ones or zero) of chunk c (of one warp's XV_N); OR them over
 * the chunks, then xv_or_lanes gives the 32-bit mask. */
XV_INLINE xvec xv_bits(xvec v, unsigned c)
{
	const xvec w = { 1, 2, 4, 8, 16, 32, 64, 128 };
	return v & (w << (XV_W * c));
}

/* The lane masks of a comparison for nw warps (ISETP of a lockstep
 * group): out[j] bit l = a < b (signed, or unsigned with `u`), or a == b
 * with `eq`, at lane l of warp j, XORed with neg.  a and b as xvop (step
 * XV_W: rows, 0: one value).  With AVX2 (the x86-64-v3 clones, and the
 * host has it) a warp's four chunks of results are packed to bytes and
 * one VPMOVMSKB makes the mask; GCC's generic vectors have no such
 * operation, and the shuffles that OR a chunk's lanes together cost as
 * much again as the comparisons.  Only on hosts with AVX2: the caller
 * checks xv_have_avx2(). */
#if defined(WE_HAVE_TARGET_CLONES) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define XV_HAVE_MASKS_AVX2 1
static inline bool xv_have_avx2(void) { return __builtin_cpu_supports("avx2"); }
/* one loop per comparison (none tests it per chunk): r(va, vb) the
 * chunk's result lanes */
#define XV_CMP_MASKS_LOOP(r)                                                                    \
	for (size_t j = 0; j < nw; j++) {                                                       \
		__m256i t[XV_N];                                                                \
		for (unsigned k = 0; k < XV_N; k++) {                                           \
			const size_t c = j * XV_N + k;                                          \
			const __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(ap + as * c)); \
			const __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(bp + bs * c)); \
			t[k] = (r);                                                             \
		}                                                                               \
		/* the 32 lanes' all-ones/zero words to bytes (the packs work \
		 * within 128-bit halves: the dword permute puts them in lane \
		 * order), then one VPMOVMSKB */                                  \
		const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(t[0], t[1]),            \
						     _mm256_packs_epi32(t[2], t[3]));           \
		const __m256i o = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)); \
		out[j] = (uint32_t)_mm256_movemask_epi8(o) ^ neg;                               \
	}
static inline __attribute__((target("avx2"))) void xv_cmp_masks_avx2(const xvop *a, const xvop *b, size_t nw,
									  bool eq, bool u, uint32_t neg,
									  uint32_t *out)
{
	const uint32_t *ap = a->p, *bp = b->p;
	const size_t as = a->step, bs = b->step;
	if (eq) {
		XV_CMP_MASKS_LOOP(_mm256_cmpeq_epi32(va, vb))
	} else if (u) {
		/* unsigned a < b is !(max(a, b) == a) */
		neg = ~neg;
		XV_CMP_MASKS_LOOP(_mm256_cmpeq_epi32(_mm256_max_epu32(va, vb), va))
	} else {
		XV_CMP_MASKS_LOOP(_mm256_cmpgt_epi32(vb, va))
	}
}
#undef XV_CMP_MASKS_LOOP
#endif

/* Predicate source of warp w as a lane mask, with its '!' applied. */
static inline uint32_t wpred(const we_warp *w, const xopd *o)
{
	uint32_t v = w->p[o->row];
	return (o->flags & XF_NOT) ? ~v : v;
}
static inline uint32_t xpred(xctx *x, const xopd *o) { return wpred(x->w, o); }

/* Set predicate destination o of warp w to value on the lanes of mask
 * (PT ignored). */
static inline void wset_pred(we_warp *w, const xopd *o, uint32_t value, uint32_t mask)
{
	if (o->row == 7)
		return;
	uint32_t *p = &w->p[o->row];
	*p = (*p & ~mask) | (value & mask);
}
static inline void xset_pred(xctx *x, const xopd *o, uint32_t value, uint32_t mask)
{
	wset_pred(x->w, o, value, mask);
}

/* A uniform register value (URZ reads 0). */
static inline uint32_t xureg(xctx *x, unsigned idx) { return idx >= 63 ? 0 : x->w->ur[idx]; }
static inline void xset_ureg(xctx *x, unsigned idx, uint32_t v)
{
	if (idx < 63)
		x->w->ur[idx] = v;
}

/* A scalar source: the value of an IMM/CMEM/UREG operand, or of the
 * lowest lane of pmask for a REG operand (used for barrier ids, masks). */
uint32_t xscalar_slow(xctx *x, const xopd *o, unsigned k);
static inline uint32_t xscalar(xctx *x, const xopd *o, unsigned k)
{
	/* an immediate id or count (BAR 0x0, ...) without a call */
	if (o->kind == XO_IMM && !(o->flags & XF_INT_MODS))
		return ximm_word(o, k);
	return xscalar_slow(x, o, k);
}

/* [addr, addr + size) inside [0, limit), without overflow. */
static inline bool xfits(uint64_t addr, uint64_t size, uint64_t limit)
{
	return addr <= limit && size <= limit - addr;
}

/* Constant bank read (bounds-checked; faults and returns false). */
bool xconst_read(xctx *x, unsigned bank, int64_t off, unsigned size, void *out);

/* Memory translation for `size` bytes at addr (alignment = size checked).
 * Returns a host pointer or NULL after recording the fault. */
uint8_t *xglobal(xctx *x, uint64_t addr, unsigned size, uint32_t lane);
uint8_t *xshared(xctx *x, uint64_t addr, unsigned size, uint32_t lane);
/* [addr, addr + span) inside one global allocation: its host pointer, or
 * NULL (no fault: the caller checks lane by lane then). */
uint8_t *xglobal_span(xctx *x, uint64_t addr, uint64_t span);
uint8_t *xlocal(xctx *x, uint64_t addr, unsigned size, uint32_t lane);
/* A generic address (PTX): shared or local memory through their windows
 * (isa.h WE_GENERIC_*), else global memory; a store or atomic into the
 * constant window faults.  xgeneric_load: a load, which may read the
 * constant banks through their window too. */
uint8_t *xgeneric(xctx *x, uint64_t addr, unsigned size, uint32_t lane);
uint8_t *xgeneric_load(xctx *x, uint64_t addr, unsigned size, uint32_t lane);

/* Lowest set lane. */
static inline unsigned xffs(uint32_t m) { return (unsigned)__builtin_ctz(m); }

/* One handler per optype.  With WE_HAVE_TARGET_CLONES each handler is
 * compiled twice, for x86-64-v3 (AVX2, FMA) and for the baseline, and the
 * dynamic loader picks the one the host runs (the lane loops vectorize to
 * 256 bits; fmaf becomes one instruction). */
#ifdef WE_HAVE_TARGET_CLONES
#define WE_LANES_FN __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WE_LANES_FN
#endif
/* (hidden explicitly: GCC gives the clones' resolvers default visibility
 * even under -fvisibility=hidden) */
#if defined(__GNUC__) && __GNUC__ >= 4
#define WE_INTERNAL __attribute__((visibility("hidden")))
#else
#define WE_INTERNAL
#endif
#define XSEM(name) WE_LANES_FN WE_INTERNAL void sem_##name(xctx *x, const xinsn *i)
/* (declared without the clones attribute: callers call the resolver) */
#define X_DECLARE_SEM(name) WE_INTERNAL void sem_##name(xctx *x, const xinsn *i);
ISA_OPTYPE_LIST(X_DECLARE_SEM)
#undef X_DECLARE_SEM

#endif
