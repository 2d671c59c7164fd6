/* test_analysis.c - bank conflicts, coalescing and pictures.  Expected
 * values are hardware facts (a 32x32 float tile read by columns is 32-way)
 * or computed here from closed formulas of the addresses, never by the
 * code under test. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

/* ---------------------------------------------------------- fixtures */

static lego_layout *row2(lego_ctx *ctx, int64_t r, int64_t c)
{
	lego_expr *d[2] = {lego_const(ctx, r), lego_const(ctx, c)};
	return lego_row(ctx, 2, d);
}

static lego_layout *col2(lego_ctx *ctx, int64_t r, int64_t c)
{
	lego_expr *d[2] = {lego_const(ctx, r), lego_const(ctx, c)};
	return lego_col(ctx, 2, d);
}

/* OrderBy(P(4,6)).TileBy([2,3],[2,2]) with P = Row or Col. */
static lego_layout *tiled_4x6(lego_ctx *ctx, int col_major)
{
	lego_layout *p = col_major ? col2(ctx, 4, 6) : row2(ctx, 4, 6);
	lego_layout *o = p ? lego_orderby(ctx, 1, &p) : NULL;
	lego_expr *sizes[4] = {lego_const(ctx, 2), lego_const(ctx, 3),
			       lego_const(ctx, 2), lego_const(ctx, 2)};
	return o ? lego_tileby(ctx, 1, &o, 2, 2, sizes) : NULL;
}

/* Thread t reads logical (row(t), col(t)), rows/cols given as
 * a*tid + b pairs; tid is the thread-id symbol. */
typedef struct warp2 {
	lego_warp_access a;
	lego_expr *index[2];
} warp2;

static void warp_init(lego_ctx *ctx, warp2 *w, const lego_layout *l,
		      int64_t elem, lego_expr *i0, lego_expr *i1)
{
	memset(w, 0, sizeof *w);
	w->index[0] = i0;
	w->index[1] = i1;
	w->a.layout = l;
	w->a.elem_bytes = elem;
	w->a.index = w->index;
	w->a.tid = lego_sym(ctx, "tid");
}

static lego_expr *c_(lego_ctx *ctx, int64_t v) { return lego_const(ctx, v); }

/* ------------------------------------------------------- bank: classics */

static void bank_column_read(lego_test *t)
{
	test_case(t, "bank_32x32_float_column_read_is_32_way");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tid = lego_sym(ctx, "tid");
	lego_layout *l = row2(ctx, 32, 32);
	for (int64_t c = 0; c < 32; c += 5) {
		warp2 w;
		lego_bank_report r;
		warp_init(ctx, &w, l, 4, tid, c_(ctx, c));
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, 32);
		CHECK_EQ(t, r.ways, 32);
		CHECK_EQ(t, r.ideal, 1);
		CHECK_EQ(t, r.worst_bank, c);  /* word 32t + c */
		CHECK_EQ(t, r.ncolliders, 32);
		for (int k = 0; k < r.ncolliders; k++) {
			CHECK_EQ(t, r.colliders[k], k);
			CHECK_EQ(t, r.collider_words[k], 32 * k + c);
		}
	}
	test_case(t, "bank_32x32_float_row_read_is_conflict_free");
	warp2 w;
	lego_bank_report r;
	warp_init(ctx, &w, l, 4, c_(ctx, 7), tid);
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 1);
	CHECK_EQ(t, r.ways, 1);
	lego_ctx_free(ctx);
}

/* Padding: a [32,33] buffer whose column 32 is never read; or the address
 * function itself, with no layout. */
