#!/bin/sh
# gen.sh [LEGO [DIR]] - writes the MLIR modules of the benchmark from their
# templates, with liblego's index expressions: DIR/transpose.mlir (the
# layouts of bench/mlir/transpose.lego, TILE = 32), DIR/matmul.mlir
# (bench/mlir/matmul.lego, groups of GM = 8 tile rows) and
# DIR/matmul_wgmma.mlir (bench/mlir/matmul_wgmma.lego, the same groups, 2
# warpgroups a block).  DIR defaults to bench/mlir, where all three are
# checked in
# (tests/mlir/run.sh regenerates them and compares).
set -e
lego=${1:-build/lego}
here=$(dirname "$0")
dir=${2:-$here}
"$lego" gen "$here/transpose.lego" \
	"$here/transpose.mlir.tpl" --target mlir -D TILE=32 \
	-o "$dir/transpose.mlir"
"$lego" gen "$here/matmul.lego" "$here/matmul.mlir.tpl" --target mlir \
	-D GM=8 -o "$dir/matmul.mlir"
"$lego" gen "$here/matmul_wgmma.lego" "$here/matmul_wgmma.mlir.tpl" \
	--target mlir -D GM=8 -D WG=2 -o "$dir/matmul_wgmma.mlir"
