/* ruletab.h - the simplifier's rewrite rules by name: ids, and the switch
 * checked where each is applied (internal to src/simplify).  The schemas
 * are in ruletab.c; every rule is proved once by Z3 in make check
 * (tests/unit/test_proof.c, docs/proof.md). */
#ifndef LEGO_SIMPLIFY_RULETAB_H
#define LEGO_SIMPLIFY_RULETAB_H

#include <stdint.h>

#include "expr/expr.h"

typedef enum rule_id {
	R_DIV_IN_RANGE,
	R_DIV_DIV,
	R_DIV_OF_MOD,
	R_DIV_SPLIT,
	R_DIV_FACTOR,
	R_DIV_LOW_XOR,
	R_DIV_LOW_OR,
	R_DIV_AS_SHR,
	R_MOD_IN_RANGE,
	R_MOD_OF_MOD,
	R_MOD_SPLIT,
	R_MOD_AS_AND,
	R_SUM_RECOMBINE_DIV,
	R_SUM_RECOMBINE_MOD,
	R_MIN_LE,
	R_MAX_LE,
	R_MIN_GE,
	R_MAX_GE,
	R_SHR_AS_DIV,
	R_SHL_AS_MUL,
	R_SHL_FIELD_LEFT,
	R_SHL_FIELD_RIGHT,
	R_AND_AS_MOD,
	R_AND_COVERS,
	R_AND_HIGH,
	R_SELECT_TRUE,
	R_SELECT_FALSE,
	R_SUM_SHARE,
	R_PLANTED_WRONG,  /* test-only: off unless switched on */
	R_COUNT
} rule_id;

/* 1 when rule r may be applied in ctx. */
int rule_on(lego_ctx *ctx, rule_id r);
/* The rules off in a new ctx (the planted one). */
uint64_t rule_default_off(void);

#endif
