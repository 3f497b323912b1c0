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
		for (uint32_t i = 0; i < s->ninsns; i++)
			prof_pc_add(&sum->pc[i], &s->pc[(size_t)w * s->ninsns + i]);
}
