/* asm.h — assembler, disassembler (internal API).
 *
 * The assembler and the disassembler are driven entirely by the generated
 * ISA tables (isa_opcodes[], isa_enums[]): mnemonics, modifiers, operand
 * order, field kinds, defaults, Bitwidth<> and AsmFormat<> all come from
 * the descriptions in src/isa/\*.isa.  Nothing here knows an instruction.
 *
 * Assembly syntax (described in full at the top of asm.c):
 *   {@{!}Pg} MNEMONIC{.MOD...} operand{,} ... {;}
 *   label:   .kernel NAME ... .end   .param TYPE NAME   .shared N
 *   .local N   .dialect NAME   .trap_handler LABEL   .const BANK   .text
 *   .byte/.short/.word/.dword/.quad/.float/.zero/.align   .section ...
 */
#ifndef WE_ASM_H
#define WE_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm/module.h"

/* Assemble text[0..len) (may contain NULs; need not be NUL-terminated).
 * filename names the source in messages (NULL: "<input>").
 * On success returns WE_OK and *out; *diag is NULL or malloc'd warnings.
 * On failure returns WE_ERR_ASM (or WE_ERR_NOMEM / WE_ERR_INVALID), *out
 * is NULL and *diag (malloc'd, may be NULL on out of memory) holds every
 * error (at most 50, then "N more errors"), gcc style:
 *   file:line:col: error: message
 *    <source line>
 *    <caret line>                                                        */
we_status asm_assemble(const char *text, size_t len, const char *filename,
		       struct we_module **out, char **diag);

/* Text of one instruction (no trailing ';'), as at address pc (PC-relative
 * operands are printed as absolute targets).  Writes at most n bytes
 * including the NUL; returns the length of the whole text (like snprintf). */
int dis_insn(const we_insn *in, uint64_t pc, char *buf, size_t n);

/* The text of the instruction at pc of module m, as dis_insn, or
 * "<no instruction>" where m has none. */
void dis_at(const struct we_module *m, uint64_t pc, char *buf, size_t n);

/* The whole module as text that re-assembles to the same module (code,
 * kernels, parameters, sizes, dialects, constant banks).  malloc'd; NULL
 * on out of memory. */
char *dis_module(const struct we_module *m);

/* ---- shared between asm.c and disasm.c -------------------------------- */

/* Assemble a single instruction statement at address pc, without labels.
 * Returns true and *w, or false with a message in err. */
bool asm_one(const char *text, size_t len, uint64_t pc, we_word *w,
	     char *err, size_t errlen);

/* The spelling of an opcode's mnemonic the assembler accepts and the
 * disassembler prints (mnemonic, or alt_mnemonic when the canonical one is
 * not a plain dotted word). */
const char *asm_mnemonic(const isa_opcode *o);
/* True when name is a plain dotted word: [A-Za-z0-9_.]+ */
bool asm_plain_word(const char *name);

/* Parse a float literal: optional sign, then decimal digits with optional
 * fraction/exponent, or inf / nan.  Returns true and the binary32 bits. */
bool asm_parse_float(const char *s, size_t n, uint32_t *bits);

/* True when s is one identifier token of the assembler (kernel, parameter
 * and label names): [A-Za-z_.][A-Za-z0-9_.$]*, not '.' and a digit. */
bool asm_is_ident(const char *s);

#endif
