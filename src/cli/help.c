/* help.c — every command's help: its usage and description here, its
 * options from the option table (options.h), the launch limits from
 * warpemu.h.
 */
#include <stdio.h>

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
"Scalar VALUE (u32, s32, f32, u64, f64): decimal, 0x hex, negative for s32,\n"
"floating syntax for f32 and f64.  Pointer parameters take a buffer SPEC:\n"
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

/* The help of each command, by its bit in the option table. */
static const struct {
	unsigned cmd;
	const char *usage, *notes, *status;
	bool limits;             /* the help lists the launch limits */
} helps[] = {
	{ CLI_RUN, run_usage, run_notes, run_status, true },
	{ CLI_STRESS, stress_usage, NULL, stress_status, true },
	{ CLI_ASM, asm_usage, NULL, NULL, false },
	{ CLI_DISASM, disasm_usage, NULL, NULL, false },
	{ CLI_INFO, info_usage, NULL, NULL, false },
};

void print_main_help(void)
{
	fputs(help_main, stdout);
}

void print_launch_limits(FILE *f, const char *indent)
{
	fprintf(f, "%sgrid             x 1..%u, y 1..%u, z 1..%u CTAs\n", indent, WE_GRID_X_MAX,
		WE_GRID_YZ_MAX, WE_GRID_YZ_MAX);
	fprintf(f, "%sblock            x 1..%u, y 1..%u, z 1..%u, at most %u threads\n", indent,
		WE_BLOCK_XY_MAX, WE_BLOCK_XY_MAX, WE_BLOCK_Z_MAX, WE_BLOCK_THREADS_MAX);
	fprintf(f, "%sshared memory    at most %u bytes per CTA, static + --shared\n", indent,
		WE_SHARED_MAX);
	fprintf(f, "%slocal memory     at most %u bytes per thread\n", indent, WE_LOCAL_MAX);
	fprintf(f, "%s--lockstep       at most %u warps; --batch at most %u CTAs\n", indent,
		WE_LOCKSTEP_MAX, WE_BATCH_MAX);
}

void print_help(unsigned cmd)
{
	for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
		if (helps[i].cmd != cmd)
			continue;
		printf("%s\n", helps[i].usage);
		opts_help(stdout, cmd);
		if (helps[i].notes)
			fputs(helps[i].notes, stdout);
		if (helps[i].limits) {
			printf("\nLaunch limits (the library's; also 'warpemu info'):\n");
			print_launch_limits(stdout, "  ");
		}
		if (helps[i].status)
			fputs(helps[i].status, stdout);
	}
}
