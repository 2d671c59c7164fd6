/* genp.c - GenP functions: the built-ins and `genp` declarations. */
#include <stdio.h>
#include <string.h>

#include "lang/parse.h"
#include "layout/layout.h"

static int made(lang_parser *p, const lang_tok *at, lego_layout *l,
		lang_lval *out)
{
	if (!l)
		return lang_api_error(p, at);
	*out = (lang_lval){l, 1};
	return 0;
}

static int want_dims(lang_parser *p, const lang_tok *at, size_t d,
		     size_t want)
{
	if (d == want)
		return 0;
	return lang_error(p, at, "%s takes %zu dims, GenP gives %zu", at->text,
			  want, d);
}

static int const_int(lang_parser *p, int *out)
{
	lang_tok *at = lang_peek(p);
	lang_val v;
	int64_t x;
	if (lang_parse_expr(p, &v))
		return -1;
	if (!lego_expr_is_const(v.e, &x) || x < 0 || x > 64)
		return lang_error(p, at, "swizzle arguments must be integer "
				  "constants in [0, 64]");
	*out = (int)x;
	return 0;
}

static int parse_swizzle(lang_parser *p, const lang_tok *at, size_t d,
			 lego_expr **dims, lang_lval *out)
{
	int b, m, s;
	if (lang_expect(p, TOK_LPAREN, "'('") || const_int(p, &b) ||
	    lang_expect(p, TOK_COMMA, "','") || const_int(p, &m) ||
	    lang_expect(p, TOK_COMMA, "','") || const_int(p, &s) ||
	    lang_expect(p, TOK_RPAREN, "')'"))
		return -1;
	return made(p, at, lego_genp_swizzle(p->ctx, b, m, s, d, dims), out);
}

/* A user genp at one use: its template dims replaced by the actual ones. */
static int instantiate(lang_parser *p, const lang_tok *at, const lang_genp *g,
		       size_t d, lego_expr **dims, lang_lval *out)
{
	lego_ctx *ctx = p->ctx;
	if (want_dims(p, at, d, g->d))
		return -1;
	lego_expr **inv = lego_xalloc(ctx, d * sizeof *inv);
	if (!inv)
		return lang_api_error(p, at);
	lego_expr *apply = lego_expr_subst(ctx, g->apply_e.e, d, g->dims, dims);
	if (!apply)
		return lang_api_error(p, at);
	for (size_t k = 0; k < d; k++)
		if (!(inv[k] = lego_expr_subst(ctx, g->inv_e[k].e, d, g->dims,
					       dims)))
			return lang_api_error(p, at);
	lego_layout *l = lego_genp_exprs(ctx, at->text, d, dims, g->params,
					 apply, g->flat, inv);
	if (l && (layout_genp_locate(ctx, l, g->apply_at, g->inv_at) ||
		  layout_genp_template(ctx, l, g->tmpl)))
		l = NULL;
	return made(p, at, l, out);
}

int lang_parse_genp_fn(lang_parser *p, size_t d, lego_expr **dims,
		       lang_lval *out)
{
	lang_tok *at = lang_next(p);
	char buf[64];
	if (at->kind != TOK_IDENT)
		return lang_error(p, at, "expected a GenP function, got %s",
				  lang_tok_describe(at, buf, sizeof buf));
	if (!strcmp(at->text, "antidiag")) {
		if (want_dims(p, at, d, 2))
			return -1;
		if (dims[0] != dims[1])
			return lang_error(p, at, "antidiag needs square dims "
					  "[n, n]");
		return made(p, at, lego_genp_antidiag(p->ctx, dims[0]), out);
	}
	if (!strcmp(at->text, "morton"))
		return want_dims(p, at, d, 2) ||
		       made(p, at, lego_genp_morton(p->ctx, dims[0], dims[1]),
			    out);
	if (!strcmp(at->text, "swizzle"))
		return parse_swizzle(p, at, d, dims, out);
	lang_name *n = lang_lookup(p->spec, at->text);
	if (n && n->kind == NAME_GENP)
		return instantiate(p, at, n->genp, d, dims, out);
	if (n)
		return lang_error(p, at, "'%s' is not a genp function",
				  at->text);
	static const char *const builtin[] = {"antidiag", "morton", "swizzle"};
	return lang_error_unknown(p, at, "genp function", builtin,
				  sizeof builtin / sizeof *builtin,
				  1u << NAME_GENP);
}

