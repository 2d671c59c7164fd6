#!/bin/sh
# build.sh OUTDIR - generates the CUDA variants with lego mdh and builds
# one gpu.cu binary per variant into OUTDIR, with OUTDIR/run.sh that runs
# them all on the device (bench/mdh/README.md).
set -e
out=$1
lego=${LEGO:-build/lego}
mkdir -p "$out"
here=$(dirname "$0")
cp "$here/torch_ref.py" "$out/"
echo "python3 torch_ref.py" > "$out/run.sh"
# variant NAME SIZES "DEFINES"
variant() {
	name=$1; sizes=$2; defs=$3
	tag=$(echo "$name $defs" | tr -d ' =-' | tr -c 'a-zA-Z0-9_\n' '_')
	# shellcheck disable=SC2086
	set -- $sizes
	case $name in
	matvec) D="-D I=$1 -D K=$2" ;;
	matmul) D="-D M=$1 -D N=$2 -D K=$3" ;;
	esac
	# shellcheck disable=SC2086
	"$lego" mdh "examples/mdh/$name.mdh" --target cuda $D $defs -o "$out/$tag.cu"
	nvcc -O3 -arch=sm_90 -std=c++17 -DKERNEL="\"$tag.cu\"" -DBENCH_$name \
		-I"$out" "$here/gpu.cu" -o "$out/$tag" 2>/dev/null
	echo "./$tag '$name $defs' $sizes" >> "$out/run.sh"
}
variant matvec "8192 8192" ""
variant matvec "8192 8192" "-D L_i=1 -D L_k=256 -D P_k=4"
variant matvec "8192 8192" "-D L_i=8 -D L_k=32 -D P_k=4"
variant matvec "8192 8192" "-D L_i=2 -D L_k=128 -D P_k=8"
variant matvec "8192 8192" "-D L_i=1 -D L_k=256 -D P_k=4 -D G_k=4"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=4 -D P_j=4"
variant matmul "4096 4096 4096" "-D L_i=8 -D L_j=32 -D P_i=8 -D P_j=4"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=4 -D O_i=2"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=8"
variant matmul "4096 4096 4096" "-D L_i=8 -D L_j=32 -D P_i=8 -D P_j=8"
variant matmul "4096 4096 4096" "-D L_i=8 -D L_j=16 -D P_i=8 -D P_j=8"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=4 -D P_j=8 -D P_k=4"
# inputs staged in shared memory (M_X = 2)
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=4 -D P_k=8 -D M_A=2 -D M_B=2"
variant matmul "4096 4096 4096" "-D L_i=8 -D L_j=32 -D P_i=8 -D P_j=4 -D P_k=8 -D M_A=2 -D M_B=2"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=8 -D P_k=8 -D M_A=2 -D M_B=2"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=4 -D P_j=4 -D P_k=16 -D M_A=2 -D M_B=2"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=4 -D P_k=4 -D M_A=2 -D M_B=2 -D O_i=2"
variant matmul "4096 4096 4096" "-D L_i=16 -D L_j=16 -D P_i=8 -D P_j=4 -D P_k=8 -D M_A=2"
