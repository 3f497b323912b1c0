/* lower.c — PTX kernels to assembly text in the .we syntax: the layout of
 * parameters, shared and local variables, the instruction walk (each
 * instruction lowered by lower_ops.c into virtual-register code), the
 * reconvergence points (reconv.c), register allocation (ralloc.c) and the
 * text, with a `.loc LINE` before the instructions of each PTX line so
 * that reports and traces name the PTX source.  doc/ptx.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/module.h"
#include "ptx/lower.h"
#include "ptx/reconv.h"

/* ---- layout ----------------------------------------------------------------- */

/* shared variables: the module's (every kernel sees them) then the
 * kernel's own; .extern .shared at the end of the static area, 16-byte
 * aligned, where the launch's dynamic bytes begin */
static bool layout_shared(lx *x)
{
	const ptx_module *m = x->m;
	const ptx_func *f = x->f;
	/* .const variables: their offsets in c[3], as print_bank lays them
	 * out; .global ones: their slots in c[PTX_GLOBAL_ADDR_BANK] */
	uint32_t coff = 0, gslot = 0;
	for (uint32_t i = 0; i < m->nvars; i++)
		if (m->vars[i].space == VS_CONST) {
			coff = align_up(coff, m->vars[i].align);
			x->shared_off[i] = coff;
			coff += m->vars[i].elsize * m->vars[i].count;
		} else if (m->vars[i].space == VS_GLOBAL && !m->vars[i].is_extern) {
			x->shared_off[i] = gslot++;
		}
	uint32_t off = 0;
	for (uint32_t pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < (pass ? f->nvars : m->nvars); i++) {
			const ptx_var *v = pass ? &f->vars[i] : &m->vars[i];
			uint32_t *slot = pass ? &x->fshared_off[i] : &x->shared_off[i];
			if (v->space != VS_SHARED || v->is_extern)
				continue;
			off = align_up(off, v->align);
			*slot = off;
			uint64_t end = (uint64_t)off + (uint64_t)v->elsize * v->count;
			if (end > WE_SHARED_MAX) {
				ptx_err(x->g, v->line, 1, "shared variables exceed %u bytes", WE_SHARED_MAX);
				return false;
			}
			off = (uint32_t)end;
		}
	for (uint32_t pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < (pass ? f->nvars : m->nvars); i++) {
			const ptx_var *v = pass ? &f->vars[i] : &m->vars[i];
			if (v->space == VS_SHARED && v->is_extern) {
				if (!x->has_extern_shared)
					off = align_up(off, 16);
				x->has_extern_shared = true;
				(pass ? x->fshared_off : x->shared_off)[i] = off;
			}
		}
	x->shared_bytes = off;
	return true;
}

static bool layout_local(lx *x)
{
	const ptx_func *f = x->f;
	/* a function's .local variables are in its frame, after its
	 * arguments and saved registers (call.c) */
	uint32_t off = f->is_entry ? 0 : call_frame_head(f);
	for (uint32_t i = 0; i < f->nvars; i++) {
		const ptx_var *v = &f->vars[i];
		if (v->space != VS_LOCAL)
			continue;
		off = align_up(off, v->align);
		x->fshared_off[i] = off;
		uint64_t end = (uint64_t)off + (uint64_t)v->elsize * v->count;
		if (end > WE_LOCAL_MAX) {
			ptx_err(x->g, v->line, 1, "local variables exceed %u bytes", WE_LOCAL_MAX);
			return false;
		}
		off = (uint32_t)end;
	}
	x->local_bytes = align_up(off, 8);
	return true;
}

