#!/bin/sh
# Regenerates the LUD kernels from lud.cuh.tpl and lud.lego, one header per
# register tile R x R of the internal kernel (shared tiles padded, P = 0),
# R = 4 with unpadded tiles (lud_r4_nopad.cuh) to measure the padding, and
# R = 4, 8 with XOR-swizzled tiles (P = 1: lud_r<R>_swz.cuh).
# Usage: sh bench/lud/gen.sh [LEGO] [OUTDIR]   (defaults: build/lego,
# bench/lud).  tests/gen_c/run.sh compares the result with the committed
# headers.
LEGO=${1:-build/lego}
HERE=$(dirname "$0")
OUT=${2:-$HERE}
for r in 2 4 8 16; do
	"$LEGO" gen "$HERE/lud.lego" "$HERE/lud.cuh.tpl" --target cuda -D R=$r \
		-D P=0 -D CS=65 -o "$OUT/lud_r$r.cuh" || exit 1
done
"$LEGO" gen "$HERE/lud.lego" "$HERE/lud.cuh.tpl" --target cuda -D R=4 -D P=0 -D CS=64 \
	-o "$OUT/lud_r4_nopad.cuh" || exit 1
for r in 4 8; do
	"$LEGO" gen "$HERE/lud.lego" "$HERE/lud.cuh.tpl" --target cuda -D R=$r \
		-D P=1 -o "$OUT/lud_r${r}_swz.cuh" || exit 1
done
