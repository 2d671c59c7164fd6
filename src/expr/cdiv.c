/* cdiv.c - ceiling division, built from existing nodes so that every
 * consumer (printers, evaluation, simplifier) already knows it. */
#include "lego.h"

/* A NULL operand makes the constructors fail with the context's message. */
lego_expr *lego_cdiv(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_expr *bm1 = lego_sub(ctx, b, lego_const(ctx, 1));
	return lego_div(ctx, lego_add(ctx, a, bm1), b);
}
