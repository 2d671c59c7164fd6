/* test_lang.c - the .lego language: every construct, the paper's figure 9
 * from text, and a catalogue of mistakes with their exact positions.
 * Expected values are worked out by hand from SEMANTICS.md or computed
 * independently in the test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"
#include "suggest/suggest.h"

static lego_spec *parse_defs(lego_ctx *ctx, const char *text,
			     const lego_define *defs, size_t ndefs)
{
	return lego_spec_parse(ctx, "t.lego", text, strlen(text), defs, ndefs);
}

static lego_spec *parse(lego_ctx *ctx, const char *text)
{
	return parse_defs(ctx, text, NULL, 0);
}

/* The value of a constant `let`, or a sentinel. */
static long long let_value(const lego_spec *spec, const char *name)
{
	int64_t v;
	lego_expr *e = lego_spec_let(spec, name);
	return e && lego_expr_is_const(e, &v) ? (long long)v : -999999;
}

/* The table of a layout in a new ctx; 0 entries on error. */
static size_t table_of(lego_test *t, const char *text, const char *name,
		       int64_t *out, size_t cap)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text);
	size_t n = 0;
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	lego_layout *l = spec ? lego_spec_layout(spec, name) : NULL;
	if (l && lego_layout_table(ctx, l, NULL, out, cap, &n) != LEGO_OK) {
		CHECKF(t, 0, "table: %s", lego_ctx_error(ctx));
		n = 0;
	}
	lego_ctx_free(ctx);
	return n;
}

static void check_table(lego_test *t, const char *text, const char *name,
			const int64_t *want, size_t n)
{
	int64_t got[64];
	size_t size = table_of(t, text, name, got, 64);
	CHECK_EQ(t, size, n);
	for (size_t i = 0; i < n && i < size; i++)
		CHECKF(t, got[i] == want[i], "%s: entry %zu is %lld, want %lld",
		       name, i, (long long)got[i], (long long)want[i]);
}

static void test_expressions(lego_test *t)
{
	test_case(t, "expressions_c_precedence");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx,
		"let a = 1 + 2 * 3\n"
		"let b = 1 << 2 + 1            # + binds tighter than <<\n"
		"let c = 7 - 2 - 1; let d = -7 / 2; let e = -7 % 2\n"
		"let f = 5 & 3 | 8 ^ 1         # (5 & 3) | (8 ^ 1)\n"
		"let g = 0 ? 1 : 2 ? 3 : 4\n"
		"let h = !0 + min(3, 4) * max(1, 2) + isqrt(17) + select(0, 10, 20)\n"
		"let i = 0x10 >> 2\n"
		"let j = 2 > 1 && 3 >= 3 || 0\n"
		"let k = 10 - -2; let l = 1 < 2 == 1; let m = 3 != 3\n"
		"let n = (1 + 2) * 3 % 4; let o = a * 2 + i\n"
		"let p = 2 <= 1 || 1 > 2\n");
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	if (spec) {
		CHECK_EQ(t, let_value(spec, "a"), 7);
		CHECK_EQ(t, let_value(spec, "b"), 8);
		CHECK_EQ(t, let_value(spec, "c"), 4);
		CHECK_EQ(t, let_value(spec, "d"), -4); /* floor division */
		CHECK_EQ(t, let_value(spec, "e"), 1);  /* floor modulo */
		CHECK_EQ(t, let_value(spec, "f"), 9);
		CHECK_EQ(t, let_value(spec, "g"), 3);
		CHECK_EQ(t, let_value(spec, "h"), 1 + 3 * 2 + 4 + 20);
		CHECK_EQ(t, let_value(spec, "i"), 4);
		CHECK_EQ(t, let_value(spec, "j"), 1);
		CHECK_EQ(t, let_value(spec, "k"), 12);
		CHECK_EQ(t, let_value(spec, "l"), 1);
		CHECK_EQ(t, let_value(spec, "m"), 0);
		CHECK_EQ(t, let_value(spec, "n"), 1);
		CHECK_EQ(t, let_value(spec, "o"), 18);
		CHECK_EQ(t, let_value(spec, "p"), 0);
		CHECK(t, lego_spec_let(spec, "zz") == NULL);
	}
	lego_ctx_free(ctx);
}

