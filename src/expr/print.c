/* print.c - C-like and Python-like text of expressions (the dialects of
 * print.h), with minimal parentheses.
 *
 * Generated C must provide lego_isqrt (lego_dialect_helpers) when an
 * expression uses LEGO_ISQRT; generated Python must `import math`.  C `>>`
 * of a negative value is taken to be arithmetic (it is on every compiler
 * we target).  Python comparisons yield bools, which are equal to 0 and 1
 * in arithmetic.
 */
#include <stdlib.h>

#include "expr/print.h"

/* Syntactic classes, from binding tightest to loosest. */
enum cls {
	ATOM, UNARY, NOT, MUL, ADD, SHIFT, REL, EQ, BAND, BXOR, BOR, AND, OR,
	COND
};

static int prec(const lego_printer *p, enum cls c)
{
	static const int c_prec[] = {100, 90, 90, 80, 70, 60, 50,
				     45,  40, 35, 30, 20, 15, 10};
	/* Python: comparisons below the bitwise operators, `not` below
	 * them. */
	static const int py_prec[] = {100, 90, 22, 80, 70, 60, 25,
				      25,  40, 35, 30, 20, 15, 10};
	return p->d->c_syntax ? c_prec[c] : py_prec[c];
}

/* Facts needed to print C's `/`, `%` and `<<` as they are, from the
 * simplifier's prover (which knows symbol bounds and assumptions). */
static int nonneg(const lego_printer *p, const lego_expr *e)
{
	/* A truth value is 0 or 1 (and `bool < 0` is a compiler warning). */
	return lego_expr_is_bool(e) || lego_prove_nonneg(p->ctx, (lego_expr *)e);
}

static int positive(const lego_printer *p, const lego_expr *e)
{
	return lego_prove_lt(p->ctx, lego_const(p->ctx, 0), (lego_expr *)e);
}

static int print_body(lego_printer *p, const lego_expr *e);

void lego_print_node(lego_printer *p, const lego_expr *e, int need)
{
	size_t start = p->out->len;
	if (print_body(p, e) < need)
		lego_sbuf_wrap(p->out, start);
}

/* C compilers warn on `!x & y` and `!x == y`: parenthesise a negation
 * that is an operand of a binary operator. */
static int operand_need(const lego_printer *p, const lego_expr *e, int need)
{
	return p->d->c_syntax && e->kind == LEGO_NOT ? prec(p, ATOM)
							     : need;
}

/* e printed on its own, for C forms that repeat an operand (and compare
 * it). */
static char *print_sub(lego_printer *p, const lego_expr *e, int need)
{
	lego_sbuf b = {0};
	lego_printer sub = *p;
	sub.out = &b;
	lego_print_node(&sub, e, operand_need(p, e, need));
	char *s = lego_sbuf_take(&b);
	if (!s)
		p->out->oom = 1;
	return s;
}

static int print_const(lego_printer *p, int64_t v)
{
	if (v == INT64_MIN && p->d->c_syntax) {
		lego_sbuf_printf(p->out, "(-9223372036854775807%s - 1)",
				 p->d->ll);
		return prec(p, ATOM);
	}
	lego_sbuf_printf(p->out, "%lld", (long long)v);
	return prec(p, v < 0 ? UNARY : ATOM);
}

/* Widened printing: the first operand of a product or shift cast to the
 * 64-bit type, so that C computes the whole product in it (a temporary
 * defined in that type needs no cast). */
static void print_widened(lego_printer *p, const lego_expr *e, int need)
{
	int wide_temp = p->uses && e != p->self &&
			lego_expr_is_temp(p->uses, e) &&
			lego_expr_temp_is_wide(p->uses, e);
	if (p->widen && !wide_temp) {
		lego_sbuf_printf(p->out, "(%s)", p->d->int_type);
		need = prec(p, UNARY) + 1;
	}
	lego_print_node(p, e, need);
}

