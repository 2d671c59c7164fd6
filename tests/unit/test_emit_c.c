/* test_emit_c.c - the printer's dialects (C, CUDA, OpenCL, Python,
 * Triton) on hand-checked expressions, the exactness of Triton's division
 * forms under both integer semantics, and printed C compiled by the system
 * C compiler and run against lego_expr_eval on random expressions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expr/print.h"
#include "expr/sbuf.h"
#include "harness.h"

/* The text of e in dialect d matches want; frees it. */
static void spelled(lego_test *t, lego_ctx *ctx, lego_expr *e,
		    lego_dialect d, const char *want)
{
	char *s = lego_print_dialect(ctx, e, d);
	CHECKF(t, s && !strcmp(s, want), "dialect %d: got '%s', want '%s'",
	       (int)d, s ? s : "(null)", want);
	free(s);
}

static void test_spellings(lego_test *t)
{
	test_case(t, "dialect spellings");
	lego_ctx *ctx = lego_ctx_new();
	/* a, b of unknown sign; x >= 1.  Constructors put constants first
	 * in comparisons (4 == a). */
	lego_expr *a = lego_index(ctx, "a", lego_const(ctx, -9), lego_const(ctx, 9));
	lego_expr *b = lego_index(ctx, "b", lego_const(ctx, -9), lego_const(ctx, 9));
	lego_expr *x = lego_sym(ctx, "x");
	lego_expr *c4 = lego_const(ctx, 4);
	lego_expr *mn = lego_min(ctx, a, b);
	spelled(t, ctx, mn, LEGO_DIALECT_C, "(a < b ? a : b)");
	spelled(t, ctx, mn, LEGO_DIALECT_PYTHON, "min(a, b)");
	spelled(t, ctx, mn, LEGO_DIALECT_TRITON, "tl.minimum(a, b)");
	spelled(t, ctx, lego_max(ctx, a, b), LEGO_DIALECT_TRITON,
		"tl.maximum(a, b)");
	lego_expr *q = lego_div(ctx, x, c4);
	spelled(t, ctx, q, LEGO_DIALECT_C, "x / 4");
	spelled(t, ctx, q, LEGO_DIALECT_TRITON, "x // 4");
	q = lego_div(ctx, a, c4);
	spelled(t, ctx, q, LEGO_DIALECT_C, "(a / 4 - (a % 4 < 0))");
	spelled(t, ctx, q, LEGO_DIALECT_PYTHON, "a // 4");
	spelled(t, ctx, q, LEGO_DIALECT_TRITON, "(a // 4 - (a % 4 < 0))");
	spelled(t, ctx, lego_mod(ctx, a, c4), LEGO_DIALECT_TRITON,
		"(a % 4 + (a % 4 < 0) * 4)");
	spelled(t, ctx, lego_div(ctx, a, b), LEGO_DIALECT_TRITON,
		"(a // b - ((a % b != 0) & ((a % b < 0) != (b < 0))))");
	spelled(t, ctx, lego_mod(ctx, a, b), LEGO_DIALECT_TRITON,
		"(a % b + ((a % b != 0) & ((a % b < 0) != (b < 0))) * b)");
	/* Signs the prover knows fold the test: no comparison of a known
	 * sign is left (pos >= 0, neg < 0). */
	lego_expr *pos = lego_index(ctx, "pos", lego_const(ctx, 0),
				    lego_const(ctx, 9));
	lego_expr *neg = lego_index(ctx, "neg", lego_const(ctx, -9),
				    lego_const(ctx, 0));
	spelled(t, ctx, lego_div(ctx, a, neg), LEGO_DIALECT_C,
		"(a / neg - (a % neg > 0))");
	spelled(t, ctx, lego_mod(ctx, a, neg), LEGO_DIALECT_TRITON,
		"(a % neg + (a % neg > 0) * neg)");
	spelled(t, ctx, lego_div(ctx, pos, b), LEGO_DIALECT_C,
		"(pos / b - (pos % b > 0 && b < 0))");
	spelled(t, ctx, lego_div(ctx, neg, b), LEGO_DIALECT_TRITON,
		"(neg // b - ((neg % b < 0) & (b > 0)))");
	spelled(t, ctx, lego_div(ctx, lego_const(ctx, 100), b), LEGO_DIALECT_C,
		"(100 / b - (100 % b > 0 && b < 0))");
	spelled(t, ctx, lego_div(ctx, neg, neg), LEGO_DIALECT_C, "neg / neg");
	spelled(t, ctx, lego_div(ctx, lego_sub(ctx, lego_const(ctx, 0), pos),
				 neg),
		LEGO_DIALECT_C, "-pos / neg");
	lego_expr *lt = lego_binop(ctx, LEGO_LT, a, b);
	lego_expr *eq = lego_binop(ctx, LEGO_EQ, a, c4);
	lego_expr *both = lego_binop(ctx, LEGO_AND, lt, eq);
	spelled(t, ctx, both, LEGO_DIALECT_C, "a < b && 4 == a");
	spelled(t, ctx, both, LEGO_DIALECT_PYTHON, "a < b and 4 == a");
	spelled(t, ctx, both, LEGO_DIALECT_TRITON, "(a < b) & (4 == a)");
	spelled(t, ctx, lego_select(ctx, eq, x, b), LEGO_DIALECT_TRITON,
		"tl.where(4 == a, x, b)");
	spelled(t, ctx, lego_select(ctx, eq, x, b), LEGO_DIALECT_C,
		"(4 == a ? x : b)");
	lego_expr *r = lego_isqrt(ctx, x);
	spelled(t, ctx, r, LEGO_DIALECT_CUDA, "lego_isqrt(x)");
	spelled(t, ctx, r, LEGO_DIALECT_PYTHON, "math.isqrt(x)");
	CHECK(t, !lego_dialect_supports(LEGO_DIALECT_TRITON, r));
	CHECK(t, lego_dialect_supports(LEGO_DIALECT_OPENCL, r));
	CHECK(t, lego_dialect_supports(LEGO_DIALECT_TRITON, both));
	lego_expr *m = lego_const(ctx, INT64_MIN);
	spelled(t, ctx, m, LEGO_DIALECT_C, "(-9223372036854775807LL - 1)");
	spelled(t, ctx, m, LEGO_DIALECT_OPENCL, "(-9223372036854775807L - 1)");
	CHECK(t, strstr(lego_dialect_helpers(LEGO_DIALECT_OPENCL),
			"static inline long lego_isqrt(long x)"));
	CHECK(t, strstr(lego_dialect_helpers(LEGO_DIALECT_CUDA),
			"__host__ __device__"));
	CHECK(t, !strcmp(lego_dialect_helpers(LEGO_DIALECT_TRITON), ""));
	/* The public printer reaches every dialect, and refuses what one
	 * cannot spell instead of printing a name Triton lacks. */
	char *s = lego_expr_print(ctx, mn, LEGO_LANG_TRITON);
	CHECK(t, s && !strcmp(s, "tl.minimum(a, b)"));
	free(s);
	s = lego_expr_print(ctx, lego_const(ctx, INT64_MIN), LEGO_LANG_OPENCL);
	CHECK(t, s && !strcmp(s, "(-9223372036854775807L - 1)"));
	free(s);
	s = lego_expr_print(ctx, r, LEGO_LANG_CUDA);
	CHECK(t, s && !strcmp(s, "lego_isqrt(x)"));
	free(s);
	CHECK(t, !lego_expr_print(ctx, r, LEGO_LANG_TRITON));
	CHECK(t, strstr(lego_ctx_error(ctx), "isqrt"));
	lego_ctx_free(ctx);
}

