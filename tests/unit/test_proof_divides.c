/* test_proof_divides.c - several divisibility facts about one symbol in
 * the ring normal form (src/simplify/poly.c): 8 | M and BM | M both
 * usable, in either order, so the certificates of tiles of one size by
 * several tile sizes are accepted; and a divisibility that is no fact is
 * never used: the simplified form agrees with the expression at every
 * point satisfying the facts, and the claim it would need is refuted
 * with a counterexample that evaluation confirms. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

#define TILED                                                                \
	"layout A = OrderBy(RegP([M/BM, BM, K/BK, BK], [1, 3, 2, 4]))"      \
	".GroupBy([M/BM, BM], [K/BK, BK])\n"

/* One size N tiled by three tile sizes (bench/stencil's L). */
#define CUBE                                                                 \
	"sym N, BX, BY, BZ\n"                                                \
	"assume N % 16 == 0\n"                                               \
	"layout L = OrderBy(RegP([N/BX, BX, N/BY, BY, N/BZ, BZ], "          \
	"[1, 3, 5, 2, 4, 6])).GroupBy([N, N, N])\n"

static const struct {
	const char *name, *layout, *text;
} specs[] = {
	{"8 | M alone", "A", "sym M, K, BM, BK\nassume M % 8 == 0\n" TILED},
	{"8 | M, then BM | M", "A",
	 "sym M, K, BM, BK\nassume M % 8 == 0\nassume M % BM == 0\n" TILED},
	{"BM | M, then 8 | M", "A",
	 "sym M, K, BM, BK\nassume M % BM == 0\nassume M % 8 == 0\n" TILED},
	{"three tiles of N", "L", CUBE},
};

/* simplified == semantics by the certificate alone, whatever the order
 * of the facts (before: unknown, the ring step refused). */
static void certified(lego_test *t)
{
	for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = lego_spec_parse(ctx, "t.lego", specs[s].text,
						  strlen(specs[s].text), NULL,
						  0);
		lego_layout *l = spec ? lego_spec_layout(spec, specs[s].layout)
				      : NULL;
		lego_layout_proof p;
		CHECKF(t, l && lego_layout_prove(ctx, l, 5000, &p) == LEGO_OK,
		       "%s: %s", specs[s].name, lego_ctx_error(ctx));
		if (l)
			CHECKF(t, p.status[LEGO_VP_SIMPLIFY] == LEGO_PROVED &&
				       p.by[LEGO_VP_SIMPLIFY] ==
					       LEGO_BY_CERTIFICATE &&
				       p.verdict == LEGO_PROVED,
			       "%s: %s", specs[s].name,
			       p.why[LEGO_VP_SIMPLIFY]);
		lego_ctx_free(ctx);
	}
}

/* Expressions over M (8 | M, BM | M), BM and BK: the two facts combined
 * (right), and divisibilities that are no fact (wrong: BK | M, 16 | M). */
enum { NEXPR = 6, NWRONG = 2 };

static void exprs(lego_ctx *ctx, lego_expr **e)
{
	lego_expr *m = lego_sym(ctx, "M"), *bm = lego_sym(ctx, "BM");
	lego_expr *bk = lego_sym(ctx, "BK"), *c8 = lego_const(ctx, 8);
	lego_expr *m8 = lego_mul(ctx, c8, lego_div(ctx, m, c8));
	/* ((8 * (M / 8)) / BM) * BM: M by both facts */
	e[0] = lego_mul(ctx, lego_div(ctx, m8, bm), bm);
	/* (BM * (M / BM)) / 8 * 8 + M % BM */
	e[1] = lego_add(ctx, lego_mul(ctx, lego_div(ctx, lego_mul(
		ctx, bm, lego_div(ctx, m, bm)), c8), c8), lego_mod(ctx, m, bm));
	/* (M / BM) * BM * (M / 8) - M * (M / 8) */
	e[2] = lego_sub(ctx, lego_mul(ctx, lego_mul(ctx, lego_div(ctx, m, bm),
						    bm), lego_div(ctx, m, c8)),
			lego_mul(ctx, m, lego_div(ctx, m, c8)));
	/* (8 * (M / 8)) % BM */
	e[3] = lego_mod(ctx, m8, bm);
	/* the wrong ones, each an M only where BK | M or 16 | M */
	e[4] = lego_mul(ctx, lego_div(ctx, m8, bk), bk);
	e[5] = lego_mul(ctx, lego_div(ctx, m, lego_const(ctx, 16)),
			lego_const(ctx, 16));
}