static void test_symbols(lego_test *t)
{
	test_case(t, "sym_let_index_assume");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx,
		"sym M, K, BM\n"
		"let nb = M / BM\n"
		"assume M % BM == 0 && BM <= M\n"
		"index r in [0, BM)\n"
		"let off = r + nb * K\n");
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	if (spec) {
		lego_expr *m = lego_sym_find(ctx, "M");
		lego_expr *bm = lego_sym_find(ctx, "BM");
		lego_expr *k = lego_sym_find(ctx, "K");
		lego_expr *r = lego_sym_find(ctx, "r");
		CHECK(t, m && bm && k && r);
		/* Hash-consing: the same tree built through the API is the
		 * same node. */
		lego_expr *nb = lego_div(ctx, m, bm);
		CHECK(t, lego_spec_let(spec, "nb") == nb);
		CHECK(t, lego_spec_let(spec, "off") ==
			     lego_add(ctx, r, lego_mul(ctx, nb, k)));
		/* Command-line expressions see the declarations. */
		CHECK(t, lego_spec_parse_expr(spec, "nb * K + r", NULL) ==
			     lego_add(ctx, lego_mul(ctx, nb, k), r));
		/* Undeclared names become index variables over [0, hi). */
		lego_expr *hi = lego_const(ctx, 6);
		lego_expr *q = lego_spec_parse_expr(spec, "q + 1", hi);
		CHECK(t, q && lego_sym_find(ctx, "q"));
		CHECK(t, q == lego_add(ctx, lego_index(ctx, "q", NULL, hi),
				       lego_const(ctx, 1)));
		CHECK(t, lego_spec_parse_expr(spec, "q +", hi) == NULL);
		CHECKF(t, !strncmp(lego_ctx_error(ctx), "<expr>:1:4: error: ", 19),
		       "%s", lego_ctx_error(ctx));
	}
	lego_ctx_free(ctx);

	test_case(t, "defines_make_syms_constant");
	ctx = lego_ctx_new();
	lego_define defs[] = {{"M", 8}, {"N", 3}, {"M", 12}};
	spec = parse_defs(ctx, "sym M, N, K\nlet a = M * N\nlet b = K\n", defs, 3);
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	if (spec) {
		CHECK_EQ(t, let_value(spec, "a"), 36); /* the last -D M wins */
		CHECK(t, lego_spec_let(spec, "b") == lego_sym_find(ctx, "K"));
	}
	lego_ctx_free(ctx);
}

