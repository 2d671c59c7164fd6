/* harness.h - a small test harness: suites of checks, counted per case. */
#ifndef LEGO_TEST_HARNESS_H
#define LEGO_TEST_HARNESS_H

#include <stddef.h>
#include <stdio.h>

#include "lego.h"

typedef struct lego_test {
	const char *suite;
	const char *name;   /* current case */
	int case_failed;    /* checks failed in the current case */
	int passed;         /* cases */
	int failed;
	int verbose;
} lego_test;

/* Start a case; the previous one is counted. */
void test_case(lego_test *t, const char *name);
/* Count the last open case. */
void test_end(lego_test *t);
void test_fail_at(lego_test *t, const char *file, int line, const char *fmt,
		  ...) __attribute__((format(printf, 4, 5)));

#define CHECK(t, cond)                                                     \
	do {                                                               \
		if (!(cond))                                               \
			test_fail_at((t), __FILE__, __LINE__, "%s", #cond); \
	} while (0)
#define CHECKF(t, cond, ...)                                               \
	do {                                                               \
		if (!(cond))                                               \
			test_fail_at((t), __FILE__, __LINE__, __VA_ARGS__); \
	} while (0)
#define CHECK_EQ(t, got, want)                                             \
	do {                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);   \
		if (g_ != w_)                                              \
			test_fail_at((t), __FILE__, __LINE__,              \
				     "%s == %lld, expected %lld", #got, g_, w_); \
	} while (0)

/* A hand-worked simplification: `in` must simplify to exactly `want`. */
typedef struct simplify_case {
	const char *name;
	lego_expr *in, *want;
} simplify_case;
/* Check each case, printing both forms on a mismatch (test_simplify.c). */
void check_simplify_cases(lego_test *t, lego_ctx *ctx,
			  const simplify_case *cases, size_t n);

/* The suites, one per file of tests/unit/. */
void suite_expr(lego_test *t);
void suite_simplify(lego_test *t);
void suite_layout(lego_test *t);
void suite_lang(lego_test *t);
void suite_props(lego_test *t);
void suite_analysis(lego_test *t);
void suite_gen(lego_test *t);
void suite_mlir(lego_test *t);
void suite_smt(lego_test *t);
void suite_emit_c(lego_test *t);
void suite_partial(lego_test *t);
void suite_strides(lego_test *t);
void suite_tune(lego_test *t);
void suite_scale(lego_test *t);
void suite_ranges(lego_test *t);
void suite_proof(lego_test *t);
void suite_lift(lego_test *t);
void suite_null(lego_test *t);
void suite_families(lego_test *t);
void suite_synth(lego_test *t);
void suite_synth_infer(lego_test *t);
void suite_split(lego_test *t);
void suite_word(lego_test *t);

#endif
