/* symbols.c - the free symbols of an expression, read off its DAG. */
#include <stdlib.h>

#include "expr/memo.h"

/* Marks e's symbol in mark (indexed by symbol number) and counts it the
 * first time. */
static void note(const lego_expr *e, unsigned char *mark, size_t *count)
{
	if (e->kind == LEGO_SYM && !mark[e->sym->index]) {
		mark[e->sym->index] = 1;
		(*count)++;
	}
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
	/* A mark per declared symbol: the result comes out in declaration
	 * order, whatever the shape of e, without sorting. */
	uint32_t nsyms = lego_expr_nsyms(ctx);
	unsigned char *mark = calloc(nsyms ? nsyms : 1, 1);
	lego_expr **nodes = NULL;
	size_t nnodes = 0, count = 0;
	if (!mark || lego_expr_topo((lego_expr *)e, NULL, NULL, &nodes,
				    &nnodes) != LEGO_OK) {
		free(mark);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	note(e, mark, &count);
	for (size_t i = 0; i < nnodes; i++)
		for (uint32_t k = 0; k < nodes[i]->nargs; k++)
			note(nodes[i]->args[k], mark, &count);
	free(nodes);
	if (count && !(*syms = malloc(count * sizeof **syms))) {
		free(mark);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	for (uint32_t s = 0; s < nsyms && *n < count; s++)
		if (mark[s])
			(*syms)[(*n)++] = lego_expr_sym_at(ctx, s);
	free(mark);
	return LEGO_OK;
}
