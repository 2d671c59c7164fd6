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
 * order, a bijection.  The lemmas are asked in a ctx of their own, within
 * a fixed budget of Z3's resources (LEMMA_MS), so their answer depends
 * neither on what was asked before nor on the machine's load. */
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

/* Its 64-bit lemmas get this budget, ms of Z3's resources (each takes a
 * few); its size fact, asked under the spec's assumptions, gets
 * SIZE_MS. */
enum { LEMMA_MS = 4000, SIZE_MS = 2000 };

/* The leaf's parameters when it is a swizzle by its name; 0 otherwise. */
static int params_of(const lego_layout *leaf, int *b, int *m, int *s)
{
	return leaf->genp->fn.apply_sym &&
	       sscanf(leaf->genp->name, "swizzle(%d, %d, %d)", b, m, s) == 3 &&
	       *b >= 0 && *m >= 0 && *s >= 0 && *b + *m + *s <= SMT_SHIFT_TOP;
}

/* cond over 64-bit bit-vectors, o any value its range allows. */
static int holds64(lego_ctx *ctx, lego_expr *cond)
{
	return cond && smt_prove_bv64(ctx, cond, NULL, 0, NULL, LEMMA_MS,
				      0) == LEGO_PROVED;
}

/* The certificate's lemmas for fn, in a ctx of its own (so a Z3 context
 * of its own: nothing asked before, no assumption and no time limit of
 * the caller's changes the answer): 1 proved, 0 not (said in a), -1
 * when fn's formula is not the one its name gives (checked, not taken
 * from the name), LEGO_ENOMEM. */
static int lemmas(lego_ctx *outer, const lego_genp_fn *fn, int b, int m,
		  int sh, proof_arg *a)
{
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		return lego_fail(outer, LEGO_ENOMEM, "out of memory");
	/* o over [0, 2^62): every offset of a layout that fits */
	lego_expr *o = lego_index_fresh(ctx, "_o", NULL,
					lego_const(ctx, INT64_C(1) << 62));
	lego_expr *size = lego_sym(ctx, "_size");
	lego_expr *f = o && size ? fn->apply_sym(ctx, fn->user, 1, &size, &o)
				 : NULL;
	lego_expr *k = lego_const(ctx, b + m);
	int ok = f && f == formula(ctx, b, m, sh, o) ? 1 : -1;
	if (ok == 1 &&
	    (!holds64(ctx, lego_binop(ctx, LEGO_EQ,
				      lego_expr_subst(ctx, f, 1, &o, &f), o)) ||
	     !holds64(ctx, lego_binop(ctx, LEGO_EQ,
				      lego_binop(ctx, LEGO_SHR, f, k),
				      lego_binop(ctx, LEGO_SHR, o, k))))) {
		ok = 0;
		a->status = LEGO_UNKNOWN;
		proof_say(a, "GenP swizzle(%d, %d, %d): its certificate not "
			  "proved over 64-bit bit-vectors: %s", b, m, sh,
			  lego_ctx_error(ctx));
	}
	lego_ctx_free(ctx);
	return ok;
}

int proof_swizzle(lego_ctx *ctx, const lego_layout *leaf, proof_arg *a)
{
	int b, m, sh;
	if (!leaf->genp->check_dims || !params_of(leaf, &b, &m, &sh))
		return 0;
	int ok = lemmas(ctx, &leaf->genp->fn, b, m, sh, a);
	if (ok <= 0)
		return ok == -1 ? 0 : ok == 0 ? 1 : ok;
	lego_expr *block = lego_const(ctx, INT64_C(1) << (b + m));
	lego_expr *size = lego_layout_size(ctx, leaf);
	lego_expr *zero = lego_const(ctx, 0);
	lego_proof p = size ? lego_smt_prove(ctx, lego_binop(ctx, LEGO_EQ,
						lego_binop(ctx, LEGO_MOD,
							   size, block),
						zero),
				      SIZE_MS, NULL) : LEGO_UNKNOWN;
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
