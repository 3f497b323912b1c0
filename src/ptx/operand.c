/* operand.c — the lowering's types and operands (lower.h): PTX types
 * and modifiers, the virtual registers of PTX operands (32- and 64-bit
 * sources, special registers, predicates, destinations), operand counts, the normalised
 * form of 8- and 16-bit values, and the comparisons' names.  Below the
 * instruction families (lower_ops.c, lower_num.c), which all use it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lower.h"


static bool parse_type(const char *s, ptype *t)
{
	static const struct { const char *n; unsigned bits; char k; } tt[] = {
		{ "b8", 8, 'b' }, { "u8", 8, 'u' }, { "s8", 8, 's' },
		{ "b16", 16, 'b' }, { "u16", 16, 'u' }, { "s16", 16, 's' }, { "f16", 16, 'h' },
		{ "b32", 32, 'b' }, { "u32", 32, 'u' }, { "s32", 32, 's' }, { "f32", 32, 'f' },
		{ "b64", 64, 'b' }, { "u64", 64, 'u' }, { "s64", 64, 's' }, { "f64", 64, 'f' },
		{ "pred", 1, 'p' }, { "bf16", 16, 'h' }, { "f16x2", 32, 'h' }, { "bf16x2", 32, 'h' },
	};
	for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++)
		if (!strcmp(s, tt[i].n)) {
			t->bits = tt[i].bits;
			t->k = tt[i].k;
			return true;
		}
	return false;
}

ptype lx_type(const ptx_ins *in)
{
	ptype t = { 0, 0 };
	for (int i = 0; i < in->nmods; i++)
		parse_type(in->mods[i], &t);
	return t;
}

ptype lx_type_at(const ptx_ins *in, int which)
{
	ptype t = { 0, 0 };
	int k = 0;
	for (int i = 0; i < in->nmods; i++) {
		ptype u;
		if (parse_type(in->mods[i], &u) && k++ == which)
			return u;
	}
	return t;
}

static uint32_t f64_to_f32_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, 8);
	float f = (float)d;
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* the device address of .global variable slot `slot` (lower.h,
 * PTX_GLOBAL_ADDR_BANK): a pair */
int lx_global_addr(lx *x, uint64_t slot)
{
	int t = lx_tmp(x, RC_64);
	emit(x, "dr", V(t), "MOV $0, c[0x%x][0x%" PRIx64 "]", PTX_GLOBAL_ADDR_BANK, 8 * slot);
	emit(x, "dh", V(t), "MOV $0, c[0x%x][0x%" PRIx64 "]", PTX_GLOBAL_ADDR_BANK, 8 * slot + 4);
	return t;
}

/* the address of a .local variable of a function: in its frame, SP +
 * offset (call.c); a vreg (a pair when wide) */
static int frame_addr(lx *x, uint64_t off, bool wide)
{
	int t = lx_tmp(x, wide ? RC_64 : RC_32);
	emit(x, "dr", V(t), "IADD3 $0, R250, %" PRIu64 ", RZ", off);
	if (wide)
		emit(x, "dh", V(t), "MOV $0, RZ");
	return t;
}

int lx_src32(lx *x, const ptx_opnd *o, char *buf, size_t n)
{
	switch (o->kind) {
	case PO_REG:
		if (x->f->regs[o->reg].rc == RC_PRED) {
			lx_error(x, o, "a predicate is not a value here");
			return lx_tmp(x, RC_32);
		}
		return lx_reg(x, o->reg);
	case PO_IMM:
		snprintf(buf, n, "%" PRId32, (int32_t)(uint32_t)o->imm);
		return -1;
	case PO_FIMM:
		snprintf(buf, n, "0x%08" PRIx32, o->f64 ? f64_to_f32_bits(o->fbits) : (uint32_t)o->fbits);
		return -1;
	case PO_SREG:
		return lx_sreg(x, o, false);
	case PO_SYM: {
		ptx_space sp;
		uint64_t a;
		if (lx_var_addr(x, o->sym, &sp, &a)) {
			if (sp == VS_LOCAL && !x->f->is_entry)
				return frame_addr(x, a + (uint64_t)o->imm, false);
			if (sp == VS_GLOBAL) {
				lx_unsupported(x, "a 32-bit address of a .global variable");
				return lx_tmp(x, RC_32);
			}
			snprintf(buf, n, "%" PRIu64, a + (uint64_t)o->imm);
			return -1;
		}
		lx_error(x, o, "'%s' is not a variable of the kernel", o->sym);
		return lx_tmp(x, RC_32);
	}
	default:
		lx_error(x, o, "expected a register or an immediate");
		return lx_tmp(x, RC_32);
	}
}

