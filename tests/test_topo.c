/* test_topo — topology discovery and placement plans (topo.c) on
 * synthetic hwloc topologies, so that every check but the binding ones
 * gives the same answer on any machine; binding on the real topology
 * may succeed or fail cleanly; we_device_describe, and that it shows the
 * thread count launches use; the notice of a launch that cannot bind. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/topo.h"
#include "warpemu/warpemu.h"

#include "harness.h"

static we_topo *open_synth(const char *desc)
{
	char err[256];
	we_topo *t = NULL;
	we_status st = topo_open(&t, desc, err, sizeof err);

	ck_assert_msg(st == WE_OK, "topo_open(\"%s\"): %s", desc, err);
	ck_assert_ptr_nonnull(t);
	return t;
}

static void check_counts(const char *desc, unsigned pk, unsigned co,
			 unsigned pu)
{
	we_topo *t = open_synth(desc);

	ck_assert_msg(topo_npackages(t) == pk, "%s: %u packages", desc,
		      topo_npackages(t));
	ck_assert_msg(topo_ncores(t) == co, "%s: %u cores", desc,
		      topo_ncores(t));
	ck_assert_msg(topo_npus(t) == pu, "%s: %u PUs", desc, topo_npus(t));
	topo_close(t);
}

START_TEST(counts)
{
	check_counts("pack:2 core:4 pu:2", 2, 8, 16);
	check_counts("core:2 pu:1", 1, 2, 2);
	check_counts("pack:1 core:1 pu:1", 1, 1, 1);
	check_counts("pack:4 core:8 pu:2", 4, 32, 64);
	check_counts("pack:3 core:2 pu:3", 3, 6, 18);
	/* no core objects: every PU is a core of its own */
	check_counts("pack:2 pu:2", 2, 4, 4);
	/* no package objects: one package */
	check_counts("numa:2 core:2 pu:2", 1, 4, 8);
	ck_assert_uint_eq(topo_npus(NULL), 0);
	topo_close(NULL);
}
END_TEST

static const char *const shapes[] = {
	"pack:2 core:4 pu:2", "core:2 pu:1", "pack:1 core:1 pu:1",
	"pack:4 core:8 pu:2", "pack:3 core:2 pu:3", "pack:2 pu:2",
	"numa:2 core:2 pu:2",
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

START_TEST(compact_plan)
{
	for (size_t i = 0; i < NSHAPES; i++) {
		we_topo *t = open_synth(shapes[i]);
		unsigned n = topo_npus(t);

		for (unsigned k = 0; k < 3 * n + 5; k++) {
			ck_assert_int_eq(topo_pu_for(t, WE_PLACE_COMPACT, k),
					 (int)(k % n));
			ck_assert_int_eq(topo_pu_for(t, WE_PLACE_DEFAULT, k),
					 (int)(k % n));
		}
		topo_close(t);
	}
}
END_TEST

/* The k-th PU of scatter on the symmetric "pack:P core:C pu:U", whose
 * PU logical index is pkg*C*U + core*U + pu. */
static int scatter_ref(unsigned P, unsigned C, unsigned U, unsigned k)
{
	unsigned n = P * C * U, r, pu, core, pkg;

	k %= n;
	pu = k / (P * C);
	r = k % (P * C);
	core = r / P;
	pkg = r % P;
	return (int)(pkg * C * U + core * U + pu);
}

static void check_scatter(unsigned P, unsigned C, unsigned U)
{
	char desc[64];
	we_topo *t;
	unsigned n = P * C * U;
	unsigned char *seen = calloc(n, 1);

	ck_assert_ptr_nonnull(seen);
	snprintf(desc, sizeof desc, "pack:%u core:%u pu:%u", P, C, U);
	t = open_synth(desc);
	for (unsigned k = 0; k < 2 * n + 3; k++) {
		int pu = topo_pu_for(t, WE_PLACE_SCATTER, k);

		ck_assert_msg(pu == scatter_ref(P, C, U, k), "%s: thread %u "
			      "on PU %d, expected %d", desc, k, pu,
			      scatter_ref(P, C, U, k));
		if (k < n) {
			ck_assert(!seen[pu]);
			seen[pu] = 1;
		}
	}
	topo_close(t);
	free(seen);
}

START_TEST(scatter_plan)
{
	static const int pack2[] = {
		0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15, 0, 8
	};
	we_topo *t = open_synth("pack:2 core:4 pu:2");

	for (unsigned k = 0; k < sizeof pack2 / sizeof pack2[0]; k++)
		ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, k), pack2[k]);
	topo_close(t);
	check_scatter(2, 4, 2);
	check_scatter(4, 8, 2);
	check_scatter(1, 1, 1);
	check_scatter(3, 2, 3);
	check_scatter(1, 4, 2);

	t = open_synth("core:2 pu:1");
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 0), 0);
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 1), 1);
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 2), 0);
	topo_close(t);
	/* core-less PUs are cores: packages first, then the PUs */
	t = open_synth("pack:2 pu:2");
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 0), 0);
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 1), 2);
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 2), 1);
	ck_assert_int_eq(topo_pu_for(t, WE_PLACE_SCATTER, 3), 3);
	topo_close(t);
}
END_TEST

