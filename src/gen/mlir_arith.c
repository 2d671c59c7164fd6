/* mlir_arith.c - the operations that take more than one MLIR op: sums
 * with subtraction, exact floor modulo, exact integer square root. */
#include "core/core.h"
#include "expr/expr.h"
#include "gen/mlir_ssa.h"

int mlir_unsigned_ok(mlir_writer *w, const lego_expr *a, const lego_expr *b)
{
	lego_expr *zero = lego_const(w->ctx, 0);
	return zero && lego_prove_nonneg(w->ctx, (lego_expr *)a) == 1 &&
	       lego_prove_lt(w->ctx, zero, (lego_expr *)b) == 1;
}

/* For a term written with a minus sign (-c, or -c * x with c > 0), the
 * term c or c * x; NULL for other terms. */
static const lego_expr *negated(lego_ctx *ctx, const lego_expr *t)
{
	const lego_expr *c = t->kind == LEGO_MUL ? t->args[0] : t;
	if (c->kind != LEGO_CONST || c->value >= 0 || c->value == INT64_MIN)
		return NULL;
	lego_expr *pos = lego_const(ctx, -c->value);
	for (uint32_t i = 1; pos && t->kind == LEGO_MUL && i < t->nargs; i++)
		pos = lego_mul(ctx, pos, t->args[i]);
	return pos;
}

/* Positive terms added (the constant last: i + 1), then the negative
 * ones subtracted: a + b - 4 * c. */
mlir_ref mlir_sum(mlir_writer *w, const lego_expr *e)
{
	mlir_ref acc = {NULL, 0};
	int have = 0;
	for (int consts = 0; consts < 2; consts++)
		for (uint32_t i = 0; i < e->nargs; i++) {
			const lego_expr *t = e->args[i];
			if ((t->kind == LEGO_CONST) != consts ||
			    negated(w->ctx, t))
				continue;
			mlir_ref v = mlir_value(w, t, MLIR_INDEX);
			acc = have ? mlir_op2(w, "arith.addi", acc, v, MLIR_INDEX)
				   : v;
			have = 1;
		}
	for (uint32_t i = 0; i < e->nargs; i++) {
		const lego_expr *pos = negated(w->ctx, e->args[i]);
		if (!pos)
			continue;
		if (!have)
			acc = mlir_value(w, lego_const(w->ctx, 0), MLIR_INDEX);
		have = 1;
		acc = mlir_op2(w, "arith.subi", acc,
			       mlir_value(w, pos, MLIR_INDEX), MLIR_INDEX);
	}
	return acc;
}

/*
 * a % b, floor modulo.  Unsigned remainder when a >= 0 and b > 0 are
 * proved; for b > 0 the truncated remainder plus b when it is negative;
 * otherwise a - (a floordiv b) * b, exact for every sign, which also
 * serves when the quotient is computed already.
 */
mlir_ref mlir_floor_mod(mlir_writer *w, const lego_expr *e)
{
	lego_expr *a = e->args[0], *b = e->args[1];
	mlir_ref av = mlir_value(w, a, MLIR_INDEX);
	mlir_ref bv = mlir_value(w, b, MLIR_INDEX);
	if (mlir_unsigned_ok(w, a, b))
		return mlir_op2(w, "arith.remui", av, bv, MLIR_INDEX);
	lego_expr *q = lego_expr_make(w->ctx, LEGO_DIV, 2, e->args, 0);
	lego_memo_entry *done = q ? lego_memo_get(&w->values, q) : NULL;
	lego_expr *zero = lego_const(w->ctx, 0);
	if (!(done && done->n) && zero && lego_prove_lt(w->ctx, zero, b) == 1) {
		mlir_ref r = mlir_op2(w, "arith.remsi", av, bv, MLIR_INDEX);
		mlir_ref z = mlir_value(w, zero, MLIR_INDEX);
		mlir_ref neg = mlir_cmp(w, "slt", r, z);
		mlir_ref up = mlir_op2(w, "arith.addi", r, bv, MLIR_INDEX);
		return mlir_select(w, neg, up, r, "index");
	}
	if (!q) {
		w->failed = 1;
		return (mlir_ref){"error", 0};
	}
	mlir_ref qv = mlir_value(w, q, MLIR_INDEX);
	mlir_ref qb = mlir_op2(w, "arith.muli", qv, bv, MLIR_INDEX);
	return mlir_op2(w, "arith.subi", av, qb, MLIR_INDEX);
}

/* Bits of the root: the least k with x < 4^k proved, at most 32. */
static int root_bits(mlir_writer *w, lego_expr *x)
{
	for (int k = 1; k < 32; k++) {
		lego_expr *bound = lego_const(w->ctx, (int64_t)1 << (2 * k));
		if (bound && lego_prove_lt(w->ctx, x, bound) == 1)
			return k;
	}
	return 32;
}

/*
 * floor(sqrt(x)) for 0 <= x < 2^63, bit by bit from the top: a bit is kept
 * when the square of the root with it stays <= x.  Roots are < 2^32, so
 * the squares are exact as unsigned 64-bit values, compared unsigned.
 */
mlir_ref mlir_isqrt(mlir_writer *w, const lego_expr *e)
{
	lego_expr *x = e->args[0];
	mlir_ref xv = mlir_value(w, x, MLIR_INDEX);
	mlir_ref root = mlir_value(w, lego_const(w->ctx, 0), MLIR_INDEX);
	int first = 1;
	for (int bit = root_bits(w, x) - 1; bit >= 0 && !w->failed; bit--) {
		lego_expr *c = lego_const(w->ctx, (int64_t)1 << bit);
		if (!c) {
			w->failed = 1;
			break;
		}
		mlir_ref cv = mlir_value(w, c, MLIR_INDEX);
		mlir_ref try = first ? cv
				     : mlir_op2(w, "arith.ori", root, cv,
						MLIR_INDEX);
		mlir_ref sq = mlir_op2(w, "arith.muli", try, try, MLIR_INDEX);
		mlir_ref fits = mlir_cmp(w, "ule", sq, xv);
		root = mlir_select(w, fits, try, root, "index");
		first = 0;
	}
	return root;
}
