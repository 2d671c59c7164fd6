/* test_proof_antidiag.c - the built-in antidiag's certificate
 * (src/proof/antidiag.c) proves its formulas a bijection for every n,
 * both directions (a layout using it: proof.construction), and refutes a
 * planted wrong inverse (the coordinates swapped) with a counterexample
 * that the test evaluates again, with the numeric apply of the real
 * antidiag and the planted inverse at constant sizes. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "layout/layout.h"
#include "lego.h"
#include "proof/proof.h"

/* The planted inverse: antidiag's, its coordinates swapped (a bijection
 * still, but not apply's inverse off the diagonal). */
static int swapped_inv(lego_ctx *ctx, void *user, size_t d,
		       lego_expr *const *dims, lego_expr *x, lego_expr **idx)
{
	const lego_genp_fn *real = user;
	lego_expr *ij[2];
	int rc = real->inv_sym(ctx, real->user, d, dims, x, ij);
	idx[0] = ij[1];
	idx[1] = ij[0];
	return rc;
}

/* The value the counterexample gives `name`, or -1. */
static int64_t value_of(const char *why, const char *name)
{
	long long v;
	const char *at = strstr(why, name);
	return at && sscanf(at + strlen(name), "=%lld", &v) == 1 ? v : -1;
}

static void planted_refuted(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *l = lego_genp_antidiag(ctx, lego_sym(ctx, "n"));
	CHECKF(t, l != NULL, "%s", lego_ctx_error(ctx));
	if (!l) {
		lego_ctx_free(ctx);
		return;
	}
	const lego_genp_fn *real = &l->genp->fn;
	proof_arg a = {LEGO_UNKNOWN, LEGO_BY_NONE, ""};
	CHECK_EQ(t, proof_antidiag_fn(ctx, real, &a), LEGO_OK);
	CHECKF(t, a.status == LEGO_PROVED, "real antidiag: %s", a.why);
	lego_genp_fn planted = *real;
	planted.user = (void *)real;
	planted.inv_sym = swapped_inv;
	a = (proof_arg){LEGO_UNKNOWN, LEGO_BY_NONE, ""};
	CHECK_EQ(t, proof_antidiag_fn(ctx, &planted, &a), LEGO_OK);
	CHECKF(t, a.status == LEGO_REFUTED &&
		       strstr(a.why, "step apply, in the triangle a <= n "
				     "(the inverse), refuted at "),
	       "planted: %s", a.why);
	/* the counterexample, again: the real apply, the planted inverse */
	int64_t n = value_of(a.why, "antidiag.n");
	int64_t ij[2] = {value_of(a.why, "antidiag.i"),
			 value_of(a.why, "antidiag.j")};
	int64_t x = -1, back[2] = {-1, -1};
	int ok = n >= 1 && ij[0] >= 0 && ij[0] < n && ij[1] >= 0 &&
		 ij[1] < n;
	int64_t dims[2] = {n, n};
	ok = ok && real->apply(real->user, 2, dims, ij, &x) == LEGO_OK;
	lego_expr *cdims[2] = {lego_const(ctx, n), lego_const(ctx, n)};
	lego_expr *inv[2];
	ok = ok && planted.inv_sym(ctx, planted.user, 2, cdims,
				   lego_const(ctx, x), inv) == LEGO_OK;
	for (int k = 0; ok && k < 2; k++)
		ok = lego_expr_eval(ctx, inv[k], NULL, &back[k]) == LEGO_OK;
	if (ok)
		printf("antidiag, planted inverse: refuted at n=%lld: "
		       "(%lld, %lld) -> %lld -> (%lld, %lld)\n", (long long)n,
		       (long long)ij[0], (long long)ij[1], (long long)x,
		       (long long)back[0], (long long)back[1]);
	CHECKF(t, ok && (back[0] != ij[0] || back[1] != ij[1]),
	       "n=%lld (%lld, %lld) -> %lld -> (%lld, %lld): %s",
	       (long long)n, (long long)ij[0], (long long)ij[1],
	       (long long)x, (long long)back[0], (long long)back[1], a.why);
	lego_ctx_free(ctx);
}

void proof_antidiag_certificate(lego_test *t);
void proof_antidiag_certificate(lego_test *t)
{
	test_case(t, "antidiag_planted_inverse_refuted");
	planted_refuted(t);
}
