/* jit.c — the compiled tier (jit.h): blocks of plain ALU instructions
 * as LLVM IR over whole warps (<32 x i32> per register), compiled by
 * LLVM's code generator to an object file for the host CPU, which LLVM's
 * ORC LLJIT links into the process (and the disk cache keeps: the
 * module's load links an entry's object file the same way).
 *
 * Each block function loops over the n warps it is given; for one warp
 * it loads a register row or predicate at its first use, keeps every
 * value in SSA form across the block and stores the rows and predicates
 * the block wrote at its end.  An instruction under a guard selects its
 * results lane by lane (guard & ActiveMask), as the handlers write only
 * x->pmask's lanes.  The semantics transcribe the handlers' generic
 * paths (sem_alu.c, sem_fpu.c, sem_warp.c): the same operations lane by
 * lane, so the results are bit-identical; tests/test_jit.c checks it on
 * every kernel.
 *
 * This file is the module warpemu-jit.so (jit.h), with LLVM; it uses
 * only the headers of the library, no function of it.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "exec/exec.h"
#include "exec/flow.h"
#include "exec/jit.h"
#include "exec/red.h"
#include "exec/sem.h"
#include "exec/sem_float.h"
#include "units/bru.h"

/* ---- what compiles ---------------------------------------------------- */

/* A source operand jit.c reads: a register, an immediate, or a kernel
 * parameter in range of the launch's parameter size (xsrc_word's fast
 * path: then no constant read can fault; the cache's key holds the
 * size). */
static bool opd_ok(const we_launch_ctx *L, const xopd *o, unsigned nregs)
{
	switch (o->kind) {
	case XO_REG:
	case XO_IMM:
	case XO_FIMM:
		return true;
	case XO_CMEM:
		return o->bank == 0 && o->imm >= 0 && !(o->imm & 3) &&
		       (uint64_t)o->imm + 4u * nregs <= L->param_bytes;
	default:
		return false;
	}
}

/* The loads and stores jit.c compiles: global and shared, 32 and 64
 * bits, loads of 8 and 16 bits too, weak; the shared ATOMS.ADD of 32
 * bits (a histogram's); and the global ADD of 32 bits whose old value
 * nothing reads (RED.ADD, ATOMG.ADD to RZ), which the turn holds back
 * (exec/red.h).  Local and generic addresses, strong accesses and the
 * other atomics stay interpreted. */
static bool is_mem(const xinsn *i)
{
	return i->optype == ISA_OPT_LDG || i->optype == ISA_OPT_STG || i->optype == ISA_OPT_LDS ||
	       i->optype == ISA_OPT_STS || i->optype == ISA_OPT_ATOMS || i->optype == ISA_OPT_RED ||
	       i->optype == ISA_OPT_ATOMG;
}

/* A memory instruction that is one of the atomics above (its lanes
 * scattered by nature, 4 bytes each), and of those the global adds. */
static bool is_atom(const xinsn *i)
{
	return i->optype == ISA_OPT_ATOMS || i->optype == ISA_OPT_RED || i->optype == ISA_OPT_ATOMG;
}
static bool is_red(const xinsn *i) { return i->optype == ISA_OPT_RED || i->optype == ISA_OPT_ATOMG; }

/* An atomic's operation is an ADD of 32 bits. */
static bool add32(const xinsn *i)
{
	return i->in->op == ISA_AtomOp_ADD && (i->in->type == ISA_AtomType_U32 || i->in->type == ISA_AtomType_S32);
}

/* An add that a turn may hold back, compiled or not (do_atom's test,
 * exec/red.h): a 32-bit global ADD whose old value nothing reads. */
static bool held_add(const xinsn *i)
{
	return is_red(i) && add32(i) &&
	       (i->optype == ISA_OPT_RED || (i->o[ATOM_rd].kind == XO_REG && i->o[ATOM_rd].reg == 255));
}
static const xopd *mem_opd(const xinsn *i);

static bool mem_compilable(const we_launch_ctx *L, const xinsn *i)
{
	if (i->optype == ISA_OPT_ATOMS)
		/* ATOMS.ADD of 32 bits: lane by lane, a plain add (a CTA's
		 * shared memory is one host thread's: the scheduler engine) */
		return add32(i) && i->o[ATOM_addr].kind == XO_MEM && opd_ok(L, &i->o[ATOM_rb], 1);
	if (is_red(i))
		return held_add(i) && mem_opd(i)->kind == XO_MEM &&
		       opd_ok(L, &i->o[i->optype == ISA_OPT_RED ? RED_rb : ATOM_rb], 1);
	const int size = i->in->size;
	const bool load = i->optype == ISA_OPT_LDG || i->optype == ISA_OPT_LDS;
	if (size != ISA_MemSize_32 && size != ISA_MemSize_64 &&
	    !(load && (size == ISA_MemSize_U8 || size == ISA_MemSize_S8 || size == ISA_MemSize_U16 ||
		       size == ISA_MemSize_S16)))
		return false;
	/* a strong access is another thread's hand-off (a flag): the
	 * interpreter's single relaxed atomics, not compiled code's plain
	 * accesses, which LLVM may merge or move inside a block */
	if (i->in->order == ISA_MemOrder_STRONG)
		return false;
	if (i->optype == ISA_OPT_LDG || i->optype == ISA_OPT_LDS)
		return i->o[LD_addr].kind == XO_MEM;
	return i->o[ST_addr].kind == XO_MEM && opd_ok(L, &i->o[ST_rb], size == ISA_MemSize_64 ? 2u : 1u);
}

/* The special registers S2R reads in compiled code: the pure functions of
 * the warp's id, its CTA and the launch's shape (a kernel's start: S2R,
 * S2R, S2R, IMAD ... is one block).  The clocks and timers (the warp's
 * emulated time, which the caller advances per block) and the dynamic
 * shared size stay interpreted. */
static bool s2r_compilable(const xinsn *i)
{
	const unsigned sr = (unsigned)i->in->sr;
	return sr <= ISA_SReg_SR_NWARPS || (sr >= ISA_SReg_SR_EQMASK && sr <= ISA_SReg_SR_GEMASK) ||
	       sr == ISA_SReg_SRZ;
}
_Static_assert(ISA_SReg_SR_LANEID == 0 && ISA_SReg_SR_NWARPS == 14 && ISA_SReg_SR_EQMASK == 16 &&
		       ISA_SReg_SR_GEMASK == 20,
	       "s2r_compilable's ranges");

/* A WARPSYNC that a warp whose valid threads are all active and all run
 * it passes with nothing changed but its counters and the record of
 * failing syncs (004's WARPSYNC: every thread of the membermask has
 * arrived; sem_bru.c sem_sync_progress): unguarded, Pp PT, and its
 * membermask every lane, the immediate 0xffffffff, or a register that
 * holds it in every thread that runs it (ones: warpsync_ones, the PTX
 * front end's `WARPSYNC R` before a shfl.sync of membermask -1). */
static bool warpsync_all(const xinsn *i, bool ones)
{
	if (i->optype != ISA_OPT_WARPSYNC || !xunguarded(i) || !xopd_pt(&i->o[WARPSYNC_pp]))
		return false;
	if (i->opcode == ISA_OP_WARPSYNC_I)
		return (uint32_t)i->o[WARPSYNC_mask].imm == UINT32_MAX;
	return i->opcode == ISA_OP_WARPSYNC_R && ones;
}

/* ones: a WARPSYNC R's register holds 0xffffffff (warpsync_ones) */
static bool xjit_compilable(const we_launch_ctx *L, const xinsn *i, bool ones)
{
	unsigned srcs[4], ns = 0, wide = 1;
	if (is_mem(i))
		return mem_compilable(L, i);
	switch (i->optype) {
	case ISA_OPT_WARPSYNC:
		return warpsync_all(i, ones);
	case ISA_OPT_S2R:
		return s2r_compilable(i);
	case ISA_OPT_MOV:
		srcs[ns++] = MOV_b;
		break;
	case ISA_OPT_IADD3:
		srcs[ns++] = IADD3_ra, srcs[ns++] = IADD3_b, srcs[ns++] = IADD3_rc;
		break;
	case ISA_OPT_IMAD:
		srcs[ns++] = IMAD_ra, srcs[ns++] = IMAD_b, srcs[ns++] = IMAD_c;
		break;
	case ISA_OPT_IMAD_WIDE:
		srcs[ns++] = IMAD_WIDE_ra, srcs[ns++] = IMAD_WIDE_b;
		if (!opd_ok(L, &i->o[IMAD_WIDE_c], 2))
			return false;
		break;
	case ISA_OPT_ISETP:
		srcs[ns++] = ISETP_ra, srcs[ns++] = ISETP_b;
		break;
	case ISA_OPT_LEA:
		srcs[ns++] = LEA_ra, srcs[ns++] = LEA_b;
		if (i->in->hi == ISA_ShfHi_HI)
			srcs[ns++] = LEA_rc;
		break;
	case ISA_OPT_LOP3_LUT:
		srcs[ns++] = LOP3_LUT_ra, srcs[ns++] = LOP3_LUT_b, srcs[ns++] = LOP3_LUT_rc;
		break;
	case ISA_OPT_SEL:
	case ISA_OPT_IMNMX:
		srcs[ns++] = SEL_ra, srcs[ns++] = SEL_b;
		break;
	case ISA_OPT_SHF:
		srcs[ns++] = SHF_ra, srcs[ns++] = SHF_b, srcs[ns++] = SHF_rc;
		break;
	case ISA_OPT_SHFL:
		srcs[ns++] = SHFL_ra, srcs[ns++] = SHFL_b, srcs[ns++] = SHFL_c;
		break;
	case ISA_OPT_POPC:
		srcs[ns++] = POPC_b;
		break;
	case ISA_OPT_VOTE:
		break;
	case ISA_OPT_FADD:
	case ISA_OPT_FMUL:
	case ISA_OPT_FFMA:
		/* the plain binary32 forms (.RZ/.FTZ/.SAT ... go to sem_num.c) */
		if (num_fmods(i))
			return false;
		_Static_assert(FADD_ra == FMUL_ra && FADD_b == FMUL_b && FADD_ra == FFMA_ra && FADD_b == FFMA_b,
			       "FADD, FMUL and FFMA name the same positions");
		srcs[ns++] = FADD_ra, srcs[ns++] = FADD_b;
		if (i->optype == ISA_OPT_FFMA)
			srcs[ns++] = FFMA_c;
		break;
	default:
		return false;
	}
	for (unsigned k = 0; k < ns; k++)
		if (!opd_ok(L, &i->o[srcs[k]], wide))
			return false;
	return true;
}

/* ---- the IR of a block -------------------------------------------------- */

/* The memory instructions one loop of a block checks at most (emit_run:
 * a phase). */
#define XJIT_PHASE 4
/* The loops of a block's restartable prefix at most (defer_plan) */
#define XJIT_PREFIX 8
/* The linear addresses one loop keeps at most (wide_linear) */
#define XJIT_LINEAR 8

typedef struct jb {
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMTypeRef i1, i8, i32, i64, f32, v32, v64, vf, vb;
	LLVMValueRef fma, ctpop, vctpop;
	LLVMTypeRef fma_t, ctpop_t, vctpop_t;
	/* the memory instructions' intrinsics: vector reductions over
	 * <32 x i32>, masked loads and stores of <32 x i32> and <32 x i64>
	 * ([0]: 32 bits, [1]: 64), masked gathers and scatters of them, and
	 * the prefetch (pf) */
	LLVMValueRef umin, umax, vor, cttz, ctlz, mload[4], mstore[2], gather[2], scatter[2], pf;
	LLVMTypeRef red_t, cttz_t, ctlz_t, mload_t[4], mstore_t[2], gather_t[2], scatter_t[2], pf_t;
	const we_launch_ctx *L;
	/* the function: its arguments, and whether some warp failed its
	 * check (fail) */
	LLVMValueRef fn, r0, n, w0, rt, fail;
	/* per memory instruction a loop checks, the k-th of its phase in
	 * slot k (the current one: slot): the host address minus the device
	 * address of each warp's window (delta[32 x i64]), the lanes' first
	 * address when they are consecutive (first[32 x i64], lane_range),
	 * and a global memory instruction's last allocation, [win[0],
	 * win[1]) at host address + wdelta: the warps of a loop mostly hit
	 * it */
	LLVMValueRef delta[XJIT_PHASE], first[XJIT_PHASE], win[XJIT_PHASE], wdelta[XJIT_PHASE];
	/* whether the window holds at least rt->stream_min bytes (i1,
	 * win_big: emit_stream) */
	LLVMValueRef wbig[XJIT_PHASE];
	unsigned slot;
	/* the kernel has global adds that a turn holds back (exec/red.h,
	 * held_add): its compiled global accesses other than those apply what
	 * the turn holds when they overlap it (emit_settle), each warp's host
	 * bytes [hlo, hhi) from its check (per slot, [32 x i64] each) */
	bool holds;
	LLVMValueRef hlo[XJIT_PHASE], hhi[XJIT_PHASE];
	uint32_t q;                /* the checked instruction's index in the
				      kernel (emit_mem_check)          */
	/* a run's memory instructions (mem: indices into it) and its phases
	 * (ph: indices into mem), emit_run's; room for a kernel's */
	uint32_t *mem, *ph;
	/* the arguments of rt->lanes: host addresses, low and high words */
	LLVMValueRef loff, llo, lhi;
	LLVMValueRef shfl;         /* SHFL's source row ([32 x i32]), emit_shfl */
	LLVMValueRef j;            /* the warp of the current loop (i64)     */
	LLVMBasicBlockRef head;    /* the current loop's first block         */
	LLVMBasicBlockRef latch;   /* its last: the next warp                */
	LLVMBasicBlockRef out;     /* the block after it                     */
	/* the lists of warps (emit_run): wl[x] the indices of the warps whose
	 * guard of the next loop (gnext) holds in some lane, nwl[x] their
	 * number; the current loop reads list lin and writes list lout (-1:
	 * none) */
	LLVMValueRef wl[2], nwl[2], idx;
	int lin, lout;
	const xinsn *gnext;
	/* per warp of the loop */
	LLVMValueRef r, stride, w; /* its rows, the row stride, its we_warp */
	LLVMValueRef params;       /* the launch's parameters (i8*)          */
	LLVMValueRef count;        /* thread-instructions so far (i32)       */
	uint32_t nrows;
	LLVMValueRef *row;         /* current value of each row, or NULL     */
	bool *dirty;
	LLVMValueRef pred[WE_NUM_PREDS];
	bool pdirty[WE_NUM_PREDS];
	/* the current loop's 64-bit values that an IMAD.WIDE by 2^sh (U32
	 * when u, else S32) made of a row a and a register pair uniform over
	 * the lanes (the scalars c0, c1): its rows' values lo and hi, lane
	 * l's c + (a[l] << sh) in the lanes under its guard: all, or those
	 * of predicate value g (negated when gx).  When a[l] is a[0] + l
	 * without wrapping, lane l's is lane 0's plus l << sh: a check tests
	 * that once per warp instead of the low and the high words of every
	 * lane (lane_range_linear).  Emptied at each loop's start
	 * (cache_reset). */
	struct xlinear {
		LLVMValueRef lo, hi, a, c0, c1, g;
		unsigned sh;
		bool u, gx;
	} linear[XJIT_LINEAR];
	unsigned nlinear;
	/* a block function's rows that hold a parameter or an immediate in
	 * every lane, the source operand of the unguarded MOV that wrote them
	 * last in the code emitted so far (uniform_after), or the kernel's
	 * (kuni, kernel_uniform): read again from there, not from the
	 * register file, so that a later loop knows them uniform (splat_of) */
	const xopd **uni, **kuni;
	/* the registers live at each instruction of the kernel and after its
	 * last (live_regs; NULL: all of them), and the instruction where the
	 * current loop's warps go on (emit_run): a row written that is not
	 * live there is not stored */
	regset *live;
	uint32_t after;
	/* a loop of the run's restartable prefix (defer_plan, pcmode other
	 * than PC_WARP): its side exit goes back to the run's first
	 * instruction, taking back the thread-instructions that the prefix
	 * counted (pcount, [32 x i64], per warp), and the rows of defer
	 * (empty outside the prefix), which only the run's side exit or its
	 * phase's accesses would read, stay unstored (a non-consecutive
	 * access's address row is stored by its check) */
	regset defer;
	LLVMValueRef pcount;
	/* what warp_end records of the loop's thread-instructions besides
	 * counting them in the warp: nothing (PC_WARP: not in the prefix),
	 * or them in pcount, set by the prefix's first loop where it ends
	 * every warp (PC_SET) and added otherwise (PC_ADD) */
	enum { PC_WARP, PC_SET, PC_ADD } pcmode;
	/* the instruction's guard: NULL when all ones */
	LLVMValueRef pm;
	/* the warp function (single): one warp, no loop over warps; act its
	 * ActiveMask in the current run (ANDed into every guard: pm is never
	 * NULL then), done the instructions run so far (an i64 slot), budget
	 * its argument, lbl each instruction's entry block or NULL, base the
	 * kernel's first instruction and q0 the current run's first (its
	 * index from base) */
	bool single;
	LLVMValueRef act, done, budget, pc0;
	LLVMBasicBlockRef *lbl, disp;
	const xinsn *base;
	uint32_t q0, ni;
	/* the warp function's own copies of its warp's fields (ws, nws of
	 * them; none in a block function): allocas, which mem2reg makes
	 * values in registers.  Each one used is loaded where the function
	 * starts (the end of block wentry) and stored back where it returns
	 * (leave): wslots */
	struct wcopy {
		size_t off;
		LLVMTypeRef t;
		LLVMValueRef p;
		bool used;
	} ws[40];
	unsigned nws;
	LLVMBasicBlockRef wentry, leave;
} jb;

static LLVMValueRef c32(jb *b, uint32_t v) { return LLVMConstInt(b->i32, v, false); }
static LLVMValueRef c64(jb *b, uint64_t v) { return LLVMConstInt(b->i64, v, false); }
static LLVMValueRef splat32(jb *b, uint32_t v)
{
	LLVMValueRef e[XLANES];
	for (unsigned l = 0; l < XLANES; l++)
		e[l] = c32(b, v);
	return LLVMConstVector(e, XLANES);
}
static LLVMValueRef splat64(jb *b, uint64_t v)
{
	LLVMValueRef e[XLANES];
	for (unsigned l = 0; l < XLANES; l++)
		e[l] = c64(b, v);
	return LLVMConstVector(e, XLANES);
}
/* A pointer of type t* to byte offset off of base (an i8*): in the warp
 * function, the copy of its warp's field there if it keeps one. */
static LLVMValueRef field_ptr(jb *b, LLVMValueRef base, uint64_t off, LLVMTypeRef t)
{
	for (unsigned k = 0; k < b->nws && base == b->w0; k++)
		if (b->ws[k].off == off) {
			b->ws[k].used = true;
			return LLVMBuildBitCast(b->b, b->ws[k].p, LLVMPointerType(t, 0), "");
		}
	LLVMValueRef idx = c64(b, off);
	LLVMValueRef p = LLVMBuildInBoundsGEP2(b->b, b->i8, base, &idx, 1, "");
	return LLVMBuildBitCast(b->b, p, LLVMPointerType(t, 0), "");
}

/* The vector of a memory access's 32 lanes: [0] 32 bits, [1] 64, [2] 8,
 * [3] 16 (mem_vkind). */
static LLVMTypeRef mem_vtype(jb *b, unsigned k)
{
	return k == 0 ? b->v32 : k == 1 ? b->v64 : LLVMVectorType(k == 2 ? b->i8 : LLVMInt16TypeInContext(b->cx), XLANES);
}

/* A new basic block of the current function. */
static LLVMBasicBlockRef wblock(jb *b, const char *name) { return LLVMAppendBasicBlockInContext(b->cx, b->fn, name); }

static LLVMValueRef row_ptr(jb *b, unsigned row)
{
	LLVMValueRef off = LLVMBuildMul(b->b, c64(b, row), b->stride, "");
	LLVMValueRef p = LLVMBuildInBoundsGEP2(b->b, b->i32, b->r, &off, 1, "");
	return LLVMBuildBitCast(b->b, p, LLVMPointerType(b->v32, 0), "");
}

static LLVMValueRef src(jb *b, const xopd *o, unsigned k, bool mods);
static LLVMValueRef get_row(jb *b, unsigned row)
{
	if (!b->row[row] && !b->single && b->uni[row])
		b->row[row] = src(b, b->uni[row], 0, true);
	if (!b->row[row]) {
		LLVMValueRef v = LLVMBuildLoad2(b->b, b->v32, row_ptr(b, row), "");
		LLVMSetAlignment(v, 4);
		b->row[row] = v;
	}
	return b->row[row];
}

/* The guard's lanes as a vector of i1. */
static LLVMValueRef pm_lanes(jb *b)
{
	return LLVMBuildBitCast(b->b, b->pm, b->vb, "");
}

/* Write v to register reg of destination o (xwrite: the guard's lanes;
 * RZ writes go to the sink rows, which nothing reads: dropped). */
static void set_row(jb *b, const xopd *o, unsigned k, LLVMValueRef v)
{
	if (o->reg == 255)
		return;
	const unsigned row = o->row + k;
	if (b->pm)
		v = LLVMBuildSelect(b->b, pm_lanes(b), v, get_row(b, row), "");
	b->row[row] = v;
	b->dirty[row] = true;
}

/* The offset in we_warp of predicate p */
static size_t pred_off(unsigned p) { return offsetof(we_warp, p) + 4u * p; }

static LLVMValueRef get_pred(jb *b, unsigned p)
{
	if (p == 7)
		return c32(b, 0xffffffffu);
	if (!b->pred[p]) {
		LLVMValueRef v = LLVMBuildLoad2(b->b, b->i32,
						field_ptr(b, b->w, pred_off(p), b->i32), "");
		b->pred[p] = v;
	}
	return b->pred[p];
}

/* A predicate source with its '!' (wpred). */
static LLVMValueRef pred_src(jb *b, const xopd *o)
{
	LLVMValueRef v = get_pred(b, o->row);
	return (o->flags & XF_NOT) ? LLVMBuildNot(b->b, v, "") : v;
}

/* wset_pred with mask = the guard's lanes */
static void set_pred(jb *b, const xopd *o, LLVMValueRef v)
{
	if (o->row == 7)
		return;
	if (b->pm) {
		LLVMValueRef old = get_pred(b, o->row);
		v = LLVMBuildOr(b->b, LLVMBuildAnd(b->b, old, LLVMBuildNot(b->b, b->pm, ""), ""),
				LLVMBuildAnd(b->b, v, b->pm, ""), "");
	}
	b->pred[o->row] = v;
	b->pdirty[o->row] = true;
}

/* int_mod (operand.c): |v|, then -v, then ~v, as the flags say */
static LLVMValueRef int_mods(jb *b, LLVMValueRef v, unsigned flags)
{
	if (flags & XF_ABS) {
		LLVMValueRef neg = LLVMBuildICmp(b->b, LLVMIntSLT, v, splat32(b, 0), "");
		v = LLVMBuildSelect(b->b, neg, LLVMBuildSub(b->b, splat32(b, 0), v, ""), v, "");
	}
	if (flags & XF_NEG)
		v = LLVMBuildSub(b->b, splat32(b, 0), v, "");
	if (flags & XF_BITNOT)
		v = LLVMBuildNot(b->b, v, "");
	return v;
}

/* xsrc: register k of source o in every lane, integer modifiers applied
 * when mods (opd_ok allowed only registers, immediates and in-range
 * parameters). */
static LLVMValueRef src(jb *b, const xopd *o, unsigned k, bool mods)
{
	LLVMValueRef v;
	if (o->kind == XO_REG) {
		v = o->reg == 255 ? splat32(b, 0) : get_row(b, o->row + k);
	} else if (o->kind == XO_CMEM) {
		/* the launch's word, in every lane (jit.h: read at run time) */
		LLVMValueRef s = LLVMBuildLoad2(b->b, b->i32,
						field_ptr(b, b->params, (uint64_t)o->imm + 4u * k, b->i32), "");
		LLVMSetAlignment(s, 1);
		v = LLVMBuildInsertElement(b->b, LLVMGetUndef(b->v32), s, c32(b, 0), "");
		v = LLVMBuildShuffleVector(b->b, v, LLVMGetUndef(b->v32), LLVMConstNull(b->v32), "");
	} else {
		v = splat32(b, ximm_word(o, k));
	}
	return mods ? int_mods(b, v, o->flags) : v;
}

/* ---- the instructions ---------------------------------------------------- */

static LLVMValueRef zext64(jb *b, LLVMValueRef v) { return LLVMBuildZExt(b->b, v, b->v64, ""); }
static LLVMValueRef sext64(jb *b, LLVMValueRef v) { return LLVMBuildSExt(b->b, v, b->v64, ""); }
static LLVMValueRef lo32(jb *b, LLVMValueRef v) { return LLVMBuildTrunc(b->b, v, b->v32, ""); }
static LLVMValueRef hi32(jb *b, LLVMValueRef v)
{
	return lo32(b, LLVMBuildLShr(b->b, v, splat64(b, 32), ""));
}
/* a <32 x i1> as a lane mask */
static LLVMValueRef lane_mask(jb *b, LLVMValueRef v) { return LLVMBuildBitCast(b->b, v, b->i32, ""); }

/* IADD3 (sem_alu.c): the 34-bit sum of the operands, complemented where
 * negated, plus the carry-in; Pu, Pv from its carry out */
