/* warpemu.c — the warpemu(1) command-line front end.
 *
 * Uses only the public API (warpemu/warpemu.h) and the pure argument
 * parsers of args.h.  This is the only file that touches argv, stdout,
 * stderr and the exit status; see doc/warpemu.1 for the interface.
 */
#define _XOPEN_SOURCE 700   /* POSIX.1-2008 with realpath() */

#include "cli/args.h"
#include "cli/intr.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROG "warpemu"
#define READ_CHUNK ((size_t)1 << 16)
#define MISMATCHES_SHOWN 8
#define PRINT_COLUMN_MIN 16   /* buffers up to this many values: one a line */
#define PRINT_PER_ROW 8
#define VALUE_TEXT 48

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* ======================================================================
 * Help texts
 * ====================================================================== */

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
"\n"
"Run 'warpemu COMMAND --help' for the options of a command; see warpemu(1).\n";

static const char help_run[] =
"Usage: warpemu run FILE --grid X[,Y,Z] --block X[,Y,Z] [OPTIONS]\n"
"\n"
"Load FILE (assembly text or binary module, '-' = stdin), bind the kernel's\n"
"parameters, launch it and report.\n"
"\n"
"Options (--opt VALUE and --opt=VALUE are the same):\n"
"  --kernel NAME          kernel to run (needed if FILE has several)\n"
"  --grid X[,Y,Z]         CTAs: X <= 2147483647, Y,Z <= 65535\n"
"  --block X[,Y,Z]        threads per CTA: X,Y <= 1024, Z <= 64, X*Y*Z <= 1024\n"
"  --arg NAME=VALUE       set parameter NAME; every parameter exactly once\n"
"  --out NAME=FILE        after the run write buffer NAME to FILE ('-' = stdout)\n"
"  --print NAME[:TYPE[:COUNT]]\n"
"                         print buffer NAME (default u32, whole buffer)\n"
"  --expect NAME=SPEC[~TOL]\n"
"                         compare buffer NAME with SPEC; ~TOL for f32/f64\n"
"  --shared BYTES         dynamic shared memory per CTA\n"
"  --max-instructions N   watchdog: instructions per warp (0 = unlimited)\n"
"  --timeout SECONDS      watchdog: wall-clock limit of the launch (0 = none)\n"
"  --schedule seed:N      reproducible warp interleaving from seed N\n"
"  --schedule jitter:N    warp-threads: real threads with random delays from\n"
"                         seed N (not reproducible; see stress --jitter)\n"
"  --check                report barrier hazards on stderr (no effect on the\n"
"                         exit status), then 'check: N hazards'\n"
"  --report text|json     report of an exception, deadlock or timeout: text\n"
"                         on stderr (default) or one JSON object on stdout\n"
"  --trace FILE           write one line per executed warp-instruction to\n"
"                         FILE, atomically, also when the launch fails\n"
"  --threads N            host worker threads (0 = all cores)\n"
"  --engine E             scheduler (a worker per PU runs many warps) or\n"
"                         warp-threads (a host thread per warp)\n"
"  --lockstep N           scheduler: run up to N warps of a CTA at one PC\n"
"                         together, an instruction at a time (default 8,\n"
"                         1 = one warp at a time, at most 32)\n"
"  --batch N              scheduler: a worker runs N CTAs side by side, the\n"
"                         warps of those at one PC as one lockstep group\n"
"                         (default: as many as fill 32 warps, 1 = one CTA\n"
"                         at a time, at most 32)\n"
"  --placement P          binding of host threads to PUs: compact (default),\n"
"                         scatter or none\n"
"  --max-memory BYTES     device global memory limit (0 = default)\n"
"  --quiet                no summary on stderr\n"
"  --stats=json           print the summary as one JSON object on stdout\n"
"  -h, --help             print this help\n"
"\n"
"Scalar VALUE (u32, s32, f32, u64): decimal, 0x hex, negative for s32,\n"
"floating syntax for f32.  Pointer parameters take a buffer SPEC:\n"
"  @FILE                             raw bytes of FILE ('@-' = stdin)\n"
"  zeros:BYTES                       BYTES zero bytes\n"
"  fill:TYPE:COUNT:VALUE             COUNT copies of VALUE\n"
"  iota:TYPE:COUNT[:START[:STEP]]    START, START+STEP, ... (0 and 1)\n"
"  random:TYPE:COUNT[:SEED]          deterministic; floats in [0,1)\n"
"TYPE is u8 s8 u16 s16 u32 s32 u64 s64 f32 or f64.  BYTES and sizes may end\n"
"in K, M or G (powers of 1024).\n"
"\n"
"Exit status: 0 ok, 1 check failed, 2 usage, 3 assembly/load, 4 exception,\n"
"5 deadlock, 6 I/O, 7 watchdog/limit/memory, 70 internal error.\n";

static const char help_stress[] =
"Usage: warpemu stress FILE --grid X[,Y,Z] --block X[,Y,Z] --runs N\n"
"                      [--seed S] [--jobs J] [RUN OPTIONS]\n"
"\n"
"Rerun one launch under N seeded schedules, seeds S, S+1, ..., S+N-1, each\n"
"on a fresh device with fresh buffers, J runs at a time, and classify every\n"
"run: ok, differs (a buffer differs from the first ok run's, or an --expect\n"
"check fails), deadlock, exception or timeout.  Print a summary with the\n"
"seed of every failing run and a command that replays each one listed.\n"
"\n"
"Options:\n"
"  --runs N               number of runs (required, >= 1)\n"
"  --seed S               first seed (default 1)\n"
"  --jobs J               runs at a time, one host thread each (default and\n"
"                         0: one per online CPU)\n"
"  --jitter               with --engine warp-threads: run each warp on its\n"
"                         own thread unserialised, with random delays from\n"
"                         the run's seed (real timing: not replayable\n"
"                         exactly; a failing run is retried under its\n"
"                         seeded schedule for an exact replay)\n"
"  --quiet                no progress and no table\n"
"  --stats=json           also print the summary as one JSON object on stdout\n"
"  -h, --help             print this help\n"
"Run options taken as they are: --kernel, --grid, --block, --arg, --expect,\n"
"--shared, --max-instructions, --timeout, --max-memory, --engine, --check.\n"
"\n"
"Exit status: the most severe class found: 4 exception, then 5 deadlock,\n"
"7 timeout, 1 differs; 0 when every run is ok; 2 usage error.\n";

static const char help_asm[] =
"Usage: warpemu asm FILE -o OUT\n"
"\n"
"Assemble FILE ('-' = stdin) and write the binary module to OUT, atomically\n"
"('-o -' writes to stdout).\n"
"\n"
"Options:\n"
"  -o, --output OUT   output file (required)\n"
"  -h, --help         print this help\n";

static const char help_disasm[] =
"Usage: warpemu disasm FILE\n"
"\n"
"Disassemble FILE (assembly text or binary module, '-' = stdin) to stdout.\n"
"\n"
"Options:\n"
"  -h, --help   print this help\n";

static const char help_info[] =
"Usage: warpemu info [FILE] [--engine E] [--placement P] [--block X[,Y,Z]]\n"
"\n"
"Print the emulator version, the launch limits, the host topology and the\n"
"host threads a launch would start with the given engine, placement and\n"
"block, with the PU each is bound to.  With FILE, also list its kernels\n"
"with their parameters and resource use.\n"
"\n"
"Options (--opt VALUE and --opt=VALUE are the same):\n"
"  --engine E        scheduler or warp-threads (default: the library's)\n"
"  --placement P     compact (default), scatter or none\n"
"  --block X[,Y,Z]   threads per CTA, for warp-threads (default 32)\n"
"  -h, --help        print this help\n";

/* ======================================================================
 * Messages
 * ====================================================================== */

static int errorf(int code, const char *fmt, ...) CLI_PRINTF(2, 3);

/* Print "warpemu: MESSAGE" on stderr and return code. */
static int errorf(int code, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static void try_help(const char *cmd)
{
	fprintf(stderr, "Try '" PROG "%s%s --help' for more information.\n",
		cmd ? " " : "", cmd ? cmd : "");
}

static int usage_err(const char *cmd, const char *msg)
{
	errorf(CLI_EXIT_USAGE, "%s", msg);
	try_help(cmd);
	return CLI_EXIT_USAGE;
}

/* Report a failed API call and map its status to an exit status. */
static int api_err(const we_device *dev, we_status s)
{
	const char *msg = dev ? we_last_error(dev) : "";
	size_t n = strlen(msg);

	if (n == 0)
		return errorf(cli_exit_for_status(s), "%s", we_status_name(s));
	fprintf(stderr, PROG ": %s%s", msg, msg[n - 1] == '\n' ? "" : "\n");
	return cli_exit_for_status(s);
}

static int nomem(const char *what)
{
	return errorf(CLI_EXIT_LIMIT, "out of host memory (%s)", what);
}

/* A later error replaces success or a failed check, not another error. */
static int worse(int rc, int next)
{
	return rc == CLI_EXIT_OK || rc == CLI_EXIT_CHECK ? (next ? next : rc)
							  : rc;
}

/* ======================================================================
 * Option scanning
 * ====================================================================== */

typedef struct opt_desc {
	const char *lng;   /* "--name" */
	char shrt;         /* 'o' for -o, or 0 */
	int id;
	bool has_value;
} opt_desc;

typedef struct scanner {
	int argc;
	char **argv;
	int i;
	bool only_positional;   /* after "--" */
	const opt_desc *tab;
	size_t ntab;
} scanner;

typedef enum scan_kind { SC_END, SC_POS, SC_OPT, SC_ERR } scan_kind;

typedef struct scan_item {
	int id;
	const char *name;    /* option as written (for messages) */
	const char *value;   /* option value or positional argument */
} scan_item;

static const opt_desc *find_long(const scanner *sc, const char *a,
				 const char **inline_value)
{
	for (size_t i = 0; i < sc->ntab; i++) {
		size_t n = strlen(sc->tab[i].lng);

		if (strncmp(a, sc->tab[i].lng, n) != 0)
			continue;
		if (a[n] == '\0') {
			*inline_value = NULL;
			return &sc->tab[i];
		}
		if (a[n] == '=') {
			*inline_value = a + n + 1;
			return &sc->tab[i];
		}
	}
	return NULL;
}

static const opt_desc *find_opt(const scanner *sc, const char *a,
				const char **inline_value)
{
	if (a[1] == '-')
		return find_long(sc, a, inline_value);
	*inline_value = NULL;
	for (size_t i = 0; i < sc->ntab; i++)
		if (sc->tab[i].shrt && a[1] == sc->tab[i].shrt && a[2] == '\0')
			return &sc->tab[i];
	return NULL;
}

static scan_kind scan_next(scanner *sc, scan_item *it, cli_err *e)
{
	const char *a, *val;
	const opt_desc *d;

	if (sc->i >= sc->argc)
		return SC_END;
	a = sc->argv[sc->i++];
	it->name = a;
	if (sc->only_positional || a[0] != '-' || a[1] == '\0') {
		it->value = a;
		return SC_POS;
	}
	if (strcmp(a, "--") == 0) {
		sc->only_positional = true;
		return scan_next(sc, it, e);
	}
	d = find_opt(sc, a, &val);
	if (!d) {
		snprintf(e->msg, sizeof e->msg, "unknown option '%.60s'", a);
		return SC_ERR;
	}
	it->id = d->id;
	it->name = d->lng;
	if (!d->has_value && val) {
		snprintf(e->msg, sizeof e->msg, "option %s takes no value",
			 d->lng);
		return SC_ERR;
	}
	if (d->has_value && !val) {
		if (sc->i >= sc->argc) {
			snprintf(e->msg, sizeof e->msg, "option %s needs a value",
				 d->lng);
			return SC_ERR;
		}
		val = sc->argv[sc->i++];
	}
	it->value = val;
	return SC_OPT;
}

static void scanner_init(scanner *sc, int argc, char **argv,
			 const opt_desc *tab, size_t ntab)
{
	sc->argc = argc;
	sc->argv = argv;
	sc->i = 0;
	sc->only_positional = false;
	sc->tab = tab;
	sc->ntab = ntab;
}

/* Store a single-valued option; giving one twice is an error. */
static bool set_once(const char **slot, const scan_item *it, cli_err *e)
{
	if (*slot) {
		snprintf(e->msg, sizeof e->msg, "option %s given more than once",
			 it->name);
		return false;
	}
	*slot = it->value;
	return true;
}

static bool set_positional(const char **slot, const scan_item *it,
			   cli_err *e)
{
	if (*slot) {
		snprintf(e->msg, sizeof e->msg, "unexpected argument '%.60s'",
			 it->value);
		return false;
	}
	*slot = it->value;
	return true;
}

/* ======================================================================
 * Host files
 * ====================================================================== */

static const char *display_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

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

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	int err;

	if (!f)
		return errorf(CLI_EXIT_IO, "cannot open '%s': %s", path,
			      strerror(errno));
	errno = 0;
	err = read_stream(f, data, len);
	if (!is_stdin && fclose(f) != 0 && err == 0) {
		err = errno ? errno : EIO;
		free(*data);
	}
	if (err == ENOMEM)
		return nomem(display_name(path));
	if (err)
		return errorf(CLI_EXIT_IO, "cannot read '%s': %s",
			      display_name(path), strerror(err));
	return CLI_EXIT_OK;
}