static void bank_padded(lego_test *t)
{
	test_case(t, "bank_padded_33_columns_is_conflict_free");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tid = lego_sym(ctx, "tid");
	lego_layout *l = row2(ctx, 32, 33);
	for (int64_t c = 0; c < 32; c += 3) {
		warp2 w;
		lego_bank_report r;
		warp_init(ctx, &w, l, 4, tid, c_(ctx, c));
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, 1);
		CHECK_EQ(t, r.offset[31], 31 * 33 + c);
	}
	test_case(t, "bank_padded_offset_expression");
	lego_expr *off = lego_add(ctx, lego_mul(ctx, tid, c_(ctx, 33)),
				  c_(ctx, 4));
	lego_warp_access a = {.elem_bytes = 4, .index = &off, .tid = tid};
	lego_bank_report r;
	CHECK_EQ(t, lego_analyze_banks(ctx, &a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 1);
	/* Doubles padded to 33: thread t touches words 66t+2c, 66t+2c+1;
	 * banks 2t+2c and 2t+2c+1 (mod 32) differ within a half-warp. */
	warp2 w;
	warp_init(ctx, &w, l, 8, tid, c_(ctx, 3));
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.phases, 2);
	CHECK_EQ(t, r.wavefronts, 2);
	CHECK_EQ(t, r.ideal, 2);
	lego_ctx_free(ctx);
}

static void bank_swizzle(lego_test *t)
{
	test_case(t, "bank_swizzle_5_0_5_is_conflict_free");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tid = lego_sym(ctx, "tid");
	lego_expr *d[2] = {c_(ctx, 32), c_(ctx, 32)};
	lego_layout *l = lego_genp_swizzle(ctx, 5, 0, 5, 2, d);
	CHECK(t, l != NULL);
	for (int64_t c = 0; l && c < 32; c++) {
		warp2 w;
		lego_bank_report r;
		warp_init(ctx, &w, l, 4, tid, c_(ctx, c));  /* column c */
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, 1);
		/* Swizzle<5,0,5>: o ^ ((o >> 5) & 31), o = 32t + c. */
		for (int64_t k = 0; k < 32; k++)
			CHECK_EQ(t, r.offset[k], 32 * k + (c ^ k));
		warp_init(ctx, &w, l, 4, c_(ctx, c), tid);  /* row c */
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, 1);
	}
	lego_ctx_free(ctx);
}

/* Needleman-Wunsch: thread i = 32*warp + t updates (i, wave - i) of a
 * (b+1)x(b+1) int buffer, when that cell exists.  Row-major words are
 * i*(b+1) + wave - i; the worst bank count is computed here directly. */
static int64_t nw_rowmajor_expected(int64_t b, int64_t warp, int64_t wave)
{
	int count[32] = {0}, worst = 0;
	for (int64_t i = 32 * warp; i < 32 * warp + 32; i++) {
		if (i > b || wave - i < 0 || wave - i > b)
			continue;
		int bank = (int)((i * (b + 1) + wave - i) % 32);
		if (++count[bank] > worst)
			worst = count[bank];
	}
	return worst;
}

static lego_expr *nw_active(lego_ctx *ctx, lego_expr *i, lego_expr *wave,
			    int64_t b)
{
	lego_expr *j = lego_sub(ctx, wave, i);
	lego_expr *c1 = lego_binop(ctx, LEGO_LE, i, c_(ctx, b));
	lego_expr *c2 = lego_binop(ctx, LEGO_LE, c_(ctx, 0), j);
	lego_expr *c3 = lego_binop(ctx, LEGO_LE, j, c_(ctx, b));
	return lego_binop(ctx, LEGO_AND, c1, lego_binop(ctx, LEGO_AND, c2, c3));
}

