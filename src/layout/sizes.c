/* sizes.c - dims validation, products and size agreement of layout pieces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

char *layout_expr_text(lego_ctx *ctx, lego_expr *e)
{
	char *t = lego_expr_print(ctx, e, LEGO_LANG_PYTHON);
	if (!t)
		return NULL;
	size_t w = 0;
	for (size_t r = 0; t[r];) {
		if (t[r] == '/' && t[r + 1] == '/')
			r++;
		else if (!strncmp(t + r, "math.", 5))
			r += 5;
		t[w++] = t[r++];
	}
	t[w] = 0;
	return t;
}

/* Nodes visited by one check of a size: sizes are small expressions; a
 * shared DAG is walked once per node. */
enum { SIZE_MAX_NODES = 4096 };

typedef struct size_walk {
	lego_ctx *ctx;
	const char *what;
	size_t dim;
	lego_expr *size;
	const lego_expr **seen;
	size_t nseen;
} size_walk;

static int size_fail(size_walk *w, lego_expr *part, const char *fmt)
{
	char *se = layout_expr_text(w->ctx, w->size);
	char *sp = layout_expr_text(w->ctx, part);
	/* fmt names the part once or twice (the `assume` to write). */
	int st = lego_fail(w->ctx, LEGO_ERR, fmt, w->what, w->dim + 1,
			   se ? se : "?", sp ? sp : "?", sp ? sp : "?");
	free(se);
	free(sp);
	return st;
}

static int proved_positive(lego_ctx *ctx, lego_expr *e);

/* Sign rules the range bounds miss: a quotient a / b with a >= b > 0
 * (cdiv(M, BM) = (M + BM - 1) / BM), min and max of positive values. */
static int positive_by_shape(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *a = lego_expr_arg(e, 0), *b = lego_expr_arg(e, 1);
	switch (lego_expr_kind_of(e)) {
	case LEGO_DIV:
		return proved_positive(ctx, b) &&
		       lego_prove_nonneg(ctx, lego_sub(ctx, a, b));
	case LEGO_MUL:
		for (size_t i = 0; i < lego_expr_nargs(e); i++)
			if (!proved_positive(ctx, lego_expr_arg(e, i)))
				return 0;
		return 1;
	case LEGO_MIN:
		return proved_positive(ctx, a) && proved_positive(ctx, b);
	case LEGO_MAX:
		return proved_positive(ctx, a) || proved_positive(ctx, b);
	default:
		return 0;
	}
}

/* The simplified form applies the facts' substitutions (BM | M: M/BM is
 * a quotient variable, positive). */
static int proved_positive(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *zero = lego_const(ctx, 0), *s;
	return lego_prove_lt(ctx, zero, e) || positive_by_shape(ctx, e) ||
	       ((s = lego_simplify(ctx, e)) && s != e &&
		(lego_prove_lt(ctx, zero, s) || positive_by_shape(ctx, s)));
}

/* Every operation of a size is defined under the facts: divisors proved
 * positive, isqrt of a value proved non-negative, shifts by 0..62. */
