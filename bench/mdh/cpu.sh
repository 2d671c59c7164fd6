#!/bin/sh
# cpu.sh [BUILD] - the CPU study of issue 19: the OpenCL kernels of lego
# mdh on PoCL (each checked against plain C by tests/mdh/check.c, then
# the best of 5 runs) beside numpy (BLAS for MatMul and MatVec, slices
# for Jacobi 3D), in one run, with the load average before and after
# (the machine's cores are shared).  bench/mdh/README.md has a run.
BUILD=${1:-build}
here=$(dirname "$0")
mm=512 mv=4096 j3=128
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)"
python3 "$here/numpy_ref.py" $mm $mv $j3
# pocl NAME "SIZES" WORK UNIT DEFINES..: prints the time and WORK / ms
# UNIT (WORK in units of 1e6: the rate in G.../s)
pocl() {
	name=$1 sizes=$2 work=$3 unit=$4
	shift 4
	syms=$(sed -n 's/^size //p' "examples/mdh/$name.mdh" | tr -d ,)
	defs="" n=1
	for s in $syms; do
		defs="$defs -D $s=$(echo "$sizes" | cut -d' ' -f$n)"
		n=$((n + 1))
	done
	# shellcheck disable=SC2086
	ms=$(sh tests/mdh/measure.sh "$BUILD/lego" "$name" "$D/$name" "" \
		$sizes -- $defs "$@" --time 2>&1 | tail -n 1)
	awk -v l="pocl $name $sizes $*" -v ms="$ms" -v w="$work" -v u="$unit" \
		'BEGIN { if (ms + 0 > 0) printf "%-70s %9.3f ms %8.2f %s\n", l, ms, w / ms, u;
			 else printf "%-70s FAILED %s\n", l, ms }'
}
mmw=$(awk "BEGIN { print 2 * $mm ^ 3 / 1e6 }")
mvw=$(awk "BEGIN { print 4 * $mv * $mv / 1e6 }")
j3w=$(awk "BEGIN { print 8 * $j3 ^ 3 / 1e6 }")
pocl matmul "$mm $mm $mm" "$mmw" GFLOP/s -D L_i=2 -D L_j=8 -D P_i=8 -D P_j=8 -D O_i=2 -D O_j=2 -D P_k=4
pocl matmul "$mm $mm $mm" "$mmw" GFLOP/s -D L_i=2 -D L_j=8 -D P_i=8 -D P_j=8 -D O_i=2 -D O_j=2 -D P_k=4 -D R_k=2
pocl matvec "$mv $mv" "$mvw" GB/s -D L_i=1 -D P_i=8 -D L_k=8 -D P_k=16
pocl matvec "$mv $mv" "$mvw" GB/s -D L_i=1 -D P_i=8 -D L_k=8 -D P_k=16 -D R_k=2
pocl matvec "$mv $mv" "$mvw" GB/s -D L_i=1 -D P_i=4 -D L_k=16 -D P_k=16 -D R_k=2
pocl jacobi3d "$j3 $j3 $j3" "$j3w" GB/s -D L_k=32
pocl jacobi3d "$j3 $j3 $j3" "$j3w" GB/s -D L_k=128 -D P_i=2
python3 "$here/numpy_ref.py" $mm $mv $j3
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
