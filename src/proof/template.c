/* template.c - what `lego check --prove TEMPLATE` proves of each {{ ... }}
 * placeholder of a template (docs/proof.md, "Templates"):
 *
 *   simplified == semantics: the expression lego gen emits (the
 *     simplified one) equals the placeholder's defining expression
 *     (its layout references composed as SEMANTICS.md defines them),
 *     by the simplifier's certificate, else by the solver;
 *   indices in range: every index of a layout reference lies in
 *     [0, dim), every slice within [0, dim], every inverse's argument in
 *     [0, size), under the spec's assumptions and the index variables'
 *     ranges; with the layout's own proof (0 <= apply < size, a
 *     bijection), the placeholder then reads inside its buffer.
 *
 * Both are asked for symbolic sizes, as the layouts' properties are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/template.h"
#include "proof/proof.h"
#include "simplify/cert.h"

typedef struct run {
	lego_ctx *ctx;
	FILE *out;
	const char *filename;
	unsigned ms;
	size_t places, simplified, with_refs, in_range;
	int refuted, unknown;
} run;

static const char *status_name(lego_proof p)
{
	return p == LEGO_PROVED ? "proved"
	       : p == LEGO_REFUTED ? "REFUTED" : "unknown";
}

/* simplify(e) == e, by certificate or else the solver. */
static void prove_simplified(lego_ctx *ctx, lego_expr *e, unsigned ms,
			     proof_arg *a)
{
	lego_cert cert;
	int ok = 0;
	lego_cert_start(ctx, &cert);
	lego_expr *s = lego_simplify(ctx, e);
	lego_cert_stop(ctx);
	*a = (proof_arg){LEGO_PROVED, LEGO_BY_CERTIFICATE, ""};
	int rc = s ? proof_cert_check(ctx, &cert, 1, &e, &s, &ok, a)
		   : LEGO_ERR;
	size_t steps = cert.n;
	lego_cert_free(&cert);
	if (rc == LEGO_OK && ok) {
		proof_say(a, "%zu steps checked", steps);
		return;
	}
	a->why[0] = 0;
	a->by = LEGO_BY_Z3;
	lego_env *env = lego_env_new(ctx);
	lego_expr *eq = s ? lego_binop(ctx, LEGO_EQ, s, e) : NULL;
	a->status = eq && env ? lego_smt_prove(ctx, eq, ms, env)
			      : LEGO_UNKNOWN;
	if (a->status == LEGO_REFUTED) {
		proof_say(a, "the emitted expression differs");
		proof_say_witness(ctx, eq, env, a);
	} else if (a->status != LEGO_PROVED) {
		proof_say(a, "%s", lego_ctx_error(ctx));
	}
	lego_env_free(env);
}

/* Every condition its references need; a->why says the first that is
 * not proved. */
static void prove_needs(lego_ctx *ctx, const gen_place_seen *p, unsigned ms,
			proof_arg *a)
{
	*a = (proof_arg){LEGO_PROVED, LEGO_BY_Z3, ""};
	for (size_t k = 0; k < p->nneeds && a->status == LEGO_PROVED; k++) {
		lego_env *env = lego_env_new(ctx);
		lego_proof r = env ? lego_smt_prove(ctx, p->needs[k], ms, env)
				   : LEGO_UNKNOWN;
		if (r != LEGO_PROVED) {
			char *c = lego_expr_print(ctx, p->needs[k],
						  LEGO_LANG_PYTHON);
			a->status = r;
			proof_say(a, "%s: %s", c ? c : "?",
				  r == LEGO_REFUTED ? "refuted"
						    : lego_ctx_error(ctx));
			if (r == LEGO_REFUTED)
				proof_say_witness(ctx, p->needs[k], env, a);
			free(c);
		}
		lego_env_free(env);
	}
	if (a->status == LEGO_PROVED)
		proof_say(a, "%zu condition%s", p->nneeds,
			  p->nneeds == 1 ? "" : "s");
}

static void say(run *r, const gen_place_seen *p, const char *what,
		const proof_arg *a, const char *by)
{
	fprintf(r->out, "%s:%d:%d: {{%.*s}}: %s: %s (%s)%s%s\n", r->filename,
		p->line, p->col, (int)p->len, p->text, what,
		status_name(a->status), by, a->why[0] ? ": " : "", a->why);
	r->refuted |= a->status == LEGO_REFUTED;
	r->unknown |= a->status == LEGO_UNKNOWN;
}

static int one(void *user, const gen_place_seen *p)
{
	run *r = user;
	lego_ctx *ctx = r->ctx;
	proof_arg a;
	r->places++;
	prove_simplified(ctx, p->e, r->ms, &a);
	r->simplified += a.status == LEGO_PROVED;
	say(r, p, "simplified == semantics", &a,
	    a.by == LEGO_BY_CERTIFICATE ? "certificate" : "solver");
	if (!p->nneeds)
		return 0;
	r->with_refs++;
	prove_needs(ctx, p, r->ms, &a);
	r->in_range += a.status == LEGO_PROVED;
	say(r, p, "indices in range", &a, "solver");
	return 0;
}

int proof_template(lego_ctx *ctx, const char *filename, const char *text,
		   size_t len, const lego_gen_opts *opts, unsigned ms,
		   FILE *out, lego_proof *verdict)
{
	run r = {ctx, out, filename, ms, 0, 0, 0, 0, 0, 0};
	int rc = gen_template_places(ctx, filename, text, len, opts, one, &r);
	if (rc != LEGO_OK)
		return rc;
	fprintf(out, "%s: %zu placeholder%s: simplified == semantics proved "
		"on %zu, indices in range proved on %zu of the %zu with "
		"layout references\n", filename, r.places,
		r.places == 1 ? "" : "s", r.simplified, r.in_range,
		r.with_refs);
	*verdict = r.refuted ? LEGO_REFUTED
		   : r.unknown ? LEGO_UNKNOWN : LEGO_PROVED;
	return LEGO_OK;
}