static bool write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static int write_stdout(const void *data, size_t len)
{
	if (len && fwrite(data, 1, len, stdout) != len)
		return errorf(CLI_EXIT_IO, "cannot write to stdout: %s",
			      strerror(errno));
	return CLI_EXIT_OK;
}

/* Write tmp completely and durably; on failure remove it. */
static int write_temp(const char *tmp, const void *data, size_t len)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	int err;

	if (fd < 0)
		return errorf(CLI_EXIT_IO, "cannot create '%s': %s", tmp,
			      strerror(errno));
	if (write_all(fd, data, len) && fsync(fd) == 0) {
		if (close(fd) == 0)
			return CLI_EXIT_OK;
		err = errno;
	} else {
		err = errno;
		close(fd);
	}
	unlink(tmp);
	return errorf(CLI_EXIT_IO, "cannot write '%s': %s", tmp,
		      strerror(err ? err : EIO));
}

/* Devices, FIFOs and the like cannot be replaced: write them in place. */
static int write_in_place(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errorf(CLI_EXIT_IO, "cannot open '%s': %s", path,
			      strerror(errno));
	if (!write_all(fd, data, len)) {
		err = errno ? errno : EIO;
		close(fd);
		return errorf(CLI_EXIT_IO, "cannot write '%s': %s", path,
			      strerror(err));
	}
	if (close(fd) != 0)
		return errorf(CLI_EXIT_IO, "cannot write '%s': %s", path,
			      strerror(errno));
	return CLI_EXIT_OK;
}

/* Write to the regular file path via path.tmp.PID, fsync and rename. */
static int replace_file(const char *path, const void *data, size_t len)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	int rc;

	if (!tmp)
		return nomem(path);
	snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	rc = write_temp(tmp, data, len);
	if (rc == CLI_EXIT_OK && rename(tmp, path) != 0) {
		rc = errorf(CLI_EXIT_IO, "cannot rename '%s' to '%s': %s", tmp,
			    path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
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

/* Write path atomically ("-" = stdout). */
static int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *real;
	enum out_kind kind = output_kind(path, &real);
	const char *target = real ? real : path;
	int rc;

	if (kind == OUT_STDOUT)
		rc = write_stdout(data, len);
	else if (kind == OUT_IN_PLACE)
		rc = write_in_place(target, data, len);
	else
		rc = replace_file(target, data, len);
	free(real);
	return rc;
}

/* ---- streamed output files (--trace) ------------------------------------ */

#define STREAM_BUFFER ((size_t)1 << 18)

/* A file written line by line through a large stdio buffer, with the
 * same rules as write_file_atomic: a regular file goes to a temporary
 * file that stream_close() renames over it. */
typedef struct out_stream {
	FILE *f;
	char *target;        /* file replaced or written in place */
	char *tmp;           /* temporary file, or NULL */
	char *buf;           /* stdio buffer, or NULL */
	int err;             /* first write error (an errno), or 0 */
} out_stream;

static int stream_open(out_stream *s, const char *path)
{
	char *real;
	enum out_kind kind = output_kind(path, &real);
	int fd, err;

	memset(s, 0, sizeof *s);
	if (kind == OUT_STDOUT) {
		s->f = stdout;
		return CLI_EXIT_OK;
	}
	s->target = real ? real : strdup(path);
	if (!s->target)
		return nomem(path);
	if (kind == OUT_REPLACE) {
		size_t n = strlen(s->target) + 32;

		s->tmp = malloc(n);
		if (!s->tmp) {
			free(s->target);
			return nomem(path);
		}
		snprintf(s->tmp, n, "%s.tmp.%ld", s->target, (long)getpid());
		fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	} else {
		fd = open(s->target, O_WRONLY | O_CLOEXEC);
	}
	s->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!s->f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			if (s->tmp)
				unlink(s->tmp);
		}
		errorf(CLI_EXIT_IO, "cannot create '%s': %s",
		       s->tmp ? s->tmp : s->target, strerror(err));
		free(s->tmp);
		free(s->target);
		return CLI_EXIT_IO;
	}
	s->buf = malloc(STREAM_BUFFER);
	if (s->buf && setvbuf(s->f, s->buf, _IOFBF, STREAM_BUFFER) != 0) {
		free(s->buf);
		s->buf = NULL;
	}
	return CLI_EXIT_OK;
}

static void stream_line(out_stream *s, const char *line)
{
	if (s->err)
		return;
	errno = 0;
	if (fputs(line, s->f) == EOF || putc('\n', s->f) == EOF)
		s->err = errno ? errno : EIO;
}

/* Flush and close s, and put a temporary file in place: also after a
 * failed launch, whose partial output is the useful one. */
static int stream_close(out_stream *s)
{
	int err = s->err;

	errno = 0;
	if (fflush(s->f) != 0 && !err)
		err = errno ? errno : EIO;
	if (s->f == stdout)
		return err ? errorf(CLI_EXIT_IO, "cannot write to stdout: %s",
				    strerror(err)) : CLI_EXIT_OK;
	if (s->tmp && !err && fsync(fileno(s->f)) != 0)
		err = errno;
	if (fclose(s->f) != 0 && !err)
		err = errno ? errno : EIO;
	free(s->buf);
	if (!err && s->tmp && rename(s->tmp, s->target) != 0) {
		err = errno;
		errorf(CLI_EXIT_IO, "cannot rename '%s' to '%s': %s", s->tmp,
		       s->target, strerror(err));
	} else if (err) {
		errorf(CLI_EXIT_IO, "cannot write '%s': %s",
		       s->tmp ? s->tmp : s->target, strerror(err));
	}
	if (err && s->tmp)
		unlink(s->tmp);
	free(s->tmp);
	free(s->target);
	return err ? CLI_EXIT_IO : CLI_EXIT_OK;
}

/* ======================================================================
 * Devices and modules
 * ====================================================================== */

static int create_device(uint64_t max_memory, unsigned threads,
			 we_device **dev)
{
	we_device_config cfg;
	we_status s;

	memset(&cfg, 0, sizeof cfg);
	cfg.max_memory = max_memory;
	cfg.threads = threads;
	*dev = NULL;
	s = we_device_create(&cfg, dev);
	if (s != WE_OK)
		return api_err(*dev, s);
	return CLI_EXIT_OK;
}

/* Load a module from the bytes of path (text or binary). */
static we_status load_module_data(we_device *dev, const uint8_t *data,
				  size_t len, const char *path, we_module **mod)
{
	*mod = NULL;
	if (cli_is_binary_module(data, len))
		return we_module_load_binary(dev, data, len, mod);
	return we_module_load_text(dev, (const char *)data, len,
				   display_name(path), mod);
}

/* Read and load path; with keep, hand its bytes over in *keep. */
static int load_module_keep(we_device *dev, const char *path, we_module **mod,
			    uint8_t **keep, size_t *keep_len)
{
	uint8_t *data;
	size_t len;
	we_status s;
	int rc = read_file(path, &data, &len);

	*mod = NULL;
	if (rc)
		return rc;
	s = load_module_data(dev, data, len, path, mod);
	if (keep) {
		*keep = data;
		*keep_len = len;
	} else {
		free(data);
	}
	return s == WE_OK ? CLI_EXIT_OK : api_err(dev, s);
}

static int load_module(we_device *dev, const char *path, we_module **mod)
{
	return load_module_keep(dev, path, mod, NULL, NULL);
}

static void print_kernel_names(FILE *f, const we_module *m)
{
	unsigned n = we_module_kernel_count(m);

	for (unsigned i = 0; i < n; i++) {
		const we_kernel_info *k = we_module_kernel(m, i);

		fprintf(f, "%s%s", i ? ", " : "", k && k->name ? k->name : "?");
	}
}

static void print_param_list(FILE *f, const we_kernel_info *k)
{
	if (k->nparams == 0)
		fputs("no parameters", f);
	for (unsigned i = 0; i < k->nparams; i++)
		fprintf(f, "%s%s (%s)", i ? ", " : "", k->params[i].name,
			cli_param_type_name(k->params[i].type));
}

static int select_kernel(const we_module *m, const char *path,
			 const char *name, const we_kernel_info **out)
{
	unsigned n = we_module_kernel_count(m);

	*out = name ? we_module_find_kernel(m, name)
		    : n == 1 ? we_module_kernel(m, 0) : NULL;
	if (*out)
		return CLI_EXIT_OK;
	if (n == 0)
		return errorf(CLI_EXIT_LOAD, "%s defines no kernels",
			      display_name(path));
	fprintf(stderr, PROG ": ");
	if (name)
		fprintf(stderr, "%s has no kernel '%s'", display_name(path),
			name);
	else
		fprintf(stderr, "%s defines %u kernels; choose one with --kernel",
			display_name(path), n);
	fputs(" (kernels: ", stderr);
	print_kernel_names(stderr, m);
	fputs(")\n", stderr);
	return name ? CLI_EXIT_LOAD : CLI_EXIT_USAGE;
}

/* The CLI relies on the layout the library reports; check it. */
static int check_kernel_info(const we_kernel_info *k)
{
	if (!k->name || (k->nparams && !k->params))
		return errorf(CLI_EXIT_INTERNAL, "kernel info without %s",
			      k->name ? "parameters" : "a name");
	for (unsigned i = 0; i < k->nparams; i++) {
		const we_param_info *p = &k->params[i];

		if (!p->name || p->size != cli_param_type_size(p->type) ||
		    (uint64_t)p->offset + p->size > k->param_bytes)
			return errorf(CLI_EXIT_INTERNAL, "kernel %s: inconsistent "
				      "layout of parameter %u", k->name, i);
	}
	return CLI_EXIT_OK;
}

/* ======================================================================
 * run: options
 * ====================================================================== */

/* The options of run and stress: one table, so that stress takes run's
 * launch options as they are; run_command_check() rejects those that do
 * not apply to the command. */
enum run_opt {
	RO_KERNEL, RO_GRID, RO_BLOCK, RO_ARG, RO_OUT, RO_PRINT, RO_EXPECT,
	RO_SHARED, RO_MAXINSN, RO_THREADS, RO_MAXMEM, RO_QUIET, RO_STATS,
	RO_ENGINE, RO_PLACEMENT, RO_SCHEDULE, RO_CHECK, RO_TIMEOUT, RO_REPORT,
	RO_TRACE, RO_RUNS, RO_SEED, RO_JOBS, RO_LOCKSTEP, RO_BATCH, RO_JITTER, RO_HELP
};

static const opt_desc run_table[] = {
	{ "--kernel", 0, RO_KERNEL, true },
	{ "--grid", 0, RO_GRID, true },
	{ "--block", 0, RO_BLOCK, true },
	{ "--arg", 0, RO_ARG, true },
	{ "--out", 0, RO_OUT, true },
	{ "--print", 0, RO_PRINT, true },
	{ "--expect", 0, RO_EXPECT, true },
	{ "--shared", 0, RO_SHARED, true },
	{ "--max-instructions", 0, RO_MAXINSN, true },
	{ "--threads", 0, RO_THREADS, true },
	{ "--max-memory", 0, RO_MAXMEM, true },
	{ "--quiet", 0, RO_QUIET, false },
	{ "--stats", 0, RO_STATS, true },
	{ "--engine", 0, RO_ENGINE, true },
	{ "--placement", 0, RO_PLACEMENT, true },
	{ "--schedule", 0, RO_SCHEDULE, true },
	{ "--check", 0, RO_CHECK, false },
	{ "--timeout", 0, RO_TIMEOUT, true },
	{ "--report", 0, RO_REPORT, true },
	{ "--trace", 0, RO_TRACE, true },
	{ "--runs", 0, RO_RUNS, true },
	{ "--seed", 0, RO_SEED, true },
	{ "--jobs", 0, RO_JOBS, true },
	{ "--lockstep", 0, RO_LOCKSTEP, true },
	{ "--batch", 0, RO_BATCH, true },
	{ "--jitter", 0, RO_JITTER, false },
	{ "--help", 'h', RO_HELP, false },
};

typedef struct strlist { const char **v; size_t n; } strlist;

typedef struct run_opts {
	const char *file, *kernel, *grid, *block, *shared, *max_insns,
		   *threads, *max_memory, *stats, *engine, *placement,
		   *schedule, *timeout, *report, *trace, *runs, *seed, *jobs,
		   *lockstep, *batch;
	strlist args, outs, prints, expects;
	bool quiet, help, check, jitter;
} run_opts;

/* Parsed --out, --print and --expect; slot = parameter index. */
typedef struct out_req { cli_assign a; unsigned slot; } out_req;
typedef struct print_req { cli_print p; unsigned slot; } print_req;
typedef struct expect_req {
	cli_assign a;
	cli_spec spec;
	unsigned slot;
	uint8_t *data;       /* expected bytes */
	uint64_t bytes;
} expect_req;