static bool check_params(lx *x)
{
	const ptx_func *f = x->f;
	uint32_t off = 0;
	/* the module's limits (asm/module.h), checked here: what the
	 * assembler refuses in the lowered text is an internal error */
	if (strlen(f->name) > MODULE_NAME_MAX) {
		ptx_err(x->g, f->line, f->col, "kernel name of %zu characters (at most %u)", strlen(f->name),
			MODULE_NAME_MAX);
		x->g->unsupported = true;
		return false;
	}
	if (f->nparams > WE_MAX_PARAMS) {
		ptx_err(x->g, f->line, f->col, "kernel %s has %u parameters (at most %u are supported)", f->name,
			f->nparams, WE_MAX_PARAMS);
		x->g->unsupported = true;
		return false;
	}
	for (uint32_t i = 0; i < f->nparams; i++) {
		const ptx_param *p = &f->params[i];
		uint32_t size, align;
		if (strlen(p->name) > MODULE_NAME_MAX) {
			ptx_err(x->g, f->line, f->col, "parameter %u of %s: a name of %zu characters (at most %u)", i,
				f->name, strlen(p->name), MODULE_NAME_MAX);
			x->g->unsupported = true;
			return false;
		}
		if (!(p->is_array ? p->align <= MODULE_PARAM_ALIGN_MAX : lx_param_type(p) >= 0)) {
			ptx_err(x->g, f->line, f->col, "parameter %s of %s: type .%s (%u bytes, .align %u) not "
				"supported (kernel parameters are 8-, 16- and 32-bit integers, 32- and 64-bit "
				"floats, 64-bit integers, pointers and aggregates .b8 name[N] aligned to at most "
				"%u bytes)",
				p->name, f->name, p->type, p->size, p->align, MODULE_PARAM_ALIGN_MAX);
			x->g->unsupported = true;
			return false;
		}
		uint32_t at;
		lx_param_layout(p, &size, &align);
		if (!module_param_place(&off, size, align, &at)) {
			ptx_err(x->g, f->line, f->col, "parameters of %s exceed %u bytes", f->name,
				WE_PARAM_BYTES_MAX);
			return false;
		}
	}
	return true;
}

/* ---- the walk ------------------------------------------------------------------ */

static void walk(lx *x)
{
	const ptx_func *f = x->f;
	uint32_t li = 0;
	if (x->f->is_entry && x->calls) {
		/* the kernel's frame starts the stack (call.c) */
		lins *l = emit_ng(x, "", V(0), "MOV R250, RZ");
		l->line = f->line;
	}
	for (uint32_t i = 0; i <= f->nins && !x->c.oom; i++) {
		for (; li < f->nlabels && f->labels[li].at == i; li++) {
			lins *l = lc_add(&x->c, LK_LABEL, f->labels[li].line);
			l->target = x->lab[li];
		}
		if (i == f->nins)
			break;
		const ptx_ins *in = &f->ins[i];
		x->in = in;
		x->failed = false;
		x->guard = in->guard >= 0 ? lx_reg(x, in->guard) : -1;
		x->guard_neg = in->guard_neg;
		if (!lower_ins(x))
			lx_unsupported(x, NULL);
	}
	/* falling off the end of a kernel exits, of a function returns
	 * (through its one epilogue: "RET", print_code) */
	x->in = NULL;
	uint32_t line = f->nins ? f->ins[f->nins - 1].line : f->line;
	if (!f->is_entry)
		lc_add(&x->c, LK_LABEL, line)->target = x->ret_label;
	lins *l = lc_add(&x->c, LK_EXIT, line);
	l->text = strdup(f->is_entry ? "EXIT" : "RET");
	if (!l->text)
		x->c.oom = true;
}

/* ---- text ----------------------------------------------------------------------- */

static void print_reg(strbuf *b, const lcode *c, const lslot *s)
{
	int p = c->v[s->v].phys;
	switch (s->form) {
	case 'w': sb_printf(b, "R[%d:%d]", p, p + 1); break;
	case 'a': sb_printf(b, "R%d.64", p); break;
	case 'h': sb_printf(b, "R%d", p + 1); break;
	case 'p': sb_printf(b, "P%d", p); break;
	case 'q': sb_printf(b, "!P%d", p); break;
	default: sb_printf(b, "R%d", p); break;
	}
}

/* '#N' / '#-N' in a text: N plus the frame size, or its negation (an
 * address or an SP adjustment past the unit's frame, call.c); returns
 * the characters read */
