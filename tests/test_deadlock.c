/* test_deadlock — the barrier-deadlock corpus of tests/deadlock/.
 *
 * Every tests/deadlock/NAME.we starts with a header of comment lines that
 * says how to launch it and what must happen (the grammar is in
 * tests/deadlock/README.md).  Each kernel runs through the public API
 * under every engine (tests/engines.h), unseeded and with seeded
 * schedules, always with check mode on, and the test asserts:
 *   - the verdict: the status and the JSON report's "verdict" and "kind";
 *   - for deadlocks, the JSON fields the header names (barriers, blocked
 *     warps and their number, exited warps, the wait-for cycle, warps'
 *     PCs, intra-warp) and that the report is self-consistent (every live
 *     warp blocked, each blocked warp among its barrier's arrivals or
 *     signals, each cycle edge a real wait, an intra-warp deadlock's lane
 *     groups);
 *   - the result buffers the header names;
 *   - the check-mode warnings: every expected kind appears, no other;
 *   - replay: the same seed twice gives the same status, JSON report,
 *     warnings and result buffers;
 *   - the same verdict and checks once more on an engine with jitter
 *     (warp-threads: real thread timing, random delays; no replay).
 * A file whose header is malformed fails with its name.
 *
 * Seeded runs use one host thread (one CTA at a time), so which CTAs run
 * before a fault stops the launch is fixed too and replays compare whole
 * buffers; unseeded runs use every core.
 *
 * Development aids: DK_ONLY=substring runs only the files whose name
 * contains it; DK_SEEDS=N runs seeds 1..N instead of the header's;
 * DK_VERBOSE=1 prints every run's status, JSON and warnings.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpemu/warpemu.h"

#include "harness.h"

/* Safety nets: a kernel that hangs fails instead of stalling make check. */
#define DEFAULT_MAX_INSNS 1000000u
#define WALL_TIMEOUT_S 30.0
#define DEFAULT_SEEDS 3u
#define MIN_KERNELS 32u

/* ================================================================ */
/* A small JSON reader (objects, arrays, strings, numbers, literals)  */

typedef enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
	jtype t;
	bool b;
	double num;
	char *str;
	size_t n;       /* items of an array or object */
	struct jv *items;
	char **keys;    /* object keys */
} jv;

static void jv_free(jv *v)
{
	free(v->str);
	for (size_t i = 0; i < v->n; i++) {
		jv_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof *v);
}

static void jskip(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
		(*p)++;
}

static bool jstring(const char **p, char **out)
{
	if (**p != '"')
		return false;
	(*p)++;
	size_t cap = 32, len = 0;
	char *s = malloc(cap);
	if (!s)
		return false;
	while (**p != '"') {
		char c = **p;
		if (!c || (unsigned char)c < 0x20) {
			free(s);
			return false;
		}
		(*p)++;
		if (c == '\\') {
			char e = **p;
			(*p)++;
			switch (e) {
			case '"': case '\\': case '/': c = e; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned v = 0;
				for (int k = 0; k < 4; k++) {
					char h = **p;
					if (!isxdigit((unsigned char)h)) {
						free(s);
						return false;
					}
					v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0'
								: tolower((unsigned char)h) - 'a' + 10);
					(*p)++;
				}
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			default:
				free(s);
				return false;
			}
		}
		if (len + 2 > cap) {
			char *q = realloc(s, cap *= 2);
			if (!q) {
				free(s);
				return false;
			}
			s = q;
		}
		s[len++] = c;
	}
	(*p)++;
	s[len] = 0;
	*out = s;
	return true;
}

static bool jvalue(const char **p, jv *v, int depth);

static bool jpush(jv *v, char *key, const char **p, int depth)
{
	jv *items = realloc(v->items, (v->n + 1) * sizeof *items);
	if (!items)
		return false;
	v->items = items;
	if (v->t == J_OBJ) {
		char **keys = realloc(v->keys, (v->n + 1) * sizeof *keys);
		if (!keys)
			return false;
		v->keys = keys;
		v->keys[v->n] = key;
	}
	memset(&v->items[v->n], 0, sizeof v->items[v->n]);
	v->n++;
	return jvalue(p, &v->items[v->n - 1], depth + 1);
}

static bool jvalue(const char **p, jv *v, int depth)
{
	memset(v, 0, sizeof *v);
	if (depth > 64)
		return false;
	jskip(p);
	char c = **p;
	if (c == '{' || c == '[') {
		v->t = c == '{' ? J_OBJ : J_ARR;
		char close = c == '{' ? '}' : ']';
		(*p)++;
		jskip(p);
		if (**p == close) {
			(*p)++;
			return true;
		}
		for (;;) {
			char *key = NULL;
			if (v->t == J_OBJ) {
				jskip(p);
				if (!jstring(p, &key))
					return false;
				jskip(p);
				if (**p != ':') {
					free(key);
					return false;
				}
				(*p)++;
			}
			if (!jpush(v, key, p, depth))
				return false;
			jskip(p);
			if (**p == ',') {
				(*p)++;
				continue;
			}
			if (**p == close) {
				(*p)++;
				return true;
			}
			return false;
		}
	}
	if (c == '"') {
		v->t = J_STR;
		return jstring(p, &v->str);
	}
	if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
		v->t = J_BOOL;
		v->b = c == 't';
		*p += v->b ? 4 : 5;
		return true;
	}
	if (!strncmp(*p, "null", 4)) {
		v->t = J_NULL;
		*p += 4;
		return true;
	}
	if (c == '-' || isdigit((unsigned char)c)) {
		char *end;
		v->t = J_NUM;
		v->num = strtod(*p, &end);
		if (end == *p)
			return false;
		*p = end;
		return true;
	}
	return false;
}

/* Parse a whole document; false on any syntax error or trailing text. */
static bool json_parse(const char *text, jv *out)
{
	const char *p = text;
	if (!jvalue(&p, out, 0)) {
		jv_free(out);
		return false;
	}
	jskip(&p);
	if (*p) {
		jv_free(out);
		return false;
	}
	return true;
}

static const jv *jget(const jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->items[i];
	return NULL;
}

static const char *jstr(const jv *o, const char *key)
{
	const jv *v = jget(o, key);
	return v && v->t == J_STR ? v->str : NULL;
}

/* An integer member, or -1 when missing or not a number. */
static long jint(const jv *o, const char *key)
{
	const jv *v = jget(o, key);
	return v && v->t == J_NUM ? (long)v->num : -1;
}

/* ================================================================ */
/* Kernel headers                                                     */

#define MAX_ARGS 16
#define MAX_BUFCHECKS 128
#define MAX_KINDS 8
#define MAX_PCS 8
#define MAX_CYCLE 33

typedef enum verdict { V_OK, V_DEADLOCK, V_EXCEPTION, V_TIMEOUT } verdict;

static const char *const verdict_names[] = { "ok", "deadlock", "exception", "timeout" };
static const we_status verdict_status[] = { WE_OK, WE_ERR_DEADLOCK, WE_ERR_EXCEPTION, WE_ERR_TIMEOUT };

/* The check-mode warnings the emulator knows (we_last_warnings lines). */
static const char *const known_kinds[] = { "divergent-barrier", "second-arrival", "barrier-left-armed",
					   "warpsync-exited-lanes", "scan-result-unread",
					   "named-barrier-left-armed", "named-barrier-never-waited",
					   "arrivals-beyond-count" };
#define NKNOWN (sizeof known_kinds / sizeof known_kinds[0])

typedef struct harg {
	char name[64];
	bool is_buf;
	uint32_t value;  /* u32 */
	uint32_t bytes;  /* buf */
} harg;

typedef struct hbufcheck {
	unsigned arg;    /* index into args */
	uint32_t first, last, value;
} hbufcheck;

