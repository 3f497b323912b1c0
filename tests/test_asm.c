/* test_asm.c — libcheck suite "asm": assembler, disassembler and the binary
 * module format.
 *
 * Build: make tests/test_asm (with tests/harness.c and the library).
 * The data of tests/ is read from $top_srcdir (default "..", see
 * tests/harness.h), which make check sets.
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/module.h"

#include "harness.h"

/* ---- helpers ------------------------------------------------------------ */

/* The file at tests/`rel` of the source tree. */
static char *read_file(const char *rel, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "tests/%s", rel);
	return th_read_source(path, len);
}

/* assemble; on failure fail the test with the diagnostics */
static struct we_module *assemble_ok(const char *text, const char *name)
{
	struct we_module *m = NULL;
	char *diag = NULL;
	we_status st = asm_assemble(text, strlen(text), name, &m, &diag);
	ck_assert_msg(st == WE_OK, "assembling %s failed (%d):\n%s\n--- text ---\n%s", name, st,
		      diag ? diag : "(no diagnostics)", text);
	ck_assert_ptr_nonnull(m);
	free(diag);
	return m;
}

/* assemble expecting failure; returns the diagnostics (malloc'd) */
static char *assemble_bad(const char *text, size_t len, const char *name)
{
	struct we_module *m = NULL;
	char *diag = NULL;
	we_status st = asm_assemble(text, len, name, &m, &diag);
	ck_assert_msg(st == WE_ERR_ASM, "%s: expected WE_ERR_ASM, got %d", name, st);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(diag);
	return diag;
}

static bool same_word(const we_word *a, const we_word *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

/* disassemble instruction i of m and re-assemble it at the same address */
static void check_roundtrip(const struct we_module *m, uint32_t i, const char *what)
{
	char text[1024], err[400];
	dis_insn(&m->insn[i], (uint64_t)i * 16, text, sizeof text);
	we_word w;
	bool ok = asm_one(text, strlen(text), (uint64_t)i * 16, &w, err, sizeof err);
	ck_assert_msg(ok, "%s: '%s' does not re-assemble: %s", what, text, err);
	ck_assert_msg(same_word(&w, &m->code[i]),
		      "%s: '%s' re-assembles to %016" PRIx64 "%016" PRIx64 ", not %016" PRIx64 "%016" PRIx64,
		      what, text, w.hi, w.lo, m->code[i].hi, m->code[i].lo);
}

/* the whole module through dis_module and back: same code, kernels, data */
static void check_module_roundtrip(const struct we_module *m)
{
	char *text = dis_module(m);
	ck_assert_ptr_nonnull(text);
	struct we_module *m2 = assemble_ok(text, "dis_module output");
	ck_assert_uint_eq(m2->ninsns, m->ninsns);
	for (uint32_t i = 0; i < m->ninsns; i++)
		ck_assert_msg(same_word(&m->code[i], &m2->code[i]), "instruction %u differs after dis_module", i);
	ck_assert_uint_eq(m2->nkernels, m->nkernels);
	for (uint32_t k = 0; k < m->nkernels; k++) {
		const we_kernel *a = &m->kernels[k], *b = &m2->kernels[k];
		ck_assert_str_eq(a->name, b->name);
		ck_assert_uint_eq(a->code_start, b->code_start);
		ck_assert_uint_eq(a->code_end, b->code_end);
		ck_assert_uint_eq(a->shared_bytes, b->shared_bytes);
		ck_assert_uint_eq(a->local_bytes, b->local_bytes);
		ck_assert_int_eq(a->dialect, b->dialect);
		ck_assert_int_eq(a->trap_handler, b->trap_handler);
		ck_assert_uint_eq(a->info.nparams, b->info.nparams);
		ck_assert_uint_eq(a->info.param_bytes, b->info.param_bytes);
		for (unsigned p = 0; p < a->info.nparams; p++) {
			ck_assert_str_eq(a->params[p].name, b->params[p].name);
			ck_assert_int_eq(a->params[p].type, b->params[p].type);
			ck_assert_uint_eq(a->params[p].offset, b->params[p].offset);
		}
	}
	for (unsigned bk = 0; bk < WE_NUM_CBANKS; bk++) {
		ck_assert_uint_eq(m->cbank[bk].size, m2->cbank[bk].size);
		if (m->cbank[bk].size)
			ck_assert(!memcmp(m->cbank[bk].data, m2->cbank[bk].data, m->cbank[bk].size));
	}
	module_free(m2);
	free(text);
}

/* ---- (1)+(2) the seeds' __Examples --------------------------------------- */

/* Every example line assembles (the forms 000/004 omit come from __Amend
 * and extra opcodes in src/isa/encoding.isa) and round-trips. */
START_TEST(seed_examples)
{
	char *all = read_file("data/seed_examples.s", NULL);
	unsigned lines = 0, insns = 0;
	char *save = NULL;
	for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " \t");
		if (!strcmp(s, "...")) /* "..." stands for omitted code in the seeds */
			continue;
		lines++;
		/* the labels the examples use, defined after the line */
		char text[2048];
		snprintf(text, sizeof text, "%s\nlabel:\n.Target:\n.Label:\n.Base:\n", line);
		struct we_module *m = NULL;
		char *diag = NULL;
		we_status st = asm_assemble(text, strlen(text), "example", &m, &diag);
		ck_assert_msg(st == WE_OK, "example '%s' does not assemble:\n%s", line, diag ? diag : "");
		free(diag);
		ck_assert_uint_le(m->ninsns, 1);
		if (m->ninsns) {
			insns++;
			check_roundtrip(m, 0, line);
		}
		module_free(m);
	}
	ck_assert_uint_ge(lines, 80);
	ck_assert_uint_ge(insns, 70);
	free(all);
}
END_TEST

/* the same examples as one file: labels, comments and all */
START_TEST(seed_examples_file)
{
	char *all = read_file("data/seed_examples.s", NULL);
	size_t cap = strlen(all) + 256, n = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	char *save = NULL;
	for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " \t");
		if (!strcmp(s, "..."))
			continue;
		n += (size_t)snprintf(text + n, cap - n, "%s\n", line);
	}
	n += (size_t)snprintf(text + n, cap - n, "label:\n.Target:\n.Label:\n.Base:\n");
	struct we_module *m = assemble_ok(text, "seed_examples.s");
	ck_assert_uint_ge(m->ninsns, 70);
	for (uint32_t i = 0; i < m->ninsns; i++)
		check_roundtrip(m, i, "examples file");
	check_module_roundtrip(m);
	module_free(m);
	free(text);
	free(all);
}
END_TEST

/* ---- (3) brx_test ----------------------------------------------------------- */

/* address given by a "/ *XXXX* /" comment on the line, or -1 */
static long addr_comment(const char *line)
{
	const char *p = strstr(line, "/*");
	if (!p)
		return -1;
	char *e;
	long v = strtol(p + 2, &e, 16);
	return e != p + 2 && e[0] == '*' && e[1] == '/' ? v : -1;
}

