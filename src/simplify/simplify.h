/* simplify.h - the simplifier's rewrite step (internal to src/simplify). */
#ifndef LEGO_SIMPLIFY_SIMPLIFY_H
#define LEGO_SIMPLIFY_SIMPLIFY_H

#include "expr/expr.h"

/* One node whose arguments are simplified: the cheapest equal form the
 * rules find (itself when none applies).  Candidates are simplified
 * through lego_simplify(). */
lego_expr *lego_rewrite(lego_ctx *ctx, lego_expr *e);

/* root with groups of terms common to several of its sums computed once,
 * when that makes it cheaper as a whole (share.c); root otherwise. */
lego_expr *lego_share_sums(lego_ctx *ctx, lego_expr *root);

#endif