/* coef * f[0] * ... * f[nf-1]; -1 prints as a negation. */
static int print_product(lego_printer *p, int64_t coef,
			 lego_expr *const *f, uint32_t nf)
{
	if (coef == 1 && nf == 1)
		return print_body(p, f[0]);
	uint32_t i = 0;
	if (coef == -1) {
		lego_sbuf_puts(p->out, "-");
		print_widened(p, f[i++], prec(p, UNARY) + 1);
	} else if (coef != 1 && p->widen && coef != INT64_MIN) {
		lego_sbuf_printf(p->out, "%lld%s", (long long)coef, p->d->ll);
	} else if (coef != 1) {
		print_const(p, coef);
	} else {
		print_widened(p, f[i++], prec(p, MUL));
	}
	for (; i < nf; i++) {
		lego_sbuf_puts(p->out, " * ");
		lego_print_node(p, f[i], prec(p, MUL) + 1);
	}
	return coef == -1 && nf == 1 ? prec(p, UNARY) : prec(p, MUL);
}

static int print_mul(lego_printer *p, const lego_expr *e)
{
	if (e->args[0]->kind == LEGO_CONST)
		return print_product(p, e->args[0]->value, e->args + 1,
				     e->nargs - 1);
	return print_product(p, 1, e->args, e->nargs);
}

/* One term of a sum; `first` has no operator before it. */
static void print_term(lego_printer *p, const lego_expr *t, int first)
{
	int need = prec(p, ADD) + !first;
	if (first || !lego_expr_subtracted(p->uses, t)) {
		if (!first)
			lego_sbuf_puts(p->out, " + ");
		lego_print_node(p, t, need);
		return;
	}
	lego_sbuf_puts(p->out, " - ");
	size_t start = p->out->len;
	int pr = t->kind == LEGO_CONST
			 ? print_const(p, -t->value)
			 : print_product(p, -t->args[0]->value, t->args + 1,
					 t->nargs - 1);
	if (pr < need)
		lego_sbuf_wrap(p->out, start);
}

/* Terms added first, then subtracted ones, the constant last -- or first
 * when nothing else would be added. */
static int print_add(lego_printer *p, const lego_expr *e)
{
	const lego_expr *c = e->args[0]->kind == LEGO_CONST ? e->args[0] : NULL;
	int added = 0;
	for (uint32_t i = c != NULL; i < e->nargs; i++)
		added |= !lego_expr_subtracted(p->uses, e->args[i]);
	int n = 0;
	if (c && !added)
		print_term(p, c, n++ == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = c != NULL; i < e->nargs; i++)
			if (lego_expr_subtracted(p->uses, e->args[i]) == pass)
				print_term(p, e->args[i], n++ == 0);
	if (c && added)
		print_term(p, c, 0);
	return prec(p, ADD);
}

static int print_infix(lego_printer *p, const lego_expr *e, const char *op,
		       enum cls c, int lneed, int rneed)
{
	lego_print_node(p, e->args[0], operand_need(p, e->args[0], lneed));
	lego_sbuf_printf(p->out, " %s ", op);
	lego_print_node(p, e->args[1], operand_need(p, e->args[1], rneed));
	return prec(p, c);
}

/* The sign of e as the prover knows it: 1 for >= 0 (a truth value
 * included), -1 for < 0, 0 unknown. */
static int sign_of(const lego_printer *p, const lego_expr *e)
{
	if (nonneg(p, e))
		return 1;
	return lego_prove_lt(p->ctx, (lego_expr *)e, lego_const(p->ctx, 0))
		       ? -1
		       : 0;
}

/* Is e <= 0 proved? */
static int nonpos(const lego_printer *p, const lego_expr *e)
{
	lego_ctx *ctx = p->ctx;
	return lego_prove_nonneg(ctx, lego_sub(ctx, lego_const(ctx, 0),
					       (lego_expr *)e));
}

/*
 * When truncating division must be corrected to floor: the remainder
 * r = a % b is non-zero and its sign (a's) differs from b's.  Written
 * with what the prover knows of the signs, so that no comparison of a
 * known sign is left to run: b > 0: r < 0; b < 0: r > 0; a >= 0: r > 0
 * and b < 0; a < 0: r < 0 and b > 0; else the full test.  Triton's `//`
 * and `%` floor on two constexprs (Python ints), where r has b's sign:
 * every form tests r, not a, so as to be exact under both semantics.  In
 * Python syntax `&` joins the tests, binding tighter than comparisons:
 * the form is parenthesised whole and in its parts.
 */
