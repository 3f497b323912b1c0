/* red.c — applying the reductions a turn held back (exec/red.h). */
#include "exec/red.h"

void xred_flush(xred *r)
{
	for (uint32_t k = 0; k < r->n; k++) {
		const unsigned s = r->used[k];
		__atomic_fetch_add(r->word[s], r->add[s], __ATOMIC_RELAXED);
		r->word[s] = NULL;
	}
	r->n = 0;
	r->lo = UINTPTR_MAX;
	r->hi = 0;
}
