/* harness.c — see harness.h. */
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host helpers ------------------------------------------------- */

void *th_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	CHECK(p != NULL, "out of memory (%zu bytes)", n);
	return p;
}

char *th_xstrdup(const char *s)
{
	if (!s)
		s = "";
	char *p = th_xmalloc(strlen(s) + 1);
	strcpy(p, s);
	return p;
}

void th_sb_add(th_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	CHECK(n >= 0, "vsnprintf");
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		CHECK(p != NULL, "out of memory");
		b->p = p;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* A test process runs one test at a time: one stream is enough. */
static uint64_t rng_state;

void th_rng_seed(uint64_t s)
{
	rng_state = s;
}

uint64_t th_rng64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t th_rng(void)
{
	return (uint32_t)(th_rng64() >> 32);
}

unsigned th_occurrences(const char *text, const char *needle)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* ---- files of the source tree -------------------------------------- */

void th_source_path(char *buf, size_t n, const char *rel)
{
	const char *top = getenv("top_srcdir");
	int len = snprintf(buf, n, "%s/%s", top ? top : "..", rel);
	CHECK(len >= 0 && (size_t)len < n, "path of %s too long", rel);
}

char *th_read_source(const char *rel, size_t *len)
{
	char path[2048];
	th_source_path(path, sizeof path, rel);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL, "cannot open %s", path);
	CHECK(fseek(f, 0, SEEK_END) == 0, "cannot seek in %s", path);
	long n = ftell(f);
	CHECK(n >= 0, "cannot tell the size of %s", path);
	rewind(f);
	char *text = th_xmalloc((size_t)n + 1);
	CHECK(fread(text, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
	text[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return text;
}

/* ---- a kernel under test ------------------------------------------- */

void th_load(th_kernel *t, const char *text, const char *name, const char *kernel)
{
	memset(t, 0, sizeof *t);
	ck_assert_int_eq(we_device_create(NULL, &t->dev), WE_OK);
	we_status st = we_module_load_text(t->dev, text, strlen(text), name, &t->mod);
	CHECK(st == WE_OK, "%s: %s: %s", name, we_status_name(st), we_last_error(t->dev));
	t->k = kernel ? we_module_find_kernel(t->mod, kernel) : we_module_kernel(t->mod, 0);
	CHECK(t->k != NULL, "%s has no kernel %s", name, kernel ? kernel : "(first)");
	CHECK(t->k->param_bytes <= sizeof t->params, "%s: %u bytes of parameters, more than %zu", name,
	      t->k->param_bytes, sizeof t->params);
}

void th_file(th_kernel *t, const char *rel, const char *kernel)
{
	char *text = th_read_source(rel, NULL);
	th_load(t, text, rel, kernel);
	free(text);
}

void th_close(th_kernel *t)
{
	for (unsigned i = 0; i < t->nb; i++)
		free(t->b[i].init);
	if (t->mod)
		we_module_destroy(t->mod);
	we_device_destroy(t->dev);
	memset(t, 0, sizeof *t);
}

const we_param_info *th_param(const th_kernel *t, const char *name)
{
	for (unsigned i = 0; i < t->k->nparams; i++)
		if (strcmp(t->k->params[i].name, name) == 0)
			return &t->k->params[i];
	ck_abort_msg("kernel %s has no parameter %s", t->k->name, name);
	return NULL;
}

void th_u32(th_kernel *t, const char *name, uint32_t v)
{
	const we_param_info *p = th_param(t, name);
	CHECK(p->size == 4 && p->type != WE_PARAM_F32 && p->type != WE_PARAM_PTR,
	      "parameter %s is not a 32-bit integer", name);
	memcpy(t->params + p->offset, &v, 4);
}

void th_f32(th_kernel *t, const char *name, float v)
{
	const we_param_info *p = th_param(t, name);
	CHECK(p->type == WE_PARAM_F32, "parameter %s is not f32", name);
	memcpy(t->params + p->offset, &v, 4);
}

we_devptr th_buf_new(th_kernel *t, const char *name, const void *data, size_t bytes, int fill)
{
	const we_param_info *p = th_param(t, name);
	CHECK(p->type == WE_PARAM_PTR, "parameter %s is not a pointer", name);
	CHECK(t->nb < TH_MAXBUFS, "%s: more than %d buffers", name, TH_MAXBUFS);
	th_buf *b = &t->b[t->nb++];
	b->name = p->name;
	b->bytes = bytes;
	b->init = th_xmalloc(bytes);
	if (data)
		memcpy(b->init, data, bytes);
	else
		memset(b->init, fill, bytes);
	CHECK(we_malloc(t->dev, bytes, &b->d) == WE_OK, "buffer %s of %zu bytes: %s", name, bytes,
	      we_last_error(t->dev));
	ck_assert_int_eq(we_memcpy_htod(t->dev, b->d, b->init, bytes), WE_OK);
	memcpy(t->params + p->offset, &b->d, 8);
	t->total += bytes;
	return b->d;
}

void th_restore(th_kernel *t)
{
	for (unsigned i = 0; i < t->nb; i++)
		ck_assert_int_eq(we_memcpy_htod(t->dev, t->b[i].d, t->b[i].init, t->b[i].bytes), WE_OK);
}

void th_get(th_kernel *t, void *dst, we_devptr src, size_t bytes)
{
	ck_assert_int_eq(we_memcpy_dtoh(t->dev, dst, src, bytes), WE_OK);
}

uint8_t *th_view(const th_kernel *t, uint8_t *mem, const char *name)
{
	size_t off = 0;
	for (unsigned i = 0; i < t->nb; i++) {
		if (strcmp(t->b[i].name, name) == 0)
			return mem + off;
		off += t->b[i].bytes;
	}
	ck_abort_msg("no buffer %s", name);
	return NULL;
}

we_status th_launch(th_kernel *t, const we_launch_config *cfg, we_launch_stats *s)
{
	return we_launch(t->dev, t->mod, t->k->name, cfg, t->params, t->k->param_bytes, s);
}

void th_launch_ok(th_kernel *t, const we_launch_config *cfg, we_launch_stats *s, const char *what)
{
	we_status st = th_launch(t, cfg, s);
	CHECK(st == WE_OK, "[%s] %s: status %s: %s", what, t->k->name, we_status_name(st),
	      we_last_error(t->dev));
}

void th_expect_report(const th_kernel *t, we_status st, we_status want, const char *const *parts,
		      const char *what)
{
	const char *msg = we_last_error(t->dev);
	CHECK(st == want, "[%s] status %d (%s), want %d (%s); report: %s", what, st, we_status_name(st), want,
	      we_status_name(want), msg);
	for (; *parts; parts++)
		CHECK(strstr(msg, *parts) != NULL, "[%s] report lacks '%s':\n%s", what, *parts, msg);
}

static void trace_line(void *ctx, const char *line)
{
	th_sb_add(ctx, "%s\n", line);
}

void th_trace_into(we_launch_config *cfg, th_sbuf *b)
{
	cfg->trace = b ? trace_line : NULL;
	cfg->trace_ctx = b;
}

/* ---- runs and their comparison ------------------------------------- */

void th_run_launch(th_kernel *t, const we_launch_config *cfg, th_run *r)
{
	th_restore(t);
	memset(r, 0, sizeof *r);
	r->st = th_launch(t, cfg, &r->s);
	/* we_last_error() keeps the last failure's message after a launch
	 * that succeeds; the JSON report is the launch's own ("" after a
	 * success, which test_deadlock asserts) */
	r->err = th_xstrdup(r->st == WE_OK ? "" : we_last_error(t->dev));
	r->json = th_xstrdup(we_last_report_json(t->dev));
	r->warn = th_xstrdup(we_last_warnings(t->dev));
	r->mem = th_xmalloc(t->total);
	size_t off = 0;
	for (unsigned i = 0; i < t->nb; i++) {
		th_get(t, r->mem + off, t->b[i].d, t->b[i].bytes);
		off += t->b[i].bytes;
	}
}

void th_run_free(th_run *r)
{
	free(r->mem);
	free(r->err);
	free(r->json);
	free(r->warn);
	memset(r, 0, sizeof *r);
}

void th_expect_ok(const th_run *r, const char *what)
{
	CHECK(r->st == WE_OK, "%s: status %s: %s", what, we_status_name(r->st), r->err);
}

/* The first byte where got's buffers differ from ref's, described in d as
 * the word that holds it (a thread's word of "out" when t->row_words). */
static void memory_differs(const th_kernel *t, const th_run *ref, const th_run *got, const char *refname,
			   const char *what, th_sbuf *d)
{
	if (!memcmp(got->mem, ref->mem, t->total))
		return;
	size_t off = 0;
	for (unsigned i = 0; i < t->nb; i++) {
		const th_buf *b = &t->b[i];
		for (size_t k = 0; k < b->bytes; k++)
			if (got->mem[off + k] != ref->mem[off + k]) {
				size_t w = k & ~(size_t)3, n = b->bytes - w < 4 ? b->bytes - w : 4;
				uint32_t gw = 0, rw = 0;
				memcpy(&gw, got->mem + off + w, n);
				memcpy(&rw, ref->mem + off + w, n);
				if (t->row_words && !strcmp(b->name, "out"))
					th_sb_add(d, "%s: thread %zu word %zu = 0x%08x, %s wrote 0x%08x", what,
						  w / 4 / t->row_words, w / 4 % t->row_words, gw, refname, rw);
				else
					th_sb_add(d, "%s: %s word %zu = 0x%08x, %s wrote 0x%08x", what, b->name,
						  w / 4, gw, refname, rw);
				return;
			}
		off += b->bytes;
	}
}

/* The first counter of a launch that differs, described in d. */
static void counters_differ(const th_run *ref, const th_run *got, const char *refname, const char *what,
			    th_sbuf *d)
{
	static const char *const name[4] = { "ctas", "warp_insns", "thread_insns", "barriers" };
	const uint64_t g[4] = { got->s.ctas, got->s.warp_insns, got->s.thread_insns, got->s.barriers };
	const uint64_t r[4] = { ref->s.ctas, ref->s.warp_insns, ref->s.thread_insns, ref->s.barriers };
	for (unsigned i = 0; i < 4; i++)
		if (g[i] != r[i]) {
			th_sb_add(d, "%s: %s %llu, %s %llu", what, name[i], (unsigned long long)g[i], refname,
				  (unsigned long long)r[i]);
			return;
		}
}

/* The part of report s (text or JSON) run_diff compares: all of it, or
 * with TH_SAME_WATCHDOG_FAULT of a watchdog report only the fault (its
 * first two lines of text, its JSON up to the CTA's state). */
static size_t report_part(const char *s, we_status st, unsigned flags, bool json)
{
	const char *e = NULL;
	if ((flags & TH_SAME_WATCHDOG_FAULT) && st == WE_ERR_TIMEOUT) {
		e = json ? strstr(s, ",\"barriers\":") : strchr(s, '\n');
		if (e && !json)
			e = strchr(e + 1, '\n');
	}
	return e ? (size_t)(e - s) : strlen(s) + 1;
}

static bool reports_differ(const char *got, const char *ref, we_status st, unsigned flags, bool json)
{
	const size_t n = report_part(ref, st, flags, json);
	return report_part(got, st, flags, json) != n || strncmp(got, ref, n);
}

char *th_run_diff(const th_kernel *t, const th_run *ref, const th_run *got, unsigned flags, const char *refname,
		  const char *what)
{
	th_sbuf d = { 0 };
	if (got->st != ref->st)
		th_sb_add(&d, "%s: status %s, %s gave %s\n%s", what, we_status_name(got->st), refname,
			  we_status_name(ref->st), got->err);
	else if (reports_differ(got->err, ref->err, ref->st, flags, false))
		th_sb_add(&d, "%s: report\n%s\n%s reported\n%s", what, got->err, refname, ref->err);
	else if (reports_differ(got->json, ref->json, ref->st, flags, true))
		th_sb_add(&d, "%s: JSON report\n%s\n%s reported\n%s", what, got->json, refname, ref->json);
	else if ((flags & TH_SAME_WARNINGS) && strcmp(got->warn, ref->warn))
		th_sb_add(&d, "%s: warnings\n%s\n%s warned\n%s", what, got->warn, refname, ref->warn);
	/* the counters and buffers of a stopped launch follow the schedule,
	 * unless the schedule is seeded (TH_SAME_ALL_MEMORY) */
	if (!d.p && ((flags & TH_SAME_ALL_MEMORY) || ((flags & TH_SAME_OK_MEMORY) && got->st == WE_OK)))
		memory_differs(t, ref, got, refname, what, &d);
	if (!d.p && (flags & TH_SAME_COUNTERS) && got->st == WE_OK)
		counters_differ(ref, got, refname, what, &d);
	return d.p;
}

void th_expect_same(const th_kernel *t, const th_run *ref, const th_run *got, unsigned flags,
		    const char *refname, const char *what)
{
	char *d = th_run_diff(t, ref, got, flags, refname, what);
	if (d) {
		char msg[8192];
		snprintf(msg, sizeof msg, "%s", d);
		free(d);
		ck_abort_msg("%s", msg);
	}
}
