/* io.h — host files of the CLI: inputs read whole, outputs written
 * atomically (a temporary file renamed over the target).
 */
#ifndef WE_CLI_IO_H
#define WE_CLI_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"

/* "<stdin>" for "-", else path. */
const char *display_name(const char *path);

/* The whole of path ("-" = standard input) in a malloc'd, NUL-terminated
 * buffer: 0 or an exit status (printed). */
int read_file(const char *path, uint8_t **data, size_t *len);

/* ---- outputs ---------------------------------------------------------------- */
/* A file written through a large stdio buffer: a regular file (or a new
 * one) goes to a temporary file that stream_close() renames over it; a
 * device, FIFO and the like is written in place; "-" is stdout.  A
 * symbolic link is kept and its target written. */
typedef struct out_stream {
	FILE *f;
	char *target;        /* file replaced or written in place */
	char *tmp;           /* temporary file, or NULL */
	char *buf;           /* stdio buffer, or NULL */
	int err;             /* first write error (an errno), or 0 */
} out_stream;

int stream_open(out_stream *s, const char *path);
void stream_write(out_stream *s, const void *data, size_t n);
void stream_line(out_stream *s, const char *line);
/* Flush, close and put the file in place (keep), or drop what was
 * written (!keep: the temporary file goes, nothing is replaced). */
int stream_close(out_stream *s, bool keep);
/* path ("-" = stdout) written at once, atomically. */
int write_file_atomic(const char *path, const void *data, size_t len);
int write_stdout(const void *data, size_t len);

#endif