int lx_reg32(lx *x, const ptx_opnd *o)
{
	char b[32];
	int v = lx_src32(x, o, b, sizeof b);
	if (v >= 0)
		return v;
	int t = lx_tmp(x, RC_32);
	emit(x, "dr", V(t), "MOV $0, %s", b);
	return t;
}

/* a 64-bit source: a vreg, or -1 with the low and high words in lo/hi */
int lx_src64(lx *x, const ptx_opnd *o, char *lo, char *hi, size_t n)
{
	if (o->kind == PO_REG) {
		if (x->f->regs[o->reg].rc != RC_64) {
			lx_error(x, o, "expected a 64-bit register");
			return lx_tmp(x, RC_64);
		}
		return lx_reg(x, o->reg);
	}
	uint64_t v;
	if (o->kind == PO_IMM) {
		v = (uint64_t)o->imm;
	} else if (o->kind == PO_FIMM) {
		v = o->f64 ? o->fbits : o->fbits;
	} else if (o->kind == PO_SREG) {
		return lx_sreg(x, o, true);
	} else if (o->kind == PO_SYM) {
		ptx_space sp;
		if (!lx_var_addr(x, o->sym, &sp, &v)) {
			lx_error(x, o, "'%s' is not a variable of the kernel", o->sym);
			return lx_tmp(x, RC_64);
		}
		if (sp == VS_GLOBAL) {
			if (o->imm)
				lx_unsupported(x, "the address of a .global variable plus an offset");
			return lx_global_addr(x, v);
		}
		v += (uint64_t)o->imm;
		if (sp == VS_LOCAL && !x->f->is_entry)
			return frame_addr(x, v, true);
	} else {
		lx_error(x, o, "expected a 64-bit register or an immediate");
		return lx_tmp(x, RC_64);
	}
	snprintf(lo, n, "%" PRId32, (int32_t)(uint32_t)v);
	snprintf(hi, n, "%" PRId32, (int32_t)(uint32_t)(v >> 32));
	return -1;
}

int lx_reg64(lx *x, const ptx_opnd *o)
{
	char lo[32], hi[32];
	int v = lx_src64(x, o, lo, hi, sizeof lo);
	if (v >= 0)
		return v;
	int t = lx_tmp(x, RC_64);
	emit(x, "dr", V(t), "MOV $0, %s", lo);
	emit(x, "dh", V(t), "MOV $0, %s", hi);
	return t;
}

int lx_pred(lx *x, const ptx_opnd *o, bool *neg)
{
	*neg = o->neg;
	if (o->kind == PO_REG && x->f->regs[o->reg].rc == RC_PRED)
		return lx_reg(x, o->reg);
	if (o->kind == PO_IMM) {
		/* a constant predicate: PT or !PT through a temp */
		int t = lx_tmp(x, RC_PRED);
		emit(x, "dp", V(t), "ISETP.NE.AND $0, PT, RZ, %d, PT", o->imm ? 1 : 0);
		return t;
	}
	lx_error(x, o, "expected a predicate");
	return lx_tmp(x, RC_PRED);
}

int lx_dst(lx *x, const ptx_opnd *o, ptx_rclass rc)
{
	if (o->kind != PO_REG) {
		lx_error(x, o, "expected a destination register");
		return -1;
	}
	if (x->f->regs[o->reg].rc != rc) {
		lx_error(x, o, "destination register %s has the wrong type for this instruction",
			 x->f->regs[o->reg].name);
		return -1;
	}
	return lx_reg(x, o->reg);
}

bool lx_nops(lx *x, int lo, int hi)
{
	if (x->in->no < lo || x->in->no > hi) {
		lx_error(x, NULL, "'%s' takes %d%s%d operands, not %d", x->in->op, lo, lo == hi ? "" : " to ",
			 hi, x->in->no);
		if (lo == hi)
			return false;
		return false;
	}
	return true;
}

/* a 32-bit register holding the value of a narrow register normalised to
 * its type (zero- or sign-extended from bits), or v itself */
