/* test_layout.c - layouts: the paper's and SEMANTICS.md's examples, the
 * built-in GenPs against independent computations, symbolic == numeric,
 * errors and witnesses.  Expected values come from the paper, SEMANTICS.md
 * or computations written here, never from the code under test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"
#include "layout/layout.h"

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

/* Row-major flat of a logical index. */
static int64_t flat_of(size_t n, const int64_t *dims, const int64_t *idx)
{
	int64_t x = 0;
	for (size_t k = 0; k < n; k++)
		x = x * dims[k] + idx[k];
	return x;
}

static void unflat(size_t n, const int64_t *dims, int64_t x, int64_t *idx)
{
	for (size_t k = n; k-- > 0;) {
		idx[k] = x % dims[k];
		x /= dims[k];
	}
}

/* Concrete logical dims of l under env. */
static size_t dims_of(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, int64_t *dims)
{
	size_t r = lego_layout_rank(l);
	for (size_t k = 0; k < r; k++)
		if (lego_expr_eval(ctx, lego_layout_dim(l, k), env, &dims[k]))
			return 0;
	return r;
}

/* Numeric apply and inverse agree with want[] (row-major logical order)
 * for every index, the table too, and check() succeeds. */
static void check_table(lego_test *t, lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, const int64_t *want,
			size_t nwant)
{
	int64_t dims[16], idx[16], back[16], f;
	size_t r = dims_of(ctx, l, env, dims), size = 0;
	int64_t *table = calloc(nwant ? nwant : 1, sizeof *table);
	CHECKF(t, l && r, "no layout: %s", lego_ctx_error(ctx));
	if (!l || !r || !table) {
		free(table);
		return;
	}
	CHECK_EQ(t, lego_layout_table(ctx, l, env, table, nwant, &size), 0);
	CHECK_EQ(t, size, nwant);
	for (size_t x = 0; x < nwant; x++) {
		unflat(r, dims, (int64_t)x, idx);
		CHECK_EQ(t, table[x], want[x]);
		CHECK_EQ(t, lego_layout_apply_num(ctx, l, env, idx, &f), 0);
		CHECK_EQ(t, f, want[x]);
		CHECK_EQ(t, lego_layout_inv_num(ctx, l, env, want[x], back), 0);
		CHECK_EQ(t, flat_of(r, dims, back), (int64_t)x);
	}
	lego_check_report rep;
	CHECKF(t, lego_layout_check(ctx, l, env, &rep) == LEGO_OK, "check: %s",
	       lego_ctx_error(ctx));
	CHECK_EQ(t, rep.size, (int64_t)nwant);
	free(table);
}

/* Symbolic apply/inv, evaluated for every index, equal numeric apply/inv.
 * env holds the size symbols (or is empty); index symbols are added. */
static void check_sym(lego_test *t, lego_ctx *ctx, const lego_layout *l,
		      lego_env *env)
{
	int64_t dims[16], idx[16], want[16], v, f, size = 1;
	size_t r = dims_of(ctx, l, env, dims);
	lego_expr *syms[16], *inv[16];
	char name[32];
	CHECK(t, r > 0);
	for (size_t k = 0; k < r; k++) {
		snprintf(name, sizeof name, "i%zu", k);
		syms[k] = lego_index(ctx, name, C(ctx, 0), NULL);
		size *= dims[k];
	}
	lego_expr *x = lego_index(ctx, "xflat", C(ctx, 0), NULL);
	lego_expr *app = lego_layout_apply(ctx, l, syms);
	CHECKF(t, app, "apply: %s", lego_ctx_error(ctx));
	CHECKF(t, lego_layout_inv(ctx, l, x, inv) == LEGO_OK, "inv: %s",
	       lego_ctx_error(ctx));
	if (!app)
		return;
	for (int64_t e = 0; e < size; e++) {
		unflat(r, dims, e, idx);
		for (size_t k = 0; k < r; k++)
			lego_env_bind(env, syms[k], idx[k]);
		CHECK_EQ(t, lego_layout_apply_num(ctx, l, env, idx, &f), 0);
		CHECKF(t, lego_expr_eval(ctx, app, env, &v) == 0 && v == f,
		       "apply at %lld: sym %lld num %lld (%s)", (long long)e,
		       (long long)v, (long long)f, lego_ctx_error(ctx));
		lego_env_bind(env, x, e);
		CHECK_EQ(t, lego_layout_inv_num(ctx, l, env, e, want), 0);
		for (size_t k = 0; k < r; k++)
			CHECKF(t, lego_expr_eval(ctx, inv[k], env, &v) == 0 &&
					  v == want[k],
			       "inv(%lld)[%zu]: sym %lld num %lld",
			       (long long)e, k, (long long)v,
			       (long long)want[k]);
	}
}

static void check_sym_const(lego_test *t, lego_ctx *ctx, const lego_layout *l)
{
	lego_env *env = lego_env_new(ctx);
	check_sym(t, ctx, l, env);
	lego_env_free(env);
}

static lego_layout *regp2(lego_ctx *ctx, int64_t a, int64_t b, int p1,
			  int p2)
{
	lego_expr *d[2] = {C(ctx, a), C(ctx, b)};
	int perm[2] = {p1, p2};
	return lego_regp(ctx, 2, d, perm);
}

static lego_layout *row2(lego_ctx *ctx, int64_t a, int64_t b)
{
	lego_expr *d[2] = {C(ctx, a), C(ctx, b)};
	return lego_row(ctx, 2, d);
}

static lego_layout *col2(lego_ctx *ctx, int64_t a, int64_t b)
{
	lego_expr *d[2] = {C(ctx, a), C(ctx, b)};
	return lego_col(ctx, 2, d);
}

static lego_layout *group1(lego_ctx *ctx, size_t n, const int64_t *dims,
			   size_t nchain, lego_layout *const *chain)
{
	lego_expr *d[16];
	for (size_t k = 0; k < n; k++)
		d[k] = C(ctx, dims[k]);
	return lego_groupby(ctx, 1, &n, d, nchain, chain);
}

/* ------------------------------------------------------ paper, figure 9 */

