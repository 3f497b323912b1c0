/* ptx.c — the PTX front end's entry points (ptx.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "ptx/ptx.h"
#include "ptx/ptx_int.h"

bool ptx_is_ptx(const char *text, size_t len, const char *filename)
{
	if (filename) {
		size_t n = strlen(filename);
		if (n >= 4 && !strcmp(filename + n - 4, ".ptx"))
			return true;
	}
	size_t i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)text[i];
		if (isspace(c)) {
			i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			i += 2;
			while (i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'))
				i++;
			i += 2;
		} else {
			break;
		}
	}
	static const char *const dirs[] = { ".version", ".target" };
	for (size_t k = 0; k < 2; k++) {
		size_t n = strlen(dirs[k]);
		if (i + n < len && !memcmp(text + i, dirs[k], n) && isspace((unsigned char)text[i + n]))
			return true;
	}
	return false;
}

we_status ptx_translate(const char *text, size_t len, const char *filename, char **out, char **diag)
{
	*out = NULL;
	*diag = NULL;
	ptx_diags g = { .fname = filename ? filename : "<input>", .src = text ? text : "", .len = len };
	ptx_module m;
	strbuf b = { 0 };
	bool ok = ptx_parse(g.src, len, &m, &g) && ptx_lower(&m, &g, &b);
	ptx_module_free(&m);
	if (g.oom || b.oom) {
		ptx_diags_free(&g);
		free(b.s);
		return WE_ERR_NOMEM;
	}
	if (!ok) {
		if (!g.n)
			ptx_err(&g, 0, 0, "the PTX module could not be lowered");
		*diag = ptx_format_diags(&g);
		ptx_diags_free(&g);
		free(b.s);
		return *diag ? WE_ERR_ASM : WE_ERR_NOMEM;
	}
	ptx_diags_free(&g);
	*out = sb_take(&b);
	return *out ? WE_OK : WE_ERR_NOMEM;
}

we_status ptx_load(const char *text, size_t len, const char *filename, struct we_module **out, char **diag)
{
	*out = NULL;
	*diag = NULL;
	char *we = NULL;
	we_status st = ptx_translate(text, len, filename, &we, diag);
	if (st != WE_OK)
		return st;
	char *adiag = NULL;
	st = asm_assemble(we, strlen(we), filename ? filename : "<input>", out, &adiag);
	if (st == WE_ERR_ASM) {
		/* the lowering made text the assembler refuses: our bug, shown
		 * with the lowered text's messages */
		strbuf b = { 0 };
		sb_printf(&b, "%s: internal error: the lowered PTX does not assemble:\n%s",
			  filename ? filename : "<input>", adiag ? adiag : "");
		*diag = sb_take(&b);
		st = WE_ERR_INTERNAL;
	}
	free(adiag);
	free(we);
	return st;
}
