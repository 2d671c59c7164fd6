/* partial.c - TileBy over sizes that tiles do not divide (docs/partial.md).
 *
 * The tiles enumerate a padded space: per untiled dim k, P_k = product of
 * the sizes of dim k over the levels, proved >= the real dim R_k of the
 * chain.  An index is mapped to its coordinates x in the padded space and
 * then through the chain of the REAL sizes, so an in-bounds element gets
 * the physical index of the real tensor; the mask is x_k < R_k. */

#include <stdlib.h>

#include "layout/layout.h"

/* a of a numerator n = a + b - 1, simplified. */
static lego_expr *cdiv_real(lego_ctx *ctx, lego_expr *n, lego_expr *b)
{
	lego_expr *a = lego_add(ctx, lego_sub(ctx, n, b), lego_const(ctx, 1));
	return a ? lego_simplify(ctx, a) : NULL;
}

int layout_is_cdiv(lego_ctx *ctx, const lego_expr *e)
{
	if (lego_expr_kind_of(e) != LEGO_DIV)
		return 0;
	lego_expr *n = lego_expr_arg(e, 0), *b = lego_expr_arg(e, 1);
	if (lego_expr_kind_of(n) != LEGO_ADD)
		return 0;
	lego_expr *a = cdiv_real(ctx, n, b);
	return a && (lego_expr_kind_of(a) != LEGO_ADD ||
		     lego_expr_nargs(a) < lego_expr_nargs(n));
}

/* Product of the sizes of dim k over levels from..q-1. */
static lego_expr *dim_product(lego_ctx *ctx, size_t q, size_t d, size_t k,
			      size_t from, lego_expr *const *sizes)
{
	lego_expr *p = lego_const(ctx, 1);
	for (size_t h = from; h < q && p; h++)
		p = lego_mul(ctx, p, sizes[h * d + k]);
	return p;
}

static int proved_equal(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	int64_t v;
	lego_expr *e = a == b ? NULL : lego_sub(ctx, a, b);
	if (a == b)
		return 1;
	e = e ? lego_simplify(ctx, e) : NULL;
	return e && lego_expr_is_const(e, &v) && v == 0;
}

/* The outer size is the ceiling of R by the product of the inner ones,
 * cdiv(R, rest): symbolically the shape (R + rest - 1) / rest, with
 * constants (what cdiv folds to) the value. */
static int is_ceiling(lego_ctx *ctx, lego_expr *outer, lego_expr *rest,
		      lego_expr *real)
{
	int64_t o, in, r;
	if (lego_expr_is_const(outer, &o) && lego_expr_is_const(rest, &in) &&
	    lego_expr_is_const(real, &r))
		return in > 0 && r > 0 && o == r / in + (r % in != 0);
	if (!layout_is_cdiv(ctx, outer) || lego_expr_arg(outer, 1) != rest)
		return 0;
	lego_expr *a = cdiv_real(ctx, lego_expr_arg(outer, 0), rest);
	return a && proved_equal(ctx, a, real);
}

static int fail_dim(lego_ctx *ctx, size_t k, lego_expr *real,
		    lego_expr *rest, const char *why)
{
	char *sr = layout_expr_text(ctx, real);
	char *sb = layout_expr_text(ctx, rest);
	int st = lego_fail(ctx, LEGO_ERR,
			   "TileBy: dim %zu (size %s of the chain): %s; a "
			   "padded dim has the outer tile count cdiv(%s, %s) "
			   "(docs/partial.md)",
			   k + 1, sr ? sr : "?", why, sr ? sr : "?",
			   sb ? sb : "?");
	free(sr);
	free(sb);
	return st;
}

/* Per dim: 0 when its sizes are proved to multiply to the chain's dim, 1
 * when it is padded (its outer size written as cdiv(R, inner sizes)), 2
 * when neither (a reshape, which the GroupBy size check decides), or an
 * error. */
static int dim_padding(lego_ctx *ctx, size_t q, size_t d, size_t k,
		       lego_expr *const *sizes, const unsigned char *ceil,
		       lego_expr *real)
{
	lego_expr *p = dim_product(ctx, q, d, k, 0, sizes);
	lego_expr *rest = dim_product(ctx, q, d, k, 1, sizes);
	if (!p || !rest)
		return LEGO_ERR;
	if (proved_equal(ctx, p, real))
		return 0;
	if (!ceil[k])
		return 2;
	if (!is_ceiling(ctx, sizes[k], rest, real))
		return fail_dim(ctx, k, real, rest,
				"its outer tile count is not the ceiling of "
				"the chain's size by the inner tile sizes");
	return 1;
}

/* Padding comes only from what was written: a dim is padded when its outer
 * size is marked (ceil[k]: written as cdiv).  Once one dim is padded,
 * every other dim must be padded or proved exact. */
