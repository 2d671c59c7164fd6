/* partial_num.c - numeric apply, table and check of a padded TileBy. */
#include <stdlib.h>
#include <string.h>

#include "layout/inst.h"

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

/* A padded layout for concrete sizes: its logical dims, and the real
 * chain instantiated once (not per element). */
typedef struct padded_num {
	const lego_layout *l;
	size_t q, d;
	int64_t dims[64], size;
	layout_inst real;
} padded_num;

static int pn_init(padded_num *p, lego_ctx *ctx, const lego_layout *l,
		   const lego_env *env)
{
	p->l = l;
	p->q = l->ngroups;
	p->d = l->group_len[0];
	memset(&p->real, 0, sizeof p->real);
	if (l->rank > 64 || p->d > 16)
		return lego_fail(ctx, LEGO_ERR, "more than 16 padded dims");
	int rc = eval_dims(ctx, l, env, p->dims, &p->size);
	if (rc == LEGO_OK)
		rc = inst_init(&p->real, ctx, l->real, env);
	return rc;
}

static void pn_free(padded_num *p)
{
	inst_free(&p->real);
}

/* 1 with *xr the row-major flat of the real coordinates of idx when they
 * are inside the real tensor, 0 in the padding, negative on error. */
static int pn_coords(padded_num *p, const int64_t *idx, int64_t *xr)
{
	int inside = 1;
	*xr = 0;
	for (size_t k = 0; k < p->d; k++) {
		int64_t x = 0;
		for (size_t h = 0; h < p->q; h++) {
			int64_t s = p->dims[h * p->d + k], i = idx[h * p->d + k];
			if (i < 0 || i >= s)
				return lego_fail(p->real.ctx, LEGO_ERANGE,
						 "index %zu is %lld, outside "
						 "[0, %lld)", h * p->d + k + 1,
						 (long long)i, (long long)s);
			/* At most the product of the dims: it fits. */
			x = x * s + i;
		}
		inside &= x < p->real.dims[k];
		if (inside)
			*xr = *xr * p->real.dims[k] + x;
	}
	return inside;
}

/* The physical index of the logical index idx; -1 in the padding. */
static int pn_apply(padded_num *p, const int64_t *idx, int64_t *f)
{
	int64_t xr;
	int in = pn_coords(p, idx, &xr);
	if (in < 0)
		return in;
	*f = -1;
	return in ? inst_apply_flat(&p->real, xr, f) : LEGO_OK;
}

/* The real chain's inverse, then each real coordinate split into the
 * tile levels. */
static int pn_inv(padded_num *p, int64_t flat, int64_t *idx)
{
	int64_t xr, x[16];
	if (flat < 0 || flat >= p->real.size)
		return lego_fail(p->real.ctx, LEGO_ERANGE,
				 "flat index %lld is outside [0, %lld)",
				 (long long)flat, (long long)p->real.size);
	int rc = inst_inv_flat(&p->real, flat, &xr);
	if (rc != LEGO_OK)
		return rc;
	inst_unflatten(p->d, p->real.dims, xr, x);
	for (size_t k = 0; k < p->d; k++) {
		for (size_t h = p->q; --h > 0;) {
			int64_t s = p->dims[h * p->d + k];
			idx[h * p->d + k] = x[k] % s;
			x[k] /= s;
		}
		idx[k] = x[k];
	}
	return LEGO_OK;
}

int layout_padded_apply_num(lego_ctx *ctx, const lego_layout *l,
			    const lego_env *env, const int64_t *idx,
			    int64_t *flat)
{
	padded_num p;
	if (!idx)
		return lego_fail(ctx, LEGO_ERR, "apply: no index");
	int rc = pn_init(&p, ctx, l, env);
	if (rc == LEGO_OK)
		rc = pn_apply(&p, idx, flat);
	if (rc == LEGO_OK && *flat < 0)
		rc = lego_fail(ctx, LEGO_ERANGE,
			       "apply: the index is in the padding");
	pn_free(&p);
	return rc;
}

int layout_padded_inv_num(lego_ctx *ctx, const lego_layout *l,
			  const lego_env *env, int64_t flat, int64_t *idx)
{
	padded_num p;
	int rc = pn_init(&p, ctx, l, env);
	if (rc == LEGO_OK)
		rc = pn_inv(&p, flat, idx);
	pn_free(&p);
	return rc;
}

/* The next logical index in row-major order. */
static void step(size_t rank, const int64_t *dims, int64_t *idx)
{
	for (size_t k = rank; k-- > 0 && ++idx[k] == dims[k];)
		idx[k] = 0;
}

