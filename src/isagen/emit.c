/* emit.c — the generated files: isa_gen.h (enums, X-macro lists, the
 * decoded-instruction struct), isa_gen.c (the tables, decoder, encoder,
 * defaults and __Exception checks) and isa_ref.md (the reference page).
 * Each is written to NAME.tmp and renamed, so a failed run leaves no
 * half-written file.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

/* the C names of enum fkind (isa.h: enum isa_kind) */
static const char *const kind_c[] = {
	"ISA_K_OPTYPE", "ISA_K_STYPE", "ISA_K_ENUM", "ISA_K_REG", "ISA_K_UREG",
	"ISA_K_PRED", "ISA_K_UPRED", "ISA_K_NOT", "ISA_K_BITNOT", "ISA_K_NEG",
	"ISA_K_ABS", "ISA_K_UIMM", "ISA_K_SIMM", "ISA_K_FIMM", "ISA_K_CMEM"
};

static void c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s < 32)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}



struct member { char *name; bool is_signed; int width; };

static int member_find(const struct member *m, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return i;
	return -1;
}


static FILE *open_out(const char *dir, const char *name, char **path)
{
	size_t n = strlen(dir) + strlen(name) + 8;
	*path = xrealloc(NULL, n);
	snprintf(*path, n, "%s/%s.tmp", dir, name);
	FILE *f = fopen(*path, "w");
	if (!f) {
		fprintf(stderr, "isagen: cannot write %s: %s\n", *path, strerror(errno));
		exit(2);
	}
	return f;
}

static void close_out(FILE *f, char *tmp)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "isagen: write error on %s\n", tmp);
		exit(2);
	}
	char *final = xstrdup(tmp);
	final[strlen(final) - 4] = 0;
	if (rename(tmp, final)) {
		fprintf(stderr, "isagen: cannot rename %s: %s\n", tmp, strerror(errno));
		exit(2);
	}
	free(final);
	free(tmp);
}

static const char *kind_label(int k)
{
	static const char *const l[] = { "optype", "stype", "modifier", "Reg", "UReg", "Pred",
					 "UPred", "!", "~", "-", "|x|", "UImm", "SImm", "F32Imm", "CMem" };
	return l[k];
}

typedef struct emitter {
	gen *g;
	struct opc *ops;
	int nops;
	struct member mem[256];  /* the members of struct we_insn */
	int nmem;
	const char *units[256];  /* the units, in the order of the descriptions */
	int nunits;
} emitter;

/* The units of the opcodes (the definitions their ancestry reaches ALL
 * by), in the order of the descriptions; ALL itself last when an opcode
 * has none. */
static void collect_units(emitter *e)
{
	bool all = false;
	for (int i = 0; i < e->g->ndef && e->nunits < 255; i++) {
		bool used = false;
		for (int k = 0; k < e->nops && !used; k++)
			used = e->ops[k].unit_def == &e->g->defs[i];
		if (used)
			e->units[e->nunits++] = e->g->defs[i].name;
	}
	for (int k = 0; k < e->nops; k++)
		all |= !e->ops[k].unit_def;
	if (all)
		e->units[e->nunits++] = "ALL";
}

/* One member of we_insn per distinct field name, as wide as its widest
 * field (signed when some field of that name is an SImm). */
static void collect_members(emitter *e)
{
	for (int i = 0; i < e->nops; i++)
		for (int j = 0; j < e->ops[i].nf; j++) {
			struct rfield *r = &e->ops[i].fl[j];
			if (r->f.kind == K_OPTYPE || r->f.kind == K_STYPE)
				continue;
			char *c = cname(r->f.name);
			int m = member_find(e->mem, e->nmem, c);
			if (m < 0) {
				if (e->nmem == 256) {
					fprintf(stderr, "isagen: too many distinct fields\n");
					exit(2);
				}
				m = e->nmem++;
				e->mem[m].name = c;
				e->mem[m].is_signed = false;
				e->mem[m].width = 0;
			} else
				free(c);
			if (r->f.kind == K_SIMM)
				e->mem[m].is_signed = true;
			if (r->f.width > e->mem[m].width)
				e->mem[m].width = r->f.width;
			r->member = m;
		}
}

