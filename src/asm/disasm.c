/* disasm.c — instructions and modules back to assembly text.
 *
 * Table-driven like the assembler: the mnemonic, then every `mods` field
 * as .VALUE unless it has a default and holds it, then the Order<>
 * operands (the guard as an @P prefix).  An operand with a default that
 * holds it (with its !, ~, -, |x| modifiers at their defaults) is left
 * out, unless it is an enum operand.  The text is checked by assembling
 * it again at the same address; if that does not give back the same
 * 128 bits (an omission that selects another form), every modifier and
 * operand is printed.
 */
#include "asm/asm.h"
#include "base/strbuf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hexv(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		snprintf(buf, n, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
	else
		snprintf(buf, n, "0x%" PRIx64, (uint64_t)v);
}

/* ---- fields --------------------------------------------------------------- */

static int64_t fget(const we_insn *in, const isa_field *f)
{
	return f->member >= 0 ? isa_insn_get(in, f->member) : f->value;
}

static int mod_field(const isa_opcode *o, int fi, unsigned kind)
{
	for (int j = 0; j < o->nfields; j++)
		if (o->fields[j].base == fi && o->fields[j].kind == kind)
			return j;
	return -1;
}

static bool at_default(const isa_opcode *o, const we_insn *in, int fi)
{
	if (fi < 0 || fi >= o->nfields)
		return true;
	const isa_field *f = &o->fields[fi];
	return f->has_default && fget(in, f) == f->value;
}

static bool is_guard(const isa_opcode *o)
{
	return o->norder > 0 && o->order[0] >= 0 && o->order[0] < o->nfields &&
	       o->fields[o->order[0]].kind == ISA_K_PRED && !strcmp(o->fields[o->order[0]].name, "pg");
}

static bool omittable(const isa_opcode *o, const we_insn *in, int fi)
{
	const isa_field *f = &o->fields[fi];
	if (f->kind == ISA_K_ENUM || !at_default(o, in, fi))
		return false;
	for (int j = 0; j < o->nfields; j++)
		if (o->fields[j].base == fi && !at_default(o, in, j))
			return false;
	const isa_asmfmt *a = &o->asmfmt[fi];
	if (a->mem_off >= 0 && !at_default(o, in, a->mem_off))
		return false;
	if (a->cmem_bank >= 0 && !at_default(o, in, a->cmem_bank))
		return false;
	return true;
}

static void reg_text(strbuf *b, unsigned kind, int64_t v, unsigned bitwidth, bool dot64)
{
	unsigned cnt = bitwidth > 32 ? bitwidth / 32 : 1;
	const char *p = kind == ISA_K_UREG ? "UR" : "R";
	int64_t z = kind == ISA_K_UREG ? ISA_UREG_URZ : ISA_REG_RZ;
	if (v == z) {
		sb_printf(b, "%sZ", p);
	} else if (dot64) {
		sb_printf(b, "%s%" PRId64 ".64", p, v);
	} else if (cnt > 1 && v + cnt - 1 < z) {
		sb_printf(b, "%s[%" PRId64 ":%" PRId64 "]", p, v, v + cnt - 1);
	} else {
		sb_printf(b, "%s%" PRId64, p, v);
	}
}

/* the written value of immediate field fi (shift and PC-relative undone) */
static int64_t imm_written(const isa_opcode *o, const we_insn *in, int fi, uint64_t pc)
{
	const isa_field *f = &o->fields[fi];
	const isa_asmfmt *a = &o->asmfmt[fi];
	int64_t v = fget(in, f);
	unsigned sh = f->asm_shift < 63 ? f->asm_shift : 62;
	bool pcrel = a->pcrel;
	if (!pcrel && a->pcrel_if_field >= 0 && a->pcrel_if_field < o->nfields)
		pcrel = fget(in, &o->fields[a->pcrel_if_field]) == a->pcrel_if_value;
	v = (int64_t)((uint64_t)v << sh);
	if (pcrel)
		v = (int64_t)((uint64_t)v + pc + WE_INST_SIZE);
	return v;
}

static void float_text(strbuf *b, uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	char t[64];
	snprintf(t, sizeof t, "%.9g", (double)f);
	uint32_t back;
	if (asm_parse_float(t, strlen(t), &back) && back == bits)
		sb_str(b, t);
	else
		sb_printf(b, "0x%08" PRIx32, bits);
}

