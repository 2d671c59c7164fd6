/* build.c - the validating constructors of RegP, GenP, OrderBy, GroupBy. */
#include <string.h>

#include "layout/layout.h"

static lego_layout *layout_new(lego_ctx *ctx, layout_kind kind, size_t rank,
			       lego_expr *const *dims)
{
	lego_layout *l = lego_xalloc(ctx, sizeof *l);
	if (!l)
		return NULL;
	l->kind = kind;
	l->rank = rank;
	l->dims = lego_xalloc(ctx, (rank ? rank : 1) * sizeof *l->dims);
	if (!l->dims)
		return NULL;
	if (dims)
		memcpy(l->dims, dims, rank * sizeof *dims);
	return l;
}

static int check_perm(lego_ctx *ctx, size_t d, const int *perm)
{
	if (!perm)
		return lego_fail(ctx, LEGO_ERR, "RegP: missing permutation");
	for (size_t k = 0; k < d; k++) {
		if (perm[k] < 1 || (size_t)perm[k] > d)
			return lego_fail(ctx, LEGO_ERR,
					 "RegP: permutation entry %zu is %d, "
					 "not in 1..%zu",
					 k + 1, perm[k], d);
		for (size_t j = 0; j < k; j++)
			if (perm[j] == perm[k])
				return lego_fail(ctx, LEGO_ERR,
						 "RegP: permutation entry %zu "
						 "repeats the value %d of "
						 "entry %zu",
						 k + 1, perm[k], j + 1);
	}
	return LEGO_OK;
}

lego_layout *lego_regp(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		       const int *perm)
{
	if (!ctx)
		return NULL;
	if (layout_check_dims(ctx, d, dims, "RegP") != LEGO_OK ||
	    check_perm(ctx, d, perm) != LEGO_OK)
		return NULL;
	lego_layout *l = layout_new(ctx, LAYOUT_REGP, d, dims);
	if (!l)
		return NULL;
	l->perm = lego_xalloc(ctx, d * sizeof *l->perm);
	if (!l->perm)
		return NULL;
	memcpy(l->perm, perm, d * sizeof *perm);
	return l;
}

static lego_layout *layout_genp_new(lego_ctx *ctx, size_t d,
				    lego_expr *const *dims, const char *name)
{
	if (layout_check_dims(ctx, d, dims, "GenP") != LEGO_OK)
		return NULL;
	lego_layout *l = layout_new(ctx, LAYOUT_GENP, d, dims);
	if (!l)
		return NULL;
	l->genp = lego_xalloc(ctx, sizeof *l->genp);
	if (!l->genp)
		return NULL;
	l->genp->name = lego_arena_strdup(&ctx->arena, name ? name : "genp");
	if (!l->genp->name)
		return lego_fail_null(ctx, "out of memory");
	return l;
}

lego_layout *layout_genp_builtin(lego_ctx *ctx, size_t d,
				 lego_expr *const *dims,
				 const lego_genp_fn *fn,
				 int (*check_dims)(lego_ctx *, const layout_genp *,
						   size_t, const int64_t *))
{
	lego_layout *l = lego_genp(ctx, d, dims, fn);
	if (l)
		l->genp->check_dims = check_dims;
	return l;
}

lego_layout *lego_genp(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		       const lego_genp_fn *fn)
{
	if (!ctx)
		return NULL;
	if (!fn || !fn->apply || !fn->inv)
		return lego_fail_null(ctx, "GenP: the callbacks apply and inv "
					   "are required");
	lego_layout *l = layout_genp_new(ctx, d, dims, fn->name);
	if (!l)
		return NULL;
	l->genp->fn = *fn;
	l->genp->fn.name = l->genp->name;
	return l;
}

static int distinct_symbols(lego_ctx *ctx, const char *name, size_t d,
			    lego_expr *const *params, lego_expr *flat)
{
	for (size_t k = 0; k < d; k++) {
		if (!params[k] || lego_expr_kind_of(params[k]) != LEGO_SYM)
			return lego_fail(ctx, LEGO_ERR,
					 "GenP %s: parameter %zu is not a "
					 "symbol", name, k + 1);
		for (size_t j = 0; j < k; j++)
			if (params[j] == params[k])
				return lego_fail(ctx, LEGO_ERR,
						 "GenP %s: parameter %s is "
						 "repeated", name,
						 lego_expr_name(params[k]));
	}
	if (!flat || lego_expr_kind_of(flat) != LEGO_SYM)
		return lego_fail(ctx, LEGO_ERR,
				 "GenP %s: the flat index is not a symbol",
				 name);
	return LEGO_OK;
}

