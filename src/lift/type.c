/* type.c - Lift types: scalars, tuples, arrays of symbolic length. */
#include <stdlib.h>
#include <string.h>

#include "expr/sbuf.h"
#include "lift/lift.h"

static lift_type *type_new(lego_ctx *ctx, lift_type_kind kind)
{
	lift_type *t = lego_arena_alloc(&ctx->arena, sizeof *t);
	if (t)
		t->kind = kind;
	return t;
}

lift_type *lift_type_scalar(lego_ctx *ctx, lift_type_kind kind)
{
	return type_new(ctx, kind);
}

lift_type *lift_type_vector(lego_ctx *ctx, lift_type_kind kind, int width)
{
	lift_type *t = type_new(ctx, kind);
	if (t && width > 1)
		t->width = width;
	return t;
}

lego_expr *lift_type_scalars(lego_ctx *ctx, const lift_type *t)
{
	lego_expr *n = lego_const(ctx, 1);
	for (; t->kind == LIFT_ARRAY; t = t->elems[0])
		n = lego_mul(ctx, n, t->len);
	if (t->width > 1)
		n = lego_mul(ctx, n, lego_const(ctx, t->width));
	return lego_simplify(ctx, n);
}

lift_type *lift_type_array(lego_ctx *ctx, lift_type *elem, lego_expr *len)
{
	lift_type *t = elem && len ? type_new(ctx, LIFT_ARRAY) : NULL;
	if (!t)
		return NULL;
	t->elems = lego_arena_alloc(&ctx->arena, sizeof *t->elems);
	if (!t->elems)
		return NULL;
	t->elems[0] = elem;
	t->nelems = 1;
	t->len = len;
	return t;
}

lift_type *lift_type_tuple(lego_ctx *ctx, lift_type **elems, size_t n)
{
	lift_type *t = type_new(ctx, LIFT_TUPLE);
	if (!t)
		return NULL;
	t->elems = elems;
	t->nelems = n;
	return t;
}

int lift_type_equal(lego_ctx *ctx, const lift_type *a, const lift_type *b)
{
	if (a->kind != b->kind || a->nelems != b->nelems ||
	    a->width != b->width)
		return 0;
	if (a->kind == LIFT_ARRAY) {
		lego_expr *d = lego_simplify(ctx, lego_sub(ctx, a->len, b->len));
		int64_t v;
		if (!d || !lego_expr_is_const(d, &v) || v != 0)
			return 0;
	}
	for (size_t i = 0; i < a->nelems; i++)
		if (!lift_type_equal(ctx, a->elems[i], b->elems[i]))
			return 0;
	return 1;
}

static void print_into(lego_ctx *ctx, lego_sbuf *b, const lift_type *t)
{
	switch (t->kind) {
	case LIFT_FLOAT:
	case LIFT_INT:
		lego_sbuf_puts(b, t->kind == LIFT_INT ? "int" : "float");
		if (t->width > 1)
			lego_sbuf_printf(b, "%d", t->width);
		break;
	case LIFT_TUPLE:
		lego_sbuf_puts(b, "(");
		for (size_t i = 0; i < t->nelems; i++) {
			if (i)
				lego_sbuf_puts(b, ", ");
			print_into(ctx, b, t->elems[i]);
		}
		lego_sbuf_puts(b, ")");
		break;
	case LIFT_ARRAY: {
		lego_sbuf_puts(b, "[");
		print_into(ctx, b, t->elems[0]);
		lego_sbuf_puts(b, "]");
		/* Simplified under the program's assumptions: a split then
		 * join of N is N when the split divides it, not 8 * (N / 8). */
		lego_expr *n = lego_simplify(ctx, t->len);
		char *len = lego_expr_print(ctx, n ? n : t->len, LEGO_LANG_C);
		int atom = len && strspn(len, "abcdefghijklmnopqrstuvwxyz"
					      "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789_") == strlen(len);
		lego_sbuf_printf(b, atom ? "%s" : "(%s)", len ? len : "?");
		free(len);
		break;
	}
	}
}

char *lift_type_print(lego_ctx *ctx, const lift_type *t)
{
	lego_sbuf b = {0};
	print_into(ctx, &b, t);
	return lego_sbuf_take(&b);
}
