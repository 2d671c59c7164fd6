/* layout.c - lego_layout_prove: the assumptions, then bijectivity by
 * construction, then "simplified == semantics" with the solver; the
 * whole-layout queries of lego_layout_validate only where construction
 * does not settle the inverse. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "proof/proof.h"
#include "simplify/cert.h"

enum { MAX_RANK = 64 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Exhaustive when every index bound is a constant (the solver then
 * enumerates), else Z3. */
static lego_argument solver_argument(lego_ctx *ctx, const lego_layout *l)
{
	int64_t v;
	for (size_t k = 0; k < lego_layout_rank(l); k++)
		if (!lego_expr_is_const(lego_layout_dim(l, k), &v))
			return LEGO_BY_Z3;
	lego_expr *size = lego_layout_phys_size(ctx, l);
	return size && lego_expr_is_const(size, &v) ? LEGO_BY_EXHAUSTIVE
						    : LEGO_BY_Z3;
}

/* got == want, or the first failure recorded in a. */
static void ask_eq(lego_ctx *ctx, lego_expr *got, lego_expr *want,
		   unsigned ms, const char *what, proof_arg *a)
{
	if (a->status == LEGO_REFUTED)
		return;
	lego_proof p = got == want ? LEGO_PROVED
		       : got && want
			       ? lego_smt_prove(ctx, lego_binop(ctx, LEGO_EQ,
								got, want),
						ms, NULL)
			       : LEGO_UNKNOWN;
	if (p == LEGO_PROVED || (p == LEGO_UNKNOWN && a->status != LEGO_PROVED))
		return;
	a->status = p;
	a->why[0] = 0;
	proof_say(a, "%s: %s", what, p == LEGO_REFUTED ? "refuted"
		  : lego_ctx_error(ctx));
}

/* The coordinate k (0: apply) in words. */
static void coordinate(size_t k, char *out, size_t size)
{
	if (k)
		snprintf(out, size, "inverse coordinate %zu", k - 1);
	else
		snprintf(out, size, "apply");
}

/* simplify(e) == e for apply and each inverse coordinate: by the
 * simplifier's certificate, replayed by the checker (cert.c); what it
 * does not prove is asked of the solver, which also finds the
 * counterexample of a wrong simplification. */
static int prove_simplify(lego_ctx *ctx, const lego_layout *l, unsigned ms,
			  proof_arg *a)
{
	lego_expr *idx[MAX_RANK], *from[MAX_RANK + 1], *to[MAX_RANK + 1];
	int ok[MAX_RANK + 1];
	char name[48];
	size_t d = lego_layout_rank(l);
	if (d == 0 || d > MAX_RANK)
		return lego_fail(ctx, LEGO_ERR, "proof: rank %zu not in 1..%d",
				 d, MAX_RANK);
	for (size_t k = 0; k < d; k++) {
		snprintf(name, sizeof name, "_v%zu", k);
		if (!(idx[k] = lego_index_fresh(ctx, name, NULL,
						lego_layout_dim(l, k))))
			return LEGO_ERR;
	}
	lego_expr *size = lego_layout_phys_size(ctx, l);
	lego_expr *x = size ? lego_index_fresh(ctx, "_x", NULL, size) : NULL;
	if (!x || !(from[0] = lego_layout_apply(ctx, l, idx)) ||
	    lego_layout_inv(ctx, l, x, from + 1) != LEGO_OK)
		return LEGO_ERR;
	lego_cert cert;
	lego_cert_start(ctx, &cert);
	for (size_t k = 0; k <= d; k++)
		to[k] = lego_simplify(ctx, from[k]);
	lego_cert_stop(ctx);
	a->status = LEGO_PROVED;
	a->by = LEGO_BY_CERTIFICATE;
	a->why[0] = 0;
	int rc = proof_cert_check(ctx, &cert, d + 1, from, to, ok, a);
	size_t steps = cert.n, left = 0;
	lego_cert_free(&cert);
	if (rc)
		return rc;
	for (size_t k = 0; k <= d; k++)
		left += !ok[k] || !to[k];
	if (left) {
		/* ms is the budget of the queries together. */
		ms = ms / (unsigned)left ? ms / (unsigned)left : 1;
		a->by = solver_argument(ctx, l);
	}
	char cert_why[LEGO_PROOF_WHY];
	snprintf(cert_why, sizeof cert_why, "%s", a->why);
	a->why[0] = 0;
	for (size_t k = 0; k <= d; k++) {
		if (ok[k] && to[k])
			continue;
		coordinate(k, name, sizeof name);
		ask_eq(ctx, to[k], from[k], ms, name, a);
	}
	if (a->status == LEGO_PROVED && !left)
		proof_say(a, "apply and %zu inverse coordinate%s, %zu steps "
			  "checked", d, d == 1 ? "" : "s", steps);
	else if (a->status == LEGO_PROVED)
		proof_say(a, "apply and %zu inverse coordinate%s (%zu of them "
			  "by the solver; %s)", d, d == 1 ? "" : "s", left,
			  cert_why);
	else if (cert_why[0])
		proof_say(a, "; %s", cert_why);
	return LEGO_OK;
}

