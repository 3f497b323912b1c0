/* test_merge — the merge of the MPI distribution layer (src/dist/merge.c)
 * without MPI: two devices stand for rank 0 and rank 1, each changes its
 * copy of a buffer (plain bytes, atomic words with their map), rank 1's
 * diff is applied to rank 0's device, and the result or the refusal is
 * what doc/distributed.md says. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist_int.h"

#define WORDS 32
#define BYTES (WORDS * 4)

typedef struct two {
	we_device *dev[2];
	we_devptr p;                 /* the same address on both devices */
	we_mpi_buffer b;
	uint8_t snap[BYTES];
	uint8_t map[2][WORDS];       /* each rank's atomic codes */
	dbuf d;
} two;

static void two_open(two *t, const uint8_t *init)
{
	memset(t, 0, sizeof *t);
	memcpy(t->snap, init, BYTES);
	for (int r = 0; r < 2; r++) {
		we_devptr p;
		ck_assert_int_eq(we_device_create(NULL, &t->dev[r]), WE_OK);
		ck_assert_int_eq(we_malloc(t->dev[r], BYTES, &p), WE_OK);
		ck_assert_int_eq(we_memcpy_htod(t->dev[r], p, init, BYTES), WE_OK);
		if (r)
			ck_assert_uint_eq(p, t->p);
		t->p = p;
	}
	t->b = (we_mpi_buffer){ "buf", t->p, BYTES };
	t->d = (dbuf){ &t->b, t->snap, calloc(WORDS, 1) };
}

static void two_close(two *t)
{
	free(t->d.state);
	we_device_destroy(t->dev[0]);
	we_device_destroy(t->dev[1]);
}

/* Rank r stores n bytes at offset off. */
static void store(two *t, int r, size_t off, const void *v, size_t n)
{
	ck_assert_int_eq(we_memcpy_htod(t->dev[r], t->p + off, v, n), WE_OK);
}

static void store32(two *t, int r, unsigned word, uint32_t v, uint8_t code)
{
	store(t, r, 4u * word, &v, 4);
	t->map[r][word] = code;
}

/* Rank 1's diff applied to rank 0: true, or false with *e. */
static bool merge(two *t, dmerge_err *e)
{
	strbuf msg = { 0 };
	uint64_t sent = 0;
	memcpy(t->d.state, t->map[0], WORDS);
	ck_assert_int_eq(dist_diff(&t->d, t->dev[1], t->map[1], &msg, &sent), WE_OK);
	bool ok = dist_apply(&t->d, 1, t->dev[0], (const uint8_t *)msg.s, msg.n, 1, e);
	free(msg.s);
	return ok;
}

static uint32_t word(two *t, unsigned w)
{
	uint32_t v;
	ck_assert_int_eq(we_memcpy_dtoh(t->dev[0], &v, t->p + 4u * w, 4), WE_OK);
	return v;
}

START_TEST(plain_bytes_merge)
{
	uint8_t init[BYTES];
	two t;
	for (unsigned i = 0; i < BYTES; i++)
		init[i] = (uint8_t)i;
	two_open(&t, init);
	/* rank 0: byte 0 and word 5; rank 1: byte 1 (same word as byte 0),
	 * word 20, and byte 2 to the value it had (invisible) */
	store(&t, 0, 0, "\xaa", 1);
	store32(&t, 0, 5, 0x55555555u, 0);
	store(&t, 1, 1, "\xbb", 1);
	store32(&t, 1, 20, 0x20202020u, 0);
	store(&t, 1, 2, "\x02", 1);
	/* both ranks store one value at word 9: the same as one store */
	store32(&t, 0, 9, 99, 0);
	store32(&t, 1, 9, 99, 0);
	dmerge_err e;
	ck_assert(merge(&t, &e));
	ck_assert_uint_eq(word(&t, 0), 0x0302bbaau);
	ck_assert_uint_eq(word(&t, 5), 0x55555555u);
	ck_assert_uint_eq(word(&t, 9), 99);
	ck_assert_uint_eq(word(&t, 20), 0x20202020u);
	ck_assert_uint_eq(word(&t, 21), 0x57565554u); /* untouched */
	two_close(&t);
}
END_TEST

