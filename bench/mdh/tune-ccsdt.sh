#!/bin/sh
# tune-ccsdt.sh DIR OUT [SECONDS] - on the device: lego tune over the
# CCSD(T) space (sd_t_d1_1, examples/mdh/ccsdt.mdh) at 24^7 in process
# (--runner cuda: NVRTC compiles each candidate of DIR/ccsdt.nvrtc.tpl,
# written by lego mdh --target nvrtc --template; each checked against
# ccsdt_ref.cu on small-integer inputs, then timed with events, the L2
# cleared before each launch).  OUT/tune-ccsdt.txt, .csv, and
# OUT/best.txt: the best configuration as -D values, fixed ones included.
#
# The space is run 11's kernels (bench/mdh/README.md): the threads along
# p4, p5, h1 (t2's dims) and p6, h2 (v2's), each thread P_p4 x P_p6 x
# P_h2 outputs, t2 and v2 staged and read as float4 (O_p4 = 2, O_p6 = 3,
# M_t2 = 3, M_v2 = 4), h7 a step of P_h7 = 8 unrolled (R_h7 = 3), one
# buffer, no split of h7 over threads or blocks.  Free: the tiles of the
# two layers (L, P) of those dims, the stores S_p4 (1 scalar, 2 float4)
# and the occupancy B_sm; their value sets are narrowed here around run
# 11's best (g2m) so that the space has a few thousand configurations,
# not the template's millions.  RUNNER=opencl TPL=.. REF=.. SIZE=..
# runs the same search on an OpenCL device (the dry run on PoCL).
dir=$1 out=$2 n=${SIZE:-24}
runner=${RUNNER:-cuda}
tpl=${TPL:-$dir/ccsdt.nvrtc.tpl}
mkdir -p "$out"
sed -e 's/^tune L_p4 in .*/tune L_p4 in {1, 2}/' \
	-e 's/^tune P_p4 in .*/tune P_p4 in {4, 8}/' \
	-e 's/^tune L_p5 in .*/tune L_p5 in {2, 4, 8}/' \
	-e 's/^tune L_h1 in .*/tune L_h1 in {2, 4, 8}/' \
	-e 's/^tune L_p6 in .*/tune L_p6 in {1, 2}/' \
	-e 's/^tune P_p6 in .*/tune P_p6 in {4, 8}/' \
	-e 's/^tune L_h2 in .*/tune L_h2 in {1, 2}/' \
	-e 's/^tune P_h2 in .*/tune P_h2 in {2, 4}/' \
	-e 's/^tune S_p4 in .*/tune S_p4 in {1, 2}/' \
	-e 's/^tune B_sm in .*/tune B_sm in {1, 2, 4}/' \
	"$tpl" > "$out/ccsdt.tpl"
sizes="-D H3=$n -D H2=$n -D H1=$n -D P6=$n -D P5=$n -D P4=$n -D H7=$n"
fixed="-D L_h3=1 -D P_h3=1 -D O_h3=1 -D O_h2=1 -D P_h1=1 -D O_h1=1
	-D P_p5=1 -D O_p5=1 -D O_p4=2 -D O_p6=3 -D L_h7=1 -D O_h7=1
	-D G_h7=1 -D P_h7=8 -D R_h7=3 -D M_t2=3 -D M_v2=4 -D M_2=1"
c() { echo "(($1 + $2 - 1) / ($2))"; }
blocks="$(c H3 'P_h3*L_h3')*$(c H2 'P_h2*L_h2')*$(c H1 'P_h1*L_h1')"
blocks="$blocks*$(c P6 'P_p6*L_p6')*$(c P5 'P_p5*L_p5')*$(c P4 'P_p4*L_p4')"
threads='L_h3*L_h2*L_h1*L_p6*L_p5*L_p4'
# shellcheck disable=SC2086
"$dir/lego" tune "$out/ccsdt.tpl" --target "${TARGET:-cuda}" \
	--runner "$runner" --kernel sd_t_d1_1 \
	--args 't2:H7*P4*P5*H1 v2:H3*H2*P6*H7 t3:H3*H2*H1*P6*P5*P4:out S:1 H3:int H2:int H1:int P6:int P5:int P4:int H7:int' \
	--global "$blocks*$threads" --local "$threads" \
	--reference "${REF:-$dir/ccsdt_ref.cu}" \
	--ref-global 'H3*H2*H1*P6*P5*P4' --ref-local 128 \
	$sizes $fixed --timeout "${TIMEOUT:-0.1}" --jobs "${JOBS:-8}" \
	--seconds "${3:-150}" --seed 1 --db "$out/tune-ccsdt.db" \
	--csv "$out/tune-ccsdt.csv" > "$out/best.out" 2> "$out/tune-ccsdt.txt"
cat "$out/best.out" >> "$out/tune-ccsdt.txt"
# The best line ("best: L_p4=2 ..  0.38 ms (median)"): its values and
# the fixed ones, as -D, for lego mdh.
best=$(sed -n 's/^best: \([^ ].*[0-9]\)  .*/\1/p' "$out/best.out")
if [ -n "$best" ]; then
	for kv in $best; do printf -- '-D %s ' "$kv"; done
	echo $fixed
fi > "$out/best.txt"
tail -n 6 "$out/tune-ccsdt.txt"
