/* reconv.h — reconvergence: divergence analysis and BSSY/BSYNC at the
 * immediate post-dominator of each divergent branch (reconv.c). */
#ifndef WE_PTX_RECONV_H
#define WE_PTX_RECONV_H

#include "ptx/ptx_int.h"

/* Analyse c (uniform and varying values, divergent branches) and insert
 * BSSY before each divergent branch and BSYNC at its immediate
 * post-dominator; false when more B registers would be needed than the
 * 16 the ISA has (or out of memory: c->oom). */
bool reconv_place(lcode *c);

/* the uniformity analysis alone: varying[v] for every vreg, div[i] for
 * every instruction (a divergent branch); for tests */
bool reconv_analyse(const lcode *c, const lcfg *g, bool *varying, bool *div);

#endif
