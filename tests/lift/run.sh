#!/bin/sh
# Tests of the Lift front end (docs/lift.md):
#   - located errors: each tests/lift/err_*.lift fails with exactly the
#     message of its first line (`// error: TEXT`);
#   - views: random chains of split, join, transpose, slide and pad
#     compiled and run as C against an interpreter (tests/lift/views.c);
#   - types: `lego lift --type` of the examples against the paper's types;
#   - the examples/lift benchmarks compiled to OpenCL, run on the CPU
#     driver (PoCL) at small odd sizes against plain C (tests/lift/check.c);
#   - the examples compiled to CUDA by nvcc (skipped without it).
# Usage: sh tests/lift/run.sh BUILD_DIR.  Last line: "lift: N passed, N failed".
BUILD=${1:-build}
LEGO=$BUILD/lego
HERE=$(dirname "$0")
EX=examples/lift
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CC=${CC:-cc}
# (ocl.h and check.c hold helpers that one benchmark or another uses)
CFLAGS="-std=c11 -O1 -Wall -Wextra -Werror -Wno-unused-function"
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

for f in "$HERE"/err_*.lift; do
	want=$(sed -n '1s|^// error: ||p' "$f")
	if "$LEGO" lift "$f" > "$TMP/out" 2> "$TMP/err"; then
		ko "$f: accepted"
	elif [ "$(cat "$TMP/err")" = "$f:$want" ]; then
		ok "$f"
	else
		ko "$f: got '$(cat "$TMP/err")', want '$f:$want'"
	fi
done

# A double-buffered copy refuses the round's accumulator (err_pipe_acc*)
# but not a user's name holding acc_ (pipe_names.lift): compiled, as C
# with -Wshadow (the next round's copy renames the round index, no block
# redeclares it), run as one work-item: every group's M rounds give M.
if "$LEGO" lift "$HERE/pipe_names.lift" -o "$TMP/pn.cl" &&
   printf '#include "c_shim.h"\n#include "pn.cl"\nint main(void)\n{\n\tfloat x[2 * 3 * 4] = {0}, out[2] = {0};\n\tk(x, out, 2, 3);\n\tCHECK(out[0] == 3 && out[1] == 3, "%%g %%g", out[0], out[1]);\n\treturn failures != 0;\n}\n' > "$TMP/pn.c" &&
   $CC $CFLAGS -Wshadow -Wno-unused-but-set-variable -I"$HERE" -I"$TMP" "$TMP/pn.c" -o "$TMP/pn" &&
   "$TMP/pn"; then
	ok "pipe_names: user names with acc_ in a double-buffered copy"
else
	ko "pipe_names: user names with acc_ in a double-buffered copy"
fi

# A generated line longer than any fixed buffer (eight inputs named with
# 600 characters each, one call of over 5000): emitted whole, compiled
# and run as C (the emitter once cut its lines at 4096 characters).
long=$(printf '%0600d' 0 | tr 0 a)
names=""; params=""; sum=""; decls=""; args=""
for i in 0 1 2 3 4 5 6 7; do
	names="$names${names:+, }v${i}_$long"
	params="$params${params:+, }float p$i"
	sum="$sum${sum:+ + }p$i"
	decls="$decls\tfloat x$i[3] = {$i, 2 * $i, 3 * $i};\n"
	args="${args}x$i, "
done
printf 'size N;\nfloat add8(%s) { return %s; }\nkernel k(%s) = mapGlb(add8) $ zip(%s);\n' \
	"$params" "$sum" "$(echo "$names" | sed 's/, / : [float]N, /g') : [float]N" "$names" > "$TMP/long.lift"
