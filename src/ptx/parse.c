/* parse.c — PTX text to the module model of ptx_int.h: directives
 * (.version .target .address_size), variables (.global .const .shared
 * .extern .shared with .align, arrays and initialisers), functions
 * (.entry / .func, parameters, return parameters, prototypes), and in a
 * body: .reg declarations (%r<300>), .local/.shared/.param variables,
 * labels, .branchtargets, .pragma, { } scopes (flattened) and
 * instructions.  Malformed text is a parse error with its file:line:col;
 * what is not checked here (the instruction set) is lower*.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "ptx/lex.h"
#include "ptx/ptx_int.h"

typedef struct pp {
	ptx_lexer L;
	size_t i;
	ptx_diags *g;
	ptx_module *m;
	bool bad;                     /* an error in the current statement */
	int depth;                    /* the { } scope depth in a body */
} pp;

static const ptx_tok *cur(pp *p)
{
	return &p->L.t[p->i];
}

static const ptx_tok *peek(pp *p, size_t k)
{
	size_t j = p->i + k;
	return j < p->L.n ? &p->L.t[j] : &p->L.t[p->L.n - 1];
}

static void adv(pp *p)
{
	if (cur(p)->kind != PT_EOF)
		p->i++;
}

static void perr(pp *p, const ptx_tok *t, const char *fmt, const char *what)
{
	if (p->bad)
		return;
	p->bad = true;
	char buf[300];
	snprintf(buf, sizeof buf, fmt, what);
	if (t->kind == PT_EOF)
		ptx_err(p->g, t->line, t->col, "%s, found the end of the file", buf);
	else
		ptx_err(p->g, t->line, t->col, "%s, found '%.*s'", buf, (int)(t->n > 40 ? 40 : t->n), t->s);
}

static bool accept(pp *p, char c)
{
	if (ptx_tok_punct(cur(p), c)) {
		adv(p);
		return true;
	}
	return false;
}

static bool expect(pp *p, char c)
{
	if (accept(p, c))
		return true;
	char w[2] = { c, 0 };
	perr(p, cur(p), "expected '%s'", w);
	return false;
}

/* skip to just after the next ';' (or before a '}' / EOF) */
static void recover(pp *p)
{
	while (cur(p)->kind != PT_EOF && !ptx_tok_punct(cur(p), ';') && !ptx_tok_punct(cur(p), '}'))
		adv(p);
	accept(p, ';');
	p->bad = false;
}

/* after an error in a top-level statement: skip the statement, a
 * function's body included (one error per function header, not one per
 * statement of its body) */
static void recover_top(pp *p)
{
	for (int d = 0; cur(p)->kind != PT_EOF; adv(p)) {
		if (ptx_tok_punct(cur(p), '{')) {
			d++;
		} else if (ptx_tok_punct(cur(p), '}') && --d <= 0) {
			adv(p);
			accept(p, ';');
			break;
		} else if (ptx_tok_punct(cur(p), ';') && d <= 0) {
			adv(p);
			break;
		}
	}
	p->bad = false;
}

static char *tokdup(pp *p, const ptx_tok *t)
{
	char *s = malloc(t->n + 1u);
	if (!s) {
		p->g->oom = true;
		return NULL;
	}
	memcpy(s, t->s, t->n);
	s[t->n] = 0;
	return s;
}

static void *grow(pp *p, void *a, uint32_t *cap, uint32_t need, size_t el)
{
	if (need <= *cap)
		return a;
	uint32_t nc = *cap ? *cap * 2 : 16;
	while (nc < need)
		nc *= 2;
	void *na = realloc(a, (size_t)nc * el);
	if (!na) {
		p->g->oom = true;
		return NULL;
	}
	memset((char *)na + (size_t)*cap * el, 0, (size_t)(nc - *cap) * el);
	*cap = nc;
	return na;
}

/* ---- types --------------------------------------------------------------- */

static const struct {
	const char *name;
	uint8_t size;
	ptx_rclass rc;
} types[] = {
	{ "pred", 1, RC_PRED },
	{ "b8", 1, RC_32 }, { "u8", 1, RC_32 }, { "s8", 1, RC_32 },
	{ "b16", 2, RC_32 }, { "u16", 2, RC_32 }, { "s16", 2, RC_32 }, { "f16", 2, RC_32 },
	{ "bf16", 2, RC_32 },
	{ "b32", 4, RC_32 }, { "u32", 4, RC_32 }, { "s32", 4, RC_32 }, { "f32", 4, RC_32 },
	{ "f16x2", 4, RC_32 }, { "bf16x2", 4, RC_32 },
	{ "b64", 8, RC_64 }, { "u64", 8, RC_64 }, { "s64", 8, RC_64 }, { "f64", 8, RC_64 },
};

/* the type of a .TYPE token, or -1 */
static int type_of(const ptx_tok *t)
{
	if (t->kind != PT_DOT)
		return -1;
	for (int i = 0; i < (int)(sizeof types / sizeof types[0]); i++)
		if (t->n == strlen(types[i].name) + 1 && !memcmp(t->s + 1, types[i].name, t->n - 1))
			return i;
	return -1;
}

/* ---- registers ------------------------------------------------------------ */

