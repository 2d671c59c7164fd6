/* eval.c - evaluating Lift expressions to values (the pull side): names,
 * literals, pattern construction with their static arguments, function
 * application.  Types are checked here, as values are built: every value
 * carries its type with symbolic lengths. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lift/value.h"

void *lift_err(lift_cc *cc, const lift_ast *a, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (a)
		lego_fail(cc->ctx, LEGO_ERR, "%s:%d:%d: error: %s", cc->p->file,
			  a->line, a->col, msg);
	else
		lego_fail(cc->ctx, LEGO_ERR, "%s: error: %s", cc->p->file, msg);
	return NULL;
}

lift_val *lift_val_scalar(lift_cc *cc, lift_type_kind kind, const char *text)
{
	lift_val *v = lego_arena_alloc(&cc->ctx->arena, sizeof *v);
	if (!v || !(v->type = lift_type_scalar(cc->ctx, kind)))
		return NULL;
	v->kind = VAL_SCALAR;
	v->text = text;
	return v;
}

lift_val *lift_val_typed(lift_cc *cc, lift_type *t, const char *text)
{
	lift_val *v = t ? lego_arena_alloc(&cc->ctx->arena, sizeof *v) : NULL;
	if (!v)
		return NULL;
	v->kind = VAL_SCALAR;
	v->type = t;
	v->text = text;
	return v;
}

lift_val *lift_val_array(lift_cc *cc, lift_type *type, lift_view *view)
{
	lift_val *v = type && view ? lego_arena_alloc(&cc->ctx->arena, sizeof *v)
				   : NULL;
	if (!v)
		return NULL;
	v->kind = VAL_ARRAY;
	v->type = type;
	v->view = view;
	return v;
}

lift_val *lift_val_tuple(lift_cc *cc, lift_val **elems, size_t n)
{
	lift_val *v = lego_arena_alloc(&cc->ctx->arena, sizeof *v);
	lift_type **ts = lego_arena_alloc(&cc->ctx->arena, n * sizeof *ts);
	if (!v || !ts)
		return NULL;
	for (size_t k = 0; k < n; k++)
		ts[k] = elems[k]->type;
	v->kind = VAL_TUPLE;
	v->type = lift_type_tuple(cc->ctx, ts, n);
	v->elems = elems;
	v->nelems = n;
	return v->type ? v : NULL;
}

static lift_val *fun_val(lift_cc *cc, lift_fun *f)
{
	lift_val *v = f ? lego_arena_alloc(&cc->ctx->arena, sizeof *v) : NULL;
	if (!v)
		return NULL;
	v->kind = VAL_FUN;
	v->fun = f;
	return v;
}

static lift_fun *fun_new(lift_cc *cc, lift_fun_kind kind, const lift_ast *at)
{
	lift_fun *f = lego_arena_alloc(&cc->ctx->arena, sizeof *f);
	if (f) {
		f->kind = kind;
		f->at = at;
	}
	return f;
}

lego_expr *lift_fresh_index(lift_cc *cc, lego_expr *len, char *name,
			    size_t cap)
{
	snprintf(name, cap, LIFT_NAME_INDEX "%d", cc->nvars++);
	return lego_index(cc->ctx, name, lego_const(cc->ctx, 0), len);
}

/* The patterns: name, static arguments, data arguments. */
static const struct pattern_info {
	const char *name;
	lift_pat pat;
	int nstatic;   /* -1: mapGlb/mapWrg/mapLcl, an optional dim then f */
	int ndata;
} patterns[] = {
	{"map", PAT_MAP, 1, 1},          {"mapSeq", PAT_MAPSEQ, 1, 1},
	{"mapGlb", PAT_MAPGLB, -1, 1},   {"mapWrg", PAT_MAPWRG, -1, 1},
	{"mapLcl", PAT_MAPLCL, -1, 1},   {"mapVec", PAT_MAPVEC, 1, 1},
	{"reduceSeq", PAT_REDUCESEQ, 2, 1}, {"reduce", PAT_REDUCE, 2, 1},
	{"reduceSeqUnroll", PAT_REDUCESEQ, 2, 1},
	{"reduceSeqPipe", PAT_REDUCESEQ, 2, 1},
	{"iterate", PAT_ITERATE, 2, 1},  {"split", PAT_SPLIT, 1, 1},
	{"join", PAT_JOIN, 0, 1},        {"zip", PAT_ZIP, 0, 2},
	{"get", PAT_GET, 1, 1},          {"transpose", PAT_TRANSPOSE, 0, 1},
	{"gather", PAT_GATHER, 1, 1},    {"scatter", PAT_SCATTER, 1, 1},
	{"slide", PAT_SLIDE, 2, 1},      {"pad", PAT_PAD, 3, 1},
	{"asVector", PAT_ASVECTOR, 1, 1}, {"asScalar", PAT_ASSCALAR, 0, 1},
	{"toGlobal", PAT_TOGLOBAL, 1, 1}, {"toLocal", PAT_TOLOCAL, 1, 1},
	{"toPrivate", PAT_TOPRIVATE, 1, 1}, {"id", PAT_ID, 0, 1},
	{"value", PAT_VALUE, 2, 0},      {"tuple", PAT_TUPLE, 0, 2},
	{"at", PAT_AT, 0, 2},
};
#define NPATTERNS (sizeof patterns / sizeof patterns[0])

