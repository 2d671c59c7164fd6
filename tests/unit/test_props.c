/* test_props.c - to be written. */
#include "harness.h"

void suite_props(lego_test *t)
{
	(void)t;
}
