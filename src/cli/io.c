/* io.c — host files of the CLI (see io.h). */
#define _XOPEN_SOURCE 700   /* POSIX.1-2008 with realpath() */

#include "cli/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A read that waits for a pipe looks at the signals this often (ms). */
#define WAIT_SLICE_MS 100
/* Held bytes come in chunks this large: glibc's malloc maps each on its
 * own, so that releasing one gives its memory back to the system. */
#define HELD_CHUNK ((size_t)8 << 20)
/* A read of a file of unknown size starts with a buffer this large. */
#define READ_START ((size_t)1 << 16)
#define STREAM_BUFFER ((size_t)1 << 18)

const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* ---- inputs --------------------------------------------------------------- */

int in_open(in_file *f, const char *path)
{
	struct stat st;

	memset(f, 0, sizeof *f);
	f->path = path;
	f->fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return errorf(CLI_EXIT_IO, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		f->regular = true;
		f->size = (uint64_t)st.st_size;
	}
	return CLI_EXIT_OK;
}

int in_read(in_file *f, void *buf, size_t n, size_t *got, const cli_intr *intr, cli_err *e)
{
	*got = 0;
	for (;;) {
		ssize_t k;

		if (cli_intr_fired(intr)) {
			e->msg[0] = '\0';
			return CLI_EXIT_INTERRUPTED;
		}
		if (!f->regular) {
			/* wait in slices, so that a signal ends the wait */
			struct pollfd p = { .fd = f->fd, .events = POLLIN };
			int r = poll(&p, 1, WAIT_SLICE_MS);

			if (r == 0 || (r < 0 && errno == EINTR))
				continue;
		}
		k = read(f->fd, buf, n);
		if (k >= 0) {
			*got = (size_t)k;
			return CLI_EXIT_OK;
		}
		if (errno != EINTR && errno != EAGAIN) {
			cli_fail(e, "cannot read '%s': %s", display_name(f->path), strerror(errno));
			return CLI_EXIT_IO;
		}
	}
}

void in_close(in_file *f)
{
	if (f->fd > STDIN_FILENO)
		close(f->fd);
	f->fd = -1;
}

/* Read f to its end into a malloc'd, NUL-terminated *buf of at most max
 * bytes; *over (and no buffer) when it holds more. */
static int read_to_end(in_file *f, uint64_t max, const cli_intr *intr, uint8_t **buf,
		       size_t *len, bool *over)
{
	uint64_t limit = max < SIZE_MAX - 2 ? max + 2 : SIZE_MAX;
	size_t cap = f->regular && f->size < limit ? (size_t)f->size + 2 : READ_START, n = 0, got;
	cli_err e;
	int rc;

	if (!(*buf = malloc(cap)))
		return nomem(display_name(f->path));
	while (n <= max) {
		if (n + 1 == cap) {
			size_t ncap = cap < limit / 2 ? cap * 2 : (size_t)limit;
			uint8_t *nb = ncap > cap ? realloc(*buf, ncap) : NULL;

			if (!nb)
				return nomem(display_name(f->path));
			*buf = nb;
			cap = ncap;
		}
		if ((rc = in_read(f, *buf + n, cap - n - 1, &got, intr, &e)) != 0)
			return rc == CLI_EXIT_INTERRUPTED ? rc : errorf(rc, "%s", e.msg);
		if (got == 0) {
			(*buf)[n] = '\0';
			*len = n;
			return CLI_EXIT_OK;
		}
		n += got;
	}
	*over = true;
	return CLI_EXIT_OK;
}

int read_file(const char *path, uint64_t max, const cli_intr *intr, uint8_t **data, size_t *len,
	      bool *over)
{
	in_file f;
	uint8_t *buf = NULL;
	int rc = in_open(&f, path);

	*data = NULL;
	*over = false;
	if (rc)
		return rc;
	if (f.regular && f.size > max)
		*over = true;
	else
		rc = read_to_end(&f, max, intr, &buf, len, over);
	in_close(&f);
	if (rc || *over)
		free(buf);
	else
		*data = buf;
	return rc;
}

