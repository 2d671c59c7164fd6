/* sym.c - the symbol table: names to symbol nodes, dense indices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/pool.h"

/* Slot of name in the name table: its entry, or the empty slot where it
 * would go. */
static uint32_t name_slot(const struct lego_expr_pool *p, const char *name)
{
	uint32_t mask = p->names_cap - 1;
	uint32_t j = lego_hash_name(name) & mask;
	while (p->names[j] &&
	       strcmp(p->syms[p->names[j] - 1]->sym->name, name) != 0)
		j = (j + 1) & mask;
	return j;
}

lego_expr *lego_sym_find(lego_ctx *ctx, const char *name)
{
	if (!ctx)
		return NULL;
	struct lego_expr_pool *p = ctx->pool;
	if (!name || !p->names_cap)
		return NULL;
	uint32_t j = name_slot(p, name);
	return p->names[j] ? p->syms[p->names[j] - 1] : NULL;
}

uint32_t lego_expr_nsyms(const lego_ctx *ctx)
{
	return ctx->pool->nsyms;
}

int lego_expr_sym_locate(lego_ctx *ctx, lego_expr *sym, const char *file,
			 int line, int col)
{
	if (sym->kind != LEGO_SYM || sym->sym->file)
		return LEGO_OK;
	if (!(sym->sym->file = lego_arena_strdup(&ctx->arena, file)))
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	sym->sym->line = line;
	sym->sym->col = col;
	return LEGO_OK;
}

lego_expr *lego_expr_sym_at(const lego_ctx *ctx, uint32_t index)
{
	const struct lego_expr_pool *p = ctx->pool;
	return index < p->nsyms ? p->syms[index] : NULL;
}

/* Make room for one more symbol in both tables (name load under 1/2). */
static int reserve_symbol(struct lego_expr_pool *p)
{
	if (p->nsyms == p->syms_cap) {
		uint32_t cap = p->syms_cap ? p->syms_cap * 2 : 16;
		lego_expr **syms = realloc(p->syms, cap * sizeof *syms);
		if (!syms)
			return LEGO_ENOMEM;
		p->syms = syms;
		p->syms_cap = cap;
	}
	if ((p->nsyms + 1) * 2 <= p->names_cap)
		return LEGO_OK;
	uint32_t cap = p->names_cap ? p->names_cap * 2 : 32;
	uint32_t *names = calloc(cap, sizeof *names);
	if (!names)
		return LEGO_ENOMEM;
	free(p->names);
	p->names = names;
	p->names_cap = cap;
	for (uint32_t i = 0; i < p->nsyms; i++)
		p->names[name_slot(p, p->syms[i]->sym->name)] = i + 1;
	return LEGO_OK;
}

static lego_expr *declare(lego_ctx *ctx, const char *name, lego_expr *lo,
			  lego_expr *hi, int is_index)
{
	struct lego_expr_pool *p = ctx->pool;
	if (reserve_symbol(p) != LEGO_OK)
		return lego_fail_null(ctx, "out of memory");
	lego_symbol *s = lego_xalloc(ctx, sizeof *s);
	lego_expr *e = lego_xalloc(ctx, sizeof *e);
	char *copy = lego_arena_strdup(&ctx->arena, name);
	if (!s || !e || !copy)
		return lego_fail_null(ctx, "out of memory");
	s->name = copy;
	s->index = p->nsyms;
	s->lo = lo;
	s->hi = hi;
	s->is_index = is_index;
	e->kind = LEGO_SYM;
	e->id = p->next_id++;
	e->hash = lego_hash_name(copy);
	e->sym = s;
	p->syms[p->nsyms++] = e;
	p->names[name_slot(p, copy)] = p->nsyms;
	return e;
}

static int valid_name(lego_ctx *ctx, const char *name)
{
	if (ctx && name && *name)
		return 1;
	lego_fail(ctx, LEGO_ERR, "a symbol needs a non-empty name");
	return 0;
}

lego_expr *lego_sym(lego_ctx *ctx, const char *name)
{
	if (!valid_name(ctx, name))
		return NULL;
	lego_expr *e = lego_sym_find(ctx, name);
	if (e)
		return e;
	lego_expr *one = lego_const(ctx, 1);
	return one ? declare(ctx, name, one, NULL, 0) : NULL;
}

/* lo == NULL means 0. */
lego_expr *lego_index(lego_ctx *ctx, const char *name, lego_expr *lo,
		      lego_expr *hi)
{
	if (!valid_name(ctx, name))
		return NULL;
	if (!lo && !(lo = lego_const(ctx, 0)))
		return NULL;
	lego_expr *e = lego_sym_find(ctx, name);
	if (!e)
		return declare(ctx, name, lo, hi, 1);
	if (e->sym->is_index && e->sym->lo == lo && e->sym->hi == hi)
		return e;
	return lego_fail_null(ctx,
			      "symbol '%s' is already declared with other bounds",
			      name);
}

lego_expr *lego_index_fresh(lego_ctx *ctx, const char *base, lego_expr *lo,
			    lego_expr *hi)
{
	char name[64];
	if (!ctx || !base)
		return lego_fail_arg(ctx, "lego_index_fresh");
	if (!lo && !(lo = lego_const(ctx, 0)))
		return NULL;
	for (unsigned n = 0; n < 1000; n++) {
		if (n)
			snprintf(name, sizeof name, "%s_%u", base, n);
		else
			snprintf(name, sizeof name, "%s", base);
		lego_expr *e = lego_sym_find(ctx, name);
		if (!e)
			return lego_index(ctx, name, lo, hi);
		if (e->sym->is_index && e->sym->lo == lo && e->sym->hi == hi)
			return e;
	}
	return lego_fail_null(ctx, "no free name for an index variable");
}
