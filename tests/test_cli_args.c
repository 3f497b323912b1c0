/* test_cli_args.c — unit tests of the warpemu(1) argument parsers.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -Isrc -Iinclude \
 *        tests/test_cli_args.c src/cli/args.c $(pkg-config --cflags --libs check)
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"

/* ---- helpers ------------------------------------------------------------ */

static bool u64_ok(const char *s, uint64_t *v)
{
	cli_err e;

	return cli_parse_u64(s, strlen(s), v, &e);
}

static bool s64_ok(const char *s, int64_t *v)
{
	cli_err e;

	return cli_parse_s64(s, strlen(s), v, &e);
}

static bool value_ok(cli_elem_type t, const char *s, cli_value *v)
{
	cli_err e;

	return cli_parse_elem_value(t, s, strlen(s), v, &e);
}

static bool spec_ok(const char *s, bool tol, cli_spec *sp)
{
	cli_err e;

	return cli_parse_spec(s, tol, sp, &e);
}

/* Generate spec s (which must parse) into a fresh buffer. */
static uint8_t *generate(const char *s, cli_spec *sp)
{
	uint8_t *buf;

	ck_assert_msg(spec_ok(s, true, sp), "spec %s should parse", s);
	buf = malloc(sp->bytes ? sp->bytes : 1);
	ck_assert_ptr_nonnull(buf);
	cli_spec_generate(sp, buf);
	return buf;
}

static cli_value elem_at(const cli_spec *sp, const uint8_t *buf, size_t i)
{
	return cli_load_elem(sp->type, buf + i * cli_elem_size(sp->type));
}

/* ---- numbers ------------------------------------------------------------ */

START_TEST(test_u64_valid)
{
	uint64_t v;

	ck_assert(u64_ok("0", &v) && v == 0);
	ck_assert(u64_ok("1234567890", &v) && v == 1234567890u);
	ck_assert(u64_ok("0x1F", &v) && v == 31);
	ck_assert(u64_ok("0Xff", &v) && v == 255);
	ck_assert(u64_ok("18446744073709551615", &v) && v == UINT64_MAX);
	ck_assert(u64_ok("0xffffffffffffffff", &v) && v == UINT64_MAX);
	ck_assert(u64_ok("007", &v) && v == 7);
}
END_TEST

START_TEST(test_u64_invalid)
{
	uint64_t v;
	cli_err e;

	ck_assert(!u64_ok("", &v));
	ck_assert(!u64_ok("0x", &v));
	ck_assert(!u64_ok("12a", &v));
	ck_assert(!u64_ok(" 1", &v));
	ck_assert(!u64_ok("1 ", &v));
	ck_assert(!u64_ok("+1", &v));
	ck_assert(!u64_ok("-1", &v));
	ck_assert(!u64_ok("0x1g", &v));
	ck_assert(!u64_ok("1.5", &v));
	ck_assert(!cli_parse_u64("18446744073709551616", 20, &v, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "too large"));
	ck_assert(!u64_ok("0x10000000000000000", &v));
	/* Overlong input: rejected, message stays bounded. */
	ck_assert(!cli_parse_u64("99999999999999999999999999999999999999999999"
				 "9999999999999999999999999999999999999999", 84,
				 &v, &e));
	ck_assert(strlen(e.msg) < sizeof e.msg - 1);
}
END_TEST

START_TEST(test_s64)
{
	int64_t v;

	ck_assert(s64_ok("0", &v) && v == 0);
	ck_assert(s64_ok("-1", &v) && v == -1);
	ck_assert(s64_ok("-0x10", &v) && v == -16);
	ck_assert(s64_ok("9223372036854775807", &v) && v == INT64_MAX);
	ck_assert(s64_ok("-9223372036854775808", &v) && v == INT64_MIN);
	ck_assert(!s64_ok("9223372036854775808", &v));
	ck_assert(!s64_ok("-9223372036854775809", &v));
	ck_assert(!s64_ok("-", &v));
	ck_assert(!s64_ok("--1", &v));
	ck_assert(!s64_ok("", &v));
}
END_TEST

START_TEST(test_size)
{
	uint64_t v;
	cli_err e;

	ck_assert(cli_parse_size("4096", &v, &e) && v == 4096);
	ck_assert(cli_parse_size("64K", &v, &e) && v == 65536);
	ck_assert(cli_parse_size("3M", &v, &e) && v == 3u << 20);
	ck_assert(cli_parse_size("2G", &v, &e) && v == UINT64_C(2) << 30);
	ck_assert(cli_parse_size("0x10K", &v, &e) && v == 16384);
	ck_assert(!cli_parse_size("K", &v, &e));
	ck_assert(!cli_parse_size("", &v, &e));
	ck_assert(!cli_parse_size("1T", &v, &e));
	ck_assert(!cli_parse_size("1k", &v, &e));
	ck_assert(!cli_parse_size("17179869184G", &v, &e));
	ck_assert(!cli_parse_size("-1", &v, &e));
}
END_TEST

/* ---- dimensions ------------------------------------------------------------ */

START_TEST(test_dim3_valid)
{
	we_dim3 d;
	cli_err e;

	ck_assert(cli_parse_dim3("4", &d, &e));
	ck_assert(d.x == 4 && d.y == 1 && d.z == 1);
	ck_assert(cli_parse_dim3("4,2", &d, &e));
	ck_assert(d.x == 4 && d.y == 2 && d.z == 1);
	ck_assert(cli_parse_dim3("4,2,3", &d, &e));
	ck_assert(d.x == 4 && d.y == 2 && d.z == 3);
	ck_assert(cli_parse_dim3("0x10,1,1", &d, &e) && d.x == 16);
	ck_assert(cli_parse_dim3("4294967295", &d, &e) && d.x == UINT32_MAX);
}
END_TEST

