/* isagen — reads ISA descriptions written in the seeds' DSL and generates
 * every table of warpemu: opcode enum and names, the decoded-instruction
 * struct, field tables for the encoder/decoder and the assembler /
 * disassembler, the per-optype dispatch list, the __Exception checks, and
 * the ISA reference page.
 *
 *   isagen -o OUTDIR file.isa...        writes isa_gen.h, isa_gen.c, isa_ref.md
 *   isagen --check file.isa...          parse and validate only
 *
 * Errors are printed as "file:line: error: message"; the exit status is 1
 * when any description is malformed.  The language is documented in
 * doc/isa-dsl.md; isagen.h names the steps and their files.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

/* The checks across opcodes and definitions, once every opcode resolved. */
static void check_all(gen *g, struct opc *ops, int nops, const char *first_file)
{
	for (int i = 0; i < nops; i++)
		for (int j = 0; j < i; j++)
			if (ops[i].optype_val == ops[j].optype_val && ops[i].stype_val == ops[j].stype_val)
				err(g, ops[i].d->file, ops[i].d->line,
				    "opcode '%s' has the same optype/stype as '%s' (%s:%d)",
				    ops[i].d->name, ops[j].d->name, ops[j].d->file, ops[j].d->line);
	for (int i = 0; i < g->ndef; i++)
		if (g->defs[i].kind == D_OPTYPE && !g->defs[i].used)
			err(g, g->defs[i].file, g->defs[i].line, "optype '%s' has no opcode", g->defs[i].name);
	int ot = find_bft(g, "Optype");
	if (ot >= 0)
		for (int v = 0; v < g->bfts[ot].nvalues; v++) {
			const char *n = g->bfts[ot].values[v];
			if (n && !get_def(g, n))
				err(g, g->bfts[ot].file, g->bfts[ot].line,
				    "Optype value '%s' names no __DefOptype", n);
		}
	if (nops == 0)
		err(g, first_file, 1, "no opcodes defined");
	check_roles(g, ops, nops);
}

/* Every __Exception condition translates to C. */
static void check_exceptions(gen *g, const struct opc *ops, int nops)
{
	for (int i = 0; !g->errors && i < nops; i++)
		for (int k = 0; k < ops[i].nexc; k++) {
			char cond[1024];
			if (!exc_to_c(g, &ops[i], ops[i].excs[k], cond, sizeof cond))
				err(g, ops[i].excs[k]->file, ops[i].excs[k]->line,
				    "cannot parse exception condition '%s'", ops[i].excs[k]->expr);
		}
}

int main(int argc, char **argv)
{
	gen g;
	memset(&g, 0, sizeof g);
	g.max_errors = 50;
	const char *outdir = NULL;
	const char *root = NULL;
	bool check_only = false;
	int first = 1;
	while (first < argc && argv[first][0] == '-') {
		if (!strcmp(argv[first], "-o") && first + 1 < argc) {
			outdir = argv[first + 1];
			first += 2;
		} else if (!strcmp(argv[first], "--root") && first + 1 < argc) {
			/* record file names relative to this directory */
			root = argv[first + 1];
			first += 2;
		} else if (!strcmp(argv[first], "--check")) {
			check_only = true;
			first++;
		} else {
			fprintf(stderr, "usage: isagen (-o OUTDIR | --check) FILE.isa...\n");
			return 2;
		}
	}
	if (first >= argc || (!outdir && !check_only)) {
		fprintf(stderr, "usage: isagen (-o OUTDIR | --check) FILE.isa...\n");
		return 2;
	}
	size_t rootlen = root ? strlen(root) : 0;
	for (int i = first; i < argc; i++) {
		const char *f = argv[i];
		if (root && !strncmp(f, root, rootlen) && f[rootlen] == '/')
			f += rootlen + 1;
		parse_file(&g, argv[i], f);
	}
	apply_amends(&g);
	struct opc *ops = xrealloc(NULL, sizeof(struct opc) * (size_t)(g.ndef + 1));
	int nops = 0;
	/* (every opcode, for all their errors at once) */
	for (int i = 0, parsed = !g.errors; parsed && i < g.ndef; i++) {
		if (g.defs[i].kind != D_OPCODE)
			continue;
		if (resolve_opcode(&g, &g.defs[i], &ops[nops])) {
			set_mnemonics(&g, &ops[nops]);
			nops++;
		}
	}
	if (!g.errors)
		check_all(&g, ops, nops, argv[first]);
	check_exceptions(&g, ops, nops);
	if (!g.errors && !check_only)
		emit(&g, ops, nops, outdir, argc - first, argv + first);
	if (g.errors) {
		if (g.errors > g.max_errors)
			fprintf(stderr, "isagen: %d more errors not shown\n", g.errors - g.max_errors);
		return 1;
	}
	return 0;
}
