/* test_simplify.c - facts, the prover and the simplifier.
 *
 * Expected values come from SEMANTICS.md (the raw expressions are derived
 * here from its definitions of B, B^-1, RegP, OrderBy and GroupBy), from
 * the Triton tutorial's grouped ordering written in plain C, or from
 * evaluating the unsimplified expression: simplification must never change
 * a value for bindings satisfying the facts. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "lego.h"

/* ------------------------------------------------------------ helpers */

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

static size_t ops1(lego_expr *e)
{
	return lego_expr_ops(&e, 1);
}

/* Evaluates e, binding syms[i] to vals[i]; 0 on error. */
static int eval_at(lego_ctx *ctx, lego_expr *e, size_t n,
		   lego_expr *const *syms, const int64_t *vals, int64_t *out)
{
	lego_env *env = lego_env_new(ctx);
	int ok = env != NULL;
	for (size_t i = 0; ok && i < n; i++)
		ok = lego_env_bind(env, syms[i], vals[i]) == LEGO_OK;
	ok = ok && lego_expr_eval(ctx, e, env, out) == LEGO_OK;
	lego_env_free(env);
	return ok;
}

static int prove_le(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return lego_prove_nonneg(ctx, lego_sub(ctx, b, a));
}

static void show(lego_test *t, lego_ctx *ctx, const char *what, lego_expr *e)
{
	if (!t->verbose)
		return;
	char *s = lego_expr_print(ctx, e, LEGO_LANG_C);
	printf("  %s = %s  (%zu ops)\n", what, s ? s : "?", ops1(e));
	free(s);
}