START_TEST(test_dim3_invalid)
{
	we_dim3 d;
	cli_err e;

	ck_assert(!cli_parse_dim3("", &d, &e));
	ck_assert(!cli_parse_dim3("4,", &d, &e));
	ck_assert(!cli_parse_dim3(",4", &d, &e));
	ck_assert(!cli_parse_dim3("1,2,3,4", &d, &e));
	ck_assert(!cli_parse_dim3("4294967296", &d, &e));
	ck_assert(!cli_parse_dim3("4x4", &d, &e));
	ck_assert(!cli_parse_dim3("-1", &d, &e));
	ck_assert(!cli_parse_dim3("1, 2", &d, &e));
}
END_TEST

/* ---- element values ---------------------------------------------------- */

START_TEST(test_elem_type)
{
	static const char *const names[] = { "u8", "s8", "u16", "s16", "u32",
					     "s32", "u64", "s64", "f32", "f64" };
	static const size_t sizes[] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8 };
	cli_elem_type t;
	cli_err e;

	for (size_t i = 0; i < 10; i++) {
		ck_assert(cli_parse_elem_type(names[i], strlen(names[i]), &t, &e));
		ck_assert_int_eq(t, (int)i);
		ck_assert_str_eq(cli_elem_type_name(t), names[i]);
		ck_assert_uint_eq(cli_elem_size(t), sizes[i]);
	}
	ck_assert(!cli_parse_elem_type("u128", 4, &t, &e));
	ck_assert(!cli_parse_elem_type("U32", 3, &t, &e));
	ck_assert(!cli_parse_elem_type("", 0, &t, &e));
	ck_assert(!cli_parse_elem_type("u3", 2, &t, &e));
	ck_assert(cli_elem_is_float(CLI_F32) && !cli_elem_is_float(CLI_S64));
}
END_TEST

START_TEST(test_int_values)
{
	cli_value v;

	ck_assert(value_ok(CLI_U8, "255", &v) && v.u == 255);
	ck_assert(!value_ok(CLI_U8, "256", &v));
	ck_assert(!value_ok(CLI_U8, "-1", &v));
	ck_assert(value_ok(CLI_S8, "-128", &v) && v.u == 0x80);
	ck_assert(!value_ok(CLI_S8, "-129", &v));
	ck_assert(value_ok(CLI_S8, "127", &v) && v.u == 127);
	ck_assert(!value_ok(CLI_S8, "128", &v));
	ck_assert(value_ok(CLI_S8, "0xff", &v) && v.u == 0xff);
	ck_assert(!value_ok(CLI_S8, "0x100", &v));
	ck_assert(value_ok(CLI_S16, "-1", &v) && v.u == 0xffff);
	ck_assert(value_ok(CLI_U32, "4294967295", &v) && v.u == UINT32_MAX);
	ck_assert(!value_ok(CLI_U32, "4294967296", &v));
	ck_assert(value_ok(CLI_S32, "-2147483648", &v) && v.u == 0x80000000u);
	ck_assert(!value_ok(CLI_S32, "2147483648", &v));
	ck_assert(value_ok(CLI_S64, "-9223372036854775808", &v) &&
		  v.u == UINT64_C(0x8000000000000000));
	ck_assert(value_ok(CLI_U64, "0xffffffffffffffff", &v) &&
		  v.u == UINT64_MAX);
	ck_assert(!value_ok(CLI_U32, "1.0", &v));
	ck_assert(!value_ok(CLI_U32, "", &v));
	ck_assert(!value_ok(CLI_S32, "-", &v));
	ck_assert(!value_ok(CLI_S32, "abc", &v));
}
END_TEST