static const struct pattern_info *find_pattern(const char *name)
{
	for (size_t i = 0; i < NPATTERNS; i++)
		if (!strcmp(patterns[i].name, name))
			return &patterns[i];
	return NULL;
}

static const lift_ufun *find_ufun(const lift_program *p, const char *name)
{
	for (size_t i = 0; i < p->nfuns; i++)
		if (!strcmp(p->funs[i].name, name))
			return &p->funs[i];
	return NULL;
}

static lego_expr *static_size(lift_cc *cc, const lift_ast *a)
{
	if (a->kind == LIFT_NUM && !a->is_float) {
		long long v = strtoll(a->name, NULL, 10);
		if (v > 0)
			return lego_const(cc->ctx, v);
	}
	if (a->kind == LIFT_VAR)
		for (size_t i = 0; i < cc->p->nsizes; i++)
			if (!strcmp(cc->p->sizes[i], a->name))
				return lego_sym(cc->ctx, a->name);
	return lift_err(cc, a, "expected a positive size (an integer or a "
			       "size symbol)");
}

static lift_fun *static_fun(lift_cc *cc, const lift_ast *a, lift_env *env)
{
	lift_val *v = lift_eval(cc, a, env);
	if (v && v->kind != VAL_FUN)
		return lift_err(cc, a, "expected a function");
	return v ? v->fun : NULL;
}

static lift_val *static_scalar(lift_cc *cc, const lift_ast *a, lift_env *env)
{
	lift_val *v = lift_eval(cc, a, env);
	if (v && v->kind != VAL_SCALAR)
		return lift_err(cc, a, "expected a scalar");
	return v;
}

/* gather's and scatter's argument: reverse or stride(s). */
static int index_fun(lift_cc *cc, lift_fun *f, const lift_ast *a)
{
	if (a->kind == LIFT_VAR && !strcmp(a->name, "reverse")) {
		f->index = LIFT_INDEX_REVERSE;
		return 0;
	}
	if (a->kind == LIFT_CALL && !strcmp(a->name, "stride") &&
	    a->nargs == 1) {
		f->index = LIFT_INDEX_STRIDE;
		return (f->sz[0] = static_size(cc, a->args[0])) ? 0 : -1;
	}
	lift_err(cc, a, "expected an index function: reverse or stride(s)");
	return -1;
}

