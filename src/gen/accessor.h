/* accessor.h - layout accessor headers for C, CUDA and OpenCL
 * (internal to gen and the CLI). */
#ifndef LEGO_GEN_ACCESSOR_H
#define LEGO_GEN_ACCESSOR_H

#include "gen/emit.h"

/*
 * The text of a header that lets existing code index a buffer through
 * layout l (named name, a C identifier): NAME_at(i0, .., sizes..) is the
 * physical offset of a logical index, NAME_inv(x, sizes.., &i0, ..) its
 * inverse; sizes left symbolic are trailing parameters, sorted by name.
 * For CUDA the header also defines NAME_arr<T>, the paper's Arr2D: a
 * pointer wrapper whose a[i][j] (rank 2; a[i] for rank 1; a(i, j, ..) for
 * any rank) reads and writes base[NAME_at(i, j)], so a kernel's body stays
 * as written.  Caller frees; NULL on error (message in ctx).
 */
char *lego_accessor_header(lego_ctx *ctx, const lego_layout *l,
			   const char *name, lego_target target);

#endif
