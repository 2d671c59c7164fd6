#!/bin/sh
# Runs both CUDA benchmarks, then ncu bank-conflict counts on a few cases.
# Binaries from: nvcc -O3 -arch=sm_90 -Ibench/cuda bench/cuda/nw_bench.cu -o $BIN/nw_bench
#                nvcc -O3 -arch=sm_90 bench/cuda/transpose_bench.cu -o $BIN/transpose_bench
BIN=${BIN:-build/cuda-bench}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
$BIN/nw_bench 8192 16384 32768
$BIN/transpose_bench 4096 8192 16384
[ -n "$NO_NCU" ] && exit 0
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# NW at 4096: the 64th needle_1 launch (a full wave of 64 blocks) of each variant
# (384 needle_1 launches per variant: 6 runs x 64).
for v in 0 1 2 3 4 5 6; do
	timeout 60 ncu --metrics $M -k regex:needle_1 --launch-skip $((63 + 384 * v)) \
		--launch-count 1 $BIN/nw_bench 4096 2>&1 | grep -E "needle_1|bank_conflicts"
done
# Transposes at 4096: first launch of each shared-memory kernel.
for k in copy_shared transpose_tile transpose_padded transpose_swizzle transpose_padded64 transpose_swizzle64; do
	timeout 60 ncu --metrics $M -k $k --launch-count 1 $BIN/transpose_bench 4096 2>&1 |
		grep -E "$k\\b|bank_conflicts"
done
