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
	default: return false;
	}
	/* an exchange whose old value goes nowhere is a store (it does not
	 * read uninitialised memory) */
	if (i->optype != ISA_OPT_RED && (kind & RACE_ATOMIC) && i->in->op == ISA_AtomOp_EXCH &&
	    i->o[ATOM_rd].kind == XO_REG && i->o[ATOM_rd].reg == 255)
		kind &= ~RACE_READ;
	a->space = (uint8_t)sp;
	a->kind = (uint8_t)kind;
	a->lanes = x->pmask;
	a->pc = x->pc;
	if (kind & RACE_ATOMIC)
		a->size = i->in->type == ISA_AtomType_U64 || i->in->type == ISA_AtomType_S64 ? 8 : 4;
	else
		a->size = (uint8_t)mem_bytes(i->in->size);
	lane_addrs(x, om, sp, a);
	for (unsigned k = 0; k < 4; k++)
		a->val[k] = opd_val >= 0 && i->o[opd_val].kind == XO_REG && 4u * k < a->size
				    ? xrow(x, &i->o[opd_val], k)
				    : NULL;
	return true;
}
