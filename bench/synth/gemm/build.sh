#!/bin/sh
# build.sh [BUILD] [DIR] - bench/synth/gemm: writes the generated kernel
# (lego infer --cuda tests/synth/gemm.tile), compiles it beside hand.cu
# into DIR/libgemm.so for sm_90, and copies bench.py there.  On the device:
#   cd DIR && python3 bench.py
#   ncu --csv --metrics $METRICS python3 bench.py --ncu
build=${1:-build}
dir=${2:-/work/main/.dev-synth3}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
(cd "$here/../../.." && "$lego" infer --cuda tests/synth/gemm.tile \
	-o bench/synth/gemm/gemm.cu) || exit 1
nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC -o "$dir/libgemm.so" \
	"$here/gemm.cu" "$here/hand.cu" || exit 1
cp "$here/bench.py" "$dir/"
