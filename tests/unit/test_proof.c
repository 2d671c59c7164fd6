/* test_proof.c - proofs by argument (src/proof): the built-in GenPs are
 * bijections (exhaustively, for bounded sizes: the fact construction
 * relies on), each property gets the argument expected of its layout,
 * and what construction claims for symbolic sizes holds exhaustively at
 * concrete ones. */
#include <string.h>

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
	return l && lego_layout_prove(ctx, l, 5000, p) == LEGO_OK;
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

static void construction(lego_test *t)
{
	lego_layout_proof p;
	lego_ctx *ctx = lego_ctx_new();
	if (prove(t, ctx, tiled, "A", &p))
		check_construction(t, &p, "GroupBy (sizes agree)");
	lego_ctx_free(ctx);
	ctx = lego_ctx_new();
	if (prove(t, ctx, transposed, "T", &p))
		check_construction(t, &p, "GenP (inverse: z3)");
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
}
