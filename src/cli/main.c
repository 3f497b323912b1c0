/* main.c — warpemu(1): the commands, their help and the exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

static const char help_main[] =
"Usage: warpemu COMMAND [ARGS...]\n"
"       warpemu --help | --version\n"
"\n"
"Functional emulator for a SASS-like GPU instruction set.\n"
"\n"
"Commands:\n"
"  run FILE [OPTIONS]  load FILE and run one of its kernels\n"
"  stress FILE --runs N [OPTIONS]\n"
"                      rerun one launch under N seeded schedules and report\n"
"                      the runs that deadlock, fault, time out or differ\n"
"  asm FILE -o OUT     assemble FILE into a binary module\n"
"  disasm FILE         disassemble a text or binary module\n"
"  info [FILE]         print version, launch limits, host topology and thread\n"
"                      placement; with FILE, also its kernels\n"
"  help [COMMAND]      print help for COMMAND\n"
"\n"
"FILE is assembly text or a binary module (it starts with \"WEMODULE\");\n"
"'-' reads standard input.\n"
"\n"
"Exit status:\n"
"   0  success\n"
"   1  a --expect check failed\n"
"   2  usage error\n"
"   3  assembly or load error\n"
"   4  runtime exception in the kernel\n"
"   5  deadlock\n"
"   6  I/O error\n"
"   7  watchdog or limit exceeded (instruction budget, launch limit, memory)\n"
"  70  internal error\n"
" 130  interrupted by SIGINT (143: by SIGTERM)\n"
"\n"
"Run 'warpemu COMMAND --help' for the options of a command; see warpemu(1).\n";

static const char run_usage[] =
"Usage: warpemu run FILE --grid X[,Y,Z] --block X[,Y,Z] [OPTIONS]\n"
"\n"
"Load FILE (assembly text or binary module, '-' = stdin), bind the kernel's\n"
"parameters, launch it and report.\n";

static const char run_notes[] =
"\n"
"Scalar VALUE (u32, s32, f32, u64): decimal, 0x hex, negative for s32,\n"
"floating syntax for f32.  Pointer parameters take a buffer SPEC:\n"
"  @FILE                             raw bytes of FILE ('@-' = stdin)\n"
"  zeros:BYTES                       BYTES zero bytes\n"
"  fill:TYPE:COUNT:VALUE             COUNT copies of VALUE\n"
"  iota:TYPE:COUNT[:START[:STEP]]    START, START+STEP, ... (0 and 1)\n"
"  random:TYPE:COUNT[:SEED]          deterministic; floats in [0,1)\n"
"TYPE is u8 s8 u16 s16 u32 s32 u64 s64 f32 or f64.  BYTES and sizes may end\n"
"in K, M or G (powers of 1024).\n";

static const char run_status[] =
"\n"
"Exit status: 0 ok, 1 check failed, 2 usage, 3 assembly/load, 4 exception,\n"
"5 deadlock, 6 I/O, 7 watchdog/limit/memory, 70 internal error, 130 SIGINT,\n"
"143 SIGTERM.\n";

static const char stress_usage[] =
"Usage: warpemu stress FILE --grid X[,Y,Z] --block X[,Y,Z] --runs N\n"
"                      [--seed S] [--jobs J] [RUN OPTIONS]\n"
"\n"
"Rerun one launch under N seeded schedules, seeds S, S+1, ..., S+N-1, each\n"
"on a fresh device with fresh buffers, J runs at a time, and classify every\n"
"run: ok, differs (a buffer differs from the first ok run's, or an --expect\n"
"check fails), deadlock, exception or timeout.  Print a summary with the\n"
"seed of every failing run and a command that replays each one listed.\n";

static const char stress_status[] =
"\n"
"Exit status: the most severe class found: 4 exception, then 5 deadlock,\n"
"7 timeout, 1 differs; 0 when every run is ok; 2 usage error.\n";

static const char asm_usage[] =
"Usage: warpemu asm FILE -o OUT\n"
"\n"
"Assemble FILE ('-' = stdin) and write the binary module to OUT, atomically\n"
"('-o -' writes to stdout).\n";

static const char disasm_usage[] =
"Usage: warpemu disasm FILE\n"
"\n"
"Disassemble FILE (assembly text or binary module, '-' = stdin) to stdout.\n";

static const char info_usage[] =
"Usage: warpemu info [FILE] [--engine E] [--placement P] [--block X[,Y,Z]]\n"
"\n"
"Print the emulator version, the launch limits, the host topology and the\n"
"host threads a launch would start with the given engine, placement and\n"
"block (default 32 threads), with the PU each is bound to.  With FILE, also\n"
"list its kernels with their parameters and resource use.\n";

typedef struct command {
	const char *name;
	int (*fn)(cli_intr *intr, int argc, char **argv);
	unsigned bit;            /* its options in the table */
	const char *usage, *notes, *status;
	bool limits;             /* the help lists the launch limits */
} command;

static const command commands[] = {
	{ "run", cmd_run, CLI_RUN, run_usage, run_notes, run_status, true },
	{ "stress", cmd_stress, CLI_STRESS, stress_usage, NULL, stress_status, true },
	{ "asm", cmd_asm, CLI_ASM, asm_usage, NULL, NULL, false },
	{ "disasm", cmd_disasm, CLI_DISASM, disasm_usage, NULL, NULL, false },
	{ "info", cmd_info, CLI_INFO, info_usage, NULL, NULL, false },
};

static const command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

void print_help(const char *name)
{
	const command *c = find_command(name);

	if (!c)
		return;
	printf("%s\n", c->usage);
	opts_help(stdout, c->bit);
	if (c->notes)
		fputs(c->notes, stdout);
	if (c->limits) {
		printf("\nLaunch limits (the library's; also 'warpemu info'):\n");
		print_launch_limits(stdout, "  ");
	}
	if (c->status)
		fputs(c->status, stdout);
}

static int unknown_command(const char *name)
{
	errorf(CLI_EXIT_USAGE, "unknown command '%.60s'", name);
	try_help(NULL);
	return CLI_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	if (argc == 0) {
		fputs(help_main, stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 1)
		return usage_err(NULL, "help takes at most one COMMAND");
	if (!find_command(argv[0]))
		return unknown_command(argv[0]);
	print_help(argv[0]);
	return CLI_EXIT_OK;
}

static int dispatch(cli_intr *intr, int argc, char **argv)
{
	const char *name;
	const command *c;

	if (argc < 2)
		return usage_err(NULL, "missing COMMAND");
	name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0)
		return cmd_help(argc - 2, argv + 2);
	if (strcmp(name, "--version") == 0) {
		printf(PROG " %s\n", WE_VERSION_STRING);
		return CLI_EXIT_OK;
	}
	c = find_command(name);
	return c ? c->fn(intr, argc - 2, argv + 2) : unknown_command(name);
}

int main(int argc, char **argv)
{
	cli_intr *intr = cli_intr_start();
	int rc = dispatch(intr, argc, argv);

	/* an interruption is reported as such, whatever stopped with it */
	if (cli_intr_fired(intr)) {
		int sig = cli_intr_signal(intr);

		rc = sig ? 128 + sig : CLI_EXIT_INTERRUPTED;
		errorf(rc, "interrupted by %s: stopped cleanly (exit status %d)",
		       sig == SIGTERM ? "SIGTERM" : "SIGINT", rc);
	}
	cli_intr_stop(intr);
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errorf(CLI_EXIT_IO, "cannot write to stdout: %s", strerror(errno ? errno : EIO));
		rc = worse(rc, CLI_EXIT_IO);
	}
	return rc;
}
