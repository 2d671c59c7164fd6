/* test_proof.c - proofs by argument (src/proof): the built-in GenPs are
 * bijections (exhaustively, for bounded sizes: the fact construction
 * relies on), each property gets the argument expected of its layout,
 * and what construction claims for symbolic sizes holds exhaustively at
 * concrete ones. */
#include <string.h>
#include <time.h>

#include "harness.h"
#include "lego.h"

/* lego_layout_check enumerates every element: bijective onto [0, size)
 * with inv(apply(i)) == i. */
static void check_bijective(lego_test *t, lego_ctx *ctx, lego_layout *l,
			    const char *what)
{
	lego_check_report r;
	memset(&r, 0, sizeof r);
	CHECKF(t, l != NULL, "%s: %s", what, lego_ctx_error(ctx));
	if (l)
		CHECKF(t, lego_layout_check(ctx, l, NULL, &r) == LEGO_OK &&
			       r.bijective && r.inverse_ok,
		       "%s: %s", what, lego_ctx_error(ctx));
}

static void builtin_genps(lego_test *t)
{
	char what[64];
	lego_ctx *ctx = lego_ctx_new();
	for (int64_t n = 1; n <= 12; n++) {
		snprintf(what, sizeof what, "antidiag %lld", (long long)n);
		check_bijective(t, ctx, lego_genp_antidiag(ctx,
						lego_const(ctx, n)), what);
	}
	for (int64_t r = 1; r <= 16; r *= 2)
		for (int64_t c = 1; c <= 16; c *= 2) {
			snprintf(what, sizeof what, "morton %lldx%lld",
				 (long long)r, (long long)c);
			check_bijective(t, ctx,
					lego_genp_morton(ctx, lego_const(ctx, r),
							 lego_const(ctx, c)),
					what);
		}
	for (int b = 0; b <= 3; b++)
		for (int m = 0; m <= 3; m++)
			for (int s = b; s <= 4; s++) {
				lego_expr *dims[2] = {lego_const(ctx, 16),
						      lego_const(ctx, 32)};
				snprintf(what, sizeof what, "swizzle<%d,%d,%d>",
					 b, m, s);
				check_bijective(t, ctx,
						lego_genp_swizzle(ctx, b, m, s, 2,
								  dims),
						what);
			}
	lego_ctx_free(ctx);
}

/* The proof of layout `name` in `text` (NULL on a parse error). */
static int prove(lego_test *t, lego_ctx *ctx, const char *text,
		 const char *name, lego_layout_proof *p)
{
	lego_spec *spec = lego_spec_parse(ctx, "t.lego", text, strlen(text),
					  NULL, 0);
	lego_layout *l = spec ? lego_spec_layout(spec, name) : NULL;
	CHECKF(t, l != NULL, "%s", lego_ctx_error(ctx));
	/* A generous budget: the proofs take well under a second, but a
	 * loaded machine or the sanitizers must not turn them "unknown". */
	return l && lego_layout_prove(ctx, l, 60000, p) == LEGO_OK;
}

static void check_construction(lego_test *t, const lego_layout_proof *p,
			       const char *needle)
{
	CHECK_EQ(t, p->assumptions, LEGO_PROVED);
	for (int i = LEGO_VP_INV_APPLY; i < LEGO_VP_COUNT; i++) {
		CHECK_EQ(t, p->status[i], LEGO_PROVED);
		CHECK_EQ(t, p->by[i], LEGO_BY_CONSTRUCTION);
		CHECKF(t, strstr(p->why[i], needle), "'%s' lacks '%s'",
		       p->why[i], needle);
	}
}

static const char tiled[] =
	"sym M, K, BM, BK\n"
	"assume M % BM == 0 && K % BK == 0\n"
	"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n";

static const char transposed[] =
	"sym a, b\n"
	"genp tr[p, q](i, j) = j * p + i inverse (x) = (x % p, x / p)\n"
	"layout T = GenP([a, b], tr)\n"
	"genp bad[p, q](i, j) = j * p + i inverse (x) = (x / p, x % p)\n"
	"layout W = GenP([a, b], bad)\n";

/* The anti-diagonal order of a symbolic square: a bijection for every n
 * by antidiag's certificate (src/proof/antidiag.c), its steps each a
 * small Z3 query; before, on tests of n <= 12 alone. */
static const char antidiag_n[] =
	"sym n\n"
	"layout W = OrderBy(Row(2, 3), GenP([n, n], antidiag))\n";

static void construction(lego_test *t)
{
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, tiled, "A", &p))
		check_construction(t, &p, "GroupBy (sizes agree)");
	lego_ctx_free(ctx);
	ctx = lego_ctx_new();
	if (prove(t, ctx, antidiag_n, "W", &p))
		check_construction(t, &p, "antidiag by its certificate "
					   "(every n) x1");
	lego_ctx_free(ctx);
	ctx = lego_ctx_new();
	if (prove(t, ctx, transposed, "T", &p))
		check_construction(t, &p, "GenP by its genp for all "
					   "dims (inverse: z3)");
	lego_ctx_free(ctx);
}

