/* slot.c — the buffers of running CTAs (slots and batches), CTA start
 * and finish: what both engines do to a CTA around running its warps. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "engine/engine_int.h"
#include "report/report.h"

/* n CTAs' buffers: one warp array, one register file whose rows hold the
 * lanes of all n CTAs' warps, n shared and local areas.  Rows are 128
 * bytes per warp: on 64-byte boundaries no vector load of a row crosses a
 * cache line.  The zero rows (RZ reads) stay zero from here on: nothing
 * writes them (RZ writes go to the sink rows, which nothing reads). */
static bool buffers_alloc(const launch *lc, uint32_t n, we_warp **warps, uint32_t **regs,
			  uint8_t **shared, uint8_t **local)
{
	const we_launch_ctx *L = &lc->L;
	const size_t nw = L->warps_per_cta;
	size_t regbytes = (size_t)L->nrows * WE_WARP_SIZE * sizeof(uint32_t) * nw * n;
	size_t localbytes = (size_t)L->local_bytes * WE_WARP_SIZE * nw * n;
	size_t sharedbytes = (size_t)L->shared_bytes * n;
	*warps = calloc(nw * n, sizeof **warps);
	*regs = aligned_alloc(64, (regbytes + 63) / 64 * 64);
	if (*regs)
		memset(*regs, 0, regbytes);
	*shared = malloc(sharedbytes ? sharedbytes : 1);
	*local = malloc(localbytes ? localbytes : 1);
	return *warps && *regs && *shared && *local;
}

/* A slot's --profile counters: a row per warp of the kernel's code. */
static prof *slot_prof(const we_launch_ctx *L)
{
	return prof_new(L->warps_per_cta, (L->k->code_end - L->k->code_start) / WE_INST_SIZE, L->k->code_start);
}

bool slot_alloc(cta_slot *s, const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	memset(s, 0, sizeof *s);
	bar_init(&s->cta.bars, L->warps_per_cta);
	nbar_init(&s->cta.nbars, L->warps_per_cta);
	s->rstride = L->warps_per_cta * WE_WARP_SIZE;
	if ((L->memcheck && !(s->race = race_cta_new(L))) || (L->profile && !(s->prof = slot_prof(L))))
		return false;
	return buffers_alloc(lc, 1, &s->warps, &s->regs, &s->shared, &s->local);
}

void slot_free(cta_slot *s)
{
	race_cta_free(s->race);
	s->race = NULL;
	prof_free(s->prof);
	s->prof = NULL;
	if (!s->batched) {
		free(s->warps);
		free(s->regs);
		free(s->shared);
		free(s->local);
	}
	s->warps = NULL;
	s->regs = NULL;
	s->shared = s->local = NULL;
}

bool batch_alloc(cta_batch *b, uint32_t n, const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	const uint32_t nw = L->warps_per_cta;
	memset(b, 0, sizeof *b);
	b->slot = calloc(n, sizeof *b->slot);
	if (!b->slot)
		return false;
	b->n = n;
	bool ok = buffers_alloc(lc, n, &b->warps, &b->regs, &b->shared, &b->local);
	for (uint32_t k = 0; k < n; k++) {
		cta_slot *s = &b->slot[k];
		bar_init(&s->cta.bars, nw);
		nbar_init(&s->cta.nbars, nw);
		s->batched = true;
		s->rstride = n * nw * WE_WARP_SIZE;
		if ((L->memcheck && !(s->race = race_cta_new(L))) || (L->profile && !(s->prof = slot_prof(L))))
			ok = false;
		if (!ok)
			continue;
		s->warps = b->warps + (size_t)k * nw;
		s->regs = b->regs + (size_t)k * nw * WE_WARP_SIZE;
		s->shared = b->shared + (size_t)k * L->shared_bytes;
		s->local = b->local + (size_t)k * L->local_bytes * WE_WARP_SIZE * nw;
	}
	return ok;
}

void batch_free(cta_batch *b)
{
	for (uint32_t k = 0; k < b->n; k++)
		slot_free(&b->slot[k]);
	free(b->slot);
	free(b->warps);
	free(b->regs);
	free(b->shared);
	free(b->local);
	memset(b, 0, sizeof *b);
}

void cta_zero_rows(const we_launch_ctx *L, uint32_t *regs, size_t rstride, size_t lanes)
{
	const uint64_t *z = L->k->zero_rows;
	for (uint32_t w = 0; w < 4; w++)
		for (uint64_t m = z[w]; m; m &= m - 1) {
			const uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(m);
			if (r < L->k->nregs)
				memset(regs + (size_t)r * rstride, 0, lanes * sizeof(uint32_t));
		}
}

