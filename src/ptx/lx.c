/* lx.c — the lowering context (lower.h lx): emitting instructions over
 * virtual registers, the errors of the instruction being lowered, the
 * registers of PTX operands, and where variables, parameters and labels
 * are.  The driver (lower.c) sets it up; the instruction families
 * (lower_ops.c) use it. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lower.h"

static lins *vemit(lx *x, bool guarded, const char *slots, const int *v, const char *fmt, va_list ap)
{
	lins *l = lc_add(&x->c, LK_INS, x->in ? x->in->line : 0);
	if (x->c.oom)
		return l;
	char buf[256];
	vsnprintf(buf, sizeof buf, fmt, ap);
	l->text = strdup(buf);
	if (!l->text)
		x->c.oom = true;
	for (const char *s = slots; s && *s;) {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (!s[1] || l->nslot >= L_MAX_SLOTS)
			break;
		lslot *q = &l->s[l->nslot];
		q->v = v[l->nslot];
		q->use = s[0] == 'd' ? LU_DEF : s[0] == 'u' ? LU_USE : LU_USE | LU_DEF;
		q->form = s[1];
		l->nslot++;
		s += 2;
	}
	if (guarded) {
		l->guard = x->guard;
		l->guard_neg = x->guard_neg;
	}
	if (x->varying_next) {
		l->varying = true;
		x->varying_next = 0;
	}
	return l;
}

lins *emit(lx *x, const char *slots, const int *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lins *l = vemit(x, true, slots, v, fmt, ap);
	va_end(ap);
	return l;
}

lins *emit_ng(lx *x, const char *slots, const int *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lins *l = vemit(x, false, slots, v, fmt, ap);
	va_end(ap);
	return l;
}

static void ins_text(const ptx_ins *in, char *buf, size_t n)
{
	size_t k = 0;
	for (uint32_t i = 0; i < in->textlen && k + 1 < n; i++) {
		char ch = in->text[i];
		if (ch == '\n' || ch == '\t' || ch == '\r')
			ch = ' ';
		if (ch == ' ' && k && buf[k - 1] == ' ')
			continue;
		buf[k++] = ch;
	}
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
}

void lx_unsupported(lx *x, const char *why)
{
	if (x->failed)
		return;
	x->failed = true;
	x->g->unsupported = true;
	char t[160];
	ins_text(x->in, t, sizeof t);
	ptx_err(x->g, x->in->line, x->in->col, "'%s' not supported%s%s", t, why ? ": " : "", why ? why : "");
}

void lx_error(lx *x, const ptx_opnd *o, const char *fmt, ...)
{
	if (x->failed)
		return;
	x->failed = true;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ptx_err(x->g, x->in->line, o && o->col ? o->col : x->in->col, "%s", msg);
}

int lx_reg(lx *x, int r)
{
	if (x->rv[r] < 0)
		x->rv[r] = lc_vreg(&x->c, x->f->regs[r].rc, r);
	return x->rv[r];
}

int lx_tmp(lx *x, ptx_rclass rc)
{
	return lc_vreg(&x->c, rc, -1);
}

/* The address of a variable named by sym in its own space (shared: byte
 * offset in the CTA's shared memory; local: in the thread's local
 * memory; const: in c[3]; a kernel's parameter: its offset in c[0], the
 * kernel parameter space, which `ld.param [reg]` reads as
 * `__grid_constant__` parameters need); false if there is none. */
bool lx_var_addr(lx *x, const char *sym, ptx_space *space, uint64_t *addr)
{
	for (uint32_t i = x->f->nvars; i-- > 0;)
		if (x->f->vars[i].name && !strcmp(x->f->vars[i].name, sym) &&
		    (x->f->vars[i].space == VS_SHARED || x->f->vars[i].space == VS_LOCAL)) {
			*space = x->f->vars[i].space;
			*addr = x->fshared_off[i];
			return true;
		}
	for (uint32_t i = 0; i < x->m->nvars; i++)
		if (x->m->vars[i].name && !strcmp(x->m->vars[i].name, sym)) {
			/* (a .global variable: its slot in c[PTX_GLOBAL_ADDR_BANK]) */
			*space = x->m->vars[i].space;
			*addr = x->shared_off[i];
			return *space == VS_SHARED || *space == VS_CONST || *space == VS_GLOBAL;
		}
	uint32_t size;
	int64_t off = x->f->is_entry ? lx_param_off(x, sym, &size) : -1;
	*space = VS_PARAM;
	*addr = (uint64_t)(off < 0 ? 0 : off);
	return off >= 0;
}

