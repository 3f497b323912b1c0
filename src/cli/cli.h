/* cli.h — what the files of the warpemu(1) command share: messages, exit
 * statuses and the commands' entry points.
 *
 * The command uses only the public API (warpemu/warpemu.h), the pure
 * parsers of args.h and the base layer's strbuf; it alone touches argv,
 * stdout, stderr and the exit status.  doc/warpemu.1 is its interface.
 *
 * From the top (each file uses only those below it):
 *   main.c      the commands and the exit status
 *   stress.c    stress: seeded runs on jobs, verdicts, replay commands
 *   run.c       run: options, set-up, the launch check, the launch
 *   results.c   summary, --out, --print, --expect, the JSON document
 *   buffers.c   kernel parameters and device buffers (made in chunks)
 *   tools.c     asm, disasm, info
 *   help.c      every command's help;  load.c  devices and modules
 *   options.c   the option table: scanning, help, replay options
 *   io.c        host files: bounded reads, atomic writes, clobbering
 *   json.c      JSON text;  msg.c  messages;  intr.c  SIGINT/SIGTERM;
 *   args.c      the pure parsers of argument values
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
struct cli_dist;
int cmd_run(cli_intr *intr, struct cli_dist *dist, int argc, char **argv);
int cmd_stress(cli_intr *intr, struct cli_dist *dist, int argc, char **argv);
int cmd_asm(cli_intr *intr, int argc, char **argv);
int cmd_disasm(cli_intr *intr, int argc, char **argv);
int cmd_info(cli_intr *intr, int argc, char **argv);

/* Small helpers of msg.c: calloc of at least one element; the length of
 * text's first line; a status that is a verdict on the kernel
 * (exception, deadlock, timeout). */
void *calloc_n(size_t n, size_t size);
int first_line(const char *text);
bool is_verdict(we_status st);

/* ---- help.c --------------------------------------------------------------- */
void print_main_help(void);
/* The help of the command cmd (CLI_RUN, ... of options.h) on stdout. */
void print_help(unsigned cmd);
/* The launch limits (warpemu.h), for info and the help. */
void print_launch_limits(FILE *f, const char *indent);

/* ---- load.c: devices and modules -------------------------------------------- */
int create_device(uint64_t max_memory, unsigned threads, we_device **dev);
/* Load a module from bytes (text or binary); path names it. */
we_status load_module_data(we_device *dev, const uint8_t *data, size_t len, const char *path,
			   we_module **mod);
/* Read path (bounded, io.h) and load it; with keep, hand its bytes over
 * in *keep.  0 or an exit status (printed). */
int load_module(we_device *dev, const char *path, const cli_intr *intr, we_module **mod,
		uint8_t **keep, size_t *keep_len);

#endif
