/* wbench — the warpemu benchmark driver (`make bench`, see bench/README.md).
 *
 * Each benchmark is a kernel (in kernels/ or bench/kernels/), a
 * problem instance made here from a fixed seed, and a host reference: the
 * same algorithm in plain C.  Every configuration runs in a forked child
 * (so that its peak RSS is its own): the C reference serially and with
 * pthreads, warpemu through its public API with both engines on one core
 * and on all cores, the OpenCL C version on POCL's CPU device and, on a
 * smaller instance, under Oclgrind.  Each run's output is hashed and
 * compared with the serial C run's hash; a run whose result differs is
 * reported as FAIL.  The results are printed as tables and written as
 * JSON and gnuplot data files.
 *
 * Only the public API <warpemu/warpemu.h> is used.  OpenCL is loaded at
 * run time (ocl.c); Oclgrind is its own program, `oclgrind PROGRAM`, so
 * wbench runs itself under it as a worker (--ocl-worker).
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <warpemu/warpemu.h>

#include "ocl.h"

/* ================================================================ options */

static struct {
	const char *srcdir;
	const char *json;
	const char *datdir;
	const char *only;
	const char *oclgrind;
	bool quick;
	bool no_pocl;
	bool no_oclgrind;
	unsigned reps;
	unsigned rounds;          /* the suite this many times (--rounds) */
	unsigned lockstep;        /* we_launch_config.lockstep of every launch */
	unsigned batch;           /* we_launch_config.batch of every launch */
	we_jit jit;               /* we_launch_config.jit of every launch */
	const char *jit_cache;    /* we_launch_config.jit_cache of every launch
				     (--jit-cache; by default a fresh directory
				     of this bench run) */
	bool jit_cache_fresh;     /* that directory: removed at the end */
	double timeout;
	unsigned cores;           /* "all cores"; 0 = the affinity mask's count */
	/* --ocl-worker mode */
	const char *worker;
	uint64_t worker_scale;
	int result_fd;
} opt = { .srcdir = ".", .reps = 1, .rounds = 1, .timeout = 900, .result_fd = -1 };

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("wbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* ================================================================ instances */

enum { A_U32, A_F32, A_BUF };

typedef struct karg {
	int kind;
	uint32_t u;
	float f;
	int buf;
} karg;

typedef struct hbuf {
	void *p;        /* host data: inputs filled, outputs zeroed */
	size_t bytes;
	bool out;       /* written by the kernel: reset before a run, hashed after */
} hbuf;

typedef struct inst {
	uint64_t scale;
	unsigned nargs;
	karg args[6];   /* in the order of the kernel's parameters */
	unsigned nbufs;
	hbuf bufs[4];
	we_dim3 grid, block;
	uint64_t ctas;
	uint64_t work;               /* units of bench.unit */
	uint64_t expect_barriers;    /* barrier completions to check, 0 = none */
	uint32_t iters, per_cta, width, height;
	pthread_mutex_t *merge;      /* histogram: guards the global bins (pthreads) */
} inst;

typedef struct bench {
	const char *name;
	const char *what;
	const char *wefile, *kernel;     /* relative to srcdir */
	const char *clfile, *clkernel;
	const char *unit;                /* what inst.work counts */
	const char *scale_is;            /* what the scale is */
	uint64_t full, quick;            /* default scales */
	uint64_t wt_full, wt_quick;      /* scales for the warp-threads engine */
	uint64_t og_full, og_quick;      /* scales under Oclgrind */
	bool c_baseline;                 /* the C runs are a meaningful baseline */
	void (*make)(inst *);
	void (*cref)(const inst *, uint64_t c0, uint64_t c1);
} bench;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static int add_buf(inst *in, size_t bytes, bool out)
{
	int k = (int)in->nbufs++;
	in->bufs[k].p = xcalloc(1, bytes);
	in->bufs[k].bytes = bytes;
	in->bufs[k].out = out;
	return k;
}

static void arg_u32(inst *in, uint32_t v)
{
	in->args[in->nargs++] = (karg){ .kind = A_U32, .u = v };
}

static void arg_f32(inst *in, float v)
{
	in->args[in->nargs++] = (karg){ .kind = A_F32, .f = v };
}

static void arg_buf(inst *in, int b)
{
	in->args[in->nargs++] = (karg){ .kind = A_BUF, .buf = b };
}

static void fill_u32(void *p, size_t n, uint64_t seed, uint32_t mask)
{
	uint32_t *w = p;
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)splitmix(&seed) & mask;
}

static void grid1(inst *in, uint64_t ctas, uint32_t block)
{
	if (ctas < 1 || ctas > INT32_MAX)
		die("grid of %llu CTAs is out of range", (unsigned long long)ctas);
	in->grid = (we_dim3){ (uint32_t)ctas, 1, 1 };
	in->block = (we_dim3){ block, 1, 1 };
	in->ctas = ctas;
}

static uint32_t u32_scale(uint64_t s)
{
	if (s < 1 || s > UINT32_MAX / 2)
		die("scale %llu is out of range", (unsigned long long)s);
	return (uint32_t)s;
}

/* ---- alu: 65536 threads, `scale` trips each */
#define ALU_CTAS 256u
static void alu_make(inst *in)
{
	in->iters = u32_scale(in->scale);
	grid1(in, ALU_CTAS, 256);
	int out = add_buf(in, (size_t)ALU_CTAS * 256 * 4, true);
	arg_u32(in, in->iters);
	arg_buf(in, out);
	in->work = (uint64_t)ALU_CTAS * 256 * in->iters;
}

static void alu_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	uint32_t *out = in->bufs[0].p;
	for (uint64_t c = c0; c < c1; c++)
		for (uint32_t t = 0; t < 256; t++) {
			uint32_t g = (uint32_t)c * 256 + t;
			uint32_t x = g, y = g ^ 0x1234567u, z = 0, j = 0;
			do {
				x = x * 1664525u + 1013904223u;
				y ^= x >> 13;
				y = y + (y << 5) + x;
				z = (z ^ y) * 5u + x;
			} while (++j < in->iters);
			out[g] = y ^ z;
		}
}

/* ---- triad: a = b + 3 * c over `scale` floats; the values are small
 * integers, so every result is exact however the multiply-add rounds. */
static void triad_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	grid1(in, (n + 255) / 256, 256);
	int a = add_buf(in, (size_t)n * 4, true);
	int b = add_buf(in, (size_t)n * 4, false);
	int c = add_buf(in, (size_t)n * 4, false);
	float *pb = in->bufs[b].p, *pc = in->bufs[c].p;
	for (uint32_t i = 0; i < n; i++) {
		pb[i] = (float)(i % 1000);
		pc[i] = (float)((i * 7u) % 513);
	}
	arg_u32(in, n);
	arg_f32(in, 3.0f);
	arg_buf(in, a);
	arg_buf(in, b);
	arg_buf(in, c);
	in->work = n;
}

static void triad_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	float *a = in->bufs[0].p;
	const float *b = in->bufs[1].p, *c = in->bufs[2].p;
	uint64_t n = in->scale, e = c1 * 256 < n ? c1 * 256 : n;
	for (uint64_t i = c0 * 256; i < e; i++)
		a[i] = b[i] + 3.0f * c[i];
}

/* ---- reduce: `scale` ints (a multiple of 256), one sum per CTA */
static void reduce_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	if (n % 256)
		die("reduce: the size must be a multiple of 256");
	grid1(in, n / 256, 256);
	int src = add_buf(in, (size_t)n * 4, false);
	int out = add_buf(in, (size_t)in->ctas * 4, true);
	fill_u32(in->bufs[src].p, n, 1, 0xffffffffu);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = n;
}

static void reduce_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	uint32_t s[256];
	for (uint64_t c = c0; c < c1; c++) {
		memcpy(s, src + c * 256, sizeof s);
		for (unsigned k = 128; k > 0; k >>= 1)
			for (unsigned t = 0; t < k; t++)
				s[t] += s[t + k];
		out[c] = s[0];
	}
}

/* ---- scan: block-wide inclusive scans over `scale` words */
static void scan_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	grid1(in, (n + 255) / 256, 256);
	int src = add_buf(in, (size_t)n * 4, false);
	int out = add_buf(in, (size_t)n * 4, true);
	fill_u32(in->bufs[src].p, n, 2, 0xffffu);
	arg_u32(in, n);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = n;
}

static void scan_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	uint64_t n = in->scale;
	uint32_t buf[2][256];
	for (uint64_t c = c0; c < c1; c++) {
		for (unsigned t = 0; t < 256; t++)
			buf[0][t] = c * 256 + t < n ? src[c * 256 + t] : 0;
		unsigned s = 0;
		for (unsigned d = 1; d < 256; d <<= 1, s ^= 1)
			for (unsigned t = 0; t < 256; t++)
				buf[s ^ 1][t] = buf[s][t] + (t >= d ? buf[s][t - d] : 0);
		for (unsigned t = 0; t < 256 && c * 256 + t < n; t++)
			out[c * 256 + t] = buf[s][t];
	}
}

/* ---- transpose: a `scale` x `scale` matrix of words, 32x32 tiles */
static void transpose_make(inst *in)
{
	uint32_t w = u32_scale(in->scale), h = w;
	if ((uint64_t)w * h > UINT32_MAX / 4)
		die("transpose: %u x %u is too large", w, h);
	uint32_t gx = (w + 31) / 32, gy = (h + 31) / 32;
	in->grid = (we_dim3){ gx, gy, 1 };
	in->block = (we_dim3){ 32, 8, 1 };
	in->ctas = (uint64_t)gx * gy;
	in->width = w;
	in->height = h;
	int src = add_buf(in, (size_t)w * h * 4, false);
	int out = add_buf(in, (size_t)w * h * 4, true);
	fill_u32(in->bufs[src].p, (size_t)w * h, 3, 0xffffffffu);
	arg_u32(in, w);
	arg_u32(in, h);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = (uint64_t)w * h;
}

static void transpose_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	uint32_t w = in->width, h = in->height, gx = in->grid.x;
	uint32_t tile[32][33];
	for (uint64_t c = c0; c < c1; c++) {
		uint32_t bx = (uint32_t)(c % gx), by = (uint32_t)(c / gx);
		for (uint32_t ty = 0; ty < 32; ty++)
			for (uint32_t tx = 0; tx < 32; tx++) {
				uint32_t x = bx * 32 + tx, y = by * 32 + ty;
				if (x < w && y < h)
					tile[ty][tx] = src[(size_t)y * w + x];
			}
		for (uint32_t ty = 0; ty < 32; ty++)
			for (uint32_t tx = 0; tx < 32; tx++) {
				uint32_t ox = by * 32 + tx, oy = bx * 32 + ty;
				if (ox < h && oy < w)
					out[(size_t)oy * h + ox] = tile[tx][ty];
			}
	}
}

/* ---- histogram: 256 bins over `scale` bytes, 16 KiB per CTA; a quarter
 * of the bytes are 0x20, so the shared bins see contention. */
#define HIST_PER_CTA 16384u
static void histogram_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	in->per_cta = HIST_PER_CTA;
	grid1(in, (n + HIST_PER_CTA - 1) / HIST_PER_CTA, 256);
	int src = add_buf(in, n, false);
	int hist = add_buf(in, 256 * 4, true);
	uint8_t *p = in->bufs[src].p;
	uint64_t seed = 4;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t r = splitmix(&seed);
		p[i] = (r >> 8) % 4 == 0 ? 0x20 : (uint8_t)r;
	}
	arg_u32(in, n);
	arg_u32(in, HIST_PER_CTA);
	arg_buf(in, src);
	arg_buf(in, hist);
	in->work = n;
}

static void lock(pthread_mutex_t *m)
{
	int e = pthread_mutex_lock(m);
	if (e)
		die("pthread_mutex_lock: %s", strerror(e));
}

static void unlock(pthread_mutex_t *m)
{
	int e = pthread_mutex_unlock(m);
	if (e)
		die("pthread_mutex_unlock: %s", strerror(e));
}

static void histogram_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint8_t *src = in->bufs[0].p;
	uint32_t *hist = in->bufs[1].p;
	uint64_t n = in->scale;
	for (uint64_t c = c0; c < c1; c++) {
		uint32_t bins[256] = { 0 };
		uint64_t s = c * in->per_cta, e = s + in->per_cta < n ? s + in->per_cta : n;
		for (uint64_t k = s; k < e; k++)
			bins[src[k]]++;
		if (in->merge)
			lock(in->merge);
		for (unsigned k = 0; k < 256; k++)
			hist[k] += bins[k];
		if (in->merge)
			unlock(in->merge);
	}
}