START_TEST(test_float_values)
{
	char big[300];
	cli_value v;

	ck_assert(value_ok(CLI_F32, "1.5", &v) && v.f == 1.5);
	ck_assert(value_ok(CLI_F32, "-2", &v) && v.f == -2.0);
	ck_assert(value_ok(CLI_F32, "1e-3", &v) && v.f == 1e-3);
	ck_assert(value_ok(CLI_F32, "0x1p3", &v) && v.f == 8.0);
	ck_assert(value_ok(CLI_F32, "inf", &v) && isinf(v.f));
	ck_assert(value_ok(CLI_F64, "nan", &v) && isnan(v.f));
	ck_assert(!value_ok(CLI_F32, "1e39", &v));
	ck_assert(value_ok(CLI_F64, "1e39", &v));
	ck_assert(!value_ok(CLI_F64, "1e400", &v));
	ck_assert(!value_ok(CLI_F32, "", &v));
	ck_assert(!value_ok(CLI_F32, " 1", &v));
	ck_assert(!value_ok(CLI_F32, "1.5x", &v));
	ck_assert(!value_ok(CLI_F32, "abc", &v));
	memset(big, '1', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert(!value_ok(CLI_F64, big, &v));
}
END_TEST

START_TEST(test_store_load)
{
	uint8_t b[8];
	cli_value v;

	v.u = 0x01020304u;
	cli_store_elem(CLI_U32, b, v);
	ck_assert(b[0] == 4 && b[1] == 3 && b[2] == 2 && b[3] == 1);
	ck_assert(cli_load_elem(CLI_U32, b).u == 0x01020304u);
	v.u = 0x1ff;
	memset(b, 0xaa, sizeof b);
	cli_store_elem(CLI_U8, b, v);
	ck_assert(b[0] == 0xff && b[1] == 0xaa);
	v.f = 1.0;
	cli_store_elem(CLI_F32, b, v);
	ck_assert(b[0] == 0 && b[1] == 0 && b[2] == 0x80 && b[3] == 0x3f);
	ck_assert(cli_load_elem(CLI_F32, b).f == 1.0);
	v.f = -0.25;
	cli_store_elem(CLI_F64, b, v);
	ck_assert(cli_load_elem(CLI_F64, b).f == -0.25);
	ck_assert(b[7] == 0xbf);
	v.f = 1e300;
	cli_store_elem(CLI_F32, b, v);
	ck_assert(isinf(cli_load_elem(CLI_F32, b).f));
}
END_TEST

START_TEST(test_format)
{
	char buf[48];
	cli_value v;

	v.u = 0xff;
	cli_format_elem(CLI_S8, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "-1");
	cli_format_elem(CLI_U8, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "255");
	v.u = UINT64_C(0x8000000000000000);
	cli_format_elem(CLI_S64, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "-9223372036854775808");
	v.u = UINT64_MAX;
	cli_format_elem(CLI_U64, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "18446744073709551615");
	v.u = 0x7fff;
	cli_format_elem(CLI_S16, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "32767");
	v.f = (float)0.1;
	cli_format_elem(CLI_F32, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "0.100000001");
	v.f = 0.1;
	cli_format_elem(CLI_F64, v, buf, sizeof buf);
	ck_assert_str_eq(buf, "0.10000000000000001");
}
END_TEST

/* ---- scalar parameters ----------------------------------------------- */

START_TEST(test_scalars)
{
	uint8_t b[8];
	cli_err e;

	ck_assert(cli_parse_scalar(WE_PARAM_U32, "4294967295", b, &e));
	ck_assert(b[0] == 0xff && b[3] == 0xff);
	ck_assert(cli_parse_scalar(WE_PARAM_S32, "-2", b, &e));
	ck_assert(b[0] == 0xfe && b[1] == 0xff && b[2] == 0xff && b[3] == 0xff);
	ck_assert(cli_parse_scalar(WE_PARAM_F32, "1", b, &e));
	ck_assert(b[0] == 0 && b[2] == 0x80 && b[3] == 0x3f);
	ck_assert(cli_parse_scalar(WE_PARAM_U64, "0x0102030405060708", b, &e));
	ck_assert(b[0] == 8 && b[7] == 1);
	ck_assert(!cli_parse_scalar(WE_PARAM_U32, "-1", b, &e));
	ck_assert(!cli_parse_scalar(WE_PARAM_U32, "4294967296", b, &e));
	ck_assert(!cli_parse_scalar(WE_PARAM_S32, "2147483648", b, &e));
	ck_assert(!cli_parse_scalar(WE_PARAM_F32, "x", b, &e));
	ck_assert(!cli_parse_scalar(WE_PARAM_U64, "-5", b, &e));
	ck_assert(!cli_parse_scalar(WE_PARAM_PTR, "0", b, &e));
	ck_assert_uint_eq(cli_param_type_size(WE_PARAM_U32), 4);
	ck_assert_uint_eq(cli_param_type_size(WE_PARAM_U64), 8);
	ck_assert_uint_eq(cli_param_type_size(WE_PARAM_PTR), 8);
	/* f64: a double's bits, little-endian */
	ck_assert(cli_parse_scalar(WE_PARAM_F64, "-2.75", b, &e));
	double d;
	memcpy(&d, b, 8);
	ck_assert(d == -2.75);
	ck_assert(!cli_parse_scalar(WE_PARAM_F64, "1e999", b, &e));
	ck_assert_uint_eq(cli_param_type_size(WE_PARAM_F64), 8);
	ck_assert_str_eq(cli_param_type_name(WE_PARAM_F64), "f64");
	ck_assert_str_eq(cli_param_type_name(WE_PARAM_PTR), "ptr");
	ck_assert_str_eq(cli_param_type_name(WE_PARAM_F32), "f32");
}
END_TEST

/* ---- aggregate parameters --------------------------------------------- */

typedef struct ptr_log { char names[4][8]; uint32_t offs[4]; unsigned n; } ptr_log;

static bool log_ptr(void *ctx, const char *name, size_t n, uint32_t offset, cli_err *e)
{
	ptr_log *l = ctx;
	if (n >= 8 || !strncmp(name, "bad", n))
		return cli_fail(e, "refused %.*s", (int)n, name);
	memcpy(l->names[l->n], name, n);
	l->names[l->n][n] = 0;
	l->offs[l->n++] = offset;
	return true;
}

START_TEST(test_aggregate)
{
	uint8_t b[32];
	ptr_log l = { 0 };
	cli_err e;

	/* C's layout: each field aligned to its size; the rest zero */
	memset(b, 0xaa, sizeof b);
	ck_assert(cli_parse_aggregate("u8:200,s16:-2,ptr:x,f32:1,pad:3,u8:7,f64:-2.75", b, 32, log_ptr, &l, &e));
	ck_assert_uint_eq(b[0], 200);
	ck_assert_uint_eq(b[1], 0);                          /* padding */
	ck_assert(b[2] == 0xfe && b[3] == 0xff);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.names[0], "x");
	ck_assert_uint_eq(l.offs[0], 8);                     /* aligned to 8 */
	ck_assert(b[16] == 0 && b[18] == 0x80 && b[19] == 0x3f);
	ck_assert(b[20] == 0 && b[22] == 0 && b[23] == 7);   /* pad:3, then u8 */
	double d;
	memcpy(&d, b + 24, 8);
	ck_assert(d == -2.75);
	/* a short value: the bytes after it are zero */
	memset(b, 0xaa, sizeof b);
	ck_assert(cli_parse_aggregate("u32:5", b, 12, log_ptr, &l, &e));
	ck_assert(b[0] == 5 && b[4] == 0 && b[11] == 0 && b[12] == 0xaa);
	/* errors name the field */
	ck_assert(!cli_parse_aggregate("u32:1,u64:2", b, 12, log_ptr, &l, &e));
	ck_assert_str_eq(e.msg, "field 2 'u64:2' at byte 8 runs past the parameter's 12 bytes");
	ck_assert(!cli_parse_aggregate("u32:1,u33:2", b, 12, log_ptr, &l, &e));
	ck_assert(strstr(e.msg, "field 2 'u33:2': unknown type 'u33'"));
	ck_assert(!cli_parse_aggregate("u8:256", b, 12, log_ptr, &l, &e));
	ck_assert(strstr(e.msg, "field 1 'u8:256'"));
	ck_assert(!cli_parse_aggregate("u8:1,,u8:2", b, 12, log_ptr, &l, &e));
	ck_assert(strstr(e.msg, "field 2 '': expected TYPE:VALUE"));
	ck_assert(!cli_parse_aggregate("ptr:bad", b, 12, log_ptr, &l, &e));
	ck_assert_str_eq(e.msg, "refused bad");
	ck_assert(!cli_parse_aggregate("pad:13", b, 12, log_ptr, &l, &e));
	ck_assert(!cli_parse_aggregate("", b, 12, log_ptr, &l, &e));
	ck_assert(strstr(e.msg, "pad:12 for all zeros"));
	ck_assert(!cli_parse_scalar(WE_PARAM_BYTES, "1", b, &e));
	ck_assert_str_eq(cli_param_type_name(WE_PARAM_BYTES), "b8");
	ck_assert_uint_eq(cli_param_type_size(WE_PARAM_BYTES), 0);
}
END_TEST

