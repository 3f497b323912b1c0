/* isagen.h — what the parts of isagen share: the data model of the ISA
 * descriptions (as parsed, then resolved per opcode) and the functions
 * of each step.
 *
 *   util.c     diagnostics, memory, lexing helpers
 *   parse.c    the DSL's text -> definitions (struct def, struct bft)
 *   resolve.c  __Amend, inheritance, field and operand checks -> struct opc
 *   cexpr.c    __Exception conditions -> C
 *   emit.c     isa_gen.h, isa_gen.c and isa_ref.md
 *   main.c     the command line and the checks across opcodes
 *
 * isagen keeps no state outside the `gen` its main() owns, and allocates
 * only through xrealloc() (tests/fuzz/fuzz_isagen.c relies on both).
 */
#ifndef WE_ISAGEN_H
#define WE_ISAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAXN 64

/* ---- data model ------------------------------------------------------- */

struct bft {                 /* __DefBitFieldType */
	char *name;
	int width;
	int nvalues;
	char **values;          /* index = encoding; NULL = unassigned slot */
	const char *file;
	int line;
	bool used;
	bool sized;             /* a Bitwidth<x> = field names it: each
				   value's name ends in its bit width */
};

enum fkind {
	K_OPTYPE, K_STYPE, K_ENUM, K_REG, K_UREG, K_PRED, K_UPRED,
	K_NOT, K_BITNOT, K_NEG, K_ABS, K_UIMM, K_SIMM, K_FIMM, K_CMEM
};

struct field {
	char *name;             /* may contain one '.', e.g. pg.not   */
	char *type;
	int pos, width;
	int kind;
	int bft;                /* K_ENUM / OPTYPE / STYPE: index     */
	bool fixed, has_default;
	char *valtext;          /* as written                         */
	int64_t value;          /* resolved                           */
	const char *file;
	int line;
};

struct kv { char *key; char *val; const char *file; int line; };

struct opinfo {
	bool has_in, has_out, has_order;
	int nin, nout, norder;
	char *in[MAXN], *out[MAXN], *order[MAXN];
	const char *norder_file; /* where Order<> is written */
	int norder_line;
	struct kv bitwidth[MAXN];
	int nbitwidth;
	struct kv asmfmt[MAXN];
	int nasmfmt;
	bool has_roles;         /* Roles<>: a name for each operand after pg */
	int nroles;
	char *roles[MAXN];
	const char *roles_file;
	int roles_line;
};

struct exc {
	char *kind, *msg, *expr;
	const char *file;
	int line;
};

enum defkind { D_GROUP, D_OPTYPE, D_OPCODE };

struct def {
	int kind;
	char *name;
	int nparents;
	char *parents[MAXN];
	struct field *fields;
	int nfields, capfields;
	struct opinfo oi;
	struct exc excs[8];
	int nexc;
	char *syntax;           /* __Syntax text (first code block)   */
	char *dialect;          /* __Dialect NAME, or NULL (all)      */
	char *examples;         /* __Examples code text               */
	char *description;      /* first paragraph of __Description   */
	unsigned flags;         /* __Properties Flags<>: 1 << index in isa_flags[] */
	bool has_flags;
	const char *file;
	int line;
	bool used;
};

struct amend {
	char *target;
	struct def d;           /* collected like a definition */
};

typedef struct gen {
	int errors;
	int max_errors;
	struct bft *bfts;
	int nbft, capbft;
	struct def *defs;
	int ndef, capdef;
	struct amend *amends;
	int namend, capamend;
} gen;

struct rfield {               /* a field of a resolved opcode */
	struct field f;
	int bitwidth;            /* Bitwidth<> */
	int asm_shift;
	bool pcrel;              /* CvtPCRel: printed as an absolute target */
	int pcrel_if_field;      /* CvtPCRelIf(x, n, field == V): index or -1 */
	int64_t pcrel_if_value;
	int mem_off;             /* Mem(ra, off): index of the offset field */
	int cmem_bank;           /* CMemInd(bank, ra, off): bank field index */
	bool consumed;           /* part of another field's operand       */
	bool is_in, is_out;
	int base;                /* NOT/BITNOT/NEG/ABS -> modified field  */
	int member;
	int span_by;             /* Bitwidth<x> = field: that field's index */
};

