/* mlir.h - MLIR output (internal): index functions of a layout as a
 * standalone module.  The emitter behind lego_emit is in targets.h. */
#ifndef LEGO_GEN_MLIR_H
#define LEGO_GEN_MLIR_H

#include "lego.h"

/*
 * A module with two functions for layout `name` of spec:
 *
 *   func.func @NAME_apply(%i0: index, .., %S1: index, ..) -> index
 *   func.func @NAME_inv(%i_flat: index, %S1: index, ..) -> (index, ..)
 *
 * i0.. are the logical coordinates, i_flat the physical index (names
 * "idx"/"lego_i" when the spec uses "i"); S1.. are the symbols the
 * expressions use besides those (sizes without a value), sorted by name,
 * the same list for both functions.  Expressions are simplified first.
 * Returns a string the caller frees, or NULL (message in ctx).
 */
char *lego_mlir_module(lego_ctx *ctx, lego_spec *spec, const char *name);

#endif
