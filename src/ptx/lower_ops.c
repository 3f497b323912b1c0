/* lower_ops.c — one lowering per PTX instruction family, onto the target
 * ISA (src/isa/\*.isa) in virtual registers.  What the ISA cannot express
 * exactly is "not supported" (doc/ptx.md lists it): never an
 * approximation.  64-bit values live in even/odd register pairs; 8- and
 * 16-bit values in one register, normalised (zero- or sign-extended)
 * where an operation depends on the upper bits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lower.h"

/* ---- moves and conversions ----------------------------------------------------- */

static void mov64(lx *x, int d, const ptx_opnd *o)
{
	char lo[32], hi[32];
	int s = lx_src64(x, o, lo, hi, sizeof lo);
	if (s >= 0) {
		if (s != d) {
			emit(x, "dr ur", V(d, s), "MOV $0, $1");
			emit(x, "dh uh", V(d, s), "MOV $0, $1");
		}
	} else {
		emit(x, "dr", V(d), "MOV $0, %s", lo);
		emit(x, "dh", V(d), "MOV $0, %s", hi);
	}
}

static void mov32(lx *x, int d, const ptx_opnd *o)
{
	char b[32];
	int s = lx_src32(x, o, b, sizeof b);
	if (s < 0)
		emit(x, "dr", V(d), "MOV $0, %s", b);
	else if (s != d)
		emit(x, "dr ur", V(d, s), "MOV $0, $1");
}

static bool op_mov(lx *x)
{
	if (!lx_nops(x, 2, 2))
		return true;
	const ptx_opnd *d = &x->in->o[0], *s = &x->in->o[1];
	ptype t = lx_type(x->in);
	if (t.k == 'p') {
		bool neg;
		int dp = lx_dst(x, d, RC_PRED), sp = lx_pred(x, s, &neg);
		if (dp >= 0)
			emit(x, "dp up", V(dp, sp), "ISETP.EQ.AND $0, PT, RZ, RZ, %s$1", neg ? "!" : "");
		return true;
	}
	if (d->kind == PO_VEC && t.bits == 64) {
		/* mov.b64 {lo, hi}, %rd */
		int v = lx_reg64(x, s);
		if (d->nvec != 2) {
			lx_error(x, d, "mov.b64 unpacks into two registers");
			return true;
		}
		if (d->vec[0] >= 0)
			emit(x, "dr ur", V(lx_reg(x, d->vec[0]), v), "MOV $0, $1");
		if (d->vec[1] >= 0)
			emit(x, "dr uh", V(lx_reg(x, d->vec[1]), v), "MOV $0, $1");
		return true;
	}
	if (s->kind == PO_VEC && t.bits == 64) {
		int dv = lx_dst(x, d, RC_64);
		if (dv < 0 || s->nvec != 2 || s->vec[0] < 0 || s->vec[1] < 0) {
			lx_error(x, s, "mov.b64 packs two registers");
			return true;
		}
		int lo = lx_reg(x, s->vec[0]), hi = lx_reg(x, s->vec[1]);
		int t1 = lx_tmp(x, RC_32);
		emit(x, "dr ur", V(t1, hi), "MOV $0, $1");
		emit(x, "dr ur", V(dv, lo), "MOV $0, $1");
		emit(x, "dh ur", V(dv, t1), "MOV $0, $1");
		return true;
	}
	if (d->kind == PO_VEC || s->kind == PO_VEC) {
		lx_unsupported(x, "vector moves other than mov.b64 {lo,hi}");
		return true;
	}
	if (t.bits == 64) {
		int dv = lx_dst(x, d, RC_64);
		if (dv >= 0)
			mov64(x, dv, s);
	} else {
		int dv = lx_dst(x, d, RC_32);
		if (dv >= 0)
			mov32(x, dv, s);
	}
	return true;
}

static bool op_cvta(lx *x)
{
	if (!lx_nops(x, 2, 2))
		return true;
	ptype t = lx_type(x->in);
	bool to = lx_has(x, "to");
	/* .const and .param: the constant window, at the bank of .const
	 * variables (their addresses are offsets in it, lx_var_addr) or at
	 * bank 0 (a kernel parameter's: its offset in the parameter space) */
	uint64_t win = lx_has(x, "shared")  ? PTX_SHARED_WINDOW
		       : lx_has(x, "local") ? PTX_LOCAL_WINDOW
		       : lx_has(x, "const") ? PTX_CONST_WINDOW
		       : lx_has(x, "param") ? PTX_PARAM_WINDOW
					    : 0;
	const ptx_opnd *d = &x->in->o[0], *s = &x->in->o[1];
	if (t.bits == 32) {
		int dv = lx_dst(x, d, RC_32);
		if (dv < 0)
			return true;
		int sv = lx_reg32(x, s);
		emit(x, "dr ur", V(dv, sv), "IADD3 $0, $1, %" PRId32 ", RZ", (int32_t)(to ? 0 - win : win));
		return true;
	}
	int dv = lx_dst(x, d, RC_64);
	if (dv < 0)
		return true;
	if (!win) {
		mov64(x, dv, s);
		return true;
	}
	int sv = lx_reg64(x, s);
	if (to) {
		/* an address in shared or local memory or a constant bank:
		 * the offset in the window (32 bits) */
		emit(x, "dr ur", V(dv, sv), "IADD3 $0, $1, -%" PRIu64 ", RZ", win);
		emit(x, "dh", V(dv), "MOV $0, 0");
	} else {
		emit(x, "dr ur", V(dv, sv), "IADD3 $0, $1, %" PRIu64 ", RZ", win);
		emit(x, "dh", V(dv), "MOV $0, 0");
	}
	return true;
}

/* integer to integer conversion (also cvt with the same width) */
static void cvt_int(lx *x, ptype dt, ptype st)
{
	const ptx_opnd *d = &x->in->o[0], *s = &x->in->o[1];
	if (dt.bits == 64) {
		int dv = lx_dst(x, d, RC_64);
		if (dv < 0)
			return;
		if (st.bits == 64) {
			mov64(x, dv, s);
			return;
		}
		/* (sv is a 32-bit vreg: never a word of dv) */
		int sv = lx_norm(x, lx_reg32(x, s), st);
		emit(x, "dr ur", V(dv, sv), "MOV $0, $1");
		if (st.k == 's')
			emit(x, "dh ur", V(dv, sv), "SHF.R.S32.HI $0, RZ, 0x1f, $1");
		else
			emit(x, "dh", V(dv), "MOV $0, RZ");
		return;
	}
	int dv = lx_dst(x, d, RC_32);
	if (dv < 0)
		return;
	int sv = st.bits == 64 ? lx_reg64(x, s) : lx_reg32(x, s);
	/* narrow destinations keep the value extended by the destination type */
	ptype n = st.bits < dt.bits ? st : dt;
	if (st.bits < dt.bits || (dt.bits < 32)) {
		int r = lx_norm(x, sv, n.bits < 32 ? n : dt);
		if (r != sv) {
			emit(x, "dr ur", V(dv, r), "MOV $0, $1");
			return;
		}
	}
	if (sv != dv)
		emit(x, "dr ur", V(dv, sv), "MOV $0, $1");
}

static bool op_cvt(lx *x)
{
	if (!lx_nops(x, 2, 2))
		return true;
	ptype dt = lx_type_at(x->in, 0), st = lx_type_at(x->in, 1);
	if (!dt.bits || !st.bits) {
		lx_error(x, NULL, "cvt needs a destination and a source type");
		return true;
	}
	if (lx_has(x, "sat") && !(dt.k != 'f' && st.k != 'f' && dt.bits >= st.bits && (dt.k == st.k))) {
		lx_unsupported(x, "saturating conversions");
		return true;
	}
	if (dt.k != 'f' && st.k != 'f' && dt.k != 'h' && st.k != 'h') {
		cvt_int(x, dt, st);
		return true;
	}
	const ptx_opnd *d = &x->in->o[0], *s = &x->in->o[1];
	if (dt.k == 'f' && dt.bits == 32 && st.k != 'f' && st.bits == 32 && !lx_has(x, "rz") && !lx_has(x, "rm") &&
	    !lx_has(x, "rp") && !lx_has(x, "ftz")) {
		int dv = lx_dst(x, d, RC_32);
		if (dv >= 0)
			emit(x, "dr ur", V(dv, lx_reg32(x, s)), "I2F%s $0, $1", st.k == 's' ? "" : ".U32");
		return true;
	}
	if (st.k == 'f' && st.bits == 32 && dt.k != 'f' && dt.bits == 32 && !lx_has(x, "ftz")) {
		const char *rnd = lx_has(x, "rzi") ? "TRUNC" : lx_has(x, "rni") ? "RN" : lx_has(x, "rmi") ? "FLOOR"
				  : lx_has(x, "rpi") ? "CEIL" : NULL;
		int dv = lx_dst(x, d, RC_32);
		if (!rnd)
			lx_error(x, NULL, "a float to integer cvt needs .rni, .rzi, .rmi or .rpi");
		else if (dv >= 0)
			emit(x, "dr ur", V(dv, lx_reg32(x, s)), "F2I.%s%s $0, $1", rnd, dt.k == 's' ? "" : ".U32");
		return true;
	}
	lx_unsupported(x, "this conversion needs instructions the ISA does not have yet");
	return true;
}

/* ---- integer arithmetic ------------------------------------------------------------ */

static const char *sfx_u(ptype t)
{
	return t.k == 's' ? "" : ".U32";
}