int ptx_find_reg(const ptx_func *f, const char *name, size_t n)
{
	/* newest first: a nested scope's declaration wins, and one whose
	 * scope has ended no longer answers to its name (nvcc's inline-asm
	 * blocks `{ .reg .pred %p1; ... }` shadow the function's %p1) */
	for (uint32_t i = f->nregs; i-- > 0;)
		if (!f->regs[i].closed && strlen(f->regs[i].name) == n && !memcmp(f->regs[i].name, name, n))
			return (int)i;
	return -1;
}

static void add_reg(pp *p, ptx_func *f, const char *name, size_t n, int ty)
{
	ptx_reg *r = grow(p, f->regs, &f->capregs, f->nregs + 1, sizeof *r);
	if (!r)
		return;
	f->regs = r;
	char *s = malloc(n + 1);
	if (!s) {
		p->g->oom = true;
		return;
	}
	memcpy(s, name, n);
	s[n] = 0;
	r[f->nregs].name = s;
	r[f->nregs].rc = types[ty].rc;
	r[f->nregs].depth = p->depth;
	r[f->nregs].closed = false;
	snprintf(r[f->nregs].type, sizeof r[f->nregs].type, "%s", types[ty].name);
	f->nregs++;
}

#define PTX_MAX_REGS_DECL 100000u

/* .reg .TYPE %r<N>, %x, ... ; (the cursor is after .reg) */
static void parse_reg_decl(pp *p, ptx_func *f)
{
	while (cur(p)->kind == PT_DOT && type_of(cur(p)) < 0 &&
	       (ptx_tok_is(cur(p), ".v2") || ptx_tok_is(cur(p), ".v4") || ptx_tok_is(cur(p), ".align"))) {
		perr(p, cur(p), "%s", "vector and aligned .reg declarations are not supported");
		p->g->unsupported = true;
		return;
	}
	int ty = type_of(cur(p));
	if (ty < 0) {
		perr(p, cur(p), "%s", "expected a register type (.pred, .b32, .u64, .f32, ...)");
		return;
	}
	adv(p);
	for (;;) {
		const ptx_tok *nm = cur(p);
		if (nm->kind != PT_ID) {
			perr(p, nm, "%s", "expected a register name");
			return;
		}
		adv(p);
		if (accept(p, '<')) {
			const ptx_tok *num = cur(p);
			if (num->kind != PT_INT || num->ival > PTX_MAX_REGS_DECL) {
				perr(p, num, "%s", "expected a register count (at most 100000)");
				return;
			}
			adv(p);
			if (!expect(p, '>'))
				return;
			for (uint64_t k = 0; k < num->ival && !p->g->oom; k++) {
				char buf[128];
				int len = snprintf(buf, sizeof buf, "%.*s%llu", (int)(nm->n > 100 ? 100 : nm->n), nm->s,
						   (unsigned long long)k);
				add_reg(p, f, buf, (size_t)len, ty);
			}
		} else {
			/* a redeclaration in an inner scope is a new register */
			add_reg(p, f, nm->s, nm->n, ty);
		}
		if (!accept(p, ','))
			break;
	}
	expect(p, ';');
}

/* ---- variables ------------------------------------------------------------ */

/* one initialiser value into v->init at element k */
static bool parse_init_elem(pp *p, ptx_var *v, uint32_t k)
{
	bool neg = accept(p, '-');
	const ptx_tok *t = cur(p);
	uint64_t bits;
	bool isf = v->type[0] == 'f';
	if (t->kind == PT_INT) {
		bits = neg ? (uint64_t)0 - t->ival : t->ival;
		if (isf) {
			double d = neg ? -(double)t->ival : (double)t->ival;
			if (v->elsize == 4) {
				float fl = (float)d;
				uint32_t u;
				memcpy(&u, &fl, 4);
				bits = u;
			} else {
				memcpy(&bits, &d, 8);
			}
		}
	} else if (t->kind == PT_FLT) {
		bits = t->fbits;
		if (t->f64 && v->elsize == 4) {
			double d;
			memcpy(&d, &bits, 8);
			float fl = (float)d;
			uint32_t u;
			memcpy(&u, &fl, 4);
			bits = u;
		}
		if (neg)
			bits ^= v->elsize == 4 ? 0x80000000u : UINT64_C(0x8000000000000000);
	} else if (t->kind == PT_ID) {
		perr(p, t, "%s", "address initialisers (generic(sym), sym) are not supported");
		p->g->unsupported = true;
		return false;
	} else {
		perr(p, t, "%s", "expected a number in the initialiser");
		return false;
	}
	adv(p);
	if (k < v->count)
		for (uint32_t b = 0; b < v->elsize; b++)
			v->init[(size_t)k * v->elsize + b] = (uint8_t)(bits >> (8 * b));
	return true;
}

static void parse_init(pp *p, ptx_var *v)
{
	if (!v->count || (uint64_t)v->count * v->elsize > (16u << 20)) {
		perr(p, cur(p), "%s", "initialiser of an unsized or too large variable");
		return;
	}
	v->init = calloc(v->count, v->elsize);
	if (!v->init) {
		p->g->oom = true;
		return;
	}
	uint32_t k = 0;
	if (accept(p, '{')) {
		while (!accept(p, '}')) {
			if (accept(p, '{')) {
				perr(p, cur(p), "%s", "nested initialisers are not supported");
				p->g->unsupported = true;
				return;
			}
			if (!parse_init_elem(p, v, k++))
				return;
			if (!accept(p, ',') && !ptx_tok_punct(cur(p), '}')) {
				perr(p, cur(p), "%s", "expected ',' or '}' in the initialiser");
				return;
			}
		}
		if (k > v->count)
			perr(p, cur(p), "%s", "too many initialisers");
	} else {
		parse_init_elem(p, v, 0);
	}
}

