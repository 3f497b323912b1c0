/* engine.c — the launch driver: host worker threads take CTAs from a
 * shared counter; each runs its CTA's warps round-robin, switching at
 * barriers, yields, sleeps and exits, until every warp has exited.
 *
 * (The thread-per-warp engine of the user's design and the pinned
 * warp-scheduler engine are separate modules built on the same hooks.)
 */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "bru.h"
#include "device.h"
#include "module.h"

#define QUANTUM 4096u            /* warp-instructions per turn          */
#define WE_MAX_SHARED (227u * 1024u)
#define WE_MAX_LOCAL (512u * 1024u)

/* ------------------------------------------------------------------ */
/* barrier hooks (single host thread per CTA: no lock needed)          */

static void wake_warps(we_cta *c, uint32_t wake)
{
	for (uint32_t m = wake; m; m &= m - 1) {
		we_warp *w = &c->warps[__builtin_ctz(m)];
		if (w->state == WE_WS_BLOCKED) {
			w->state = WE_WS_READY;
			w->bar_id = -1;
		}
	}
}

void eng_barrier(xctx *x, const bar_arrival *a)
{
	we_cta *c = x->cta;
	uint32_t wake, red_done, red_word;
	bool completed;
	char msg[256];
	bar_result r = bar_arrive(&c->bars, x->w->id, a, &wake, &red_done, &red_word, &completed,
				  msg, sizeof msg);
	if (r == BAR_FAULT) {
		xfault(x, WE_FAULT_BARRIER, x->pmask, 0, "%s", msg);
		return;
	}
	if (completed) {
		c->barriers_completed++;
		for (uint32_t m = red_done; m; m &= m - 1)
			c->warps[__builtin_ctz(m)].warp_bar_state = red_word;
		wake_warps(c, wake);
	}
	if (r == BAR_BLOCKED) {
		x->w->state = WE_WS_BLOCKED;
		x->w->bar_id = (int8_t)a->id;
		x->stop = true;
		x->why = WE_STOP_BLOCKED;
	}
}

uint32_t eng_bar_get(xctx *x, unsigned id)
{
	return bar_state_word(&x->cta->bars.b[id & 15u]);
}

void eng_bar_set(xctx *x, unsigned id, uint32_t word)
{
	bar_set_state_word(&x->cta->bars.b[id & 15u], word);
}

/* ------------------------------------------------------------------ */
/* reports                                                              */

static void lanes_text(uint32_t lanes, char *buf, size_t n)
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

static void insn_text(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	if (pc % WE_INST_SIZE || idx >= m->ninsns) {
		snprintf(buf, n, "<no instruction>");
		return;
	}
	dis_insn(&m->insn[idx], pc, buf, n);
}

static void src_text(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	buf[0] = 0;
	if (m->line && idx < m->ninsns && m->line[idx])
		snprintf(buf, n, " (%s:%u)", m->source ? m->source : "<module>", m->line[idx]);
}

