/* test_expr.c - the expression engine: hash-consing, canonical forms,
 * folding and evaluation against independent computations, printers,
 * common subexpressions and operation counts. */
#include <stdlib.h>
#include <string.h>

#include "expr/pool.h"
#include "harness.h"

/* ------------------------------------------------------------ helpers */

/* xorshift64*: deterministic, local state. */
typedef struct rng {
	uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ull;
}

static int64_t rng_range(rng *r, int64_t lo, int64_t hi) /* [lo, hi] */
{
	return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

/* The printed form, compared and freed. */
static int prints_as(lego_ctx *ctx, lego_expr *e, lego_lang lang,
		     const char *want)
{
	char *s = lego_expr_print(ctx, e, lang);
	int ok = s && !strcmp(s, want);
	if (!ok)
		printf("    printed \"%s\", expected \"%s\"\n", s ? s : "(null)",
		       want);
	free(s);
	return ok;
}

static int eval1(lego_ctx *ctx, lego_expr *e, lego_env *env, int64_t *v)
{
	return lego_expr_eval(ctx, e, env, v);
}

/* Reference floor division from its definition: the q with
 * b*q <= a < b*q + b (b > 0), or b*q >= a > b*q + b (b < 0). */
static int64_t ref_floordiv(int64_t a, int64_t b)
{
	for (int64_t q = a / b - 1; q <= a / b + 1; q++) {
		__int128 r = (__int128)a - (__int128)b * q;
		if (b > 0 ? (r >= 0 && r < b) : (r <= 0 && r > b))
			return q;
	}
	return INT64_MIN; /* unreachable for b != 0 */
}

static int64_t ref_floormod(int64_t a, int64_t b)
{
	return (int64_t)((__int128)a - (__int128)b * ref_floordiv(a, b));
}

/* ------------------------------------------------------- hash-consing */

static void test_hash_consing(lego_test *t)
{
	test_case(t, "hash_consing");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	CHECK(t, x && y && x != y);
	CHECK(t, lego_sym(ctx, "x") == x);
	CHECK(t, lego_sym_find(ctx, "x") == x);
	CHECK(t, lego_sym_find(ctx, "nope") == NULL);
	CHECK(t, C(ctx, 42) == C(ctx, 42));
	CHECK(t, lego_add(ctx, x, y) == lego_add(ctx, x, y));
	CHECK(t, lego_div(ctx, x, y) == lego_div(ctx, x, y));
	CHECK(t, lego_div(ctx, x, y) != lego_div(ctx, y, x));
	CHECK(t, lego_mod(ctx, x, y) != lego_div(ctx, x, y));
	lego_expr *args[2] = {x, y};
	CHECK(t, lego_expr_make(ctx, LEGO_BXOR, 2, args, 0) ==
		     lego_binop(ctx, LEGO_BXOR, x, y));
	/* Symbols: dense numbering, facts. */
	CHECK_EQ(t, lego_expr_nsyms(ctx), 2);
	CHECK(t, lego_expr_sym_at(ctx, 0) == x);
	CHECK(t, lego_expr_sym_at(ctx, 1) == y);
	CHECK(t, lego_expr_sym_at(ctx, 2) == NULL);
	CHECK(t, x->sym->lo == C(ctx, 1) && x->sym->hi == NULL);
	CHECK(t, !x->sym->is_index);
	CHECK(t, !strcmp(lego_expr_name(x), "x"));
	lego_ctx_free(ctx);
}

static void test_index(lego_test *t)
{
	test_case(t, "index_declarations");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *n = lego_sym(ctx, "N");
	lego_expr *i = lego_index(ctx, "i", C(ctx, 0), n);
	CHECK(t, i && i->sym->is_index && i->sym->lo == C(ctx, 0));
	CHECK(t, i->sym->hi == n);
	CHECK(t, lego_index(ctx, "i", C(ctx, 0), n) == i);
	CHECK(t, lego_index(ctx, "i", NULL, n) == i); /* NULL lo is 0 */
	CHECK(t, lego_index(ctx, "i", C(ctx, 0), NULL) == NULL);
	CHECK(t, strstr(lego_ctx_error(ctx), "'i'") != NULL);
	CHECK(t, lego_index(ctx, "i", C(ctx, 1), n) == NULL);
	CHECK(t, lego_index(ctx, "N", C(ctx, 1), NULL) == NULL);
	CHECK(t, lego_sym(ctx, "i") == i); /* lego_sym returns it */
	CHECK(t, lego_sym(ctx, "") == NULL);
	CHECK(t, lego_sym(ctx, NULL) == NULL);
	lego_expr *j = lego_index(ctx, "j", C(ctx, -3), NULL);
	CHECK(t, j && j->sym->hi == NULL && j->sym->lo == C(ctx, -3));
	CHECK_EQ(t, lego_expr_nsyms(ctx), 3);
	/* NULL arguments propagate. */
	CHECK(t, lego_add(ctx, NULL, n) == NULL);
	CHECK(t, lego_div(ctx, n, NULL) == NULL);
	CHECK(t, lego_select(ctx, NULL, n, n) == NULL);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------- canonical form */

/* Builds sum or product of terms[perm[0..n-1]] left to right. */
static lego_expr *fold_perm(lego_ctx *ctx, int mul, lego_expr **terms,
			    const int *perm, int n)
{
	lego_expr *acc = terms[perm[0]];
	for (int k = 1; k < n; k++)
		acc = mul ? lego_mul(ctx, acc, terms[perm[k]])
			  : lego_add(ctx, acc, terms[perm[k]]);
	return acc;
}

static int next_perm(int *p, int n)
{
	int i = n - 2;
	while (i >= 0 && p[i] >= p[i + 1])
		i--;
	if (i < 0)
		return 0;
	int j = n - 1;
	while (p[j] <= p[i])
		j--;
	int tmp = p[i];
	p[i] = p[j];
	p[j] = tmp;
	for (int a = i + 1, b = n - 1; a < b; a++, b--) {
		tmp = p[a];
		p[a] = p[b];
		p[b] = tmp;
	}
	return 1;
}

static void test_order_independent(lego_test *t)
{
	test_case(t, "canonical_order_independent");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *z = lego_sym(ctx, "z");
	lego_expr *terms[5] = {x, lego_mul(ctx, C(ctx, 2), y),
			       lego_mul(ctx, x, z), C(ctx, 5),
			       lego_div(ctx, z, C(ctx, 3))};
	for (int mul = 0; mul < 2; mul++) {
		int perm[5] = {0, 1, 2, 3, 4};
		lego_expr *first = fold_perm(ctx, mul, terms, perm, 5);
		int same = 1;
		while (next_perm(perm, 5))
			same &= fold_perm(ctx, mul, terms, perm, 5) == first;
		CHECKF(t, same, "%s depends on the order of its terms",
		       mul ? "product" : "sum");
		CHECK_EQ(t, first->kind, mul ? LEGO_MUL : LEGO_ADD);
		/* Flattened: no argument of the same kind. */
		for (uint32_t i = 0; i < first->nargs; i++)
			CHECK(t, first->args[i]->kind != first->kind);
		for (uint32_t i = 1; i < first->nargs; i++) /* x*x: equal */
			CHECK(t, lego_expr_cmp(first->args[i - 1],
					       first->args[i]) <= 0);
	}
	/* Nested grouping does not matter either. */
	lego_expr *a = lego_add(ctx, lego_add(ctx, x, y), z);
	CHECK(t, a == lego_add(ctx, x, lego_add(ctx, z, y)));
	CHECK(t, lego_mul(ctx, lego_mul(ctx, x, y), z) ==
		     lego_mul(ctx, z, lego_mul(ctx, y, x)));
	lego_ctx_free(ctx);
}

/* The order must not depend on creation order or addresses: two contexts
 * declaring symbols in opposite orders print the same text. */
static char *build_and_print(int reverse)
{
	static const char *const names[] = {"b", "a", "K", "tm", "c0"};
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *s[5];
	for (int k = 0; k < 5; k++) {
		int i = reverse ? 4 - k : k;
		s[i] = lego_sym(ctx, names[i]);
	}
	lego_expr *e = C(ctx, 7);
	for (int k = 0; k < 5; k++) {
		int i = reverse ? 4 - k : k;
		lego_expr *p = lego_mul(ctx, s[i], s[(i + 1) % 5]);
		e = lego_add(ctx, e, lego_add(ctx, p, lego_div(ctx, s[i], p)));
		e = lego_add(ctx, e, lego_min(ctx, s[i], s[(i + 2) % 5]));
	}
	char *text = lego_expr_print(ctx, e, LEGO_LANG_PYTHON);
	lego_ctx_free(ctx);
	return text;
}

static void test_order_deterministic(lego_test *t)
{
	test_case(t, "canonical_order_deterministic");
	char *a = build_and_print(0), *b = build_and_print(1);
	CHECKF(t, a && b && !strcmp(a, b), "\"%s\" vs \"%s\"", a, b);
	free(a);
	free(b);
}

static void test_canonical_shapes(lego_test *t)
{
	test_case(t, "canonical_shapes");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *two_x = lego_add(ctx, x, x);
	CHECK(t, two_x->kind == LEGO_MUL && two_x->nargs == 2);
	CHECK(t, two_x->args[0] == C(ctx, 2) && two_x->args[1] == x);
	CHECK(t, lego_sub(ctx, x, x) == C(ctx, 0));
	CHECK(t, lego_sub(ctx, lego_add(ctx, x, C(ctx, 1)), C(ctx, 1)) == x);
	CHECK(t, lego_neg(ctx, lego_neg(ctx, x)) == x);
	CHECK(t, lego_mul(ctx, x, C(ctx, 0)) == C(ctx, 0));
	CHECK(t, lego_mul(ctx, C(ctx, 1), x) == x);
	CHECK(t, lego_add(ctx, C(ctx, 0), x) == x);
	lego_expr *xy = lego_mul(ctx, x, y);
	/* 3xy - 2yx + 4 - 4 = xy */
	lego_expr *e = lego_add(ctx, lego_mul(ctx, C(ctx, 3), xy),
				lego_mul(ctx, C(ctx, -2), lego_mul(ctx, y, x)));
	CHECK(t, lego_sub(ctx, lego_add(ctx, e, C(ctx, 4)), C(ctx, 4)) == xy);
	/* Coefficient first in a product. */
	lego_expr *m = lego_mul(ctx, lego_mul(ctx, y, C(ctx, 3)),
				lego_mul(ctx, x, C(ctx, 5)));
	CHECK(t, m->kind == LEGO_MUL && m->nargs == 3 &&
		     m->args[0] == C(ctx, 15));
	/* No distribution over sums. */
	lego_expr *s = lego_add(ctx, x, y);
	lego_expr *d = lego_mul(ctx, C(ctx, 2), s);
	CHECK(t, d->kind == LEGO_MUL && d->args[1] == s);
	CHECK(t, lego_sub(ctx, d, s) == s); /* 2s - s combines: like terms */
	/* Constants first, symbols by name, then by kind. */
	CHECK(t, lego_expr_cmp(C(ctx, 100), x) < 0);
	CHECK(t, lego_expr_cmp(C(ctx, -5), C(ctx, 3)) < 0);
	CHECK(t, lego_expr_cmp(x, y) < 0 && lego_expr_cmp(y, x) > 0);
	CHECK(t, lego_expr_cmp(y, s) < 0);
	CHECK(t, lego_expr_cmp(s, xy) < 0); /* ADD before MUL */
	CHECK_EQ(t, lego_expr_cmp(xy, lego_mul(ctx, y, x)), 0);
	lego_ctx_free(ctx);
}

static void test_identities(lego_test *t)
{
	test_case(t, "identities");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *lt = lego_binop(ctx, LEGO_LT, x, y);
	CHECK(t, lego_div(ctx, x, C(ctx, 1)) == x);
	CHECK(t, lego_mod(ctx, x, C(ctx, 1)) == C(ctx, 0));
	CHECK(t, lego_mod(ctx, x, C(ctx, -1)) == C(ctx, 0));
	CHECK(t, lego_div(ctx, C(ctx, 0), C(ctx, 7)) == C(ctx, 0));
	/* 0/x: x could be 0, so it stays. */
	CHECK(t, lego_div(ctx, C(ctx, 0), x)->kind == LEGO_DIV);
	CHECK(t, lego_div(ctx, x, C(ctx, 0))->kind == LEGO_DIV);
	CHECK(t, lego_min(ctx, x, x) == x && lego_max(ctx, y, y) == y);
	CHECK(t, lego_min(ctx, x, y) == lego_min(ctx, y, x));
	CHECK(t, lego_select(ctx, C(ctx, 3), x, y) == x);
	CHECK(t, lego_select(ctx, C(ctx, 0), x, y) == y);
	CHECK(t, lego_select(ctx, lt, x, x) == x);
	CHECK(t, lego_select(ctx, lego_not(ctx, x), x, y) ==
		     lego_select(ctx, x, y, x));
	CHECK(t, lego_binop(ctx, LEGO_EQ, x, x) == C(ctx, 1));
	CHECK(t, lego_binop(ctx, LEGO_LE, x, x) == C(ctx, 1));
	CHECK(t, lego_binop(ctx, LEGO_NE, x, x) == C(ctx, 0));
	CHECK(t, lego_binop(ctx, LEGO_LT, x, x) == C(ctx, 0));
	CHECK(t, lego_not(ctx, lt) == lego_binop(ctx, LEGO_LE, y, x));
	CHECK(t, lego_not(ctx, lego_not(ctx, lt)) == lt);
	CHECK(t, lego_not(ctx, lego_not(ctx, x)) != x); /* x is not 0/1 */
	CHECK(t, lego_binop(ctx, LEGO_AND, lt, C(ctx, 1)) == lt);
	CHECK(t, lego_binop(ctx, LEGO_AND, x, C(ctx, 1)) != x);
	/* AND and OR keep their order: the left operand guards the right. */
	lego_expr *a = lego_binop(ctx, LEGO_AND, y, x);
	CHECK(t, a->args[0] == y && a->args[1] == x);
	CHECK(t, lego_binop(ctx, LEGO_BXOR, x, x) == C(ctx, 0));
	CHECK(t, lego_binop(ctx, LEGO_SHL, x, C(ctx, 0)) == x);
	CHECK(t, lego_binop(ctx, LEGO_ADD, x, y) == lego_add(ctx, x, y));
	CHECK(t, lego_binop(ctx, LEGO_NOT, x, y) == NULL);
	CHECK(t, lego_isqrt(ctx, C(ctx, 99)) == C(ctx, 9));
	CHECK(t, lego_isqrt(ctx, C(ctx, -1))->kind == LEGO_ISQRT);
	lego_ctx_free(ctx);
}

/* ------------------------------------------- folding vs. independent ref */

/* Independent value of `a kind b`; 0 when undefined. */
static int ref_binary(lego_expr_kind kind, int64_t a, int64_t b, int64_t *r)
{
	switch (kind) {
	case LEGO_DIV: if (!b) return 0; *r = ref_floordiv(a, b); return 1;
	case LEGO_MOD: if (!b) return 0; *r = ref_floormod(a, b); return 1;
	case LEGO_MIN: *r = a <= b ? a : b; return 1;
	case LEGO_MAX: *r = a >= b ? a : b; return 1;
	case LEGO_EQ: *r = a == b; return 1;
	case LEGO_NE: *r = a != b; return 1;
	case LEGO_LT: *r = a < b; return 1;
	case LEGO_LE: *r = a <= b; return 1;
	case LEGO_AND: *r = a && b; return 1;
	case LEGO_OR: *r = a || b; return 1;
	case LEGO_BAND: *r = a & b; return 1;
	case LEGO_BOR: *r = a | b; return 1;
	case LEGO_BXOR: *r = a ^ b; return 1;
	case LEGO_SHL: /* a * 2^b */
		if (b < 0 || b > 62) return 0;
		*r = a * ((int64_t)1 << b); return 1;
	case LEGO_SHR: /* floor(a / 2^b) */
		if (b < 0 || b > 62) return 0;
		*r = ref_floordiv(a, (int64_t)1 << b); return 1;
	default: return 0;
	}
}

static void check_fold(lego_test *t, lego_ctx *ctx, lego_env *env,
		       lego_expr_kind kind, int64_t a, int64_t b)
{
	int64_t want, got, v;
	int defined = ref_binary(kind, a, b, &want);
	lego_expr *e = lego_binop(ctx, kind, C(ctx, a), C(ctx, b));
	int folded = lego_expr_is_const(e, &got);
	CHECKF(t, folded == defined && (!defined || got == want),
	       "kind %d: %lld, %lld folds to %lld (folded %d), want %lld",
	       (int)kind, (long long)a, (long long)b, (long long)got, folded,
	       (long long)want);
	/* The same through eval of a symbolic node. */
	lego_env_bind(env, lego_sym(ctx, "a"), a);
	lego_env_bind(env, lego_sym(ctx, "b"), b);
	lego_expr *s = lego_binop(ctx, kind, lego_sym(ctx, "a"),
				  lego_sym(ctx, "b"));
	int rc = eval1(ctx, s, env, &v);
	CHECKF(t, (rc == LEGO_OK) == defined && (!defined || v == want),
	       "kind %d: eval %lld, %lld = %lld (rc %d), want %lld",
	       (int)kind, (long long)a, (long long)b, (long long)v, rc,
	       (long long)want);
}

static void test_fold_small(lego_test *t)
{
	test_case(t, "fold_and_eval_vs_reference");
	static const lego_expr_kind kinds[] = {
		LEGO_DIV, LEGO_MOD, LEGO_MIN, LEGO_MAX, LEGO_EQ, LEGO_NE,
		LEGO_LT, LEGO_LE, LEGO_AND, LEGO_OR, LEGO_BAND, LEGO_BOR,
		LEGO_BXOR, LEGO_SHL, LEGO_SHR};
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		for (int64_t a = -20; a <= 20; a++)
			for (int64_t b = -20; b <= 20; b++)
				check_fold(t, ctx, env, kinds[k], a, b);
	for (int64_t a = -20; a <= 20; a++) {
		int64_t v;
		CHECK(t, lego_not(ctx, C(ctx, a)) == C(ctx, a == 0));
		CHECK(t, lego_neg(ctx, C(ctx, a)) == C(ctx, -a));
		lego_env_bind(env, lego_sym(ctx, "a"), a);
		CHECK(t, eval1(ctx, lego_not(ctx, lego_sym(ctx, "a")), env,
			       &v) == LEGO_OK &&
			     v == (a == 0));
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

static void test_isqrt(lego_test *t)
{
	test_case(t, "isqrt_exact");
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *x = lego_sym(ctx, "x"), *r = lego_isqrt(ctx, x);
	rng g = {12345};
	for (int k = 0; k < 20000; k++) {
		int64_t a;
		if (k < 10000)
			a = k;
		else if (k < 15000) /* around large squares */
			a = (int64_t)(rng_next(&g) % 3037000499u) *
				    (int64_t)(rng_next(&g) % 3037000499u) +
			    rng_range(&g, -2, 2);
		else
			a = (int64_t)(rng_next(&g) >> 1);
		if (k == 15000)
			a = INT64_MAX;
		if (a < 0)
			a = 0;
		int64_t v = -1;
		lego_env_bind(env, x, a);
		int rc = eval1(ctx, r, env, &v);
		__int128 lo = (__int128)v * v, hi = (__int128)(v + 1) * (v + 1);
		CHECKF(t, rc == LEGO_OK && lo <= a && a < hi,
		       "isqrt(%lld) = %lld", (long long)a, (long long)v);
	}
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------ errors */

static void check_error(lego_test *t, lego_ctx *ctx, lego_expr *e,
			lego_env *env, int status, const char *needle)
{
	int64_t v;
	int rc = eval1(ctx, e, env, &v);
	CHECKF(t, rc == status, "rc %d, expected %d (%s)", rc, status,
	       lego_ctx_error(ctx));
	CHECKF(t, strstr(lego_ctx_error(ctx), needle) != NULL,
	       "message \"%s\" lacks \"%s\"", lego_ctx_error(ctx), needle);
}

static void test_overflow(lego_test *t)
{
	test_case(t, "overflow_and_errors");
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *big = C(ctx, INT64_MAX), *min = C(ctx, INT64_MIN);
	/* Folding keeps what would overflow, eval reports it. */
	lego_expr *e = lego_add(ctx, big, C(ctx, 1));
	CHECK(t, !lego_expr_is_const(e, NULL));
	check_error(t, ctx, e, NULL, LEGO_EOVERFLOW, "overflow");
	e = lego_div(ctx, min, C(ctx, -1));
	CHECK(t, e->kind == LEGO_DIV);
	check_error(t, ctx, e, NULL, LEGO_EOVERFLOW, "division");
	CHECK(t, lego_mod(ctx, min, C(ctx, -1)) == C(ctx, 0));
	e = lego_mul(ctx, C(ctx, INT64_MAX / 2 + 1), C(ctx, 2));
	CHECK(t, !lego_expr_is_const(e, NULL));
	check_error(t, ctx, e, NULL, LEGO_EOVERFLOW, "multiplication");
	CHECK(t, lego_neg(ctx, min)->kind == LEGO_MUL);
	/* Symbolic: values only known at eval. */
	lego_env_bind(env, x, INT64_MAX);
	lego_env_bind(env, y, 3037000500);
	check_error(t, ctx, lego_add(ctx, x, C(ctx, 1)), env, LEGO_EOVERFLOW,
		    "addition");
	check_error(t, ctx, lego_mul(ctx, y, y), env, LEGO_EOVERFLOW,
		    "multiplication");
	check_error(t, ctx, lego_mul(ctx, lego_mul(ctx, x, x), y), env,
		    LEGO_EOVERFLOW, "multiplication");
	/* Exact sums whatever the term order: MAX + 1 - 1 is fine. */
	int64_t v;
	e = lego_add(ctx, lego_add(ctx, x, y), lego_neg(ctx, y));
	CHECK(t, eval1(ctx, e, env, &v) == LEGO_OK && v == INT64_MAX);
	lego_env_bind(env, y, 0);
	e = lego_mul(ctx, lego_mul(ctx, x, x), y); /* x*x*0 = 0 */
	CHECK(t, eval1(ctx, e, env, &v) == LEGO_OK && v == 0);
	check_error(t, ctx, lego_div(ctx, x, y), env, LEGO_EDIVZERO,
		    "division by zero");
	check_error(t, ctx, lego_mod(ctx, x, y), env, LEGO_EDIVZERO,
		    "modulo by zero");
	/* Shifts. */
	lego_env_bind(env, x, 1);
	check_error(t, ctx, lego_binop(ctx, LEGO_SHL, x, C(ctx, 63)), env,
		    LEGO_ERANGE, "shift by 63");
	check_error(t, ctx, lego_binop(ctx, LEGO_SHR, x, C(ctx, -1)), env,
		    LEGO_ERANGE, "shift by -1");
	lego_env_bind(env, x, 3);
	check_error(t, ctx, lego_binop(ctx, LEGO_SHL, x, C(ctx, 62)), env,
		    LEGO_EOVERFLOW, "shift left");
	CHECK(t, lego_binop(ctx, LEGO_SHL, C(ctx, 3), C(ctx, 62))->kind ==
		     LEGO_SHL);
	lego_env_bind(env, x, -1);
	e = lego_binop(ctx, LEGO_SHL, x, C(ctx, 62));
	CHECK(t, eval1(ctx, e, env, &v) == LEGO_OK && v == INT64_MIN / 2);
	check_error(t, ctx, lego_isqrt(ctx, x), env, LEGO_ERANGE, "isqrt");
	/* Unbound symbols name themselves. */
	lego_expr *z = lego_sym(ctx, "zeta");
	check_error(t, ctx, lego_add(ctx, z, C(ctx, 1)), env, LEGO_EUNBOUND,
		    "'zeta'");
	check_error(t, ctx, z, NULL, LEGO_EUNBOUND, "'zeta'");
	/* Guards: select and && evaluate only what they need. */
	lego_env_bind(env, y, 0);
	lego_expr *guard = lego_binop(ctx, LEGO_NE, y, C(ctx, 0));
	e = lego_binop(ctx, LEGO_AND, guard,
		       lego_binop(ctx, LEGO_LT, C(ctx, 1), lego_div(ctx, x, y)));
	CHECK(t, eval1(ctx, e, env, &v) == LEGO_OK && v == 0);
	e = lego_select(ctx, guard, lego_div(ctx, x, y), C(ctx, -7));
	CHECK(t, eval1(ctx, e, env, &v) == LEGO_OK && v == -7);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

static void test_env(lego_test *t)
{
	test_case(t, "env");
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *x = lego_sym(ctx, "x");
	int64_t v = 0;
	CHECK_EQ(t, lego_env_lookup(env, x, &v), LEGO_EUNBOUND);
	CHECK_EQ(t, lego_env_bind(env, C(ctx, 1), 3), LEGO_ERR);
	CHECK_EQ(t, lego_env_bind(env, lego_add(ctx, x, x), 3), LEGO_ERR);
	CHECK_EQ(t, lego_env_bind(env, x, -9), LEGO_OK);
	CHECK(t, lego_env_lookup(env, x, &v) == LEGO_OK && v == -9);
	/* Many symbols: the env grows. */
	char name[16];
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "s%d", i);
		lego_env_bind(env, lego_sym(ctx, name), i * 7);
	}
	int ok = 1;
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "s%d", i);
		ok &= lego_env_lookup(env, lego_sym(ctx, name), &v) == LEGO_OK &&
		      v == i * 7;
	}
	CHECK(t, ok);
	CHECK(t, lego_expr_sym_at(ctx, 300) == lego_sym(ctx, "s299"));
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* --------------------------------------------- random trees vs. reference */

enum top {
	T_CONST, T_VAR, T_ADD, T_SUB, T_NEG, T_MUL, T_DIV, T_MOD, T_MIN,
	T_MAX, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_AND, T_OR, T_NOT,
	T_SEL, T_BAND, T_BOR, T_BXOR, T_SHL, T_SHR, T_ISQRT, T_NOPS
};

typedef struct tnode {
	int op;
	int64_t v;       /* constant, variable number, or shift amount */
	int a, b, c;     /* children */
} tnode;

enum { NVARS = 4, MAXNODES = 256 };

typedef struct tree {
	tnode n[MAXNODES];
	int count;
} tree;

static int gen(tree *tr, rng *g, int depth)
{
	int i = tr->count++;
	tnode *n = &tr->n[i];
	int op = depth <= 0 || rng_range(g, 0, 3) == 0
			 ? (int)rng_range(g, T_CONST, T_VAR)
			 : (int)rng_range(g, T_ADD, T_NOPS - 1);
	n->op = op;
	if (op == T_CONST)
		n->v = rng_range(g, -6, 6);
	else if (op == T_VAR)
		n->v = rng_range(g, 0, NVARS - 1);
	else if (op == T_SHL || op == T_SHR)
		n->v = rng_range(g, 0, 4);
	if (op < T_ADD)
		return i;
	int a = gen(tr, g, depth - 1);
	tr->n[i].a = a;
	if (op == T_NEG || op == T_NOT || op == T_ISQRT || op == T_SHL ||
	    op == T_SHR)
		return i;
	int b = gen(tr, g, depth - 1);
	tr->n[i].b = b;
	if (op == T_SEL)
		tr->n[i].c = gen(tr, g, depth - 1);
	return i;
}

/* Direct evaluation of the tree as written, in __int128 with every
 * intermediate required to fit int64; 0 when undefined. */
static int ref_eval(const tree *tr, int i, const int64_t *vars, int64_t *out)
{
	const tnode *n = &tr->n[i];
	int64_t a = 0, b = 0, c = 0;
	__int128 r;
	switch (n->op) {
	case T_CONST: *out = n->v; return 1;
	case T_VAR: *out = vars[n->v]; return 1;
	case T_AND: case T_OR:
		if (!ref_eval(tr, n->a, vars, &a))
			return 0;
		if ((n->op == T_AND) == (a == 0)) {
			*out = a != 0;
			return 1;
		}
		if (!ref_eval(tr, n->b, vars, &b))
			return 0;
		*out = b != 0;
		return 1;
	case T_SEL:
		if (!ref_eval(tr, n->a, vars, &c))
			return 0;
		return ref_eval(tr, c ? n->b : n->c, vars, out);
	default: break;
	}
	if (!ref_eval(tr, n->a, vars, &a))
		return 0;
	int unary = n->op == T_NEG || n->op == T_NOT || n->op == T_ISQRT ||
		    n->op == T_SHL || n->op == T_SHR;
	if (!unary && !ref_eval(tr, n->b, vars, &b))
		return 0;
	switch (n->op) {
	case T_ADD: r = (__int128)a + b; break;
	case T_SUB: r = (__int128)a - b; break;
	case T_NEG: r = -(__int128)a; break;
	case T_MUL: r = (__int128)a * b; break;
	case T_NOT: r = a == 0; break;
	case T_ISQRT:
		if (a < 0)
			return 0;
		for (r = 0; (r + 1) * (r + 1) <= a; r++)
			;
		break;
	case T_SHL: r = (__int128)a * ((int64_t)1 << n->v); break;
	case T_SHR: r = ref_floordiv(a, (int64_t)1 << n->v); break;
	case T_GT: r = a > b; break;
	case T_GE: r = a >= b; break;
	default: {
		static const lego_expr_kind kinds[] = {
			[T_DIV] = LEGO_DIV, [T_MOD] = LEGO_MOD,
			[T_MIN] = LEGO_MIN, [T_MAX] = LEGO_MAX,
			[T_EQ] = LEGO_EQ,   [T_NE] = LEGO_NE,
			[T_LT] = LEGO_LT,   [T_LE] = LEGO_LE,
			[T_BAND] = LEGO_BAND, [T_BOR] = LEGO_BOR,
			[T_BXOR] = LEGO_BXOR};
		int64_t v;
		if (!ref_binary(kinds[n->op], a, b, &v))
			return 0;
		r = v;
	}
	}
	if (r < INT64_MIN || r > INT64_MAX)
		return 0;
	*out = (int64_t)r;
	return 1;
}

/* The same tree through the canonicalising constructors. */
static lego_expr *build(lego_ctx *ctx, const tree *tr, int i,
			lego_expr *const *vars)
{
	const tnode *n = &tr->n[i];
	if (n->op == T_CONST)
		return C(ctx, n->v);
	if (n->op == T_VAR)
		return vars[n->v];
	lego_expr *a = build(ctx, tr, n->a, vars), *b = NULL;
	switch (n->op) {
	case T_NEG: return lego_neg(ctx, a);
	case T_NOT: return lego_not(ctx, a);
	case T_ISQRT: return lego_isqrt(ctx, a);
	case T_SHL: return lego_binop(ctx, LEGO_SHL, a, C(ctx, n->v));
	case T_SHR: return lego_binop(ctx, LEGO_SHR, a, C(ctx, n->v));
	default: break;
	}
	b = build(ctx, tr, n->b, vars);
	switch (n->op) {
	case T_ADD: return lego_add(ctx, a, b);
	case T_SUB: return lego_sub(ctx, a, b);
	case T_MUL: return lego_mul(ctx, a, b);
	case T_DIV: return lego_div(ctx, a, b);
	case T_MOD: return lego_mod(ctx, a, b);
	case T_MIN: return lego_min(ctx, a, b);
	case T_MAX: return lego_max(ctx, a, b);
	case T_EQ: return lego_binop(ctx, LEGO_EQ, a, b);
	case T_NE: return lego_binop(ctx, LEGO_NE, a, b);
	case T_LT: return lego_binop(ctx, LEGO_LT, a, b);
	case T_LE: return lego_binop(ctx, LEGO_LE, a, b);
	case T_GT: return lego_binop(ctx, LEGO_LT, b, a);
	case T_GE: return lego_binop(ctx, LEGO_LE, b, a);
	case T_AND: return lego_binop(ctx, LEGO_AND, a, b);
	case T_OR: return lego_binop(ctx, LEGO_OR, a, b);
	case T_BAND: return lego_binop(ctx, LEGO_BAND, a, b);
	case T_BOR: return lego_binop(ctx, LEGO_BOR, a, b);
	case T_BXOR: return lego_binop(ctx, LEGO_BXOR, a, b);
	case T_SEL:
		return lego_select(ctx, a, b, build(ctx, tr, n->c, vars));
	default: return NULL;
	}
}

static void test_random_trees(lego_test *t)
{
	test_case(t, "random_trees_vs_interpreter");
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *vars[NVARS];
	static const char *const names[NVARS] = {"w", "x", "y", "z"};
	for (int v = 0; v < NVARS; v++)
		vars[v] = lego_sym(ctx, names[v]);
	rng g = {0x5eed};
	int checked = 0;
	for (int k = 0; k < 3000; k++) {
		tree tr = {.count = 0};
		gen(&tr, &g, 5);
		lego_expr *e = build(ctx, &tr, 0, vars);
		CHECK(t, e != NULL);
		for (int s = 0; s < 8 && e; s++) {
			int64_t vals[NVARS], want, got;
			for (int v = 0; v < NVARS; v++) {
				vals[v] = rng_range(&g, -30, 30);
				lego_env_bind(env, vars[v], vals[v]);
			}
			if (!ref_eval(&tr, 0, vals, &want))
				continue; /* canonical forms may drop errors */
			checked++;
			int rc = eval1(ctx, e, env, &got);
			CHECKF(t, rc == LEGO_OK && got == want,
			       "tree %d: got %lld (rc %d: %s), want %lld", k,
			       (long long)got, rc, lego_ctx_error(ctx),
			       (long long)want);
		}
	}
	CHECKF(t, checked > 10000, "only %d evaluations checked", checked);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* The symbols below e by a plain tree walk through the public accessors
 * (exponential on shared DAGs: only for small trees), marked in seen. */
static void naive_symbols(const lego_expr *e, lego_expr *const *vars,
			  int nvars, int *seen)
{
	for (int v = 0; v < nvars; v++)
		seen[v] |= e == vars[v];
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		naive_symbols(lego_expr_arg(e, i), vars, nvars, seen);
}

/* lego_expr_symbols: the same set as a tree walk, on random trees, in
 * declaration order; linear on a DAG whose tree is 2^60 nodes. */
static void test_symbols(lego_test *t)
{
	test_case(t, "expr_symbols");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *vars[NVARS];
	/* Declared z, y, x, w: the result's order is not the names'. */
	static const char *const names[NVARS] = {"z", "y", "x", "w"};
	for (int v = 0; v < NVARS; v++)
		vars[v] = lego_sym(ctx, names[v]);
	rng g = {0x51b5};
	for (int k = 0; k < 500; k++) {
		tree tr = {.count = 0};
		gen(&tr, &g, 5);
		lego_expr *e = build(ctx, &tr, 0, vars), **syms = (void *)1;
		size_t n = 99;
		int seen[NVARS] = {0}, want = 0;
		if (!e)
			continue;
		naive_symbols(e, vars, NVARS, seen);
		CHECK_EQ(t, lego_expr_symbols(ctx, e, &syms, &n), LEGO_OK);
		size_t got = 0;
		for (int v = 0; v < NVARS; v++)
			if (seen[v]) {
				want++;
				CHECKF(t, got < n && syms[got] == vars[v],
				       "tree %d: symbol %zu is not %s", k, got,
				       names[v]);
				got++;
			}
		CHECKF(t, n == (size_t)want, "tree %d: %zu symbols, want %d",
		       k, n, want);
		CHECK(t, n || !syms);
		free(syms);
	}
	/* A chain e_{k+1} = e_k * e_k + x_k: its tree doubles per link. */
	lego_expr *e = vars[0], **syms = NULL;
	size_t n = 0;
	for (int k = 0; k < 60; k++)
		e = lego_add(ctx, lego_mul(ctx, e, e), vars[k % 3]);
	CHECK_EQ(t, lego_expr_symbols(ctx, e, &syms, &n), LEGO_OK);
	CHECK(t, n == 3 && syms && syms[0] == vars[0] &&
		 syms[1] == vars[1] && syms[2] == vars[2]);
	free(syms);
	/* A constant has none; a symbol is its own. */
	CHECK_EQ(t, lego_expr_symbols(ctx, C(ctx, 7), &syms, &n), LEGO_OK);
	CHECK(t, n == 0 && !syms);
	CHECK_EQ(t, lego_expr_symbols(ctx, vars[3], &syms, &n), LEGO_OK);
	CHECK(t, n == 1 && syms && syms[0] == vars[3]);
	free(syms);
	lego_ctx_free(ctx);
}

/* subst(e, x := f) evaluates as e with x bound to the value of f. */
static void test_subst(lego_test *t)
{
	test_case(t, "subst");
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = lego_env_new(ctx);
	lego_expr *vars[NVARS];
	static const char *const names[NVARS] = {"w", "x", "y", "z"};
	for (int v = 0; v < NVARS; v++)
		vars[v] = lego_sym(ctx, names[v]);
	/* Exact results on small cases. */
	lego_expr *x = vars[1], *y = vars[2], *z = vars[3];
	lego_expr *e = lego_add(ctx, lego_mul(ctx, x, y), x);
	lego_expr *to = lego_add(ctx, z, C(ctx, 1));
	CHECK(t, lego_expr_subst(ctx, e, 1, &x, &to) ==
		     lego_add(ctx, lego_mul(ctx, to, y), to));
	lego_expr *from2[2] = {x, y}, *to2[2] = {y, x}; /* simultaneous */
	CHECK(t, lego_expr_subst(ctx, lego_sub(ctx, x, y), 2, from2, to2) ==
		     lego_sub(ctx, y, x));
	lego_expr *zero = C(ctx, 0);
	CHECK(t, lego_expr_subst(ctx, e, 1, &x, &zero) == zero);
	CHECK(t, lego_expr_subst(ctx, e, 0, NULL, NULL) == e);
	CHECK(t, lego_expr_subst(ctx, e, 1, &to, &x) == NULL); /* not sym */
	rng g = {77};
	int checked = 0;
	for (int k = 0; k < 1000; k++) {
		tree tr = {.count = 0}, tf = {.count = 0};
		gen(&tr, &g, 4);
		gen(&tf, &g, 3);
		lego_expr *f = build(ctx, &tf, 0, vars);
		lego_expr *s = lego_expr_subst(ctx, build(ctx, &tr, 0, vars),
					       1, &vars[0], &f);
		int64_t vals[NVARS], fv, want, got;
		for (int v = 0; v < NVARS; v++) {
			vals[v] = rng_range(&g, -20, 20);
			lego_env_bind(env, vars[v], vals[v]);
		}
		if (!ref_eval(&tf, 0, vals, &fv))
			continue;
		vals[0] = fv;
		if (!ref_eval(&tr, 0, vals, &want))
			continue;
		checked++;
		int rc = eval1(ctx, s, env, &got);
		CHECKF(t, rc == LEGO_OK && got == want,
		       "case %d: got %lld (rc %d), want %lld", k,
		       (long long)got, rc, (long long)want);
	}
	CHECKF(t, checked > 300, "only %d substitutions checked", checked);
	lego_env_free(env);
	lego_ctx_free(ctx);
}

/* ------------------------------------------------------------- printing */

static void test_print_python(lego_test *t)
{
	test_case(t, "print_python");
	lego_ctx *ctx = lego_ctx_new();
	lego_lang py = LEGO_LANG_PYTHON;
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *i = lego_index(ctx, "i", NULL, x);
	lego_expr *lt = lego_binop(ctx, LEGO_LT, x, y);
	CHECK(t, prints_as(ctx, lego_add(ctx, x, C(ctx, 1)), py, "x + 1"));
	CHECK(t, prints_as(ctx, lego_sub(ctx, x, C(ctx, 1)), py, "x - 1"));
	CHECK(t, prints_as(ctx, lego_sub(ctx, x, y), py, "x - y"));
	CHECK(t, prints_as(ctx, lego_sub(ctx, y, x), py, "y - x"));
	CHECK(t, prints_as(ctx, lego_neg(ctx, x), py, "-x"));
	CHECK(t, prints_as(ctx, C(ctx, -4), py, "-4"));
	CHECK(t, prints_as(ctx, lego_sub(ctx, lego_neg(ctx, x), y), py,
			   "-x - y"));
	CHECK(t, prints_as(ctx, lego_sub(ctx, C(ctx, 3), x), py, "3 - x"));
	CHECK(t, prints_as(ctx, lego_mul(ctx, C(ctx, 3), lego_add(ctx, x, y)),
			   py, "3 * (x + y)"));
	CHECK(t, prints_as(ctx,
			   lego_sub(ctx, x, lego_mul(ctx, C(ctx, 2), y)), py,
			   "x - 2 * y"));
	CHECK(t, prints_as(ctx, lego_div(ctx, lego_add(ctx, i, C(ctx, 1)), y),
			   py, "(i + 1) // y"));
	CHECK(t, prints_as(ctx, lego_mul(ctx, C(ctx, 4), lego_div(ctx, i, y)),
			   py, "4 * (i // y)"));
	CHECK(t, prints_as(ctx, lego_mod(ctx, lego_div(ctx, i, y), x), py,
			   "i // y % x"));
	CHECK(t, prints_as(ctx, lego_div(ctx, i, lego_mul(ctx, x, y)), py,
			   "i // (x * y)"));
	CHECK(t, prints_as(ctx, lego_min(ctx, x, lego_add(ctx, y, i)), py,
			   "min(x, i + y)"));
	CHECK(t, prints_as(ctx, lego_max(ctx, x, y), py, "max(x, y)"));
	CHECK(t, prints_as(ctx, lego_select(ctx, lt, x, C(ctx, 0)), py,
			   "(x if x < y else 0)"));
	CHECK(t, prints_as(ctx, lego_isqrt(ctx, x), py, "math.isqrt(x)"));
	CHECK(t, prints_as(ctx, lego_not(ctx, lego_binop(ctx, LEGO_AND, lt, x)),
			   py, "not (x < y and x != 0)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_OR, lt,
					   lego_binop(ctx, LEGO_EQ, x, i)),
			   py, "x < y or i == x"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_EQ, lt, C(ctx, 0)), py,
			   "0 == (x < y)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_BXOR, i,
					   lego_binop(ctx, LEGO_SHR, i,
						      C(ctx, 3))),
			   py, "i ^ (i >> 3)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_BAND,
					   lego_add(ctx, i, C(ctx, 1)), x),
			   py, "x & (i + 1)"));
	lego_ctx_free(ctx);
}

