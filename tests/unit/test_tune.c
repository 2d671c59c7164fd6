/* test_tune.c - tunable parameters, spaces against brute force, the
 * search strategies on objectives with a known optimum, the cache. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lego.h"
#include "tune/launch.h"
#include "tune/tune.h"

static lego_spec *parse(lego_ctx *ctx, const char *text,
			const lego_define *defs, size_t ndefs)
{
	return lego_spec_parse(ctx, "t.lego", text, strlen(text), defs, ndefs);
}

static void check_error(lego_test *t, const char *text, const char *want)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text, NULL, 0);
	CHECKF(t, !spec && strstr(lego_ctx_error(ctx), want),
	       "%s: got '%s', expected '%s'", text,
	       spec ? "(parsed)" : lego_ctx_error(ctx), want);
	lego_ctx_free(ctx);
}

static void test_parse(lego_test *t)
{
	test_case(t, "parse_values");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, "let S = 16\ntune BM in {16, 2 * S, 64}\n"
				"tune G in 3..6\n"
				"tune layout L in {Row(BM, 4), Col(BM, 4)}\n",
				NULL, 0);
	CHECK(t, spec != NULL);
	CHECK_EQ(t, lego_spec_ntunes(spec), 3);
	const lego_tune_param *bm = lego_spec_tune(spec, 0);
	const lego_tune_param *g = lego_spec_tune(spec, 1);
	const lego_tune_param *l = lego_spec_tune(spec, 2);
	CHECK(t, bm && g && l);
	if (bm && g && l) {
		CHECK_EQ(t, bm->nvalues, 3);
		CHECK_EQ(t, bm->values[1], 32);
		CHECK_EQ(t, g->nvalues, 4);
		CHECK_EQ(t, g->values[0], 3);
		CHECK_EQ(t, g->values[3], 6);
		CHECK(t, l->is_layout && l->nvalues == 2);
		CHECK(t, l->labels && !strcmp(l->labels[1], "Col(BM, 4)"));
		CHECK_EQ(t, bm->fixed, -1);
	}
	lego_ctx_free(ctx);

	test_case(t, "define_fixes");
	ctx = lego_ctx_new();
	lego_define d[] = {{"BM", 32}, {"L", 1}};
	spec = parse(ctx, "tune BM in {16, 32}\n"
		     "tune layout L in {Row(BM, 4), Col(BM, 4)}\n", d, 2);
	CHECK(t, spec != NULL);
	if (spec) {
		CHECK_EQ(t, lego_spec_tune(spec, 0)->fixed, 1);
		CHECK_EQ(t, lego_spec_tune(spec, 1)->fixed, 1);
		int64_t idx[2] = {1, 0}, flat = -1;
		lego_layout *lay = lego_spec_layout(spec, "L");
		/* Col(32, 4): (1, 0) lies at 1 */
		CHECK(t, lay && lego_layout_apply_num(ctx, lay, NULL, idx, &flat) ==
				       LEGO_OK && flat == 1);
	}
	lego_ctx_free(ctx);

	test_case(t, "errors");
	check_error(t, "tune BM in {16, 16}", "1:17: error: value 16 is listed twice");
	check_error(t, "tune BM in 4..2", "1:12: error: empty range");
	check_error(t, "tune BM in {0}", "error: a tuning value must be positive");
	check_error(t, "sym M\ntune BM in {M}", "2:13: error: a tuning value must be a constant");
	check_error(t, "tune BM {1}", "1:9: error: expected 'in'");
	check_error(t, "tune BM in {1, 2", "expected ',' or '}'");
	check_error(t, "tune layout L in Row(2, 2)", "expected '{'");
	check_error(t, "tune BM in 1..3\ntune BM in 1..3", "2:6: error: redeclaration");
	check_error(t, "tune tune in 1..3", "reserved word");
	check_error(t, "tune BM in 1..100000", "too many values");
	lego_ctx *c2 = lego_ctx_new();
	lego_define bad[] = {{"BM", 48}};
	CHECK(t, !parse(c2, "tune BM in {16, 32}", bad, 1) &&
		 strstr(lego_ctx_error(c2), "-D BM=48 is not a value"));
	lego_ctx_free(c2);
}