static lego_expr **copy_exprs(lego_ctx *ctx, size_t n, lego_expr *const *es)
{
	lego_expr **out = lego_xalloc(ctx, n * sizeof *out);
	if (out)
		memcpy(out, es, n * sizeof *es);
	return out;
}

lego_layout *lego_genp_exprs(lego_ctx *ctx, const char *name, size_t d,
			     lego_expr *const *dims, lego_expr *const *params,
			     lego_expr *apply_e, lego_expr *flat,
			     lego_expr *const *inv_e)
{
	if (!ctx)
		return NULL;
	if (!name)
		name = "genp";
	if (!params || !inv_e || !apply_e)
		return lego_fail_null(ctx, "GenP %s: apply, params and inverse "
					   "are required", name);
	if (distinct_symbols(ctx, name, d, params, flat) != LEGO_OK)
		return NULL;
	for (size_t k = 0; k < d; k++)
		if (!inv_e[k])
			return lego_fail_null(ctx, "GenP %s: inverse "
						   "coordinate %zu is missing",
					      name, k + 1);
	lego_layout *l = layout_genp_new(ctx, d, dims, name);
	if (!l)
		return NULL;
	layout_genp *g = l->genp;
	g->params = copy_exprs(ctx, d, params);
	g->inv_e = copy_exprs(ctx, d, inv_e);
	if (!g->params || !g->inv_e)
		return NULL;
	g->apply_e = apply_e;
	g->flat = flat;
	return l;
}

int layout_genp_locate(lego_ctx *ctx, lego_layout *l, const char *apply_at,
		       const char *inv_at)
{
	if (!l || l->kind != LAYOUT_GENP)
		return lego_fail(ctx, LEGO_ERR, "GenP location: not a GenP");
	l->genp->where_apply = lego_arena_strdup(&ctx->arena, apply_at);
	l->genp->where_inv = lego_arena_strdup(&ctx->arena, inv_at);
	return l->genp->where_apply && l->genp->where_inv
		       ? LEGO_OK
		       : lego_fail(ctx, LEGO_ENOMEM, "out of memory");
}

int layout_genp_template(lego_ctx *ctx, lego_layout *l,
			 const lego_layout *tmpl)
{
	if (!l || l->kind != LAYOUT_GENP || !l->genp->apply_e || !tmpl ||
	    tmpl->kind != LAYOUT_GENP || !tmpl->genp->apply_e ||
	    tmpl->rank != l->rank)
		return lego_fail(ctx, LEGO_ERR, "GenP template: not two "
				 "expression GenPs of one rank");
	l->genp->tmpl = tmpl;
	return LEGO_OK;
}

/* Levels that are OrderBys are spliced: by the semantics, OrderBy(OrderBy(
 * a, b), c) and OrderBy(a, b, c) have the same apply and inv. */
static int count_leaves(lego_ctx *ctx, size_t q, lego_layout *const *levels,
			size_t *n, size_t *rank)
{
	for (size_t k = 0; k < q; k++) {
		const lego_layout *p = levels[k];
		if (!p)
			return lego_fail(ctx, LEGO_ERR,
					 "OrderBy: level %zu is missing",
					 k + 1);
		if (p->kind == LAYOUT_GROUPBY)
			return lego_fail(ctx, LEGO_ERR,
					 "OrderBy: level %zu is a GroupBy; "
					 "levels are RegP, GenP or OrderBy",
					 k + 1);
		*n += p->kind == LAYOUT_ORDERBY ? p->nlevels : 1;
		*rank += p->rank;
	}
	return LEGO_OK;
}

lego_layout *lego_orderby(lego_ctx *ctx, size_t q,
			  lego_layout *const *levels)
{
	if (!ctx)
		return NULL;
	size_t n = 0, rank = 0;
	if (q == 0 || !levels)
		return lego_fail_null(ctx, "OrderBy: needs at least one level");
	if (count_leaves(ctx, q, levels, &n, &rank) != LEGO_OK)
		return NULL;
	lego_layout *l = layout_new(ctx, LAYOUT_ORDERBY, rank, NULL);
	if (!l)
		return NULL;
	l->levels = lego_xalloc(ctx, n * sizeof *l->levels);
	if (!l->levels)
		return NULL;
	size_t r = 0;
	for (size_t k = 0; k < q; k++) {
		lego_layout *p = levels[k];
		if (p->kind == LAYOUT_ORDERBY) {
			memcpy(l->levels + l->nlevels, p->levels,
			       p->nlevels * sizeof *p->levels);
			l->nlevels += p->nlevels;
		} else {
			l->levels[l->nlevels++] = p;
		}
		memcpy(l->dims + r, p->dims, p->rank * sizeof *p->dims);
		r += p->rank;
	}
	return l;
}

