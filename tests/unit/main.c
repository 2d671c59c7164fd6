/* main.c - runs the unit suites; prints "N passed, N failed". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

void test_end(lego_test *t)
{
	if (!t->name)
		return;
	if (t->case_failed)
		t->failed++;
	else
		t->passed++;
	if (t->verbose || t->case_failed)
		printf("%s %s.%s\n", t->case_failed ? "FAIL" : "ok  ", t->suite,
		       t->name);
	t->name = NULL;
	t->case_failed = 0;
}

void test_case(lego_test *t, const char *name)
{
	test_end(t);
	t->name = name;
}

void test_fail_at(lego_test *t, const char *file, int line, const char *fmt,
		  ...)
{
	va_list ap;
	/* Report only the first few failures of a case: property tests may
	 * fail thousands of times for one bug. */
	if (t->case_failed++ >= 5)
		return;
	printf("%s:%d: %s.%s: ", file, line, t->suite,
	       t->name ? t->name : "?");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

typedef struct suite {
	const char *name;
	void (*run)(lego_test *t);
} suite;

int main(int argc, char **argv)
{
	static const suite suites[] = {
		{"expr", suite_expr},     {"simplify", suite_simplify},
		{"layout", suite_layout}, {"lang", suite_lang},
		{"props", suite_props},   {"analysis", suite_analysis},
		{"gen", suite_gen},       {"mlir", suite_mlir},
		{"smt", suite_smt},       {"emit_c", suite_emit_c},
		{"partial", suite_partial}, {"strides", suite_strides},
		{"tune", suite_tune}, {"scale", suite_scale},
		{"ranges", suite_ranges}, {"proof", suite_proof},
		{"null", suite_null}, {"families", suite_families},
		{"lift", suite_lift}, {"synth", suite_synth},
		{"synth_infer", suite_synth_infer},
		{"split", suite_split}, {"word", suite_word},
	};
	lego_test t = {0};
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			t.verbose = 1;
		else
			only = argv[i];
	}
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		if (only && strcmp(only, suites[i].name))
			continue;
		t.suite = suites[i].name;
		suites[i].run(&t);
		test_end(&t);
	}
	printf("unit: %d passed, %d failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}
