/* jit_load.c — finding and loading the compiled tier's module,
 * warpemu-jit.so (jit.h), with dlopen.
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
#include <stdio.h>
#include <string.h>

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
