/* emit.c - lego_emit: one entry point, one emitter per target family. */
#include <stdlib.h>

#include "core/core.h"
#include "gen/targets.h"

int lego_emit(lego_ctx *ctx, const lego_emit_request *req, lego_emitted *out)
{
	*out = (lego_emitted){0};
	if (!req || (req->n && !req->exprs))
		return lego_fail(ctx, LEGO_ERR, "lego_emit: no request");
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
