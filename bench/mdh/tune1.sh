#!/bin/sh
# tune1.sh KERNEL NAME SIZES.. - the command lego tune runs for one
# candidate on the device: builds gpu.cu around the generated KERNEL
# (BENCH_NAME), which checks it against float64 (non-zero exit when
# wrong) and times it; prints its output, the median in ms last.  Runs 1
# and 2 tuned this way; tune-nvrtc.sh now tunes in process instead
# (lego tune --runner cuda over a --target nvrtc template, run 7).
set -e
k=$1; name=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp "$k" "$d/k.cu"
nvcc -O3 -arch=sm_90 -std=c++17 -w -DKERNEL='"k.cu"' -DBENCH_"$name" \
	-I"$d" "$here/gpu.cu" -o "$d/bin"
"$d/bin" cand "$@" > "$d/out" || { cat "$d/out"; exit 1; }
cat "$d/out"
awk '{print $2}' "$d/out"
