/* slot.c — the buffers of running CTAs (slots and batches), CTA start
 * and finish: what both engines do to a CTA around running its warps. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "engine/engine_int.h"
#include "report/report.h"

/* The bytes of n CTAs' buffers (batch_alloc), by
 * BUF_*: one warp array, one register file whose rows hold the lanes of
 * all n CTAs' warps, n shared and local areas. */
enum { BUF_WARPS, BUF_REGS, BUF_SHARED, BUF_LOCAL, BUF_N };
static void buffer_bytes(const we_launch_ctx *L, uint32_t n, size_t bytes[BUF_N])
{
	const size_t nw = L->warps_per_cta;
	bytes[BUF_WARPS] = nw * n * sizeof(we_warp);
	bytes[BUF_REGS] = (size_t)L->nrows * WE_WARP_SIZE * sizeof(uint32_t) * nw * n;
	bytes[BUF_SHARED] = (size_t)L->shared_bytes * n;
	bytes[BUF_LOCAL] = (size_t)L->local_bytes * WE_WARP_SIZE * nw * n;
}

/* What a kernel's CTAs may leave in their warps besides the fields of
 * warp_clear_hot, which every CTA start clears (cta_start):
 * KERNEL_UREGS, the uniform registers (only the uniform unit writes
 * them: exec.h xset_ureg); KERNEL_FLOW, the fields warp_clear_flow
 * resets: the RPCs, which BRA writes, and the barrier unit's per-warp
 * state, which BAR (SYNC, ARV, RED, SCAN, SYNCALL) writes; KERNEL_UNITS,
 * the rest of the seed-004 state (B registers, sleep), named and
 * per-thread barriers and the trap handler's (only branch and barrier
 * unit instructions write them, and of those EXIT only ValidMask,
 * ActiveMask and ActivePC, BRA those and the RPCs, BAR the barrier
 * unit's fields). */
enum { KERNEL_UREGS = 1, KERNEL_UNITS = 2, KERNEL_FLOW = 4 };
uint8_t kernel_leaves(const we_launch_ctx *L)
{
	uint8_t d = 0;
	for (uint64_t pc = L->k->code_start; pc < L->k->code_end; pc += WE_INST_SIZE) {
		const xinsn *i = &L->mod->x[pc / WE_INST_SIZE];
		const unsigned u = isa_opcodes[i->opcode].unit_id;
		if (u == ISA_UNIT_UNI) {
			d |= KERNEL_UREGS;
		} else if (u == ISA_UNIT_BRU || u == ISA_UNIT_BCU || u == ISA_UNIT_VISA) {
			switch (i->optype) {
			case ISA_OPT_EXIT:
				break;
			case ISA_OPT_BRA:
			case ISA_OPT_BAR:
			case ISA_OPT_BAR_RED:
			case ISA_OPT_BAR_SCAN:
			case ISA_OPT_BAR_SYNCALL:
				d |= KERNEL_FLOW;
				break;
			default:
				d |= KERNEL_UNITS;
			}
		}
	}
	return d;
}

/* A slot's --profile counters: a row per warp of the kernel's code. */
static prof *slot_prof(const we_launch_ctx *L)
{
	return prof_new(L->warps_per_cta, (L->k->code_end - L->k->code_start) / WE_INST_SIZE, L->k->code_start);
}

static void slot_free(cta_slot *s)
{
	race_cta_free(s->race);
	s->race = NULL;
	prof_free(s->prof);
	s->prof = NULL;
}

/* Where buffer q of n CTAs starts in a batch's block, at[q]: the slots
 * first, then buffer_bytes' buffers, each on a 64-byte boundary (rows are
 * 128 bytes per warp: no vector load of a row crosses a cache line);
 * at[BUF_N] is the block's size. */
static void batch_bytes(const we_launch_ctx *L, uint32_t n, size_t at[BUF_N + 1])
{
	size_t bytes[BUF_N];
	buffer_bytes(L, n, bytes);
	at[0] = ((size_t)n * sizeof(cta_slot) + 63) / 64 * 64;
	for (unsigned q = 0; q < BUF_N; q++)
		at[q + 1] = at[q] + (bytes[q] + 63) / 64 * 64;
}

