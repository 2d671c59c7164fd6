/* smt.h - the solver state of a ctx and the pieces of src/smt (internal).
 *
 * Z3 is optional: without LEGO_HAVE_Z3 only the cache and the exhaustive
 * enumeration of finite conditions exist, and every other query is
 * answered LEGO_UNKNOWN. */
#ifndef LEGO_SMT_H
#define LEGO_SMT_H

#include <stdint.h>

#include "expr/expr.h"

#ifdef LEGO_HAVE_Z3
#include "smt/z3load.h"
#endif

/* ------------------------------------------------------------- symbols */

/* The symbols an expression depends on, including those of the bounds of
 * its index variables, in first-seen order (malloc'd). */
typedef struct smt_syms {
	lego_expr **syms;
	size_t n, cap;
} smt_syms;

int smt_syms_collect(lego_ctx *ctx, smt_syms *s, lego_expr *e);
void smt_syms_free(smt_syms *s);

/* --------------------------------------------------------------- cache */

/* One answer: the condition node, the facts it was asked under, the
 * limit of an unknown answer and the counterexample of a refutation
 * (values of `syms`, malloc'd). */
typedef struct smt_answer {
	const lego_expr *cond;
	uint64_t facts_version;
	int proof;             /* lego_proof */
	unsigned timeout_ms;
	size_t n;
	lego_expr **syms;
	int64_t *values;
} smt_answer;

typedef struct smt_cache {
	smt_answer *slots;     /* open addressing; cond NULL = empty */
	size_t cap, count;
} smt_cache;

/* The usable answer for cond asked with timeout_ms, or NULL. */
const smt_answer *smt_cache_get(const smt_cache *c, const lego_expr *cond,
				uint64_t version, unsigned timeout_ms);
/* Stores a copy of a (its arrays are copied). */
int smt_cache_put(smt_cache *c, const smt_answer *a);
void smt_cache_free(smt_cache *c);

/* ------------------------------------------------------ the ctx's state */

struct lego_smt {
	smt_cache cache;
	double spent;          /* Z3's resource count of the context */
	uint64_t checks;       /* Z3_solver_check calls */
#ifdef LEGO_HAVE_Z3
	Z3_context z3;
#endif
};

/*
 * Time limits are given to Z3 as a resource limit, not as its "timeout":
 * the timer threads of Z3 4.8.12 deadlock after many short timed queries
 * (seen here, inside Z3_solver_check).  The resource limit is
 * deterministic; on these problems about 600 units take a millisecond,
 * though some queries run several times longer per unit.
 */
enum { SMT_RLIMIT_PER_MS = 600 };

/* The clock of the solver's deadlines: seconds of Z3 resources the ctx
 * has used (SMT_RLIMIT_PER_MS units a millisecond).  Unlike the wall
 * clock it does not run while the machine is busy with other work, so
 * what a proof decides does not depend on the load. */
double smt_clock(lego_ctx *ctx);

/* The state of ctx, created on first use; NULL (message set) on error. */
struct lego_smt *smt_state(lego_ctx *ctx);
/* What the facts of src/simplify are now: changes whenever one is added. */
uint64_t smt_facts_version(lego_ctx *ctx);

/* ---------------------------------------------------------- validation */

/* Progress of a validation: called before property k of n (1-based). */
typedef void (*smt_progress_fn)(void *user, int k, int n,
				const char *property);
/* lego_layout_validate, calling progress (may be NULL) as it goes. */
int smt_layout_validate(lego_ctx *ctx, const lego_layout *l,
			unsigned total_ms, smt_progress_fn progress,
			void *user, lego_validation *report);
/* report.c: "inv(apply(i)) == i" and the others. */
const char *smt_vprop_name(lego_vprop p);

/* lego_smt_prove, with certified rewriting (below) allowed or not. */
lego_proof smt_prove(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
		     int rewrite, lego_env *counterexample);

/*
 * Certified rewriting: cond rebuilt bottom-up, each node replaced by its
 * simplified form when the prover (without rewriting) shows them equal,
 * the node's arguments being already rewritten.  By congruence the result
 * equals cond under the facts; it is usually far easier for Z3.  Stops
 * rewriting at the deadline (seconds of smt_clock).  NULL on error.
 */
lego_expr *smt_rewrite(lego_ctx *ctx, lego_expr *cond, double deadline);

