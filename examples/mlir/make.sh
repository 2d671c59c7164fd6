#!/bin/sh
# make.sh [LEGO [OUT]] - writes OUT (default examples/mlir/transpose.mlir):
# the kernel of transpose.kernel.mlir with the index functions of the
# layouts In and Out (transpose.lego) spliced in, indented into the
# gpu.module.
lego=${1:-build/lego}
dir=$(dirname "$0")
out=${2:-$dir/transpose.mlir}
funcs=$(mktemp)
trap 'rm -f "$funcs" "$out.tmp"' EXIT
for l in In Out; do
	"$lego" mlir "$dir/transpose.lego" "$l" || exit 1
	echo
done | sed 's/^./    &/' >"$funcs" || exit 1
sed -e "/^\/\/ LEGO-FUNCTIONS\$/{r $funcs" -e 'd}' \
	"$dir/transpose.kernel.mlir" >"$out.tmp" && mv "$out.tmp" "$out"
