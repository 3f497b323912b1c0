/* fuzz_exec.c — libFuzzer harness: random but valid instruction sequences,
 * launched on both engines.
 *
 * The input describes one kernel and its launch:
 *
 *   byte 0   grid: x = 1 + (b & 3); bit 2: y = 2
 *   byte 1   block x = 1 + b % 64
 *   byte 2   bit 0: block y = 2; bits 1-2: dialect (target, sass, visa,
 *            ptx); bit 3: check mode; bit 4: seeded schedule (and a replay
 *            on the engine of byte 6 bit 0 that must give the same result);
 *            bit 5: trace (with byte 6 bit 1, and a budget of 2000
 *            instructions: tracing is slow); bit 6: two host threads
 *   byte 3   bits 0-1: static shared bytes (0, 64, 4 KiB, 64 KiB); bits 2-3:
 *            local bytes per thread (0, 16, 1 KiB, 64 KiB); bits 4-7: trap
 *            handler (0 = none, else at instruction (b >> 4) * 2 - 1 mod n)
 *   byte 4-7 schedule seed and fill pattern of the memories; byte 6
 *            bits 2-5 all set (and a build with the compiled tier): the
 *            launch also runs compiled and interpreted, which must agree
 *            (differential)
 *   then instructions, at most 256, each either
 *     0xff + 16 bytes   a raw word (lo, hi, little-endian); one that does not
 *                       decode or fails isa_check() becomes NOP
 *     OP + field bytes  opcode isa_opcodes[OP % ISA_NUM_OPCODES], every
 *                       encoding field (not fixed) from the next bytes:
 *                       registers R0..R31 or RZ, predicates, enum values,
 *                       immediates of 1, 2, 4 or 8 bytes, constants in
 *                       banks 0..2; an encoding isa_check() refuses falls
 *                       back to the opcode's defaults, then to NOP
 *   and a final EXIT.
 *
 * The kernel gets a 64-byte parameter block of eight pointers into a 64 KiB
 * global buffer (gbuf + i * 8 KiB), constant bank 1 of 256 bytes, and is
 * launched with max_instructions 10000 and a 1 s timeout on every engine
 * of tests/engines.h (the scheduler and the warp-threads engine).  Any status is fine (exception, deadlock,
 * watchdog...), except WE_ERR_INVALID, WE_ERR_LIMIT, WE_ERR_NOMEM and
 * WE_ERR_INTERNAL; a failing launch must have a message and a JSON report
 * that parses; a seeded launch replayed must give the same status, report
 * and memory.  Crashes, hangs, leaks and sanitizer reports are bugs.
 *
 * FUZZ_EXEC_STATS=1 prints at exit how many differential launches ran
 * compiled code.  FUZZ_EXEC_CONVERT=IN:OUT (environment) turns a binary module IN (warpemu
 * asm output) into a seed OUT for this harness and exits: the raw words of
 * its first kernel (tests/fuzz/mkcorpus.sh uses it).  FUZZ_EXEC_PRINT=1
 * prints each input's kernel (disassembled) and launch on stderr, to
 * triage a crash: FUZZ_EXEC_PRINT=1 fuzz_exec-san CRASH-FILE.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "fuzz_util.h"
#include "isa/isa_gen.h"
#include "asm/module.h"
#include "warpemu/warpemu.h"

#include "../engines.h" /* the engines every test runs */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INSNS 256u
#define GBUF_BYTES 65536u
#define PARAM_BYTES 64u
#define CBANK1_BYTES 256u

static we_device *dev;
static bool print_inputs;
static we_devptr gbuf;
static uint8_t *host_a, *host_b;

/* ---- input reader ------------------------------------------------------ */

typedef struct rd {
	const uint8_t *p;
	size_t n, i;
} rd;

static uint8_t byte(rd *r)
{
	return r->i < r->n ? r->p[r->i++] : 0;
}

static uint64_t bytes(rd *r, unsigned n)
{
	uint64_t v = 0;
	for (unsigned k = 0; k < n; k++)
		v |= (uint64_t)byte(r) << (8 * k);
	return v;
}

/* ---- instruction generator ------------------------------------------------ */

static int nop_op = -1, exit_op = -1;

static int find_op(const char *name)
{
	for (int i = 0; i < ISA_NUM_OPCODES; i++)
		if (!strcmp(isa_opcodes[i].name, name))
			return i;
	return -1;
}

