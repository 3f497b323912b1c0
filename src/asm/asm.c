/* asm.c — the assembler's driver: two passes over the text, directives,
 * labels, constant-bank data and the module it builds.
 *
 * Syntax
 * ------
 * One statement per line, or several separated by ';'.  Comments are
 * '//' to the end of the line and '/' '*' ... '*' '/' (the seeds' address
 * prefixes such as '/' '*0010*' '/' are comments).  '$word' annotations
 * ($sched $req $wsb) and '(*"..."*)' hints are ignored; a
 * (*"BRANCH_TARGETS .L_a,.L_b"*) hint warns about labels it names that are
 * not defined.
 *
 *   label:                       a code address, or in a constant section
 *                                the offset in that bank; names may hold
 *                                '.', '$' and digits (.L_x_7, a.b.0.16)
 *   {@{!}Pg} MNEMONIC{.MOD} ops  an instruction (match.c); operands
 *                                are separated by ',' (may be omitted)
 *
 * Float immediates (F32Imm operands, .float): a float literal (1.5, -2e-3,
 * inf, nan) or a decimal integer is the value; a hex number or any other
 * expression is the binary32 bit pattern (0x3f800000 = 1.0).
 *
 * Expressions (immediates, `(expr) fixups, data): numbers (decimal, 0x
 * hex), labels, '.' (address of the current instruction, or offset in the
 * current constant section), ( ), unary - + ~, binary * / % + - << >> & ^ |
 * with C precedence.  Arithmetic is 64-bit signed; overflow is an error.
 *
 * Directives
 *   .kernel NAME ... .end        a kernel (several per file).  A file with
 *                                no .kernel is one kernel named "main".
 *   .param u32|s32|f32|u64|ptr NAME   a parameter in c[0], declaration
 *                                order, natural alignment (4 or 8)
 *   .shared N  .local N          static shared / per-thread local bytes
 *   .dialect target|sass|visa|ptx
 *   .trap_handler LABEL          the kernel's trap handler address
 *   .loc N                       the following instructions came from line
 *                                N of the module's source (the PTX front
 *                                end's line table); .loc 0 = their own
 *   .const N (1..31)  .text      switch to constant bank N data / code
 *   .byte .short .word .dword .quad .float  EXPR, ...   data (little-endian)
 *   .zero N   .align N           in data: zero fill / pad; in code .align
 *                                only checks the alignment (a warning)
 *   .section .nv.constant<N>.x   same as .const N;  .section .text[.x] = .text
 *   .sectionflags .sectioninfo .type .size .other .global   ignored
 *
 * Pass 1 lays out code and data and defines the labels; pass 2 evaluates,
 * matches and encodes, and reports every error (one per statement).
 */
#include "asm/asm_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * Helpers
 * ====================================================================== */

static uint32_t stmt_end_col(const pcur *p)
{
	if (p->end > 0) {
		const tok *t = &p->c->toks[p->end - 1];
		return t->col + (uint32_t)t->n;
	}
	return 1;
}

static bool at_end(const pcur *p)
{
	return p->i >= p->end;
}

static void expect_end(pcur *p, const char *what)
{
	const tok *t = tok_cur(p);
	if (t)
		asm_err(p->c, t->col, "unexpected '%.*s' after %s", (int)(t->n > 32 ? 32 : t->n), t->s, what);
}

