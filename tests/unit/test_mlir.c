/* test_mlir.c - the MLIR emitter: the operations written for hand-checked
 * expressions (unsigned forms exactly where the ranges prove them, one SSA
 * value per DAG node, conversions between i1 and index), the names of
 * range variables, and the errors.  Running the generated code against
 * the numeric mapping is tests/mlir/run.sh. */
#include <stdlib.h>
#include <string.h>

#include "gen/targets.h"
#include "harness.h"

static lego_expr *C(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

static lego_expr *ix(lego_ctx *ctx, const char *name, int64_t lo, int64_t hi)
{
	return lego_index(ctx, name, C(ctx, lo), C(ctx, hi));
}

static void emitted_free(lego_emitted *out)
{
	free(out->prelude);
	for (size_t i = 0; i < out->n; i++)
		free(out->values[i]);
	free(out->values);
}

/* Emits es with prefix t and indent "  "; checks the prelude and the
 * values (want_values: the n names separated by spaces). */
static void emits(lego_test *t, lego_ctx *ctx, size_t n, lego_expr **es,
		  const lego_emit_range *ranges, size_t nranges,
		  const char *want_prelude, const char *want_values)
{
	lego_emit_request req = {LEGO_TARGET_MLIR, n, es, "t", "  ",
				 nranges, ranges, 0, NULL};
	lego_emitted out = {0};
	int rc = lego_emit_mlir(ctx, &req, &out);
	CHECKF(t, rc == LEGO_OK, "emit failed: %s", lego_ctx_error(ctx));
	if (rc != LEGO_OK)
		return;
	CHECKF(t, !strcmp(out.prelude, want_prelude), "prelude:\n%s\nwanted:\n%s",
	       out.prelude, want_prelude);
	char values[256] = "";
	for (size_t i = 0; i < out.n; i++) {
		strncat(values, i ? " " : "", sizeof values - strlen(values) - 1);
		strncat(values, out.values[i], sizeof values - strlen(values) - 1);
	}
	CHECK_EQ(t, out.n, n);
	CHECKF(t, !strcmp(values, want_values), "values '%s', wanted '%s'",
	       values, want_values);
	emitted_free(&out);
}

/* (i+j)*4 and (i+j)/n share i+j: one addi; i+j >= 0 and n >= 1 give the
 * unsigned division; the constant factor is written last. */
static void test_shared(lego_test *t)
{
	test_case(t, "mlir: a shared subexpression is one SSA value");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = ix(ctx, "i", 0, 8), *j = ix(ctx, "j", 0, 8);
	lego_expr *n = lego_sym(ctx, "n"), *ij = lego_add(ctx, i, j);
	lego_expr *es[] = {lego_mul(ctx, ij, C(ctx, 4)), lego_div(ctx, ij, n)};
	emits(t, ctx, 2, es, NULL, 0,
	      "  %t0 = arith.addi %i, %j : index\n"
	      "  %t1 = arith.constant 4 : index\n"
	      "  %t2 = arith.muli %t0, %t1 : index\n"
	      "  %t3 = arith.divui %t0, %n : index\n",
	      "%t2 %t3");
	lego_ctx_free(ctx);
}

/* i - 5 may be negative: floor division, floor modulo by remsi plus the
 * divisor when negative (n > 0), signed minimum. */
static void test_signed(lego_test *t)
{
	test_case(t, "mlir: signed forms where a numerator may be negative");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = ix(ctx, "i", 0, 8), *n = lego_sym(ctx, "n");
	lego_expr *d = lego_sub(ctx, i, C(ctx, 5));
	lego_expr *es[] = {lego_div(ctx, d, C(ctx, 4)), lego_mod(ctx, d, n),
			   lego_min(ctx, d, n)};
	emits(t, ctx, 3, es, NULL, 0,
	      "  %t0 = arith.constant 5 : index\n"
	      "  %t1 = arith.subi %i, %t0 : index\n"
	      "  %t2 = arith.constant 4 : index\n"
	      "  %t3 = arith.floordivsi %t1, %t2 : index\n"
	      "  %t4 = arith.remsi %t1, %n : index\n"
	      "  %t5 = arith.constant 0 : index\n"
	      "  %t6 = arith.cmpi slt, %t4, %t5 : index\n"
	      "  %t7 = arith.addi %t4, %n : index\n"
	      "  %t8 = arith.select %t6, %t7, %t4 : index\n"
	      "  %t9 = arith.minsi %n, %t1 : index\n",
	      "%t3 %t8 %t9");
	lego_ctx_free(ctx);
}

/* A divisor of unknown sign: a - floordiv(a, b) * b, exact for all signs;
 * max of non-negatives is unsigned; the floor modulo reuses a quotient
 * written already. */
static void test_divisor_sign(lego_test *t)
{
	test_case(t, "mlir: modulo by a divisor of unknown sign");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = ix(ctx, "i", 0, 8), *d = ix(ctx, "d", -3, 3);
	lego_expr *n = lego_sym(ctx, "n");
	lego_expr *es[] = {lego_mod(ctx, i, d), lego_max(ctx, i, n)};
	emits(t, ctx, 2, es, NULL, 0,
	      "  %t0 = arith.floordivsi %i, %d : index\n"
	      "  %t1 = arith.muli %t0, %d : index\n"
	      "  %t2 = arith.subi %i, %t1 : index\n"
	      "  %t3 = arith.maxui %i, %n : index\n",
	      "%t2 %t3");
	lego_expr *m = lego_sub(ctx, i, C(ctx, 5));
	lego_expr *qr[] = {lego_div(ctx, m, n), lego_mod(ctx, m, n)};
	emits(t, ctx, 2, qr, NULL, 0,
	      "  %t0 = arith.constant 5 : index\n"
	      "  %t1 = arith.subi %i, %t0 : index\n"
	      "  %t2 = arith.floordivsi %t1, %n : index\n"
	      "  %t3 = arith.muli %t2, %n : index\n"
	      "  %t4 = arith.subi %t1, %t3 : index\n",
	      "%t2 %t4");
	lego_ctx_free(ctx);
}

/* A comparison is an i1 value: a select condition as it is, an integer
 * through index_castui (zero extension: true is 1). */
static void test_conditions(lego_test *t)
{
	test_case(t, "mlir: conditions are i1, converted where used as index");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = ix(ctx, "i", 0, 8), *j = ix(ctx, "j", 0, 8);
	lego_expr *lt = lego_binop(ctx, LEGO_LT, i, lego_sym(ctx, "n"));
	lego_expr *es[] = {lego_select(ctx, lt, i, j),
			   lego_add(ctx, lt, C(ctx, 1))};
	emits(t, ctx, 2, es, NULL, 0,
	      "  %t0 = arith.cmpi slt, %i, %n : index\n"
	      "  %t1 = arith.select %t0, %i, %j : index\n"
	      "  %t2 = arith.index_castui %t0 : i1 to index\n"
	      "  %t3 = arith.constant 1 : index\n"
	      "  %t4 = arith.addi %t2, %t3 : index\n",
	      "%t1 %t4");
	/* !(i < n && j == 0) + j: logical operators on i1, then extended. */
	lego_expr *both = lego_binop(ctx, LEGO_AND, lt,
				     lego_binop(ctx, LEGO_EQ, j, C(ctx, 0)));
	lego_expr *sum[] = {lego_add(ctx, lego_not(ctx, both), j)};
	emits(t, ctx, 1, sum, NULL, 0,
	      "  %t0 = arith.cmpi slt, %i, %n : index\n"
	      "  %t1 = arith.constant 0 : index\n"
	      "  %t2 = arith.cmpi eq, %t1, %j : index\n"
	      "  %t3 = arith.andi %t0, %t2 : i1\n"
	      "  %t4 = arith.constant true\n"
	      "  %t5 = arith.xori %t3, %t4 : i1\n"
	      "  %t6 = arith.index_castui %t5 : i1 to index\n"
	      "  %t7 = arith.addi %j, %t6 : index\n",
	      "%t7");
	lego_ctx_free(ctx);
}

/* isqrt(x), 0 <= x < 16: the root has 2 bits, found from the top, each
 * kept when its square is still <= x. */
static void test_isqrt(lego_test *t)
{
	test_case(t, "mlir: isqrt bit by bit, as many bits as the range needs");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *es[] = {lego_isqrt(ctx, ix(ctx, "x", 0, 16))};
	emits(t, ctx, 1, es, NULL, 0,
	      "  %t0 = arith.constant 0 : index\n"
	      "  %t1 = arith.constant 2 : index\n"
	      "  %t2 = arith.muli %t1, %t1 : index\n"
	      "  %t3 = arith.cmpi ule, %t2, %x : index\n"
	      "  %t4 = arith.select %t3, %t1, %t0 : index\n"
	      "  %t5 = arith.constant 1 : index\n"
	      "  %t6 = arith.ori %t4, %t5 : index\n"
	      "  %t7 = arith.muli %t6, %t6 : index\n"
	      "  %t8 = arith.cmpi ule, %t7, %x : index\n"
	      "  %t9 = arith.select %t8, %t6, %t4 : index\n",
	      "%t9");
	lego_ctx_free(ctx);
}

/* Swizzle-like bit operations, and 3 - 2*i written as a subtraction. */
static void test_bits(lego_test *t)
{
	test_case(t, "mlir: bitwise operations and subtraction");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *i = ix(ctx, "i", 0, 8), *j = ix(ctx, "j", 0, 8);
	lego_expr *sh = lego_binop(ctx, LEGO_SHR,
				   lego_binop(ctx, LEGO_BAND, j, C(ctx, 6)),
				   C(ctx, 1));
	lego_expr *es[] = {lego_binop(ctx, LEGO_BXOR, i, sh),
			   lego_sub(ctx, C(ctx, 3), lego_mul(ctx, C(ctx, 2), i))};
	emits(t, ctx, 2, es, NULL, 0,
	      "  %t0 = arith.constant 6 : index\n"
	      "  %t1 = arith.andi %t0, %j : index\n"
	      "  %t2 = arith.constant 1 : index\n"
	      "  %t3 = arith.shrsi %t1, %t2 : index\n"
	      "  %t4 = arith.xori %i, %t3 : index\n"
	      "  %t5 = arith.constant 3 : index\n"
	      "  %t6 = arith.constant 2 : index\n"
	      "  %t7 = arith.muli %i, %t6 : index\n"
	      "  %t8 = arith.subi %t5, %t7 : index\n",
	      "%t4 %t8");
	lego_ctx_free(ctx);
}

/* A range variable takes the template's name; a bare symbol is its own
 * value (no operation); a symbol named like an SSA temporary is refused. */
static void test_names(lego_test *t)
{
	test_case(t, "mlir: range names, bare symbols, clashing names");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *r = ix(ctx, "_r0", 0, 8), *n = lego_sym(ctx, "n");
	lego_emit_range range = {r, "tx", NULL, NULL, 0, 1};
	lego_expr *es[] = {lego_add(ctx, r, n), n};
	emits(t, ctx, 2, es, &range, 1,
	      "  %t0 = arith.addi %tx, %n : index\n", "%t0 %n");
	lego_expr *bad[] = {lego_add(ctx, lego_sym(ctx, "t3"), n)};
	lego_emit_request req = {LEGO_TARGET_MLIR, 1, bad, "t", "", 0, NULL, 0, NULL};
	lego_emitted out = {0};
	CHECK(t, lego_emit_mlir(ctx, &req, &out) != LEGO_OK);
	CHECK(t, strstr(lego_ctx_error(ctx), "%t3") != NULL);
	lego_ctx_free(ctx);
}

void suite_mlir(lego_test *t)
{
	test_shared(t);
	test_signed(t);
	test_divisor_sign(t);
	test_conditions(t);
	test_isqrt(t);
	test_bits(t);
	test_names(t);
}