/* One per kernel parameter; buffer fields are used for pointers only. */
typedef struct param_slot {
	const char *value;   /* from --arg, NULL until bound */
	cli_spec spec;
	uint64_t bytes;
	uint8_t *init;       /* initial contents; NULL: zeros (or uploaded) */
	we_devptr ptr;
	bool allocated;
	uint8_t *result;     /* buffer contents after the run */
} param_slot;

/* A run or, for stress, the prototype of every run: after setup, stress
 * jobs only read it. */
typedef struct run_ctx {
	const char *cmd;     /* "run" or "stress", for messages */
	bool stress;
	run_opts o;
	const char **lists;  /* storage of the four strlists */
	we_dim3 grid, block;
	uint64_t shared, max_insns, threads, max_memory, lockstep, batch;
	we_engine engine;
	we_placement placement;
	bool json, seeded, jitter;
	uint64_t seed;       /* --schedule=seed:N or jitter:N */
	double timeout;
	cli_report report;
	uint64_t runs, first_seed;   /* stress */
	unsigned jobs;
	uint8_t *image;      /* stress: the bytes of FILE */
	size_t image_len;
	out_req *outs;
	print_req *prints;
	expect_req *expects;
	we_device *dev;
	we_module *mod;
	const we_kernel_info *k;
	param_slot *slots;
	uint8_t *params;
	we_launch_stats stats;
	cli_intr *intr;      /* SIGINT/SIGTERM: interrupts the launches */
} run_ctx;

static bool run_take_opt(run_opts *o, const scan_item *it, cli_err *e)
{
	switch ((enum run_opt)it->id) {
	case RO_KERNEL:  return set_once(&o->kernel, it, e);
	case RO_GRID:    return set_once(&o->grid, it, e);
	case RO_BLOCK:   return set_once(&o->block, it, e);
	case RO_SHARED:  return set_once(&o->shared, it, e);
	case RO_MAXINSN: return set_once(&o->max_insns, it, e);
	case RO_THREADS: return set_once(&o->threads, it, e);
	case RO_MAXMEM:  return set_once(&o->max_memory, it, e);
	case RO_STATS:   return set_once(&o->stats, it, e);
	case RO_ENGINE:  return set_once(&o->engine, it, e);
	case RO_PLACEMENT: return set_once(&o->placement, it, e);
	case RO_SCHEDULE: return set_once(&o->schedule, it, e);
	case RO_TIMEOUT: return set_once(&o->timeout, it, e);
	case RO_REPORT:  return set_once(&o->report, it, e);
	case RO_TRACE:   return set_once(&o->trace, it, e);
	case RO_RUNS:    return set_once(&o->runs, it, e);
	case RO_SEED:    return set_once(&o->seed, it, e);
	case RO_JOBS:    return set_once(&o->jobs, it, e);
	case RO_LOCKSTEP: return set_once(&o->lockstep, it, e);
	case RO_BATCH:   return set_once(&o->batch, it, e);
	case RO_CHECK:   o->check = true; return true;
	case RO_JITTER:  o->jitter = true; return true;
	case RO_ARG:     o->args.v[o->args.n++] = it->value; return true;
	case RO_OUT:     o->outs.v[o->outs.n++] = it->value; return true;
	case RO_PRINT:   o->prints.v[o->prints.n++] = it->value; return true;
	case RO_EXPECT:  o->expects.v[o->expects.n++] = it->value; return true;
	case RO_QUIET:   o->quiet = true; return true;
	case RO_HELP:    o->help = true; return true;
	}
	return true;
}

static int run_scan(run_ctx *c, int argc, char **argv)
{
	size_t cap = (size_t)argc;
	scanner sc;
	scan_item it;
	scan_kind k;
	cli_err e;

	c->lists = calloc(4 * cap + 1, sizeof *c->lists);
	if (!c->lists)
		return nomem("arguments");
	c->o.args.v = c->lists;
	c->o.outs.v = c->lists + cap;
	c->o.prints.v = c->lists + 2 * cap;
	c->o.expects.v = c->lists + 3 * cap;
	scanner_init(&sc, argc, argv, run_table,
		     sizeof run_table / sizeof run_table[0]);
	while ((k = scan_next(&sc, &it, &e)) != SC_END && !c->o.help) {
		if (k == SC_ERR ||
		    (k == SC_POS && !set_positional(&c->o.file, &it, &e)) ||
		    (k == SC_OPT && !run_take_opt(&c->o, &it, &e)))
			return usage_err(c->cmd, e.msg);
	}
	return CLI_EXIT_OK;
}

static int opt_err(const run_ctx *c, const char *opt, const cli_err *e)
{
	char msg[sizeof e->msg + 64];

	snprintf(msg, sizeof msg, "%s: %s", opt, e->msg);
	return usage_err(c->cmd, msg);
}

/* Usage error about one of the repeatable NAME=... options. */
static int req_err(const run_ctx *c, const char *opt, const char *text,
		   const cli_err *e)
{
	char msg[sizeof e->msg + 160];

	snprintf(msg, sizeof msg, "%s %.120s: %s", opt, text, e->msg);
	return usage_err(c->cmd, msg);
}

static bool parse_u64_opt(const char *s, uint64_t max, uint64_t *out,
			  cli_err *e)
{
	if (!cli_parse_u64(s, strlen(s), out, e))
		return false;
	if (*out <= max)
		return true;
	snprintf(e->msg, sizeof e->msg, "%" PRIu64 " is too large (max %"
		 PRIu64 ")", *out, max);
	return false;
}

static int run_check_dims(run_ctx *c)
{
	cli_err e;

	if (!c->o.grid)
		return usage_err(c->cmd, "missing --grid X[,Y,Z]");
	if (!c->o.block)
		return usage_err(c->cmd, "missing --block X[,Y,Z]");
	if (!cli_parse_dim3(c->o.grid, &c->grid, &e) ||
	    !cli_check_grid(&c->grid, &e))
		return opt_err(c, "--grid", &e);
	if (!cli_parse_dim3(c->o.block, &c->block, &e) ||
	    !cli_check_block(&c->block, &e))
		return opt_err(c, "--block", &e);
	return CLI_EXIT_OK;
}

static int run_check_shared(run_ctx *c)
{
	cli_err e;

	if (!c->o.shared)
		return CLI_EXIT_OK;
	if (!cli_parse_size(c->o.shared, &c->shared, &e))
		return opt_err(c, "--shared", &e);
	if (c->shared > UINT32_MAX) {
		snprintf(e.msg, sizeof e.msg, "at most %" PRIu32 " bytes",
			 UINT32_MAX);
		return opt_err(c, "--shared", &e);
	}
	return CLI_EXIT_OK;
}

/* Options of the other command, or that make no sense with this one. */
static int run_command_check(run_ctx *c)
{
	const struct {
		const char *given, *name;
		bool stress_only;   /* else: run only */
		const char *why;
	} rules[] = {
		{ c->o.runs, "--runs", true, "is an option of stress" },
		{ c->o.seed, "--seed", true, "is an option of stress" },
		{ c->o.jobs, "--jobs", true, "is an option of stress" },
		{ c->o.jitter ? "" : NULL, "--jitter", true, "is an option of "
		  "stress (run takes --schedule=jitter:N)" },
		{ c->o.schedule, "--schedule", false,
		  "cannot be used: stress sets the seed of every run" },
		{ c->o.threads, "--threads", false, "cannot be used: every "
		  "stress run uses one host thread (see --jobs)" },
		{ c->o.placement, "--placement", false,
		  "cannot be used: stress jobs run unbound" },
		{ c->o.trace, "--trace", false,
		  "cannot be used: replay a run to trace it" },
		{ c->o.report, "--report", false,
		  "cannot be used: replay a run for its report" },
		{ c->o.outs.n ? "" : NULL, "--out", false,
		  "cannot be used: replay a run to see its buffers" },
		{ c->o.prints.n ? "" : NULL, "--print", false,
		  "cannot be used: replay a run to see its buffers" },
	};
	char msg[160];

	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		if (rules[i].given && rules[i].stress_only != c->stress) {
			snprintf(msg, sizeof msg, "%s %s", rules[i].name,
				 rules[i].why);
			return usage_err(c->cmd, msg);
		}
	}
	if (c->stress && !c->o.runs)
		return usage_err(c->cmd, "missing --runs N");
	return CLI_EXIT_OK;
}

/* --schedule, --timeout, --report and stress's --runs, --seed, --jobs. */
static int run_check_debug(run_ctx *c)
{
	cli_err e;

	if (c->o.schedule &&
	    !cli_parse_schedule(c->o.schedule, &c->seed, &c->jitter, &e))
		return opt_err(c, "--schedule", &e);
	c->seeded = c->o.schedule != NULL && !c->jitter;
	if (c->o.jitter)
		c->jitter = true;
	if (c->jitter && c->engine != WE_ENGINE_WARP_THREADS)
		return usage_err(c->cmd, c->stress ? "--jitter needs --engine "
				 "warp-threads" : "--schedule=jitter:N needs "
				 "--engine warp-threads");
	if (c->jitter && c->o.trace)
		return usage_err(c->cmd, "--schedule=jitter:N cannot be used with "
				 "--trace (a trace runs one warp at a time)");
	if (c->o.timeout && !cli_parse_seconds(c->o.timeout, &c->timeout, &e))
		return opt_err(c, "--timeout", &e);
	c->report = CLI_REPORT_TEXT;
	if (c->o.report && !cli_parse_report(c->o.report, &c->report, &e))
		return opt_err(c, "--report", &e);
	c->first_seed = 1;
	if (c->o.runs && !cli_parse_runs(c->o.runs, &c->runs, &e))
		return opt_err(c, "--runs", &e);
	if (c->o.seed && !cli_parse_u64(c->o.seed, strlen(c->o.seed),
					&c->first_seed, &e))
		return opt_err(c, "--seed", &e);
	if (c->o.jobs && !cli_parse_jobs(c->o.jobs, &c->jobs, &e))
		return opt_err(c, "--jobs", &e);
	if (!cli_check_seeds(c->first_seed, c->runs, &e))
		return opt_err(c, "--seed", &e);
	return CLI_EXIT_OK;
}

static int run_check_numbers(run_ctx *c)
{
	cli_err e;
	int rc = run_check_shared(c);

	if (rc)
		return rc;
	if (c->o.max_insns &&
	    !parse_u64_opt(c->o.max_insns, UINT64_MAX, &c->max_insns, &e))
		return opt_err(c, "--max-instructions", &e);
	if (c->o.threads &&
	    !parse_u64_opt(c->o.threads, UINT_MAX, &c->threads, &e))
		return opt_err(c, "--threads", &e);
	if (c->o.lockstep &&
	    !parse_u64_opt(c->o.lockstep, 32, &c->lockstep, &e))
		return opt_err(c, "--lockstep", &e);
	if (c->o.batch &&
	    !parse_u64_opt(c->o.batch, 32, &c->batch, &e))
		return opt_err(c, "--batch", &e);
	if (c->o.max_memory &&
	    !cli_parse_size(c->o.max_memory, &c->max_memory, &e))
		return opt_err(c, "--max-memory", &e);
	if (c->o.stats && strcmp(c->o.stats, "json") != 0)
		return usage_err(c->cmd, "--stats: the only format is 'json'");
	if (c->o.engine && !cli_parse_engine(c->o.engine, &c->engine, &e))
		return opt_err(c, "--engine", &e);
	if (c->o.placement &&
	    !cli_parse_placement(c->o.placement, &c->placement, &e))
		return opt_err(c, "--placement", &e);
	c->json = c->o.stats != NULL;
	return run_check_debug(c);
}