/* The table streamed, over an instantiated layout. */
static int pn_each(padded_num *p, lego_table_fn fn, void *arg)
{
	int64_t idx[64] = {0};
	layout_stream *s = malloc(sizeof *s);
	int rc = s ? LEGO_OK : lego_fail(p->real.ctx, LEGO_ENOMEM,
					 "out of memory");
	if (s)
		*s = (layout_stream){.fn = fn, .arg = arg, .total = p->size};
	for (int64_t f = 0; rc == LEGO_OK && f < p->size; f++) {
		int64_t v;
		rc = pn_apply(p, idx, &v);
		if (rc == LEGO_OK)
			rc = layout_stream_put(s, v);
		step(p->l->rank, p->dims, idx);
	}
	if (rc == LEGO_OK)
		rc = layout_stream_flush(s);
	free(s);
	return rc;
}

int layout_padded_each(lego_ctx *ctx, const lego_layout *l,
		       const lego_env *env, lego_table_fn fn, void *arg)
{
	padded_num p;
	int rc = pn_init(&p, ctx, l, env);
	if (rc == LEGO_OK)
		rc = pn_each(&p, fn, arg);
	pn_free(&p);
	return rc;
}

/* Both passes of the check walk the table as a stream: memory is one bit
 * per real element, not a word per padded one. */
typedef struct padded_walk {
	padded_num *p;
	lego_check_report *rep;
	int64_t real, idx[64];
	uint64_t *hit; /* bitmap of the real elements reached */
} padded_walk;

/* Every real element reached at most once, nothing else reached. */
static int mark_hits(void *arg, int64_t total, int64_t first,
		     const int64_t *vals, size_t n)
{
	padded_walk *w = arg;
	for (size_t i = 0; i < n; i++) {
		int64_t v = vals[i];
		if (v < 0)
			continue;
		if (v >= w->real || (w->hit[v / 64] >> (v % 64) & 1)) {
			w->rep->bijective = 0;
			w->rep->witness_flat = v;
			return lego_fail(w->p->real.ctx, LEGO_EBIJECT,
					 "padded layout: physical index %lld "
					 "reached twice or out of range",
					 (long long)v);
		}
		w->hit[v / 64] |= (uint64_t)1 << (v % 64);
	}
	return LEGO_OK;
}

/* inv(table[f]) is the index of f for every real element. */
static int check_inverse(void *arg, int64_t total, int64_t first,
			 const int64_t *vals, size_t n)
{
	padded_walk *w = arg;
	size_t rank = w->p->l->rank;
	int64_t back[64];
	for (size_t i = 0; i < n; i++) {
		if (vals[i] >= 0) {
			int rc = pn_inv(w->p, vals[i], back);
			for (size_t k = 0; rc == LEGO_OK && k < rank; k++)
				if (back[k] != w->idx[k])
					rc = lego_fail(w->p->real.ctx,
						       LEGO_EBIJECT,
						       "padded layout: the "
						       "inverse of %lld is "
						       "wrong", (long long)vals[i]);
			if (rc != LEGO_OK) {
				w->rep->inverse_ok = 0;
				w->rep->witness_flat = vals[i];
				return rc;
			}
		}
		step(rank, w->p->dims, w->idx);
	}
	return LEGO_OK;
}

static int never_reached(padded_walk *w)
{
	for (int64_t f = 0; f < w->real; f++)
		if (!(w->hit[f / 64] >> (f % 64) & 1)) {
			w->rep->bijective = 0;
			w->rep->witness_other = f;
			return lego_fail(w->p->real.ctx, LEGO_EBIJECT,
					 "padded layout: element %lld is "
					 "never reached", (long long)f);
		}
	return LEGO_OK;
}

int layout_padded_check(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, lego_check_report *report)
{
	lego_check_report rep = {.bijective = 1, .inverse_ok = 1};
	padded_num p;
	padded_walk w = {.p = &p, .rep = &rep};
	int rc = pn_init(&p, ctx, l, env);
	if (rc == LEGO_OK)
		rc = layout_check_limit(ctx, p.size);
	w.real = rc == LEGO_OK ? p.real.size : 0;
	if (rc == LEGO_OK &&
	    !(w.hit = calloc((size_t)(w.real + 63) / 64, sizeof *w.hit)))
		rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	if (rc == LEGO_OK)
		rc = pn_each(&p, mark_hits, &w);
	if (rc == LEGO_OK)
		rc = never_reached(&w);
	if (rc == LEGO_OK)
		rc = pn_each(&p, check_inverse, &w);
	free(w.hit);
	pn_free(&p);
	rep.size = w.real;
	rep.inverse_ok &= rep.bijective;
	if (report)
		*report = rep;
	return rc;
}
