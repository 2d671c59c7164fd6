/* pool.c - hash-consing: one node per distinct (kind, value, args). */
#include <stdlib.h>
#include <string.h>

#include "expr/pool.h"

enum { POOL_INITIAL = 1024 };

int lego_expr_pool_init(lego_ctx *ctx)
{
	struct lego_expr_pool *p = calloc(1, sizeof *p);
	if (!p)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	p->slots = calloc(POOL_INITIAL, sizeof *p->slots);
	if (!p->slots) {
		free(p);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	p->cap = POOL_INITIAL;
	ctx->pool = p;
	return LEGO_OK;
}

void lego_expr_pool_free(lego_ctx *ctx)
{
	struct lego_expr_pool *p = ctx->pool;
	if (!p)
		return;
	free(p->slots);
	free(p->syms);
	free(p->names);
	free(p);
	ctx->pool = NULL;
}

static uint32_t mix(uint32_t h, uint64_t v)
{
	h ^= (uint32_t)v + 0x9e3779b9u + (h << 6) + (h >> 2);
	h ^= (uint32_t)(v >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

static uint32_t node_hash(lego_expr_kind kind, size_t nargs,
			  lego_expr *const *args, int64_t value)
{
	uint32_t h = mix(0x12345u, (uint64_t)kind << 32 | nargs);
	h = mix(h, (uint64_t)value);
	for (size_t i = 0; i < nargs; i++)
		h = mix(h, args[i]->id);
	return h;
}

static int node_equal(const lego_expr *e, lego_expr_kind kind, size_t nargs,
		      lego_expr *const *args, int64_t value)
{
	if (e->kind != (uint32_t)kind || e->nargs != nargs ||
	    e->value != value)
		return 0;
	for (size_t i = 0; i < nargs; i++)
		if (e->args[i] != args[i])
			return 0;
	return 1;
}

static int pool_grow(struct lego_expr_pool *p)
{
	uint32_t cap = p->cap * 2;
	lego_expr **slots = calloc(cap, sizeof *slots);
	if (!slots)
		return LEGO_ENOMEM;
	for (uint32_t i = 0; i < p->cap; i++) {
		lego_expr *e = p->slots[i];
		if (!e)
			continue;
		uint32_t j = e->hash & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = e;
	}
	free(p->slots);
	p->slots = slots;
	p->cap = cap;
	return LEGO_OK;
}

lego_expr *lego_expr_make(lego_ctx *ctx, lego_expr_kind kind, size_t nargs,
			  lego_expr *const *args, int64_t value)
{
	if (!ctx)
		return NULL;
	struct lego_expr_pool *p = ctx->pool;
	if (kind == LEGO_SYM || kind > LEGO_ISQRT || nargs > UINT32_MAX)
		return lego_fail_null(ctx, "lego_expr_make: bad node kind %d",
				      (int)kind);
	for (size_t i = 0; i < nargs; i++)
		if (!args[i])
			return lego_fail_arg(ctx, "expression");
	if (kind != LEGO_CONST)
		value = 0;
	uint32_t h = node_hash(kind, nargs, args, value);
	uint32_t j = h & (p->cap - 1);
	for (lego_expr *e; (e = p->slots[j]); j = (j + 1) & (p->cap - 1))
		if (e->hash == h && node_equal(e, kind, nargs, args, value))
			return e;
	lego_expr *e = lego_xalloc(ctx, sizeof *e + nargs * sizeof *args);
	if (!e)
		return NULL;
	e->kind = kind;
	e->nargs = (uint32_t)nargs;
	e->id = p->next_id++;
	e->hash = h;
	e->value = value;
	if (nargs)
		memcpy(e->args, args, nargs * sizeof *args);
	p->slots[j] = e;
	/* Keep the load under 1/2 so probes stay short. */
	if (++p->count * 2 > p->cap && pool_grow(p) != LEGO_OK)
		return lego_fail_null(ctx, "out of memory");
	return e;
}