static void test_print_c(lego_test *t)
{
	test_case(t, "print_c");
	lego_ctx *ctx = lego_ctx_new();
	lego_lang c = LEGO_LANG_C;
	lego_expr *x = lego_sym(ctx, "x"), *y = lego_sym(ctx, "y");
	lego_expr *i = lego_index(ctx, "i", NULL, x);
	lego_expr *j = lego_index(ctx, "j", C(ctx, -4), NULL);
	/* Provably nonnegative / positive: plain C operators. */
	CHECK(t, prints_as(ctx, lego_div(ctx, i, y), c, "i / y"));
	CHECK(t, prints_as(ctx, lego_mod(ctx, lego_add(ctx, i, x), C(ctx, 8)),
			   c, "(i + x) % 8"));
	/* j may be negative: exact floor forms. */
	CHECK(t, prints_as(ctx, lego_div(ctx, j, C(ctx, 4)), c,
			   "(j / 4 - (j % 4 < 0))"));
	CHECK(t, prints_as(ctx, lego_mod(ctx, j, C(ctx, 4)), c,
			   "(j % 4 + (j % 4 < 0 ? 4 : 0))"));
	/* -y < 0 (sizes are positive): a floor fix when the remainder is
	 * positive, no sign comparison left to run. */
	CHECK(t, prints_as(ctx, lego_div(ctx, i, lego_neg(ctx, y)), c,
			   "(i / -y - (i % -y > 0))"));
	CHECK(t, prints_as(ctx, lego_mod(ctx, i, lego_neg(ctx, y)), c,
			   "(i % -y + (i % -y > 0 ? -y : 0))"));
	CHECK(t, prints_as(ctx, lego_min(ctx, x, y), c, "(x < y ? x : y)"));
	CHECK(t, prints_as(ctx, lego_max(ctx, x, y), c, "(x > y ? x : y)"));
	CHECK(t, prints_as(ctx, lego_select(ctx, lego_binop(ctx, LEGO_LT, x, y),
					    x, y),
			   c, "(x < y ? x : y)"));
	CHECK(t, prints_as(ctx, lego_not(ctx, lego_binop(ctx, LEGO_AND, x, y)),
			   c, "!(x && y)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_OR,
					   lego_binop(ctx, LEGO_AND, x, y), i),
			   c, "(x && y) || i"));
	CHECK(t, prints_as(ctx, lego_isqrt(ctx, x), c, "lego_isqrt(x)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_SHL, i, C(ctx, 2)), c,
			   "i << 2"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_SHL, j, C(ctx, 2)), c,
			   "j * (1LL << 2)"));
	CHECK(t, prints_as(ctx, C(ctx, INT64_MIN), c,
			   "(-9223372036854775807LL - 1)"));
	CHECK(t, prints_as(ctx, lego_binop(ctx, LEGO_EQ,
					   lego_binop(ctx, LEGO_LT, x, y), i),
			   c, "i == (x < y)"));
	lego_ctx_free(ctx);
}