static void test_fig9(lego_test *t)
{
	static const char fig9[] =
		"# the paper's figure 9\n"
		"layout O1 = OrderBy(RegP([2, 2], [2, 1]), GenP([3, 3], antidiag))\n"
		"layout O2 = OrderBy(RegP([2, 3, 2, 3], [1, 3, 2, 4]))\n"
		"layout G = O1.O2.GroupBy([6, 6])\n"
		"layout H = OrderBy(RegP([2,2],[2,1]), GenP([3,3], antidiag))"
		".OrderBy(RegP([2,3,2,3],[1,3,2,4])).GroupBy([6,6])\n";
	test_case(t, "figure9_from_text");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, fig9);
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	if (spec) {
		CHECK_EQ(t, lego_spec_nlayouts(spec), 4);
		CHECK(t, !strcmp(lego_spec_layout_name(spec, 0), "O1"));
		CHECK(t, !strcmp(lego_spec_layout_name(spec, 2), "G"));
		CHECK(t, lego_spec_layout_name(spec, 4) == NULL);
		CHECK(t, lego_spec_layout(spec, "nope") == NULL);
		const char *names[] = {"G", "H"};
		for (int n = 0; n < 2; n++) {
			lego_layout *g = lego_spec_layout(spec, names[n]);
			int64_t idx[2] = {4, 2}, flat = -1, back[2] = {-1, -1};
			CHECK(t, g && lego_layout_rank(g) == 2);
			if (!g)
				continue;
			CHECK_EQ(t, lego_layout_apply_num(ctx, g, NULL, idx, &flat), 0);
			CHECK_EQ(t, flat, 15);
			CHECK_EQ(t, lego_layout_inv_num(ctx, g, NULL, 15, back), 0);
			CHECK(t, back[0] == 4 && back[1] == 2);
			lego_expr *ie[2] = {lego_const(ctx, 4), lego_const(ctx, 2)};
			lego_expr *fe = lego_layout_apply(ctx, g, ie);
			int64_t v = -1;
			CHECK(t, fe && lego_expr_eval(ctx, fe, NULL, &v) == 0 && v == 15);
			lego_check_report rep;
			CHECK_EQ(t, lego_layout_check(ctx, g, NULL, &rep), 0);
			CHECK_EQ(t, rep.size, 36);
		}
		/* After the second reordering alone: (4, 2) is flat 26 of the
		 * 6x6 view, (1, 1, 0, 2) in O2's dims, and O2 maps it to 23. */
		lego_layout *o2 = lego_spec_layout(spec, "O2");
		int64_t idx4[4] = {1, 1, 0, 2}, flat = -1;
		CHECK(t, o2 && lego_layout_apply_num(ctx, o2, NULL, idx4, &flat) == 0);
		CHECK_EQ(t, flat, 23);
	}
	lego_ctx_free(ctx);
}

static void test_tileby(lego_test *t)
{
	/* The worked tables of SEMANTICS.md. */
	static const int64_t row[24] = {0,  1,  6,  7,  2,  3,  8,  9,
					4,  5,  10, 11, 12, 13, 18, 19,
					14, 15, 20, 21, 16, 17, 22, 23};
	static const int64_t col[24] = {0, 4,  1, 5,  8,  12, 9,  13,
					16, 20, 17, 21, 2, 6,  3,  7,
					10, 14, 11, 15, 18, 22, 19, 23};
	test_case(t, "tileby_tables");
	check_table(t, "layout T = OrderBy(Row(4, 6)).TileBy([2, 3], [2, 2])",
		    "T", row, 24);
	check_table(t, "layout T = OrderBy(Col(4, 6)).TileBy([2, 3], [2, 2])",
		    "T", col, 24);
	/* A bare permutation stands for OrderBy of it. */
	check_table(t, "layout T = Row(4, 6).TileBy([2, 3], [2, 2])", "T", row, 24);

	test_case(t, "tileby_symbolic_exact_division");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx,
		"sym M, K, BM, BK\n"
		"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n");
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
	if (a) {
		lego_expr *m = lego_sym_find(ctx, "M"), *bm = lego_sym_find(ctx, "BM");
		CHECK_EQ(t, lego_layout_rank(a), 4);
		CHECK(t, lego_layout_dim(a, 0) == lego_div(ctx, m, bm));
		CHECK(t, lego_layout_dim(a, 2) == bm);
		/* (tm, tk, r, c) -> (tm*BM + r)*K + tk*BK + c, evaluated at
		 * M=8, K=6, BM=4, BK=3 for every index. */
		lego_env *env = lego_env_new(ctx);
		const char *syms[] = {"M", "K", "BM", "BK"};
		const int64_t vals[] = {8, 6, 4, 3};
		for (int i = 0; i < 4; i++)
			lego_env_bind(env, lego_sym_find(ctx, syms[i]), vals[i]);
		int bad = 0;
		for (int64_t tm = 0; tm < 2; tm++)
			for (int64_t tk = 0; tk < 2; tk++)
				for (int64_t r = 0; r < 4; r++)
					for (int64_t c = 0; c < 3; c++) {
						int64_t idx[4] = {tm, tk, r, c}, f;
						if (lego_layout_apply_num(ctx, a, env, idx, &f) ||
						    f != (tm * 4 + r) * 6 + tk * 3 + c)
							bad++;
					}
		CHECK_EQ(t, bad, 0);
		lego_env_free(env);
	}
	lego_ctx_free(ctx);
}

