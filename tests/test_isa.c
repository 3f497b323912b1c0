/* test_isa — the generated ISA tables: 128-bit field access, encode /
 * decode round trips for every opcode, illegal encodings, no overlapping
 * encodings, the seed values the descriptions must keep, and the
 * instructions' properties (units, flags, operand names, register spans),
 * with the seeded schedule's preemption points that follow a flag. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_gen.h"
#include "warpemu/warpemu.h"

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

/* ---- properties ---------------------------------------------------------- */

static bool optype_in(int op, const int *opts, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (isa_op_optype[op] == opts[k])
			return true;
	return false;
}
#define OPTYPE_IN(op, ...) \
	optype_in(op, (const int[]){ __VA_ARGS__ }, sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

/* Units are what the descriptions say: the group each reaches ALL by. */
START_TEST(units)
{
	static const struct { int op, unit; } want[] = {
		{ ISA_OP_BAR_I, ISA_UNIT_BCU }, { ISA_OP_BAR_SCAN_I, ISA_UNIT_BCU },
		{ ISA_OP_BRA_X, ISA_UNIT_BRU }, { ISA_OP_NANOSLEEP_R, ISA_UNIT_BRU },
		{ ISA_OP_NBARRIER_WAIT_I, ISA_UNIT_VISA }, { ISA_OP_NBARRIER_SIGNAL_II, ISA_UNIT_VISA },
		{ ISA_OP_IADD3_R, ISA_UNIT_ALU }, { ISA_OP_FFMA_RRC, ISA_UNIT_FPU },
		{ ISA_OP_S2R_X, ISA_UNIT_WARP }, { ISA_OP_LDG_R, ISA_UNIT_MEM },
		{ ISA_OP_ULDC_C, ISA_UNIT_UNI },
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		ck_assert_int_eq(isa_opcodes[want[k].op].unit_id, want[k].unit);
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		ck_assert_uint_lt(isa_opcodes[op].unit_id, ISA_NUM_UNITS);
		ck_assert_str_eq(isa_unit_names[isa_opcodes[op].unit_id], isa_opcodes[op].unit);
	}
}
END_TEST

/* The flags a unit gives all its instructions, and only them. */
START_TEST(flags_of_units)
{
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		const isa_opcode *o = &isa_opcodes[op];
		const unsigned u = o->unit_id, f = o->flags;
		const bool sync = u == ISA_UNIT_BCU || u == ISA_UNIT_VISA;
		/* and the PTX barriers that park lanes as BSYNC does (ptx.isa) */
		const bool tbar = OPTYPE_IN(op, ISA_OPT_TBAR, ISA_OPT_TBAR_RED);
		ck_assert_msg(!(f & ISA_F_BRANCH) == (u != ISA_UNIT_BRU && !tbar), "%s: Branch", o->name);
		ck_assert_msg(!(f & ISA_F_BARRIER) == !sync, "%s: Barrier", o->name);
		/* memory accesses and barriers, named barriers too */
		ck_assert_msg(!(f & ISA_F_PREEMPT) == !(sync || u == ISA_UNIT_MEM), "%s: Preempt", o->name);
		if (sync)
			ck_assert_msg(f & ISA_F_PER_CTA, "%s: PerCTA", o->name);
	}
}
END_TEST

/* Every instruction of the barrier and branch units that can block has
 * MayBlock (000: BAR.SYNC and BAR.RED wait for the count; 003: BAR.SYNCALL;
 * 002: NBARRIER.wait; 004: lanes park at BSYNC and WARPSYNC; ptx.isa:
 * TBAR), and no
 * other instruction has it. */
START_TEST(may_block)
{
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		const bool blocks = OPTYPE_IN(op, ISA_OPT_BAR, ISA_OPT_BAR_RED, ISA_OPT_BAR_SYNCALL,
					      ISA_OPT_NBARRIER_WAIT, ISA_OPT_BSYNC, ISA_OPT_WARPSYNC, ISA_OPT_TBAR,
					      ISA_OPT_TBAR_RED);
		ck_assert_msg(!(isa_opcodes[op].flags & ISA_F_MAY_BLOCK) == !blocks, "%s: MayBlock",
			      isa_opcodes[op].name);
	}
}
END_TEST

