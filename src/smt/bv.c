/* bv.c - conditions decided over 64-bit bit-vectors (smt.h): every
 * operation as the emitted 64-bit code computes it. */
#include <limits.h>
#include <stdio.h>

#include "smt/smt.h"

#ifdef LEGO_HAVE_Z3

enum { MAX_HYPS = 64, MAX_OPAQUE = 16 };

/* How / and % are translated: by their definition, by Z3's divider
 * circuits, or each distinct node as an unconstrained value. */
typedef enum bv_div { BV_DEFINED, BV_CIRCUITS, BV_OPAQUE } bv_div;

typedef struct bv {
	lego_ctx *ctx;
	Z3_context z;
	Z3_sort sort;
	lego_expr *const *free;
	size_t nfree;
	Z3_ast hyp[MAX_HYPS];
	size_t nhyps;
	lego_expr *seen[MAX_HYPS];
	size_t nseen;
	int failed;
	bv_div div;
	lego_expr *opaque[MAX_OPAQUE]; /* nodes read as unconstrained values */
	Z3_ast opaque_as[MAX_OPAQUE];
	size_t nopaque;
} bv;

static Z3_ast bv_int(bv *b, lego_expr *e);

static Z3_ast num(bv *b, int64_t v)
{
	return Z3_mk_int64(b->z, v, b->sort);
}

static Z3_ast bool_of(bv *b, lego_expr *e);

static Z3_ast and2(bv *b, Z3_ast x, Z3_ast y)
{
	Z3_ast a[2] = {x, y};
	return Z3_mk_and(b->z, 2, a);
}

/* A symbol, with its range as a hypothesis unless it is free. */
static Z3_ast symbol(bv *b, lego_expr *e)
{
	Z3_ast s = Z3_mk_const(b->z, Z3_mk_string_symbol(b->z,
							 lego_expr_name(e)),
			       b->sort);
	for (size_t i = 0; i < b->nseen; i++)
		if (b->seen[i] == e)
			return s;
	if (b->nseen == MAX_HYPS || b->nhyps + 2 > MAX_HYPS) {
		b->failed = 1;
		return s;
	}
	b->seen[b->nseen++] = e;
	for (size_t i = 0; i < b->nfree; i++)
		if (b->free[i] == e)
			return s;
	lego_symbol *sym = e->sym;
	b->hyp[b->nhyps++] = Z3_mk_bvsle(b->z, bv_int(b, sym->lo), s);
	if (sym->is_index && sym->hi)
		b->hyp[b->nhyps++] = Z3_mk_bvslt(b->z, s, bv_int(b, sym->hi));
	return s;
}

/* The node e (a / or %) as one unconstrained value, the same for every
 * occurrence (nodes are hash-consed): a condition proved so holds
 * whatever the divisions compute, hence for what they do compute.  A
 * rule whose lemmas relate its divisions to bit operations
 * (div-as-shr) is then a question about bit operations only. */
static Z3_ast opaque(bv *b, lego_expr *e)
{
	for (size_t i = 0; i < b->nopaque; i++)
		if (b->opaque[i] == e)
			return b->opaque_as[i];
	if (b->nopaque == MAX_OPAQUE) {
		b->failed = 1;
		return num(b, 0);
	}
	b->opaque[b->nopaque] = e;
	return b->opaque_as[b->nopaque++] =
		       Z3_mk_fresh_const(b->z, "div", b->sort);
}

/* Floor division: truncation, one less when the remainder and the
 * divisor differ in sign. */
static Z3_ast floor_div(bv *b, Z3_ast x, Z3_ast d)
{
	Z3_context z = b->z;
	Z3_ast q = Z3_mk_bvsdiv(z, x, d), r = Z3_mk_bvsrem(z, x, d);
	Z3_ast zero = num(b, 0);
	Z3_ast differ = Z3_mk_not(z, Z3_mk_eq(z, Z3_mk_bvslt(z, r, zero),
					      Z3_mk_bvslt(z, d, zero)));
	Z3_ast adjust = and2(b, Z3_mk_not(z, Z3_mk_eq(z, r, zero)), differ);
	return Z3_mk_ite(z, adjust, Z3_mk_bvadd(z, q, num(b, -1)), q);
}

