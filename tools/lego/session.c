/* session.c - loading a file and a layout, and what commands share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The names of the file's layouts, for "no layout X" messages. */
static void list_layouts(const lego_spec *spec, char *buf, size_t cap)
{
	size_t n = lego_spec_nlayouts(spec), used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s",
					 i ? ", " : "",
					 lego_spec_layout_name(spec, i));
}

const char *cli_layout_hint(lego_suggest *s, const lego_spec *spec,
			    const char *name)
{
	lego_suggest_init(s, name);
	for (size_t i = 0; i < lego_spec_nlayouts(spec); i++)
		lego_suggest_add(s, lego_spec_layout_name(spec, i));
	return lego_suggest_hint(s);
}

/* Every -D is in effect for the whole parse: a size may be proved
 * positive only with its value (Row(M - 5) with M = 8). */
static lego_spec *load_spec(cli_session *s, const cli_args *a,
			    lego_define *rest, size_t *nrest)
{
	if (!rest)
		return lego_spec_load(s->ctx, s->file, a->defs, a->ndefs);
	int *used = calloc(a->ndefs + 1, sizeof *used);
	lego_spec *spec = used ? lego_spec_load_lenient(s->ctx, s->file,
							a->defs, a->ndefs, used)
			       : NULL;
	*nrest = 0;
	for (size_t k = 0; spec && k < a->ndefs; k++)
		if (!used[k])
			rest[(*nrest)++] = a->defs[k];
	if (!used)
		cli_fail("out of memory");
	free(used);
	return spec;
}

int cli_open(cli_session *s, const cli_args *a, const char *layout_name)
{
	return cli_open_rest(s, a, layout_name, NULL, NULL);
}

int cli_open_rest(cli_session *s, const cli_args *a, const char *layout_name,
		  lego_define *rest, size_t *nrest)
{
	*s = (cli_session){.file = a->pos[0]};
	if (!(s->ctx = lego_ctx_new()))
		return cli_fail("out of memory");
	if (a->smt && lego_ctx_use_smt(s->ctx, 1) != LEGO_OK)
		return cli_ctx_fail(s->ctx);
	if (!(s->spec = load_spec(s, a, rest, nrest)))
		return *lego_ctx_error(s->ctx) ? cli_ctx_fail(s->ctx) : CLI_FAIL;
	if (!layout_name)
		return CLI_OK;
	s->layout = lego_spec_layout(s->spec, layout_name);
	if (!s->layout) {
		char names[512];
		lego_suggest hint;
		list_layouts(s->spec, names, sizeof names);
		return cli_fail("%s: no layout named '%s'%s (layouts: %s)",
				s->file, layout_name,
				cli_layout_hint(&hint, s->spec, layout_name),
				*names ? names : "none");
	}
	return CLI_OK;
}

void cli_close(cli_session *s)
{
	lego_ctx_free(s->ctx);
	s->ctx = NULL;
}

/* Appends " -D NAME=.." for a symbol not yet in buf. */
static void add_need(const lego_expr *sym, char *buf, size_t cap)
{
	char item[160];
	snprintf(item, sizeof item, " -D %.100s=..", lego_expr_name(sym));
	size_t used = strlen(buf);
	if (!strstr(buf, item) && used + strlen(item) < cap)
		strcpy(buf + used, item);
}

/* Appends " -D NAME=.." for each symbol of e not yet in buf, except the
 * index variables skip[0..nskip); -1 (message in ctx) out of memory. */
static int add_needs(lego_ctx *ctx, const lego_expr *e, char *buf,
		      size_t cap, lego_expr *const *skip, size_t nskip)
{
	lego_expr **syms;
	size_t n;
	if (lego_expr_symbols(ctx, e, &syms, &n) != LEGO_OK)
		return -1;
	for (size_t k = 0; k < n; k++) {
		int skipped = 0;
		for (size_t i = 0; i < nskip; i++)
			skipped |= syms[k] == skip[i];
		if (!skipped)
			add_need(syms[k], buf, cap);
	}
	free(syms);
	return 0;
}

/* The symbols of l's mapping: its pieces may use syms that its dims do
 * not (the group size GM of a grouped program id), and enumeration needs
 * them all. */
static int add_apply_needs(cli_session *s, const lego_layout *l,
			   char *buf, size_t cap)
{
	size_t rank = lego_layout_rank(l);
	lego_expr **idx = calloc(rank ? rank : 1, sizeof *idx);
	lego_expr *zero = lego_const(s->ctx, 0);
	int ok = idx && zero;
	for (size_t k = 0; ok && k < rank; k++) {
		char name[32];
		snprintf(name, sizeof name, "_needs%zu", k);
		ok = (idx[k] = lego_index(s->ctx, name, zero, NULL)) != NULL;
	}
	lego_expr *e = ok ? lego_layout_apply(s->ctx, l, idx) : NULL;
	int rc = e ? add_needs(s->ctx, e, buf, cap, idx, rank) : 0;
	free(idx);
	return rc;
}

cli_size cli_concrete_size(cli_session *s, const lego_layout *l,
			   int64_t *size, char *needs, size_t cap)
{
	int bad = 0;
	needs[0] = 0;
	/* Every logical dim, not only the size, must be known to enumerate
	 * the layout: M*K may be concrete while M/BM is not. */
	for (size_t k = 0; k < lego_layout_rank(l); k++)
		bad |= add_needs(s->ctx, lego_layout_dim(l, k), needs, cap,
				 NULL, 0);
	lego_expr *e = lego_layout_size(s->ctx, l);
	if (!e || bad || add_needs(s->ctx, e, needs, cap, NULL, 0) ||
	    add_apply_needs(s, l, needs, cap))
		return SIZE_ERROR;
	if (needs[0])
		return SIZE_SYMBOLIC;
	/* Constants that did not fold overflowed. */
	return lego_expr_is_const(e, size) ? SIZE_CONCRETE : SIZE_OVERFLOW;
}

int cli_check_range(lego_expr *e, lego_expr *hi, const char *what)
{
	int64_t v, n;
	if (!lego_expr_is_const(e, &v) || !lego_expr_is_const(hi, &n) ||
	    (v >= 0 && v < n))
		return CLI_OK;
	return cli_fail("%s %lld is outside [0, %lld)", what, (long long)v,
			(long long)n);
}

int cli_print_exprs(cli_session *s, size_t n, lego_expr **es,
		    const char *const *names, lego_lang lang)
{
	size_t nodes = 0;
	for (size_t k = 0; k < n; k++) {
		if (!es[k] || !(es[k] = lego_simplify(s->ctx, es[k])))
			return cli_ctx_fail(s->ctx);
		nodes += lego_expr_print_size(s->ctx, es[k], lang,
					      CLI_INLINE_NODES + 1);
	}
	if (nodes > CLI_INLINE_NODES) {
		char *text = lego_exprs_print(s->ctx, n, es, names, "t", lang);
		if (!text)
			return cli_ctx_fail(s->ctx);
		fputs(text, stdout);
		free(text);
		return CLI_OK;
	}
	for (size_t k = 0; k < n; k++) {
		char *text = lego_expr_print(s->ctx, es[k], lang);
		if (!text)
			return cli_ctx_fail(s->ctx);
		puts(text);
		free(text);
	}
	return CLI_OK;
}
