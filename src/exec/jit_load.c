/* jit_load.c — finding and loading the compiled tier's module,
 * warpemu-jit.so (jit.h), with dlopen, and the cache of each module's
 * compiled kernels, which compiles them, or loads them from the disk
 * cache (jit_disk.h) and writes them there.
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
#include <unistd.h>

#include "base/strbuf.h"
#include "exec/exec.h"
#include "exec/jit.h"
#include "exec/jit_disk.h"

#define PLUGIN_NAME "warpemu-jit.so"

/* dir[0..n) rel, if that file exists, in path */
static bool found_at(char *path, size_t len, const char *dir, size_t n, const char *rel)
{
	if ((size_t)snprintf(path, len, "%.*s%s", (int)n, dir, rel) >= len)
		return false;
	return !access(path, R_OK);
}

/* Where the module is, in path; false when nowhere. */
static bool plugin_find(char *path, size_t len)
{
	Dl_info info;
	/* (an absolute path only: never a module of the working directory) */
	if (dladdr((const void *)&plugin_find, &info) && info.dli_fname && info.dli_fname[0] == '/') {
		const char *slash = strrchr(info.dli_fname, '/');
		const size_t n = slash ? (size_t)(slash - info.dli_fname) + 1 : 0;
		if (found_at(path, len, info.dli_fname, n, PLUGIN_NAME) ||
		    found_at(path, len, info.dli_fname, n, "warpemu/" PLUGIN_NAME))
			return true;
	}
	return found_at(path, len, WE_JIT_BUILD_DIR, strlen(WE_JIT_BUILD_DIR), "/" PLUGIN_NAME) ||
	       found_at(path, len, WE_JIT_INSTALL_DIR, strlen(WE_JIT_INSTALL_DIR), "/" PLUGIN_NAME);
}

/* The hash of the module's contents (the disk cache's key: jit_disk.h),
 * 0 when it cannot be read. */
static uint64_t plugin_id(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			uint8_t *b = realloc(buf, cap = cap ? 2 * cap : 1u << 18);
			if (!b)
				break;
			buf = b;
		}
		const size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	const bool ok = !ferror(f) && feof(f);
	(void)fclose(f); /* (read only) */
	const uint64_t id = ok ? xjit_hash(buf, n, 4) | 1u : 0;
	free(buf);
	return id;
}

/* The module at path, or NULL with a message in err.  RTLD_NODELETE:
 * see above. */
static const xjit_plugin *plugin_open(const char *path, void **handle, char *err, size_t errlen)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
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

static void plugin_close(void *handle)
{
	if (handle)
		(void)dlclose(handle); /* (NODELETE: nothing is unloaded) */
}

/* ---- the cache of a module's compiled kernels (jit.h) ------------------ */

typedef struct cache_entry {
	const we_kernel *k;
	uint32_t param_bytes; /* (what jit.c's opd_ok allowed depends on it) */
	xjit *j;              /* NULL: neither compiled nor loaded yet      */
	bool none;            /* compiled or loaded: the kernel has no block */
	xjit_key key;         /* its disk cache key (material NULL: not yet) */
	const char *disk;     /* where j came from (XJIT_DISK_*)            */
	char note[XJIT_NOTE];
} cache_entry;