static char *fault_report(const we_cta *c)
{
	const we_launch_ctx *L = c->L;
	const we_fault *f = &c->fault;
	char lanes[160], ins[256], src[300];
	lanes_text(f->lanes, lanes, sizeof lanes);
	insn_text(L->mod, f->pc, ins, sizeof ins);
	src_text(L->mod, f->pc, src, sizeof src);
	size_t cap = 4096 + (size_t)c->nwarps * 512;
	char *r = malloc(cap);
	if (!r)
		return NULL;
	size_t len = (size_t)snprintf(r, cap,
		"%s in kernel %s: %s: %s\n  CTA (%u,%u,%u) warp %u lanes %s PC 0x%04llx: %s%s\n",
		f->kind == WE_FAULT_DEADLOCK ? "deadlock" : "runtime exception",
		L->k->name, we_fault_name(f->kind), f->msg, c->ctaid[0], c->ctaid[1], c->ctaid[2], f->warp, lanes,
		(unsigned long long)f->pc, ins, src);
	if (f->kind != WE_FAULT_DEADLOCK)
		return r;
	/* SPEC-NOTES 11: warp by warp, then the barriers */
	for (uint32_t wi = 0; wi < c->nwarps && len + 600 < cap; wi++) {
		const we_warp *w = &c->warps[wi];
		const char *st = w->state == WE_WS_EXITED ? "exited" : w->state == WE_WS_BLOCKED
			? "blocked" : w->state == WE_WS_SLEEPING ? "sleeping" : "ready";
		uint64_t pc = w->active_pc >= WE_INST_SIZE ? w->active_pc - WE_INST_SIZE : 0;
		if (w->state == WE_WS_EXITED) {
			len += (size_t)snprintf(r + len, cap - len, "  warp %u: exited\n", wi);
			continue;
		}
		insn_text(L->mod, pc, ins, sizeof ins);
		len += (size_t)snprintf(r + len, cap - len,
			"  warp %u: %s", wi, st);
		if (w->state == WE_WS_BLOCKED && w->bar_id >= 0) {
			const bar_state *b = &c->bars.b[w->bar_id];
			len += (size_t)snprintf(r + len, cap - len,
				" on barrier %d (count %u, expected %u%s)", w->bar_id, b->count,
				b->expected ? b->expected : 32u * c->nwarps,
				b->expected ? "" : " = all live warps");
		}
		len += (size_t)snprintf(r + len, cap - len,
			" at PC 0x%04llx: %s  active 0x%08x valid 0x%08x\n", (unsigned long long)pc, ins,
			w->active, w->valid);
	}
	len += (size_t)snprintf(r + len, cap - len, "  exited warps: %u of %u\n",
				(unsigned)__builtin_popcount(c->bars.exited), c->nwarps);
	return r;
}

/* ------------------------------------------------------------------ */
/* running one CTA                                                      */

typedef struct worker {
	struct launch *lc;
	we_cta cta;
	we_warp warps[32];
	uint32_t *regs;
	uint8_t *shared;
	uint8_t *local;
	uint64_t ctas, warp_insns, thread_insns, barriers;
	pthread_t tid;
	bool started;
} worker;

typedef struct launch {
	we_launch_ctx L;
	uint64_t nctas;
	_Atomic uint64_t next;
	_Atomic bool stop;
	pthread_mutex_t lock;        /* guards report/status */
	we_status status;
	char *report;
	uint64_t report_cta;
	unsigned nworkers;
	worker *workers;
} launch;

static void cta_init(worker *wk, uint64_t id)
{
	launch *lc = wk->lc;
	const we_launch_ctx *L = &lc->L;
	we_cta *c = &wk->cta;
	memset(c, 0, sizeof *c);
	c->L = L;
	c->linear_id = id;
	c->ctaid[0] = (uint32_t)(id % L->grid.x);
	c->ctaid[1] = (uint32_t)((id / L->grid.x) % L->grid.y);
	c->ctaid[2] = (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y));
	c->nwarps = L->warps_per_cta;
	c->warps = wk->warps;
	c->shared = wk->shared;
	bar_init(&c->bars, c->nwarps);
	if (L->shared_bytes)
		memset(wk->shared, 0, L->shared_bytes);
	size_t rowbytes = (size_t)L->nrows * WE_WARP_SIZE * sizeof(uint32_t);
	memset(wk->regs, 0, rowbytes * c->nwarps);
	if (L->local_bytes)
		memset(wk->local, 0, (size_t)L->local_bytes * WE_WARP_SIZE * c->nwarps);
	for (uint32_t wi = 0; wi < c->nwarps; wi++) {
		we_warp *w = &wk->warps[wi];
		memset(w, 0, offsetof(we_warp, r));
		uint32_t first = wi * WE_WARP_SIZE;
		uint32_t n = L->threads_per_cta - first;
		w->valid = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
		w->active = w->valid;
		w->active_pc = L->k->code_start;
		for (unsigned l = 0; l < 32; l++)
			w->rpc[l] = w->active_pc;
		w->r = wk->regs + (size_t)wi * L->nrows * WE_WARP_SIZE;
		w->nrows = L->nrows;
		memset(w->p, 0, sizeof w->p);
		w->p[7] = 0xffffffffu;
		memset(w->ur, 0, sizeof w->ur);
		w->up = 0x80;
		w->state = WE_WS_READY;
		w->id = wi;
		w->wake_time = 0;
		w->insns = w->thread_insns = 0;
		w->bar_id = -1;
		w->warp_bar_state = 0;
		w->local = wk->local + (size_t)wi * WE_WARP_SIZE * L->local_bytes;
		w->local_size = L->local_bytes;
	}
}

