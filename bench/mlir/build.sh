#!/bin/sh
# build.sh [LEGO [OUT]] - everything the device run needs, built here:
#   bench/mlir/{transpose,matmul,matmul_wgmma}.mlir
#                                        generated (gen.sh)
#   OUT/*.ptx                            lowered by mlir-opt (lower.sh)
#   OUT/*.cubin                          ptxas -O3 for sm_90 (the wgmma
#                                        matmuls: sm_90a; -v in *.ptxas.txt)
#   OUT/transpose_cuda.{cu,cubin}        the CUDA transposes (bench/cuda), as built
#   OUT/runner                           the driver-API runner (runner.c)
# OUT defaults to build/mlir-bench (ignored: carry it to the device).
# Needs mlir-opt (scripts/mlir-tools.sh) and the CUDA toolkit (CUDA, default
# /usr/local/cuda: ptxas, nvcc, cuda.h, cublas, the libcuda stub).
set -e
lego=${1:-build/lego}
out=${2:-build/mlir-bench}
here=$(dirname "$0")
cuda=${CUDA:-/usr/local/cuda}
mkdir -p "$out"
sh "$here/gen.sh" "$lego"
for mc in transpose:sm_90 matmul:sm_90 matmul_wgmma:sm_90a; do
	m=${mc%:*}
	chip=${mc#*:}
	sh "$here/lower.sh" "$here/$m.mlir" "$out/$m.ptx" "$chip"
	"$cuda/bin/ptxas" -arch="$chip" -O3 -v "$out/$m.ptx" -o "$out/$m.cubin" \
		2>"$out/$m.ptxas.txt"
done
cp "$here/../cuda/transpose_bench.cu" "$out/transpose_cuda.cu" # the source measured
"$cuda/bin/nvcc" -cubin -O3 -arch=sm_90 "$out/transpose_cuda.cu" \
	-o "$out/transpose_cuda.cubin"
${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -I"$cuda/include" \
	"$here/runner.c" -o "$out/runner" -L"$cuda/lib64/stubs" \
	-L"$cuda/lib64" -lcublas -lcuda
echo "build.sh: done in $out"