static uint64_t field_value(rd *r, const isa_field *f)
{
	uint64_t mask = f->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->width) - 1;
	uint8_t b = byte(r);
	switch (f->kind) {
	case ISA_K_REG:
		return b >= 0xf0 ? ISA_REG_RZ : b % 32u;
	case ISA_K_UREG:
		return b >= 0xf0 ? ISA_UREG_URZ : b % 16u;
	case ISA_K_PRED:
	case ISA_K_UPRED:
		return b % 8u;
	case ISA_K_NOT:
	case ISA_K_BITNOT:
	case ISA_K_NEG:
	case ISA_K_ABS:
		return b & 1u;
	case ISA_K_ENUM: {
		const isa_enum *e = &isa_enums[f->enum_id];
		if (!e->nvalues)
			return 0;
		unsigned v = b % e->nvalues;
		for (unsigned k = 0; k < e->nvalues && !e->values[v]; k++)
			v = (v + 1) % e->nvalues;
		return v;
	}
	case ISA_K_CMEM: {
		uint64_t bank = b % 3u;
		uint64_t off = (b & 0x80) ? bytes(r, 2) : (uint64_t)byte(r) * 4u;
		return (bank << 16 | (off & 0xffffu)) & mask;
	}
	case ISA_K_FIMM: {
		static const uint32_t fl[] = { 0x00000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u,
					       0x7f800000u, 0xff800000u, 0x7fc00000u, 0x80000000u,
					       0x00000001u, 0x7f7fffffu, 0x4f000000u, 0xcf000000u };
		if (b < 0x80)
			return fl[b % (sizeof fl / sizeof fl[0])] & mask;
		return bytes(r, 4) & mask;
	}
	case ISA_K_UIMM:
	case ISA_K_SIMM: {
		uint64_t v;
		switch (b & 3u) {
		case 0: v = (uint64_t)(int64_t)(int8_t)byte(r); break;
		case 1: v = (uint64_t)(int64_t)(int16_t)bytes(r, 2); break;
		case 2: v = (uint64_t)(int64_t)(int32_t)bytes(r, 4); break;
		default: v = bytes(r, 8); break;
		}
		if (!strcmp(f->name, "cnt"))
			v &= ~UINT64_C(31); /* barrier counts: multiples of 32 */
		v &= mask;
		if (f->kind == ISA_K_SIMM && f->width < 64 && ((v >> (f->width - 1)) & 1))
			v |= ~mask; /* sign-extend */
		return v;
	}
	default:
		return f->has_default ? (uint64_t)f->value : 0;
	}
}

/* the next instruction of the input into *w */
static void gen_insn(rd *r, we_word *w)
{
	we_insn in;
	uint8_t t = byte(r);
	if (t == 0xff) {
		w->lo = bytes(r, 8);
		w->hi = bytes(r, 8);
		if (isa_decode(w, &in) >= 0 && !isa_check(&in))
			return;
		isa_insn_init(&in, nop_op);
		isa_encode(&in, w);
		return;
	}
	int op = t % ISA_NUM_OPCODES;
	const isa_opcode *o = &isa_opcodes[op];
	isa_insn_init(&in, op);
	for (unsigned k = 0; k < o->nfields; k++) {
		const isa_field *f = &o->fields[k];
		if (f->fixed || f->member < 0 || f->kind == ISA_K_OPTYPE || f->kind == ISA_K_STYPE)
			continue;
		isa_insn_set(&in, f->member, (int64_t)field_value(r, f));
	}
	if (isa_check(&in)) {
		isa_insn_init(&in, op);
		if (isa_check(&in))
			isa_insn_init(&in, nop_op);
	}
	isa_encode(&in, w);
}

/* ---- a minimal JSON checker (the reports must parse) --------------------- */

static const char *json_value(const char *s, int depth);

static const char *json_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

static const char *json_string(const char *s)
{
	if (*s != '"')
		return NULL;
	for (s++; *s != '"'; s++) {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int k = 1; k <= 4; k++)
					if (!isxdigit((unsigned char)s[k]))
						return NULL;
				s += 4;
			} else if (!strchr("\"\\/bfnrt", *s) || !*s) {
				return NULL;
			}
		}
	}
	return s + 1;
}

static const char *json_value(const char *s, int depth)
{
	if (depth > 64)
		return NULL;
	s = json_ws(s);
	if (*s == '{' || *s == '[') {
		char close = *s == '{' ? '}' : ']';
		bool obj = *s == '{';
		s = json_ws(s + 1);
		if (*s == close)
			return s + 1;
		for (;;) {
			if (obj) {
				s = json_string(json_ws(s));
				if (!s)
					return NULL;
				s = json_ws(s);
				if (*s++ != ':')
					return NULL;
			}
			s = json_value(s, depth + 1);
			if (!s)
				return NULL;
			s = json_ws(s);
			if (*s == ',') {
				s++;
				continue;
			}
			return *s == close ? s + 1 : NULL;
		}
	}
	if (*s == '"')
		return json_string(s);
	if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	const char *b = s;
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s) || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' || *s == '-')
		s++;
	return s > b ? s : NULL;
}