/* [.align N] .TYPE name [N]... [= init] ; the cursor is after the space */
static void parse_var(pp *p, ptx_var *v, bool allow_init)
{
	v->align = 0;
	while (cur(p)->kind == PT_DOT && type_of(cur(p)) < 0) {
		if (ptx_tok_is(cur(p), ".align")) {
			adv(p);
			if (cur(p)->kind != PT_INT || !cur(p)->ival || cur(p)->ival > 4096 ||
			    (cur(p)->ival & (cur(p)->ival - 1))) {
				perr(p, cur(p), "%s", "expected an alignment (a power of 2 up to 4096)");
				return;
			}
			v->align = (uint32_t)cur(p)->ival;
			adv(p);
		} else if (ptx_tok_is(cur(p), ".v2") || ptx_tok_is(cur(p), ".v4")) {
			perr(p, cur(p), "%s", "vector variables are not supported");
			p->g->unsupported = true;
			return;
		} else if (ptx_tok_is(cur(p), ".ptr") || ptx_tok_is(cur(p), ".global") ||
			   ptx_tok_is(cur(p), ".shared") || ptx_tok_is(cur(p), ".const") || ptx_tok_is(cur(p), ".local")) {
			adv(p);     /* .param .u64 .ptr .global .align 1 name */
		} else {
			perr(p, cur(p), "%s", "unexpected attribute in a variable declaration");
			return;
		}
	}
	int ty = type_of(cur(p));
	if (ty < 0 || types[ty].rc == RC_PRED) {
		perr(p, cur(p), "%s", "expected a variable type (.b8, .u32, .f64, ...)");
		return;
	}
	snprintf(v->type, sizeof v->type, "%s", types[ty].name);
	v->elsize = types[ty].size;
	if (!v->align)
		v->align = v->elsize;
	adv(p);
	if (cur(p)->kind != PT_ID) {
		perr(p, cur(p), "%s", "expected a variable name");
		return;
	}
	v->name = tokdup(p, cur(p));
	v->line = cur(p)->line;
	v->col = cur(p)->col;
	adv(p);
	uint64_t count = 1;
	while (accept(p, '[')) {
		v->is_array = true;
		if (accept(p, ']')) {
			count = 0;
			v->is_extern = true;
			continue;
		}
		if (cur(p)->kind != PT_INT || !cur(p)->ival || cur(p)->ival > (64u << 20)) {
			perr(p, cur(p), "%s", "expected an array size");
			return;
		}
		count *= cur(p)->ival;
		if (count > (64u << 20)) {
			perr(p, cur(p), "%s", "array too large");
			return;
		}
		adv(p);
		if (!expect(p, ']'))
			return;
	}
	v->count = (uint32_t)count;
	if (allow_init && accept(p, '='))
		parse_init(p, v);
}

static ptx_var *new_var(pp *p, ptx_var **vars, uint32_t *n, uint32_t *cap)
{
	ptx_var *v = grow(p, *vars, cap, *n + 1, sizeof **vars);
	if (!v)
		return NULL;
	*vars = v;
	return &v[(*n)++];
}

static bool space_of(const ptx_tok *t, ptx_space *s)
{
	static const struct { const char *n; ptx_space s; } sp[] = {
		{ ".global", VS_GLOBAL }, { ".const", VS_CONST }, { ".shared", VS_SHARED },
		{ ".local", VS_LOCAL }, { ".param", VS_PARAM },
	};
	for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
		if (ptx_tok_is(t, sp[i].n)) {
			*s = sp[i].s;
			return true;
		}
	return false;
}

/* ---- instructions ---------------------------------------------------------- */

static bool parse_reg_ref(pp *p, ptx_func *f, int *reg)
{
	const ptx_tok *t = cur(p);
	int r = ptx_find_reg(f, t->s, t->n);
	if (r < 0) {
		perr(p, t, "%s", "undeclared register");
		return false;
	}
	*reg = r;
	adv(p);
	return true;
}

/* [ base + off ] ; the cursor is after '[' */
static void parse_addr(pp *p, ptx_func *f, ptx_opnd *o)
{
	o->kind = PO_ADDR;
	o->reg = -1;
	const ptx_tok *t = cur(p);
	if (t->kind == PT_ID) {
		if (t->s[0] == '%' && ptx_find_reg(f, t->s, t->n) >= 0) {
			parse_reg_ref(p, f, &o->reg);
		} else {
			o->sym = tokdup(p, t);
			adv(p);
		}
		if (ptx_tok_punct(cur(p), '+') || ptx_tok_punct(cur(p), '-')) {
			bool neg = ptx_tok_punct(cur(p), '-');
			adv(p);
			if (accept(p, '-'))
				neg = !neg;
			if (cur(p)->kind != PT_INT) {
				perr(p, cur(p), "%s", "expected an offset");
				return;
			}
			o->imm = neg ? -(int64_t)cur(p)->ival : (int64_t)cur(p)->ival;
			adv(p);
		}
	} else if (t->kind == PT_INT) {
		o->imm = (int64_t)t->ival;
		adv(p);
	} else {
		perr(p, t, "%s", "expected an address");
		return;
	}
	expect(p, ']');
}

