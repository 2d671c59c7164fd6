/* fold.c - the preprocessor groups an instantiated kernel's parameters
 * decided.  A template guards code with `#if {{ cond }}` (a pragma, the
 * vector stores of S_d), which expands to `#if 0` or `#if 1`; once every
 * parameter is known (lego mdh), the dead group is dropped and the live
 * one kept without its directives, so that the kernel reads as if written
 * by hand for its parameters.  Every other directive stays as it is.
 * The templates write no #elif. */
#include <stdlib.h>
#include <string.h>

#include "mdh/lower.h"

enum line_kind { LINE_CODE, LINE_IF0, LINE_IF1, LINE_IF, LINE_ELSE,
		 LINE_ENDIF };

/* s[0, n): one line without its newline. */
static int is_line(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(s, word, n);
}

static enum line_kind kind_of(const char *s, size_t n)
{
	if (!n || s[0] != '#')
		return LINE_CODE;
	if (is_line(s, n, "#if 0"))
		return LINE_IF0;
	if (is_line(s, n, "#if 1"))
		return LINE_IF1;
	if (!strncmp(s, "#if", 3))
		return LINE_IF;
	if (is_line(s, n, "#else"))
		return LINE_ELSE;
	if (is_line(s, n, "#endif"))
		return LINE_ENDIF;
	return LINE_CODE;
}

/* One open group: folded (its directives dropped) and whether its
 * current branch is kept. */
typedef struct group {
	int folded, live;
} group;

/* Whether the lines at this point are kept: every open group's branch. */
static int kept(const group *g, int n)
{
	for (int i = 0; i < n; i++)
		if (!g[i].live)
			return 0;
	return 1;
}

/* Appends to w the lines of text that the folded groups keep; w's end,
 * or NULL when the groups do not balance or nest deeper than a kernel's. */
static char *fold_into(char *w, const char *text)
{
	group g[64];
	int n = 0;
	for (const char *r = text; *r;) {
		const char *nl = strchr(r, '\n');
		size_t k = nl ? (size_t)(nl - r) : strlen(r);
		size_t all = nl ? k + 1 : k;
		enum line_kind t = kind_of(r, k);
		int keep = 0;
		if (t == LINE_IF0 || t == LINE_IF1 || t == LINE_IF) {
			if (n == 64)
				return NULL;
			keep = t == LINE_IF && kept(g, n);
			g[n].folded = t != LINE_IF;
			g[n++].live = t != LINE_IF0;
		} else if (t == LINE_ELSE || t == LINE_ENDIF) {
			if (!n)
				return NULL;
			if (t == LINE_ELSE && g[n - 1].folded)
				g[n - 1].live = !g[n - 1].live;
			else if (t == LINE_ELSE)
				keep = kept(g, n - 1);
			else
				keep = !g[--n].folded && kept(g, n);
		} else {
			keep = kept(g, n);
		}
		if (keep) {
			memcpy(w, r, all);
			w += all;
		}
		r += all;
	}
	return n ? NULL : w;
}

/* Folds text in place (it only shrinks); left as it is when its groups
 * do not balance, or without memory. */
void mdh_fold_if(char *text)
{
	char *out = malloc(strlen(text) + 1);
	char *end = out ? fold_into(out, text) : NULL;
	if (end) {
		*end = '\0';
		memcpy(text, out, (size_t)(end - out) + 1);
	}
	free(out);
}