if "$LEGO" lift "$TMP/long.lift" -o "$TMP/long.cl" &&
   printf '#include "c_shim.h"\n#include "long.cl"\nint main(void)\n{\n%b\tfloat out[3] = {0};\n\tk(%sout, 3);\n\tCHECK(out[0] == 28 && out[1] == 56 && out[2] == 84, "%%g %%g %%g", out[0], out[1], out[2]);\n\treturn failures != 0;\n}\n' "$decls" "$args" > "$TMP/long.c" &&
   $CC $CFLAGS -I"$HERE" -I"$TMP" "$TMP/long.c" -o "$TMP/long" && "$TMP/long"; then
	ok "a generated line of over 4096 characters"
else
	ko "a generated line of over 4096 characters"
fi

# Every name of the generated code is refused as a user's name (lift.h's
# LIFT_NAME_PREFIXES): each word NAME_N (NAME_Nn) in the kernels of the
# examples, as a size (a parameter p_4 used to compile into C that did not).
gen=$(for f in "$EX"/*.lift "$HERE"/[!e]*.lift; do
	for t in opencl cuda; do "$LEGO" lift "$f" --target "$t"; done
done 2>/dev/null | grep -ow '[a-z]*_[0-9][0-9]*n\{0,1\}' | sort -u)
taken=""
for name in $gen; do
	printf 'size N, %s;\nkernel k(x : [float]N) = mapGlb(id) $ x;\n' "$name" \
		> "$TMP/gen.lift"
	if "$LEGO" lift "$TMP/gen.lift" 2> "$TMP/err" > /dev/null ||
	   ! grep -q "name reserved for the generated code: $name\$" "$TMP/err"
	then
		taken="$taken $name"
	fi
done
if [ -n "$gen" ] && [ -z "$taken" ]; then
	ok "generated names reserved: $(echo "$gen" | sed 's/[0-9]*n*$//' | sort -u | tr '\n' ' ')"
else
	ko "generated names not reserved:${taken:- none found}"
fi

type_is() {
	got=$("$LEGO" lift --type "$EX/$1.lift" 2>&1)
	if [ "$got" = "$2" ]; then
		ok "type of $1: $2"
	else
		ko "type of $1: got '$got', want '$2'"
	fi
}
# Sizes as the programs state them: simplified under their assumptions
# (a split by 4 then a join of N is N where 4 | N is assumed).
type_is dot "[float](N / 4)"
type_is dotvec "[float](N / 4)"
type_is gemv "[float]M"
type_is stencil1d "[float]N"
type_is stencil2d "[[[float]1]N]M"
type_is matmul "[[[float]1]N]M"
type_is mmreg "[[float]N]M"
type_is mmtiled "[[float]N]M"
type_is mmlocal "[[float]N]M"
type_is mmvec "[[float]N]M"
type_is mmvecv "[[float]N]M"
type_is pairsum "[float](N / 4)"
type_is vscale "[float]N"
type_is conv2d "[[[float]1]N]M"
type_is conv2dlocal "[[float]N]M"
type_is jacobi3d "[[[float]N]M]L"
type_is nn "[float]N"
type_is nnvec "[float]N"
type_is gemvwg "[float]M"
type_is gemvvec "[float]M"
type_is kmeans "[[float]1]N"
type_is nbody "[[float]3]N"
type_is md "[[float]3]N"

# Barriers (docs/lift.md): the tiles of A and B are read by every
# work-item, a barrier before and after each copy, the two between them
# merged (3); the accumulator is updated by the work-item that owns each
# element (none).  The stencil's tile is read by neighbours (2).
barriers_are() {
	got=$("$LEGO" lift "$EX/$1.lift" | grep -c 'barrier(CLK_LOCAL_MEM_FENCE);')
	if [ "$got" = "$2" ]; then
		ok "barriers of $1: $2"
	else
		ko "barriers of $1: got $got, want $2"
	fi
}
barriers_are mmtiled 3
barriers_are mmlocal 3
# double-buffered (reduceSeqPipe): one barrier after the first slice's
# copies, one a slice
barriers_are mmvec 2
barriers_are stencil2dlocal 2
barriers_are conv2dlocal 2
barriers_are matmul 0
# before the copy, after it, after each of the 4 rounds of 12 -> 6 -> 3 -> 2 -> 1
barriers_are sumtree 6
# the same for gemvwg's 8 rounds of 256 -> 128 -> .. -> 1
barriers_are gemvwg 10

# Random view chains (tests/lift/views.c) against its interpreter.
if $CC $CFLAGS "$HERE/views.c" -o "$TMP/views"; then
	for seed in $(seq 1 30); do
		"$TMP/views" gen $seed > "$TMP/v.lift" &&
		"$LEGO" lift "$TMP/v.lift" -o "$TMP/v.cl" &&
		$CC $CFLAGS -O0 -DKERNEL='"v.cl"' -I"$TMP" "$HERE/views.c" \
			-o "$TMP/vrun" && "$TMP/vrun" run $seed
		if [ $? -eq 0 ]; then
			ok "view chain $seed: $(tail -n 1 "$TMP/v.lift")"
		else
			ko "view chain $seed: $(cat "$TMP/v.lift")"
		fi
	done
else
	ko "tests/lift/views.c does not compile"
fi

# bench NAME SIZES...: generated, compiled against its host code, run.
bench() {
	name=$1
	shift
	D=$TMP/$name
	mkdir -p "$D"
	if "$LEGO" lift "$EX/$name.lift" -o "$D/kernel.cl" &&
	   "$LEGO" lift --host "$EX/$name.lift" -o "$D/host.h" &&
	   $CC $CFLAGS -Iexamples/opencl -I"$D" -DHOST='"host.h"' \
		-DBENCH_$name "$HERE/check.c" -lOpenCL -lm -o "$D/check" &&
	   "$D/check" "$D" "$@"; then
		ok "$name on OpenCL $*"
	else
		ko "$name on OpenCL $*"
	fi
}
# The benchmarks and their sizes: tests/lift/benches.txt (small and odd;
# those staged through local memory at multiples of their 4 x 4 tiles).
if [ -f /usr/include/CL/cl.h ]; then
	while read -r name sizes; do
		bench "$name" $sizes
	done < "$HERE/benches.txt"
	# mmlocal with work-groups of 3 x 2 (declared): its mapLcl's over 4
	# stride, each work-item keeping two of their iterations' blocks in
	# private memory
	mkdir -p "$TMP/wg32"
	sed 's/^local 4, 4;$/local 3, 2;/' "$EX/mmlocal.lift" > "$TMP/wg32/mmlocal.lift"
	EX=$TMP/wg32 bench mmlocal 16 24 9 3 2
	# launched with another work-group than the declared 3 x 2: refused
	# (CL_INVALID_WORK_GROUP_SIZE), never run with the wrong strides
	if "$TMP/mmlocal/check" "$TMP/mmlocal" 16 24 9 4 4 > "$TMP/wg.out" 2>&1; then
		ko "mmlocal declared 3 x 2 launched with 4 x 4: accepted"
	elif grep -q 'OpenCL error -54' "$TMP/wg.out"; then
		ok "mmlocal declared 3 x 2 launched with 4 x 4: refused"
	else
		ko "mmlocal declared 3 x 2 launched with 4 x 4: $(head -n 1 "$TMP/wg.out")"
	fi
	# mmvec's double buffering mutated: the next slice's copies rebound
	# to this slice (loaded again, stored into this slot): caught
	M=$TMP/mmvec_mut
	mkdir -p "$M"
	sed 's/^\(.*const int i_[0-9]*n\) = \(i_[0-9]*\) + 1;$/\1 = \2;/' \
		"$TMP/mmvec/kernel.cl" > "$M/kernel.cl"
	if cmp -s "$TMP/mmvec/kernel.cl" "$M/kernel.cl"; then
		ko "mmvec mutated: no next-slice copy found"
	elif "$TMP/mmvec/check" "$M" 48 72 15 3 3 > /dev/null 2>&1; then
		ko "mmvec with its next slice's copies rebound to this one: passed"
	else
		ok "mmvec with its next slice's copies rebound to this one: fails"
	fi
else
	ko "no OpenCL headers (run scripts/opencl.sh)"
fi

# Rewrite rules (src/lift/rewrite.c), by differential testing: the
# rewritten program, compiled as C and run as one work-item
# (tests/lift/c_shim.h), against plain C on random inputs.  Every program
# one rewrite away from tests/lift/rules.lift (each rule has a site there;
# its body, printed, must also read back to the same kernel), and the
# first rewrite of each rule on each benchmark.
rewritten() {  # FILE NAME STEPS SIZES...: exit 0 when it computes the same
	f=$1 n=$2 st=$3
	shift 3
	R=$TMP/rw
	mkdir -p "$R"
	"$LEGO" lift --rewrite "$st" "$f" -o "$R/k0.cl" &&
	sed 's/(\(float\|int\)\([0-9][0-9]*\))(/make_\1\2(/g' "$R/k0.cl" > "$R/k.cl" &&
	"$LEGO" lift --rewrite "$st" --host "$f" -o "$R/h.h" &&
	$CC $CFLAGS -I"$HERE" -I"$R" -DHOST='"h.h"' -DC_KERNEL='"k.cl"' \
		-DBENCH_$n "$HERE/check.c" -lm -o "$R/check" &&
	"$R/check" "$R" "$@" > "$R/out"
}
"$LEGO" lift --explore 1 "$HERE/rules.lift" > "$TMP/explored" ||
	ko "lego lift --explore 1 rules.lift"
sed '/^kernel/,$d' "$HERE/rules.lift" > "$TMP/head.lift"
while read -r flag st && read -r body; do
	if ! rewritten "$HERE/rules.lift" rules "$st" 48; then
		ko "rewrite $st of rules.lift: $(head -n 3 "$TMP/rw/out" 2>&1)"
		continue
	fi
	{ cat "$TMP/head.lift"; printf 'kernel rules(x : [float]N) = %s;\n' "$body"; } \
		> "$TMP/printed.lift"
	if "$LEGO" lift "$TMP/printed.lift" | tail -n +2 > "$TMP/p.cl" &&
	   tail -n +2 "$TMP/rw/k0.cl" | cmp -s - "$TMP/p.cl"; then
		ok "rewrite $st of rules.lift (and its text)"
	else
		ko "rewrite $st of rules.lift: its text reads back differently"
	fi
done < "$TMP/explored"
# 14 before vectorize, which has 4 more: map(sq) and map(half) at widths 2
# and 4 (the lambda's map does not map a scalar function), and unroll 1
# (the reduceSeq over the chunks of 8)
[ "$(grep -c '^--rewrite' "$TMP/explored")" = 19 ] ||
	ko "rules.lift: $(grep -c '^--rewrite' "$TMP/explored") programs one rewrite away, want 19"
# Tiling (2-D, n x n tiles) on tests/lift/tiling.lift at 12 x 20 (3 x 5
# tiles of 4, 6 x 10 of 2): both tile sides, and the 4 x 4 tiling with
# each of its maps made mapGlb.
"$LEGO" lift --explore 2 "$HERE/tiling.lift" > "$TMP/tiled" ||
	ko "lego lift --explore 2 tiling.lift"
for st in tiling:0:2 tiling:0:4 $(sed -n 's/^--rewrite \(tiling:0:4,to-glb:[0-9]*\)$/\1/p' "$TMP/tiled"); do
	if rewritten "$HERE/tiling.lift" tiling "$st" 12 20; then
		ok "rewrite $st of tiling.lift"
	else
		ko "rewrite $st of tiling.lift: $(head -n 3 "$TMP/rw/out" 2>&1)"
	fi
done
[ "$(grep -c '^--rewrite tiling:0:4,to-glb:' "$TMP/tiled")" = 6 ] ||
	ko "tiling.lift: $(grep -c '^--rewrite tiling:0:4,to-glb:' "$TMP/tiled") programs mapGlb after 4 x 4 tiling, want 6"
# vectorize over a zip (both arrays seen as vectors), at widths 2 and 4,
# and made mapGlb after it, on saxpy.lift (N = 20)
"$LEGO" lift --explore 2 "$HERE/saxpy.lift" > "$TMP/vec" ||
	ko "lego lift --explore 2 saxpy.lift"
for st in $(sed -n 's/^--rewrite \(vectorize:0:[24]\(,to-glb:0\)\?\)$/\1/p' "$TMP/vec"); do
	if rewritten "$HERE/saxpy.lift" saxpy "$st" 20; then
		ok "rewrite $st of saxpy.lift"
	else
		ko "rewrite $st of saxpy.lift: $(head -n 3 "$TMP/rw/out" 2>&1)"
	fi
done
[ "$(grep -c '^--rewrite vectorize:0:[24]\(,to-glb:0\)\?$' "$TMP/vec")" = 4 ] ||
	ko "saxpy.lift: $(grep -c '^--rewrite vectorize:0:[24]\(,to-glb:0\)\?$' "$TMP/vec") vectorized programs, want 4"
# a vector load whose index holds a '%' (vscale.lift's vectors, reversed,
# split by a tune parameter) is printed as it is, not taken for a format
if "$LEGO" lift --template --rewrite split-join:0 "$EX/vscale.lift" > "$TMP/vt" &&
   grep -q 'float4 v_[0-9]* = \*(__global const float4 \*)(x + .*%' "$TMP/vt"; then
	ok "a vector load at an index with a %"
else
	ko "a vector load at an index with a %"
fi
# unroll over an array accumulator (tests/lift/colsum.lift, N = 24): the
# reduction's rounds each a block storing into the private buffer
if rewritten "$HERE/colsum.lift" colsum unroll:0 24 &&
   [ "$(grep -c '^		{$' "$TMP/rw/k.cl")" = 4 ]; then
	ok "rewrite unroll:0 of colsum.lift (4 rounds)"
else
	ko "rewrite unroll:0 of colsum.lift: $(head -n 3 "$TMP/rw/out" 2>&1)"
fi
if "$LEGO" lift --rewrite fusion:0 "$EX/gemv.lift" > /dev/null 2> "$TMP/err"; then
	ko "a rewrite at a site that is not there: accepted"
elif [ "$(cat "$TMP/err")" = "$EX/gemv.lift: error: rule fusion has no site 0" ]; then
	ok "a rewrite at a site that is not there"
else
	ko "a rewrite at a site that is not there: $(cat "$TMP/err")"
fi
while read -r name sizes; do
	# run as one work-item (tests/lift/c_shim.h), which a declared
	# work-group size forbids
	grep -q '^local ' "$EX/$name.lift" && continue
	"$LEGO" lift --explore 1 "$EX/$name.lift" > "$TMP/ex" || continue
	for rule in fusion split-join reduce-split to-seq to-glb to-wrg to-lcl vectorize unroll; do
		st=$(sed -n "s/^--rewrite \($rule:[0-9:]*\)\$/\1/p" "$TMP/ex" |
			head -n 1)
		[ -n "$st" ] || continue
		if rewritten "$EX/$name.lift" "$name" "$st" $sizes; then
			ok "rewrite $st of $name"
		else
			ko "rewrite $st of $name"
		fi
	done
done < "$HERE/benches.txt"

# The tune hand-off (src/lift/template.c): an explored program of
# saxpy.lift (split-join, then the chunks' map made mapGlb) as a template
# whose split size and work-group size are tune parameters, tuned on PoCL
# by the built-in runner against the program as written (--macros), the
# work-group fixed at 4 so that the space is the split sizes dividing 96
# (1, 2, 4, 8, 16, 32: six candidates); the best, from `lego gen --tuned`,
# run as C against plain C (tests/lift/tuned.c).
T=$TMP/tune
mkdir -p "$T"
st=$("$LEGO" lift --explore 2 --template "$HERE/saxpy.lift" |
	sed -n 's/^--rewrite \(split-join:0,to-glb:0\)$/\1/p')
if [ -n "$st" ] &&
   "$LEGO" lift --template --rewrite "$st" "$HERE/saxpy.lift" -o "$T/s.tpl" &&
   "$LEGO" lift --macros "$HERE/saxpy.lift" -o "$T/ref.cl" &&
   [ -f /usr/include/CL/cl.h ] &&
   "$LEGO" tune "$T/s.tpl" --target opencl --runner opencl --kernel saxpy \
	--args "$(sed -n 's/^# args: //p' "$T/s.tpl")" \
	--global "$(sed -n 's/^# global: //p' "$T/s.tpl")" \
	--local "$(sed -n 's/^# local: //p' "$T/s.tpl")" \
	--reference "$T/ref.cl" --ref-global 1 --strategy exhaustive \
	--db "$T/t.db" -D N=96 -D LOCAL0=4 -q > "$T/out" 2> "$T/err" &&
   grep -q 'exhaustive, 6 evaluations (6 measured, 0 failed)' "$T/err" &&
   "$LEGO" gen "$T/s.tpl" --tuned "$T/t.db" -D N=96 -D LOCAL0=4 \
	-o "$T/best.cl" 2> /dev/null &&
   $CC $CFLAGS -I"$HERE" -DTUNED='"'"$T/best.cl"'"' "$HERE/tuned.c" \
	-o "$T/tuned" && "$T/tuned"; then
	ok "tune hand-off: saxpy.lift --rewrite $st tuned on PoCL ($(cat "$T/out")), the best equal to C"
else
	ko "tune hand-off: saxpy.lift: $(cat "$T/err" "$T/out" 2> /dev/null | tail -n 3)"
fi
printf 'size N;\nfloat mul(float a, float b) { return a * b; }\nkernel k(a : float, x : [float]N) = mapGlb(\\v -> mul(a, v)) $ x;\n' \
	> "$TMP/scalar.lift"
if "$LEGO" lift --template "$TMP/scalar.lift" > /dev/null 2> "$TMP/err"; then
	ko "a template of a program with a scalar parameter: accepted"
elif grep -q 'is a scalar: the tuner' "$TMP/err"; then
	ok "a template of a program with a scalar parameter: refused"
else
	ko "a template of a program with a scalar parameter: $(cat "$TMP/err")"
fi

# A declared work-group size is the template's one work-group size.
if "$LEGO" lift --template "$EX/mmlocal.lift" | grep -q '^tune LOCAL1 in {4}$'; then
	ok "a template with a declared work-group size tunes only that"
else
	ko "a template with a declared work-group size tunes others"
fi

# CUDA: every example's kernel and host code compiled by nvcc, in one file
# (a namespace each); they are run on a GPU by bench/lift/cuda-check.sh.
if command -v nvcc > /dev/null 2>&1; then
	D=$TMP/cuda
	mkdir -p "$D"
	: > "$D/all.cu"
	okc=1
	for f in "$EX"/*.lift; do
		n=$(basename "$f" .lift)
		"$LEGO" lift --target cuda "$f" -o "$D/$n.cu" &&
		"$LEGO" lift --target cuda --host "$f" -o "$D/$n.h" || okc=0
		printf 'namespace ex_%s {\n#include "%s.cu"\n#include "%s.h"\n}\n' \
			"$n" "$n" "$n" >> "$D/all.cu"
	done
	if [ $okc = 1 ] && (cd "$D" && nvcc -c all.cu -o all.o); then
		ok "CUDA: the examples compile with nvcc"
	else
		ko "CUDA: the examples do not compile with nvcc"
	fi
else
	echo "SKIP CUDA: nvcc not found, the CUDA kernels are not compiled"
fi

echo "lift: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