START_TEST(none_plan)
{
	for (size_t i = 0; i < NSHAPES; i++) {
		we_topo *t = open_synth(shapes[i]);

		for (unsigned k = 0; k < 2 * topo_npus(t) + 3; k++) {
			ck_assert_int_eq(topo_pu_for(t, WE_PLACE_NONE, k), -1);
			ck_assert_int_eq(topo_pu_for(t, (we_placement)99, k), -1);
		}
		topo_close(t);
	}
	ck_assert_int_eq(topo_pu_for(NULL, WE_PLACE_COMPACT, 0), -1);
}
END_TEST

static void has(const char *text, const char *needle)
{
	ck_assert_msg(strstr(text, needle) != NULL, "\"%s\" not in:\n%s",
		      needle, text);
}

static char *describe(const char *desc, we_placement p, unsigned n)
{
	we_topo *t = open_synth(desc);
	char *s = topo_describe(t, p, n);

	ck_assert_ptr_nonnull(s);
	topo_close(t);
	return s;
}

START_TEST(describe_text)
{
	char *s = describe("core:2 pu:1", WE_PLACE_COMPACT, 1);

	has(s, "topology: 1 package, 2 cores, 2 PUs");
	has(s, "placement compact, 1 thread:");
	has(s, "thread 0 -> PU 0 (core 0, package 0)");
	free(s);

	s = describe("pack:2 core:4 pu:2", WE_PLACE_COMPACT, 40);
	has(s, "2 packages, 8 cores, 16 PUs");
	has(s, "placement compact, 40 threads:");
	has(s, "threads 0-15 -> PUs 0-15 (cores 0-7, packages 0-1)");
	has(s, "threads 16-39 -> the PUs of threads 0-15 again");
	free(s);

	s = describe("pack:2 core:4 pu:2", WE_PLACE_COMPACT, 3);
	has(s, "threads 0-2 -> PUs 0-2 (cores 0-1, package 0)");
	ck_assert_ptr_null(strstr(s, "again"));
	free(s);

	s = describe("pack:2 core:4 pu:2", WE_PLACE_SCATTER, 17);
	has(s, "placement scatter, 17 threads:");
	has(s, "thread 0 -> PU 0 (core 0, package 0)");
	has(s, "thread 1 -> PU 8 (core 4, package 1)");
	has(s, "thread 8 -> PU 1 (core 0, package 0)");
	has(s, "thread 15 -> PU 15 (core 7, package 1)");
	has(s, "thread 16 -> the PU of thread 0");
	free(s);

	s = describe("pack:1 core:1 pu:1", WE_PLACE_DEFAULT, 4);
	has(s, "1 package, 1 core, 1 PU");
	has(s, "placement compact (default), 4 threads:");
	has(s, "thread 0 -> PU 0 (core 0, package 0)");
	has(s, "threads 1-3 -> the PU of thread 0\n");
	free(s);

	s = describe("pack:4 core:8 pu:2", WE_PLACE_NONE, 64);
	has(s, "4 packages, 32 cores, 64 PUs");
	has(s, "placement none: 64 threads, not bound");
	free(s);

	s = describe("core:2 pu:1", WE_PLACE_SCATTER, 0);
	has(s, "placement scatter: no threads");
	free(s);

	ck_assert_ptr_null(topo_describe(NULL, WE_PLACE_COMPACT, 1));
}
END_TEST

