/* test_layout.c - to be written. */
#include "harness.h"

void suite_layout(lego_test *t)
{
	(void)t;
}
