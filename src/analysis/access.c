/* access.c - from a warp access (layout plus per-thread index) to the byte
 * address of every active thread. */
#include <string.h>

#include "analysis/access.h"

enum { MAX_RANK = 64 };

static int check_access(lego_ctx *ctx, const lego_warp_access *a,
			const char *what, size_t *rank)
{
	int64_t eb = a->elem_bytes;
	if (eb != 1 && eb != 2 && eb != 4 && eb != 8 && eb != 16)
		return lego_fail(ctx, LEGO_ERR,
				 "%s: element size %lld bytes; expected 1, "
				 "2, 4, 8 or 16", what, (long long)eb);
	int64_t ab = a->access_bytes;
	if (ab && ((ab != 1 && ab != 2 && ab != 4 && ab != 8 && ab != 16) ||
		   ab % eb))
		return lego_fail(ctx, LEGO_ERR,
				 "%s: access of %lld bytes per thread; expected "
				 "1, 2, 4, 8 or 16, a multiple of the element "
				 "size %lld", what, (long long)ab, (long long)eb);
	if (a->base_bytes < 0 || a->base_bytes % eb)
		return lego_fail(ctx, LEGO_ERR,
				 "%s: base address %lld is not aligned to the "
				 "element size %lld", what,
				 (long long)a->base_bytes, (long long)eb);
	if (a->nthreads < 0 || a->nthreads > LEGO_WARP)
		return lego_fail(ctx, LEGO_ERR, "%s: %d threads; a warp has "
				 "1 to %d", what, a->nthreads, LEGO_WARP);
	if (!!a->indices + !!a->index + !!a->threads != 1)
		return lego_fail(ctx, LEGO_ERR, "%s: give one of per-thread "
				 "indices, index expressions or a thread "
				 "layout", what);
	if ((a->index || a->active) && (!a->tid ||
	    lego_expr_kind_of(a->tid) != LEGO_SYM))
		return lego_fail(ctx, LEGO_ERR, "%s: index expressions need "
				 "the thread-id symbol", what);
	*rank = a->layout ? lego_layout_rank(a->layout) : 1;
	if (*rank > MAX_RANK)
		return lego_fail(ctx, LEGO_ERR, "%s: rank %zu is too large",
				 what, *rank);
	if (a->threads && lego_layout_rank(a->threads) != *rank)
		return lego_fail(ctx, LEGO_ERR, "%s: the thread layout has "
				 "rank %zu, the buffer %zu", what,
				 lego_layout_rank(a->threads), *rank);
	return LEGO_OK;
}

/* e with tid replaced by t, evaluated. */
static int eval_at(lego_ctx *ctx, const lego_warp_access *a, lego_expr *e,
		   int t, int64_t *out)
{
	lego_expr *tc = lego_const(ctx, t);
	lego_expr *et = tc ? lego_expr_subst(ctx, e, 1, &a->tid, &tc) : NULL;
	return et ? lego_expr_eval(ctx, et, a->env, out) : LEGO_ERR;
}

static int thread_index(lego_ctx *ctx, const lego_warp_access *a,
			size_t rank, int t, int64_t *idx)
{
	if (a->threads)
		return lego_layout_inv_num(ctx, a->threads, a->env, t, idx);
	if (a->indices) {
		memcpy(idx, a->indices + (size_t)t * rank,
		       rank * sizeof *idx);
		return LEGO_OK;
	}
	for (size_t k = 0; k < rank; k++) {
		int rc = eval_at(ctx, a, a->index[k], t, &idx[k]);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

static int thread_active(lego_ctx *ctx, const lego_warp_access *a, int t,
			 int *on)
{
	int64_t v = 1;
	int rc = a->active ? eval_at(ctx, a, a->active, t, &v) : LEGO_OK;
	*on = v != 0;
	return rc;
}

static int thread_offset(lego_ctx *ctx, const lego_warp_access *a,
			 size_t rank, int t, int64_t *offset)
{
	int64_t idx[MAX_RANK];
	int rc = thread_index(ctx, a, rank, t, idx);
	if (rc != LEGO_OK)
		return rc;
	if (a->layout)
		return lego_layout_apply_num(ctx, a->layout, a->env, idx,
					     offset);
	if (idx[0] < 0)
		return lego_fail(ctx, LEGO_ERANGE, "thread %d: negative "
				 "offset %lld", t, (long long)idx[0]);
	*offset = idx[0];
	return LEGO_OK;
}

/* Prefixes the message of a failed evaluation with the thread. */
static int thread_fail(lego_ctx *ctx, int rc, const char *what, int t)
{
	char msg[sizeof ctx->error];
	memcpy(msg, ctx->error, sizeof msg);
	return lego_fail(ctx, rc, "%s: thread %d: %s", what, t, msg);
}

int warp_addrs_eval(lego_ctx *ctx, const lego_warp_access *a,
		    const char *what, warp_addrs *out)
{
	size_t rank = 0;
	if (!ctx || !a || !out)
		return lego_fail(ctx, LEGO_ERR, "%s: no access", what);
	int rc = check_access(ctx, a, what, &rank);
	if (rc != LEGO_OK)
		return rc;
	memset(out, 0, sizeof *out);
	out->nthreads = a->nthreads ? a->nthreads : LEGO_WARP;
	out->thread_bytes = a->access_bytes ? a->access_bytes : a->elem_bytes;
	for (int t = 0; t < out->nthreads; t++) {
		int on;
		if ((rc = thread_active(ctx, a, t, &on)) != LEGO_OK)
			return thread_fail(ctx, rc, what, t);
		if (!on)
			continue;
		if ((rc = thread_offset(ctx, a, rank, t, &out->offset[t])))
			return thread_fail(ctx, rc, what, t);
		if (__builtin_mul_overflow(out->offset[t], a->elem_bytes,
					   &out->addr[t]) ||
		    __builtin_add_overflow(out->addr[t], a->base_bytes,
					   &out->addr[t]))
			return lego_fail(ctx, LEGO_EOVERFLOW, "thread %d: "
					 "address overflows", t);
		/* A vector access must be naturally aligned (the hardware
		 * faults otherwise). */
		if (out->addr[t] % out->thread_bytes)
			return lego_fail(ctx, LEGO_ERR, "%s: thread %d: byte "
					 "address %lld is not aligned to its "
					 "%lld-byte access", what, t,
					 (long long)out->addr[t],
					 (long long)out->thread_bytes);
		out->active |= (uint32_t)1 << t;
	}
	return LEGO_OK;
}
