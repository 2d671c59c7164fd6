/* canon.h - canonical n-ary sums and products (internal to expr). */
#ifndef LEGO_EXPR_CANON_H
#define LEGO_EXPR_CANON_H

#include "expr/expr.h"

lego_expr *lego_canon_add(lego_ctx *ctx, size_t n, lego_expr *const *args);
lego_expr *lego_canon_mul(lego_ctx *ctx, size_t n, lego_expr *const *args);

#endif
