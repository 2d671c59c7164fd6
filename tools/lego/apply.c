/* apply.c - `lego apply`, `lego inv` and `lego exprs`: index expressions. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Parses a command-line expression; undeclared names range over [0, hi). */
static lego_expr *arg_expr(cli_session *s, const char *text, lego_expr *hi)
{
	if (!hi)
		return NULL;
	lego_expr *e = lego_spec_parse_expr(s->spec, text, hi);
	if (!e)
		cli_ctx_fail(s->ctx);
	return e;
}

/* The flat index of (E1 .. Ed), or with `mask` its mask (partial tiles). */
static int apply(cli_session *s, const cli_args *a, int mask)
{
	size_t rank = lego_layout_rank(s->layout), nidx = a->npos - 2;
	if (nidx != rank)
		return cli_fail("layout %s has %zu dims: give %zu indices, not %zu",
				a->pos[1], rank, rank, nidx);
	lego_expr **idx = calloc(rank ? rank : 1, sizeof *idx);
	if (!idx)
		return cli_fail("out of memory");
	int rc = CLI_OK;
	for (size_t k = 0; k < rank && !rc; k++)
		if (!(idx[k] = arg_expr(s, a->pos[2 + k],
					lego_layout_dim(s->layout, k))))
			rc = CLI_FAIL;
		else
			rc = cli_check_range(idx[k], lego_layout_dim(s->layout, k),
					     "index");
	if (!rc) {
		lego_expr *flat = mask ? lego_layout_mask(s->ctx, s->layout, idx)
				       : lego_layout_apply(s->ctx, s->layout, idx);
		const char *name = "flat";
		rc = flat ? cli_print_exprs(s, 1, &flat, &name, a->lang)
			  : cli_ctx_fail(s->ctx);
	}
	free(idx);
	return rc;
}

static int run_apply(const cli_args *a, int mask)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (!rc)
		rc = apply(&s, a, mask);
	cli_close(&s);
	return rc;
}

int cmd_apply(const cli_args *a)
{
	return run_apply(a, 0);
}

int cmd_mask(const cli_args *a)
{
	return run_apply(a, 1);
}

static int inv(cli_session *s, const cli_args *a)
{
	size_t rank = lego_layout_rank(s->layout);
	lego_expr *size = lego_layout_phys_size(s->ctx, s->layout);
	lego_expr *flat = size ? arg_expr(s, a->pos[2], size) : NULL;
	if (!flat)
		return size ? CLI_FAIL : cli_ctx_fail(s->ctx);
	if (cli_check_range(flat, size, "flat index"))
		return CLI_FAIL;
	lego_expr **idx = calloc(rank ? rank : 1, sizeof *idx);
	if (!idx)
		return cli_fail("out of memory");
	int rc = lego_layout_inv(s->ctx, s->layout, flat, idx) ? CLI_FAIL : CLI_OK;
	if (rc)
		cli_ctx_fail(s->ctx);
	char (*names)[24] = calloc(rank ? rank : 1, sizeof *names);
	const char **labels = calloc(rank ? rank : 1, sizeof *labels);
	if (!rc && (!names || !labels))
		rc = cli_fail("out of memory");
	for (size_t k = 0; k < rank && !rc; k++) {
		snprintf(names[k], sizeof names[k], "i%zu", k);
		labels[k] = names[k];
	}
	if (!rc)
		rc = cli_print_exprs(s, rank, idx, labels, a->lang);
	free(labels);
	free(names);
	free(idx);
	return rc;
}

int cmd_inv(const cli_args *a)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (!rc)
		rc = inv(&s, a);
	cli_close(&s);
	return rc;
}
