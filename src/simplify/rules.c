/* rules.c - the rewrite rules of the simplifier (paper, table 1, and their
 * consequences).  Each rule is valid for every binding satisfying the
 * facts once its side condition is proved; a candidate is kept only when
 * the cost model (lego_expr_ops) does not get worse.  Each application
 * names its rule of ruletab.c (R_...), whose switch it checks, and
 * records the instance in the certificate being recorded (cert.h). */
#include "simplify/cert.h"
#include "simplify/simplify.h"

enum { MAX_RECOMBINE = 8 };

/* lego_expr_ops of e, cached (as a constant node) since candidates are
 * compared with the same nodes again and again. */
static size_t ops(lego_ctx *ctx, lego_expr *e)
{
	const void *v;
	if (lego_cache_get(&ctx->facts->ops, e, &v) && v)
		return (size_t)((const lego_expr *)v)->value;
	size_t n = lego_expr_ops(&e, 1);
	lego_cache_put(&ctx->facts->ops, e, lego_const(ctx, (int64_t)n));
	return n;
}

/* cand, an instance of rule r at e with bind[] the rule's variables,
 * recorded; returned for the caller. */
static lego_expr *by_rule(lego_ctx *ctx, rule_id r, lego_expr *e,
			  lego_expr *cand, size_t n, lego_expr *const *bind)
{
	cert_rule(ctx, r, e, cand, NULL, bind, n);
	return cand;
}

#define RULE(ctx, r, e, cand, ...)                                          \
	by_rule(ctx, r, e, cand,                                             \
		sizeof((lego_expr *[]){__VA_ARGS__}) / sizeof(lego_expr *),  \
		(lego_expr *[]){__VA_ARGS__})

/* Ties of prefer(): kept, taken, or taken when the candidate has no
 * bit operation, division or modulo left. */
enum { TIE_KEEP, TIE_TAKE, TIE_IF_ARITH };

/* Is e made of sums and products only? */
static int arith_only(const lego_expr *e)
{
	if (e->kind != LEGO_ADD && e->kind != LEGO_MUL && e->nargs)
		return 0;
	for (uint32_t i = 0; i < e->nargs; i++)
		if (!arith_only(e->args[i]))
			return 0;
	return 1;
}

/* The simplified candidate when it costs less than cur (or the same, as
 * tie says: rules that only ever rewrite in one direction take ties, and
 * a shift or mask that lost its operation, (23*x) >> 3 as 3*x - 1 for
 * 2 <= x < 7, is taken at equal cost), else cur. */
static lego_expr *prefer(lego_ctx *ctx, lego_expr *cur, lego_expr *cand,
			 int tie)
{
	lego_expr *s = cand ? lego_simplify(ctx, cand) : NULL;
	if (!s || s == cur)
		return cur;
	size_t cs = ops(ctx, s), cc = ops(ctx, cur);
	return cs < cc || (cs == cc && (tie == TIE_TAKE ||
					(tie == TIE_IF_ARITH && arith_only(s))))
		       ? s : cur;
}

static int positive(lego_ctx *ctx, lego_expr *d)
{
	return lego_prove_le(ctx, lego_const(ctx, 1), d);
}

/* m / d as a cheap expression when the positive monomial d divides m. */
static lego_expr *exact_quotient(lego_ctx *ctx, lego_expr *m, lego_expr *d)
{
	lego_expr *q, *r;
	int64_t rv;
	if (!lego_poly_split(ctx, lego_poly(ctx, m), lego_poly(ctx, d), &q,
			     &r) ||
	    !lego_expr_is_const(r, &rv) || rv != 0)
		return NULL;
	return lego_poly_rebuild(ctx, q);
}

/* x = y/a as q + r/a, when a divides some terms of y: a form that may
 * let an enclosing / or % simplify although it is dearer itself. */
static lego_expr *split_quotient(lego_ctx *ctx, lego_expr *x)
{
	lego_expr *q, *r;
	if (x->kind != LEGO_DIV || !rule_on(ctx, R_DIV_SPLIT) ||
	    !positive(ctx, x->args[1]) ||
	    !lego_quotient_split(ctx, x->args[0], x->args[1], &q, &r))
		return NULL;
	return lego_simplify(ctx, RULE(ctx, R_DIV_SPLIT, x,
				       lego_add(ctx, q, lego_div(ctx, r,
								 x->args[1])),
				       q, r, x->args[1]));
}