/* ------------------------------------------------------- enumeration */

/* Decides cond by evaluating it at every point when all its symbols are
 * index variables with constant bounds and there are at most `limit`
 * points.  Returns a lego_proof, or -1 when the domain is not finite and
 * small.  On LEGO_REFUTED, values[] (syms->n entries) holds the point.
 * Points where evaluation fails (division by zero, overflow) are
 * skipped: a proof says what holds wherever cond is defined. */
int smt_enumerate(lego_ctx *ctx, lego_expr *cond, const smt_syms *syms,
		  uint64_t limit, int64_t *values);

/* ------------------------------------------------------ bit-vectors */

/*
 * Decides cond with every value and every operation taken as 64-bit two's
 * complement (what the emitted 64-bit code computes; floor / and %):
 * the symbols free[0..nfree) range over all 64-bit values, every other
 * symbol has its range (a plain symbol >= its lower bound or 1, an index
 * variable [lo, hi)).  The facts of src/simplify are not used.  For the
 * rules of bit operations (src/proof/rules.c), which Z3 does not decide
 * through int2bv.  LEGO_UNKNOWN (message set) when undecided, for a node
 * it does not translate, or without Z3.  With opaque_divs, every distinct
 * / or % node is an unconstrained value instead (the same at each
 * occurrence): what holds so holds whatever they compute, so a proof
 * stands and a model proves nothing (LEGO_UNKNOWN).  For a rule whose
 * lemmas turn its divisions into shifts.
 *
 * With cases (a free symbol, or NULL), cond is decided for each value
 * 0..62 of that symbol, one after the other in one incremental solver:
 * constant shift amounts are decided in milliseconds, symbolic ones may
 * not be in minutes.  The caller shows that the other values need no
 * proof (the rule's side excludes them).
 */
enum { SMT_SHIFT_TOP = 62 };

lego_proof smt_prove_bv64(lego_ctx *ctx, lego_expr *cond,
			  lego_expr *const *free, size_t nfree,
			  lego_expr *cases, unsigned timeout_ms,
			  int opaque_divs);

#ifdef LEGO_HAVE_Z3
/* --------------------------------------------------------- translation */

/*
 * A translation of lego expressions into Z3 integer terms, for one query.
 * Exact semantics: floor division and modulo for any sign, bitwise
 * operations on 64-bit two's complement, shifts by 0..62, isqrt as a
 * constrained fresh variable.  Operations undefined in lego_expr_eval
 * (division by zero, shift amounts out of 0..62, isqrt of a negative)
 * take unconstrained values, so a proof holds wherever evaluation
 * succeeds.  Hypotheses collected on the way: the range of every symbol
 * met and the definitions of fresh variables.
 */
typedef struct smt_tr smt_tr;

smt_tr *smt_tr_new(lego_ctx *ctx, Z3_context z3);
void smt_tr_free(smt_tr *tr);
/* e as an integer term / e != 0 as a Boolean; NULL on error. */
Z3_ast smt_tr_int(smt_tr *tr, lego_expr *e);
Z3_ast smt_tr_bool(smt_tr *tr, lego_expr *e);
/* The facts of src/simplify, as hypotheses.  LEGO_OK or an error. */
int smt_tr_facts(smt_tr *tr);
/* The pending divisibility facts d | n of src/simplify whose quotient
 * n / d the terms translated so far mention.  LEGO_OK or an error. */
int smt_tr_pending(smt_tr *tr);
/* Hypotheses so far (their number grows as terms are translated). */
size_t smt_tr_nhyps(const smt_tr *tr);
Z3_ast smt_tr_hyp(const smt_tr *tr, size_t i);
/* The symbols met so far, in first-seen order. */
const smt_syms *smt_tr_syms(const smt_tr *tr);
/* Decides cond with one Z3 query within timeout_ms (0: none).  Fills ans
 * (proof; on LEGO_REFUTED a counterexample confirmed by lego_expr_eval,
 * malloc'd syms and values).  LEGO_OK, or an error status (ans->proof is
 * then LEGO_UNKNOWN). */
int smt_solve(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
	      smt_answer *ans);
/* Bounds every symbol met to |s| <= bound (for small counterexamples). */
Z3_ast smt_tr_small(smt_tr *tr, int64_t bound);
#endif

#endif