typedef struct header {
	/* launch: */
	we_dim3 grid, block;
	uint64_t max_insns;
	unsigned seeds;
	harg args[MAX_ARGS];
	unsigned nargs;
	/* expect: */
	verdict v;
	hbufcheck checks[MAX_BUFCHECKS];
	unsigned nchecks;
	bool intra;                 /* deadlock: intra-warp                   */
	bool has_bars;
	uint32_t bars;              /* deadlock: barriers waited on (bit/id);
				       CTA barriers 0..15, named ones 0..31 */
	bool has_warps;
	uint32_t warps;             /* deadlock: blocked (or reporting) warps  */
	int nblocked;               /* deadlock: how many blocked, -1 unchecked */
	unsigned npcs;
	unsigned pc_w[MAX_PCS];     /* deadlock: warp pc_w[i]'s entry shows    */
	uint64_t pc_v[MAX_PCS];     /*   PC pc_v[i]                            */
	bool has_exited;
	uint32_t exited;            /* deadlock: exited warps                  */
	int cycle;                  /* 0 unchecked, 1 any, 2 none, 3 exact     */
	unsigned ncyc;
	unsigned cyc_w[MAX_CYCLE], cyc_b[MAX_CYCLE];
	char exc_kind[64];          /* exception: substring of "kind"          */
	/* expect-check: */
	unsigned nkinds;
	unsigned kinds[MAX_KINDS];  /* index into known_kinds */
	bool optional[MAX_KINDS];
	/* seen */
	bool has_launch, has_expect, has_check, has_why;
} header;

/* Parse an unsigned number (decimal or 0x hex) that is the whole token. */
static bool parse_u64(const char *s, uint64_t *out)
{
	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (*end)
		return false;
	*out = v;
	return true;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;
	if (!parse_u64(s, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* "X[,Y[,Z]]" */
static bool parse_dim(const char *s, we_dim3 *d)
{
	char buf[64];
	if (strlen(s) >= sizeof buf)
		return false;
	strcpy(buf, s);
	uint32_t v[3] = { 1, 1, 1 };
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == 3 || !parse_u32(t, &v[n]) || !v[n])
			return false;
		n++;
	}
	if (!n || s[strlen(s) - 1] == ',')
		return false;
	*d = (we_dim3){ v[0], v[1], v[2] };
	return true;
}

/* "W,W,..." -> a bit set of values < limit */
static bool parse_set(const char *s, unsigned limit, uint32_t *set)
{
	char buf[256];
	if (!*s || strlen(s) >= sizeof buf || s[strlen(s) - 1] == ',')
		return false;
	strcpy(buf, s);
	*set = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint32_t v;
		if (!parse_u32(t, &v) || v >= limit)
			return false;
		*set |= 1u << v;
	}
	return true;
}

#define MAX_TOKENS 256

static unsigned tokenize(char *s, char **tok)
{
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(s, " \t", &save); t && n < MAX_TOKENS; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

/* The header line being parsed (0: the header as a whole). */
static unsigned hdr_line;

#define HFAIL(...)                                                                         \
	do {                                                                               \
		int n_ = hdr_line ? snprintf(err, errlen, "line %u: ", hdr_line) : 0;       \
		if (n_ < 0 || (size_t)n_ >= errlen)                                         \
			n_ = 0;                                                            \
		snprintf(err + n_, errlen - (size_t)n_, __VA_ARGS__);                      \
		return false;                                                              \
	} while (0)

static int find_arg(const header *h, const char *name)
{
	for (unsigned i = 0; i < h->nargs; i++)
		if (!strcmp(h->args[i].name, name))
			return (int)i;
	return -1;
}

static bool parse_launch(header *h, char *rest, char *err, size_t errlen)
{
	char *tok[MAX_TOKENS];
	unsigned n = tokenize(rest, tok);
	for (unsigned i = 0; i < n; i++) {
		char *t = tok[i];
		if (!strncmp(t, "grid=", 5)) {
			if (!parse_dim(t + 5, &h->grid))
				HFAIL("launch: bad grid '%s'", t + 5);
		} else if (!strncmp(t, "block=", 6)) {
			if (!parse_dim(t + 6, &h->block))
				HFAIL("launch: bad block '%s'", t + 6);
		} else if (!strncmp(t, "max_instructions=", 17)) {
			if (!parse_u64(t + 17, &h->max_insns) || !h->max_insns)
				HFAIL("launch: bad max_instructions '%s'", t + 17);
		} else if (!strncmp(t, "seeds=", 6)) {
			uint32_t s;
			if (!parse_u32(t + 6, &s) || s > 64)
				HFAIL("launch: bad seeds '%s' (0..64)", t + 6);
			h->seeds = s;
		} else if (!strcmp(t, "arg")) {
			if (++i == n)
				HFAIL("launch: 'arg' without NAME=TYPE:VALUE");
			char *eq = strchr(tok[i], '='), *colon = eq ? strchr(eq, ':') : NULL;
			if (!eq || !colon || eq == tok[i])
				HFAIL("launch: bad arg '%s' (NAME=u32:VALUE or NAME=buf:BYTES)", tok[i]);
			*eq = 0;
			*colon = 0;
			if (h->nargs == MAX_ARGS)
				HFAIL("launch: more than %d args", MAX_ARGS);
			if (strlen(tok[i]) >= sizeof h->args[0].name || find_arg(h, tok[i]) >= 0)
				HFAIL("launch: arg name '%s' too long or repeated", tok[i]);
			harg *a = &h->args[h->nargs];
			strcpy(a->name, tok[i]);
			if (!strcmp(eq + 1, "u32")) {
				if (!parse_u32(colon + 1, &a->value))
					HFAIL("launch: arg %s: bad u32 '%s'", a->name, colon + 1);
			} else if (!strcmp(eq + 1, "buf")) {
				a->is_buf = true;
				if (!parse_u32(colon + 1, &a->bytes) || !a->bytes || a->bytes > (64u << 20))
					HFAIL("launch: arg %s: bad buffer size '%s'", a->name, colon + 1);
			} else {
				HFAIL("launch: arg %s: unknown type '%s' (u32 or buf)", a->name, eq + 1);
			}
			h->nargs++;
		} else {
			HFAIL("launch: unknown item '%s'", t);
		}
	}
	return true;
}

/* buf NAME u32 I=V I..J=V ...  starting at tok[*i] == "buf" */
static bool parse_bufcheck(header *h, char **tok, unsigned n, unsigned *i, char *err, size_t errlen)
{
	if (*i + 2 >= n)
		HFAIL("expect: 'buf' needs NAME u32 INDEX=VALUE...");
	const char *name = tok[*i + 1];
	int a = find_arg(h, name);
	if (a < 0 || !h->args[a].is_buf)
		HFAIL("expect: buf %s: no such buffer argument in the launch line", name);
	if (strcmp(tok[*i + 2], "u32"))
		HFAIL("expect: buf %s: element type '%s' (only u32)", name, tok[*i + 2]);
	*i += 3;
	unsigned before = h->nchecks;
	while (*i < n && isdigit((unsigned char)tok[*i][0])) {
		char *t = tok[*i], *eq = strchr(t, '=');
		if (!eq)
			HFAIL("expect: buf %s: bad check '%s' (INDEX=VALUE or FIRST..LAST=VALUE)", name, t);
		*eq = 0;
		hbufcheck c = { .arg = (unsigned)a };
		char *dots = strstr(t, "..");
		if (dots) {
			*dots = 0;
			if (!parse_u32(t, &c.first) || !parse_u32(dots + 2, &c.last) || c.last < c.first)
				HFAIL("expect: buf %s: bad index range in check", name);
		} else if (!parse_u32(t, &c.first)) {
			HFAIL("expect: buf %s: bad index '%s'", name, t);
		} else {
			c.last = c.first;
		}
		if (!parse_u32(eq + 1, &c.value))
			HFAIL("expect: buf %s: bad value '%s'", name, eq + 1);
		if ((uint64_t)c.last * 4 + 4 > h->args[a].bytes)
			HFAIL("expect: buf %s: index %u beyond its %u bytes", name, c.last, h->args[a].bytes);
		if (h->nchecks == MAX_BUFCHECKS)
			HFAIL("expect: more than %d buffer checks", MAX_BUFCHECKS);
		h->checks[h->nchecks++] = c;
		(*i)++;
	}
	if (h->nchecks == before)
		HFAIL("expect: buf %s: no INDEX=VALUE checks", name);
	return true;
}

/* "W:B,W:B,..." */
static bool parse_cycle(header *h, const char *s)
{
	char buf[512];
	if (!*s || strlen(s) >= sizeof buf || s[strlen(s) - 1] == ',')
		return false;
	strcpy(buf, s);
	h->ncyc = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(t, ':');
		uint32_t w, b;
		if (!colon || h->ncyc == MAX_CYCLE - 1)
			return false;
		*colon = 0;
		if (!parse_u32(t, &w) || w >= 32 || !parse_u32(colon + 1, &b) || b >= 32)
			return false;
		h->cyc_w[h->ncyc] = w;
		h->cyc_b[h->ncyc] = b;
		h->ncyc++;
	}
	return h->ncyc >= 2;
}

