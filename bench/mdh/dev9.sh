#!/bin/sh
# dev9.sh OUT - run 9 on the device (bench/mdh/README.md), from the folder
# that holds j/ (gen-rounds.sh), ip/ (inproc-build.sh GEN_ONLY=1) and
# lib.cu: the Jacobi rounds beside the copy (NCU: ncu on one variant),
# then the MCC and CCSD(T) kernels built as libraries and timed in
# torch's process (inproc.py).
o=$1
mkdir -p "$o/j" "$o/ip"
( cd ip && xargs -P 16 -L 1 sh -c 'nvcc -O3 -arch=sm_90 -std=c++17 -w -shared -Xcompiler -fPIC -I. -DKERNEL="\"$0.cu\"" -DBENCH_$1 ../lib.cu -o $0.so' < nvcc.txt ) > "$o/ip/compile.txt" 2>&1 &
NCU="${NCU:-w_32x8x16 512 512 512}" sh j/rounds.sh "$o/j"
wait
cd ip && python3 inproc.py list.txt 5 > "$o/ip/results.txt" 2>&1
tail -40 "$o/ip/results.txt"