START_TEST(bad_synthetic)
{
	static const char *const bad[] = {
		"", "bogus", "pack:0 pu:1", "pack:2 core:x pu:2", "pu:2 core:2",
		"pack:2 core:4", "pack:2 core:2 pu:2 junk",
		"pack:99999999999 pu:1", "pack:1000 core:1000 pu:1000",
	};
	char err[256];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		we_topo *t = (we_topo *)&err;   /* must be reset to NULL */

		err[0] = '\0';
		ck_assert_int_eq(topo_open(&t, bad[i], err, sizeof err),
				 WE_ERR_INVALID);
		ck_assert_ptr_null(t);
		ck_assert_msg(strstr(err, "synthetic topology") != NULL,
			      "'%s': message '%s'", bad[i], err);
	}
	ck_assert_int_eq(topo_open(NULL, "core:2 pu:1", err, sizeof err),
			 WE_ERR_INVALID);
	/* no room for the message is fine */
	{
		we_topo *t = NULL;

		ck_assert_int_eq(topo_open(&t, "bogus", NULL, 0),
				 WE_ERR_INVALID);
		ck_assert_ptr_null(t);
	}
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(we_placement_name(WE_PLACE_DEFAULT), "default");
	ck_assert_str_eq(we_placement_name(WE_PLACE_NONE), "none");
	ck_assert_str_eq(we_placement_name(WE_PLACE_COMPACT), "compact");
	ck_assert_str_eq(we_placement_name(WE_PLACE_SCATTER), "scatter");
	ck_assert_str_eq(we_placement_name((we_placement)42), "unknown");
	ck_assert_str_eq(we_engine_name(WE_ENGINE_DEFAULT), "default");
	ck_assert_str_eq(we_engine_name(WE_ENGINE_SCHEDULER), "scheduler");
	ck_assert_str_eq(we_engine_name(WE_ENGINE_WARP_THREADS),
			 "warp-threads");
	ck_assert_str_eq(we_engine_name((we_engine)42), "unknown");
}
END_TEST

/* ---- binding ----------------------------------------------------------- */

static void bind_ok_or_clean(const we_topo *t, int pu)
{
	const char *why = "unset";
	bool ok = topo_bind_self(t, pu, &why);

	if (ok)
		ck_assert_ptr_null(why);
	else
		ck_assert_msg(why && why[0], "binding to PU %d failed without "
			      "a reason", pu);
}

START_TEST(bind_real)
{
	char err[256];
	we_topo *t = NULL;
	const char *why;

	ck_assert_msg(topo_open(&t, NULL, err, sizeof err) == WE_OK, "%s", err);
	ck_assert_uint_ge(topo_npus(t), 1);
	ck_assert_uint_ge(topo_ncores(t), 1);
	ck_assert_uint_ge(topo_npackages(t), 1);
	bind_ok_or_clean(t, 0);
	bind_ok_or_clean(t, topo_pu_for(t, WE_PLACE_SCATTER, 1));
	/* no binding asked: nothing to do, success */
	ck_assert(topo_bind_self(t, -1, &why));
	ck_assert(!topo_bind_self(t, (int)topo_npus(t), &why));
	ck_assert(why && why[0]);
	ck_assert(!topo_bind_self(t, (int)topo_npus(t), NULL));
	topo_close(t);
}
END_TEST

START_TEST(bind_synthetic)
{
	we_topo *t = open_synth("pack:2 core:4 pu:2");
	const char *why = NULL;

	ck_assert(!topo_bind_self(t, 0, &why));
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "synthetic"));
	topo_close(t);
	ck_assert(!topo_bind_self(NULL, 0, &why));
}
END_TEST

typedef struct bind_arg {
	const we_topo *t;
	int pu;
	bool ok;
	const char *why;
} bind_arg;

static void *bind_thread(void *p)
{
	bind_arg *a = p;

	a->ok = topo_bind_self(a->t, a->pu, &a->why);
	return NULL;
}

