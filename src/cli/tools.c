/* tools.c — warpemu asm, disasm and info. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/io.h"
#include "cli/options.h"

static int open_module(const char *file, const cli_intr *intr, we_device **dev, we_module **mod)
{
	int rc = create_device(0, 0, dev);

	return rc ? rc : load_module(*dev, file, intr, mod, NULL, NULL);
}

/* Scan a command's arguments; *done when there is nothing more to do
 * (help printed, or an error whose status is returned). */
static int scan(cli_opts *o, unsigned cmd, const char *name, int argc, char **argv, bool *done)
{
	int rc = opts_scan(o, cmd, name, argc, argv);

	*done = true;
	if (rc == CLI_EXIT_OK && o->value[OPT_HELP])
		print_help(cmd);
	else if (rc == CLI_EXIT_OK && !o->file && cmd != CLI_INFO)
		rc = usage_err(name, "missing FILE");
	else
		*done = rc != CLI_EXIT_OK;
	return rc;
}

/* ---- asm ------------------------------------------------------------------ */

static int assemble(const char *file, const char *output, const cli_intr *intr)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	void *image = NULL;
	size_t len = 0;
	we_status st;
	int rc = open_module(file, intr, &dev, &mod);

	if (rc == CLI_EXIT_OK) {
		st = we_module_save_binary(mod, &image, &len);
		rc = st == WE_OK ? write_file_atomic(output, image, len) : api_err(dev, st);
	}
	free(image);
	we_module_destroy(mod);
	we_device_destroy(dev);
	return rc;
}

int cmd_asm(cli_intr *intr, int argc, char **argv)
{
	cli_opts o;
	bool done;
	int rc = scan(&o, CLI_ASM, "asm", argc, argv, &done);

	if (!done && !o.value[OPT_OUTPUT]) {
		rc = usage_err("asm", "missing -o OUT");
	} else if (!done) {
		const file_use u[] = { { o.file, "FILE", o.file, false },
				       { o.value[OPT_OUTPUT], "-o", o.value[OPT_OUTPUT], true } };

		if ((rc = check_clobber("asm", u, 2)) == CLI_EXIT_OK)
			rc = assemble(o.file, o.value[OPT_OUTPUT], intr);
	}
	opts_free(&o);
	return rc;
}

/* ---- disasm ---------------------------------------------------------------- */

int cmd_disasm(cli_intr *intr, int argc, char **argv)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	char *text = NULL;
	we_status st;
	cli_opts o;
	bool done;
	int rc = scan(&o, CLI_DISASM, "disasm", argc, argv, &done);

	if (!done && (rc = open_module(o.file, intr, &dev, &mod)) == CLI_EXIT_OK) {
		st = we_module_disassemble(mod, &text);
		rc = st == WE_OK ? write_stdout(text, strlen(text)) : api_err(dev, st);
	}
	free(text);
	we_module_destroy(mod);
	we_device_destroy(dev);
	opts_free(&o);
	return rc;
}

/* ---- info ------------------------------------------------------------------ */

static void print_kernel(const we_kernel_info *k)
{
	printf("  kernel %s (dialect %s)\n", k->name, k->dialect ? k->dialect : "?");
	printf("    instructions %" PRIu32 ", registers %" PRIu32 ", shared %" PRIu32
	       " bytes, local %" PRIu32 " bytes/thread\n", k->ninsns, k->nregs, k->shared_bytes,
	       k->local_bytes);
	printf("    parameters (%" PRIu32 " bytes):", k->param_bytes);
	if (k->nparams == 0)
		printf(" none");
	for (unsigned i = 0; i < k->nparams; i++) {
		const we_param_info *p = &k->params[i];
		printf("%s %s %s", i ? "," : "", p->name, cli_param_type_name(p->type));
		if (p->type == WE_PARAM_BYTES)
			printf("[%" PRIu32 "]", p->size);
		printf(" @%" PRIu32, p->offset);
	}
	putchar('\n');
}

static int print_module(const char *file, const cli_intr *intr)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	int rc = open_module(file, intr, &dev, &mod);

	if (rc == CLI_EXIT_OK) {
		unsigned n = we_module_kernel_count(mod);

		printf("\nModule %s: %u kernel%s\n", display_name(file), n, n == 1 ? "" : "s");
		for (unsigned i = 0; i < n; i++)
			print_kernel(we_module_kernel(mod, i));
	}
	we_module_destroy(mod);
	we_device_destroy(dev);
	return rc;
}

/* The host topology and the threads a launch would start (*text,
 * malloc'd).  The library checks the block: outside its limits it is a
 * usage error, as for run. */
static int describe(we_engine eng, we_placement place, we_dim3 blk, char **text)
{
	we_device *dev = NULL;
	we_status st;
	int rc = create_device(0, 0, &dev);

	*text = NULL;
	if (rc == CLI_EXIT_OK && (st = we_device_describe(dev, eng, place, blk, text)) != WE_OK) {
		rc = api_err(dev, st);
		if (st == WE_ERR_LIMIT) {
			try_help("info");
			rc = CLI_EXIT_USAGE;
		}
	}
	we_device_destroy(dev);
	return rc;
}

static int info(const cli_opts *o, const cli_intr *intr)
{
	we_engine eng = WE_ENGINE_DEFAULT;
	we_placement place = WE_PLACE_DEFAULT;
	we_dim3 blk = { 32, 1, 1 };
	char *text;
	cli_err e;
	int rc;

	if (o->value[OPT_ENGINE] && !cli_parse_engine(o->value[OPT_ENGINE], &eng, &e))
		return usage_errf("info", "--engine: %s", e.msg);
	if (o->value[OPT_PLACEMENT] && !cli_parse_placement(o->value[OPT_PLACEMENT], &place, &e))
		return usage_errf("info", "--placement: %s", e.msg);
	if (o->value[OPT_BLOCK] && !cli_parse_dim3(o->value[OPT_BLOCK], &blk, &e))
		return usage_errf("info", "--block: %s", e.msg);
	if ((rc = describe(eng, place, blk, &text)) != CLI_EXIT_OK)
		return rc;
	printf(PROG " %s\n\nLaunch limits:\n", WE_VERSION_STRING);
	print_launch_limits(stdout, "  ");
	printf("Parameter types:  ");
	for (unsigned t = 0; t <= WE_PARAM_BYTES; t++)
		printf(" %s%s", we_param_type_name((we_param_type)t), t == WE_PARAM_BYTES ? "[N]" : "");
	putchar('\n');
	printf("Buffer types:      u8 s8 u16 s16 u32 s32 u64 s64 f32 f64\n");
	printf("Compiled tier:     %s\n", we_jit_available() ? "LLVM (--jit auto, on, off)" : "not built (no LLVM)");
	if (we_jit_available()) {
		char dir[4096];
		if (we_jit_cache_dir(NULL, dir, sizeof dir) != WE_OK || !dir[0])
			snprintf(dir, sizeof dir, "off");
		printf("Compiled kernels:  %s (--jit-cache)\n", dir);
	}
	printf("\nHost:\n");
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, "\n");

		printf("  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(text);
	return o->file ? print_module(o->file, intr) : CLI_EXIT_OK;
}

int cmd_info(cli_intr *intr, int argc, char **argv)
{
	cli_opts o;
	bool done;
	int rc = scan(&o, CLI_INFO, "info", argc, argv, &done);

	if (!done)
		rc = info(&o, intr);
	opts_free(&o);
	return rc;
}
