/* view.c - Lift's data-layout patterns as views.  A view computes nothing:
 * indexing it rewrites the index, down to a buffer access whose flat index
 * is a LEGO layout applied to the indices (Row of the buffer's shape).
 * split and join are the regroupings of one flat index by a Row layout
 * (apply and its inverse), transpose swaps two indices, slide offsets,
 * pad guards with a mask (or clamps).  Every index is simplified by the
 * project's simplifier with the ranges of the loop indices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

typedef enum {
	VW_MEM, VW_SPLIT, VW_SPLITROW, VW_JOIN, VW_TRANSPOSE, VW_TROW, VW_ZIP,
	VW_SLIDE, VW_OFFS, VW_PAD, VW_MASK, VW_MAP, VW_SINGLE, VW_PERM,
	VW_ASVEC, VW_ASSCAL
} view_kind;

struct lift_view {
	view_kind kind;
	const char *buf;           /* MEM */
	lift_buf *mbuf;            /* MEM: the allocated buffer, or NULL */
	lego_expr **idx;           /* MEM: indices so far */
	size_t nidx;
	lift_val **in;             /* the arrays it views (ZIP: several) */
	size_t nin;
	lego_expr *a;              /* SPLIT(ROW) n; SLIDE step; OFFS offset;
				      PAD l; MASK condition; TROW index;
				      ASVEC, ASSCAL width */
	lego_expr *b;              /* SPLITROW row; SLIDE size */
	int clamp;                 /* PAD */
	lift_val *fill;            /* PAD, MASK: the value outside */
	lift_fun *f;               /* MAP */
	lego_layout *perm;         /* PERM: the index function */
	int inverse;               /* PERM: read through its inverse */
	const lift_ast *at;
};

static lift_view *view_new(lift_cc *cc, view_kind kind, lift_val *in)
{
	lift_view *v = lego_arena_alloc(&cc->ctx->arena, sizeof *v);
	if (!v)
		return NULL;
	v->kind = kind;
	if (in) {
		v->in = lego_arena_alloc(&cc->ctx->arena, sizeof *v->in);
		if (!v->in)
			return NULL;
		v->in[0] = in;
		v->nin = 1;
	}
	return v;
}

lift_view *lift_view_mem(lift_cc *cc, const char *buf)
{
	lift_view *v = view_new(cc, VW_MEM, NULL);
	if (v)
		v->buf = buf;
	return v;
}

lift_view *lift_view_buf(lift_cc *cc, lift_buf *b)
{
	lift_view *v = lift_view_mem(cc, b->name);
	if (v)
		v->mbuf = b;
	return v;
}

lift_buf *lift_view_is_buf(const lift_view *v, lego_expr ***idx, size_t *nidx,
			   lift_type **root)
{
	if (v->kind != VW_MEM || !v->mbuf)
		return NULL;
	*idx = v->idx;
	*nidx = v->nidx;
	*root = v->nidx ? v->in[0]->type : NULL;
	return v->mbuf;
}

int lift_view_reads_params(const lift_view *v)
{
	if (v->kind == VW_MEM)
		return !v->mbuf;
	for (size_t k = 0; k < v->nin; k++)
		if (v->in[k]->kind == VAL_ARRAY &&
		    !lift_view_reads_params(v->in[k]->view))
			return 0;
	return 1;
}

/* Records which work-item reads each coordinate of a buffer: the mapLcl
 * whose index the coordinate is, or a sequential one. */
static void record_read(lift_cc *cc, lift_buf *b, lego_expr **idx, size_t n)
{
	if (cc->probing || b->space != SPACE_LOCAL)
		return;
	for (size_t c = 0; c < n && c < LIFT_MAX_COORDS; c++) {
		lift_buf_touch(b, b->rd, c, lift_loop_thread(cc, idx[c]));
	}
}

const char *lift_print_index(lift_cc *cc, lego_expr *e)
{
	lego_expr *s = e ? lego_simplify(cc->ctx, e) : NULL;
	char *t = s ? lego_expr_print(cc->ctx, s, cc->tgt->lang) : NULL;
	const char *r = t ? lego_arena_strdup(&cc->ctx->arena, t) : NULL;
	free(t);
	return r;
}

