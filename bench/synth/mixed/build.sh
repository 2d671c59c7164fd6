#!/bin/sh
# build.sh [BUILD] [DIR] - bench/synth/mixed: writes mixed.cu from the
# template and the layouts (lego gen), compiles it for sm_90 into
# DIR/libmixed.so and copies the drivers there.  On the device:
#   cd DIR && python3 bench.py      (prof.py: one instance under ncu; stalls.sh:
#   its stall reasons)
build=${1:-build}
dir=${2:-/work/main/.dev-mixed}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir" || exit 1
"$lego" gen "$here/mixed.lego" "$here/mixed.cu.tpl" --target cuda -o "$here/mixed.cu" || exit 1
nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC -o "$dir/libmixed.so" "$here/mixed.cu" || exit 1
cp "$here/bench.py" "$here/prof.py" "$here/stalls.sh" "$here/triton_w4.py" "$dir/"
