/* sbuf.c - growable strings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/sbuf.h"

static int reserve(lego_sbuf *b, size_t extra)
{
	if (b->oom)
		return 0;
	if (b->len + extra + 1 <= b->cap)
		return 1;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return 0;
	}
	b->s = s;
	b->s[b->len] = '\0';
	b->cap = cap;
	return 1;
}

void lego_sbuf_puts(lego_sbuf *b, const char *s)
{
	size_t n = strlen(s);
	if (!reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void lego_sbuf_vprintf(lego_sbuf *b, const char *fmt, va_list ap)
{
	char small[64];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= 0 && reserve(b, (size_t)n)) {
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void lego_sbuf_printf(lego_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lego_sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

void lego_sbuf_wrap(lego_sbuf *b, size_t from)
{
	if (!reserve(b, 2))
		return;
	memmove(b->s + from + 1, b->s + from, b->len - from + 1);
	b->s[from] = '(';
	b->len++;
	lego_sbuf_puts(b, ")");
}

char *lego_sbuf_take(lego_sbuf *b)
{
	char *s = b->oom ? NULL : b->s;
	if (b->oom)
		free(b->s);
	else if (!s)
		s = calloc(1, 1);
	*b = (lego_sbuf){0};
	return s;
}
