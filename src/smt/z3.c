/* z3.c - lego expressions as Z3 integer terms, exact semantics.
 *
 * The context is a plain (not reference-counted) Z3 context: terms live
 * until it is deleted with the lego ctx, and Z3 hash-conses them, so
 * translating the same expressions again costs no memory. */
#include <stdlib.h>

#include "simplify/facts.h"
#include "smt/smt.h"

#ifdef LEGO_HAVE_Z3

/* Terms already built for this query, by node (open addressing). */
typedef struct tr_slot {
	const lego_expr *e;
	Z3_ast t;
} tr_slot;

struct smt_tr {
	lego_ctx *ctx;
	Z3_context z;
	Z3_sort int_sort;
	tr_slot *memo;
	size_t memo_cap, memo_count;
	Z3_ast *hyps;
	size_t nhyps, hyps_cap;
	smt_syms syms;
};

smt_tr *smt_tr_new(lego_ctx *ctx, Z3_context z3)
{
	smt_tr *tr = calloc(1, sizeof *tr);
	if (!tr) {
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
		return NULL;
	}
	tr->ctx = ctx;
	tr->z = z3;
	tr->int_sort = Z3_mk_int_sort(z3);
	return tr;
}

void smt_tr_free(smt_tr *tr)
{
	if (!tr)
		return;
	free(tr->memo);
	free(tr->hyps);
	smt_syms_free(&tr->syms);
	free(tr);
}

size_t smt_tr_nhyps(const smt_tr *tr)
{
	return tr->nhyps;
}

Z3_ast smt_tr_hyp(const smt_tr *tr, size_t i)
{
	return tr->hyps[i];
}

const smt_syms *smt_tr_syms(const smt_tr *tr)
{
	return &tr->syms;
}

static int add_hyp(smt_tr *tr, Z3_ast h)
{
	if (tr->nhyps == tr->hyps_cap) {
		size_t cap = tr->hyps_cap ? 2 * tr->hyps_cap : 16;
		Z3_ast *a = realloc(tr->hyps, cap * sizeof *a);
		if (!a)
			return lego_fail(tr->ctx, LEGO_ENOMEM, "out of memory");
		tr->hyps = a;
		tr->hyps_cap = cap;
	}
	tr->hyps[tr->nhyps++] = h;
	return LEGO_OK;
}

static size_t memo_slot(const smt_tr *tr, const lego_expr *e)
{
	size_t mask = tr->memo_cap - 1;
	size_t j = (e->id * 2654435761u) & mask;
	while (tr->memo[j].e && tr->memo[j].e != e)
		j = (j + 1) & mask;
	return j;
}

static int memo_grow(smt_tr *tr)
{
	size_t cap = tr->memo_cap ? 2 * tr->memo_cap : 64;
	tr_slot *old = tr->memo;
	size_t old_cap = tr->memo_cap;
	tr->memo = calloc(cap, sizeof *tr->memo);
	if (!tr->memo) {
		tr->memo = old;
		return lego_fail(tr->ctx, LEGO_ENOMEM, "out of memory");
	}
	tr->memo_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].e)
			tr->memo[memo_slot(tr, old[i].e)] = old[i];
	free(old);
	return LEGO_OK;
}

static Z3_ast memo_put(smt_tr *tr, const lego_expr *e, Z3_ast t)
{
	if (!t)
		return NULL;
	if ((tr->memo_count + 1) * 2 > tr->memo_cap && memo_grow(tr))
		return NULL;
	tr->memo[memo_slot(tr, e)] = (tr_slot){e, t};
	tr->memo_count++;
	return t;
}

/* ------------------------------------------------------- small helpers */

static Z3_ast num(smt_tr *tr, int64_t v)
{
	return Z3_mk_int64(tr->z, v, tr->int_sort);
}

static Z3_ast ite(smt_tr *tr, Z3_ast c, Z3_ast a, Z3_ast b)
{
	return Z3_mk_ite(tr->z, c, a, b);
}