static char *dup_n(asm_ctx *c, const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d) {
		c->oom = true;
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

/* a constant expression (layout directives: same value in both passes) */
static bool const_arg(pcur *p, const char *what, int64_t *v)
{
	asm_ctx *c = p->c;
	if (at_end(p)) {
		asm_err(c, stmt_end_col(p), "%s needs a value", what);
		return false;
	}
	int e = asm_parse_expr(p);
	if (e < 0)
		return false;
	xerr x;
	if (!asm_eval_const(c, e, v, &x)) {
		asm_err(c, x.col, "%s", x.msg);
		return false;
	}
	expect_end(p, what);
	return true;
}

/* kernel receiving per-kernel directives, or NULL (error reported) */
static we_kernel *kernel_for(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	if (c->pass != 2)
		return NULL;
	if (!c->cur) {
		asm_err(c, col, "'%s' outside .kernel", what);
		return NULL;
	}
	return c->cur;
}

/* ======================================================================
 * Data
 * ====================================================================== */

static void emit_data(asm_ctx *c, const uint8_t *bytes, size_t n, uint32_t col)
{
	unsigned b = c->bank;
	uint64_t off = c->dsize[b];
	if (off + n > WE_CBANK_MAX) {
		if (!c->doverflow[b])
			asm_err(c, col, "constant bank %u exceeds %u bytes", b, WE_CBANK_MAX);
		c->doverflow[b] = true;
		c->dsize[b] = WE_CBANK_MAX;
		return;
	}
	if (c->pass == 2) {
		uint8_t *d = asm_grow(c, c->data[b], &c->dcap[b], (size_t)(off + n), 1);
		if (!d)
			return;
		c->data[b] = d;
		memcpy(d + off, bytes, n);
	}
	c->dsize[b] = (uint32_t)(off + n);
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static bool data_section(pcur *p, const char *what, uint32_t col)
{
	if (!p->c->in_data) {
		asm_err(p->c, col, "'%s' outside a constant section (use .const N)", what);
		return false;
	}
	return true;
}

static void dir_data(pcur *p, const char *what, uint32_t col, unsigned size, bool isfloat)
{
	asm_ctx *c = p->c;
	if (!data_section(p, what, col))
		return;
	if (at_end(p)) {
		asm_err(c, stmt_end_col(p), "'%s' needs at least one value", what);
		return;
	}
	for (;;) {
		c->stmt_pc = c->dsize[c->bank];
		int e = asm_parse_expr(p);
		if (e < 0)
			return;
		uint64_t bits = 0;
		if (c->pass == 2) {
			xerr x;
			uint32_t fb;
			int k = isfloat ? asm_float_expr(c, e, &fb, &x) : 0;
			if (k < 0) {
				asm_err(c, x.col, "%s", x.msg);
			} else if (k > 0) {
				bits = fb;
			} else {
				evalue v;
				if (!asm_eval(c, e, &v, &x)) {
					asm_err(c, x.col, "%s", x.msg);
				} else if (size == 8) {
					bits = (uint64_t)v.v;
				} else {
					int64_t lo = -((int64_t)1 << (size * 8 - 1));
					int64_t hi = ((int64_t)1 << (size * 8)) - 1;
					if (v.huge || v.v < lo || v.v > hi)
						asm_err(c, c->nodes[e].col, "value out of range for '%s' (%u byte%s)",
							what, size, size == 1 ? "" : "s");
					bits = (uint64_t)v.v;
				}
			}
		}
		uint8_t buf[8];
		put_le(buf, bits, size);
		emit_data(c, buf, size, c->nodes[e].col);
		if (at_end(p))
			return;
		if (!tok_is(p, ',')) {
			asm_err(c, tok_cur(p)->col, "expected ',' between values of '%s'", what);
			return;
		}
		p->i++;
		if (at_end(p)) {
			asm_err(c, stmt_end_col(p), "expected a value after ','");
			return;
		}
	}
}

static void dir_zero(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	if (!data_section(p, what, col))
		return;
	int64_t n;
	if (!const_arg(p, what, &n))
		return;
	if (n < 0 || n > (int64_t)WE_CBANK_MAX) {
		asm_err(c, col, "'.zero %" PRId64 "' out of range (0..%u)", n, WE_CBANK_MAX);
		return;
	}
	static const uint8_t zeros[256];
	while (n > 0) {
		size_t k = n > 256 ? 256 : (size_t)n;
		emit_data(c, zeros, k, col);
		n -= (int64_t)k;
		if (c->doverflow[c->bank])
			break;
	}
}

static void dir_align(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	int64_t n;
	if (!const_arg(p, what, &n))
		return;
	if (n < 1 || n > (int64_t)WE_CBANK_MAX || (n & (n - 1))) {
		asm_err(c, col, "'.align %" PRId64 "': the alignment must be a power of two (1..%u)", n,
			WE_CBANK_MAX);
		return;
	}
	if (!c->in_data) {
		if (c->pc % (uint64_t)n)
			asm_warn(c, col, "code address 0x%" PRIx64 " is not aligned to %" PRId64
				 "; .align does not pad code", c->pc, n);
		return;
	}
	static const uint8_t zeros[256];
	while (c->dsize[c->bank] % (uint64_t)n && !c->doverflow[c->bank]) {
		uint64_t k = (uint64_t)n - c->dsize[c->bank] % (uint64_t)n;
		emit_data(c, zeros, k > 256 ? 256 : (size_t)k, col);
	}
}

/* ======================================================================
 * Sections and kernels
 * ====================================================================== */

static void set_bank(pcur *p, int64_t n, uint32_t col)
{
	asm_ctx *c = p->c;
	if (n == 0) {
		asm_err(c, col, "constant bank 0 holds the kernel parameters (use 1..%u)", WE_NUM_CBANKS - 1);
		return;
	}
	if (n < 1 || n >= (int64_t)WE_NUM_CBANKS) {
		asm_err(c, col, "constant bank %" PRId64 " out of range (1..%u)", n, WE_NUM_CBANKS - 1);
		return;
	}
	c->in_data = true;
	c->bank = (unsigned)n;
}

static void dir_const(pcur *p, const char *what, uint32_t col)
{
	int64_t n;
	uint32_t vcol = tok_cur(p) ? tok_cur(p)->col : col;
	if (const_arg(p, what, &n))
		set_bank(p, n, vcol);
}

static void dir_text(pcur *p, const char *what, uint32_t col)
{
	(void)col;
	expect_end(p, what);
	p->c->in_data = false;
}

/* .section NAME {, flags...}: .nv.constant<N>[.x] = bank N, .text[.x] = code */
static void dir_section(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	const tok *t = tok_cur(p);
	if (!t || (t->kind != T_IDENT && t->kind != T_STR)) {
		asm_err(c, t ? t->col : stmt_end_col(p), "expected a section name after '%s'", what);
		return;
	}
	const char *s = t->s;
	size_t n = t->n;
	if (t->kind == T_STR && n >= 2) {
		s++;
		n -= 2;
	}
	static const char cpre[] = ".nv.constant";
	size_t cl = sizeof cpre - 1;
	if (n > cl && !memcmp(s, cpre, cl) && s[cl] >= '0' && s[cl] <= '9') {
		size_t i = cl;
		int64_t b = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && b < 1000)
			b = b * 10 + (s[i++] - '0');
		if (i == n || s[i] == '.') {
			set_bank(p, b, t->col);
			return;
		}
	} else if ((n == 5 && !memcmp(s, ".text", 5)) || (n > 5 && !memcmp(s, ".text.", 6))) {
		c->in_data = false;
		return;
	}
	(void)col;
	asm_err(c, t->col, "unsupported section '%.*s' (expected .text[.NAME] or .nv.constantN[.NAME])",
		(int)(n > 64 ? 64 : n), s);
}

static void dir_ignore(pcur *p, const char *what, uint32_t col)
{
	(void)what;
	(void)col;
	p->i = p->end;
}

static void dir_kernel(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	const tok *t = tok_cur(p);
	c->in_data = false;
	if (c->pass == 1) {
		c->has_kernels = true;
		return;
	}
	if (!t || t->kind != T_IDENT) {
		asm_err(c, t ? t->col : stmt_end_col(p), "expected a kernel name after '%s'", what);
		return;
	}
	p->i++;
	expect_end(p, what);
	struct we_module *m = c->m;
	if (c->in_kernel) {
		asm_err(c, col, "'.kernel' inside kernel '%s' (missing .end)", c->cur ? c->cur->name : "?");
		if (c->cur)
			c->cur->code_end = (uint32_t)c->pc;
		c->in_kernel = false;
		c->cur = NULL;
	}
	if (module_find_kernel_n(m, t->s, t->n)) {
		asm_err(c, t->col, "duplicate kernel '%.*s'", (int)(t->n > 64 ? 64 : t->n), t->s);
		return;
	}
	if (m->nkernels >= MODULE_KERNELS_MAX) {
		/* the rest of the file would only add errors: stop here */
		asm_err(c, col, "too many kernels (limit %u)", MODULE_KERNELS_MAX);
		c->stop = true;
		return;
	}
	/* (the kernel is still made: its body then assembles without
	 * follow-on errors, and the error keeps the module from being used) */
	if (t->n > MODULE_NAME_MAX)
		asm_err(c, t->col, "kernel name of %zu characters (at most %u)", t->n, MODULE_NAME_MAX);
	char *name = dup_n(c, t->s, t->n);
	if (!name)
		return;
	we_kernel *k = module_add_kernel(m, name);
	free(name);
	if (!k) {
		c->oom = true;
		return;
	}
	k->code_start = (uint32_t)c->pc;
	k->code_end = (uint32_t)c->pc;
	c->cur = k;
	c->in_kernel = true;
	c->kernel_line = c->line;
	c->kernel_col = col;
}

static void dir_end(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	expect_end(p, what);
	c->in_data = false;
	if (c->pass != 2)
		return;
	if (!c->in_kernel) {
		asm_err(c, col, "'.end' without '.kernel'");
		return;
	}
	c->cur->code_end = (uint32_t)c->pc;
	c->in_kernel = false;
	c->cur = NULL;
}

/* A whole number in [lo, hi] at the cursor (a .param's N or A). */
static bool param_num(pcur *p, const char *what, uint64_t lo, uint64_t hi, uint64_t *v)
{
	const tok *t = tok_cur(p);
	if (!t || t->kind != T_NUM || t->huge || t->num < lo || t->num > hi) {
		asm_err(p->c, t ? t->col : stmt_end_col(p), "expected %s (%" PRIu64 " to %" PRIu64 ")", what,
			lo, hi);
		return false;
	}
	*v = t->num;
	p->i++;
	return true;
}

static bool punct_at(pcur *p, char ch)
{
	const tok *t = tok_cur(p);
	if (t && t->kind == T_PUNCT && t->p == ch) {
		p->i++;
		return true;
	}
	asm_err(p->c, t ? t->col : stmt_end_col(p), "expected '%c'", ch);
	return false;
}

/* A .param's type: `[.align A] TYPE`, and for b8 (an aggregate by value,
 * PTX's `.align A .b8 name[N]`) `b8[N]`: its index, size and alignment. */
static bool param_type_at(pcur *p, unsigned *ti, uint32_t *size, uint32_t *align)
{
	asm_ctx *c = p->c;
	const tok *ty = tok_cur(p);
	uint64_t a = 0, n;
	if (ty && ty->kind == T_IDENT && tok_ident_is(ty, ".align")) {
		p->i++;
		const uint32_t acol = tok_cur(p) ? tok_cur(p)->col : stmt_end_col(p);
		if (!param_num(p, "an alignment", 1, MODULE_PARAM_ALIGN_MAX, &a))
			return false;
		if (a & (a - 1)) {
			asm_err(c, acol, "alignment %" PRIu64 " is not a power of two", a);
			return false;
		}
		ty = tok_cur(p);
	}
	if (!ty || ty->kind != T_IDENT) {
		asm_err(c, ty ? ty->col : stmt_end_col(p),
			"expected a parameter type (u32, s32, f32, u64, f64, ptr or b8[N])");
		return false;
	}
	for (*ti = 0; *ti < MODULE_NPARAM_TYPES && !tok_ident_is(ty, module_param_types[*ti].name); ++*ti)
		;
	if (*ti == MODULE_NPARAM_TYPES) {
		asm_err(c, ty->col, "bad .param type '%.*s' (expected u32, s32, f32, u64, f64, ptr or b8[N])",
			(int)(ty->n > 32 ? 32 : ty->n), ty->s);
		return false;
	}
	p->i++;
	if (*ti != WE_PARAM_BYTES) {
		if (a) {
			asm_err(c, ty->col, ".align is for b8[N] parameters (a %s aligns to its size)",
				module_param_types[*ti].name);
			return false;
		}
		*size = *align = module_param_types[*ti].size;
		return true;
	}
	if (!punct_at(p, '[') || !param_num(p, "a size in bytes", 1, WE_PARAM_BYTES_MAX, &n) || !punct_at(p, ']'))
		return false;
	*size = (uint32_t)n;
	*align = a ? (uint32_t)a : 1u; /* PTX: a .b8 array without .align */
	return true;
}

static void dir_param(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	we_kernel *k = kernel_for(p, what, col);
	unsigned ti;
	uint32_t size, align;
	if (!k || !param_type_at(p, &ti, &size, &align))
		return;
	const tok *nm = tok_cur(p);
	if (!nm || nm->kind != T_IDENT) {
		asm_err(c, nm ? nm->col : stmt_end_col(p), "expected a parameter name after the type");
		return;
	}
	p->i++;
	expect_end(p, what);
	if (nm->n > MODULE_NAME_MAX) {
		asm_err(c, nm->col, "parameter name of %zu characters (at most %u)", nm->n, MODULE_NAME_MAX);
		return;
	}
	unsigned n = k->info.nparams;
	for (unsigned i = 0; i < n; i++)
		if (strlen(k->param_names[i]) == nm->n && !memcmp(k->param_names[i], nm->s, nm->n)) {
			asm_err(c, nm->col, "duplicate parameter '%.*s'", (int)(nm->n > 64 ? 64 : nm->n), nm->s);
			return;
		}
	if (n >= WE_MAX_PARAMS) {
		asm_err(c, col, "too many parameters (at most %u)", WE_MAX_PARAMS);
		return;
	}
	uint32_t off, end = k->info.param_bytes;
	if (!module_param_place(&end, size, align, &off)) {
		asm_err(c, col, "parameters exceed %u bytes", WE_PARAM_BYTES_MAX);
		return;
	}
	if (!module_param_reserve(k, n + 1)) {
		c->oom = true;
		return;
	}
	char *name = dup_n(c, nm->s, nm->n);
	if (!name)
		return;
	k->param_names[n] = name;
	k->params[n] = (we_param_info){ name, (we_param_type)ti, off, size };
	k->info.nparams = n + 1;
	k->info.param_bytes = end;
}

static void dir_size(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	int64_t v;
	if (!const_arg(p, what, &v))
		return;
	we_kernel *k = kernel_for(p, what, col);
	if (!k)
		return;
	if (v < 0 || v > (int64_t)UINT32_MAX) {
		asm_err(c, col, "'%s %" PRId64 "' out of range (0..4294967295)", what, v);
		return;
	}
	if (what[1] == 's')
		k->shared_bytes = (uint32_t)v;
	else
		k->local_bytes = (uint32_t)v;
}

static void dir_dialect(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	we_kernel *k = kernel_for(p, what, col);
	if (!k)
		return;
	const tok *t = tok_cur(p);
	for (unsigned d = 0; t && d < 4; d++)
		if (tok_ident_is(t, module_dialect_name((we_dialect)d))) {
			k->dialect = (we_dialect)d;
			p->i++;
			expect_end(p, what);
			return;
		}
	if (t)
		asm_err(c, t->col, "unknown dialect '%.*s' (expected target, sass, visa or ptx)",
			(int)(t->n > 32 ? 32 : t->n), t->s);
	else
		asm_err(c, stmt_end_col(p), "expected a dialect (target, sass, visa or ptx)");
}

static void dir_trap(pcur *p, const char *what, uint32_t col)
{
	asm_ctx *c = p->c;
	we_kernel *k = kernel_for(p, what, col);
	if (!k)
		return;
	if (at_end(p)) {
		asm_err(c, stmt_end_col(p), "'%s' needs a label", what);
		return;
	}
	int e = asm_parse_expr(p);
	if (e < 0)
		return;
	expect_end(p, what);
	evalue v;
	xerr x;
	if (!asm_eval(c, e, &v, &x)) {
		asm_err(c, x.col, "%s", x.msg);
		return;
	}
	if (v.bank != -1) {
		asm_err(c, c->nodes[e].col, "the trap handler must be a code label");
		return;
	}
	if (v.huge || v.v < 0 || v.v > INT_MAX || v.v % WE_INST_SIZE) {
		asm_err(c, c->nodes[e].col, "bad trap handler address");
		return;
	}
	/* (as the module's loader checks it: an instruction of the module) */
	if (c->pass == 2 && (uint64_t)v.v >= c->code_bytes) {
		asm_err(c, c->nodes[e].col, "the trap handler 0x%llx is outside the code (0x%llx bytes)",
			(unsigned long long)v.v, (unsigned long long)c->code_bytes);
		return;
	}
	k->trap_handler = (int)v.v;
}

/* .loc N: the source line of the next instructions (ptx/ptx.c) */
static void dir_loc(pcur *p, const char *what, uint32_t col)
{
	int64_t v;
	if (!const_arg(p, what, &v))
		return;
	if (v < 0 || v > (int64_t)UINT32_MAX) {
		asm_err(p->c, col, "'%s %" PRId64 "' out of range (0..4294967295)", what, v);
		return;
	}
	p->c->loc = (uint32_t)v;
}

static void d_byte(pcur *p, const char *w, uint32_t col) { dir_data(p, w, col, 1, false); }
static void d_short(pcur *p, const char *w, uint32_t col) { dir_data(p, w, col, 2, false); }
static void d_word(pcur *p, const char *w, uint32_t col) { dir_data(p, w, col, 4, false); }
static void d_dword(pcur *p, const char *w, uint32_t col) { dir_data(p, w, col, 8, false); }
static void d_float(pcur *p, const char *w, uint32_t col) { dir_data(p, w, col, 4, true); }

static const struct {
	const char *name;
	void (*fn)(pcur *p, const char *what, uint32_t col);
} directives[] = {
	{ ".kernel", dir_kernel }, { ".end", dir_end }, { ".param", dir_param },
	{ ".shared", dir_size }, { ".local", dir_size }, { ".dialect", dir_dialect },
	{ ".trap_handler", dir_trap }, { ".const", dir_const }, { ".text", dir_text },
	{ ".section", dir_section }, { ".byte", d_byte }, { ".short", d_short },
	{ ".word", d_word }, { ".dword", d_dword }, { ".quad", d_dword }, { ".float", d_float },
	{ ".zero", dir_zero }, { ".align", dir_align }, { ".loc", dir_loc },
	{ ".sectionflags", dir_ignore }, { ".sectioninfo", dir_ignore }, { ".type", dir_ignore },
	{ ".size", dir_ignore }, { ".other", dir_ignore }, { ".global", dir_ignore },
};

static void directive(pcur *p)
{
	asm_ctx *c = p->c;
	const tok *t = tok_cur(p);
	for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
		if (tok_ident_is(t, directives[i].name)) {
			p->i++;
			directives[i].fn(p, directives[i].name, t->col);
			return;
		}
	asm_err(c, t->col, "unknown directive '%.*s'", (int)(t->n > 48 ? 48 : t->n), t->s);
}

/* ======================================================================
 * Statements
 * ====================================================================== */

static void define_label(asm_ctx *c, const tok *t)
{
	regref r;
	xerr e;
	if (asm_reg_name(t, &r, &e) != 0) {
		asm_err(c, t->col, "'%.*s' is a register name and cannot be a label", (int)(t->n > 32 ? 32 : t->n),
			t->s);
		return;
	}
	if (t->n == 1 && t->s[0] == '.') {
		asm_err(c, t->col, "'.' cannot be a label");
		return;
	}
	bool data = c->in_data;
	int64_t value = data ? (int64_t)c->dsize[c->bank] : (int64_t)c->pc;
	label *l = asm_label_find(c, t->s, t->n);
	if (c->pass == 1) {
		if (l)
			return;
		l = asm_label_add(c, t->s, t->n);
		if (!l)
			return;
		l->data = data;
		l->bank = (uint8_t)(data ? c->bank : 0);
		l->value = value;
		l->line = c->line;
		l->col = t->col;
		return;
	}
	if (!l)
		return;
	if (l->line != c->line || l->col != t->col) {
		asm_err(c, t->col, "duplicate label '%.*s' (first defined at line %" PRIu32 ")",
			(int)(t->n > 64 ? 64 : t->n), t->s, l->line);
		return;
	}
	if (l->value != value || l->data != data)
		asm_err(c, t->col, "internal error: label '%.*s' moved between passes",
			(int)(t->n > 64 ? 64 : t->n), t->s);
}

/* (*"BRANCH_TARGETS .L_a,.L_b"*): warn about undefined targets */
static void check_hints(asm_ctx *c, size_t from, size_t to)
{
	static const char key[] = "BRANCH_TARGETS";
	for (size_t i = from; i < to; i++) {
		const tok *t = &c->toks[i];
		if (t->kind != T_HINT)
			continue;
		const char *s = t->s + 2, *e = t->s + t->n - 2;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '"'))
			s++;
		if ((size_t)(e - s) < sizeof key - 1 || memcmp(s, key, sizeof key - 1))
			continue;
		s += sizeof key - 1;
		while (s < e) {
			while (s < e && (*s == ' ' || *s == '\t' || *s == ',' || *s == '"'))
				s++;
			const char *b = s;
			while (s < e && *s != ' ' && *s != '\t' && *s != ',' && *s != '"')
				s++;
			if (s > b && !asm_label_find(c, b, (size_t)(s - b)))
				asm_warn(c, t->col, "BRANCH_TARGETS names an undefined label '%.*s'",
					 (int)(s - b > 64 ? 64 : s - b), b);
		}
	}
}