static void emit_iadd3(jb *b, const xinsn *i)
{
	const xopd *oa = &i->o[IADD3_ra], *ob = &i->o[IADD3_b], *oc = &i->o[IADD3_rc];
	const unsigned inv = XF_NEG | XF_BITNOT;
	LLVMValueRef s = NULL;
	const xopd *ops[3] = { oa, ob, oc };
	for (unsigned k = 0; k < 3; k++) {
		LLVMValueRef v = src(b, ops[k], 0, false);
		if (ops[k]->flags & inv)
			v = LLVMBuildNot(b->b, v, "");
		v = zext64(b, v);
		s = s ? LLVMBuildAdd(b->b, s, v, "") : v;
	}
	LLVMValueRef cin;
	if (i->in->x == ISA_AddX_X) {
		/* Pp + Pq, lane by lane */
		LLVMValueRef pp = LLVMBuildBitCast(b->b, pred_src(b, &i->o[IADD3_pp]), b->vb, "");
		LLVMValueRef pq = LLVMBuildBitCast(b->b, pred_src(b, &i->o[IADD3_pq]), b->vb, "");
		cin = LLVMBuildAdd(b->b, LLVMBuildZExt(b->b, pp, b->v64, ""), LLVMBuildZExt(b->b, pq, b->v64, ""), "");
	} else {
		cin = splat64(b, (uint64_t)(!!(oa->flags & XF_NEG) + !!(ob->flags & XF_NEG) + !!(oc->flags & XF_NEG)));
	}
	s = LLVMBuildAdd(b->b, s, cin, "");
	const xopd *pu = &i->o[IADD3_pu], *pv = &i->o[IADD3_pv];
	if (pu->row != 7 || pv->row != 7) {
		LLVMValueRef carry = LLVMBuildLShr(b->b, s, splat64(b, 32), "");
		set_pred(b, pu, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntUGE, carry, splat64(b, 1), "")));
		set_pred(b, pv, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntUGE, carry, splat64(b, 2), "")));
	}
	set_row(b, &i->o[IADD3_rd], 0, lo32(b, s));
}

/* LEA{.HI}{.X} (sem_alu.c): Rb + (Ra << shift), .HI the high word of
 * (Rc:Ra) << shift, .X plus Pp; Pu the carry out */
static void emit_lea(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[LEA_ra], 0, true), sh;
	const unsigned n = (unsigned)i->in->shift & 31u;
	if (i->in->hi == ISA_ShfHi_HI) {
		LLVMValueRef c = src(b, &i->o[LEA_rc], 0, true);
		LLVMValueRef ca = LLVMBuildOr(b->b, LLVMBuildShl(b->b, zext64(b, c), splat64(b, 32), ""), zext64(b, a), "");
		sh = hi32(b, LLVMBuildShl(b->b, ca, splat64(b, n), ""));
	} else {
		sh = LLVMBuildShl(b->b, a, splat32(b, n), "");
	}
	LLVMValueRef r = LLVMBuildAdd(b->b, zext64(b, src(b, &i->o[LEA_b], 0, true)), zext64(b, sh), "");
	if (i->in->x == ISA_AddX_X)
		r = LLVMBuildAdd(b->b, r,
				 LLVMBuildZExt(b->b, LLVMBuildBitCast(b->b, pred_src(b, &i->o[LEA_pp]), b->vb, ""), b->v64, ""),
				 "");
	if (i->o[LEA_pu].row != 7)
		set_pred(b, &i->o[LEA_pu],
			 lane_mask(b, LLVMBuildICmp(b->b, LLVMIntNE, LLVMBuildLShr(b->b, r, splat64(b, 32), ""), splat64(b, 0), "")));
	set_row(b, &i->o[LEA_rd], 0, lo32(b, r));
}

static void emit_imad(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[IMAD_ra], 0, true);
	LLVMValueRef bb = src(b, &i->o[IMAD_b], 0, true);
	LLVMValueRef c = src(b, &i->o[IMAD_c], 0, true);
	LLVMValueRef r;
	if (i->in->mode == ISA_IMADMode_HI) {
		const bool u = i->in->sign == ISA_Signedness_U32;
		LLVMValueRef p = u ? LLVMBuildMul(b->b, zext64(b, a), zext64(b, bb), "")
				   : LLVMBuildMul(b->b, sext64(b, a), sext64(b, bb), "");
		r = LLVMBuildAdd(b->b, hi32(b, p), c, "");
	} else {
		/* LO, SHL, MOV: the low word does not depend on signedness */
		r = LLVMBuildAdd(b->b, LLVMBuildMul(b->b, a, bb, ""), c, "");
	}
	set_row(b, &i->o[IMAD_rd], 0, r);
}

/* The scalar that vector v holds in every lane, when its form says so
 * (a constant, or bcast's and src's insertion into lane 0 and
 * shuffle), else NULL. */
static LLVMValueRef splat_of(LLVMValueRef v)
{
	if (LLVMIsAConstantAggregateZero(v))
		return LLVMConstNull(LLVMGetElementType(LLVMTypeOf(v)));
	if (LLVMIsAConstantDataVector(v)) {
		LLVMValueRef e0 = LLVMGetElementAsConstant(v, 0);
		for (unsigned l = 1; l < XLANES; l++)
			if (LLVMGetElementAsConstant(v, l) != e0)
				return NULL;
		return e0;
	}
	if (!LLVMIsAShuffleVectorInst(v) || LLVMGetNumMaskElements(v) != XLANES)
		return NULL;
	for (unsigned l = 0; l < XLANES; l++)
		if (LLVMGetMaskValue(v, l) != 0)
			return NULL;
	LLVMValueRef ins = LLVMGetOperand(v, 0), k;
	if (!LLVMIsAInsertElementInst(ins) || !LLVMIsAConstantInt(k = LLVMGetOperand(ins, 2)) ||
	    LLVMConstIntGetZExtValue(k) != 0)
		return NULL;
	return LLVMGetOperand(ins, 1);
}

/* IMAD.WIDE i just wrote c + (a << sh) to its pair of rows: kept for
 * the checks of the loop (jb.linear) when c is uniform over the lanes
 * and i unguarded (in the warp function, the lanes it leaves are
 * outside every later guard) or, in a block function, guarded by a
 * predicate's value (its guard's lanes, those of a check under it). */
static void wide_linear(jb *b, const xinsn *i, LLVMValueRef a, LLVMValueRef c0, LLVMValueRef c1, unsigned sh, bool u)
{
	const xopd *d = &i->o[IMAD_WIDE_rd];
	LLVMValueRef s0 = splat_of(c0), s1 = splat_of(c1);
	if (d->reg == 255 || !s0 || !s1 || b->nlinear == XJIT_LINEAR || (!xunguarded(i) && b->single))
		return;
	b->linear[b->nlinear++] = (struct xlinear){ b->row[d->row], b->row[d->row + 1u], a, s0, s1,
						    xunguarded(i) ? NULL : get_pred(b, i->pg), sh, u, i->pg_xor != 0 };
}

/* The operand that i, an unguarded MOV into a register of a parameter
 * word or an immediate that jit.c compiles, writes in every lane; else
 * NULL. */
static const xopd *uniform_mov(const we_launch_ctx *L, const xinsn *i)
{
	const xopd *s = &i->o[MOV_b];
	return i->optype == ISA_OPT_MOV && xunguarded(i) && i->o[MOV_rd].reg != 255 &&
			       (s->kind == XO_CMEM || s->kind == XO_IMM) && opd_ok(L, s, 1)
		       ? s
		       : NULL;
}

/* A block function's record of what i (emitted) leaves uniform in the
 * rows it writes (jb.uni). */
static void uniform_after(jb *b, const xinsn *i)
{
	if (b->single)
		return;
	regset outs = { { 0 } };
	xflow_outs(i, &outs);
	for (unsigned r = 0; r < b->L->k->nregs && r < 256; r++)
		if (regs_has(&outs, r))
			b->uni[r] = NULL;
	const xopd *s = uniform_mov(b->L, i);
	if (s)
		b->uni[i->o[MOV_rd].row] = s;
}

static void emit_imad_wide(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[IMAD_WIDE_ra], 0, true);
	LLVMValueRef c0 = src(b, &i->o[IMAD_WIDE_c], 0, true);
	LLVMValueRef c1 = src(b, &i->o[IMAD_WIDE_c], 1, false);
	const bool u = i->in->sign == ISA_Signedness_U32;
	const int sh = ximm_log2(&i->o[IMAD_WIDE_b]);
	if (sh >= 0) {
		/* b = 2^sh (an address's scale): in 32-bit lanes, as
		 * sem_alu.c's chunks, a << sh with the bits shifted out (for
		 * S32 the sign too) as the high word, plus c with the low
		 * word's carry.  In 64-bit lanes LLVM does each step on four
		 * vectors and splits the words after. */
		LLVMValueRef plo = sh ? LLVMBuildShl(b->b, a, splat32(b, (uint32_t)sh), "") : a;
		LLVMValueRef phi = sh ? (u ? LLVMBuildLShr(b->b, a, splat32(b, 32u - (uint32_t)sh), "")
					   : LLVMBuildAShr(b->b, a, splat32(b, 32u - (uint32_t)sh), ""))
				      : (u ? splat32(b, 0) : LLVMBuildAShr(b->b, a, splat32(b, 31), ""));
		LLVMValueRef lo = LLVMBuildAdd(b->b, plo, c0, "");
		LLVMValueRef carry = LLVMBuildZExt(b->b, LLVMBuildICmp(b->b, LLVMIntULT, lo, c0, ""), b->v32, "");
		set_row(b, &i->o[IMAD_WIDE_rd], 0, lo);
		set_row(b, &i->o[IMAD_WIDE_rd], 1, LLVMBuildAdd(b->b, LLVMBuildAdd(b->b, phi, c1, ""), carry, ""));
		wide_linear(b, i, a, c0, c1, (unsigned)sh, u);
		return;
	}
	LLVMValueRef bb = src(b, &i->o[IMAD_WIDE_b], 0, true);
	LLVMValueRef p = u ? LLVMBuildMul(b->b, zext64(b, a), zext64(b, bb), "")
			   : LLVMBuildMul(b->b, sext64(b, a), sext64(b, bb), "");
	LLVMValueRef c = LLVMBuildOr(b->b, LLVMBuildShl(b->b, zext64(b, c1), splat64(b, 32), ""), zext64(b, c0), "");
	LLVMValueRef r = LLVMBuildAdd(b->b, p, c, "");
	set_row(b, &i->o[IMAD_WIDE_rd], 0, lo32(b, r));
	set_row(b, &i->o[IMAD_WIDE_rd], 1, hi32(b, r));
}

/* ISETP: the comparison's lane mask t, then sem_setp_warp */
static void emit_isetp(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[ISETP_ra], 0, true);
	LLVMValueRef bb = src(b, &i->o[ISETP_b], 0, true);
	const bool u = i->in->sign == ISA_Signedness_U32;
	/* cmp: a mask of LT=1, EQ=2, GT=4 (icmp, sem_alu.c) */
	static const LLVMIntPredicate sp[8] = { 0, LLVMIntSLT, LLVMIntEQ, LLVMIntSLE,
						LLVMIntSGT, LLVMIntNE, LLVMIntSGE, 0 };
	static const LLVMIntPredicate up[8] = { 0, LLVMIntULT, LLVMIntEQ, LLVMIntULE,
						LLVMIntUGT, LLVMIntNE, LLVMIntUGE, 0 };
	const unsigned cmp = (unsigned)i->in->cmp & 7u;
	LLVMValueRef t;
	if (cmp == 0 || cmp == 7)
		t = c32(b, cmp ? 0xffffffffu : 0u);
	else
		t = lane_mask(b, LLVMBuildICmp(b->b, u ? up[cmp] : sp[cmp], a, bb, ""));
	LLVMValueRef p = pred_src(b, &i->o[ISETP_pp]), nt = LLVMBuildNot(b->b, t, ""), vu, vv;
	switch (i->in->bop) {
	case ISA_BoolOp_OR:
		vu = LLVMBuildOr(b->b, t, p, "");
		vv = LLVMBuildOr(b->b, nt, p, "");
		break;
	case ISA_BoolOp_XOR:
		vu = LLVMBuildXor(b->b, t, p, "");
		vv = LLVMBuildXor(b->b, nt, p, "");
		break;
	default:
		vu = LLVMBuildAnd(b->b, t, p, "");
		vv = LLVMBuildAnd(b->b, nt, p, "");
		break;
	}
	set_pred(b, &i->o[ISETP_pu], vu);
	set_pred(b, &i->o[ISETP_pv], vv);
}

/* LOP3.LUT: bit i of the result is bit (a_i*4 + b_i*2 + c_i) of lut (the
 * OR of the table's minterms; LLVM folds the usual tables) */
static void emit_lop3(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[LOP3_LUT_ra], 0, true);
	LLVMValueRef bb = src(b, &i->o[LOP3_LUT_b], 0, true);
	LLVMValueRef c = src(b, &i->o[LOP3_LUT_rc], 0, true);
	LLVMValueRef na = LLVMBuildNot(b->b, a, ""), nb = LLVMBuildNot(b->b, bb, ""), nc = LLVMBuildNot(b->b, c, "");
	const unsigned lut = (unsigned)i->in->lut & 0xffu;
	LLVMValueRef r = splat32(b, 0);
	for (unsigned m = 0; m < 8; m++) {
		if (!((lut >> m) & 1u))
			continue;
		LLVMValueRef t = LLVMBuildAnd(b->b, (m & 4) ? a : na, (m & 2) ? bb : nb, "");
		r = LLVMBuildOr(b->b, r, LLVMBuildAnd(b->b, t, (m & 1) ? c : nc, ""), "");
	}
	const xopd *pu = &i->o[LOP3_LUT_pu];
	if (pu->row != 7)
		set_pred(b, pu, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntNE, r, splat32(b, 0), "")));
	set_row(b, &i->o[LOP3_LUT_rd], 0, r);
}

/* SEL and IMNMX (sem_alu.c): Ra where {!}Pp, else B; IMNMX takes Ra
 * for the minimum (Pp) when Ra < B, for the maximum (!Pp) when not */
_Static_assert(SEL_rd == IMNMX_rd && SEL_ra == IMNMX_ra && SEL_b == IMNMX_b && SEL_pp == IMNMX_pp,
	       "SEL and IMNMX name the same positions");
static void emit_sel(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[SEL_ra], 0, true);
	LLVMValueRef bb = src(b, &i->o[SEL_b], 0, true);
	LLVMValueRef take = LLVMBuildBitCast(b->b, pred_src(b, &i->o[SEL_pp]), b->vb, "");
	if (i->optype == ISA_OPT_IMNMX) {
		const bool u = i->in->sign == ISA_Signedness_U32;
		LLVMValueRef lt = LLVMBuildICmp(b->b, u ? LLVMIntULT : LLVMIntSLT, a, bb, "");
		take = LLVMBuildNot(b->b, LLVMBuildXor(b->b, lt, take, ""), "");
	}
	set_row(b, &i->o[SEL_rd], 0, LLVMBuildSelect(b->b, take, a, bb, ""));
}

/* SHF: shift the 64-bit Rc:Ra (the handler's lane loops; a count past the
 * width gives 0, or the sign for an arithmetic right shift) */
static void emit_shf(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[SHF_ra], 0, true);
	LLVMValueRef bb = src(b, &i->o[SHF_b], 0, true);
	LLVMValueRef c = src(b, &i->o[SHF_rc], 0, true);
	const unsigned type = (unsigned)i->in->type;
	const uint32_t width = type == ISA_ShfType_S64 || type == ISA_ShfType_U64 ? 64u : 32u;
	const bool arith = type == ISA_ShfType_S32 || type == ISA_ShfType_S64;
	LLVMValueRef n;
	if (i->in->wrap == ISA_ShfWrap_W)
		n = LLVMBuildAnd(b->b, bb, splat32(b, width - 1u), "");
	else
		n = LLVMBuildSelect(b->b, LLVMBuildICmp(b->b, LLVMIntULT, bb, splat32(b, width), ""), bb,
				    splat32(b, width), "");
	n = zext64(b, n);
	LLVMValueRef v = LLVMBuildOr(b->b, LLVMBuildShl(b->b, zext64(b, c), splat64(b, 32), ""), zext64(b, a), "");
	LLVMValueRef big = LLVMBuildICmp(b->b, LLVMIntUGE, n, splat64(b, 64), "");
	LLVMValueRef n63 = LLVMBuildSelect(b->b, big, splat64(b, 63), n, "");
	LLVMValueRef r;
	if (i->in->dir == ISA_ShfDir_L)
		r = LLVMBuildSelect(b->b, big, splat64(b, 0), LLVMBuildShl(b->b, v, n63, ""), "");
	else if (arith)
		r = LLVMBuildAShr(b->b, v, n63, "");
	else
		r = LLVMBuildSelect(b->b, big, splat64(b, 0), LLVMBuildLShr(b->b, v, n63, ""), "");
	set_row(b, &i->o[SHF_rd], 0, i->in->hi == ISA_ShfHi_HI ? hi32(b, r) : lo32(b, r));
}

/* fsrc (sem_float.h): the bits with |x| and -x applied, as binary32 */
static LLVMValueRef fsrc_ir(jb *b, const xopd *o)
{
	LLVMValueRef v = src(b, o, 0, false);
	if (o->flags & XF_ABS)
		v = LLVMBuildAnd(b->b, v, splat32(b, 0x7fffffffu), "");
	if (o->flags & XF_NEG)
		v = LLVMBuildXor(b->b, v, splat32(b, 0x80000000u), "");
	return LLVMBuildBitCast(b->b, v, b->vf, "");
}

/* FADD, FMUL, FFMA: IEEE binary32, round to nearest even, NaN results
 * canonical (fres) */
static void emit_farith(jb *b, const xinsn *i)
{
	LLVMValueRef a = fsrc_ir(b, &i->o[FADD_ra]), bb = fsrc_ir(b, &i->o[FADD_b]), r;
	if (i->optype == ISA_OPT_FADD) {
		r = LLVMBuildFAdd(b->b, a, bb, "");
	} else if (i->optype == ISA_OPT_FMUL) {
		r = LLVMBuildFMul(b->b, a, bb, "");
	} else {
		LLVMValueRef args[3] = { a, bb, fsrc_ir(b, &i->o[FFMA_c]) };
		r = LLVMBuildCall2(b->b, b->fma_t, b->fma, args, 3, "");
	}
	LLVMValueRef nan = LLVMBuildFCmp(b->b, LLVMRealUNO, r, r, "");
	r = LLVMBuildSelect(b->b, nan, splat32(b, CANON_NAN), LLVMBuildBitCast(b->b, r, b->v32, ""), "");
	_Static_assert(FADD_rd == FMUL_rd && FADD_rd == FFMA_rd, "one destination position");
	set_row(b, &i->o[FADD_rd], 0, r);
}

/* ---- special registers (sem_warp.c's sreg, s2r_one) ------------------------ */

/* A uint32_t field at byte offset off of the structure at p (an i8*). */
static LLVMValueRef load_u32(jb *b, LLVMValueRef p, size_t off)
{
	return LLVMBuildLoad2(b->b, b->i32, field_ptr(b, p, off, b->i32), "");
}

/* The launch's we_launch_ctx and the current warp's CTA (i8*). */
static LLVMValueRef launch_ptr(jb *b);
static LLVMValueRef bcast(jb *b, LLVMValueRef s);
static LLVMValueRef cta_ptr(jb *b)
{
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0);
	return LLVMBuildLoad2(b->b, pi8, field_ptr(b, b->w, offsetof(we_warp, cta), pi8), "");
}

/* <f(0), ..., f(31)> of a lane function as constants */
static LLVMValueRef lane_consts(jb *b, unsigned sr)
{
	LLVMValueRef e[XLANES];
	for (unsigned l = 0; l < XLANES; l++) {
		uint32_t v;
		switch (sr) {
		case ISA_SReg_SR_EQMASK: v = 1u << l; break;
		case ISA_SReg_SR_LTMASK: v = (1u << l) - 1u; break;
		case ISA_SReg_SR_LEMASK: v = (uint32_t)((UINT64_C(2) << l) - 1u); break;
		case ISA_SReg_SR_GTMASK: v = (uint32_t)(~UINT64_C(0) << (l + 1)); break;
		case ISA_SReg_SR_GEMASK: v = ~0u << l; break;
		default: v = l; break; /* LANEID */
		}
		e[l] = c32(b, v);
	}
	return LLVMConstVector(e, XLANES);
}

/* SR_TID.X/Y/Z (dim 0, 1, 2) of the current warp: lane l is the CTA's
 * thread t = id * 32 + l; tid.x = t % bx, tid.y = (t / bx) % by, tid.z =
 * t / (bx * by) (a dimension of 0 counts as 1).  When bx is a multiple of
 * 32 the warp lies in one row of x: x counts up from lane 0's, y and z are
 * lane 0's (three divisions per warp, as s2r_one, and none when lane 0
 * is in the first row: every warp of a one-dimensional CTA); else lane by
 * lane. */
static LLVMValueRef emit_tid(jb *b, unsigned dim)
{
	LLVMValueRef L = launch_ptr(b), zero = c32(b, 0), one = c32(b, 1);
	LLVMValueRef bx = load_u32(b, L, offsetof(we_launch_ctx, block.x));
	LLVMValueRef by = load_u32(b, L, offsetof(we_launch_ctx, block.y));
	bx = LLVMBuildSelect(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, bx, zero, ""), one, bx, "");
	by = LLVMBuildSelect(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, by, zero, ""), one, by, "");
	LLVMValueRef bxy = LLVMBuildMul(b->b, bx, by, "");
	LLVMValueRef t0 = LLVMBuildMul(b->b, load_u32(b, b->w, offsetof(we_warp, id)), c32(b, XLANES), "");
	LLVMValueRef lanes = lane_consts(b, ISA_SReg_SR_LANEID);
	LLVMBasicBlockRef row = LLVMAppendBasicBlockInContext(b->cx, b->fn, "tid_row");
	LLVMBasicBlockRef each = LLVMAppendBasicBlockInContext(b->cx, b->fn, "tid_lanes");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(b->cx, b->fn, "tid");
	LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(b->cx, b->fn, "tid_first");
	LLVMValueRef in_row = LLVMBuildICmp(b->b, LLVMIntEQ, LLVMBuildAnd(b->b, bx, c32(b, XLANES - 1u), ""), zero, "");
	LLVMBuildCondBr(b->b, in_row, first, each);
	/* lane 0 in the first row of x (for z: the first xy plane) */
	LLVMPositionBuilderAtEnd(b->b, first);
	LLVMValueRef vf = dim == 0 ? LLVMBuildAdd(b->b, bcast(b, t0), lanes, "") : splat32(b, 0);
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntULT, t0, dim == 2 ? bxy : bx, ""), join, row);
	LLVMPositionBuilderAtEnd(b->b, row);
	LLVMValueRef v0;
	if (dim == 0)
		v0 = LLVMBuildAdd(b->b, bcast(b, LLVMBuildURem(b->b, t0, bx, "")), lanes, "");
	else if (dim == 1)
		v0 = bcast(b, LLVMBuildURem(b->b, LLVMBuildUDiv(b->b, t0, bx, ""), by, ""));
	else
		v0 = bcast(b, LLVMBuildUDiv(b->b, t0, bxy, ""));
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, each);
	LLVMValueRef t = LLVMBuildAdd(b->b, bcast(b, t0), lanes, ""), v1;
	if (dim == 0)
		v1 = LLVMBuildURem(b->b, t, bcast(b, bx), "");
	else if (dim == 1)
		v1 = LLVMBuildURem(b->b, LLVMBuildUDiv(b->b, t, bcast(b, bx), ""), bcast(b, by), "");
	else
		v1 = LLVMBuildUDiv(b->b, t, bcast(b, bxy), "");
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
	LLVMValueRef v = LLVMBuildPhi(b->b, b->v32, "");
	LLVMValueRef vals[3] = { v0, v1, vf };
	LLVMBasicBlockRef from[3] = { row, each, first };
	LLVMAddIncoming(v, vals, from, 3);
	return v;
}

/* S2R of a register s2r_compilable allows, for the current warp */
static void emit_s2r(jb *b, const xinsn *i)
{
	const unsigned sr = (unsigned)i->in->sr;
	LLVMValueRef v;
	switch (sr) {
	case ISA_SReg_SR_LANEID:
	case ISA_SReg_SR_EQMASK:
	case ISA_SReg_SR_LTMASK:
	case ISA_SReg_SR_LEMASK:
	case ISA_SReg_SR_GTMASK:
	case ISA_SReg_SR_GEMASK:
		v = lane_consts(b, sr);
		break;
	case ISA_SReg_SR_TID_X:
	case ISA_SReg_SR_TID_Y:
	case ISA_SReg_SR_TID_Z:
		v = emit_tid(b, sr - ISA_SReg_SR_TID_X);
		break;
	case ISA_SReg_SR_CTAID_X:
	case ISA_SReg_SR_CTAID_Y:
	case ISA_SReg_SR_CTAID_Z:
		v = bcast(b, load_u32(b, cta_ptr(b), offsetof(we_cta, ctaid) + 4u * (sr - ISA_SReg_SR_CTAID_X)));
		break;
	case ISA_SReg_SR_NTID_X:
	case ISA_SReg_SR_NTID_Y:
	case ISA_SReg_SR_NTID_Z:
		v = bcast(b, load_u32(b, launch_ptr(b), offsetof(we_launch_ctx, block) + 4u * (sr - ISA_SReg_SR_NTID_X)));
		break;
	case ISA_SReg_SR_NCTAID_X:
	case ISA_SReg_SR_NCTAID_Y:
	case ISA_SReg_SR_NCTAID_Z:
		v = bcast(b, load_u32(b, launch_ptr(b), offsetof(we_launch_ctx, grid) + 4u * (sr - ISA_SReg_SR_NCTAID_X)));
		break;
	case ISA_SReg_SR_WARPID:
		v = bcast(b, load_u32(b, b->w, offsetof(we_warp, id)));
		break;
	case ISA_SReg_SR_NWARPS:
		v = bcast(b, load_u32(b, cta_ptr(b), offsetof(we_cta, nwarps)));
		break;
	default: /* SRZ */
		v = splat32(b, 0);
		break;
	}
	set_row(b, &i->o[S2R_rd], 0, v);
}