/* add/sub 64-bit: d = a (+|-) b through the carry predicate */
static void addsub64(lx *x, bool sub)
{
	int d = lx_dst(x, &x->in->o[0], RC_64);
	if (d < 0)
		return;
	int a = lx_reg64(x, &x->in->o[1]);
	char lo[32], hi[32];
	int b = lx_src64(x, &x->in->o[2], lo, hi, sizeof lo);
	int c = lx_tmp(x, RC_PRED);
	int alo = lx_tmp(x, RC_32);
	/* the low word first into a temp: d may be a or b */
	if (b >= 0) {
		emit(x, "dr dp ur ur", V(alo, c, a, b), "IADD3 $0, $1, PT, $2, %s$3, RZ", sub ? "-" : "");
		emit(x, "dh uh uh up", V(d, a, b, c), "IADD3.X $0, $1, %s$2, RZ, $3, !PT", sub ? "-" : "");
	} else {
		uint64_t v = (uint64_t)(uint32_t)strtol(lo, NULL, 10) | (uint64_t)(uint32_t)strtol(hi, NULL, 10) << 32;
		if (sub)
			v = 0 - v;
		emit(x, "dr dp ur", V(alo, c, a), "IADD3 $0, $1, PT, $2, %" PRId32 ", RZ", (int32_t)(uint32_t)v);
		emit(x, "dh uh up", V(d, a, c), "IADD3.X $0, $1, %" PRId32 ", RZ, $2, !PT",
		     (int32_t)(uint32_t)(v >> 32));
	}
	emit(x, "dr ur", V(d, alo), "MOV $0, $1");
}

static bool op_addsub(lx *x)
{
	if (!lx_nops(x, 3, 3))
		return true;
	bool sub = !strcmp(x->in->op, "sub");
	ptype t = lx_type(x->in);
	if (t.k == 'f')
		return false;           /* op_farith */
	if (lx_has(x, "sat") || lx_has(x, "cc") || !strcmp(x->in->op, "addc") || !strcmp(x->in->op, "subc")) {
		lx_unsupported(x, "saturating and carry forms");
		return true;
	}
	if (t.bits == 64) {
		addsub64(x, sub);
		return true;
	}
	int d = lx_dst(x, &x->in->o[0], RC_32);
	if (d < 0)
		return true;
	int a = lx_reg32(x, &x->in->o[1]);
	char b[32];
	int bv = lx_src32(x, &x->in->o[2], b, sizeof b);
	if (bv >= 0)
		emit(x, "dr ur ur", V(d, a, bv), "IADD3 $0, $1, %s$2, RZ", sub ? "-" : "");
	else if (sub)
		emit(x, "dr ur", V(d, a), "IADD3 $0, $1, %" PRId32 ", RZ", (int32_t)(0u - (uint32_t)strtol(b, NULL, 10)));
	else
		emit(x, "dr ur", V(d, a), "IADD3 $0, $1, %s, RZ", b);
	return true;
}

static void mul64(lx *x, int d, int a, int b, int c)
{
	/* d = a * b (+ c): lo*lo wide, plus the cross products into the high word */
	int w = lx_tmp(x, RC_64), h = lx_tmp(x, RC_32);
	if (c >= 0)
		emit(x, "dw ur ur uw", V(w, a, b, c), "IMAD.WIDE.U32 $0, $1, $2, $3");
	else
		emit(x, "dw ur ur", V(w, a, b), "IMAD.WIDE.U32 $0, $1, $2, RZ");
	emit(x, "dr ur uh uh", V(h, a, b, w), "IMAD $0, $1, $2, $3");
	emit(x, "mr uh ur", V(h, a, b), "IMAD $0, $1, $2, $0");
	emit(x, "dr ur", V(d, w), "MOV $0, $1");
	emit(x, "dh ur", V(d, h), "MOV $0, $1");
}

static bool op_mul(lx *x)
{
	bool mad = !strcmp(x->in->op, "mad");
	if (!lx_nops(x, mad ? 4 : 3, mad ? 4 : 3))
		return true;
	ptype t = lx_type(x->in);
	if (t.k == 'f')
		return false;
	if (lx_has(x, "sat") || lx_has(x, "cc") || t.bits < 16) {
		lx_unsupported(x, NULL);
		return true;
	}
	const ptx_opnd *o = x->in->o;
	bool wide = lx_has(x, "wide"), hi = lx_has(x, "hi");
	if (t.bits == 64 && !wide) {
		if (hi) {
			lx_unsupported(x, "64-bit mul.hi");
			return true;
		}
		int d = lx_dst(x, &o[0], RC_64);
		if (d >= 0)
			mul64(x, d, lx_reg64(x, &o[1]), lx_reg64(x, &o[2]), mad ? lx_reg64(x, &o[3]) : -1);
		return true;
	}
	if (t.bits == 16) {
		if (wide || hi) {
			lx_unsupported(x, "16-bit mul.wide/mul.hi");
			return true;
		}
	}
	int a = lx_reg32(x, &o[1]);
	char b[32];
	int bv = lx_src32(x, &o[2], b, sizeof b);
	if (wide) {
		int d = lx_dst(x, &o[0], t.bits == 16 ? RC_32 : RC_64);
		if (d < 0)
			return true;
		int c = mad ? lx_reg64(x, &o[3]) : -1;
		if (bv >= 0 && c >= 0)
			emit(x, "dw ur ur uw", V(d, a, bv, c), "IMAD.WIDE%s $0, $1, $2, $3", sfx_u(t));
		else if (bv >= 0)
			emit(x, "dw ur ur", V(d, a, bv), "IMAD.WIDE%s $0, $1, $2, RZ", sfx_u(t));
		else if (c >= 0)
			emit(x, "dw ur uw", V(d, a, c), "IMAD.WIDE%s $0, $1, %s, $2", sfx_u(t), b);
		else
			emit(x, "dw ur", V(d, a), "IMAD.WIDE%s $0, $1, %s, RZ", sfx_u(t), b);
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	if (d < 0)
		return true;
	const char *mode = hi ? (t.k == 's' ? ".HI" : ".HI.U32") : "";
	if (mad) {
		int c = lx_reg32(x, &o[3]);
		if (bv >= 0)
			emit(x, "dr ur ur ur", V(d, a, bv, c), "IMAD%s $0, $1, $2, $3", mode);
		else
			emit(x, "dr ur ur", V(d, a, c), "IMAD%s $0, $1, %s, $2", mode, b);
	} else if (bv >= 0) {
		emit(x, "dr ur ur", V(d, a, bv), "IMAD%s $0, $1, $2, RZ", mode);
	} else {
		emit(x, "dr ur", V(d, a), "IMAD%s $0, $1, %s, RZ", mode, b);
	}
	return true;
}

/* d = {!}r bop {!}c (c < 0: PT), q = !({!}r) bop {!}c (q < 0: none),
 * through a 0/1 register: ISETP combines one compare with one predicate */
static void pcombine(lx *x, int d, int q, int r, bool rn, int c, bool cn, const char *bop)
{
	int t = lx_tmp(x, RC_32);
	emit(x, "dr up", V(t, r), "SEL $0, RZ, 0x1, %s$1", rn ? "" : "!");
	char tail[8];
	snprintf(tail, sizeof tail, "%s", c >= 0 ? (cn ? "!$3" : "$3") : "PT");
	if (q >= 0)
		emit(x, c >= 0 ? "dp ur dp up" : "dp ur dp", V(d, t, q, c), "ISETP.NE.%s $0, $2, $1, RZ, %s", bop, tail);
	else
		emit(x, c >= 0 ? "dp ur up up" : "dp ur", V(d, t, c, c), "ISETP.NE.%s $0, PT, $1, RZ, %s", bop, tail);
}

/* and/or/xor/not/cnot, 32- and 64-bit, and on predicates */
static bool op_logic(lx *x)
{
	const char *op = x->in->op;
	bool unary = !strcmp(op, "not") || !strcmp(op, "cnot");
	if (!lx_nops(x, unary ? 2 : 3, unary ? 2 : 3))
		return true;
	ptype t = lx_type(x->in);
	unsigned lut = !strcmp(op, "and") ? 0xc0 : !strcmp(op, "or") ? 0xfc : !strcmp(op, "xor") ? 0x3c : 0x0f;
	const ptx_opnd *o = x->in->o;
	if (t.k == 'p') {
		bool na, nb = false;
		int d = lx_dst(x, &o[0], RC_PRED);
		int a = lx_pred(x, &o[1], &na);
		int b = unary ? a : lx_pred(x, &o[2], &nb);
		if (d < 0)
			return true;
		if (unary) {
			emit(x, "dp up", V(d, a), "ISETP.EQ.AND $0, PT, RZ, RZ, %s$1", na ? "" : "!");
			return true;
		}
		pcombine(x, d, -1, a, na, b, nb, !strcmp(op, "and") ? "AND" : !strcmp(op, "or") ? "OR" : "XOR");
		return true;
	}
	if (!strcmp(op, "cnot")) {
		int d = lx_dst(x, &o[0], RC_32);
		int a = lx_norm(x, lx_reg32(x, &o[1]), t);
		int p = lx_tmp(x, RC_PRED);
		if (d < 0)
			return true;
		emit(x, "dp ur", V(p, a), "ISETP.EQ.U32.AND $0, PT, $1, RZ, PT");
		emit(x, "dr up", V(d, p), "SEL $0, RZ, 0x0, !$1");
		emit(x, "mr up", V(d, p), "SEL $0, RZ, 0x1, !$1");
		return true;
	}
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]);
		char lo[32] = "RZ", hi[32] = "RZ";
		int b = unary ? -2 : lx_src64(x, &o[2], lo, hi, sizeof lo);
		if (d < 0)
			return true;
		if (b >= 0) {
			emit(x, "dr ur ur", V(d, a, b), "LOP3.LUT $0, $1, $2, RZ, 0x%x, !PT", lut);
			emit(x, "dh uh uh", V(d, a, b), "LOP3.LUT $0, $1, $2, RZ, 0x%x, !PT", lut);
		} else {
			emit(x, "dr ur", V(d, a), "LOP3.LUT $0, $1, %s, RZ, 0x%x, !PT", lo, lut);
			emit(x, "dh uh", V(d, a), "LOP3.LUT $0, $1, %s, RZ, 0x%x, !PT", hi, lut);
		}
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]);
	if (d < 0)
		return true;
	if (unary) {
		emit(x, "dr ur", V(d, a), "LOP3.LUT $0, $1, RZ, RZ, 0x%x, !PT", lut);
		return true;
	}
	char b[32];
	int bv = lx_src32(x, &o[2], b, sizeof b);
	if (bv >= 0)
		emit(x, "dr ur ur", V(d, a, bv), "LOP3.LUT $0, $1, $2, RZ, 0x%x, !PT", lut);
	else
		emit(x, "dr ur", V(d, a), "LOP3.LUT $0, $1, %s, RZ, 0x%x, !PT", b, lut);
	return true;
}