START_TEST(brx_test_listing)
{
	size_t len;
	char *text = read_file("data/brx_test.s", &len);
	struct we_module *m = assemble_ok(text, "brx_test.s");
	ck_assert_uint_eq(m->ninsns, 18);
	ck_assert_uint_eq(m->nkernels, 1);
	ck_assert_uint_eq(m->kernels[0].code_start, 0);
	ck_assert_uint_eq(m->kernels[0].code_end, 18 * 16);

	/* the listing's address comments agree with the layout, and the
	 * jump table holds the label offsets */
	const char *names[4] = { ".L_x_7:", ".L_x_8:", ".L_x_9:", ".L_x_10:" };
	long label_addr[4] = { -1, -1, -1, -1 };
	bool in_text = false;
	uint32_t lineno = 0;
	char *copy = strdup(text), *save = NULL;
	ck_assert_ptr_nonnull(copy);
	const char *prev_label = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		(void)lineno;
		const char *s = line + strspn(line, " \t");
		if (!strncmp(s, ".section", 8) && (s[8] == ' ' || s[8] == '\t'))
			in_text = strstr(s, ".text.") != NULL;
		for (int k = 0; k < 4; k++)
			if (!strcmp(s, names[k]))
				prev_label = names[k];
		long a = addr_comment(s);
		if (a < 0 || !in_text)
			continue;
		for (int k = 0; k < 4; k++)
			if (prev_label == names[k])
				label_addr[k] = a;
		prev_label = NULL;
	}
	free(copy);
	/* line numbers: every instruction's source line has its address */
	char *lines[2000];
	size_t nl = 0;
	copy = strdup(text);
	ck_assert_ptr_nonnull(copy);
	for (char *p = copy; p && nl < 2000;) {
		lines[nl++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = 0;
	}
	for (uint32_t i = 0; i < m->ninsns; i++) {
		ck_assert_uint_ge(m->line[i], 1);
		ck_assert_uint_le(m->line[i], nl);
		ck_assert_int_eq(addr_comment(lines[m->line[i] - 1]), (long)i * 16);
	}
	free(copy);
	const we_cbank *b = &m->cbank[2];
	ck_assert_uint_eq(b->size, 16);
	for (int k = 0; k < 4; k++) {
		uint32_t w = (uint32_t)b->data[4 * k] | (uint32_t)b->data[4 * k + 1] << 8 |
			     (uint32_t)b->data[4 * k + 2] << 16 | (uint32_t)b->data[4 * k + 3] << 24;
		ck_assert_int_ge(label_addr[k], 0);
		ck_assert_uint_eq(w, (uint32_t)label_addr[k]);
	}
	/* a few decoded fields */
	ck_assert_int_eq(m->insn[4].opcode, ISA_OP_LDC_R);
	ck_assert_int_eq(m->insn[4].bank, 2);
	ck_assert_int_eq(m->insn[4].off, -0x8000);
	ck_assert_int_eq(m->insn[6].opcode, ISA_OP_BRX_R);
	ck_assert_int_eq(m->insn[6].offset, -7);
	ck_assert_int_eq(m->insn[16].opcode, ISA_OP_RET_R);
	ck_assert_int_eq(m->insn[16].depth, ISA_CallDepth_NODEC);
	ck_assert_int_eq(m->insn[16].mode, ISA_BasePCMode_ABS);
	ck_assert_int_eq(m->insn[17].opcode, ISA_OP_BRA_X);
	ck_assert_int_eq(m->insn[17].offset, -1);
	ck_assert_int_eq(m->insn[0].opcode, ISA_OP_BSSY_I);
	ck_assert_int_eq(m->insn[0].syncpoint, (0x100 - 0x10) / 16);
	for (uint32_t i = 0; i < m->ninsns; i++)
		check_roundtrip(m, i, "brx_test");
	check_module_roundtrip(m);
	module_free(m);
	free(text);
}
END_TEST

/* ---- (4) random fields: encode, decode, print, assemble ------------------ */

static void random_insn(we_insn *in, int op)
{
	const isa_opcode *o = &isa_opcodes[op];
	isa_insn_init(in, op);
	for (unsigned i = 0; i < o->nfields; i++) {
		const isa_field *f = &o->fields[i];
		if (f->member < 0 || f->fixed)
			continue;
		uint64_t v = th_rng64();
		/* bias towards small values and defaults now and then */
		switch (th_rng64() % 8) {
		case 0: v = 0; break;
		case 1: v = f->has_default ? (uint64_t)f->value : v; break;
		case 2: v &= 0xff; break;
		default: break;
		}
		if (f->width < 64)
			v &= (UINT64_C(1) << f->width) - 1;
		int64_t s = (int64_t)v;
		if (f->kind == ISA_K_SIMM && f->width < 64 && (v >> (f->width - 1)) & 1)
			s = (int64_t)(v | ~((UINT64_C(1) << f->width) - 1));
		if (f->kind == ISA_K_ENUM) {
			const isa_enum *e = &isa_enums[f->enum_id];
			do
				s = (int64_t)(th_rng64() % e->nvalues);
			while (!e->values[s]);
		}
		isa_insn_set(in, f->member, s);
	}
}

START_TEST(random_roundtrip)
{
	unsigned cases = 0;
	for (int op = 0; op < ISA_NUM_OPCODES; op++) {
		for (int iter = 0; iter < 60; iter++) {
			we_insn in;
			int tries = 0;
			do
				random_insn(&in, op);
			while (isa_check(&in) && ++tries < 100);
			if (isa_check(&in))
				continue;
			we_word w, w2;
			isa_encode(&in, &w);
			we_insn d;
			ck_assert_int_eq(isa_decode(&w, &d), op);
			uint64_t pc = (th_rng64() % 0x10000) * 16;
			char text[1024], err[400];
			dis_insn(&d, pc, text, sizeof text);
			bool ok = asm_one(text, strlen(text), pc, &w2, err, sizeof err);
			ck_assert_msg(ok, "%s at 0x%" PRIx64 ": '%s' does not assemble: %s",
				      isa_opcodes[op].name, pc, text, err);
			ck_assert_msg(same_word(&w, &w2), "%s at 0x%" PRIx64 ": '%s' gives other bits",
				      isa_opcodes[op].name, pc, text);
			cases++;
		}
	}
	ck_assert_uint_ge(cases, 5000);
}
END_TEST

/* ---- (5) the encoding tables ----------------------------------------------- */

static void field_mask(const isa_field *f, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	for (unsigned b = f->pos; b < (unsigned)f->pos + f->width && b < 128; b++) {
		if (b < 64)
			*lo |= UINT64_C(1) << b;
		else
			*hi |= UINT64_C(1) << (b - 64);
	}
}

START_TEST(encodings_disjoint)
{
	uint64_t flo[ISA_NUM_OPCODES], fhi[ISA_NUM_OPCODES];
	we_word fval[ISA_NUM_OPCODES];
	for (int i = 0; i < ISA_NUM_OPCODES; i++) {
		const isa_opcode *o = &isa_opcodes[i];
		uint64_t ulo = 0, uhi = 0;
		flo[i] = fhi[i] = 0;
		fval[i] = (we_word){ 0, 0 };
		for (unsigned a = 0; a < o->nfields; a++) {
			uint64_t lo, hi;
			field_mask(&o->fields[a], &lo, &hi);
			ck_assert_msg(!(lo & ulo) && !(hi & uhi), "%s: field %s overlaps another field",
				      o->name, o->fields[a].name);
			ulo |= lo;
			uhi |= hi;
			if (o->fields[a].fixed) {
				flo[i] |= lo;
				fhi[i] |= hi;
				isa_set(&fval[i], o->fields[a].pos, o->fields[a].width, (uint64_t)o->fields[a].value);
			}
		}
		ck_assert_msg(ulo == o->used_lo && uhi == o->used_hi, "%s: used bits differ", o->name);
		ck_assert_msg(flo[i] || fhi[i], "%s has no fixed bits", o->name);
	}
	for (int i = 0; i < ISA_NUM_OPCODES; i++)
		for (int j = i + 1; j < ISA_NUM_OPCODES; j++) {
			uint64_t clo = flo[i] & flo[j], chi = fhi[i] & fhi[j];
			bool differ = ((fval[i].lo ^ fval[j].lo) & clo) || ((fval[i].hi ^ fval[j].hi) & chi);
			ck_assert_msg(differ, "%s and %s have the same fixed encoding",
				      isa_opcodes[i].name, isa_opcodes[j].name);
		}
}
END_TEST

/* ---- (6) errors --------------------------------------------------------------- */

typedef struct expect {
	unsigned line, col;
	char text[256];
} expect;

static int parse_expects(const char *text, expect *ex, int max)
{
	int n = 0;
	const char *p = text;
	while (n < max && !strncmp(p, "// expect: ", 11)) {
		p += 11;
		char *e;
		ex[n].line = (unsigned)strtoul(p, &e, 10);
		ck_assert(*e == ':');
		ex[n].col = (unsigned)strtoul(e + 1, &e, 10);
		ck_assert(*e == ':');
		e++;
		while (*e == ' ')
			e++;
		const char *nl = strchr(e, '\n');
		size_t k = nl ? (size_t)(nl - e) : strlen(e);
		ck_assert_uint_lt(k, sizeof ex[n].text);
		memcpy(ex[n].text, e, k);
		ex[n].text[k] = 0;
		n++;
		p = nl ? nl + 1 : e + k;
	}
	return n;
}

static bool diag_has(const char *diag, const char *file, const expect *e)
{
	char head[600];
	snprintf(head, sizeof head, "%s:%u:%u: error: ", file, e->line, e->col);
	for (const char *p = strstr(diag, head); p; p = strstr(p + 1, head)) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(n < 1000 ? n : 1000), p);
		if (strstr(line + strlen(head), e->text))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

