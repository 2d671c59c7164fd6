/* emit_c.c - C, CUDA C and OpenCL C text of index expressions: one code
 * path, the printer's dialect picks the spelling (type of temporaries,
 * literal suffixes, the isqrt helper, which the generated file must
 * define: lego_dialect_helpers() gives its text, `lego accessor` headers
 * include it).  A slice range prints as the index name the template
 * declares (`i = :`); an unnamed one has no C spelling. */
#include <string.h>

#include "core/core.h"
#include "expr/print.h"
#include "gen/targets.h"

static lego_dialect dialect_of(lego_target t)
{
	return t == LEGO_TARGET_CUDA     ? LEGO_DIALECT_CUDA
	       : t == LEGO_TARGET_OPENCL ? LEGO_DIALECT_OPENCL
					 : LEGO_DIALECT_C;
}

/* Range variables renamed to the template's names; LEGO_ERR for a range
 * without a name. */
static int name_ranges(lego_ctx *ctx, const lego_emit_request *req,
		       lego_expr **es)
{
	size_t n = req->nranges, k = 0;
	lego_expr **from = lego_xalloc(ctx, (n + 1) * sizeof *from);
	lego_expr **to = lego_xalloc(ctx, (n + 1) * sizeof *to);
	if (!from || !to)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const lego_emit_range *r = &req->ranges[i];
		if (!r->name || !strcmp(r->name, lego_expr_name(r->sym)))
			continue;
		from[k] = (lego_expr *)r->sym;
		if (!(to[k++] = lego_index(ctx, r->name, r->start, r->stop)))
			return LEGO_ERR;
	}
	for (size_t i = 0; i < req->n; i++) {
		for (size_t j = 0; j < n; j++) {
			lego_expr *sym = (lego_expr *)req->ranges[j].sym;
			if (!req->ranges[j].name &&
			    lego_expr_mentions(req->exprs[i], &sym, 1))
				return lego_fail(ctx, LEGO_ERR,
						 "a slice needs a name for C, "
						 "CUDA and OpenCL: write "
						 "`i = :` (a loop or thread "
						 "index the template declares)");
		}
		es[i] = k ? lego_expr_subst(ctx, req->exprs[i], k, from, to)
			  : req->exprs[i];
		if (!es[i])
			return LEGO_ERR;
	}
	return LEGO_OK;
}

int lego_emit_c_family(lego_ctx *ctx, const lego_emit_request *req,
		       lego_emitted *out)
{
	lego_dialect d = dialect_of(req->target);
	lego_expr **es = lego_xalloc(ctx, (req->n + 1) * sizeof *es);
	if (!es)
		return LEGO_ENOMEM;
	int rc = name_ranges(ctx, req, es);
	if (rc != LEGO_OK)
		return rc;
	return lego_emit_shared(ctx, req, es, d, out);
}
