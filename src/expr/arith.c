/* arith.c - the exact integer square root. */
#include <math.h>

#include "expr/arith.h"

int lego_arith_isqrt(int64_t a, int64_t *r)
{
	if (a < 0)
		return LEGO_ERANGE;
	/* The double estimate is off by a few units at most; fix it with
	 * divisions, which cannot overflow. */
	int64_t s = (int64_t)sqrt((double)a);
	while (s > 0 && s > a / s)
		s--;
	while (s + 1 <= a / (s + 1))
		s++;
	*r = s;
	return LEGO_OK;
}
