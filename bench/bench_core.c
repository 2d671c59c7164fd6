/*
 * bench_core.c - the core's speed and expression-quality figures, each
 * printed beside its target:
 *   - proving a 2^24-element tiled layout bijective (target < 2 s);
 *   - building and simplifying every index expression of a tiled matrix
 *     multiply: A, B and C tiles and the grouped program-id inverse
 *     (target: well under 1 ms), in a fresh context each time;
 *   - operations in the simplified expressions against the hand-written
 *     forms (tiled index <= 6; pid_m and pid_n together <= 7, the Triton
 *     tutorial's grouped ordering needs about 9);
 *   - parsing about 1 MB of declarations, every kind mixed (target < 1 s),
 *     and half of it: the ratio shows whether the time grows linearly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lego.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void die(lego_ctx *ctx, const char *what)
{
	fprintf(stderr, "bench_core: %s: %s\n", what,
		ctx ? lego_ctx_error(ctx) : "out of memory");
	exit(1);
}

/* Row(m, k) or Col(m, k), tiled by [m/bm, k/bk], [bm, bk]. */
static lego_layout *tiled(lego_ctx *ctx, int col, lego_expr *m, lego_expr *k,
			  lego_expr *bm, lego_expr *bk)
{
	lego_expr *dims[] = {m, k};
	lego_layout *p = col ? lego_col(ctx, 2, dims) : lego_row(ctx, 2, dims);
	lego_layout *o = p ? lego_orderby(ctx, 1, &p) : NULL;
	lego_expr *sizes[] = {lego_div(ctx, m, bm), lego_div(ctx, k, bk), bm,
			      bk};
	lego_layout *l = o ? lego_tileby(ctx, 1, &o, 2, 2, sizes) : NULL;
	if (!l)
		die(ctx, "tiled layout");
	return l;
}

/* P = OrderBy(Col(max(npm/GM,1),1), Col(min(npm,GM),npn)).TileBy([npm,npn]) */
static lego_layout *program_ids(lego_ctx *ctx, lego_expr *npm, lego_expr *npn,
				lego_expr *gm)
{
	lego_expr *one = lego_const(ctx, 1);
	lego_expr *outer[] = {lego_max(ctx, lego_div(ctx, npm, gm), one), one};
	lego_expr *inner[] = {lego_min(ctx, npm, gm), npn};
	lego_layout *levels[] = {lego_col(ctx, 2, outer),
				 lego_col(ctx, 2, inner)};
	if (!levels[0] || !levels[1])
		die(ctx, "program-id levels");
	lego_layout *o = lego_orderby(ctx, 2, levels);
	lego_expr *sizes[] = {npm, npn};
	lego_layout *l = o ? lego_tileby(ctx, 1, &o, 1, 2, sizes) : NULL;
	if (!l)
		die(ctx, "program-id layout");
	return l;
}

/* Apply a 4-d tiled layout to fresh index variables over its dims. */
static lego_expr *tile_index(lego_ctx *ctx, lego_layout *l, const char *tag)
{
	lego_expr *ix[4];
	for (size_t k = 0; k < 4; k++) {
		char name[32];
		snprintf(name, sizeof name, "%s%zu", tag, k);
		ix[k] = lego_index(ctx, name, lego_const(ctx, 0),
				   lego_layout_dim(l, k));
	}
	lego_expr *e = lego_layout_apply(ctx, l, ix);
	e = e ? lego_simplify(ctx, e) : NULL;
	if (!e)
		die(ctx, "tile index");
	return e;
}

typedef struct gemm_exprs {
	lego_expr *a, *b, *c, *pid_mn[2];
} gemm_exprs;

/* Everything a matmul kernel needs, from an empty context. */
static void gemm_build(lego_ctx *ctx, gemm_exprs *out)
{
	lego_expr *m = lego_sym(ctx, "M"), *n = lego_sym(ctx, "N");
	lego_expr *k = lego_sym(ctx, "K"), *bm = lego_sym(ctx, "BM");
	lego_expr *bn = lego_sym(ctx, "BN"), *bk = lego_sym(ctx, "BK");
	lego_expr *gm = lego_sym(ctx, "GM");
	lego_expr *npm = lego_div(ctx, m, bm), *npn = lego_div(ctx, n, bn);
	if (lego_assume_divides(ctx, gm, npm) != LEGO_OK)
		die(ctx, "assume");
	out->a = tile_index(ctx, tiled(ctx, 0, m, k, bm, bk), "a");
	out->b = tile_index(ctx, tiled(ctx, 0, k, n, bk, bn), "b");
	out->c = tile_index(ctx, tiled(ctx, 0, m, n, bm, bn), "c");
	lego_layout *p = program_ids(ctx, npm, npn, gm);
	lego_expr *pid = lego_index(ctx, "pid", lego_const(ctx, 0),
				    lego_layout_size(ctx, p));
	lego_expr *raw[2];
	if (lego_layout_inv(ctx, p, pid, raw) != LEGO_OK)
		die(ctx, "program-id inverse");
	for (int i = 0; i < 2; i++)
		if (!(out->pid_mn[i] = lego_simplify(ctx, raw[i])))
			die(ctx, "simplify pid");
}

