/* assume.c - are the assumptions consistent?  An inconsistent set proves
 * anything, so every other proof depends on this one. */
#include "proof/proof.h"

lego_proof proof_assumptions(lego_ctx *ctx, unsigned timeout_ms)
{
	/* s >= 1 for a plain symbol s, so s < 1 holds only where the facts
	 * have no model: proved means inconsistent, refuted (a model of
	 * the facts) consistent. */
	lego_expr *s = lego_sym(ctx, "_consistent");
	lego_expr *cond = s ? lego_binop(ctx, LEGO_LT, s, lego_const(ctx, 1))
			    : NULL;
	lego_proof p = cond ? lego_smt_prove(ctx, cond, timeout_ms, NULL)
			    : LEGO_UNKNOWN;
	return p == LEGO_PROVED ? LEGO_REFUTED
	       : p == LEGO_REFUTED ? LEGO_PROVED : LEGO_UNKNOWN;
}
