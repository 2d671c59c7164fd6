/* suggest.h - "did you mean": the known name closest to an unknown one
 * (internal; used by the language and by the command line).
 *
 *     lego_suggest s;
 *     lego_suggest_init(&s, "Rwo");
 *     lego_suggest_add(&s, "Row");  ...   (every name it could have been)
 *     printf("unknown layout 'Rwo'%s", lego_suggest_hint(&s));
 *
 * prints "unknown layout 'Rwo' (did you mean 'Row'?)". */
#ifndef LEGO_SUGGEST_H
#define LEGO_SUGGEST_H

#include <stddef.h>

typedef struct lego_suggest {
	const char *name;
	const char *best;      /* NULL: none close enough */
	size_t dist;
	char hint[160];
} lego_suggest;

void lego_suggest_init(lego_suggest *s, const char *name);
/* Considers cand (kept by pointer: it must outlive s). */
void lego_suggest_add(lego_suggest *s, const char *cand);
void lego_suggest_add_all(lego_suggest *s, const char *const *cands,
			  size_t n);
/* " (did you mean 'X'?)" for the closest candidate when it is a likely
 * typo of the name, else "".  Owned by s. */
const char *lego_suggest_hint(lego_suggest *s);

#endif