static void test_constraints(lego_test *t)
{
	test_case(t, "constraints_recorded");
	lego_ctx *ctx = lego_ctx_new();
	lego_define d[] = {{"M", 96}};
	lego_spec *spec = parse(ctx, "sym M, K\ntune BM in {16, 32, 64}\n"
				"tune BK in 1..4\nassume BM * BK <= 96\n"
				"assume K % 2 == 0\n"
				"layout A = OrderBy(Row(M, K)).TileBy([M/BM, 1], "
				"[BM, K])\n", d, 1);
	CHECK(t, spec != NULL);
	/* the assume and the tile count M/BM; K % 2 is no constraint */
	CHECK_EQ(t, lego_spec_nconstraints(spec), 2);
	int line = 0, col = 0;
	CHECK(t, lego_spec_constraint(spec, 1, &line, &col) && line == 6);
	lego_tune_space s;
	CHECK(t, lego_tune_space_build(ctx, spec, 0, &s) == LEGO_OK);
	/* by hand: BM | 96 drops 64; BM*BK <= 96: 16 -> 4 values, 32 -> 3 */
	CHECK_EQ(t, s.nconfigs, 7);
	for (size_t i = 0; i < s.nconfigs; i++) {
		int64_t bm = lego_tune_space_value(&s, i, 0);
		int64_t bk = lego_tune_space_value(&s, i, 1);
		CHECK(t, 96 % bm == 0 && bm * bk <= 96);
	}
	uint16_t probe[2] = {1, 2}; /* BM=32 BK=3 */
	size_t at = lego_tune_space_find(&s, probe);
	CHECK(t, at != SIZE_MAX && lego_tune_space_value(&s, at, 1) == 3);
	probe[0] = 2; /* BM=64: broken */
	CHECK(t, lego_tune_space_find(&s, probe) == SIZE_MAX);
	char *desc = lego_tune_space_describe(&s, at, 0);
	CHECK(t, desc && !strcmp(desc, "BM=32 BK=3"));
	free(desc);
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);

	test_case(t, "needs_defines");
	ctx = lego_ctx_new();
	spec = parse(ctx, "sym M\ntune BM in {16, 32}\nassume BM <= M\n",
		     NULL, 0);
	CHECK(t, spec && lego_tune_space_build(ctx, spec, 0, &s) != LEGO_OK &&
		 strstr(lego_ctx_error(ctx), "t.lego:3:8: error: the constraint "
			"needs a value for 'M'"));
	lego_ctx_free(ctx);

	test_case(t, "layout_choice_guard");
	/* the tile count of choice 1 binds only when choice 1 is taken */
	ctx = lego_ctx_new();
	lego_define m[] = {{"M", 48}};
	spec = parse(ctx, "sym M\ntune B in {8, 16, 32}\n"
		     "tune layout L in {OrderBy(Row(M, 1)), "
		     "OrderBy(Row(M, 1)).TileBy([M/B, 1], [B, 1])}\n", m, 1);
	CHECK(t, spec && lego_tune_space_build(ctx, spec, 0, &s) == LEGO_OK);
	/* choice 0: 3 values of B; choice 1: B | 48, so 8 and 16 */
	CHECK_EQ(t, spec ? s.nconfigs : 0, 5);
	if (spec)
		lego_tune_space_free(&s);
	lego_ctx_free(ctx);
}

/* The 6-parameter matmul space against brute force: the cross product
 * enumerated and each constraint computed here in C. */
static void test_space_brute(lego_test *t)
{
	test_case(t, "space_vs_brute_force");
	static const int64_t tiles[] = {16, 32, 48, 64, 96, 128};
	static const int64_t bks[] = {16, 32, 64};
	static const int64_t warps[] = {1, 2, 4, 8};
	const int64_t M = 384, N = 192, K = 128, SMEM = 49152;
	lego_ctx *ctx = lego_ctx_new();
	lego_define d[] = {{"M", M}, {"N", N}, {"K", K}};
	lego_spec *spec = parse(ctx,
		"sym M, N, K\n"
		"tune BM in {16, 32, 48, 64, 96, 128}\n"
		"tune BN in {16, 32, 48, 64, 96, 128}\n"
		"tune BK in {16, 32, 64}\n"
		"tune GM in 1..8\n"
		"tune ST in 1..4\n"
		"tune W in {1, 2, 4, 8}\n"
		"assume (BM * BK + BK * BN) * 2 * ST <= 49152\n"
		"assume BM * BN >= 32 * W * 8 && GM <= M / BM\n"
		"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n"
		"layout B = OrderBy(Row(K, N)).TileBy([K/BK, N/BN], [BK, BN])\n",
		d, 3);
	lego_tune_space s;
	CHECK(t, spec && lego_tune_space_build(ctx, spec, 0, &s) == LEGO_OK);
	if (!spec) {
		lego_ctx_free(ctx);
		return;
	}
	size_t count = 0, raw = 0;
	for (size_t a = 0; a < 6; a++)
	for (size_t b = 0; b < 6; b++)
	for (size_t c = 0; c < 3; c++)
	for (int64_t gm = 1; gm <= 8; gm++)
	for (int64_t st = 1; st <= 4; st++)
	for (size_t w = 0; w < 4; w++) {
		int64_t bm = tiles[a], bn = tiles[b], bk = bks[c];
		raw++;
		count += M % bm == 0 && N % bn == 0 && K % bk == 0 &&
			 (bm * bk + bk * bn) * 2 * st <= SMEM &&
			 bm * bn >= 32 * warps[w] * 8 && gm <= M / bm;
	}
	CHECK_EQ(t, s.nconfigs, count);
	CHECK_EQ(t, (size_t)s.raw, raw);
	CHECK(t, s.checks < raw); /* pruned, not filtered */
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);
}