static void test_figure9(lego_test *t)
{
	test_case(t, "figure9");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *d4[4] = {C(ctx, 2), C(ctx, 3), C(ctx, 2), C(ctx, 3)};
	int p4[4] = {1, 3, 2, 4};
	lego_layout *lv1[2] = {regp2(ctx, 2, 2, 2, 1),
			       lego_genp_antidiag(ctx, C(ctx, 3))};
	lego_layout *o1 = lego_orderby(ctx, 2, lv1);
	lego_layout *r4 = lego_regp(ctx, 4, d4, p4);
	lego_layout *o2 = lego_orderby(ctx, 1, &r4);
	lego_layout *chain[2] = {o1, o2};
	int64_t g66[2] = {6, 6}, idx[2] = {4, 2}, back[2], f;
	lego_layout *g = group1(ctx, 2, g66, 2, chain);
	lego_layout *g2 = group1(ctx, 2, g66, 1, &o2);
	CHECKF(t, g && g2, "%s", lego_ctx_error(ctx));
	CHECK_EQ(t, lego_layout_apply_num(ctx, g, NULL, idx, &f), 0);
	CHECK_EQ(t, f, 15);
	CHECK_EQ(t, lego_layout_apply_num(ctx, g2, NULL, idx, &f), 0);
	CHECK_EQ(t, f, 23);
	CHECK_EQ(t, lego_layout_inv_num(ctx, g, NULL, 15, back), 0);
	CHECK_EQ(t, back[0], 4);
	CHECK_EQ(t, back[1], 2);
	lego_check_report rep;
	CHECK_EQ(t, lego_layout_check(ctx, g, NULL, &rep), LEGO_OK);
	CHECK(t, rep.bijective && rep.inverse_ok && rep.size == 36);
	check_sym_const(t, ctx, g);
	check_sym_const(t, ctx, g2);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------- SEMANTICS.md tables */

static lego_layout *tiled_4x6(lego_ctx *ctx, lego_layout *p)
{
	lego_expr *sizes[4] = {C(ctx, 2), C(ctx, 3), C(ctx, 2), C(ctx, 2)};
	lego_layout *o = lego_orderby(ctx, 1, &p);
	return lego_tileby(ctx, 1, &o, 2, 2, sizes);
}

static void test_tileby_tables(lego_test *t)
{
	static const int64_t row[24] = {0,  1,  6,  7,  2,  3,  8,  9,
					4,  5,  10, 11, 12, 13, 18, 19,
					14, 15, 20, 21, 16, 17, 22, 23};
	static const int64_t col[24] = {0, 4,  1,  5,  8,  12, 9,  13,
					16, 20, 17, 21, 2, 6,  3,  7,
					10, 14, 11, 15, 18, 22, 19, 23};
	test_case(t, "tileby_tables");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *r = tiled_4x6(ctx, row2(ctx, 4, 6));
	lego_layout *c = tiled_4x6(ctx, col2(ctx, 4, 6));
	check_table(t, ctx, r, NULL, row, 24);
	check_table(t, ctx, c, NULL, col, 24);
	check_sym_const(t, ctx, r);
	check_sym_const(t, ctx, c);
	lego_ctx_free(ctx);
}

static void test_sigma(lego_test *t)
{
	static const int s22[] = {1, 3, 2, 4}, s23[] = {1, 3, 5, 2, 4, 6},
			 s32[] = {1, 4, 2, 5, 3, 6};
	int out[6];
	test_case(t, "sigma");
	layout_sigma(2, 2, out);
	CHECK(t, !memcmp(out, s22, sizeof s22));
	layout_sigma(2, 3, out);
	CHECK(t, !memcmp(out, s23, sizeof s23));
	layout_sigma(3, 2, out);
	CHECK(t, !memcmp(out, s32, sizeof s32));
}

static int64_t z_square(int64_t i, int64_t j, int64_t size)
{
	if (size == 1)
		return 0;
	int64_t h = size / 2, q = (i / h) * 2 + (j / h);
	return q * h * h + z_square(i % h, j % h, h);
}

/* Blocks of s x s (s the shorter side) along the longer side, each in
 * Z-order. */
static int64_t z_rect(int64_t rows, int64_t cols, int64_t i, int64_t j)
{
	int64_t s = rows < cols ? rows : cols;
	int64_t block = rows > cols ? i / s : j / s;
	return block * s * s + z_square(i % s, j % s, s);
}

/* sigma_{2 x 3} is not an involution: a chain OrderBy of three 2-d levels
 * (its R(O)) and a 3-level TileBy (its T) exercise sigma and sigma^-1. */
static void test_tileby_levels(lego_test *t)
{
	int64_t want[64], i[6], d6[6] = {2, 2, 2, 2, 2, 2};
	test_case(t, "tileby_levels");
	lego_ctx *ctx = lego_ctx_new();
	/* OrderBy(Row(2,2) x3).TileBy([8,8]) is the Z-order of 8 x 8 */
	lego_layout *lv[3] = {row2(ctx, 2, 2), row2(ctx, 2, 2),
			      row2(ctx, 2, 2)};
	lego_layout *o = lego_orderby(ctx, 3, lv);
	lego_expr *s88[2] = {C(ctx, 8), C(ctx, 8)};
	lego_layout *z = lego_tileby(ctx, 1, &o, 1, 2, s88);
	for (int64_t x = 0; x < 64; x++)
		want[x] = z_square(x / 8, x % 8, 8);
	check_table(t, ctx, z, NULL, want, 64);
	check_sym_const(t, ctx, z);
	/* Row(8,8).TileBy([2,2],[2,2],[2,2]): (a1,b1,a2,b2,a3,b3) is the
	 * untiled (a1*4 + a2*2 + a3, b1*4 + b2*2 + b3) */
	lego_expr *s[6];
	for (int k = 0; k < 6; k++)
		s[k] = C(ctx, 2);
	lego_layout *r = row2(ctx, 8, 8);
	lego_layout *l = lego_tileby(ctx, 1, &r, 3, 2, s);
	for (int64_t x = 0; x < 64; x++) {
		unflat(6, d6, x, i);
		want[x] = (i[0] * 4 + i[2] * 2 + i[4]) * 8 + i[1] * 4 +
			  i[3] * 2 + i[5];
	}
	check_table(t, ctx, l, NULL, want, 64);
	check_sym_const(t, ctx, l);
	lego_ctx_free(ctx);
}

/* TileOrderBy(Row(2,3), Row(2,2)): logical (r1, r2, c1, c2) over [2,2,3,2]
 * is tile (r1, c1) in row-major tile order, (r2, c2) row-major within. */
static void test_tile_orderby(lego_test *t)
{
	int64_t want[24], i[4], dims[4] = {2, 2, 3, 2};
	test_case(t, "tile_orderby");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *lv[2] = {row2(ctx, 2, 3), row2(ctx, 2, 2)};
	lego_layout *l = lego_tile_orderby(ctx, 2, lv);
	for (int64_t x = 0; x < 24; x++) {
		unflat(4, dims, x, i);
		want[x] = (i[0] * 3 + i[2]) * 4 + i[1] * 2 + i[3];
	}
	check_table(t, ctx, l, NULL, want, 24);
	check_sym_const(t, ctx, l);
	lego_ctx_free(ctx);
}

/* Levels of different dimensionality; several groups. */
static void test_mixed_levels(lego_test *t)
{
	int64_t want[24], i[3], dims[3] = {2, 3, 4};
	test_case(t, "mixed_levels");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *four = C(ctx, 4);
	lego_layout *lv[2] = {regp2(ctx, 2, 3, 2, 1), lego_row(ctx, 1, &four)};
	lego_layout *o = lego_orderby(ctx, 2, lv);
	for (int64_t x = 0; x < 24; x++) {
		unflat(3, dims, x, i);
		want[x] = (i[1] * 2 + i[0]) * 4 + i[2];
	}
	check_table(t, ctx, o, NULL, want, 24);
	check_sym_const(t, ctx, o);

	/* GroupBy([2,3],[4]) of Col(6,4): (a,b,c) -> c*6 + a*3 + b */
	size_t lens[2] = {2, 1};
	lego_expr *g[3] = {C(ctx, 2), C(ctx, 3), four};
	lego_layout *cl = col2(ctx, 6, 4);
	lego_layout *gb = lego_groupby(ctx, 2, lens, g, 1, &cl);
	for (int64_t x = 0; x < 24; x++) {
		unflat(3, dims, x, i);
		want[x] = i[2] * 6 + i[0] * 3 + i[1];
	}
	check_table(t, ctx, gb, NULL, want, 24);
	check_sym_const(t, ctx, gb);
	/* a plain Row is the identity on row-major flats */
	for (int64_t x = 0; x < 24; x++)
		want[x] = x;
	check_table(t, ctx, row2(ctx, 4, 6), NULL, want, 24);
	lego_ctx_free(ctx);
}

/* ------------------------------------------- grouped program-id layout */

static lego_layout *grouped_pid(lego_ctx *ctx, int64_t npm, int64_t npn,
				int64_t gm)
{
	lego_expr *m = C(ctx, npm), *n = C(ctx, npn), *g = C(ctx, gm);
	lego_expr *c1[2] = {lego_max(ctx, lego_div(ctx, m, g), C(ctx, 1)),
			    C(ctx, 1)};
	lego_expr *c2[2] = {lego_min(ctx, m, g), n};
	lego_layout *lv[2] = {lego_col(ctx, 2, c1), lego_col(ctx, 2, c2)};
	lego_layout *o = lego_orderby(ctx, 2, lv);
	lego_expr *sizes[2] = {m, n};
	return lego_tileby(ctx, 1, &o, 1, 2, sizes);
}

static void test_grouped_pid(lego_test *t)
{
	static const int64_t cfg[4][3] = {
		{8, 6, 4}, {4, 5, 2}, {6, 3, 3}, {16, 16, 8}};
	test_case(t, "grouped_pid");
	for (int c = 0; c < 4; c++) {
		int64_t npm = cfg[c][0], npn = cfg[c][1], gm = cfg[c][2];
		lego_ctx *ctx = lego_ctx_new();
		lego_layout *p = grouped_pid(ctx, npm, npn, gm);
		CHECKF(t, p, "%s", lego_ctx_error(ctx));
		for (int64_t pid = 0; p && pid < npm * npn; pid++) {
			int64_t in_group = gm * npn;
			int64_t group_id = pid / in_group;
			int64_t first_m = group_id * gm;
			int64_t size_m = npm - first_m < gm ? npm - first_m
							    : gm;
			int64_t pid_m = first_m + (pid % in_group) % size_m;
			int64_t pid_n = (pid % in_group) / size_m;
			int64_t got[2];
			CHECK_EQ(t, lego_layout_inv_num(ctx, p, NULL, pid, got),
				 0);
			CHECKF(t, got[0] == pid_m && got[1] == pid_n,
			       "%lld,%lld,%lld pid %lld: (%lld, %lld), want "
			       "(%lld, %lld)", (long long)npm, (long long)npn,
			       (long long)gm, (long long)pid, (long long)got[0],
			       (long long)got[1], (long long)pid_m,
			       (long long)pid_n);
		}
		lego_check_report rep;
		CHECK_EQ(t, lego_layout_check(ctx, p, NULL, &rep), LEGO_OK);
		if (npm * npn <= 100)
			check_sym_const(t, ctx, p);
		lego_ctx_free(ctx);
	}
}

/* ------------------------------------------------------------ antidiag */

/* Walk the anti-diagonals in order, numbering cells (i increasing). */
static void antidiag_walk(int64_t n, int64_t *num)
{
	int64_t k = 0;
	for (int64_t s = 0; s <= 2 * n - 2; s++)
		for (int64_t i = 0; i < n; i++)
			if (s - i >= 0 && s - i < n)
				num[i * n + (s - i)] = k++;
}

/* Closed form, written differently: cells on the anti-diagonals before
 * s = i + j, plus the position of (i, j) on its own. */
static uint64_t antidiag_closed(uint64_t n, uint64_t i, uint64_t j)
{
	uint64_t s = i + j, before, first_i;
	if (s < n) {
		before = s % 2 ? s * ((s + 1) / 2) : (s / 2) * (s + 1);
		first_i = 0;
	} else { /* all but the last 2n-1-s diagonals, whose sizes are
		  * 1 .. 2n-1-s */
		uint64_t rest = 2 * n - 1 - s;
		uint64_t tail = rest % 2 ? rest * ((rest + 1) / 2)
					 : (rest / 2) * (rest + 1);
		before = n * n - tail;
		first_i = s - (n - 1);
	}
	return before + (i - first_i);
}

static void test_antidiag_small(lego_test *t)
{
	test_case(t, "antidiag_small");
	for (int64_t n = 1; n <= 40; n++) {
		lego_ctx *ctx = lego_ctx_new();
		int64_t *want = malloc((size_t)(n * n) * sizeof *want);
		antidiag_walk(n, want);
		for (int64_t x = 0; x < n * n; x++)
			CHECK_EQ(t, want[x], (int64_t)antidiag_closed(
						     (uint64_t)n,
						     (uint64_t)(x / n),
						     (uint64_t)(x % n)));
		lego_layout *a = lego_genp_antidiag(ctx, C(ctx, n));
		check_table(t, ctx, a, NULL, want, (size_t)(n * n));
		if (n <= 9)
			check_sym_const(t, ctx, a);
		free(want);
		lego_ctx_free(ctx);
	}
}

static void test_antidiag_large(lego_test *t)
{
	static const int64_t ns[] = {3037000, 1 << 20, 3037000499};
	test_case(t, "antidiag_large");
	for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
		int64_t n = ns[c];
		int64_t pts[][2] = {{0, 0},         {0, 1},
				    {n - 1, 0},     {0, n - 1},
				    {n / 2, n / 2}, {n / 2, n / 2 - 1},
				    {n - 1, n - 2}, {n - 2, n - 1},
				    {1, n - 1},     {n - 1, n - 1},
				    {12345, n - 7}, {n - 3, 999}};
		lego_ctx *ctx = lego_ctx_new();
		lego_layout *a = lego_genp_antidiag(ctx, C(ctx, n));
		lego_expr *i = lego_index(ctx, "i", C(ctx, 0), NULL);
		lego_expr *j = lego_index(ctx, "j", C(ctx, 0), NULL);
		lego_expr *x = lego_index(ctx, "x", C(ctx, 0), NULL);
		lego_expr *ij[2] = {i, j}, *inv[2];
		lego_expr *app = lego_layout_apply(ctx, a, ij);
		CHECK_EQ(t, lego_layout_inv(ctx, a, x, inv), 0);
		lego_env *env = lego_env_new(ctx);
		for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
			int64_t want = (int64_t)antidiag_closed(
				(uint64_t)n, (uint64_t)pts[p][0],
				(uint64_t)pts[p][1]);
			int64_t f, back[2], v;
			CHECK_EQ(t, lego_layout_apply_num(ctx, a, NULL, pts[p],
							  &f), 0);
			CHECK_EQ(t, f, want);
			CHECK_EQ(t, lego_layout_inv_num(ctx, a, NULL, want,
							back), 0);
			CHECK_EQ(t, back[0], pts[p][0]);
			CHECK_EQ(t, back[1], pts[p][1]);
			lego_env_bind(env, i, pts[p][0]);
			lego_env_bind(env, j, pts[p][1]);
			lego_env_bind(env, x, want);
			CHECK(t, !lego_expr_eval(ctx, app, env, &v) && v == want);
			CHECK(t, !lego_expr_eval(ctx, inv[0], env, &v) &&
					 v == pts[p][0]);
			CHECK(t, !lego_expr_eval(ctx, inv[1], env, &v) &&
					 v == pts[p][1]);
		}
		lego_env_free(env);
		lego_ctx_free(ctx);
	}
}