int lx_param_type(const ptx_param *p)
{
	if (p->is_array)
		return -1;
	if (p->size == 8 && p->align <= 8 && !strcmp(p->type, "f64"))
		return WE_PARAM_F64;
	if (p->size == 8 && p->align <= 8 && strcmp(p->type, "b8"))
		return WE_PARAM_PTR;
	/* 8- and 16-bit parameters take a 32-bit slot (little-endian, so the
	 * value is at the slot's start), and a signed or unsigned value:
	 * nvcc declares a `short` .u16 and loads it with ld.param.s16 */
	if ((p->size == 1 || p->size == 2) && p->align <= p->size)
		return WE_PARAM_S32;
	if (p->size == 4 && p->align <= 4) {
		if (!strcmp(p->type, "f32"))
			return WE_PARAM_F32;
		if (!strcmp(p->type, "s32"))
			return WE_PARAM_S32;
		if (strcmp(p->type, "b8"))
			return WE_PARAM_U32;
	}
	return -1;
}

void lx_param_layout(const ptx_param *p, uint32_t *size, uint32_t *align)
{
	/* as the assembler lays out the .param lines lower.c prints
	 * (module_param_place): an aggregate (.b8 name[N]) at its .align, a
	 * scalar by its type's size (module_param_types) */
	const int t = lx_param_type(p);
	if (p->is_array || t < 0) {
		*size = p->size;
		*align = p->align ? p->align : 1u;
	} else {
		*size = *align = module_param_types[t].size;
	}
}

/* byte offset of kernel parameter sym in c[0] (*size: its bytes there),
 * or -1 */
int64_t lx_param_off(lx *x, const char *sym, uint32_t *psize)
{
	uint32_t bytes = 0;
	for (uint32_t i = 0; i < x->f->nparams; i++) {
		const ptx_param *p = &x->f->params[i];
		uint32_t size, align, at;
		lx_param_layout(p, &size, &align);
		if (!module_param_place(&bytes, size, align, &at))
			return -1; /* (check_params refused the kernel) */
		if (!strcmp(p->name, sym)) {
			*psize = size;
			return at;
		}
	}
	return -1;
}

/* a label whose instruction is an unguarded ret/exit: a branch to it is an
 * EXIT of the lanes that take it (as nvcc's own SASS does), so that lanes
 * that return are gone from the warp at once and a barrier after the
 * branch sees only the live ones (doc/ptx.md, "Early return") */
static bool is_exit_label(const ptx_func *f, uint32_t li)
{
	uint32_t at = f->labels[li].at;
	if (!f->is_entry || at >= f->nins)
		return false;
	const ptx_ins *in = &f->ins[at];
	return in->guard < 0 && (!strcmp(in->op, "ret") || !strcmp(in->op, "exit"));
}

int lx_label_of(lx *x, const char *name, bool *is_exit)
{
	for (uint32_t i = 0; i < x->f->nlabels; i++)
		if (!strcmp(x->f->labels[i].name, name)) {
			if (is_exit)
				*is_exit = is_exit_label(x->f, i);
			return x->lab[i];
		}
	return -1;
}

/* A guarded control transfer whose lanes must reconverge (call,
 * brx.idx): `@!g BRA skip` before it, so that the lanes whose guard is
 * false branch over it and the reconvergence analysis sees the branch;
 * the instructions up to lx_guard_end are unguarded.  Returns the label
 * to place after them, -1 without a guard. */
int lx_guard_around(lx *x)
{
	if (x->guard < 0)
		return -1;
	int skip = lc_label(&x->c);
	lins *b = emit(x, "", V(0), "BRA");
	b->guard_neg = !b->guard_neg;
	b->kind = LK_BRA;
	b->target = skip;
	x->guard = -1;
	return skip;
}

void lx_guard_end(lx *x, int skip)
{
	if (skip >= 0)
		lc_add(&x->c, LK_LABEL, x->in->line)->target = skip;
}

/* Whether any instruction of f other than `self` names register reg
 * (as an operand, a vector element, an address base or a guard); self's
 * own source operands count too.  A register nothing else names holds a
 * value nobody reads. */
bool lx_reg_read(const ptx_func *f, const ptx_ins *self, int reg)
{
	if (reg < 0)
		return false;
	for (uint32_t i = 0; i < f->nins; i++) {
		const ptx_ins *in = &f->ins[i];
		if (in->guard == reg)
			return true;
		for (int k = in == self ? 1 : 0; k < in->no; k++) {
			const ptx_opnd *o = &in->o[k];
			if (o->reg == reg || o->reg2 == reg)
				return true;
			for (int e = 0; o->kind == PO_VEC && e < o->nvec; e++)
				if (o->vec[e] == reg)
					return true;
		}
	}
	return false;
}