/* A pattern from a call's first arguments; *used says how many. */
static lift_fun *make_pattern(lift_cc *cc, const lift_ast *call,
			      const struct pattern_info *pi, lift_env *env,
			      size_t *used)
{
	lift_fun *f = fun_new(cc, FUN_PATTERN, call);
	if (!f)
		return NULL;
	f->pat = pi->pat;
	f->unroll = !strcmp(pi->name, "reduceSeqUnroll");
	f->pipe = !strcmp(pi->name, "reduceSeqPipe");
	f->ndata = (size_t)pi->ndata;
	lift_ast **a = call ? call->args : NULL;
	size_t n = call ? call->nargs : 0, ns = (size_t)pi->nstatic;
	if (pi->nstatic < 0) {
		ns = 1;
		if (n >= 2 && a[0]->kind == LIFT_NUM && !a[0]->is_float) {
			f->dim = atoi(a[0]->name);
			if (f->dim < 0 || f->dim > 2)
				return lift_err(cc, a[0], "dimension %d is not "
						"0, 1 or 2", f->dim);
			a++;
			n--;
			(*used)++;
		}
	}
	if (n < ns)
		return lift_err(cc, call, "%s takes %zu argument%s", pi->name,
				ns, ns == 1 ? "" : "s");
	*used += ns;
	/* zip and tuple take all their arguments, two or more */
	if ((pi->pat == PAT_ZIP || pi->pat == PAT_TUPLE) && n > 2)
		f->ndata = n;
	switch (pi->pat) {
	case PAT_SPLIT:
	case PAT_ASVECTOR:
		f->sz[0] = static_size(cc, a[0]);
		return f->sz[0] ? f : NULL;
	case PAT_SLIDE:
		f->sz[0] = static_size(cc, a[0]);
		f->sz[1] = f->sz[0] ? static_size(cc, a[1]) : NULL;
		return f->sz[1] ? f : NULL;
	case PAT_PAD:
		if (a[0]->kind == LIFT_NUM && !strcmp(a[0]->name, "0"))
			f->sz[0] = lego_const(cc->ctx, 0);
		else
			f->sz[0] = static_size(cc, a[0]);
		if (a[1]->kind == LIFT_NUM && !strcmp(a[1]->name, "0"))
			f->sz[1] = lego_const(cc->ctx, 0);
		else
			f->sz[1] = f->sz[0] ? static_size(cc, a[1]) : NULL;
		if (!f->sz[1])
			return NULL;
		if (a[2]->kind == LIFT_VAR && !strcmp(a[2]->name, "clamp")) {
			f->clamp = 1;
			return f;
		}
		f->init = static_scalar(cc, a[2], env);
		return f->init ? f : NULL;
	case PAT_GATHER:
	case PAT_SCATTER:
		return index_fun(cc, f, a[0]) ? NULL : f;
	case PAT_ITERATE:
		if (a[0]->kind != LIFT_NUM || a[0]->is_float ||
		    (f->k = strtoll(a[0]->name, NULL, 10)) < 0 || f->k > 64)
			return lift_err(cc, a[0], "iterate takes a count from 0 "
					"to 64");
		f->f = static_fun(cc, a[1], env);
		return f->f ? f : NULL;
	case PAT_VALUE:
		f->init = lift_eval(cc, a[0], env);
		f->sz[0] = f->init ? static_size(cc, a[1]) : NULL;
		return f->sz[0] ? f : NULL;
	case PAT_GET:
		if (a[0]->kind != LIFT_NUM || a[0]->is_float)
			return lift_err(cc, a[0], "get takes an integer");
		f->k = strtoll(a[0]->name, NULL, 10);
		return f;
	case PAT_REDUCESEQ:
		/* The initial value: a scalar, or an array in memory. */
		f->f = static_fun(cc, a[0], env);
		f->init = f->f ? lift_eval(cc, a[1], env) : NULL;
		return f->init ? f : NULL;
	case PAT_REDUCE:
		f->f = static_fun(cc, a[0], env);
		f->init = f->f ? static_scalar(cc, a[1], env) : NULL;
		return f->init ? f : NULL;
	default:
		if (ns == 1 && !(f->f = static_fun(cc, a[0], env)))
			return NULL;
		return f;
	}
}

static lift_val *eval_num(lift_cc *cc, const lift_ast *a)
{
	const char *t = a->name;
	if (a->is_float && t[strlen(t) - 1] != 'f') {
		size_t n = strlen(t) + 2;
		char *s = lego_arena_alloc(&cc->ctx->arena, n);
		if (!s)
			return NULL;
		snprintf(s, n, "%sf", t);
		t = s;
	}
	return lift_val_scalar(cc, a->is_float ? LIFT_FLOAT : LIFT_INT, t);
}

lift_fun *lift_callee(lift_cc *cc, const lift_ast *a, lift_env *env,
		       size_t *used)
{
	const struct pattern_info *pi = find_pattern(a->name);
	const lift_ufun *uf = find_ufun(cc->p, a->name);
	lift_fun *f;
	*used = 0;
	if (uf) {
		if ((f = fun_new(cc, FUN_USER, a)))
			f->ufun = uf;
		return f;
	}
	if (pi)
		return make_pattern(cc, a, pi, env, used);
	return lift_err(cc, a, "unknown function '%s'", a->name);
}

