/* suggest.c - the closest name by edit distance (insertions, deletions,
 * substitutions and swaps of adjacent characters, case ignored). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest/suggest.h"

#define MAX_LEN 64 /* longer names are never typos worth guessing */

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Optimal string alignment distance, rows of the table kept three at a
 * time. */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
	size_t rows[3][MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t sub = prev[j - 1] + !same(a[i - 1], b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			size_t d = sub < del ? sub : del;
			d = d < ins ? d : ins;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

void lego_suggest_init(lego_suggest *s, const char *name)
{
	s->name = name ? name : "";
	s->best = NULL;
	s->dist = (size_t)-1;
	s->hint[0] = 0;
}

void lego_suggest_add(lego_suggest *s, const char *cand)
{
	size_t n = strlen(s->name), m = cand ? strlen(cand) : 0;
	if (!cand || !strcmp(cand, s->name) || n > MAX_LEN || m > MAX_LEN)
		return;
	size_t d = distance(s->name, n, cand, m);
	/* About a third of the name may be wrong: nothing of one letter
	 * (other than its case), one edit up to four letters. */
	size_t limit = (n + 1) / 3;
	if (d <= limit && d < s->dist) {
		s->best = cand;
		s->dist = d;
	}
}

void lego_suggest_add_all(lego_suggest *s, const char *const *cands,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		lego_suggest_add(s, cands[i]);
}

const char *lego_suggest_hint(lego_suggest *s)
{
	if (!s->best)
		return "";
	snprintf(s->hint, sizeof s->hint, " (did you mean '%.120s'?)",
		 s->best);
	return s->hint;
}
