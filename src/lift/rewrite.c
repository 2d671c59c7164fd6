/* rewrite.c - Lift's rewrite rules on the syntax tree (seed 004 and its
 * companion work on exploration).  Each rule rewrites one site, found in
 * pre-order; the rewritten program shares the untouched subtrees.  Rules
 * that hold only for some functions (reduce splitting needs f
 * associative with init its identity) or sizes (split needs n | length)
 * may give programs the type checker rejects or that compute something
 * else: the rules are checked on the examples by differential testing
 * (tests/lift/run.sh), and the explorer keeps what type checks.
 *
 *   fusion        map(f) o map(g)          -> map(f o g)
 *                 map(f) $ map(g) $ x      -> map(f o g) $ x
 *   split-join    map(f)                   -> join o map(map(f)) o split(n)
 *   reduce-split  reduceSeq(f, z)          -> reduceSeq(f, z) o join
 *                                             o map(reduceSeq(f, z)) o split(n)
 *   to-seq, to-glb, to-wrg, to-lcl   map   -> mapSeq, mapGlb, mapWrg, mapLcl
 *   vectorize     map(f)                   -> asScalar o map(mapVec(f))
 *                                             o asVector(n)
 *                 map(f) $ zip(a, ..)      -> asScalar o map(mapVec(f))
 *                                             $ zip(asVector(n, a), ..)
 *                 (f scalar, applied to each component of the vectors;
 *                 n a vector width)
 *   tiling        map(map(f))              -> map(join) o join o map(transpose)
 *                                             o map(map(map(map(f))))
 *                                             o map(transpose)
 *                                             o map(map(split(n))) o split(n)
 *                 (n x n tiles: split rows and columns, bring the two tile
 *                 indices outside, map f over each tile, and undo the
 *                 transposes and splits on the written side) */
#include <stdio.h>
#include <string.h>

#include "lift/lift.h"

static const char *const rule_names[LIFT_NRULES] = {
	"fusion", "split-join", "reduce-split", "to-seq", "to-glb", "to-wrg",
	"to-lcl", "tiling", "vectorize", "unroll",
};

const char *lift_rule_name(lift_rule r)
{
	return r < LIFT_NRULES ? rule_names[r] : NULL;
}

int lift_rule_find(const char *name)
{
	for (int r = 0; r < LIFT_NRULES; r++)
		if (!strcmp(rule_names[r], name))
			return r;
	return -1;
}

int lift_rule_takes_size(lift_rule r)
{
	return lift_rule_size_tunable(r) || r == LIFT_RULE_VECTORIZE;
}

int lift_rule_size_tunable(lift_rule r)
{
	return r == LIFT_RULE_SPLIT_JOIN || r == LIFT_RULE_REDUCE_SPLIT ||
	       r == LIFT_RULE_TILING;
}

typedef struct rw {
	lego_ctx *ctx;
	lift_rule rule;
	size_t site;               /* the site to rewrite; SIZE_MAX: count */
	size_t seen;
	int64_t n;                 /* split size */
	const char *param;         /* or this size symbol */
} rw;

static lift_ast *node(rw *w, lift_ast_kind kind, const lift_ast *at,
		      const char *name, size_t nargs)
{
	lift_ast *a = lego_arena_alloc(&w->ctx->arena, sizeof *a);
	if (!a)
		return NULL;
	a->kind = kind;
	a->line = at->line;
	a->col = at->col;
	a->name = name;
	a->nargs = nargs;
	a->args = nargs ? lego_arena_alloc(&w->ctx->arena,
					   nargs * sizeof *a->args)
			: NULL;
	return !nargs || a->args ? a : NULL;
}

static lift_ast *call1(rw *w, const lift_ast *at, const char *name,
		       lift_ast *arg)
{
	lift_ast *c = arg ? node(w, LIFT_CALL, at, name, 1) : NULL;
	if (c)
		c->args[0] = arg;
	return c;
}

static lift_ast *compose(rw *w, lift_ast *f, lift_ast *g)
{
	lift_ast *c = f && g ? node(w, LIFT_COMPOSE, f, "o", 2) : NULL;
	if (c) {
		c->args[0] = f;
		c->args[1] = g;
	}
	return c;
}

/* The rewrite's size: the literal n or the parameter. */
static lift_ast *size_n(rw *w, const lift_ast *at)
{
	char num[32];
	snprintf(num, sizeof num, "%lld", (long long)w->n);
	lift_ast *n = node(w, w->param ? LIFT_VAR : LIFT_NUM, at,
			   w->param ? w->param
				    : lego_arena_strdup(&w->ctx->arena, num), 0);
	return n && n->name ? n : NULL;
}

