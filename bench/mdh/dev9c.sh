#!/bin/sh
# dev9c.sh OUT - run 9, third and fourth calls (bench/mdh/README.md): the
# Jacobi variants that gen-rounds.sh wrote into j2/ (a call's lines of
# rounds-run9.sh), in rounds beside the copy, and ncu's sections (warp
# stalls, occupancy, memory) of the walks named below.
o=$1
mkdir -p "$o/j"
sh j2/rounds.sh "$o/j" > /dev/null 2>&1
cd j2/gen || exit 1
for t in s_32x8x16 s_64x8x16k; do
	ncu --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis -c 1 ./$t ncu 512 512 512 > "$o/j/ncu-$t.txt" 2>&1
done
grep -h ROUNDS "$o/j/results.txt"
