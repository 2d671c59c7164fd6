/* search.c - search strategies over a space, as propose/tell pairs:
 * exhaustive, random (without repetition), simulated annealing, and an
 * AUC bandit (OpenTuner's credit assignment) that gives each proposal to
 * the technique whose recent proposals improved the best the most.
 * Everything random comes from one seeded generator: a seed gives one
 * sequence of proposals for one sequence of costs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune.h"

enum { ARM_RANDOM, ARM_ANNEAL, ARM_LOCAL, NARMS };
#define AUC_WINDOW 32
#define BANDIT_C 0.2           /* weight of exploration */
#define ANNEAL_T0 0.25         /* relative cost increase accepted at e^-1 */
#define ANNEAL_HALF 50.0       /* evaluations to halve the temperature */
#define NEIGHBOR_TRIES 64

typedef struct arm {
	unsigned char hist[AUC_WINDOW]; /* 1: the proposal improved the best */
	size_t nhist, uses;
} arm;

struct lego_tune_search {
	const lego_tune_space *s;
	lego_tune_method m;
	uint64_t rng;
	size_t told, known;
	double *cost;              /* per configuration; NAN: not told */
	unsigned char *pending;    /* proposed, not told yet (a batch) */
	size_t npending;
	size_t *order, norder;     /* exhaustive: the visiting order */
	size_t pruned;             /* never proposed (pending for ever) */
	size_t first;              /* the first proposal, SIZE_MAX: none */
	unsigned char *arm_of;     /* who proposed it (bandit) */
	size_t *perm, nperm;       /* random: a lazy Fisher-Yates shuffle */
	size_t cursor;             /* exhaustive */
	size_t cur;                /* annealing: the current configuration */
	double cur_cost;
	size_t best;
	double best_cost;
	arm arms[NARMS];
	uint16_t *tmp;
};

