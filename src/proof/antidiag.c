/* antidiag.c - the built-in antidiag GenP proved for every n by a
 * certificate of its own, as the swizzle is (swizzle.c).
 *
 * antidiag maps (i, j) of [n, n] along the anti-diagonals: with
 * a = i + j + 1 and T(a) = a * (a - 1) / 2, to i + T(a) in the triangle
 * a <= n, and below it to the mirror n*n - 1 - x' of the offset x' of
 * (n-1-i, n-1-j) in its own triangle; the inverse takes x (or n*n-1-x
 * past the triangle's end, half) back through row(x) = r + [T(r+1) <= x],
 * r = isqrt(2 * x).  Z3 does not decide inv(apply(i)) == i at once
 * (isqrt, nonlinear); it does each step below, for a symbol n and
 * indices i, j in [0, n) of its own (so for every n >= 1):
 *   lemma: row(k + T(A)) == A for every A >= 1 and 0 <= k < A;
 *   in the triangle: a <= n gives x0 < half, and then x == i + T(a) with
 *     1 <= a, i < a; with row(x) == a (the lemma at A = a, k = i),
 *     inv(apply(i, j)) == (i, j);
 *   below it: likewise, x0 >= half, x == (n-1-i) + T(b), b = 2n - a;
 *   0 <= apply(i, j) < n*n.
 * Each step assumes only what the earlier ones proved, so the chain holds
 * at every (i, j): apply is injective on n*n points into [0, n*n), hence
 * a bijection, with inv its inverse.  The formulas are the leaf's own
 * (its apply_sym and inv_sym at [n, n]); x and row(x), which the steps
 * name, are built as src/layout/antidiag.c builds them, hash-consed: were
 * they not the inverse's own nodes, the last steps would stay unproved,
 * never be wrongly proved. */
#include <string.h>

#include "layout/layout.h"
#include "proof/proof.h"
#include "smt/smt.h"

/* The queries are the same in every use (fresh symbols of their own) and
 * cached: they get proof_once_ms, all for Z3 itself (no certified
 * rewriting: the steps are small already). */

typedef struct steps {
	lego_ctx *ctx;
	unsigned ms;
	const char *failed, *part; /* the first step not proved */
} steps;

static lego_expr *c(steps *s, int64_t v)
{
	return lego_const(s->ctx, v);
}

static lego_expr *op(steps *s, lego_expr_kind k, lego_expr *a, lego_expr *b)
{
	return lego_binop(s->ctx, k, a, b);
}

static lego_expr *tri(steps *s, lego_expr *a)
{
	return lego_div(s->ctx, lego_mul(s->ctx, a, lego_sub(s->ctx, a,
							      c(s, 1))),
			c(s, 2));
}

static lego_expr *row(steps *s, lego_expr *x)
{
	lego_expr *r = lego_isqrt(s->ctx, lego_mul(s->ctx, c(s, 2), x));
	return lego_add(s->ctx, r, op(s, LEGO_LE,
				      tri(s, lego_add(s->ctx, r, c(s, 1))), x));
}

/* h implies g. */
static lego_expr *implies(steps *s, lego_expr *h, lego_expr *g)
{
	return op(s, LEGO_OR, op(s, LEGO_EQ, h, c(s, 0)), g);
}

static lego_expr *all(steps *s, lego_expr *a, lego_expr *b)
{
	return op(s, LEGO_AND, a, b);
}

/* Proves cond, or records `what` (`part` of it) as the step that
 * failed. */
static void step(steps *s, const char *what, const char *part,
		 lego_expr *cond)
{
	if (s->failed)
		return;
	if (!cond || smt_prove(s->ctx, cond, s->ms, 0, NULL) != LEGO_PROVED) {
		s->failed = what;
		s->part = part;
	}
}

/* One side of the square: where `side` holds, apply is `form`, which the
 * inverse reads as x == k + T(t), 0 <= k < t, its `low` test deciding
 * which offset x is; T(t+1) <= T(m) (t < m) puts form on its side of
 * half.  Each step assumes what the earlier ones proved and instances of
 * the lemmas at values those steps put in the lemmas' ranges. */
typedef struct side {
	const char *what;
	lego_expr *side, *form, *low, *k, *t, *m;
} side;