/* Batch b's block laid out for n slots: the slots, the warps and the
 * register file zeroed, the shared and local memory left as they are (a
 * CTA start zeroes its own, slot_memory_zero).  The zero rows (RZ reads)
 * stay zero from here on: nothing writes them (RZ writes go to the sink
 * rows, which nothing reads). */
static bool batch_layout(cta_batch *b, uint32_t n, const launch *lc)
{
	const we_launch_ctx *L = &lc->L;
	const uint32_t nw = L->warps_per_cta;
	size_t at[BUF_N + 1];
	batch_bytes(L, n, at);
	uint8_t *block = b->block;
	memset(block, 0, at[BUF_SHARED]);
	b->slot = (cta_slot *)(void *)block;
	b->warps = (we_warp *)(void *)(block + at[BUF_WARPS]);
	b->regs = (uint32_t *)(void *)(block + at[BUF_REGS]);
	b->shared = block + at[BUF_SHARED];
	b->local = block + at[BUF_LOCAL];
	b->n = n;
	b->fresh = 0;
	b->ran = 0;
	bool ok = true;
	const uint8_t leaves = kernel_leaves(L);
	for (uint32_t c = 0; c < n; c++) {
		cta_slot *s = &b->slot[c];
		bar_init(&s->cta.bars, nw);
		nbar_init(&s->cta.nbars, nw);
		s->leaves = leaves;
		s->rstride = n * nw * WE_WARP_SIZE;
		if ((L->memcheck && !(s->race = race_cta_new(L))) || (L->profile && !(s->prof = slot_prof(L))))
			ok = false;
		s->warps = b->warps + (size_t)c * nw;
		s->regs = b->regs + (size_t)c * nw * WE_WARP_SIZE;
		s->shared = b->shared + (size_t)c * L->shared_bytes;
		s->local = b->local + (size_t)c * L->local_bytes * WE_WARP_SIZE * nw;
	}
	return ok;
}

bool batch_alloc(cta_batch *b, uint32_t n, const launch *lc, unsigned k)
{
	/* one block, kept by the device from launch to launch (device.h
	 * dev_keep_take) */
	memset(b, 0, sizeof *b);
	size_t at[BUF_N + 1];
	batch_bytes(&lc->L, n, at);
	b->block = dev_keep_take(lc->L.dev, k, at[BUF_N], &b->cap);
	if (!b->block)
		return false;
	b->key = k;
	return batch_layout(b, n, lc);
}

bool batch_narrow(cta_batch *b, uint32_t n, const launch *lc)
{
	/* (the counts of the CTAs the slots ran so far, which slot_stats
	 * adds up at the launch's end: into the first slot) */
	slot_counts sum = { 0 };
	for (uint32_t k = 0; k < b->n; k++) {
		const slot_counts *c = &b->slot[k].counts;
		sum.ctas += c->ctas;
		sum.warp_insns += c->warp_insns;
		sum.thread_insns += c->thread_insns;
		sum.barriers += c->barriers;
		sum.straight += c->straight;
		slot_free(&b->slot[k]);
	}
	const bool ok = batch_layout(b, n, lc);
	b->slot[0].counts = sum;
	return ok;
}

