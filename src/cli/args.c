/* args.c — parsing of warpemu(1) argument values (see args.h). */
#include "cli/args.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest piece of user text echoed in a message. */
#define SHOW_MAX 48
/* Longest floating-point literal accepted. */
#define FLOAT_TEXT_MAX 127
/* Most ':'-separated fields any spec has (iota:T:C:START:STEP). */
#define SPEC_FIELDS_MAX 5

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

bool cli_fail(cli_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return false;
}

/* Precision argument for "%.*s" echoing at most SHOW_MAX characters. */
static int show(size_t n)
{
	return n > SHOW_MAX ? SHOW_MAX : (int)n;
}

static const char *ellipsis(size_t n)
{
	return n > SHOW_MAX ? "..." : "";
}

/* ---- exit statuses ------------------------------------------------------ */

cli_exit cli_exit_for_status(we_status s)
{
	switch (s) {
	case WE_OK:            return CLI_EXIT_OK;
	case WE_ERR_INVALID:   return CLI_EXIT_USAGE;
	case WE_ERR_NOMEM:     return CLI_EXIT_LIMIT;
	case WE_ERR_ASM:       return CLI_EXIT_LOAD;
	case WE_ERR_LOAD:      return CLI_EXIT_LOAD;
	case WE_ERR_EXCEPTION: return CLI_EXIT_EXCEPTION;
	case WE_ERR_DEADLOCK:  return CLI_EXIT_DEADLOCK;
	case WE_ERR_IO:        return CLI_EXIT_IO;
	case WE_ERR_LIMIT:     return CLI_EXIT_LIMIT;
	case WE_ERR_TIMEOUT:   return CLI_EXIT_LIMIT;
	case WE_ERR_INTERNAL:  return CLI_EXIT_INTERNAL;
	case WE_ERR_INTERRUPTED: return CLI_EXIT_INTERRUPTED;
	}
	return CLI_EXIT_INTERNAL;
}

/* ---- numbers -------------------------------------------------------------- */

enum scan { SCAN_OK, SCAN_SYNTAX, SCAN_RANGE };

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Unsigned decimal or 0x hex, no sign.  Scans the whole text so that a
 * syntax error is reported as such even after an overflow. */
static enum scan scan_u64(const char *s, size_t n, uint64_t *out, bool *hex)
{
	unsigned base = 10;
	uint64_t v = 0;
	enum scan r = SCAN_OK;

	*hex = false;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
		*hex = true;
	}
	if (n == 0)
		return SCAN_SYNTAX;
	for (size_t i = 0; i < n; i++) {
		int d = digit_value(s[i]);
		if (d < 0 || (unsigned)d >= base)
			return SCAN_SYNTAX;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			r = SCAN_RANGE;
		else
			v = v * base + (unsigned)d;
	}
	*out = v;
	return r;
}

bool cli_parse_u64(const char *s, size_t n, uint64_t *out, cli_err *e)
{
	bool hex;

	switch (scan_u64(s, n, out, &hex)) {
	case SCAN_OK:
		return true;
	case SCAN_RANGE:
		return cli_fail(e, "number '%.*s%s' is too large (max %" PRIu64 ")",
			    show(n), s, ellipsis(n), UINT64_MAX);
	case SCAN_SYNTAX:
		break;
	}
	return cli_fail(e, "invalid number '%.*s%s' (expected a decimal or 0x "
		    "hexadecimal integer)", show(n), s, ellipsis(n));
}

bool cli_parse_s64(const char *s, size_t n, int64_t *out, cli_err *e)
{
	uint64_t mag;
	bool neg = n > 0 && s[0] == '-';

	if (!cli_parse_u64(s + neg, n - neg, &mag, e))
		return false;
	if (neg && mag > (uint64_t)INT64_MAX + 1)
		return cli_fail(e, "number '%.*s%s' is too small (min %" PRId64 ")",
			    show(n), s, ellipsis(n), INT64_MIN);
	if (!neg && mag > (uint64_t)INT64_MAX)
		return cli_fail(e, "number '%.*s%s' is too large (max %" PRId64 ")",
			    show(n), s, ellipsis(n), INT64_MAX);
	if (neg)
		*out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN
						       : -(int64_t)mag;
	else
		*out = (int64_t)mag;
	return true;
}

static bool parse_size_span(const char *s, size_t n, uint64_t *out,
			    cli_err *e)
{
	unsigned shift = 0;
	uint64_t v;

	if (n > 1) {
		switch (s[n - 1]) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		default: break;
		}
	}
	if (!cli_parse_u64(s, n - (shift != 0), &v, e))
		return false;
	if (shift && v > (UINT64_MAX >> shift))
		return cli_fail(e, "size '%.*s%s' is too large", show(n), s,
			    ellipsis(n));
	*out = v << shift;
	return true;
}

