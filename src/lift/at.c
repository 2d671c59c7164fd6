/* at.c - reads at computed indices: at(a, i) is element i of the array a
 * where i is a scalar int computed from data (a neighbour list's entry),
 * so no view can say where it points.  The index is bound to a fresh
 * variable over [0, len(a)) for the access expression, and the read is
 * guarded by 0 <= i < len(a) (zero outside): an index read from data is
 * never trusted, so an out-of-range entry reads zero, never out of
 * bounds.  Only arrays the kernel does not write (its parameters, in
 * global memory) may be read so: a data-dependent read of a local buffer
 * would defeat the barrier analysis, which needs to know which work-item
 * reads what.
 *
 * An index written as an integer literal is a position, not data (a
 * neighbour of a stencil's window, Lift's array access by a constant):
 * it must lie in [0, len(a)), proved, and the read is the view's access
 * at that constant, simplified, with no guard. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

/* a[k], k a literal: in range or an error. */
static lift_val *at_const(lift_cc *cc, const lift_fun *f, lift_val *a,
			  long long k)
{
	lego_expr *n = lego_simplify(cc->ctx, a->type->len);
	int64_t len;
	if (!n || !lego_expr_is_const(n, &len) || k < 0 || k >= len)
		return lift_err(cc, f->at, "at's constant index %lld is not "
				"within the array's constant length", k);
	return lift_view_get(cc, a, lego_const(cc->ctx, k));
}

lift_val *lift_at(lift_cc *cc, const lift_fun *f, lift_val *a, lift_val *i)
{
	if (a->kind != VAL_ARRAY)
		return lift_err(cc, f->at, "at reads an array: its first "
				"argument is not one");
	if (!lift_view_reads_params(a->view))
		return lift_err(cc, f->at, "at reads the kernel's parameters "
				"(global memory), not a buffer the kernel "
				"writes");
	lift_type *et = a->type->elems[0];
	if (et->kind > LIFT_INT || et->width > 1)
		return lift_err(cc, f->at, "at reads an array of scalars");
	if (i->kind != VAL_SCALAR || i->type->kind != LIFT_INT ||
	    i->type->width > 1)
		return lift_err(cc, f->at, "at's index is a scalar int");
	char *end;
	long long k = strtoll(i->text, &end, 10);
	if (end != i->text && !*end)
		return at_const(cc, f, a, k);
	char name[32];
	lego_expr *g = lift_fresh_index(cc, a->type->len, name, sizeof name);
	const char *len = lift_print_index(cc, a->type->len);
	lift_val *x = g && len ? lift_view_get(cc, a, g) : NULL;
	if (!x)
		return NULL;
	lift_emit(cc, "int %s = %s;", name, i->text);
	size_t n = 2 * strlen(name) + strlen(len) + strlen(x->text) + 40;
	char *text = lego_arena_alloc(&cc->ctx->arena, n);
	if (!text)
		return NULL;
	snprintf(text, n, "((0 <= %s && %s < %s) ? %s : %s)", name, name, len,
		 x->text, et->kind == LIFT_INT ? "0" : "0.0f");
	return lift_val_typed(cc, et, text);
}
