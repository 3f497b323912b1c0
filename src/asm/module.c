/* module.c — modules: construction, freeing, and the binary image.
 *
 * Binary image, version 1 (every integer little-endian):
 *
 *   char[8]  "WEMODULE"
 *   u32      version (1)
 *   u32      reserved (0)
 *   u32      ninsns
 *   u32      nkernels
 *   u32      nbanks                   constant banks present
 *   u32 len, bytes                    source file name (for messages)
 *   nkernels x kernel:
 *     u32 len, bytes                  name (1..1024 bytes, no NUL)
 *     u32 dialect                     0 target, 1 sass, 2 visa, 3 ptx
 *     u32 code_start, code_end        byte offsets, multiples of 16
 *     u32 shared_bytes, local_bytes
 *     u32 param_bytes
 *     u32 trap_handler                byte offset, 0xffffffff = none
 *     u32 nparams
 *     nparams x { u32 len, bytes name; u32 type; u32 offset; u32 size }
 *   nbanks x { u32 bank (1..31); u32 size (1..65536); bytes }
 *   ninsns x { u64 lo; u64 hi }       the instruction words
 *   ninsns x u32                      source line of each instruction
 *
 * Nothing may follow.  The loader checks every count, length and offset
 * against the image and the limits of module.h, decodes every word with
 * isa_decode() and runs isa_check() on it.
 */
#include "asm/module.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMAGE_MAGIC "WEMODULE"
#define IMAGE_VERSION 1u
#define NAME_MAX_BYTES MODULE_NAME_MAX
#define SOURCE_MAX_BYTES 4096u
#define KERNELS_MAX MODULE_KERNELS_MAX

static const char *const dialects[] = { "target", "sass", "visa", "ptx" };

void module_ptx_loc(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	if (n)
		buf[0] = 0;
	if (!m || !m->line || pc % WE_INST_SIZE || idx >= m->ninsns || !m->line[idx])
		return;
	for (uint32_t k = 0; k < m->nkernels; k++) {
		const we_kernel *kk = &m->kernels[k];
		if (pc >= kk->code_start && pc < kk->code_end && kk->dialect == WE_DIALECT_PTX) {
			snprintf(buf, n, " (%s:%" PRIu32 ")", m->source ? m->source : "<module>", m->line[idx]);
			return;
		}
	}
}

const module_param_type module_param_types[MODULE_NPARAM_TYPES] = {
	[WE_PARAM_U32] = { "u32", 4 }, [WE_PARAM_S32] = { "s32", 4 }, [WE_PARAM_F32] = { "f32", 4 },
	[WE_PARAM_U64] = { "u64", 8 }, [WE_PARAM_F64] = { "f64", 8 }, [WE_PARAM_PTR] = { "ptr", 8 },
	[WE_PARAM_BYTES] = { "b8", 0 },
};

const char *module_dialect_name(we_dialect d)
{
	return (unsigned)d < 4 ? dialects[d] : dialects[0];
}

bool module_source_line(const struct we_module *m, uint64_t pc, const char **file, uint32_t *line)
{
	const uint64_t idx = pc / WE_INST_SIZE;
	if (!m->line || pc % WE_INST_SIZE || idx >= m->ninsns || !m->line[idx])
		return false;
	*file = m->source ? m->source : "<module>";
	*line = m->line[idx];
	return true;
}

struct we_module *module_new(void)
{
	return calloc(1, sizeof(struct we_module));
}

static void kernel_free(we_kernel *k)
{
	free(k->name);
	for (unsigned i = 0; i < k->param_cap; i++)
		free(k->param_names[i]);
	free(k->param_names);
	free(k->params);
}