/* SHFL (sem_warp.c): lane l reads a in lane j, from its mode, b and c's
 * segment and clamp, where j is in range and under the guard, else its
 * own a; Pu: the lanes that read another's.  (A masked gather from the
 * row stored on the function's stack: LLVM's IR shuffles only by
 * constant lanes.) */
static void emit_shfl(jb *b, const xinsn *i)
{
	LLVMValueRef a = src(b, &i->o[SHFL_ra], 0, true);
	LLVMValueRef bv = LLVMBuildAnd(b->b, src(b, &i->o[SHFL_b], 0, true), splat32(b, 31), "");
	LLVMValueRef c = src(b, &i->o[SHFL_c], 0, true);
	LLVMValueRef seg = LLVMBuildAnd(b->b, LLVMBuildLShr(b->b, c, splat32(b, 8), ""), splat32(b, 31), "");
	LLVMValueRef clamp = LLVMBuildAnd(b->b, c, splat32(b, 31), "");
	LLVMValueRef ids[XLANES];
	for (unsigned l = 0; l < XLANES; l++)
		ids[l] = c32(b, l);
	LLVMValueRef lane = LLVMConstVector(ids, XLANES), nseg = LLVMBuildNot(b->b, seg, "");
	LLVMValueRef minl = LLVMBuildAnd(b->b, lane, seg, "");
	LLVMValueRef maxl = LLVMBuildOr(b->b, minl, LLVMBuildAnd(b->b, clamp, nseg, ""), "");
	LLVMValueRef j;
	LLVMIntPredicate cmp = LLVMIntSLE;
	switch (i->in->mode) {
	case ISA_ShflMode_UP:
		j = LLVMBuildSub(b->b, lane, bv, "");
		cmp = LLVMIntSGE;
		break;
	case ISA_ShflMode_DOWN: j = LLVMBuildAdd(b->b, lane, bv, ""); break;
	case ISA_ShflMode_BFLY: j = LLVMBuildXor(b->b, lane, bv, ""); break;
	default: j = LLVMBuildOr(b->b, minl, LLVMBuildAnd(b->b, bv, nseg, ""), ""); break;
	}
	/* (0 <= j < 32 as one unsigned test) */
	LLVMValueRef ok = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, cmp, j, maxl, ""),
				       LLVMBuildICmp(b->b, LLVMIntULT, j, splat32(b, XLANES), ""), "");
	LLVMValueRef jl = LLVMBuildAnd(b->b, j, splat32(b, XLANES - 1), "");
	if (b->pm) {
		LLVMValueRef on = LLVMBuildAnd(b->b, LLVMBuildLShr(b->b, bcast(b, b->pm), jl, ""), splat32(b, 1), "");
		ok = LLVMBuildAnd(b->b, ok, LLVMBuildICmp(b->b, LLVMIntNE, on, splat32(b, 0), ""), "");
	}
	LLVMValueRef row = LLVMBuildBitCast(b->b, b->shfl, LLVMPointerType(b->v32, 0), "");
	LLVMSetAlignment(LLVMBuildStore(b->b, a, row), 4);
	LLVMValueRef base = LLVMBuildBitCast(b->b, b->shfl, LLVMPointerType(b->i32, 0), "");
	LLVMValueRef ptrs = LLVMBuildInBoundsGEP2(b->b, b->i32, base, &jl, 1, "");
	LLVMValueRef args[4] = { ptrs, c32(b, 4), ok, a };
	LLVMValueRef got = LLVMBuildCall2(b->b, b->gather_t[0], b->gather[0], args, 4, "");
	set_pred(b, &i->o[SHFL_pu], lane_mask(b, ok));
	set_row(b, &i->o[SHFL_rd], 0, got);
}

/* VOTE (sem_warp.c): the ballot of {!}Pp over the lanes under the guard,
 * in Rd of each; Pu all, any or all-equal of it. */
static void emit_vote(jb *b, const xinsn *i)
{
	LLVMValueRef pm = b->pm ? b->pm : c32(b, 0xffffffffu);
	LLVMValueRef ballot = LLVMBuildAnd(b->b, pred_src(b, &i->o[VOTE_pp]), pm, "");
	LLVMValueRef r;
	switch (i->in->mode) {
	case ISA_VoteMode_ALL: r = LLVMBuildICmp(b->b, LLVMIntEQ, ballot, pm, ""); break;
	case ISA_VoteMode_ANY: r = LLVMBuildICmp(b->b, LLVMIntNE, ballot, c32(b, 0), ""); break;
	default:
		r = LLVMBuildOr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, ballot, c32(b, 0), ""),
				LLVMBuildICmp(b->b, LLVMIntEQ, ballot, pm, ""), "");
		break;
	}
	set_pred(b, &i->o[VOTE_pu], LLVMBuildSExt(b->b, r, b->i32, ""));
	set_row(b, &i->o[VOTE_rd], 0, bcast(b, ballot));
}

/* One instruction of the block for the current warp: its guard, its
 * thread count (count_insn), its semantics.  The callers run lockstep
 * groups, whose ActiveMask is all ones (jit.h): guard & ActiveMask is the
 * guard. */
static void set_guard(jb *b, const xinsn *i, bool count);
static void emit_insn(jb *b, const xinsn *i)
{
	set_guard(b, i, true);
	switch (i->optype) {
	case ISA_OPT_MOV:
		set_row(b, &i->o[MOV_rd], 0, src(b, &i->o[MOV_b], 0, true));
		break;
	case ISA_OPT_IADD3: emit_iadd3(b, i); break;
	case ISA_OPT_IMAD: emit_imad(b, i); break;
	case ISA_OPT_LEA: emit_lea(b, i); break;
	case ISA_OPT_IMAD_WIDE: emit_imad_wide(b, i); break;
	case ISA_OPT_ISETP: emit_isetp(b, i); break;
	case ISA_OPT_LOP3_LUT: emit_lop3(b, i); break;
	case ISA_OPT_SHF: emit_shf(b, i); break;
	case ISA_OPT_SHFL: emit_shfl(b, i); break;
	case ISA_OPT_VOTE: emit_vote(b, i); break;
	case ISA_OPT_POPC:
		set_row(b, &i->o[POPC_rd], 0,
			LLVMBuildCall2(b->b, b->vctpop_t, b->vctpop, (LLVMValueRef[]){ src(b, &i->o[POPC_b], 0, true) }, 1,
				       ""));
		break;
	case ISA_OPT_SEL:
	case ISA_OPT_IMNMX: emit_sel(b, i); break;
	case ISA_OPT_S2R: emit_s2r(b, i); break;
	case ISA_OPT_WARPSYNC:
		/* (warpsync_all: every thread went on) */
		LLVMBuildStore(b->b, c32(b, 0), field_ptr(b, b->w, offsetof(we_warp, sync_seen), b->i32));
		break;
	default: emit_farith(b, i); break;
	}
}

/* ---- loads and stores ------------------------------------------------------ */

/* a and c have the same guard */
static bool same_guard(const xinsn *a, const xinsn *c) { return a->pg == c->pg && a->pg_xor == c->pg_xor; }

/* The guard of i for the current warp in b->pm (NULL: all ones), and
 * when count its thread count (count_insn) where i has a guard or the
 * warp function runs it. */
static void set_guard(jb *b, const xinsn *i, bool count)
{
	if (xunguarded(i) && !b->act) {
		/* (a block function's caller counts every lane: xjit_unguarded) */
		b->pm = NULL;
		return;
	}
	if (xunguarded(i)) {
		b->pm = b->act;
	} else {
		LLVMValueRef g = get_pred(b, i->pg);
		b->pm = i->pg_xor ? LLVMBuildNot(b->b, g, "") : g;
		if (b->act)
			b->pm = LLVMBuildAnd(b->b, b->pm, b->act, "");
	}
	if (count)
		b->count = LLVMBuildAdd(b->b, b->count, LLVMBuildCall2(b->b, b->ctpop_t, b->ctpop, &b->pm, 1, ""), "");
}

static bool is_load(const xinsn *i) { return i->optype == ISA_OPT_LDG || i->optype == ISA_OPT_LDS; }
static bool is_narrow(const xinsn *i)
{
	const int sz = is_mem(i) && !is_atom(i) ? i->in->size : ISA_MemSize_32;
	return sz == ISA_MemSize_U8 || sz == ISA_MemSize_S8 || sz == ISA_MemSize_U16 || sz == ISA_MemSize_S16;
}
static bool is_global(const xinsn *i) { return i->optype == ISA_OPT_LDG || i->optype == ISA_OPT_STG || is_red(i); }
static unsigned mem_bytes(const xinsn *i)
{
	if (is_atom(i))
		return 4u;
	switch (i->in->size) {
	case ISA_MemSize_64: return 8u;
	case ISA_MemSize_U8:
	case ISA_MemSize_S8: return 1u;
	case ISA_MemSize_U16:
	case ISA_MemSize_S16: return 2u;
	default: return 4u;
	}
}
/* mem_vtype's index of i's access */
static unsigned mem_vkind(const xinsn *i)
{
	const unsigned n = mem_bytes(i);
	return n == 8 ? 1u : n == 1 ? 2u : n == 2 ? 3u : 0u;
}

/* The address operand of memory instruction i: [Ra + off], Ra the pair
 * R[a:a+1] for global memory (translate(), sem_mem.c). */
static const xopd *mem_opd(const xinsn *i)
{
	return &i->o[i->optype == ISA_OPT_RED	? RED_addr
		     : is_atom(i)		? ATOM_addr
		     : is_load(i)		? LD_addr
						: ST_addr];
}

static LLVMValueRef rt_field(jb *b, size_t off, LLVMTypeRef t)
{
	return LLVMBuildLoad2(b->b, t, field_ptr(b, b->rt, off, t), "");
}

static LLVMValueRef launch_ptr(jb *b)
{
	return rt_field(b, offsetof(xjit_rt, L), LLVMPointerType(b->i8, 0));
}

/* Element k (i64) of arr, an array [32 x i64] */
static LLVMValueRef lane_word(jb *b, LLVMValueRef arr, LLVMValueRef k)
{
	LLVMValueRef idx[2] = { c64(b, 0), k };
	return LLVMBuildInBoundsGEP2(b->b, LLVMArrayType(b->i64, XLANES), arr, idx, 2, "");
}
/* The current warp's delta and first address in the current slot */
static LLVMValueRef delta_slot(jb *b) { return lane_word(b, b->delta[b->slot], b->j); }
static LLVMValueRef first_slot(jb *b) { return lane_word(b, b->first[b->slot], b->j); }

/* No first address: the lanes are not consecutive (a start is below
 * 2^32). */
#define NOT_CONSECUTIVE UINT64_MAX
/* In a store's first address: it streams (emit_stream) */
#define STREAMS (UINT64_C(1) << 62)

/* The scalar s (i32 or i64) in every lane */
static LLVMValueRef bcast(jb *b, LLVMValueRef s)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(s), XLANES);
	LLVMValueRef v = LLVMBuildInsertElement(b->b, LLVMGetUndef(vt), s, c32(b, 0), "");
	return LLVMBuildShuffleVector(b->b, v, LLVMGetUndef(vt), LLVMConstNull(b->v32), "");
}

/* The first lane under the guard (0 without a guard, and when no lane
 * runs: cttz(0) & 31). */
static LLVMValueRef first_lane(jb *b)
{
	if (!b->pm)
		return c32(b, 0);
	LLVMValueRef args[2] = { b->pm, LLVMConstInt(b->i1, 0, false) };
	return LLVMBuildAnd(b->b, LLVMBuildCall2(b->b, b->cttz_t, b->cttz, args, 2, ""), c32(b, 31), "");
}

/* Element `first` (first_lane) of row v: lane 0's when the guard holds
 * there (a thread-index guard's usual case) without the variable index,
 * which x86 code takes through the stack (a store of the row and a load
 * of the word: a stall in reduce's partial warps).  Not in the warp
 * function, whose divergent paths start anywhere: the branch cost
 * diverge 2-5%. */
static LLVMValueRef first_value(jb *b, LLVMValueRef v, LLVMValueRef first)
{
	if (b->single)
		return LLVMBuildExtractElement(b->b, v, first, "");
	LLVMValueRef v0 = LLVMBuildExtractElement(b->b, v, c32(b, 0), "");
	if (!b->pm)
		return v0;
	LLVMBasicBlockRef from = LLVMGetInsertBlock(b->b), other = wblock(b, "first_other"), join = wblock(b, "first");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, first, c32(b, 0), ""), join, other);
	LLVMPositionBuilderAtEnd(b->b, other);
	LLVMValueRef vf = LLVMBuildExtractElement(b->b, v, first, "");
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
	LLVMValueRef phi = LLVMBuildPhi(b->b, LLVMTypeOf(v0), "");
	LLVMValueRef vals[2] = { v0, vf };
	LLVMBasicBlockRef in[2] = { from, other };
	LLVMAddIncoming(phi, vals, in, 2);
	return phi;
}

/* eq (<32 x i1>) holds in every lane under the guard. */
static LLVMValueRef all_on(jb *b, LLVMValueRef eq)
{
	if (b->pm)
		eq = LLVMBuildOr(b->b, eq, LLVMBuildNot(b->b, pm_lanes(b), ""), "");
	return LLVMBuildICmp(b->b, LLVMIntEQ, lane_mask(b, eq), c32(b, 0xffffffffu), "");
}

/* The entry of we_warp.jwin for the kernel's memory instruction q in
 * the function's first warp (an i8*), and its word k: lo, hi, delta. */
static LLVMValueRef jwin_entry(jb *b, uint32_t q)
{
	_Static_assert(sizeof(((we_warp *)0)->jwin[0]) == 24, "a jwin entry: three i64");
	const size_t off = offsetof(we_warp, jwin) + (size_t)(q % WE_JWINS) * 24u;
	LLVMValueRef idx = c64(b, off);
	return LLVMBuildInBoundsGEP2(b->b, b->i8, b->w0, &idx, 1, "");
}
static LLVMValueRef jwin_word(jb *b, LLVMValueRef e, unsigned k)
{
	LLVMValueRef idx = c64(b, 8u * k);
	return LLVMBuildBitCast(b->b, LLVMBuildInBoundsGEP2(b->b, b->i8, e, &idx, 1, ""), LLVMPointerType(b->i64, 0),
				"");
}

/* Word k of the current slot's window (an i64*): 0 its first device
 * byte, 1 the end. */
static LLVMValueRef win_word(jb *b, unsigned k)
{
	LLVMValueRef idx[2] = { c64(b, 0), c64(b, k) };
	return LLVMBuildInBoundsGEP2(b->b, LLVMArrayType(b->i64, 2), b->win[b->slot], idx, 2, "");
}

/* The current slot's window's size against rt->stream_min, into
 * wbig: once per window, not once per warp (emit_stream). */
static void win_big(jb *b)
{
	LLVMValueRef lo = LLVMBuildLoad2(b->b, b->i64, win_word(b, 0), "");
	LLVMValueRef hi = LLVMBuildLoad2(b->b, b->i64, win_word(b, 1), "");
	LLVMValueRef big = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntULT, lo, hi, ""),
					LLVMBuildICmp(b->b, LLVMIntUGE, LLVMBuildSub(b->b, hi, lo, ""),
						      rt_field(b, offsetof(xjit_rt, stream_min), b->i64), ""),
					"");
	LLVMBuildStore(b->b, big, b->wbig[b->slot]);
}

/* A global access's translation (emit_mem_check): inside the allocation
 * of the loop's last translation, [win[0], win[1]) at host address +
 * wdelta (or the first warp's kept one: win_load; in the warp function,
 * which starts each call with none, the one its warp kept: the tail of
 * a straight kernel, which a warp runs alone once per CTA, translated
 * its one store on every call), or through rt->global (rt->global_red
 * for a held add: red), which then gives the window, and the first warp
 * keeps it.  go: the fast case's other conditions hold; dev, span: the
 * device bytes.  *ok and the device-to-host offset of dev. */
static LLVMValueRef win_inside(jb *b, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef dev, LLVMValueRef span)
{
	LLVMValueRef in = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntUGE, dev, lo, ""),
				       LLVMBuildICmp(b->b, LLVMIntULT, dev, hi, ""), "");
	return LLVMBuildAnd(b->b, in, LLVMBuildICmp(b->b, LLVMIntUGE, LLVMBuildSub(b->b, hi, dev, ""), span, ""), "");
}
static LLVMValueRef global_xlate(jb *b, LLVMValueRef go, LLVMValueRef some, LLVMValueRef dev, LLVMValueRef span,
				 bool red, LLVMValueRef *ok)
{
	LLVMValueRef wlo_p = win_word(b, 0);
	LLVMValueRef wlo = LLVMBuildLoad2(b->b, b->i64, wlo_p, "");
	LLVMValueRef whi = LLVMBuildLoad2(b->b, b->i64, win_word(b, 1), "");
	LLVMValueRef wd = LLVMBuildLoad2(b->b, b->i64, b->wdelta[b->slot], "");
	LLVMValueRef inside = win_inside(b, wlo, whi, dev, span);
	LLVMValueRef nsome = LLVMBuildNot(b->b, some, "");
	LLVMBasicBlockRef from = LLVMGetInsertBlock(b->b);
	LLVMBasicBlockRef miss = LLVMAppendBasicBlockInContext(b->cx, b->fn, "miss");
	LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(b->cx, b->fn, "xlate");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(b->cx, b->fn, "xlated");
	LLVMBuildCondBr(b->b, LLVMBuildAnd(b->b, go, inside, ""), join, miss);
	LLVMPositionBuilderAtEnd(b->b, miss);
	LLVMBasicBlockRef kept = b->single ? wblock(b, "kept") : call, hit = NULL;
	LLVMValueRef kv[3] = { NULL, NULL, NULL };
	LLVMBuildCondBr(b->b, go, kept, join);
	if (b->single) {
		/* (the kept window, taken into the slot's) */
		LLVMPositionBuilderAtEnd(b->b, kept);
		LLVMValueRef e = jwin_entry(b, b->q);
		for (unsigned k = 0; k < 3; k++)
			kv[k] = LLVMBuildLoad2(b->b, b->i64, jwin_word(b, e, k), "");
		hit = wblock(b, "kept_hit");
		LLVMBuildCondBr(b->b, win_inside(b, kv[0], kv[1], dev, span), hit, call);
		LLVMPositionBuilderAtEnd(b->b, hit);
		LLVMValueRef to[3] = { wlo_p, win_word(b, 1), b->wdelta[b->slot] };
		for (unsigned k = 0; k < 3; k++)
			LLVMBuildStore(b->b, kv[k], to[k]);
		win_big(b);
		LLVMBuildBr(b->b, join);
	}
	LLVMPositionBuilderAtEnd(b->b, call);
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0);
	LLVMTypeRef args_t[5] = { pi8, pi8, b->i64, b->i64, LLVMPointerType(b->i64, 0) };
	LLVMTypeRef ft = LLVMFunctionType(pi8, args_t, 5, false);
	LLVMValueRef f = rt_field(b, red ? offsetof(xjit_rt, global_red) : offsetof(xjit_rt, global),
				  LLVMPointerType(ft, 0));
	LLVMValueRef args[5] = { b->w, rt_field(b, offsetof(xjit_rt, L), pi8), dev, span, wlo_p };
	LLVMValueRef host = LLVMBuildCall2(b->b, ft, f, args, 5, "");
	LLVMValueRef hok = LLVMBuildIsNotNull(b->b, host, "");
	LLVMValueRef hd = LLVMBuildSub(b->b, LLVMBuildPtrToInt(b->b, host, b->i64, ""), dev, "");
	LLVMBuildStore(b->b, LLVMBuildSelect(b->b, hok, hd, wd, ""), b->wdelta[b->slot]);
	win_big(b);
	/* (the first warp keeps it for the next call: win_load; a failed
	 * translation leaves the window as it was) */
	LLVMValueRef e = jwin_entry(b, b->q);
	LLVMValueRef v[3] = { LLVMBuildLoad2(b->b, b->i64, wlo_p, ""), LLVMBuildLoad2(b->b, b->i64, win_word(b, 1), ""),
			      LLVMBuildSelect(b->b, hok, hd, wd, "") };
	for (unsigned k = 0; k < 3; k++)
		LLVMBuildStore(b->b, v[k], jwin_word(b, e, k));
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
	/* not translated: ok when no lane is under the guard */
	LLVMBasicBlockRef inb[4] = { from, miss, call, hit };
	*ok = LLVMBuildPhi(b->b, b->i1, "");
	LLVMValueRef ov[4] = { LLVMConstInt(b->i1, 1, false), nsome, hok, LLVMConstInt(b->i1, 1, false) };
	LLVMAddIncoming(*ok, ov, inb, hit ? 4 : 3);
	LLVMValueRef d = LLVMBuildPhi(b->b, b->i64, "");
	LLVMValueRef dv[4] = { wd, c64(b, 0), hd, kv[2] };
	LLVMAddIncoming(d, dv, inb, hit ? 4 : 3);
	return d;
}

/* With a guard: a warp without a lane under it goes to a block of its
 * own, returned, and the code after this runs for the others (no
 * translation, no access: a group's idle warps cost a test, as in
 * exec_group).  The values read before it are the only ones cached
 * (they dominate what follows): the callers read their rows first. */
static LLVMBasicBlockRef skip_idle(jb *b)
{
	if (!b->pm)
		return NULL;
	LLVMBasicBlockRef idle = LLVMAppendBasicBlockInContext(b->cx, b->fn, "idle");
	LLVMBasicBlockRef busy = LLVMAppendBasicBlockInContext(b->cx, b->fn, "busy");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->pm, c32(b, 0), ""), idle, busy);
	LLVMPositionBuilderAtEnd(b->b, busy);
	return idle;
}

/* Lane 0's low word start (i64) and those of the 31 lanes size bytes
 * after it do not wrap past 2^32. */
static LLVMValueRef no_wrap(jb *b, LLVMValueRef start, unsigned size)
{
	return LLVMBuildICmp(b->b, LLVMIntULE, start, c64(b, (uint64_t)UINT32_MAX + 1u - size * XLANES), "");
}

/* The lanes under the guard at consecutive addresses: lane l's low word
 * lo is lane 0's, *start (i64), plus l * size, with no low word wrapping
 * (a tree reduction's first lanes, thread l at element l); *lo0 the
 * first such lane's low word. */
static LLVMValueRef consecutive(jb *b, LLVMValueRef lo, unsigned size, LLVMValueRef *start, LLVMValueRef *lo0)
{
	LLVMValueRef first = first_lane(b);
	*lo0 = first_value(b, lo, first);
	*start = LLVMBuildSub(b->b, LLVMBuildZExt(b->b, *lo0, b->i64, ""),
			      LLVMBuildMul(b->b, LLVMBuildZExt(b->b, first, b->i64, ""), c64(b, size), ""), "");
	LLVMValueRef step = LLVMBuildMul(b->b, lane_consts(b, ISA_SReg_SR_LANEID), splat32(b, size), "");
	LLVMValueRef want = LLVMBuildAdd(b->b, bcast(b, LLVMBuildTrunc(b->b, *start, b->i32, "")), step, "");
	LLVMValueRef fast = all_on(b, LLVMBuildICmp(b->b, LLVMIntEQ, lo, want, ""));
	return LLVMBuildAnd(b->b, fast, no_wrap(b, *start, size), "");
}

/* The last lane under the guard (i64; 31 without a guard), of a guard
 * that holds in some lane. */
static LLVMValueRef last_lane(jb *b)
{
	if (!b->pm)
		return c64(b, XLANES - 1u);
	LLVMValueRef args[2] = { b->pm, LLVMConstInt(b->i1, 0, false) };
	LLVMValueRef lz = LLVMBuildCall2(b->b, b->ctlz_t, b->ctlz, args, 2, "");
	return LLVMBuildZExt(b->b, LLVMBuildSub(b->b, c32(b, XLANES - 1u), lz, ""), b->i64, "");
}

/* lane_range by vector reductions over the lanes under the guard: *amin
 * and *amax, and the OR of their low words (returned). */
static LLVMValueRef lane_reduce(jb *b, LLVMValueRef lo, LLVMValueRef *amin, LLVMValueRef *amax)
{
	LLVMValueRef lmin = lo, lmax = lo;
	if (b->pm) {
		LLVMValueRef on = pm_lanes(b);
		lmin = LLVMBuildSelect(b->b, on, lo, splat32(b, UINT32_MAX), "");
		lmax = LLVMBuildSelect(b->b, on, lo, splat32(b, 0), "");
	}
	*amin = LLVMBuildZExt(b->b, LLVMBuildCall2(b->b, b->red_t, b->umin, &lmin, 1, ""), b->i64, "");
	*amax = LLVMBuildZExt(b->b, LLVMBuildCall2(b->b, b->red_t, b->umax, &lmax, 1, ""), b->i64, "");
	return LLVMBuildCall2(b->b, b->red_t, b->vor, &lmax, 1, "");
}

