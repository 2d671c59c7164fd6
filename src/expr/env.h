/* env.h - the env layout, read directly by the evaluator (internal). */
#ifndef LEGO_EXPR_ENV_H
#define LEGO_EXPR_ENV_H

#include "expr/expr.h"

struct lego_env {
	lego_ctx *ctx;         /* for error messages */
	int64_t *values;       /* by lego_symbol.index */
	unsigned char *bound;
	uint32_t cap;
};

#endif
