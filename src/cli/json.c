/* json.c — see json.h. */
#include "cli/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_begin(jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->first[0] = true;
}

/* The separator and the key of a new member or element. */
static void member(jw *w, const char *key)
{
	if (!w->first[w->depth])
		putc(',', w->f);
	w->first[w->depth] = false;
	if (key)
		fprintf(w->f, "\"%s\":", key);
}

static void nest(jw *w, const char *key, char open, char close)
{
	member(w, key);
	putc(open, w->f);
	if (w->depth + 1 < JSON_DEPTH_MAX)
		w->depth++;
	w->first[w->depth] = true;
	w->close[w->depth] = close;
}

void jw_object(jw *w, const char *key)
{
	nest(w, key, '{', '}');
}

void jw_array(jw *w, const char *key)
{
	nest(w, key, '[', ']');
}

void jw_end(jw *w)
{
	if (w->depth == 0)
		return;
	putc(w->close[w->depth], w->f);
	w->depth--;
}

void jw_strn(jw *w, const char *key, const char *s, size_t n)
{
	member(w, key);
	putc('"', w->f);
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			fprintf(w->f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(w->f, "\\u%04x", ch);
		else
			putc(ch, w->f);
	}
	putc('"', w->f);
}

void jw_str(jw *w, const char *key, const char *s)
{
	jw_strn(w, key, s, strlen(s));
}

void jw_u64(jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_int(jw *w, const char *key, int v)
{
	member(w, key);
	fprintf(w->f, "%d", v);
}

void jw_num(jw *w, const char *key, double v, bool valid)
{
	member(w, key);
	if (valid && isfinite(v))
		fprintf(w->f, "%.9g", v);
	else
		fputs("null", w->f);
}

void jw_bool(jw *w, const char *key, bool v)
{
	member(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(jw *w, const char *key)
{
	member(w, key);
	fputs("null", w->f);
}

void jw_dim3(jw *w, const char *key, we_dim3 d)
{
	member(w, key);
	fprintf(w->f, "[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", d.x, d.y, d.z);
}

void jw_raw(jw *w, const char *key, const char *json, size_t n)
{
	member(w, key);
	fwrite(json, 1, n, w->f);
}