/* The current warp's address row row of the access just checked, when
 * its lanes are not consecutive: the access (emit_mem_access) then
 * reads it, and the loop defers it (jb.defer). */
static void store_scattered(jb *b, unsigned row)
{
	LLVMValueRef first = LLVMBuildLoad2(b->b, b->i64, first_slot(b), "");
	LLVMBasicBlockRef st = wblock(b, "scattered_row"), join = wblock(b, "row_kept");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, first, c64(b, NOT_CONSECUTIVE), ""), st, join);
	LLVMPositionBuilderAtEnd(b->b, st);
	LLVMSetAlignment(LLVMBuildStore(b->b, b->row[row], row_ptr(b, row)), 4);
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
}

/* The lowest and the highest low word lo (row row) of the lanes under the guard,
 * *amin and *amax (i64), and *anyb, a word whose low bits are clear
 * when theirs are (the alignment).  Consecutive lanes (consecutive())
 * take them from the first and the last lane, unless the instruction's
 * lanes are scattered by nature (ATOMS: a histogram's bins); other lanes
 * from reductions over the vector.  At least one lane is under the
 * guard.  Records the first address of consecutive lanes, or
 * NOT_CONSECUTIVE, in the warp's first[] for the access (emit_mem_access),
 * unless scattered; a deferred row that is not consecutive it stores
 * (store_scattered). */
static void lane_range(jb *b, unsigned row, unsigned size, bool scattered, LLVMValueRef *amin, LLVMValueRef *amax,
		       LLVMValueRef *anyb)
{
	LLVMValueRef lo = b->row[row];
	if (scattered) {
		*anyb = lane_reduce(b, lo, amin, amax);
		return;
	}
	LLVMValueRef start, lo0;
	LLVMValueRef fast = consecutive(b, lo, size, &start, &lo0);
	LLVMBuildStore(b->b, LLVMBuildSelect(b->b, fast, start, c64(b, NOT_CONSECUTIVE), ""), first_slot(b));
	LLVMValueRef fmax = LLVMBuildAdd(b->b, start, LLVMBuildMul(b->b, last_lane(b), c64(b, size), ""), "");
	LLVMValueRef fmin = LLVMBuildZExt(b->b, lo0, b->i64, "");
	LLVMBasicBlockRef from = LLVMGetInsertBlock(b->b);
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(b->cx, b->fn, "scattered");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(b->cx, b->fn, "ranged");
	LLVMBuildCondBr(b->b, fast, join, slow);
	LLVMPositionBuilderAtEnd(b->b, slow);
	LLVMValueRef smin, smax, sor = lane_reduce(b, lo, &smin, &smax);
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
	LLVMBasicBlockRef in[2] = { from, slow };
	LLVMValueRef vmin[2] = { fmin, smin }, vmax[2] = { fmax, smax }, vor[2] = { lo0, sor };
	*amin = LLVMBuildPhi(b->b, b->i64, "");
	LLVMAddIncoming(*amin, vmin, in, 2);
	*amax = LLVMBuildPhi(b->b, b->i64, "");
	LLVMAddIncoming(*amax, vmax, in, 2);
	*anyb = LLVMBuildPhi(b->b, b->i32, "");
	LLVMAddIncoming(*anyb, vor, in, 2);
	if (regs_has(&b->defer, row))
		store_scattered(b, row);
}

/* Whether every lane's high word hi is the first guarded lane's, *h0 */
static LLVMValueRef one_high(jb *b, LLVMValueRef hi, LLVMValueRef *h0)
{
	*h0 = first_value(b, hi, first_lane(b));
	return all_on(b, LLVMBuildICmp(b->b, LLVMIntEQ, hi, bcast(b, *h0), ""));
}

/* A prefetch of the line at host address host (i64), for writing or
 * reading, into every cache level (a hint: any address will do).  The
 * check loop prefetches a global access's lines a loop ahead of the
 * access (bench/README.md, "Memory stalls, consecutive lanes and CTA
 * restarts"). */
static void prefetch(jb *b, LLVMValueRef host, bool write)
{
	LLVMValueRef args[4] = { LLVMBuildIntToPtr(b->b, host, LLVMPointerType(b->i8, 0), ""), c32(b, write),
				 c32(b, 3), c32(b, 1) };
	LLVMBuildCall2(b->b, b->pf_t, b->pf, args, 4, "");
}

/* A global store that may stream past the host's caches (emit_stream):
 * 32 or 64 bits in every lane of every warp, a block function's (so a
 * warp's consecutive lanes store whole 64-byte lines from an aligned
 * start). */
static bool stream_store(const jb *b, const xinsn *i)
{
	return i->optype == ISA_OPT_STG && !b->single && !b->pm && (mem_bytes(i) == 4u || mem_bytes(i) == 8u);
}

/* The check's end for a store that may stream (stream_store), the
 * current warp's host address of its first lane delta + amin: it
 * streams when the lanes are consecutive (lane_range recorded their
 * first address), that address starts a 64-byte line, and the
 * allocation has at least rt->stream_min bytes, more than the host's
 * caches hold (jit.h; win_big); its first address then says so (STREAMS), and
 * its lines are not prefetched.  A streaming store writes whole lines
 * without reading them first: a third of a copy's memory traffic. */
static void emit_stream(jb *b, LLVMValueRef delta, LLVMValueRef amin, LLVMValueRef amax)
{
	LLVMValueRef first = LLVMBuildLoad2(b->b, b->i64, first_slot(b), "");
	LLVMValueRef host = LLVMBuildAdd(b->b, delta, amin, "");
	LLVMValueRef nt = LLVMBuildAnd(
		b->b, LLVMBuildICmp(b->b, LLVMIntNE, first, c64(b, NOT_CONSECUTIVE), ""),
		LLVMBuildICmp(b->b, LLVMIntEQ, LLVMBuildAnd(b->b, host, c64(b, 63), ""), c64(b, 0), ""), "");
	nt = LLVMBuildAnd(b->b, nt, LLVMBuildLoad2(b->b, b->i1, b->wbig[b->slot], ""), "");
	LLVMBuildStore(b->b, LLVMBuildSelect(b->b, nt, LLVMBuildOr(b->b, first, c64(b, STREAMS), ""), first, ""),
		       first_slot(b));
	LLVMBasicBlockRef pf = LLVMAppendBasicBlockInContext(b->cx, b->fn, "prefetch");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(b->cx, b->fn, "streams");
	LLVMBuildCondBr(b->b, nt, join, pf);
	LLVMPositionBuilderAtEnd(b->b, pf);
	prefetch(b, host, true);
	prefetch(b, LLVMBuildAdd(b->b, delta, amax, ""), true);
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
}

/* A warp's consecutive store of val at p0 when nt (emit_stream): past
 * the caches (a non-temporal store of whole lines), then to join; the
 * code after it stores otherwise. */
static void emit_streaming(jb *b, LLVMValueRef nt, LLVMValueRef val, LLVMValueRef p0, LLVMBasicBlockRef join)
{
	LLVMBasicBlockRef st = LLVMAppendBasicBlockInContext(b->cx, b->fn, "stream");
	LLVMBasicBlockRef cached = LLVMAppendBasicBlockInContext(b->cx, b->fn, "cached");
	LLVMBuildCondBr(b->b, nt, st, cached);
	LLVMPositionBuilderAtEnd(b->b, st);
	LLVMValueRef p = LLVMBuildBitCast(b->b, p0, LLVMPointerType(LLVMTypeOf(val), 0), "");
	LLVMValueRef s = LLVMBuildStore(b->b, val, p);
	LLVMSetAlignment(s, 64);
	LLVMValueRef one = LLVMConstInt(b->i32, 1, false);
	LLVMSetMetadata(s, LLVMGetMDKindIDInContext(b->cx, "nontemporal", 11), LLVMMDNodeInContext(b->cx, &one, 1));
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, cached);
}

/* Whether store i streams for the current warp (emit_stream recorded it
 * in the first address *start, whose lanes are consecutive when fast),
 * NULL when i cannot stream; *start without the mark. */
static LLVMValueRef streams(jb *b, const xinsn *i, LLVMValueRef fast, LLVMValueRef *start)
{
	if (i->optype != ISA_OPT_STG)
		return NULL;
	LLVMValueRef nt = NULL;
	if (stream_store(b, i))
		nt = LLVMBuildAnd(
			b->b, fast,
			LLVMBuildICmp(b->b, LLVMIntNE, LLVMBuildAnd(b->b, *start, c64(b, STREAMS), ""), c64(b, 0), ""),
			"");
	*start = LLVMBuildAnd(b->b, *start, c64(b, ~STREAMS), "");
	return nt;
}

/* The linear address (jb.linear) of memory instruction i whose rows hold
 * lo and hi, when its lanes are size bytes apart and i's guard is the
 * linear one's or within it, or NULL. */
static const struct xlinear *linear_of(const jb *b, const xinsn *i, LLVMValueRef lo, LLVMValueRef hi, unsigned size)
{
	for (unsigned k = 0; k < b->nlinear; k++) {
		const struct xlinear *x = &b->linear[k];
		if (x->lo == lo && x->hi == hi && (1u << x->sh) == size &&
		    (!x->g || (!xunguarded(i) && b->pred[i->pg] == x->g && (i->pg_xor != 0) == x->gx)))
			return x;
	}
	return NULL;
}

/* lane_range and the high word of a global access whose address is the
 * linear x (linear_of), in om's rows: when x's row a holds a[0] + l
 * in lane l, with no lane past the top of a's range (unsigned for U32,
 * signed for S32), lane l's address is S + l * size, S lane 0's; so when
 * S's low word and those of the 31 lanes after it do not wrap, the lanes
 * are consecutive (as consecutive() finds them), their high word is S's
 * (*h0) in every lane (*one_hi), and the rest comes from the first and
 * last lanes under the guard.  One test of a per warp, where a kernel
 * indexed by its thread index tests two rows per access (triad: three
 * accesses, one row a).  Otherwise lane_range's and one_high's. */
static void lane_range_linear(jb *b, const struct xlinear *x, const xopd *om, unsigned size, LLVMValueRef *amin,
			      LLVMValueRef *amax, LLVMValueRef *anyb, LLVMValueRef *h0, LLVMValueRef *one_hi)
{
	LLVMValueRef a0 = LLVMBuildExtractElement(b->b, x->a, c32(b, 0), "");
	LLVMValueRef want = LLVMBuildAdd(b->b, bcast(b, a0), lane_consts(b, ISA_SReg_SR_LANEID), "");
	LLVMValueRef ok = LLVMBuildICmp(b->b, LLVMIntEQ, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, x->a, want, "")),
					c32(b, 0xffffffffu), "");
	ok = LLVMBuildAnd(b->b, ok,
			  x->u ? LLVMBuildICmp(b->b, LLVMIntULE, a0, c32(b, UINT32_MAX - (XLANES - 1u)), "")
			       : LLVMBuildICmp(b->b, LLVMIntSLE, a0, c32(b, INT32_MAX - (XLANES - 1u)), ""),
			  "");
	LLVMValueRef c = LLVMBuildOr(b->b, LLVMBuildShl(b->b, LLVMBuildZExt(b->b, x->c1, b->i64, ""), c64(b, 32), ""),
				     LLVMBuildZExt(b->b, x->c0, b->i64, ""), "");
	LLVMValueRef a64 = x->u ? LLVMBuildZExt(b->b, a0, b->i64, "") : LLVMBuildSExt(b->b, a0, b->i64, "");
	LLVMValueRef s = LLVMBuildAdd(b->b, c, LLVMBuildShl(b->b, a64, c64(b, x->sh), ""), "");
	LLVMValueRef s_lo = LLVMBuildTrunc(b->b, s, b->i32, "");
	LLVMValueRef start = LLVMBuildZExt(b->b, s_lo, b->i64, "");
	ok = LLVMBuildAnd(b->b, ok, no_wrap(b, start, size), "");
	LLVMBasicBlockRef lin = wblock(b, "linear"), other = wblock(b, "not_linear"), join = wblock(b, "linear_ranged");
	LLVMBuildCondBr(b->b, ok, lin, other);
	LLVMPositionBuilderAtEnd(b->b, lin);
	LLVMValueRef lo0 = LLVMBuildAdd(b->b, s_lo, LLVMBuildMul(b->b, first_lane(b), c32(b, size), ""), "");
	LLVMBuildStore(b->b, start, first_slot(b));
	LLVMValueRef lv[5] = { LLVMBuildZExt(b->b, lo0, b->i64, ""),
			       LLVMBuildAdd(b->b, start, LLVMBuildMul(b->b, last_lane(b), c64(b, size), ""), ""), lo0,
			       LLVMBuildTrunc(b->b, LLVMBuildLShr(b->b, s, c64(b, 32), ""), b->i32, ""),
			       LLVMConstInt(b->i1, 1, false) };
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, other);
	LLVMValueRef ov[5];
	lane_range(b, om->row, size, false, &ov[0], &ov[1], &ov[2]);
	ov[4] = one_high(b, b->row[om->row + 1u], &ov[3]);
	LLVMBasicBlockRef in[2] = { lin, LLVMGetInsertBlock(b->b) };
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, join);
	LLVMValueRef *out[5] = { amin, amax, anyb, h0, one_hi };
	for (unsigned k = 0; k < 5; k++) {
		*out[k] = LLVMBuildPhi(b->b, LLVMTypeOf(ov[k]), "");
		LLVMValueRef v[2] = { lv[k], ov[k] };
		LLVMAddIncoming(*out[k], v, in, 2);
	}
}

/* The check of memory instruction i for the current warp: translate()'s
 * fast case (sem_mem.c), on the low words Ra of the lanes under the
 * guard, lo_min to lo_max: global, every such lane with one high word
 * h, the bytes [(h:lo_min) + off, (h:lo_max) + off + size) inside one
 * allocation; shared, Ra + off in [0, shared size - size] (a sum below
 * zero is out of range); aligned when the low words and off are; or no
 * lane under the guard.  Records the warp's delta (a lane's host address
 * is delta + its low word), and fail when the check fails (the
 * interpreter then runs i: the side exit).  Nothing counted, nothing
 * accessed: every warp is checked before any accesses (the next loop),
 * so a side exit leaves i unrun by all. */
static void emit_mem_check(jb *b, const xinsn *i)
{
	b->q = (uint32_t)(i - b->base);
	set_guard(b, i, false);
	const xopd *om = mem_opd(i);
	const uint64_t size = mem_bytes(i);
	LLVMValueRef lo = get_row(b, om->row), hi = is_global(i) ? get_row(b, om->row + 1u) : NULL;
	LLVMBasicBlockRef idle = skip_idle(b);
	LLVMValueRef amin, amax, anyb, h0 = NULL, one_hi = NULL;
	const struct xlinear *x = hi && !is_atom(i) ? linear_of(b, i, lo, hi, (unsigned)size) : NULL;
	if (x)
		lane_range_linear(b, x, om, (unsigned)size, &amin, &amax, &anyb, &h0, &one_hi);
	else
		lane_range(b, om->row, (unsigned)size, is_atom(i), &amin, &amax, &anyb);
	LLVMValueRef some = b->pm ? LLVMBuildICmp(b->b, LLVMIntNE, b->pm, c32(b, 0), "") : LLVMConstInt(b->i1, 1, false);
	/* (the offset's low bits are known: an offset off alignment fails
	 * every lane) */
	LLVMValueRef aligned = (uint64_t)om->imm & (size - 1u)
			  ? LLVMConstInt(b->i1, 0, false)
			  : LLVMBuildICmp(b->b, LLVMIntEQ, LLVMBuildAnd(b->b, anyb, c32(b, (uint32_t)size - 1u), ""),
					  c32(b, 0), "");
	LLVMValueRef imm = c64(b, (uint64_t)om->imm), ok, delta;
	if (is_global(i)) {
		if (!x)
			one_hi = one_high(b, hi, &h0);
		LLVMValueRef dev = LLVMBuildAdd(
			b->b, LLVMBuildOr(b->b, LLVMBuildShl(b->b, LLVMBuildZExt(b->b, h0, b->i64, ""), c64(b, 32), ""), amin, ""),
			imm, "");
		LLVMValueRef span = LLVMBuildAdd(b->b, LLVMBuildSub(b->b, amax, amin, ""), c64(b, size), "");
		LLVMValueRef go = LLVMBuildAnd(b->b, some, LLVMBuildAnd(b->b, aligned, one_hi, ""), "");
		/* host(dev) - lo_min */
		delta = LLVMBuildSub(b->b, LLVMBuildAdd(b->b, global_xlate(b, go, some, dev, span, is_red(i), &ok), dev, ""),
				     amin, "");
		if (stream_store(b, i)) {
			emit_stream(b, delta, amin, amax);
		} else {
			prefetch(b, LLVMBuildAdd(b->b, delta, amin, ""), !is_load(i));
			prefetch(b, LLVMBuildAdd(b->b, delta, amax, ""), !is_load(i));
		}
		if (b->holds && !is_red(i)) {
			LLVMBuildStore(b->b, LLVMBuildAdd(b->b, delta, amin, ""), lane_word(b, b->hlo[b->slot], b->j));
			LLVMBuildStore(b->b, LLVMBuildAdd(b->b, delta, LLVMBuildAdd(b->b, amax, c64(b, size), ""), ""),
				       lane_word(b, b->hhi[b->slot], b->j));
		}
	} else {
		LLVMValueRef cta = LLVMBuildLoad2(b->b, LLVMPointerType(b->i8, 0),
						  field_ptr(b, b->w, offsetof(we_warp, cta), LLVMPointerType(b->i8, 0)), "");
		LLVMValueRef sh = LLVMBuildLoad2(b->b, LLVMPointerType(b->i8, 0),
						 field_ptr(b, cta, offsetof(we_cta, shared), LLVMPointerType(b->i8, 0)), "");
		LLVMValueRef sb = rt_field(b, offsetof(xjit_rt, shared_bytes), b->i64);
		/* (signed: below zero is out; the sums are far from wrapping) */
		LLVMValueRef lowest = LLVMBuildAdd(b->b, amin, imm, ""), end = LLVMBuildAdd(b->b, amax, c64(b, (uint64_t)om->imm + size), "");
		LLVMValueRef in = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntSGE, lowest, c64(b, 0), ""),
					       LLVMBuildICmp(b->b, LLVMIntSLE, end, sb, ""), "");
		ok = LLVMBuildOr(b->b, LLVMBuildNot(b->b, some, ""), LLVMBuildAnd(b->b, aligned, in, ""), "");
		delta = LLVMBuildAdd(b->b, LLVMBuildPtrToInt(b->b, sh, b->i64, ""), imm, "");
	}
	LLVMBuildStore(b->b, delta, delta_slot(b));
	LLVMValueRef f = LLVMBuildLoad2(b->b, b->i1, b->fail, "");
	LLVMBuildStore(b->b, LLVMBuildOr(b->b, f, LLVMBuildNot(b->b, ok, ""), ""), b->fail);
	if (idle) {
		LLVMBuildBr(b->b, idle);
		LLVMPositionBuilderAtEnd(b->b, idle);
	}
}

/* Memory instruction i for the current warp, its check passed (every
 * warp's, the loop before): do_load/do_store's accesses at host address
 * delta + the lane's low word.  The lanes under the guard at consecutive
 * addresses (thread l at element l; a tree reduction's first lanes),
 * with no low word wrapping, are one masked vector access (the same
 * single moves of aligned words on the host as the interpreter's relaxed
 * atomics, whose order between host threads nothing promises either);
 * otherwise a gather or a scatter of the lanes' words (a scatter in lane
 * order, as the interpreter's: two lanes storing to one word, the higher
 * lane's value stays), and for loads of 8 or 16 bits rt->lanes takes the
 * lanes one by one.  The check told which (lane_range). */
static void emit_atoms_add(jb *b, const xinsn *i);
static void emit_red_add(jb *b, const xinsn *i);
static void emit_settle(jb *b);
static LLVMValueRef narrow_ext(jb *b, const xinsn *i, LLVMValueRef v);
static void emit_mem_access(jb *b, const xinsn *i)
{
	if (i->optype == ISA_OPT_ATOMS) {
		emit_atoms_add(b, i);
		return;
	}
	if (is_red(i)) {
		emit_red_add(b, i);
		return;
	}
	set_guard(b, i, true);
	const unsigned size = mem_bytes(i), w64 = size == 8, vk = mem_vkind(i);
	LLVMTypeRef vt = mem_vtype(b, vk), pt = w64 ? b->v64 : b->v32;
	LLVMValueRef lo = get_row(b, mem_opd(i)->row);
	LLVMValueRef on = b->pm ? pm_lanes(b) : LLVMConstAllOnes(b->vb);
	LLVMValueRef val = NULL;
	if (!is_load(i)) {
		const xopd *ob = &i->o[ST_rb];
		val = src(b, ob, 0, false);
		if (w64)
			val = LLVMBuildOr(b->b, zext64(b, val),
					  LLVMBuildShl(b->b, zext64(b, src(b, ob, 1, false)), splat64(b, 32), ""), "");
	}
	if (is_load(i)) {
		/* (the destination's rows, read where every path sees them) */
		get_row(b, i->o[LD_rd].row);
		if (w64)
			get_row(b, i->o[LD_rd].row + 1u);
	}
	LLVMBasicBlockRef idle = skip_idle(b);
	if (b->holds && is_global(i))
		emit_settle(b);
	/* (the check's delta and first address: a warp with some lane
	 * under the guard stored them) */
	LLVMValueRef d = LLVMBuildLoad2(b->b, b->i64, delta_slot(b), "");
	LLVMValueRef start = LLVMBuildLoad2(b->b, b->i64, first_slot(b), "");
	LLVMValueRef fast = LLVMBuildICmp(b->b, LLVMIntNE, start, c64(b, NOT_CONSECUTIVE), "");
	LLVMValueRef nt = streams(b, i, fast, &start);
	LLVMValueRef p0 = LLVMBuildIntToPtr(b->b, LLVMBuildAdd(b->b, d, start, ""), LLVMPointerType(vt, 0), "");
	LLVMBasicBlockRef vec = LLVMAppendBasicBlockInContext(b->cx, b->fn, "vec");
	LLVMBasicBlockRef lanes = LLVMAppendBasicBlockInContext(b->cx, b->fn, "lanes");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(b->cx, b->fn, "accessed");
	LLVMBuildCondBr(b->b, fast, vec, lanes);
	LLVMValueRef got[2] = { NULL, NULL };
	LLVMPositionBuilderAtEnd(b->b, vec);
	if (is_load(i)) {
		LLVMValueRef args[4] = { p0, c32(b, size), on, LLVMGetUndef(vt) };
		got[0] = LLVMBuildCall2(b->b, b->mload_t[vk], b->mload[vk], args, 4, "");
		if (is_narrow(i))
			got[0] = narrow_ext(b, i, got[0]);
	} else {
		if (nt)
			emit_streaming(b, nt, val, p0, join);
		LLVMValueRef args[4] = { val, p0, c32(b, size), on };
		LLVMBuildCall2(b->b, b->mstore_t[w64], b->mstore[w64], args, 4, "");
	}
	LLVMBuildBr(b->b, join);
	LLVMPositionBuilderAtEnd(b->b, lanes);
	if (!is_narrow(i)) {
		/* words of 32 or 64 bits: one masked gather or scatter, each
		 * lane's word one aligned access as the interpreter's (the check
		 * passed for every lane under the guard); a scatter stores in
		 * lane order where lanes share a word (LLVM's LangRef): the
		 * higher lane's value stays */
		LLVMValueRef host = LLVMBuildAdd(b->b, bcast(b, d), zext64(b, lo), "");
		LLVMTypeRef et = LLVMPointerType(w64 ? b->i64 : b->i32, 0);
		LLVMValueRef ptrs = LLVMBuildIntToPtr(b->b, host, LLVMVectorType(et, XLANES), "");
		if (is_load(i)) {
			LLVMValueRef args[4] = { ptrs, c32(b, size), on, LLVMGetUndef(pt) };
			got[1] = LLVMBuildCall2(b->b, b->gather_t[w64], b->gather[w64], args, 4, "");
		} else {
			LLVMValueRef args[4] = { val, ptrs, c32(b, size), on };
			LLVMBuildCall2(b->b, b->scatter_t[w64], b->scatter[w64], args, 4, "");
		}
	} else {
		/* (a call: the IR of 32 lanes one by one would cost far more
		 * compile time than the call costs at run time) */
		LLVMSetAlignment(LLVMBuildStore(b->b, lo, b->loff), 4);
		LLVMTypeRef pi32 = LLVMPointerType(b->i32, 0);
		LLVMTypeRef args_t[5] = { b->i64, pi32, b->i32, b->i32, pi32 };
		LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(b->cx), args_t, 5, false);
		LLVMValueRef f = rt_field(b, offsetof(xjit_rt, lanes), LLVMPointerType(ft, 0));
		LLVMValueRef args[5] = { d, LLVMBuildBitCast(b->b, b->loff, pi32, ""),
					 b->pm ? b->pm : c32(b, 0xffffffffu), c32(b, size),
					 LLVMBuildBitCast(b->b, b->llo, pi32, "") };
		LLVMBuildCall2(b->b, ft, f, args, 5, "");
		LLVMValueRef vlo = LLVMBuildLoad2(b->b, b->v32, b->llo, "");
		LLVMSetAlignment(vlo, 4);
		got[1] = narrow_ext(b, i, LLVMBuildTrunc(b->b, vlo, vt, ""));
	}
	LLVMBuildBr(b->b, join);
	if (idle) {
		LLVMPositionBuilderAtEnd(b->b, idle);
		LLVMBuildBr(b->b, join);
	}
	LLVMPositionBuilderAtEnd(b->b, join);
	if (!is_load(i))
		return;
	/* (an idle warp's value: any, set_row keeps every lane's row) */
	LLVMValueRef v = LLVMBuildPhi(b->b, pt, "");
	LLVMBasicBlockRef from[3] = { vec, lanes, idle };
	LLVMValueRef vals[3] = { got[0], got[1], LLVMGetUndef(pt) };
	LLVMAddIncoming(v, vals, from, idle ? 3 : 2);
	const xopd *od = &i->o[LD_rd];
	set_row(b, od, 0, w64 ? lo32(b, v) : v);
	if (w64)
		set_row(b, od, 1, hi32(b, v));
}

