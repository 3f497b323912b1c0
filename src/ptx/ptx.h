/* ptx.h — the PTX front end (internal API; doc/ptx.md).
 *
 * PTX text is parsed (parse.c), lowered to the target ISA in virtual
 * registers (lower*.c), given reconvergence points (reconv.c) and
 * registers (ralloc.c), printed as assembly text in the .we syntax and
 * assembled by the existing assembler.  Each instruction keeps the PTX
 * line it came from (`.loc`), and the module's source is the PTX file,
 * so reports, traces and --check lines name the PTX line.
 */
#ifndef WE_PTX_H
#define WE_PTX_H

#include <stdbool.h>
#include <stddef.h>

#include "asm/module.h"
#include "warpemu/warpemu.h"

/* .global variables of a PTX module (doc/ptx.md "Variables"): their
 * initial image in constant bank 4, each one's offset in the image in
 * bank 6 (8 bytes each); loading the module onto a device copies the
 * image into device memory and writes each one's device address into
 * bank 5 (api.c), which the lowered code reads. */
#define PTX_GLOBAL_IMAGE_BANK 4u
#define PTX_GLOBAL_ADDR_BANK 5u
#define PTX_GLOBAL_OFF_BANK 6u

/* True when text is PTX: its first directive is .version or .target
 * (after comments and blank lines), or the file name ends in .ptx. */
bool ptx_is_ptx(const char *text, size_t len, const char *filename);

/* PTX to assembly text.  WE_OK and *out (malloc'd); else WE_ERR_ASM with
 * *diag (malloc'd, gcc style: file:line:col: error: ...) — a parse error,
 * or "'INSTRUCTION' not supported" — or WE_ERR_NOMEM. */
we_status ptx_translate(const char *text, size_t len, const char *filename, char **out, char **diag);

/* PTX to a module (ptx_translate, then the assembler). */
we_status ptx_load(const char *text, size_t len, const char *filename, struct we_module **out,
		   char **diag);

#endif
