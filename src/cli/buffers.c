/* buffers.c — kernel parameters from --arg, the device buffers of the
 * pointer parameters, and the buffers --out, --print and --expect name.
 */
#include "cli/run.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * Parameters
 * ====================================================================== */

static void print_param_list(FILE *f, const we_kernel_info *k)
{
	if (k->nparams == 0)
		fputs("no parameters", f);
	for (unsigned i = 0; i < k->nparams; i++) {
		const we_param_info *p = &k->params[i];
		fprintf(f, "%s%s (%s", i ? ", " : "", p->name, cli_param_type_name(p->type));
		if (p->type == WE_PARAM_BYTES)
			fprintf(f, "[%" PRIu32 "]: fields TYPE:VALUE,...", p->size);
		fputc(')', f);
	}
}

static int param_err(const run_ctx *c, const char *opt, const char *text, const char *fmt, ...)
	CLI_PRINTF(4, 5);

/* Usage error about a parameter, followed by the kernel's list. */
static int param_err(const run_ctx *c, const char *opt, const char *text, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	if (opt)
		fprintf(stderr, "%s %.80s: ", opt, text);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n" PROG ": kernel %s takes: ", c->k->name);
	print_param_list(stderr, c->k);
	fputc('\n', stderr);
	try_help(c->cmd);
	return CLI_EXIT_USAGE;
}

/* A parameter by its name, or else by its 0-based index (PTX kernels'
 * parameters are named KERNEL_param_N): k->nparams if none. */
static unsigned find_param(const we_kernel_info *k, const char *name, size_t n)
{
	unsigned i, idx = 0;
	size_t d;

	for (i = 0; i < k->nparams; i++)
		if (cli_name_eq(name, n, k->params[i].name))
			return i;
	for (d = 0; d < n && d < 4 && name[d] >= '0' && name[d] <= '9'; d++)
		idx = idx * 10 + (unsigned)(name[d] - '0');
	return d == n && n > 0 && idx < k->nparams ? idx : k->nparams;
}

/* A --buffer by its NAME: c->nslots if none. */
static unsigned find_buffer(const run_ctx *c, const char *name, size_t n)
{
	for (unsigned i = c->k->nparams; i < c->nslots; i++)
		if (c->slots[i].name && cli_name_eq(name, n, c->slots[i].name))
			return i;
	return c->nslots;
}

/* One more place for slot s's address in the parameter block. */
static bool slot_at(param_slot *s, uint32_t offset)
{
	uint32_t *at = realloc(s->at, (s->nat + 1) * sizeof *at);

	if (!at)
		return false;
	s->at = at;
	at[s->nat++] = offset;
	return true;
}

static int bind_spec(run_ctx *c, param_slot *s, const char *opt, const char *text)
{
	const bool is_param = s < c->slots + c->k->nparams;
	cli_err e;

	if (cli_parse_spec(s->value, false, &s->c.spec, &e))
		return CLI_EXIT_OK;
	if (cli_looks_like_number(s->value))
		return param_err(c, opt, text, "%s '%s' %s a buffer spec "
				 "(@FILE, zeros:BYTES, fill:..., iota:..., random:...), not a number",
				 is_param ? "parameter" : "buffer", s->name, is_param ? "is a pointer: give" : "takes");
	return param_err(c, opt, text, "%s", e.msg);
}

static int bind_scalar(run_ctx *c, unsigned i, const char *text)
{
	const we_param_info *p = &c->k->params[i];
	uint8_t bytes[8];
	cli_err e;

	if (cli_looks_like_spec(c->slots[i].value))
		return param_err(c, "--arg", text, "parameter '%s' is a scalar (%s), not a buffer",
				 p->name, cli_param_type_name(p->type));
	if (!cli_parse_scalar(p->type, c->slots[i].value, bytes, &e))
		return param_err(c, "--arg", text, "%s", e.msg);
	memcpy(c->params + p->offset, bytes, p->size);
	return CLI_EXIT_OK;
}

