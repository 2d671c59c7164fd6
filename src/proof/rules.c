/* rules.c - a rewrite rule's schema proved once, in a ctx of its own so
 * that no assumption of the caller's can help: by Z3 over unbounded
 * integers (each variable v is v_p - v_n for two positive symbols: every
 * integer is such a difference), else, where Z3 cannot decide it in time
 * (nonlinear division, bit operations), checked at every point of a box
 * [-B, B]^n of about 2^18 points: a bounded check, not a proof, and
 * reported as such. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "proof/proof.h"
#include "smt/smt.h"

enum { MAX_VARS = 8, TEXT = 1024, BOX_POINTS = 1 << 18 };

/* The spec declaring the rule's variables; their names in names[]. */
/* The variables' names, and their number. */
static size_t var_names(const lego_rule *r, char names[MAX_VARS][32])
{
	char list[TEXT];
	size_t n = 0;
	snprintf(list, sizeof list, "%s", r->vars);
	for (char *v = strtok(list, ", "); v && n < MAX_VARS;
	     v = strtok(NULL, ", "))
		snprintf(names[n++], sizeof names[0], "%s", v);
	return n;
}

/* Does the side condition state 1 <= v as one of its conjuncts?  Then v
 * is declared a positive symbol: the schema says nothing of v < 1, and Z3
 * meets d * q rather than (d_p - d_n) * (q_p - q_n). */
static int positive_by_side(const lego_rule *r, const char *v)
{
	char want[48];
	snprintf(want, sizeof want, "1 <= %s", v);
	for (const char *at = strstr(r->side, want); at;
	     at = strstr(at + 1, want)) {
		char next = at[strlen(want)];
		if ((at == r->side || at[-1] == ' ' || at[-1] == '(') &&
		    (next == 0 || next == ' ' || next == ')'))
			return 1;
	}
	return 0;
}

/* The spec declaring the rule's variables: unbounded (box 0), or index
 * variables of [-box, box] (v_i; v_p - v_n keeps one name for both). */
static lego_spec *declare(lego_ctx *ctx, const lego_rule *r,
			  char names[MAX_VARS][32], size_t n, int64_t box)
{
	char text[TEXT];
	size_t len = 0;
	for (size_t i = 0; i < n && len < sizeof text; i++) {
		const char *v = names[i];
		if (box)
			len += (size_t)snprintf(
				text + len, sizeof text - len,
				"index %s_i in [%lld, %lld)\nlet %s = %s_i\n", v,
				(long long)-box, (long long)box + 1, v, v);
		else if (positive_by_side(r, v))
			len += (size_t)snprintf(text + len, sizeof text - len,
						"sym %s_p\nlet %s = %s_p\n", v,
						v, v);
		else
			len += (size_t)snprintf(
				text + len, sizeof text - len,
				"sym %s_p, %s_n\nlet %s = %s_p - %s_n\n", v, v,
				v, v, v);
	}
	if (len >= sizeof text)
		return NULL;
	return lego_spec_parse(ctx, r->name, text, len, NULL, 0);
}

/* The largest B with (2B + 1)^n <= BOX_POINTS. */
static int64_t box_for(size_t n)
{
	int64_t b = 1;
	for (;;) {
		int64_t side = 2 * (b + 1) + 1, pts = 1;
		for (size_t i = 0; i < n && pts <= BOX_POINTS; i++)
			pts *= side;
		if (pts > BOX_POINTS)
			return b;
		b++;
	}
}

/* "x=2 d=2: lhs 0, rhs 2" at the counterexample env. */
static void describe(lego_ctx *ctx, lego_spec *spec, const lego_rule *r,
		     lego_env *env,
		     char names[MAX_VARS][32], size_t n, char *out,
		     size_t size)
{
	size_t len = 0;
	int64_t v, l, rv;
	for (size_t i = 0; i < n && len < size; i++)
		if (lego_expr_eval(ctx, lego_spec_let(spec, names[i]), env,
				   &v) == LEGO_OK)
			len += (size_t)snprintf(out + len, size - len, "%s%s=%lld",
						i ? " " : "", names[i],
						(long long)v);
	lego_expr *lhs = lego_spec_parse_expr(spec, r->lhs, NULL);
	lego_expr *rhs = lego_spec_parse_expr(spec, r->rhs, NULL);
	if (len < size && lhs && rhs &&
	    lego_expr_eval(ctx, lhs, env, &l) == LEGO_OK &&
	    lego_expr_eval(ctx, rhs, env, &rv) == LEGO_OK)
		snprintf(out + len, size - len, ": lhs %lld, rhs %lld",
			 (long long)l, (long long)rv);
}

