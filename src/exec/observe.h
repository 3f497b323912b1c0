/* observe.h — what the hooked loop (run.c) observes of the instructions
 * it runs, for --check's memory checks (cta/race.h): the accesses of a
 * memory instruction, read from its decoded operands before it runs (it
 * may overwrite its address registers), so that the handlers need no
 * hook and the fast loops no test. */
#ifndef WE_EXEC_OBSERVE_H
#define WE_EXEC_OBSERVE_H

#include "cta/race.h"
#include "exec/exec.h"

/* The access instruction i makes for the lanes of x->pmask (not 0):
 * true for a load, store or atomic of global, shared or local memory
 * (constant banks are read-only), with *a filled in; else false. */
bool observe_mem(xctx *x, const xinsn *i, race_access *a);

#endif
