/* ruletab.c - the table of rewrite rules: name and schema of each, in the
 * language's syntax (docs/language.md; / and % floor).  A schema says:
 * for all integers `vars`, side implies lhs == rhs wherever both sides
 * are defined.  2^k is written 1 << k with 0 <= k <= 62 in the side. */
#include <string.h>

#include "simplify/cert.h"

#define POW2 "0 <= k && k <= 62"

static const lego_rule table[R_COUNT] = {
	[R_DIV_IN_RANGE] = {"div-in-range", "x, d",
			    "1 <= d && 0 <= x && x < d", "x / d", "0"},
	[R_DIV_DIV] = {"div-div", "y, a, d", "1 <= a && 1 <= d",
		       "(y / a) / d", "y / (a * d)"},
	[R_DIV_OF_MOD] = {"div-of-mod", "y, d, b", "1 <= d && 1 <= b",
			  "(y % (d * b)) / d", "(y / d) % b",
			  "div-split(-(b * (y / (d * b))), y, d); "
			  "div-div(y, d, b)"},
	[R_DIV_SPLIT] = {"div-split", "q, r, d", "1 <= d",
			 "(d * q + r) / d", "q + r / d"},
	[R_DIV_FACTOR] = {"div-factor", "q, r, d1, d2",
			  "1 <= d1 && 1 <= d2 && 0 <= r && r < d1",
			  "(d1 * q + r) / (d1 * d2)", "q / d2"},
	[R_DIV_LOW_XOR] = {"div-low-xor", "a, b, k",
			   POW2 " && 0 <= b && b < (1 << k)",
			   "(a ^ b) / (1 << k)", "a / (1 << k)",
			   "div-as-shr(a ^ b, k); div-as-shr(a, k)"},
	[R_DIV_LOW_OR] = {"div-low-or", "a, b, k",
			  POW2 " && 0 <= b && b < (1 << k)",
			  "(a | b) / (1 << k)", "a / (1 << k)",
			  "div-as-shr(a | b, k); div-as-shr(a, k)"},
	[R_DIV_AS_SHR] = {"div-as-shr", "x, k", POW2, "x / (1 << k)",
			  "x >> k"},
	[R_MOD_IN_RANGE] = {"mod-in-range", "x, d",
			    "1 <= d && 0 <= x && x < d", "x % d", "x"},
	[R_MOD_OF_MOD] = {"mod-of-mod", "y, d, b", "1 <= d && b != 0",
			  "(y % (d * b)) % d", "y % d",
			  "sum-recombine-div(y, d * b); "
			  "mod-split(-(b * (y / (d * b))), y, d)"},
	[R_MOD_SPLIT] = {"mod-split", "q, r, d", "1 <= d",
			 "(d * q + r) % d", "r % d"},
	[R_MOD_AS_AND] = {"mod-as-and", "x, k", POW2, "x % (1 << k)",
			  "((1 << k) - 1) & x"},
	[R_SUM_RECOMBINE_DIV] = {"sum-recombine-div", "x, a", "a != 0",
				 "x % a + a * (x / a)", "x"},
	[R_SUM_RECOMBINE_MOD] = {"sum-recombine-mod", "x, a, b",
				 "1 <= a && 1 <= b",
				 "x % a + a * ((x / a) % b)", "x % (a * b)",
				 "div-div(x, a, b)"},
	[R_MIN_LE] = {"min-le", "a, b", "a <= b", "min(a, b)", "a"},
	[R_MAX_LE] = {"max-le", "a, b", "a <= b", "max(a, b)", "b"},
	[R_MIN_GE] = {"min-ge", "a, b", "b <= a", "min(a, b)", "b"},
	[R_MAX_GE] = {"max-ge", "a, b", "b <= a", "max(a, b)", "a"},
	[R_SHR_AS_DIV] = {"shr-as-div", "x, k", POW2, "x >> k",
			  "x / (1 << k)"},
	[R_SHL_AS_MUL] = {"shl-as-mul", "x, k", POW2, "x << k",
			  "x * (1 << k)"},
	[R_SHL_FIELD_LEFT] = {"shl-field-left", "y, m, k, s",
			      POW2 " && k <= s && s <= 62 && 0 <= m && "
			      "m <= (9223372036854775807 >> k)",
			      "((y >> k) & m) << s",
			      "(y & (m << k)) << (s - k)"},
	[R_SHL_FIELD_RIGHT] = {"shl-field-right", "y, m, k, s",
			       POW2 " && 0 <= s && s < k && 0 <= m && "
			      "m <= (9223372036854775807 >> k)",
			       "((y >> k) & m) << s",
			       "(y & (m << k)) >> (k - s)"},
	[R_AND_AS_MOD] = {"and-as-mod", "x, k", POW2, "((1 << k) - 1) & x",
			  "x % (1 << k)"},
	[R_AND_COVERS] = {"and-covers", "x, m, k",
			  POW2 " && 0 <= x && x < (1 << k) && "
			  "(m & ((1 << k) - 1)) == (1 << k) - 1",
			  "m & x", "x"},
	[R_AND_HIGH] = {"and-high", "m, q, s, k",
			POW2 " && 1 <= m && m % (1 << k) == 0 && 0 <= s && "
			"s < (1 << k)",
			"m & ((1 << k) * q + s)",
			"(1 << k) * ((m / (1 << k)) & q)"},
	[R_SELECT_TRUE] = {"select-true", "c, a, b", "c != 0",
			   "select(c, a, b)", "a"},
	[R_SELECT_FALSE] = {"select-false", "c, a, b", "c == 0",
			    "select(c, a, b)", "b"},
	[R_SUM_SHARE] = {"sum-share", "r, c, x, y", "1 == 1",
			 "r + c * x + c * y", "r + c * (x + y)"},
	/* Wrong on purpose (x = d is a counterexample): it checks that a
	 * wrong rule is caught by its proof and by translation validation. */
	[R_PLANTED_WRONG] = {"planted-wrong", "x, d", "1 <= d && 0 <= x",
			     "x % d", "x"},
};