/* Shared temporaries typed per dialect, indented, values apart. */
static void test_shared(lego_test *t)
{
	test_case(t, "shared temporaries per dialect");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_index(ctx, "a", lego_const(ctx, 0), lego_const(ctx, 9));
	lego_expr *b = lego_index(ctx, "b", lego_const(ctx, 0), lego_const(ctx, 9));
	lego_expr *s = lego_add(ctx, a, lego_mul(ctx, lego_const(ctx, 3), b));
	lego_expr *es[2] = {lego_div(ctx, s, lego_const(ctx, 5)),
			    lego_mod(ctx, s, lego_const(ctx, 5))};
	static const struct {
		lego_dialect d;
		const char *pre;
	} cases[] = {
		/* 0 <= a + 3b <= 32: 32-bit temporaries. */
		{LEGO_DIALECT_C, "  const int t0 = a + 3 * b;\n"},
		{LEGO_DIALECT_CUDA, "  const int t0 = a + 3 * b;\n"},
		{LEGO_DIALECT_OPENCL, "  const int t0 = a + 3 * b;\n"},
		{LEGO_DIALECT_TRITON, "  t0 = a + 3 * b\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *pre = NULL, *v[2] = {NULL, NULL};
		int rc = lego_print_shared(ctx, 2, es, "t", "  ", cases[i].d,
					   &pre, v);
		CHECK_EQ(t, rc, LEGO_OK);
		CHECKF(t, pre && !strcmp(pre, cases[i].pre), "prelude '%s'",
		       pre ? pre : "(null)");
		const char *div = cases[i].d == LEGO_DIALECT_TRITON ? "t0 // 5"
								    : "t0 / 5";
		CHECKF(t, v[0] && !strcmp(v[0], div), "value '%s'", v[0]);
		CHECKF(t, v[1] && !strcmp(v[1], "t0 % 5"), "value '%s'", v[1]);
		free(pre), free(v[0]), free(v[1]);
	}
	/* A size left symbolic has no bound: 64-bit. */
	lego_expr *n = lego_sym(ctx, "n");
	lego_expr *big[2] = {lego_div(ctx, lego_mul(ctx, s, n), lego_const(ctx, 5)),
			     lego_mod(ctx, lego_mul(ctx, s, n), lego_const(ctx, 5))};
	char *pre = NULL, *v[2] = {NULL, NULL};
	CHECK_EQ(t, lego_print_shared(ctx, 2, big, "t", "", LEGO_DIALECT_C,
				      &pre, v), LEGO_OK);
	CHECKF(t, pre && !strncmp(pre, "const long long t0 = ", 21),
	       "prelude '%s'", pre ? pre : "(null)");
	free(pre), free(v[0]), free(v[1]);
	lego_ctx_free(ctx);
}

/* The 32-bit decision at its edge: i, j < 2^15 give i * 2^15 + j <= 2^30 - 1,
 * the largest bound allowed; one more and it is refused. */
static void test_width_edge(lego_test *t)
{
	test_case(t, "32-bit width: the edge and symbolic sizes");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = lego_index(ctx, "i", lego_const(ctx, 0), lego_const(ctx, 32768));
	lego_expr *j = lego_index(ctx, "j", lego_const(ctx, 0), lego_const(ctx, 32768));
	lego_expr *flat = lego_add(ctx, lego_mul(ctx, i, lego_const(ctx, 32768)), j);
	lego_expr *one_more = lego_add(ctx, flat, lego_const(ctx, 1));
	lego_expr *neg = lego_sub(ctx, lego_neg(ctx, flat), lego_const(ctx, 1));
	CHECK(t, lego_exprs_fit_int32(1, &flat));
	CHECK(t, !lego_exprs_fit_int32(1, &one_more));
	CHECK(t, !lego_exprs_fit_int32(1, &neg));
	/* A partial sum may exceed the total: i * 2^15 + i * 2^15 - i * 2^15
	 * is refused although its value fits (terms are bounded separately). */
	lego_expr *k = lego_index(ctx, "k", lego_const(ctx, 0), lego_const(ctx, 65536));
	lego_expr *wide = lego_sub(ctx, lego_mul(ctx, k, lego_const(ctx, 16384)),
				   lego_mul(ctx, i, lego_const(ctx, 32768)));
	CHECK(t, !lego_exprs_fit_int32(1, &wide));
	lego_expr *m = lego_sym(ctx, "m");
	lego_expr *sym = lego_add(ctx, i, m);
	CHECK(t, !lego_exprs_fit_int32(1, &sym));
	lego_ctx_free(ctx);

	/* i * 2^47 + j over i, j < 2^15 stays below 2^62: 2^62 - 1 exactly at
	 * the top (2^15 - 1) * 2^47 + 2^47 - 1; one more passes. */
	test_case(t, "64-bit width: the edge at 2^62, symbolic sizes unknown");
	ctx = lego_ctx_new();
	i = lego_index(ctx, "i", lego_const(ctx, 0), lego_const(ctx, 32768));
	j = lego_index(ctx, "j", lego_const(ctx, 0),
		       lego_const(ctx, (int64_t)1 << 47));
	flat = lego_add(ctx, lego_mul(ctx, i, lego_const(ctx, (int64_t)1 << 47)),
			j);
	one_more = lego_add(ctx, flat, lego_const(ctx, 1));
	CHECK(t, !lego_exprs_may_overflow64(1, &flat));
	CHECK(t, lego_exprs_may_overflow64(1, &one_more));
	lego_expr *shl = lego_binop(ctx, LEGO_SHL, i, lego_const(ctx, 48));
	CHECK(t, lego_exprs_may_overflow64(1, &shl));
	m = lego_sym(ctx, "m");
	sym = lego_mul(ctx, m, lego_const(ctx, (int64_t)1 << 40));
	CHECK(t, !lego_exprs_may_overflow64(1, &sym));
	lego_ctx_free(ctx);
}

/* Triton's forms are exact whether // and % truncate (tensors) or floor
 * (two constexprs): checked here on both semantics, over all small a, b. */
static void test_trunc_forms(lego_test *t)
{
	test_case(t, "Triton division forms under both semantics");
	for (long long a = -30; a <= 30; a++)
		for (long long b = -7; b <= 7; b++) {
			if (!b)
				continue;
			long long fq = a / b - (a % b != 0 && (a < 0) != (b < 0));
			long long fr = a - fq * b;
			for (int floor_sem = 0; floor_sem < 2; floor_sem++) {
				long long q = floor_sem ? fq : a / b;
				long long r = floor_sem ? fr : a % b;
				long long fix = (r != 0) & ((r < 0) != (b < 0));
				CHECK_EQ(t, q - fix, fq);
				CHECK_EQ(t, r + fix * b, fr);
				/* the forms for known signs */
				long long known = b > 0   ? r < 0
						  : b < 0 ? r > 0
							  : 0;
				CHECK_EQ(t, q - known, fq);
				CHECK_EQ(t, r + known * b, fr);
				if (a >= 0)
					CHECK_EQ(t, q - ((r > 0) & (b < 0)), fq);
				if (a < 0)
					CHECK_EQ(t, q - ((r < 0) & (b > 0)), fq);
				if (a <= 0 && b < 0)
					CHECK_EQ(t, q, fq);
			}
		}
}

/* ------------------------------------------ printed C, compiled and run */

typedef struct rng {
	unsigned long long s;
} rng;

static unsigned pick(rng *g, unsigned n)
{
	g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((g->s >> 33) % n);
}

/* A random expression over a, b; divisors are non-zero constants or
 * b * b + 1, shifts by small constants. */
static lego_expr *random_expr(lego_ctx *ctx, rng *g, lego_expr *a,
			      lego_expr *b, int depth)
{
	if (depth == 0 || pick(g, 5) == 0) {
		unsigned k = pick(g, 3);
		return k == 0 ? a : k == 1 ? b
					   : lego_const(ctx, (int)pick(g, 19) - 9);
	}
	lego_expr *x = random_expr(ctx, g, a, b, depth - 1);
	lego_expr *y = random_expr(ctx, g, a, b, depth - 1);
	lego_expr *d = pick(g, 2) ? lego_const(ctx, (int)pick(g, 7) - 3 ?: 5)
				  : lego_add(ctx, lego_mul(ctx, b, b),
					     lego_const(ctx, 1));
	switch (pick(g, 12)) {
	case 0: return lego_add(ctx, x, y);
	case 1: return lego_sub(ctx, x, y);
	case 2: return lego_mul(ctx, x, y);
	case 3: return lego_div(ctx, x, d);
	case 4: return lego_mod(ctx, x, d);
	case 5: return lego_min(ctx, x, y);
	case 6: return lego_max(ctx, x, y);
	case 7: return lego_select(ctx, lego_binop(ctx, LEGO_LT, x, y), y,
				   lego_neg(ctx, x));
	case 8: return lego_binop(ctx, LEGO_AND, lego_binop(ctx, LEGO_LE, x, y),
				  lego_binop(ctx, LEGO_NE, x, b));
	case 9: return lego_binop(ctx, LEGO_BXOR, x, y);
	case 10: return lego_binop(ctx, LEGO_SHL, x, lego_const(ctx, pick(g, 4)));
	default: return lego_binop(ctx, LEGO_SHR, x, lego_const(ctx, pick(g, 4)));
	}
}

/* A C program over a, b in [lo, hi): `body` prints its values (one line
 * each) at every (a, b); it is compiled with cflags, run, and each value is
 * compared with lego_expr_eval of es[i].  Returns the number of values
 * checked. */
typedef struct prog {
	lego_ctx *ctx;
	lego_expr *a, *b;
	int lo, hi;
	const char *type; /* of a and b */
	size_t n;
	lego_expr *const *es;
} prog;

static int write_program(const prog *p, const char *path, const char *body)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "#include <stdio.h>\n%s\nint main(void)\n{\n"
		   "\tfor (%s a = %d; a < %d; a++)\n"
		   "\tfor (%s b = %d; b < %d; b++) {\n%s\t}\n\treturn 0;\n}\n",
		lego_dialect_helpers(LEGO_DIALECT_C), p->type, p->lo, p->hi,
		p->type, p->lo, p->hi, body);
	return fclose(f);
}