/* A synthetic space: 3 parameters of 12 values, no constraint. */
static int synth_space(lego_ctx *ctx, lego_tune_space *s)
{
	lego_spec *spec = parse(ctx, "tune X in 1..12\ntune Y in 1..12\n"
				"tune Z in 1..12\n", NULL, 0);
	return spec ? lego_tune_space_build(ctx, spec, 0, s) : LEGO_ERR;
}

/* A bowl with its minimum 1.0 at (9, 4, 7), one configuration failing. */
static double bowl(const lego_tune_space *s, size_t i)
{
	double x = (double)lego_tune_space_value(s, i, 0) - 9;
	double y = (double)lego_tune_space_value(s, i, 1) - 4;
	double z = (double)lego_tune_space_value(s, i, 2) - 7;
	if (x == 1 && y == 1 && z == 1)
		return INFINITY;
	return 1 + 0.5 * x * x + y * y + 0.25 * z * z;
}

/* Evaluations (at most budget) until the optimum is found; 0: never. */
static size_t find_optimum(const lego_tune_space *s, lego_tune_method m,
			   uint64_t seed, size_t budget, size_t *trace)
{
	lego_tune_search *q = lego_tune_search_new(s, m, seed);
	size_t found = 0;
	for (size_t n = 1; q && n <= budget; n++) {
		size_t i = lego_tune_search_next(q);
		if (i == SIZE_MAX)
			break;
		if (trace)
			trace[n - 1] = i;
		double c = bowl(s, i);
		lego_tune_search_tell(q, i, c);
		if (c == 1.0) {
			found = n;
			break;
		}
	}
	lego_tune_search_free(q);
	return found;
}

static void test_search(lego_test *t)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_tune_space s;
	test_case(t, "search_synthetic");
	CHECK(t, synth_space(ctx, &s) == LEGO_OK && s.nconfigs == 1728);
	/* exhaustive and random visit all 1728 without repeating */
	CHECK(t, find_optimum(&s, LEGO_TUNE_EXHAUSTIVE, 1, 1728, NULL) > 0);
	CHECK(t, find_optimum(&s, LEGO_TUNE_RANDOM, 1, 1728, NULL) > 0);
	/* the local strategies need a fraction of the space, on every seed
	 * tried */
	for (uint64_t seed = 1; seed <= 5; seed++) {
		size_t a = find_optimum(&s, LEGO_TUNE_ANNEAL, seed, 300, NULL);
		size_t b = find_optimum(&s, LEGO_TUNE_BANDIT, seed, 300, NULL);
		CHECKF(t, a > 0, "anneal, seed %llu: not found in 300",
		       (unsigned long long)seed);
		CHECKF(t, b > 0, "bandit, seed %llu: not found in 300",
		       (unsigned long long)seed);
	}

	test_case(t, "search_deterministic");
	size_t t1[200], t2[200];
	for (int m = LEGO_TUNE_RANDOM; m <= LEGO_TUNE_BANDIT; m++) {
		memset(t1, 0xff, sizeof t1);
		memset(t2, 0xff, sizeof t2);
		find_optimum(&s, (lego_tune_method)m, 7, 200, t1);
		find_optimum(&s, (lego_tune_method)m, 7, 200, t2);
		CHECK(t, !memcmp(t1, t2, sizeof t1));
	}

	test_case(t, "search_no_repeat");
	lego_tune_search *q = lego_tune_search_new(&s, LEGO_TUNE_BANDIT, 3);
	unsigned char *seen = calloc(s.nconfigs, 1);
	size_t n = 0, repeats = 0;
	for (size_t i; q && seen && (i = lego_tune_search_next(q)) != SIZE_MAX;
	     n++) {
		repeats += seen[i];
		seen[i] = 1;
		lego_tune_search_tell(q, i, bowl(&s, i));
	}
	CHECK_EQ(t, repeats, 0);
	CHECK_EQ(t, n, s.nconfigs);
	free(seen);
	lego_tune_search_free(q);

	test_case(t, "search_batch");
	/* a batch proposed before any cost is told never repeats */
	for (int m = LEGO_TUNE_EXHAUSTIVE; m <= LEGO_TUNE_BANDIT; m++) {
		lego_tune_search *b = lego_tune_search_new(
			&s, (lego_tune_method)m, 5);
		unsigned char *got = calloc(s.nconfigs, 1);
		size_t ids[16], dup = 0, k = 0;
		for (int round = 0; b && got && round < 20; round++) {
			for (k = 0; k < 16; k++) {
				ids[k] = lego_tune_search_next(b);
				dup += ids[k] == SIZE_MAX || got[ids[k]];
				if (ids[k] != SIZE_MAX)
					got[ids[k]] = 1;
			}
			for (k = 0; k < 16; k++)
				lego_tune_search_tell(b, ids[k],
						      bowl(&s, ids[k]));
		}
		CHECKF(t, dup == 0, "%s: %zu repeated in batches of 16",
		       lego_tune_method_name((lego_tune_method)m), dup);
		free(got);
		lego_tune_search_free(b);
	}

	test_case(t, "method_names");
	lego_tune_method m;
	CHECK(t, lego_tune_method_parse("anneal", &m) == 0 &&
		 m == LEGO_TUNE_ANNEAL);
	CHECK(t, lego_tune_method_parse("genetic", &m) == -1);
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);
}