START_TEST(two_plain_values_refused)
{
	uint8_t init[BYTES] = { 0 };
	two t;
	two_open(&t, init);
	store(&t, 0, 70, "\x01", 1);
	store(&t, 1, 70, "\x02", 1);
	dmerge_err e;
	ck_assert(!merge(&t, &e));
	ck_assert_int_eq(e.kind, DC_TWO_PLAIN);
	ck_assert_uint_eq(e.offset, 70);
	ck_assert_int_eq(e.rank, 1);
	char *m = dist_conflict_text(&t.d, &e);
	ck_assert_ptr_nonnull(strstr(m, "parameter 'buf', offset 70 (0x46): rank 1 and a lower rank stored "
					"different values there"));
	free(m);
	two_close(&t);
}
END_TEST

START_TEST(atomics_combine)
{
	uint32_t init[WORDS] = { 0 };
	two t;
	init[0] = 10;                /* ADD */
	init[1] = (uint32_t)-5;      /* MIN.S32 */
	init[2] = 7;                 /* MAX (unsigned) */
	init[3] = 0xff00ff00u;       /* AND */
	init[4] = 0x1;               /* OR */
	init[5] = 0xf0f0f0f0u;       /* XOR */
	init[6] = 0xffffffffu;       /* ADD.U64, words 6-7: a carry */
	init[7] = 0;
	two_open(&t, (const uint8_t *)init);
	const uint8_t ADD = WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U32), MIN = WE_ATOMIC_CODE(WE_ATOM_MIN, WE_ATOM_S32),
		      MAX = WE_ATOMIC_CODE(WE_ATOM_MAX, WE_ATOM_U32), AND = WE_ATOMIC_CODE(WE_ATOM_AND, WE_ATOM_U32),
		      OR = WE_ATOMIC_CODE(WE_ATOM_OR, WE_ATOM_U32), XOR = WE_ATOMIC_CODE(WE_ATOM_XOR, WE_ATOM_U32),
		      ADD64 = WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U64);
	store32(&t, 0, 0, 13, ADD);                 /* +3 */
	store32(&t, 1, 0, 15, ADD);                 /* +5 */
	store32(&t, 0, 1, (uint32_t)-9, MIN);
	store32(&t, 1, 1, (uint32_t)-20, MIN);
	store32(&t, 0, 2, 0x80000000u, MAX);
	store32(&t, 1, 2, 9, MAX);
	store32(&t, 0, 3, 0xff000000u, AND);
	store32(&t, 1, 3, 0x0f00ff00u, AND);
	store32(&t, 0, 4, 0x3, OR);
	store32(&t, 1, 4, 0x5, OR);
	store32(&t, 0, 5, 0xf0f0f0f0u ^ 0x11u, XOR);
	store32(&t, 1, 5, 0xf0f0f0f0u ^ 0x101u, XOR);
	/* rank 0 adds 1, rank 1 adds 2 to 0x00000000ffffffff */
	const uint64_t a0 = 0x100000000u, a1 = 0x100000001u;
	store(&t, 0, 24, &a0, 8);
	store(&t, 1, 24, &a1, 8);
	t.map[0][6] = t.map[0][7] = t.map[1][6] = t.map[1][7] = ADD64;
	dmerge_err e;
	ck_assert(merge(&t, &e));
	ck_assert_uint_eq(word(&t, 0), 18);
	ck_assert_uint_eq(word(&t, 1), (uint32_t)-20);
	ck_assert_uint_eq(word(&t, 2), 0x80000000u);
	ck_assert_uint_eq(word(&t, 3), 0x0f000000u);
	ck_assert_uint_eq(word(&t, 4), 0x7);
	ck_assert_uint_eq(word(&t, 5), 0xf0f0f0f0u ^ 0x110u);
	ck_assert_uint_eq(word(&t, 6), 2);
	ck_assert_uint_eq(word(&t, 7), 1);
	two_close(&t);
}
END_TEST

