/* syms.c - the symbols a condition depends on. */
#include <stdlib.h>

#include "smt/smt.h"

/* Nodes visited by one walk (open addressing on the node id). */
typedef struct seen_set {
	const lego_expr **slots;
	size_t cap, count;
} seen_set;

static int seen_insert(seen_set *s, const lego_expr *e);

static int seen_grow(seen_set *s)
{
	seen_set bigger = {calloc(s->cap ? 2 * s->cap : 64, sizeof(void *)),
			   s->cap ? 2 * s->cap : 64, 0};
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i])
			seen_insert(&bigger, s->slots[i]);
	free(s->slots);
	*s = bigger;
	return 0;
}

/* 1 if e was new, 0 if seen before, -1 when out of memory. */
static int seen_insert(seen_set *s, const lego_expr *e)
{
	if ((s->count + 1) * 2 > s->cap && seen_grow(s))
		return -1;
	size_t mask = s->cap - 1;
	size_t j = (e->id * 2654435761u) & mask;
	for (; s->slots[j]; j = (j + 1) & mask)
		if (s->slots[j] == e)
			return 0;
	s->slots[j] = e;
	s->count++;
	return 1;
}

static int add_sym(smt_syms *s, lego_expr *e)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->syms[i] == e)
			return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		lego_expr **a = realloc(s->syms, cap * sizeof *a);
		if (!a)
			return -1;
		s->syms = a;
		s->cap = cap;
	}
	s->syms[s->n++] = e;
	return 0;
}

static int walk(smt_syms *s, seen_set *seen, lego_expr *e)
{
	int fresh = seen_insert(seen, e);
	if (fresh <= 0)
		return fresh;
	if (lego_expr_kind_of(e) == LEGO_SYM) {
		if (add_sym(s, e) || walk(s, seen, e->sym->lo) ||
		    (e->sym->hi && walk(s, seen, e->sym->hi)))
			return -1;
		return 0;
	}
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		if (walk(s, seen, lego_expr_arg(e, i)))
			return -1;
	return 0;
}

int smt_syms_collect(lego_ctx *ctx, smt_syms *s, lego_expr *e)
{
	seen_set seen = {0};
	int rc = walk(s, &seen, e);
	free(seen.slots);
	return rc ? lego_fail(ctx, LEGO_ENOMEM, "out of memory") : LEGO_OK;
}

void smt_syms_free(smt_syms *s)
{
	free(s->syms);
	*s = (smt_syms){0};
}
