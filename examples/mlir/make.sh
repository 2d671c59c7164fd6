#!/bin/sh
# make.sh [LEGO] - writes examples/mlir/transpose.mlir: the kernel of
# transpose.kernel.mlir with the index functions of the layouts In and Out
# (transpose.lego) spliced in, indented into the gpu.module.
lego=${1:-build/lego}
dir=$(dirname "$0")
funcs=$(mktemp)
trap 'rm -f "$funcs" "$dir/transpose.mlir.tmp"' EXIT
for l in In Out; do
	"$lego" mlir "$dir/transpose.lego" "$l" || exit 1
	echo
done | sed 's/^./    &/' >"$funcs"
sed -e "/^\/\/ LEGO-FUNCTIONS\$/{r $funcs" -e 'd}' \
	"$dir/transpose.kernel.mlir" >"$dir/transpose.mlir.tmp" &&
	mv "$dir/transpose.mlir.tmp" "$dir/transpose.mlir"