/* The shape of a MEM array: the lengths of its nested array types. */
static size_t mem_dims(const lift_type *t, lego_expr **dims, size_t cap)
{
	size_t n = 0;
	while (t->kind == LIFT_ARRAY && n < cap) {
		dims[n++] = t->len;
		t = t->elems[0];
	}
	return n;
}

/* buf[Row(dims)(idx)]: the root type of the buffer is recovered from
 * the element type, so MEM keeps the full shape in its first index. */
static lift_val *mem_get(lift_cc *cc, lift_val *a, lego_expr *i)
{
	lift_view *v = a->view;
	lift_type *et = a->type->elems[0];
	lift_view *w = view_new(cc, VW_MEM, NULL);
	if (!w)
		return NULL;
	w->buf = v->buf;
	w->mbuf = v->mbuf;
	/* in[0]: the whole buffer, for its shape */
	if (v->nin) {
		w->in = v->in;
	} else if ((w->in = lego_arena_alloc(&cc->ctx->arena,
					     sizeof *w->in))) {
		w->in[0] = a;
	} else {
		return NULL;
	}
	w->nin = 1;
	w->nidx = v->nidx + 1;
	w->idx = lego_arena_alloc(&cc->ctx->arena, w->nidx * sizeof *w->idx);
	if (!w->idx)
		return NULL;
	if (v->nidx)
		memcpy(w->idx, v->idx, v->nidx * sizeof *w->idx);
	w->idx[v->nidx] = i;
	if (et->kind == LIFT_ARRAY)
		return lift_val_array(cc, et, w);
	if (et->kind == LIFT_TUPLE)
		return lift_err(cc, NULL, "arrays of tuples in memory are not "
					  "supported yet");
	if (w->mbuf)
		record_read(cc, w->mbuf, w->idx, w->nidx);
	/* the indices as the buffer holds them (private: the work-item's) */
	lego_expr *dims[16], *held[16];
	size_t d = mem_dims(w->in[0]->type, dims, 16);
	memcpy(held, w->idx, (w->nidx < 16 ? w->nidx : 16) * sizeof *held);
	if (w->mbuf && !cc->probing &&
	    lift_buf_private(cc, w->mbuf, held, dims, d, NULL,
			     w->mbuf->at))
		return NULL;
	lego_layout *row = lego_row(cc->ctx, d, dims);
	lego_expr *flat = row ? lego_layout_apply(cc->ctx, row, held) : NULL;
	const char *ix = lift_print_index(cc, flat);
	if (!ix)
		return NULL;
	size_t len = strlen(v->buf) + strlen(ix) + 3;
	char *text = lego_arena_alloc(&cc->ctx->arena, len);
	if (!text)
		return NULL;
	snprintf(text, len, "%s[%s]", v->buf, ix);
	lift_val *r = lift_val_scalar(cc, et->kind, text);
	if (r && !w->mbuf) {
		r->mem = v->buf;
		r->flat = flat;
	}
	return r;
}

/* Outside the condition the value, inside it the fill. */
static lift_val *masked(lift_cc *cc, lift_val *v, lego_expr *cond,
			lift_val *fill, const lift_ast *at)
{
	if (!v)
		return NULL;
	if (v->kind == VAL_ARRAY) {
		lift_view *w = view_new(cc, VW_MASK, v);
		if (!w)
			return NULL;
		w->a = cond;
		w->fill = fill;
		w->at = at;
		return lift_val_array(cc, v->type, w);
	}
	if (v->kind != VAL_SCALAR)
		return lift_err(cc, at, "pad over tuples is not supported yet");
	lego_expr *c = lego_simplify(cc->ctx, cond);
	int64_t k;
	if (c && lego_expr_is_const(c, &k))
		return k ? fill : v;
	const char *ct = lift_print_index(cc, c);
	if (!ct)
		return NULL;
	size_t len = strlen(ct) + strlen(fill->text) + strlen(v->text) + 16;
	char *text = lego_arena_alloc(&cc->ctx->arena, len);
	if (!text)
		return NULL;
	snprintf(text, len, "((%s) ? %s : %s)", ct, fill->text, v->text);
	return lift_val_typed(cc, v->type, text);
}

/* Row(m, n) over the pair (row, col) and its inverse: the regrouping of
 * one flat index that split and join are. */
static lego_layout *row2(lift_cc *cc, lego_expr *m, lego_expr *n)
{
	lego_expr *dims[2] = {m, n};
	return lego_row(cc->ctx, 2, dims);
}