START_TEST(bad_files)
{
	char dir[2048];
	th_source_path(dir, sizeof dir, "tests/asm_bad");
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	char *names[512];
	int nn = 0;
	struct dirent *de;
	while ((de = readdir(d)) && nn < 512) {
		size_t k = strlen(de->d_name);
		if (k > 2 && !strcmp(de->d_name + k - 2, ".s"))
			names[nn++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)nn, sizeof names[0], cmp_str);
	ck_assert_int_ge(nn, 15);
	int multi = 0;
	for (int i = 0; i < nn; i++) {
		char rel[600];
		snprintf(rel, sizeof rel, "asm_bad/%s", names[i]);
		size_t len;
		char *text = read_file(rel, &len);
		expect ex[32];
		int ne = parse_expects(text, ex, 32);
		ck_assert_msg(ne >= 1, "%s has no '// expect:' line", rel);
		char *diag = assemble_bad(text, len, names[i]);
		for (int k = 0; k < ne; k++)
			ck_assert_msg(diag_has(diag, names[i], &ex[k]),
				      "%s: expected '%u:%u: %s' in:\n%s", names[i], ex[k].line, ex[k].col,
				      ex[k].text, diag);
		/* every error is followed by the source line and a caret line */
		const char *p = strstr(diag, ": error: ");
		ck_assert_ptr_nonnull(p);
		const char *l1 = strchr(p, '\n');
		ck_assert_ptr_nonnull(l1);
		const char *l2 = strchr(l1 + 1, '\n');
		ck_assert_ptr_nonnull(l2);
		const char *l3 = strchr(l2 + 1, '\n');
		ck_assert_ptr_nonnull(l3);
		ck_assert_msg(memchr(l2 + 1, '^', (size_t)(l3 - l2)) != NULL, "%s: no caret line:\n%s",
			      names[i], diag);
		if (ne > 1) {
			multi++;
			unsigned count = 0;
			for (const char *q = strstr(diag, ": error: "); q; q = strstr(q + 1, ": error: "))
				count++;
			ck_assert_uint_eq(count, (unsigned)ne);
		}
		free(diag);
		free(text);
		free(names[i]);
	}
	ck_assert_int_ge(multi, 1);
}
END_TEST

/* the diagnostics no small file reaches: an expression of more than
 * ASM_MAX_NODES nodes in one statement, and asm_one of nothing */
START_TEST(generated_errors)
{
	const size_t nvals = 100001;
	char *text = malloc(16 + 2 * nvals);
	ck_assert_ptr_nonnull(text);
	size_t n = (size_t)sprintf(text, ".const 1\n.word 1");
	for (size_t k = 1; k < nvals; k++) {
		text[n++] = ',';
		text[n++] = '1';
	}
	text[n++] = '\n';
	char *diag = assemble_bad(text, n, "big.s");
	ck_assert_msg(strstr(diag, "big.s:2:") && strstr(diag, ": error: expression too large"), "%.300s", diag);
	free(diag);
	free(text);
	we_word w;
	char err[200];
	ck_assert(!asm_one("", 0, 0, &w, err, sizeof err));
	ck_assert_msg(strstr(err, "empty statement") != NULL, "%s", err);
	ck_assert(!asm_one("  // nothing", 12, 0, &w, err, sizeof err));
	ck_assert_msg(strstr(err, "empty statement") != NULL, "%s", err);
}
END_TEST

START_TEST(error_cap)
{
	char text[8192];
	size_t n = 0;
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "BOGUS%d R1 ;\n", i);
	char *diag = assemble_bad(text, n, "many.s");
	unsigned count = 0;
	for (const char *q = strstr(diag, ": error: "); q; q = strstr(q + 1, ": error: "))
		count++;
	ck_assert_uint_eq(count, 50);
	ck_assert_ptr_nonnull(strstr(diag, "20 more errors"));
	ck_assert_ptr_nonnull(strstr(diag, "many.s:1:1: error: unknown instruction 'BOGUS0'\nBOGUS0 R1 ;\n^\n"));
	free(diag);
}
END_TEST

START_TEST(hostile_input)
{
	/* embedded NULs, control characters, non-ASCII */
	static const char nul[] = "EXIT ;\n\0\0EXIT\n\x01\x7f\xff\n";
	char *diag = assemble_bad(nul, sizeof nul - 1, "nul.s");
	ck_assert_ptr_nonnull(strstr(diag, "nul.s:2:1: error: unexpected character 0x00"));
	free(diag);
	/* a huge line */
	size_t big = 1u << 20;
	char *t = malloc(big + 1);
	ck_assert_ptr_nonnull(t);
	memset(t, 'R', big);
	t[big] = 0;
	diag = assemble_bad(t, big, "huge.s");
	free(diag);
	for (size_t i = 0; i + 4 < big; i += 4)
		memcpy(t + i, "R1, ", 4);
	memcpy(t, "MOV ", 4);
	diag = assemble_bad(t, big, "huge2.s");
	ck_assert_ptr_nonnull(strstr(diag, "too many operands"));
	free(diag);
	/* deep nesting */
	size_t k = 0;
	k += (size_t)sprintf(t + k, "MOV R1, ");
	for (int i = 0; i < 100000; i++)
		t[k++] = '(';
	t[k++] = '1';
	for (int i = 0; i < 100000; i++)
		t[k++] = ')';
	t[k] = 0;
	diag = assemble_bad(t, k, "deep.s");
	ck_assert_ptr_nonnull(strstr(diag, "nested too deeply"));
	free(diag);
	k = (size_t)sprintf(t, "MOV R1, ");
	for (int i = 0; i < 100000; i++)
		t[k++] = '-';
	t[k++] = '1';
	t[k] = 0;
	diag = assemble_bad(t, k, "deep2.s");
	free(diag);
	k = (size_t)sprintf(t, "MOV R1, 1");
	for (int i = 0; i < 100000; i++)
		k += (size_t)sprintf(t + k, "+1");
	diag = assemble_bad(t, k, "long.s");
	ck_assert_ptr_nonnull(strstr(diag, "expression"));
	free(diag);
	/* overflow in every operator */
	const char *ovf[] = {
		"MOV R1, 0x7fffffffffffffff * 2 ;", "MOV R1, -0x7fffffffffffffff - 2 ;",
		"MOV R1, (-0x7fffffffffffffff - 1) / -1 ;", "MOV R1, 1 << -1 ;",
		"MOV R1, (-0x7fffffffffffffff - 1) % -1 ;", "MOV R1, 0xffffffffffffffff + 0 ;",
		"MOV R1, -(-0x7fffffffffffffff - 1) ;", "MOV R1, 3 << 62 ;",
		"MOV R1, R[", "MOV R1, R[4:", "MOV R1, c[", "MOV R1, c[1][", "MOV R1, [", "@",
		"@!", "BRA `", "BRA `(", ":", ".kernel", ".param", ".param u32", ".const",
		"\"abc", "(*", "MOV R1, R2,", "MOV R1, |R2", "MOV R1, -", "LDS R1, [R2 R3]",
		"EXIT,", ".section", ".word 1,", ".const 2\n.word 1,", ".const 2\n.word 1 2",
		"MOV R1, 1e", "MOV R1, 0x", "MOV R1, 1.5.5", "MOV R1, R[9:8]", "MOV R1, R[0:300]",
		"BAR.SYNC.SYNC 0x0", "B2R.RESULT.X R1", "MOV.X R1, R2", "LDG R1, [UR2]",
		"LDG R1, [P1]", "FADD R1, R2, nan(1)", "IADD3 R1, R2, R3, R4, R5, R6",
	};
	for (size_t i = 0; i < sizeof ovf / sizeof ovf[0]; i++) {
		diag = assemble_bad(ovf[i], strlen(ovf[i]), "x.s");
		free(diag);
	}
	/* the number -2^63 is representable */
	struct we_module *m = assemble_ok(".const 1\n.dword -0x8000000000000000, 0xffffffffffffffff\n", "q");
	ck_assert_uint_eq(m->cbank[1].size, 16);
	ck_assert_uint_eq(m->cbank[1].data[7], 0x80);
	ck_assert_uint_eq(m->cbank[1].data[15], 0xff);
	module_free(m);
	free(t);
	/* random garbage never crashes */
	char g[256];
	for (int i = 0; i < 3000; i++) {
		size_t n = (size_t)(th_rng64() % sizeof g);
		static const char alpha[] = "RPUZT0123456789xX[]():;,.@!~-|+*/%<>`\"cL_$ \n\tBARSYNCEXIT";
		for (size_t j = 0; j < n; j++)
			g[j] = th_rng64() % 8 ? alpha[th_rng64() % (sizeof alpha - 1)] : (char)th_rng64();
		struct we_module *mm = NULL;
		char *dd = NULL;
		we_status st = asm_assemble(g, n, "garbage.s", &mm, &dd);
		ck_assert(st == WE_OK || st == WE_ERR_ASM);
		ck_assert((st == WE_OK) == (mm != NULL));
		module_free(mm);
		free(dd);
	}
}
END_TEST

