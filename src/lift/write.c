/* write.c - the push side of the compiler: an expression whose result is
 * stored.  Parallel and sequential maps become loops (mapGlb, mapWrg,
 * mapLcl over get_global_id, get_group_id, get_local_id; mapSeq a plain
 * loop); join, split and transpose on the written side become a
 * regrouping of the destination's indices (the inverse view); a
 * reduction's accumulator is private memory, the only memory allocated
 * since the only other writes are user functions storing the result. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

void lift_indent(const lift_cc *cc, lego_sbuf *b)
{
	for (int i = 0; i < cc->indent; i++)
		lego_sbuf_puts(b, "\t");
}

void lift_emit(lift_cc *cc, const char *fmt, ...)
{
	va_list ap;
	lift_indent(cc, &cc->out);
	va_start(ap, fmt);
	lego_sbuf_vprintf(&cc->out, fmt, ap);
	va_end(ap);
	lego_sbuf_puts(&cc->out, "\n");
}

/* The rounds of a reduceSeq over a: one loop (1 round), or for
 * reduceSeqUnroll one block a round, its index the round's constant so
 * that the views' accesses simplify (Lift's loop unrolling); -1 after an
 * error.  Unrolling needs a constant length, bounded to keep the code
 * small. */
enum { UNROLL_MAX = 1024 };

static int64_t seq_rounds(lift_cc *cc, const lift_fun *f, const lift_val *a)
{
	if (!f->unroll)
		return 1;
	lego_expr *ne = lego_simplify(cc->ctx, a->type->len);
	int64_t n;
	if (!ne || !lego_expr_is_const(ne, &n) || n < 0 || n > UNROLL_MAX) {
		lift_err(cc, f->at, "reduceSeqUnroll needs a constant length "
			 "from 0 to %d", UNROLL_MAX);
		return -1;
	}
	return n;
}

/* Opens round r: the loop, or a block; returns the round's index.  acc:
 * the accumulator's buffer (NULL: scalar variables), for reduceSeqPipe. */
static lego_expr *seq_open(lift_cc *cc, const lift_fun *f,
			   const lift_val *a, int64_t r, const char *acc)
{
	if (f->unroll) {
		lift_emit(cc, "{");
		cc->indent++;
		return lego_const(cc->ctx, r);
	}
	char name[32];
	lego_expr *i = lift_fresh_index(cc, a->type->len, name, sizeof name);
	const char *len = lift_print_index(cc, a->type->len);
	if (!i || !len)
		return NULL;
	if (f->pipe) {
		const char *nm = lego_arena_strdup(&cc->ctx->arena, name);
		return nm && !lift_pipe_open(cc, f, i, nm, len, acc) ? i : NULL;
	}
	return lift_loop_open(cc, PAT_MAPSEQ, 0, i, name, len) ? NULL : i;
}

static int seq_close(lift_cc *cc, const lift_fun *f)
{
	if (f->pipe)
		return lift_pipe_close(cc);
	if (!f->unroll) {
		lift_loop_close(cc);
		return 0;
	}
	cc->indent--;
	lift_emit(cc, "}");
	return 0;
}

/* reduceSeq with an array accumulator (an allocated buffer, or a
 * sub-array of one at idx, a work-item's block): f's result is stored
 * into it in place, round after round. */
static lift_val *reduce_into(lift_cc *cc, const lift_fun *f, lift_val *a,
			     lift_buf *b, lego_expr **idx, size_t nidx,
			     const lift_type *root)
{
	int64_t rounds = seq_rounds(cc, f, a);
	b->in_place = 1;
	for (int64_t r = 0; r < rounds; r++) {
		lego_expr *i = seq_open(cc, f, a, r, b->name);
		if (!i)
			return NULL;
		lift_val *args[2] = {f->init, lift_view_get(cc, a, i)};
		lift_type *t = args[1] ? lift_store_at(cc, f->f, args, 2, b,
						       idx, nidx, root, f->at)
				       : NULL;
		if (!t)
			return NULL;
		if (!lift_type_equal(cc->ctx, t, f->init->type))
			return lift_err(cc, f->at, "reduceSeq's function must "
					"return the type of its initial value");
		if (b->space == SPACE_LOCAL)
			lift_barrier_emit(cc, b);
		if (seq_close(cc, f))
			return NULL;
	}
	return rounds < 0 ? NULL : f->init;
}