/* ( a, b, ... ) of a call */
static void parse_list(pp *p, ptx_opnd *o)
{
	o->kind = PO_LIST;
	uint32_t cap = 0;
	while (!accept(p, ')')) {
		if (cur(p)->kind != PT_ID && cur(p)->kind != PT_INT) {
			perr(p, cur(p), "%s", "expected a parameter name");
			return;
		}
		char **nn = grow(p, o->names, &cap, (uint32_t)o->nvec + 1, sizeof *nn);
		if (!nn)
			return;
		o->names = nn;
		nn[o->nvec++] = tokdup(p, cur(p));
		adv(p);
		if (!accept(p, ',') && !ptx_tok_punct(cur(p), ')')) {
			perr(p, cur(p), "%s", "expected ',' or ')'");
			return;
		}
	}
}

static void parse_vec(pp *p, ptx_func *f, ptx_opnd *o)
{
	o->kind = PO_VEC;
	while (!accept(p, '}')) {
		if (o->nvec >= 4) {
			perr(p, cur(p), "%s", "a vector has at most 4 elements");
			return;
		}
		if (ptx_tok_is(cur(p), "_")) {
			o->vec[o->nvec++] = -1;
			adv(p);
		} else if (cur(p)->kind == PT_ID) {
			if (!parse_reg_ref(p, f, &o->vec[o->nvec++]))
				return;
		} else {
			perr(p, cur(p), "%s", "expected a register in the vector");
			return;
		}
		if (!accept(p, ',') && !ptx_tok_punct(cur(p), '}')) {
			perr(p, cur(p), "%s", "expected ',' or '}'");
			return;
		}
	}
}

static const char *const sregs[] = {
	"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
	"%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock",
	"%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%dynamic_smem_size",
	"%total_smem_size", "%gridid", "%clock_hi", "%envreg0", "%is_explicit_cluster",
	"%cluster_ctarank", "%cluster_nctarank", "%clusterid", "%nclusterid", "%cluster_ctaid",
	"%cluster_nctaid", "%aggr_smem_size", "%reserved_smem_offset_begin",
};

static bool is_sreg(const ptx_tok *t)
{
	for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
		if (ptx_tok_is(t, sregs[i]))
			return true;
	return false;
}

static void parse_operand(pp *p, ptx_func *f, ptx_opnd *o)
{
	const ptx_tok *t = cur(p);
	o->col = t->col;
	o->reg = o->reg2 = -1;
	if (accept(p, '[')) {
		parse_addr(p, f, o);
	} else if (accept(p, '{')) {
		parse_vec(p, f, o);
	} else if (accept(p, '(')) {
		parse_list(p, o);
	} else if (ptx_tok_punct(t, '-') || t->kind == PT_INT || t->kind == PT_FLT) {
		bool neg = accept(p, '-');
		t = cur(p);
		if (t->kind == PT_INT) {
			o->kind = PO_IMM;
			o->imm = neg ? (int64_t)((uint64_t)0 - t->ival) : (int64_t)t->ival;
		} else if (t->kind == PT_FLT) {
			o->kind = PO_FIMM;
			o->fbits = t->fbits ^ (neg ? (t->f64 ? UINT64_C(1) << 63 : UINT64_C(1) << 31) : 0);
			o->f64 = t->f64;
		} else {
			perr(p, t, "%s", "expected a number after '-'");
			return;
		}
		adv(p);
	} else if (ptx_tok_punct(t, '!')) {
		adv(p);
		o->kind = PO_REG;
		o->neg = true;
		if (cur(p)->kind != PT_ID) {
			perr(p, cur(p), "%s", "expected a predicate after '!'");
			return;
		}
		parse_reg_ref(p, f, &o->reg);
	} else if (t->kind == PT_ID) {
		if (ptx_tok_is(t, "_")) {
			o->kind = PO_SINK;
			adv(p);
		} else if (t->s[0] == '%' && ptx_find_reg(f, t->s, t->n) >= 0) {
			o->kind = PO_REG;
			parse_reg_ref(p, f, &o->reg);
			if (accept(p, '|')) {
				if (ptx_tok_is(cur(p), "_")) {
					adv(p);
				} else if (cur(p)->kind != PT_ID || !parse_reg_ref(p, f, &o->reg2)) {
					perr(p, cur(p), "%s", "expected a predicate after '|'");
				}
			}
		} else if (is_sreg(t)) {
			o->kind = PO_SREG;
			char buf[64];
			const ptx_tok *c = peek(p, 1);
			if (c->kind == PT_DOT && c->adj && c->n <= 8) {
				snprintf(buf, sizeof buf, "%.*s%.*s", (int)t->n - 1, t->s + 1, (int)c->n, c->s);
				adv(p);
			} else {
				snprintf(buf, sizeof buf, "%.*s", (int)(t->n > 40 ? 40 : t->n) - 1, t->s + 1);
			}
			adv(p);
			o->sym = strdup(buf);
			if (!o->sym)
				p->g->oom = true;
		} else if (t->s[0] == '%') {
			perr(p, t, "%s", "undeclared register");
		} else {
			o->kind = PO_SYM;
			o->sym = tokdup(p, t);
			adv(p);
			if (ptx_tok_punct(cur(p), '+') && peek(p, 1)->kind == PT_INT) {
				adv(p);
				o->imm = (int64_t)cur(p)->ival;
				adv(p);
			}
		}
	} else {
		perr(p, t, "%s", "expected an operand");
	}
}

