/* placeholder.c - the expression of one {{ ... }}: the .lego expression
 * grammar, with layout references L[..], L.inv(e)[k], L.stride(k) and
 * L.size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "gen/template.h"
#include "lang/parse.h"

/* An unnamed slice equal to s met before (same range, same axis): the
 * same variable, so that equal references share their expressions. */
static const gen_slice *find_slice(const gen_slices *all, const gen_slice *s)
{
	for (size_t i = 0; i < all->n; i++) {
		const gen_slice *o = &all->items[i];
		if (!o->name && o->start == s->start && o->stop == s->stop &&
		    o->axis == s->axis && o->naxes == s->naxes)
			return o;
	}
	return NULL;
}

/* What the placeholder parser shares with its hooks. */
typedef struct place_state {
	gen_slices *slices;
	const lego_expr *mask;   /* the value of the last mask(..) */
} place_state;

static int add_slice(lang_parser *p, const lang_tok *at, gen_slice *s)
{
	gen_slices *all = ((place_state *)p->user)->slices;
	const gen_slice *seen = s->name ? NULL : find_slice(all, s);
	if (seen) {
		*s = *seen;
		return 0;
	}
	char buf[32];
	const char *name = s->name;
	while (!name) { /* a fresh name: _s0, _s1, ... */
		snprintf(buf, sizeof buf, "_s%zu", all->unnamed++);
		if (!lego_sym_find(p->ctx, buf))
			name = buf;
	}
	s->sym = lego_index(p->ctx, name, s->start, s->stop);
	if (!s->sym)
		return lang_api_error(p, at);
	for (size_t i = 0; i < all->n; i++)
		if (all->items[i].sym == s->sym &&
		    (all->items[i].axis != s->axis ||
		     all->items[i].naxes != s->naxes))
			return lang_error(p, at, "slice '%s' is used on another "
					  "axis before", name);
	if (lang_grow(p, (void **)&all->items, &all->cap, all->n,
		      sizeof *all->items))
		return -1;
	all->items[all->n++] = *s;
	return 0;
}

/* Whether e is proved to lie outside [0, dim) for every value of its
 * symbols: a layout applied there reads another element or none (T[9, 0]
 * of an 8 x 8 T is T[1, 1, 0] by the formula, silently). */
static int proved_outside(lego_ctx *ctx, lego_expr *e, lego_expr *dim)
{
	lego_expr *last = lego_sub(ctx, dim, lego_const(ctx, 1));
	return lego_prove_lt(ctx, e, lego_const(ctx, 0)) ||
	       (last && lego_prove_lt(ctx, last, e));
}

/* Records cond among the conditions the references need. */
static int need(lang_parser *p, lego_expr *cond)
{
	gen_slices *all = ((place_state *)p->user)->slices;
	if (!cond)
		return lang_api_error(p, lang_peek(p));
	if (lang_grow(p, (void **)&all->needs, &all->needs_cap, all->nneeds,
		      sizeof *all->needs))
		return -1;
	all->needs[all->nneeds++] = cond;
	return 0;
}

/* lo <= e < hi */
static lego_expr *within(lego_ctx *ctx, lego_expr *lo, lego_expr *e,
			 lego_expr *hi)
{
	return lego_binop(ctx, LEGO_AND, lego_binop(ctx, LEGO_LE, lo, e),
			  lego_binop(ctx, LEGO_LT, e, hi));
}

/* An expression of an entry over [0, dim): undeclared names range over
 * it. */
static int parse_auto(lang_parser *p, lego_expr *dim, lang_val *out)
{
	int auto_index = p->auto_index;
	lego_expr *auto_hi = p->auto_hi;
	p->auto_index = 1;
	p->auto_hi = dim;
	int rc = lang_parse_expr(p, out);
	p->auto_index = auto_index;
	p->auto_hi = auto_hi;
	return rc;
}

/* The index e (at `at`) of a dim: records 0 <= e < dim, an error when
 * it is proved outside. */