typedef struct agg_ctx { run_ctx *c; uint32_t base; } agg_ctx;

/* ptr:NAME in an aggregate: the --buffer NAME's address at base + offset */
static bool agg_ptr(void *ctx, const char *name, size_t n, uint32_t offset, cli_err *e)
{
	agg_ctx *a = ctx;
	unsigned i = find_buffer(a->c, name, n);

	if (i == a->c->nslots)
		return cli_fail(e, "no --buffer %.*s for the field ptr:%.*s", (int)(n > 80 ? 80 : n), name,
				(int)(n > 80 ? 80 : n), name);
	return slot_at(&a->c->slots[i], a->base + offset) || cli_fail(e, "out of host memory");
}

static int bind_aggregate(run_ctx *c, unsigned i, const char *text)
{
	const we_param_info *p = &c->k->params[i];
	agg_ctx a = { c, p->offset };
	cli_err e;

	if (cli_looks_like_spec(c->slots[i].value) && c->slots[i].value[0] == '@')
		return param_err(c, "--arg", text, "parameter '%s' is an aggregate of %" PRIu32 " bytes, "
				 "passed by value: give its fields TYPE:VALUE,..., not a buffer", p->name, p->size);
	if (!cli_parse_aggregate(c->slots[i].value, c->params + p->offset, p->size, agg_ptr, &a, &e))
		return param_err(c, "--arg", text, "parameter '%s' (b8[%" PRIu32 "]): %s", p->name, p->size, e.msg);
	return CLI_EXIT_OK;
}

static int bind_arg(run_ctx *c, const char *text)
{
	cli_assign a;
	cli_err e;
	unsigned i;

	if (!cli_parse_assign(text, &a, &e))
		return usage_errf(c->cmd, "--arg: %s", e.msg);
	i = find_param(c->k, a.name, a.namelen);
	if (i == c->k->nparams)
		return param_err(c, "--arg", text, "kernel %s has no parameter '%.*s'", c->k->name,
				 (int)(a.namelen > 80 ? 80 : a.namelen), a.name);
	if (c->slots[i].value)
		return param_err(c, "--arg", text, "parameter '%s' is given more than once",
				 c->k->params[i].name);
	c->slots[i].value = a.value;
	switch (c->k->params[i].type) {
	case WE_PARAM_PTR: return bind_spec(c, &c->slots[i], "--arg", text);
	case WE_PARAM_BYTES: return bind_aggregate(c, i, text);
	default: return bind_scalar(c, i, text);
	}
}

/* --buffer NAME=SPEC: slot i, after the parameters' */
static int bind_buffer(run_ctx *c, unsigned i, const char *text)
{
	cli_assign a;
	cli_err e;

	if (!cli_parse_assign(text, &a, &e))
		return usage_errf(c->cmd, "--buffer: %s", e.msg);
	if (find_param(c->k, a.name, a.namelen) < c->k->nparams || find_buffer(c, a.name, a.namelen) < i)
		return param_err(c, "--buffer", text, "the name '%.*s' is taken (buffers and parameters "
				 "need names of their own)", (int)(a.namelen > 80 ? 80 : a.namelen), a.name);
	if (!(c->slots[i].name = strndup(a.name, a.namelen)))
		return nomem("parameters");
	c->slots[i].value = a.value;
	c->slots[i].buffer = true;
	return bind_spec(c, &c->slots[i], "--buffer", text);
}