struct opc {                  /* a resolved opcode */
	struct def *d;
	struct def *optype;
	const struct def *unit_def; /* the ancestor whose parent is ALL, or NULL */
	const char *unit;        /* its name, or "ALL" */
	struct rfield fl[MAXN];
	int nf;
	int order[MAXN];
	int norder;
	int mods[MAXN];
	int nmods;
	int optype_val, stype_val;
	char *mnemonic, *alt;
	struct exc *excs[16];
	int nexc;
	uint64_t used_lo, used_hi;
	const char *dialect;
	unsigned flags;          /* of every ancestor, and WritesPred from OutList<> */
	int nroles;              /* the operands after the guard ...           */
	char **roles;            /* ... their names: Roles<>, else Order<>'s  */
	const struct def *roles_owner; /* where Roles<> is written (the optype
				    for names from Order<>): the constants
				    of the roles are OWNER_role */
	const char *roles_file;
	int roles_line;
	bool roles_from_order;   /* no Roles<>: Order<>'s names */
};

/* The flags of __Properties (doc/isa-dsl.md): the DSL's name, the C name
 * (ISA_F_<c>) and what it means. */
struct flagdef { const char *name, *c, *meaning; };
extern const struct flagdef isa_flags[];
extern const int isa_nflags;
/* index in isa_flags[] of the DSL's name, or -1 */
int flag_index(const char *name);

/* ---- util.c ------------------------------------------------------------ */

void err(gen *g, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xstrdup(const char *s);

#define GROW(arr, n, cap)                                                    \
	do {                                                                 \
		if ((n) >= (cap)) {                                          \
			(cap) = (cap) ? (cap) * 2 : 16;                      \
			(arr) = xrealloc((arr), sizeof(*(arr)) * (size_t)(cap)); \
		}                                                            \
	} while (0)

const char *skipws(const char *s);
bool is_ident_start(int c);
bool is_ident_char(int c);
/* Strip a trailing // comment not inside a string, and trailing blanks. */
void strip_comment(char *s);
bool parse_int(const char *s, int64_t *out);
/* "a, b, c" -> malloc'd items; -1 when more than max */
int split_list(const char *s, char **items, int max);
/* "Fn(a, b, ...)" -> fn and malloc'd args; the count or -1 */
int parse_call(const char *s, char *fn, size_t fnsz, char **args, int max);
int find_bft(gen *g, const char *name);
int find_def(gen *g, const char *name);
struct def *get_def(gen *g, const char *name);
int enum_index(const struct bft *b, const char *v);
int rf_find(const struct opc *o, const char *name);
/* a field name as a C identifier: '.' -> '_' (malloc'd) */
char *cname(const char *s);

/* ---- parse.c ----------------------------------------------------------- */

/* Parse the description at `path`; messages and tables name it `name`. */
void parse_file(gen *g, const char *path, const char *name);

/* ---- resolve.c --------------------------------------------------------- */

void apply_amends(gen *g);
/* Merge d's ancestors into o and check everything; false after errors. */
bool resolve_opcode(gen *g, struct def *d, struct opc *o);
void set_mnemonics(gen *g, struct opc *o);

/* The opcodes that take their operands' names from Order<> (no Roles<>)
 * name them alike within their optype. */
void check_roles(gen *g, const struct opc *ops, int nops);
/* The bit width a value of a sized enum names (the number its name ends
 * with: .64, .U64), or 0. */
int value_width(const char *v);
/* A role's name: lower case, digits and '_', a letter first. */
bool role_name_ok(const char *r);

/* ---- cexpr.c ----------------------------------------------------------- */

/* The __Exception condition e of o as a C expression over `in->field`
 * into out; false when it does not parse. */
bool exc_to_c(gen *g, const struct opc *o, const struct exc *e, char *out, size_t outsz);

/* ---- emit.c ------------------------------------------------------------ */

/* Write isa_gen.h, isa_gen.c and isa_ref.md into dir; files: the
 * descriptions named in the header comment. */
void emit(gen *g, struct opc *ops, int nops, const char *dir, int nfiles, char **files);

#endif
