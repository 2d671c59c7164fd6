/* facts.h - assumptions, analysis forms, the prover and the simplifier's
 * caches (internal to src/simplify). */
#ifndef LEGO_SIMPLIFY_FACTS_H
#define LEGO_SIMPLIFY_FACTS_H

#include "expr/expr.h"

/* ----------------------------------------------------------- node cache */

/* A map from nodes (by id) to pointers, malloc'd, cleared when the facts
 * change.  A stored NULL is distinct from "absent". */
typedef struct lego_cache {
	uint32_t *keys;     /* node id + 1; 0 = empty slot */
	const void **vals;
	size_t cap;
	size_t count;
} lego_cache;

/* 1 and *val set when key is present, 0 otherwise. */
int lego_cache_get(const lego_cache *c, const lego_expr *key,
		   const void **val);
int lego_cache_put(lego_cache *c, const lego_expr *key, const void *val);
void lego_cache_clear(lego_cache *c);
void lego_cache_free(lego_cache *c);

/* ---------------------------------------------------------------- facts */

/*
 * A symbol replaced by an expression in the analysis form.  A divisibility
 * fact d | sym is the substitution sym -> d*q with q the node sym/d, which
 * then stands for a positive integer of its own; an equation sym == v is
 * sym -> v (q NULL).
 */
typedef struct lego_subst {
	lego_expr *sym;
	lego_expr *value;
	lego_expr *q;
} lego_subst;

/* Bounds are computed in two modes: atoms free of index variables kept as
 * opaque variables (exact correlations), or bounded by intervals. */
enum { LEGO_MODE_OPAQUE, LEGO_MODE_INTERVAL, LEGO_NMODES };
enum { LEGO_LO, LEGO_HI };

/* Largest number of terms an analysis form may have; beyond it the
 * analysis gives up (sound: nothing is proved, nothing rewritten). */
enum { LEGO_POLY_MAX_TERMS = 64, LEGO_MONO_MAX = 12 };

struct lego_facts {
	lego_subst *subst;
	size_t nsubst, subst_cap;
	lego_expr **nonneg;       /* assumed e >= 0 */
	size_t nnonneg, nonneg_cap;
	/* Divisibility facts d | n not yet usable as substitutions (n is a
	 * quotient M/BM before BM | M is known), pairs {d, n}: retried
	 * whenever a substitution is added, so facts may come in any order. */
	lego_expr **pending;
	size_t npending, pending_cap;

	lego_cache poly;          /* node -> analysis form or NULL */
	lego_cache bound[LEGO_NMODES][2];
	lego_cache base_lo;       /* opaque atom -> its constant lower bound */
	lego_cache proof;         /* node -> &yes / &no */
	lego_cache simp;          /* node -> simplified node, or &busy */
	lego_cache has_index;     /* node -> &yes / &no */
	lego_cache ops;           /* node -> constant node: its lego_expr_ops */

	/* Scratch of the positivity test, reused between calls. */
	void *scratch;
	size_t scratch_cap;
	unsigned depth;           /* simplifier recursion guard */
	int use_smt;              /* lego_ctx_use_smt */
	uint64_t rules_off;       /* bit r: rule r (ruletab.h) is off */
	int in_smt;               /* Z3 asked now: do not ask it again */
	int matching;             /* lego_poly matches pending facts now */
	struct lego_cert *cert;   /* the certificate being recorded, or NULL */
	char yes, no, busy;       /* addresses used as cache markers */
};

/* Drops every cached result: called whenever a fact is added. */
void lego_facts_invalidate(lego_ctx *ctx);

/* --------------------------------------------------------- analysis form */

/*
 * The analysis form of e: every substitution applied, products distributed
 * over sums, exact divisions carried out: a canonical sum of terms
 * coef * atom * ...  whose atoms are symbols and nodes that are not + or *
 * (DIV, MOD, MIN, ...).  Equal to e for every binding satisfying the facts.
 * NULL when it would exceed LEGO_POLY_MAX_TERMS terms or overflow.
 */
lego_expr *lego_poly(lego_ctx *ctx, lego_expr *e);
lego_expr *lego_poly_mul(lego_ctx *ctx, lego_expr *a, lego_expr *b);

/* A term coef * atoms[0] * ... * atoms[n-1] (atoms point into a node). */
typedef struct lego_term {
	int64_t coef;
	size_t n;
	lego_expr *const *atoms;
} lego_term;

/* The terms of the canonical sum *pp (pp must stay valid while the terms
 * are used); returns their number, or SIZE_MAX when more than cap. */
size_t lego_poly_terms(lego_expr *const *pp, lego_term *out, size_t cap);
/* The single term of a one-term form with a positive coefficient. */
int lego_poly_monomial(lego_expr *const *pp, lego_term *out);
/* coef * atoms as a node. */
lego_expr *lego_term_node(lego_ctx *ctx, const lego_term *t);
/* t / d as a node when d divides t (coefficient and atoms), else NULL. */
lego_expr *lego_term_div(lego_ctx *ctx, const lego_term *t,
			 const lego_term *d);
/* Splits p into q*d + r: q collects the terms that d divides.  0 when d
 * is not a positive monomial. */
int lego_poly_split(lego_ctx *ctx, lego_expr *p, lego_expr *d,
		    lego_expr **q, lego_expr **r);
/* The substitution whose q is e, or NULL. */
const lego_subst *lego_facts_quotient(lego_ctx *ctx, const lego_expr *e);
/* Is e the quotient n/d (or the rest n%d) of a fact d | n that no
 * substitution expresses: n a constant (BM | 4096 once M = 4096 is given)
 * or already substituted by an earlier fact (BN | N, then NB | N)?  n/d
 * is a positive integer (a variable of bounds, like the quotients above),
 * n%d is 0 and d * (n/d) = n: lego_poly applies that to every product. */
int lego_facts_pending_quotient(lego_ctx *ctx, const lego_expr *e);
/* Either kind of quotient. */
int lego_facts_is_quotient(lego_ctx *ctx, const lego_expr *e);

/* An analysis form back as a cheap expression: divisibility substitutions
 * undone ((M/BM)*BM -> M) and common factors extracted. */
lego_expr *lego_poly_rebuild(lego_ctx *ctx, lego_expr *p);

/* ---------------------------------------------------------------- prover */

/* Does e mention an index variable? */
int lego_has_index(lego_ctx *ctx, lego_expr *e);
/* A lower (LEGO_LO) or upper bound of e, as an analysis form over plain
 * symbols, quotients of facts and (in LEGO_MODE_OPAQUE) index-free atoms;
 * NULL when none is found. */
lego_expr *lego_bound(lego_ctx *ctx, lego_expr *e, int dir, int mode);
/* The constant upper bound of e (interval mode), when there is one. */
int lego_const_hi(lego_ctx *ctx, lego_expr *e, int64_t *hi);
/* 2^k - 1 for the least k with v < 2^k (v >= 0): every value in [0, v]
 * has its bits within it. */
int64_t lego_bit_cover(int64_t v);
/* Is the analysis form p, over the variables above, >= 0 for every value
 * of them at least their lower bounds? */
int lego_poly_nonneg(lego_ctx *ctx, lego_expr *p);
/* The constant lower bound of a variable of a bound, or 0 when it has none
 * (*lo unset). */
int lego_var_lo(lego_ctx *ctx, lego_expr *v, int64_t *lo);
/* 1: cond holds; 0: it does not; -1: undecided. */
int lego_decide(lego_ctx *ctx, lego_expr *cond);
/* a <= b proved. */
int lego_prove_le(lego_ctx *ctx, lego_expr *a, lego_expr *b);

#endif