int run_bind_args(run_ctx *c)
{
	const strlist *args = OPTS(c, ARG), *bufs = OPTS(c, BUFFER);
	const unsigned np = c->k->nparams;
	int rc;

	c->nslots = np + (unsigned)bufs->n;
	c->slots = calloc_n(c->nslots, sizeof *c->slots);
	c->params = calloc_n(c->k->param_bytes, 1);
	if (!c->slots || !c->params)
		return nomem("parameters");
	for (unsigned i = 0; i < np; i++) {
		c->slots[i].name = c->k->params[i].name;
		c->slots[i].buffer = c->k->params[i].type == WE_PARAM_PTR;
		if (c->slots[i].buffer && !slot_at(&c->slots[i], c->k->params[i].offset))
			return nomem("parameters");
	}
	for (unsigned i = np; i < c->nslots; i++)
		if ((rc = bind_buffer(c, i, bufs->v[i - np])) != 0)
			return rc;
	for (size_t i = 0; i < args->n; i++)
		if ((rc = bind_arg(c, args->v[i])) != 0)
			return rc;
	for (unsigned i = 0; i < np; i++)
		if (!c->slots[i].value)
			return param_err(c, NULL, NULL, "missing --arg for parameter '%s' (%s)",
					 c->k->params[i].name,
					 cli_param_type_name(c->k->params[i].type));
	for (unsigned i = np; i < c->nslots; i++)
		if (!c->slots[i].nat)
			return param_err(c, "--buffer", bufs->v[i - np], "no aggregate parameter's field "
					 "ptr:%s points to this buffer", c->slots[i].name);
	return CLI_EXIT_OK;
}

/* Resolve NAME of --out/--print/--expect to a buffer: a pointer
 * parameter or a --buffer. */
static int buffer_slot(const run_ctx *c, const char *opt, const char *text, const char *name,
		       size_t n, unsigned *slot)
{
	unsigned i = find_param(c->k, name, n);

	if (i == c->k->nparams)
		i = find_buffer(c, name, n);
	if (i == c->nslots || !c->slots[i].buffer)
		return param_err(c, opt, text, "'%.*s' is neither a pointer parameter of kernel %s nor "
				 "a --buffer", (int)(n > 80 ? 80 : n), name, c->k->name);
	*slot = i;
	return CLI_EXIT_OK;
}

int run_bind_requests(run_ctx *c)
{
	int rc;

	for (size_t i = 0; i < OPTS(c, OUT)->n; i++)
		if ((rc = buffer_slot(c, "--out", OPTS(c, OUT)->v[i], c->outs[i].a.name,
				      c->outs[i].a.namelen, &c->outs[i].slot)) != 0)
			return rc;
	for (size_t i = 0; i < OPTS(c, PRINT)->n; i++)
		if ((rc = buffer_slot(c, "--print", OPTS(c, PRINT)->v[i], c->prints[i].p.name,
				      c->prints[i].p.namelen, &c->prints[i].slot)) != 0)
			return rc;
	for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++)
		if ((rc = buffer_slot(c, "--expect", OPTS(c, EXPECT)->v[i], c->expects[i].a.name,
				      c->expects[i].a.namelen, &c->expects[i].slot)) != 0)
			return rc;
	return CLI_EXIT_OK;
}

/* ======================================================================
 * Contents
 * ====================================================================== */

static void close_file(contents *ct)
{
	if (ct->open)
		in_close(&ct->file);
	ct->open = false;
}

void contents_free(contents *ct)
{
	close_file(ct);
	held_free(&ct->held);
	ct->is_held = false;
}

/* Size ct up to max bytes (*over: more): a file opened, and held when
 * its size is known only at its end or when every stress run needs it. */
static int contents_open(run_ctx *c, contents *ct, uint64_t max, bool *over)
{
	cli_err e;
	int rc;

	*over = false;
	if (ct->spec.kind != CLI_SPEC_FILE) {
		ct->bytes = ct->spec.bytes;
		*over = ct->bytes > max;
		return CLI_EXIT_OK;
	}
	if ((rc = in_open(&ct->file, ct->spec.path)) != 0)
		return rc;
	ct->open = true;
	if (ct->file.regular && !c->stress) {
		ct->bytes = ct->file.size;
		*over = ct->bytes > max;
		return CLI_EXIT_OK;
	}
	ct->is_held = true;
	rc = held_read(&ct->held, &ct->file, max, over, c->intr, &e);
	close_file(ct);
	ct->bytes = ct->held.len;
	return rc && rc != CLI_EXIT_INTERRUPTED ? errorf(rc, "%s", e.msg) : rc;
}

