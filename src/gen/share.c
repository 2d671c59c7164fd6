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
 * (it might assign it).  Anything else is a run of its own.
 *
 * A line's own temporaries go before it only where a statement may stand
 * and runs whenever the line does (gen_temps_place). */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/word.h"
#include "expr/expr.h"
#include "expr/memo.h"
#include "gen/emit.h"
#include "gen/template.h"

static int has_any_word(const char *text, const char *const *words)
{
	for (; *words; words++)
		if (lego_word_find(text, text, *words))
			return 1;
	return 0;
}

/* A C label or `case x:` at the start of the line: a jump may land. */
static int c_label(const char *text)
{
	const char *s = text + strspn(text, " \t");
	size_t n = 0;
	while (lego_word_char(s[n]))
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

static const char *const c_control[] = {"if", "else", "for", "while",
					 "do", "switch", "case", "default",
					 NULL};

/* The first word of text (after blanks) is w. */
static int starts_with_word(const char *text, const char *w)
{
	const char *s = text + strspn(text, " \t");
	size_t n = strlen(w);
	return !strncmp(s, w, n) && !lego_word_char(s[n]);
}

/* The last word of text (before trailing blanks) is w. */
static int ends_with_word(const char *text, const char *w)
{
	size_t n = strlen(text), k = strlen(w);
	while (n && strchr(" \t\r\n", text[n - 1]))
		n--;
	return n >= k && !memcmp(text + n - k, w, k) &&
	       (n == k || !lego_word_char(text[n - k - 1]));
}

/* text, less a trailing comment begun by marker, in buf: its last cap - 1
 * characters when longer, since its end tells how it continues (a long
 * generated condition cut at its start would seem unfinished). */
static const char *code_of(const char *text, const char *marker, char *buf,
			   size_t cap)
{
	const char *c = strstr(text, marker);
	size_t n = c ? (size_t)(c - text) : strlen(text);
	size_t from = n >= cap ? n - (cap - 1) : 0;
	memcpy(buf, text + from, n - from);
	buf[n - from] = 0;
	return buf;
}

/* Whether the occurrence of a name at text[at, at + n) may be changed or
 * declared there: assigned (`=`, `+=`, ..., not `==`), incremented,
 * its address taken, or bound by `for`/`as` (Python) or a C type word. */
static int changed_at(const char *text, size_t at, size_t n)
{
	static const char *const binders[] = {"for", "as", "int", "long",
					      "short", "char", "unsigned",
					      "signed", "size_t", "auto",
					      "const", NULL};
	const char *after = text + at + n;
	after += strspn(after, " \t");
	if (!strncmp(after, "++", 2) || !strncmp(after, "--", 2) ||
	    (after[0] == '=' && after[1] != '=') ||
	    (after[0] && strchr("+-*/%&|^", after[0]) && after[1] == '=') ||
	    ((!strncmp(after, "<<", 2) || !strncmp(after, ">>", 2)) &&
	     after[2] == '=') || !strncmp(after, ":=", 2))
		return 1;
	size_t k = at;
	while (k && strchr(" \t", text[k - 1]))
		k--;
	if (k >= 2 && (!strncmp(text + k - 2, "++", 2) ||
		       !strncmp(text + k - 2, "--", 2)))
		return 1;
	if (k && text[k - 1] == '&' && (k < 2 || text[k - 2] != '&'))
		return 1;
	size_t w = k;
	while (w && lego_word_char(text[w - 1]))
		w--;
	for (size_t i = 0; binders[i]; i++)
		if (k - w == strlen(binders[i]) &&
		    !memcmp(text + w, binders[i], k - w))
			return 1;
	return 0;
}

/* Whether text may change or declare one of syms (see changed_at). */
static int text_changes(const char *text, const lego_expr *const *syms,
			size_t nsyms)
{
	for (size_t i = 0; i < nsyms; i++) {
		const char *w = syms[i]->sym->name;
		for (const char *s = lego_word_find(text, text, w); s;
		     s = lego_word_find(text, s + 1, w))
			if (changed_at(text, (size_t)(s - text), strlen(w)))
				return 1;
	}
	return 0;
}

static gen_temps_at c_place(const char *prev, const char *line,
			    const char **why)
{
	char buf[512];
	const char *p = prev ? code_of(prev, "//", buf, sizeof buf) : NULL;
	char c = p ? last_char(p) : 0;
	int directive = p && prev[strspn(prev, " \t")] == '#';
	if (line[strspn(line, " \t")] == '#' || c == '\\') {
		*why = "a preprocessor line";
		return GEN_TEMPS_NOWHERE;
	}
	if (starts_with_word(line, "else") || starts_with_word(line, "case") ||
	    c_label(line)) {
		*why = "a line that begins with else or a label";
		return GEN_TEMPS_NOWHERE;
	}
	if (!p || (c && strchr(";{}", c)) || directive)
		return GEN_TEMPS_BEFORE;
	if (c == ')' || c == ':' || ends_with_word(p, "else") ||
	    ends_with_word(p, "do")) {
		/* The body of a brace-less if/for/while/else, or a label's
		 * statement: in braces with its temporaries. */
		if (last_char(line) == ';' && !strpbrk(line, "{}") &&
		    !has_any_word(line, c_control))
			return GEN_TEMPS_WRAPPED;
		*why = "the body of an if, for, while or else without braces";
		return GEN_TEMPS_NOWHERE;
	}
	*why = "the continuation of a statement begun on an earlier line";
	return GEN_TEMPS_NOWHERE;
}

static gen_temps_at py_place(const char *prev, const char *line,
			     const char **why)
{
	static const char *const clauses[] = {"elif", "else", "except",
					      "finally", NULL};
	char buf[512];
	const char *p = prev ? code_of(prev, "#", buf, sizeof buf) : NULL;
	char c = p ? last_char(p) : 0;
	for (size_t i = 0; clauses[i]; i++)
		if (starts_with_word(line, clauses[i])) {
			*why = "a clause of a compound statement";
			return GEN_TEMPS_NOWHERE;
		}
	if (c && strchr("\\([{,+-*/%&|^<>=", c)) {
		*why = "the continuation of a statement begun on an earlier line";
		return GEN_TEMPS_NOWHERE;
	}
	return GEN_TEMPS_BEFORE;
}

gen_temps_at gen_temps_place(lego_target target, const char *prev,
			     const char *line, const lego_expr *const *syms,
			     size_t nsyms, const char **why)
{
	*why = NULL;
	if (target == LEGO_TARGET_MLIR)
		return GEN_TEMPS_BEFORE; /* SSA values: no brace-less forms */
	/* Computed first, a temporary would miss what the line itself
	 * declares or changes before its placeholders run (a loop variable,
	 * a comma expression). */
	if (text_changes(line, syms, nsyms)) {
		*why = "a line whose own text declares or may change a name "
		       "the placeholders read";
		return GEN_TEMPS_NOWHERE;
	}
	return target == LEGO_TARGET_TRITON ? py_place(prev, line, why)
					    : c_place(prev, line, why);
}

/* Appends e to the arena array *items (*n of them, capacity *cap); 0, or
 * -1 when out of memory. */
static int push(lego_ctx *ctx, const lego_expr ***items, size_t *n,
		size_t *cap, const lego_expr *e)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		const lego_expr **g = lego_xalloc(ctx, c * sizeof *g);
		if (!g)
			return -1;
		if (*n)
			memcpy(g, *items, *n * sizeof *g);
		*items = g;
		*cap = c;
	}
	(*items)[(*n)++] = e;
	return 0;
}

const lego_expr **gen_syms_of(lego_ctx *ctx, lego_expr *const *es,
			      size_t n, size_t *nsyms)
{
	const lego_expr **all = NULL;
	size_t cap = 0;
	lego_memo seen;
	*nsyms = 0;
	if (lego_memo_init(&seen, 16) != LEGO_OK)
		return NULL;
	int ok = 1;
	for (size_t i = 0; i < n && ok; i++) {
		lego_expr **syms;
		size_t k;
		ok = lego_expr_symbols(ctx, es[i], &syms, &k) == LEGO_OK;
		for (size_t j = 0; ok && j < k; j++)
			if (!lego_memo_get(&seen, syms[j]))
				ok = lego_memo_put(&seen, syms[j]) &&
				     !push(ctx, &all, nsyms, &cap, syms[j]);
		free(syms); /* NULL when lego_expr_symbols failed */
	}
	lego_memo_free(&seen);
	if (!ok)
		return NULL;
	return all ? all : lego_xalloc(ctx, sizeof *all);
}

int gen_text_names(const char *text, const lego_expr *const *syms, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lego_word_find(text, text, syms[i]->sym->name))
			return 1;
	return 0;
}