/* A runner that counts its measurements: the bowl, by the defines. */
typedef struct count_runner {
	lego_tune_runner base;
	size_t calls;
	const lego_tune_space *s;
} count_runner;

static int count_measure(lego_tune_runner *r, const char *kernel,
			 const lego_define *defs, size_t ndefs, double *ms,
			 char *why, size_t cap)
{
	count_runner *c = (count_runner *)r;
	c->calls++;
	uint16_t cfg[3];
	for (size_t p = 0; p < 3; p++)
		cfg[p] = (uint16_t)(defs[ndefs - 3 + p].value - 1);
	*ms = bowl(c->s, lego_tune_space_find(c->s, cfg));
	if (!isfinite(*ms)) {
		snprintf(why, cap, "wrong result");
		return -1;
	}
	return strcmp(kernel, "k") ? -1 : 0;
}

static char *inst_k(void *user, const lego_define *defs, size_t ndefs,
		    char *why, size_t cap)
{
	(void)user, (void)defs, (void)ndefs, (void)why, (void)cap;
	char *k = malloc(2);
	if (k)
		strcpy(k, "k");
	return k;
}

/* The counting runner with a compile step: prepare (called from
 * several threads) keeps the kernel, measure_prepared measures it. */
static void *count_prepare(lego_tune_runner *r, const char *kernel,
			   const lego_define *defs, size_t ndefs, char *why,
			   size_t cap)
{
	(void)r, (void)defs, (void)ndefs;
	char *k = malloc(strlen(kernel) + 1);
	if (!k)
		snprintf(why, cap, "out of memory");
	return k ? strcpy(k, kernel) : NULL;
}

static int count_measure_prepared(lego_tune_runner *r, void *prepared,
				  const lego_define *defs, size_t ndefs,
				  double *ms, char *why, size_t cap)
{
	return count_measure(r, prepared, defs, ndefs, ms, why, cap);
}

static void count_release(lego_tune_runner *r, void *prepared)
{
	(void)r;
	free(prepared);
}

static void test_parallel(lego_test *t)
{
	test_case(t, "run_parallel");
	lego_ctx *ctx = lego_ctx_new();
	lego_tune_space s;
	CHECK(t, synth_space(ctx, &s) == LEGO_OK);
	count_runner r = {{"dev", "drv", count_measure, NULL, count_prepare,
			   count_measure_prepared, count_release}, 0, &s};
	lego_define fixed[] = {{"M", 1}};
	/* exhaustive in batches of 5: every configuration once, and the
	 * optimum of the bowl (its minimum found by enumeration here) */
	double want = INFINITY;
	for (size_t i = 0; i < s.nconfigs; i++)
		want = bowl(&s, i) < want ? bowl(&s, i) : want;
	lego_tune_opts o = {.method = LEGO_TUNE_EXHAUSTIVE, .jobs = 5};
	lego_tune_result a;
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, NULL, NULL, fixed, 1,
			       inst_k, NULL, &a) == LEGO_OK);
	CHECK_EQ(t, a.evals, s.nconfigs);
	CHECK_EQ(t, r.calls, s.nconfigs);
	CHECK(t, a.best_ms == want);
	/* a budget that is not a multiple of the batch is kept exactly */
	o = (lego_tune_opts){.method = LEGO_TUNE_BANDIT, .seed = 2,
			     .max_evals = 23, .jobs = 4};
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, NULL, NULL, fixed, 1,
			       inst_k, NULL, &a) == LEGO_OK);
	CHECK_EQ(t, a.evals, 23);
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);
}

