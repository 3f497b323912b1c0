/* fuzz_util.h — helpers shared by the libFuzzer harnesses in tests/fuzz.
 *
 * Every harness is one C11 file with LLVMFuzzerTestOneInput(); they are
 * built with clang -fsanitize=fuzzer,address,undefined against the library
 * sources by tests/fuzz/fuzz.sh (`make fuzz`, `make fuzz-ci`).  A property
 * that does not hold is reported with FZ_CHECK: a message on stderr, then
 * abort(), which libFuzzer records as a crash with the input that caused it.
 */
#ifndef WE_FUZZ_UTIL_H
#define WE_FUZZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/module.h"

#define FZ_CHECK(cond, ...)                                                   \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "fuzz property failed: %s (%s:%d): ", #cond, \
				__FILE__, __LINE__);                          \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			abort();                                              \
		}                                                             \
	} while (0)

static inline bool fz_same_word(const we_word *a, const we_word *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

static inline bool fz_streq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Compare what a module means: code words, kernels (name, range, sizes,
 * dialect, trap handler, parameters) and constant banks.  Not the source
 * name and line table, which a disassembly does not carry.  Returns NULL
 * when equal, else what differs (static text). */
static inline const char *fz_module_diff(const struct we_module *a, const struct we_module *b)
{
	static char why[256];
	if (a->ninsns != b->ninsns) {
		snprintf(why, sizeof why, "%u vs %u instructions", a->ninsns, b->ninsns);
		return why;
	}
	for (uint32_t i = 0; i < a->ninsns; i++)
		if (!fz_same_word(&a->code[i], &b->code[i])) {
			snprintf(why, sizeof why, "instruction %u: %016llx%016llx vs %016llx%016llx", i,
				 (unsigned long long)a->code[i].hi, (unsigned long long)a->code[i].lo,
				 (unsigned long long)b->code[i].hi, (unsigned long long)b->code[i].lo);
			return why;
		}
	if (a->nkernels != b->nkernels)
		return "kernel count";
	for (uint32_t k = 0; k < a->nkernels; k++) {
		const we_kernel *x = &a->kernels[k], *y = &b->kernels[k];
		if (!fz_streq(x->name, y->name))
			return "kernel name";
		if (x->code_start != y->code_start || x->code_end != y->code_end)
			return "kernel code range";
		if (x->shared_bytes != y->shared_bytes || x->local_bytes != y->local_bytes)
			return "kernel memory sizes";
		if (x->dialect != y->dialect)
			return "kernel dialect";
		if (x->trap_handler != y->trap_handler)
			return "kernel trap handler";
		if (x->info.nparams != y->info.nparams || x->info.param_bytes != y->info.param_bytes)
			return "kernel parameter count or size";
		for (unsigned p = 0; p < x->info.nparams && p < WE_MAX_PARAMS; p++)
			if (!fz_streq(x->param_names[p], y->param_names[p]) ||
			    x->params[p].type != y->params[p].type ||
			    x->params[p].offset != y->params[p].offset ||
			    x->params[p].size != y->params[p].size)
				return "kernel parameter";
	}
	for (unsigned bk = 0; bk < WE_NUM_CBANKS; bk++) {
		if (a->cbank[bk].size != b->cbank[bk].size) {
			snprintf(why, sizeof why, "constant bank %u size %u vs %u", bk, a->cbank[bk].size,
				 b->cbank[bk].size);
			return why;
		}
		if (a->cbank[bk].size && memcmp(a->cbank[bk].data, b->cbank[bk].data, a->cbank[bk].size))
			return "constant bank data";
	}
	return NULL;
}

#endif