START_TEST(test_kind_heuristics)
{
	ck_assert(cli_looks_like_spec("@data.bin"));
	ck_assert(cli_looks_like_spec("zeros:4"));
	ck_assert(cli_looks_like_spec("iota:u32:4"));
	ck_assert(cli_looks_like_spec("random:f32:4"));
	ck_assert(cli_looks_like_spec("fill:u8:1:1"));
	ck_assert(!cli_looks_like_spec("12"));
	ck_assert(!cli_looks_like_spec("zeros"));
	ck_assert(cli_looks_like_number("12"));
	ck_assert(cli_looks_like_number("-0x10"));
	ck_assert(cli_looks_like_number("1.5e3"));
	ck_assert(!cli_looks_like_number("zeros:4"));
	ck_assert(!cli_looks_like_number(""));
}
END_TEST

/* ---- buffer specs ---------------------------------------------------- */

START_TEST(test_spec_file)
{
	cli_spec sp;
	cli_err e;

	ck_assert(spec_ok("@in.bin", false, &sp));
	ck_assert_int_eq(sp.kind, CLI_SPEC_FILE);
	ck_assert_str_eq(sp.path, "in.bin");
	ck_assert(spec_ok("@a~b:c", true, &sp));
	ck_assert_str_eq(sp.path, "a~b:c");
	ck_assert(!cli_parse_spec("@", false, &sp, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "file name"));
}
END_TEST

START_TEST(test_spec_zeros)
{
	cli_spec sp;
	uint8_t *b = generate("zeros:16", &sp);

	ck_assert_int_eq(sp.kind, CLI_SPEC_ZEROS);
	ck_assert_uint_eq(sp.bytes, 16);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(b[i], 0);
	free(b);
	ck_assert(spec_ok("zeros:0", false, &sp) && sp.bytes == 0);
	ck_assert(spec_ok("zeros:4K", false, &sp) && sp.bytes == 4096);
	ck_assert(spec_ok("zeros:0x10", false, &sp) && sp.bytes == 16);
	ck_assert(!spec_ok("zeros:4k", false, &sp));
	ck_assert(!spec_ok("zeros:17179869184G", false, &sp));
	ck_assert(!spec_ok("zeros", false, &sp));
	ck_assert(!spec_ok("zeros:", false, &sp));
	ck_assert(!spec_ok("zeros:1:2", false, &sp));
	ck_assert(!spec_ok("zeros:-1", false, &sp));
}
END_TEST

START_TEST(test_spec_fill)
{
	cli_spec sp;
	uint8_t *b = generate("fill:u16:3:0x1234", &sp);

	ck_assert_uint_eq(sp.bytes, 6);
	ck_assert(b[0] == 0x34 && b[1] == 0x12 && b[4] == 0x34 && b[5] == 0x12);
	free(b);
	b = generate("fill:f64:2:-1.5", &sp);
	ck_assert(elem_at(&sp, b, 1).f == -1.5);
	free(b);
	ck_assert(!spec_ok("fill:u8:3", false, &sp));
	ck_assert(!spec_ok("fill:u8:3:256", false, &sp));
	ck_assert(!spec_ok("fill:u8:3:1:2", false, &sp));
	ck_assert(!spec_ok("fill:x8:3:1", false, &sp));
	ck_assert(!spec_ok("fill:u8:x:1", false, &sp));
}
END_TEST

START_TEST(test_spec_iota)
{
	cli_spec sp;
	uint8_t *b = generate("iota:u32:4", &sp);

	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(elem_at(&sp, b, i).u, i);
	free(b);
	b = generate("iota:s32:4:-2:3", &sp);
	ck_assert_uint_eq(elem_at(&sp, b, 0).u, 0xfffffffeu);
	ck_assert_uint_eq(elem_at(&sp, b, 3).u, 7);
	free(b);
	b = generate("iota:u8:3:254", &sp);
	ck_assert_uint_eq(elem_at(&sp, b, 2).u, 0);
	free(b);
	b = generate("iota:u32:3:2:-1", &sp);
	ck_assert_uint_eq(elem_at(&sp, b, 2).u, 0);
	free(b);
	b = generate("iota:f32:3:1.5:0.25", &sp);
	ck_assert(elem_at(&sp, b, 2).f == 2.0);
	free(b);
	ck_assert(!spec_ok("iota:u32", false, &sp));
	ck_assert(!spec_ok("iota:u32:4:1:2:3", false, &sp));
	ck_assert(!spec_ok("iota:u32:4::2", false, &sp));
	ck_assert(!spec_ok("iota:u8:4:300", false, &sp));
	ck_assert(!spec_ok("iota:f32:4:a", false, &sp));
}
END_TEST

