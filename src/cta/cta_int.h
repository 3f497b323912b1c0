/* cta_int.h — what sync.c and fault.c share inside the CTA layer. */
#ifndef WE_CTA_INT_H
#define WE_CTA_INT_H

#include "cta/cta.h"

/* Under the CTA lock: record the first fault of c and stop its other
 * warps (a multi-threaded CTA: the abort flag, every waiter woken). */
void cta_fault_locked(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg);
/* Under the CTA lock: the deadlock of c, at its first blocked warp. */
void cta_deadlock_locked(we_cta *c);
/* Wake every waiter of a multi-threaded CTA (completion of several
 * barriers, abort). */
void cta_broadcast_all(cta_sync *s);

#endif
