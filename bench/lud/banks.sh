#!/bin/sh
# Bank conflicts of the LUD kernels' shared tiles (lud.lego): the tile P,
# read as P[col, row], padded (P = 0, CS = 65: lud_r<R>.cuh), unpadded
# (P = 0, CS = 64: lud_r4_nopad.cuh) and XOR-swizzled (P = 1:
# lud_r<R>_swz.cuh), for the warp accesses the kernels make:
#   store   P[tid, r]        a tile row loaded from global memory (32
#                            consecutive columns of row r), every kernel;
#   column  P[k, tid]        32 rows of column k (diagonal, perimeter);
#   l-read  P[k, Rg[ty, a]]  internal kernel, R = 4: ty = tid / 16;
# and the internal kernel's u[B[k, Rg[tx, a]]] (tx = tid % 16), row-major.
# Usage: sh bench/lud/banks.sh [LEGO]
LEGO=${1:-build/lego}
SPEC=$(dirname "$0")/lud.lego
w() { "$LEGO" analyze banks "$SPEC" "$@" -D R=4 | sed -n 's/^wavefronts: //p'; }
for d in "P=0 -D CS=65" "P=0 -D CS=64" "P=1"; do
	echo "P, -D $d: store $(w P tid 5 -D $d) | column $(w P 7 tid -D $d)" \
		"| l-read $(w P 7 'tid / 16 + 16 * 3' -D $d)"
done
echo "B: u-read $(w B 7 'tid % 16 + 16 * 3')"
