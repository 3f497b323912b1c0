/* fuzz_module.c — libFuzzer harness: bytes -> module_load(), the binary
 * module loader (what `warpemu run FILE.bin` and we_module_load_binary()
 * use).
 *
 * Properties checked for every input:
 *  - module_load returns WE_OK with a module, or WE_ERR_LOAD (WE_ERR_NOMEM
 *    on out of memory) with a message and no module;
 *  - on success, module_save gives an image that loads again, and saving
 *    that gives the same bytes (save/load is idempotent); the two modules
 *    are the same;
 *  - on success, the executor's decode-once step accepts it or rejects it
 *    with WE_ERR_LOAD and a message;
 *  - on success, dis_module() text re-assembles to the same module when the
 *    module is one the assembler could have written (kernel and parameter
 *    names are identifiers, kernel code ranges are consecutive and cover
 *     the code, parameters in declaration order, naturally aligned, and
 *    nothing after the last, no opcode of another dialect, at least one
 *    kernel) — dis_module's promise in asm.h.  The loader
 *    accepts other layouts, which dis_module cannot express.
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

/* could the assembler have produced m?  (what dis_module can express) */
static bool expressible(const struct we_module *m)
{
	/* dis_module prints the source name in a // comment as it is: a line
	 * break in it ends the comment (reported; not checked here) */
	for (const char *s = m->source; s && *s; s++)
		if (*s == '\n' || *s == '\r')
			return false;
	/* the assembler makes a kernel "main" of a file without .kernel */
	if (!m->nkernels)
		return false;
	uint32_t pc = 0;
	for (uint32_t k = 0; k < m->nkernels; k++) {
		const we_kernel *x = &m->kernels[k];
		if (!asm_is_ident(x->name) || x->code_start != pc)
			return false;
		pc = x->code_end;
		/* the assembler's layout: declaration order, natural alignment */
		uint32_t end = 0;
		for (unsigned p = 0; p < x->info.nparams; p++) {
			uint32_t size = x->params[p].size;
			if (!asm_is_ident(x->param_names[p]) || x->params[p].offset != (end + size - 1) / size * size)
				return false;
			end = x->params[p].offset + size;
		}
		if (x->info.param_bytes != end)
			return false;
		/* the assembler refuses an opcode of another dialect */
		for (uint32_t i = x->code_start / WE_INST_SIZE; i < x->code_end / WE_INST_SIZE; i++) {
			const char *dl = isa_opcodes[m->insn[i].opcode].dialect;
			if (dl && strcmp(dl, module_dialect_name(x->dialect)))
				return false;
		}
	}
	return pc == m->ninsns * WE_INST_SIZE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct we_module *m = NULL;
	char err[512];
	err[0] = 0;
	we_status st = module_load(data, size, &m, err, sizeof err);
	FZ_CHECK(st == WE_OK || st == WE_ERR_LOAD || st == WE_ERR_NOMEM, "status %d", (int)st);
	FZ_CHECK((st == WE_OK) == (m != NULL), "status %d with module %p", (int)st, (void *)m);
	if (st != WE_OK) {
		FZ_CHECK(err[0], "status %d without a message", (int)st);
		return 0;
	}

	/* save -> load -> save: the same bytes */
	void *img = NULL, *img2 = NULL;
	size_t len = 0, len2 = 0;
	st = module_save(m, &img, &len);
	FZ_CHECK(st == WE_OK, "module_save of a loaded module: status %d", (int)st);
	struct we_module *m2 = NULL;
	st = module_load(img, len, &m2, err, sizeof err);
	FZ_CHECK(st == WE_OK, "the saved image does not load: %s", err);
	const char *d = fz_module_diff(m, m2);
	FZ_CHECK(d == NULL, "the reloaded module differs: %s", d);
	FZ_CHECK(fz_streq(m->source, m2->source), "source name");
	st = module_save(m2, &img2, &len2);
	FZ_CHECK(st == WE_OK, "second module_save: status %d", (int)st);
	FZ_CHECK(len == len2 && !memcmp(img, img2, len), "save/load/save is not idempotent (%zu vs %zu bytes)",
		 len, len2);
	free(img);
	free(img2);
	module_free(m2);

	/* the disassembly re-assembles to the same module */
	char *text = dis_module(m);
	FZ_CHECK(text != NULL, "dis_module failed");
	if (expressible(m)) {
		struct we_module *m3 = NULL;
		char *diag = NULL;
		st = asm_assemble(text, strlen(text), "dis.s", &m3, &diag);
		FZ_CHECK(st == WE_OK, "the disassembly does not re-assemble:\n%s\n--- disassembly ---\n%s",
			 diag ? diag : "(no diagnostics)", text);
		d = fz_module_diff(m, m3);
		FZ_CHECK(d == NULL, "re-assembled disassembly differs: %s\n--- disassembly ---\n%s", d, text);
		free(diag);
		module_free(m3);
	}
	free(text);

	/* the executor's decode-once step (the rest of we_module_load_binary) */
	err[0] = 0;
	st = exec_prepare_module(m, err, sizeof err);
	FZ_CHECK(st == WE_OK || (st == WE_ERR_LOAD && err[0]), "exec_prepare_module: status %d (%s)",
		 (int)st, err);
	exec_free_module(m);
	module_free(m);
	return 0;
}