/* ---- syntax and directives ------------------------------------------------------ */

START_TEST(syntax_forms)
{
	const char *text =
		"// comment\n"
		"/* a\n   multi-line comment */\n"
		"start: EXIT ; NOP ; @!PT NOP $sched $req\n"
		"        /*0030*/ BRA `(end) ;\n"
		"        LDG.64 R4, [R2.64+0x10] ;\n"
		"        LDG R4, [R[2:3]-0x10] ;\n"
		"        LDG R4, [R2] ;\n"
		"        STS [0x40], R1 ;\n"
		"        LDS.U8 R1, [R2+0x3] ;\n"
		"        FADD R1, -|R2|, 1.5 ;\n"
		"        FADD R1, R2, -2e-3 ;\n"
		"        FMUL R1, R2, inf ;\n"
		"        FMUL R1, R2, 0x3f800000 ;\n"
		"        FFMA R1, R2, 2, R3 ;\n"
		"        MOV R1, 0xffffffff ;\n"
		"        MOV R1, -0x80000000 ;\n"
		"        IADD3 R1, -R2, c[0x3][0x10], RZ ;\n"
		"        S2R R0, SR_TID.X ;\n"
		"        P2R R0, PR, RZ, 0x7f ;\n"
		"        ISETP.GE.U32.AND P0, PT, R1, 0x10, PT ;\n"
		"        SHF.R.S32.HI R7, RZ, 0x1f, R6 ;\n"
		"        IMAD.WIDE.U32 R[4:5], R1, 0x4, R[2:3] ;\n"
		"        LEPC R[4:5], end - start ;\n"
		"        ATOMG.ADD R1, [R2.64], R3 ;\n"
		"        ATOMG.CAS.S64 R1, [R2.64+0x8], R3, R4 ;\n"
		"end:    EXIT ;\n";
	struct we_module *m = assemble_ok(text, "forms.s");
	ck_assert_uint_eq(m->ninsns, 26);
	ck_assert_int_eq(m->insn[2].opcode, ISA_OP_NOP_X);
	ck_assert_int_eq(m->insn[2].pg_not, 1);
	ck_assert_int_eq(m->insn[3].offset, (25 * 16 - 4 * 16) / 16);
	ck_assert_int_eq(m->insn[4].off, 0x10);
	ck_assert_int_eq(m->insn[4].ra, 2);
	ck_assert_int_eq(m->insn[4].size, ISA_MemSize_64);
	ck_assert_int_eq(m->insn[5].off, -0x10);
	ck_assert_int_eq(m->insn[7].ra, ISA_REG_RZ);
	ck_assert_int_eq(m->insn[7].off, 0x40);
	ck_assert_int_eq(m->insn[9].ra_neg, 1);
	ck_assert_int_eq(m->insn[9].ra_abs, 1);
	ck_assert_int_eq(m->insn[9].fb, 0x3fc00000);
	ck_assert_int_eq(m->insn[11].fb, 0x7f800000);
	ck_assert_int_eq(m->insn[12].fb, 0x3f800000);
	ck_assert_int_eq(m->insn[13].fb, 0x40000000);
	ck_assert_int_eq(m->insn[14].ib, -1);
	ck_assert_int_eq(m->insn[15].ib, INT32_MIN);
	ck_assert_int_eq(m->insn[16].cb, 0x30010);
	ck_assert_int_eq(m->insn[17].sr, ISA_SReg_SR_TID_X);
	ck_assert_int_eq(m->insn[22].offset, 25);
	ck_assert_int_eq(m->insn[24].op, ISA_AtomOp_CAS);
	ck_assert_int_eq(m->insn[24].type, ISA_AtomType_S64);
	for (uint32_t i = 0; i < m->ninsns; i++)
		check_roundtrip(m, i, "forms");
	check_module_roundtrip(m);
	module_free(m);
	/* disassembly spellings */
	m = assemble_ok("LDG.64 R4, [R2.64+0x10] ;\nFADD R1, -|R2|, 1.5 ;\nMOV R1, -0x3 ;\n"
			"@!P2 BRA 0x0 ;\nIMAD.WIDE R[4:5], R1, R2, RZ ;\nLDS R1, [RZ] ;\nLDS R1, [-0x4] ;\n",
			"spell.s");
	const char *want[] = { "LDG.64 R4, [R2.64+0x10]", "FADD R1, -|R2|, 1.5", "MOV R1, -0x3",
			       "@!P2 BRA 0x0", "IMAD.WIDE R[4:5], R1, R2, RZ", "LDS R1, [RZ]",
			       "LDS R1, [-0x4]" };
	for (uint32_t i = 0; i < m->ninsns; i++) {
		char buf[256];
		int n = dis_insn(&m->insn[i], i * 16, buf, sizeof buf);
		ck_assert_str_eq(buf, want[i]);
		ck_assert_int_eq(n, (int)strlen(want[i]));
	}
	/* truncation follows snprintf */
	char small[8];
	int n = dis_insn(&m->insn[0], 0, small, sizeof small);
	ck_assert_int_eq(n, (int)strlen(want[0]));
	ck_assert_str_eq(small, "LDG.64 ");
	module_free(m);
}
END_TEST

/* SASS forms: an immediate or a constant as the third source of IMAD,
 * IMAD.WIDE and FFMA; uniform predicates; register ranges as the data of
 * sized memory instructions; .E */
