/* decl.c - declarations: sym, let, assume, index, genp, layout. */
#include <string.h>

#include "lang/parse.h"

lang_name *lang_declare(lang_parser *p, lang_name_kind kind)
{
	lang_tok *at = lang_peek(p);
	if (lang_expect(p, TOK_IDENT, "a name"))
		return NULL;
	if (lang_is_reserved(at->text)) {
		lang_error(p, at, "'%s' is a reserved word", at->text);
		return NULL;
	}
	/* The generators name their own parameters and helpers lego_...:
	 * a spec name of that form would clash with them. */
	if (!strncmp(at->text, "lego_", 5)) {
		lang_error(p, at, "'%s': names starting with 'lego_' are "
			   "reserved for the code liblego generates", at->text);
		return NULL;
	}
	lang_name *old = lang_lookup(p->spec, at->text);
	if (old) {
		lang_error(p, at, "redeclaration of '%s' (first declared at "
			   "%d:%d)", at->text, old->line, old->col);
		return NULL;
	}
	lang_name *n = lego_xalloc(p->ctx, sizeof *n);
	if (!n) {
		lang_api_error(p, at);
		return NULL;
	}
	*n = (lang_name){.name = at->text, .kind = kind, .line = at->line,
			 .col = at->col};
	return n;
}

void lang_bind(lang_parser *p, lang_name *n)
{
	n->next = p->spec->names;
	p->spec->names = n;
}

/* The value given by -D for a sym, the last one when given twice. */
static const lego_define *find_define(lego_spec *spec, const char *name)
{
	const lego_define *found = NULL;
	for (size_t i = 0; i < spec->ndefs; i++)
		if (spec->defs[i].name && !strcmp(spec->defs[i].name, name)) {
			found = &spec->defs[i];
			spec->def_used[i] = 1;
		}
	return found;
}

static int decl_sym(lang_parser *p)
{
	do {
		lang_tok *at = lang_peek(p);
		lang_name *n = lang_declare(p, NAME_SYM);
		if (!n)
			return -1;
		const lego_define *def = find_define(p->spec, n->name);
		if (def && def->value < 1)
			return lang_error(p, at, "-D %s=%lld: a sym must be "
					  "positive", n->name,
					  (long long)def->value);
		n->val.e = def ? lego_const(p->ctx, def->value)
			       : lego_sym(p->ctx, n->name);
		n->val.weight = 1;
		if (lang_check_val(p, at, &n->val))
			return -1;
		lang_bind(p, n);
	} while (lang_accept(p, TOK_COMMA));
	return 0;
}

static int decl_let(lang_parser *p)
{
	lang_name *n = lang_declare(p, NAME_LET);
	if (!n || lang_expect(p, TOK_ASSIGN, "'='") ||
	    lang_parse_expr(p, &n->val))
		return -1;
	lang_bind(p, n);
	return 0;
}

static int decl_assume(lang_parser *p)
{
	lang_tok *at = lang_peek(p);
	lang_val v;
	int64_t value;
	if (lang_parse_expr(p, &v))
		return -1;
	if (lego_expr_is_const(v.e, &value))
		return value ? 0 : lang_error(p, at, "assumption is false");
	if (lego_assume(p->ctx, v.e) != LEGO_OK)
		return lang_api_error(p, at);
	return 0;
}

static int decl_index(lang_parser *p)
{
	lang_tok *at = lang_peek(p);
	lang_name *n = lang_declare(p, NAME_INDEX);
	lang_tok *in = lang_peek(p);
	char buf[64];
	if (!n)
		return -1;
	if (!lang_is_ident(in, "in"))
		return lang_error(p, in, "expected 'in', got %s",
				  lang_tok_describe(in, buf, sizeof buf));
	lang_next(p);
	lang_val lo, hi;
	if (lang_expect(p, TOK_LBRACKET, "'['") || lang_parse_expr(p, &lo) ||
	    lang_expect(p, TOK_COMMA, "','") || lang_parse_expr(p, &hi) ||
	    lang_expect(p, TOK_RPAREN, "')' (ranges are [lo, hi))"))
		return -1;
	n->val = (lang_val){lego_index(p->ctx, n->name, lo.e, hi.e), 0, 1};
	if (lang_check_val(p, at, &n->val))
		return -1;
	lang_bind(p, n);
	return 0;
}

static int decl_layout(lang_parser *p)
{
	lego_spec *spec = p->spec;
	lang_name *n = lang_declare(p, NAME_LAYOUT);
	if (!n || lang_expect(p, TOK_ASSIGN, "'='") ||
	    lang_parse_layout(p, &n->layout) ||
	    lang_grow(p, (void **)&spec->layouts, &spec->layouts_cap,
		      spec->nlayouts, sizeof *spec->layouts))
		return -1;
	spec->layouts[spec->nlayouts++] = n;
	lang_bind(p, n);
	return 0;
}

static int parse_decl(lang_parser *p)
{
	static const struct {
		const char *keyword;
		int (*parse)(lang_parser *p);
	} decls[] = {
		{"sym", decl_sym},     {"let", decl_let},
		{"assume", decl_assume}, {"index", decl_index},
		{"genp", lang_decl_genp}, {"layout", decl_layout},
	};
	lang_tok *at = lang_peek(p);
	char buf[64];
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++)
		if (lang_is_ident(at, decls[i].keyword)) {
			lang_next(p);
			return decls[i].parse(p);
		}
	return lang_error(p, at, "expected a declaration (sym, let, assume, "
			  "index, genp or layout), got %s",
			  lang_tok_describe(at, buf, sizeof buf));
}

/* A declaration ends at ';', at the end of its line or of the input. */
static int end_decl(lang_parser *p)
{
	lang_tok *t = lang_peek(p);
	char buf[64];
	if (lang_accept(p, TOK_SEMI) || t->kind == TOK_EOF || t->line_start)
		return 0;
	return lang_error(p, t, "expected ';' or a newline after the "
			  "declaration, got %s",
			  lang_tok_describe(t, buf, sizeof buf));
}

int lang_parse_decls(lang_parser *p)
{
	for (;;) {
		while (lang_accept(p, TOK_SEMI))
			;
		if (lang_peek(p)->kind == TOK_EOF)
			return 0;
		if (parse_decl(p) || end_decl(p))
			return -1;
	}
}