/* Floor division and modulo by their definition, without a divider
 * circuit: a fresh quotient q with x - d*q in [0, d) (in (d, 0] for
 * d < 0), computed in 128 bits so that nothing wraps.  Where the
 * quotient does not fit in 64 bits (INT64_MIN / -1) no q exists: the
 * proof covers what the 64-bit code computes.  With BV_CIRCUITS, Z3's
 * own signed division and modulo (bvsmod is floor modulo) instead: Z3
 * decides some queries one way only. */
static Z3_ast floor_divmod(bv *b, Z3_ast x, Z3_ast d, int is_mod)
{
	Z3_context z = b->z;
	if (b->div == BV_CIRCUITS)
		return is_mod ? Z3_mk_bvsmod(z, x, d) : floor_div(b, x, d);
	Z3_sort wide = Z3_mk_bv_sort(z, 128);
	Z3_ast q = Z3_mk_fresh_const(z, "q", b->sort);
	Z3_ast X = Z3_mk_sign_ext(z, 64, x), D = Z3_mk_sign_ext(z, 64, d);
	Z3_ast Q = Z3_mk_sign_ext(z, 64, q), zero = Z3_mk_int64(z, 0, wide);
	Z3_ast R = Z3_mk_bvadd(z, X, Z3_mk_bvmul(z, Z3_mk_int64(z, -1, wide),
						 Z3_mk_bvmul(z, D, Q)));
	Z3_ast pos = and2(b, Z3_mk_bvsle(z, zero, R), Z3_mk_bvslt(z, R, D));
	Z3_ast neg = and2(b, Z3_mk_bvslt(z, D, R), Z3_mk_bvsle(z, R, zero));
	if (b->nhyps == MAX_HYPS) {
		b->failed = 1;
		return q;
	}
	b->hyp[b->nhyps++] = Z3_mk_ite(z, Z3_mk_bvslt(z, zero, D), pos,
				       Z3_mk_ite(z, Z3_mk_eq(z, D, zero),
						 Z3_mk_eq(z, zero, zero), neg));
	if (!is_mod)
		return q;
	return Z3_mk_bvadd(z, x, Z3_mk_bvmul(z, num(b, -1),
					     Z3_mk_bvmul(z, d, q)));
}

static int is_condition(lego_expr_kind k)
{
	return k == LEGO_EQ || k == LEGO_NE || k == LEGO_LT || k == LEGO_LE ||
	       k == LEGO_AND || k == LEGO_OR || k == LEGO_NOT;
}

static Z3_ast bv_int(bv *b, lego_expr *e)
{
	Z3_context z = b->z;
	lego_expr_kind k = lego_expr_kind_of(e);
	if (b->failed)
		return num(b, 0);
	if (k == LEGO_CONST)
		return num(b, lego_expr_value(e));
	if (k == LEGO_SYM)
		return symbol(b, e);
	if (b->div == BV_OPAQUE && (k == LEGO_DIV || k == LEGO_MOD))
		return opaque(b, e);
	if (is_condition(k))
		return Z3_mk_ite(z, bool_of(b, e), num(b, 1), num(b, 0));
	if (k == LEGO_SELECT)
		return Z3_mk_ite(z, bool_of(b, e->args[0]), bv_int(b, e->args[1]),
				 bv_int(b, e->args[2]));
	Z3_ast acc = bv_int(b, e->args[0]);
	for (uint32_t i = 1; i < e->nargs && !b->failed; i++) {
		Z3_ast a = bv_int(b, e->args[i]);
		switch (k) {
		case LEGO_ADD: acc = Z3_mk_bvadd(z, acc, a); break;
		case LEGO_MUL: acc = Z3_mk_bvmul(z, acc, a); break;
		case LEGO_DIV: acc = floor_divmod(b, acc, a, 0); break;
		case LEGO_MOD: acc = floor_divmod(b, acc, a, 1); break;
		case LEGO_BAND: acc = Z3_mk_bvand(z, acc, a); break;
		case LEGO_BOR: acc = Z3_mk_bvor(z, acc, a); break;
		case LEGO_BXOR: acc = Z3_mk_bvxor(z, acc, a); break;
		case LEGO_SHL: acc = Z3_mk_bvshl(z, acc, a); break;
		case LEGO_SHR: acc = Z3_mk_bvashr(z, acc, a); break;
		case LEGO_MIN:
			acc = Z3_mk_ite(z, Z3_mk_bvsle(z, acc, a), acc, a);
			break;
		case LEGO_MAX:
			acc = Z3_mk_ite(z, Z3_mk_bvsle(z, acc, a), a, acc);
			break;
		default:
			b->failed = 1;
		}
	}
	if (e->nargs < 2 && k != LEGO_ADD && k != LEGO_MUL)
		b->failed = 1;
	return acc;
}

