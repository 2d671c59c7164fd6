/* emit_triton.c - Triton (Python) text of index expressions.
 *
 * Expressions are printed in the printer's Triton dialect (tl.minimum,
 * tl.maximum, tl.where, `//` and `%` only where they cannot truncate) with
 * shared subexpressions as temporaries; a slice range becomes
 * tl.arange(start, stop) broadcast on its axis.
 *
 * In an expression over slices, scalar factors are distributed over sums
 * that mix tensor (slice) and scalar terms.  `N * (tl.arange(0, BK)[:, None] + BK * k)`
 * recomputes a tensor product in every iteration of a k loop, and ptxas
 * then serialises the loop's wgmma instructions (its advisory C7515: the
 * generated FP16 matmul ran at 0.7x the hand-written one,
 * bench/triton/results.md); `N * tl.arange(0, BK)[:, None] + BK * N * k`
 * keeps the tensor product loop-invariant and adds a scalar. */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "expr/print.h"
#include "gen/targets.h"

/* A symbol whose name is the Triton text of the range:
 * tl.arange(start, stop)[:, None] and so on. */
static lego_expr *arange_sym(lego_ctx *ctx, const lego_emit_range *r)
{
	char *lo = lego_print_dialect(ctx, r->start, LEGO_DIALECT_TRITON);
	char *hi = lego_print_dialect(ctx, r->stop, LEGO_DIALECT_TRITON);
	lego_sbuf b = {0};
	if (lo && hi)
		lego_sbuf_printf(&b, "tl.arange(%s, %s)", lo, hi);
	free(lo);
	free(hi);
	if (r->naxes > 1) {
		lego_sbuf_puts(&b, "[");
		for (int a = 0; a < r->naxes; a++)
			lego_sbuf_printf(&b, "%s%s", a ? ", " : "",
					 a == r->axis ? ":" : "None");
		lego_sbuf_puts(&b, "]");
	}
	char *name = lego_sbuf_take(&b);
	lego_expr *e = name ? lego_index(ctx, name, r->start, r->stop) : NULL;
	free(name);
	return e;
}

/* The m expressions es with every range variable replaced by its arange. */
static int bind_ranges(lego_ctx *ctx, const lego_emit_request *req,
		       size_t m, lego_expr **es)
{
	size_t n = req->nranges;
	lego_expr **from = lego_xalloc(ctx, (n + 1) * sizeof *from);
	lego_expr **to = lego_xalloc(ctx, (n + 1) * sizeof *to);
	if (!from || !to)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		from[i] = (lego_expr *)req->ranges[i].sym;
		if (!(to[i] = arange_sym(ctx, &req->ranges[i])))
			return LEGO_ERR;
	}
	for (size_t i = 0; i < m; i++)
		if (!(es[i] = lego_expr_subst(ctx, es[i], n, from, to)))
			return LEGO_ERR;
	return LEGO_OK;
}

/* e == *t + *s, *t the terms holding a slice and *s the others.  A
 * product with one tensor factor distributes its scalar factors over that
 * factor's split; other nodes holding a slice are tensors whole. */
static int split_scalar(lego_ctx *ctx, lego_expr *const *ranges, size_t n,
			lego_expr *e, lego_expr **t, lego_expr **s)
{
	lego_expr *zero = lego_const(ctx, 0), *c = lego_const(ctx, 1), *f = NULL;
	lego_expr_kind k = lego_expr_kind_of(e);
	*t = zero;
	*s = zero;
	if (!lego_expr_mentions(e, ranges, n)) {
		*s = e;
		return LEGO_OK;
	}
	if (k != LEGO_ADD && k != LEGO_MUL) {
		*t = e;
		return LEGO_OK;
	}
	for (size_t i = 0; i < lego_expr_nargs(e); i++) {
		lego_expr *a = lego_expr_arg(e, i), *ta, *sa;
		if (k == LEGO_ADD) {
			if (split_scalar(ctx, ranges, n, a, &ta, &sa) != LEGO_OK)
				return LEGO_ERR;
			*t = lego_add(ctx, *t, ta);
			*s = lego_add(ctx, *s, sa);
		} else if (!lego_expr_mentions(a, ranges, n)) {
			c = lego_mul(ctx, c, a);
		} else if (f) { /* a product of tensors */
			*t = e;
			*s = zero;
			return LEGO_OK;
		} else {
			f = a;
		}
	}
	if (k == LEGO_MUL) {
		lego_expr *tf, *sf;
		if (split_scalar(ctx, ranges, n, f, &tf, &sf) != LEGO_OK)
			return LEGO_ERR;
		*t = lego_mul(ctx, c, tf);
		*s = lego_mul(ctx, c, sf);
	}
	return *t && *s ? LEGO_OK : LEGO_ERR;
}

int lego_emit_triton(lego_ctx *ctx, const lego_emit_request *req,
		     lego_emitted *out)
{
	lego_expr **es = lego_xalloc(ctx, (req->n + 1) * sizeof *es);
	lego_expr **ranges = lego_xalloc(ctx, (req->nranges + 1) * sizeof *ranges);
	if (!es || !ranges)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < req->nranges; i++)
		ranges[i] = (lego_expr *)req->ranges[i].sym;
	for (size_t i = 0; i < req->n; i++) {
		lego_expr *t, *s;
		if (!lego_dialect_supports(LEGO_DIALECT_TRITON, req->exprs[i]))
			return lego_fail(ctx, LEGO_ERR, "Triton: isqrt has no "
					 "exact Triton spelling");
		if (split_scalar(ctx, ranges, req->nranges, req->exprs[i], &t,
				 &s) != LEGO_OK ||
		    !(es[i] = lego_add(ctx, t, s)))
			return LEGO_ERR;
	}
	int rc = bind_ranges(ctx, req, req->n, es);
	if (rc != LEGO_OK)
		return rc;
	return lego_emit_shared(ctx, req, es, LEGO_DIALECT_TRITON, out);
}
