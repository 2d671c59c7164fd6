/* cert.c - the certificate checker: the trusted part of a proof of
 * "simplified == semantics" (docs/proof.md, "The trusted part").
 *
 * It does not search: it replays the steps the simplifier recorded
 * (src/simplify/cert.h), each an equation before == after, accepting a
 * step only when
 *   - rule: its rule is proved for unbounded integers (ruletab.c), its
 *     side condition instantiated with the step's bindings is decided
 *     true from the facts, and before - after is the step's scale times
 *     lhs - rhs of the instantiated schema in the ring normal form;
 *   - ring: before - after is 0 in the ring normal form;
 *   - congruence: after is before's operator on arguments each already
 *     proved equal to before's argument there;
 *   - value: the facts fix before to the constant after.
 * Accepted equations join classes of a union-find; e == s is proved when
 * both lie in one class.  Side conditions and values are decided by the
 * range prover (src/simplify/prove.c), ring forms are lego_poly's: both
 * trusted, and named so in docs/proof.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proof/proof.h"
#include "simplify/cert.h"

enum { MAX_VARS = 16, TEXT = 2048 };

typedef struct checker {
	lego_ctx *ctx;
	lego_expr *var[MAX_VARS];      /* the schemas' variables */
	char name[MAX_VARS][16];
	size_t nvars;
	lego_expr *lhs[R_COUNT], *rhs[R_COUNT], *side[R_COUNT];
	size_t nbind[R_COUNT];
	size_t bindvar[R_COUNT][CERT_MAX_BIND]; /* index into var[] */
	lego_expr **parent, **norm;    /* by node id */
	size_t cap;
} checker;

/* Room in the id-indexed maps for node e. */
static int fit(checker *c, const lego_expr *e)
{
	if (e->id < c->cap)
		return 1;
	size_t cap = c->cap ? c->cap : 1024;
	while (cap <= e->id)
		cap *= 2;
	lego_expr **p = realloc(c->parent, cap * sizeof *p);
	if (p)
		c->parent = p;
	lego_expr **n = p ? realloc(c->norm, cap * sizeof *n) : NULL;
	if (!n)
		return 0;
	c->norm = n;
	memset(p + c->cap, 0, (cap - c->cap) * sizeof *p);
	memset(n + c->cap, 0, (cap - c->cap) * sizeof *n);
	c->cap = cap;
	return 1;
}

static lego_expr *find(checker *c, lego_expr *e)
{
	while (fit(c, e) && c->parent[e->id])
		e = c->parent[e->id];
	return e;
}

static void join(checker *c, lego_expr *a, lego_expr *b)
{
	a = find(c, a);
	b = find(c, b);
	if (a != b && fit(c, a))
		c->parent[a->id] = b;
}

static size_t var_index(checker *c, const char *v)
{
	for (size_t i = 0; i < c->nvars; i++)
		if (!strcmp(c->name[i], v))
			return i;
	if (c->nvars == MAX_VARS)
		return SIZE_MAX;
	snprintf(c->name[c->nvars], sizeof c->name[0], "%s", v);
	return c->nvars++;
}

/* The schemas parsed over variables of their own (cert__v), which the
 * steps' bindings replace. */
static int load_rules(checker *c)
{
	char text[TEXT], list[256];
	size_t len = 0;
	for (size_t r = 0; r < R_COUNT; r++) {
		snprintf(list, sizeof list, "%s", lego_rule_at(r)->vars);
		for (char *v = strtok(list, ", "); v; v = strtok(NULL, ", ")) {
			size_t i = var_index(c, v);
			if (i == SIZE_MAX || c->nbind[r] == CERT_MAX_BIND)
				return lego_fail(c->ctx, LEGO_ERR, "certificate "
						 "checker: rule %s has too "
						 "many variables",
						 lego_rule_at(r)->name);
			c->bindvar[r][c->nbind[r]++] = i;
		}
	}
	for (size_t i = 0; i < c->nvars && len < sizeof text; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
					"sym cert__%s\nlet %s = cert__%s\n",
					c->name[i], c->name[i], c->name[i]);
	lego_spec *spec = len < sizeof text
				  ? lego_spec_parse(c->ctx, "rule schemas", text,
						    len, NULL, 0)
				  : NULL;
	if (!spec)
		return LEGO_ERR;
	for (size_t i = 0; i < c->nvars; i++)
		if (!(c->var[i] = lego_spec_let(spec, c->name[i])))
			return LEGO_ERR;
	for (size_t r = 0; r < R_COUNT; r++) {
		const lego_rule *rule = lego_rule_at(r);
		c->lhs[r] = lego_spec_parse_expr(spec, rule->lhs, NULL);
		c->rhs[r] = lego_spec_parse_expr(spec, rule->rhs, NULL);
		c->side[r] = lego_spec_parse_expr(spec, rule->side, NULL);
		if (!c->lhs[r] || !c->rhs[r] || !c->side[r])
			return LEGO_ERR;
	}
	return LEGO_OK;
}

