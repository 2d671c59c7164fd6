#!/bin/sh
# Tests of the Lift front end (docs/lift.md):
#   - located errors: each tests/lift/err_*.lift fails with exactly the
#     message of its first line (`// error: TEXT`);
#   - views: random chains of split, join, transpose, slide and pad
#     compiled and run as C against an interpreter (tests/lift/views.c);
#   - types: `lego lift --type` of the examples against the paper's types;
#   - the examples/lift benchmarks compiled to OpenCL, run on the CPU
#     driver (PoCL) at small odd sizes against plain C (tests/lift/check.c).
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

type_is() {
	got=$("$LEGO" lift --type "$EX/$1.lift" 2>&1)
	if [ "$got" = "$2" ]; then
		ok "type of $1: $2"
	else
		ko "type of $1: got '$got', want '$2'"
	fi
}
type_is dot "[float](N / 4)"
type_is gemv "[float]M"
type_is stencil1d "[float]N"
type_is stencil2d "[[[float]1]N]M"
type_is matmul "[[[float]1]N]M"
type_is mmtiled "[[float](4 * (N / 4))](4 * (M / 4))"
type_is pairsum "[float](N / 2 / 2)"

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
barriers_are stencil2dlocal 2
barriers_are matmul 0
# before the copy, after it, after each of the 4 rounds of 12 -> 6 -> 3 -> 2 -> 1
barriers_are sumtree 6

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
if [ -f /usr/include/CL/cl.h ]; then
	bench dot 36
	bench gemv 7 13
	bench stencil1d 17
	bench stencil2d 7 11
	bench matmul 5 7 9
	# staged through local memory: sizes are multiples of the 4 x 4 tile
	bench stencil2dlocal 12 20
	bench mmtiled 12 20 28
	bench sumtree 60
	bench pairsum 20
else
	ko "no OpenCL headers (run scripts/opencl.sh)"
fi

echo "lift: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