START_TEST(flags_of_instructions)
{
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		const isa_opcode *o = &isa_opcodes[op];
		/* targets from registers, a stack or a trap handler */
		const bool indirect = OPTYPE_IN(op, ISA_OPT_BRX, ISA_OPT_CALL, ISA_OPT_RET, ISA_OPT_TRAP, ISA_OPT_RTT);
		ck_assert_msg(!(o->flags & ISA_F_INDIRECT) == !indirect, "%s: Indirect", o->name);
		/* state of the CTA: ids, shared memory (also through a generic
		 * address), barriers */
		const bool cta = OPTYPE_IN(op, ISA_OPT_S2R, ISA_OPT_S2UR, ISA_OPT_LDS, ISA_OPT_STS, ISA_OPT_ATOMS,
					   ISA_OPT_ATOMS_X, ISA_OPT_GEN_LD, ISA_OPT_GEN_ST, ISA_OPT_GEN_ATOM) ||
				 o->unit_id == ISA_UNIT_BCU || o->unit_id == ISA_UNIT_VISA;
		ck_assert_msg(!(o->flags & ISA_F_PER_CTA) == !cta, "%s: PerCTA", o->name);
		/* WritesPred: a P predicate in OutList<>, or R2P */
		bool pred_out = isa_op_optype[op] == ISA_OPT_R2P;
		for (unsigned j = 0; j < o->nfields; j++)
			pred_out |= o->fields[j].kind == ISA_K_PRED && o->fields[j].is_out;
		ck_assert_msg(!(o->flags & ISA_F_WRITES_PRED) == !pred_out, "%s: WritesPred", o->name);
	}
	ck_assert(isa_opcodes[ISA_OP_ISETP_R].flags & ISA_F_WRITES_PRED);
	ck_assert(isa_opcodes[ISA_OP_B2R_RESULT_X].flags & ISA_F_WRITES_PRED);
	ck_assert(!(isa_opcodes[ISA_OP_UISETP_U].flags & ISA_F_WRITES_PRED)); /* UP, not P */
}
END_TEST

/* Operand names: one per operand after the guard, the same position
 * whatever the form calls it. */
START_TEST(roles)
{
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		const isa_opcode *o = &isa_opcodes[op];
		unsigned n = 0;
		for (unsigned k = 0; k < o->norder; k++)
			n += strcmp(o->fields[o->order[k]].name, "pg") != 0;
		ck_assert_msg(o->nroles == n, "%s: %u roles, %u operands", o->name, o->nroles, n);
		for (unsigned k = 0; k < o->nroles; k++)
			ck_assert_ptr_nonnull(o->roles[k]);
	}
	/* BAR: the barrier id first, the count second, in every form */
	const int bars[] = { ISA_OP_BAR_I, ISA_OP_BAR_RR, ISA_OP_BAR_RRI, ISA_OP_BAR_RIR };
	for (size_t k = 0; k < 4; k++) {
		ck_assert_str_eq(isa_opcodes[bars[k]].roles[BAR_id], "id");
		ck_assert_str_eq(isa_opcodes[bars[k]].roles[BAR_cnt], "cnt");
	}
	ck_assert_str_eq(isa_opcodes[ISA_OP_BAR_RR].fields[isa_opcodes[ISA_OP_BAR_RR].order[1 + BAR_id]].name, "ra");
	ck_assert_str_eq(isa_opcodes[ISA_OP_BAR_RED_R].roles[BAR_RED_R_idcnt], "idcnt");
	ck_assert_int_eq(BAR_RED_pp, 2);
	ck_assert_int_eq(BRA_offset, 1);
	ck_assert_int_eq(BRA_U_offset, 2);
	ck_assert_str_eq(isa_opcodes[ISA_OP_NBARRIER_SIGNAL_RI].roles[NBAR_SIGNAL_BASE_nthreads], "nthreads");
	ck_assert_str_eq(isa_opcodes[ISA_OP_NBARRIER_SIGNAL_RRIR].roles[NBAR_SIGNAL_ncons], "ncons");
	/* names of a group every load shares */
	ck_assert_str_eq(isa_opcodes[ISA_OP_LDL_R].roles[LD_addr], "addr");
	ck_assert_int_eq(ATOM_rc, 3);
	/* names taken from Order<> where no Roles<> is given */
	ck_assert_str_eq(isa_opcodes[ISA_OP_B2R_I].roles[B2R_barid], "barid");
	ck_assert_int_eq(S2R_sr, 1);
}
END_TEST

static unsigned span_of(int op, const char *field, const char *mod, int64_t v)
{
	const isa_opcode *o = &isa_opcodes[op];
	we_insn in;
	isa_insn_init(&in, op);
	int fi = -1;
	for (unsigned j = 0; j < o->nfields; j++) {
		if (mod && !strcmp(o->fields[j].name, mod))
			isa_insn_set(&in, o->fields[j].member, v);
		if (!strcmp(o->fields[j].name, field))
			fi = (int)j;
	}
	ck_assert_int_ge(fi, 0);
	return isa_reg_span(&in, (unsigned)fi);
}

/* Registers an operand spans: Bitwidth<> as a number, or the width the
 * size modifier names (Bitwidth<rd> = size). */
