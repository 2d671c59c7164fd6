/* canon.c - canonical sums and products: flattened, constants folded, like
 * terms combined, arguments sorted by lego_expr_cmp.  No distribution. */
#include <stdlib.h>

#include "expr/arith.h"
#include "expr/canon.h"

/* A term of a sum: coef * (product of factors); nf == 0 for a constant. */
typedef struct term {
	int64_t coef;
	lego_expr *const *factors;
	uint32_t nf;
} term;

enum { STACK_ARGS = 32 };

static int cmp_nodes(const void *a, const void *b)
{
	return lego_expr_cmp(*(lego_expr *const *)a, *(lego_expr *const *)b);
}

/* Any total order on factor lists in which equal lists are adjacent. */
static int cmp_terms(const void *pa, const void *pb)
{
	const term *a = pa, *b = pb;
	uint32_t n = a->nf < b->nf ? a->nf : b->nf;
	for (uint32_t i = 0; i < n; i++) {
		int c = lego_expr_cmp(a->factors[i], b->factors[i]);
		if (c)
			return c;
	}
	return a->nf < b->nf ? -1 : a->nf > b->nf;
}

static int same_factors(const term *a, const term *b)
{
	if (a->nf != b->nf)
		return 0;
	for (uint32_t i = 0; i < a->nf; i++)
		if (a->factors[i] != b->factors[i])
			return 0;
	return 1;
}

static term split_term(lego_expr *const *slot)
{
	lego_expr *e = *slot;
	if (e->kind == LEGO_CONST)
		return (term){e->value, NULL, 0};
	if (e->kind != LEGO_MUL)
		return (term){1, slot, 1};
	if (e->args[0]->kind == LEGO_CONST)
		return (term){e->args[0]->value, e->args + 1, e->nargs - 1};
	return (term){1, e->args, e->nargs};
}

/* coef * factors as a canonical node (factors are already sorted). */
static lego_expr *join_term(lego_ctx *ctx, const term *t)
{
	if (t->nf == 0)
		return lego_const(ctx, t->coef);
	if (t->coef == 1 && t->nf == 1)
		return t->factors[0];
	if (t->coef == 1)
		return lego_expr_make(ctx, LEGO_MUL, t->nf, t->factors, 0);
	lego_expr *stack[STACK_ARGS];
	lego_expr **a = t->nf < STACK_ARGS ? stack
					   : malloc((t->nf + 1) * sizeof *a);
	if (!a)
		return lego_fail_null(ctx, "out of memory");
	a[0] = lego_const(ctx, t->coef);
	for (uint32_t i = 0; i < t->nf; i++)
		a[i + 1] = t->factors[i];
	lego_expr *e = lego_expr_make(ctx, LEGO_MUL, t->nf + 1, a, 0);
	if (a != stack)
		free(a);
	return e;
}

