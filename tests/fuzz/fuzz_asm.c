/* fuzz_asm.c — libFuzzer harness: assembly text -> asm_assemble().
 *
 * Properties checked for every input:
 *  - the assembler returns WE_OK with a module or WE_ERR_ASM with
 *    diagnostics (WE_ERR_NOMEM only on out of memory), never both;
 *  - on success, dis_module() text re-assembles, to the same code words,
 *    kernels and constant banks, and disassembling that gives the same text
 *    again (a fixed point);
 *  - on success, the binary image (module_save) loads back to the same
 *    module;
 *  - on success, the executor's decode-once step accepts or rejects it with
 *    WE_ERR_LOAD and a message (what we_module_load_text does).
 * Crashes, leaks and sanitizer reports are bugs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "exec/exec.h"
#include "fuzz_util.h"
#include "asm/module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct we_module *m = NULL;
	char *diag = NULL;
	we_status st = asm_assemble((const char *)data, size, "fuzz.s", &m, &diag);
	FZ_CHECK(st == WE_OK || st == WE_ERR_ASM || st == WE_ERR_NOMEM, "status %d", (int)st);
	FZ_CHECK((st == WE_OK) == (m != NULL), "status %d with module %p", (int)st, (void *)m);
	if (st == WE_ERR_ASM)
		FZ_CHECK(diag && diag[0], "WE_ERR_ASM without diagnostics");
	free(diag);
	if (st != WE_OK)
		return 0;

	/* disassembly -> assembly: the same module, and a fixed point */
	char *text = dis_module(m);
	FZ_CHECK(text != NULL, "dis_module failed");
	struct we_module *m2 = NULL;
	diag = NULL;
	st = asm_assemble(text, strlen(text), "fuzz.s", &m2, &diag);
	FZ_CHECK(st == WE_OK, "the disassembly does not re-assemble:\n%s\n--- disassembly ---\n%s",
		 diag ? diag : "(no diagnostics)", text);
	free(diag);
	const char *d = fz_module_diff(m, m2);
	FZ_CHECK(d == NULL, "re-assembled disassembly differs: %s\n--- disassembly ---\n%s", d, text);
	char *text2 = dis_module(m2);
	FZ_CHECK(text2 != NULL, "dis_module failed");
	FZ_CHECK(!strcmp(text, text2), "disassembly is not a fixed point:\n--- first ---\n%s\n--- second ---\n%s",
		 text, text2);
	free(text2);
	free(text);
	module_free(m2);

	/* binary image round trip */
	void *img = NULL;
	size_t len = 0;
	st = module_save(m, &img, &len);
	FZ_CHECK(st == WE_OK, "module_save: status %d", (int)st);
	struct we_module *m3 = NULL;
	char err[512];
	st = module_load(img, len, &m3, err, sizeof err);
	FZ_CHECK(st == WE_OK, "the saved image does not load: %s", err);
	d = fz_module_diff(m, m3);
	FZ_CHECK(d == NULL, "loaded image differs: %s", d);
	FZ_CHECK(fz_streq(m->source, m3->source), "source name");
	for (uint32_t i = 0; i < m->ninsns; i++)
		FZ_CHECK(m->line[i] == m3->line[i], "line of instruction %u", i);
	module_free(m3);
	free(img);

	/* the executor's decode-once step */
	err[0] = 0;
	st = exec_prepare_module(m, err, sizeof err);
	FZ_CHECK(st == WE_OK || (st == WE_ERR_LOAD && err[0]), "exec_prepare_module: status %d (%s)",
		 (int)st, err);
	exec_free_module(m);
	module_free(m);
	return 0;
}
