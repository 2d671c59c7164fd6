/* ops.c - the operation count of the printed form (with temporaries).
 *
 * The rule: every distinct non-leaf node of the DAG of all expressions is
 * printed once (as a temporary when it has several uses) and costs
 *   - a sum or product of k arguments: k - 1 (one + or - or * each);
 *   - a product with coefficient -1 that a sum prints as a subtraction
 *     (`a - x*y`): one less, since the sum's `-` absorbs the negation;
 *     but when every term of that sum is such a subtraction and there is
 *     no constant, its first term is printed as `-x...` and the negation
 *     is counted back on the sum;
 *   - anything else (division, modulo, min, max, comparison, logic,
 *     select, bitwise, isqrt, a standalone negation `-x`): 1.
 * Constants and symbols cost nothing.  C's floor-division forms count as
 * one operation: this is the cost of the abstract expression.
 */
#include "expr/print.h"

/* The sum whose terms are all subtracted starts with a negation. */
static int leading_negation(const lego_memo *uses, const lego_expr *sum)
{
	for (uint32_t i = 0; i < sum->nargs; i++)
		if (!lego_expr_subtracted(uses, sum->args[i]) ||
		    sum->args[i]->kind == LEGO_CONST)
			return 0;
	return sum->args[0]->args[0]->value == -1;
}

static size_t node_cost(const lego_memo *uses, const lego_memo_entry *u)
{
	const lego_expr *e = u->key;
	if (!e->nargs)
		return 0;
	if (e->kind == LEGO_ADD)
		return e->nargs - 1 + leading_negation(uses, e);
	if (e->kind != LEGO_MUL)
		return 1;
	int absorbed = u->n == 1 && (u->tag & 1) &&
		       e->args[0]->kind == LEGO_CONST &&
		       e->args[0]->value == -1;
	return e->nargs - 1 - (size_t)absorbed;
}

size_t lego_expr_ops(lego_expr *const *es, size_t n)
{
	if (!es)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!es[i])
			return 0;
	lego_memo uses;
	if (lego_memo_init(&uses, 64) != LEGO_OK)
		return SIZE_MAX;
	size_t total = SIZE_MAX;
	if (lego_expr_count_uses(&uses, n, es, NULL) == LEGO_OK) {
		total = 0;
		for (size_t i = 0; i < uses.cap; i++)
			if (uses.slots[i].key)
				total += node_cost(&uses, &uses.slots[i]);
	}
	lego_memo_free(&uses);
	return total;
}
