/* jit_disk.c — the disk cache of compiled kernels (jit_disk.h): the
 * directory, the key, and reading and writing entries.  No LLVM here.
 */
#define _GNU_SOURCE /* mkostemp, O_CLOEXEC */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__linux__)
#include <sys/auxv.h>
#endif

#include "exec/exec.h"
#include "exec/jit_disk.h"
#include "exec/red.h"

#ifndef WE_LLVM_VERSION
#define WE_LLVM_VERSION "none"
#endif

/* the entries' format (the file layout below, the key's material) */
#define DISK_FORMAT 4u
/* a file larger than this is no entry (kernels' objects are kilobytes) */
#define DISK_MAX ((size_t)256 << 20)
#define CPU_WORDS 16

/* ---- the directory -------------------------------------------------- */

static bool off_word(const char *s)
{
	return !strcmp(s, "off");
}

bool xjit_disk_dir(const char *setting, char *dir, size_t len, char *note, size_t notelen)
{
	const char *env = getenv("WARPEMU_JIT_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	note[0] = 0;
	if (setting && *setting) {
		if (off_word(setting))
			return false;
		n = snprintf(dir, len, "%s", setting);
	} else if (env && *env) {
		if (off_word(env))
			return false;
		n = snprintf(dir, len, "%s", env);
	} else if (xdg && xdg[0] == '/') {
		/* (the XDG base directory specification ignores relative paths) */
		n = snprintf(dir, len, "%s/warpemu", xdg);
	} else if (home && *home) {
		n = snprintf(dir, len, "%s/.cache/warpemu", home);
	} else {
		snprintf(note, notelen, "no directory (HOME, XDG_CACHE_HOME and WARPEMU_JIT_CACHE unset)");
		return false;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(note, notelen, "the directory's name is too long");
		return false;
	}
	return true;
}

/* dir/name.wjit in path; false when too long */
static bool entry_path(char *path, size_t len, const char *dir, const char *name)
{
	const int n = snprintf(path, len, "%s/%s.wjit", dir, name);
	return n > 0 && (size_t)n < len;
}

/* ---- the key ---------------------------------------------------------- */

static uint64_t fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	return x ^ (x >> 33);
}

uint64_t xjit_hash(const void *p, size_t n, uint64_t seed)
{
	const uint8_t *b = p;
	uint64_t h = fmix(seed ^ (uint64_t)n * UINT64_C(0x9e3779b97f4a7c15));
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ fmix(w)) * UINT64_C(0x9e3779b97f4a7c15) + UINT64_C(0x632be59bd9b4e019);
		h = h << 27 | h >> 37;
	}
	uint64_t w = 0;
	memcpy(&w, b, n);
	return fmix(h ^ fmix(w ^ (uint64_t)n));
}

/* The host CPU as the code generator sees it: on x86 the CPUID words of
 * the vendor, family, model and feature flags (not leaf 1's EBX, whose
 * APIC id differs from core to core) and XCR0 (what the OS enables:
 * AVX, AVX-512 state); elsewhere the auxiliary vector's HWCAPs. */
static void cpu_words(uint32_t w[CPU_WORDS])
{
	memset(w, 0, CPU_WORDS * sizeof *w);
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	const unsigned max = __get_cpuid_max(0, NULL);
	if (__get_cpuid(0, &a, &b, &c, &d))
		w[0] = a, w[1] = b, w[2] = c, w[3] = d;
	if (max >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
		w[4] = a, w[5] = c, w[6] = d;
		if (c & (1u << 27)) { /* OSXSAVE: XGETBV reads XCR0 */
			uint32_t lo, hi;
			__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			w[7] = lo, w[8] = hi;
		}
	}
	if (max >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		w[9] = b, w[10] = c, w[11] = d;
		if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d))
			w[12] = a;
	}
	if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d))
		w[13] = c, w[14] = d;