bool cli_parse_size(const char *s, uint64_t *out, cli_err *e)
{
	return parse_size_span(s, strlen(s), out, e);
}

bool cli_parse_dim3(const char *s, we_dim3 *out, cli_err *e)
{
	uint32_t d[3] = { 1, 1, 1 };
	unsigned i = 0;
	const char *p = s;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t v;

		if (i == 3)
			return cli_fail(e, "'%.*s%s': at most 3 dimensions X,Y,Z",
				    show(strlen(s)), s, ellipsis(strlen(s)));
		if (!cli_parse_u64(p, n, &v, e))
			return false;
		if (v > UINT32_MAX)
			return cli_fail(e, "dimension %" PRIu64 " is too large "
				    "(max %" PRIu32 ")", v, UINT32_MAX);
		d[i++] = (uint32_t)v;
		if (!comma)
			break;
		p = comma + 1;
	}
	out->x = d[0];
	out->y = d[1];
	out->z = d[2];
	return true;
}

/* ---- engines and placements ------------------------------------------- */

bool cli_parse_engine(const char *s, we_engine *out, cli_err *e)
{
	size_t n = strlen(s);

	if (strcmp(s, "scheduler") == 0)
		*out = WE_ENGINE_SCHEDULER;
	else if (strcmp(s, "warp-threads") == 0)
		*out = WE_ENGINE_WARP_THREADS;
	else
		return cli_fail(e, "unknown engine '%.*s%s' (expected scheduler or "
			    "warp-threads)", show(n), s, ellipsis(n));
	return true;
}

bool cli_parse_jit(const char *s, we_jit *out, cli_err *e)
{
	size_t n = strlen(s);

	if (strcmp(s, "auto") == 0)
		*out = WE_JIT_AUTO;
	else if (strcmp(s, "on") == 0)
		*out = WE_JIT_ON;
	else if (strcmp(s, "off") == 0)
		*out = WE_JIT_OFF;
	else
		return cli_fail(e, "unknown mode '%.*s%s' (expected auto, on or off)", show(n), s,
				ellipsis(n));
	return true;
}

bool cli_parse_placement(const char *s, we_placement *out, cli_err *e)
{
	size_t n = strlen(s);

	if (strcmp(s, "compact") == 0)
		*out = WE_PLACE_COMPACT;
	else if (strcmp(s, "scatter") == 0)
		*out = WE_PLACE_SCATTER;
	else if (strcmp(s, "none") == 0)
		*out = WE_PLACE_NONE;
	else
		return cli_fail(e, "unknown placement '%.*s%s' (expected compact, "
			    "scatter or none)", show(n), s, ellipsis(n));
	return true;
}

/* ---- element types ----------------------------------------------------- */

static const struct elem_desc {
	const char *name;
	unsigned size;
	bool is_signed;
	bool is_float;
} elem_descs[] = {
	[CLI_U8]  = { "u8",  1, false, false },
	[CLI_S8]  = { "s8",  1, true,  false },
	[CLI_U16] = { "u16", 2, false, false },
	[CLI_S16] = { "s16", 2, true,  false },
	[CLI_U32] = { "u32", 4, false, false },
	[CLI_S32] = { "s32", 4, true,  false },
	[CLI_U64] = { "u64", 8, false, false },
	[CLI_S64] = { "s64", 8, true,  false },
	[CLI_F32] = { "f32", 4, true,  true  },
	[CLI_F64] = { "f64", 8, true,  true  },
};

#define N_ELEM_TYPES (sizeof elem_descs / sizeof elem_descs[0])

bool cli_parse_elem_type(const char *s, size_t n, cli_elem_type *out,
			 cli_err *e)
{
	for (size_t i = 0; i < N_ELEM_TYPES; i++) {
		if (cli_name_eq(s, n, elem_descs[i].name)) {
			*out = (cli_elem_type)i;
			return true;
		}
	}
	return cli_fail(e, "unknown type '%.*s%s' (expected u8, s8, u16, s16, "
		    "u32, s32, u64, s64, f32 or f64)", show(n), s, ellipsis(n));
}

const char *cli_elem_type_name(cli_elem_type t)
{
	return elem_descs[t].name;
}

size_t cli_elem_size(cli_elem_type t)
{
	return elem_descs[t].size;
}

bool cli_elem_is_float(cli_elem_type t)
{
	return elem_descs[t].is_float;
}

