/* poly.c - the analysis form: expressions as sums of monomials over atoms,
 * with the facts' substitutions applied. */
#include "simplify/facts.h"

enum { MAX_PRODUCTS = 4 * LEGO_POLY_MAX_TERMS };

size_t lego_poly_terms(lego_expr *const *pp, lego_term *out, size_t cap)
{
	lego_expr *p = *pp;
	size_t n = p->kind == LEGO_ADD ? p->nargs : 1;
	lego_expr *const *slots = p->kind == LEGO_ADD ? p->args : pp;
	if (n > cap)
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		lego_expr *t = slots[i];
		if (t->kind == LEGO_CONST) {
			out[i] = (lego_term){t->value, 0, NULL};
		} else if (t->kind != LEGO_MUL) {
			out[i] = (lego_term){1, 1, &slots[i]};
		} else {
			int c = t->args[0]->kind == LEGO_CONST;
			out[i] = (lego_term){c ? t->args[0]->value : 1,
					     t->nargs - c, t->args + c};
		}
		/* An unfolded constant factor (overflow) is not a monomial. */
		for (size_t j = 0; j < out[i].n; j++)
			if (out[i].atoms[j]->kind == LEGO_CONST)
				return SIZE_MAX;
	}
	return n;
}

int lego_poly_monomial(lego_expr *const *pp, lego_term *out)
{
	return lego_poly_terms(pp, out, 1) == 1 && out->coef > 0;
}

lego_expr *lego_term_node(lego_ctx *ctx, const lego_term *t)
{
	lego_expr *args[LEGO_MONO_MAX + 1];
	if (t->n > LEGO_MONO_MAX)
		return NULL;
	args[0] = lego_const(ctx, t->coef);
	for (size_t i = 0; i < t->n; i++)
		args[i + 1] = t->atoms[i];
	return lego_expr_build(ctx, LEGO_MUL, t->n + 1, args);
}

lego_expr *lego_term_div(lego_ctx *ctx, const lego_term *t,
			 const lego_term *d)
{
	if (d->coef <= 0 || t->coef % d->coef || d->n > t->n ||
	    t->n > LEGO_MONO_MAX)
		return NULL;
	char used[LEGO_MONO_MAX] = {0};
	for (size_t i = 0; i < d->n; i++) {
		size_t j = 0;
		while (j < t->n && (used[j] || t->atoms[j] != d->atoms[i]))
			j++;
		if (j == t->n)
			return NULL;
		used[j] = 1;
	}
	lego_expr *rest[LEGO_MONO_MAX];
	lego_term q = {t->coef / d->coef, 0, rest};
	for (size_t j = 0; j < t->n; j++)
		if (!used[j])
			rest[q.n++] = t->atoms[j];
	return lego_term_node(ctx, &q);
}

static lego_expr *checked_sum(lego_ctx *ctx, size_t n, lego_expr *const *a)
{
	lego_expr *s = lego_expr_build(ctx, LEGO_ADD, n, a);
	if (s && s->kind == LEGO_ADD && s->nargs > LEGO_POLY_MAX_TERMS)
		return NULL;
	return s;
}

/* The product term t with d * (n/d) replaced by n for each pending fact
 * d | n: BM * (4096/BM) -> 4096, and NB * (N/NB) -> N where BN | N had
 * already made N BN * (N/BN). */
static lego_expr *cancel_quotients(lego_ctx *ctx, lego_expr *t)
{
	struct lego_facts *f = ctx->facts;
	for (size_t i = 0; t && i < f->npending; i++) {
		lego_expr *d = f->pending[2 * i], *n = f->pending[2 * i + 1];
		lego_expr *dq = lego_mul(ctx, d, lego_div(ctx, n, d));
		lego_term tt, tdq;
		if (!dq || !lego_poly_monomial(&dq, &tdq) ||
		    lego_poly_terms(&t, &tt, 1) != 1)
			continue;
		lego_expr *rest = lego_term_div(ctx, &tt, &tdq);
		if (rest)
			return cancel_quotients(
				ctx, lego_poly_mul(ctx, rest, lego_poly(ctx, n)));
	}
	return t;
}

lego_expr *lego_poly_mul(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_term ta[LEGO_POLY_MAX_TERMS], tb[LEGO_POLY_MAX_TERMS];
	if (!a || !b)
		return NULL;
	size_t na = lego_poly_terms(&a, ta, LEGO_POLY_MAX_TERMS);
	size_t nb = lego_poly_terms(&b, tb, LEGO_POLY_MAX_TERMS);
	if (na == SIZE_MAX || nb == SIZE_MAX || na * nb > MAX_PRODUCTS)
		return NULL;
	lego_expr *prod[MAX_PRODUCTS];
	lego_expr *const *sa = a->kind == LEGO_ADD ? a->args : &a;
	lego_expr *const *sb = b->kind == LEGO_ADD ? b->args : &b;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (!(prod[i * nb + j] = cancel_quotients(
				      ctx, lego_mul(ctx, sa[i], sb[j]))))
				return NULL;
	return checked_sum(ctx, na * nb, prod);
}

