/* match.c — maps one parsed instruction statement onto the ISA tables.
 *
 * The mnemonic selects the opcodes ("forms") that share it; they are tried
 * in table order.  For a form, every dotted modifier must be a value of
 * exactly one of its `mods` enum fields, and the operands are matched
 * against its Order<> (the guard pg excluded) kind by kind, with
 * backtracking: an operand field that has a default may be left out
 * anywhere.  The first form whose modifiers and operands fit and that
 * passes isa_check() wins; otherwise the most specific error is reported.
 * Nothing here is specific to an instruction.
 */
#include "asm/asm_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum fclass { FC_REG, FC_UREG, FC_PRED, FC_UPRED, FC_ENUM, FC_IMM, FC_FIMM,
	      FC_CMEM, FC_MEM, FC_CIND, FC_N };

static const char *const fclass_name[FC_N] = {
	"register", "uniform register", "predicate", "uniform predicate", "name",
	"immediate", "float immediate", "constant c[bank][offset]",
	"address [Ra+offset]", "constant c[bank][Ra+offset]",
};

#define MAX_MODS 16
#define MAX_FIELDS 64

/* Errors gathered over every form of the mnemonic. */
typedef struct merr {
	int score;             /* best value/count/check error so far       */
	uint32_t col;
	char msg[ASM_MSG];
	int kpos;              /* furthest operand with a kind mismatch     */
	unsigned kmask;        /* classes expected there                    */
	int kenum;             /* an enum expected there                    */
	char kgot[96];
	uint32_t kcol;
	bool have_mod;
	uint32_t mcol;
	char mmsg[ASM_MSG];
} merr;

typedef struct mstate {
	asm_ctx *c;
	const isa_opcode *o;
	const operand *ops;
	int nops;
	we_insn in;
	int nf;
	int fl[MAX_FIELDS];
} mstate;