static void *calloc_n(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int run_parse_requests(run_ctx *c)
{
	cli_err e;

	c->outs = calloc_n(c->o.outs.n, sizeof *c->outs);
	c->prints = calloc_n(c->o.prints.n, sizeof *c->prints);
	c->expects = calloc_n(c->o.expects.n, sizeof *c->expects);
	if (!c->outs || !c->prints || !c->expects)
		return nomem("arguments");
	for (size_t i = 0; i < c->o.outs.n; i++)
		if (!cli_parse_assign(c->o.outs.v[i], &c->outs[i].a, &e))
			return opt_err(c, "--out", &e);
	for (size_t i = 0; i < c->o.prints.n; i++)
		if (!cli_parse_print(c->o.prints.v[i], &c->prints[i].p, &e))
			return req_err(c, "--print", c->o.prints.v[i], &e);
	for (size_t i = 0; i < c->o.expects.n; i++) {
		expect_req *x = &c->expects[i];

		if (!cli_parse_assign(c->o.expects.v[i], &x->a, &e))
			return opt_err(c, "--expect", &e);
		if (!cli_parse_spec(x->a.value, true, &x->spec, &e))
			return req_err(c, "--expect", c->o.expects.v[i], &e);
	}
	return CLI_EXIT_OK;
}

/* Standard input can feed FILE or one @- spec, not several. */
static int run_check_stdin(const run_ctx *c)
{
	unsigned uses = strcmp(c->o.file, "-") == 0;
	cli_assign a;
	cli_err e;

	for (size_t i = 0; i < c->o.args.n; i++)
		if (cli_parse_assign(c->o.args.v[i], &a, &e) &&
		    strcmp(a.value, "@-") == 0)
			uses++;
	for (size_t i = 0; i < c->o.expects.n; i++)
		if (c->expects[i].spec.kind == CLI_SPEC_FILE &&
		    strcmp(c->expects[i].spec.path, "-") == 0)
			uses++;
	if (uses > 1)
		return usage_err(c->cmd, "standard input ('-') can be read "
				 "only once");
	return CLI_EXIT_OK;
}

static int run_options(run_ctx *c, int argc, char **argv)
{
	int rc = run_scan(c, argc, argv);

	if (rc || c->o.help)
		return rc;
	if (!c->o.file)
		return usage_err(c->cmd, "missing FILE");
	if ((rc = run_command_check(c)) != 0 ||
	    (rc = run_check_dims(c)) != 0 ||
	    (rc = run_check_numbers(c)) != 0 ||
	    (rc = run_parse_requests(c)) != 0)
		return rc;
	return run_check_stdin(c);
}

/* ======================================================================
 * run: kernel parameters
 * ====================================================================== */

static int param_err(const run_ctx *c, const char *opt, const char *text,
		     const char *fmt, ...) CLI_PRINTF(4, 5);

/* Usage error about a parameter, followed by the kernel's list. */
static int param_err(const run_ctx *c, const char *opt, const char *text,
		     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	if (opt)
		fprintf(stderr, "%s %.80s: ", opt, text);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n" PROG ": kernel %s takes: ", c->k->name);
	print_param_list(stderr, c->k);
	fputc('\n', stderr);
	try_help(c->cmd);
	return CLI_EXIT_USAGE;
}

/* A parameter by its name, or else by its 0-based index (PTX kernels'
 * parameters are named KERNEL_param_N): k->nparams if none. */
static unsigned find_param(const we_kernel_info *k, const char *name,
			   size_t n)
{
	unsigned i, idx = 0;
	size_t d;

	for (i = 0; i < k->nparams; i++)
		if (cli_name_eq(name, n, k->params[i].name))
			return i;
	for (d = 0; d < n && d < 4 && name[d] >= '0' && name[d] <= '9'; d++)
		idx = idx * 10 + (unsigned)(name[d] - '0');
	return d == n && n > 0 && idx < k->nparams ? idx : k->nparams;
}

static int bind_pointer(run_ctx *c, unsigned i, const char *text)
{
	param_slot *s = &c->slots[i];
	const we_param_info *p = &c->k->params[i];
	cli_err e;

	if (cli_parse_spec(s->value, false, &s->spec, &e))
		return CLI_EXIT_OK;
	if (cli_looks_like_number(s->value))
		return param_err(c, "--arg", text, "parameter '%s' is a "
				 "pointer: give a buffer spec (@FILE, "
				 "zeros:BYTES, fill:..., iota:..., random:...), "
				 "not a number", p->name);
	return param_err(c, "--arg", text, "%s", e.msg);
}

static int bind_scalar(run_ctx *c, unsigned i, const char *text)
{
	const we_param_info *p = &c->k->params[i];
	uint8_t bytes[8];
	cli_err e;

	if (cli_looks_like_spec(c->slots[i].value))
		return param_err(c, "--arg", text, "parameter '%s' is a "
				 "scalar (%s), not a buffer", p->name,
				 cli_param_type_name(p->type));
	if (!cli_parse_scalar(p->type, c->slots[i].value, bytes, &e))
		return param_err(c, "--arg", text, "%s", e.msg);
	memcpy(c->params + p->offset, bytes, p->size);
	return CLI_EXIT_OK;
}

static int bind_arg(run_ctx *c, const char *text)
{
	cli_assign a;
	cli_err e;
	unsigned i;

	if (!cli_parse_assign(text, &a, &e))
		return opt_err(c, "--arg", &e);
	i = find_param(c->k, a.name, a.namelen);
	if (i == c->k->nparams)
		return param_err(c, "--arg", text, "kernel %s has no "
				 "parameter '%.*s'", c->k->name,
				 (int)(a.namelen > 80 ? 80 : a.namelen), a.name);
	if (c->slots[i].value)
		return param_err(c, "--arg", text, "parameter '%s' is given "
				 "more than once", c->k->params[i].name);
	c->slots[i].value = a.value;
	if (c->k->params[i].type == WE_PARAM_PTR)
		return bind_pointer(c, i, text);
	return bind_scalar(c, i, text);
}

static int run_bind_args(run_ctx *c)
{
	int rc;

	c->slots = calloc_n(c->k->nparams, sizeof *c->slots);
	c->params = calloc_n(c->k->param_bytes, 1);
	if (!c->slots || !c->params)
		return nomem("parameters");
	for (size_t i = 0; i < c->o.args.n; i++)
		if ((rc = bind_arg(c, c->o.args.v[i])) != 0)
			return rc;
	for (unsigned i = 0; i < c->k->nparams; i++)
		if (!c->slots[i].value)
			return param_err(c, NULL, NULL, "missing --arg for "
					 "parameter '%s' (%s)",
					 c->k->params[i].name,
					 cli_param_type_name(c->k->params[i].type));
	return CLI_EXIT_OK;
}

/* Resolve NAME of --out/--print/--expect to a pointer parameter. */
static int buffer_slot(const run_ctx *c, const char *opt, const char *text,
		       const char *name, size_t n, unsigned *slot)
{
	unsigned i = find_param(c->k, name, n);

	if (i == c->k->nparams || c->k->params[i].type != WE_PARAM_PTR)
		return param_err(c, opt, text, "'%.*s' is not a pointer "
				 "parameter of kernel %s",
				 (int)(n > 80 ? 80 : n), name, c->k->name);
	*slot = i;
	return CLI_EXIT_OK;
}

static int run_bind_requests(run_ctx *c)
{
	int rc;

	for (size_t i = 0; i < c->o.outs.n; i++)
		if ((rc = buffer_slot(c, "--out", c->o.outs.v[i],
				      c->outs[i].a.name, c->outs[i].a.namelen,
				      &c->outs[i].slot)) != 0)
			return rc;
	for (size_t i = 0; i < c->o.prints.n; i++)
		if ((rc = buffer_slot(c, "--print", c->o.prints.v[i],
				      c->prints[i].p.name,
				      c->prints[i].p.namelen,
				      &c->prints[i].slot)) != 0)
			return rc;
	for (size_t i = 0; i < c->o.expects.n; i++)
		if ((rc = buffer_slot(c, "--expect", c->o.expects.v[i],
				      c->expects[i].a.name,
				      c->expects[i].a.namelen,
				      &c->expects[i].slot)) != 0)
			return rc;
	return CLI_EXIT_OK;
}

/* ======================================================================
 * run: buffers
 * ====================================================================== */

/* The initial contents of a pointer parameter: the bytes of a file or
 * the generated spec (zeros need none). */
static int slot_load(param_slot *s)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int rc;

	if (s->spec.kind == CLI_SPEC_FILE) {
		rc = read_file(s->spec.path, &data, &len);
		if (rc)
			return rc;
		s->init = data;
		s->bytes = len;
		return CLI_EXIT_OK;
	}
	s->bytes = s->spec.bytes;
	if (s->spec.kind == CLI_SPEC_ZEROS || s->bytes == 0)
		return CLI_EXIT_OK;
	s->init = malloc((size_t)s->bytes);
	if (!s->init)
		return nomem("buffer contents");
	cli_spec_generate(&s->spec, s->init);
	return CLI_EXIT_OK;
}

/* Allocate a device buffer for s and fill it; *allocated tells whether
 * *ptr must be freed, also on failure. */
static we_status slot_upload(we_device *dev, const param_slot *s,
			     we_devptr *ptr, bool *allocated)
{
	we_status st;

	*allocated = false;
	st = we_malloc(dev, s->bytes ? (size_t)s->bytes : 1, ptr);
	if (st != WE_OK)
		return st;
	*allocated = true;
	if (s->bytes == 0)
		return WE_OK;
	if (!s->init)
		return we_memset(dev, *ptr, 0, (size_t)s->bytes);
	return we_memcpy_htod(dev, *ptr, s->init, (size_t)s->bytes);
}

static void store_ptr(uint8_t *params, const we_param_info *p, we_devptr ptr)
{
	cli_value v;

	v.u = ptr;
	cli_store_elem(CLI_U64, params + p->offset, v);
}

/* run: load, upload and let the host copy go.  stress: load only; every
 * run uploads the contents to its own device. */
static int make_buffer(run_ctx *c, unsigned i)
{
	param_slot *s = &c->slots[i];
	we_status st;
	int rc = slot_load(s);

	if (rc || c->stress)
		return rc;
	st = slot_upload(c->dev, s, &s->ptr, &s->allocated);
	free(s->init);
	s->init = NULL;
	if (st != WE_OK)
		return api_err(c->dev, st);
	store_ptr(c->params, &c->k->params[i], s->ptr);
	return CLI_EXIT_OK;
}

static int run_make_buffers(run_ctx *c)
{
	int rc;

	for (unsigned i = 0; i < c->k->nparams; i++)
		if (c->k->params[i].type == WE_PARAM_PTR &&
		    (rc = make_buffer(c, i)) != 0)
			return rc;
	return CLI_EXIT_OK;
}

static int check_print(run_ctx *c, print_req *r, const char *text)
{
	uint64_t size = cli_elem_size(r->p.type);
	uint64_t avail = c->slots[r->slot].bytes / size;

	if (!r->p.has_count) {
		r->p.count = avail;
		return CLI_EXIT_OK;
	}
	if (r->p.count <= avail)
		return CLI_EXIT_OK;
	return param_err(c, "--print", text, "buffer '%s' holds %" PRIu64
			 " bytes, only %" PRIu64 " %s elements",
			 c->k->params[r->slot].name, c->slots[r->slot].bytes,
			 avail, cli_elem_type_name(r->p.type));
}

static int load_expected(expect_req *x)
{
	size_t len;
	int rc;

	if (x->spec.kind == CLI_SPEC_FILE) {
		rc = read_file(x->spec.path, &x->data, &len);
		x->bytes = len;
		x->spec.count = len;
		return rc;
	}
	x->bytes = x->spec.bytes;
	x->data = malloc(x->bytes ? (size_t)x->bytes : 1);
	if (!x->data)
		return nomem("expected data");
	cli_spec_generate(&x->spec, x->data);
	return CLI_EXIT_OK;
}

static int check_expect(run_ctx *c, expect_req *x, const char *text)
{
	uint64_t have = c->slots[x->slot].bytes;
	int rc = load_expected(x);

	if (rc)
		return rc;
	if (x->bytes <= have)
		return CLI_EXIT_OK;
	return param_err(c, "--expect", text, "expected data has %" PRIu64
			 " bytes but buffer '%s' holds only %" PRIu64,
			 x->bytes, c->k->params[x->slot].name, have);
}

static int run_prepare_checks(run_ctx *c)
{
	int rc;

	for (size_t i = 0; i < c->o.prints.n; i++)
		if ((rc = check_print(c, &c->prints[i], c->o.prints.v[i])) != 0)
			return rc;
	for (size_t i = 0; i < c->o.expects.n; i++)
		if ((rc = check_expect(c, &c->expects[i],
				       c->o.expects.v[i])) != 0)
			return rc;
	return CLI_EXIT_OK;
}

/* ======================================================================
 * run: launch and results
 * ====================================================================== */

/* A launch's notice that is not an error (e.g. threads left unpinned). */
static void print_notice(const run_ctx *c)
{
	const char *n = we_device_notice(c->dev);
	size_t len = strlen(n);

	if (len && !c->o.quiet)
		fprintf(stderr, PROG ": %s%s", n, n[len - 1] == '\n' ? "" : "\n");
}

/* The launch configuration of the options (stress overrides a few). */
static void launch_config(const run_ctx *c, we_launch_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->grid = c->grid;
	cfg->block = c->block;
	cfg->dynamic_shared = (uint32_t)c->shared;
	cfg->max_instructions = c->max_insns;
	cfg->threads = (unsigned)c->threads;
	cfg->lockstep = (unsigned)c->lockstep;
	cfg->batch = (unsigned)c->batch;
	cfg->engine = c->engine;
	cfg->placement = c->placement;
	cfg->schedule_seeded = c->seeded;
	cfg->schedule_seed = c->seed;
	cfg->jitter = c->jitter;
	cfg->check = c->o.check;
	cfg->timeout = c->timeout;
}

/* The first line of text (without its newline). */
static int first_line(const char *text)
{
	size_t n = strcspn(text, "\n");

	return n > INT_MAX ? INT_MAX : (int)n;
}

/* The --check lines of the launch and their count, on stderr. */
static void print_warnings(const run_ctx *c)
{
	const char *w = we_last_warnings(c->dev);
	uint64_t shown = 0, n = c->stats.warnings;

	while (*w) {
		int len = first_line(w);

		fprintf(stderr, PROG ": %.*s\n", len, w);
		shown++;
		w += len + (w[len] == '\n');
	}
	if (n > shown)
		fprintf(stderr, PROG ": check: %" PRIu64 " more hazard%s not "
			"listed\n", n - shown, n - shown == 1 ? "" : "s");
	fprintf(stderr, PROG ": check: %" PRIu64 " hazard%s\n", n,
		n == 1 ? "" : "s");
}

