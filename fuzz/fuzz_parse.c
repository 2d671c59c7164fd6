/* fuzz_parse.c - libFuzzer target for the .lego parser.
 *
 * Parses arbitrary bytes; when they parse, runs cheap queries on each
 * layout: the exhaustive check and the table for small concrete sizes,
 * symbolic apply and inv, simplified and printed in both languages.  Size
 * guards keep one input fast.  Everything goes through the public API, so
 * a leak or a crash anywhere on these paths is reported. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lego.h"

#define MAX_INPUT 4096
#define MAX_LAYOUTS 8
#define MAX_ELEMENTS 4096
#define MAX_RANK 8

static void print_both(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *s = e ? lego_simplify(ctx, e) : NULL;
	if (!s)
		return;
	free(lego_expr_print(ctx, s, LEGO_LANG_C));
	free(lego_expr_print(ctx, s, LEGO_LANG_PYTHON));
}

/* Index variables named as no .lego identifier can be ("fz.0"). */
static lego_expr *index_var(lego_ctx *ctx, const char *what, size_t k,
			    lego_expr *hi)
{
	char name[32];
	snprintf(name, sizeof name, "fz.%s%zu", what, k);
	return hi ? lego_index(ctx, name, NULL, hi) : NULL;
}

static void symbolic(lego_ctx *ctx, lego_layout *l, size_t rank)
{
	lego_expr *idx[MAX_RANK];
	for (size_t k = 0; k < rank; k++)
		if (!(idx[k] = index_var(ctx, "i", k, lego_layout_dim(l, k))))
			return;
	print_both(ctx, lego_layout_apply(ctx, l, idx));
	lego_expr *flat = index_var(ctx, "x", 0, lego_layout_size(ctx, l));
	if (!flat || lego_layout_inv(ctx, l, flat, idx) != LEGO_OK)
		return;
	for (size_t k = 0; k < rank; k++)
		print_both(ctx, idx[k]);
}

static void numeric(lego_ctx *ctx, lego_layout *l)
{
	int64_t size;
	lego_expr *e = lego_layout_size(ctx, l);
	if (!e || !lego_expr_is_const(e, &size) || size < 1 ||
	    size > MAX_ELEMENTS)
		return;
	lego_check_report report;
	lego_layout_check(ctx, l, NULL, &report);
	int64_t *table = malloc((size_t)size * sizeof *table);
	size_t n;
	if (table)
		lego_layout_table(ctx, l, NULL, table, (size_t)size, &n);
	free(table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_INPUT)
		return 0;
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx)
		return 0;
	lego_spec *spec = lego_spec_parse(ctx, "fuzz.lego", (const char *)data,
					  size, NULL, 0);
	size_t n = spec ? lego_spec_nlayouts(spec) : 0;
	for (size_t i = 0; i < n && i < MAX_LAYOUTS; i++) {
		lego_layout *l = lego_spec_layout(spec,
						  lego_spec_layout_name(spec, i));
		size_t rank = l ? lego_layout_rank(l) : 0;
		if (!l || rank == 0 || rank > MAX_RANK)
			continue;
		numeric(ctx, l);
		symbolic(ctx, l, rank);
	}
	if (spec)
		lego_spec_parse_expr(spec, "fz + 1", lego_const(ctx, 4));
	lego_ctx_free(ctx);
	return 0;
}