/* A load of 8 or 16 bits to 32 (mem_read): zero- or sign-extended. */
static LLVMValueRef narrow_ext(jb *b, const xinsn *i, LLVMValueRef v)
{
	const bool sgn = i->in->size == ISA_MemSize_S8 || i->in->size == ISA_MemSize_S16;
	return sgn ? LLVMBuildSExt(b->b, v, b->v32, "") : LLVMBuildZExt(b->b, v, b->v32, "");
}

/* ATOMS.ADD of 32 bits for the current warp, its check passed (do_atom's
 * add for shared memory that one host thread runs): lane by lane in lane
 * order under the guard, a plain add to the word at delta + the lane's
 * low word; Rd the old values. */
static void emit_atoms_add(jb *b, const xinsn *i)
{
	set_guard(b, i, true);
	const xopd *od = &i->o[ATOM_rd];
	LLVMValueRef lo = get_row(b, mem_opd(i)->row), val = src(b, &i->o[ATOM_rb], 0, false);
	if (od->reg != 255)
		get_row(b, od->row);
	LLVMValueRef d = LLVMBuildLoad2(b->b, b->i64, delta_slot(b), "");
	LLVMSetAlignment(LLVMBuildStore(b->b, lo, b->loff), 4);
	LLVMSetAlignment(LLVMBuildStore(b->b, val, b->llo), 4);
	LLVMValueRef pm0 = b->pm ? b->pm : c32(b, 0xffffffffu);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(b->b), head = wblock(b, "atom"), body = wblock(b, "atom_lane"),
			  done = wblock(b, "atom_done");
	LLVMBuildBr(b->b, head);
	LLVMPositionBuilderAtEnd(b->b, head);
	LLVMValueRef m = LLVMBuildPhi(b->b, b->i32, "");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, m, c32(b, 0), ""), done, body);
	LLVMPositionBuilderAtEnd(b->b, body);
	LLVMValueRef args[2] = { m, LLVMConstInt(b->i1, 1, false) };
	LLVMValueRef l = LLVMBuildZExt(b->b, LLVMBuildCall2(b->b, b->cttz_t, b->cttz, args, 2, ""), b->i64, "");
	LLVMValueRef idx[2] = { c64(b, 0), l };
	LLVMTypeRef at = LLVMArrayType(b->i32, XLANES);
	LLVMValueRef off = LLVMBuildLoad2(b->b, b->i32, LLVMBuildInBoundsGEP2(b->b, at, b->loff, idx, 2, ""), "");
	LLVMValueRef v = LLVMBuildLoad2(b->b, b->i32, LLVMBuildInBoundsGEP2(b->b, at, b->llo, idx, 2, ""), "");
	LLVMValueRef p = LLVMBuildIntToPtr(b->b, LLVMBuildAdd(b->b, d, LLVMBuildZExt(b->b, off, b->i64, ""), ""),
					   LLVMPointerType(b->i32, 0), "");
	LLVMValueRef old = LLVMBuildLoad2(b->b, b->i32, p, "");
	LLVMSetAlignment(old, 4);
	LLVMSetAlignment(LLVMBuildStore(b->b, LLVMBuildAdd(b->b, old, v, ""), p), 4);
	LLVMBuildStore(b->b, old, LLVMBuildInBoundsGEP2(b->b, at, b->lhi, idx, 2, ""));
	LLVMValueRef next = LLVMBuildAnd(b->b, m, LLVMBuildSub(b->b, m, c32(b, 1), ""), "");
	LLVMBuildBr(b->b, head);
	LLVMBasicBlockRef from[2] = { pre, body };
	LLVMValueRef in[2] = { pm0, next };
	LLVMAddIncoming(m, in, from, 2);
	LLVMPositionBuilderAtEnd(b->b, done);
	if (od->reg == 255)
		return;
	LLVMValueRef res = LLVMBuildLoad2(b->b, b->v32, b->lhi, "");
	LLVMSetAlignment(res, 4);
	set_row(b, od, 0, res);
}

/* RED.ADD or ATOMG.ADD to RZ of 32 bits for the current warp, its check
 * passed: rt->red with the lanes under the guard, their host words at
 * delta + the low word, which the turn holds back where it can
 * (exec/red.h: the interpreter's do_atom). */
static void emit_red_add(jb *b, const xinsn *i)
{
	set_guard(b, i, true);
	LLVMValueRef lo = get_row(b, mem_opd(i)->row);
	LLVMValueRef val = src(b, &i->o[i->optype == ISA_OPT_RED ? RED_rb : ATOM_rb], 0, false);
	LLVMBasicBlockRef idle = skip_idle(b);
	LLVMValueRef d = LLVMBuildLoad2(b->b, b->i64, delta_slot(b), "");
	LLVMSetAlignment(LLVMBuildStore(b->b, lo, b->loff), 4);
	LLVMSetAlignment(LLVMBuildStore(b->b, val, b->llo), 4);
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0), pi32 = LLVMPointerType(b->i32, 0);
	LLVMTypeRef args_t[6] = { pi8, b->i64, pi32, pi32, b->i32, b->i32 };
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(b->cx), args_t, 6, false);
	LLVMValueRef f = rt_field(b, offsetof(xjit_rt, red), LLVMPointerType(ft, 0));
	LLVMValueRef args[6] = { b->w,
				 d,
				 LLVMBuildBitCast(b->b, b->loff, pi32, ""),
				 LLVMBuildBitCast(b->b, b->llo, pi32, ""),
				 b->pm ? b->pm : c32(b, 0xffffffffu),
				 c32(b, (uint32_t)i->in->type) };
	LLVMBuildCall2(b->b, ft, f, args, 6, "");
	if (idle) {
		LLVMBuildBr(b->b, idle);
		LLVMPositionBuilderAtEnd(b->b, idle);
	}
}

/* Before the current warp's global access other than those adds, in a
 * kernel that holds them (b->holds): what the turn holds goes to memory
 * (rt->flush) when it overlaps the access's host bytes [hlo, hhi), its
 * check's (xred_touch).  Another warp's held add may have come after
 * that check, and the check's window spans a whole allocation, so
 * jit_global's own touch is not enough here. */
static void emit_settle(jb *b)
{
	_Static_assert(sizeof(uintptr_t) == 8 && sizeof(((xred *)0)->n) == 4, "xred's fields as loaded here");
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0);
	LLVMValueRef r = LLVMBuildLoad2(b->b, pi8, field_ptr(b, b->w, offsetof(we_warp, red), pi8), "");
	LLVMBasicBlockRef some = wblock(b, "held"), test = wblock(b, "held_span"), flush = wblock(b, "flush"),
			  done = wblock(b, "settled");
	LLVMBuildCondBr(b->b, LLVMBuildIsNotNull(b->b, r, ""), some, done);
	LLVMPositionBuilderAtEnd(b->b, some);
	LLVMValueRef n = LLVMBuildLoad2(b->b, b->i32, field_ptr(b, r, offsetof(xred, n), b->i32), "");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntNE, n, c32(b, 0), ""), test, done);
	LLVMPositionBuilderAtEnd(b->b, test);
	LLVMValueRef lo = LLVMBuildLoad2(b->b, b->i64, field_ptr(b, r, offsetof(xred, lo), b->i64), "");
	LLVMValueRef hi = LLVMBuildLoad2(b->b, b->i64, field_ptr(b, r, offsetof(xred, hi), b->i64), "");
	LLVMValueRef hl = LLVMBuildLoad2(b->b, b->i64, lane_word(b, b->hlo[b->slot], b->j), "");
	LLVMValueRef hh = LLVMBuildLoad2(b->b, b->i64, lane_word(b, b->hhi[b->slot], b->j), "");
	LLVMValueRef over = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntULT, hl, hi, ""),
					 LLVMBuildICmp(b->b, LLVMIntUGT, hh, lo, ""), "");
	LLVMBuildCondBr(b->b, over, flush, done);
	LLVMPositionBuilderAtEnd(b->b, flush);
	LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(b->cx), &pi8, 1, false);
	LLVMBuildCall2(b->b, ft, rt_field(b, offsetof(xjit_rt, flush), LLVMPointerType(ft, 0)), &r, 1, "");
	LLVMBuildBr(b->b, done);
	LLVMPositionBuilderAtEnd(b->b, done);
}

/* No row or predicate value known (a new warp, or code that other code
 * than the block before it reaches). */
static void cache_reset(jb *b)
{
	memset(b->row, 0, b->nrows * sizeof *b->row);
	memset(b->dirty, 0, b->nrows * sizeof *b->dirty);
	memset(b->pred, 0, sizeof b->pred);
	memset(b->pdirty, 0, sizeof b->pdirty);
	b->nlinear = 0;
}

/* The loop over the warps: its first block, j, the warp's rows and
 * we_warp, the caches of its values emptied.  It runs the warps 0 to
 * n - 1, or those of list b->lin (emit_run), which holds only warps
 * whose guard gi holds in some lane.  With gi (every instruction of the
 * loop under gi's guard) and no list: a warp whose guard is false in
 * every lane goes straight to the next, as exec_group skips it (none
 * runs, so none changes the guard). */
static void loop_begin(jb *b, const xinsn *gi)
{
	b->latch = wblock(b, "next");
	if (b->single) {
		/* (the warp function: its one warp, no loop) */
		b->j = c64(b, 0);
		b->r = b->r0;
		b->w = b->w0;
	} else {
		LLVMBasicBlockRef pre = LLVMGetInsertBlock(b->b);
		b->head = wblock(b, "warp");
		b->out = wblock(b, "warps");
		if (b->lin >= 0)
			LLVMBuildCondBr(b->b,
					LLVMBuildICmp(b->b, LLVMIntEQ, LLVMBuildLoad2(b->b, b->i64, b->nwl[b->lin], ""),
						      c64(b, 0), ""),
					b->out, b->head);
		else
			LLVMBuildBr(b->b, b->head);
		LLVMPositionBuilderAtEnd(b->b, b->head);
		b->idx = LLVMBuildPhi(b->b, b->i64, "k");
		LLVMValueRef zero = c64(b, 0);
		LLVMAddIncoming(b->idx, &zero, &pre, 1);
		b->j = b->lin >= 0 ? LLVMBuildLoad2(b->b, b->i64, lane_word(b, b->wl[b->lin], b->idx), "j") : b->idx;
		LLVMValueRef lanes = LLVMBuildMul(b->b, b->j, c64(b, XLANES), "");
		b->r = LLVMBuildInBoundsGEP2(b->b, b->i32, b->r0, &lanes, 1, "");
		LLVMValueRef wo = LLVMBuildMul(b->b, b->j, c64(b, sizeof(we_warp)), "");
		b->w = LLVMBuildInBoundsGEP2(b->b, b->i8, b->w0, &wo, 1, "");
	}
	cache_reset(b);
	b->count = c32(b, 0);
	if (gi && b->lin < 0) {
		set_guard(b, gi, false);
		LLVMBasicBlockRef body = wblock(b, "some");
		LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->pm, c32(b, 0), ""), b->latch, body);
		LLVMPositionBuilderAtEnd(b->b, body);
	}
}

/* Row row may be read at instruction b->after or after it: a register
 * live there, or a row past the registers (conservatively). */
static bool row_live(const jb *b, uint32_t row)
{
	return !b->live || row >= b->L->k->nregs || regs_has(&b->live[b->after], row);
}

/* The end of the current warp's code (a path of it): its stores (the
 * rows and predicates written that are live where it goes on, its
 * thread count), the warp in list b->lout when the guard of the next
 * loop holds in some lane (idle: known not to), and the next warp. */
static void warp_end(jb *b, bool idle)
{
	for (uint32_t row = 0; row < b->nrows; row++) {
		if (!b->dirty[row] || !row_live(b, row) || regs_has(&b->defer, row))
			continue;
		LLVMValueRef st = LLVMBuildStore(b->b, b->row[row], row_ptr(b, row));
		LLVMSetAlignment(st, 4);
	}
	for (unsigned p = 0; p < WE_NUM_PREDS; p++)
		if (b->pdirty[p])
			LLVMBuildStore(b->b, b->pred[p], field_ptr(b, b->w, pred_off(p), b->i32));
	/* (none where every instruction so far is unguarded: set_guard) */
	const bool none = LLVMIsAConstantInt(b->count) && !LLVMConstIntGetZExtValue(b->count);
	LLVMValueRef cnt = LLVMBuildZExt(b->b, b->count, b->i64, "");
	LLVMValueRef tp = field_ptr(b, b->w, offsetof(we_warp, thread_insns), b->i64);
	if (!none)
		LLVMBuildStore(b->b, LLVMBuildAdd(b->b, LLVMBuildLoad2(b->b, b->i64, tp, ""), cnt, ""), tp);
	if (b->pcmode == PC_SET || (b->pcmode == PC_ADD && !none)) {
		LLVMValueRef pc = lane_word(b, b->pcount, b->j);
		if (b->pcmode == PC_ADD)
			cnt = LLVMBuildAdd(b->b, LLVMBuildLoad2(b->b, b->i64, pc, ""), cnt, "");
		LLVMBuildStore(b->b, cnt, pc);
	}
	if (b->lout >= 0 && !idle) {
		set_guard(b, b->gnext, false);
		LLVMValueRef nl = LLVMBuildLoad2(b->b, b->i64, b->nwl[b->lout], "");
		LLVMBuildStore(b->b, b->j, lane_word(b, b->wl[b->lout], nl));
		LLVMValueRef some = LLVMBuildICmp(b->b, LLVMIntNE, b->pm, c32(b, 0), "");
		LLVMBuildStore(b->b, LLVMBuildAdd(b->b, nl, LLVMBuildZExt(b->b, some, b->i64, ""), ""), b->nwl[b->lout]);
	}
	LLVMBuildBr(b->b, b->latch);
}

/* The warp's end (warp_end) and the next warp. */
static void loop_end(jb *b)
{
	warp_end(b, false);
	LLVMPositionBuilderAtEnd(b->b, b->latch);
	if (b->single)
		return;
	LLVMValueRef next = LLVMBuildAdd(b->b, b->idx, c64(b, 1), "");
	LLVMValueRef lim = b->lin >= 0 ? LLVMBuildLoad2(b->b, b->i64, b->nwl[b->lin], "") : b->n;
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntULT, next, lim, ""), b->head, b->out);
	LLVMAddIncoming(b->idx, &next, &b->latch, 1);
	LLVMPositionBuilderAtEnd(b->b, b->out);
}

/* A warp whose guard g is false in every lane skips the rest of its
 * loop, all of it under g (emit_run): nothing there runs for it, so it
 * ends (warp_end) with the values so far; the code after this runs for
 * the other warps, with the values so far cached as before. */
static void skip_rest(jb *b, const xinsn *g)
{
	set_guard(b, g, false);
	LLVMBasicBlockRef idle = wblock(b, "rest_idle"), busy = wblock(b, "rest");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->pm, c32(b, 0), ""), idle, busy);
	LLVMPositionBuilderAtEnd(b->b, idle);
	/* (warp_end may load a predicate, on this path only: the cache
	 * as it was for the code after) */
	LLVMValueRef pred[WE_NUM_PREDS];
	memcpy(pred, b->pred, sizeof pred);
	warp_end(b, b->gnext && same_guard(b->gnext, g));
	memcpy(b->pred, pred, sizeof pred);
	LLVMPositionBuilderAtEnd(b->b, busy);
}

/* The memory instructions of the run code[0..len) into b->mem, in
 * phases: phase p is b->mem[b->ph[p] .. b->ph[p + 1]); returns how many
 * phases.  A phase is a memory instruction, and after a load the loads
 * that follow it (LDG, LDS, up to XJIT_PHASE in all) whose address
 * registers and guard no instruction from the phase's first on writes:
 * their checks can all come before the phase's first access (emit_run).
 * Loads of any warps in any order read what they read in warp order:
 * between them nothing writes memory. */
static uint32_t run_phases(jb *b, const xinsn *code, uint32_t len)
{
	uint32_t nm = 0, np = 0;
	for (uint32_t q = 0; q < len; q++)
		if (is_mem(&code[q]))
			b->mem[nm++] = q;
	regset outs = { { 0 } };
	bool preds = false;
	for (uint32_t k = 0; k < nm; k++) {
		const xinsn *x = &code[b->mem[k]];
		bool joins = np && k - b->ph[np - 1] < XJIT_PHASE && is_load(x) && is_load(&code[b->mem[b->ph[np - 1]]]);
		if (joins) {
			for (uint32_t q = b->mem[k - 1]; q < b->mem[k]; q++) {
				xflow_outs(&code[q], &outs);
				preds |= code[q].writes_pred;
			}
			const xopd *a = mem_opd(x);
			joins = !regs_has(&outs, a->reg) && !(is_global(x) && regs_has(&outs, a->reg + 1u)) &&
				!(preds && !xunguarded(x));
		}
		if (!joins) {
			b->ph[np++] = k;
			outs = (regset){ { 0 } };
			preds = false;
		}
	}
	b->ph[np] = nm;
	return np;
}

/* Loop p of emit_run's np: the accesses of phase p - 1 with the
 * instructions between them, code[*from..*to), then the checks of phase
 * p's *nchk memory instructions (none after the last phase). */
static void loop_span(const jb *b, uint32_t p, uint32_t np, uint32_t len, uint32_t *from, uint32_t *to,
		      uint32_t *nchk)
{
	*from = p ? b->mem[b->ph[p - 1]] : 0;
	*to = p < np ? b->mem[b->ph[p]] : len;
	*nchk = p < np ? b->ph[p + 1] - b->ph[p] : 0;
}

/* Every memory instruction phase p checks (nchk of them) is under g's
 * guard. */
static bool checks_under(const jb *b, const xinsn *code, uint32_t p, uint32_t nchk, const xinsn *g)
{
	for (uint32_t k = 0; k < nchk; k++)
		if (!same_guard(&code[b->mem[b->ph[p] + k]], g))
			return false;
	return true;
}

/* The instruction whose guard every instruction of loop p shares
 * (loop_begin), or NULL. */
static const xinsn *loop_guard(const jb *b, const xinsn *code, uint32_t p, uint32_t np, uint32_t len)
{
	uint32_t from, to, nchk;
	loop_span(b, p, np, len, &from, &to, &nchk);
	const xinsn *g = from < to ? &code[from] : nchk ? &code[b->mem[b->ph[p]]] : NULL;
	if (!g || xunguarded(g))
		return NULL;
	for (uint32_t q = from; q < to; q++)
		if (!same_guard(&code[q], g))
			return NULL;
	return checks_under(b, code, p, nchk, g) ? g : NULL;
}

/* The first instruction of the rest of loop p (code[from..to), then its
 * checks) that is all under one guard other than PT, or to when that
 * rest holds no instruction before to. */
static uint32_t rest_start(const jb *b, const xinsn *code, uint32_t p, uint32_t np, uint32_t len)
{
	uint32_t from, to, nchk;
	loop_span(b, p, np, len, &from, &to, &nchk);
	const xinsn *g = nchk ? &code[b->mem[b->ph[p]]] : to > from ? &code[to - 1u] : NULL;
	if (!g || xunguarded(g) || !checks_under(b, code, p, nchk, g))
		return to;
	uint32_t s = to;
	while (s > from && same_guard(&code[s - 1u], g))
		s--;
	return s;
}

/* The side exit at memory instruction m of the run at code (emit_run):
 * the block function returns m; the warp function (wside_exit) stores
 * the PC and counters and returns what it ran. */
static void wside_exit(jb *b, uint32_t m);

/* No allocation in the global window yet: [UINT64_MAX, 0). */
static void win_none(jb *b)
{
	LLVMBuildStore(b->b, c64(b, UINT64_MAX), win_word(b, 0));
	LLVMBuildStore(b->b, c64(b, 0), win_word(b, 1));
	LLVMBuildStore(b->b, c64(b, 0), b->wdelta[b->slot]);
	LLVMBuildStore(b->b, LLVMConstInt(b->i1, 0, false), b->wbig[b->slot]);
}

/* The window of the current slot at the start of a loop that checks
 * the kernel's memory instruction q: the one the function's first warp
 * kept at q's entry (jwin_entry; zero, an empty one, until a
 * translation).  An entry another instruction left is as good: the
 * check tests the address against it before using it, and allocations
 * do not change during a launch.  Translating each global instruction
 * once per call took 8% of a streaming kernel's time (bench/README.md). */
static void win_load(jb *b, uint32_t q)
{
	LLVMValueRef e = jwin_entry(b, q);
	LLVMValueRef to[3] = { win_word(b, 0), win_word(b, 1), b->wdelta[b->slot] };
	for (unsigned k = 0; k < 3; k++)
		LLVMBuildStore(b->b, LLVMBuildLoad2(b->b, b->i64, jwin_word(b, e, k), ""), to[k]);
	win_big(b);
}

/* Instruction x's reads of registers into *use and of predicates into
 * *puse, a guarded write's destinations included (the lanes it leaves
 * keep their values), its address operand left out when skip_addr; its
 * predicate writes into *pout.  false: it writes a uniform register or
 * predicate (what a restart would have to undo). */
static bool insn_reads(const xinsn *x, bool skip_addr, regset *use, unsigned *puse, unsigned *pout)
{
	bool ok = true;
	unsigned pw = 0;
	for (unsigned o = 0; o < x->nopd; o++) {
		const xopd *d = &x->o[o];
		const bool out = (d->flags & XF_OUT) != 0;
		if ((d->kind == XO_REG && !out) || d->kind == XO_CMEMIND || (d->kind == XO_MEM && !skip_addr))
			regs_add(use, d);
		else if (d->kind == XO_PRED && d->row < 7)
			*(out ? &pw : puse) |= 1u << d->row;
		ok &= !(out && (d->kind == XO_UREG || d->kind == XO_UPRED));
	}
	if (!xunguarded(x)) {
		xflow_outs(x, use);
		*puse |= pw | (x->pg < 7 ? 1u << x->pg : 0u);
	}
	*pout |= pw;
	return ok && (!x->writes_pred || pw);
}

/* Whether code[q] is one of phase p's memory instructions whose address
 * register only its check and its access read (a load or a store: an
 * atomic's access reads it in every case). */
static bool phase_access(const jb *b, const xinsn *code, uint32_t p, uint32_t q)
{
	for (uint32_t k = b->ph[p]; k < b->ph[p + 1]; k++)
		if (b->mem[k] == q)
			return !is_atom(&code[q]);
	return false;
}

/* The registers written in loop p (its span from..to) that nothing after
 * it reads (but phase p's checks and accesses, as addresses) and that
 * are dead at the run's end or written again before it: only a side
 * exit at to would read them from the register file. */
static regset loop_defer(const jb *b, const xinsn *code, uint32_t len, uint32_t p, uint32_t from, uint32_t to)
{
	regset outs = { { 0 } }, later = { { 0 } }, redef = { { 0 } };
	for (uint32_t q = from; q < to; q++)
		xflow_outs(&code[q], &outs);
	for (uint32_t q = to; q < len; q++) {
		unsigned pu = 0, pw = 0;
		(void)insn_reads(&code[q], phase_access(b, code, p, q), &later, &pu, &pw);
		xflow_defs(&code[q], &redef);
	}
	const regset *live = b->live ? &b->live[(code - b->base) + len] : NULL;
	regset d = { { 0 } };
	for (unsigned r = 0; r < b->L->k->nregs && r < 256; r++)
		if (regs_has(&outs, r) && !regs_has(&later, r) && (regs_has(&redef, r) || (live && !regs_has(live, r))))
			d.b[r / 64] |= UINT64_C(1) << (r % 64);
	return d;
}

/* The run's restartable prefix: its first loops whose side exits may go
 * back to the run's first instruction (the interpreter runs it all
 * again), so that the rows only those side exits would read need not be
 * stored (defer[p], loop_defer).  A loop belongs when what it commits
 * cannot change what the run reads from its start: it accesses no
 * memory but loads (phase p - 1's), writes no uniform register or
 * predicate, and no register or predicate it stores is read from the
 * run's start before the run writes it.  How many loops, up to the last
 * one that defers a row (XJIT_PREFIX at most); none in the warp function
 * (its side exits keep its counters) or where global adds are held
 * back. */
