/* space.c - the valid configurations, generated as a chain of trees
 * (ATF): parameters are bound in declaration order, and each constraint
 * is evaluated at the level of its last parameter, so a subtree breaking
 * it is cut before any of its leaves is formed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expr/expr.h"
#include "expr/sbuf.h"
#include "tune/tune.h"

/* Nodes a generation may visit: beyond this a space with too few
 * constraints for its ranges is refused rather than walked for hours. */
#define SPACE_MAX_STEPS (1ull << 26)

typedef struct level {
	lego_expr *sym;
	const lego_expr **cons;    /* constraints whose last parameter is this */
	size_t ncons;
} level;

typedef struct gen {
	lego_ctx *ctx;
	lego_tune_space *s;
	level *levels;
	lego_env *env;
	uint16_t *cur;
	size_t cap, max;
	unsigned long long steps;
	const char *file;          /* the spec's, for messages */
} gen;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first sym other than the parameters that c mentions, if any. */
static lego_expr *foreign_sym(lego_ctx *ctx, const lego_expr *c,
			      const level *lv, size_t n)
{
	for (uint32_t i = 0; i < lego_expr_nsyms(ctx); i++) {
		lego_expr *sym = lego_expr_sym_at(ctx, i);
		int own = 0;
		for (size_t k = 0; k < n && !own; k++)
			own = lv[k].sym == sym;
		if (!own && lego_expr_mentions(c, &sym, 1))
			return sym;
	}
	return NULL;
}

/* Attaches every constraint to the level of its last parameter. */
static int attach(gen *g, const lego_spec *spec)
{
	size_t n = g->s->nparams;
	for (size_t i = 0; i < lego_spec_nconstraints(spec); i++) {
		int line, col;
		lego_expr *c = lego_spec_constraint(spec, i, &line, &col);
		lego_expr *other = foreign_sym(g->ctx, c, g->levels, n);
		if (other)
			return lego_fail(g->ctx, LEGO_ERR, "%s:%d:%d: error: the "
					 "constraint needs a value for '%s' "
					 "(-D %s=...)", g->file,
					 line, col, lego_expr_name(other),
					 lego_expr_name(other));
		size_t k = n;
		while (k > 0 && !lego_expr_mentions(c, &g->levels[k - 1].sym, 1))
			k--;
		level *lv = &g->levels[k ? k - 1 : 0];
		const lego_expr **grown = realloc(lv->cons, (lv->ncons + 1) *
							    sizeof *grown);
		if (!grown)
			return lego_fail(g->ctx, LEGO_ERR, "out of memory");
		lv->cons = grown;
		lv->cons[lv->ncons++] = c;
	}
	return LEGO_OK;
}

static int emit(gen *g)
{
	lego_tune_space *s = g->s;
	size_t n = s->nparams;
	if (g->max && s->nconfigs == g->max)
		return lego_fail(g->ctx, LEGO_ERR, "%s: error: the space has more "
				 "than %zu configurations", g->file, g->max);
	if (s->nconfigs == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		uint16_t *grown = realloc(s->configs, cap * (n ? n : 1) *
							   sizeof *grown);
		if (!grown)
			return lego_fail(g->ctx, LEGO_ERR, "out of memory");
		s->configs = grown;
		g->cap = cap;
	}
	memcpy(s->configs + s->nconfigs++ * n, g->cur, n * sizeof *g->cur);
	return LEGO_OK;
}

/* Whether the constraints of level k hold (an evaluation error, such as
 * a division by zero, counts as broken). */
static int holds(gen *g, size_t k)
{
	const level *lv = &g->levels[k];
	for (size_t i = 0; i < lv->ncons; i++) {
		int64_t v;
		g->s->checks++;
		if (lego_expr_eval(g->ctx, lv->cons[i], g->env, &v) != LEGO_OK ||
		    !v)
			return 0;
	}
	return 1;
}

