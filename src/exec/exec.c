/* exec.c — decode once, then advance one warp at a time.
 *
 * exec_prepare_module() turns every decoded instruction into an xinsn
 * whose operands are resolved (register rows with RZ mapped to zero and
 * sink rows, immediates, constant addresses, modifier flags).  exec_run()
 * is the interpreter loop: fetch by PC, evaluate the guard, call the
 * optype's handler, advance the PC.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "device/device.h"
#include "engine/engine.h"
#include "asm/asm.h"
#include "units/bru.h"
#include "exec/sem.h"

const char *we_fault_name(we_fault_kind k)
{
	switch (k) {
	case WE_FAULT_NONE: return "none";
	case WE_FAULT_ILLEGAL_INSTR: return "illegal instruction";
	case WE_FAULT_MEM_RANGE: return "out-of-range memory access";
	case WE_FAULT_MEM_ALIGN: return "misaligned memory access";
	case WE_FAULT_PC_RANGE: return "PC outside the kernel";
	case WE_FAULT_BARRIER: return "barrier exception";
	case WE_FAULT_WARPSYNC: return "WARPSYNC exception";
	case WE_FAULT_TRAP: return "TRAP";
	case WE_FAULT_SYSCALL: return "SYSCALL";
	case WE_FAULT_RTT: return "RTT outside a trap handler";
	case WE_FAULT_DEADLOCK: return "deadlock";
	case WE_FAULT_WATCHDOG: return "watchdog";
	case WE_FAULT_INTERRUPTED: return "interrupted";
	}
	return "unknown fault";
}

/* ------------------------------------------------------------------ */
/* decode once                                                          */

/* Registers spanned by a register field: its Bitwidth, except for the
 * data registers (not the address register ra) of an instruction with a
 * size modifier: MemSize of loads/stores, AtomType of atomics. */
static unsigned reg_span(const isa_opcode *o, const isa_field *f, const we_insn *in)
{
	unsigned span = f->bitwidth > 32 ? f->bitwidth / 32u : 1u;
	if ((f->kind != ISA_K_REG && f->kind != ISA_K_UREG) || !strcmp(f->name, "ra"))
		return span;
	for (unsigned j = 0; j < o->nfields; j++) {
		const isa_field *g = &o->fields[j];
		if (g->kind != ISA_K_ENUM || g->member < 0)
			continue;
		int64_t v = isa_insn_get(in, g->member);
		if (g->enum_id == ISA_ENUM_MemSize)
			return v == ISA_MemSize_64 ? 2u : v == ISA_MemSize_128 ? 4u : 1u;
		if (g->enum_id == ISA_ENUM_AtomType)
			return v == ISA_AtomType_U64 || v == ISA_AtomType_S64 ? 2u : 1u;
	}
	return span;
}

static const we_kernel *kernel_of(const struct we_module *m, uint32_t pc)
{
	for (uint32_t k = 0; k < m->nkernels; k++)
		if (pc >= m->kernels[k].code_start && pc < m->kernels[k].code_end)
			return &m->kernels[k];
	return NULL;
}