static int need_index(lang_parser *p, const lang_tok *at, lego_expr *dim,
		      lego_expr *e)
{
	if (!proved_outside(p->ctx, e, dim))
		return need(p, within(p->ctx, lego_const(p->ctx, 0), e, dim));
	char *i = lego_expr_print(p->ctx, e, LEGO_LANG_PYTHON);
	char *n = lego_expr_print(p->ctx, dim, LEGO_LANG_PYTHON);
	int rc = lang_error(p, at, "index %s is outside [0, %s)", i ? i : "?",
			    n ? n : "?");
	free(i);
	free(n);
	return rc;
}

/* An index expression over [0, dim), its range recorded. */
static int parse_index(lang_parser *p, lego_expr *dim, lang_val *out)
{
	lang_tok *at = lang_peek(p);
	return parse_auto(p, dim, out) ? -1 : need_index(p, at, dim, out->e);
}

/* Bounds of a slice known to be wrong when constant. */
static int check_range(lang_parser *p, const lang_tok *at, gen_slice *s,
		       lego_expr *dim)
{
	int64_t lo, hi, n;
	int clo = lego_expr_is_const(s->start, &lo);
	int chi = lego_expr_is_const(s->stop, &hi);
	if ((clo && lo < 0) || (clo && chi && lo >= hi))
		return lang_error(p, at, "empty or negative slice range");
	if (chi && lego_expr_is_const(dim, &n) && hi > n)
		return lang_error(p, at, "slice ends at %lld, beyond the dim "
				  "of size %lld", (long long)hi, (long long)n);
	return 0;
}

/* `:`, `s:e`, `s:`, `:e`, each optionally `NAME = ...`; or an index.
 * *is_slice tells which. */
static int parse_entry(lang_parser *p, lego_expr *dim, lego_expr **idx,
		       gen_slice *s, int *is_slice)
{
	lang_tok *at = lang_peek(p);
	*s = (gen_slice){0};
	if (at->kind == TOK_IDENT && p->pos + 1 < p->ntoks &&
	    p->toks[p->pos + 1].kind == TOK_ASSIGN) {
		s->name = at->text;
		p->pos += 2;
	}
	lang_tok *first = lang_peek(p);
	lang_val v = {0};
	if (first->kind != TOK_COLON && parse_auto(p, dim, &v))
		return -1;
	*is_slice = lang_accept(p, TOK_COLON);
	if (!*is_slice) {
		*idx = v.e;
		return s->name ? lang_error(p, first, "expected ':' in the "
					    "named slice '%s'", s->name)
			       : need_index(p, first, dim, v.e);
	}
	s->start = v.e ? v.e : lego_const(p->ctx, 0);
	s->stop = dim;
	lang_tok *t = lang_peek(p);
	if (t->kind != TOK_COMMA && t->kind != TOK_RBRACKET) {
		if (lang_parse_expr(p, &v))
			return -1;
		s->stop = v.e;
	}
	if (check_range(p, first, s, dim))
		return -1;
	/* [start, stop) a range within [0, dim], possibly empty: its start
	 * may be dim itself (A[k:] at k = dim reads nothing) */
	lego_expr *zero = lego_const(p->ctx, 0);
	return need(p, lego_binop(p->ctx, LEGO_AND,
				  lego_binop(p->ctx, LEGO_AND,
					     lego_binop(p->ctx, LEGO_LE, zero,
							s->start),
					     lego_binop(p->ctx, LEGO_LE,
							s->start, s->stop)),
				  lego_binop(p->ctx, LEGO_LE, s->stop, dim)));
}

