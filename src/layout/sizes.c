/* sizes.c - dims validation, products and size agreement of layout pieces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A node X / c of e (X a sym, c > 1 a constant) such that the difference
 * e vanishes when c divides X, or NULL. */
static lego_expr *divisible_sym(lego_ctx *ctx, lego_expr *e, lego_expr *diff,
				int depth)
{
	int64_t c;
	if (depth > 32)
		return NULL;
	if (lego_expr_kind_of(e) == LEGO_DIV &&
	    lego_expr_kind_of(lego_expr_arg(e, 0)) == LEGO_SYM &&
	    lego_expr_is_const(lego_expr_arg(e, 1), &c) && c > 1) {
		/* X = c * k for a fresh positive k: does the difference go? */
		lego_expr *x = lego_expr_arg(e, 0);
		lego_expr *k = lego_sym(ctx, "_sizes_k");
		lego_expr *to = k ? lego_mul(ctx, lego_const(ctx, c), k) : NULL;
		lego_expr *d = to ? lego_expr_subst(ctx, diff, 1, &x, &to)
				  : NULL;
		int64_t v;
		if ((d = d ? lego_simplify(ctx, d) : NULL) &&
		    lego_expr_is_const(d, &v) && v == 0)
			return e;
	}
	for (size_t i = 0; i < lego_expr_nargs(e); i++) {
		lego_expr *r = divisible_sym(ctx, lego_expr_arg(e, i), diff,
					     depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

/* The assumption that makes sizes a and b (difference diff) agree, as
 * text (malloc'd), or NULL: X % c == 0 when that makes the difference
 * vanish (8 * (N / 8) against N), a == b for two distinct syms. */
static char *agreeing_assume(lego_ctx *ctx, lego_expr *diff, lego_expr *a,
			     lego_expr *b)
{
	lego_expr *q = diff ? divisible_sym(ctx, diff, diff, 0) : NULL;
	lego_expr *x = q ? lego_expr_arg(q, 0) : a, *y = q ? NULL : b;
	int64_t c = 0;
	if ((q && !lego_expr_is_const(lego_expr_arg(q, 1), &c)) ||
	    (!q && (lego_expr_kind_of(a) != LEGO_SYM ||
		    lego_expr_kind_of(b) != LEGO_SYM)))
		return NULL;
	char buf[256];
	if (q)
		snprintf(buf, sizeof buf, "%s %% %lld == 0",
			 lego_expr_name(x), (long long)c);
	else
		snprintf(buf, sizeof buf, "%s == %s", lego_expr_name(x),
			 lego_expr_name(y));
	char *text = malloc(strlen(buf) + 1);
	return text ? strcpy(text, buf) : NULL;
}

/* proved: the sizes provably differ; otherwise agreement is not proved,
 * and diff (their simplified difference, or NULL) may say what would. */
static int fail_sizes(lego_ctx *ctx, const char *what, int proved,
		      lego_expr *a, lego_expr *b, lego_expr *diff)
{
	char *sa = lego_expr_print(ctx, a, LEGO_LANG_C);
	char *sb = lego_expr_print(ctx, b, LEGO_LANG_C);
	char *as = proved ? NULL : agreeing_assume(ctx, diff, a, b);
	int st = lego_fail(ctx, LEGO_ERR,
			   proved ? "%s: the sizes %s and %s differ%s%s%s"
				  : "%s: cannot prove that the sizes %s and "
				    "%s agree%s%s%s",
			   what, sa ? sa : "?", sb ? sb : "?",
			   as ? " (add `assume " : "", as ? as : "",
			   as ? "` if it holds)" : "");
	free(sa);
	free(sb);
	free(as);
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
				: fail_sizes(ctx, what, 1, a, b, NULL);
	lego_expr *e = lego_sub(ctx, a, b);
	if (e)
		e = lego_simplify(ctx, e);
	if (!e)
		return LEGO_ERR;
	if (!lego_expr_is_const(e, &diff))
		return fail_sizes(ctx, what, 0, a, b, e);
	return diff == 0 ? LEGO_OK : fail_sizes(ctx, what, 1, a, b, NULL);
}