static size_t print_frame_off(strbuf *b, const lcode *c, const char *t)
{
	const char *p = t + 1;
	bool neg = *p == '-';
	if (neg)
		p++;
	char *end;
	unsigned long long n = strtoull(p, &end, 10);
	sb_printf(b, "%s0x%llx", neg ? "-" : "", n + c->frame);
	return (size_t)(end - t);
}

static void print_ins(strbuf *b, const lcode *c, const lins *l)
{
	sb_str(b, "        ");
	if (l->guard >= 0)
		sb_printf(b, "@%sP%d ", l->guard_neg ? "!" : "", c->v[l->guard].phys);
	for (const char *t = l->text; t && *t; t++) {
		if (*t == '$' && t[1] >= '0' && t[1] <= '7' && t[1] - '0' < l->nslot) {
			print_reg(b, c, &l->s[t[1] - '0']);
			t++;
		} else if (*t == '#') {
			t += print_frame_off(b, c, t) - 1;
		} else {
			sb_add(b, t, 1);
		}
	}
	if (l->kind == LK_BRA)
		sb_printf(b, " `(.L%u_%d)", c->kidx, l->target);
	sb_str(b, " ;\n");
}

/* a lowered kernel or function */
typedef struct lunit {
	const ptx_func *f;
	lcode c;
	uint32_t shared_bytes;
	uint32_t bused;               /* B registers its code uses */
	bool ok;
} lunit;

static void print_code(strbuf *b, const lunit *u)
{
	const lcode *c = &u->c;
	uint32_t line = 0;
	if (!u->f->is_entry) {
		sb_printf(b, ".L%u_entry:\n", c->kidx);
		call_prologue(b, u->f);
	}
	for (uint32_t i = 0; i < c->n; i++) {
		const lins *l = &c->ins[i];
		if (l->kind == LK_LABEL) {
			sb_printf(b, ".L%u_%d:\n", c->kidx, l->target);
			continue;
		}
		if (l->line && l->line != line) {
			sb_printf(b, "        .loc %" PRIu32 "\n", l->line);
			line = l->line;
		}
		if (l->kind == LK_EXIT && l->guard < 0 && l->text && !strcmp(l->text, "RET"))
			call_epilogue(b, u->f);
		else
			print_ins(b, c, l);
	}
}

static void print_header(strbuf *b, const lunit *k, uint32_t local_bytes)
{
	const ptx_func *f = k->f;
	sb_printf(b, "\n.kernel %s\n        .dialect ptx\n", f->name);
	for (uint32_t i = 0; i < f->nparams; i++) {
		const ptx_param *p = &f->params[i];
		if (p->is_array)
			sb_printf(b, "        .param .align %" PRIu32 " b8[%" PRIu32 "] %s\n", p->align, p->size, p->name);
		else
			sb_printf(b, "        .param %s %s\n", module_param_types[lx_param_type(p)].name, p->name);
	}
	if (k->shared_bytes)
		sb_printf(b, "        .shared %" PRIu32 "\n", k->shared_bytes);
	if (local_bytes)
		sb_printf(b, "        .local %" PRIu32 "\n", local_bytes);
}

/* the module's state the kernels share */
typedef struct lmod {
	unsigned nspaces;             /* label spaces so far (kernels, function copies) */
	strbuf tables;                /* brx.idx jump tables */
	uint32_t table_bytes;
} lmod;

static bool has_call(const ptx_func *f)
{
	for (uint32_t i = 0; i < f->nins; i++)
		if (!strcmp(f->ins[i].op, "call"))
			return true;
	return false;
}

/* the B registers BSSY uses in c (a function saves them, call.c) */
static uint32_t bregs_used(const lcode *c)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		const char *t = c->ins[i].text;
		if (t && !strncmp(t, "BSSY B", 6))
			m |= 1u << (atoi(t + 6) & 15);
	}
	return m;
}

/* lower kernel or function f into u (label space `space`, B registers
 * from bbase on) */