lift_val *lift_view_get(lift_cc *cc, lift_val *a, lego_expr *i)
{
	lego_ctx *ctx = cc->ctx;
	lift_view *v = a->view;
	lift_type *et = a->type->elems[0];
	lift_view *w;
	switch (v->kind) {
	case VW_MEM:
		return mem_get(cc, a, i);
	case VW_SPLIT:
		if (!(w = view_new(cc, VW_SPLITROW, v->in[0])))
			return NULL;
		w->a = v->a;
		w->b = i;
		return lift_val_array(cc, et, w);
	case VW_SPLITROW: {
		lego_expr *m = lego_div(ctx, v->in[0]->type->len, v->a);
		lego_layout *row = row2(cc, m, v->a);
		lego_expr *ij[2] = {v->b, i};
		lego_expr *k = row ? lego_layout_apply(ctx, row, ij) : NULL;
		return k ? lift_view_get(cc, v->in[0], k) : NULL;
	}
	case VW_JOIN: {
		lift_val *in = v->in[0];
		lego_layout *row = row2(cc, in->type->len,
					in->type->elems[0]->len);
		lego_expr *ij[2];
		if (!row || lego_layout_inv(ctx, row, i, ij))
			return NULL;
		lift_val *r = lift_view_get(cc, in, ij[0]);
		return r ? lift_view_get(cc, r, ij[1]) : NULL;
	}
	case VW_TRANSPOSE:
		if (!(w = view_new(cc, VW_TROW, v->in[0])))
			return NULL;
		w->a = i;
		return lift_val_array(cc, et, w);
	case VW_TROW: {
		lift_val *r = lift_view_get(cc, v->in[0], i);
		return r ? lift_view_get(cc, r, v->a) : NULL;
	}
	case VW_ZIP: {
		lift_val **es = lego_arena_alloc(&ctx->arena,
						 v->nin * sizeof *es);
		if (!es)
			return NULL;
		for (size_t k = 0; k < v->nin; k++)
			if (!(es[k] = lift_view_get(cc, v->in[k], i)))
				return NULL;
		return lift_val_tuple(cc, es, v->nin);
	}
	case VW_SLIDE:
		if (!(w = view_new(cc, VW_OFFS, v->in[0])))
			return NULL;
		w->a = lego_mul(ctx, i, v->a);
		return lift_val_array(cc, et, w);
	case VW_OFFS:
		return lift_view_get(cc, v->in[0], lego_add(ctx, v->a, i));
	case VW_PAD: {
		lift_val *in = v->in[0];
		lego_expr *j = lego_sub(ctx, i, v->a);
		if (v->clamp) {
			lego_expr *hi = lego_sub(ctx, in->type->len,
						 lego_const(ctx, 1));
			j = lego_min(ctx, lego_max(ctx, j, lego_const(ctx, 0)),
				     hi);
			return lift_view_get(cc, in, j);
		}
		lego_expr *out = lego_binop(
			ctx, LEGO_OR, lego_binop(ctx, LEGO_LT, i, v->a),
			lego_binop(ctx, LEGO_LE,
				   lego_add(ctx, in->type->len, v->a), i));
		return masked(cc, lift_view_get(cc, in, j), out, v->fill, v->at);
	}
	case VW_MASK:
		return masked(cc, lift_view_get(cc, v->in[0], i), v->a,
			      v->fill, v->at);
	case VW_MAP: {
		lift_val *x = lift_view_get(cc, v->in[0], i);
		return x ? lift_apply(cc, v->f, &x, 1) : NULL;
	}
	case VW_SINGLE:
		return v->fill;
	case VW_ASVEC: {
		/* (x[w i], .., x[w i + w - 1]) */
		int64_t wd = 0;
		lift_val *xs[16];
		lego_expr_is_const(v->a, &wd);
		for (int64_t k = 0; k < wd; k++) {
			xs[k] = lift_view_get(cc, v->in[0], lego_add(ctx,
				lego_mul(ctx, i, v->a), lego_const(ctx, k)));
			if (!xs[k])
				return NULL;
		}
		return lift_vec_load(cc, et->kind, xs, (int)wd, v->at);
	}
	case VW_ASSCAL: {
		/* component j % w of vector j / w: named when constant, else
		 * chosen among all */
		int64_t wd = 0, c;
		lego_expr_is_const(v->a, &wd);
		lift_val *x = lift_view_get(cc, v->in[0], lego_div(ctx, i, v->a));
		lego_expr *ce = lego_simplify(ctx, lego_mod(ctx, i, v->a));
		if (!x || !ce)
			return NULL;
		if (lego_expr_is_const(ce, &c)) {
			const char *t = lift_vec_comp(cc, x, (int)c);
			return t ? lift_val_scalar(cc, et->kind, t) : NULL;
		}
		const char *cs = lift_print_index(cc, ce);
		lego_sbuf b = {0};
		for (int64_t k = 0; cs && k < wd; k++) {
			const char *t = lift_vec_comp(cc, x, (int)k);
			if (k + 1 < wd)
				lego_sbuf_printf(&b, "(%s) == %lld ? %s : ", cs,
						 (long long)k, t ? t : "?");
			else
				lego_sbuf_printf(&b, "%s", t ? t : "?");
		}
		char *s = lego_sbuf_take(&b);
		const char *text = s ? lego_arena_strdup(&ctx->arena, s) : NULL;
		free(s);
		size_t len = text ? strlen(text) + 3 : 0;
		char *p = len ? lego_arena_alloc(&ctx->arena, len) : NULL;
		if (!p)
			return NULL;
		snprintf(p, len, "(%s)", text);
		return lift_val_scalar(cc, et->kind, p);
	}
	case VW_PERM: {
		lego_expr *j = lift_index_map(cc, v->perm, i, v->inverse);
		return j ? lift_view_get(cc, v->in[0], j) : NULL;
	}
	}
	return NULL;
}