/* text with each identifier named in names[0..n) replaced by (arg). */
static int substitute(const char *text, char names[MAX_VARS][32],
		      char args[MAX_VARS][TEXT / 4], size_t n, char *out,
		      size_t size)
{
	size_t len = 0;
	while (*text && len < size) {
		size_t id = 0;
		while (isalnum((unsigned char)text[id]) || text[id] == '_')
			id++;
		if (!id || isdigit((unsigned char)*text)) {
			out[len++] = *text++;
			continue;
		}
		size_t i = 0;
		while (i < n && (strlen(names[i]) != id ||
				 strncmp(names[i], text, id)))
			i++;
		len += (size_t)(i < n ? snprintf(out + len, size - len, "(%s)",
						 args[i])
				      : snprintf(out + len, size - len, "%.*s",
						 (int)id, text));
		text += id;
	}
	if (len >= size)
		return 0;
	out[len] = 0;
	return 1;
}

static const lego_rule *rule_named(const char *name, size_t len)
{
	for (size_t i = 0; i < lego_rule_count(); i++)
		if (strlen(lego_rule_at(i)->name) == len &&
		    !strncmp(lego_rule_at(i)->name, name, len))
			return lego_rule_at(i);
	return NULL;
}

/* One lemma `rule(arg, ..)` at *at as the condition "side implies lhs
 * == rhs" of that rule's schema instantiated; *at moves past it.  0
 * when it is malformed. */
static int lemma(const char **at, char *out, size_t size)
{
	char names[MAX_VARS][32], args[MAX_VARS][TEXT / 4], body[TEXT];
	const char *s = *at + strspn(*at, " ;"), *open = strchr(s, '(');
	const lego_rule *r = open ? rule_named(s, (size_t)(open - s)) : NULL;
	size_t n = r ? var_names(r, names) : 0, k = 0;
	int depth = 0;
	const char *from = open + 1, *p = from;
	for (; r && *p && depth >= 0 && k < MAX_VARS; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if ((*p == ',' && !depth) || depth < 0) {
			snprintf(args[k++], sizeof args[0], "%.*s",
				 (int)(p - from), from);
			from = p + 1;
		}
	}
	if (!r || k != n || depth >= 0)
		return 0;
	*at = p;
	snprintf(body, sizeof body, "!(%s) || (%s) == (%s)", r->side, r->lhs,
		 r->rhs);
	return substitute(body, names, args, n, out, size);
}

/* The query: side and the lemmas imply lhs == rhs. */
static int query(const lego_rule *r, char *out, size_t size)
{
	size_t len = (size_t)snprintf(out, size, "!(%s)", r->side);
	char one[TEXT];
	for (const char *at = r->lemmas; at && *(at + strspn(at, " ;"));) {
		if (!lemma(&at, one, sizeof one))
			return 0;
		len += (size_t)snprintf(out + len, size > len ? size - len : 0,
					" || !(%s)", one);
	}
	len += (size_t)snprintf(out + len, size > len ? size - len : 0,
				" || (%s) == (%s)", r->lhs, r->rhs);
	return len < size;
}

/* One attempt: unbounded (box 0) or over the box. */
static lego_proof attempt(const lego_rule *r, unsigned timeout_ms,
			  int64_t box, char *detail, size_t size)
{
	char names[MAX_VARS][32], cond[TEXT];
	size_t n = var_names(r, names);
	lego_ctx *ctx = lego_ctx_new();
	lego_env *env = ctx ? lego_env_new(ctx) : NULL;
	lego_spec *spec = env ? declare(ctx, r, names, n, box) : NULL;
	lego_proof p = LEGO_UNKNOWN;
	lego_expr *e = spec && query(r, cond, sizeof cond)
			       ? lego_spec_parse_expr(spec, cond, NULL)
			       : NULL;
	if (e)
		p = lego_smt_prove(ctx, e, timeout_ms, env);
	if (p == LEGO_REFUTED)
		describe(ctx, spec, r, env, names, n, detail, size);
	else if (p == LEGO_UNKNOWN && ctx)
		snprintf(detail, size, "%s", lego_ctx_error(ctx));
	lego_env_free(env);
	lego_ctx_free(ctx);
	return p;
}

/* Does the rule rewrite a bit operation (& | ^ << >>)? */
static int has_bits(const lego_rule *r)
{
	const char *side[2] = {r->lhs, r->rhs};
	for (int i = 0; i < 2; i++)
		if (strpbrk(side[i], "|^") || strstr(side[i], "<<") ||
		    strstr(side[i], ">>") ||
		    (strchr(side[i], '&') && !strstr(side[i], "&&")))
			return 1;
	return 0;
}