/* -------------------------------------------------------------- morton */

static void test_morton(lego_test *t)
{
	static const int64_t shapes[][2] = {{1, 1}, {2, 2}, {4, 8}, {8, 2},
					    {16, 16}, {1, 4}, {4, 1}, {32, 8}};
	test_case(t, "morton");
	for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
		int64_t rows = shapes[c][0], cols = shapes[c][1];
		int64_t want[256];
		lego_ctx *ctx = lego_ctx_new();
		for (int64_t x = 0; x < rows * cols; x++)
			want[x] = z_rect(rows, cols, x / cols, x % cols);
		lego_layout *m = lego_genp_morton(ctx, C(ctx, rows),
						  C(ctx, cols));
		check_table(t, ctx, m, NULL, want, (size_t)(rows * cols));
		check_sym_const(t, ctx, m);
		lego_ctx_free(ctx);
	}
	lego_ctx *ctx = lego_ctx_new();
	CHECK(t, !lego_genp_morton(ctx, C(ctx, 3), C(ctx, 4)));
	CHECK(t, strstr(lego_ctx_error(ctx), "power-of-two") != NULL);
	/* symbolic dims: numeric check when concrete, symbolic refused */
	lego_expr *r = lego_sym(ctx, "R"), *i[2] = {C(ctx, 0), C(ctx, 0)};
	lego_layout *m = lego_genp_morton(ctx, r, C(ctx, 4));
	CHECK(t, m != NULL);
	CHECK(t, !lego_layout_apply(ctx, m, i));
	CHECK(t, strstr(lego_ctx_error(ctx), "symbolic") != NULL);
	lego_env *env = lego_env_new(ctx);
	lego_env_bind(env, r, 6);
	lego_check_report rep;
	CHECK(t, lego_layout_check(ctx, m, env, &rep) != LEGO_OK);
	CHECK(t, strstr(lego_ctx_error(ctx), "power-of-two") != NULL);
	lego_env_bind(env, r, 8);
	CHECK_EQ(t, lego_layout_check(ctx, m, env, &rep), LEGO_OK);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------- swizzle */