lift_val *lift_view_map(lift_cc *cc, lift_fun *f, lift_val *a,
			const lift_ast *at)
{
	if (a->kind != VAL_ARRAY)
		return lift_err(cc, at, "map over a value that is not an array");
	/* The element type: f applied to a symbolic element; the code this
	 * emits is thrown away (each access re-applies f). */
	size_t mark = cc->out.len;
	char name[32];
	cc->probing++;
	lego_expr *i = lift_fresh_index(cc, a->type->len, name, sizeof name);
	lift_val *x = i ? lift_view_get(cc, a, i) : NULL;
	lift_val *y = x ? lift_apply(cc, f, &x, 1) : NULL;
	cc->probing--;
	lift_out_truncate(cc, mark);
	if (!y || y->kind == VAL_FUN)
		return y ? lift_err(cc, at, "map's function returns a function")
			 : NULL;
	lift_view *w = view_new(cc, VW_MAP, a);
	lift_type *t = lift_type_array(cc->ctx, y->type, a->type->len);
	if (!w || !t)
		return NULL;
	w->f = f;
	return lift_val_array(cc, t, w);
}

lift_val *lift_view_const(lift_cc *cc, lift_val *v, lego_expr *n)
{
	if (v->kind == VAL_FUN)
		return lift_err(cc, NULL, "an array of functions");
	lift_view *w = view_new(cc, VW_SINGLE, NULL);
	lift_type *t = lift_type_array(cc->ctx, v->type, n);
	if (!w || !t)
		return NULL;
	w->fill = v;
	return lift_val_array(cc, t, w);
}

lift_val *lift_view_single(lift_cc *cc, lift_val *scalar)
{
	return lift_view_const(cc, scalar, lego_const(cc->ctx, 1));
}

int lift_divides(lego_ctx *ctx, lego_expr *a, lego_expr *b)
{
	lego_expr *r = lego_simplify(ctx, lego_mod(ctx, b, a));
	int64_t k;
	return r && lego_expr_is_const(r, &k) && k == 0;
}

static char *tprint(lift_cc *cc, const lift_type *t)
{
	char *s = lift_type_print(cc->ctx, t);
	char *r = s ? lego_arena_strdup(&cc->ctx->arena, s) : NULL;
	free(s);
	return r ? r : "?";
}

static const char *eprint(lift_cc *cc, lego_expr *e)
{
	char *s = lego_expr_print(cc->ctx, e, LEGO_LANG_C);
	const char *r = s ? lego_arena_strdup(&cc->ctx->arena, s) : NULL;
	free(s);
	return r ? r : "?";
}

