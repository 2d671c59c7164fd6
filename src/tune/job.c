/* job.c - a candidate instantiated, prepared (compiled: in parallel)
 * and measured, once or several times. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tune/job.h"

int tune_job_init(tune_job *j, const tune_batch *b, size_t i)
{
	*j = (tune_job){.b = b, .i = i, .ms = INFINITY};
	j->config = lego_tune_space_describe(b->s, i, 0);
	j->defs = malloc((b->ndefs + 1) * sizeof *j->defs);
	if (!j->config || !j->defs)
		return -1;
	if (b->nfixed)
		memcpy(j->defs, b->fixed, b->nfixed * sizeof *j->defs);
	for (size_t p = 0; p < b->s->nparams; p++)
		j->defs[b->nfixed + p] = (lego_define){
			b->s->params[p]->name, lego_tune_space_value(b->s, i, p)};
	return 0;
}

static void *prepare_job(void *arg)
{
	tune_job *j = arg;
	const tune_batch *b = j->b;
	j->kernel = b->inst(b->user, j->defs, b->ndefs, j->why, TUNE_WHY_CAP);
	if (j->kernel && b->r->prepare) {
		j->prepared = b->r->prepare(b->r, j->kernel, j->defs, b->ndefs,
					    j->why, TUNE_WHY_CAP);
		free(j->kernel);
		j->kernel = NULL;
	}
	return NULL;
}

void tune_job_prepare_all(tune_job *jobs, size_t n)
{
	pthread_t th[TUNE_MAX_JOBS];
	int started[TUNE_MAX_JOBS] = {0};
	size_t todo = 0;
	for (size_t k = 0; k < n; k++)
		todo += !jobs[k].cached;
	for (size_t k = 0; k < n && k < TUNE_MAX_JOBS; k++) {
		if (jobs[k].cached)
			continue;
		if (todo > 1)
			started[k] = !pthread_create(&th[k], NULL, prepare_job,
						     &jobs[k]);
		if (!started[k])
			prepare_job(&jobs[k]);
	}
	for (size_t k = 0; k < n && k < TUNE_MAX_JOBS; k++)
		if (started[k])
			pthread_join(th[k], NULL);
}

void tune_job_measure(tune_job *j)
{
	lego_tune_runner *r = j->b->r;
	int rc = -1;
	if (j->prepared)
		rc = r->measure_prepared(r, j->prepared, j->defs, j->b->ndefs,
					 &j->ms, j->why, TUNE_WHY_CAP);
	else if (j->kernel)
		rc = r->measure(r, j->kernel, j->defs, j->b->ndefs, &j->ms,
				j->why, TUNE_WHY_CAP);
	if (rc)
		j->ms = INFINITY;
}

void tune_job_free(tune_job *j)
{
	if (j->prepared)
		j->b->r->release(j->b->r, j->prepared);
	free(j->kernel);
	free(j->config);
	free(j->defs);
	*j = (tune_job){0};
}