static void half(steps *s, const side *p, lego_expr *x0, lego_expr *x,
		 lego_expr *goal)
{
	lego_ctx *ctx = s->ctx;
	lego_expr *t = p->t, *t1 = lego_add(ctx, t, c(s, 1));
	lego_expr *h = all(s, p->side, op(s, LEGO_EQ, x0, p->form));
	step(s, p->what, "apply's branch, and the ranges of the lemmas",
	     implies(s, p->side, all(s, op(s, LEGO_EQ, x0, p->form), all(s,
		op(s, LEGO_LE, c(s, 1), t), all(s, op(s, LEGO_LT, t, p->m),
		all(s, op(s, LEGO_LE, c(s, 0), p->k),
		    op(s, LEGO_LT, p->k, t)))))));
	/* the lemmas T(t+1) <= T(m) and T(t+1) == T(t) + t at t */
	h = all(s, h, all(s, op(s, LEGO_LE, tri(s, t1), tri(s, p->m)),
			  op(s, LEGO_EQ, tri(s, t1),
			     lego_add(ctx, tri(s, t), t))));
	step(s, p->what, "which offset the inverse takes",
	     implies(s, h, p->low));
	lego_expr *at = op(s, LEGO_EQ, x, lego_add(ctx, p->k, tri(s, t)));
	h = all(s, h, p->low);
	step(s, p->what, "that offset", implies(s, h, at));
	/* the lemma row(k + T(t)) == t, and T of equal values */
	lego_expr *r = row(s, x);
	h = all(s, all(s, h, at), all(s, op(s, LEGO_EQ, r, t),
				      op(s, LEGO_EQ, tri(s, r), tri(s, t))));
	step(s, p->what, "the inverse", implies(s, h, goal));
}

static void certify(steps *s, const lego_genp_fn *fn)
{
	lego_ctx *ctx = s->ctx;
	lego_expr *n = lego_sym(ctx, "antidiag.n"), *dims[2] = {n, n};
	lego_expr *big = lego_sym(ctx, "antidiag.a");
	lego_expr *k = lego_index_fresh(ctx, "antidiag.k", NULL, big);
	lego_expr *idx[2] = {lego_index_fresh(ctx, "antidiag.i", NULL, n),
			     lego_index_fresh(ctx, "antidiag.j", NULL, n)};
	lego_expr *x0 = fn->apply_sym(ctx, fn->user, 2, dims, idx), *inv[2];
	if (!k || !idx[0] || !idx[1] || !x0 ||
	    fn->inv_sym(ctx, fn->user, 2, dims, x0, inv) != LEGO_OK) {
		s->failed = "its formulas";
		s->part = "built at [n, n]";
		return;
	}
	lego_expr *i = idx[0], *one = c(s, 1), *nn = lego_mul(ctx, n, n);
	lego_expr *k1 = lego_add(ctx, k, one);
	lego_expr *a = lego_add(ctx, lego_add(ctx, i, idx[1]), one);
	lego_expr *b = lego_sub(ctx, lego_mul(ctx, c(s, 2), n), a);
	lego_expr *low = op(s, LEGO_LT, x0, lego_div(ctx, lego_mul(
		ctx, n, lego_add(ctx, n, one)), c(s, 2)));
	lego_expr *x = lego_select(ctx, low, x0, lego_sub(ctx, lego_sub(
		ctx, nn, one), x0));
	lego_expr *goal = all(s, op(s, LEGO_EQ, inv[0], i),
			      op(s, LEGO_EQ, inv[1], idx[1]));
	/* for every A >= 1 and 0 <= k < A */
	step(s, "the lemmas", "row(k + T(A)) == A",
	     op(s, LEGO_EQ, row(s, lego_add(ctx, k, tri(s, big))), big));
	step(s, "the lemmas", "T(k + 1) <= T(A)",
	     op(s, LEGO_LE, tri(s, k1), tri(s, big)));
	step(s, "the lemmas", "T(k + 1) == T(k) + k",
	     op(s, LEGO_EQ, tri(s, k1), lego_add(ctx, tri(s, k), k)));
	const side parts[2] = {
		{"the triangle a <= n", op(s, LEGO_LE, a, n),
		 lego_add(ctx, i, tri(s, a)), low, i, a, lego_add(ctx, n, one)},
		{"below the triangle", op(s, LEGO_LT, n, a),
		 lego_sub(ctx, lego_add(ctx, lego_sub(ctx, nn, n), i),
			  tri(s, b)),
		 op(s, LEGO_EQ, low, c(s, 0)),
		 lego_sub(ctx, lego_sub(ctx, n, one), i), b, n},
	};
	for (int p = 0; p < 2; p++)
		half(s, &parts[p], x0, x, goal);
	step(s, "the range", "0 <= apply < n * n",
	     all(s, op(s, LEGO_LE, c(s, 0), x0), op(s, LEGO_LT, x0, nn)));
}

int proof_antidiag(lego_ctx *ctx, const lego_layout *leaf, unsigned ms,
		   proof_arg *a)
{
	const lego_genp_fn *fn = &leaf->genp->fn;
	if (!leaf->genp->check_dims || !fn->apply_sym || !fn->inv_sym ||
	    strcmp(leaf->genp->name, "antidiag") || leaf->rank != 2 ||
	    leaf->dims[0] != leaf->dims[1])
		return 0;
	steps s = {ctx, proof_once_ms(ms), NULL, NULL};
	certify(&s, fn);
	if (s.failed) {
		a->status = LEGO_UNKNOWN;
		proof_say(a, "GenP antidiag: its certificate, step %s (%s), "
			  "not proved: %s", s.failed, s.part,
			  lego_ctx_error(ctx));
	}
	return 1;
}
