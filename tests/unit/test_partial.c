/* test_partial.c - partial tiles: TileBy over cdiv tile counts, the padded
 * apply, table, mask and inverse (docs/partial.md).  Expected values are computed
 * here from the definition: logical (i, j, a, b) is the element
 * (i*BM + a, j*BK + b) of the real M x K tensor, which exists exactly when
 * both are in bounds; every size combination is enumerated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/template.h"
#include "harness.h"
#include "lego.h"

static lego_spec *parse(lego_ctx *ctx, const char *text)
{
	return lego_spec_parse(ctx, "t.lego", text, strlen(text), NULL, 0);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0);
}

static void test_cdiv(lego_test *t)
{
	test_case(t, "cdiv_values");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_sym(ctx, "a"), *b = lego_sym(ctx, "b");
	lego_expr *e = lego_cdiv(ctx, a, b);
	lego_env *env = lego_env_new(ctx);
	for (int64_t x = 1; x <= 40; x++)
		for (int64_t y = 1; y <= 12; y++) {
			int64_t v = -1;
			lego_env_bind(env, a, x);
			lego_env_bind(env, b, y);
			CHECK(t, lego_expr_eval(ctx, e, env, &v) == LEGO_OK);
			CHECK_EQ(t, v, ceil_div(x, y));
		}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

typedef struct sizes {
	int64_t m, k, bm, bk;
	int col;  /* the chain is Col(M, K): element (r, c) at c*M + r */
} sizes;

static int64_t expect_flat(const sizes *z, int64_t r, int64_t c)
{
	if (r >= z->m || c >= z->k)
		return -1;
	return z->col ? c * z->m + r : r * z->k + c;
}

/* Symbols of the spec bound to z. */
static void bind_sizes(lego_ctx *ctx, lego_env *env, const sizes *z)
{
	const char *names[] = {"M", "K", "BM", "BK"};
	const int64_t vals[] = {z->m, z->k, z->bm, z->bk};
	for (size_t n = 0; n < 4; n++)
		lego_env_bind(env, lego_sym_find(ctx, names[n]), vals[n]);
}

typedef struct sym_view {
	lego_expr *idx[4];
	lego_expr *apply;
	lego_expr *mask;
	lego_expr *flat;   /* over [0, M*K) */
	lego_expr *inv[4];
} sym_view;

/* Element (r, c) of the real tensor comes from (r/BM, c/BK, r%BM, c%BK):
 * the numeric and the symbolic inverse of its physical index. */
static void check_inverse(lego_test *t, lego_ctx *ctx, const lego_layout *l,
			  const sym_view *v, lego_env *env, const sizes *z)
{
	for (int64_t r = 0; r < z->m; r++)
		for (int64_t c = 0; c < z->k; c++) {
			int64_t f = expect_flat(z, r, c), got[4], e;
			int64_t want[4] = {r / z->bm, c / z->bk, r % z->bm,
					   c % z->bk};
			CHECK(t, lego_layout_inv_num(ctx, l, env, f, got) == LEGO_OK);
			lego_env_bind(env, v->flat, f);
			for (size_t k = 0; k < 4; k++) {
				CHECKF(t, got[k] == want[k], "inv_num(%lld)[%zu] = "
				       "%lld, want %lld", (long long)f, k,
				       (long long)got[k], (long long)want[k]);
				CHECK(t, lego_expr_eval(ctx, v->inv[k], env, &e) ==
					     LEGO_OK && e == want[k]);
			}
		}
	int64_t got[4];
	CHECK(t, lego_layout_inv_num(ctx, l, env, z->m * z->k, got) ==
		     LEGO_ERANGE);
}

/* The table, and apply and mask evaluated, against expect_flat; every
 * real element reached exactly once. */
