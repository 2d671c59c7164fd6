/* emit_triton.c - being written: the target reports that it is not available. */
#include "core/core.h"
#include "gen/targets.h"

int lego_emit_triton(lego_ctx *ctx, const lego_emit_request *req,
		  lego_emitted *out)
{
	(void)req;
	(void)out;
	return lego_fail(ctx, LEGO_ERR, "this target is not implemented yet");
}
