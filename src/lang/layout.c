/* layout.c - layout expressions: pieces, OrderBy and dotted chains. */
#include <string.h>

#include "lang/parse.h"
#include "layout/layout.h"

/* A list of layouts being collected (levels of an OrderBy, a chain). */
typedef struct lay_list {
	lego_layout **items;
	size_t n, cap;
} lay_list;

static int list_push(lang_parser *p, const lang_tok *at, lay_list *list,
		     lego_layout *l)
{
	if (list->n == LANG_MAX_CHAIN)
		return lang_error(p, at, "too many levels (limit %d)",
				  LANG_MAX_CHAIN);
	if (lang_grow(p, (void **)&list->items, &list->cap, list->n,
		      sizeof *list->items))
		return -1;
	list->items[list->n++] = l;
	return 0;
}

static int made(lang_parser *p, const lang_tok *at, lego_layout *l,
		int is_perm, lang_lval *out)
{
	if (!l)
		return lang_api_error(p, at);
	*out = (lang_lval){l, is_perm};
	return 0;
}

/* Where a chain is expected a bare permutation P stands for OrderBy(P). */
static int as_orderby(lang_parser *p, const lang_tok *at, lang_lval *v)
{
	if (!v->is_perm)
		return 0;
	return made(p, at, lego_orderby(p->ctx, 1, &v->l), 0, v);
}

static int parse_perm(lang_parser *p, size_t d, int **perm)
{
	lang_tok *at = lang_peek(p);
	lang_list l = {0};
	if (lang_parse_list(p, 0, &l, NULL))
		return -1;
	lego_expr **entries = l.items;
	size_t n = l.n;
	if (n != d)
		return lang_error(p, at, "RegP has %zu dims but its permutation "
				  "has %zu entries", d, n);
	*perm = lego_xalloc(p->ctx, n * sizeof **perm);
	if (!*perm)
		return lang_api_error(p, at);
	for (size_t k = 0; k < n; k++) {
		int64_t v;
		if (!lego_expr_is_const(entries[k], &v) || v < 1 || v > (int64_t)n)
			return lang_error(p, at, "[..] is not a permutation of "
					  "1..%zu (entry %zu)", n, k + 1);
		(*perm)[k] = (int)v;
	}
	return 0;
}

/* A piece's dims (docs/language.md: a dim written a / b is exact). */
static int piece_dims(lang_parser *p, int paren, lego_expr ***dims,
		      size_t *d)
{
	lang_list l = {0};
	p->exact_dims = 1;
	int rc = lang_parse_list(p, paren, &l, NULL);
	p->exact_dims = 0;
	*dims = l.items;
	*d = l.n;
	return rc;
}

static int parse_regp(lang_parser *p, const lang_tok *at, lang_lval *out)
{
	lego_expr **dims = NULL;
	size_t d;
	int *perm = NULL;
	if (lang_expect(p, TOK_LPAREN, "'('") ||
	    piece_dims(p, 0, &dims, &d) ||
	    lang_expect(p, TOK_COMMA, "','") || parse_perm(p, d, &perm) ||
	    lang_expect(p, TOK_RPAREN, "')'"))
		return -1;
	return made(p, at, lego_regp(p->ctx, d, dims, perm), 1, out);
}

static int parse_genp(lang_parser *p, const lang_tok *at, lang_lval *out)
{
	lego_expr **dims = NULL;
	size_t d;
	if (lang_expect(p, TOK_LPAREN, "'('") ||
	    piece_dims(p, 0, &dims, &d) ||
	    lang_expect(p, TOK_COMMA, "','") ||
	    lang_parse_genp_fn(p, d, dims, out))
		return -1;
	return lang_expect(p, TOK_RPAREN, "')'");
}

static int parse_row_col(lang_parser *p, const lang_tok *at, lang_lval *out)
{
	lego_expr **dims = NULL;
	size_t d;
	if (piece_dims(p, 1, &dims, &d))
		return -1;
	lego_layout *l = at->text[0] == 'R' ? lego_row(p->ctx, d, dims)
					    : lego_col(p->ctx, d, dims);
	return made(p, at, l, 1, out);
}

