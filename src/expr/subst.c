/* subst.c - substitution of symbols, memoised on nodes for one call. */
#include <stdlib.h>

#include "expr/memo.h"

enum { STACK_ARGS = 16 };

static lego_expr *subst_node(lego_ctx *ctx, lego_memo *m, lego_expr *e);

static lego_expr *rebuild(lego_ctx *ctx, lego_memo *m, lego_expr *e)
{
	lego_expr *stack[STACK_ARGS];
	lego_expr **a = e->nargs <= STACK_ARGS ? stack
					       : malloc(e->nargs * sizeof *a);
	if (!a)
		return lego_fail_null(ctx, "out of memory");
	int changed = 0;
	lego_expr *r = e;
	for (uint32_t i = 0; i < e->nargs; i++) {
		if (!(a[i] = subst_node(ctx, m, e->args[i]))) {
			r = NULL;
			goto out;
		}
		changed |= a[i] != e->args[i];
	}
	if (changed)
		r = lego_expr_build(ctx, (lego_expr_kind)e->kind, e->nargs, a);
out:
	if (a != stack)
		free(a);
	return r;
}

static lego_expr *subst_node(lego_ctx *ctx, lego_memo *m, lego_expr *e)
{
	if (e->kind == LEGO_CONST)
		return e;
	lego_memo_entry *hit = lego_memo_get(m, e);
	if (hit)
		return hit->ptr;
	if (e->kind == LEGO_SYM)
		return e;
	lego_expr *r = rebuild(ctx, m, e);
	lego_memo_entry *slot = r ? lego_memo_put(m, e) : NULL;
	if (r && !slot)
		return lego_fail_null(ctx, "out of memory");
	if (slot)
		slot->ptr = r;
	return r;
}

lego_expr *lego_expr_subst(lego_ctx *ctx, lego_expr *e, size_t n,
			   lego_expr *const *from, lego_expr *const *to)
{
	if (!ctx || !e || (n && (!from || !to)))
		return lego_fail_arg(ctx, "lego_expr_subst");
	lego_memo m;
	if (lego_memo_init(&m, n + 16) != LEGO_OK)
		return lego_fail_null(ctx, "out of memory");
	lego_expr *r = e;
	for (size_t i = 0; i < n && r; i++) {
		lego_memo_entry *s;
		if (!from[i] || !to[i] || from[i]->kind != LEGO_SYM)
			r = lego_fail_null(ctx, "lego_expr_subst: replaced "
						"nodes must be symbols");
		else if (!(s = lego_memo_put(&m, from[i])))
			r = lego_fail_null(ctx, "out of memory");
		else
			s->ptr = to[i];
	}
	if (r)
		r = subst_node(ctx, &m, e);
	lego_memo_free(&m);
	return r;
}
