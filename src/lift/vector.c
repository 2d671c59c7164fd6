/* vector.c - OpenCL's vector types (float2 .. float16; CUDA's float2,
 * float4): asVector(w) builds each vector of w consecutive elements,
 * asScalar reads a component, mapVec(f) applies a scalar function to
 * each component, and a vector is stored as its w components.  Vectors
 * are built and taken apart component by component, through whatever
 * views lie below, so they are exact on any view; their texts use the
 * target's spelling ((float4)(a, b, c, d) and .s0 in OpenCL,
 * make_float4(a, b, c, d) and .x in CUDA). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

static const char *arena_text(lift_cc *cc, lego_sbuf *b)
{
	char *s = lego_sbuf_take(b);
	const char *r = s ? lego_arena_strdup(&cc->ctx->arena, s) : NULL;
	free(s);
	return r;
}

const char *lift_vec_comp(lift_cc *cc, const lift_val *v, int k)
{
	if (v->comps)
		return v->comps[k];
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "(%s).%s%c", v->text,
			 cc->target == LIFT_TARGET_OPENCL ? "s" : "",
			 cc->tgt->comps[k]);
	return arena_text(cc, &b);
}

lift_val *lift_vec_make(lift_cc *cc, lift_type_kind kind, int w,
			const char **comps)
{
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, cc->tgt->vec_open,
			 kind == LIFT_INT ? "int" : "float", w);
	for (int k = 0; k < w; k++)
		lego_sbuf_printf(&b, "%s%s", k ? ", " : "", comps[k]);
	lego_sbuf_puts(&b, ")");
	const char *t = arena_text(cc, &b);
	lift_val *v = t ? lift_val_typed(cc, lift_type_vector(cc->ctx, kind, w),
					 t) : NULL;
	const char **cs = v ? lego_arena_alloc(&cc->ctx->arena,
					       (size_t)w * sizeof *cs) : NULL;
	if (!cs)
		return NULL;
	memcpy(cs, comps, (size_t)w * sizeof *cs);
	v->comps = cs;
	return v;
}

/* A vector argument or a tuple of them: its width, or 0. */
static int width_of(const lift_val *v)
{
	if (v->kind == VAL_SCALAR)
		return v->type->width;
	if (v->kind != VAL_TUPLE || !v->nelems)
		return 0;
	int w = width_of(v->elems[0]);
	for (size_t k = 1; k < v->nelems; k++)
		if (width_of(v->elems[k]) != w || v->elems[k]->kind != VAL_SCALAR)
			return 0;
	return v->elems[0]->kind == VAL_SCALAR ? w : 0;
}

/* Component k of a vector, or the tuple of the components k of a tuple
 * of vectors. */
static lift_val *component(lift_cc *cc, const lift_val *v, int k)
{
	if (v->kind == VAL_SCALAR) {
		const char *t = lift_vec_comp(cc, v, k);
		return t ? lift_val_scalar(cc, v->type->kind, t) : NULL;
	}
	lift_val *t = lego_arena_alloc(&cc->ctx->arena, sizeof *t);
	lift_val **es = lego_arena_alloc(&cc->ctx->arena,
					 v->nelems * sizeof *es);
	if (!t || !es)
		return NULL;
	*t = *v;
	t->elems = es;
	for (size_t e = 0; e < v->nelems; e++)
		if (!(es[e] = component(cc, v->elems[e], k)))
			return NULL;
	return t;
}

lift_val *lift_map_vec(lift_cc *cc, const lift_fun *f, lift_val **args,
		       size_t n)
{
	int w = n == 1 ? width_of(args[0]) : 0;
	if (w < 2)
		return lift_err(cc, f->at, "mapVec over a value that is not a "
					   "vector (or a tuple of vectors of one "
					   "width)");
	const char *comps[16];
	lift_type_kind kind = LIFT_FLOAT;
	for (int k = 0; k < w; k++) {
		lift_val *x = component(cc, args[0], k);
		lift_val *y = x ? lift_apply(cc, f->f, &x, 1) : NULL;
		if (!y)
			return NULL;
		if (y->kind != VAL_SCALAR || y->type->width > 1)
			return lift_err(cc, f->at, "mapVec's function must "
					"return a scalar");
		kind = y->type->kind;
		comps[k] = y->text;
	}
	return lift_vec_make(cc, kind, w, comps);
}