/* The binary node e with its argument i replaced by m, an equal form of
 * it: a congruence. */
static lego_expr *with_arg(lego_ctx *ctx, lego_expr *e, int i, lego_expr *m)
{
	lego_expr *args[2] = {e->args[0], e->args[1]};
	args[i] = m;
	lego_expr *r = lego_expr_build(ctx, e->kind, 2, args);
	cert_cong(ctx, e, args, 2, r);
	return r;
}

/* (d1*q + r)/(d1*d2) -> q/d2 when 0 <= r < d1, for each positive factor
 * d1 of the product d (floor division: x/(d1*d2) = (x/d1)/d2). */
static lego_expr *try_factors(lego_ctx *ctx, lego_expr *e0, lego_expr *e,
			      lego_expr *x, lego_expr *d)
{
	lego_expr *d2, *q, *r;
	if (d->kind != LEGO_MUL || !rule_on(ctx, R_DIV_FACTOR))
		return e;
	for (uint32_t k = 0; k < d->nargs; k++) {
		lego_expr *d1 = d->args[k];
		if ((k && d1 == d->args[k - 1]) || !positive(ctx, d1) ||
		    !lego_quotient_split(ctx, x, d1, &q, &r) ||
		    !lego_in_range(ctx, r, d1) ||
		    !(d2 = exact_quotient(ctx, d, d1)))
			continue;
		e = prefer(ctx, e, RULE(ctx, R_DIV_FACTOR, e0,
					lego_div(ctx, q, d2), q, r, d1, d2),
			   TIE_KEEP);
	}
	return e;
}

/* (d1*q + r)/(d1*d2) -> q/d2 when 0 <= r < d1, for a constant d = d1*d2:
 * d1 taken from the coefficients of x's terms that divide d.  With
 * concrete sizes, (z + 64*y)/512 is y/8 as N/8 * ... is symbolically. */
static lego_expr *try_const_factors(lego_ctx *ctx, lego_expr *e0,
				    lego_expr *e, lego_expr *x, int64_t d)
{
	lego_term t[LEGO_POLY_MAX_TERMS];
	lego_expr *p = lego_poly(ctx, x), *q, *r;
	size_t n = p ? lego_poly_terms(&p, t, LEGO_POLY_MAX_TERMS) : SIZE_MAX;
	if (n == SIZE_MAX || !rule_on(ctx, R_DIV_FACTOR))
		return e;
	for (size_t i = 0; i < n; i++) {
		if (t[i].coef == INT64_MIN)
			continue;
		int64_t d1 = t[i].coef < 0 ? -t[i].coef : t[i].coef;
		lego_expr *c1 = lego_const(ctx, d1);
		if (!t[i].n || d1 <= 1 || d1 >= d || d % d1 ||
		    !lego_quotient_split(ctx, x, c1, &q, &r) ||
		    !lego_in_range(ctx, r, c1))
			continue;
		lego_expr *d2 = lego_const(ctx, d / d1);
		e = prefer(ctx, e, RULE(ctx, R_DIV_FACTOR, e0,
					lego_div(ctx, q, d2), q, r, c1, d2),
			   TIE_KEEP);
	}
	return e;
}

/* (a ^ b) / 2^k and (a | b) / 2^k -> a / 2^k when 0 <= b < 2^k: b only
 * touches the low k bits, which the division drops (for any sign of a).
 * Returns a, or NULL. */
static lego_expr *low_bits_dropped(lego_ctx *ctx, lego_expr *e,
				    lego_expr *x, int64_t d)
{
	rule_id rule = x->kind == LEGO_BXOR ? R_DIV_LOW_XOR : R_DIV_LOW_OR;
	if ((x->kind != LEGO_BXOR && x->kind != LEGO_BOR) || d <= 0 || (d & (d - 1)) ||
	    !rule_on(ctx, rule))
		return NULL;
	lego_expr *k = lego_const(ctx, __builtin_ctzll((unsigned long long)d));
	for (int i = 0; i < 2; i++)
		if (lego_in_range(ctx, x->args[1 - i], lego_const(ctx, d)))
			return RULE(ctx, rule, e, lego_div(ctx, x->args[i],
							   e->args[1]),
				    x->args[i], x->args[1 - i], k);
	return NULL;
}

