/* main.c — warpemu(1): the commands and the exit status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dist.h"
#include "cli/options.h"

typedef struct command {
	const char *name;
	int (*fn)(cli_intr *intr, int argc, char **argv);
	/* a command that divides its work among the ranks of mpirun */
	int (*dist_fn)(cli_intr *intr, cli_dist *dist, int argc, char **argv);
	unsigned bit;            /* its options in the table, its help */
} command;

static const command commands[] = {
	{ "run", NULL, cmd_run, CLI_RUN },
	{ "stress", NULL, cmd_stress, CLI_STRESS },
	{ "asm", cmd_asm, NULL, CLI_ASM },
	{ "disasm", cmd_disasm, NULL, CLI_DISASM },
	{ "info", cmd_info, NULL, CLI_INFO },
};

static const command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	errorf(CLI_EXIT_USAGE, "unknown command '%.60s'", name);
	try_help(NULL);
	return CLI_EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const command *c;

	if (argc == 0) {
		print_main_help();
		return CLI_EXIT_OK;
	}
	if (argc > 1)
		return usage_err(NULL, "help takes at most one COMMAND");
	if (!(c = find_command(argv[0])))
		return unknown_command(argv[0]);
	print_help(c->bit);
	return CLI_EXIT_OK;
}

static int dispatch(cli_intr *intr, cli_dist *dist, int argc, char **argv)
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
	if (!c)
		return unknown_command(name);
	return c->dist_fn ? c->dist_fn(intr, dist, argc - 2, argv + 2) : c->fn(intr, argc - 2, argv + 2);
}

int main(int argc, char **argv)
{
	cli_dist dist;
	cli_dist_start(&dist, &argc, &argv);
	cli_intr *intr = cli_intr_start();
	int rc = dispatch(intr, &dist, argc, argv);

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
	cli_dist_stop(&dist);
	return rc;
}