/* "(L1, .., Lq)": the levels of an OrderBy. */
static int parse_levels(lang_parser *p, lay_list *levels)
{
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	do {
		lang_tok *at = lang_peek(p);
		lang_lval v;
		if (lang_parse_layout(p, &v) ||
		    list_push(p, at, levels, v.l))
			return -1;
	} while (lang_accept(p, TOK_COMMA));
	return lang_expect(p, TOK_RPAREN, "')' or ','");
}

static int parse_orderby(lang_parser *p, const lang_tok *at, lang_lval *out)
{
	lay_list levels = {0};
	if (parse_levels(p, &levels))
		return -1;
	lego_layout *l = at->text[0] == 'T'
				 ? lego_tile_orderby(p->ctx, levels.n, levels.items)
				 : lego_orderby(p->ctx, levels.n, levels.items);
	return made(p, at, l, 0, out);
}

static int parse_named(lang_parser *p, const lang_tok *at, lang_lval *out)
{
	lang_name *n = lang_lookup(p->spec, at->text);
	if (n && n->kind == NAME_LAYOUT) {
		*out = n->layout;
		return 0;
	}
	if (n)
		return lang_error(p, at, "'%s' is %s, not a layout", at->text,
				  n->kind == NAME_GENP ? "a genp function"
						       : "an expression");
	static const char *const words[] = {"RegP", "GenP", "Row", "Col"};
	return lang_error_unknown(p, at, "layout", words,
				  sizeof words / sizeof *words,
				  1u << NAME_LAYOUT);
}

static int parse_primary(lang_parser *p, lang_lval *out)
{
	lang_tok *at = lang_next(p);
	char buf[64];
	if (at->kind != TOK_IDENT)
		return lang_error(p, at, "expected a layout, got %s",
				  lang_tok_describe(at, buf, sizeof buf));
	if (!strcmp(at->text, "RegP"))
		return parse_regp(p, at, out);
	if (!strcmp(at->text, "GenP"))
		return parse_genp(p, at, out);
	if (!strcmp(at->text, "Row") || !strcmp(at->text, "Col"))
		return parse_row_col(p, at, out);
	if (!strcmp(at->text, "OrderBy") || !strcmp(at->text, "TileOrderBy"))
		return parse_orderby(p, at, out);
	return parse_named(p, at, out);
}

/* "([..], .., [..])": groups for GroupBy, tile sizes for TileBy. */
static int parse_tuples(lang_parser *p, lego_expr ***dims, size_t *ndims,
			size_t **lens, size_t *ntuples, unsigned char **marks)
{
	size_t lens_cap = 0;
	/* marks: cdiv(a, b) is told by where it was written (constants
	 * fold, so the expression cannot tell). */
	lang_list l = {.want_marks = marks != NULL};
	*ntuples = 0;
	*lens = NULL;
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	do {
		lang_tok *at = lang_peek(p);
		size_t n;
		if (*ntuples == LANG_MAX_CHAIN)
			return lang_error(p, at, "too many levels (limit %d)",
					  LANG_MAX_CHAIN);
		if (lang_grow(p, (void **)lens, &lens_cap, *ntuples,
			      sizeof **lens) ||
		    lang_parse_list(p, 0, &l, &n))
			return -1;
		(*lens)[(*ntuples)++] = n;
	} while (lang_accept(p, TOK_COMMA));
	*dims = l.items;
	*ndims = l.n;
	if (marks)
		*marks = l.marks;
	return lang_expect(p, TOK_RPAREN, "')' or ','");
}

