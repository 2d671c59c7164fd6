/* antidiag.c - the built-in antidiag GenP proved a bijection for every n
 * by a certificate of its own, as the swizzle is (swizzle.c).
 *
 * antidiag maps (i, j) of [n, n] along the anti-diagonals: with
 * a = i + j + 1 and T(a) = a * (a - 1) / 2, to i + T(a) in the triangle
 * a <= n, and below it to the mirror n*n - 1 - x' of the offset x' of
 * (n-1-i, n-1-j) in its own triangle; the inverse takes x (or n*n-1-x
 * past the triangle's end, half = T(n + 1)) back through
 * row(x) = r + [T(r+1) <= x], r = isqrt(2 * x).  Z3 does not decide
 * inv(apply(i)) == i at once (isqrt, nonlinear); it does each step
 * below, over a symbol n >= 1 and indices of its own (so for every n):
 *
 *   lemmas: for m >= 1, q >= 0, the closed forms of T(m), T(m + 1) and
 *     m * m at m = 2q and m = 2q + 1, so 2 T(m) == m * (m - 1) (at
 *     q = m / 2); for every A >= 1, 0 <= k < A (so for every k >= 0):
 *     T(k + 1) <= T(A) (from the last at k + 1 and A, and
 *     A (A - 1) - (k + 1) k == (A - k - 1) (A + k)); T(k + 1) == T(k) + k;
 *     0 <= T(k); T(row(k)) <= k < T(row(k) + 1); row(k + T(A)) == A
 *     (from the lemmas before); and T(n + 1) + T(n) == n * n;
 *   apply, for (i, j) in [0, n)^2, on each side of the triangle: which
 *     branch apply takes, which half the inverse reads, the offset x it
 *     reads there, and inv(apply(i, j)) == (i, j); 0 <= apply < n * n;
 *   the inverse, for x in [0, n * n), on each half: the row a = row(x')
 *     and column of x' with 1 <= a, then inv(x) in [0, n)^2 and
 *     apply(inv(x)) == x, these two for a symbol v >= 1 in place of
 *     row(x') (so at row(x')), once the inverse is checked to be that
 *     reading at row(x') node for node.
 *
 * Each step is an implication whose premises are what the steps before
 * it proved: the side it is on, the ranges an earlier step established,
 * and instances of the lemmas at values those ranges put in the lemmas'
 * domain.  So the chain holds at every point, both directions of the
 * bijection.  The formulas are the leaf's own (its apply_sym and inv_sym
 * at [n, n]); x and row(x), which the steps name, are built as
 * src/layout/antidiag.c builds them, hash-consed: were they not the
 * inverse's own nodes, the last steps would stay unproved, never be
 * wrongly proved.
 *
 * Each step is asked in a ctx of its own, so in a Z3 context and solver
 * of its own (no cache, no facts, no earlier query), within a budget of
 * Z3's resource count (src/smt's rlimit clock), never the wall clock:
 * the answer is the same on a loaded machine, a quiet one and in the
 * sanitizer build, whatever was asked before. */
#include <string.h>

#include "layout/layout.h"
#include "proof/proof.h"
#include "smt/smt.h"

/* Each step's budget, ms of Z3's resources (SMT_RLIMIT_PER_MS units a
 * ms); the largest step, T(k + 1) <= T(A), takes about 270, the 30
 * together 640, the same in the sanitizer build. */
enum { STEP_MS = 4000 };

/* Which step the walk builds (want), the step it is at, and what the
 * wanted one is and asks. */
typedef struct steps {
	lego_ctx *ctx;
	int want, at;
	const char *what, *part;
	lego_expr *cond;
} steps;

static lego_expr *c(steps *s, int64_t v)
{
	return lego_const(s->ctx, v);
}

static lego_expr *op(steps *s, lego_expr_kind k, lego_expr *a, lego_expr *b)
{
	return lego_binop(s->ctx, k, a, b);
}

static lego_expr *add(steps *s, lego_expr *a, lego_expr *b)
{
	return lego_add(s->ctx, a, b);
}

