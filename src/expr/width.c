/* width.c - whether generated C may compute expressions in 32-bit `int`.
 *
 * A bound on the magnitude of every value met while evaluating them, by
 * interval arithmetic over the constant bounds of their symbols: each node,
 * and each partial sum and product in any order (the sum, resp. product, of
 * the operands' bounds).  The bound is kept under 2^30 so that the C forms
 * the printer writes around a node (a remainder plus its divisor, a
 * quotient minus a sign test) cannot overflow either.  A symbol without
 * constant bounds (a size left symbolic) has no bound: such expressions
 * stay 64-bit.  The same analysis with a limit of 2^62 tells where even
 * 64 bits can overflow (lego_exprs_may_overflow64). */
#include "expr/print.h"

#define LIMIT32 (((int64_t)1 << 30) - 1)
#define LIMIT64 (((int64_t)1 << 62) - 1)
enum { UNKNOWN = -1 };

typedef struct width {
	lego_memo memo; /* n = bound + 1 once known, tag = 1 when unknown */
	int64_t limit;
	int over;       /* a bound was known and past the limit */
	int oom;
} width;

/* UNKNOWN for a bound past the limit, remembered. */
static int64_t past(width *w)
{
	w->over = 1;
	return UNKNOWN;
}

static int64_t mag(width *w, const lego_expr *e);

static int64_t sym_mag(width *w, const lego_symbol *s)
{
	int64_t lo, hi;
	if (!s->hi || !lego_expr_is_const(s->lo, &lo) ||
	    !lego_expr_is_const(s->hi, &hi) || lo >= hi)
		return UNKNOWN;
	if (lo < -w->limit || hi - 1 > w->limit)
		return past(w);
	return lo < 0 && -lo > hi - 1 ? -lo : hi - 1;
}

/* The operands' bounds combined by sum or product; UNKNOWN past the limit. */
static int64_t fold(width *w, const lego_expr *e, int product)
{
	int64_t acc = product;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int64_t m = mag(w, e->args[i]);
		if (m == UNKNOWN)
			return UNKNOWN;
		if (product ? m && acc > w->limit / m : acc > w->limit - m)
			return past(w);
		acc = product ? acc * m : acc + m;
	}
	return acc;
}

/* The largest operand bound (min, max, select, bitwise); UNKNOWN when one
 * operand has none. */
static int64_t widest(width *w, const lego_expr *e)
{
	int64_t top = 0;
	for (uint32_t i = 0; i < e->nargs; i++) {
		int64_t m = mag(w, e->args[i]);
		if (m == UNKNOWN)
			return UNKNOWN;
		top = m > top ? m : top;
	}
	return top;
}

/* The bound of a node from its operands'. */
static int64_t node_mag(width *w, const lego_expr *e)
{
	int64_t v, a, b;
	switch (e->kind) {
	case LEGO_CONST:
		v = e->value;
		return v >= -w->limit && v <= w->limit ? (v < 0 ? -v : v)
						       : past(w);
	case LEGO_SYM: return sym_mag(w, e->sym);
	case LEGO_ADD: return fold(w, e, 0);
	case LEGO_MUL: return fold(w, e, 1);
	case LEGO_DIV: /* |a / b| <= |a| for an integer b != 0 */
	case LEGO_SHR:
	case LEGO_ISQRT:
		return widest(w, e) == UNKNOWN ? UNKNOWN : mag(w, e->args[0]);
	case LEGO_MOD: /* |a % b| < |b| */
		return widest(w, e) == UNKNOWN ? UNKNOWN : mag(w, e->args[1]);
	case LEGO_BAND: case LEGO_BOR: case LEGO_BXOR:
		/* Two's complement: within the next power of two. */
		if ((a = widest(w, e)) == UNKNOWN)
			return UNKNOWN;
		for (b = 1; b <= a; b <<= 1)
			;
		return b > w->limit ? past(w) : b;
	case LEGO_SHL:
		a = mag(w, e->args[0]);
		b = mag(w, e->args[1]);
		if (a == UNKNOWN || b == UNKNOWN)
			return UNKNOWN;
		if (b > 62 || a > (w->limit >> b))
			return past(w);
		return a << b;
	case LEGO_MIN: case LEGO_MAX: case LEGO_SELECT:
		return widest(w, e);
	default: /* comparisons and logic: 0 or 1 */
		return widest(w, e) == UNKNOWN ? UNKNOWN : 1;
	}
}

static int64_t mag(width *w, const lego_expr *e)
{
	lego_memo_entry *m = lego_memo_get(&w->memo, e);
	if (m)
		return m->tag ? UNKNOWN : (int64_t)m->n - 1;
	int64_t v = node_mag(w, e);
	if (!(m = lego_memo_put(&w->memo, e))) {
		w->oom = 1;
		return UNKNOWN;
	}
	m->tag = v == UNKNOWN;
	m->n = v == UNKNOWN ? 0 : (size_t)v + 1;
	return v;
}

/* Bounds of every node of es against limit; *over when one is known
 * and past it.  1 when every node has a bound. */
static int bounded(size_t n, lego_expr *const *es, int64_t limit, int *over)
{
	width w = {.limit = limit};
	*over = 0;
	if (lego_memo_init(&w.memo, 64) != LEGO_OK)
		return 0;
	int all = 1;
	for (size_t i = 0; i < n; i++)
		all &= mag(&w, es[i]) != UNKNOWN;
	lego_memo_free(&w.memo);
	*over = w.over;
	return all && !w.oom;
}

int lego_exprs_fit_int32(size_t n, lego_expr *const *es)
{
	int over;
	return bounded(n, es, LIMIT32, &over);
}

int lego_exprs_may_overflow64(size_t n, lego_expr *const *es)
{
	int over;
	bounded(n, es, LIMIT64, &over);
	return over;
}