static lego_layout *tileby(lang_parser *p, const lang_tok *at,
			   const lay_list *chain)
{
	lego_expr **sizes = NULL;
	unsigned char *marks = NULL;
	size_t n, *lens, q;
	int saved = p->exact_div;
	p->exact_div = 1;
	int rc = parse_tuples(p, &sizes, &n, &lens, &q, &marks);
	p->exact_div = saved;
	if (rc)
		return NULL;
	for (size_t h = 1; h < q; h++)
		if (lens[h] != lens[0]) {
			lang_error(p, at, "TileBy level %zu has %zu sizes, "
				   "level 1 has %zu", h + 1, lens[h], lens[0]);
			return NULL;
		}
	for (size_t k = lens[0]; k < n; k++)
		if (marks[k]) {
			lang_error(p, at, "TileBy: cdiv(..) is a padded tile "
				   "count: write it in the first (outermost) "
				   "level");
			return NULL;
		}
	lego_layout *l = layout_tileby(p->ctx, chain->n, chain->items, q,
				       lens[0], sizes, marks);
	if (!l)
		lang_api_error(p, at);
	return l;
}

static lego_layout *groupby(lang_parser *p, const lang_tok *at,
			    const lay_list *chain)
{
	lego_expr **dims = NULL;
	size_t n, *lens, ngroups;
	if (parse_tuples(p, &dims, &n, &lens, &ngroups, NULL))
		return NULL;
	lego_layout *l = lego_groupby(p->ctx, ngroups, lens, dims, chain->n,
				      chain->items);
	if (!l)
		lang_api_error(p, at);
	return l;
}

/* A chain of several OrderBys left without GroupBy has the logical dims of
 * its last one. */
static lego_layout *close_chain(lang_parser *p, const lang_tok *at,
				const lay_list *chain)
{
	if (chain->n == 1)
		return chain->items[0];
	lego_layout *last = chain->items[chain->n - 1];
	size_t rank = lego_layout_rank(last);
	lego_expr **dims = lego_xalloc(p->ctx, (rank ? rank : 1) * sizeof *dims);
	if (!dims)
		return NULL;
	for (size_t k = 0; k < rank; k++)
		dims[k] = lego_layout_dim(last, k);
	lego_layout *l = lego_groupby(p->ctx, 1, &rank, dims, chain->n,
				      chain->items);
	if (!l)
		lang_api_error(p, at);
	return l;
}

/* ".OrderBy(..)", ".NAME", ".GroupBy(..)", ".TileBy(..)" after the first
 * link; as in the paper, O1.O2 is the chain [O1, O2]. */
static int parse_method(lang_parser *p, lay_list *chain)
{
	lang_tok *at = lang_next(p);
	char buf[64];
	if (lang_is_ident(at, "OrderBy")) {
		lang_lval o;
		return parse_orderby(p, at, &o) || list_push(p, at, chain, o.l);
	}
	int tile = lang_is_ident(at, "TileBy");
	lang_name *named = at->kind == TOK_IDENT ? lang_lookup(p->spec, at->text)
						 : NULL;
	if (named && named->kind == NAME_LAYOUT) {
		lang_lval o = named->layout;
		return as_orderby(p, at, &o) || list_push(p, at, chain, o.l);
	}
	if (!tile && !lang_is_ident(at, "GroupBy"))
		return lang_error(p, at, "expected OrderBy, GroupBy, TileBy or "
				  "a layout name after '.', got %s",
				  lang_tok_describe(at, buf, sizeof buf));
	lego_layout *l = tile ? tileby(p, at, chain) : groupby(p, at, chain);
	if (!l)
		return -1;
	chain->n = 0;
	return list_push(p, at, chain, l);
}

int lang_parse_layout(lang_parser *p, lang_lval *out)
{
	lang_tok *start = lang_peek(p);
	lay_list chain = {0};
	if (lang_enter(p, start))
		return -1;
	int rc = parse_primary(p, out);
	if (!rc && lang_peek(p)->kind == TOK_DOT) {
		rc = as_orderby(p, start, out) ||
		     list_push(p, start, &chain, out->l);
		while (!rc && lang_accept(p, TOK_DOT))
			rc = parse_method(p, &chain);
		lego_layout *l = rc ? NULL : close_chain(p, start, &chain);
		rc = rc || !l;
		*out = (lang_lval){l, 0};
	}
	lang_leave(p);
	return rc ? -1 : 0;
}