static bool json_ok(const char *s)
{
	const char *e = json_value(s, 0);
	return e && !*json_ws(e);
}

/* ---- launches ---------------------------------------------------------- */

static unsigned long trace_lines;

static void trace_cb(void *ctx, const char *line)
{
	(void)ctx;
	FZ_CHECK(!strncmp(line, "cta=", 4), "trace line '%s'", line);
	trace_lines++;
}

typedef struct result {
	we_status st;
	char *err, *json;
	bool compiled; /* the compiled tier ran code: blocks or a warp function */
} result;

static void launch(const we_module *m, const we_launch_config *cfg, const uint8_t *params,
		   uint8_t fill, uint8_t *host, result *res)
{
	FZ_CHECK(we_memset(dev, gbuf, fill, GBUF_BYTES) == WE_OK, "we_memset");
	we_launch_stats stats;
	memset(&stats, 0, sizeof stats);
	we_status st = we_launch(dev, m, NULL, cfg, params, PARAM_BYTES, &stats);
	const char *err = we_last_error(dev);
	const char *json = we_last_report_json(dev);
	FZ_CHECK(st == WE_OK || st == WE_ERR_EXCEPTION || st == WE_ERR_DEADLOCK || st == WE_ERR_TIMEOUT,
		 "launch on engine %s: status %s (%d): %s", we_engine_name(cfg->engine),
		 we_status_name(st), (int)st, err);
	if (st != WE_OK) {
		FZ_CHECK(err && err[0], "status %s without a message", we_status_name(st));
		FZ_CHECK(json && json[0] == '{', "status %s without a JSON report", we_status_name(st));
		FZ_CHECK(json_ok(json), "the JSON report does not parse: %s", json);
	} else {
		FZ_CHECK(stats.ctas == (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z,
			 "%llu CTAs ran", (unsigned long long)stats.ctas);
	}
	const char *warn = we_last_warnings(dev);
	FZ_CHECK(warn != NULL, "we_last_warnings returned NULL");
	FZ_CHECK(we_memcpy_dtoh(dev, host, gbuf, GBUF_BYTES) == WE_OK, "we_memcpy_dtoh");
	res->st = st;
	res->compiled = stats.jit_blocks || stats.jit_warp_entries;
	res->err = strdup(err ? err : "");
	res->json = strdup(json ? json : "");
	FZ_CHECK(res->err && res->json, "out of memory");
}

static void result_free(result *r)
{
	free(r->err);
	free(r->json);
}

/* FUZZ_EXEC_STATS=1: at exit, how many differential runs compiled code
 * (diff_runs[1]) and how many had nothing to compile (diff_runs[0]). */
static unsigned long diff_runs[2];
static void print_stats(void)
{
	fprintf(stderr, "fuzz_exec: %lu differential runs with compiled code, %lu with none\n", diff_runs[1],
		diff_runs[0]);
}

/* The compiled tier against the interpreter: the launch of cfg on the
 * scheduler engine with one worker (its order of warps fixed), without a
 * check, trace or seeded schedule (which keep the interpreter), with
 * --jit off and --jit on must give the same status, report, JSON report
 * and memory; unless one of them hit the wall-clock watchdog.  (For a
 * sixteenth of the inputs: each compiles its kernel, tens of
 * milliseconds.) */
static void differential(const we_module *m, const we_launch_config *cfg, const uint8_t *params, uint8_t fill)
{
	we_launch_config c = *cfg;
	c.engine = WE_ENGINE_SCHEDULER;
	c.threads = 1;
	c.check = false;
	c.schedule_seeded = false;
	c.trace = NULL;
	c.jit_cache = "off";
	result a, b;
	c.jit = WE_JIT_OFF;
	launch(m, &c, params, fill, host_a, &a);
	c.jit = WE_JIT_ON;
	launch(m, &c, params, fill, host_b, &b);
	diff_runs[b.compiled]++;
	if (a.st != WE_ERR_TIMEOUT && b.st != WE_ERR_TIMEOUT) {
		FZ_CHECK(a.st == b.st, "jit on: status %s, jit off: %s\n%s", we_status_name(b.st),
			 we_status_name(a.st), b.st != WE_OK ? b.err : a.err);
		FZ_CHECK(!strcmp(a.err, b.err), "jit on: report\n%s\njit off:\n%s", b.err, a.err);
		FZ_CHECK(!strcmp(a.json, b.json), "jit on: JSON report\n%s\njit off:\n%s", b.json, a.json);
		FZ_CHECK(!memcmp(host_a, host_b, GBUF_BYTES), "jit on: memory differs from jit off");
	}
	result_free(&a);
	result_free(&b);
}

/* ---- the corpus converter ------------------------------------------------- */

static void convert(const char *spec)
{
	const char *colon = strchr(spec, ':');
	if (!colon) {
		fprintf(stderr, "FUZZ_EXEC_CONVERT=IN:OUT\n");
		exit(2);
	}
	char in[4096];
	snprintf(in, sizeof in, "%.*s", (int)(colon - spec), spec);
	FILE *f = fopen(in, "rb");
	if (!f) {
		perror(in);
		exit(1);
	}
	static uint8_t img[1 << 20];
	size_t len = fread(img, 1, sizeof img, f);
	fclose(f);
	struct we_module *m = NULL;
	char err[512];
	if (module_load(img, len, &m, err, sizeof err) != WE_OK || !m->nkernels) {
		fprintf(stderr, "%s: %s\n", in, err[0] ? err : "no kernels");
		exit(1);
	}
	const we_kernel *k = &m->kernels[0];
	FILE *o = fopen(colon + 1, "wb");
	if (!o) {
		perror(colon + 1);
		exit(1);
	}
	/* grid 2, block 64, the kernel's dialect, static shared 4 KiB, local 1 KiB */
	uint8_t hdr[8] = { 1, 63, (uint8_t)((unsigned)k->dialect << 1), 0x06, 1, 0, 0, 0 };
	fwrite(hdr, 1, sizeof hdr, o);
	for (uint32_t pc = k->code_start; pc < k->code_end && (pc - k->code_start) / 16 < MAX_INSNS; pc += 16) {
		const we_word *w = &m->code[pc / 16];
		uint8_t b[17];
		b[0] = 0xff;
		for (int i = 0; i < 8; i++) {
			b[1 + i] = (uint8_t)(w->lo >> (8 * i));
			b[9 + i] = (uint8_t)(w->hi >> (8 * i));
		}
		fwrite(b, 1, sizeof b, o);
	}
	if (fclose(o)) {
		perror(colon + 1);
		exit(1);
	}
	module_free(m);
	exit(0);
}

/* ---- libFuzzer entry points ------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	nop_op = find_op("NOP_X");
	exit_op = find_op("EXIT_X");
	if (nop_op < 0 || exit_op < 0) {
		fprintf(stderr, "fuzz_exec: no NOP_X or EXIT_X opcode\n");
		exit(1);
	}
	print_inputs = getenv("FUZZ_EXEC_PRINT") != NULL;
	if (getenv("FUZZ_EXEC_STATS"))
		atexit(print_stats);
	const char *conv = getenv("FUZZ_EXEC_CONVERT");
	if (conv)
		convert(conv);
	we_device_config dc = { 0, 2 };
	if (we_device_create(&dc, &dev) != WE_OK || we_malloc(dev, GBUF_BYTES, &gbuf) != WE_OK) {
		fprintf(stderr, "fuzz_exec: cannot create the device\n");
		exit(1);
	}
	host_a = malloc(GBUF_BYTES);
	host_b = malloc(GBUF_BYTES);
	if (!host_a || !host_b)
		exit(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rd r = { data, size, 0 };
	uint8_t h[8];
	for (int i = 0; i < 8; i++)
		h[i] = byte(&r);
	static const uint32_t shared_sizes[] = { 0, 64, 4096, 65536 };
	static const uint32_t local_sizes[] = { 0, 16, 1024, 65536 };

	/* the module */
	struct we_module *m = module_new();
	FZ_CHECK(m != NULL, "out of memory");
	m->code = calloc(MAX_INSNS + 1, sizeof *m->code);
	FZ_CHECK(m->code != NULL, "out of memory");
	uint32_t n = 0;
	while (r.i < r.n && n < MAX_INSNS)
		gen_insn(&r, &m->code[n++]);
	we_insn ex;
	isa_insn_init(&ex, exit_op);
	isa_encode(&ex, &m->code[n++]);
	m->ninsns = n;
	we_kernel *k = module_add_kernel(m, "fz");
	FZ_CHECK(k != NULL, "out of memory");
	k->dialect = (we_dialect)((h[2] >> 1) & 3u);
	k->code_start = 0;
	k->code_end = n * WE_INST_SIZE;
	k->shared_bytes = shared_sizes[h[3] & 3u];
	k->local_bytes = local_sizes[(h[3] >> 2) & 3u];
	if (h[3] >> 4)
		k->trap_handler = (int)((((h[3] >> 4) * 2u - 1u) % n) * WE_INST_SIZE);
	k->info.param_bytes = PARAM_BYTES;
	m->cbank[1].data = malloc(CBANK1_BYTES);
	FZ_CHECK(m->cbank[1].data != NULL, "out of memory");
	for (unsigned i = 0; i < CBANK1_BYTES; i++)
		m->cbank[1].data[i] = (uint8_t)(i * 7u + h[4]);
	m->cbank[1].size = CBANK1_BYTES;
	module_finish_info(m);
	void *img = NULL;
	size_t len = 0;
	FZ_CHECK(module_save(m, &img, &len) == WE_OK, "module_save");
	module_free(m);

	we_module *wm = NULL;
	we_status st = we_module_load_binary(dev, img, len, &wm);
	free(img);
	FZ_CHECK(st == WE_OK || st == WE_ERR_LOAD, "we_module_load_binary: status %d: %s", (int)st,
		 we_last_error(dev));
	if (st != WE_OK)
		return 0; /* e.g. a register the executor refuses: fine */

	uint8_t params[PARAM_BYTES];
	for (unsigned i = 0; i < PARAM_BYTES / 8; i++) {
		uint64_t p = gbuf + (uint64_t)i * (GBUF_BYTES / 8);
		memcpy(params + 8 * i, &p, 8);
	}
	we_launch_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.grid = (we_dim3){ 1u + (h[0] & 3u), (h[0] & 4u) ? 2u : 1u, 1 };
	cfg.block = (we_dim3){ 1u + h[1] % 64u, (h[2] & 1u) ? 2u : 1u, 1 };
	cfg.max_instructions = 10000;
	cfg.timeout = 1.0;
	cfg.threads = (h[2] & 0x40) ? 2 : 1;
	cfg.placement = WE_PLACE_NONE;
	cfg.check = (h[2] & 0x08) != 0;
	cfg.schedule_seeded = (h[2] & 0x10) != 0;
	cfg.schedule_seed = (uint64_t)h[4] | (uint64_t)h[5] << 8 | (uint64_t)h[6] << 16 |
			    (uint64_t)h[7] << 24;
	if ((h[2] & 0x20) && (h[6] & 2)) {
		cfg.trace = trace_cb;
		cfg.max_instructions = 2000; /* each traced instruction is disassembled */
	}
	if (print_inputs) {
		char *text = NULL;
		if (we_module_disassemble(wm, &text) == WE_OK)
			fprintf(stderr, "%s", text);
		free(text);
		fprintf(stderr, "launch: grid %u,%u block %u,%u threads %u%s%s%s seed %llu\n", cfg.grid.x,
			cfg.grid.y, cfg.block.x, cfg.block.y, cfg.threads, cfg.check ? " check" : "",
			cfg.schedule_seeded ? " seeded" : "", cfg.trace ? " trace" : "",
			(unsigned long long)cfg.schedule_seed);
	}
	if ((h[6] & 0x3cu) == 0x3cu && we_jit_available())
		differential(wm, &cfg, params, h[5]);
	for (unsigned e = 0; e < TH_NENGINES; e++) {
		cfg.engine = th_id(e);
		result a;
		launch(wm, &cfg, params, h[5], host_a, &a);
		if (cfg.schedule_seeded && e == (h[6] & 1u) && a.st != WE_ERR_TIMEOUT) {
			/* the same seed: the same verdict, report and memory */
			result b;
			launch(wm, &cfg, params, h[5], host_b, &b);
			if (b.st != WE_ERR_TIMEOUT) {
				FZ_CHECK(a.st == b.st, "seeded replay on %s: status %d then %d",
					 we_engine_name(cfg.engine), (int)a.st, (int)b.st);
				if (a.st != WE_OK) {
					FZ_CHECK(!strcmp(a.err, b.err), "seeded replay on %s: report\n%s\nthen\n%s",
						 we_engine_name(cfg.engine), a.err, b.err);
					FZ_CHECK(!strcmp(a.json, b.json),
						 "seeded replay on %s: JSON report\n%s\nthen\n%s",
						 we_engine_name(cfg.engine), a.json, b.json);
				}
				FZ_CHECK(!memcmp(host_a, host_b, GBUF_BYTES), "seeded replay on %s: memory differs",
					 we_engine_name(cfg.engine));
			}
			result_free(&b);
		}
		result_free(&a);
	}
	we_module_destroy(wm);
	return 0;
}