static bool is_verdict(we_status st)
{
	return st == WE_ERR_EXCEPTION || st == WE_ERR_DEADLOCK ||
	       st == WE_ERR_TIMEOUT;
}

/* A failed launch: its report as text on stderr or, with --report=json,
 * as JSON on stdout with the report's first line on stderr. */
static int launch_err(const run_ctx *c, we_status st)
{
	const char *json = we_last_report_json(c->dev);
	const char *text = we_last_error(c->dev);
	size_t n = strlen(json);

	if (c->report != CLI_REPORT_JSON || !is_verdict(st) || n == 0)
		return api_err(c->dev, st);
	printf("%s%s", json, json[n - 1] == '\n' ? "" : "\n");
	if (*text)
		fprintf(stderr, PROG ": %.*s\n", first_line(text), text);
	else
		errorf(0, "%s", we_status_name(st));
	return cli_exit_for_status(st);
}

static void trace_line(void *ctx, const char *line)
{
	stream_line(ctx, line);
}

static int run_launch(run_ctx *c)
{
	we_launch_config cfg;
	out_stream trace;
	we_status st;
	int rc;

	launch_config(c, &cfg);
	if (c->o.trace) {
		if ((rc = stream_open(&trace, c->o.trace)) != 0)
			return rc;
		cfg.trace = trace_line;
		cfg.trace_ctx = &trace;
	}
	memset(&c->stats, 0, sizeof c->stats);
	cli_intr_watch(c->intr, c->dev);
	st = we_launch(c->dev, c->mod, c->k->name, &cfg, c->params,
		       c->k->param_bytes, &c->stats);
	cli_intr_unwatch(c->intr, c->dev);
	print_notice(c);
	if (c->o.check)
		print_warnings(c);
	rc = st == WE_OK ? CLI_EXIT_OK : launch_err(c, st);
	if (c->o.trace)
		rc = worse(rc, stream_close(&trace));
	return rc;
}

static double rate(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
}

