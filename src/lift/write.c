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

void lift_emit(lift_cc *cc, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	for (int i = 0; i < cc->indent; i++)
		lego_sbuf_puts(&cc->out, "\t");
	lego_sbuf_printf(&cc->out, "%s\n", line);
}

/* Opens the loop of a map over [0, len) with index name. */
static void open_loop(lift_cc *cc, lift_pat pat, int dim, const char *name,
		      const char *len)
{
	const char *id = NULL, *step = NULL;
	if (pat == PAT_MAPGLB) {
		id = "get_global_id";
		step = "get_global_size";
	} else if (pat == PAT_MAPWRG) {
		id = "get_group_id";
		step = "get_num_groups";
	} else if (pat == PAT_MAPLCL) {
		id = "get_local_id";
		step = "get_local_size";
	}
	if (id) {
		lift_emit(cc, "for (int %s = (int)%s(%d); %s < %s; %s += (int)%s(%d)) {",
			  name, id, dim, name, len, name, step, dim);
		if (dim + 1 > cc->ndims)
			cc->ndims = dim + 1;
	} else {
		lift_emit(cc, "for (int %s = 0; %s < %s; %s++) {", name, name,
			  len, name);
	}
	cc->indent++;
}

static void close_loop(lift_cc *cc)
{
	cc->indent--;
	lift_emit(cc, "}");
}

lift_val *lift_reduce_seq(lift_cc *cc, const lift_fun *f, lift_val *a)
{
	if (a->kind != VAL_ARRAY)
		return lift_err(cc, f->at, "reduceSeq over a value that is not "
					   "an array");
	char acc[32], name[32];
	snprintf(acc, sizeof acc, "acc_%d", cc->nvars++);
	lift_type_kind k = f->init->type->kind;
	lift_val *av = lift_val_scalar(cc, k, lego_arena_strdup(&cc->ctx->arena,
								 acc));
	lego_expr *i = lift_fresh_index(cc, a->type->len, name, sizeof name);
	const char *len = lift_print_index(cc, a->type->len);
	if (!av || !i || !len)
		return NULL;
	lift_emit(cc, "%s %s = %s;", k == LIFT_FLOAT ? "float" : "int", acc,
		  f->init->text);
	open_loop(cc, PAT_MAPSEQ, 0, name, len);
	lift_val *args[2] = {av, lift_view_get(cc, a, i)};
	lift_val *y = args[1] ? lift_apply(cc, f->f, args, 2) : NULL;
	if (!y)
		return NULL;
	if (y->kind != VAL_SCALAR || y->type->kind != k)
		return lift_err(cc, f->at, "reduceSeq's function must return "
					   "the type of its initial value");
	lift_emit(cc, "%s = %s;", acc, y->text);
	close_loop(cc);
	return lift_view_single(cc, av);
}

/* ------------------------------------------------------------ destinations */

typedef enum { D_MEM, D_IDX, D_JOIN, D_SPLIT, D_TRANSPOSE } dest_kind;

/* Where a value goes: the output buffer seen through the indices of the
 * enclosing loops and the write-side views. */
typedef struct dest {
	dest_kind kind;
	const struct dest *up;
	lego_expr *i, *len;        /* IDX */
	lego_expr *n;              /* SPLIT */
	const lift_ast *at;
} dest;

enum { MAX_COORDS = 16 };

/* A write-side split whose size is not proved to divide the length (its
 * Row(len / n, n) would not be the array); -1. */
static int split_unproved(lift_cc *cc, const dest *d, lego_expr *len)
{
	char *n = lego_expr_print(cc->ctx, d->n, LEGO_LANG_C);
	char *l = lego_expr_print(cc->ctx, len, LEGO_LANG_C);
	lift_err(cc, d->at, "split(%s) of an array of length %s: cannot prove "
		 "that %s divides %s (state it with `assume %s | %s;`)",
		 n ? n : "?", l ? l : "?", n ? n : "?", l ? l : "?",
		 n ? n : "?", l ? l : "?");
	free(n);
	free(l);
	return -1;
}

/* out[flat] = text: the coordinates gathered from the leaf up, each
 * write-side view regrouping the ones below it. */