static bool build_xinsn(const we_insn *in, xinsn *xi, uint32_t nregs, we_dialect dialect,
			char *err, size_t errlen, uint32_t *maxreg)
{
	const isa_opcode *o = &isa_opcodes[in->opcode];
	memset(xi, 0, sizeof *xi);
	/* __Dialect: the assembler refuses these outside their dialect; a
	 * binary image is held to the same rule */
	if (o->dialect && strcmp(o->dialect, module_dialect_name(dialect))) {
		snprintf(err, errlen, "%s belongs to the %s dialect, but the kernel's dialect is '%s'",
			 o->name, o->dialect, module_dialect_name(dialect));
		return false;
	}
	xi->opcode = (uint16_t)in->opcode;
	xi->optype = isa_op_optype[in->opcode];
	xi->in = in;
	xi->pg = (uint8_t)in->pg;
	xi->pg_xor = in->pg_not ? ~0u : 0u;
	for (unsigned k = 0; k < o->norder; k++) {
		const isa_field *f = &o->fields[o->order[k]];
		if (!strcmp(f->name, "pg"))
			continue;
		if (xi->nopd == XMAX_OPD) {
			snprintf(err, errlen, "%s has too many operands", o->name);
			return false;
		}
		xopd *d = &xi->o[xi->nopd++];
		int64_t v = isa_insn_get(in, f->member);
		const isa_asmfmt *af = &o->asmfmt[o->order[k]];
		switch (f->kind) {
		case ISA_K_REG: {
			unsigned span = reg_span(o, f, in);
			d->kind = af->mem_off >= 0 ? (af->cmem_bank >= 0 ? XO_CMEMIND : XO_MEM) : XO_REG;
			d->nregs = (uint8_t)span;
			d->reg = (uint16_t)v;
			if (f->is_out && d->kind == XO_REG)
				d->flags |= XF_OUT;
			if (v == ISA_REG_RZ) {
				d->row = (uint16_t)(f->is_out ? nregs + ZERO_ROWS : nregs);
			} else {
				if (v + span - 1 > 254) {
					snprintf(err, errlen, "register R%lld%s is out of range (R0..R254)",
						 (long long)v, span > 1 ? " and its successors" : "");
					return false;
				}
				d->row = (uint16_t)v;
				if ((uint32_t)(v + span) > *maxreg)
					*maxreg = (uint32_t)(v + span);
			}
			if (af->mem_off >= 0)
				d->imm = isa_insn_get(in, o->fields[af->mem_off].member);
			if (af->cmem_bank >= 0)
				d->bank = (uint8_t)isa_insn_get(in, o->fields[af->cmem_bank].member);
			break;
		}
		case ISA_K_UREG:
			d->kind = XO_UREG;
			d->row = (uint16_t)v;
			d->nregs = (uint8_t)reg_span(o, f, in);
			if (v != ISA_UREG_URZ && v + d->nregs - 1 > 62) {
				snprintf(err, errlen, "uniform register UR%lld%s out of range (UR0..UR62)",
					 (long long)v, d->nregs > 1 ? " and its successors are" : " is");
				return false;
			}
			break;
		case ISA_K_PRED:
			d->kind = XO_PRED;
			d->row = (uint16_t)v;
			break;
		case ISA_K_UPRED:
			d->kind = XO_UPRED;
			d->row = (uint16_t)v;
			break;
		case ISA_K_UIMM:
		case ISA_K_SIMM:
			d->kind = XO_IMM;
			d->imm = v;
			break;
		case ISA_K_FIMM:
			d->kind = XO_FIMM;
			d->imm = v;
			break;
		case ISA_K_CMEM:
			d->kind = XO_CMEM;
			d->bank = (uint8_t)ISA_CMEM_BANK((uint64_t)v);
			d->imm = ISA_CMEM_OFF((uint64_t)v);
			break;
		case ISA_K_ENUM:
			d->kind = XO_ENUM;
			d->imm = v;
			break;
		default:
			snprintf(err, errlen, "%s: operand %s of unexpected kind", o->name, f->name);
			return false;
		}
		/* modifier flags of this operand */
		for (unsigned j = 0; j < o->nfields; j++) {
			const isa_field *g = &o->fields[j];
			if (g->base != o->order[k] || !isa_insn_get(in, g->member))
				continue;
			d->flags |= g->kind == ISA_K_NOT ? XF_NOT : g->kind == ISA_K_BITNOT ? XF_BITNOT
				  : g->kind == ISA_K_NEG ? XF_NEG : g->kind == ISA_K_ABS ? XF_ABS : 0;
		}
	}
	return sem_check_static(xi, dialect, err, errlen);
}

/* ---- registers read before written ------------------------------ */

/* A CTA starts with R0.. at zero, but a register that every thread writes
 * before it reads it needs no zero: its first value is the thread's own.
 * Per-thread paths follow the code (seed 004: each thread's RPC moves by
 * fallthrough or a branch of its own; BSYNC and WARPSYNC wait at their
 * PC, BREAK and BSSY only touch masks), so a register needs its zero when
 * some reachable instruction reads it while it is not written on every
 * path from the entry before it — a forward must-analysis of the
 * unconditional (unguarded) writes.  (SHFL reads other lanes, but only
 * lanes running that SHFL: on their paths too.)  Conservative where
 * paths are not known: a kernel with BRX, CALL, RET, TRAP or RTT
 * (targets from registers or a handler) zeroes every register. */
typedef struct regset { uint64_t b[4]; } regset;

static void regs_add(regset *s, const xopd *o)
{
	if (o->reg == ISA_REG_RZ)
		return;
	for (unsigned r = o->reg; r < (unsigned)o->reg + o->nregs && r < 256; r++)
		s->b[r / 64] |= UINT64_C(1) << (r % 64);
}

