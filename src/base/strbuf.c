/* strbuf.c — see strbuf.h. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_add(strbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		if (b->fixed) {
			size_t room = b->cap > b->n + 1 ? b->cap - b->n - 1 : 0;
			if (room)
				memcpy(b->s + b->n, s, room);
			b->n += room;
			if (b->cap)
				b->s[b->n] = 0;
			b->oom = true;
			return;
		}
		size_t nc = b->cap ? b->cap : 256;
		while (nc < b->n + n + 1) {
			if (nc > SIZE_MAX / 2) {
				b->oom = true;
				return;
			}
			nc *= 2;
		}
		char *q = realloc(b->s, nc);
		if (!q) {
			b->oom = true;
			return;
		}
		b->s = q;
		b->cap = nc;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void sb_str(strbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k < sizeof tmp) {
		sb_add(b, tmp, (size_t)k);
		return;
	}
	/* longer than the stack buffer: format again into a heap one */
	char *big = malloc((size_t)k + 1);
	if (!big) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)k + 1, fmt, ap);
	va_end(ap);
	sb_add(b, big, (size_t)k);
	free(big);
}

void sb_json_str(strbuf *b, const char *s)
{
	sb_add(b, "\"", 1);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			sb_printf(b, "\\%c", ch);
		else if (ch < 0x20)
			sb_printf(b, "\\u%04x", ch);
		else
			sb_add(b, s, 1);
	}
	sb_add(b, "\"", 1);
}

char *sb_take(strbuf *b)
{
	if (b->oom && !b->fixed) {
		free(b->s);
		b->s = NULL;
		return NULL;
	}
	return b->s;
}
