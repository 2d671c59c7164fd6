/* index.c - the index functions of gather and scatter, as LEGO GenP
 * bijections over [n] with their inverses, so both sides of a view (read
 * and written) are exact and the functions can be checked by
 * enumeration (tests/unit/test_lift.c):
 *
 *   reverse     i -> n - 1 - i                 (its own inverse)
 *   stride(s)   i -> (i % s) * (n / s) + i / s (Lift's reorderStride;
 *               s | n), inverse x -> (x % (n / s)) * s + x / (n / s) */
#include <stdlib.h>

#include "lift/value.h"

lego_layout *lift_index_function(lego_ctx *ctx, int kind, lego_expr *s,
				 lego_expr *n)
{
	lego_expr *one = lego_const(ctx, 1);
	lego_expr *i = lego_index_fresh(ctx, "_gi", NULL, n);
	lego_expr *x = i ? lego_index_fresh(ctx, "_gx", NULL, n) : NULL;
	if (!x)
		return NULL;
	lego_expr *app, *inv;
	if (kind == LIFT_INDEX_REVERSE) {
		app = lego_sub(ctx, lego_sub(ctx, n, one), i);
		inv = lego_sub(ctx, lego_sub(ctx, n, one), x);
	} else {
		lego_expr *m = lego_div(ctx, n, s);
		app = lego_add(ctx, lego_mul(ctx, lego_mod(ctx, i, s), m),
			       lego_div(ctx, i, s));
		inv = lego_add(ctx, lego_mul(ctx, lego_mod(ctx, x, m), s),
			       lego_div(ctx, x, m));
	}
	return lego_genp_exprs(ctx, kind == LIFT_INDEX_REVERSE ? "reverse"
							       : "stride",
			       1, &n, &i, app, x, &inv);
}

lego_layout *lift_index_layout(lift_cc *cc, const lift_fun *g, lego_expr *n)
{
	lego_ctx *ctx = cc->ctx;
	if (g->index == LIFT_INDEX_STRIDE && !lift_divides(ctx, g->sz[0], n)) {
		char *st = lego_expr_print(ctx, g->sz[0], LEGO_LANG_C);
		char *nt = lego_expr_print(ctx, n, LEGO_LANG_C);
		lift_err(cc, g->at, "stride(%s) of an array of length %s: "
			 "cannot prove that %s divides %s", st ? st : "?",
			 nt ? nt : "?", st ? st : "?", nt ? nt : "?");
		free(st);
		free(nt);
		return NULL;
	}
	return lift_index_function(ctx, g->index, g->sz[0], n);
}

lego_expr *lift_index_map(lift_cc *cc, lego_layout *l, lego_expr *i,
			  int inverse)
{
	lego_expr *j = NULL;
	if (!inverse)
		return lego_layout_apply(cc->ctx, l, &i);
	return lego_layout_inv(cc->ctx, l, i, &j) ? NULL : j;
}
