/* solve.c - one query to Z3, and a small counterexample confirmed by
 * evaluation when it is refuted. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "smt/smt.h"

#ifdef LEGO_HAVE_Z3

typedef struct query {
	lego_ctx *ctx;
	Z3_context z;
	smt_tr *tr;
	double deadline;          /* seconds of smt_clock */
} query;

static unsigned left_ms(const query *q)
{
	double left = (q->deadline - smt_clock(q->ctx)) * 1000.0;
	return left < 1.0 ? 1u : left > 4e9 ? 4000000000u : (unsigned)left;
}

/* One check more, and the context's resource count after it, for
 * lego_smt_checks and smt_clock. */
static void spent(query *q, Z3_solver s)
{
	q->ctx->smt->checks++;
	Z3_stats st = Z3_solver_get_statistics(q->z, s);
	Z3_stats_inc_ref(q->z, st);
	for (unsigned i = 0; i < Z3_stats_size(q->z, st); i++)
		if (!strcmp(Z3_stats_get_key(q->z, st, i), "rlimit count"))
			q->ctx->smt->spent =
				Z3_stats_is_uint(q->z, st, i)
				? Z3_stats_get_uint_value(q->z, st, i)
				: Z3_stats_get_double_value(q->z, st, i);
	Z3_stats_dec_ref(q->z, st);
}

/* Is hyps & extra & !goal satisfiable within ms?  Z3_L_FALSE proves goal.
 * *model (when asked) receives a referenced model on Z3_L_TRUE.  (Z3's
 * plain SMT core alone was measured too: faster on some range bounds,
 * much slower per resource unit on inverses.) */
static Z3_lbool check(query *q, Z3_ast goal, Z3_ast extra, unsigned ms,
		      Z3_model *model)
{
	Z3_context z = q->z;
	Z3_solver s = Z3_mk_solver(z);
	Z3_solver_inc_ref(z, s);
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "rlimit"),
			   ms > UINT_MAX / SMT_RLIMIT_PER_MS
				   ? UINT_MAX : ms * SMT_RLIMIT_PER_MS);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
	for (size_t i = 0; i < smt_tr_nhyps(q->tr); i++)
		Z3_solver_assert(z, s, smt_tr_hyp(q->tr, i));
	if (extra)
		Z3_solver_assert(z, s, extra);
	Z3_solver_assert(z, s, Z3_mk_not(z, goal));
	Z3_lbool r = Z3_solver_check(z, s);
	spent(q, s);
	if (r == Z3_L_TRUE && model) {
		*model = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, *model);
	}
	Z3_solver_dec_ref(z, s);
	return r;
}

/* ----------------------------------------------------- counterexamples */

/* Reads the symbols' values from the model and checks that cond
 * evaluates to 0 there.  1 when confirmed. */
static int confirm(query *q, lego_expr *cond, Z3_model m, int64_t *values)
{
	const smt_syms *syms = smt_tr_syms(q->tr);
	lego_env *env = lego_env_new(q->ctx);
	int ok = env != NULL;
	for (size_t i = 0; ok && i < syms->n; i++) {
		Z3_ast v;
		Z3_ast s = smt_tr_int(q->tr, syms->syms[i]);
		ok = Z3_model_eval(q->z, m, s, 1, &v) &&
		     Z3_get_numeral_int64(q->z, v, &values[i]) &&
		     lego_env_bind(env, syms->syms[i], values[i]) == LEGO_OK;
	}
	int64_t r;
	ok = ok && lego_expr_eval(q->ctx, cond, env, &r) == LEGO_OK && r == 0;
	lego_env_free(env);
	return ok;
}

/* A model of !cond that evaluation confirms, preferring small values. */
static int counterexample(query *q, lego_expr *cond, Z3_ast goal,
			  Z3_model m, int64_t *values)
{
	Z3_model small = NULL;
	Z3_ast bound = smt_tr_small(q->tr, 1 << 12);
	unsigned ms = left_ms(q) < 2000 ? left_ms(q) : 2000;
	if (bound && check(q, goal, bound, ms, &small) == Z3_L_TRUE) {
		int ok = confirm(q, cond, small, values);
		Z3_model_dec_ref(q->z, small);
		if (ok)
			return 1;
	}
	return confirm(q, cond, m, values);
}

/* ---------------------------------------------------------------- query */

static int decide(query *q, lego_expr *cond, Z3_ast goal, unsigned ms,
		  smt_answer *ans)
{
	Z3_model m = NULL;
	Z3_lbool r = check(q, goal, NULL, ms, &m);
	if (r == Z3_L_FALSE) {
		ans->proof = LEGO_PROVED;
		return 1;
	}
	if (r == Z3_L_UNDEF)
		return 0;
	size_t n = smt_tr_syms(q->tr)->n;
	int64_t *values = realloc(ans->values, (n + 1) * sizeof *values);
	int ok = values != NULL;
	if (ok)
		ans->values = values;
	ok = ok && counterexample(q, cond, goal, m, ans->values);
	Z3_model_dec_ref(q->z, m);
	if (!ok) {
		lego_fail(q->ctx, LEGO_ERR, "Z3 found a counterexample that "
			  "evaluation does not confirm (values beyond 64 "
			  "bits or undefined operations)");
		return 1; /* unknown, but final */
	}
	ans->proof = LEGO_REFUTED;
	return 1;
}

int smt_solve(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
	      smt_answer *ans)
{
	struct lego_smt *st = ctx->smt;
	query q = {ctx, st->z3, smt_tr_new(ctx, st->z3),
		   smt_clock(ctx) + (timeout_ms ? timeout_ms : 3600000u) / 1000.0};
	Z3_ast goal = NULL;
	int rc = q.tr ? smt_tr_facts(q.tr) : LEGO_ERR;
	if (!rc && !(goal = smt_tr_bool(q.tr, cond)))
		rc = lego_fail(ctx, LEGO_ERR, "cannot translate for Z3");
	if (!rc)
		rc = smt_tr_pending(q.tr);
	ans->proof = LEGO_UNKNOWN;
	const smt_syms *syms = rc ? NULL : smt_tr_syms(q.tr);
	if (!rc && !decide(&q, cond, goal, left_ms(&q), ans))
		lego_fail(ctx, LEGO_ERR, "undecided by Z3 within %u ms%s",
			  timeout_ms, timeout_ms ? "" : " (no limit)");
	if (!rc && ans->proof == LEGO_REFUTED) {
		ans->syms = malloc((syms->n + 1) * sizeof *ans->syms);
		for (size_t i = 0; ans->syms && i < syms->n; i++)
			ans->syms[i] = syms->syms[i];
		if (ans->syms)
			ans->n = syms->n;
		else
			rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	smt_tr_free(q.tr);
	return rc;
}

#else
typedef int smt_solve_unused; /* ISO C wants a declaration in every file */
#endif
