/* lock.c — a multi-threaded CTA's wake-all (cta_int.h): below both the
 * barriers (sync.c) and the faults (fault.c). */
#include <stdlib.h>

#include "cta/cta.h"
#include "cta/cta_int.h"

void cta_broadcast_all(cta_sync *s)
{
	for (unsigned i = 0; i < WE_BAR_SLOTS; i++)
		if (pthread_cond_broadcast(&s->cv[i]))
			abort();
	if (pthread_cond_broadcast(&s->nbar_cv))
		abort();
	if (s->serial && pthread_cond_broadcast(&s->baton_cv))
		abort();
}