/* The schema's expression e of rule r with the step's bindings. */
static lego_expr *instance(checker *c, const cert_step *s, lego_expr *e)
{
	lego_expr *from[CERT_MAX_BIND], *to[CERT_MAX_BIND];
	size_t n = c->nbind[s->rule];
	for (size_t i = 0; i < n; i++) {
		from[i] = c->var[c->bindvar[s->rule][i]];
		if (!(to[i] = s->bind[i]))
			return NULL;
	}
	return lego_expr_subst(c->ctx, e, n, from, to);
}

/* x >> k and (2^k - 1) & x as x / 2^k and x % 2^k, by the proved rules
 * shr-as-div and and-as-mod, so that forms the simplifier treats as one
 * meet in the ring normal form. */
static lego_expr *bit_form(checker *c, lego_expr *e)
{
	int64_t v;
	if (e->kind == LEGO_SHR && rule_proved_by(R_SHR_AS_DIV) &&
	    lego_expr_is_const(e->args[1], &v) && v >= 0 && v <= 62)
		return lego_div(c->ctx, e->args[0],
				lego_const(c->ctx, (int64_t)1 << v));
	if (e->kind == LEGO_BAND && e->nargs == 2 &&
	    rule_proved_by(R_AND_AS_MOD) &&
	    lego_expr_is_const(e->args[0], &v) && v > 0 && v < INT64_MAX &&
	    !((v + 1) & v))
		return lego_mod(c->ctx, e->args[1], lego_const(c->ctx, v + 1));
	return e;
}

/* The ring normal form of every node of e, bottom-up. */
static lego_expr *norm(checker *c, lego_expr *e)
{
	if (!e || !fit(c, e))
		return NULL;
	if (c->norm[e->id])
		return c->norm[e->id];
	lego_expr *small[8], **args = small, *r = e;
	if (e->nargs > 8 && !(args = malloc(e->nargs * sizeof *args)))
		return NULL;
	for (uint32_t i = 0; r && i < e->nargs; i++)
		r = args[i] = norm(c, e->args[i]);
	if (r && e->nargs)
		r = lego_expr_build(c->ctx, e->kind, e->nargs, args);
	if (args != small)
		free(args);
	r = r ? bit_form(c, r) : NULL;
	lego_expr *p = r ? lego_poly(c->ctx, r) : NULL;
	r = p ? p : r;
	if (r && fit(c, e))
		c->norm[e->id] = r;
	return r;
}

/* Is e == 0 in the ring normal form? */
static int ring_zero(checker *c, lego_expr *e)
{
	int64_t v;
	lego_expr *n = norm(c, e);
	return n && lego_expr_is_const(n, &v) && v == 0;
}

/* Does the condition hold by the facts?  A conjunction atom by atom; a
 * comparison with 0 of a 0/1 condition by deciding the condition. */
static int holds(checker *c, lego_expr *e)
{
	int64_t v;
	if (lego_expr_is_const(e, &v))
		return v != 0;
	if (e->kind == LEGO_AND)
		return holds(c, e->args[0]) && holds(c, e->args[1]);
	if (lego_decide(c->ctx, e) == 1)
		return 1;
	int zero = e->nargs == 2 && lego_expr_is_const(e->args[1], &v) &&
		   v == 0;
	if (zero && e->kind == LEGO_NE)
		return lego_decide(c->ctx, e->args[0]) == 1;
	if (zero && e->kind == LEGO_EQ)
		return lego_decide(c->ctx, e->args[0]) == 0;
	return 0;
}

static int is_condition(const lego_expr *e)
{
	switch (e->kind) {
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
	case LEGO_AND: case LEGO_OR: case LEGO_NOT:
		return 1;
	default:
		return 0;
	}
}