/* slots + the shift amount: a register as the last slot ($k), or text */
static lins *emit_amt(lx *x, const char *slots, int *v, int n, int bv, const char *b, const char *fmt)
{
	char amt[40], text[200], sl[40];
	if (bv >= 0) {
		v[n] = bv;
		snprintf(amt, sizeof amt, "$%d", n);
		snprintf(sl, sizeof sl, "%s ur", slots);
	} else {
		snprintf(amt, sizeof amt, "%s", b);
		snprintf(sl, sizeof sl, "%s", slots);
	}
	/* fmt has one %s for the amount */
	snprintf(text, sizeof text, fmt, amt);
	return emit(x, sl, v, "%s", text);
}

static bool op_shift(lx *x)
{
	if (!lx_nops(x, 3, 3))
		return true;
	bool left = !strcmp(x->in->op, "shl");
	ptype t = lx_type(x->in);
	const ptx_opnd *o = x->in->o;
	char b[32];
	int bv = lx_src32(x, &o[2], b, sizeof b);
	int v[4];
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]);
		if (d < 0)
			return true;
		if (left) {
			v[0] = d, v[1] = a, v[2] = a;
			emit_amt(x, "dh ur uh", v, 3, bv, b, "SHF.L.U64.HI $0, $1, %s, $2");
			v[0] = d, v[1] = a;
			emit_amt(x, "dr ur", v, 2, bv, b, "SHF.L.U32 $0, $1, %s, RZ");
		} else {
			bool s = t.k == 's';
			v[0] = d, v[1] = a, v[2] = a;
			emit_amt(x, "dr ur uh", v, 3, bv, b, s ? "SHF.R.S64 $0, $1, %s, $2" : "SHF.R.U64 $0, $1, %s, $2");
			v[0] = d, v[1] = a;
			emit_amt(x, "dh uh", v, 2, bv, b, s ? "SHF.R.S32.HI $0, RZ, %s, $1" : "SHF.R.U32.HI $0, RZ, %s, $1");
		}
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_norm(x, lx_reg32(x, &o[1]), t);
	if (d < 0)
		return true;
	v[0] = d, v[1] = a;
	if (left)
		emit_amt(x, "dr ur", v, 2, bv, b, "SHF.L.U32 $0, $1, %s, RZ");
	else
		emit_amt(x, "dr ur", v, 2, bv, b, t.k == 's' ? "SHF.R.S32.HI $0, RZ, %s, $1" : "SHF.R.U32.HI $0, RZ, %s, $1");
	return true;
}

static bool op_minmax(lx *x)
{
	if (!lx_nops(x, 3, 3))
		return true;
	ptype t = lx_type(x->in);
	if (t.k == 'f')
		return false;
	bool mn = !strcmp(x->in->op, "min");
	const ptx_opnd *o = x->in->o;
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		int p = lx_tmp(x, RC_PRED), lo = lx_tmp(x, RC_32);
		if (d < 0)
			return true;
		/* p = a < b (64-bit), then select */
		emit(x, "dp ur ur", V(p, a, b), "ISETP.LT.U32.AND $0, PT, $1, $2, PT");
		emit(x, "mp uh uh", V(p, a, b), "ISETP.EQ.AND $0, PT, $1, $2, $0");
		emit(x, "mp uh uh", V(p, a, b), "ISETP.LT%s.OR $0, PT, $1, $2, $0", sfx_u(t));
		emit(x, "dr ur ur up", V(lo, mn ? a : b, mn ? b : a, p), "SEL $0, $1, $2, $3");
		emit(x, "dh uh uh up", V(d, mn ? a : b, mn ? b : a, p), "SEL $0, $1, $2, $3");
		emit(x, "dr ur", V(d, lo), "MOV $0, $1");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_norm(x, lx_reg32(x, &o[1]), t);
	int b = lx_norm(x, lx_reg32(x, &o[2]), t);
	if (d >= 0)
		emit(x, "dr ur ur", V(d, a, b), "IMNMX%s $0, $1, $2, %sPT", t.k == 's' ? "" : ".U32", mn ? "" : "!");
	return true;
}

static bool op_negabs(lx *x)
{
	if (!lx_nops(x, 2, 2))
		return true;
	ptype t = lx_type(x->in);
	bool neg = !strcmp(x->in->op, "neg");
	const ptx_opnd *o = x->in->o;
	if (t.k == 'f') {
		if (lx_has(x, "ftz")) {
			lx_unsupported(x, ".ftz");
			return true;
		}
		/* a sign-bit operation, exact for NaNs too */
		if (t.bits == 64) {
			int d = lx_dst(x, &o[0], RC_64), a = lx_reg64(x, &o[1]);
			if (d < 0)
				return true;
			emit(x, "dh uh", V(d, a), "LOP3.LUT $0, $1, 0x80000000, RZ, %s, !PT", neg ? "0x3c" : "0x30");
			if (d != a)
				emit(x, "dr ur", V(d, a), "MOV $0, $1");
			return true;
		}
		int d = lx_dst(x, &o[0], RC_32), a = lx_reg32(x, &o[1]);
		if (d >= 0)
			emit(x, "dr ur", V(d, a), "LOP3.LUT $0, $1, 0x80000000, RZ, %s, !PT", neg ? "0x3c" : "0x30");
		return true;
	}
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64), a = lx_reg64(x, &o[1]);
		if (d < 0)
			return true;
		int lo = lx_tmp(x, RC_32), c = lx_tmp(x, RC_PRED);
		if (neg) {
			emit(x, "dr dp ur", V(lo, c, a), "IADD3 $0, $1, PT, RZ, -$2, RZ");
			emit(x, "dh uh up", V(d, a, c), "IADD3.X $0, RZ, -$1, RZ, $2, !PT");
			emit(x, "dr ur", V(d, lo), "MOV $0, $1");
		} else {
			int n = lx_tmp(x, RC_64), p = lx_tmp(x, RC_PRED);
			emit(x, "dr dp ur", V(n, c, a), "IADD3 $0, $1, PT, RZ, -$2, RZ");
			emit(x, "dh uh up", V(n, a, c), "IADD3.X $0, RZ, -$1, RZ, $2, !PT");
			emit(x, "dp uh", V(p, a), "ISETP.LT.AND $0, PT, $1, RZ, PT");
			emit(x, "dr ur ur up", V(lo, n, a, p), "SEL $0, $1, $2, $3");
			emit(x, "dh uh uh up", V(d, n, a, p), "SEL $0, $1, $2, $3");
			emit(x, "dr ur", V(d, lo), "MOV $0, $1");
		}
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_norm(x, lx_reg32(x, &o[1]), t);
	if (d < 0)
		return true;
	if (neg)
		emit(x, "dr ur", V(d, a), "IADD3 $0, RZ, -$1, RZ");
	else
		emit(x, "dr ur", V(d, a), "IABS $0, $1");
	return true;
}

static bool op_bits(lx *x)
{
	const char *op = x->in->op;
	if (!lx_nops(x, 2, 2))
		return true;
	ptype t = lx_type(x->in);
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], RC_32);
	if (d < 0)
		return true;
	if (t.bits == 64) {
		int a = lx_reg64(x, &o[1]);
		if (!strcmp(op, "popc")) {
			int h = lx_tmp(x, RC_32);
			emit(x, "dr uh", V(h, a), "POPC $0, $1");
			emit(x, "dr ur", V(d, a), "POPC $0, $1");
			emit(x, "mr ur", V(d, h), "IADD3 $0, $0, $1, RZ");
			return true;
		}
		lx_unsupported(x, "64-bit clz/brev/bfind");
		return true;
	}
	int a = lx_reg32(x, &o[1]);
	if (!strcmp(op, "popc")) {
		emit(x, "dr ur", V(d, a), "POPC $0, $1");
	} else if (!strcmp(op, "brev")) {
		emit(x, "dr ur", V(d, a), "BREV $0, $1");
	} else if (!strcmp(op, "clz")) {
		/* FLO.SH gives 0xffffffff for 0: clz(0) = 32 */
		emit(x, "dr ur", V(d, a), "FLO.U32.SH $0, $1");
		emit(x, "mr", V(d), "IMNMX.U32 $0, $0, 0x20, PT");
	} else {
		emit(x, "dr ur", V(d, a), "FLO%s%s $0, $1", t.k == 's' ? "" : ".U32",
		     lx_has(x, "shiftamt") ? ".SH" : "");
	}
	return true;
}

static bool op_prmt(lx *x)
{
	if (!lx_nops(x, 4, 4))
		return true;
	/* the modes are PRMT's (num.isa) */
	static const char *const modes[][2] = { { "f4e", ".F4E" }, { "b4e", ".B4E" }, { "rc8", ".RC8" },
						{ "ecl", ".ECL" }, { "ecr", ".ECR" }, { "rc16", ".RC16" } };
	const char *mode = "";
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (lx_has(x, modes[k][0]))
			mode = modes[k][1];
	if (x->in->nmods != (*mode ? 2 : 1)) {
		lx_unsupported(x, "prmt modifiers other than one mode");
		return true;
	}
	char mnem[16];
	snprintf(mnem, sizeof mnem, "PRMT%s", mode);
	lx_emit_dacb(x, mnem);
	return true;
}