static uint64_t width_mask(cli_elem_type t)
{
	unsigned bits = elem_descs[t].size * 8;

	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static bool parse_float(cli_elem_type t, const char *s, size_t n,
			double *out, cli_err *e)
{
	char buf[FLOAT_TEXT_MAX + 1];
	char *end;
	double v;

	if (n == 0 || n > FLOAT_TEXT_MAX || s[0] == ' ' || s[0] == '\t' ||
	    s[0] == '\n' || s[0] == '\r' || s[0] == '\v' || s[0] == '\f')
		return cli_fail(e, "invalid %s value '%.*s%s'",
			    cli_elem_type_name(t), show(n), s, ellipsis(n));
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + n)
		return cli_fail(e, "invalid %s value '%.*s%s'",
			    cli_elem_type_name(t), show(n), s, ellipsis(n));
	if ((errno == ERANGE && fabs(v) == HUGE_VAL) ||
	    (t == CLI_F32 && isfinite(v) && fabs(v) > FLT_MAX))
		return cli_fail(e, "%s value '%.*s%s' is out of range",
			    cli_elem_type_name(t), show(n), s, ellipsis(n));
	*out = v;
	return true;
}

static bool range_error(cli_elem_type t, const char *s, size_t n,
			cli_err *e)
{
	uint64_t mask = width_mask(t);

	if (!elem_descs[t].is_signed)
		return cli_fail(e, "%s value '%.*s%s' is out of range (0..%" PRIu64
			    ")", cli_elem_type_name(t), show(n), s,
			    ellipsis(n), mask);
	return cli_fail(e, "%s value '%.*s%s' is out of range (-%" PRIu64
		    "..%" PRIu64 ", or 0x0..0x%" PRIx64 ")",
		    cli_elem_type_name(t), show(n), s, ellipsis(n),
		    (mask >> 1) + 1, mask >> 1, mask);
}

static bool parse_int(cli_elem_type t, const char *s, size_t n,
		      uint64_t *out, cli_err *e)
{
	uint64_t mask = width_mask(t), v;
	bool neg = n > 0 && s[0] == '-', hex;
	enum scan r = scan_u64(s + neg, n - neg, &v, &hex);

	if (r == SCAN_SYNTAX)
		return cli_fail(e, "invalid %s value '%.*s%s' (expected a decimal "
			    "or 0x hexadecimal integer)",
			    cli_elem_type_name(t), show(n), s, ellipsis(n));
	if (r == SCAN_RANGE || (neg && !elem_descs[t].is_signed))
		return range_error(t, s, n, e);
	if (neg) {
		if (v > (mask >> 1) + 1)
			return range_error(t, s, n, e);
		*out = (~v + 1) & mask;
		return true;
	}
	if (v > (hex || !elem_descs[t].is_signed ? mask : mask >> 1))
		return range_error(t, s, n, e);
	*out = v;
	return true;
}

bool cli_parse_elem_value(cli_elem_type t, const char *s, size_t n,
			  cli_value *out, cli_err *e)
{
	if (elem_descs[t].is_float)
		return parse_float(t, s, n, &out->f, e);
	return parse_int(t, s, n, &out->u, e);
}

static inline void store_le(uint8_t *p, uint64_t v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, n); /* the host's order is the device's: one store */
#else
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#endif
}

static uint64_t load_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static float to_float(double d)
{
	if (d > FLT_MAX)
		return INFINITY;
	if (d < -FLT_MAX)
		return -INFINITY;
	return (float)d;
}

void cli_store_elem(cli_elem_type t, uint8_t *p, cli_value v)
{
	if (t == CLI_F32) {
		float f = to_float(v.f);
		uint32_t bits;

		memcpy(&bits, &f, sizeof bits);
		store_le(p, bits, 4);
	} else if (t == CLI_F64) {
		uint64_t bits;

		memcpy(&bits, &v.f, sizeof bits);
		store_le(p, bits, 8);
	} else {
		store_le(p, v.u, elem_descs[t].size);
	}
}

cli_value cli_load_elem(cli_elem_type t, const uint8_t *p)
{
	cli_value v;

	if (t == CLI_F32) {
		uint32_t bits = (uint32_t)load_le(p, 4);
		float f;

		memcpy(&f, &bits, sizeof f);
		v.f = f;
	} else if (t == CLI_F64) {
		uint64_t bits = load_le(p, 8);

		memcpy(&v.f, &bits, sizeof v.f);
	} else {
		v.u = load_le(p, elem_descs[t].size);
	}
	return v;
}

void cli_format_elem(cli_elem_type t, cli_value v, char *buf, size_t len)
{
	uint64_t mask = width_mask(t);
	uint64_t sign = (mask >> 1) + 1;

	if (t == CLI_F32)
		snprintf(buf, len, "%.9g", v.f);
	else if (t == CLI_F64)
		snprintf(buf, len, "%.17g", v.f);
	else if (elem_descs[t].is_signed && (v.u & sign))
		snprintf(buf, len, "-%" PRIu64, ((~v.u) & mask) + 1);
	else
		snprintf(buf, len, "%" PRIu64, v.u & mask);
}

/* ---- scalar kernel parameters ---------------------------------------- */

const char *cli_param_type_name(we_param_type t)
{
	return we_param_type_name(t);
}

uint32_t cli_param_type_size(we_param_type t)
{
	return we_param_type_size(t);
}