static void check_sizes(lego_test *t, lego_ctx *ctx, const lego_layout *l,
			const sym_view *v, const sizes *z)
{
	lego_env *env = lego_env_new(ctx);
	bind_sizes(ctx, env, z);
	int64_t tm = ceil_div(z->m, z->bm), tk = ceil_div(z->k, z->bk);
	size_t n = (size_t)(tm * tk * z->bm * z->bk), got = 0;
	int64_t *table = calloc(n, sizeof *table);
	int *hits = calloc((size_t)(z->m * z->k), sizeof *hits);
	CHECK(t, lego_layout_table(ctx, l, env, table, n, &got) == LEGO_OK);
	CHECK_EQ(t, got, n);
	size_t x = 0;
	for (int64_t i = 0; i < tm; i++)
	for (int64_t j = 0; j < tk; j++)
	for (int64_t a = 0; a < z->bm; a++)
	for (int64_t b = 0; b < z->bk; b++, x++) {
		int64_t want = expect_flat(z, i * z->bm + a, j * z->bk + b);
		CHECKF(t, table[x] == want, "M=%lld K=%lld BM=%lld BK=%lld "
		       "(%lld,%lld,%lld,%lld): %lld, expected %lld",
		       (long long)z->m, (long long)z->k, (long long)z->bm,
		       (long long)z->bk, (long long)i, (long long)j,
		       (long long)a, (long long)b, (long long)table[x],
		       (long long)want);
		const int64_t iv[4] = {i, j, a, b};
		for (size_t k = 0; k < 4; k++)
			lego_env_bind(env, v->idx[k], iv[k]);
		int64_t m = -1, f = -1;
		CHECK(t, lego_expr_eval(ctx, v->mask, env, &m) == LEGO_OK);
		CHECK_EQ(t, m, want >= 0);
		if (m == 1) {
			CHECK(t, lego_expr_eval(ctx, v->apply, env, &f) ==
				     LEGO_OK);
			CHECK_EQ(t, f, want);
			CHECK(t, f >= 0 && f < z->m * z->k);
			if (f >= 0 && f < z->m * z->k)
				hits[f]++;
		}
	}
	for (int64_t e = 0; e < z->m * z->k; e++)
		CHECKF(t, hits[e] == 1, "element %lld reached %d times",
		       (long long)e, hits[e]);
	check_inverse(t, ctx, l, v, env, z);
	lego_check_report rep;
	CHECK(t, lego_layout_check(ctx, l, env, &rep) == LEGO_OK);
	CHECK_EQ(t, rep.size, z->m * z->k);
	CHECK(t, rep.bijective && rep.inverse_ok);
	free(hits);
	free(table);
	lego_env_free(env);
}

/* Index variables named i<tag>, j<tag>, a<tag>, b<tag> (one set of names per
 * layout: a name is declared with its range once). */
static int view_of(lego_ctx *ctx, const lego_layout *l, const char *tag,
		   sym_view *v)
{
	const char *names[] = {"i", "j", "a", "b"};
	char name[16];
	for (size_t k = 0; k < 4; k++)
		v->idx[k] = lego_index(ctx, (snprintf(name, sizeof name, "%s%s",
						      names[k], tag), name),
				       lego_const(ctx, 0),
				       lego_layout_dim(l, k));
	v->apply = lego_simplify(ctx, lego_layout_apply(ctx, l, v->idx));
	v->mask = lego_layout_mask(ctx, l, v->idx);
	v->flat = lego_index(ctx, (snprintf(name, sizeof name, "x%s", tag), name),
			     lego_const(ctx, 0), lego_layout_phys_size(ctx, l));
	if (!v->flat || lego_layout_inv(ctx, l, v->flat, v->inv) != LEGO_OK)
		return 0;
	for (size_t k = 0; k < 4; k++)
		if (!(v->inv[k] = lego_simplify(ctx, v->inv[k])))
			return 0;
	return v->apply && v->mask;
}