/* ---- diverge: `scale` threads, data-dependent trips and branches */
static void diverge_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	grid1(in, (n + 255) / 256, 256);
	int src = add_buf(in, (size_t)n * 4, false);
	int out = add_buf(in, (size_t)n * 4, true);
	fill_u32(in->bufs[src].p, n, 5, 0xffffffffu);
	arg_u32(in, n);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = n;
}

static void diverge_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	uint64_t n = in->scale, e = c1 * 256 < n ? c1 * 256 : n;
	for (uint64_t i = c0 * 256; i < e; i++) {
		uint32_t v = src[i], x = v, acc = 0, trips = v & 63;
		for (uint32_t j = 0; j < trips; j++) {
			if (x & 1) {
				x = 3 * x + 1;
				acc += x;
			} else {
				x >>= 1;
				acc ^= x;
			}
			if ((x & 6) == 0)
				acc = acc * 3 + j;
		}
		out[i] = acc + x;
	}
}

/* ---- tiny: `scale` CTAs of one warp */
static void tiny_make(inst *in)
{
	grid1(in, in->scale, 32);
	size_t n = (size_t)in->ctas * 32;
	int src = add_buf(in, n * 4, false);
	int out = add_buf(in, n * 4, true);
	fill_u32(in->bufs[src].p, n, 6, 0xffffffffu);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = in->ctas;
}

static void tiny_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	for (uint64_t c = c0; c < c1; c++)
		for (unsigned t = 0; t < 32; t++) {
			uint64_t i = c * 32 + t;
			uint32_t x = src[i] * 0x27d4eb2du;
			x ^= x >> 16;
			x *= 0x45d9f3bu;
			x ^= x >> 16;
			out[i] = x + (uint32_t)c;
		}
}

/* ---- prodcons: `scale` CTAs of 256 threads, 64 hand-offs each */
#define PC_ITERS 64u
#define PC_SLOTS 128u
static void prodcons_make(inst *in)
{
	in->iters = PC_ITERS;
	grid1(in, in->scale, 2 * PC_SLOTS);
	int src = add_buf(in, (size_t)PC_ITERS * PC_SLOTS * 4, false);
	int out = add_buf(in, (size_t)in->ctas * PC_SLOTS * 4, true);
	fill_u32(in->bufs[src].p, (size_t)PC_ITERS * PC_SLOTS, 7, 0xffffffffu);
	arg_u32(in, PC_ITERS);
	arg_buf(in, src);
	arg_buf(in, out);
	in->work = in->ctas;
}

static void prodcons_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint32_t *src = in->bufs[0].p;
	uint32_t *out = in->bufs[1].p;
	for (uint64_t c = c0; c < c1; c++)
		for (uint32_t slot = 0; slot < PC_SLOTS; slot++) {
			uint32_t acc = 0;
			for (uint32_t i = 0; i < PC_ITERS; i++)
				acc = acc * 31 + (src[i * PC_SLOTS + slot] ^ ((uint32_t)c * 0x10001u + i));
			out[c * PC_SLOTS + slot] = acc;
		}
}

/* ---- barrier: `scale` CTAs of 32 warps, 8 * 128 BAR.SYNC each */
#define BAR_ITERS 128u
static void barrier_make(inst *in)
{
	in->iters = BAR_ITERS;
	grid1(in, in->scale, 1024);
	int out = add_buf(in, (size_t)in->ctas * 1024 * 4, true);
	arg_u32(in, BAR_ITERS);
	arg_buf(in, out);
	in->expect_barriers = in->ctas * BAR_ITERS * 8;
	in->work = in->ctas * 32 * BAR_ITERS * 8;
}

static void barrier_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	uint32_t *out = in->bufs[0].p;
	for (uint64_t i = c0 * 1024; i < c1 * 1024; i++)
		out[i] = in->iters;
}

/* ---- the PTX benchmarks: nvcc's PTX (bench/kernels/ptx_*.cu, and
 * tests/ptx/reduce_smem.cu for ptx-reduce) through the PTX front end.
 * ptx-transpose and ptx-histogram take the instances of transpose and
 * histogram (their kernels have the same parameters); ptx-transpose also
 * takes transpose's C reference. */

/* ptx-histogram's kernel (bench/kernels/ptx_histogram.cu) adds one to a
 * global bin per byte, atomically: so does its C reference, serial or on
 * every core, which shows what those atomics cost this machine (a bin's
 * line moving between the cores), where histogram_cref counts in private
 * bins and adds them once per CTA. */
static void histogram_atomic_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const uint8_t *src = in->bufs[0].p;
	uint32_t *hist = in->bufs[1].p;
	const uint64_t n = in->scale;
	for (uint64_t c = c0; c < c1; c++) {
		const uint64_t s = c * in->per_cta, e = s + in->per_cta < n ? s + in->per_cta : n;
		for (uint64_t k = s; k < e; k++)
			__atomic_fetch_add(&hist[src[k]], 1u, __ATOMIC_RELAXED);
	}
}

/* ptx-reduce: `scale` floats (a multiple of 512), one sum of 512 per CTA
 * of 256 threads, added in the kernel's order (bit-exact) */
static void ptx_reduce_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	if (n % 512)
		die("ptx-reduce: the size must be a multiple of 512");
	grid1(in, n / 512, 256);
	int src = add_buf(in, (size_t)n * 4, false);
	int out = add_buf(in, (size_t)in->ctas * 4, true);
	float *p = in->bufs[src].p;
	uint64_t seed = 8;
	for (uint32_t i = 0; i < n; i++)
		p[i] = (float)(splitmix(&seed) >> 40) * 0x1p-23f - 1.0f;
	arg_buf(in, src);
	arg_buf(in, out);
	arg_u32(in, n);
	in->work = n;
}

static void ptx_reduce_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const float *src = in->bufs[0].p;
	float *out = in->bufs[1].p;
	float s[256];
	for (uint64_t c = c0; c < c1; c++) {
		for (unsigned t = 0; t < 256; t++)
			s[t] = src[c * 512 + t] + src[c * 512 + t + 256];
		for (unsigned k = 128; k > 0; k >>= 1)
			for (unsigned t = 0; t < k; t++)
				s[t] += s[t + k];
		out[c] = s[0];
	}
}

/* ptx-matmul: C = A * B, `scale` x `scale` floats, 16x16 CTAs.  The
 * inputs are integers 0..7, so every sum is exact whatever the order and
 * the rounding of the multiply-adds (POCL may contract or not). */
#define MM_TILE 16u
static void matmul_make(inst *in)
{
	uint32_t n = u32_scale(in->scale);
	if ((uint64_t)n * n > UINT32_MAX / 4)
		die("ptx-matmul: %u x %u is too large", n, n);
	uint32_t g = (n + MM_TILE - 1) / MM_TILE;
	in->grid = (we_dim3){ g, g, 1 };
	in->block = (we_dim3){ MM_TILE, MM_TILE, 1 };
	in->ctas = (uint64_t)g * g;
	in->width = n;
	int a = add_buf(in, (size_t)n * n * 4, false);
	int b = add_buf(in, (size_t)n * n * 4, false);
	int c = add_buf(in, (size_t)n * n * 4, true);
	uint64_t seed = 9;
	for (int m = a; m <= b; m++) {
		float *p = in->bufs[m].p;
		for (size_t i = 0; i < (size_t)n * n; i++)
			p[i] = (float)(splitmix(&seed) & 7);
	}
	arg_u32(in, n);
	arg_buf(in, a);
	arg_buf(in, b);
	arg_buf(in, c);
	in->work = (uint64_t)n * n * n;
}

static void matmul_cref(const inst *in, uint64_t c0, uint64_t c1)
{
	const float *a = in->bufs[0].p, *b = in->bufs[1].p;
	float *out = in->bufs[2].p;
	uint32_t n = in->width, gx = in->grid.x;
	for (uint64_t c = c0; c < c1; c++) {
		uint32_t bx = (uint32_t)(c % gx), by = (uint32_t)(c / gx);
		for (uint32_t r = by * MM_TILE; r < by * MM_TILE + MM_TILE && r < n; r++)
			for (uint32_t col = bx * MM_TILE; col < bx * MM_TILE + MM_TILE && col < n; col++) {
				float acc = 0.0f;
				for (uint32_t k = 0; k < n; k++)
					acc += a[(size_t)r * n + k] * b[(size_t)k * n + col];
				out[(size_t)r * n + col] = acc;
			}
	}
}

static const bench benches[] = {
	{ "alu", "ALU-bound loop: 65536 threads, 7 integer ops + 3 loop control per trip",
	  "bench/kernels/alu.we", "alu", "bench/opencl/alu.cl", "alu",
	  "thread-trips", "trips per thread", 16384, 256, 4096, 256, 8, 2, true,
	  alu_make, alu_cref },
	{ "triad", "STREAM triad a = b + s*c (f32), one element per thread",
	  "bench/kernels/triad.we", "triad", "bench/opencl/triad.cl", "triad",
	  "elements", "elements", 1u << 24, 1u << 20, 1u << 24, 1u << 20, 1u << 18, 1u << 16, true,
	  triad_make, triad_cref },
	{ "reduce", "shared-memory tree reduction, 256-thread CTAs, BAR.SYNC per step",
	  "kernels/reduce.we", "reduce", "bench/opencl/reduce.cl", "reduce",
	  "ints", "ints", 1u << 24, 1u << 20, 1u << 20, 1u << 16, 1u << 16, 1u << 14, true,
	  reduce_make, reduce_cref },
	{ "scan", "block-wide Hillis-Steele inclusive scan, 256-thread CTAs",
	  "kernels/scan.we", "scan", "bench/opencl/scan.cl", "scan",
	  "elements", "elements", 1u << 24, 1u << 20, 1u << 20, 1u << 16, 1u << 15, 1u << 13, true,
	  scan_make, scan_cref },
	{ "transpose", "matrix transpose through a shared 32x33 tile, 32x8 CTAs",
	  "kernels/transpose.we", "transpose", "bench/opencl/transpose.cl", "transpose",
	  "elements", "matrix side", 4096, 1024, 2048, 512, 256, 128, true,
	  transpose_make, transpose_cref },
	{ "histogram", "256-bin byte histogram with shared atomics, 16 KiB per CTA",
	  "kernels/histogram.we", "histogram", "bench/opencl/histogram.cl", "histogram",
	  "bytes", "bytes", 1u << 26, 1u << 22, 1u << 26, 1u << 22, 1u << 18, 1u << 16, true,
	  histogram_make, histogram_cref },
	{ "diverge", "divergence-heavy: data-dependent trip counts and if/else",
	  "bench/kernels/diverge.we", "diverge", "bench/opencl/diverge.cl", "diverge",
	  "threads", "threads", 1u << 21, 1u << 17, 1u << 21, 1u << 17, 1u << 13, 1u << 11, true,
	  diverge_make, diverge_cref },
	{ "tiny", "1,000,000 one-warp CTAs of 20 instructions",
	  "bench/kernels/tiny.we", "tiny", "bench/opencl/tiny.cl", "tiny",
	  "CTAs", "CTAs", 1000000, 100000, 1000000, 100000, 4096, 1024, true,
	  tiny_make, tiny_cref },
	{ "prodcons", "producer/consumer pipeline over two barriers, 64 hand-offs per CTA",
	  "kernels/prodcons.we", "prodcons", "bench/opencl/prodcons.cl", "prodcons",
	  "CTAs", "CTAs", 4096, 256, 512, 64, 16, 4, true,
	  prodcons_make, prodcons_cref },
	{ "barrier", "BAR.SYNC microbenchmark: 32-warp CTAs, 1024 BAR.SYNC each",
	  "bench/kernels/barrier.we", "barrier", "bench/opencl/barrier.cl", "barrier_loop",
	  "warp-barriers", "CTAs", 256, 16, 16, 4, 2, 1, false,
	  barrier_make, barrier_cref },
	{ "ptx-reduce", "PTX (nvcc): reduce_smem, 512 floats per 256-thread CTA, bar.sync per step",
	  "tests/ptx/reduce_smem.sm90.ptx", "reduce_smem", "bench/opencl/ptx_reduce.cl", "reduce_smem",
	  "floats", "floats", 1u << 24, 1u << 20, 1u << 20, 1u << 16, 1u << 16, 1u << 14, true,
	  ptx_reduce_make, ptx_reduce_cref },
	{ "ptx-transpose", "PTX (nvcc): transpose through a shared 32x33 tile, 32x8 CTAs",
	  "bench/kernels/ptx_transpose.sm90.ptx", "transpose", "bench/opencl/transpose.cl", "transpose",
	  "elements", "matrix side", 4096, 1024, 2048, 512, 256, 128, true,
	  transpose_make, transpose_cref },
	{ "ptx-matmul", "PTX (nvcc): f32 matrix multiply through 16x16 shared tiles",
	  "bench/kernels/ptx_matmul.sm90.ptx", "matmul", "bench/opencl/ptx_matmul.cl", "matmul",
	  "multiply-adds", "matrix side", 512, 128, 128, 64, 64, 32, true,
	  matmul_make, matmul_cref },
	{ "ptx-histogram", "PTX (nvcc): 256-bin byte histogram, a global atomic per byte",
	  "bench/kernels/ptx_histogram.sm90.ptx", "histogram", "bench/opencl/ptx_histogram.cl", "histogram",
	  "bytes", "bytes", 1u << 24, 1u << 20, 1u << 22, 1u << 20, 1u << 16, 1u << 14, true,
	  histogram_make, histogram_atomic_cref },
};
#define NBENCH (sizeof benches / sizeof benches[0])

