/* uses.c - use counts over a DAG: what becomes a temporary when printed. */
#include "expr/print.h"

static int count(lego_memo *uses, const lego_expr *e, int in_sum,
		 unsigned times, const lego_printer *p)
{
	lego_memo_entry *u = lego_memo_get(uses, e);
	int seen = u != NULL;
	if (!u && !(u = lego_memo_put(uses, e)))
		return LEGO_ENOMEM;
	u->n += times;
	u->tag |= (size_t)(in_sum != 0);
	if (seen)
		return LEGO_OK;
	/* An operand written twice is a temporary: else the text doubles
	 * with each nested level that repeats it. */
	unsigned r = p && e->nargs ? lego_print_repeats(p, e) : 1;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int rc = count(uses, e->args[i], e->kind == LEGO_ADD, r, p);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

int lego_expr_count_uses(lego_memo *uses, size_t n, lego_expr *const *es,
			 const lego_printer *p)
{
	for (size_t i = 0; i < n; i++) {
		int rc = count(uses, es[i], 0, 1, p);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

int lego_expr_is_temp(const lego_memo *uses, const lego_expr *e)
{
	const lego_memo_entry *u;
	return e->nargs && (u = lego_memo_get(uses, e)) && u->n > 1;
}

int lego_expr_temp_is_wide(const lego_memo *uses, const lego_expr *e)
{
	const lego_memo_entry *u = lego_memo_get(uses, e);
	return u && u->ptr;
}

int lego_expr_subtracted(const lego_memo *uses, const lego_expr *t)
{
	if (uses && lego_expr_is_temp(uses, t))
		return 0;
	if (t->kind == LEGO_CONST)
		return t->value < 0 && t->value != INT64_MIN;
	return t->kind == LEGO_MUL && t->args[0]->kind == LEGO_CONST &&
	       t->args[0]->value < 0 && t->args[0]->value != INT64_MIN;
}
