/* test_ranges.c - range analysis over compound expressions and the rules
 * built on it (issue 21): bit operations, shifted indices, constant
 * divisors, recombination, dead terms, assumptions about expressions,
 * and concrete sizes never simplifying worse than symbolic ones.
 *
 * Each rewrite is checked three ways: the simplified form against the
 * form worked out by hand, by exhaustive evaluation against the input
 * over the index ranges, and the rule itself, with its side conditions,
 * proved once (test_rules_proved). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "lego.h"

enum { MAXV = 4 };

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

static lego_expr *bin(lego_ctx *ctx, lego_expr_kind k, lego_expr *a,
		      lego_expr *b)
{
	return lego_binop(ctx, k, a, b);
}

/* The index variables of a check and their ranges [lo, hi). */
typedef struct vars {
	size_t n;
	lego_expr *v[MAXV];
	int64_t lo[MAXV], hi[MAXV];
} vars;

static lego_expr *var(lego_ctx *ctx, vars *vs, const char *name, int64_t lo,
		      int64_t hi)
{
	lego_expr *v = lego_index(ctx, name, C(ctx, lo), C(ctx, hi));
	vs->v[vs->n] = v;
	vs->lo[vs->n] = lo;
	vs->hi[vs->n++] = hi;
	return v;
}

/* 1 when a and b agree at every point of the ranges (a may be undefined
 * nowhere there). */
static int same_values(lego_ctx *ctx, const vars *vs, lego_expr *a,
		       lego_expr *b)
{
	lego_env *env = lego_env_new(ctx);
	int64_t total = 1;
	int ok = env != NULL;
	for (size_t i = 0; i < vs->n; i++)
		total *= vs->hi[i] - vs->lo[i];
	for (int64_t p = 0; ok && p < total; p++) {
		int64_t rest = p, x, y;
		for (size_t i = 0; i < vs->n; i++) {
			int64_t len = vs->hi[i] - vs->lo[i];
			lego_env_bind(env, vs->v[i], vs->lo[i] + rest % len);
			rest /= len;
		}
		ok = lego_expr_eval(ctx, a, env, &x) == LEGO_OK &&
		     lego_expr_eval(ctx, b, env, &y) == LEGO_OK && x == y;
	}
	lego_env_free(env);
	return ok;
}

/* e simplifies to want (worked out by hand), and keeps its values. */
static void expect(lego_test *t, lego_ctx *ctx, const vars *vs, lego_expr *e,
		   lego_expr *want)
{
	lego_expr *s = lego_simplify(ctx, e);
	CHECK(t, s != NULL);
	if (!s)
		return;
	if (s != want) {
		char *ps = lego_expr_print(ctx, s, LEGO_LANG_C);
		char *pw = lego_expr_print(ctx, want, LEGO_LANG_C);
		CHECKF(t, 0, "got %s, want %s", ps ? ps : "?", pw ? pw : "?");
		free(ps);
		free(pw);
	}
	CHECK(t, same_values(ctx, vs, e, s));
}

