/* test_lang.c - to be written. */
#include "harness.h"

void suite_lang(lego_test *t)
{
	(void)t;
}