static bool scalar_elem_type(we_param_type t, cli_elem_type *out)
{
	switch (t) {
	case WE_PARAM_U32: *out = CLI_U32; return true;
	case WE_PARAM_S32: *out = CLI_S32; return true;
	case WE_PARAM_F32: *out = CLI_F32; return true;
	case WE_PARAM_U64: *out = CLI_U64; return true;
	case WE_PARAM_F64: *out = CLI_F64; return true;
	case WE_PARAM_PTR: break;
	case WE_PARAM_BYTES: break;
	}
	return false;
}

bool cli_parse_scalar(we_param_type t, const char *s, uint8_t out[8],
		      cli_err *e)
{
	cli_elem_type et;
	cli_value v;

	if (!scalar_elem_type(t, &et))
		return cli_fail(e, "a %s parameter takes a buffer spec, not a "
			    "scalar value", cli_param_type_name(t));
	if (!cli_parse_elem_value(et, s, strlen(s), &v, e))
		return false;
	cli_store_elem(et, out, v);
	return true;
}

/* One field of an aggregate's value: TYPE:VALUE, ptr:NAME or pad:N, at
 * *off (aligned first, as a C compiler lays out a struct's members). */
static bool agg_field(const char *f, size_t n, unsigned idx, uint8_t *out, uint32_t size, uint32_t *off,
		      cli_ptr_field ptr, void *ctx, cli_err *e)
{
	const char *colon = memchr(f, ':', n);
	if (!colon)
		return cli_fail(e, "field %u '%.*s%s': expected TYPE:VALUE, ptr:NAME or pad:BYTES", idx, show(n), f,
				ellipsis(n));
	const size_t tn = (size_t)(colon - f), vn = n - tn - 1;
	const char *v = colon + 1;
	uint64_t width, pad = 0;
	cli_elem_type t = CLI_U8;
	const bool is_ptr = cli_name_eq(f, tn, "ptr"), is_pad = cli_name_eq(f, tn, "pad");
	if (is_pad) {
		if (!cli_parse_u64(v, vn, &pad, e))
			return false;
		width = 1;
	} else if (is_ptr) {
		width = 8;
	} else if (!cli_parse_elem_type(f, tn, &t, e)) {
		return cli_fail(e, "field %u '%.*s%s': unknown type '%.*s' (expected u8, s8, u16, s16, u32, s32, "
				"u64, s64, f32, f64, ptr or pad)", idx, show(n), f, ellipsis(n), show(tn), f);
	} else {
		width = cli_elem_size(t);
	}
	const uint64_t at = (*off + width - 1) / width * width, len = is_pad ? pad : width;
	if (at > size || len > size - at)
		return cli_fail(e, "field %u '%.*s%s' at byte %" PRIu64 " runs past the parameter's %" PRIu32
				" bytes", idx, show(n), f, ellipsis(n), at, size);
	*off = (uint32_t)(at + len);
	if (is_pad)
		return true;
	if (is_ptr) {
		if (!vn)
			return cli_fail(e, "field %u 'ptr:': give the NAME of a --buffer", idx);
		return ptr(ctx, v, vn, (uint32_t)at, e);
	}
	cli_value val;
	cli_err ve;
	if (!cli_parse_elem_value(t, v, vn, &val, &ve))
		return cli_fail(e, "field %u '%.*s%s': %s", idx, show(n), f, ellipsis(n), ve.msg);
	cli_store_elem(t, out + at, val);
	return true;
}

bool cli_parse_aggregate(const char *s, uint8_t *out, uint32_t size, cli_ptr_field ptr, void *ctx, cli_err *e)
{
	uint32_t off = 0;
	unsigned idx = 1;
	memset(out, 0, size);
	if (!*s)
		return cli_fail(e, "an aggregate parameter takes fields TYPE:VALUE,... (pad:%" PRIu32
				" for all zeros)", size);
	for (const char *f = s;; idx++) {
		const char *comma = strchr(f, ',');
		const size_t n = comma ? (size_t)(comma - f) : strlen(f);
		if (!agg_field(f, n, idx, out, size, &off, ptr, ctx, e))
			return false;
		if (!comma)
			return true;
		f = comma + 1;
	}
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool cli_looks_like_spec(const char *s)
{
	return s[0] == '@' || has_prefix(s, "zeros:") ||
	       has_prefix(s, "fill:") || has_prefix(s, "iota:") ||
	       has_prefix(s, "random:");
}

bool cli_looks_like_number(const char *s)
{
	cli_err e;
	double d;

	return parse_float(CLI_F64, s, strlen(s), &d, &e);
}

/* ---- buffer specifications ------------------------------------------- */

typedef struct fields {
	const char *p[SPEC_FIELDS_MAX];
	size_t n[SPEC_FIELDS_MAX];
	unsigned count;
} fields;

static bool split_fields(const char *s, size_t n, fields *f, cli_err *e)
{
	size_t start = 0;

	f->count = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != ':')
			continue;
		if (f->count == SPEC_FIELDS_MAX)
			return cli_fail(e, "too many ':' fields in '%.*s%s'",
				    show(n), s, ellipsis(n));
		f->p[f->count] = s + start;
		f->n[f->count] = i - start;
		f->count++;
		start = i + 1;
	}
	return true;
}