/* One round of a reduceSeq with scalar accumulators av[0..n) (acc: av[0]
 * or their tuple): acc = f(acc, a[i]). */
static int reduce_round(lift_cc *cc, const lift_fun *f, lift_val *a,
			lift_val *acc, lift_val **av, size_t n, int64_t r)
{
	int tup = acc->kind == VAL_TUPLE;
	lego_expr *i = seq_open(cc, f, a, r, NULL);
	lift_val *args[2] = {acc, i ? lift_view_get(cc, a, i) : NULL};
	lift_val *y = args[1] ? lift_apply(cc, f->f, args, 2) : NULL;
	if (!y)
		return -1;
	lift_val *const *yv = y->kind == VAL_TUPLE ? y->elems : &y;
	int same = (y->kind == VAL_TUPLE) == tup &&
		   (tup ? y->nelems : 1) == n;
	for (size_t k = 0; same && k < n; k++)
		same = yv[k]->kind == VAL_SCALAR && yv[k]->type->width <= 1 &&
		       yv[k]->type->kind == av[k]->type->kind;
	if (!same) {
		lift_err(cc, f->at, "reduceSeq's function must return the type "
			 "of its initial value");
		return -1;
	}
	if (n == 1) {
		lift_emit(cc, "%s = %s;", av[0]->text, y->text);
	} else {
		/* every component from the previous round's values */
		int first = cc->nvars;
		for (size_t k = 0; k < n; k++)
			lift_emit(cc, "%s " LIFT_NAME_ACC "%d = %s;",
				  av[k]->type->kind == LIFT_FLOAT ? "float" : "int",
				  cc->nvars++, yv[k]->text);
		for (size_t k = 0; k < n; k++)
			lift_emit(cc, "%s = " LIFT_NAME_ACC "%d;", av[k]->text,
				  first + (int)k);
	}
	return seq_close(cc, f);
}

lift_val *lift_reduce_seq(lift_cc *cc, const lift_fun *f, lift_val *a)
{
	if (a->kind != VAL_ARRAY)
		return lift_err(cc, f->at, "reduceSeq over a value that is not "
					   "an array");
	if (f->init->kind == VAL_ARRAY) {
		lego_expr **idx;
		size_t nidx;
		lift_type *root;
		lift_buf *b = lift_view_is_buf(f->init->view, &idx, &nidx, &root);
		if (!b)
			return lift_err(cc, f->at, "reduceSeq's initial array "
					"must be written to memory: toLocal(...) "
					"or toPrivate(...)");
		return reduce_into(cc, f, a, b, idx, nidx, root);
	}
	/* a scalar accumulator, or a tuple of them (one variable each) */
	int tup = f->init->kind == VAL_TUPLE;
	size_t n = tup ? f->init->nelems : 1;
	lift_val *const *iv = tup ? f->init->elems : &f->init;
	lift_val **av = lego_arena_alloc(&cc->ctx->arena, n * sizeof *av);
	if (!av)
		return NULL;
	for (size_t k = 0; k < n; k++) {
		if (iv[k]->kind != VAL_SCALAR || iv[k]->type->width > 1)
			return lift_err(cc, f->at, "reduceSeq's initial value must "
					"be a scalar, a tuple of scalars or an "
					"array");
		char acc[32];
		snprintf(acc, sizeof acc, LIFT_NAME_ACC "%d", cc->nvars++);
		lift_type_kind kk = iv[k]->type->kind;
		if (!(av[k] = lift_val_scalar(cc, kk, lego_arena_strdup(
						      &cc->ctx->arena, acc))))
			return NULL;
		lift_emit(cc, "%s %s = %s;", kk == LIFT_FLOAT ? "float" : "int",
			  acc, iv[k]->text);
	}
	lift_val *acc = tup ? lift_val_tuple(cc, av, n) : av[0];
	int64_t rounds = acc ? seq_rounds(cc, f, a) : -1;
	for (int64_t r = 0; r < rounds; r++)
		if (reduce_round(cc, f, a, acc, av, n, r))
			return NULL;
	return rounds < 0 ? NULL : lift_view_single(cc, acc);
}

