/* kload.h — what the kernel tests share: reading a file of the source
 * tree, loading a module's kernel, and setting its parameters.  Every
 * function aborts the running libcheck test on failure. */
#ifndef WE_TESTS_KLOAD_H
#define WE_TESTS_KLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "warpemu/warpemu.h"

/* The file at `rel` under $top_srcdir (default ".."), NUL-terminated;
 * its length in *len when len is not NULL.  free() it. */
char *kl_read_source(const char *rel, size_t *len);

/* A new device with module `text` (named `name` in messages) loaded, and
 * its kernel `kernel` (NULL: the first one), whose parameter block must
 * fit in max_params bytes. */
void kl_load(const char *text, const char *name, const char *kernel, size_t max_params,
	     we_device **dev, we_module **mod, const we_kernel_info **k);

/* Parameter `name` of kernel k. */
const we_param_info *kl_param(const we_kernel_info *k, const char *name);

/* Store v into 32-bit parameter `name` of the block params. */
void kl_set_u32(const we_kernel_info *k, uint8_t *params, const char *name, uint32_t v);

#endif
