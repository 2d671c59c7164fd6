#!/bin/sh
# Regenerates the LUD kernels from lud.cuh.tpl and lud.lego, one header per
# register tile R x R of the internal kernel (shared tiles padded), and
# R = 4 with unpadded tiles (lud_r4_nopad.cuh) to measure the padding.
# Usage: sh bench/lud/gen.sh [LEGO] [OUTDIR]   (defaults: build/lego,
# bench/lud).  tests/gen_c/run.sh compares the result with the committed
# headers.
LEGO=${1:-build/lego}
HERE=$(dirname "$0")
OUT=${2:-$HERE}
for r in 2 4 8 16; do
	"$LEGO" gen "$HERE/lud.lego" "$HERE/lud.cuh.tpl" --target cuda -D R=$r \
		-D CS=65 -o "$OUT/lud_r$r.cuh" || exit 1
done
"$LEGO" gen "$HERE/lud.lego" "$HERE/lud.cuh.tpl" --target cuda -D R=4 -D CS=64 \
	-o "$OUT/lud_r4_nopad.cuh"
