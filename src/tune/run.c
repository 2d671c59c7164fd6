/* run.c - the tuning loop: propose a batch, look each proposal up in the
 * cache or instantiate, prepare (compile: in parallel) and measure it
 * (one at a time: timings must not overlap), record, tell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "tune/job.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
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

/* Proposes up to want configurations, looks them up in the cache;
 * returns how many. */
static size_t propose(lego_tune_search *t, const tune_batch *b,
		      lego_tune_cache *cache, const lego_tune_key *key,
		      tune_job *jobs, size_t want, int *oom)
{
	size_t n = 0;
	while (n < want) {
		size_t i = lego_tune_search_next(t);
		if (i == SIZE_MAX)
			break;
		tune_job *j = &jobs[n++];
		if (tune_job_init(j, b, i)) {
			*oom = 1;
			break;
		}
		j->cached = cache && lego_tune_cache_get(cache, key, j->config,
							 &j->ms);
	}
	return n;
}

/* Keeps the k fastest successful configurations seen, fastest first. */
static void keep_best(size_t *top, double *top_ms, size_t *n, size_t k,
		      size_t i, double ms)
{
	if (k == 0 || !isfinite(ms) || (*n == k && ms >= top_ms[k - 1]))
		return;
	size_t at = *n < k ? (*n)++ : k - 1;
	for (; at > 0 && top_ms[at - 1] > ms; at--) {
		top[at] = top[at - 1];
		top_ms[at] = top_ms[at - 1];
	}
	top[at] = i;
	top_ms[at] = ms;
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
	size_t width = r->prepare && o->jobs > 1 ? (size_t)o->jobs : 1;
	if (width > TUNE_MAX_JOBS)
		width = TUNE_MAX_JOBS;
	size_t k_best = o->remeasure < TUNE_MAX_JOBS ? o->remeasure
						     : TUNE_MAX_JOBS;
	size_t top[TUNE_MAX_JOBS], ntop = 0;
	double top_ms[TUNE_MAX_JOBS];
	tune_batch b = {s, r, inst, user, fixed, nfixed, nfixed + s->nparams};
	tune_job jobs[TUNE_MAX_JOBS];
	lego_tune_search *t = lego_tune_search_new(s, o->method, o->seed);
	*res = (lego_tune_result){.best = SIZE_MAX, .best_ms = INFINITY};
	if (!t)
		return lego_fail(ctx, LEGO_ERR, "out of memory");
	if (o->prior)
		lego_tune_search_prior(t, o->prior, o->prune);
	int rc = LEGO_OK;
	while (res->evals < budget &&
	       !(o->max_seconds > 0 && now() - t0 >= o->max_seconds)) {
		int oom = 0;
		size_t want = budget - res->evals < width ? budget - res->evals
							  : width;
		size_t n = propose(t, &b, cache, key, jobs, want, &oom);
		if (!oom)
			tune_job_prepare_all(jobs, n);
		for (size_t k = 0; k < n; k++) {
			tune_job *j = &jobs[k];
			if (!oom && !rc && !j->cached) {
				tune_job_measure(j);
				res->measured++;
				if (cache && lego_tune_cache_put(cache, key,
						j->config, j->ms, j->why))
					rc = lego_fail(ctx, LEGO_ERR, "error: "
						       "cannot write the "
						       "tuning cache");
			}
			if (!oom && !rc) {
				if (!isfinite(j->ms)) {
					res->failed++;
					if (o->progress && *j->why)
						fprintf(stderr, "\rtune: %s: "
							"failed: %s\033[K\n",
							j->config, j->why);
				}
				res->evals++;
				lego_tune_search_tell(t, j->i, j->ms);
				keep_best(top, top_ms, &ntop, k_best, j->i,
					  j->ms);
				if (j->ms < res->best_ms) {
					res->best_ms = j->ms;
					res->best = j->i;
				}
			}
			tune_job_free(j);
		}
		if (oom)
			rc = lego_fail(ctx, LEGO_ERR, "out of memory");
		if (rc || n == 0)
			break;
		if (o->progress)
			progress(s, res, budget, t0);
	}
	if (o->progress)
		fputc('\n', stderr);
	lego_tune_search_free(t);
	if (!rc && ntop)
		rc = tune_remeasure(ctx, &b, o->rounds, cache, key, top, ntop,
				   res);
	res->seconds = now() - t0;
	return rc;
}
