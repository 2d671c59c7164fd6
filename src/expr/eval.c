/* eval.c - exact int64 evaluation: no allocation on the success path. */
#include <stdlib.h>

#include "expr/arith.h"
#include "expr/env.h"
#include "expr/memo.h"

static const char *op_name(lego_expr_kind kind)
{
	static const char *const names[] = {
		[LEGO_ADD] = "addition",	[LEGO_MUL] = "multiplication",
		[LEGO_DIV] = "division",	[LEGO_MOD] = "modulo",
		[LEGO_SHL] = "shift left",	[LEGO_SHR] = "shift right",
		[LEGO_ISQRT] = "isqrt",
	};
	return kind < sizeof names / sizeof names[0] && names[kind]
		       ? names[kind]
		       : "operation";
}

/* Messages name the operation and the expression. */
static int eval_fail(lego_ctx *ctx, int status, const lego_expr *e)
{
	char *text = lego_expr_print(ctx, (lego_expr *)e, LEGO_LANG_PYTHON);
	const char *what = op_name((lego_expr_kind)e->kind);
	const char *where = text ? text : "?";
	if (status == LEGO_EDIVZERO)
		lego_fail(ctx, status, "%s by zero in %s", what, where);
	else if (status == LEGO_ERANGE)
		lego_fail(ctx, status, "isqrt of a negative value in %s",
			  where);
	else
		lego_fail(ctx, status, "64-bit overflow in %s in %s", what,
			  where);
	free(text);
	return status;
}

static int eval_fail_shift(lego_ctx *ctx, const lego_expr *e, int64_t s)
{
	char *text = lego_expr_print(ctx, (lego_expr *)e, LEGO_LANG_PYTHON);
	lego_fail(ctx, LEGO_ERANGE, "shift by %lld (not in 0..62) in %s",
		  (long long)s, text ? text : "?");
	free(text);
	return LEGO_ERANGE;
}

/*
 * One evaluation.  The expression is a DAG: walked as a tree, a node shared
 * k times is evaluated k times, which is exponential on deep unsimplified
 * chains.  So the walk counts its visits, and past a budget starts again
 * with a memo of the values of the nodes already evaluated.
 */
typedef struct eval_state {
	lego_ctx *ctx;
	const lego_env *env;
	size_t budget;    /* visits left before memoising */
	lego_memo *memo;  /* NULL on the first, allocation-free walk */
} eval_state;

enum { EVAL_BUDGET = 1 << 16, EVAL_RESTART = 1 };

static int eval_node(eval_state *s, const lego_expr *e, int64_t *out);

static int eval_sym(lego_ctx *ctx, const lego_expr *e, const lego_env *env,
		    int64_t *out)
{
	uint32_t i = e->sym->index;
	if (!env || i >= env->cap || !env->bound[i])
		return lego_fail(ctx, LEGO_EUNBOUND, "unbound symbol '%s'",
				 e->sym->name);
	*out = env->values[i];
	return LEGO_OK;
}

/* Sums and products are exact whatever the order of their terms (which
 * canonicalisation chose): only a result outside int64 is an overflow. */
static int eval_sum(eval_state *s, const lego_expr *e, int64_t *out)
{
	__int128 acc = 0;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int64_t v;
		int rc = eval_node(s, e->args[i], &v);
		if (rc != LEGO_OK)
			return rc;
		acc += v;
	}
	if (acc < INT64_MIN || acc > INT64_MAX)
		return eval_fail(s->ctx, LEGO_EOVERFLOW, e);
	*out = (int64_t)acc;
	return LEGO_OK;
}

static int eval_product(eval_state *s, const lego_expr *e, int64_t *out)
{
	__int128 acc = 1;
	int zero = 0, huge = 0;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int64_t v;
		int rc = eval_node(s, e->args[i], &v);
		if (rc != LEGO_OK)
			return rc;
		zero |= v == 0;
		if (!zero && !huge)
			huge = __builtin_mul_overflow(acc, (__int128)v, &acc);
	}
	if (zero) {
		*out = 0;
		return LEGO_OK;
	}
	if (huge || acc < INT64_MIN || acc > INT64_MAX)
		return eval_fail(s->ctx, LEGO_EOVERFLOW, e);
	*out = (int64_t)acc;
	return LEGO_OK;
}