static bool op_lop3(lx *x)
{
	if (!lx_nops(x, 5, 5))
		return true;
	const ptx_opnd *o = x->in->o;
	if (o[4].kind != PO_IMM) {
		lx_error(x, &o[4], "lop3's lookup table must be an immediate");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]), c = lx_reg32(x, &o[3]);
	char b[32];
	int bv = lx_src32(x, &o[2], b, sizeof b);
	if (d < 0)
		return true;
	unsigned lut = (unsigned)o[4].imm & 0xffu;
	if (bv >= 0)
		emit(x, "dr ur ur ur", V(d, a, bv, c), "LOP3.LUT $0, $1, $2, $3, 0x%x, !PT", lut);
	else
		emit(x, "dr ur ur", V(d, a, c), "LOP3.LUT $0, $1, %s, $2, 0x%x, !PT", b, lut);
	return true;
}

/* ---- comparisons and selection --------------------------------------------------- */

static const char *icmp(const char *c, bool *uns)
{
	static const struct { const char *p, *i; bool u; } m[] = {
		{ "eq", "EQ", 0 }, { "ne", "NE", 0 }, { "lt", "LT", 0 }, { "le", "LE", 0 },
		{ "gt", "GT", 0 }, { "ge", "GE", 0 }, { "lo", "LT", 1 }, { "ls", "LE", 1 },
		{ "hi", "GT", 1 }, { "hs", "GE", 1 },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(c, m[i].p)) {
			*uns = m[i].u;
			return m[i].i;
		}
	return NULL;
}

/* the combine of setp: .and/.or/.xor with {!}c, or none */
static const char *bop_of(lx *x)
{
	return lx_has(x, "and") ? "AND" : lx_has(x, "or") ? "OR" : lx_has(x, "xor") ? "XOR" : NULL;
}

static bool op_setp(lx *x)
{
	if (!lx_nops(x, 3, 4))
		return true;
	const ptx_ins *in = x->in;
	const ptx_opnd *o = in->o;
	ptype t = lx_type(in);
	const char *cmpname = in->nmods ? in->mods[0] : "";
	const char *bop = bop_of(x);
	if (lx_has(x, "ftz") || t.k == 'h') {
		lx_unsupported(x, NULL);
		return true;
	}
	if ((in->no == 4) != (bop != NULL)) {
		lx_error(x, NULL, "setp with a combining operation (.and/.or/.xor) takes a fourth operand");
		return true;
	}
	int p = lx_dst(x, &o[0], RC_PRED);
	int q = o[0].reg2 >= 0 ? lx_reg(x, o[0].reg2) : -1;
	bool cn = false;
	int c = in->no == 4 ? lx_pred(x, &o[3], &cn) : -1;
	if (p < 0)
		return true;
	char tail[24];
	snprintf(tail, sizeof tail, "%s", c >= 0 ? (cn ? "!$3" : "$3") : "PT");
	if (t.k == 'f') {
		const char *fc = lx_fcmp(cmpname);
		if (!fc) {
			lx_error(x, NULL, "unknown comparison '%s'", cmpname);
			return true;
		}
		/* f64 and .ftz comparisons are lower_num.c's */
		int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
		char text[96];
		snprintf(text, sizeof text, "FSETP.%s.%s $0, %s, $1, $2, %s", fc, bop ? bop : "AND", q >= 0 ? "$4" : "PT",
			 tail);
		emit(x, q >= 0 ? "dp ur ur up dp" : (c >= 0 ? "dp ur ur up" : "dp ur ur"), V(p, a, b, c >= 0 ? c : 0, q),
		     "%s", text);
		return true;
	}
	bool uns;
	const char *ic = icmp(cmpname, &uns);
	if (!ic) {
		lx_error(x, NULL, "unknown comparison '%s'", cmpname);
		return true;
	}
	bool u = uns || t.k == 'u' || t.k == 'b';
	if (t.bits == 64) {
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		int r = lx_tmp(x, RC_PRED);
		if (!strcmp(ic, "EQ") || !strcmp(ic, "NE")) {
			emit(x, "dp ur ur", V(r, a, b), "ISETP.%s.U32.AND $0, PT, $1, $2, PT", ic);
			emit(x, "mp uh uh", V(r, a, b), "ISETP.%s.U32.%s $0, PT, $1, $2, $0", ic, ic[0] == 'E' ? "AND" : "OR");
		} else {
			/* r = hi cmp hi' or (hi == hi' and lo cmp.u lo') */
			emit(x, "dp ur ur", V(r, a, b), "ISETP.%s.U32.AND $0, PT, $1, $2, PT", ic);
			emit(x, "mp uh uh", V(r, a, b), "ISETP.EQ.AND $0, PT, $1, $2, $0");
			char strict[4];
			snprintf(strict, sizeof strict, "%.2s", ic);
			if (!strcmp(ic, "LE"))
				snprintf(strict, sizeof strict, "LT");
			if (!strcmp(ic, "GE"))
				snprintf(strict, sizeof strict, "GT");
			emit(x, "mp uh uh", V(r, a, b), "ISETP.%s%s.OR $0, PT, $1, $2, $0", strict, u ? ".U32" : "");
		}
		pcombine(x, p, q, r, false, c, cn, bop ? bop : "AND");
		return true;
	}
	int a = lx_norm(x, lx_reg32(x, &o[1]), t);
	char b[32];
	int bv = t.bits < 32 ? lx_norm(x, lx_reg32(x, &o[2]), t) : lx_src32(x, &o[2], b, sizeof b);
	/* an immediate: ISETP's immediate form, not a MOV to a register first
	 * (slot 2 then repeats a, unprinted, to keep the slot numbering) */
	const char *btext = bv < 0 ? b : "$2";
	if (bv < 0)
		bv = a;
	char text[96];
	snprintf(text, sizeof text, "ISETP.%s%s.%s $0, %s, $1, %s, %s", ic, u ? ".U32" : "", bop ? bop : "AND",
		 q >= 0 ? "$4" : "PT", btext, tail);
	emit(x, q >= 0 ? "dp ur ur up dp" : (c >= 0 ? "dp ur ur up" : "dp ur ur"), V(p, a, bv, c >= 0 ? c : 0, q),
	     "%s", text);
	return true;
}

static bool op_selp(lx *x)
{
	if (!lx_nops(x, 4, 4))
		return true;
	const ptx_opnd *o = x->in->o;
	ptype t = lx_type(x->in);
	bool cn;
	int c = lx_pred(x, &o[3], &cn);
	const char *pf = cn ? "uq" : "up";
	char sl[24];
	if (t.bits == 64) {
		int d = lx_dst(x, &o[0], RC_64);
		int a = lx_reg64(x, &o[1]), b = lx_reg64(x, &o[2]);
		int lo = lx_tmp(x, RC_32);
		if (d < 0)
			return true;
		snprintf(sl, sizeof sl, "dr ur ur %s", pf);
		emit(x, sl, V(lo, a, b, c), "SEL $0, $1, $2, $3");
		snprintf(sl, sizeof sl, "dh uh uh %s", pf);
		emit(x, sl, V(d, a, b, c), "SEL $0, $1, $2, $3");
		emit(x, "dr ur", V(d, lo), "MOV $0, $1");
		return true;
	}
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]);
	char b[32];
	int bv = lx_src32(x, &o[2], b, sizeof b);
	if (d < 0)
		return true;
	if (bv >= 0) {
		snprintf(sl, sizeof sl, "dr ur ur %s", pf);
		emit(x, sl, V(d, a, bv, c), "SEL $0, $1, $2, $3");
	} else {
		snprintf(sl, sizeof sl, "dr ur %s", pf);
		emit(x, sl, V(d, a, c), "SEL $0, $1, %s, $2", b);
	}
	return true;
}

/* ---- f32 arithmetic ----------------------------------------------------------------- */

static bool op_farith(lx *x)
{
	const char *op = x->in->op;
	bool three = !strcmp(op, "fma") || !strcmp(op, "mad");
	ptype t = lx_type(x->in);
	if (t.k != 'f')
		return false;
	if (!lx_nops(x, three ? 4 : 3, three ? 4 : 3))
		return true;
	for (int i = 0; i < x->in->nmods; i++) {
		const char *m = x->in->mods[i];
		if (strcmp(m, "rn") && strcmp(m, "f32") && strcmp(m, "f64")) {
			/* the rounding modes, .ftz and .sat are lower_num.c's */
			lx_unsupported(x, "modifiers other than the rounding modes, .ftz and .sat");
			return true;
		}
	}
	if (t.bits != 32) {
		/* f64 is lower_num.c's; what is left (f16) is not supported */
		lx_unsupported(x, NULL);
		return true;
	}
	if (three && !lx_has(x, "rn")) {
		lx_error(x, NULL, "%s.f32 needs a rounding modifier (.rn)", op);
		return true;
	}
	const ptx_opnd *o = x->in->o;
	int d = lx_dst(x, &o[0], RC_32);
	int a = lx_reg32(x, &o[1]), b = lx_reg32(x, &o[2]);
	if (d < 0)
		return true;
	if (three)
		emit(x, "dr ur ur ur", V(d, a, b, lx_reg32(x, &o[3])), "FFMA $0, $1, $2, $3");
	else if (!strcmp(op, "add"))
		emit(x, "dr ur ur", V(d, a, b), "FADD $0, $1, $2");
	else if (!strcmp(op, "sub"))
		emit(x, "dr ur ur", V(d, a, b), "FADD $0, $1, -$2");
	else if (!strcmp(op, "mul"))
		emit(x, "dr ur ur", V(d, a, b), "FMUL $0, $1, $2");
	else if (!strcmp(op, "min") || !strcmp(op, "max")) {
		if (lx_has(x, "NaN") || lx_has(x, "xorsign")) {
			lx_unsupported(x, NULL);
			return true;
		}
		emit(x, "dr ur ur", V(d, a, b), "FMNMX $0, $1, $2, %sPT", op[1] == 'i' ? "" : "!");
	} else
		return false;
	return true;
}