#elif defined(__linux__)
	const unsigned long h1 = getauxval(AT_HWCAP), h2 = getauxval(AT_HWCAP2);
	const char *plat = (const char *)getauxval(AT_PLATFORM);
	w[0] = (uint32_t)h1, w[1] = (uint32_t)((uint64_t)h1 >> 32);
	w[2] = (uint32_t)h2, w[3] = (uint32_t)((uint64_t)h2 >> 32);
	if (plat) {
		const uint64_t ph = xjit_hash(plat, strlen(plat), 0);
		w[4] = (uint32_t)ph, w[5] = (uint32_t)(ph >> 32);
	}
#endif
}

#define KEY_LAYOUT 27
/* The head of a key's material (zeroed, padding included, then set: its
 * bytes are compared), followed by the kernel's instruction words. */
typedef struct key_head {
	char magic[8];
	uint32_t format, min_len, opt_level, nrows, nregs, param_bytes, ninsns;
	uint32_t layout[KEY_LAYOUT];
	uint64_t abi, plugin;
	uint32_t cpu[CPU_WORDS];
	char llvm[24];
	char passes[64];
} key_head;
_Static_assert(sizeof XJIT_PASSES <= sizeof((key_head *)0)->passes, "the passes fit the key");

bool xjit_disk_key(const we_launch_ctx *L, uint64_t plugin, xjit_key *k)
{
	const we_kernel *kn = L->k;
	const uint32_t ninsns = (kn->code_end - kn->code_start) / WE_INST_SIZE;
	const size_t code = (size_t)ninsns * sizeof(we_word);
	memset(k, 0, sizeof *k);
	k->len = sizeof(key_head) + code;
	k->material = calloc(1, k->len);
	if (!k->material)
		return false;
	key_head h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, "warpemu", 8);
	h.format = DISK_FORMAT;
	h.min_len = XJIT_MIN_LEN;
	h.opt_level = XJIT_OPT_LEVEL;
	h.nrows = L->nrows;
	h.nregs = kn->nregs;
	h.param_bytes = L->param_bytes;
	h.ninsns = ninsns;
	/* what jit.c's code reads of the library's structures */
	const uint32_t layout[KEY_LAYOUT] = {
		offsetof(we_warp, p),           offsetof(we_warp, thread_insns),   offsetof(we_warp, cta),
		offsetof(we_warp, id),          offsetof(we_cta, shared),          offsetof(we_cta, ctaid),
		offsetof(we_cta, nwarps),       offsetof(we_launch_ctx, block),    offsetof(we_launch_ctx, grid),
		offsetof(xjit_rt, params),      offsetof(xjit_rt, L),              offsetof(xjit_rt, global),
		offsetof(xjit_rt, lanes),       offsetof(xjit_rt, shared_bytes),   XLANES,
		WE_NUM_PREDS,                   offsetof(we_warp, red),            offsetof(we_warp, jwin),
		WE_JWINS,                       offsetof(xjit_rt, global_red),     offsetof(xjit_rt, red),
		offsetof(xjit_rt, flush),       offsetof(xred, n),                 offsetof(xred, lo),
		offsetof(xred, hi),             sizeof(((we_warp *)0)->jwin[0]), offsetof(xjit_rt, stream_min)
	};
	memcpy(h.layout, layout, sizeof layout);
	h.abi = XJIT_ABI;
	h.plugin = plugin;
	cpu_words(h.cpu);
	snprintf(h.llvm, sizeof h.llvm, "%s", WE_LLVM_VERSION);
	snprintf(h.passes, sizeof h.passes, "%s", XJIT_PASSES);
	memcpy(k->material, &h, sizeof h);
	memcpy(k->material + sizeof h, L->mod->code + kn->code_start / WE_INST_SIZE, code);
	snprintf(k->name, sizeof k->name, "%016llx%016llx", (unsigned long long)xjit_hash(k->material, k->len, 1),
		 (unsigned long long)xjit_hash(k->material, k->len, 2));
	return true;
}

void xjit_key_free(xjit_key *k)
{
	free(k->material);
	k->material = NULL;
	k->len = 0;
}

/* ---- probing ------------------------------------------------------------ */

