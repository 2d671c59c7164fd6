/* test_word.c - the whole-word search shared by the generators and the
 * Lift compiler (core/word.h).  Each expected position is written here
 * by hand from the text, an offset counted in the comment. */
#include <string.h>

#include "harness.h"
#include "core/word.h"

typedef struct word_case {
	const char *text, *w;
	int from;  /* where the search starts */
	int at;    /* the offset of the first whole occurrence, or -1 */
} word_case;

static const word_case cases[] = {
	{"n", "n", 0, 0},                 /* the whole text */
	{"n + 1", "n", 0, 0},             /* at the start */
	{"x * n", "n", 0, 4},             /* at the end */
	{"n_0 + n", "n", 0, 6},           /* n_0 is a longer name */
	{"strlen(len)", "len", 0, 7},     /* inside strlen: no word */
	{"a2n + n2 + n", "n", 0, 11},     /* after a digit, before one */
	{"_n + n_", "n", 0, -1},          /* after, before an underscore */
	{"N + n", "n", 0, 4},             /* case counts */
	{"n*n", "n", 1, 2},               /* from a later start */
	{"nn", "n", 1, -1},               /* its left neighbour before from */
	{"acc_10 acc_1", "acc_1", 0, 7},  /* a prefix of a longer name */
	{"f(i_3)", "i_3", 0, 2},          /* between punctuation */
	{"x", "", 0, -1},                 /* the empty word: none */
	{"", "n", 0, -1},
};

void suite_word(lego_test *t)
{
	test_case(t, "find");
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const word_case *c = &cases[k];
		const char *s = lego_word_find(c->text, c->text + c->from, c->w);
		int got = s ? (int)(s - c->text) : -1;
		CHECKF(t, got == c->at, "'%s' in '%s' from %d: at %d, "
		       "expected %d", c->w, c->text, c->from, got, c->at);
	}
	test_case(t, "chars");
	/* every byte, against the C identifier alphabet spelled out */
	const char *alpha = "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	for (int c = 1; c < 256; c++)
		CHECKF(t, lego_word_char((char)c) == (strchr(alpha, c) != NULL),
		       "byte %d", c);
}
