/* word.h - finding a name in source text as a whole word (internal).
 *
 * The generators (src/gen) read template lines, the Lift compiler
 * (src/lift) reads the C it emitted and the MDH lowering (src/mdh)
 * respells a loop variable in the pieces it emits; each asks whether a
 * name occurs as an identifier of its own, not inside a longer one (`n`
 * in `n_0` or `len` in `strlen` is no occurrence). */
#ifndef LEGO_CORE_WORD_H
#define LEGO_CORE_WORD_H

/* Whether c may stand in a C or Python identifier (ASCII). */
int lego_word_char(char c);

/* The first occurrence of the word w in text at or after from (a
 * pointer into text): not preceded nor followed by an identifier
 * character.  NULL when there is none or w is empty. */
const char *lego_word_find(const char *text, const char *from,
			   const char *w);

#endif