static int eval_binary(eval_state *s, const lego_expr *e, int64_t *out)
{
	int64_t a, b;
	int rc = eval_node(s, e->args[0], &a);
	if (rc == LEGO_OK)
		rc = eval_node(s, e->args[1], &b);
	if (rc != LEGO_OK)
		return rc;
	rc = lego_arith_binary((lego_expr_kind)e->kind, a, b, out);
	if (rc == LEGO_ERANGE)
		return eval_fail_shift(s->ctx, e, b);
	return rc == LEGO_OK ? rc : eval_fail(s->ctx, rc, e);
}

/* AND, OR and SELECT evaluate only what the printed code evaluates. */
static int eval_lazy(eval_state *s, const lego_expr *e, int64_t *out)
{
	int64_t c;
	int rc = eval_node(s, e->args[0], &c);
	if (rc != LEGO_OK)
		return rc;
	if (e->kind == LEGO_SELECT)
		return eval_node(s, e->args[c ? 1 : 2], out);
	if ((e->kind == LEGO_AND) == (c == 0)) {
		*out = c != 0;
		return LEGO_OK;
	}
	if ((rc = eval_node(s, e->args[1], &c)) == LEGO_OK)
		*out = c != 0;
	return rc;
}

static int eval_op(eval_state *s, const lego_expr *e, int64_t *out)
{
	int64_t a;
	int rc;
	switch (e->kind) {
	case LEGO_CONST:
		*out = e->value;
		return LEGO_OK;
	case LEGO_SYM:
		return eval_sym(s->ctx, e, s->env, out);
	case LEGO_AND: case LEGO_OR: case LEGO_SELECT:
		return eval_lazy(s, e, out);
	case LEGO_NOT:
		if ((rc = eval_node(s, e->args[0], &a)) == LEGO_OK)
			*out = a == 0;
		return rc;
	case LEGO_ISQRT:
		rc = eval_node(s, e->args[0], &a);
		if (rc == LEGO_OK && (rc = lego_arith_isqrt(a, out)) != LEGO_OK)
			return eval_fail(s->ctx, rc, e);
		return rc;
	case LEGO_ADD:
		return eval_sum(s, e, out);
	case LEGO_MUL:
		return eval_product(s, e, out);
	default:
		return eval_binary(s, e, out);
	}
}

static int eval_node(eval_state *s, const lego_expr *e, int64_t *out)
{
	if (!s->memo) {
		if (!s->budget--)
			return EVAL_RESTART;
		return eval_op(s, e, out);
	}
	if (!e->nargs)
		return eval_op(s, e, out);
	lego_memo_entry *m = lego_memo_get(s->memo, e);
	if (m && m->tag) {
		*out = (int64_t)m->n;
		return LEGO_OK;
	}
	int rc = eval_op(s, e, out);
	if (rc != LEGO_OK)
		return rc;
	if (!(m = lego_memo_put(s->memo, e)))
		return lego_fail(s->ctx, LEGO_ENOMEM, "out of memory");
	m->n = (size_t)(uint64_t)*out;
	m->tag = 1;
	return LEGO_OK;
}

int lego_expr_eval(lego_ctx *ctx, const lego_expr *e, const lego_env *env,
		   int64_t *out)
{
	if (!ctx || !e || !out)
		return lego_fail(ctx, LEGO_ERR, "lego_expr_eval: no %s",
				 !e ? "expression" : "result pointer");
	eval_state s = {ctx, env, EVAL_BUDGET, NULL};
	int rc = eval_node(&s, e, out);
	if (rc != EVAL_RESTART)
		return rc;
	lego_memo memo;
	if (lego_memo_init(&memo, 1024) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	s.memo = &memo;
	rc = eval_node(&s, e, out);
	lego_memo_free(&memo);
	return rc;
}