/* ---------------------------------------------------------- CSE and ops */

static void test_cse(lego_test *t)
{
	test_case(t, "cse_print");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *x = lego_index(ctx, "x", NULL, NULL);
	lego_expr *a = lego_sym(ctx, "a"), *b = lego_sym(ctx, "b");
	lego_expr *ab = lego_mul(ctx, a, b);
	lego_expr *es[2] = {lego_add(ctx, lego_div(ctx, x, ab),
				     lego_mod(ctx, x, ab)),
			    lego_div(ctx, x, ab)};
	const char *names[2] = {"q", "r"};
	char *s = lego_exprs_print(ctx, 2, es, names, "t", LEGO_LANG_C);
	CHECKF(t, s && !strcmp(s, "const long long t0 = a * b;\n"
				  "const long long t1 = x / t0;\n"
				  "q = t1 + x % t0;\n"
				  "r = t1;\n"),
	       "got:\n%s", s);
	free(s);
	s = lego_exprs_print(ctx, 2, es, names, "tmp", LEGO_LANG_PYTHON);
	CHECKF(t, s && !strcmp(s, "tmp0 = a * b\n"
				  "tmp1 = x // tmp0\n"
				  "q = tmp1 + x % tmp0\n"
				  "r = tmp1\n"),
	       "got:\n%s", s);
	free(s);
	/* Nothing shared: no temporaries; leaves are never temporaries. */
	lego_expr *one[1] = {lego_add(ctx, lego_mul(ctx, x, x), x)};
	s = lego_exprs_print(ctx, 1, one, names, "t", LEGO_LANG_PYTHON);
	CHECKF(t, s && !strcmp(s, "q = x + x * x\n"), "got:\n%s", s);
	free(s);
	/* A shared negation is a temporary, not a subtraction. */
	lego_expr *nx = lego_neg(ctx, lego_mul(ctx, a, x));
	lego_expr *two[2] = {lego_add(ctx, b, nx), nx};
	s = lego_exprs_print(ctx, 2, two, names, "t", LEGO_LANG_PYTHON);
	CHECKF(t, s && !strcmp(s, "t0 = -a * x\nq = b + t0\nr = t0\n"),
	       "got:\n%s", s);
	free(s);
	CHECK_EQ(t, lego_expr_ops(two, 2), 3); /* a*x, neg, + */
	lego_ctx_free(ctx);
}

