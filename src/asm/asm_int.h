/* asm_int.h — private types of the assembler, shared by asm.c (driver,
 * directives), parse.c (lexer, expressions, operands, diagnostics) and
 * match.c (table-driven instruction matcher).  Not an API.
 */
#ifndef WE_ASM_INT_H
#define WE_ASM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm/asm.h"

#define ASM_MAX_ERRORS 50      /* errors shown in the diagnostic text      */
#define ASM_MAX_DIAGS 2000     /* diagnostics kept (the rest are counted)  */
#define ASM_MAX_OPERANDS 24
#define ASM_MAX_EXPR_HEIGHT 200
#define ASM_MAX_NODES 100000   /* expression nodes per statement           */
#define ASM_MSG 320

/* ---- tokens ------------------------------------------------------------- */
enum tok_kind { T_IDENT, T_NUM, T_FLOAT, T_STR, T_PUNCT, T_HINT };

/* punctuation codes: the character itself, or one of these */
#define P_SHL 'L'
#define P_SHR 'R'

typedef struct tok {
	uint8_t kind;
	char p;                /* T_PUNCT: the character (P_SHL, P_SHR)    */
	bool hex;              /* T_NUM written in hex                     */
	bool huge;             /* T_NUM > INT64_MAX                        */
	uint32_t col;          /* 1-based column of the first character    */
	const char *s;         /* text (in the comment-stripped buffer)    */
	size_t n;
	uint64_t num;          /* T_NUM value                              */
} tok;

/* ---- expressions -------------------------------------------------------- */
enum enode_op {
	E_NUM, E_FLOAT, E_NAME, E_DOT,
	E_NEG, E_POS, E_NOT,
	E_MUL, E_DIV, E_MOD, E_ADD, E_SUB, E_SHL, E_SHR, E_AND, E_XOR, E_OR
};

typedef struct enode {
	uint8_t op;
	bool hex, huge;        /* E_NUM                                    */
	uint16_t height;
	uint32_t col;
	int a, b;              /* children                                 */
	uint64_t num;
	const char *s;         /* E_NAME, E_FLOAT: text                    */
	size_t n;
} enode;

/* Result of evaluating an expression. */
typedef struct evalue {
	int64_t v;
	bool huge;             /* a lone literal in (INT64_MAX, UINT64_MAX] */
	int bank;              /* constant bank of a data label used: -1 none,
				  -2 several different banks                */
} evalue;

/* An error found while evaluating or matching, reported by the caller. */
typedef struct xerr {
	uint32_t col;
	char msg[ASM_MSG];
} xerr;

/* ---- operands ----------------------------------------------------------- */
enum opnd_kind { O_REG, O_UREG, O_PRED, O_UPRED, O_EXPR, O_MEM, O_CMEM };

typedef struct regref {
	uint8_t kind;          /* O_REG, O_UREG, O_PRED, O_UPRED           */
	unsigned num;
	unsigned count;        /* registers named (R[4:7] = 4), else 1     */
	bool range;            /* written R[a:b]                           */
	bool dot64;            /* written R2.64                            */
} regref;

typedef struct operand {
	uint8_t kind;
	uint32_t col;
	bool p_not, p_bitnot, p_neg, p_abs;   /* prefixes ! ~ - |x|        */
	regref r;              /* O_REG..O_UPRED; O_MEM/O_CMEM base        */
	bool has_base;         /* O_MEM / O_CMEM: a base register written  */
	int expr;              /* O_EXPR: node                             */
	int off;               /* O_MEM / O_CMEM: offset node or -1        */
	int bank;              /* O_CMEM: bank node or -1 (c[Ra+x])        */
} operand;

/* ---- labels ------------------------------------------------------------- */
typedef struct label {
	char *name;
	size_t n;
	bool data;             /* defined in a constant section            */
	uint8_t bank;
	int64_t value;         /* code: byte address; data: bank offset    */
	uint32_t line, col;    /* definition                               */
} label;

/* ---- diagnostics -------------------------------------------------------- */
typedef struct diag_ent {
	uint32_t line, col;
	bool warn;
	uint32_t seq;
	char *msg;
} diag_ent;

