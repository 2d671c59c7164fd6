/* elem.c - a built-in runner's buffer elements: the types' names and
 * sizes, the inputs, the poison of the outputs and the check of a
 * candidate's outputs against the reference's (floats within a relative
 * tolerance, integers exactly). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tune/launch.h"

int lego_tune_elem_parse(const char *s, size_t len, lego_tune_elem *out)
{
	static const char names[][4] = {"f32", "f16", "i32", "i64"};
	static const lego_tune_elem elems[] = {LEGO_TUNE_F32, LEGO_TUNE_F16,
					       LEGO_TUNE_I32, LEGO_TUNE_I64};
	for (size_t i = 0; i < sizeof elems / sizeof *elems; i++)
		if (len == 3 && !strncmp(s, names[i], 3)) {
			*out = elems[i];
			return 0;
		}
	return -1;
}

size_t tune_elem_bytes(lego_tune_elem e)
{
	return e == LEGO_TUNE_F16 ? 2 : e == LEGO_TUNE_I64 ? 8 : 4;
}

/* IEEE half from a float that is a small integer or NaN (the only values
 * written), and back for any half. */
static uint16_t to_half(float f)
{
	if (isnan(f))
		return 0x7e00;
	uint16_t sign = f < 0 ? 0x8000 : 0;
	float a = fabsf(f);
	if (a == 0)
		return sign;
	int e;
	float m = frexpf(a, &e); /* a = m 2^e, m in [0.5, 1) */
	return (uint16_t)(sign | (uint16_t)((e + 14) << 10) |
			  (uint16_t)((int)(m * 2048.0f) & 0x3ff));
}

static float from_half(uint16_t h)
{
	int e = h >> 10 & 0x1f, m = h & 0x3ff;
	float v = e == 0    ? ldexpf((float)m, -24)
		  : e == 31 ? (m ? NAN : INFINITY)
			    : ldexpf((float)(m | 0x400), e - 25);
	return h & 0x8000 ? -v : v;
}

static float value_at(lego_tune_elem e, const void *buf, size_t i)
{
	return e == LEGO_TUNE_F16 ? from_half(((const uint16_t *)buf)[i])
				  : ((const float *)buf)[i];
}

static int64_t int_at(lego_tune_elem e, const void *buf, size_t i)
{
	return e == LEGO_TUNE_I64 ? ((const int64_t *)buf)[i]
				  : ((const int32_t *)buf)[i];
}

/* Element i of buf = v, a small integer (any type) or NaN (a float's
 * poison; an integer's is its type's least value). */
static void set_value(lego_tune_elem e, void *buf, size_t i, float v)
{
	if (e == LEGO_TUNE_F16)
		((uint16_t *)buf)[i] = to_half(v);
	else if (e == LEGO_TUNE_F32)
		((float *)buf)[i] = v;
	else if (e == LEGO_TUNE_I32)
		((int32_t *)buf)[i] = isnan(v) ? INT32_MIN : (int32_t)v;
	else
		((int64_t *)buf)[i] = isnan(v) ? INT64_MIN : (int64_t)v;
}

void tune_fill_input(lego_tune_elem e, void *buf, size_t n, size_t arg)
{
	for (size_t i = 0; i < n; i++)
		set_value(e, buf, i, (float)((i * 5 + arg * 3) % 7) - 3);
}

void tune_fill_poison(lego_tune_elem e, void *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		set_value(e, buf, i, NAN);
}

/* Integers: equal, and not the poison (an element left unwritten fails
 * even where the reference left it too, as NaN does). */
static int check_ints(lego_tune_elem e, const char *arg, const void *got,
		      const void *want, size_t n, char *why, size_t cap)
{
	int64_t poison = e == LEGO_TUNE_I64 ? INT64_MIN : INT32_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t g = int_at(e, got, i), w = int_at(e, want, i);
		if (g != w || g == poison) {
			snprintf(why, cap, "wrong result: %s[%zu] = %lld%s, the "
				 "reference says %lld", arg, i, (long long)g,
				 g == poison ? " (not written)" : "",
				 (long long)w);
			return -1;
		}
	}
	return 0;
}

int tune_check(lego_tune_elem e, double tolerance, const char *arg,
	       const void *got, const void *want, size_t n, char *why,
	       size_t cap)
{
	if (e == LEGO_TUNE_I32 || e == LEGO_TUNE_I64)
		return check_ints(e, arg, got, want, n, why, cap);
	double tol = tolerance > 0 ? tolerance
		     : e == LEGO_TUNE_F16 ? 2e-2 : 1e-3;
	for (size_t i = 0; i < n; i++) {
		float g = value_at(e, got, i);
		float w = value_at(e, want, i);
		if (!(fabs((double)g - w) <= tol * (fabs((double)w) + 1))) {
			snprintf(why, cap, "wrong result: %s[%zu] = %g, the "
				 "reference says %g", arg, i, g, w);
			return -1;
		}
	}
	return 0;
}
