/* run.c - the tuning loop: propose, look up or measure, record, tell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "tune/tune.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The defines of configuration i after the fixed ones. */
static void fill_defines(const lego_tune_space *s, size_t i,
			 lego_define *defs, size_t nfixed)
{
	for (size_t p = 0; p < s->nparams; p++)
		defs[nfixed + p] = (lego_define){s->params[p]->name,
						 lego_tune_space_value(s, i, p)};
}

/* Measures configuration i (never fatal: a failure is a cost of
 * INFINITY, its reason recorded). */
static double measure(lego_tune_runner *r, lego_define *defs, size_t ndefs,
		      lego_tune_instantiate inst, void *user, char *why,
		      size_t cap)
{
	double ms = INFINITY;
	why[0] = '\0';
	char *kernel = inst(user, defs, ndefs, why, cap);
	if (kernel && r->measure(r, kernel, defs, ndefs, &ms, why, cap))
		ms = INFINITY;
	free(kernel);
	return ms;
}

static void progress(const lego_tune_space *s, const lego_tune_result *res,
		     size_t budget, double t0)
{
	char *best = res->best != SIZE_MAX
			     ? lego_tune_space_describe(s, res->best, 1) : NULL;
	fprintf(stderr, "\rtune: %zu/%zu evaluated (%zu measured, %zu failed), "
		"%.1f s, best %.4g ms%s%s\033[K", res->evals, budget,
		res->measured, res->failed, now() - t0, res->best_ms,
		best ? ": " : "", best ? best : "");
	free(best);
}

int lego_tune_run(lego_ctx *ctx, const lego_tune_space *s,
		  const lego_tune_opts *o, lego_tune_runner *r,
		  lego_tune_cache *cache, const lego_tune_key *key,
		  const lego_define *fixed, size_t nfixed,
		  lego_tune_instantiate inst, void *user,
		  lego_tune_result *res)
{
	double t0 = now();
	size_t budget = o->max_evals && o->max_evals < s->nconfigs
				? o->max_evals : s->nconfigs;
	size_t ndefs = nfixed + s->nparams;
	lego_define *defs = malloc((ndefs + 1) * sizeof *defs);
	lego_tune_search *t = lego_tune_search_new(s, o->method, o->seed);
	*res = (lego_tune_result){.best = SIZE_MAX, .best_ms = INFINITY};
	if (!defs || !t) {
		free(defs);
		lego_tune_search_free(t);
		return lego_fail(ctx, LEGO_ERR, "out of memory");
	}
	if (nfixed)
		memcpy(defs, fixed, nfixed * sizeof *defs);
	int rc = LEGO_OK;
	while (res->evals < budget &&
	       !(o->max_seconds > 0 && now() - t0 >= o->max_seconds)) {
		size_t i = lego_tune_search_next(t);
		if (i == SIZE_MAX)
			break;
		char *config = lego_tune_space_describe(s, i, 0);
		char why[512] = "";
		double ms;
		if (!config) {
			rc = lego_fail(ctx, LEGO_ERR, "out of memory");
			break;
		}
		if (!cache || !lego_tune_cache_get(cache, key, config, &ms)) {
			fill_defines(s, i, defs, nfixed);
			ms = measure(r, defs, ndefs, inst, user, why, sizeof why);
			res->measured++;
			if (cache && lego_tune_cache_put(cache, key, config, ms,
							 why))
				rc = lego_fail(ctx, LEGO_ERR, "error: cannot "
					       "write the tuning cache");
		}
		if (!isfinite(ms)) {
			res->failed++;
			if (o->progress && *why)
				fprintf(stderr, "\rtune: %s: failed: %s\033[K\n",
					config, why);
		}
		free(config);
		if (rc)
			break;
		res->evals++;
		lego_tune_search_tell(t, i, ms);
		if (ms < res->best_ms) {
			res->best_ms = ms;
			res->best = i;
		}
		if (o->progress)
			progress(s, res, budget, t0);
	}
	if (o->progress)
		fputc('\n', stderr);
	res->seconds = now() - t0;
	lego_tune_search_free(t);
	free(defs);
	return rc;
}
