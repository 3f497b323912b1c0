/* module.h — a loaded module: code, decoded instructions, kernels,
 * constant-bank data.  Built by the assembler (asm.c) or the binary
 * loader (module.c); consumed by the executor.
 *
 * Addresses: PCs are byte offsets into the module's code (16 bytes per
 * instruction, the first instruction at 0).  A kernel owns the code range
 * [code_start, code_end); its entry is code_start.  Control transfers
 * outside that range are runtime exceptions.
 */
#ifndef WE_MODULE_H
#define WE_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/isa_gen.h"
#include "warpemu/warpemu.h"

#define WE_NUM_CBANKS 32u          /* c[0]..c[31]; c[0] holds parameters */
#define WE_CBANK_MAX 65536u        /* bytes per constant bank            */
#define WE_MAX_PARAMS 64u
#define WE_PARAM_BYTES_MAX 4096u
#define MODULE_KERNELS_MAX 65536u  /* kernels per module                 */
#define MODULE_NAME_MAX 1024u      /* bytes of a kernel or parameter name */

typedef struct we_cbank {
	uint32_t size;                /* bytes of data (0 = absent)        */
	uint8_t *data;
} we_cbank;

typedef enum we_dialect {
	WE_DIALECT_TARGET = 0,        /* seeds 000 + 004 (default)          */
	WE_DIALECT_SASS,              /* seed 003                           */
	WE_DIALECT_VISA,              /* seed 002                           */
	WE_DIALECT_PTX                /* seed 001                           */
} we_dialect;

/* "target", "sass", "visa", "ptx" */
const char *module_dialect_name(we_dialect d);
/* The kernel parameter types (we_param_type): each one's name in .param
 * and messages, and its size in the parameter block (its alignment too);
 * size 0 for b8 (WE_PARAM_BYTES): its size and alignment are each
 * parameter's own, `.param [.align A] b8[N] NAME`.  The one table the
 * assembler, disassembler, loader and CLI use. */
#define MODULE_NPARAM_TYPES ((unsigned)WE_PARAM_BYTES + 1u)
/* The largest alignment of a b8 parameter (PTX's .align of an aggregate). */
#define MODULE_PARAM_ALIGN_MAX 256u
typedef struct module_param_type {
	const char *name;
	uint32_t size;
} module_param_type;
extern const module_param_type module_param_types[MODULE_NPARAM_TYPES];
/* The place of the next parameter of `size` bytes aligned to `align` in
 * a parameter block of *bytes so far: its offset in *at, and *bytes past
 * it; false when the block would pass WE_PARAM_BYTES_MAX.  The one
 * layout rule of the assembler's .param and the PTX front end's
 * lowering, which needs the offsets before it prints the .param lines. */
static inline bool module_param_place(uint32_t *bytes, uint32_t size, uint32_t align, uint32_t *at)
{
	const uint64_t off = ((uint64_t)*bytes + align - 1u) / align * align;
	if (off + size > WE_PARAM_BYTES_MAX)
		return false;
	*at = (uint32_t)off;
	*bytes = (uint32_t)off + size;
	return true;
}

typedef struct we_kernel {
	we_kernel_info info;          /* public view (points into below)   */
	char *name;
	/* param_cap slots each (module_param_reserve), NULL before the
	 * first parameter: a module of 65,536 small kernels stays small */
	we_param_info *params;
	char **param_names;
	unsigned param_cap;
	we_dialect dialect;
	uint32_t code_start, code_end; /* byte offsets, [start, end)        */
	uint32_t shared_bytes;
	uint32_t local_bytes;
	uint32_t nregs;               /* computed by the loader            */
	uint64_t zero_rows[4];        /* registers a thread may read before it
					 writes them (exec_prepare_module): the
					 ones a CTA start sets to zero       */
	bool paths_known;             /* its per-thread paths are known: no
					 Indirect instruction, no trap handler
					 (exec_prepare_module, exec/flow.h)  */
	int trap_handler;             /* byte offset or -1 (issue 5)       */
} we_kernel;

struct we_module {
	uint32_t ninsns;
	we_word *code;                /* raw 128-bit words                 */
	we_insn *insn;                /* decoded, one per word             */
	uint32_t *line;               /* source line per instruction (0 = unknown) */
	char *source;                 /* file name for messages            */
	uint32_t nkernels, capkernels;
	we_kernel *kernels;
	/* kernel names: open addressing over kernel index + 1 (0 = empty),
	 * kernel_hash_cap a power of two, at most half full */
	uint32_t *kernel_hash;
	uint32_t kernel_hash_cap;
	we_cbank cbank[WE_NUM_CBANKS]; /* data banks 1..31 (0 unused here) */
	/* executor's decode-once form, built by exec_prepare_module() */
	struct xinsn *x;
	/* the compiled tier's code of its kernels (exec/jit.h), with LLVM */
	struct xjit_cache *jit;
	/* the device memory of a PTX module's .global variables (api.c) */
	we_devptr globals;
	size_t globals_size;
};

/* " (FILE:LINE)" naming the PTX source line of the instruction at pc when
 * its kernel was lowered from PTX (.dialect ptx: the line table holds the
 * PTX lines), else "": reports, traces and --check lines show it beside
 * the lowered instruction. */
void module_ptx_loc(const struct we_module *m, uint64_t pc, char *buf, size_t n);

/* Allocate an empty module (calloc); NULL on out of memory. */
struct we_module *module_new(void);
/* Free everything a module owns. */
void module_free(struct we_module *m);
/* Append a kernel; returns it zeroed (except trap_handler = -1), or NULL
 * when memory runs out or the module has MODULE_KERNELS_MAX kernels
 * already.  Amortised constant time (the kernel array grows by doubling;
 * names are hashed).  The caller checks for a duplicate name first. */
we_kernel *module_add_kernel(struct we_module *m, const char *name);
/* Room for n parameters in k (n <= WE_MAX_PARAMS; new slots zeroed);
 * false when memory runs out. */
bool module_param_reserve(we_kernel *k, unsigned n);
/* The kernel named by the n bytes at name, or NULL (constant time). */
we_kernel *module_find_kernel_n(const struct we_module *m, const char *name, size_t n);
/* Fill each kernel's info view (name, params, sizes) from its fields. */
void module_finish_info(struct we_module *m);
/* The source file and line of the instruction at pc: true, or false when
 * the module does not know them. */
bool module_source_line(const struct we_module *m, uint64_t pc, const char **file, uint32_t *line);

/* Binary image: "WEMODULE" magic, version, then sections; see module.c
 * for the layout.  Loading validates everything (sizes, offsets, decodes
 * every word) and reports the first problem in err (size errlen). */
we_status module_save(const struct we_module *m, void **image, size_t *len);
we_status module_load(const void *image, size_t len, struct we_module **out,
		      char *err, size_t errlen);

#endif