int lx_norm(lx *x, int v, ptype t)
{
	if (t.bits >= 32 || t.bits == 0)
		return v;
	int r = lx_tmp(x, RC_32);
	if (t.k == 's')
		emit(x, "dr ur", V(r, v), "PRMT $0, $1, %s, RZ", t.bits == 8 ? "0x8880" : "0x9910");
	else
		emit(x, "dr ur", V(r, v), "LOP3.LUT $0, $1, %s, RZ, 0xc0, !PT", t.bits == 8 ? "0xff" : "0xffff");
	return r;
}

/* ---- special registers ------------------------------------------------------- */

int lx_sreg(lx *x, const ptx_opnd *o, bool want64)
{
	static const struct { const char *ptx, *sr; bool varying; } map[] = {
		{ "tid.x", "SR_TID.X", 1 }, { "tid.y", "SR_TID.Y", 1 }, { "tid.z", "SR_TID.Z", 1 },
		{ "ntid.x", "SR_NTID.X", 0 }, { "ntid.y", "SR_NTID.Y", 0 }, { "ntid.z", "SR_NTID.Z", 0 },
		{ "ctaid.x", "SR_CTAID.X", 0 }, { "ctaid.y", "SR_CTAID.Y", 0 }, { "ctaid.z", "SR_CTAID.Z", 0 },
		{ "nctaid.x", "SR_NCTAID.X", 0 }, { "nctaid.y", "SR_NCTAID.Y", 0 },
		{ "nctaid.z", "SR_NCTAID.Z", 0 }, { "laneid", "SR_LANEID", 1 }, { "warpid", "SR_WARPID", 1 },
		{ "nwarpid", "SR_NWARPS", 0 }, { "lanemask_eq", "SR_EQMASK", 1 },
		{ "lanemask_lt", "SR_LTMASK", 1 }, { "lanemask_le", "SR_LEMASK", 1 },
		{ "lanemask_gt", "SR_GTMASK", 1 }, { "lanemask_ge", "SR_GEMASK", 1 },
		{ "clock", "SR_CLOCKLO", 1 }, { "clock_hi", "SR_CLOCKHI", 1 },
		{ "globaltimer_lo", "SR_GLOBALTIMERLO", 1 }, { "globaltimer_hi", "SR_GLOBALTIMERHI", 1 },
		{ "dynamic_smem_size", "SR_DYNSMEM", 0 },
	};
	const char *s = o->sym;
	if (!strcmp(s, "clock64") || !strcmp(s, "globaltimer")) {
		int t = lx_tmp(x, RC_64);
		x->varying_next = 1;
		emit(x, "dw", V(t), "CS2R $0, %s", s[0] == 'c' ? "SR_CLOCKLO" : "SR_GLOBALTIMERLO");
		return t;
	}
	int t = lx_tmp(x, want64 ? RC_64 : RC_32);
	if (!strcmp(s, "smid") || !strcmp(s, "gridid")) {
		/* one SM: every CTA runs on SM 0; one grid at a time */
		emit(x, "dr", V(t), "MOV $0, 0");
	} else if (!strcmp(s, "nsmid")) {
		emit(x, "dr", V(t), "MOV $0, 1");
	} else {
		size_t i = 0;
		while (i < sizeof map / sizeof map[0] && strcmp(map[i].ptx, s))
			i++;
		if (i == sizeof map / sizeof map[0]) {
			lx_unsupported(x, "special register not supported");
			return t;
		}
		if (map[i].varying)
			x->varying_next = 1;
		emit(x, "dr", V(t), "S2R $0, %s", map[i].sr);
	}
	if (want64)
		emit(x, "dh", V(t), "MOV $0, 0");
	return t;
}

/* d, a, b, c of the instruction (32-bit; c a register or an immediate)
 * as MNEM d, a, c, b: c in the ISA's Rb/immediate slot, b in Rc (the
 * four-operand form of PRMT and SHF). */
void lx_emit_dacb(lx *x, const char *mnem)
{
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	char c[32];
	int cv = lx_src32(x, &o[3], c, sizeof c);
	if (d < 0)
		return;
	if (cv >= 0)
		emit(x, "dr ur ur ur", V(d, a, cv, b), "%s $0, $1, $2, $3", mnem);
	else
		emit(x, "dr ur ur", V(d, a, b), "%s $0, $1, %s, $2", mnem, c);
}

const char *lx_fcmp(const char *c)
{
	static const char *const m[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
					 "leu", "gtu", "geu", "num", "nan" };
	static const char *const u[] = { "EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU",
					 "LEU", "GTU", "GEU", "NUM", "NAN" };
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(c, m[i]))
			return u[i];
	return NULL;
}