/* ---- memory ------------------------------------------------------------------------ */

typedef enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM, SP_GENERIC } mspace;

static mspace space_of(lx *x)
{
	if (lx_has(x, "global"))
		return SP_GLOBAL;
	if (lx_has(x, "shared") || lx_has(x, "shared::cta"))
		return SP_SHARED;
	if (lx_has(x, "local"))
		return SP_LOCAL;
	if (lx_has(x, "const"))
		return SP_CONST;
	if (lx_has(x, "param"))
		return SP_PARAM;
	return SP_GENERIC;
}

/* an address operand: base vreg (-1 = RZ) and byte offset */
typedef struct maddr {
	int base;                     /* vreg, -1 RZ, MB_SP the stack pointer */
	int64_t off;
	char form;                    /* 'a' global (pair), 'r' 32-bit */
	bool frame;                   /* off is from the end of the frame (call.c) */
} maddr;
#define MB_SP (-3)

static bool resolve_addr(lx *x, const ptx_opnd *o, mspace sp, maddr *a)
{
	if (o->kind != PO_ADDR) {
		lx_error(x, o, "expected an address [..]");
		return false;
	}
	a->base = -1;
	a->frame = false;
	a->off = o->imm;
	bool wide = sp == SP_GLOBAL || sp == SP_GENERIC;
	a->form = wide ? 'a' : 'r';
	if (o->reg >= 0) {
		ptx_rclass rc = x->f->regs[o->reg].rc;
		if (wide && rc != RC_64) {
			lx_unsupported(x, "32-bit global or generic addresses (.address_size 32)");
			return false;
		}
		if (rc == RC_PRED) {
			lx_error(x, o, "a predicate is not an address");
			return false;
		}
		a->base = lx_reg(x, o->reg);
	} else if (o->sym) {
		ptx_space vs;
		uint64_t va;
		if (!lx_var_addr(x, o->sym, &vs, &va)) {
			lx_error(x, o, "'%s' is not a variable of the kernel", o->sym);
			return false;
		}
		if (vs == VS_GLOBAL && (sp == SP_GLOBAL || sp == SP_GENERIC)) {
			/* its device address, from the module's c[5] (lower.h) */
			a->base = lx_global_addr(x, va);
			return true;
		}
		bool match = (vs == VS_SHARED && sp == SP_SHARED) || (vs == VS_LOCAL && sp == SP_LOCAL) ||
			     (vs == VS_CONST && sp == SP_CONST);
		if (!match) {
			lx_unsupported(x, "a variable named in another state space (generic addressing of it)");
			return false;
		}
		a->off += (int64_t)va;
		if (vs == VS_LOCAL && !x->f->is_entry)
			a->base = MB_SP; /* a function's frame (call.c) */
	} else if (wide) {
		lx_unsupported(x, "absolute global addresses");
		return false;
	}
	if (a->off < -(1 << 23) || a->off >= (1 << 23) || (sp == SP_CONST && (a->off < 0 || a->off >= (1 << 17)))) {
		lx_error(x, o, "address offset %" PRId64 " out of range", a->off);
		return false;
	}
	return true;
}

static const char *size_sfx(ptype t)
{
	switch (t.bits) {
	case 8: return t.k == 's' ? ".S8" : ".U8";
	case 16: return t.k == 's' ? ".S16" : ".U16";
	case 64: return ".64";
	default: return "";
	}
}

static void addr_text(const maddr *a, int slot, char *buf, size_t n)
{
	char base[16];
	if (a->base == MB_SP)
		snprintf(base, sizeof base, "R250"); /* call.c */
	else if (a->base < 0)
		snprintf(base, sizeof base, "RZ");
	else
		snprintf(base, sizeof base, "$%d", slot);
	if (a->frame)
		snprintf(buf, n, "[%s+#%" PRId64 "]", base, a->off); /* + the frame size */
	else if (a->off)
		snprintf(buf, n, "[%s%s%" PRId64 "]", base, a->off < 0 ? "" : "+", a->off);
	else
		snprintf(buf, n, "[%s]", base);
}

static const char *mnem(mspace sp, bool store)
{
	switch (sp) {
	case SP_SHARED: return store ? "STS" : "LDS";
	case SP_LOCAL: return store ? "STL" : "LDL";
	case SP_CONST: return "LDC";
	case SP_GENERIC: return store ? "ST" : "LD"; /* by the address' window (ptx.isa) */
	default: return store ? "STG.E" : "LDG.E";
	}
}

static const char *membar_scope(lx *x);

/* The .STRONG modifier of a strong access to memory other threads see
 * (PTX's .relaxed, .acquire and .release of a scope; .volatile is
 * .relaxed.sys: doc/ptx.md), "" for a weak one.  --check reads it. */
static const char *strong_sfx(lx *x, mspace sp)
{
	if (sp != SP_GLOBAL && sp != SP_SHARED && sp != SP_GENERIC)
		return "";
	if (lx_has(x, "volatile"))
		return ".STRONG.SYS";
	if (!lx_has(x, "relaxed") && !lx_has(x, "acquire") && !lx_has(x, "release"))
		return "";
	const char *s = membar_scope(x);
	return !strcmp(s, "CTA") ? ".STRONG.CTA" : !strcmp(s, "SYS") ? ".STRONG.SYS" : ".STRONG.GPU";
}

/* one scalar element: d (vreg, 32-bit or pair) from / to address a + k */
static void mem_elem(lx *x, mspace sp, bool store, ptype t, int v, const maddr *a0, int64_t k)
{
	maddr a = *a0;
	a.off += k;
	char at[64], sl[16];
	const char *vf = t.bits == 64 ? "w" : "r", *so = strong_sfx(x, sp);
	if (sp == SP_CONST) {
		char base[16];
		snprintf(base, sizeof base, a.base < 0 ? "RZ" : "$1");
		if (a.base < 0)
			emit(x, t.bits == 64 ? "dw" : "dr", V(v), "LDC%s $0, c[0x%x][RZ+%" PRId64 "]", size_sfx(t),
			     PTX_CONST_BANK, a.off);
		else
			emit(x, t.bits == 64 ? "dw ur" : "dr ur", V(v, a.base), "LDC%s $0, c[0x%x][$1+%" PRId64 "]",
			     size_sfx(t), PTX_CONST_BANK, a.off);
		return;
	}
	if (store) {
		addr_text(&a, 1, at, sizeof at);
		if (a.base >= 0)
			snprintf(sl, sizeof sl, "u%s u%c", vf, a.form);
		else
			snprintf(sl, sizeof sl, "u%s", vf);
		if (a.base >= 0)
			emit(x, sl, V(v, a.base), "%s%s%s %s, $0", mnem(sp, true), size_sfx(t), so, at);
		else
			emit(x, sl, V(v), "%s%s%s %s, $0", mnem(sp, true), size_sfx(t), so, at);
	} else {
		addr_text(&a, 1, at, sizeof at);
		if (a.base >= 0)
			snprintf(sl, sizeof sl, "d%s u%c", vf, a.form);
		else
			snprintf(sl, sizeof sl, "d%s", vf);
		x->varying_next = 1;
		if (a.base >= 0)
			emit(x, sl, V(v, a.base), "%s%s%s $0, %s", mnem(sp, false), size_sfx(t), so, at);
		else
			emit(x, sl, V(v), "%s%s%s $0, %s", mnem(sp, false), size_sfx(t), so, at);
	}
}

/* One element of ld.param of a kernel at byte off of c[0], plus the low
 * word of vreg base unless it is -1: a register d (-1: '_', nothing to
 * load). */
static void ld_param_elem(lx *x, ptype t, const ptx_opnd *o, int d, int base, int64_t off)
{
	if (d < 0)
		return;
	ptx_opnd e = *o;
	e.kind = PO_REG;
	e.reg = d;
	int v = lx_dst(x, &e, t.bits == 64 ? RC_64 : RC_32);
	if (v < 0)
		return;
	if (base >= 0) {
		/* (past c[0]'s end: the run's fault, as for ld.const) */
		emit(x, t.bits == 64 ? "dw ur" : "dr ur", V(v, base), "LDC%s $0, c[0x0][$1+%" PRId64 "]",
		     size_sfx(t), off);
	} else if (t.bits == 64) {
		emit(x, "dr", V(v), "MOV $0, c[0x0][0x%" PRIx64 "]", (uint64_t)off);
		emit(x, "dh", V(v), "MOV $0, c[0x0][0x%" PRIx64 "]", (uint64_t)off + 4);
	} else if (t.bits == 32) {
		emit(x, "dr", V(v), "MOV $0, c[0x0][0x%" PRIx64 "]", (uint64_t)off);
	} else {
		emit(x, "dr", V(v), "LDC%s $0, c[0x0][RZ+%" PRId64 "]", size_sfx(t), off);
	}
}

/* ld.param of a kernel: the parameter block is c[0].  A field of an
 * aggregate parameter (.b8 name[N]) is read at its offset, one element
 * of a .v2/.v4 after the other; PTX requires the address aligned to the
 * access, which the parameter's place in c[0] keeps (lx_param_layout)
 * when the kernel's own offsets are aligned. */