/* Integer buffers: the inputs (5 i + 3 arg) % 7 - 3 computed here, the
 * poison the type's least value, the check exact whatever the
 * tolerance; a type per buffer in the arguments. */
static void test_launch_ints(lego_test *t)
{
	test_case(t, "launch_ints");
	int32_t a[14], b[14];
	int64_t w[14], g[14];
	tune_fill_input(LEGO_TUNE_I32, a, 14, 2);
	tune_fill_input(LEGO_TUNE_I64, w, 14, 2);
	int ok = 1;
	for (size_t i = 0; i < 14; i++)
		ok &= a[i] == (int32_t)((i * 5 + 6) % 7) - 3 && w[i] == a[i];
	CHECK(t, ok);
	char why[256] = "";
	for (size_t i = 0; i < 14; i++)
		w[i] = g[i] = 1000000 * w[i];
	CHECK(t, tune_check(LEGO_TUNE_I64, 0, "s", g, w, 14, why,
			    sizeof why) == 0);
	g[8] += 1; /* 1000001 for 1000000: within 1e-3, and 0.5 */
	CHECK(t, w[8] == 1000000);
	CHECKF(t, tune_check(LEGO_TUNE_I64, 0.5, "s", g, w, 14, why,
			     sizeof why) &&
		  !strcmp(why, "wrong result: s[8] = 1000001, the reference "
			       "says 1000000"), "%s", why);
	memcpy(b, a, sizeof b);
	tune_fill_poison(LEGO_TUNE_I32, b + 3, 1);
	CHECKF(t, tune_check(LEGO_TUNE_I32, 0, "s", b, a, 14, why,
			     sizeof why) &&
		  strstr(why, "s[3] = -2147483648 (not written)"), "%s", why);
	tune_fill_poison(LEGO_TUNE_I32, a + 3, 1); /* both unwritten */
	CHECK(t, tune_check(LEGO_TUNE_I32, 0, "s", b, a, 14, why,
			    sizeof why));
	tune_fill_poison(LEGO_TUNE_I64, g, 1);
	CHECK(t, g[0] == INT64_MIN);

	lego_tune_launch l = {.args = "a:N:i32 b:N:out:i64 c:N:f16:out d:N "
				      "e:N:out",
			      .elem = LEGO_TUNE_I32, .global = "N"};
	lego_define d[] = {{"N", 32}};
	tune_shape sh, sh2;
	CHECKF(t, tune_launch_shape(&l, d, 1, &sh, why, sizeof why) == 0,
	       "%s", why);
	CHECK(t, sh.nargs == 5 && sh.elem[0] == LEGO_TUNE_I32 &&
		 !sh.out[0] && sh.elem[1] == LEGO_TUNE_I64 && sh.out[1] &&
		 sh.elem[2] == LEGO_TUNE_F16 && sh.out[2] &&
		 sh.elem[3] == LEGO_TUNE_I32 && sh.elem[4] == LEGO_TUNE_I32 &&
		 sh.out[4] && sh.elems[1] == 32 && sh.elems[4] == 32);
	CHECK(t, tune_elem_bytes(LEGO_TUNE_I64) == 8 &&
		 tune_elem_bytes(LEGO_TUNE_I32) == 4);
	l.elem = LEGO_TUNE_F32; /* d and e change type: another problem */
	CHECK(t, tune_launch_shape(&l, d, 1, &sh2, why, sizeof why) == 0 &&
		 !tune_shape_equal(&sh, &sh2));
	lego_tune_launch bad = {.args = "a:N:i16", .global = "N"};
	CHECK(t, tune_launch_shape(&bad, d, 1, &sh, why, sizeof why) &&
		 strstr(why, "cannot evaluate 'N:i16'"));
	lego_tune_elem e;
	CHECK(t, lego_tune_elem_parse("i64", 3, &e) == 0 &&
		 e == LEGO_TUNE_I64 && lego_tune_elem_parse("i6", 2, &e) &&
		 lego_tune_elem_parse("i641", 4, &e));
}

/* The built-in runners' launch: sizes from the defines, inputs, the
 * check (half-precision encodings from IEEE 754, not from the code). */