static void append_insn(asm_ctx *c, const we_word *w)
{
	we_word *code = asm_grow(c, c->code, &c->capinsns, c->ninsns + 1, sizeof *code);
	if (!code)
		return;
	c->code = code;
	uint32_t *lines = asm_grow(c, c->lines, &c->caplines, c->ninsns + 1, sizeof *lines);
	if (!lines)
		return;
	c->lines = lines;
	c->code[c->ninsns] = *w;
	c->lines[c->ninsns] = c->loc ? c->loc : c->line;
	c->ninsns++;
}

static void instruction(pcur *p)
{
	asm_ctx *c = p->c;
	uint32_t col = tok_cur(p)->col;
	uint64_t pc = c->pc;
	if (pc + WE_INST_SIZE > UINT32_MAX) {
		asm_err(c, col, "code exceeds 4 GiB");
		return;
	}
	c->pc += WE_INST_SIZE;
	if (c->pass == 1)
		return;
	we_word w = { 0, 0 };
	c->stmt_pc = pc;
	if (c->in_data)
		asm_err(c, col, "instruction in a constant section (use .text)");
	else if (c->has_kernels && !c->in_kernel)
		asm_err(c, col, "instruction outside .kernel (this file declares kernels)");
	else
		asm_instruction(p, &w);
	append_insn(c, &w);
}

