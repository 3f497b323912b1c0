/* flow.h — a kernel's per-thread paths and the registers its
 * instructions read and write, for the analyses over them: the
 * registers a CTA start must zero (decode.c, kernel_zero_rows) and the
 * registers live after a compiled run (jit.c, which links no function
 * of the library: these are inline).
 *
 * Per-thread paths follow the code (doc/spec-reading.md, branch unit
 * 10: each thread's RPC moves by fallthrough or a branch of its own;
 * BSYNC and WARPSYNC wait at their PC, BREAK and BSSY only touch
 * masks).  They are not known in a kernel with an Indirect instruction
 * (BRX, CALL, RET, TRAP, RTT: targets from registers, a stack or a
 * handler) or a trap handler: we_kernel.paths_known says so
 * (exec_prepare_module), and the analyses then take every register.
 * (SHFL reads other lanes, but only lanes running that SHFL: on their
 * paths too.)
 */
#ifndef WE_EXEC_FLOW_H
#define WE_EXEC_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"

/* a set of registers R0..R255 (bit r of b[r / 64]) */
typedef struct regset {
	uint64_t b[4];
} regset;

static inline void regs_add(regset *s, const xopd *o)
{
	if (o->reg == ISA_REG_RZ)
		return;
	for (unsigned r = o->reg; r < (unsigned)o->reg + o->nregs && r < 256; r++)
		s->b[r / 64] |= UINT64_C(1) << (r % 64);
}

static inline bool regs_has(const regset *s, unsigned r)
{
	return r < 256 && ((s->b[r / 64] >> (r % 64)) & 1u);
}

/* The registers instruction x reads (register sources, and the address
 * registers of memory and indirect constant operands) into *use. */
static inline void xflow_uses(const xinsn *x, regset *use)
{
	for (unsigned o = 0; o < x->nopd; o++) {
		const xopd *d = &x->o[o];
		if ((d->kind == XO_REG && !(d->flags & XF_OUT)) || d->kind == XO_MEM || d->kind == XO_CMEMIND)
			regs_add(use, d);
	}
}

/* The registers x writes in the threads whose guard is true into *outs. */
static inline void xflow_outs(const xinsn *x, regset *outs)
{
	for (unsigned o = 0; o < x->nopd; o++)
		if (x->o[o].kind == XO_REG && (x->o[o].flags & XF_OUT))
			regs_add(outs, &x->o[o]);
}

/* The registers x writes in every thread that runs it (unguarded: a
 * guard leaves the others' values) into *defs. */
static inline void xflow_defs(const xinsn *x, regset *defs)
{
	if (xunguarded(x))
		xflow_outs(x, defs);
}

/* The instructions a thread may run after instruction x, the i-th of n
 * (indices from the kernel's first), into succ, -1 for none: the next one
 * (also after EXIT and BRA: their guards, masks or UR may leave threads
 * behind), and a branch's target; outside [0, n) is none. */
static inline void xflow_succ(const xinsn *x, uint32_t i, uint32_t n, int64_t succ[2])
{
	succ[0] = (int64_t)i + 1;
	succ[1] = -1;
	if (x->optype == ISA_OPT_BRA)
		succ[1] = (int64_t)i + 1 + x->o[x->opcode == ISA_OP_BRA_U ? BRA_U_offset : BRA_offset].imm;
	for (unsigned s = 0; s < 2; s++)
		if (succ[s] >= (int64_t)n)
			succ[s] = -1;
}

#endif
