/* prove.c - the public entry points: cache, enumeration, Z3 directly,
 * then Z3 after certified rewriting. */
#include <stdio.h>
#include <stdlib.h>

#include "smt/smt.h"

/* Small finite domains are decided exactly by evaluation. */
enum { ENUM_LIMIT = 1 << 20 };
/* The simplifier's fallback must stay cheap. */
enum { NONNEG_TIMEOUT_MS = 100 };
/* "No limit" is an hour. */
enum { NO_LIMIT_MS = 3600 * 1000 };

static void bind_all(lego_env *env, const smt_answer *a)
{
	for (size_t i = 0; env && i < a->n; i++)
		lego_env_bind(env, a->syms[i], a->values[i]);
}

/* Enumeration when the domain is finite and small; -1 otherwise. */
static int try_enumerate(lego_ctx *ctx, lego_expr *cond, smt_answer *ans)
{
	smt_syms syms = {0};
	if (smt_syms_collect(ctx, &syms, cond) != LEGO_OK)
		return -1;
	int64_t *values = malloc((syms.n + 1) * sizeof *values);
	int proof = values ? smt_enumerate(ctx, cond, &syms, ENUM_LIMIT,
					   values)
			   : -1;
	if (proof < 0) {
		free(values);
		smt_syms_free(&syms);
		return -1;
	}
	ans->proof = proof;
	ans->n = syms.n;
	ans->syms = syms.syms; /* handed over */
	ans->values = values;
	return proof;
}

#ifdef LEGO_HAVE_Z3
/* A counterexample of the rewritten condition, checked on cond itself
 * (they are equal, but only evaluation is trusted with a witness). */
static int transfer(lego_ctx *ctx, lego_expr *cond, const lego_env *env,
		    smt_answer *ans)
{
	smt_syms syms = {0};
	int64_t r;
	int ok = smt_syms_collect(ctx, &syms, cond) == LEGO_OK &&
		 (ans->values = calloc(syms.n + 1, sizeof *ans->values));
	for (size_t i = 0; ok && i < syms.n; i++)
		ok = lego_env_lookup(env, syms.syms[i], &ans->values[i]) ==
		     LEGO_OK;
	ok = ok && lego_expr_eval(ctx, cond, env, &r) == LEGO_OK && r == 0;
	if (!ok) {
		smt_syms_free(&syms);
		return 0;
	}
	ans->proof = LEGO_REFUTED;
	ans->n = syms.n;
	ans->syms = syms.syms;
	return 1;
}

/* Z3 on cond rewritten, with what is left of the time (*ms: that time, 0
 * when the rewriting changed nothing). */
static int solve_rewritten(lego_ctx *ctx, lego_expr *cond, double deadline,
			   smt_answer *ans, unsigned *ms_out)
{
	double budget = deadline - smt_clock(ctx);
	lego_expr *easier = smt_rewrite(ctx, cond, deadline - budget / 4);
	*ms_out = 0;
	if (!easier)
		return LEGO_ERR;
	if (easier == cond)
		return LEGO_OK;
	double left = (deadline - smt_clock(ctx)) * 1000.0;
	unsigned ms = left < 1 ? 1u : (unsigned)left;
	*ms_out = ms;
	lego_env *env = lego_env_new(ctx);
	if (!env)
		return LEGO_ENOMEM;
	lego_proof p = smt_prove(ctx, easier, ms, 0, env);
	if (p == LEGO_PROVED)
		ans->proof = LEGO_PROVED;
	else if (p == LEGO_REFUTED && !transfer(ctx, cond, env, ans))
		lego_fail(ctx, LEGO_ERR, "the counterexample of the rewritten "
			  "condition does not refute it");
	lego_env_free(env);
	return LEGO_OK;
}
#endif