static void test_exhaustive(lego_test *t, const char *chain, int col)
{
	test_case(t, col ? "exhaustive_col" : "exhaustive_row");
	char text[256];
	snprintf(text, sizeof text,
		 "sym M, K, BM, BK\nlayout A = OrderBy(%s(M, K))"
		 ".TileBy([cdiv(M, BM), cdiv(K, BK)], [BM, BK])\n", chain);
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text);
	const lego_layout *l = spec ? lego_spec_layout(spec, "A") : NULL;
	sym_view v;
	CHECK(t, l && lego_layout_is_padded(l) && view_of(ctx, l, "", &v));
	if (!l || !v.mask) {
		lego_ctx_free(ctx);
		return;
	}
	for (int64_t m = 1; m <= 9; m++)
		for (int64_t k = 1; k <= 7; k++)
			for (int64_t bm = 1; bm <= 4; bm++)
				for (int64_t bk = 1; bk <= 3; bk++) {
					sizes z = {m, k, bm, bk, col};
					check_sizes(t, ctx, l, &v, &z);
				}
	lego_ctx_free(ctx);
}

/* A mask term only for dims that can overflow. */
static void test_mask_terms(lego_test *t)
{
	test_case(t, "mask_terms");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx,
		"sym M, K, BM, BK\n"
		"layout A = OrderBy(Row(M, K)).TileBy([cdiv(M, BM), K/BK], "
		"[BM, BK])\n"
		"layout D = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n"
		"layout E = OrderBy(Row(10, 8)).TileBy([cdiv(10, 4), cdiv(8, 4)],"
		" [4, 4])\n");
	CHECK(t, spec != NULL);
	const lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
	const lego_layout *d = spec ? lego_spec_layout(spec, "D") : NULL;
	const lego_layout *e = spec ? lego_spec_layout(spec, "E") : NULL;
	CHECK(t, a && d && e);
	if (a && d && e) {
		sym_view v;
		CHECK(t, view_of(ctx, a, "a", &v));
		/* Only the row can overflow: the mask is a + BM*i < M. */
		lego_expr *want = lego_binop(ctx, LEGO_LT,
			lego_add(ctx, v.idx[2], lego_mul(ctx, lego_sym(ctx, "BM"),
							 v.idx[0])),
			lego_sym(ctx, "M"));
		CHECK(t, lego_simplify(ctx, want) == v.mask);
		CHECK(t, !lego_layout_is_padded(d));
		CHECK(t, view_of(ctx, d, "d", &v) && v.mask == lego_const(ctx, 1));
		CHECK(t, lego_layout_is_padded(e));
		CHECK(t, view_of(ctx, e, "e", &v));
		/* 8 = 2*4 columns exactly: no column term; rows 10 of 12. */
		lego_env *env = lego_env_new(ctx);
		lego_env_bind(env, v.idx[1], 1);
		lego_env_bind(env, v.idx[3], 3);
		for (int64_t i = 0; i < 3; i++)
			for (int64_t r = 0; r < 4; r++) {
				int64_t m = -1;
				lego_env_bind(env, v.idx[0], i);
				lego_env_bind(env, v.idx[2], r);
				CHECK(t, lego_expr_eval(ctx, v.mask, env, &m) ==
					     LEGO_OK);
				CHECK_EQ(t, m, i * 4 + r < 10);
			}
		lego_env_free(env);
	}
	lego_ctx_free(ctx);
}

/* Tiles that do not cover the tensor are errors, and so are an index in
 * the padding and a physical index past the real tensor. */
static void test_errors(lego_test *t)
{
	test_case(t, "errors");
	lego_ctx *ctx = lego_ctx_new();
	CHECK(t, parse(ctx, "layout A = OrderBy(Row(10, 8)).TileBy([2, 2], "
			    "[4, 4])\n") == NULL);
	lego_spec *spec = parse(ctx, "layout A = OrderBy(Row(10, 8)).TileBy("
				     "[cdiv(10, 4), 2], [4, 4])\n");
	const lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
	CHECK(t, a != NULL);
	if (a) {
		int64_t idx[4] = {2, 0, 3, 0}, f, x[4];
		CHECK(t, lego_layout_apply_num(ctx, a, NULL, idx, &f) ==
			     LEGO_ERANGE);
		idx[2] = 1;
		CHECK(t, lego_layout_apply_num(ctx, a, NULL, idx, &f) == LEGO_OK);
		CHECK_EQ(t, f, 9 * 8);
		CHECK(t, lego_layout_inv_num(ctx, a, NULL, 80, x) == LEGO_ERANGE);
		CHECK(t, lego_layout_inv_num(ctx, a, NULL, 79, x) == LEGO_OK);
		CHECK(t, x[0] == 2 && x[1] == 1 && x[2] == 1 && x[3] == 3);
	}
	lego_ctx_free(ctx);
}

