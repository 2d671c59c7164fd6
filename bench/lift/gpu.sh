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
gen() {  # NAMESPACE FILE [STEPS]: STEPS rewrites (lego lift --rewrite)
	rw=${3:+--rewrite $3}
	"$lego" lift --target cuda $rw "$2" -o "$out/$1.cu"
	"$lego" lift --target cuda --host $rw "$2" -o "$out/$1.h"
	printf 'namespace %s {\n#include "%s.cu"\n#include "%s.h"\n}\n' \
		"$1" "$1" "$1" >> "$out/lift_all.cuh"
}
# variant NAME FILE TO SED: FILE's kernel NAME renamed TO (extern "C"
# names must differ) and edited by SED into OUT/TO.lift
variant() {
	sed -e "s/^kernel $1(/kernel $3(/" -e "$4" "$2" > "$out/$3.lift"
}
for b in dot gemv gemvwg matmul nbody kmeans nn md conv2d stencil2d jacobi3d; do
	gen "ex_$b" "examples/lift/$b.lift"
done
# the explored variants that unroll (the unroll rule) the 2-D stencils'
# reduction over the neighbourhood (jacobi3d.lift has none: 7 reads)
for b in conv2d stencil2d; do
	variant "$b" "examples/lift/$b.lift" "${b}_u" ""
	gen "ex_${b}_u" "$out/${b}_u.lift" unroll:0
done
# mmtiled at tile sides 4 to 32, each also with its product over a tile
# unrolled; gemvwg with work-groups of 32 to 1024 partial sums
for t in 4 8 16 32; do
	variant mmtiled examples/lift/mmtiled.lift "mmtiled$t" "s/\\b4\\b/$t/g"
	gen "ex_mmtiled$t" "$out/mmtiled$t.lift"
	variant "mmtiled$t" "$out/mmtiled$t.lift" "mmtiled${t}_u" ""
	gen "ex_mmtiled${t}_u" "$out/mmtiled${t}_u.lift" unroll:1
done
for w in 32 64 128 512 1024; do
	variant gemvwg examples/lift/gemvwg.lift "gemvwg$w" "s/\\b256\\b/$w/g"
	gen "ex_gemvwg$w" "$out/gemvwg$w.lift"
done
cp "$here/refs.cuh" "$out/"
nvcc -O3 -arch=sm_90 -std=c++17 -I"$out" "$here/gpu.cu" -o "$out/gpu"