int held_read(held *h, in_file *f, uint64_t max, bool *over, const cli_intr *intr, cli_err *e)
{
	memset(h, 0, sizeof *h);
	*over = false;
	for (;;) {
		size_t at = (size_t)(h->len % HELD_CHUNK), got;
		uint64_t want = HELD_CHUNK - at;
		int rc;

		if (h->len > max) {
			*over = true;
			return CLI_EXIT_OK;
		}
		if (want > max + 1 - h->len)
			want = max + 1 - h->len;
		if (at == 0) {
			if (h->n == h->cap) {
				size_t ncap = h->cap ? 2 * h->cap : 16;
				uint8_t **nc = realloc(h->chunk, ncap * sizeof *nc);

				if (!nc) {
					cli_fail(e, "out of host memory");
					return CLI_EXIT_LIMIT;
				}
				h->chunk = nc;
				h->cap = ncap;
			}
			if (!(h->chunk[h->n] = malloc(HELD_CHUNK))) {
				cli_fail(e, "out of host memory");
				return CLI_EXIT_LIMIT;
			}
			h->n++;
		}
		rc = in_read(f, h->chunk[h->n - 1] + at, (size_t)want, &got, intr, e);
		if (rc)
			return rc;
		if (got == 0)
			return CLI_EXIT_OK;
		h->len += got;
	}
}

void held_get(const held *h, uint64_t off, void *dst, size_t n)
{
	uint8_t *d = dst;

	while (n > 0) {
		size_t i = (size_t)(off / HELD_CHUNK), at = (size_t)(off % HELD_CHUNK);
		size_t k = HELD_CHUNK - at < n ? HELD_CHUNK - at : n;

		memcpy(d, h->chunk[i] + at, k);
		d += k;
		off += k;
		n -= k;
	}
}

void held_release(held *h, uint64_t off)
{
	for (size_t i = 0; i < h->n && (i + 1) * (uint64_t)HELD_CHUNK <= off; i++) {
		free(h->chunk[i]);
		h->chunk[i] = NULL;
	}
}

void held_free(held *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->chunk[i]);
	free(h->chunk);
	memset(h, 0, sizeof *h);
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

/* ---- no output over an input ------------------------------------------- */

/* Who a path is: a regular file by device and inode; a file not there
 * yet by its directory's device and inode and its name.  Other files
 * (devices, FIFOs: /dev/null twice is fine) are nobody. */
typedef struct file_id {
	bool known;
	dev_t dev;
	ino_t ino;
	char *name;          /* not there yet: malloc'd base name */
} file_id;

static file_id identify(const char *path)
{
	file_id id = { false, 0, 0, NULL };
	struct stat st;
	char *dir, *base;

	if (strcmp(path, "-") == 0)
		return id;
	if (stat(path, &st) == 0) {
		id.known = S_ISREG(st.st_mode);
		id.dev = st.st_dev;
		id.ino = st.st_ino;
		return id;
	}
	if (errno != ENOENT || !(dir = strdup(path)))
		return id;
	if (!(base = strdup(path))) {
		free(dir);
		return id;
	}
	if (stat(dirname(dir), &st) == 0 && (id.name = strdup(basename(base))) != NULL) {
		id.known = true;
		id.dev = st.st_dev;
		id.ino = st.st_ino;
	}
	free(dir);
	free(base);
	return id;
}

static bool same_file(const file_id *a, const file_id *b)
{
	return a->known && b->known && a->dev == b->dev && a->ino == b->ino &&
	       (a->name ? b->name && strcmp(a->name, b->name) == 0 : !b->name);
}

int check_clobber(const char *cmd, const file_use *u, size_t n)
{
	file_id *ids = calloc(n ? n : 1, sizeof *ids);
	int rc = CLI_EXIT_OK;

	if (!ids)
		return nomem("file names");
	for (size_t i = 0; i < n; i++)
		ids[i] = identify(u[i].path);
	for (size_t i = 0; i < n && !rc; i++)
		for (size_t j = 0; j < n && !rc; j++)
			if (u[i].output && j != i && (!u[j].output || j < i) && same_file(&ids[i], &ids[j]))
				rc = usage_errf(cmd, "%s %s would overwrite %s %s (the same file): an "
						"output may replace neither an input nor another output",
						u[i].opt, u[i].text, u[j].opt, u[j].text);
	for (size_t i = 0; i < n; i++)
		free(ids[i].name);
	free(ids);
	return rc;
}
