/* share.c - sums that have a group of terms in common: the group computed
 * once.  Canonical sums are flat, so `i + j + 1` and `30 - i - j` share
 * nothing; written `(i + j) + 1` and `30 - (i + j)`, they share `i + j`
 * (the Needleman-Wunsch anti-diagonal).  A whole-expression step, kept
 * only when the operation count of the expression drops: no single node
 * gets cheaper by it. */
#include <stdlib.h>

#include "expr/memo.h"
#include "simplify/cert.h"
#include "simplify/simplify.h"

enum { MAX_SUMS = 64, MAX_TERMS = 32, MAX_ROUNDS = 4 };

/* A term of a canonical sum: coef * key, key the term without its
 * coefficient (a node of the pool: equal keys are one node). */
typedef struct sterm {
	int64_t coef;
	lego_expr *key;
} sterm;

/* The term t of a sum as coef * key; 0 for a constant or no memory. */
static int term_of(lego_ctx *ctx, lego_expr *t, sterm *out)
{
	if (t->kind == LEGO_CONST)
		return 0;
	if (t->kind != LEGO_MUL || t->args[0]->kind != LEGO_CONST) {
		*out = (sterm){1, t};
		return 1;
	}
	lego_expr *key = t->nargs == 2 ? t->args[1]
				       : lego_expr_make(ctx, LEGO_MUL,
							t->nargs - 1,
							t->args + 1, 0);
	*out = (sterm){t->args[0]->value, key};
	return key != NULL;
}

/* The non-constant terms of the sum s; 0 when there are too many. */
static size_t terms_of(lego_ctx *ctx, lego_expr *s, sterm *out)
{
	size_t n = 0;
	if (s->nargs > MAX_TERMS)
		return 0;
	for (uint32_t i = 0; i < s->nargs; i++)
		n += term_of(ctx, s->args[i], &out[n]);
	return n;
}

static int64_t gcd(int64_t a, int64_t b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static const sterm *find(const sterm *t, size_t n, const lego_expr *key)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].key == key)
			return &t[i];
	return NULL;
}

/* Is c*g (g's terms, n of them) part of the sum s (terms t, nt)?  Sets
 * *c.  All of g's terms with one ratio c, the coefficients' sizes kept
 * small so nothing overflows. */
static int contains(const sterm *g, size_t n, const sterm *t, size_t nt,
		    int64_t *c)
{
	for (size_t i = 0; i < n; i++) {
		const sterm *m = find(t, nt, g[i].key);
		if (!m || m->coef % g[i].coef)
			return 0;
		int64_t r = m->coef / g[i].coef;
		if (i && r != *c)
			return 0;
		*c = r;
	}
	return 1;
}

/*
 * The largest group common to the sums a and b (terms of a whose
 * coefficients in b have one ratio to a's), made primitive (coefficients
 * without common factor, the first positive) into g.  Its size.
 */
static size_t common_group(const sterm *ta, size_t na, const sterm *tb,
			   size_t nb, sterm *g)
{
	size_t best = 0;
	for (size_t s = 0; s < na; s++) {
		const sterm *m0 = find(tb, nb, ta[s].key);
		if (!m0)
			continue;
		size_t n = 0;
		int64_t div = 0;
		sterm cand[MAX_TERMS];
		for (size_t i = s; i < na; i++) {
			const sterm *m = find(tb, nb, ta[i].key);
			int64_t l, r;
			if (!m || __builtin_mul_overflow(m->coef, ta[s].coef, &l) ||
			    __builtin_mul_overflow(m0->coef, ta[i].coef, &r) ||
			    l != r)
				continue;
			cand[n++] = ta[i];
			div = gcd(div, ta[i].coef);
		}
		if (n <= best)
			continue;
		if (cand[0].coef < 0)
			div = -div;
		for (size_t i = 0; i < n; i++)
			g[i] = (sterm){cand[i].coef / div, cand[i].key};
		best = n;
	}
	return best;
}

/* The node of the primitive group g. */
static lego_expr *group_node(lego_ctx *ctx, const sterm *g, size_t n)
{
	lego_expr *acc = lego_const(ctx, 0);
	for (size_t i = 0; i < n && acc; i++)
		acc = lego_add(ctx, acc, lego_mul(ctx, lego_const(ctx, g[i].coef),
						 g[i].key));
	return acc;
}

/* The sum s (terms t, nt) with c*g replaced by the node gn, built as
 * given (not flattened back): constant, other terms, then c*gn. */
