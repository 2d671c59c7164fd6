#!/bin/sh
# mixed.sh BUILD - the FP16 x INT4 GEMM of bench/synth/mixed without a GPU:
# its layouts are bijective (exhaustively at small sizes, proved for all),
# Wq is the plain packing of mixed_unpack.cc nibble for nibble, the index
# functions `lego gen` writes into the kernel read every weight, scale, A
# and C element where the plain packing put it, through the tiled kernel's
# shared slice of A and its staged weights and scales too (mixed_unpack.cc
# check), the layouts of the slice and the staged weights, As and Ws, are
# what `lego synth` chooses for their accesses (conflict-free), the
# committed mixed.cu is what lego gen writes now, and nvcc compiles it
# where nvcc is.  Prints "mixed: N passed, N failed".
build=${1:-build}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../../bench/synth/mixed
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$lego" check --prove "$bench/mixed.lego" >"$tmp/prove" 2>&1 &&
	[ "$(grep -c ': proved 4 of 4' "$tmp/prove")" -eq 7 ] && ok ||
	bad "lego check --prove: $(cat "$tmp/prove")"
if "$lego" gen "$bench/mixed.lego" "$bench/mixed.cu.tpl" --target cuda -o "$tmp/mixed.cu" \
	2>"$tmp/err" && c++ -std=c++17 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/unpack" \
	"$here/mixed_unpack.cc" 2>>"$tmp/err"; then ok; else bad "gen or c++"; cat "$tmp/err"; exit 1; fi
"$lego" synth "$bench/mixed_smem.lego" cp ald --tile 128x128 --name As >"$tmp/synth" 2>&1 &&
	grep -q '^# total: 512 wavefronts (ideal 512)$' "$tmp/synth" &&
	grep -qxF "$(tail -1 "$tmp/synth")" "$bench/mixed.lego" && ok ||
	bad "As is not what lego synth chooses: $(cat "$tmp/synth")"
"$lego" synth "$bench/mixed_smem.lego" cp wld --tile 64x256 --name Ws >"$tmp/synth" 2>&1 &&
	grep -q '^# total: 512 wavefronts (ideal 512)$' "$tmp/synth" &&
	grep -qxF "$(tail -1 "$tmp/synth")" "$bench/mixed.lego" && ok ||
	bad "Ws is not what lego synth chooses: $(cat "$tmp/synth")"
cmp -s "$tmp/mixed.cu" "$bench/mixed.cu" && ok ||
	bad "bench/synth/mixed/mixed.cu is not what lego gen writes (run build.sh)"
for size in "1 128 8" "3 256 16" "17 384 24" "5 512 40"; do
	set -- $size
	"$lego" check "$bench/mixed.lego" -D M=$1 -D K=$2 -D N=$3 >"$tmp/check" 2>&1 &&
		[ "$(grep -c ': bijective on' "$tmp/check")" -eq 7 ] && ok ||
		bad "lego check at $size: $(cat "$tmp/check")"
	"$lego" table "$bench/mixed.lego" Wq -D M=$1 -D K=$2 -D N=$3 >"$tmp/lego.tab"
	"$tmp/unpack" table $2 $3 >"$tmp/plain.tab"
	cmp -s "$tmp/lego.tab" "$tmp/plain.tab" && ok || bad "Wq at $size is not the plain packing"
	"$tmp/unpack" check $1 $2 $3 >"$tmp/out" && ok || { bad "kernel reads at $size"; cat "$tmp/out"; }
done
if command -v nvcc >/dev/null 2>&1; then
	nvcc -arch=sm_90 -c -o "$tmp/mixed.o" "$tmp/mixed.cu" 2>"$tmp/err" && ok ||
		{ bad "nvcc of the generated kernel"; cat "$tmp/err"; }
fi
echo "mixed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