/* A wrong user inverse stops the argument; the whole-layout queries
 * then refute it with a counterexample. */
static void wrong_inverse(lego_test *t)
{
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, transposed, "W", &p)) {
		CHECK_EQ(t, p.verdict, LEGO_REFUTED);
		CHECK(t, p.by[LEGO_VP_INV_APPLY] != LEGO_BY_CONSTRUCTION);
		CHECK_EQ(t, p.status[LEGO_VP_INV_APPLY], LEGO_REFUTED);
		CHECKF(t, strstr(p.why[LEGO_VP_INV_APPLY], " at "),
		       "no counterexample: %s", p.why[LEGO_VP_INV_APPLY]);
	}
	lego_ctx_free(ctx);
}

static void inconsistent(lego_test *t)
{
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, "sym N, M\nassume N < M && M < N\n"
		  "layout R = Row(N, M)\n", "R", &p)) {
		CHECK_EQ(t, p.assumptions, LEGO_REFUTED);
		CHECK_EQ(t, p.verdict, LEGO_REFUTED);
	}
	lego_ctx_free(ctx);
}

/* What construction claims symbolically holds at concrete sizes,
 * checked by enumerating every element. */
static void claims_hold(lego_test *t)
{
	static const lego_define sizes[][4] = {
		{{"M", 6}, {"K", 8}, {"BM", 3}, {"BK", 2}},
		{{"M", 4}, {"K", 12}, {"BM", 4}, {"BK", 6}},
		{{"M", 10}, {"K", 1}, {"BM", 5}, {"BK", 1}},
	};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = lego_spec_parse(ctx, "t.lego", tiled,
						  strlen(tiled), sizes[s], 4);
		check_bijective(t, ctx, spec ? lego_spec_layout(spec, "A")
					     : NULL, "tiled A");
		lego_ctx_free(ctx);
	}
	static const lego_define ab[] = {{"a", 3}, {"b", 5}};
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = lego_spec_parse(ctx, "t.lego", transposed,
					  strlen(transposed), ab, 2);
	check_bijective(t, ctx, spec ? lego_spec_layout(spec, "T") : NULL,
			"transposed T");
	lego_ctx_free(ctx);
}

static void rules_proved(lego_test *t);
static void planted_caught(lego_test *t);
static void certificate_proves(lego_test *t);
void proof_random_layouts(lego_test *t); /* test_proof_random.c */
void proof_genp_templates(lego_test *t);  /* test_proof_genp.c */
void proof_swizzle_certificate(lego_test *t); /* test_proof_swizzle.c */
void proof_antidiag_certificate(lego_test *t); /* test_proof_antidiag.c */
void proof_several_divisors(lego_test *t);    /* test_proof_divides.c */

void suite_proof(lego_test *t)
{
	test_case(t, "builtin_genps_bijective");
	builtin_genps(t);
	test_case(t, "construction");
	construction(t);
	test_case(t, "wrong_user_inverse_refuted");
	wrong_inverse(t);
	test_case(t, "inconsistent_assumptions");
	inconsistent(t);
	test_case(t, "construction_claims_hold_exhaustively");
	claims_hold(t);
	test_case(t, "rules_proved_planted_refuted");
	rules_proved(t);
	test_case(t, "planted_rule_caught_by_validation");
	planted_caught(t);
	test_case(t, "certificate_proves_symbolic_tiles");
	certificate_proves(t);
	test_case(t, "random_symbolic_layouts_proved");
	proof_random_layouts(t);
	proof_genp_templates(t);
	proof_swizzle_certificate(t);
	proof_antidiag_certificate(t);
	proof_several_divisors(t);
}

/* Z3's budget per rule: a rule the table marks proved (the ones with
 * lemmas need about a second) must be proved within it; the others get a
 * short try before their bounded check. */
enum { PROVED_MS = 8000, OTHER_MS = 300 };

static double seconds_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Every rule the table marks proved is proved by Z3 over unbounded
 * integers (its lemmas assumed, themselves rules so proved); the others
 * hold on the bounded box; the planted one is refuted with a
 * counterexample whose two sides evaluate differently.  Prints the list
 * with the time each takes (the list issue 13 asks for). */
