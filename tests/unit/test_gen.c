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

/* The template expanded for target with the spec given as a block; the
 * caller frees.  NULL (message in *err) on error. */
static char *gen_for(const char *target, const char *spec, const char *body,
		     char *err, size_t cap)
{
	lego_ctx *ctx = lego_ctx_new();
	size_t n = strlen(spec) + strlen(body) + 64;
	char *text = malloc(n);
	snprintf(text, n, "{%% lego %%}\n%s{%% end %%}\n%s", spec, body);
	lego_gen_opts o = {target, NULL, NULL, 0, NULL};
	char *out = lego_gen(ctx, "t.tpl", text, strlen(text), &o);
	snprintf(err, cap, "%s", lego_ctx_error(ctx));
	free(text);
	lego_ctx_free(ctx);
	return out;
}

static char *gen(const char *spec, const char *body, char *err, size_t cap)
{
	return gen_for("triton", spec, body, err, cap);
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

	/* Two lines that cannot share (the second is an if) each with shared
	 * work: C would reject a second definition of the same temporary. */
	test_case(t, "temporaries of different lines have different names");
	out = gen("sym M, N\nlayout X = Col(M, N)\n",
		  "a = {{ X[r, :] }} + {{ X[r, :] }}\n"
		  "if c: b = {{ X[r, :] }} + {{ X[r, :] }}\n", err, sizeof err);
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

/* Issue 12: a division that a select guards, shared by two selects, was
 * computed in a temporary ahead of both (SIGFPE at k = 0).  Values are
 * checked by running the code in tests/gen_c/total.py; here, where the
 * division may stand. */
static void test_guards(lego_test *t)
{
	static const char spec[] = "index k in [-4, 4)\nindex m in [0, 6)\n";
	static const char guarded[] = "return {{ select(k != 0, 100 / k, 0) + "
				      "select(k > 0, 100 / k, 7) }};\n";
	char err[2048];
	test_case(t, "C: a guarded division is not hoisted out of its guard");
	char *out = gen_for("c", spec, guarded, err, sizeof err);
	CHECKF(t, out && !strstr(out, "const ") &&
		  !strncmp(out, "return ((0 != k ? (100 / k", 26),
	       "%s", out ? out : err);
	free(out);

	test_case(t, "C: nor when the template's text guards it");
	out = gen_for("c", spec, "return k ? {{ 100 / k }} + {{ 100 / k + m }} "
		      ": 0;\n", err, sizeof err);
	CHECKF(t, out && !strstr(out, "const "), "%s", out ? out : err);
	free(out);

	test_case(t, "C: a division proved safe is still shared");
	out = gen_for("c", spec, "return {{ select(k != 0, 100 / (m + 1), 0) + "
		      "select(k > 0, 100 / (m + 1), 7) }};\n", err, sizeof err);
	CHECKF(t, out && !strncmp(out, "const int t5_0 = 100 / (m + 1);", 31),
	       "%s", out ? out : err);
	free(out);

	test_case(t, "Triton: tl.where computes both arms: the divisor is "
		     "made non-zero");
	out = gen(spec, guarded, err, sizeof err);
	CHECKF(t, out && strstr(out, "100 // tl.where(0 == k, 1, k)") &&
		  !strstr(out, "// k"), "%s", out ? out : err);
	free(out);

	test_case(t, "Triton: shift amounts and MLIR isqrt arguments too");
	out = gen(spec, "x = {{ select(k >= 0, m << k, 0) }}\n", err,
		  sizeof err);
	CHECKF(t, out && strstr(out, "m << tl.where(") &&
		  strstr(out, " & (k < 32), k, 0)"),
	       "%s", out ? out : err);
	free(out);
	out = gen_for("mlir", spec, "%x = {{ select(k >= 0, isqrt(k), 0) }}\n",
		      err, sizeof err);
	CHECKF(t, out && strstr(out, "arith.maxsi"), "%s", out ? out : err);
	free(out);
}

/* Issue 12: symbols named like a keyword of the target gave code that
 * does not compile, with exit 0.  The expected messages name the clash
 * and point at the placeholder (line 5: after a 3-line spec block). */
static void test_names(lego_test *t)
{
	static const struct {
		const char *target, *name, *why;
	} cases[] = {
		{"c", "for", "a keyword of C"},
		{"c", "int", "a keyword of C"},
		{"c", "bool", "a keyword of C"},
		{"cuda", "class", "a keyword or built-in of CUDA C++"},
		{"cuda", "threadIdx", "a keyword or built-in of CUDA C++"},
		{"opencl", "kernel", "a keyword or type of OpenCL C"},
		{"opencl", "uint4", "a keyword or type of OpenCL C"},
		{"triton", "lambda", "a keyword of Python"},
		{"triton", "tl", "a keyword of Python or a module"},
	};
	char err[2048], spec[128], want[256];
	test_case(t, "a symbol named like a keyword of the target is an error "
		     "at the placeholder");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(spec, sizeof spec, "sym %s\nlayout X = Row(4, %s)\n",
			 cases[i].name, cases[i].name);
		char *out = gen_for(cases[i].target, spec,
				    "x = 1 + {{ X[1, 2] }};\n", err, sizeof err);
		snprintf(want, sizeof want, "t.tpl:5:9: error: the name '%s' is "
			 "%s", cases[i].name, cases[i].why);
		CHECKF(t, !out && !strncmp(err, want, strlen(want)),
		       "%s %s: %s", cases[i].target, cases[i].name,
		       out ? out : err);
		free(out);
	}

	test_case(t, "a keyword of one target is a name in another");
	char *out = gen_for("c", "sym lambda\nlayout X = Row(4, lambda)\n",
			    "x = {{ X[1, 2] }};\n", err, sizeof err);
	CHECKF(t, out && strstr(out, "x = lambda + 2;"), "%s", out ? out : err);
	free(out);

	test_case(t, "generated names are reserved: lego_ names, temporaries");
	out = gen_for("c", "sym M\nlayout X = Row(M)\n",
		      "x = {{ X[lego_i] }};\n", err,
		      sizeof err);
	CHECKF(t, !out && strstr(err, "t.tpl:5:5: error: the name 'lego_i' is "
			       "reserved"), "%s", out ? out : err);
	free(out);
	out = gen_for("c", "sym lego_x\n", "x = 1;\n", err, sizeof err);
	CHECKF(t, !out && strstr(err, "t.tpl:2:5: error: 'lego_x': names "
			       "starting with 'lego_' are reserved"),
	       "%s", out ? out : err);
	free(out);
}

