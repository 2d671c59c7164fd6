/* share.c - which template lines may share temporaries.
 *
 * A temporary defined before one line and used on a later one must hold
 * the right value there: the definition must run whenever the later line
 * does, and the symbols it reads must not change in between.  That is
 * decided from the template text alone, conservatively: the lines form
 * one straight run of the same block (same indentation, nothing but
 * blank lines between them, no line that opens, closes or leaves a block
 * or jumps: the markers below, per target), and the text of the lines
 * outside their placeholders never names a symbol the placeholders read
 * (it might assign it).  Anything else is a run of its own. */
#include <string.h>

#include "core/core.h"
#include "expr/expr.h"
#include "expr/memo.h"
#include "gen/emit.h"
#include "gen/template.h"

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Whether text has the word w (not part of a longer name). */
static int has_word(const char *text, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = strstr(text, w); s; s = strstr(s + 1, w))
		if ((s == text || !is_word(s[-1])) && !is_word(s[n]))
			return 1;
	return 0;
}

static int has_any_word(const char *text, const char *const *words)
{
	for (; *words; words++)
		if (has_word(text, *words))
			return 1;
	return 0;
}

/* A C label or `case x:` at the start of the line: a jump may land. */
static int c_label(const char *text)
{
	const char *s = text + strspn(text, " \t");
	size_t n = 0;
	while (is_word(s[n]))
		n++;
	s += n;
	s += strspn(s, " \t");
	return n && s[0] == ':' && s[1] != ':';
}

/* The last character of text that is not blank, or 0. */
static char last_char(const char *text)
{
	size_t n = strlen(text);
	while (n && strchr(" \t\r\n", text[n - 1]))
		n--;
	return n ? text[n - 1] : 0;
}

int gen_line_is_straight(lego_target target, const char *text)
{
	static const char *const c_words[] = {
		"if", "else", "for", "while", "do", "switch", "case",
		"default", "goto", "return", "break", "continue", NULL};
	static const char *const py_words[] = {
		"if", "elif", "else", "for", "while", "with", "try", "except",
		"finally", "def", "class", "return", "break", "continue",
		"yield", "lambda", "async", "await", "global", "nonlocal",
		"del", NULL};
	static const char *const mlir_words[] = {"return", "cf", "scf",
						 "affine", "yield", NULL};
	switch (target) {
	case LEGO_TARGET_TRITON:
		return last_char(text) != ':' && last_char(text) != '\\' &&
		       !has_any_word(text, py_words);
	case LEGO_TARGET_MLIR:
		return !strpbrk(text, "{}^") && !has_any_word(text, mlir_words);
	default:
		return !strpbrk(text, "{}#") && !c_label(text) &&
		       !has_any_word(text, c_words);
	}
}

typedef struct sym_list {
	lego_ctx *ctx;
	lego_memo seen;
	const lego_expr **items; /* in the ctx arena */
	size_t n, cap;
	int oom;
} sym_list;

static void collect(sym_list *s, const lego_expr *e)
{
	if (s->oom || lego_memo_get(&s->seen, e))
		return;
	if (!lego_memo_put(&s->seen, e)) {
		s->oom = 1;
		return;
	}
	if (e->kind == LEGO_SYM && s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		const lego_expr **g = lego_xalloc(s->ctx, cap * sizeof *g);
		if (!g) {
			s->oom = 1;
			return;
		}
		if (s->n)
			memcpy(g, s->items, s->n * sizeof *g);
		s->items = g;
		s->cap = cap;
	}
	if (e->kind == LEGO_SYM)
		s->items[s->n++] = e;
	for (uint32_t i = 0; i < e->nargs; i++)
		collect(s, e->args[i]);
}

const lego_expr **gen_syms_of(lego_ctx *ctx, lego_expr *const *es,
			      size_t n, size_t *nsyms)
{
	sym_list s = {.ctx = ctx};
	if (lego_memo_init(&s.seen, 64) != LEGO_OK)
		return NULL;
	for (size_t i = 0; i < n; i++)
		collect(&s, es[i]);
	lego_memo_free(&s.seen);
	*nsyms = s.n;
	if (s.oom)
		return NULL;
	return s.items ? s.items : lego_xalloc(ctx, sizeof *s.items);
}

int gen_text_names(const char *text, const lego_expr *const *syms, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (has_word(text, syms[i]->sym->name))
			return 1;
	return 0;
}