/* Sums and products are short: insertion sort beats qsort on them. */
static void sort_nodes(lego_expr **a, size_t n)
{
	if (n > STACK_ARGS) {
		qsort(a, n, sizeof *a, cmp_nodes);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		lego_expr *x = a[i];
		size_t j = i;
		for (; j > 0 && lego_expr_cmp(a[j - 1], x) > 0; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

static void sort_terms(term *t, size_t n)
{
	if (n > STACK_ARGS) {
		qsort(t, n, sizeof *t, cmp_terms);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		term x = t[i];
		size_t j = i;
		for (; j > 0 && cmp_terms(&t[j - 1], &x) > 0; j--)
			t[j] = t[j - 1];
		t[j] = x;
	}
}

/* n nodes as one, sorted: 0 args -> unit, 1 -> itself, else kind. */
static lego_expr *finish(lego_ctx *ctx, lego_expr_kind kind, size_t n,
			 lego_expr **a, int64_t unit)
{
	if (n == 0)
		return lego_const(ctx, unit);
	if (n == 1)
		return a[0];
	sort_nodes(a, n);
	return lego_expr_make(ctx, kind, n, a, 0);
}

static size_t count_flat(lego_expr_kind kind, size_t n,
			 lego_expr *const *args)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += args[i]->kind == (uint32_t)kind ? args[i]->nargs : 1;
	return total;
}

/* Terms sorted by factors, equal ones merged unless the sum overflows. */
static size_t merge_terms(term *t, size_t n)
{
	sort_terms(t, n);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t sum;
		if (m && same_factors(&t[m - 1], &t[i]) &&
		    lego_arith_add(t[m - 1].coef, t[i].coef, &sum) == LEGO_OK)
			t[m - 1].coef = sum;
		else
			t[m++] = t[i];
	}
	return m;
}

static lego_expr *add_terms(lego_ctx *ctx, term *t, size_t n,
			    lego_expr **out)
{
	size_t m = merge_terms(t, n), k = 0;
	for (size_t i = 0; i < m; i++) {
		if (t[i].coef == 0)
			continue;
		if (!(out[k++] = join_term(ctx, &t[i])))
			return NULL;
	}
	return finish(ctx, LEGO_ADD, k, out, 0);
}

lego_expr *lego_canon_add(lego_ctx *ctx, size_t n, lego_expr *const *args)
{
	for (size_t i = 0; i < n; i++)
		if (!ctx || !args[i])
			return lego_fail_arg(ctx, "lego_add");
	size_t total = count_flat(LEGO_ADD, n, args);
	term tstack[STACK_ARGS];
	lego_expr *estack[STACK_ARGS];
	int big = total > STACK_ARGS;
	term *t = big ? malloc(total * sizeof *t) : tstack;
	lego_expr **out = big ? malloc(total * sizeof *out) : estack;
	lego_expr *e = NULL;
	if (t && out) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (args[i]->kind != LEGO_ADD) {
				t[k++] = split_term(&args[i]);
				continue;
			}
			for (uint32_t j = 0; j < args[i]->nargs; j++)
				t[k++] = split_term(&args[i]->args[j]);
		}
		e = add_terms(ctx, t, k, out);
	} else {
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	if (big) {
		free(t);
		free(out);
	}
	return e;
}

/* Appends the factors of e to a (flattening products), folding constants
 * into *c while that does not overflow. */
static size_t push_factors(lego_expr *e, lego_expr **a, size_t k, int64_t *c,
			   int *zero)
{
	uint32_t n = e->kind == LEGO_MUL ? e->nargs : 1;
	lego_expr *const *f = e->kind == LEGO_MUL ? e->args : &e;
	for (uint32_t i = 0; i < n; i++) {
		int64_t p;
		if (f[i]->kind != LEGO_CONST)
			a[k++] = f[i];
		else if (f[i]->value == 0)
			*zero = 1;
		else if (lego_arith_mul(*c, f[i]->value, &p) == LEGO_OK)
			*c = p;
		else
			a[k++] = f[i];
	}
	return k;
}

lego_expr *lego_canon_mul(lego_ctx *ctx, size_t n, lego_expr *const *args)
{
	for (size_t i = 0; i < n; i++)
		if (!ctx || !args[i])
			return lego_fail_arg(ctx, "lego_mul");
	size_t total = count_flat(LEGO_MUL, n, args) + 1;
	lego_expr *stack[STACK_ARGS];
	lego_expr **a = total > STACK_ARGS ? malloc(total * sizeof *a) : stack;
	if (!a)
		return lego_fail_null(ctx, "out of memory");
	int64_t c = 1;
	int zero = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k = push_factors(args[i], a, k, &c, &zero);
	lego_expr *e;
	if (zero)
		e = lego_const(ctx, 0);
	else if (c != 1 && !(a[k++] = lego_const(ctx, c)))
		e = NULL;
	else
		e = finish(ctx, LEGO_MUL, k, a, 1);
	if (a != stack)
		free(a);
	return e;
}