/* ------------------------------------------------------------ declaration */

/* Names local to a declaration, appended to p->locals; those from index
 * `first` on must differ. */
static int parse_local_names(lang_parser *p, const char *genp,
			     lang_tok_kind open, lang_tok_kind close,
			     size_t first)
{
	if (lang_expect(p, open, open == TOK_LBRACKET ? "'['" : "'('"))
		return -1;
	do {
		lang_tok *at = lang_peek(p);
		if (lang_expect(p, TOK_IDENT, "a name"))
			return -1;
		if (lang_is_reserved(at->text))
			return lang_error(p, at, "'%s' is reserved", at->text);
		for (size_t i = first; i < p->nlocals; i++)
			if (!strcmp(p->locals[i].name, at->text))
				return lang_error(p, at, "'%s' is already a name "
						  "of genp '%s'", at->text, genp);
		if (p->nlocals - first == LANG_MAX_RANK)
			return lang_error(p, at, "too many names (limit %d)",
					  LANG_MAX_RANK);
		if (lang_grow(p, (void **)&p->locals, &p->locals_cap, p->nlocals,
			      sizeof *p->locals))
			return -1;
		p->locals[p->nlocals++] = (lang_local){at->text, {0}};
	} while (lang_accept(p, TOK_COMMA));
	return lang_expect(p, close, close == TOK_RBRACKET ? "']' or ','"
							   : "')' or ','");
}

static lego_expr *template_sym(lang_parser *p, const char *genp,
			       const char *name, lego_expr *hi)
{
	char full[256];
	snprintf(full, sizeof full, "%.120s.%.120s", genp, name);
	return hi ? lego_index(p->ctx, full, NULL, hi) : lego_sym(p->ctx, full);
}

static lang_val local_val(lego_expr *e)
{
	return (lang_val){e, 0, 1};
}

/* "[d..](i..)": binds the dims and the index names. */
static int parse_signature(lang_parser *p, const char *name, lang_genp *g)
{
	lang_tok *at = lang_peek(p);
	if (parse_local_names(p, name, TOK_LBRACKET, TOK_RBRACKET, 0))
		return -1;
	g->d = p->nlocals;
	lang_tok *params_at = lang_peek(p);
	if (parse_local_names(p, name, TOK_LPAREN, TOK_RPAREN, 0))
		return -1;
	if (p->nlocals != 2 * g->d)
		return lang_error(p, params_at, "genp '%s' has %zu dims but "
				  "%zu index names", name, g->d,
				  p->nlocals - g->d);
	g->dims = lego_xalloc(p->ctx, g->d * sizeof *g->dims);
	g->params = lego_xalloc(p->ctx, g->d * sizeof *g->params);
	g->inv_e = lego_xalloc(p->ctx, g->d * sizeof *g->inv_e);
	if (!g->dims || !g->params || !g->inv_e)
		return lang_api_error(p, at);
	for (size_t k = 0; k < g->d; k++) {
		lang_local *dim = &p->locals[k], *idx = &p->locals[g->d + k];
		g->dims[k] = template_sym(p, name, dim->name, NULL);
		g->params[k] = g->dims[k] ? template_sym(p, name, idx->name,
							 g->dims[k])
					  : NULL;
		if (!g->params[k])
			return lang_api_error(p, at);
		dim->val = local_val(g->dims[k]);
		idx->val = local_val(g->params[k]);
	}
	return 0;
}