static void test_ops(lego_test *t)
{
	test_case(t, "ops_count");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *tm = lego_sym(ctx, "tm"), *r = lego_sym(ctx, "r");
	lego_expr *tk = lego_sym(ctx, "tk"), *c = lego_sym(ctx, "c");
	lego_expr *BM = lego_sym(ctx, "BM"), *BK = lego_sym(ctx, "BK");
	lego_expr *K = lego_sym(ctx, "K"), *x = lego_sym(ctx, "x");
	lego_expr *a = lego_sym(ctx, "a"), *b = lego_sym(ctx, "b");
	/* (tm*BM + r)*K + tk*BK + c: tm*BM, +r, *K, tk*BK, +, + = 6. */
	lego_expr *e = lego_add(
		ctx,
		lego_add(ctx,
			 lego_mul(ctx, lego_add(ctx, lego_mul(ctx, tm, BM), r),
				  K),
			 lego_mul(ctx, tk, BK)),
		c);
	CHECK_EQ(t, lego_expr_ops(&e, 1), 6);
	/* x/(a*b) + x%(a*b), a*b shared: a*b, /, %, + = 4. */
	lego_expr *ab = lego_mul(ctx, a, b);
	e = lego_add(ctx, lego_div(ctx, x, ab), lego_mod(ctx, x, ab));
	CHECK_EQ(t, lego_expr_ops(&e, 1), 4);
	/* Across expressions: a*b counted once: 4 + 1 (the *x). */
	lego_expr *two[2] = {e, lego_div(ctx, ab, x)};
	CHECK_EQ(t, lego_expr_ops(two, 2), 5);
	/* Leaves cost nothing. */
	lego_expr *leaves[2] = {x, C(ctx, 3)};
	CHECK_EQ(t, lego_expr_ops(leaves, 2), 0);
	/* x - y: the -1 is absorbed by the subtraction: 1. */
	e = lego_sub(ctx, x, a);
	CHECK_EQ(t, lego_expr_ops(&e, 1), 1);
	/* -x alone: 1; -x - a: negation + subtraction = 2. */
	e = lego_neg(ctx, x);
	CHECK_EQ(t, lego_expr_ops(&e, 1), 1);
	e = lego_sub(ctx, lego_neg(ctx, x), a);
	CHECK_EQ(t, lego_expr_ops(&e, 1), 2);
	/* 3 - x - 2*a: -, -, 2* = 3. */
	e = lego_sub(ctx, lego_sub(ctx, C(ctx, 3), x),
		     lego_mul(ctx, C(ctx, 2), a));
	CHECK_EQ(t, lego_expr_ops(&e, 1), 3);
	/* x - a*b: * and - = 2. */
	e = lego_sub(ctx, x, ab);
	CHECK_EQ(t, lego_expr_ops(&e, 1), 2);
	/* min, select, comparison, isqrt cost 1 each: 4. */
	e = lego_select(ctx, lego_binop(ctx, LEGO_LT, x, a),
			lego_min(ctx, x, a), lego_isqrt(ctx, b));
	CHECK_EQ(t, lego_expr_ops(&e, 1), 4);
	lego_ctx_free(ctx);
}

