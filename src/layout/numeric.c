/* numeric.c - numeric apply, inverse and table for concrete sizes. */
#include <stdlib.h>
#include <string.h>

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

int layout_stream_flush(layout_stream *s)
{
	int rc = s->n ? s->fn(s->arg, s->total, s->first, s->buf, s->n) : 0;
	s->first += (int64_t)s->n;
	s->n = 0;
	return rc;
}

int layout_stream_put(layout_stream *s, int64_t v)
{
	s->buf[s->n++] = v;
	return s->n == sizeof s->buf / sizeof s->buf[0] ? layout_stream_flush(s)
						      : 0;
}

int lego_layout_table_each(lego_ctx *ctx, const lego_layout *l,
			   const lego_env *env, lego_table_fn fn, void *arg)
{
	if (!fn)
		return lego_fail(ctx, LEGO_ERR, "table: no function");
	if (l && l->real)
		return layout_padded_each(ctx, l, env, fn, arg);
	layout_inst in;
	int rc = inst_init(&in, ctx, l, env);
	if (rc != LEGO_OK) {
		inst_free(&in);
		return rc;
	}
	layout_stream *s = malloc(sizeof *s);
	if (!s)
		rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	else
		*s = (layout_stream){.fn = fn, .arg = arg, .total = in.size};
	inst_first(&in);
	for (int64_t x = 0; s && x < in.size && rc == LEGO_OK; x++) {
		int64_t f;
		rc = inst_next(&in, x, &f);
		if (rc == LEGO_OK)
			rc = layout_stream_put(s, f);
	}
	if (s && rc == LEGO_OK)
		rc = layout_stream_flush(s);
	free(s);
	inst_free(&in);
	return rc;
}

typedef struct table_out {
	lego_ctx *ctx;
	int64_t *out;
	size_t cap, *size;
} table_out;

static int copy_chunk(void *arg, int64_t total, int64_t first,
		      const int64_t *vals, size_t n)
{
	table_out *t = arg;
	if (t->size)
		*t->size = (size_t)total;
	if ((uint64_t)total > (uint64_t)t->cap)
		return lego_fail(t->ctx, LEGO_ERANGE,
				 "table: the layout has %lld elements, the "
				 "buffer %zu", (long long)total, t->cap);
	memcpy(t->out + first, vals, n * sizeof *vals);
	return LEGO_OK;
}

int lego_layout_table(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, int64_t *out, size_t cap,
		      size_t *size)
{
	if (!ctx || !l || !out)
		return lego_fail(ctx, LEGO_ERR, "table: no layout or output");
	table_out t = {ctx, out, cap, size};
	if (size)
		*size = 0;
	return lego_layout_table_each(ctx, l, env, copy_chunk, &t);
}