static void test_chains_and_pieces(lego_test *t)
{
	/* Col(2, 3) runs first: (i, j) -> j*2 + i; Row(2, 3) then keeps the
	 * order.  So the chain maps (i, j) to 2j + i. */
	int64_t want[6];
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			want[i * 3 + j] = 2 * j + i;
	test_case(t, "chain_without_groupby");
	check_table(t, "layout C = OrderBy(Row(2, 3)).OrderBy(Col(2, 3))", "C",
		    want, 6);
	check_table(t, "layout R = Row(2, 3)\nlayout D = OrderBy(Col(2, 3))\n"
		       "layout C = R.D", "C", want, 6);

	test_case(t, "user_genp");
	/* Transposition as a user GenP: (i, j) -> j*a + i. */
	int64_t tr[6];
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			tr[i * 3 + j] = j * 2 + i;
	check_table(t, "genp tr[a, b](i, j) = j*a + i inverse (x) = (x % a, x / a)\n"
		       "layout T = GenP([2, 3], tr)", "T", tr, 6);
	/* The same GenP used with other dims, inside an OrderBy. */
	int64_t tr2[8];
	for (int h = 0; h < 2; h++)
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++)
				tr2[h * 4 + i * 2 + j] = h * 4 + j * 2 + i;
	check_table(t, "genp tr[a, b](i, j) = j*a + i inverse (x) = (x % a, x / a)\n"
		       "layout T = OrderBy(Row(2), GenP([2, 2], tr))", "T", tr2, 8);

	test_case(t, "builtin_genps_and_tileorderby");
	static const char text[] =
		"layout Z = GenP([4, 4], morton)\n"
		"layout S = GenP([8, 8], swizzle(2, 0, 3))\n"
		"layout D = GenP([5, 5], antidiag)\n"
		"layout TO = TileOrderBy(Row(2, 3), Col(2, 2))\n"
		"let n = 3; layout E = OrderBy(Col(n, 2), RegP([2, n, 1], [3, 1, 2]))\n";
	static const char *names[] = {"Z", "S", "D", "TO", "E"};
	static const int64_t sizes[] = {16, 64, 25, 24, 36};
	static const size_t ranks[] = {2, 2, 2, 4, 5};
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, text);
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	for (int i = 0; spec && i < 5; i++) {
		lego_layout *l = lego_spec_layout(spec, names[i]);
		lego_check_report rep;
		CHECK(t, l && lego_layout_rank(l) == ranks[i]);
		CHECKF(t, l && lego_layout_check(ctx, l, NULL, &rep) == 0 &&
			       rep.size == sizes[i], "%s: %s", names[i],
		       lego_ctx_error(ctx));
	}
	lego_ctx_free(ctx);
	/* Anti-diagonal order of a 3x3 square (figure 8): the first
	 * anti-diagonal is (0,0), then (0,1),(1,0), ... */
	static const int64_t ad[9] = {0, 1, 3, 2, 4, 6, 5, 7, 8};
	check_table(t, "layout D = GenP([3, 3], antidiag)", "D", ad, 9);
}