static lift_val *eval_call(lift_cc *cc, const lift_ast *a, lift_env *env)
{
	size_t used;
	lift_fun *f = lift_callee(cc, a, env, &used);
	if (!f)
		return NULL;
	if (used == a->nargs && f->ndata)
		return fun_val(cc, f);
	lift_val **args = lego_arena_alloc(&cc->ctx->arena,
					   (a->nargs ? a->nargs : 1) * sizeof *args);
	if (!args)
		return NULL;
	for (size_t i = used; i < a->nargs; i++)
		if (!(args[i - used] = lift_eval(cc, a->args[i], env)))
			return NULL;
	return lift_apply(cc, f, args, a->nargs - used);
}

lift_val *lift_eval(lift_cc *cc, const lift_ast *a, lift_env *env)
{
	switch (a->kind) {
	case LIFT_NUM:
		return eval_num(cc, a);
	case LIFT_VAR: {
		for (lift_env *e = env; e; e = e->next)
			if (!strcmp(e->name, a->name))
				return e->val;
		const struct pattern_info *pi = find_pattern(a->name);
		lift_fun *f = NULL;
		if (find_ufun(cc->p, a->name)) {
			if ((f = fun_new(cc, FUN_USER, a)))
				f->ufun = find_ufun(cc->p, a->name);
		} else if (pi && pi->nstatic == 0) {
			size_t used = 0;
			f = make_pattern(cc, NULL, pi, env, &used);
			if (f)
				f->at = a;
		} else if (pi) {
			return lift_err(cc, a, "%s needs its arguments: %s(...)",
					a->name, a->name);
		} else {
			return lift_err(cc, a, "unknown name '%s'", a->name);
		}
		return fun_val(cc, f);
	}
	case LIFT_CALL:
		return eval_call(cc, a, env);
	case LIFT_APPLY: {
		lift_val *f = lift_eval(cc, a->args[0], env);
		if (f && f->kind != VAL_FUN)
			return lift_err(cc, a->args[0], "applying a value that "
							"is not a function");
		lift_val *x = f ? lift_eval(cc, a->args[1], env) : NULL;
		return x ? lift_apply(cc, f->fun, &x, 1) : NULL;
	}
	case LIFT_COMPOSE: {
		lift_fun *f = static_fun(cc, a->args[0], env);
		lift_fun *g = f ? static_fun(cc, a->args[1], env) : NULL;
		lift_fun *c = g ? fun_new(cc, FUN_COMPOSE, a) : NULL;
		if (!c)
			return NULL;
		c->f = f;
		c->g = g;
		return fun_val(cc, c);
	}
	case LIFT_LAMBDA: {
		lift_fun *f = fun_new(cc, FUN_LAMBDA, a);
		if (f)
			f->env = env;
		return fun_val(cc, f);
	}
	}
	return NULL;
}

lift_env *lift_env_bind(lift_cc *cc, lift_env *env, const char *name,
			lift_val *v)
{
	lift_env *e = lego_arena_alloc(&cc->ctx->arena, sizeof *e);
	if (!e)
		return NULL;
	e->name = name;
	e->val = v;
	e->next = env;
	return e;
}

/* A function of n parameters applied to one tuple takes its components. */
static lift_val **spread(lift_cc *cc, lift_val **args, size_t *n,
			 size_t want)
{
	if (*n != 1 || want < 2)
		return args;
	lift_val *a = args[0];
	lift_val **cs = NULL;
	if (a->kind == VAL_TUPLE && a->nelems == want)
		cs = a->elems;
	else if (a->kind == VAL_SCALAR && (size_t)a->type->width == want)
		cs = lift_vec_components(cc, a);
	if (!cs)
		return args;
	*n = want;
	return cs;
}

lift_env *lift_bind_lambda(lift_cc *cc, const lift_fun *f, lift_val **args,
			   size_t n)
{
	const lift_ast *l = f->at;
	args = spread(cc, args, &n, l->nparams);
	if (n != l->nparams)
		return lift_err(cc, l, "lambda of %zu parameter%s applied to "
				"%zu argument%s", l->nparams,
				l->nparams == 1 ? "" : "s", n, n == 1 ? "" : "s");
	lift_env *env = f->env;
	for (size_t i = 0; i < n; i++)
		if (!(env = lift_env_bind(cc, env, l->params[i], args[i])))
			return NULL;
	return env;
}

