/* test_lift.c - the Lift front end's index functions (gather, scatter):
 * each a bijection with its inverse by enumeration (lego_layout_check),
 * and equal at every point to its definition computed here. */
#include "harness.h"
#include "lego.h"
#include "lift/lift.h"

static int64_t want(int kind, int64_t s, int64_t n, int64_t i)
{
	return kind == LIFT_INDEX_REVERSE ? n - 1 - i : (i % s) * (n / s) + i / s;
}

static void check_fn(lego_test *t, int kind, int64_t s, int64_t n)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *l = lift_index_function(ctx, kind, lego_const(ctx, s),
					     lego_const(ctx, n));
	lego_check_report rep;
	CHECKF(t, l && lego_layout_check(ctx, l, NULL, &rep) == LEGO_OK,
	       "kind %d s %lld n %lld: %s", kind, (long long)s, (long long)n,
	       lego_ctx_error(ctx));
	for (int64_t i = 0; l && i < n; i++) {
		lego_expr *ie = lego_const(ctx, i);
		lego_expr *e = lego_layout_apply(ctx, l, &ie);
		int64_t v = -1;
		CHECKF(t, e && !lego_expr_eval(ctx, e, NULL, &v) &&
			  v == want(kind, s, n, i),
		       "kind %d s %lld n %lld at %lld: got %lld", kind,
		       (long long)s, (long long)n, (long long)i, (long long)v);
	}
	lego_ctx_free(ctx);
}

void suite_lift(lego_test *t)
{
	test_case(t, "index_functions");
	for (int64_t n = 1; n <= 24; n++) {
		check_fn(t, LIFT_INDEX_REVERSE, 1, n);
		for (int64_t s = 1; s <= n; s++)
			if (n % s == 0)
				check_fn(t, LIFT_INDEX_STRIDE, s, n);
	}
	test_end(t);
}
