/* targets.h - the emitters behind lego_emit (internal). */
#ifndef LEGO_GEN_TARGETS_H
#define LEGO_GEN_TARGETS_H

#include "gen/emit.h"

int lego_emit_c_family(lego_ctx *ctx, const lego_emit_request *req,
		       lego_emitted *out);
int lego_emit_triton(lego_ctx *ctx, const lego_emit_request *req,
		     lego_emitted *out);
int lego_emit_mlir(lego_ctx *ctx, const lego_emit_request *req,
		   lego_emitted *out);

#endif
