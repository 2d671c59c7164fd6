/* targets.h - the emitters behind lego_emit (internal). */
#ifndef LEGO_GEN_TARGETS_H
#define LEGO_GEN_TARGETS_H

#include "expr/print.h"
#include "gen/emit.h"

/* Each fills out->prelude, out->values (out->n) and the ngroups + 1
 * entries of out->group_at (allocated by lego_emit, which also frees out
 * when one fails).  req->ngroups >= 1 here. */
int lego_emit_c_family(lego_ctx *ctx, const lego_emit_request *req,
		       lego_emitted *out);
int lego_emit_triton(lego_ctx *ctx, const lego_emit_request *req,
		     lego_emitted *out);
int lego_emit_mlir(lego_ctx *ctx, const lego_emit_request *req,
		   lego_emitted *out);

/* emit.c: the tail the C family and Triton share: es (req->n, the
 * request's expressions as the target prints them) printed in dialect d
 * with shared subexpressions as temporaries, per line of the request. */
int lego_emit_shared(lego_ctx *ctx, const lego_emit_request *req,
		     lego_expr *const *es, lego_dialect d, lego_emitted *out);

#endif