static void kernel_zero_rows(const struct we_module *m, we_kernel *k)
{
	const uint32_t first = k->code_start / WE_INST_SIZE, n = (k->code_end - k->code_start) / WE_INST_SIZE;
	memset(k->zero_rows, 0, sizeof k->zero_rows);
	bool all = k->trap_handler >= 0 || n == 0;
	for (uint32_t i = 0; i < n && !all; i++) {
		const unsigned ot = m->x[first + i].optype;
		all = ot == ISA_OPT_BRX || ot == ISA_OPT_CALL || ot == ISA_OPT_RET || ot == ISA_OPT_TRAP ||
		      ot == ISA_OPT_RTT;
	}
	regset *in = all ? NULL : malloc(n * sizeof *in);
	uint32_t *work = all ? NULL : malloc(n * sizeof *work);
	uint8_t *queued = all ? NULL : calloc(n, 1), *reached = all ? NULL : calloc(n, 1);
	if (!in || !work || !queued || !reached) {
		/* (or out of memory: zero them all) */
		all = true;
		goto out;
	}
	/* in[i]: written on every path to i (all ones until reached) */
	memset(in, 0xff, n * sizeof *in);
	memset(&in[0], 0, sizeof in[0]);
	uint32_t nw = 0;
	work[nw++] = 0;
	queued[0] = reached[0] = 1;
	while (nw) {
		const uint32_t i = work[--nw];
		queued[i] = 0;
		const xinsn *x = &m->x[first + i];
		regset outs = in[i];
		if (x->pg == 7 && !x->pg_xor)
			for (unsigned o = 0; o < x->nopd; o++)
				if (x->o[o].kind == XO_REG && (x->o[o].flags & XF_OUT))
					regs_add(&outs, &x->o[o]);
		/* successors: the next instruction (also after EXIT and
		 * BRA: their guards, masks or UR may leave threads behind),
		 * and a branch's target */
		int64_t succ[2] = { (int64_t)i + 1, -1 };
		if (x->optype == ISA_OPT_BRA)
			succ[1] = (int64_t)i + 1 + x->o[x->opcode == ISA_OP_BRA_U ? 2 : 1].imm;
		for (unsigned s = 0; s < 2; s++) {
			if (succ[s] < 0 || succ[s] >= (int64_t)n)
				continue;
			const uint32_t t = (uint32_t)succ[s];
			bool changed = !reached[t];
			reached[t] = 1;
			for (unsigned w = 0; w < 4; w++) {
				const uint64_t v = in[t].b[w] & outs.b[w];
				changed |= v != in[t].b[w];
				in[t].b[w] = v;
			}
			if (changed && !queued[t]) {
				queued[t] = 1;
				work[nw++] = t;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!reached[i])
			continue;
		const xinsn *x = &m->x[first + i];
		regset use = { { 0 } };
		for (unsigned o = 0; o < x->nopd; o++) {
			const xopd *d = &x->o[o];
			if ((d->kind == XO_REG && !(d->flags & XF_OUT)) || d->kind == XO_MEM || d->kind == XO_CMEMIND)
				regs_add(&use, d);
		}
		for (unsigned w = 0; w < 4; w++)
			k->zero_rows[w] |= use.b[w] & ~in[i].b[w];
	}
out:
	if (all)
		for (uint32_t r = 0; r < k->nregs && r < 256; r++)
			k->zero_rows[r / 64] |= UINT64_C(1) << (r % 64);
	free(in);
	free(work);
	free(queued);
	free(reached);
}

we_status exec_prepare_module(struct we_module *m, char *err, size_t errlen)
{
	exec_free_module(m);
	m->x = calloc(m->ninsns ? m->ninsns : 1, sizeof(xinsn));
	if (!m->x) {
		snprintf(err, errlen, "out of memory");
		return WE_ERR_NOMEM;
	}
	/* pass 1: register counts per kernel (nregs rows are needed to place
	 * the RZ rows, so build twice: first with a provisional base) */
	for (uint32_t k = 0; k < m->nkernels; k++)
		m->kernels[k].nregs = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < m->ninsns; i++) {
			const we_kernel *kc = kernel_of(m, i * WE_INST_SIZE);
			we_kernel *kk = (we_kernel *)kc;
			uint32_t maxreg = kk ? kk->nregs : 0;
			char msg[256];
			if (!build_xinsn(&m->insn[i], &m->x[i], kk ? kk->nregs : 0,
					 kk ? kk->dialect : WE_DIALECT_TARGET, msg, sizeof msg, &maxreg)) {
				char text[160];
				dis_insn(&m->insn[i], (uint64_t)i * WE_INST_SIZE, text, sizeof text);
				snprintf(err, errlen, "%s:%u: instruction %u (PC 0x%x) '%s': %s",
					 m->source ? m->source : "<module>", m->line ? m->line[i] : 0, i,
					 i * WE_INST_SIZE, text, msg);
				exec_free_module(m);
				return WE_ERR_LOAD;
			}
			if (pass == 0 && kk)
				kk->nregs = maxreg;
			m->x[i].lockstep = sem_lockstep_form(&m->x[i]);
			const char *unit = isa_opcodes[m->insn[i].opcode].unit;
			m->x[i].plain = strcmp(unit, "BRU") && strcmp(unit, "BCU") && strcmp(unit, "VISA");
			const unsigned ot = m->x[i].optype;
			m->x[i].per_cta = ot == ISA_OPT_S2R || ot == ISA_OPT_LDS || ot == ISA_OPT_STS ||
					  ot == ISA_OPT_BAR;
		}
	}
	for (uint32_t k = 0; k < m->nkernels; k++) {
		m->kernels[k].info.nregs = m->kernels[k].nregs;
		kernel_zero_rows(m, &m->kernels[k]);
	}
	return WE_OK;
}