START_TEST(register_spans)
{
	ck_assert_uint_eq(span_of(ISA_OP_LDG_R, "rd", "size", ISA_MemSize_32), 1);
	ck_assert_uint_eq(span_of(ISA_OP_LDG_R, "rd", "size", ISA_MemSize_64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_LDG_R, "rd", "size", ISA_MemSize_128), 4);
	ck_assert_uint_eq(span_of(ISA_OP_LDG_R, "rd", "size", ISA_MemSize_U16), 1);
	ck_assert_uint_eq(span_of(ISA_OP_LDG_R, "ra", "size", ISA_MemSize_128), 2); /* 64-bit address */
	ck_assert_uint_eq(span_of(ISA_OP_LDS_R, "ra", "size", ISA_MemSize_128), 1);
	ck_assert_uint_eq(span_of(ISA_OP_STS_R, "rb", "size", ISA_MemSize_128), 4);
	ck_assert_uint_eq(span_of(ISA_OP_LDC_R, "rd", "size", ISA_MemSize_64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_LDC_R, "ra", "size", ISA_MemSize_64), 1);
	ck_assert_uint_eq(span_of(ISA_OP_ULDC_C, "urd", "size", ISA_MemSize_64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_ATOMG_R, "rd", "type", ISA_AtomType_U64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_ATOMG_R, "rc", "type", ISA_AtomType_S64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_ATOMS_R, "rb", "type", ISA_AtomType_S32), 1);
	ck_assert_uint_eq(span_of(ISA_OP_RED_R, "rb", "type", ISA_AtomType_U64), 2);
	ck_assert_uint_eq(span_of(ISA_OP_IMAD_WIDE_R, "rd", NULL, 0), 2);
	ck_assert_uint_eq(span_of(ISA_OP_IMAD_R, "rd", NULL, 0), 1);
	ck_assert_ptr_nonnull(isa_enums[ISA_ENUM_MemSize].widths);
	ck_assert_ptr_null(isa_enums[ISA_ENUM_BARMode].widths);
}
END_TEST

/* The seeded schedule preempts after every Preempt instruction, named
 * barriers too: a producer warp that signals before it stores is caught
 * by the consumer it releases when it is preempted right after the signal
 * and the consumer runs next (9 of these 64 seeds; 2, by other paths,
 * while NBARRIER was no preemption point). */
static const char race_src[] =
	".kernel race\n.param ptr out\n.shared 128\n.dialect visa\n"
	"        S2R R0, SR_TID.X ;\n"
	"        SHF.R.U32.HI R2, RZ, 0x5, R0 ;\n"
	"        LOP3.LUT R3, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	"        IMAD R4, R3, 0x4, RZ ;\n"
	"        ISETP.NE.U32.AND P0, PT, R2, RZ, PT ;\n"
	"   @P0  BRA `(.consumer) ;\n"
	"        NBARRIER.signal 0x1, 0x1, 0x1, 0x1 ;\n" /* producer, too early */
	"        IADD3 R5, R3, 0x64, RZ ;\n"
	"        STS [R4], R5 ;\n"
	"        EXIT ;\n"
	".consumer:\n"
	"        NBARRIER.signal 0x1, 0x2, 0x1, 0x1 ;\n" /* consumer */
	"        NBARRIER.wait 0x1 ;\n"
	"        LDS R6, [R4] ;\n"
	"        MOV R8, c[0x0][0x0] ;\n"
	"        MOV R9, c[0x0][0x4] ;\n"
	"        IMAD.WIDE.U32 R[10:11], R4, 0x1, R[8:9] ;\n"
	"        STG [R10.64], R6 ;\n"
	"        EXIT ;\n.end\n";

START_TEST(seeded_schedule_preempts_at_named_barriers)
{
	we_device *dev;
	we_module *m;
	we_devptr out;
	ck_assert_int_eq(we_device_create(&(we_device_config){ .threads = 1 }, &dev), WE_OK);
	ck_assert_int_eq(we_module_load_text(dev, race_src, strlen(race_src), "race", &m), WE_OK);
	ck_assert_int_eq(we_malloc(dev, 128, &out), WE_OK);
	unsigned early = 0, late = 0;
	for (uint64_t seed = 1; seed <= 64; seed++) {
		ck_assert_int_eq(we_memset(dev, out, 0, 128), WE_OK);
		we_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 }, .threads = 1,
					 .engine = WE_ENGINE_SCHEDULER, .schedule_seeded = true,
					 .schedule_seed = seed };
		ck_assert_int_eq(we_launch(dev, m, "race", &cfg, &out, sizeof out, NULL), WE_OK);
		uint32_t v[32];
		ck_assert_int_eq(we_memcpy_dtoh(dev, v, out, sizeof v), WE_OK);
		for (unsigned l = 0; l < 32; l++)
			ck_assert(v[l] == (v[0] ? 100u + l : 0u));
		early += v[0] == 0;
		late += v[0] != 0;
	}
	ck_assert_uint_ge(early, 6);
	ck_assert_uint_ge(late, 1);
	we_module_destroy(m);
	we_device_destroy(dev);
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
	TCase *p = tcase_create("properties");
	tcase_set_timeout(p, 120);
	tcase_add_test(p, units);
	tcase_add_test(p, flags_of_units);
	tcase_add_test(p, may_block);
	tcase_add_test(p, flags_of_instructions);
	tcase_add_test(p, roles);
	tcase_add_test(p, register_spans);
	tcase_add_test(p, seeded_schedule_preempts_at_named_barriers);
	suite_add_tcase(s, p);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