static bool parse_expect(header *h, char *rest, char *err, size_t errlen)
{
	char *tok[MAX_TOKENS];
	unsigned n = tokenize(rest, tok);
	if (!n)
		HFAIL("expect: no verdict (ok, deadlock, exception KIND or timeout)");
	unsigned i = 1;
	if (!strcmp(tok[0], "ok")) {
		h->v = V_OK;
	} else if (!strcmp(tok[0], "deadlock")) {
		h->v = V_DEADLOCK;
	} else if (!strcmp(tok[0], "timeout")) {
		h->v = V_TIMEOUT;
	} else if (!strcmp(tok[0], "exception")) {
		h->v = V_EXCEPTION;
		if (n < 2 || !strcmp(tok[1], "buf") || strlen(tok[1]) >= sizeof h->exc_kind)
			HFAIL("expect: exception needs the kind (a substring of the JSON \"kind\")");
		strcpy(h->exc_kind, tok[1]);
		i = 2;
	} else {
		HFAIL("expect: unknown verdict '%s'", tok[0]);
	}
	for (; i < n;) {
		char *t = tok[i];
		if (!strcmp(t, "buf")) {
			if (!parse_bufcheck(h, tok, n, &i, err, errlen))
				return false;
			continue;
		}
		if (h->v != V_DEADLOCK)
			HFAIL("expect: '%s' is not allowed after %s", t, verdict_names[h->v]);
		if (!strcmp(t, "intra-warp")) {
			h->intra = true;
		} else if (!strncmp(t, "barrier=", 8)) {
			h->has_bars = true;
			if (!parse_set(t + 8, 32, &h->bars))
				HFAIL("expect: bad barrier set '%s'", t + 8);
		} else if (!strncmp(t, "warps=", 6)) {
			h->has_warps = true;
			if (!parse_set(t + 6, 32, &h->warps))
				HFAIL("expect: bad warp set '%s'", t + 6);
		} else if (!strncmp(t, "blocked=", 8)) {
			uint32_t nb;
			if (!parse_u32(t + 8, &nb) || !nb || nb > 32)
				HFAIL("expect: bad blocked count '%s' (1..32)", t + 8);
			h->nblocked = (int)nb;
		} else if (!strncmp(t, "pc=", 3)) {
			char buf[256];
			if (strlen(t + 3) >= sizeof buf || !t[3] || t[strlen(t) - 1] == ',')
				HFAIL("expect: bad pc list '%s' (WARP:PC,...)", t + 3);
			strcpy(buf, t + 3);
			for (char *save = NULL, *q = strtok_r(buf, ",", &save); q; q = strtok_r(NULL, ",", &save)) {
				char *colon = strchr(q, ':');
				uint32_t w;
				uint64_t v;
				if (!colon || h->npcs == MAX_PCS)
					HFAIL("expect: bad pc list '%s' (WARP:PC,..., at most %d)", t + 3, MAX_PCS);
				*colon = 0;
				if (!parse_u32(q, &w) || w >= 32 || !parse_u64(colon + 1, &v) || v % 16)
					HFAIL("expect: bad pc item in '%s' (WARP:PC, PC a multiple of 16)", t + 3);
				h->pc_w[h->npcs] = w;
				h->pc_v[h->npcs] = v;
				h->npcs++;
			}
		} else if (!strncmp(t, "exited=", 7)) {
			h->has_exited = true;
			if (!strcmp(t + 7, "none"))
				h->exited = 0;
			else if (!parse_set(t + 7, 32, &h->exited))
				HFAIL("expect: bad exited set '%s'", t + 7);
		} else if (!strcmp(t, "cycle")) {
			h->cycle = 1;
		} else if (!strcmp(t, "nocycle")) {
			h->cycle = 2;
		} else if (!strncmp(t, "cycle=", 6)) {
			h->cycle = 3;
			if (!parse_cycle(h, t + 6))
				HFAIL("expect: bad cycle '%s' (WARP:BARRIER,WARP:BARRIER,...)", t + 6);
		} else {
			HFAIL("expect: unknown deadlock item '%s'", t);
		}
		i++;
	}
	if (h->intra && (h->has_bars || h->has_exited || h->cycle || h->nblocked >= 0))
		HFAIL("expect: intra-warp deadlocks take only warps= and pc=");
	return true;
}

static bool parse_check(header *h, char *rest, char *err, size_t errlen)
{
	char *tok[MAX_TOKENS];
	unsigned n = tokenize(rest, tok);
	if (!n)
		HFAIL("expect-check: no kinds (use 'none')");
	if (n == 1 && !strcmp(tok[0], "none"))
		return true;
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(tok[i]);
		bool opt = len && tok[i][len - 1] == '?';
		if (opt)
			tok[i][len - 1] = 0;
		unsigned k = 0;
		while (k < NKNOWN && strcmp(tok[i], known_kinds[k]))
			k++;
		if (k == NKNOWN)
			HFAIL("expect-check: unknown kind '%s'", tok[i]);
		for (unsigned j = 0; j < h->nkinds; j++)
			if (h->kinds[j] == k)
				HFAIL("expect-check: kind '%s' repeated", tok[i]);
		h->kinds[h->nkinds] = k;
		h->optional[h->nkinds] = opt;
		h->nkinds++;
	}
	return true;
}

/* The header: the file's leading lines that start with "//". */
static bool parse_header(const char *text, header *h, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->nblocked = -1;
	h->seeds = DEFAULT_SEEDS;
	h->max_insns = DEFAULT_MAX_INSNS;
	const char *p = text;
	const char *last_key = NULL;
	hdr_line = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		hdr_line++;
		if (len < 2 || p[0] != '/' || p[1] != '/')
			break;
		char line[2048];
		if (len >= sizeof line)
			HFAIL("header line too long");
		memcpy(line, p + 2, len - 2);
		line[len - 2] = 0;
		if (len > 2 && line[len - 3] == '\r')
			line[len - 3] = 0;
		p = eol ? eol + 1 : p + len;
		char *s = line;
		if (*s != ' ')
			HFAIL("header lines are '// key: ...'");
		while (*s == ' ')
			s++;
		if (s - line > 1) {
			/* "//   text": a continuation of the why: line */
			if (!last_key || strcmp(last_key, "why"))
				HFAIL("an indented header line continues only 'why:'");
			continue;
		}
		char *colon = strchr(s, ':');
		if (!colon)
			HFAIL("no 'key:' (launch, expect, expect-check, why)");
		*colon = 0;
		char *rest = colon + 1;
		bool ok = true;
		if (!strcmp(s, "launch")) {
			last_key = "launch";
			h->has_launch = true;
			ok = parse_launch(h, rest, err, errlen);
		} else if (!strcmp(s, "expect")) {
			if (h->has_expect)
				HFAIL("a second 'expect:'");
			if (!h->has_launch)
				HFAIL("'expect:' before 'launch:'");
			last_key = "expect";
			h->has_expect = true;
			ok = parse_expect(h, rest, err, errlen);
		} else if (!strcmp(s, "expect-check")) {
			if (h->has_check)
				HFAIL("a second 'expect-check:'");
			last_key = "expect-check";
			h->has_check = true;
			ok = parse_check(h, rest, err, errlen);
		} else if (!strcmp(s, "why")) {
			if (h->has_why)
				HFAIL("a second 'why:'");
			last_key = "why";
			while (*rest == ' ')
				rest++;
			if (!*rest)
				HFAIL("empty 'why:'");
			h->has_why = true;
		} else {
			HFAIL("unknown header key '%s'", s);
		}
		if (!ok)
			return false;
	}
	hdr_line = 0;
	if (!h->has_launch || !h->has_expect || !h->has_why)
		HFAIL("the header needs 'launch:', 'expect:' and 'why:' lines");
	if (!h->grid.x || !h->block.x)
		HFAIL("launch: grid= and block= are required");
	if ((uint64_t)h->block.x * h->block.y * h->block.z > 1024)
		HFAIL("launch: more than 1024 threads per CTA");
	return true;
}

