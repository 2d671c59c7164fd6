/* mlir_module.c - a layout's apply and inverse as MLIR functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "expr/expr.h"
#include "expr/memo.h"
#include "expr/sbuf.h"
#include "gen/emit.h"
#include "gen/mlir.h"
#include "gen/targets.h"

enum { NAME_CAP = 32 };

typedef struct mlir_fn_args {
	char (*names)[NAME_CAP];  /* rank coordinates, then the flat index */
	lego_expr **idx;          /* the coordinates as index variables */
	lego_expr *flat;
	const lego_expr **syms;   /* the other symbols, sorted by name */
	size_t nsyms;
} mlir_fn_args;

static int is_free(lego_ctx *ctx, const lego_spec *spec, const char *name)
{
	return !lego_sym_find(ctx, name) && !lego_spec_let(spec, name) &&
	       !lego_spec_layout(spec, name);
}

/* i0.., i_flat, or with prefix idx or lego_i when the spec uses those. */
static int pick_names(lego_ctx *ctx, const lego_spec *spec, size_t rank,
		      char (*names)[NAME_CAP])
{
	static const char *const prefixes[] = {"i", "idx", "lego_i"};
	for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
		int ok = 1;
		for (size_t k = 0; k < rank; k++) {
			snprintf(names[k], NAME_CAP, "%s%zu", prefixes[p], k);
			ok = ok && is_free(ctx, spec, names[k]);
		}
		snprintf(names[rank], NAME_CAP, "%s_flat", prefixes[p]);
		if (ok && is_free(ctx, spec, names[rank]))
			return LEGO_OK;
	}
	return lego_fail(ctx, LEGO_ERR, "MLIR: cannot name the index "
			 "arguments: the spec uses i0, idx0 and lego_i0");
}

static int is_arg(const mlir_fn_args *a, size_t rank, const lego_expr *e)
{
	for (size_t k = 0; k < rank; k++)
		if (a->idx[k] == e)
			return 1;
	return e == a->flat;
}

static void collect_syms(mlir_fn_args *a, size_t rank, const lego_expr *e,
			 lego_memo *seen)
{
	lego_memo_entry *m = lego_memo_put(seen, e);
	if (!m || m->n++)
		return;
	if (e->kind == LEGO_SYM && !is_arg(a, rank, e))
		a->syms[a->nsyms++] = e;
	for (uint32_t i = 0; i < e->nargs; i++)
		collect_syms(a, rank, e->args[i], seen);
}

static int by_name(const void *x, const void *y)
{
	const lego_expr *const *a = x, *const *b = y;
	return strcmp((*a)->sym->name, (*b)->sym->name);
}

