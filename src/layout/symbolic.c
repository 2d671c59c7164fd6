/* symbolic.c - apply and inverse as expressions, straight from
 * SEMANTICS.md (unsimplified: the caller simplifies, and translation
 * validation compares against this raw form). */
#include <stdlib.h>

#include "layout/layout.h"

static lego_expr **expr_array(lego_ctx *ctx, size_t n)
{
	return lego_xalloc(ctx, (n ? n : 1) * sizeof(lego_expr *));
}

/* RegP: apply(i) = B_{sigma(n)}(sigma(i)). */
static lego_expr *regp_apply(lego_ctx *ctx, const lego_layout *p,
			     lego_expr *const *idx)
{
	lego_expr **pn = expr_array(ctx, p->rank);
	lego_expr **pi = expr_array(ctx, p->rank);
	if (!pn || !pi)
		return NULL;
	for (size_t k = 0; k < p->rank; k++) {
		pn[k] = p->dims[p->perm[k] - 1];
		pi[k] = idx[p->perm[k] - 1];
	}
	return layout_flatten_expr(ctx, p->rank, pn, pi);
}

/* RegP: inv(f) = sigma^-1(B_{sigma(n)}^-1(f)). */
static int regp_inv(lego_ctx *ctx, const lego_layout *p, lego_expr *flat,
		    lego_expr **idx)
{
	lego_expr **pn = expr_array(ctx, p->rank);
	lego_expr **pi = expr_array(ctx, p->rank);
	if (!pn || !pi)
		return LEGO_ENOMEM;
	for (size_t k = 0; k < p->rank; k++)
		pn[k] = p->dims[p->perm[k] - 1];
	int rc = layout_unflatten_expr(ctx, p->rank, pn, flat, pi);
	for (size_t k = 0; k < p->rank && rc == LEGO_OK; k++)
		idx[p->perm[k] - 1] = pi[k];
	return rc;
}

/* A formula of an expression GenP met a constant index where it is
 * undefined: an error at the formula in the spec (when the language gave
 * its place), not an expression that no value can evaluate. */
static int genp_defined(lego_ctx *ctx, const layout_genp *g, lego_expr *e,
			const char *where)
{
	const lego_expr *bad = e ? layout_undefined_op(e) : NULL;
	if (!bad)
		return e ? LEGO_OK : LEGO_ERR;
	char *text = layout_expr_text(ctx, (lego_expr *)bad);
	if (where)
		lego_fail(ctx, LEGO_ERR, "%s: error: genp '%s': %s in %s",
			  where, g->name, layout_undefined_why(bad),
			  text ? text : "?");
	else
		lego_fail(ctx, LEGO_ERR, "GenP %s: %s in %s", g->name,
			  layout_undefined_why(bad), text ? text : "?");
	free(text);
	return LEGO_ERR;
}

static lego_expr *genp_apply(lego_ctx *ctx, const lego_layout *p,
			     lego_expr *const *idx)
{
	const layout_genp *g = p->genp;
	if (!g->fn.apply) {
		lego_expr *e = lego_expr_subst(ctx, g->apply_e, p->rank,
					       g->params, idx);
		return genp_defined(ctx, g, e, g->where_apply) == LEGO_OK
			       ? e
			       : NULL;
	}
	if (!g->fn.apply_sym)
		return lego_fail_null(ctx, "GenP %s has no symbolic apply "
					   "(apply_sym)", g->name);
	return g->fn.apply_sym(ctx, g->fn.user, p->rank, p->dims, idx);
}

static int genp_inv(lego_ctx *ctx, const lego_layout *p, lego_expr *flat,
		    lego_expr **idx)
{
	const layout_genp *g = p->genp;
	if (g->fn.inv) {
		if (!g->fn.inv_sym)
			return lego_fail(ctx, LEGO_ERR,
					 "GenP %s has no symbolic inverse "
					 "(inv_sym)", g->name);
		return g->fn.inv_sym(ctx, g->fn.user, p->rank, p->dims, flat,
				     idx);
	}
	for (size_t k = 0; k < p->rank; k++) {
		idx[k] = lego_expr_subst(ctx, g->inv_e[k], 1, &g->flat, &flat);
		if (genp_defined(ctx, g, idx[k], g->where_inv) != LEGO_OK)
			return LEGO_ERR;
	}
	return LEGO_OK;
}