static void ld_param(lx *x, ptype t, const ptx_opnd *d, const ptx_opnd *ao)
{
	const int n = lx_has(x, "v2") ? 2 : lx_has(x, "v4") ? 4 : 1;
	const int64_t es = t.bits / 8;
	if (n > 1 && (d->kind != PO_VEC || d->nvec != n)) {
		lx_error(x, d, "expected a vector of %d registers", n);
		return;
	}
	if (ao->kind == PO_ADDR && !ao->sym && ao->reg >= 0) {
		/* a register holding a parameter's address (mov of its name:
		 * lx_var_addr), as nvcc reads a __grid_constant__ parameter */
		if (x->f->regs[ao->reg].rc == RC_PRED) {
			lx_error(x, ao, "a predicate is not an address");
			return;
		}
		for (int k = 0; k < n; k++)
			ld_param_elem(x, t, d, n > 1 ? d->vec[k] : d->reg, lx_reg(x, ao->reg), ao->imm + k * es);
		return;
	}
	if (ao->kind != PO_ADDR || !ao->sym || ao->reg >= 0) {
		lx_unsupported(x, "ld.param from this address");
		return;
	}
	uint32_t size;
	int64_t off = lx_param_off(x, ao->sym, &size);
	if (off < 0) {
		lx_error(x, ao, "'%s' is not a parameter of %s", ao->sym, x->f->name);
		return;
	}
	if (ao->imm < 0 || ao->imm + n * es > (int64_t)size) {
		lx_error(x, ao, "ld.param of %" PRId64 " bytes at %s%+" PRId64 ": outside parameter %s (%" PRIu32
			 " bytes)", n * es, ao->sym, ao->imm, ao->sym, size);
		return;
	}
	if ((off + ao->imm) % es) {
		lx_error(x, ao, "ld.param at %s%+" PRId64 ": misaligned for .%c%u", ao->sym, ao->imm, t.k, t.bits);
		return;
	}
	for (int k = 0; k < n; k++)
		ld_param_elem(x, t, d, n > 1 ? d->vec[k] : d->reg, -1, off + ao->imm + k * es);
}

/* the MEMBAR of a fence, or of a release/acquire access, of x's scope
 * (.cta, .sys; .gpu and none: GPU) */
static const char *membar_scope(lx *x)
{
	return lx_has(x, "cta") ? "CTA" : lx_has(x, "sys") ? "SYS" : "GPU";
}

/* A release access is a fence of its scope then the access; an acquire
 * one, the access then a fence (PTX's memory consistency model: its
 * release and acquire patterns).  The fence before, when x has one. */
static void release_fence(lx *x)
{
	if (lx_has(x, "release") || lx_has(x, "acq_rel"))
		emit(x, "", V(0), "MEMBAR.%s", membar_scope(x));
}

/* the fence after */
static void acquire_fence(lx *x)
{
	if (lx_has(x, "acquire") || lx_has(x, "acq_rel"))
		emit(x, "", V(0), "MEMBAR.%s", membar_scope(x));
}

static bool op_ldst(lx *x)
{
	bool store = !strcmp(x->in->op, "st");
	if (!lx_nops(x, 2, 2))
		return true;
	ptype t = lx_type(x->in);
	mspace sp = space_of(x);
	const ptx_opnd *vo = &x->in->o[store ? 1 : 0], *ao = &x->in->o[store ? 0 : 1];
	if (t.k == 'h' || t.bits == 0 || (t.bits == 64 && t.k == 'f' && false)) {
		lx_unsupported(x, NULL);
		return true;
	}
	maddr a;
	const bool frame = sp == SP_PARAM;
	if (sp == SP_PARAM) {
		if (!store && x->f->is_entry && ao->kind == PO_ADDR &&
		    (ao->sym ? lx_param_off(x, ao->sym, &(uint32_t){ 0 }) >= 0 : ao->reg >= 0)) {
			ld_param(x, t, vo, ao);
			return true;
		}
		/* a function's arguments, and the arguments of a call: its frame
		 * in local memory (call.c) */
		if (!call_param(x, ao, store, &a.off, &a.frame))
			return true;
		a.base = MB_SP;
		a.form = 'r';
		sp = SP_LOCAL;
	} else if (!resolve_addr(x, ao, sp, &a)) {
		return true;
	}
	if (sp == SP_CONST && store) {
		lx_error(x, ao, "st.const is not allowed");
		return true;
	}
	int n = lx_has(x, "v2") ? 2 : lx_has(x, "v4") ? 4 : 1;
	int64_t es = t.bits / 8;
	ptx_rclass rc = t.bits == 64 ? RC_64 : RC_32;
	release_fence(x);
	for (int k = 0; k < n; k++) {
		int reg;
		if (n == 1) {
			if (vo->kind != PO_REG && !(store && (vo->kind == PO_IMM || vo->kind == PO_FIMM))) {
				lx_error(x, vo, "expected a register");
				return true;
			}
			reg = vo->kind == PO_REG ? vo->reg : -2;
		} else {
			if (vo->kind != PO_VEC || vo->nvec != n) {
				lx_error(x, vo, "expected a vector of %d registers", n);
				return true;
			}
			reg = vo->vec[k];
		}
		int v;
		if (reg == -2) {
			v = rc == RC_64 ? lx_reg64(x, vo) : lx_reg32(x, vo);
		} else if (reg < 0 || (frame && !store && !lx_reg_read(x->f, x->in, reg))) {
			if (store) {
				lx_error(x, vo, "'_' in a stored vector");
				return true;
			}
			/* a load into '_', or from a call's frame into a register
			 * nothing reads (nvcc copies a returned struct's padding,
			 * which the callee never wrote: --check would call it
			 * an uninitialised read): nothing to load */
			if (frame)
				continue;
			v = lx_tmp(x, rc);
		} else {
			/* a store may name a register wider than its type (nvcc
			 * stores the low word of a 64-bit one: st.u32 [a], %rd):
			 * the value is truncated, and a 64-bit vreg printed as
			 * 'r' is its low register */
			bool wide = store && rc == RC_32 && x->f->regs[reg].rc == RC_64;
			if (x->f->regs[reg].rc != rc && !wide) {
				lx_error(x, vo, "register %s does not hold a .%c%u value", x->f->regs[reg].name, t.k, t.bits);
				return true;
			}
			v = lx_reg(x, reg);
		}
		mem_elem(x, sp, store, t, v, &a, k * es);
	}
	acquire_fence(x);
	return true;
}

static bool op_atom(lx *x)
{
	bool red = !strcmp(x->in->op, "red");
	const ptx_ins *in = x->in;
	ptype t = lx_type(in);
	mspace sp = space_of(x);
	static const char *const ops[] = { "add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec" };
	const char *op = NULL;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (lx_has(x, ops[i]))
			op = ops[i];
	/* f32/f64 add, inc and dec are ATOMG_X/ATOMS_X of num.isa (not at a
	 * generic address: GEN_ATOM of ptx.isa has the integer ones) */
	const bool opx = op && (t.k == 'f' || !strcmp(op, "inc") || !strcmp(op, "dec"));
	if (!op || (opx && (t.k == 'f' ? strcmp(op, "add") != 0 : t.bits != 32)) ||
	    (sp != SP_GLOBAL && sp != SP_SHARED && (sp != SP_GENERIC || opx)) || lx_has(x, "v2") || lx_has(x, "v4") ||
	    t.bits < 32) {
		lx_unsupported(x, "atomics other than add/min/max/and/or/xor/exch/cas/inc/dec on .global or "
				  ".shared addresses, or add/min/max/and/or/xor/exch/cas on integers at generic "
				  "addresses, need instructions the ISA does not have yet");
		return true;
	}
	bool cas = !strcmp(op, "cas");
	int nsrc = cas ? 2 : 1;
	if (!lx_nops(x, (red ? 1 : 2) + nsrc, (red ? 1 : 2) + nsrc))
		return true;
	const ptx_opnd *ao = &in->o[red ? 0 : 1];
	maddr a;
	if (!resolve_addr(x, ao, sp, &a))
		return true;
	bool w = t.bits == 64;
	const char *type = t.k == 'f' ? (w ? "F64" : "F32") : w ? (t.k == 's' ? "S64" : "U64") : (t.k == 's' ? "S32" : "U32");
	/* red, or an atom whose old value nothing reads (nvcc writes one for
	 * atomicAdd(...) with the result unused): the old value goes to RZ,
	 * so the executor knows it is not used (doc/distributed.md merges
	 * such atomics from grid parts; a fetched value it cannot) */
	const bool dead = red || !lx_reg_read(x->f, in, in->o[0].reg);
	int d = dead ? -1 : lx_dst(x, &in->o[0], w ? RC_64 : RC_32);
	if (!dead && d < 0)
		return true;
	int b = w ? lx_reg64(x, &in->o[red ? 1 : 2]) : lx_reg32(x, &in->o[red ? 1 : 2]);
	int c = cas ? (w ? lx_reg64(x, &in->o[3]) : lx_reg32(x, &in->o[3])) : -1;
	char at[64], sl[32], up[8];
	const int k = dead ? 0 : 1; /* the slots: [d,] b, c, the address */
	addr_text(&a, k + 2, at, sizeof at);
	char f = w ? 'w' : 'r';
	snprintf(up, sizeof up, "u%c", a.form);
	snprintf(sl, sizeof sl, "%s u%c u%c %s", dead ? "" : f == 'w' ? "dw" : "dr", f, f, a.base >= 0 ? up : "");
	char op_up[8], dst[8] = "RZ", third[8] = "";
	for (size_t i = 0; i <= strlen(op); i++)
		op_up[i] = (char)(op[i] >= 'a' && op[i] <= 'z' ? op[i] - 32 : op[i]);
	if (!dead)
		snprintf(dst, sizeof dst, "$0");
	if (cas)
		snprintf(third, sizeof third, ", $%d", k + 1);
	release_fence(x);
	x->varying_next = 1;
	const int *vs = dead ? V(b, c >= 0 ? c : b, a.base) : V(d, b, c >= 0 ? c : b, a.base);
	/* the scope (mem.isa's AtomScope; .gpu, the default, is not written) */
	const char *scope = lx_has(x, "cta") ? ".CTA" : lx_has(x, "sys") ? ".SYS" : "";
	emit(x, sl, vs, "%s.%s.%s%s %s, %s, $%d%s", sp == SP_SHARED ? "ATOMS" : sp == SP_GENERIC ? "ATOM" : "ATOMG",
	     op_up, type, scope, dst, at, k, third);
	acquire_fence(x);
	return true;
}

