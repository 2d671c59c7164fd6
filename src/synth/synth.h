/* synth.h - thread-value layouts, the cost of their accesses to shared
 * memory and the synthesis of shared-memory layouts (internal door of the
 * synth room; the API is in lego.h, docs/synthesis.md the reference). */
#ifndef LEGO_SYNTH_H
#define LEGO_SYNTH_H

#include "core/core.h"

/* A built-in TV layout by its name in the language: op is mma, ldmatrix,
 * wgmma or copy; args its words and numbers ("m16n8k16", "a", "f16";
 * "x4", "trans"; "m64n128k16", "c", "f32"; "16", "f16").  NULL with a
 * message (without a location) on an unknown name or combination. */
const lego_tv *synth_tv_named(lego_ctx *ctx, const char *name,
			      const char *op, size_t nargs,
			      const char *const *args);

/* The bytes of an element type name (f16 bf16 f32 s8 u8 e4m3 s32 f64 ...),
 * 0 if unknown. */
int64_t synth_type_bytes(const char *type);

/* Every footprint index of tv: table[t * values + v] (computed when tv
 * was made, owned by its ctx). */
const int64_t *synth_tv_table(const lego_tv *tv);

/* The widest vector of a thread's values (a power of two, <= 16 bytes)
 * that lie at consecutive, aligned footprint positions. */
int64_t synth_tv_vec(const lego_tv *tv, const int64_t *table);

/* Cost of an access with a bound on the wavefronts over the ideal (-1:
 * none): the count stops once they exceed it.  sectors: count global
 * memory's sectors too (else 0: the search does not need them).  global:
 * for a copy from global memory (cp.async), the tile's element offsets
 * there, whose 128-byte lines each phase is served one at a time (NULL:
 * the access touches shared memory alone). */
int synth_access_cost(lego_ctx *ctx, const lego_tv *tv, const int64_t *table,
		      const lego_smem *smem, const lego_smem *global,
		      int64_t limit, int sectors, lego_access_cost *out);

/* Tile programs (docs/synthesis.md): parsed (errors "file:line:col:
 * error: ..." through ctx, NULL), their TV and shared layouts inferred
 * (conflicts located the same way; non-zero), then described in words or
 * written as a CUDA kernel (text the caller frees; NULL on error). */
typedef struct synth_prog synth_prog;
synth_prog *synth_prog_parse(lego_ctx *ctx, const char *file,
			     const char *text, size_t len);
int synth_prog_infer(lego_ctx *ctx, synth_prog *p);
char *synth_prog_report(lego_ctx *ctx, const synth_prog *p);
char *synth_prog_cuda(lego_ctx *ctx, const synth_prog *p);

#endif