/* Parses "layout L = OrderBy(<chain>(r0, r1)).TileBy(<tiles>)" with defs. */
static const lego_layout *tiled(lego_ctx *ctx, const char *text,
				const lego_define *defs, size_t ndefs)
{
	lego_spec *spec = lego_spec_parse(ctx, "t.lego", text, strlen(text),
					  defs, ndefs);
	return spec ? lego_spec_layout(spec, "L") : NULL;
}

/* Sizes that multiply to the chain's total but not per dim are a reshape
 * (SEMANTICS.md: the GroupBy of the untiled row-major flat index), never a
 * padding guessed from values (issue 12): every 2-level tiling of every
 * r0 x r1 <= 6 x 6 whose sizes multiply to r0 * r1, against the
 * definition computed here. */
static void test_reshape(lego_test *t, int col)
{
	test_case(t, col ? "reshape_col" : "reshape_row");
	for (int64_t r0 = 1; r0 <= 6; r0++)
		for (int64_t r1 = 1; r1 <= 6; r1++)
			for (int64_t s0 = 1; s0 <= 6; s0++)
				for (int64_t s1 = 1; s1 <= 6; s1++)
					for (int64_t t0 = 1; t0 <= 6; t0++) {
	int64_t rest = r0 * r1, u1;
	if (rest % (s0 * s1 * t0))
		continue;
	int64_t t1 = rest / (s0 * s1 * t0);
	u1 = t1 * s1;
	char text[160];
	snprintf(text, sizeof text, "layout L = OrderBy(%s(%lld, %lld))."
		 "TileBy([%lld, %lld], [%lld, %lld])\n", col ? "Col" : "Row",
		 (long long)r0, (long long)r1, (long long)t0, (long long)t1,
		 (long long)s0, (long long)s1);
	lego_ctx *ctx = lego_ctx_new();
	const lego_layout *l = tiled(ctx, text, NULL, 0);
	int64_t tab[36];
	size_t n = 0;
	CHECKF(t, l && !lego_layout_is_padded(l), "%s: %s", text,
	       lego_ctx_error(ctx));
	if (l && lego_layout_table(ctx, l, NULL, tab, 36, &n) == LEGO_OK &&
	    n == (size_t)rest) {
		size_t e = 0;
		for (int64_t i0 = 0; i0 < t0; i0++)
			for (int64_t i1 = 0; i1 < t1; i1++)
				for (int64_t j0 = 0; j0 < s0; j0++)
					for (int64_t j1 = 0; j1 < s1; j1++) {
		int64_t u = (i0 * s0 + j0) * u1 + i1 * s1 + j1;
		int64_t a = u / r1, b = u % r1;
		int64_t want = col ? b * r0 + a : u;
		CHECKF(t, tab[e] == want, "%s: table[%zu] = %lld, expected "
		       "%lld", text, e, (long long)tab[e], (long long)want);
		e++;
					}
	} else {
		CHECKF(t, 0, "%s: no table (%s)", text, lego_ctx_error(ctx));
	}
	lego_ctx_free(ctx);
					}
}

/* cdiv tile counts with constant sizes (written, or given with -D) fold to
 * constants: the padding still comes from the cdiv written, and its table
 * is the padded one. */