/* An optype with an opcode: it has a handler and an ISA_OPT_ index. */
static bool has_opcode(const emitter *e, const struct def *d)
{
	if (d->kind != D_OPTYPE)
		return false;
	for (int k = 0; k < e->nops; k++)
		if (e->ops[k].optype == d)
			return true;
	return false;
}

/* isa_gen.h: the opcode and optype lists and enums */
static void header_lists(const emitter *e, FILE *h)
{
	gen *g = e->g;
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	fprintf(h, "#define ISA_NUM_OPCODES %d\n\n", nops);
	fprintf(h, "/* X(opcode, optype) for every __DefOpcode */\n#define ISA_OPCODE_LIST(X) \\\n");
	for (int i = 0; i < nops; i++)
		fprintf(h, "\tX(%s, %s) \\\n", ops[i].d->name, ops[i].optype->name);
	fprintf(h, "\n/* X(optype) for every __DefOptype that has an opcode: one semantic\n"
		   " * handler sem_<optype> each (a missing one fails to link) */\n"
		   "#define ISA_OPTYPE_LIST(X) \\\n");
	int noptypes = 0;
	for (int i = 0; i < g->ndef; i++)
		if (has_opcode(e, &g->defs[i])) {
			fprintf(h, "\tX(%s) \\\n", g->defs[i].name);
			noptypes++;
		}
	fprintf(h, "\n#define ISA_NUM_OPTYPES %d\n\n", noptypes);
	fprintf(h, "enum isa_op {\n");
	for (int i = 0; i < nops; i++)
		fprintf(h, "\tISA_OP_%s = %d,\n", ops[i].d->name, i);
	fprintf(h, "};\n\nenum isa_optype_index {\n");
	for (int i = 0, k = 0; i < g->ndef; i++)
		if (has_opcode(e, &g->defs[i]))
			fprintf(h, "\tISA_OPT_%s = %d,\n", g->defs[i].name, k++);
	fprintf(h, "};\n\n");
}

/* isa_gen.h: units, flags and the names of operands */
static void header_properties(const emitter *e, FILE *h)
{
	fprintf(h, "/* units: the groups whose parent is ALL */\nenum isa_unit {\n");
	for (int u = 0; u < e->nunits; u++)
		fprintf(h, "\tISA_UNIT_%s = %d,\n", e->units[u], u);
	fprintf(h, "};\n#define ISA_NUM_UNITS %d\nextern const char *const isa_unit_names[ISA_NUM_UNITS];\n\n",
		e->nunits);
	fprintf(h, "/* __Properties Flags<> (isa_opcode.flags) */\nenum isa_flag {\n");
	for (int f = 0; f < isa_nflags; f++)
		fprintf(h, "\tISA_F_%s = 0x%x, /* %s: %s */\n", isa_flags[f].c, 1u << f, isa_flags[f].name,
			isa_flags[f].meaning);
	fprintf(h, "};\n\n/* The operands of an instruction after its guard by name: i->o[OWNER_role]\n"
		   " * (Roles<>, else the names of Order<>; one enum, so that the positions of\n"
		   " * two owners compare without casts) */\nenum isa_role {\n");
	for (int i = 0; i < e->nops; i++) {
		const struct opc *o = &e->ops[i];
		bool seen = o->nroles == 0;
		for (int j = 0; j < i && !seen; j++)
			seen = e->ops[j].roles_owner == o->roles_owner;
		if (seen)
			continue;
		fprintf(h, "\t/* %s at %s:%d */\n\t", o->roles_from_order ? "Order<>" : "Roles<>",
			o->roles_file, o->roles_line);
		for (int k = 0; k < o->nroles; k++)
			fprintf(h, "%s%s_%s = %d,", k ? " " : "", o->roles_owner->name, o->roles[k], k);
		fputc('\n', h);
	}
	fprintf(h, "};\n\n");
}