/* ------------------------------------------------------------ destinations */

typedef enum { D_MEM, D_IDX, D_JOIN, D_SPLIT, D_TRANSPOSE, D_PERM } dest_kind;

/* Where a value goes: a buffer (the kernel's `out`, or an allocated one)
 * seen through the indices of the enclosing loops and the write-side
 * views.  A view under `depth` maps regroups the coordinates that many
 * levels down (`map(join)`). */
typedef struct dest {
	dest_kind kind;
	const struct dest *up;
	lift_buf *buf;             /* MEM: NULL for out */
	lego_expr *i, *len;        /* IDX */
	lift_pat pat;              /*   the loop's pattern */
	int dim;
	const lift_fun *split;     /* SPLIT; PERM: gather or scatter */
	int depth;                 /* JOIN, SPLIT, TRANSPOSE, PERM */
	const lift_ast *at;
} dest;

static lift_space dest_space(const dest *d)
{
	while (d->kind != D_MEM)
		d = d->up;
	return d->buf ? d->buf->space : SPACE_GLOBAL;
}

/* The work-item writing a coordinate: a mapLcl's dimension, or not one. */
static int idx_thread(const dest *d)
{
	return d->pat == PAT_MAPLCL ? d->dim
	       : d->pat == PAT_MAPSEQ ? THREAD_SEQ : THREAD_MIXED;
}

/* Coordinates being gathered, with their lengths and writers. */
typedef struct coords {
	lego_expr *ix[LIFT_MAX_COORDS], *ln[LIFT_MAX_COORDS];
	int th[LIFT_MAX_COORDS];
	size_t c;
} coords;

static void coords_remove(coords *k, size_t at)
{
	memmove(k->ix + at, k->ix + at + 1, (k->c - at - 1) * sizeof *k->ix);
	memmove(k->ln + at, k->ln + at + 1, (k->c - at - 1) * sizeof *k->ln);
	memmove(k->th + at, k->th + at + 1, (k->c - at - 1) * sizeof *k->th);
	k->c--;
}

static void coords_insert(coords *k, size_t at, lego_expr *i, lego_expr *len,
			  int th)
{
	memmove(k->ix + at + 1, k->ix + at, (k->c - at) * sizeof *k->ix);
	memmove(k->ln + at + 1, k->ln + at, (k->c - at) * sizeof *k->ln);
	memmove(k->th + at + 1, k->th + at, (k->c - at) * sizeof *k->th);
	k->ix[at] = i;
	k->ln[at] = len;
	k->th[at] = th;
	k->c++;
}

static int is_one(lift_cc *cc, lego_expr *e)
{
	int64_t v;
	e = lego_simplify(cc->ctx, e);
	return e && lego_expr_is_const(e, &v) && v == 1;
}

/* The writer of a joined coordinate a * len(b) + b: one of the two if
 * the other has length 1, sequential if both are. */
static int join_thread(lift_cc *cc, const coords *k, size_t o)
{
	if (is_one(cc, k->ln[o + 1]))
		return k->th[o];
	if (is_one(cc, k->ln[o]))
		return k->th[o + 1];
	return k->th[o] == THREAD_SEQ && k->th[o + 1] == THREAD_SEQ
		       ? THREAD_SEQ : THREAD_MIXED;
}

