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
	uint32_t off = 0;
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

static const char *param_type(const ptx_param *p)
{
	if (p->size == 8 && p->align <= 8 && strcmp(p->type, "f64") && strcmp(p->type, "b8"))
		return "ptr";
	if (p->size == 4 && p->align <= 4) {
		if (!strcmp(p->type, "f32"))
			return "f32";
		if (!strcmp(p->type, "s32"))
			return "s32";
		if (strcmp(p->type, "b8"))
			return "u32";
	}
	return NULL;
}

static bool check_params(lx *x)
{
	const ptx_func *f = x->f;
	uint32_t off = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		const ptx_param *p = &f->params[i];
		if (!param_type(p)) {
			ptx_err(x->g, f->line, f->col, "parameter %s of %s: type .%s (%u bytes) not supported "
				"(kernel parameters are 32-bit integers and floats or 64-bit integers and pointers)",
				p->name, f->name, p->type, p->size);
			x->g->unsupported = true;
			return false;
		}
		off = align_up(off, p->size);
		if (off + p->size > WE_PARAM_BYTES_MAX) {
			ptx_err(x->g, f->line, f->col, "parameters of %s exceed %u bytes", f->name,
				WE_PARAM_BYTES_MAX);
			return false;
		}
		off += p->size;
	}
	return true;
}

/* ---- the walk ------------------------------------------------------------------ */

static void walk(lx *x)
{
	const ptx_func *f = x->f;
	uint32_t li = 0;
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
	/* falling off the end of a kernel returns */
	x->in = NULL;
	lins *l = lc_add(&x->c, LK_EXIT, f->nins ? f->ins[f->nins - 1].line : f->line);
	l->text = strdup("EXIT");
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

static void print_ins(strbuf *b, const lcode *c, const lins *l)
{
	sb_str(b, "        ");
	if (l->guard >= 0)
		sb_printf(b, "@%sP%d ", l->guard_neg ? "!" : "", c->v[l->guard].phys);
	for (const char *t = l->text; t && *t; t++) {
		if (*t == '$' && t[1] >= '0' && t[1] <= '7' && t[1] - '0' < l->nslot) {
			print_reg(b, c, &l->s[t[1] - '0']);
			t++;
		} else {
			sb_add(b, t, 1);
		}
	}
	if (l->kind == LK_BRA)
		sb_printf(b, " `(.L%d)", l->target);
	sb_str(b, " ;\n");
}

static void print_code(strbuf *b, const lcode *c)
{
	uint32_t line = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		const lins *l = &c->ins[i];
		if (l->kind == LK_LABEL) {
			sb_printf(b, ".L%d:\n", l->target);
			continue;
		}
		if (l->line && l->line != line) {
			sb_printf(b, "        .loc %" PRIu32 "\n", l->line);
			line = l->line;
		}
		print_ins(b, c, l);
	}
}

static void print_header(strbuf *b, lx *x, uint32_t local_bytes)
{
	const ptx_func *f = x->f;
	sb_printf(b, "\n.kernel %s\n        .dialect ptx\n", f->name);
	for (uint32_t i = 0; i < f->nparams; i++)
		sb_printf(b, "        .param %s %s\n", param_type(&f->params[i]), f->params[i].name);
	if (x->shared_bytes)
		sb_printf(b, "        .shared %" PRIu32 "\n", x->shared_bytes);
	if (local_bytes)
		sb_printf(b, "        .local %" PRIu32 "\n", local_bytes);
}