static void print_floor_fix(lego_printer *p, const char *sa, const char *sb,
			    int asign, int bsign)
{
	int c = p->d->c_syntax;
	if (bsign)
		lego_sbuf_printf(p->out, c ? "%s %% %s %s 0" : "(%s %% %s %s 0)",
				 sa, sb, bsign > 0 ? "<" : ">");
	else if (asign)
		lego_sbuf_printf(p->out, c ? "%s %% %s %s 0 && %s %s 0"
					   : "((%s %% %s %s 0) & (%s %s 0))",
				 sa, sb, asign > 0 ? ">" : "<", sb,
				 asign > 0 ? "<" : ">");
	else if (c)
		lego_sbuf_printf(p->out, "%s %% %s != 0 && (%s < 0) != (%s < 0)",
				 sa, sb, sa, sb);
	else
		lego_sbuf_printf(p->out,
				 "((%s %% %s != 0) & ((%s %% %s < 0) != (%s < 0)))",
				 sa, sb, sa, sb, sb);
}

/* Whether / or % needs a corrected form: truncating division (C,
 * Triton) unless both operands have one sign (a >= 0 < b, or
 * a <= 0 > b: then truncation is floor). */
static int divmod_corrected(const lego_printer *p, const lego_expr *e)
{
	const lego_expr *a = e->args[0], *b = e->args[1];
	if ((!p->d->c_syntax && !p->d->trunc_div) || a == b)
		return 0; /* floor already, or a / a (= 1) and a % a (= 0) */
	if (positive(p, b))
		return !nonneg(p, a);
	return !(sign_of(p, b) < 0 && nonpos(p, a));
}

unsigned lego_print_repeats(const lego_printer *p, const lego_expr *e)
{
	switch (e->kind) {
	case LEGO_MIN: case LEGO_MAX: return p->d->c_syntax ? 2 : 1;
	/* The corrected forms write an operand up to five times. */
	case LEGO_DIV: case LEGO_MOD: return divmod_corrected(p, e) ? 5 : 1;
	default: return 1;
	}
}

/* C's `/` and `%` (and Triton's `//`, `%`) truncate: the floor forms
 * correct them (print_floor_fix) unless the signs make them agree. */
static int print_divmod(lego_printer *p, const lego_expr *e)
{
	int div = e->kind == LEGO_DIV;
	const lego_expr *a = e->args[0], *b = e->args[1];
	int m = prec(p, MUL);
	const char *op = !div ? "%" : p->d->c_syntax ? "/" : "//";
	if (!divmod_corrected(p, e))
		return print_infix(p, e, op, MUL, m, m + 1);
	int bsign = positive(p, b) ? 1 : sign_of(p, b) < 0 ? -1 : 0;
	int asign = sign_of(p, a);
	char *sa = print_sub(p, a, m + 1), *sb = print_sub(p, b, m + 1);
	if (sa && sb) {
		lego_sbuf_printf(p->out, "(%s %s %s %s ", sa, op, sb,
				 div ? "-" : "+");
		if (p->d->c_syntax)
			lego_sbuf_puts(p->out, "(");
		print_floor_fix(p, sa, sb, asign, bsign);
		if (!p->d->c_syntax)
			lego_sbuf_printf(p->out, div ? ")" : " * %s)", sb);
		else
			lego_sbuf_printf(p->out, div ? "))" : " ? %s : 0))", sb);
	} else {
		p->out->oom = 1;
	}
	free(sa);
	free(sb);
	return prec(p, ATOM);
}

static int print_minmax(lego_printer *p, const lego_expr *e)
{
	const char *name = e->kind == LEGO_MIN ? "min" : "max";
	if (!p->d->c_syntax) {
		lego_sbuf_printf(p->out, "%s%s%s(", p->d->tensors ? "tl." : "",
				 name, p->d->tensors ? "imum" : "");
		lego_print_node(p, e->args[0], 0);
		lego_sbuf_puts(p->out, ", ");
		lego_print_node(p, e->args[1], 0);
		lego_sbuf_puts(p->out, ")");
		return prec(p, ATOM);
	}
	int need = prec(p, SHIFT);
	char *sa = print_sub(p, e->args[0], need);
	char *sb = print_sub(p, e->args[1], need);
	if (sa && sb)
		lego_sbuf_printf(p->out, "(%s %s %s ? %s : %s)", sa,
				 e->kind == LEGO_MIN ? "<" : ">", sb, sa, sb);
	free(sa);
	free(sb);
	return prec(p, ATOM);
}