/* Does the side condition bound the shift amount k to 0..62?  Asked
 * of Z3 (a question of order only): then the cases k = 0..62, taken one
 * by one, cover the rule. */
static int shift_bounded(lego_ctx *ctx, lego_spec *spec, const lego_rule *r,
			 lego_expr **free, size_t n, unsigned timeout_ms)
{
	char text[TEXT];
	snprintf(text, sizeof text, "!(%s) || (0 <= k && k <= 62)", r->side);
	lego_expr *c = lego_spec_parse_expr(spec, text, NULL);
	return c && smt_prove_bv64(ctx, c, free, n, NULL, timeout_ms, 0) ==
			    LEGO_PROVED;
}

/* A rule of bit operations over 64-bit bit-vectors: every variable any
 * 64-bit value, every operation as the emitted 64-bit code computes it
 * (the bit operations are defined on 64-bit two's complement anyway).
 * A rule with lemmas has its divisions opaque: the lemmas (div-as-shr)
 * say what they are in bit operations, which Z3 decides at once, where
 * dividing by definition takes it a minute. */
static lego_proof attempt_bv64(const lego_rule *r, unsigned timeout_ms,
			       char *detail, size_t size)
{
	char names[MAX_VARS][32], text[TEXT], cond[TEXT];
	size_t n = var_names(r, names), len = 0;
	lego_expr *free[MAX_VARS];
	lego_ctx *ctx = lego_ctx_new();
	lego_proof p = LEGO_UNKNOWN;
	for (size_t i = 0; i < n && len < sizeof text; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
					"sym %s_b\nlet %s = %s_b\n", names[i],
					names[i], names[i]);
	lego_spec *spec = ctx && len < sizeof text
				  ? lego_spec_parse(ctx, r->name, text, len,
						    NULL, 0)
				  : NULL;
	int ok = spec && query(r, cond, sizeof cond);
	for (size_t i = 0; ok && i < n; i++)
		ok = (free[i] = lego_spec_let(spec, names[i])) != NULL;
	lego_expr *e = ok ? lego_spec_parse_expr(spec, cond, NULL) : NULL;
	int opaque = r->lemmas && *r->lemmas;
	lego_expr *k = NULL;
	for (size_t i = 0; e && i < n; i++)
		if (!strcmp(names[i], "k"))
			k = free[i];
	if (k && !shift_bounded(ctx, spec, r, free, n, timeout_ms))
		k = NULL;
	if (e)
		p = smt_prove_bv64(ctx, e, free, n, k, timeout_ms, opaque);
	if (p == LEGO_PROVED)
		snprintf(detail, size, "over 64-bit two's complement "
			 "(bit-vectors%s%s)",
			 k ? ", each k of 0..62" : "",
			 opaque ? ", divisions through the lemmas" : "");
	else if (p == LEGO_REFUTED)
		snprintf(detail, size, "refuted over 64-bit bit-vectors");
	lego_ctx_free(ctx);
	return p;
}

lego_proof lego_rule_prove(const lego_rule *r, unsigned timeout_ms,
			   lego_argument *by, char *detail, size_t size)
{
	char names[MAX_VARS][32];
	if (!r || !by || !detail || !size)
		return LEGO_UNKNOWN;
	detail[0] = 0;
	*by = LEGO_BY_Z3;
	/* The integers first, unless the table says the rule is proved over
	 * bit-vectors (Z3 would spend the budget undecided). */
	const char *claim = lego_rule_proved_by(r);
	int bits = has_bits(r), bv_first = bits && claim && strstr(claim,
								   "64-bit");
	lego_proof p = bv_first ? attempt_bv64(r, timeout_ms, detail, size)
				: attempt(r, timeout_ms, 0, detail, size);
	if (p == LEGO_UNKNOWN && bits)
		p = bv_first ? attempt(r, timeout_ms, 0, detail, size)
			     : attempt_bv64(r, timeout_ms, detail, size);
	if (p != LEGO_UNKNOWN)
		return p;
	int64_t box = box_for(var_names(r, names));
	*by = LEGO_BY_EXHAUSTIVE;
	p = attempt(r, timeout_ms, box, detail, size);
	if (p == LEGO_PROVED)
		snprintf(detail, size, "every point of [%lld, %lld]^%zu "
			 "(z3 undecided)", (long long)-box, (long long)box,
			 var_names(r, names));
	return p;
}
