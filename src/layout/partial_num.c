/* partial_num.c - numeric apply, table and check of a padded TileBy. */
#include <stdlib.h>

#include "layout/layout.h"

/* Padded coordinates of idx; 1 when inside the real tensor, 0 in the
 * padding, negative on error. */
static int num_coords(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, const int64_t *idx, int64_t *x)
{
	size_t q = l->ngroups, d = l->group_len[0];
	int64_t s, r;
	int inside = 1;
	for (size_t k = 0; k < d; k++) {
		x[k] = 0;
		for (size_t h = 0; h < q; h++) {
			int rc = lego_expr_eval(ctx, l->dims[h * d + k], env, &s);
			if (rc != LEGO_OK)
				return rc;
			if (idx[h * d + k] < 0 || idx[h * d + k] >= s)
				return lego_fail(ctx, LEGO_ERANGE,
						 "index %zu is %lld, outside "
						 "[0, %lld)", h * d + k + 1,
						 (long long)idx[h * d + k],
						 (long long)s);
			if (__builtin_mul_overflow(x[k], s, &x[k]) ||
			    __builtin_add_overflow(x[k], idx[h * d + k], &x[k]))
				return lego_fail(ctx, LEGO_EOVERFLOW,
						 "apply: overflow");
		}
		int rc = lego_expr_eval(ctx, l->real->dims[k], env, &r);
		if (rc != LEGO_OK)
			return rc;
		inside &= x[k] < r;
	}
	return inside;
}

int layout_padded_apply_num(lego_ctx *ctx, const lego_layout *l,
			    const lego_env *env, const int64_t *idx,
			    int64_t *flat)
{
	int64_t x[16];
	if (!idx || l->group_len[0] > 16)
		return lego_fail(ctx, LEGO_ERR, "apply: no index, or more "
					       "than 16 padded dims");
	int in = num_coords(ctx, l, env, idx, x);
	if (in < 0)
		return in;
	if (!in)
		return lego_fail(ctx, LEGO_ERANGE,
				 "apply: the index is in the padding");
	return lego_layout_apply_num(ctx, l->real, env, x, flat);
}

int layout_padded_inv_num(lego_ctx *ctx, const lego_layout *l,
			  const lego_env *env, int64_t flat, int64_t *idx)
{
	size_t q = l->ngroups, d = l->group_len[0];
	int64_t x[16], s;
	if (d > 16)
		return lego_fail(ctx, LEGO_ERR, "inv: more than 16 padded dims");
	int rc = lego_layout_inv_num(ctx, l->real, env, flat, x);
	for (size_t k = 0; rc == LEGO_OK && k < d; k++)
		for (size_t h = q; h-- > 0;) {
			if (h == 0) {
				idx[k] = x[k];
				break;
			}
			rc = lego_expr_eval(ctx, l->dims[h * d + k], env, &s);
			if (rc != LEGO_OK)
				break;
			idx[h * d + k] = x[k] % s;
			x[k] /= s;
		}
	return rc;
}

/* The logical dims of l evaluated, and their product. */
static int eval_dims(lego_ctx *ctx, const lego_layout *l, const lego_env *env,
		     int64_t *dims, int64_t *size)
{
	*size = 1;
	for (size_t k = 0; k < l->rank; k++) {
		int rc = lego_expr_eval(ctx, l->dims[k], env, &dims[k]);
		if (rc != LEGO_OK)
			return rc;
		if (__builtin_mul_overflow(*size, dims[k], size))
			return lego_fail(ctx, LEGO_EOVERFLOW, "table: overflow");
	}
	return LEGO_OK;
}