static void inst_make(const bench *b, uint64_t scale, inst *in)
{
	memset(in, 0, sizeof *in);
	in->scale = scale;
	b->make(in);
}

static void inst_free(inst *in)
{
	for (unsigned i = 0; i < in->nbufs; i++)
		free(in->bufs[i].p);
}

static void inst_reset_outputs(inst *in)
{
	for (unsigned i = 0; i < in->nbufs; i++)
		if (in->bufs[i].out)
			memset(in->bufs[i].p, 0, in->bufs[i].bytes);
}

static uint64_t inst_hash(const inst *in)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (unsigned b = 0; b < in->nbufs; b++) {
		if (!in->bufs[b].out)
			continue;
		const unsigned char *p = in->bufs[b].p;
		size_t n = in->bufs[b].bytes, i = 0;
		for (; i + 8 <= n; i += 8) {
			uint64_t w;
			memcpy(&w, p + i, 8);
			h = (h ^ w) * UINT64_C(0x100000001b3);
			h ^= h >> 29;
		}
		for (; i < n; i++)
			h = (h ^ p[i]) * UINT64_C(0x100000001b3);
		h ^= n;
	}
	return h;
}

/* ================================================================ runs */

typedef enum kind { K_CSERIAL, K_CPTHREADS, K_EMU, K_POCL, K_OCLGRIND, K_PROBE, K_HANDOFF } kind;

typedef struct runspec {
	kind k;
	we_engine engine;
	unsigned cores;     /* CPUs the child may use: 1 or all        */
	unsigned threads;   /* pthreads / launch threads                */
	uint64_t scale;
} runspec;

enum { RS_OK, RS_FAIL, RS_ERROR, RS_SKIP };

typedef struct result {
	int status;
	char note[480];
	double seconds;     /* best kernel wall time */
	uint64_t scale, work, ctas;
	uint64_t warp_insns, thread_insns, barriers;
	uint64_t hash;
	long rss_kib;       /* peak RSS of the child, from wait4 */
	char device[160];
	/* warpemu: the compiled tier (we_launch_stats) of the last
	 * repetition, the first one's seconds, compile and load time */
	char jit[32], jit_cache[16];
	double first_seconds, compile_seconds, load_seconds;
} result;

static void note(result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->note, sizeof r->note, fmt, ap);
	va_end(ap);
	for (char *p = r->note; *p; p++)
		if (*p == '\n')
			*p = ' '; /* one line in the table */
}

static unsigned affinity_cores(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set))
		return (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	return (unsigned)CPU_COUNT(&set);
}

/* Confine this process to the first CPU it may run on. */
static int pin_one_cpu(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_ZERO(&set);
			CPU_SET(c, &set);
			return sched_setaffinity(0, sizeof set, &set);
		}
	return -1;
}

static char *slurp(const char *rel, size_t *len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", opt.srcdir, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 14, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		char *nb = realloc(buf, cap *= 2);
		if (!nb)
			free(buf);
		buf = nb;
	}
	bool bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/* ---- C: serial and pthreads */

typedef struct pworker {
	const bench *b;
	const inst *in;
	atomic_uint_fast64_t *next;
	uint64_t chunk;
	pthread_t tid;
} pworker;

static void *pworker_main(void *arg)
{
	pworker *w = arg;
	for (;;) {
		uint64_t c0 = atomic_fetch_add(w->next, w->chunk);
		if (c0 >= w->in->ctas)
			return NULL;
		uint64_t c1 = c0 + w->chunk < w->in->ctas ? c0 + w->chunk : w->in->ctas;
		w->b->cref(w->in, c0, c1);
	}
}

static void run_c(const bench *b, const runspec *rs, inst *in, result *r)
{
	unsigned nt = rs->k == K_CPTHREADS ? rs->threads : 1;
	pthread_mutex_t merge;
	int e = pthread_mutex_init(&merge, NULL);
	if (e)
		die("pthread_mutex_init: %s", strerror(e));
	if (nt > 1)
		in->merge = &merge;
	pworker *ws = xcalloc(nt, sizeof *ws);
	double best = INFINITY;
	for (unsigned rep = 0; rep < opt.reps; rep++) {
		inst_reset_outputs(in);
		double t0 = now();
		if (nt == 1) {
			b->cref(in, 0, in->ctas);
		} else {
			atomic_uint_fast64_t next;
			atomic_init(&next, 0);
			uint64_t chunk = in->ctas / ((uint64_t)nt * 64);
			for (unsigned i = 0; i < nt; i++) {
				ws[i] = (pworker){ .b = b, .in = in, .next = &next, .chunk = chunk ? chunk : 1 };
				e = pthread_create(&ws[i].tid, NULL, pworker_main, &ws[i]);
				if (e)
					die("pthread_create: %s", strerror(e));
			}
			for (unsigned i = 0; i < nt; i++) {
				e = pthread_join(ws[i].tid, NULL);
				if (e)
					die("pthread_join: %s", strerror(e));
			}
		}
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	free(ws);
	in->merge = NULL;
	e = pthread_mutex_destroy(&merge);
	if (e)
		die("pthread_mutex_destroy: %s", strerror(e));
	r->seconds = best;
	r->ctas = in->ctas;
	r->hash = inst_hash(in);
	r->status = RS_OK;
}

/* ---- a bare pthreads hand-off: the warp-threads engine's barrier shape
 * without the emulator.  HANDOFF_THREADS threads meet at a barrier of a
 * mutex and a condition variable (the last to arrive broadcasts), as many
 * times as the barrier benchmark's warps meet at BAR.SYNC: its seconds
 * per arrival are what the OS makes a hand-off cost. */
#define HANDOFF_THREADS 32u

typedef struct handoff {
	pthread_mutex_t m;
	pthread_cond_t cv;
	unsigned arrived;
	uint64_t gen, rounds;
} handoff;

static void *handoff_main(void *arg)
{
	handoff *h = arg;
	for (uint64_t r = 0; r < h->rounds; r++) {
		lock(&h->m);
		const uint64_t gen = h->gen;
		if (++h->arrived == HANDOFF_THREADS) {
			h->arrived = 0;
			h->gen++;
			if (pthread_cond_broadcast(&h->cv))
				die("pthread_cond_broadcast");
		} else {
			while (h->gen == gen)
				if (pthread_cond_wait(&h->cv, &h->m))
					die("pthread_cond_wait");
		}
		unlock(&h->m);
	}
	return NULL;
}

static void run_handoff(const inst *in, result *r)
{
	handoff h = { .rounds = in->work / HANDOFF_THREADS };
	pthread_t t[HANDOFF_THREADS];
	if (pthread_mutex_init(&h.m, NULL) || pthread_cond_init(&h.cv, NULL))
		die("pthread_mutex_init/pthread_cond_init");
	double best = INFINITY;
	for (unsigned rep = 0; rep < opt.reps; rep++) {
		h.arrived = 0;
		h.gen = 0;
		double t0 = now();
		for (unsigned i = 0; i < HANDOFF_THREADS; i++)
			if (pthread_create(&t[i], NULL, handoff_main, &h))
				die("pthread_create");
		for (unsigned i = 0; i < HANDOFF_THREADS; i++)
			if (pthread_join(t[i], NULL))
				die("pthread_join");
		double dt = now() - t0;
		if (dt < best)
			best = dt;
	}
	if (pthread_cond_destroy(&h.cv) || pthread_mutex_destroy(&h.m))
		die("pthread_cond_destroy/pthread_mutex_destroy");
	r->seconds = best;
	r->status = RS_OK;
}

/* ---- warpemu */

static void run_emu(const bench *b, const runspec *rs, inst *in, result *r)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	we_devptr dptr[4] = { 0 };
	char *text = NULL;
	we_device_config dc = { .threads = rs->threads };
	we_status st = we_device_create(&dc, &dev);
	if (st != WE_OK) {
		note(r, "we_device_create: %s", we_status_name(st));
		r->status = RS_ERROR;
		return;
	}
	size_t len;
	text = slurp(b->wefile, &len);
	if (!text) {
		note(r, "cannot read %s/%s: %s", opt.srcdir, b->wefile, strerror(errno));
		r->status = RS_ERROR;
		goto out;
	}
	st = we_module_load_text(dev, text, len, b->wefile, &mod);
	if (st != WE_OK) {
		note(r, "%s: %s", b->wefile, we_last_error(dev));
		r->status = RS_ERROR;
		goto out;
	}
	const we_kernel_info *k = we_module_find_kernel(mod, b->kernel);
	if (!k || k->nparams != in->nargs) {
		note(r, "%s: no kernel %s with %u parameters", b->wefile, b->kernel, in->nargs);
		r->status = RS_ERROR;
		goto out;
	}
	for (unsigned i = 0; i < in->nbufs; i++) {
		st = we_malloc(dev, in->bufs[i].bytes, &dptr[i]);
		if (st == WE_OK && !in->bufs[i].out)
			st = we_memcpy_htod(dev, dptr[i], in->bufs[i].p, in->bufs[i].bytes);
		if (st != WE_OK) {
			note(r, "device memory: %s", we_last_error(dev));
			r->status = RS_ERROR;
			goto out;
		}
	}
	unsigned char params[256] = { 0 };
	if (k->param_bytes > sizeof params) {
		note(r, "too many parameter bytes");
		r->status = RS_ERROR;
		goto out;
	}
	for (unsigned i = 0; i < in->nargs; i++) {
		const we_param_info *p = &k->params[i];
		const karg *a = &in->args[i];
		bool okt = (a->kind == A_U32 && (p->type == WE_PARAM_U32 || p->type == WE_PARAM_S32)) ||
			   (a->kind == A_F32 && p->type == WE_PARAM_F32) ||
			   (a->kind == A_BUF && p->type == WE_PARAM_PTR);
		if (!okt) {
			note(r, "kernel %s: parameter %s has an unexpected type", b->kernel, p->name);
			r->status = RS_ERROR;
			goto out;
		}
		if (a->kind == A_U32)
			memcpy(params + p->offset, &a->u, 4);
		else if (a->kind == A_F32)
			memcpy(params + p->offset, &a->f, 4);
		else
			memcpy(params + p->offset, &dptr[a->buf], 8);
	}
	we_launch_config cfg = {
		.grid = in->grid, .block = in->block, .threads = rs->threads, .engine = rs->engine,
		/* on one core the process is confined to it; let the threads inherit that */
		.placement = rs->cores == 1 ? WE_PLACE_NONE : WE_PLACE_DEFAULT,
		.timeout = opt.timeout,
		.lockstep = opt.lockstep,
		.batch = opt.batch,
		.jit = opt.jit,
		.jit_cache = opt.jit_cache,
	};
	double best = INFINITY;
	we_launch_stats s = { 0 };
	for (unsigned rep = 0; rep < opt.reps; rep++) {
		for (unsigned i = 0; i < in->nbufs; i++)
			if (in->bufs[i].out && we_memset(dev, dptr[i], 0, in->bufs[i].bytes) != WE_OK) {
				note(r, "we_memset: %s", we_last_error(dev));
				r->status = RS_ERROR;
				goto out;
			}
		double t0 = now();
		st = we_launch(dev, mod, b->kernel, &cfg, params, k->param_bytes, &s);
		double t = now() - t0;
		if (st != WE_OK) {
			note(r, "we_launch: %s: %s", we_status_name(st), we_last_error(dev));
			r->status = RS_ERROR;
			goto out;
		}
		if (t < best)
			best = t;
		if (rep == 0) {
			r->first_seconds = t;
			r->compile_seconds = s.jit_seconds;
			r->load_seconds = s.jit_load_seconds;
		}
	}
	snprintf(r->jit, sizeof r->jit, "%s", s.jit ? s.jit : "");
	snprintf(r->jit_cache, sizeof r->jit_cache, "%s", s.jit_cache ? s.jit_cache : "");
	for (unsigned i = 0; i < in->nbufs; i++)
		if (in->bufs[i].out && we_memcpy_dtoh(dev, in->bufs[i].p, dptr[i], in->bufs[i].bytes) != WE_OK) {
			note(r, "we_memcpy_dtoh: %s", we_last_error(dev));
			r->status = RS_ERROR;
			goto out;
		}
	r->seconds = best;
	r->ctas = s.ctas;
	r->warp_insns = s.warp_insns;
	r->thread_insns = s.thread_insns;
	r->barriers = s.barriers;
	r->hash = inst_hash(in);
	r->status = RS_OK;
	if (s.ctas != in->ctas) {
		r->status = RS_FAIL;
		note(r, "%llu CTAs ran, %llu launched", (unsigned long long)s.ctas,
		     (unsigned long long)in->ctas);
	} else if (in->expect_barriers && s.barriers != in->expect_barriers) {
		r->status = RS_FAIL;
		note(r, "%llu barrier completions, %llu expected", (unsigned long long)s.barriers,
		     (unsigned long long)in->expect_barriers);
	} else if (*we_device_notice(dev)) {
		note(r, "%s", we_device_notice(dev));
	}
out:
	for (unsigned i = 0; i < in->nbufs; i++)
		if (dptr[i])
			we_free(dev, dptr[i]);
	we_module_destroy(mod);
	we_device_destroy(dev);
	free(text);
}