/* Every wave for one warp; the warp number comes from the env. */
static void bank_nw(lego_test *t, int64_t b, int64_t warp)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *tid = lego_sym(ctx, "tid"), *wsym = lego_sym(ctx, "warp");
	lego_env_bind(env, wsym, warp);
	lego_expr *i = lego_add(ctx, lego_mul(ctx, wsym, c_(ctx, 32)), tid);
	lego_layout *rowm = row2(ctx, b + 1, b + 1);
	lego_layout *anti = lego_genp_antidiag(ctx, c_(ctx, b + 1));
	CHECK(t, rowm && anti);
	int64_t sum_row = 0, sum_anti = 0, sum_expected = 0, busy = 0;
	for (int64_t wave = 0; anti && wave <= 2 * b; wave++) {
		lego_expr *wv = c_(ctx, wave);
		int64_t want = nw_rowmajor_expected(b, warp, wave);
		warp2 w;
		lego_bank_report r;
		warp_init(ctx, &w, rowm, 4, i, lego_sub(ctx, wv, i));
		w.a.active = nw_active(ctx, i, wv, b);
		w.a.env = env;
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, want);
		sum_row += r.wavefronts;
		sum_expected += want;
		w.a.layout = anti;
		CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
		/* One anti-diagonal is contiguous: consecutive words. */
		CHECK_EQ(t, r.wavefronts, want > 0);
		sum_anti += r.wavefronts;
		busy += want > 0;
	}
	CHECK_EQ(t, sum_row, sum_expected);
	CHECK_EQ(t, sum_anti, busy);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

static void bank_needleman_wunsch(lego_test *t)
{
	test_case(t, "bank_nw_b16_rowmajor_vs_antidiag");
	/* Wave 16: threads 0..16 hit banks 16t+16 mod 32: 9 even threads
	 * share bank 16, 8 odd ones bank 0. */
	CHECK_EQ(t, nw_rowmajor_expected(16, 0, 16), 9);
	bank_nw(t, 16, 0);
	test_case(t, "bank_nw_b64_rowmajor_vs_antidiag");
	/* b = 64: word 64t + wave, one bank for all 32 threads. */
	CHECK_EQ(t, nw_rowmajor_expected(64, 0, 40), 32);
	bank_nw(t, 64, 0);
	bank_nw(t, 64, 1);
}

/* ------------------------------------------------ bank: element sizes */

static void bank_elem_sizes(lego_test *t)
{
	test_case(t, "bank_doubles_two_phases");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tid = lego_sym(ctx, "tid");
	lego_layout *l = row2(ctx, 32, 32);
	warp2 w;
	lego_bank_report r;
	warp_init(ctx, &w, l, 8, c_(ctx, 0), tid);  /* 256 contiguous bytes */
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 2);
	CHECK_EQ(t, r.ideal, 2);
	warp_init(ctx, &w, l, 8, tid, c_(ctx, 0));  /* stride 256 bytes */
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 32);  /* 16 words in banks 0 and 1, twice */
	CHECK_EQ(t, r.ways, 16);
	test_case(t, "bank_16_bytes_four_phases");
	warp_init(ctx, &w, l, 16, c_(ctx, 0), tid);
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.phases, 4);
	CHECK_EQ(t, r.wavefronts, 4);
	test_case(t, "bank_bytes_share_words");
	warp_init(ctx, &w, l, 1, tid, c_(ctx, 0));  /* byte 32t: word 8t */
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 8);  /* banks 0, 8, 16, 24, 8 words each */
	warp_init(ctx, &w, l, 2, c_(ctx, 0), tid);  /* 64 bytes: 16 words */
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 1);
	test_case(t, "bank_broadcast");
	warp_init(ctx, &w, l, 4, c_(ctx, 3), c_(ctx, 3));
	CHECK_EQ(t, lego_analyze_banks(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 1);
	CHECK_EQ(t, r.ncolliders, 32);  /* all on bank 3, one word */
	lego_ctx_free(ctx);
}