/* isa_gen.h: the enum values, the decoded instruction, the functions */
static void header_types(const emitter *e, FILE *h)
{
	gen *g = e->g;
	const struct member *mem = e->mem;
	const int nmem = e->nmem;
	fprintf(h, "/* values of every __DefBitFieldType */\n");
	for (int i = 0; i < g->nbft; i++) {
		const struct bft *b = &g->bfts[i];
		for (int v = 0; v < b->nvalues; v++) {
			if (!b->values[v])
				continue;
			char *c = cname(b->values[v]);
			fprintf(h, "#define ISA_%s_%s %d\n", b->name, c, v);
			free(c);
		}
	}
	fprintf(h, "\nenum isa_enum_id {\n");
	for (int i = 0; i < g->nbft; i++)
		fprintf(h, "\tISA_ENUM_%s = %d,\n", g->bfts[i].name, i);
	fprintf(h, "};\n\n/* the decoded instruction: one member per distinct field name */\n");
	fprintf(h, "enum isa_member {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(h, "\tISA_M_%s = %d,\n", mem[i].name, i);
	fprintf(h, "\tISA_M__COUNT = %d\n};\n\n", nmem);
	fprintf(h, "typedef struct we_insn {\n\tint16_t opcode; /* enum isa_op */\n");
	for (int i = 0; i < nmem; i++) {
		const char *t = mem[i].width > 31 || mem[i].is_signed ? "int64_t" : "int32_t";
		fprintf(h, "\t%s %s;\n", t, mem[i].name);
	}
	fprintf(h, "} we_insn;\n\n");
	fprintf(h, "extern const isa_opcode isa_opcodes[ISA_NUM_OPCODES];\n");
	fprintf(h, "extern const isa_enum isa_enums[%d];\n", g->nbft);
	fprintf(h, "#define ISA_NUM_ENUMS %d\n", g->nbft);
	fprintf(h, "extern const char *const isa_member_names[ISA_M__COUNT];\n");
	fprintf(h, "extern const uint8_t isa_op_optype[ISA_NUM_OPCODES];\n\n");
	fprintf(h, "int64_t isa_insn_get(const we_insn *in, int member);\n");
	fprintf(h, "void isa_insn_set(we_insn *in, int member, int64_t v);\n");
	fprintf(h, "/* Fill *in from a word (defaults for nothing: every field is read).\n"
		   " * Returns the opcode, or -1 for an illegal encoding. */\n");
	fprintf(h, "int isa_decode(const we_word *w, we_insn *in);\n");
	fprintf(h, "void isa_encode(const we_insn *in, we_word *w);\n");
	fprintf(h, "/* Reset *in to opcode op with every field at its default. */\n");
	fprintf(h, "void isa_insn_init(we_insn *in, int op);\n");
	fprintf(h, "/* __Exception checks: NULL when fine, else the message. */\n");
	fprintf(h, "const char *isa_check(const we_insn *in);\n");
	fprintf(h, "/* How many consecutive registers register field `field` of in's opcode\n"
		   " * spans: by its Bitwidth<>, a number or the width named by a modifier\n"
		   " * (.64, .U64). */\n");
	fprintf(h, "unsigned isa_reg_span(const we_insn *in, unsigned field);\n\n#endif\n");
}

static void emit_header(const emitter *e, const char *dir, int argc, char **files)
{
	char *tmp;
	FILE *h = open_out(dir, "isa_gen.h", &tmp);
	fprintf(h, "/* Generated by isagen from");
	for (int i = 0; i < argc; i++)
		fprintf(h, " %s", files[i]);
	fprintf(h, ".\n * Do not edit: change the descriptions and rebuild. */\n");
	fprintf(h, "#ifndef WE_ISA_GEN_H\n#define WE_ISA_GEN_H\n\n#include \"isa/isa.h\"\n\n");
	header_lists(e, h);
	header_properties(e, h);
	header_types(e, h);
	close_out(h, tmp);
}

/* isa_gen.c: the value names of every enum, the member names */
static void code_enums(const emitter *e, FILE *c)
{
	gen *g = e->g;
	const struct member *mem = e->mem;
	const int nmem = e->nmem;
	for (int i = 0; i < g->nbft; i++) {
		const struct bft *b = &g->bfts[i];
		fprintf(c, "static const char *const enum_%s[] = {", b->name);
		for (int v = 0; v < b->nvalues; v++) {
			fputs(v ? ", " : " ", c);
			if (b->values[v])
				c_string(c, b->values[v]);
			else
				fputs("0", c);
		}
		fprintf(c, " };\n");
	}
	for (int i = 0; i < g->nbft; i++) {
		const struct bft *b = &g->bfts[i];
		if (!b->sized)
			continue;
		fprintf(c, "static const uint8_t width_%s[] = {", b->name);
		for (int v = 0; v < b->nvalues; v++)
			fprintf(c, "%s%d", v ? ", " : " ", b->values[v] ? value_width(b->values[v]) : 0);
		fprintf(c, " };\n");
	}
	fprintf(c, "\nconst isa_enum isa_enums[%d] = {\n", g->nbft);
	for (int i = 0; i < g->nbft; i++)
		fprintf(c, "\t{ \"%s\", %d, %d, enum_%s, %s%s },\n", g->bfts[i].name, g->bfts[i].width,
			g->bfts[i].nvalues, g->bfts[i].name, g->bfts[i].sized ? "width_" : "0",
			g->bfts[i].sized ? g->bfts[i].name : "");
	fprintf(c, "};\n\nconst char *const isa_member_names[ISA_M__COUNT] = {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\t\"%s\",\n", mem[i].name);
	fprintf(c, "};\n\n");
}

/* isa_gen.c: each opcode's fields, Order, modifiers and AsmFormat */
static void code_opcode_fields(const emitter *e, FILE *c)
{
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	for (int i = 0; i < nops; i++) {
		const struct opc *o = &ops[i];
		fprintf(c, "/* %s:%d */\nstatic const isa_field fields_%s[] = {\n", o->d->file, o->d->line,
			o->d->name);
		for (int j = 0; j < o->nf; j++) {
			const struct rfield *r = &o->fl[j];
			fprintf(c, "\t{ \"%s\", %d, %d, %s, %d, %d, %d, %s, %s, %lld, %d, %d, %s, %s, %d, %d },\n",
				r->f.name, r->f.pos, r->f.width, kind_c[r->f.kind],
				r->f.kind == K_ENUM ? r->f.bft : -1,
				(r->f.kind == K_OPTYPE || r->f.kind == K_STYPE) ? -1 : r->member,
				r->base, r->f.has_default ? "true" : "false", r->f.fixed ? "true" : "false",
				(long long)r->f.value, r->bitwidth, r->asm_shift, r->is_out ? "true" : "false",
				r->is_in ? "true" : "false", r->f.line, r->span_by);
		}
		fprintf(c, "};\nstatic const int8_t order_%s[] = {", o->d->name);
		for (int k = 0; k < o->norder; k++)
			fprintf(c, "%s%d", k ? ", " : " ", o->order[k]);
		fprintf(c, "%s};\nstatic const int8_t mods_%s[] = {", o->norder ? " " : "-1", o->d->name);
		for (int k = 0; k < o->nmods; k++)
			fprintf(c, "%s%d", k ? ", " : " ", o->mods[k]);
		fprintf(c, "%s};\n", o->nmods ? " " : "-1");
		fprintf(c, "static const isa_asmfmt asmfmt_%s[] = {\n", o->d->name);
		for (int j = 0; j < o->nf; j++) {
			const struct rfield *r = &o->fl[j];
			fprintf(c, "\t{ %s, %d, %lld, %d, %d, %s },\n", r->pcrel ? "true" : "false",
				r->pcrel_if_field, (long long)r->pcrel_if_value, r->mem_off, r->cmem_bank,
				r->consumed ? "true" : "false");
		}
		fprintf(c, "};\nstatic const char *const roles_%s[] = {", o->d->name);
		for (int k = 0; k < o->nroles; k++)
			fprintf(c, "%s\"%s\"", k ? ", " : " ", o->roles[k]);
		fprintf(c, "%s};\n\n", o->nroles ? " " : "0");
	}
}

/* isa_gen.c: isa_opcodes[] and isa_op_optype[] */
static void code_opcodes(const emitter *e, FILE *c)
{
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	fprintf(c, "const isa_opcode isa_opcodes[ISA_NUM_OPCODES] = {\n");
	for (int i = 0; i < nops; i++) {
		const struct opc *o = &ops[i];
		fprintf(c, "\t{ \"%s\", \"%s\", \"%s\", ", o->d->name, o->optype->name, o->mnemonic);
		if (o->alt)
			fprintf(c, "\"%s\"", o->alt);
		else
			fputs("0", c);
		fprintf(c, ", 0x%02x, 0x%x, %d, fields_%s, %d, order_%s, %d, mods_%s, \"%s\", %d, \"%s\",\n"
			   "\t  asmfmt_%s, 0x%016llxull, 0x%016llxull, ",
			o->optype_val, o->stype_val, o->nf, o->d->name, o->norder, o->d->name, o->nmods,
			o->d->name, o->d->file, o->d->line, o->unit, o->d->name,
			(unsigned long long)o->used_lo, (unsigned long long)o->used_hi);
		if (o->dialect)
			fprintf(c, "\"%s\",", o->dialect);
		else
			fprintf(c, "0,");
		fprintf(c, "\n\t  ISA_UNIT_%s, 0x%x, %d, roles_%s },\n", o->unit, o->flags, o->nroles, o->d->name);
	}
	fprintf(c, "};\n\nconst uint8_t isa_op_optype[ISA_NUM_OPCODES] = {\n");
	for (int i = 0; i < nops; i++)
		fprintf(c, "\tISA_OPT_%s,\n", ops[i].optype->name);
	fprintf(c, "};\n\nconst char *const isa_unit_names[ISA_NUM_UNITS] = {");
	for (int u = 0; u < e->nunits; u++)
		fprintf(c, "%s\"%s\"", u ? ", " : " ", e->units[u]);
	fprintf(c, " };\n\n");
}

/* isa_gen.c: the opcode of a word (optype, stype, no stray bits) */
static void code_lookup(const emitter *e, FILE *c)
{
	gen *g = e->g;
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	/* opcode lookup */
	fprintf(c, "static const int16_t op_by_code[256][16] = {\n");
	for (int ot = 0; ot < 256; ot++) {
		bool any = false;
		for (int i = 0; i < nops; i++)
			any |= ops[i].optype_val == ot;
		if (!any)
			continue;
		fprintf(c, "\t[0x%02x] = {", ot);
		for (int st = 0; st < 16; st++) {
			int found = -1;
			for (int i = 0; i < nops; i++)
				if (ops[i].optype_val == ot && ops[i].stype_val == st)
					found = i;
			fprintf(c, "%s%d", st ? ", " : " ", found);
		}
		fprintf(c, " },\n");
	}
	fprintf(c, "};\nstatic const bool optype_present[256] = {");
	for (int ot = 0, k = 0; ot < 256; ot++) {
		bool any = false;
		for (int i = 0; i < nops; i++)
			any |= ops[i].optype_val == ot;
		if (any)
			fprintf(c, "%s[0x%02x] = true", k++ ? ", " : " ", ot);
	}
	fprintf(c, " };\n\n");
	/* optype/stype field positions are shared by every opcode: check */
	int opos = -1, spos = -1;
	for (int i = 0; i < nops; i++)
		for (int j = 0; j < ops[i].nf; j++) {
			const struct rfield *r = &ops[i].fl[j];
			int *p = r->f.kind == K_OPTYPE ? &opos : r->f.kind == K_STYPE ? &spos : NULL;
			int want = r->f.kind == K_OPTYPE ? 8 : 4;
			if (!p)
				continue;
			if (r->f.width != want || (*p >= 0 && *p != r->f.pos)) {
				err(g, r->f.file, r->f.line, "%s must be field<%d, %d> in every opcode",
				    r->f.type, r->f.kind == K_OPTYPE ? 0 : 8, want);
			}
			*p = r->f.pos;
		}
	fprintf(c, "int isa_decode_opcode(const we_word *w)\n{\n"
		   "\tunsigned ot = (unsigned)isa_get(w, %d, 8), st = (unsigned)isa_get(w, %d, 4);\n"
		   "\tif (!optype_present[ot])\n\t\treturn -1;\n"
		   "\tint op = op_by_code[ot][st];\n"
		   "\tif (op < 0)\n\t\treturn -1;\n"
		   "\tif ((w->lo & ~isa_opcodes[op].used_lo) || (w->hi & ~isa_opcodes[op].used_hi))\n"
		   "\t\treturn -1; /* bits outside every field */\n"
		   "\treturn op;\n}\n\n", opos < 0 ? 0 : opos, spos < 0 ? 8 : spos);
}

/* isa_gen.c: member access, defaults, decoder and encoder */
static void code_access(const emitter *e, FILE *c)
{
	const struct member *mem = e->mem;
	const int nmem = e->nmem;
	fprintf(c, "int64_t isa_insn_get(const we_insn *in, int member)\n{\n\tswitch (member) {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\tcase ISA_M_%s: return in->%s;\n", mem[i].name, mem[i].name);
	fprintf(c, "\tdefault: return 0;\n\t}\n}\n\n");
	fprintf(c, "void isa_insn_set(we_insn *in, int member, int64_t v)\n{\n\tswitch (member) {\n");
	for (int i = 0; i < nmem; i++)
		fprintf(c, "\tcase ISA_M_%s: in->%s = (%s)v; break;\n", mem[i].name, mem[i].name,
			mem[i].width > 31 || mem[i].is_signed ? "int64_t" : "int32_t");
	fprintf(c, "\tdefault: break;\n\t}\n}\n\n");
	fprintf(c,
		"void isa_insn_init(we_insn *in, int op)\n{\n"
		"\tconst isa_opcode *o = &isa_opcodes[op];\n"
		"\t*in = (we_insn){ .opcode = (int16_t)op };\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tif (f->member < 0)\n\t\t\tcontinue;\n"
		"\t\tif (f->has_default)\n\t\t\tisa_insn_set(in, f->member, f->value);\n"
		"\t\telse if (f->kind == ISA_K_PRED || f->kind == ISA_K_UPRED)\n"
		"\t\t\tisa_insn_set(in, f->member, ISA_PRED_PT);\n"
		"\t}\n}\n\n");
	fprintf(c,
		"int isa_decode(const we_word *w, we_insn *in)\n{\n"
		"\tint op = isa_decode_opcode(w);\n\tif (op < 0)\n\t\treturn -1;\n"
		"\tconst isa_opcode *o = &isa_opcodes[op];\n"
		"\t*in = (we_insn){ .opcode = (int16_t)op };\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tif (f->member < 0)\n\t\t\tcontinue;\n"
		"\t\tuint64_t v = isa_get(w, f->pos, f->width);\n"
		"\t\tint64_t s = (int64_t)v;\n"
		"\t\tif (f->kind == ISA_K_SIMM && f->width < 64 && (v >> (f->width - 1)) & 1)\n"
		"\t\t\ts = (int64_t)(v | ~((UINT64_C(1) << f->width) - 1));\n"
		"\t\tif (f->kind == ISA_K_ENUM && (v >= isa_enums[f->enum_id].nvalues ||\n"
		"\t\t\t\t\t\t !isa_enums[f->enum_id].values[v]))\n"
		"\t\t\treturn -1;\n"
		"\t\tisa_insn_set(in, f->member, s);\n"
		"\t}\n\treturn op;\n}\n\n");
	fprintf(c,
		"void isa_encode(const we_insn *in, we_word *w)\n{\n"
		"\tconst isa_opcode *o = &isa_opcodes[in->opcode];\n"
		"\tw->lo = w->hi = 0;\n"
		"\tfor (unsigned i = 0; i < o->nfields; i++) {\n"
		"\t\tconst isa_field *f = &o->fields[i];\n"
		"\t\tuint64_t v = f->member < 0 ? (uint64_t)f->value : (uint64_t)isa_insn_get(in, f->member);\n"
		"\t\tisa_set(w, f->pos, f->width, v);\n"
		"\t}\n}\n\n");
	fprintf(c,
		"unsigned isa_reg_span(const we_insn *in, unsigned field)\n{\n"
		"\tconst isa_opcode *o = &isa_opcodes[in->opcode];\n"
		"\tconst isa_field *f = &o->fields[field];\n"
		"\tunsigned bits = f->bitwidth;\n"
		"\tif (f->span_by >= 0) {\n"
		"\t\tconst isa_field *s = &o->fields[f->span_by];\n"
		"\t\tconst isa_enum *e = &isa_enums[s->enum_id];\n"
		"\t\tconst int64_t v = isa_insn_get(in, s->member);\n"
		"\t\tbits = v >= 0 && v < (int64_t)e->nvalues ? e->widths[v] : 32u;\n"
		"\t}\n"
		"\treturn bits > 32u ? bits / 32u : 1u;\n}\n");
}

/* isa_gen.c: isa_check(), the __Exception conditions */
static void code_checks(const emitter *e, FILE *c)
{
	gen *g = e->g;
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	fprintf(c, "const char *isa_check(const we_insn *in)\n{\n\tswitch (in->opcode) {\n");
	for (int i = 0; i < nops; i++) {
		const struct opc *o = &ops[i];
		if (!o->nexc)
			continue;
		fprintf(c, "\tcase ISA_OP_%s:\n", o->d->name);
		for (int k = 0; k < o->nexc; k++) {
			char cond[1024];
			if (!exc_to_c(g, o, o->excs[k], cond, sizeof cond)) {
				err(g, o->excs[k]->file, o->excs[k]->line, "cannot parse exception condition '%s'",
				    o->excs[k]->expr);
				continue;
			}
			fprintf(c, "\t\tif (%s)\n\t\t\treturn ", cond);
			char msg[512];
			snprintf(msg, sizeof msg, "%s: %s", o->excs[k]->kind, o->excs[k]->msg);
			c_string(c, msg);
			fprintf(c, ";\n");
		}
		fprintf(c, "\t\tbreak;\n");
	}
	fprintf(c, "\tdefault:\n\t\tbreak;\n\t}\n\treturn 0;\n}\n");
}

static void emit_code(const emitter *e, const char *dir)
{
	char *tmp;
	FILE *c = open_out(dir, "isa_gen.c", &tmp);
	fprintf(c, "/* Generated by isagen. Do not edit. */\n#include \"isa/isa_gen.h\"\n\n");
	code_enums(e, c);
	code_opcode_fields(e, c);
	code_opcodes(e, c);
	code_lookup(e, c);
	code_access(e, c);
	code_checks(e, c);
	close_out(c, tmp);
}

/* isa_ref.md, the reference page */
static void emit_ref(const emitter *e, const char *dir)
{
	gen *g = e->g;
	const struct opc *ops = e->ops;
	const int nops = e->nops;
	char *tmp;
	FILE *m = open_out(dir, "isa_ref.md", &tmp);
	fprintf(m, "# warpemu ISA reference\n\nGenerated by `isagen` from the ISA descriptions"
		   " (`src/isa/*.isa`); do not edit.\nEvery instruction is 128 bits; fields are"
		   " `[pos, pos+width)` of the 128-bit word.\n\n");
	fprintf(m, "## Units and instructions\n\n| unit | mnemonic | opcode | optype | stype | operands |\n"
		   "|---|---|---|---|---|---|\n");
	for (int i = 0; i < nops; i++) {
		const struct opc *o = &ops[i];
		fprintf(m, "| %s | `%s`%s%s%s | %s | 0x%02x | 0x%x | ", o->unit, o->mnemonic,
			o->alt ? " (`" : "", o->alt ? o->alt : "", o->alt ? "`)" : "", o->d->name,
			o->optype_val, o->stype_val);
		for (int k = 0; k < o->norder; k++) {
			const struct rfield *r = &o->fl[o->order[k]];
			fprintf(m, "%s%s:%s", k ? ", " : "", r->f.name,
				r->f.kind == K_ENUM ? g->bfts[r->f.bft].name : kind_label(r->f.kind));
			if ((r->f.kind == K_REG || r->f.kind == K_UREG) && r->span_by >= 0)
				fprintf(m, "(.%s)", o->fl[r->span_by].f.name);
			else if ((r->f.kind == K_REG || r->f.kind == K_UREG) && r->bitwidth > 32)
				fprintf(m, "%d", r->bitwidth);
		}
		fprintf(m, " |\n");
	}
	fprintf(m, "\n## Opcodes\n");
	for (int i = 0; i < nops; i++) {
		const struct opc *o = &ops[i];
		fprintf(m, "\n### %s — `%s`\n\nDefined at `%s:%d`; unit %s.", o->d->name, o->mnemonic,
			o->d->file, o->d->line, o->unit);
		if (o->dialect)
			fprintf(m, " Dialect `%s` only (`.dialect %s`).", o->dialect, o->dialect);
		for (int f = 0, n = 0; f < isa_nflags; f++)
			if (o->flags & (1u << f))
				fprintf(m, "%s%s", n++ ? ", " : " Properties: ", isa_flags[f].name);
		if (o->flags)
			fputc('.', m);
		if (o->optype->description)
			fprintf(m, " %s", o->optype->description);
		fprintf(m, "\n\n");
		if (o->optype->syntax) {
			fprintf(m, "```\n%s```\n\n", o->optype->syntax);
		}
		fprintf(m, "| field | bits | type | default |\n|---|---|---|---|\n");
		for (int j = 0; j < o->nf; j++) {
			const struct rfield *r = &o->fl[j];
			fprintf(m, "| %s | %d..%d | %s | %s%s%s |\n", r->f.name, r->f.pos,
				r->f.pos + r->f.width - 1, r->f.type, r->f.fixed ? "== " : "",
				r->f.valtext ? r->f.valtext : "", r->f.kind == K_OPTYPE || r->f.kind == K_STYPE
				? "" : "");
		}
		for (int k = 0, n = 0; k < o->norder; k++) {
			const char *f = o->fl[o->order[k]].f.name;
			if (!strcmp(f, "pg"))
				continue;
			fprintf(m, "%s`%s` = %s", n ? ", " : "\nOperands after the guard: ", o->roles[n], f);
			if (++n == o->nroles)
				fprintf(m, " (`%s_*`).\n", o->roles_owner->name);
		}
		for (int k = 0; k < o->nexc; k++)
			fprintf(m, "\nEncoding error (%s): %s when `%s`.\n", o->excs[k]->kind,
				o->excs[k]->msg, o->excs[k]->expr);
	}
	fprintf(m, "\n## Bit field types\n\n");
	for (int i = 0; i < g->nbft; i++) {
		const struct bft *b = &g->bfts[i];
		fprintf(m, "- **%s**<%d>:", b->name, b->width);
		for (int v = 0; v < b->nvalues; v++)
			if (b->values[v])
				fprintf(m, " %s=%d", b->values[v], v);
		fprintf(m, "\n");
	}
	close_out(m, tmp);
}

void emit(gen *g, struct opc *ops, int nops, const char *dir, int nfiles, char **files)
{
	emitter *e = xrealloc(NULL, sizeof *e);
	memset(e, 0, sizeof *e);
	e->g = g;
	e->ops = ops;
	e->nops = nops;
	collect_members(e);
	collect_units(e);
	emit_header(e, dir, nfiles, files);
	emit_code(e, dir);
	emit_ref(e, dir);
	free(e);
}