static void print_summary(const run_ctx *c)
{
	const we_launch_stats *s = &c->stats;

	fprintf(stderr, PROG ": kernel %s, grid %" PRIu32 ",%" PRIu32 ",%"
		PRIu32 ", block %" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n",
		c->k->name, c->grid.x, c->grid.y, c->grid.z, c->block.x,
		c->block.y, c->block.z);
	fprintf(stderr, PROG ": %" PRIu64 " CTAs, %" PRIu64
		" warp-instructions, %" PRIu64 " thread-instructions, %"
		PRIu64 " barriers\n", s->ctas, s->warp_insns, s->thread_insns,
		s->barriers);
	fprintf(stderr, PROG ": %.6f s, %.1f CTAs/s, %.1f warp-instr/s\n",
		s->seconds, rate(s->ctas, s->seconds),
		rate(s->warp_insns, s->seconds));
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_number(const char *key, double v, bool valid)
{
	if (valid && isfinite(v))
		printf(",\"%s\":%.9g", key, v);
	else
		printf(",\"%s\":null", key);
}

static void print_json(const run_ctx *c)
{
	const we_launch_stats *s = &c->stats;
	bool timed = s->seconds > 0;

	fputs("{\"kernel\":", stdout);
	json_string(c->k->name);
	printf(",\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]",
	       c->grid.x, c->grid.y, c->grid.z);
	printf(",\"block\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]",
	       c->block.x, c->block.y, c->block.z);
	printf(",\"ctas\":%" PRIu64 ",\"warp_instructions\":%" PRIu64
	       ",\"thread_instructions\":%" PRIu64 ",\"barriers\":%" PRIu64,
	       s->ctas, s->warp_insns, s->thread_insns, s->barriers);
	json_number("seconds", s->seconds, true);
	json_number("ctas_per_second", rate(s->ctas, s->seconds), timed);
	json_number("warp_instructions_per_second",
		    rate(s->warp_insns, s->seconds), timed);
	printf(",\"warnings\":%" PRIu64, s->warnings);
	if (c->seeded)
		printf(",\"schedule_seed\":%" PRIu64, c->seed);
	else
		fputs(",\"schedule_seed\":null", stdout);
	if (c->jitter)
		printf(",\"jitter_seed\":%" PRIu64, c->seed);
	fputs("}\n", stdout);
}

/* Read a buffer back once; later requests reuse the copy. */
static int fetch_result(run_ctx *c, unsigned i)
{
	param_slot *s = &c->slots[i];
	we_status st;

	if (s->result)
		return CLI_EXIT_OK;
	s->result = malloc(s->bytes ? (size_t)s->bytes : 1);
	if (!s->result)
		return nomem("buffer read-back");
	if (s->bytes == 0)
		return CLI_EXIT_OK;
	st = we_memcpy_dtoh(c->dev, s->result, s->ptr, (size_t)s->bytes);
	if (st == WE_OK)
		return CLI_EXIT_OK;
	free(s->result);
	s->result = NULL;
	return api_err(c->dev, st);
}

static int write_out(run_ctx *c, const out_req *r)
{
	int rc = fetch_result(c, r->slot);

	if (rc)
		return rc;
	return write_file_atomic(r->a.value, c->slots[r->slot].result,
				 (size_t)c->slots[r->slot].bytes);
}

static void print_values(const print_req *r, const uint8_t *p)
{
	size_t size = cli_elem_size(r->p.type);
	bool rows = r->p.count > PRINT_COLUMN_MIN;
	char buf[VALUE_TEXT];

	printf("# %.*s: %" PRIu64 " x %s\n", (int)r->p.namelen, r->p.name,
	       r->p.count, cli_elem_type_name(r->p.type));
	for (uint64_t i = 0; i < r->p.count; i++) {
		cli_format_elem(r->p.type, cli_load_elem(r->p.type, p + i * size),
				buf, sizeof buf);
		if (!rows)
			printf("%s\n", buf);
		else if (i % PRINT_PER_ROW == 0)
			printf("%s%8" PRIu64 ": %s", i ? "\n" : "", i, buf);
		else
			printf(" %s", buf);
	}
	if (rows)
		putchar('\n');
}

static int print_buffer(run_ctx *c, const print_req *r)
{
	int rc = fetch_result(c, r->slot);

	if (rc == CLI_EXIT_OK)
		print_values(r, c->slots[r->slot].result);
	return rc;
}

static void report_mismatches(const expect_req *x, const cli_mismatch *m,
			      uint64_t bad, uint64_t count)
{
	char got[VALUE_TEXT], exp[VALUE_TEXT];
	uint64_t shown = bad < MISMATCHES_SHOWN ? bad : MISMATCHES_SHOWN;

	printf("check %.*s: FAILED, %" PRIu64 " of %" PRIu64
	       " elements differ\n", (int)x->a.namelen, x->a.name, bad, count);
	for (uint64_t i = 0; i < shown; i++) {
		cli_format_elem(x->spec.type, m[i].got, got, sizeof got);
		cli_format_elem(x->spec.type, m[i].exp, exp, sizeof exp);
		printf("  [%" PRIu64 "] got %s, expected %s\n", m[i].index,
		       got, exp);
	}
	if (bad > shown)
		printf("  ... and %" PRIu64 " more\n", bad - shown);
}

static int check_buffer(run_ctx *c, const expect_req *x)
{
	cli_mismatch m[MISMATCHES_SHOWN];
	uint64_t count = x->bytes / cli_elem_size(x->spec.type), bad;
	int rc = fetch_result(c, x->slot);

	if (rc)
		return rc;
	bad = cli_compare(x->spec.type, c->slots[x->slot].result, x->data,
			  count, x->spec.tol, m, MISMATCHES_SHOWN);
	if (bad == 0) {
		printf("check %.*s: OK (%" PRIu64 " elements)\n",
		       (int)x->a.namelen, x->a.name, count);
		return CLI_EXIT_OK;
	}
	report_mismatches(x, m, bad, count);
	return CLI_EXIT_CHECK;
}

static int run_results(run_ctx *c)
{
	int rc = CLI_EXIT_OK;

	if (!c->o.quiet)
		print_summary(c);
	for (size_t i = 0; i < c->o.outs.n; i++)
		rc = worse(rc, write_out(c, &c->outs[i]));
	for (size_t i = 0; i < c->o.prints.n; i++)
		rc = worse(rc, print_buffer(c, &c->prints[i]));
	for (size_t i = 0; i < c->o.expects.n; i++)
		rc = worse(rc, check_buffer(c, &c->expects[i]));
	if (c->json)
		print_json(c);
	return rc;
}

/* ======================================================================
 * run
 * ====================================================================== */

static int run_free(run_ctx *c, int rc)
{
	for (unsigned i = 0; c->slots && i < c->k->nparams; i++) {
		we_status st = c->slots[i].allocated
			       ? we_free(c->dev, c->slots[i].ptr) : WE_OK;

		if (st != WE_OK)
			rc = worse(rc, api_err(c->dev, st));
		free(c->slots[i].result);
		free(c->slots[i].init);
	}
	for (size_t i = 0; c->expects && i < c->o.expects.n; i++)
		free(c->expects[i].data);
	free(c->slots);
	free(c->params);
	free(c->outs);
	free(c->prints);
	free(c->expects);
	free(c->lists);
	free(c->image);
	we_module_destroy(c->mod);
	we_device_destroy(c->dev);
	return rc;
}

static int run_setup(run_ctx *c)
{
	int rc;

	if ((rc = create_device(c->max_memory, (unsigned)c->threads,
				&c->dev)) != 0 ||
	    (rc = load_module_keep(c->dev, c->o.file, &c->mod,
				   c->stress ? &c->image : NULL,
				   &c->image_len)) != 0 ||
	    (rc = select_kernel(c->mod, c->o.file, c->o.kernel, &c->k)) != 0 ||
	    (rc = check_kernel_info(c->k)) != 0 ||
	    (rc = run_bind_args(c)) != 0 ||
	    (rc = run_bind_requests(c)) != 0 ||
	    (rc = run_make_buffers(c)) != 0)
		return rc;
	return run_prepare_checks(c);
}

static int cmd_run(cli_intr *intr, int argc, char **argv)
{
	run_ctx c;
	int rc;

	memset(&c, 0, sizeof c);
	c.intr = intr;
	c.cmd = "run";
	rc = run_options(&c, argc, argv);
	if (rc == CLI_EXIT_OK && c.o.help)
		fputs(help_run, stdout);
	else if (rc == CLI_EXIT_OK && (rc = run_setup(&c)) == CLI_EXIT_OK &&
		 (rc = run_launch(&c)) == CLI_EXIT_OK)
		rc = run_results(&c);
	return run_free(&c, rc);
}

/* ======================================================================
 * stress
 *
 * Jobs (host threads) take the runs in seed order, each on its own
 * device, and finish them in any order; the verdicts are then settled in
 * seed order (the first ok run, by seed, is the reference the later ones
 * are compared with), so the outcome does not depend on the number of
 * jobs or on timing.  A job waits before starting a run while more than
 * STRESS_WINDOW_PER_JOB runs per job lie between the last settled one and
 * it, which bounds the buffers held in memory.
 * ====================================================================== */

#define STRESS_WINDOW_PER_JOB 4
#define STRESS_FAILS_SHOWN 20      /* in the table */
#define STRESS_FAILS_KEPT 1000     /* in --stats=json */
#define REASON_TEXT 256
#define PROGRESS_INTERVAL 0.1      /* seconds between progress updates */

typedef struct stress_run {
	uint64_t seed;
	bool done;                 /* finished, waiting to be settled */
	cli_class cls;
	uint8_t **bufs;            /* per parameter: contents after OK */
	uint64_t warnings;
	char reason[REASON_TEXT];
	char warning[REASON_TEXT]; /* its first --check line */
} stress_run;

typedef struct stress_fail {
	uint64_t seed;
	cli_class cls;
	char reason[REASON_TEXT];
	bool replayed;             /* jitter: rerun under its seeded schedule, */
	cli_class replay_cls;      /* which gave this class                    */
} stress_fail;

/* Consecutive failing seeds of one class. */
typedef struct seed_range {
	uint64_t first, last;
	cli_class cls;
} seed_range;

typedef struct stress_ctx {
	const run_ctx *c;          /* the prototype, read-only */
	uint64_t runs;
	unsigned jobs;
	bool progress;             /* stderr is a terminal */
	pthread_mutex_t lock;
	pthread_cond_t cv;
	/* under lock */
	uint64_t next, completed, settled, failing;
	stress_run *win;           /* run i is win[i % nwin] */
	size_t nwin;
	uint8_t **ref;             /* the reference run's buffers */
	uint64_t ref_seed;
	uint64_t count[CLI_NCLASS];
	stress_fail *fails;
	size_t nfails;
	seed_range *ranges;        /* every failing run, in seed order */
	size_t nranges, ranges_cap;
	bool ranges_oom;           /* some seeds could not be kept */
	size_t rnext;              /* jitter: next failure to replay */
	uint64_t warnings, warned_runs, warned_seed;
	char warning[REASON_TEXT];
	int fatal;                 /* exit status of an error, or 0 */
	char fatal_msg[512];
	bool stop;
	double last_progress;
	bool progress_shown;
} stress_ctx;

static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A lock, wait or signal that fails leaves the jobs' state unknown. */
static void pthread_die(const char *what, int err)
{
	fprintf(stderr, PROG ": internal error: %s failed (error %d)\n", what,
		err);
	_Exit(CLI_EXIT_INTERNAL);
}

static void stress_lock(stress_ctx *sc)
{
	int e = pthread_mutex_lock(&sc->lock);

	if (e)
		pthread_die("pthread_mutex_lock", e);
}

static void stress_unlock(stress_ctx *sc)
{
	int e = pthread_mutex_unlock(&sc->lock);

	if (e)
		pthread_die("pthread_mutex_unlock", e);
}

static void stress_wait(stress_ctx *sc)
{
	int e = pthread_cond_wait(&sc->cv, &sc->lock);

	if (e)
		pthread_die("pthread_cond_wait", e);
}

static void stress_wake(stress_ctx *sc)
{
	int e = pthread_cond_broadcast(&sc->cv);

	if (e)
		pthread_die("pthread_cond_broadcast", e);
}

static void free_bufs(uint8_t **bufs, unsigned n)
{
	if (!bufs)
		return;
	for (unsigned i = 0; i < n; i++)
		free(bufs[i]);
	free(bufs);
}

/* Copy the first line of text into buf. */
static void copy_line(char *buf, size_t len, const char *text)
{
	snprintf(buf, len, "%.*s", first_line(text), text);
}

/* After an OK launch: read every buffer back. */
static we_status stress_read_back(const run_ctx *c, we_device *dev,
				  const we_devptr *ptrs, stress_run *r)
{
	for (unsigned i = 0; i < c->k->nparams; i++) {
		const param_slot *s = &c->slots[i];

		if (c->k->params[i].type != WE_PARAM_PTR)
			continue;
		r->bufs[i] = malloc(s->bytes ? (size_t)s->bytes : 1);
		if (!r->bufs[i])
			return WE_ERR_NOMEM;
		if (s->bytes) {
			we_status st = we_memcpy_dtoh(dev, r->bufs[i], ptrs[i],
						      (size_t)s->bytes);

			if (st != WE_OK)
				return st;
		}
	}
	return WE_OK;
}

/* The --expect checks of an OK run; the first failing one makes it
 * differ. */
static void stress_expect(const run_ctx *c, stress_run *r)
{
	for (size_t i = 0; i < c->o.expects.n; i++) {
		const expect_req *x = &c->expects[i];
		uint64_t count = x->bytes / cli_elem_size(x->spec.type), bad;
		char got[VALUE_TEXT], exp[VALUE_TEXT];
		cli_mismatch m;

		bad = cli_compare(x->spec.type, r->bufs[x->slot], x->data, count,
				  x->spec.tol, &m, 1);
		if (bad == 0)
			continue;
		cli_format_elem(x->spec.type, m.got, got, sizeof got);
		cli_format_elem(x->spec.type, m.exp, exp, sizeof exp);
		snprintf(r->reason, sizeof r->reason, "check %.*s: %" PRIu64
			 " of %" PRIu64 " elements differ, first [%" PRIu64
			 "] got %s, expected %s", (int)x->a.namelen, x->a.name,
			 bad, count, m.index, got, exp);
		r->cls = CLI_CLASS_DIFFERS;
		return;
	}
}

/* Upload the buffers, launch with r->seed (its seeded schedule, or with
 * jitter its random delays) and classify the outcome as far as one run
 * can tell (the comparison with the reference comes when the run is
 * settled).  Returns 0, or the exit status of an error that is no verdict
 * on the kernel, with its message in msg. */
static int stress_one(const run_ctx *c, stress_run *r, bool jitter, char *msg,
		      size_t msglen)
{
	unsigned np = c->k->nparams;
	we_devptr *ptrs = calloc_n(np, sizeof *ptrs);
	bool *alloc = calloc_n(np, sizeof *alloc);
	uint8_t *params = calloc_n(c->k->param_bytes, 1);
	we_device_config dc;
	we_launch_config cfg;
	we_launch_stats stats;
	we_device *dev = NULL;
	we_module *mod = NULL;
	we_status st = WE_ERR_NOMEM;
	int rc = CLI_EXIT_OK;

	r->bufs = calloc_n(np, sizeof *r->bufs);
	memset(&dc, 0, sizeof dc);
	dc.max_memory = c->max_memory;
	dc.threads = 1;
	if (ptrs && alloc && params && r->bufs)
		st = we_device_create(&dc, &dev);
	if (st == WE_OK)
		st = load_module_data(dev, c->image, c->image_len, c->o.file,
				      &mod);
	if (st == WE_OK && c->k->param_bytes)
		memcpy(params, c->params, c->k->param_bytes);
	for (unsigned i = 0; st == WE_OK && i < np; i++) {
		if (c->k->params[i].type != WE_PARAM_PTR)
			continue;
		st = slot_upload(dev, &c->slots[i], &ptrs[i], &alloc[i]);
		store_ptr(params, &c->k->params[i], ptrs[i]);
	}
	if (st == WE_OK) {
		launch_config(c, &cfg);
		cfg.threads = 1;
		cfg.placement = WE_PLACE_NONE;
		cfg.schedule_seeded = !jitter;
		cfg.jitter = jitter;
		cfg.schedule_seed = r->seed;
		memset(&stats, 0, sizeof stats);
		cli_intr_watch(c->intr, dev);
		st = we_launch(dev, mod, c->k->name, &cfg, params,
			       c->k->param_bytes, &stats);
		cli_intr_unwatch(c->intr, dev);
		r->warnings = stats.warnings;
		copy_line(r->warning, sizeof r->warning, we_last_warnings(dev));
		if (is_verdict(st)) {
			cli_class_for_status(st, &r->cls);
			copy_line(r->reason, sizeof r->reason,
				  *we_last_error(dev) ? we_last_error(dev)
						      : we_status_name(st));
			st = WE_OK;
		} else if (st == WE_OK) {
			r->cls = CLI_CLASS_OK;
			st = stress_read_back(c, dev, ptrs, r);
			if (st == WE_OK)
				stress_expect(c, r);
		}
	}
	if (st != WE_OK) {
		rc = cli_exit_for_status(st);
		copy_line(msg, msglen, dev && *we_last_error(dev)
				       ? we_last_error(dev)
				       : st == WE_ERR_NOMEM ? "out of memory"
				       : we_status_name(st));
	}
	for (unsigned i = 0; i < np; i++)
		if (alloc[i] && we_free(dev, ptrs[i]) != WE_OK && !rc) {
			rc = CLI_EXIT_INTERNAL;
			copy_line(msg, msglen, we_last_error(dev));
		}
	we_module_destroy(mod);
	we_device_destroy(dev);
	free(params);
	free(alloc);
	free(ptrs);
	return rc;
}

/* Compare an OK run with the reference; the first difference makes it
 * differ. */
static void stress_compare(const stress_ctx *sc, stress_run *r)
{
	const run_ctx *c = sc->c;

	for (unsigned i = 0; i < c->k->nparams; i++) {
		const param_slot *s = &c->slots[i];
		cli_elem_type t = s->spec.type;
		size_t size = cli_elem_size(t), j = 0;
		char got[VALUE_TEXT], ref[VALUE_TEXT];

		if (c->k->params[i].type != WE_PARAM_PTR ||
		    memcmp(sc->ref[i], r->bufs[i], (size_t)s->bytes) == 0)
			continue;
		while (sc->ref[i][j] == r->bufs[i][j])
			j++;
		j -= j % size;
		cli_format_elem(t, cli_load_elem(t, r->bufs[i] + j), got,
				sizeof got);
		cli_format_elem(t, cli_load_elem(t, sc->ref[i] + j), ref,
				sizeof ref);
		snprintf(r->reason, sizeof r->reason, "buffer %s differs at "
			 "element %zu (%s): %s, but %s in seed %" PRIu64,
			 c->k->params[i].name, j / size, cli_elem_type_name(t),
			 got, ref, sc->ref_seed);
		r->cls = CLI_CLASS_DIFFERS;
		return;
	}
}

/* Add a failing run's seed to the ranges (under lock; seeds come in
 * order). */
static void stress_range_add(stress_ctx *sc, uint64_t seed, cli_class cls)
{
	seed_range *last = sc->nranges ? &sc->ranges[sc->nranges - 1] : NULL;

	if (last && last->cls == cls && last->last + 1 == seed) {
		last->last = seed;
		return;
	}
	if (sc->nranges == sc->ranges_cap) {
		size_t cap = sc->ranges_cap ? 2 * sc->ranges_cap : 64;
		seed_range *p = realloc(sc->ranges, cap * sizeof *p);

		if (!p) {
			sc->ranges_oom = true;
			return;
		}
		sc->ranges = p;
		sc->ranges_cap = cap;
	}
	sc->ranges[sc->nranges++] = (seed_range){ seed, seed, cls };
}

/* Settle the verdict of the lowest unsettled run (under lock). */
static void stress_settle(stress_ctx *sc, stress_run *r)
{
	if (r->cls == CLI_CLASS_OK && !sc->ref) {
		sc->ref = r->bufs;
		sc->ref_seed = r->seed;
		r->bufs = NULL;
	} else if (r->cls == CLI_CLASS_OK) {
		stress_compare(sc, r);
		if (r->cls != CLI_CLASS_OK)
			sc->failing++;
	}
	sc->count[r->cls]++;
	if (r->warnings) {
		sc->warnings += r->warnings;
		if (sc->warned_runs++ == 0) {
			sc->warned_seed = r->seed;
			memcpy(sc->warning, r->warning, sizeof sc->warning);
		}
	}
	if (r->cls != CLI_CLASS_OK)
		stress_range_add(sc, r->seed, r->cls);
	if (r->cls != CLI_CLASS_OK && sc->nfails < STRESS_FAILS_KEPT) {
		stress_fail *f = &sc->fails[sc->nfails++];

		f->seed = r->seed;
		f->cls = r->cls;
		memcpy(f->reason, r->reason, sizeof f->reason);
	}
	free_bufs(r->bufs, sc->c->k->nparams);
	r->bufs = NULL;
	r->done = false;
}

/* "\r"-updated progress on a terminal (under lock). */
static void stress_progress(stress_ctx *sc, bool last)
{
	double t;

	if (!sc->progress)
		return;
	t = now_s();
	if (!last && t - sc->last_progress < PROGRESS_INTERVAL)
		return;
	sc->last_progress = t;
	sc->progress_shown = true;
	fprintf(stderr, "\r" PROG ": stress: %" PRIu64 "/%" PRIu64
		" runs, %" PRIu64 " failing%s", sc->completed, sc->runs,
		sc->failing, last ? "\n" : "");
}

/* Record a run just finished and settle what can be settled. */
static void stress_done(stress_ctx *sc, uint64_t i, stress_run *r)
{
	stress_run *w;

	r->done = true;
	sc->win[i % sc->nwin] = *r;
	sc->completed++;
	if (r->cls != CLI_CLASS_OK)
		sc->failing++;
	while (sc->settled < sc->next &&
	       (w = &sc->win[sc->settled % sc->nwin])->done) {
		stress_settle(sc, w);
		sc->settled++;
	}
	stress_progress(sc, false);
}

/* Under the lock: run failure rc (message msg) stops every job; the
 * first one is reported. */
static void stress_fatal(stress_ctx *sc, int rc, const char *msg)
{
	if (!sc->fatal) {
		sc->fatal = rc;
		snprintf(sc->fatal_msg, sizeof sc->fatal_msg, "%s", msg);
	}
	sc->stop = true;
}

static void *stress_job(void *arg)
{
	stress_ctx *sc = arg;
	stress_run r;
	char msg[sizeof sc->fatal_msg];
	uint64_t i;
	int rc;

	for (;;) {
		stress_lock(sc);
		while (!sc->stop && sc->next < sc->runs &&
		       sc->next - sc->settled >= sc->nwin)
			stress_wait(sc);
		if (sc->stop || sc->next >= sc->runs) {
			stress_unlock(sc);
			return NULL;
		}
		i = sc->next++;
		stress_unlock(sc);
		memset(&r, 0, sizeof r);
		r.seed = sc->c->first_seed + i;
		msg[0] = '\0';
		rc = stress_one(sc->c, &r, sc->c->jitter, msg, sizeof msg);
		stress_lock(sc);
		if (rc) {
			stress_fatal(sc, rc, msg);
			free_bufs(r.bufs, sc->c->k->nparams);
		} else {
			stress_done(sc, i, &r);
		}
		stress_wake(sc);
		stress_unlock(sc);
	}
}

/* Jitter: rerun a listed failing run under its seeded schedule, which
 * replays exactly when it gives the same class (the reference buffers
 * are fixed by now: no lock to compare with them). */
static void *stress_replay_job(void *arg)
{
	stress_ctx *sc = arg;
	stress_run r;
	char msg[sizeof sc->fatal_msg];
	size_t i;
	int rc;

	for (;;) {
		stress_lock(sc);
		if (sc->stop || sc->rnext >= sc->nfails) {
			stress_unlock(sc);
			return NULL;
		}
		i = sc->rnext++;
		stress_unlock(sc);
		memset(&r, 0, sizeof r);
		r.seed = sc->fails[i].seed;
		msg[0] = '\0';
		rc = stress_one(sc->c, &r, false, msg, sizeof msg);
		if (!rc && r.cls == CLI_CLASS_OK && sc->ref)
			stress_compare(sc, &r);
		stress_lock(sc);
		if (rc) {
			stress_fatal(sc, rc, msg);
		} else {
			sc->fails[i].replayed = true;
			sc->fails[i].replay_cls = r.cls;
		}
		stress_unlock(sc);
		free_bufs(r.bufs, sc->c->k->nparams);
	}
}

/* ---- the replay command -------------------------------------------------- */

typedef struct strbuf { char *p; size_t len, cap; bool oom; } strbuf;

static char *sb_room(strbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	char *np;

	if (b->oom)
		return NULL;
	while (cap - b->len < n + 1)
		cap *= 2;
	if (cap != b->cap) {
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = true;
			return NULL;
		}
		b->p = np;
		b->cap = cap;
	}
	return b->p + b->len;
}