/* Bit by bit: output bit p, M <= p < M+B, is o's bit p xor bit p+S. */
static int64_t swizzle_bits(int b, int m, int s, int64_t o)
{
	int64_t r = o;
	for (int p = m; p < m + b; p++) {
		int64_t bit = ((o >> p) ^ (o >> (p + s))) & 1;
		r = (r & ~(INT64_C(1) << p)) | (bit << p);
	}
	return r;
}

static void test_swizzle(lego_test *t)
{
	static const int params[][3] = {{1, 0, 1}, {2, 0, 2}, {2, 1, 3},
					{3, 3, 3}, {3, 4, 3}, {2, 2, 4},
					{0, 0, 0}, {1, 2, 5}};
	test_case(t, "swizzle_claim");
	/* The claim behind the constructor: S >= B makes it an involution;
	 * S < B does not (for each case some o breaks it). */
	for (int b = 0; b <= 3; b++)
		for (int m = 0; m <= 3; m++)
			for (int s = 0; s <= 4; s++) {
				int inv = 1;
				for (int64_t o = 0; o < 1024; o++)
					inv &= swizzle_bits(b, m, s,
							    swizzle_bits(b, m,
									 s, o)) ==
					       o;
				CHECKF(t, inv == (s >= b || b == 0),
				       "B=%d M=%d S=%d", b, m, s);
			}
	test_case(t, "swizzle");
	for (size_t c = 0; c < sizeof params / sizeof params[0]; c++) {
		int b = params[c][0], m = params[c][1], s = params[c][2];
		lego_ctx *ctx = lego_ctx_new();
		/* [8, 2^(b+m+s) / 8] rows x cols, at least 2^(m+b) */
		int64_t size = INT64_C(1) << (b + m + s + 1);
		int64_t cols = size / 8 > 0 ? size / 8 : 1;
		lego_expr *d[2] = {C(ctx, size / cols), C(ctx, cols)};
		int64_t *want = malloc((size_t)size * sizeof *want);
		for (int64_t o = 0; o < size; o++)
			want[o] = swizzle_bits(b, m, s, o);
		lego_layout *z = lego_genp_swizzle(ctx, b, m, s, 2, d);
		check_table(t, ctx, z, NULL, want, (size_t)size);
		if (size <= 512)
			check_sym_const(t, ctx, z);
		free(want);
		lego_ctx_free(ctx);
	}
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *d[2] = {C(ctx, 8), C(ctx, 8)}, *d3[1] = {C(ctx, 12)};
	CHECK(t, !lego_genp_swizzle(ctx, 3, 0, 2, 2, d));
	CHECK(t, strstr(lego_ctx_error(ctx), "S >= B") != NULL);
	CHECK(t, !lego_genp_swizzle(ctx, 2, 1, 3, 1, d3));
	CHECK(t, strstr(lego_ctx_error(ctx), "multiple of") != NULL);
	lego_ctx_free(ctx);
}

