/* json.h — the JSON text of the CLI's documents (doc/json.md), written
 * straight to a stream: a large --print need not be held whole.
 */
#ifndef WE_CLI_JSON_H
#define WE_CLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "warpemu/warpemu.h"

#define JSON_DEPTH_MAX 8

typedef struct jw {
	FILE *f;
	int depth;
	bool first[JSON_DEPTH_MAX];   /* no member yet at this depth */
	char close[JSON_DEPTH_MAX];   /* '}' or ']' */
} jw;

/* Every function takes the member's key, or NULL inside an array (and
 * for the document itself). */
void jw_begin(jw *w, FILE *f);
void jw_object(jw *w, const char *key);
void jw_array(jw *w, const char *key);
void jw_end(jw *w);                       /* closes the innermost one */
void jw_str(jw *w, const char *key, const char *s);
void jw_strn(jw *w, const char *key, const char *s, size_t n);
void jw_u64(jw *w, const char *key, uint64_t v);
void jw_int(jw *w, const char *key, int v);
/* A finite number, or null (valid false, NaN, infinities). */
void jw_num(jw *w, const char *key, double v, bool valid);
void jw_bool(jw *w, const char *key, bool v);
void jw_null(jw *w, const char *key);
void jw_dim3(jw *w, const char *key, we_dim3 d);
/* Text that is JSON already (the library's report object). */
void jw_raw(jw *w, const char *key, const char *json, size_t n);

#endif