static void addr_text(strbuf *b, const isa_opcode *o, const we_insn *in, int fi, uint64_t pc)
{
	const isa_field *f = &o->fields[fi];
	const isa_asmfmt *a = &o->asmfmt[fi];
	int64_t base = fget(in, f);
	bool ureg = f->kind == ISA_K_UREG;
	bool zero = base == (ureg ? ISA_UREG_URZ : ISA_REG_RZ);
	int64_t off = a->mem_off >= 0 ? imm_written(o, in, a->mem_off, pc) : 0;
	char h[40];
	sb_str(b, "[");
	if (!zero || !off)
		reg_text(b, f->kind, base, 32, f->bitwidth == 64 && !zero);
	if (off) {
		if (!zero)
			sb_str(b, off < 0 ? "-" : "+");
		hexv(h, sizeof h, zero ? off : off < 0 ? (int64_t)(0 - (uint64_t)off) : off);
		sb_str(b, h);
	}
	sb_str(b, "]");
}

static void operand_text(strbuf *b, const isa_opcode *o, const we_insn *in, int fi, uint64_t pc)
{
	const isa_field *f = &o->fields[fi];
	const isa_asmfmt *a = &o->asmfmt[fi];
	int nt = mod_field(o, fi, ISA_K_NOT), bn = mod_field(o, fi, ISA_K_BITNOT);
	int ng = mod_field(o, fi, ISA_K_NEG), ab = mod_field(o, fi, ISA_K_ABS);
	bool abs = ab >= 0 && fget(in, &o->fields[ab]);
	if (nt >= 0 && fget(in, &o->fields[nt]))
		sb_str(b, "!");
	if (bn >= 0 && fget(in, &o->fields[bn]))
		sb_str(b, "~");
	if (ng >= 0 && fget(in, &o->fields[ng]))
		sb_str(b, "-");
	if (abs)
		sb_str(b, "|");
	int64_t v = fget(in, f);
	char h[48];
	if (a->cmem_bank >= 0) {
		hexv(h, sizeof h, fget(in, &o->fields[a->cmem_bank]));
		sb_printf(b, "c[%s]", h);
		addr_text(b, o, in, fi, pc);
	} else if (a->mem_off >= 0) {
		addr_text(b, o, in, fi, pc);
	} else {
		switch (f->kind) {
		case ISA_K_REG:
		case ISA_K_UREG:
			reg_text(b, f->kind, v, f->bitwidth, false);
			break;
		case ISA_K_PRED:
		case ISA_K_UPRED:
			sb_printf(b, "%s", f->kind == ISA_K_UPRED ? "UP" : "P");
			if (v == ISA_PRED_PT)
				sb_str(b, "T");
			else
				sb_printf(b, "%" PRId64, v);
			break;
		case ISA_K_ENUM: {
			const isa_enum *e = &isa_enums[f->enum_id];
			if (v >= 0 && (uint64_t)v < e->nvalues && e->values[v])
				sb_str(b, e->values[v]);
			else
				sb_printf(b, "?%" PRId64, v);
			break;
		}
		case ISA_K_FIMM:
			float_text(b, (uint32_t)v);
			break;
		case ISA_K_CMEM: {
			unsigned bank = f->width > 16 ? (unsigned)((uint64_t)v >> 16) &
				((1u << (f->width - 16)) - 1) : 0;
			sb_printf(b, "c[0x%x][0x%x]", bank, ISA_CMEM_OFF(v));
			break;
		}
		default:
			hexv(h, sizeof h, imm_written(o, in, fi, pc));
			sb_str(b, h);
			break;
		}
	}
	if (abs)
		sb_str(b, "|");
}