/* L[..] after the '[': its flat index, or with `mask` its mask. */
static int parse_ref(lang_parser *p, const lang_tok *at, lego_layout *l,
		     int mask, lang_val *out)
{
	size_t d = lego_layout_rank(l), n = 0, nslices = 0;
	lego_expr *idx[LANG_MAX_RANK];
	gen_slice s[LANG_MAX_RANK];
	do {
		lang_tok *t = lang_peek(p);
		int is_slice;
		if (n == d)
			return lang_error(p, t, "too many indices for layout "
					  "'%s' of rank %zu", at->text, d);
		if (parse_entry(p, lego_layout_dim(l, n), &idx[n],
				&s[nslices], &is_slice))
			return -1;
		if (is_slice)
			s[nslices++].axis = (int)n;
		n++;
	} while (lang_accept(p, TOK_COMMA));
	lang_tok *end = lang_peek(p);
	if (lang_expect(p, TOK_RBRACKET, "']' or ','"))
		return -1;
	if (n != d)
		return lang_error(p, end, "layout '%s' has rank %zu, got %zu "
				  "ind%s", at->text, d, n, n == 1 ? "ex" : "ices");
	for (size_t k = 0; k < nslices; k++) {
		size_t dim = (size_t)s[k].axis;
		s[k].axis = (int)k;
		s[k].naxes = (int)nslices;
		if (add_slice(p, at, &s[k]))
			return -1;
		idx[dim] = s[k].sym;
	}
	lego_expr *e = mask ? lego_layout_mask(p->ctx, l, idx)
			    : lego_layout_apply(p->ctx, l, idx);
	*out = (lang_val){e, 1, 1};
	return out->e ? lang_check_val(p, at, out) : lang_api_error(p, at);
}

static int parse_apply(lang_parser *p, const lang_tok *at, lego_layout *l,
		       lang_val *out)
{
	return parse_ref(p, at, l, 0, out);
}

static int parse_mask(lang_parser *p, const lang_tok *at, lego_layout *l,
		      lang_val *out)
{
	int rc = parse_ref(p, at, l, 1, out);
	((place_state *)p->user)->mask = out->e;
	return rc;
}

/* L.inv(e)[k]: coordinate k of the logical index of flat index e. */
static int parse_inv(lang_parser *p, const lang_tok *at, lego_layout *l,
		     lang_val *out)
{
	size_t d = lego_layout_rank(l);
	lego_expr *coords[LANG_MAX_RANK];
	lang_val flat;
	lego_expr *size = lego_layout_phys_size(p->ctx, l);
	if (!size)
		return lang_api_error(p, at);
	if (lang_expect(p, TOK_LPAREN, "'('") || parse_index(p, size, &flat) ||
	    lang_expect(p, TOK_RPAREN, "')'") ||
	    lang_expect(p, TOK_LBRACKET, "'[' after inv(...)"))
		return -1;
	lang_tok *k = lang_next(p);
	if (k->kind != TOK_INT || k->value < 0 || (uint64_t)k->value >= d)
		return lang_error(p, k, "expected a coordinate 0..%zu of the "
				  "inverse of '%s'", d - 1, at->text);
	if (lang_expect(p, TOK_RBRACKET, "']'"))
		return -1;
	if (lego_layout_inv(p->ctx, l, flat.e, coords) != LEGO_OK)
		return lang_api_error(p, at);
	*out = (lang_val){coords[k->value], 1, 1};
	return lang_check_val(p, at, out);
}

/* A fresh index variable _x<n> over [0, hi). */
static lego_expr *fresh_index(lang_parser *p, lego_expr *hi)
{
	char buf[32];
	for (size_t i = 0;; i++) {
		snprintf(buf, sizeof buf, "_x%zu", i);
		if (!lego_sym_find(p->ctx, buf))
			return lego_index(p->ctx, buf, lego_const(p->ctx, 0), hi);
	}
}

/* The step of L along dim k, L[.., x_k + 1, ..] - L[.., x_k, ..], over
 * fresh index variables x, x_k < n_k - 1 (x_k is 0 when n_k is a constant
 * up to 2: the simplifier does not use a range of one value).  Block
 * pointers and tensor descriptors take a layout as base + sum of stride *
 * index: that is only right when the step is the same everywhere, so the
 * simplified difference must mention none of the x; anything else is an
 * error.  For n_k = 1 the step is the formula's (any stride would do). */