static void free_ins(ptx_ins *in)
{
	for (int k = 0; k < in->no; k++) {
		ptx_opnd *o = &in->o[k];
		free(o->sym);
		if (o->kind == PO_LIST)
			for (int j = 0; j < o->nvec; j++)
				free(o->names[j]);
		free(o->names);
	}
	in->no = 0;
}

static void parse_instruction(pp *p, ptx_func *f)
{
	ptx_ins *in = grow(p, f->ins, &f->capins, f->nins + 1, sizeof *in);
	if (!in)
		return;
	f->ins = in;
	in = &in[f->nins];
	memset(in, 0, sizeof *in);
	const ptx_tok *start = cur(p);
	in->line = start->line;
	in->col = start->col;
	in->guard = -1;
	in->text = start->s;
	if (accept(p, '@')) {
		in->guard_neg = accept(p, '!');
		if (cur(p)->kind != PT_ID) {
			perr(p, cur(p), "%s", "expected a guard predicate");
			return;
		}
		const ptx_tok *gt = cur(p);
		if (!parse_reg_ref(p, f, &in->guard))
			return;
		if (f->regs[in->guard].rc != RC_PRED) {
			perr(p, gt, "%s", "the guard must be a .pred register");
			return;
		}
	}
	const ptx_tok *op = cur(p);
	if (op->kind != PT_ID || op->n >= sizeof in->op || op->s[0] == '%' || op->s[0] == '$') {
		perr(p, op, "%s", "expected an instruction");
		return;
	}
	in->col = op->col;
	memcpy(in->op, op->s, op->n);
	adv(p);
	while (cur(p)->kind == PT_DOT && cur(p)->adj) {
		if (in->nmods >= PTX_MAX_MODS || cur(p)->n > sizeof in->mods[0]) {
			perr(p, cur(p), "%s", "too many or too long instruction modifiers");
			return;
		}
		memcpy(in->mods[in->nmods], cur(p)->s + 1, cur(p)->n - 1);
		in->nmods++;
		adv(p);
	}
	while (!ptx_tok_punct(cur(p), ';') && !p->bad) {
		if (in->no >= PTX_MAX_OPNDS) {
			perr(p, cur(p), "%s", "too many operands");
			break;
		}
		parse_operand(p, f, &in->o[in->no++]);
		if (p->bad)
			break;
		if (accept(p, ',')) {
			if (ptx_tok_punct(cur(p), ';')) {
				perr(p, cur(p), "%s", "expected an operand after ','");
				break;
			}
		} else if (!ptx_tok_punct(cur(p), ';') && !ptx_tok_punct(cur(p), '(') &&
			   !(in->no == 1 && !strcmp(in->op, "call"))) {
			perr(p, cur(p), "%s", "expected ',' or ';' after an operand");
			break;
		}
	}
	const ptx_tok *semi = cur(p);
	in->textlen = (uint32_t)(semi->s - in->text);
	if (!p->bad && expect(p, ';'))
		f->nins++;
	else
		free_ins(in);
}

static void add_label(pp *p, ptx_func *f, const ptx_tok *t)
{
	for (uint32_t i = 0; i < f->nlabels; i++)
		if (strlen(f->labels[i].name) == t->n && !memcmp(f->labels[i].name, t->s, t->n)) {
			perr(p, t, "%s", "duplicate label");
			return;
		}
	ptx_label *l = grow(p, f->labels, &f->caplabels, f->nlabels + 1, sizeof *l);
	if (!l)
		return;
	f->labels = l;
	l[f->nlabels] = (ptx_label){ tokdup(p, t), f->nins, t->line, -1 };
	f->nlabels++;
}

/* LABEL: .branchtargets a, b, c ; */
static void parse_branchtargets(pp *p, ptx_func *f)
{
	adv(p);
	uint32_t n = 0, cap = 0;
	char **list = NULL;
	for (;;) {
		if (cur(p)->kind != PT_ID) {
			perr(p, cur(p), "%s", "expected a label in .branchtargets");
			break;
		}
		char **nl = grow(p, list, &cap, n + 1, sizeof *nl);
		if (!nl)
			break;
		list = nl;
		list[n++] = tokdup(p, cur(p));
		adv(p);
		if (!accept(p, ','))
			break;
	}
	expect(p, ';');
	char ***b = realloc(f->btl, (f->nbtl + 1) * sizeof *b);
	uint32_t *bn = realloc(f->btn, (f->nbtl + 1) * sizeof *bn);
	if (b)
		f->btl = b;
	if (bn)
		f->btn = bn;
	if (!b || !bn) {
		for (uint32_t i = 0; i < n; i++)
			free(list[i]);
		free(list);
		p->g->oom = true;
		return;
	}
	f->btl[f->nbtl] = list;
	f->btn[f->nbtl] = n;
	if (f->nlabels)
		f->labels[f->nlabels - 1].targets = (int)f->nbtl;
	f->nbtl++;
}