static void lower_unit(const ptx_module *m, const ptx_func *f, ptx_diags *g, lmod *mod, const int *fspace,
		       unsigned space, uint32_t bbase, lunit *u)
{
	lx x = { .m = m, .f = f, .g = g, .exit_label = -1, .kidx = space, .tables = &mod->tables,
		 .table_bytes = &mod->table_bytes, .fspace = fspace, .calls = has_call(f) };
	size_t errs = g->n;
	x.rv = malloc(((size_t)f->nregs + 1) * sizeof *x.rv);
	x.lab = malloc(((size_t)f->nlabels + 1) * sizeof *x.lab);
	x.shared_off = malloc(((size_t)m->nvars + 1) * sizeof *x.shared_off);
	x.fshared_off = malloc(((size_t)f->nvars + 1) * sizeof *x.fshared_off);
	bool ok = x.rv && x.lab && x.shared_off && x.fshared_off;
	if (!ok)
		g->oom = true;
	x.c.kidx = x.kidx;
	x.c.bbase = bbase;
	x.c.stack = x.calls || !f->is_entry;
	for (uint32_t i = 0; ok && i < f->nregs; i++)
		x.rv[i] = -1;
	for (uint32_t i = 0; ok && i < f->nlabels; i++)
		x.lab[i] = lc_label(&x.c);
	x.ret_label = lc_label(&x.c);
	for (uint32_t i = 0; ok && i < m->nvars; i++)
		x.shared_off[i] = UINT32_MAX;
	for (uint32_t i = 0; ok && i < f->nvars; i++) {
		x.fshared_off[i] = UINT32_MAX;
		if (!f->is_entry && f->vars[i].space == VS_SHARED) {
			ptx_err(g, f->vars[i].line, 1, ".shared variable %s inside function %s not supported",
				f->vars[i].name, f->name);
			g->unsupported = true;
			ok = false;
		}
	}
	ok = ok && (!f->is_entry || check_params(&x)) && layout_shared(&x) && layout_local(&x);
	if (ok)
		walk(&x);
	ok = ok && g->n == errs && !x.c.oom;
	ralloc_info ri = { .local_bytes = x.local_bytes };
	if (ok) {
		peep_copies(&x.c);
		peep_madwide(&x.c);
		peep_plogic(&x.c);
		peep_ifconvert(&x.c);
	}
	if (ok && !reconv_place(&x.c)) {
		ptx_err(g, f->line, f->col, "%s: more than 16 reconvergence points (B registers) in the kernel "
			"and the functions it calls", f->name);
		ok = false;
	}
	u->bused = bregs_used(&x.c);
	if (ok && !ralloc_run(&x.c, &ri))
		g->oom = true;
	ok = ok && !x.c.oom && !g->oom;
	x.c.frame = align_up(ri.local_bytes, 16);
	if (ok && x.c.frame > WE_LOCAL_MAX) {
		ptx_err(g, f->line, f->col, "%s: local memory with spills exceeds %u bytes", f->name, WE_LOCAL_MAX);
		ok = false;
	}
	u->f = f;
	u->c = x.c;
	u->shared_bytes = x.shared_bytes;
	u->ok = ok;
	free(x.rv);
	free(x.lab);
	free(x.shared_off);
	free(x.fshared_off);
}

/* the functions kernel k reaches, in the order of the module (reach[i]),
 * and whether a call cycle (recursion) is among them */
static bool reach_funcs(const ptx_module *m, const ptx_func *k, bool *reach)
{
	uint32_t *stack = malloc(((size_t)m->nfuncs + 1) * sizeof *stack), n = 0;
	if (!stack)
		return false;
	memset(reach, 0, m->nfuncs * sizeof *reach);
	stack[n++] = (uint32_t)(k - m->funcs);
	while (n) {
		const ptx_func *f = &m->funcs[stack[--n]];
		for (uint32_t i = 0; i < f->nins; i++) {
			const ptx_func *g = call_callee(m, &f->ins[i]);
			if (g && !reach[g - m->funcs]) {
				reach[g - m->funcs] = true;
				stack[n++] = (uint32_t)(g - m->funcs);
			}
		}
	}
	free(stack);
	return true;
}

/* the stack a call of f needs beyond the caller's frame: f's frame plus
 * its deepest callee's; UINT32_MAX when f may recurse (depth: the
 * functions on the current path, a cycle among them is recursion) */
