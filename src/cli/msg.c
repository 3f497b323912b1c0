/* msg.c — diagnostics on stderr and exit statuses (see cli.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int errorf(int code, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void try_help(const char *cmd)
{
	fprintf(stderr, "Try '" PROG "%s%s --help' for more information.\n",
		cmd ? " " : "", cmd ? cmd : "");
}

int usage_err(const char *cmd, const char *msg)
{
	errorf(CLI_EXIT_USAGE, "%s", msg);
	try_help(cmd);
	return CLI_EXIT_USAGE;
}

int usage_errf(const char *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return usage_err(cmd, msg);
}

int api_err_in(const we_device *dev, we_status s, const char *context)
{
	const char *msg = dev ? we_last_error(dev) : "";
	size_t n = strlen(msg);

	fprintf(stderr, PROG ": %s%s", context ? context : "", context ? ": " : "");
	if (n == 0)
		fprintf(stderr, "%s\n", we_status_name(s));
	else
		fprintf(stderr, "%s%s", msg, msg[n - 1] == '\n' ? "" : "\n");
	return cli_exit_for_status(s);
}

int api_err(const we_device *dev, we_status s)
{
	return api_err_in(dev, s, NULL);
}

int nomem(const char *what)
{
	return errorf(CLI_EXIT_LIMIT, "out of host memory (%s)", what);
}

int worse(int rc, int next)
{
	return rc == CLI_EXIT_OK || rc == CLI_EXIT_CHECK ? (next ? next : rc) : rc;
}

void *calloc_n(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

int first_line(const char *text)
{
	size_t n = strcspn(text, "\n");

	return n > INT_MAX ? INT_MAX : (int)n;
}

bool is_verdict(we_status st)
{
	return st == WE_ERR_EXCEPTION || st == WE_ERR_DEADLOCK || st == WE_ERR_TIMEOUT;
}
