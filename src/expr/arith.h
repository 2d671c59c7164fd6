/* arith.h - exact int64 arithmetic shared by folding and evaluation
 * (internal to expr).  Each returns LEGO_OK and sets *r, or the status of
 * the failure without touching *r. */
#ifndef LEGO_EXPR_ARITH_H
#define LEGO_EXPR_ARITH_H

#include <stdint.h>

#include "lego.h"

static inline int lego_arith_add(int64_t a, int64_t b, int64_t *r)
{
	int64_t t;
	if (__builtin_add_overflow(a, b, &t))
		return LEGO_EOVERFLOW;
	*r = t;
	return LEGO_OK;
}

static inline int lego_arith_mul(int64_t a, int64_t b, int64_t *r)
{
	int64_t t;
	if (__builtin_mul_overflow(a, b, &t))
		return LEGO_EOVERFLOW;
	*r = t;
	return LEGO_OK;
}

/* Floor division and floor modulo, as Python's // and %. */
static inline int lego_arith_div(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0)
		return LEGO_EDIVZERO;
	if (a == INT64_MIN && b == -1)
		return LEGO_EOVERFLOW;
	int64_t q = a / b;
	if (a % b != 0 && ((a < 0) != (b < 0)))
		q--;
	*r = q;
	return LEGO_OK;
}

static inline int lego_arith_mod(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0)
		return LEGO_EDIVZERO;
	if (b == -1) { /* INT64_MIN % -1 traps in C */
		*r = 0;
		return LEGO_OK;
	}
	int64_t m = a % b;
	if (m != 0 && ((m < 0) != (b < 0)))
		m += b;
	*r = m;
	return LEGO_OK;
}

/* Shifts take amounts 0..62; a << s must not overflow (it is a * 2^s);
 * a >> s is floor(a / 2^s). */
static inline int lego_arith_shl(int64_t a, int64_t s, int64_t *r)
{
	if (s < 0 || s >= 63)
		return LEGO_ERANGE;
	return lego_arith_mul(a, (int64_t)1 << s, r);
}

static inline int lego_arith_shr(int64_t a, int64_t s, int64_t *r)
{
	if (s < 0 || s >= 63)
		return LEGO_ERANGE;
	*r = a >= 0 ? a >> s : ~(~a >> s);
	return LEGO_OK;
}

/* floor(sqrt(a)) exactly, for a >= 0. */
int lego_arith_isqrt(int64_t a, int64_t *r);

/* The binary kinds but sums and products (n-ary) and AND/OR (lazy). */
static inline int lego_arith_binary(lego_expr_kind kind, int64_t a,
				    int64_t b, int64_t *r)
{
	switch (kind) {
	case LEGO_DIV: return lego_arith_div(a, b, r);
	case LEGO_MOD: return lego_arith_mod(a, b, r);
	case LEGO_MIN: *r = a < b ? a : b; return LEGO_OK;
	case LEGO_MAX: *r = a > b ? a : b; return LEGO_OK;
	case LEGO_EQ: *r = a == b; return LEGO_OK;
	case LEGO_NE: *r = a != b; return LEGO_OK;
	case LEGO_LT: *r = a < b; return LEGO_OK;
	case LEGO_LE: *r = a <= b; return LEGO_OK;
	case LEGO_AND: *r = a != 0 && b != 0; return LEGO_OK;
	case LEGO_OR: *r = a != 0 || b != 0; return LEGO_OK;
	case LEGO_BAND: *r = a & b; return LEGO_OK;
	case LEGO_BOR: *r = a | b; return LEGO_OK;
	case LEGO_BXOR: *r = a ^ b; return LEGO_OK;
	case LEGO_SHL: return lego_arith_shl(a, b, r);
	case LEGO_SHR: return lego_arith_shr(a, b, r);
	default: return LEGO_ERR;
	}
}

#endif
