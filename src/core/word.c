/* word.c - a name as a whole word in text (see word.h). */
#include <string.h>

#include "core/word.h"

int lego_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

const char *lego_word_find(const char *text, const char *from,
			   const char *w)
{
	size_t n = strlen(w);
	if (!n)
		return NULL; /* strstr would find "" everywhere */
	for (const char *s = strstr(from, w); s; s = strstr(s + 1, w))
		if ((s == text || !lego_word_char(s[-1])) &&
		    !lego_word_char(s[n]))
			return s;
	return NULL;
}