/* A write-side view regroups the coordinates at its depth. */
static int regroup(lift_cc *cc, const dest *d, coords *k)
{
	lego_ctx *ctx = cc->ctx;
	size_t o = (size_t)d->depth;
	if (d->kind == D_PERM) {
		/* z[j] lands at y[f^-1(j)] under gather, y[f(j)] under scatter */
		if (k->c <= o)
			return !!lift_err(cc, d->at, "%s of a value that is not "
					  "an array", d->split->pat == PAT_GATHER
							? "gather" : "scatter");
		lego_layout *l = lift_index_layout(cc, d->split, k->ln[o]);
		lego_expr *j = l ? lift_index_map(cc, l, k->ix[o],
						  d->split->pat == PAT_GATHER)
				 : NULL;
		if (!j)
			return -1;
		k->ix[o] = j;
		if (k->th[o] != THREAD_SEQ)
			k->th[o] = THREAD_MIXED;
		return 0;
	}
	if (d->kind == D_SPLIT) {
		if (k->c <= o || k->c == LIFT_MAX_COORDS)
			return !!lift_err(cc, d->at, "split of a value that is "
					  "not an array");
		if (lift_split_check(cc, d->split, k->ln[o]))
			return -1;
		lego_expr *n = d->split->sz[0];
		lego_expr *dims[2] = {lego_div(ctx, k->ln[o], n), n};
		lego_layout *row = lego_row(ctx, 2, dims);
		lego_expr *ab[2];
		if (!row || lego_layout_inv(ctx, row, k->ix[o], ab))
			return -1;
		int th = k->th[o] == THREAD_SEQ ? THREAD_SEQ : THREAD_MIXED;
		k->ix[o] = ab[0];
		k->ln[o] = dims[0];
		k->th[o] = th;
		coords_insert(k, o + 1, ab[1], dims[1], th);
		return 0;
	}
	if (k->c < o + 2)
		return !!lift_err(cc, d->at, "%s of a value that is not an "
				  "array of arrays",
				  d->kind == D_JOIN ? "join" : "transpose");
	if (d->kind == D_TRANSPOSE) {
		lego_expr *i = k->ix[o], *l = k->ln[o];
		int th = k->th[o];
		coords_remove(k, o);
		coords_insert(k, o + 1, i, l, th);
		return 0;
	}
	lego_layout *row = lego_row(ctx, 2, k->ln + o);
	lego_expr *j = row ? lego_layout_apply(ctx, row, k->ix + o) : NULL;
	if (!j)
		return -1;
	k->th[o] = join_thread(cc, k, o);
	k->ix[o] = j;
	k->ln[o] = lego_mul(ctx, k->ln[o], k->ln[o + 1]);
	coords_remove(k, o + 1);
	return 0;
}

/* The flat index a scalar stored at d goes to, in *bp (NULL: out): the
 * coordinates gathered from the leaf up, each write-side view regrouping
 * the ones below it; the buffer's writers recorded and checked. */
static lego_expr *store_index(lift_cc *cc, const dest *d, lift_buf **bp)
{
	lego_ctx *ctx = cc->ctx;
	coords k = {.c = 0};
	for (; d->kind != D_MEM; d = d->up) {
		if (d->kind != D_IDX) {
			if (regroup(cc, d, &k))
				return NULL;
			continue;
		}
		if (k.c == LIFT_MAX_COORDS)
			return lift_err(cc, d->at, "array nested too deeply");
		coords_insert(&k, 0, d->i, d->len, idx_thread(d));
	}
	lift_buf *b = d->buf;
	if (b && !cc->probing && b->space == SPACE_LOCAL) {
		for (size_t c = 0; c < k.c; c++)
			lift_buf_touch(b, b->wr, c, k.th[c]);
	}
	if (b && !cc->probing &&
	    lift_buf_private(cc, b, k.ix, k.ln, k.c, k.th, b->at))
		return NULL;
	*bp = b;
	if (!k.c)
		return lego_const(ctx, 0);
	lego_layout *row = lego_row(ctx, k.c, k.ln);
	return row ? lego_layout_apply(ctx, row, k.ix) : NULL;
}