/* One topology used by many threads at once, as the engines do. */
START_TEST(bind_concurrent)
{
	enum { N = 8 };
	char err[256];
	we_topo *t = NULL;
	pthread_t tid[N];
	bind_arg a[N];

	ck_assert_msg(topo_open(&t, NULL, err, sizeof err) == WE_OK, "%s", err);
	for (int i = 0; i < N; i++) {
		a[i].t = t;
		a[i].pu = topo_pu_for(t, WE_PLACE_SCATTER, (unsigned)i);
		ck_assert_int_eq(pthread_create(&tid[i], NULL, bind_thread,
						&a[i]), 0);
	}
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
		ck_assert(a[i].ok ? a[i].why == NULL : a[i].why && a[i].why[0]);
	}
	topo_close(t);
}
END_TEST

/* ---- we_device_describe ------------------------------------------------ */

START_TEST(device_describe)
{
	we_dim3 b256 = { 256, 1, 1 }, b33 = { 33, 1, 1 }, bad = { 0, 1, 1 };
	we_dim3 big = { 1024, 2, 1 };
	char err[256], want[128];
	we_device *dev = NULL;
	we_topo *t = NULL;
	char *s = NULL;
	unsigned n;

	ck_assert_msg(topo_open(&t, NULL, err, sizeof err) == WE_OK, "%s", err);
	n = topo_npus(t);
	const uint64_t cache = topo_cache_max(t);
	topo_close(t);
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);

	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_SCHEDULER,
					    WE_PLACE_COMPACT, b256, &s), WE_OK);
	has(s, "engine scheduler: ");
	snprintf(want, sizeof want, "%u PU%s", n, n == 1 ? "" : "s");
	has(s, want);
	snprintf(want, sizeof want, "placement compact, %u thread%s:", n,
		 n == 1 ? "" : "s");
	has(s, want);
	/* the default of --stream-min: the largest cache, else 32 MiB */
	if (!cache || cache % (1u << 20) == 0) {
		snprintf(want, sizeof want, "into allocations of at least %llu MiB (%s; --stream-min)\n",
			 (unsigned long long)(cache ? cache >> 20 : WE_STREAM_MIN_DEFAULT >> 20),
			 cache ? "the host's largest cache" : "no cache in the topology: the default");
		has(s, want);
	}
	free(s);

	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_WARP_THREADS,
					    WE_PLACE_SCATTER, b256, &s), WE_OK);
	snprintf(want, sizeof want, "8 warps per CTA x %u CTA slot%s = %u "
		 "host threads", n, n == 1 ? "" : "s", 8 * n);
	has(s, want);
	snprintf(want, sizeof want, "placement scatter, %u threads:", 8 * n);
	has(s, want);
	free(s);

	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_WARP_THREADS,
					    WE_PLACE_NONE, b33, &s), WE_OK);
	has(s, "2 warps per CTA");
	has(s, "not bound");
	free(s);

	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_DEFAULT,
					    WE_PLACE_DEFAULT, b256, &s), WE_OK);
	has(s, "(default)");
	free(s);

	s = (char *)err;
	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_SCHEDULER,
					    WE_PLACE_COMPACT, bad, &s),
			 WE_ERR_LIMIT);
	ck_assert_ptr_null(s);
	has(we_last_error(dev), "block");
	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_SCHEDULER,
					    WE_PLACE_COMPACT, big, &s),
			 WE_ERR_LIMIT);
	ck_assert_int_eq(we_device_describe(dev, (we_engine)7,
					    WE_PLACE_COMPACT, b256, &s),
			 WE_ERR_INVALID);
	has(we_last_error(dev), "engine");
	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_SCHEDULER,
					    (we_placement)7, b256, &s),
			 WE_ERR_INVALID);
	has(we_last_error(dev), "placement");
	ck_assert_int_eq(we_device_describe(dev, WE_ENGINE_SCHEDULER,
					    WE_PLACE_COMPACT, b256, NULL),
			 WE_ERR_INVALID);
	ck_assert_int_eq(we_device_describe(NULL, WE_ENGINE_SCHEDULER,
					    WE_PLACE_COMPACT, b256, &s),
			 WE_ERR_INVALID);
	we_device_destroy(dev);
}
END_TEST