/* Depth-first over the tree, iteratively (spaces may be deep). */
static int walk(gen *g)
{
	lego_tune_space *s = g->s;
	size_t n = s->nparams, k = 0;
	if (n == 0)
		return holds(g, 0) ? emit(g) : LEGO_OK;
	g->cur[0] = 0;
	for (;;) {
		const lego_tune_param *p = s->params[k];
		if (++g->steps > SPACE_MAX_STEPS)
			return lego_fail(g->ctx, LEGO_ERR, "%s: error: generating "
					 "the space takes more than %llu steps: "
					 "narrow the ranges or constrain the "
					 "parameters declared first", g->file,
					 SPACE_MAX_STEPS);
		if (g->cur[k] == p->nvalues) { /* level exhausted: back up */
			if (k == 0)
				return LEGO_OK;
			g->cur[--k]++;
			continue;
		}
		lego_env_bind(g->env, g->levels[k].sym, p->values[g->cur[k]]);
		if (!holds(g, k)) {
			g->cur[k]++;
		} else if (k + 1 == n) {
			if (emit(g))
				return LEGO_ERR;
			g->cur[k]++;
		} else {
			g->cur[++k] = 0;
		}
	}
}

int lego_tune_space_build(lego_ctx *ctx, const lego_spec *spec,
			  size_t max_configs, lego_tune_space *out)
{
	double t0 = now();
	size_t all = lego_spec_ntunes(spec), n = 0;
	*out = (lego_tune_space){.raw = 1};
	gen g = {.ctx = ctx, .s = out, .max = max_configs,
		 .file = lego_spec_filename(spec)};
	out->params = calloc(all + 1, sizeof *out->params);
	g.levels = calloc(all + 1, sizeof *g.levels);
	g.cur = calloc(all + 1, sizeof *g.cur);
	g.env = lego_env_new(ctx);
	int rc = out->params && g.levels && g.cur && g.env
			 ? LEGO_OK
			 : lego_fail(ctx, LEGO_ERR, "out of memory");
	for (size_t i = 0; !rc && i < all; i++) {
		const lego_tune_param *p = lego_spec_tune(spec, i);
		if (p->fixed >= 0)
			continue;
		out->params[n] = p;
		g.levels[n].sym = lego_sym_find(ctx, p->name);
		out->raw *= (double)p->nvalues;
		n++;
	}
	out->nparams = n;
	if (!rc)
		rc = attach(&g, spec);
	if (!rc)
		rc = walk(&g);
	for (size_t k = 0; g.levels && k <= all; k++)
		free(g.levels[k].cons);
	free(g.levels);
	free(g.cur);
	lego_env_free(g.env);
	out->seconds = now() - t0;
	if (rc)
		lego_tune_space_free(out);
	return rc;
}

void lego_tune_space_free(lego_tune_space *s)
{
	free(s->params);
	free(s->configs);
	s->params = NULL;
	s->configs = NULL;
	s->nconfigs = 0;
}

const uint16_t *lego_tune_space_config(const lego_tune_space *s, size_t i)
{
	return s->configs + i * s->nparams;
}

int64_t lego_tune_space_value(const lego_tune_space *s, size_t i, size_t p)
{
	return s->params[p]->values[lego_tune_space_config(s, i)[p]];
}

static int cmp_config(const uint16_t *a, const uint16_t *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

size_t lego_tune_space_find(const lego_tune_space *s, const uint16_t *cfg)
{
	size_t lo = 0, hi = s->nconfigs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_config(lego_tune_space_config(s, mid), cfg,
				   s->nparams);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

char *lego_tune_space_describe(const lego_tune_space *s, size_t i,
			       int labels)
{
	lego_sbuf b = {0};
	const uint16_t *cfg = lego_tune_space_config(s, i);
	for (size_t k = 0; k < s->nparams; k++) {
		const lego_tune_param *p = s->params[k];
		lego_sbuf_printf(&b, "%s%s=", k ? " " : "", p->name);
		if (labels && p->labels)
			lego_sbuf_puts(&b, p->labels[cfg[k]]);
		else
			lego_sbuf_printf(&b, "%lld",
					 (long long)p->values[cfg[k]]);
	}
	lego_sbuf_puts(&b, "");
	return lego_sbuf_take(&b);
}