static bool parse_count(cli_spec *sp, const char *s, size_t n, cli_err *e)
{
	size_t size = cli_elem_size(sp->type);

	if (!cli_parse_u64(s, n, &sp->count, e))
		return false;
	if (sp->count > SIZE_MAX / size)
		return cli_fail(e, "%" PRIu64 " elements of %s (%zu bytes each) "
			    "is too large", sp->count,
			    cli_elem_type_name(sp->type), size);
	sp->bytes = sp->count * size;
	return true;
}

static bool parse_type_count(cli_spec *sp, const fields *f, cli_err *e)
{
	return cli_parse_elem_type(f->p[1], f->n[1], &sp->type, e) &&
	       parse_count(sp, f->p[2], f->n[2], e);
}

/* An iota step: any 64-bit integer (wrapping) or a float. */
static bool parse_step(cli_spec *sp, const char *s, size_t n, cli_err *e)
{
	int64_t neg;

	if (cli_elem_is_float(sp->type))
		return parse_float(sp->type, s, n, &sp->step.f, e);
	if (n > 0 && s[0] == '-') {
		if (!cli_parse_s64(s, n, &neg, e))
			return false;
		sp->step.u = (uint64_t)neg;
		return true;
	}
	return cli_parse_u64(s, n, &sp->step.u, e);
}

static bool arity(const fields *f, unsigned min, unsigned max,
		  const char *usage, cli_err *e)
{
	if (f->count >= min && f->count <= max)
		return true;
	return cli_fail(e, "wrong number of fields: expected %s", usage);
}

static bool parse_zeros(cli_spec *sp, const fields *f, cli_err *e)
{
	sp->kind = CLI_SPEC_ZEROS;
	if (!arity(f, 2, 2, "zeros:BYTES", e) ||
	    !parse_size_span(f->p[1], f->n[1], &sp->count, e))
		return false;
	if (sp->count > SIZE_MAX)
		return cli_fail(e, "zeros:%" PRIu64 " is too large", sp->count);
	sp->bytes = sp->count;
	return true;
}

static bool parse_fill(cli_spec *sp, const fields *f, cli_err *e)
{
	sp->kind = CLI_SPEC_FILL;
	return arity(f, 4, 4, "fill:TYPE:COUNT:VALUE", e) &&
	       parse_type_count(sp, f, e) &&
	       cli_parse_elem_value(sp->type, f->p[3], f->n[3], &sp->value, e);
}

static bool parse_iota(cli_spec *sp, const fields *f, cli_err *e)
{
	sp->kind = CLI_SPEC_IOTA;
	if (!arity(f, 3, 5, "iota:TYPE:COUNT[:START[:STEP]]", e) ||
	    !parse_type_count(sp, f, e))
		return false;
	if (cli_elem_is_float(sp->type)) {
		sp->value.f = 0.0;
		sp->step.f = 1.0;
	} else {
		sp->value.u = 0;
		sp->step.u = 1;
	}
	if (f->count > 3 &&
	    !cli_parse_elem_value(sp->type, f->p[3], f->n[3], &sp->value, e))
		return false;
	return f->count <= 4 || parse_step(sp, f->p[4], f->n[4], e);
}

static bool parse_random(cli_spec *sp, const fields *f, cli_err *e)
{
	sp->kind = CLI_SPEC_RANDOM;
	sp->seed = 0;
	return arity(f, 3, 4, "random:TYPE:COUNT[:SEED]", e) &&
	       parse_type_count(sp, f, e) &&
	       (f->count <= 3 || cli_parse_u64(f->p[3], f->n[3], &sp->seed, e));
}

static bool parse_generated(const char *s, size_t n, cli_spec *sp,
			    cli_err *e)
{
	fields f;

	if (!split_fields(s, n, &f, e))
		return false;
	if (cli_name_eq(f.p[0], f.n[0], "zeros"))
		return parse_zeros(sp, &f, e);
	if (cli_name_eq(f.p[0], f.n[0], "fill"))
		return parse_fill(sp, &f, e);
	if (cli_name_eq(f.p[0], f.n[0], "iota"))
		return parse_iota(sp, &f, e);
	if (cli_name_eq(f.p[0], f.n[0], "random"))
		return parse_random(sp, &f, e);
	return cli_fail(e, "invalid buffer spec '%.*s%s' (expected @FILE, "
		    "zeros:BYTES, fill:TYPE:COUNT:VALUE, "
		    "iota:TYPE:COUNT[:START[:STEP]] or random:TYPE:COUNT[:SEED])",
		    show(n), s, ellipsis(n));
}

