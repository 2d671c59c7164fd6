/* validate.c - translation validation of a layout's index expressions.
 * For a padded layout (docs/partial.md) the logical index ranges over the
 * padded space but apply means something only where the mask holds, and
 * the physical index over the real tensor: the properties about apply are
 * asked under the mask, and inv(x) must land inside it. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "smt/smt.h"

enum { MAX_RANK = 64 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The counterexample of a refuted query, as names, values and text. */
static void record_witness(lego_ctx *ctx, lego_vresult *r, lego_expr *cond,
			   const lego_env *env)
{
	smt_syms syms = {0};
	size_t len = 0;
	if (smt_syms_collect(ctx, &syms, cond) != LEGO_OK)
		return;
	for (size_t i = 0; i < syms.n && r->nwitness < LEGO_WITNESS_MAX; i++) {
		int64_t v;
		if (lego_env_lookup(env, syms.syms[i], &v) != LEGO_OK)
			continue;
		const char *name = lego_expr_name(syms.syms[i]);
		r->witness_names[r->nwitness] = name;
		r->witness_values[r->nwitness++] = v;
		if (len < sizeof r->counterexample)
			len += (size_t)snprintf(r->counterexample + len,
						sizeof r->counterexample - len,
						"%s%s=%lld", len ? " " : "",
						name, (long long)v);
	}
	smt_syms_free(&syms);
}

/* "what: got G, expected W" at the counterexample. */
static void describe(lego_ctx *ctx, lego_vresult *r, const char *what,
		     lego_expr *got, lego_expr *want, const lego_env *env)
{
	int64_t g, w;
	if (!want && lego_expr_eval(ctx, got, env, &g) == LEGO_OK)
		snprintf(r->detail, sizeof r->detail, "%s: %lld", what,
			 (long long)g);
	else if (want && lego_expr_eval(ctx, got, env, &g) == LEGO_OK &&
		 lego_expr_eval(ctx, want, env, &w) == LEGO_OK)
		snprintf(r->detail, sizeof r->detail,
			 "%s: %lld, expected %lld", what, (long long)g,
			 (long long)w);
	else
		snprintf(r->detail, sizeof r->detail, "%s", what);
}

/* The time of one validation: `total_ms` in all, shared by the queries
 * still to ask (each gets its share of what is left, and what a quick one
 * does not use goes to the others). */
typedef struct vbudget {
	unsigned total_ms;
	double deadline;
	size_t left;  /* queries still to ask */
} vbudget;

/* A query that cannot run: the total is spent. */
static void not_tried(lego_vresult *r, const vbudget *b, const char *what)
{
	if (r->status != LEGO_PROVED)
		return;
	r->status = LEGO_UNKNOWN;
	r->timeout_ms = b->total_ms;
	snprintf(r->detail, sizeof r->detail, "%s: not tried, the total limit "
		 "of %u ms was spent", what, b->total_ms);
}

/* One query of property r: cond, which says got == want (or got within
 * its range when want is NULL).  The first failure is recorded; returns
 * LEGO_OK or an error status. */
static int query(lego_ctx *ctx, lego_vresult *r, vbudget *b,
		 const char *what, lego_expr *cond, lego_expr *got,
		 lego_expr *want)
{
	if (!cond)
		return LEGO_ERR;
	double left_ms = (b->deadline - now()) * 1000.0;
	size_t share = b->left > 1 ? b->left : 1;
	if (b->left)
		b->left--;
	r->nqueries++;
	if (left_ms < 1) {
		not_tried(r, b, what);
		return LEGO_OK;
	}
	unsigned timeout_ms = (unsigned)(left_ms / (double)share);
	timeout_ms = timeout_ms ? timeout_ms : 1;
	lego_env *env = lego_env_new(ctx);
	if (!env)
		return LEGO_ENOMEM;
	double t0 = now();
	lego_proof p = lego_smt_prove(ctx, cond, timeout_ms, env);
	r->seconds += now() - t0;
	if (p == LEGO_REFUTED && r->status != LEGO_REFUTED) {
		r->status = LEGO_REFUTED;
		r->nwitness = 0;
		r->counterexample[0] = 0;
		record_witness(ctx, r, cond, env);
		describe(ctx, r, what, got, want, env);
	} else if (p == LEGO_UNKNOWN && r->status == LEGO_PROVED) {
		r->status = LEGO_UNKNOWN;
		r->timeout_ms = timeout_ms;
		snprintf(r->detail, sizeof r->detail, "%s: %s", what,
			 lego_ctx_error(ctx));
	}
	lego_env_free(env);
	return LEGO_OK;
}

