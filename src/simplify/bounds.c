/* bounds.c - symbolic interval bounds.  An expression is bounded by an
 * analysis form over plain symbols, quotients of facts and (in opaque mode)
 * atoms free of index variables: index variables are pushed to their
 * bounds, following the monotonicity of each operation. */
#include "simplify/facts.h"

int lego_has_index(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	const void *v;
	if (e->kind == LEGO_CONST)
		return 0;
	if (e->kind == LEGO_SYM)
		return e->sym->is_index;
	if (lego_cache_get(&f->has_index, e, &v))
		return v == &f->yes;
	int r = 0;
	for (uint32_t i = 0; i < e->nargs && !r; i++)
		r = lego_has_index(ctx, e->args[i]);
	lego_cache_put(&f->has_index, e, r ? &f->yes : &f->no);
	return r;
}

static lego_expr *plus(lego_ctx *ctx, lego_expr *p, int64_t k)
{
	return p ? lego_add(ctx, p, lego_const(ctx, k)) : NULL;
}

/* -p, distributed (the constructors keep -(x + y) as it is). */
static lego_expr *negated(lego_ctx *ctx, lego_expr *p)
{
	return lego_poly_mul(ctx, lego_const(ctx, -1), p);
}

static lego_expr *minus(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return a && b ? lego_add(ctx, a, negated(ctx, b)) : NULL;
}

static int nonneg(lego_ctx *ctx, lego_expr *p)
{
	return p && lego_poly_nonneg(ctx, p);
}

/* A variable of bounds in this mode: bounded by itself. */
static int is_var(lego_ctx *ctx, lego_expr *a, int mode)
{
	int64_t lo;
	if (a->kind == LEGO_SYM)
		return !a->sym->is_index;
	if (lego_facts_is_quotient(ctx, a))
		return 1;
	return mode == LEGO_MODE_OPAQUE && !lego_has_index(ctx, a) &&
	       lego_var_lo(ctx, a, &lo);
}

/* floor(p/d) bounded in direction dir, d a positive monomial: with
 * p = q*d + r, floor(p/d) = q + floor(r/d). */
static lego_expr *floordiv(lego_ctx *ctx, lego_expr *p, lego_expr *d, int dir)
{
	lego_expr *q, *r;
	int64_t rv, dv;
	if (!lego_poly_split(ctx, p, d, &q, &r))
		return NULL;
	if (lego_expr_is_const(r, &rv) && lego_expr_is_const(d, &dv))
		return plus(ctx, q, rv >= 0 ? rv / dv : -((-rv + dv - 1) / dv));
	if (dir == LEGO_HI) {
		if (nonneg(ctx, plus(ctx, negated(ctx, r), -1)))
			return plus(ctx, q, -1);
		if (nonneg(ctx, plus(ctx, minus(ctx, d, r), -1)))
			return q;
		return nonneg(ctx, r) ? lego_add(ctx, q, r) : NULL;
	}
	if (nonneg(ctx, r)) /* r >= d: cdiv(N, 32) = (N + 31)/32 >= 1 */
		return nonneg(ctx, minus(ctx, r, d)) ? plus(ctx, q, 1) : q;
	if (nonneg(ctx, lego_add(ctx, r, d)))
		return plus(ctx, q, -1);
	return nonneg(ctx, negated(ctx, r)) ? lego_add(ctx, q, r) : NULL;
}

static int atom_nonneg(lego_ctx *ctx, lego_expr *a, int mode);

static lego_expr *bound_div(lego_ctx *ctx, lego_expr *x, lego_expr *d,
			    int dir, int mode)
{
	lego_term m;
	lego_expr *pd = lego_poly(ctx, d);
	if (pd && lego_poly_monomial(&pd, &m) && !lego_has_index(ctx, d))
		return floordiv(ctx, lego_bound(ctx, x, dir, mode), pd, dir);
	/* A varying divisor: for x >= 0 and d >= 1, 0 <= x/d <= x/lo(d). */
	lego_expr *ld = lego_bound(ctx, d, LEGO_LO, mode);
	if (!nonneg(ctx, lego_bound(ctx, x, LEGO_LO, mode)) ||
	    !nonneg(ctx, plus(ctx, ld, -1)))
		return NULL;
	if (dir == LEGO_LO)
		return lego_const(ctx, 0);
	lego_expr *hx = lego_bound(ctx, x, LEGO_HI, mode);
	if (hx && lego_poly_monomial(&ld, &m))
		return floordiv(ctx, hx, ld, LEGO_HI);
	return hx;
}

