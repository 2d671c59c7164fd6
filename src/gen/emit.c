/* emit.c - lego_emit: one entry point, one emitter per target family. */
#include <stdlib.h>

#include "core/core.h"
#include "expr/print.h"
#include "gen/targets.h"

int lego_emit_shared(lego_ctx *ctx, const lego_emit_request *req,
		     lego_expr *const *es, lego_dialect d, lego_emitted *out)
{
	out->values = calloc(req->n + 1, sizeof *out->values);
	if (!out->values)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	out->n = req->n;
	return lego_print_shared_groups(ctx, req->n, es, req->ngroups,
					req->group_end, req->prefix,
					req->indent, d, &out->prelude,
					out->group_at, out->values);
}

static int dispatch(lego_ctx *ctx, const lego_emit_request *req,
		    lego_emitted *out)
{
	switch (req->target) {
	case LEGO_TARGET_C:
	case LEGO_TARGET_CUDA:
	case LEGO_TARGET_OPENCL:
		return lego_emit_c_family(ctx, req, out);
	case LEGO_TARGET_TRITON:
		return lego_emit_triton(ctx, req, out);
	case LEGO_TARGET_MLIR:
		return lego_emit_mlir(ctx, req, out);
	}
	return lego_fail(ctx, LEGO_ERR, "lego_emit: unknown target");
}

int lego_emit(lego_ctx *ctx, const lego_emit_request *req, lego_emitted *out)
{
	*out = (lego_emitted){0};
	if (!req || (req->n && !req->exprs))
		return lego_fail(ctx, LEGO_ERR, "lego_emit: no request");
	if (gen_check_names(ctx, req->target, req->n, req->exprs) != LEGO_OK)
		return LEGO_ERR;
	lego_emit_request eager = *req;
	size_t all = req->n;
	if (!req->ngroups) { /* one line */
		eager.ngroups = 1;
		eager.group_end = &all;
	}
	out->group_at = calloc(eager.ngroups + 1, sizeof *out->group_at);
	if (!out->group_at)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	/* Triton's tl.where and MLIR's arith.select compute both arms: a
	 * division the template guards by a select runs anyway, so it must
	 * not trap.  C's ?: and && are lazy and keep the guards as written. */
	int rc = LEGO_OK;
	if (req->target == LEGO_TARGET_TRITON ||
	    req->target == LEGO_TARGET_MLIR) {
		lego_expr **es = lego_xalloc(ctx, (req->n + 1) * sizeof *es);
		for (size_t i = 0; es && i < req->n; i++)
			es[i] = req->exprs[i];
		rc = !es ? LEGO_ENOMEM : lego_exprs_make_total(ctx, req->n, es);
		eager.exprs = es;
	}
	if (rc == LEGO_OK)
		rc = dispatch(ctx, &eager, out);
	if (rc != LEGO_OK)
		lego_emitted_free(out);
	return rc;
}

void lego_emitted_free(lego_emitted *out)
{
	if (!out)
		return;
	for (size_t i = 0; out->values && i < out->n; i++)
		free(out->values[i]);
	free(out->values);
	free(out->prelude);
	free(out->group_at);
	*out = (lego_emitted){0};
}