/* ---------------------------------------------------------- user GenPs */

/* transpose of a [r, c] square as a callback GenP (numeric only) */
static int tr_apply(void *user, size_t d, const int64_t *dims,
		    const int64_t *idx, int64_t *flat)
{
	*flat = idx[1] * dims[0] + idx[0];
	return 0;
}

static int tr_inv(void *user, size_t d, const int64_t *dims, int64_t flat,
		  int64_t *idx)
{
	idx[0] = flat % dims[0];
	idx[1] = flat / dims[0];
	return 0;
}

/* not a bijection: (i, j) -> i */
static int first_apply(void *user, size_t d, const int64_t *dims,
		       const int64_t *idx, int64_t *flat)
{
	*flat = idx[0];
	return 0;
}

static void test_user_genp(lego_test *t)
{
	int64_t want[12];
	test_case(t, "user_genp_callback");
	lego_ctx *ctx = lego_ctx_new();
	lego_genp_fn fn = {.name = "tr", .apply = tr_apply, .inv = tr_inv};
	lego_expr *d[2] = {C(ctx, 3), C(ctx, 4)};
	lego_layout *g = lego_genp(ctx, 2, d, &fn);
	for (int64_t x = 0; x < 12; x++)
		want[x] = (x % 4) * 3 + x / 4;
	check_table(t, ctx, g, NULL, want, 12);
	lego_expr *ij[2] = {C(ctx, 0), C(ctx, 1)};
	CHECK(t, !lego_layout_apply(ctx, g, ij));
	CHECK(t, strstr(lego_ctx_error(ctx), "tr") != NULL);

	test_case(t, "user_genp_exprs");
	/* language.md: swz[n](i, j) = i*n + (j ^ i)
	 *              inverse (x) = (x / n, (x % n) ^ (x / n)), n = 4 */
	lego_expr *i = lego_index(ctx, "gi", C(ctx, 0), NULL);
	lego_expr *j = lego_index(ctx, "gj", C(ctx, 0), NULL);
	lego_expr *x = lego_index(ctx, "gx", C(ctx, 0), NULL);
	lego_expr *n = C(ctx, 4), *params[2] = {i, j};
	lego_expr *app = lego_add(ctx, lego_mul(ctx, i, n),
				  lego_binop(ctx, LEGO_BXOR, j, i));
	lego_expr *inv[2] = {lego_div(ctx, x, n),
			     lego_binop(ctx, LEGO_BXOR, lego_mod(ctx, x, n),
					lego_div(ctx, x, n))};
	lego_expr *dn[2] = {n, n};
	lego_layout *s = lego_genp_exprs(ctx, "swz", 2, dn, params, app, x, inv);
	int64_t w16[16];
	for (int64_t e = 0; e < 16; e++)
		w16[e] = (e / 4) * 4 + ((e % 4) ^ (e / 4));
	check_table(t, ctx, s, NULL, w16, 16);
	check_sym_const(t, ctx, s);
	/* with a symbolic dim N bound by the env (N = 4) */
	lego_expr *nn = lego_sym(ctx, "N"), *dnn[2] = {nn, nn};
	lego_expr *sapp = lego_add(ctx, lego_mul(ctx, i, nn),
				   lego_binop(ctx, LEGO_BXOR, j, i));
	lego_expr *sinv[2] = {lego_div(ctx, x, nn),
			      lego_binop(ctx, LEGO_BXOR, lego_mod(ctx, x, nn),
					 lego_div(ctx, x, nn))};
	lego_layout *ss = lego_genp_exprs(ctx, "swzN", 2, dnn, params, sapp,
					  x, sinv);
	lego_env *env = lego_env_new(ctx);
	lego_env_bind(env, nn, 4);
	check_table(t, ctx, ss, env, w16, 16);
	check_sym(t, ctx, ss, env);
	lego_env_free(env);
	/* as a level of a tiled layout: Row(8, 8) tiles of 4x4 swizzled */
	lego_layout *lv[2] = {row2(ctx, 2, 2), s};
	lego_layout *o = lego_orderby(ctx, 2, lv);
	lego_check_report rep;
	CHECK_EQ(t, lego_layout_check(ctx, o, NULL, &rep), LEGO_OK);
	check_sym_const(t, ctx, o);
	lego_ctx_free(ctx);
}

