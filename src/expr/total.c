/* total.c - which operations of generated code can trap, whether an
 * expression may be computed ahead of the guards around it, and the total
 * form of an expression for targets that compute every operand.
 *
 * Partial operations: / and % (a zero divisor traps in C, Python and on
 * the GPU; INT64_MIN / -1 is left to the width analysis), shifts (C: an
 * amount outside [0, 32) is undefined for an int temporary; Python: a
 * negative amount raises) and isqrt (Python raises on a negative). */
#include "core/core.h"
#include "expr/print.h"

/* Shift amounts safe in every dialect: within the width of C's int. */
#define SHIFT_LIMIT 32

static int divisor_safe(lego_ctx *ctx, lego_expr *b)
{
	lego_expr *zero = lego_const(ctx, 0);
	return lego_prove_lt(ctx, zero, b) || lego_prove_lt(ctx, b, zero);
}

static int shift_safe(lego_ctx *ctx, lego_expr *s)
{
	return lego_prove_nonneg(ctx, s) &&
	       lego_prove_lt(ctx, s, lego_const(ctx, SHIFT_LIMIT));
}

/* Whether argument i of e is computed whenever e is, in a dialect whose
 * select and and/or evaluate lazily (C's ?: && ||, Python's if/and/or). */
static int always_evaluated(const lego_expr *e, uint32_t i, int lazy)
{
	if (!lazy)
		return 1;
	if (e->kind == LEGO_SELECT)
		return i == 0;
	if (e->kind == LEGO_AND || e->kind == LEGO_OR)
		return i == 0;
	return 1;
}

/* memo entry: n = 1 once visited, tag = 1 when safe. */
static int safe_walk(lego_ctx *ctx, lego_memo *m, const lego_expr *e,
		     int lazy)
{
	lego_memo_entry *u = lego_memo_get(m, e);
	if (u && u->n)
		return (int)u->tag;
	int ok = lego_expr_op_safe(ctx, e);
	for (uint32_t i = 0; ok && i < e->nargs; i++)
		if (always_evaluated(e, i, lazy))
			ok = safe_walk(ctx, m, e->args[i], lazy);
	if ((u = lego_memo_put(m, e))) {
		u->n = 1;
		u->tag = (size_t)ok;
	}
	return ok;
}

int lego_expr_mark_always(lego_memo *m, const lego_expr *e, int lazy)
{
	if (lego_memo_get(m, e))
		return LEGO_OK;
	if (!lego_memo_put(m, e))
		return LEGO_ENOMEM;
	for (uint32_t i = 0; i < e->nargs; i++)
		if (always_evaluated(e, i, lazy) &&
		    lego_expr_mark_always(m, e->args[i], lazy) != LEGO_OK)
			return LEGO_ENOMEM;
	return LEGO_OK;
}

int lego_expr_hoistable(lego_ctx *ctx, lego_memo *m, const lego_expr *e,
			int lazy)
{
	return safe_walk(ctx, m, e, lazy);
}

/* The operand that makes e total: a divisor 0 becomes 1, a shift amount
 * outside [0, SHIFT_LIMIT) becomes 0, an isqrt argument below 0 becomes
 * 0.  The value differs from e's only where e is undefined. */
static lego_expr *total_operand(lego_ctx *ctx, const lego_expr *e,
				lego_expr *a)
{
	lego_expr *zero = lego_const(ctx, 0);
	switch (e->kind) {
	case LEGO_DIV:
	case LEGO_MOD:
		return lego_select(ctx, lego_binop(ctx, LEGO_EQ, a, zero),
				   lego_const(ctx, 1), a);
	case LEGO_SHL:
	case LEGO_SHR: {
		lego_expr *in = lego_binop(
			ctx, LEGO_AND, lego_binop(ctx, LEGO_LE, zero, a),
			lego_binop(ctx, LEGO_LT, a,
				   lego_const(ctx, SHIFT_LIMIT)));
		return lego_select(ctx, in, a, zero);
	}
	default: /* LEGO_ISQRT */
		return lego_max(ctx, a, zero);
	}
}

/* Whether operand a of e is already in the form total_operand gives
 * (hash-consed: the same node), so that a total expression is seen as
 * safe when it is printed. */
static int guarded(lego_ctx *ctx, const lego_expr *e, const lego_expr *a)
{
	if (a->kind != LEGO_SELECT && a->kind != LEGO_MAX)
		return 0;
	for (uint32_t i = 0; i < a->nargs; i++)
		if (total_operand(ctx, e, a->args[i]) == a)
			return 1;
	return 0;
}

int lego_expr_op_safe(lego_ctx *ctx, const lego_expr *e)
{
	switch (e->kind) {
	case LEGO_DIV:
	case LEGO_MOD:
		return guarded(ctx, e, e->args[1]) ||
		       divisor_safe(ctx, e->args[1]);
	case LEGO_SHL:
	case LEGO_SHR:
		return guarded(ctx, e, e->args[1]) ||
		       shift_safe(ctx, e->args[1]);
	case LEGO_ISQRT:
		return guarded(ctx, e, e->args[0]) ||
		       lego_prove_nonneg(ctx, e->args[0]);
	default:
		return 1;
	}
}

/* e with every partial operation made total, memoised on the DAG. */
static lego_expr *total_walk(lego_ctx *ctx, lego_memo *m, lego_expr *e)
{
	lego_memo_entry *u = lego_memo_get(m, e);
	if (u)
		return u->ptr;
	lego_expr **args = lego_xalloc(ctx, (e->nargs + 1) * sizeof *args);
	if (!args)
		return NULL;
	int changed = 0;
	for (uint32_t i = 0; i < e->nargs; i++) {
		if (!(args[i] = total_walk(ctx, m, e->args[i])))
			return NULL;
		changed |= args[i] != e->args[i];
	}
	if (!lego_expr_op_safe(ctx, e)) {
		uint32_t at = e->kind == LEGO_ISQRT ? 0 : 1;
		if (!(args[at] = total_operand(ctx, e, args[at])))
			return NULL;
		changed = 1;
	}
	lego_expr *r = changed ? lego_expr_make(ctx, e->kind, e->nargs, args,
						e->value)
			       : e;
	if (!r || !(u = lego_memo_put(m, e)))
		return r ? lego_fail_null(ctx, "out of memory") : NULL;
	u->ptr = r;
	return r;
}

int lego_exprs_make_total(lego_ctx *ctx, size_t n, lego_expr **es)
{
	lego_memo m;
	if (lego_memo_init(&m, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	int rc = LEGO_OK;
	for (size_t i = 0; i < n && rc == LEGO_OK; i++)
		if (!(es[i] = total_walk(ctx, &m, es[i])))
			rc = LEGO_ERR;
	lego_memo_free(&m);
	return rc;
}
