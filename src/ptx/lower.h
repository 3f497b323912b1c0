/* lower.h — shared by the lowering files (lower.c: the driver and the
 * layout; lx.c: the lowering context, emission; lower_ops.c: one
 * function per PTX instruction family). */
#ifndef WE_PTX_LOWER_H
#define WE_PTX_LOWER_H

#include <stdarg.h>

#include "base/strbuf.h"
#include "isa/isa.h"
#include "ptx/ptx.h"
#include "ptx/ptx_int.h"

/* generic address windows (isa.h, doc/ptx.md): shared and local memory
 * and the constant banks seen through a generic pointer; global
 * addresses are device addresses, which start at 0x10000000 */
#define PTX_SHARED_WINDOW ((uint64_t)WE_GENERIC_SHARED)
#define PTX_LOCAL_WINDOW ((uint64_t)WE_GENERIC_LOCAL)
#define PTX_CONST_BANK 3u            /* .const variables live in c[3] */
/* a kernel parameter's generic address: bank 0 of the constant window;
 * a .const variable's: bank PTX_CONST_BANK */
#define PTX_PARAM_WINDOW ((uint64_t)WE_GENERIC_CONST)
#define PTX_CONST_WINDOW ((uint64_t)WE_GENERIC_CONST + (uint64_t)PTX_CONST_BANK * WE_GENERIC_CBANK_STRIDE)
#define PTX_BRX_BANK 2u              /* brx.idx jump tables live in c[2] */
/* (.global variables: PTX_GLOBAL_*_BANK, ptx.h) */

typedef struct lx {
	const ptx_module *m;
	const ptx_func *f;
	ptx_diags *g;
	lcode c;
	int *rv;                      /* PTX register -> vreg (-1 until used) */
	int *lab;                     /* PTX label -> lcode label */
	const ptx_ins *in;            /* being lowered */
	int guard;                    /* its guard vreg, -1 */
	bool guard_neg;
	bool failed;                  /* this instruction reported an error */
	/* layout of the kernel being lowered */
	uint32_t *shared_off;         /* per module var; UINT32_MAX = none */
	uint32_t *fshared_off;        /* per function var */
	uint32_t shared_bytes, local_bytes;
	bool has_extern_shared;
	int exit_label;               /* label of a pure-ret block, -1 */
	int varying_next;             /* mark the next emitted lins varying */
	int cc1;                      /* the condition code's vreg + 1 (add.cc, addc; lower_num.c), 0 */
	int ret_label;                /* a .func: the label of its epilogue */
	const int *fspace;            /* per module function: the label space of its
					 copy in this kernel's code, -1 */
	bool calls;                   /* the unit has a call */
	/* the module's (every kernel's) */
	unsigned kidx;                /* the unit's label space: its labels are .L<kidx>_<n> */
	strbuf *tables;               /* brx.idx jump tables (c[PTX_BRX_BANK] data) */
	uint32_t *table_bytes;        /* their size so far */
} lx;

#define V(...) ((const int[]){ __VA_ARGS__ })

