/* walk.c - reading nodes from outside the module. */
#include "expr/memo.h"

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

static int mentions(const lego_expr *e, lego_expr *const *syms, size_t n,
		    lego_memo *seen)
{
	if (e->kind == LEGO_SYM) {
		for (size_t i = 0; i < n; i++)
			if (e == syms[i])
				return 1;
		return 0;
	}
	/* Each node once: a shared node answered no the first time. */
	if (!e->nargs || lego_memo_get(seen, e))
		return 0;
	if (!lego_memo_put(seen, e))
		return -1;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int r = mentions(e->args[i], syms, n, seen);
		if (r)
			return r;
	}
	return 0;
}

int lego_expr_mentions(const lego_expr *e, lego_expr *const *syms, size_t n)
{
	lego_memo seen;
	if (!e->nargs)
		return mentions(e, syms, n, NULL);
	/* Out of memory: "mentions" is the answer that keeps callers safe
	 * (nothing is taken as independent of the symbols). */
	if (lego_memo_init(&seen, 64) != LEGO_OK)
		return 1;
	int r = mentions(e, syms, n, &seen);
	lego_memo_free(&seen);
	return r != 0;
}