static void bank_indices_and_errors(lego_test *t)
{
	test_case(t, "bank_explicit_indices");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *l = row2(ctx, 32, 32);
	int64_t idx[16 * 2];
	for (int k = 0; k < 16; k++) {  /* 16 threads, rows 2k: stride 64 */
		idx[2 * k] = 2 * k;
		idx[2 * k + 1] = 1;
	}
	lego_warp_access a = {.layout = l, .elem_bytes = 4, .nthreads = 16,
			      .indices = idx};
	lego_bank_report r;
	CHECK_EQ(t, lego_analyze_banks(ctx, &a, &r), LEGO_OK);
	CHECK_EQ(t, r.wavefronts, 16);
	CHECK_EQ(t, r.active, 0xffffu);
	test_case(t, "bank_errors");
	a.elem_bytes = 3;
	CHECK_EQ(t, lego_analyze_banks(ctx, &a, &r), LEGO_ERR);
	a.elem_bytes = 4;
	idx[5] = 32;  /* column out of range */
	CHECK(t, lego_analyze_banks(ctx, &a, &r) != LEGO_OK);
	CHECK(t, strstr(lego_ctx_error(ctx), "thread 2") != NULL);
	a.base_bytes = 2;
	CHECK_EQ(t, lego_analyze_banks(ctx, &a, &r), LEGO_ERR);
	lego_ctx_free(ctx);
}

/* Most distinct 4-byte words in one bank (words distinct per thread). */
static int64_t worst_bank_count(const int64_t *word, int n)
{
	int64_t count[32] = {0}, worst = 0;
	for (int k = 0; k < n; k++)
		if (++count[word[k] % 32] > worst)
			worst = count[word[k] % 32];
	return worst;
}

/* Thread layouts: thread t accesses threads.inv(t). */
static void bank_thread_layout(lego_test *t)
{
	test_case(t, "bank_thread_layouts");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *data = row2(ctx, 32, 32);
	lego_layout *tl[2] = {row2(ctx, 8, 4), col2(ctx, 4, 8)};
	for (int k = 0; k < 2; k++) {
		int64_t word[32];
		for (int th = 0; th < 32; th++) {
			/* Row(8,4).inv(t) = (t/4, t%4); Col(4,8).inv(t) =
			 * (t%4, t/4); the word is 32*row + col. */
			int64_t r = k == 0 ? th / 4 : th % 4;
			int64_t c = k == 0 ? th % 4 : th / 4;
			word[th] = 32 * r + c;
		}
		lego_warp_access a = {.layout = data, .elem_bytes = 4,
				      .threads = tl[k]};
		lego_bank_report r;
		CHECK_EQ(t, lego_analyze_banks(ctx, &a, &r), LEGO_OK);
		CHECK_EQ(t, r.wavefronts, worst_bank_count(word, 32));
		CHECK_EQ(t, r.wavefronts, k == 0 ? 8 : 4);
	}
	lego_warp_access small = {.layout = data, .elem_bytes = 4,
				  .threads = row2(ctx, 4, 4)};  /* 16 < 32 */
	lego_bank_report r;
	CHECK(t, lego_analyze_banks(ctx, &small, &r) != LEGO_OK);
	small.nthreads = 16;
	CHECK_EQ(t, lego_analyze_banks(ctx, &small, &r), LEGO_OK);
	lego_ctx_free(ctx);
}

/* --------------------------------------------------------- coalescing */

static void coalesce_case(lego_test *t, lego_ctx *ctx, const lego_layout *l,
			  int64_t elem, int64_t base, lego_expr *i0,
			  lego_expr *i1, int64_t sectors, int64_t ideal)
{
	warp2 w;
	lego_coalesce_report r;
	warp_init(ctx, &w, l, elem, i0, i1);
	w.a.base_bytes = base;
	CHECK_EQ(t, lego_analyze_coalesce(ctx, &w.a, &r), LEGO_OK);
	CHECK_EQ(t, r.sectors, sectors);
	CHECK_EQ(t, r.ideal, ideal);
}