int feed_next(feed *f, uint8_t *buf, size_t n, cli_err *e)
{
	const contents *ct = f->c;
	size_t got;
	int rc;

	e->msg[0] = '\0';
	if (cli_intr_fired(f->intr))
		return CLI_EXIT_INTERRUPTED;
	if (ct->spec.kind != CLI_SPEC_FILE) {
		size_t size = cli_elem_size(ct->spec.type);

		cli_spec_generate_range(&ct->spec, f->pos / size, n / size, buf);
	} else if (ct->is_held) {
		held_get(&ct->held, f->pos, buf, n);
		if (f->own)
			held_release(&f->own->held, f->pos + n);
	} else {
		for (size_t done = 0; done < n; done += got) {
			if ((rc = in_read(&f->own->file, buf + done, n - done, &got, f->intr, e)) != 0)
				return rc;
			if (got == 0) {
				snprintf(e->msg, sizeof e->msg, "'%s' ended after %" PRIu64 " of its %" PRIu64
					 " bytes (it changed while being read)", ct->spec.path,
					 f->pos + done, ct->bytes);
				return CLI_EXIT_IO;
			}
		}
	}
	f->pos += n;
	return CLI_EXIT_OK;
}

/* ======================================================================
 * Buffers
 * ====================================================================== */

/* What the device memory limit leaves for slot i's buffer: run has made
 * the buffers before it on the device; stress makes them on every run's
 * fresh device. */
static uint64_t buffer_room(const run_ctx *c, unsigned i)
{
	uint64_t limit, used;

	we_device_memory(c->dev, &limit, &used);
	for (unsigned j = 0; c->stress && j < i; j++)
		if (c->slots[j].buffer)
			used += c->slots[j].c.bytes ? c->slots[j].c.bytes : 1;
	return used < limit ? limit - used : 0;
}

/* A buffer over the room is refused before it is read or generated. */
static int too_big(const run_ctx *c, unsigned i, uint64_t bytes, bool more)
{
	uint64_t limit, used;

	we_device_memory(c->dev, &limit, &used);
	return errorf(CLI_EXIT_LIMIT, "%s %s=%.120s: %s%" PRIu64 " bytes would exceed the device "
		      "memory limit of %" PRIu64 " bytes (%" PRIu64 " in use; %s)",
		      i < c->k->nparams ? "--arg" : "--buffer", c->slots[i].name, c->slots[i].value,
		      more ? "more than " : "", bytes, limit,
		      limit - buffer_room(c, i), OPT(c, MAX_MEMORY) ? "raise --max-memory"
		      : "the default: --max-memory BYTES sets it");
}

int slot_upload(we_device *dev, const param_slot *s, param_slot *own, const cli_intr *intr,
		we_devptr *ptr, bool *allocated, cli_err *e)
{
	uint64_t bytes = s->c.bytes;
	size_t n = bytes < CLI_CHUNK ? (size_t)bytes : CLI_CHUNK;
	feed f = { &s->c, own ? &own->c : NULL, 0, intr };
	uint8_t *buf;
	we_status st;
	int rc = CLI_EXIT_OK;

	*allocated = false;
	if ((st = we_malloc(dev, bytes ? (size_t)bytes : 1, ptr)) != WE_OK) {
		snprintf(e->msg, sizeof e->msg, "%s", we_last_error(dev));
		return cli_exit_for_status(st);
	}
	*allocated = true;
	/* we_malloc'd memory reads as zeros (warpemu.h) */
	if (s->c.spec.kind == CLI_SPEC_ZEROS || bytes == 0)
		return CLI_EXIT_OK;
	if (!(buf = malloc(n))) {
		snprintf(e->msg, sizeof e->msg, "out of host memory");
		return CLI_EXIT_LIMIT;
	}
	for (uint64_t off = 0; off < bytes && !rc; off += n) {
		n = bytes - off < CLI_CHUNK ? (size_t)(bytes - off) : CLI_CHUNK;
		if ((rc = feed_next(&f, buf, n, e)) == 0 &&
		    (st = we_memcpy_htod(dev, *ptr + off, buf, n)) != WE_OK) {
			snprintf(e->msg, sizeof e->msg, "%s", we_last_error(dev));
			rc = cli_exit_for_status(st);
		}
	}
	free(buf);
	return rc;
}