/*
 * x / 2^k -> x >> k and x % 2^k -> x & (2^k - 1) when x may be negative:
 * both are floor semantics (two's complement), one operation each, where
 * C's / and % need a correction for negative x.  Applied last, once no
 * other rule found a cheaper form, to a node still of that form.
 */
static lego_expr *as_bits(lego_ctx *ctx, lego_expr *e)
{
	int64_t d, k;
	if ((e->kind != LEGO_DIV && e->kind != LEGO_MOD) ||
	    !lego_expr_is_const(e->args[1], &d) || d <= 1 || (d & (d - 1)) ||
	    !rule_on(ctx, e->kind == LEGO_DIV ? R_DIV_AS_SHR : R_MOD_AS_AND) ||
	    lego_prove_nonneg(ctx, e->args[0]))
		return e;
	k = __builtin_ctzll((unsigned long long)d);
	lego_expr *kk = lego_const(ctx, k);
	if (e->kind == LEGO_DIV)
		return RULE(ctx, R_DIV_AS_SHR, e,
			    lego_binop(ctx, LEGO_SHR, e->args[0], kk),
			    e->args[0], kk);
	return RULE(ctx, R_MOD_AS_AND, e,
		    lego_binop(ctx, LEGO_BAND, lego_const(ctx, d - 1),
			       e->args[0]),
		    e->args[0], kk);
}

static lego_expr *rewrite_div(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *x = e->args[0], *d = e->args[1], *q, *r, *m, *e0 = e;
	if (!positive(ctx, d))
		return e;
	if (rule_on(ctx, R_DIV_IN_RANGE) && lego_in_range(ctx, x, d)) /* x/d -> 0 */
		return RULE(ctx, R_DIV_IN_RANGE, e, lego_const(ctx, 0), x, d);
	/* (y/a)/d -> y/(a*d) */
	if (x->kind == LEGO_DIV && rule_on(ctx, R_DIV_DIV) &&
	    positive(ctx, x->args[1]))
		e = prefer(ctx, e, RULE(ctx, R_DIV_DIV, e0,
					lego_div(ctx, x->args[0],
						 lego_mul(ctx, x->args[1], d)),
					x->args[0], x->args[1], d), TIE_TAKE);
	/* (y % (d*b)) / d -> (y/d) % b, for b > 0 (not for b < 0) */
	if (x->kind == LEGO_MOD && rule_on(ctx, R_DIV_OF_MOD) &&
	    (m = exact_quotient(ctx, x->args[1], d)) && positive(ctx, m))
		e = prefer(ctx, e, RULE(ctx, R_DIV_OF_MOD, e0,
					lego_mod(ctx, lego_div(ctx, x->args[0],
							       d), m),
					x->args[0], d, m), TIE_TAKE);
	/* (d*q + r) / d -> q + r/d */
	if (rule_on(ctx, R_DIV_SPLIT) && lego_quotient_split(ctx, x, d, &q, &r))
		e = prefer(ctx, e, RULE(ctx, R_DIV_SPLIT, e0,
					lego_add(ctx, q, lego_div(ctx, r, d)),
					q, r, d), TIE_TAKE);
	if ((m = split_quotient(ctx, x)))
		e = prefer(ctx, e, with_arg(ctx, e0, 0, m), TIE_KEEP);
	int64_t dv;
	if (lego_expr_is_const(d, &dv)) {
		e = try_const_factors(ctx, e0, e, x, dv);
		if ((m = low_bits_dropped(ctx, e0, x, dv)))
			e = prefer(ctx, e, m, TIE_TAKE);
	}
	return try_factors(ctx, e0, e, x, d);
}

