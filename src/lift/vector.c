/* vector.c - OpenCL's vector types (float2 .. float16; CUDA's float2,
 * float4): asVector(w) builds each vector of w consecutive elements,
 * asScalar reads a component, mapVec(f) applies a scalar function to
 * each component, and a vector is stored as its w components.  Vectors
 * are built and taken apart component by component, through whatever
 * views lie below, so they are exact on any view; their texts use the
 * target's spelling ((float4)(a, b, c, d) and .s0 in OpenCL,
 * make_float4(a, b, c, d) and .x in CUDA).
 *
 * In global memory a vector is one access: where asVector's w reads are
 * w consecutive elements of a kernel parameter starting at a multiple of
 * w (proved by the simplifier), they are one aligned vector load (on a
 * GPU one 8- or 16-byte access, which nvcc cannot merge by itself: it
 * cannot prove the alignment), and a vector stored at w consecutive
 * elements of the result so aligned is one vector store.  The kernel's
 * buffers must be aligned to their vectors' size, as clCreateBuffer and
 * cudaMalloc give them.  A run whose start cannot be proved a multiple
 * of w is an error: the proof is the only thing making the access
 * legal. */
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

lift_val **lift_vec_components(lift_cc *cc, const lift_val *v)
{
	int w = v->type->width;
	lift_val **cs = lego_arena_alloc(&cc->ctx->arena,
					 (size_t)w * sizeof *cs);
	for (int k = 0; cs && k < w; k++)
		if (!(cs[k] = component(cc, v, k)))
			return NULL;
	return cs;
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

static const char *scalar_name(lift_type_kind kind)
{
	return kind == LIFT_INT ? "int" : "float";
}

/* flats[k] - flats[0] == k for every k. */
static int consecutive(lift_cc *cc, const char **bufs, lego_expr **flats,
		       int w)
{
	for (int k = 0; k < w; k++) {
		if (!bufs[k] || !flats[k] || strcmp(bufs[k], bufs[0]))
			return 0;
		lego_expr *d = lego_simplify(cc->ctx, lego_sub(cc->ctx,
							       flats[k],
							       flats[0]));
		int64_t c;
		if (!d || !lego_expr_is_const(d, &c) || c != k)
			return 0;
	}
	return 1;
}

int lift_vec_run(lift_cc *cc, const char **bufs, lego_expr **flats, int w,
		 const lift_ast *at)
{
	if (!consecutive(cc, bufs, flats, w))
		return 0;
	/* simplified first: the remainder of the raw sum may not simplify */
	lego_expr *f0 = lego_simplify(cc->ctx, flats[0]);
	if (f0 && lift_divides(cc->ctx, lego_const(cc->ctx, w), f0))
		return 1;
	const char *f = lift_print_index(cc, flats[0]);
	lift_err(cc, at, "a vector of %d consecutive elements of %s from %s: "
		 "cannot prove that %d divides %s (an aligned vector access needs "
		 "it: an `assume` on the sizes, or no vector)", w,
		 bufs[0], f ? f : "?", w, f ? f : "?");
	return -1;
}

/* Whether the kernel's text so far ends with line. */
static int ends_with(const lego_sbuf *b, const char *line)
{
	size_t n = strlen(line);
	return b->s && b->len >= n && !strcmp(b->s + b->len - n, line);
}

/* "ty%d NAME = *(ty%d *)(buf + f);\n" (f may hold a '%': not a format). */
static const char *load_line(lift_cc *cc, const char *name, lift_type_kind kind,
			     int w, const char *buf, const char *f)
{
	const char *ty = scalar_name(kind);
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "%s%d %s = *(%sconst %s%d *)(%s + ", ty, w, name,
			 cc->tgt->global, ty, w, buf);
	lego_sbuf_puts(&b, f);
	lego_sbuf_puts(&b, ");\n");
	return arena_text(cc, &b);
}

/* The variable holding the vector at buf + f: a new one, or that of the
 * same load when it is the last line emitted (same block, nothing stored
 * since). */
static const char *load(lift_cc *cc, lift_type_kind kind, int w,
			const char *buf, const char *f)
{
	if (cc->load_name) {
		const char *line = load_line(cc, cc->load_name, kind, w, buf, f);
		if (!line)
			return NULL;
		if (ends_with(&cc->out, line))
			return cc->load_name;
	}
	char name[32];
	snprintf(name, sizeof name, LIFT_NAME_VEC "%d", cc->nvars++);
	const char *line = load_line(cc, name, kind, w, buf, f);
	if (!line || !(cc->load_name = lego_arena_strdup(&cc->ctx->arena,
							 name)))
		return NULL;
	lift_indent(cc, &cc->out);
	lego_sbuf_puts(&cc->out, line);
	return cc->load_name;
}

lift_val *lift_vec_load(lift_cc *cc, lift_type_kind kind, lift_val **xs,
			int w, const lift_ast *at)
{
	const char *bufs[16], *texts[16];
	lego_expr *flats[16];
	for (int k = 0; k < w; k++) {
		bufs[k] = xs[k]->mem;
		flats[k] = xs[k]->flat;
		texts[k] = xs[k]->text;
	}
	int run = lift_vec_run(cc, bufs, flats, w, at);
	if (run <= 0)
		return run ? NULL : lift_vec_make(cc, kind, w, texts);
	const char *f = lift_print_index(cc, flats[0]);
	const char *t = f ? load(cc, kind, w, bufs[0], f) : NULL;
	return t ? lift_val_typed(cc, lift_type_vector(cc->ctx, kind, w), t)
		 : NULL;
}

void lift_vec_store(lift_cc *cc, const lift_val *v, const char *f)
{
	const char *ty = scalar_name(v->type->kind);
	int w = v->type->width;
	lift_emit(cc, "*(%s%s%d *)(out + %s) = %s;", cc->tgt->global, ty, w, f,
		  v->text);
	cc->stores++;
}