static int write_scalar(lift_cc *cc, const dest *d, const char *text)
{
	lego_ctx *ctx = cc->ctx;
	lego_expr *ix[MAX_COORDS], *ln[MAX_COORDS];
	size_t c = 0;
	for (; d->kind != D_MEM; d = d->up) {
		if (d->kind == D_IDX) {
			if (c == MAX_COORDS)
				return !!lift_err(cc, d->at, "array nested too deeply");
			memmove(ix + 1, ix, c * sizeof *ix);
			memmove(ln + 1, ln, c * sizeof *ln);
			ix[0] = d->i;
			ln[0] = d->len;
			c++;
		} else if (d->kind == D_JOIN || d->kind == D_TRANSPOSE) {
			if (c < 2)
				return !!lift_err(cc, d->at, "%s of a value that is "
						  "not an array of arrays",
						  d->kind == D_JOIN ? "join"
								    : "transpose");
			if (d->kind == D_TRANSPOSE) {
				lego_expr *t = ix[0];
				ix[0] = ix[1];
				ix[1] = t;
				t = ln[0];
				ln[0] = ln[1];
				ln[1] = t;
				continue;
			}
			lego_layout *row = lego_row(ctx, 2, ln);
			ix[0] = row ? lego_layout_apply(ctx, row, ix) : NULL;
			ln[0] = lego_mul(ctx, ln[0], ln[1]);
			if (!ix[0])
				return -1;
			memmove(ix + 1, ix + 2, (c - 2) * sizeof *ix);
			memmove(ln + 1, ln + 2, (c - 2) * sizeof *ln);
			c--;
		} else {  /* D_SPLIT */
			if (c < 1 || c == MAX_COORDS)
				return !!lift_err(cc, d->at, "split of a value "
						  "that is not an array");
			if (!lift_divides(ctx, d->n, ln[0]))
				return split_unproved(cc, d, ln[0]);
			lego_expr *dims[2] = {lego_div(ctx, ln[0], d->n), d->n};
			lego_layout *row = lego_row(ctx, 2, dims);
			lego_expr *ab[2];
			if (!row || lego_layout_inv(ctx, row, ix[0], ab))
				return -1;
			memmove(ix + 2, ix + 1, (c - 1) * sizeof *ix);
			memmove(ln + 2, ln + 1, (c - 1) * sizeof *ln);
			ix[0] = ab[0];
			ix[1] = ab[1];
			ln[0] = dims[0];
			ln[1] = dims[1];
			c++;
		}
	}
	lego_expr *flat = lego_const(ctx, 0);
	if (c) {
		lego_layout *row = lego_row(ctx, c, ln);
		flat = row ? lego_layout_apply(ctx, row, ix) : NULL;
	}
	const char *f = lift_print_index(cc, flat);
	if (!f)
		return -1;
	lift_emit(cc, "out[%s] = %s;", f, text);
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
	lego_expr *i = loop ? lift_fresh_index(cc, v->type->len, name,
					       sizeof name)
			    : lego_const(cc->ctx, 0);
	const char *len = lift_print_index(cc, v->type->len);
	if (!i || !len)
		return NULL;
	if (loop)
		open_loop(cc, PAT_MAPSEQ, 0, name, len);
	dest di = {.kind = D_IDX, .up = d, .i = i, .len = v->type->len, .at = at};
	lift_type *et = assign(cc, lift_view_get(cc, v, i), &di, at);
	if (loop)
		close_loop(cc);
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
	if (!i || !len)
		return NULL;
	open_loop(cc, f->pat, f->dim, name, len);
	dest di = {.kind = D_IDX, .up = d, .i = i, .len = a->type->len,
		   .at = f->at};
	thunk x = {.val = lift_view_get(cc, a, i)};
	lift_type *et = NULL;
	if (x.val) {
		thunk fx = {.fn = f->f, .args = &x, .nargs = 1};
		et = push(cc, &fx, &di);
	}
	close_loop(cc);
	return et ? lift_type_array(cc->ctx, et, a->type->len) : NULL;
}

/* join, split, transpose of a computed array: the producer writes through
 * the regrouped destination; the result type is checked after. */
