/* split.c - a numerator written x = q*d + r for the division rules: the
 * choice of q (any q is exact: x/d = q + r/d and x%d = r%d) that lets the
 * remainder vanish or reduce. */
#include "simplify/facts.h"
#include "simplify/simplify.h"

/* Terms of the remainder whose coefficient is split between quotient and
 * remainder (two ways each: 2^MAX_COEF_SPLIT candidates at most). */
enum { MAX_COEF_SPLIT = 4 };

int lego_in_range(lego_ctx *ctx, lego_expr *x, lego_expr *d)
{
	return lego_prove_nonneg(ctx, x) && lego_prove_lt(ctx, x, d);
}

/*
 * For a constant divisor d, the constant term c of the remainder r of a
 * split moved into the quotient as far as the rest of r allows: the
 * multiple d*s of d that brings the whole remainder into [0, d), when
 * its range is known and narrow enough (13 + 3*y + z over 3, z in
 * [-1, 1], is 4 + y + (1 + z)/3 = 4 + y: a dead dim of a concrete size
 * leaves such constants).  Exact whatever s is: q*d + r is unchanged.
 */
static void settle_constant(lego_ctx *ctx, lego_expr *d, lego_expr **pq,
			    lego_expr **pr)
{
	lego_term t[LEGO_POLY_MAX_TERMS];
	int64_t dv, c = 0, lo, hi, s;
	lego_expr *pp = *pr;
	size_t n = pp ? lego_poly_terms(&pp, t, LEGO_POLY_MAX_TERMS) : SIZE_MAX;
	if (!lego_expr_is_const(d, &dv) || dv <= 1 || n == SIZE_MAX)
		return;
	for (size_t i = 0; i < n; i++)
		if (!t[i].n)
			c = t[i].coef;
	lego_expr *rest = lego_add(ctx, *pr, lego_const(ctx, -c));
	lego_expr *l = lego_bound(ctx, rest, LEGO_LO, LEGO_MODE_INTERVAL);
	if (!l || !lego_expr_is_const(l, &lo) || !lego_const_hi(ctx, rest, &hi) ||
	    __builtin_add_overflow(c, lo, &s) || hi - lo >= dv)
		return;
	s = s / dv - (s % dv < 0); /* floor((c + lo) / d) */
	/* only when the whole remainder then lies in [0, d) */
	if (!s || s > INT64_MAX / dv || s < INT64_MIN / dv ||
	    c - s * dv + hi >= dv)
		return;
	lego_expr *nq = lego_add(ctx, *pq, lego_const(ctx, s));
	lego_expr *nr = lego_add(ctx, *pr, lego_const(ctx, -s * dv));
	if (nq && nr) {
		*pq = nq;
		*pr = nr;
	}
}

/* A term of the remainder that d's atoms divide but d's coefficient e
 * does not: c*m*u = (k*e)*m*u + (c - k*e)*m*u for d = e*u, with k the
 * floor or the ceiling of c/e (a leftover of either sign). */
typedef struct coef_part {
	lego_expr *mu;    /* m (the term over u, coefficient 1) */
	lego_expr *mud;   /* m * d */
	int64_t k[2];     /* floor(c/e), floor(c/e) + 1 */
} coef_part;

/* The terms of the analysis form r that a split of its coefficient could
 * move into the quotient, at most cap; their number. */
static size_t coef_parts(lego_ctx *ctx, lego_expr *r, lego_expr *d,
			 coef_part *out, size_t cap)
{
	lego_term t[LEGO_POLY_MAX_TERMS], td;
	lego_expr *pd = lego_poly(ctx, d);
	size_t n = lego_poly_terms(&r, t, LEGO_POLY_MAX_TERMS), np = 0;
	if (!pd || !lego_poly_monomial(&pd, &td) || td.coef <= 1 ||
	    n == SIZE_MAX)
		return 0;
	for (size_t i = 0; i < n && np < cap; i++) {
		lego_term u = t[i];
		int64_t c = t[i].coef, e = td.coef, k = c / e - (c % e < 0);
		u.coef = e;
		lego_expr *mu = t[i].n ? lego_term_div(ctx, &u, &td) : NULL;
		lego_expr *mud = mu ? lego_mul(ctx, mu, d) : NULL;
		if (mud && k < INT64_MAX / e && k > INT64_MIN / e)
			out[np++] = (coef_part){mu, mud, {k, k + 1}};
	}
	return np;
}