static lego_expr *bound_mod(lego_ctx *ctx, lego_expr *x, lego_expr *d,
			    int dir, int mode)
{
	if (!nonneg(ctx, plus(ctx, lego_bound(ctx, d, LEGO_LO, mode), -1)))
		return NULL;
	if (dir == LEGO_LO)
		return lego_const(ctx, 0);
	lego_expr *hd = lego_bound(ctx, d, LEGO_HI, mode);
	if (hd)
		return plus(ctx, hd, -1);
	if (nonneg(ctx, lego_bound(ctx, x, LEGO_LO, mode)))
		return lego_bound(ctx, x, LEGO_HI, mode);
	return NULL;
}

/* The smaller (want_min) or larger of two bounds when that is decided. */
static lego_expr *pick(lego_ctx *ctx, lego_expr *a, lego_expr *b,
		       int want_min)
{
	if (!a || !b)
		return NULL;
	int a_le_b = nonneg(ctx, minus(ctx, b, a));
	if (a_le_b || nonneg(ctx, minus(ctx, a, b)))
		return a_le_b == want_min ? a : b;
	return NULL;
}

/* Bound of one of two values, unknown which (min, max, select):
 * a lower bound is the smaller of the lower bounds; for min any upper
 * bound of either will do, and symmetrically for max. */
static lego_expr *hull(lego_ctx *ctx, lego_expr *a, lego_expr *b, int dir,
		       int mode, int kind)
{
	lego_expr *ba = lego_bound(ctx, a, dir, mode);
	lego_expr *bb = lego_bound(ctx, b, dir, mode);
	if ((kind == LEGO_MIN && dir == LEGO_HI) ||
	    (kind == LEGO_MAX && dir == LEGO_LO))
		return ba ? ba : bb;
	return pick(ctx, ba, bb, dir == LEGO_LO);
}

static lego_expr *bound_choice(lego_ctx *ctx, lego_expr *e, int dir, int mode)
{
	lego_expr *a = e->args[0], *b = e->args[1];
	if (e->kind == LEGO_SELECT) {
		int c = lego_decide(ctx, a);
		if (c >= 0)
			return lego_bound(ctx, e->args[c ? 1 : 2], dir, mode);
		return hull(ctx, e->args[1], e->args[2], dir, mode,
			    dir == LEGO_LO ? LEGO_MIN : LEGO_MAX);
	}
	int a_le_b = lego_prove_le(ctx, a, b);
	if (a_le_b || lego_prove_le(ctx, b, a)) {
		int take_a = a_le_b == (e->kind == LEGO_MIN);
		return lego_bound(ctx, take_a ? a : b, dir, mode);
	}
	return hull(ctx, a, b, dir, mode, e->kind);
}

static lego_expr *bound_shift(lego_ctx *ctx, lego_expr *e, int dir, int mode)
{
	int64_t k;
	if (!lego_expr_is_const(e->args[1], &k) || k < 0 || k > 62)
		return NULL;
	lego_expr *p = lego_const(ctx, (int64_t)1 << k);
	lego_expr *bx = lego_bound(ctx, e->args[0], dir, mode);
	if (e->kind == LEGO_SHL)
		return bx ? lego_poly_mul(ctx, bx, p) : NULL;
	return bx ? floordiv(ctx, bx, p, dir) : NULL;
}

static int const_hi(lego_ctx *ctx, lego_expr *x, int mode, int64_t *v)
{
	lego_expr *h = lego_bound(ctx, x, LEGO_HI, mode);
	return h && lego_expr_is_const(h, v);
}

int lego_const_hi(lego_ctx *ctx, lego_expr *x, int64_t *v)
{
	return const_hi(ctx, x, LEGO_MODE_INTERVAL, v);
}

int64_t lego_bit_cover(int64_t v)
{
	int64_t m = 0;
	while (m < v)
		m = 2 * m + 1;
	return m;
}

/*
 * Bitwise and, or, xor.  a & b with a >= 0 lies in [0, a]: its bits are
 * some of a's.  For a, b >= 0, a | b and a ^ b lie in [0, a + b] (no carry
 * can make them larger than the sum) and within the bits covering the
 * larger of the two: [0, 2^k - 1] for a, b < 2^k.
 */