static int query_eq(lego_ctx *ctx, lego_vresult *r, vbudget *b,
		    const char *what, lego_expr *got, lego_expr *want)
{
	if (!got || !want)
		return LEGO_ERR;
	if (got == want) { /* the same node: nothing to ask */
		r->nqueries++;
		b->left -= b->left > 0;
		return LEGO_OK;
	}
	return query(ctx, r, b, what,
		     lego_binop(ctx, LEGO_EQ, got, want), got, want);
}

/* The expressions of one validation. */
typedef struct vexprs {
	size_t d;
	lego_expr *idx[MAX_RANK], *x, *size; /* size: the physical one */
	lego_expr *mask;                     /* 1 unless padded */
	lego_expr *apply, *apply_s;          /* semantics, simplified */
	lego_expr *inv[MAX_RANK], *inv_s[MAX_RANK];
} vexprs;

static int build(lego_ctx *ctx, const lego_layout *l, vexprs *v)
{
	char name[32];
	lego_expr *zero = lego_const(ctx, 0);
	v->d = lego_layout_rank(l);
	if (v->d == 0 || v->d > MAX_RANK)
		return lego_fail(ctx, LEGO_ERR, "validate: rank %zu not in "
				 "1..%d", v->d, MAX_RANK);
	for (size_t k = 0; k < v->d; k++) {
		snprintf(name, sizeof name, "_v%zu", k);
		v->idx[k] = lego_index_fresh(ctx, name, zero,
					lego_layout_dim(l, k));
		if (!v->idx[k])
			return LEGO_ERR;
	}
	v->size = lego_layout_phys_size(ctx, l);
	v->x = v->size ? lego_index_fresh(ctx, "_x", zero, v->size) : NULL;
	v->apply = lego_layout_apply(ctx, l, v->idx);
	v->mask = lego_layout_mask(ctx, l, v->idx);
	if (!v->x || !v->apply || !v->mask ||
	    lego_layout_inv(ctx, l, v->x, v->inv))
		return LEGO_ERR;
	v->apply_s = lego_simplify(ctx, v->apply);
	for (size_t k = 0; k < v->d; k++)
		if (!(v->inv_s[k] = lego_simplify(ctx, v->inv[k])))
			return LEGO_ERR;
	return v->apply_s ? LEGO_OK : LEGO_ERR;
}

/* (1) simplified == semantics. */
static int check_simplify(lego_ctx *ctx, const vexprs *v, vbudget *ms,
			  lego_vresult *r)
{
	char what[48];
	int rc = query_eq(ctx, r, ms, "apply", v->apply_s, v->apply);
	for (size_t k = 0; !rc && k < v->d; k++) {
		snprintf(what, sizeof what, "inverse coordinate %zu", k);
		rc = query_eq(ctx, r, ms, what, v->inv_s[k], v->inv[k]);
	}
	return rc;
}

/* A padded layout: its mask is not the constant 1. */
static int is_padded(const vexprs *v)
{
	int64_t one;
	return !(lego_expr_is_const(v->mask, &one) && one == 1);
}

/* cond where the mask holds: `!mask || cond` (cond alone unpadded). */
static lego_expr *masked(lego_ctx *ctx, const vexprs *v, lego_expr *cond)
{
	if (!is_padded(v))
		return cond;
	return cond ? lego_binop(ctx, LEGO_OR, lego_not(ctx, v->mask), cond)
		    : NULL;
}

static int query_masked_eq(lego_ctx *ctx, const vexprs *v, lego_vresult *r,
			   vbudget *ms, const char *what, lego_expr *got,
			   lego_expr *want)
{
	if (!is_padded(v))
		return query_eq(ctx, r, ms, what, got, want);
	if (!got || !want)
		return LEGO_ERR;
	return query(ctx, r, ms, what,
		     masked(ctx, v, lego_binop(ctx, LEGO_EQ, got, want)), got,
		     want);
}

/* (2) inv(apply(i)) == i, one coordinate at a time, and
 * apply(inv(x)) == x (with inv(x) inside the mask); about the simplified
 * expressions, which (1) ties to the semantics. */