static lego_expr *rewrite_mod(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *x = e->args[0], *d = e->args[1], *q, *r, *b, *e0 = e;
	if (!positive(ctx, d))
		return e;
	if (rule_on(ctx, R_MOD_IN_RANGE) && lego_in_range(ctx, x, d)) /* x%d -> x */
		return RULE(ctx, R_MOD_IN_RANGE, e, x, x, d);
	if (rule_on(ctx, R_PLANTED_WRONG) && lego_prove_nonneg(ctx, x))
		return RULE(ctx, R_PLANTED_WRONG, e, x, x, d);
	/* (y % (d*b)) % d -> y % d */
	if (x->kind == LEGO_MOD && rule_on(ctx, R_MOD_OF_MOD) &&
	    (b = exact_quotient(ctx, x->args[1], d)))
		return lego_simplify(ctx, RULE(ctx, R_MOD_OF_MOD, e,
					       lego_mod(ctx, x->args[0], d),
					       x->args[0], d, b));
	/* (d*q + r) % d -> r % d */
	if (rule_on(ctx, R_MOD_SPLIT) && lego_quotient_split(ctx, x, d, &q, &r))
		e = prefer(ctx, e, RULE(ctx, R_MOD_SPLIT, e0,
					lego_mod(ctx, r, d), q, r, d), TIE_TAKE);
	if ((q = split_quotient(ctx, x)))
		e = prefer(ctx, e, with_arg(ctx, e0, 0, q), TIE_KEEP);
	return e;
}

/* The term t with its atom j replaced by the factors of the monomial a
 * and by the node y. */
static lego_expr *swap_atom(lego_ctx *ctx, const lego_term *t, size_t j,
			    const lego_term *a, lego_expr *y)
{
	lego_expr *atoms[2 * LEGO_MONO_MAX + 1];
	lego_term s = {0, 0, atoms};
	if (t->n + a->n + 1 > 2 * LEGO_MONO_MAX + 1 ||
	    __builtin_mul_overflow(t->coef, a->coef, &s.coef))
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (i != j)
			atoms[s.n++] = t->atoms[i];
	for (size_t i = 0; i < a->n; i++)
		atoms[s.n++] = a->atoms[i];
	if (y)
		atoms[s.n++] = y;
	return lego_term_node(ctx, &s);
}

/* x >> k as x / 2^k and (2^k - 1) & x as x % 2^k (the forms as_bits()
 * gives them), so that they recombine; other nodes as they are. */
static lego_expr *as_divmod(lego_ctx *ctx, lego_expr *e)
{
	int64_t v;
	if (e->kind == LEGO_SHR && rule_on(ctx, R_SHR_AS_DIV) &&
	    lego_expr_is_const(e->args[1], &v) && v >= 0 && v <= 62)
		return lego_div(ctx, e->args[0], lego_const(ctx, (int64_t)1 << v));
	if (e->kind == LEGO_BAND && rule_on(ctx, R_AND_AS_MOD) &&
	    lego_expr_is_const(e->args[0], &v) && v > 0 && v < INT64_MAX &&
	    !((v + 1) & v))
		return lego_mod(ctx, e->args[1], lego_const(ctx, v + 1));
	return e;
}

/* The atoms of t but atom j, with coefficient 1, as a node. */
static lego_expr *other_atoms(lego_ctx *ctx, const lego_term *t, size_t j)
{
	lego_term one = {1, 0, NULL};
	lego_term u = *t;
	u.coef = 1;
	return swap_atom(ctx, &u, j, &one, NULL);
}

/*
 * The atom that x % a pairs with in a recombination, and what the pair
 * becomes, for y an atom of another term:
 *   y = x / a:         x % a + a * (x / a)       = x          (a != 0)
 *   y = (x / a) % b:   x % a + a * ((x / a) % b) = x % (a*b)  (a, b > 0)
 * NULL when y is neither; *rule and *b (NULL for the first) say which.
 */
static lego_expr *recombined(lego_ctx *ctx, lego_expr *mod, lego_expr *y,
			     rule_id *rule, lego_expr **b)
{
	lego_expr *x = mod->args[0], *a = mod->args[1];
	y = as_divmod(ctx, y);
	if (y->kind == LEGO_MOD)
		y = lego_mod(ctx, as_divmod(ctx, y->args[0]), y->args[1]);
	*b = NULL;
	*rule = R_SUM_RECOMBINE_DIV;
	if (y->kind == LEGO_DIV && y->args[0] == x && y->args[1] == a &&
	    rule_on(ctx, R_SUM_RECOMBINE_DIV))
		return x;
	*rule = R_SUM_RECOMBINE_MOD;
	if (y->kind == LEGO_MOD && rule_on(ctx, R_SUM_RECOMBINE_MOD) &&
	    y->args[0]->kind == LEGO_DIV &&
	    y->args[0]->args[0] == x && y->args[0]->args[1] == a &&
	    positive(ctx, a) && positive(ctx, y->args[1])) {
		*b = y->args[1];
		return lego_mod(ctx, x, lego_mul(ctx, a, y->args[1]));
	}
	return NULL;
}

