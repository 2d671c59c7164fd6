/* walk.c - reading nodes from outside the module. */
#include "expr/expr.h"

lego_expr_kind lego_expr_kind_of(const lego_expr *e)
{
	return (lego_expr_kind)e->kind;
}

size_t lego_expr_nargs(const lego_expr *e)
{
	return e->nargs;
}

lego_expr *lego_expr_arg(const lego_expr *e, size_t i)
{
	return i < e->nargs ? e->args[i] : NULL;
}

int64_t lego_expr_value(const lego_expr *e)
{
	return e->kind == LEGO_CONST ? e->value : 0;
}

const char *lego_expr_name(const lego_expr *e)
{
	return e->kind == LEGO_SYM ? e->sym->name : NULL;
}

int lego_expr_is_const(const lego_expr *e, int64_t *value)
{
	if (!e || e->kind != LEGO_CONST)
		return 0;
	if (value)
		*value = e->value;
	return 1;
}