void exec_free_module(struct we_module *m)
{
	free(m->x);
	m->x = NULL;
}

/* ------------------------------------------------------------------ */
/* faults and operand access                                            */

void xfault(xctx *x, we_fault_kind kind, uint32_t lanes, uint64_t addr, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	eng_record_fault(x, kind, lanes, addr, msg);
}

static inline uint32_t int_mod(uint32_t v, uint8_t flags)
{
	if (flags & XF_ABS)
		v = (int32_t)v < 0 ? 0u - v : v;
	if (flags & XF_NEG)
		v = 0u - v;
	if (flags & XF_BITNOT)
		v = ~v;
	return v;
}

bool xconst_read(xctx *x, unsigned bank, int64_t off, unsigned size, void *out)
{
	const uint8_t *base;
	uint64_t limit;
	if (bank == 0) {
		base = x->L->params;
		limit = x->L->param_bytes;
	} else if (bank < WE_NUM_CBANKS) {
		base = x->L->mod->cbank[bank].data;
		limit = x->L->mod->cbank[bank].size;
	} else {
		base = NULL;
		limit = 0;
	}
	if (off < 0 || (uint64_t)off + size > limit) {
		xfault(x, WE_FAULT_MEM_RANGE, x->pmask, (uint64_t)off,
		       "constant read c[0x%x][0x%llx] of %u bytes outside the bank (%llu bytes)", bank,
		       (unsigned long long)off, size, (unsigned long long)limit);
		return false;
	}
	if (off % (size > 8 ? 8 : size)) {
		xfault(x, WE_FAULT_MEM_ALIGN, x->pmask, (uint64_t)off,
		       "misaligned constant read c[0x%x][0x%llx] of %u bytes", bank,
		       (unsigned long long)off, size);
		return false;
	}
	memcpy(out, base + off, size);
	return true;
}

uint32_t xsrc_scalar(xctx *x, const xopd *o, unsigned k, bool int_mods)
{
	uint32_t v;
	switch (o->kind) {
	case XO_IMM:
	case XO_FIMM:
		v = ximm_word(o, k);
		break;
	case XO_UREG:
		v = xureg(x, o->row == ISA_UREG_URZ ? ISA_UREG_URZ : o->row + k);
		break;
	case XO_CMEM:
		if (!xconst_read(x, o->bank, o->imm + 4 * (int64_t)k, 4, &v))
			v = 0;
		break;
	default:
		v = 0;
		break;
	}
	return int_mods ? int_mod(v, o->flags) : v;
}

const uint32_t *xsrc_slow(xctx *x, const xopd *o, unsigned k, uint32_t tmp[XLANES], bool int_mods)
{
	if (o->kind == XO_REG) {
		const uint32_t *src = xrow(x, o, k);
		if (!int_mods || !(o->flags & XF_INT_MODS))
			return src;
		for_lanes(l) tmp[l] = int_mod(src[l], o->flags);
		return tmp;
	}
	uint32_t v = xsrc_scalar(x, o, k, int_mods);
	for_lanes(l) tmp[l] = v;
	return tmp;
}

