/* prove.c - the prover: e >= 0 when a lower bound of e, a polynomial in
 * variables with known constant lower bounds, is nonnegative.  Sound and
 * incomplete: 1 only when proved.  When the context asks for it, Z3 is
 * asked in lego_prove_nonneg() about what prove_by_bounds() leaves open. */
#include <stdlib.h>
#include <string.h>

#include "simplify/facts.h"

enum { SHIFT_MAX_ATOMS = 8, SHIFT_MAX_ENTRIES = 4096 };

/* One monomial of the shifted polynomial. */
typedef struct shift_entry {
	int used;
	uint32_t n;
	int64_t coef;
	lego_expr *atoms[SHIFT_MAX_ATOMS];
} shift_entry;

int lego_var_lo(lego_ctx *ctx, lego_expr *v, int64_t *lo)
{
	struct lego_facts *f = ctx->facts;
	const void *c;
	if (v->kind == LEGO_SYM) {
		if (v->sym->is_index)
			return 0;
		if (!lego_expr_is_const(v->sym->lo, lo))
			*lo = 1; /* sizes are positive */
		return 1;
	}
	if (lego_facts_is_quotient(ctx, v)) {
		*lo = 1; /* n/d with d | n, both positive */
		return 1;
	}
	if (lego_has_index(ctx, v))
		return 0;
	if (!lego_cache_get(&f->base_lo, v, &c)) {
		lego_cache_put(&f->base_lo, v, NULL); /* cycle guard */
		lego_expr *l = lego_bound(ctx, v, LEGO_LO, LEGO_MODE_INTERVAL);
		lego_expr *one = l ? lego_add(ctx, l, lego_const(ctx, -1)) : NULL;
		c = one && lego_poly_nonneg(ctx, one) ? lego_const(ctx, 1)
		    : l && lego_poly_nonneg(ctx, l)   ? lego_const(ctx, 0)
						      : NULL;
		lego_cache_put(&f->base_lo, v, c);
	}
	return c && lego_expr_is_const(c, lo);
}

static size_t key_hash(lego_expr *const *atoms, uint32_t n)
{
	size_t h = n;
	for (uint32_t i = 0; i < n; i++)
		h = h * 1000003u + atoms[i]->id;
	return h;
}

static int accumulate(shift_entry *tab, size_t cap, lego_expr *const *atoms,
		      uint32_t n, int64_t coef)
{
	size_t i = key_hash(atoms, n) & (cap - 1);
	for (;; i = (i + 1) & (cap - 1)) {
		shift_entry *s = &tab[i];
		if (!s->used) {
			s->used = 1;
			s->n = n;
			s->coef = coef;
			memcpy(s->atoms, atoms, n * sizeof *atoms);
			return 1;
		}
		if (s->n == n && !memcmp(s->atoms, atoms, n * sizeof *atoms))
			return !__builtin_add_overflow(s->coef, coef, &s->coef);
	}
}

/* Adds the expansion of coef * prod(lo_i + v_i) over the sub-multisets. */
static int shift_term(shift_entry *tab, size_t cap, const lego_term *t,
		      const int64_t *lo)
{
	lego_expr *kept[SHIFT_MAX_ATOMS];
	for (uint32_t mask = 0; mask < (1u << t->n); mask++) {
		int64_t c = t->coef;
		uint32_t k = 0;
		for (uint32_t i = 0; i < t->n && c; i++) {
			if (mask & (1u << i))
				kept[k++] = t->atoms[i];
			else if (__builtin_mul_overflow(c, lo[i], &c))
				return 0;
		}
		if (c && !accumulate(tab, cap, kept, k, c))
			return 0;
	}
	return 1;
}

static shift_entry *scratch(lego_ctx *ctx, size_t cap)
{
	struct lego_facts *f = ctx->facts;
	if (f->scratch_cap < cap) {
		free(f->scratch);
		f->scratch = malloc(cap * sizeof(shift_entry));
		f->scratch_cap = f->scratch ? cap : 0;
	}
	if (f->scratch)
		memset(f->scratch, 0, cap * sizeof(shift_entry));
	return f->scratch;
}

/* Substitutes v = lo_v + v' (v' >= 0) and checks every coefficient. */
static int shifted_nonneg(lego_ctx *ctx, const lego_term *t, size_t n,
			  int64_t (*lo)[SHIFT_MAX_ATOMS])
{
	size_t total = 0, cap = 16;
	for (size_t i = 0; i < n; i++)
		total += (size_t)1 << t[i].n;
	if (total > SHIFT_MAX_ENTRIES)
		return 0;
	while (cap < 2 * total)
		cap *= 2;
	shift_entry *tab = scratch(ctx, cap);
	if (!tab)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!shift_term(tab, cap, &t[i], lo[i]))
			return 0;
	for (size_t i = 0; i < cap; i++)
		if (tab[i].used && tab[i].coef < 0)
			return 0;
	return 1;
}

int lego_poly_nonneg(lego_ctx *ctx, lego_expr *p)
{
	lego_term t[LEGO_POLY_MAX_TERMS];
	int64_t lo[LEGO_POLY_MAX_TERMS][SHIFT_MAX_ATOMS];
	size_t n = lego_poly_terms(&p, t, LEGO_POLY_MAX_TERMS);
	int easy = 1;
	if (n == SIZE_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].n > SHIFT_MAX_ATOMS)
			return 0;
		for (size_t j = 0; j < t[i].n; j++) {
			if (!lego_var_lo(ctx, t[i].atoms[j], &lo[i][j]))
				return 0;
			easy &= lo[i][j] >= 0;
		}
		easy &= t[i].coef >= 0;
	}
	return easy || shifted_nonneg(ctx, t, n, lo);
}