static void skip_to_semi(pp *p)
{
	while (cur(p)->kind != PT_EOF && !ptx_tok_punct(cur(p), ';'))
		adv(p);
	accept(p, ';');
}

/* one statement of a body; returns false at the closing '}' of depth 0 */
static bool body_statement(pp *p, ptx_func *f, int *depth)
{
	const ptx_tok *t = cur(p);
	ptx_space sp;
	if (t->kind == PT_EOF) {
		perr(p, t, "%s", "expected '}' closing the function body");
		return false;
	}
	if (accept(p, '{')) {
		p->depth = ++(*depth);
	} else if (accept(p, '}')) {
		/* the registers of the scope that ends keep their indices
		 * (instructions already refer to them) but lose their names */
		for (uint32_t i = f->nregs; *depth > 0 && i-- > 0 && f->regs[i].depth >= *depth;)
			if (f->regs[i].depth == *depth)
				f->regs[i].closed = true;
		if ((*depth)-- == 0)
			return false;
		p->depth = *depth;
	} else if (t->kind == PT_ID && ptx_tok_punct(peek(p, 1), ':')) {
		add_label(p, f, t);
		adv(p);
		adv(p);
		if (ptx_tok_is(cur(p), ".branchtargets"))
			parse_branchtargets(p, f);
	} else if (ptx_tok_is(t, ".reg")) {
		adv(p);
		parse_reg_decl(p, f);
	} else if (space_of(t, &sp) && sp != VS_GLOBAL && sp != VS_CONST) {
		adv(p);
		ptx_var *v = new_var(p, &f->vars, &f->nvars, &f->capvars);
		if (v) {
			v->space = sp;
			parse_var(p, v, false);
			expect(p, ';');
		}
	} else if (ptx_tok_is(t, ".pragma") || ptx_tok_is(t, ".loc") || ptx_tok_is(t, ".file")) {
		skip_to_semi(p);
	} else if (t->kind == PT_DOT) {
		perr(p, t, "%s", "unexpected directive in a function body");
	} else {
		parse_instruction(p, f);
	}
	if (p->bad)
		recover(p);
	return true;
}

/* ( .param .TYPE name, ... ) */
/* The parameter (or return value) of f named like the token t, or NULL. */
static const ptx_param *param_named(const ptx_param *v, uint32_t n, const ptx_tok *t)
{
	for (uint32_t i = 0; i < n; i++)
		if (strlen(v[i].name) == t->n && !memcmp(v[i].name, t->s, t->n))
			return &v[i];
	return NULL;
}

/* The name at token t becomes one of warpemu's, a kernel's or its
 * parameter's (`what`), in the lowered text and for --arg: one the
 * assembler reads as a name (asm_is_ident), which PTX's names that start
 * with '%' or '$' are not; else an error there. */
static bool we_name_ok(pp *p, const ptx_tok *t, const char *name, const char *what)
{
	if (asm_is_ident(name))
		return true;
	ptx_err(p->g, t->line, t->col,
		"%s name '%s' cannot be used: warpemu's names start with a letter or '_' and go on with letters, "
		"digits, '_', '$' and '.'",
		what, name);
	p->bad = true;
	return false;
}

/* A function's parameter list, or its list of return values; others:
 * the return values when this is the parameter list (a name is declared
 * once in both); kernel: a kernel's parameters (we_name_ok). */
static void parse_params(pp *p, ptx_param **out, uint32_t *nout, const ptx_param *others, uint32_t nothers,
			 bool kernel)
{
	uint32_t cap = 0;
	if (!expect(p, '('))
		return;
	while (!accept(p, ')')) {
		if (!ptx_tok_is(cur(p), ".param") && !ptx_tok_is(cur(p), ".reg")) {
			perr(p, cur(p), "%s", "expected .param");
			return;
		}
		if (ptx_tok_is(cur(p), ".reg")) {
			perr(p, cur(p), "%s", ".reg parameters are not supported");
			p->g->unsupported = true;
			return;
		}
		adv(p);
		ptx_var v = { 0 };
		const size_t first = p->i;
		parse_var(p, &v, false);
		if (p->bad) {
			free(v.name);
			return;
		}
		const ptx_tok *name = &p->L.t[first];
		while (name->kind != PT_ID)
			name++;    /* parse_var found one */
		if (param_named(*out, *nout, name) || param_named(others, nothers, name)) {
			ptx_err(p->g, name->line, name->col, "parameter '%s' is declared twice", v.name);
			p->bad = true;
			free(v.name);
			return;
		}
		if (kernel && !we_name_ok(p, name, v.name, "a kernel parameter's")) {
			free(v.name);
			return;
		}
		ptx_param *np = grow(p, *out, &cap, *nout + 1, sizeof *np);
		if (!np) {
			free(v.name);
			return;
		}
		*out = np;
		ptx_param *q = &np[(*nout)++];
		q->name = v.name;
		snprintf(q->type, sizeof q->type, "%s", v.type);
		q->size = v.elsize * (v.count ? v.count : 1);
		q->align = v.align;
		q->is_array = v.is_array;
		q->is_ptr = v.elsize == 8 && !v.is_array && v.type[0] != 'f';
		if (v.is_extern) {
			perr(p, cur(p), "%s", "a parameter needs a size (name[N])");
			return;
		}
		if (!accept(p, ',') && !ptx_tok_punct(cur(p), ')')) {
			perr(p, cur(p), "%s", "expected ',' or ')'");
			return;
		}
	}
}