/* buf[flat] = text. */
static int write_scalar(lift_cc *cc, const dest *d, const char *text)
{
	lift_buf *b = NULL;
	const char *f = lift_print_index(cc, store_index(cc, d, &b));
	if (!f)
		return -1;
	const char *name = b ? b->name : "out";
	size_t len = strlen(name) + strlen(f) + 3;
	char *lhs = lego_arena_alloc(&cc->ctx->arena, len);
	if (!lhs)
		return -1;
	snprintf(lhs, len, "%s[%s]", name, f);
	/* an accumulator updated in place is stored into itself: nothing */
	if (strcmp(lhs, text)) {
		lift_emit(cc, "%s = %s;", lhs, text);
		cc->stores++;
	}
	return 0;
}

/* Component k of a vector stored at d: one more coordinate of length w
 * (which asScalar on the written side joins with the one above). */
static dest component_dest(lift_cc *cc, const dest *d, int k, int w,
			   const lift_ast *at)
{
	return (dest){.kind = D_IDX, .up = d, .i = lego_const(cc->ctx, k),
		      .len = lego_const(cc->ctx, w), .pat = PAT_MAPSEQ,
		      .at = at};
}

/* Whether the vector goes to w consecutive elements of the result from a
 * multiple of w (one vector store at *f), 0 if not, -1 after an error. */
static int vector_run(lift_cc *cc, const dest *d, int w, const lift_ast *at,
		      const char **f)
{
	const char *bufs[16];
	lego_expr *flats[16];
	for (int k = 0; k < w; k++) {
		dest dk = component_dest(cc, d, k, w, at);
		lift_buf *b = NULL;
		if (!(flats[k] = store_index(cc, &dk, &b)))
			return -1;
		bufs[k] = b ? NULL : "out";
	}
	int run = lift_vec_run(cc, bufs, flats, w, at);
	if (run > 0 && !(*f = lift_print_index(cc, flats[0])))
		return -1;
	return run;
}

/* A vector is stored as one vector store or as its components. */
static int write_vector(lift_cc *cc, lift_val *v, const dest *d,
			const lift_ast *at)
{
	int w = v->type->width;
	const char *f = NULL;
	int run = vector_run(cc, d, w, at, &f);
	if (run < 0)
		return -1;
	if (run) {
		lift_vec_store(cc, v, f);
		return 0;
	}
	lift_val tmp = *v;
	char name[32]; /* tmp's text while its components are stored */
	if (!v->comps) {
		/* computed once, then taken apart */
		snprintf(name, sizeof name, LIFT_NAME_VEC "%d", cc->nvars++);
		lift_emit(cc, "%s%d %s = %s;", v->type->kind == LIFT_INT
					       ? "int" : "float", w, name,
			  v->text);
		tmp.text = name;
	}
	for (int k = 0; k < w; k++) {
		dest dk = component_dest(cc, d, k, w, at);
		const char *c = lift_vec_comp(cc, &tmp, k);
		if (!c || write_scalar(cc, &dk, c))
			return -1;
	}
	return 0;
}

/* Stores a value: a scalar directly, an array element by element. */
static lift_type *assign(lift_cc *cc, lift_val *v, const dest *d,
			 const lift_ast *at)
{
	if (!v)
		return NULL;
	if (!at)
		at = d->at;
	if (v->kind == VAL_SCALAR && v->type->width > 1)
		return write_vector(cc, v, d, at) ? NULL : v->type;
	if (v->kind == VAL_SCALAR)
		return write_scalar(cc, d, v->text) ? NULL : v->type;
	if (v->kind != VAL_ARRAY)
		return lift_err(cc, at, v->kind == VAL_TUPLE
					? "a tuple cannot be stored yet: store "
					  "its components with separate kernels"
					: "the result is a function, not data");
	/* One element (a reduction's result): no loop. */
	int64_t one;
	int loop = !lego_expr_is_const(v->type->len, &one) || one != 1;
	char name[32];
	size_t mark = cc->out.len;
	long stores = cc->stores;
	lego_expr *i = loop ? lift_fresh_index(cc, v->type->len, name,
					       sizeof name)
			    : lego_const(cc->ctx, 0);
	const char *len = lift_print_index(cc, v->type->len);
	if (!i || !len ||
	    (loop && lift_loop_open(cc, PAT_MAPSEQ, 0, i, name, len)))
		return NULL;
	dest di = {.kind = D_IDX, .up = d, .i = i, .len = v->type->len,
		   .pat = PAT_MAPSEQ, .at = at};
	lift_type *et = assign(cc, lift_view_get(cc, v, i), &di, at);
	if (loop)
		lift_loop_close(cc);
	if (cc->stores == stores)   /* stored into itself: no loop either */
		lift_out_truncate(cc, mark);
	return et ? v->type : NULL;
}