void cta_start(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync, bool regs_clear)
{
	const we_launch_ctx *L = &lc->L;
	we_cta *c = &s->cta;
	/* not a memset of the whole CTA: the barrier units reset only what the
	 * previous CTA used (slots start zeroed) */
	c->faulted = false;
	c->fault.kind = WE_FAULT_NONE;
	c->barriers_completed = 0;
	c->rr_next = 0;
	c->ready = 0;
	c->L = L;
	c->sync = sync;
	c->linear_id = id;
	c->ctaid[0] = (uint32_t)(id % L->grid.x);
	c->ctaid[1] = (uint32_t)((id / L->grid.x) % L->grid.y);
	c->ctaid[2] = (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y));
	c->nwarps = L->warps_per_cta;
	c->warps = s->warps;
	c->shared = s->shared;
	c->rng = L->seed ^ (id * UINT64_C(0xd1b54a32d192ed03));
	cta_sync_start(c);
	if (L->shared_bytes)
		memset(s->shared, 0, L->shared_bytes);
	/* R0.. start at zero, those a thread may read before it writes them
	 * (we_kernel.zero_rows; the zero and sink rows after them need
	 * nothing, buffers_alloc) */
	if (!regs_clear)
		cta_zero_rows(L, s->regs, s->rstride, (size_t)WE_WARP_SIZE * c->nwarps);
	if (L->local_bytes)
		memset(s->local, 0, (size_t)L->local_bytes * WE_WARP_SIZE * c->nwarps);
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		we_warp *w = &s->warps[wi];
		warp_clear(w);
		uint32_t n = L->threads_per_cta - wi * WE_WARP_SIZE;
		w->valid = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
		w->active = w->valid;
		w->active_pc = L->k->code_start;
		for (unsigned l = 0; l < 32; l++)
			w->rpc[l] = w->active_pc;
		w->r = s->regs + (size_t)wi * WE_WARP_SIZE;
		w->nrows = L->nrows;
		w->rstride = s->rstride;
		w->cta = c;
		w->p[7] = 0xffffffffu;
		w->up = 0x80;
		w->id = wi;
		cta_warp_state(c, w, WE_WS_READY);
		w->bar_id = -1;
		w->nbar_id = -1;
		w->local = s->local + (size_t)wi * WE_WARP_SIZE * L->local_bytes;
		w->local_size = L->local_bytes;
	}
	c->race = s->race;
	if (c->race)
		race_cta_start(c);
	c->prof = s->prof;
}

void cta_finish(cta_slot *s, launch *lc)
{
	if (lc->L.check)
		check_cta_end(&s->cta);
	if (s->cta.race)
		race_cta_end(&s->cta);
	we_status st = cta_status(&s->cta);
	for (uint32_t wi = 0; wi < s->cta.nwarps; wi++) {
		s->warp_insns += s->warps[wi].insns;
		s->thread_insns += s->warps[wi].thread_insns;
	}
	s->barriers += s->cta.barriers_completed;
	s->ctas++;
	if (st == WE_OK)
		return;
	we_report *r = report_build(&s->cta);
	char *rep = r ? report_text(r) : NULL, *json = r ? report_json(r) : NULL;
	report_free(r);
	if (pthread_mutex_lock(&lc->lock))
		abort();
	/* the lowest CTA id wins, so the report is reproducible: every lower
	 * CTA was handed out before this one and runs to its end */
	if (lc->status == WE_OK || s->cta.linear_id < lc->report_cta) {
		free(lc->report);
		free(lc->report_json);
		lc->status = st;
		lc->report = rep;
		lc->report_json = json;
		lc->report_cta = s->cta.linear_id;
		rep = json = NULL;
	}
	if (pthread_mutex_unlock(&lc->lock))
		abort();
	free(rep);
	free(json);
	atomic_store_explicit(&lc->stop, true, memory_order_release);
}

void slot_stats(launch *lc, const cta_slot *s)
{
	lc->stats.ctas += s->ctas;
	lc->stats.warp_insns += s->warp_insns;
	lc->stats.thread_insns += s->thread_insns;
	lc->stats.barriers += s->barriers;
	if (lc->prof && s->prof)
		prof_add(lc->prof, s->prof);
}
