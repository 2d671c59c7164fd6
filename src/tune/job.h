/* job.h - one candidate on its way to a time (internal to src/tune): its
 * defines, its kernel instantiated and, with a runner that compiles,
 * prepared.  The search loop (run.c) measures a job once; the
 * re-measurement of the best (remeasure.c) measures one several times. */
#ifndef LEGO_TUNE_JOB_H
#define LEGO_TUNE_JOB_H

#include "tune/tune.h"

#define TUNE_WHY_CAP 512
#define TUNE_MAX_JOBS 64

/* What the jobs of a run share. */
typedef struct tune_batch {
	const lego_tune_space *s;
	lego_tune_runner *r;
	lego_tune_instantiate inst;
	void *user;
	const lego_define *fixed;
	size_t nfixed, ndefs;       /* ndefs: fixed, then the parameters */
} tune_batch;

typedef struct tune_job {
	const tune_batch *b;
	size_t i;                   /* the configuration's index */
	char *config;               /* its cache key, "BM=64 BN=32" */
	int cached;
	double ms;
	lego_define *defs;
	char *kernel;               /* kept for a runner without prepare */
	void *prepared;
	char why[TUNE_WHY_CAP];
} tune_job;

/* Fills j for configuration i (config and defines); -1: out of memory. */
int tune_job_init(tune_job *j, const tune_batch *b, size_t i);
/* Instantiates and prepares the jobs not cached, each on a thread of its
 * own when there are several.  Never fatal: a failure leaves its reason
 * in the job's why. */
void tune_job_prepare_all(tune_job *jobs, size_t n);
/* One measurement of a prepared job into j->ms (INFINITY when it
 * failed, the reason in why). */
void tune_job_measure(tune_job *j);
/* Frees what the job holds. */
void tune_job_free(tune_job *j);

/* The rounds of a re-measurement when none are asked for. */
#define TUNE_ROUNDS 5

/* Times configurations top[0..n) again in rounds interleaved rounds
 * (each round measures every one once, in order) and chooses on the
 * median of each one's rounds: res->best and res->best_ms become the
 * lowest median, res->finalists n, res->remeasured the measurements
 * made.  The medians are recorded in the cache (the key's previous
 * re-measurement replaced), where lego_tune_cache_best prefers them.
 * When the key's recorded re-measurement is of these n with as many
 * rounds, its medians are used and nothing is measured. */
int tune_remeasure(lego_ctx *ctx, const tune_batch *b, int rounds,
		   lego_tune_cache *cache, const lego_tune_key *key,
		   const size_t *top, size_t n, lego_tune_result *res);

#endif
