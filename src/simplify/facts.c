/* facts.c - assumptions: divisibility, equations, inequalities. */
#include <stdlib.h>

#include "simplify/facts.h"
#include "simplify/ruletab.h"

int lego_facts_init(lego_ctx *ctx)
{
	ctx->facts = calloc(1, sizeof *ctx->facts);
	if (!ctx->facts)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	ctx->facts->rules_off = rule_default_off();
	return LEGO_OK;
}

static void free_caches(struct lego_facts *f, void (*fn)(lego_cache *))
{
	for (int m = 0; m < LEGO_NMODES; m++)
		for (int d = 0; d < 2; d++)
			fn(&f->bound[m][d]);
	fn(&f->poly);
	fn(&f->base_lo);
	fn(&f->proof);
	fn(&f->simp);
	fn(&f->has_index);
	fn(&f->ops);
}

void lego_facts_free(lego_ctx *ctx)
{
	struct lego_facts *f = ctx->facts;
	if (!f)
		return;
	free_caches(f, lego_cache_free);
	free(f->subst);
	free(f->nonneg);
	free(f->pending);
	free(f->scratch);
	free(f);
	ctx->facts = NULL;
}

void lego_facts_invalidate(lego_ctx *ctx)
{
	free_caches(ctx->facts, lego_cache_clear);
}

static const lego_subst *subst_of(const struct lego_facts *f,
				  const lego_expr *sym)
{
	for (size_t i = 0; i < f->nsubst; i++)
		if (f->subst[i].sym == sym)
			return &f->subst[i];
	return NULL;
}

const lego_subst *lego_facts_quotient(lego_ctx *ctx, const lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	if (e->kind != LEGO_DIV)
		return NULL;
	for (size_t i = 0; i < f->nsubst; i++)
		if (f->subst[i].q == e)
			return &f->subst[i];
	return NULL;
}

/* A fact d | n kept pending (n was no variable of the analysis form when
 * it came, or an earlier fact had already substituted n: two divisors of
 * N, BN | N and NB | N): n/d is still an exact quotient. */
int lego_facts_pending_quotient(lego_ctx *ctx, const lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	if (e->kind != LEGO_DIV && e->kind != LEGO_MOD)
		return 0;
	for (size_t i = 0; i < f->npending; i++)
		if (e->args[0] == f->pending[2 * i + 1] &&
		    e->args[1] == f->pending[2 * i])
			return 1;
	return 0;
}

int lego_facts_is_quotient(lego_ctx *ctx, const lego_expr *e)
{
	return e->kind == LEGO_DIV && (lego_facts_quotient(ctx, e) ||
				       lego_facts_pending_quotient(ctx, e));
}

/* Can sym be replaced by value in the analysis form?  A variable of that
 * form -- a plain symbol, or the quotient n/d of a fact d | n (so that
 * GM | M/BM nests under BM | M) -- not yet replaced, value free of index
 * variables and (after the existing substitutions) of sym itself. */
static int can_replace(lego_ctx *ctx, lego_expr *sym, lego_expr *value)
{
	int var = sym->kind == LEGO_SYM ? !sym->sym->is_index
					: lego_facts_quotient(ctx, sym) != NULL;
	if (!var || subst_of(ctx->facts, sym) || lego_has_index(ctx, value))
		return 0;
	lego_expr *p = lego_poly(ctx, value);
	return p && !lego_expr_mentions(p, &sym, 1) &&
	       !lego_expr_mentions(value, &sym, 1);
}

static int retry_pending(lego_ctx *ctx);

static int add_subst(lego_ctx *ctx, lego_expr *sym, lego_expr *value,
		     lego_expr *q)
{
	struct lego_facts *f = ctx->facts;
	if (f->nsubst == f->subst_cap) {
		size_t cap = f->subst_cap ? 2 * f->subst_cap : 8;
		lego_subst *s = realloc(f->subst, cap * sizeof *s);
		if (!s)
			return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
		f->subst = s;
		f->subst_cap = cap;
	}
	f->subst[f->nsubst++] = (lego_subst){sym, value, q};
	lego_facts_invalidate(ctx);
	return retry_pending(ctx);
}

static int add_nonneg(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	if (!e)
		return LEGO_ERR;
	for (size_t i = 0; i < f->nnonneg; i++)
		if (f->nonneg[i] == e)
			return LEGO_OK; /* known already */
	if (f->nnonneg == f->nonneg_cap) {
		size_t cap = f->nonneg_cap ? 2 * f->nonneg_cap : 8;
		lego_expr **a = realloc(f->nonneg, cap * sizeof *a);
		if (!a)
			return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
		f->nonneg = a;
		f->nonneg_cap = cap;
	}
	f->nonneg[f->nnonneg++] = e;
	lego_facts_invalidate(ctx);
	return LEGO_OK;
}

static int add_pending(lego_ctx *ctx, lego_expr *d, lego_expr *n)
{
	struct lego_facts *f = ctx->facts;
	for (size_t i = 0; i < f->npending; i++)
		if (f->pending[2 * i] == d && f->pending[2 * i + 1] == n)
			return LEGO_OK;
	if (f->npending == f->pending_cap) {
		size_t cap = f->pending_cap ? 2 * f->pending_cap : 4;
		lego_expr **a = realloc(f->pending, 2 * cap * sizeof *a);
		if (!a)
			return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
		f->pending = a;
		f->pending_cap = cap;
	}
	f->pending[2 * f->npending] = d;
	f->pending[2 * f->npending + 1] = n;
	f->npending++;
	return LEGO_OK;
}

/* Can d | n be the substitution n -> d*(n/d)?  When n is a variable of
 * the analysis form and d a monomial free of it. */