static lego_expr *bound_bits(lego_ctx *ctx, lego_expr *e, int dir, int mode)
{
	lego_expr *a = e->args[0], *b = e->args[1];
	int na = atom_nonneg(ctx, a, mode), nb = atom_nonneg(ctx, b, mode);
	int64_t ha, hb;
	if (e->kind == LEGO_BAND) {
		if (!na && !nb)
			return NULL;
		if (dir == LEGO_LO)
			return lego_const(ctx, 0);
		lego_expr *ba = na ? lego_bound(ctx, a, LEGO_HI, mode) : NULL;
		lego_expr *bb = nb ? lego_bound(ctx, b, LEGO_HI, mode) : NULL;
		lego_expr *best = pick(ctx, ba, bb, 1);
		return best ? best : ba ? ba : bb;
	}
	if (!na || !nb)
		return NULL;
	if (dir == LEGO_LO)
		return lego_const(ctx, 0);
	if (const_hi(ctx, a, mode, &ha) && const_hi(ctx, b, mode, &hb))
		return lego_const(ctx, lego_bit_cover(ha > hb ? ha : hb));
	return lego_bound(ctx, lego_add(ctx, a, b), LEGO_HI, mode);
}

static lego_expr *bound_atom(lego_ctx *ctx, lego_expr *a, int dir, int mode)
{
	if (is_var(ctx, a, mode))
		return a;
	switch (a->kind) {
	case LEGO_SYM:
		if (dir == LEGO_LO)
			return lego_bound(ctx, a->sym->lo, LEGO_LO, mode);
		return a->sym->hi ? plus(ctx, lego_bound(ctx, a->sym->hi,
							 LEGO_HI, mode), -1)
				  : NULL;
	case LEGO_DIV:
		return bound_div(ctx, a->args[0], a->args[1], dir, mode);
	case LEGO_MOD:
		return bound_mod(ctx, a->args[0], a->args[1], dir, mode);
	case LEGO_MIN: case LEGO_MAX: case LEGO_SELECT:
		return bound_choice(ctx, a, dir, mode);
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
	case LEGO_AND: case LEGO_OR: case LEGO_NOT:
		return lego_const(ctx, dir == LEGO_HI);
	case LEGO_ISQRT: /* 0 <= isqrt(x) <= x */
		return dir == LEGO_LO ? lego_const(ctx, 0)
				      : lego_bound(ctx, a->args[0], dir, mode);
	case LEGO_BAND: case LEGO_BOR: case LEGO_BXOR:
		return bound_bits(ctx, a, dir, mode);
	case LEGO_SHL: case LEGO_SHR:
		return bound_shift(ctx, a, dir, mode);
	default:
		return NULL;
	}
}

static int atom_nonneg(lego_ctx *ctx, lego_expr *a, int mode)
{
	int64_t lo;
	if (is_var(ctx, a, mode) && lego_var_lo(ctx, a, &lo))
		return lo >= 0;
	return nonneg(ctx, lego_bound(ctx, a, LEGO_LO, mode));
}

/* An upper bound of R * floor(x / D) (the atoms of t, coefficient aside)
 * when R divides D = R * E with R, E >= 1: floor(x / (R*E)) is
 * floor(floor(x/E) / R), and R * floor(y / R) <= y, so the product is at
 * most floor(x / E).  Bounds GM * (pid // (GM * npn)) by pid // npn, where
 * the factor-by-factor bound only gives GM times a bound of the quotient. */
static lego_expr *bound_scaled_quotient(lego_ctx *ctx, const lego_term *t,
					int mode)
{
	lego_expr *rest[LEGO_MONO_MAX];
	if (t->n > LEGO_MONO_MAX)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		lego_expr *q = t->atoms[i], *pd, *e, *r;
		lego_term tr = {1, 0, rest}, td;
		if (q->kind != LEGO_DIV)
			continue;
		for (size_t j = 0; j < t->n; j++)
			if (j != i)
				rest[tr.n++] = t->atoms[j];
		pd = lego_poly(ctx, q->args[1]);
		if (!pd || !lego_poly_monomial(&pd, &td) ||
		    !(e = lego_term_div(ctx, &td, &tr)) ||
		    !(r = lego_term_node(ctx, &tr)))
			continue;
		if (nonneg(ctx, plus(ctx, lego_bound(ctx, r, LEGO_LO, mode), -1)) &&
		    nonneg(ctx, plus(ctx, lego_bound(ctx, e, LEGO_LO, mode), -1)))
			return lego_bound(ctx, lego_div(ctx, q->args[0], e),
					  LEGO_HI, mode);
	}
	return NULL;
}