static Z3_ast bin(smt_tr *tr, Z3_ast (*mk)(Z3_context, unsigned,
					   Z3_ast const[]),
		  Z3_ast a, Z3_ast b)
{
	Z3_ast args[2] = {a, b};
	return mk(tr->z, 2, args);
}

static Z3_ast fresh(smt_tr *tr, const char *what)
{
	return Z3_mk_fresh_const(tr->z, what, tr->int_sort);
}

static Z3_ast in_range(smt_tr *tr, Z3_ast x, int64_t lo, int64_t hi)
{
	Z3_ast both[2] = {Z3_mk_le(tr->z, num(tr, lo), x),
			  Z3_mk_le(tr->z, x, num(tr, hi))};
	return Z3_mk_and(tr->z, 2, both);
}

/* Syntactically positive: constants > 0, sizes, and their sums and
 * products.  Division by such a divisor needs no sign case. */
static int positive(const lego_expr *e)
{
	size_t n = lego_expr_nargs(e);
	switch (lego_expr_kind_of(e)) {
	case LEGO_CONST:
		return lego_expr_value(e) > 0;
	case LEGO_SYM: {
		int64_t lo;
		return lego_expr_is_const(e->sym->lo, &lo) && lo >= 1;
	}
	case LEGO_ADD: case LEGO_MUL: case LEGO_MIN:
		for (size_t i = 0; i < n; i++)
			if (!positive(lego_expr_arg(e, i)))
				return 0;
		return 1;
	case LEGO_MAX:
		for (size_t i = 0; i < n; i++)
			if (positive(lego_expr_arg(e, i)))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------- symbols */

static Z3_ast symbol(smt_tr *tr, lego_expr *e)
{
	Z3_symbol name = Z3_mk_string_symbol(tr->z, lego_expr_name(e));
	Z3_ast s = memo_put(tr, e, Z3_mk_const(tr->z, name, tr->int_sort));
	if (!s || smt_syms_collect(tr->ctx, &tr->syms, e))
		return NULL;
	Z3_ast lo = smt_tr_int(tr, e->sym->lo);
	if (!lo || add_hyp(tr, Z3_mk_le(tr->z, lo, s)))
		return NULL;
	if (e->sym->hi) {
		Z3_ast hi = smt_tr_int(tr, e->sym->hi);
		if (!hi || add_hyp(tr, Z3_mk_lt(tr->z, s, hi)))
			return NULL;
	}
	return s;
}

/* -------------------------------------------------------------- division */

/* Z3's div and mod are Euclidean: equal to floor division and modulo for
 * positive divisors.  For a negative one, a // b == (-a) // (-b) and
 * a % b == -((-a) % (-b)). */
static Z3_ast floor_divmod(smt_tr *tr, int is_mod, Z3_ast a, Z3_ast b,
			   int b_positive)
{
	Z3_ast (*op)(Z3_context, Z3_ast, Z3_ast) = is_mod ? Z3_mk_mod
							  : Z3_mk_div;
	Z3_ast pos = op(tr->z, a, b);
	if (b_positive)
		return pos;
	Z3_ast neg = op(tr->z, Z3_mk_unary_minus(tr->z, a),
			Z3_mk_unary_minus(tr->z, b));
	if (is_mod)
		neg = Z3_mk_unary_minus(tr->z, neg);
	return ite(tr, Z3_mk_gt(tr->z, b, num(tr, 0)), pos, neg);
}

/* a << s == a * 2^s and a >> s == a // 2^s for 0 <= s <= 62. */
static Z3_ast shift(smt_tr *tr, int left, Z3_ast a, const lego_expr *se,
		    Z3_ast s)
{
	int64_t k;
	if (lego_expr_is_const(se, &k) && k >= 0 && k <= 62) {
		Z3_ast p = num(tr, (int64_t)1 << k);
		return left ? bin(tr, Z3_mk_mul, a, p) : Z3_mk_div(tr->z, a, p);
	}
	Z3_ast one = Z3_mk_int2bv(tr->z, 64, num(tr, 1));
	Z3_ast p = Z3_mk_bv2int(tr->z, Z3_mk_bvshl(tr->z, one,
				Z3_mk_int2bv(tr->z, 64, s)), 0);
	Z3_ast v = left ? bin(tr, Z3_mk_mul, a, p) : Z3_mk_div(tr->z, a, p);
	return ite(tr, in_range(tr, s, 0, 62), v, fresh(tr, "shift"));
}

/* Bitwise operations on 64-bit two's complement. */
static Z3_ast bitwise(smt_tr *tr, lego_expr_kind kind, Z3_ast a, Z3_ast b)
{
	Z3_ast (*op)(Z3_context, Z3_ast, Z3_ast) =
		kind == LEGO_BAND ? Z3_mk_bvand
		: kind == LEGO_BOR ? Z3_mk_bvor : Z3_mk_bvxor;
	Z3_ast r = op(tr->z, Z3_mk_int2bv(tr->z, 64, a),
		      Z3_mk_int2bv(tr->z, 64, b));
	return Z3_mk_bv2int(tr->z, r, 1);
}

/* One step of a left fold: acc op arg. */
static Z3_ast fold_step(smt_tr *tr, lego_expr_kind kind, Z3_ast acc,
			const lego_expr *arg_e, Z3_ast arg)
{
	switch (kind) {
	case LEGO_ADD: return bin(tr, Z3_mk_add, acc, arg);
	case LEGO_MUL: return bin(tr, Z3_mk_mul, acc, arg);
	case LEGO_DIV: case LEGO_MOD:
		return floor_divmod(tr, kind == LEGO_MOD, acc, arg,
				    positive(arg_e));
	case LEGO_MIN: return ite(tr, Z3_mk_le(tr->z, acc, arg), acc, arg);
	case LEGO_MAX: return ite(tr, Z3_mk_le(tr->z, acc, arg), arg, acc);
	case LEGO_BAND: case LEGO_BOR: case LEGO_BXOR:
		return bitwise(tr, kind, acc, arg);
	case LEGO_SHL: case LEGO_SHR:
		return shift(tr, kind == LEGO_SHL, acc, arg_e, arg);
	default: {
		/* Comparisons and logic folded past two arguments. */
		Z3_ast c;
		switch (kind) {
		case LEGO_EQ: c = Z3_mk_eq(tr->z, acc, arg); break;
		case LEGO_NE: c = Z3_mk_not(tr->z, Z3_mk_eq(tr->z, acc, arg));
			break;
		case LEGO_LT: c = Z3_mk_lt(tr->z, acc, arg); break;
		case LEGO_LE: c = Z3_mk_le(tr->z, acc, arg); break;
		default: return NULL;
		}
		return ite(tr, c, num(tr, 1), num(tr, 0));
	}
	}
}

static Z3_ast fold(smt_tr *tr, lego_expr *e)
{
	lego_expr_kind kind = lego_expr_kind_of(e);
	Z3_ast acc = smt_tr_int(tr, lego_expr_arg(e, 0));
	for (size_t i = 1; acc && i < lego_expr_nargs(e); i++) {
		lego_expr *arg_e = lego_expr_arg(e, i);
		Z3_ast arg = smt_tr_int(tr, arg_e);
		acc = arg ? fold_step(tr, kind, acc, arg_e, arg) : NULL;
	}
	return acc;
}

/* isqrt(x): a fresh r with r >= 0, r*r <= x < (r+1)^2 when x >= 0. */
static Z3_ast isqrt(smt_tr *tr, lego_expr *e)
{
	Z3_ast x = smt_tr_int(tr, lego_expr_arg(e, 0));
	if (!x)
		return NULL;
	Z3_ast r = fresh(tr, "isqrt");
	Z3_ast r1 = bin(tr, Z3_mk_add, r, num(tr, 1));
	Z3_ast def[3] = {
		Z3_mk_ge(tr->z, r, num(tr, 0)),
		Z3_mk_le(tr->z, bin(tr, Z3_mk_mul, r, r), x),
		Z3_mk_lt(tr->z, x, bin(tr, Z3_mk_mul, r1, r1)),
	};
	Z3_ast h = Z3_mk_implies(tr->z, Z3_mk_ge(tr->z, x, num(tr, 0)),
				 Z3_mk_and(tr->z, 3, def));
	return add_hyp(tr, h) ? NULL : r;
}

static int is_boolean(lego_expr_kind kind)
{
	return (kind >= LEGO_EQ && kind <= LEGO_NOT);
}

Z3_ast smt_tr_int(smt_tr *tr, lego_expr *e)
{
	if (!e)
		return NULL;
	if (tr->memo_cap) {
		size_t j = memo_slot(tr, e);
		if (tr->memo[j].e)
			return tr->memo[j].t;
	}
	lego_expr_kind kind = lego_expr_kind_of(e);
	Z3_ast t;
	if (kind == LEGO_SYM)
		return symbol(tr, e);
	if (kind == LEGO_CONST)
		t = num(tr, lego_expr_value(e));
	else if (kind == LEGO_ISQRT)
		t = isqrt(tr, e);
	else if (kind == LEGO_SELECT) {
		Z3_ast c = smt_tr_bool(tr, lego_expr_arg(e, 0));
		Z3_ast a = smt_tr_int(tr, lego_expr_arg(e, 1));
		Z3_ast b = smt_tr_int(tr, lego_expr_arg(e, 2));
		t = c && a && b ? ite(tr, c, a, b) : NULL;
	} else if (is_boolean(kind) && lego_expr_nargs(e) <= 2) {
		Z3_ast c = smt_tr_bool(tr, e);
		t = c ? ite(tr, c, num(tr, 1), num(tr, 0)) : NULL;
	} else
		t = fold(tr, e);
	return memo_put(tr, e, t);
}

/* Comparisons, logic and negation of two or fewer arguments as Boolean
 * terms directly; anything else as its integer value != 0. */
static Z3_ast boolean(smt_tr *tr, lego_expr *e, lego_expr_kind kind)
{
	size_t n = lego_expr_nargs(e);
	Z3_ast a = kind <= LEGO_LE ? smt_tr_int(tr, lego_expr_arg(e, 0))
				   : smt_tr_bool(tr, lego_expr_arg(e, 0));
	Z3_ast b = n < 2 ? a
	       : kind <= LEGO_LE ? smt_tr_int(tr, lego_expr_arg(e, 1))
				 : smt_tr_bool(tr, lego_expr_arg(e, 1));
	if (!a || !b)
		return NULL;
	switch (kind) {
	case LEGO_EQ: return Z3_mk_eq(tr->z, a, b);
	case LEGO_NE: return Z3_mk_not(tr->z, Z3_mk_eq(tr->z, a, b));
	case LEGO_LT: return Z3_mk_lt(tr->z, a, b);
	case LEGO_LE: return Z3_mk_le(tr->z, a, b);
	case LEGO_AND: return bin(tr, Z3_mk_and, a, b);
	case LEGO_OR: return bin(tr, Z3_mk_or, a, b);
	default: return Z3_mk_not(tr->z, a); /* LEGO_NOT */
	}
}

Z3_ast smt_tr_bool(smt_tr *tr, lego_expr *e)
{
	if (!e)
		return NULL;
	lego_expr_kind kind = lego_expr_kind_of(e);
	if (is_boolean(kind) && lego_expr_nargs(e) <= 2)
		return boolean(tr, e, kind);
	Z3_ast t = smt_tr_int(tr, e);
	return t ? Z3_mk_not(tr->z, Z3_mk_eq(tr->z, t, num(tr, 0))) : NULL;
}

/* ---------------------------------------------------------------- facts */

static int fact(smt_tr *tr, Z3_ast h)
{
	return h ? add_hyp(tr, h) : LEGO_ERR;
}

static int translated(const smt_tr *tr, const lego_expr *e)
{
	return tr->memo_cap && tr->memo[memo_slot(tr, e)].e;
}

/* d | sym, as the simplifier's analysis form has it: sym is d * q for a
 * fresh positive integer q, which the node sym / d stands for.  Keeping
 * the products polynomial is what lets Z3 reason about tile counts. */
static int divisibility(smt_tr *tr, const lego_subst *f)
{
	if (translated(tr, f->sym) || translated(tr, f->q) ||
	    lego_expr_kind_of(f->q) != LEGO_DIV) {
		Z3_ast s = smt_tr_int(tr, f->sym);
		Z3_ast v = smt_tr_int(tr, f->value);
		return fact(tr, s && v ? Z3_mk_eq(tr->z, s, v) : NULL);
	}
	lego_expr *d = lego_expr_arg(f->q, 1);
	Z3_ast dt = smt_tr_int(tr, d);
	Z3_ast q = fresh(tr, lego_expr_name(f->sym));
	if (!dt || !memo_put(tr, f->q, q) ||
	    !memo_put(tr, f->sym, bin(tr, Z3_mk_mul, dt, q)) ||
	    smt_syms_collect(tr->ctx, &tr->syms, f->sym))
		return LEGO_ERR;
	return fact(tr, Z3_mk_ge(tr->z, q, num(tr, 1)));
}

int smt_tr_facts(smt_tr *tr)
{
	const struct lego_facts *f = tr->ctx->facts;
	int rc = LEGO_OK;
	/* Substitutions: divisibility (above) and equations sym == value. */
	for (size_t i = 0; !rc && i < f->nsubst; i++) {
		if (f->subst[i].q) {
			rc = divisibility(tr, &f->subst[i]);
			continue;
		}
		Z3_ast s = smt_tr_int(tr, f->subst[i].sym);
		Z3_ast v = smt_tr_int(tr, f->subst[i].value);
		rc = fact(tr, s && v ? Z3_mk_eq(tr->z, s, v) : NULL);
	}
	for (size_t i = 0; !rc && i < f->nnonneg; i++) {
		Z3_ast v = smt_tr_int(tr, f->nonneg[i]);
		rc = fact(tr, v ? Z3_mk_ge(tr->z, v, num(tr, 0)) : NULL);
	}
	return rc;
}

/* d | n kept pending by src/simplify (n had a substitution n -> d0*q
 * already, or was no variable of its analysis form), as n == d * (n / d),
 * only when the goal mentions n / d: every such nonlinear fact, needed or
 * not, slows Z3 down (to unknowns) on goals that never divide.  Without
 * it Z3 knew 16 | N but not BX | N (the tile count N/BX of a RegP), and
 * refuted x / BX < N / BX at N = 16, BX = 3. */
int smt_tr_pending(smt_tr *tr)
{
	const struct lego_facts *f = tr->ctx->facts;
	int rc = LEGO_OK;
	for (size_t i = 0; !rc && i < f->npending; i++) {
		lego_expr *d = f->pending[2 * i], *n = f->pending[2 * i + 1];
		lego_expr *qe = lego_div(tr->ctx, n, d);
		if (!qe)
			return LEGO_ERR;
		if (!translated(tr, qe))
			continue;
		Z3_ast nt = smt_tr_int(tr, n), dt = smt_tr_int(tr, d);
		Z3_ast qt = smt_tr_int(tr, qe);
		rc = fact(tr, nt && dt && qt ? Z3_mk_eq(tr->z, nt,
				bin(tr, Z3_mk_mul, dt, qt)) : NULL);
		/* Sizes: n >= d > 0 (the fact's n - d >= 0), so n / d >= 1. */
		if (!rc && positive(d) && positive(n))
			rc = fact(tr, Z3_mk_ge(tr->z, qt, num(tr, 1)));
	}
	return rc;
}

Z3_ast smt_tr_small(smt_tr *tr, int64_t bound)
{
	size_t n = tr->syms.n;
	Z3_ast *each = calloc(n ? n : 1, sizeof *each);
	if (!each)
		return NULL;
	for (size_t i = 0; i < n; i++)
		each[i] = in_range(tr, smt_tr_int(tr, tr->syms.syms[i]),
				   -bound, bound);
	Z3_ast all = Z3_mk_and(tr->z, (unsigned)n, each);
	free(each);
	return all;
}

#else
typedef int smt_z3_unused; /* ISO C wants a declaration in every file */
#endif
