/* emit.c - lego_emit: one entry point, one emitter per target family. */
#include <stdlib.h>

#include "core/core.h"
#include "expr/print.h"
#include "gen/targets.h"

int lego_emit(lego_ctx *ctx, const lego_emit_request *req, lego_emitted *out)
{
	*out = (lego_emitted){0};
	if (!req || (req->n && !req->exprs))
		return lego_fail(ctx, LEGO_ERR, "lego_emit: no request");
	if (gen_check_names(ctx, req->target, req->n, req->exprs) != LEGO_OK)
		return LEGO_ERR;
	/* Triton's tl.where and MLIR's arith.select compute both arms: a
	 * division the template guards by a select runs anyway, so it must
	 * not trap.  C's ?: and && are lazy and keep the guards as written. */
	lego_emit_request eager = *req;
	if (req->target == LEGO_TARGET_TRITON ||
	    req->target == LEGO_TARGET_MLIR) {
		lego_expr **es = lego_xalloc(ctx, (req->n + 1) * sizeof *es);
		if (!es)
			return LEGO_ENOMEM;
		for (size_t i = 0; i < req->n; i++)
			es[i] = req->exprs[i];
		if (lego_exprs_make_total(ctx, req->n, es) != LEGO_OK)
			return LEGO_ERR;
		eager.exprs = es;
		req = &eager;
	}
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

void lego_emitted_free(lego_emitted *out)
{
	if (!out)
		return;
	for (size_t i = 0; out->values && i < out->n; i++)
		free(out->values[i]);
	free(out->values);
	free(out->prelude);
	*out = (lego_emitted){0};
}
