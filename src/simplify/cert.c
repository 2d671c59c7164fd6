/* cert.c - recording the simplifier's certificates (cert.h). */
#include <stdlib.h>
#include <string.h>

#include "simplify/cert.h"

void lego_cert_start(lego_ctx *ctx, lego_cert *c)
{
	memset(c, 0, sizeof *c);
	ctx->facts->cert = c;
	lego_facts_invalidate(ctx); /* results cached unrecorded */
}

void lego_cert_stop(lego_ctx *ctx)
{
	ctx->facts->cert = NULL;
}

void lego_cert_free(lego_cert *c)
{
	free(c->steps);
	free(c->args);
	memset(c, 0, sizeof *c);
}

/* Room for one more of n items of size sz in *p (cap *cap). */
static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return 1;
	size_t c = *cap ? 2 * *cap : 256;
	void *q = realloc(*p, c * sz);
	if (!q)
		return 0;
	*p = q;
	*cap = c;
	return 1;
}

static cert_step *add(lego_ctx *ctx, cert_kind kind, lego_expr *before,
		      lego_expr *after)
{
	lego_cert *c = ctx->facts->cert;
	if (!c || !before || !after || before == after)
		return NULL;
	if (!grow((void **)&c->steps, &c->cap, c->n, sizeof *c->steps)) {
		c->lost = 1;
		return NULL;
	}
	cert_step *s = &c->steps[c->n++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->before = before;
	s->after = after;
	return s;
}

void cert_rule(lego_ctx *ctx, rule_id r, lego_expr *before, lego_expr *after,
	       lego_expr *scale, lego_expr *const *bind, size_t nbind)
{
	if (!ctx->facts->cert)
		return;
	for (size_t i = 0; i < nbind; i++)
		if (!bind[i] || nbind > CERT_MAX_BIND) {
			ctx->facts->cert->lost = 1;
			return;
		}
	cert_step *s = add(ctx, CERT_RULE, before, after);
	if (!s)
		return;
	s->rule = r;
	s->scale = scale ? scale : lego_const(ctx, 1);
	memcpy(s->bind, bind, nbind * sizeof *bind);
}

void cert_ring(lego_ctx *ctx, lego_expr *before, lego_expr *after)
{
	add(ctx, CERT_RING, before, after);
}

void cert_cong(lego_ctx *ctx, lego_expr *before, lego_expr *const *args,
	       size_t nargs, lego_expr *after)
{
	lego_cert *c = ctx->facts->cert;
	cert_step *s = add(ctx, CERT_CONG, before, after);
	if (!s)
		return;
	s->first = c->nargs;
	s->nargs = nargs;
	for (size_t i = 0; i < nargs; i++) {
		if (!grow((void **)&c->args, &c->args_cap, c->nargs,
			  sizeof *c->args)) {
			c->lost = 1;
			c->n--;
			return;
		}
		c->args[c->nargs++] = args[i];
	}
}

void cert_value(lego_ctx *ctx, lego_expr *before, lego_expr *after)
{
	add(ctx, CERT_VALUE, before, after);
}
