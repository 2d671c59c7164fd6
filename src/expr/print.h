/* print.h - the expression printer, shared by lego_expr_print,
 * lego_exprs_print and lego_expr_ops (internal to expr). */
#ifndef LEGO_EXPR_PRINT_H
#define LEGO_EXPR_PRINT_H

#include "expr/memo.h"
#include "expr/sbuf.h"

/*
 * Use counts over the DAG of several roots: entry n = number of uses (one
 * per argument slot of each distinct parent, one per root), tag bit 0 set
 * when a use is as a term of a sum, the bits above it hold the number + 1
 * of the node's temporary once it is defined.  Nodes used more than once
 * that are not leaves become temporaries in the printed form.
 */
int lego_expr_count_uses(lego_memo *uses, size_t n, lego_expr *const *es);
int lego_expr_is_temp(const lego_memo *uses, const lego_expr *e);

/* Whether a term of a sum is printed as `- term'`: a negative constant
 * or coefficient (not INT64_MIN), unless the term is a temporary. */
int lego_expr_subtracted(const lego_memo *uses, const lego_expr *t);

typedef struct lego_printer {
	lego_ctx *ctx;
	lego_lang lang;
	lego_sbuf *out;
	const lego_memo *uses;  /* NULL: no temporaries */
	const char *prefix;     /* temporaries are prefix<number> */
	const lego_expr *self;  /* the temporary being defined */
} lego_printer;

/* Appends e, parenthesised when its precedence is below need (0: none). */
void lego_print_node(lego_printer *p, const lego_expr *e, int need);

#endif