struct xjit_cache {
	pthread_mutex_t lock;
	cache_entry **e;
	uint32_t n, cap;
	const xjit_plugin *plugin; /* loaded by the first compile or load */
	void *handle;
	bool searched;             /* the module's path and id are known  */
	char path[4096];           /* where it is, "" when nowhere        */
	uint64_t id;               /* the hash of its contents, 0: none   */
	double last_seconds;       /* the last compile's time, 0: none yet */
	double last_load;          /* the last load's time, 0: none yet   */
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
	for (uint32_t i = 0; i < c->n; i++) {
		if (c->e[i]->j)
			c->plugin->free(c->e[i]->j);
		xjit_key_free(&c->e[i]->key);
		free(c->e[i]);
	}
	free(c->e);
	plugin_close(c->handle);
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

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	if (clock_gettime(CLOCK_MONOTONIC, &t1))
		t1 = *t0;
	return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* L's kernel's entry (locked): found, or added; NULL when out of
 * memory. */
static cache_entry *entry_of(xjit_cache *c, const we_launch_ctx *L)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->e[i]->k == L->k && c->e[i]->param_bytes == L->param_bytes)
			return c->e[i];
	if (c->n == c->cap) {
		const uint32_t cap = c->cap ? 2 * c->cap : 4;
		cache_entry **e = realloc(c->e, cap * sizeof *e);
		if (!e)
			return NULL;
		c->e = e;
		c->cap = cap;
	}
	cache_entry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	*e = (cache_entry){ .k = L->k, .param_bytes = L->param_bytes, .disk = XJIT_DISK_OFF };
	c->e[c->n++] = e;
	return e;
}

/* Where the module is and its id (locked), found once. */
static void cache_search(xjit_cache *c)
{
	if (c->searched)
		return;
	c->searched = true;
	if (plugin_find(c->path, sizeof c->path))
		c->id = plugin_id(c->path);
	else
		c->path[0] = 0;
}

/* The entry's disk cache key (locked), computed once; false when the
 * module cannot be found or read, or out of memory (note). */
static bool entry_key(xjit_cache *c, cache_entry *e, const we_launch_ctx *L, char *note, size_t notelen)
{
	cache_search(c);
	if (!c->id) {
		snprintf(note, notelen, "cannot read %s", PLUGIN_NAME);
		return false;
	}
	if (!e->key.material && !xjit_disk_key(L, c->id, &e->key)) {
		snprintf(note, notelen, "out of memory for its key");
		return false;
	}
	return true;
}

/* The module, loaded once (locked); false with a message in err. */
static bool cache_plugin(xjit_cache *c, char *err, size_t errlen)
{
	if (c->plugin)
		return true;
	cache_search(c);
	if (!c->path[0]) {
		snprintf(err, errlen, "cannot load %s (not found)", PLUGIN_NAME);
		return false;
	}
	return (c->plugin = plugin_open(c->path, &c->handle, err, errlen)) != NULL;
}

/* The code of a kernel without a block (nothing for the module to
 * free: the kernel's entry knows it has none). */
static const xjit xjit_none = { .at = NULL };

static bool entry_known(const cache_entry *e)
{
	return e->j || e->none;
}

/* The entry's code, and what a launch reports of it (its origin). */
static const xjit *use_entry(const cache_entry *e, xjit_use *u)
{
	u->disk = e->disk;
	snprintf(u->note, sizeof u->note, "%s", e->note);
	if (e->key.material && strcmp(e->disk, XJIT_DISK_OFF))
		snprintf(u->key, sizeof u->key, "%s", e->key.name);
	return e->none ? &xjit_none : e->j;
}

const xjit *xjit_cache_find(xjit_cache *c, const we_launch_ctx *L, xjit_use *u)
{
	u->disk = XJIT_DISK_OFF;
	u->entry = u->writable = false;
	cache_lock(c);
	cache_entry *e = entry_of(c, L);
	const xjit *j = NULL;
	if (!e) {
		snprintf(u->note, sizeof u->note, "out of memory");
	} else if (entry_known(e)) {
		j = use_entry(e, u);
	} else if (u->dir && entry_key(c, e, L, u->note, sizeof u->note)) {
		snprintf(u->key, sizeof u->key, "%s", e->key.name);
		u->entry = xjit_disk_probe(u->dir, &e->key);
		u->disk = u->entry ? XJIT_DISK_FOUND : XJIT_DISK_MISS;
		u->writable = xjit_disk_writable(u->dir);
	}
	cache_unlock(c);
	return j;
}