static int sort_syms(lego_ctx *ctx, mlir_fn_args *a, size_t rank,
		     lego_expr *const *es, size_t n)
{
	lego_memo seen;
	a->syms = lego_xalloc(ctx, (lego_expr_nsyms(ctx) + 1) * sizeof *a->syms);
	if (!a->syms || lego_memo_init(&seen, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		collect_syms(a, rank, es[i], &seen);
	lego_memo_free(&seen);
	qsort(a->syms, a->nsyms, sizeof *a->syms, by_name);
	return LEGO_OK;
}

/* "(%i0: index, .., %M: index)" with the given leading arguments. */
static void signature(lego_sbuf *b, const mlir_fn_args *a, size_t first,
		      size_t count)
{
	lego_sbuf_puts(b, "(");
	for (size_t k = first; k < first + count; k++)
		lego_sbuf_printf(b, "%s%%%s: index", k > first ? ", " : "",
				 a->names[k]);
	for (size_t s = 0; s < a->nsyms; s++)
		lego_sbuf_printf(b, "%s%%%s: index", count + s ? ", " : "",
				 a->syms[s]->sym->name);
	lego_sbuf_puts(b, ")");
}

/* The body: operations, then `return`. */
static int body(lego_ctx *ctx, lego_sbuf *b, size_t n, lego_expr *const *es)
{
	static const char *const prefixes[] = {"t", "lego_t"};
	lego_emitted em = {0};
	int rc = LEGO_ERR;
	for (size_t p = 0; p < 2 && rc; p++) {
		lego_emit_request req = {LEGO_TARGET_MLIR, n, es, prefixes[p],
					 "  ", 0, NULL, 0, NULL};
		rc = lego_emit_mlir(ctx, &req, &em);
	}
	if (rc)
		return rc;
	lego_sbuf_puts(b, em.prelude);
	lego_sbuf_puts(b, "  return ");
	for (size_t i = 0; i < n; i++)
		lego_sbuf_printf(b, "%s%s", i ? ", " : "", em.values[i]);
	lego_sbuf_puts(b, " : ");
	for (size_t i = 0; i < n; i++)
		lego_sbuf_printf(b, "%sindex", i ? ", " : "");
	lego_sbuf_puts(b, "\n}\n");
	free(em.prelude);
	for (size_t i = 0; i < em.n; i++)
		free(em.values[i]);
	free(em.values);
	return LEGO_OK;
}

static int write_fns(lego_ctx *ctx, lego_sbuf *b, const char *name,
		     mlir_fn_args *a, size_t rank, lego_expr **es)
{
	int rc = sort_syms(ctx, a, rank, es, rank + 1);
	if (rc)
		return rc;
	lego_sbuf_printf(b, "// Index functions of layout %s (liblego): "
			 "logical -> physical and back.\n", name);
	lego_sbuf_printf(b, "func.func @%s_apply", name);
	signature(b, a, 0, rank);
	lego_sbuf_puts(b, " -> index {\n");
	if ((rc = body(ctx, b, 1, es)))
		return rc;
	lego_sbuf_printf(b, "\nfunc.func @%s_inv", name);
	signature(b, a, rank, 1);
	lego_sbuf_puts(b, " -> (");
	for (size_t k = 0; k < rank; k++)
		lego_sbuf_printf(b, "%sindex", k ? ", " : "");
	lego_sbuf_puts(b, ") {\n");
	return body(ctx, b, rank, es + 1);
}

/* es[0] = apply(i0..), es[1..rank] = inv(i_flat), simplified. */
static int build(lego_ctx *ctx, lego_spec *spec, const lego_layout *l,
		 mlir_fn_args *a, size_t rank, lego_expr **es)
{
	int rc = pick_names(ctx, spec, rank, a->names);
	for (size_t k = 0; k < rank && !rc; k++)
		if (!(a->idx[k] = lego_spec_parse_expr(
			      spec, a->names[k], lego_layout_dim(l, k))))
			rc = LEGO_ERR;
	lego_expr *size = rc ? NULL : lego_layout_phys_size(ctx, l);
	a->flat = size ? lego_spec_parse_expr(spec, a->names[rank], size) : NULL;
	if (rc || !a->flat || !(es[0] = lego_layout_apply(ctx, l, a->idx)) ||
	    lego_layout_inv(ctx, l, a->flat, es + 1))
		return rc ? rc : LEGO_ERR;
	for (size_t k = 0; k <= rank; k++)
		if (!(es[k] = lego_simplify(ctx, es[k])))
			return LEGO_ERR;
	return LEGO_OK;
}

char *lego_mlir_module(lego_ctx *ctx, lego_spec *spec, const char *name)
{
	const lego_layout *l = spec && name ? lego_spec_layout(spec, name)
					    : NULL;
	if (!l)
		return lego_fail_null(ctx, "MLIR: no layout named '%s'",
				      name ? name : "");
	size_t rank = lego_layout_rank(l);
	mlir_fn_args a = {0};
	a.names = lego_xalloc(ctx, (rank + 1) * sizeof *a.names);
	a.idx = lego_xalloc(ctx, (rank + 1) * sizeof *a.idx);
	lego_expr **es = lego_xalloc(ctx, (rank + 1) * sizeof *es);
	if (!a.names || !a.idx || !es)
		return NULL;
	lego_sbuf b = {0};
	int rc = build(ctx, spec, l, &a, rank, es);
	if (!rc)
		rc = write_fns(ctx, &b, name, &a, rank, es);
	char *text = lego_sbuf_take(&b);
	if (rc) {
		free(text);
		return NULL;
	}
	return text ? text : lego_fail_null(ctx, "out of memory");
}
