/* undefined.c - an operation of an expression that no value makes
 * defined: all its operands constant and still not folded (the
 * constructors fold every defined constant operation, so 0 / 0 is left),
 * or a constant divisor of 0 or shift amount out of 0..62.  Found where a
 * GenP's formula meets its dims and a constant index. */
#include <stdlib.h>

#include "layout/layout.h"

/* Nodes visited; beyond, the search gives up (a diagnostic, not a
 * proof: evaluation still refuses the operation). */
enum { UNDEF_MAX_NODES = 4096 };

typedef struct undef_walk {
	const lego_expr **seen;
	size_t n;
} undef_walk;

static const lego_expr *find(undef_walk *w, const lego_expr *e)
{
	size_t nargs = lego_expr_nargs(e);
	if (!nargs)
		return NULL;
	for (size_t i = 0; i < w->n; i++)
		if (w->seen[i] == e)
			return NULL;
	if (w->n == UNDEF_MAX_NODES)
		return NULL;
	w->seen[w->n++] = e;
	int all_const = 1;
	/* A select evaluates one branch: what is undefined in a branch may
	 * never be evaluated. */
	if (lego_expr_kind_of(e) == LEGO_SELECT)
		nargs = 1;
	for (size_t i = 0; i < nargs; i++) {
		const lego_expr *a = lego_expr_arg(e, i);
		const lego_expr *bad = find(w, a);
		if (bad)
			return bad;
		all_const &= lego_expr_is_const(a, NULL);
	}
	/* A constant divisor of 0 or shift amount out of 0..62 makes the
	 * operation undefined whatever the other operand. */
	int64_t b;
	lego_expr_kind k = lego_expr_kind_of(e);
	if (nargs == 2 && lego_expr_is_const(lego_expr_arg(e, 1), &b) &&
	    (((k == LEGO_DIV || k == LEGO_MOD) && b == 0) ||
	     ((k == LEGO_SHL || k == LEGO_SHR) && (b < 0 || b > 62))))
		return e;
	return all_const ? e : NULL;
}

const lego_expr *layout_undefined_op(lego_expr *e)
{
	undef_walk w = {malloc(UNDEF_MAX_NODES * sizeof *w.seen), 0};
	const lego_expr *bad = w.seen && e ? find(&w, e) : NULL;
	free(w.seen);
	return bad;
}

const char *layout_undefined_why(const lego_expr *op)
{
	switch (lego_expr_kind_of(op)) {
	case LEGO_DIV: return "division by zero (or overflow)";
	case LEGO_MOD: return "modulo by zero";
	case LEGO_ISQRT: return "isqrt of a negative value";
	case LEGO_SHL:
	case LEGO_SHR: return "a shift by an amount outside 0..62";
	default: return "64-bit overflow";
	}
}