const xjit *xjit_cache_load(xjit_cache *c, const we_launch_ctx *L, xjit_use *u)
{
	struct timespec t0;
	if (clock_gettime(CLOCK_MONOTONIC, &t0))
		t0 = (struct timespec){ 0 };
	cache_lock(c);
	cache_entry *e = entry_of(c, L);
	const xjit *j = NULL;
	xjit_image img;
	const uint32_t ninsns = (L->k->code_end - L->k->code_start) / WE_INST_SIZE;
	if (!e) {
		snprintf(u->note, sizeof u->note, "out of memory");
	} else if (entry_known(e)) {
		j = use_entry(e, u);
	} else if (u->dir && entry_key(c, e, L, u->note, sizeof u->note) &&
		   xjit_disk_read(u->dir, &e->key, ninsns, &img, u->note, sizeof u->note)) {
		/* (loading LLVM, the first time, is part of the cost; a kernel
		 * without a block needs none) */
		xjit *l = NULL;
		e->none = !img.nblocks;
		if (!e->none && cache_plugin(c, u->err, sizeof u->err))
			l = c->plugin->load(L, &img, u->err, sizeof u->err);
		xjit_image_free(&img);
		if (l || e->none) {
			e->j = l;
			e->disk = XJIT_DISK_LOADED;
			e->note[0] = 0;
			u->load_seconds = seconds_since(&t0);
			if (l)
				c->last_load = u->load_seconds;
			j = use_entry(e, u);
		} else {
			/* (an entry for another CPU of the same CPUID words, or
			 * LLVM failing: the compile that may follow overwrites it) */
			strbuf sb = sb_fixed(u->note, sizeof u->note);
			sb_printf(&sb, "entry %s/%s.wjit not loaded: %s", u->dir, e->key.name, u->err);
			u->err[0] = 0;
		}
	}
	if (!j && u->dir)
		u->disk = XJIT_DISK_MISS;
	cache_unlock(c);
	return j;
}

/* Write e's code, img, to the disk cache u->dir (locked); a note of
 * an entry ignored before stays unless writing fails. */
static void cache_store(xjit_cache *c, cache_entry *e, const we_launch_ctx *L, const xjit_use *u,
			const xjit_image *img)
{
	char why[XJIT_NOTE];
	if (entry_key(c, e, L, why, sizeof why) && xjit_disk_write(u->dir, &e->key, img, why, sizeof why)) {
		e->disk = XJIT_DISK_STORED;
	} else {
		e->disk = XJIT_DISK_NOT_STORED;
		snprintf(e->note, sizeof e->note, "%s", why);
	}
}

const xjit *xjit_cache_compile(xjit_cache *c, const we_launch_ctx *L, xjit_use *u)
{
	struct timespec t0;
	if (clock_gettime(CLOCK_MONOTONIC, &t0))
		t0 = (struct timespec){ 0 };
	u->failed = false;
	cache_lock(c);
	cache_entry *e = entry_of(c, L);
	const xjit *j = NULL;
	if (!e) {
		snprintf(u->err, sizeof u->err, "out of memory");
		u->failed = true;
	} else if (entry_known(e)) {
		j = use_entry(e, u);
	} else if (cache_plugin(c, u->err, sizeof u->err)) {
		xjit_image img = { 0 };
		xjit *n = c->plugin->compile(L, XJIT_MIN_LEN, u->dir ? &img : NULL, u->err, sizeof u->err);
		if (n) {
			/* (loading LLVM, the first time, is part of the cost;
			 * writing the entry is not) */
			n->seconds = seconds_since(&t0);
			c->last_seconds = u->compile_seconds = n->seconds;
			e->none = !n->blocks;
			if (e->none)
				c->plugin->free(n);
			else
				e->j = n;
			snprintf(e->note, sizeof e->note, "%s", u->note);
			if (u->dir)
				cache_store(c, e, L, u, &img);
			j = use_entry(e, u);
		}
		xjit_image_free(&img);
		u->failed = !n;
	} else {
		u->failed = true;
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

double xjit_cache_load_estimate(xjit_cache *c)
{
	cache_lock(c);
	const double s = c->last_load;
	cache_unlock(c);
	return s > 0 ? s : XJIT_LOAD_GUESS;
}