START_TEST(sass_forms)
{
	static const struct { const char *line; int op; } ok[] = {
		{ "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;", ISA_OP_IMAD_RRC },
		{ "IMAD.WIDE R2, R0, R3, c[0x0][0x160] ;", ISA_OP_IMAD_WIDE_RRC },
		{ "IMAD.WIDE.U32 R[2:3], R0, R3, -0x1 ;", ISA_OP_IMAD_WIDE_RRI },
		{ "IMAD R1, R2, R3, 0x10 ;", ISA_OP_IMAD_RRI },
		{ "IMAD.HI.U32 R1, R2, R3, -0x10 ;", ISA_OP_IMAD_RRI },
		{ "IMAD R0, R3, c[0x0][0x0], R0 ;", ISA_OP_IMAD_C },
		{ "IMAD R0, R3, 0x4, R0 ;", ISA_OP_IMAD_I },
		{ "FFMA R4, R2, R3, c[0x0][0x10] ;", ISA_OP_FFMA_RRC },
		{ "FFMA R4, R2, -R3, -c[0x1][0x10] ;", ISA_OP_FFMA_RRC },
		{ "FFMA R4, R2, R3, 1.0 ;", ISA_OP_FFMA_RRI },
		{ "FFMA R0, R2, R3, -0.5 ;", ISA_OP_FFMA_RRI },
		{ "FFMA R3, -R4, |R0|, 1 ;", ISA_OP_FFMA_RRI },
		{ "UISETP.NE.AND UP0, UPT, UR4, URZ, UPT ;", ISA_OP_UISETP_U },
		{ "UISETP.GE.U32.OR UP1, UP2, UR4, 0x10, !UP0 ;", ISA_OP_UISETP_I },
		{ "UIADD3 UR20, UPT, UPT, UR20, -0x1, URZ ;", ISA_OP_UIADD3_I },
		{ "UIADD3 UR4, UP0, UR4, UR5, URZ ;", ISA_OP_UIADD3_U },
		{ "UIADD3.X UR5, URZ, UR5, URZ, UP0, !UPT ;", ISA_OP_UIADD3_U },
		{ "ULOP3.LUT UR4, UR4, 0x3, URZ, 0xc0, !UPT ;", ISA_OP_ULOP3_LUT_I },
		{ "ULOP3.LUT UP3, UR4, UR4, UR5, URZ, 0xfc, !UPT ;", ISA_OP_ULOP3_LUT_U },
		{ "USEL UR4, UR4, 0x1, UP0 ;", ISA_OP_USEL_I },
		{ "USEL UR4, UR4, UR6, !UP6 ;", ISA_OP_USEL_U },
		{ "MOV R1, UR4 ;", ISA_OP_MOV_U },
		{ "LDG.E.64 R[8:9], [R2.64] ;", ISA_OP_LDG_R },
		{ "LDG.E R8, [R2.64+0x4] ;", ISA_OP_LDG_R },
		{ "STG.E.128 [R2.64], R[4:7] ;", ISA_OP_STG_R },
		{ "STG.64 [R2.64], R[4:5] ;", ISA_OP_STG_R },
		{ "LDC.64 R[2:3], c[0x0][0x0] ;", ISA_OP_LDC_R },
		{ "LDS.128 R[4:7], [R1+0x10] ;", ISA_OP_LDS_R },
		{ "ATOMG.E.CAS.U64 R[16:17], [R2.64], R[4:5], R[6:7] ;", ISA_OP_ATOMG_R },
		{ "ATOMS.ADD.S64 R[16:17], [R2], R[4:5] ;", ISA_OP_ATOMS_R },
		{ "RED.E.ADD.U64 [R2.64], R[4:5] ;", ISA_OP_RED_R },
		{ "ULDC.64 UR[4:5], c[0x0][0x8] ;", ISA_OP_ULDC_C },
		{ "LDG.E.STRONG.GPU R8, [R2.64] ;", ISA_OP_LDG_R },
		{ "STG.E.STRONG.SYS.64 [R2.64], R[4:5] ;", ISA_OP_STG_R },
		{ "LDS.STRONG.CTA R4, [R1+0x10] ;", ISA_OP_LDS_R },
		{ "STS.STRONG.CTA.U8 [R1], R4 ;", ISA_OP_STS_R },
	};
	for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
		struct we_module *m = assemble_ok(ok[k].line, ok[k].line);
		ck_assert_uint_eq(m->ninsns, 1);
		ck_assert_msg(m->insn[0].opcode == ok[k].op, "%s: opcode %s", ok[k].line,
			      isa_opcodes[m->insn[0].opcode].name);
		check_roundtrip(m, 0, ok[k].line);
		module_free(m);
	}
	/* fields */
	struct we_module *m = assemble_ok("IMAD R1, R2, R3, -0x10 ;\nFFMA R0, R2, R3, -0.5 ;\n"
					  "FFMA R4, R2, R3, -c[0x1][0x10] ;\nLDG.E.64 R[8:9], [R2.64] ;\n",
					  "fields.s");
	ck_assert_int_eq(m->insn[0].ic, -0x10);
	ck_assert_int_eq(m->insn[0].rb, 3);
	ck_assert_int_eq(m->insn[1].fc, 0xbf000000u);
	ck_assert_int_eq(m->insn[2].cc, 0x10010);
	ck_assert_int_eq(m->insn[2].cc_neg, 1);
	ck_assert_int_eq(m->insn[3].e, ISA_MemAddrE_E);
	ck_assert_int_eq(m->insn[3].size, ISA_MemSize_64);
	ck_assert_int_eq(m->insn[3].rd, 8);
	ck_assert_int_eq(m->insn[3].order, ISA_MemOrder_WEAK);
	ck_assert_int_eq(m->insn[3].mscope, ISA_MemScope_NoScope);
	module_free(m);
	/* strong accesses: .STRONG with a scope (mem.isa) */
	m = assemble_ok("LDG.E.STRONG.GPU R8, [R2.64] ;\nSTS.STRONG.CTA [R1], R4 ;\n", "strong.s");
	ck_assert_int_eq(m->insn[0].order, ISA_MemOrder_STRONG);
	ck_assert_int_eq(m->insn[0].mscope, ISA_MemScope_GPU);
	ck_assert_int_eq(m->insn[1].order, ISA_MemOrder_STRONG);
	ck_assert_int_eq(m->insn[1].mscope, ISA_MemScope_CTA);
	module_free(m);
	/* forms SASS does not have, and register ranges that do not match the size */
	static const struct { const char *line, *msg; } bad[] = {
		{ "IMAD R1, R2, 0x1, 0x2 ;", "1:19: error: operand 4: expected register, got immediate" },
		{ "IMAD R1, R2, c[0x0][0x0], c[0x0][0x4] ;", "1:27: error: operand 4: expected register, got constant" },
		{ "IADD3 R1, R2, R3, 0x1 ;", "1:19: error: operand 4: expected register, got immediate" },
		{ "LOP3.LUT R1, R2, R3, c[0x0][0x0], 0xc0, !PT ;", "1:22: error: operand 4: expected register" },
		{ "LDG.64 R[8:11], [R2.64] ;", "1:8: error: operand 1: a 64-bit operand (.64) takes 2 registers, not 4" },
		{ "LDG R[8:9], [R2.64] ;", "1:5: error: operand 1: a 32-bit operand (.32) takes 1 register, not 2" },
		{ "STG.128 [R2.64], R[4:5] ;", "1:18: error: operand 2: a 128-bit operand (.128) takes 4 registers, not 2" },
		{ "ATOMG.CAS.U64 R[16:17], [R2.64], R[4:5], R[6:8] ;", "operand 4: a 64-bit operand (.U64) takes 2 registers, not 3" },
		{ "ATOMG.ADD R[16:17], [R2.64], R4 ;", "operand 1: a 32-bit operand (.U32) takes 1 register, not 2" },
		{ "UISETP.NE.AND P0, PT, UR4, URZ, PT ;", "1:15: error: operand 1: expected uniform predicate, got predicate" },
		{ "ISETP.NE.AND UP0, PT, R4, RZ, PT ;", "1:14: error: operand 1: expected predicate, got uniform predicate" },
		{ "LDG.E.STRONG R8, [R2.64] ;", "error: invalid LDG: IllegalBitFieldValue: a strong access needs a scope" },
		{ "STS.GPU [R1], R4 ;", "error: invalid STS: IllegalBitFieldValue: a strong access needs a scope (.CTA, .GPU or .SYS), a weak one has none" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char *diag = assemble_bad(bad[k].line, strlen(bad[k].line), "bad.s");
		ck_assert_msg(strstr(diag, bad[k].msg) != NULL, "%s: expected '%s' in:\n%s", bad[k].line,
			      bad[k].msg, diag);
		free(diag);
	}
}
END_TEST