static void test_syntax_forms(lego_test *t)
{
	test_case(t, "layout_and_separators");
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx,
		"sym npm, npn, GM ; assume npm % GM == 0;;\n"
		"layout P = OrderBy(Col(max(npm/GM, 1), 1),\n"
		"                   Col(min(npm, GM), npn))   # continues\n"
		"           .TileBy([npm, npn])\n"
		"layout R = RegP([npm, npn], [2, 1])\n");
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	CHECK(t, spec && lego_spec_nlayouts(spec) == 2);
	lego_layout *p = spec ? lego_spec_layout(spec, "P") : NULL;
	CHECK(t, p && lego_layout_rank(p) == 2);
	lego_ctx_free(ctx);

	test_case(t, "grouped_pid_layout_matches_triton");
	/* At npm, npn, GM = 8, 6, 4: the tutorial's grouped ordering, for
	 * every pid. */
	lego_define defs[] = {{"npm", 8}, {"npn", 6}, {"GM", 4}};
	ctx = lego_ctx_new();
	spec = parse_defs(ctx,
		"sym npm, npn, GM\n"
		"layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn))"
		".TileBy([npm, npn])\n", defs, 3);
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	p = spec ? lego_spec_layout(spec, "P") : NULL;
	int bad = 0;
	for (int64_t pid = 0; p && pid < 48; pid++) {
		int64_t group = pid / (4 * 6), first_m = group * 4;
		int64_t gsize = 8 - first_m < 4 ? 8 - first_m : 4;
		int64_t want_m = first_m + (pid % (4 * 6)) % gsize;
		int64_t want_n = (pid % (4 * 6)) / gsize;
		int64_t idx[2] = {-1, -1};
		if (lego_layout_inv_num(ctx, p, NULL, pid, idx) ||
		    idx[0] != want_m || idx[1] != want_n)
			bad++;
	}
	CHECK(t, p != NULL);
	CHECK_EQ(t, bad, 0);
	lego_ctx_free(ctx);
}

/* A mistake, where it is reported, and words the message must contain. */
typedef struct bad_case {
	const char *text;
	int line, col;
	const char *words;
} bad_case;

static const bad_case bad_cases[] = {
	{"sym M, N\nlet x = M +", 2, 12, "expected an expression"},
	{"let x = 1 $ 2", 1, 11, "unexpected character '$'"},
	{"let x = 99999999999999999999", 1, 9, "does not fit in 64 bits"},
	{"let x = 12ab", 1, 9, "malformed integer"},
	{"let x = y", 1, 9, "unknown name 'y'"},
	{"sym M\nsym N, M", 2, 8, "redeclaration of 'M'"},
	{"let sym = 3", 1, 5, "reserved"},
	{"layout L = RegP([2, 3], [1, 2, 3])", 1, 25, "permutation"},
	{"layout L = RegP([2, 3], [1, 1])", 1, 12, "permutation"},
	{"layout L = RegP([2, 3], [0, 1])", 1, 25, "permutation"},
	{"layout L = GenP([3, 3], foo)", 1, 25, "unknown genp function 'foo'"},
	{"genp f[n](i) = i inverse (x) = (x)\nlayout L = GenP([2, 3], f)", 2, 25,
	 "takes 1 dims"},
	{"layout L = OrderBy(Row(2, 3)).OrderBy(Row(4, 2))", 1, 12, "differ"},
	{"layout L = Row(2, 3).GroupBy([5])", 1, 22, "differ"},
	{"layout L = Row(4, 6).TileBy([3, 3], [2, 2])", 1, 22, "differ"},
	{"layout L = Row(4, 6).TileBy([2, 3], [2, 2, 1])", 1, 22,
	 "level 2 has 3 sizes"},
	{"layout L = Row(4, 6).TileBy([7/2, 3], [2, 2])", 1, 31, "not exact"},
	{"sym M\nlayout L = M", 2, 12, "is an expression, not a layout"},
	{"layout L = Row(2, 3)\nlet y = L + 1", 2, 9,
	 "is a layout, not an expression"},
	{"let y = 2 * Row(2, 3)", 1, 13, "layout Row used as an expression"},
	{"layout L = GenP([2, 3], antidiag)", 1, 25, "square"},
	{"layout L = GenP([3, 4], morton)", 1, 25, "power"},
	{"let x = 1 let y = 2", 1, 11, "expected ';' or a newline"},
	{"let x = min(1)", 1, 9, "min expects 2 arguments, got 1"},
	{"let x = 1 / 0", 1, 11, "division by zero"},
	{"let x = 9223372036854775807 + 1", 1, 29, "overflow"},
	{"assume 1 == 2", 1, 8, "assumption is false"},
	{"genp f[n](i) = i inverse (x) = (x, x)", 1, 33, "gives 2 coordinates"},
	{"genp f[n](i, j) = i inverse (x) = (x)", 1, 10,
	 "1 dims but 2 index names"},
	{"genp f[n, n](i, j) = i inverse (x) = (x, x)", 1, 11,
	 "already a name of genp 'f'"},
	{"genp f[n](i) = i inverse (x) = (i)", 1, 33, "unknown name 'i'"},
	{"genp f[n](i) = i\nlayout L = Row(2)", 2, 1, "expected 'inverse'"},
	{"index i in [0, 4]", 1, 17, "expected ')'"},
	{"index i [0, 4)", 1, 9, "expected 'in'"},
	{"layout L = Row(2, 3).Foo(1)", 1, 22, "expected OrderBy, GroupBy"},
	{"layout L = GenP([4, 4], swizzle(1, 2))", 1, 37, "expected ','"},
	{"foo", 1, 1, "expected a declaration"},
	{"let x = (1", 1, 9, "'(' is not closed: expected ')'"},
	{"layout L = OrderBy(Row(2, 3)", 1, 19, "'(' is not closed: expected ')'"},
	{"layout L = Row(2, 3)).GroupBy([6])", 1, 21, "expected ';'"},
	{"layout L = Row(2, nosize)", 1, 19, "unknown name 'nosize'"},
	{"let x = 3\nlayout L = GenP([2, 2], x)", 2, 25, "not a genp function"},
	{"layout L = [2, 3]", 1, 12, "expected a layout"},
	{"layout L = X.OrderBy(Row(2))", 1, 12, "unknown layout 'X'"},
	{"let x = select(1, 2)", 1, 9, "select expects 3 arguments"},
	{"layout L = Row(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)", 1, 55,
	 "too many entries"},
};