static void set_fault(we_cta *c, we_warp *w, we_fault_kind kind, uint32_t lanes, const char *msg)
{
	if (c->faulted)
		return;
	c->faulted = true;
	c->fault.kind = kind;
	c->fault.warp = w ? w->id : 0;
	c->fault.lanes = lanes;
	c->fault.pc = w ? (w->active_pc >= WE_INST_SIZE ? w->active_pc - WE_INST_SIZE : 0) : 0;
	snprintf(c->fault.msg, sizeof c->fault.msg, "%s", msg);
}

/* Returns WE_OK, or the status of the CTA's fault. */
static we_status cta_run(worker *wk)
{
	we_cta *c = &wk->cta;
	const we_launch_ctx *L = c->L;
	uint32_t live = c->nwarps;
	while (live) {
		bool ran = false;
		for (uint32_t wi = 0; wi < c->nwarps; wi++) {
			we_warp *w = &c->warps[wi];
			if (w->state != WE_WS_READY)
				continue;
			ran = true;
			uint64_t budget = QUANTUM;
			if (L->max_instructions) {
				if (w->insns >= L->max_instructions) {
					char m[160];
					snprintf(m, sizeof m, "warp %u executed %llu instructions (--max-instructions)",
						 wi, (unsigned long long)w->insns);
					set_fault(c, w, WE_FAULT_WATCHDOG, w->active, m);
					return WE_ERR_TIMEOUT;
				}
				if (L->max_instructions - w->insns < budget)
					budget = L->max_instructions - w->insns;
			}
			we_stop s = exec_run(c, w, budget);
			switch (s) {
			case WE_STOP_BUDGET:
			case WE_STOP_YIELD:
			case WE_STOP_BLOCKED:
				break;
			case WE_STOP_SLEEP:
				/* emulated time (SPEC-NOTES 10): the warp gives its turn
				 * away and its clock jumps to the timer, which clears
				 * SleepMask; it runs again after every other ready warp */
				if (w->clock < w->wake_time)
					w->clock = w->wake_time;
				bru_timer_expired(w, w->clock);
				break;
			case WE_STOP_EXITED: {
				w->state = WE_WS_EXITED;
				live--;
				unsigned nc;
				uint32_t red_done, words[32];
				uint32_t wake = bar_warp_exited(&c->bars, wi, &nc, &red_done, words);
				c->barriers_completed += nc;
				for (uint32_t m = red_done; m; m &= m - 1)
					c->warps[__builtin_ctz(m)].warp_bar_state = words[__builtin_ctz(m)];
				wake_warps(c, wake);
				break;
			}
			case WE_STOP_FAULT:
				return c->fault.kind == WE_FAULT_WATCHDOG ? WE_ERR_TIMEOUT : WE_ERR_EXCEPTION;
			}
		}
		if (!live || ran)
			continue;
		/* nothing ready and nothing sleeping can change that: deadlock */
		we_warp *first = NULL;
		for (uint32_t wi = 0; wi < c->nwarps && !first; wi++)
			if (c->warps[wi].state == WE_WS_BLOCKED)
				first = &c->warps[wi];
		set_fault(c, first, WE_FAULT_DEADLOCK, first ? first->active : 0,
			  "every live warp of the CTA is blocked on a barrier that cannot complete");
		return WE_ERR_DEADLOCK;
	}
	return WE_OK;
}