static void parse_perf(pp *p, ptx_func *f)
{
	while (cur(p)->kind == PT_DOT && !ptx_tok_is(cur(p), ".param")) {
		bool maxn = ptx_tok_is(cur(p), ".maxntid"), reqn = ptx_tok_is(cur(p), ".reqntid");
		adv(p);
		for (int k = 0; cur(p)->kind == PT_INT; k++) {
			if (k < 3 && (maxn || reqn))
				(maxn ? f->maxntid : f->reqntid)[k] = (uint32_t)cur(p)->ival;
			adv(p);
			if (!accept(p, ','))
				break;
		}
	}
}

static void parse_function(pp *p, bool entry)
{
	ptx_func *fs = grow(p, p->m->funcs, &p->m->capfuncs, p->m->nfuncs + 1, sizeof *fs);
	if (!fs)
		return;
	p->m->funcs = fs;
	ptx_func *f = &fs[p->m->nfuncs++];
	memset(f, 0, sizeof *f);
	f->is_entry = entry;
	f->line = cur(p)->line;
	adv(p);
	if (!entry && ptx_tok_punct(cur(p), '('))
		parse_params(p, &f->rets, &f->nrets, NULL, 0, false);
	if (cur(p)->kind != PT_ID) {
		perr(p, cur(p), "%s", "expected the function's name");
		return;
	}
	f->col = cur(p)->col;
	f->name = tokdup(p, cur(p));
	if (entry && f->name && !we_name_ok(p, cur(p), f->name, "a kernel's"))
		return;
	adv(p);
	if (ptx_tok_punct(cur(p), '('))
		parse_params(p, &f->params, &f->nparams, f->rets, f->nrets, entry);
	if (p->bad)
		return;
	if (ptx_tok_is(cur(p), ".noreturn"))
		adv(p);
	parse_perf(p, f);
	if (accept(p, ';'))
		return;      /* a prototype */
	if (!expect(p, '{'))
		return;
	f->defined = true;
	int depth = 0;
	p->depth = 0;
	while (!p->g->oom && body_statement(p, f, &depth))
		;
}

/* one top-level statement */
static void top_statement(pp *p)
{
	const ptx_tok *t = cur(p);
	ptx_module *m = p->m;
	bool is_extern = false;
	while (ptx_tok_is(t, ".visible") || ptx_tok_is(t, ".extern") || ptx_tok_is(t, ".weak") ||
	       ptx_tok_is(t, ".common")) {
		is_extern = is_extern || ptx_tok_is(t, ".extern");
		adv(p);
		t = cur(p);
	}
	ptx_space sp;
	if (ptx_tok_is(t, ".version")) {
		adv(p);
		const ptx_tok *v = cur(p);
		double d = 0;
		if (v->kind == PT_FLT)
			memcpy(&d, &v->fbits, 8);
		if (v->kind == PT_FLT && !(d >= 0 && d < 1e6)) {
			/* (a version no PTX has: its conversion to an integer
			 * would be undefined) */
			perr(p, v, "%s", "bad version number");
		} else if (v->kind == PT_FLT) {
			m->version_major = (uint32_t)d;
			m->version_minor = (uint32_t)((d - (double)(uint32_t)d) * 10.0 + 0.5);
			adv(p);
		} else if (v->kind == PT_INT) {
			m->version_major = (uint32_t)v->ival;
			adv(p);
		} else {
			perr(p, v, "%s", "expected a version number");
		}
	} else if (ptx_tok_is(t, ".target")) {
		adv(p);
		if (cur(p)->kind == PT_ID)
			snprintf(m->target, sizeof m->target, "%.*s", (int)cur(p)->n, cur(p)->s);
		while (cur(p)->kind == PT_ID || ptx_tok_punct(cur(p), ','))
			adv(p);
	} else if (ptx_tok_is(t, ".address_size")) {
		adv(p);
		if (cur(p)->kind != PT_INT || (cur(p)->ival != 32 && cur(p)->ival != 64))
			perr(p, cur(p), "%s", "expected .address_size 32 or 64");
		else
			m->address_size = (uint32_t)cur(p)->ival;
		adv(p);
	} else if (ptx_tok_is(t, ".entry") || ptx_tok_is(t, ".func")) {
		parse_function(p, ptx_tok_is(t, ".entry"));
	} else if (space_of(t, &sp) && sp != VS_PARAM) {
		adv(p);
		ptx_var *v = new_var(p, &m->vars, &m->nvars, &m->capvars);
		if (v) {
			v->space = sp;
			parse_var(p, v, true);
			v->is_extern = v->is_extern || is_extern;
			expect(p, ';');
		}
	} else if (ptx_tok_is(t, ".file") || ptx_tok_is(t, ".loc") || ptx_tok_is(t, ".pragma")) {
		skip_to_semi(p);
	} else if (ptx_tok_is(t, ".section")) {
		while (cur(p)->kind != PT_EOF && !ptx_tok_punct(cur(p), '{'))
			adv(p);
		for (int d = 0; cur(p)->kind != PT_EOF;) {
			if (ptx_tok_punct(cur(p), '{'))
				d++;
			if (ptx_tok_punct(cur(p), '}') && --d == 0) {
				adv(p);
				break;
			}
			adv(p);
		}
	} else {
		perr(p, t, "%s", "expected a directive (.version, .target, .entry, .func, .global, ...)");
		adv(p);
	}
	if (p->bad)
		recover_top(p);
}