/* ================================================================ */
/* Runs                                                               */

static char corpus_dir[1024];
static char **files;
static unsigned nfiles;

typedef struct kfile {
	const char *name;
	header h;
	th_kernel t; /* the buffers of the header's args, in order */
} kfile;

typedef struct run {
	char label[128];
	th_run x;
} run;

/* A run: seeded (schedule_seeded), or with jitter (warp threads with
 * random delays from seed), or neither; the buffers zeroed before. */
static void do_run(kfile *f, we_engine e, bool seeded, bool jitter, uint64_t seed, run *r)
{
	memset(r, 0, sizeof *r);
	if (seeded || jitter)
		snprintf(r->label, sizeof r->label, "%s [%s, %s %llu]", f->name, we_engine_name(e),
			 jitter ? "jitter" : "seed", (unsigned long long)seed);
	else
		snprintf(r->label, sizeof r->label, "%s [%s, unseeded]", f->name, we_engine_name(e));
	const header *h = &f->h;
	we_launch_config cfg = {
		.grid = h->grid, .block = h->block, .engine = e, .max_instructions = h->max_insns,
		.schedule_seeded = seeded, .schedule_seed = seed, .check = true, .timeout = WALL_TIMEOUT_S,
		.threads = seeded ? 1 : 0, .jitter = jitter,
	};
	th_run_launch(&f->t, &cfg, &r->x);
	if (getenv("DK_VERBOSE"))
		fprintf(stderr, "== %s: %s\n%s%s%s%s\n", r->label, we_status_name(r->x.st),
			r->x.st ? r->x.err : "", r->x.st ? "\n" : "", r->x.json, r->x.warn);
}

/* Warnings: every expected kind appears, no other; the count matches. */
static void check_warnings(const kfile *f, const run *r)
{
	const header *h = &f->h;
	unsigned seen[NKNOWN] = { 0 };
	unsigned lines = 0;
	for (const char *p = r->x.warn; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		lines++;
		CHECK(len > 7 && !strncmp(p, "check: ", 7), "%s: malformed warning line: %.*s", r->label,
		      (int)len, p);
		const char *kind = p + 7, *end = memchr(kind, ':', len - 7);
		CHECK(end != NULL, "%s: warning line without a kind: %.*s", r->label, (int)len, p);
		unsigned k = 0;
		while (k < NKNOWN && ((size_t)(end - kind) != strlen(known_kinds[k]) ||
				      strncmp(kind, known_kinds[k], (size_t)(end - kind))))
			k++;
		CHECK(k < NKNOWN, "%s: unknown warning kind in: %.*s", r->label, (int)len, p);
		/* "check: KIND: CTA (x,y,z) warp W PC 0x...: INSN: message" */
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)len, end);
		CHECK(!strncmp(line, ": CTA (", 7) && strstr(line, ") warp ") && strstr(line, " PC 0x"),
		      "%s: warning line not in the documented form: %.*s", r->label, (int)len, p);
		seen[k]++;
		p = eol ? eol + 1 : p + len;
	}
	if (r->x.s.warnings <= 1000)
		CHECK(r->x.s.warnings == lines, "%s: stats.warnings = %llu but %u warning lines:\n%s", r->label,
		      (unsigned long long)r->x.s.warnings, lines, r->x.warn);
	for (unsigned k = 0; k < NKNOWN; k++) {
		bool expected = false, required = false;
		for (unsigned j = 0; j < h->nkinds; j++)
			if (h->kinds[j] == k) {
				expected = true;
				required = !h->optional[j];
			}
		CHECK(expected || !seen[k], "%s: unexpected check warning %s:\n%s", r->label, known_kinds[k],
		      r->x.warn);
		CHECK(!required || seen[k], "%s: check warning %s missing; warnings:\n%s", r->label,
		      known_kinds[k], *r->x.warn ? r->x.warn : "(none)\n");
	}
}

static void check_buffers(const kfile *f, const run *r)
{
	const header *h = &f->h;
	for (unsigned c = 0; c < h->nchecks; c++) {
		const hbufcheck *k = &h->checks[c];
		for (uint32_t i = k->first; i <= k->last; i++) {
			uint32_t got;
			memcpy(&got, th_view(&f->t, r->x.mem, h->args[k->arg].name) + (size_t)i * 4, 4);
			CHECK(got == k->value, "%s: %s[%u] = 0x%x (%u), want 0x%x (%u)%s%s", r->label,
			      h->args[k->arg].name, i, got, got, k->value, k->value, r->x.st ? "; report:\n" : "",
			      r->x.st ? r->x.err : "");
		}
	}
}

static uint32_t warps_in_state(const jv *warps, const char *state)
{
	uint32_t set = 0;
	for (size_t i = 0; warps && i < warps->n; i++) {
		const jv *w = &warps->items[i];
		const char *s = jstr(w, "state");
		long id = jint(w, "warp");
		if (s && !strcmp(s, state) && id >= 0 && id < 32)
			set |= 1u << id;
	}
	return set;
}

static const jv *find_by_id(const jv *arr, const char *key, long id)
{
	for (size_t i = 0; arr && i < arr->n; i++)
		if (jint(&arr->items[i], key) == id)
			return &arr->items[i];
	return NULL;
}

static bool arrived_has(const jv *bar, long warp, const char **pc)
{
	const jv *arr = jget(bar, "arrived");
	for (size_t i = 0; arr && i < arr->n; i++)
		if (jint(&arr->items[i], "warp") == warp) {
			if (pc)
				*pc = jstr(&arr->items[i], "pc");
			return true;
		}
	return false;
}

/* The named-barrier entry of the report's "barriers" for id nb. */
static const jv *find_nbar(const jv *bars, long nb)
{
	return find_by_id(bars, "named_barrier", nb);
}

/* Warp `warp` among a named barrier's signals; *type its type. */
static bool signalled_has(const jv *nbar, long warp, const char **type)
{
	const jv *sig = jget(nbar, "signalled");
	for (size_t i = 0; sig && i < sig->n; i++)
		if (jint(&sig->items[i], "warp") == warp) {
			if (type)
				*type = jstr(&sig->items[i], "type");
			return true;
		}
	return false;
}

/* A named-barrier entry: a phase short of its counts, each signal with
 * its warp, type, PC and NBARRIER.signal, the counts those signals. */
static void check_nbar_entry(const run *r, const jv *nb)
{
	const char *L = r->label;
	const jv *sig = jget(nb, "signalled");
	long id = jint(nb, "named_barrier"), p = jint(nb, "producers"), np = jint(nb, "num_producers");
	long k = jint(nb, "consumers"), nk = jint(nb, "num_consumers");
	CHECK(id >= 0 && id < 32 && jint(nb, "phase") >= 0 && p >= 0 && np > 0 && k >= 0 && nk > 0 && sig &&
		      sig->t == J_ARR && sig->n,
	      "%s: malformed named-barrier entry:\n%s", L, r->x.json);
	CHECK(p < np || k < nk, "%s: named barrier %ld is listed with a complete phase:\n%s", L, id, r->x.json);
	long sp = 0, sk = 0;
	for (size_t i = 0; i < sig->n; i++) {
		const jv *e = &sig->items[i];
		const char *type = jstr(e, "type"), *ins = jstr(e, "instruction");
		CHECK(jint(e, "warp") >= 0 && jstr(e, "pc") && ins && !strncmp(ins, "NBARRIER.signal", 15) && type,
		      "%s: named barrier %ld: malformed signal entry:\n%s", L, id, r->x.json);
		bool prod = !strcmp(type, "producer-only") || !strcmp(type, "producer-consumer");
		bool cons = !strcmp(type, "consumer-only") || !strcmp(type, "producer-consumer");
		CHECK(prod || cons, "%s: named barrier %ld: signal of unknown type %s:\n%s", L, id, type, r->x.json);
		sp += prod;
		sk += cons;
	}
	CHECK(sp == p && sk == k, "%s: named barrier %ld: producers %ld and consumers %ld, but its signals "
				  "give %ld and %ld:\n%s", L, id, p, k, sp, sk, r->x.json);
}