/* How each rule is proved for unbounded integers: checked by
 * tests/unit/test_proof.c (proof.rules_proved_planted_refuted), which
 * fails make check when a rule marked here is not proved so.  NULL: not
 * proved (only the planted rule today), and the certificate checker
 * refuses the rule's steps.  "64-bit": proved over 64-bit two's
 * complement bit-vectors, the rules of bit operations (defined on 64-bit
 * values), each shift amount k of 0..62 a case of its own. */
static const char *const proved_by[R_COUNT] = {
	[R_DIV_IN_RANGE] = "z3",
	[R_DIV_DIV] = "z3",
	[R_DIV_OF_MOD] = "z3, with lemmas",
	[R_DIV_SPLIT] = "z3",
	[R_DIV_FACTOR] = "z3",
	[R_DIV_AS_SHR] = "z3",
	[R_MOD_IN_RANGE] = "z3",
	[R_MOD_OF_MOD] = "z3, with lemmas",
	[R_MOD_SPLIT] = "z3",
	[R_SUM_RECOMBINE_DIV] = "z3",
	[R_SUM_RECOMBINE_MOD] = "z3, with lemmas",
	[R_MIN_LE] = "z3",
	[R_MAX_LE] = "z3",
	[R_MIN_GE] = "z3",
	[R_MAX_GE] = "z3",
	[R_SHR_AS_DIV] = "z3",
	[R_SHL_AS_MUL] = "z3",
	[R_MOD_AS_AND] = "z3, 64-bit",
	[R_AND_AS_MOD] = "z3, 64-bit",
	[R_AND_COVERS] = "z3, 64-bit",
	[R_AND_HIGH] = "z3, 64-bit",
	[R_DIV_LOW_XOR] = "z3, 64-bit, with lemmas",
	[R_DIV_LOW_OR] = "z3, 64-bit, with lemmas",
	[R_SHL_FIELD_LEFT] = "z3, 64-bit",
	[R_SHL_FIELD_RIGHT] = "z3, 64-bit",
	[R_SELECT_TRUE] = "z3",
	[R_SELECT_FALSE] = "z3",
	[R_SUM_SHARE] = "z3",
};

const char *rule_proved_by(rule_id r)
{
	return r < R_COUNT ? proved_by[r] : NULL;
}

const char *lego_rule_proved_by(const lego_rule *r)
{
	return r && r >= table && r < table + R_COUNT
		       ? proved_by[r - table] : NULL;
}

size_t lego_rule_count(void)
{
	return R_COUNT;
}

const lego_rule *lego_rule_at(size_t i)
{
	return i < R_COUNT ? &table[i] : NULL;
}

uint64_t rule_default_off(void)
{
	return (uint64_t)1 << R_PLANTED_WRONG;
}

int rule_on(lego_ctx *ctx, rule_id r)
{
	return !((ctx->facts->rules_off >> r) & 1);
}

int lego_rule_switch(lego_ctx *ctx, const char *name, int on)
{
	if (!ctx || !name)
		return lego_fail(ctx, LEGO_ERR, "lego_rule_switch: an argument "
				 "is NULL");
	for (size_t i = 0; i < R_COUNT; i++) {
		if (strcmp(table[i].name, name))
			continue;
		uint64_t bit = (uint64_t)1 << i;
		ctx->facts->rules_off = on ? ctx->facts->rules_off & ~bit
					   : ctx->facts->rules_off | bit;
		lego_facts_invalidate(ctx); /* cached results used it */
		return LEGO_OK;
	}
	return lego_fail(ctx, LEGO_ERR, "no rewrite rule named '%s'", name);
}