/* --------------------------------------------------------------- errors */

static void test_errors(lego_test *t)
{
	test_case(t, "errors_construct");
	lego_ctx *ctx = lego_ctx_new();
	CHECK(t, !regp2(ctx, 2, 3, 1, 1));
	CHECK(t, strstr(lego_ctx_error(ctx), "entry 2") != NULL);
	CHECK(t, !regp2(ctx, 2, 3, 0, 2));
	CHECK(t, strstr(lego_ctx_error(ctx), "entry 1") != NULL);
	CHECK(t, !regp2(ctx, 2, 3, 1, 3));
	CHECK(t, !row2(ctx, 0, 3));
	CHECK(t, strstr(lego_ctx_error(ctx), "positive") != NULL);
	CHECK(t, !row2(ctx, 2, -1));
	int64_t g65[2] = {6, 5};
	lego_layout *r66 = row2(ctx, 6, 6);
	CHECK(t, !group1(ctx, 2, g65, 1, &r66));
	CHECK(t, strstr(lego_ctx_error(ctx), "30") &&
		 strstr(lego_ctx_error(ctx), "36"));
	lego_layout *chain[2] = {r66, row2(ctx, 6, 5)};
	int64_t g66[2] = {6, 6};
	CHECK(t, !group1(ctx, 2, g66, 2, chain));
	/* symbolic sizes that cannot be proved equal */
	lego_expr *m = lego_sym(ctx, "M"), *n = lego_sym(ctx, "N");
	lego_expr *dm[1] = {m}, *dn[1] = {n};
	lego_layout *rm = lego_row(ctx, 1, dm);
	CHECK(t, !lego_groupby(ctx, 1, (size_t[]){1}, dn, 1, &rm));
	/* Z3 refutes it with a witness; without Z3 it is not proved. */
	CHECK(t, strstr(lego_ctx_error(ctx),
			lego_smt_available() ? "differ (for M=" : "cannot prove"));
	/* TileBy with mismatching sizes */
	lego_expr *sz[4] = {C(ctx, 2), C(ctx, 3), C(ctx, 2), C(ctx, 3)};
	lego_layout *r46 = row2(ctx, 4, 6);
	CHECK(t, !lego_tileby(ctx, 1, &r46, 2, 2, sz));
	lego_ctx_free(ctx);

	test_case(t, "errors_witness");
	ctx = lego_ctx_new();
	lego_genp_fn bad = {.name = "bad", .apply = first_apply,
			    .inv = tr_inv};
	lego_expr *d22[2] = {C(ctx, 2), C(ctx, 2)};
	lego_layout *g = lego_genp(ctx, 2, d22, &bad);
	lego_check_report rep;
	/* (i, j) -> i: (0,0) -> 0, (0,1) -> 0 collides first */
	CHECK_EQ(t, lego_layout_check(ctx, g, NULL, &rep), LEGO_EBIJECT);
	CHECK(t, !rep.bijective);
	CHECK(t, rep.witness_idx[0] == 0 && rep.witness_idx[1] == 1);
	CHECK_EQ(t, rep.witness_flat, 0);
	CHECK_EQ(t, rep.witness_other, 0);
	CHECKF(t, strstr(lego_ctx_error(ctx), "GenP bad") &&
			  strstr(lego_ctx_error(ctx), "(0, 1) and (0, 0)"),
	       "%s", lego_ctx_error(ctx));
	/* inside a layout, still reported by name */
	lego_layout *lv[2] = {row2(ctx, 3, 1), g};
	lego_layout *o = lego_orderby(ctx, 2, lv);
	CHECK_EQ(t, lego_layout_check(ctx, o, NULL, &rep), LEGO_EBIJECT);
	CHECK(t, strstr(lego_ctx_error(ctx), "GenP bad") != NULL);
	/* a wrong inverse: apply is the transpose, inv the identity */
	lego_genp_fn noinv = {.name = "noinv", .apply = tr_apply};
	CHECK(t, !lego_genp(ctx, 2, d22, &noinv));
	lego_expr *gi = lego_index(ctx, "wi", C(ctx, 0), NULL);
	lego_expr *gj = lego_index(ctx, "wj", C(ctx, 0), NULL);
	lego_expr *gx = lego_index(ctx, "wx", C(ctx, 0), NULL);
	lego_expr *p[2] = {gi, gj};
	lego_expr *tr = lego_add(ctx, lego_mul(ctx, gj, C(ctx, 2)), gi);
	lego_expr *id[2] = {lego_div(ctx, gx, C(ctx, 2)),
			    lego_mod(ctx, gx, C(ctx, 2))};
	lego_layout *w = lego_genp_exprs(ctx, "winv", 2, d22, p, tr, gx, id);
	CHECK_EQ(t, lego_layout_check(ctx, w, NULL, &rep), LEGO_EBIJECT);
	CHECK(t, rep.bijective && !rep.inverse_ok);
	/* (0,1) -> 2, inv(2) = (1, 0) */
	CHECK(t, rep.witness_idx[0] == 0 && rep.witness_idx[1] == 1);
	CHECK_EQ(t, rep.witness_flat, 2);
	CHECK_EQ(t, rep.witness_other, 2);
	CHECKF(t, strstr(lego_ctx_error(ctx), "inverse") != NULL, "%s",
	       lego_ctx_error(ctx));
	/* out of range: (i, j) -> 2j + i + 1, inverse right below 4 */
	lego_expr *oob = lego_add(ctx, tr, C(ctx, 1));
	lego_expr *xm1 = lego_sub(ctx, gx, C(ctx, 1));
	lego_expr *oinv[2] = {lego_mod(ctx, xm1, C(ctx, 2)),
			      lego_div(ctx, xm1, C(ctx, 2))};
	lego_layout *ob = lego_genp_exprs(ctx, "oob", 2, d22, p, oob, gx,
					  oinv);
	CHECK_EQ(t, lego_layout_check(ctx, ob, NULL, &rep), LEGO_EBIJECT);
	CHECK(t, !rep.bijective);
	CHECK(t, rep.witness_idx[0] == 1 && rep.witness_idx[1] == 1);
	CHECK_EQ(t, rep.witness_flat, 4);
	CHECKF(t, strstr(lego_ctx_error(ctx), "outside") != NULL, "%s",
	       lego_ctx_error(ctx));
	/* numeric apply out of range index */
	int64_t big[2] = {2, 0}, f;
	CHECK_EQ(t, lego_layout_apply_num(ctx, g, NULL, big, &f), LEGO_ERANGE);
	lego_ctx_free(ctx);
}

