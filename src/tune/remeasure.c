/* remeasure.c - the fastest few configurations of a search timed again
 * in interleaved rounds (A B C D A B C D ..) and chosen on the median of
 * their rounds.  The search measures each configuration once, a draw,
 * and keeps the lowest: on a noisy measurement (a GPU kernel whose
 * host's time of a launch is sometimes hidden) it keeps the luckiest
 * draw, which loses side by side.  The rounds interleave so that a drift
 * of the machine (clocks, another process) falls on every finalist
 * alike. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tune/job.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of t[0..n) (sorted in place); INFINITY counts as slow. */
static double median(double *t, size_t n)
{
	qsort(t, n, sizeof *t, by_value);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* "0.11 0.12 inf" (malloc'ed). */
static char *times_text(const double *t, size_t n)
{
	char *s = malloc(n * 16 + 1);
	if (!s)
		return NULL;
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, 17, "%s%.6g", i ? " " : "",
					t[i]);
	s[len] = 0;
	return s;
}

/* The medians from the cache: 1 when the key's recorded re-measurement
 * is of these n, with as many rounds (another set is measured again:
 * the choice must come from one set of interleaved rounds). */
static int cached(lego_tune_cache *cache, const lego_tune_key *key,
		  tune_job *jobs, size_t n, int rounds)
{
	lego_tune_record *r;
	size_t nr;
	if (!cache || lego_tune_cache_finals(cache, key, &r, &nr))
		return 0;
	lego_tune_records_free(r, nr);
	if (nr != n)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!lego_tune_cache_final_get(cache, key,
							 jobs[k].config, rounds,
							 &jobs[k].ms))
			return 0;
	return 1;
}

/* Times the jobs in rounds, each one's median into its ms; records them.
 * -1: out of memory or the cache could not be written. */
static int measure_rounds(tune_job *jobs, size_t n, int rounds,
			  lego_tune_cache *cache, const lego_tune_key *key)
{
	size_t nr = (size_t)rounds;
	double *t = malloc(n * nr * sizeof *t);
	char *text[TUNE_MAX_JOBS] = {0}, *configs[TUNE_MAX_JOBS];
	double med[TUNE_MAX_JOBS];
	if (!t)
		return -1;
	tune_job_prepare_all(jobs, n);
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < n; k++) {
			tune_job_measure(&jobs[k]);
			t[k * nr + r] = jobs[k].ms;
		}
	int rc = 0;
	for (size_t k = 0; k < n; k++) {
		configs[k] = jobs[k].config;
		rc |= !(text[k] = times_text(t + k * nr, nr));
		med[k] = jobs[k].ms = median(t + k * nr, nr);
	}
	if (!rc && cache)
		rc = lego_tune_cache_final_put(cache, key, configs, med, text, n,
					       rounds);
	for (size_t k = 0; k < n; k++)
		free(text[k]);
	free(t);
	return rc ? -1 : 0;
}

int tune_remeasure(lego_ctx *ctx, const tune_batch *b, int rounds,
		   lego_tune_cache *cache, const lego_tune_key *key,
		   const size_t *top, size_t n, lego_tune_result *res)
{
	tune_job jobs[TUNE_MAX_JOBS];
	if (rounds < 1)
		rounds = TUNE_ROUNDS;
	if (n > TUNE_MAX_JOBS)
		n = TUNE_MAX_JOBS;
	size_t made = 0;
	int oom = 0;
	for (; made < n && !oom; made++)
		oom = tune_job_init(&jobs[made], b, top[made]);
	int rc = oom ? -1 : 0;
	if (!rc && !cached(cache, key, jobs, n, rounds)) {
		rc = measure_rounds(jobs, n, rounds, cache, key);
		res->remeasured = n * (size_t)rounds;
	}
	if (!rc) {
		res->finalists = n;
		res->rounds = rounds;
		res->best = SIZE_MAX;
		res->best_ms = INFINITY;
		for (size_t k = 0; k < n; k++)
			if (jobs[k].ms < res->best_ms) {
				res->best_ms = jobs[k].ms;
				res->best = jobs[k].i;
			}
	}
	for (size_t k = 0; k < made; k++)
		tune_job_free(&jobs[k]);
	return rc ? lego_fail(ctx, LEGO_ERR, "error: cannot re-measure the "
			      "best (out of memory, or the tuning cache "
			      "cannot be written)") : LEGO_OK;
}
