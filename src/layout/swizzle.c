/* swizzle.c - CuTe's Swizzle<B,M,S> on the row-major flat offset o of the
 * dims: o ^ ((o >> S) & (((1 << B) - 1) << M)).
 *
 * Why it is a bijection: it writes bits [M, M+B) from bits [M+S, M+S+B).
 * With S >= B the two ranges are disjoint, so the bits read are never
 * changed and applying it twice gives o back: it is its own inverse.  It
 * changes only bits below M+B, so it maps every aligned block of 2^(M+B)
 * offsets onto itself; hence we require that 2^(M+B) divides the size,
 * which keeps [0, size) onto itself.  (Checked at construction when the
 * size is a constant, else when sizes become concrete.) */
#include <stdio.h>

#include "layout/layout.h"

typedef struct swizzle {
	int b, m, s;
	int64_t mask;   /* ((1 << B) - 1) << M */
} swizzle;

static int64_t swizzle_num(const swizzle *z, int64_t o)
{
	return o ^ ((o >> z->s) & z->mask);
}

static int swizzle_apply(void *user, size_t d, const int64_t *dims,
			 const int64_t *idx, int64_t *flat)
{
	int64_t o = 0;
	for (size_t k = 0; k < d; k++)
		o = o * dims[k] + idx[k];
	*flat = swizzle_num(user, o);
	return LEGO_OK;
}

static int swizzle_inv(void *user, size_t d, const int64_t *dims,
		       int64_t flat, int64_t *idx)
{
	int64_t o = swizzle_num(user, flat);
	for (size_t k = d; k-- > 0;) {
		idx[k] = o % dims[k];
		o /= dims[k];
	}
	return LEGO_OK;
}

static lego_expr *swizzle_expr(lego_ctx *ctx, const swizzle *z,
			       lego_expr *o)
{
	lego_expr *shifted = lego_binop(ctx, LEGO_SHR, o,
					lego_const(ctx, z->s));
	lego_expr *bits = lego_binop(ctx, LEGO_BAND, shifted,
				     lego_const(ctx, z->mask));
	return lego_binop(ctx, LEGO_BXOR, o, bits);
}

static lego_expr *swizzle_apply_sym(lego_ctx *ctx, void *user, size_t d,
				    lego_expr *const *dims,
				    lego_expr *const *idx)
{
	return swizzle_expr(ctx, user,
			    layout_flatten_expr(ctx, d, dims, idx));
}

static int swizzle_inv_sym(lego_ctx *ctx, void *user, size_t d,
			   lego_expr *const *dims, lego_expr *flat,
			   lego_expr **idx)
{
	lego_expr *o = swizzle_expr(ctx, user, flat);
	return o ? layout_unflatten_expr(ctx, d, dims, o, idx) : LEGO_ERR;
}

static int check_size(lego_ctx *ctx, const swizzle *z, int64_t size)
{
	int64_t block = INT64_C(1) << (z->m + z->b);
	if (size % block != 0)
		return lego_fail(ctx, LEGO_ERR,
				 "GenP swizzle(%d, %d, %d) needs a size that "
				 "is a multiple of 2^(M+B) = %lld, got %lld",
				 z->b, z->m, z->s, (long long)block,
				 (long long)size);
	return LEGO_OK;
}

static int swizzle_check(lego_ctx *ctx, const layout_genp *g, size_t d,
			 const int64_t *dims)
{
	int64_t size = 1;
	for (size_t k = 0; k < d; k++)
		size *= dims[k]; /* the caller checked it fits */
	return check_size(ctx, g->fn.user, size);
}

static int check_params(lego_ctx *ctx, int b, int m, int s)
{
	if (b < 0 || m < 0 || s < 0 || b + m + s > 62)
		return lego_fail(ctx, LEGO_ERR,
				 "GenP swizzle(%d, %d, %d): B, M, S must be "
				 ">= 0 with B+M+S <= 62", b, m, s);
	if (s < b)
		return lego_fail(ctx, LEGO_ERR,
				 "GenP swizzle(%d, %d, %d) needs S >= B: the "
				 "bits it reads overlap the bits it writes, "
				 "so it is not its own inverse", b, m, s);
	return LEGO_OK;
}

lego_layout *lego_genp_swizzle(lego_ctx *ctx, int b, int m, int s, size_t d,
			       lego_expr *const *dims)
{
	if (!ctx)
		return NULL;
	if (!dims)
		return lego_fail_null(ctx, "swizzle: no dims");
	if (check_params(ctx, b, m, s) != LEGO_OK)
		return NULL;
	swizzle *z = lego_xalloc(ctx, sizeof *z);
	char *name = lego_xalloc(ctx, 48);
	if (!z || !name)
		return NULL;
	*z = (swizzle){b, m, s, ((INT64_C(1) << b) - 1) << m};
	snprintf(name, 48, "swizzle(%d, %d, %d)", b, m, s);
	lego_genp_fn fn = {
		.name = name,
		.user = z,
		.apply = swizzle_apply,
		.inv = swizzle_inv,
		.apply_sym = swizzle_apply_sym,
		.inv_sym = swizzle_inv_sym,
	};
	lego_layout *l = layout_genp_builtin(ctx, d, dims, &fn, swizzle_check);
	if (!l)
		return NULL;
	lego_expr *size = lego_layout_size(ctx, l);
	int64_t v;
	if (!size || (lego_expr_is_const(size, &v) &&
		      check_size(ctx, z, v) != LEGO_OK))
		return NULL;
	return l;
}
