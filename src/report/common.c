/* common.c — names and helpers the two printers share (report_int.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "report/report_int.h"

const char *rep_title(we_fault_kind k)
{
	switch (k) {
	case WE_FAULT_DEADLOCK: return "deadlock";
	case WE_FAULT_WATCHDOG: return "watchdog";
	case WE_FAULT_INTERRUPTED: return "interrupted";
	default: return "runtime exception";
	}
}

const char *rep_kind_name(unsigned k)
{
	return k == BAR_KIND_RED ? "red" : k == BAR_KIND_SYNC ? "sync/arv" : "none";
}

const char *rep_role_name(uint8_t role)
{
	static const char *const names[4] = { "none", "consumer-only", "producer-only", "producer-consumer" };
	return names[role & 3u];
}

const char *rep_state_name(we_warp_state s)
{
	switch (s) {
	case WE_WS_READY: return "ready";
	case WE_WS_BLOCKED: return "blocked";
	case WE_WS_SLEEPING: return "sleeping";
	case WE_WS_EXITED: return "exited";
	case WE_WS_FAULTED: return "faulted";
	}
	return "unknown";
}

void rep_lanes_text(uint32_t lanes, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	if (lanes == 0xffffffffu) {
		snprintf(buf, n, "0-31");
		return;
	}
	for (unsigned l = 0; l < 32 && len + 8 < n; l++) {
		if (!((lanes >> l) & 1u))
			continue;
		unsigned e = l;
		while (e + 1 < 32 && ((lanes >> (e + 1)) & 1u))
			e++;
		len += (size_t)snprintf(buf + len, n - len, "%s%u", len ? "," : "", l);
		if (e > l)
			len += (size_t)snprintf(buf + len, n - len, "-%u", e);
		l = e;
	}
	if (!len)
		snprintf(buf, n, "none");
}

const rep_barrier *rep_find_barrier(const we_report *r, bool named, unsigned id)
{
	for (uint32_t k = 0; k < r->nbarriers; k++)
		if (r->barriers[k].named == named && r->barriers[k].id == id)
			return &r->barriers[k];
	return NULL;
}