int lift_split_check(lift_cc *cc, const lift_fun *split, lego_expr *len)
{
	if (lift_divides(cc->ctx, split->sz[0], len))
		return 0;
	const char *n = eprint(cc, split->sz[0]), *l = eprint(cc, len);
	lego_expr *rem = lego_simplify(cc->ctx, lego_mod(cc->ctx, len,
							 split->sz[0]));
	int64_t k;
	if (cc->p->as_template && rem && !lego_expr_is_const(rem, &k)) {
		/* the tuner's constraint (a remainder known not to be 0 stays
		 * an error); assumed from here on */
		lego_sbuf b = {0};
		lego_sbuf_printf(&b, "(%s) %% (%s) == 0\n", l, n);
		char *line = lego_sbuf_take(&b);
		const char *have = cc->assumed.s ? cc->assumed.s : "";
		if (line && !strstr(have, line))
			lego_sbuf_puts(&cc->assumed, line);
		free(line);
		return lego_assume_divides(cc->ctx, split->sz[0], len) ? -1 : 0;
	}
	lift_err(cc, split->at, "%s(%s) of an array of length %s: cannot "
		 "prove that %s divides %s (state it with `assume %s | %s;`)",
		 split->pat == PAT_ASVECTOR ? "asVector" : "split", n, l, n, l,
		 n, l);
	return -1;
}

lift_type *lift_split_type(lift_cc *cc, const lift_fun *split,
			   lift_type *t)
{
	lego_ctx *ctx = cc->ctx;
	lego_expr *n = split->sz[0];
	if (t->kind != LIFT_ARRAY)
		return lift_err(cc, split->at, "split of %s: not an array",
				tprint(cc, t));
	if (lift_split_check(cc, split, t->len))
		return NULL;
	return lift_type_array(ctx, lift_type_array(ctx, t->elems[0], n),
			       lego_div(ctx, t->len, n));
}