/* A chain element: an OrderBy as is, a leaf wrapped as OrderBy(P), a
 * GroupBy spliced (its apply is its chain's, B_g^-1 and B_g cancel). */
static size_t chain_len(const lego_layout *e)
{
	return e->kind == LAYOUT_GROUPBY ? e->nchain : 1;
}

static int chain_append(lego_ctx *ctx, lego_layout *g, lego_layout *e)
{
	if (e->kind == LAYOUT_GROUPBY) {
		memcpy(g->chain + g->nchain, e->chain,
		       e->nchain * sizeof *e->chain);
		g->nchain += e->nchain;
		return LEGO_OK;
	}
	if (e->kind != LAYOUT_ORDERBY) {
		e = lego_orderby(ctx, 1, &e);
		if (!e)
			return LEGO_ERR;
	}
	g->chain[g->nchain++] = e;
	return LEGO_OK;
}

static int check_chain_sizes(lego_ctx *ctx, const lego_layout *g)
{
	lego_expr *size = lego_layout_size(ctx, g->chain[0]);
	for (size_t k = 1; k < g->nchain && size; k++) {
		lego_expr *other = lego_layout_size(ctx, g->chain[k]);
		if (!other || layout_sizes_agree(ctx, size, other,
						 "GroupBy: chain pieces") !=
				      LEGO_OK)
			return LEGO_ERR;
	}
	lego_expr *logical = layout_product(ctx, g->rank, g->dims);
	if (!size || !logical)
		return LEGO_ERR;
	return layout_sizes_agree(ctx, logical, size,
				  "GroupBy: logical dims and chain");
}

static int check_groups(lego_ctx *ctx, size_t ngroups, const size_t *len,
			size_t *rank)
{
	if (ngroups == 0 || !len)
		return lego_fail(ctx, LEGO_ERR, "GroupBy: needs a group");
	for (size_t g = 0; g < ngroups; g++) {
		if (len[g] == 0)
			return lego_fail(ctx, LEGO_ERR,
					 "GroupBy: group %zu is empty", g + 1);
		*rank += len[g];
	}
	return LEGO_OK;
}

lego_layout *lego_groupby(lego_ctx *ctx, size_t ngroups,
			  const size_t *group_len, lego_expr *const *dims,
			  size_t nchain, lego_layout *const *chain)
{
	size_t rank = 0, n = 0;
	if (!ctx)
		return NULL;
	if (check_groups(ctx, ngroups, group_len, &rank) != LEGO_OK ||
	    layout_check_dims(ctx, rank, dims, "GroupBy") != LEGO_OK)
		return NULL;
	if (nchain == 0 || !chain)
		return lego_fail_null(ctx, "GroupBy: needs a chain");
	for (size_t k = 0; k < nchain; k++) {
		if (!chain[k])
			return lego_fail_null(ctx, "GroupBy: chain element "
						   "%zu is missing", k + 1);
		n += chain_len(chain[k]);
	}
	lego_layout *l = layout_new(ctx, LAYOUT_GROUPBY, rank, dims);
	if (!l)
		return NULL;
	l->ngroups = ngroups;
	l->group_len = lego_xalloc(ctx, ngroups * sizeof *group_len);
	l->chain = lego_xalloc(ctx, n * sizeof *l->chain);
	if (!l->group_len || !l->chain)
		return NULL;
	memcpy(l->group_len, group_len, ngroups * sizeof *group_len);
	for (size_t k = 0; k < nchain; k++)
		if (chain_append(ctx, l, chain[k]) != LEGO_OK)
			return NULL;
	if (check_chain_sizes(ctx, l) != LEGO_OK)
		return NULL;
	return l;
}

size_t lego_layout_rank(const lego_layout *l)
{
	return l ? l->rank : 0;
}

lego_expr *lego_layout_dim(const lego_layout *l, size_t k)
{
	return l && k < l->rank ? l->dims[k] : NULL;
}

lego_expr *lego_layout_size(lego_ctx *ctx, const lego_layout *l)
{
	if (!l)
		return lego_fail_null(ctx, "layout is NULL");
	return layout_product(ctx, l->rank, l->dims);
}
