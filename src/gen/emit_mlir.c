/* emit_mlir.c - the MLIR target of lego_emit: every operation of the
 * expressions goes in the prelude as SSA (arith dialect, type index), each
 * DAG node once; the inline texts are the SSA names of the results. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "expr/expr.h"
#include "gen/mlir_ssa.h"
#include "gen/targets.h"

/* A symbol named like a numbered value (%t3 for prefix t) would clash. */
static int clashes(const char *prefix, const lego_expr *e)
{
	size_t n = strlen(prefix);
	const char *s = e->sym->name;
	if (strncmp(s, prefix, n) || !s[n])
		return 0;
	for (s += n; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int check_symbols(lego_ctx *ctx, const char *prefix,
			 const lego_expr *e, lego_memo *seen)
{
	lego_memo_entry *m = lego_memo_put(seen, e);
	if (!m)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	if (m->n++)
		return LEGO_OK;
	if (e->kind == LEGO_SYM && clashes(prefix, e))
		return lego_fail(ctx, LEGO_ERR, "MLIR: symbol %%%s clashes with "
				 "the SSA values %%%s0, %%%s1, ...",
				 e->sym->name, prefix, prefix);
	for (uint32_t i = 0; i < e->nargs; i++) {
		int rc = check_symbols(ctx, prefix, e->args[i], seen);
		if (rc)
			return rc;
	}
	return LEGO_OK;
}

static int check_request(lego_ctx *ctx, const lego_emit_request *req,
			 const char *prefix)
{
	lego_memo seen;
	if (lego_memo_init(&seen, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	int rc = LEGO_OK;
	for (size_t i = 0; i < req->n && !rc; i++)
		rc = req->exprs[i]
			     ? check_symbols(ctx, prefix, req->exprs[i], &seen)
			     : lego_fail(ctx, LEGO_ERR, "MLIR: no expression");
	lego_memo_free(&seen);
	return rc;
}

/* Inline texts: "%name" of each result, as index; the operations of
 * line g are those its results need that earlier lines did not write
 * (ngroups 0, as `lego mlir` asks: one line, group_at may be NULL). */
static int write_values(mlir_writer *w, const lego_emit_request *req,
			lego_emitted *out)
{
	out->values = calloc(req->n ? req->n : 1, sizeof *out->values);
	if (!out->values)
		return lego_fail(w->ctx, LEGO_ENOMEM, "out of memory");
	out->n = req->n;
	size_t i = 0, ngroups = req->ngroups ? req->ngroups : 1;
	for (size_t g = 0; g < ngroups; g++) {
		if (out->group_at)
			out->group_at[g] = w->out->len;
		size_t end = req->ngroups ? req->group_end[g] : req->n;
		for (; i < end; i++) {
			mlir_ref r = mlir_value(w, req->exprs[i], MLIR_INDEX);
			lego_sbuf name = {0};
			lego_sbuf *prelude = w->out;
			w->out = &name;
			mlir_put_ref(w, r);
			w->out = prelude;
			if (w->failed)
				return LEGO_ERR;
			if (!(out->values[i] = lego_sbuf_take(&name)))
				return lego_fail(w->ctx, LEGO_ENOMEM,
						 "out of memory");
		}
	}
	if (out->group_at)
		out->group_at[ngroups] = w->out->len;
	return LEGO_OK;
}

static void free_values(lego_emitted *out)
{
	for (size_t i = 0; out->values && i < out->n; i++)
		free(out->values[i]);
	free(out->values);
	out->values = NULL;
	out->n = 0;
}

int lego_emit_mlir(lego_ctx *ctx, const lego_emit_request *req,
		   lego_emitted *out)
{
	const char *prefix = req->prefix && *req->prefix ? req->prefix : "t";
	int rc = check_request(ctx, req, prefix);
	if (rc)
		return rc;
	lego_sbuf prelude = {0};
	mlir_writer w;
	if ((rc = mlir_writer_init(&w, ctx, &prelude, prefix,
				   req->indent ? req->indent : "")))
		return rc;
	w.nranges = req->nranges;
	w.ranges = req->ranges;
	rc = write_values(&w, req, out);
	mlir_writer_free(&w);
	lego_sbuf_puts(&prelude, "");
	out->prelude = lego_sbuf_take(&prelude);
	if (!rc && !out->prelude)
		rc = lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	if (rc) { /* group_at is the caller's */
		free(out->prelude);
		out->prelude = NULL;
		free_values(out);
	}
	return rc;
}