/*
 * In the sum p, one pair c*U*(x % a) + c*a*U*y with y as above becomes
 * c*U*z (z from recombined()); the coefficients must match: with
 * different ones the pair would only be rewritten, not removed.  NULL
 * when there is no such pair.
 */
static lego_expr *recombine_once(lego_ctx *ctx, lego_expr *p)
{
	lego_term t[LEGO_POLY_MAX_TERMS], ta;
	size_t n = lego_poly_terms(&p, t, LEGO_POLY_MAX_TERMS);
	lego_expr *const *slots = p->kind == LEGO_ADD ? p->args : &p;
	if (n == SIZE_MAX)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < t[i].n; j++) {
			lego_expr *mod = as_divmod(ctx, t[i].atoms[j]), *pa;
			if (mod->kind != LEGO_MOD)
				continue;
			pa = lego_poly(ctx, mod->args[1]);
			if (!pa || !lego_poly_monomial(&pa, &ta))
				continue;
			lego_term u = t[i];
			u.coef = 1;
			/* a*U with coefficient 1: the partner's other atoms */
			lego_expr *au = swap_atom(ctx, &u, j, &ta, NULL);
			lego_term tau;
			if (!au || lego_poly_terms(&au, &tau, 1) != 1)
				continue;
			lego_term au1 = tau;
			au1.coef = 1;
			lego_expr *want = lego_term_node(ctx, &au1);
			for (size_t k = 0; k < n && want; k++)
				for (size_t h = 0; k != i && h < t[k].n; h++) {
					rule_id rule;
					lego_expr *b;
					lego_expr *z = recombined(ctx, mod,
								  t[k].atoms[h],
								  &rule, &b);
					if (!z || other_atoms(ctx, &t[k], h) != want ||
					    t[k].coef % tau.coef ||
					    t[k].coef / tau.coef != t[i].coef)
						continue;
					lego_expr *parts[LEGO_POLY_MAX_TERMS];
					size_t np = 0;
					for (size_t g = 0; g < n; g++)
						if (g != i && g != k)
							parts[np++] = slots[g];
					lego_expr *uu = other_atoms(ctx, &t[i], j);
					parts[np++] = lego_poly_mul(
						ctx, lego_mul(ctx, lego_const(
							ctx, t[i].coef), uu),
						lego_poly(ctx, z));
					if (!parts[np - 1])
						return NULL;
					lego_expr *next = lego_expr_build(
						ctx, LEGO_ADD, np, parts);
					/* p - next is c*U times the rule's
					 * lhs - rhs */
					lego_expr *bind[3] = {mod->args[0],
							      mod->args[1], b};
					cert_rule(ctx, rule, p, next,
						  lego_mul(ctx, lego_const(
							  ctx, t[i].coef), uu),
						  bind, b ? 3 : 2);
					return next;
				}
		}
	return NULL;
}

static lego_expr *rewrite_sum(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *p = lego_poly(ctx, e), *next;
	int changed = 0;
	cert_ring(ctx, e, p);
	for (int i = 0; p && i < MAX_RECOMBINE && (next = recombine_once(ctx, p));
	     i++) {
		p = next;
		changed = 1;
	}
	lego_expr *c;
	if (changed) { /* a*(x/a) + x%a -> x */
		c = lego_poly_rebuild(ctx, p);
		cert_ring(ctx, p, c);
		e = prefer(ctx, e, c, TIE_TAKE);
	}
	/* expanded and re-factored, only when strictly cheaper */
	c = lego_poly_rebuild(ctx, lego_poly(ctx, e));
	cert_ring(ctx, e, c);
	return prefer(ctx, e, c, TIE_KEEP);
}