static lift_ast *split_n(rw *w, const lift_ast *at)
{
	return call1(w, at, "split", size_n(w, at));
}

static int is_map(const lift_ast *a, size_t nargs)
{
	return a->kind == LIFT_CALL && a->nargs == nargs &&
	       (!strcmp(a->name, "map") || !strcmp(a->name, "mapSeq"));
}

static lift_ast *var(rw *w, const lift_ast *at, const char *name)
{
	return node(w, LIFT_VAR, at, name, 0);
}

/* map(map(f)) as n x n tiles (the tiling rule above); outer and inner
 * keep the names of a and its inner map at each level. */
static lift_ast *tiled(rw *w, lift_ast *a)
{
	const char *outer = a->name, *inner = a->args[0]->name;
	lift_ast *f = a->args[0]->args[0];
	lift_ast *each = call1(w, a, outer, call1(w, a, inner,
			       call1(w, a, outer, call1(w, a, inner, f))));
	lift_ast *tr = call1(w, a, "map", var(w, a, "transpose"));
	lift_ast *tr2 = call1(w, a, "map", var(w, a, "transpose"));
	lift_ast *cols = call1(w, a, "map", call1(w, a, "map", split_n(w, a)));
	lift_ast *rows = compose(w, tr2, compose(w, cols, split_n(w, a)));
	return compose(w, call1(w, a, "map", var(w, a, "join")),
		       compose(w, var(w, a, "join"),
			       compose(w, tr, compose(w, each, rows))));
}

/* map(f) made to map f's vectorised form over vectors: the map keeps its
 * name, its data are seen as vectors of width n (asVector) and its
 * result as their components (asScalar). */
static lift_ast *vec_map(rw *w, lift_ast *m)
{
	return call1(w, m, m->name, call1(w, m, "mapVec", m->args[0]));
}

static lift_ast *vectorized(rw *w, lift_ast *a)
{
	lift_ast *as_scalar = var(w, a, "asScalar");
	if (is_map(a, 1))
		return compose(w, as_scalar,
			       compose(w, vec_map(w, a),
				       call1(w, a, "asVector", size_n(w, a))));
	/* map(f) $ zip(a, ..): each array zipped seen as vectors */
	lift_ast *zip = a->args[1];
	lift_ast *z = node(w, LIFT_CALL, zip, "zip", zip->nargs);
	lift_ast *r = node(w, LIFT_APPLY, a, "$", 2);
	for (size_t k = 0; z && k < zip->nargs; k++) {
		lift_ast *v = node(w, LIFT_CALL, zip->args[k], "asVector", 2);
		if (!v)
			return NULL;
		v->args[0] = size_n(w, zip->args[k]);
		v->args[1] = zip->args[k];
		z->args[k] = v;
	}
	if (!z || !r)
		return NULL;
	r->args[0] = compose(w, as_scalar, vec_map(w, a->args[0]));
	r->args[1] = z;
	return r->args[0] ? r : NULL;
}

/* The rewritten node if the rule applies at a, else a itself. */
static lift_ast *at_node(rw *w, lift_ast *a)
{
	lift_ast *r = NULL;
	switch (w->rule) {
	case LIFT_RULE_FUSION:
		if (a->kind == LIFT_COMPOSE && is_map(a->args[0], 1)) {
			lift_ast *g = a->args[1];
			lift_ast *rest = NULL;
			if (g->kind == LIFT_COMPOSE && is_map(g->args[0], 1)) {
				rest = g->args[1];
				g = g->args[0];
			}
			if (is_map(g, 1))
				r = call1(w, a, a->args[0]->name,
					  compose(w, a->args[0]->args[0],
						  g->args[0]));
			if (r && rest)
				r = compose(w, r, rest);
		} else if (a->kind == LIFT_APPLY && is_map(a->args[0], 1) &&
			   a->args[1]->kind == LIFT_APPLY &&
			   is_map(a->args[1]->args[0], 1)) {
			lift_ast *x = a->args[1]->args[1];
			lift_ast *m = call1(w, a, a->args[0]->name,
					    compose(w, a->args[0]->args[0],
						    a->args[1]->args[0]->args[0]));
			if (m && (r = node(w, LIFT_APPLY, a, "$", 2))) {
				r->args[0] = m;
				r->args[1] = x;
			}
		}
		break;
	case LIFT_RULE_SPLIT_JOIN:
		if (is_map(a, 1)) {
			r = compose(w, var(w, a, "join"), compose(w, call1(w, a, a->name,
							      call1(w, a, a->name,
								    a->args[0])),
						   split_n(w, a)));
		}
		break;
	case LIFT_RULE_REDUCE_SPLIT:
		if (a->kind == LIFT_CALL && a->nargs == 2 &&
		    !strcmp(a->name, "reduceSeq")) {
			r = compose(w, a, compose(w, var(w, a, "join"),
						  compose(w, call1(w, a, "map", a),
							  split_n(w, a))));
		}
		break;
	case LIFT_RULE_UNROLL:
		if (a->kind == LIFT_CALL && a->nargs == 2 &&
		    !strcmp(a->name, "reduceSeq") &&
		    (r = node(w, LIFT_CALL, a, "reduceSeqUnroll", 2)))
			memcpy(r->args, a->args, 2 * sizeof *a->args);
		break;
	case LIFT_RULE_TILING:
		if (is_map(a, 1) && is_map(a->args[0], 1))
			r = tiled(w, a);
		break;
	case LIFT_RULE_VECTORIZE:
		if (is_map(a, 1) ||
		    (a->kind == LIFT_APPLY && is_map(a->args[0], 1) &&
		     a->args[1]->kind == LIFT_CALL &&
		     !strcmp(a->args[1]->name, "zip") && a->args[1]->nargs))
			r = vectorized(w, a);
		break;
	default:
		if (a->kind == LIFT_CALL && a->nargs >= 1 &&
		    !strcmp(a->name, "map")) {
			static const char *const to[] = {"mapSeq", "mapGlb",
							 "mapWrg", "mapLcl"};
			r = node(w, LIFT_CALL, a, to[w->rule - LIFT_RULE_TO_SEQ],
				 a->nargs);
			if (r)
				memcpy(r->args, a->args,
				       a->nargs * sizeof *a->args);
		}
		break;
	}
	if (!r)
		return a;
	return w->seen++ == w->site ? r : a;
}

