#!/bin/sh
# dev10.sh OUT - run 10 on the device (bench/mdh/README.md), from the
# folder that holds j/ (gen-rounds.sh, built here with BUILD_ONLY=1) and
# ip/ (inproc-build.sh, built here): the Jacobi rounds beside the copy
# (with NCU="TAG SIZES", ncu's L2 and DRAM figures of that variant), then
# the MCC and CCSD(T) libraries checked and timed in torch's process.
o=$1
mkdir -p "$o/j" "$o/ip"
NCU="${NCU:-v_w32x8x16 512 512 512}" sh j/rounds.sh "$o/j" > /dev/null 2>&1
grep -h ROUNDS "$o/j/results.txt"
cd ip || exit 1
LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH python3 inproc.py \
	list.txt 5 > "$o/ip/results.txt" 2>&1
grep -h "ROUNDS\|FAILED\|Error\|error" "$o/ip/results.txt"