static void test_bits(lego_test *t)
{
	test_case(t, "bit_rules");
	lego_ctx *ctx = lego_ctx_new();
	vars vs = {0};
	lego_expr *x = var(ctx, &vs, "x", 0, 4096);
	/* the inverse of Swizzle<3,3,3>: xor only touches bits 3..5 */
	lego_expr *sw = bin(ctx, LEGO_BXOR, x,
			    bin(ctx, LEGO_BAND, C(ctx, 56),
				bin(ctx, LEGO_SHR, x, C(ctx, 3))));
	expect(t, ctx, &vs, lego_div(ctx, sw, C(ctx, 64)),
	       lego_div(ctx, x, C(ctx, 64)));
	/* nonnegative: the floor correction's test is false */
	CHECK(t, lego_prove_nonneg(ctx, sw));
	expect(t, ctx, &vs, bin(ctx, LEGO_LT, lego_mod(ctx, sw, C(ctx, 64)),
				C(ctx, 0)), C(ctx, 0));
	/* x < 4096 has its bits in 4095 and in 8191 | 5 */
	expect(t, ctx, &vs, bin(ctx, LEGO_BAND, C(ctx, 4095), x), x);
	expect(t, ctx, &vs, bin(ctx, LEGO_BAND, C(ctx, 8191 | 5), x), x);
	lego_ctx_free(ctx);

	ctx = lego_ctx_new();
	vs = (vars){0};
	lego_expr *j = var(ctx, &vs, "j", 0, 8);
	lego_expr *y = var(ctx, &vs, "y", -40, 40);
	/* Morton's dead term: (j >> 3) << 6 for j < 8 */
	expect(t, ctx, &vs, bin(ctx, LEGO_SHL, bin(ctx, LEGO_SHR, j, C(ctx, 3)),
				C(ctx, 6)), C(ctx, 0));
	/* a bit field cut in place and moved once, for negative y too */
	expect(t, ctx, &vs,
	       bin(ctx, LEGO_SHL, bin(ctx, LEGO_BAND, C(ctx, 1),
				      bin(ctx, LEGO_SHR, y, C(ctx, 2))),
		   C(ctx, 1)),
	       bin(ctx, LEGO_SHR, bin(ctx, LEGO_BAND, C(ctx, 4), y), C(ctx, 1)));
	/* a mask as a modulo when that is cheaper: (8y + j) & 7 = j */
	expect(t, ctx, &vs,
	       bin(ctx, LEGO_BAND, C(ctx, 7),
		   lego_add(ctx, lego_mul(ctx, C(ctx, 8), y), j)), j);
	lego_ctx_free(ctx);

	ctx = lego_ctx_new();
	vs = (vars){0};
	lego_expr *r = var(ctx, &vs, "r", 0, 8), *c = var(ctx, &vs, "c", 0, 64);
	/* Swizzle<3,3,3> of a 128-byte row: 56 & ((64r + c) >> 3) = 8r */
	lego_expr *off = lego_add(ctx, lego_mul(ctx, C(ctx, 64), r), c);
	expect(t, ctx, &vs, bin(ctx, LEGO_BAND, C(ctx, 56),
				bin(ctx, LEGO_SHR, off, C(ctx, 3))),
	       lego_mul(ctx, C(ctx, 8), r));
	lego_ctx_free(ctx);
}

static void test_divmod(lego_test *t)
{
	test_case(t, "compound_divmod");
	lego_ctx *ctx = lego_ctx_new();
	vars vs = {0};
	lego_expr *c = var(ctx, &vs, "c", 0, 6), *i = var(ctx, &vs, "i", 0, 8);
	lego_expr *d = var(ctx, &vs, "d", -3, 4);
	lego_expr *id = lego_add(ctx, i, d);
	/* the shifted index: (8c + i + d) / 8 = c + (i + d) / 8, |d| < 8;
	 * i + d may be negative: floor division and modulo by 8 as a shift
	 * and a mask (one operation each, exact in two's complement) */
	lego_expr *x = lego_add(ctx, lego_mul(ctx, C(ctx, 8), c), id);
	expect(t, ctx, &vs, lego_div(ctx, x, C(ctx, 8)),
	       lego_add(ctx, c, bin(ctx, LEGO_SHR, id, C(ctx, 3))));
	expect(t, ctx, &vs, lego_mod(ctx, x, C(ctx, 8)),
	       bin(ctx, LEGO_BAND, C(ctx, 7), id));
	lego_ctx_free(ctx);

	ctx = lego_ctx_new();
	vs = (vars){0};
	lego_expr *z = var(ctx, &vs, "z", 0, 64), *y = var(ctx, &vs, "y", 0, 64);
	/* a constant divisor split by a coefficient: (z + 64y) / 512 = y / 8 */
	lego_expr *zy = lego_add(ctx, z, lego_mul(ctx, C(ctx, 64), y));
	expect(t, ctx, &vs, lego_div(ctx, zy, C(ctx, 512)),
	       lego_div(ctx, y, C(ctx, 8)));
	lego_ctx_free(ctx);

	ctx = lego_ctx_new();
	vs = (vars){0};
	lego_expr *w = var(ctx, &vs, "w", -300, 300);
	lego_expr *k = lego_sym(ctx, "k");
	/* x%8 + 8*((x/8)%8) + 64*(x/64) = x, also scaled by k and spread
	 * over a larger sum */
	lego_expr *parts = lego_add(ctx,
		lego_add(ctx, lego_mod(ctx, w, C(ctx, 8)),
			 lego_mul(ctx, C(ctx, 8), lego_mod(ctx,
				  lego_div(ctx, w, C(ctx, 8)), C(ctx, 8)))),
		lego_mul(ctx, C(ctx, 64), lego_div(ctx, w, C(ctx, 64))));
	expect(t, ctx, &vs, parts, w);
	lego_expr *scaled = lego_add(ctx, lego_mul(ctx, lego_mul(ctx, C(ctx, 3),
					k), parts), lego_mul(ctx, C(ctx, 5), k));
	lego_expr *got = lego_simplify(ctx, scaled);
	CHECK(t, got == lego_simplify(ctx, lego_mul(ctx, k,
		lego_add(ctx, lego_mul(ctx, C(ctx, 3), w), C(ctx, 5)))));
	/* x % 8 + 8 * ((x / 8) % 4) = x % 32 */
	expect(t, ctx, &vs, lego_add(ctx, lego_mod(ctx, w, C(ctx, 8)),
		lego_mul(ctx, C(ctx, 8), lego_mod(ctx, lego_div(ctx, w, C(ctx, 8)),
						   C(ctx, 4)))),
	       bin(ctx, LEGO_BAND, C(ctx, 31), w));
	lego_ctx_free(ctx);
}

