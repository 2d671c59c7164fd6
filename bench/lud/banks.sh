#!/bin/sh
# Bank conflicts of the LUD kernels' shared tiles (lud.lego): the tile
# P = Row(64, CS), read as P[col, row], padded (CS = 65, the kernels
# of lud_r<R>.cuh) and unpadded (CS = 64, lud_r4_nopad.cuh), for the warp
# accesses the kernels make:
#   store   P[tid, r]        a tile row loaded from global memory (32
#                            consecutive columns of row r), every kernel;
#   column  P[k, tid]        32 rows of column k (diagonal, perimeter);
#   l-read  P[k, Rg[ty, a]]  internal kernel, R = 4: ty = tid / 16;
# and the internal kernel's u[B[k, Rg[tx, a]]] (tx = tid % 16), row-major.
# (P and B are taken out of lud.lego into a spec of their own: `lego
# analyze` parses a spec before applying -D.)
# Usage: sh bench/lud/banks.sh [LEGO]
LEGO=${1:-build/lego}
HERE=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
{
	echo "sym CS"
	grep -E '^layout (P|B) = ' "$HERE/lud.lego"
} > "$TMP/tiles.lego"
w() { "$LEGO" analyze banks "$TMP/tiles.lego" "$@" | sed -n 's/^wavefronts: //p'; }
for cs in 65 64; do
	echo "P, CS=$cs: store $(w P tid 5 -D CS=$cs) | column $(w P 7 tid -D CS=$cs)" \
		"| l-read $(w P 7 'tid / 16 + 16 * 3' -D CS=$cs)"
done
echo "B: u-read $(w B 7 'tid % 16 + 16 * 3' -D CS=65)"
