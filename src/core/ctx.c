/* ctx.c - the context object: owner of every expression and layout. */
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

lego_ctx *lego_ctx_new(void)
{
	lego_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	if (lego_expr_pool_init(ctx) != LEGO_OK ||
	    lego_facts_init(ctx) != LEGO_OK) {
		lego_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

void lego_ctx_free(lego_ctx *ctx)
{
	if (!ctx)
		return;
	while (ctx->ncleanups > 0)
		ctx->cleanups[--ctx->ncleanups](ctx);
	lego_facts_free(ctx);
	lego_expr_pool_free(ctx);
	lego_arena_free(&ctx->arena);
	free(ctx);
}

int lego_ctx_on_free(lego_ctx *ctx, lego_cleanup_fn fn)
{
	if (ctx->ncleanups == LEGO_MAX_CLEANUPS)
		return lego_fail(ctx, LEGO_ERR, "too many cleanup hooks");
	ctx->cleanups[ctx->ncleanups++] = fn;
	return LEGO_OK;
}

const char *lego_ctx_error(const lego_ctx *ctx)
{
	return ctx ? ctx->error : "";
}

/* Without a context there is nowhere to say it: the status alone. */
int lego_vfail(lego_ctx *ctx, int status, const char *fmt, va_list ap)
{
	if (ctx)
		vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
	return status;
}

int lego_fail(lego_ctx *ctx, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lego_vfail(ctx, status, fmt, ap);
	va_end(ap);
	return status;
}

void *lego_fail_null(lego_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lego_vfail(ctx, LEGO_ERR, fmt, ap);
	va_end(ap);
	return NULL;
}

void *lego_fail_arg(lego_ctx *ctx, const char *fn)
{
	if (ctx && !ctx->error[0])
		lego_fail(ctx, LEGO_ERR, "%s: an argument is NULL", fn);
	return NULL;
}

void *lego_xalloc(lego_ctx *ctx, size_t size)
{
	if (!ctx)
		return NULL;
	void *p = lego_arena_alloc(&ctx->arena, size);
	if (!p)
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	return p;
}
