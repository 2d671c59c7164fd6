/* simplify.c - bottom-up simplification to a fixpoint, memoised per node
 * (the memo is dropped whenever a fact is added). */
#include <stdlib.h>

#include "expr/memo.h"
#include "simplify/cert.h"
#include "simplify/simplify.h"

/* Bounds the recursion of candidates simplified inside rules. */
enum { MAX_DEPTH = 64, MAX_ARGS = 64 };

/* e with its arguments simplified; e itself when nothing changed. */
static lego_expr *simplify_args(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *stack[MAX_ARGS];
	int changed = 0;
	if (e->nargs > MAX_ARGS)
		return e;
	for (uint32_t i = 0; i < e->nargs; i++) {
		stack[i] = lego_simplify(ctx, e->args[i]);
		if (!stack[i])
			return NULL;
		changed |= stack[i] != e->args[i];
	}
	if (!changed)
		return e;
	lego_expr *r = lego_expr_build(ctx, e->kind, e->nargs, stack);
	cert_cong(ctx, e, stack, e->nargs, r);
	return r;
}

static int is_simplified(void *arg, const lego_expr *e)
{
	const void *v;
	return lego_cache_get(&((struct lego_facts *)arg)->simp, e, &v);
}

/* A top-level call first simplifies the nodes below e children first, so
 * that each node meets its arguments already simplified: the recursion
 * stays shallow however deep e is (a chain of n links nests n deep), and
 * each shared node is simplified once. */
static void simplify_below(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	lego_expr **order;
	size_t n;
	if (lego_expr_topo(e, is_simplified, f, &order, &n) != LEGO_OK)
		return; /* out of memory: the recursion alone still works */
	f->depth++;
	for (size_t i = 0; i + 1 < n; i++)
		lego_simplify(ctx, order[i]);
	f->depth--;
	free(order);
}

/* An index variable over a range of one value is that value (an index
 * over a size-1 dim: dead). */
static lego_expr *single_value(lego_ctx *ctx, lego_expr *s)
{
	int64_t lo, hi;
	if (!s->sym->is_index || !lego_expr_is_const(s->sym->lo, &lo) ||
	    !s->sym->hi || !lego_expr_is_const(s->sym->hi, &hi) ||
	    hi - 1 != lo)
		return s;
	lego_expr *v = lego_const(ctx, lo);
	cert_value(ctx, s, v);
	return v;
}

static lego_expr *simplify(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	const void *v;
	if (e->kind == LEGO_CONST)
		return e;
	if (e->kind == LEGO_SYM)
		return single_value(ctx, e);
	if (lego_cache_get(&f->simp, e, &v))
		return v == &f->busy ? e : (lego_expr *)v;
	if (f->depth >= MAX_DEPTH)
		return e;
	if (!f->depth)
		simplify_below(ctx, e);
	lego_cache_put(&f->simp, e, &f->busy);
	f->depth++;
	lego_expr *r = simplify_args(ctx, e);
	if (r && r != e) {
		/* The rebuilt node may fold further or meet a cached result. */
		r = lego_simplify(ctx, r);
	} else if (r) {
		r = lego_rewrite(ctx, e);
	}
	f->depth--;
	if (!r)
		r = e;
	lego_cache_put(&f->simp, e, r);
	lego_cache_put(&f->simp, r, r);
	return r;
}

/* A sum with a sum among its terms (as lego_share_sums() writes them)
 * flattened back: the rules work on canonical sums. */
static lego_expr *flat(lego_ctx *ctx, lego_expr *e)
{
	for (uint32_t i = 0; e->kind == LEGO_ADD && i < e->nargs; i++)
		if (e->args[i]->kind == LEGO_ADD) {
			lego_expr *f = lego_expr_build(ctx, LEGO_ADD, e->nargs,
						       e->args);
			cert_ring(ctx, e, f);
			return f;
		}
	return e;
}

lego_expr *lego_simplify(lego_ctx *ctx, lego_expr *e)
{
	if (!ctx || !e)
		return lego_fail_arg(ctx, "lego_simplify");
	lego_expr *r = simplify(ctx, flat(ctx, e));
	/* A whole expression: its sums may share terms.  Not cached, so that
	 * the rules only ever meet canonical sums. */
	return r && !ctx->facts->depth ? lego_share_sums(ctx, r) : r;
}