int lego_poly_split(lego_ctx *ctx, lego_expr *p, lego_expr *d,
		    lego_expr **q, lego_expr **r)
{
	lego_term tp[LEGO_POLY_MAX_TERMS], td;
	if (!p || !d || !lego_poly_monomial(&d, &td))
		return 0;
	size_t n = lego_poly_terms(&p, tp, LEGO_POLY_MAX_TERMS);
	if (n == SIZE_MAX)
		return 0;
	lego_expr *qs[LEGO_POLY_MAX_TERMS], *rs[LEGO_POLY_MAX_TERMS];
	lego_expr *const *slots = p->kind == LEGO_ADD ? p->args : &p;
	size_t nq = 0, nr = 0;
	for (size_t i = 0; i < n; i++) {
		lego_expr *t = lego_term_div(ctx, &tp[i], &td);
		if (t)
			qs[nq++] = t;
		else
			rs[nr++] = slots[i];
	}
	*q = lego_expr_build(ctx, LEGO_ADD, nq, qs);
	*r = lego_expr_build(ctx, LEGO_ADD, nr, rs);
	return *q && *r;
}

/* x/d or x%d with d a positive monomial dividing x exactly: the quotient
 * (or 0 for %), else NULL. */
static lego_expr *exact(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *q, *r;
	lego_expr *px = lego_poly(ctx, e->args[0]);
	lego_expr *pd = lego_poly(ctx, e->args[1]);
	int64_t rv;
	if (!lego_poly_split(ctx, px, pd, &q, &r) ||
	    !lego_expr_is_const(r, &rv) || rv != 0)
		return NULL;
	return e->kind == LEGO_DIV ? q : r;
}

/* A variable of the analysis form (a symbol or a quotient of a fact) with
 * the substitution of a fact about it applied: M -> BM*(M/BM), and for
 * GM | M/BM, M/BM -> GM*((M/BM)/GM). */
static lego_expr *substituted(lego_ctx *ctx, lego_expr *v)
{
	struct lego_facts *f = ctx->facts;
	for (size_t i = 0; i < f->nsubst; i++)
		if (f->subst[i].sym == v)
			return lego_poly(ctx, f->subst[i].value);
	return v;
}

/* e (a / or a %) as the quotient n/d, or rest n%d, of a pending fact
 * d | n when its arguments have the normal forms of n and d: equal
 * arguments, equal values.  So (8*(M/8))/BM, which the certificate
 * checker builds bottom-up when 8 | M substituted M, is the atom M/BM
 * that cancel_quotients knows.  The forms of the facts' n and d are
 * taken without this matching (f->matching), which could loop through
 * facts whose divisor is itself a quotient, and are not cached. */
static lego_expr *pending_canon(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	if (lego_facts_pending_quotient(ctx, e))
		return e;
	if (f->matching)
		return NULL;
	lego_expr *pn = lego_poly(ctx, e->args[0]);
	lego_expr *pd = lego_poly(ctx, e->args[1]);
	lego_expr *r = NULL;
	if (!pn || !pd)
		return NULL;
	f->matching = 1;
	for (size_t i = 0; !r && i < f->npending; i++) {
		lego_expr *d = f->pending[2 * i], *n = f->pending[2 * i + 1];
		if (lego_poly(ctx, n) == pn && lego_poly(ctx, d) == pd)
			r = e->kind == LEGO_DIV ? lego_div(ctx, n, d)
						: lego_mod(ctx, n, d);
	}
	f->matching = 0;
	return r;
}

static lego_expr *compute(lego_ctx *ctx, lego_expr *e)
{
	switch (e->kind) {
	case LEGO_SYM:
		return substituted(ctx, e);
	case LEGO_ADD: {
		lego_expr *parts[LEGO_POLY_MAX_TERMS];
		if (e->nargs > LEGO_POLY_MAX_TERMS)
			return NULL;
		for (uint32_t i = 0; i < e->nargs; i++)
			if (!(parts[i] = lego_poly(ctx, e->args[i])))
				return NULL;
		return checked_sum(ctx, e->nargs, parts);
	}
	case LEGO_MUL: {
		lego_expr *acc = lego_poly(ctx, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && acc; i++)
			acc = lego_poly_mul(ctx, acc,
					    lego_poly(ctx, e->args[i]));
		return acc;
	}
	case LEGO_DIV:
		if (lego_facts_quotient(ctx, e))
			return substituted(ctx, e);
		/* fallthrough */
	case LEGO_MOD: {
		lego_expr *q = exact(ctx, e);
		if (q || !(q = pending_canon(ctx, e)))
			return q ? q : e;
		return e->kind == LEGO_MOD ? lego_const(ctx, 0) : q;
	}
	default:
		return e;
	}
}

lego_expr *lego_poly(lego_ctx *ctx, lego_expr *e)
{
	const void *v;
	if (!e)
		return NULL;
	if (e->kind == LEGO_CONST)
		return e;
	if (lego_cache_get(&ctx->facts->poly, e, &v))
		return (lego_expr *)v;
	lego_expr *p = compute(ctx, e);
	if (!ctx->facts->matching)
		lego_cache_put(&ctx->facts->poly, e, p);
	return p;
}