static bool parse_tol(cli_spec *sp, const char *s, cli_err *e)
{
	size_t n = strlen(s);

	if (!cli_elem_is_float(sp->type))
		return cli_fail(e, "a tolerance '~%.*s%s' applies only to f32 and "
			    "f64 data, not %s", show(n), s, ellipsis(n),
			    cli_elem_type_name(sp->type));
	if (!parse_float(CLI_F64, s, n, &sp->tol, e))
		return false;
	if (!(sp->tol >= 0.0))
		return cli_fail(e, "tolerance '%.*s%s' must not be negative or NaN",
			    show(n), s, ellipsis(n));
	return true;
}

bool cli_parse_spec(const char *s, bool allow_tol, cli_spec *out,
		    cli_err *e)
{
	size_t n = strlen(s);
	const char *tilde = allow_tol ? memchr(s, '~', n) : NULL;

	memset(out, 0, sizeof *out);
	out->type = CLI_U8;
	if (s[0] == '@') {
		if (s[1] == '\0')
			return cli_fail(e, "missing file name after '@'");
		out->kind = CLI_SPEC_FILE;
		out->path = s + 1;
		return true;
	}
	if (!parse_generated(s, tilde ? (size_t)(tilde - s) : n, out, e))
		return false;
	return !tilde || parse_tol(out, tilde + 1, e);
}

uint64_t cli_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static cli_value random_value(cli_elem_type t, uint64_t *state)
{
	uint64_t x = cli_splitmix64(state);
	cli_value v;

	if (t == CLI_F32)
		v.f = (double)(x >> 40) * 0x1p-24;
	else if (t == CLI_F64)
		v.f = (double)(x >> 11) * 0x1p-53;
	else
		v.u = x;
	return v;
}

static cli_value iota_value(const cli_spec *sp, cli_elem_type t, uint64_t i)
{
	cli_value v;

	if (cli_elem_is_float(t))
		v.f = sp->value.f + (double)i * sp->step.f;
	else
		v.u = sp->value.u + i * sp->step.u;
	return v;
}

/* The loop of cli_spec_generate_range for one element type t: called
 * with a constant t, so that each type gets a loop of its own without a
 * test of the type per element (a 16M-element buffer is made several
 * times faster). */
static inline __attribute__((always_inline)) void generate_typed(const cli_spec *sp, cli_elem_type t,
								 uint64_t first, uint64_t n, uint8_t *buf)
{
	const size_t size = elem_descs[t].size;
	/* splitmix64's state after i outputs is seed + i * its increment */
	uint64_t state = sp->seed + first * UINT64_C(0x9e3779b97f4a7c15);

	if (sp->kind == CLI_SPEC_IOTA) {
		for (uint64_t i = 0; i < n; i++)
			cli_store_elem(t, buf + i * size, iota_value(sp, t, first + i));
	} else if (sp->kind == CLI_SPEC_RANDOM) {
		for (uint64_t i = 0; i < n; i++)
			cli_store_elem(t, buf + i * size, random_value(t, &state));
	}
}

void cli_spec_generate_range(const cli_spec *sp, uint64_t first, uint64_t n, uint8_t *buf)
{
	const size_t size = cli_elem_size(sp->type), bytes = (size_t)(n * size);

	if (n == 0)
		return;
	switch (sp->kind) {
	case CLI_SPEC_ZEROS:
	case CLI_SPEC_FILE:
		memset(buf, 0, bytes);
		return;
	case CLI_SPEC_FILL:
		/* one element, then copies of what is made, doubling */
		cli_store_elem(sp->type, buf, sp->value);
		for (size_t have = size; have < bytes; have *= 2)
			memcpy(buf + have, buf, have < bytes - have ? have : bytes - have);
		return;
	case CLI_SPEC_IOTA:
	case CLI_SPEC_RANDOM:
		break;
	}
	switch (sp->type) {
	case CLI_U8: generate_typed(sp, CLI_U8, first, n, buf); break;
	case CLI_S8: generate_typed(sp, CLI_S8, first, n, buf); break;
	case CLI_U16: generate_typed(sp, CLI_U16, first, n, buf); break;
	case CLI_S16: generate_typed(sp, CLI_S16, first, n, buf); break;
	case CLI_U32: generate_typed(sp, CLI_U32, first, n, buf); break;
	case CLI_S32: generate_typed(sp, CLI_S32, first, n, buf); break;
	case CLI_U64: generate_typed(sp, CLI_U64, first, n, buf); break;
	case CLI_S64: generate_typed(sp, CLI_S64, first, n, buf); break;
	case CLI_F32: generate_typed(sp, CLI_F32, first, n, buf); break;
	case CLI_F64: generate_typed(sp, CLI_F64, first, n, buf); break;
	}
}

