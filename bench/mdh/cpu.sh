#!/bin/sh
# cpu.sh [BUILD] - the CPU study of issue 19: the OpenCL kernels of lego
# mdh on PoCL beside numpy (BLAS for MatMul and MatVec, slices for Jacobi
# 3D), in one table of ratios.  Each kernel is built and checked against
# plain C (tests/mdh/measure.sh, check.c) first; then numpy_ref.py runs
# ROUNDS rounds (default 9) in which numpy's program and each kernel
# alternate strictly, each the best of 5 runs, and gives per kernel the
# median of numpy's time over the kernel's in the same pair, with the
# load average of the rounds.  THREADS (default 1) threads on both
# sides (OpenBLAS's and PoCL's pthread device's): on a shared machine
# one thread a side is what can still be compared.  MatMul at 512^3,
# 1024^3 and 2016^3, MatVec at 4096^2, Jacobi 3D at 128^3.  bench/mdh/README.md has
# runs.
BUILD=${1:-build}
here=$(dirname "$0")
threads=${THREADS:-1}
rounds=${ROUNDS:-9}
export OPENBLAS_NUM_THREADS="$threads" POCL_CPU_MAX_CU_COUNT="$threads" \
	POCL_MAX_PTHREAD_COUNT="$threads"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
echo "cores: $(nproc)   threads a side: $threads   rounds: $rounds   load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/numpy_ref.py" --blas
# kernel NAME SIZE DEFINES..: builds NAME at SIZE (every dim) with
# DEFINES into a folder of its own, checked; prints the folder
kernel() {
	name=$1 size=$2
	shift 2
	k=$(mktemp -d "$D/$name-$size.XXXXXX")
	defs="" sizes=""
	for s in $(sed -n 's/^size //p' "examples/mdh/$name.mdh" | tr -d ,); do
		defs="$defs -D $s=$size"
		sizes="$sizes $size"
	done
	echo "$*" > "$k/label"
	# shellcheck disable=SC2086
	if sh tests/mdh/measure.sh "$BUILD/lego" "$name" "$k" "" $sizes \
		-- $defs "$@" > "$k/log" 2>&1; then
		echo "$k"
	else
		echo "FAILED: $name $size $*: $(head -n 3 "$k/log")" >&2
	fi
}
# PROGRAM SIZE, then its kernels, one a line
table() {
	while read -r name size; do
		dirs=""
		while read -r defs && [ -n "$defs" ]; do
			# shellcheck disable=SC2086
			dirs="$dirs $(kernel "$name" "$size" $defs)"
		done
		# shellcheck disable=SC2086
		python3 "$here/numpy_ref.py" "$rounds" "$name" "$size" $dirs
	done
}
# MatMul: the vector variant (W_j, docs/mdh.md), one work-item a group,
# P_i rows of 16 (float16: AVX-512), the groups along j or (B_ord = 2)
# along i, sharing B's column panel; MatVec: rows of 8 or 4 a work-item,
# 8 work-items along k, k's private loop inside the row tile
table << EOF | tee "$D/log"
matmul 512
-D L_i=1 -D L_j=1 -D P_i=8 -D P_j=16 -D O_j=2 -D W_j=16
-D L_i=1 -D L_j=1 -D P_i=16 -D P_j=16 -D O_j=2 -D W_j=16

matmul 1024
-D L_i=1 -D L_j=1 -D P_i=8 -D P_j=16 -D O_j=2 -D W_j=16
-D L_i=1 -D L_j=1 -D P_i=8 -D P_j=16 -D O_j=2 -D W_j=16 -D B_ord=2

matmul 2016
-D L_i=1 -D L_j=1 -D P_i=8 -D P_j=16 -D O_j=2 -D W_j=16 -D B_ord=2

matvec 4096
-D L_i=1 -D P_i=8 -D L_k=8 -D P_k=16 -D R_k=2
-D L_i=1 -D P_i=4 -D L_k=8 -D P_k=16 -D R_k=2

jacobi3d 128
-D L_k=32

EOF
echo
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| program | size | PoCL kernel | numpy ms (median) | PoCL ms (median) | numpy / PoCL, median (min to max) | load average |"
echo "|---|---|---|---|---|---|---|"
grep '^|' "$D/log"
