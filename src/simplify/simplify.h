/* simplify.h - the simplifier's rewrite step (internal to src/simplify). */
#ifndef LEGO_SIMPLIFY_SIMPLIFY_H
#define LEGO_SIMPLIFY_SIMPLIFY_H

#include "expr/expr.h"

/* One node whose arguments are simplified: the cheapest equal form the
 * rules find (itself when none applies).  Candidates are simplified
 * through lego_simplify(). */
lego_expr *lego_rewrite(lego_ctx *ctx, lego_expr *e);

/* 0 <= x < d proved. */
int lego_in_range(lego_ctx *ctx, lego_expr *x, lego_expr *d);

/* x = q*d + r, q the terms of x that d divides, for a constant d moved
 * constants and, where that brings r into [0, d), split coefficients
 * (split.c): x/d = q + r/d and x%d = r%d.  0 when q would be 0. */
int lego_quotient_split(lego_ctx *ctx, lego_expr *x, lego_expr *d,
			lego_expr **q, lego_expr **r);

/* root with groups of terms common to several of its sums computed once,
 * when that makes it cheaper as a whole (share.c); root otherwise. */
lego_expr *lego_share_sums(lego_ctx *ctx, lego_expr *root);

#endif
