/* cert.h - the simplifier's certificates: the door of src/simplify for
 * src/proof.
 *
 * While a certificate is being recorded, every rewrite the simplifier
 * makes is logged as one step, an equation before == after with what
 * justifies it; src/proof/cert.c replays the log without the rewriter's
 * search (docs/proof.md, "Certificates").  Recording is off otherwise
 * and then costs one test per rewrite. */
#ifndef LEGO_SIMPLIFY_CERT_H
#define LEGO_SIMPLIFY_CERT_H

#include "simplify/facts.h"
#include "simplify/ruletab.h"

typedef enum cert_kind {
	/* rule: before - after == scale * (lhs - rhs) of the rule's schema
	 * instantiated with bind[], in the ring normal form; the schema's
	 * side condition holds there. */
	CERT_RULE,
	/* ring: before and after have the same ring normal form. */
	CERT_RING,
	/* congruence: after is before's operator rebuilt on args[first ..
	 * first + nargs), each equal to before's argument of that place. */
	CERT_CONG,
	/* value: after is the constant that before's range (or, for a
	 * condition, the prover's decision) fixes. */
	CERT_VALUE,
} cert_kind;

enum { CERT_MAX_BIND = 4 };

typedef struct cert_step {
	cert_kind kind;
	rule_id rule;
	lego_expr *before, *after, *scale;
	lego_expr *bind[CERT_MAX_BIND]; /* the rule's vars, in their order */
	size_t first, nargs;
} cert_step;

/* A log of steps (malloc'd arrays, owned by the certificate). */
typedef struct lego_cert {
	cert_step *steps;
	size_t n, cap;
	lego_expr **args;
	size_t nargs, args_cap;
	int lost; /* a step could not be stored (out of memory) */
} lego_cert;

/* Records into c (owned by the caller) from now on; the simplifier's
 * caches are dropped so that every result is derived again, and logged. */
void lego_cert_start(lego_ctx *ctx, lego_cert *c);
void lego_cert_stop(lego_ctx *ctx);
void lego_cert_free(lego_cert *c);

/* The hooks (no-ops while nothing is recorded or an argument is NULL). */
void cert_rule(lego_ctx *ctx, rule_id r, lego_expr *before, lego_expr *after,
	       lego_expr *scale, lego_expr *const *bind, size_t nbind);
void cert_ring(lego_ctx *ctx, lego_expr *before, lego_expr *after);
void cert_cong(lego_ctx *ctx, lego_expr *before, lego_expr *const *args,
	       size_t nargs, lego_expr *after);
void cert_value(lego_ctx *ctx, lego_expr *before, lego_expr *after);

/* How rule r is proved for unbounded integers (ruletab.c): a word, or
 * NULL when it is not (the checker refuses its steps). */
const char *rule_proved_by(rule_id r);

#endif