static lift_type *push_regroup(lift_cc *cc, lift_fun *f, thunk *t,
			       const dest *d)
{
	lego_ctx *ctx = cc->ctx;
	dest_kind k = f->pat == PAT_JOIN ? D_JOIN
		      : f->pat == PAT_SPLIT ? D_SPLIT : D_TRANSPOSE;
	dest dr = {.kind = k, .up = d, .n = f->sz[0], .at = f->at};
	lift_type *in = push(cc, t, &dr);
	if (!in)
		return NULL;
	if (k == D_SPLIT)
		return lift_split_type(cc, f, in);
	if (in->kind != LIFT_ARRAY || in->elems[0]->kind != LIFT_ARRAY)
		return lift_err(cc, f->at, "%s of a value that is not an array "
				"of arrays", k == D_JOIN ? "join" : "transpose");
	lift_type *et = in->elems[0];
	if (k == D_JOIN)
		return lift_type_array(ctx, et->elems[0],
				       lego_mul(ctx, in->len, et->len));
	return lift_type_array(ctx, lift_type_array(ctx, et->elems[0], in->len),
			       et->len);
}

static lift_type *push_apply(lift_cc *cc, lift_fun *f, thunk *ts, size_t n,
			     const dest *d)
{
	if (f->kind == FUN_COMPOSE) {
		thunk g = {.fn = f->g, .args = ts, .nargs = n};
		return push_apply(cc, f->f, &g, 1, d);
	}
	if (f->kind == FUN_LAMBDA) {
		lift_val **vs = lego_arena_alloc(&cc->ctx->arena,
						 (n ? n : 1) * sizeof *vs);
		if (!vs)
			return NULL;
		for (size_t i = 0; i < n; i++)
			if (!(vs[i] = force(cc, &ts[i])))
				return NULL;
		thunk body = {.ast = f->at->args[0],
			      .env = lift_bind_lambda(cc, f, vs, n)};
		return body.env ? push(cc, &body, d) : NULL;
	}
	if (f->kind == FUN_PATTERN && n == f->ndata) {
		switch (f->pat) {
		case PAT_MAP:
		case PAT_MAPSEQ:
		case PAT_MAPGLB:
		case PAT_MAPWRG:
		case PAT_MAPLCL:
			return push_map(cc, f, ts, d);
		case PAT_JOIN:
		case PAT_SPLIT:
		case PAT_TRANSPOSE:
			return push_regroup(cc, f, ts, d);
		case PAT_ID:
			return push(cc, ts, d);
		case PAT_TOGLOBAL:
		case PAT_TOLOCAL:
		case PAT_TOPRIVATE:
			return push_apply(cc, f->f, ts, n, d);
		default:
			break;
		}
	}
	thunk app = {.fn = f, .args = ts, .nargs = n};
	return assign(cc, force(cc, &app), d, f->at);
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

/* ------------------------------------------------------------------ kernel */

static const char *scalar_c(lift_type_kind k)
{
	return k == LIFT_INT ? "int" : "float";
}

static lift_type_kind base_kind(const lift_type *t)
{
	while (t->kind == LIFT_ARRAY)
		t = t->elems[0];
	return t->kind;
}

/* Parameters bound to values: arrays as buffers, scalars by name. */
static lift_env *bind_params(lift_cc *cc)
{
	lift_env *env = NULL;
	for (size_t i = 0; i < cc->p->nparams; i++) {
		const lift_param *prm = &cc->p->params[i];
		lift_val *v;
		lift_type_kind k = base_kind(prm->type);
		if (k == LIFT_TUPLE)
			return lift_err(cc, cc->p->body, "parameter %s: tuples "
					"in memory are not supported yet",
					prm->name);
		if (prm->type->kind == LIFT_ARRAY)
			v = lift_val_array(cc, prm->type,
					   lift_view_mem(cc, prm->name));
		else
			v = lift_val_scalar(cc, k, prm->name);
		if (!v || !(env = lift_env_bind(cc, env, prm->name, v)))
			return NULL;
	}
	return env;
}

static void kernel_args(lift_cc *cc, lego_sbuf *b, lift_type_kind out,
			int host)
{
	const char *sep = "";
	for (size_t i = 0; i < cc->p->nparams; i++) {
		const lift_param *prm = &cc->p->params[i];
		lift_type_kind k = base_kind(prm->type);
		if (host)
			lego_sbuf_printf(b, "%s%s %s", sep,
					 prm->type->kind == LIFT_ARRAY ? "cl_mem"
					 : k == LIFT_INT ? "cl_int" : "cl_float",
					 prm->name);
		else if (prm->type->kind == LIFT_ARRAY)
			lego_sbuf_printf(b, "%s__global const %s *restrict %s",
					 sep, scalar_c(k), prm->name);
		else
			lego_sbuf_printf(b, "%sconst %s %s", sep, scalar_c(k),
					 prm->name);
		sep = ", ";
	}
	if (host)
		lego_sbuf_printf(b, "%scl_mem out", sep);
	else
		lego_sbuf_printf(b, "%s__global %s *restrict out", sep,
				 scalar_c(out));
	for (size_t i = 0; i < cc->p->nsizes; i++)
		lego_sbuf_printf(b, ", %s %s", host ? "cl_int" : "const int",
				 cc->p->sizes[i]);
}

static char *host_code(lift_cc *cc, const lift_type *result)
{
	const lift_program *p = cc->p;
	lego_ctx *ctx = cc->ctx;
	lego_expr *n = lego_const(ctx, 1);
	for (const lift_type *t = result; t->kind == LIFT_ARRAY; t = t->elems[0])
		n = lego_mul(ctx, n, t->len);
	char *len = lego_expr_print(ctx, lego_simplify(ctx, n), LEGO_LANG_C);
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "/* Host code of the Lift kernel %s (lego lift "
			 "--host %s): include it after <CL/cl.h>. */\n",
			 p->kernel, p->file);
	lego_sbuf_printf(&b, "static size_t %s_out_len(", p->kernel);
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(&b, "%scl_int %s", i ? ", " : "", p->sizes[i]);
	lego_sbuf_printf(&b, "%s)\n{\n", p->nsizes ? "" : "void");
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(&b, "\t(void)%s;\n", p->sizes[i]);
	lego_sbuf_printf(&b, "\treturn (size_t)(%s);\n}\n\n", len ? len : "0");
	free(len);
	lego_sbuf_printf(&b, "/* Runs the kernel over a %d-D range (local may be "
			 "NULL). */\nstatic cl_int %s_launch(cl_command_queue q, "
			 "cl_kernel k, ", cc->ndims, p->kernel);
	kernel_args(cc, &b, LIFT_FLOAT, 1);
	lego_sbuf_printf(&b, ",\n\tconst size_t *global, const size_t *local)\n"
			 "{\n\tcl_int err;\n\tcl_uint a = 0;\n");
	for (size_t i = 0; i <= p->nparams + p->nsizes; i++) {
		const char *name = i < p->nparams ? p->params[i].name
				   : i == p->nparams ? "out"
				   : p->sizes[i - p->nparams - 1];
		lego_sbuf_printf(&b, "\tif ((err = clSetKernelArg(k, a++, "
				 "sizeof %s, &%s)))\n\t\treturn err;\n", name,
				 name);
	}
	lego_sbuf_printf(&b, "\treturn clEnqueueNDRangeKernel(q, k, %d, NULL, "
			 "global, local, 0, NULL, NULL);\n}\n", cc->ndims);
	return lego_sbuf_take(&b);
}

