/* test_isa — the generated ISA tables: 128-bit field access, encode /
 * decode round trips for every opcode, illegal encodings, no overlapping
 * encodings, and the seed values the descriptions must keep. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_gen.h"

static uint64_t rnd64(void)
{
	return (uint64_t)rand() ^ ((uint64_t)rand() << 21) ^ ((uint64_t)rand() << 42);
}

START_TEST(field_access)
{
	srand(1);
	for (unsigned i = 0; i < 100000; i++) {
		unsigned width = 1 + (unsigned)rand() % 64;
		unsigned pos = (unsigned)rand() % (129 - width);
		we_word w = { rnd64(), rnd64() }, orig = w;
		uint64_t v = rnd64();
		isa_set(&w, pos, width, v);
		uint64_t m = width == 64 ? ~0ull : (1ull << width) - 1;
		ck_assert_uint_eq(isa_get(&w, pos, width), v & m);
		/* other bits unchanged */
		for (unsigned b = 0; b < 128; b++) {
			if (b >= pos && b < pos + width)
				continue;
			ck_assert_uint_eq(isa_get(&w, b, 1), isa_get(&orig, b, 1));
		}
	}
}
END_TEST

/* a random legal instruction of opcode op */
static void random_insn(int op, we_insn *in)
{
	const isa_opcode *o = &isa_opcodes[op];
	isa_insn_init(in, op);
	for (unsigned i = 0; i < o->nfields; i++) {
		const isa_field *f = &o->fields[i];
		if (f->member < 0)
			continue;
		uint64_t v = rnd64() & (f->width >= 64 ? ~0ull : (1ull << f->width) - 1);
		int64_t s = (int64_t)v;
		if (f->kind == ISA_K_ENUM) {
			const isa_enum *e = &isa_enums[f->enum_id];
			do
				s = rand() % (int)e->nvalues;
			while (!e->values[s]);
		} else if (f->kind == ISA_K_SIMM && (v >> (f->width - 1)) & 1) {
			s = (int64_t)(v | ~((1ull << f->width) - 1));
		}
		isa_insn_set(in, f->member, s);
	}
}

START_TEST(roundtrip_every_opcode)
{
	srand(2);
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		for (unsigned n = 0; n < 500; n++) {
			we_insn in, out;
			random_insn(op, &in);
			if (isa_check(&in))
				continue;
			we_word w;
			isa_encode(&in, &w);
			ck_assert_int_eq(isa_decode(&w, &out), op);
			ck_assert_msg(memcmp(&in, &out, sizeof in) == 0, "%s: decode(encode(x)) != x",
				      isa_opcodes[op].name);
			we_word w2;
			isa_encode(&out, &w2);
			ck_assert(w.lo == w2.lo && w.hi == w2.hi);
		}
	}
}
END_TEST

START_TEST(illegal_encodings)
{
	srand(3);
	unsigned rejected = 0;
	for (unsigned n = 0; n < 200000; n++) {
		we_word w = { rnd64(), rnd64() };
		we_insn in;
		int op = isa_decode(&w, &in);
		if (op < 0) {
			rejected++;
			continue;
		}
		/* a word that decodes has no bit outside the opcode's fields */
		ck_assert_uint_eq(w.lo & ~isa_opcodes[op].used_lo, 0);
		ck_assert_uint_eq(w.hi & ~isa_opcodes[op].used_hi, 0);
	}
	ck_assert_uint_gt(rejected, 190000);
	/* reserved bits set in a valid instruction */
	we_insn in;
	isa_insn_init(&in, ISA_OP_EXIT_X);
	we_word w;
	isa_encode(&in, &w);
	ck_assert_int_eq(isa_decode(&w, &in), ISA_OP_EXIT_X);
	w.hi |= 1ull << 63;
	ck_assert_int_eq(isa_decode(&w, &in), -1);
	/* an unknown optype */
	w.lo = 0xff;
	w.hi = 0;
	ck_assert_int_eq(isa_decode(&w, &in), -1);
}
END_TEST