bool module_param_reserve(we_kernel *k, unsigned n)
{
	if (n <= k->param_cap)
		return true;
	unsigned cap = k->param_cap ? k->param_cap : 4;
	while (cap < n)
		cap *= 2;
	we_param_info *p = realloc(k->params, cap * sizeof *p);
	if (!p)
		return false;
	k->params = p;
	char **names = realloc(k->param_names, cap * sizeof *names);
	if (!names)
		return false;
	k->param_names = names;
	memset(p + k->param_cap, 0, (cap - k->param_cap) * sizeof *p);
	memset(names + k->param_cap, 0, (cap - k->param_cap) * sizeof *names);
	k->param_cap = cap;
	return true;
}

void module_free(struct we_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nkernels; i++)
		kernel_free(&m->kernels[i]);
	free(m->kernels);
	free(m->kernel_hash);
	for (unsigned b = 0; b < WE_NUM_CBANKS; b++)
		free(m->cbank[b].data);
	free(m->code);
	free(m->insn);
	free(m->line);
	free(m->source);
	free(m->x); /* the executor's decode-once form: one allocation */
	free(m);
}

static void module_finish_info_one(we_kernel *k);

/* FNV-1a */
static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

we_kernel *module_find_kernel_n(const struct we_module *m, const char *name, size_t n)
{
	if (!m || !m->kernel_hash_cap)
		return NULL;
	uint32_t mask = m->kernel_hash_cap - 1;
	for (uint32_t i = name_hash(name, n) & mask; m->kernel_hash[i]; i = (i + 1) & mask) {
		we_kernel *k = &m->kernels[m->kernel_hash[i] - 1];
		if (strlen(k->name) == n && !memcmp(k->name, name, n))
			return k;
	}
	return NULL;
}

static void hash_put(uint32_t *tab, uint32_t cap, const char *name, uint32_t index)
{
	uint32_t i = name_hash(name, strlen(name)) & (cap - 1);
	while (tab[i])
		i = (i + 1) & (cap - 1);
	tab[i] = index + 1;
}

/* Room for one more kernel: the array and the hash table grow by
 * doubling, so that adding n kernels costs O(n), not O(n^2). */
static bool kernels_reserve(struct we_module *m)
{
	if (m->nkernels == m->capkernels) {
		uint32_t cap = m->capkernels ? m->capkernels * 2 : 8;
		if (cap > KERNELS_MAX)
			cap = KERNELS_MAX;
		we_kernel *k = realloc(m->kernels, (size_t)cap * sizeof *k);
		if (!k)
			return false;
		/* (nothing points into the array: names and parameters are
		 * allocations of their own) */
		m->kernels = k;
		m->capkernels = cap;
	}
	if (2 * (m->nkernels + 1) > m->kernel_hash_cap) {
		uint32_t cap = m->kernel_hash_cap ? m->kernel_hash_cap * 2 : 16;
		uint32_t *t = calloc(cap, sizeof *t);
		if (!t)
			return false;
		for (uint32_t i = 0; i < m->nkernels; i++)
			hash_put(t, cap, m->kernels[i].name, i);
		free(m->kernel_hash);
		m->kernel_hash = t;
		m->kernel_hash_cap = cap;
	}
	return true;
}

we_kernel *module_add_kernel(struct we_module *m, const char *name)
{
	if (!m || !name || m->nkernels >= KERNELS_MAX || !kernels_reserve(m))
		return NULL;
	size_t n = strlen(name);
	char *copy = malloc(n + 1);
	if (!copy)
		return NULL;
	memcpy(copy, name, n + 1);
	we_kernel *k = &m->kernels[m->nkernels];
	memset(k, 0, sizeof *k);
	k->name = copy;
	k->trap_handler = -1;
	hash_put(m->kernel_hash, m->kernel_hash_cap, copy, m->nkernels);
	m->nkernels++;
	module_finish_info_one(k);
	return k;
}

static void module_finish_info_one(we_kernel *k)
{
	k->info.name = k->name;
	k->info.dialect = module_dialect_name(k->dialect);
	k->info.params = k->params;
	for (unsigned p = 0; p < k->info.nparams && p < k->param_cap; p++)
		k->params[p].name = k->param_names[p];
	k->info.shared_bytes = k->shared_bytes;
	k->info.local_bytes = k->local_bytes;
	k->info.ninsns = k->code_end >= k->code_start ? (k->code_end - k->code_start) / WE_INST_SIZE : 0;
	k->info.nregs = k->nregs;
}