/* An operand of and/or/not as a truth value: Python's `and` returns an
 * operand, not 0/1, unless the operands are 0/1-valued already. */
static void print_truth(lego_printer *p, const lego_expr *e, int need)
{
	if (p->d->c_syntax || lego_expr_is_bool(e)) {
		lego_print_node(p, e, need);
		return;
	}
	size_t start = p->out->len;
	lego_print_node(p, e, prec(p, SHIFT));
	lego_sbuf_puts(p->out, " != 0");
	if (prec(p, EQ) < need)
		lego_sbuf_wrap(p->out, start);
}

/* Triton: `and`, `or` and `x if c else y` do not apply to tensors. */
static int print_tensor_logic(lego_printer *p, const lego_expr *e)
{
	int and = e->kind == LEGO_AND;
	int need = prec(p, UNARY);
	print_truth(p, e->args[0], need);
	lego_sbuf_puts(p->out, and ? " & " : " | ");
	print_truth(p, e->args[1], need);
	return prec(p, and ? BAND : BOR);
}

static int print_where(lego_printer *p, const lego_expr *e)
{
	lego_sbuf_puts(p->out, "tl.where(");
	print_truth(p, e->args[0], 0);
	lego_sbuf_puts(p->out, ", ");
	lego_print_node(p, e->args[1], 0);
	lego_sbuf_puts(p->out, ", ");
	lego_print_node(p, e->args[2], 0);
	lego_sbuf_puts(p->out, ")");
	return prec(p, ATOM);
}

static int print_logic(lego_printer *p, const lego_expr *e)
{
	int c = p->d->c_syntax;
	int and = e->kind == LEGO_AND;
	if (p->d->tensors)
		return print_tensor_logic(p, e);
	int need = prec(p, AND) + !and;
	print_truth(p, e->args[0], need);
	lego_sbuf_puts(p->out, and ? (c ? " && " : " and ")
				   : (c ? " || " : " or "));
	print_truth(p, e->args[1], prec(p, AND) + 1);
	return prec(p, and ? AND : OR);
}

static int print_not(lego_printer *p, const lego_expr *e)
{
	if (p->d->c_syntax) {
		lego_sbuf_puts(p->out, "!");
		lego_print_node(p, e->args[0], prec(p, UNARY) + 1);
	} else if (p->d->tensors) {
		/* `not` does not apply to tensors. */
		lego_print_node(p, e->args[0], prec(p, SHIFT));
		lego_sbuf_puts(p->out, " == 0");
		return prec(p, EQ);
	} else {
		lego_sbuf_puts(p->out, "not ");
		lego_print_node(p, e->args[0], prec(p, NOT));
	}
	return prec(p, NOT);
}

static int print_select(lego_printer *p, const lego_expr *e)
{
	int need = prec(p, OR);
	int c = p->d->c_syntax;
	if (p->d->tensors)
		return print_where(p, e);
	/* clang warns on `a * b ? x : y`: a C condition that is not a truth
	 * value or a leaf gets parentheses. */
	const lego_expr *cond = e->args[0];
	int cneed = c && cond->nargs && !lego_expr_is_bool(cond)
			    ? prec(p, ATOM)
			    : need;
	lego_sbuf_puts(p->out, "(");
	if (c)
		lego_print_node(p, cond, cneed);
	else
		lego_print_node(p, e->args[1], need);
	lego_sbuf_puts(p->out, c ? " ? " : " if ");
	lego_print_node(p, e->args[c ? 1 : 0], need);
	lego_sbuf_puts(p->out, c ? " : " : " else ");
	lego_print_node(p, e->args[2], need);
	lego_sbuf_puts(p->out, ")");
	return prec(p, ATOM);
}

/* Operands of bitwise operators are always atoms or unary: mixing them
 * with arithmetic unparenthesised is an error magnet (and a gcc warning). */
