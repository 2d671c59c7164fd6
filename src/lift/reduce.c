/* reduce.c - Lift's parallel reduce(f, init) $ x in a work-group: x (of a
 * constant length n) is copied into local memory by mapLcl, then halved
 * in rounds, work-item i of round `len` combining l[i] with
 * l[i + ceil(len/2)]; each round reads what others wrote in the round
 * before, so barriers separate them (never eliminated).  Within a round
 * the elements written, [0, len - ceil(len/2)), and those read above
 * ceil(len/2) do not meet.  The tree changes the order in which f
 * combines the elements: like Lift's reduce, f must be associative and
 * commutative.  The result is f(init, l[0]). */
#include <stdio.h>
#include <string.h>

#include "lift/value.h"

/* "buf[index]" in the arena. */
static const char *elem(lift_cc *cc, const lift_buf *b, lego_expr *i)
{
	const char *ix = lift_print_index(cc, i);
	size_t len = ix ? strlen(b->name) + strlen(ix) + 3 : 0;
	char *t = len ? lego_arena_alloc(&cc->ctx->arena, len) : NULL;
	if (t)
		snprintf(t, len, "%s[%s]", b->name, ix);
	return t;
}

/* l[i] = f(l[i], l[i + half]) for i < m, in a mapLcl. */
static int round_emit(lift_cc *cc, const lift_fun *f, lift_buf *b,
		      lift_type_kind k, int64_t m, int64_t half)
{
	lego_ctx *ctx = cc->ctx;
	char name[32];
	lego_expr *i = lift_fresh_index(cc, lego_const(ctx, m), name,
					sizeof name);
	char len[32];
	snprintf(len, sizeof len, "%lld", (long long)m);
	if (!i || lift_loop_open(cc, PAT_MAPLCL, 0, i, name, len))
		return -1;
	const char *lo = elem(cc, b, i);
	const char *hi = elem(cc, b, lego_add(ctx, i, lego_const(ctx, half)));
	lift_val *args[2] = {
		lo ? lift_val_scalar(cc, k, lo) : NULL,
		hi ? lift_val_scalar(cc, k, hi) : NULL,
	};
	lift_val *y = args[0] && args[1] ? lift_apply(cc, f->f, args, 2) : NULL;
	if (!y)
		return -1;
	if (y->kind != VAL_SCALAR || y->type->kind != k) {
		lift_err(cc, f->at, "reduce's function must return the type of "
			 "its operands");
		return -1;
	}
	lift_emit(cc, "%s = %s;", lo, y->text);
	lift_loop_close(cc);
	lift_barrier_emit(cc, b);
	return 0;
}

lift_val *lift_reduce_par(lift_cc *cc, const lift_fun *f, lift_val *a)
{
	lego_ctx *ctx = cc->ctx;
	if (a->kind != VAL_ARRAY || a->type->elems[0]->kind > LIFT_INT)
		return lift_err(cc, f->at, "reduce over a value that is not an "
					   "array of scalars");
	lift_type_kind k = a->type->elems[0]->kind;
	if (f->init->kind != VAL_SCALAR || f->init->type->kind != k)
		return lift_err(cc, f->at, "reduce's initial value must have "
					   "the type of the elements");
	lego_expr *ne = lego_simplify(ctx, a->type->len);
	int64_t n;
	if (!ne || !lego_expr_is_const(ne, &n) || n < 1)
		return lift_err(cc, f->at, "reduce needs a constant length (it "
				"reduces in local memory): split first, or use "
				"reduceSeq");
	if (lift_local_site(cc, "reduce", f->at))
		return NULL;
	lift_buf *b = lift_buf_new(cc, SPACE_LOCAL, f->at);
	if (!b)
		return NULL;
	b->regrouped = 1;  /* shared by construction: its barriers stay */
	if (cc->nloops)
		lift_barrier_emit(cc, b);
	/* l[i] = x[i], by mapLcl */
	char name[32], len[32];
	lego_expr *i = lift_fresh_index(cc, ne, name, sizeof name);
	snprintf(len, sizeof len, "%lld", (long long)n);
	if (!i || lift_loop_open(cc, PAT_MAPLCL, 0, i, name, len))
		return NULL;
	lift_val *x = lift_view_get(cc, a, i);
	const char *li = elem(cc, b, i);
	if (!x || !li)
		return NULL;
	lift_emit(cc, "%s = %s;", li, x->text);
	lift_loop_close(cc);
	lift_barrier_emit(cc, b);
	for (int64_t live = n; live > 1; live = (live + 1) / 2)
		if (round_emit(cc, f, b, k, live - (live + 1) / 2,
			       (live + 1) / 2))
			return NULL;
	lift_buf_declare(cc, b, k, (long long)n);
	const char *l0 = elem(cc, b, lego_const(ctx, 0));
	lift_val *args[2] = {f->init, l0 ? lift_val_scalar(cc, k, l0) : NULL};
	lift_val *y = args[1] ? lift_apply(cc, f->f, args, 2) : NULL;
	return y ? lift_view_single(cc, y) : NULL;
}
