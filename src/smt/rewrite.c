/* rewrite.c - certified bottom-up rewriting: the simplifier proposes, the
 * prover disposes. */
#include <stdlib.h>

#include "smt/smt.h"

/* Node -> rewritten node, for one rewriting (open addressing). */
typedef struct rw_slot {
	lego_expr *from, *to;
} rw_slot;

typedef struct rw {
	lego_ctx *ctx;
	rw_slot *slots;
	size_t cap, count;
	double deadline;
} rw;

static size_t rw_slot_of(const rw *w, const lego_expr *e)
{
	size_t mask = w->cap - 1;
	size_t j = (e->id * 2654435761u) & mask;
	while (w->slots[j].from && w->slots[j].from != e)
		j = (j + 1) & mask;
	return j;
}

static int rw_put(rw *w, lego_expr *from, lego_expr *to)
{
	if ((w->count + 1) * 2 > w->cap) {
		rw bigger = *w;
		bigger.cap = w->cap ? 2 * w->cap : 64;
		bigger.count = 0;
		if (!(bigger.slots = calloc(bigger.cap, sizeof *bigger.slots)))
			return lego_fail(w->ctx, LEGO_ENOMEM, "out of memory");
		for (size_t i = 0; i < w->cap; i++)
			if (w->slots[i].from) {
				bigger.slots[rw_slot_of(&bigger,
						w->slots[i].from)] = w->slots[i];
				bigger.count++;
			}
		free(w->slots);
		*w = bigger;
	}
	w->slots[rw_slot_of(w, from)] = (rw_slot){from, to};
	w->count++;
	return LEGO_OK;
}

/* Each step is small; it gets a short limit of its own. */
static unsigned step_ms(const rw *w)
{
	double ms = (w->deadline - smt_clock(w->ctx)) * 1000.0 / 3;
	return ms < 100 ? 100u : ms > 2000 ? 2000u : (unsigned)ms;
}

/* Nodes built exactly as written: the proof trusts no canonicalisation. */
static lego_expr *mk(rw *w, lego_expr_kind kind, lego_expr *a, lego_expr *b)
{
	lego_expr *args[2] = {a, b};
	return a && b ? lego_expr_make(w->ctx, kind, 2, args, 0) : NULL;
}

static lego_expr *mk_and(rw *w, lego_expr *a, lego_expr *b)
{
	return mk(w, LEGO_AND, a, b);
}

/* q is a // d (for any sign of a) iff d >= 1 and 0 <= a - d*q < d: a
 * condition without division, which Z3 handles far better.  *rem gets
 * a - d*q. */
static lego_expr *quotient_cond(rw *w, lego_expr *a, lego_expr *d,
				lego_expr *q, lego_expr **rem)
{
	lego_expr *args[3] = {lego_const(w->ctx, -1), d, q};
	lego_expr *dq = args[0] ? lego_expr_make(w->ctx, LEGO_MUL, 3, args, 0)
				: NULL;
	*rem = mk(w, LEGO_ADD, a, dq);
	lego_expr *one = lego_const(w->ctx, 1), *zero = lego_const(w->ctx, 0);
	return mk_and(w, mk(w, LEGO_LE, one, d),
		      mk_and(w, mk(w, LEGO_LE, zero, *rem),
			     mk(w, LEGO_LT, *rem, d)));
}

/* A condition implying rebuilt == guess, or NULL.  Divisions and modulos
 * are checked through their quotient (for a modulo, the simplified
 * quotient of the same operands). */
static lego_expr *step_cond(rw *w, lego_expr *e, lego_expr *rebuilt,
			    lego_expr *guess)
{
	lego_expr_kind kind = lego_expr_kind_of(e);
	lego_expr *rem;
	if ((kind == LEGO_DIV || kind == LEGO_MOD) &&
	    lego_expr_nargs(rebuilt) == 2) {
		lego_expr *a = lego_expr_arg(rebuilt, 0);
		lego_expr *d = lego_expr_arg(rebuilt, 1);
		if (kind == LEGO_DIV)
			return quotient_cond(w, a, d, guess, &rem);
		lego_expr *q = lego_simplify(
			w->ctx, lego_div(w->ctx, lego_expr_arg(e, 0),
					 lego_expr_arg(e, 1)));
		lego_expr *c = q ? quotient_cond(w, a, d, q, &rem) : NULL;
		return c ? mk_and(w, c, mk(w, LEGO_EQ, rem, guess)) : NULL;
	}
	return mk(w, LEGO_EQ, rebuilt, guess);
}

/* Keep e's form rebuilt from rewritten arguments, or take the simplified
 * form of e when proved equal to it. */
static lego_expr *step(rw *w, lego_expr *e, lego_expr *rebuilt)
{
	lego_expr *guess = lego_simplify(w->ctx, e);
	if (!guess || guess == rebuilt || smt_clock(w->ctx) >= w->deadline)
		return rebuilt;
	lego_expr *cond = step_cond(w, e, rebuilt, guess);
	if (cond && smt_prove(w->ctx, cond, step_ms(w), 0, NULL) ==
			    LEGO_PROVED)
		return guess;
	lego_expr *eq = mk(w, LEGO_EQ, rebuilt, guess);
	if (eq && eq != cond && smt_clock(w->ctx) < w->deadline &&
	    smt_prove(w->ctx, eq, step_ms(w), 0, NULL) == LEGO_PROVED)
		return guess;
	return rebuilt;
}

static lego_expr *rewrite(rw *w, lego_expr *e)
{
	size_t n = lego_expr_nargs(e);
	if (n == 0)
		return e;
	if (w->cap) {
		rw_slot *s = &w->slots[rw_slot_of(w, e)];
		if (s->from)
			return s->to;
	}
	lego_expr **args = malloc(n * sizeof *args);
	if (!args)
		return lego_fail_null(w->ctx, "out of memory");
	int same = 1;
	for (size_t i = 0; i < n; i++) {
		args[i] = rewrite(w, lego_expr_arg(e, i));
		if (!args[i]) {
			free(args);
			return NULL;
		}
		same &= args[i] == lego_expr_arg(e, i);
	}
	/* Rebuilt exactly as it was (no canonicalisation to trust). */
	lego_expr *rebuilt = same ? e
			     : lego_expr_make(w->ctx, lego_expr_kind_of(e), n,
					      args, lego_expr_value(e));
	free(args);
	lego_expr *r = rebuilt ? step(w, e, rebuilt) : NULL;
	return r && rw_put(w, e, r) == LEGO_OK ? r : NULL;
}

lego_expr *smt_rewrite(lego_ctx *ctx, lego_expr *cond, double deadline)
{
	rw w = {ctx, NULL, 0, 0, deadline};
	lego_expr *r = rewrite(&w, cond);
	free(w.slots);
	return r;
}
