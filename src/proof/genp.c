/* genp.c - a user GenP's inverse, proved once per leaf and sizes. */
#include <stdio.h>

#include "layout/layout.h"
#include "proof/proof.h"

enum { MAX_RANK = 64 };
/* lego_smt_prove decides a domain of at most this many points by
 * evaluating every one (src/smt/enumerate.c). */
enum { ENUM_POINTS = 1 << 20 };

/* The number of points of the leaf's domain, or -1 when a dim is
 * symbolic or there are more than ENUM_POINTS. */
static int64_t finite_points(const lego_layout *leaf)
{
	int64_t n = 1, v;
	for (size_t k = 0; k < leaf->rank; k++) {
		if (!lego_expr_is_const(leaf->dims[k], &v) || v > ENUM_POINTS)
			return -1;
		n *= v;
		if (n > ENUM_POINTS)
			return -1;
	}
	return n;
}

/* One condition of the argument; a failure is recorded in a. */
static void ask(lego_ctx *ctx, lego_expr *cond, unsigned ms, const char *what,
		const char *name, proof_arg *a)
{
	if (a->status != LEGO_PROVED)
		return;
	lego_proof p = cond ? lego_smt_prove(ctx, cond, ms, NULL)
			    : LEGO_UNKNOWN;
	if (p == LEGO_PROVED)
		return;
	a->status = p;
	proof_say(a, "GenP %s: %s %s%s%s", name, what,
		  p == LEGO_REFUTED ? "refuted" : "not proved",
		  p == LEGO_REFUTED ? "" : ": ", p == LEGO_REFUTED ? ""
		  : lego_ctx_error(ctx));
}

int proof_genp(lego_ctx *ctx, const lego_layout *leaf, unsigned timeout_ms,
	       proof_arg *a, lego_argument *by)
{
	lego_expr *idx[MAX_RANK], *inv[MAX_RANK];
	const char *name = leaf->genp->name;
	char base[32];
	if (leaf->rank > MAX_RANK)
		return lego_fail(ctx, LEGO_ERR, "proof: GenP rank %zu",
				 leaf->rank);
	for (size_t k = 0; k < leaf->rank; k++) {
		snprintf(base, sizeof base, "_g%zu", k);
		if (!(idx[k] = lego_index_fresh(ctx, base, NULL,
						leaf->dims[k])))
			return LEGO_ERR;
	}
	lego_expr *zero = lego_const(ctx, 0);
	lego_expr *size = lego_layout_size(ctx, leaf);
	lego_expr *f = lego_layout_apply(ctx, leaf, idx);
	if (!f || !size || lego_layout_inv(ctx, leaf, f, inv) != LEGO_OK) {
		*by = a->by = LEGO_BY_NONE;
		a->status = LEGO_UNKNOWN;
		proof_say(a, "GenP %s: no symbolic apply and inverse: %s",
			  name, lego_ctx_error(ctx));
		return LEGO_OK;
	}
	lego_expr *left = lego_const(ctx, 1);
	for (size_t k = 0; k < leaf->rank && left; k++)
		left = lego_binop(ctx, LEGO_AND, left,
				  lego_binop(ctx, LEGO_EQ, inv[k], idx[k]));
	ask(ctx, lego_binop(ctx, LEGO_LE, zero, f), timeout_ms,
	    "0 <= apply(i)", name, a);
	ask(ctx, lego_binop(ctx, LEGO_LT, f, size), timeout_ms,
	    "apply(i) < size", name, a);
	ask(ctx, left, timeout_ms, "inv(apply(i)) == i", name, a);
	*by = finite_points(leaf) >= 0 ? LEGO_BY_EXHAUSTIVE : LEGO_BY_Z3;
	if (a->status != LEGO_PROVED)
		a->by = *by;
	return LEGO_OK;
}