static lego_expr *regrouped(lego_ctx *ctx, lego_expr *s, const sterm *g,
			    size_t n, lego_expr *gn, int64_t c)
{
	lego_expr *args[MAX_TERMS + 1];
	size_t k = 0;
	for (uint32_t i = 0; i < s->nargs; i++) {
		lego_expr *t = s->args[i];
		sterm one;
		if (term_of(ctx, t, &one) && find(g, n, one.key))
			continue;
		args[k++] = t;
	}
	args[k++] = c == 1 ? gn : lego_mul(ctx, lego_const(ctx, c), gn);
	if (!args[k - 1])
		return NULL;
	return k == 1 ? args[0] : lego_expr_make(ctx, LEGO_ADD, k, args, 0);
}

/* root with the nodes of map replaced, rebuilt as given. */
static lego_expr *rebuild(lego_ctx *ctx, lego_expr *const *order, size_t n,
			  lego_cache *map)
{
	lego_expr *args[MAX_TERMS + 1];
	const void *v;
	for (size_t i = 0; i < n; i++) {
		lego_expr *e = order[i];
		int changed = 0;
		if (lego_cache_get(map, e, &v))
			continue;
		if (e->nargs > MAX_TERMS + 1)
			return NULL;
		for (uint32_t a = 0; a < e->nargs; a++) {
			args[a] = e->args[a];
			if (lego_cache_get(map, e->args[a], &v)) {
				args[a] = (lego_expr *)v;
				changed = 1;
			}
		}
		lego_expr *r = changed ? lego_expr_make(ctx, e->kind, e->nargs,
							args, e->value)
				       : NULL;
		if (changed && lego_cache_put(map, e, r) != LEGO_OK)
			return NULL;
		if (r)
			cert_cong(ctx, e, args, e->nargs, r);
	}
	return lego_cache_get(map, order[n - 1], &v) ? (lego_expr *)v
						     : order[n - 1];
}

/* One round: the largest group common to two sums, regrouped in every
 * sum that holds it.  NULL when there is none. */
static lego_expr *share_once(lego_ctx *ctx, lego_expr *root)
{
	lego_expr **order, *sums[MAX_SUMS], *out = NULL;
	size_t n, ns = 0, ng = 0;
	sterm g[MAX_TERMS], cand[MAX_TERMS], ta[MAX_TERMS], tb[MAX_TERMS];
	if (lego_expr_topo(root, NULL, NULL, &order, &n) != LEGO_OK || !n)
		return NULL;
	for (size_t i = 0; i < n && ns < MAX_SUMS; i++)
		if (order[i]->kind == LEGO_ADD)
			sums[ns++] = order[i];
	if (ns < 2) {
		free(order);
		return NULL;
	}
	for (size_t a = 0; a < ns; a++) {
		size_t na = terms_of(ctx, sums[a], ta);
		for (size_t b = a + 1; b < ns && na >= 2; b++) {
			size_t nb = terms_of(ctx, sums[b], tb);
			size_t k = common_group(ta, na, tb, nb, cand);
			if (k >= 2 && k > ng) {
				ng = k;
				for (size_t i = 0; i < k; i++)
					g[i] = cand[i];
			}
		}
	}
	lego_expr *gn = ng ? group_node(ctx, g, ng) : NULL;
	lego_cache map = {0};
	int any = 0;
	for (size_t s = 0; gn && s < ns; s++) {
		int64_t c = 0;
		size_t nt = terms_of(ctx, sums[s], ta);
		lego_expr *r;
		if (sums[s] == gn || !contains(g, ng, ta, nt, &c))
			continue;
		if (!(r = regrouped(ctx, sums[s], g, ng, gn, c)) ||
		    lego_cache_put(&map, sums[s], r) != LEGO_OK)
			goto done;
		cert_ring(ctx, sums[s], r); /* the schema of sum-share */
		any = 1;
	}
	if (any)
		out = rebuild(ctx, order, n, &map);
done:
	lego_cache_free(&map);
	free(order);
	return out;
}

lego_expr *lego_share_sums(lego_ctx *ctx, lego_expr *root)
{
	size_t cost = SIZE_MAX;
	if (!rule_on(ctx, R_SUM_SHARE) || root->kind == LEGO_SYM ||
	    root->kind == LEGO_CONST)
		return root;
	for (int r = 0; r < MAX_ROUNDS; r++) {
		lego_expr *next = share_once(ctx, root);
		if (!next)
			break;
		if (cost == SIZE_MAX) /* counted only when there is a candidate */
			cost = lego_expr_ops(&root, 1);
		size_t c = lego_expr_ops(&next, 1);
		if (c >= cost)
			break;
		root = next;
		cost = c;
	}
	return root;
}
