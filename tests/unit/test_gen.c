/* test_gen.c - templates: placeholders replaced by index expressions
 * (checked against formulas written here: the tiled row-major offset and
 * the Triton tutorial's grouped program ids), shared subexpressions,
 * Triton slices, the spec block, and error positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

static const char tiled_spec[] =
	"sym M, K, BM, BK\n"
	"assume M % BM == 0 && K % BK == 0\n"
	"layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n"
	"sym npm, npn, GM\n"
	"assume npm % GM == 0\n"
	"layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), npn))"
	".TileBy([npm, npn])\n";

/* The template expanded for Triton with the spec given as a block; the
 * caller frees.  NULL (message in *err) on error. */
static char *gen(const char *spec, const char *body, char *err, size_t cap)
{
	lego_ctx *ctx = lego_ctx_new();
	size_t n = strlen(spec) + strlen(body) + 64;
	char *text = malloc(n);
	snprintf(text, n, "{%% lego %%}\n%s{%% end %%}\n%s", spec, body);
	lego_gen_opts o = {"triton", NULL, NULL, 0, NULL};
	char *out = lego_gen(ctx, "t.tpl", text, strlen(text), &o);
	snprintf(err, cap, "%s", lego_ctx_error(ctx));
	free(text);
	lego_ctx_free(ctx);
	return out;
}

/* The integer a placeholder over constants expands to, or -1. */
static long long gen_value(lego_test *t, const char *spec, const char *ph)
{
	char err[2048], body[256];
	snprintf(body, sizeof body, "{{ %s }}", ph);
	char *out = gen(spec, body, err, sizeof err);
	CHECKF(t, out, "%s: %s", ph, err);
	char *end = NULL;
	long long v = out ? strtoll(out, &end, 10) : -1;
	if (out && (end == out || *end))
		v = -1;
	free(out);
	return v;
}

static void test_concrete_values(lego_test *t)
{
	test_case(t, "A[a, b, c, d] == (a*BM + c)*K + b*BK + d, every index");
	char spec[1024];
	snprintf(spec, sizeof spec, "let M = 4\nlet K = 6\nlet BM = 2\nlet BK = 3\n"
		 "layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])\n");
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 2; c++)
				for (int d = 0; d < 3; d++) {
					char ph[64];
					snprintf(ph, sizeof ph, "A[%d, %d, %d, %d]", a, b, c, d);
					CHECK_EQ(t, gen_value(t, spec, ph),
						 (a * 2 + c) * 6 + b * 3 + d);
				}
}

