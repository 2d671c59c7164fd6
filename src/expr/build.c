/* build.c - the constructors of lego.h: cheap, always-valid rewriting
 * (constant folding, trivial identities, a canonical argument order). */
#include "expr/arith.h"
#include "expr/canon.h"

lego_expr *lego_const(lego_ctx *ctx, int64_t value)
{
	return lego_expr_make(ctx, LEGO_CONST, 0, NULL, value);
}

lego_expr *lego_add(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_expr *args[2] = {a, b};
	return lego_canon_add(ctx, 2, args);
}

lego_expr *lego_mul(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_expr *args[2] = {a, b};
	return lego_canon_mul(ctx, 2, args);
}

lego_expr *lego_neg(lego_ctx *ctx, lego_expr *a)
{
	return lego_mul(ctx, lego_const(ctx, -1), a);
}

lego_expr *lego_sub(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return lego_add(ctx, a, lego_neg(ctx, b));
}

static int is_value(const lego_expr *e, int64_t v)
{
	return e->kind == LEGO_CONST && e->value == v;
}

int lego_expr_is_bool(const lego_expr *e)
{
	switch (e->kind) {
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
	case LEGO_AND: case LEGO_OR: case LEGO_NOT:
		return 1;
	case LEGO_CONST:
		return e->value == 0 || e->value == 1;
	default:
		return 0;
	}
}

static int commutes(lego_expr_kind kind)
{
	switch (kind) {
	case LEGO_MIN: case LEGO_MAX: case LEGO_EQ: case LEGO_NE:
	case LEGO_BAND: case LEGO_BOR: case LEGO_BXOR:
		return 1; /* not AND/OR: their left operand guards the right */
	default:
		return 0;
	}
}

/* Identities of a kind on non-constant operands; NULL when none applies. */
static lego_expr *identity(lego_ctx *ctx, lego_expr_kind kind, lego_expr *a,
			   lego_expr *b)
{
	switch (kind) {
	case LEGO_DIV:
		if (is_value(b, 1))
			return a;
		if (is_value(a, 0) && b->kind == LEGO_CONST && b->value)
			return a;
		return NULL;
	case LEGO_MOD:
		if (is_value(b, 1) || is_value(b, -1) ||
		    (is_value(a, 0) && b->kind == LEGO_CONST && b->value))
			return lego_const(ctx, 0);
		return NULL;
	case LEGO_MIN: case LEGO_MAX:
		return a == b ? a : NULL;
	case LEGO_EQ: case LEGO_LE:
		return a == b ? lego_const(ctx, 1) : NULL;
	case LEGO_NE: case LEGO_LT:
		return a == b ? lego_const(ctx, 0) : NULL;
	case LEGO_AND:
		if (is_value(a, 0) || is_value(b, 0))
			return lego_const(ctx, 0);
		if (a == b && lego_expr_is_bool(a))
			return a;
		if (is_value(a, 1) && lego_expr_is_bool(b))
			return b;
		return is_value(b, 1) && lego_expr_is_bool(a) ? a : NULL;
	case LEGO_OR:
		if ((a->kind == LEGO_CONST && a->value) ||
		    (b->kind == LEGO_CONST && b->value))
			return lego_const(ctx, 1);
		if (a == b && lego_expr_is_bool(a))
			return a;
		if (is_value(a, 0) && lego_expr_is_bool(b))
			return b;
		return is_value(b, 0) && lego_expr_is_bool(a) ? a : NULL;
	case LEGO_BAND:
		return is_value(a, 0) || is_value(b, 0) ? lego_const(ctx, 0)
		       : a == b			? a
							: NULL;
	case LEGO_BOR: case LEGO_BXOR:
		if (is_value(a, 0))
			return b;
		if (is_value(b, 0))
			return a;
		if (a == b)
			return kind == LEGO_BOR ? a : lego_const(ctx, 0);
		return NULL;
	case LEGO_SHL: case LEGO_SHR:
		return is_value(b, 0) ? a : NULL;
	default:
		return NULL;
	}
}

static lego_expr *binary(lego_ctx *ctx, lego_expr_kind kind, lego_expr *a,
			 lego_expr *b)
{
	if (!ctx || !a || !b)
		return lego_fail_arg(ctx, "expression");
	int64_t r;
	if (a->kind == LEGO_CONST && b->kind == LEGO_CONST &&
	    lego_arith_binary(kind, a->value, b->value, &r) == LEGO_OK)
		return lego_const(ctx, r);
	lego_expr *same = identity(ctx, kind, a, b);
	if (same)
		return same;
	if (commutes(kind) && lego_expr_cmp(b, a) < 0) {
		lego_expr *t = a;
		a = b;
		b = t;
	}
	lego_expr *args[2] = {a, b};
	return lego_expr_make(ctx, kind, 2, args, 0);
}