/* v rounded up to a multiple of a (a = 0: v) */
static inline uint32_t align_up(uint32_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* Emit one instruction: slots is a string of (role, form) pairs, role d
 * (writes), u (reads), m (both), form r w a h p q (ptx_int.h); v holds the
 * vregs; fmt the text with $0..$7 holes and printf conversions.  The
 * instruction takes the PTX instruction's guard. */
lins *emit(lx *x, const char *slots, const int *v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same without the guard. */
lins *emit_ng(lx *x, const char *slots, const int *v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* errors of the current instruction */
void lx_unsupported(lx *x, const char *why);
void lx_error(lx *x, const ptx_opnd *o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* the vreg of PTX register r */
int lx_reg(lx *x, int r);
int lx_tmp(lx *x, ptx_rclass rc);

/* the type modifier of the instruction (the last one naming a type), its
 * size in bits (0 if none) and whether it is signed / float */
typedef struct ptype {
	unsigned bits;
	char k;                       /* 'b' 'u' 's' 'f' 'p' (pred) */
} ptype;
ptype lx_type(const ptx_ins *in);
ptype lx_type_at(const ptx_ins *in, int which);   /* 0: first type mod, 1: second */

/* an integer operand as a 32-bit immediate text (its low 32 bits) or a
 * register: returns the vreg, or -1 with the text in buf */
int lx_src32(lx *x, const ptx_opnd *o, char *buf, size_t n);
/* a register operand, an immediate moved into a temp */
int lx_reg32(lx *x, const ptx_opnd *o);
int lx_reg64(lx *x, const ptx_opnd *o);
int lx_pred(lx *x, const ptx_opnd *o, bool *neg);
/* the destination register of operand o (must be a register), or -1 */
int lx_dst(lx *x, const ptx_opnd *o, ptx_rclass rc);
bool lx_reg_read(const ptx_func *f, const ptx_ins *self, int reg);

/* a guarded call or brx.idx: a branch over it (lx.c); the label to end
 * it with lx_guard_end, -1 */
int lx_guard_around(lx *x);
void lx_guard_end(lx *x, int skip);

/* the address of a .shared/.local/.const variable in its space */
bool lx_var_addr(lx *x, const char *sym, ptx_space *space, uint64_t *addr);
/* The size and alignment of kernel parameter p in the parameter block
 * (the assembler's layout of lower.c's .param lines). */
/* The .we type (we_param_type) of a scalar kernel parameter, or -1 (an
 * aggregate, or none the module has: check_params refuses it), and the
 * size and alignment of a parameter in c[0]. */
int lx_param_type(const ptx_param *p);
void lx_param_layout(const ptx_param *p, uint32_t *size, uint32_t *align);
/* byte offset of a kernel parameter in c[0] (*size: its bytes there),
 * or -1 */
int64_t lx_param_off(lx *x, const char *sym, uint32_t *size);
/* the lcode label of a PTX label, -1; *is_exit: a pure-ret block */
int lx_label_of(lx *x, const char *name, bool *is_exit);

/* ---- calls (call.c, doc/ptx.md "Calls") ---- */
#define PTX_RECURSION_STACK 16384u   /* the stack of a kernel whose calls may recurse */
/* the frame of .func f: the return address' offset, and the bytes before
 * its .local variables */
uint32_t call_ra_off(const ptx_func *f);
uint32_t call_frame_head(const ptx_func *f);
/* the .func a call instruction calls (defined in m), or NULL */
const ptx_func *call_callee(const ptx_module *m, const ptx_ins *in);
/* the local-memory address of a .param operand of a function: its own
 * parameter or return value (SP + *off), or an argument of a call
 * (*frame: SP + frame size + *off) */
bool call_param(lx *x, const ptx_opnd *ao, bool store, int64_t *off, bool *frame);
bool op_call(lx *x);
void call_prologue(strbuf *b, const ptx_func *f);
void call_epilogue(strbuf *b, const ptx_func *f);

/* lowering of one instruction (lower_ops.c); false: unknown opcode */
bool lower_ins(lx *x);
/* the numeric instructions of num.isa (lower_num.c), tried first: true
 * when it lowered (or refused) the instruction */
bool lower_num(lx *x);
/* operand.c: whether the instruction has modifier m; the operand count
 * in [lo, hi] (else an error); a narrow value normalised to its type
 * (zero- or sign-extended); a 64-bit source as a register pair or the
 * immediate texts of its halves in lo/hi (-1); the address of .global
 * variable slot `slot` (a pair); the FCmp name (FSETP, DSETP) of a PTX
 * float comparison, or NULL */
static inline bool lx_has(const lx *x, const char *m)
{
	return ptx_has_mod(x->in, m);
}
bool lx_nops(lx *x, int lo, int hi);
int lx_norm(lx *x, int v, ptype t);
int lx_src64(lx *x, const ptx_opnd *o, char *lo, char *hi, size_t n);
int lx_global_addr(lx *x, uint64_t slot);
const char *lx_fcmp(const char *c);
/* MNEM d, a, c, b of the instruction's d, a, b, c (PRMT, SHF) */
void lx_emit_dacb(lx *x, const char *mnem);

/* special register operand -> vreg (operand.c) */
int lx_sreg(lx *x, const ptx_opnd *o, bool want64);

#endif
