/* test_simplify.c - to be written. */
#include "harness.h"

void suite_simplify(lego_test *t)
{
	(void)t;
}
