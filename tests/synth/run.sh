#!/bin/sh
# run.sh BUILD - `lego synth` end to end: for tiles of powers of two and
# not (96x40 f16, 48x80 f32, 65x65 s32), the layout it writes is taken by
# `lego check` (bijective; --prove: proved) and by `lego gen`, whose C,
# compiled and run, gives the offsets `lego table` gives; the report's
# totals are the ideal where a conflict-free layout exists; errors are
# located.  Last line: "synth: N passed, N failed".
build=${1:-build}
lego=$(cd "$build" && pwd)/lego
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {
	if grep -qF -- "$3" "$2"; then ok; else bad "$1: no '$3' in:"; cat "$2"; fi
}

spec=$here/tiles.lego
# case NAME ROWS COLS TOTAL TV...: synthesise, check, generate, compare.
case_() {
	name=$1 rows=$2 cols=$3 total=$4
	shift 4
	if "$lego" synth "$spec" "$@" --tile "${rows}x$cols" -o "$tmp/$name.lego" \
		2>"$tmp/err"; then ok; else bad "$name: synth failed"; cat "$tmp/err"; return; fi
	expect "$name-bijective" "$tmp/$name.lego" "bijective: yes"
	expect "$name-total" "$tmp/$name.lego" "$total"
	"$lego" check "$tmp/$name.lego" >"$tmp/check" 2>&1 && ok ||
		bad "$name: lego check: $(cat "$tmp/check")"
	expect "$name-check" "$tmp/check" "S: bijective on $((rows * cols)) elements"
	"$lego" check --prove "$tmp/$name.lego" >"$tmp/prove" 2>&1 && ok ||
		bad "$name: lego check --prove: $(cat "$tmp/prove")"
	expect "$name-prove" "$tmp/prove" "S: proved 4 of 4"
	sed "s/ROWS/$rows/; s/COLS/$cols/" "$here/offsets.c.tpl" >"$tmp/o.c.tpl"
	if "$lego" gen "$tmp/$name.lego" "$tmp/o.c.tpl" --target c -o "$tmp/o.c" \
		2>"$tmp/err" && cc -std=c11 -o "$tmp/o" "$tmp/o.c" 2>>"$tmp/err"; then
		"$tmp/o" >"$tmp/gen.out"
		"$lego" table "$tmp/$name.lego" S >"$tmp/table.out"
		cmp -s "$tmp/gen.out" "$tmp/table.out" && ok ||
			bad "$name: generated offsets differ from lego table"
	else
		bad "$name: lego gen or cc failed"; cat "$tmp/err"
	fi
}

case_ f16-64x64 64 64 "total: 128 wavefronts (ideal 128)" cp16 ldm4
case_ f16-32x32-trans 32 32 "total: 32 wavefronts (ideal 32)" cp16 ldt2
case_ f16-96x40 96 40 "total: 120 wavefronts (ideal 120)" cp16 ldm1
case_ f32-48x80 48 80 "S = " cpf colf
case_ s32-65x65 65 65 "total: 328 wavefronts (ideal 328)" cpi coli
case_ f32-64x128-acc 64 128 "total: 512 wavefronts (ideal 512)" acc cpf

# Errors: a located one in the language, the others named.
printf 'tv a = mma(m16n8k8, a, f16)\n' >"$tmp/bad.lego"
"$lego" synth "$tmp/bad.lego" a --tile 16x16 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "bad shape: exit status"
expect bad-shape "$tmp/err" "bad.lego:1:8: error: mma(SHAPE, FRAGMENT, TYPE)"
printf 'tv a = tile([8, 8], f17, Row(32, 2))\n' >"$tmp/bad.lego"
"$lego" synth "$tmp/bad.lego" a --tile 16x16 >/dev/null 2>"$tmp/err"
expect bad-type "$tmp/err" "bad.lego:1:21: error: expected an element type"
"$lego" synth "$spec" nope --tile 16x16 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "unknown tv: exit status"
expect unknown-tv "$tmp/err" "no tv layout named 'nope'"
"$lego" synth "$spec" cp16 cpf --tile 64x64 >/dev/null 2>"$tmp/err"
expect mixed "$tmp/err" "tv cpf moves 4-byte elements, the tile holds 2-byte ones"
"$lego" synth "$spec" cp16 ldm4 --tile 64x40 >/dev/null 2>"$tmp/err"
expect ldm-tile "$tmp/err" "tv ldm4: its 16 x 16 ldmatrix footprint does not divide the 64 x 40 tile"
"$lego" synth "$spec" cp16 --tile 64x36 >/dev/null 2>"$tmp/err"
expect vec-tile "$tmp/err" "tv cp16: its vectors of 8 elements do not divide the tile's rows of 36"
"$lego" synth "$spec" cp16 --tile 64 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && ok || bad "bad --tile: exit status"
"$lego" synth --help >"$tmp/help" && ok || bad "--help"
expect help "$tmp/help" "Usage: lego synth FILE TV..."

