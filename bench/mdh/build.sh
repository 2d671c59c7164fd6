#!/bin/sh
# build.sh OUTDIR [GROUP..] - generates the CUDA variants of GROUPs
# (matvec matmul jacobi3d mcc ccsdt; all when none is named) with lego
# mdh and builds one gpu.cu binary per variant into OUTDIR, with
# OUTDIR/run.sh that runs them all on the device, the torch baselines
# first (bench/mdh/README.md).
set -e
out=$1
shift
groups=${*:-matvec matmul jacobi3d mcc ccsdt}
lego=${LEGO:-build/lego}
mkdir -p "$out"
here=$(dirname "$0")
cp "$here/torch_ref.py" "$out/"
echo "python3 torch_ref.py $groups" > "$out/run.sh"
# variant NAME SIZES "DEFINES": the sizes in the program's order
variant() {
	name=$1; sizes=$2; defs=$3
	tag=$(echo "$name $sizes $defs" | tr -d ' =-' | tr -c 'a-zA-Z0-9_\n' '_')
	syms=$(sed -n 's/^size //p' "examples/mdh/$name.mdh" | tr -d ,)
	D=""
	# shellcheck disable=SC2086
	set -- $sizes
	for s in $syms; do
		D="$D -D $s=$1"
		shift
	done
	# shellcheck disable=SC2086
	"$lego" mdh "examples/mdh/$name.mdh" --target cuda $D $defs -o "$out/$tag.cu"
	nvcc -O3 -arch=sm_90 -std=c++17 -DKERNEL="\"$tag.cu\"" -DBENCH_$name \
		-I"$out" "$here/gpu.cu" -o "$out/$tag"
	echo "./$tag '$name $sizes $defs' $sizes" >> "$out/run.sh"
}
for g in $groups; do
	# shellcheck disable=SC1090
	. "$here/variants-$g.sh"
done