/* The whole-layout queries, for a layout construction does not settle
 * (a user GenP whose inverse is not proved). */
static int prove_by_queries(lego_ctx *ctx, const lego_layout *l,
			    unsigned ms, const proof_arg *stop,
			    lego_layout_proof *out)
{
	lego_validation v;
	int rc = lego_layout_validate(ctx, l, ms, &v);
	if (rc)
		return rc;
	for (int i = 0; i < LEGO_VP_COUNT; i++) {
		const lego_vresult *r = &v.prop[i];
		out->status[i] = r->status;
		out->by[i] = solver_argument(ctx, l);
		if (r->status == LEGO_PROVED)
			snprintf(out->why[i], sizeof out->why[i],
				 "whole-layout query (%.180s)", stop->why);
		else {
			/* What the query found, then what stopped
			 * construction (a GenP's own counterexample). */
			proof_arg w = {r->status, LEGO_BY_Z3, ""};
			proof_say(&w, "%.120s%s%.110s; %s", r->detail,
				  r->counterexample[0] ? " at " : "",
				  r->counterexample, stop->why);
			memcpy(out->why[i], w.why, sizeof w.why);
		}
	}
	return LEGO_OK;
}

static lego_proof worst(lego_proof a, lego_proof b)
{
	if (a == LEGO_REFUTED || b == LEGO_REFUTED)
		return LEGO_REFUTED;
	return a == LEGO_UNKNOWN || b == LEGO_UNKNOWN ? LEGO_UNKNOWN
						      : LEGO_PROVED;
}

/* The milliseconds left of a budget of total_ms started at t0 (at least
 * 1: a query always gets its chance to answer at once). */
static unsigned left_ms(double t0, unsigned total_ms)
{
	double left = total_ms - (now() - t0) * 1000.0;
	return left < 1 ? 1u : (unsigned)left;
}

int lego_layout_prove(lego_ctx *ctx, const lego_layout *l,
		      unsigned timeout_ms, lego_layout_proof *out)
{
	proof_arg a;
	double t0 = now();
	if (!ctx || !l || !out)
		return lego_fail(ctx, LEGO_ERR, "lego_layout_prove: an argument "
				 "is NULL");
	memset(out, 0, sizeof *out);
	/* timeout_ms bounds the whole proof: each stage gets what the
	 * earlier ones left. */
	out->assumptions = proof_assumptions(ctx, left_ms(t0, timeout_ms));
	int rc = proof_construct(ctx, l, left_ms(t0, timeout_ms), &a);
	if (!rc && a.status == LEGO_PROVED) {
		for (int i = 0; i < LEGO_VP_COUNT; i++) {
			out->status[i] = LEGO_PROVED;
			out->by[i] = LEGO_BY_CONSTRUCTION;
			memcpy(out->why[i], a.why, sizeof a.why);
		}
		rc = prove_simplify(ctx, l, left_ms(t0, timeout_ms), &a);
		out->status[LEGO_VP_SIMPLIFY] = a.status;
		out->by[LEGO_VP_SIMPLIFY] = a.by;
		memcpy(out->why[LEGO_VP_SIMPLIFY], a.why, sizeof a.why);
	} else if (!rc && a.by == LEGO_BY_NONE) {
		/* A fact construction needs that no query can supply. */
		for (int i = LEGO_VP_INV_APPLY; i < LEGO_VP_COUNT; i++) {
			out->status[i] = a.status;
			memcpy(out->why[i], a.why, sizeof a.why);
		}
		rc = prove_simplify(ctx, l, left_ms(t0, timeout_ms), &a);
		out->status[LEGO_VP_SIMPLIFY] = a.status;
		out->by[LEGO_VP_SIMPLIFY] = a.by;
		memcpy(out->why[LEGO_VP_SIMPLIFY], a.why, sizeof a.why);
	} else if (!rc) {
		rc = prove_by_queries(ctx, l, left_ms(t0, timeout_ms), &a,
				      out);
	}
	/* Inconsistent assumptions prove anything: nothing counts. */
	out->verdict = out->assumptions == LEGO_REFUTED ? LEGO_REFUTED
		       : rc ? LEGO_UNKNOWN : LEGO_PROVED;
	for (int i = 0; i < LEGO_VP_COUNT; i++)
		out->verdict = worst(out->verdict, out->status[i]);
	out->seconds = now() - t0;
	return rc;
}