lego_layout *layout_tileby_padded(lego_ctx *ctx, const lego_layout *real,
				  size_t q, size_t d, lego_expr *const *sizes,
				  const unsigned char *ceil, int *padded)
{
	lego_expr **pdims = lego_xalloc(ctx, d * sizeof *pdims);
	int *st = lego_xalloc(ctx, d * sizeof *st);
	*padded = 0;
	if (!pdims || !st)
		return NULL;
	for (size_t k = 0; k < d; k++) {
		st[k] = dim_padding(ctx, q, d, k, sizes, ceil, real->dims[k]);
		if (st[k] < 0) {
			*padded = 1;  /* an error, reported */
			return NULL;
		}
		*padded |= st[k] == 1;
		pdims[k] = dim_product(ctx, q, d, k, 0, sizes);
	}
	if (!*padded)
		return NULL;
	for (size_t k = 0; k < d; k++)
		if (st[k] == 2) {
			fail_dim(ctx, k, real->dims[k],
				 dim_product(ctx, q, d, k, 1, sizes),
				 "another dim is padded, and the sizes of this "
				 "one are not proved to multiply to it");
			return NULL;
		}
	lego_layout *row = lego_row(ctx, d, pdims);
	lego_layout *t = row ? layout_tileby(ctx, 1, &row, q, d, sizes, NULL)
			     : NULL;
	if (t)
		t->real = real;
	return t;
}

int lego_layout_is_padded(const lego_layout *l)
{
	return l && l->real;
}

lego_expr *lego_layout_phys_size(lego_ctx *ctx, const lego_layout *l)
{
	if (!l)
		return lego_fail_null(ctx, "size: no layout");
	return lego_layout_size(ctx, l->real ? l->real : l);
}

/* Coordinates in the padded space: x_k = sum_h idx[h][k] * (sizes of dim
 * k inside level h). */
static lego_expr **coords(lego_ctx *ctx, const lego_layout *l,
			  lego_expr *const *idx)
{
	size_t q = l->ngroups, d = l->group_len[0];
	lego_expr **x = lego_xalloc(ctx, d * sizeof *x);
	for (size_t k = 0; x && k < d; k++) {
		x[k] = lego_const(ctx, 0);
		for (size_t h = 0; h < q && x[k]; h++) {
			lego_expr *in = dim_product(ctx, q, d, k, h + 1,
						    l->dims);
			x[k] = in ? lego_add(ctx, x[k],
					     lego_mul(ctx, idx[h * d + k], in))
				  : NULL;
		}
		if (!x[k])
			return NULL;
	}
	return x;
}

lego_expr *layout_padded_apply(lego_ctx *ctx, const lego_layout *l,
			       lego_expr *const *idx)
{
	lego_expr **x = coords(ctx, l, idx);
	return x ? lego_layout_apply(ctx, l->real, x) : NULL;
}

int layout_padded_inv(lego_ctx *ctx, const lego_layout *l, lego_expr *flat,
		      lego_expr **idx)
{
	size_t q = l->ngroups, d = l->group_len[0];
	lego_expr **x = lego_xalloc(ctx, d * sizeof *x);
	if (!x)
		return LEGO_ENOMEM;
	int rc = lego_layout_inv(ctx, l->real, flat, x);
	for (size_t k = 0; rc == LEGO_OK && k < d; k++)
		for (size_t h = 0; h < q; h++) {
			lego_expr *in = dim_product(ctx, q, d, k, h + 1, l->dims);
			lego_expr *v = in ? lego_div(ctx, x[k], in) : NULL;
			/* x_k < R_k <= P_k: the outermost level needs no %. */
			if (v && h > 0)
				v = lego_mod(ctx, v, l->dims[h * d + k]);
			if (!(idx[h * d + k] = v))
				return LEGO_ERR;
		}
	return rc;
}

lego_expr *lego_layout_mask(lego_ctx *ctx, const lego_layout *l,
			    lego_expr *const *idx)
{
	if (!ctx || !l || !idx)
		return lego_fail_null(ctx, "mask: no layout or index");
	lego_expr *m = lego_const(ctx, 1);
	if (!l->real)
		return m;
	size_t q = l->ngroups, d = l->group_len[0];
	lego_expr **x = coords(ctx, l, idx);
	for (size_t k = 0; x && m && k < d; k++) {
		lego_expr *r = l->real->dims[k];
		if (proved_equal(ctx, dim_product(ctx, q, d, k, 0, l->dims), r))
			continue;
		lego_expr *in = lego_simplify(ctx, lego_binop(ctx, LEGO_LT,
							      x[k], r));
		int64_t v;
		if (!in || !(lego_expr_is_const(in, &v) && v == 1))
			m = in ? lego_binop(ctx, LEGO_AND, m, in) : NULL;
	}
	return x && m ? lego_simplify(ctx, m) : NULL;
}