static uint32_t stack_need(const ptx_module *m, const lunit *units, uint32_t fi, uint8_t *onpath)
{
	if (onpath[fi])
		return UINT32_MAX;
	onpath[fi] = 1;
	const ptx_func *f = &m->funcs[fi];
	uint32_t deepest = 0;
	for (uint32_t i = 0; i < f->nins && deepest != UINT32_MAX; i++) {
		const ptx_func *g = call_callee(m, &f->ins[i]);
		if (!g)
			continue;
		uint32_t s = stack_need(m, units, (uint32_t)(g - m->funcs), onpath);
		if (s == UINT32_MAX || s > deepest)
			deepest = s;
	}
	onpath[fi] = 0;
	if (deepest == UINT32_MAX)
		return UINT32_MAX;
	return units[fi].c.frame + deepest;
}

static bool lower_kernel(const ptx_module *m, const ptx_func *k, ptx_diags *g, strbuf *out, lmod *mod)
{
	uint32_t nf = m->nfuncs;
	bool *reach = calloc(nf + 1, sizeof *reach);
	int *fspace = malloc((nf + 1) * sizeof *fspace);
	lunit *units = calloc(nf + 1, sizeof *units);
	uint8_t *onpath = calloc(nf + 1, 1);
	bool ok = reach && fspace && units && onpath && reach_funcs(m, k, reach);
	if (!ok)
		g->oom = true;
	unsigned kspace = mod->nspaces++;
	for (uint32_t i = 0; ok && i < nf; i++)
		fspace[i] = reach[i] ? (int)mod->nspaces++ : -1;
	/* the kernel, then each function, on B registers of their own */
	lunit ku = { 0 };
	uint32_t bnext = 0;
	if (ok) {
		lower_unit(m, k, g, mod, fspace, kspace, bnext, &ku);
		ok = ku.ok;
		bnext = 32u - (uint32_t)__builtin_clz(ku.bused | 1u);
	}
	for (uint32_t i = 0; ok && i < nf; i++)
		if (reach[i]) {
			lower_unit(m, &m->funcs[i], g, mod, fspace, (unsigned)fspace[i], bnext, &units[i]);
			ok = units[i].ok;
			if (units[i].bused)
				bnext = 32u - (uint32_t)__builtin_clz(units[i].bused);
		}
	if (ok) {
		/* the kernel's frame, then its deepest chain of calls; with
		 * recursion a fixed stack, whose overflow is an out-of-range
		 * local access (a runtime exception) */
		uint32_t need = stack_need(m, units, (uint32_t)(k - m->funcs), onpath); /* (units[k]: no frame) */
		uint64_t local = (uint64_t)ku.c.frame + (need == UINT32_MAX ? PTX_RECURSION_STACK : need);
		if (local > WE_LOCAL_MAX)
			local = WE_LOCAL_MAX;
		print_header(out, &ku, (uint32_t)local);
		print_code(out, &ku);
		for (uint32_t i = 0; i < nf; i++)
			if (reach[i])
				print_code(out, &units[i]);
		sb_str(out, ".end\n");
	}
	lcode_free(&ku.c);
	for (uint32_t i = 0; units && i < nf; i++)
		lcode_free(&units[i].c);
	free(reach);
	free(fspace);
	free(units);
	free(onpath);
	return ok;
}

/* the variables of one space with their data as a constant bank (.const
 * variables: c[3], which every kernel reads; .global ones: their initial
 * image), and for the .global ones each one's offset in the image and the
 * slots of their addresses (PTX_GLOBAL_*_BANK).  false when they do not
 * fit: .const ones in 64 KiB, as in CUDA; the initial image of the
 * .global ones too, and their addresses (8 bytes each), which is this
 * front end's limit (doc/ptx.md). */
