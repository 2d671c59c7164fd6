/* symbols.c - the free symbols of an expression, read off its DAG. */
#include <stdlib.h>

#include "expr/memo.h"

typedef struct found {
	lego_memo seen;
	lego_expr **syms;
	size_t n, cap;
	int oom;
} found;

/* Records e when it is a symbol not met before. */
static void note(found *f, lego_expr *e)
{
	if (f->oom || e->kind != LEGO_SYM || lego_memo_get(&f->seen, e))
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		lego_expr **g = realloc(f->syms, cap * sizeof *g);
		if (!g) {
			f->oom = 1;
			return;
		}
		f->syms = g;
		f->cap = cap;
	}
	if (!lego_memo_put(&f->seen, e))
		f->oom = 1;
	else
		f->syms[f->n++] = e;
}

static int by_declaration(const void *a, const void *b)
{
	uint32_t x = (*(lego_expr *const *)a)->sym->index;
	uint32_t y = (*(lego_expr *const *)b)->sym->index;
	return (x > y) - (x < y);
}

int lego_expr_symbols(lego_ctx *ctx, const lego_expr *e, lego_expr ***syms,
		      size_t *n)
{
	if (!ctx)
		return LEGO_ERR;
	if (syms)
		*syms = NULL;
	if (n)
		*n = 0;
	if (!e || !syms || !n) {
		lego_fail_arg(ctx, "lego_expr_symbols");
		return LEGO_ERR;
	}
	found f = {.oom = 0};
	lego_expr **nodes = NULL;
	size_t nnodes = 0;
	if (lego_memo_init(&f.seen, 16) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	f.oom = lego_expr_topo((lego_expr *)e, NULL, NULL, &nodes, &nnodes) !=
		LEGO_OK;
	note(&f, (lego_expr *)e);
	for (size_t i = 0; i < nnodes; i++)
		for (uint32_t k = 0; k < nodes[i]->nargs; k++)
			note(&f, nodes[i]->args[k]);
	free(nodes);
	lego_memo_free(&f.seen);
	if (f.oom) {
		free(f.syms);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	/* Declaration order, whatever the shape of e. */
	if (f.n > 1)
		qsort(f.syms, f.n, sizeof *f.syms, by_declaration);
	*syms = f.syms;
	*n = f.n;
	return LEGO_OK;
}