static void test_grouped_pids(lego_test *t)
{
	test_case(t, "P.inv(pid) == the Triton tutorial's grouped ordering");
	const int npm = 6, npn = 4, gm = 3;
	char spec[512];
	snprintf(spec, sizeof spec, "let npm = %d\nlet npn = %d\nlet GM = %d\n"
		 "layout P = OrderBy(Col(max(npm/GM, 1), 1), Col(min(npm, GM), "
		 "npn)).TileBy([npm, npn])\n", npm, npn, gm);
	for (int pid = 0; pid < npm * npn; pid++) {
		int in_group = gm * npn, group = pid / in_group;
		int first = group * gm;
		int size = npm - first < gm ? npm - first : gm;
		int pm = first + (pid % in_group) % size;
		int pn = (pid % in_group) / size;
		char ph[64];
		snprintf(ph, sizeof ph, "P.inv(%d)[0]", pid);
		CHECK_EQ(t, gen_value(t, spec, ph), pm);
		snprintf(ph, sizeof ph, "P.inv(%d)[1] * 100 + P.size", pid);
		CHECK_EQ(t, gen_value(t, spec, ph), pn * 100 + npm * npn);
	}
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_shared_and_slices(lego_test *t)
{
	test_case(t, "equal references on a line share one temporary");
	char err[2048];
	char *out = gen("sym M, N\nlayout X = Col(M, N)\n",
			"if c:\n    v = f({{ X[r, :] }}) + {{ X[r, :] }}\n", err,
			sizeof err);
	CHECKF(t, out, "%s", err);
	if (out) {
		/* Line 6 of the template: 4 lines of spec block, then the body. */
		CHECKF(t, !strncmp(out, "if c:\n    t6_0 = ", 17), "%s", out);
		CHECKF(t, strstr(out, "\n    v = f(t6_0) + t6_0\n"), "%s", out);
		CHECK_EQ(t, count(out, "tl.arange(0, N)"), 1);
	}
	free(out);

	test_case(t, "slices broadcast one axis each; s:e narrows");
	out = gen(tiled_spec, "x = {{ A[i, k, :, 1:BK] }}\n", err, sizeof err);
	CHECKF(t, out, "%s", err);
	if (out) {
		CHECKF(t, strstr(out, "tl.arange(0, BM)[:, None]"), "%s", out);
		CHECKF(t, strstr(out, "tl.arange(1, BK)[None, :]"), "%s", out);
	}
	free(out);

	test_case(t, "temporaries avoid the template's names");
	out = gen("sym M, N\nlayout X = Col(M, N)\n",
		  "t2_0 = 1\nv = {{ X[r, :] }} + {{ X[r, :] }}\n", err,
		  sizeof err);
	CHECKF(t, out && strstr(out, "tmp6_0 = ") && !strstr(out, "t6_0 = M"),
	       "%s", out ? out : err);
	free(out);

	/* Two lines of one block each with shared work: C would reject a
	 * second definition of the same temporary. */
	test_case(t, "temporaries of different lines have different names");
	out = gen("sym M, N\nlayout X = Col(M, N)\n",
		  "a = {{ X[r, :] }} + {{ X[r, :] }}\n"
		  "b = {{ X[r, :] }} + {{ X[r, :] }}\n", err, sizeof err);
	CHECKF(t, out && strstr(out, "t5_0 = ") && strstr(out, "t6_0 = "),
	       "%s", out ? out : err);
	free(out);
}

static void check_error(lego_test *t, const char *body, const char *want)
{
	char err[2048];
	char *out = gen(tiled_spec, body, err, sizeof err);
	CHECKF(t, !out, "no error for %s", body);
	CHECKF(t, !strncmp(err, want, strlen(want)), "got '%s', want '%s'", err,
	       want);
	free(out);
}

static void test_errors(lego_test *t)
{
	/* The spec block takes lines 1..8 of the template. */
	test_case(t, "errors point into the template");
	check_error(t, "x\ny = {{ Q[0] }}\n", "t.tpl:10:8: error: unknown name 'Q'");
	check_error(t, "y = {{ A[0, 0, 0] }}\n",
		    "t.tpl:9:17: error: layout 'A' has rank 4");
	check_error(t, "y = {{ A[0, 0, 0, 0] }} {{ M\n",
		    "t.tpl:9:25: error: unterminated placeholder");
	check_error(t, "y = {{ }}\n", "t.tpl:9:8: error: empty placeholder");
	check_error(t, "y = {{ A.size }} + {{ isqrt(M) }}\n",
		    "t.tpl:9:20: error: Triton: isqrt");
	check_error(t, "y = {{ i + 1 }}\n", "t.tpl:9:8: error: unknown name 'i'");
	check_error(t, "y = {{ A[i, k, i, 0] }}\n",
		    "t.tpl:9:16: error: symbol 'i' is already declared");
}

/* The value of `body` (one line, one placeholder of A = Row(M, N) at
 * (i, j): "j + N * i") as it lands in the line. */
static void spliced(lego_test *t, const char *body, const char *want)
{
	char err[2048];
	char *out = gen("sym M, N\nlayout A = Row(M, N)\n", body, err,
			sizeof err);
	CHECKF(t, out && !strcmp(out, want), "%s: got '%s', want '%s'", body,
	       out ? out : err, want);
	free(out);
}

/* A value keeps its meaning where it stands: parentheses unless it fills
 * a whole slot or is one token. */
static void test_splice(lego_test *t)
{
	test_case(t, "values are parenthesised where an operator binds them");
	spliced(t, "x = 2 * {{ A[i, j] }}\n", "x = 2 * (j + N * i)\n");
	spliced(t, "x = {{ A[i, j] }} * 2\n", "x = (j + N * i) * 2\n");
	spliced(t, "x = p - {{ A[i, j] }}\n", "x = p - (j + N * i)\n");
	spliced(t, "ok = x == {{ A[i, j] }}\n", "ok = x == (j + N * i)\n");
	spliced(t, "x = {{ A[i, j] }}\n", "x = j + N * i\n");
	spliced(t, "x += {{ A[i, j] }}\n", "x += j + N * i\n");
	spliced(t, "f({{ A[i, j] }}, y[{{ A[0, j] }}])\n",
		"f(j + N * i, y[j])\n");
	spliced(t, "f(k={{ A[i, j] }})\n", "f(k=j + N * i)\n");
	spliced(t, "x = 3 * {{ A[0, j] }}\n", "x = 3 * j\n");
	spliced(t, "x = 3 * {{ A.size }}\n", "x = 3 * (M * N)\n");

	test_case(t, "Triton: scalar factors distributed over tensor sums");
	char err[2048];
	/* Row-major B tile at (k, pid_n): N * (arange + BK * k) would multiply
	 * a tensor by a loop-variant sum in every iteration. */
	char *out = gen(tiled_spec, "b = {{ A[k, j, :, :] }}\n", err, sizeof err);
	CHECKF(t, out, "%s", err);
	if (out) {
		CHECKF(t, strstr(out, "K * tl.arange(0, BM)[:, None]") &&
			  !strstr(out, "K * (tl.arange"), "%s", out);
		CHECKF(t, strstr(out, "BM * K * k"), "%s", out);
	}
	free(out);
}

void suite_gen(lego_test *t)
{
	test_concrete_values(t);
	test_grouped_pids(t);
	test_shared_and_slices(t);
	test_errors(t);
	test_splice(t);
}