uint32_t xscalar_slow(xctx *x, const xopd *o, unsigned k)
{
	if (o->kind == XO_REG) {
		uint32_t m = x->pmask ? x->pmask : x->w->active;
		return int_mod(xrow(x, o, k)[m ? xffs(m) : 0], o->flags);
	}
	return xsrc_scalar(x, o, k, true);
}

static bool aligned(uint64_t addr, unsigned size)
{
	return (addr & (uint64_t)(size - 1)) == 0;
}

/* Alignment, then bounds of a window [0, limit) of a memory space; the
 * fault names the space, the access, the limit and the first lane. */
static bool in_window(xctx *x, const char *space, const char *whose, uint64_t limit,
		      uint64_t addr, unsigned size, uint32_t lane)
{
	if (!aligned(addr, size)) {
		xfault(x, WE_FAULT_MEM_ALIGN, 1u << lane, addr,
		       "%s access of %u bytes at 0x%llx is not %u-byte aligned (first at lane %u)", space,
		       size, (unsigned long long)addr, size, lane);
		return false;
	}
	if (whose && !xfits(addr, size, limit)) {
		xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
		       "%s access of %u bytes at 0x%llx is outside %s %llu bytes (first at lane %u)", space,
		       size, (unsigned long long)addr, whose, (unsigned long long)limit, lane);
		return false;
	}
	return true;
}

uint8_t *xglobal(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "global", NULL, 0, addr, size, lane))
		return NULL;
	uint8_t *h = xglobal_span(x, addr, size);
	if (!h)
		xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
		       "global access of %u bytes at 0x%llx is outside every allocation (first at lane %u)", size,
		       (unsigned long long)addr, lane);
	return h;
}

uint8_t *xglobal_span(xctx *x, uint64_t addr, uint64_t span)
{
	/* the allocation table does not change during a launch: remember the
	 * warp's last allocation (lanes of a warp mostly hit the same one) */
	const galloc *a = x->w->gcache;
	if (a && addr >= a->base && xfits(addr - a->base, span, a->size))
		return a->host + (addr - a->base);
	uint8_t *h = dev_translate_alloc(x->L->dev, addr, span, &a);
	if (h)
		x->w->gcache = a;
	return h;
}

uint8_t *xshared(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "shared", "the CTA's", x->L->shared_bytes, addr, size, lane))
		return NULL;
	return x->cta->shared + addr;
}

uint8_t *xlocal(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "local", "the thread's", x->L->local_bytes, addr, size, lane))
		return NULL;
	return x->w->local + (uint64_t)lane * x->L->local_bytes + addr;
}

/* ------------------------------------------------------------------ */
/* the interpreter loop                                                 */

/* Dispatch one instruction to its optype's handler: computed goto where
 * GNU C has it; the plain switch otherwise (configure
 * --disable-computed-goto, or -DWE_FORCE_SWITCH: `make check` builds and
 * runs the kernel tests that way too, tests/test_kernels_switch). */
#if defined(WE_COMPUTED_GOTO) && !defined(WE_FORCE_SWITCH)
#define X_LABEL(name) &&op_##name,
#define DISPATCH(x, i)                                                        \
	do {                                                                  \
		static const void *const labels_[ISA_NUM_OPTYPES] = {         \
			ISA_OPTYPE_LIST(X_LABEL)                              \
		};                                                            \
		goto *labels_[(i)->optype];                                   \
		ISA_OPTYPE_LIST(X_GOTO_CASE)                                  \
	dispatched_:;                                                         \
	} while (0)
#define X_GOTO_CASE(name)                                                     \
	op_##name : sem_##name(x, i);                                         \
	goto dispatched_;
#else
#define DISPATCH(x, i)                                                        \
	do {                                                                  \
		switch ((i)->optype) {                                        \
			ISA_OPTYPE_LIST(X_SWITCH_CASE)                        \
		default:                                                      \
			break;                                                \
		}                                                             \
	} while (0)
#define X_SWITCH_CASE(name)                                                   \
	case ISA_OPT_##name:                                                  \
		sem_##name(x, i);                                             \
		break;
#endif

/* popc32(pm), remembered for the next instruction under the same mask. */
static inline uint32_t warp_popc(we_warp *w, uint32_t pm)
{
	if (pm != w->pm_last) {
		w->pm_last = pm;
		w->pm_count = popc32(pm);
	}
	return w->pm_count;
}

