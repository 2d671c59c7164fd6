/* mlir_ssa.h - expressions as SSA operations of the arith dialect on
 * `index` values (internal to the MLIR emitter). */
#ifndef LEGO_GEN_MLIR_SSA_H
#define LEGO_GEN_MLIR_SSA_H

#include "expr/memo.h"
#include "expr/sbuf.h"
#include "gen/emit.h"

/* A value: a symbol the surrounding code defines (%NAME), or the result
 * number k of an operation written here (%<prefix>k). */
typedef struct mlir_ref {
	const char *name;  /* NULL for a numbered value */
	size_t num;
} mlir_ref;

typedef enum mlir_type { MLIR_INDEX, MLIR_I1 } mlir_type;

/*
 * The writer.  Each DAG node gets at most one value of each type: `index`
 * for integers, `i1` for conditions (comparisons, logical operators, and
 * integers used as conditions); memo entry n holds 1 + the number of the
 * index value, tag 1 + that of the i1 value.
 */
typedef struct mlir_writer {
	lego_ctx *ctx;
	lego_sbuf *out;
	lego_memo values;
	const char *prefix;
	const char *indent;
	size_t next;                  /* the next value number */
	size_t nranges;
	const lego_emit_range *ranges;
	int failed;                   /* an error is in ctx */
} mlir_writer;

int mlir_writer_init(mlir_writer *w, lego_ctx *ctx, lego_sbuf *out,
		     const char *prefix, const char *indent);
void mlir_writer_free(mlir_writer *w);

/* Writes the operations computing e (those not written yet) and returns
 * its value as type ty. */
mlir_ref mlir_value(mlir_writer *w, const lego_expr *e, mlir_type ty);
/* Appends "%name" of r. */
void mlir_put_ref(mlir_writer *w, mlir_ref r);

/* Operations, each written on its own line; the result is returned. */
mlir_ref mlir_op2(mlir_writer *w, const char *op, mlir_ref a, mlir_ref b,
		  mlir_type ty);
mlir_ref mlir_cmp(mlir_writer *w, const char *pred, mlir_ref a, mlir_ref b);
mlir_ref mlir_select(mlir_writer *w, mlir_ref c, mlir_ref a, mlir_ref b,
		     const char *type);

/* Composite sequences (mlir_arith.c). */
mlir_ref mlir_sum(mlir_writer *w, const lego_expr *e);
mlir_ref mlir_floor_mod(mlir_writer *w, const lego_expr *e);
mlir_ref mlir_isqrt(mlir_writer *w, const lego_expr *e);
/* Whether a >= 0 and b > 0 are proved: the unsigned forms are exact. */
int mlir_unsigned_ok(mlir_writer *w, const lego_expr *a, const lego_expr *b);

#endif
