/* json.c — a report as one JSON object (report.h; schema warpemu.report,
 * documented in doc/json.md): what --report=json prints and
 * we_last_report_json() returns. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "asm/asm.h"
#include "base/strbuf.h"
#include "report/report.h"
#include "report/report_int.h"

#define REPORT_SCHEMA "warpemu.report/1"

/* ,"pc":"0x..","instruction":"..."[,"source":"file:line"] */
static void where(strbuf *j, const we_report *r, uint64_t pc)
{
	char ins[200];
	const char *file;
	uint32_t line;
	dis_at(r->mod, pc, ins, sizeof ins);
	sb_printf(j, ",\"pc\":\"0x%04llx\",\"instruction\":", (unsigned long long)pc);
	sb_json_str(j, ins);
	if (module_source_line(r->mod, pc, &file, &line)) {
		char src[300];
		snprintf(src, sizeof src, "%s:%u", file, line);
		sb_printf(j, ",\"source\":");
		sb_json_str(j, src);
	}
}

static void barrier_json(strbuf *j, const we_report *r, const rep_barrier *b, bool first)
{
	if (b->named) {
		sb_printf(j, "%s{\"named_barrier\":%u,\"phase\":%u,\"producers\":%u,\"num_producers\":%u,"
			  "\"consumers\":%u,\"num_consumers\":%u,\"signalled\":[", first ? "" : ",", b->id, b->phase,
			  b->prod, b->nprod, b->cons, b->ncons);
		for (uint32_t k = 0; k < b->n; k++) {
			sb_printf(j, "%s{\"warp\":%u,\"type\":\"%s\"", k ? "," : "", b->who[k].warp,
				  rep_role_name(b->who[k].role));
			where(j, r, b->who[k].pc);
			sb_printf(j, "}");
		}
		sb_printf(j, "]}");
		return;
	}
	sb_printf(j, "%s{\"id\":%u,\"phase\":%u,\"kind\":\"%s\",\"count\":%u,\"expected\":%u,\"all_live\":%s",
		  first ? "" : ",", b->id, b->phase, rep_kind_name(b->kind), b->count,
		  b->expected ? b->expected : r->cta_threads, b->expected ? "false" : "true");
	if (b->over_cta)
		sb_printf(j, ",\"over_cta\":true,\"cta_threads\":%u", r->cta_threads);
	sb_printf(j, ",\"arrived\":[");
	for (uint32_t k = 0; k < b->n; k++) {
		sb_printf(j, "%s{\"warp\":%u", k ? "," : "", b->who[k].warp);
		where(j, r, b->who[k].pc);
		sb_printf(j, "}");
	}
	sb_printf(j, "]}");
}

static void warp_json(strbuf *j, const we_report *r, const rep_warp *w)
{
	sb_printf(j, "%s{\"warp\":%u,\"state\":\"%s\"", w->id ? "," : "", w->id, rep_state_name(w->state));
	if (w->state == WE_WS_EXITED) {
		sb_printf(j, "}");
		return;
	}
	const rep_barrier *nb = w->nbar >= 0 ? rep_find_barrier(r, true, (unsigned)w->nbar) : NULL;
	if (w->bar >= 0)
		sb_printf(j, ",\"barrier\":%d", w->bar);
	else if (w->nbar >= 0)
		sb_printf(j, ",\"named_barrier\":%d,\"producers\":%u,\"num_producers\":%u,\"consumers\":%u,"
			  "\"num_consumers\":%u", w->nbar, nb ? nb->prod : 0, nb ? nb->nprod : 0,
			  nb ? nb->cons : 0, nb ? nb->ncons : 0);
	else if (w->intra)
		sb_printf(j, ",\"sync\":true");
	where(j, r, w->pc);
	sb_printf(j, ",\"active\":\"0x%08x\",\"valid\":\"0x%08x\"", w->active, w->valid);
	if (w->ngroups) {
		/* each group of lanes and where it is (at an intra-warp deadlock
		 * the parked ones wait for each other, 004 never switches to the
		 * rest; in a diverged warp the active lanes run, the others wait
		 * for them) */
		sb_printf(j, ",\"groups\":[");
		for (uint32_t k = 0; k < w->ngroups; k++) {
			const rep_group *g = &w->groups[k];
			sb_printf(j, "%s{\"lanes\":\"0x%08x\"", k ? "," : "", g->lanes);
			where(j, r, g->pc);
			if (w->intra)
				sb_printf(j, ",\"parked\":%s}", g->parked ? "true" : "false");
			else
				sb_printf(j, ",\"active\":%s}", g->active ? "true" : "false");
		}
		sb_printf(j, "]");
	}
	sb_printf(j, "}");
}

static void state_json(strbuf *j, const we_report *r)
{
	sb_printf(j, ",\"barriers\":[");
	for (uint32_t k = 0; k < r->nbarriers; k++)
		barrier_json(j, r, &r->barriers[k], k == 0);
	sb_printf(j, "],\"warps\":[");
	for (uint32_t k = 0; k < r->nwarps; k++)
		warp_json(j, r, &r->warps[k]);
	sb_printf(j, "],\"exited\":[");
	for (uint32_t m = r->exited; m; m &= m - 1)
		sb_printf(j, "%s%d", m == r->exited ? "" : ",", __builtin_ctz(m));
	sb_printf(j, "],\"cycle\":[");
	for (unsigned k = 0; r->ncycle && k <= r->ncycle; k++)
		sb_printf(j, "%s{\"warp\":%u,\"%s\":%d}", k ? "," : "", r->cycle[k].warp,
			  r->cycle[k].named ? "named_barrier" : "barrier", r->cycle[k].id);
	sb_printf(j, "]");
}

char *report_json(const we_report *r)
{
	const we_fault *f = &r->fault;
	char lanes[160];
	rep_lanes_text(f->lanes, lanes, sizeof lanes);
	strbuf j = { 0 };
	sb_printf(&j, "{\"schema\":\"%s\",\"verdict\":\"%s\",\"kind\":", REPORT_SCHEMA, report_verdict(r));
	sb_json_str(&j, we_fault_name(f->kind));
	sb_printf(&j, ",\"kernel\":");
	sb_json_str(&j, r->kernel);
	sb_printf(&j, ",\"message\":");
	sb_json_str(&j, f->msg);
	sb_printf(&j, ",\"cta\":[%u,%u,%u],\"warp\":%u,\"lanes\":\"%s\"", r->cta[0], r->cta[1], r->cta[2],
		  f->warp, lanes);
	where(&j, r, f->pc);
	if (f->kind == WE_FAULT_MEM_RANGE || f->kind == WE_FAULT_MEM_ALIGN)
		sb_printf(&j, ",\"address\":\"0x%llx\"", (unsigned long long)f->addr);
	if (r->state)
		state_json(&j, r);
	sb_printf(&j, "}");
	return sb_take(&j);
}