static uint64_t next_u64(lego_tune_search *t)
{
	uint64_t z = (t->rng += 0x9e3779b97f4a7c15ull); /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static size_t below(lego_tune_search *t, size_t n)
{
	return (size_t)(next_u64(t) % n);
}

static double unit(lego_tune_search *t)
{
	return (double)(next_u64(t) >> 11) * 0x1.0p-53;
}

static const char *const method_names[] = {"exhaustive", "random", "anneal",
					   "bandit"};

int lego_tune_method_parse(const char *name, lego_tune_method *out)
{
	for (size_t i = 0; i < sizeof method_names / sizeof *method_names; i++)
		if (!strcmp(name, method_names[i])) {
			*out = (lego_tune_method)i;
			return 0;
		}
	return -1;
}

const char *lego_tune_method_name(lego_tune_method m)
{
	return method_names[m];
}

lego_tune_search *lego_tune_search_new(const lego_tune_space *s,
				       lego_tune_method m, uint64_t seed)
{
	lego_tune_search *t = calloc(1, sizeof *t);
	size_t n = s->nconfigs;
	if (!t)
		return NULL;
	*t = (lego_tune_search){.s = s, .m = m, .rng = seed, .cur = SIZE_MAX,
				.best = SIZE_MAX, .best_cost = INFINITY,
				.first = SIZE_MAX};
	t->cost = malloc((n + 1) * sizeof *t->cost);
	t->arm_of = calloc(n + 1, 1);
	t->pending = calloc(n + 1, 1);
	t->perm = malloc((n + 1) * sizeof *t->perm);
	t->tmp = malloc((s->nparams + 1) * sizeof *t->tmp);
	if (!t->cost || !t->arm_of || !t->pending || !t->perm || !t->tmp) {
		lego_tune_search_free(t);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		t->cost[i] = NAN;
		t->perm[i] = i;
	}
	t->nperm = n;
	return t;
}

void lego_tune_search_free(lego_tune_search *t)
{
	if (!t)
		return;
	free(t->cost);
	free(t->arm_of);
	free(t->pending);
	free(t->order);
	free(t->perm);
	free(t->tmp);
	free(t);
}

/* Neither told nor proposed in the batch under way. */
static int open_config(const lego_tune_search *t, size_t i)
{
	return isnan(t->cost[i]) && !t->pending[i];
}

static size_t next_exhaustive(lego_tune_search *t)
{
	size_t n = t->order ? t->norder : t->s->nconfigs;
	while (t->cursor < n &&
	       !open_config(t, t->order ? t->order[t->cursor] : t->cursor))
		t->cursor++;
	if (t->cursor == n)
		return SIZE_MAX;
	return t->order ? t->order[t->cursor] : t->cursor;
}

/* A configuration not told yet, uniformly. */
static size_t next_random(lego_tune_search *t)
{
	while (t->nperm > 0) {
		size_t j = below(t, t->nperm);
		size_t i = t->perm[j];
		t->perm[j] = t->perm[--t->nperm];
		t->perm[t->nperm] = i;
		if (open_config(t, i))
			return i;
	}
	return SIZE_MAX;
}

/* A valid configuration next to from: one parameter moved by one value
 * (or, one time in four, to any value).  SIZE_MAX if none was found. */
static size_t neighbor(lego_tune_search *t, size_t from)
{
	const lego_tune_space *s = t->s;
	if (s->nparams == 0)
		return SIZE_MAX;
	for (int tries = 0; tries < NEIGHBOR_TRIES; tries++) {
		memcpy(t->tmp, lego_tune_space_config(s, from),
		       s->nparams * sizeof *t->tmp);
		size_t p = below(t, s->nparams);
		size_t nv = s->params[p]->nvalues;
		if (nv < 2)
			continue;
		size_t v = t->tmp[p];
		if (below(t, 4) == 0)
			v = below(t, nv);
		else if (below(t, 2) == 0)
			v = v ? v - 1 : v + 1;
		else
			v = v + 1 < nv ? v + 1 : v - 1;
		t->tmp[p] = (uint16_t)v;
		size_t i = lego_tune_space_find(s, t->tmp);
		if (i != SIZE_MAX && i != from)
			return i;
	}
	return SIZE_MAX;
}

/* Metropolis acceptance on the relative cost.  The temperature falls
 * with the evaluations told, not with the budget, so that a run resumed
 * with a larger budget retraces the interrupted one. */
static void anneal_step(lego_tune_search *t, size_t i, double c)
{
	if (t->cur == SIZE_MAX || c <= t->cur_cost) {
		t->cur = i;
		t->cur_cost = c;
		return;
	}
	if (!isfinite(c))
		return;
	double temp = ANNEAL_T0 * ANNEAL_HALF / (ANNEAL_HALF + (double)t->told);
	double rise = (c - t->cur_cost) / t->cur_cost;
	if (unit(t) < exp(-rise / temp)) {
		t->cur = i;
		t->cur_cost = c;
	}
}

/* Walks from `from` through known neighbors (their costs are free) to
 * an unknown one. */
static size_t walk_from(lego_tune_search *t, size_t from, int anneal)
{
	if (from == SIZE_MAX)
		return next_random(t);
	for (int steps = 0; steps < NEIGHBOR_TRIES; steps++) {
		size_t i = neighbor(t, anneal ? t->cur : from);
		if (i == SIZE_MAX)
			break;
		if (open_config(t, i))
			return i;
		if (anneal && !isnan(t->cost[i]))
			anneal_step(t, i, t->cost[i]);
	}
	return next_random(t);
}

static double auc(const arm *a)
{
	double sum = 0, w = 0;
	for (size_t k = 0; k < a->nhist; k++) {
		sum += (double)(k + 1) * a->hist[k];
		w += (double)(k + 1);
	}
	return w > 0 ? sum / w : 0;
}

static int choose_arm(lego_tune_search *t)
{
	size_t total = 0;
	for (int a = 0; a < NARMS; a++) {
		if (t->arms[a].uses == 0)
			return a;
		total += t->arms[a].uses;
	}
	int best = 0;
	double best_score = -1;
	for (int a = 0; a < NARMS; a++) {
		const arm *x = &t->arms[a];
		double score = auc(x) + BANDIT_C * sqrt(2 * log((double)total) /
							(double)x->uses);
		if (score > best_score) {
			best_score = score;
			best = a;
		}
	}
	return best;
}

static size_t propose(lego_tune_search *t, int a)
{
	switch (a) {
	case ARM_ANNEAL: return walk_from(t, t->cur, 1);
	case ARM_LOCAL: return walk_from(t, t->best, 0);
	default: return next_random(t);
	}
}

static size_t next_of(lego_tune_search *t)
{
	switch (t->m) {
	case LEGO_TUNE_EXHAUSTIVE: return next_exhaustive(t);
	case LEGO_TUNE_RANDOM: return next_random(t);
	case LEGO_TUNE_ANNEAL: return propose(t, ARM_ANNEAL);
	case LEGO_TUNE_BANDIT: break;
	}
	int a = choose_arm(t);
	size_t i = propose(t, a);
	if (i != SIZE_MAX) {
		t->arm_of[i] = (unsigned char)a;
		t->arms[a].uses++;
	}
	return i;
}

size_t lego_tune_search_next(lego_tune_search *t)
{
	if (t->known + t->npending == t->s->nconfigs)
		return SIZE_MAX;
	size_t i = t->first;
	if (i != SIZE_MAX && open_config(t, i))
		t->first = SIZE_MAX;
	else
		i = next_of(t);
	if (i != SIZE_MAX) {
		t->pending[i] = 1;
		t->npending++;
	}
	return i;
}

static void credit(arm *a, int improved)
{
	if (a->nhist == AUC_WINDOW) {
		memmove(a->hist, a->hist + 1, AUC_WINDOW - 1);
		a->nhist--;
	}
	a->hist[a->nhist++] = (unsigned char)improved;
}

void lego_tune_search_tell(lego_tune_search *t, size_t i, double cost)
{
	if (i >= t->s->nconfigs || !isnan(t->cost[i]))
		return;
	if (t->pending[i]) {
		t->pending[i] = 0;
		t->npending--;
	}
	t->cost[i] = cost;
	t->known++;
	t->told++;
	int improved = cost < t->best_cost;
	if (improved) {
		t->best = i;
		t->best_cost = cost;
	}
	if (t->m == LEGO_TUNE_ANNEAL ||
	    (t->m == LEGO_TUNE_BANDIT && t->arm_of[i] == ARM_ANNEAL))
		anneal_step(t, i, cost);
	if (t->m == LEGO_TUNE_BANDIT)
		credit(&t->arms[t->arm_of[i]], improved);
}

/* Sorting indices by prediction (qsort has no context argument). */
typedef struct ranked {
	double pred;
	size_t i;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->pred != y->pred)
		return x->pred < y->pred ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

void lego_tune_search_prior(lego_tune_search *t, const double *prior,
			    double prune)
{
	size_t n = t->s->nconfigs;
	ranked *r = malloc((n + 1) * sizeof *r);
	free(t->order);
	t->order = malloc((n + 1) * sizeof *t->order);
	if (!r || !t->order) { /* out of memory: no model, nothing lost */
		free(r);
		free(t->order);
		t->order = NULL;
		return;
	}
	for (size_t i = 0; i < n; i++)
		r[i] = (ranked){isnan(prior[i]) ? INFINITY : prior[i], i};
	qsort(r, n, sizeof *r, cmp_ranked);
	double limit = n && prune > 0 ? prune * r[0].pred : INFINITY;
	t->norder = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = r[k].i;
		int cut = prune > 0 && !(r[k].pred <= limit);
		if (cut && isnan(t->cost[i]) && !t->pending[i]) {
			/* pending for ever: never proposed, never counted */
			t->pending[i] = 1;
			t->npending++;
			t->pruned++;
		} else if (!cut) {
			t->order[t->norder++] = i;
		}
	}
	t->cursor = 0;
	t->first = t->norder ? t->order[0] : SIZE_MAX;
	free(r);
}

size_t lego_tune_search_left(const lego_tune_search *t)
{
	return t->s->nconfigs - t->known - t->npending;
}
