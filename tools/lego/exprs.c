/* exprs.c - `lego exprs`: both directions with shared subexpressions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define NAME_CAP 32

/* A name the file does not use, so that it is a fresh index variable. */
static int is_free(cli_session *s, const char *name)
{
	return !lego_sym_find(s->ctx, name) && !lego_spec_let(s->spec, name) &&
	       !lego_spec_layout(s->spec, name);
}

/* names[k] = prefix k, and names[rank] the flat index, all unused. */
static int pick_names(cli_session *s, size_t rank, char (*names)[NAME_CAP])
{
	static const char *const prefixes[] = {"i", "idx", "lego_i"};
	for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
		int ok = 1;
		for (size_t k = 0; k < rank; k++) {
			snprintf(names[k], NAME_CAP, "%s%zu", prefixes[p], k);
			ok = ok && is_free(s, names[k]);
		}
		snprintf(names[rank], NAME_CAP, "%s_flat", prefixes[p]);
		if (ok && is_free(s, names[rank]))
			return CLI_OK;
	}
	return cli_fail("cannot name the index variables: the file uses "
			"i0, idx0 and lego_i0");
}

static int print_exprs(cli_session *s, size_t n, lego_expr **es,
		       const char *const *names, const char *prefix,
		       lego_lang lang)
{
	for (size_t k = 0; k < n; k++)
		if (!es[k] || !(es[k] = lego_simplify(s->ctx, es[k])))
			return cli_ctx_fail(s->ctx);
	char *text = lego_exprs_print(s->ctx, n, es, names, prefix, lang);
	if (!text)
		return cli_ctx_fail(s->ctx);
	fputs(text, stdout);
	free(text);
	return CLI_OK;
}

static int both(cli_session *s, const cli_args *a, size_t rank,
		char (*names)[NAME_CAP], lego_expr **idx)
{
	const char *comment = a->lang == LEGO_LANG_C ? "//" : "#";
	const char **labels = calloc(rank + 1, sizeof *labels);
	if (!labels)
		return cli_fail("out of memory");
	for (size_t k = 0; k <= rank; k++)
		labels[k] = names[k];
	int rc = pick_names(s, rank, names);
	for (size_t k = 0; k < rank && !rc; k++)
		if (!(idx[k] = lego_spec_parse_expr(s->spec, names[k],
						    lego_layout_dim(s->layout, k))))
			rc = cli_ctx_fail(s->ctx);
	lego_expr *flat = rc ? NULL : lego_layout_apply(s->ctx, s->layout, idx);
	if (!rc) {
		printf("%s apply: the physical index of (%s..%s)\n", comment,
		       names[0], names[rank - 1]);
		rc = print_exprs(s, 1, &flat, &labels[rank], "t", a->lang);
	}
	lego_expr *size = rc ? NULL : lego_layout_phys_size(s->ctx, s->layout);
	lego_expr *x = size ? lego_spec_parse_expr(s->spec, names[rank], size)
			    : NULL;
	if (!rc && (!x || lego_layout_inv(s->ctx, s->layout, x, idx)))
		rc = cli_ctx_fail(s->ctx);
	if (!rc) {
		printf("%s inv: the logical index of %s\n", comment, names[rank]);
		rc = print_exprs(s, rank, idx, labels, "u", a->lang);
	}
	free(labels);
	return rc;
}

int cmd_exprs(const cli_args *a)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (rc) {
		cli_close(&s);
		return rc;
	}
	size_t rank = lego_layout_rank(s.layout);
	char (*names)[NAME_CAP] = calloc(rank + 1, sizeof *names);
	lego_expr **idx = calloc(rank + 1, sizeof *idx);
	rc = names && idx && rank ? both(&s, a, rank, names, idx)
				  : cli_fail("out of memory");
	free(names);
	free(idx);
	cli_close(&s);
	return rc;
}