static void test_launch(lego_test *t)
{
	test_case(t, "launch_shape");
	lego_tune_launch l = {.kernel = "k", .args = "a:M*K  b:K*N c:M*N:out",
			      .global = "N, M/TM", .local = "4,TM*2"};
	lego_define d[] = {{"M", 64}, {"N", 32}, {"K", 8}, {"TM", 2}, {"P", 0}};
	tune_shape sh;
	char why[256] = "";
	CHECKF(t, tune_launch_shape(&l, d, 5, &sh, why, sizeof why) == 0, "%s",
	       why);
	CHECK(t, sh.nargs == 3 && !strcmp(sh.names[1], "b") &&
		 sh.elems[0] == 64 * 8 && sh.elems[1] == 8 * 32 &&
		 sh.elems[2] == 64 * 32 && !sh.out[0] && !sh.out[1] &&
		 sh.out[2]);
	CHECK(t, sh.dims == 2 && sh.global[0] == 32 && sh.global[1] == 32 &&
		 sh.local[0] == 4 && sh.local[1] == 4);
	const char *bad[][3] = {{"a:M*Q", "N", "unbound symbol 'Q'"},
				{"a", "N", "expected NAME:SIZE"},
				{"a:N", "N, M, K, TM", "more than 3 sizes"},
				{"a:N-N", "N", "not positive"}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		lego_tune_launch b = {.args = bad[i][0], .global = bad[i][1]};
		why[0] = '\0';
		CHECKF(t, tune_launch_shape(&b, d, 5, &sh, why, sizeof why) &&
			  strstr(why, bad[i][2]), "%s: got '%s'", bad[i][0],
		       why);
	}
	l.local = "4";
	CHECK(t, tune_launch_shape(&l, d, 5, &sh, why, sizeof why) &&
		 strstr(why, "2 global sizes but 1 local"));

	test_case(t, "launch_scalars");
	/* scalars by value: a define by name, an expression, 0 and negative
	 * values allowed; 3 * 10^9 fits a long only */
	lego_tune_launch sc = {.args = "a:M*K M:int c:M*N:out n:long=M*N*TM "
				       "z:int=P w:int=P-K big:long=M*46875000",
			       .global = "N"};
	CHECKF(t, tune_launch_shape(&sc, d, 5, &sh, why, sizeof why) == 0,
	       "%s", why);
	size_t bytes = 0;
	const void *v = sh.nargs == 7 ? tune_shape_scalar(&sh, 1, &bytes)
				      : NULL;
	CHECK(t, v && bytes == 4 && *(const int32_t *)v == 64);
	v = sh.nargs == 7 ? tune_shape_scalar(&sh, 3, &bytes) : NULL;
	CHECK(t, v && bytes == 8 && *(const int64_t *)v == 64 * 32 * 2);
	CHECK(t, sh.nargs == 7 && sh.i32[4] == 0 && sh.i32[5] == -8 &&
		 sh.i64[6] == 3000000000LL && sh.kind[0] == TUNE_ARG_BUFFER &&
		 sh.elems[2] == 64 * 32 && sh.out[2] && !sh.out[1] &&
		 !tune_shape_scalar(&sh, 2, &bytes));
	/* a scalar's value is part of the problem: another value, another
	 * reference run */
	tune_shape sh2;
	lego_define d2[] = {{"M", 64}, {"N", 32}, {"K", 8}, {"TM", 4},
			    {"P", 0}};
	CHECK(t, tune_launch_shape(&sc, d2, 5, &sh2, why, sizeof why) == 0 &&
		 !tune_shape_equal(&sh, &sh2) && tune_shape_equal(&sh, &sh));
	/* the reference's macros leave out the scalars' names */
	char *opts = tune_define_options(d, 5, &sh);
	CHECKF(t, opts && !strcmp(opts, "-DN=32 -DK=8 -DTM=2 -DP=0"), "%s",
	       opts ? opts : "(null)");
	free(opts);
	const char *sbad[][2] = {
		{"a:N Q:int", "unbound symbol 'Q'"},
		{"a:N big:int=M*46875000", "big = 3000000000 does not fit an int"},
		{"a:N x:float", "unbound symbol 'float'"},
		{"a:N x:int=", "cannot evaluate"}};
	for (size_t i = 0; i < sizeof sbad / sizeof *sbad; i++) {
		lego_tune_launch b = {.args = sbad[i][0], .global = "N"};
		why[0] = '\0';
		CHECKF(t, tune_launch_shape(&b, d, 5, &sh, why, sizeof why) &&
			  strstr(why, sbad[i][1]), "%s: got '%s'", sbad[i][0],
		       why);
	}

	test_case(t, "launch_values");
	uint16_t h[14];
	float f[14];
	tune_fill_input(LEGO_TUNE_F16, h, 14, 1);
	tune_fill_input(LEGO_TUNE_F32, f, 14, 1);
	/* the halves of -3 .. 3 */
	const uint16_t enc[7] = {0xc200, 0xc000, 0xbc00, 0, 0x3c00, 0x4000,
				 0x4200};
	int ok = 1;
	for (size_t i = 0; i < 14; i++)
		ok &= f[i] == (float)(long)f[i] && f[i] >= -3 && f[i] <= 3 &&
		      h[i] == enc[(int)f[i] + 3];
	CHECK(t, ok);
	uint16_t g[14];
	memcpy(g, h, sizeof g);
	CHECK(t, tune_check(LEGO_TUNE_F16, 0, "c", g, h, 14, why,
			    sizeof why) == 0);
	g[9] = 0x4400; /* 4 */
	CHECK(t, tune_check(LEGO_TUNE_F16, 0, "c", g, h, 14, why,
			    sizeof why) && strstr(why, "c[9] = 4"));
	tune_fill_poison(LEGO_TUNE_F16, g, 14);
	CHECK(t, tune_check(LEGO_TUNE_F16, 0, "c", g, h, 14, why,
			    sizeof why) && strstr(why, "c[0] = nan"));
	test_launch_ints(t);
}