static bool lower_kernel(const ptx_module *m, const ptx_func *f, ptx_diags *g, strbuf *out)
{
	lx x = { .m = m, .f = f, .g = g, .exit_label = -1 };
	size_t errs = g->n;
	x.rv = malloc(((size_t)f->nregs + 1) * sizeof *x.rv);
	x.lab = malloc(((size_t)f->nlabels + 1) * sizeof *x.lab);
	x.shared_off = malloc(((size_t)m->nvars + 1) * sizeof *x.shared_off);
	x.fshared_off = malloc(((size_t)f->nvars + 1) * sizeof *x.fshared_off);
	bool ok = x.rv && x.lab && x.shared_off && x.fshared_off;
	if (!ok)
		g->oom = true;
	for (uint32_t i = 0; ok && i < f->nregs; i++)
		x.rv[i] = -1;
	for (uint32_t i = 0; ok && i < f->nlabels; i++)
		x.lab[i] = lc_label(&x.c);
	for (uint32_t i = 0; ok && i < m->nvars; i++)
		x.shared_off[i] = UINT32_MAX;
	for (uint32_t i = 0; ok && i < f->nvars; i++)
		x.fshared_off[i] = UINT32_MAX;
	ok = ok && check_params(&x) && layout_shared(&x) && layout_local(&x);
	if (ok)
		walk(&x);
	ok = ok && g->n == errs && !x.c.oom;
	ralloc_info ri = { .local_bytes = x.local_bytes };
	if (ok && !reconv_place(&x.c)) {
		ptx_err(g, f->line, f->col, "kernel %s: more than 16 nested divergent regions", f->name);
		ok = false;
	}
	if (ok && !ralloc_run(&x.c, &ri))
		g->oom = true;
	ok = ok && !x.c.oom && !g->oom;
	if (ok && ri.local_bytes > WE_LOCAL_MAX) {
		ptx_err(g, f->line, f->col, "kernel %s: local memory with spills exceeds %u bytes", f->name,
			WE_LOCAL_MAX);
		ok = false;
	}
	if (ok) {
		print_header(out, &x, ri.local_bytes);
		print_code(out, &x.c);
		sb_str(out, ".end\n");
	}
	lcode_free(&x.c);
	free(x.rv);
	free(x.lab);
	free(x.shared_off);
	free(x.fshared_off);
	return ok;
}

/* .const variables with their data: c[3] (every kernel reads the same) */
static void print_consts(const ptx_module *m, strbuf *out)
{
	bool any = false;
	uint32_t off = 0;
	for (uint32_t i = 0; i < m->nvars; i++) {
		const ptx_var *v = &m->vars[i];
		if (v->space != VS_CONST)
			continue;
		if (!any)
			sb_printf(out, ".const %u\n", PTX_CONST_BANK);
		any = true;
		uint32_t a = align_up(off, v->align);
		if (a > off)
			sb_printf(out, "        .zero %" PRIu32 "\n", a - off);
		off = a;
		uint32_t n = v->elsize * v->count;
		if (v->init) {
			sb_str(out, "        .byte ");
			for (uint32_t k = 0; k < n; k++)
				sb_printf(out, "%s%u", k ? ", " : "", v->init[k]);
			sb_str(out, "\n");
		} else if (n) {
			sb_printf(out, "        .zero %" PRIu32 "\n", n);
		}
		off += n;
	}
	if (any)
		sb_str(out, ".text\n");
}

bool ptx_lower(const ptx_module *m, ptx_diags *g, strbuf *out)
{
	bool ok = true, any = false;
	sb_printf(out, "// lowered from PTX %" PRIu32 ".%" PRIu32 " (%s) by warpemu\n", m->version_major,
		  m->version_minor, m->target);
	for (uint32_t i = 0; i < m->nvars; i++) {
		const ptx_var *v = &m->vars[i];
		if (v->space == VS_GLOBAL) {
			ptx_err(g, v->line, 1, ".global variable %s not supported", v->name);
			g->unsupported = true;
			ok = false;
		}
	}
	print_consts(m, out);
	for (uint32_t i = 0; i < m->nfuncs && ok; i++) {
		const ptx_func *f = &m->funcs[i];
		if (!f->is_entry || !f->defined)
			continue;
		any = true;
		if (!lower_kernel(m, f, g, out))
			ok = false;
	}
	if (ok && !any) {
		ptx_err(g, 0, 0, "the module defines no .entry kernel");
		ok = false;
	}
	return ok && !out->oom;
}