static uint32_t defer_plan(jb *b, const xinsn *code, uint32_t len, uint32_t np, regset *defer)
{
	if (b->single || b->holds)
		return 0;
	regset exposed = { { 0 } }, defs = { { 0 } }, stored = { { 0 } };
	unsigned pexposed = 0, pdefs = 0, pstored = 0;
	uint32_t n = 0;
	for (uint32_t p = 0; p < np && p < XJIT_PREFIX; p++) {
		uint32_t from, to, nchk;
		loop_span(b, p, np, len, &from, &to, &nchk);
		bool ok = true;
		regset outs = { { 0 } };
		for (uint32_t q = from; q < to; q++) {
			const xinsn *x = &code[q];
			regset use = { { 0 } };
			unsigned puse = 0, pout = 0;
			ok &= insn_reads(x, false, &use, &puse, &pout) && (!is_mem(x) || is_load(x));
			for (unsigned k = 0; k < 4; k++)
				exposed.b[k] |= use.b[k] & ~defs.b[k];
			pexposed |= puse & ~pdefs;
			xflow_defs(x, &defs);
			if (xunguarded(x))
				pdefs |= pout;
			xflow_outs(x, &outs);
			pstored |= pout;
		}
		defer[p] = loop_defer(b, code, len, p, from, to);
		/* (a deferred address row that a check stores for its gather
		 * or scatter, store_scattered, may be stored too) */
		regset addr = { { 0 } };
		for (uint32_t k = b->ph[p]; k < b->ph[p + 1]; k++) {
			const xinsn *m = &code[b->mem[k]];
			if (!is_atom(m))
				regs_add(&addr, &(xopd){ .reg = mem_opd(m)->reg, .nregs = 1 });
		}
		bool any = false;
		for (unsigned k = 0; k < 4; k++) {
			/* (what an earlier loop stored stays stored) */
			stored.b[k] |= (outs.b[k] & ~defer[p].b[k]) | (addr.b[k] & defer[p].b[k]);
			ok &= !(stored.b[k] & exposed.b[k]);
			any |= defer[p].b[k] != 0;
		}
		if (!ok || (pstored & pexposed))
			break;
		if (any)
			n = p + 1;
	}
	return n;
}

/* A side exit of the restartable prefix: the thread-instructions it
 * counted (pcount) taken back from the warps 0 to n - 1, which run the
 * block again from its start. */
static void undo_pcounts(jb *b)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(b->b), head = wblock(b, "uncount"), done = wblock(b, "uncounted");
	LLVMBuildBr(b->b, head);
	LLVMPositionBuilderAtEnd(b->b, head);
	LLVMValueRef j = LLVMBuildPhi(b->b, b->i64, "");
	LLVMValueRef zero = c64(b, 0);
	LLVMAddIncoming(j, &zero, &pre, 1);
	LLVMValueRef wo = LLVMBuildMul(b->b, j, c64(b, sizeof(we_warp)), "");
	LLVMValueRef w = LLVMBuildInBoundsGEP2(b->b, b->i8, b->w0, &wo, 1, "");
	LLVMValueRef tp = field_ptr(b, w, offsetof(we_warp, thread_insns), b->i64);
	LLVMValueRef c = LLVMBuildLoad2(b->b, b->i64, lane_word(b, b->pcount, j), "");
	LLVMBuildStore(b->b, LLVMBuildSub(b->b, LLVMBuildLoad2(b->b, b->i64, tp, ""), c, ""), tp);
	LLVMValueRef next = LLVMBuildAdd(b->b, j, c64(b, 1), "");
	LLVMAddIncoming(j, &next, &head, 1);
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntULT, next, b->n, ""), head, done);
	LLVMPositionBuilderAtEnd(b->b, done);
}

/* Whether memory instructions e and m (code[e] before code[m]) pass or
 * fail their checks together, so that m may take e's: the same space,
 * address operand, size and guard, neither an atomic's or a global
 * add's check (scattered lanes) nor a streaming store's (its first
 * address carries the mark, emit_stream), and no instruction from e on
 * writes the address registers or, under a guard, a predicate.  A tree
 * reduction's STS [R5] after its LDS [R5]. */
static bool check_twins(const jb *b, const xinsn *code, uint32_t e, uint32_t m)
{
	const xinsn *x = &code[e], *y = &code[m];
	const xopd *a = mem_opd(x), *c = mem_opd(y);
	if (is_atom(x) || is_atom(y) || is_red(x) || is_red(y) || is_global(x) != is_global(y) || a->reg != c->reg ||
	    a->imm != c->imm || mem_bytes(x) != mem_bytes(y) || !same_guard(x, y) ||
	    (is_global(x) && (stream_store(b, x) || stream_store(b, y))))
		return false;
	regset outs = { { 0 } };
	for (uint32_t q = e; q < m; q++) {
		xflow_outs(&code[q], &outs);
		if (code[q].writes_pred && !xunguarded(y))
			return false;
	}
	return !regs_has(&outs, a->reg) && !(is_global(x) && regs_has(&outs, a->reg + 1u));
}

/* The slot whose check the k-th memory instruction of phase p may take
 * (check_twins), its values still there when loop p checks it: one of
 * phase p's before k, or one of phase p - 1's from k on (loop p's checks
 * write the slots in order); -1: none. */
static int check_twin(const jb *b, const xinsn *code, uint32_t p, uint32_t k)
{
	const uint32_t m = b->mem[b->ph[p] + k];
	for (uint32_t t = 0; t < k; t++)
		if (check_twins(b, code, b->mem[b->ph[p] + t], m))
			return (int)t;
	for (uint32_t t = k; p && b->ph[p - 1] + t < b->ph[p]; t++)
		if (check_twins(b, code, b->mem[b->ph[p - 1] + t], m))
			return (int)t;
	return -1;
}

/* The current slot's check taken from slot t's, the same warp's
 * (check_twin): its delta, first address and, where global adds are
 * held back, host bytes (emit_settle).  An idle warp's copy is of what
 * its access never reads. */
static void check_copy(jb *b, unsigned t)
{
	if (t == b->slot)
		return;
	LLVMValueRef *from[4] = { b->delta, b->first, b->hlo, b->hhi };
	for (unsigned k = 0; k < (b->holds ? 4u : 2u); k++)
		LLVMBuildStore(b->b, LLVMBuildLoad2(b->b, b->i64, lane_word(b, from[k][t], b->j), ""),
			       lane_word(b, from[k][b->slot], b->j));
}

/* The instructions code[0..len) of a block for the warps of the
 * function: one loop over the warps per phase of memory instructions
 * (run_phases), plus one: a loop runs the accesses of the previous
 * phase with the ALU instructions between and after them up to the next
 * phase, and that phase's checks, for each warp in turn; after it, a
 * failed check takes the side exit (jit.h) at the phase's first
 * instruction, or, in the restartable prefix (defer_plan), at the run's
 * first.  So every warp's accesses of one phase come before any
 * warp's of the next, in warp order, as in exec_group (within a phase,
 * loads: the same values); the ALU instructions touch only their own
 * warp.  Ends where the run has completed.
 *
 * Warps that run nothing are passed over at the least cost: a loop all
 * under one guard runs only the warps listed by the loop before, those
 * whose guard held in some lane at its end (a warp that runs nothing
 * changes nothing: the others stay off the list); and a warp whose
 * guard is false in every lane skips the rest of a loop that is all
 * under that guard (skip_rest: reduce's @P0 after its ISETP). */
static void emit_run(jb *b, const xinsn *code, uint32_t len)
{
	const uint32_t np = run_phases(b, code, len);
	b->lin = -1;
	regset defer[XJIT_PREFIX];
	const uint32_t nprefix = defer_plan(b, code, len, np, defer);
	/* (a first loop that passes over some warps leaves their pcount
	 * unset: PC_SET) */
	if (nprefix && loop_guard(b, code, 0, np, len))
		LLVMBuildMemSet(b->b, LLVMBuildBitCast(b->b, b->pcount, LLVMPointerType(b->i8, 0), ""),
				LLVMConstInt(b->i8, 0, false), c64(b, XLANES * 8u), 8);
	for (uint32_t p = 0;; p++) {
		uint32_t from, to, nchk;
		loop_span(b, p, np, len, &from, &to, &nchk);
		const xinsn *gi = loop_guard(b, code, p, np, len);
		b->gnext = p < np && !b->single ? loop_guard(b, code, p + 1u, np, len) : NULL;
		b->lout = b->gnext ? (b->lin == 0 ? 1 : 0) : -1;
		if (b->lout >= 0)
			LLVMBuildStore(b->b, c64(b, 0), b->nwl[b->lout]);
		const uint32_t s = gi ? to : rest_start(b, code, p, np, len);
		if (nchk)
			LLVMBuildStore(b->b, LLVMConstInt(b->i1, 0, false), b->fail);
		/* (the warp function's one warp keeps its windows from run to
		 * run: win_none at its start) */
		for (uint32_t k = 0; k < nchk && !b->single; k++) {
			b->slot = k;
			const xinsn *m = &code[b->mem[b->ph[p] + k]];
			if (is_global(m))
				win_load(b, (uint32_t)(m - b->base));
		}
		/* (a side exit and the next loop go on at to, the run's end
		 * after the run) */
		b->after = (uint32_t)(code - b->base) + to;
		b->defer = p < nprefix ? defer[p] : (regset){ { 0 } };
		b->pcmode = p >= nprefix ? PC_WARP : p == 0 && !gi ? PC_SET : PC_ADD;
		loop_begin(b, gi);
		for (uint32_t q = from, k = 0; q < to; q++) {
			if (q == s)
				skip_rest(b, &code[q]);
			if (is_mem(&code[q])) {
				b->slot = k++;
				emit_mem_access(b, &code[q]);
			} else {
				emit_insn(b, &code[q]);
			}
			uniform_after(b, &code[q]);
		}
		for (uint32_t k = 0; k < nchk; k++) {
			b->slot = k;
			const int twin = check_twin(b, code, p, k);
			if (twin >= 0)
				check_copy(b, (unsigned)twin);
			else
				emit_mem_check(b, &code[b->mem[b->ph[p] + k]]);
		}
		loop_end(b);
		b->lin = b->lout;
		if (p == np)
			return;
		LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(b->cx, b->fn, "side_exit");
		LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(b->cx, b->fn, "checked");
		LLVMBuildCondBr(b->b, LLVMBuildLoad2(b->b, b->i1, b->fail, ""), out, on);
		LLVMPositionBuilderAtEnd(b->b, out);
		if (b->single) {
			wside_exit(b, to);
		} else if (p < nprefix) {
			undo_pcounts(b);
			LLVMBuildRet(b->b, c32(b, 0));
		} else {
			LLVMBuildRet(b->b, c32(b, to));
		}
		LLVMPositionBuilderAtEnd(b->b, on);
	}
}

/* The scratch slots of a function, in its entry block: the memory
 * instructions' (emit_run) and the parameters' pointer. */
static void fn_slots(jb *b)
{
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0);
	for (unsigned k = 0; k < XJIT_PHASE; k++) {
		b->delta[k] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "delta");
		b->first[k] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "first");
		b->win[k] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, 2), "win");
		b->wdelta[k] = LLVMBuildAlloca(b->b, b->i64, "wdelta");
		b->wbig[k] = LLVMBuildAlloca(b->b, b->i1, "wbig");
		if (b->holds) {
			b->hlo[k] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "hlo");
			b->hhi[k] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "hhi");
		}
	}
	b->fail = LLVMBuildAlloca(b->b, b->i1, "fail");
	b->pcount = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "pcount");
	b->shfl = LLVMBuildAlloca(b->b, LLVMArrayType(b->i32, XLANES), "shfl");
	b->loff = LLVMBuildAlloca(b->b, b->v32, "off");
	b->llo = LLVMBuildAlloca(b->b, b->v32, "lo");
	b->lhi = LLVMBuildAlloca(b->b, b->v32, "hi");
	for (int x = 0; x < 2; x++) {
		b->wl[x] = LLVMBuildAlloca(b->b, LLVMArrayType(b->i64, XLANES), "list");
		b->nwl[x] = LLVMBuildAlloca(b->b, b->i64, "listed");
	}
	b->params = LLVMBuildLoad2(b->b, pi8, field_ptr(b, b->rt, offsetof(xjit_rt, params), pi8), "");
}

/* The function of the block of len instructions at code[0..len), named
 * name (xjit_fn): emit_run over its n warps. */
static void emit_block(jb *b, const xinsn *code, uint32_t len, const char *name)
{
	LLVMTypeRef pi32 = LLVMPointerType(b->i32, 0), pi8 = LLVMPointerType(b->i8, 0);
	LLVMTypeRef params[5] = { pi32, b->i64, b->i64, pi8, pi8 };
	LLVMTypeRef ft = LLVMFunctionType(b->i32, params, 5, false);
	b->fn = LLVMAddFunction(b->mod, name, ft);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(b->cx, b->fn, "entry");
	LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(b->cx, b->fn, "start");
	LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(b->cx, b->fn, "none");
	b->r0 = LLVMGetParam(b->fn, 0);
	b->stride = LLVMGetParam(b->fn, 1);
	b->n = LLVMGetParam(b->fn, 2);
	b->w0 = LLVMGetParam(b->fn, 3);
	b->rt = LLVMGetParam(b->fn, 4);
	LLVMPositionBuilderAtEnd(b->b, entry);
	fn_slots(b);
	memcpy(b->uni, b->kuni, b->nrows * sizeof *b->uni);
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->n, c64(b, 0), ""), none, start);
	LLVMPositionBuilderAtEnd(b->b, none);
	LLVMBuildRet(b->b, c32(b, len));
	LLVMPositionBuilderAtEnd(b->b, start);
	emit_run(b, code, len);
	LLVMBuildRet(b->b, c32(b, len));
}

/* ---- the warp function (jit.h, xjit_wfn) ------------------------------ */

/* What the warp function does with an instruction: runs it in a block's
 * code (W_RUN, xjit_compilable), runs it inline (BSSY, BREAK; BRA
 * without .U or a condition, to a target in the kernel; BSYNC; EXIT of
 * some of the threads; a WARPSYNC of every lane, warpsync_all, while
 * every valid thread is active), or leaves it to the interpreter
 * (W_OUT). */
enum { W_OUT, W_RUN, W_BSSY, W_BRA, W_BSYNC, W_BREAK, W_EXIT, W_WARPSYNC };

/* The target of BRA code[q] (W_BRA: inside the kernel). */
static uint32_t bra_target(const xinsn *code, uint32_t q)
{
	return (uint32_t)((int64_t)q + 1 + code[q].o[BRA_offset].imm);
}
static uint8_t wkind(const we_launch_ctx *L, const xinsn *code, uint32_t q, uint32_t ni, bool ones)
{
	const xinsn *i = &code[q];
	if (i->optype == ISA_OPT_WARPSYNC)
		return warpsync_all(i, ones) ? W_WARPSYNC : W_OUT;
	if (xjit_compilable(L, i, ones))
		return W_RUN;
	if (i->optype == ISA_OPT_BSSY)
		return W_BSSY;
	if (i->optype == ISA_OPT_BSYNC)
		return W_BSYNC;
	if (i->optype == ISA_OPT_BREAK)
		return W_BREAK;
	/* (an EXIT of every executing thread, unguarded, is the
	 * interpreter's at once: no entry there) */
	if (i->optype == ISA_OPT_EXIT)
		return xunguarded(i) && xopd_pt(&i->o[EXIT_pp]) ? W_OUT : W_EXIT;
	if (i->optype == ISA_OPT_BRA && i->opcode != ISA_OP_BRA_U && i->in->cond == BRU_COND_NONE) {
		const int64_t t = (int64_t)q + 1 + i->o[BRA_offset].imm;
		return t >= 0 && t < (int64_t)ni ? W_BRA : W_OUT;
	}
	return W_OUT;
}

/* The warp function's entries (lab[q]) from the kinds of L's kernel's
 * instructions (kind[q]): the first instruction, every inline one and
 * what follows it, a compiled one after one the interpreter runs (where
 * exec_run comes back), and the targets of BRA (ones: warpsync_ones's).
 * Returns how many; computed again where an entry of the disk cache is
 * loaded. */
static uint32_t find_wlabels(const we_launch_ctx *L, uint8_t *kind, bool *lab, const bool *ones)
{
	const xinsn *code = L->mod->x + L->k->code_start / WE_INST_SIZE;
	const uint32_t ni = (L->k->code_end - L->k->code_start) / WE_INST_SIZE;
	for (uint32_t q = 0; q < ni; q++)
		kind[q] = wkind(L, code, q, ni, ones && ones[q]);
	for (uint32_t q = 0; q < ni; q++)
		lab[q] = kind[q] != W_OUT && (q == 0 || kind[q] != W_RUN || kind[q - 1] != W_RUN);
	for (uint32_t q = 0; q < ni; q++)
		if (kind[q] == W_BRA) {
			const uint32_t t = bra_target(code, q);
			lab[t] = kind[t] != W_OUT;
		}
	uint32_t n = 0;
	for (uint32_t q = 0; q < ni; q++)
		n += lab[q];
	return n;
}

static LLVMValueRef wfield(jb *b, size_t off, LLVMTypeRef t) { return field_ptr(b, b->w0, off, t); }
static LLVMValueRef wload(jb *b, size_t off, LLVMTypeRef t)
{
	return LLVMBuildLoad2(b->b, t, wfield(b, off, t), "");
}
static void wstore(jb *b, size_t off, LLVMValueRef v)
{
	LLVMBuildStore(b->b, v, wfield(b, off, LLVMTypeOf(v)));
}
static void wadd(jb *b, size_t off, LLVMValueRef v)
{
	wstore(b, off, LLVMBuildAdd(b->b, wload(b, off, LLVMTypeOf(v)), v, ""));
}

/* count_insn for n instructions (threads: their thread-instructions, or
 * NULL when emit_run's loops counted them), and the function's total */
static void wcount(jb *b, uint32_t n, LLVMValueRef threads)
{
	wadd(b, offsetof(we_warp, insns), c64(b, n));
	wadd(b, offsetof(we_warp, clock), c64(b, n));
	if (threads)
		wadd(b, offsetof(we_warp, thread_insns), LLVMBuildZExt(b->b, threads, b->i64, ""));
	LLVMBuildStore(b->b, LLVMBuildAdd(b->b, LLVMBuildLoad2(b->b, b->i64, b->done, ""), c64(b, n), ""), b->done);
}

static LLVMValueRef wpc(jb *b, uint32_t q) { return LLVMBuildAdd(b->b, b->pc0, c64(b, (uint64_t)q * WE_INST_SIZE), ""); }
/* Return what the function ran (through leave: wslots_end) */
static void wret(jb *b) { LLVMBuildBr(b->b, b->leave); }

/* Go on at instruction t: its entry, or the interpreter there. */
static void wgoto(jb *b, uint32_t t)
{
	if (t < b->ni && b->lbl[t]) {
		LLVMBuildBr(b->b, b->lbl[t]);
		return;
	}
	wstore(b, offsetof(we_warp, active_pc), wpc(b, t));
	wret(b);
}

static void wside_exit(jb *b, uint32_t m)
{
	wstore(b, offsetof(we_warp, active_pc), wpc(b, b->q0 + m));
	wcount(b, m, NULL);
	wret(b);
}

static LLVMValueRef popc(jb *b, LLVMValueRef m) { return LLVMBuildCall2(b->b, b->ctpop_t, b->ctpop, &m, 1, ""); }

/* RPC as <32 x i64> */
static LLVMValueRef rpc_ptr(jb *b) { return wfield(b, offsetof(we_warp, rpc), b->v64); }
/* Store the RPCs rpc (and say so: we_warp.rpc_written) */
static void wstore_rpc(jb *b, LLVMValueRef rpc)
{
	_Static_assert(sizeof(bool) == 1, "rpc_written is stored as an i8");
	LLVMSetAlignment(LLVMBuildStore(b->b, rpc, rpc_ptr(b)), 8);
	wstore(b, offsetof(we_warp, rpc_written), LLVMConstInt(b->i8, 1, false));
}

/* The offset in we_warp of B register imm (BSSY's, BSYNC's, BREAK's). */
static size_t breg_off(int64_t imm) { return offsetof(we_warp, breg) + 4u * ((unsigned)imm & (WE_NUM_BREGS - 1u)); }

/* BSSY (bru_bssy): breg |= guard & ActiveMask */
static void wemit_bssy(jb *b, const xinsn *i, uint32_t q)
{
	set_guard(b, i, false);
	const size_t off = breg_off(i->o[BSSY_breg].imm);
	wstore(b, off, LLVMBuildOr(b->b, wload(b, off, b->i32), b->pm, ""));
	wcount(b, 1, popc(b, b->pm));
	wgoto(b, q + 1);
}

/* BREAK (bru_break): breg &= ~(guard & Pp & ActiveMask) */
static void wemit_break(jb *b, const xinsn *i, uint32_t q)
{
	set_guard(b, i, false);
	const size_t off = breg_off(i->o[BREAK_breg].imm);
	LLVMValueRef pm = LLVMBuildAnd(b->b, b->pm, pred_src(b, &i->o[BREAK_pp]), "");
	wstore(b, off, LLVMBuildAnd(b->b, wload(b, off, b->i32), LLVMBuildNot(b->b, pm, ""), ""));
	wcount(b, 1, popc(b, b->pm));
	wgoto(b, q + 1);
}

/* EXIT (bru_exit) of some of the executing threads: they leave
 * ValidMask and the others go on.  When every executing thread exits the
 * warp exits or switches groups: the interpreter's (nothing changed or
 * counted yet). */
static void wemit_exit(jb *b, const xinsn *i, uint32_t q)
{
	set_guard(b, i, false);
	LLVMValueRef pm = LLVMBuildAnd(b->b, b->pm, pred_src(b, &i->o[EXIT_pp]), "");
	LLVMValueRef stay = LLVMBuildAnd(b->b, b->act, LLVMBuildNot(b->b, pm, ""), "");
	LLVMBasicBlockRef some = wblock(b, "exit_some"), all = wblock(b, "exit_all");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, stay, c32(b, 0), ""), all, some);
	LLVMPositionBuilderAtEnd(b->b, all);
	wstore(b, offsetof(we_warp, active_pc), wpc(b, q));
	wret(b);
	LLVMPositionBuilderAtEnd(b->b, some);
	/* (no thread under the guard: nothing dispatched, nothing exits) */
	wcount(b, 1, popc(b, b->pm));
	LLVMValueRef valid = wload(b, offsetof(we_warp, valid), b->i32);
	wstore(b, offsetof(we_warp, valid), LLVMBuildAnd(b->b, valid, LLVMBuildNot(b->b, pm, ""), ""));
	wstore(b, offsetof(we_warp, active), stay);
	wgoto(b, q + 1);
}

/* A WARPSYNC of every lane (warpsync_all, unguarded): while every valid
 * thread is active it passes them all (004: each thread of the
 * membermask has arrived), else it is the interpreter's. */
static void wemit_warpsync(jb *b, uint32_t q)
{
	LLVMValueRef valid = wload(b, offsetof(we_warp, valid), b->i32);
	LLVMBasicBlockRef all = wblock(b, "warpsync_all"), out = wblock(b, "warpsync_out");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->act, valid, ""), all, out);
	LLVMPositionBuilderAtEnd(b->b, out);
	wstore(b, offsetof(we_warp, active_pc), wpc(b, q));
	wret(b);
	LLVMPositionBuilderAtEnd(b->b, all);
	wcount(b, 1, popc(b, b->act));
	wstore(b, offsetof(we_warp, sync_seen), c32(b, 0));
	wgoto(b, q + 1);
}

/* BRA without .U or a condition (sem_BRA, bru_bra_mask, bru_jump_uniform
 * for one warp): the jump mask is guard & Pp & ActiveMask; none jumps:
 * the next instruction; all: the target; some: they wait at the target
 * (RPC) and the others go on (004's BRX algorithm). */
static void wemit_bra(jb *b, const xinsn *i, uint32_t q)
{
	set_guard(b, i, false);
	wcount(b, 1, popc(b, b->pm));
	const uint32_t t = bra_target(b->base, q);
	LLVMValueRef bj = LLVMBuildAnd(b->b, b->pm, pred_src(b, &i->o[BRA_pp]), "");
	LLVMBasicBlockRef some = wblock(b, "bra_some"), all = wblock(b, "bra_all"), part = wblock(b, "bra_part"),
			  fall = wblock(b, "bra_fall");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, bj, c32(b, 0), ""), fall, some);
	LLVMPositionBuilderAtEnd(b->b, some);
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, bj, b->act, ""), all, part);
	LLVMPositionBuilderAtEnd(b->b, all);
	wgoto(b, t);
	LLVMPositionBuilderAtEnd(b->b, part);
	wstore(b, offsetof(we_warp, active), LLVMBuildAnd(b->b, b->act, LLVMBuildNot(b->b, bj, ""), ""));
	LLVMValueRef old = LLVMBuildLoad2(b->b, b->v64, rpc_ptr(b), "");
	LLVMSetAlignment(old, 8);
	LLVMValueRef nv = LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, bj, b->vb, ""), bcast(b, wpc(b, t)), old, "");
	wstore_rpc(b, nv);
	LLVMBuildBr(b->b, fall);
	LLVMPositionBuilderAtEnd(b->b, fall);
	wgoto(b, q + 1);
}

/* 004's switchPCByMask(m) over RPC values rpc: the new ActiveMask, and
 * in *target the new ActivePC (the lowest thread of m's PC).  (The
 * element at a variable index costs four vector stores to the stack and
 * a load; a reduction over the lanes (vector.reduce.or of the one lane
 * selected) ran diverge 13% slower, and a select among four quarters
 * before the element as fast: bench/README.md.) */
