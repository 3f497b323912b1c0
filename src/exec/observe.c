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
 * the address in it. */
static race_space generic_space(uint64_t *addr)
{
	if (*addr - WE_GENERIC_SHARED < WE_GENERIC_WINDOW) {
		*addr -= WE_GENERIC_SHARED;
		return RACE_SHARED;
	}
	if (*addr - WE_GENERIC_LOCAL < WE_GENERIC_WINDOW) {
		*addr -= WE_GENERIC_LOCAL;
		return RACE_LOCAL;
	}
	return RACE_GLOBAL;
}

/* A generic access, its lanes' addresses formed as global ones: observed
 * in the space of its lowest lane, with the lanes that address that
 * space.  Lanes of one instruction in another space (a function called
 * with pointers into different spaces) are not observed. */
static void generic_lanes(race_access *a)
{
	int first = -1;
	uint32_t keep = 0;
	for (unsigned l = 0; l < 32; l++) {
		if (!((a->lanes >> l) & 1u))
			continue;
		uint64_t ad = a->addr[l];
		const race_space s = generic_space(&ad);
		if (first < 0)
			first = (int)s;
		if ((int)s == first) {
			a->addr[l] = ad;
			keep |= 1u << l;
		}
	}
	a->space = (uint8_t)(first < 0 ? RACE_GLOBAL : first);
	a->lanes = keep;
}

bool observe_mem(xctx *x, const xinsn *i, race_access *a)
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
	default: return false;
	}
	const bool x_op = i->optype == ISA_OPT_ATOMG_X || i->optype == ISA_OPT_ATOMS_X || i->optype == ISA_OPT_RED_X;
	/* an exchange whose old value goes nowhere is a store (it does not
	 * read uninitialised memory) */
	if (i->optype != ISA_OPT_RED && !x_op && (kind & RACE_ATOMIC) && i->in->op == ISA_AtomOp_EXCH &&
	    i->o[ATOM_rd].kind == XO_REG && i->o[ATOM_rd].reg == 255)
		kind &= ~RACE_READ;
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
	if (i->optype == ISA_OPT_GEN_LD || i->optype == ISA_OPT_GEN_ST || i->optype == ISA_OPT_GEN_ATOM)
		generic_lanes(a);
	for (unsigned k = 0; k < 4; k++)
		a->val[k] = opd_val >= 0 && i->o[opd_val].kind == XO_REG && 4u * k < a->size
				    ? xrow(x, &i->o[opd_val], k)
				    : NULL;
	return true;
}
