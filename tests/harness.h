/* harness.h — the kernel-test harness every test program shares: read a
 * file of the source tree, load a kernel, give it parameters and device
 * buffers, launch it with a configuration of engines.h, read the buffers
 * back, and compare two launches.  Every function aborts the running
 * libcheck test on failure, with what it was doing. */
#ifndef WE_TESTS_HARNESS_H
#define WE_TESTS_HARNESS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "engines.h"

/* ck_assert_msg() records a mark point per call (a write to the parent
 * process in fork mode); with millions of element checks that would
 * dominate the run time, so result checks abort only on failure. */
#define CHECK(cond, ...)                           \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

/* ---- host helpers ------------------------------------------------- */

void *th_xmalloc(size_t n);
char *th_xstrdup(const char *s); /* NULL: "" */

/* A growing string (generated kernels, traces); free(b.p). */
typedef struct th_sbuf {
	char *p;
	size_t len, cap;
} th_sbuf;

void th_sb_add(th_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* splitmix64: reproducible test data (one stream per test process) */
void th_rng_seed(uint64_t s);
uint64_t th_rng64(void);
uint32_t th_rng(void); /* the high half of th_rng64() */

/* How many times needle occurs in text. */
unsigned th_occurrences(const char *text, const char *needle);

static inline we_dim3 th_dim1(uint32_t x)
{
	return (we_dim3){ x, 1, 1 };
}

static inline we_dim3 th_dim3(uint32_t x, uint32_t y, uint32_t z)
{
	return (we_dim3){ x, y, z };
}

/* ---- files of the source tree -------------------------------------- */

/* The path of `rel` under $top_srcdir (default ".."), into buf. */
void th_source_path(char *buf, size_t n, const char *rel);

/* The file at `rel` under $top_srcdir, NUL-terminated; its length in
 * *len when len is not NULL.  free() it. */
char *th_read_source(const char *rel, size_t *len);

/* ---- a kernel under test ------------------------------------------- */

#define TH_MAXBUFS 8
#define TH_MAXPARAMS 4096

typedef struct th_buf {
	const char *name;  /* the parameter's */
	we_devptr d;
	size_t bytes;
	uint8_t *init;     /* the contents th_restore() puts back */
} th_buf;

typedef struct th_kernel {
	we_device *dev;
	we_module *mod;
	const we_kernel_info *k;
	uint8_t params[TH_MAXPARAMS];
	th_buf b[TH_MAXBUFS];
	unsigned nb;
	size_t total;       /* bytes of all buffers */
	unsigned row_words; /* words per thread of "out", for th_expect_same's messages */
} th_kernel;

/* A new device with module `text` (named `name` in messages) loaded, and
 * its kernel `kernel` (NULL: the first one). */
void th_load(th_kernel *t, const char *text, const char *name, const char *kernel);

/* th_load of the file at `rel` under $top_srcdir. */
void th_file(th_kernel *t, const char *rel, const char *kernel);

void th_close(th_kernel *t);

/* Parameter `name` of the kernel. */
const we_param_info *th_param(const th_kernel *t, const char *name);

/* Store v into 32-bit integer / f32 parameter `name`. */
void th_u32(th_kernel *t, const char *name, uint32_t v);
void th_f32(th_kernel *t, const char *name, float v);

/* A device buffer for pointer parameter `name`: a copy of data, or
 * `bytes` bytes of `fill` when data is NULL.  th_restore() and th_run()
 * put these contents back. */
we_devptr th_buf_new(th_kernel *t, const char *name, const void *data, size_t bytes, int fill);

/* Every buffer back to its contents at th_buf_new(). */
void th_restore(th_kernel *t);

/* Copy `bytes` of device memory at src to dst. */
void th_get(th_kernel *t, void *dst, we_devptr src, size_t bytes);

/* Buffer `name` within a snapshot of all buffers (th_run.mem). */
uint8_t *th_view(const th_kernel *t, uint8_t *mem, const char *name);

/* A launch of grid x block threads (one-dimensional) on engine e, the
 * rest of the configuration at its defaults. */
static inline we_launch_config th_cfg1(we_engine e, uint32_t grid, uint32_t block)
{
	return (we_launch_config){ .grid = th_dim1(grid), .block = th_dim1(block), .engine = e };
}

/* Launch the kernel with its parameters under cfg. */
we_status th_launch(th_kernel *t, const we_launch_config *cfg, we_launch_stats *s);

/* th_launch, which must succeed; `what` names the launch in the message. */
void th_launch_ok(th_kernel *t, const we_launch_config *cfg, we_launch_stats *s, const char *what);

/* The launch must stop with status `want` (st is what it gave) and its
 * text report contain every string of the NULL-terminated parts. */
void th_expect_report(const th_kernel *t, we_status st, we_status want, const char *const *parts,
		      const char *what);

/* cfg->trace and trace_ctx: collect the trace lines in b. */
void th_trace_into(we_launch_config *cfg, th_sbuf *b);

/* ---- runs and their comparison ------------------------------------- */

/* What one launch gave. */
typedef struct th_run {
	we_status st;
	we_launch_stats s;
	uint8_t *mem;      /* every buffer after the launch, in order */
	char *err;         /* the text report; "" after a launch that succeeded */
	char *json;        /* the JSON report (we_last_report_json) */
	char *warn;        /* the --check warnings */
} th_run;

/* Restore the buffers, launch under cfg, and record the outcome. */
void th_run_launch(th_kernel *t, const we_launch_config *cfg, th_run *r);
void th_run_free(th_run *r);

/* The run must have succeeded. */
void th_expect_ok(const th_run *r, const char *what);

/* What th_expect_same compares beyond the status and both reports. */
#define TH_SAME_OK_MEMORY 1u   /* the buffers of a launch that succeeded   */
#define TH_SAME_ALL_MEMORY 2u  /* the buffers, also of a stopped launch    */
#define TH_SAME_COUNTERS 4u    /* ctas, warp_insns, thread_insns, barriers
				* of a launch that succeeded              */
#define TH_SAME_WARNINGS 8u    /* the --check warnings                     */
#define TH_SAME_WATCHDOG_FAULT 16u /* of a watchdog report only the fault: the
				  CTA's state it shows (where each warp was
				  stopped) follows the order of turns       */

/* Whether got differs from what ref gave in the status, the reports, or
 * what `flags` adds: NULL when not, else a message (free() it) on the
 * first difference (`refname` names ref in it, `what` got). */
char *th_run_diff(const th_kernel *t, const th_run *ref, const th_run *got, unsigned flags, const char *refname,
		  const char *what);

/* got must be what ref gave: th_run_diff() finds no difference. */
void th_expect_same(const th_kernel *t, const th_run *ref, const th_run *got, unsigned flags,
		    const char *refname, const char *what);


/* bit casts between floats and their encodings */
static inline uint64_t d2u(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static inline uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline double u2d(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}

static inline float u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

#endif
