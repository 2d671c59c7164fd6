#!/bin/sh
# threads.sh LEGO DIR I K [-D NAME=VALUE..] [--kernel FILE] - lowers
# examples/mdh/matvec.mdh for I x K with the definitions and runs it as C
# (threads.c: a thread per work-item, turns in both orders, barriers
# checked) under AddressSanitizer: exit 0 when the barriers hold, no
# access is out of bounds and both results are right.  --kernel runs FILE
# in place of the lowered kernel (a planted bug).
LEGO=$1
D=$2
I=$3
K=$4
shift 4
defs=""
kernel=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	*) defs="$defs $1"; shift ;;
	esac
done
HERE=$(dirname "$0")
EX=$HERE/../../../examples/mdh/matvec.mdh
mkdir -p "$D" || exit 1
# shellcheck disable=SC2086
"$LEGO" mdh "$EX" -D I="$I" -D K="$K" $defs -o "$D/k.cl" &&
"$LEGO" mdh "$EX" --host -D I="$I" -D K="$K" $defs -o "$D/h.h" || exit 1
[ -z "$kernel" ] || cp "$kernel" "$D/k.cl" || exit 1
local=$(sed -n 's/.*const size_t mdh_local = \([0-9]*\);.*/\1/p' "$D/h.h")
global=$(sed -n 's/.*const size_t mdh_global = \([0-9]*\);.*/\1/p' "$D/h.h")
parts=$(sed -n 's/.*|| \([0-9]*\) == 1).*/\1/p' "$D/h.h")
${CC:-cc} -std=c11 -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Werror \
	-Wno-unused-variable -Wno-unused-function -Wno-unused-parameter \
	-DKERNEL="\"$D/k.cl\"" -DLOCAL="$local" -DGROUPS=$((global / local)) \
	-DPARTS="${parts:-1}" "$HERE/threads.c" -lm -o "$D/threads" || exit 1
"$D/threads" "$I" "$K"
