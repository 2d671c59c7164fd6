#!/bin/sh
# rounds.sh OUT - on the device, from the folder gen-rounds.sh wrote:
# builds each variant of gen/list.txt around gpu.cu (MatMul with
# cuBLAS), prints the SASS counts of the MatMul kernels (registers, FFMA,
# LDS.128, STS, LDG, barriers), then runs every variant with ROUNDS
# rounds of it and its baseline timed one after the other (MatMul:
# cublasSgemm, 7 rounds; others: a copy of the same bytes, 5), and, with
# NCU="TAG SIZES", ncu's L2 and L1 figures of that variant's kernel.
# OUT/results.txt, OUT/ncu.txt.  A variant already built is not built
# again: BUILD_ONLY=1 builds them here (nvcc), so the device only runs.
out=$1
cd "$(dirname "$0")/gen" || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/results.txt"
nvcc --version | tail -1 | tee -a "$out/results.txt"
while read -r tag prog rest; do
	[ -x "$tag" ] && continue
	case $prog in matmul) x="-DBENCH_matmul -DWITH_CUBLAS -lcublas" ;; *) x="-DBENCH_$prog" ;; esac
	echo "nvcc -O3 -arch=sm_90 -std=c++17 -w -I. -DKERNEL='\"$tag.cu\"' ../gpu.cu $x -o $tag" > "$tag.sh"
	echo "$tag.sh"
done < list.txt | xargs -P 16 -n 1 sh 2> "$out/compile.err"
[ -n "$BUILD_ONLY" ] && exit 0
for t in $(awk '$2=="matmul"{print $1}' list.txt); do
	s=$(cuobjdump -sass $t | awk '/Function : .*matmul[^_]/ {on=1} /Function : .*grid/ {on=0} on')
	r=$(cuobjdump --dump-resource-usage $t 2>/dev/null | grep -A1 '6matmul' | grep -o 'REG:[0-9]*')
	echo "sass $t $r FFMA $(echo "$s" | grep -c FFMA) LDS.128 $(echo "$s" | grep -c 'LDS.128') LDS $(echo "$s" | grep -c 'LDS') STS $(echo "$s" | grep -c 'STS') LDG $(echo "$s" | grep -c 'LDG') BAR $(echo "$s" | grep -c 'BAR.SYNC') instr $(echo "$s" | grep -c '/\*[0-9a-f]*\*/')"
done | tee -a "$out/results.txt"
while read -r tag prog rest; do
	case $prog in matmul) set -- 4096 4096 4096; n=7 ;; *) set -- 512 512 512; n=5 ;; esac
	ROUNDS=$n ./$tag "$tag $rest" "$@"
done < list.txt 2>&1 | tee -a "$out/results.txt"
if [ -n "$NCU" ]; then
	# shellcheck disable=SC2086
	set -- $NCU
	t=$1
	shift
	ncu --metrics lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum \
		-c 1 "./$t" ncu "$@" > "$out/ncu.txt" 2>&1
fi