static void test_cdiv_constants(lego_test *t)
{
	test_case(t, "cdiv_constants");
	const char *text = "sym M, K, BM, BK\nlayout L = OrderBy(Row(M, K))."
			   "TileBy([cdiv(M, BM), cdiv(K, BK)], [BM, BK])\n";
	for (int64_t m = 1; m <= 7; m++)
		for (int64_t k = 1; k <= 5; k++)
			for (int64_t bm = 1; bm <= 4; bm++)
				for (int64_t bk = 1; bk <= 3; bk++) {
	lego_define defs[] = {{"M", m}, {"K", k}, {"BM", bm}, {"BK", bk}};
	lego_ctx *ctx = lego_ctx_new();
	const lego_layout *l = tiled(ctx, text, defs, 4);
	int64_t tm = ceil_div(m, bm), tk = ceil_div(k, bk);
	int64_t tab[8 * 4 * 6], size = tm * bm * tk * bk;
	size_t n = 0;
	CHECKF(t, l && lego_layout_is_padded(l) ==
			       (m % bm != 0 || k % bk != 0),
	       "M=%lld K=%lld BM=%lld BK=%lld: %s", (long long)m,
	       (long long)k, (long long)bm, (long long)bk,
	       lego_ctx_error(ctx));
	CHECK(t, l && lego_layout_table(ctx, l, NULL, tab, 8 * 4 * 6, &n) ==
			      LEGO_OK && (int64_t)n == size);
	for (int64_t e = 0; e < (int64_t)n && e < size; e++) {
		int64_t b = e % bk, a = e / bk % bm, j = e / (bk * bm) % tk,
			i = e / (bk * bm * tk);
		int64_t r = i * bm + a, c = j * bk + b;
		CHECK_EQ(t, tab[e], r < m && c < k ? r * k + c : -1);
	}
	lego_ctx_free(ctx);
				}
}

/* A padded tiling must cover each dim with the ceiling, written as cdiv;
 * a dim beside a padded one must be exact. */
static void test_padding_errors(lego_test *t)
{
	test_case(t, "padding_errors");
	static const struct {
		const char *tiles, *msg;
	} bad[] = {
		{"[cdiv(4, 3), 2], [3, 2]", "dim 2"},
		{"[cdiv(4, 3), 3], [1, 2]", "not the ceiling"},
		{"[cdiv(4, 5), 3], [3, 2]", "not the ceiling"},
		{"[2, 2], [cdiv(3, 1), 2]", "outermost"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[160];
		snprintf(text, sizeof text, "layout L = OrderBy(Row(4, 6))."
			 "TileBy(%s)\n", bad[i].tiles);
		lego_ctx *ctx = lego_ctx_new();
		CHECKF(t, !tiled(ctx, text, NULL, 0) &&
				  strstr(lego_ctx_error(ctx), bad[i].msg) &&
				  !strncmp(lego_ctx_error(ctx), "t.lego:1:", 9),
		       "%s: %s", text, lego_ctx_error(ctx));
		lego_ctx_free(ctx);
	}
}

static lego_expr *placeholder(lego_spec *spec, const char *text)
{
	gen_slices slices = {0};
	int is_bool;
	return gen_placeholder_parse(spec, "t.tpl", 1, 1, text, strlen(text),
				     &slices, &is_bool);
}

/* {{ mask(A[..]) }} in a template is lego_layout_mask of the same index. */
static void test_template(lego_test *t)
{
	test_case(t, "template_mask");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, "sym M, K, BM, BK\nlayout A = OrderBy(Row("
				     "M, K)).TileBy([cdiv(M, BM), cdiv(K, BK)],"
				     " [BM, BK])\n");
	lego_expr *m = spec ? placeholder(spec, "mask(A[pm, k, r, c])") : NULL;
	CHECK(t, m != NULL);
	if (m) {
		const char *names[] = {"pm", "k", "r", "c"};
		lego_expr *idx[4];
		for (size_t n = 0; n < 4; n++)
			idx[n] = lego_sym_find(ctx, names[n]);
		CHECK(t, idx[0] && idx[1] && idx[2] && idx[3]);
		CHECK(t, m == lego_layout_mask(ctx, lego_spec_layout(spec, "A"),
					       idx));
		CHECK(t, placeholder(spec, "mask(3)") == NULL);
		CHECK(t, placeholder(spec, "mask(A[pm, k, r, c] + 1)") == NULL);
	}
	lego_ctx_free(ctx);
}

