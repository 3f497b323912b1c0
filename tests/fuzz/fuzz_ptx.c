/* fuzz_ptx.c — libFuzzer harness: PTX text -> the PTX front end.
 *
 * Properties checked for every input:
 *  - ptx_translate returns WE_OK with assembly text or WE_ERR_ASM with
 *    diagnostics (WE_ERR_NOMEM only on out of memory), never both;
 *  - on success the text assembles (a lowering the assembler refuses is
 *    a front-end bug: ptx_load's WE_ERR_INTERNAL), and the executor's
 *    decode-once step accepts the module;
 *  - every diagnostic names the input (fuzz.ptx).
 * Crashes, leaks, hangs and sanitizer reports are bugs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asm/module.h"
#include "exec/exec.h"
#include "fuzz_util.h"
#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = NULL, *diag = NULL;
	we_status st = ptx_translate((const char *)data, size, "fuzz.ptx", &text, &diag);
	FZ_CHECK(st == WE_OK || st == WE_ERR_ASM || st == WE_ERR_NOMEM, "status %d", (int)st);
	FZ_CHECK((st == WE_OK) == (text != NULL), "status %d with text %p", (int)st, (void *)text);
	if (st == WE_ERR_ASM)
		FZ_CHECK(diag && strstr(diag, "fuzz.ptx"), "WE_ERR_ASM without diagnostics naming the input");
	free(diag);
	free(text);
	if (st != WE_OK)
		return 0;
	struct we_module *m = NULL;
	diag = NULL;
	st = ptx_load((const char *)data, size, "fuzz.ptx", &m, &diag);
	FZ_CHECK(st == WE_OK || st == WE_ERR_NOMEM, "the lowered PTX does not assemble: %s", diag ? diag : "");
	free(diag);
	if (st == WE_OK) {
		char err[512];
		we_status ps = exec_prepare_module(m, err, sizeof err);
		FZ_CHECK(ps == WE_OK || ps == WE_ERR_NOMEM, "the executor refuses the lowered PTX: %s", err);
		exec_free_module(m);
		module_free(m);
	}
	return 0;
}