static int size_defined(size_walk *w, lego_expr *e)
{
	lego_ctx *ctx = w->ctx;
	for (size_t i = 0; i < w->nseen; i++)
		if (w->seen[i] == e)
			return LEGO_OK;
	if (w->nseen == SIZE_MAX_NODES)
		return size_fail(w, e, "%s: dim %zu (%s) is too large an "
				       "expression to check (at %s)");
	w->seen[w->nseen++] = e;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		if (size_defined(w, lego_expr_arg(e, i)) != LEGO_OK)
			return LEGO_ERR;
	lego_expr *b = lego_expr_arg(e, 1);
	int64_t v;
	switch (lego_expr_kind_of(e)) {
	case LEGO_DIV:
	case LEGO_MOD:
		if (lego_expr_is_const(b, &v) && v == 0)
			return size_fail(w, e, "%s: dim %zu (%s) divides by "
					       "zero (in %s)");
		if (!proved_positive(ctx, b))
			return size_fail(w, b, "%s: dim %zu (%s): the divisor "
					       "%s is not proved positive: "
					       "state it with `assume %s >= "
					       "1`");
		return LEGO_OK;
	case LEGO_ISQRT:
		if (!lego_prove_nonneg(ctx, lego_expr_arg(e, 0)))
			return size_fail(w, lego_expr_arg(e, 0),
					 "%s: dim %zu (%s): the argument %s of "
					 "isqrt is not proved non-negative: "
					 "state it with `assume %s >= 0`");
		return LEGO_OK;
	case LEGO_SHL:
	case LEGO_SHR:
		if (!lego_prove_nonneg(ctx, b) ||
		    !lego_prove_lt(ctx, b, lego_const(ctx, 63)))
			return size_fail(w, e, "%s: dim %zu (%s): the shift "
					       "amount of %s is not proved to "
					       "lie in 0..62");
		return LEGO_OK;
	default:
		return LEGO_OK;
	}
}

/* A size must be proved positive under the facts before anything is
 * derived from it: a proof of the layout's properties assumes it. */
static int check_size(lego_ctx *ctx, const char *what, size_t k,
		      lego_expr *e)
{
	size_walk w = {ctx, what, k, e, NULL, 0};
	w.seen = malloc(SIZE_MAX_NODES * sizeof *w.seen);
	if (!w.seen)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	int st = size_defined(&w, e);
	free(w.seen);
	if (st != LEGO_OK || proved_positive(ctx, e))
		return st;
	w.size = e;
	if (lego_expr_kind_of(e) == LEGO_DIV && !layout_is_cdiv(ctx, e)) {
		/* A quotient is positive once exact: say the divisibility. */
		char *n = layout_expr_text(ctx, lego_expr_arg(e, 0));
		char *d = layout_expr_text(ctx, lego_expr_arg(e, 1));
		char *se = layout_expr_text(ctx, e);
		lego_fail(ctx, LEGO_ERR, "%s: dim %zu (%s) is not proved "
			  "positive: state it with `assume %s %% %s == 0` "
			  "(or `assume %s >= 1`)", what, k + 1,
			  se ? se : "?", n ? n : "?", d ? d : "?",
			  se ? se : "?");
		free(n);
		free(d);
		free(se);
		return LEGO_ERR;
	}
	return size_fail(&w, e, "%s: dim %zu (%s) is not proved positive: "
				"state it with `assume %s >= 1` (or facts "
				"that imply it)");
}


int layout_check_dims(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		      const char *what)
{
	int64_t v;
	if (d == 0 || !dims)
		return lego_fail(ctx, LEGO_ERR, "%s: needs at least one dim",
				 what);
	for (size_t k = 0; k < d; k++) {
		if (!dims[k])
			return lego_fail(ctx, LEGO_ERR, "%s: dim %zu is missing",
					 what, k + 1);
		if (lego_expr_is_const(dims[k], &v)) {
			if (v <= 0)
				return lego_fail(ctx, LEGO_ERR,
						 "%s: dim %zu is %lld; dims "
						 "must be positive", what,
						 k + 1, (long long)v);
		} else if (check_size(ctx, what, k, dims[k]) != LEGO_OK) {
			return LEGO_ERR;
		}
	}
	return LEGO_OK;
}

lego_expr *layout_product(lego_ctx *ctx, size_t n, lego_expr *const *dims)
{
	lego_expr *p = lego_const(ctx, 1);
	for (size_t k = 0; k < n && p; k++)
		p = lego_mul(ctx, p, dims[k]);
	return p;
}

/* Z3's bound on one size agreement the simplifier leaves open. */
enum { SIZES_SMT_MS = 2000 };

/* What a disagreement is about: the symbols, a division that an `assume`
 * of divisibility would make exact, a min or max (a case split). */