/* The counters of one executed warp-instruction with guard & ActiveMask
 * pmask (its emulated time is one per instruction). */
static inline void count_insn(we_warp *w, uint32_t pmask)
{
	w->insns++;
	w->thread_insns += pmask == 0xffffffffu ? XLANES : warp_popc(w, pmask);
	w->clock++;
}

/* Before an instruction at pc: the PC check, the timer, the guard and
 * the counters.  NULL after a fault.  w->active_pc is pc while the
 * handler runs (handlers, faults and reports read it). */
static inline const xinsn *fetch(xctx *x, const xinsn *code, uint64_t pc, uint64_t start,
				 uint64_t end)
{
	we_warp *w = x->w;
	x->pc = pc;
	if (__builtin_expect(pc < start || pc >= end || (pc & (WE_INST_SIZE - 1)), 0)) {
		xfault(x, WE_FAULT_PC_RANGE, w->active, pc,
		       "PC 0x%llx is outside the kernel's code [0x%llx, 0x%llx)",
		       (unsigned long long)pc, (unsigned long long)start, (unsigned long long)end);
		return NULL;
	}
	const xinsn *i = &code[pc / WE_INST_SIZE];
	if (__builtin_expect(w->sleep != 0, 0) && w->clock >= w->wake_time)
		bru_timer_expired(w, w->clock);
	/* a branch-free guard */
	x->pmask = (w->p[i->pg] ^ i->pg_xor) & w->active;
	x->pc_set = false;
	count_insn(w, x->pmask);
	return i;
}

/* After it: the next PC (the handler's when it moved it). */
static inline uint64_t retire(xctx *x)
{
	if (x->pc_set)
		return x->w->active_pc;
	uint64_t pc = x->pc + WE_INST_SIZE;
	x->w->active_pc = pc;
	return pc;
}

/* The loop with hooks: the instruction trace, and the seeded schedule's
 * preemption after memory and barrier instructions. */
static we_stop exec_run_hooked(we_cta *cta, we_warp *w, uint64_t budget)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	xctx xc = { .w = w, .cta = cta, .L = L }, *x = &xc;
	for (uint64_t n = 0; n < budget; n++) {
		uint64_t pc = w->active_pc;
		if (L->trace && pc >= start && pc < end && !(pc & (WE_INST_SIZE - 1))) {
			char ins[200], line[320];
			dis_insn(&L->mod->insn[pc / WE_INST_SIZE], pc, ins, sizeof ins);
			snprintf(line, sizeof line, "cta=%u,%u,%u warp=%u pc=0x%04llx active=0x%08x %s",
				 cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], w->id,
				 (unsigned long long)pc, w->active, ins);
			L->trace(L->trace_ctx, line);
		}
		const xinsn *i = fetch(x, code, w->active_pc, start, end);
		if (!i)
			return x->why;
		if (x->pmask)
			DISPATCH(x, i);
		retire(x);
		if (x->stop)
			return x->why;
		if (L->seeded) {
			/* preemption points of the seeded schedule: after memory
			 * accesses and barrier instructions, with probability 1/4 */
			const char *u = isa_opcodes[i->opcode].unit;
			if ((!strcmp(u, "MEM") || !strcmp(u, "BCU")) && (sched_rand(&cta->rng) & 3u) == 0)
				return WE_STOP_BUDGET;
		}
	}
	return WE_STOP_BUDGET;
}

we_stop exec_run(we_cta *cta, we_warp *w, uint64_t budget)
{
	const we_launch_ctx *L = cta->L;
	if (L->hooked)
		return exec_run_hooked(cta, w, budget);
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	xctx xc = { .w = w, .cta = cta, .L = L }, *x = &xc;
	uint64_t pc = w->active_pc;
	for (uint64_t n = 0; n < budget; n++) {
		const xinsn *i = fetch(x, code, pc, start, end);
		if (!i)
			return x->why;
		if (x->pmask)
			DISPATCH(x, i);
		pc = retire(x);
		if (x->stop)
			return x->why;
	}
	return WE_STOP_BUDGET;
}

/* ---- lockstep groups ------------------------------------------------ */