static Z3_ast bool_of(bv *b, lego_expr *e)
{
	Z3_context z = b->z;
	lego_expr_kind k = lego_expr_kind_of(e);
	Z3_ast x, y;
	switch (k) {
	case LEGO_NOT:
		return Z3_mk_not(z, bool_of(b, e->args[0]));
	case LEGO_AND: case LEGO_OR: {
		Z3_ast a[2] = {bool_of(b, e->args[0]), bool_of(b, e->args[1])};
		return k == LEGO_AND ? Z3_mk_and(z, 2, a) : Z3_mk_or(z, 2, a);
	}
	case LEGO_EQ: case LEGO_NE: case LEGO_LT: case LEGO_LE:
		x = bv_int(b, e->args[0]);
		y = bv_int(b, e->args[1]);
		return k == LEGO_EQ   ? Z3_mk_eq(z, x, y)
		       : k == LEGO_NE ? Z3_mk_not(z, Z3_mk_eq(z, x, y))
		       : k == LEGO_LT ? Z3_mk_bvslt(z, x, y)
				      : Z3_mk_bvsle(z, x, y);
	default:
		return Z3_mk_not(z, Z3_mk_eq(z, bv_int(b, e), num(b, 0)));
	}
}

/* Each value 0..SMT_SHIFT_TOP of the symbol k, one check each under a
 * literal implying it, in one incremental solver: the formula is
 * bit-blasted once and each check propagates a constant shift, where a
 * symbolic one may leave Z3 undecided for minutes. */
static Z3_lbool check_cases(bv *b, Z3_solver s, lego_expr *k)
{
	Z3_context z = b->z;
	Z3_ast v = bv_int(b, k);
	for (int64_t c = 0; c <= SMT_SHIFT_TOP; c++) {
		Z3_ast lit = Z3_mk_fresh_const(z, "case", Z3_mk_bool_sort(z));
		Z3_solver_assert(z, s, Z3_mk_implies(z, lit,
						     Z3_mk_eq(z, v, num(b, c))));
		Z3_lbool r = Z3_solver_check_assumptions(z, s, 1, &lit);
		if (r != Z3_L_FALSE)
			return r;
	}
	return Z3_L_FALSE;
}

/* Does e divide (/ or %)? */
static int has_division(const lego_expr *e)
{
	lego_expr_kind k = lego_expr_kind_of(e);
	if (k == LEGO_DIV || k == LEGO_MOD)
		return 1;
	for (size_t i = 0; i < lego_expr_nargs(e); i++)
		if (has_division(lego_expr_arg(e, i)))
			return 1;
	return 0;
}

