/* sugar.c - Row, Col, TileBy and TileOrderBy, built from the core pieces
 * exactly as SEMANTICS.md states. */
#include <stdio.h>
#include <string.h>

#include "layout/layout.h"

/* sigma_{d x q} = flatten(A), A[k][h] = k+1+d*h (1-based values). */
void layout_sigma(size_t d, size_t q, int *out)
{
	for (size_t k = 0; k < d; k++)
		for (size_t h = 0; h < q; h++)
			out[k * q + h] = (int)(k + 1 + d * h);
}

static lego_layout *regp_ordered(lego_ctx *ctx, size_t d,
				 lego_expr *const *dims, int reversed)
{
	if (layout_check_dims(ctx, d, dims, reversed ? "Col" : "Row") !=
	    LEGO_OK)
		return NULL;
	int *perm = lego_xalloc(ctx, d * sizeof *perm);
	if (!perm)
		return NULL;
	for (size_t k = 0; k < d; k++)
		perm[k] = (int)(reversed ? d - k : k + 1);
	return lego_regp(ctx, d, dims, perm);
}

lego_layout *lego_row(lego_ctx *ctx, size_t d, lego_expr *const *dims)
{
	if (!ctx)
		return NULL;
	return regp_ordered(ctx, d, dims, 0);
}

lego_layout *lego_col(lego_ctx *ctx, size_t d, lego_expr *const *dims)
{
	if (!ctx)
		return NULL;
	return regp_ordered(ctx, d, dims, 1);
}

/* RegP(sigma(dims), sigma^-1) for sigma = sigma_{d x q}: reads a flat index
 * over the dimension-major dims, writes the level-major one. */
static lego_layout *regroup(lego_ctx *ctx, size_t d, size_t q,
			    lego_expr *const *dims)
{
	size_t n = d * q;
	int *sigma = lego_xalloc(ctx, n * sizeof *sigma);
	int *inv = lego_xalloc(ctx, n * sizeof *inv);
	lego_expr **pdims = lego_xalloc(ctx, n * sizeof *pdims);
	if (!sigma || !inv || !pdims)
		return NULL;
	layout_sigma(d, q, sigma);
	for (size_t k = 0; k < n; k++) {
		pdims[k] = dims[sigma[k] - 1];
		inv[sigma[k] - 1] = (int)k + 1;
	}
	return lego_regp(ctx, n, pdims, inv);
}

/* Every level of O has the same number of dims: d_O. */
static lego_layout *reorder_of(lego_ctx *ctx, const lego_layout *o)
{
	size_t d = o->levels[0]->rank;
	for (size_t k = 1; k < o->nlevels; k++)
		if (o->levels[k]->rank != d)
			return lego_fail_null(ctx, "TileBy: the levels of an "
						   "OrderBy of the chain have "
						   "%zu and %zu dims; TileBy "
						   "needs equal ones",
					      d, o->levels[k]->rank);
	lego_layout *r = regroup(ctx, d, o->nlevels, o->dims);
	return r ? lego_orderby(ctx, 1, &r) : NULL;
}

/* The chain elements as OrderBys (GroupBys spliced, leaves wrapped). */
static lego_layout *chain_as_groupby(lego_ctx *ctx, size_t nchain,
				     lego_layout *const *chain)
{
	if (nchain == 0 || !chain || !chain[0])
		return lego_fail_null(ctx, "TileBy: needs a chain");
	lego_expr *size = lego_layout_size(ctx, chain[0]);
	size_t one = 1;
	return size ? lego_groupby(ctx, 1, &one, &size, nchain, chain) : NULL;
}

/* A tile count written a/b is exact: b divides a. */
static int assume_exact_divisions(lego_ctx *ctx, size_t n,
				  lego_expr *const *sizes)
{
	for (size_t k = 0; k < n; k++) {
		lego_expr *s = sizes[k];
		if (!s)
			return lego_fail(ctx, LEGO_ERR,
					 "TileBy: size %zu is missing", k + 1);
		if (lego_expr_kind_of(s) == LEGO_DIV &&
		    !layout_is_cdiv(ctx, s) &&
		    lego_assume_divides(ctx, lego_expr_arg(s, 1),
					lego_expr_arg(s, 0)) != LEGO_OK)
			return LEGO_ERR;
	}
	return LEGO_OK;
}

/* The outer sizes (level 0) asking for padding: marked by the caller
 * (written as cdiv) or cdiv-shaped, (R + B - 1) / B. */
