#!/bin/sh
# liblego's bank analysis of the SHARED STORES of one NW block (nw_bench.cu),
# to compare with ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.
# Prints excess wavefronts (wavefronts - ideal) per block; ncu counts them
# over the 64 blocks of the profiled launch.
LEGO=${LEGO:-build/lego}
F=bench/cuda/nw_buffers.lego
excess() { # layout, analyze args...
	L=$1; shift
	$LEGO analyze banks $F $L "$@" -D n=65 | awk '
		/^total:/ { w = $3; i = $5; sub(/\)/, "", i); print w - i; exit }
		/^wavefronts:/ { w = $2; i = $4; sub(/\)/, "", i); print w - i; exit }'
}
for L in RowB W Pad; do
	t=0
	# compute phase 1 (m = 0..63) and 2 (m = 0..62), warps 0 and 1
	for x in $(excess $L "m - tid + 1" "tid + 1" --active "tid <= m" --sweep m=0:64) \
		$(excess $L "m - tid - 31" "tid + 33" --active "tid + 32 <= m" --sweep m=0:64) \
		$(excess $L "64 - tid" "tid + 64 - m" --active "tid <= m" --sweep m=0:63) \
		$(excess $L "32 - tid" "tid + 96 - m" --active "tid + 32 <= m" --sweep m=0:63) \
		$(excess $L "tid + 1" 0) $(excess $L "tid + 33" 0) \
		$(excess $L 0 "tid + 1") $(excess $L 0 "tid + 33"); do
		t=$((t + x))
	done
	echo "$L: $t store conflicts per block, $((t * 64)) per 64-block launch"
done
