/* say.c - the words of an argument. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proof/proof.h"

void proof_say(proof_arg *a, const char *fmt, ...)
{
	size_t len = strlen(a->why);
	if (len + 1 >= sizeof a->why)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->why + len, sizeof a->why - len, fmt, ap);
	va_end(ap);
}

void proof_say_witness(lego_ctx *ctx, lego_expr *cond, const lego_env *env,
		       proof_arg *a)
{
	lego_expr **syms = NULL;
	size_t n = 0;
	int64_t v;
	if (lego_expr_symbols(ctx, cond, &syms, &n) != LEGO_OK)
		return;
	for (size_t i = 0; i < n; i++)
		if (lego_env_lookup(env, syms[i], &v) == LEGO_OK)
			proof_say(a, "%s%s=%lld", i ? " " : " at ",
				  lego_expr_name(syms[i]), (long long)v);
	free(syms);
}
