/* proof.h - the door of src/proof: which argument proves each property
 * of a layout (internal; the public API is lego_layout_prove in lego.h).
 *
 * Arguments, cheapest first: construction (the pieces are bijections and
 * their sizes agree, so the composition is one and the composed inverse
 * is its inverse), exhaustive evaluation over a finite domain, and Z3 for
 * what is genuinely the user's (GenP inverses, assumptions). */
#ifndef LEGO_PROOF_H
#define LEGO_PROOF_H

#include <stdio.h>

#include "core/core.h"
#include "lego.h"

/* The outcome of one argument: a status, how, and why in words. */
typedef struct proof_arg {
	lego_proof status;
	lego_argument by;
	char why[LEGO_PROOF_WHY];
} proof_arg;

/* What is proved once and cached -- a `genp` declaration's template:
 * the same queries in every use -- gets this many ms of Z3's resources
 * (src/smt counts them, not the wall clock), whatever is left of the
 * run's --timeout, so that its outcome does not depend on the load.
 * (The built-ins' certificates, swizzle.c and antidiag.c, have fixed
 * budgets of their own, in ctxs of their own.) */
enum { PROOF_ONCE_MS = 60000 };

/* Appends printf-style text to a->why (truncating). */
void proof_say(proof_arg *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends " at a=1 b=2", the values env gives cond's symbols (a
 * counterexample), to a. */
void proof_say_witness(lego_ctx *ctx, lego_expr *cond, const lego_env *env,
		       proof_arg *a);

/* construct.c: is l a bijection onto [0, size) (onto its real elements
 * under the mask when padded), with lego_layout_inv its inverse, by its
 * construction?  Proved, or the piece that stops the argument. */
int proof_construct(lego_ctx *ctx, const lego_layout *l, unsigned timeout_ms,
		    proof_arg *a);

/* genp.c: the inverse of a GenP leaf that is not built in, proved by
 * exhaustive evaluation (concrete dims) or Z3 (symbolic dims): for every
 * i in its domain, 0 <= apply(i) < size and inv(apply(i)) == i.  With a
 * finite domain the two make apply a bijection onto [0, size) with inv
 * its inverse.  A use of a `genp` declaration with symbolic dims is
 * proved by its template, once for all dims (*by_template = 1), and
 * otherwise at its own dims.
 * *by: the argument used (a failure is also recorded in a). */
int proof_genp(lego_ctx *ctx, const lego_layout *leaf, unsigned timeout_ms,
	       proof_arg *a, lego_argument *by, int *by_template);
/* The number of points of a GenP leaf's domain, or -1 when a dim is
 * symbolic or there are more than lego_smt_prove enumerates (2^20). */
int64_t proof_genp_points(const lego_layout *leaf);

/* swizzle.c: 1 when leaf is the built-in swizzle, its certificate
 * checked (a failure recorded in a: the size not proved a multiple of
 * its blocks, or the 64-bit lemmas undecided), 0 when it is not one,
 * LEGO_ERR on an error. */
int proof_swizzle(lego_ctx *ctx, const lego_layout *leaf, proof_arg *a);

/* antidiag.c: 1 when leaf is the built-in antidiag, its certificate for
 * every n checked (a step not proved recorded in a), 0 when it is not
 * one, LEGO_ERR on an error.  Each step gets a fixed budget of Z3's
 * resources in a Z3 context of its own: no time limit of the caller's
 * and nothing asked before changes the outcome. */
int proof_antidiag(lego_ctx *ctx, const lego_layout *leaf, proof_arg *a);
/* The certificate for the formulas of fn (apply_sym and inv_sym at
 * [n, n]): a->status PROVED, or the first step not proved (REFUTED with
 * its counterexample) said in a.  LEGO_OK or an error.  Tests hand it a
 * planted wrong inverse. */
int proof_antidiag_fn(lego_ctx *ctx, const lego_genp_fn *fn, proof_arg *a);

/* cert.c: the certificate checker.  For each i < n, ok[i] = 1 when the
 * steps of cert prove from[i] == to[i] under the facts; the first
 * refused step, when one is, is said in a.  LEGO_OK or an error. */
struct lego_cert;
int proof_cert_check(lego_ctx *ctx, const struct lego_cert *cert, size_t n,
		     lego_expr *const *from, lego_expr *const *to, int *ok,
		     proof_arg *a);

/* template.c: `lego check --prove TEMPLATE`: for each placeholder of the
 * template (its spec as lego_gen loads it, opts->target unused), prints
 * to out whether the emitted expression equals the defining one and
 * whether its layout references' indices are in range, each query
 * within ms of Z3's resources; then a summary.  *verdict: REFUTED when
 * one is, else UNKNOWN when one is, else PROVED.  LEGO_OK or an error
 * (the template's, "file:line:col: error: ..."). */
int proof_template(lego_ctx *ctx, const char *filename, const char *text,
		   size_t len, const lego_gen_opts *opts, unsigned ms,
		   FILE *out, lego_proof *verdict);

/* assume.c: PROVED when the facts have a model, REFUTED when they are
 * inconsistent (they would prove anything), UNKNOWN otherwise. */
lego_proof proof_assumptions(lego_ctx *ctx, unsigned timeout_ms);

#endif