/* ---- OpenCL (POCL through the ICD loader, or Oclgrind preloaded) */

static void run_ocl(const bench *b, const runspec *rs, inst *in, result *r)
{
	char err[600];
	ocl *o = NULL;
	bool og = rs->k == K_OCLGRIND;
	if (ocl_open(&o, og ? OCL_PRELOADED : OCL_ICD, og ? "Oclgrind" : "Portable", err, sizeof err)) {
		note(r, "%s", err);
		r->status = RS_SKIP;
		return;
	}
	snprintf(r->device, sizeof r->device, "%s", ocl_name(o));
	if (rs->k == K_PROBE) {
		r->status = RS_OK;
		ocl_close(o);
		return;
	}
	size_t len;
	char *src = slurp(b->clfile, &len);
	int ids[4] = { 0 };
	if (!src) {
		note(r, "cannot read %s/%s: %s", opt.srcdir, b->clfile, strerror(errno));
		r->status = RS_ERROR;
		goto out;
	}
	if (ocl_build(o, src, len, b->clkernel))
		goto fail;
	for (unsigned i = 0; i < in->nbufs; i++)
		if (ocl_buffer(o, in->bufs[i].bytes, in->bufs[i].out ? NULL : in->bufs[i].p, &ids[i]))
			goto fail;
	for (unsigned i = 0; i < in->nargs; i++) {
		const karg *a = &in->args[i];
		int e = a->kind == A_U32 ? ocl_arg_u32(o, i, a->u) :
			a->kind == A_F32 ? ocl_arg_f32(o, i, a->f) : ocl_arg_buf(o, i, ids[a->buf]);
		if (e)
			goto fail;
	}
	unsigned dims = in->grid.y > 1 || in->block.y > 1 ? 2 : 1;
	size_t global[2] = { (size_t)in->grid.x * in->block.x, (size_t)in->grid.y * in->block.y };
	size_t local[2] = { in->block.x, in->block.y };
	/* POCL compiles for the work-group size at the first enqueue: warm up */
	unsigned runs = og ? 1 : opt.reps + 1;
	double best = INFINITY;
	for (unsigned rep = 0; rep < runs; rep++) {
		for (unsigned i = 0; i < in->nbufs; i++)
			if (in->bufs[i].out) {
				memset(in->bufs[i].p, 0, in->bufs[i].bytes);
				if (ocl_write(o, ids[i], in->bufs[i].p, in->bufs[i].bytes))
					goto fail;
			}
		double t;
		if (ocl_run(o, dims, global, local, &t))
			goto fail;
		if ((og || rep > 0) && t < best)
			best = t;
	}
	for (unsigned i = 0; i < in->nbufs; i++)
		if (in->bufs[i].out && ocl_read(o, ids[i], in->bufs[i].p, in->bufs[i].bytes))
			goto fail;
	r->seconds = best;
	r->ctas = in->ctas;
	r->hash = inst_hash(in);
	r->status = RS_OK;
	goto out;
fail:
	note(r, "%s", ocl_error(o));
	r->status = RS_ERROR;
out:
	free(src);
	ocl_close(o);
}

/* ---- children */

static void child_body(const bench *b, const runspec *rs, result *r)
{
	memset(r, 0, sizeof *r);
	if (rs->cores == 1 && pin_one_cpu())
		note(r, "cannot confine the run to one CPU: %s", strerror(errno));
	if (rs->k == K_PROBE) {
		inst none;
		memset(&none, 0, sizeof none);
		run_ocl(b, rs, &none, r);
		return;
	}
	inst in;
	inst_make(b, rs->scale, &in);
	r->scale = rs->scale;
	r->work = in.work;
	uint64_t ref = 0;
	if (rs->k == K_OCLGRIND) {
		/* the reference of this (small) instance, computed here */
		b->cref(&in, 0, in.ctas);
		ref = inst_hash(&in);
		inst_reset_outputs(&in);
	}
	switch (rs->k) {
	case K_CSERIAL:
	case K_CPTHREADS:
		run_c(b, rs, &in, r);
		break;
	case K_EMU:
		run_emu(b, rs, &in, r);
		break;
	case K_POCL:
	case K_OCLGRIND:
		run_ocl(b, rs, &in, r);
		break;
	case K_HANDOFF:
		run_handoff(&in, r);
		break;
	case K_PROBE:
		break;
	}
	if (rs->k == K_OCLGRIND && r->status == RS_OK && r->hash != ref) {
		r->status = RS_FAIL;
		note(r, "result differs from the C reference");
	}
	inst_free(&in);
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static size_t read_all(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, c + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

static char self_exe[4096];

/* Run one configuration in a child; for K_OCLGRIND the child execs
 * `oclgrind wbench --ocl-worker ...`. */
static void run_child(const bench *b, const runspec *rs, result *r)
{
	int fds[2];
	memset(r, 0, sizeof *r);
	r->scale = rs->scale;
	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (rs->k == K_OCLGRIND) {
			char nt[16], sc[32], fd[16];
			snprintf(nt, sizeof nt, "%u", rs->threads);
			snprintf(sc, sizeof sc, "%llu", (unsigned long long)rs->scale);
			snprintf(fd, sizeof fd, "%d", fds[1]);
			char *argv[] = { (char *)opt.oclgrind, "--num-threads", nt, self_exe,
					 "--ocl-worker", (char *)b->name, "--scale", sc,
					 "--srcdir", (char *)opt.srcdir, "--result-fd", fd, NULL };
			alarm((unsigned)opt.timeout + 60); /* kept across exec */
			execvp(opt.oclgrind, argv);
			result e;
			memset(&e, 0, sizeof e);
			e.status = RS_SKIP;
			note(&e, "cannot run %s: %s", opt.oclgrind, strerror(errno));
			(void)write_all(fds[1], &e, sizeof e);
			_exit(127);
		}
		alarm((unsigned)opt.timeout + 60);
		result res;
		child_body(b, rs, &res);
		(void)write_all(fds[1], &res, sizeof res);
		_exit(0);
	}
	close(fds[1]);
	size_t got = read_all(fds[0], r, sizeof *r);
	close(fds[0]);
	int wst = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	while (wait4(pid, &wst, 0, &ru) < 0)
		if (errno != EINTR)
			die("wait4: %s", strerror(errno));
	if (got != sizeof *r) {
		memset(r, 0, sizeof *r);
		r->status = RS_ERROR;
		if (WIFSIGNALED(wst))
			note(r, "the run was killed by signal %d (%s)%s", WTERMSIG(wst), strsignal(WTERMSIG(wst)),
			     WTERMSIG(wst) == SIGALRM ? ": timed out" : "");
		else
			note(r, "the run exited with status %d and no result", WEXITSTATUS(wst));
	}
	r->scale = rs->scale;
	r->rss_kib = ru.ru_maxrss;
}

/* ================================================================ the suite */

#define NEMU 4
typedef struct bres {
	const bench *b;
	uint64_t scale, wt_scale, og_scale;
	result cser, cpt, emu[NEMU], pocl, og;
	result handoff;        /* barrier only: the bare pthreads hand-off */
	runspec emu_spec[NEMU];
	bool ran;
} bres;

static bool pocl_ok, og_ok;
static double load_before = NAN, load_after = NAN;

/* The 1-minute load average (NAN if unknown): other work on the machine
 * skews every figure, so it is reported with them. */
static double loadavg1(void)
{
	double l = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = NAN;
		fclose(f);
	}
	return l;
}
static char pocl_dev[160], pocl_why[600], og_why[600];
static unsigned ncores;

/* ---- the CPUs' speed: one fixed loop, timed on each CPU this process
 * may use at the start of each round and after the last.  A VM's CPUs
 * do not always run at one speed (here one of two ran 1.5x slower for
 * minutes, bench/README.md): the all-cores figures then go with the
 * slow one, and the table says so beside them. */
#define PROBE_CPUS 64
#define PROBE_STEPS (1u << 22)
#define PROBE_SLOW 1.15 /* a CPU this much slower than the fastest: noticed */
typedef struct cpu_probe {
	unsigned n;
	int cpu[PROBE_CPUS];
	double ns[PROBE_CPUS];       /* per step of the loop, the best of three */
	double together[PROBE_CPUS]; /* the same with every CPU running it at
					once (probe_together; 0: one CPU) */
} cpu_probe;
static cpu_probe probes[65]; /* rounds, then the end (--rounds <= 64) */
static unsigned nprobes;

/* One timing of the loop: a chain of dependent multiplies, ns per step */
static double probe_loop(void)
{
	uint64_t v = UINT64_C(0x9e3779b97f4a7c15);
	const double t0 = now();
	for (unsigned i = 0; i < PROBE_STEPS; i++) {
		v ^= v >> 29;
		v *= UINT64_C(0xbf58476d1ce4e5b9);
	}
	const double t = now() - t0;
	volatile uint64_t keep = v; /* (the loop must run) */
	(void)keep;
	return t * 1e9 / PROBE_STEPS;
}

/* One CPU's share of probe_together: the loop three times, each start
 * at the same moment as the other CPUs' (go). */
typedef struct probe_arg {
	int cpu;
	pthread_barrier_t *go;
	double ns;
} probe_arg;

static void *probe_thread(void *arg)
{
	probe_arg *a = arg;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(a->cpu, &one);
	int e = pthread_setaffinity_np(pthread_self(), sizeof one, &one);
	if (e)
		die("pthread_setaffinity_np (CPU %d): %s", a->cpu, strerror(e));
	a->ns = INFINITY;
	for (int r = 0; r < 3; r++) {
		e = pthread_barrier_wait(a->go);
		if (e && e != PTHREAD_BARRIER_SERIAL_THREAD)
			die("pthread_barrier_wait: %s", strerror(e));
		const double t = probe_loop();
		a->ns = t < a->ns ? t : a->ns;
	}
	return NULL;
}

/* The loop on all of p's CPUs at once, into p->together: a VM's vCPUs
 * can each run at full speed alone and slower when both are busy (the
 * fourteenth session's runs, bench/README.md), which the one-at-a-time
 * probe does not see. */
static void probe_together(cpu_probe *p)
{
	if (p->n < 2)
		return;
	pthread_barrier_t go;
	int e = pthread_barrier_init(&go, NULL, p->n);
	if (e)
		die("pthread_barrier_init: %s", strerror(e));
	pthread_t t[PROBE_CPUS];
	probe_arg a[PROBE_CPUS];
	for (unsigned j = 0; j < p->n; j++) {
		a[j] = (probe_arg){ .cpu = p->cpu[j], .go = &go };
		e = pthread_create(&t[j], NULL, probe_thread, &a[j]);
		if (e)
			die("pthread_create: %s", strerror(e));
	}
	for (unsigned j = 0; j < p->n; j++) {
		e = pthread_join(t[j], NULL);
		if (e)
			die("pthread_join: %s", strerror(e));
		p->together[j] = a[j].ns;
	}
	e = pthread_barrier_destroy(&go);
	if (e)
		die("pthread_barrier_destroy: %s", strerror(e));
}