START_TEST(test_spec_random)
{
	cli_spec sp;
	uint8_t *a = generate("random:u32:64:7", &sp);
	uint8_t *b = generate("random:u32:64:7", &sp);
	uint8_t *c = generate("random:u32:64:8", &sp);
	uint8_t *f;

	ck_assert(memcmp(a, b, 256) == 0);
	ck_assert(memcmp(a, c, 256) != 0);
	free(a);
	free(b);
	free(c);
	f = generate("random:f32:1000", &sp);
	for (size_t i = 0; i < 1000; i++) {
		double v = elem_at(&sp, f, i).f;

		ck_assert(v >= 0.0 && v < 1.0);
	}
	free(f);
	f = generate("random:f64:1000:3", &sp);
	for (size_t i = 0; i < 1000; i++) {
		double v = elem_at(&sp, f, i).f;

		ck_assert(v >= 0.0 && v < 1.0);
	}
	free(f);
	ck_assert(!spec_ok("random:u32", false, &sp));
	ck_assert(!spec_ok("random:u32:4:-1", false, &sp));
	ck_assert(!spec_ok("random:u32:4:1:2", false, &sp));
}
END_TEST

START_TEST(test_splitmix)
{
	uint64_t s = 0;

	ck_assert(cli_splitmix64(&s) == UINT64_C(0xe220a8397b1dcdaf));
	ck_assert(cli_splitmix64(&s) == UINT64_C(0x6e789e6aa1b965f4));
}
END_TEST

START_TEST(test_spec_overflow)
{
	cli_spec sp;
	cli_err e;

	ck_assert(!cli_parse_spec("fill:u64:2305843009213693952:0", false,
				  &sp, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "too large"));
	ck_assert(!spec_ok("iota:f64:99999999999999999999999", false, &sp));
	ck_assert(!spec_ok("random:u16:9223372036854775808", false, &sp));
	ck_assert(spec_ok("zeros:18446744073709551615", false, &sp));
}
END_TEST

/* A buffer made chunk by chunk is the buffer made at once: every kind,
 * chunks of any number of elements. */
START_TEST(test_spec_range)
{
	static const char *const specs[] = {
		"random:u32:1000:7", "random:f64:333", "random:u8:1001:3", "iota:s16:700:-5:3",
		"iota:f32:500:0.5:0.25", "fill:u64:300:0x1234", "zeros:1000",
	};
	static const uint64_t chunks[] = { 1, 7, 64, 999 };

	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		cli_spec sp;
		uint8_t *whole = generate(specs[i], &sp);
		uint8_t *part = malloc(sp.bytes);
		size_t size = cli_elem_size(sp.type);

		ck_assert_ptr_nonnull(part);
		for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
			memset(part, 0xa5, sp.bytes);
			for (uint64_t first = 0; first < sp.count; first += chunks[c]) {
				uint64_t n = sp.count - first < chunks[c] ? sp.count - first : chunks[c];

				cli_spec_generate_range(&sp, first, n, part + first * size);
			}
			ck_assert_msg(memcmp(whole, part, sp.bytes) == 0, "%s in chunks of %llu",
				      specs[i], (unsigned long long)chunks[c]);
		}
		free(part);
		free(whole);
	}
}
END_TEST

START_TEST(test_spec_garbage)
{
	static const char *const bad[] = {
		"", ":", "::::", ":::::::", "garbage", "zeros:4:", "fill::1:1",
		"iota", "random:", "Zeros:4", "zeros :4", "iota:u32:4~1",
		"\xff\xfe", "fill:u8:1:1:1:1:1:1:1",
	};
	cli_spec sp;
	cli_err e;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(!cli_parse_spec(bad[i], false, &sp, &e),
			      "'%s' should be rejected", bad[i]);
		ck_assert(e.msg[0] != '\0');
	}
}
END_TEST

START_TEST(test_spec_tolerance)
{
	cli_spec sp;
	cli_err e;

	ck_assert(spec_ok("iota:f32:100:2~1e-6", true, &sp));
	ck_assert_uint_eq(sp.count, 100);
	ck_assert(sp.value.f == 2.0 && sp.tol == 1e-6);
	ck_assert(spec_ok("fill:f64:4:1", true, &sp) && sp.tol == 0.0);
	ck_assert(!spec_ok("iota:f32:100:2~1e-6", false, &sp));
	ck_assert(!cli_parse_spec("iota:u32:4~1", true, &sp, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "f32"));
	ck_assert(!spec_ok("iota:f32:4~-1", true, &sp));
	ck_assert(!spec_ok("iota:f32:4~nan", true, &sp));
	ck_assert(!spec_ok("iota:f32:4~", true, &sp));
	ck_assert(!spec_ok("iota:f32:4~1~2", true, &sp));
}
END_TEST

/* ---- NAME=VALUE, NAME[:TYPE[:COUNT]] --------------------------------- */

START_TEST(test_assign)
{
	cli_assign a;
	cli_err e;

	ck_assert(cli_parse_assign("n=42", &a, &e));
	ck_assert(cli_name_eq(a.name, a.namelen, "n"));
	ck_assert_str_eq(a.value, "42");
	ck_assert(cli_parse_assign("a=b=c", &a, &e));
	ck_assert(cli_name_eq(a.name, a.namelen, "a"));
	ck_assert_str_eq(a.value, "b=c");
	ck_assert(!cli_parse_assign("n", &a, &e));
	ck_assert(!cli_parse_assign("=1", &a, &e));
	ck_assert(!cli_parse_assign("n=", &a, &e));
	ck_assert(!cli_parse_assign("", &a, &e));
	ck_assert(!cli_name_eq("nn", 1, "nn"));
	ck_assert(cli_name_eq("nn", 2, "nn"));
}
END_TEST

START_TEST(test_print)
{
	cli_print p;
	cli_err e;

	ck_assert(cli_parse_print("out", &p, &e));
	ck_assert(cli_name_eq(p.name, p.namelen, "out"));
	ck_assert(p.type == CLI_U32 && !p.has_count);
	ck_assert(cli_parse_print("out:f32", &p, &e));
	ck_assert(p.type == CLI_F32 && !p.has_count);
	ck_assert(cli_parse_print("out:u8:10", &p, &e));
	ck_assert(p.type == CLI_U8 && p.has_count && p.count == 10);
	ck_assert(!cli_parse_print("out:u8:0", &p, &e));
	ck_assert(!cli_parse_print(":u8", &p, &e));
	ck_assert(!cli_parse_print("out:u8:1:2", &p, &e));
	ck_assert(!cli_parse_print("out:x", &p, &e));
	ck_assert(!cli_parse_print("out:", &p, &e));
	ck_assert(!cli_parse_print("out:u8:", &p, &e));
	ck_assert(!cli_parse_print("out:u8:-1", &p, &e));
	ck_assert(!cli_parse_print("", &p, &e));
}
END_TEST