/* A barrier deadlock report: the header's fields and self-consistency. */
static void check_barrier_deadlock(const kfile *f, const run *r, const jv *doc)
{
	const header *h = &f->h;
	const char *L = r->label;
	const jv *warps = jget(doc, "warps"), *bars = jget(doc, "barriers"), *exited = jget(doc, "exited"),
		 *cycle = jget(doc, "cycle");
	CHECK(warps && warps->t == J_ARR && bars && bars->t == J_ARR && exited && exited->t == J_ARR && cycle &&
		      cycle->t == J_ARR,
	      "%s: deadlock report lacks warps/barriers/exited/cycle arrays:\n%s", L, r->x.json);
	const char *msg = jstr(doc, "message");
	CHECK(msg && strncmp(msg, "intra-warp", 10), "%s: a barrier deadlock reported as intra-warp:\n%s", L,
	      r->x.json);
	uint32_t nwarps = (h->block.x * h->block.y * h->block.z + 31) / 32;
	CHECK(warps->n == nwarps, "%s: %zu warps in the report, the CTA has %u:\n%s", L, warps->n, nwarps,
	      r->x.json);
	/* spec-reading decision 11: every live warp is blocked */
	uint32_t blocked = warps_in_state(warps, "blocked"), gone = warps_in_state(warps, "exited");
	CHECK((blocked | gone) == (nwarps == 32 ? ~0u : (1u << nwarps) - 1u) && blocked,
	      "%s: a deadlock needs every live warp blocked:\n%s", L, r->x.json);
	uint32_t exited_set = 0;
	for (size_t i = 0; i < exited->n; i++)
		if (exited->items[i].t == J_NUM)
			exited_set |= 1u << (unsigned)exited->items[i].num;
	CHECK(exited_set == gone, "%s: \"exited\" disagrees with the warps' states:\n%s", L, r->x.json);
	uint32_t waited = 0;
	for (size_t i = 0; i < warps->n; i++) {
		const jv *w = &warps->items[i];
		const char *st = jstr(w, "state");
		if (!st || strcmp(st, "blocked"))
			continue;
		long id = jint(w, "warp"), b = jint(w, "barrier"), nb = jint(w, "named_barrier");
		if (nb >= 0) {
			/* a vISA named barrier (dialect visa): a phase short of its
			 * producers or consumers */
			long p = jint(w, "producers"), np = jint(w, "num_producers");
			long k = jint(w, "consumers"), nk = jint(w, "num_consumers");
			CHECK(nb < 32 && p >= 0 && np >= 0 && k >= 0 && nk >= 0 && (p < np || k < nk),
			      "%s: warp %ld blocked on named barrier %ld, whose phase looks complete or is "
			      "malformed:\n%s", L, id, nb, r->x.json);
			CHECK(jstr(w, "instruction") && !strncmp(jstr(w, "instruction"), "NBARRIER.wait", 13),
			      "%s: warp %ld is blocked on a named barrier, not at an NBARRIER.wait:\n%s", L, id,
			      r->x.json);
			/* the barrier is listed, with this warp's consumer signal */
			const jv *nbe = find_nbar(bars, nb);
			const char *type = NULL;
			CHECK(nbe != NULL, "%s: warp %ld waits on named barrier %ld, which the report does not "
					   "list:\n%s", L, id, nb, r->x.json);
			CHECK(signalled_has(nbe, id, &type) && type && strcmp(type, "producer-only"),
			      "%s: warp %ld waits on named barrier %ld without a consumer signal listed:\n%s", L, id,
			      nb, r->x.json);
			CHECK(jint(nbe, "producers") == p && jint(nbe, "consumers") == k &&
				      jint(nbe, "num_producers") == np && jint(nbe, "num_consumers") == nk,
			      "%s: warp %ld and named barrier %ld disagree on the counts:\n%s", L, id, nb, r->x.json);
			waited |= 1u << nb;
			continue;
		}
		CHECK(b >= 0 && b < 16, "%s: blocked warp %ld without a barrier:\n%s", L, id, r->x.json);
		waited |= 1u << b;
		const jv *bar = find_by_id(bars, "id", b);
		CHECK(bar != NULL, "%s: warp %ld waits on barrier %ld, which the report does not list:\n%s", L, id,
		      b, r->x.json);
		const char *apc = NULL, *wpc = jstr(w, "pc");
		CHECK(arrived_has(bar, id, &apc), "%s: warp %ld blocked on barrier %ld but not among its arrivals:\n%s",
		      L, id, b, r->x.json);
		CHECK(apc && wpc && !strcmp(apc, wpc), "%s: warp %ld: blocked at %s, arrived at %s:\n%s", L, id,
		      wpc ? wpc : "?", apc ? apc : "?", r->x.json);
		CHECK(jstr(w, "instruction") && !strncmp(jstr(w, "instruction"), "BAR", 3),
		      "%s: warp %ld is blocked on a barrier at a non-barrier instruction:\n%s", L, id, r->x.json);
	}
	for (size_t i = 0; i < bars->n; i++) {
		const jv *bar = &bars->items[i];
		if (jget(bar, "named_barrier")) {
			check_nbar_entry(r, bar);
			continue;
		}
		const jv *arr = jget(bar, "arrived"), *all = jget(bar, "all_live");
		long count = jint(bar, "count"), expected = jint(bar, "expected");
		CHECK(arr && arr->t == J_ARR && all && all->t == J_BOOL && count >= 0 && expected >= 0,
		      "%s: malformed barrier entry:\n%s", L, r->x.json);
		CHECK((size_t)count == 32 * arr->n, "%s: barrier %ld: count %ld for %zu arrivals:\n%s", L,
		      jint(bar, "id"), count, arr->n, r->x.json);
		long need = all->b ? 32L * (nwarps - (uint32_t)__builtin_popcount(gone)) : expected;
		CHECK(count < need, "%s: barrier %ld: count %ld reaches %ld yet is not complete:\n%s", L,
		      jint(bar, "id"), count, need, r->x.json);
	}
	/* the headline names a blocked warp and the barrier instruction it
	 * waits at, as its own entry does (not ActivePC's neighbour) */
	const jv *hw = find_by_id(warps, "warp", jint(doc, "warp"));
	const char *hpc = jstr(doc, "pc"), *hins = jstr(doc, "instruction");
	CHECK(hw && jstr(hw, "state") && !strcmp(jstr(hw, "state"), "blocked"),
	      "%s: the report names warp %ld, which is not blocked:\n%s", L, jint(doc, "warp"), r->x.json);
	CHECK(hpc && jstr(hw, "pc") && !strcmp(hpc, jstr(hw, "pc")) && hins && jstr(hw, "instruction") &&
		      !strcmp(hins, jstr(hw, "instruction")),
	      "%s: the report's PC %s (%s) is not where warp %ld waits:\n%s", L, hpc ? hpc : "?",
	      hins ? hins : "?", jint(doc, "warp"), r->x.json);
	if (h->has_bars)
		CHECK(waited == h->bars, "%s: blocked warps wait on barriers 0x%x, want 0x%x (bit per id):\n%s", L,
		      waited, h->bars, r->x.json);
	if (h->has_warps)
		CHECK(blocked == h->warps, "%s: blocked warps 0x%x, want 0x%x (bit per warp):\n%s", L, blocked,
		      h->warps, r->x.json);
	if (h->nblocked >= 0)
		CHECK(__builtin_popcount(blocked) == h->nblocked, "%s: %d warps blocked (0x%x), want %d:\n%s", L,
		      __builtin_popcount(blocked), blocked, h->nblocked, r->x.json);
	if (h->has_exited)
		CHECK(gone == h->exited, "%s: exited warps 0x%x, want 0x%x (bit per warp):\n%s", L, gone,
		      h->exited, r->x.json);
	/* the cycle: WARP waits on BARRIER for the next warp, back to the first */
	size_t n = cycle->n;
	if (n) {
		/* a warp never waits for itself: it has arrived at its barrier */
		CHECK(n >= 3, "%s: a wait-for \"cycle\" of warp %ld alone, where no warp waits for another "
			      "in a cycle:\n%s", L, jint(&cycle->items[0], "warp"), r->x.json);
		CHECK(jint(&cycle->items[0], "warp") == jint(&cycle->items[n - 1], "warp"),
		      "%s: the cycle does not close:\n%s", L, r->x.json);
		for (size_t k = 0; k + 1 < n; k++) {
			long w = jint(&cycle->items[k], "warp"), b = jint(&cycle->items[k], "barrier");
			long nb = jint(&cycle->items[k], "named_barrier");
			long next = jint(&cycle->items[k + 1], "warp");
			const jv *wj = find_by_id(warps, "warp", w), *bar = find_by_id(bars, "id", b);
			if (nb >= 0) {
				const jv *nbe = find_nbar(bars, nb);
				CHECK(wj && jint(wj, "named_barrier") == nb && nbe && !signalled_has(nbe, next, NULL) &&
					      ((blocked >> next) & 1u),
				      "%s: cycle edge warp %ld (named barrier %ld) -> warp %ld is not a wait:\n%s", L,
				      w, nb, next, r->x.json);
			} else {
				CHECK(wj && jint(wj, "barrier") == b && bar && !arrived_has(bar, next, NULL) &&
					      ((blocked >> next) & 1u),
				      "%s: cycle edge warp %ld (barrier %ld) -> warp %ld is not a wait:\n%s", L, w, b,
				      next, r->x.json);
			}
		}
	}
	if (h->cycle == 1)
		CHECK(n, "%s: no wait-for cycle reported:\n%s", L, r->x.json);
	if (h->cycle == 2)
		CHECK(!n, "%s: a cycle reported where there is none:\n%s", L, r->x.json);
	if (h->cycle == 3) {
		/* the same cycle, starting anywhere */
		bool same = n == h->ncyc + 1;
		if (same) {
			long w0 = jint(&cycle->items[0], "warp");
			unsigned rot = 0;
			while (rot < h->ncyc && h->cyc_w[rot] != (unsigned)w0)
				rot++;
			same = rot < h->ncyc;
			for (unsigned k = 0; same && k < h->ncyc; k++) {
				unsigned j = (rot + k) % h->ncyc;
				long b = jint(&cycle->items[k], "barrier");
				if (b < 0)
					b = jint(&cycle->items[k], "named_barrier");
				same = jint(&cycle->items[k], "warp") == (long)h->cyc_w[j] && b == (long)h->cyc_b[j];
			}
		}
		CHECK(same, "%s: the wait-for cycle differs from the header's:\n%s", L, r->x.json);
	}
}