lift_val *lift_view_pattern(lift_cc *cc, const lift_fun *pat,
			    lift_val **args, const lift_ast *at)
{
	lego_ctx *ctx = cc->ctx;
	lift_val *a = args[0];
	if (pat->pat == PAT_GET) {
		if (a->kind != VAL_TUPLE || pat->k < 0 ||
		    (size_t)pat->k >= a->nelems)
			return lift_err(cc, at, "get(%lld) of a value of type %s",
					(long long)pat->k,
					a->type ? tprint(cc, a->type) : "function");
		return a->elems[pat->k];
	}
	for (size_t k = 0; k < pat->ndata; k++)
		if (args[k]->kind != VAL_ARRAY)
			return lift_err(cc, at, "expected an array, got %s",
					args[k]->type ? tprint(cc, args[k]->type)
						      : "a function");
	lift_type *t = a->type, *et = t->elems[0], *rt = NULL;
	lift_view *w = NULL;
	switch (pat->pat) {
	case PAT_SPLIT:
		if (!(rt = lift_split_type(cc, pat, t)))
			return NULL;
		w = view_new(cc, VW_SPLIT, a);
		if (w)
			w->a = pat->sz[0];
		break;
	case PAT_JOIN:
	case PAT_TRANSPOSE:
		if (et->kind != LIFT_ARRAY)
			return lift_err(cc, at, "%s of %s: not an array of arrays",
					pat->pat == PAT_JOIN ? "join" : "transpose",
					tprint(cc, t));
		if (pat->pat == PAT_JOIN) {
			w = view_new(cc, VW_JOIN, a);
			rt = lift_type_array(ctx, et->elems[0],
					     lego_mul(ctx, t->len, et->len));
		} else {
			w = view_new(cc, VW_TRANSPOSE, a);
			rt = lift_type_array(ctx, lift_type_array(ctx, et->elems[0],
								  t->len),
					     et->len);
		}
		break;
	case PAT_ZIP: {
		lift_type **ets = lego_arena_alloc(&ctx->arena,
						   pat->ndata * sizeof *ets);
		if (!ets || !(w = view_new(cc, VW_ZIP, NULL)))
			return NULL;
		for (size_t k = 0; k < pat->ndata; k++) {
			lego_expr *d = lego_simplify(
				ctx, lego_sub(ctx, t->len, args[k]->type->len));
			int64_t z;
			if (!d || !lego_expr_is_const(d, &z) || z != 0)
				return lift_err(cc, at, "zip of arrays of different "
						"lengths: %s and %s",
						tprint(cc, t),
						tprint(cc, args[k]->type));
			ets[k] = args[k]->type->elems[0];
		}
		w->in = args;
		w->nin = pat->ndata;
		rt = lift_type_array(ctx, lift_type_tuple(ctx, ets, pat->ndata),
				     t->len);
		break;
	}
	case PAT_SLIDE: {
		/* (N - size) / step + 1 windows; step must fit exactly. */
		lego_expr *span = lego_sub(ctx, t->len, pat->sz[0]);
		if (!lego_prove_nonneg(ctx, span) ||
		    !lift_divides(ctx, pat->sz[1], span))
			return lift_err(cc, at, "slide(%s, %s) of %s: cannot prove "
					"the windows tile the array",
					eprint(cc, pat->sz[0]), eprint(cc, pat->sz[1]),
					tprint(cc, t));
		w = view_new(cc, VW_SLIDE, a);
		rt = lift_type_array(ctx, lift_type_array(ctx, et, pat->sz[0]),
				     lego_add(ctx, lego_div(ctx, span, pat->sz[1]),
					      lego_const(ctx, 1)));
		if (w)
			w->a = pat->sz[1];
		break;
	}
	case PAT_PAD: {
		lift_type *st = et;
		while (st->kind == LIFT_ARRAY)
			st = st->elems[0];
		if (!pat->clamp && st->kind <= LIFT_INT && st->width > 1)
			return lift_err(cc, at, "pad of %s with a value: pad the "
					"scalars before asVector", tprint(cc, t));
		if (!pat->clamp && st->kind != pat->init->type->kind)
			return lift_err(cc, at, "pad value of type %s for %s",
					tprint(cc, pat->init->type), tprint(cc, t));
		w = view_new(cc, VW_PAD, a);
		rt = lift_type_array(ctx, et,
				     lego_add(ctx, t->len,
					      lego_add(ctx, pat->sz[0], pat->sz[1])));
		if (w) {
			w->a = pat->sz[0];
			w->clamp = pat->clamp;
			w->fill = pat->init;
			w->at = at;
		}
		break;
	}
	case PAT_ASVECTOR: {
		/* [T]n -> [Tw](n/w), w | n */
		int64_t width = 0;
		if (!lego_expr_is_const(pat->sz[0], &width) ||
		    (width != 2 && width != 4 && width != 8 && width != 16) ||
		    width > cc->tgt->max_width)
			return lift_err(cc, at, "asVector(%s): the width must be "
					"2, 4%s", eprint(cc, pat->sz[0]),
					cc->tgt->max_width > 4 ? ", 8 or 16"
							       : " (CUDA)");
		if (et->kind > LIFT_INT || et->width > 1)
			return lift_err(cc, at, "asVector of %s: not an array of "
					"scalars", tprint(cc, t));
		if (lift_split_check(cc, pat, t->len))
			return NULL;
		rt = lift_type_array(ctx, lift_type_vector(ctx, et->kind,
							   (int)width),
				     lego_div(ctx, t->len, pat->sz[0]));
		if ((w = view_new(cc, VW_ASVEC, a))) {
			w->a = pat->sz[0];
			w->at = at;
		}
		break;
	}
	case PAT_ASSCALAR:
		/* [Tw]n -> [T](n*w) */
		if (et->kind > LIFT_INT || et->width < 2)
			return lift_err(cc, at, "asScalar of %s: not an array of "
					"vectors", tprint(cc, t));
		rt = lift_type_array(ctx, lift_type_scalar(ctx, et->kind),
				     lego_mul(ctx, t->len,
					      lego_const(ctx, et->width)));
		if ((w = view_new(cc, VW_ASSCAL, a)))
			w->a = lego_const(ctx, et->width);
		break;
	case PAT_GATHER:
	case PAT_SCATTER:
		/* gather reads x[f(i)]; scatter puts x[j] at f(j) */
		rt = t;
		if (!(w = view_new(cc, VW_PERM, a)) ||
		    !(w->perm = lift_index_layout(cc, pat, t->len)))
			return NULL;
		w->inverse = pat->pat == PAT_SCATTER;
		break;
	default:
		return lift_err(cc, at, "%s is not implemented yet",
				at && at->name ? at->name : "this pattern");
	}
	return w && rt ? lift_val_array(cc, rt, w) : NULL;
}