/* Why step s is refused, or NULL when it is accepted. */
static const char *refusal(checker *c, const cert_step *s)
{
	lego_ctx *ctx = c->ctx;
	int64_t v;
	switch (s->kind) {
	case CERT_RULE: {
		if (!rule_proved_by(s->rule))
			return "its rule is not proved";
		lego_expr *side = instance(c, s, c->side[s->rule]);
		lego_expr *l = instance(c, s, c->lhs[s->rule]);
		lego_expr *r = instance(c, s, c->rhs[s->rule]);
		if (!side || !l || !r)
			return "its schema could not be instantiated";
		if (!holds(c, side))
			return "its side condition is not proved";
		lego_expr *d = lego_sub(ctx, lego_sub(ctx, s->before, s->after),
					lego_mul(ctx, s->scale,
						 lego_sub(ctx, l, r)));
		return d && ring_zero(c, d) ? NULL
		       : "it is not an instance of its rule's schema";
	}
	case CERT_RING:
		return ring_zero(c, lego_sub(ctx, s->before, s->after))
			       ? NULL
			       : "its two sides differ in the ring normal form";
	case CERT_VALUE:
		if (!lego_expr_is_const(s->after, &v))
			return "its value is not a constant";
		if (is_condition(s->before))
			return lego_decide(ctx, s->before) == (v != 0) && v >= 0 &&
					       v <= 1
				       ? NULL
				       : "the condition is not decided so";
		return lego_prove_le(ctx, s->after, s->before) &&
			       lego_prove_le(ctx, s->before, s->after)
		       ? NULL
		       : "the facts do not fix its value";
	case CERT_CONG:
		return NULL; /* checked in rounds, see congruences() */
	}
	return "unknown step";
}

/* A congruence step whose arguments are proved equal by now. */
static int congruent(checker *c, const lego_cert *cert, const cert_step *s)
{
	lego_expr *const *args = cert->args + s->first;
	lego_expr_kind k = s->before->kind;
	/* rebuilt canonically, or exactly as given */
	if (s->nargs != s->before->nargs ||
	    (lego_expr_build(c->ctx, k, s->nargs, args) != s->after &&
	     lego_expr_make(c->ctx, k, s->nargs, args, s->before->value) !=
		     s->after))
		return 0;
	for (size_t i = 0; i < s->nargs; i++)
		if (find(c, s->before->args[i]) != find(c, args[i]))
			return 0;
	return 1;
}

/* Congruences in rounds until none is added: each may need the others'
 * arguments first. */
static void congruences(checker *c, const lego_cert *cert, char *done)
{
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < cert->n; i++) {
			const cert_step *s = &cert->steps[i];
			if (done[i] || s->kind != CERT_CONG ||
			    !congruent(c, cert, s))
				continue;
			join(c, s->before, s->after);
			done[i] = more = 1;
		}
	}
}

/* The first refused step: which rule, where, why; for a refuted rule,
 * its counterexample evaluated on both sides. */
static void say_refused(checker *c, const cert_step *s, const char *why,
			proof_arg *a)
{
	char buf[160] = "";
	if (s->kind == CERT_RULE && !rule_proved_by(s->rule)) {
		lego_argument by;
		lego_proof p = lego_rule_prove(lego_rule_at(s->rule), 1000,
					       &by, buf, sizeof buf);
		why = p == LEGO_REFUTED ? "its rule is refuted" : why;
	}
	char *at = lego_expr_print(c->ctx, s->before, LEGO_LANG_C);
	proof_say(a, "certificate: step %s%s at %.60s refused: %s%s%s",
		  s->kind == CERT_RULE ? "of rule " : "",
		  s->kind == CERT_RULE ? lego_rule_at(s->rule)->name
		  : s->kind == CERT_RING ? "ring" : "value",
		  at ? at : "?", why, buf[0] ? ": " : "", buf);
	free(at);
}

int proof_cert_check(lego_ctx *ctx, const struct lego_cert *cert, size_t n,
		     lego_expr *const *from, lego_expr *const *to, int *ok,
		     proof_arg *a)
{
	checker c = {.ctx = ctx};
	int rc = load_rules(&c);
	char *done = rc ? NULL : calloc(cert->n + 1, 1);
	const cert_step *first_bad = NULL;
	const char *first_why = NULL;
	if (!rc && !done)
		rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < cert->n; i++) {
		const cert_step *s = &cert->steps[i];
		const char *why = s->kind == CERT_CONG ? "" : refusal(&c, s);
		if (why && !why[0])
			continue;
		if (!why) {
			join(&c, s->before, s->after);
			done[i] = 1;
		} else if (!first_bad) {
			first_bad = s;
			first_why = why;
		}
	}
	if (!rc)
		congruences(&c, cert, done);
	size_t proved = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		ok[i] = !cert->lost && find(&c, from[i]) == find(&c, to[i]);
		proved += ok[i];
	}
	if (!rc && proved < n && first_bad)
		say_refused(&c, first_bad, first_why, a);
	else if (!rc && proved < n)
		proof_say(a, "certificate: %s", cert->lost
			  ? "steps were lost (out of memory)"
			  : "the steps do not reach the simplified form");
	free(done);
	free(c.parent);
	free(c.norm);
	return rc;
}
