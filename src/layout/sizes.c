/* sizes.c - dims validation, products and size agreement of layout pieces. */
#include <stdlib.h>

#include "layout/layout.h"

int layout_check_dims(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		      const char *what)
{
	int64_t v;
	if (d == 0 || !dims)
		return lego_fail(ctx, LEGO_ERR, "%s: needs at least one dim",
				 what);
	for (size_t k = 0; k < d; k++) {
		if (!dims[k])
			return lego_fail(ctx, LEGO_ERR, "%s: dim %zu is missing",
					 what, k + 1);
		if (lego_expr_is_const(dims[k], &v) && v <= 0)
			return lego_fail(ctx, LEGO_ERR,
					 "%s: dim %zu is %lld; dims must be "
					 "positive", what, k + 1, (long long)v);
	}
	return LEGO_OK;
}

lego_expr *layout_product(lego_ctx *ctx, size_t n, lego_expr *const *dims)
{
	lego_expr *p = lego_const(ctx, 1);
	for (size_t k = 0; k < n && p; k++)
		p = lego_mul(ctx, p, dims[k]);
	return p;
}

/* proved: the sizes provably differ; otherwise agreement is not proved. */
static int fail_sizes(lego_ctx *ctx, const char *what, int proved,
		      lego_expr *a, lego_expr *b)
{
	char *sa = lego_expr_print(ctx, a, LEGO_LANG_C);
	char *sb = lego_expr_print(ctx, b, LEGO_LANG_C);
	int st = lego_fail(ctx, LEGO_ERR,
			   proved ? "%s: the sizes %s and %s differ"
				  : "%s: cannot prove that the sizes %s and "
				    "%s agree",
			   what, sa ? sa : "?", sb ? sb : "?");
	free(sa);
	free(sb);
	return st;
}

int layout_sizes_agree(lego_ctx *ctx, lego_expr *a, lego_expr *b,
		       const char *what)
{
	int64_t va, vb, diff;
	if (a == b)
		return LEGO_OK;
	if (lego_expr_is_const(a, &va) && lego_expr_is_const(b, &vb))
		return va == vb ? LEGO_OK
				: fail_sizes(ctx, what, 1, a, b);
	lego_expr *e = lego_sub(ctx, a, b);
	if (e)
		e = lego_simplify(ctx, e);
	if (!e)
		return LEGO_ERR;
	if (!lego_expr_is_const(e, &diff))
		return fail_sizes(ctx, what, 0, a, b);
	return diff == 0 ? LEGO_OK : fail_sizes(ctx, what, 1, a, b);
}
