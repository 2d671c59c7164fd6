#!/bin/sh
# cpu.sh [BUILD] - the CPU study of issue 19: the OpenCL kernels of lego
# mdh on PoCL (each checked against plain C by tests/mdh/check.c, then
# the best of 5 runs) beside numpy (BLAS for MatMul and MatVec, slices
# for Jacobi 3D), interleaved: ROUNDS rounds (default 3), each numpy then
# every kernel, and per kernel the median over the rounds of numpy's time
# over its own in the same round.  THREADS (default 1) threads on both
# sides (OpenBLAS's and PoCL's pthread device's): the machine's 2 cores
# are shared with other engineers, and one thread a side is what a
# loaded machine can still compare.  The load average is printed each
# round.  MM (default 512) is MatMul's size.  bench/mdh/README.md has
# runs.
BUILD=${1:-build}
here=$(dirname "$0")
mm=${MM:-512} mv=4096 j3=128
threads=${THREADS:-1}
rounds=${ROUNDS:-3}
export OPENBLAS_NUM_THREADS=$threads POCL_CPU_MAX_CU_COUNT=$threads \
	POCL_MAX_PTHREAD_COUNT=$threads
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
echo "cores: $(nproc)   threads a side: $threads   rounds: $rounds"
python3 "$here/numpy_ref.py" --blas
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
		'BEGIN { if (ms + 0 > 0) printf "%-76s %9.3f ms %8.2f %s\n", l, ms, w / ms, u;
			 else printf "%-76s FAILED %s\n", l, ms }'
}
mmw=$(awk "BEGIN { print 2 * $mm ^ 3 / 1e6 }")
mvw=$(awk "BEGIN { print 4 * $mv * $mv / 1e6 }")
j3w=$(awk "BEGIN { print 8 * $j3 ^ 3 / 1e6 }")
r=1
while [ $r -le "$rounds" ]; do
	echo "round $r   load: $(cut -d' ' -f1-3 /proc/loadavg)"
	python3 "$here/numpy_ref.py" $mm $mv $j3
	# the best scalar kernel of runs 1 to 3, then the vector variant
	# (W_j, docs/mdh.md): one work-item a group, P_i rows of P_j
	pocl matmul "$mm $mm $mm" "$mmw" GFLOP/s -D L_i=4 -D L_j=8 -D P_i=8 -D P_j=8 -D O_i=2 -D O_j=2 -D P_k=4
	for t in "8 16 16" "16 16 16" "4 16 16" "8 16 8"; do
		# shellcheck disable=SC2086
		set -- $t
		pocl matmul "$mm $mm $mm" "$mmw" GFLOP/s -D L_i=1 -D L_j=1 -D P_i=$1 -D P_j=$2 -D O_j=2 -D W_j=$3
	done
	pocl matvec "$mv $mv" "$mvw" GB/s -D L_i=1 -D P_i=8 -D L_k=8 -D P_k=16 -D R_k=2
	pocl matvec "$mv $mv" "$mvw" GB/s -D L_i=1 -D P_i=4 -D L_k=8 -D P_k=16 -D R_k=2
	pocl jacobi3d "$j3 $j3 $j3" "$j3w" GB/s -D L_k=32
	r=$((r + 1))
done | tee "$D/log"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
# per kernel: numpy's time of its program in the same round over its own
awk '/^round/ {next}
     /^numpy/ {np[$2] = $(NF - 3); next}
     /^pocl/ && !/FAILED/ {k = $0; sub(/ +[0-9.]+ ms .*/, "", k);
	r[k] = r[k] " " np[$2] / $(NF - 3)}
     END {for (k in r) {n = split(r[k], v, " ");
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
	printf "%-76s numpy/pocl median %.2f (min %.2f, max %.2f, %d rounds)\n",
		k, v[int((n + 1) / 2)], v[1], v[n], n}}' "$D/log" | sort