static unsigned char *ceil_marks(lego_ctx *ctx, size_t d,
				 lego_expr *const *sizes,
				 const unsigned char *ceil)
{
	unsigned char *m = lego_xalloc(ctx, d);
	for (size_t k = 0; m && k < d; k++)
		m[k] = (ceil && ceil[k]) || layout_is_cdiv(ctx, sizes[k]);
	return m;
}

/* A TileBy is built as a GroupBy; its errors name what the user wrote:
 * "GroupBy: chain pieces" are the tiled layout and the tile sizes. */
static lego_layout *named(lego_ctx *ctx, const char *what,
			  lego_layout *built)
{
	static const char from[] = "GroupBy: ";
	static const char pieces[] = "chain pieces: ";
	if (built || strncmp(ctx->error, from, sizeof from - 1))
		return built;
	char rest[sizeof ctx->error];
	const char *tail = ctx->error + sizeof from - 1;
	int chain = !strncmp(tail, pieces, sizeof pieces - 1);
	snprintf(rest, sizeof rest, "%s", chain ? tail + sizeof pieces - 1
						: tail);
	lego_fail(ctx, LEGO_ERR, "%s: %s%s", what,
		  chain ? "the tiled layout and the tile sizes: " : "", rest);
	return NULL;
}

lego_layout *lego_tileby(lego_ctx *ctx, size_t nchain,
			 lego_layout *const *chain, size_t q, size_t d,
			 lego_expr *const *sizes)
{
	return layout_tileby(ctx, nchain, chain, q, d, sizes, NULL);
}

lego_layout *layout_tileby(lego_ctx *ctx, size_t nchain,
			   lego_layout *const *chain, size_t q, size_t d,
			   lego_expr *const *sizes, const unsigned char *ceil)
{
	if (!ctx)
		return NULL;
	if (q == 0 || d == 0 || !sizes)
		return lego_fail_null(ctx, "TileBy: needs at least one level "
					   "of at least one size");
	if (assume_exact_divisions(ctx, q * d, sizes) != LEGO_OK ||
	    layout_check_dims(ctx, q * d, sizes, "TileBy") != LEGO_OK)
		return NULL;
	unsigned char *marks = ceil_marks(ctx, d, sizes, ceil);
	if (!marks)
		return NULL;
	int padded = 0;
	lego_layout *p = nchain == 1 && chain && chain[0] &&
				 chain[0]->rank == d
			     ? layout_tileby_padded(ctx, chain[0], q, d, sizes,
						    marks, &padded)
			     : NULL;
	if (padded)
		return p;  /* the padded layout, or NULL on error */
	lego_layout *g = chain_as_groupby(ctx, nchain, chain);
	if (!g)
		return NULL;
	size_t n = 2 * g->nchain + 1;
	lego_layout **full = lego_xalloc(ctx, n * sizeof *full);
	size_t *lens = lego_xalloc(ctx, q * sizeof *lens);
	if (!full || !lens)
		return NULL;
	for (size_t k = 0; k < g->nchain; k++) {
		full[2 * k] = g->chain[k];
		if (!(full[2 * k + 1] = reorder_of(ctx, g->chain[k])))
			return NULL;
	}
	int *sigma = lego_xalloc(ctx, q * d * sizeof *sigma);
	if (!sigma)
		return NULL;
	layout_sigma(d, q, sigma);
	lego_layout *t = lego_regp(ctx, q * d, sizes, sigma);
	if (!t || !(full[n - 1] = lego_orderby(ctx, 1, &t)))
		return NULL;
	for (size_t h = 0; h < q; h++)
		lens[h] = d;
	return named(ctx, "TileBy", lego_groupby(ctx, q, lens, sizes, n, full));
}

lego_layout *lego_tile_orderby(lego_ctx *ctx, size_t q,
			       lego_layout *const *levels)
{
	if (!ctx)
		return NULL;
	lego_layout *o = lego_orderby(ctx, q, levels);
	if (!o)
		return NULL;
	size_t d = levels[0]->rank;
	for (size_t k = 1; k < q; k++)
		if (levels[k]->rank != d)
			return lego_fail_null(ctx, "TileOrderBy: levels 1 and "
						   "%zu have %zu and %zu dims; "
						   "they must be equal",
					      k + 1, d, levels[k]->rank);
	lego_layout *r = regroup(ctx, d, q, o->dims);
	lego_layout *chain[2] = {o, r ? lego_orderby(ctx, 1, &r) : NULL};
	if (!chain[1])
		return NULL;
	size_t rank = o->rank;
	return named(ctx, "TileOrderBy",
		     lego_groupby(ctx, 1, &rank, r->dims, 2, chain));
}
