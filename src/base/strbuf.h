/* strbuf.h — a growing (or fixed, truncating) string for messages, reports
 * and disassembly.  Out of memory is sticky: later appends do nothing and
 * sb_take() gives NULL. */
#ifndef WE_STRBUF_H
#define WE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
	char *s;
	size_t n, cap;
	bool oom;       /* out of memory, or a fixed buffer overflowed     */
	bool fixed;     /* s is the caller's buffer of cap bytes: truncate  */
} strbuf;

/* A strbuf writing into buf[cap] (always NUL-terminated when cap > 0). */
static inline strbuf sb_fixed(char *buf, size_t cap)
{
	if (cap)
		buf[0] = 0;
	return (strbuf){ buf, 0, cap, false, true };
}

void sb_add(strbuf *b, const char *s, size_t n);
void sb_str(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal of s. */
void sb_json_str(strbuf *b, const char *s);
/* The malloc'd string (NULL after out of memory, which frees it). */
char *sb_take(strbuf *b);

#endif