# lego infer: the GEMM tile program's layouts (tests/unit/test_synth_infer.c
# checks every register against the ISA), a located conflict, and the CUDA
# it writes, compiled for sm_90 where nvcc is.
"$lego" infer "$here/gemm.tile" >"$tmp/infer" 2>&1 && ok || bad "infer: $(cat "$tmp/infer")"
expect infer-a "$tmp/infer" "reg a : f16 [128, 32]: a warp holds [64, 32], 32 lanes x 64 values: mma m16n8k16 A fragment, 4 x 2 times (fixed at 14:9)"
expect infer-lda "$tmp/infer" "load: ldmatrix x4, 8 a warp"
expect infer-h "$tmp/infer" "reg h : f16 [128, 128]: a warp holds [64, 64], 32 lanes x 128 values: mma m16n8k16 C fragment, 4 x 8 times (fixed at 15:15)"
expect infer-sA "$tmp/infer" "load (ldmatrix): 64 wavefronts (ideal 64)"
# a 16-byte cp.async of 64-byte rows reads two global lines a phase (ncu:
# 8 wavefronts an LDGSTS for 4); 128-byte rows one
expect infer-copy "$tmp/infer" "copy (cp.async): 128 wavefronts (ideal 64)"
"$lego" infer "$here/gemm64.tile" >"$tmp/infer64" 2>&1 && ok || bad "infer: $(cat "$tmp/infer64")"
expect infer-copy64 "$tmp/infer64" "copy (cp.async): 128 wavefronts (ideal 128)"
sed 's/mma(m16n8k16, a, b)/mma(m16n8k16, b, b)/' "$here/gemm.tile" >"$tmp/conflict.tile"
"$lego" infer "$tmp/conflict.tile" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && ok || bad "infer conflict: exit status"
expect infer-conflict "$tmp/err" "conflict.tile:14:9: error: conflicting layouts for 'b': the mma's B operand needs its fragment layout here, but the mma's A operand fixed another at 14:9"
if "$lego" infer --cuda "$here/gemm.tile" -o "$tmp/gemm.cu" 2>"$tmp/err"; then ok; else bad "infer --cuda"; cat "$tmp/err"; fi
grep -q '{{' "$tmp/gemm.cu" && bad "infer --cuda: a placeholder left" || ok
# The generated copies run on the host (copies.c): the pointers that
# copy_sA_from sets and copy_sA moves on a step a call reach, in every
# step, the element of A the tile holds there; the shared offsets they
# write are distinct vectors.  Thread-bound indices are 32-bit int.
# copies TILE COLS: the copies of tile sA of $tmp/TILE.cu (rows of COLS).
copies() {
	{
		awk '/void copy_sA_from\(/,/^}/' "$tmp/$1.cu"
		awk '/void copy_sA\(/,/^}/' "$tmp/$1.cu"
	} | sed 's/copy_sA/copy_S/; s/asm volatile("cp\.async[^"]*" :: "r"(lego_sa(\(.*\))), "l"(\(p\[[0-9]*\]\)));/rec(\1, \2);/' \
		>"$tmp/copies.inc"
	grep -q 'rec(' "$tmp/copies.inc" && ! grep -q 'asm' "$tmp/copies.inc" && ok ||
		bad "$1: the copies' cp.async not found"
	if cc -std=c11 -Wall -Werror -DROWS=128 -DCOLS=$2 -DVEC=8 -DTHREADS=128 \
		-I"$tmp" -o "$tmp/copies" "$here/copies.c" 2>"$tmp/err"; then
		"$tmp/copies" >"$tmp/copies.out" 2>&1 && ok ||
			bad "$1: copies: $(cat "$tmp/copies.out")"
	else
		bad "$1: copies.c does not compile"; cat "$tmp/err"
	fi
	awk '/void (copy_sA|load_a)\(/,/^}/' "$tmp/$1.cu" | grep -q 'long long' &&
		bad "$1: 64-bit arithmetic in a shared address" || ok
}
copies gemm 32
"$lego" infer --cuda "$here/gemm64.tile" -o "$tmp/gemm64.cu" 2>"$tmp/err" && ok ||
	{ bad "infer --cuda gemm64"; cat "$tmp/err"; }
copies gemm64 64
if command -v nvcc >/dev/null 2>&1; then
	nvcc -arch=sm_90 -c -o "$tmp/gemm.o" "$tmp/gemm.cu" 2>"$tmp/err" && ok ||
		{ bad "nvcc of the generated GEMM"; cat "$tmp/err"; }
fi
"$lego" infer --help >"$tmp/help" && ok || bad "infer --help"
expect infer-help "$tmp/help" "Usage: lego infer FILE"

echo "synth: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
