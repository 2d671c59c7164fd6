/* fuzz_parse.c - libFuzzer target for the .lego parser.
 *
 * Parses arbitrary bytes; when they parse, runs cheap queries on each
 * layout: the exhaustive check and the table for small concrete sizes,
 * symbolic apply and inv, simplified and printed in both languages, alone
 * and with shared temporaries.  Size guards keep one input fast.
 * Everything goes through the public API, so a leak or a crash anywhere
 * on these paths is reported; run.sh's -timeout and -rss_limit_mb make a
 * slow or fat input a finding too.
 *
 * Inputs that start with the byte 0x01 are expanded first, so that small
 * inputs reach what only size reveals (long chains, many declarations,
 * deep nesting): 0x02 COUNT BODY 0x03 repeats BODY COUNT times (COUNT a
 * byte; repeats nest), and 0x04 in a body stands for the serial number of
 * the current repetition, unique over the input (names: "sym s<0x04>"
 * gives s1, s2, ...).
 * fuzz/corpus holds seeds of that form (chain63.lego, names.lego,
 * nesting.lego). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lego.h"

#define MAX_INPUT 4096
#define MAX_EXPANDED (64 * 1024)
#define MAX_REPEAT_DEPTH 4
#define MAX_REPEATS 100000
#define MAX_LAYOUTS 8
#define MAX_ELEMENTS 4096
#define MAX_RANK 8

static void print_both(lego_ctx *ctx, lego_expr *e)
{
	lego_expr *s = e ? lego_simplify(ctx, e) : NULL;
	const char *name = "r";
	if (!s)
		return;
	free(lego_expr_print(ctx, s, LEGO_LANG_C));
	free(lego_expr_print(ctx, s, LEGO_LANG_PYTHON));
	free(lego_exprs_print(ctx, 1, &s, &name, "t", LEGO_LANG_C));
	free(lego_exprs_print(ctx, 1, &s, &name, "t", LEGO_LANG_PYTHON));
}

typedef struct expansion {
	char *out;
	size_t len;
	int full; /* MAX_EXPANDED reached: the rest is dropped */
	unsigned serial; /* repetitions started, at most MAX_REPEATS: an
			    empty body could otherwise repeat 255^4 times */
} expansion;

static void put(expansion *x, const char *s, size_t n)
{
	if (x->len + n > MAX_EXPANDED) {
		x->full = 1;
		return;
	}
	memcpy(x->out + x->len, s, n);
	x->len += n;
}

/* The end of the body that starts at in[i] (the matching 0x03, or size). */
static size_t body_end(const uint8_t *in, size_t i, size_t size)
{
	int depth = 0;
	for (; i < size; i++) {
		if (in[i] == 2 && i + 1 < size)
			depth++, i++;
		else if (in[i] == 3 && depth-- == 0)
			return i;
	}
	return size;
}

static void expand(expansion *x, const uint8_t *in, size_t size,
		   unsigned rep, int depth)
{
	for (size_t i = 0; i < size && !x->full; i++) {
		if (in[i] == 4) {
			char num[16];
			int n = snprintf(num, sizeof num, "%u", rep);
			put(x, num, (size_t)n);
		} else if (in[i] == 2 && i + 1 < size) {
			unsigned count = in[i + 1];
			size_t end = body_end(in, i + 2, size);
			for (unsigned r = 0; r < count && !x->full &&
					     x->serial < MAX_REPEATS; r++)
				if (depth < MAX_REPEAT_DEPTH)
					expand(x, in + i + 2, end - (i + 2),
					       ++x->serial, depth + 1);
			i = end;
		} else {
			put(x, (const char *)in + i, 1);
		}
	}
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
	expansion x = {NULL, 0, 0, 0};
	if (size && data[0] == 1) {
		if (!(x.out = malloc(MAX_EXPANDED)))
			return 0;
		expand(&x, data + 1, size - 1, 0, 0);
		data = (const uint8_t *)x.out;
		size = x.len;
	}
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx) {
		free(x.out);
		return 0;
	}
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
	free(x.out);
	return 0;
}