/* ---- control ------------------------------------------------------------------------- */

static bool op_bra(lx *x)
{
	if (!lx_nops(x, 1, 1))
		return true;
	const ptx_opnd *o = &x->in->o[0];
	if (o->kind != PO_SYM) {
		lx_error(x, o, "expected a label");
		return true;
	}
	bool is_exit = false;
	int l = lx_label_of(x, o->sym, &is_exit);
	if (l < 0) {
		lx_error(x, o, "undefined label '%s'", o->sym);
		return true;
	}
	if (is_exit) {
		lins *e = emit(x, "", V(0), "EXIT");
		e->kind = LK_EXIT;
		return true;
	}
	lins *b = emit(x, "", V(0), "BRA");
	b->kind = LK_BRA;
	b->target = l;
	b->uniform = lx_has(x, "uni");
	return true;
}

/* brx.idx{.uni} index, tlist: the targets' offsets from the instruction
 * after the BRX in a jump table in c[PTX_BRX_BANK] (004 BRX: TargetPC =
 * next PC + the entry, the seed's `(.Base - .Next)` form with .Base = the
 * next instruction) */
static bool op_brx(lx *x)
{
	const ptx_ins *in = x->in;
	if (!lx_has(x, "idx")) {
		lx_unsupported(x, NULL);
		return true;
	}
	if (!lx_nops(x, 2, 2))
		return true;
	const ptx_opnd *lo = &in->o[1];
	int list = -1;
	for (uint32_t i = 0; lo->kind == PO_SYM && i < x->f->nlabels && list < 0; i++)
		if (!strcmp(x->f->labels[i].name, lo->sym))
			list = x->f->labels[i].targets;
	if (list < 0) {
		lx_error(x, lo, "expected the label of a .branchtargets list");
		return true;
	}
	uint32_t n = x->f->btn[list];
	int *tg = malloc(((size_t)n + 1) * sizeof *tg);
	if (!tg) {
		x->c.oom = true;
		return true;
	}
	for (uint32_t k = 0; k < n; k++)
		if ((tg[k] = lx_label_of(x, x->f->btl[list][k], NULL)) < 0) {
			lx_error(x, lo, "undefined label '%s' in .branchtargets", x->f->btl[list][k]);
			free(tg);
			return true;
		}
	int iv = lx_reg32(x, &in->o[0]), t = lx_tmp(x, RC_32), e = lx_tmp(x, RC_32);
	int skip = lx_guard_around(x);
	emit(x, "dr ur", V(t, iv), "SHF.L.U32 $0, $1, 0x2, RZ");
	emit(x, "dr ur", V(e, t), "LDC $0, c[0x%x][$1+0x%" PRIx32 "]", PTX_BRX_BANK, *x->table_bytes);
	lins *b = emit(x, "ur", V(e), "BRX $0, 0x0");
	b->kind = LK_BRX;
	b->targets = tg;
	b->ntargets = (int)n;
	b->uniform = lx_has(x, "uni");
	int next = lc_label(&x->c);
	lc_add(&x->c, LK_LABEL, in->line)->target = next;
	lx_guard_end(x, skip);
	sb_str(x->tables, "        .word ");
	for (uint32_t k = 0; k < n; k++)
		sb_printf(x->tables, "%s.L%u_%d - .L%u_%d", k ? ", " : "", x->kidx, tg[k], x->kidx, next);
	sb_str(x->tables, "\n");
	*x->table_bytes += 4 * n;
	return true;
}

static bool op_ret(lx *x)
{
	if (!x->f->is_entry) {
		/* one epilogue, so that a function's lanes reconverge before
		 * they return (its BSYNCs post-dominate the branches) */
		lins *b = emit(x, "", V(0), "BRA");
		b->kind = LK_BRA;
		b->target = x->ret_label;
		return true;
	}
	lins *e = emit(x, "", V(0), "EXIT");
	e->kind = LK_EXIT;
	return true;
}

static bool op_misc(lx *x)
{
	const char *op = x->in->op;
	if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
		const char *s = membar_scope(x);
		if (lx_has(x, "proxy") || lx_has(x, "alias") || lx_has(x, "async")) {
			lx_unsupported(x, NULL);
			return true;
		}
		emit(x, "", V(0), "MEMBAR.%s", s);
		return true;
	}
	if (!strcmp(op, "nanosleep")) {
		char b[32];
		if (!lx_nops(x, 1, 1))
			return true;
		int v = lx_src32(x, &x->in->o[0], b, sizeof b);
		if (v >= 0)
			emit(x, "ur", V(v), "NANOSLEEP $0");
		else
			emit(x, "", V(0), "NANOSLEEP %s", b);
		return true;
	}
	if (!strcmp(op, "trap")) {
		emit(x, "", V(0), "TRAP 0x0");
		return true;
	}
	if (!strcmp(op, "exit")) {
		lins *e = emit(x, "", V(0), "EXIT");
		e->kind = LK_EXIT;
		return true;
	}
	if (!strcmp(op, "pmevent") || !strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) {
		emit(x, "", V(0), "NOP");
		return true;
	}
	return false;
}

/* ---- barriers -------------------------------------------------------------------------- */

/* the id and count operands of a barrier: text with holes $k.. */
static int bar_ops(lx *x, const ptx_opnd *id, const ptx_opnd *cnt, int *v, int n, char *sl, char *text, size_t tn)
{
	char ib[32], cb[32], it[16], ct[16];
	text[0] = 0;
	int iv = lx_src32(x, id, ib, sizeof ib);
	int cv = cnt ? lx_src32(x, cnt, cb, sizeof cb) : -1;
	if (iv >= 0) {
		v[n] = iv;
		snprintf(it, sizeof it, "$%d", n++);
		strcat(sl, " ur");
	} else {
		const long long b = strtoll(ib, NULL, 10);
		if (b < 0 || b > 15) {
			lx_error(x, id, "a barrier id must be from 0 to 15");
			return n;
		}
		snprintf(it, sizeof it, "0x%" PRIx32, (uint32_t)b);
	}
	if (!cnt) {
		snprintf(text, tn, "%s", it);
		if (iv >= 0) {
			/* a register id alone: count 0 (the whole CTA) */
			snprintf(text, tn, "%s, 0x0", it);
		}
		return n;
	}
	if (cv >= 0) {
		v[n] = cv;
		snprintf(ct, sizeof ct, "$%d", n++);
		strcat(sl, " ur");
	} else {
		uint32_t c = (uint32_t)strtoll(cb, NULL, 10);
		if (c % 32 || c > 0xfff) {
			lx_error(x, cnt, "a barrier count must be a multiple of the warp size (32), at most 4064");
			return n;
		}
		snprintf(ct, sizeof ct, "0x%" PRIx32, c);
	}
	snprintf(text, tn, "%s, %s", it, ct);
	return n;
}

/* Whether f has a nanosleep. */
static bool sleeps(const ptx_func *f)
{
	for (uint32_t i = 0; i < f->nins; i++)
		if (!strcmp(f->ins[i].op, "nanosleep"))
			return true;
	return false;
}

static bool op_bar(lx *x)
{
	const ptx_ins *in = x->in;
	bool barrier = !strcmp(in->op, "barrier");
	if (lx_has(x, "warp")) {
		if (!lx_nops(x, 1, 1))
			return true;
		char b[32];
		int v = lx_src32(x, &in->o[0], b, sizeof b);
		if (v >= 0)
			emit(x, "ur", V(v), "WARPSYNC $0");
		else
			emit(x, "", V(0), "WARPSYNC 0x%" PRIx32, (uint32_t)strtoll(b, NULL, 10));
		return true;
	}
	/* barrier{.cta} without .aligned arrives per thread: TBAR (ptx.isa,
	 * doc/spec-reading.md "PTX barriers (seed 001)"); bar.* and .aligned
	 * are the warp's BAR */
	const char *bar = barrier && !lx_has(x, "aligned") ? "TBAR" : "BAR";
	/* An aligned barrier is reached by the whole warp (PTX), which the
	 * BSYNC at the post-dominator ensures, except that 004's BSYNC lets
	 * the arrived threads go when the missing ones sleep (NANOSLEEP):
	 * where the function sleeps, a WARPSYNC of every thread (004 waits
	 * for sleepers there) reconverges the warp first. */
	if (bar[0] == 'B' && sleeps(x->f))
		emit(x, "", V(0), "WARPSYNC 0xffffffff");
	int v[6];
	char sl[32] = "", ops[64];
	if (lx_has(x, "sync") || lx_has(x, "arrive")) {
		bool arrive = lx_has(x, "arrive");
		if (!lx_nops(x, arrive ? 2 : 1, 2))
			return true;
		bar_ops(x, &in->o[0], in->no > 1 ? &in->o[1] : NULL, v, 0, sl, ops, sizeof ops);
		emit(x, sl, v, "%s.%s %s", bar, arrive ? "ARV" : "SYNC", ops);
		return true;
	}
	if (lx_has(x, "red")) {
		bool popc = lx_has(x, "popc");
		const char *op = popc ? "POPC" : lx_has(x, "and") ? "AND" : lx_has(x, "or") ? "OR" : NULL;
		if (!op || !lx_nops(x, 3, 4)) {
			if (!op)
				lx_error(x, NULL, "bar.red needs .popc, .and or .or");
			return true;
		}
		int d = lx_dst(x, &in->o[0], popc ? RC_32 : RC_PRED);
		bool pn;
		int p = lx_pred(x, &in->o[in->no - 1], &pn);
		if (d < 0)
			return true;
		v[0] = p;
		snprintf(sl, sizeof sl, "%s", pn ? "uq" : "up");
		bar_ops(x, &in->o[1], in->no == 4 ? &in->o[2] : NULL, v, 1, sl, ops, sizeof ops);
		if (in->no == 3 && strchr(ops, ',') == NULL)
			strcat(ops, ", 0x0");
		emit(x, sl, v, "%s.RED.%s %s, $0", bar, op, ops);
		x->varying_next = 0;
		if (popc) {
			emit(x, "dr", V(d), "BAR.RESULT $0, PT");
		} else {
			int t = lx_tmp(x, RC_32);
			emit(x, "dr dp", V(t, d), "BAR.RESULT $0, $1");
		}
		return true;
	}
	lx_unsupported(x, NULL);
	return true;
}