static bool is_sync_insn(const char *insn)
{
	return insn && (!strncmp(insn, "BSYNC", 5) || !strncmp(insn, "WARPSYNC", 8));
}

/* The report's "lanes" text ("0-31", "0,2,4-7") as a mask; 0 when
 * malformed. */
static uint32_t lanes_mask(const char *t)
{
	uint32_t m = 0;
	while (t && isdigit((unsigned char)*t)) {
		char *e;
		unsigned long a = strtoul(t, &e, 10), b = a;
		if (*e == '-')
			b = strtoul(e + 1, &e, 10);
		if (b < a || b > 31)
			return 0;
		for (unsigned long l = a; l <= b; l++)
			m |= 1u << l;
		if (!*e)
			return m;
		if (*e != ',')
			return 0;
		t = e + 1;
	}
	return 0;
}

/* An intra-warp deadlock: the warp is blocked at BSYNC/WARPSYNC and its
 * entry lists its lane groups (lanes, PC, instruction, parked), which
 * split its valid lanes; at least two groups are parked, each at a
 * BSYNC/WARPSYNC and named in the message; the headline's PC and lanes
 * are one parked group's. */
static void check_intra(const run *r, const jv *doc, long w)
{
	const char *L = r->label;
	const jv *we = find_by_id(jget(doc, "warps"), "warp", w);
	const jv *groups = we ? jget(we, "groups") : NULL;
	const jv *sync = we ? jget(we, "sync") : NULL;
	CHECK(we && jstr(we, "state") && !strcmp(jstr(we, "state"), "blocked") && sync && sync->t == J_BOOL &&
		      sync->b && groups && groups->t == J_ARR,
	      "%s: intra-warp deadlock of warp %ld: its entry is not blocked at BSYNC/WARPSYNC with its lane "
	      "groups:\n%s", L, w, r->x.json);
	const char *msg = jstr(doc, "message"), *hpc = jstr(doc, "pc"), *hlanes = jstr(doc, "lanes");
	CHECK(is_sync_insn(jstr(doc, "instruction")) && is_sync_insn(jstr(we, "instruction")) &&
		      jstr(we, "pc") && hpc && !strcmp(jstr(we, "pc"), hpc),
	      "%s: intra-warp deadlock of warp %ld: the report's PC and instruction (%s) and the warp's entry "
	      "(%s) should name the BSYNC/WARPSYNC it waits at:\n%s", L, w, jstr(doc, "instruction"),
	      jstr(we, "instruction") ? jstr(we, "instruction") : "none", r->x.json);
	uint32_t all = 0, valid = (uint32_t)strtoul(jstr(we, "valid") ? jstr(we, "valid") : "0", NULL, 16);
	unsigned parked = 0;
	bool headline = false;
	for (size_t i = 0; i < groups->n; i++) {
		const jv *g = &groups->items[i];
		const char *gl = jstr(g, "lanes"), *gpc = jstr(g, "pc"), *gi = jstr(g, "instruction");
		const jv *pk = jget(g, "parked");
		CHECK(gl && gpc && gi && pk && pk->t == J_BOOL, "%s: malformed lane group:\n%s", L, r->x.json);
		uint32_t lanes = (uint32_t)strtoul(gl, NULL, 16);
		CHECK(lanes && !(lanes & all), "%s: lane groups overlap or are empty:\n%s", L, r->x.json);
		all |= lanes;
		if (!pk->b)
			continue;
		parked++;
		char name[64];
		snprintf(name, sizeof name, "lanes %s at PC %s", gl, gpc);
		CHECK(is_sync_insn(gi) && msg && strstr(msg, name),
		      "%s: parked group %s at %s (%s): not at a BSYNC/WARPSYNC, or not in the message:\n%s", L,
		      gl, gpc, gi, r->x.json);
		if (!strcmp(gpc, hpc))
			headline = lanes_mask(hlanes) == lanes;
	}
	CHECK(all == valid, "%s: the lane groups cover 0x%x, the valid lanes are 0x%x:\n%s", L, all, valid,
	      r->x.json);
	CHECK(parked >= 2, "%s: %u parked group(s): an intra-warp deadlock needs two:\n%s", L, parked, r->x.json);
	CHECK(headline, "%s: the headline's lanes %s at PC %s are not the group parked there:\n%s", L, hlanes,
	      hpc, r->x.json);
}

/* Every live warp's entry has a PC and an instruction (a ready or sleeping
 * warp's next one, ActivePC; a blocked warp's wait), and the header's pc=
 * items. */