static void coalescing(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tid = lego_sym(ctx, "tid");
	lego_layout *rowm = row2(ctx, 32, 32), *colm = col2(ctx, 32, 32);
	test_case(t, "coalesce_rowmajor_row_read_is_ideal");
	coalesce_case(t, ctx, rowm, 4, 0, c_(ctx, 9), tid, 4, 4);
	coalesce_case(t, ctx, rowm, 8, 0, c_(ctx, 9), tid, 8, 8);
	test_case(t, "coalesce_rowmajor_column_read_32_sectors");
	coalesce_case(t, ctx, rowm, 4, 0, tid, c_(ctx, 9), 32, 4);
	test_case(t, "coalesce_transposed_tile");
	/* Column-major: the column is contiguous, the row strided. */
	coalesce_case(t, ctx, colm, 4, 0, tid, c_(ctx, 9), 4, 4);
	coalesce_case(t, ctx, colm, 4, 0, c_(ctx, 9), tid, 32, 4);
	test_case(t, "coalesce_misaligned_and_broadcast");
	coalesce_case(t, ctx, rowm, 4, 4, c_(ctx, 0), tid, 5, 4);
	coalesce_case(t, ctx, rowm, 4, 0, c_(ctx, 1), c_(ctx, 1), 1, 1);
	/* Pairs of threads per element: 16 floats, 64 bytes, 2 sectors. */
	coalesce_case(t, ctx, rowm, 4, 0, c_(ctx, 0),
		      lego_div(ctx, tid, c_(ctx, 2)), 2, 2);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------ pictures */

/* The integers of the lines holding cells (odd lines), row by row; a
 * padding cell "." reads as -1. */
static int grid_numbers(const char *text, int64_t *out, int cap)
{
	int n = 0, line = 0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			line++;
		else if (line % 2 == 1 && *p == '.' && n < cap)
			out[n++] = -1;
		else if (line % 2 == 1 && *p >= '0' && *p <= '9' && n < cap) {
			out[n++] = strtoll(p, (char **)&p, 10);
			p--;
		}
	}
	return n;
}

/* SEMANTICS.md's tables of OrderBy(Row(4,6)) and OrderBy(Col(4,6)) tiled
 * by [2,3],[2,2], logical order (tm, tn, r, c). */
static const int64_t row_table[24] = {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11,
	12, 13, 18, 19, 14, 15, 20, 21, 16, 17, 22, 23};
static const int64_t col_table[24] = {0, 4, 1, 5, 8, 12, 9, 13, 16, 20, 17,
	21, 2, 6, 3, 7, 10, 14, 11, 15, 18, 22, 19, 23};

/* The untiled 4x6 grid: cell (tm*2 + r, tn*2 + c). */
static void untiled_grid(const int64_t *table, int64_t *grid)
{
	for (int f = 0; f < 24; f++) {
		int tm = f / 12, tn = f / 4 % 3, r = f / 2 % 2, c = f % 2;
		grid[(tm * 2 + r) * 6 + tn * 2 + c] = table[f];
	}
}

static void show_tiled(lego_test *t, int col_major)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *l = tiled_4x6(ctx, col_major);
	lego_show_opts o = {.ascii = 1};
	char *s = l ? lego_show_text(ctx, l, &o) : NULL;
	CHECKF(t, s != NULL, "%s", lego_ctx_error(ctx));
	int64_t got[32], want[24];
	untiled_grid(col_major ? col_table : row_table, want);
	CHECK_EQ(t, s ? grid_numbers(s, got, 32) : 0, 24);
	for (int k = 0; s && k < 24; k++)
		CHECKF(t, got[k] == want[k], "cell %d: %lld, expected %lld", k,
		       (long long)got[k], (long long)want[k]);
	/* Tiles of 2x2: borders at columns 0, 2, 4, 6 of each cell line; a
	 * border line only above rows 0, 2 and 4. */
	int lines = 0, bars = 0, dashed = 0;
	for (const char *p = s; p && *p; p++) {
		lines += *p == '\n';
		bars += lines == 1 && *p == '|';
		dashed += *p == '-' && (lines == 2 || lines == 4);
		CHECK(t, !(*p == '-' && lines == 2));
	}
	CHECK_EQ(t, lines, 9);
	CHECK_EQ(t, bars, 4);
	CHECK(t, dashed > 0);
	free(s);
	lego_ctx_free(ctx);
}