/* No two opcodes share their fixed (optype, stype) bits, so no 128-bit
 * word can decode as two instructions; within an opcode no fields overlap. */
START_TEST(no_overlap)
{
	for (int a = 0; a < ISA_NUM_OPCODES; a++) {
		const isa_opcode *x = &isa_opcodes[a];
		for (int b = a + 1; b < ISA_NUM_OPCODES; b++) {
			const isa_opcode *y = &isa_opcodes[b];
			ck_assert_msg(x->optype != y->optype || x->stype != y->stype,
				      "%s and %s share an encoding", x->name, y->name);
		}
		uint64_t lo = 0, hi = 0;
		for (unsigned i = 0; i < x->nfields; i++) {
			const isa_field *f = &x->fields[i];
			for (unsigned bit = f->pos; bit < f->pos + f->width; bit++) {
				uint64_t *wd = bit < 64 ? &lo : &hi, m = 1ull << (bit & 63);
				ck_assert_msg(!(*wd & m), "%s: field %s overlaps at bit %u", x->name, f->name, bit);
				*wd |= m;
			}
		}
		ck_assert(lo == x->used_lo && hi == x->used_hi);
	}
}
END_TEST

/* Values taken from the seeds that the descriptions must reproduce. */
START_TEST(seed_facts)
{
	const isa_opcode *bar = &isa_opcodes[ISA_OP_BAR_I];
	ck_assert_str_eq(bar->mnemonic, "BAR");
	ck_assert_str_eq(isa_opcodes[ISA_OP_B2R_RESULT_X].mnemonic, "BAR.RESULT");
	ck_assert_str_eq(isa_opcodes[ISA_OP_B2R_RESULT_X].alt_mnemonic, "B2R.RESULT");
	ck_assert_str_eq(isa_opcodes[ISA_OP_BAR_RED_R].mnemonic, "BAR.RED");
	ck_assert_int_eq(ISA_BRACond_DIV, 2);
	ck_assert_int_eq(ISA_BARREDOp_POPC, 2);
	/* 000: field<40,4> UImm4 barid; field<44,12> UImm12 cnt; field<80,1> mode */
	we_insn in;
	isa_insn_init(&in, ISA_OP_BAR_I);
	in.barid = 0xf;
	in.cnt = 0xfe0;
	in.mode = ISA_BARMode_ARV;
	we_word w;
	isa_encode(&in, &w);
	ck_assert_uint_eq(isa_get(&w, 40, 4), 0xf);
	ck_assert_uint_eq(isa_get(&w, 44, 12), 0xfe0);
	ck_assert_uint_eq(isa_get(&w, 80, 1), 1);
	ck_assert_uint_eq(isa_get(&w, 12, 3), 7); /* pg = PT */
	/* 004: BRA offset is field<32,50> SImm50, crossing bit 64 */
	isa_insn_init(&in, ISA_OP_BRA_X);
	in.offset = -7;
	isa_encode(&in, &w);
	ck_assert_uint_eq(isa_get(&w, 32, 50), (1ull << 50) - 7);
	we_insn out;
	ck_assert_int_eq(isa_decode(&w, &out), ISA_OP_BRA_X);
	ck_assert_int_eq(out.offset, -7);
	/* __Exception of BRA_U: only .DIV/.CONV */
	isa_insn_init(&in, ISA_OP_BRA_U);
	in.cond = ISA_BRACond_U;
	ck_assert_ptr_nonnull(isa_check(&in));
	in.cond = ISA_BRACond_DIV;
	ck_assert_ptr_null(isa_check(&in));
	/* every opcode has a guard predicate defaulting to PT */
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		isa_insn_init(&in, op);
		ck_assert_int_eq(in.pg, 7);
		ck_assert_int_eq(in.pg_not, 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("isa");
	TCase *t = tcase_create("tables");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, field_access);
	tcase_add_test(t, roundtrip_every_opcode);
	tcase_add_test(t, illegal_encodings);
	tcase_add_test(t, no_overlap);
	tcase_add_test(t, seed_facts);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