/* ---- the assembler's state --------------------------------------------- */
typedef struct asm_ctx {
	const char *src;       /* original text (for diagnostics)           */
	char *buf;             /* comments blanked, NUL-terminated copy      */
	size_t len;
	const char *fname;
	int pass;              /* 1: layout and labels, 2: everything        */
	bool oom;
	bool stop;             /* a limit was reached: assemble no further   */

	/* diagnostics */
	diag_ent *diags;
	size_t ndiags, capdiags;
	size_t nerrors, nwarnings, ndropped_err, ndropped_warn;
	uint32_t seq;

	/* current line and statement */
	uint32_t line;
	uint32_t loc;            /* .loc: the source line recorded for the
				    next instructions (0: their own line) */
	const char *lp;        /* line start in buf                        */
	size_t ll;

	tok *toks;
	size_t ntoks, captoks;
	enode *nodes;
	size_t nnodes, capnodes;

	/* labels: open-addressing hash table (cap is a power of two) */
	label *labels;
	size_t nlabels, caplabels;

	/* layout */
	bool in_data;
	unsigned bank;
	uint64_t pc;           /* next code byte address                   */
	uint64_t stmt_pc;      /* address of the current statement ('.')   */
	uint64_t code_bytes;   /* the module's code, from pass 1 (pass 2)  */
	uint32_t dsize[WE_NUM_CBANKS];
	size_t dcap[WE_NUM_CBANKS];
	uint8_t *data[WE_NUM_CBANKS];
	bool doverflow[WE_NUM_CBANKS];

	/* code (pass 2) */
	we_word *code;
	uint32_t *lines;
	size_t ninsns, capinsns, caplines;

	/* mnemonics accepted for each opcode (asm_mnemonic_table) */
	const char *mn[ISA_NUM_OPCODES][2];
	size_t mnlen[ISA_NUM_OPCODES][2];

	/* kernels */
	bool has_kernels;      /* pass 1 saw a .kernel                     */
	bool in_kernel;
	uint32_t kernel_line, kernel_col;
	struct we_module *m;   /* built in pass 2                          */
	we_kernel *cur;        /* kernel receiving .param etc.             */
} asm_ctx;

/* Cursor over the tokens of one statement. */
typedef struct pcur {
	asm_ctx *c;
	size_t i, end;
	int depth;             /* expression parser recursion               */
} pcur;

/* ---- parse.c ------------------------------------------------------------ */
void *asm_grow(asm_ctx *c, void *p, size_t *cap, size_t need, size_t elem);
void asm_diag(asm_ctx *c, bool warn, uint32_t line, uint32_t col,
	      const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
/* error / warning at a column of the current line (pass 2 only) */
void asm_err(asm_ctx *c, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void asm_warn(asm_ctx *c, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
char *asm_format_diags(asm_ctx *c);
void asm_strip_comments(asm_ctx *c);
bool asm_lex_line(asm_ctx *c, const char *p, size_t n);

label *asm_label_find(asm_ctx *c, const char *s, size_t n);
label *asm_label_add(asm_ctx *c, const char *s, size_t n);

bool tok_is(const pcur *p, char punct);
bool tok_ident_is(const tok *t, const char *s);
const tok *tok_cur(const pcur *p);
int asm_parse_expr(pcur *p);
bool asm_eval(asm_ctx *c, int node, evalue *out, xerr *e);
/* constant expression (no labels, no '.') for layout directives */
bool asm_eval_const(asm_ctx *c, int node, int64_t *v, xerr *e);
bool asm_parse_operands(pcur *p, operand *ops, int *nops);
/* a register name in t (R4, RZ, P0, UR2, ...): 1 yes, 0 no, -1 error (e) */
int asm_reg_name(const tok *t, regref *r, xerr *e);
/* float value of an expression written as a float (sign, float/decimal
 * literal, inf, nan): 1 yes with bits, 0 not written as a float */
int asm_float_expr(asm_ctx *c, int node, uint32_t *bits, xerr *e);
void asm_fmt_hex(char *buf, size_t n, int64_t v);

/* ---- match.c ------------------------------------------------------------ */
/* Assemble the instruction statement at the cursor (after labels) into *w;
 * on failure reports the error and returns false. */
bool asm_instruction(pcur *p, we_word *w);
void asm_mnemonic_table(asm_ctx *c);

#endif