static void probe_cpus(cpu_probe *p)
{
	cpu_set_t all;
	p->n = 0;
	if (sched_getaffinity(0, sizeof all, &all))
		die("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && p->n < PROBE_CPUS; c++) {
		if (!CPU_ISSET(c, &all))
			continue;
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof one, &one))
			die("sched_setaffinity (CPU %d): %s", c, strerror(errno));
		double best = INFINITY;
		for (int r = 0; r < 3; r++) {
			const double t = probe_loop();
			best = t < best ? t : best;
		}
		p->cpu[p->n] = c;
		p->ns[p->n] = best;
		p->n++;
	}
	if (sched_setaffinity(0, sizeof all, &all))
		die("sched_setaffinity: %s", strerror(errno));
	probe_together(p);
}

static double probe_fastest(const cpu_probe *p)
{
	double f = INFINITY;
	for (unsigned k = 0; k < p->n; k++)
		f = p->ns[k] < f ? p->ns[k] : f;
	return f;
}

/* Probe k's name: "round N" or "end" */
static void probe_name(unsigned k, char *buf, size_t len)
{
	if (k + 1 < nprobes)
		snprintf(buf, len, "round %u", k + 1);
	else
		snprintf(buf, len, "end");
}

static void print_probes(void)
{
	printf("CPU speed: one fixed loop on each CPU, ns per step (x the fastest's time), at the start of "
	       "each round and at the end; then on all CPUs at once (x each one's time alone)\n");
	for (unsigned k = 0; k < nprobes; k++) {
		const cpu_probe *p = &probes[k];
		const double f = probe_fastest(p);
		char name[32];
		probe_name(k, name, sizeof name);
		printf("  %-9s", name);
		bool slow = false;
		for (unsigned j = 0; j < p->n; j++) {
			printf(" CPU %d %.3f (%.2fx)", p->cpu[j], p->ns[j], p->ns[j] / f);
			slow |= p->ns[j] > f * PROBE_SLOW;
		}
		printf("%s\n", slow ? "  a slow CPU: the all-cores figures are skewed" : "");
		if (p->n < 2)
			continue;
		printf("  %-9s", "together");
		bool each_other = false;
		for (unsigned j = 0; j < p->n; j++) {
			printf(" CPU %d %.3f (%.2fx alone)", p->cpu[j], p->together[j], p->together[j] / p->ns[j]);
			each_other |= p->together[j] > p->ns[j] * PROBE_SLOW;
		}
		printf("%s\n", each_other ? "  the CPUs slow each other down: the all-cores figures are skewed" : "");
	}
}

static const char *status_word(int s)
{
	return s == RS_OK ? "PASS" : s == RS_FAIL ? "FAIL" : s == RS_SKIP ? "n/a" : "ERROR";
}

static bool selected(const char *name)
{
	if (!opt.only)
		return true;
	size_t n = strlen(name);
	for (const char *p = opt.only; *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == n && !strncmp(p, name, n))
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

typedef struct refent {
	const bench *b;
	uint64_t scale, hash;
	int status;
} refent;
static refent refs[64];
static unsigned nrefs;

/* The C serial hash of b at scale (running the reference if needed). */
static int ref_hash(const bench *b, uint64_t scale, uint64_t *h)
{
	for (unsigned i = 0; i < nrefs; i++)
		if (refs[i].b == b && refs[i].scale == scale) {
			*h = refs[i].hash;
			return refs[i].status;
		}
	runspec rs = { .k = K_CSERIAL, .cores = 1, .threads = 1, .scale = scale };
	result r;
	run_child(b, &rs, &r);
	if (nrefs < sizeof refs / sizeof refs[0])
		refs[nrefs++] = (refent){ b, scale, r.hash, r.status };
	*h = r.hash;
	return r.status;
}

static void verify(const bench *b, result *r)
{
	if (r->status != RS_OK)
		return;
	uint64_t h;
	if (ref_hash(b, r->scale, &h) != RS_OK) {
		r->status = RS_ERROR;
		note(r, "no C reference to compare with");
	} else if (h != r->hash) {
		r->status = RS_FAIL;
		note(r, "result differs from the C reference");
	}
}

static void progress(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

/* A later round's run of a configuration into the figures of the rounds
 * before (--rounds): its time if better; its failure, said to be the
 * round's, replaces them.  The rest (the compiled tier's first time,
 * compile and load) stays the first round's. */
static void merge_round(result *into, const result *r, unsigned round)
{
	if (into->status != RS_OK)
		return;
	if (r->status != RS_OK) {
		*into = *r;
		char was[sizeof into->note];
		memcpy(was, into->note, sizeof was);
		note(into, "round %u: %s", round + 1, was);
		return;
	}
	if (r->seconds < into->seconds)
		into->seconds = r->seconds;
	if (r->rss_kib > into->rss_kib)
		into->rss_kib = r->rss_kib;
}

/* Configuration rs of b in round `round` into *into (checked against
 * the C reference unless it is the reference). */
static void run_config(const bench *b, const runspec *rs, result *into, unsigned round, bool check)
{
	result r, *got = round ? &r : into;
	run_child(b, rs, got);
	if (check)
		verify(b, got);
	if (round)
		merge_round(into, &r, round);
}

/* Round `round` of benchmark br: every configuration once, one after
 * the other; Oclgrind in the first round only (it takes the longest,
 * and its ratio is far from any limit's edge). */
static void run_bench(bres *br, unsigned round)
{
	const bench *b = br->b;
	br->ran = true;
	if (opt.rounds > 1)
		progress("wbench: %u/%u %-13s", round + 1, opt.rounds, b->name);
	else
		progress("wbench: %-13s", b->name);
	runspec rs = { .k = K_CSERIAL, .cores = 1, .threads = 1, .scale = br->scale };
	run_config(b, &rs, &br->cser, round, round > 0);
	if (round == 0 && nrefs < sizeof refs / sizeof refs[0])
		refs[nrefs++] = (refent){ b, br->scale, br->cser.hash, br->cser.status };
	progress(" C");
	rs = (runspec){ .k = K_CPTHREADS, .cores = ncores, .threads = ncores, .scale = br->scale };
	run_config(b, &rs, &br->cpt, round, true);
	progress(" Cpt");
	for (unsigned i = 0; i < NEMU; i++) {
		we_engine e = i < 2 ? WE_ENGINE_SCHEDULER : WE_ENGINE_WARP_THREADS;
		unsigned c = i % 2 ? ncores : 1;
		br->emu_spec[i] = (runspec){ .k = K_EMU, .engine = e, .cores = c, .threads = c,
					     .scale = e == WE_ENGINE_WARP_THREADS ? br->wt_scale : br->scale };
		if (i % 2 && ncores == 1) {
			br->emu[i] = br->emu[i - 1];
			continue;
		}
		run_config(b, &br->emu_spec[i], &br->emu[i], round, true);
		progress(" %s/%u", e == WE_ENGINE_SCHEDULER ? "sched" : "wt", c);
	}
	if (!strcmp(b->name, "barrier")) {
		/* beside warp-threads on one core: the same number of
		 * 32-thread meetings */
		rs = (runspec){ .k = K_HANDOFF, .cores = 1, .threads = HANDOFF_THREADS, .scale = br->wt_scale };
		run_config(b, &rs, &br->handoff, round, false);
		progress(" handoff");
	} else {
		br->handoff.status = RS_SKIP;
	}
	if (pocl_ok) {
		rs = (runspec){ .k = K_POCL, .cores = ncores, .threads = ncores, .scale = br->scale };
		run_config(b, &rs, &br->pocl, round, true);
		progress(" POCL");
	} else {
		br->pocl.status = RS_SKIP;
		note(&br->pocl, "%s", pocl_why);
	}
	if (og_ok && round == 0) {
		rs = (runspec){ .k = K_OCLGRIND, .cores = ncores, .threads = ncores, .scale = br->og_scale };
		run_child(b, &rs, &br->og);
		progress(" Oclgrind");
	} else if (!og_ok) {
		br->og.status = RS_SKIP;
		note(&br->og, "%s", og_why);
	}
	progress("\n");
}

/* ---- derived numbers */

/* A run that finished, with a right result or not, has figures. */
static bool measured(const result *r)
{
	return (r->status == RS_OK || r->status == RS_FAIL) && r->seconds > 0;
}

static double rate(const result *r, uint64_t n)
{
	return measured(r) ? (double)n / r->seconds : NAN;
}

/* time per unit of work of a relative to b: > 1 when a is slower */
static double slowdown(const result *a, const result *b)
{
	if (a->status != RS_OK || b->status != RS_OK || !a->work || !b->work || a->seconds <= 0 ||
	    b->seconds <= 0)
		return NAN;
	return (a->seconds / (double)a->work) / (b->seconds / (double)b->work);
}

static const bres *find(const bres *all, const char *name)
{
	for (unsigned i = 0; i < NBENCH; i++)
		if (all[i].ran && !strcmp(all[i].b->name, name))
			return &all[i];
	return NULL;
}

typedef struct target {
	const char *name;
	const char *rule;      /* how the value is measured */
	const char *unit;
	double value, limit;
	bool at_least;         /* PASS when value >= limit (else <=) */
	const char *why;       /* n/a reason */
} target;

static const char *target_word(const target *t)
{
	if (isnan(t->value))
		return "n/a";
	return (t->at_least ? t->value >= t->limit : t->value <= t->limit) ? "PASS" : "MISS";
}

/* Why a target that needs run r of benchmark br (named name) has no value. */
static const char *why_missing(const bres *br, const char *name, const result *r, char *buf, size_t len)
{
	if (!br)
		snprintf(buf, len, "%s was not run", name);
	else if (r->status == RS_SKIP)
		snprintf(buf, len, "%.150s", r->note);
	else if (r->status != RS_OK)
		snprintf(buf, len, "the %s run needed did not pass (%s)", name, status_word(r->status));
	else
		snprintf(buf, len, "no value");
	return buf;
}

/* Issue 19's targets: the nine benchmarks besides barrier against POCL
 * (scheduler engine, all cores: the geometric mean of the time ratios,
 * and the worst) and against serial C (one core: the geometric mean),
 * and reduce against Oclgrind; n/a unless all nine have the figure. */
static unsigned issue19_targets(const bres *all, target *t, char why[][160])
{
	static const char *const nine[] = { "alu",	 "triad",   "reduce", "scan",	 "transpose",
					    "histogram", "diverge", "tiny",   "prodcons" };
	const unsigned nn = (unsigned)(sizeof nine / sizeof nine[0]);
	double lp = 0, lc = 0, worst = 0;
	unsigned np = 0, nc = 0;
	for (unsigned k = 0; k < nn; k++) {
		const bres *b = find(all, nine[k]);
		const double rp = b ? slowdown(&b->emu[1], &b->pocl) : NAN;
		const double rc = b && b->b->c_baseline ? slowdown(&b->emu[0], &b->cser) : NAN;
		if (!isnan(rp)) {
			lp += log(rp);
			worst = rp > worst ? rp : worst;
			np++;
		}
		if (!isnan(rc)) {
			lc += log(rc);
			nc++;
		}
	}
	snprintf(why[0], 160, "POCL's or warpemu's figure for %u of the 9 benchmarks", nn - np);
	t[0] = (target){ "geomean vs POCL, 9 benchmarks",
			 "all but barrier, scheduler engine, all cores: time / POCL time", "x",
			 np == nn ? exp(lp / nn) : NAN, 1.0, false, why[0] };
	t[1] = (target){ "worst vs POCL, 9 benchmarks", "the largest of those ratios", "x",
			 np == nn ? worst : NAN, 2.0, false, why[0] };
	snprintf(why[2], 160, "serial C's or warpemu's figure for %u of the 9 benchmarks", nn - nc);
	t[2] = (target){ "geomean 1 core vs serial C", "all but barrier, scheduler engine, 1 core: time / C time",
			 "x", nc == nn ? exp(lc / nn) : NAN, 3.0, false, why[2] };
	const bres *red = find(all, "reduce");
	snprintf(why[3], 160, "reduce or Oclgrind was not run");
	t[3] = (target){ "reduce vs Oclgrind, issue 19",
			 "reduce, scheduler engine, all cores: ints/s / Oclgrind ints/s", "x",
			 red ? slowdown(&red->og, &red->emu[1]) : NAN, 3000, true, why[3] };
	return 4;
}

static unsigned compute_targets(const bres *all, target *t, char why[][160])
{
	unsigned n = 0;
	const bres *alu = find(all, "alu"), *red = find(all, "reduce"), *bar = find(all, "barrier"),
		   *tiny = find(all, "tiny");
	static const result none = { .status = RS_ERROR };
	/* emu[0] = scheduler on one core, emu[1] = scheduler on all cores */
	const result *alu1 = alu ? &alu->emu[0] : &none, *alun = alu ? &alu->emu[1] : &none;
	const result *red1 = red ? &red->emu[0] : &none, *redn = red ? &red->emu[1] : &none;
	const result *bar1 = bar ? &bar->emu[0] : &none, *tinyn = tiny ? &tiny->emu[1] : &none;

	t[n] = (target){ "ALU-bound throughput per core", "alu, scheduler engine, 1 core",
			 "G warp-instr/s", NAN, 0.35, true, why_missing(alu, "alu", alu1, why[n], 160) };
	if (alu1->status == RS_OK)
		t[n].value = rate(alu1, alu1->warp_insns) / 1e9;
	n++;
	t[n] = (target){ "BAR.SYNC cost per warp",
			 "barrier, 32-warp CTA, scheduler engine, 1 core: wall / warp-arrivals", "ns", NAN, 25,
			 false, why_missing(bar, "barrier", bar1, why[n], 160) };
	if (bar1->status == RS_OK)
		t[n].value = bar1->seconds * 1e9 / (double)bar1->work;
	n++;
	t[n] = (target){ "reduce vs POCL", "reduce, scheduler engine, all cores: time / POCL time", "x", NAN,
			 1.5, false,
			 redn->status == RS_OK && red ? why_missing(red, "POCL", &red->pocl, why[n], 160)
						      : why_missing(red, "reduce", redn, why[n], 160) };
	if (red)
		t[n].value = slowdown(redn, &red->pocl);
	n++;
	t[n] = (target){ "reduce vs Oclgrind", "reduce, scheduler engine, all cores: ints/s / Oclgrind ints/s",
			 "x", NAN, 1000, true,
			 redn->status == RS_OK && red ? why_missing(red, "Oclgrind", &red->og, why[n], 160)
						      : why_missing(red, "reduce", redn, why[n], 160) };
	if (red)
		t[n].value = slowdown(&red->og, redn);
	n++;
	t[n] = (target){ "tiny CTAs", "tiny, scheduler engine, all cores", "M CTAs/s", NAN, 5, true,
			 why_missing(tiny, "tiny", tinyn, why[n], 160) };
	if (tinyn->status == RS_OK)
		t[n].value = rate(tinyn, tinyn->ctas) / 1e6;
	n++;
	t[n] = (target){ "scaling, ALU", "alu, scheduler engine: time on 1 core / time on all cores", "x", NAN,
			 1.8, true,
			 ncores < 2 ? "one core only"
				    : why_missing(alu, "alu", alu1->status != RS_OK ? alu1 : alun, why[n], 160) };
	if (ncores > 1)
		t[n].value = slowdown(alu1, alun);
	n++;
	t[n] = (target){ "scaling, reduce", "reduce, scheduler engine: time on 1 core / time on all cores", "x",
			 NAN, 1.8, true,
			 ncores < 2 ? "one core only"
				    : why_missing(red, "reduce", red1->status != RS_OK ? red1 : redn, why[n], 160) };
	if (ncores > 1)
		t[n].value = slowdown(red1, redn);
	n++;
	/* the warp-threads engine (issue 19): BAR.SYNC within 1.5x of a bare
	 * hand-off of the same shape; all cores never slower than one */
	const result *wbar1 = bar ? &bar->emu[2] : &none;
	t[n] = (target){ "warp-threads BAR.SYNC vs hand-off",
			 "barrier, warp-threads engine, 1 core, per warp-arrival / pthreads hand-off of 32 threads",
			 "x", NAN, 1.5, false,
			 wbar1->status == RS_OK && bar ? why_missing(bar, "hand-off", &bar->handoff, why[n], 160)
							: why_missing(bar, "barrier", wbar1, why[n], 160) };
	if (bar)
		t[n].value = slowdown(wbar1, &bar->handoff);
	n++;
	/* issue 16: nvcc's PTX of the reduction at the speed of the
	 * hand-written kernel, per element, same engine and threads */
	const bres *pred = find(all, "ptx-reduce");
	const result *pred1 = pred ? &pred->emu[0] : &none;
	t[n] = (target){ "PTX reduce_smem vs reduce.we",
			 "ptx-reduce over reduce, scheduler engine, 1 core: time per element", "x", NAN, 1.3,
			 false,
			 red1->status == RS_OK && red ? why_missing(pred, "ptx-reduce", pred1, why[n], 160)
						      : why_missing(red, "reduce", red1, why[n], 160) };
	if (red && pred)
		t[n].value = slowdown(pred1, red1);
	n++;
	t[n] = (target){ "warp-threads scaling, worst", "every benchmark, warp-threads engine: time on 1 core / "
			 "time on all cores, the smallest", "x", NAN, 1.0, true, "one core only" };
	if (ncores > 1) {
		t[n].value = INFINITY;
		const bres *worst = NULL;
		for (unsigned i = 0; i < NBENCH; i++)
			if (all[i].ran && all[i].emu[2].status == RS_OK && all[i].emu[3].status == RS_OK &&
			    slowdown(&all[i].emu[2], &all[i].emu[3]) < t[n].value) {
				t[n].value = slowdown(&all[i].emu[2], &all[i].emu[3]);
				worst = &all[i];
			}
		if (isinf(t[n].value)) {
			t[n].value = NAN;
			t[n].why = "no warp-threads run passed";
		} else {
			/* the same work in C, serial / on every core: below 1
			 * where the machine itself does not scale it */
			const double c = worst->b->c_baseline ? slowdown(&worst->cser, &worst->cpt) : NAN;
			if (isnan(c))
				snprintf(why[n], sizeof why[n], "%s; here %s, no C baseline", t[n].rule,
					 worst->b->name);
			else
				snprintf(why[n], sizeof why[n], "%s; here %s, its C baseline measured the same way: %.3fx",
					 t[n].rule, worst->b->name, c);
			t[n].rule = why[n];
		}
	}
	n++;
	return n + issue19_targets(all, t + n, why + n);
}

/* ---- printing */

static void fmt_num(char *buf, size_t len, double v, const char *f)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, f, v);
}

