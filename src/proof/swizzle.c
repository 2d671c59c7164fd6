/* swizzle.c - the built-in swizzle GenP proved for every size by a
 * certificate of its own, as the rules are (src/proof/rules.c).
 *
 * Swizzle<B,M,S> maps a row-major offset o to f(o) = o ^ ((o >> S) &
 * mask), mask = (2^B - 1) << M.  The certificate: over 64-bit bit-vectors
 * (the emitted code computes so), for every o >= 0, f(f(o)) == o (an
 * involution: the bits it reads lie above those it writes, S >= B) and
 * f(o) >> (M+B) == o >> (M+B) (f keeps each aligned block of 2^(M+B)
 * offsets); and 2^(M+B) divides the size under the facts.  Then f maps
 * [0, size), a union of whole blocks, into itself, injectively, so onto
 * it, with f its own inverse; the flattening around it is row-major
 * order, a bijection. */
#include <stdio.h>

#include "layout/layout.h"
#include "proof/proof.h"
#include "smt/smt.h"

/* f(o) for the parameters b, m, s, built as src/layout/swizzle.c builds
 * it (the nodes are hash-consed: equal formulas are one node). */
static lego_expr *formula(lego_ctx *ctx, int b, int m, int s, lego_expr *o)
{
	int64_t mask = ((INT64_C(1) << b) - 1) << m;
	lego_expr *bits = lego_binop(ctx, LEGO_BAND,
				     lego_binop(ctx, LEGO_SHR, o,
						lego_const(ctx, s)),
				     lego_const(ctx, mask));
	return lego_binop(ctx, LEGO_BXOR, o, bits);
}

/* The leaf's f over a one-dim offset, when the leaf is a swizzle whose
 * formula is the one its name gives (checked, not taken from the
 * name); *b, *m: its parameters.  NULL otherwise. */
static lego_expr *swizzle_of(lego_ctx *ctx, const lego_layout *leaf,
			     lego_expr *o, int *b, int *m)
{
	const lego_genp_fn *fn = &leaf->genp->fn;
	int s;
	if (!fn->apply_sym || sscanf(leaf->genp->name, "swizzle(%d, %d, %d)",
				     b, m, &s) != 3 || *b < 0 || *m < 0 ||
	    s < 0 || *b + *m + s > SMT_SHIFT_TOP)
		return NULL;
	lego_expr *size = lego_layout_size(ctx, leaf);
	lego_expr *f = size ? fn->apply_sym(ctx, fn->user, 1, &size, &o)
			    : NULL;
	return f && f == formula(ctx, *b, *m, s, o) ? f : NULL;
}

/* cond over 64-bit bit-vectors, o any value its range allows. */
static int holds64(lego_ctx *ctx, lego_expr *cond, unsigned ms)
{
	return cond && smt_prove_bv64(ctx, cond, NULL, 0, NULL, ms, 0) ==
			       LEGO_PROVED;
}

int proof_swizzle(lego_ctx *ctx, const lego_layout *leaf, unsigned ms,
		  proof_arg *a)
{
	if (!leaf->genp->check_dims)
		return 0;
	int b, m;
	/* o over [0, 2^62): every offset of a layout that fits */
	lego_expr *o = lego_index_fresh(ctx, "_o", NULL,
					lego_const(ctx, INT64_C(1) << 62));
	if (!o)
		return LEGO_ERR;
	lego_expr *f = swizzle_of(ctx, leaf, o, &b, &m);
	if (!f)
		return 0;
	lego_expr *k = lego_const(ctx, b + m);
	lego_expr *block = lego_const(ctx, INT64_C(1) << (b + m));
	lego_expr *size = lego_layout_size(ctx, leaf);
	lego_expr *zero = lego_const(ctx, 0);
	if (!holds64(ctx, lego_binop(ctx, LEGO_EQ,
				     lego_expr_subst(ctx, f, 1, &o, &f), o),
		     proof_once_ms(ms)) ||
	    !holds64(ctx, lego_binop(ctx, LEGO_EQ,
				     lego_binop(ctx, LEGO_SHR, f, k),
				     lego_binop(ctx, LEGO_SHR, o, k)),
		     proof_once_ms(ms))) {
		a->status = LEGO_UNKNOWN;
		proof_say(a, "GenP %s: its certificate not proved over 64-bit "
			  "bit-vectors: %s", leaf->genp->name,
			  lego_ctx_error(ctx));
		return 1;
	}
	lego_proof p = lego_smt_prove(ctx, lego_binop(ctx, LEGO_EQ,
						      lego_binop(ctx, LEGO_MOD,
								 size, block),
						      zero),
				      ms, NULL);
	if (p != LEGO_PROVED) {
		/* LEGO_BY_NONE: the whole-layout queries cannot do better
		 * (the same size fact) and take long on xor. */
		a->status = p == LEGO_REFUTED ? LEGO_UNKNOWN : p;
		a->by = LEGO_BY_NONE;
		proof_say(a, "GenP %s: 2^(M+B) = %lld divides the size: not "
			  "proved from the assumptions (it is checked when "
			  "sizes are concrete)", leaf->genp->name,
			  (long long)(INT64_C(1) << (b + m)));
	}
	return 1;
}
