#!/bin/sh
# lower.sh IN.mlir OUT.ptx [CHIP] - lowers a generated module (gpu.module
# with gpu.func kernels) to PTX for CHIP (default sm_90; sm_90a for the
# wgmma matmul: wgmma and setmaxnreg exist only there) with mlir-opt, in
# one mlir-opt run:
#   1. affine-loop-unroll{unroll-factor=-1}, three times (fully unrolls
#      affine.for nests up to depth 3: the matmul's fragment loops, so
#      that every vector position becomes a constant), canonicalize, cse;
#   2. gpu-lower-to-nvvm-pipeline (scf, vector, nvgpu, gpu, memref, arith
#      to NVVM; LLVM's NVPTX back end at -O3; the PTX text is kept in the
#      gpu.binary's assembly string: cubin-format=isa).
# One run because mlir-opt 22 prints an operand-less
# nvgpu.device_async_create_group in a form it cannot parse back.
# The PTX string is then unescaped (MLIR writes \XX hex escapes).
# MLIR_BIN overrides the tool directory (default: scripts/mlir-tools.sh).
set -e
in=$1
out=$2
chip=${3:-sm_90}
here=$(dirname "$0")
bin=${MLIR_BIN:-$(sh "$here/../../scripts/mlir-tools.sh")}
u='affine-loop-unroll{unroll-factor=-1}'
nvvm="gpu-lower-to-nvvm-pipeline{cubin-chip=$chip cubin-features=+ptx80 cubin-format=isa opt-level=3}"
"$bin/mlir-opt" "$in" -o "$out.bin.mlir" --pass-pipeline="builtin.module(gpu.module(gpu.func($u,$u,$u)),canonicalize,cse,$nvvm)"
perl -0777 -ne 'while (/assembly = "((?:[^"\\]|\\.)*)"/sg) {
	my $s = $1;
	$s =~ s/\\([0-9A-Fa-f]{2}|\\)/length($1) == 2 ? chr(hex($1)) : "\\"/ge;
	print $s;
}' "$out.bin.mlir" >"$out.tmp"
rm -f "$out.bin.mlir"
grep -q '^\.target sm_90' "$out.tmp" || { echo "lower.sh: no PTX for sm_90 in the output" >&2; rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