static void *worker_main(void *arg)
{
	worker *wk = arg;
	launch *lc = wk->lc;
	for (;;) {
		if (atomic_load_explicit(&lc->stop, memory_order_acquire))
			break;
		uint64_t id = atomic_fetch_add_explicit(&lc->next, 1, memory_order_relaxed);
		if (id >= lc->nctas)
			break;
		cta_init(wk, id);
		we_status st = cta_run(wk);
		for (uint32_t wi = 0; wi < wk->cta.nwarps; wi++) {
			wk->warp_insns += wk->warps[wi].insns;
			wk->thread_insns += wk->warps[wi].thread_insns;
		}
		wk->barriers += wk->cta.barriers_completed;
		wk->ctas++;
		if (st != WE_OK) {
			char *rep = fault_report(&wk->cta);
			int e = pthread_mutex_lock(&lc->lock);
			if (e == 0) {
				/* the lowest CTA id wins so that the report is reproducible:
				 * every lower CTA was handed out before this one and runs
				 * to its end before its worker looks at `stop` */
				if (lc->status == WE_OK || wk->cta.linear_id < lc->report_cta) {
					free(lc->report);
					lc->status = st;
					lc->report = rep;
					lc->report_cta = wk->cta.linear_id;
					rep = NULL;
				}
				e = pthread_mutex_unlock(&lc->lock);
			}
			free(rep);
			atomic_store_explicit(&lc->stop, true, memory_order_release);
			break;
		}
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static we_status check_launch(struct we_device *dev, const we_kernel *k, const we_launch_config *cfg,
			      size_t params_size)
{
	const we_dim3 g = cfg->grid, b = cfg->block;
	if (!g.x || !g.y || !g.z || g.x > 0x7fffffffu || g.y > 65535u || g.z > 65535u) {
		dev_error(dev, "grid (%u,%u,%u) is outside the limits 1..2147483647 x 1..65535 x 1..65535",
			  g.x, g.y, g.z);
		return WE_ERR_LIMIT;
	}
	if (!b.x || !b.y || !b.z || b.x > 1024u || b.y > 1024u || b.z > 64u ||
	    (uint64_t)b.x * b.y * b.z > 1024u) {
		dev_error(dev, "block (%u,%u,%u) is outside the limits (x,y <= 1024, z <= 64, x*y*z <= 1024)",
			  b.x, b.y, b.z);
		return WE_ERR_LIMIT;
	}
	if (params_size != k->info.param_bytes) {
		dev_error(dev, "kernel %s takes %u bytes of parameters, %zu given", k->name,
			  k->info.param_bytes, params_size);
		return WE_ERR_INVALID;
	}
	uint64_t shared = (uint64_t)k->shared_bytes + cfg->dynamic_shared;
	if (shared > WE_MAX_SHARED) {
		dev_error(dev, "kernel %s needs %llu bytes of shared memory; the limit is %u",
			  k->name, (unsigned long long)shared, WE_MAX_SHARED);
		return WE_ERR_LIMIT;
	}
	if (k->local_bytes > WE_MAX_LOCAL) {
		dev_error(dev, "kernel %s needs %u bytes of local memory per thread; the limit is %u",
			  k->name, k->local_bytes, WE_MAX_LOCAL);
		return WE_ERR_LIMIT;
	}
	return WE_OK;
}

we_status engine_launch(struct we_device *dev, const struct we_module *m, const we_kernel *k,
			const we_launch_config *cfg, const void *params, size_t params_size,
			we_launch_stats *stats, char **report)
{
	*report = NULL;
	we_status st = check_launch(dev, k, cfg, params_size);
	if (st != WE_OK)
		return st;
	launch *lc = calloc(1, sizeof *lc);
	if (!lc) {
		dev_error(dev, "out of memory");
		return WE_ERR_NOMEM;
	}
	we_launch_ctx *L = &lc->L;
	L->dev = dev;
	L->mod = m;
	L->k = k;
	L->grid = cfg->grid;
	L->block = cfg->block;
	L->threads_per_cta = cfg->block.x * cfg->block.y * cfg->block.z;
	L->warps_per_cta = (L->threads_per_cta + WE_WARP_SIZE - 1) / WE_WARP_SIZE;
	L->shared_bytes = k->shared_bytes + cfg->dynamic_shared;
	L->local_bytes = k->local_bytes;
	L->nrows = k->nregs + 8u;
	if (params_size)
		memcpy(L->params, params, params_size);
	L->param_bytes = (uint32_t)params_size;
	L->max_instructions = cfg->max_instructions;
	lc->nctas = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
	atomic_init(&lc->next, 0);
	atomic_init(&lc->stop, false);
	lc->status = WE_OK;
	unsigned nw = cfg->threads ? cfg->threads : dev->threads;
	if (nw < 1)
		nw = 1;
	if (nw > lc->nctas)
		nw = (unsigned)lc->nctas;
	int e = pthread_mutex_init(&lc->lock, NULL);
	if (e) {
		free(lc);
		dev_error(dev, "pthread_mutex_init: %s", strerror(e));
		return WE_ERR_INTERNAL;
	}
	lc->workers = calloc(nw, sizeof(worker));
	st = lc->workers ? WE_OK : WE_ERR_NOMEM;
	size_t regbytes = (size_t)L->nrows * WE_WARP_SIZE * sizeof(uint32_t) * L->warps_per_cta;
	size_t localbytes = (size_t)L->local_bytes * WE_WARP_SIZE * L->warps_per_cta;
	for (unsigned i = 0; st == WE_OK && i < nw; i++) {
		worker *wk = &lc->workers[i];
		wk->lc = lc;
		wk->regs = malloc(regbytes);
		wk->shared = malloc(L->shared_bytes ? L->shared_bytes : 1);
		wk->local = malloc(localbytes ? localbytes : 1);
		if (!wk->regs || !wk->shared || !wk->local)
			st = WE_ERR_NOMEM;
	}
	lc->nworkers = nw;
	double t0 = now_s();
	for (unsigned i = 0; st == WE_OK && i < nw; i++) {
		e = pthread_create(&lc->workers[i].tid, NULL, worker_main, &lc->workers[i]);
		if (e) {
			dev_error(dev, "pthread_create: %s", strerror(e));
			st = WE_ERR_INTERNAL;
			atomic_store_explicit(&lc->stop, true, memory_order_release);
			break;
		}
		lc->workers[i].started = true;
	}
	we_launch_stats s = { 0 };
	for (unsigned i = 0; lc->workers && i < nw; i++) {
		worker *wk = &lc->workers[i];
		if (wk->started) {
			e = pthread_join(wk->tid, NULL);
			if (e && st == WE_OK) {
				dev_error(dev, "pthread_join: %s", strerror(e));
				st = WE_ERR_INTERNAL;
			}
		}
		s.ctas += wk->ctas;
		s.warp_insns += wk->warp_insns;
		s.thread_insns += wk->thread_insns;
		s.barriers += wk->barriers;
		free(wk->regs);
		free(wk->shared);
		free(wk->local);
	}
	s.seconds = now_s() - t0;
	if (st == WE_ERR_NOMEM)
		dev_error(dev, "out of memory for %u worker(s)", nw);
	if (st == WE_OK && lc->status != WE_OK) {
		st = lc->status;
		*report = lc->report;
		lc->report = NULL;
	}
	free(lc->report);
	free(lc->workers);
	e = pthread_mutex_destroy(&lc->lock);
	if (e && st == WE_OK) {
		dev_error(dev, "pthread_mutex_destroy: %s", strerror(e));
		st = WE_ERR_INTERNAL;
	}
	free(lc);
	if (stats)
		*stats = s;
	return st;
}
