/* profile.c — the --profile of a launch (cta/profile.h) as text (the
 * kernel's disassembly annotated with its counters, then per opcode) and
 * as JSON ("warpemu.profile/1", doc/json.md). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/module.h"
#include "base/bits.h"
#include "base/strbuf.h"
#include "report/report.h"

/* The opcode that stands for every opcode of k's mnemonic (BAR_RR and
 * BAR_II are both BAR): the first one. */
static unsigned mnemonic_of(unsigned k)
{
	unsigned j = 0;
	while (j < k && strcmp(isa_opcodes[j].mnemonic, isa_opcodes[k].mnemonic))
		j++;
	return j;
}

/* The per-mnemonic sums, indexed by mnemonic_of(). */
static prof_pc *by_opcode(const we_launch_ctx *L, const prof *p)
{
	prof_pc *o = calloc(ISA_NUM_OPCODES, sizeof *o);
	if (!o)
		return NULL;
	for (uint32_t i = 0; i < p->ninsns; i++)
		prof_pc_add(&o[mnemonic_of(L->mod->insn[p->code_start / 16u + i].opcode)], &p->pc[i]);
	return o;
}

static void totals(const prof *p, prof_pc *t)
{
	memset(t, 0, sizeof *t);
	for (uint32_t i = 0; i < p->ninsns; i++)
		prof_pc_add(t, &p->pc[i]);
}

static double lanes(const prof_pc *a)
{
	return a->warp_insns ? (double)a->thread_insns / (double)a->warp_insns : 0.0;
}

char *profile_text(const we_launch_ctx *L, const prof *p, const char *engine, bool rounds)
{
	strbuf b = { 0 };
	prof_pc t;
	totals(p, &t);
	sb_printf(&b, "# warpemu profile: kernel %s, grid %u,%u,%u, block %u,%u,%u, engine %s\n", L->k->name,
		  L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z, engine);
	sb_printf(&b, "# %" PRIu64 " warp-instructions, %" PRIu64 " thread-instructions (%.2f lanes of 32 on "
		  "average), %" PRIu64 " barrier completions; blocked: %s\n", t.warp_insns, t.thread_insns,
		  lanes(&t), t.completions, rounds ? "scheduling rounds" : "nanoseconds");
	sb_printf(&b, "#     PC   warp-insns thread-insns  lanes  diverged   reconv  barriers      blocked  "
		      "instruction\n");
	for (uint32_t i = 0; i < p->ninsns; i++) {
		const prof_pc *a = &p->pc[i];
		const uint64_t pc = p->code_start + 16u * i;
		char ins[200], loc[300] = "";
		const char *file;
		uint32_t line;
		dis_at(L->mod, pc, ins, sizeof ins);
		if (module_source_line(L->mod, pc, &file, &line))
			snprintf(loc, sizeof loc, "  (%s:%" PRIu32 ")", file, line);
		sb_printf(&b, "  0x%04" PRIx64 " %12" PRIu64 " %12" PRIu64 " %6.2f %9" PRIu64 " %8" PRIu64 " %9" PRIu64
			  " %12" PRIu64 "  %s%s\n", pc, a->warp_insns, a->thread_insns, lanes(a), a->diverged,
			  a->reconverged, a->completions, a->blocked, ins, loc);
	}
	prof_pc *o = by_opcode(L, p);
	if (o) {
		sb_printf(&b, "# per opcode\n#  opcode            warp-insns thread-insns  lanes  diverged   reconv  "
			      "barriers      blocked\n");
		for (unsigned k = 0; k < ISA_NUM_OPCODES; k++)
			if (o[k].warp_insns)
				sb_printf(&b, "   %-16s %12" PRIu64 " %12" PRIu64 " %6.2f %9" PRIu64 " %8" PRIu64
					  " %9" PRIu64 " %12" PRIu64 "\n", isa_opcodes[k].mnemonic, o[k].warp_insns,
					  o[k].thread_insns, lanes(&o[k]), o[k].diverged, o[k].reconverged,
					  o[k].completions, o[k].blocked);
		free(o);
	}
	return sb_take(&b);
}

static void json_counts(strbuf *b, const prof_pc *a)
{
	sb_printf(b, "\"warp_insns\":%" PRIu64 ",\"thread_insns\":%" PRIu64 ",\"avg_lanes\":%.4f,\"diverged\":%" PRIu64
		  ",\"reconverged\":%" PRIu64 ",\"completions\":%" PRIu64 ",\"blocked\":%" PRIu64, a->warp_insns,
		  a->thread_insns, lanes(a), a->diverged, a->reconverged, a->completions, a->blocked);
}

char *profile_json(const we_launch_ctx *L, const prof *p, const char *engine, bool rounds)
{
	strbuf b = { 0 };
	prof_pc t;
	totals(p, &t);
	sb_str(&b, "{\"schema\":\"warpemu.profile/1\",\"kernel\":");
	sb_json_str(&b, L->k->name);
	sb_printf(&b, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"engine\":", L->grid.x, L->grid.y, L->grid.z,
		  L->block.x, L->block.y, L->block.z);
	sb_json_str(&b, engine);
	sb_printf(&b, ",\"blocked_unit\":\"%s\",\"totals\":{", rounds ? "rounds" : "ns");
	json_counts(&b, &t);
	sb_str(&b, "},\"pcs\":[");
	for (uint32_t i = 0; i < p->ninsns; i++) {
		const uint64_t pc = p->code_start + 16u * i;
		char ins[200];
		const char *file;
		uint32_t line;
		dis_at(L->mod, pc, ins, sizeof ins);
		sb_printf(&b, "%s{\"pc\":%" PRIu64 ",\"insn\":", i ? "," : "", pc);
		sb_json_str(&b, ins);
		if (module_source_line(L->mod, pc, &file, &line)) {
			sb_str(&b, ",\"file\":");
			sb_json_str(&b, file);
			sb_printf(&b, ",\"line\":%" PRIu32, line);
		}
		sb_str(&b, ",");
		json_counts(&b, &p->pc[i]);
		sb_str(&b, "}");
	}
	sb_str(&b, "],\"opcodes\":[");
	prof_pc *o = by_opcode(L, p);
	bool first = true;
	for (unsigned k = 0; o && k < ISA_NUM_OPCODES; k++) {
		if (!o[k].warp_insns)
			continue;
		sb_str(&b, first ? "{\"opcode\":" : ",{\"opcode\":");
		sb_json_str(&b, isa_opcodes[k].mnemonic);
		sb_str(&b, ",");
		json_counts(&b, &o[k]);
		sb_str(&b, "}");
		first = false;
	}
	free(o);
	sb_str(&b, "]}");
	return sb_take(&b);
}
