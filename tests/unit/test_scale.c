/* test_scale.c - inputs whose size once blew up (issue 12): deep shared
 * DAGs, their tree sizes and printing, and specs with many names.
 * Expected values come from arithmetic identities (2*(x/2) + x%2 == x for
 * x >= 0), naive recursive counts over the tree, or the text written. */
#include <stdlib.h>
#include <string.h>

#include "expr/memo.h"
#include "harness.h"
#include "lego.h"

/* e_0 = x; e_{k+1} = 2 * (e_k / 2) + e_k % 2: equal to x at every level,
 * nested k deep, each level using its argument twice. */
static lego_expr *identity_chain(lego_ctx *ctx, lego_expr *x, int k)
{
	lego_expr *e = x, *two = lego_const(ctx, 2);
	for (int i = 0; i < k && e; i++)
		e = lego_add(ctx, lego_mul(ctx, two, lego_div(ctx, e, two)),
			     lego_mod(ctx, e, two));
	return e;
}

/* e_{k+1} = e_k / 3 + e_k % 5: nothing simplifies, the tree doubles. */
static lego_expr *doubling_chain(lego_ctx *ctx, lego_expr *x, int k)
{
	lego_expr *e = x;
	for (int i = 0; i < k && e; i++)
		e = lego_add(ctx, lego_div(ctx, e, lego_const(ctx, 3)),
			     lego_mod(ctx, e, lego_const(ctx, 5)));
	return e;
}

/* The tree size by plain recursion: exponential, for small k only. */
static size_t naive_tree_size(const lego_expr *e)
{
	size_t n = 1;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		n += naive_tree_size(lego_expr_arg(e, i));
	return n;
}

static void deep_chains(lego_test *t)
{
	test_case(t, "a 400-deep chain of 2*(x/2) + x%2 simplifies to x");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_index(ctx, "x", lego_const(ctx, 0),
				  lego_const(ctx, 1 << 20));
	lego_expr *e = identity_chain(ctx, x, 400);
	CHECK(t, e && lego_simplify(ctx, e) == x);
	lego_env *env = lego_env_new(ctx);
	for (int64_t v = 0; v < (1 << 20); v += 99991) {
		int64_t got = -1;
		lego_env_bind(env, x, v);
		CHECK(t, lego_expr_eval(ctx, e, env, &got) == LEGO_OK &&
			     got == v);
	}
	lego_env_free(env);

	test_case(t, "tree sizes computed on the DAG agree with recursion");
	for (int k = 0; k < 12; k++) {
		lego_expr *d = doubling_chain(ctx, x, k);
		CHECK_EQ(t, lego_expr_tree_size(d, SIZE_MAX, NULL, NULL),
			 naive_tree_size(d));
	}
	lego_expr *big = doubling_chain(ctx, x, 80);
	CHECK_EQ(t, lego_expr_tree_size(big, 1000, NULL, NULL), 1000);
	CHECK_EQ(t, lego_expr_tree_size(big, SIZE_MAX, NULL, NULL), SIZE_MAX);

	test_case(t, "topological order: each node once, after its arguments");
	lego_expr *d = doubling_chain(ctx, x, 6);
	lego_expr **order = NULL;
	size_t n = 0;
	CHECK(t, lego_expr_topo(d, NULL, NULL, &order, &n) == LEGO_OK);
	/* 6 levels of 5 new inner nodes (/, %, + and the constants are
	 * leaves): ADD, DIV, MOD per level. */
	CHECK_EQ(t, n, 3 * 6);
	CHECK(t, n && order[n - 1] == d);
	for (size_t i = 0; i < n; i++)
		for (size_t a = 0; a < lego_expr_nargs(order[i]); a++) {
			lego_expr *arg = lego_expr_arg(order[i], a);
			size_t j = 0;
			while (j < n && order[j] != arg)
				j++;
			CHECK(t, lego_expr_nargs(arg) == 0 || j < i);
		}
	free(order);

	test_case(t, "a huge tree is refused inline, printed with temporaries");
	char *s = lego_expr_print(ctx, big, LEGO_LANG_C);
	CHECK(t, s == NULL);
	CHECK(t, strstr(lego_ctx_error(ctx), "temporaries") != NULL);
	const char *name = "r";
	s = lego_exprs_print(ctx, 1, &big, &name, "t", LEGO_LANG_PYTHON);
	/* One temporary per level, each line short. */
	CHECK(t, s && strlen(s) < 80 * 100);
	free(s);
	lego_ctx_free(ctx);
}

/* "sym s0\nsym s1\n..." then extra. */
static char *many_syms(size_t n, const char *extra, size_t *len)
{
	size_t cap = n * 16 + strlen(extra) + 1, used = 0;
	char *text = malloc(cap);
	for (size_t i = 0; text && i < n; i++)
		used += (size_t)snprintf(text + used, cap - used, "sym s%zu\n", i);
	if (text)
		used += (size_t)snprintf(text + used, cap - used, "%s", extra);
	*len = used;
	return text;
}

static void many_names(lego_test *t)
{
	test_case(t, "5000 names: each found, a redeclaration located");
	lego_ctx *ctx = lego_ctx_new();
	size_t len;
	char *text = many_syms(5000, "let l = s4321 + s7\nsym s1234\n", &len);
	CHECK(t, lego_spec_parse(ctx, "m.lego", text, len, NULL, 0) == NULL);
	CHECK(t, strstr(lego_ctx_error(ctx), "m.lego:5002:5: error: "
			"redeclaration of 's1234' (first declared at "
			"1235:5)") != NULL);
	free(text);
	lego_ctx_free(ctx);

	test_case(t, "-D among many: the last of a name wins, unknown refused");
	ctx = lego_ctx_new();
	text = many_syms(3000, "let l = s2999 * 10 + s17\n", &len);
	lego_define defs[] = {{"s17", 5}, {"s2999", 9}, {"s17", 3}};
	lego_spec *spec = lego_spec_parse(ctx, "m.lego", text, len, defs, 3);
	int64_t v = 0;
	CHECK(t, spec && lego_expr_is_const(lego_spec_let(spec, "l"), &v) &&
		     v == 93);
	lego_define unknown[] = {{"s17", 5}, {"s3000", 1}};
	CHECK(t, !lego_spec_parse(ctx, "m.lego", text, len, unknown, 2));
	CHECK(t, strstr(lego_ctx_error(ctx), "-D s3000: no sym") != NULL);
	free(text);
	lego_ctx_free(ctx);
}

void suite_scale(lego_test *t)
{
	deep_chains(t);
	many_names(t);
}