/* Append " WORD", quoted for a POSIX shell (no space at the start). */
static void sb_word(strbuf *b, const char *word)
{
	size_t n = cli_shell_quote(word, NULL, 0) + (b->len > 0);
	char *p = sb_room(b, n);

	if (!p)
		return;
	if (b->len > 0)
		*p++ = ' ';
	cli_shell_quote(word, p, n + 1);
	b->len += n;
}

static void sb_opt(strbuf *b, const char *opt, const char *value)
{
	if (!value)
		return;
	sb_word(b, opt);
	sb_word(b, value);
}

/* "warpemu run FILE <the launch options> --threads 1 --schedule=seed:N":
 * the command line that reruns one stress run exactly; with jitter,
 * "--schedule=jitter:N", which reruns it with the same delays but not the
 * same timing (malloc'd, NULL when out of memory). */
static char *replay_command(const run_ctx *c, uint64_t seed, bool jitter)
{
	const run_opts *o = &c->o;
	strbuf b = { NULL, 0, 0, false };
	char word[64];

	sb_word(&b, PROG);
	sb_word(&b, "run");
	if (o->file[0] == '-' && o->file[1] != '\0') {
		/* given after "--": the same file as ./-NAME */
		char *dot = malloc(strlen(o->file) + 3);

		if (!dot) {
			free(b.p);
			return NULL;
		}
		sprintf(dot, "./%s", o->file);
		sb_word(&b, dot);
		free(dot);
	} else {
		sb_word(&b, o->file);
	}
	sb_opt(&b, "--kernel", o->kernel);
	sb_opt(&b, "--grid", o->grid);
	sb_opt(&b, "--block", o->block);
	for (size_t i = 0; i < o->args.n; i++)
		sb_opt(&b, "--arg", o->args.v[i]);
	for (size_t i = 0; i < o->expects.n; i++)
		sb_opt(&b, "--expect", o->expects.v[i]);
	sb_opt(&b, "--shared", o->shared);
	sb_opt(&b, "--max-instructions", o->max_insns);
	sb_opt(&b, "--max-memory", o->max_memory);
	sb_opt(&b, "--engine", o->engine);
	sb_opt(&b, "--timeout", o->timeout);
	if (o->check)
		sb_word(&b, "--check");
	sb_opt(&b, "--threads", "1");
	snprintf(word, sizeof word, "--schedule=%s:%" PRIu64,
		 jitter ? "jitter" : "seed", seed);
	sb_word(&b, word);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* ---- the summary ---------------------------------------------------------- */

/* The seeds of the failing runs after `after` (those the table does not
 * list), class by class, consecutive ones as ranges, wrapped. */
static void print_more_seeds(const stress_ctx *sc, uint64_t n, uint64_t after)
{
	printf("  and %" PRIu64 " more, by class:\n", n);
	for (unsigned k = 1; k < CLI_NCLASS; k++) {
		size_t col = 0;

		for (size_t i = 0; i < sc->nranges; i++) {
			const seed_range *r = &sc->ranges[i];
			uint64_t first = r->first > after ? r->first : after + 1;
			char item[48];
			int len;

			if (r->cls != (cli_class)k || r->last <= after)
				continue;
			if (first == r->last)
				len = snprintf(item, sizeof item, "%" PRIu64, first);
			else
				len = snprintf(item, sizeof item, "%" PRIu64 "-%" PRIu64,
					       first, r->last);
			if (col == 0) {
				col = (size_t)printf("    %s seeds %s",
						     cli_class_name((cli_class)k),
						     item);
			} else if (col + (size_t)len + 2 > 78) {
				printf(",\n");
				col = (size_t)printf("      %s", item);
			} else {
				col += (size_t)printf(", %s", item);
			}
		}
		if (col)
			putchar('\n');
	}
	if (sc->ranges_oom)
		printf("    (out of memory: not every seed is listed)\n");
}

static void print_stress_table(const stress_ctx *sc, double seconds)
{
	const run_ctx *c = sc->c;
	size_t shown = sc->nfails < STRESS_FAILS_SHOWN ? sc->nfails
						       : STRESS_FAILS_SHOWN;
	uint64_t failing = sc->runs - sc->count[CLI_CLASS_OK];

	printf("stress: kernel %s, grid %" PRIu32 ",%" PRIu32 ",%" PRIu32
	       ", block %" PRIu32 ",%" PRIu32 ",%" PRIu32 ", %" PRIu64
	       " run%s (seeds %" PRIu64 "..%" PRIu64 "%s), %u job%s, %.2f s\n",
	       c->k->name, c->grid.x, c->grid.y, c->grid.z, c->block.x,
	       c->block.y, c->block.z, sc->runs, sc->runs == 1 ? "" : "s",
	       c->first_seed, c->first_seed + (sc->runs - 1),
	       c->jitter ? ", jitter" : "", sc->jobs, sc->jobs == 1 ? "" : "s",
	       seconds);
	for (unsigned k = 0; k < CLI_NCLASS; k++)
		printf("  %-10s %10" PRIu64 "\n", cli_class_name((cli_class)k),
		       sc->count[k]);
	if (c->o.check) {
		printf("  check: %" PRIu64 " hazard%s in %" PRIu64 " run%s\n",
		       sc->warnings, sc->warnings == 1 ? "" : "s",
		       sc->warned_runs, sc->warned_runs == 1 ? "" : "s");
		if (sc->warned_runs)
			printf("    first (seed %" PRIu64 "): %s\n",
			       sc->warned_seed, sc->warning);
	}
	if (failing == 0)
		return;
	printf("failing runs%s:\n", c->jitter ? " (jitter: real thread timing, "
	       "not replayable exactly)" : "");
	for (size_t i = 0; i < shown; i++) {
		const stress_fail *f = &sc->fails[i];
		char *cmd = replay_command(c, f->seed, c->jitter);
		char *exact = c->jitter && f->replayed && f->replay_cls == f->cls
			      ? replay_command(c, f->seed, false) : NULL;

		printf("  seed %" PRIu64 ": %s: %s\n", f->seed,
		       cli_class_name(f->cls), f->reason);
		if (!c->jitter) {
			printf("    replay: %s\n", cmd ? cmd : "(out of memory)");
		} else {
			printf("    rerun: %s\n", cmd ? cmd : "(out of memory)");
			if (f->replayed && f->replay_cls == f->cls)
				printf("    seeded replay (also %s, exact): %s\n",
				       cli_class_name(f->cls),
				       exact ? exact : "(out of memory)");
			else if (f->replayed)
				printf("    no exact replay: its seeded schedule "
				       "gives %s\n", cli_class_name(f->replay_cls));
		}
		free(cmd);
		free(exact);
	}
	if (failing > shown)
		print_more_seeds(sc, failing - shown,
				 shown ? sc->fails[shown - 1].seed : 0);
}

static void print_stress_json(const stress_ctx *sc, double seconds)
{
	const run_ctx *c = sc->c;

	fputs("{\"kernel\":", stdout);
	json_string(c->k->name);
	printf(",\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]",
	       c->grid.x, c->grid.y, c->grid.z);
	printf(",\"block\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]",
	       c->block.x, c->block.y, c->block.z);
	printf(",\"runs\":%" PRIu64 ",\"first_seed\":%" PRIu64
	       ",\"jobs\":%u", sc->runs, c->first_seed, sc->jobs);
	json_number("seconds", seconds, true);
	for (unsigned k = 0; k < CLI_NCLASS; k++)
		printf(",\"%s\":%" PRIu64, cli_class_name((cli_class)k),
		       sc->count[k]);
	printf(",\"jitter\":%s,\"warnings\":%" PRIu64,
	       c->jitter ? "true" : "false", sc->warnings);
	if (sc->ref)
		printf(",\"reference_seed\":%" PRIu64, sc->ref_seed);
	else
		fputs(",\"reference_seed\":null", stdout);
	fputs(",\"failures\":[", stdout);
	for (size_t i = 0; i < sc->nfails; i++) {
		const stress_fail *f = &sc->fails[i];
		bool exact = !c->jitter || (f->replayed && f->replay_cls == f->cls);
		char *cmd = exact ? replay_command(c, f->seed, false) : NULL;

		printf("%s{\"seed\":%" PRIu64 ",\"class\":\"%s\",\"reason\":",
		       i ? "," : "", f->seed, cli_class_name(f->cls));
		json_string(f->reason);
		fputs(",\"replay\":", stdout);
		if (cmd)
			json_string(cmd);
		else
			fputs("null", stdout);
		free(cmd);
		if (c->jitter) {
			cmd = replay_command(c, f->seed, true);
			fputs(",\"rerun\":", stdout);
			if (cmd)
				json_string(cmd);
			else
				fputs("null", stdout);
			free(cmd);
			if (f->replayed)
				printf(",\"seeded_class\":\"%s\"",
				       cli_class_name(f->replay_cls));
		}
		putchar('}');
	}
	printf("],\"failures_not_listed\":%" PRIu64,
	       sc->runs - sc->count[CLI_CLASS_OK] - sc->nfails);
	fputs(",\"failing_seeds\":[", stdout);
	for (size_t i = 0; i < sc->nranges; i++)
		printf("%s{\"class\":\"%s\",\"first\":%" PRIu64 ",\"last\":%"
		       PRIu64 "}", i ? "," : "",
		       cli_class_name(sc->ranges[i].cls), sc->ranges[i].first,
		       sc->ranges[i].last);
	printf("],\"failing_seeds_complete\":%s}\n",
	       sc->ranges_oom ? "false" : "true");
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)CLI_JOBS_MAX ? CLI_JOBS_MAX : (unsigned)n;
}

static int stress_alloc(stress_ctx *sc, const run_ctx *c)
{
	uint64_t kept = c->runs < STRESS_FAILS_KEPT ? c->runs
						    : STRESS_FAILS_KEPT;

	memset(sc, 0, sizeof *sc);
	sc->c = c;
	sc->runs = c->runs;
	sc->jobs = c->jobs ? c->jobs : online_cpus();
	if (sc->jobs > sc->runs)
		sc->jobs = (unsigned)sc->runs;
	sc->nwin = (size_t)sc->jobs * STRESS_WINDOW_PER_JOB;
	sc->progress = !c->o.quiet && isatty(STDERR_FILENO);
	sc->win = calloc(sc->nwin, sizeof *sc->win);
	sc->fails = calloc((size_t)kept, sizeof *sc->fails);
	if (sc->win && sc->fails)
		return CLI_EXIT_OK;
	free(sc->win);
	free(sc->fails);
	return nomem("stress");
}

/* Start the jobs (fn) and wait for them; 0 or the exit status of an
 * error that stopped them (message printed). */
static int stress_jobs(stress_ctx *sc, void *(*fn)(void *))
{
	pthread_t *tids = calloc(sc->jobs, sizeof *tids);
	unsigned started = 0;
	int e;

	if (!tids)
		return nomem("stress jobs");
	for (; started < sc->jobs; started++) {
		e = pthread_create(&tids[started], NULL, fn, sc);
		if (e == 0)
			continue;
		stress_lock(sc);
		if (!sc->fatal) {
			sc->fatal = CLI_EXIT_INTERNAL;
			snprintf(sc->fatal_msg, sizeof sc->fatal_msg, "cannot "
				 "start stress job %u: %s", started, strerror(e));
		}
		sc->stop = true;
		stress_wake(sc);
		stress_unlock(sc);
		break;
	}
	for (unsigned i = 0; i < started; i++)
		if ((e = pthread_join(tids[i], NULL)) != 0)
			pthread_die("pthread_join", e);
	free(tids);
	if (sc->progress_shown)
		stress_progress(sc, true);
	if (sc->fatal)
		return errorf(sc->fatal, "stress: %s", sc->fatal_msg);
	return CLI_EXIT_OK;
}