static void test_errors(lego_test *t)
{
	test_case(t, "error_catalogue");
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case *c = &bad_cases[i];
		lego_ctx *ctx = lego_ctx_new();
		lego_spec *spec = parse(ctx, c->text);
		char prefix[64];
		snprintf(prefix, sizeof prefix, "t.lego:%d:%d: error: ", c->line,
			 c->col);
		const char *msg = lego_ctx_error(ctx);
		CHECKF(t, !spec && !strncmp(msg, prefix, strlen(prefix)) &&
			       strstr(msg, c->words),
		       "case %zu (%s): got \"%s\", want \"%s...%s\"", i, c->text,
		       spec ? "(parsed)" : msg, prefix, c->words);
		lego_ctx_free(ctx);
	}

	test_case(t, "define_errors");
	lego_ctx *ctx = lego_ctx_new();
	lego_define typo = {"MM", 4}, zero = {"M", 0};
	CHECK(t, parse_defs(ctx, "sym M", &typo, 1) == NULL);
	CHECKF(t, strstr(lego_ctx_error(ctx), "t.lego: error: -D MM") != NULL,
	       "%s", lego_ctx_error(ctx));
	CHECK(t, parse_defs(ctx, "let MM = 2", &typo, 1) == NULL);
	CHECK(t, parse_defs(ctx, "sym N,\n  M", &zero, 1) == NULL);
	CHECKF(t, !strncmp(lego_ctx_error(ctx), "t.lego:2:3: error: ", 19) &&
		       strstr(lego_ctx_error(ctx), "positive"),
	       "%s", lego_ctx_error(ctx));
	CHECK(t, lego_spec_load(ctx, "/nonexistent/x.lego", NULL, 0) == NULL);
	CHECKF(t, strstr(lego_ctx_error(ctx), "/nonexistent/x.lego: error: "
						"cannot read") != NULL,
	       "%s", lego_ctx_error(ctx));
	lego_ctx_free(ctx);
}

/* text = prefix, then `rep` copies of unit, then suffix. */
static char *repeat(const char *prefix, const char *unit, int rep,
		    const char *suffix)
{
	size_t n = strlen(prefix) + strlen(unit) * (size_t)rep + strlen(suffix);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	strcpy(s, prefix);
	for (int i = 0; i < rep; i++)
		strcat(s, unit);
	strcat(s, suffix);
	return s;
}

