/* factor.c - an analysis form back to a cheap expression: exact quotients
 * folded back into their symbols ((M/BM)*BM -> M), then common factors
 * extracted greedily, most shared atom first. */
#include <stdlib.h>

#include "simplify/facts.h"

typedef struct fterm {
	int64_t coef;
	size_t n;
	lego_expr *atoms[LEGO_MONO_MAX];
} fterm;

static int remove_atom(fterm *t, const lego_expr *a)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->atoms[i] == a) {
			t->atoms[i] = t->atoms[--t->n];
			return 1;
		}
	return 0;
}

/* Divides t by the monomial m when it can (atoms and coefficient). */
static int take(fterm *t, const lego_term *m)
{
	fterm save = *t;
	if (t->coef % m->coef)
		return 0;
	for (size_t i = 0; i < m->n; i++)
		if (!remove_atom(t, m->atoms[i])) {
			*t = save;
			return 0;
		}
	t->coef /= m->coef;
	return 1;
}

/* Folds quotients back: the largest n = d*(n/d) that divides first, so that
 * nested facts (BM | M, 16 | BM) come back as M rather than BM*(M/BM). */
static int unsubst(lego_ctx *ctx, fterm *t)
{
	struct lego_facts *f = ctx->facts;
	lego_expr *syms[LEGO_MONO_MAX];
	size_t ns = 0;
	while (ns < LEGO_MONO_MAX) {
		fterm best = *t;
		size_t best_n = 0;
		const lego_subst *best_s = NULL;
		for (size_t i = 0; i < f->nsubst; i++) {
			lego_term m;
			fterm probe = *t;
			lego_expr *pn = lego_poly(ctx, f->subst[i].sym);
			if (!f->subst[i].q || !pn ||
			    !lego_poly_monomial(&pn, &m) || !take(&probe, &m))
				continue;
			if (!best_s || m.n > best_n) {
				best = probe;
				best_n = m.n;
				best_s = &f->subst[i];
			}
		}
		if (!best_s)
			break;
		*t = best;
		syms[ns++] = best_s->sym;
	}
	if (t->n + ns > LEGO_MONO_MAX)
		return 0;
	for (size_t i = 0; i < ns; i++)
		t->atoms[t->n++] = syms[i];
	return 1;
}

static lego_expr *term_node(lego_ctx *ctx, const fterm *t)
{
	lego_term v = {t->coef, t->n, t->atoms};
	return lego_term_node(ctx, &v);
}

static int64_t gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t r = a % b;
		a = b;
		b = r;
	}
	return a < 0 ? -a : a;
}

/* The atom shared by most terms (at least two), or NULL. */
static lego_expr *most_shared(const fterm *t, size_t n)
{
	lego_expr *best = NULL;
	size_t best_count = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < t[i].n; j++) {
			lego_expr *a = t[i].atoms[j];
			size_t count = 0;
			for (size_t k = 0; k < n; k++) {
				fterm probe = t[k];
				count += remove_atom(&probe, a);
			}
			if (count > best_count) {
				best = a;
				best_count = count;
			}
		}
	return best;
}

static lego_expr *factor(lego_ctx *ctx, fterm *t, size_t n);

/* a * (terms with a, a removed) + (the others). */
static lego_expr *factor_out(lego_ctx *ctx, fterm *t, size_t n, lego_expr *a)
{
	fterm *with = malloc(n * sizeof *with);
	fterm *without = malloc(n * sizeof *without);
	lego_expr *r = NULL;
	if (with && without) {
		size_t nw = 0, no = 0;
		for (size_t i = 0; i < n; i++) {
			with[nw] = t[i];
			if (remove_atom(&with[nw], a))
				nw++;
			else
				without[no++] = t[i];
		}
		r = lego_add(ctx, lego_mul(ctx, a, factor(ctx, with, nw)),
			     factor(ctx, without, no));
	} else {
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	free(with);
	free(without);
	return r;
}

static lego_expr *factor(lego_ctx *ctx, fterm *t, size_t n)
{
	if (n == 0)
		return lego_const(ctx, 0);
	if (n == 1)
		return term_node(ctx, t);
	int64_t g = 0;
	int all_negative = 1;
	for (size_t i = 0; i < n; i++) {
		g = gcd(g, t[i].coef);
		all_negative &= t[i].coef < 0;
	}
	if (all_negative)
		g = -g;
	/* not -1 alone: -(3*x + 1) costs a negation more than -1 - 3*x */
	if (g != 1 && g != 0 && g != -1) {
		for (size_t i = 0; i < n; i++)
			t[i].coef /= g;
		return lego_mul(ctx, lego_const(ctx, g), factor(ctx, t, n));
	}
	lego_expr *a = most_shared(t, n);
	if (a)
		return factor_out(ctx, t, n, a);
	lego_expr *nodes[LEGO_POLY_MAX_TERMS];
	for (size_t i = 0; i < n; i++)
		if (!(nodes[i] = term_node(ctx, &t[i])))
			return NULL;
	return lego_expr_build(ctx, LEGO_ADD, n, nodes);
}

lego_expr *lego_poly_rebuild(lego_ctx *ctx, lego_expr *p)
{
	lego_term tv[LEGO_POLY_MAX_TERMS];
	fterm ft[LEGO_POLY_MAX_TERMS];
	if (!p)
		return NULL;
	size_t n = lego_poly_terms(&p, tv, LEGO_POLY_MAX_TERMS);
	if (n == SIZE_MAX)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (tv[i].n > LEGO_MONO_MAX)
			return NULL;
		ft[i].coef = tv[i].coef;
		ft[i].n = tv[i].n;
		for (size_t j = 0; j < tv[i].n; j++)
			ft[i].atoms[j] = tv[i].atoms[j];
		if (!unsubst(ctx, &ft[i]))
			return NULL;
	}
	return factor(ctx, ft, n);
}
