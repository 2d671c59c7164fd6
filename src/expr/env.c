/* env.c - symbol values for evaluation, indexed by symbol number. */
#include <stdlib.h>
#include <string.h>

#include "expr/env.h"

lego_env *lego_env_new(lego_ctx *ctx)
{
	if (!ctx)
		return NULL;
	lego_env *env = calloc(1, sizeof *env);
	if (!env)
		return lego_fail_null(ctx, "out of memory");
	env->ctx = ctx;
	return env;
}

void lego_env_free(lego_env *env)
{
	if (!env)
		return;
	free(env->values);
	free(env->bound);
	free(env);
}

static int env_reserve(lego_env *env, uint32_t n)
{
	if (n <= env->cap)
		return LEGO_OK;
	uint32_t cap = env->cap ? env->cap : 16;
	while (cap < n)
		cap *= 2;
	int64_t *values = realloc(env->values, cap * sizeof *values);
	if (values)
		env->values = values;
	unsigned char *bound = realloc(env->bound, cap);
	if (bound)
		env->bound = bound;
	if (!values || !bound)
		return lego_fail(env->ctx, LEGO_ENOMEM, "out of memory");
	memset(bound + env->cap, 0, cap - env->cap);
	env->cap = cap;
	return LEGO_OK;
}

int lego_env_bind(lego_env *env, const lego_expr *sym, int64_t value)
{
	if (!env)
		return LEGO_ERR;
	if (!sym || sym->kind != LEGO_SYM)
		return lego_fail(env->ctx, LEGO_ERR,
				 "lego_env_bind: not a symbol");
	uint32_t i = sym->sym->index;
	int rc = env_reserve(env, i + 1);
	if (rc != LEGO_OK)
		return rc;
	env->values[i] = value;
	env->bound[i] = 1;
	return LEGO_OK;
}

int lego_env_lookup(const lego_env *env, const lego_expr *sym, int64_t *value)
{
	if (!env)
		return LEGO_ERR;
	if (!value)
		return lego_fail(env->ctx, LEGO_ERR, "lego_env_lookup: no value "
				 "pointer");
	if (!sym || sym->kind != LEGO_SYM)
		return lego_fail(env->ctx, LEGO_ERR,
				 "lego_env_lookup: not a symbol");
	uint32_t i = sym->sym->index;
	if (i >= env->cap || !env->bound[i])
		return lego_fail(env->ctx, LEGO_EUNBOUND,
				 "symbol '%s' has no value", sym->sym->name);
	*value = env->values[i];
	return LEGO_OK;
}