void store_ptr(uint8_t *params, const param_slot *s, we_devptr ptr)
{
	cli_value v;

	v.u = ptr;
	for (unsigned k = 0; k < s->nat; k++)
		cli_store_elem(CLI_U64, params + s->at[k], v);
}

/* run: size the contents, then fill a device buffer with them straight
 * away, so that the host never holds the whole buffer (a pipe's bytes
 * go as they are uploaded).  stress: size only (files held); every run
 * makes the buffer on its own device. */
static int make_buffer(run_ctx *c, unsigned i)
{
	param_slot *s = &c->slots[i];
	uint64_t room = buffer_room(c, i);
	bool over;
	cli_err e;
	int rc = contents_open(c, &s->c, room, &over);

	if (rc || over)
		return rc ? rc : too_big(c, i, s->c.is_held ? room : s->c.bytes, s->c.is_held);
	if (c->stress)
		return CLI_EXIT_OK;
	rc = slot_upload(c->dev, s, s, c->intr, &s->ptr, &s->allocated, &e);
	contents_free(&s->c);
	if (rc && e.msg[0])
		errorf(rc, "%s %s=%.120s: %s", i < c->k->nparams ? "--arg" : "--buffer", s->name, s->value,
		       e.msg);
	if (rc == CLI_EXIT_OK)
		store_ptr(c->params, s, s->ptr);
	return rc;
}

int run_make_buffers(run_ctx *c)
{
	int rc;

	for (unsigned i = 0; i < c->nslots; i++)
		if (c->slots[i].buffer && (rc = make_buffer(c, i)) != 0)
			return rc;
	return CLI_EXIT_OK;
}

static int check_print(run_ctx *c, print_req *r, const char *text)
{
	uint64_t size = cli_elem_size(r->p.type);
	uint64_t avail = c->slots[r->slot].c.bytes / size;

	if (!r->p.has_count) {
		r->p.count = avail;
		return CLI_EXIT_OK;
	}
	if (r->p.count <= avail)
		return CLI_EXIT_OK;
	return param_err(c, "--print", text, "buffer '%s' holds %" PRIu64 " bytes, only %" PRIu64
			 " %s elements", c->slots[r->slot].name, c->slots[r->slot].c.bytes, avail,
			 cli_elem_type_name(r->p.type));
}

/* The expected data may be shorter than its buffer, not longer: a file is
 * read no further than the buffer's length. */
static int check_expect(run_ctx *c, expect_req *x, const char *text)
{
	uint64_t have = c->slots[x->slot].c.bytes;
	bool over;
	int rc = contents_open(c, &x->c, have, &over);

	if (rc)
		return rc;
	if (x->c.spec.kind == CLI_SPEC_FILE)
		x->c.spec.count = x->c.bytes;   /* bytes (u8) */
	if (!over)
		return CLI_EXIT_OK;
	return param_err(c, "--expect", text, "expected data has %s%" PRIu64 " bytes but buffer '%s' "
			 "holds only %" PRIu64, x->c.is_held ? "more than " : "",
			 x->c.is_held ? have : x->c.bytes, c->slots[x->slot].name, have);
}

int run_prepare_checks(run_ctx *c)
{
	int rc;

	for (size_t i = 0; i < OPTS(c, PRINT)->n; i++)
		if ((rc = check_print(c, &c->prints[i], OPTS(c, PRINT)->v[i])) != 0)
			return rc;
	for (size_t i = 0; i < OPTS(c, EXPECT)->n; i++)
		if ((rc = check_expect(c, &c->expects[i], OPTS(c, EXPECT)->v[i])) != 0)
			return rc;
	return CLI_EXIT_OK;
}
