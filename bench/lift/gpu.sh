#!/bin/sh
# gpu.sh OUT [BUILD] - builds the Lift GPU study (bench/lift/README.md)
# here: every benchmark's Lift program generated for CUDA by lego lift
# into OUT/lift_all.cuh (a namespace each; mmtiled.lift also with its
# tile side 4 made 8, 16 and 32), then bench/lift/gpu.cu by nvcc for the
# H100 into OUT/gpu.  On the device: OUT/gpu (add an argument for small
# sizes), and python3 bench/lift/sgemm.py for cuBLAS.
set -e
out=$1
lego=${2:-build}/lego
here=$(dirname "$0")
mkdir -p "$out"
: > "$out/lift_all.cuh"
gen() {  # NAMESPACE FILE
	"$lego" lift --target cuda "$2" -o "$out/$1.cu"
	"$lego" lift --target cuda --host "$2" -o "$out/$1.h"
	printf 'namespace %s {\n#include "%s.cu"\n#include "%s.h"\n}\n' \
		"$1" "$1" "$1" >> "$out/lift_all.cuh"
}
for b in dot gemv gemvwg matmul nbody kmeans nn conv2d stencil2d jacobi3d; do
	gen "ex_$b" "examples/lift/$b.lift"
done
for t in 4 8 16 32; do
	sed -e "s/\\b4\\b/$t/g" -e "s/^kernel mmtiled(/kernel mmtiled$t(/" examples/lift/mmtiled.lift > "$out/mmtiled$t.lift"
	gen "ex_mmtiled$t" "$out/mmtiled$t.lift"
done
cp "$here/refs.cuh" "$out/"
nvcc -O3 -arch=sm_90 -std=c++17 -I"$out" "$here/gpu.cu" -o "$out/gpu"