/* ---- comparisons --------------------------------------------------------- */

START_TEST(test_compare_int)
{
	uint8_t got[16], exp[16];
	cli_mismatch m[2];
	cli_value v;

	for (int i = 0; i < 4; i++) {
		v.u = (uint64_t)i;
		cli_store_elem(CLI_U32, exp + 4 * i, v);
		v.u = i == 1 || i == 2 || i == 3 ? 100u + (unsigned)i : (unsigned)i;
		cli_store_elem(CLI_U32, got + 4 * i, v);
	}
	ck_assert_uint_eq(cli_compare(CLI_U32, got, exp, 4, 0, m, 2), 3);
	ck_assert_uint_eq(m[0].index, 1);
	ck_assert_uint_eq(m[0].got.u, 101);
	ck_assert_uint_eq(m[0].exp.u, 1);
	ck_assert_uint_eq(m[1].index, 2);
	ck_assert_uint_eq(cli_compare(CLI_U32, got, exp, 1, 0, m, 2), 0);
	ck_assert_uint_eq(cli_compare(CLI_U8, got, got, 16, 0, NULL, 0), 0);
}
END_TEST

static void put_f32(uint8_t *p, double d)
{
	cli_value v;

	v.f = d;
	cli_store_elem(CLI_F32, p, v);
}

START_TEST(test_compare_float)
{
	uint8_t got[20], exp[20];
	cli_mismatch m[4];

	put_f32(got, 1.0);
	put_f32(exp, 1.0);
	put_f32(got + 4, 0.0);
	put_f32(exp + 4, -0.0);
	put_f32(got + 8, NAN);
	put_f32(exp + 8, NAN);
	put_f32(got + 12, INFINITY);
	put_f32(exp + 12, INFINITY);
	put_f32(got + 16, 2.0000002);
	put_f32(exp + 16, 2.0);
	ck_assert_uint_eq(cli_compare(CLI_F32, got, exp, 5, 0, m, 4), 1);
	ck_assert_uint_eq(m[0].index, 4);
	ck_assert_uint_eq(cli_compare(CLI_F32, got, exp, 5, 1e-6, m, 4), 0);
	put_f32(got + 12, -INFINITY);
	ck_assert_uint_eq(cli_compare(CLI_F32, got, exp, 5, 1e-6, m, 4), 1);
	put_f32(got + 8, 1.0);
	ck_assert_uint_eq(cli_compare(CLI_F32, got, exp, 5, 1e30, m, 4), 2);
}
END_TEST

/* ---- misc ----------------------------------------------------------------- */

START_TEST(test_magic)
{
	ck_assert(cli_is_binary_module("WEMODULE\x01", 9));
	ck_assert(cli_is_binary_module("WEMODULE", 8));
	ck_assert(!cli_is_binary_module("WEMODUL", 7));
	ck_assert(!cli_is_binary_module(".kernel x", 9));
	ck_assert(!cli_is_binary_module("", 0));
}
END_TEST

START_TEST(test_engine_placement)
{
	static const char *const bad[] = {
		"", "Scheduler", "warp_threads", "warp-threads ", "default",
		"sched", "compact",
	};
	static const char *const badp[] = {
		"", "Compact", "spread", "none ", "default", "scheduler",
	};
	we_engine eng = WE_ENGINE_DEFAULT;
	we_placement pl = WE_PLACE_DEFAULT;
	cli_err e;

	ck_assert(cli_parse_engine("scheduler", &eng, &e));
	ck_assert_int_eq(eng, WE_ENGINE_SCHEDULER);
	ck_assert(cli_parse_engine("warp-threads", &eng, &e));
	ck_assert_int_eq(eng, WE_ENGINE_WARP_THREADS);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		eng = WE_ENGINE_SCHEDULER;
		e.msg[0] = '\0';
		ck_assert_msg(!cli_parse_engine(bad[i], &eng, &e),
			      "engine '%s' should be rejected", bad[i]);
		ck_assert_int_eq(eng, WE_ENGINE_SCHEDULER);
		ck_assert_ptr_nonnull(strstr(e.msg, "warp-threads"));
	}
	ck_assert(cli_parse_placement("compact", &pl, &e));
	ck_assert_int_eq(pl, WE_PLACE_COMPACT);
	ck_assert(cli_parse_placement("scatter", &pl, &e));
	ck_assert_int_eq(pl, WE_PLACE_SCATTER);
	ck_assert(cli_parse_placement("none", &pl, &e));
	ck_assert_int_eq(pl, WE_PLACE_NONE);
	for (size_t i = 0; i < sizeof badp / sizeof badp[0]; i++) {
		pl = WE_PLACE_SCATTER;
		e.msg[0] = '\0';
		ck_assert_msg(!cli_parse_placement(badp[i], &pl, &e),
			      "placement '%s' should be rejected", badp[i]);
		ck_assert_int_eq(pl, WE_PLACE_SCATTER);
		ck_assert_ptr_nonnull(strstr(e.msg, "scatter"));
	}
}
END_TEST

START_TEST(test_exit_status)
{
	ck_assert_int_eq(cli_exit_for_status(WE_OK), 0);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_INVALID), 2);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_NOMEM), 7);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_ASM), 3);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_LOAD), 3);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_EXCEPTION), 4);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_DEADLOCK), 5);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_IO), 6);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_LIMIT), 7);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_TIMEOUT), 7);
	ck_assert_int_eq(cli_exit_for_status(WE_ERR_INTERNAL), 70);
	ck_assert_int_eq(cli_exit_for_status((we_status)99), 70);
}
END_TEST

/* ---- schedules, watchdogs, reports, stress --------------------------------- */

