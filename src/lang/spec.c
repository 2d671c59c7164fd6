/* spec.c - the public face of the language: parse, load, query. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"

static int start(lang_parser *p, lego_ctx *ctx, lego_spec *spec,
		 const char *filename, const char *text, size_t len)
{
	*p = (lang_parser){.ctx = ctx, .spec = spec, .filename = filename};
	p->toks = lang_lex(ctx, filename, text, len, &p->ntoks);
	return p->toks ? 0 : -1;
}

/* Every -D must name a sym of the file: a typo would otherwise go
 * unnoticed and leave the size symbolic.  With used, the caller takes
 * the others (for names outside the file) and is told which they are. */
static int check_defines(lego_spec *spec, int *used)
{
	for (size_t i = 0; i < spec->ndefs; i++) {
		const char *name = spec->defs[i].name ? spec->defs[i].name : "";
		if (used)
			used[i] = lang_define_used(spec, i);
		else if (!lang_define_used(spec, i)) {
			lego_suggest s;
			lego_suggest_init(&s, name);
			lang_suggest_spec(spec, &s, 1u << NAME_SYM);
			return lego_fail(spec->ctx, LEGO_ERR,
					 "%s: error: -D %s: no sym '%s' is "
					 "declared%s", spec->filename, name,
					 name, lego_suggest_hint(&s));
		}
	}
	return 0;
}

static lego_spec *parse(lego_ctx *ctx, const char *filename,
			const char *text, size_t len, const lego_define *defs,
			size_t ndefs, int *used)
{
	if (!ctx)
		return NULL;
	if (!filename)
		filename = "<input>";
	if (!text && len)
		return lego_fail_null(ctx, "%s: error: no text", filename);
	if (lego_check_input_size(ctx, filename, len) != LEGO_OK)
		return NULL;
	lego_spec *spec = lego_xalloc(ctx, sizeof *spec);
	filename = spec ? lego_arena_strdup(&ctx->arena, filename) : NULL;
	if (!filename)
		return lego_fail_null(ctx, "out of memory");
	spec->ctx = ctx;
	spec->filename = filename;
	spec->defs = defs;
	spec->ndefs = defs ? ndefs : 0;
	lang_parser p;
	if (lang_index_defines(spec) || start(&p, ctx, spec, filename, text ? text : "",
				     len) ||
	    lang_parse_decls(&p) || check_defines(spec, used))
		return NULL;
	spec->defs = NULL; /* the caller's array may go away */
	return spec;
}

lego_spec *lego_spec_parse(lego_ctx *ctx, const char *filename,
			   const char *text, size_t len,
			   const lego_define *defs, size_t ndefs)
{
	return parse(ctx, filename, text, len, defs, ndefs, NULL);
}

static lego_spec *load(lego_ctx *ctx, const char *path,
		       const lego_define *defs, size_t ndefs, int *used,
		       const char *fn)
{
	size_t len;
	if (!ctx)
		return NULL;
	if (!path)
		return lego_fail_null(ctx, "%s: no path", fn);
	char *text = lego_read_file(ctx, path, &len);
	if (!text)
		return NULL;
	lego_spec *spec = parse(ctx, path, text, len, defs, ndefs, used);
	free(text);
	return spec;
}

lego_spec *lego_spec_load(lego_ctx *ctx, const char *path,
			  const lego_define *defs, size_t ndefs)
{
	return load(ctx, path, defs, ndefs, NULL, "lego_spec_load");
}

lego_spec *lego_spec_load_lenient(lego_ctx *ctx, const char *path,
				  const lego_define *defs, size_t ndefs,
				  int *used)
{
	if (ctx && ndefs && !used)
		return lego_fail_arg(ctx, "lego_spec_load_lenient");
	return load(ctx, path, defs, ndefs, used, "lego_spec_load_lenient");
}

static lang_name *find(const lego_spec *spec, const char *name,
		       lang_name_kind kind)
{
	lang_name *n = spec && name ? lang_lookup(spec, name) : NULL;
	return n && n->kind == kind ? n : NULL;
}

lego_layout *lego_spec_layout(const lego_spec *spec, const char *name)
{
	lang_name *n = find(spec, name, NAME_LAYOUT);
	return n ? n->layout.l : NULL;
}

int lego_spec_where(const lego_spec *spec, const char *name, int *line,
		    int *col)
{
	lang_name *n = spec && name ? lang_lookup(spec, name) : NULL;
	if (!n || !line || !col)
		return 0;
	*line = n->line;
	*col = n->col;
	return 1;
}

lego_expr *lego_spec_let(const lego_spec *spec, const char *name)
{
	lang_name *n = find(spec, name, NAME_LET);
	return n ? n->val.e : NULL;
}

size_t lego_spec_nlayouts(const lego_spec *spec)
{
	return spec ? spec->nlayouts : 0;
}

const char *lego_spec_layout_name(const lego_spec *spec, size_t i)
{
	return spec && i < spec->nlayouts ? spec->layouts[i]->name : NULL;
}

lego_expr *lego_spec_parse_expr(lego_spec *spec, const char *text,
				lego_expr *hi)
{
	lang_parser p;
	lang_val v;
	if (!spec)
		return NULL;
	if (!text)
		return lego_fail_null(spec->ctx, "lego_spec_parse_expr: no "
				      "text");
	if (start(&p, spec->ctx, spec, "<expr>", text, strlen(text)))
		return NULL;
	p.auto_index = 1;
	p.auto_hi = hi;
	if (lang_parse_expr(&p, &v) ||
	    lang_expect(&p, TOK_EOF, "end of expression"))
		return NULL;
	return v.e;
}