bool xjit_disk_probe(const char *dir, const xjit_key *k)
{
	char path[4096];
	struct stat st;
	return entry_path(path, sizeof path, dir, k->name) && !stat(path, &st) && S_ISREG(st.st_mode);
}

bool xjit_disk_writable(const char *dir)
{
	char p[4096];
	if ((size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p)
		return false;
	for (;;) {
		struct stat st;
		if (!stat(p, &st))
			return S_ISDIR(st.st_mode) && !access(p, W_OK | X_OK);
		if (errno != ENOENT)
			return false;
		/* the directory above (a relative name's: the working one) */
		char *slash = strrchr(p, '/');
		while (slash && slash > p && slash[1] == 0) {
			*slash = 0;
			slash = strrchr(p, '/');
		}
		if (!slash)
			snprintf(p, sizeof p, ".");
		else if (slash == p)
			p[1] = 0;
		else
			*slash = 0;
	}
}

/* ---- the file ------------------------------------------------------------ */

/* An entry: this head, the key's material, the host string (its bytes,
 * no NUL), the block table (nblocks pairs of uint32_t), the object file,
 * and the hash of all of it (uint64_t).  Host byte order: the key's CPU
 * words tell hosts apart. */
typedef struct file_head {
	char magic[8];
	uint32_t order;        /* FILE_ORDER as this host writes it           */
	uint32_t format;
	uint64_t total;        /* the file's bytes, the checksum included     */
	uint64_t material, host, nblocks, obj;
} file_head;
#define FILE_MAGIC "WEJITC\n"
#define FILE_ORDER 0x01020304u

/* The parts of an entry of len bytes at buf, checked; false with why in
 * note (what after "entry NAME "). */
static bool parse_entry(const uint8_t *buf, size_t len, const xjit_key *k, uint32_t ninsns, xjit_image *img,
			char *note, size_t notelen)
{
	file_head h;
	if (len < sizeof h + 8) {
		snprintf(note, notelen, "is truncated (%zu bytes)", len);
		return false;
	}
	memcpy(&h, buf, sizeof h);
	if (memcmp(h.magic, FILE_MAGIC, 8) || h.order != FILE_ORDER || h.format != DISK_FORMAT) {
		snprintf(note, notelen, "is of another format");
		return false;
	}
	if (h.total != len) {
		snprintf(note, notelen, "is truncated or too long (%zu bytes of %llu)", len, (unsigned long long)h.total);
		return false;
	}
	uint64_t sum;
	memcpy(&sum, buf + len - 8, 8);
	if (sum != xjit_hash(buf, len - 8, 3)) {
		snprintf(note, notelen, "fails its checksum (corrupt)");
		return false;
	}
	/* (the lengths, each below len: their sum cannot wrap) */
	if (h.material > len || h.host > len || h.nblocks > len || h.obj > len ||
	    sizeof h + h.material + h.host + 8 * h.nblocks + h.obj + 8 != len || !h.obj != !h.nblocks) {
		snprintf(note, notelen, "has inconsistent lengths");
		return false;
	}
	const uint8_t *p = buf + sizeof h;
	if (h.material != k->len || memcmp(p, k->material, k->len)) {
		snprintf(note, notelen, "is of another kernel, build or host");
		return false;
	}
	p += h.material;
	img->host = malloc(h.host + 1);
	img->block = malloc(h.nblocks ? 8 * h.nblocks : 1);
	img->obj = malloc(h.obj ? h.obj : 1);
	if (!img->host || !img->block || !img->obj) {
		snprintf(note, notelen, "does not fit in memory");
		return false;
	}
	memcpy(img->host, p, h.host);
	img->host[h.host] = 0;
	p += h.host;
	memcpy(img->block, p, 8 * h.nblocks);
	img->nblocks = (uint32_t)h.nblocks;
	p += 8 * h.nblocks;
	memcpy(img->obj, p, h.obj);
	img->objlen = h.obj;
	/* blocks in order, inside the kernel, not overlapping */
	for (uint32_t b = 0, next = 0; b < img->nblocks; b++) {
		const uint32_t q = img->block[b][0], n = img->block[b][1];
		if (q < next || !n || q >= ninsns || n > ninsns - q) {
			snprintf(note, notelen, "has a bad block table");
			return false;
		}
		next = q + n;
	}
	return true;
}

/* The whole of fd (a regular file of this user, at most DISK_MAX bytes)
 * in *buf, *len; false with why in note. */
static bool read_all(int fd, uint8_t **buf, size_t *len, char *note, size_t notelen)
{
	struct stat st;
	if (fstat(fd, &st)) {
		snprintf(note, notelen, "cannot be read: %s", strerror(errno));
		return false;
	}
	/* (code to be run: only this user's, which nobody else may write) */
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(note, notelen, "is not a file of this user that only this user may write");
		return false;
	}
	if ((uint64_t)st.st_size > DISK_MAX) {
		snprintf(note, notelen, "is too large (%lld bytes)", (long long)st.st_size);
		return false;
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf) {
		snprintf(note, notelen, "does not fit in memory");
		return false;
	}
	size_t got = 0;
	while (got < *len) {
		const ssize_t r = read(fd, *buf + got, *len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	/* (a file that shrank under us reads as the shorter file) */
	*len = got;
	return true;
}

bool xjit_disk_read(const char *dir, const xjit_key *k, uint32_t ninsns, xjit_image *img, char *note,
		    size_t notelen)
{
	char path[4096], why[160];
	memset(img, 0, sizeof *img);
	if (!entry_path(path, sizeof path, dir, k->name)) {
		snprintf(note, notelen, "the cache's directory name is too long");
		return false;
	}
	const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(note, notelen, "entry %s cannot be opened: %s", path, strerror(errno));
		return false;
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	bool ok = read_all(fd, &buf, &len, why, sizeof why);
	ok = ok && parse_entry(buf, len, k, ninsns, img, why, sizeof why);
	/* used now: its modification time is what xjit_disk_prune keeps the
	 * newest of (a failure only makes it look older) */
	if (ok)
		(void)futimens(fd, NULL);
	(void)close(fd); /* (read only: nothing to lose) */
	free(buf);
	if (!ok) {
		snprintf(note, notelen, "entry %s %s: ignored", path, why);
		xjit_image_free(img);
	}
	return ok;
}

/* ---- writing ------------------------------------------------------------- */

/* mkdir -p dir, the directories it adds private to this user */
static bool make_dirs(const char *dir)
{
	char p[4096];
	if ((size_t)snprintf(p, sizeof p, "%s", dir) >= sizeof p)
		return false;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		const char c = *s;
		*s = 0;
		if (mkdir(p, 0700) && errno != EEXIST)
			return false;
		*s = c;
		if (!c)
			break;
	}
	struct stat st;
	return !stat(dir, &st) && S_ISDIR(st.st_mode);
}

static bool write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		const ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* The entry of k and img as one buffer (malloc'd), or NULL. */
static uint8_t *build_entry(const xjit_key *k, const xjit_image *img, size_t *len)
{
	const size_t host = strlen(img->host);
	file_head h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, FILE_MAGIC, 8);
	h.order = FILE_ORDER;
	h.format = DISK_FORMAT;
	h.material = k->len;
	h.host = host;
	h.nblocks = img->nblocks;
	h.obj = img->objlen;
	*len = sizeof h + k->len + host + 8 * (size_t)img->nblocks + img->objlen + 8;
	h.total = *len;
	uint8_t *buf = malloc(*len), *p = buf;
	if (!buf)
		return NULL;
	memcpy(p, &h, sizeof h);
	p += sizeof h;
	memcpy(p, k->material, k->len);
	p += k->len;
	memcpy(p, img->host, host);
	p += host;
	if (img->nblocks)
		memcpy(p, img->block, 8 * (size_t)img->nblocks);
	p += 8 * (size_t)img->nblocks;
	if (img->objlen)
		memcpy(p, img->obj, img->objlen);
	p += img->objlen;
	const uint64_t sum = xjit_hash(buf, *len - 8, 3);
	memcpy(p, &sum, 8);
	return buf;
}

/* ---- the size bound ------------------------------------------------------ */

uint64_t xjit_disk_limit(void)
{
	const char *s = getenv("WARPEMU_JIT_CACHE_MAX");
	if (s && *s) {
		char *end;
		errno = 0;
		const unsigned long long v = strtoull(s, &end, 10);
		if (!errno && end != s && !*end)
			return v;
	}
	return XJIT_DISK_LIMIT;
}

/* name is an entry's (32 hex digits, ".wjit"), or when tmp a temporary
 * file of xjit_disk_write (".", 32 hex digits, ".", 6 characters) */
static bool cache_name(const char *name, bool tmp)
{
	const char *h = tmp ? name + 1 : name;
	if (tmp && name[0] != '.')
		return false;
	for (int i = 0; i < 32; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return false;
	return tmp ? h[32] == '.' && strlen(h + 33) == 6 : !strcmp(h + 32, ".wjit");
}

typedef struct dent {
	char name[64];
	uint64_t size;
	struct timespec mtime;
} dent;

static int dent_older(const void *pa, const void *pb)
{
	const dent *a = pa, *b = pb;
	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
	return strcmp(a->name, b->name);
}

unsigned xjit_disk_prune(const char *dir, uint64_t limit, const char *keep)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	dent *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	unsigned removed = 0;
	const time_t now = time(NULL);
	for (struct dirent *de; (de = readdir(d));) {
		const bool entry = cache_name(de->d_name, false), tmp = !entry && cache_name(de->d_name, true);
		struct stat st;
		if ((!entry && !tmp) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (tmp) {
			/* a writer's temporary file: an hour old, one that died */
			if (now - st.st_mtim.tv_sec > 3600 && !unlinkat(dirfd(d), de->d_name, 0))
				removed++;
			continue;
		}
		if (n == cap) {
			dent *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
			if (!w)
				break;
			v = w;
		}
		memcpy(v[n].name, de->d_name, strlen(de->d_name) + 1); /* (37 characters: cache_name) */
		v[n].size = (uint64_t)st.st_size;
		v[n].mtime = st.st_mtim;
		total += v[n++].size;
	}
	/* the least recently used first, until the rest fits (never keep:
	 * the entry just written) */
	qsort(v, n, sizeof *v, dent_older);
	for (size_t i = 0; i < n && total > limit; i++) {
		if (keep && !strncmp(v[i].name, keep, 32))
			continue;
		if (!unlinkat(dirfd(d), v[i].name, 0)) {
			total -= v[i].size;
			removed++;
		}
	}
	free(v);
	(void)closedir(d);
	return removed;
}

bool xjit_disk_write(const char *dir, const xjit_key *k, const xjit_image *img, char *note, size_t notelen)
{
	char path[4096], tmp[4096];
	if (!entry_path(path, sizeof path, dir, k->name) ||
	    (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, k->name) >= sizeof tmp) {
		snprintf(note, notelen, "the cache's directory name is too long");
		return false;
	}
	if (!make_dirs(dir)) {
		snprintf(note, notelen, "cannot create the directory %s: %s", dir, strerror(errno));
		return false;
	}
	size_t len;
	uint8_t *buf = build_entry(k, img, &len);
	if (!buf) {
		snprintf(note, notelen, "out of memory for the entry");
		return false;
	}
	const int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(note, notelen, "cannot create a file in %s: %s", dir, strerror(errno));
		free(buf);
		return false;
	}
	bool ok = write_all(fd, buf, len);
	int e = ok ? 0 : errno;
	free(buf);
	if (close(fd) && ok)
		ok = false, e = errno;
	if (ok && rename(tmp, path))
		ok = false, e = errno;
	if (!ok) {
		snprintf(note, notelen, "cannot write %s: %s", path, strerror(e ? e : EIO));
		(void)unlink(tmp); /* (its failure leaves a stray temporary file only) */
	} else {
		(void)xjit_disk_prune(dir, xjit_disk_limit(), k->name);
	}
	return ok;
}