static void check_warp_pcs(const kfile *f, const run *r, const jv *doc)
{
	const char *L = r->label;
	const jv *warps = jget(doc, "warps");
	CHECK(warps && warps->t == J_ARR, "%s: no warps in the deadlock report:\n%s", L, r->x.json);
	for (size_t i = 0; i < warps->n; i++) {
		const jv *w = &warps->items[i];
		const char *st = jstr(w, "state");
		CHECK(st, "%s: a warp entry without a state:\n%s", L, r->x.json);
		if (strcmp(st, "exited"))
			CHECK(jstr(w, "pc") && jstr(w, "instruction") && strcmp(jstr(w, "instruction"), "<no instruction>"),
			      "%s: warp %ld (%s) without a PC and instruction:\n%s", L, jint(w, "warp"), st, r->x.json);
	}
	for (unsigned k = 0; k < f->h.npcs; k++) {
		const jv *w = find_by_id(warps, "warp", f->h.pc_w[k]);
		const char *pc = w ? jstr(w, "pc") : NULL;
		CHECK(pc && strtoull(pc, NULL, 16) == f->h.pc_v[k], "%s: warp %u's entry shows PC %s, want 0x%04llx:\n%s",
		      L, f->h.pc_w[k], pc ? pc : "none", (unsigned long long)f->h.pc_v[k], r->x.json);
	}
}

static void check_run(const kfile *f, const run *r)
{
	const header *h = &f->h;
	const char *L = r->label;
	CHECK(r->x.st == verdict_status[h->v], "%s: status %s, want %s; report:\n%s\n%s%s", L,
	      we_status_name(r->x.st), we_status_name(verdict_status[h->v]), r->x.err, r->x.json, r->x.warn);
	if (h->v == V_OK) {
		CHECK(!*r->x.json, "%s: a JSON report after a successful launch: %s", L, r->x.json);
	} else {
		jv doc;
		CHECK(json_parse(r->x.json, &doc), "%s: the JSON report does not parse:\n%s", L, r->x.json);
		const char *verd = jstr(&doc, "verdict"), *kind = jstr(&doc, "kind"), *msg = jstr(&doc, "message");
		const jv *cta = jget(&doc, "cta");
		CHECK(verd && !strcmp(verd, verdict_names[h->v]), "%s: JSON verdict %s, want %s:\n%s", L,
		      verd ? verd : "(none)", verdict_names[h->v], r->x.json);
		CHECK(kind && msg && *msg && cta && cta->t == J_ARR && cta->n == 3 && jint(&doc, "warp") >= 0 &&
			      jstr(&doc, "pc") && jstr(&doc, "instruction") && jstr(&doc, "lanes"),
		      "%s: the JSON report lacks kind/message/cta/warp/pc/instruction/lanes:\n%s", L, r->x.json);
		CHECK(*r->x.err, "%s: no text report (we_last_error) for a failed launch", L);
		/* every CTA of a corpus kernel fails alike: the lowest CTA's
		 * report wins, whatever the order CTAs ran in */
		CHECK(cta->items[0].t == J_NUM && cta->items[1].t == J_NUM && cta->items[2].t == J_NUM &&
			      cta->items[0].num == 0 && cta->items[1].num == 0 && cta->items[2].num == 0,
		      "%s: the report is for CTA (%g,%g,%g), want the lowest, (0,0,0):\n%s", L, cta->items[0].num,
		      cta->items[1].num, cta->items[2].num, r->x.json);
		if (h->v == V_TIMEOUT)
			CHECK(!strcmp(kind, "watchdog"), "%s: timeout of kind %s:\n%s", L, kind, r->x.json);
		if (h->v == V_EXCEPTION) {
			char lk[128], le[64];
			size_t i;
			for (i = 0; kind[i] && i + 1 < sizeof lk; i++)
				lk[i] = (char)tolower((unsigned char)kind[i]);
			lk[i] = 0;
			for (i = 0; h->exc_kind[i] && i + 1 < sizeof le; i++)
				le[i] = (char)tolower((unsigned char)h->exc_kind[i]);
			le[i] = 0;
			CHECK(strstr(lk, le) != NULL, "%s: exception kind \"%s\", want one containing \"%s\":\n%s", L,
			      kind, h->exc_kind, r->x.json);
		}
		if (h->v == V_DEADLOCK) {
			CHECK(!strcmp(kind, "deadlock"), "%s: deadlock of kind %s:\n%s", L, kind, r->x.json);
			if (h->intra) {
				CHECK(!strncmp(msg, "intra-warp deadlock: ", 21),
				      "%s: not reported as an intra-warp deadlock:\n%s", L, r->x.json);
				long w = jint(&doc, "warp");
				if (h->has_warps)
					CHECK(w >= 0 && w < 32 && ((h->warps >> w) & 1u),
					      "%s: intra-warp deadlock reported for warp %ld, want one of 0x%x:\n%s", L,
					      w, h->warps, r->x.json);
				check_intra(r, &doc, w);
			} else {
				check_barrier_deadlock(f, r, &doc);
			}
			check_warp_pcs(f, r, &doc);
		}
		jv_free(&doc);
	}
	check_buffers(f, r);
	check_warnings(f, r);
}

/* A replay: the same status, reports, warnings and buffers. */
static void check_replay(const kfile *f, const run *a, const run *b)
{
	th_expect_same(&f->t, &a->x, &b->x, TH_SAME_ALL_MEMORY | TH_SAME_WARNINGS, "the first run", b->label);
}

static void kfile_open(kfile *f, const char *name)
{
	memset(f, 0, sizeof *f);
	f->name = name;
	char rel[1024];
	snprintf(rel, sizeof rel, "tests/deadlock/%s", name);
	char *text = th_read_source(rel, NULL);
	char err[600];
	if (!parse_header(text, &f->h, err, sizeof err)) {
		free(text);
		ck_abort_msg("%s: malformed header: %s", name, err);
	}
	th_load(&f->t, text, name, NULL);
	free(text);
	const we_kernel_info *k = f->t.k;
	const header *h = &f->h;
	for (unsigned i = 0; i < h->nargs; i++) {
		const we_param_info *p = NULL;
		for (unsigned j = 0; j < k->nparams; j++)
			if (!strcmp(k->params[j].name, h->args[i].name))
				p = &k->params[j];
		CHECK(p != NULL, "%s: malformed header: kernel %s has no parameter %s", name, k->name,
		      h->args[i].name);
		if (h->args[i].is_buf) {
			CHECK(p->type == WE_PARAM_PTR, "%s: malformed header: %s is not a ptr parameter", name,
			      p->name);
			th_buf_new(&f->t, p->name, NULL, h->args[i].bytes, 0);
		} else {
			CHECK(p->size == 4 && p->type != WE_PARAM_F32,
			      "%s: malformed header: %s is not a 32-bit integer parameter", name, p->name);
			th_u32(&f->t, p->name, h->args[i].value);
		}
	}
	for (unsigned j = 0; j < k->nparams; j++)
		CHECK(find_arg(h, k->params[j].name) >= 0,
		      "%s: malformed header: no 'arg %s=...' for the kernel's parameter", name, k->params[j].name);
}

static void kfile_close(kfile *f)
{
	th_close(&f->t);
}

START_TEST(kernel)
{
	kfile f;
	kfile_open(&f, files[_i]);
	for (size_t e = 0; e < TH_NENGINES; e++) {
		run r;
		do_run(&f, th_id(e), false, false, 0, &r);
		check_run(&f, &r);
		th_run_free(&r.x);
		if (th_engines[e].flags & TH_JITTER) {
			/* real thread timing with random delays: the same verdict */
			do_run(&f, th_id(e), false, true, 1, &r);
			check_run(&f, &r);
			th_run_free(&r.x);
		}
		unsigned nseeds = f.h.seeds;
		const char *env = getenv("DK_SEEDS");
		if (env && atoi(env) > 0)
			nseeds = (unsigned)atoi(env);
		for (unsigned s = 1; s <= nseeds; s++) {
			run a, b;
			do_run(&f, th_id(e), true, false, s, &a);
			check_run(&f, &a);
			do_run(&f, th_id(e), true, false, s, &b);
			check_replay(&f, &a, &b);
			th_run_free(&a.x);
			th_run_free(&b.x);
		}
	}
	kfile_close(&f);
}
END_TEST

