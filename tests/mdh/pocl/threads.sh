#!/bin/sh
# threads.sh LEGO NAME DIR SIZE SIZE [-D NAME=VALUE..] [--kernel FILE]
# [--host FILE] -
# lowers examples/mdh/NAME.mdh (matvec or conv1d) with the definitions,
# kernel and host code, and runs them as C at SIZE SIZE (threads.c: the
# host code's launches, a thread per work-item, turns in both orders,
# barriers checked) under AddressSanitizer and UBSan: exit 0 when the
# barriers hold, no access is out of bounds and both results are right.
# --kernel runs FILE in place of the lowered kernel, --host FILE in
# place of the host code (a planted bug).
LEGO=$1
NAME=$2
D=$3
S0=$4
S1=$5
shift 5
defs=""
kernel=""
host=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	*) defs="$defs $1"; shift ;;
	esac
done
HERE=$(dirname "$0")
EX=$HERE/../../../examples/mdh/$NAME.mdh
mkdir -p "$D" || exit 1
# shellcheck disable=SC2086
"$LEGO" mdh "$EX" $defs -o "$D/k.cl" &&
"$LEGO" mdh "$EX" --host $defs -o "$D/h.h" || exit 1
[ -z "$kernel" ] || cp "$kernel" "$D/k.cl" || exit 1
[ -z "$host" ] || cp "$host" "$D/h.h" || exit 1
${CC:-cc} -std=c11 -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Werror \
	-Wno-unused-variable -Wno-unused-function -Wno-unused-parameter -Wno-unknown-pragmas \
	-DKERNEL="\"$D/k.cl\"" -DHOST="\"$D/h.h\"" -DPROG_"$NAME" \
	"$HERE/threads.c" -lm -o "$D/threads" || exit 1
"$D/threads" "$S0" "$S1"
