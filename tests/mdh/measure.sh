#!/bin/sh
# measure.sh LEGO NAME DIR KERNEL SIZE.. -- DEFINES.. [--time]
# Lowers examples/mdh/NAME.mdh with DEFINES into DIR (its kernel, or the
# file KERNEL when given: a candidate of lego tune), writes the host code
# with the same DEFINES, builds tests/mdh/check.c against it and runs it
# at SIZE..: exit 0 when the result equals plain C; --time prints the
# best of 5 runs in ms (the measuring command of lego tune).
LEGO=$1
name=$2
D=$3
kernel=$4
shift 4
sizes=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	sizes="$sizes $1"
	shift
done
[ $# -gt 0 ] && shift
time=""
defs=""
for a in "$@"; do
	if [ "$a" = "--time" ]; then time=--time; else defs="$defs $a"; fi
done
HERE=$(dirname "$0")
mkdir -p "$D"
src=$HERE/../../examples/mdh/$name.mdh
# shellcheck disable=SC2086
if [ -n "$kernel" ]; then
	cp "$kernel" "$D/kernel.cl" || exit 1
else
	"$LEGO" mdh "$src" $defs -o "$D/kernel.cl" || exit 1
fi
# shellcheck disable=SC2086
"$LEGO" mdh "$src" --host $defs -o "$D/host.h" || exit 1
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -Wno-unused-function \
	-D_POSIX_C_SOURCE=200809L -I"$HERE/../../examples/opencl" -I"$D" \
	-DHOST='"host.h"' -DBENCH_"$name" "$HERE/check.c" -lOpenCL -lm \
	-o "$D/check" || exit 1
# shellcheck disable=SC2086
"$D/check" "$D" $sizes $time
