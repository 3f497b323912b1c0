/* fuzz_isagen.c — libFuzzer harness: an ISA description -> isagen --check.
 *
 * isagen (the files of src/isagen/) is a program; fuzz.sh compiles it with
 * -Dmain=isagen_main so that this harness can call it in-process: the
 * input is written to a temporary file and isagen_main(3, {"isagen",
 * "--check", path}) parses and validates it.  isagen keeps no state
 * between calls (everything hangs off a local `gen`) and exits only on
 * out-of-memory and output errors (not in --check mode), so in-process
 * calls are sound, except that it frees nothing before returning: harmless
 * for a program, but each call would leak its whole description.  So
 * fuzz.sh also compiles it with -Drealloc=isagen_fz_realloc
 * -Dfree=isagen_fz_free (isagen allocates with nothing else): this file
 * keeps every live block of isagen on a list and frees what is left after
 * each call, and leak detection stays on for the rest.
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
void *isagen_fz_realloc(void *p, size_t n);
void isagen_fz_free(void *p);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- isagen's heap: a list of live blocks -------------------------------- */

typedef struct blk {
	struct blk *prev, *next;
	size_t size;
	size_t pad; /* keeps the payload 16-byte aligned */
} blk;

static blk live = { &live, &live, 0, 0 };

static void link_blk(blk *b)
{
	b->next = live.next;
	b->prev = &live;
	live.next->prev = b;
	live.next = b;
}

static void unlink_blk(blk *b)
{
	b->prev->next = b->next;
	b->next->prev = b->prev;
}

void *isagen_fz_realloc(void *p, size_t n)
{
	blk *b = p ? (blk *)p - 1 : NULL;
	if (b)
		unlink_blk(b);
	if (n > SIZE_MAX - sizeof(blk))
		return NULL;
	blk *nb = realloc(b, sizeof(blk) + n);
	if (!nb) {
		if (b)
			link_blk(b);
		return NULL;
	}
	nb->size = n;
	link_blk(nb);
	return nb + 1;
}

void isagen_fz_free(void *p)
{
	if (!p)
		return;
	blk *b = (blk *)p - 1;
	unlink_blk(b);
	free(b);
}

static size_t free_all(void)
{
	size_t n = 0;
	while (live.next != &live) {
		blk *b = live.next;
		unlink_blk(b);
		free(b);
		n++;
	}
	return n;
}

/* ---- the harness ------------------------------------------------------------- */

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
	free_all();
	FZ_CHECK(st == 0 || st == 1, "isagen --check exited with %d", st);
	return 0;
}