/* ---- the device's thread count: info and launches agree -------------- */

/* The unsigned number right after `prefix` in text (which must hold it). */
static unsigned number_after(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);

	ck_assert_msg(p != NULL, "\"%s\" not in:\n%s", prefix, text);
	return (unsigned)strtoul(p + strlen(prefix), NULL, 10);
}

/* The host threads we_device_describe says a launch of engine e starts:
 * scheduler workers, or warp-threads CTA slots (one-warp CTAs). */
static unsigned described_threads(we_device *dev, we_engine e)
{
	we_dim3 one = { 1, 1, 1 };
	char *s = NULL;
	unsigned n;

	ck_assert_ptr_nonnull(th_engine_of(e));
	ck_assert_int_eq(we_device_describe(dev, e, WE_PLACE_COMPACT, one, &s),
			 WE_OK);
	n = number_after(s, th_engine_of(e)->describe_threads);
	free(s);
	return n;
}

/* A rendezvous of one-thread CTAs: each adds 1 to *ctr, then spins until
 * *ctr reaches n.  n CTAs finish only if n of them run at once, i.e. the
 * launch has n host threads or more (a scheduler worker, or a
 * warp-threads CTA slot, runs one CTA at a time to its end). */
static const char rendezvous_text[] =
	".param ptr ctr\n"
	".param u32 n\n"
	"        MOV R2, c[0x0][0x0] ;\n"
	"        MOV R3, c[0x0][0x4] ;\n"
	"        MOV R4, 0x1 ;\n"
	"        ATOMG.ADD RZ, [R2.64], R4 ;\n"
	".spin:  LDG R5, [R2.64] ;\n"
	"        ISETP.LT.U32.AND P0, PT, R5, c[0x0][0x8], PT ;\n"
	"   @P0  BRA `(.spin) ;\n"
	"        EXIT ;\n";

/* n CTAs of the rendezvous on a device with the default thread count
 * (one CTA at a time per scheduler worker: a batch would hold several). */
static we_status rendezvous(we_device *dev, we_module *m, we_engine e,
			    unsigned n, double timeout)
{
	const we_kernel_info *k = we_module_find_kernel(m, "main");
	we_launch_config cfg = { .grid = { n, 1, 1 }, .block = { 1, 1, 1 },
				 .engine = e, .timeout = timeout, .batch = 1 };
	uint8_t params[64] = { 0 };
	we_devptr ctr;
	we_status st;

	ck_assert_ptr_nonnull(k);
	ck_assert_uint_le(k->param_bytes, sizeof params);
	ck_assert_int_eq(we_malloc(dev, 4, &ctr), WE_OK);
	ck_assert_int_eq(we_memset(dev, ctr, 0, 4), WE_OK);
	memcpy(params + k->params[0].offset, &ctr, sizeof ctr);
	memcpy(params + k->params[1].offset, &n, sizeof n);
	st = we_launch(dev, m, "main", &cfg, params, k->param_bytes, NULL);
	ck_assert_int_eq(we_free(dev, ctr), WE_OK);
	return st;
}

/* What `warpemu info` shows (we_device_describe) is what a launch runs:
 * n threads let n rendezvous CTAs meet, n + 1 CTAs time out. */
static void check_threads_agree(const char *synthetic)
{
	we_device *dev = NULL;
	we_module *m = NULL;
	unsigned n;

	if (synthetic)
		ck_assert_int_eq(setenv("HWLOC_SYNTHETIC", synthetic, 1), 0);
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	ck_assert_int_eq(we_module_load_text(dev, rendezvous_text,
					     strlen(rendezvous_text), "rv.we",
					     &m), WE_OK);
	n = described_threads(dev, th_id(0));
	ck_assert_uint_ge(n, 1);
	for (size_t i = 1; i < TH_NENGINES; i++)
		ck_assert_uint_eq(described_threads(dev, th_id(i)), n);
	if (synthetic)  /* "pack:1 core:3 pu:1": 3 PUs, whatever the host */
		ck_assert_uint_eq(n, 3);
	for (size_t i = 0; i < TH_NENGINES; i++) {
		we_status st = rendezvous(dev, m, th_id(i), n, 20.0);

		ck_assert_msg(st == WE_OK, "%s: %u CTAs did not meet on the %u "
			      "threads info shows: %s", th_name(i),
			      n, n, we_last_error(dev));
		st = rendezvous(dev, m, th_id(i), n + 1, 0.3);
		ck_assert_msg(st == WE_ERR_TIMEOUT, "%s: %u CTAs met, more "
			      "than the %u threads info shows (status %s)",
			      th_name(i), n + 1, n,
			      we_status_name(st));
	}
	we_module_destroy(m);
	we_device_destroy(dev);
	if (synthetic)
		ck_assert_int_eq(unsetenv("HWLOC_SYNTHETIC"), 0);
}