static size_t compare_outputs(lego_test *t, const prog *p, FILE *f)
{
	lego_env *env = lego_env_new(p->ctx);
	size_t checked = 0;
	for (long long va = p->lo; va < p->hi; va++)
		for (long long vb = p->lo; vb < p->hi; vb++) {
			lego_env_bind(env, p->a, va);
			lego_env_bind(env, p->b, vb);
			for (size_t i = 0; i < p->n; i++) {
				long long got = 0;
				int64_t want;
				if (fscanf(f, "%lld", &got) != 1) {
					CHECK(t, !"short output");
					goto done;
				}
				if (lego_expr_eval(p->ctx, p->es[i], env, &want))
					continue;
				checked++;
				if (got != want) {
					CHECKF(t, 0, "expr %zu at a=%lld b=%lld: "
					       "C gives %lld, eval %lld", i, va,
					       vb, got, (long long)want);
					goto done;
				}
			}
		}
done:
	lego_env_free(env);
	return checked;
}

static size_t run_program(lego_test *t, const prog *p, const char *body,
			  const char *cflags)
{
	char dir[] = "/tmp/lego_emit_c_XXXXXX", src[64], exe[64], out[64];
	char cmd[1024];
	size_t checked = 0;
	if (!mkdtemp(dir)) {
		CHECK(t, !"mkdtemp");
		return 0;
	}
	snprintf(src, sizeof src, "%s/e.c", dir);
	snprintf(exe, sizeof exe, "%s/e", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	CHECK_EQ(t, write_program(p, src, body), 0);
	snprintf(cmd, sizeof cmd, "%s -o %s %s && %s > %s", cflags, exe, src,
		 exe, out);
	CHECK_EQ(t, system(cmd), 0);
	FILE *f = fopen(out, "r");
	if (f) {
		checked = compare_outputs(t, p, f);
		fclose(f);
	}
	remove(src), remove(exe), remove(out), rmdir(dir);
	return checked;
}

static int have_cc(void)
{
	if (system("cc --version > /dev/null 2>&1") == 0)
		return 1;
	printf("  (skipped: no cc)\n");
	return 0;
}

enum { NEXPR = 40, LO = -6, HI = 7 };

/* lego_exprs_print_dialect's statements assigning r[0..NEXPR), then
 * printed. */
static char *assigned_body(lego_ctx *ctx, lego_expr *const *es)
{
	const char *names[NEXPR];
	char buf[NEXPR][16];
	for (int i = 0; i < NEXPR; i++) {
		snprintf(buf[i], sizeof buf[i], "r[%d]", i);
		names[i] = buf[i];
	}
	char *stmts = lego_exprs_print_dialect(ctx, NEXPR, es, names, "t",
					       LEGO_DIALECT_C);
	lego_sbuf b = {0};
	if (stmts)
		lego_sbuf_printf(&b, "\tlong long r[%d];\n%s\tfor (int i = 0; "
				     "i < %d; i++) printf(\"%%lld\\n\", r[i]);\n",
				 NEXPR, stmts, NEXPR);
	free(stmts);
	return lego_sbuf_take(&b);
}

static void test_compiled(lego_test *t)
{
	test_case(t, "printed C compiled and run = lego_expr_eval");
	if (!have_cc())
		return;
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_index(ctx, "a", lego_const(ctx, LO), lego_const(ctx, HI));
	lego_expr *b = lego_index(ctx, "b", lego_const(ctx, LO), lego_const(ctx, HI));
	lego_expr *es[NEXPR];
	rng g = {12345};
	for (int i = 0; i < NEXPR; i++)
		es[i] = random_expr(ctx, &g, a, b, 4);
	prog p = {ctx, a, b, LO, HI, "long long", NEXPR, es};
	char *body = assigned_body(ctx, es);
	CHECK(t, body != NULL);
	if (body)
		CHECK(t, run_program(t, &p, body, "cc -std=c11 -O1 -Wall -Werror "
						  "-Wno-unused-function") >
			     NEXPR * 100);
	free(body);
	lego_ctx_free(ctx);
}

/* Random expressions with large constants: those found to fit in 32 bits
 * are printed with int temporaries, compiled with every signed overflow
 * trapping, and run on int a, b over their whole ranges against
 * lego_expr_eval. */
enum { WLO = -150, WHI = 150, NWIDE = 60 };

static lego_expr *scaled(lego_ctx *ctx, rng *g, lego_expr *a, lego_expr *b)
{
	lego_expr *e = random_expr(ctx, g, a, b, 3);
	int64_t k = (int64_t)1 << pick(g, 20);
	return pick(g, 2) ? lego_mul(ctx, e, lego_const(ctx, k))
			  : lego_add(ctx, e, lego_mul(ctx, a, lego_const(ctx, k)));
}

/* lego_print_shared's temporaries, then each value printed. */
static char *shared_body(lego_ctx *ctx, size_t n, lego_expr *const *es)
{
	char *pre = NULL, **v = calloc(n, sizeof *v);
	lego_sbuf b = {0};
	if (v && lego_print_shared(ctx, n, es, "t", "\t", LEGO_DIALECT_C, &pre,
				   v) == LEGO_OK) {
		lego_sbuf_puts(&b, pre);
		for (size_t i = 0; i < n; i++)
			lego_sbuf_printf(&b, "\tprintf(\"%%lld\\n\", "
					     "(long long)(%s));\n", v[i]);
	}
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
	free(pre);
	return lego_sbuf_take(&b);
}

static void test_width_compiled(lego_test *t)
{
	test_case(t, "32-bit temporaries compiled with trapping overflow");
	if (!have_cc())
		return;
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_index(ctx, "a", lego_const(ctx, WLO), lego_const(ctx, WHI));
	lego_expr *b = lego_index(ctx, "b", lego_const(ctx, WLO), lego_const(ctx, WHI));
	lego_expr *es[NWIDE];
	size_t n = 0, refused = 0;
	rng g = {777};
	for (int i = 0; i < 4 * NWIDE && n < NWIDE; i++) {
		lego_expr *e = scaled(ctx, &g, a, b);
		if (lego_exprs_fit_int32(1, &e))
			es[n++] = e;
		else
			refused++;
	}
	CHECKF(t, n == NWIDE && refused > 0, "%zu fit, %zu refused", n, refused);
	prog p = {ctx, a, b, WLO, WHI, "int", n, es};
	char *body = shared_body(ctx, n, es);
	CHECK(t, body != NULL);
	/* int temporaries and int a, b: an overflow aborts the program
	 * (UBSan where the compiler has it, else -ftrapv). */
	int ubsan = system("echo 'int main(void){return 0;}' | cc -x c "
			   "-fsanitize=signed-integer-overflow -o /dev/null - "
			   "2>/dev/null") == 0;
	const char *cflags =
		ubsan ? "cc -std=c11 -O0 -Wall -Werror -Wno-unused-function "
			"-fsanitize=signed-integer-overflow "
			"-fno-sanitize-recover=all"
		      : "cc -std=c11 -O0 -Wall -Werror -Wno-unused-function "
			"-ftrapv";
	if (body)
		CHECK(t, run_program(t, &p, body, cflags) > (size_t)NWIDE * 1000);
	free(body);
	lego_ctx_free(ctx);
}

/* A value not proved to fit in 32 bits (the size N is symbolic) computes
 * its products in 64 bits, whatever the types of the variables: with int
 * i, j and N = 2^20, i = 2^20 - 1 the compiled value is exact (and no
 * signed overflow traps). */
static void test_widened(lego_test *t)
{
	test_case(t, "values not proved to fit: 64-bit products");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *big = lego_const(ctx, 1 << 20);
	lego_expr *i = lego_index(ctx, "i", lego_const(ctx, 0), big);
	lego_expr *j = lego_index(ctx, "j", lego_const(ctx, 0), big);
	lego_expr *n = lego_sym(ctx, "N");
	lego_expr *e[2] = {lego_add(ctx, j, lego_mul(ctx, n, i)),
			   lego_add(ctx, j, lego_mul(ctx, lego_const(ctx, 3), i))};
	char *pre = NULL, *v[2] = {NULL, NULL};
	CHECK_EQ(t, lego_print_shared(ctx, 2, e, "t", "", LEGO_DIALECT_CUDA,
				      &pre, v), LEGO_OK);
	CHECKF(t, v[0] && !strcmp(v[0], "j + (long long)N * i"), "'%s'", v[0]);
	/* j + 3i < 2^22: stays int. */
	CHECKF(t, v[1] && !strcmp(v[1], "j + 3 * i"), "'%s'", v[1]);
	if (v[0] && have_cc()) {
		lego_sbuf b = {0};
		lego_sbuf_printf(&b, "\tint N = 1 << 20, i = (1 << 20) - 1, j = 5;"
				     "\n\tprintf(\"%%lld\\n\", (long long)(%s));\n",
				 v[0]);
		char *body = lego_sbuf_take(&b);
		/* The loops of run_program over a single point (a, b unused). */
		prog p = {ctx, i, j, 0, 1, "int", 0, e};
		char dir[] = "/tmp/lego_wide_XXXXXX", src[64], exe[64], cmd[512];
		CHECK(t, body && mkdtemp(dir) != NULL);
		snprintf(src, sizeof src, "%s/w.c", dir);
		snprintf(exe, sizeof exe, "%s/w", dir);
		CHECK_EQ(t, write_program(&p, src, body), 0);
		snprintf(cmd, sizeof cmd, "cc -std=c11 -O0 -w -ftrapv -o %s %s && "
			 "test \"$(%s)\" = %lld", exe, src, exe,
			 (long long)5 + (1LL << 20) * ((1LL << 20) - 1));
		CHECK_EQ(t, system(cmd), 0);
		remove(src), remove(exe), rmdir(dir);
		free(body);
	}
	free(pre), free(v[0]), free(v[1]);
	lego_ctx_free(ctx);
}

void suite_emit_c(lego_test *t)
{
	test_spellings(t);
	test_shared(t);
	test_trunc_forms(t);
	test_compiled(t);
	test_width_edge(t);
	test_width_compiled(t);
	test_widened(t);
}