/* A name the module defines twice: two bodies of one function, an entry
 * and a function of one name, two module-scope variables of one name or
 * a variable named like a function (one namespace: ptxas refuses them
 * all).  Prototypes may repeat.  Function-scope names are scoped ({ }
 * blocks: nvcc's call sequences declare param0 in each) and looked up
 * innermost first (ptx_find_var). */
static void check_names(const ptx_module *m, ptx_diags *g)
{
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const ptx_func *f = &m->funcs[i];
		for (uint32_t j = 0; j < i && f->name; j++) {
			const ptx_func *e = &m->funcs[j];
			if (!e->name || strcmp(e->name, f->name))
				continue;
			if (e->is_entry != f->is_entry || (e->defined && f->defined)) {
				ptx_err(g, f->line, f->col, "%s '%s' is already %s at line %u",
					f->is_entry ? "entry" : "function", f->name,
					e->is_entry != f->is_entry ? (e->is_entry ? "an entry" : "a function") : "defined",
					e->line);
				return;
			}
		}
	}
	for (uint32_t i = 0; i < m->nvars; i++) {
		const ptx_var *v = &m->vars[i];
		const ptx_func *f = v->name ? ptx_find_func(m, v->name) : NULL;
		if (f) {
			ptx_err(g, v->line, v->col, "variable '%s' has the name of the %s at line %u", v->name,
				f->is_entry ? "entry" : "function", f->line);
			return;
		}
		for (uint32_t j = 0; j < i && v->name; j++)
			if (m->vars[j].name && !strcmp(m->vars[j].name, v->name)) {
				ptx_err(g, v->line, v->col, "variable '%s' is already declared at line %u", v->name,
					m->vars[j].line);
				return;
			}
	}
}

bool ptx_parse(const char *text, size_t len, ptx_module *m, ptx_diags *g)
{
	memset(m, 0, sizeof *m);
	pp p = { .L = { .src = text, .len = len, .g = g }, .g = g, .m = m };
	size_t before = g->n;
	if (!ptx_lex(&p.L)) {
		free(p.L.t);
		return false;
	}
	while (cur(&p)->kind != PT_EOF && !g->oom)
		top_statement(&p);
	if (!m->version_major && !g->oom && g->n == before)
		ptx_err(g, 1, 1, "missing .version directive: not a PTX module");
	if (!g->oom && g->n == before)
		check_names(m, g);
	free(p.L.t);
	return g->n == before && !g->oom;
}

/* ---- lookups and freeing ----------------------------------------------------- */

const ptx_func *ptx_find_func(const ptx_module *m, const char *name)
{
	const ptx_func *decl = NULL;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name && !strcmp(m->funcs[i].name, name)) {
			if (m->funcs[i].defined)
				return &m->funcs[i];
			decl = &m->funcs[i];
		}
	return decl;
}

const ptx_var *ptx_find_var(const ptx_module *m, const ptx_func *f, const char *name)
{
	if (f)
		for (uint32_t i = f->nvars; i-- > 0;)
			if (f->vars[i].name && !strcmp(f->vars[i].name, name))
				return &f->vars[i];
	for (uint32_t i = 0; i < m->nvars; i++)
		if (m->vars[i].name && !strcmp(m->vars[i].name, name))
			return &m->vars[i];
	return NULL;
}

bool ptx_has_mod(const ptx_ins *in, const char *s)
{
	for (int i = 0; i < in->nmods; i++)
		if (!strcmp(in->mods[i], s))
			return true;
	return false;
}

static void free_vars(ptx_var *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].init);
	}
	free(v);
}

static void free_func(ptx_func *f)
{
	free(f->name);
	for (uint32_t i = 0; i < f->nparams; i++)
		free(f->params[i].name);
	free(f->params);
	for (uint32_t i = 0; i < f->nrets; i++)
		free(f->rets[i].name);
	free(f->rets);
	for (uint32_t i = 0; i < f->nregs; i++)
		free(f->regs[i].name);
	free(f->regs);
	for (uint32_t i = 0; i < f->nins; i++)
		free_ins(&f->ins[i]);
	free(f->ins);
	for (uint32_t i = 0; i < f->nlabels; i++)
		free(f->labels[i].name);
	free(f->labels);
	for (uint32_t i = 0; i < f->nbtl; i++) {
		for (uint32_t k = 0; k < f->btn[i]; k++)
			free(f->btl[i][k]);
		free(f->btl[i]);
	}
	free(f->btl);
	free(f->btn);
	free_vars(f->vars, f->nvars);
}

void ptx_module_free(ptx_module *m)
{
	free_vars(m->vars, m->nvars);
	for (uint32_t i = 0; i < m->nfuncs; i++)
		free_func(&m->funcs[i]);
	free(m->funcs);
	memset(m, 0, sizeof *m);
}