static void statement(asm_ctx *c, size_t from, size_t to)
{
	pcur p = { c, from, to, 0 };
	c->nnodes = 0;
	while (p.i + 1 < p.end && c->toks[p.i].kind == T_IDENT && c->toks[p.i + 1].kind == T_PUNCT &&
	       c->toks[p.i + 1].p == ':') {
		define_label(c, &c->toks[p.i]);
		p.i += 2;
	}
	while (p.i < p.end && c->toks[p.i].kind == T_HINT)
		p.i++;
	if (p.i >= p.end)
		return;
	const tok *t = tok_cur(&p);
	c->stmt_pc = c->in_data ? c->dsize[c->bank] : c->pc;
	if (t->kind == T_IDENT && t->s[0] == '.') {
		directive(&p);
	} else if (t->kind == T_IDENT || (t->kind == T_PUNCT && t->p == '@')) {
		instruction(&p);
		if (c->pass == 2)
			check_hints(c, from, to);
	} else {
		asm_err(c, t->col, "expected an instruction, a directive or a label");
	}
}

static void run_pass(asm_ctx *c)
{
	const char *b = c->buf, *e = c->buf + c->len;
	c->line = 0;
	while (b <= e && !c->oom && !c->stop) {
		const char *nl = memchr(b, '\n', (size_t)(e - b));
		const char *le = nl ? nl : e;
		c->line++;
		c->lp = b;
		c->ll = (size_t)(le - b);
		if (asm_lex_line(c, b, c->ll)) {
			size_t i = 0;
			while (i < c->ntoks && !c->oom && !c->stop) {
				size_t j = i;
				while (j < c->ntoks && !(c->toks[j].kind == T_PUNCT && c->toks[j].p == ';'))
					j++;
				if (j > i)
					statement(c, i, j);
				i = j + 1;
			}
		}
		if (!nl)
			break;
		b = nl + 1;
	}
}