/* A data argument not evaluated yet: an expression, or a function applied
 * to such arguments, or a value. */
typedef struct thunk {
	const lift_ast *ast;
	lift_env *env;
	lift_fun *fn;
	struct thunk *args;
	size_t nargs;
	lift_val *val;
} thunk;

static lift_val *force(lift_cc *cc, thunk *t)
{
	if (t->val)
		return t->val;
	if (t->ast)
		return t->val = lift_eval(cc, t->ast, t->env);
	lift_val **vs = lego_arena_alloc(&cc->ctx->arena,
					 (t->nargs ? t->nargs : 1) * sizeof *vs);
	if (!vs)
		return NULL;
	for (size_t i = 0; i < t->nargs; i++)
		if (!(vs[i] = force(cc, &t->args[i])))
			return NULL;
	return t->val = lift_apply(cc, t->fn, vs, t->nargs);
}

static lift_val **force_all(lift_cc *cc, thunk *ts, size_t n)
{
	lift_val **vs = lego_arena_alloc(&cc->ctx->arena,
					 (n ? n : 1) * sizeof *vs);
	if (!vs)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!(vs[i] = force(cc, &ts[i])))
			return NULL;
	return vs;
}

static lift_type *push(lift_cc *cc, thunk *t, const dest *d);

static lift_type *push_map(lift_cc *cc, lift_fun *f, thunk *t, const dest *d)
{
	lift_val *a = force(cc, t);
	if (!a)
		return NULL;
	if (a->kind != VAL_ARRAY)
		return lift_err(cc, f->at, "map over a value that is not an array");
	char name[32];
	lego_expr *i = lift_fresh_index(cc, a->type->len, name, sizeof name);
	const char *len = lift_print_index(cc, a->type->len);
	lift_pat pat = f->pat == PAT_MAP ? PAT_MAPSEQ : f->pat;
	if (!i || !len || lift_loop_open(cc, pat, f->dim, i, name, len))
		return NULL;
	dest di = {.kind = D_IDX, .up = d, .i = i, .len = a->type->len,
		   .pat = pat, .dim = f->dim, .at = f->at};
	thunk x = {.val = lift_view_get(cc, a, i)};
	lift_type *et = NULL;
	if (x.val) {
		thunk fx = {.fn = f->f, .args = &x, .nargs = 1};
		et = push(cc, &fx, &di);
	}
	lift_loop_close(cc);
	return et ? lift_type_array(cc->ctx, et, a->type->len) : NULL;
}