static void fmt_count(char *buf, size_t len, uint64_t v)
{
	if (v >= 10000000)
		snprintf(buf, len, "%.1fM", (double)v / 1e6);
	else if (v >= 10000)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static const char *engine_short(we_engine e)
{
	return e == WE_ENGINE_WARP_THREADS ? "warp-threads" : "scheduler";
}

static const char *jit_name(we_jit j)
{
	return j == WE_JIT_ON ? "on" : j == WE_JIT_OFF ? "off" : "auto";
}

/* --jit-cache's default: a fresh directory for this bench run, which
 * every forked child uses (so a kernel's first configuration fills it and
 * the others load from it, as POCL's cache does once filled), removed at
 * the end. */
static char jit_dir[4096];
static void jit_cache_begin(void)
{
	if (opt.jit_cache || !we_jit_available() || opt.jit == WE_JIT_OFF)
		return;
	const char *t = getenv("TMPDIR");
	snprintf(jit_dir, sizeof jit_dir, "%s/wbench-jit.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(jit_dir))
		die("cannot make a directory for the disk cache (%s): %s", jit_dir, strerror(errno));
	opt.jit_cache = jit_dir;
	opt.jit_cache_fresh = true;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p) ? -1 : 0;
}

static void jit_cache_end(void)
{
	if (opt.jit_cache_fresh && nftw(jit_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "wbench: notice: cannot remove %s: %s\n", jit_dir, strerror(errno));
}

/* The compiled tier in the scheduler engine's runs: its state and the
 * disk cache's in the last repetition, the first repetition's time and
 * its compile or load. */
static void print_jit(const bres *all)
{
	if (!we_jit_available() || opt.jit == WE_JIT_OFF)
		return;
	printf("\ncompiled tier, scheduler engine (--jit %s): the last repetition's state and disk cache, the "
	       "first one's time, compile and load%s\n",
	       jit_name(opt.jit), opt.rounds > 1 ? " (of the first round; best s: of all)" : "");
	printf("%-13s %5s %-24s %-10s %9s %9s %9s %9s\n", "benchmark", "cores", "jit", "cache", "first s", "best s",
	       "compile s", "load s");
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		for (unsigned j = 0; br->ran && j < 2; j++) {
			const result *r = &br->emu[j];
			if ((j % 2 && ncores == 1) || !r->jit[0])
				continue;
			printf("%-13s %5u %-24s %-10s %9.4f %9.4f %9.4f %9.4f\n", br->b->name, br->emu_spec[j].cores, r->jit,
			       r->jit_cache, r->first_seconds, r->seconds, r->compile_seconds, r->load_seconds);
		}
	}
}

static void print_tables(const bres *all, const target *t, unsigned nt)
{
	printf("\nwarpemu %s on %u core%s, %s sizes, best of %u run%s", WE_VERSION_STRING, ncores,
	       ncores == 1 ? "" : "s", opt.quick ? "quick" : "full", opt.reps, opt.reps == 1 ? "" : "s");
	if (opt.rounds > 1)
		printf(" in each of %u rounds (Oclgrind: the first)", opt.rounds);
	printf("; every run is a forked child\n");
	if (opt.lockstep)
		printf("scheduler engine: lockstep groups of up to %u warp%s (--lockstep)\n", opt.lockstep,
		       opt.lockstep == 1 ? "" : "s");
	if (opt.batch)
		printf("scheduler engine: batches of up to %u CTA%s per worker (--batch)\n", opt.batch,
		       opt.batch == 1 ? "" : "s");
	printf("scheduler engine: compiled tier %s (--jit)%s\n", jit_name(opt.jit),
	       we_jit_available() ? "" : ", not built (no LLVM)");
	if (we_jit_available() && opt.jit != WE_JIT_OFF)
		printf("disk cache of compiled kernels (--jit-cache): %s\n",
		       opt.jit_cache_fresh ? "a fresh directory for this bench run: a kernel's first run compiles "
					     "or interprets, the others load or reuse its code"
					   : opt.jit_cache);
	printf("1-minute load average: %.2f before, %.2f after%s\n", load_before, load_after,
	       load_before > 0.5 || load_after > ncores + 0.5 ? " (other work was running: figures are skewed)"
								     : "");
	print_probes();
	printf("\n");
	printf("%-13s %-12s %5s %8s %9s %8s %8s %9s %11s %8s %-5s\n", "benchmark", "engine", "cores",
	       "work", "wall s", "Gwi/s", "Gti/s", "Mbar/s", "CTAs/s", "RSS MiB", "check");
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		if (!br->ran)
			continue;
		for (unsigned j = 0; j < NEMU; j++) {
			if (j % 2 && ncores == 1)
				continue;
			const result *r = &br->emu[j];
			char w[16], s[16], a[16], b2[16], c[16], d[16], rs[16];
			fmt_count(w, sizeof w, r->work);
			fmt_num(s, sizeof s, measured(r) ? r->seconds : NAN, "%.4g");
			fmt_num(a, sizeof a, rate(r, r->warp_insns) / 1e9, "%.4f");
			fmt_num(b2, sizeof b2, rate(r, r->thread_insns) / 1e9, "%.3f");
			fmt_num(c, sizeof c, rate(r, r->barriers) / 1e6, "%.3f");
			fmt_num(d, sizeof d, rate(r, r->ctas), "%.0f");
			fmt_num(rs, sizeof rs, (double)r->rss_kib / 1024.0, "%.1f");
			printf("%-13s %-12s %5u %8s %9s %8s %8s %9s %11s %8s %-5s\n", j ? "" : br->b->name,
			       engine_short(br->emu_spec[j].engine), br->emu_spec[j].cores, w, s, a, b2, c, d,
			       rs, status_word(r->status));
		}
	}
	printf("\n(work: in each benchmark's unit, see below; Gwi/s, Gti/s: 10^9 warp- and thread-"
	       "instructions per second; Mbar/s: 10^6 barrier completions per second)\n");

	printf("\nBaselines (seconds; ratios are warpemu's time per unit of work over the baseline's: "
	       ">1 = warpemu slower;\n  emu = scheduler engine; 1c = one core, %uc = all cores)\n\n", ncores);
	char h1[16], h2[16];
	snprintf(h1, sizeof h1, "%uc/Cpt", ncores);
	snprintf(h2, sizeof h2, "%uc/POCL", ncores);
	printf("%-13s %-14s %9s %9s %9s %9s %9s %8s %8s %8s %12s\n", "benchmark", "unit", "C serial",
	       "C pthr", "POCL", "Oclgrind", "og work", "1c/C", h1, h2, "Oclgrind/emu");
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		if (!br->ran)
			continue;
		char s1[16], s2[16], s3[16], s4[16], ow[16], r1[16], r2[16], r3[16], r4[16];
		bool cb = br->b->c_baseline;
		fmt_num(s1, sizeof s1, cb && br->cser.status == RS_OK ? br->cser.seconds : NAN, "%.4g");
		fmt_num(s2, sizeof s2, cb && br->cpt.status == RS_OK ? br->cpt.seconds : NAN, "%.4g");
		fmt_num(s3, sizeof s3, br->pocl.status == RS_OK ? br->pocl.seconds : NAN, "%.4g");
		fmt_num(s4, sizeof s4, br->og.status == RS_OK ? br->og.seconds : NAN, "%.4g");
		fmt_count(ow, sizeof ow, br->og.work);
		fmt_num(r1, sizeof r1, cb ? slowdown(&br->emu[0], &br->cser) : NAN, "%.1f");
		fmt_num(r2, sizeof r2, cb ? slowdown(&br->emu[1], &br->cpt) : NAN, "%.1f");
		fmt_num(r3, sizeof r3, slowdown(&br->emu[1], &br->pocl), "%.1f");
		fmt_num(r4, sizeof r4, slowdown(&br->og, &br->emu[1]), "%.0f");
		printf("%-13s %-14s %9s %9s %9s %9s %9s %8s %8s %8s %12s\n", br->b->name, br->b->unit, s1, s2,
		       s3, s4, br->og.status == RS_OK ? ow : "-", r1, r2, r3, r4);
	}
	/* failures and notes */
	printf("\n");
	if (!pocl_ok)
		printf("POCL: n/a: %s\n", pocl_why);
	else
		printf("POCL: %s\n", pocl_dev);
	if (!og_ok)
		printf("Oclgrind: n/a: %s\n", og_why);
	else
		printf("Oclgrind: %s --num-threads %u (on the smaller instances of column \"og work\")\n",
		       opt.oclgrind, ncores);
	bool any = false;
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		if (!br->ran)
			continue;
		const result *rs[] = { &br->cser, &br->cpt, &br->emu[0], &br->emu[1], &br->emu[2], &br->emu[3],
				       &br->pocl, &br->og };
		const char *nm[] = { "C serial", "C pthreads", "scheduler/1 core", "scheduler/all cores",
				     "warp-threads/1 core", "warp-threads/all cores", "POCL", "Oclgrind" };
		for (unsigned j = 0; j < 8; j++)
			if (rs[j]->note[0] && rs[j]->status != RS_SKIP) {
				if (!any)
					printf("\nNotes:\n");
				any = true;
				printf("  %s, %s: %s: %s\n", br->b->name, nm[j], status_word(rs[j]->status), rs[j]->note);
			}
	}
	printf("\nTargets (reported, not enforced)%s:\n", opt.quick ? " — quick sizes, indicative only" : "");
	for (unsigned i = 0; i < nt; i++) {
		char v[32];
		fmt_num(v, sizeof v, t[i].value, t[i].value < 10 ? "%.3f" : "%.1f");
		printf("  %-4s %-30s %10s %-14s (target %s %g; %s)%s%s\n", target_word(&t[i]), t[i].name, v,
		       t[i].unit, t[i].at_least ? ">=" : "<=", t[i].limit, t[i].rule,
		       isnan(t[i].value) ? ": " : "", isnan(t[i].value) ? t[i].why : "");
	}
}

