/* observe.c — the accesses of memory instructions for the hooked loop
 * (observe.h). */
#include "exec/observe.h"

/* Bytes per lane of a MemSize (mem.isa). */
static unsigned mem_bytes(int size)
{
	static const uint8_t bytes[] = {
		[ISA_MemSize_32] = 4, [ISA_MemSize_U8] = 1, [ISA_MemSize_S8] = 1, [ISA_MemSize_U16] = 2,
		[ISA_MemSize_S16] = 2, [ISA_MemSize_64] = 8, [ISA_MemSize_128] = 16,
	};
	return size >= 0 && (size_t)size < sizeof bytes && bytes[size] ? bytes[size] : 4u;
}

/* The lane addresses of memory operand om, as the handlers form them
 * (sem_mem.c, translate): a 64-bit register pair plus the offset for
 * global memory, the 32-bit register plus the signed offset for shared
 * and local memory. */
static void lane_addrs(xctx *x, const xopd *om, race_space sp, race_access *a)
{
	const uint32_t *lo = xrow(x, om, 0);
	if (sp == RACE_GLOBAL) {
		const uint32_t *hi = xrow(x, om, 1);
		for_lanes(l) a->addr[l] = (((uint64_t)hi[l] << 32) | lo[l]) + (uint64_t)om->imm;
	} else {
		for_lanes(l) a->addr[l] = (uint64_t)((int64_t)lo[l] + om->imm);
	}
}

/* The space of a generic address (ptx.isa's GEN_*: the windows of
 * WE_GENERIC_SHARED and WE_GENERIC_LOCAL, as xgeneric reads them), and
 * the address in it; GENERIC_CONST for the constant window (read-only:
 * nothing to observe). */
#define GENERIC_CONST 3
static int generic_space(uint64_t *addr)
{
	if (*addr - WE_GENERIC_SHARED < WE_GENERIC_WINDOW) {
		*addr -= WE_GENERIC_SHARED;
		return RACE_SHARED;
	}
	if (*addr - WE_GENERIC_LOCAL < WE_GENERIC_WINDOW) {
		*addr -= WE_GENERIC_LOCAL;
		return RACE_LOCAL;
	}
	if (*addr - WE_GENERIC_CONST < WE_GENERIC_WINDOW)
		return GENERIC_CONST;
	return RACE_GLOBAL;
}

/* A generic access a[0], its lanes' addresses formed as global ones:
 * split by space into a[0..n) (global, shared, local: those with lanes),
 * each lane's address made one of its space, so that every lane is
 * checked in the space it touches (a function called with pointers into
 * different spaces; lanes that read the constant window are left out).
 * How many: 0 to 3. */
static unsigned generic_split(race_access *a)
{
	uint32_t in[4] = { 0, 0, 0, 0 };
	for (uint32_t m = a->lanes; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		in[generic_space(&a->addr[l])] |= 1u << l;
	}
	static const race_space order[3] = { RACE_GLOBAL, RACE_SHARED, RACE_LOCAL };
	unsigned n = 0;
	for (unsigned j = 0; j < 3; j++) {
		const uint32_t lanes = in[order[j]];
		if (!lanes)
			continue;
		if (n)
			a[n] = a[0];
		a[n].space = (uint8_t)order[j];
		a[n].lanes = lanes;
		n++;
	}
	return n;
}

