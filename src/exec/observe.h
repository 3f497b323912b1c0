/* observe.h — what the hooked loop (run.c) observes of the instructions
 * it runs, for --check's memory checks (cta/race.h): the accesses of a
 * memory instruction, read from its decoded operands before it runs (it
 * may overwrite its address registers), so that the handlers need no
 * hook and the fast loops no test. */
#ifndef WE_EXEC_OBSERVE_H
#define WE_EXEC_OBSERVE_H

#include "cta/race.h"
#include "exec/exec.h"

/* The accesses instruction i makes for the lanes of x->pmask (not 0):
 * for a load, store or atomic of global, shared or local memory (constant
 * banks are read-only), how many, in a[]: one, or for a generic access
 * one per space its lanes touch (up to 3; lanes that read the constant
 * window are not observed); else 0. */
unsigned observe_mem(xctx *x, const xinsn *i, race_access a[3]);

/* Instruction i is one the memory checks observe: a memory access
 * (observe_mem) or a fence. */
static inline bool observe_wants(const xinsn *i)
{
	switch (i->optype) {
	case ISA_OPT_LDG: case ISA_OPT_LDS: case ISA_OPT_LDL: case ISA_OPT_STG: case ISA_OPT_STS:
	case ISA_OPT_STL: case ISA_OPT_ATOMG: case ISA_OPT_ATOMS: case ISA_OPT_RED: case ISA_OPT_MEMBAR:
	case ISA_OPT_ATOMG_X: case ISA_OPT_ATOMS_X: case ISA_OPT_RED_X: case ISA_OPT_GEN_LD: case ISA_OPT_GEN_ST:
	case ISA_OPT_GEN_ATOM:
		return true;
	default:
		return false;
	}
}

#endif