/* ---- JSON */

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jnum(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static void json_result(FILE *f, const result *r, const char *indent)
{
	fprintf(f, "{\"status\": ");
	jstr(f, status_word(r->status));
	fprintf(f, ", \"scale\": %llu, \"work\": %llu", (unsigned long long)r->scale,
		(unsigned long long)r->work);
	fprintf(f, ", \"seconds\": ");
	jnum(f, measured(r) ? r->seconds : NAN);
	fprintf(f, ", \"peak_rss_kib\": %ld, \"work_per_s\": ", r->rss_kib);
	jnum(f, rate(r, r->work));
	if (r->warp_insns) {
		fprintf(f, ",\n%s \"ctas\": %llu, \"warp_instructions\": %llu, \"thread_instructions\": %llu, "
			"\"barriers\": %llu", indent, (unsigned long long)r->ctas,
			(unsigned long long)r->warp_insns, (unsigned long long)r->thread_insns,
			(unsigned long long)r->barriers);
		fprintf(f, ",\n%s \"warp_instructions_per_s\": ", indent);
		jnum(f, rate(r, r->warp_insns));
		fprintf(f, ", \"thread_instructions_per_s\": ");
		jnum(f, rate(r, r->thread_insns));
		fprintf(f, ", \"barriers_per_s\": ");
		jnum(f, rate(r, r->barriers));
		fprintf(f, ", \"ctas_per_s\": ");
		jnum(f, rate(r, r->ctas));
	}
	if (r->device[0]) {
		fprintf(f, ", \"device\": ");
		jstr(f, r->device);
	}
	if (r->jit[0]) {
		fprintf(f, ",\n%s \"jit\": ", indent);
		jstr(f, r->jit);
		fprintf(f, ", \"jit_cache\": ");
		jstr(f, r->jit_cache);
		fprintf(f, ", \"first_seconds\": ");
		jnum(f, r->first_seconds);
		fprintf(f, ", \"compile_seconds\": ");
		jnum(f, r->compile_seconds);
		fprintf(f, ", \"load_seconds\": ");
		jnum(f, r->load_seconds);
	}
	if (r->note[0]) {
		fprintf(f, ", \"note\": ");
		jstr(f, r->note);
	}
	fputc('}', f);
}

static void write_json(const char *path, const bres *all, const target *t, unsigned nt)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	struct utsname u;
	memset(&u, 0, sizeof u);
	uname(&u);
	char date[64] = "";
	time_t tt = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
	fprintf(f, "{\n \"warpemu_version\": ");
	jstr(f, WE_VERSION_STRING);
	fprintf(f, ",\n \"date\": ");
	jstr(f, date);
	fprintf(f, ",\n \"host\": {\"cores\": %u, \"system\": ", ncores);
	jstr(f, u.sysname);
	fprintf(f, ", \"release\": ");
	jstr(f, u.release);
	fprintf(f, ", \"machine\": ");
	jstr(f, u.machine);
	fprintf(f, ", \"loadavg_before\": ");
	jnum(f, load_before);
	fprintf(f, ", \"loadavg_after\": ");
	jnum(f, load_after);
	fprintf(f, ", \"cpu_probes\": [");
	for (unsigned k = 0; k < nprobes; k++) {
		char name[32];
		probe_name(k, name, sizeof name);
		fprintf(f, "%s{\"when\": \"%s\", \"ns_per_step\": {", k ? ", " : "", name);
		for (unsigned j = 0; j < probes[k].n; j++) {
			fprintf(f, "%s\"%d\": ", j ? ", " : "", probes[k].cpu[j]);
			jnum(f, probes[k].ns[j]);
		}
		fprintf(f, "}, \"together_ns_per_step\": {");
		for (unsigned j = 0; j < probes[k].n && probes[k].n > 1; j++) {
			fprintf(f, "%s\"%d\": ", j ? ", " : "", probes[k].cpu[j]);
			jnum(f, probes[k].together[j]);
		}
		fprintf(f, "}}");
	}
	fprintf(f, "]");
	fprintf(f, "},\n \"sizes\": ");
	jstr(f, opt.quick ? "quick" : "full");
	fprintf(f,
		",\n \"repetitions\": %u,\n \"rounds\": %u,\n \"lockstep\": %u,\n \"batch\": %u,\n \"jit\": \"%s\",\n"
		" \"pocl\": ",
		opt.reps, opt.rounds, opt.lockstep, opt.batch, jit_name(opt.jit));
	jstr(f, pocl_ok ? pocl_dev : pocl_why);
	fprintf(f, ",\n \"oclgrind\": ");
	jstr(f, og_ok ? opt.oclgrind : og_why);
	fprintf(f, ",\n \"benchmarks\": [");
	bool first = true;
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		if (!br->ran)
			continue;
		fprintf(f, "%s\n  {\"name\": ", first ? "" : ",");
		first = false;
		jstr(f, br->b->name);
		fprintf(f, ", \"description\": ");
		jstr(f, br->b->what);
		fprintf(f, ",\n   \"kernel\": ");
		jstr(f, br->b->wefile);
		fprintf(f, ", \"opencl\": ");
		jstr(f, br->b->clfile);
		fprintf(f, ", \"scale_is\": ");
		jstr(f, br->b->scale_is);
		fprintf(f, ", \"work_unit\": ");
		jstr(f, br->b->unit);
		fprintf(f, ",\n   \"runs\": [");
		for (unsigned j = 0; j < NEMU; j++) {
			fprintf(f, "%s\n    {\"engine\": ", j ? "," : "");
			jstr(f, engine_short(br->emu_spec[j].engine));
			fprintf(f, ", \"cores\": %u, \"threads\": %u, \"result\": ", br->emu_spec[j].cores,
				br->emu_spec[j].threads);
			json_result(f, &br->emu[j], "     ");
			fputc('}', f);
		}
		fprintf(f, "],\n   \"baselines\": {");
		const result *bs[] = { &br->cser, &br->cpt, &br->pocl, &br->og, &br->handoff };
		const char *bn[] = { "c_serial", "c_pthreads", "pocl", "oclgrind", "pthreads_handoff_1core" };
		for (unsigned j = 0; j < 5; j++) {
			fprintf(f, "%s\n    \"%s\": ", j ? "," : "", bn[j]);
			json_result(f, bs[j], "     ");
		}
		fprintf(f, "},\n   \"ratios\": {");
		for (unsigned e = 0; e < 2; e++) {
			const result *one = &br->emu[e * 2], *alln = &br->emu[e * 2 + 1];
			bool cb = br->b->c_baseline;
			fprintf(f, "%s\n    ", e ? "," : "");
			jstr(f, engine_short(e ? WE_ENGINE_WARP_THREADS : WE_ENGINE_SCHEDULER));
			fprintf(f, ": {\"slowdown_1core_vs_c_serial\": ");
			jnum(f, cb ? slowdown(one, &br->cser) : NAN);
			fprintf(f, ", \"slowdown_allcores_vs_c_pthreads\": ");
			jnum(f, cb ? slowdown(alln, &br->cpt) : NAN);
			fprintf(f, ", \"slowdown_allcores_vs_pocl\": ");
			jnum(f, slowdown(alln, &br->pocl));
			fprintf(f, ", \"speedup_allcores_vs_oclgrind\": ");
			jnum(f, slowdown(&br->og, alln));
			fprintf(f, ", \"scaling_allcores_vs_1core\": ");
			jnum(f, ncores > 1 ? slowdown(one, alln) : NAN);
			fputc('}', f);
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n ],\n \"targets\": [");
	for (unsigned i = 0; i < nt; i++) {
		fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
		jstr(f, t[i].name);
		fprintf(f, ", \"measured_as\": ");
		jstr(f, t[i].rule);
		fprintf(f, ", \"unit\": ");
		jstr(f, t[i].unit);
		fprintf(f, ", \"value\": ");
		jnum(f, t[i].value);
		fprintf(f, ", \"target\": ");
		jstr(f, t[i].at_least ? ">=" : "<=");
		fprintf(f, ", \"limit\": ");
		jnum(f, t[i].limit);
		fprintf(f, ", \"result\": ");
		jstr(f, target_word(&t[i]));
		fputc('}', f);
	}
	fprintf(f, "\n ]\n}\n");
	if (fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/* ---- gnuplot data: scaling.dat and ratios.dat (NaN = missing) */

static void write_dat(const char *dir, const bres *all)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/scaling.dat", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "# benchmark  speedup of all %u cores over 1 core: scheduler  warp-threads\n", ncores);
	for (unsigned i = 0; i < NBENCH; i++) {
		if (!all[i].ran)
			continue;
		double s = ncores > 1 ? slowdown(&all[i].emu[0], &all[i].emu[1]) : NAN;
		double w = ncores > 1 ? slowdown(&all[i].emu[2], &all[i].emu[3]) : NAN;
		fprintf(f, "%s %g %g\n", all[i].b->name, isnan(s) ? NAN : s, isnan(w) ? NAN : w);
	}
	if (fclose(f))
		die("cannot write %s", path);
	snprintf(path, sizeof path, "%s/ratios.dat", dir);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "# benchmark  warpemu (scheduler) time per unit of work / baseline's:"
		"  1c/C-serial  %uc/C-pthreads  %uc/POCL  %uc/Oclgrind\n", ncores, ncores, ncores);
	for (unsigned i = 0; i < NBENCH; i++) {
		const bres *br = &all[i];
		if (!br->ran)
			continue;
		bool cb = br->b->c_baseline;
		fprintf(f, "%s %g %g %g %g\n", br->b->name, cb ? slowdown(&br->emu[0], &br->cser) : NAN,
			cb ? slowdown(&br->emu[1], &br->cpt) : NAN, slowdown(&br->emu[1], &br->pocl),
			slowdown(&br->emu[1], &br->og));
	}
	if (fclose(f))
		die("cannot write %s", path);
}