static void note(merr *me, int score, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void note(merr *me, int score, uint32_t col, const char *fmt, ...)
{
	if (score <= me->score)
		return;
	me->score = score;
	me->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(me->msg, sizeof me->msg, fmt, ap);
	va_end(ap);
}

static void note_mod(merr *me, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void note_mod(merr *me, uint32_t col, const char *fmt, ...)
{
	if (me->have_mod)
		return;
	me->have_mod = true;
	me->mcol = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(me->mmsg, sizeof me->mmsg, fmt, ap);
	va_end(ap);
}

/* ---- mnemonics ---------------------------------------------------------- */

bool asm_plain_word(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++) {
		char ch = *s;
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.'))
			return false;
	}
	return true;
}

const char *asm_mnemonic(const isa_opcode *o)
{
	if (asm_plain_word(o->mnemonic))
		return o->mnemonic;
	if (asm_plain_word(o->alt_mnemonic))
		return o->alt_mnemonic;
	return o->name;
}

static bool word_eq(const char *w, const char *s, size_t n)
{
	return w && strlen(w) == n && !memcmp(w, s, n);
}

void asm_mnemonic_table(asm_ctx *c)
{
	for (int i = 0; i < ISA_NUM_OPCODES; i++) {
		const isa_opcode *o = &isa_opcodes[i];
		c->mn[i][0] = asm_mnemonic(o);
		c->mn[i][1] = asm_plain_word(o->alt_mnemonic) ? o->alt_mnemonic : NULL;
		for (int k = 0; k < 2; k++)
			c->mnlen[i][k] = c->mn[i][k] ? strlen(c->mn[i][k]) : 0;
	}
}

static bool has_mnemonic(const asm_ctx *c, int i, const char *s, size_t n)
{
	for (int k = 0; k < 2; k++)
		if (n && c->mn[i][k] && c->mnlen[i][k] == n && c->mn[i][k][0] == s[0] &&
		    !memcmp(c->mn[i][k], s, n))
			return true;
	return false;
}

/* ---- fields ------------------------------------------------------------- */

static int field_class(const isa_opcode *o, int fi)
{
	const isa_asmfmt *a = &o->asmfmt[fi];
	if (a->cmem_bank >= 0)
		return FC_CIND;
	if (a->mem_off >= 0)
		return FC_MEM;
	switch (o->fields[fi].kind) {
	case ISA_K_REG: return FC_REG;
	case ISA_K_UREG: return FC_UREG;
	case ISA_K_PRED: return FC_PRED;
	case ISA_K_UPRED: return FC_UPRED;
	case ISA_K_ENUM: return FC_ENUM;
	case ISA_K_UIMM:
	case ISA_K_SIMM: return FC_IMM;
	case ISA_K_FIMM: return FC_FIMM;
	case ISA_K_CMEM: return FC_CMEM;
	default: return -1;
	}
}

static int enum_index(int eid, const char *s, size_t n)
{
	if (eid < 0 || eid >= ISA_NUM_ENUMS)
		return -1;
	const isa_enum *e = &isa_enums[eid];
	for (unsigned v = 0; v < e->nvalues; v++)
		if (word_eq(e->values[v], s, n))
			return (int)v;
	return -1;
}

/* the modifier field (NOT/BITNOT/NEG/ABS) of operand field fi, or -1 */
static int mod_field(const isa_opcode *o, int fi, unsigned kind)
{
	for (int j = 0; j < o->nfields; j++)
		if (o->fields[j].base == fi && o->fields[j].kind == kind)
			return j;
	return -1;
}

static void set_field(mstate *ms, int fi, int64_t v)
{
	const isa_field *f = &ms->o->fields[fi];
	if (f->member >= 0)
		isa_insn_set(&ms->in, f->member, v);
}

static int64_t get_field(const we_insn *in, const isa_field *f)
{
	return f->member >= 0 ? isa_insn_get(in, f->member) : f->value;
}

static void field_range(const isa_field *f, int64_t *lo, int64_t *hi)
{
	unsigned w = f->width;
	if (w >= 64) {
		*lo = INT64_MIN;
		*hi = INT64_MAX;
	} else if (w == 32) {
		*lo = INT32_MIN;
		*hi = (int64_t)UINT32_MAX;
	} else if (f->kind == ISA_K_SIMM) {
		*lo = -((int64_t)1 << (w - 1));
		*hi = ((int64_t)1 << (w - 1)) - 1;
	} else {
		*lo = 0;
		*hi = ((int64_t)1 << w) - 1;
	}
}

static void type_name(const isa_field *f, char *buf, size_t n)
{
	snprintf(buf, n, "%s%u", f->kind == ISA_K_SIMM ? "SImm" : "UImm", (unsigned)f->width);
}

/* ---- operand descriptions ----------------------------------------------- */

static void describe(const asm_ctx *c, const operand *op, char *buf, size_t n)
{
	switch (op->kind) {
	case O_REG: snprintf(buf, n, "register"); break;
	case O_UREG: snprintf(buf, n, "uniform register"); break;
	case O_PRED: snprintf(buf, n, "predicate"); break;
	case O_UPRED: snprintf(buf, n, "uniform predicate"); break;
	case O_MEM: snprintf(buf, n, "address"); break;
	case O_CMEM: snprintf(buf, n, "constant"); break;
	case O_EXPR: {
		const enode *e = &c->nodes[op->expr];
		if (e->op == E_NAME)
			snprintf(buf, n, "'%.*s'", (int)(e->n > 48 ? 48 : e->n), e->s);
		else
			snprintf(buf, n, "immediate");
		break;
	}
	default: snprintf(buf, n, "operand"); break;
	}
}

static void note_kind(merr *me, const asm_ctx *c, int pos, int cls, int eid,
		      const operand *op, uint32_t col)
{
	if (cls < 0)
		return;
	if (pos > me->kpos) {
		me->kpos = pos;
		me->kmask = 0;
		me->kenum = -1;
		me->kcol = col;
		if (op)
			describe(c, op, me->kgot, sizeof me->kgot);
		else
			me->kgot[0] = 0;
	}
	if (pos == me->kpos) {
		me->kmask |= 1u << cls;
		if (cls == FC_ENUM && me->kenum < 0)
			me->kenum = eid;
	}
}

/* error on operand pos; returns -1 */
static int verr(merr *me, int pos, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static int verr(merr *me, int pos, uint32_t col, const char *fmt, ...)
{
	if (4 * pos + 3 <= me->score)
		return -1;
	char tmp[ASM_MSG];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	note(me, 4 * pos + 3, col, "operand %d: %s", pos + 1, tmp);
	return -1;
}

/* ---- values ------------------------------------------------------------- */

/* Convert the written value of immediate field fi to its encoding, applying
 * AsmFormat (PC-relative target, shift) and the field's range. */
static int imm_value(mstate *ms, merr *me, int fi, int pos, uint32_t col,
		     const evalue *ev, int64_t *out)
{
	const isa_opcode *o = ms->o;
	const isa_field *f = &o->fields[fi];
	const isa_asmfmt *af = &o->asmfmt[fi];
	char tn[24], hx[40], lo_s[40], hi_s[40];
	type_name(f, tn, sizeof tn);
	asm_fmt_hex(hx, sizeof hx, ev->v);
	if (ev->huge)
		return verr(me, pos, col, "value 0x%" PRIx64 " out of range for %s", (uint64_t)ev->v, tn);
	bool pcrel = af->pcrel;
	if (!pcrel && af->pcrel_if_field >= 0 && af->pcrel_if_field < o->nfields)
		pcrel = get_field(&ms->in, &o->fields[af->pcrel_if_field]) == af->pcrel_if_value;
	unsigned sh = f->asm_shift < 63 ? f->asm_shift : 62;
	int64_t unit = (int64_t)1 << sh;
	int64_t v = ev->v;
	if (pcrel) {
		int64_t next = (int64_t)(ms->c->stmt_pc + WE_INST_SIZE);
		if ((v < 0 && next > INT64_MAX + v) || v > (INT64_MAX >> 1))
			return verr(me, pos, col, "branch target %s out of range", hx);
		int64_t d = v - next;
		if (d % unit)
			return verr(me, pos, col, "unaligned branch target %s (must be a multiple of %" PRId64 ")",
				    hx, unit);
		v = d / unit;
	} else if (sh) {
		if (v % unit)
			return verr(me, pos, col, "%s is not a multiple of %" PRId64, hx, unit);
		v /= unit;
	}
	int64_t lo, hi;
	field_range(f, &lo, &hi);
	if (v < lo || v > hi) {
		if (pcrel)
			return verr(me, pos, col, "branch target %s out of range (offset does not fit %s)", hx, tn);
		int64_t slo = lo, shi = hi;
		if (sh && lo > INT64_MIN / unit && hi < INT64_MAX / unit) {
			slo = lo * unit;
			shi = hi * unit;
		}
		asm_fmt_hex(lo_s, sizeof lo_s, slo);
		asm_fmt_hex(hi_s, sizeof hi_s, shi);
		return verr(me, pos, col, "immediate %s out of range for %s (%s..%s)", hx, tn, lo_s, hi_s);
	}
	if (f->width < 64) {
		uint64_t mask = (UINT64_C(1) << f->width) - 1;
		uint64_t u = (uint64_t)v & mask;
		if (f->kind == ISA_K_SIMM && (u >> (f->width - 1)) & 1)
			v = (int64_t)(u | ~mask);
		else
			v = (int64_t)u;
	}
	*out = v;
	return 1;
}

static int eval_op(mstate *ms, merr *me, int pos, int node, evalue *ev)
{
	xerr e;
	if (!asm_eval(ms->c, node, ev, &e))
		return verr(me, pos, e.col, "%s", e.msg);
	return 1;
}

/* The name of the size modifier register field fi's span follows
 * (Bitwidth<x> = size: ".64"), or NULL. */
static const char *span_modifier(const mstate *ms, int fi)
{
	const isa_field *f = &ms->o->fields[fi];
	if (f->span_by < 0)
		return NULL;
	const isa_field *s = &ms->o->fields[f->span_by];
	int64_t v = get_field(&ms->in, s);
	return v >= 0 && (uint64_t)v < isa_enums[s->enum_id].nvalues ? isa_enums[s->enum_id].values[v] : NULL;
}

static int reg_value(mstate *ms, merr *me, int fi, int pos, const regref *r, uint32_t col,
		     bool addr)
{
	const isa_field *f = &ms->o->fields[fi];
	const char *size = span_modifier(ms, fi);
	unsigned want = isa_reg_span(&ms->in, (unsigned)fi);
	if (r->range && r->count != want && size)
		return verr(me, pos, col, "a %u-bit operand (.%s) takes %u register%s, not %u",
			    want * 32u, size, want, want == 1 ? "" : "s", r->count);
	if (r->range && r->count != want)
		return verr(me, pos, col, "a %u-bit operand takes %u register%s, not %u",
			    want * 32u, want, want == 1 ? "" : "s", r->count);
	if (r->dot64 && (!addr || f->bitwidth != 64))
		return verr(me, pos, col, "'.64' is only written on a 64-bit address register");
	set_field(ms, fi, r->num);
	return 1;
}

/* Whether operand op is of the kind field fi's class takes; for an
 * enum, its value's index in *ev_idx. */
static bool operand_fits(const mstate *ms, int fi, int cls, const operand *op, int *ev_idx)
{
	const asm_ctx *c = ms->c;
	switch (cls) {
	case FC_REG: return op->kind == O_REG;
	case FC_UREG: return op->kind == O_UREG;
	case FC_PRED: return op->kind == O_PRED;
	case FC_UPRED: return op->kind == O_UPRED;
	case FC_ENUM:
		if (op->kind != O_EXPR || c->nodes[op->expr].op != E_NAME)
			return false;
		*ev_idx = enum_index(ms->o->fields[fi].enum_id, c->nodes[op->expr].s, c->nodes[op->expr].n);
		return *ev_idx >= 0;
	case FC_IMM:
	case FC_FIMM: return op->kind == O_EXPR;
	case FC_CMEM: return op->kind == O_CMEM && op->bank >= 0 && !op->has_base;
	case FC_MEM: return op->kind == O_MEM;
	case FC_CIND: return op->kind == O_CMEM;
	default: return false;
	}
}

/* A float immediate: a float literal or expression, or a 32-bit pattern. */
static int assign_float(mstate *ms, merr *me, int fi, int pos)
{
	const operand *op = &ms->ops[pos];
	uint32_t bits;
	xerr e;
	int k = asm_float_expr(ms->c, op->expr, &bits, &e);
	if (k < 0)
		return verr(me, pos, e.col, "%s", e.msg);
	if (k == 0) {
		evalue ev;
		if (eval_op(ms, me, pos, op->expr, &ev) < 0)
			return -1;
		if (ev.huge || ev.v < INT32_MIN || ev.v > (int64_t)UINT32_MAX)
			return verr(me, pos, op->col, "float bit pattern out of range (32 bits)");
		bits = (uint32_t)ev.v;
	}
	set_field(ms, fi, bits);
	return 1;
}

/* c[bank][offset] */
static int assign_cmem(mstate *ms, merr *me, int fi, int pos)
{
	const asm_ctx *c = ms->c;
	const isa_field *f = &ms->o->fields[fi];
	const operand *op = &ms->ops[pos];
	evalue bk, of;
	if (eval_op(ms, me, pos, op->bank, &bk) < 0 || eval_op(ms, me, pos, op->off, &of) < 0)
		return -1;
	int64_t maxbank = f->width > 16 ? ((int64_t)1 << (f->width - 16)) - 1 : 0;
	if (bk.huge || bk.v < 0 || bk.v > maxbank)
		return verr(me, pos, c->nodes[op->bank].col,
			    "constant bank %" PRId64 " out of range (0..%" PRId64 ")", bk.v, maxbank);
	if (of.huge || of.v < 0 || of.v > 0xffff)
		return verr(me, pos, c->nodes[op->off].col, "constant offset out of range (0..0xffff)");
	set_field(ms, fi, (bk.v << 16) | of.v);
	return 1;
}

/* The bank of c[bank][Ra+offset] (FC_CIND): written, or that of the
 * constant-section labels in the offset (bank_src; -2: of several). */
static int assign_cind_bank(mstate *ms, merr *me, int fi, int pos, int bank_src)
{
	const asm_ctx *c = ms->c;
	const isa_asmfmt *af = &ms->o->asmfmt[fi];
	const operand *op = &ms->ops[pos];
	evalue bk;
	int64_t v;
	uint32_t bcol = op->col;
	if (op->bank >= 0) {
		if (eval_op(ms, me, pos, op->bank, &bk) < 0)
			return -1;
		bcol = c->nodes[op->bank].col;
	} else if (bank_src >= 0) {
		bk = (evalue){ bank_src, false, -1 };
	} else if (bank_src == -2) {
		return verr(me, pos, op->col, "the offset uses labels of different constant banks");
	} else {
		return verr(me, pos, op->col,
			    "c[Ra+offset] without a bank: write c[bank][Ra+offset] or use a "
			    "label of a constant section in the offset");
	}
	if (imm_value(ms, me, af->cmem_bank, pos, bcol, &bk, &v) < 0)
		return -1;
	set_field(ms, af->cmem_bank, v);
	return 1;
}

/* [Ra+offset] and c[bank][Ra+offset] */
static int assign_mem(mstate *ms, merr *me, int fi, int pos, int cls)
{
	const asm_ctx *c = ms->c;
	const isa_field *f = &ms->o->fields[fi];
	const isa_asmfmt *af = &ms->o->asmfmt[fi];
	const operand *op = &ms->ops[pos];
	bool ureg = f->kind == ISA_K_UREG;
	if (op->has_base) {
		if ((op->r.kind == O_UREG) != ureg)
			return verr(me, pos, op->col, "the address register must be %s",
				    ureg ? "a uniform register (URn)" : "a register (Rn)");
		if (reg_value(ms, me, fi, pos, &op->r, op->col, true) < 0)
			return -1;
	} else {
		set_field(ms, fi, ureg ? ISA_UREG_URZ : ISA_REG_RZ);
	}
	int bank_src = -1;
	if (op->off >= 0) {
		evalue ev;
		int64_t v;
		if (eval_op(ms, me, pos, op->off, &ev) < 0)
			return -1;
		bank_src = ev.bank;
		if (af->mem_off >= 0) {
			if (imm_value(ms, me, af->mem_off, pos, c->nodes[op->off].col, &ev, &v) < 0)
				return -1;
			set_field(ms, af->mem_off, v);
		}
	} else if (af->mem_off >= 0) {
		set_field(ms, af->mem_off, 0);
	}
	return cls == FC_CIND ? assign_cind_bank(ms, me, fi, pos, bank_src) : 1;
}

/* 1 matched, 0 wrong kind (noted), -1 bad value (noted) */
static int assign(mstate *ms, merr *me, int fi, int pos)
{
	const isa_opcode *o = ms->o;
	const operand *op = &ms->ops[pos];
	int cls = field_class(o, fi);
	int ev_idx = -1;
	if (!operand_fits(ms, fi, cls, op, &ev_idx)) {
		note_kind(me, ms->c, pos, cls, o->fields[fi].enum_id, op, op->col);
		return 0;
	}
	/* prefixes: each needs the matching modifier field of this operand */
	const struct { bool on; unsigned kind; const char *txt; } pf[4] = {
		{ op->p_not, ISA_K_NOT, "'!'" }, { op->p_bitnot, ISA_K_BITNOT, "'~'" },
		{ op->p_neg, ISA_K_NEG, "'-'" }, { op->p_abs, ISA_K_ABS, "'|...|'" },
	};
	for (int k = 0; k < 4; k++) {
		int mf = mod_field(o, fi, pf[k].kind);
		if (pf[k].on && mf < 0)
			return verr(me, pos, op->col, "%s is not allowed on this operand", pf[k].txt);
		if (mf >= 0)
			set_field(ms, mf, pf[k].on ? 1 : 0);
	}
	evalue ev;
	int64_t v;
	switch (cls) {
	case FC_REG:
	case FC_UREG:
		return reg_value(ms, me, fi, pos, &op->r, op->col, false);
	case FC_PRED:
	case FC_UPRED:
		set_field(ms, fi, op->r.num);
		return 1;
	case FC_ENUM:
		set_field(ms, fi, ev_idx);
		return 1;
	case FC_IMM:
		if (eval_op(ms, me, pos, op->expr, &ev) < 0 ||
		    imm_value(ms, me, fi, pos, op->col, &ev, &v) < 0)
			return -1;
		set_field(ms, fi, v);
		return 1;
	case FC_FIMM:
		return assign_float(ms, me, fi, pos);
	case FC_CMEM:
		return assign_cmem(ms, me, fi, pos);
	case FC_MEM:
	case FC_CIND:
		return assign_mem(ms, me, fi, pos, cls);
	default:
		return 0;
	}
}

static bool dfs(mstate *ms, merr *me, int k, int pos)
{
	if (k == ms->nf) {
		if (pos == ms->nops)
			return true;
		note(me, 4 * pos + 1, ms->ops[pos].col, "operand %d: too many operands", pos + 1);
		return false;
	}
	int fi = ms->fl[k];
	const isa_field *f = &ms->o->fields[fi];
	/* every field after k is at its default here; a failed attempt is
	 * undone by restoring the instruction */
	if (pos < ms->nops) {
		we_insn saved = ms->in;
		int r = assign(ms, me, fi, pos);
		if (r > 0 && dfs(ms, me, k + 1, pos + 1))
			return true;
		ms->in = saved;
	} else if (!f->has_default) {
		note_kind(me, ms->c, pos, field_class(ms->o, fi), f->enum_id, NULL, 0);
	}
	if (f->has_default)
		return dfs(ms, me, k + 1, pos);
	return false;
}

/* ---- modifiers ------------------------------------------------------------ */

typedef struct modtxt {
	const char *s;
	size_t n;
	uint32_t col;
} modtxt;

static void list_mod_values(const isa_opcode *o, int only_field, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int m = 0; m < o->nmods; m++) {
		int fi = o->mods[m];
		if (fi < 0 || (only_field >= 0 && fi != only_field))
			continue;
		const isa_enum *e = &isa_enums[o->fields[fi].enum_id];
		for (unsigned v = 0; v < e->nvalues; v++) {
			if (!e->values[v])
				continue;
			int k = snprintf(buf + len, n - len, "%s.%s", len ? ", " : "", e->values[v]);
			if (k < 0 || (size_t)k >= n - len) {
				if (n > 4)
					strcpy(buf + n - 4, "...");
				return;
			}
			len += (size_t)k;
		}
	}
}

static bool apply_mods(mstate *ms, merr *me, const modtxt *mods, int nm, uint32_t mcol,
		       const char *mn)
{
	const isa_opcode *o = ms->o;
	int setby[MAX_FIELDS];
	for (int i = 0; i < MAX_FIELDS; i++)
		setby[i] = -1;
	char list[200];
	for (int i = 0; i < nm; i++) {
		const modtxt *t = &mods[i];
		if (!t->n) {
			note_mod(me, t->col, "empty modifier in '%s'", mn);
			return false;
		}
		int hit = -1, hits = 0, val = -1;
		for (int m = 0; m < o->nmods; m++) {
			int fi = o->mods[m];
			if (fi < 0 || fi >= o->nfields)
				continue;
			int v = enum_index(o->fields[fi].enum_id, t->s, t->n);
			if (v >= 0) {
				hits++;
				hit = fi;
				val = v;
			}
		}
		if (!hits) {
			list_mod_values(o, -1, list, sizeof list);
			if (list[0])
				note_mod(me, t->col, "unknown modifier '.%.*s' for %s (expected %s)",
					 (int)(t->n > 40 ? 40 : t->n), t->s, mn, list);
			else
				note_mod(me, t->col, "unknown modifier '.%.*s': %s takes no modifiers",
					 (int)(t->n > 40 ? 40 : t->n), t->s, mn);
			return false;
		}
		if (hits > 1) {
			note_mod(me, t->col, "ambiguous modifier '.%.*s' for %s",
				 (int)(t->n > 40 ? 40 : t->n), t->s, mn);
			return false;
		}
		if (hit < MAX_FIELDS && setby[hit] >= 0) {
			const modtxt *p = &mods[setby[hit]];
			note_mod(me, t->col, "modifier '.%.*s' conflicts with '.%.*s'",
				 (int)(t->n > 40 ? 40 : t->n), t->s, (int)(p->n > 40 ? 40 : p->n), p->s);
			return false;
		}
		if (hit < MAX_FIELDS)
			setby[hit] = i;
		set_field(ms, hit, val);
	}
	for (int m = 0; m < o->nmods; m++) {
		int fi = o->mods[m];
		if (fi < 0 || fi >= o->nfields || fi >= MAX_FIELDS)
			continue;
		if (setby[fi] < 0 && !o->fields[fi].has_default) {
			list_mod_values(o, fi, list, sizeof list);
			note_mod(me, mcol, "missing modifier for %s: expected one of %s", mn, list);
			return false;
		}
	}
	return true;
}

/* ---- the statement ---------------------------------------------------------- */

static bool is_guard(const isa_opcode *o)
{
	return o->norder > 0 && o->order[0] >= 0 && o->order[0] < o->nfields &&
	       o->fields[o->order[0]].kind == ISA_K_PRED &&
	       !strcmp(o->fields[o->order[0]].name, "pg");
}

static void report(asm_ctx *c, merr *me, uint32_t mcol, uint32_t ecol)
{
	int kscore = me->kmask ? 4 * me->kpos + 2 : -1;
	if (me->score < 0 && kscore < 0) {
		if (me->have_mod)
			asm_err(c, me->mcol, "%s", me->mmsg);
		else
			asm_err(c, mcol, "invalid instruction");
		return;
	}
	if (me->score >= kscore) {
		asm_err(c, me->col, "%s", me->msg);
		return;
	}
	char exp[400];
	size_t len = 0;
	exp[0] = 0;
	unsigned n = 0, total = 0;
	for (int k = 0; k < FC_N; k++)
		total += (me->kmask >> k) & 1u;
	for (int k = 0; k < FC_N; k++) {
		if (!((me->kmask >> k) & 1u))
			continue;
		char item[200];
		if (k == FC_ENUM && me->kenum >= 0) {
			const isa_enum *e = &isa_enums[me->kenum];
			size_t il = (size_t)snprintf(item, sizeof item, "%s (", e->name);
			unsigned shown = 0;
			for (unsigned v = 0; v < e->nvalues && il < sizeof item; v++) {
				if (!e->values[v])
					continue;
				if (shown == 4) {
					il += (size_t)snprintf(item + il, sizeof item - il, ", ...");
					break;
				}
				il += (size_t)snprintf(item + il, sizeof item - il, "%s%s", shown ? ", " : "",
						       e->values[v]);
				shown++;
			}
			if (il < sizeof item)
				snprintf(item + il, sizeof item - il, ")");
		} else {
			snprintf(item, sizeof item, "%s", fclass_name[k]);
		}
		n++;
		const char *sep = n == 1 ? "" : n == total ? " or " : ", ";
		int w = snprintf(exp + len, sizeof exp - len, "%s%s", sep, item);
		if (w > 0 && (size_t)w < sizeof exp - len)
			len += (size_t)w;
	}
	if (me->kgot[0])
		asm_err(c, me->kcol, "operand %d: expected %s, got %s", me->kpos + 1, exp, me->kgot);
	else
		asm_err(c, ecol, "missing operand %d: expected %s", me->kpos + 1, exp);
}

/* The guard of a statement: "@{!}Pn" (none: *has false). */
typedef struct guard_txt {
	bool has, neg;
	regref r;
	uint32_t col;
} guard_txt;

static bool parse_guard(pcur *p, guard_txt *g)
{
	asm_ctx *c = p->c;
	memset(g, 0, sizeof *g);
	if (!tok_is(p, '@'))
		return true;
	g->col = tok_cur(p)->col;
	p->i++;
	if (tok_is(p, '!')) {
		g->neg = true;
		p->i++;
	}
	xerr e;
	int k = asm_reg_name(tok_cur(p), &g->r, &e);
	if (k < 0) {
		asm_err(c, e.col, "%s", e.msg);
		return false;
	}
	if (k == 0 || g->r.kind != O_PRED || g->r.dot64) {
		asm_err(c, tok_cur(p) ? tok_cur(p)->col : g->col, "expected a predicate (P0..P6, PT) after '@'");
		return false;
	}
	p->i++;
	g->has = true;
	return true;
}

/* The mnemonic of token t (the longest dotted prefix that is one) and the
 * modifiers after it; its length, or 0 after an error. */
static size_t parse_mnemonic(asm_ctx *c, const tok *t, modtxt *mods, int *nm)
{
	const char *s = t->s;
	size_t n = t->n, mlen = 0;
	const uint32_t mcol = t->col;
	for (size_t k = n;; k--) {
		if (k && (k == n || s[k] == '.')) {
			for (int i = 0; i < ISA_NUM_OPCODES && !mlen; i++)
				if (has_mnemonic(c, i, s, k))
					mlen = k;
			if (mlen)
				break;
		}
		if (k == 0)
			break;
	}
	if (!mlen) {
		size_t show = n;
		for (size_t k = 0; k < n; k++)
			if (s[k] == '.') {
				show = k;
				break;
			}
		asm_err(c, mcol, "unknown instruction '%.*s'", (int)(show > 64 ? 64 : show), s);
		return 0;
	}
	*nm = 0;
	for (size_t k = mlen; k < n;) {
		size_t e = k + 1;
		while (e < n && s[e] != '.')
			e++;
		if (*nm == MAX_MODS) {
			asm_err(c, mcol + (uint32_t)k, "too many modifiers");
			return 0;
		}
		mods[(*nm)++] = (modtxt){ s + k + 1, e - k - 1, mcol + (uint32_t)k };
		k = e;
	}
	return mlen;
}

/* Opcode i with the statement's guard g: false (noted) when it does not
 * take it. */
static bool apply_guard(mstate *ms, merr *me, const guard_txt *g, const char *mn, int *first)
{
	const isa_opcode *o = ms->o;
	*first = 0;
	if (!is_guard(o)) {
		if (g->has)
			note_mod(me, g->col, "%s has no guard predicate", mn);
		return !g->has;
	}
	*first = 1;
	if (!g->has)
		return true;
	set_field(ms, o->order[0], g->r.num);
	int nf = mod_field(o, o->order[0], ISA_K_NOT);
	if (g->neg && nf < 0) {
		note_mod(me, g->col, "'@!' is not allowed: the guard of %s cannot be negated", mn);
		return false;
	}
	if (nf >= 0)
		set_field(ms, nf, g->neg);
	return true;
}

bool asm_instruction(pcur *p, we_word *w)
{
	asm_ctx *c = p->c;
	guard_txt g;
	if (!parse_guard(p, &g))
		return false;
	const tok *t = tok_cur(p);
	if (!t || t->kind != T_IDENT) {
		asm_err(c, t ? t->col : g.col, "expected an instruction mnemonic");
		return false;
	}
	modtxt mods[MAX_MODS];
	int nm = 0;
	const size_t mlen = parse_mnemonic(c, t, mods, &nm);
	if (!mlen)
		return false;
	const char *s = t->s;
	const uint32_t mcol = t->col;
	char mn[96];
	snprintf(mn, sizeof mn, "%.*s", (int)(mlen > 90 ? 90 : mlen), s);
	p->i++;
	operand ops[ASM_MAX_OPERANDS];
	int nops;
	if (!asm_parse_operands(p, ops, &nops))
		return false;

	merr me = { .score = -1, .kpos = -1, .kenum = -1 };
	for (int i = 0; i < ISA_NUM_OPCODES; i++) {
		const isa_opcode *o = &isa_opcodes[i];
		if (!has_mnemonic(c, i, s, mlen))
			continue;
		mstate ms = { .c = c, .o = o, .ops = ops, .nops = nops };
		isa_insn_init(&ms.in, i);
		int first;
		if (!apply_guard(&ms, &me, &g, mn, &first) || !apply_mods(&ms, &me, mods, nm, mcol, mn))
			continue;
		ms.nf = 0;
		for (int k = first; k < o->norder && ms.nf < MAX_FIELDS; k++)
			if (o->order[k] >= 0 && o->order[k] < o->nfields)
				ms.fl[ms.nf++] = o->order[k];
		if (!dfs(&ms, &me, 0, 0))
			continue;
		const char *chk = isa_check(&ms.in);
		if (chk) {
			note(&me, INT_MAX, mcol, "invalid %s: %s", mn, chk);
			continue;
		}
		if (o->dialect && c->cur && strcmp(o->dialect, module_dialect_name(c->cur->dialect))) {
			asm_err(c, mcol, "%s belongs to the %s dialect: the kernel needs '.dialect %s' "
				"(it is '%s')", mn, o->dialect, o->dialect, module_dialect_name(c->cur->dialect));
			return false;
		}
		isa_encode(&ms.in, w);
		we_insn d;
		if (isa_decode(w, &d) != i) {
			asm_err(c, mcol, "internal error: the encoding of %s does not decode", o->name);
			return false;
		}
		return true;
	}
	uint32_t ecol = mcol;
	if (p->end > 0) {
		const tok *last = &c->toks[p->end - 1];
		ecol = last->col + (uint32_t)last->n;
	}
	report(c, &me, mcol, ecol);
	return false;
}
