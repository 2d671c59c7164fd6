/* threads.c - runs lego mdh's matvec kernel (examples/mdh/matvec.mdh,
 * lowered to OpenCL C) as C: one POSIX thread per work-item taking
 * turns between barriers, barriers checked by wg.h, twice (work-items in
 * the order of their ids, then the reverse), each result compared with
 * plain C.  Built by threads.sh with KERNEL (the .cl file), LOCAL,
 * GROUPS and PARTS (the work-groups along k: the grid kernel sums their
 * scratch when > 1).  Exit 0 when every barrier was reached by the whole
 * group and both results are right. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "wg.h"
#include KERNEL

typedef struct {
	const float *M, *v;
	float *w, *scr;
	int I, K;
} mv_args;

typedef struct {
	const mv_args *a;
	wg_group *grp;
	int group, lid;
} mv_item;

static void *mv_run(void *p)
{
	const mv_item *it = p;
	const mv_args *a = it->a;
	wg_self = (wg_item){ it->grp, it->group, it->lid };
	wg_start(it->grp);
	matvec(a->M, a->v, a->w, a->scr, a->I, a->K);
	wg_exit();
	return NULL;
}

/* Runs work-group GROUP with LOCAL threads taking turns in the order of
 * their ids (or the REVERSE); 1 when its barriers held. */
static int mv_group(const mv_args *a, int group, int reverse)
{
	wg_group g = { .n = LOCAL, .reverse = reverse };
	pthread_t th[LOCAL];
	mv_item it[LOCAL];
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	for (int l = 0; l < LOCAL; l++) {
		it[l] = (mv_item){ a, &g, group, l };
		pthread_create(&th[l], NULL, mv_run, &it[l]);
	}
	for (int l = 0; l < LOCAL; l++)
		pthread_join(th[l], NULL);
	pthread_cond_destroy(&g.cv);
	pthread_mutex_destroy(&g.mu);
	if (g.bad)
		printf("FAIL: work-group %d: a barrier not reached by all its work-items\n",
		       group);
	return !g.bad;
}

/* Runs every work-group (in the REVERSE order of turns or not) and the
 * grid kernel; 1 when the barriers held and w equals plain C. */
static int mv_check(const mv_args *a, int reverse)
{
	int ok = 1;
	for (int i = 0; i < a->I; i++)
		a->w[i] = NAN;
	for (int group = 0; group < GROUPS; group++)
		ok &= mv_group(a, group, reverse);
	if (PARTS > 1) {
		wg_group g = { .n = 1 };
		wg_self = (wg_item){ &g, 0, 0 };
		matvec_grid(a->scr, a->w, a->I, a->K);
	}
	for (int i = 0; i < a->I; i++) {
		float want = 0.0f;
		for (int k = 0; k < a->K; k++)
			want += a->M[i * a->K + k] * a->v[k];
		if (!(fabsf(a->w[i] - want) <= 1e-4f * (1.0f + fabsf(want)))) {
			printf("FAIL: %s order: element %d: got %g, want %g\n",
			       reverse ? "reverse" : "id", i, a->w[i], want);
			ok = 0;
		}
	}
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	const int I = atoi(argv[1]), K = atoi(argv[2]);
	float *M = malloc(sizeof(float) * (size_t)(I * K));
	float *v = malloc(sizeof(float) * (size_t)K);
	float *w = malloc(sizeof(float) * (size_t)I);
	float *scr = calloc((size_t)(I * PARTS), sizeof(float));
	for (int e = 0; e < I * K; e++)
		M[e] = (float)((e * 7) % 11) / 4.0f - 1.0f;
	for (int k = 0; k < K; k++)
		v[k] = (float)((k * 5) % 9) / 3.0f - 1.5f;
	const mv_args a = { M, v, w, scr, I, K };
	const int ok = mv_check(&a, 0) & mv_check(&a, 1);
	free(M);
	free(v);
	free(w);
	free(scr);
	return ok ? 0 : 1;
}