/* The grouped program ids of the Triton matmul tutorial, last group
 * narrower, as a GenP of expressions (docs/partial.md). */
static const char grouped_spec[] =
	"sym npm, npn, GM\n"
	"genp grouped[m, n](i, j) = (i / GM) * GM * n + j * min(m - (i / GM) "
	"* GM, GM) + i % GM inverse (x) = ((x / (GM * n)) * GM + (x % (GM * n)) "
	"% min(m - (x / (GM * n)) * GM, GM), (x % (GM * n)) / min(m - (x / "
	"(GM * n)) * GM, GM))\n"
	"layout P = GenP([npm, npn], grouped)\n";

/* The tutorial's code, transcribed. */
static void triton_pid(int64_t pid, int64_t npm, int64_t npn, int64_t gm,
		       int64_t *pid_m, int64_t *pid_n)
{
	int64_t in_group = gm * npn, group = pid / in_group;
	int64_t first = group * gm;
	int64_t size_m = npm - first < gm ? npm - first : gm;
	*pid_m = first + (pid % in_group) % size_m;
	*pid_n = (pid % in_group) / size_m;
}

static void test_grouped_pid(lego_test *t)
{
	test_case(t, "grouped_pid_any_gm");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, grouped_spec);
	const lego_layout *p = spec ? lego_spec_layout(spec, "P") : NULL;
	CHECK(t, p != NULL);
	lego_env *env = lego_env_new(ctx);
	for (int64_t m = 1; p && m <= 9; m++)
	for (int64_t n = 1; n <= 5; n++)
	for (int64_t g = 1; g <= 6; g++) {
		lego_env_bind(env, lego_sym_find(ctx, "npm"), m);
		lego_env_bind(env, lego_sym_find(ctx, "npn"), n);
		lego_env_bind(env, lego_sym_find(ctx, "GM"), g);
		CHECK(t, lego_layout_check(ctx, p, env, NULL) == LEGO_OK);
		for (int64_t pid = 0; pid < m * n; pid++) {
			int64_t idx[2] = {-1, -1}, wm, wn;
			triton_pid(pid, m, n, g, &wm, &wn);
			CHECK(t, lego_layout_inv_num(ctx, p, env, pid, idx) ==
				     LEGO_OK);
			CHECKF(t, idx[0] == wm && idx[1] == wn,
			       "npm=%lld npn=%lld GM=%lld pid %lld: (%lld, "
			       "%lld), expected (%lld, %lld)", (long long)m,
			       (long long)n, (long long)g, (long long)pid,
			       (long long)idx[0], (long long)idx[1],
			       (long long)wm, (long long)wn);
		}
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

static const char *const orderby_pid =
	"layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn))"
	".TileBy([npm, npn])\n";

/* The paper's OrderBy form of the grouped program ids is accepted exactly
 * where its sizes agree, max(npm/GM, 1) * min(npm, GM) == npm (GM | npm or
 * GM >= npm), and is then the tutorial's ordering; elsewhere the error says
 * what to write.  Sizes given with -D (defs), every npm 1..9, npn 1..4,
 * GM 1..10. */
static void test_grouped_orderby_defs(lego_test *t)
{
	test_case(t, "grouped_pid_orderby_defs");
	char text[256];
	snprintf(text, sizeof text, "sym npm, npn, GM\n%s", orderby_pid);
	for (int64_t m = 1; m <= 9; m++)
		for (int64_t n = 1; n <= 4; n++)
			for (int64_t g = 1; g <= 10; g++) {
	lego_define defs[] = {{"npm", m}, {"npn", n}, {"GM", g}};
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = lego_spec_parse(ctx, "p.lego", text, strlen(text),
					  defs, 3);
	const lego_layout *p = spec ? lego_spec_layout(spec, "P") : NULL;
	int64_t groups = m / g > 1 ? m / g : 1, height = m < g ? m : g;
	int agree = groups * height == m;
	CHECKF(t, (p != NULL) == agree, "npm=%lld npn=%lld GM=%lld: %s",
	       (long long)m, (long long)n, (long long)g, lego_ctx_error(ctx));
	if (!p) {
		CHECK(t, strstr(lego_ctx_error(ctx), "docs/partial.md") &&
				 strstr(lego_ctx_error(ctx), "p.lego:2:"));
		lego_ctx_free(ctx);
		continue;
	}
	for (int64_t pid = 0; pid < m * n; pid++) {
		int64_t idx[2] = {-1, -1}, wm, wn;
		triton_pid(pid, m, n, g, &wm, &wn);
		CHECK(t, lego_layout_inv_num(ctx, p, NULL, pid, idx) == LEGO_OK);
		CHECKF(t, idx[0] == wm && idx[1] == wn,
		       "npm=%lld npn=%lld GM=%lld pid %lld", (long long)m,
		       (long long)n, (long long)g, (long long)pid);
	}
	lego_ctx_free(ctx);
			}
}

/* Symbolic: with `assume GM >= npm` the sizes agree (Z3 splits the min
 * and max), and the symbolic inverse is the tutorial's ordering; with no
 * fact the error names the witness and the assume. */
static void test_grouped_orderby_symbolic(lego_test *t)
{
	test_case(t, "grouped_pid_orderby_symbolic");
	if (!lego_smt_available())
		return;  /* the case split is Z3's */
	char text[300];
	snprintf(text, sizeof text, "sym npm, npn, GM\nassume GM >= npm\n%s",
		 orderby_pid);
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text);
	lego_layout *p = spec ? lego_spec_layout(spec, "P") : NULL;
	CHECKF(t, p != NULL, "%s", lego_ctx_error(ctx));
	lego_expr *x = lego_index(ctx, "x", NULL, NULL), *inv[2];
	if (p && lego_layout_inv(ctx, p, x, inv) == LEGO_OK) {
		lego_env *env = lego_env_new(ctx);
		for (int64_t m = 1; m <= 6; m++)
			for (int64_t n = 1; n <= 4; n++)
				for (int64_t g = m; g <= 8; g++) {
			lego_env_bind(env, lego_sym_find(ctx, "npm"), m);
			lego_env_bind(env, lego_sym_find(ctx, "npn"), n);
			lego_env_bind(env, lego_sym_find(ctx, "GM"), g);
			for (int64_t pid = 0; pid < m * n; pid++) {
				int64_t v[2] = {-1, -1}, wm, wn;
				lego_env_bind(env, x, pid);
				triton_pid(pid, m, n, g, &wm, &wn);
				CHECK(t, lego_expr_eval(ctx, inv[0], env, &v[0]) ==
						 LEGO_OK &&
					 lego_expr_eval(ctx, inv[1], env, &v[1]) ==
						 LEGO_OK);
				CHECK(t, v[0] == wm && v[1] == wn);
			}
				}
		lego_env_free(env);
	} else {
		CHECKF(t, 0, "no inverse: %s", lego_ctx_error(ctx));
	}
	lego_ctx_free(ctx);
	snprintf(text, sizeof text, "sym npm, npn, GM\n%s", orderby_pid);
	ctx = lego_ctx_new();
	CHECK(t, parse(ctx, text) == NULL);
	const char *e = lego_ctx_error(ctx);
	CHECKF(t, strstr(e, "differ (for ") &&
			  strstr(e, "assume npm % GM == 0") &&
			  strstr(e, "docs/partial.md"), "%s", e);
	lego_ctx_free(ctx);
}

void suite_partial(lego_test *t)
{
	test_grouped_pid(t);
	test_grouped_orderby_defs(t);
	test_grouped_orderby_symbolic(t);
	test_template(t);
	test_cdiv(t);
	test_exhaustive(t, "Row", 0);
	test_exhaustive(t, "Col", 1);
	test_mask_terms(t);
	test_errors(t);
	test_reshape(t, 0);
	test_reshape(t, 1);
	test_cdiv_constants(t);
	test_padding_errors(t);
}