/* Operators in printed Python, counted on the text: binary + - * // %,
 * min/max calls, and unary minus on anything but a literal. */
static size_t count_printed_ops(const char *s)
{
	static const char *const bin[] = {" + ", " - ", " * ", " // ", " % ",
					  "min(", "max("};
	size_t n = 0;
	for (const char *p = s; *p; p++) {
		for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++)
			n += !strncmp(p, bin[k], strlen(bin[k]));
		n += *p == '-' && p[1] != ' ' && (p[1] < '0' || p[1] > '9');
	}
	return n;
}

static lego_expr *gen_arith(lego_ctx *ctx, rng *g, lego_expr *const *v,
			    int depth)
{
	if (depth <= 0 || rng_range(g, 0, 3) == 0)
		return rng_range(g, 0, 2) ? v[rng_range(g, 0, NVARS - 1)]
					  : C(ctx, rng_range(g, -4, 4));
	lego_expr *a = gen_arith(ctx, g, v, depth - 1);
	lego_expr *b = gen_arith(ctx, g, v, depth - 1);
	switch (rng_range(g, 0, 7)) {
	case 0: case 1: return lego_add(ctx, a, b);
	case 2: return lego_sub(ctx, a, b);
	case 3: return lego_neg(ctx, a);
	case 4: return lego_mul(ctx, a, b);
	case 5: return lego_div(ctx, a, b);
	case 6: return lego_mod(ctx, a, b);
	default: return lego_min(ctx, a, b);
	}
}

