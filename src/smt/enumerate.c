/* enumerate.c - deciding conditions over small finite domains exactly. */
#include <stdlib.h>

#include "smt/smt.h"

/* The number of points of syms' product domain (0 when empty), or -1
 * when some symbol is not an index variable with constant bounds or there
 * are over limit. */
static int64_t domain_size(const smt_syms *syms, uint64_t limit,
			   int64_t *lo, int64_t *hi)
{
	uint64_t points = 1;
	int empty = 0;
	for (size_t i = 0; i < syms->n; i++) {
		const lego_symbol *s = syms->syms[i]->sym;
		if (!s->is_index || !s->hi ||
		    !lego_expr_is_const(s->lo, &lo[i]) ||
		    !lego_expr_is_const(s->hi, &hi[i]))
			return -1;
		if (hi[i] <= lo[i]) {
			empty = 1;
			continue;
		}
		uint64_t n = (uint64_t)(hi[i] - lo[i]);
		if (n > limit || points > limit / n)
			return -1;
		points *= n;
	}
	return empty ? 0 : (int64_t)points;
}

/* Next point in odometer order; 0 after the last. */
static int next_point(size_t n, const int64_t *lo, const int64_t *hi,
		      int64_t *v)
{
	for (size_t i = n; i-- > 0;) {
		if (++v[i] < hi[i])
			return 1;
		v[i] = lo[i];
	}
	return 0;
}

static int run(lego_ctx *ctx, lego_expr *cond, const smt_syms *syms,
	       const int64_t *lo, const int64_t *hi, int64_t *values)
{
	lego_env *env = lego_env_new(ctx);
	if (!env)
		return -1;
	int proof = LEGO_PROVED;
	for (size_t i = 0; i < syms->n; i++)
		values[i] = lo[i];
	do {
		for (size_t i = 0; i < syms->n; i++)
			lego_env_bind(env, syms->syms[i], values[i]);
		int64_t v;
		if (lego_expr_eval(ctx, cond, env, &v) == LEGO_OK && v == 0) {
			proof = LEGO_REFUTED;
			break;
		}
	} while (next_point(syms->n, lo, hi, values));
	lego_env_free(env);
	return proof;
}

int smt_enumerate(lego_ctx *ctx, lego_expr *cond, const smt_syms *syms,
		  uint64_t limit, int64_t *values)
{
	size_t n = syms->n ? syms->n : 1;
	int64_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
	int proof = -1;
	if (lo && hi) {
		int64_t points = domain_size(syms, limit, lo, hi);
		if (points == 0)
			proof = LEGO_PROVED; /* nothing to check */
		else if (points > 0)
			proof = run(ctx, cond, syms, lo, hi, values);
	}
	free(lo);
	free(hi);
	return proof;
}