static bool print_bank(const ptx_module *m, ptx_diags *g, strbuf *out, ptx_space space, unsigned bank)
{
	bool any = false, fits = true;
	uint64_t off = 0, n = 0;
	strbuf offs = { 0 };
	for (uint32_t i = 0; i < m->nvars; i++) {
		const ptx_var *v = &m->vars[i];
		if (v->space != space || v->is_extern)
			continue;
		if (!any)
			sb_printf(out, ".const %u\n", bank);
		any = true;
		const uint64_t a = (off + v->align - 1u) / v->align * v->align;
		const uint32_t size = v->elsize * v->count;
		if (a + size > WE_CBANK_MAX || 8 * ++n > WE_CBANK_MAX) {
			ptx_err(g, v->line, v->col,
				space == VS_CONST ? "%s: .const variables exceed %u bytes"
						  : "%s: .global variables of more than %u bytes in all are not supported",
				v->name, WE_CBANK_MAX);
			g->unsupported = space == VS_GLOBAL;
			fits = false;
			break;
		}
		if (a > off)
			sb_printf(out, "        .zero %" PRIu64 "\n", a - off);
		off = a;
		sb_printf(&offs, "        .dword %" PRIu64 "\n", off);
		if (v->init) {
			sb_str(out, "        .byte ");
			for (uint32_t k = 0; k < size; k++)
				sb_printf(out, "%s%u", k ? ", " : "", v->init[k]);
			sb_str(out, "\n");
		} else if (size) {
			sb_printf(out, "        .zero %" PRIu32 "\n", size);
		}
		off += size;
	}
	if (fits && any && space == VS_GLOBAL) {
		sb_printf(out, ".const %u\n", PTX_GLOBAL_OFF_BANK);
		sb_add(out, offs.s, offs.n);
		sb_printf(out, ".const %u\n        .zero %" PRIu64 "\n", PTX_GLOBAL_ADDR_BANK, 8 * n);
	}
	if (offs.oom)
		out->oom = true;
	free(offs.s);
	if (any)
		sb_str(out, ".text\n");
	return fits;
}

/* whether an instruction of m names variable `name` */
static bool var_used(const ptx_module *m, const char *name)
{
	for (uint32_t f = 0; f < m->nfuncs; f++)
		for (uint32_t i = 0; i < m->funcs[f].nins; i++) {
			const ptx_ins *in = &m->funcs[f].ins[i];
			for (int k = 0; k < in->no; k++)
				if (in->o[k].sym && !strcmp(in->o[k].sym, name))
					return true;
		}
	return false;
}

bool ptx_lower(const ptx_module *m, ptx_diags *g, strbuf *out)
{
	bool ok = true, any = false;
	sb_printf(out, "// lowered from PTX %" PRIu32 ".%" PRIu32 " (%s) by warpemu\n", m->version_major,
		  m->version_minor, m->target);
	for (uint32_t i = 0; i < m->nvars; i++) {
		const ptx_var *v = &m->vars[i];
		if (v->space == VS_GLOBAL && v->is_extern && var_used(m, v->name)) {
			ptx_err(g, v->line, 1, ".extern .global variable %s not supported (no other module defines it)",
				v->name);
			g->unsupported = true;
			ok = false;
		}
	}
	if (!print_bank(m, g, out, VS_CONST, PTX_CONST_BANK) ||
	    !print_bank(m, g, out, VS_GLOBAL, PTX_GLOBAL_IMAGE_BANK))
		return false;
	lmod mod = { 0 };
	uint32_t nk = 0;
	for (uint32_t i = 0; i < m->nfuncs && ok; i++) {
		const ptx_func *f = &m->funcs[i];
		if (!f->is_entry || !f->defined)
			continue;
		any = true;
		if (++nk > MODULE_KERNELS_MAX) {
			ptx_err(g, f->line, f->col, "more than %u kernels in one module", MODULE_KERNELS_MAX);
			ok = false;
			break;
		}
		if (!lower_kernel(m, f, g, out, &mod))
			ok = false;
	}
	if (mod.table_bytes) {
		sb_printf(out, ".const %u\n", PTX_BRX_BANK);
		sb_add(out, mod.tables.s, mod.tables.n);
		sb_str(out, ".text\n");
	}
	if (mod.tables.oom)
		out->oom = true;
	free(mod.tables.s);
	if (ok && !any) {
		ptx_err(g, 0, 0, "the module defines no .entry kernel");
		ok = false;
	}
	return ok && !out->oom;
}
