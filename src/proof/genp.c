/* genp.c - a user GenP's inverse, proved once per template (or leaf) and
 * sizes. */
#include <stdio.h>
#include <stdlib.h>

#include "layout/layout.h"
#include "proof/proof.h"

enum { MAX_RANK = 64 };
/* lego_smt_prove decides a domain of at most this many points by
 * evaluating every one (src/smt/enumerate.c). */
enum { ENUM_POINTS = 1 << 20 };
/* A `genp` declaration's template is proved once, for all dims: its
 * queries get PROOF_ONCE_MS (the grouped GenP of bench/tune needs about
 * 8 s of Z3's resources, 1-3 s of wall clock here). */

int64_t proof_genp_points(const lego_layout *leaf)
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

/* One condition of the argument; a failure is recorded in a, a
 * refutation with its counterexample (confirmed by evaluation in
 * src/smt). */
static void ask(lego_ctx *ctx, lego_expr *cond, unsigned ms, const char *what,
		const char *name, proof_arg *a)
{
	if (a->status != LEGO_PROVED)
		return;
	lego_env *env = lego_env_new(ctx);
	lego_proof p = cond && env ? lego_smt_prove(ctx, cond, ms, env)
				   : LEGO_UNKNOWN;
	if (p != LEGO_PROVED) {
		a->status = p;
		proof_say(a, "GenP %s: %s %s%s%s", name, what,
			  p == LEGO_REFUTED ? "refuted" : "not proved",
			  p == LEGO_REFUTED ? "" : ": ",
			  p == LEGO_REFUTED ? "" : lego_ctx_error(ctx));
		if (p == LEGO_REFUTED)
			proof_say_witness(ctx, cond, env, a);
	}
	lego_env_free(env);
}

/* The three conditions of leaf's inverse over the indices idx. */
static void prove_inverse(lego_ctx *ctx, const lego_layout *leaf,
			  lego_expr *const *idx, unsigned ms, proof_arg *a)
{
	lego_expr *inv[MAX_RANK];
	const char *name = leaf->genp->name;
	lego_expr *zero = lego_const(ctx, 0);
	lego_expr *size = lego_layout_size(ctx, leaf);
	lego_expr *f = lego_layout_apply(ctx, leaf, idx);
	a->status = LEGO_PROVED;
	if (!f || !size || lego_layout_inv(ctx, leaf, f, inv) != LEGO_OK) {
		a->status = LEGO_UNKNOWN;
		proof_say(a, "GenP %s: no symbolic apply and inverse: %s",
			  name, lego_ctx_error(ctx));
		return;
	}
	lego_expr *left = lego_const(ctx, 1);
	for (size_t k = 0; k < leaf->rank && left; k++)
		left = lego_binop(ctx, LEGO_AND, left,
				  lego_binop(ctx, LEGO_EQ, inv[k], idx[k]));
	ask(ctx, lego_binop(ctx, LEGO_LE, zero, f), ms, "0 <= apply(i)", name,
	    a);
	ask(ctx, lego_binop(ctx, LEGO_LT, f, size), ms, "apply(i) < size",
	    name, a);
	ask(ctx, left, ms, "inv(apply(i)) == i", name, a);
}

/* Is leaf its template's formulas at its own dims?  Then the template's
 * bijection for every value of its dims (symbols, each at least 1) is
 * leaf's, whose dims its constructor proved at least 1.  Checked here
 * (the nodes are hash-consed), not taken from the parser. */
static const lego_layout *instance_of(lego_ctx *ctx, const lego_layout *leaf)
{
	const lego_layout *t = leaf->genp->tmpl;
	if (!t || t->rank != leaf->rank || t->genp->flat != leaf->genp->flat)
		return NULL;
	for (size_t k = 0; k < t->rank; k++)
		if (lego_expr_kind_of(t->dims[k]) != LEGO_SYM ||
		    t->genp->params[k] != leaf->genp->params[k] ||
		    lego_expr_subst(ctx, t->genp->inv_e[k], t->rank, t->dims,
				    leaf->dims) != leaf->genp->inv_e[k])
			return NULL;
	return lego_expr_subst(ctx, t->genp->apply_e, t->rank, t->dims,
			       leaf->dims) == leaf->genp->apply_e ? t : NULL;
}

int proof_genp(lego_ctx *ctx, const lego_layout *leaf, unsigned timeout_ms,
	       proof_arg *a, lego_argument *by, int *by_template)
{
	lego_expr *idx[MAX_RANK];
	char base[32];
	if (leaf->rank > MAX_RANK)
		return lego_fail(ctx, LEGO_ERR, "proof: GenP rank %zu",
				 leaf->rank);
	*by_template = 0;
	/* A finite domain is decided at once by evaluation; the template
	 * is for symbolic dims. */
	const lego_layout *t = proof_genp_points(leaf) < 0
				       ? instance_of(ctx, leaf) : NULL;
	proof_arg ta = {LEGO_PROVED, LEGO_BY_Z3, ""};
	if (t) {
		/* The template's own index symbols range over its dims: the
		 * same queries for every use, answered once (src/smt's
		 * cache). */
		prove_inverse(ctx, t, t->genp->params,
			      PROOF_ONCE_MS, &ta);
		if (ta.status == LEGO_PROVED) {
			*by_template = 1;
			*by = LEGO_BY_Z3;
			return LEGO_OK;
		}
	}
	for (size_t k = 0; k < leaf->rank; k++) {
		snprintf(base, sizeof base, "_g%zu", k);
		if (!(idx[k] = lego_index_fresh(ctx, base, NULL,
						leaf->dims[k])))
			return LEGO_ERR;
	}
	proof_arg la = {LEGO_PROVED, LEGO_BY_NONE, ""};
	prove_inverse(ctx, leaf, idx, timeout_ms, &la);
	*by = proof_genp_points(leaf) >= 0 ? LEGO_BY_EXHAUSTIVE : LEGO_BY_Z3;
	if (la.status != LEGO_PROVED) {
		a->status = la.status;
		a->by = *by;
		if (t)
			proof_say(a, "for all dims: %s; at these: ", ta.why);
		proof_say(a, "%s", la.why);
	}
	return LEGO_OK;
}