START_TEST(directives)
{
	const char *text =
		".const 3\n"
		"table: .word 1, 2, entry_b - entry_a\n"
		"       .byte 0xff, -1\n"
		"       .align 8\n"
		"bytes: .short 0x1234\n"
		"       .float 1.0, -0.5, 0x7fc00001\n"
		"       .zero 3\n"
		"       .quad 0x1122334455667788\n"
		".text\n"
		".kernel first\n"
		"    .param u32 n\n"
		"    .param ptr out\n"
		"    .param f32 scale\n"
		"    .param s32 k\n"
		"    .param u64 big\n"
		"    .shared 0x100\n"
		"    .local 64\n"
		"    .dialect sass\n"
		"    .trap_handler handler\n"
		"entry_a: LDC R1, c[R2+table] ;\n"
		"entry_b: LDC R1, c[R2+bytes+2] ;\n"
		"handler: EXIT ;\n"
		".end\n"
		".kernel second\n"
		"    MOV R1, c[0x0][0x8] ;\n"
		"    EXIT ;\n"
		".end\n";
	struct we_module *m = assemble_ok(text, "dir.s");
	ck_assert_uint_eq(m->nkernels, 2);
	const we_kernel *k = &m->kernels[0];
	ck_assert_str_eq(k->info.name, "first");
	ck_assert_str_eq(k->info.dialect, "sass");
	ck_assert_uint_eq(k->info.nparams, 5);
	ck_assert_uint_eq(k->params[0].offset, 0);
	ck_assert_uint_eq(k->params[1].offset, 8);
	ck_assert_uint_eq(k->params[1].size, 8);
	ck_assert_int_eq(k->params[1].type, WE_PARAM_PTR);
	ck_assert_uint_eq(k->params[2].offset, 16);
	ck_assert_uint_eq(k->params[3].offset, 20);
	ck_assert_uint_eq(k->params[4].offset, 24);
	ck_assert_uint_eq(k->info.param_bytes, 32);
	ck_assert_str_eq(k->info.params[2].name, "scale");
	ck_assert_uint_eq(k->info.shared_bytes, 0x100);
	ck_assert_uint_eq(k->info.local_bytes, 64);
	ck_assert_int_eq(k->trap_handler, 0x20);
	ck_assert_uint_eq(k->info.ninsns, 3);
	ck_assert_uint_eq(m->kernels[1].code_start, 0x30);
	ck_assert_uint_eq(m->kernels[1].code_end, 0x50);
	ck_assert_str_eq(m->kernels[1].info.dialect, "target");
	ck_assert_int_eq(m->kernels[1].trap_handler, -1);
	const we_cbank *b = &m->cbank[3];
	static const uint8_t want[] = {
		1, 0, 0, 0, 2, 0, 0, 0, 0x10, 0, 0, 0, 0xff, 0xff, 0, 0,
		0x34, 0x12, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xbf, 1, 0, 0xc0, 0x7f,
		0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	};
	ck_assert_uint_eq(b->size, sizeof want);
	ck_assert(!memcmp(b->data, want, sizeof want));
	ck_assert_int_eq(m->insn[0].bank, 3);
	ck_assert_int_eq(m->insn[0].off, 0);
	ck_assert_int_eq(m->insn[1].off, 18);
	check_module_roundtrip(m);
	module_free(m);

	/* an f64 scalar: 8 bytes, naturally aligned */
	m = assemble_ok(".param u32 n\n.param f64 x\n.param f32 y\nEXIT\n", "f64.s");
	ck_assert_int_eq(m->kernels[0].params[1].type, WE_PARAM_F64);
	ck_assert_uint_eq(m->kernels[0].params[1].offset, 8);
	ck_assert_uint_eq(m->kernels[0].params[1].size, 8);
	ck_assert_uint_eq(m->kernels[0].params[2].offset, 16);
	check_module_roundtrip(m);
	module_free(m);

	/* aggregates by value (b8[N], PTX's .align A .b8 name[N]): their own
	 * size and alignment (1 without .align); the disassembly puts them
	 * at the same offsets again (check_module_roundtrip) */
	m = assemble_ok(".param u32 n\n.param .align 8 b8[12] s\n.param b8[3] t\n"
			".param .align 16 b8[16] q\n.param u32 k\nEXIT\n", "agg.s");
	{
		static const uint32_t off[] = { 0, 8, 20, 32, 48 }, size[] = { 4, 12, 3, 16, 4 };
		for (unsigned i = 0; i < 5; i++) {
			ck_assert_uint_eq(m->kernels[0].params[i].offset, off[i]);
			ck_assert_uint_eq(m->kernels[0].params[i].size, size[i]);
		}
		ck_assert_int_eq(m->kernels[0].params[1].type, WE_PARAM_BYTES);
		ck_assert_uint_eq(m->kernels[0].info.param_bytes, 52);
	}
	check_module_roundtrip(m);
	module_free(m);

	/* no .kernel: one kernel "main" with the file's .param */
	m = assemble_ok(".param u64 p\n.param u32 n\nEXIT\n", "main.s");
	ck_assert_uint_eq(m->nkernels, 1);
	ck_assert_str_eq(m->kernels[0].info.name, "main");
	ck_assert_uint_eq(m->kernels[0].info.param_bytes, 12);
	ck_assert_uint_eq(m->kernels[0].info.ninsns, 1);
	module_free(m);

	/* empty input: an empty kernel */
	m = assemble_ok("", "empty.s");
	ck_assert_uint_eq(m->ninsns, 0);
	ck_assert_uint_eq(m->nkernels, 1);
	module_free(m);

	/* warnings: on success *diag holds them */
	struct we_module *mm = NULL;
	char *diag = NULL;
	const char *w = "EXIT ;\n.align 32\nBRX R6, 0x0 (*\"BRANCH_TARGETS .nowhere\"*) ;\n";
	ck_assert_int_eq(asm_assemble(w, strlen(w), "w.s", &mm, &diag), WE_OK);
	ck_assert_ptr_nonnull(diag);
	ck_assert_ptr_nonnull(strstr(diag, "w.s:2:1: warning: code address 0x10 is not aligned to 32"));
	ck_assert_ptr_nonnull(strstr(diag, "w.s:3:13: warning: BRANCH_TARGETS names an undefined label '.nowhere'"));
	free(diag);
	module_free(mm);
}
END_TEST

START_TEST(floats_and_one)
{
	static const struct { uint32_t bits; const char *text; } f[] = {
		{ 0x3f800000u, "1" }, { 0xbf000000u, "-0.5" }, { 0x7f800000u, "inf" },
		{ 0xff800000u, "-inf" }, { 0x7fc00000u, "nan" }, { 0x7fc00001u, "0x7fc00001" },
		{ 0x80000000u, "-0" }, { 0x00000001u, "1.40129846e-45" }, { 0x4b000001u, "8388609" },
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		we_insn in;
		isa_insn_init(&in, ISA_OP_FADD_I);
		in.rd = 1;
		in.ra = 2;
		in.fb = f[i].bits;
		char buf[128], want[128];
		dis_insn(&in, 0, buf, sizeof buf);
		snprintf(want, sizeof want, "FADD R1, R2, %s", f[i].text);
		ck_assert_str_eq(buf, want);
		we_word w, w2;
		isa_encode(&in, &w);
		char err[200];
		ck_assert_msg(asm_one(buf, strlen(buf), 0, &w2, err, sizeof err), "%s: %s", buf, err);
		ck_assert(same_word(&w, &w2));
	}
	uint32_t bits;
	ck_assert(asm_parse_float("-2e-3", 5, &bits));
	ck_assert_uint_eq(bits, 0xbb03126fu);
	ck_assert(!asm_parse_float("1e", 2, &bits));
	ck_assert(!asm_parse_float("0x1", 3, &bits));
	ck_assert(!asm_parse_float("1e40", 4, &bits));

	/* asm_one: PC-relative operands depend on the address */
	we_word w;
	char err[200];
	ck_assert(asm_one("BRA 0x100", 9, 0xf0, &w, err, sizeof err));
	we_insn d;
	ck_assert_int_eq(isa_decode(&w, &d), ISA_OP_BRA_X);
	ck_assert_int_eq(d.offset, 0);
	char buf[64];
	dis_insn(&d, 0x200, buf, sizeof buf);
	ck_assert_str_eq(buf, "BRA 0x210");
	ck_assert(!asm_one("BRA lab", 7, 0, &w, err, sizeof err));
	ck_assert_str_eq(err, "operand 1: undefined label 'lab'");
	ck_assert(!asm_one("", 0, 0, &w, err, sizeof err));
	ck_assert(!asm_one(".word 1", 7, 0, &w, err, sizeof err));
	/* the guard */
	ck_assert(asm_one("@!PT EXIT", 9, 0, &w, err, sizeof err));
	isa_decode(&w, &d);
	dis_insn(&d, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "@!PT EXIT");
	ck_assert(asm_one("@PT EXIT !PT", 12, 0, &w, err, sizeof err));
	isa_decode(&w, &d);
	dis_insn(&d, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "EXIT !PT");
	/* every opcode's mnemonic is a plain word */
	for (int i = 0; i < ISA_NUM_OPCODES; i++)
		ck_assert_msg(asm_plain_word(asm_mnemonic(&isa_opcodes[i])), "%s", isa_opcodes[i].name);
}
END_TEST

/* ---- (7) binary modules ------------------------------------------------------------ */

static struct we_module *sample_module(void)
{
	size_t len;
	char *brx = read_file("data/brx_test.s", &len);
	struct we_module *m = assemble_ok(brx, "brx_test.s");
	free(brx);
	return m;
}

static void check_same_module(const struct we_module *a, const struct we_module *b)
{
	ck_assert_uint_eq(a->ninsns, b->ninsns);
	for (uint32_t i = 0; i < a->ninsns; i++) {
		ck_assert(same_word(&a->code[i], &b->code[i]));
		we_word x, y;
		isa_encode(&a->insn[i], &x);
		isa_encode(&b->insn[i], &y);
		ck_assert(same_word(&x, &y));
		ck_assert_int_eq(a->insn[i].opcode, b->insn[i].opcode);
		ck_assert_uint_eq(a->line[i], b->line[i]);
	}
	ck_assert_uint_eq(a->nkernels, b->nkernels);
	for (uint32_t k = 0; k < a->nkernels; k++) {
		const we_kernel *x = &a->kernels[k], *y = &b->kernels[k];
		ck_assert_str_eq(x->info.name, y->info.name);
		ck_assert_str_eq(x->info.dialect, y->info.dialect);
		ck_assert_uint_eq(x->code_start, y->code_start);
		ck_assert_uint_eq(x->code_end, y->code_end);
		ck_assert_uint_eq(x->info.nparams, y->info.nparams);
		ck_assert_uint_eq(x->info.param_bytes, y->info.param_bytes);
		ck_assert_uint_eq(x->info.shared_bytes, y->info.shared_bytes);
		ck_assert_uint_eq(x->info.local_bytes, y->info.local_bytes);
		ck_assert_uint_eq(x->info.ninsns, y->info.ninsns);
		ck_assert_int_eq(x->trap_handler, y->trap_handler);
		for (unsigned p = 0; p < x->info.nparams; p++) {
			ck_assert_str_eq(x->info.params[p].name, y->info.params[p].name);
			ck_assert_int_eq(x->info.params[p].type, y->info.params[p].type);
			ck_assert_uint_eq(x->info.params[p].offset, y->info.params[p].offset);
			ck_assert_uint_eq(x->info.params[p].size, y->info.params[p].size);
		}
	}
	for (unsigned bk = 0; bk < WE_NUM_CBANKS; bk++) {
		ck_assert_uint_eq(a->cbank[bk].size, b->cbank[bk].size);
		if (a->cbank[bk].size)
			ck_assert(!memcmp(a->cbank[bk].data, b->cbank[bk].data, a->cbank[bk].size));
	}
	ck_assert_str_eq(a->source, b->source);
}