void module_finish_info(struct we_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nkernels; i++)
		module_finish_info_one(&m->kernels[i]);
}

/* ======================================================================
 * Saving
 * ====================================================================== */

typedef struct wbuf {
	uint8_t *p;
	size_t n;
} wbuf;

static void w32(wbuf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

static void w64(wbuf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

static void wbytes(wbuf *b, const void *s, size_t n)
{
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void wstr(wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	w32(b, (uint32_t)n);
	wbytes(b, s, n);
}

/* total += add, false on overflow */
static bool add_size(size_t *total, size_t add)
{
	if (add > SIZE_MAX - *total)
		return false;
	*total += add;
	return true;
}

we_status module_save(const struct we_module *m, void **image, size_t *len)
{
	if (image)
		*image = NULL;
	if (len)
		*len = 0;
	if (!m || !image || !len || (m->ninsns && !m->code) || m->nkernels > KERNELS_MAX)
		return WE_ERR_INVALID;
	const char *src = m->source ? m->source : "";
	size_t srclen = strlen(src);
	if (srclen > SOURCE_MAX_BYTES)
		srclen = SOURCE_MAX_BYTES;
	size_t total = 8 + 4 * 5;
	bool ok = add_size(&total, 4 + srclen);
	for (uint32_t i = 0; i < m->nkernels && ok; i++) {
		const we_kernel *k = &m->kernels[i];
		size_t nl = k->name ? strlen(k->name) : 0;
		if (!nl || nl > NAME_MAX_BYTES || k->info.nparams > WE_MAX_PARAMS)
			return WE_ERR_INVALID;
		ok = add_size(&total, 4 + nl + 4 * 9);
		for (unsigned p = 0; p < k->info.nparams && ok; p++) {
			size_t pl = k->param_names[p] ? strlen(k->param_names[p]) : 0;
			if (!pl || pl > NAME_MAX_BYTES)
				return WE_ERR_INVALID;
			ok = add_size(&total, 4 + pl + 12);
		}
	}
	uint32_t nbanks = 0;
	for (unsigned b = 1; b < WE_NUM_CBANKS && ok; b++)
		if (m->cbank[b].size) {
			if (m->cbank[b].size > WE_CBANK_MAX || !m->cbank[b].data)
				return WE_ERR_INVALID;
			nbanks++;
			ok = add_size(&total, 8 + m->cbank[b].size);
		}
	ok = ok && add_size(&total, (size_t)m->ninsns * 16) && add_size(&total, (size_t)m->ninsns * 4);
	if (!ok)
		return WE_ERR_NOMEM;
	wbuf b = { malloc(total), 0 };
	if (!b.p)
		return WE_ERR_NOMEM;
	wbytes(&b, IMAGE_MAGIC, 8);
	w32(&b, IMAGE_VERSION);
	w32(&b, 0);
	w32(&b, m->ninsns);
	w32(&b, m->nkernels);
	w32(&b, nbanks);
	w32(&b, (uint32_t)srclen);
	wbytes(&b, src, srclen);
	for (uint32_t i = 0; i < m->nkernels; i++) {
		const we_kernel *k = &m->kernels[i];
		wstr(&b, k->name);
		w32(&b, (uint32_t)k->dialect);
		w32(&b, k->code_start);
		w32(&b, k->code_end);
		w32(&b, k->shared_bytes);
		w32(&b, k->local_bytes);
		w32(&b, k->info.param_bytes);
		w32(&b, k->trap_handler < 0 ? UINT32_MAX : (uint32_t)k->trap_handler);
		w32(&b, k->info.nparams);
		for (unsigned p = 0; p < k->info.nparams; p++) {
			wstr(&b, k->param_names[p]);
			w32(&b, (uint32_t)k->params[p].type);
			w32(&b, k->params[p].offset);
			w32(&b, k->params[p].size);
		}
	}
	for (unsigned bk = 1; bk < WE_NUM_CBANKS; bk++)
		if (m->cbank[bk].size) {
			w32(&b, bk);
			w32(&b, m->cbank[bk].size);
			wbytes(&b, m->cbank[bk].data, m->cbank[bk].size);
		}
	for (uint32_t i = 0; i < m->ninsns; i++) {
		w64(&b, m->code[i].lo);
		w64(&b, m->code[i].hi);
	}
	for (uint32_t i = 0; i < m->ninsns; i++)
		w32(&b, m->line ? m->line[i] : 0);
	*image = b.p;
	*len = b.n;
	return WE_OK;
}

/* ======================================================================
 * Loading
 * ====================================================================== */

typedef struct rbuf {
	const uint8_t *p;
	size_t len, pos;
	char *err;
	size_t errlen;
	bool fail;
} rbuf;

static bool rfail(rbuf *r, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static bool rfail(rbuf *r, const char *fmt, ...)
{
	if (r->fail)
		return false;
	r->fail = true;
	if (r->err && r->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool need(rbuf *r, size_t n, const char *what)
{
	if (r->fail)
		return false;
	if (n > r->len - r->pos)
		return rfail(r, "truncated module image: %s at offset %zu needs %zu bytes, %zu left",
			     what, r->pos, n, r->len - r->pos);
	return true;
}

static uint32_t r32(rbuf *r, const char *what)
{
	if (!need(r, 4, what))
		return 0;
	const uint8_t *p = r->p + r->pos;
	r->pos += 4;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t r64(rbuf *r, const char *what)
{
	uint64_t lo = r32(r, what);
	uint64_t hi = r32(r, what);
	return lo | hi << 32;
}

/* a length-prefixed name: 1..max bytes without NUL; malloc'd */
static char *rname(rbuf *r, const char *what, uint32_t max, bool allow_empty)
{
	uint32_t n = r32(r, what);
	if (r->fail)
		return NULL;
	if ((!n && !allow_empty) || n > max) {
		rfail(r, "bad module image: %s length %" PRIu32 " (1..%" PRIu32 ")", what, n, max);
		return NULL;
	}
	if (!need(r, n, what))
		return NULL;
	const char *s = (const char *)r->p + r->pos;
	if (memchr(s, 0, n)) {
		rfail(r, "bad module image: %s contains a NUL byte", what);
		return NULL;
	}
	char *d = malloc((size_t)n + 1);
	if (!d) {
		rfail(r, "out of memory");
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = 0;
	r->pos += n;
	return d;
}

static bool load_kernel(rbuf *r, struct we_module *m, uint32_t ki, uint32_t code_bytes)
{
	char what[64];
	snprintf(what, sizeof what, "kernel %" PRIu32 " name", ki);
	char *name = rname(r, what, NAME_MAX_BYTES, false);
	if (!name)
		return false;
	if (module_find_kernel_n(m, name, strlen(name))) {
		rfail(r, "bad module image: duplicate kernel '%s'", name);
		free(name);
		return false;
	}
	we_kernel *k = module_add_kernel(m, name);
	free(name);
	if (!k)
		return rfail(r, "out of memory");
	uint32_t dialect = r32(r, "kernel dialect");
	uint32_t start = r32(r, "kernel code range"), end = r32(r, "kernel code range");
	k->shared_bytes = r32(r, "kernel shared size");
	k->local_bytes = r32(r, "kernel local size");
	uint32_t pbytes = r32(r, "kernel parameter size");
	uint32_t trap = r32(r, "kernel trap handler");
	uint32_t np = r32(r, "kernel parameter count");
	if (r->fail)
		return false;
	if (dialect >= 4)
		return rfail(r, "bad module image: kernel '%s': dialect %" PRIu32 " (0..3)", k->name, dialect);
	k->dialect = (we_dialect)dialect;
	if (start > end || end > code_bytes || start % WE_INST_SIZE || end % WE_INST_SIZE)
		return rfail(r, "bad module image: kernel '%s': code range [0x%" PRIx32 ", 0x%" PRIx32
			     ") outside the code (0x%" PRIx32 " bytes) or misaligned",
			     k->name, start, end, code_bytes);
	k->code_start = start;
	k->code_end = end;
	if (trap != UINT32_MAX) {
		if (trap >= code_bytes || trap % WE_INST_SIZE)
			return rfail(r, "bad module image: kernel '%s': trap handler 0x%" PRIx32
				     " outside the code or misaligned", k->name, trap);
		k->trap_handler = (int)trap;
	}
	if (pbytes > WE_PARAM_BYTES_MAX)
		return rfail(r, "bad module image: kernel '%s': %" PRIu32 " parameter bytes (at most %u)",
			     k->name, pbytes, WE_PARAM_BYTES_MAX);
	if (np > WE_MAX_PARAMS)
		return rfail(r, "bad module image: kernel '%s': %" PRIu32 " parameters (at most %u)",
			     k->name, np, WE_MAX_PARAMS);
	k->info.param_bytes = pbytes;
	if (!module_param_reserve(k, np))
		return rfail(r, "out of memory");
	for (uint32_t p = 0; p < np; p++) {
		snprintf(what, sizeof what, "kernel %" PRIu32 " parameter %" PRIu32 " name", ki, p);
		char *pn = rname(r, what, NAME_MAX_BYTES, false);
		if (!pn)
			return false;
		k->param_names[p] = pn;
		k->info.nparams = p + 1;
		uint32_t type = r32(r, "parameter type");
		uint32_t off = r32(r, "parameter offset");
		uint32_t size = r32(r, "parameter size");
		if (r->fail)
			return false;
		for (uint32_t q = 0; q < p; q++)
			if (!strcmp(k->param_names[q], pn))
				return rfail(r, "bad module image: kernel '%s': duplicate parameter '%s'", k->name, pn);
		const bool bytes = type == WE_PARAM_BYTES;
		if (type >= MODULE_NPARAM_TYPES || (bytes ? size == 0 : size != module_param_types[type].size))
			return rfail(r, "bad module image: kernel '%s': parameter '%s' has type %" PRIu32
				     " and size %" PRIu32, k->name, pn, type, size);
		if ((!bytes && off % size) || off > pbytes || size > pbytes - off)
			return rfail(r, "bad module image: kernel '%s': parameter '%s' at offset %" PRIu32
				     " is misaligned or outside the %" PRIu32 " parameter bytes",
				     k->name, pn, off, pbytes);
		k->params[p] = (we_param_info){ pn, (we_param_type)type, off, size };
	}
	return true;
}

we_status module_load(const void *image, size_t len, struct we_module **out,
		      char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!out)
		return WE_ERR_INVALID;
	*out = NULL;
	rbuf r = { image, image ? len : 0, 0, err, errlen, false };
	if (!image || len < 8 || memcmp(image, IMAGE_MAGIC, 8)) {
		rfail(&r, "not a warpemu module image (no \"WEMODULE\" magic)");
		return WE_ERR_LOAD;
	}
	r.pos = 8;
	uint32_t version = r32(&r, "version");
	(void)r32(&r, "header");
	uint32_t ninsns = r32(&r, "instruction count");
	uint32_t nkernels = r32(&r, "kernel count");
	uint32_t nbanks = r32(&r, "constant bank count");
	if (r.fail)
		return WE_ERR_LOAD;
	if (version != IMAGE_VERSION) {
		rfail(&r, "unsupported module image version %" PRIu32 " (expected %u)", version, IMAGE_VERSION);
		return WE_ERR_LOAD;
	}
	/* every instruction takes 20 bytes of the image: bound it first */
	if (ninsns > (len - r.pos) / 20 || ninsns > UINT32_MAX / WE_INST_SIZE) {
		rfail(&r, "truncated module image: %" PRIu32 " instructions do not fit in %zu bytes",
		      ninsns, len);
		return WE_ERR_LOAD;
	}
	if (nkernels > KERNELS_MAX || nkernels > (len - r.pos) / 40) {
		rfail(&r, "bad module image: %" PRIu32 " kernels", nkernels);
		return WE_ERR_LOAD;
	}
	if (nbanks >= WE_NUM_CBANKS) {
		rfail(&r, "bad module image: %" PRIu32 " constant banks (at most %u)", nbanks, WE_NUM_CBANKS - 1);
		return WE_ERR_LOAD;
	}
	struct we_module *m = module_new();
	if (!m) {
		rfail(&r, "out of memory");
		return WE_ERR_NOMEM;
	}
	m->source = rname(&r, "source name", SOURCE_MAX_BYTES, true);
	uint32_t code_bytes = ninsns * WE_INST_SIZE;
	for (uint32_t i = 0; i < nkernels && !r.fail; i++)
		load_kernel(&r, m, i, code_bytes);
	for (uint32_t i = 0; i < nbanks && !r.fail; i++) {
		uint32_t bank = r32(&r, "constant bank number");
		uint32_t size = r32(&r, "constant bank size");
		if (r.fail)
			break;
		if (bank < 1 || bank >= WE_NUM_CBANKS || m->cbank[bank].size) {
			rfail(&r, "bad module image: constant bank %" PRIu32 " (1..%u, each once)", bank,
			      WE_NUM_CBANKS - 1);
			break;
		}
		if (!size || size > WE_CBANK_MAX) {
			rfail(&r, "bad module image: constant bank %" PRIu32 " size %" PRIu32 " (1..%u)", bank,
			      size, WE_CBANK_MAX);
			break;
		}
		if (!need(&r, size, "constant bank data"))
			break;
		m->cbank[bank].data = malloc(size);
		if (!m->cbank[bank].data) {
			rfail(&r, "out of memory");
			break;
		}
		memcpy(m->cbank[bank].data, r.p + r.pos, size);
		m->cbank[bank].size = size;
		r.pos += size;
	}
	if (!r.fail && ninsns) {
		m->code = malloc((size_t)ninsns * sizeof *m->code);
		m->insn = malloc((size_t)ninsns * sizeof *m->insn);
		m->line = malloc((size_t)ninsns * sizeof *m->line);
		if (!m->code || !m->insn || !m->line)
			rfail(&r, "out of memory");
	}
	if (!r.fail && !need(&r, (size_t)ninsns * 20, "instructions"))
		r.fail = true;
	for (uint32_t i = 0; i < ninsns && !r.fail; i++) {
		m->code[i].lo = r64(&r, "instruction");
		m->code[i].hi = r64(&r, "instruction");
	}
	for (uint32_t i = 0; i < ninsns && !r.fail; i++)
		m->line[i] = r32(&r, "line table");
	m->ninsns = r.fail ? 0 : ninsns;
	if (!r.fail && r.pos != len)
		rfail(&r, "bad module image: %zu bytes of garbage after the end", len - r.pos);
	for (uint32_t i = 0; i < m->ninsns && !r.fail; i++) {
		int op = isa_decode(&m->code[i], &m->insn[i]);
		if (op < 0) {
			rfail(&r, "bad module image: instruction %" PRIu32 " (offset 0x%" PRIx32
			      "): illegal encoding 0x%016" PRIx64 "%016" PRIx64,
			      i, i * WE_INST_SIZE, m->code[i].hi, m->code[i].lo);
			break;
		}
		const char *chk = isa_check(&m->insn[i]);
		if (chk)
			rfail(&r, "bad module image: instruction %" PRIu32 " (offset 0x%" PRIx32 ", %s): %s",
			      i, i * WE_INST_SIZE, isa_opcodes[op].name, chk);
	}
	if (r.fail) {
		bool oom = err && !strcmp(err, "out of memory");
		module_free(m);
		return oom ? WE_ERR_NOMEM : WE_ERR_LOAD;
	}
	module_finish_info(m);
	*out = m;
	return WE_OK;
}