void batch_free(cta_batch *b, const launch *lc)
{
	for (uint32_t k = 0; k < b->n; k++)
		slot_free(&b->slot[k]);
	if (b->block)
		dev_keep_give(lc->L.dev, b->key, b->block, b->cap);
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

/* Warp wi of slot s at its CTA's start: from nothing (warp_clear), or,
 * when the slot's last CTA can have changed only warp_clear_hot's fields
 * (s->primed), those alone. */
static inline __attribute__((always_inline)) void warp_start(cta_slot *s, const we_launch_ctx *L, uint32_t wi)
{
	we_warp *w = &s->warps[wi];
	if (s->primed) {
		warp_clear_hot(w, s->leaves & KERNEL_UREGS);
		if (s->leaves & KERNEL_FLOW)
			warp_clear_flow(w, L->k->code_start);
	} else {
		warp_clear(w);
		for (unsigned l = 0; l < 32; l++)
			w->rpc[l] = L->k->code_start;
		w->r = s->regs + (size_t)wi * WE_WARP_SIZE;
		w->nrows = L->nrows;
		w->rstride = s->rstride;
		w->cta = &s->cta;
		w->id = wi;
		w->bar_id = -1;
		w->nbar_id = -1;
		w->local = s->local + (size_t)wi * WE_WARP_SIZE * L->local_bytes;
		w->local_size = L->local_bytes;
	}
	const uint32_t n = L->threads_per_cta - wi * WE_WARP_SIZE;
	w->valid = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
	w->active = w->valid;
	w->active_pc = L->k->code_start;
	w->p[7] = 0xffffffffu;
	w->up = 0x80;
	cta_warp_state(&s->cta, w, WE_WS_READY);
}

/* CTA c is the grid's CTA id: its ids and its seeded schedule's state. */
static inline __attribute__((always_inline)) void cta_ids(we_cta *c, const we_launch_ctx *L, uint64_t id)
{
	c->linear_id = id;
	if (L->grid.y == 1 && L->grid.z == 1) {
		/* (a one-dimensional grid: no divisions) */
		c->ctaid[0] = (uint32_t)id;
		c->ctaid[1] = c->ctaid[2] = 0;
	} else {
		c->ctaid[0] = (uint32_t)(id % L->grid.x);
		c->ctaid[1] = (uint32_t)((id / L->grid.x) % L->grid.y);
		c->ctaid[2] = (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y));
	}
	c->rng = L->seed ^ (id * UINT64_C(0xd1b54a32d192ed03));
}

/* Slot s's shared and local memory as a CTA starts them: zero. */
static inline __attribute__((always_inline)) void slot_memory_zero(cta_slot *s, const we_launch_ctx *L)
{
	if (L->shared_bytes)
		memset(s->shared, 0, L->shared_bytes);
	if (L->local_bytes)
		memset(s->local, 0, (size_t)L->local_bytes * WE_WARP_SIZE * L->warps_per_cta);
}

/* (inline: batch_start starts a batch's CTAs in one loop) */
static inline __attribute__((always_inline)) void start(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync,
							 bool regs_clear)
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
	cta_ids(c, L, id);
	c->nwarps = L->warps_per_cta;
	c->warps = s->warps;
	c->shared = s->shared;
	cta_sync_start(c);
	slot_memory_zero(s, L);
	/* R0.. start at zero, those a thread may read before it writes them
	 * (we_kernel.zero_rows; the zero and sink rows after them need
	 * nothing, batch_alloc) */
	if (!regs_clear)
		cta_zero_rows(L, s->regs, s->rstride, (size_t)WE_WARP_SIZE * c->nwarps);
	for (uint32_t wi = 0; wi < c->nwarps; wi++)
		warp_start(s, L, wi);
	/* the next CTA of the slot starts its warps from this one's ends
	 * unless the kernel may leave more (a fault clears it: cta_finish) */
	s->primed = !(s->leaves & KERNEL_UNITS);
	c->race = s->race;
	if (c->race)
		race_cta_start(c);
	c->prof = s->prof;
}

void cta_start(cta_slot *s, const launch *lc, uint64_t id, cta_sync *sync, bool regs_clear)
{
	start(s, lc, id, sync, regs_clear);
}

void batch_start(cta_batch *b, const launch *lc, uint64_t id, uint32_t n)
{
	/* the registers of all the batch's CTAs at once */
	cta_zero_rows(&lc->L, b->regs, b->slot[0].rstride, b->slot[0].rstride);
	for (uint32_t k = 0; k < n; k++)
		start(&b->slot[k], lc, id + k, NULL, true);
	b->fresh = n;
	b->ran = 0;
}

/* batch_restart's warps that ran on after a tail's EXIT (b->ran): they
 * start as cta_start starts a warp, and their CTAs' barrier units, which
 * their exits changed, are reset.  (Not inline: most kernels have none,
 * and tiny ran 3% slower with this in batch_restart's loop.) */
