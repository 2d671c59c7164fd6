/* topo.c - the nodes of a DAG in post-order with an explicit stack, so
 * that a traversal can visit them children first without recursing as
 * deep as the expression is. */
#include <stdlib.h>

#include "expr/memo.h"

typedef struct frame {
	lego_expr *e;
	uint32_t next; /* the argument to visit next */
} frame;

/* buf with room for n + 1 items of size bytes: itself, a larger copy
 * (*cap updated), or NULL when out of memory (buf is then kept). */
static void *reserve(void *buf, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return buf;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(buf, c * size);
	if (p)
		*cap = c;
	return p;
}

int lego_expr_topo(lego_expr *root, lego_expr_stop stop, void *arg,
		   lego_expr ***out, size_t *n)
{
	lego_memo seen;
	frame *st = NULL;
	size_t stcap = 0, depth = 0, outcap = 0;
	*out = NULL;
	*n = 0;
	if (lego_memo_init(&seen, 64) != LEGO_OK)
		return LEGO_ENOMEM;
	int rc = LEGO_OK;
	if (root->nargs && !(stop && stop(arg, root))) {
		frame *grown = reserve(st, &stcap, 0, sizeof *st);
		if (grown && lego_memo_put(&seen, root)) {
			st = grown;
			st[depth++] = (frame){root, 0};
		} else {
			st = grown ? grown : st;
			rc = LEGO_ENOMEM;
		}
	}
	while (depth && rc == LEGO_OK) {
		frame *f = &st[depth - 1];
		if (f->next == f->e->nargs) {
			lego_expr **grown = reserve(*out, &outcap, *n,
						    sizeof **out);
			if (!grown) {
				rc = LEGO_ENOMEM;
				break;
			}
			*out = grown;
			(*out)[(*n)++] = f->e;
			depth--;
			continue;
		}
		lego_expr *a = f->e->args[f->next++];
		if (!a->nargs || lego_memo_get(&seen, a) || (stop && stop(arg, a)))
			continue;
		frame *grown = reserve(st, &stcap, depth, sizeof *st);
		if (!grown || !lego_memo_put(&seen, a)) {
			st = grown ? grown : st;
			rc = LEGO_ENOMEM;
			break;
		}
		st = grown;
		st[depth++] = (frame){a, 0};
	}
	free(st);
	lego_memo_free(&seen);
	if (rc != LEGO_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

static size_t add_sat(size_t a, size_t b, size_t cap)
{
	return a >= cap || b >= cap - a ? cap : a + b;
}

size_t lego_expr_tree_size(const lego_expr *e, size_t cap,
			   lego_expr_repeats repeats, void *arg)
{
	lego_expr **order;
	size_t n;
	lego_memo size;
	if (!e)
		return 0;
	if (!e->nargs)
		return 1 < cap ? 1 : cap;
	if (lego_memo_init(&size, 64) != LEGO_OK)
		return cap;
	if (lego_expr_topo((lego_expr *)e, NULL, NULL, &order, &n) != LEGO_OK) {
		lego_memo_free(&size);
		return cap;
	}
	size_t total = cap;
	for (size_t i = 0; i < n; i++) {
		size_t t = 1;
		unsigned r = repeats ? repeats(arg, order[i]) : 1;
		for (uint32_t k = 0; k < order[i]->nargs; k++) {
			const lego_expr *a = order[i]->args[k];
			size_t s = a->nargs ? lego_memo_get(&size, a)->n : 1;
			for (unsigned j = 0; j < r; j++)
				t = add_sat(t, s, cap);
		}
		lego_memo_entry *m = lego_memo_put(&size, order[i]);
		if (!m)
			break;
		m->n = t;
		if (i + 1 == n)
			total = t;
	}
	free(order);
	lego_memo_free(&size);
	return total;
}
