/* test_strides.c - the template placeholder L.stride(k): the step of a
 * layout along one logical dim, accepted only when it is the same at every
 * index.  Expected values: strides of Row/Col tilings written by hand, and
 * for permutations of three dims the step measured by enumerating every
 * index through lego_layout_apply_num; refusals for layouts whose step
 * visibly changes (anti-diagonal, swizzle, a column-major GroupBy, the
 * grouped program ids). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

/* The template `{{ PH }}` expanded for Triton with spec as its block; the
 * caller frees.  NULL (message in err) on error. */
static char *gen(const char *spec, const char *ph, char *err, size_t cap)
{
	lego_ctx *ctx = lego_ctx_new();
	size_t n = strlen(spec) + strlen(ph) + 64;
	char *text = malloc(n);
	snprintf(text, n, "{%% lego %%}\n%s{%% end %%}\ny = {{ %s }}\n", spec,
		 ph);
	lego_gen_opts o = {"triton", NULL, NULL, 0, NULL};
	char *out = lego_gen(ctx, "t.tpl", text, strlen(text), &o);
	snprintf(err, cap, "%s", lego_ctx_error(ctx));
	free(text);
	lego_ctx_free(ctx);
	return out;
}

/* The integer `y = {{ PH }}` expands to over a spec of constants; -1 when
 * it is not an integer or on error. */
static long long gen_value(lego_test *t, const char *spec, const char *ph)
{
	char err[2048];
	char *out = gen(spec, ph, err, sizeof err);
	CHECKF(t, out, "%s: %s", ph, err);
	long long v = -1;
	char *end = NULL;
	if (out && !strncmp(out, "y = ", 4)) {
		v = strtoll(out + 4, &end, 10);
		if (end == out + 4 || strcmp(end, "\n"))
			v = -1;
	}
	free(out);
	return v;
}

static void test_matmul_tiles(lego_test *t)
{
	test_case(t, "Row and Col tilings: strides known by hand");
	static const int sizes[][4] = {{8, 12, 2, 3}, {6, 4, 3, 2}, {16, 8, 4, 8}};
	for (size_t s = 0; s < 3; s++) {
		int M = sizes[s][0], K = sizes[s][1], BM = sizes[s][2],
		    BK = sizes[s][3];
		for (int col = 0; col < 2; col++) {
			char spec[512], ph[32];
			snprintf(spec, sizeof spec,
				 "let M = %d\nlet K = %d\nlet BM = %d\nlet BK = %d\n"
				 "layout A = OrderBy(%s(M, K)).TileBy([M/BM, K/BK], "
				 "[BM, BK])\n", M, K, BM, BK, col ? "Col" : "Row");
			/* (tile row, tile column, row, column): rows are K
			 * apart in Row(M, K), 1 apart in Col(M, K). */
			long long row = col ? 1 : K, column = col ? M : 1;
			long long want[4] = {BM * row, BK * column, row, column};
			int n[4] = {M / BM, K / BK, BM, BK};
			for (int k = 0; k < 4; k++) {
				if (n[k] == 1) /* no step: any stride is right */
					continue;
				snprintf(ph, sizeof ph, "A.stride(%d)", k);
				CHECKF(t, gen_value(t, spec, ph) == want[k],
				       "%s %dx%d tiles %dx%d dim %d: want %lld",
				       col ? "Col" : "Row", M, K, BM, BK, k,
				       want[k]);
			}
		}
	}
}

