#!/bin/sh
# gen-rounds.sh OUTDIR [LIST] - the variants of LIST (a file of `v`
# lines; rounds-run5.sh, those of runs 5 and 6, when none is given:
# bench/mdh/README.md) for rounds.sh: one .cu a variant from lego mdh
# --target cuda, and OUTDIR/gen/list.txt (tag, program, defines).
set -e
out=$1
lego=${LEGO:-build/lego}
mkdir -p "$out/gen"
cp "$(dirname "$0")/gpu.cu" "$(dirname "$0")/rounds.sh" "$out/"
: > "$out/gen/list.txt"
v() { # v PROGRAM "SIZES" TAG DEFINES..
	prog=$1 sizes=$2 tag=$3
	shift 3
	# shellcheck disable=SC2086
	"$lego" mdh "examples/mdh/$prog.mdh" --target cuda $sizes "$@" \
		-o "$out/gen/$tag.cu"
	echo "$tag $prog $*" >> "$out/gen/list.txt"
}
# shellcheck disable=SC1090
. "${2:-$(dirname "$0")/rounds-run5.sh}"
