/* report_int.h — names and helpers the two printers share. */
#ifndef WE_REPORT_INT_H
#define WE_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/* "deadlock", "watchdog", "interrupted", "runtime exception" */
const char *rep_title(we_fault_kind k);
/* "sync/arv", "red", "none" */
const char *rep_kind_name(unsigned bar_kind);
/* "producer-consumer", "producer-only", "consumer-only" */
const char *rep_role_name(uint8_t role);
/* "ready", "blocked", ... */
const char *rep_state_name(we_warp_state s);
/* "0-31", "0,2,4-7", "none" */
void rep_lanes_text(uint32_t lanes, char *buf, size_t n);
/* The (named) barrier id of r's list, or NULL. */
const rep_barrier *rep_find_barrier(const we_report *r, bool named, unsigned id);

#endif