static lego_expr *rewrite_minmax(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *a = e->args[0], *b = e->args[1];
	int want_min = e->kind == LEGO_MIN;
	if (rule_on(ctx, want_min ? R_MIN_LE : R_MAX_LE) &&
	    lego_prove_le(ctx, a, b))
		return RULE(ctx, want_min ? R_MIN_LE : R_MAX_LE, e,
			    want_min ? a : b, a, b);
	if (rule_on(ctx, want_min ? R_MIN_GE : R_MAX_GE) &&
	    lego_prove_le(ctx, b, a))
		return RULE(ctx, want_min ? R_MIN_GE : R_MAX_GE, e,
			    want_min ? b : a, a, b);
	return e;
}

/* A shift amount k in 0..62, as 2^k. */
static lego_expr *shift_factor(lego_ctx *ctx, lego_expr *k)
{
	int64_t v;
	if (!lego_expr_is_const(k, &v) || v < 0 || v > 62)
		return NULL;
	return lego_const(ctx, (int64_t)1 << v);
}

/*
 * ((y >> k) & m) << s -> (y & (m << k)) << (s - k), or >> (k - s): the
 * bit field is cut where it lies and moved once (both sides take bits
 * k.. of y, two's complement, to bits s..).  NULL when x has not that
 * form; p = 2^s.
 */
static lego_expr *moved_field(lego_ctx *ctx, lego_expr *e, lego_expr *x,
			      int64_t p)
{
	int64_t m, k, s = __builtin_ctzll((unsigned long long)p);
	if (x->kind != LEGO_BAND || !lego_expr_is_const(x->args[0], &m) ||
	    m < 0 || x->args[1]->kind != LEGO_SHR ||
	    !lego_expr_is_const(x->args[1]->args[1], &k) || k < 0 || k > 62 ||
	    m > (INT64_MAX >> k) ||
	    !rule_on(ctx, s >= k ? R_SHL_FIELD_LEFT : R_SHL_FIELD_RIGHT))
		return NULL;
	lego_expr *y = x->args[1]->args[0];
	lego_expr *field = lego_binop(ctx, LEGO_BAND, y, lego_const(ctx, m << k));
	return RULE(ctx, s >= k ? R_SHL_FIELD_LEFT : R_SHL_FIELD_RIGHT, e,
		    s >= k ? lego_binop(ctx, LEGO_SHL, field,
					lego_const(ctx, s - k))
			   : lego_binop(ctx, LEGO_SHR, field,
					lego_const(ctx, k - s)),
		    y, x->args[0], x->args[1]->args[1], lego_const(ctx, s));
}

/*
 * m & (P*q + s) -> P * ((m / P) & q) when 0 <= s < P, P = 2^p the lowest
 * set bit of m: P*q + s is (q << p) | s in two's complement, and m has no
 * bit below p.  x >> k is looked at as x / 2^k.  NULL when m & x has not
 * that form.
 */
static lego_expr *mask_high(lego_ctx *ctx, lego_expr *e, int64_t m,
			    lego_expr *x)
{
	lego_expr *p2, *q, *r, *c;
	int64_t low = m > 0 ? m & -m : 1;
	if (low == 1 || !rule_on(ctx, R_AND_HIGH))
		return NULL;
	if (x->kind == LEGO_SHR && rule_on(ctx, R_SHR_AS_DIV) &&
	    (p2 = shift_factor(ctx, x->args[1]))) {
		x = lego_simplify(ctx, RULE(ctx, R_SHR_AS_DIV, x,
					    lego_div(ctx, x->args[0], p2),
					    x->args[0], x->args[1]));
		e = x ? with_arg(ctx, e, 1, x) : NULL;
	}
	c = lego_const(ctx, low);
	if (!x || !e || !lego_quotient_split(ctx, x, c, &q, &r) ||
	    !lego_in_range(ctx, r, c))
		return NULL;
	return RULE(ctx, R_AND_HIGH, e,
		    lego_mul(ctx, c, lego_binop(ctx, LEGO_BAND,
						lego_const(ctx, m / low), q)),
		    lego_const(ctx, m), q, r,
		    lego_const(ctx, __builtin_ctzll((unsigned long long)low)));
}

/*
 * Bit operations as the arithmetic they are, so that the div/mod rules
 * apply to them (kept only when strictly cheaper):
 *   x >> k -> x / 2^k,  x << k -> x * 2^k,  x & (2^k - 1) -> x % 2^k
 * (floor division and modulo: exact for negative x too), and
 *   x & m -> x   when 0 <= x and every bit x can have is in m.
 */