/* "file:line:col" of a token, in the arena. */
static const char *location(lang_parser *p, const lang_tok *at)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s:%d:%d", p->filename, at->line, at->col);
	const char *s = lego_arena_strdup(&p->ctx->arena, buf);
	if (!s)
		lego_fail(p->ctx, LEGO_ENOMEM, "out of memory");
	return s;
}

/* "inverse (x) = (e1, .., ed)", with the dims and x in scope. */
static int parse_inverse(lang_parser *p, const char *name, lang_genp *g)
{
	lang_tok *at = lang_next(p);
	char buf[64];
	if (!lang_is_ident(at, "inverse"))
		return lang_error(p, at, "expected 'inverse', got %s",
				  lang_tok_describe(at, buf, sizeof buf));
	p->nlocals = g->d;
	lang_tok *x_at = lang_peek(p);
	if (parse_local_names(p, name, TOK_LPAREN, TOK_RPAREN, 0))
		return -1;
	if (p->nlocals != g->d + 1)
		return lang_error(p, x_at, "the inverse of a genp takes one "
				  "flat index");
	lego_expr *size = lego_const(p->ctx, 1);
	for (size_t k = 0; k < g->d && size; k++)
		size = lego_mul(p->ctx, size, g->dims[k]);
	g->flat = size ? template_sym(p, name, p->locals[g->d].name, size)
		       : NULL;
	if (!g->flat)
		return lang_api_error(p, x_at);
	p->locals[g->d].val = local_val(g->flat);
	if (lang_expect(p, TOK_ASSIGN, "'='") ||
	    lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	size_t n = 0;
	lang_tok *list_at = lang_peek(p);
	if (!(g->inv_at = location(p, list_at)))
		return lang_api_error(p, list_at);
	do {
		lang_val v;
		if (lang_parse_expr(p, &v))
			return -1;
		if (n < g->d)
			g->inv_e[n] = v;
		n++;
	} while (lang_accept(p, TOK_COMMA));
	if (lang_expect(p, TOK_RPAREN, "')' or ','"))
		return -1;
	if (n != g->d)
		return lang_error(p, list_at, "the inverse of genp '%s' gives %zu "
				  "coordinates, expected %zu", name, n, g->d);
	return 0;
}

/* The GenP over the declaration's own dims: what every use instantiates,
 * its bijection proved once for all dims (src/proof/genp.c). */
static int make_template(lang_parser *p, const lang_tok *at, lang_genp *g)
{
	lego_expr **inv = lego_xalloc(p->ctx, g->d * sizeof *inv);
	if (!inv)
		return lang_api_error(p, at);
	for (size_t k = 0; k < g->d; k++)
		inv[k] = g->inv_e[k].e;
	g->tmpl = lego_genp_exprs(p->ctx, at->text, g->d, g->dims, g->params,
				  g->apply_e.e, g->flat, inv);
	if (!g->tmpl || layout_genp_locate(p->ctx, g->tmpl, g->apply_at,
					   g->inv_at))
		return lang_api_error(p, at);
	return 0;
}

int lang_decl_genp(lang_parser *p)
{
	lang_tok *at = lang_peek(p);
	lang_name *n = lang_declare(p, NAME_GENP);
	lang_genp *g = n ? lego_xalloc(p->ctx, sizeof *g) : NULL;
	if (!g)
		return n ? lang_api_error(p, at) : -1;
	n->genp = g;
	p->nlocals = 0;
	int rc = parse_signature(p, at->text, g) ||
		 lang_expect(p, TOK_ASSIGN, "'='") ||
		 !(g->apply_at = location(p, lang_peek(p))) ||
		 lang_parse_expr(p, &g->apply_e) || parse_inverse(p, at->text, g) ||
		 make_template(p, at, g);
	p->nlocals = 0;
	if (rc)
		return -1;
	return lang_bind(p, n);
}
