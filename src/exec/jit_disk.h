/* jit_disk.h — the disk cache of compiled kernels (jit_disk.c): entries
 * that later runs, in other processes, load instead of compiling.
 *
 * An entry is one file, DIR/KEY.wjit.  KEY hashes everything the code
 * depends on (the key's material): the kernel's instruction words, its
 * register rows, its parameter size (jit.c's opd_ok reads it), the
 * library's layouts the code reads (XJIT_ABI, the offsets), the contents
 * of the compiler module warpemu-jit.so (so a change to the code
 * generator never meets code of the one before), the LLVM version, the
 * code generation level and passes, the host CPU (its CPUID feature
 * words, or the auxiliary vector's HWCAPs elsewhere) and the format.
 * The file holds the whole material, compared byte for byte when it is
 * read (a collision of names, a stale or foreign entry is never used),
 * then LLVM's host CPU name and features (the module checks them), the
 * block table and the object file, and ends in a checksum of the rest
 * (a truncated or corrupt file is ignored).  Files are written to a
 * temporary file of the same directory and renamed: a reader sees the
 * whole file or none, whatever other processes write meanwhile.
 * Nothing here needs LLVM: a run that finds no entry never maps it.
 */
#ifndef WE_EXEC_JIT_DISK_H
#define WE_EXEC_JIT_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/jit.h"

/* A kernel's key: its material (malloc'd) and the file name it hashes
 * to (32 hex digits). */
typedef struct xjit_key {
	uint8_t *material;
	size_t len;
	char name[33];
} xjit_key;

/* The cache's directory for the setting of a launch
 * (we_launch_config.jit_cache: NULL or "" for the default, "off", or a
 * directory): the setting, else $WARPEMU_JIT_CACHE ("off" or a
 * directory), else $XDG_CACHE_HOME/warpemu (an absolute path), else
 * $HOME/.cache/warpemu.  false when off (with why in note when it is
 * not asked for). */
bool xjit_disk_dir(const char *setting, char *dir, size_t len, char *note, size_t notelen);

/* A 64-bit hash of n bytes (file names, checksums; not cryptographic). */
uint64_t xjit_hash(const void *p, size_t n, uint64_t seed);

/* L's kernel's key; plugin: the hash of warpemu-jit.so's contents.
 * false when out of memory. */
bool xjit_disk_key(const struct we_launch_ctx *L, uint64_t plugin, xjit_key *k);
void xjit_key_free(xjit_key *k);

/* An entry for k exists in dir (a regular file; not read). */
bool xjit_disk_probe(const char *dir, const xjit_key *k);
/* dir exists and this process may add files to it, or it does not exist
 * and the nearest directory above it that does may take it. */
bool xjit_disk_writable(const char *dir);

/* k's entry in dir, checked (its owner, length, checksum, material,
 * block table for a kernel of ninsns instructions): *img (malloc'd), or
 * false with why in note. */
bool xjit_disk_read(const char *dir, const xjit_key *k, uint32_t ninsns, xjit_image *img, char *note,
		    size_t notelen);
/* Write img as k's entry in dir (created if missing, mode 0700), by a
 * temporary file and rename, then prune dir to xjit_disk_limit(); false
 * with why in note. */
bool xjit_disk_write(const char *dir, const xjit_key *k, const xjit_image *img, char *note, size_t notelen);

/* The cache's size bound: $WARPEMU_JIT_CACHE_MAX (bytes), else
 * XJIT_DISK_LIMIT.  Entries are a few to tens of kilobytes: the default
 * holds thousands of kernels. */
#define XJIT_DISK_LIMIT ((uint64_t)256 << 20)
uint64_t xjit_disk_limit(void);
/* Remove the least recently used entries of dir (by modification time:
 * a read touches its entry) until the rest take at most limit bytes,
 * never the entry named keep (its 32 hex digits; NULL: none), and
 * temporary files of writers older than an hour; only this user's
 * regular files named as entries.  How many files it removed. */
unsigned xjit_disk_prune(const char *dir, uint64_t limit, const char *keep);

#endif
