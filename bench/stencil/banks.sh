#!/bin/sh
# Bank conflicts of the tiled stencil kernels' reads from the shared tile H
# of stencil.lego (rows padded to 40 floats) against the unpadded
# Row(8 + 2R, 8 + 2R, 8 + 2R): a warp is the 8 x 4 points (z fastest) of
# one plane of the box, reading its neighbours at offset (0, b, c).
# Prints the worst wavefront count over b, c for R = 1..4.
# (The layout H is taken out of stencil.lego into a spec of its own:
# `lego analyze` parses a spec before applying -D, and stencil.lego's L
# needs BX, BY, BZ to be valid.)
# Usage: sh bench/stencil/banks.sh [LEGO]
LEGO=${1:-build/lego}
HERE=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
{
	echo "sym R"
	grep '^layout H = ' "$HERE/stencil.lego"
	echo "layout Unpadded = Row(8 + 2*R, 8 + 2*R, 8 + 2*R)"
} > "$TMP/tile.lego"
for r in 1 2 3 4; do
	for name in H Unpadded; do
		worst=0
		b=-$r
		while [ $b -le $r ]; do
			c=-$r
			while [ $c -le $r ]; do
				w=$("$LEGO" analyze banks "$TMP/tile.lego" $name "$r" \
					"$r + $b + tid / 8" "$r + $c + tid % 8" -D R=$r |
					sed -n 's/^wavefronts: \([0-9]*\).*/\1/p')
				[ "$w" -gt "$worst" ] && worst=$w
				c=$((c + 1))
			done
			b=$((b + 1))
		done
		echo "R=$r $name: worst $worst wavefronts per warp read (ideal 1)"
	done
done
