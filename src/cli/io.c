/* io.c — host files of the CLI (see io.h). */
#define _XOPEN_SOURCE 700   /* POSIX.1-2008 with realpath() */

#include "cli/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK ((size_t)1 << 16)
#define STREAM_BUFFER ((size_t)1 << 18)

const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* ---- inputs --------------------------------------------------------------- */

static int grow(uint8_t **buf, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : READ_CHUNK;
	uint8_t *nb;

	if (ncap < *cap)
		return ENOMEM;
	nb = realloc(*buf, ncap);
	if (!nb)
		return ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* Read all of f into a malloc'd, NUL-terminated buffer; 0 or an errno. */
static int read_stream(FILE *f, uint8_t **data, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;
	int err = 0;

	for (;;) {
		size_t want, got;

		if (n + 1 >= cap && (err = grow(&buf, &cap)) != 0)
			break;
		want = cap - n - 1;
		got = fread(buf + n, 1, want, f);
		n += got;
		if (got < want) {
			if (ferror(f))
				err = errno ? errno : EIO;
			break;
		}
	}
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int read_file(const char *path, uint8_t **data, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	int err;

	if (!f)
		return errorf(CLI_EXIT_IO, "cannot open '%s': %s", path, strerror(errno));
	errno = 0;
	err = read_stream(f, data, len);
	if (!is_stdin && fclose(f) != 0 && err == 0) {
		err = errno ? errno : EIO;
		free(*data);
	}
	if (err == ENOMEM)
		return nomem(display_name(path));
	if (err)
		return errorf(CLI_EXIT_IO, "cannot read '%s': %s", display_name(path), strerror(err));
	return CLI_EXIT_OK;
}

/* ---- outputs ---------------------------------------------------------------- */

int write_stdout(const void *data, size_t len)
{
	if (len && fwrite(data, 1, len, stdout) != len)
		return errorf(CLI_EXIT_IO, "cannot write to stdout: %s", strerror(errno));
	return CLI_EXIT_OK;
}

/* How an output path is written: to stdout ("-"), by replacing the
 * regular file target (via a temporary file and rename), or in place
 * (devices, FIFOs and the like cannot be replaced).  A symbolic link is
 * kept and its target written; a dangling one is replaced itself.
 * *real is a malloc'd target path or NULL (target = path). */
enum out_kind { OUT_STDOUT, OUT_REPLACE, OUT_IN_PLACE };

static enum out_kind output_kind(const char *path, char **real)
{
	struct stat st;

	*real = NULL;
	if (strcmp(path, "-") == 0)
		return OUT_STDOUT;
	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		return OUT_REPLACE;
	if (!S_ISLNK(st.st_mode))
		return OUT_IN_PLACE;
	*real = realpath(path, NULL);
	if (*real && stat(*real, &st) == 0 && !S_ISREG(st.st_mode))
		return OUT_IN_PLACE;
	return OUT_REPLACE;
}

static int open_target(out_stream *s, enum out_kind kind, const char *path)
{
	int fd, err;

	if (kind == OUT_REPLACE) {
		size_t n = strlen(s->target) + 32;

		if (!(s->tmp = malloc(n)))
			return nomem(path);
		snprintf(s->tmp, n, "%s.tmp.%ld", s->target, (long)getpid());
		fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	} else {
		fd = open(s->target, O_WRONLY | O_CLOEXEC);
	}
	if ((s->f = fd < 0 ? NULL : fdopen(fd, "w")) != NULL)
		return CLI_EXIT_OK;
	err = errno;
	if (fd >= 0) {
		close(fd);
		if (s->tmp)
			unlink(s->tmp);
	}
	return errorf(CLI_EXIT_IO, "cannot create '%s': %s", s->tmp ? s->tmp : s->target,
		      strerror(err));
}

int stream_open(out_stream *s, const char *path)
{
	char *real;
	enum out_kind kind = output_kind(path, &real);
	int rc;

	memset(s, 0, sizeof *s);
	if (kind == OUT_STDOUT) {
		s->f = stdout;
		return CLI_EXIT_OK;
	}
	s->target = real ? real : strdup(path);
	if (!s->target)
		return nomem(path);
	if ((rc = open_target(s, kind, path)) != 0) {
		free(s->tmp);
		free(s->target);
		return rc;
	}
	s->buf = malloc(STREAM_BUFFER);
	if (s->buf && setvbuf(s->f, s->buf, _IOFBF, STREAM_BUFFER) != 0) {
		free(s->buf);
		s->buf = NULL;
	}
	return CLI_EXIT_OK;
}

void stream_write(out_stream *s, const void *data, size_t n)
{
	if (s->err || n == 0)
		return;
	errno = 0;
	if (fwrite(data, 1, n, s->f) != n)
		s->err = errno ? errno : EIO;
}

void stream_line(out_stream *s, const char *line)
{
	if (s->err)
		return;
	errno = 0;
	if (fputs(line, s->f) == EOF || putc('\n', s->f) == EOF)
		s->err = errno ? errno : EIO;
}

int stream_close(out_stream *s, bool keep)
{
	int err = s->err;

	errno = 0;
	if (fflush(s->f) != 0 && !err)
		err = errno ? errno : EIO;
	if (s->f == stdout)
		return err ? errorf(CLI_EXIT_IO, "cannot write to stdout: %s", strerror(err)) : CLI_EXIT_OK;
	if (keep && s->tmp && !err && fsync(fileno(s->f)) != 0)
		err = errno;
	if (fclose(s->f) != 0 && !err)
		err = errno ? errno : EIO;
	free(s->buf);
	if (keep && !err && s->tmp && rename(s->tmp, s->target) != 0) {
		err = errno;
		errorf(CLI_EXIT_IO, "cannot rename '%s' to '%s': %s", s->tmp, s->target, strerror(err));
	} else if (keep && err) {
		errorf(CLI_EXIT_IO, "cannot write '%s': %s", s->tmp ? s->tmp : s->target, strerror(err));
	}
	if ((err || !keep) && s->tmp)
		unlink(s->tmp);
	free(s->tmp);
	free(s->target);
	return err && keep ? CLI_EXIT_IO : CLI_EXIT_OK;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	out_stream s;
	int rc = stream_open(&s, path);

	if (rc)
		return rc;
	stream_write(&s, data, len);
	return stream_close(&s, true);
}