bool sem_lockstep_form(const xinsn *i)
{
	for (unsigned k = 0; k < i->nopd; k++) {
		const xopd *o = &i->o[k];
		/* a value of each warp's own (uniform registers and predicates),
		 * a per-lane address, or a register with a modifier (xsrc_slow
		 * copies one warp's) */
		if (o->kind == XO_UREG || o->kind == XO_UPRED || o->kind == XO_CMEMIND ||
		    ((o->kind == XO_REG || o->kind == XO_MEM) && (o->flags & XF_INT_MODS)))
			return false;
		/* a per-lane address: only where the handler says so */
		if (o->kind == XO_MEM && i->optype != ISA_OPT_LDS && i->optype != ISA_OPT_STS &&
		    i->optype != ISA_OPT_LDG && i->optype != ISA_OPT_STG)
			return false;
	}
	/* the handlers whose full-mask path runs over xv_chunks(x), or warp
	 * by warp over x->group (sem_alu.c, sem_bru.c, sem_bcu.c) */
	switch (i->optype) {
	case ISA_OPT_MOV:
	case ISA_OPT_ISETP:
	case ISA_OPT_BRA:
	case ISA_OPT_BAR:
		return true;
	case ISA_OPT_IADD3:
		return iadd3_plain(i);
	case ISA_OPT_IMAD:
		return i->in->mode != ISA_IMADMode_HI;
	case ISA_OPT_IMAD_WIDE:
		return true;
	case ISA_OPT_S2R:
		return sem_s2r_lockstep(i);
	case ISA_OPT_LOP3_LUT:
		return i->o[0].row == 7;
	case ISA_OPT_SHF:
		return i->o[2].kind != XO_REG;
	case ISA_OPT_LDS:
	case ISA_OPT_STS:
	case ISA_OPT_LDG:
	case ISA_OPT_STG:
		/* 32-bit; a store of a register's value (sem_mem.c run32_of,
		 * shared_run_span) */
		return i->in->size == ISA_MemSize_32 &&
		       (i->optype == ISA_OPT_LDS || i->optype == ISA_OPT_LDG || i->o[1].kind == XO_REG);
	default:
		return false;
	}
}

/* The guards of a group (ActiveMasks all ones): each warp's lanes of one
 * guard predicate, and whether they are all true or all false.  A guard
 * is read again only after an instruction that may write a predicate
 * (exec_group: anything but a plain lockstep form other than ISETP). */
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

/* The counters and PC of the group instructions exec_group defers: `done`
 * run for the whole group (every lane of every warp) and `guarded` whose
 * thread counts group_plain added already.  Each warp gets what fetch()
 * and retire() would have given it. */