/* ---- warp-wide ---------------------------------------------------------------------------- */

/* WARPSYNC membermask before a .sync warp instruction: 004's WARPSYNC
 * semantics (the named lanes converge, an omitted active lane faults) */
static void warpsync(lx *x, const ptx_opnd *m)
{
	char b[32];
	int v = lx_src32(x, m, b, sizeof b);
	if (v >= 0)
		emit(x, "ur", V(v), "WARPSYNC $0");
	else
		emit(x, "", V(0), "WARPSYNC 0x%" PRIx32, (uint32_t)strtoll(b, NULL, 10));
}

static bool op_shfl(lx *x)
{
	const ptx_ins *in = x->in;
	if (!lx_has(x, "sync")) {
		lx_unsupported(x, "shfl without .sync (removed after sm_70)");
		return true;
	}
	if (!lx_nops(x, 5, 5))
		return true;
	const char *mode = lx_has(x, "up") ? "UP" : lx_has(x, "down") ? "DOWN" : lx_has(x, "bfly") ? "BFLY" : "IDX";
	int d = lx_dst(x, &in->o[0], RC_32);
	int p = in->o[0].reg2 >= 0 ? lx_reg(x, in->o[0].reg2) : -1;
	int a = lx_reg32(x, &in->o[1]);
	if (d < 0)
		return true;
	warpsync(x, &in->o[4]);
	char bb[32], cb[32], sl[32], bt[16], ct[16];
	int bv = lx_src32(x, &in->o[2], bb, sizeof bb);
	int cv = lx_src32(x, &in->o[3], cb, sizeof cb);
	int v[5] = { d, a, p >= 0 ? p : a, bv, cv };
	snprintf(sl, sizeof sl, "dr ur %s %s %s", p >= 0 ? "dp" : "ur", bv >= 0 ? "ur" : "ur", cv >= 0 ? "ur" : "ur");
	if (bv < 0)
		v[3] = a;
	if (cv < 0)
		v[4] = a;
	snprintf(bt, sizeof bt, "%s", bv >= 0 ? "$3" : "");
	if (bv < 0)
		snprintf(bt, sizeof bt, "0x%" PRIx32, (uint32_t)strtoll(bb, NULL, 10) & 0xffu);
	if (cv >= 0)
		snprintf(ct, sizeof ct, "$4");
	else
		snprintf(ct, sizeof ct, "0x%" PRIx32, (uint32_t)strtoll(cb, NULL, 10) & 0xffffu);
	x->varying_next = 1;
	emit(x, sl, v, "SHFL.%s %s, $0, $1, %s, %s", mode, p >= 0 ? "$2" : "PT", bt, ct);
	return true;
}

static bool op_vote(lx *x)
{
	const ptx_ins *in = x->in;
	if (!lx_has(x, "sync")) {
		lx_unsupported(x, "vote without .sync (removed after sm_70)");
		return true;
	}
	if (!lx_nops(x, 3, 3))
		return true;
	bool pn;
	int p = lx_pred(x, &in->o[1], &pn);
	warpsync(x, &in->o[2]);
	x->varying_next = 1;
	if (lx_has(x, "ballot")) {
		int d = lx_dst(x, &in->o[0], RC_32);
		if (d >= 0)
			emit(x, pn ? "dr uq" : "dr up", V(d, p), "VOTE.ANY $0, PT, $1");
		return true;
	}
	const char *mode = lx_has(x, "all") ? "ALL" : lx_has(x, "any") ? "ANY" : lx_has(x, "uni") ? "EQ" : NULL;
	int d = lx_dst(x, &in->o[0], RC_PRED);
	if (!mode || d < 0) {
		if (!mode)
			lx_error(x, NULL, "vote needs .all, .any, .uni or .ballot");
		return true;
	}
	emit(x, pn ? "dp uq" : "dp up", V(d, p), "VOTE.%s RZ, $0, $1", mode);
	return true;
}

/* match.{any,all}.sync.{b32,b64} d{|p}, a, membermask */
static bool op_match(lx *x)
{
	const ptx_ins *in = x->in;
	bool all = lx_has(x, "all");
	if (!lx_has(x, "sync") || (!all && !lx_has(x, "any"))) {
		lx_unsupported(x, NULL);
		return true;
	}
	if (!lx_nops(x, 3, 3))
		return true;
	bool w = lx_type(in).bits == 64;
	int d = lx_dst(x, &in->o[0], RC_32);
	int p = in->o[0].reg2 >= 0 ? lx_reg(x, in->o[0].reg2) : -1;
	int a = w ? lx_reg64(x, &in->o[1]) : lx_reg32(x, &in->o[1]);
	if (d < 0)
		return true;
	warpsync(x, &in->o[2]);
	x->varying_next = 1;
	const char *mode = all ? "ALL" : "ANY", *width = w ? "U64" : "U32";
	if (p >= 0)
		emit(x, w ? "dr uw dp" : "dr ur dp", V(d, a, p), "MATCH.%s.%s $2, $0, $1", mode, width);
	else
		emit(x, w ? "dr uw" : "dr ur", V(d, a), "MATCH.%s.%s PT, $0, $1", mode, width);
	return true;
}

/* redux.sync.{add,min,max}.{u32,s32}, redux.sync.{and,or,xor}.b32 d, a, membermask */
static bool op_redux(lx *x)
{
	const ptx_ins *in = x->in;
	static const char *const ops[][2] = { { "add", "SUM" }, { "min", "MIN" }, { "max", "MAX" },
					     { "and", "AND" }, { "or", "OR" },   { "xor", "XOR" } };
	const char *op = NULL;
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (lx_has(x, ops[k][0]))
			op = ops[k][1];
	ptype t = lx_type(in);
	if (!lx_has(x, "sync") || !op || t.bits != 32 || t.k == 'f') {
		lx_unsupported(x, NULL);
		return true;
	}
	if (!lx_nops(x, 3, 3))
		return true;
	int d = lx_dst(x, &in->o[0], RC_32);
	int a = lx_reg32(x, &in->o[1]);
	if (d < 0)
		return true;
	warpsync(x, &in->o[2]);
	x->varying_next = 1;
	emit(x, "dr ur", V(d, a), "REDUX.%s.%s $0, $1", op, t.k == 's' ? "S32" : "U32");
	return true;
}

static bool op_activemask(lx *x)
{
	if (!lx_nops(x, 1, 1))
		return true;
	int d = lx_dst(x, &x->in->o[0], RC_32);
	x->varying_next = 1;
	if (d >= 0)
		emit(x, "dr", V(d), "VOTE.ANY $0, PT, PT");
	return true;
}

/* ---- dispatch ---------------------------------------------------------------------------- */

static const struct {
	const char *op;
	bool (*fn)(lx *x);
} table[] = {
	{ "mov", op_mov }, { "cvta", op_cvta }, { "cvt", op_cvt },
	{ "add", op_addsub }, { "sub", op_addsub }, { "addc", op_addsub }, { "subc", op_addsub },
	{ "mul", op_mul }, { "mad", op_mul },
	{ "and", op_logic }, { "or", op_logic }, { "xor", op_logic }, { "not", op_logic }, { "cnot", op_logic },
	{ "shl", op_shift }, { "shr", op_shift },
	{ "min", op_minmax }, { "max", op_minmax }, { "neg", op_negabs }, { "abs", op_negabs },
	{ "popc", op_bits }, { "clz", op_bits }, { "brev", op_bits }, { "bfind", op_bits },
	{ "prmt", op_prmt }, { "lop3", op_lop3 }, { "setp", op_setp }, { "selp", op_selp },
	{ "fma", op_farith },
	{ "ld", op_ldst }, { "ldu", op_ldst }, { "st", op_ldst }, { "atom", op_atom }, { "red", op_atom },
	{ "bra", op_bra }, { "brx", op_brx }, { "ret", op_ret }, { "call", op_call }, { "exit", op_misc }, { "membar", op_misc }, { "fence", op_misc },
	{ "nanosleep", op_misc }, { "trap", op_misc }, { "prefetch", op_misc }, { "prefetchu", op_misc },
	{ "pmevent", op_misc },
	{ "bar", op_bar }, { "barrier", op_bar }, { "shfl", op_shfl }, { "vote", op_vote },
	{ "activemask", op_activemask }, { "match", op_match }, { "redux", op_redux },
};

bool lower_ins(lx *x)
{
	const char *op = x->in->op;
	if (lower_num(x))
		return true;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].op, op)) {
			if (table[i].fn(x))
				return true;
			break;
		}
	/* the float forms of add/sub/mul/mad/min/max */
	if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul") || !strcmp(op, "mad") ||
	    !strcmp(op, "min") || !strcmp(op, "max"))
		return op_farith(x);
	return false;
}
