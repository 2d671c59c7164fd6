#!/bin/sh
# dev11.sh OUT - run 11 on the device (bench/mdh/README.md), from the
# folder that holds ip/ (inproc-build.sh with inproc-run11.txt, built
# here, and write.so from write.cu): the device's name, then inproc.py:
# each kernel checked against torch in float64, then 5 rounds of einsum,
# the write ceiling (cudaMemset, float4 stores) and every kernel.
o=$1
mkdir -p "$o"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
	> "$o/device.txt" 2>&1
cd ip || exit 1
LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH python3 inproc.py \
	list.txt "${ROUNDS:-5}" > "$o/results.txt" 2>&1
cat "$o/device.txt"
grep -h "ROUNDS\|WRITE\|FAILED\|Error\|error\|H100" "$o/results.txt"
