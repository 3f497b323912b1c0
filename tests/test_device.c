/* test_device — the device layer (device.c): the default memory limit
 * read from fake cgroup trees (v2 and v1 layouts, "max", ancestors,
 * garbage), so that every case gives the same answer on any machine,
 * whatever cgroup the test runs in; the nearest allocation to an address
 * and the out-of-bounds messages built on it. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <check.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/device.h"
#include "warpemu/warpemu.h"

#define GiB (UINT64_C(1) << 30)
#define MiB (UINT64_C(1) << 20)

/* ---- a fake root: files written under a fresh temporary directory ---- */

/* base: made and removed by the parent (an unchecked fixture), so that
 * a failing test, which ends its forked process, leaves nothing behind;
 * root: a fresh directory inside it for each test (a checked fixture) */
static char base[64], root[96];

static void make_base(void)
{
	snprintf(base, sizeof base, "/tmp/we-cgroup-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(base));
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static void remove_base(void)
{
	ck_assert_int_eq(nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void make_root(void)
{
	snprintf(root, sizeof root, "%s/root-XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void remove_root(void)
{
	ck_assert_int_eq(nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/* Write `text` to root/rel, creating the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512];
	int n = snprintf(path, sizeof path, "%s/%s", root, rel);
	ck_assert(n > 0 && (size_t)n < sizeof path);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		ck_assert_msg(mkdir(path, 0700) == 0 || access(path, F_OK) == 0, "mkdir %s", path);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot create %s", path);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

/* /proc/self/cgroup of a pure v2 host and of a v1 (hybrid) one */
#define V2_SELF(path) "0::" path "\n"
#define V1_SELF(path)                          \
	"9:name=systemd:/\n8:pids:/\n"         \
	"4:memory:" path "\n3:cpuset:/\n1:cpu,cpuacct:/\n0::/\n"

START_TEST(v2_limit)
{
	put("proc/self/cgroup", V2_SELF("/user.slice/job"));
	put("sys/fs/cgroup/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/job/memory.max", "1073741824\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), GiB);
	/* 3/4 of the cgroup's 1 GiB, not of 16 GiB of RAM */
	ck_assert_uint_eq(dev_default_max_memory(root, 16 * GiB), 768 * MiB);
	/* RAM below the cgroup limit: 3/4 of the RAM */
	ck_assert_uint_eq(dev_default_max_memory(root, 512 * MiB), 384 * MiB);
	/* RAM unknown: the cgroup alone */
	ck_assert_uint_eq(dev_default_max_memory(root, 0), 768 * MiB);
}
END_TEST

START_TEST(v2_max_and_ancestors)
{
	put("proc/self/cgroup", V2_SELF("/a/b/c"));
	/* "max" at the process's own cgroup, limits further up: the
	 * smallest ancestor's applies */
	put("sys/fs/cgroup/a/b/c/memory.max", "max\n");
	put("sys/fs/cgroup/a/b/memory.max", "3221225472\n");
	put("sys/fs/cgroup/a/memory.max", "2147483648\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), 2 * GiB);
	/* all "max": no limit, 3/4 of the RAM */
	put("sys/fs/cgroup/a/b/memory.max", "max\n");
	put("sys/fs/cgroup/a/memory.max", "max");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), UINT64_MAX);
	ck_assert_uint_eq(dev_default_max_memory(root, 16 * GiB), 12 * GiB);
}
END_TEST

START_TEST(v2_namespaced)
{
	/* a container with its own cgroup namespace sees "0::/" and its
	 * limit at the mount's top */
	put("proc/self/cgroup", V2_SELF("/"));
	put("sys/fs/cgroup/memory.max", "536870912\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), 512 * MiB);
}
END_TEST

START_TEST(v1_limit)
{
	put("proc/self/cgroup", V1_SELF("/docker/abc"));
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "1073741824\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), GiB);
	ck_assert_uint_eq(dev_default_max_memory(root, 16 * GiB), 768 * MiB);
}
END_TEST

START_TEST(v1_unlimited_and_container)
{
	/* v1's "no limit" is a huge number: the RAM decides */
	put("proc/self/cgroup", V1_SELF("/process_api/x"));
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes", "9223372036854771712\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), UINT64_C(9223372036854771712));
	ck_assert_uint_eq(dev_default_max_memory(root, 16 * GiB), 12 * GiB);
	remove_root();
	make_root();
	/* a container without a cgroup namespace: its path does not exist
	 * under the mount, whose top is the container's cgroup */
	put("proc/self/cgroup", V1_SELF("/docker/0123456789abcdef"));
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "268435456\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), 256 * MiB);
	/* the memory controller sharing a hierarchy with another one */
	put("proc/self/cgroup", "7:cpu,memory,blkio:/j\n");
	put("sys/fs/cgroup/memory/j/memory.limit_in_bytes", "134217728");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), 128 * MiB);
}
END_TEST

START_TEST(v1_and_v2_smallest)
{
	put("proc/self/cgroup", "4:memory:/m\n0::/u\n");
	put("sys/fs/cgroup/memory/m/memory.limit_in_bytes", "2147483648\n");
	put("sys/fs/cgroup/u/memory.max", "1073741824\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), GiB);
}
END_TEST

START_TEST(garbage)
{
	static const char *const bad[] = {
		"", "\n", "12abc\n", "-1\n", "+5\n", " 7\n", "0x100\n", "max2\n",
		"99999999999999999999999\n",          /* over 64 bits */
		"18446744073709551616\n",             /* 2^64 */
		"1234567890123456789012345678901234567890123456789012345678901234567890\n",
	};
	put("proc/self/cgroup", V2_SELF("/g"));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		put("sys/fs/cgroup/g/memory.max", bad[i]);
		ck_assert_msg(dev_cgroup_memory_limit(root) == UINT64_MAX, "memory.max \"%s\" read as a limit",
			      bad[i]);
		ck_assert_uint_eq(dev_default_max_memory(root, 4 * GiB), 3 * GiB);
	}
	/* garbage next to a good limit: the good one */
	put("sys/fs/cgroup/memory.max", "1073741824\n");
	put("sys/fs/cgroup/g/memory.max", "lots\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), GiB);
	/* malformed /proc/self/cgroup lines are skipped */
	put("proc/self/cgroup", "nonsense\n4:memory\n4:memory:relative\n::\n\n0::/\n");
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), GiB);
}
END_TEST

START_TEST(no_cgroup)
{
	/* no /proc/self/cgroup at all (not Linux, no /proc) */
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), UINT64_MAX);
	ck_assert_uint_eq(dev_default_max_memory(root, 8 * GiB), 6 * GiB);
	/* nothing known at all: the fixed default */
	ck_assert_uint_eq(dev_default_max_memory(root, 0), WE_DEFAULT_MAX_MEMORY);
	/* a cgroup file but no control files */
	put("proc/self/cgroup", V1_SELF("/x"));
	ck_assert_uint_eq(dev_cgroup_memory_limit(root), UINT64_MAX);
}
END_TEST

/* The device takes its default, and caps a larger configured limit, from
 * this process's real RAM and cgroup. */
START_TEST(device_default)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t phys = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
	uint64_t want = dev_default_max_memory("/", phys);
	we_device *d;
	ck_assert_int_eq(we_device_create(NULL, &d), WE_OK);
	ck_assert_uint_eq(d->max_memory, want);
	we_device_destroy(d);
	we_device_config cfg = { .max_memory = UINT64_MAX, .threads = 1 };
	ck_assert_int_eq(we_device_create(&cfg, &d), WE_OK);
	ck_assert_uint_eq(d->max_memory, want);
	/* an allocation over it is refused, not attempted */
	we_devptr p;
	ck_assert_int_eq(we_malloc(d, (size_t)(want < SIZE_MAX ? want + 1 : want), &p), WE_ERR_NOMEM);
	ck_assert_ptr_nonnull(strstr(we_last_error(d), "would exceed the device memory limit"));
	we_device_destroy(d);
}
END_TEST

/* ---- the nearest allocation, for out-of-bounds messages ---- */

/* The blocks a launch's host threads keep from launch to launch
 * (dev_keep_take): 64-byte aligned, at least the size asked, the same
 * block again while it is large enough, a new one when it is not, none
 * kept past WE_KEPT_BLOCKS or WE_KEPT_MAX (ASan's leak check sees the
 * rest freed by we_device_destroy). */
START_TEST(kept_blocks)
{
	we_device *d;
	ck_assert_int_eq(we_device_create(NULL, &d), WE_OK);
	size_t cap = 0;
	uint8_t *a = dev_keep_take(d, 3, 1000, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq((uintptr_t)a % 64, 0);
	ck_assert_uint_ge(cap, 1000);
	memset(a, 0x5a, cap);
	dev_keep_give(d, 3, a, cap);
	size_t cap2 = 0;
	uint8_t *b = dev_keep_take(d, 3, 500, &cap2);
	ck_assert_ptr_eq(b, a);
	ck_assert_uint_eq(cap2, cap);
	/* taken: the next take of block 3 is a new one */
	size_t cap3 = 0;
	uint8_t *c = dev_keep_take(d, 3, 64, &cap3);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_ne(c, b);
	free(c);
	dev_keep_give(d, 3, b, cap2);
	/* too small for the next launch: replaced */
	uint8_t *e = dev_keep_take(d, 3, cap + 1, &cap3);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_ge(cap3, cap + 1);
	memset(e, 0, cap3);
	dev_keep_give(d, 3, e, cap3);
	/* block k of other threads, past the kept ones, and one too large */
	uint8_t *f = dev_keep_take(d, 0, 0, &cap);
	ck_assert_ptr_nonnull(f);
	dev_keep_give(d, 0, f, cap);
	uint8_t *g = dev_keep_take(d, WE_KEPT_BLOCKS, 100, &cap);
	ck_assert_ptr_nonnull(g);
	dev_keep_give(d, WE_KEPT_BLOCKS, g, cap);
	uint8_t *h = dev_keep_take(d, 1, WE_KEPT_MAX + 64, &cap);
	ck_assert_ptr_nonnull(h);
	dev_keep_give(d, 1, h, cap);
	ck_assert_ptr_null(d->kept[1].p);
	ck_assert_ptr_eq(d->kept[3].p, e);
	ck_assert_ptr_eq(d->kept[0].p, f);
	we_device_destroy(d);
}
END_TEST

START_TEST(nearest_alloc)
{
	we_device_config cfg = { .threads = 1 };
	we_device *d;
	ck_assert_int_eq(we_device_create(&cfg, &d), WE_OK);
	uint64_t dist = 7;
	ck_assert_ptr_null(dev_nearest_alloc(d, WE_GMEM_BASE, &dist));
	we_devptr a, b;
	ck_assert_int_eq(we_malloc(d, 64, &a), WE_OK);
	ck_assert_int_eq(we_malloc(d, 100, &b), WE_OK);
	ck_assert_uint_gt(b, a + 64);
	/* before the first, inside, at the end, in the gap, past the last */
	ck_assert(dev_nearest_alloc(d, a - 5, &dist)->base == a && dist == 5);
	ck_assert(dev_nearest_alloc(d, a + 63, &dist)->base == a && dist == 0);
	ck_assert(dev_nearest_alloc(d, a + 64, &dist)->base == a && dist == 0);
	ck_assert(dev_nearest_alloc(d, a + 100, &dist)->base == a && dist == 36);
	ck_assert(dev_nearest_alloc(d, b - 1, &dist)->base == b && dist == 1);
	ck_assert(dev_nearest_alloc(d, b + 50, &dist)->base == b && dist == 0);
	ck_assert(dev_nearest_alloc(d, b + 1000, &dist)->base == b && dist == 900);
	ck_assert(dev_nearest_alloc(d, 0, &dist)->base == a && dist == a);
	/* the middle of the gap: a tie goes to the allocation before */
	uint64_t gap = b - (a + 64);
	if (gap % 2 == 0) {
		ck_assert(dev_nearest_alloc(d, a + 64 + gap / 2, &dist)->base == a && dist == gap / 2);
		ck_assert(dev_nearest_alloc(d, a + 64 + gap / 2 + 1, &dist)->base == b && dist == gap / 2 - 1);
	}
	we_device_destroy(d);
}
END_TEST

/* The fault of a global access outside every allocation through the
 * public API: a parameter pointing into the middle of its buffer, an
 * allocation no parameter points into, a long parameter name, and an
 * address far from everything. */
static const char probe_text[] =
	".kernel probe\n"
	".param ptr ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp\n"
	".param u64 addr\n"
	"        MOV R2, c[0x0][0x8] ;\n"
	"        MOV R3, c[0x0][0xc] ;\n"
	"        LDG R1, [R2.64] ;\n"
	"        EXIT ;\n"
	".end\n";

static void probe(we_device *d, we_module *m, we_devptr p, uint64_t addr, const char *want, bool whole)
{
	uint8_t params[16];
	memcpy(params, &p, 8);
	memcpy(params + 8, &addr, 8);
	we_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
	ck_assert_int_eq(we_launch(d, m, "probe", &cfg, params, sizeof params, NULL), WE_ERR_EXCEPTION);
	const char *e = we_last_error(d), *at = strstr(e, want);
	ck_assert_msg(at != NULL, "want \"%s\" in:\n%s", want, e);
	/* the whole message: nothing follows it on its line */
	if (whole)
		ck_assert_msg(at[strlen(want)] == '\n' || at[strlen(want)] == 0, "more after \"%s\" in:\n%s", want, e);
}

START_TEST(out_of_bounds_messages)
{
	we_device_config cfg = { .threads = 1 };
	we_device *d;
	we_module *m;
	ck_assert_int_eq(we_device_create(&cfg, &d), WE_OK);
	ck_assert_int_eq(we_module_load_text(d, probe_text, sizeof probe_text - 1, "probe.we", &m), WE_OK);
	we_devptr a, b;
	ck_assert_int_eq(we_malloc(d, 64, &a), WE_OK);
	ck_assert_int_eq(we_malloc(d, 64, &b), WE_OK);
	char want[512];
	/* the parameter points 16 bytes into b */
	snprintf(want, sizeof want,
		 "global access of 4 bytes at 0x%llx is outside every allocation (first at lane 0): 8 bytes past "
		 "the end of parameter 'pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp...', "
		 "pointing at its offset 16, a buffer of 64 bytes at [0x%llx, 0x%llx) (offset 72)",
		 (unsigned long long)(b + 72), (unsigned long long)b, (unsigned long long)(b + 64));
	probe(d, m, b + 16, b + 72, want, true);
	/* nothing points into a */
	snprintf(want, sizeof want,
		 "global access of 4 bytes at 0x%llx is outside every allocation (first at lane 0): 0 bytes past "
		 "the end of an allocation of 64 bytes that no parameter points into at [0x%llx, 0x%llx) (offset 64)",
		 (unsigned long long)(a + 64), (unsigned long long)a, (unsigned long long)(a + 64));
	probe(d, m, b, a + 64, want, true);
	/* far from both: no buffer named */
	snprintf(want, sizeof want, "global access of 4 bytes at 0x%llx is outside every allocation (first at lane 0)",
		 (unsigned long long)(b + (1u << 20)));
	probe(d, m, b, b + (1u << 20), want, true);
	we_module_destroy(m);
	we_device_destroy(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("device");
	TCase *t = tcase_create("memory_limit");
	tcase_add_unchecked_fixture(t, make_base, remove_base);
	tcase_add_checked_fixture(t, make_root, remove_root);
	tcase_add_test(t, v2_limit);
	tcase_add_test(t, v2_max_and_ancestors);
	tcase_add_test(t, v2_namespaced);
	tcase_add_test(t, v1_limit);
	tcase_add_test(t, v1_unlimited_and_container);
	tcase_add_test(t, v1_and_v2_smallest);
	tcase_add_test(t, garbage);
	tcase_add_test(t, no_cgroup);
	tcase_add_test(t, device_default);
	suite_add_tcase(s, t);
	TCase *o = tcase_create("out_of_bounds");
	tcase_add_test(o, nearest_alloc);
	tcase_add_test(o, out_of_bounds_messages);
	tcase_add_test(o, kept_blocks);
	suite_add_tcase(s, o);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