lego_expr *lego_div(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return binary(ctx, LEGO_DIV, a, b);
}

lego_expr *lego_mod(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return binary(ctx, LEGO_MOD, a, b);
}

lego_expr *lego_min(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return binary(ctx, LEGO_MIN, a, b);
}

lego_expr *lego_max(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return binary(ctx, LEGO_MAX, a, b);
}

lego_expr *lego_binop(lego_ctx *ctx, lego_expr_kind kind, lego_expr *a,
		      lego_expr *b)
{
	switch (kind) {
	case LEGO_ADD: return lego_add(ctx, a, b);
	case LEGO_MUL: return lego_mul(ctx, a, b);
	case LEGO_DIV: case LEGO_MOD: case LEGO_MIN: case LEGO_MAX:
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
	case LEGO_AND: case LEGO_OR: case LEGO_BAND: case LEGO_BOR:
	case LEGO_BXOR: case LEGO_SHL: case LEGO_SHR:
		return binary(ctx, kind, a, b);
	default:
		return lego_fail_null(ctx, "lego_binop: %d is not a binary kind",
				      (int)kind);
	}
}

lego_expr *lego_not(lego_ctx *ctx, lego_expr *a)
{
	if (!ctx || !a)
		return lego_fail_arg(ctx, "lego_not");
	switch (a->kind) {
	case LEGO_CONST:
		return lego_const(ctx, a->value == 0);
	case LEGO_NOT:
		if (lego_expr_is_bool(a->args[0]))
			return a->args[0];
		break;
	case LEGO_EQ:
		return binary(ctx, LEGO_NE, a->args[0], a->args[1]);
	case LEGO_NE:
		return binary(ctx, LEGO_EQ, a->args[0], a->args[1]);
	case LEGO_LT: /* !(x < y) == y <= x */
		return binary(ctx, LEGO_LE, a->args[1], a->args[0]);
	case LEGO_LE:
		return binary(ctx, LEGO_LT, a->args[1], a->args[0]);
	default:
		break;
	}
	return lego_expr_make(ctx, LEGO_NOT, 1, &a, 0);
}

lego_expr *lego_select(lego_ctx *ctx, lego_expr *cond, lego_expr *then_e,
		       lego_expr *else_e)
{
	if (!ctx || !cond || !then_e || !else_e)
		return lego_fail_arg(ctx, "lego_select");
	if (cond->kind == LEGO_CONST)
		return cond->value ? then_e : else_e;
	if (then_e == else_e)
		return then_e;
	if (cond->kind == LEGO_NOT) {
		lego_expr *t = then_e;
		cond = cond->args[0];
		then_e = else_e;
		else_e = t;
	}
	lego_expr *args[3] = {cond, then_e, else_e};
	return lego_expr_make(ctx, LEGO_SELECT, 3, args, 0);
}

lego_expr *lego_isqrt(lego_ctx *ctx, lego_expr *a)
{
	int64_t r;
	if (!ctx || !a)
		return lego_fail_arg(ctx, "lego_isqrt");
	if (a->kind == LEGO_CONST && lego_arith_isqrt(a->value, &r) == LEGO_OK)
		return lego_const(ctx, r);
	return lego_expr_make(ctx, LEGO_ISQRT, 1, &a, 0);
}

lego_expr *lego_expr_build(lego_ctx *ctx, lego_expr_kind kind, size_t nargs,
			   lego_expr *const *args)
{
	switch (kind) {
	case LEGO_ADD: return lego_canon_add(ctx, nargs, args);
	case LEGO_MUL: return lego_canon_mul(ctx, nargs, args);
	case LEGO_NOT: case LEGO_ISQRT:
		if (nargs != 1)
			break;
		return kind == LEGO_NOT ? lego_not(ctx, args[0])
					: lego_isqrt(ctx, args[0]);
	case LEGO_SELECT:
		if (nargs != 3)
			break;
		return lego_select(ctx, args[0], args[1], args[2]);
	case LEGO_CONST: case LEGO_SYM:
		break;
	default:
		if (nargs == 2)
			return lego_binop(ctx, kind, args[0], args[1]);
		break;
	}
	return lego_fail_null(ctx, "lego_expr_build: bad kind %d with %zu args",
			      (int)kind, nargs);
}
