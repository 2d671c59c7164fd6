/* cdiv.c - ceiling division, built from existing nodes so that every
 * consumer (printers, evaluation, simplifier) already knows it. */
#include "lego.h"

lego_expr *lego_cdiv(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_expr *one = lego_const(ctx, 1);
	lego_expr *bm1 = b && one ? lego_sub(ctx, b, one) : NULL;
	lego_expr *n = a && bm1 ? lego_add(ctx, a, bm1) : NULL;
	return n ? lego_div(ctx, n, b) : NULL;
}