/* The spec of a configuration for the model: parsed with its defines. */
static lego_spec *model_spec(void *user, lego_ctx *ctx,
			     const lego_define *defs, size_t ndefs)
{
	const char *text = user;
	return lego_spec_parse(ctx, "m.lego", text, strlen(text), defs, ndefs);
}

static void test_model(lego_test *t)
{
	test_case(t, "model_occupancy");
	/* S kB of shared memory a block, 128 threads, 264 blocks: on the
	 * H100 (228 KiB an SM, 132 SMs) 1 block of 200 kB fits an SM (2
	 * waves), 2 of 100 kB (1 wave), 22 of 10 kB (1 wave, at most 16 of
	 * 128 threads by threads: 2048 / 128), 240 kB none. */
	const char *text = "tune S in {10, 100, 200, 240}\n"
			   "let model_smem = S * 1000\n"
			   "let model_blocks = 264\n"
			   "let model_work = 7\n";
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text, NULL, 0);
	lego_tune_space s;
	double pred[4];
	lego_tune_gpu gpu = lego_tune_gpu_h100();
	CHECK(t, spec && lego_tune_space_build(ctx, spec, 0, &s) == LEGO_OK);
	CHECKF(t, lego_tune_model_predict(ctx, &s, &gpu, NULL, NULL, 0,
					  model_spec, (void *)text, pred) ==
		  LEGO_OK, "%s", lego_ctx_error(ctx));
	/* waves x resident x work / min(1, resident x 128 / 256) */
	CHECK(t, pred[0] == 1 * 16 * 7.0);
	CHECK(t, pred[1] == 1 * 2 * 7.0);
	CHECK(t, pred[2] == 2 * 1 * 7.0 / 0.5);
	CHECK(t, isinf(pred[3]));

	test_case(t, "model_prior");
	/* ordered: 1 (14), 2 (28), 0 (112), 3 (cannot run) */
	lego_tune_search *q = lego_tune_search_new(&s, LEGO_TUNE_EXHAUSTIVE, 1);
	size_t got[5];
	lego_tune_search_prior(q, pred, 0);
	for (int k = 0; k < 5; k++) {
		got[k] = lego_tune_search_next(q);
		lego_tune_search_tell(q, got[k], 1);
	}
	CHECK(t, got[0] == 1 && got[1] == 2 && got[2] == 0 && got[3] == 3 &&
		 got[4] == SIZE_MAX);
	lego_tune_search_free(q);
	/* pruned at 2.5 x 14: 1 and 2 are left, for every strategy */
	for (int m = LEGO_TUNE_EXHAUSTIVE; m <= LEGO_TUNE_BANDIT; m++) {
		q = lego_tune_search_new(&s, (lego_tune_method)m, 3);
		lego_tune_search_prior(q, pred, 2.5);
		CHECK_EQ(t, lego_tune_search_left(q), 2);
		size_t a = lego_tune_search_next(q);
		lego_tune_search_tell(q, a, 1);
		size_t b = lego_tune_search_next(q);
		lego_tune_search_tell(q, b, 1);
		CHECK(t, a == 1 && b == 2 && lego_tune_search_next(q) == SIZE_MAX);
		lego_tune_search_free(q);
	}
	lego_tune_space_free(&s);

	test_case(t, "model_banks");
	/* a warp reading a column of a 32 x 32 row-major float tile hits one
	 * bank 32 times, a row once: a factor (32 + 1) / 2; padded to 33
	 * columns or XOR-swizzled, once each way: 1 */
	const char *tiles = "tune layout T in {Row(32, 32), Row(32, 33), "
			    "GenP([32, 32], swizzle(5, 0, 5))}\n";
	spec = parse(ctx, tiles, NULL, 0);
	double b[3];
	CHECK(t, spec && lego_tune_space_build(ctx, spec, 0, &s) == LEGO_OK);
	CHECKF(t, lego_tune_model_predict(ctx, &s, &gpu, "T", NULL, 0,
					  model_spec, (void *)tiles, b) ==
		  LEGO_OK, "%s", lego_ctx_error(ctx));
	/* times 16 resident blocks of 128 threads (2048 / 128) and one
	 * wave, the defaults of everything else */
	CHECKF(t, b[0] == 16 * 16.5 && b[1] == 16 && b[2] == 16, "%g %g %g",
	       b[0], b[1], b[2]);
	CHECK(t, lego_tune_model_predict(ctx, &s, &gpu, "T,U", NULL, 0,
					 model_spec, (void *)tiles, b) &&
		 strstr(lego_ctx_error(ctx), "no layout 'U'"));
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);
}

