#!/bin/sh
# run 9, third call: the walks with their stores in the walk, and ncu's stall reasons
o=$1
mkdir -p "$o/j"
sh j2/rounds.sh "$o/j" > /dev/null 2>&1
cd j2/gen || exit 1
for t in s_32x8x16 s_64x8x16k; do
	ncu --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis -c 1 ./$t ncu 512 512 512 > "$o/j/ncu-$t.txt" 2>&1
done
grep -h ROUNDS "$o/j/results.txt"
