#!/bin/sh
# sweep.sh LEGO DIR I K [STEP [PLACEMENT]] - every configuration of the
# matvec space for I x K (lego tune --list; with STEP, every STEP-th;
# PLACEMENT, definitions of M_M and M_v, fixes them), generated with
# lego mdh, renamed matvec_vN and run by tests/mdh/sweep.c in one OpenCL
# program.  PoCL compiles each kernel at its first launch (about 0.1 s
# on the 2-core machine): make check runs every 8th.  The inputs stay in
# global memory (M_M=1 M_v=1) unless PLACEMENT says otherwise: PoCL 3.1's
# optimiser miscompiles some staged kernels (tests/mdh/pocl/README.md).
LEGO=$1
D=$2
I=$3
K=$4
STEP=${5:-1}
HERE=$(dirname "$0")
EX=$HERE/../../examples/mdh/matvec.mdh
mkdir -p "$D"
"$LEGO" mdh "$EX" --template -o "$D/matvec.cl.tpl" || exit 1
G=${6--D M_M=1 -D M_v=1}
# shellcheck disable=SC2086
"$LEGO" tune "$D/matvec.cl.tpl" --list -D I="$I" -D K="$K" $G |
	awk -v s="$STEP" '(NR - 1) % s == 0' > "$D/configs" || exit 1
: > "$D/kernels.cl"
: > "$D/variants.h"
n=0
while read -r cfg; do
	defs=$(echo "$cfg" | sed 's/\([^ ]*\)/-D \1/g')
	# shellcheck disable=SC2086
	"$LEGO" mdh "$EX" -D I="$I" -D K="$K" $G $defs -o "$D/k.cl" &&
	"$LEGO" mdh "$EX" --host -D I="$I" -D K="$K" $G $defs -o "$D/h.h" ||
		exit 1
	sed "s/matvec/matvec_v$n/g" "$D/k.cl" >> "$D/kernels.cl"
	sed "s/matvec/matvec_v$n/g" "$D/h.h" > "$D/h$n.h"
	echo "#include \"h$n.h\"" >> "$D/variants.h"
	n=$((n + 1))
done < "$D/configs"
echo "static const variant variants[] = {" >> "$D/variants.h"
i=0
while read -r cfg; do
	echo "{\"matvec_v$i\", \"matvec_v$i""_grid\", \"$cfg\", matvec_v$i""_launch, matvec_v$i""_scratch_len}," >> "$D/variants.h"
	i=$((i + 1))
done < "$D/configs"
echo "};" >> "$D/variants.h"
${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -Wno-unused-function \
	-I"$HERE/../../examples/opencl" -I"$D" "$HERE/sweep.c" -lOpenCL -lm \
	-o "$D/sweep" && "$D/sweep" "$D" "$I" "$K"