static int stress_main(const run_ctx *c)
{
	stress_ctx sc;
	double t0, seconds;
	int rc = stress_alloc(&sc, c), e;

	if (rc)
		return rc;
	if ((e = pthread_mutex_init(&sc.lock, NULL)) != 0) {
		rc = errorf(CLI_EXIT_INTERNAL, "pthread_mutex_init: %s",
			    strerror(e));
	} else if ((e = pthread_cond_init(&sc.cv, NULL)) != 0) {
		rc = errorf(CLI_EXIT_INTERNAL, "pthread_cond_init: %s",
			    strerror(e));
		if ((e = pthread_mutex_destroy(&sc.lock)) != 0)
			errorf(CLI_EXIT_INTERNAL, "pthread_mutex_destroy: %s",
			       strerror(e));
	} else {
		t0 = now_s();
		rc = stress_jobs(&sc, stress_job);
		if (rc == CLI_EXIT_OK && c->jitter && sc.nfails)
			rc = stress_jobs(&sc, stress_replay_job);
		seconds = now_s() - t0;
		if (rc == CLI_EXIT_OK) {
			if (!c->o.quiet)
				print_stress_table(&sc, seconds);
			if (c->json)
				print_stress_json(&sc, seconds);
			rc = cli_stress_exit(sc.count);
		}
		if ((e = pthread_cond_destroy(&sc.cv)) != 0)
			rc = worse(rc, errorf(CLI_EXIT_INTERNAL,
					      "pthread_cond_destroy: %s",
					      strerror(e)));
		if ((e = pthread_mutex_destroy(&sc.lock)) != 0)
			rc = worse(rc, errorf(CLI_EXIT_INTERNAL,
					      "pthread_mutex_destroy: %s",
					      strerror(e)));
	}
	for (size_t i = 0; i < sc.nwin; i++)
		free_bufs(sc.win[i].bufs, c->k->nparams);
	free_bufs(sc.ref, c->k->nparams);
	free(sc.win);
	free(sc.fails);
	free(sc.ranges);
	return rc;
}

static int cmd_stress(cli_intr *intr, int argc, char **argv)
{
	run_ctx c;
	int rc;

	memset(&c, 0, sizeof c);
	c.intr = intr;
	c.cmd = "stress";
	c.stress = true;
	rc = run_options(&c, argc, argv);
	if (rc == CLI_EXIT_OK && c.o.help)
		fputs(help_stress, stdout);
	else if (rc == CLI_EXIT_OK && (rc = run_setup(&c)) == CLI_EXIT_OK)
		rc = stress_main(&c);
	return run_free(&c, rc);
}

/* ======================================================================
 * asm, disasm, info
 * ====================================================================== */

enum file_opt { FO_OUTPUT, FO_HELP };

static const opt_desc asm_table[] = {
	{ "--output", 'o', FO_OUTPUT, true },
	{ "--help", 'h', FO_HELP, false },
};

static const opt_desc help_table[] = {
	{ "--help", 'h', FO_HELP, false },
};

typedef struct file_opts {
	const char *file, *output;
	bool help;
} file_opts;

/* Scan "FILE [-o OUT] [--help]" style arguments. */
static int scan_file_opts(const char *cmd, int argc, char **argv,
			  const opt_desc *tab, size_t ntab, file_opts *fo)
{
	scanner sc;
	scan_item it;
	scan_kind k;
	cli_err e;

	memset(fo, 0, sizeof *fo);
	scanner_init(&sc, argc, argv, tab, ntab);
	while ((k = scan_next(&sc, &it, &e)) != SC_END && !fo->help) {
		bool ok = k != SC_ERR;

		if (k == SC_POS)
			ok = set_positional(&fo->file, &it, &e);
		else if (k == SC_OPT && it.id == FO_OUTPUT)
			ok = set_once(&fo->output, &it, &e);
		else if (k == SC_OPT)
			fo->help = true;
		if (!ok)
			return usage_err(cmd, e.msg);
	}
	return CLI_EXIT_OK;
}

static int open_module(const char *file, we_device **dev, we_module **mod)
{
	int rc = create_device(0, 0, dev);

	return rc ? rc : load_module(*dev, file, mod);
}

static int assemble(const char *file, const char *output)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	void *image = NULL;
	size_t len = 0;
	we_status st;
	int rc = open_module(file, &dev, &mod);

	if (rc == CLI_EXIT_OK) {
		st = we_module_save_binary(mod, &image, &len);
		rc = st == WE_OK ? write_file_atomic(output, image, len)
				 : api_err(dev, st);
	}
	free(image);
	we_module_destroy(mod);
	we_device_destroy(dev);
	return rc;
}

static int cmd_asm(cli_intr *intr, int argc, char **argv)
{
	file_opts fo;
	int rc = scan_file_opts("asm", argc, argv, asm_table,
				sizeof asm_table / sizeof asm_table[0], &fo);

	if (rc || fo.help) {
		if (fo.help && !rc)
			fputs(help_asm, stdout);
		return rc;
	}
	if (!fo.file)
		return usage_err("asm", "missing FILE");
	if (!fo.output)
		return usage_err("asm", "missing -o OUT");
	return assemble(fo.file, fo.output);
}

static int cmd_disasm(cli_intr *intr, int argc, char **argv)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	char *text = NULL;
	we_status st;
	file_opts fo;
	int rc = scan_file_opts("disasm", argc, argv, help_table, 1, &fo);

	if (rc || fo.help) {
		if (fo.help && !rc)
			fputs(help_disasm, stdout);
		return rc;
	}
	if (!fo.file)
		return usage_err("disasm", "missing FILE");
	rc = open_module(fo.file, &dev, &mod);
	if (rc == CLI_EXIT_OK) {
		st = we_module_disassemble(mod, &text);
		rc = st == WE_OK ? write_stdout(text, strlen(text))
				 : api_err(dev, st);
	}
	free(text);
	we_module_destroy(mod);
	we_device_destroy(dev);
	return rc;
}

static void print_limits(void)
{
	printf(PROG " %s\n\n", WE_VERSION_STRING);
	printf("Launch limits:\n");
	printf("  grid             x 1..%" PRIu32 ", y 1..%" PRIu32
	       ", z 1..%" PRIu32 " CTAs\n", CLI_GRID_X_MAX, CLI_GRID_YZ_MAX,
	       CLI_GRID_YZ_MAX);
	printf("  block            x 1..%" PRIu32 ", y 1..%" PRIu32
	       ", z 1..%" PRIu32 ", at most %" PRIu32 " threads\n",
	       CLI_BLOCK_XY_MAX, CLI_BLOCK_XY_MAX, CLI_BLOCK_Z_MAX,
	       CLI_BLOCK_THREADS_MAX);
	printf("Parameter types:   u32 s32 f32 u64 ptr\n");
	printf("Buffer types:      u8 s8 u16 s16 u32 s32 u64 s64 f32 f64\n");
}

static void print_kernel(const we_kernel_info *k)
{
	printf("  kernel %s (dialect %s)\n", k->name,
	       k->dialect ? k->dialect : "?");
	printf("    instructions %" PRIu32 ", registers %" PRIu32
	       ", shared %" PRIu32 " bytes, local %" PRIu32
	       " bytes/thread\n", k->ninsns, k->nregs, k->shared_bytes,
	       k->local_bytes);
	printf("    parameters (%" PRIu32 " bytes):", k->param_bytes);
	if (k->nparams == 0)
		printf(" none");
	for (unsigned i = 0; i < k->nparams; i++)
		printf("%s %s %s @%" PRIu32, i ? "," : "", k->params[i].name,
		       cli_param_type_name(k->params[i].type),
		       k->params[i].offset);
	putchar('\n');
}

static int print_module(const char *file)
{
	we_device *dev = NULL;
	we_module *mod = NULL;
	int rc = open_module(file, &dev, &mod);

	if (rc == CLI_EXIT_OK) {
		unsigned n = we_module_kernel_count(mod);

		printf("\nModule %s: %u kernel%s\n", display_name(file), n,
		       n == 1 ? "" : "s");
		for (unsigned i = 0; i < n; i++)
			print_kernel(we_module_kernel(mod, i));
	}
	we_module_destroy(mod);
	we_device_destroy(dev);
	return rc;
}

enum info_opt { IO_ENGINE, IO_PLACEMENT, IO_BLOCK, IO_HELP };

static const opt_desc info_table[] = {
	{ "--engine", 0, IO_ENGINE, true },
	{ "--placement", 0, IO_PLACEMENT, true },
	{ "--block", 0, IO_BLOCK, true },
	{ "--help", 'h', IO_HELP, false },
};

typedef struct info_opts {
	const char *file, *engine, *placement, *block;
	bool help;
	we_engine eng;
	we_placement place;
	we_dim3 blk;
} info_opts;

static int info_scan(info_opts *io, int argc, char **argv)
{
	scanner sc;
	scan_item it;
	scan_kind k;
	cli_err e;

	memset(io, 0, sizeof *io);
	scanner_init(&sc, argc, argv, info_table,
		     sizeof info_table / sizeof info_table[0]);
	while ((k = scan_next(&sc, &it, &e)) != SC_END && !io->help) {
		bool ok = k != SC_ERR;

		if (k == SC_POS)
			ok = set_positional(&io->file, &it, &e);
		else if (k == SC_OPT && it.id == IO_ENGINE)
			ok = set_once(&io->engine, &it, &e);
		else if (k == SC_OPT && it.id == IO_PLACEMENT)
			ok = set_once(&io->placement, &it, &e);
		else if (k == SC_OPT && it.id == IO_BLOCK)
			ok = set_once(&io->block, &it, &e);
		else if (k == SC_OPT)
			io->help = true;
		if (!ok)
			return usage_err("info", e.msg);
	}
	return CLI_EXIT_OK;
}

static int info_err(const char *opt, const cli_err *e)
{
	char msg[sizeof e->msg + 64];

	snprintf(msg, sizeof msg, "%s: %s", opt, e->msg);
	return usage_err("info", msg);
}

static int info_options(info_opts *io, int argc, char **argv)
{
	int rc = info_scan(io, argc, argv);
	cli_err e;

	if (rc || io->help)
		return rc;
	io->eng = WE_ENGINE_DEFAULT;
	io->place = WE_PLACE_DEFAULT;
	io->blk.x = 32;
	io->blk.y = io->blk.z = 1;
	if (io->engine && !cli_parse_engine(io->engine, &io->eng, &e))
		return info_err("--engine", &e);
	if (io->placement &&
	    !cli_parse_placement(io->placement, &io->place, &e))
		return info_err("--placement", &e);
	if (io->block && (!cli_parse_dim3(io->block, &io->blk, &e) ||
			  !cli_check_block(&io->blk, &e)))
		return info_err("--block", &e);
	return CLI_EXIT_OK;
}

/* The host topology and the threads a launch would start, indented. */
static int print_placement(const info_opts *io)
{
	we_device *dev = NULL;
	char *text = NULL;
	we_status st;
	int rc = create_device(0, 0, &dev);

	if (rc == CLI_EXIT_OK) {
		st = we_device_describe(dev, io->eng, io->place, io->blk, &text);
		rc = st == WE_OK ? CLI_EXIT_OK : api_err(dev, st);
	}
	if (text) {
		printf("\nHost:\n");
		for (const char *p = text; *p;) {
			size_t n = strcspn(p, "\n");

			printf("  %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	free(text);
	we_device_destroy(dev);
	return rc;
}

static int cmd_info(cli_intr *intr, int argc, char **argv)
{
	info_opts io;
	int rc = info_options(&io, argc, argv);

	if (rc || io.help) {
		if (io.help && !rc)
			fputs(help_info, stdout);
		return rc;
	}
	print_limits();
	if ((rc = print_placement(&io)) != CLI_EXIT_OK)
		return rc;
	return io.file ? print_module(io.file) : CLI_EXIT_OK;
}

/* ======================================================================
 * main
 * ====================================================================== */

typedef struct command {
	const char *name;
	int (*fn)(cli_intr *intr, int argc, char **argv);
	const char *help;
} command;

static const command commands[] = {
	{ "run", cmd_run, help_run },
	{ "stress", cmd_stress, help_stress },
	{ "asm", cmd_asm, help_asm },
	{ "disasm", cmd_disasm, help_disasm },
	{ "info", cmd_info, help_info },
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

static int cmd_help(cli_intr *intr, int argc, char **argv)
{
	const command *c;

	if (argc == 0) {
		fputs(help_main, stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 1)
		return usage_err(NULL, "help takes at most one COMMAND");
	c = find_command(argv[0]);
	if (!c)
		return unknown_command(argv[0]);
	fputs(c->help, stdout);
	return CLI_EXIT_OK;
}

static int dispatch(cli_intr *intr, int argc, char **argv)
{
	const char *name;
	const command *c;

	if (argc < 2)
		return usage_err(NULL, "missing COMMAND");
	name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
	    strcmp(name, "help") == 0)
		return cmd_help(intr, argc - 2, argv + 2);
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
	if (cli_intr_fired(intr)) {
		errorf(CLI_EXIT_INTERRUPTED, "interrupted");
		rc = CLI_EXIT_INTERRUPTED;
	}
	cli_intr_stop(intr);

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		errorf(CLI_EXIT_IO, "cannot write to stdout: %s",
		       strerror(errno ? errno : EIO));
		rc = worse(rc, CLI_EXIT_IO);
	}
	return rc;
}