static void rules_proved(lego_test *t)
{
	if (!lego_smt_available())
		return;
	double total = 0;
	size_t nproved = 0, nbits = 0;
	printf("rule                 time     result\n");
	for (size_t i = 0; i < lego_rule_count(); i++) {
		const lego_rule *r = lego_rule_at(i);
		const char *claim = lego_rule_proved_by(r);
		char why[256];
		int planted = !strcmp(r->name, "planted-wrong");
		double t0 = seconds_now();
		lego_argument by;
		lego_proof p = lego_rule_prove(r, claim ? PROVED_MS : OTHER_MS,
					       &by, why, sizeof why);
		double dt = seconds_now() - t0;
		total += dt;
		printf("%-20s %6.3f s %s (%s)%s%s\n", r->name, dt,
		       p == LEGO_REFUTED ? "REFUTED"
		       : p == LEGO_UNKNOWN ? "unknown"
		       : by == LEGO_BY_Z3 ? "proved" : "checked",
		       by == LEGO_BY_Z3 ? (claim ? claim : "z3") : "bounded",
		       why[0] ? ": " : "", why);
		if (claim) {
			nproved++;
			nbits += strstr(claim, "64-bit") != NULL;
			CHECKF(t, p == LEGO_PROVED && by == LEGO_BY_Z3,
			       "rule %s is marked proved (%s): %s", r->name,
			       claim, why);
			for (const char *l = r->lemmas; l && *l; l++)
				if (l == r->lemmas || l[-1] == ';') {
					size_t n = strcspn(l + strspn(l, " "),
							   "(");
					const char *name = l + strspn(l, " ");
					int ok = 0;
					for (size_t j = 0; j < lego_rule_count();
					     j++) {
						const lego_rule *q =
							lego_rule_at(j);
						ok |= strlen(q->name) == n &&
						      !strncmp(q->name, name,
							       n) &&
						      q != r &&
						      lego_rule_proved_by(q);
					}
					CHECKF(t, ok, "rule %s: a lemma of an "
					       "unproved rule: %s", r->name, l);
				}
			continue;
		}
		if (!planted) {
			CHECKF(t, p == LEGO_PROVED, "rule %s: %s", r->name, why);
			continue;
		}
		long long lhs = 0, rhs = 0;
		const char *at = strstr(why, ": lhs ");
		CHECK_EQ(t, p, LEGO_REFUTED);
		CHECKF(t, at && sscanf(at, ": lhs %lld, rhs %lld", &lhs,
				       &rhs) == 2 && lhs != rhs,
		       "planted rule: counterexample '%s'", why);
	}
	printf("%zu rules, %zu proved (%zu of them over 64-bit bit-vectors), "
	       "%.3f s in all\n", lego_rule_count(), nproved, nbits, total);
}

/* The planted rule switched on makes the simplifier wrong: translation
 * validation refutes it; switched off (the default) all is proved. */
static void planted_caught(lego_test *t)
{
	static const char row[] = "layout R = Row(4, 6)\n";
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, row, "R", &p))
		CHECK_EQ(t, p.verdict, LEGO_PROVED);
	lego_ctx_free(ctx);
	ctx = lego_ctx_new();
	CHECK_EQ(t, lego_rule_switch(ctx, "planted-wrong", 1), LEGO_OK);
	CHECK_EQ(t, lego_rule_switch(ctx, "no-such-rule", 1), LEGO_ERR);
	if (prove(t, ctx, row, "R", &p)) {
		const char *why = p.why[LEGO_VP_SIMPLIFY];
		long long lhs = 0, rhs = 0;
		const char *at = strstr(why, ": lhs ");
		CHECK_EQ(t, p.status[LEGO_VP_SIMPLIFY], LEGO_REFUTED);
		CHECK_EQ(t, p.verdict, LEGO_REFUTED);
		/* the checker refused the planted step, and said why with the
		 * rule's counterexample evaluated on both sides */
		CHECKF(t, strstr(why, "step of rule planted-wrong") &&
			       strstr(why, "its rule is refuted") && at &&
			       sscanf(at, ": lhs %lld, rhs %lld", &lhs,
				      &rhs) == 2 && lhs != rhs,
		       "planted rule: %s", why);
	}
	lego_ctx_free(ctx);
}

/* With symbolic tile sizes, simplified == semantics is proved by the
 * certificate alone (no solver), and the certificate is not vacuous: the
 * simplifier did rewrite (the expressions differ), and with the rules it
 * used switched off nothing is rewritten by them. */
static void certificate_proves(lego_test *t)
{
	static const char gemm[] =
		"sym M, K, BM, BK\n"
		"assume M % BM == 0 && K % BK == 0\n"
		"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n";
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, gemm, "A", &p)) {
		CHECK_EQ(t, p.status[LEGO_VP_SIMPLIFY], LEGO_PROVED);
		CHECK_EQ(t, p.by[LEGO_VP_SIMPLIFY], LEGO_BY_CERTIFICATE);
		CHECKF(t, strstr(p.why[LEGO_VP_SIMPLIFY], "steps checked") &&
			       !strstr(p.why[LEGO_VP_SIMPLIFY], " 0 steps"),
		       "%s", p.why[LEGO_VP_SIMPLIFY]);
		CHECK_EQ(t, p.verdict, LEGO_PROVED);
	}
	lego_ctx_free(ctx);
}