static inline void group_settle(we_warp *w, uint32_t n, uint64_t pc, uint64_t done, uint64_t guarded)
{
	for (uint32_t j = 0; j < n; j++) {
		if (pc != UINT64_MAX)
			w[j].active_pc = pc;
		w[j].insns += done + guarded;
		w[j].thread_insns += done * XLANES;
		w[j].clock += done + guarded;
	}
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
static bool group_plain(we_cta *cta, we_warp *w, uint32_t n, const xinsn *i, uint64_t pc,
			bool runs, const gguard *g, uint64_t done, uint64_t guarded, uint32_t *who)
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

we_stop exec_group(we_cta *cta, uint32_t wi, uint32_t n, uint32_t nw, uint64_t budget,
		   uint32_t *who, uint32_t *exited)
{
	const we_launch_ctx *L = cta->L;
	const xinsn *code = L->mod->x;
	const uint64_t start = L->k->code_start, end = L->k->code_end;
	we_warp *w = &cta->warps[wi];
	/* one handler call for the whole group: the rows of w[0] start the
	 * group's arrays, pmask is all ones in every warp */
	xctx gx = { .w = w, .cta = cta, .L = L, .group = n - 1, .pmask = 0xffffffffu };
	const bool multi = nw < n;
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
		bool full = false;
		if (in_code && i->lockstep) {
			if (i->pg == 7 && !i->pg_xor) {
				full = true;
			} else {
				group_guard(&g, w, n, i);
				full = g.full;
			}
		}
		/* the guards stay known across plain lockstep forms that write
		 * no predicate (all but ISETP) */
		if (!in_code || !i->lockstep || !i->plain || i->optype == ISA_OPT_ISETP)
			g.key = GUARD_NONE;
		if (full) {
			gx.pc = pc;
			if (!i->plain && i->optype != ISA_OPT_BRA) {
				/* a branch moves each warp's ActivePC from pc (the
				 * 004 algorithms: ActivePC += INST_SIZE, ...); the
				 * counters can wait.  (BRA sets it itself where it
				 * needs it: most groups all jump, sem_BRA) */
				for (uint32_t j = 0; j < n; j++)
					w[j].active_pc = pc;
			}
			uint32_t done = 0;
			if (multi && i->per_cta)
				group_per_cta(&gx, i, n, nw, &done);
			else
				handler[i->optype](&gx, i);
			if (gx.declined) {
				/* (a memory access that may fault) warp by warp, after
				 * the CTAs that ran it as a group (group_per_cta) */
				gx.declined = false;
				group_settle(w, n, pc, pending, guarded);
				pending = guarded = 0;
				for (uint32_t j = 0; j < done; j++)
					count_insn(&w[j], 0xffffffffu);
				if (!group_plain(cta, w + done, n - done, i, pc, false, NULL, 0, 0, who)) {
					for (uint32_t j = 0; j < done; j++)
						w[j].active_pc = pc + WE_INST_SIZE;
					return WE_STOP_FAULT;
				}
				pc += WE_INST_SIZE;
				continue;
			}
			if (__builtin_expect(gx.stop, 0)) {
				/* a fault: of the first warp for an ALU form (a
				 * constant read out of range), of the warp the handler
				 * stopped at for a barrier; those before it ran the
				 * instruction, those after it did not */
				uint32_t f = 0;
				while (f + 1 < n && w[f].state != WE_WS_FAULTED)
					f++;
				group_settle(w, n, pc, pending, guarded);
				for (uint32_t j = 0; j <= f; j++) {
					w[j].active_pc = pc + WE_INST_SIZE;
					count_insn(&w[j], 0xffffffffu);
				}
				*who = wi + f;
				return gx.why;
			}
			pending++;
			if (gx.pc_set) {
				/* a branch: each warp's ActivePC and ActiveMask are its
				 * own now */
				gx.pc_set = false;
				if (gx.intact)
					gx.intact = false;
				else if (!group_intact(w, n)) {
					group_settle(w, n, UINT64_MAX, pending, guarded);
					return WE_STOP_BUDGET;
				}
				pc = w->active_pc;
			} else {
				pc += WE_INST_SIZE;
			}
			continue;
		}
		if (in_code && i->lockstep && (i->plain || g.none)) {
			/* guards that differ between warps: a lockstep form reads
			 * no counter and no other warp's ActivePC, so the group's
			 * counts can wait (group_plain settles them on a fault).
			 * A guard false in every lane of every warp runs nothing,
			 * also of a branch or barrier (fetch, retire). */
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
		if (multi && !(in_code && i->plain))
			return WE_STOP_YIELD;
		if (in_code && i->plain) {
			if (!group_plain(cta, w, n, i, pc, true, NULL, 0, 0, who))
				return WE_STOP_FAULT;
			pc += WE_INST_SIZE;
			continue;
		}
		/* warp by warp, as exec_run runs it */
		bool blocked = false;
		for (uint32_t j = 0; j < n; j++) {
			xctx xc = { .w = &w[j], .cta = cta, .L = L }, *x = &xc;
			const xinsn *ij = fetch(x, code, pc, start, end);
			if (ij) {
				if (x->pmask)
					DISPATCH(x, ij);
				retire(x);
			}
			/* a warp that blocks (on a barrier) or completes one needs
			 * nothing of its driver: the others run the instruction
			 * too, and when the barrier released them all the group
			 * goes on */
			if (x->stop && x->why == WE_STOP_BLOCKED && !blocked) {
				blocked = true;
				*who = wi + j;
			} else if (x->stop && x->why == WE_STOP_EXITED && ij->optype == ISA_OPT_EXIT) {
				/* the others run their EXIT too (it touches nothing of
				 * another warp's); the driver retires the exited warps
				 * in order (*exited) */
				*exited |= 1u << (wi + j);
			} else if (x->stop && x->why != WE_STOP_BLOCKED && x->why != WE_STOP_RELEASED) {
				*who = wi + j;
				return x->why;
			}
		}
		if (*exited) {
			*who = wi + (uint32_t)__builtin_ctz(*exited >> wi);
			return WE_STOP_EXITED;
		}
		if (!group_intact(w, n))
			return blocked ? WE_STOP_BLOCKED : WE_STOP_BUDGET;
		pc = w->active_pc;
	}
	group_settle(w, n, pc, pending, guarded);
	return WE_STOP_BUDGET;
}