/* P * x with P the product of the atoms of t but one, every one of them
 * a nonnegative variable of the mode (bounded by itself), and x the other
 * atom, of any sign: P >= 0, so P * x lies between P * lo(x) and
 * P * hi(x) (N * di >= -2 * N for di >= -2).  NULL otherwise. */
static lego_expr *bound_one_signed(lego_ctx *ctx, const lego_term *t,
				   int dir, int mode)
{
	lego_expr *p = lego_const(ctx, 1), *x = NULL;
	int64_t lo;
	for (size_t i = 0; i < t->n && p; i++) {
		lego_expr *a = t->atoms[i];
		if (is_var(ctx, a, mode) && lego_var_lo(ctx, a, &lo) && lo >= 0)
			p = lego_poly_mul(ctx, p, a);
		else if (!x)
			x = a;
		else
			return NULL;
	}
	return p && x ? lego_poly_mul(ctx, p, lego_bound(ctx, x, dir, mode))
		      : NULL;
}

/* coef * atoms: a product is bounded factor by factor when every factor
 * is nonnegative, or when all but one are nonnegative variables. */
static lego_expr *bound_term(lego_ctx *ctx, const lego_term *t, int dir,
			     int mode)
{
	int d = t->coef > 0 ? dir : !dir;
	lego_expr *b;
	if (t->n == 1) {
		b = lego_bound(ctx, t->atoms[0], d, mode);
	} else {
		b = lego_const(ctx, 1);
		for (size_t i = 0; i < t->n && b; i++)
			b = atom_nonneg(ctx, t->atoms[i], mode)
				    ? lego_poly_mul(ctx, b,
						    lego_bound(ctx, t->atoms[i],
							       d, mode))
				    : NULL;
		if (!b)
			b = bound_one_signed(ctx, t, d, mode);
		lego_expr *s = d == LEGO_HI ? bound_scaled_quotient(ctx, t, mode)
					    : NULL;
		lego_expr *best = pick(ctx, b, s, 1);
		b = best ? best : b ? b : s;
	}
	return b ? lego_poly_mul(ctx, lego_const(ctx, t->coef), b) : NULL;
}

static lego_expr *compute(lego_ctx *ctx, lego_expr *e, int dir, int mode)
{
	lego_term t[LEGO_POLY_MAX_TERMS];
	lego_expr *parts[LEGO_POLY_MAX_TERMS];
	lego_expr *p = lego_poly(ctx, e);
	size_t n = p ? lego_poly_terms(&p, t, LEGO_POLY_MAX_TERMS) : SIZE_MAX;
	if (n == SIZE_MAX)
		return NULL;
	if (n == 1 && t[0].n == 1 && t[0].coef == 1)
		return bound_atom(ctx, t[0].atoms[0], dir, mode);
	for (size_t i = 0; i < n; i++) {
		parts[i] = t[i].n ? bound_term(ctx, &t[i], dir, mode)
				  : lego_const(ctx, t[i].coef);
		if (!parts[i])
			return NULL;
	}
	lego_expr *s = lego_expr_build(ctx, LEGO_ADD, n, parts);
	if (s && s->kind == LEGO_ADD && s->nargs > LEGO_POLY_MAX_TERMS)
		return NULL;
	return s;
}

lego_expr *lego_bound(lego_ctx *ctx, lego_expr *e, int dir, int mode)
{
	lego_cache *c = &ctx->facts->bound[mode][dir];
	const void *v;
	if (!e)
		return NULL;
	if (e->kind == LEGO_CONST)
		return e;
	if (lego_cache_get(c, e, &v))
		return (lego_expr *)v;
	/* Marks e as unbounded while it is computed: a cycle finds nothing. */
	lego_cache_put(c, e, NULL);
	lego_expr *b = compute(ctx, e, dir, mode);
	lego_cache_put(c, e, b);
	return b;
}