static int divides_as_subst(lego_ctx *ctx, lego_expr *d, lego_expr *n)
{
	lego_expr *pd = lego_poly(ctx, d);
	lego_term t;
	return pd && lego_poly_monomial(&pd, &t) && can_replace(ctx, n, d);
}

static int add_divides_subst(lego_ctx *ctx, lego_expr *d, lego_expr *n)
{
	lego_expr *q = lego_div(ctx, n, d);
	lego_expr *value = lego_mul(ctx, d, q);
	return q && value ? add_subst(ctx, n, value, q) : LEGO_ERR;
}

static int64_t gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * d | n where n -> d0*q already (q = n/d0): facts combine whatever their
 * order.  Implied when d divides d0 (16 | N says 8 | N, and every tile
 * count M/BM says BM | M again); for constants the rest is
 * (lcm(d0, d)/d0) | q, nested as GM | M/BM is, so that 8 | N then 16 | N
 * knows what 16 | N alone knows.  Otherwise kept as a pending fact.
 */
static int divides_known(lego_ctx *ctx, lego_expr *d, lego_expr *q)
{
	lego_expr *d0 = q->args[1], *pq, *pr;
	int64_t a, b, r;
	if (lego_poly_split(ctx, lego_poly(ctx, d0), lego_poly(ctx, d), &pq,
			    &pr) &&
	    lego_expr_is_const(pr, &r) && r == 0)
		return LEGO_OK;
	if (lego_expr_is_const(d0, &a) && lego_expr_is_const(d, &b))
		return lego_assume_divides(ctx, lego_const(ctx, b / gcd(a, b)),
					   q);
	int rc = add_pending(ctx, d, q->args[0]);
	return rc ? rc : add_nonneg(ctx, lego_sub(ctx, q->args[0], d));
}

static int retry_pending(lego_ctx *ctx)
{
	struct lego_facts *f = ctx->facts;
	for (size_t i = 0; i < f->npending; i++) {
		lego_expr *d = f->pending[2 * i], *n = f->pending[2 * i + 1];
		if (subst_of(f, n) || !divides_as_subst(ctx, d, n))
			continue;
		/* Removed first: add_subst retries the others. */
		f->npending--;
		f->pending[2 * i] = f->pending[2 * f->npending];
		f->pending[2 * i + 1] = f->pending[2 * f->npending + 1];
		return add_divides_subst(ctx, d, n);
	}
	return LEGO_OK;
}

int lego_ctx_use_smt(lego_ctx *ctx, int on)
{
	if (!ctx)
		return LEGO_ERR;
	if (on && !lego_smt_available())
		return lego_fail(ctx, LEGO_ERR, "Z3 is not available (left "
				 "out of the build, or libz3 not installed): "
				 "only the built-in range reasoning proves");
	ctx->facts->use_smt = on != 0;
	lego_facts_invalidate(ctx); /* answers cached without it */
	return LEGO_OK;
}

int lego_assume_divides(lego_ctx *ctx, lego_expr *d, lego_expr *n)
{
	if (!ctx || !d || !n)
		return lego_fail(ctx, LEGO_ERR, "lego_assume_divides: NULL");
	int64_t v;
	if (lego_expr_is_const(d, &v) && v <= 0)
		return lego_fail(ctx, LEGO_ERR,
				 "lego_assume_divides: divisor %lld is not "
				 "positive", (long long)v);
	if (lego_expr_is_const(d, &v) && v == 1)
		return LEGO_OK;
	const lego_subst *known = subst_of(ctx->facts, n);
	if (known && known->q)
		return divides_known(ctx, d, known->q);
	if (divides_as_subst(ctx, d, n))
		return add_divides_subst(ctx, d, n);
	/* Otherwise keep what it implies for positive n and d, d <= n, and
	 * try again when a later fact makes n a variable. */
	int rc = add_pending(ctx, d, n);
	return rc ? rc : add_nonneg(ctx, lego_sub(ctx, n, d));
}

static int assume_equal(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	int64_t zero;
	if (lego_expr_is_const(a, &zero) && zero == 0 && b->kind == LEGO_MOD)
		return lego_assume_divides(ctx, b->args[1], b->args[0]);
	if (lego_expr_is_const(b, &zero) && zero == 0 && a->kind == LEGO_MOD)
		return lego_assume_divides(ctx, a->args[1], a->args[0]);
	if (can_replace(ctx, a, b))
		return add_subst(ctx, a, b, NULL);
	if (can_replace(ctx, b, a))
		return add_subst(ctx, b, a, NULL);
	int rc = add_nonneg(ctx, lego_sub(ctx, a, b));
	return rc ? rc : add_nonneg(ctx, lego_sub(ctx, b, a));
}

int lego_assume(lego_ctx *ctx, lego_expr *cond)
{
	if (!ctx || !cond)
		return lego_fail(ctx, LEGO_ERR, "lego_assume: NULL");
	lego_expr *const *a = cond->args;
	switch (cond->kind) {
	case LEGO_CONST:
		if (cond->value)
			return LEGO_OK;
		return lego_fail(ctx, LEGO_ERR, "lego_assume: false");
	case LEGO_AND: {
		int rc = lego_assume(ctx, a[0]);
		return rc ? rc : lego_assume(ctx, a[1]);
	}
	case LEGO_EQ:
		return assume_equal(ctx, a[0], a[1]);
	case LEGO_LE:
		return add_nonneg(ctx, lego_sub(ctx, a[1], a[0]));
	case LEGO_LT:
		return add_nonneg(ctx, lego_add(ctx, lego_sub(ctx, a[1], a[0]),
						lego_const(ctx, -1)));
	default:
		return lego_fail(ctx, LEGO_ERR,
				 "lego_assume: unsupported condition (expected "
				 "a %% b == 0, a <= b, a < b, a == b or &&)");
	}
}