static void format_insn(strbuf *b, const we_insn *in, uint64_t pc, bool omit)
{
	const isa_opcode *o = &isa_opcodes[in->opcode];
	int first = 0;
	if (is_guard(o)) {
		first = 1;
		const isa_field *g = &o->fields[o->order[0]];
		int nf = mod_field(o, o->order[0], ISA_K_NOT);
		int64_t pg = fget(in, g);
		bool neg = nf >= 0 && fget(in, &o->fields[nf]);
		if (pg != ISA_PRED_PT || neg) {
			sb_printf(b, "@%sP", neg ? "!" : "");
			if (pg == ISA_PRED_PT)
				sb_str(b, "T ");
			else
				sb_printf(b, "%" PRId64 " ", pg);
		}
	}
	sb_str(b, asm_mnemonic(o));
	for (int m = 0; m < o->nmods; m++) {
		int fi = o->mods[m];
		if (fi < 0 || fi >= o->nfields)
			continue;
		const isa_field *f = &o->fields[fi];
		if (omit && at_default(o, in, fi))
			continue;
		int64_t v = fget(in, f);
		const isa_enum *e = &isa_enums[f->enum_id];
		if (v >= 0 && (uint64_t)v < e->nvalues && e->values[v])
			sb_printf(b, ".%s", e->values[v]);
		else
			sb_printf(b, ".?%" PRId64, v);
	}
	bool any = false;
	for (int k = first; k < o->norder; k++) {
		int fi = o->order[k];
		if (fi < 0 || fi >= o->nfields)
			continue;
		if (omit && omittable(o, in, fi))
			continue;
		sb_str(b, any ? ", " : " ");
		any = true;
		operand_text(b, o, in, fi, pc);
	}
}