static void expect_error(lego_test *t, const char *text, const char *words)
{
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = text ? parse(ctx, text) : NULL;
	CHECKF(t, text && !spec && strstr(lego_ctx_error(ctx), words),
	       "want \"%s\", got \"%s\"", words, lego_ctx_error(ctx));
	lego_ctx_free(ctx);
}

static void test_limits(lego_test *t)
{
	test_case(t, "limits_deep_and_large_input");
	char *parens = repeat("let x = ", "(", 100000, "1");
	expect_error(t, parens, "nesting too deep");
	free(parens);
	char *minus = repeat("let x = ", "-", 100000, "1");
	expect_error(t, minus, "nesting too deep");
	free(minus);
	char *sum = repeat("let x = 1", " / 2", 1000, "");
	expect_error(t, sum, "nested too deeply");
	free(sum);
	/* Each let squares the tree: 2^30 nodes once unfolded. */
	expect_error(t,
		"sym a\nlet b1 = a * a + a\nlet b2 = b1 * b1 + b1\n"
		"let b3 = b2 * b2 + b2\nlet b4 = b3 * b3 + b3\n"
		"let b5 = b4 * b4 + b4\nlet b6 = b5 * b5 + b5\n"
		"let b7 = b6 * b6 + b6\nlet b8 = b7 * b7 + b7\n"
		"let b9 = b8 * b8 + b8\nlet b10 = b9 * b9 + b9\n"
		"let b11 = b10 * b10 + b10\nlet b12 = b11 * b11 + b11\n"
		"let b13 = b12 * b12 + b12\nlet b14 = b13 * b13 + b13\n",
		"too large");
	char *levels = repeat("layout L = OrderBy(Row(2)", ", Row(2)", 100, ")");
	expect_error(t, levels, "too many levels");
	free(levels);
	/* The empty input and comments only are valid, with no layouts. */
	lego_ctx *ctx = lego_ctx_new();
	lego_spec *spec = parse(ctx, "# nothing\n\n;\n");
	CHECK(t, spec && lego_spec_nlayouts(spec) == 0);
	CHECK(t, lego_spec_parse(ctx, NULL, "", 0, NULL, 0) != NULL);
	/* A NUL byte is a stray character, not the end of the text. */
	CHECK(t, lego_spec_parse(ctx, "n.lego", "sym a\0b", 7, NULL, 0) == NULL);
	CHECKF(t, strstr(lego_ctx_error(ctx), "n.lego:1:6: error: unexpected "
						"byte 0x00") != NULL,
	       "%s", lego_ctx_error(ctx));
	lego_ctx_free(ctx);
}

/* Expressions of A with M = 64 given and BM, K, BK symbolic (the facts
 * BM | 64 and BK | K), evaluated for every BM dividing 64, two BK and two
 * K, at every index, against the row-major formula by hand. */
static int check_partly_concrete(lego_ctx *ctx, lego_expr *apply,
				 lego_expr *const *inv, lego_expr *const *idx,
				 lego_expr *flat)
{
	const char *syms[] = {"BM", "K", "BK"};
	lego_env *env = lego_env_new(ctx);
	int bad = 0;
	for (int64_t bm = 1; bm <= 64; bm *= 2)
		for (int64_t bk = 1; bk <= 3; bk += 2)
			for (int64_t k = bk; k <= 2 * bk; k += bk) {
				const int64_t v[] = {bm, k, bk};
				for (int i = 0; i < 3; i++)
					lego_env_bind(env, lego_sym_find(ctx, syms[i]), v[i]);
				for (int64_t x = 0; x < 64 * k; x++) {
					/* x = (tm*BM + r)*K + tk*BK + c */
					int64_t want[4] = {x / (bm * k), x % k / bk,
							   x / k % bm, x % bk}, got;
					for (int d = 0; d < 4; d++)
						lego_env_bind(env, idx[d], want[d]);
					lego_env_bind(env, flat, x);
					bad += lego_expr_eval(ctx, apply, env, &got) ||
					       got != x;
					for (int d = 0; d < 4; d++)
						bad += lego_expr_eval(ctx, inv[d], env, &got) ||
						       got != want[d];
				}
			}
	lego_env_free(env);
	return bad;
}

