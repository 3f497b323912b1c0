/* decode.c — decode once: exec_prepare_module() turns every decoded
 * instruction into an xinsn whose operands are resolved (register rows
 * with RZ mapped to zero and sink rows, immediates, constant addresses,
 * modifier flags), finds each kernel's registers and those a CTA must
 * zero at its start, and marks the forms a lockstep group runs as one.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "exec/exec.h"
#include "exec/flow.h"
#include "exec/jit.h"
#include "exec/sem.h"

/* The kernel of each instruction (the first whose range holds it; NULL
 * for none), in one pass over the ranges instead of a search of every
 * kernel per instruction (quadratic in a module of 65,536 kernels).
 * NULL with *oom when memory runs out. */
static we_kernel **kernel_owners(struct we_module *m, bool *oom)
{
	we_kernel **own = calloc(m->ninsns ? m->ninsns : 1, sizeof *own);
	*oom = !own;
	for (uint32_t k = m->nkernels; k-- > 0 && own;) {
		const we_kernel *kk = &m->kernels[k];
		for (uint32_t i = kk->code_start / WE_INST_SIZE; i < kk->code_end / WE_INST_SIZE && i < m->ninsns; i++)
			own[i] = &m->kernels[k];
	}
	return own;
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
	xi->plain = !(o->flags & (ISA_F_BRANCH | ISA_F_BARRIER));
	xi->per_cta = (o->flags & ISA_F_PER_CTA) != 0;
	xi->releases = (o->flags & ISA_F_BARRIER) || xi->optype == ISA_OPT_MEMBAR;
	unsigned pred_outs = 0, pred_writes = 0;
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
			unsigned span = isa_reg_span(in, (unsigned)o->order[k]);
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
			if (f->is_out)
				d->flags |= XF_OUT;
			d->nregs = (uint8_t)isa_reg_span(in, (unsigned)o->order[k]);
			if (v != ISA_UREG_URZ && v + d->nregs - 1 > 62) {
				snprintf(err, errlen, "uniform register UR%lld%s out of range (UR0..UR62)",
					 (long long)v, d->nregs > 1 ? " and its successors are" : " is");
				return false;
			}
			break;
		case ISA_K_PRED:
			d->kind = XO_PRED;
			d->row = (uint16_t)v;
			if (f->is_out)
				d->flags |= XF_OUT;
			pred_outs += f->is_out;
			pred_writes += f->is_out && v != ISA_PRED_PT;
			break;
		case ISA_K_UPRED:
			d->kind = XO_UPRED;
			d->row = (uint16_t)v;
			if (f->is_out)
				d->flags |= XF_OUT;
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
	/* a guard may read another value after it: it writes a P predicate
	 * of its OutList<> that is not PT, or writes them otherwise (R2P) */
	xi->writes_pred = (o->flags & ISA_F_WRITES_PRED) && (pred_writes || !pred_outs);
	return sem_check_static(xi, dialect, err, errlen);
}

/* ---- registers read before written ------------------------------ */

/* A CTA starts with R0.. at zero, but a register that every thread writes
 * before it reads it needs no zero: its first value is the thread's own.
 * A register needs its zero when some reachable instruction reads it
 * while it is not written on every path from the entry before it — a
 * forward must-analysis of the writes over the per-thread paths
 * (flow.h); every register where they are not known.
 *
 * A guarded write counts for a read under the same guard (predicate and
 * sense) when no instruction that may write a predicate came between
 * them: a thread that runs the read has the guard true, so it had when
 * it ran the write on its path.  (An instruction reads registers only
 * of the lanes that run it: SHFL, MATCH and REDUX read other lanes' too,
 * but only lanes that run it; exec/sem_warp.c, exec/sem_ptx.c.) */
#define ZGUARDS 14 /* P0..P6, either sense */
typedef struct zstate {
	regset all;         /* written unguarded                      */
	regset g[ZGUARDS];  /* written under guard k (zguard)         */
} zstate;

/* x's guard as an index of zstate.g, or -1: none (PT) or !PT */
static int zguard(const xinsn *x)
{
	return x->pg < 7 ? (int)x->pg * 2 + (x->pg_xor != 0) : -1;
}

/* *s after x */
static void zstep(const xinsn *x, zstate *s)
{
	const int k = zguard(x);
	if (k >= 0)
		xflow_outs(x, &s->g[k]);
	else
		xflow_defs(x, &s->all);
	if (x->writes_pred)
		memset(s->g, 0, sizeof s->g);
}

