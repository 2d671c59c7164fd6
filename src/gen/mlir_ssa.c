/* mlir_ssa.c - one SSA value per DAG node, operations written in
 * post-order so every operand is defined before its use. */
#include <inttypes.h>

#include "core/core.h"
#include "expr/expr.h"
#include "gen/mlir_ssa.h"

int mlir_writer_init(mlir_writer *w, lego_ctx *ctx, lego_sbuf *out,
		     const char *prefix, const char *indent)
{
	*w = (mlir_writer){.ctx = ctx, .out = out, .prefix = prefix,
			   .indent = indent};
	if (lego_memo_init(&w->values, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	return LEGO_OK;
}

void mlir_writer_free(mlir_writer *w)
{
	lego_memo_free(&w->values);
}

void mlir_put_ref(mlir_writer *w, mlir_ref r)
{
	if (r.name)
		lego_sbuf_printf(w->out, "%%%s", r.name);
	else
		lego_sbuf_printf(w->out, "%%%s%zu", w->prefix, r.num);
}

/* Starts the line of a new operation: "<indent>%tK = ". */
static mlir_ref begin_op(mlir_writer *w)
{
	mlir_ref r = {NULL, w->next++};
	lego_sbuf_puts(w->out, w->indent);
	mlir_put_ref(w, r);
	lego_sbuf_puts(w->out, " = ");
	return r;
}

mlir_ref mlir_op2(mlir_writer *w, const char *op, mlir_ref a, mlir_ref b,
		  mlir_type ty)
{
	mlir_ref r = begin_op(w);
	lego_sbuf_printf(w->out, "%s ", op);
	mlir_put_ref(w, a);
	lego_sbuf_puts(w->out, ", ");
	mlir_put_ref(w, b);
	lego_sbuf_puts(w->out, ty == MLIR_I1 ? " : i1\n" : " : index\n");
	return r;
}

mlir_ref mlir_cmp(mlir_writer *w, const char *pred, mlir_ref a, mlir_ref b)
{
	mlir_ref r = begin_op(w);
	lego_sbuf_printf(w->out, "arith.cmpi %s, ", pred);
	mlir_put_ref(w, a);
	lego_sbuf_puts(w->out, ", ");
	mlir_put_ref(w, b);
	lego_sbuf_puts(w->out, " : index\n");
	return r;
}

mlir_ref mlir_select(mlir_writer *w, mlir_ref c, mlir_ref a, mlir_ref b,
		     const char *type)
{
	mlir_ref r = begin_op(w);
	lego_sbuf_puts(w->out, "arith.select ");
	mlir_put_ref(w, c);
	lego_sbuf_puts(w->out, ", ");
	mlir_put_ref(w, a);
	lego_sbuf_puts(w->out, ", ");
	mlir_put_ref(w, b);
	lego_sbuf_printf(w->out, " : %s\n", type);
	return r;
}

static mlir_ref constant(mlir_writer *w, const lego_expr *e, mlir_type ty)
{
	mlir_ref r = begin_op(w);
	if (ty == MLIR_I1)
		lego_sbuf_printf(w->out, "arith.constant %s\n",
				 e->value ? "true" : "false");
	else
		lego_sbuf_printf(w->out, "arith.constant %" PRId64 " : index\n",
				 e->value);
	return r;
}

/* A symbol: the template's name for a range variable, else its own. */
static mlir_ref symbol(mlir_writer *w, const lego_expr *e)
{
	for (size_t k = 0; k < w->nranges; k++)
		if (w->ranges[k].sym == e && w->ranges[k].name)
			return (mlir_ref){w->ranges[k].name, 0};
	return (mlir_ref){e->sym->name, 0};
}

/* Left-to-right chain of a binary operation over n-ary arguments. */
static mlir_ref chain(mlir_writer *w, const char *op, const lego_expr *e,
		      mlir_type ty)
{
	mlir_ref acc = mlir_value(w, e->args[0], ty);
	for (uint32_t i = 1; i < e->nargs; i++)
		acc = mlir_op2(w, op, acc, mlir_value(w, e->args[i], ty), ty);
	return acc;
}

/* Products with the constant factor last, as written by hand: i * 4. */
static mlir_ref product(mlir_writer *w, const lego_expr *e)
{
	const lego_expr *c = e->args[0]->kind == LEGO_CONST ? e->args[0] : NULL;
	uint32_t first = c ? 1 : 0;
	mlir_ref acc = mlir_value(w, e->args[first], MLIR_INDEX);
	for (uint32_t i = first + 1; i < e->nargs; i++)
		acc = mlir_op2(w, "arith.muli", acc,
			       mlir_value(w, e->args[i], MLIR_INDEX), MLIR_INDEX);
	if (c)
		acc = mlir_op2(w, "arith.muli", acc,
			       mlir_value(w, c, MLIR_INDEX), MLIR_INDEX);
	return acc;
}

static int all_nonneg(mlir_writer *w, const lego_expr *e)
{
	for (uint32_t i = 0; i < e->nargs; i++)
		if (lego_prove_nonneg(w->ctx, e->args[i]) != 1)
			return 0;
	return 1;
}

static mlir_ref division(mlir_writer *w, const lego_expr *e)
{
	mlir_ref a = mlir_value(w, e->args[0], MLIR_INDEX);
	mlir_ref b = mlir_value(w, e->args[1], MLIR_INDEX);
	return mlir_op2(w, mlir_unsigned_ok(w, e->args[0], e->args[1])
				   ? "arith.divui" : "arith.floordivsi", a, b,
			MLIR_INDEX);
}

static mlir_ref comparison(mlir_writer *w, const lego_expr *e)
{
	static const char *const preds[] = {"eq", "ne", "slt", "sle"};
	mlir_ref a = mlir_value(w, e->args[0], MLIR_INDEX);
	mlir_ref b = mlir_value(w, e->args[1], MLIR_INDEX);
	return mlir_cmp(w, preds[e->kind - LEGO_EQ], a, b);
}

static mlir_ref logical_not(mlir_writer *w, const lego_expr *e)
{
	mlir_ref a = mlir_value(w, e->args[0], MLIR_I1);
	mlir_ref t = begin_op(w);
	lego_sbuf_puts(w->out, "arith.constant true\n");
	return mlir_op2(w, "arith.xori", a, t, MLIR_I1);
}

static mlir_ref select_node(mlir_writer *w, const lego_expr *e)
{
	mlir_ref c = mlir_value(w, e->args[0], MLIR_I1);
	mlir_ref a = mlir_value(w, e->args[1], MLIR_INDEX);
	mlir_ref b = mlir_value(w, e->args[2], MLIR_INDEX);
	return mlir_select(w, c, a, b, "index");
}

static mlir_ref fail(mlir_writer *w, const lego_expr *e)
{
	if (!w->failed)
		lego_fail(w->ctx, LEGO_ERR, "MLIR: no operation for expression "
			  "kind %u", e->kind);
	w->failed = 1;
	return (mlir_ref){"error", 0};
}

static int is_i1_kind(uint32_t kind)
{
	return (kind >= LEGO_EQ && kind <= LEGO_NOT);
}

/* The operations of e in its own type (i1 for conditions). */
static mlir_ref node(mlir_writer *w, const lego_expr *e)
{
	switch (e->kind) {
	case LEGO_ADD: return mlir_sum(w, e);
	case LEGO_MUL: return product(w, e);
	case LEGO_DIV: return division(w, e);
	case LEGO_MOD: return mlir_floor_mod(w, e);
	case LEGO_MIN:
		return chain(w, all_nonneg(w, e) ? "arith.minui" : "arith.minsi",
			     e, MLIR_INDEX);
	case LEGO_MAX:
		return chain(w, all_nonneg(w, e) ? "arith.maxui" : "arith.maxsi",
			     e, MLIR_INDEX);
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
		return comparison(w, e);
	case LEGO_AND: return chain(w, "arith.andi", e, MLIR_I1);
	case LEGO_OR: return chain(w, "arith.ori", e, MLIR_I1);
	case LEGO_NOT: return logical_not(w, e);
	case LEGO_SELECT: return select_node(w, e);
	case LEGO_BAND: return chain(w, "arith.andi", e, MLIR_INDEX);
	case LEGO_BOR: return chain(w, "arith.ori", e, MLIR_INDEX);
	case LEGO_BXOR: return chain(w, "arith.xori", e, MLIR_INDEX);
	case LEGO_SHL: return chain(w, "arith.shli", e, MLIR_INDEX);
	case LEGO_SHR: return chain(w, "arith.shrsi", e, MLIR_INDEX);
	case LEGO_ISQRT: return mlir_isqrt(w, e);
	default: return fail(w, e);
	}
}

/* Converts the value r of e from its own type to ty. */
static mlir_ref convert(mlir_writer *w, mlir_ref r, mlir_type ty)
{
	if (ty == MLIR_I1) {
		/* An integer as a condition: nonzero is true. */
		mlir_ref zero = mlir_value(w, lego_const(w->ctx, 0), MLIR_INDEX);
		return mlir_cmp(w, "ne", r, zero);
	}
	mlir_ref c = begin_op(w);
	lego_sbuf_puts(w->out, "arith.index_castui ");
	mlir_put_ref(w, r);
	lego_sbuf_puts(w->out, " : i1 to index\n");
	return c;
}

mlir_ref mlir_value(mlir_writer *w, const lego_expr *e, mlir_type ty)
{
	if (w->failed)
		return (mlir_ref){"error", 0};
	if (e->kind == LEGO_SYM && ty == MLIR_INDEX)
		return symbol(w, e);
	lego_memo_entry *m = lego_memo_put(&w->values, e);
	if (!m) {
		w->failed = 1;
		lego_fail(w->ctx, LEGO_ENOMEM, "out of memory");
		return (mlir_ref){"error", 0};
	}
	size_t have = ty == MLIR_I1 ? m->tag : m->n;
	if (have)
		return (mlir_ref){NULL, have - 1};
	mlir_type own = is_i1_kind(e->kind) ? MLIR_I1 : MLIR_INDEX;
	mlir_ref r;
	if (e->kind == LEGO_CONST)
		r = constant(w, e, ty);
	else if (own == ty)
		r = node(w, e);
	else
		r = convert(w, mlir_value(w, e, own), ty);
	/* The memo may have grown: look the entry up again. */
	m = lego_memo_get(&w->values, e);
	if (!r.name && m)
		*(ty == MLIR_I1 ? &m->tag : &m->n) = r.num + 1;
	return r;
}