START_TEST(test_schedule)
{
	static const char *const bad[] = {
		"", "seed", "seed:", "seed:-1", "seed: 1", "seed:1x", "Seed:1",
		"random:1", "seed:18446744073709551616", "seed:0x", "1",
		"jitter", "jitter:", "jitter:-1", "Jitter:1", "jitter:1x",
	};
	uint64_t seed = 0;
	bool jit = true;
	cli_err e;

	ck_assert(cli_parse_schedule("seed:7", &seed, &jit, &e) && seed == 7 && !jit);
	ck_assert(cli_parse_schedule("jitter:9", &seed, &jit, &e) && seed == 9 && jit);
	ck_assert(cli_parse_schedule("jitter:0x10", &seed, &jit, &e) && seed == 16 && jit);
	ck_assert(cli_parse_schedule("seed:0", &seed, &jit, &e) && seed == 0);
	ck_assert(cli_parse_schedule("seed:0xdeadBEEF", &seed, &jit, &e) &&
		  seed == 0xdeadbeefu);
	ck_assert(cli_parse_schedule("seed:18446744073709551615", &seed, &jit, &e) &&
		  seed == UINT64_MAX);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		seed = 42;
		e.msg[0] = '\0';
		ck_assert_msg(!cli_parse_schedule(bad[i], &seed, &jit, &e),
			      "schedule '%s' should be rejected", bad[i]);
		ck_assert_uint_eq(seed, 42);
		ck_assert(e.msg[0] != '\0');
	}
	ck_assert(!cli_parse_schedule("rr", &seed, &jit, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "seed:N"));
	ck_assert_ptr_nonnull(strstr(e.msg, "jitter:N"));
}
END_TEST

START_TEST(test_seconds)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "+1", "inf", "nan", "0x1p3", "1s", "abc", ".",
		"e5", "1e", "1e999", "--1", "1e+", "1.2.3",
	};
	double v = -1;
	cli_err e;

	ck_assert(cli_parse_seconds("0.2", &v, &e) && v == 0.2);
	ck_assert(cli_parse_seconds("10", &v, &e) && v == 10.0);
	ck_assert(cli_parse_seconds("0", &v, &e) && v == 0.0);
	ck_assert(cli_parse_seconds(".5", &v, &e) && v == 0.5);
	ck_assert(cli_parse_seconds("1e-3", &v, &e) && v == 1e-3);
	ck_assert(cli_parse_seconds("2E+1", &v, &e) && v == 20.0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = 7;
		e.msg[0] = '\0';
		ck_assert_msg(!cli_parse_seconds(bad[i], &v, &e),
			      "seconds '%s' should be rejected", bad[i]);
		ck_assert(v == 7);
		ck_assert(e.msg[0] != '\0');
	}
	ck_assert(!cli_parse_seconds("-0.5", &v, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "negative"));
}
END_TEST

START_TEST(test_report_mode)
{
	static const char *const bad[] = { "", "JSON", "txt", "json ", "xml" };
	cli_report r = CLI_REPORT_TEXT;
	cli_err e;

	ck_assert(cli_parse_report("json", &r, &e) && r == CLI_REPORT_JSON);
	ck_assert(cli_parse_report("text", &r, &e) && r == CLI_REPORT_TEXT);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = CLI_REPORT_JSON;
		ck_assert_msg(!cli_parse_report(bad[i], &r, &e),
			      "report '%s' should be rejected", bad[i]);
		ck_assert(r == CLI_REPORT_JSON);
		ck_assert_ptr_nonnull(strstr(e.msg, "text or json"));
	}
}
END_TEST

START_TEST(test_runs_jobs)
{
	static const char *const bad_runs[] = {
		"0", "", "-1", "1.5", "x", "18446744073709551616", "0x",
	};
	static const char *const bad_jobs[] = {
		"", "-1", "1025", "two", "4294967297", "1.0",
	};
	uint64_t runs = 0;
	unsigned jobs = 0;
	cli_err e;

	ck_assert(cli_parse_runs("1", &runs, &e) && runs == 1);
	ck_assert(cli_parse_runs("1000", &runs, &e) && runs == 1000);
	ck_assert(cli_parse_runs("0x10", &runs, &e) && runs == 16);
	for (size_t i = 0; i < sizeof bad_runs / sizeof bad_runs[0]; i++) {
		runs = 5;
		ck_assert_msg(!cli_parse_runs(bad_runs[i], &runs, &e),
			      "runs '%s' should be rejected", bad_runs[i]);
		ck_assert_uint_eq(runs, 5);
	}
	ck_assert(!cli_parse_runs("0", &runs, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "at least 1"));
	ck_assert(cli_parse_jobs("0", &jobs, &e) && jobs == 0);
	ck_assert(cli_parse_jobs("1", &jobs, &e) && jobs == 1);
	ck_assert(cli_parse_jobs("1024", &jobs, &e) && jobs == 1024);
	for (size_t i = 0; i < sizeof bad_jobs / sizeof bad_jobs[0]; i++) {
		jobs = 3;
		ck_assert_msg(!cli_parse_jobs(bad_jobs[i], &jobs, &e),
			      "jobs '%s' should be rejected", bad_jobs[i]);
		ck_assert_uint_eq(jobs, 3);
	}
	ck_assert(cli_check_seeds(1, 1, &e));
	ck_assert(cli_check_seeds(0, UINT64_MAX, &e));
	ck_assert(cli_check_seeds(1, UINT64_MAX, &e));
	ck_assert(cli_check_seeds(UINT64_MAX, 1, &e));
	ck_assert(!cli_check_seeds(UINT64_MAX, 2, &e));
	ck_assert(!cli_check_seeds(2, UINT64_MAX, &e));
	ck_assert(cli_check_seeds(UINT64_MAX - 9, 10, &e));
	ck_assert(!cli_check_seeds(UINT64_MAX - 9, 11, &e));
}
END_TEST

