/* test_split.c - division, modulo, shifts and masks of linear terms whose
 * coefficients the divisor does not divide (src/simplify/split.c):
 * floor((a*x + b)/d) with a = q*d + r is q*x when r*x + b lies in
 * [0, d).  Expected forms are worked out by hand below; the random
 * instances are checked at every point against the floor semantics
 * computed here, and whether they must lose their division is decided
 * by enumeration, independently of the simplifier. */
#include <stdlib.h>

#include "harness.h"
#include "lego.h"

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

static lego_expr *lin(lego_ctx *ctx, int64_t a, lego_expr *x, int64_t b)
{
	return lego_add(ctx, lego_mul(ctx, C(ctx, a), x), C(ctx, b));
}

static void by_hand(lego_test *t)
{
	test_case(t, "coefficients_split_by_hand");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_index(ctx, "x", C(ctx, 0), C(ctx, 64));
	lego_expr *i = lego_index(ctx, "i", C(ctx, 0), C(ctx, 16));
	lego_expr *j = lego_index(ctx, "j", C(ctx, 0), C(ctx, 8));
	lego_expr *BM = lego_sym(ctx, "BM");
	lego_expr *y = lego_index(ctx, "y", C(ctx, 0), C(ctx, 64));
	lego_expr *u = lego_index(ctx, "u", C(ctx, 2), C(ctx, 7));
	lego_expr *i33j66 = lego_add(ctx, lego_mul(ctx, C(ctx, 33), i),
				     lego_mul(ctx, C(ctx, 66), j));
	lego_expr *i2j = lego_add(ctx, i, lego_mul(ctx, C(ctx, 2), j));
	simplify_case cases[] = {
		/* 63x + 63 = 64x + (63 - x), 63 - x in [0, 63] */
		{"(63x + 63)/64 -> x", lego_div(ctx, lin(ctx, 63, x, 63), C(ctx, 64)), x},
		{"(63x + 63)%64 -> 63 - x", lego_mod(ctx, lin(ctx, 63, x, 63), C(ctx, 64)),
		 lego_sub(ctx, C(ctx, 63), x)},
		/* 33i + 66j = 32(i + 2j) + (i + 2j), i + 2j <= 29 */
		{"(33i + 66j)/32 -> i + 2j", lego_div(ctx, i33j66, C(ctx, 32)), i2j},
		{"(33i + 66j) >> 5 -> i + 2j",
		 lego_binop(ctx, LEGO_SHR, i33j66, C(ctx, 5)), i2j},
		{"(33i + 66j) & 31 -> i + 2j",
		 lego_binop(ctx, LEGO_BAND, C(ctx, 31), i33j66), i2j},
		/* 127x + 127 = 64(2x + 1) + (63 - x) */
		{"(127x + 127)/64 -> 2x + 1",
		 lego_div(ctx, lin(ctx, 127, x, 127), C(ctx, 64)), lin(ctx, 2, x, 1)},
		/* 4032 - 63x = 64(63 - x) + x: a negative coefficient */
		{"(4032 - 63x)/64 -> 63 - x",
		 lego_div(ctx, lin(ctx, -63, x, 4032), C(ctx, 64)),
		 lego_sub(ctx, C(ctx, 63), x)},
		{"(4032 - 63x)%64 -> x", lego_mod(ctx, lin(ctx, -63, x, 4032), C(ctx, 64)), x},
		/* with a symbolic divisor: 65 BM y = 64 BM y + BM y, BM y < 64 BM */
		{"(65 BM y)/(64 BM) -> y",
		 lego_div(ctx, lego_mul(ctx, C(ctx, 65), lego_mul(ctx, BM, y)),
			  lego_mul(ctx, C(ctx, 64), BM)), y},
		/* 23u = 24u - u = 8(3u - 1) + (8 - u), 8 - u in [2, 6]: a
		 * shift that lost its operation, at equal cost */
		{"(23u) >> 3 -> 3u - 1",
		 lego_binop(ctx, LEGO_SHR, lego_mul(ctx, C(ctx, 23), u), C(ctx, 3)),
		 lin(ctx, 3, u, -1)},
		/* no choice brings the leftover into range: kept (its 7*x
		 * shared with (7*x) / 5) */
		{"(7i) % 5 stays", lego_mod(ctx, lego_mul(ctx, C(ctx, 7), i), C(ctx, 5)),
		 lego_mod(ctx, lego_mul(ctx, C(ctx, 7), i), C(ctx, 5))},
		/* must not fire: 31x + 31 = 32x + (31 - x), and 31 - x < 0 at
		 * x = 63 (the value there is 62, not x) */
		{"(31x + 31) >> 5 stays",
		 lego_binop(ctx, LEGO_SHR, lin(ctx, 31, x, 31), C(ctx, 5)),
		 lego_binop(ctx, LEGO_SHR, lin(ctx, 31, x, 31), C(ctx, 5))},
	};
	check_simplify_cases(t, ctx, cases, sizeof cases / sizeof cases[0]);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------ random, exhaustive */

enum { NVARS = 3, NOPS = 4 };

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static int64_t pick(uint64_t *s, int64_t lo, int64_t hi) /* [lo, hi] */
{
	return lo + (int64_t)(rnd(s) % (uint64_t)(hi - lo + 1));
}

static int64_t floordiv(int64_t a, int64_t d)
{
	return a / d - (a % d != 0 && (a < 0) != (d < 0));
}

/* An instance: op (0 /, 1 %, 2 >>, 3 &) of a[0]*x0 + ... + b by d. */
typedef struct inst {
	int op, nv;
	int64_t a[NVARS], b, d, lo[NVARS], len[NVARS];
} inst;

static int64_t value(const inst *in, const int64_t *x)
{
	int64_t s = in->b;
	for (int v = 0; v < in->nv; v++)
		s += in->a[v] * x[v];
	int64_t q = floordiv(s, in->d);
	return in->op % 2 == 0 ? q : s - q * in->d;
}

/* The point number c of the instance's box. */
static void point(const inst *in, int64_t c, int64_t *x)
{
	for (int v = 0; v < in->nv; v++) {
		x[v] = in->lo[v] + c % in->len[v];
		c /= in->len[v];
	}
}

/* Is the value an affine function of the variables over the box?  Then
 * a division-free form exists (q*x + c), and the choice of floor or
 * ceiling of each a/d finds it: a leftover coefficient of magnitude d or
 * more would leave [0, d) over a range of two values or more. */
static int affine(const inst *in, int64_t total)
{
	int64_t x[NVARS], base[NVARS], f0, step[NVARS];
	point(in, 0, base);
	f0 = value(in, base);
	for (int v = 0; v < in->nv; v++) {
		point(in, 0, x);
		x[v]++;
		step[v] = value(in, x) - f0;
	}
	for (int64_t c = 0; c < total; c++) {
		int64_t want = f0;
		point(in, c, x);
		for (int v = 0; v < in->nv; v++)
			want += step[v] * (x[v] - base[v]);
		if (value(in, x) != want)
			return 0;
	}
	return 1;
}

/* Does e contain a division, modulo, shift or mask? */
static int divides(const lego_expr *e)
{
	switch (lego_expr_kind_of(e)) {
	case LEGO_DIV: case LEGO_MOD: case LEGO_SHR: case LEGO_BAND:
		return 1;
	default:
		break;
	}
	for (size_t k = 0; k < lego_expr_nargs(e); k++)
		if (divides(lego_expr_arg(e, k)))
			return 1;
	return 0;
}

static void random_instances(lego_test *t)
{
	test_case(t, "coefficients_split_exhaustive");
	uint64_t st = 5;
	int n = 0, affine_n = 0, wrong = 0, missed = 0;
	for (int k = 0; k < 1000; k++) {
		lego_ctx *ctx = lego_ctx_new();
		inst in = {.op = (int)(rnd(&st) % NOPS), .nv = (int)pick(&st, 1, NVARS)};
		int s = (int)pick(&st, 1, 6);
		in.d = in.op >= 2 ? (int64_t)1 << s : pick(&st, 2, 70);
		lego_expr *sum = C(ctx, in.b = pick(&st, -2 * in.d, 2 * in.d));
		lego_expr *x[NVARS];
		int64_t total = 1;
		char name[16];
		for (int v = 0; v < in.nv; v++) {
			/* near multiples of d, of either sign */
			in.a[v] = pick(&st, -3, 3) * in.d + pick(&st, -3, 3);
			in.lo[v] = pick(&st, -4, 2);
			in.len[v] = pick(&st, 2, 9);
			total *= in.len[v];
			snprintf(name, sizeof name, "x%d", v);
			x[v] = lego_index(ctx, name, C(ctx, in.lo[v]),
					  C(ctx, in.lo[v] + in.len[v]));
			sum = lego_add(ctx, sum, lego_mul(ctx, C(ctx, in.a[v]), x[v]));
		}
		lego_expr *e = in.op == 0 ? lego_div(ctx, sum, C(ctx, in.d))
			     : in.op == 1 ? lego_mod(ctx, sum, C(ctx, in.d))
			     : in.op == 2 ? lego_binop(ctx, LEGO_SHR, sum, C(ctx, s))
					  : lego_binop(ctx, LEGO_BAND,
						       C(ctx, in.d - 1), sum);
		lego_expr *got = lego_simplify(ctx, e);
		CHECK(t, got != NULL);
		for (int64_t c = 0; got && c < total; c++) {
			int64_t p[NVARS], g = 0;
			lego_env *env = lego_env_new(ctx);
			point(&in, c, p);
			for (int v = 0; v < in.nv; v++)
				lego_env_bind(env, x[v], p[v]);
			if (lego_expr_eval(ctx, got, env, &g) != LEGO_OK ||
			    g != value(&in, p)) {
				wrong++;
				c = total;
			}
			lego_env_free(env);
		}
		int aff = affine(&in, total);
		affine_n += aff;
		if (got && aff && divides(got) && missed++ < 3) {
			char *pe = lego_expr_print(ctx, e, LEGO_LANG_C);
			char *pg = lego_expr_print(ctx, got, LEGO_LANG_C);
			CHECKF(t, 0, "affine but kept: %s -> %s", pe, pg);
			free(pe);
			free(pg);
		}
		n++;
		lego_ctx_free(ctx);
	}
	if (t->verbose)
		printf("  %d instances, %d affine over their box\n", n, affine_n);
	CHECK_EQ(t, wrong, 0);
	CHECK_EQ(t, missed, 0);
	CHECK(t, affine_n > n / 8); /* the class is well represented */
}

void suite_split(lego_test *t)
{
	by_hand(t);
	random_instances(t);
}
