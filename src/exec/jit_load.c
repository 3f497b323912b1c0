/* jit_load.c — finding and loading the compiled tier's module,
 * warpemu-jit.so (jit.h), with dlopen, and the cache of each module's
 * compiled kernels.
 *
 * Where: beside the library that holds this code (the build tree's
 * src/.libs, where libtool puts both), in its warpemu/ folder (installed:
 * $(libdir)/warpemu, $(pkglibdir)), then the build tree's and the
 * installation's paths configure gave (a program linked with the library
 * statically, as the tests are).  RTLD_NODELETE: LLVM stays loaded once
 * loaded, so that the next launch does not map it again, and its static
 * state is never torn down under another launch.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/exec.h"
#include "exec/jit.h"

#define PLUGIN_NAME "warpemu-jit.so"

static void *open_at(const char *dir, size_t n, const char *rel)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%.*s%s", (int)n, dir, rel) >= sizeof path)
		return NULL;
	return dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}

const xjit_plugin *xjit_plugin_open(void **handle, char *err, size_t errlen)
{
	void *h = NULL;
	Dl_info info;
	/* (an absolute path only: never a module of the working directory) */
	if (dladdr((const void *)&xjit_plugin_open, &info) && info.dli_fname && info.dli_fname[0] == '/') {
		const char *slash = strrchr(info.dli_fname, '/');
		const size_t n = slash ? (size_t)(slash - info.dli_fname) + 1 : 0;
		h = open_at(info.dli_fname, n, PLUGIN_NAME);
		if (!h)
			h = open_at(info.dli_fname, n, "warpemu/" PLUGIN_NAME);
	}
	if (!h)
		h = open_at(WE_JIT_BUILD_DIR, strlen(WE_JIT_BUILD_DIR), "/" PLUGIN_NAME);
	if (!h)
		h = open_at(WE_JIT_INSTALL_DIR, strlen(WE_JIT_INSTALL_DIR), "/" PLUGIN_NAME);
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "cannot load %s (%s)", PLUGIN_NAME, e ? e : "not found");
		return NULL;
	}
	const xjit_plugin *p = dlsym(h, XJIT_PLUGIN_SYMBOL);
	if (!p || p->abi != XJIT_ABI) {
		snprintf(err, errlen, "%s is of another build of warpemu", PLUGIN_NAME);
		dlclose(h);
		return NULL;
	}
	*handle = h;
	return p;
}

void xjit_plugin_close(void *handle)
{
	if (handle)
		(void)dlclose(handle); /* (NODELETE: nothing is unloaded) */
}

/* ---- the cache of a module's compiled kernels (jit.h) ------------------ */

typedef struct cache_entry {
	const we_kernel *k;
	uint32_t param_bytes; /* (what jit.c's opd_ok allowed depends on it) */
	xjit *j;
} cache_entry;

struct xjit_cache {
	pthread_mutex_t lock;
	cache_entry *e;
	uint32_t n, cap;
	const xjit_plugin *plugin; /* loaded by the first compile */
	void *handle;
	double last_seconds;       /* the last compile's time, 0: none yet */
};

xjit_cache *xjit_cache_new(void)
{
	xjit_cache *c = calloc(1, sizeof *c);
	if (c && pthread_mutex_init(&c->lock, NULL)) {
		free(c);
		return NULL;
	}
	return c;
}

void xjit_cache_free(xjit_cache *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->n; i++)
		c->plugin->free(c->e[i].j);
	free(c->e);
	xjit_plugin_close(c->handle);
	(void)pthread_mutex_destroy(&c->lock); /* (no launch holds it now) */
	free(c);
}

static void cache_lock(xjit_cache *c)
{
	if (pthread_mutex_lock(&c->lock))
		abort(); /* EINVAL/EDEADLK: a broken invariant */
}

static void cache_unlock(xjit_cache *c)
{
	if (pthread_mutex_unlock(&c->lock))
		abort();
}

/* L's kernel's compilation, compiled now and added to c (locked). */
static const xjit *cache_compile(xjit_cache *c, const we_launch_ctx *L, double *seconds, char *err,
				 size_t errlen)
{
	struct timespec t0, t1;
	if (clock_gettime(CLOCK_MONOTONIC, &t0))
		t0 = (struct timespec){ 0 };
	if (!c->plugin && !(c->plugin = xjit_plugin_open(&c->handle, err, errlen)))
		return NULL;
	if (c->n == c->cap) {
		const uint32_t cap = c->cap ? 2 * c->cap : 4;
		cache_entry *e = realloc(c->e, cap * sizeof *e);
		if (!e) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		c->e = e;
		c->cap = cap;
	}
	/* a block of one instruction costs a call, as its handler does */
	xjit *j = c->plugin->compile(L, 2, err, errlen);
	if (!j)
		return NULL;
	if (clock_gettime(CLOCK_MONOTONIC, &t1))
		t1 = t0;
	/* (loading LLVM, the first time, is part of the cost) */
	j->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	c->e[c->n++] = (cache_entry){ .k = L->k, .param_bytes = L->param_bytes, .j = j };
	c->last_seconds = j->seconds;
	*seconds = j->seconds;
	return j;
}

const xjit *xjit_cache_get(xjit_cache *c, const we_launch_ctx *L, bool compile, double *seconds,
			   bool *failed, char *err, size_t errlen)
{
	*seconds = 0;
	*failed = false;
	const xjit *j = NULL;
	cache_lock(c);
	for (uint32_t i = 0; i < c->n && !j; i++)
		if (c->e[i].k == L->k && c->e[i].param_bytes == L->param_bytes)
			j = c->e[i].j;
	if (!j && compile) {
		j = cache_compile(c, L, seconds, err, errlen);
		*failed = !j;
	}
	cache_unlock(c);
	return j;
}

double xjit_cache_estimate(xjit_cache *c)
{
	cache_lock(c);
	const double s = c->last_seconds;
	cache_unlock(c);
	return s > 0 ? s : XJIT_COMPILE_GUESS;
}
