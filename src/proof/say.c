/* say.c - the words of an argument. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proof/proof.h"

void proof_say(proof_arg *a, const char *fmt, ...)
{
	size_t len = strlen(a->why);
	if (len + 1 >= sizeof a->why)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->why + len, sizeof a->why - len, fmt, ap);
	va_end(ap);
}
