/* morton.c - Z-order over [rows, cols], both powers of two: the bits of
 * the column and row coordinates interleaved (column bit b at 2b, row bit
 * b at 2b+1) for the bits both have, the extra high bits of the longer
 * side on top. */
#include "layout/layout.h"

static int log2_of(int64_t v)
{
	return __builtin_ctzll((uint64_t)v);
}

static int64_t morton_flat(int rbits, int cbits, int64_t i, int64_t j)
{
	int m = rbits < cbits ? rbits : cbits;
	int64_t f = (rbits > cbits ? i >> m : j >> m) << (2 * m);
	for (int b = 0; b < m; b++)
		f |= ((j >> b) & 1) << (2 * b) | ((i >> b) & 1) << (2 * b + 1);
	return f;
}

static int morton_apply(void *user, size_t d, const int64_t *dims,
			const int64_t *idx, int64_t *flat)
{
	*flat = morton_flat(log2_of(dims[0]), log2_of(dims[1]), idx[0],
			    idx[1]);
	return LEGO_OK;
}

static int morton_inv(void *user, size_t d, const int64_t *dims,
		      int64_t flat, int64_t *idx)
{
	int rbits = log2_of(dims[0]), cbits = log2_of(dims[1]);
	int m = rbits < cbits ? rbits : cbits;
	int64_t high = flat >> (2 * m), i = 0, j = 0;
	for (int b = 0; b < m; b++) {
		j |= ((flat >> (2 * b)) & 1) << b;
		i |= ((flat >> (2 * b + 1)) & 1) << b;
	}
	idx[0] = i | (rbits > cbits ? high << m : 0);
	idx[1] = j | (rbits > cbits ? 0 : high << m);
	return LEGO_OK;
}

static int is_pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static int morton_check(lego_ctx *ctx, const layout_genp *g, size_t d,
			const int64_t *dims)
{
	if (!is_pow2(dims[0]) || !is_pow2(dims[1]))
		return lego_fail(ctx, LEGO_ERR,
				 "GenP morton needs power-of-two dims, got "
				 "[%lld, %lld]", (long long)dims[0],
				 (long long)dims[1]);
	return LEGO_OK;
}

/* Symbolic forms need the bit counts: dims must be constants. */
static int const_bits(lego_ctx *ctx, lego_expr *const *dims, int *rbits,
		      int *cbits)
{
	int64_t v[2];
	if (!lego_expr_is_const(dims[0], &v[0]) ||
	    !lego_expr_is_const(dims[1], &v[1]))
		return lego_fail(ctx, LEGO_ERR,
				 "GenP morton: symbolic expressions need "
				 "constant power-of-two dims (a symbolic bit "
				 "count is not supported)");
	int rc = morton_check(ctx, NULL, 2, v);
	*rbits = log2_of(v[0]);
	*cbits = log2_of(v[1]);
	return rc;
}

/* (x >> from) & 1) << to */
static lego_expr *move_bit(lego_ctx *ctx, lego_expr *x, int from, int to)
{
	lego_expr *bit = lego_binop(ctx, LEGO_BAND,
				    lego_binop(ctx, LEGO_SHR, x,
					       lego_const(ctx, from)),
				    lego_const(ctx, 1));
	return lego_binop(ctx, LEGO_SHL, bit, lego_const(ctx, to));
}

static lego_expr *shift(lego_ctx *ctx, lego_expr_kind kind, lego_expr *x,
			int by)
{
	return lego_binop(ctx, kind, x, lego_const(ctx, by));
}

static lego_expr *morton_apply_sym(lego_ctx *ctx, void *user, size_t d,
				   lego_expr *const *dims,
				   lego_expr *const *idx)
{
	int rbits, cbits;
	if (const_bits(ctx, dims, &rbits, &cbits) != LEGO_OK)
		return NULL;
	int m = rbits < cbits ? rbits : cbits;
	lego_expr *longer = rbits > cbits ? idx[0] : idx[1];
	lego_expr *f = shift(ctx, LEGO_SHL, shift(ctx, LEGO_SHR, longer, m),
			     2 * m);
	for (int b = 0; b < m; b++) {
		f = lego_binop(ctx, LEGO_BOR, f,
			       move_bit(ctx, idx[1], b, 2 * b));
		f = lego_binop(ctx, LEGO_BOR, f,
			       move_bit(ctx, idx[0], b, 2 * b + 1));
	}
	return f;
}

static int morton_inv_sym(lego_ctx *ctx, void *user, size_t d,
			  lego_expr *const *dims, lego_expr *flat,
			  lego_expr **idx)
{
	int rbits, cbits;
	if (const_bits(ctx, dims, &rbits, &cbits) != LEGO_OK)
		return LEGO_ERR;
	int m = rbits < cbits ? rbits : cbits;
	lego_expr *high = shift(ctx, LEGO_SHL, shift(ctx, LEGO_SHR, flat, 2 * m),
				m);
	lego_expr *i = rbits > cbits ? high : lego_const(ctx, 0);
	lego_expr *j = rbits > cbits ? lego_const(ctx, 0) : high;
	for (int b = 0; b < m; b++) {
		j = lego_binop(ctx, LEGO_BOR, j, move_bit(ctx, flat, 2 * b, b));
		i = lego_binop(ctx, LEGO_BOR, i,
			       move_bit(ctx, flat, 2 * b + 1, b));
	}
	idx[0] = i;
	idx[1] = j;
	return i && j ? LEGO_OK : LEGO_ERR;
}

lego_layout *lego_genp_morton(lego_ctx *ctx, lego_expr *rows,
			      lego_expr *cols)
{
	if (!ctx)
		return NULL;
	static const lego_genp_fn fn = {
		.name = "morton",
		.apply = morton_apply,
		.inv = morton_inv,
		.apply_sym = morton_apply_sym,
		.inv_sym = morton_inv_sym,
	};
	lego_expr *dims[2] = {rows, cols};
	int64_t v[2];
	if (rows && cols && lego_expr_is_const(rows, &v[0]) &&
	    lego_expr_is_const(cols, &v[1]) &&
	    morton_check(ctx, NULL, 2, v) != LEGO_OK)
		return NULL;
	return layout_genp_builtin(ctx, 2, dims, &fn, morton_check);
}