void cli_spec_generate(const cli_spec *sp, uint8_t *buf)
{
	cli_spec_generate_range(sp, 0, sp->count, buf);
}

/* ---- NAME=VALUE and NAME[:TYPE[:COUNT]] ------------------------------- */

bool cli_name_eq(const char *name, size_t namelen, const char *z)
{
	return strlen(z) == namelen && memcmp(name, z, namelen) == 0;
}

bool cli_parse_assign(const char *s, cli_assign *out, cli_err *e)
{
	const char *eq = strchr(s, '=');
	size_t n = strlen(s);

	if (!eq)
		return cli_fail(e, "'%.*s%s': expected NAME=VALUE", show(n), s,
			    ellipsis(n));
	if (eq == s)
		return cli_fail(e, "'%.*s%s': missing NAME before '='", show(n), s,
			    ellipsis(n));
	if (eq[1] == '\0')
		return cli_fail(e, "'%.*s%s': missing VALUE after '='", show(n), s,
			    ellipsis(n));
	out->name = s;
	out->namelen = (size_t)(eq - s);
	out->value = eq + 1;
	return true;
}

bool cli_parse_print(const char *s, cli_print *out, cli_err *e)
{
	fields f;

	if (!split_fields(s, strlen(s), &f, e))
		return false;
	if (f.count > 3)
		return cli_fail(e, "'%.*s%s': expected NAME[:TYPE[:COUNT]]",
			    show(strlen(s)), s, ellipsis(strlen(s)));
	if (f.n[0] == 0)
		return cli_fail(e, "'%.*s%s': missing NAME", show(strlen(s)), s,
			    ellipsis(strlen(s)));
	out->name = f.p[0];
	out->namelen = f.n[0];
	out->type = CLI_U32;
	out->has_count = f.count > 2;
	out->count = 0;
	if (f.count > 1 && !cli_parse_elem_type(f.p[1], f.n[1], &out->type, e))
		return false;
	if (!out->has_count)
		return true;
	if (!cli_parse_u64(f.p[2], f.n[2], &out->count, e))
		return false;
	if (out->count == 0)
		return cli_fail(e, "'%.*s%s': COUNT must be at least 1",
			    show(strlen(s)), s, ellipsis(strlen(s)));
	return true;
}

/* ---- result checks ----------------------------------------------------- */

static bool elem_equal(cli_elem_type t, cli_value g, cli_value x, double tol)
{
	if (!cli_elem_is_float(t))
		return g.u == x.u;
	if (g.f == x.f || (isnan(g.f) && isnan(x.f)))
		return true;
	return fabs(g.f - x.f) <= tol;
}

uint64_t cli_compare(cli_elem_type t, const uint8_t *got,
		     const uint8_t *exp, uint64_t count, double tol,
		     cli_mismatch *first, size_t nfirst)
{
	size_t size = cli_elem_size(t);
	uint64_t bad = 0;

	for (uint64_t i = 0; i < count; i++) {
		cli_value g = cli_load_elem(t, got + i * size);
		cli_value x = cli_load_elem(t, exp + i * size);

		if (elem_equal(t, g, x, tol))
			continue;
		if (bad < nfirst) {
			first[bad].index = i;
			first[bad].got = g;
			first[bad].exp = x;
		}
		bad++;
	}
	return bad;
}

bool cli_is_binary_module(const void *data, size_t len)
{
	return len >= CLI_MODULE_MAGIC_LEN &&
	       memcmp(data, CLI_MODULE_MAGIC, CLI_MODULE_MAGIC_LEN) == 0;
}

/* ---- schedules, watchdogs and reports ---------------------------------- */

bool cli_parse_schedule(const char *s, uint64_t *seed, bool *jitter, cli_err *e)
{
	size_t n = strlen(s), k;
	uint64_t v;

	if (strncmp(s, "seed:", 5) == 0)
		k = 5;
	else if (strncmp(s, "jitter:", 7) == 0)
		k = 7;
	else
		return cli_fail(e, "unknown schedule '%.*s%s' (expected seed:N or "
			    "jitter:N)", show(n), s, ellipsis(n));
	if (!cli_parse_u64(s + k, n - k, &v, e))
		return false;
	*seed = v;
	*jitter = k == 7;
	return true;
}

/* The characters of a plain decimal number: digits, '.', an exponent. */
static bool decimal_text(const char *s, size_t n)
{
	if (n == 0 || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char ch = s[i];
		bool sign = (ch == '-' || ch == '+') &&
			    (s[i - 1] == 'e' || s[i - 1] == 'E');

		if (!sign && !(ch >= '0' && ch <= '9') && ch != '.' &&
		    ch != 'e' && ch != 'E')
			return false;
	}
	return true;
}

