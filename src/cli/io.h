/* io.h — host files of the CLI.
 *
 * Every read is bounded: a module or source file by CLI_FILE_MAX, a
 * buffer by what the device memory limit leaves, so that an endless input
 * (/dev/zero, a pipe) ends with an error, not with the OOM killer.  A
 * pipe or terminal is waited on in short slices, so that SIGINT/SIGTERM
 * stop a read that waits for data.  Outputs are written atomically (a
 * temporary file renamed over the target), and no output may be an
 * input or another output (check_clobber).
 */
#ifndef WE_CLI_IO_H
#define WE_CLI_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"

/* The most bytes of a module or source file (doc/warpemu.1, FILES). */
#define CLI_FILE_MAX ((uint64_t)64 << 20)
/* Device data passes through host buffers of this size. */
#define CLI_CHUNK ((size_t)1 << 20)

/* "<stdin>" for "-", else path. */
const char *display_name(const char *path);

/* ---- inputs --------------------------------------------------------------- */
typedef struct in_file {
	int fd;
	const char *path;
	bool regular;       /* a regular file: its size is known up front */
	uint64_t size;      /* regular: its size                          */
} in_file;

/* Open path ("-" = standard input): 0 or an exit status (printed). */
int in_open(in_file *f, const char *path);
/* Up to n bytes: *got = 0 at the end.  0, CLI_EXIT_INTERRUPTED (nothing
 * printed) or CLI_EXIT_IO with the message in e. */
int in_read(in_file *f, void *buf, size_t n, size_t *got, const cli_intr *intr, cli_err *e);
void in_close(in_file *f);

/* The whole of path ("-" = standard input), at most max bytes, in a
 * malloc'd, NUL-terminated buffer: 0 or an exit status (printed); when
 * the file holds more than max bytes, 0 with *over and no buffer. */
int read_file(const char *path, uint64_t max, const cli_intr *intr, uint8_t **data, size_t *len,
	      bool *over);

/* Bytes held on the host, in chunks that go back to the system one by
 * one as they are released. */
typedef struct held {
	uint8_t **chunk;
	size_t n, cap;
	uint64_t len;
} held;

/* Read f to its end into h, at most max bytes: *over when there are more
 * (h then holds max + 1).  0, CLI_EXIT_INTERRUPTED, CLI_EXIT_IO or
 * CLI_EXIT_LIMIT (no host memory), with the message in e. */
int held_read(held *h, in_file *f, uint64_t max, bool *over, const cli_intr *intr, cli_err *e);
/* Copy [off, off + n) out of h. */
void held_get(const held *h, uint64_t off, void *dst, size_t n);
/* Give back the chunks that lie wholly before off. */
void held_release(held *h, uint64_t off);
void held_free(held *h);

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

/* ---- no output over an input ------------------------------------------- */
typedef struct file_use {
	const char *path;    /* "-" (standard input or output) is left out */
	const char *opt;     /* how it was given, for messages: "--out", */
	const char *text;    /* "c=F"                                     */
	bool output;
} file_use;

/* A usage error (exit status 2, nothing written) when an output is the
 * same file as an input or another output: the same device and inode,
 * or for a file not there yet the same directory and name. */
int check_clobber(const char *cmd, const file_use *u, size_t n);

#endif
