/*
 * api_example.c - liblego used from C, without the language.
 *
 * Builds two layouts programmatically, as a compiler embedding liblego would:
 *   1. the paper's figure 9 layout, evaluated numerically and checked;
 *   2. a tiled row-major matrix with symbolic sizes, whose index expression
 *      is simplified, walked as a tree and printed.
 * Exits non-zero if a value disagrees with the paper.
 *
 *   cc api_example.c $(pkg-config --cflags --libs lego)
 */
#include <stdio.h>
#include <stdlib.h>

#include "lego.h"

static int fail(lego_ctx *ctx, const char *what)
{
	fprintf(stderr, "api_example: %s: %s\n", what, lego_ctx_error(ctx));
	lego_ctx_free(ctx);
	return 1;
}

/* G = OrderBy(RegP([2,2],[2,1]), antidiag(3))
 *       .OrderBy(RegP([2,3,2,3],[1,3,2,4])).GroupBy([6,6]) */
static lego_layout *figure9(lego_ctx *ctx)
{
	lego_expr *two = lego_const(ctx, 2), *three = lego_const(ctx, 3);
	lego_expr *six = lego_const(ctx, 6);
	lego_expr *d22[] = {two, two}, *d2323[] = {two, three, two, three};
	lego_expr *d66[] = {six, six};
	static const int swap[] = {2, 1}, tiles[] = {1, 3, 2, 4};
	lego_layout *o1_levels[] = {lego_regp(ctx, 2, d22, swap),
				    lego_genp_antidiag(ctx, three)};
	lego_layout *o2_level = lego_regp(ctx, 4, d2323, tiles);
	if (!o1_levels[0] || !o1_levels[1] || !o2_level)
		return NULL;
	lego_layout *chain[] = {lego_orderby(ctx, 2, o1_levels),
				lego_orderby(ctx, 1, &o2_level)};
	if (!chain[0] || !chain[1])
		return NULL;
	size_t group_len[] = {2};
	return lego_groupby(ctx, 1, group_len, d66, 2, chain);
}

/* Row(M, K).TileBy([M/BM, K/BK], [BM, BK]) with symbolic sizes. */
static lego_layout *tiled_matrix(lego_ctx *ctx)
{
	lego_expr *m = lego_sym(ctx, "M"), *k = lego_sym(ctx, "K");
	lego_expr *bm = lego_sym(ctx, "BM"), *bk = lego_sym(ctx, "BK");
	lego_expr *dims[] = {m, k};
	lego_layout *row = lego_row(ctx, 2, dims);
	lego_expr *sizes[] = {lego_div(ctx, m, bm), lego_div(ctx, k, bk), bm,
			      bk};
	if (!row)
		return NULL;
	lego_layout *chain = lego_orderby(ctx, 1, &row);
	return chain ? lego_tileby(ctx, 1, &chain, 2, 2, sizes) : NULL;
}

/* Counts the nodes of a tree by walking it, as an embedding compiler
 * would when translating the expression into its own IR. */
static size_t count_nodes(const lego_expr *e)
{
	size_t n = 1;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		n += count_nodes(lego_expr_arg(e, i));
	return n;
}

int main(void)
{
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		return 1;

	lego_layout *g = figure9(ctx);
	if (!g)
		return fail(ctx, "figure 9 layout");
	lego_check_report report;
	if (lego_layout_check(ctx, g, NULL, &report) != LEGO_OK)
		return fail(ctx, "figure 9 check");
	int64_t idx[2] = {4, 2}, flat, back[2];
	if (lego_layout_apply_num(ctx, g, NULL, idx, &flat) != LEGO_OK ||
	    lego_layout_inv_num(ctx, g, NULL, flat, back) != LEGO_OK)
		return fail(ctx, "figure 9 apply");
	printf("figure 9: apply(4,2) = %lld, inv(%lld) = (%lld,%lld), "
	       "bijective on %lld elements\n",
	       (long long)flat, (long long)flat, (long long)back[0],
	       (long long)back[1], (long long)report.size);
	if (flat != 15 || back[0] != 4 || back[1] != 2) {
		fprintf(stderr, "api_example: the paper says apply(4,2) = 15\n");
		lego_ctx_free(ctx);
		return 1;
	}

	lego_layout *a = tiled_matrix(ctx);
	if (!a)
		return fail(ctx, "tiled layout");
	lego_expr *ix[4];
	const char *names[] = {"tm", "tk", "r", "c"};
	for (size_t k = 0; k < 4; k++)
		ix[k] = lego_index(ctx, names[k], lego_const(ctx, 0),
				   lego_layout_dim(a, k));
	lego_expr *raw = lego_layout_apply(ctx, a, ix);
	lego_expr *simple = raw ? lego_simplify(ctx, raw) : NULL;
	if (!simple)
		return fail(ctx, "tiled apply");
	char *text = lego_expr_print(ctx, simple, LEGO_LANG_C);
	if (!text)
		return fail(ctx, "print");
	printf("tiled A[tm, tk, r, c] = %s\n", text);
	printf("  %zu operations (%zu before simplification), %zu tree nodes\n",
	       lego_expr_ops(&simple, 1), lego_expr_ops(&raw, 1),
	       count_nodes(simple));
	free(text);

	lego_ctx_free(ctx);
	return 0;
}
