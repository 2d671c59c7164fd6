/* sbuf.h - a growable malloc'd string for the printers (internal). */
#ifndef LEGO_EXPR_SBUF_H
#define LEGO_EXPR_SBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct lego_sbuf {
	char *s;     /* NUL-terminated once anything was written */
	size_t len;
	size_t cap;
	int oom;     /* set when an allocation failed; output is then lost */
} lego_sbuf;

void lego_sbuf_puts(lego_sbuf *b, const char *s);
void lego_sbuf_printf(lego_sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lego_sbuf_vprintf(lego_sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Wraps the text from offset `from` to the end in parentheses. */
void lego_sbuf_wrap(lego_sbuf *b, size_t from);
/* The string (caller frees), or NULL after a failure; b is emptied. */
char *lego_sbuf_take(lego_sbuf *b);

#endif