static void show_inverse(lego_test *t)
{
	test_case(t, "show_inverse_col_tiled");
	lego_ctx *ctx = lego_ctx_new();
	lego_layout *l = tiled_4x6(ctx, 1);
	lego_show_opts o = {.ascii = 1, .inverse = 1};
	char *s = l ? lego_show_text(ctx, l, &o) : NULL;
	CHECKF(t, s != NULL, "%s", lego_ctx_error(ctx));
	/* Physical p holds the untiled cell (x, y) with y*4 + x == p
	 * (column-major), drawn at (p / 6, p % 6) as "x,y". */
	int64_t got[64];
	CHECK_EQ(t, s ? grid_numbers(s, got, 64) : 0, 48);
	for (int p = 0; s && p < 24; p++) {
		CHECK_EQ(t, got[2 * p], p % 4);
		CHECK_EQ(t, got[2 * p + 1], p / 4);
	}
	free(s);
	lego_ctx_free(ctx);
}

/* Figure 9's G: apply(4,2) = 15; automatic tiles are the 3x3 blocks
 * (the inner level of O1 has 9 elements). */
static void show_figure9(lego_test *t)
{
	test_case(t, "show_figure9_cells_and_blocks");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *two = c_(ctx, 2), *three = c_(ctx, 3);
	lego_expr *d22[2] = {two, two}, *d2323[4] = {two, three, two, three};
	lego_expr *d66[2] = {c_(ctx, 6), c_(ctx, 6)};
	int p21[2] = {2, 1}, p1324[4] = {1, 3, 2, 4};
	lego_layout *lv[2] = {lego_regp(ctx, 2, d22, p21),
			      lego_genp_antidiag(ctx, three)};
	lego_layout *r4 = lego_regp(ctx, 4, d2323, p1324);
	lego_layout *chain[2] = {lego_orderby(ctx, 2, lv),
				 lego_orderby(ctx, 1, &r4)};
	size_t one = 2;
	lego_layout *g = chain[0] && chain[1]
		? lego_groupby(ctx, 1, &one, d66, 2, chain) : NULL;
	lego_show_opts o = {.ascii = 1};
	char *s = g ? lego_show_text(ctx, g, &o) : NULL;
	CHECKF(t, s != NULL, "%s", lego_ctx_error(ctx));
	int64_t got[40];
	CHECK_EQ(t, s ? grid_numbers(s, got, 40) : 0, 36);
	CHECK_EQ(t, got[4 * 6 + 2], 15);
	int bars = 0;
	for (const char *p = s; p && *p && *p != '\n'; p++)
		bars += *p == '+';
	CHECK_EQ(t, bars, 3);  /* top line: corners at columns 0, 3, 6 */
	CHECK(t, s && !strchr(s, '\x1b'));
	free(s);
	o.color = 1;  /* two tile colours (of 4) on the first cell line */
	s = g ? lego_show_text(ctx, g, &o) : NULL;
	const char *line1 = s ? strchr(s, '\n') : NULL;
	CHECK(t, line1 && strstr(line1, "\x1b[30;48;5;116m") &&
		 strstr(line1, "\x1b[30;48;5;229m"));
	free(s);
	o.color = 0;
	test_case(t, "show_svg_document");
	o.title = "G <fig 9>";
	s = g ? lego_show_svg(ctx, g, &o) : NULL;
	CHECK(t, s && strstr(s, "<svg") && strstr(s, "viewBox") &&
		 strstr(s, "&lt;fig 9&gt;") && strstr(s, ">15</text>"));
	int rects = 0;
	for (const char *p = s; p && (p = strstr(p, "<rect")); p++)
		rects++;
	CHECK_EQ(t, rects, 37);  /* background and 36 cells */
	free(s);
	lego_ctx_free(ctx);
}

/* The paper's equation 7: five dims of 2, RegP [5,2,4,3,1]; drawn as
 * 4 x 8 (leading two dims as rows) or, with row_dims 3, as 8 x 4. */