/* The corpus: enough kernels, and README.md lists exactly the files. */
START_TEST(corpus)
{
	CHECK(nfiles >= MIN_KERNELS, "%s: %u kernels, want at least %u", corpus_dir, nfiles, MIN_KERNELS);
	char *readme = th_read_source("tests/deadlock/README.md", NULL);
	for (unsigned i = 0; i < nfiles; i++) {
		char pat[300];
		snprintf(pat, sizeof pat, "`%s`", files[i]);
		CHECK(strstr(readme, pat) != NULL, "README.md does not list %s", files[i]);
	}
	/* every `name.we` named in the README exists */
	for (const char *p = readme; (p = strchr(p, '`')) != NULL;) {
		const char *q = strchr(p + 1, '`');
		if (!q)
			break;
		size_t len = (size_t)(q - p - 1);
		if (len > 3 && !memcmp(q - 3, ".we", 3) && !memchr(p + 1, ' ', len) && !memchr(p + 1, '*', len)) {
			bool found = false;
			for (unsigned i = 0; i < nfiles && !found; i++)
				found = strlen(files[i]) == len && !memcmp(files[i], p + 1, len);
			CHECK(found, "README.md lists %.*s, which is not in %s", (int)len, p + 1, corpus_dir);
		}
		p = q + 1;
	}
	free(readme);
}
END_TEST

/* The header parser itself: well-formed headers give the right fields,
 * malformed ones are refused with a message. */
START_TEST(header_grammar)
{
	static const char *const bad[] = {
		"",                                                             /* no header */
		"// launch: grid=1 block=32\n// why: x\n",                      /* no expect */
		"// launch: grid=1 block=32\n// expect: ok\n",                  /* no why */
		"// expect: ok\n// launch: grid=1 block=32\n// why: x\n",      /* expect first */
		"// launch: block=32\n// expect: ok\n// why: x\n",             /* no grid */
		"// launch: grid=1 block=32,\n// expect: ok\n// why: x\n",
		"// launch: grid=0 block=32\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=2048\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 seeds=x\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 max_instructions=0\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 frobnicate\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 arg n=f32:1\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 arg n=u32:-1\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:0\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:8 arg o=buf:8\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32 arg\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: fine\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: exception\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok warps=0\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock barrier=32\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock warps=0,\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock cycle=0:1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock cycle=0:1,1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock intra-warp barrier=1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock intra-warp blocked=1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock blocked=0\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock pc=1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock pc=1:0x8\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: deadlock pc=32:0x10\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok pc=0:0x10\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok buf o u32 0=1\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:8\n// expect: ok buf o u32 2=1\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:8\n// expect: ok buf o u8 0=1\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:8\n// expect: ok buf o u32\n// why: x\n",
		"// launch: grid=1 block=32 arg o=buf:8\n// expect: ok buf o u32 1..0=1\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok\n// expect: ok\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok\n// expect-check: racy\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok\n// expect-check: second-arrival second-arrival\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok\n// expect-check:\n// why: x\n",
		"// launch: grid=1 block=32\n// expect: ok\n// why:\n",
		"// launch: grid=1 block=32\n// expect: ok\n// wyh: x\n",
		"// launch: grid=1 block=32\n//   stray continuation\n// expect: ok\n// why: x\n",
		"//launch: grid=1 block=32\n// expect: ok\n// why: x\n",
		"// launch grid=1 block=32\n// expect: ok\n// why: x\n",
	};
	char err[600];
	header h;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		CHECK(!parse_header(bad[i], &h, err, sizeof err), "malformed header #%zu accepted:\n%s", i, bad[i]);
		CHECK(err[0], "malformed header #%zu refused without a message", i);
	}
	const char *good =
		"// launch: grid=2,3 block=32,2 max_instructions=0x100 seeds=5\n"
		"// launch: arg n=u32:0x10 arg o=buf:64\n"
		"// expect: deadlock barrier=1,3 warps=0 exited=none cycle=0:1,1:3 buf o u32 0..3=7 5=0x9\n"
		"// expect-check: divergent-barrier second-arrival?\n"
		"// why: a test\n"
		"//   of the grammar\n"
		"\n"
		"// not header\n";
	CHECK(parse_header(good, &h, err, sizeof err), "good header refused: %s", err);
	CHECK(h.grid.x == 2 && h.grid.y == 3 && h.grid.z == 1 && h.block.x == 32 && h.block.y == 2 &&
		      h.max_insns == 0x100 && h.seeds == 5 && h.nargs == 2 && !h.args[0].is_buf &&
		      h.args[0].value == 16 && h.args[1].is_buf && h.args[1].bytes == 64,
	      "launch: parsed wrongly");
	CHECK(h.v == V_DEADLOCK && h.has_bars && h.bars == 0xa && h.has_warps && h.warps == 1 && h.has_exited &&
		      !h.exited && h.cycle == 3 && h.ncyc == 2 && h.cyc_w[1] == 1 && h.cyc_b[1] == 3 &&
		      h.nchecks == 2 && h.checks[0].first == 0 && h.checks[0].last == 3 && h.checks[0].value == 7 &&
		      h.checks[1].first == 5 && h.checks[1].value == 9,
	      "expect: parsed wrongly");
	CHECK(h.nkinds == 2 && h.kinds[0] == 0 && !h.optional[0] && h.kinds[1] == 1 && h.optional[1],
	      "expect-check: parsed wrongly");
	CHECK(h.nblocked == -1 && h.npcs == 0, "expect: blocked= or pc= parsed where there is none");
	const char *good2 = "// launch: grid=1 block=64\n"
			    "// expect: deadlock intra-warp warps=0 pc=1:0xe0,0:16\n"
			    "// expect-check: arrivals-beyond-count\n"
			    "// why: x\n";
	CHECK(parse_header(good2, &h, err, sizeof err), "good header refused: %s", err);
	CHECK(h.intra && h.npcs == 2 && h.pc_w[0] == 1 && h.pc_v[0] == 0xe0 && h.pc_w[1] == 0 && h.pc_v[1] == 16 &&
		      h.nkinds == 1 && !strcmp(known_kinds[h.kinds[0]], "arrivals-beyond-count"),
	      "expect: pc= or expect-check parsed wrongly");
	const char *good3 = "// launch: grid=1 block=96\n// expect: deadlock barrier=1 blocked=2\n// why: x\n";
	CHECK(parse_header(good3, &h, err, sizeof err) && h.nblocked == 2, "expect: blocked= parsed wrongly: %s",
	      err);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_corpus(void)
{
	th_source_path(corpus_dir, sizeof corpus_dir, "tests/deadlock");
	DIR *d = opendir(corpus_dir);
	if (!d)
		return; /* the corpus test reports it */
	const char *only = getenv("DK_ONLY");
	unsigned cap = 0;
	for (struct dirent *de; (de = readdir(d)) != NULL;) {
		size_t len = strlen(de->d_name);
		if (len < 4 || strcmp(de->d_name + len - 3, ".we") || de->d_name[0] == '.')
			continue;
		if (only && !strstr(de->d_name, only))
			continue;
		if (nfiles == cap) {
			cap = cap ? cap * 2 : 64;
			char **nf = realloc(files, cap * sizeof *nf);
			if (!nf)
				abort();
			files = nf;
		}
		files[nfiles] = strdup(de->d_name);
		if (!files[nfiles])
			abort();
		nfiles++;
	}
	closedir(d);
	if (nfiles)
		qsort(files, nfiles, sizeof *files, cmp_str);
}

int main(void)
{
	find_corpus();
	Suite *s = suite_create("deadlock");
	TCase *t = tcase_create("corpus");
	tcase_set_timeout(t, 120);
	if (!getenv("DK_ONLY")) {
		tcase_add_test(t, header_grammar);
		tcase_add_test(t, corpus);
	}
	if (nfiles)
		tcase_add_loop_test(t, kernel, 0, (int)nfiles);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	for (unsigned i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