bool cli_parse_seconds(const char *s, double *out, cli_err *e)
{
	size_t n = strlen(s);
	double v;

	if (n > 0 && s[0] == '-' && decimal_text(s + 1, n - 1))
		return cli_fail(e, "seconds '%.*s%s' must not be negative",
			    show(n), s, ellipsis(n));
	if (!decimal_text(s, n) || !parse_float(CLI_F64, s, n, &v, e))
		return cli_fail(e, "invalid seconds '%.*s%s' (expected a decimal "
			    "number such as 0.5 or 10)", show(n), s,
			    ellipsis(n));
	*out = v;
	return true;
}

bool cli_parse_report(const char *s, cli_report *out, cli_err *e)
{
	size_t n = strlen(s);

	if (strcmp(s, "text") == 0)
		*out = CLI_REPORT_TEXT;
	else if (strcmp(s, "json") == 0)
		*out = CLI_REPORT_JSON;
	else
		return cli_fail(e, "unknown report format '%.*s%s' (expected text "
			    "or json)", show(n), s, ellipsis(n));
	return true;
}

/* ---- stress ------------------------------------------------------------ */

bool cli_parse_runs(const char *s, uint64_t *out, cli_err *e)
{
	uint64_t v;

	if (!cli_parse_u64(s, strlen(s), &v, e))
		return false;
	if (v == 0)
		return cli_fail(e, "the number of runs must be at least 1");
	*out = v;
	return true;
}

bool cli_parse_jobs(const char *s, unsigned *out, cli_err *e)
{
	uint64_t v;

	if (!cli_parse_u64(s, strlen(s), &v, e))
		return false;
	if (v > CLI_JOBS_MAX)
		return cli_fail(e, "%" PRIu64 " jobs is too many (max %u; 0 = one "
			    "per online CPU)", v, CLI_JOBS_MAX);
	*out = (unsigned)v;
	return true;
}

bool cli_check_seeds(uint64_t first, uint64_t runs, cli_err *e)
{
	if (runs == 0 || runs - 1 <= UINT64_MAX - first)
		return true;
	return cli_fail(e, "seeds %" PRIu64 " + %" PRIu64 " runs go past %"
		    PRIu64, first, runs, UINT64_MAX);
}

static const char *const class_names[CLI_NCLASS] = {
	[CLI_CLASS_OK] = "ok",
	[CLI_CLASS_DIFFERS] = "differs",
	[CLI_CLASS_DEADLOCK] = "deadlock",
	[CLI_CLASS_EXCEPTION] = "exception",
	[CLI_CLASS_TIMEOUT] = "timeout",
};

const char *cli_class_name(cli_class c)
{
	return (unsigned)c < CLI_NCLASS ? class_names[c] : "?";
}

bool cli_class_for_status(we_status s, cli_class *out)
{
	switch (s) {
	case WE_OK:            *out = CLI_CLASS_OK; return true;
	case WE_ERR_EXCEPTION: *out = CLI_CLASS_EXCEPTION; return true;
	case WE_ERR_DEADLOCK:  *out = CLI_CLASS_DEADLOCK; return true;
	case WE_ERR_TIMEOUT:   *out = CLI_CLASS_TIMEOUT; return true;
	default:               return false;
	}
}

cli_exit cli_stress_exit(const uint64_t count[CLI_NCLASS])
{
	static const struct { cli_class c; cli_exit x; } order[] = {
		{ CLI_CLASS_EXCEPTION, CLI_EXIT_EXCEPTION },
		{ CLI_CLASS_DEADLOCK, CLI_EXIT_DEADLOCK },
		{ CLI_CLASS_TIMEOUT, CLI_EXIT_LIMIT },
		{ CLI_CLASS_DIFFERS, CLI_EXIT_CHECK },
	};

	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (count[order[i].c])
			return order[i].x;
	return CLI_EXIT_OK;
}

/* ---- shell quoting ------------------------------------------------------ */

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		char ch = *s;

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr("_@%+=:,./-", ch)))
			return false;
	}
	return true;
}

/* Append one character to buf[0..len) at *pos, counting past the end. */
static void put_char(char *buf, size_t len, size_t *pos, char ch)
{
	if (*pos + 1 < len)
		buf[*pos] = ch;
	(*pos)++;
}

size_t cli_shell_quote(const char *s, char *buf, size_t len)
{
	size_t pos = 0;
	bool safe = shell_safe(s);

	if (!safe)
		put_char(buf, len, &pos, '\'');
	for (; *s; s++) {
		if (*s == '\'' && !safe) {
			for (const char *q = "'\\''"; *q; q++)
				put_char(buf, len, &pos, *q);
		} else {
			put_char(buf, len, &pos, *s);
		}
	}
	if (!safe)
		put_char(buf, len, &pos, '\'');
	if (len)
		buf[pos < len ? pos : len - 1] = '\0';
	return pos;
}
