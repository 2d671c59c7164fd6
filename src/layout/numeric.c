/* numeric.c - numeric apply, inverse and table for concrete sizes. */
#include "layout/inst.h"

static int check_index(lego_ctx *ctx, const layout_inst *in,
		       const int64_t *idx, int64_t *x)
{
	*x = 0;
	for (size_t k = 0; k < in->rank; k++) {
		if (idx[k] < 0 || idx[k] >= in->dims[k])
			return lego_fail(ctx, LEGO_ERANGE,
					 "index %zu is %lld, outside [0, %lld)",
					 k + 1, (long long)idx[k],
					 (long long)in->dims[k]);
		*x = *x * in->dims[k] + idx[k];
	}
	return LEGO_OK;
}

int lego_layout_apply_num(lego_ctx *ctx, const lego_layout *l,
			  const lego_env *env, const int64_t *idx,
			  int64_t *flat)
{
	if (!ctx || !l || !idx || !flat)
		return lego_fail(ctx, LEGO_ERR, "apply: no layout, index or "
				 "result");
	if (l->real)
		return layout_padded_apply_num(ctx, l, env, idx, flat);
	layout_inst in;
	int64_t x;
	int rc = inst_init(&in, ctx, l, env);
	if (rc == LEGO_OK)
		rc = check_index(ctx, &in, idx, &x);
	if (rc == LEGO_OK)
		rc = inst_apply_flat(&in, x, flat);
	inst_free(&in);
	return rc;
}

int lego_layout_inv_num(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, int64_t flat, int64_t *idx)
{
	if (!ctx || !l || !idx)
		return lego_fail(ctx, LEGO_ERR, "inv: no layout or result");
	if (l->real)
		return layout_padded_inv_num(ctx, l, env, flat, idx);
	layout_inst in;
	int64_t x;
	int rc = inst_init(&in, ctx, l, env);
	if (rc == LEGO_OK && (flat < 0 || flat >= in.size))
		rc = lego_fail(ctx, LEGO_ERANGE,
			       "flat index %lld is outside [0, %lld)",
			       (long long)flat, (long long)in.size);
	if (rc == LEGO_OK)
		rc = inst_inv_flat(&in, flat, &x);
	if (rc == LEGO_OK)
		inst_unflatten(in.rank, in.dims, x, idx);
	inst_free(&in);
	return rc;
}

int lego_layout_table(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, int64_t *out, size_t cap,
		      size_t *size)
{
	if (!ctx || !l || !out)
		return lego_fail(ctx, LEGO_ERR, "table: no layout or output");
	if (l->real)
		return layout_padded_table(ctx, l, env, out, cap, size);
	layout_inst in;
	int rc = inst_init(&in, ctx, l, env);
	if (rc == LEGO_OK && size)
		*size = (size_t)in.size;
	if (rc == LEGO_OK && (uint64_t)in.size > (uint64_t)cap)
		rc = lego_fail(ctx, LEGO_ERANGE,
			       "table: the layout has %lld elements, the "
			       "buffer %zu", (long long)in.size, cap);
	if (rc == LEGO_OK) {
		inst_first(&in);
		for (int64_t x = 0; x < in.size && rc == LEGO_OK; x++)
			rc = inst_next(&in, x, &out[x]);
	}
	inst_free(&in);
	return rc;
}