static int solve(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
		 int rewrite, smt_answer *ans)
{
	if (try_enumerate(ctx, cond, ans) >= 0)
		return LEGO_OK;
#ifdef LEGO_HAVE_Z3
	if (!lego_smt_available()) /* libz3 is loaded here, on first use */
		return lego_fail(ctx, LEGO_ERR, "%s", smt_z3_error());
	double deadline = smt_clock(ctx) + timeout_ms / 1000.0;
	unsigned direct = rewrite ? timeout_ms / 8 + 1 : timeout_ms, after;
	int rc = smt_solve(ctx, cond, direct, ans);
	if (rc != LEGO_OK || ans->proof != LEGO_UNKNOWN || !rewrite)
		return rc;
	rc = solve_rewritten(ctx, cond, deadline, ans, &after);
	/* Say what was tried, in the time each try had. */
	if (rc == LEGO_OK && ans->proof == LEGO_UNKNOWN && after)
		lego_fail(ctx, LEGO_ERR, "undecided by Z3 (%u ms on it, %u ms "
			  "after certified rewriting)", direct, after);
	else if (rc == LEGO_OK && ans->proof == LEGO_UNKNOWN)
		lego_fail(ctx, LEGO_ERR, "undecided by Z3 (%u ms on it; "
			  "rewriting left it unchanged)", direct);
	return rc;
#else
	(void)timeout_ms;
	(void)rewrite;
	return lego_fail(ctx, LEGO_ERR, "liblego was built without Z3: "
			 "cannot prove a condition over unbounded symbols");
#endif
}

/* Keeps the message of an answer across the cache's own calls. */
static void cache_store(lego_ctx *ctx, struct lego_smt *st,
			const smt_answer *ans)
{
	char keep[sizeof ctx->error];
	snprintf(keep, sizeof keep, "%s", ctx->error);
	smt_cache_put(&st->cache, ans); /* failing costs a recomputation */
	snprintf(ctx->error, sizeof ctx->error, "%s", keep);
}

lego_proof smt_prove(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
		     int rewrite, lego_env *counterexample)
{
	if (!ctx || !cond) {
		lego_fail(ctx, LEGO_ERR, "lego_smt_prove: no condition");
		return LEGO_UNKNOWN;
	}
	struct lego_smt *st = smt_state(ctx);
	if (!st)
		return LEGO_UNKNOWN;
	if (!timeout_ms)
		timeout_ms = NO_LIMIT_MS;
	uint64_t version = smt_facts_version(ctx);
	const smt_answer *hit = smt_cache_get(&st->cache, cond, version,
					      timeout_ms);
	if (hit) {
		if (hit->proof == LEGO_UNKNOWN)
			lego_fail(ctx, LEGO_ERR, "not decided within %u ms "
				  "(cached)", hit->timeout_ms);
		if (hit->proof == LEGO_REFUTED)
			bind_all(counterexample, hit);
		return (lego_proof)hit->proof;
	}
	smt_answer ans = {cond, version, LEGO_UNKNOWN, timeout_ms, 0, NULL,
			  NULL};
	int rc = solve(ctx, cond, timeout_ms, rewrite, &ans);
	if (rc == LEGO_OK && ans.proof == LEGO_REFUTED)
		bind_all(counterexample, &ans);
	/* Errors are not answers, nor is the lack of Z3. */
	if (rc == LEGO_OK && (lego_smt_available() ||
			      ans.proof != LEGO_UNKNOWN))
		cache_store(ctx, st, &ans);
	free(ans.syms);
	free(ans.values);
	return rc == LEGO_OK ? (lego_proof)ans.proof : LEGO_UNKNOWN;
}

lego_proof lego_smt_prove(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
			  lego_env *counterexample)
{
	return smt_prove(ctx, cond, timeout_ms, 1, counterexample);
}

int lego_smt_prove_nonneg(lego_ctx *ctx, lego_expr *e)
{
	if (!ctx || !e)
		return 0;
	lego_expr *zero = lego_const(ctx, 0);
	lego_expr *cond = e && zero ? lego_binop(ctx, LEGO_LE, zero, e) : NULL;
	int64_t v;
	if (cond && lego_expr_is_const(cond, &v))
		return v != 0;
	return cond && smt_prove(ctx, cond, NONNEG_TIMEOUT_MS, 0, NULL) ==
			       LEGO_PROVED;
}
