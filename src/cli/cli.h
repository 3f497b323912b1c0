/* cli.h — what the files of the warpemu(1) command share: messages, exit
 * statuses and the commands' entry points.
 *
 * The command uses only the public API (warpemu/warpemu.h), the pure
 * parsers of args.h and the base layer's strbuf; it alone touches argv,
 * stdout, stderr and the exit status.  doc/warpemu.1 is its interface.
 *
 *   main.c      commands, help, exit status
 *   options.c   the option table: scanning, help, replay options
 *   run.c       run: options, set-up, the launch check, the launch
 *   buffers.c   kernel parameters and device buffers (made in chunks)
 *   results.c   summary, --out, --print, --expect, the JSON document
 *   stress.c    stress: seeded runs on jobs, verdicts, replay commands
 *   tools.c     asm, disasm, info
 *   io.c        host files: bounded reads, atomic writes, clobbering
 *   json.c      JSON text;   msg.c  messages;   intr.c  SIGINT/SIGTERM
 */
#ifndef WE_CLI_H
#define WE_CLI_H

#include <stdio.h>

#include "cli/args.h"
#include "cli/intr.h"

#define PROG "warpemu"

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* ---- msg.c -------------------------------------------------------------- */
/* "warpemu: MESSAGE" on stderr; returns code. */
int errorf(int code, const char *fmt, ...) CLI_PRINTF(2, 3);
/* "Try 'warpemu [cmd] --help' ..." on stderr. */
void try_help(const char *cmd);
int usage_err(const char *cmd, const char *msg);
int usage_errf(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Report a failed API call (we_last_error of dev, after "context: " when
 * context is not NULL) and map its status to an exit status. */
int api_err(const we_device *dev, we_status s);
int api_err_in(const we_device *dev, we_status s, const char *context);
int nomem(const char *what);
/* A later error replaces success or a failed check, not another error. */
int worse(int rc, int next);

/* ---- the commands (arguments after the command name) -------------------- */
int cmd_run(cli_intr *intr, int argc, char **argv);
int cmd_stress(cli_intr *intr, int argc, char **argv);
int cmd_asm(cli_intr *intr, int argc, char **argv);
int cmd_disasm(cli_intr *intr, int argc, char **argv);
int cmd_info(cli_intr *intr, int argc, char **argv);

/* main.c: the help of command cmd on stdout. */
void print_help(const char *cmd);
/* tools.c: the launch limits (warpemu.h), for info and the help. */
void print_launch_limits(FILE *f, const char *indent);

/* ---- run.c: devices and modules ------------------------------------------ */
int create_device(uint64_t max_memory, unsigned threads, we_device **dev);
/* Read path and load it (text or binary); with keep, hand its bytes over
 * in *keep. */
int load_module(we_device *dev, const char *path, const cli_intr *intr, we_module **mod,
		uint8_t **keep, size_t *keep_len);

#endif
