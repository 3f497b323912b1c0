/* profile.c — --profile counters (profile.h). */
#include "cta/profile.h"

#include <stdlib.h>

prof *prof_new(uint32_t nwarps, uint32_t ninsns, uint64_t code_start)
{
	prof *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->ninsns = ninsns;
	p->code_start = code_start;
	p->nwarps = nwarps;
	p->pc = calloc((size_t)nwarps * ninsns + 1u, sizeof *p->pc);
	p->block_pc = calloc(nwarps, sizeof *p->block_pc);
	if (!p->pc || !p->block_pc) {
		prof_free(p);
		return NULL;
	}
	return p;
}

void prof_free(prof *p)
{
	if (!p)
		return;
	free(p->pc);
	free(p->block_pc);
	free(p);
}

void prof_add(prof *sum, const prof *s)
{
	for (uint32_t w = 0; w < s->nwarps; w++)
		for (uint32_t i = 0; i < s->ninsns; i++) {
			const prof_pc *a = &s->pc[(size_t)w * s->ninsns + i];
			prof_pc *d = &sum->pc[i];
			d->warp_insns += a->warp_insns;
			d->thread_insns += a->thread_insns;
			d->diverged += a->diverged;
			d->reconverged += a->reconverged;
			d->completions += a->completions;
			d->blocked += a->blocked;
		}
}
