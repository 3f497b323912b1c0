/* call.c — calls of .func functions (doc/ptx.md, "Calls"): the frame,
 * the arguments, `call` and the prologue and epilogue of a function.
 *
 * Each function reached from a kernel is lowered into that kernel's code
 * (its own label space, register allocation and reconvergence) and runs
 * on a stack in the thread's local memory:
 *   R250        SP: the byte offset of the running activation's frame
 *   R[252:253]  the return address, from LEPC (004: CALL/RET keep no
 *               stack of their own)
 * A frame holds, from SP: the function's arguments (its .param
 * parameters, then its return values; the caller writes the first and
 * reads the second), the saved return address, its .local variables and
 * its spill slots.  A caller's frame ends where its callee's begins: the
 * caller stores the arguments at SP + its frame size, adds its frame size
 * to SP, calls, and subtracts it again.  Every value live across a call
 * is kept in the caller's frame (ralloc.c), so the callee may use every
 * register.  B registers are not saved: each function of a kernel has B
 * registers of its own (lcode.bbase), so a callee's BSSY/BSYNC never
 * waits for its caller's lanes.  The activations of one function (a
 * recursion, or calls from two places) share its B registers and its
 * BSYNCs: lanes of two activations parked at one BSYNC are released
 * together (004's arrivemask is by PC), go on through the epilogue, and
 * part again at RET, each to its own return address; every lane still
 * runs its own path, and the caller's BSYNC reconverges them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/lower.h"

/* ---- the frame -------------------------------------------------------------- */

static uint32_t param_align(const ptx_param *p)
{
	uint32_t a = p->align ? p->align : p->size;
	return a > 16 ? 16 : a ? a : 1;
}

/* offset of argument k (a parameter, or with is_ret a return value) */
static uint32_t arg_off(const ptx_func *f, bool is_ret, uint32_t k)
{
	uint32_t off = 0;
	for (uint32_t pass = 0; pass < 2; pass++) {
		const ptx_param *ps = pass ? f->rets : f->params;
		uint32_t n = pass ? f->nrets : f->nparams;
		for (uint32_t i = 0; i < n; i++) {
			off = align_up(off, param_align(&ps[i]));
			if ((pass == 1) == is_ret && i == k)
				return off;
			off += ps[i].size;
		}
	}
	return off;
}

uint32_t call_ra_off(const ptx_func *f)
{
	return align_up(arg_off(f, true, f->nrets), 8);
}

uint32_t call_frame_head(const ptx_func *f)
{
	return align_up(call_ra_off(f) + 8, 16);
}

/* the offset of f's own parameter or return value sym, or -1 */
static int64_t own_arg(const ptx_func *f, const char *sym)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i].name, sym))
			return arg_off(f, false, i);
	for (uint32_t i = 0; i < f->nrets; i++)
		if (!strcmp(f->rets[i].name, sym))
			return arg_off(f, true, i);
	return -1;
}

/* ---- call ------------------------------------------------------------------- */

/* call{.uni} (rets), fn, (args): the parts of a call instruction */
typedef struct callparts {
	const ptx_opnd *rets, *fn, *args;
} callparts;

static bool parts_of(const ptx_ins *in, callparts *p)
{
	*p = (callparts){ 0 };
	int k = 0;
	if (k < in->no && in->o[k].kind == PO_LIST)
		p->rets = &in->o[k++];
	if (k >= in->no || in->o[k].kind != PO_SYM)
		return false;
	p->fn = &in->o[k++];
	if (k < in->no && in->o[k].kind == PO_LIST)
		p->args = &in->o[k++];
	return k == in->no;
}

const ptx_func *call_callee(const ptx_module *m, const ptx_ins *in)
{
	callparts p;
	if (strcmp(in->op, "call") || !parts_of(in, &p))
		return NULL;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (!m->funcs[i].is_entry && m->funcs[i].defined && !strcmp(m->funcs[i].name, p.fn->sym))
			return &m->funcs[i];
	return NULL;
}

static int list_index(const ptx_opnd *l, const char *sym)
{
	for (int k = 0; l && k < l->nvec; k++)
		if (l->names[k] && !strcmp(l->names[k], sym))
			return k;
	return -1;
}