/* OrderBy: f = Pk.apply(slot k) + f * prod(Pk.dims), k = 1..q. */
static lego_expr *orderby_apply(lego_ctx *ctx, const lego_layout *o,
				lego_expr *const *idx)
{
	lego_expr *f = lego_const(ctx, 0);
	for (size_t k = 0; k < o->nlevels && f; k++) {
		const lego_layout *p = o->levels[k];
		lego_expr *a = p->kind == LAYOUT_REGP ? regp_apply(ctx, p, idx)
						      : genp_apply(ctx, p, idx);
		f = lego_add(ctx, a,
			     lego_mul(ctx, f, lego_layout_size(ctx, p)));
		idx += p->rank;
	}
	return f;
}

/* OrderBy: for k = q..1: p = prod(Pk.dims); ik = Pk.inv(f % p); f = f/p. */
static int orderby_inv(lego_ctx *ctx, const lego_layout *o, lego_expr *flat,
		       lego_expr **idx)
{
	size_t off = o->rank;
	for (size_t k = o->nlevels; k-- > 0;) {
		const lego_layout *p = o->levels[k];
		lego_expr *size = lego_layout_size(ctx, p);
		lego_expr *r = lego_mod(ctx, flat, size);
		if (!r)
			return LEGO_ERR;
		off -= p->rank;
		int rc = p->kind == LAYOUT_REGP
				 ? regp_inv(ctx, p, r, idx + off)
				 : genp_inv(ctx, p, r, idx + off);
		if (rc != LEGO_OK)
			return rc;
		flat = lego_div(ctx, flat, size);
	}
	return LEGO_OK;
}

static lego_expr *piece_apply(lego_ctx *ctx, const lego_layout *l,
			      lego_expr *const *idx)
{
	switch (l->kind) {
	case LAYOUT_REGP: return regp_apply(ctx, l, idx);
	case LAYOUT_GENP: return genp_apply(ctx, l, idx);
	default: return orderby_apply(ctx, l, idx);
	}
}

static int piece_inv(lego_ctx *ctx, const lego_layout *l, lego_expr *flat,
		     lego_expr **idx)
{
	switch (l->kind) {
	case LAYOUT_REGP: return regp_inv(ctx, l, flat, idx);
	case LAYOUT_GENP: return genp_inv(ctx, l, flat, idx);
	default: return orderby_inv(ctx, l, flat, idx);
	}
}

/* GroupBy: f = B_n(i); for O in reverse chain: f = O.apply(B_O^-1(f)). */
static lego_expr *groupby_apply(lego_ctx *ctx, const lego_layout *g,
				lego_expr *const *idx)
{
	lego_expr *f = layout_flatten_expr(ctx, g->rank, g->dims, idx);
	for (size_t k = g->nchain; k-- > 0 && f;) {
		const lego_layout *o = g->chain[k];
		lego_expr **oi = expr_array(ctx, o->rank);
		if (!oi || layout_unflatten_expr(ctx, o->rank, o->dims, f, oi))
			return NULL;
		f = orderby_apply(ctx, o, oi);
	}
	return f;
}

/* GroupBy: for O in chain: f = B_O(O.inv(f)); return B_n^-1(f). */
static int groupby_inv(lego_ctx *ctx, const lego_layout *g, lego_expr *flat,
		       lego_expr **idx)
{
	for (size_t k = 0; k < g->nchain; k++) {
		const lego_layout *o = g->chain[k];
		lego_expr **oi = expr_array(ctx, o->rank);
		if (!oi || orderby_inv(ctx, o, flat, oi) != LEGO_OK)
			return LEGO_ERR;
		if (!(flat = layout_flatten_expr(ctx, o->rank, o->dims, oi)))
			return LEGO_ERR;
	}
	return layout_unflatten_expr(ctx, g->rank, g->dims, flat, idx);
}

lego_expr *lego_layout_apply(lego_ctx *ctx, const lego_layout *l,
			     lego_expr *const *idx)
{
	if (!ctx || !l || !idx)
		return lego_fail_null(ctx, "apply: no layout or index");
	for (size_t k = 0; k < l->rank; k++)
		if (!idx[k])
			return lego_fail_null(ctx, "apply: index %zu is "
						   "missing", k + 1);
	if (l->real)
		return layout_padded_apply(ctx, l, idx);
	return l->kind == LAYOUT_GROUPBY ? groupby_apply(ctx, l, idx)
					 : piece_apply(ctx, l, idx);
}

int lego_layout_inv(lego_ctx *ctx, const lego_layout *l, lego_expr *flat,
		    lego_expr **idx)
{
	if (!ctx || !l || !flat || !idx)
		return lego_fail(ctx, LEGO_ERR, "inv: no layout or index");
	if (l->real)
		return layout_padded_inv(ctx, l, flat, idx);
	return l->kind == LAYOUT_GROUPBY ? groupby_inv(ctx, l, flat, idx)
					 : piece_inv(ctx, l, flat, idx);
}
