/* ptx_int.h — the PTX front end's internal model: the parsed module
 * (parse.c), the lowered code (lir, lower*.c), the control-flow analyses
 * (cfg.c) and the register allocator (ralloc.c).  doc/ptx.md describes
 * the whole pipeline.
 */
#ifndef WE_PTX_INT_H
#define WE_PTX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "warpemu/warpemu.h"

/* ---- diagnostics ------------------------------------------------------ */

typedef struct ptx_diag {
	uint32_t line, col;
	char *msg;
} ptx_diag;

typedef struct ptx_diags {
	const char *fname;
	const char *src;              /* the PTX text (for the source line) */
	size_t len;
	ptx_diag *d;
	size_t n, cap;
	bool oom;
	bool unsupported;             /* some error is "not supported" */
} ptx_diags;

void ptx_err(ptx_diags *g, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The diagnostics gcc style (file:line:col: error: msg, source, caret). */
char *ptx_format_diags(const ptx_diags *g);
void ptx_diags_free(ptx_diags *g);

/* ---- the parsed module ------------------------------------------------ */

/* Register classes of PTX values after lowering: a predicate, one 32-bit
 * register (8-, 16- and 32-bit values) or an even/odd register pair. */
typedef enum { RC_PRED = 0, RC_32, RC_64 } ptx_rclass;

typedef struct ptx_reg {
	char *name;                   /* "%r12" */
	ptx_rclass rc;
	char type[8];                 /* declared type without the dot ("b32") */
	int depth;                    /* the { } scope depth it was declared at */
	bool closed;                  /* its scope has ended: the name is no longer it */
} ptx_reg;

typedef enum {
	PO_NONE = 0,
	PO_REG,                       /* reg */
	PO_IMM,                       /* imm (integer literal) */
	PO_FIMM,                      /* fbits (0f/0d or decimal float), f64 */
	PO_SYM,                       /* sym (+ imm): a variable, function or label */
	PO_ADDR,                      /* [reg + imm] or [sym + imm] or [imm] */
	PO_VEC,                       /* { vec[0..nvec) } (-1 = '_') */
	PO_SREG,                      /* a special register: sym = "tid.x" */
	PO_SINK,                      /* '_' */
	PO_LIST                       /* ( ... ) of a call: vec of symbols */
} ptx_okind;

typedef struct ptx_opnd {
	uint8_t kind;
	bool neg;                     /* !%p (predicate operand) */
	int reg;                      /* PO_REG, PO_ADDR base; -1 none */
	int reg2;                     /* d|p: the predicate after '|'; -1 none */
	int64_t imm;                  /* PO_IMM value, PO_ADDR/PO_SYM offset */
	uint64_t fbits;
	bool f64;
	char *sym;                    /* PO_SYM / PO_ADDR base / PO_SREG */
	int nvec;
	int vec[4];
	char **names;                 /* PO_LIST: names (nvec of them) */
	uint32_t col;
} ptx_opnd;

#define PTX_MAX_MODS 12
#define PTX_MAX_OPNDS 8

typedef struct ptx_ins {
	uint32_t line, col;
	int guard;                    /* predicate register or -1 */
	bool guard_neg;
	char op[24];                  /* "ld" */
	char mods[PTX_MAX_MODS][16];  /* "global", "u32", ... without dots */
	int nmods;
	ptx_opnd o[PTX_MAX_OPNDS];
	int no;
	const char *text;             /* the statement in the source */
	uint32_t textlen;
} ptx_ins;

/* A variable of the module or of a function: .global, .const, .shared,
 * .local (incl. .extern .shared), with its layout and initialiser. */
typedef enum { VS_GLOBAL, VS_CONST, VS_SHARED, VS_LOCAL, VS_PARAM } ptx_space;

typedef struct ptx_var {
	char *name;
	ptx_space space;
	bool is_extern;
	bool is_array;                /* declared with [N] */
	uint32_t align, elsize, count; /* count 0 with is_extern: [] */
	uint8_t *init;                /* elsize*count bytes, or NULL */
	uint32_t line, col;
	uint32_t offset;              /* assigned when laid out */
	char type[8];
} ptx_var;

typedef struct ptx_param {
	char *name;
	char type[8];                 /* "u64", "b8" (arrays) ... */
	uint32_t size, align, offset;
	bool is_ptr;                  /* .ptr attribute or a 64-bit integer */
	bool is_array;                /* an aggregate by value: .b8 name[N] */
} ptx_param;

typedef struct ptx_label {
	char *name;
	uint32_t at;                  /* index of the next instruction */
	uint32_t line;
	int targets;                  /* >= 0: a .branchtargets list (index into btl) */
} ptx_label;

typedef struct ptx_func {
	char *name;
	bool is_entry;
	bool defined;                 /* has a body */
	uint32_t line, col;
	ptx_param *params;
	uint32_t nparams;
	ptx_param *rets;
	uint32_t nrets;
	ptx_reg *regs;
	uint32_t nregs, capregs;
	ptx_ins *ins;
	uint32_t nins, capins;
	ptx_label *labels;
	uint32_t nlabels, caplabels;
	char ***btl;                  /* .branchtargets lists */
	uint32_t *btn;
	uint32_t nbtl;
	ptx_var *vars;                /* function-scope .shared/.local/.param */
	uint32_t nvars, capvars;
	uint32_t maxntid[3], reqntid[3];
} ptx_func;

typedef struct ptx_module {
	uint32_t version_major, version_minor;
	char target[16];
	uint32_t address_size;
	ptx_var *vars;
	uint32_t nvars, capvars;
	ptx_func *funcs;
	uint32_t nfuncs, capfuncs;
} ptx_module;

/* Parse text into m.  false when g holds errors. */
bool ptx_parse(const char *text, size_t len, ptx_module *m, ptx_diags *g);
void ptx_module_free(ptx_module *m);
/* Register index of name in f, or -1. */
int ptx_find_reg(const ptx_func *f, const char *name, size_t n);
const ptx_func *ptx_find_func(const ptx_module *m, const char *name);
const ptx_var *ptx_find_var(const ptx_module *m, const ptx_func *f, const char *name);
/* true when the instruction has modifier s */
bool ptx_has_mod(const ptx_ins *in, const char *s);

/* ---- lowered code ------------------------------------------------------
 *
 * One lowered instruction is the text of a target instruction with holes
 * for registers: "%0", "%1", ... each naming slot k of r[].  A slot is a
 * virtual register and how it is printed:
 *   'r' Rn   'w' R[n:n+1]   'a' Rn.64 (a global address)   'h' R(n+1)
 *   'p' Pn   'q' !Pn (a negated predicate)
 * and whether the instruction reads it, writes it or both.  The guard is
 * a predicate slot of its own.  Labels, branches and reconvergence are
 * kinds of their own so that cfg.c and ralloc.c see the control flow.
 */

typedef enum {
	LK_INS = 0,                   /* a plain instruction (falls through) */
	LK_LABEL,                     /* a label (target = label id) */
	LK_BRA,                       /* BRA to label `target` (guarded or not) */
	LK_BRX,                       /* BRX: successors = targets list */
	LK_EXIT,                      /* EXIT / RET: no successor unless guarded */
	LK_CALL                       /* CALL: falls through after the callee */
} lkind;

enum { LU_USE = 1, LU_DEF = 2 };

typedef struct lslot {
	int v;                        /* virtual register */
	char form;                    /* r w a h p q */
	uint8_t use;                  /* LU_USE | LU_DEF */
} lslot;

#define L_MAX_SLOTS 8

typedef struct lins {
	uint8_t kind;
	bool uniform;                 /* a BRA every active lane takes alike (.uni) */
	bool varying;                 /* its result differs per lane whatever its inputs */
	uint8_t nslot;
	int guard;                    /* predicate vreg or -1 (PT) */
	bool guard_neg;
	int target;                   /* label id (LK_LABEL, LK_BRA) */
	int *targets;                 /* LK_BRX: label ids */
	int ntargets;
	uint32_t line;                /* PTX source line (0 = none) */
	char *text;                   /* with holes; for LK_BRA the mnemonic */
	lslot s[L_MAX_SLOTS];
} lins;

typedef struct lvreg {
	ptx_rclass rc;
	int phys;                     /* assigned register, -1 = spilled */
	int slot;                     /* spill offset in local memory, -1 */
	int ptx;                      /* the PTX register it holds, or -1 */
} lvreg;

typedef struct lcode {
	lins *ins;
	uint32_t n, cap;
	lvreg *v;
	uint32_t nv, capv;
	uint32_t nlabels;
	char **label_names;           /* optional names for readability */
	unsigned kidx;                /* its label space: labels print as .L<kidx>_<n> */
	bool stack;                   /* spill slots are frame offsets from SP (R250):
					 a .func, or a kernel that calls one */
	uint32_t bbase;               /* its first B register (reconv.c) */
	uint32_t frame;               /* bytes of one activation's frame ('#N' in a
					 text is N + frame, '#-N' its negation) */
	bool oom;
} lcode;

int lc_vreg(lcode *c, ptx_rclass rc, int ptx);
int lc_label(lcode *c);
lins *lc_add(lcode *c, uint8_t kind, uint32_t line);
void lcode_free(lcode *c);

/* ---- analyses (cfg.c) -------------------------------------------------- */

typedef struct lblock {
	uint32_t first, last;         /* instruction range [first, last] */
	int succ[2 + 0];              /* up to two plain successors, -1 */
	int *xsucc;                   /* BRX successors */
	int nxsucc;
} lblock;

typedef struct lcfg {
	lblock *b;
	uint32_t nb;
	uint32_t *block_of;           /* instruction -> block */
	int *label_block;             /* label id -> block */
	int *ipdom;                   /* block -> immediate post-dominator, -1 = exit */
} lcfg;

bool cfg_build(const lcode *c, lcfg *g);
/* Successors of block b: n and list (valid until the next call). */
int cfg_succ(const lcfg *g, uint32_t b, int *out, int cap);
/* Immediate post-dominators (g->ipdom), by the iterative algorithm of
 * Cooper, Harvey and Kennedy on the reverse CFG with a virtual exit. */
bool cfg_postdom_with(lcfg *g, const lcode *c);
void cfg_free(lcfg *g);

/* ---- rewrites (peep.c) ------------------------------------------------- */

/* `@p BRA L; body; L:` with a short body of per-lane instructions becomes
 * the body under `@!p` (before reconv_place) */
void peep_ifconvert(lcode *c);
/* `MOV d, t` of a temporary t written once just before (same straight
 * run and guard) folds into t's write */
void peep_copies(lcode *c);
/* IMAD.WIDE into t and a 64-bit add of t: one IMAD.WIDE with the addend */
void peep_madwide(lcode *c);
/* and/or/xor.pred of a comparison just made: the comparison combines */
void peep_plogic(lcode *c);

/* ---- register allocation (ralloc.c) ------------------------------------ */

typedef struct ralloc_info {
	uint32_t local_bytes;         /* the kernel's local bytes so far (in/out) */
	uint32_t max_reg;             /* highest R register used + 1 */
	uint32_t spilled;             /* vregs spilled */
} ralloc_info;

/* Allocate every vreg of c to P0..P4 / R0..R239 (pairs even-aligned),
 * spilling to local memory; rewrites c.  false on out of memory. */
bool ralloc_run(lcode *c, ralloc_info *ri);

/* ---- lowering ---------------------------------------------------------- */

/* Lower module m to assembly text (the .we syntax) in out.  Errors
 * ("not supported" and semantic ones) go to g.  false on errors. */
bool ptx_lower(const ptx_module *m, ptx_diags *g, strbuf *out);

#endif
