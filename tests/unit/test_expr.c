/* test_expr.c - to be written. */
#include "harness.h"

void suite_expr(lego_test *t)
{
	(void)t;
}