static void test_cache(lego_test *t)
{
	test_case(t, "cache_resume");
	lego_ctx *ctx = lego_ctx_new();
	lego_tune_space s;
	char path[] = "/tmp/lego-tune-test-XXXXXX";
	int fd = mkstemp(path);
	CHECK(t, fd >= 0 && synth_space(ctx, &s) == LEGO_OK);
	if (fd < 0) {
		lego_ctx_free(ctx);
		return;
	}
	close(fd);
	char err[256];
	lego_tune_cache *cache = lego_tune_cache_open(path, err, sizeof err);
	CHECKF(t, cache != NULL, "%s", err);
	count_runner r = {{.device = "dev", .driver = "drv",
			   .measure = count_measure}, 0, &s};
	lego_tune_key k = {"dev", "drv", "tpl", "M=1"};
	lego_define fixed[] = {{"M", 1}};
	lego_tune_opts o = {.method = LEGO_TUNE_BANDIT, .seed = 5,
			    .max_evals = 60};
	lego_tune_result a, b, c;
	/* an interrupted run of 60, then the whole run of 120 from the cache */
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, cache, &k, fixed, 1,
			       inst_k, NULL, &a) == LEGO_OK);
	CHECK_EQ(t, a.measured, 60);
	CHECK_EQ(t, r.calls, 60);
	o.max_evals = 120;
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, cache, &k, fixed, 1,
			       inst_k, NULL, &b) == LEGO_OK);
	CHECK_EQ(t, b.evals, 120);
	CHECK_EQ(t, b.measured, 60);
	CHECK_EQ(t, r.calls, 120);
	/* a re-run measures nothing and finds the same best */
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, cache, &k, fixed, 1,
			       inst_k, NULL, &c) == LEGO_OK);
	CHECK_EQ(t, c.measured, 0);
	CHECK(t, c.best == b.best && c.best_ms == b.best_ms);
	/* another problem is measured anew */
	lego_tune_key k2 = {"dev", "drv", "tpl", "M=2"};
	o.max_evals = 3;
	CHECK(t, lego_tune_run(ctx, &s, &o, &r.base, cache, &k2, fixed, 1,
			       inst_k, NULL, &c) == LEGO_OK && c.measured == 3);
	/* the history holds the 120 of k in order, failures recorded */
	lego_tune_record *rec;
	size_t n;
	lego_tune_key any = {NULL, NULL, "tpl", "M=1"};
	CHECK(t, lego_tune_cache_history(cache, &any, &rec, &n) == 0);
	CHECK_EQ(t, n, 120);
	double best = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (rec[i].ms < best)
			best = rec[i].ms;
	CHECK(t, best == b.best_ms);
	lego_tune_records_free(rec, n);
	lego_tune_cache_close(cache);
	lego_tune_space_free(&s);
	lego_ctx_free(ctx);
	remove(path);
}

void suite_tune(lego_test *t)
{
	test_parse(t);
	test_constraints(t);
	test_space_brute(t);
	test_search(t);
	test_cache(t);
	test_parallel(t);
	test_launch(t);
	test_model(t);
}