/* Pre-order: the node first, then its children. */
static lift_ast *walk(rw *w, lift_ast *a)
{
	lift_ast *r = at_node(w, a);
	if (r != a || w->seen > w->site)
		return r;
	lift_ast *copy = NULL;
	for (size_t k = 0; k < a->nargs; k++) {
		lift_ast *c = walk(w, a->args[k]);
		if (!c)
			return NULL;
		if (c != a->args[k] && !copy) {
			copy = lego_arena_alloc(&w->ctx->arena, sizeof *copy);
			lift_ast **args = lego_arena_alloc(&w->ctx->arena,
							   a->nargs * sizeof *args);
			if (!copy || !args)
				return NULL;
			*copy = *a;
			memcpy(args, a->args, a->nargs * sizeof *args);
			copy->args = args;
		}
		if (copy)
			copy->args[k] = c;
	}
	return copy ? copy : a;
}

size_t lift_rewrite_sites(lego_ctx *ctx, const lift_program *p,
			  lift_rule rule)
{
	rw w = {.ctx = ctx, .rule = rule, .site = (size_t)-1, .n = 2};
	walk(&w, p->body);
	return w.seen;
}

/* p's sizes and the new size symbol name, in the arena. */
static const char **add_size(lego_ctx *ctx, const lift_program *p,
			     const char *name)
{
	const char **sizes = lego_arena_alloc(&ctx->arena,
					      (p->nsizes + 1) * sizeof *sizes);
	if (!sizes || !lego_sym(ctx, name))
		return NULL;
	for (size_t k = 0; k < p->nsizes; k++)
		if (!strcmp(p->sizes[k], name)) {
			lego_fail(ctx, LEGO_ERR, "%s: error: the tune parameter "
				  "%s is a size of the program", p->file, name);
			return NULL;
		}
	memcpy(sizes, p->sizes, p->nsizes * sizeof *sizes);
	sizes[p->nsizes] = lego_arena_strdup(&ctx->arena, name);
	return sizes[p->nsizes] ? sizes : NULL;
}

lift_program *lift_rewrite(lego_ctx *ctx, const lift_program *p,
			   lift_rule rule, size_t site, int64_t n,
			   const char *param)
{
	int tuned = param && lift_rule_size_tunable(rule);
	const char **sizes = tuned ? add_size(ctx, p, param) : NULL;
	if (tuned && !sizes)
		return NULL;
	rw w = {.ctx = ctx, .rule = rule, .site = site, .n = n,
		.param = sizes ? sizes[p->nsizes] : NULL};
	lift_ast *body = walk(&w, p->body);
	lift_program *q = body && w.seen > site
				  ? lego_arena_alloc(&ctx->arena, sizeof *q)
				  : NULL;
	if (!q) {
		if (body)
			lego_fail(ctx, LEGO_ERR, "%s: error: rule %s has no site %zu",
				  p->file, lift_rule_name(rule), site);
		return NULL;
	}
	*q = *p;
	q->body = body;
	if (sizes) {
		q->sizes = sizes;
		q->nsizes++;
		q->ntunes++;
	}
	return q;
}