static LLVMValueRef wswitch_to(jb *b, LLVMValueRef m, LLVMValueRef rpc, LLVMValueRef *target)
{
	LLVMValueRef args[2] = { m, LLVMConstInt(b->i1, 0, false) };
	LLVMValueRef lid = LLVMBuildCall2(b->b, b->cttz_t, b->cttz, args, 2, "");
	*target = LLVMBuildExtractElement(b->b, rpc, lid, "");
	return LLVMBuildAnd(b->b, m, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, rpc, bcast(b, *target), "")), "");
}

/* BSYNC's release (bru_bsync's 让步放行, spec-reading's reading there)
 * when none of the threads missing from its B register (missing) can
 * run: every one of them has arrived, yields or sleeps.  The arrived
 * threads go on after it; when valid threads outside the B register can
 * run (cand & ~missing), the warp switches to them first and the
 * arrived ones wait after the BSYNC.  sem_sync_progress: the executing
 * threads went on, its run of failing syncs ends. */
static void wemit_bsync_release(jb *b, uint32_t q, size_t off, LLVMValueRef rpc, LLVMValueRef arrive,
				LLVMValueRef cand, LLVMValueRef missing)
{
	wcount(b, 1, popc(b, b->pm));
	LLVMValueRef y = wload(b, offsetof(we_warp, yield), b->i32);
	wstore(b, offsetof(we_warp, yield), LLVMBuildAnd(b->b, y, LLVMBuildNot(b->b, b->pm, ""), ""));
	wstore(b, off, LLVMBuildAnd(b->b, missing, LLVMBuildNot(b->b, arrive, ""), ""));
	wstore(b, offsetof(we_warp, sync_seen), c32(b, 0));
	wstore(b, offsetof(we_warp, active), arrive);
	LLVMValueRef other = LLVMBuildAnd(b->b, cand, LLVMBuildNot(b->b, missing, ""), "");
	LLVMBasicBlockRef on = wblock(b, "bsync_released"), sw = wblock(b, "bsync_other");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, other, c32(b, 0), ""), on, sw);
	LLVMPositionBuilderAtEnd(b->b, on);
	wgoto(b, q + 1);
	LLVMPositionBuilderAtEnd(b->b, sw);
	/* RPC[ActiveMask] = ActivePC + INST_SIZE, then the switch */
	rpc = LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, arrive, b->vb, ""), bcast(b, wpc(b, q + 1)), rpc, "");
	wstore_rpc(b, rpc);
	LLVMValueRef target, nact = wswitch_to(b, other, rpc, &target);
	wstore(b, offsetof(we_warp, active), nact);
	wstore(b, offsetof(we_warp, active_pc), target);
	LLVMBuildBr(b->b, b->disp);
}

/* BSYNC's failed sync (bru_bsync, sem_sync_progress): the executing
 * threads park at it (RPC) and the warp switches to the lowest missing
 * thread of the B register that does not yield, and the threads at its
 * PC (004's switchPCByMask); on to that PC through the dispatch.  The
 * interpreter's when no such thread is missing (the release paths), or
 * when sem_sync_progress would find the run of failing syncs repeating
 * (its deadlock report): nothing is stored before those tests. */
static void wemit_bsync_fail(jb *b, uint32_t q, size_t off, LLVMValueRef valid, LLVMValueRef breg,
			     LLVMValueRef missing, LLVMBasicBlockRef slow)
{
	LLVMValueRef pc = wpc(b, q), pcv = bcast(b, pc);
	LLVMValueRef rpc = LLVMBuildLoad2(b->b, b->v64, rpc_ptr(b), "");
	LLVMSetAlignment(rpc, 8);
	LLVMValueRef arrive = LLVMBuildOr(
		b->b, b->act, LLVMBuildAnd(b->b, valid, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, rpc, pcv, "")), ""), "");
	LLVMValueRef cand = LLVMBuildAnd(b->b, valid, LLVMBuildNot(b->b, arrive, ""), "");
	cand = LLVMBuildAnd(b->b, cand, LLVMBuildNot(b->b, wload(b, offsetof(we_warp, yield), b->i32), ""), "");
	LLVMValueRef nyb = LLVMBuildAnd(b->b, cand, missing, "");
	LLVMBasicBlockRef sw = wblock(b, "bsync_switch"), commit = wblock(b, "bsync_switched"),
			  rel = wblock(b, "bsync_release");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, nyb, c32(b, 0), ""), rel, sw);
	LLVMPositionBuilderAtEnd(b->b, rel);
	wemit_bsync_release(b, q, off, rpc, arrive, cand, missing);
	LLVMPositionBuilderAtEnd(b->b, sw);
	/* RPC[ActiveMask] = ActivePC; the lowest candidate's PC */
	rpc = LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, b->act, b->vb, ""), pcv, rpc, "");
	LLVMValueRef target, nact = wswitch_to(b, nyb, rpc, &target);
	/* sem_sync_progress: the lanes at this PC (none of the new group:
	 * their RPC differs from it), the run of failing syncs */
	LLVMValueRef here = LLVMBuildAnd(
		b->b, LLVMBuildAnd(b->b, lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, rpc, pcv, "")), valid, ""),
		LLVMBuildNot(b->b, nact, ""), "");
	LLVMValueRef insns = LLVMBuildAdd(b->b, wload(b, offsetof(we_warp, insns), b->i64), c64(b, 1), "");
	LLVMValueRef fail_at = wload(b, offsetof(we_warp, sync_fail_at), b->i64);
	LLVMValueRef run = LLVMBuildAnd(
		b->b, LLVMBuildICmp(b->b, LLVMIntEQ, insns, LLVMBuildAdd(b->b, fail_at, c64(b, 1), ""), ""),
		LLVMBuildICmp(b->b, LLVMIntEQ, missing, breg, ""), "");
	LLVMValueRef seen = LLVMBuildSelect(b->b, run, wload(b, offsetof(we_warp, sync_seen), b->i32), c32(b, 0), "");
	LLVMValueRef key = LLVMBuildAnd(b->b, here, LLVMBuildSub(b->b, c32(b, 0), here, ""), "");
	/* (lanes that went on: not from here; a repeat: the report) */
	LLVMValueRef odd = LLVMBuildOr(b->b, LLVMBuildAnd(b->b, b->act, LLVMBuildNot(b->b, here, ""), ""),
				       LLVMBuildAnd(b->b, seen, key, ""), "");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, odd, c32(b, 0), ""), commit, slow);
	LLVMPositionBuilderAtEnd(b->b, commit);
	wcount(b, 1, popc(b, b->pm));
	wstore_rpc(b, rpc);
	wstore(b, off, missing);
	wstore(b, offsetof(we_warp, active), nact);
	wstore(b, offsetof(we_warp, active_pc), target);
	wstore(b, offsetof(we_warp, sync_fail_at), insns);
	wstore(b, offsetof(we_warp, sync_seen), LLVMBuildOr(b->b, seen, key, ""));
	LLVMBuildBr(b->b, b->disp);
}

/* BSYNC (bru_bsync, sem_sync_progress) when every executing thread runs
 * it (else the interpreter's: nothing changed or counted yet): when no
 * other thread of its B register is missing, 004's full sync (the
 * threads parked at it, RPC, join), else wemit_bsync_fail. */
static void wemit_bsync(jb *b, const xinsn *i, uint32_t q)
{
	set_guard(b, i, false);
	const size_t off = breg_off(i->o[BSYNC_breg].imm);
	LLVMBasicBlockRef idle = wblock(b, "bsync_idle"), busy = wblock(b, "bsync"), all = wblock(b, "bsync_all"),
			  slow = wblock(b, "bsync_slow"), done = wblock(b, "bsync_full"), fail = wblock(b, "bsync_fail");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->pm, c32(b, 0), ""), idle, busy);
	LLVMPositionBuilderAtEnd(b->b, idle);
	/* (no thread runs it: fetch counts it, nothing is dispatched) */
	wcount(b, 1, c32(b, 0));
	wgoto(b, q + 1);
	LLVMPositionBuilderAtEnd(b->b, busy);
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, b->act, b->pm, ""), all, slow);
	LLVMPositionBuilderAtEnd(b->b, slow);
	wstore(b, offsetof(we_warp, active_pc), wpc(b, q));
	wret(b);
	LLVMPositionBuilderAtEnd(b->b, all);
	LLVMValueRef valid = wload(b, offsetof(we_warp, valid), b->i32), breg = wload(b, off, b->i32);
	LLVMValueRef missing = LLVMBuildAnd(b->b, LLVMBuildAnd(b->b, breg, valid, ""), LLVMBuildNot(b->b, b->act, ""), "");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, missing, c32(b, 0), ""), done, fail);
	LLVMPositionBuilderAtEnd(b->b, fail);
	wemit_bsync_fail(b, q, off, valid, breg, missing, slow);
	LLVMPositionBuilderAtEnd(b->b, done);
	wcount(b, 1, popc(b, b->pm));
	LLVMValueRef rpc = LLVMBuildLoad2(b->b, b->v64, rpc_ptr(b), "");
	LLVMSetAlignment(rpc, 8);
	LLVMValueRef here = lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, rpc, bcast(b, wpc(b, q)), ""));
	LLVMValueRef arrive = LLVMBuildOr(b->b, b->act, LLVMBuildAnd(b->b, valid, here, ""), "");
	wstore(b, offsetof(we_warp, active), arrive);
	LLVMValueRef y = wload(b, offsetof(we_warp, yield), b->i32);
	wstore(b, offsetof(we_warp, yield), LLVMBuildAnd(b->b, y, LLVMBuildNot(b->b, arrive, ""), ""));
	wstore(b, off, c32(b, 0));
	/* (the executing threads went on: sem_sync_progress's run of
	 * failing syncs ends) */
	wstore(b, offsetof(we_warp, sync_seen), c32(b, 0));
	wgoto(b, q + 1);
}

/* An if/else from BSSY q (wdiamond): q + 1 is "@P BRA x"; the threads
 * that do not jump run [q + 2, e), then "BRA s" when bra, else on into
 * s; those that jump run [x, s) (none when x == s); s is the BSYNC of
 * q's B register.  Every instruction of [q + 2, e) and [x, s) is one the
 * compiled code runs, none of memory (no side exit). */
typedef struct wdia {
	uint32_t x, e, s;
	bool bra;
} wdia;

/* Whether BSSY q begins an if/else the warp function runs in one pass
 * (*d: its parts). */
static bool wdiamond(const jb *b, const uint8_t *kind, uint32_t q, wdia *d)
{
	const xinsn *code = b->base;
	if (q + 2u >= b->ni || !xunguarded(&code[q]) || kind[q + 1] != W_BRA)
		return false;
	d->x = bra_target(code, q + 1);
	uint32_t e = q + 2;
	while (e < b->ni && kind[e] == W_RUN && !is_mem(&code[e]))
		e++;
	if (e >= b->ni || d->x <= q + 1u)
		return false;
	const xinsn *j = &code[e];
	d->e = e;
	d->bra = kind[e] == W_BRA && e < d->x && xunguarded(j) && xopd_pt(&j->o[BRA_pp]);
	d->s = d->bra ? bra_target(code, e) : e;
	if (d->s >= b->ni || d->x > d->s || kind[d->s] != W_BSYNC || !xunguarded(&code[d->s]) ||
	    code[d->s].o[BSYNC_breg].imm != code[q].o[BSSY_breg].imm)
		return false;
	for (uint32_t m = d->x; m < d->s; m++)
		if (kind[m] != W_RUN || is_mem(&code[m]))
			return false;
	return true;
}

/* The instructions [from, to) of a side of an if/else for the threads
 * act (the count: none when empty). */
static void wdia_side(jb *b, uint32_t from, uint32_t to, LLVMValueRef act)
{
	if (from == to)
		return;
	b->act = act;
	b->q0 = from;
	emit_run(b, &b->base[from], to - from);
	wcount(b, to - from, NULL);
}

/* The if/else d from BSSY q in one pass, where the threads (ActiveMask
 * A) split at its BRA, none of its B register outside A is valid, none
 * outside A waits at its BSYNC (RPC), none of those that jump yields
 * and the budget holds it all: the state and counts of 004's way
 * (BSSY; BRA: those that jump wait at x; the others run to the BSYNC,
 * which fails and switches to them; they run to it and it syncs all of
 * A), with no switch.  When x is the BSYNC, those that jump wait at it
 * and its release (wemit_bsync_release) goes on.  Otherwise, on to the
 * BSSY itself. */
static void wemit_diamond(jb *b, const wdia *d, uint32_t q)
{
	const xinsn *bra = &b->base[q + 1];
	const size_t off = breg_off(b->base[q].o[BSSY_breg].imm);
	const uint32_t nrun = d->e - (q + 2u) + d->bra, n = 3u + nrun + (d->x < d->s ? d->s - d->x + 1u : 0u);
	LLVMValueRef A = b->act, valid = wload(b, offsetof(we_warp, valid), b->i32);
	LLVMValueRef yield = wload(b, offsetof(we_warp, yield), b->i32), breg = wload(b, off, b->i32);
	set_guard(b, bra, false);
	LLVMValueRef pm = b->pm, bj = LLVMBuildAnd(b->b, pm, pred_src(b, &bra->o[BRA_pp]), "");
	LLVMValueRef E = LLVMBuildAnd(b->b, A, LLVMBuildNot(b->b, bj, ""), "");
	LLVMValueRef rpc = LLVMBuildLoad2(b->b, b->v64, rpc_ptr(b), "");
	LLVMSetAlignment(rpc, 8);
	LLVMValueRef spc = wpc(b, d->s), xpc = wpc(b, d->x);
	LLVMValueRef parked = lane_mask(b, LLVMBuildICmp(b->b, LLVMIntEQ, rpc, bcast(b, spc), ""));
	LLVMValueRef outside = LLVMBuildAnd(b->b, valid, LLVMBuildNot(b->b, A, ""), "");
	/* (bad: what must be none) */
	LLVMValueRef bad = LLVMBuildOr(b->b, LLVMBuildAnd(b->b, A, LLVMBuildNot(b->b, valid, ""), ""),
				       LLVMBuildAnd(b->b, outside, LLVMBuildOr(b->b, breg, parked, ""), ""), "");
	bad = LLVMBuildOr(b->b, bad, LLVMBuildAnd(b->b, bj, yield, ""), "");
	LLVMValueRef go = LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, bad, c32(b, 0), ""),
				       LLVMBuildAnd(b->b, LLVMBuildICmp(b->b, LLVMIntNE, bj, c32(b, 0), ""),
						    LLVMBuildICmp(b->b, LLVMIntNE, E, c32(b, 0), ""), ""),
				       "");
	LLVMValueRef left = LLVMBuildSub(b->b, b->budget, LLVMBuildLoad2(b->b, b->i64, b->done, ""), "");
	go = LLVMBuildAnd(b->b, go, LLVMBuildICmp(b->b, LLVMIntUGE, left, c64(b, n), ""), "");
	LLVMBasicBlockRef fast = wblock(b, "ifelse"), slow = wblock(b, "bssy");
	LLVMBuildCondBr(b->b, go, fast, slow);
	LLVMPositionBuilderAtEnd(b->b, fast);
	/* BSSY, BRA, the side of those that do not jump */
	wcount(b, 1, popc(b, A));
	wcount(b, 1, popc(b, pm));
	wdia_side(b, q + 2u, d->e, E);
	if (d->bra)
		wcount(b, 1, popc(b, E));
	b->pm = E;
	if (d->x == d->s) {
		LLVMValueRef r = LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, bj, b->vb, ""), bcast(b, spc), rpc, "");
		wstore_rpc(b, r);
		LLVMValueRef cand = LLVMBuildAnd(b->b, outside, LLVMBuildNot(b->b, yield, ""), "");
		wemit_bsync_release(b, d->s, off, r, A, cand, bj);
	} else {
		/* the failed BSYNC (wemit_bsync_fail), the other side, the
		 * full BSYNC (wemit_bsync) */
		wcount(b, 1, popc(b, E));
		wstore(b, offsetof(we_warp, sync_fail_at), wload(b, offsetof(we_warp, insns), b->i64));
		wdia_side(b, d->x, d->s, bj);
		wcount(b, 1, popc(b, bj));
		LLVMValueRef r = LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, E, b->vb, ""), bcast(b, spc), rpc, "");
		wstore_rpc(b, LLVMBuildSelect(b->b, LLVMBuildBitCast(b->b, bj, b->vb, ""), bcast(b, xpc), r, ""));
		wstore(b, offsetof(we_warp, active), A);
		wstore(b, offsetof(we_warp, active_pc), xpc);
		wstore(b, offsetof(we_warp, yield), LLVMBuildAnd(b->b, yield, LLVMBuildNot(b->b, A, ""), ""));
		wstore(b, off, c32(b, 0));
		wstore(b, offsetof(we_warp, sync_seen), c32(b, 0));
		wgoto(b, d->s + 1u);
	}
	LLVMPositionBuilderAtEnd(b->b, slow);
	b->act = A;
}

/* The code at entry q of length len (1 for an inline instruction). */
static void wemit_entry(jb *b, const uint8_t *kind, uint32_t q, uint32_t len)
{
	LLVMPositionBuilderAtEnd(b->b, b->lbl[q]);
	cache_reset(b);
	/* a run longer than the budget left is the interpreter's */
	LLVMValueRef d = LLVMBuildLoad2(b->b, b->i64, b->done, "");
	LLVMBasicBlockRef stop = wblock(b, "budget"), go = wblock(b, "go");
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntULT, LLVMBuildSub(b->b, b->budget, d, ""), c64(b, len), ""),
			stop, go);
	LLVMPositionBuilderAtEnd(b->b, stop);
	wstore(b, offsetof(we_warp, active_pc), wpc(b, q));
	wret(b);
	LLVMPositionBuilderAtEnd(b->b, go);
	b->act = wload(b, offsetof(we_warp, active), b->i32);
	const xinsn *i = &b->base[q];
	switch (kind[q]) {
	case W_RUN:
		b->q0 = q;
		emit_run(b, i, len);
		wcount(b, len, NULL);
		wgoto(b, q + len);
		break;
	case W_BSSY: {
		wdia dia;
		if (wdiamond(b, kind, q, &dia))
			wemit_diamond(b, &dia, q);
		wemit_bssy(b, i, q);
		break;
	}
	case W_BRA: wemit_bra(b, i, q); break;
	case W_BREAK: wemit_break(b, i, q); break;
	case W_EXIT: wemit_exit(b, i, q); break;
	case W_WARPSYNC: wemit_warpsync(b, q); break;
	default: wemit_bsync(b, i, q); break;
	}
}

/* A copy of the field of type t at off (an alloca here) */
static void wslot(jb *b, size_t off, LLVMTypeRef t)
{
	b->ws[b->nws++] = (struct wcopy){ off, t, LLVMBuildAlloca(b->b, t, ""), false };
}

/* The fields of its warp that the warp function keeps copies of
 * (jb.ws): allocas in its first block. */
static void wslots(jb *b)
{
	static const struct {
		size_t off;
		uint8_t t; /* 0: i32, 1: i64, 2: i8, 3: the RPCs */
	} f[] = {
		{ offsetof(we_warp, active), 0 },       { offsetof(we_warp, valid), 0 },
		{ offsetof(we_warp, yield), 0 },        { offsetof(we_warp, sync_seen), 0 },
		{ offsetof(we_warp, sync_fail_at), 1 }, { offsetof(we_warp, insns), 1 },
		{ offsetof(we_warp, clock), 1 },        { offsetof(we_warp, thread_insns), 1 },
		{ offsetof(we_warp, active_pc), 1 },    { offsetof(we_warp, rpc_written), 2 },
		{ offsetof(we_warp, rpc), 3 },
	};
	_Static_assert(sizeof f / sizeof f[0] + WE_NUM_BREGS + WE_NUM_PREDS - 1u <= sizeof b->ws / sizeof b->ws[0],
		       "jb.ws holds them");
	LLVMTypeRef t[4] = { b->i32, b->i64, b->i8, b->v64 };
	b->nws = 0;
	for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++)
		wslot(b, f[k].off, t[f[k].t]);
	for (unsigned k = 0; k < WE_NUM_BREGS; k++)
		wslot(b, breg_off(k), b->i32);
	for (unsigned k = 0; k + 1u < WE_NUM_PREDS; k++)
		wslot(b, pred_off(k), b->i32);
}

/* Copy the value at from to to: a field of type t and its copy. */
static void wcopy_value(jb *b, LLVMTypeRef t, LLVMValueRef from, LLVMValueRef to)
{
	/* (i8, i32: their own size; i64 and the RPCs: 8) */
	const unsigned align = t == b->i8 ? 1 : t == b->i32 ? 4 : 8;
	LLVMValueRef v = LLVMBuildLoad2(b->b, t, from, "");
	LLVMSetAlignment(v, align);
	LLVMSetAlignment(LLVMBuildStore(b->b, v, to), align);
}

/* The copies the function used: each loaded from its field at the end
 * of the first block (before its branch), and stored back to it where
 * the function returns (leave); then no copy is kept.  (Storing back
 * only the copies stored into on the way, under a flag of each, left
 * reduce, whose warps return at once, as it was: bench/README.md.) */
static void wslots_end(jb *b)
{
	const unsigned nws = b->nws;
	b->nws = 0;
	LLVMValueRef mem[sizeof b->ws / sizeof b->ws[0]];
	LLVMPositionBuilderBefore(b->b, LLVMGetBasicBlockTerminator(b->wentry));
	for (unsigned k = 0; k < nws; k++)
		if (b->ws[k].used) {
			mem[k] = field_ptr(b, b->w0, b->ws[k].off, b->ws[k].t);
			wcopy_value(b, b->ws[k].t, mem[k], b->ws[k].p);
		}
	LLVMPositionBuilderAtEnd(b->b, b->leave);
	for (unsigned k = 0; k < nws; k++)
		if (b->ws[k].used)
			wcopy_value(b, b->ws[k].t, b->ws[k].p, mem[k]);
	LLVMBuildRet(b->b, LLVMBuildLoad2(b->b, b->i64, b->done, ""));
}

/* The warp function "w" of L's kernel (entries lab[], kinds kind[]):
 * from ActivePC through a switch to its entry; no lane may sleep (the
 * timer is the interpreter's). */
static void emit_warp_fn(jb *b, const uint8_t *kind, const bool *lab, uint32_t ni)
{
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0), pi32 = LLVMPointerType(b->i32, 0);
	LLVMTypeRef params[3] = { pi8, pi8, b->i64 };
	b->fn = LLVMAddFunction(b->mod, "w", LLVMFunctionType(b->i64, params, 3, false));
	b->w0 = LLVMGetParam(b->fn, 0);
	b->rt = LLVMGetParam(b->fn, 1);
	b->budget = LLVMGetParam(b->fn, 2);
	b->single = true;
	b->ni = ni;
	b->base = b->L->mod->x + b->L->k->code_start / WE_INST_SIZE;
	b->wentry = wblock(b, "entry");
	LLVMPositionBuilderAtEnd(b->b, b->wentry);
	fn_slots(b);
	wslots(b);
	b->leave = wblock(b, "leave");
	b->done = LLVMBuildAlloca(b->b, b->i64, "done");
	LLVMBuildStore(b->b, c64(b, 0), b->done);
	for (unsigned k = 0; k < XJIT_PHASE; k++) {
		b->slot = k;
		win_none(b);
	}
	b->w = b->w0;
	b->n = c64(b, 1);
	b->r0 = wload(b, offsetof(we_warp, r), pi32);
	b->stride = LLVMBuildZExt(b->b, wload(b, offsetof(we_warp, rstride), b->i32), b->i64, "");
	/* (the kernel's place in its module: not in the code, which the disk
	 * cache shares between modules) */
	LLVMValueRef kp = LLVMBuildLoad2(b->b, pi8, field_ptr(b, launch_ptr(b), offsetof(we_launch_ctx, k), pi8), "");
	b->pc0 = LLVMBuildZExt(b->b, load_u32(b, kp, offsetof(we_kernel, code_start)), b->i64, "");
	for (uint32_t q = 0; q < ni; q++)
		b->lbl[q] = lab[q] ? wblock(b, "entry") : NULL;
	LLVMBasicBlockRef out = wblock(b, "out"), disp = wblock(b, "dispatch"), at = wblock(b, "switch");
	b->disp = disp;
	LLVMBuildCondBr(b->b, LLVMBuildICmp(b->b, LLVMIntEQ, wload(b, offsetof(we_warp, sleep), b->i32), c32(b, 0), ""),
			disp, out);
	LLVMPositionBuilderAtEnd(b->b, out);
	wret(b);
	/* (also where a BSYNC that switched groups goes on) */
	LLVMPositionBuilderAtEnd(b->b, disp);
	LLVMValueRef rel = LLVMBuildSub(b->b, wload(b, offsetof(we_warp, active_pc), b->i64), b->pc0, "");
	LLVMBuildCondBr(b->b,
			LLVMBuildICmp(b->b, LLVMIntEQ, LLVMBuildAnd(b->b, rel, c64(b, WE_INST_SIZE - 1u), ""), c64(b, 0), ""),
			at, out);
	LLVMPositionBuilderAtEnd(b->b, at);
	uint32_t n = 0;
	for (uint32_t q = 0; q < ni; q++)
		n += lab[q];
	LLVMValueRef sw = LLVMBuildSwitch(b->b, LLVMBuildUDiv(b->b, rel, c64(b, WE_INST_SIZE), ""), out, n);
	for (uint32_t q = 0; q < ni; q++)
		if (lab[q])
			LLVMAddCase(sw, c64(b, q), b->lbl[q]);
	for (uint32_t q = 0; q < ni; q++) {
		if (!lab[q])
			continue;
		uint32_t m = q + 1;
		if (kind[q] == W_RUN)
			while (m < ni && kind[m] == W_RUN && !lab[m])
				m++;
		wemit_entry(b, kind, q, m - q);
	}
	wslots_end(b);
	b->single = false;
	b->act = NULL;
}

