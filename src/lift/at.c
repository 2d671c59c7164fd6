/* at.c - reads at computed indices: at(a, i) is element i of the array a
 * where i is a scalar int computed from data (a neighbour list's entry),
 * so no view can say where it points.  The index is bound to a fresh
 * variable over [0, len(a)) for the access expression, and the read is
 * guarded by 0 <= i < len(a) (zero outside): an index read from data is
 * never trusted, so an out-of-range entry reads zero, never out of
 * bounds.  Only arrays the kernel does not write (its parameters, in
 * global memory) may be read so: a data-dependent read of a local buffer
 * would defeat the barrier analysis, which needs to know which work-item
 * reads what. */
#include <stdio.h>
#include <string.h>

#include "lift/value.h"

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