static const char multi_src[] =
	".const 5\n.word 7, 8, 9\n.byte 1\n.text\n"
	".kernel first\n.param u32 n\n.param ptr p\n.param f64 x\n.param .align 4 b8[6] agg\n.shared 0x40\n.local 0x10\n.dialect visa\n"
	".trap_handler t\n  MOV R1, c[0x0][0x0] ;\n  LDC R2, c[0x5][R1+0x4] ;\nt: EXIT ;\n.end\n"
	".kernel second\n  BRA 0x30 ;\n.end\n";

START_TEST(binary_roundtrip)
{
	struct we_module *srcs[2] = { sample_module(), assemble_ok(multi_src, "multi.s") };
	for (int s = 0; s < 2; s++) {
		struct we_module *m = srcs[s];
		void *img = NULL;
		size_t len = 0;
		ck_assert_int_eq(module_save(m, &img, &len), WE_OK);
		ck_assert_uint_gt(len, 16);
		ck_assert(!memcmp(img, "WEMODULE", 8));
		struct we_module *m2 = NULL;
		char err[256];
		ck_assert_int_eq(module_load(img, len, &m2, err, sizeof err), WE_OK);
		check_same_module(m, m2);
		/* save of the loaded module is byte-identical */
		void *img2 = NULL;
		size_t len2 = 0;
		ck_assert_int_eq(module_save(m2, &img2, &len2), WE_OK);
		ck_assert_uint_eq(len, len2);
		ck_assert(!memcmp(img, img2, len));
		free(img2);
		check_module_roundtrip(m2);
		module_free(m2);

		/* every truncation is rejected with a message */
		for (size_t n = 0; n < len; n++) {
			struct we_module *t = NULL;
			err[0] = 0;
			ck_assert_int_eq(module_load(img, n, &t, err, sizeof err), WE_ERR_LOAD);
			ck_assert_ptr_null(t);
			ck_assert_msg(err[0] != 0, "no message for truncation at %zu", n);
		}
		/* trailing garbage */
		uint8_t *big = malloc(len + 1);
		ck_assert_ptr_nonnull(big);
		memcpy(big, img, len);
		big[len] = 0;
		struct we_module *t = NULL;
		ck_assert_int_eq(module_load(big, len + 1, &t, err, sizeof err), WE_ERR_LOAD);
		ck_assert_ptr_nonnull(strstr(err, "garbage"));
		/* corrupt every byte a few ways: loaded or rejected, never a crash */
		for (size_t i = 0; i < len; i++) {
			static const uint8_t flips[] = { 0x01, 0x80, 0xff, 0x10 };
			for (size_t f = 0; f < sizeof flips; f++) {
				memcpy(big, img, len);
				big[i] ^= flips[f];
				t = NULL;
				err[0] = 0;
				we_status st = module_load(big, len, &t, err, sizeof err);
				if (st == WE_OK) {
					ck_assert_ptr_nonnull(t);
					char *d = dis_module(t);
					ck_assert_ptr_nonnull(d);
					free(d);
					module_free(t);
				} else {
					ck_assert_int_eq(st, WE_ERR_LOAD);
					ck_assert_ptr_null(t);
					ck_assert(err[0] != 0);
				}
			}
		}
		free(big);
		free(img);
		module_free(m);
	}
}
END_TEST

/* A binary image may name a kernel what the assembler cannot read (found by
 * fuzz_module: ".5" lexes as a number); the disassembly says so instead of
 * passing for re-assemblable text. */
START_TEST(binary_names)
{
	ck_assert(asm_is_ident("k") && asm_is_ident("_a.b$1") && asm_is_ident(".k"));
	ck_assert(!asm_is_ident(".5") && !asm_is_ident("5k") && !asm_is_ident("") &&
		  !asm_is_ident("a b") && !asm_is_ident("$k") && !asm_is_ident(NULL));
	struct we_module *m = assemble_ok(".kernel zq\n.param u32 pq\n EXIT ;\n.end\n", "names.s");
	void *img = NULL;
	size_t len = 0;
	ck_assert_int_eq(module_save(m, &img, &len), WE_OK);
	module_free(m);
	static const char *const from[] = { "zq", "pq" };
	for (int w = 0; w < 2; w++) {
		uint8_t *b = malloc(len);
		ck_assert_ptr_nonnull(b);
		memcpy(b, img, len);
		uint8_t *at = NULL;
		for (size_t i = 0; i + 2 <= len && !at; i++)
			if (!memcmp(b + i, from[w], 2))
				at = b + i;
		ck_assert_ptr_nonnull(at);
		memcpy(at, ".5", 2);
		struct we_module *t = NULL;
		char err[256];
		ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_OK);
		char *d = dis_module(t);
		ck_assert_ptr_nonnull(d);
		ck_assert_msg(strstr(d, "not an assembler identifier"), "no note in:\n%s", d);
		free(d);
		module_free(t);
		free(b);
	}
	free(img);
}
END_TEST

/* Issue 15: kernels and names at the module's limits.  A file of n
 * kernels ".kernel kI / EXIT ; / .end" (three lines each). */
static char *kernels_text(unsigned n, size_t *len)
{
	size_t cap = (size_t)n * 40 + 1, k = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	for (unsigned i = 0; i < n; i++)
		k += (size_t)snprintf(t + k, cap - k, ".kernel k%u\n        EXIT ;\n.end\n", i);
	*len = k;
	return t;
}

static unsigned count_errors(const char *diag)
{
	unsigned n = 0;
	for (const char *q = strstr(diag, ": error: "); q; q = strstr(q + 1, ": error: "))
		n++;
	return n;
}

/* 100,000 kernels: one clear error at the first kernel over the limit
 * (line 3 x 65536 + 1), nothing after it; adding kernels is linear (this
 * took 79 s and ended "out of memory" when each add copied the kernel
 * array and compared every name). */
START_TEST(too_many_kernels)
{
	size_t len;
	char *text = kernels_text(100000, &len);
	char *diag = assemble_bad(text, len, "many.s");
	ck_assert_msg(strstr(diag, "many.s:196609:1: error: too many kernels (limit 65536)\n.kernel k65536\n^\n"),
		      "%.400s", diag);
	ck_assert_uint_eq(count_errors(diag), 1);
	free(diag);
	free(text);
}
END_TEST

/* Exactly the limit: every kernel found by name, saved and loaded back
 * (the loader's duplicate check is a hash lookup too). */
