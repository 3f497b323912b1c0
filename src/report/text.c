/* text.c — a report as text (report.h): what the CLI prints on stderr and
 * we_last_error() returns. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "asm/asm.h"
#include "base/bits.h"
#include "base/strbuf.h"
#include "report/report.h"
#include "report/report_int.h"

/* The instruction at pc and, where the module knows it, its source:
 * "INSTRUCTION (file:line)", or inside parentheses already (inner)
 * "INSTRUCTION; file:line". */
static void insn_src(strbuf *t, const we_report *r, uint64_t pc, bool inner)
{
	char ins[200];
	const char *file;
	uint32_t line;
	dis_at(r->mod, pc, ins, sizeof ins);
	sb_printf(t, "%s", ins);
	if (module_source_line(r->mod, pc, &file, &line))
		sb_printf(t, inner ? "; %s:%u" : " (%s:%u)", file, line);
}

static void insn_at(strbuf *t, const we_report *r, uint64_t pc)
{
	insn_src(t, r, pc, false);
}

static void barrier_text(strbuf *t, const we_report *r, const rep_barrier *b)
{
	if (b->named) {
		sb_printf(t, "  named barrier %u: phase %u, producers %u of %u, consumers %u of %u, signalled:",
			  b->id, b->phase, b->prod, b->nprod, b->cons, b->ncons);
		for (uint32_t k = 0; k < b->n; k++) {
			sb_printf(t, " warp %u %s at 0x%04llx (", b->who[k].warp, rep_role_name(b->who[k].role),
				  (unsigned long long)b->who[k].pc);
			insn_src(t, r, b->who[k].pc, true);
			sb_printf(t, ");");
		}
		sb_printf(t, "\n");
		return;
	}
	const uint32_t expected = b->expected ? b->expected : r->cta_threads;
	sb_printf(t, "  barrier %u: phase %u, %s, count %u of %u%s, arrived:", b->id, b->phase,
		  rep_kind_name(b->kind), b->count, expected, b->expected ? "" : " (all live warps)");
	for (uint32_t k = 0; k < b->n; k++) {
		sb_printf(t, " warp %u at 0x%04llx (", b->who[k].warp, (unsigned long long)b->who[k].pc);
		insn_src(t, r, b->who[k].pc, true);
		sb_printf(t, ");");
	}
	sb_printf(t, "\n");
	if (b->over_cta)
		sb_printf(t, "    (it expects %u threads, more than the CTA's %u: it can never complete)\n",
			  b->expected, r->cta_threads);
}

static void warp_text(strbuf *t, const we_report *r, const rep_warp *w)
{
	if (w->state == WE_WS_EXITED) {
		sb_printf(t, "  warp %u: exited\n", w->id);
		return;
	}
	sb_printf(t, "  warp %u: %s", w->id, rep_state_name(w->state));
	const rep_barrier *b = w->bar >= 0 ? rep_find_barrier(r, false, (unsigned)w->bar)
		: w->nbar >= 0 ? rep_find_barrier(r, true, (unsigned)w->nbar) : NULL;
	if (w->bar >= 0)
		sb_printf(t, " on %sbarrier %d (count %u, expected %u%s)", w->bar == BAR_SYNCALL_ID ?
			  "the BAR.SYNCALL " : "", w->bar, b ? b->count : 0,
			  b && b->expected ? b->expected : r->cta_threads,
			  b && b->expected ? "" : " = all live warps");
	else if (w->nbar >= 0)
		sb_printf(t, " on named barrier %d (producers %u of %u, consumers %u of %u)", w->nbar,
			  b ? b->prod : 0, b ? b->nprod : 0, b ? b->cons : 0, b ? b->ncons : 0);
	else if (w->intra)
		sb_printf(t, " (intra-warp)");
	sb_printf(t, " at PC 0x%04llx: ", (unsigned long long)w->pc);
	insn_at(t, r, w->pc);
	sb_printf(t, "  active 0x%08x valid 0x%08x\n", w->active, w->valid);
	for (uint32_t k = 0; k < w->ngroups; k++) {
		const rep_group *g = &w->groups[k];
		sb_printf(t, "    lanes 0x%08x at PC 0x%04llx: ", g->lanes, (unsigned long long)g->pc);
		insn_at(t, r, g->pc);
		sb_printf(t, "%s\n", w->intra ? (g->parked ? "" : " (never switched to)")
			  : g->active ? " (active)" : " (diverged: waiting for the active lanes)");
	}
}

char *report_text(const we_report *r)
{
	const we_fault *f = &r->fault;
	char lanes[160];
	rep_lanes_text(f->lanes, lanes, sizeof lanes);
	strbuf t = { 0 };
	/* "deadlock in kernel k: MESSAGE", "runtime exception in kernel k:
	 * KIND: MESSAGE" (a title that is not the kind's name says it) */
	const char *title = rep_title(f->kind);
	sb_printf(&t, "%s in kernel %s: ", title, r->kernel);
	if (strcmp(title, we_fault_name(f->kind)))
		sb_printf(&t, "%s: ", we_fault_name(f->kind));
	sb_printf(&t, "%s\n  CTA (%u,%u,%u) warp %u lanes %s PC 0x%04llx: ", f->msg, r->cta[0], r->cta[1],
		  r->cta[2], f->warp, lanes, (unsigned long long)f->pc);
	insn_at(&t, r, f->pc);
	sb_printf(&t, "\n");
	if (r->state) {
		for (uint32_t k = 0; k < r->nbarriers; k++)
			barrier_text(&t, r, &r->barriers[k]);
		for (uint32_t k = 0; k < r->nwarps; k++)
			warp_text(&t, r, &r->warps[k]);
		sb_printf(&t, "  exited warps: %u of %u\n", (unsigned)popc32(r->exited), r->nwarps);
		if (r->ncycle) {
			sb_printf(&t, "  wait-for cycle:");
			for (unsigned k = 0; k <= r->ncycle; k++)
				sb_printf(&t, "%s warp %u (%sbarrier %d)", k ? " ->" : "", r->cycle[k].warp,
					  r->cycle[k].named ? "named " : "", r->cycle[k].id);
			sb_printf(&t, "\n");
		}
	}
	return sb_take(&t);
}
