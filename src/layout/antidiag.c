/* antidiag.c - the anti-diagonal GenP of an n x n square (paper, figure 8;
 * formulas in SEMANTICS.md), numeric and symbolic. */
#include <math.h>

#include "layout/layout.h"

/* The largest r with r*r representable: 3037000499^2 < 2^63. */
#define ISQRT_MAX INT64_C(3037000499)

/* floor(sqrt(x)) exactly for every x >= 0: the float estimate is off by
 * at most a few units, corrected with exact integer comparisons. */
static int64_t isqrt64(int64_t x)
{
	int64_t r = (int64_t)sqrt((double)x);
	if (r > ISQRT_MAX)
		r = ISQRT_MAX;
	while (r > 0 && r * r > x)
		r--;
	while (r < ISQRT_MAX && (r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* a*(a-1)/2 for 0 <= a <= n, halving first so nothing exceeds n*n. */
static int64_t tri(int64_t a)
{
	return a % 2 ? a * ((a - 1) / 2) : (a / 2) * (a - 1);
}

static int antidiag_apply(void *user, size_t d, const int64_t *dims,
			  const int64_t *idx, int64_t *flat)
{
	int64_t n = dims[0], i = idx[0], a = idx[0] + idx[1] + 1;
	if (a <= n) {
		*flat = i + tri(a);
		return LEGO_OK;
	}
	a = 2 * n - a;
	*flat = n * n - n + i - tri(a);
	return LEGO_OK;
}

static int antidiag_inv(void *user, size_t d, const int64_t *dims,
			int64_t x0, int64_t *idx)
{
	int64_t n = dims[0];
	int64_t half = n % 2 ? n * ((n + 1) / 2) : (n / 2) * (n + 1);
	int64_t x = x0 < half ? x0 : n * n - 1 - x0;
	int64_t a = isqrt64(2 * x);
	a += x >= tri(a + 1);
	int64_t i = x - tri(a), j = a - i - 1;
	idx[0] = x0 < half ? i : n - 1 - i;
	idx[1] = x0 < half ? j : n - 1 - j;
	return LEGO_OK;
}

static lego_expr *tri_expr(lego_ctx *ctx, lego_expr *a)
{
	lego_expr *am1 = lego_sub(ctx, a, lego_const(ctx, 1));
	return lego_div(ctx, lego_mul(ctx, a, am1), lego_const(ctx, 2));
}

static lego_expr *antidiag_apply_sym(lego_ctx *ctx, void *user, size_t d,
				     lego_expr *const *dims,
				     lego_expr *const *idx)
{
	lego_expr *n = dims[0], *i = idx[0];
	lego_expr *a = lego_add(ctx, lego_add(ctx, i, idx[1]),
				lego_const(ctx, 1));
	lego_expr *first = lego_add(ctx, i, tri_expr(ctx, a));
	lego_expr *b = lego_sub(ctx, lego_mul(ctx, lego_const(ctx, 2), n), a);
	lego_expr *nn_n = lego_sub(ctx, lego_mul(ctx, n, n), n);
	lego_expr *second = lego_sub(ctx, lego_add(ctx, nn_n, i),
				     tri_expr(ctx, b));
	return lego_select(ctx, lego_binop(ctx, LEGO_LE, a, n), first, second);
}

static int antidiag_inv_sym(lego_ctx *ctx, void *user, size_t d,
			    lego_expr *const *dims, lego_expr *x0,
			    lego_expr **idx)
{
	lego_expr *n = dims[0], *one = lego_const(ctx, 1);
	lego_expr *half = lego_div(ctx, lego_mul(ctx, n, lego_add(ctx, n, one)),
				   lego_const(ctx, 2));
	lego_expr *low = lego_binop(ctx, LEGO_LT, x0, half);
	lego_expr *mirror = lego_sub(ctx, lego_sub(ctx, lego_mul(ctx, n, n),
						   one), x0);
	lego_expr *x = lego_select(ctx, low, x0, mirror);
	lego_expr *r = lego_isqrt(ctx, lego_mul(ctx, lego_const(ctx, 2), x));
	lego_expr *next = lego_binop(ctx, LEGO_LE,
				     tri_expr(ctx, lego_add(ctx, r, one)), x);
	lego_expr *a = lego_add(ctx, r, next);
	lego_expr *i = lego_sub(ctx, x, tri_expr(ctx, a));
	lego_expr *j = lego_sub(ctx, lego_sub(ctx, a, i), one);
	lego_expr *nm1 = lego_sub(ctx, n, one);
	idx[0] = lego_select(ctx, low, i, lego_sub(ctx, nm1, i));
	idx[1] = lego_select(ctx, low, j, lego_sub(ctx, nm1, j));
	return idx[0] && idx[1] ? LEGO_OK : LEGO_ERR;
}

static int antidiag_check(lego_ctx *ctx, const layout_genp *g, size_t d,
			  const int64_t *dims)
{
	if (dims[0] != dims[1])
		return lego_fail(ctx, LEGO_ERR,
				 "GenP antidiag needs a square [n, n], got "
				 "[%lld, %lld]", (long long)dims[0],
				 (long long)dims[1]);
	return LEGO_OK;
}

lego_layout *lego_genp_antidiag(lego_ctx *ctx, lego_expr *n)
{
	if (!ctx)
		return NULL;
	static const lego_genp_fn fn = {
		.name = "antidiag",
		.apply = antidiag_apply,
		.inv = antidiag_inv,
		.apply_sym = antidiag_apply_sym,
		.inv_sym = antidiag_inv_sym,
	};
	lego_expr *dims[2] = {n, n};
	return layout_genp_builtin(ctx, 2, dims, &fn, antidiag_check);
}