static void test_symbolic(lego_test *t)
{
	test_case(t, "symbolic strides of the matmul spec, padded tiles too");
	static const struct {
		const char *spec, *ph, *want;
	} cases[] = {
		{"sym M, K, BM, BK\nassume M % BM == 0 && K % BK == 0\n"
		 "layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n",
		 "A.stride(2) - K + A.stride(3) + A.stride(0) - BM * K", "y = 1\n"},
		{"sym M, K, BM, BK\nassume M % BM == 0 && K % BK == 0\n"
		 "layout A = OrderBy(Col(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n",
		 "A.stride(3) - M + A.stride(2) + A.stride(1) - BK * M", "y = 1\n"},
		/* A padded tiling steps by the real row length (docs/partial.md). */
		{"sym M, K\n"
		 "layout A = OrderBy(Row(M, K)).TileBy([cdiv(M, 4), cdiv(K, 8)], "
		 "[4, 8])\n",
		 "A.stride(0) - 4 * A.stride(2) + A.stride(1) - 8 * A.stride(3)",
		 "y = 0\n"},
		/* The base offset of a strided reference is L[0, .., 0]. */
		{"sym M, K\nlayout A = OrderBy(Row(M, K))\n", "A[0, 0]", "y = 0\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[2048];
		char *out = gen(cases[i].spec, cases[i].ph, err, sizeof err);
		CHECKF(t, out && !strcmp(out, cases[i].want), "%s: got %s (%s)",
		       cases[i].ph, out ? out : "NULL", err);
		free(out);
	}
}

/* The step along dim k measured at every index of l (sizes 2, 3, 4),
 * or -1 when it is not the same everywhere. */
static long long enumerated_step(lego_ctx *ctx, lego_layout *l, int k)
{
	static const int64_t dims[3] = {2, 3, 4};
	long long step = -1;
	int64_t idx[3], flat0, flat1;
	for (idx[0] = 0; idx[0] < dims[0]; idx[0]++)
		for (idx[1] = 0; idx[1] < dims[1]; idx[1]++)
			for (idx[2] = 0; idx[2] < dims[2]; idx[2]++) {
				if (idx[k] + 1 == dims[k])
					continue;
				int64_t nx[3] = {idx[0], idx[1], idx[2]};
				nx[k]++;
				if (lego_layout_apply_num(ctx, l, NULL, idx, &flat0) ||
				    lego_layout_apply_num(ctx, l, NULL, nx, &flat1))
					return -2;
				if (step == -1)
					step = flat1 - flat0;
				else if (step != flat1 - flat0)
					return -1;
			}
	return step;
}

static void test_permutations_enumerated(lego_test *t)
{
	test_case(t, "RegP of 3 dims, every permutation: stride == enumerated step");
	static const int perms[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3},
					{2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
	for (int p = 0; p < 6; p++) {
		char spec[128], ph[32];
		snprintf(spec, sizeof spec, "layout L = RegP([2, 3, 4], [%d, %d, %d])\n",
			 perms[p][0], perms[p][1], perms[p][2]);
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *s = lego_spec_parse(ctx, "p.lego", spec, strlen(spec),
					       NULL, 0);
		lego_layout *l = s ? lego_spec_layout(s, "L") : NULL;
		CHECKF(t, l, "%s", lego_ctx_error(ctx));
		for (int k = 0; l && k < 3; k++) {
			long long want = enumerated_step(ctx, l, k);
			snprintf(ph, sizeof ph, "L.stride(%d)", k);
			CHECKF(t, want > 0 && gen_value(t, spec, ph) == want,
			       "perm %d%d%d dim %d: enumerated %lld", perms[p][0],
			       perms[p][1], perms[p][2], k, want);
		}
		lego_ctx_free(ctx);
	}
}

/* gen fails with message msg (a substring), and the layout really has a
 * changing step (checked by enumeration where sizes are constant). */
static void check_refused(lego_test *t, const char *spec, const char *ph,
			  const char *msg)
{
	char err[4096];
	char *out = gen(spec, ph, err, sizeof err);
	CHECKF(t, !out && strstr(err, msg), "%s: got %s / %s", ph,
	       out ? out : "NULL", err);
	free(out);
}

static void test_refused(lego_test *t)
{
	test_case(t, "non-affine layouts are refused at the placeholder");
	/* Anti-diagonal of 4 x 4: (0,0)->0, (0,1)->1, (0,2)->3: steps 1, 2. */
	check_refused(t, "layout D = GenP([4, 4], antidiag)\n", "D.stride(1)",
		      "t.tpl:4:17: error: 'D' is not strided along dim 1");
	check_refused(t, "sym n\nlayout D = GenP([n, n], antidiag)\n",
		      "D.stride(0)", "'D' is not strided along dim 0");
	/* Swizzle: column 7 -> 8 of row 0 steps by 1, row 1 (xor 1) not. */
	check_refused(t, "layout S = GenP([8, 8], swizzle(2, 0, 3))\n",
		      "S.stride(1)", "'S' is not strided along dim 1");
	/* The flat index n of a column-major 4 x 6 in row-major order:
	 * 4 * (n % 6) + n / 6 steps by 4, then by 1 - 20. */
	check_refused(t, "layout G = OrderBy(Col(4, 6)).GroupBy([24])\n",
		      "G.stride(0)", "'G' is not strided along dim 0");
	/* The grouped program ids: a tile down a group, then the next group. */
	check_refused(t, "sym npm, npn, GM\nassume npm % GM == 0\n"
		      "layout P = OrderBy(Col(max(npm/GM, 1), 1), "
		      "Col(min(npm, GM), npn)).TileBy([npm, npn])\n",
		      "P.stride(0)", "'P' is not strided along dim 0");

	test_case(t, "the enumerations behind the refusals");
	static const char *const specs[] = {
		"layout D = GenP([4, 4], antidiag)\n",
		"layout S = GenP([8, 8], swizzle(2, 0, 3))\n",
	};
	for (size_t i = 0; i < 2; i++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *s = lego_spec_parse(ctx, "r.lego", specs[i],
					       strlen(specs[i]), NULL, 0);
		lego_layout *l = s ? lego_spec_layout(s, i ? "S" : "D") : NULL;
		int64_t n = i ? 8 : 4, first = -1, varies = 0, a, b;
		for (int64_t r = 0; l && r < n; r++)
			for (int64_t c = 0; c + 1 < n; c++) {
				int64_t x[2] = {r, c}, y[2] = {r, c + 1};
				if (lego_layout_apply_num(ctx, l, NULL, x, &a) ||
				    lego_layout_apply_num(ctx, l, NULL, y, &b))
					continue;
				if (first == -1)
					first = b - a;
				varies |= b - a != first;
			}
		CHECKF(t, l && varies, "%s", specs[i]);
		lego_ctx_free(ctx);
	}
}

static void test_size_one(lego_test *t)
{
	test_case(t, "a dim of size 1: the formula's step (any would do)");
	CHECK_EQ(t, gen_value(t, "let K = 5\nlayout A = OrderBy(Row(1, K))\n",
			      "A.stride(0)"), 5);
	CHECK_EQ(t, gen_value(t, "let K = 5\nlayout A = OrderBy(Row(1, K))\n",
			      "A.stride(1)"), 1);
}

static void test_errors(lego_test *t)
{
	test_case(t, "malformed stride placeholders");
	static const char spec[] = "sym K\nlayout A = OrderBy(Row(2, K))\n";
	check_refused(t, spec, "A.stride(2)",
		      "t.tpl:5:17: error: expected a dim 0..1 of 'A'");
	check_refused(t, spec, "A.stride(k)", "expected a dim 0..1 of 'A'");
	check_refused(t, spec, "A.stride(1", "expected ')'");
	check_refused(t, spec, "A.strides(1)", "unknown layout method");
}

void suite_strides(lego_test *t)
{
	test_matmul_tiles(t);
	test_symbolic(t);
	test_permutations_enumerated(t);
	test_refused(t);
	test_size_one(t);
	test_errors(t);
}