static lego_expr *rewrite_bits(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *x = e->args[0], *k = e->args[1], *p, *e0 = e;
	int64_t m, h;
	switch (e->kind) {
	case LEGO_SHR:
		p = rule_on(ctx, R_SHR_AS_DIV) ? shift_factor(ctx, k) : NULL;
		return p ? prefer(ctx, e, RULE(ctx, R_SHR_AS_DIV, e,
					       lego_div(ctx, x, p), x, k),
				  TIE_IF_ARITH)
			 : e;
	case LEGO_SHL:
		p = shift_factor(ctx, k);
		if (!p)
			return e;
		if (rule_on(ctx, R_SHL_AS_MUL))
			e = prefer(ctx, e, RULE(ctx, R_SHL_AS_MUL, e,
						lego_mul(ctx, x, p), x, k),
				   TIE_KEEP);
		return prefer(ctx, e, moved_field(ctx, e0, x, p->value),
			      TIE_KEEP);
	case LEGO_BAND:
		/* constants sort first: the mask, if any, is args[0] */
		if (!lego_expr_is_const(x, &m) || m < 0)
			return e;
		if (rule_on(ctx, R_AND_COVERS) && lego_prove_nonneg(ctx, k) &&
		    lego_const_hi(ctx, k, &h) && !(lego_bit_cover(h) & ~m))
			return RULE(ctx, R_AND_COVERS, e, k, k, x,
				    lego_const(ctx, __builtin_popcountll(
							    (unsigned long long)
								    lego_bit_cover(h))));
		if (rule_on(ctx, R_AND_AS_MOD) && m < INT64_MAX && !((m + 1) & m))
			e = prefer(ctx, e, RULE(ctx, R_AND_AS_MOD, e,
						lego_mod(ctx, k, lego_const(
								ctx, m + 1)),
						k, lego_const(ctx,
							      __builtin_popcountll(
								      (unsigned long long)m))),
				   TIE_IF_ARITH);
		return prefer(ctx, e, mask_high(ctx, e0, m, k), TIE_KEEP);
	default:
		return e;
	}
}

/* An integer node whose lower and upper bounds are one constant. */
static lego_expr *fixed_value(lego_ctx *ctx, lego_expr *e)
{
	int64_t lo, hi;
	lego_expr *l = lego_bound(ctx, e, LEGO_LO, LEGO_MODE_INTERVAL);
	if (!l || !lego_expr_is_const(l, &lo) || !lego_const_hi(ctx, e, &hi) ||
	    lo != hi)
		return NULL;
	return lego_const(ctx, lo);
}

lego_expr *lego_rewrite(lego_ctx *ctx, lego_expr *e)
{
	int c;
	lego_expr *v;
	switch (e->kind) {
	case LEGO_BAND: case LEGO_BOR: case LEGO_BXOR: case LEGO_SHL:
	case LEGO_SHR:
		if ((v = fixed_value(ctx, e))) {
			cert_value(ctx, e, v);
			return v;
		}
		break;
	default:
		break;
	}
	switch (e->kind) {
	case LEGO_BAND: case LEGO_SHL: case LEGO_SHR:
		return rewrite_bits(ctx, e);
	case LEGO_DIV:
		return as_bits(ctx, rewrite_div(ctx, e));
	case LEGO_MOD:
		return as_bits(ctx, rewrite_mod(ctx, e));
	case LEGO_ADD: case LEGO_MUL:
		return rewrite_sum(ctx, e);
	case LEGO_MIN: case LEGO_MAX:
		return rewrite_minmax(ctx, e);
	case LEGO_SELECT:
		c = lego_decide(ctx, e->args[0]);
		if (c < 0 || !rule_on(ctx, c ? R_SELECT_TRUE : R_SELECT_FALSE))
			return e;
		return RULE(ctx, c ? R_SELECT_TRUE : R_SELECT_FALSE, e,
			    e->args[c ? 1 : 2], e->args[0], e->args[1],
			    e->args[2]);
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
	case LEGO_AND: case LEGO_OR: case LEGO_NOT:
		c = lego_decide(ctx, e);
		if (c < 0)
			return e;
		v = lego_const(ctx, c);
		cert_value(ctx, e, v);
		return v;
	default:
		return e;
	}
}