static void test_dead_and_facts(lego_test *t)
{
	test_case(t, "dead_terms_and_assumptions");
	lego_ctx *ctx = lego_ctx_new();
	vars vs = {0};
	lego_expr *tk = var(ctx, &vs, "tk", 0, 5), *z = var(ctx, &vs, "z", 0, 1);
	lego_expr *bk = var(ctx, &vs, "BK", 1, 5);
	/* an index over a size-1 dim is 0 */
	expect(t, ctx, &vs, lego_mul(ctx, bk, lego_add(ctx, tk, z)),
	       lego_mul(ctx, bk, tk));
	lego_ctx_free(ctx);

	ctx = lego_ctx_new();
	vs = (vars){0};
	lego_expr *i = var(ctx, &vs, "i", 0, 8), *d = var(ctx, &vs, "d", -2, 3);
	lego_expr *id = lego_add(ctx, i, d);
	/* without an assumption the neighbour may leave the brick */
	CHECK(t, lego_simplify(ctx, lego_div(ctx, id, C(ctx, 8))) != C(ctx, 0));
	/* assume 0 <= i + d < 8: it does not */
	CHECK_EQ(t, lego_assume(ctx, bin(ctx, LEGO_LT, id, C(ctx, 8))), LEGO_OK);
	CHECK_EQ(t, lego_assume(ctx, bin(ctx, LEGO_LE, C(ctx, 0), id)), LEGO_OK);
	CHECK(t, lego_simplify(ctx, lego_div(ctx, id, C(ctx, 8))) == C(ctx, 0));
	CHECK(t, lego_simplify(ctx, lego_mod(ctx, id, C(ctx, 8))) == id);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------ the rules, proved once */

static void prove(lego_test *t, lego_ctx *ctx, const char *name,
		  lego_expr *lhs, lego_expr *rhs)
{
	lego_proof p = lego_smt_prove(ctx, bin(ctx, LEGO_EQ, lhs, rhs), 20000,
				      NULL);
	CHECKF(t, p == LEGO_PROVED, "rule %s: %s", name,
	       p == LEGO_REFUTED ? "refuted" : lego_ctx_error(ctx));
}

static void prove_le(lego_test *t, lego_ctx *ctx, const char *name,
		     lego_expr *a, lego_expr *b)
{
	lego_proof p = lego_smt_prove(ctx, bin(ctx, LEGO_LE, a, b), 20000, NULL);
	CHECKF(t, p == LEGO_PROVED, "bound %s: %s", name,
	       p == LEGO_REFUTED ? "refuted" : lego_ctx_error(ctx));
}

/* The bit rules, with their side conditions as the ranges of the index
 * variables (shift amounts and masks symbolic too): Z3 does not decide
 * them over 40-bit operands in seconds, so they are proved by
 * enumerating every case with 6-bit operands (at most 2^20 cases each).
 * The arithmetic rules are proved by Z3 over unbounded integers. */
static void test_rules_proved(lego_test *t)
{
	test_case(t, "new_rules_proved");
	if (!lego_smt_available())
		return;
	clock_t t0 = clock();
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_index(ctx, "a", C(ctx, 0), C(ctx, 64));
	lego_expr *b = lego_index(ctx, "b", C(ctx, 0), C(ctx, 64));
	lego_expr *y = lego_index(ctx, "y", C(ctx, -32), C(ctx, 32));
	lego_expr *k = lego_index(ctx, "k", C(ctx, 0), C(ctx, 6));
	lego_expr *s = lego_index(ctx, "s", C(ctx, 0), C(ctx, 4));
	lego_expr *m = lego_index(ctx, "m", C(ctx, 0), C(ctx, 8));
	lego_expr *one = C(ctx, 1), *zero = C(ctx, 0);
	lego_expr *pk = bin(ctx, LEGO_SHL, one, k); /* 2^k */
	lego_expr *ak = lego_mod(ctx, a, pk), *bk = lego_mod(ctx, b, pk);
	/* bounds of and, or, xor of nonnegative values */
	prove_le(t, ctx, "0 <= a ^ b", zero, bin(ctx, LEGO_BXOR, a, b));
	prove_le(t, ctx, "0 <= a | b", zero, bin(ctx, LEGO_BOR, a, b));
	prove_le(t, ctx, "a ^ b <= a + b", bin(ctx, LEGO_BXOR, a, b),
		 lego_add(ctx, a, b));
	prove_le(t, ctx, "a | b <= a + b", bin(ctx, LEGO_BOR, a, b),
		 lego_add(ctx, a, b));
	prove_le(t, ctx, "0 <= a & y", zero, bin(ctx, LEGO_BAND, a, y));
	prove_le(t, ctx, "a & y <= a", bin(ctx, LEGO_BAND, a, y), a);
	/* within the bits of the larger: a, b < 2^k -> a ^ b, a | b < 2^k */
	prove_le(t, ctx, "a ^ b < 2^k", bin(ctx, LEGO_BXOR, ak, bk),
		 lego_sub(ctx, pk, one));
	prove_le(t, ctx, "a | b < 2^k", bin(ctx, LEGO_BOR, ak, bk),
		 lego_sub(ctx, pk, one));
	/* shifts and masks as arithmetic */
	prove(t, ctx, "y >> k = y / 2^k", bin(ctx, LEGO_SHR, y, k),
	      lego_div(ctx, y, pk));
	prove(t, ctx, "y << k = y * 2^k", bin(ctx, LEGO_SHL, y, k),
	      lego_mul(ctx, y, pk));
	prove(t, ctx, "y & (2^k - 1) = y % 2^k",
	      bin(ctx, LEGO_BAND, y, lego_sub(ctx, pk, one)), lego_mod(ctx, y, pk));
	/* x & m = x when x's bits lie in m: x < 2^k, m = (2^k - 1) | c */
	prove(t, ctx, "x & m = x", bin(ctx, LEGO_BAND, ak,
		bin(ctx, LEGO_BOR, lego_sub(ctx, pk, one), b)), ak);
	/* (y ^ b) / 2^k = y / 2^k for 0 <= b < 2^k; the same for | */
	prove(t, ctx, "(y ^ b) / 2^k", lego_div(ctx, bin(ctx, LEGO_BXOR, y, bk),
						pk), lego_div(ctx, y, pk));
	prove(t, ctx, "(y | b) / 2^k", lego_div(ctx, bin(ctx, LEGO_BOR, y, bk),
						pk), lego_div(ctx, y, pk));
	/* m2^k & (2^k q + r) = 2^k (m & q) for 0 <= r < 2^k */
	prove(t, ctx, "mask above the low part",
	      bin(ctx, LEGO_BAND, lego_mul(ctx, m, pk),
		  lego_add(ctx, lego_mul(ctx, pk, y), bk)),
	      lego_mul(ctx, pk, bin(ctx, LEGO_BAND, m, y)));
	/* ((y >> k) & m) << (k + s) = (y & (m << k)) << s, and for a right
	 * move ((y >> (k + s)) & m) << k = (y & (m << (k + s))) >> s */
	lego_expr *ks = lego_add(ctx, k, s);
	prove(t, ctx, "field moved left",
	      bin(ctx, LEGO_SHL, bin(ctx, LEGO_BAND, m, bin(ctx, LEGO_SHR, y, k)),
		  ks),
	      bin(ctx, LEGO_SHL, bin(ctx, LEGO_BAND, y, bin(ctx, LEGO_SHL, m, k)),
		  s));
	prove(t, ctx, "field moved right",
	      bin(ctx, LEGO_SHL, bin(ctx, LEGO_BAND, m, bin(ctx, LEGO_SHR, y, ks)),
		  k),
	      bin(ctx, LEGO_SHR, bin(ctx, LEGO_BAND, y, bin(ctx, LEGO_SHL, m, ks)),
		  s));
	lego_ctx_free(ctx);

	/* the arithmetic rules, over unbounded integers */
	ctx = lego_ctx_new();
	lego_expr *A = lego_sym(ctx, "A"), *B = lego_sym(ctx, "B"); /* >= 1 */
	lego_expr *x = lego_sym(ctx, "x"), *nx = lego_neg(ctx, x);
	lego_expr *r = lego_index(ctx, "r", C(ctx, 0), A);
	lego_expr *cq = lego_sym(ctx, "cq");
	prove(t, ctx, "(A*q + r)/(A*B) = q/B",
	      lego_div(ctx, lego_add(ctx, lego_mul(ctx, A, nx), r),
		       lego_mul(ctx, A, B)), lego_div(ctx, nx, B));
	prove(t, ctx, "(A*c + d)/A = c + d/A (shifted index)",
	      lego_div(ctx, lego_add(ctx, lego_mul(ctx, A, cq), nx), A),
	      lego_add(ctx, cq, lego_div(ctx, nx, A)));
	lego_ctx_free(ctx);

	/* nonlinear beyond Z3's reach in seconds: every case with divisors
	 * below 9 and |x| < 100 */
	ctx = lego_ctx_new();
	A = lego_index(ctx, "A", C(ctx, 1), C(ctx, 9));
	B = lego_index(ctx, "B", C(ctx, 1), C(ctx, 9));
	x = lego_index(ctx, "x", C(ctx, -100), C(ctx, 100));
	prove(t, ctx, "x%A + A*((x/A)%B) = x%(A*B)",
	      lego_add(ctx, lego_mod(ctx, x, A), lego_mul(ctx, A,
		       lego_mod(ctx, lego_div(ctx, x, A), B))),
	      lego_mod(ctx, x, lego_mul(ctx, A, B)));
	lego_ctx_free(ctx);
	if (t->verbose)
		printf("  the rules and bounds proved in %.2f s (CPU)\n",
		       (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* ------------------------------- concrete sizes never worse than symbolic */

/* e, built in ctx (sizes symbolic), rebuilt in to: symbols by name (a
 * defined size becomes its value). */
static lego_expr *transfer(lego_ctx *to, const lego_define *defs, size_t nd,
			   lego_expr *e)
{
	size_t n = lego_expr_nargs(e);
	lego_expr *a[3];
	switch (lego_expr_kind_of(e)) {
	case LEGO_CONST:
		return C(to, lego_expr_value(e));
	case LEGO_SYM:
		for (size_t i = 0; i < nd; i++)
			if (!strcmp(defs[i].name, lego_expr_name(e)))
				return C(to, defs[i].value);
		return lego_sym_find(to, lego_expr_name(e));
	case LEGO_ADD: case LEGO_MUL: {
		lego_expr *acc = transfer(to, defs, nd, lego_expr_arg(e, 0));
		for (size_t i = 1; i < n; i++) {
			lego_expr *x = transfer(to, defs, nd, lego_expr_arg(e, i));
			acc = lego_expr_kind_of(e) == LEGO_ADD ? lego_add(to, acc, x)
							      : lego_mul(to, acc, x);
		}
		return acc;
	}
	default:
		if (n > 3)
			return NULL;
		for (size_t i = 0; i < n; i++)
			if (!(a[i] = transfer(to, defs, nd, lego_expr_arg(e, i))))
				return NULL;
		if (n == 3)
			return lego_select(to, a[0], a[1], a[2]);
		if (lego_expr_kind_of(e) == LEGO_NOT)
			return lego_not(to, a[0]);
		if (lego_expr_kind_of(e) == LEGO_ISQRT)
			return lego_isqrt(to, a[0]);
		return lego_binop(to, lego_expr_kind_of(e), a[0], a[1]);
	}
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random tiled layout over sizes M = BM*tm, K = BK*tk: its chain's
 * levels Row or Col, one or two of them; used with its tiled index, its
 * global index (x / BM, .., x % BM, ..) or its inverse. */
static void random_spec(uint64_t *st, char *buf, size_t cap, char *use,
			size_t ucap, lego_define *defs)
{
	static const char *const lv[] = {"Row", "Col"};
	static const int64_t tiles[] = {1, 2, 3, 4, 8};
	const char *a = lv[rnd(st) % 2], *b = lv[rnd(st) % 2];
	int two = rnd(st) % 2;
	int64_t bm = tiles[rnd(st) % 5], bk = tiles[rnd(st) % 5];
	defs[0] = (lego_define){"BM", bm};
	defs[1] = (lego_define){"BK", bk};
	defs[2] = (lego_define){"M", bm * (int64_t)(1 + rnd(st) % 4)};
	defs[3] = (lego_define){"K", bk * (int64_t)(1 + rnd(st) % 4)};
	char chain[128];
	if (two)
		snprintf(chain, sizeof chain, "OrderBy(%s(M/BM, K/BK), %s(BM, BK))",
			 a, b);
	else
		snprintf(chain, sizeof chain, "OrderBy(%s(M, K))", a);
	snprintf(buf, cap,
		 "sym M, K, BM, BK\nassume M %% BM == 0 && K %% BK == 0\n"
		 "index tm in [0, M/BM)\nindex tk in [0, K/BK)\n"
		 "index r in [0, BM)\nindex c in [0, BK)\n"
		 "index x in [0, M)\nindex y in [0, K)\nindex f in [0, M*K)\n"
		 "layout L = %s.TileBy([M/BM, K/BK], [BM, BK])\n", chain);
	switch (rnd(st) % 3) {
	case 0: snprintf(use, ucap, "apply"); break;
	case 1: snprintf(use, ucap, "global"); break;
	default: snprintf(use, ucap, "inv%d", (int)(rnd(st) % 4));
	}
}

static lego_expr *derive(lego_spec *spec, lego_ctx *ctx, const char *use)
{
	lego_layout *l = lego_spec_layout(spec, "L");
	static const char *const tiled[] = {"tm", "tk", "r", "c"};
	static const char *const global[] = {"x / BM", "y / BK", "x % BM",
					     "y % BK"};
	lego_expr *idx[4];
	if (!l)
		return NULL;
	if (!strncmp(use, "inv", 3)) {
		lego_expr *f = lego_spec_parse_expr(spec, "f", NULL);
		if (!f || lego_layout_inv(ctx, l, f, idx) != LEGO_OK)
			return NULL;
		return idx[use[3] - '0'];
	}
	for (int k = 0; k < 4; k++)
		if (!(idx[k] = lego_spec_parse_expr(spec, use[0] == 'a' ? tiled[k]
								       : global[k],
						    NULL)))
			return NULL;
	return lego_layout_apply(ctx, l, idx);
}

static int uses(const lego_expr *e, const lego_expr *v)
{
	if (e == v)
		return 1;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		if (uses(lego_expr_arg(e, i), v))
			return 1;
	return 0;
}

/* a, b and c agree at every binding of the index variables a uses, at
 * the sizes of ctx's spec (constants there). */
static int agree_all(lego_ctx *ctx, const lego_define *defs, lego_expr *a,
		     lego_expr *b, lego_expr *c)
{
	static const char *const names[] = {"tm", "tk", "r", "c", "x", "y", "f"};
	int64_t hi[7] = {defs[2].value / defs[0].value,
			 defs[3].value / defs[1].value, defs[0].value,
			 defs[1].value, defs[2].value, defs[3].value,
			 defs[2].value * defs[3].value};
	lego_env *env = lego_env_new(ctx);
	lego_expr *v[7];
	int64_t total = 1;
	int ok = env != NULL;
	for (int i = 0; i < 7 && ok; i++) {
		ok = (v[i] = lego_sym_find(ctx, names[i])) != NULL;
		if (ok && !uses(a, v[i]))
			hi[i] = 1; /* held at 0 */
		total *= hi[i];
	}
	for (int64_t p = 0; ok && p < total; p++) {
		int64_t rest = p, va, vb, vc;
		for (int i = 0; i < 7; i++) {
			lego_env_bind(env, v[i], rest % hi[i]);
			rest /= hi[i];
		}
		ok = lego_expr_eval(ctx, a, env, &va) == LEGO_OK &&
		     lego_expr_eval(ctx, b, env, &vb) == LEGO_OK &&
		     lego_expr_eval(ctx, c, env, &vc) == LEGO_OK && va == vb &&
		     vb == vc;
	}
	lego_env_free(env);
	return ok;
}

static void test_concrete_never_worse(lego_test *t)
{
	test_case(t, "concrete_never_worse_than_symbolic");
	uint64_t st = 0x2545F4914F6CDD1DULL;
	int checked = 0;
	for (int n = 0; n < 60; n++) {
		char spec_text[1024], use[8];
		lego_define defs[4];
		random_spec(&st, spec_text, sizeof spec_text, use, sizeof use,
			    defs);
		lego_ctx *sym = lego_ctx_new(), *con = lego_ctx_new();
		lego_spec *ss = lego_spec_parse(sym, "sym.lego", spec_text,
						strlen(spec_text), NULL, 0);
		lego_spec *cs = lego_spec_parse(con, "con.lego", spec_text,
						strlen(spec_text), defs, 4);
		lego_expr *es = ss ? derive(ss, sym, use) : NULL;
		lego_expr *ec = cs ? derive(cs, con, use) : NULL;
		lego_expr *s = es ? lego_simplify(sym, es) : NULL;
		lego_expr *c = ec ? lego_simplify(con, ec) : NULL;
		lego_expr *subst = s ? transfer(con, defs, 4, s) : NULL;
		lego_expr *resimp = subst ? lego_simplify(con, subst) : NULL;
		CHECKF(t, c && resimp, "%s (%s): %s %s", spec_text, use,
		       lego_ctx_error(sym), lego_ctx_error(con));
		if (c && resimp) {
			size_t oc = lego_expr_ops(&c, 1);
			size_t os = lego_expr_ops(&resimp, 1);
			char *pc = lego_expr_print(con, c, LEGO_LANG_C);
			char *ps = lego_expr_print(con, resimp, LEGO_LANG_C);
			CHECKF(t, oc <= os, "%s%s at BM=%lld BK=%lld M=%lld "
			       "K=%lld: concrete %s (%zu ops), symbolic %s "
			       "(%zu ops)", spec_text, use,
			       (long long)defs[0].value,
			       (long long)defs[1].value,
			       (long long)defs[2].value,
			       (long long)defs[3].value, pc, oc, ps, os);
			CHECKF(t, agree_all(con, defs, ec, c, resimp),
			       "%s%s: values differ (%s vs %s)", spec_text, use,
			       pc, ps);
			free(pc);
			free(ps);
			checked++;
		}
		lego_ctx_free(sym);
		lego_ctx_free(con);
	}
	if (t->verbose)
		printf("  %d random layouts: concrete <= symbolic\n", checked);
}

void suite_ranges(lego_test *t)
{
	test_bits(t);
	test_divmod(t);
	test_dead_and_facts(t);
	test_rules_proved(t);
	test_concrete_never_worse(t);
}