typedef struct size_scan {
	lego_expr *syms[8];
	size_t nsyms;
	lego_expr *div;
	int minmax;
} size_scan;

static void scan(size_scan *sc, lego_expr *e, int depth)
{
	lego_expr_kind k = lego_expr_kind_of(e);
	if (depth > 64)
		return;
	if (k == LEGO_SYM) {
		for (size_t i = 0; i < sc->nsyms; i++)
			if (sc->syms[i] == e)
				return;
		if (sc->nsyms < 8)
			sc->syms[sc->nsyms++] = e;
		return;
	}
	if (k == LEGO_DIV && !sc->div)
		sc->div = e;
	sc->minmax |= k == LEGO_MIN || k == LEGO_MAX;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		scan(sc, lego_expr_arg(e, i), depth + 1);
}

/* " for M=3 GM=2" from a counterexample, or "". */
static void witness_text(const size_scan *sc, const lego_env *env,
			 char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sc->nsyms && used < cap; i++) {
		int64_t v;
		if (lego_env_lookup(env, sc->syms[i], &v) != LEGO_OK)
			continue;
		int w = snprintf(buf + used, cap - used, "%s%s=%lld",
				 used ? " " : " (for ",
				 lego_expr_name(sc->syms[i]), (long long)v);
		used += w > 0 ? (size_t)w : 0;
	}
	if (used && used + 2 < cap)
		snprintf(buf + used, cap - used, ")");
}

/* A node X / c of e (X a sym, c > 1 a constant) such that the difference
 * e vanishes when c divides X, or NULL. */
