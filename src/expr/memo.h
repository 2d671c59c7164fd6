/* memo.h - a map from node ids to values for one traversal (internal to
 * expr): open addressing, malloc'd, freed by lego_memo_free. */
#ifndef LEGO_EXPR_MEMO_H
#define LEGO_EXPR_MEMO_H

#include "expr/expr.h"

typedef struct lego_memo_entry {
	const lego_expr *key; /* NULL when empty */
	void *ptr;
	size_t n;   /* a count, for traversals that need one */
	size_t tag; /* a second number, owned by the traversal */
} lego_memo_entry;

typedef struct lego_memo {
	lego_memo_entry *slots;
	size_t cap;
	size_t count;
} lego_memo;

int lego_memo_init(lego_memo *m, size_t hint);
void lego_memo_free(lego_memo *m);
/* The entry of key, or NULL. */
lego_memo_entry *lego_memo_get(const lego_memo *m, const lego_expr *key);
/* The entry of key, created zeroed when absent; NULL when out of memory. */
lego_memo_entry *lego_memo_put(lego_memo *m, const lego_expr *key);

/* Whether a traversal already holds what it needs of a node (it is then
 * left out with everything below it that is not reached otherwise). */
typedef int (*lego_expr_stop)(void *arg, const lego_expr *e);

/* The distinct nodes with arguments of the DAG below root (root
 * included), each after its arguments, none below a node that stop
 * accepts (stop may be NULL).  Iterative: the depth of the expression
 * costs no C stack.  *out is malloc'd (caller frees; NULL when empty). */
int lego_expr_topo(lego_expr *root, lego_expr_stop stop, void *arg,
		   lego_expr ***out, size_t *n);

/* How many times a node's written form writes each of its operands. */
typedef unsigned (*lego_expr_repeats)(void *arg, const lego_expr *e);

/* Nodes of e counted as a tree (a shared node once per use, leaves
 * included; with repeats, an operand as often as its parent writes it),
 * at most cap: computed on the DAG, in time linear in its distinct
 * nodes. */
size_t lego_expr_tree_size(const lego_expr *e, size_t cap,
			   lego_expr_repeats repeats, void *arg);

#endif