bool call_param(lx *x, const ptx_opnd *ao, bool store, int64_t *off, bool *frame)
{
	if (ao->kind != PO_ADDR || !ao->sym || ao->reg >= 0) {
		lx_unsupported(x, "a .param access through a register address");
		return false;
	}
	*frame = false;
	int64_t own = x->f->is_entry ? -1 : own_arg(x->f, ao->sym);
	if (own >= 0) {
		*off = own + ao->imm;
		return true;
	}
	/* an argument of a call: the st.param before it, the ld.param of a
	 * return value after it (nvcc's call sequence) */
	const ptx_func *f = x->f;
	uint32_t i = (uint32_t)(x->in - f->ins);
	for (uint32_t j = i; store ? ++j < f->nins : j-- > 0;) {
		if (strcmp(f->ins[j].op, "call"))
			continue;
		callparts p;
		const ptx_func *g = call_callee(x->m, &f->ins[j]);
		if (!g || !parts_of(&f->ins[j], &p))
			break;
		int a = list_index(p.args, ao->sym), r = list_index(p.rets, ao->sym);
		if (a < 0 && r < 0)
			break;
		if ((a >= 0 && (uint32_t)a >= g->nparams) || (a < 0 && (uint32_t)r >= g->nrets))
			break;
		*off = (int64_t)arg_off(g, a < 0, (uint32_t)(a >= 0 ? a : r)) + ao->imm;
		*frame = true;
		return true;
	}
	lx_error(x, ao, "'%s' is no parameter of %s nor an argument of the %s call", ao->sym, f->name,
		 store ? "next" : "previous");
	return false;
}

bool op_call(lx *x)
{
	callparts p;
	if (!parts_of(x->in, &p)) {
		lx_error(x, NULL, "expected call (rets), function, (args)");
		return true;
	}
	const ptx_func *g = call_callee(x->m, x->in);
	if (!g) {
		lx_unsupported(x, "a call of a function the module does not define (or through a pointer)");
		return true;
	}
	if ((p.args ? (uint32_t)p.args->nvec : 0) != g->nparams || (p.rets ? (uint32_t)p.rets->nvec : 0) != g->nrets) {
		lx_error(x, p.fn, "%s takes %u parameters and returns %u values", g->name, g->nparams, g->nrets);
		return true;
	}
	int space = x->fspace[g - x->m->funcs];
	int skip = lx_guard_around(x);
	emit(x, "", V(0), "IADD3 R250, R250, #0, RZ");
	emit(x, "", V(0), "LEPC R[252:253], 0x20");
	lins *c = emit(x, "", V(0), "CALL.REL `(.L%d_entry)", space);
	c->kind = LK_CALL;
	emit(x, "", V(0), "IADD3 R250, R250, #-0, RZ");
	lx_guard_end(x, skip);
	return true;
}

/* ---- prologue and epilogue (printed around the allocated code) -------------- */

/* The prologue also zeroes each aggregate return value (.b8 name[N]):
 * nvcc's callers copy a returned struct whole, its padding too, which no
 * callee writes; PTX leaves those bytes undefined, and zeros keep
 * --check=uninit from reporting the copy of a correct kernel. */
void call_prologue(strbuf *b, const ptx_func *f)
{
	sb_printf(b, "        STL.64 [R250+0x%" PRIx32 "], R[252:253] ;\n", call_ra_off(f));
	for (uint32_t i = 0; i < f->nrets; i++) {
		if (!f->rets[i].is_array)
			continue;
		const uint32_t off = arg_off(f, true, i), n = f->rets[i].size;
		for (uint32_t k = 0; k < n;) {
			const bool word = (off + k) % 4 == 0 && k + 4 <= n;
			sb_printf(b, "        STL%s [R250+0x%" PRIx32 "], RZ ;\n", word ? "" : ".U8", off + k);
			k += word ? 4 : 1;
		}
	}
}

void call_epilogue(strbuf *b, const ptx_func *f)
{
	sb_printf(b, "        LDL.64 R[252:253], [R250+0x%" PRIx32 "] ;\n        RET.ABS R[252:253], 0x0 ;\n",
		  call_ra_off(f));
}