int layout_padded_table(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, int64_t *out, size_t cap,
			size_t *size)
{
	int64_t dims[64], idx[64] = {0}, n, x[16];
	if (l->rank > 64 || l->group_len[0] > 16)
		return lego_fail(ctx, LEGO_ERR, "table: too many dims");
	int rc = eval_dims(ctx, l, env, dims, &n);
	if (rc != LEGO_OK)
		return rc;
	if (size)
		*size = (size_t)n;
	if ((uint64_t)n > (uint64_t)cap)
		return lego_fail(ctx, LEGO_ERANGE, "table: the layout has "
				 "%lld elements, the buffer %zu",
				 (long long)n, cap);
	for (int64_t f = 0; f < n; f++) {
		int in = num_coords(ctx, l, env, idx, x);
		if (in < 0)
			return in;
		out[f] = -1;
		if (in && (rc = lego_layout_apply_num(ctx, l->real, env, x,
						      &out[f])) != LEGO_OK)
			return rc;
		for (size_t k = l->rank; k-- > 0 && ++idx[k] == dims[k];)
			idx[k] = 0;
	}
	return LEGO_OK;
}

/* inv(table[f]) is the index of f for every real element: indices in
 * the order of the table (row-major over the logical dims). */
static int check_inverse(lego_ctx *ctx, const lego_layout *l,
			 const lego_env *env, const int64_t *table,
			 const int64_t *dims, size_t n, lego_check_report *rep)
{
	int64_t idx[64] = {0}, back[64];
	for (size_t f = 0; f < n; f++) {
		if (table[f] >= 0) {
			int rc = layout_padded_inv_num(ctx, l, env, table[f], back);
			for (size_t k = 0; rc == LEGO_OK && k < l->rank; k++)
				if (back[k] != idx[k])
					rc = lego_fail(ctx, LEGO_EBIJECT,
						       "padded layout: the "
						       "inverse of %lld is "
						       "wrong", (long long)table[f]);
			if (rc != LEGO_OK) {
				rep->inverse_ok = 0;
				rep->witness_flat = table[f];
				return rc;
			}
		}
		for (size_t k = l->rank; k-- > 0 && ++idx[k] == dims[k];)
			idx[k] = 0;
	}
	return LEGO_OK;
}

/* Every real element reached exactly once by the in-bounds indices, and
 * nothing else reached: the table scanned against the real size. */
static int scan_hits(lego_ctx *ctx, const int64_t *table, size_t n,
		     int64_t real, lego_check_report *rep)
{
	unsigned char *hit = lego_xalloc(ctx, (size_t)real);
	if (!hit)
		return LEGO_ENOMEM;
	for (size_t x = 0; x < n; x++) {
		if (table[x] < 0)
			continue;
		if (table[x] >= real || hit[table[x]]++) {
			rep->bijective = 0;
			rep->witness_flat = table[x];
			return lego_fail(ctx, LEGO_EBIJECT, "padded layout: "
					 "physical index %lld reached twice or "
					 "out of range", (long long)table[x]);
		}
	}
	for (int64_t f = 0; f < real; f++)
		if (!hit[f]) {
			rep->bijective = 0;
			rep->witness_other = f;
			return lego_fail(ctx, LEGO_EBIJECT, "padded layout: "
					 "element %lld is never reached",
					 (long long)f);
		}
	return LEGO_OK;
}

int layout_padded_check(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, lego_check_report *report)
{
	lego_check_report rep = {.bijective = 1, .inverse_ok = 1};
	int64_t dims[64], n, real = 0;
	lego_expr *rs = lego_layout_size(ctx, l->real);
	int rc = l->rank > 64 ? lego_fail(ctx, LEGO_ERR, "check: too many dims")
			      : eval_dims(ctx, l, env, dims, &n);
	if (rc == LEGO_OK)
		rc = rs ? lego_expr_eval(ctx, rs, env, &real) : LEGO_ERR;
	if (rc == LEGO_OK)
		rc = layout_check_limit(ctx, n);
	int64_t *table = rc == LEGO_OK ? malloc((size_t)n * sizeof *table)
				       : NULL;
	if (rc == LEGO_OK && !table)
		rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	if (rc == LEGO_OK)
		rc = layout_padded_table(ctx, l, env, table, (size_t)n, NULL);
	if (rc == LEGO_OK)
		rc = scan_hits(ctx, table, (size_t)n, real, &rep);
	if (rc == LEGO_OK)
		rc = check_inverse(ctx, l, env, table, dims, (size_t)n, &rep);
	free(table);
	rep.size = real;
	rep.inverse_ok &= rep.bijective;
	if (report)
		*report = rep;
	return rc;
}