/* The type a write-side view makes of t, `depth` levels down. */
static lift_type *regroup_type(lift_cc *cc, const lift_fun *f, lift_type *t,
			       int depth)
{
	lego_ctx *ctx = cc->ctx;
	if (depth > 0) {
		lift_type *e = t->kind == LIFT_ARRAY
				       ? regroup_type(cc, f, t->elems[0], depth - 1)
				       : lift_err(cc, f->at, "map of a value that "
						  "is not an array");
		return e ? lift_type_array(ctx, e, t->len) : NULL;
	}
	if (f->pat == PAT_SPLIT)
		return lift_split_type(cc, f, t);
	if (f->pat == PAT_ASSCALAR) {
		lift_type *et = t->kind == LIFT_ARRAY ? t->elems[0] : NULL;
		if (!et || et->kind > LIFT_INT || et->width < 2)
			return lift_err(cc, f->at, "asScalar of a value that is "
					"not an array of vectors");
		return lift_type_array(ctx, lift_type_scalar(ctx, et->kind),
				       lego_mul(ctx, t->len,
						lego_const(ctx, et->width)));
	}
	if (f->pat == PAT_GATHER || f->pat == PAT_SCATTER)
		return t->kind == LIFT_ARRAY ? t : lift_err(cc, f->at, "%s of a "
				"value that is not an array", f->pat == PAT_GATHER
						? "gather" : "scatter");
	if (t->kind != LIFT_ARRAY || t->elems[0]->kind != LIFT_ARRAY)
		return lift_err(cc, f->at, "%s of a value that is not an array "
				"of arrays", f->pat == PAT_JOIN ? "join" : "transpose");
	lift_type *et = t->elems[0];
	if (f->pat == PAT_JOIN)
		return lift_type_array(ctx, et->elems[0],
				       lego_mul(ctx, t->len, et->len));
	return lift_type_array(ctx, lift_type_array(ctx, et->elems[0], t->len),
			       et->len);
}

/* join, split, transpose (under `depth` maps) of a computed array: the
 * producer writes through the regrouped destination; the result type is
 * checked after. */
static lift_type *push_regroup(lift_cc *cc, const lift_fun *f, int depth,
			       thunk *t, const dest *d)
{
	dest_kind k = f->pat == PAT_JOIN || f->pat == PAT_ASSCALAR ? D_JOIN
		      : f->pat == PAT_SPLIT ? D_SPLIT
		      : f->pat == PAT_TRANSPOSE ? D_TRANSPOSE : D_PERM;
	dest dr = {.kind = k, .up = d, .split = f, .depth = depth, .at = f->at};
	lift_type *in = push(cc, t, &dr);
	return in ? regroup_type(cc, f, in, depth) : NULL;
}

/* join, split or transpose under zero or more maps, else NULL. */
static const lift_fun *mapped_regroup(const lift_fun *f, int *depth)
{
	for (*depth = 0; f->kind == FUN_PATTERN && f->ndata == 1; f = f->f) {
		if (f->pat == PAT_JOIN || f->pat == PAT_SPLIT ||
		    f->pat == PAT_TRANSPOSE || f->pat == PAT_GATHER ||
		    f->pat == PAT_SCATTER || f->pat == PAT_ASSCALAR)
			return f;
		if (f->pat != PAT_MAP && f->pat != PAT_MAPSEQ)
			return NULL;
		++*depth;
	}
	return NULL;
}

static lift_type *push_apply(lift_cc *cc, lift_fun *f, thunk *ts, size_t n,
			     const dest *d)
{
	if (f->kind == FUN_COMPOSE) {
		thunk g = {.fn = f->g, .args = ts, .nargs = n};
		return push_apply(cc, f->f, &g, 1, d);
	}
	if (f->kind == FUN_LAMBDA) {
		lift_val **vs = force_all(cc, ts, n);
		thunk body = {.ast = f->at->args[0],
			      .env = vs ? lift_bind_lambda(cc, f, vs, n) : NULL};
		return body.env ? push(cc, &body, d) : NULL;
	}
	int depth;
	const lift_fun *rg = n == 1 ? mapped_regroup(f, &depth) : NULL;
	if (rg)
		return push_regroup(cc, rg, depth, ts, d);
	if (f->kind == FUN_PATTERN && n == f->ndata) {
		switch (f->pat) {
		case PAT_MAP:
		case PAT_MAPSEQ:
		case PAT_MAPGLB:
		case PAT_MAPWRG:
		case PAT_MAPLCL:
			return push_map(cc, f, ts, d);
		case PAT_ID:
			return push(cc, ts, d);
		case PAT_ITERATE: {
			/* unrolled: f o iterate(k - 1, f) */
			if (!f->k)
				return push(cc, ts, d);
			lift_fun *rest = lego_arena_alloc(&cc->ctx->arena,
							  sizeof *rest);
			if (!rest)
				return NULL;
			*rest = *f;
			rest->k--;
			thunk inner = {.fn = rest, .args = ts, .nargs = 1};
			return push_apply(cc, f->f, &inner, 1, d);
		}
		case PAT_TOGLOBAL:
		case PAT_TOLOCAL:
		case PAT_TOPRIVATE: {
			/* Writes already going to that space stay; others go
			 * to a buffer of it, then are copied. */
			if (lift_space_of(f->pat) == dest_space(d))
				return push_apply(cc, f->f, ts, n, d);
			lift_val **vs = force_all(cc, ts, n);
			lift_val *v = vs ? lift_materialise(cc, f, vs, n) : NULL;
			return assign(cc, v, d, f->at);
		}
		default:
			break;
		}
	}
	thunk app = {.fn = f, .args = ts, .nargs = n};
	return assign(cc, force(cc, &app), d, f->at);
}