/* *t = *t & s; whether *t changed */
static bool zmeet(zstate *t, const zstate *s)
{
	uint64_t *tw = (uint64_t *)(void *)t;
	const uint64_t *sw = (const uint64_t *)(const void *)s;
	bool changed = false;
	for (size_t w = 0; w < sizeof *t / sizeof *tw; w++) {
		const uint64_t v = tw[w] & sw[w];
		changed |= v != tw[w];
		tw[w] = v;
	}
	return changed;
}

static void kernel_zero_rows(const struct we_module *m, we_kernel *k)
{
	const uint32_t first = k->code_start / WE_INST_SIZE, n = (k->code_end - k->code_start) / WE_INST_SIZE;
	memset(k->zero_rows, 0, sizeof k->zero_rows);
	bool all = n == 0 || !k->paths_known;
	zstate *in = all ? NULL : malloc(n * sizeof *in);
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
		zstate outs = in[i];
		zstep(x, &outs);
		int64_t succ[2];
		xflow_succ(x, i, n, succ);
		for (unsigned s = 0; s < 2; s++) {
			if (succ[s] < 0)
				continue;
			const uint32_t t = (uint32_t)succ[s];
			bool changed = !reached[t];
			reached[t] = 1;
			changed |= zmeet(&in[t], &outs);
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
		xflow_uses(x, &use);
		const int g = zguard(x);
		for (unsigned w = 0; w < 4; w++)
			k->zero_rows[w] |= use.b[w] & ~in[i].all.b[w] & (g >= 0 ? ~in[i].g[g].b[w] : ~UINT64_C(0));
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
#ifdef WE_HAVE_LLVM
	m->jit = xjit_cache_new();
	if (!m->jit) {
		free(m->x);
		m->x = NULL;
	}
#endif
	if (!m->x) {
		snprintf(err, errlen, "out of memory");
		return WE_ERR_NOMEM;
	}
	bool oom;
	we_kernel **owner = kernel_owners(m, &oom);
	if (oom) {
		snprintf(err, errlen, "out of memory");
		exec_free_module(m);
		return WE_ERR_NOMEM;
	}
	/* pass 1: register counts per kernel (nregs rows are needed to place
	 * the RZ rows, so build twice: first with a provisional base) */
	for (uint32_t k = 0; k < m->nkernels; k++)
		m->kernels[k].nregs = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < m->ninsns; i++) {
			we_kernel *kk = owner[i];
			uint32_t maxreg = kk ? kk->nregs : 0;
			char msg[256];
			if (!build_xinsn(&m->insn[i], &m->x[i], kk ? kk->nregs : 0,
					 kk ? kk->dialect : WE_DIALECT_TARGET, msg, sizeof msg, &maxreg)) {
				char text[160];
				dis_insn(&m->insn[i], (uint64_t)i * WE_INST_SIZE, text, sizeof text);
				snprintf(err, errlen, "%s:%u: instruction %u (PC 0x%x) '%s': %s",
					 m->source ? m->source : "<module>", m->line ? m->line[i] : 0, i,
					 i * WE_INST_SIZE, text, msg);
				free(owner);
				exec_free_module(m);
				return WE_ERR_LOAD;
			}
			if (pass == 0 && kk)
				kk->nregs = maxreg;
			m->x[i].lockstep = sem_lockstep_form(&m->x[i]);
		}
	}
	free(owner);
	for (uint32_t k = 0; k < m->nkernels; k++) {
		we_kernel *kk = &m->kernels[k];
		kk->info.nregs = kk->nregs;
		kk->paths_known = kk->trap_handler < 0;
		for (uint32_t pc = kk->code_start; pc < kk->code_end && kk->paths_known; pc += WE_INST_SIZE)
			kk->paths_known = !(isa_opcodes[m->x[pc / WE_INST_SIZE].opcode].flags & ISA_F_INDIRECT);
		kernel_zero_rows(m, kk);
	}
	return WE_OK;
}

void exec_free_module(struct we_module *m)
{
	free(m->x);
	m->x = NULL;
#ifdef WE_HAVE_LLVM
	xjit_cache_free(m->jit);
	m->jit = NULL;
#endif
}

/* ---- lockstep forms ------------------------------------------------- */

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
		return i->o[LOP3_LUT_pu].row == 7;
	case ISA_OPT_SHF:
		return i->o[SHF_b].kind != XO_REG;
	case ISA_OPT_LDS:
	case ISA_OPT_STS:
	case ISA_OPT_LDG:
	case ISA_OPT_STG:
		/* 32-bit; a store of a register's value (sem_mem.c run32_of,
		 * shared_run_span) */
		return i->in->size == ISA_MemSize_32 &&
		       (i->optype == ISA_OPT_LDS || i->optype == ISA_OPT_LDG || i->o[ST_rb].kind == XO_REG);
	default:
		return false;
	}
}
