/* decl.c - declarations: sym, let, assume, index, genp, layout (tune:
 * tune.c; tv: tv.c). */
#include <string.h>

#include "expr/expr.h"
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

/* The table doubles in the arena (the old one stays there: the arena
 * holds at most twice the final table). */
static int grow_names(lang_parser *p)
{
	lego_spec *spec = p->spec;
	size_t cap = spec->names_cap ? 2 * spec->names_cap : 64;
	lang_name **t = lego_xalloc(p->ctx, cap * sizeof *t);
	if (!t)
		return lang_api_error(p, lang_peek(p));
	for (size_t i = 0; i < spec->names_cap; i++)
		if (spec->names[i])
			t[lang_name_slot(t, cap, spec->names[i]->name)] =
				spec->names[i];
	spec->names = t;
	spec->names_cap = cap;
	return 0;
}

int lang_bind(lang_parser *p, lang_name *n)
{
	lego_spec *spec = p->spec;
	/* A symbol remembers its declaration, for messages of the rooms
	 * that meet it later (an accessor's names). */
	if ((n->kind == NAME_SYM || n->kind == NAME_INDEX) &&
	    lego_expr_kind_of(n->val.e) == LEGO_SYM &&
	    lego_expr_sym_locate(p->ctx, n->val.e, p->filename, n->line,
				 n->col) != LEGO_OK)
		return -1;
	if ((spec->nnames + 1) * 2 > spec->names_cap && grow_names(p))
		return -1;
	if (lang_grow(p, (void **)&spec->decls, &spec->decls_cap,
		      spec->nnames, sizeof *spec->decls))
		return -1;
	spec->decls[spec->nnames] = n;
	spec->names[lang_name_slot(spec->names, spec->names_cap, n->name)] = n;
	spec->nnames++;
	return 0;
}

static const char *define_name(const lego_spec *spec, size_t i)
{
	return spec->defs[i].name ? spec->defs[i].name : "";
}

/* The slot of name in the table of -D names: the entry, or the empty
 * slot where it goes. */
static size_t define_slot(const lego_spec *spec, const char *name)
{
	size_t mask = spec->def_cap - 1;
	size_t j = lego_hash_name(name) & mask;
	while (spec->def_table[j] &&
	       strcmp(define_name(spec, spec->def_table[j] - 1), name) != 0)
		j = (j + 1) & mask;
	return j;
}

int lang_index_defines(lego_spec *spec)
{
	size_t cap = 16;
	while (cap < 2 * spec->ndefs)
		cap *= 2;
	spec->def_table = lego_xalloc(spec->ctx, cap * sizeof *spec->def_table);
	spec->def_used = lego_xalloc(spec->ctx, spec->ndefs + 1);
	if (!spec->def_table || !spec->def_used)
		return -1;
	spec->def_cap = cap;
	/* A later -D of the same name replaces the earlier one. */
	for (size_t i = 0; i < spec->ndefs; i++)
		spec->def_table[define_slot(spec, define_name(spec, i))] = i + 1;
	return 0;
}

int lang_define_used(const lego_spec *spec, size_t i)
{
	size_t last = spec->def_table[define_slot(spec, define_name(spec, i))];
	return spec->def_used[last - 1];
}

const lego_define *lang_find_define(lego_spec *spec, const char *name)
{
	size_t last = spec->def_table[define_slot(spec, name)];
	if (!last)
		return NULL;
	spec->def_used[last - 1] = 1;
	return &spec->defs[last - 1];
}

static int decl_sym(lang_parser *p)
{
	do {
		lang_tok *at = lang_peek(p);
		lang_name *n = lang_declare(p, NAME_SYM);
		if (!n)
			return -1;
		const lego_define *def = lang_find_define(p->spec, n->name);
		if (def && def->value < 1)
			return lang_error(p, at, "-D %s=%lld: a sym must be "
					  "positive", n->name,
					  (long long)def->value);
		n->val.e = def ? lego_const(p->ctx, def->value)
			       : lego_sym(p->ctx, n->name);
		n->val.weight = 1;
		if (lang_check_val(p, at, &n->val))
			return -1;
		if (lang_bind(p, n))
			return -1;
	} while (lang_accept(p, TOK_COMMA));
	return 0;
}

static int decl_let(lang_parser *p)
{
	lang_name *n = lang_declare(p, NAME_LET);
	if (!n || lang_expect(p, TOK_ASSIGN, "'='"))
		return -1;
	p->last_cdiv = NULL;
	if (lang_parse_expr(p, &n->val))
		return -1;
	/* A name for cdiv(a, b) reads as the cdiv wherever it is used:
	 * a padded tile count, never a dim that b must divide. */
	n->is_cdiv = n->val.e && n->val.e == p->last_cdiv;
	return lang_bind(p, n);
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
	int tuned = lang_tune_constraint(p, at, v.e);
	if (tuned)
		return tuned < 0 ? -1 : 0;
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
	return lang_bind(p, n);
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
	return lang_bind(p, n);
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
		{"tune", lang_decl_tune}, {"tv", lang_decl_tv},
	};
	lang_tok *at = lang_peek(p);
	char buf[64];
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++)
		if (lang_is_ident(at, decls[i].keyword)) {
			lang_next(p);
			return decls[i].parse(p);
		}
	return lang_error(p, at, "expected a declaration (sym, let, assume, "
			  "index, genp, layout, tune or tv), got %s",
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