static void bind3(lego_env *env, lego_ctx *ctx, int64_t m, int64_t bm,
		  int64_t bk)
{
	lego_env_bind(env, lego_sym(ctx, "M"), m);
	lego_env_bind(env, lego_sym(ctx, "BM"), bm);
	lego_env_bind(env, lego_sym(ctx, "BK"), bk);
}

static void no_wrong_use(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *m = lego_sym(ctx, "M"), *bm = lego_sym(ctx, "BM");
	lego_expr *e[NEXPR], *s[NEXPR];
	CHECK(t, lego_assume_divides(ctx, lego_const(ctx, 8), m) == LEGO_OK &&
			 lego_assume_divides(ctx, bm, m) == LEGO_OK);
	exprs(ctx, e);
	for (int i = 0; i < NEXPR; i++)
		CHECK(t, e[i] && (s[i] = lego_simplify(ctx, e[i])));
	/* The combinations are simplified (to M, M, 0, 0: by both facts);
	 * the wrong ones are not M. */
	CHECK(t, s[0] == m && s[1] == m);
	CHECK(t, lego_expr_kind_of(s[2]) == LEGO_CONST &&
		 lego_expr_kind_of(s[3]) == LEGO_CONST);
	CHECK(t, s[4] != m && s[5] != m);
	/* Differential, exhaustive over small sizes satisfying the facts:
	 * every simplified form equals its expression. */
	lego_env *env = lego_env_new(ctx);
	int bad = 0, wrong_seen[NWRONG] = {0};
	for (int64_t mv = 8; mv <= 96; mv += 8)
		for (int64_t bmv = 1; bmv <= mv; bmv++)
			for (int64_t bkv = 1; mv % bmv == 0 && bkv <= 12;
			     bkv++) {
				bind3(env, ctx, mv, bmv, bkv);
				for (int i = 0; i < NEXPR; i++) {
					int64_t a, b;
					if (lego_expr_eval(ctx, e[i], env, &a) ||
					    lego_expr_eval(ctx, s[i], env, &b) ||
					    a != b)
						bad++;
					if (i >= NEXPR - NWRONG && a != mv)
						wrong_seen[i - NEXPR + NWRONG] = 1;
				}
			}
	CHECKF(t, bad == 0, "%d points where a simplified form differs", bad);
	/* ... and the wrong claims are false somewhere (the test could see a
	 * wrong use), and refuted, with a point evaluation confirms. */
	for (int w = 0; w < NWRONG; w++) {
		CHECK(t, wrong_seen[w]);
		lego_expr *claim = lego_binop(ctx, LEGO_EQ, e[NEXPR - NWRONG + w],
					      m);
		lego_env *cex = lego_env_new(ctx);
		int64_t v = 1, r = 1;
		if (lego_smt_available())
			CHECKF(t, lego_smt_prove(ctx, claim, 5000, cex) ==
					  LEGO_REFUTED &&
				  lego_expr_eval(ctx, claim, cex, &r) ==
					  LEGO_OK && r == 0 &&
				  lego_env_lookup(cex, m, &v) == LEGO_OK &&
				  v % 8 == 0,
			       "wrong claim %d: %s", w, lego_ctx_error(ctx));
		lego_env_free(cex);
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

void proof_several_divisors(lego_test *t);
void proof_several_divisors(lego_test *t)
{
	test_case(t, "several_divisibility_facts_certified");
	certified(t);
	test_case(t, "no_divisibility_used_that_is_no_fact");
	no_wrong_use(t);
}