int lift_compile(lego_ctx *ctx, const lift_program *p, lift_kernel *out)
{
	lift_cc cc = {.ctx = ctx, .p = p, .indent = 1, .ndims = 1};
	memset(out, 0, sizeof *out);
	lift_env *env = bind_params(&cc);
	if (!env && p->nparams)
		goto fail;
	dest root = {.kind = D_MEM, .at = p->body};
	thunk body = {.ast = p->body, .env = env};
	lift_type *t = push(&cc, &body, &root);
	if (!t)
		goto fail;
	if (base_kind(t) == LIFT_TUPLE) {
		lift_err(&cc, p->body, "the result holds tuples");
		goto fail;
	}
	char *text = lego_sbuf_take(&cc.out);
	lego_sbuf k = {0};
	lego_sbuf_printf(&k, "/* Generated by lego lift from %s. */\n", p->file);
	for (size_t i = 0; i < p->nfuns; i++)
		lego_sbuf_printf(&k, "\n%s\n", p->funs[i].text);
	lego_sbuf_printf(&k, "\n__kernel void %s(", p->kernel);
	kernel_args(&cc, &k, base_kind(t), 0);
	lego_sbuf_printf(&k, ")\n{\n%s}\n", text ? text : "");
	free(text);
	out->opencl = lego_sbuf_take(&k);
	out->host = host_code(&cc, t);
	out->result = t;
	out->ndims = cc.ndims;
	if (!out->opencl || !out->host) {
		lift_kernel_free(out);
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	}
	return 0;
fail:
	free(lego_sbuf_take(&cc.out));
	return -1;
}

void lift_kernel_free(lift_kernel *k)
{
	free(k->opencl);
	free(k->host);
	k->opencl = k->host = NULL;
}