static int check_inverse(lego_ctx *ctx, const vexprs *v, vbudget *ms,
			 lego_vresult *inv_apply, lego_vresult *apply_inv)
{
	char what[48];
	int rc = LEGO_OK;
	for (size_t k = 0; !rc && k < v->d; k++) {
		lego_expr *e = lego_expr_subst(ctx, v->inv_s[k], 1, &v->x,
					       &v->apply_s);
		snprintf(what, sizeof what, "coordinate %zu", k);
		rc = query_masked_eq(ctx, v, inv_apply, ms, what, e, v->idx[k]);
	}
	if (rc)
		return rc;
	lego_expr *back = lego_expr_subst(ctx, v->apply_s, v->d, v->idx,
					  v->inv_s);
	rc = query_eq(ctx, apply_inv, ms, "apply(inv(x))", back, v->x);
	if (rc || !is_padded(v))
		return rc;
	lego_expr *in = lego_expr_subst(ctx, v->mask, v->d, v->idx, v->inv_s);
	return query(ctx, apply_inv, ms, "mask(inv(x))", in, in, NULL);
}

/* (3) 0 <= apply(i) < size, as two queries: Z3 does better on each
 * alone than on the conjunction. */
static int check_range(lego_ctx *ctx, const vexprs *v, vbudget *ms,
		       lego_vresult *r)
{
	lego_expr *zero = lego_const(ctx, 0);
	int rc = query(ctx, r, ms, "apply(i) < 0",
		       masked(ctx, v, lego_binop(ctx, LEGO_LE, zero, v->apply_s)),
		       v->apply_s, NULL);
	return rc ? rc : query(ctx, r, ms, "apply(i) >= size",
			       masked(ctx, v, lego_binop(ctx, LEGO_LT, v->apply_s,
							 v->size)),
			       v->apply_s, NULL);
}

static lego_proof worst(lego_proof a, lego_proof b)
{
	if (a == LEGO_REFUTED || b == LEGO_REFUTED)
		return LEGO_REFUTED;
	return a == LEGO_UNKNOWN || b == LEGO_UNKNOWN ? LEGO_UNKNOWN
						      : LEGO_PROVED;
}

int smt_layout_validate(lego_ctx *ctx, const lego_layout *l,
			unsigned total_ms, smt_progress_fn progress,
			void *user, lego_validation *report)
{
	vexprs v;
	if (!ctx || !l || !report)
		return lego_fail(ctx, LEGO_ERR, "validate: no %s",
				 !report ? "report" : "layout");
	memset(report, 0, sizeof *report);
	double t0 = now();
	vbudget b = {total_ms ? total_ms : 3600u * 1000u, 0, 0};
	b.deadline = t0 + b.total_ms / 1000.0;
	lego_vresult *p = report->prop;
	int rc = build(ctx, l, &v);
	/* simplify 1 + d, inv(apply) d, apply(inv) 1 (+ the mask), range 2 */
	b.left = 2 * v.d + 4 + (rc == LEGO_OK && is_padded(&v));
	for (int k = 0; rc == LEGO_OK && k < LEGO_VP_COUNT; k++) {
		if (progress)
			progress(user, k + 1, LEGO_VP_COUNT,
				 smt_vprop_name((lego_vprop)k));
		if (k == LEGO_VP_SIMPLIFY)
			rc = check_simplify(ctx, &v, &b, &p[k]);
		else if (k == LEGO_VP_INV_APPLY)
			rc = check_inverse(ctx, &v, &b, &p[LEGO_VP_INV_APPLY],
					   &p[LEGO_VP_APPLY_INV]);
		else if (k == LEGO_VP_RANGE)
			rc = check_range(ctx, &v, &b, &p[k]);
	}
	report->napply_inv = v.d;
	report->status = rc ? LEGO_UNKNOWN : LEGO_PROVED;
	for (int i = 0; i < LEGO_VP_COUNT; i++)
		report->status = worst(report->status, p[i].status);
	report->seconds = now() - t0;
	return rc;
}

int lego_layout_validate(lego_ctx *ctx, const lego_layout *l,
			 unsigned timeout_ms, lego_validation *report)
{
	return smt_layout_validate(ctx, l, timeout_ms, NULL, NULL, report);
}
