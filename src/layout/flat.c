/* flat.c - the canonical bijections B_n and B_n^-1 on expressions. */
#include "layout/layout.h"

/* B_n(i) = i1*(n2*...*nd) + ... + i(d-1)*nd + id */
lego_expr *layout_flatten_expr(lego_ctx *ctx, size_t d,
			       lego_expr *const *dims, lego_expr *const *idx)
{
	lego_expr *f = lego_const(ctx, 0);
	lego_expr *stride = lego_const(ctx, 1);
	for (size_t k = d; k-- > 0 && f && stride;) {
		f = lego_add(ctx, lego_mul(ctx, idx[k], stride), f);
		stride = lego_mul(ctx, stride, dims[k]);
	}
	return f && stride ? f : NULL;
}

/* B_n^-1(f) = (f / (n2..nd), ..., (f / nd) % n(d-1), f % nd) */
int layout_unflatten_expr(lego_ctx *ctx, size_t d, lego_expr *const *dims,
			  lego_expr *flat, lego_expr **idx)
{
	lego_expr *stride = lego_const(ctx, 1);
	for (size_t k = d; k-- > 0 && stride;) {
		lego_expr *q = k + 1 == d ? flat : lego_div(ctx, flat, stride);
		idx[k] = k == 0 ? q : lego_mod(ctx, q, dims[k]);
		if (!idx[k])
			return LEGO_ERR;
		stride = lego_mul(ctx, stride, dims[k]);
	}
	return stride ? LEGO_OK : LEGO_ERR;
}