static int print_bitwise(lego_printer *p, const lego_expr *e)
{
	static const char *const ops[] = {"&", "|", "^", "<<", ">>"};
	static const enum cls cls[] = {BAND, BOR, BXOR, SHIFT, SHIFT};
	int k = (int)e->kind - LEGO_BAND, u = prec(p, UNARY);
	if (e->kind == LEGO_SHL && p->d->c_syntax &&
	    !nonneg(p, e->args[0])) {
		/* C's << of a negative value is undefined: multiply. */
		lego_print_node(p, e->args[0], prec(p, MUL));
		lego_sbuf_printf(p->out, " * (1%s << ", p->d->ll);
		lego_print_node(p, e->args[1], u);
		lego_sbuf_puts(p->out, ")");
		return prec(p, MUL);
	}
	if (e->kind == LEGO_SHL && p->widen) {
		print_widened(p, e->args[0], u);
		lego_sbuf_puts(p->out, " << ");
		lego_print_node(p, e->args[1], u);
		return prec(p, SHIFT);
	}
	return print_infix(p, e, ops[k], cls[k], u, u);
}

static int print_body(lego_printer *p, const lego_expr *e)
{
	static const char *const cmp_ops[] = {"==", "!=", "<", "<="};
	if (p->uses && e != p->self && lego_expr_is_temp(p->uses, e)) {
		lego_sbuf_printf(p->out, "%s%zu", p->prefix,
				 (lego_memo_get(p->uses, e)->tag >> 1) - 1);
		return prec(p, ATOM);
	}
	int s = prec(p, SHIFT);
	switch (e->kind) {
	case LEGO_CONST: return print_const(p, e->value);
	case LEGO_SYM:
		lego_sbuf_puts(p->out, e->sym->name);
		return prec(p, ATOM);
	case LEGO_ADD: return print_add(p, e);
	case LEGO_MUL: return print_mul(p, e);
	case LEGO_DIV: case LEGO_MOD: return print_divmod(p, e);
	case LEGO_MIN: case LEGO_MAX: return print_minmax(p, e);
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
		return print_infix(p, e, cmp_ops[e->kind - LEGO_EQ],
				   e->kind <= LEGO_NE ? EQ : REL, s, s);
	case LEGO_AND: case LEGO_OR: return print_logic(p, e);
	case LEGO_NOT: return print_not(p, e);
	case LEGO_SELECT: return print_select(p, e);
	case LEGO_ISQRT:
		/* No spelling: lego_dialect_supports() refuses it. */
		lego_sbuf_printf(p->out, "%s(",
				 p->d->isqrt ? p->d->isqrt : "lego_isqrt");
		lego_print_node(p, e->args[0], 0);
		lego_sbuf_puts(p->out, ")");
		return prec(p, ATOM);
	default: return print_bitwise(p, e);
	}
}

static unsigned repeats(void *p, const lego_expr *e)
{
	return lego_print_repeats(p, e);
}

size_t lego_expr_print_size(lego_ctx *ctx, const lego_expr *e, lego_lang lang,
			    size_t cap)
{
	lego_printer p = {ctx, lego_dialect_get(lego_dialect_of_lang(lang)),
			  NULL, NULL, NULL, NULL, NULL, 0, 0};
	return e ? lego_expr_tree_size(e, cap, repeats, &p) : 0;
}

char *lego_print_dialect(lego_ctx *ctx, const lego_expr *e, lego_dialect d)
{
	if (!ctx || !e)
		return lego_fail_null(ctx, "lego_expr_print: no expression");
	lego_sbuf b = {0};
	lego_printer p = {ctx, lego_dialect_get(d), &b, NULL, NULL, NULL, NULL, 0, 0};
	if (lego_expr_tree_size(e, LEGO_PRINT_MAX_NODES + 1, repeats, &p) >
	    LEGO_PRINT_MAX_NODES)
		return lego_fail_null(ctx, "expression of more than %zu nodes "
					   "when its shared parts are written "
					   "out: print it with temporaries",
				      LEGO_PRINT_MAX_NODES);
	lego_print_node(&p, e, 0);
	char *s = lego_sbuf_take(&b);
	return s ? s : lego_fail_null(ctx, "out of memory");
}

char *lego_expr_print(lego_ctx *ctx, lego_expr *e, lego_lang lang)
{
	lego_dialect d = lego_dialect_of_lang(lang);
	if (e && !lego_dialect_supports(d, e))
		return lego_fail_null(ctx, "Triton: isqrt cannot be printed");
	return lego_print_dialect(ctx, e, d);
}