/* ----------------------------------------------------- symbolic sizes */

static void test_symbolic_tiled(lego_test *t)
{
	test_case(t, "symbolic_tiled");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *m = lego_sym(ctx, "M"), *k = lego_sym(ctx, "K");
	lego_expr *bm = lego_sym(ctx, "BM"), *bk = lego_sym(ctx, "BK");
	lego_expr *mk[2] = {m, k};
	lego_layout *row = lego_row(ctx, 2, mk);
	lego_expr *sz[4] = {lego_div(ctx, m, bm), lego_div(ctx, k, bk), bm, bk};
	lego_layout *a = lego_tileby(ctx, 1, &row, 2, 2, sz);
	CHECKF(t, a, "%s", lego_ctx_error(ctx));
	if (!a) {
		lego_ctx_free(ctx);
		return;
	}
	lego_env *env = lego_env_new(ctx);
	lego_env_bind(env, m, 8);
	lego_env_bind(env, k, 12);
	lego_env_bind(env, bm, 4);
	lego_env_bind(env, bk, 3);
	int64_t want[96], i[4], dims[4] = {2, 4, 4, 3};
	for (int64_t x = 0; x < 96; x++) {
		unflat(4, dims, x, i); /* (tm, tk, r, c) */
		want[x] = (i[0] * 4 + i[2]) * 12 + i[1] * 3 + i[3];
	}
	check_table(t, ctx, a, env, want, 96);
	check_sym(t, ctx, a, env);
	/* values violating the assumed divisibility are refused */
	lego_env_bind(env, m, 10);
	int64_t f, idx[4] = {0, 0, 0, 0};
	CHECK(t, lego_layout_apply_num(ctx, a, env, idx, &f) != LEGO_OK);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------------ big */

static void test_big_check(lego_test *t)
{
	test_case(t, "check_2^24");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *r = row2(ctx, 4096, 4096);
	lego_expr *sz[4] = {C(ctx, 64), C(ctx, 64), C(ctx, 64), C(ctx, 64)};
	lego_layout *a = lego_tileby(ctx, 1, &r, 2, 2, sz);
	lego_check_report rep;
	CHECK_EQ(t, lego_layout_check(ctx, a, NULL, &rep), LEGO_OK);
	CHECK_EQ(t, rep.size, INT64_C(1) << 24);
	/* (tm, tk, r, c) -> (tm*64 + r)*4096 + tk*64 + c */
	int64_t idx[4] = {5, 7, 11, 13}, f;
	CHECK_EQ(t, lego_layout_apply_num(ctx, a, NULL, idx, &f), 0);
	CHECK_EQ(t, f, (5 * 64 + 11) * 4096 + 7 * 64 + 13);
	/* above 2^31 elements: refused */
	lego_layout *huge = row2(ctx, 65536, 65536);
	CHECK(t, lego_layout_check(ctx, huge, NULL, &rep) != LEGO_OK);
	CHECK(t, strstr(lego_ctx_error(ctx), "2^31") != NULL);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------ positive sizes */

static lego_spec *parse_spec(lego_ctx *ctx, const char *text)
{
	return lego_spec_parse(ctx, "s.lego", text, strlen(text), NULL, 0);
}

/* Every size of every piece is proved positive, with every division,
 * isqrt and shift in it defined, before anything is derived from it
 * (issue 12): otherwise a located error naming the `assume` to write. */
static void test_sizes_positive(lego_test *t)
{
	test_case(t, "sizes_positive");
	static const struct {
		const char *layout, *msg;
	} bad[] = {
		{"Row(M/0)", "divides by zero"},
		{"Row(M % 0, 2)", "divides by zero"},
		{"Row(M - 5)", "assume M - 5 >= 1"},
		{"Col(4, M - N)", "dim 2 (M - N) is not proved positive"},
		{"RegP([M, M - 2], [2, 1])", "assume M - 2 >= 1"},
		{"Row(M / (N - 1))", "assume N - 1 >= 1"},
		{"Row(cdiv(M, N - 1))", "the divisor N - 1"},
		{"Row(isqrt(M - 3))", "assume M - 3 >= 0"},
		{"Row(1 << M)", "0..62"},
		{"Row(min(M, N) - 1)", "not proved positive"},
		{"GenP([M - 1, M - 1], antidiag)", "GenP: dim 1"},
		{"OrderBy(Row(M)).TileBy([M - 3], [3])", "TileBy: dim 1"},
		{"OrderBy(Row(M, N)).GroupBy([M * N - 1])", "GroupBy"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[200];
		snprintf(text, sizeof text, "sym M, N\nlayout A = %s\n",
			 bad[i].layout);
		lego_ctx *ctx = lego_ctx_new();
		const char *e;
		CHECKF(t, !parse_spec(ctx, text) &&
				  !strncmp(e = lego_ctx_error(ctx), "s.lego:2:",
					   9) &&
				  strstr(e, ": error: ") && strstr(e, bad[i].msg),
		       "%s: %s", bad[i].layout, lego_ctx_error(ctx));
		lego_ctx_free(ctx);
	}
	/* The facts that the messages ask for make them valid; the layouts
	 * then evaluate as the definition says (Row(M - 5) is the identity
	 * on M - 5 elements, M / N with N | M). */
	static const char *good[] = {
		"sym M, N\nassume M > 5\nlayout A = Row(M - 5)\n",
		"sym M, N\nassume M - 5 >= 1\nlayout A = Row(M - 5)\n",
		"sym M, N\nlayout A = OrderBy(Row(M / N), Row(N)).TileBy([M])\n",
		"sym M, N\nlayout A = Row(cdiv(M, N), max(M - 9, 1), "
		"min(M, N))\n",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = parse_spec(ctx, good[i]);
		lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
		CHECKF(t, a, "%s: %s", good[i], lego_ctx_error(ctx));
		lego_env *env = lego_env_new(ctx);
		lego_env_bind(env, lego_sym_find(ctx, "M"), 12);
		lego_env_bind(env, lego_sym_find(ctx, "N"), 4);
		int64_t tab[64];
		size_t n = 0;
		CHECK(t, a && lego_layout_table(ctx, a, env, tab, 64, &n) ==
				      LEGO_OK);
		int64_t want = i < 2 ? 7 : i == 2 ? 12 : 3 * 3 * 4;
		CHECK_EQ(t, n, want);
		for (size_t x = 0; x < n && i < 3; x++)
			CHECK_EQ(t, tab[x], x);
		lego_env_free(env);
		lego_ctx_free(ctx);
	}
	/* The C API: NULL and the message, then valid under the fact. */
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *m = lego_sym(ctx, "M");
	lego_expr *d = lego_sub(ctx, m, C(ctx, 5));
	CHECK(t, !lego_row(ctx, 1, &d) &&
			 strstr(lego_ctx_error(ctx), "assume M - 5 >= 1"));
	lego_expr *z = lego_div(ctx, m, C(ctx, 0));
	CHECK(t, !lego_col(ctx, 1, &z) &&
			 strstr(lego_ctx_error(ctx), "divides by zero"));
	CHECK(t, lego_assume(ctx, lego_binop(ctx, LEGO_LT, C(ctx, 5), m)) ==
			 LEGO_OK);
	CHECK(t, lego_row(ctx, 1, &d) != NULL);
	lego_ctx_free(ctx);
}

/* A genp formula that divides by zero or takes isqrt of a negative value
 * is an error located at the formula in the spec, in the language's terms
 * (issue 12: it was "division by zero in g.i // 0"). */
static void test_genp_located(lego_test *t)
{
	test_case(t, "genp_errors_located");
	static const struct {
		const char *apply, *inv, *msg;
	} bad[] = {
		{"i / 0 + j", "(x / n, x % n)",
		 "s.lego:1:22: error: genp 'g' at (0, 0): division by zero in "
		 "i / 0"},
		{"i * n + j + isqrt(i - 1)", "(x / n, x % n)",
		 "s.lego:1:22: error: genp 'g' at (0, 0): isqrt of a negative "
		 "value in isqrt(i - 1)"},
		{"i * n + j", "(x / n, x % (n - 3))",
		 "s.lego:2:16: error: genp 'g' at inverse(0): modulo by zero in "
		 "x % 0"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[300];
		snprintf(text, sizeof text, "genp g[m, n](i, j) = %s\n"
			 "inverse (x) = %s\nlayout A = GenP([2, 3], g)\n",
			 bad[i].apply, bad[i].inv);
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = parse_spec(ctx, text);
		lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
		int64_t tab[6];
		size_t n;
		/* The table needs only apply. */
		CHECKF(t, a && (lego_layout_table(ctx, a, NULL, tab, 6, &n) ==
						LEGO_OK) == (i == 2) &&
				  (i == 2 ||
				   !strcmp(lego_ctx_error(ctx), bad[i].msg)),
		       "%s", lego_ctx_error(ctx));
		CHECKF(t, a && lego_layout_check(ctx, a, NULL, NULL) !=
				       LEGO_OK &&
				  !strcmp(lego_ctx_error(ctx), bad[i].msg),
		       "%s", lego_ctx_error(ctx));
		/* Symbolically: the formula meets the constant index (apply)
		 * or the dims (the inverse's x % 0) where nothing defines
		 * it; an error, not an expression no value evaluates. */
		lego_expr *zero[2] = {C(ctx, 0), C(ctx, 0)}, *inv[2];
		lego_expr *x = lego_index(ctx, "x", NULL, NULL);
		int sym_fails = i < 2 ? !lego_layout_apply(ctx, a, zero)
				      : lego_layout_inv(ctx, a, x, inv) != LEGO_OK;
		CHECKF(t, a && sym_fails && !strncmp(lego_ctx_error(ctx),
						     bad[i].msg, 24),
		       "%s", lego_ctx_error(ctx));
		lego_ctx_free(ctx);
	}
	/* A division under a select's branch may never be evaluated: not an
	 * error (n = 3 here, j / 0 only where i > 5, never). */
	const char *guarded = "genp g[m, n](i, j) = i * n + j + select(i > 5, "
			      "j / (n - 3), 0)\ninverse (x) = (x / n, x % n)\n"
			      "layout A = GenP([2, 3], g)\n";
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse_spec(ctx, guarded);
	lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
	lego_expr *one[2] = {C(ctx, 1), C(ctx, 2)};
	lego_expr *e = a ? lego_layout_apply(ctx, a, one) : NULL;
	int64_t v = -1;
	CHECKF(t, e && lego_expr_eval(ctx, e, NULL, &v) == LEGO_OK && v == 5,
	       "%s", lego_ctx_error(ctx));
	CHECK(t, a && lego_layout_check(ctx, a, NULL, NULL) == LEGO_OK);
	lego_ctx_free(ctx);
}

void suite_layout(lego_test *t)
{
	test_figure9(t);
	test_tileby_tables(t);
	test_sigma(t);
	test_tileby_levels(t);
	test_tile_orderby(t);
	test_mixed_levels(t);
	test_grouped_pid(t);
	test_antidiag_small(t);
	test_antidiag_large(t);
	test_morton(t);
	test_swizzle(t);
	test_user_genp(t);
	test_errors(t);
	test_symbolic_tiled(t);
	test_big_check(t);
	test_sizes_positive(t);
	test_genp_located(t);
}