static void test_partly_concrete(lego_test *t)
{
	test_case(t, "tileby_partly_concrete_sizes");
	lego_ctx *ctx = lego_ctx_new();
	const lego_define m = {"M", 64};
	lego_spec *spec = parse_defs(ctx,
		"sym M, K, BM, BK\n"
		"assume M % BM == 0 && K % BK == 0\n"
		"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n",
		&m, 1);
	CHECKF(t, spec, "%s", lego_ctx_error(ctx));
	lego_layout *a = spec ? lego_spec_layout(spec, "A") : NULL;
	if (a) {
		lego_expr *idx[4], *inv[4];
		for (int d = 0; d < 4; d++) {
			char nm[16];
			snprintf(nm, sizeof nm, "i%d", d);
			idx[d] = lego_index(ctx, nm, lego_const(ctx, 0),
					    lego_layout_dim(a, d));
		}
		lego_expr *flat = lego_index(ctx, "x", lego_const(ctx, 0),
					     lego_layout_size(ctx, a));
		lego_expr *apply = lego_simplify(ctx, lego_layout_apply(ctx, a, idx));
		CHECK_EQ(t, lego_layout_inv(ctx, a, flat, inv), LEGO_OK);
		for (int d = 0; d < 4; d++)
			inv[d] = lego_simplify(ctx, inv[d]);
		CHECKF(t, apply && inv[0] && inv[1] && inv[2] && inv[3], "%s",
		       lego_ctx_error(ctx));
		if (apply && inv[0] && inv[1] && inv[2] && inv[3])
			CHECK_EQ(t, check_partly_concrete(ctx, apply, inv, idx, flat), 0);
	}
	lego_ctx_free(ctx);
}

/* "Did you mean": distances counted by hand (insertions, deletions,
 * substitutions, swaps of neighbours; case ignored), the limit (n + 1) / 3
 * edits for a name of n characters, the closest candidate winning. */
static const char *suggest(const char *name, const char *const *cands,
			   size_t n, lego_suggest *s)
{
	lego_suggest_init(s, name);
	lego_suggest_add_all(s, cands, n);
	return lego_suggest_hint(s);
}

static void test_suggest(lego_test *t)
{
	static const char *const words[] = {"Row", "Col", "RegP", "GenP",
					    "check", "chunk", "size", "stride"};
	static const struct {
		const char *name, *hint;
	} cases[] = {
		{"Rwo", " (did you mean 'Row'?)"},     /* one swap */
		{"row", " (did you mean 'Row'?)"},     /* case only */
		{"Ro", " (did you mean 'Row'?)"},      /* one deletion, n = 2 */
		{"Rgp", " (did you mean 'RegP'?)"},  /* one insertion */
		{"Rxy", ""},                           /* Row: 2 edits, n = 3 */
		{"chek", " (did you mean 'check'?)"},  /* 1 edit; chunk is 3 */
		{"strides", " (did you mean 'stride'?)"},
		{"sise", " (did you mean 'size'?)"},
		{"R", ""},                             /* n = 1: no guess */
		{"Row", ""},                           /* known: no guess */
		{"zzzzz", ""},
	};
	lego_suggest s;
	test_case(t, "suggest_by_edit_distance");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = suggest(cases[i].name, words,
					  sizeof words / sizeof words[0], &s);
		CHECKF(t, !strcmp(got, cases[i].hint), "%s: got '%s', want '%s'",
		       cases[i].name, got, cases[i].hint);
	}
}

void suite_lang(lego_test *t)
{
	test_suggest(t);
	test_expressions(t);
	test_symbols(t);
	test_fig9(t);
	test_tileby(t);
	test_partly_concrete(t);
	test_chains_and_pieces(t);
	test_syntax_forms(t);
	test_errors(t);
	test_limits(t);
}