static const char *kind_name(lift_type_kind k)
{
	return k == LIFT_FLOAT ? "float" : k == LIFT_INT ? "int" : "a non-scalar";
}

static lift_val *apply_user(lift_cc *cc, const lift_fun *f, lift_val **args,
			    size_t n)
{
	const lift_ufun *u = f->ufun;
	args = spread(cc, args, &n, u->nparams);
	if (n != u->nparams)
		return lift_err(cc, f->at, "%s takes %zu argument%s, given %zu",
				u->name, u->nparams, u->nparams == 1 ? "" : "s",
				n);
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "%s(", u->name);
	for (size_t i = 0; i < n; i++) {
		if (args[i]->kind != VAL_SCALAR || args[i]->type->width > 1 ||
		    args[i]->type->kind != u->ptypes[i]) {
			free(lego_sbuf_take(&b));
			return lift_err(cc, f->at, "argument %zu of %s: expected "
					"%s, got %s", i + 1, u->name,
					kind_name(u->ptypes[i]),
					args[i]->kind == VAL_SCALAR &&
						!args[i]->type->width
						? kind_name(args[i]->type->kind)
						: "a non-scalar (use mapVec over "
						  "vectors)");
		}
		lego_sbuf_printf(&b, "%s%s", i ? ", " : "", args[i]->text);
	}
	lego_sbuf_puts(&b, ")");
	char *s = lego_sbuf_take(&b);
	const char *t = s ? lego_arena_strdup(&cc->ctx->arena, s) : NULL;
	free(s);
	return t ? lift_val_scalar(cc, u->result, t) : NULL;
}

lift_val *lift_apply(lift_cc *cc, lift_fun *f, lift_val **args, size_t n)
{
	switch (f->kind) {
	case FUN_USER:
		return apply_user(cc, f, args, n);
	case FUN_LAMBDA: {
		lift_env *env = lift_bind_lambda(cc, f, args, n);
		return env ? lift_eval(cc, f->at->args[0], env) : NULL;
	}
	case FUN_COMPOSE: {
		lift_val *y = lift_apply(cc, f->g, args, n);
		return y ? lift_apply(cc, f->f, &y, 1) : NULL;
	}
	case FUN_PATTERN:
		break;
	}
	if (n != f->ndata)
		return lift_err(cc, f->at, "pattern applied to %zu argument%s, "
				"takes %zu", n, n == 1 ? "" : "s", f->ndata);
	switch (f->pat) {
	case PAT_MAP:
	case PAT_MAPSEQ:
		/* Lazy: fused into the consumer (map fusion). */
		return lift_view_map(cc, f->f, args[0], f->at);
	case PAT_MAPGLB:
	case PAT_MAPWRG:
	case PAT_MAPLCL:
		return lift_err(cc, f->at, "a parallel map must write its result: "
				"use it where its result is stored (the kernel's "
				"result, maybe through join, split or transpose)");
	case PAT_REDUCESEQ:
		return lift_reduce_seq(cc, f, args[0]);
	case PAT_REDUCE:
		return lift_reduce_par(cc, f, args[0]);
	case PAT_MAPVEC:
		return lift_map_vec(cc, f, args, n);
	case PAT_ID:
		return args[0];
	case PAT_VALUE:
		return lift_view_const(cc, f->init, f->sz[0]);
	case PAT_TUPLE:
		for (size_t k = 0; k < n; k++)
			if (args[k]->kind == VAL_ARRAY || args[k]->kind == VAL_FUN)
				return lift_err(cc, f->at, "tuple of %s: its "
						"components are scalars, vectors "
						"or tuples", args[k]->kind ==
						VAL_FUN ? "a function" : "an array");
		return lift_val_tuple(cc, args, n);
	case PAT_AT:
		return lift_at(cc, f, args[0], args[1]);
	case PAT_ITERATE: {
		/* unrolled: f applied k times */
		lift_val *v = args[0];
		for (int64_t k = 0; v && k < f->k; k++)
			v = lift_apply(cc, f->f, &v, 1);
		return v;
	}
	case PAT_TOGLOBAL:
	case PAT_TOLOCAL:
	case PAT_TOPRIVATE:
		return lift_materialise(cc, f, args, n);
	default:
		return lift_view_pattern(cc, f, args, f->at);
	}
}
