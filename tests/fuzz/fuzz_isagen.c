/* fuzz_isagen.c — libFuzzer harness: an ISA description -> isagen --check.
 *
 * isagen (src/isagen/isagen.c) is a program; fuzz.sh compiles it with
 * -Dmain=isagen_main so that this harness can call it in-process: the
 * input is written to a temporary file and isagen_main(3, {"isagen",
 * "--check", path}) parses and validates it.  isagen keeps no state
 * between calls (everything hangs off a local `gen`) and exits only on
 * out-of-memory and output errors (not in --check mode), so in-process
 * calls are sound.  It frees nothing before returning, which is harmless
 * for a program but makes every call leak: leak detection is off for this
 * harness (see __asan_default_options below).
 *
 * Properties: the status is 0 (valid) or 1 (errors reported); crashes,
 * hangs and sanitizer reports are bugs.  Its error messages go to stderr,
 * which fuzz.sh closes (-close_fd_mask=2).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"

int isagen_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static char path[64];

static void remove_tmp(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/fuzz_isagen.XXXXXX", dir && strlen(dir) < 40 ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("fuzz_isagen: mkstemp");
		exit(1);
	}
	close(fd);
	atexit(remove_tmp);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	FZ_CHECK(f != NULL, "cannot write %s", path);
	FZ_CHECK(fwrite(data, 1, size, f) == size, "cannot write %s", path);
	FZ_CHECK(fclose(f) == 0, "cannot write %s", path);
	char a0[] = "isagen", a1[] = "--check";
	char *argv[] = { a0, a1, path, NULL };
	int st = isagen_main(3, argv);
	FZ_CHECK(st == 0 || st == 1, "isagen --check exited with %d", st);
	return 0;
}