lift_type *lift_store(lift_cc *cc, lift_fun *f, lift_val **args, size_t n,
		      lift_buf *b, const lift_ast *at)
{
	return lift_store_at(cc, f, args, n, b, NULL, 0, NULL, at);
}

lift_type *lift_store_at(lift_cc *cc, lift_fun *f, lift_val **args, size_t n,
			 lift_buf *b, lego_expr **idx, size_t nidx,
			 const lift_type *root, const lift_ast *at)
{
	thunk *ts = lego_arena_alloc(&cc->ctx->arena, (n ? n : 1) * sizeof *ts);
	dest *ds = lego_arena_alloc(&cc->ctx->arena, (nidx + 1) * sizeof *ds);
	if (!ts || !ds)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ts[i] = (thunk){.val = args[i]};
	ds[0] = (dest){.kind = D_MEM, .buf = b, .at = at};
	/* the sub-array's indices, each written by the work-item whose
	 * mapLcl index it is (or sequentially) */
	for (size_t j = 0; j < nidx; j++, root = root->elems[0]) {
		int th = lift_loop_thread(cc, idx[j]);
		ds[j + 1] = (dest){.kind = D_IDX, .up = &ds[j], .i = idx[j],
				   .len = root->len, .at = at,
				   .pat = th >= 0 ? PAT_MAPLCL : PAT_MAPSEQ,
				   .dim = th >= 0 ? th : 0};
	}
	return push_apply(cc, f, ts, n, &ds[nidx]);
}

static lift_type *push(lift_cc *cc, thunk *t, const dest *d)
{
	if (t->fn)
		return push_apply(cc, t->fn, t->args, t->nargs, d);
	const lift_ast *a = t->ast;
	if (!t->val && a && a->kind == LIFT_APPLY) {
		lift_val *f = lift_eval(cc, a->args[0], t->env);
		if (f && f->kind != VAL_FUN)
			return lift_err(cc, a->args[0], "applying a value that "
							"is not a function");
		thunk x = {.ast = a->args[1], .env = t->env};
		return f ? push_apply(cc, f->fun, &x, 1, d) : NULL;
	}
	if (!t->val && a && a->kind == LIFT_CALL) {
		size_t used;
		lift_fun *f = lift_callee(cc, a, t->env, &used);
		if (!f)
			return NULL;
		if (used < a->nargs) {
			size_t n = a->nargs - used;
			thunk *xs = lego_arena_alloc(&cc->ctx->arena,
						     n * sizeof *xs);
			if (!xs)
				return NULL;
			for (size_t i = 0; i < n; i++) {
				xs[i].ast = a->args[used + i];
				xs[i].env = t->env;
			}
			return push_apply(cc, f, xs, n, d);
		}
	}
	return assign(cc, force(cc, t), d, a);
}

lift_type *lift_lower(lift_cc *cc, lift_env *env)
{
	dest root = {.kind = D_MEM, .at = cc->p->body};
	thunk body = {.ast = cc->p->body, .env = env};
	return push(cc, &body, &root);
}