static lego_expr *sub(steps *s, lego_expr *a, lego_expr *b)
{
	return lego_sub(s->ctx, a, b);
}

static lego_expr *tri(steps *s, lego_expr *a)
{
	return lego_div(s->ctx, lego_mul(s->ctx, a, sub(s, a, c(s, 1))),
			c(s, 2));
}

static lego_expr *row(steps *s, lego_expr *x)
{
	lego_expr *r = lego_isqrt(s->ctx, lego_mul(s->ctx, c(s, 2), x));
	return add(s, r, op(s, LEGO_LE, tri(s, add(s, r, c(s, 1))), x));
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

/* lo <= v < hi */
static lego_expr *within(steps *s, lego_expr *lo, lego_expr *v,
			 lego_expr *hi)
{
	return all(s, op(s, LEGO_LE, lo, v), op(s, LEGO_LT, v, hi));
}

/* The next step of the walk: kept when it is the wanted one. */
static void step(steps *s, const char *what, const char *part,
		 lego_expr *cond)
{
	if (s->at++ != s->want)
		return;
	s->what = what;
	s->part = part;
	s->cond = cond;
}

/* The lemmas, proved for every A >= 1 and 0 <= k < A, at t: instances
 * a step may assume once an earlier one put t >= 0 (and m >= 1, t < m
 * for the monotone one). */
static lego_expr *lemma_step(steps *s, lego_expr *t)
{
	return op(s, LEGO_EQ, tri(s, add(s, t, c(s, 1))),
		  add(s, tri(s, t), t));
}

static lego_expr *lemma_rows(steps *s, lego_expr *t)
{
	lego_expr *r = row(s, t);
	return all(s, op(s, LEGO_LE, tri(s, r), t),
		   op(s, LEGO_LT, t, tri(s, add(s, r, c(s, 1)))));
}

/* The closed forms of T(m), T(m + 1) and m * m where m == 2q and where
 * m == 2q + 1: Z3 decides each in milliseconds, and with them
 * T(n + 1) + T(n) == n * n at q = n / 2, which it does not decide alone
 * (n * (n - 1) even). */
static lego_expr *parity(steps *s, lego_expr *m, lego_expr *q)
{
	lego_expr *q2 = lego_mul(s->ctx, c(s, 2), q), *forms[2];
	for (int odd = 0; odd < 2; odd++) {
		lego_expr *m0 = add(s, q2, c(s, odd));
		lego_expr *lo = lego_mul(s->ctx, q,
					 sub(s, q2, c(s, 1 - 2 * odd)));
		lego_expr *hi = lego_mul(s->ctx, add(s, q, c(s, odd)),
					 add(s, q2, c(s, 1)));
		forms[odd] = implies(s, op(s, LEGO_EQ, m, m0), all(s, all(s,
			op(s, LEGO_EQ, tri(s, m), lo),
			op(s, LEGO_EQ, tri(s, add(s, m, c(s, 1))), hi)),
			op(s, LEGO_EQ, lego_mul(s->ctx, m, m),
			   lego_mul(s->ctx, m0, m0))));
	}
	return all(s, forms[0], forms[1]);
}

/* 2 T(m) == m * (m - 1) */
static lego_expr *even(steps *s, lego_expr *m)
{
	return op(s, LEGO_EQ, lego_mul(s->ctx, c(s, 2), tri(s, m)),
		  lego_mul(s->ctx, m, sub(s, m, c(s, 1))));
}

/* One side of the square, seen from apply: where `side` holds, apply is
 * `form`, which the inverse reads as x == k + T(t), 0 <= k < t, its
 * `low` test deciding which offset x is; T(t+1) <= T(m) (t < m) puts
 * form on its side of half. */
typedef struct side {
	const char *what;
	lego_expr *side, *form, *low, *k, *t, *m;
} side;

static void forward(steps *s, const side *p, lego_expr *n, lego_expr *x0,
		    lego_expr *x, lego_expr *range, lego_expr *goal)
{
	lego_expr *t = p->t, *t1 = add(s, t, c(s, 1));
	lego_expr *h = all(s, p->side, op(s, LEGO_EQ, x0, p->form));
	step(s, p->what, "apply's branch, and the ranges of the lemmas",
	     implies(s, p->side, all(s, op(s, LEGO_EQ, x0, p->form), all(s,
		within(s, c(s, 1), t, p->m), within(s, c(s, 0), p->k, t)))));
	/* the lemmas T(t+1) <= T(m) and T(t+1) == T(t) + t at t */
	h = all(s, h, all(s, op(s, LEGO_LE, tri(s, t1), tri(s, p->m)),
			  lemma_step(s, t)));
	step(s, p->what, "which offset the inverse takes",
	     implies(s, h, p->low));
	lego_expr *at = op(s, LEGO_EQ, x, add(s, p->k, tri(s, t)));
	h = all(s, h, p->low);
	step(s, p->what, "that offset", implies(s, h, at));
	/* 0 <= T(t) (the lemma at t), T(n + 1) + T(n) == n * n and
	 * 0 <= T(n), T(n + 1) (range, proved) */
	step(s, p->what, "0 <= apply < n * n",
	     implies(s, all(s, all(s, h, at), all(s, range, op(s, LEGO_LE,
							   c(s, 0),
							   tri(s, t)))),
		     within(s, c(s, 0), x0, lego_mul(s->ctx, n, n))));
	/* the lemma row(k + T(t)) == t, and T of equal values */
	lego_expr *r = row(s, x);
	h = all(s, all(s, h, at), all(s, op(s, LEGO_EQ, r, t),
				      op(s, LEGO_EQ, tri(s, r), tri(s, t))));
	step(s, p->what, "the inverse", implies(s, h, goal));
}

/* The inverse as src/layout/antidiag.c builds it, from the offset x it
 * reads (low: which half) and the row v of x: column x - T(v), then
 * mirrored past the triangle. */
static void read_at(steps *s, lego_expr *n, lego_expr *low, lego_expr *x,
		    lego_expr *v, lego_expr **inv)
{
	lego_expr *i = sub(s, x, tri(s, v));
	lego_expr *j = sub(s, sub(s, v, i), c(s, 1));
	lego_expr *nm1 = sub(s, n, c(s, 1));
	inv[0] = lego_select(s->ctx, low, i, sub(s, nm1, i));
	inv[1] = lego_select(s->ctx, low, j, sub(s, nm1, j));
}

/* One half of [0, n*n), seen from the inverse: where `half` holds, the
 * inverse reads x (x >= 0, x < T(m), m the half's last row plus one)
 * at row a = row(x), column x - T(a).  The last steps are proved with a
 * symbol v >= 1 in place of row(x): gen is the inverse read at row v
 * and back apply(gen); what holds for every v >= 1 holds at row(x)
 * (where their premise 1 <= v holds; isqrt, nonlinear, stays out of
 * them). */
typedef struct half {
	const char *what;
	int mirror; /* the half past the triangle */
	lego_expr *half, *x, *m, *y, *v, *back;
	lego_expr *const *gen;
} half;

static void inverse(steps *s, const half *p, lego_expr *n, lego_expr *lemma)
{
	lego_expr *x = p->x, *a = row(s, x);
	lego_expr *col = sub(s, x, tri(s, a));
	step(s, p->what, "the offset it reads, and the ranges of the lemmas",
	     implies(s, all(s, p->half, lemma),
		     within(s, c(s, 0), x, tri(s, p->m))));
	/* T(row(x)) <= x < T(row(x) + 1), T(a+1) == T(a) + a, and
	 * T(m) <= T(a) where m < a */
	lego_expr *h = all(s, all(s, p->half, within(s, c(s, 0), x,
						      tri(s, p->m))),
			   all(s, all(s, lemma_rows(s, x),
				      implies(s, op(s, LEGO_LE, c(s, 0), a),
					      lemma_step(s, a))),
			       implies(s, op(s, LEGO_LT, sub(s, p->m, c(s, 1)),
					     a),
				       op(s, LEGO_LE, tri(s, p->m),
					  tri(s, a)))));
	step(s, p->what, "its row and column",
	     implies(s, h, all(s, within(s, c(s, 1), a, p->m),
			       within(s, c(s, 0), col, a))));
	/* the same ranges at v */
	lego_expr *v = p->v;
	h = all(s, p->half, all(s, within(s, c(s, 1), v, p->m),
				within(s, c(s, 0), sub(s, x, tri(s, v)), v)));
	lego_expr *in = all(s, within(s, c(s, 0), p->gen[0], n),
			    within(s, c(s, 0), p->gen[1], n));
	step(s, p->what, "inv(x) in [0, n)^2", implies(s, h, in));
	/* the row apply finds for inv(x): a + b + 1 in the triangle, its
	 * mirror 2n - (a + b + 1) below it; then T of equal values */
	lego_expr *sum = add(s, add(s, p->gen[0], p->gen[1]), c(s, 1));
	lego_expr *t = p->mirror ? sub(s, lego_mul(s->ctx, c(s, 2), n), sum)
				 : sum;
	h = all(s, h, in);
	step(s, p->what, "the row apply finds", implies(s, h,
	     op(s, LEGO_EQ, t, v)));
	h = all(s, h, all(s, op(s, LEGO_EQ, t, v),
			  op(s, LEGO_EQ, tri(s, t), tri(s, v))));
	step(s, p->what, "apply(inv(x))",
	     implies(s, h, op(s, LEGO_EQ, p->back, p->y)));
}

/* Walks the certificate's steps for fn's formulas at [n, n], keeping the
 * wanted one; 0 when fn builds no formulas there. */
static int certify(steps *s, const lego_genp_fn *fn)
{
	lego_ctx *ctx = s->ctx;
	lego_expr *n = lego_sym(ctx, "antidiag.n"), *dims[2] = {n, n};
	lego_expr *big = lego_sym(ctx, "antidiag.A");
	lego_expr *k = lego_index_fresh(ctx, "antidiag.k", NULL, big);
	lego_expr *idx[2] = {lego_index_fresh(ctx, "antidiag.i", NULL, n),
			     lego_index_fresh(ctx, "antidiag.j", NULL, n)};
	lego_expr *one = c(s, 1), *nn = lego_mul(ctx, n, n);
	lego_expr *y = lego_index_fresh(ctx, "antidiag.x", NULL, nn);
	lego_expr *v = lego_sym(ctx, "antidiag.v");
	lego_expr *x0 = fn->apply_sym(ctx, fn->user, 2, dims, idx), *inv[2];
	lego_expr *yinv[2], *gen[2], *at_row[2], *back = NULL;
	if (!k || !idx[0] || !idx[1] || !y || !v || !x0 ||
	    fn->inv_sym(ctx, fn->user, 2, dims, x0, inv) != LEGO_OK ||
	    fn->inv_sym(ctx, fn->user, 2, dims, y, yinv) != LEGO_OK)
		return 0;
	lego_expr *i = idx[0], *k1 = add(s, k, one);
	lego_expr *a = add(s, add(s, i, idx[1]), one);
	lego_expr *b = sub(s, lego_mul(ctx, c(s, 2), n), a);
	/* half and the offset read, as src/layout/antidiag.c builds them */
	lego_expr *halfway = lego_div(ctx, lego_mul(ctx, n, add(s, n, one)),
				      c(s, 2));
	lego_expr *low = op(s, LEGO_LT, x0, halfway);
	lego_expr *x = lego_select(ctx, low, x0, sub(s, sub(s, nn, one), x0));
	lego_expr *ylow = op(s, LEGO_LT, y, halfway);
	lego_expr *yx = lego_select(ctx, ylow, y, sub(s, sub(s, nn, one), y));
	read_at(s, n, ylow, yx, row(s, yx), at_row);
	read_at(s, n, ylow, yx, v, gen);
	if (!(back = fn->apply_sym(ctx, fn->user, 2, dims, gen)))
		return 0;
	lego_expr *goal = all(s, op(s, LEGO_EQ, inv[0], i),
			      op(s, LEGO_EQ, inv[1], idx[1]));
	/* for every A >= 1 and 0 <= k < A */
	/* Every step is kept small (milliseconds of Z3's resources): Z3's
	 * search on a harder one depends on where its memory lies (6 times
	 * the resources in the sanitizer build), so the lemmas Z3 finds
	 * hard directly (row(k + T(A)) == A, T monotone) are derived from
	 * easy ones. */
	lego_expr *m = lego_sym(ctx, "antidiag.m");
	step(s, "the lemmas", "T(m), T(m + 1) and m * m at m = 2q, 2q + 1",
	     parity(s, m, k));
	/* at q = m / 2 */
	step(s, "the lemmas", "2 T(m) == m * (m - 1)",
	     implies(s, parity(s, m, lego_div(ctx, m, c(s, 2))), even(s, m)));
	lego_expr *prod = op(s, LEGO_EQ, sub(s, lego_mul(ctx, big, sub(s, big,
								   one)),
					     lego_mul(ctx, k1, k)),
			     lego_mul(ctx, sub(s, sub(s, big, k), one),
				      add(s, big, k)));
	step(s, "the lemmas", "A (A - 1) - (k + 1) k == (A - k - 1) (A + k)",
	     prod);
	/* the last two at m = k + 1, A */
	step(s, "the lemmas", "T(k + 1) <= T(A)",
	     implies(s, all(s, all(s, even(s, k1), even(s, big)), prod),
		     op(s, LEGO_LE, tri(s, k1), tri(s, big))));
	step(s, "the lemmas", "T(k + 1) == T(k) + k", lemma_step(s, k));
	step(s, "the lemmas", "0 <= T(k)",
	     op(s, LEGO_LE, c(s, 0), tri(s, k)));
	step(s, "the lemmas", "T(row(k)) <= k < T(row(k) + 1)",
	     lemma_rows(s, k));
	/* row's bounds at x = k + T(A) (x >= 0: 0 <= T(A)), T(A + 1) ==
	 * T(A) + A, and T monotone at (A, row(x)) and (row(x), A) */
	lego_expr *x_at = add(s, k, tri(s, big)), *r_at = row(s, x_at);
	lego_expr *mono = all(s,
		implies(s, op(s, LEGO_LT, big, r_at),
			op(s, LEGO_LE, tri(s, add(s, big, one)),
			   tri(s, r_at))),
		implies(s, within(s, c(s, 0), r_at, big),
			op(s, LEGO_LE, tri(s, add(s, r_at, one)),
			   tri(s, big))));
	step(s, "the lemmas", "row(k + T(A)) == A",
	     implies(s, all(s, all(s, op(s, LEGO_LE, c(s, 0), tri(s, big)),
				   implies(s, op(s, LEGO_LE, c(s, 0), x_at),
					   lemma_rows(s, x_at))),
			    all(s, lemma_step(s, big), mono)),
		     op(s, LEGO_EQ, r_at, big)));
	/* the lemmas at m = n, q = n / 2 (n >= 1, q >= 0), at k = n, n + 1 */
	lego_expr *sum = op(s, LEGO_EQ, add(s, halfway, tri(s, n)), nn);
	lego_expr *range = all(s, sum, all(s, op(s, LEGO_LE, c(s, 0),
						 tri(s, n)),
					   op(s, LEGO_LE, c(s, 0), halfway)));
	step(s, "the lemmas", "T(n + 1) + T(n) == n * n, both >= 0",
	     implies(s, all(s, parity(s, n, lego_div(ctx, n, c(s, 2))),
			    all(s, op(s, LEGO_LE, c(s, 0), tri(s, n)),
				op(s, LEGO_LE, c(s, 0),
				   tri(s, add(s, n, one))))),
		     range));
	const side sides[2] = {
		{"apply, in the triangle a <= n", op(s, LEGO_LE, a, n),
		 add(s, i, tri(s, a)), low, i, a, add(s, n, one)},
		{"apply, below the triangle", op(s, LEGO_LT, n, a),
		 sub(s, add(s, sub(s, nn, n), i), tri(s, b)),
		 op(s, LEGO_EQ, low, c(s, 0)), sub(s, sub(s, n, one), i), b,
		 n},
	};
	for (int p = 0; p < 2; p++)
		forward(s, &sides[p], n, x0, x, range, goal);
	/* the inverse at y: its low half reads y itself, below T(n + 1);
	 * the other n*n - 1 - y, below n*n - T(n + 1) == T(n) (proved
	 * above).  It is read_at at row(x), checked node for node (the
	 * nodes are hash-consed), so read_at at v stands for it. */
	step(s, "the inverse", "is read_at at row(x)",
	     at_row[0] == yinv[0] && at_row[1] == yinv[1] ? c(s, 1) : NULL);
	const half halves[2] = {
		{"the inverse, x < T(n + 1)", 0, ylow, yx, add(s, n, one), y,
		 v, back, gen},
		{"the inverse, x >= T(n + 1)", 1, op(s, LEGO_EQ, ylow, c(s, 0)),
		 yx, n, y, v, back, gen},
	};
	for (int p = 0; p < 2; p++)
		inverse(s, &halves[p], n, sum);
	return 1;
}

/* Step `want` in a ctx of its own: LEGO_PROVED, REFUTED (with the
 * counterexample, confirmed by evaluation in src/smt, said in a) or
 * UNKNOWN (the reason in a); *done past the last step. */
static int prove_step(lego_ctx *outer, const lego_genp_fn *fn, int want,
		      proof_arg *a, int *done)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = ctx ? lego_env_new(ctx) : NULL;
	steps s = {ctx, want, 0, NULL, NULL, NULL};
	if (!env) {
		lego_ctx_free(ctx);
		return lego_fail(outer, LEGO_ENOMEM, "out of memory");
	}
	int built = certify(&s, fn);
	*done = built && s.at <= want;
	lego_proof p = *done ? LEGO_PROVED : LEGO_UNKNOWN;
	if (!*done && built && s.cond)
		p = smt_prove(ctx, s.cond, STEP_MS, 0, env);
	if (p != LEGO_PROVED) {
		a->status = p;
		if (!built)
			proof_say(a, "GenP antidiag: its certificate: no "
				  "formulas at [n, n]: %s",
				  lego_ctx_error(ctx));
		else if (!s.cond)
			proof_say(a, "GenP antidiag: its certificate, step %s "
				  "(%s), not so", s.what, s.part);
		else if (p == LEGO_REFUTED)
			proof_say(a, "GenP antidiag: its certificate, step %s "
				  "(%s), refuted", s.what, s.part);
		else
			proof_say(a, "GenP antidiag: its certificate, step %s "
				  "(%s), not proved: %s", s.what, s.part,
				  lego_ctx_error(ctx));
		if (p == LEGO_REFUTED)
			proof_say_witness(ctx, s.cond, env, a);
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
	return LEGO_OK;
}

int proof_antidiag_fn(lego_ctx *ctx, const lego_genp_fn *fn, proof_arg *a)
{
	int done = 0;
	a->status = LEGO_PROVED;
	for (int want = 0; !done && a->status == LEGO_PROVED; want++) {
		int rc = prove_step(ctx, fn, want, a, &done);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

int proof_antidiag(lego_ctx *ctx, const lego_layout *leaf, proof_arg *a)
{
	const lego_genp_fn *fn = &leaf->genp->fn;
	if (!leaf->genp->check_dims || !fn->apply_sym || !fn->inv_sym ||
	    strcmp(leaf->genp->name, "antidiag") || leaf->rank != 2 ||
	    leaf->dims[0] != leaf->dims[1])
		return 0;
	int rc = proof_antidiag_fn(ctx, fn, a);
	return rc < 0 ? rc : 1;
}