static lego_expr *divisible_sym(lego_ctx *ctx, lego_expr *e, lego_expr *diff,
				int depth)
{
	int64_t c;
	if (depth > 32)
		return NULL;
	if (lego_expr_kind_of(e) == LEGO_DIV &&
	    lego_expr_kind_of(lego_expr_arg(e, 0)) == LEGO_SYM &&
	    lego_expr_is_const(lego_expr_arg(e, 1), &c) && c > 1) {
		/* X = c * k for a fresh positive k: does the difference go? */
		lego_expr *x = lego_expr_arg(e, 0);
		lego_expr *k = lego_sym(ctx, "_sizes_k");
		lego_expr *to = k ? lego_mul(ctx, lego_const(ctx, c), k) : NULL;
		lego_expr *d = to ? lego_expr_subst(ctx, diff, 1, &x, &to)
				  : NULL;
		int64_t v;
		if ((d = d ? lego_simplify(ctx, d) : NULL) &&
		    lego_expr_is_const(d, &v) && v == 0)
			return e;
	}
	for (size_t i = 0; i < lego_expr_nargs(e); i++) {
		lego_expr *r = divisible_sym(ctx, lego_expr_arg(e, i), diff,
					     depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

/* The assumption that makes sizes a and b (difference diff) agree, as
 * text (malloc'd), or NULL: X % c == 0 when that makes the difference
 * vanish (8 * (N / 8) against N), a == b for two distinct syms. */
static char *agreeing_assume(lego_ctx *ctx, lego_expr *diff, lego_expr *a,
			     lego_expr *b)
{
	lego_expr *q = diff ? divisible_sym(ctx, diff, diff, 0) : NULL;
	lego_expr *x = q ? lego_expr_arg(q, 0) : a, *y = q ? NULL : b;
	int64_t c = 0;
	if ((q && !lego_expr_is_const(lego_expr_arg(q, 1), &c)) ||
	    (!q && (lego_expr_kind_of(a) != LEGO_SYM ||
		    lego_expr_kind_of(b) != LEGO_SYM)))
		return NULL;
	char buf[256];
	if (q)
		snprintf(buf, sizeof buf, "%s %% %lld == 0",
			 lego_expr_name(x), (long long)c);
	else
		snprintf(buf, sizeof buf, "%s == %s", lego_expr_name(x),
			 lego_expr_name(y));
	char *text = malloc(strlen(buf) + 1);
	return text ? strcpy(text, buf) : NULL;
}

/* proved: the sizes provably differ (with a witness when Z3 found one);
 * otherwise agreement is not proved.  Says what to write instead. */
static int fail_sizes(lego_ctx *ctx, const char *what, int proved,
		      lego_expr *a, lego_expr *b, const char *witness,
		      lego_expr *diff)
{
	size_scan sc = {{0}, 0, NULL, 0};
	scan(&sc, a, 0);
	scan(&sc, b, 0);
	char *sa = layout_expr_text(ctx, a);
	char *sb = layout_expr_text(ctx, b);
	char *n = sc.div ? layout_expr_text(ctx, lego_expr_arg(sc.div, 0))
			 : NULL;
	char *d = sc.div ? layout_expr_text(ctx, lego_expr_arg(sc.div, 1))
			 : NULL;
	char hint[512] = "";
	char *as = agreeing_assume(ctx, diff, a, b);
	if (as)
		snprintf(hint, sizeof hint, " (add `assume %s` if it holds)",
			 as);
	if (n && d && !as)
		snprintf(hint, sizeof hint, "; `assume %s %% %s == 0` makes "
			 "%s / %s exact", n, d, n, d);
	if (sc.minmax)
		snprintf(hint + strlen(hint), sizeof hint - strlen(hint),
			 "; a fact deciding the min/max (`assume`) may make "
			 "them agree");
	/* Sizes that cannot agree for every value: padded tiles, and the
	 * grouped program ids for any npm, npn, GM as a GenP. */
	snprintf(hint + strlen(hint), sizeof hint - strlen(hint),
		 "; for tiles that do not divide, see docs/partial.md");
	int st = lego_fail(ctx, LEGO_ERR,
			   proved ? "%s: the sizes %s and %s differ%s%s"
				  : "%s: cannot prove that the sizes %s and "
				    "%s agree%s%s",
			   what, sa ? sa : "?", sb ? sb : "?", witness, hint);
	free(sa);
	free(sb);
	free(n);
	free(d);
	free(as);
	return st;
}

/* Z3 decides what the simplifier cannot (a min or max needs a case
 * split): LEGO_PROVED, or a failure with a witness when refuted. */
static int agree_by_smt(lego_ctx *ctx, lego_expr *a, lego_expr *b,
			lego_expr *diff, const char *what)
{
	lego_expr *eq = lego_binop(ctx, LEGO_EQ, a, b);
	lego_env *env = eq ? lego_env_new(ctx) : NULL;
	if (!env)
		return LEGO_ENOMEM;
	lego_proof p = lego_smt_available()
			       ? lego_smt_prove(ctx, eq, SIZES_SMT_MS, env)
			       : LEGO_UNKNOWN;
	char witness[256] = "";
	if (p == LEGO_REFUTED) {
		size_scan sc = {{0}, 0, NULL, 0};
		scan(&sc, eq, 0);
		witness_text(&sc, env, witness, sizeof witness);
	}
	lego_env_free(env);
	if (p == LEGO_PROVED)
		return LEGO_OK;
	return fail_sizes(ctx, what, p == LEGO_REFUTED, a, b, witness, diff);
}

int layout_sizes_agree(lego_ctx *ctx, lego_expr *a, lego_expr *b,
		       const char *what)
{
	int64_t va, vb, diff;
	if (a == b)
		return LEGO_OK;
	if (lego_expr_is_const(a, &va) && lego_expr_is_const(b, &vb))
		return va == vb ? LEGO_OK
				: fail_sizes(ctx, what, 1, a, b, "", NULL);
	lego_expr *e = lego_sub(ctx, a, b);
	if (e)
		e = lego_simplify(ctx, e);
	if (!e)
		return LEGO_ERR;
	if (!lego_expr_is_const(e, &diff))
		return agree_by_smt(ctx, a, b, e, what);
	return diff == 0 ? LEGO_OK : fail_sizes(ctx, what, 1, a, b, "", NULL);
}
