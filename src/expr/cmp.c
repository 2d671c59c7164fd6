/* cmp.c - the total order on nodes that makes output reproducible: it
 * looks only at structure and names, never at addresses or ids. */
#include <string.h>

#include "expr/expr.h"

static int kind_rank(const lego_expr *e)
{
	return e->kind == LEGO_CONST ? 0 : e->kind == LEGO_SYM ? 1 : 2;
}

int lego_expr_cmp(const lego_expr *a, const lego_expr *b)
{
	if (a == b)
		return 0;
	int ra = kind_rank(a), rb = kind_rank(b);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->kind == LEGO_CONST)
		return a->value < b->value ? -1 : a->value > b->value;
	if (a->kind == LEGO_SYM)
		return strcmp(a->sym->name, b->sym->name);
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	uint32_t n = a->nargs < b->nargs ? a->nargs : b->nargs;
	for (uint32_t i = 0; i < n; i++) {
		int c = lego_expr_cmp(a->args[i], b->args[i]);
		if (c)
			return c;
	}
	return a->nargs < b->nargs ? -1 : a->nargs > b->nargs;
}