START_TEST(kernels_at_limit)
{
	size_t len;
	char *text = kernels_text(MODULE_KERNELS_MAX, &len);
	struct we_module *m = NULL;
	char *diag = NULL;
	ck_assert_int_eq(asm_assemble(text, len, "limit.s", &m, &diag), WE_OK);
	free(diag);
	free(text);
	ck_assert_uint_eq(m->nkernels, MODULE_KERNELS_MAX);
	for (unsigned i = 0; i < MODULE_KERNELS_MAX; i += 4099) {
		char name[16];
		int n = snprintf(name, sizeof name, "k%u", i);
		const we_kernel *k = module_find_kernel_n(m, name, (size_t)n);
		ck_assert_msg(k == &m->kernels[i], "%s not found", name);
		ck_assert_uint_eq(k->code_start, i * 16u);
		ck_assert_str_eq(k->info.name, name);
	}
	ck_assert_ptr_null(module_find_kernel_n(m, "k65536", 6));
	ck_assert_ptr_null(module_find_kernel_n(m, "k", 1));
	void *img = NULL;
	size_t ilen = 0;
	ck_assert_int_eq(module_save(m, &img, &ilen), WE_OK);
	struct we_module *t = NULL;
	char err[256];
	ck_assert_msg(module_load(img, ilen, &t, err, sizeof err) == WE_OK, "%s", err);
	ck_assert_uint_eq(t->nkernels, MODULE_KERNELS_MAX);
	for (unsigned i = 0; i < MODULE_KERNELS_MAX; i++)
		ck_assert(!strcmp(t->kernels[i].name, m->kernels[i].name) &&
			  t->kernels[i].code_start == m->kernels[i].code_start);
	/* a duplicate name in an image is still refused */
	uint8_t *b = img;
	uint8_t *k1 = NULL;
	for (size_t i = 0; i + 6 <= ilen && !k1; i++)
		if (!memcmp(b + i, "\x02\0\0\0k1", 6))
			k1 = b + i + 5;
	ck_assert_ptr_nonnull(k1);
	*k1 = '0';
	module_free(t);
	t = NULL;
	ck_assert_int_eq(module_load(img, ilen, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_msg(strstr(err, "duplicate kernel 'k0'") != NULL, "%s", err);
	free(img);
	module_free(m);
}
END_TEST

/* Names: up to 1024 bytes (what the module image holds) assemble and
 * save; one more is an error at the name (it was "invalid argument"
 * from module_save). */
START_TEST(name_lengths)
{
	for (unsigned n = 1023; n <= 1025; n++) {
		for (int param = 0; param < 2; param++) {
			char *name = malloc(n + 1);
			ck_assert_ptr_nonnull(name);
			memset(name, param ? 'p' : 'k', n);
			name[n] = 0;
			size_t cap = n + 64;
			char *text = malloc(cap);
			ck_assert_ptr_nonnull(text);
			int len = param ? snprintf(text, cap, ".kernel k\n.param u32 %s\n EXIT ;\n.end\n", name)
					: snprintf(text, cap, ".kernel %s\n EXIT ;\n.end\n", name);
			struct we_module *m = NULL;
			char *diag = NULL;
			we_status st = asm_assemble(text, (size_t)len, "names.s", &m, &diag);
			if (n <= MODULE_NAME_MAX) {
				ck_assert_msg(st == WE_OK, "%u: %s", n, diag);
				void *img = NULL;
				size_t ilen = 0;
				ck_assert_int_eq(module_save(m, &img, &ilen), WE_OK);
				free(img);
			} else {
				ck_assert_int_eq(st, WE_ERR_ASM);
				char want[128];
				snprintf(want, sizeof want, "names.s:%s error: %s name of 1025 characters (at most 1024)\n",
					 param ? "2:12:" : "1:9:", param ? "parameter" : "kernel");
				ck_assert_msg(strstr(diag, want) != NULL, "want '%s' in:\n%.300s", want, diag);
				ck_assert_uint_eq(count_errors(diag), 1);
			}
			module_free(m);
			free(diag);
			free(text);
			free(name);
		}
	}
}
END_TEST

/* A UTF-8 byte-order mark at the start is skipped: the same module, and
 * line 1's columns count from after it; anywhere else it is an error. */
START_TEST(byte_order_mark)
{
	static const char plain[] = ".kernel k\n.param u32 n\n    EXIT ;\n.end\n";
	char bom[sizeof plain + 3];
	memcpy(bom, "\xef\xbb\xbf", 3);
	memcpy(bom + 3, plain, sizeof plain);
	struct we_module *a = assemble_ok(plain, "plain.s"), *b = assemble_ok(bom, "bom.s");
	ck_assert_uint_eq(a->ninsns, b->ninsns);
	ck_assert(same_word(&a->code[0], &b->code[0]));
	ck_assert_uint_eq(b->nkernels, 1);
	ck_assert_str_eq(b->kernels[0].name, "k");
	module_free(a);
	module_free(b);
	char *diag = assemble_bad("\xef\xbb\xbf" "BOGUS ;\n", 11, "bom1.s");
	ck_assert_msg(strstr(diag, "bom1.s:1:1: error: unknown instruction 'BOGUS'\nBOGUS ;\n^\n"), "%s", diag);
	free(diag);
	diag = assemble_bad("EXIT ;\n\xef\xbb\xbf" "EXIT ;\n", 17, "bom2.s");
	ck_assert_msg(strstr(diag, "bom2.s:2:1: error: unexpected character 0xef"), "%s", diag);
	free(diag);
	/* a file that is only a mark: an empty kernel "main" */
	struct we_module *e = NULL;
	diag = NULL;
	ck_assert_int_eq(asm_assemble("\xef\xbb\xbf", 3, "empty.s", &e, &diag), WE_OK);
	ck_assert_uint_eq(e->ninsns, 0);
	module_free(e);
	free(diag);
}
END_TEST

START_TEST(binary_rejects)
{
	struct we_module *m = assemble_ok("NOP ;\nNOP ;\nBRA.DIV UR4, 0x0 ;\nEXIT ;\n", "r.s");
	void *img = NULL;
	size_t len = 0;
	ck_assert_int_eq(module_save(m, &img, &len), WE_OK);
	uint8_t *b = img;
	char err[256];
	struct we_module *t = NULL;
	/* magic, version */
	b[0] = 'X';
	ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_ptr_nonnull(strstr(err, "magic"));
	b[0] = 'W';
	b[8] = 2;
	ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_ptr_nonnull(strstr(err, "version 2"));
	b[8] = 1;
	/* the code starts 16 * 4 + 4 * 4 bytes before the end */
	size_t code = len - 4 * 20;
	/* instruction 1: an unknown optype */
	b[code + 16] = 0xff;
	ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_msg(strstr(err, "instruction 1 ") && strstr(err, "illegal encoding"), "%s", err);
	b[code + 16] = (uint8_t)m->code[1].lo;
	/* instruction 2: BRA_U without .DIV/.CONV fails isa_check */
	we_insn in = m->insn[2];
	in.cond = ISA_BRACond_NoCond;
	we_word w;
	isa_encode(&in, &w);
	for (int i = 0; i < 8; i++) {
		b[code + 32 + i] = (uint8_t)(w.lo >> (8 * i));
		b[code + 40 + i] = (uint8_t)(w.hi >> (8 * i));
	}
	ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_msg(strstr(err, "instruction 2 ") && strstr(err, "BRA_U should be used"), "%s", err);
	/* a bit outside every field */
	isa_encode(&m->insn[2], &w);
	w.hi |= UINT64_C(1) << 63;
	for (int i = 0; i < 8; i++) {
		b[code + 32 + i] = (uint8_t)(w.lo >> (8 * i));
		b[code + 40 + i] = (uint8_t)(w.hi >> (8 * i));
	}
	ck_assert_int_eq(module_load(b, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_ptr_nonnull(strstr(err, "instruction 2 "));
	/* nonsense counts */
	uint8_t *c = malloc(len);
	ck_assert_ptr_nonnull(c);
	memcpy(c, img, len);
	c[16] = c[17] = c[18] = c[19] = 0xff; /* ninsns */
	ck_assert_int_eq(module_load(c, len, &t, err, sizeof err), WE_ERR_LOAD);
	memcpy(c, img, len);
	c[20] = c[21] = c[22] = c[23] = 0xff; /* nkernels */
	ck_assert_int_eq(module_load(c, len, &t, err, sizeof err), WE_ERR_LOAD);
	memcpy(c, img, len);
	c[24] = 40; /* nbanks */
	ck_assert_int_eq(module_load(c, len, &t, err, sizeof err), WE_ERR_LOAD);
	ck_assert_int_eq(module_load(NULL, 0, &t, err, sizeof err), WE_ERR_LOAD);
	free(c);
	free(img);
	module_free(m);
}
END_TEST

/* ---- main ------------------------------------------------------------------------ */

static Suite *asm_suite(void)
{
	Suite *s = suite_create("asm");
	TCase *t = tcase_create("examples");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, seed_examples);
	tcase_add_test(t, seed_examples_file);
	tcase_add_test(t, brx_test_listing);
	suite_add_tcase(s, t);
	t = tcase_create("tables");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, random_roundtrip);
	tcase_add_test(t, encodings_disjoint);
	suite_add_tcase(s, t);
	t = tcase_create("errors");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, bad_files);
	tcase_add_test(t, error_cap);
	tcase_add_test(t, generated_errors);
	tcase_add_test(t, hostile_input);
	tcase_add_test(t, too_many_kernels);
	tcase_add_test(t, kernels_at_limit);
	tcase_add_test(t, name_lengths);
	tcase_add_test(t, byte_order_mark);
	suite_add_tcase(s, t);
	t = tcase_create("syntax");
	tcase_add_test(t, syntax_forms);
	tcase_add_test(t, sass_forms);
	tcase_add_test(t, directives);
	tcase_add_test(t, floats_and_one);
	suite_add_tcase(s, t);
	t = tcase_create("binary");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, binary_roundtrip);
	tcase_add_test(t, binary_names);
	tcase_add_test(t, binary_rejects);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	th_rng_seed(0x1234567887654321ull); /* each test (forked) starts from it */
	SRunner *r = srunner_create(asm_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