/* Each refusal of an atomic word: rank 0's change, rank 1's, the kind. */
START_TEST(atomics_refused)
{
	const uint8_t ADD = WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_U32), XOR = WE_ATOMIC_CODE(WE_ATOM_XOR, WE_ATOM_U32),
		      CAS = WE_ATOMIC_CODE(WE_ATOM_CAS, WE_ATOM_U32);
	const struct { uint8_t c0, c1; dconflict kind; const char *text; } cases[] = {
		{ 0, ADD, DC_PLAIN_ATOMIC, "one rank stored there and another updated it atomically" },
		{ ADD, 0, DC_PLAIN_ATOMIC, "one rank stored there and another updated it atomically" },
		{ ADD, XOR, DC_ATOMIC_KINDS, "atomics of different operations or types" },
		{ CAS, CAS, DC_NOT_MERGEABLE, "with CAS atomics, which do not merge" },
		{ WE_ATOMIC_MIXED, WE_ATOMIC_MIXED, DC_NOT_MERGEABLE, "with mixed atomics" },
		{ WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_F32), WE_ATOMIC_CODE(WE_ATOM_ADD, WE_ATOM_F32), DC_NOT_MERGEABLE,
		  "with ADD.F32 atomics, which do not merge" },
		{ WE_ATOMIC_CODE(WE_ATOM_INC, WE_ATOM_U32), WE_ATOMIC_CODE(WE_ATOM_INC, WE_ATOM_U32), DC_NOT_MERGEABLE,
		  "with INC atomics, which do not merge" },
		/* an ADD whose old value was used, on either side */
		{ ADD | WE_ATOMIC_FETCHED, ADD, DC_FETCHED, "with ADD atomics, and one of them used the old value" },
		{ ADD, ADD | WE_ATOMIC_FETCHED, DC_FETCHED, "with ADD atomics, and one of them used the old value" },
		{ XOR | WE_ATOMIC_FETCHED, ADD, DC_ATOMIC_KINDS, "atomics of different operations or types" },
		{ CAS | WE_ATOMIC_FETCHED, CAS | WE_ATOMIC_FETCHED, DC_NOT_MERGEABLE, "with CAS atomics, which do not merge" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		uint8_t init[BYTES] = { 0 };
		two t;
		two_open(&t, init);
		store32(&t, 0, 12, 1, cases[k].c0);
		store32(&t, 1, 12, 2, cases[k].c1);
		dmerge_err e;
		ck_assert_msg(!merge(&t, &e), "case %zu merged", k);
		ck_assert_msg(e.kind == cases[k].kind, "case %zu: kind %d at %llu, want %d", k, (int)e.kind, (unsigned long long)e.offset, (int)cases[k].kind);
		ck_assert_uint_eq(e.offset, 48);
		char *m = dist_conflict_text(&t.d, &e);
		ck_assert_msg(strstr(m, cases[k].text) && strstr(m, "offset 48 (0x30)"), "case %zu: %s", k, m);
		free(m);
		two_close(&t);
	}
	/* an atomic of one rank alone, even CAS, is taken as it is */
	uint8_t init[BYTES] = { 0 };
	two t;
	two_open(&t, init);
	store32(&t, 1, 12, 7, CAS);
	/* and so is a fetched ADD of one rank, beside another rank's plain ADD
	 * on another word */
	store32(&t, 0, 13, 5, ADD | WE_ATOMIC_FETCHED);
	store32(&t, 1, 14, 6, ADD);
	dmerge_err e;
	ck_assert(merge(&t, &e));
	ck_assert_uint_eq(word(&t, 12), 7);
	ck_assert_uint_eq(word(&t, 13), 5);
	ck_assert_uint_eq(word(&t, 14), 6);
	two_close(&t);
}
END_TEST

START_TEST(malformed_message)
{
	uint8_t init[BYTES] = { 0 }, junk[5] = { 1, 2, 3, 4, 5 };
	two t;
	two_open(&t, init);
	dmerge_err e;
	ck_assert(!dist_apply(&t.d, 1, t.dev[0], junk, sizeof junk, 2, &e));
	ck_assert_int_eq(e.kind, DC_NONE);
	char *m = dist_conflict_text(&t.d, &e);
	ck_assert_ptr_nonnull(strstr(m, "the message of rank 2 is malformed"));
	free(m);
	two_close(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");
	tcase_add_test(tc, plain_bytes_merge);
	tcase_add_test(tc, two_plain_values_refused);
	tcase_add_test(tc, atomics_combine);
	tcase_add_test(tc, atomics_refused);
	tcase_add_test(tc, malformed_message);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
