/* tv.c - `tv` declarations: thread-value layouts, built-in or written as
 * a layout of rank 2 over a footprint (docs/synthesis.md).  The TV's
 * layout is also declared as a layout of that name, so every command
 * takes it. */
#include <stdio.h>
#include <string.h>

#include "lang/parse.h"
#include "synth/synth.h"

enum { MAX_ARGS = 4 };

/* A built-in's arguments: words or numbers, kept as text. */
static int read_args(lang_parser *p, const char **args, size_t *n)
{
	char buf[64];
	*n = 0;
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return -1;
	do {
		lang_tok *t = lang_next(p);
		if (*n == MAX_ARGS || (t->kind != TOK_IDENT &&
				       t->kind != TOK_INT))
			return lang_error(p, t, "expected a word or a number "
					  "(at most %d), got %s", MAX_ARGS,
					  lang_tok_describe(t, buf,
							    sizeof buf));
		if (t->kind == TOK_INT) {
			snprintf(buf, sizeof buf, "%lld", (long long)t->value);
			args[*n] = lego_arena_strdup(&p->ctx->arena, buf);
		} else {
			args[*n] = t->text;
		}
		if (!args[(*n)++])
			return lang_api_error(p, t);
	} while (lang_accept(p, TOK_COMMA));
	return lang_expect(p, TOK_RPAREN, "')'");
}

/* tile([ROWS, COLS], TYPE, LAYOUT) */
static const lego_tv *read_tile(lang_parser *p, const char *name,
				const lang_tok *at, lang_lval *lv)
{
	lang_list dims = {0};
	size_t n;
	int64_t rc[2];
	char buf[64];
	if (lang_expect(p, TOK_LPAREN, "'('"))
		return NULL;
	lang_tok *dims_at = lang_peek(p);
	if (lang_parse_list(p, 0, &dims, &n))
		return NULL;
	if (n != 2 || lego_expr_eval(p->ctx, dims.items[0], NULL, &rc[0]) ||
	    lego_expr_eval(p->ctx, dims.items[1], NULL, &rc[1]))
		return lang_error(p, dims_at, "a footprint is [ROWS, COLS] of "
				  "concrete sizes"), NULL;
	if (lang_expect(p, TOK_COMMA, "','"))
		return NULL;
	lang_tok *ty = lang_next(p);
	int64_t eb = ty->kind == TOK_IDENT ? synth_type_bytes(ty->text) : 0;
	if (!eb)
		return lang_error(p, ty, "expected an element type (f16, f32, "
				  "s8, ...), got %s",
				  lang_tok_describe(ty, buf, sizeof buf)), NULL;
	if (lang_expect(p, TOK_COMMA, "','") || lang_parse_layout(p, lv) ||
	    lang_expect(p, TOK_RPAREN, "')'"))
		return NULL;
	const lego_tv *tv = lego_tv_new(p->ctx, name, lv->l, rc[0], rc[1],
					eb);
	if (!tv)
		lang_api_error(p, at);
	return tv;
}

int lang_decl_tv(lang_parser *p)
{
	lego_spec *spec = p->spec;
	lang_name *n = lang_declare(p, NAME_LAYOUT);
	char buf[64];
	if (!n || lang_expect(p, TOK_ASSIGN, "'='"))
		return -1;
	lang_tok *op = lang_next(p);
	if (op->kind != TOK_IDENT)
		return lang_error(p, op, "expected a TV layout (mma, ldmatrix, "
				  "wgmma, copy or tile), got %s",
				  lang_tok_describe(op, buf, sizeof buf));
	const lego_tv *tv;
	if (!strcmp(op->text, "tile")) {
		if (!(tv = read_tile(p, n->name, op, &n->layout)))
			return -1;
	} else {
		const char *args[MAX_ARGS];
		size_t nargs;
		if (read_args(p, args, &nargs))
			return -1;
		if (!(tv = synth_tv_named(p->ctx, n->name, op->text, nargs,
					  args)))
			return lang_api_error(p, op);
		n->layout = (lang_lval){tv->layout, 1};
	}
	if (lang_grow(p, (void **)&spec->layouts, &spec->layouts_cap,
		      spec->nlayouts, sizeof *spec->layouts) ||
	    lang_grow(p, (void **)&spec->tvs, &spec->tvs_cap, spec->ntvs,
		      sizeof *spec->tvs))
		return -1;
	spec->layouts[spec->nlayouts++] = n;
	spec->tvs[spec->ntvs++] = tv;
	return lang_bind(p, n);
}

const lego_tv *lego_spec_tv(const lego_spec *spec, const char *name)
{
	for (size_t k = 0; spec && name && k < spec->ntvs; k++)
		if (!strcmp(spec->tvs[k]->name, name))
			return spec->tvs[k];
	return NULL;
}