START_TEST(threads_info_launch_real)
{
	check_threads_agree(NULL);
}
END_TEST

/* hwloc takes the topology from HWLOC_SYNTHETIC: 3 PUs on any host */
START_TEST(threads_info_launch_synthetic)
{
	check_threads_agree("pack:1 core:3 pu:1");
}
END_TEST

/* ---- binding unavailable: one notice per launch ------------------------ */

/* A synthetic topology cannot be bound to: a launch that asks for a
 * placement runs unpinned and says so in one line; placement none
 * says nothing. */
START_TEST(notice_unpinned)
{
	static const we_placement places[] = {
		WE_PLACE_DEFAULT, WE_PLACE_COMPACT, WE_PLACE_SCATTER,
		WE_PLACE_NONE,
	};
	static const char text[] = "EXIT ;\n";
	we_device *dev = NULL;
	we_module *m = NULL;

	ck_assert_int_eq(setenv("HWLOC_SYNTHETIC", "pack:2 core:2 pu:1", 1), 0);
	ck_assert_int_eq(we_device_create(NULL, &dev), WE_OK);
	ck_assert_int_eq(we_module_load_text(dev, text, strlen(text), "x.we",
					     &m), WE_OK);
	for (size_t e = 0; e < TH_NENGINES; e++)
		for (size_t p = 0; p < sizeof places / sizeof places[0]; p++) {
			we_launch_config cfg = { .grid = { 64, 1, 1 },
						 .block = { 96, 1, 1 },
						 .engine = th_id(e),
						 .placement = places[p] };
			const char *n;

			ck_assert_int_eq(we_launch(dev, m, "main", &cfg, NULL,
						   0, NULL), WE_OK);
			n = we_device_notice(dev);
			if (places[p] == WE_PLACE_NONE) {
				ck_assert_str_eq(n, "");
				continue;
			}
			ck_assert_msg(th_occurrences(n, "running "
						     "unpinned") == 1 &&
				      th_occurrences(n, "thread binding "
						     "unavailable") == 1 &&
				      !strchr(n, '\n') &&
				      strstr(n, "synthetic") != NULL,
				      "%s, %s: notice '%s'",
				      th_name(e),
				      we_placement_name(places[p]), n);
		}
	we_module_destroy(m);
	we_device_destroy(dev);
	ck_assert_int_eq(unsetenv("HWLOC_SYNTHETIC"), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topo");
	TCase *plan = tcase_create("plans");
	TCase *bind = tcase_create("binding");
	TCase *api = tcase_create("api");
	SRunner *r;
	int failed;

	tcase_add_test(plan, counts);
	tcase_add_test(plan, compact_plan);
	tcase_add_test(plan, scatter_plan);
	tcase_add_test(plan, none_plan);
	tcase_add_test(plan, describe_text);
	tcase_add_test(plan, bad_synthetic);
	tcase_add_test(plan, names);
	tcase_add_test(bind, bind_real);
	tcase_add_test(bind, bind_synthetic);
	tcase_add_test(bind, bind_concurrent);
	tcase_add_test(api, device_describe);
	tcase_add_test(api, threads_info_launch_real);
	tcase_add_test(api, threads_info_launch_synthetic);
	tcase_add_test(api, notice_unpinned);
	suite_add_tcase(s, plan);
	suite_add_tcase(s, bind);
	suite_add_tcase(s, api);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
