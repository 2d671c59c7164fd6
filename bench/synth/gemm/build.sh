#!/bin/sh
# build.sh [BUILD] [DIR] - bench/synth/gemm: writes the generated kernels
# (lego infer --cuda tests/synth/gemm.tile and gemm64.tile), compiles them
# beside hand.cu and wgmma.cu into DIR/libgemm.so for sm_90 (sm_90a),
# variants of wgmma.cu into DIR/libwg_p0.so and libwg_w0.so,
# and probe.cu into DIR/probe,
# and copies bench.py there.  On the device:
#   cd DIR && python3 bench.py
#   ncu --csv --metrics $METRICS python3 bench.py --ncu
build=${1:-build}
dir=${2:-/work/main/.dev-synth3}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
for t in gemm gemm64; do
	(cd "$here/../../.." && "$lego" infer --cuda tests/synth/$t.tile \
		-o bench/synth/gemm/$t.cu) || exit 1
done
# wgmma.cu includes gemm64.cu (its copies) and needs sm_90a
nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xcompiler -fPIC -c \
	-o "$dir/wgmma.o" "$here/wgmma.cu" || exit 1
nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC -o "$dir/libgemm.so" \
	"$here/gemm.cu" "$here/hand.cu" "$dir/wgmma.o" || exit 1
rm -f "$dir/wgmma.o"
# the wgmma pipeline's variants, each in a library of its own (gemm64.cu's
# functions would be defined twice): wgmma_p0 as it was at first (the
# copies issued before the wgmma, every wgmma waited for in its step, 3
# tiles ahead), wgmma_w0 with the copies issued after the wgmma
for v in "p0 -DWG_WAIT=0 -DWG_COPY_FIRST=1" "w0 -DWG_WAIT=0"; do
	set -- $v
	n=$1
	shift
	nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -shared -Xcompiler \
		-fPIC -DWG_NAME=wgmma_$n "$@" -o "$dir/libwg_$n.so" \
		"$here/wgmma.cu" || exit 1
done
nvcc -arch=sm_90 -O3 -o "$dir/probe" "$here/probe.cu" || exit 1
cp "$here/bench.py" "$dir/"
