/* walk.c - reading nodes from outside the module. */
#include "expr/expr.h"

lego_expr_kind lego_expr_kind_of(const lego_expr *e)
{
	return e ? (lego_expr_kind)e->kind : LEGO_CONST;
}

size_t lego_expr_nargs(const lego_expr *e)
{
	return e ? e->nargs : 0;
}

lego_expr *lego_expr_arg(const lego_expr *e, size_t i)
{
	return e && i < e->nargs ? e->args[i] : NULL;
}

int64_t lego_expr_value(const lego_expr *e)
{
	return e && e->kind == LEGO_CONST ? e->value : 0;
}

const char *lego_expr_name(const lego_expr *e)
{
	return e && e->kind == LEGO_SYM ? e->sym->name : NULL;
}

int lego_expr_is_const(const lego_expr *e, int64_t *value)
{
	if (!e || e->kind != LEGO_CONST)
		return 0;
	if (value)
		*value = e->value;
	return 1;
}

int lego_expr_mentions(const lego_expr *e, lego_expr *const *syms, size_t n)
{
	if (e->kind == LEGO_SYM) {
		for (size_t i = 0; i < n; i++)
			if (e == syms[i])
				return 1;
		return 0;
	}
	for (uint32_t i = 0; i < e->nargs; i++)
		if (lego_expr_mentions(e->args[i], syms, n))
			return 1;
	return 0;
}