/* ================================================================ main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wbench [options]\n"
		"  --srcdir DIR       source tree (kernels/, bench/kernels/, bench/opencl/, tests/ptx/); default .\n"
		"  --json FILE        write the results as JSON (and the gnuplot .dat files beside it)\n"
		"  --dat-dir DIR      where to write scaling.dat and ratios.dat (default: the JSON's directory)\n"
		"  --quick            small sizes: a smoke run of a few seconds\n"
		"  --only A,B,...     run only these benchmarks (--list shows them)\n"
		"  --size NAME=N      scale of benchmark NAME (see --list); also --wt-size, --og-size\n"
		"                     for the warp-threads engine and for Oclgrind\n"
		"  --reps N           best of N timed runs (default 1)\n"
		"  --rounds N         the whole suite N times over, each configuration once in\n"
		"                     each, keeping its best time (default 1): a stretch of\n"
		"                     slow CPU time then skews no ratio alone\n"
		"  --cores N          the all-cores runs use N threads (default: the CPUs this\n"
		"                     process may use)\n"
		"  --timeout S        give up on a run after S seconds (default 900)\n"
		"  --lockstep N       scheduler engine: lockstep groups of up to N warps\n"
		"                     (default: the library's; 1 = one warp at a time)\n"
		"  --batch N          scheduler engine: N CTAs side by side per worker\n"
		"                     (default: the library's; 1 = groups within a CTA)\n"
		"  --jit MODE         scheduler engine: the compiled tier, auto (default), on\n"
		"                     or off\n"
		"  --jit-cache DIR    its disk cache of compiled kernels, or off (default: a\n"
		"                     fresh directory for this bench run, removed after it,\n"
		"                     as POCL's cache starts empty: a kernel's first run fills\n"
		"                     it, the others load its code)\n"
		"  --no-pocl, --no-oclgrind   skip these baselines\n"
		"  --oclgrind PROG    the Oclgrind command (default oclgrind)\n"
		"  --list             list the benchmarks and their default scales\n"
		"Targets are reported as PASS/MISS and never change the exit status, which is\n"
		"1 when a warpemu run gave a wrong result or failed, 2 on a usage error, else 0.\n");
}

typedef struct scale_override {
	const char *name;
	uint64_t v;
	int which; /* 0 full, 1 wt, 2 oclgrind */
} scale_override;

static scale_override overrides[64];
static unsigned noverrides;

static uint64_t parse_u64(const char *s, const char *what)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (errno || *e || !*s || v == 0)
		die("bad %s: %s", what, s);
	return v;
}

static we_jit parse_jit(const char *s)
{
	if (!strcmp(s, "auto"))
		return WE_JIT_AUTO;
	if (!strcmp(s, "on") && we_jit_available())
		return WE_JIT_ON;
	if (!strcmp(s, "off"))
		return WE_JIT_OFF;
	die("bad --jit: %s (auto, on or off; on needs a build with LLVM)", s);
	return WE_JIT_AUTO;
}

static void add_override(const char *arg, int which)
{
	const char *eq = strchr(arg, '=');
	if (!eq || noverrides == sizeof overrides / sizeof overrides[0])
		die("bad size option: %s (want NAME=N)", arg);
	char *name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		die("out of memory");
	overrides[noverrides++] = (scale_override){ name, parse_u64(eq + 1, "size"), which };
}

static uint64_t scale_for(const bench *b, int which)
{
	for (unsigned i = noverrides; i-- > 0;)
		if (overrides[i].which == which && !strcmp(overrides[i].name, b->name))
			return overrides[i].v;
	if (which == 1) {
		/* a full-size override applies to the warp-threads engine too */
		for (unsigned i = noverrides; i-- > 0;)
			if (overrides[i].which == 0 && !strcmp(overrides[i].name, b->name))
				return overrides[i].v;
		return opt.quick ? b->wt_quick : b->wt_full;
	}
	return which == 2 ? (opt.quick ? b->og_quick : b->og_full) : opt.quick ? b->quick : b->full;
}

static const bench *bench_named(const char *name)
{
	for (unsigned i = 0; i < NBENCH; i++)
		if (!strcmp(benches[i].name, name))
			return &benches[i];
	return NULL;
}

static bool in_path(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path)
		return false;
	char buf[4096];
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)l, p, prog);
		if (l && access(buf, X_OK) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

static int worker_main(void)
{
	const bench *b = bench_named(opt.worker);
	if (!b)
		die("no benchmark %s", opt.worker);
	runspec rs = { .k = K_OCLGRIND, .cores = 0, .threads = 0, .scale = opt.worker_scale };
	result r;
	child_body(b, &rs, &r);
	if (opt.result_fd >= 0) {
		if (write_all(opt.result_fd, &r, sizeof r))
			die("cannot write the result: %s", strerror(errno));
	} else {
		printf("%s: %s %.6f s %s\n", b->name, status_word(r.status), r.seconds, r.note);
	}
	return 0;
}

/* The command line into opt (--list and --help print and exit 0, a bad
 * option exits 2); the --dat-dir given, or NULL. */
static const char *parse_args(int argc, char **argv)
{
	const char *dat = NULL;
	opt.oclgrind = "oclgrind";
	if (getenv("top_srcdir"))
		opt.srcdir = getenv("top_srcdir");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (die("%s needs a value", a), ""))
		if (!strcmp(a, "--srcdir"))
			opt.srcdir = NEXT();
		else if (!strcmp(a, "--json"))
			opt.json = NEXT();
		else if (!strcmp(a, "--dat-dir"))
			dat = NEXT();
		else if (!strcmp(a, "--quick"))
			opt.quick = true;
		else if (!strcmp(a, "--only"))
			opt.only = NEXT();
		else if (!strcmp(a, "--size"))
			add_override(NEXT(), 0);
		else if (!strcmp(a, "--wt-size"))
			add_override(NEXT(), 1);
		else if (!strcmp(a, "--og-size"))
			add_override(NEXT(), 2);
		else if (!strcmp(a, "--reps"))
			opt.reps = (unsigned)parse_u64(NEXT(), "--reps");
		else if (!strcmp(a, "--rounds")) {
			opt.rounds = (unsigned)parse_u64(NEXT(), "--rounds");
			if (opt.rounds > 64)
				die("--rounds: at most 64");
		}
		else if (!strcmp(a, "--lockstep"))
			opt.lockstep = (unsigned)parse_u64(NEXT(), "--lockstep");
		else if (!strcmp(a, "--batch"))
			opt.batch = (unsigned)parse_u64(NEXT(), "--batch");
		else if (!strcmp(a, "--jit"))
			opt.jit = parse_jit(NEXT());
		else if (!strcmp(a, "--jit-cache"))
			opt.jit_cache = NEXT();
		else if (!strcmp(a, "--cores"))
			opt.cores = (unsigned)parse_u64(NEXT(), "--cores");
		else if (!strcmp(a, "--timeout"))
			opt.timeout = (double)parse_u64(NEXT(), "--timeout");
		else if (!strcmp(a, "--no-pocl"))
			opt.no_pocl = true;
		else if (!strcmp(a, "--no-oclgrind"))
			opt.no_oclgrind = true;
		else if (!strcmp(a, "--oclgrind"))
			opt.oclgrind = NEXT();
		else if (!strcmp(a, "--ocl-worker"))
			opt.worker = NEXT();
		else if (!strcmp(a, "--scale"))
			opt.worker_scale = parse_u64(NEXT(), "--scale");
		else if (!strcmp(a, "--result-fd"))
			opt.result_fd = (int)parse_u64(NEXT(), "--result-fd");
		else if (!strcmp(a, "--list")) {
			printf("%-13s %-16s %10s %10s %10s %10s  %s\n", "benchmark", "scale is", "full", "quick",
			       "wt full", "Oclgrind", "what");
			for (unsigned k = 0; k < NBENCH; k++)
				printf("%-13s %-16s %10llu %10llu %10llu %10llu  %s\n", benches[k].name,
				       benches[k].scale_is, (unsigned long long)benches[k].full,
				       (unsigned long long)benches[k].quick, (unsigned long long)benches[k].wt_full,
				       (unsigned long long)benches[k].og_full, benches[k].what);
			exit(0);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			usage(stderr);
			exit(2);
		}
#undef NEXT
	}
	return dat;
}

int main(int argc, char **argv)
{
	const char *dat = parse_args(argc, argv);
	if (opt.worker)
		return worker_main();
	if (opt.only)
		for (const char *p = opt.only; *p;) {
			const char *e = strchr(p, ',');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			bool found = false;
			for (unsigned k = 0; k < NBENCH; k++)
				found |= strlen(benches[k].name) == l && !strncmp(benches[k].name, p, l);
			if (!found)
				die("no benchmark %.*s (--list shows them)", (int)l, p);
			if (!e)
				break;
			p = e + 1;
		}
	for (unsigned k = 0; k < noverrides; k++)
		if (!bench_named(overrides[k].name))
			die("no benchmark %s (--list shows them)", overrides[k].name);
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
	if (n <= 0)
		die("cannot find this program (/proc/self/exe): %s", strerror(errno));
	self_exe[n] = 0;
	ncores = opt.cores ? opt.cores : affinity_cores();
	if (ncores < 1)
		ncores = 1;

	/* the baselines available */
	if (opt.no_pocl) {
		snprintf(pocl_why, sizeof pocl_why, "skipped (--no-pocl)");
	} else {
		runspec rs = { .k = K_PROBE, .cores = ncores, .threads = ncores };
		result r;
		run_child(&benches[0], &rs, &r);
		pocl_ok = r.status == RS_OK;
		snprintf(pocl_dev, sizeof pocl_dev, "%s", r.device);
		snprintf(pocl_why, sizeof pocl_why, "%s", r.note);
	}
	if (!pocl_ok && !opt.no_pocl)
		fprintf(stderr, "wbench: notice: POCL is not available (%s): its ratios are n/a; "
			"bench/setup.sh installs it\n", pocl_why);
	if (opt.no_oclgrind)
		snprintf(og_why, sizeof og_why, "skipped (--no-oclgrind)");
	else if (!in_path(opt.oclgrind))
		snprintf(og_why, sizeof og_why, "%s not found", opt.oclgrind);
	else
		og_ok = true;
	if (!og_ok && !opt.no_oclgrind)
		fprintf(stderr, "wbench: notice: Oclgrind is not available (%s): its ratios are n/a; "
			"bench/setup.sh installs it\n", og_why);
	if (pocl_ok)
		fprintf(stderr, "wbench: POCL: %s\n", pocl_dev);

	jit_cache_begin();
	load_before = loadavg1();
	if (load_before > 0.5)
		fprintf(stderr, "wbench: notice: the load average is %.2f: other work on the machine will skew "
			"the figures\n", load_before);
	bres all[NBENCH];
	memset(all, 0, sizeof all);
	double t0 = now();
	for (unsigned i = 0; i < NBENCH; i++) {
		all[i].b = &benches[i];
		all[i].scale = scale_for(&benches[i], 0);
		all[i].wt_scale = scale_for(&benches[i], 1);
		all[i].og_scale = scale_for(&benches[i], 2);
	}
	for (unsigned round = 0; round < opt.rounds; round++) {
		probe_cpus(&probes[nprobes++]);
		for (unsigned i = 0; i < NBENCH; i++)
			if (selected(benches[i].name))
				run_bench(&all[i], round);
	}
	probe_cpus(&probes[nprobes++]);
	load_after = loadavg1();
	target t[16];
	char why[16][160];
	unsigned nt = compute_targets(all, t, why);
	print_tables(all, t, nt);
	print_jit(all);
	jit_cache_end();
	printf("\n(%.0f s in all)\n", now() - t0);
	if (opt.json) {
		write_json(opt.json, all, t, nt);
		char dir[4096];
		if (!dat) {
			snprintf(dir, sizeof dir, "%s", opt.json);
			char *sl = strrchr(dir, '/');
			if (sl)
				*sl = 0;
			else
				snprintf(dir, sizeof dir, ".");
			dat = dir;
		}
		write_dat(dat, all);
		printf("wrote %s and %s/{scaling,ratios}.dat\n", opt.json, dat);
	} else if (dat) {
		write_dat(dat, all);
	}
	int bad = 0;
	for (unsigned i = 0; i < NBENCH; i++)
		if (all[i].ran)
			for (unsigned j = 0; j < NEMU; j++)
				bad |= all[i].emu[j].status == RS_FAIL || all[i].emu[j].status == RS_ERROR;
	return bad ? 1 : 0;
}