static void reset_layout(asm_ctx *c)
{
	c->loc = 0;
	c->in_data = false;
	c->bank = 0;
	c->pc = 0;
	c->in_kernel = false;
	c->cur = NULL;
	memset(c->dsize, 0, sizeof c->dsize);
	memset(c->doverflow, 0, sizeof c->doverflow);
}

static void ctx_free(asm_ctx *c)
{
	free(c->buf);
	for (size_t i = 0; i < c->ndiags; i++)
		free(c->diags[i].msg);
	free(c->diags);
	free(c->toks);
	free(c->nodes);
	for (size_t i = 0; i < c->caplabels; i++)
		free(c->labels[i].name);
	free(c->labels);
	for (unsigned b = 0; b < WE_NUM_CBANKS; b++)
		free(c->data[b]);
	free(c->code);
	free(c->lines);
	module_free(c->m);
}

static bool ctx_init(asm_ctx *c, const char *text, size_t len, const char *fname)
{
	memset(c, 0, sizeof *c);
	/* a UTF-8 byte-order mark (editors on Windows write one) is not
	 * part of the text: line 1's columns count from after it */
	if (text && len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	c->src = text ? text : "";
	c->len = len;
	c->fname = fname ? fname : "<input>";
	c->buf = malloc(len + 1);
	if (!c->buf)
		return false;
	if (len)
		memcpy(c->buf, text, len);
	c->buf[len] = 0;
	asm_strip_comments(c);
	asm_mnemonic_table(c);
	return true;
}

/* Move the assembled code and data into c->m (pass 2, no errors). */
static bool build_module(asm_ctx *c)
{
	struct we_module *m = c->m;
	m->ninsns = (uint32_t)c->ninsns;
	if (c->ninsns) {
		m->insn = calloc(c->ninsns, sizeof *m->insn);
		if (!m->insn)
			return false;
		m->code = c->code;
		m->line = c->lines;
		c->code = NULL;
		c->lines = NULL;
		for (size_t i = 0; i < c->ninsns; i++) {
			if (isa_decode(&m->code[i], &m->insn[i]) < 0) {
				asm_diag(c, false, m->line[i], 1, "internal error: instruction %zu does not decode", i);
				return true;
			}
		}
	}
	for (unsigned b = 1; b < WE_NUM_CBANKS; b++) {
		if (!c->dsize[b])
			continue;
		m->cbank[b].size = c->dsize[b];
		m->cbank[b].data = c->data[b];
		c->data[b] = NULL;
	}
	m->source = dup_n(c, c->fname, strlen(c->fname));
	if (!m->source)
		return false;
	module_finish_info(m);
	return true;
}

we_status asm_assemble(const char *text, size_t len, const char *filename,
		       struct we_module **out, char **diag)
{
	if (out)
		*out = NULL;
	if (diag)
		*diag = NULL;
	if (!out || !diag || (!text && len))
		return WE_ERR_INVALID;
	asm_ctx c;
	if (!ctx_init(&c, text, len, filename)) {
		ctx_free(&c);
		return WE_ERR_NOMEM;
	}
	if (len > (size_t)INT32_MAX) {
		asm_diag(&c, false, 0, 0, "input too large (%zu bytes)", len);
	} else {
		c.pass = 1;
		reset_layout(&c);
		run_pass(&c);
		c.code_bytes = c.pc;
		c.pass = 2;
		reset_layout(&c);
		c.m = module_new();
		if (!c.m)
			c.oom = true;
		if (!c.oom && !c.has_kernels) {
			c.cur = module_add_kernel(c.m, "main");
			if (!c.cur)
				c.oom = true;
		}
		if (!c.oom)
			run_pass(&c);
		if (!c.oom && !c.stop && c.in_kernel && c.cur) {
			asm_diag(&c, false, c.kernel_line, c.kernel_col, "'.kernel %s' is missing '.end'",
				 c.cur->name);
			c.cur->code_end = (uint32_t)c.pc;
		}
		if (!c.oom && !c.has_kernels && c.cur)
			c.cur->code_end = (uint32_t)c.pc;
	}
	if (!c.oom && !c.nerrors && !build_module(&c))
		c.oom = true;
	we_status st = WE_OK;
	if (c.oom) {
		st = WE_ERR_NOMEM;
	} else {
		*diag = asm_format_diags(&c);
		if (c.oom)
			st = WE_ERR_NOMEM;
		else if (c.nerrors)
			st = WE_ERR_ASM;
	}
	if (st == WE_OK) {
		*out = c.m;
		c.m = NULL;
	} else if (st == WE_ERR_NOMEM) {
		free(*diag);
		*diag = NULL;
	}
	ctx_free(&c);
	return st;
}

bool asm_one(const char *text, size_t len, uint64_t pc, we_word *w, char *err, size_t errlen)
{
	asm_ctx c;
	bool ok = false;
	if (err && errlen)
		err[0] = 0;
	if (!ctx_init(&c, text, len, NULL)) {
		ctx_free(&c);
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return false;
	}
	c.pass = 2;
	c.line = 1;
	c.lp = c.buf;
	c.ll = len;
	c.pc = pc;
	c.stmt_pc = pc;
	const char *nl = memchr(c.buf, '\n', len);
	if (nl)
		c.ll = (size_t)(nl - c.buf);
	if (!c.nerrors && asm_lex_line(&c, c.buf, c.ll)) {
		size_t j = 0;
		while (j < c.ntoks && !(c.toks[j].kind == T_PUNCT && c.toks[j].p == ';'))
			j++;
		pcur p = { &c, 0, j, 0 };
		if (j == 0)
			asm_err(&c, 1, "empty statement");
		else if (asm_instruction(&p, w))
			ok = !c.nerrors;
	}
	if (!ok && err && errlen)
		snprintf(err, errlen, "%s", c.ndiags ? c.diags[0].msg : c.oom ? "out of memory" : "error");
	ctx_free(&c);
	return ok;
}