/* ---- compiling a kernel --------------------------------------------------- */

/* LLVM's registries of targets are process-wide: initialised once. */
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static void llvm_init(void)
{
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
}

static bool llvm_err(LLVMErrorRef e, const char *what, char *err, size_t errlen)
{
	if (!e)
		return false;
	char *m = LLVMGetErrorMessage(e);
	snprintf(err, errlen, "%s: %s", what, m);
	LLVMDisposeErrorMessage(m);
	return true;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void jb_types(jb *b)
{
	b->i1 = LLVMInt1TypeInContext(b->cx);
	b->i8 = LLVMInt8TypeInContext(b->cx);
	b->i32 = LLVMInt32TypeInContext(b->cx);
	b->i64 = LLVMInt64TypeInContext(b->cx);
	b->f32 = LLVMFloatTypeInContext(b->cx);
	b->v32 = LLVMVectorType(b->i32, XLANES);
	b->v64 = LLVMVectorType(b->i64, XLANES);
	b->vf = LLVMVectorType(b->f32, XLANES);
	b->vb = LLVMVectorType(b->i1, XLANES);
	unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
	b->fma = LLVMGetIntrinsicDeclaration(b->mod, id, &b->vf, 1);
	b->fma_t = LLVMIntrinsicGetType(b->cx, id, &b->vf, 1);
	id = LLVMLookupIntrinsicID("llvm.ctpop", 10);
	b->ctpop = LLVMGetIntrinsicDeclaration(b->mod, id, &b->i32, 1);
	b->ctpop_t = LLVMIntrinsicGetType(b->cx, id, &b->i32, 1);
	b->vctpop = LLVMGetIntrinsicDeclaration(b->mod, id, &b->v32, 1);
	b->vctpop_t = LLVMIntrinsicGetType(b->cx, id, &b->v32, 1);
	static const char *const red[3] = { "llvm.vector.reduce.umin", "llvm.vector.reduce.umax",
					    "llvm.vector.reduce.or" };
	LLVMValueRef *rf[3] = { &b->umin, &b->umax, &b->vor };
	for (unsigned k = 0; k < 3; k++) {
		id = LLVMLookupIntrinsicID(red[k], strlen(red[k]));
		*rf[k] = LLVMGetIntrinsicDeclaration(b->mod, id, &b->v32, 1);
		b->red_t = LLVMIntrinsicGetType(b->cx, id, &b->v32, 1);
	}
	id = LLVMLookupIntrinsicID("llvm.cttz", 9);
	b->cttz = LLVMGetIntrinsicDeclaration(b->mod, id, &b->i32, 1);
	b->cttz_t = LLVMIntrinsicGetType(b->cx, id, &b->i32, 1);
	id = LLVMLookupIntrinsicID("llvm.ctlz", 9);
	b->ctlz = LLVMGetIntrinsicDeclaration(b->mod, id, &b->i32, 1);
	b->ctlz_t = LLVMIntrinsicGetType(b->cx, id, &b->i32, 1);
	LLVMTypeRef pi8 = LLVMPointerType(b->i8, 0);
	id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
	b->pf = LLVMGetIntrinsicDeclaration(b->mod, id, &pi8, 1);
	b->pf_t = LLVMIntrinsicGetType(b->cx, id, &pi8, 1);
	const unsigned lid = LLVMLookupIntrinsicID("llvm.masked.load", 16);
	const unsigned stid = LLVMLookupIntrinsicID("llvm.masked.store", 17);
	const unsigned gid = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
	const unsigned sid = LLVMLookupIntrinsicID("llvm.masked.scatter", 19);
	for (unsigned w = 0; w < 4; w++) {
		LLVMTypeRef vt = mem_vtype(b, w);
		LLVMTypeRef ly[2] = { vt, LLVMPointerType(vt, 0) };
		b->mload[w] = LLVMGetIntrinsicDeclaration(b->mod, lid, ly, 2);
		b->mload_t[w] = LLVMIntrinsicGetType(b->cx, lid, ly, 2);
		if (w < 2) {
			b->mstore[w] = LLVMGetIntrinsicDeclaration(b->mod, stid, ly, 2);
			b->mstore_t[w] = LLVMIntrinsicGetType(b->cx, stid, ly, 2);
			LLVMTypeRef gy[2] = { vt, LLVMVectorType(LLVMPointerType(w ? b->i64 : b->i32, 0), XLANES) };
			b->gather[w] = LLVMGetIntrinsicDeclaration(b->mod, gid, gy, 2);
			b->gather_t[w] = LLVMIntrinsicGetType(b->cx, gid, gy, 2);
			b->scatter[w] = LLVMGetIntrinsicDeclaration(b->mod, sid, gy, 2);
			b->scatter_t[w] = LLVMIntrinsicGetType(b->cx, sid, gy, 2);
		}
	}
}

/* The instructions where a block starts: the first of each run of
 * compilable ones, and the targets of BRA inside such a run (a loop's
 * head); *len: the run from there to the next such start or the run's
 * end, when at least min_len (the part before a loop's head is a block
 * of its own: no instruction compiled twice).  ones: warpsync_ones's. */
static uint32_t find_blocks(const we_launch_ctx *L, uint32_t min_len, uint32_t *len, const bool *ones)
{
	const we_kernel *k = L->k;
	const xinsn *code = L->mod->x + k->code_start / WE_INST_SIZE;
	const uint32_t ni = (k->code_end - k->code_start) / WE_INST_SIZE;
	/* the run length from each instruction */
	for (uint32_t q = ni; q-- > 0;)
		len[q] = xjit_compilable(L, &code[q], ones && ones[q]) ? 1u + (q + 1 < ni ? len[q + 1] : 0u) : 0u;
	bool *lead = calloc(ni ? ni : 1, sizeof *lead);
	if (!lead)
		return UINT32_MAX;
	for (uint32_t q = 0; q < ni; q++) {
		if (len[q] && (q == 0 || !len[q - 1]))
			lead[q] = true;
		if (code[q].optype == ISA_OPT_BRA && code[q].opcode != ISA_OP_BRA_U) {
			const int64_t t = (int64_t)q + 1 + code[q].o[BRA_offset].imm;
			if (t >= 0 && t < (int64_t)ni)
				lead[t] = true;
		}
	}
	uint32_t nb = 0;
	for (uint32_t q = 0; q < ni; q++) {
		uint32_t e = 1;
		while (e < len[q] && !lead[q + e])
			e++;
		len[q] = lead[q] && len[q] && e >= min_len ? e : 0u;
		nb += len[q] != 0;
	}
	free(lead);
	return nb;
}

/* The warp function's plan of L's kernel of ni instructions: its kinds
 * and entries (find_wlabels), or NULL with *wl.ok false when memory
 * runs out. */
typedef struct wplan {
	uint8_t *kind;
	bool *lab;
	bool *ones;  /* warpsync_ones (find_blocks takes it too), or NULL */
	uint32_t n;  /* entries: 0, no warp function */
	bool ok;
} wplan;
static bool *warpsync_ones(const we_launch_ctx *L, uint32_t ni);
static wplan wplan_of(const we_launch_ctx *L, uint32_t ni)
{
	wplan p = { .kind = malloc(ni ? ni : 1), .lab = malloc(ni ? ni : 1), .ones = warpsync_ones(L, ni) };
	p.ok = p.kind && p.lab;
	if (p.ok)
		p.n = find_wlabels(L, p.kind, p.lab, p.ones);
	return p;
}
static void wplan_free(wplan *p)
{
	free(p->kind);
	free(p->lab);
	free(p->ones);
}

/* The object file of the blocks (len[q] != 0) and of the warp function
 * (when wp->n), compiled for tm: *obj (the caller disposes of it). */
/* The registers live at each of L's kernel's ni instructions, and after
 * its last ([ni]: none): read there or on some per-thread path after it
 * before an unguarded write (flow.h; a backward may-analysis, iterated
 * to its fixed point).  NULL where the paths are not known (every
 * register is live) or memory is short. */
static regset *live_regs(const we_launch_ctx *L, uint32_t ni)
{
	const xinsn *code = L->mod->x + L->k->code_start / WE_INST_SIZE;
	if (!L->k->paths_known)
		return NULL;
	regset *live = calloc((size_t)ni + 1, sizeof *live);
	for (bool changed = live != NULL; changed;) {
		changed = false;
		for (uint32_t i = ni; i-- > 0;) {
			int64_t succ[2];
			xflow_succ(&code[i], i, ni, succ);
			regset out = { { 0 } }, defs = { { 0 } };
			for (unsigned s = 0; s < 2; s++) {
				if (succ[s] < 0)
					continue;
				for (unsigned w = 0; w < 4; w++)
					out.b[w] |= live[succ[s]].b[w];
			}
			xflow_defs(&code[i], &defs);
			regset in = { { 0 } };
			xflow_uses(&code[i], &in);
			for (unsigned w = 0; w < 4; w++) {
				in.b[w] |= out.b[w] & ~defs.b[w];
				changed |= in.b[w] != live[i].b[w];
				live[i].b[w] = in.b[w];
			}
		}
	}
	return live;
}

/* The kernel's registers that every thread reads only after it wrote
 * them (none live where the kernel starts) and that only unguarded MOVs
 * of one parameter word or immediate write: at every read they hold
 * that operand's value, kuni[r] (what jb.uni starts from in each block
 * function; transpose moves its pointers in before its loops). */
static void kernel_uniform(const we_launch_ctx *L, const xinsn *code, uint32_t ni, const regset *live,
			   const xopd **kuni)
{
	if (!live)
		return;
	bool other[256] = { false };
	for (uint32_t q = 0; q < ni; q++) {
		const xinsn *i = &code[q];
		regset outs = { { 0 } };
		xflow_outs(i, &outs);
		const xopd *s = uniform_mov(L, i);
		for (unsigned r = 0; r < L->k->nregs && r < 256; r++) {
			if (!regs_has(&outs, r) || other[r])
				continue;
			if (s && r == i->o[MOV_rd].row &&
			    (!kuni[r] || (kuni[r]->kind == s->kind && kuni[r]->bank == s->bank && kuni[r]->imm == s->imm &&
					  kuni[r]->flags == s->flags)))
				kuni[r] = s;
			else
				other[r] = true;
		}
	}
	for (unsigned r = 0; r < L->k->nregs && r < 256; r++)
		if (other[r] || regs_has(&live[0], r))
			kuni[r] = NULL;
}

/* Per instruction q of L's kernel of ni: a WARPSYNC R whose register
 * holds 0xffffffff in every thread that runs it (warpsync_all).  A
 * forward must-analysis over the threads' paths (flow.h): a register
 * holds it after an unguarded MOV of that immediate until anything else
 * writes it, and from the kernel's start none does (registers start at
 * zero).  NULL where the paths are not known, no instruction is such a
 * WARPSYNC, or memory is short (none then). */
static bool *warpsync_ones(const we_launch_ctx *L, uint32_t ni)
{
	const xinsn *code = L->mod->x + L->k->code_start / WE_INST_SIZE;
	bool any = false;
	for (uint32_t q = 0; q < ni; q++)
		any |= code[q].opcode == ISA_OP_WARPSYNC_R;
	regset *in = any && L->k->paths_known ? malloc((size_t)ni * sizeof *in) : NULL;
	bool *ones = in ? calloc(ni, sizeof *ones) : NULL;
	if (!ones) {
		free(in);
		return NULL;
	}
	memset(in, 0xff, (size_t)ni * sizeof *in);
	memset(&in[0], 0, sizeof in[0]);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t q = 0; q < ni; q++) {
			regset out = in[q], w = { { 0 } };
			xflow_outs(&code[q], &w);
			for (unsigned k = 0; k < 4; k++)
				out.b[k] &= ~w.b[k];
			const xopd *s = uniform_mov(L, &code[q]);
			if (s && s->kind == XO_IMM && !s->flags && (uint32_t)s->imm == UINT32_MAX)
				regs_add(&out, &code[q].o[MOV_rd]);
			int64_t succ[2];
			xflow_succ(&code[q], q, ni, succ);
			for (unsigned k = 0; k < 2; k++)
				for (unsigned x = 0; succ[k] >= 0 && x < 4; x++) {
					const uint64_t v = in[succ[k]].b[x] & out.b[x];
					changed |= v != in[succ[k]].b[x];
					in[succ[k]].b[x] = v;
				}
		}
	}
	for (uint32_t q = 0; q < ni; q++) {
		const xopd *m = &code[q].o[WARPSYNC_mask];
		ones[q] = code[q].opcode == ISA_OP_WARPSYNC_R && m->kind == XO_REG && !m->flags && m->reg < 255 &&
			  regs_has(&in[q], m->reg);
	}
	free(in);
	return ones;
}

static bool build_object(const we_launch_ctx *L, const uint32_t *len, const wplan *wp, uint32_t ni,
			 LLVMTargetMachineRef tm, LLVMMemoryBufferRef *obj, char *err, size_t errlen)
{
	jb b = { .cx = LLVMContextCreate(), .L = L, .nrows = L->nrows };
	b.mod = LLVMModuleCreateWithNameInContext("warpemu", b.cx);
	char *triple = LLVMGetTargetMachineTriple(tm);
	LLVMSetTarget(b.mod, triple);
	LLVMDisposeMessage(triple);
	LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
	LLVMSetModuleDataLayout(b.mod, dl);
	LLVMDisposeTargetData(dl);
	b.b = LLVMCreateBuilderInContext(b.cx);
	b.row = calloc(b.nrows, sizeof *b.row);
	b.dirty = calloc(b.nrows, sizeof *b.dirty);
	b.uni = calloc(b.nrows, sizeof *b.uni);
	b.kuni = calloc(b.nrows, sizeof *b.kuni);
	b.lbl = calloc(ni ? ni : 1, sizeof *b.lbl);
	b.mem = calloc((size_t)ni + 1, sizeof *b.mem);
	b.ph = calloc((size_t)ni + 2, sizeof *b.ph);
	bool ok = b.row && b.dirty && b.uni && b.kuni && b.lbl && b.mem && b.ph;
	if (!ok)
		snprintf(err, errlen, "out of memory");
	if (ok) {
		jb_types(&b);
		const xinsn *code = L->mod->x + L->k->code_start / WE_INST_SIZE;
		b.base = code;
		b.live = live_regs(L, ni);
		kernel_uniform(L, code, ni, b.live, b.kuni);
		for (uint32_t q = 0; q < ni; q++)
			b.holds |= held_add(&code[q]);
		for (uint32_t q = 0; q < ni; q++) {
			if (!len[q])
				continue;
			char name[32];
			snprintf(name, sizeof name, "b%u", q);
			emit_block(&b, code + q, len[q], name);
		}
		if (wp->n)
			emit_warp_fn(&b, wp->kind, wp->lab, ni);
	}
	free(b.row);
	free(b.dirty);
	free(b.uni);
	free(b.kuni);
	free(b.lbl);
	free(b.mem);
	free(b.ph);
	free(b.live);
	LLVMDisposeBuilder(b.b);
	char *msg = NULL;
	if (ok && LLVMVerifyModule(b.mod, LLVMReturnStatusAction, &msg)) {
		snprintf(err, errlen, "invalid IR: %s", msg);
		ok = false;
	}
	LLVMDisposeMessage(msg);
	msg = NULL;
	if (ok) {
		/* the IR is straight-line already (mem2reg: the side
		 * exits' flag): instcombine folds the selects of full guards
		 * and the constant operands */
		LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
		ok = !llvm_err(LLVMRunPasses(b.mod, XJIT_PASSES, NULL, po), "LLVM passes", err, errlen);
		LLVMDisposePassBuilderOptions(po);
	}
	/* (the object file, not IR, goes to the JIT: what the disk cache
	 * keeps is what runs) */
	if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, b.mod, LLVMObjectFile, &msg, obj)) {
		snprintf(err, errlen, "LLVM code generation: %s", msg ? msg : "failed");
		ok = false;
	}
	LLVMDisposeMessage(msg);
	LLVMDisposeModule(b.mod);
	LLVMContextDispose(b.cx);
	return ok;
}

/* A target machine for the host CPU (its name and features: AVX2,
 * AVX-512 ...), *host its description (malloc'd).  Code generation at
 * level Less (-O1, XJIT_OPT_LEVEL): on bench/kernels/alu.we it compiled
 * in 11.5 ms against 12.2 ms at "Default" and 7.5 ms at "None", and ran
 * fastest (0.08 s, 0.11 s and 0.23 s; bench/README.md).  The JIT's code
 * model, as LLJIT's own compiler would use: its objects link anywhere
 * in the address space. */
_Static_assert(XJIT_OPT_LEVEL == LLVMCodeGenLevelLess, "jit.h names the level");
static LLVMTargetMachineRef create_tm(char **host, char *err, size_t errlen)
{
	char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
	char *msg = NULL;
	LLVMTargetRef t;
	LLVMTargetMachineRef tm = NULL;
	if (LLVMGetTargetFromTriple(triple, &t, &msg))
		snprintf(err, errlen, "LLVM: %s", msg);
	else
		tm = LLVMCreateTargetMachine(t, triple, cpu, feat, (LLVMCodeGenOptLevel)XJIT_OPT_LEVEL,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
	if (tm && host) {
		const size_t n = strlen(triple) + strlen(cpu) + strlen(feat) + 3;
		if ((*host = malloc(n)))
			snprintf(*host, n, "%s %s %s", triple, cpu, feat);
	}
	LLVMDisposeMessage(msg);
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(feat);
	return tm;
}

static bool create_jit(LLVMOrcLLJITRef *jit, char *err, size_t errlen)
{
	LLVMTargetMachineRef tm = create_tm(NULL, err, errlen);
	if (!tm)
		return false;
	LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
	return !llvm_err(LLVMOrcCreateLLJIT(jit, builder), "LLVM", err, errlen);
}

static void jit_free(xjit *j);

/* An xjit of L's kernel, no block yet. */
static xjit *jit_new(const we_launch_ctx *L)
{
	const uint32_t ni = (L->k->code_end - L->k->code_start) / WE_INST_SIZE;
	xjit *j = calloc(1, sizeof *j);
	if (j && !(j->at = calloc((size_t)ni + 1u, sizeof *j->at))) {
		free(j);
		return NULL;
	}
	if (j) {
		j->start = L->k->code_start;
		j->end = L->k->code_end;
		const xinsn *code = L->mod->x + L->k->code_start / WE_INST_SIZE;
		for (uint32_t q = 0; q < ni; q++)
			j->at[q + 1].plain = j->at[q].plain + xunguarded(&code[q]);
	}
	return j;
}

/* The object file obj (len bytes) of the blocks blk[nb] (first
 * instruction, length) and of the warp function of plan wp linked into j
 * by a JIT of its own. */
static bool jit_link(xjit *j, const uint8_t *obj, size_t len, const uint32_t (*blk)[2], uint32_t nb,
		     const wplan *wp, char *err, size_t errlen)
{
	int e = pthread_once(&llvm_once, llvm_init);
	if (e) {
		snprintf(err, errlen, "pthread_once: %s", strerror(e));
		return false;
	}
	LLVMOrcLLJITRef jit = NULL;
	if (!create_jit(&jit, err, errlen))
		return false;
	j->impl = jit;
	LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)obj, len, "warpemu");
	if (llvm_err(LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), buf), "LLVM", err, errlen))
		return false;
	/* the first lookup links the whole object */
	for (uint32_t k = 0; k < nb; k++) {
		char name[32];
		LLVMOrcExecutorAddress addr = 0;
		snprintf(name, sizeof name, "b%u", blk[k][0]);
		if (llvm_err(LLVMOrcLLJITLookup(jit, &addr, name), "LLVM", err, errlen))
			return false;
		/* (an address from the JIT as a function: what the ORC API is
		 * for; C11 leaves object-to-function conversions to the
		 * implementation, POSIX defines them) */
		j->at[blk[k][0]].fn = (xjit_fn)(uintptr_t)addr;
		j->at[blk[k][0]].len = blk[k][1];
		j->blocks++;
		j->insns += blk[k][1];
	}
	if (nb && wp->n) {
		LLVMOrcExecutorAddress addr = 0;
		if (llvm_err(LLVMOrcLLJITLookup(jit, &addr, "w"), "LLVM", err, errlen))
			return false;
		j->wfn = (xjit_wfn)(uintptr_t)addr;
		for (uint64_t q = 0; q < (j->end - j->start) / WE_INST_SIZE; q++)
			j->at[q].warp = wp->lab[q];
		j->wentries = wp->n;
	}
	return true;
}

/* The block table of len[ni] (find_blocks) in img. */
static bool image_blocks(const uint32_t *len, uint32_t ni, uint32_t nb, xjit_image *img)
{
	img->block = malloc(nb ? nb * sizeof *img->block : 1);
	if (!img->block)
		return false;
	img->nblocks = 0;
	for (uint32_t q = 0; q < ni; q++)
		if (len[q]) {
			img->block[img->nblocks][0] = q;
			img->block[img->nblocks++][1] = len[q];
		}
	return true;
}

/* Compile L's kernel's blocks: their object file, linked; with img, the
 * object file, the block table and the host kept there (the disk
 * cache).  A kernel without a block gives an xjit of none, and an image
 * of no block and no object. */
static xjit *jit_compile(const we_launch_ctx *L, uint32_t min_len, xjit_image *img, char *err, size_t errlen)
{
	const double t0 = now();
	const uint32_t ni = (L->k->code_end - L->k->code_start) / WE_INST_SIZE;
	xjit *j = jit_new(L);
	uint32_t *len = calloc(ni ? ni : 1, sizeof *len);
	xjit_image im = { 0 };
	LLVMMemoryBufferRef obj = NULL;
	LLVMTargetMachineRef tm = NULL;
	wplan wp = wplan_of(L, ni);
	const uint32_t nb = j && len ? find_blocks(L, min_len, len, wp.ones) : UINT32_MAX;
	bool ok = nb != UINT32_MAX && wp.ok && image_blocks(len, ni, nb, &im);
	if (!ok)
		snprintf(err, errlen, "out of memory");
	if (ok && nb) {
		int e = pthread_once(&llvm_once, llvm_init);
		if (e)
			snprintf(err, errlen, "pthread_once: %s", strerror(e));
		ok = !e && (tm = create_tm(&im.host, err, errlen)) &&
		     build_object(L, len, &wp, ni, tm, &obj, err, errlen) &&
		     jit_link(j, (const uint8_t *)LLVMGetBufferStart(obj), LLVMGetBufferSize(obj), im.block, im.nblocks,
			      &wp, err, errlen);
		im.objlen = ok ? LLVMGetBufferSize(obj) : 0;
		if (ok && img && (im.obj = malloc(im.objlen)))
			memcpy(im.obj, LLVMGetBufferStart(obj), im.objlen);
	} else if (ok && img) {
		im.host = calloc(1, 1);
	}
	/* (an image is kept whole or not at all: the disk cache is only
	 * saved work) */
	if (ok && img && im.host && (im.obj || !im.objlen))
		*img = im;
	else
		xjit_image_free(&im);
	if (obj)
		LLVMDisposeMemoryBuffer(obj);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	free(len);
	wplan_free(&wp);
	if (!ok) {
		jit_free(j);
		return NULL;
	}
	j->seconds = now() - t0;
	return j;
}

/* The code of a disk cache entry (jit.h), for this host only. */
static xjit *jit_load(const we_launch_ctx *L, const xjit_image *img, char *err, size_t errlen)
{
	char *host = NULL;
	int e = pthread_once(&llvm_once, llvm_init);
	if (e) {
		snprintf(err, errlen, "pthread_once: %s", strerror(e));
		return NULL;
	}
	LLVMTargetMachineRef tm = create_tm(&host, err, errlen);
	if (!tm)
		return NULL;
	LLVMDisposeTargetMachine(tm);
	const bool same = host && img->host && !strcmp(host, img->host);
	free(host);
	if (!same) {
		snprintf(err, errlen, "compiled for another host CPU");
		return NULL;
	}
	xjit *j = jit_new(L);
	wplan wp = wplan_of(L, (L->k->code_end - L->k->code_start) / WE_INST_SIZE);
	if (!j || !wp.ok) {
		snprintf(err, errlen, "out of memory");
		jit_free(j);
		wplan_free(&wp);
		return NULL;
	}
	const bool ok = jit_link(j, img->obj, img->objlen, (const uint32_t(*)[2])img->block, img->nblocks, &wp, err,
				 errlen);
	wplan_free(&wp);
	if (!ok) {
		jit_free(j);
		return NULL;
	}
	return j;
}

static void jit_free(xjit *j)
{
	if (!j)
		return;
	if (j->impl) {
		LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->impl);
		if (e)
			LLVMConsumeError(e);
	}
	free(j->at);
	free(j);
}

/* what jit_load.c looks up */
__attribute__((visibility("default"))) extern const xjit_plugin we_jit_plugin;
const xjit_plugin we_jit_plugin = { .abi = XJIT_ABI, .compile = jit_compile, .load = jit_load, .free = jit_free };