static void bench_simplify(void)
{
	enum { RUNS = 201 };
	double t[RUNS];
	gemm_exprs g;
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		lego_ctx *ctx = lego_ctx_new();
		if (!ctx)
			die(NULL, "context");
		gemm_build(ctx, &g);
		lego_ctx_free(ctx);
		t[r] = now() - t0;
	}
	qsort(t, RUNS, sizeof t[0], cmp_double);
	printf("gemm expressions (A, B, C, pid inverse), fresh context: "
	       "median %.1f us, max %.1f us; target < 1000 us: %.0fx under\n",
	       t[RUNS / 2] * 1e6, t[RUNS - 1] * 1e6, 1e-3 / t[RUNS / 2]);

	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		die(NULL, "context");
	gemm_build(ctx, &g);
	char *a = lego_expr_print(ctx, g.a, LEGO_LANG_PYTHON);
	printf("A tile index: %s  (%zu ops; target <= 6)\n", a ? a : "?",
	       lego_expr_ops(&g.a, 1));
	free(a);
	lego_ctx_free(ctx);
}

/* The measure: pid_m and pid_n from the program-id layout over
 * tile counts npm, npn (symbols, as the tutorial's num_pid_m/num_pid_n),
 * given GM | npm. */
static void bench_pid_quality(void)
{
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		die(NULL, "context");
	lego_expr *npm = lego_sym(ctx, "npm"), *npn = lego_sym(ctx, "npn");
	lego_expr *gm = lego_sym(ctx, "GM");
	if (lego_assume_divides(ctx, gm, npm) != LEGO_OK)
		die(ctx, "assume");
	lego_layout *p = program_ids(ctx, npm, npn, gm);
	lego_expr *pid = lego_index(ctx, "pid", lego_const(ctx, 0),
				    lego_layout_size(ctx, p));
	lego_expr *mn[2];
	if (lego_layout_inv(ctx, p, pid, mn) != LEGO_OK)
		die(ctx, "program-id inverse");
	size_t raw_ops = lego_expr_ops(mn, 2);
	for (int i = 0; i < 2; i++)
		if (!(mn[i] = lego_simplify(ctx, mn[i])))
			die(ctx, "simplify pid");
	char *text = lego_exprs_print(ctx, 2, mn,
				      (const char *const[]){"pid_m", "pid_n"},
				      "t", LEGO_LANG_PYTHON);
	printf("grouped pid inverse: %zu ops together (%zu unsimplified); "
	       "target <= 7, Triton tutorial ~9:\n%s",
	       lego_expr_ops(mn, 2), raw_ops, text ? text : "?\n");
	free(text);
	lego_ctx_free(ctx);
}

static void bench_check(void)
{
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		die(NULL, "context");
	/* 4096 x 4096 row-major, tiled by 128 x 64 tiles: 2^24 elements. */
	lego_layout *l = tiled(ctx, 0, lego_const(ctx, 4096),
			       lego_const(ctx, 4096), lego_const(ctx, 128),
			       lego_const(ctx, 64));
	lego_check_report rep;
	double t0 = now();
	int rc = lego_layout_check(ctx, l, NULL, &rep);
	double dt = now() - t0;
	if (rc != LEGO_OK)
		die(ctx, "check");
	printf("check 2^24-element tiled layout: %lld elements bijective, "
	       "inverse ok in %.3f s; target < 2 s: %.1fx under\n",
	       (long long)rep.size, dt, 2.0 / dt);
	lego_ctx_free(ctx);
}

/* n groups of declarations, each a sym, a let using it, an index and a
 * layout: every name is looked up or checked against the others. */
static char *declarations(size_t n, size_t *len)
{
	size_t cap = n * 128 + 1, used = 0;
	char *text = malloc(cap);
	if (!text)
		die(NULL, "declarations");
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, cap - used,
					 "sym s%zu\nlet l%zu = s%zu * 2 + 1\n"
					 "index x%zu in [0, l%zu)\n"
					 "layout L%zu = Row(s%zu, 4)\n",
					 i, i, i, i, i, i, i);
	*len = used;
	return text;
}

/* Seconds to parse n groups (best of three, fresh context each time). */
static double parse_time(size_t n, size_t *len)
{
	char *text = declarations(n, len);
	double best = 1e9;
	for (int r = 0; r < 3; r++) {
		lego_ctx *ctx = lego_ctx_new();
		if (!ctx)
			die(NULL, "context");
		double t0 = now();
		if (!lego_spec_parse(ctx, "bench.lego", text, *len, NULL, 0))
			die(ctx, "parse");
		double dt = now() - t0;
		best = dt < best ? dt : best;
		lego_ctx_free(ctx);
	}
	free(text);
	return best;
}

static void bench_parse(void)
{
	size_t half_len, len;
	double half = parse_time(6000, &half_len);
	double full = parse_time(12000, &len);
	printf("parse %.2f MB of declarations (48000 names): %.3f s; "
	       "target < 1 s: %.1fx under; half as much: %.3f s "
	       "(ratio %.2f, linear = 2)\n",
	       (double)len / 1e6, full, 1.0 / full, half, full / half);
}

int main(void)
{
	bench_parse();
	bench_check();
	bench_simplify();
	bench_pid_quality();
	return 0;
}
