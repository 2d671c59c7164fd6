/* util.c - token stream, error reporting and names for the parser. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lang/parse.h"

lang_tok *lang_peek(lang_parser *p)
{
	return &p->toks[p->pos];
}

/* The last token is TOK_EOF and is never consumed. */
lang_tok *lang_next(lang_parser *p)
{
	lang_tok *t = &p->toks[p->pos];
	if (t->kind != TOK_EOF)
		p->pos++;
	return t;
}

int lang_accept(lang_parser *p, lang_tok_kind kind)
{
	if (lang_peek(p)->kind != kind)
		return 0;
	lang_next(p);
	return 1;
}

int lang_expect(lang_parser *p, lang_tok_kind kind, const char *what)
{
	lang_tok *t = lang_peek(p);
	char buf[64];
	if (t->kind != kind)
		return lang_error(p, t, "expected %s, got %s", what,
				  lang_tok_describe(t, buf, sizeof buf));
	lang_next(p);
	return 0;
}

/* Whether the input ends at t, for what came before: the end of the
 * input, or a declaration starting a line. */
static int ends_input(const lang_tok *t)
{
	static const char *const decls[] = {"sym", "let", "assume", "index",
					    "genp", "layout"};
	if (t->kind == TOK_EOF)
		return 1;
	size_t n = t->line_start ? sizeof decls / sizeof *decls : 0;
	for (size_t i = 0; i < n; i++)
		if (lang_is_ident(t, decls[i]))
			return 1;
	return 0;
}

/* The innermost '(' or '[' before at that nothing closes, or NULL. */
static const lang_tok *unclosed(const lang_parser *p, const lang_tok *at)
{
	if (at < p->toks || at >= p->toks + p->ntoks)
		return NULL;
	const lang_tok *open[LANG_MAX_NESTING];
	size_t n = 0;
	for (const lang_tok *t = p->toks; t < at; t++) {
		if (t->kind == TOK_LPAREN || t->kind == TOK_LBRACKET) {
			if (n == LANG_MAX_NESTING)
				return NULL;
			open[n++] = t;
		} else if (n && ((t->kind == TOK_RPAREN &&
				  open[n - 1]->kind == TOK_LPAREN) ||
				 (t->kind == TOK_RBRACKET &&
				  open[n - 1]->kind == TOK_LBRACKET))) {
			n--;
		}
	}
	return n ? open[n - 1] : NULL;
}

/* An error where the input ends inside brackets is reported at the
 * bracket left open: "expected an expression, got end of input" after
 * `A[i, :` is a missing ']'. */
int lang_error(lang_parser *p, const lang_tok *at, const char *fmt, ...)
{
	char msg[1536];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const lang_tok *open = ends_input(at) ? unclosed(p, at) : NULL;
	if (open)
		lego_fail(p->ctx, LEGO_ERR, "%s:%d:%d: error: '%c' is not "
			  "closed: expected '%c' before %s (%d:%d: %s)",
			  p->filename, open->line, open->col,
			  open->kind == TOK_LPAREN ? '(' : '[',
			  open->kind == TOK_LPAREN ? ')' : ']',
			  at->kind == TOK_EOF ? "the end of input" : "the next "
			  "declaration", at->line, at->col, msg);
	else
		lego_fail(p->ctx, LEGO_ERR, "%s:%d:%d: error: %s", p->filename,
			  at->line, at->col, msg);
	return -1;
}

int lang_api_error(lang_parser *p, const lang_tok *at)
{
	char msg[1536];
	snprintf(msg, sizeof msg, "%s", lego_ctx_error(p->ctx));
	return lang_error(p, at, "%s", *msg ? msg : "invalid construct");
}

int lang_enter(lang_parser *p, const lang_tok *at)
{
	if (p->nesting >= LANG_MAX_NESTING)
		return lang_error(p, at, "nesting too deep (limit %d)",
				  LANG_MAX_NESTING);
	p->nesting++;
	return 0;
}

void lang_leave(lang_parser *p)
{
	p->nesting--;
}

int lang_is_ident(const lang_tok *t, const char *text)
{
	return t->kind == TOK_IDENT && !strcmp(t->text, text);
}

int lang_is_reserved(const char *name)
{
	static const char *const reserved[] = {
		"sym", "let", "assume", "index", "genp", "layout", "tune", "in",
		"inverse", "min", "max", "isqrt", "select", "RegP", "GenP",
		"Row", "Col", "OrderBy", "TileOrderBy", "GroupBy", "TileBy",
		"antidiag", "morton", "swizzle",
	};
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (!strcmp(reserved[i], name))
			return 1;
	return 0;
}

size_t lang_name_slot(lang_name *const *table, size_t cap, const char *name)
{
	size_t j = lego_hash_name(name) & (cap - 1);
	while (table[j] && strcmp(table[j]->name, name) != 0)
		j = (j + 1) & (cap - 1);
	return j;
}

/* Most recent first: of two names as close, the later declared wins. */
void lang_suggest_spec(const lego_spec *spec, lego_suggest *s, unsigned kinds)
{
	for (size_t i = spec->nnames; i-- > 0;)
		if (kinds & (1u << spec->decls[i]->kind))
			lego_suggest_add(s, spec->decls[i]->name);
}

lang_name *lang_lookup(const lego_spec *spec, const char *name)
{
	if (!spec->names_cap)
		return NULL;
	return spec->names[lang_name_slot(spec->names, spec->names_cap, name)];
}

int lang_grow(lang_parser *p, void **items, size_t *cap, size_t n,
	      size_t size)
{
	if (n < *cap)
		return 0;
	size_t grown_cap = *cap ? 2 * *cap : 8;
	void *grown = lego_xalloc(p->ctx, grown_cap * size);
	if (!grown)
		return lang_api_error(p, lang_peek(p));
	if (n)
		memcpy(grown, *items, n * size);
	*items = grown;
	*cap = grown_cap;
	return 0;
}

/* A NULL expression is a failed API call; big trees are refused because
 * evaluating or printing them would take too long. */
int lang_check_val(lang_parser *p, const lang_tok *at, lang_val *v)
{
	if (!v->e)
		return lang_api_error(p, at);
	if (v->depth > LANG_MAX_EXPR_DEPTH)
		return lang_error(p, at, "expression nested too deeply (limit %d)",
				  LANG_MAX_EXPR_DEPTH);
	if (v->weight > LANG_MAX_EXPR_WEIGHT)
		return lang_error(p, at, "expression too large (over %u nodes)",
				  LANG_MAX_EXPR_WEIGHT);
	return 0;
}

int lang_error_unknown(lang_parser *p, const lang_tok *at, const char *what,
		       const char *const *words, size_t nwords, unsigned kinds)
{
	lego_suggest s;
	lego_suggest_init(&s, at->text);
	lego_suggest_add_all(&s, words, nwords);
	lang_suggest_spec(p->spec, &s, kinds);
	return lang_error(p, at, "unknown %s '%s'%s", what, at->text,
			  lego_suggest_hint(&s));
}
