/* run.c - the tuning loop: propose a batch, look each proposal up in the
 * cache or instantiate, prepare (compile: in parallel) and measure it
 * (one at a time: timings must not overlap), record, tell. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "tune/tune.h"

#define WHY_CAP 512
#define MAX_JOBS 64

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct batch batch;

/* One proposal of a batch. */
typedef struct job {
	batch *b;
	size_t i;
	char *config;
	int cached;
	double ms;
	lego_define *defs;          /* the fixed ones, then the parameters */
	void *prepared;
	char why[WHY_CAP];
} job;

/* What the jobs of a batch share. */
struct batch {
	const lego_tune_space *s;
	lego_tune_runner *r;
	lego_tune_instantiate inst;
	void *user;
	size_t nfixed, ndefs;
};

/* Instantiates a job's kernel and, with a runner that compiles,
 * prepares it.  Never fatal: a failure leaves its reason in why. */
static void *prepare_job(void *arg)
{
	job *j = arg;
	batch *b = j->b;
	char *kernel = b->inst(b->user, j->defs, b->ndefs, j->why, WHY_CAP);
	if (!kernel)
		return NULL;
	if (b->r->prepare)
		j->prepared = b->r->prepare(b->r, kernel, j->defs, b->ndefs,
					    j->why, WHY_CAP);
	else if (b->r->measure(b->r, kernel, j->defs, b->ndefs, &j->ms,
			       j->why, WHY_CAP))
		j->ms = INFINITY;
	free(kernel);
	return NULL;
}

/* Prepares the jobs to measure, each on a thread of its own when there
 * are several (a thread that cannot start runs its job here). */
static void prepare_all(job *jobs, size_t n)
{
	pthread_t th[MAX_JOBS];
	int started[MAX_JOBS] = {0};
	size_t todo = 0;
	for (size_t k = 0; k < n; k++)
		todo += !jobs[k].cached;
	for (size_t k = 0; k < n; k++) {
		if (jobs[k].cached)
			continue;
		if (todo > 1)
			started[k] = !pthread_create(&th[k], NULL, prepare_job,
						     &jobs[k]);
		if (!started[k])
			prepare_job(&jobs[k]);
	}
	for (size_t k = 0; k < n; k++)
		if (started[k])
			pthread_join(th[k], NULL);
}

/* Measures a prepared job (the runner's measure did it already for a
 * runner without prepare). */
static void measure_job(job *j)
{
	lego_tune_runner *r = j->b->r;
	if (!r->prepare)
		return;
	if (!j->prepared) {
		j->ms = INFINITY;
		return;
	}
	if (r->measure_prepared(r, j->prepared, j->defs, j->b->ndefs, &j->ms,
				j->why, WHY_CAP))
		j->ms = INFINITY;
	r->release(r, j->prepared);
	j->prepared = NULL;
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
static size_t propose(lego_tune_search *t, const batch *b,
		      lego_tune_cache *cache, const lego_tune_key *key,
		      const lego_define *fixed, job *jobs, size_t want,
		      int *oom)
{
	size_t n = 0;
	while (n < want) {
		size_t i = lego_tune_search_next(t);
		if (i == SIZE_MAX)
			break;
		job *j = &jobs[n++];
		*j = (job){.b = (batch *)b, .i = i, .ms = INFINITY};
		j->config = lego_tune_space_describe(b->s, i, 0);
		j->defs = malloc((b->ndefs + 1) * sizeof *j->defs);
		if (!j->config || !j->defs) {
			*oom = 1;
			break;
		}
		if (b->nfixed)
			memcpy(j->defs, fixed, b->nfixed * sizeof *j->defs);
		for (size_t p = 0; p < b->s->nparams; p++)
			j->defs[b->nfixed + p] = (lego_define){
				b->s->params[p]->name,
				lego_tune_space_value(b->s, i, p)};
		j->cached = cache && lego_tune_cache_get(cache, key, j->config,
							 &j->ms);
	}
	return n;
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
	if (width > MAX_JOBS)
		width = MAX_JOBS;
	batch b = {s, r, inst, user, nfixed, nfixed + s->nparams};
	job jobs[MAX_JOBS];
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
		size_t n = propose(t, &b, cache, key, fixed, jobs, want, &oom);
		if (!oom)
			prepare_all(jobs, n);
		for (size_t k = 0; k < n; k++) {
			job *j = &jobs[k];
			if (!oom && !rc && !j->cached) {
				measure_job(j);
				res->measured++;
				if (cache && lego_tune_cache_put(cache, key,
						j->config, j->ms, j->why))
					rc = lego_fail(ctx, LEGO_ERR, "error: "
						       "cannot write the "
						       "tuning cache");
			} else if (j->prepared) {
				r->release(r, j->prepared);
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
				if (j->ms < res->best_ms) {
					res->best_ms = j->ms;
					res->best = j->i;
				}
			}
			free(j->config);
			free(j->defs);
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
	res->seconds = now() - t0;
	lego_tune_search_free(t);
	return rc;
}
