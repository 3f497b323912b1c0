/* ocl.h — the small OpenCL host layer of bench/wbench.
 *
 * No OpenCL header or library is needed to build it: the few types and
 * constants of the OpenCL 1.2 API it uses are declared in ocl.c, and the
 * entry points are looked up at run time, either
 *   - from the ICD loader, dlopen("libOpenCL.so.1"), choosing the platform
 *     whose name contains a given string (POCL: "Portable"), or
 *   - from the symbols already in the process (OCL_PRELOADED): that is how
 *     Oclgrind works, `oclgrind PROGRAM` preloads its runtime library.
 * Each function returns 0 on success, or -1 with a one-line message in
 * the handle's error text (ocl_error) — or in err for ocl_open.
 */
#ifndef WBENCH_OCL_H
#define WBENCH_OCL_H

#include <stddef.h>
#include <stdint.h>

typedef struct ocl ocl;

typedef enum ocl_source {
	OCL_ICD,          /* dlopen the ICD loader                      */
	OCL_PRELOADED     /* the entry points are already in the process */
} ocl_source;

int ocl_open(ocl **out, ocl_source src, const char *platform_substr, char *err, size_t errlen);
void ocl_close(ocl *o);
const char *ocl_error(const ocl *o);
/* "platform / device" */
const char *ocl_name(const ocl *o);

/* Build src and create its kernel `kernel` (one kernel per handle). */
int ocl_build(ocl *o, const char *src, size_t len, const char *kernel);
/* A device buffer, initialised from init (or zeros when init is NULL);
 * *id names it in the calls below. */
int ocl_buffer(ocl *o, size_t bytes, const void *init, int *id);
int ocl_write(ocl *o, int id, const void *src, size_t bytes);
int ocl_read(ocl *o, int id, void *dst, size_t bytes);
int ocl_arg_u32(ocl *o, unsigned index, uint32_t v);
int ocl_arg_f32(ocl *o, unsigned index, float v);
int ocl_arg_buf(ocl *o, unsigned index, int id);
/* Enqueue the kernel over global[] items in groups of local[] and wait
 * for it; *seconds is the wall time from the enqueue to the end. */
int ocl_run(ocl *o, unsigned dims, const size_t *global, const size_t *local, double *seconds);

#endif