/* Does the bound p keep an atom that interval mode would bound further? */
static int has_opaque_atom(lego_ctx *ctx, lego_expr *p)
{
	lego_term t[LEGO_POLY_MAX_TERMS];
	size_t n = lego_poly_terms(&p, t, LEGO_POLY_MAX_TERMS);
	if (n == SIZE_MAX)
		return 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < t[i].n; j++)
			if (t[i].atoms[j]->kind != LEGO_SYM &&
			    !lego_facts_is_quotient(ctx, t[i].atoms[j]))
				return 1;
	return 0;
}

/* e - a >= 0 for an assumed a >= 0: e >= a >= 0.  The difference is
 * taken before bounding, so that an assumption about a compound
 * expression (i + di < 8) cancels that expression in e. */
static int prove_by_facts(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	for (size_t i = 0; i < f->nnonneg; i++) {
		lego_expr *d = lego_poly(ctx, lego_sub(ctx, e, f->nonneg[i]));
		for (int mode = 0; d && mode < LEGO_NMODES; mode++) {
			lego_expr *l = lego_bound(ctx, d, LEGO_LO, mode);
			if (l && lego_poly_nonneg(ctx, l))
				return 1;
		}
	}
	return 0;
}

/* A lower bound of e, then of e minus an assumed nonnegative quantity. */
static int prove_by_bounds(lego_ctx *ctx, lego_expr *e)
{
	struct lego_facts *f = ctx->facts;
	for (int mode = 0; mode < LEGO_NMODES; mode++) {
		lego_expr *l = lego_bound(ctx, e, LEGO_LO, mode);
		if (!l)
			continue;
		if (lego_poly_nonneg(ctx, l))
			return 1;
		for (size_t i = 0; i < f->nnonneg; i++) {
			lego_expr *fp = lego_poly(ctx, f->nonneg[i]);
			lego_expr *rest = lego_add(
				ctx, l, lego_poly_mul(ctx, lego_const(ctx, -1), fp));
			if (rest && lego_poly_nonneg(ctx, rest))
				return 1;
		}
		if (!has_opaque_atom(ctx, l))
			break; /* the interval mode would find the same bound */
	}
	return prove_by_facts(ctx, e);
}

/* Sign rules on the unexpanded expression: a product of non-negative
 * factors is non-negative, as is a quotient or modulo by a positive
 * divisor.  Bounds of the expanded polynomial lose this: (128-s)*(129-s)
 * with 0 <= s <= 128 expands to s*s - 257*s + 16512. */
static int prove_by_signs(lego_ctx *ctx, lego_expr *e)
{
	switch (e->kind) {
	case LEGO_MUL:
		for (uint32_t i = 0; i < e->nargs; i++)
			if (!lego_prove_nonneg(ctx, e->args[i]))
				return 0;
		return 1;
	case LEGO_DIV:
		return lego_prove_nonneg(ctx, e->args[0]) &&
		       lego_prove_lt(ctx, lego_const(ctx, 0), e->args[1]);
	case LEGO_MOD:
		return lego_prove_lt(ctx, lego_const(ctx, 0), e->args[1]);
	default:
		return 0;
	}
}

int lego_prove_nonneg(lego_ctx *ctx, lego_expr *e)
{
	if (!ctx || !e)
		return 0;
	struct lego_facts *f = ctx->facts;
	const void *v;
	int64_t k;
	if (lego_expr_is_const(e, &k))
		return k >= 0;
	if (lego_cache_get(&f->proof, e, &v))
		return v == &f->yes;
	lego_cache_put(&f->proof, e, &f->no); /* cycle guard */
	int r = prove_by_bounds(ctx, e) || prove_by_signs(ctx, e);
	if (!r && f->use_smt && !f->in_smt) {
		f->in_smt = 1; /* Z3's own simplification proves without it */
		r = lego_smt_prove_nonneg(ctx, e);
		f->in_smt = 0;
	}
	lego_cache_put(&f->proof, e, r ? &f->yes : &f->no);
	return r;
}

int lego_prove_le(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return a && b && lego_prove_nonneg(ctx, lego_sub(ctx, b, a));
}

int lego_prove_lt(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	return ctx && a && b &&
	       lego_prove_nonneg(ctx, lego_add(ctx, lego_sub(ctx, b, a),
					       lego_const(ctx, -1)));
}

static int decide_eq(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	int64_t k;
	lego_expr *d = lego_poly(ctx, lego_sub(ctx, a, b));
	if (d && lego_expr_is_const(d, &k))
		return k == 0;
	return lego_prove_lt(ctx, a, b) || lego_prove_lt(ctx, b, a) ? 0 : -1;
}

static int negate(int r)
{
	return r < 0 ? r : !r;
}

int lego_decide(lego_ctx *ctx, lego_expr *cond)
{
	lego_expr *const *a = cond->args;
	int x, y;
	switch (cond->kind) {
	case LEGO_CONST:
		return cond->value != 0;
	case LEGO_LT:
		return lego_prove_lt(ctx, a[0], a[1])	? 1
		       : lego_prove_le(ctx, a[1], a[0]) ? 0
							: -1;
	case LEGO_LE:
		return lego_prove_le(ctx, a[0], a[1])	? 1
		       : lego_prove_lt(ctx, a[1], a[0]) ? 0
							: -1;
	case LEGO_EQ:
		return decide_eq(ctx, a[0], a[1]);
	case LEGO_NE:
		return negate(decide_eq(ctx, a[0], a[1]));
	case LEGO_NOT:
		return negate(lego_decide(ctx, a[0]));
	case LEGO_AND:
	case LEGO_OR:
		x = lego_decide(ctx, a[0]);
		y = lego_decide(ctx, a[1]);
		if (cond->kind == LEGO_OR)
			return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : -1;
		return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : -1;
	default:
		return -1;
	}
}