START_TEST(test_stress_classes)
{
	uint64_t n[CLI_NCLASS] = { 0 };
	cli_class k = CLI_CLASS_DIFFERS;

	ck_assert_str_eq(cli_class_name(CLI_CLASS_OK), "ok");
	ck_assert_str_eq(cli_class_name(CLI_CLASS_DIFFERS), "differs");
	ck_assert_str_eq(cli_class_name(CLI_CLASS_DEADLOCK), "deadlock");
	ck_assert_str_eq(cli_class_name(CLI_CLASS_EXCEPTION), "exception");
	ck_assert_str_eq(cli_class_name(CLI_CLASS_TIMEOUT), "timeout");
	ck_assert(cli_class_for_status(WE_OK, &k) && k == CLI_CLASS_OK);
	ck_assert(cli_class_for_status(WE_ERR_DEADLOCK, &k) &&
		  k == CLI_CLASS_DEADLOCK);
	ck_assert(cli_class_for_status(WE_ERR_EXCEPTION, &k) &&
		  k == CLI_CLASS_EXCEPTION);
	ck_assert(cli_class_for_status(WE_ERR_TIMEOUT, &k) &&
		  k == CLI_CLASS_TIMEOUT);
	ck_assert(!cli_class_for_status(WE_ERR_NOMEM, &k));
	ck_assert(!cli_class_for_status(WE_ERR_LIMIT, &k));
	ck_assert(!cli_class_for_status(WE_ERR_INTERNAL, &k));
	/* severity: exception > deadlock > timeout > differs > ok */
	n[CLI_CLASS_OK] = 10;
	ck_assert_int_eq(cli_stress_exit(n), 0);
	n[CLI_CLASS_DIFFERS] = 1;
	ck_assert_int_eq(cli_stress_exit(n), 1);
	n[CLI_CLASS_TIMEOUT] = 1;
	ck_assert_int_eq(cli_stress_exit(n), 7);
	n[CLI_CLASS_DEADLOCK] = 1;
	ck_assert_int_eq(cli_stress_exit(n), 5);
	n[CLI_CLASS_EXCEPTION] = 1;
	ck_assert_int_eq(cli_stress_exit(n), 4);
	n[CLI_CLASS_DEADLOCK] = 0;
	n[CLI_CLASS_TIMEOUT] = 0;
	ck_assert_int_eq(cli_stress_exit(n), 4);
}
END_TEST

/* Quote s and check the result and the returned length. */
static void quote_is(const char *s, const char *want)
{
	char buf[128];
	size_t n = cli_shell_quote(s, buf, sizeof buf);

	ck_assert_str_eq(buf, want);
	ck_assert_uint_eq(n, strlen(want));
}

START_TEST(test_shell_quote)
{
	char small[6];

	quote_is("run", "run");
	quote_is("--arg", "--arg");
	quote_is("out=zeros:4K", "out=zeros:4K");
	quote_is("/tmp/a_b-c.we", "/tmp/a_b-c.we");
	quote_is("--schedule=seed:7", "--schedule=seed:7");
	quote_is("", "''");
	quote_is("a b", "'a b'");
	quote_is("c=iota:f32:4:0.5~1e-6", "'c=iota:f32:4:0.5~1e-6'");
	quote_is("it's", "'it'\\''s'");
	quote_is("'", "''\\'''");
	quote_is("$HOME", "'$HOME'");
	quote_is("a*b", "'a*b'");
	quote_is("x\ny", "'x\ny'");
	/* truncation: like snprintf */
	ck_assert_uint_eq(cli_shell_quote("a b c d", small, sizeof small), 9);
	ck_assert_str_eq(small, "'a b ");
	ck_assert_uint_eq(cli_shell_quote("abc", NULL, 0), 3);
	ck_assert_uint_eq(cli_shell_quote("it's", NULL, 0), 9);
}
END_TEST

static Suite *args_suite(void)
{
	Suite *s = suite_create("cli_args");
	TCase *num = tcase_create("numbers");
	TCase *val = tcase_create("values");
	TCase *spec = tcase_create("specs");
	TCase *misc = tcase_create("misc");

	tcase_add_test(num, test_u64_valid);
	tcase_add_test(num, test_u64_invalid);
	tcase_add_test(num, test_s64);
	tcase_add_test(num, test_size);
	tcase_add_test(num, test_dim3_valid);
	tcase_add_test(num, test_dim3_invalid);
	tcase_add_test(val, test_elem_type);
	tcase_add_test(val, test_int_values);
	tcase_add_test(val, test_float_values);
	tcase_add_test(val, test_store_load);
	tcase_add_test(val, test_format);
	tcase_add_test(val, test_scalars);
	tcase_add_test(val, test_kind_heuristics);
	tcase_add_test(spec, test_spec_file);
	tcase_add_test(spec, test_spec_zeros);
	tcase_add_test(spec, test_spec_fill);
	tcase_add_test(spec, test_spec_iota);
	tcase_add_test(spec, test_spec_random);
	tcase_add_test(spec, test_splitmix);
	tcase_add_test(spec, test_spec_overflow);
	tcase_add_test(spec, test_spec_range);
	tcase_add_test(spec, test_spec_garbage);
	tcase_add_test(spec, test_spec_tolerance);
	tcase_add_test(misc, test_assign);
	tcase_add_test(misc, test_print);
	tcase_add_test(misc, test_compare_int);
	tcase_add_test(misc, test_compare_float);
	tcase_add_test(misc, test_magic);
	tcase_add_test(misc, test_exit_status);
	tcase_add_test(misc, test_engine_placement);
	tcase_add_test(misc, test_schedule);
	tcase_add_test(misc, test_seconds);
	tcase_add_test(misc, test_report_mode);
	tcase_add_test(misc, test_runs_jobs);
	tcase_add_test(misc, test_stress_classes);
	tcase_add_test(misc, test_shell_quote);
	tcase_add_test(misc, test_aggregate);
	suite_add_tcase(s, num);
	suite_add_tcase(s, val);
	suite_add_tcase(s, spec);
	suite_add_tcase(s, misc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(args_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