/* A small deterministic generator (tests must be reproducible). */
static uint64_t rnd(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

static int64_t pick(uint64_t *state, int64_t lo, int64_t hi) /* [lo, hi] */
{
	return lo + (int64_t)(rnd(state) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------- the semantics, in expressions */

/* B_n(i): row-major flatten. */
static lego_expr *flatten(lego_ctx *ctx, size_t d, lego_expr *const *n,
			  lego_expr *const *i)
{
	lego_expr *f = i[0];
	for (size_t k = 1; k < d; k++)
		f = lego_add(ctx, lego_mul(ctx, f, n[k]), i[k]);
	return f;
}

/* B_n^-1(f): first coordinate f/(n2..nd), then (f/(n_{k+1}..nd)) % n_k. */
static void unflatten(lego_ctx *ctx, size_t d, lego_expr *const *n,
		      lego_expr *f, lego_expr **out)
{
	lego_expr *stride = C(ctx, 1);
	for (size_t k = d; k-- > 0;) {
		lego_expr *q = lego_div(ctx, f, stride);
		out[k] = k ? lego_mod(ctx, q, n[k]) : q;
		stride = lego_mul(ctx, stride, n[k]);
	}
}

/* RegP(n, sigma).apply(i) = B_{sigma(n)}(sigma(i)), sigma 1-based. */
static lego_expr *regp_apply(lego_ctx *ctx, size_t d, lego_expr *const *n,
			     const int *sigma, lego_expr *const *i)
{
	lego_expr *sn[8], *si[8];
	for (size_t k = 0; k < d; k++) {
		sn[k] = n[sigma[k] - 1];
		si[k] = i[sigma[k] - 1];
	}
	return flatten(ctx, d, sn, si);
}

/* RegP(n, sigma).inv(f) = sigma^-1(B_{sigma(n)}^-1(f)). */
static void regp_inv(lego_ctx *ctx, size_t d, lego_expr *const *n,
		     const int *sigma, lego_expr *f, lego_expr **out)
{
	lego_expr *sn[8], *y[8];
	for (size_t k = 0; k < d; k++)
		sn[k] = n[sigma[k] - 1];
	unflatten(ctx, d, sn, f, y);
	for (size_t k = 0; k < d; k++)
		out[sigma[k] - 1] = y[k];
}

static lego_expr *product(lego_ctx *ctx, size_t d, lego_expr *const *n)
{
	lego_expr *p = C(ctx, 1);
	for (size_t k = 0; k < d; k++)
		p = lego_mul(ctx, p, n[k]);
	return p;
}

/* One level of an OrderBy: a d-dim RegP. */
typedef struct level {
	size_t d;
	lego_expr *dims[4];
	int sigma[4];
} level;

/* OrderBy(P1..Pq).inv(f): innermost level first. */
static void orderby_inv(lego_ctx *ctx, size_t q, const level *lv,
			lego_expr *f, lego_expr **out)
{
	size_t at = 0;
	for (size_t k = 0; k < q; k++)
		at += lv[k].d;
	for (size_t k = q; k-- > 0;) {
		lego_expr *p = product(ctx, lv[k].d, lv[k].dims);
		at -= lv[k].d;
		regp_inv(ctx, lv[k].d, lv[k].dims, lv[k].sigma,
			 lego_mod(ctx, f, p), out + at);
		f = lego_div(ctx, f, p);
	}
}

static lego_expr *orderby_dims_flatten(lego_ctx *ctx, size_t q,
				       const level *lv, lego_expr *const *i)
{
	lego_expr *dims[16];
	size_t n = 0;
	for (size_t k = 0; k < q; k++)
		for (size_t j = 0; j < lv[k].d; j++)
			dims[n++] = lv[k].dims[j];
	return flatten(ctx, n, dims, i);
}

/*
 * Row(M,K).TileBy([M/BM, K/BK], [BM, BK]) applied to (tm, tk, r, c):
 * GroupBy(dims n = [M/BM, K/BK, BM, BK], chain [O1, T]) with
 * O1 = OrderBy(Row(M, K)) (one level, so R(O1) is the identity) and
 * T = OrderBy(RegP(n, [1,3,2,4])).  apply: f = B_n(i), then T, then O1,
 * each as O.apply(B_{O.dims}^-1(f)).
 */
static lego_expr *gemm_raw(lego_ctx *ctx, lego_expr *const *sizes,
			   lego_expr *const *idx)
{
	lego_expr *M = sizes[0], *K = sizes[1], *BM = sizes[2], *BK = sizes[3];
	lego_expr *n[4] = {lego_div(ctx, M, BM), lego_div(ctx, K, BK), BM, BK};
	static const int sigma_t[4] = {1, 3, 2, 4}, row[2] = {1, 2};
	lego_expr *u[4], *v[2], *mk[2] = {M, K};
	lego_expr *f = flatten(ctx, 4, n, idx);
	unflatten(ctx, 4, n, f, u);
	f = regp_apply(ctx, 4, n, sigma_t, u);
	unflatten(ctx, 2, mk, f, v);
	return regp_apply(ctx, 2, mk, row, v);
}

/*
 * P = OrderBy(Col(A, 1), Col(G, npn)).TileBy([npm, npn]) with
 * A = max(npm/GM, 1), G = min(npm, GM); (pid_m, pid_n) = P.inv(pid).
 * TileBy with one level of 2 dims: GroupBy([npm, npn], [O, R(O), T]),
 * O.dims = [A, 1, G, npn], sigma_O = sigma_{2x2} = [1,3,2,4],
 * R(O) = OrderBy(RegP([A, G, 1, npn], [1,3,2,4])), T = OrderBy(Row(npm,
 * npn)).  inv: for O in chain order f = B_{O.dims}(O.inv(f)); then
 * B_n^-1(f).  Col(a, b) = RegP([a, b], [2, 1]).
 */
static void pid_raw(lego_ctx *ctx, lego_expr *npm, lego_expr *npn,
		    lego_expr *GM, lego_expr *pid, lego_expr **out)
{
	lego_expr *A = lego_max(ctx, lego_div(ctx, npm, GM), C(ctx, 1));
	lego_expr *G = lego_min(ctx, npm, GM);
	level o[2] = {{2, {A, C(ctx, 1)}, {2, 1}}, {2, {G, npn}, {2, 1}}};
	level r[1] = {{4, {A, G, C(ctx, 1), npn}, {1, 3, 2, 4}}};
	level tl[1] = {{2, {npm, npn}, {1, 2}}};
	lego_expr *i[4], *f = pid;
	orderby_inv(ctx, 2, o, f, i);
	f = orderby_dims_flatten(ctx, 2, o, i);
	orderby_inv(ctx, 1, r, f, i);
	f = orderby_dims_flatten(ctx, 1, r, i);
	orderby_inv(ctx, 1, tl, f, i);
	f = orderby_dims_flatten(ctx, 1, tl, i);
	lego_expr *n[2] = {npm, npn};
	unflatten(ctx, 2, n, f, out);
}

/* The Triton tutorial's grouped ordering, in plain C. */
static void triton_pid(int64_t pid, int64_t npm, int64_t npn, int64_t gm,
		       int64_t *pm, int64_t *pn)
{
	int64_t in_group = gm * npn;
	int64_t first_m = pid / in_group * gm;
	int64_t size_m = npm - first_m < gm ? npm - first_m : gm;
	*pm = first_m + (pid % in_group) % size_m;
	*pn = (pid % in_group) / size_m;
}

/* ------------------------------------------------------------ facts */

static void test_prover(lego_test *t)
{
	test_case(t, "prover_basics");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *M = lego_sym(ctx, "M"), *BM = lego_sym(ctx, "BM");
	lego_expr *r = lego_index(ctx, "r", C(ctx, 0), BM);
	CHECK(t, lego_prove_nonneg(ctx, M));
	CHECK(t, lego_prove_nonneg(ctx, lego_add(ctx, M, C(ctx, -1))));
	CHECK(t, !lego_prove_nonneg(ctx, lego_add(ctx, M, C(ctx, -2))));
	CHECK(t, lego_prove_nonneg(ctx, r));
	CHECK(t, lego_prove_lt(ctx, r, BM));
	CHECK(t, !lego_prove_lt(ctx, r, lego_add(ctx, BM, C(ctx, -1))));
	CHECK(t, !lego_prove_lt(ctx, C(ctx, 0), r));
	/* M*BM - M >= 0 for positive symbols; M - BM unknown. */
	CHECK(t, lego_prove_nonneg(ctx, lego_sub(ctx, lego_mul(ctx, M, BM), M)));
	CHECK(t, !lego_prove_nonneg(ctx, lego_sub(ctx, M, BM)));
	/* A fact invalidates the cached answer. */
	CHECK_EQ(t, lego_assume_divides(ctx, BM, M), LEGO_OK);
	CHECK(t, lego_prove_nonneg(ctx, lego_sub(ctx, M, BM)));
	CHECK(t, lego_prove_lt(ctx, C(ctx, 0), lego_div(ctx, M, BM)));
	lego_ctx_free(ctx);

	test_case(t, "prover_scaled_quotient");
	ctx = lego_ctx_new();
	{
		/* The last group of the grouped program ids: with x < npm*npn,
		 * GM * (x / (GM*npn)) <= x / npn <= npm - 1, so the group's
		 * height min(GM, npm - GM * (x / (GM*npn))) is >= 1. */
		lego_expr *npm = lego_sym(ctx, "npm"), *npn = lego_sym(ctx, "npn");
		lego_expr *gm = lego_sym(ctx, "GM");
		lego_expr *x = lego_index(ctx, "x", C(ctx, 0), lego_mul(ctx, npm, npn));
		lego_expr *q = lego_div(ctx, x, lego_mul(ctx, gm, npn));
		lego_expr *rows = lego_sub(ctx, npm, lego_mul(ctx, gm, q));
		CHECK(t, lego_prove_lt(ctx, C(ctx, 0), rows));
		CHECK(t, lego_prove_lt(ctx, C(ctx, 0), lego_min(ctx, gm, rows)));
		/* Not more: at x = npm*npn - 1 and GM = 1 it is exactly 1. */
		CHECK(t, !lego_prove_lt(ctx, C(ctx, 1), rows));
		/* Without the factor GM in the divisor nothing holds
		 * (GM * (x / npn) reaches GM * (npm - 1)). */
		lego_expr *q2 = lego_div(ctx, x, npn);
		CHECK(t, !lego_prove_lt(ctx, C(ctx, 0),
					lego_sub(ctx, npm, lego_mul(ctx, gm, q2))));
		/* Exhaustively, over small sizes, where the prover said yes. */
		lego_env *env = lego_env_new(ctx);
		int bad = 0;
		for (int64_t m = 1; m <= 7; m++)
			for (int64_t n = 1; n <= 5; n++)
				for (int64_t g = 1; g <= 6; g++)
					for (int64_t v = 0; v < m * n; v++) {
						int64_t height;
						lego_env_bind(env, npm, m);
						lego_env_bind(env, npn, n);
						lego_env_bind(env, gm, g);
						lego_env_bind(env, x, v);
						bad += lego_expr_eval(ctx, rows, env, &height) ||
						       height < 1;
					}
		CHECK_EQ(t, bad, 0);
		lego_env_free(env);
	}
	lego_ctx_free(ctx);

	test_case(t, "prover_cdiv_positive");
	ctx = lego_ctx_new();
	{
		/* cdiv(N, 32) = (N + 31)/32 >= 1 for a size N >= 1, so a
		 * group id below M * cdiv(N, 32) splits into g / cdiv and
		 * g % cdiv (MDH's work-group split at symbolic sizes). */
		lego_expr *Ms = lego_sym(ctx, "M"), *Ns = lego_sym(ctx, "N");
		lego_expr *cd = lego_div(ctx, lego_add(ctx, Ns, C(ctx, 31)), C(ctx, 32));
		lego_expr *all = lego_mul(ctx, Ms, cd);
		lego_expr *g = lego_index(ctx, "g", C(ctx, 0), all);
		CHECK(t, lego_prove_lt(ctx, C(ctx, 0), cd));
		CHECK(t, lego_prove_lt(ctx, C(ctx, 0), all));
		/* not for (N + 30)/32, 0 at N = 1 */
		CHECK(t, !lego_prove_lt(ctx, C(ctx, 0), lego_div(ctx, lego_add(
			ctx, Ns, C(ctx, 30)), C(ctx, 32))));
		lego_expr *gi = lego_div(ctx, lego_mod(ctx, g, all), cd);
		lego_expr *gj = lego_mod(ctx, lego_mod(ctx, g, all), cd);
		CHECK(t, lego_simplify(ctx, gi) == lego_div(ctx, g, cd));
		CHECK(t, lego_simplify(ctx, gj) == lego_mod(ctx, g, cd));
		/* Exhaustively, over small sizes: the simplified forms agree. */
		lego_expr *si = lego_simplify(ctx, gi), *sj = lego_simplify(ctx, gj);
		lego_env *env = lego_env_new(ctx);
		int bad = 0;
		for (int64_t m = 1; m <= 3; m++)
			for (int64_t n = 1; n <= 70; n++)
				for (int64_t v = 0; v < m * ((n + 31) / 32); v++) {
					int64_t a, b, c, d;
					lego_env_bind(env, Ms, m);
					lego_env_bind(env, Ns, n);
					lego_env_bind(env, g, v);
					bad += lego_expr_eval(ctx, gi, env, &a) ||
					       lego_expr_eval(ctx, si, env, &b) ||
					       lego_expr_eval(ctx, gj, env, &c) ||
					       lego_expr_eval(ctx, sj, env, &d) ||
					       a != b || c != d;
				}
		CHECK_EQ(t, bad, 0);
		lego_env_free(env);
	}
	lego_ctx_free(ctx);

	test_case(t, "prover_sign_rules");
	ctx = lego_ctx_new();
	{
		/* The anti-diagonal's second branch: both factors >= 0 though
		 * the expanded polynomial has negative coefficients. */
		lego_expr *i = lego_index(ctx, "i", C(ctx, 0), C(ctx, 65));
		lego_expr *j = lego_index(ctx, "j", C(ctx, 0), C(ctx, 65));
		lego_expr *s = lego_add(ctx, i, j);
		lego_expr *p = lego_mul(ctx, lego_sub(ctx, C(ctx, 128), s),
					lego_sub(ctx, C(ctx, 129), s));
		CHECK(t, lego_prove_nonneg(ctx, p));
		CHECK(t, lego_prove_nonneg(ctx, lego_div(ctx, p, C(ctx, 2))));
		/* One factor may be negative (127 - s at s = 128): not proved. */
		lego_expr *q = lego_mul(ctx, lego_sub(ctx, C(ctx, 127), s),
					lego_sub(ctx, C(ctx, 129), s));
		CHECK(t, !lego_prove_nonneg(ctx, q));
		lego_expr *B = lego_sym(ctx, "B");
		lego_expr *rb = lego_index(ctx, "rb", C(ctx, 0), B);
		lego_expr *sym = lego_mul(ctx, lego_sub(ctx, lego_sub(ctx, B, C(ctx, 1)), rb),
					  lego_sub(ctx, B, rb));
		CHECK(t, lego_prove_nonneg(ctx, sym));
		CHECK(t, lego_prove_nonneg(ctx, lego_mod(ctx, q, B)));
	}
	lego_ctx_free(ctx);

	test_case(t, "prover_symbolic_bounds");
	ctx = lego_ctx_new();
	lego_expr *K = lego_sym(ctx, "K"), *BK = lego_sym(ctx, "BK");
	CHECK_EQ(t, lego_assume_divides(ctx, BK, K), LEGO_OK);
	lego_expr *tk = lego_index(ctx, "tk", C(ctx, 0), lego_div(ctx, K, BK));
	lego_expr *c = lego_index(ctx, "c", C(ctx, 0), BK);
	lego_expr *off = lego_add(ctx, lego_mul(ctx, tk, BK), c);
	CHECK(t, lego_prove_lt(ctx, off, K));
	CHECK(t, !lego_prove_lt(ctx, off, lego_add(ctx, K, C(ctx, -1))));
	/* x in [0, BK], one too many: x < BK must not be proved. */
	lego_expr *x = lego_index(ctx, "x", C(ctx, 0), lego_add(ctx, BK, C(ctx, 1)));
	CHECK(t, !lego_prove_lt(ctx, x, BK));
	CHECK(t, lego_prove_lt(ctx, lego_div(ctx, x, BK), C(ctx, 2)));
	CHECK(t, lego_prove_lt(ctx, lego_mod(ctx, x, BK), BK));
	lego_ctx_free(ctx);

	test_case(t, "assume_forms");
	ctx = lego_ctx_new();
	lego_expr *N = lego_sym(ctx, "N"), *BN = lego_sym(ctx, "BN");
	lego_expr *a = lego_sym(ctx, "a"), *b = lego_sym(ctx, "b");
	lego_expr *mod0 = lego_binop(ctx, LEGO_EQ, lego_mod(ctx, N, BN), C(ctx, 0));
	lego_expr *le = lego_binop(ctx, LEGO_LE, a, b);
	CHECK_EQ(t, lego_assume(ctx, lego_binop(ctx, LEGO_AND, mod0, le)), LEGO_OK);
	CHECK(t, prove_le(ctx, BN, N));
	CHECK(t, prove_le(ctx, a, b));
	CHECK(t, !lego_prove_lt(ctx, a, b));
	CHECK(t, lego_simplify(ctx, lego_mul(ctx, lego_div(ctx, N, BN), BN)) == N);
	CHECK_EQ(t, lego_assume(ctx, lego_binop(ctx, LEGO_LT, a, b)), LEGO_OK);
	CHECK(t, lego_prove_lt(ctx, a, b));
	CHECK(t, lego_assume(ctx, lego_binop(ctx, LEGO_NE, a, b)) != LEGO_OK);
	CHECK(t, strlen(lego_ctx_error(ctx)) > 0);
	CHECK(t, lego_assume_divides(ctx, C(ctx, 0), N) != LEGO_OK);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------ rules */

void check_simplify_cases(lego_test *t, lego_ctx *ctx,
			  const simplify_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		lego_expr *got = lego_simplify(ctx, cases[i].in);
		if (got == cases[i].want)
			continue;
		char *g = lego_expr_print(ctx, got, LEGO_LANG_C);
		char *w = lego_expr_print(ctx, cases[i].want, LEGO_LANG_C);
		CHECKF(t, 0, "%s: got %s, want %s", cases[i].name, g, w);
		free(g);
		free(w);
	}
}

/* Each rule of table 1 and its consequences, with the form it must reach
 * (written by hand), and the ones that must not fire. */
static void test_rules(lego_test *t)
{
	test_case(t, "rules_table1");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *M = lego_sym(ctx, "M"), *BM = lego_sym(ctx, "BM");
	lego_expr *a = lego_sym(ctx, "a"), *b = lego_sym(ctx, "b");
	lego_assume_divides(ctx, BM, M);
	lego_expr *MB = lego_div(ctx, M, BM);
	lego_expr *r = lego_index(ctx, "r", C(ctx, 0), BM);
	lego_expr *q = lego_index(ctx, "q", C(ctx, 0), MB);
	lego_expr *x = lego_index(ctx, "x", C(ctx, 0), NULL);
	lego_expr *y = lego_index(ctx, "y", C(ctx, 0), lego_add(ctx, BM, C(ctx, 1)));
	lego_expr *qr = lego_add(ctx, lego_mul(ctx, BM, q), r);
	lego_expr *ab = lego_mul(ctx, a, b);
	simplify_case cases[] = {
		{"(d*q + r) mod d -> r", lego_mod(ctx, qr, BM), r},
		{"(d*q + x) mod d -> x mod d",
		 lego_mod(ctx, lego_add(ctx, lego_mul(ctx, BM, q), x), BM),
		 lego_mod(ctx, x, BM)},
		{"a*(x/a) + x mod a -> x",
		 lego_add(ctx, lego_mul(ctx, a, lego_div(ctx, x, a)),
			  lego_mod(ctx, x, a)), x},
		{"3*a*(x/a) + 3*(x mod a) + q -> 3*x + q",
		 lego_add(ctx, lego_mul(ctx, C(ctx, 3),
					lego_add(ctx, lego_mul(ctx, a, lego_div(ctx, x, a)),
						 lego_mod(ctx, x, a))), q),
		 lego_add(ctx, lego_mul(ctx, C(ctx, 3), x), q)},
		{"r / BM -> 0", lego_div(ctx, r, BM), C(ctx, 0)},
		{"r mod BM -> r", lego_mod(ctx, r, BM), r},
		{"(d*q + r) / d -> q", lego_div(ctx, qr, BM), q},
		{"(d*q + x) / d -> q + x/d",
		 lego_div(ctx, lego_add(ctx, lego_mul(ctx, BM, q), x), BM),
		 lego_add(ctx, q, lego_div(ctx, x, BM))},
		{"(x/a)/b -> x/(a*b)", lego_div(ctx, lego_div(ctx, x, a), b),
		 lego_div(ctx, x, ab)},
		{"(x%(a*b))/a -> (x/a)%b", lego_div(ctx, lego_mod(ctx, x, ab), a),
		 lego_mod(ctx, lego_div(ctx, x, a), b)},
		{"(x%(a*b))%a -> x%a", lego_mod(ctx, lego_mod(ctx, x, ab), a),
		 lego_mod(ctx, x, a)},
		{"(x%a)%a -> x%a", lego_mod(ctx, lego_mod(ctx, x, a), a),
		 lego_mod(ctx, x, a)},
		{"(M/BM)*BM -> M", lego_mul(ctx, MB, BM), M},
		{"min(M, BM) -> BM", lego_min(ctx, M, BM), BM},
		{"max(M/BM, 1) -> M/BM", lego_max(ctx, MB, C(ctx, 1)), MB},
		{"select(r < BM, q, x) -> q",
		 lego_select(ctx, lego_binop(ctx, LEGO_LT, r, BM), q, x), q},
		{"select(BM <= r, q, x) -> x",
		 lego_select(ctx, lego_binop(ctx, LEGO_LE, BM, r), q, x), x},
		{"x/a*a + x%a -> x (inside a sum)",
		 lego_add(ctx, lego_add(ctx, lego_mul(ctx, lego_div(ctx, x, a), a), q),
			  lego_mod(ctx, x, a)),
		 lego_add(ctx, x, q)},
		{"a*x + a*y -> a*(x + y)",
		 lego_add(ctx, lego_mul(ctx, a, x), lego_mul(ctx, a, y)),
		 lego_mul(ctx, a, lego_add(ctx, x, y))},
		/* Must not fire: y may equal BM. */
		{"y mod BM stays", lego_mod(ctx, y, BM), lego_mod(ctx, y, BM)},
		{"y / BM stays", lego_div(ctx, y, BM), lego_div(ctx, y, BM)},
		{"(BM*q + y) / BM -> q + y/BM",
		 lego_div(ctx, lego_add(ctx, lego_mul(ctx, BM, q), y), BM),
		 lego_add(ctx, q, lego_div(ctx, y, BM))},
		{"min(a, b) stays", lego_min(ctx, a, b), lego_min(ctx, a, b)},
		/* b = -1 < 0: at x = -1, (x % -2)/2 = -1 but (x/2) % -1 = 0;
		 * the floor division of a value that may be negative by 2 is
		 * a shift (issue 21) */
		{"(x % (2*-1))/2 stays",
		 lego_div(ctx, lego_mod(ctx, lego_sub(ctx, x, a), C(ctx, -2)), C(ctx, 2)),
		 lego_binop(ctx, LEGO_SHR, lego_mod(ctx, lego_sub(ctx, x, a),
						    C(ctx, -2)), C(ctx, 1))},
		{"x mod a stays", lego_mod(ctx, x, a), lego_mod(ctx, x, a)},
		{"(a*b)/b stays unexpanded-cheap", lego_div(ctx, ab, b), a},
	};
	check_simplify_cases(t, ctx, cases, sizeof cases / sizeof cases[0]);
	lego_ctx_free(ctx);

	test_case(t, "rules_split_divisor");
	ctx = lego_ctx_new();
	lego_expr *K = lego_sym(ctx, "K"), *N = lego_sym(ctx, "N");
	lego_expr *BK = lego_sym(ctx, "BK"), *BN = lego_sym(ctx, "BN");
	lego_assume_divides(ctx, BK, K);
	lego_assume_divides(ctx, BN, N);
	lego_assume_divides(ctx, BN, N); /* again: a no-op */
	lego_expr *f = lego_index(ctx, "f", C(ctx, 0), lego_mul(ctx, K, N));
	/* Col(K, N) tiled: the row-major flat index of the untiled (k, n)
	 * is N*(f%K) + f/K; its tile row (k/BK) must come out as (f%K)/BK. */
	lego_expr *u = lego_add(ctx, lego_mul(ctx, N, lego_mod(ctx, f, K)),
				lego_div(ctx, f, K));
	lego_expr *got = lego_simplify(ctx, lego_div(ctx, u, lego_mul(ctx, BK, N)));
	CHECK(t, got == lego_div(ctx, lego_mod(ctx, f, K), BK));
	/* and the tile column n/BN = (f/K)/BN = f/(K*BN) */
	got = lego_simplify(ctx, lego_mod(ctx, lego_div(ctx, u, BN),
					 lego_div(ctx, N, BN)));
	CHECK(t, got == lego_div(ctx, f, lego_mul(ctx, K, BN)));
	/* An equation substitutes: with a == 2*b, a - 2*b is 0. */
	lego_expr *a2 = lego_sym(ctx, "a"), *b2 = lego_sym(ctx, "b");
	CHECK_EQ(t, lego_assume(ctx, lego_binop(ctx, LEGO_EQ, a2,
						lego_mul(ctx, C(ctx, 2), b2))),
		 LEGO_OK);
	CHECK(t, lego_simplify(ctx, lego_sub(ctx, a2, lego_mul(ctx, C(ctx, 2), b2)))
		 == C(ctx, 0));
	CHECK(t, lego_simplify(ctx, lego_mod(ctx, a2, C(ctx, 2))) == C(ctx, 0));
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------ targets */

static void test_gemm(lego_test *t)
{
	test_case(t, "target_tiled_gemm");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *sz[4] = {lego_sym(ctx, "M"), lego_sym(ctx, "K"),
			    lego_sym(ctx, "BM"), lego_sym(ctx, "BK")};
	lego_assume_divides(ctx, sz[2], sz[0]);
	lego_assume_divides(ctx, sz[3], sz[1]);
	lego_expr *idx[4] = {
		lego_index(ctx, "tm", C(ctx, 0), lego_div(ctx, sz[0], sz[2])),
		lego_index(ctx, "tk", C(ctx, 0), lego_div(ctx, sz[1], sz[3])),
		lego_index(ctx, "r", C(ctx, 0), sz[2]),
		lego_index(ctx, "c", C(ctx, 0), sz[3])};
	lego_expr *raw = gemm_raw(ctx, sz, idx);
	lego_expr *s = lego_simplify(ctx, raw);
	show(t, ctx, "gemm raw", raw);
	show(t, ctx, "gemm", s);
	CHECKF(t, ops1(s) <= 6, "gemm: %zu ops", ops1(s));
	/* Exhaustive over small sizes: raw, simplified and SEMANTICS.md's
	 * (tm*BM + r)*K + tk*BK + c agree. */
	lego_expr *all[8] = {sz[0], sz[1], sz[2], sz[3],
			     idx[0], idx[1], idx[2], idx[3]};
	int64_t v[8];
	int bad = 0;
	for (int64_t bm = 1; bm <= 3; bm++)
	for (int64_t bk = 1; bk <= 3; bk++)
	for (int64_t mt = 1; mt <= 3; mt++)
	for (int64_t kt = 1; kt <= 2; kt++) {
		v[0] = bm * mt; v[1] = bk * kt; v[2] = bm; v[3] = bk;
		for (v[4] = 0; v[4] < mt; v[4]++)
		for (v[5] = 0; v[5] < kt; v[5]++)
		for (v[6] = 0; v[6] < bm; v[6]++)
		for (v[7] = 0; v[7] < bk; v[7]++) {
			int64_t a, b;
			int64_t want = (v[4] * bm + v[6]) * v[1] + v[5] * bk + v[7];
			if (!eval_at(ctx, raw, 8, all, v, &a) ||
			    !eval_at(ctx, s, 8, all, v, &b) || a != want ||
			    b != want)
				bad++;
		}
	}
	CHECK_EQ(t, bad, 0);
	lego_ctx_free(ctx);
}

static void test_pid(lego_test *t)
{
	test_case(t, "target_grouped_pid");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *npm = lego_sym(ctx, "npm"), *npn = lego_sym(ctx, "npn");
	lego_expr *GM = lego_sym(ctx, "GM");
	lego_assume_divides(ctx, GM, npm);
	lego_expr *pid = lego_index(ctx, "pid", C(ctx, 0), lego_mul(ctx, npm, npn));
	lego_expr *raw[2], *s[2];
	pid_raw(ctx, npm, npn, GM, pid, raw);
	s[0] = lego_simplify(ctx, raw[0]);
	s[1] = lego_simplify(ctx, raw[1]);
	show(t, ctx, "pid_m", s[0]);
	show(t, ctx, "pid_n", s[1]);
	size_t n = lego_expr_ops(s, 2);
	CHECKF(t, n <= 7, "pid: %zu ops", n);
	static const int64_t shapes[][3] = {
		{8, 6, 4}, {4, 5, 2}, {6, 3, 3}, {16, 16, 8}, {1, 1, 1},
		{3, 7, 1}, {12, 2, 6}, {5, 4, 5}};
	lego_expr *syms[4] = {npm, npn, GM, pid};
	int bad = 0;
	for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		int64_t v[4] = {shapes[k][0], shapes[k][1], shapes[k][2], 0};
		for (v[3] = 0; v[3] < v[0] * v[1]; v[3]++) {
			int64_t pm, pn, g0, g1, r0, r1;
			triton_pid(v[3], v[0], v[1], v[2], &pm, &pn);
			if (!eval_at(ctx, s[0], 4, syms, v, &g0) ||
			    !eval_at(ctx, s[1], 4, syms, v, &g1) ||
			    !eval_at(ctx, raw[0], 4, syms, v, &r0) ||
			    !eval_at(ctx, raw[1], 4, syms, v, &r1) ||
			    g0 != pm || g1 != pn || r0 != pm || r1 != pn)
				bad++;
		}
	}
	CHECK_EQ(t, bad, 0);
	lego_ctx_free(ctx);
}

/* Through the layout API, when the symbolic inverse is available. */
static void test_pid_layout(lego_test *t)
{
	test_case(t, "target_grouped_pid_layout_api");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *npm = lego_sym(ctx, "npm"), *npn = lego_sym(ctx, "npn");
	lego_expr *GM = lego_sym(ctx, "GM");
	lego_assume_divides(ctx, GM, npm);
	lego_expr *one = C(ctx, 1);
	lego_expr *d1[2] = {lego_max(ctx, lego_div(ctx, npm, GM), one), one};
	lego_expr *d2[2] = {lego_min(ctx, npm, GM), npn};
	lego_layout *lv[2] = {lego_col(ctx, 2, d1), lego_col(ctx, 2, d2)};
	lego_layout *o = lego_orderby(ctx, 2, lv);
	lego_expr *sizes[2] = {npm, npn};
	lego_layout *p = o ? lego_tileby(ctx, 1, &o, 1, 2, sizes) : NULL;
	lego_expr *pid = lego_index(ctx, "pid", C(ctx, 0), lego_mul(ctx, npm, npn));
	lego_expr *inv[2] = {NULL, NULL}, *s[2];
	CHECKF(t, p && lego_layout_inv(ctx, p, pid, inv) == LEGO_OK, "%s",
	       lego_ctx_error(ctx));
	if (inv[0] && inv[1]) {
		s[0] = lego_simplify(ctx, inv[0]);
		s[1] = lego_simplify(ctx, inv[1]);
		CHECKF(t, lego_expr_ops(s, 2) <= 7, "layout pid: %zu ops",
		       lego_expr_ops(s, 2));
		lego_expr *syms[4] = {npm, npn, GM, pid};
		int64_t v[4] = {8, 6, 4, 0}, pm, pn, g0, g1;
		int bad = 0;
		for (v[3] = 0; v[3] < 48; v[3]++) {
			triton_pid(v[3], 8, 6, 4, &pm, &pn);
			bad += !eval_at(ctx, s[0], 4, syms, v, &g0) ||
			       !eval_at(ctx, s[1], 4, syms, v, &g1) ||
			       g0 != pm || g1 != pn;
		}
		CHECK_EQ(t, bad, 0);
	}
	lego_ctx_free(ctx);
}

/* The program-id layout over npm = M/BM, as a kernel writes it: GM | M/BM
 * nests under BM | M, whichever fact comes first. */
static void test_pid_nested(lego_test *t, int divides_first)
{
	test_case(t, divides_first ? "nested_divisibility_group_first"
				   : "nested_divisibility_tile_first");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *M = lego_sym(ctx, "M"), *BM = lego_sym(ctx, "BM");
	lego_expr *npn = lego_sym(ctx, "npn"), *GM = lego_sym(ctx, "GM");
	lego_expr *npm = lego_div(ctx, M, BM);
	if (divides_first)
		CHECK_EQ(t, lego_assume_divides(ctx, GM, npm), LEGO_OK);
	CHECK_EQ(t, lego_assume_divides(ctx, BM, M), LEGO_OK);
	if (!divides_first)
		CHECK_EQ(t, lego_assume_divides(ctx, GM, npm), LEGO_OK);
	CHECK(t, lego_simplify(ctx, lego_min(ctx, npm, GM)) == GM);
	lego_expr *pid = lego_index(ctx, "pid", C(ctx, 0), lego_mul(ctx, npm, npn));
	lego_expr *raw[2], *s[2];
	pid_raw(ctx, npm, npn, GM, pid, raw);
	s[0] = lego_simplify(ctx, raw[0]);
	s[1] = lego_simplify(ctx, raw[1]);
	CHECKF(t, lego_expr_ops(s, 2) <= 7, "pid over M/BM: %zu ops",
	       lego_expr_ops(s, 2));
	/* M = 48, BM = 4: npm = 12, GM = 3 divides it. */
	lego_expr *syms[5] = {M, BM, npn, GM, pid};
	int64_t v[5] = {48, 4, 5, 3, 0}, pm, pn, g0, g1;
	int bad = 0;
	for (v[4] = 0; v[4] < 12 * 5; v[4]++) {
		triton_pid(v[4], 12, 5, 3, &pm, &pn);
		bad += !eval_at(ctx, s[0], 5, syms, v, &g0) ||
		       !eval_at(ctx, s[1], 5, syms, v, &g1) || g0 != pm ||
		       g1 != pn;
	}
	CHECK_EQ(t, bad, 0);
	lego_ctx_free(ctx);
}

/* Divisibility facts combine whatever their order: after a | N and b | N
 * (or b then a), N % lcm(a, b) is 0, and so is N % d for every divisor d
 * of the lcm; N % (2 * lcm) is not proved 0 (N = lcm is a witness). */
static void test_divides_combine(lego_test *t)
{
	static const int64_t pairs[][2] = {{8, 16}, {16, 8}, {4, 6}, {6, 4},
					   {3, 5}, {12, 18}, {8, 8}, {1, 7}};
	test_case(t, "divisibility_facts_combine");
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		int64_t a = pairs[i][0], b = pairs[i][1], l = a;
		while (l % b) /* the lcm, by counting up */
			l += a;
		lego_ctx *ctx = lego_ctx_new();
		lego_expr *N = lego_sym(ctx, "N");
		CHECK_EQ(t, lego_assume_divides(ctx, C(ctx, a), N), LEGO_OK);
		CHECK_EQ(t, lego_assume_divides(ctx, C(ctx, b), N), LEGO_OK);
		for (int64_t d = 1; d <= l; d++) {
			lego_expr *m = lego_simplify(ctx, lego_mod(ctx, N, C(ctx, d)));
			int64_t v = -1;
			CHECKF(t, (l % d == 0) == (lego_expr_is_const(m, &v) && v == 0),
			       "%lld | N, %lld | N: N %% %lld", (long long)a,
			       (long long)b, (long long)d);
		}
		int64_t v = -1;
		lego_expr *m = lego_simplify(ctx, lego_mod(ctx, N, C(ctx, 2 * l)));
		CHECK(t, !(lego_expr_is_const(m, &v) && v == 0));
		/* N/l * l is N again */
		lego_expr *back = lego_simplify(
			ctx, lego_mul(ctx, lego_div(ctx, N, C(ctx, l)), C(ctx, l)));
		CHECK(t, back == N);
		lego_ctx_free(ctx);
	}
}

/* Two symbolic divisors of one size, in either order: after BN | N and
 * NB | N, N % NB and N % BN are 0 and NB * (N/NB) is N (the second fact
 * cannot be a substitution of N: the first one made N BN * (N/BN)).  The
 * simplified forms agree with the originals at every size the facts
 * allow (N a multiple of both), and a product of the two divisors is not
 * claimed to divide N (N = 6, BN = 2, NB = 3 ... is fine, BN = NB = 2,
 * N = 2 is a witness). */
static void test_divides_two_symbols(lego_test *t)
{
	test_case(t, "divisibility_two_symbolic_divisors");
	for (int order = 0; order < 2; order++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_expr *N = lego_sym(ctx, "N"), *BN = lego_sym(ctx, "BN");
		lego_expr *NB = lego_sym(ctx, "NB");
		CHECK_EQ(t, lego_assume_divides(ctx, order ? NB : BN, N), LEGO_OK);
		CHECK_EQ(t, lego_assume_divides(ctx, order ? BN : NB, N), LEGO_OK);
		lego_expr *e[] = {
			lego_mod(ctx, N, NB), lego_mod(ctx, N, BN),
			lego_mul(ctx, NB, lego_div(ctx, N, NB)),
			lego_mul(ctx, BN, lego_div(ctx, N, BN)),
			lego_add(ctx, lego_mul(ctx, lego_div(ctx, N, NB), NB),
				 lego_mod(ctx, N, lego_mul(ctx, BN, NB))),
		};
		lego_expr *s[5];
		for (size_t k = 0; k < 5; k++)
			s[k] = lego_simplify(ctx, e[k]);
		int64_t v = -1;
		CHECK(t, lego_expr_is_const(s[0], &v) && v == 0);
		CHECK(t, lego_expr_is_const(s[1], &v) && v == 0);
		CHECK(t, s[2] == N && s[3] == N);
		CHECK(t, !(lego_expr_is_const(s[4], &v)));
		lego_env *env = lego_env_new(ctx);
		for (int64_t bn = 1; bn <= 6; bn++)
			for (int64_t nb = 1; nb <= 6; nb++)
				for (int64_t n = 1; n <= 72; n++) {
					if (n % bn || n % nb)
						continue;
					lego_env_bind(env, N, n);
					lego_env_bind(env, BN, bn);
					lego_env_bind(env, NB, nb);
					for (size_t k = 0; k < 5; k++) {
						int64_t a = -1, b = -2;
						CHECKF(t, lego_expr_eval(ctx, e[k], env, &a) == LEGO_OK &&
							  lego_expr_eval(ctx, s[k], env, &b) == LEGO_OK &&
							  a == b,
						       "expr %zu at N=%lld BN=%lld NB=%lld", k,
						       (long long)n, (long long)bn, (long long)nb);
					}
				}
		lego_env_free(env);
		lego_ctx_free(ctx);
	}
}

/* A = OrderBy(Row(M,K)).TileBy(...) apply and B = OrderBy(Col(K,N))
 * .TileBy([K/BK, N/BN], [BK, BN]) inverse, through the layout API.  For
 * Col(K, N) the flat index is k + K*n, so the logical index of x is
 * ((x%K)/BK, (x/K)/BN, x%K%BK, (x/K)%BN). */
static void test_gemm_layout(lego_test *t)
{
	test_case(t, "layout_api_gemm_a_apply_b_inv");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *M = lego_sym(ctx, "M"), *K = lego_sym(ctx, "K");
	lego_expr *N = lego_sym(ctx, "N"), *BM = lego_sym(ctx, "BM");
	lego_expr *BK = lego_sym(ctx, "BK"), *BN = lego_sym(ctx, "BN");
	lego_assume_divides(ctx, BM, M);
	lego_assume_divides(ctx, BK, K);
	lego_assume_divides(ctx, BN, N);
	lego_expr *mk[2] = {M, K}, *kn[2] = {K, N};
	lego_expr *sa[4] = {lego_div(ctx, M, BM), lego_div(ctx, K, BK), BM, BK};
	lego_expr *sb[4] = {lego_div(ctx, K, BK), lego_div(ctx, N, BN), BK, BN};
	lego_layout *ra = lego_row(ctx, 2, mk), *cb = lego_col(ctx, 2, kn);
	lego_layout *oa = ra ? lego_orderby(ctx, 1, &ra) : NULL;
	lego_layout *ob = cb ? lego_orderby(ctx, 1, &cb) : NULL;
	lego_layout *A = oa ? lego_tileby(ctx, 1, &oa, 2, 2, sa) : NULL;
	lego_layout *B = ob ? lego_tileby(ctx, 1, &ob, 2, 2, sb) : NULL;
	CHECKF(t, A && B, "%s", lego_ctx_error(ctx));
	if (!A || !B) {
		lego_ctx_free(ctx);
		return;
	}
	lego_expr *idx[4];
	for (int k = 0; k < 4; k++) {
		static const char *names[4] = {"tm", "tk", "r", "c"};
		idx[k] = lego_index(ctx, names[k], C(ctx, 0), sa[k]);
	}
	lego_expr *a = lego_simplify(ctx, lego_layout_apply(ctx, A, idx));
	show(t, ctx, "A apply", a);
	CHECKF(t, a && ops1(a) <= 6, "A apply: %zu ops", a ? ops1(a) : 0);
	lego_expr *x = lego_index(ctx, "x", C(ctx, 0), lego_mul(ctx, K, N));
	lego_expr *inv[4] = {0};
	CHECK_EQ(t, lego_layout_inv(ctx, B, x, inv), LEGO_OK);
	for (int k = 0; k < 4; k++)
		inv[k] = lego_simplify(ctx, inv[k]);
	CHECKF(t, lego_expr_ops(inv, 4) <= 7, "B inv: %zu ops",
	       lego_expr_ops(inv, 4));
	lego_expr *syms[4] = {K, N, BK, BN};
	int bad = 0;
	for (int64_t bk = 1; bk <= 3; bk++)
	for (int64_t bn = 1; bn <= 3; bn++)
	for (int64_t kt = 1; kt <= 2; kt++)
	for (int64_t nt = 1; nt <= 3; nt++) {
		int64_t v[5] = {bk * kt, bn * nt, bk, bn, 0}, got;
		lego_expr *all[5] = {syms[0], syms[1], syms[2], syms[3], x};
		for (v[4] = 0; v[4] < v[0] * v[1]; v[4]++) {
			int64_t k = v[4] % v[0], n = v[4] / v[0];
			int64_t want[4] = {k / bk, n / bn, k % bk, n % bn};
			for (int j = 0; j < 4; j++)
				bad += !eval_at(ctx, inv[j], 5, all, v, &got) ||
				       got != want[j];
		}
	}
	CHECK_EQ(t, bad, 0);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------- differential tests */

typedef struct family {
	lego_ctx *ctx;
	lego_expr *syms[4];    /* BM, BK, M, N */
	lego_expr *idx[7];     /* r, c, i, tm, j, z, w */
	lego_expr *divs[9];    /* divisors, one negative */
	size_t ndivs;
} family;

static lego_expr *gen(family *fm, uint64_t *st, int depth)
{
	lego_ctx *ctx = fm->ctx;
	if (depth == 0 || rnd(st) % 4 == 0) {
		switch (rnd(st) % 4) {
		case 0: return fm->idx[rnd(st) % 7];
		case 1: return fm->idx[rnd(st) % 7];
		case 2: return fm->syms[rnd(st) % 4];
		default: return C(ctx, pick(st, 0, 4));
		}
	}
	lego_expr *a = gen(fm, st, depth - 1), *b = gen(fm, st, depth - 1);
	lego_expr *d = fm->divs[rnd(st) % fm->ndivs];
	lego_expr *d2 = fm->divs[rnd(st) % fm->ndivs];
	int64_t k = pick(st, 0, 4);
	switch (rnd(st) % 20) {
	case 0: return lego_add(ctx, a, b);
	case 1: return lego_sub(ctx, a, b);
	case 2: return lego_mul(ctx, a, fm->syms[rnd(st) % 2]);
	case 3: return lego_div(ctx, a, d);
	case 4: return lego_mod(ctx, a, d);
	case 5: return lego_add(ctx, lego_mul(ctx, d, a), b);
	case 6: return lego_div(ctx, lego_add(ctx, lego_mul(ctx, d, a), b), d);
	case 7: return lego_mod(ctx, lego_add(ctx, lego_mul(ctx, d, a), b), d);
	case 8: return lego_add(ctx, lego_mul(ctx, d, lego_div(ctx, a, d)),
				lego_mod(ctx, a, d));
	case 9: return lego_div(ctx, lego_mod(ctx, a, lego_mul(ctx, d, d2)), d);
	case 10: return lego_mod(ctx, lego_mod(ctx, a, lego_mul(ctx, d, d2)), d);
	case 11: return lego_div(ctx, lego_div(ctx, a, d), d2);
	case 12: return rnd(st) % 2 ? lego_min(ctx, a, b) : lego_max(ctx, a, b);
	case 13: /* (BM*a + r)/(BM*d), r or z (one too many) below BM */
		return lego_div(ctx, lego_add(ctx, lego_mul(ctx, fm->syms[0], a),
					      fm->idx[rnd(st) % 2 ? 0 : 5]),
				lego_mul(ctx, fm->syms[0], d));
	case 14:
		return lego_select(ctx, lego_binop(ctx, LEGO_LT, a, b), a, b);
	/* bit operations (issue 21): shifts and masks by constants, xor and
	 * or of values of any sign, the swizzle x ^ (m & (x >> k)) */
	case 15:
		return lego_binop(ctx, rnd(st) % 2 ? LEGO_SHR : LEGO_SHL, a,
				  C(ctx, k));
	case 16:
		return lego_binop(ctx, LEGO_BAND, a,
				  C(ctx, rnd(st) % 2 ? (1 << k) - 1
						     : pick(st, 0, 60)));
	case 17:
		return lego_binop(ctx, rnd(st) % 2 ? LEGO_BXOR : LEGO_BOR, a, b);
	case 18:
		return lego_binop(ctx, LEGO_BXOR, a, lego_binop(ctx, LEGO_BAND,
			C(ctx, pick(st, 0, 60)),
			lego_binop(ctx, LEGO_SHR, a, C(ctx, k))));
	default: /* a field moved: ((a >> k) & m) << s */
		return lego_binop(ctx, LEGO_SHL, lego_binop(ctx, LEGO_BAND,
			C(ctx, pick(st, 0, 7)),
			lego_binop(ctx, LEGO_SHR, a, C(ctx, k))),
			C(ctx, pick(st, 0, 4)));
	}
}

static void family_init(family *fm, int concrete)
{
	lego_ctx *ctx = fm->ctx = lego_ctx_new();
	lego_expr *BM = fm->syms[0] = lego_sym(ctx, "BM");
	lego_expr *BK = fm->syms[1] = lego_sym(ctx, "BK");
	lego_expr *M = fm->syms[2] = lego_sym(ctx, "M");
	fm->syms[3] = lego_sym(ctx, "N");
	lego_assume_divides(ctx, BM, M);
	lego_expr *MB = lego_div(ctx, M, BM);
	lego_expr *hi_r = concrete ? C(ctx, 4) : BM;
	fm->idx[0] = lego_index(ctx, "r", C(ctx, 0), hi_r);
	fm->idx[1] = lego_index(ctx, "c", C(ctx, 0), concrete ? C(ctx, 3) : BK);
	fm->idx[2] = lego_index(ctx, "i", C(ctx, 0), concrete ? C(ctx, 12) : M);
	fm->idx[3] = lego_index(ctx, "tm", C(ctx, 0), concrete ? C(ctx, 3) : MB);
	fm->idx[4] = lego_index(ctx, "j", C(ctx, 0), C(ctx, 5));
	/* One more than r's range: rules must not fire on it. */
	fm->idx[5] = lego_index(ctx, "z", C(ctx, 0), lego_add(ctx, hi_r, C(ctx, 1)));
	fm->idx[6] = lego_index(ctx, "w", C(ctx, -4), C(ctx, 3)); /* signs */
	lego_expr *divs[] = {BM, BK, lego_mul(ctx, BM, BK), MB, M, C(ctx, 2),
			     C(ctx, 3), lego_add(ctx, BM, C(ctx, 1)), C(ctx, -2)};
	fm->ndivs = sizeof divs / sizeof divs[0];
	memcpy(fm->divs, divs, sizeof divs);
}

/* A binding satisfying the facts: BM | M, indices within their ranges. */
static void family_bind(uint64_t *st, int concrete, int64_t *v)
{
	v[0] = concrete ? pick(st, 4, 4) : pick(st, 1, 5);   /* BM */
	v[1] = concrete ? pick(st, 3, 3) : pick(st, 1, 4);   /* BK */
	int64_t mt = concrete ? 3 : pick(st, 1, 4);
	v[2] = v[0] * mt;                                      /* M */
	v[3] = pick(st, 1, 6);                                 /* N */
	v[4] = pick(st, 0, v[0] - 1);                          /* r */
	v[5] = pick(st, 0, v[1] - 1);                          /* c */
	v[6] = pick(st, 0, v[2] - 1);                          /* i */
	v[7] = pick(st, 0, mt - 1);                            /* tm */
	v[8] = pick(st, 0, 4);                                 /* j */
	v[9] = pick(st, 0, v[0]);                              /* z */
	v[10] = pick(st, -4, 2);                               /* w */
}

/* Does e mention the symbol sym? */
static int uses(const lego_expr *e, const lego_expr *sym)
{
	if (e == sym)
		return 1;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		if (uses(lego_expr_arg(e, i), sym))
			return 1;
	return 0;
}

/* 1 when s agrees with e at v (or e is undefined there), else reports. */
static int agree_at(lego_test *t, family *fm, lego_expr *e, lego_expr *s,
		    const int64_t *v, int *checked)
{
	lego_expr *all[11] = {fm->syms[0], fm->syms[1], fm->syms[2],
			      fm->syms[3], fm->idx[0],  fm->idx[1],
			      fm->idx[2],  fm->idx[3],  fm->idx[4],
			      fm->idx[5],  fm->idx[6]};
	int64_t x, y;
	if (!eval_at(fm->ctx, e, 11, all, v, &x))
		return 1;
	++*checked;
	if (eval_at(fm->ctx, s, 11, all, v, &y) && x == y)
		return 1;
	char *pe = lego_expr_print(fm->ctx, e, LEGO_LANG_C);
	char *ps = lego_expr_print(fm->ctx, s, LEGO_LANG_C);
	CHECKF(t, 0, "%s -> %s differs at BM=%lld BK=%lld M=%lld N=%lld "
	       "r=%lld c=%lld i=%lld tm=%lld j=%lld z=%lld w=%lld", pe, ps,
	       (long long)v[0], (long long)v[1], (long long)v[2],
	       (long long)v[3], (long long)v[4], (long long)v[5],
	       (long long)v[6], (long long)v[7], (long long)v[8],
	       (long long)v[9], (long long)v[10]);
	free(pe);
	free(ps);
	return 0;
}

/* Concrete ranges: every value of the index variables e uses (BM = 4,
 * BK = 3, M = 12, N = 5), when there are at most 4096 combinations. */
static int exhaustive(lego_test *t, family *fm, lego_expr *e, lego_expr *s,
		      int *checked)
{
	static const int64_t lo[7] = {0, 0, 0, 0, 0, 0, -4};
	static const int64_t len[7] = {4, 3, 12, 3, 5, 5, 7};
	int64_t n[7], total = 1, v[11] = {4, 3, 12, 5};
	for (int k = 0; k < 7; k++) {
		n[k] = uses(e, fm->idx[k]) ? len[k] : 1;
		total *= n[k];
	}
	if (total > 4096)
		return -1;
	for (int64_t c = 0; c < total; c++) {
		int64_t rest = c;
		for (int k = 0; k < 7; k++) {
			v[4 + k] = lo[k] + rest % n[k];
			rest /= n[k];
		}
		if (!agree_at(t, fm, e, s, v, checked))
			return 0;
	}
	return 1;
}

static void test_differential(lego_test *t, int concrete)
{
	test_case(t, concrete ? "differential_concrete_ranges"
			      : "differential_symbolic_ranges");
	family fm;
	family_init(&fm, concrete);
	uint64_t st = concrete ? 7 : 11;
	int exprs = 0, fired = 0, checked = 0, full = 0;
	for (int k = 0; k < 1500; k++) {
		lego_expr *e = gen(&fm, &st, 1 + (int)(rnd(&st) % 4));
		lego_expr *s = lego_simplify(fm.ctx, e);
		CHECK(t, s != NULL);
		if (!s)
			continue;
		exprs++;
		fired += s != e;
		int done = concrete ? exhaustive(t, &fm, e, s, &checked) : -1;
		full += done == 1;
		for (int b = 0; done < 0 && b < 60; b++) {
			int64_t v[11];
			family_bind(&st, concrete, v);
			if (!agree_at(t, &fm, e, s, v, &checked))
				break;
		}
	}
	if (t->verbose)
		printf("  %d expressions (%d exhaustively), %d rewritten, "
		       "%d evaluations\n", exprs, full, fired, checked);
	CHECK(t, fired > exprs / 4); /* the rules do fire */
	lego_ctx_free(fm.ctx);
}

/* ------------------------------------------------------------ speed */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_speed(lego_test *t)
{
	test_case(t, "speed_gemm_and_pid");
	double best = 1e9;
	for (int rep = 0; rep < 5; rep++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_expr *sz[4] = {lego_sym(ctx, "M"), lego_sym(ctx, "K"),
				    lego_sym(ctx, "BM"), lego_sym(ctx, "BK")};
		lego_expr *npm = lego_sym(ctx, "npm"), *npn = lego_sym(ctx, "npn");
		lego_expr *GM = lego_sym(ctx, "GM");
		lego_assume_divides(ctx, sz[2], sz[0]);
		lego_assume_divides(ctx, sz[3], sz[1]);
		lego_assume_divides(ctx, GM, npm);
		lego_expr *idx[4] = {
			lego_index(ctx, "tm", C(ctx, 0), lego_div(ctx, sz[0], sz[2])),
			lego_index(ctx, "tk", C(ctx, 0), lego_div(ctx, sz[1], sz[3])),
			lego_index(ctx, "r", C(ctx, 0), sz[2]),
			lego_index(ctx, "c", C(ctx, 0), sz[3])};
		lego_expr *pid = lego_index(ctx, "pid", C(ctx, 0),
					    lego_mul(ctx, npm, npn));
		lego_expr *raw = gemm_raw(ctx, sz, idx), *p[2];
		pid_raw(ctx, npm, npn, GM, pid, p);
		double t0 = now();
		lego_simplify(ctx, raw);
		lego_simplify(ctx, p[0]);
		lego_simplify(ctx, p[1]);
		double dt = now() - t0;
		best = dt < best ? dt : best;
		lego_ctx_free(ctx);
	}
	if (t->verbose)
		printf("  gemm tile + pid simplified in %.3f ms\n", best * 1e3);
	CHECKF(t, best < 0.05, "%.3f ms", best * 1e3); /* catches blow-ups */
}

void suite_simplify(lego_test *t)
{
	test_prover(t);
	test_rules(t);
	test_gemm(t);
	test_pid(t);
	test_pid_layout(t);
	test_pid_nested(t, 0);
	test_pid_nested(t, 1);
	test_divides_combine(t);
	test_divides_two_symbols(t);
	test_gemm_layout(t);
	test_differential(t, 0);
	test_differential(t, 1);
	test_speed(t);
}