static void show_rank5(lego_test *t)
{
	test_case(t, "show_rank5_flattened_views");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *d[5];
	for (int k = 0; k < 5; k++)
		d[k] = c_(ctx, 2);
	int perm[5] = {5, 2, 4, 3, 1};
	lego_layout *p = lego_regp(ctx, 5, d, perm);
	lego_layout *o = p ? lego_orderby(ctx, 1, &p) : NULL;
	size_t five = 5;
	lego_layout *l = o ? lego_groupby(ctx, 1, &five, d, 1, &o) : NULL;
	for (int rows_dims = 0; rows_dims <= 3; rows_dims += 3) {
		lego_show_opts opt = {.ascii = 1, .row_dims = rows_dims};
		char *s = l ? lego_show_text(ctx, l, &opt) : NULL;
		CHECKF(t, s != NULL, "%s", lego_ctx_error(ctx));
		int64_t got[40];
		CHECK_EQ(t, s ? grid_numbers(s, got, 40) : 0, 32);
		int lines = 0;
		for (const char *q = s; q && *q; q++)
			lines += *q == '\n';
		CHECK_EQ(t, lines, rows_dims ? 17 : 9);  /* 8 or 4 rows */
		/* Logical (i1..i5) row-major is cell f; its physical index is
		 * B_[2,2,2,2,2](i5, i2, i4, i3, i1). */
		for (int f = 0; s && f < 32; f++) {
			int i1 = f >> 4 & 1, i2 = f >> 3 & 1, i3 = f >> 2 & 1,
			    i4 = f >> 1 & 1, i5 = f & 1;
			CHECK_EQ(t, got[f], i5 * 16 + i2 * 8 + i4 * 4 + i3 * 2 + i1);
		}
		free(s);
	}
	lego_ctx_free(ctx);
}

/* A padded TileBy of a 7 x 5 row-major tensor by 3 x 2 tiles: the 9 x 6
 * padded grid shows r*5 + c inside the tensor and "." elsewhere; there is
 * no inverse view. */
static void show_padded(lego_test *t)
{
	test_case(t, "show_padded_tiles");
	lego_ctx *ctx = lego_ctx_new();
	const char *text = "layout A = OrderBy(Row(7, 5)).TileBy([cdiv(7, 3), "
			   "cdiv(5, 2)], [3, 2])\n";
	lego_spec *spec = lego_spec_parse(ctx, "t.lego", text, strlen(text),
					  NULL, 0);
	lego_layout *l = spec ? lego_spec_layout(spec, "A") : NULL;
	lego_show_opts o = {.ascii = 1};
	char *s = l ? lego_show_text(ctx, l, &o) : NULL;
	CHECKF(t, s != NULL, "%s", lego_ctx_error(ctx));
	int64_t got[64];
	CHECK_EQ(t, s ? grid_numbers(s, got, 64) : 0, 54);
	for (int r = 0; s && r < 9; r++)
		for (int c = 0; c < 6; c++)
			CHECK_EQ(t, got[r * 6 + c], r < 7 && c < 5 ? r * 5 + c : -1);
	free(s);
	o.inverse = 1;
	CHECK(t, l && lego_show_text(ctx, l, &o) == NULL);
	lego_ctx_free(ctx);
}

void suite_analysis(lego_test *t)
{
	bank_column_read(t);
	bank_padded(t);
	bank_swizzle(t);
	bank_needleman_wunsch(t);
	bank_elem_sizes(t);
	bank_indices_and_errors(t);
	bank_thread_layout(t);
	coalescing(t);
	test_case(t, "show_row_tiled_matches_semantics_table");
	show_tiled(t, 0);
	test_case(t, "show_col_tiled_matches_semantics_table");
	show_tiled(t, 1);
	show_inverse(t);
	show_figure9(t);
	show_rank5(t);
	show_padded(t);
}