/* q and r with the parts cp[i] moved into q by their choice bit i of
 * pick (floor or ceiling), for a constant d the constant settled; 0 on
 * overflow. */
static int moved(lego_ctx *ctx, const coef_part *cp, size_t n, unsigned pick,
		 lego_expr *d, lego_expr **pq, lego_expr **pr)
{
	lego_expr *q = *pq, *r = *pr;
	for (size_t i = 0; q && r && i < n; i++) {
		lego_expr *k = lego_const(ctx, cp[i].k[(pick >> i) & 1]);
		q = lego_poly(ctx, lego_add(ctx, q, lego_mul(ctx, k, cp[i].mu)));
		r = lego_poly(ctx, lego_sub(ctx, r, lego_mul(ctx, k, cp[i].mud)));
	}
	if (!q || !r)
		return 0;
	settle_constant(ctx, d, &q, &r);
	*pq = q;
	*pr = r;
	return 1;
}

/*
 * q and r with the coefficients of the remainder's terms split so that
 * the remainder lies in [0, d): 65*k over 64, k < 64, is k + k/64 = k;
 * 63*x + 63 over 64, x < 64, is x + (63 - x)/64 = x.  Each term takes
 * the floor or the ceiling of its coefficient over d's (a leftover of
 * either sign), the first choice of them that is proved in range wins;
 * q and r are unchanged when r already lay in [0, d) or none is.  (Not
 * otherwise: (7*x) % 5 as (2*x) % 5 is cheaper alone, but no longer
 * shares 7*x with (7*x) / 5.)
 */
static void split_coefs(lego_ctx *ctx, lego_expr *d, lego_expr **pq,
			lego_expr **pr)
{
	coef_part cp[MAX_COEF_SPLIT];
	size_t n = coef_parts(ctx, *pr, d, cp, MAX_COEF_SPLIT);
	if (!n || lego_in_range(ctx, *pr, d))
		return;
	for (unsigned pick = 0; pick < 1u << n; pick++) {
		lego_expr *q = *pq, *r = *pr;
		if (moved(ctx, cp, n, pick, d, &q, &r) && lego_in_range(ctx, r, d)) {
			*pq = q;
			*pr = r;
			return;
		}
	}
}

int lego_quotient_split(lego_ctx *ctx, lego_expr *x, lego_expr *d,
			lego_expr **q, lego_expr **r)
{
	lego_expr *pq, *pr;
	int64_t k;
	/* d | x a pending fact (x already a multiple of another divisor):
	 * x = d * (x/d) + 0, which no polynomial split shows */
	lego_expr *rest = lego_mod(ctx, x, d);
	if (rest && lego_facts_pending_quotient(ctx, rest)) {
		*q = lego_div(ctx, x, d);
		*r = lego_const(ctx, 0);
		return *q && *r;
	}
	if (!lego_poly_split(ctx, lego_poly(ctx, x), lego_poly(ctx, d), &pq,
			     &pr))
		return 0;
	settle_constant(ctx, d, &pq, &pr);
	/* the whole terms d divides, unless that leaves a remainder out of
	 * [0, d) that splitting coefficients brings in */
	split_coefs(ctx, d, &pq, &pr);
	if (lego_expr_is_const(pq, &k) && k == 0)
		return 0;
	*q = lego_poly_rebuild(ctx, pq);
	*r = lego_poly_rebuild(ctx, pr);
	return *q && *r;
}