static __attribute__((noinline)) void restart_ran(cta_batch *b, const we_launch_ctx *L)
{
	const uint32_t nw = L->warps_per_cta;
	for (uint32_t m = b->ran; m; m &= m - 1) {
		const uint32_t j = (uint32_t)__builtin_ctz(m);
		cta_slot *s = &b->slot[j / nw];
		if (s->cta.bars.exited) {
			bar_reset(&s->cta.bars, nw);
			s->cta.barriers_completed = 0;
		}
		warp_start(s, L, j % nw);
	}
	b->ran = 0;
}

void batch_restart(cta_batch *b, const launch *lc, uint64_t id, uint32_t n, unsigned resets)
{
	const we_launch_ctx *L = &lc->L;
	cta_zero_rows(L, b->regs, b->slot[0].rstride, b->slot[0].rstride);
	for (uint32_t k = 0; k < n; k++) {
		cta_slot *s = &b->slot[k];
		cta_ids(&s->cta, L, id + k);
		slot_memory_zero(s, L);
		if (resets & XS_RESET_BARS) {
			bar_reset(&s->cta.bars, s->cta.nwarps);
			s->cta.barriers_completed = 0;
		}
		/* (P0..P6: PT stays all ones) */
		for (uint32_t wi = 0; (resets & XS_RESET_PREDS) && wi < s->cta.nwarps; wi++)
			memset(s->warps[wi].p, 0, sizeof s->warps[wi].p - sizeof s->warps[wi].p[7]);
		for (uint32_t wi = 0; (resets & XS_RESET_BREGS) && wi < s->cta.nwarps; wi++)
			memset(s->warps[wi].breg, 0, sizeof s->warps[wi].breg);
	}
	if (b->ran)
		restart_ran(b, L);
}

/* A faulted CTA's report: the launch's if its CTA is the lowest that
 * faulted so far; the launch stops. */
static void finish_faulted(cta_slot *s, launch *lc)
{
	const we_status st = cta_status(&s->cta);
	/* (the fault may have stopped a warp anywhere: the next CTA starts
	 * from nothing) */
	s->primed = false;
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

static inline __attribute__((always_inline)) void finish(cta_slot *s, launch *lc)
{
	if (lc->L.check)
		check_cta_end(&s->cta);
	if (s->cta.race)
		race_cta_end(&s->cta);
	for (uint32_t wi = 0; wi < s->cta.nwarps; wi++) {
		s->counts.warp_insns += s->warps[wi].insns;
		s->counts.thread_insns += s->warps[wi].thread_insns;
	}
	s->counts.barriers += s->cta.barriers_completed;
	s->counts.ctas++;
	if (s->cta.faulted)
		finish_faulted(s, lc);
}

void cta_finish(cta_slot *s, launch *lc)
{
	finish(s, lc);
}

void batch_finish(cta_batch *b, launch *lc, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		finish(&b->slot[k], lc);
}

void batch_retire(cta_batch *b, uint32_t n, const xstraight_count *c)
{
	/* (into one slot: the others' lines stay untouched) */
	const uint64_t warps = (uint64_t)n * b->slot[0].cta.nwarps;
	const uint64_t ended = warps - (uint64_t)__builtin_popcount(c->ran);
	/* the blocks' threads, and those of the steps every thread ran */
	uint64_t threads = ended * c->full * WE_WARP_SIZE, insns = ended * c->insns;
	for (uint64_t j = 0; j < warps; j++) {
		threads += b->warps[j].thread_insns;
		b->warps[j].thread_insns = 0;
	}
	for (uint32_t m = c->ran; m; m &= m - 1) {
		we_warp *w = &b->warps[__builtin_ctz(m)];
		insns += w->insns;
		w->insns = 0;
	}
	b->ran = c->ran;
	cta_slot *s = &b->slot[0];
	s->counts.thread_insns += threads;
	s->counts.barriers += n * c->bars;
	s->counts.warp_insns += insns;
	s->counts.ctas += n;
	s->counts.straight += n;
}

void slot_stats(launch *lc, const cta_slot *s)
{
	lc->stats.ctas += s->counts.ctas;
	lc->stats.warp_insns += s->counts.warp_insns;
	lc->stats.thread_insns += s->counts.thread_insns;
	lc->stats.barriers += s->counts.barriers;
	lc->stats.jit_straight_ctas += s->counts.straight;
	if (lc->prof && s->prof)
		prof_add(lc->prof, s->prof);
}
