#!/bin/sh
# Regenerates the stencil kernels from stencil.cuh.tpl and stencil.lego:
# one header per layout of the grid (row-major = bricks of 1 x 1 x 1).
# Usage: sh bench/stencil/gen.sh [LEGO] [OUTDIR]   (defaults: build/lego,
# bench/stencil).  tests/gen_c/run.sh runs it into a temporary folder and
# compares with the committed headers.
LEGO=${1:-build/lego}
HERE=$(dirname "$0")
OUT=${2:-$HERE}
for b in 1x1x1 8x8x8 4x4x4 8x8x4 16x4x4 4x4x16 16x16x16; do
	IFS=x read -r bx by bz <<-EOB
	$b
	EOB
	"$LEGO" gen "$HERE/stencil.lego" "$HERE/stencil.cuh.tpl" --target cuda \
		-D BX="$bx" -D BY="$by" -D BZ="$bz" -o "$OUT/b$bx$by$bz.cuh" || exit 1
done