unsigned observe_mem(xctx *x, const xinsn *i, race_access a[3])
{
	const xopd *om;
	race_space sp;
	unsigned kind;
	int opd_val = -1; /* a plain store's data operand */
	switch (i->optype) {
	case ISA_OPT_LDG: sp = RACE_GLOBAL, kind = RACE_READ, om = &i->o[LD_addr]; break;
	case ISA_OPT_LDS: sp = RACE_SHARED, kind = RACE_READ, om = &i->o[LD_addr]; break;
	case ISA_OPT_LDL: sp = RACE_LOCAL, kind = RACE_READ, om = &i->o[LD_addr]; break;
	case ISA_OPT_STG: sp = RACE_GLOBAL, kind = RACE_WRITE, om = &i->o[ST_addr], opd_val = ST_rb; break;
	case ISA_OPT_STS: sp = RACE_SHARED, kind = RACE_WRITE, om = &i->o[ST_addr], opd_val = ST_rb; break;
	case ISA_OPT_STL: sp = RACE_LOCAL, kind = RACE_WRITE, om = &i->o[ST_addr], opd_val = ST_rb; break;
	case ISA_OPT_ATOMG: sp = RACE_GLOBAL, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[ATOM_addr]; break;
	case ISA_OPT_ATOMS: sp = RACE_SHARED, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[ATOM_addr]; break;
	case ISA_OPT_RED: sp = RACE_GLOBAL, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[RED_addr]; break;
	/* num.isa's float and wrapping atomics (PTX atom.add.f32/f64,
	 * atom.inc/dec): atomics like the others, hand-offs included */
	case ISA_OPT_ATOMG_X: sp = RACE_GLOBAL, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[ATOMX_addr]; break;
	case ISA_OPT_ATOMS_X: sp = RACE_SHARED, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[ATOMX_addr]; break;
	case ISA_OPT_RED_X: sp = RACE_GLOBAL, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[RED_X_addr]; break;
	/* ptx.isa's generic accesses: their addresses as global ones, then
	 * each lane's space (generic_lanes) */
	case ISA_OPT_GEN_LD: sp = RACE_GLOBAL, kind = RACE_READ, om = &i->o[LD_addr]; break;
	case ISA_OPT_GEN_ST: sp = RACE_GLOBAL, kind = RACE_WRITE, om = &i->o[ST_addr], opd_val = ST_rb; break;
	case ISA_OPT_GEN_ATOM: sp = RACE_GLOBAL, kind = RACE_READ | RACE_WRITE | RACE_ATOMIC, om = &i->o[ATOM_addr]; break;
	default: return 0;
	}
	const bool x_op = i->optype == ISA_OPT_ATOMG_X || i->optype == ISA_OPT_ATOMS_X || i->optype == ISA_OPT_RED_X;
	/* an exchange whose old value goes nowhere is a store (it does not
	 * read uninitialised memory) */
	if (i->optype != ISA_OPT_RED && !x_op && (kind & RACE_ATOMIC) && i->in->op == ISA_AtomOp_EXCH &&
	    i->o[ATOM_rd].kind == XO_REG && i->o[ATOM_rd].reg == 255)
		kind &= ~RACE_READ;
	/* an atomic of CTA scope (mem.isa's AtomScope): atomic and a
	 * hand-off for its own CTA only (race.h) */
	if ((kind & RACE_ATOMIC) && i->in->ascope == ISA_AtomScope_CTA)
		kind |= RACE_SCOPE_CTA;
	/* a strong load or store (mem.isa's .STRONG): an atomic to the race
	 * check, of its scope (race.h) */
	if ((kind & RACE_ATOMIC) == 0 && i->in->order == ISA_MemOrder_STRONG)
		kind |= RACE_ATOMIC | RACE_STRONG | (i->in->mscope == ISA_MemScope_CTA ? RACE_SCOPE_CTA : 0u);
	a->space = (uint8_t)sp;
	a->kind = (uint8_t)kind;
	a->lanes = x->pmask;
	a->pc = x->pc;
	if (x_op)
		a->size = i->in->typex == ISA_AtomTypeX_F64 ? 8 : 4;
	else if (kind & RACE_ATOMIC)
		a->size = i->in->type == ISA_AtomType_U64 || i->in->type == ISA_AtomType_S64 ? 8 : 4;
	else
		a->size = (uint8_t)mem_bytes(i->in->size);
	lane_addrs(x, om, sp, a);
	for (unsigned k = 0; k < 4; k++)
		a->val[k] = opd_val >= 0 && i->o[opd_val].kind == XO_REG && 4u * k < a->size
				    ? xrow(x, &i->o[opd_val], k)
				    : NULL;
	if (i->optype == ISA_OPT_GEN_LD || i->optype == ISA_OPT_GEN_ST || i->optype == ISA_OPT_GEN_ATOM)
		return generic_split(a);
	return 1;
}
