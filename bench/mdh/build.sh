#!/bin/sh
# build.sh OUTDIR [GROUP..] - generates the CUDA variants of GROUPs
# (matvec matmul jacobi3d mcc ccsdt; all when none is named) with lego
# mdh into OUTDIR, with OUTDIR/compile.sh, which builds one gpu.cu
# binary a variant with nvcc (in parallel: on the device, where the cores
# are), and OUTDIR/run.sh, which runs the torch baselines, then every
# variant (bench/mdh/README.md).
set -e
out=$1
shift
groups=${*:-matvec matmul jacobi3d mcc ccsdt}
lego=${LEGO:-build/lego}
mkdir -p "$out"
here=$(dirname "$0")
cp "$here/torch_ref.py" "$here/gpu.cu" "$out/"
echo "python3 torch_ref.py $groups" > "$out/run.sh"
: > "$out/nvcc.txt"
printf '%s\n' '#!/bin/sh' 'cd "$(dirname "$0")" || exit 1' \
	'xargs -P "$(nproc)" -L 1 sh -c '"'"'nvcc -O3 -arch=sm_90 -std=c++17 -w -DKERNEL="\"$0.cu\"" -DBENCH_$1 gpu.cu -o $0'"'"' < nvcc.txt' \
	> "$out/compile.sh"
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
	echo "$tag $name" >> "$out/nvcc.txt"
	echo "./$tag '$name $sizes $defs' $sizes" >> "$out/run.sh"
}
for g in $groups; do
	# shellcheck disable=SC1090
	. "$here/variants-$g.sh"
done