/* Issue 21: a subexpression shared by the placeholders of several lines
 * of one straight block is computed once, before the first of them; not
 * when a line between may skip it, change its inputs or leave the block.
 * (tests/gen_c/total.py runs such lines.) */
static void test_across_lines(lego_test *t)
{
	static const char spec[] = "sym N\nlayout X = Row(N, N)\n"
				   "index i in [0, N)\nindex j in [0, N)\n";
	char err[2048];
	test_case(t, "C: a subexpression of two lines is computed once");
	char *out = gen_for("c", spec, "\ta = {{ X[i, j] + 1 }};\n\n"
				       "\tb = {{ 2 * X[i, j] }};\n",
			    err, sizeof err);
	/* X[i, j] + 1 is flattened to j + N * i + 1: N * i is shared. */
	CHECKF(t, out && count(out, "N * i") == 1 &&
		  !strncmp(out, "\tconst long long t7_0 = (long long)N * i;\n"
				"\ta = ", 47) &&
		  count(out, "t7_0") == 3, "%s", out ? out : err);
	free(out);

	static const char *const apart[] = {
		"\ta = {{ X[i, j] + 1 }};\n\ti++;\n\tb = {{ 2 * X[i, j] }};\n",
		"\ta = {{ X[i, j] + 1 }}; i++;\n\tb = {{ 2 * X[i, j] }};\n",
		"\ta = {{ X[i, j] + 1 }};\n\tif (c)\n\tb = {{ 2 * X[i, j] }};\n",
		"\ta = {{ X[i, j] + 1 }};\n\t\tb = {{ 2 * X[i, j] }};\n",
		"\ta = {{ X[i, j] + 1 }};\n\t}\n\tb = {{ 2 * X[i, j] }};\n",
		"\ta = {{ X[i, j] + 1 }};\n\tb = f(&i) + {{ 2 * X[i, j] }};\n",
		"\tif (c) a = {{ X[i, j] + 1 }};\n\tb = {{ 2 * X[i, j] }};\n",
	};
	test_case(t, "C: not across a line that may change, skip or leave it");
	for (size_t k = 0; k < sizeof apart / sizeof apart[0]; k++) {
		out = gen_for("c", spec, apart[k], err, sizeof err);
		CHECKF(t, out && count(out, "N * i") == 2, "%s", out ? out : err);
		free(out);
	}

	test_case(t, "Triton: across lines of one block, not out of a loop");
	out = gen(spec, "a = {{ X[i, j] }}\nb = {{ X[i, j] }} + 1\n"
			"for k in range(4):\n    c = {{ X[i, j] }}\n",
		  err, sizeof err);
	CHECKF(t, out && count(out, "N * i") == 2 &&
		  strstr(out, "t7_0 = j + N * i\na = t7_0\nb = t7_0 + 1\n"),
	       "%s", out ? out : err);
	free(out);
}

void suite_gen(lego_test *t)
{
	test_across_lines(t);
	test_names(t);
	test_guards(t);
	test_concrete_values(t);
	test_grouped_pids(t);
	test_shared_and_slices(t);
	test_errors(t);
	test_splice(t);
}