static lego_proof prove_bv64(lego_ctx *ctx, lego_expr *cond,
			     lego_expr *const *free, size_t nfree,
			     lego_expr *cases, unsigned timeout_ms,
			     bv_div div)
{
	struct lego_smt *st = cond ? smt_state(ctx) : NULL;
	if (!st || !lego_smt_available()) {
		lego_fail(ctx, LEGO_ERR, "no solver");
		return LEGO_UNKNOWN;
	}
	bv b = {ctx, st->z3, NULL, free, nfree, {0}, 0, {0}, 0, 0, div,
		{0}, {0}, 0};
	b.sort = Z3_mk_bv_sort(b.z, 64);
	Z3_ast goal = bool_of(&b, cond);
	if (b.failed) {
		lego_fail(ctx, LEGO_ERR, "not translated to bit-vectors");
		return LEGO_UNKNOWN;
	}
	/* Cases go to the solver of QF_BV: its checks under assumptions
	 * are the SAT solver's, incremental (the default one takes minutes
	 * on the shl-field rules). */
	Z3_solver s = cases ? Z3_mk_solver_for_logic(
					b.z, Z3_mk_string_symbol(b.z, "QF_BV"))
			      : Z3_mk_solver(b.z);
	Z3_solver_inc_ref(b.z, s);
	Z3_params p = Z3_mk_params(b.z);
	Z3_params_inc_ref(b.z, p);
	Z3_params_set_uint(b.z, p, Z3_mk_string_symbol(b.z, "rlimit"),
			   timeout_ms > UINT_MAX / SMT_RLIMIT_PER_MS
				   ? UINT_MAX : timeout_ms * SMT_RLIMIT_PER_MS);
	Z3_solver_set_params(b.z, s, p);
	Z3_params_dec_ref(b.z, p);
	for (size_t i = 0; i < b.nhyps; i++)
		Z3_solver_assert(b.z, s, b.hyp[i]);
	Z3_solver_assert(b.z, s, Z3_mk_not(b.z, goal));
	Z3_lbool r = cases ? check_cases(&b, s, cases)
			   : Z3_solver_check(b.z, s);
	Z3_solver_dec_ref(b.z, s);
	if (r == Z3_L_UNDEF)
		lego_fail(ctx, LEGO_ERR, "undecided by Z3 over 64-bit "
			  "bit-vectors (%u ms)", timeout_ms);
	return r == Z3_L_FALSE ? LEGO_PROVED
	       : r == Z3_L_TRUE ? LEGO_REFUTED : LEGO_UNKNOWN;
}

static lego_proof prove_modes(lego_ctx *ctx, lego_expr *cond,
			      lego_expr *const *free, size_t nfree,
			      lego_expr *cases, unsigned timeout_ms,
			      int opaque_divs)
{
	/* Without a division both ways translate alike: one try. */
	unsigned half = has_division(cond) ? timeout_ms / 2 + 1 : timeout_ms;
	if (opaque_divs) /* a model there may not be one of the divisions */
		return prove_bv64(ctx, cond, free, nfree, cases, timeout_ms,
				  BV_OPAQUE) == LEGO_PROVED ? LEGO_PROVED
							    : LEGO_UNKNOWN;
	lego_proof p = prove_bv64(ctx, cond, free, nfree, cases, half,
				  BV_DEFINED);
	return p != LEGO_UNKNOWN || half == timeout_ms
		       ? p
		       : prove_bv64(ctx, cond, free, nfree, cases, half,
				    BV_CIRCUITS);
}

lego_proof smt_prove_bv64(lego_ctx *ctx, lego_expr *cond,
			  lego_expr *const *free, size_t nfree,
			  lego_expr *cases, unsigned timeout_ms,
			  int opaque_divs)
{
	if (!cases || !cond || !has_division(cond))
		return prove_modes(ctx, cond, free, nfree, cases, timeout_ms,
				   opaque_divs);
	/* Divisions defined by 128-bit products: each case a query of its
	 * own, k a constant there (the incremental solvers take minutes). */
	for (int64_t c = 0; c <= SMT_SHIFT_TOP; c++) {
		lego_expr *v = lego_const(ctx, c);
		lego_expr *one = lego_expr_subst(ctx, cond, 1, &cases, &v);
		lego_proof p = one ? prove_modes(ctx, one, free, nfree, NULL,
						 timeout_ms / (SMT_SHIFT_TOP + 1)
							 + 1,
						 opaque_divs)
				   : LEGO_UNKNOWN;
		if (p != LEGO_PROVED)
			return p;
	}
	return LEGO_PROVED;
}

#else

lego_proof smt_prove_bv64(lego_ctx *ctx, lego_expr *cond,
			  lego_expr *const *free, size_t nfree,
			  lego_expr *cases, unsigned timeout_ms,
			  int opaque_divs)
{
	(void)cases;
	(void)opaque_divs;
	(void)cond;
	(void)free;
	(void)nfree;
	(void)timeout_ms;
	lego_fail(ctx, LEGO_ERR, "liblego was built without Z3");
	return LEGO_UNKNOWN;
}

#endif