static void test_ops_match_printed(lego_test *t)
{
	test_case(t, "ops_match_printed_python");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *v[NVARS];
	static const char *const names[NVARS] = {"w", "x", "y", "z"};
	for (int k = 0; k < NVARS; k++)
		v[k] = lego_sym(ctx, names[k]);
	const char *outs[2] = {"r0", "r1"};
	rng g = {2024};
	for (int k = 0; k < 2000; k++) {
		lego_expr *es[2];
		es[0] = gen_arith(ctx, &g, v, 5);
		es[1] = lego_add(ctx, es[0], gen_arith(ctx, &g, v, 3));
		char *s = lego_exprs_print(ctx, 2, es, outs, "t",
					   LEGO_LANG_PYTHON);
		size_t want = s ? count_printed_ops(s) : 0;
		CHECKF(t, s && lego_expr_ops(es, 2) == want,
		       "ops %zu, printed %zu:\n%s", lego_expr_ops(es, 2), want,
		       s);
		free(s);
	}
	lego_ctx_free(ctx);
}

/* A matmul-like index expression built and printed many times: the hot
 * path must stay cheap (a loose bound that only catches blow-ups). */
static void test_speed(lego_test *t)
{
	test_case(t, "constructor_speed");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *s[8];
	static const char *const names[8] = {"M", "N", "K", "BM",
					     "BN", "BK", "i", "j"};
	for (int k = 0; k < 8; k++)
		s[k] = lego_sym(ctx, names[k]);
	size_t nodes_before = 0;
	for (int rep = 0; rep < 20000; rep++) {
		lego_expr *row = lego_add(ctx, lego_mul(ctx, s[6], s[3]),
					  lego_mod(ctx, s[7], s[4]));
		lego_expr *e = lego_add(ctx, lego_mul(ctx, row, s[2]),
					lego_div(ctx, s[7], s[4]));
		e = lego_sub(ctx, lego_add(ctx, e, s[5]), s[5]);
		if (rep == 0)
			nodes_before = ctx->pool->count;
		CHECK(t, e != NULL);
	}
	/* Hash-consing: the repetitions created no node. */
	CHECK_EQ(t, ctx->pool->count, nodes_before);
	lego_ctx_free(ctx);
}

void suite_expr(lego_test *t)
{
	test_hash_consing(t);
	test_index(t);
	test_order_independent(t);
	test_order_deterministic(t);
	test_canonical_shapes(t);
	test_identities(t);
	test_fold_small(t);
	test_isqrt(t);
	test_overflow(t);
	test_env(t);
	test_random_trees(t);
	test_symbols(t);
	test_subst(t);
	test_print_python(t);
	test_print_c(t);
	test_cse(t);
	test_ops(t);
	test_ops_match_printed(t);
	test_speed(t);
}