static bool same_word(const we_word *a, const we_word *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

int dis_insn(const we_insn *in, uint64_t pc, char *buf, size_t n)
{
	char text[1024];
	strbuf b = sb_fixed(text, sizeof text);
	if (!in || in->opcode < 0 || in->opcode >= ISA_NUM_OPCODES) {
		sb_str(&b, "<invalid instruction>");
	} else {
		we_word want, got;
		isa_encode(in, &want);
		format_insn(&b, in, pc, true);
		if (b.oom || !asm_one(text, b.n, pc, &got, NULL, 0) || !same_word(&got, &want)) {
			b = sb_fixed(text, sizeof text);
			format_insn(&b, in, pc, false);
		}
	}
	if (buf && n) {
		size_t k = b.n < n - 1 ? b.n : n - 1;
		memcpy(buf, text, k);
		buf[k] = 0;
	}
	return (int)b.n;
}

/* ---- modules ----------------------------------------------------------------- */

/* A .param line; end: where the parameters before it end.  A b8[N]
 * parameter's declared alignment is not kept in the module: it gets the
 * least one that puts it at its offset again when re-assembled. */
static void dis_param(strbuf *b, const we_param_info *p, const char *name, uint32_t end)
{
	const unsigned t = (unsigned)p->type;
	if (t == WE_PARAM_BYTES) {
		uint32_t a = 1;
		while (a < MODULE_PARAM_ALIGN_MAX && (end + a - 1) / a * a != p->offset)
			a *= 2u;
		sb_str(b, "        .param ");
		if (a > 1)
			sb_printf(b, ".align %" PRIu32 " ", a);
		sb_printf(b, "b8[%" PRIu32 "] %s    // c[0x0][0x%" PRIx32 "]\n", p->size, name ? name : "?",
			  p->offset);
		return;
	}
	sb_printf(b, "        .param %s %s    // c[0x0][0x%" PRIx32 "]\n",
		  t < MODULE_NPARAM_TYPES ? module_param_types[t].name : "u32", name ? name : "?", p->offset);
}

/* with_loc: each instruction's source line as a comment (kernels lowered
 * from PTX, whose line table names the PTX file's lines) */
static void dis_range(strbuf *b, const struct we_module *m, uint32_t start, uint32_t end, bool with_loc)
{
	char line[1024];
	for (uint32_t a = start; a < end && a / WE_INST_SIZE < m->ninsns; a += WE_INST_SIZE) {
		dis_insn(&m->insn[a / WE_INST_SIZE], a, line, sizeof line);
		uint32_t src = m->line ? m->line[a / WE_INST_SIZE] : 0;
		if (with_loc && src)
			sb_printf(b, "        /*%04" PRIx32 "*/ %-44s ; // %s:%" PRIu32 "\n", a, line,
				  m->source ? m->source : "", src);
		else
			sb_printf(b, "        /*%04" PRIx32 "*/ %s ;\n", a, line);
	}
}

void dis_at(const struct we_module *m, uint64_t pc, char *buf, size_t n)
{
	uint64_t idx = pc / WE_INST_SIZE;
	if (pc % WE_INST_SIZE || idx >= m->ninsns) {
		snprintf(buf, n, "<no instruction>");
		return;
	}
	dis_insn(&m->insn[idx], pc, buf, n);
}

char *dis_module(const struct we_module *m)
{
	strbuf b = { 0 };
	if (!m)
		return NULL;
	sb_printf(&b, "// warpemu disassembly of %s\n", m->source ? m->source : "a module");
	for (unsigned bk = 1; bk < WE_NUM_CBANKS; bk++) {
		const we_cbank *cb = &m->cbank[bk];
		if (!cb->size || !cb->data)
			continue;
		sb_printf(&b, "\n.const %u\n", bk);
		uint32_t i = 0;
		while (i + 4 <= cb->size) {
			sb_printf(&b, "        /*%04" PRIx32 "*/ .word ", i);
			for (unsigned k = 0; k < 4 && i + 4 <= cb->size; k++, i += 4) {
				uint32_t w = (uint32_t)cb->data[i] | (uint32_t)cb->data[i + 1] << 8 |
					     (uint32_t)cb->data[i + 2] << 16 | (uint32_t)cb->data[i + 3] << 24;
				sb_printf(&b, "%s0x%08" PRIx32, k ? ", " : "", w);
			}
			sb_str(&b, "\n");
		}
		if (i < cb->size) {
			sb_printf(&b, "        /*%04" PRIx32 "*/ .byte ", i);
			for (unsigned k = 0; i < cb->size; k++, i++)
				sb_printf(&b, "%s0x%02x", k ? ", " : "", cb->data[i]);
			sb_str(&b, "\n");
		}
	}
	if (b.n)
		sb_str(&b, "\n.text\n");
	/* do the kernels tile the code in order? */
	uint32_t at = 0;
	bool tiled = true;
	for (uint32_t i = 0; i < m->nkernels; i++) {
		if (m->kernels[i].code_start != at)
			tiled = false;
		at = m->kernels[i].code_end;
	}
	if (at != m->ninsns * WE_INST_SIZE)
		tiled = false;
	if (!tiled)
		sb_str(&b, "// note: the kernels' code ranges do not cover the code in order;\n"
			   "// this text does not re-assemble to the same layout\n");
	if (!m->nkernels)
		dis_range(&b, m, 0, m->ninsns * WE_INST_SIZE, false);
	for (uint32_t i = 0; i < m->nkernels; i++) {
		const we_kernel *k = &m->kernels[i];
		/* a binary image may name things the assembler cannot read */
		bool names_ok = asm_is_ident(k->name);
		for (unsigned p = 0; p < k->info.nparams && p < WE_MAX_PARAMS; p++)
			names_ok = names_ok && asm_is_ident(k->param_names[p]);
		if (!names_ok)
			sb_str(&b, "\n// note: a name of this kernel is not an assembler identifier\n"
				   "// ([A-Za-z_.][A-Za-z0-9_.$]*, not '.' and a digit); it does not re-assemble");
		sb_printf(&b, "\n.kernel %s\n", k->name ? k->name : "?");
		if (k->dialect != WE_DIALECT_TARGET)
			sb_printf(&b, "        .dialect %s\n", module_dialect_name(k->dialect));
		for (unsigned p = 0; p < k->info.nparams && p < WE_MAX_PARAMS; p++)
			dis_param(&b, &k->params[p], k->param_names[p],
				  p ? k->params[p - 1].offset + k->params[p - 1].size : 0);
		if (k->shared_bytes)
			sb_printf(&b, "        .shared 0x%" PRIx32 "\n", k->shared_bytes);
		if (k->local_bytes)
			sb_printf(&b, "        .local 0x%" PRIx32 "\n", k->local_bytes);
		if (k->trap_handler >= 0)
			sb_printf(&b, "        .trap_handler 0x%x\n", (unsigned)k->trap_handler);
		dis_range(&b, m, k->code_start, k->code_end, k->dialect == WE_DIALECT_PTX);
		sb_str(&b, ".end\n");
	}
	return sb_take(&b);
}