static int stride_of(lang_parser *p, const lang_tok *at, const lang_tok *kt,
		     lego_layout *l, size_t k, lang_val *out)
{
	size_t d = lego_layout_rank(l);
	lego_expr *x[LANG_MAX_RANK], *next[LANG_MAX_RANK];
	lego_expr *one = lego_const(p->ctx, 1);
	for (size_t i = 0; i < d; i++) {
		lego_expr *hi = lego_layout_dim(l, i);
		int64_t n;
		if (i == k && lego_expr_is_const(hi, &n) && n <= 2)
			x[i] = lego_const(p->ctx, 0);
		else
			x[i] = fresh_index(p, i == k ? lego_sub(p->ctx, hi, one)
						     : hi);
		if (!x[i])
			return lang_api_error(p, at);
		next[i] = x[i];
	}
	next[k] = lego_add(p->ctx, x[k], one);
	lego_expr *a = lego_layout_apply(p->ctx, l, x);
	lego_expr *b = lego_layout_apply(p->ctx, l, next);
	lego_expr *diff = a && b ? lego_simplify(p->ctx,
						 lego_sub(p->ctx, b, a)) : NULL;
	if (!diff)
		return lang_api_error(p, at);
	if (lego_expr_mentions(diff, x, d)) {
		char *s = lego_expr_print(p->ctx, diff, LEGO_LANG_PYTHON);
		int rc = lang_error(p, kt, "'%s' is not strided along dim %zu: "
				    "the step %s depends on the index",
				    at->text, k, s ? s : "?");
		free(s);
		return rc;
	}
	*out = (lang_val){diff, 1, 1};
	return lang_check_val(p, at, out);
}

/* L.stride(k), k an integer constant. */
static int parse_stride(lang_parser *p, const lang_tok *at, lego_layout *l,
			lang_val *out)
{
	size_t d = lego_layout_rank(l);
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	lang_tok *k = lang_next(p);
	if (k->kind != TOK_INT || k->value < 0 || (uint64_t)k->value >= d)
		return lang_error(p, k, "expected a dim 0..%zu of '%s'", d - 1,
				  at->text);
	if (lang_expect(p, TOK_RPAREN, "')'"))
		return -1;
	return stride_of(p, at, k, l, (size_t)k->value, out);
}

static int layout_ref(lang_parser *p, const lang_tok *at, lego_layout *l,
		      lang_val *out)
{
	if (lang_accept(p, TOK_LBRACKET))
		return parse_apply(p, at, l, out);
	if (!lang_accept(p, TOK_DOT))
		return lang_error(p, at, "layout '%s' needs an index: %s[..], "
				  "%s.inv(e)[k], %s.stride(k) or %s.size",
				  at->text, at->text, at->text, at->text,
				  at->text);
	lang_tok *m = lang_next(p);
	if (lang_is_ident(m, "inv"))
		return parse_inv(p, at, l, out);
	if (lang_is_ident(m, "stride"))
		return parse_stride(p, at, l, out);
	if (lang_is_ident(m, "size")) {
		*out = (lang_val){lego_layout_size(p->ctx, l), 1, 1};
		return out->e ? lang_check_val(p, at, out) : lang_api_error(p, at);
	}
	static const char *const methods[] = {"inv", "stride", "size"};
	lego_suggest s;
	lego_suggest_init(&s, m->kind == TOK_IDENT ? m->text : "");
	lego_suggest_add_all(&s, methods, sizeof methods / sizeof *methods);
	if (*lego_suggest_hint(&s))
		return lang_error(p, m, "unknown layout method '%s'%s", m->text,
				  lego_suggest_hint(&s));
	return lang_error(p, m, "unknown layout method (inv, stride or size)");
}

lego_expr *gen_placeholder_parse(lego_spec *spec, const char *filename,
				 int line, int col, const char *text,
				 size_t len, gen_slices *slices, int *is_bool)
{
	place_state st = {slices, NULL};
	lang_parser p = {.ctx = spec->ctx, .spec = spec, .filename = filename,
			 .layout_ref = layout_ref, .layout_mask = parse_mask,
			 .user = &st};
	lang_val v;
	p.toks = lang_lex_at(spec->ctx, filename, text, len, line, col,
			     &p.ntoks);
	if (!p.toks)
		return NULL;
	if (lang_peek(&p)->kind == TOK_EOF) {
		lang_error(&p, lang_peek(&p), "empty placeholder");
		return NULL;
	}
	if (lang_parse_expr(&p, &v) ||
	    lang_expect(&p, TOK_EOF, "end of placeholder"))
		return NULL;
	lego_expr_kind k = lego_expr_kind_of(v.e);
	*is_bool = v.e == st.mask || (k >= LEGO_EQ && k <= LEGO_NOT);
	return v.e;
}
