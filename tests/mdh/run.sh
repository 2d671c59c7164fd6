#!/bin/sh
# Tests of the MDH front end (docs/mdh.md):
#   - located errors: each tests/mdh/err_*.mdh fails with exactly the
#     message of its first line (`# LINE:COL: error: TEXT`);
#   - the examples/mdh programs lowered to OpenCL and run through their
#     generated host code on the CPU driver (PoCL) at small odd sizes
#     against plain C (tests/mdh/check.c), with parameters that exercise
#     each strategy: registers, the local-memory tree, the grid kernel,
#     both iteration orders, padded tiles;
#   - every memory placement (inputs in global memory or staged in local
#     memory per round) of matmul, and staged inputs in the convolutions
#     and the contraction;
#   - every 8th configuration of the matvec space at 3 x 5, inputs in
#     global memory, all in one OpenCL program (tests/mdh/sweep.sh);
#   - the staged placements of matvec that PoCL 3.1's optimiser
#     miscompiles, as C with a thread per work-item and every barrier
#     checked (tests/mdh/pocl/threads.sh) and on PoCL with the optimiser
#     off; the reduction without MDH (tests/mdh/pocl/partial.cl);
#   - conv1d with the grid kernel and a double-buffered staged x, wrong
#     on PoCL 5.0 (issue 19), and neighbours, as C threads launched by
#     their host code, with six planted bugs the harness must reject;
#   - the CUDA kernels compiled by nvcc, when present;
#   - a small tuning run through `lego tune` (tests/mdh/measure.sh checks
#     every candidate), then `lego gen --tuned` checked again.
# Usage: sh tests/mdh/run.sh BUILD_DIR.  Last line: "mdh: N passed, N failed".
BUILD=${1:-build}
LEGO=$(cd "$BUILD" && pwd)/lego
HERE=$(cd "$(dirname "$0")" && pwd)
EX=examples/mdh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

for f in "$HERE"/err_*.mdh; do
	want=$(sed -n '1s|^# ||p' "$f")
	if "$LEGO" mdh "$f" > "$TMP/out" 2> "$TMP/err"; then
		ko "$f: accepted"
	elif [ "$(cat "$TMP/err")" = "$f:$want" ]; then
		ok "$f"
	else
		ko "$f: got '$(cat "$TMP/err")', want '$f:$want'"
	fi
done

# a -D that breaks a constraint names it
"$LEGO" mdh "$EX/matvec.mdh" -D I=7 -D L_i=8 > /dev/null 2> "$TMP/err"
want="$EX/matvec.mdh.tpl:11:8: error: assumption is false: \`assume L_i * P_i <= I\` (a constraint of the parameters; lego mdh --template shows them)"
if [ "$(cat "$TMP/err")" = "$want" ]; then
	ok "a broken constraint is named"
else
	ko "broken constraint: got '$(cat "$TMP/err")', want '$want'"
fi

if [ ! -f /usr/include/CL/cl.h ]; then
	ko "no OpenCL headers (run scripts/opencl.sh)"
	echo "mdh: $pass passed, $fail failed"
	exit 1
fi

# shadow_free FILE: a generated kernel compiles with no declaration that
# shadows another (-Wshadow), as hand-written code would: OpenCL (.cl) by
# clang, CUDA (--target nvrtc) by the host's C++ compiler through
# cuda_shim.h; the messages in $TMP/shadow.err.
shadow_free() {
	case $1 in
	*.cl) clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
		-fsyntax-only -Wshadow -Werror=shadow "$1" ;;
	*) ${CXX:-c++} -x c++ -std=c++17 -fsyntax-only -Wshadow -Werror=shadow \
		-include "$HERE/cuda_shim.h" "$1" ;;
	esac > "$TMP/shadow.err" 2>&1
}

# run NAME "SIZES" DEFINES...: lowered, checked against plain C, and its
# kernel free of shadowing.
run() {
	name=$1
	sizes=$2
	shift 2
	D=$TMP/$name
	mkdir -p "$D"
	: > "$TMP/shadow.err"
	if sh "$HERE/measure.sh" "$LEGO" "$name" "$D" "" $sizes -- "$@" \
		> "$D/log" 2>&1 && shadow_free "$D/kernel.cl"; then
		ok "$name $sizes $*"
	else
		ko "$name $sizes $*: $(cat "$D/log" "$TMP/shadow.err")"
	fi
}

# has NAME FILE PATTERN.. / lacks: each pattern (grep -E) is in FILE / none is.
has() {
	n=$1
	f=$2
	shift 2
	for e in "$@"; do
		grep -Eq -- "$e" "$f" || { ko "$n: no '$e'"; return; }
	done
	ok "$n"
}
lacks() {
	n=$1
	f=$2
	shift 2
	for e in "$@"; do
		! grep -Eq -- "$e" "$f" || { ko "$n: has '$e'"; return; }
	done
	ok "$n"
}
# the parameters decide the code: with scalar stores (S = 1) no vector
# store, no run of 4 and no decided #if is left; with S = 2 the vector
# path; in CUDA S = 4 streams the vector stores, S = 3 the scalars only
j="$EX/jacobi1d.mdh"
"$LEGO" mdh "$j" -D P_i=4 -D O_i=2 -o "$TMP/s1.cl"
"$LEGO" mdh "$j" -D P_i=4 -D O_i=2 -D S_i=2 -o "$TMP/s2.cl"
"$LEGO" mdh "$EX/ccsdt.mdh" --target cuda -D P_p4=4 -D O_p4=2 -D S_p4=4 \
	-o "$TMP/s4.cu"
"$LEGO" mdh "$EX/ccsdt.mdh" --target cuda -D S_p4=3 -o "$TMP/s3.cu"
lacks "S_i = 1: scalar stores alone" "$TMP/s1.cl" vstore4 mdh_vs mdh_q_i \
	mdh_e '^#if [01]$' 'mdh_p_i \+= '
has "S_i = 2: the vector stores" "$TMP/s2.cl" vstore4 \
	'mdh_p_i \+= 4\)' 'const int mdh_q_i = mdh_p_i \+ mdh_e;'
has "S_p4 = 4: float4 streamed" "$TMP/s4.cu" '__stcs\(\(float4 \*\)&mdh_out'
lacks "S_p4 = 4: no decided #if" "$TMP/s4.cu" '^#if [01]$'
has "S_p4 = 3: scalars streamed" "$TMP/s3.cu" '__stcs\(&mdh_out'
lacks "S_p4 = 3: no vector store" "$TMP/s3.cu" '\(float4 \*\)&mdh_out' mdh_vs

# every example's kernels, OpenCL and CUDA, at the defaults and with the
# CUDA-only vector and streaming stores: no declaration shadows another
for f in "$EX"/*.mdh; do
	for t in opencl:cl nvrtc:cu; do
		n=$(basename "$f" .mdh).${t#*:}
		if "$LEGO" mdh "$f" --target "${t%:*}" -o "$TMP/$n" &&
		   shadow_free "$TMP/$n"; then
			ok "$n has no shadowing"
		else
			ko "$n shadows: $(cat "$TMP/shadow.err")"
		fi
	done
done
# symbolic sizes (kernel arguments), the defaults
run matvec "7 13"
# the local tree (L_k = 4) and the grid kernel (G_k = 2), both orders
run matvec "7 13" -D I=7 -D K=13 -D L_i=2 -D P_i=2 -D O_i=2 -D L_k=4 \
	-D P_k=1 -D G_k=2
# more rounds than tiles along k (G_k = 8 groups over 33 tiles)
run matvec "9 33" -D L_k=1 -D P_k=1 -D O_k=2 -D G_k=8
# register tiles of 8 x 8 with constant sizes: lego gen puts temporaries
# before the store lines, inside braced blocks
run matmul "17 19 5" -D M=17 -D N=19 -D K=5 -D L_i=2 -D L_j=2 -D P_i=8 \
	-D P_j=8 -D L_k=2 -D G_k=2 -D M_A=2 -D M_B=2
run matmul "5 7 9" -D L_i=2 -D P_j=2 -D O_j=2 -D L_k=2 -D P_k=2 -D G_k=2
# the placements of A and B (2: the buffer's order, 3: the reduced dim
# outermost, 4: that padded): the staged tiles are padded like the rest
for m in "-D M_A=2" "-D M_B=3" "-D M_A=4 -D M_B=2" "-D M_A=3 -D M_B=4"; do
	# shellcheck disable=SC2086
	run matmul "17 19 5" -D L_i=2 -D L_j=2 -D P_i=2 -D O_i=2 -D L_k=2 \
		-D P_k=2 -D G_k=2 $m
done
# staged tiles read as vectors of 4 into registers (M_X > 2, O = 2, P = 4)
run matmul "17 19 5" -D L_i=2 -D L_j=2 -D P_i=4 -D P_j=4 -D O_i=2 -D O_j=2 \
	-D P_k=2 -D M_A=4 -D M_B=3
# and copied from global memory as vectors (4 divides the rows and the
# boxes), padded tiles masked a vector at a time
run matmul "12 20 8" -D M=12 -D N=20 -D K=8 -D L_i=2 -D L_j=2 -D P_i=4 \
	-D P_j=4 -D O_i=2 -D O_j=2 -D P_k=4 -D M_A=4 -D M_B=3
# the third order (runs of 4, 4 L apart), staged and read as vectors, and
# along a reduced dim from global memory
run matmul "17 19 5" -D L_i=2 -D L_j=2 -D P_i=8 -D P_j=4 -D O_i=3 -D O_j=3 \
	-D P_k=2 -D M_A=4 -D M_B=3
run matvec "7 45" -D I=7 -D K=45 -D L_k=2 -D P_k=8 -D O_k=3
run dot "37" -D L_k=8 -D P_k=2 -D O_k=2 -D G_k=2
run jacobi1d "17" -D P_i=4 -D L_i=2 -D O_i=2
run jacobi2d "7 11" -D P_i=2 -D L_j=4 -D O_j=2
run jacobi3d "5 7 3" -D L_k=2 -D P_j=2 -D O_j=2 -D L_i=2
# the halo placement (M_x = 5): the box of the tile and the halo its
# views' offsets give, staged once and read by every view, masked at the
# domain's edges (odd sizes, padded tiles); a window over a reduced dim
# (x : (i, d) -> (i + d)) with the double buffer; MCC's image (p + r,
# q + s) over rounds of c, r and s whose last tiles are padded
run jacobi3d "7 5 9" -D X=7 -D Y=5 -D Z=9 -D L_k=4 -D P_k=2 -D P_i=2 \
	-D O_i=2 -D L_j=2 -D M_x=5
run jacobi2d "7 11" -D P_i=2 -D L_j=4 -D O_j=2 -D M_x=5
run conv1d "17 3" -D L_d=2 -D P_i=2 -D G_d=2 -D M_x=5 -D M_2=2
run mcc "1 3 5 5 3 3 3" -D L_q=2 -D L_c=2 -D P_k=2 -D P_r=2 -D P_s=2 \
	-D M_x=5 -D M_f=4 -D M_2=2
# each point stored as soon as it is computed (M_y = 2): a stencil
# walking i (L_i = 1, O_i = 2, P_i planes a work-item) over padded tiles,
# symbolic and constant sizes
run jacobi3d "7 5 9" -D X=7 -D Y=5 -D Z=9 -D L_k=4 -D L_j=2 -D P_i=4 \
	-D O_i=2 -D M_y=2
run jacobi3d "5 7 3" -D L_k=2 -D P_j=2 -D O_j=2 -D P_i=2 -D M_y=2
run jacobi1d "17" -D P_i=4 -D L_i=2 -D O_i=3 -D M_y=2
# the views loaded ahead (V_x = 2): every view's value over the
# work-item's tile in registers before its arithmetic, masked at the
# edges of padded tiles, with either storing order
run jacobi3d "7 5 9" -D X=7 -D Y=5 -D Z=9 -D L_k=4 -D L_j=2 -D P_i=4 \
	-D O_i=2 -D M_y=2 -D V_x=2
run jacobi3d "5 7 3" -D L_k=2 -D P_j=2 -D O_j=2 -D P_i=2 -D V_x=2
run jacobi2d "7 11" -D P_i=2 -D L_j=4 -D O_j=1 -D P_j=2 -D V_x=2
run bmatmul "3 5 7 9" -D L_s=2 -D P_j=2 -D L_k=2 -D G_k=2
run conv1d "17 3" -D L_d=2 -D P_i=2
run contraction "3 5 4 3 5" -D L_d=2 -D L_e=2 -D P_c=2 -D G_e=2
# the reduced dims' private loops inside the ++ tile's (R = 2), one of
# two, both, and with staged tiles that R = 1 would read as vectors
run contraction "3 5 4 3 5" -D P_d=2 -D P_e=4 -D P_c=2 -D R_e=2
run matvec "7 45" -D I=7 -D K=45 -D L_i=2 -D P_i=2 -D L_k=2 -D P_k=8 -D R_k=2
run matmul "17 19 5" -D L_i=2 -D L_j=2 -D P_i=4 -D P_j=4 -D O_i=2 -D O_j=3 \
	-D P_k=2 -D M_A=4 -D M_B=3 -D R_k=2
run absmax "5 13" -D L_j=4 -D G_j=2
# R = 3: as 1 with the reduced dim's private loop unrolled (#pragma
# unroll), with vector reads of staged tiles, and beside R = 2
run matmul "17 19 13" -D L_i=2 -D L_j=2 -D P_i=4 -D P_j=4 -D O_i=2 -D O_j=3 \
	-D P_k=4 -D M_A=4 -D M_B=3 -D R_k=3
run contraction "3 5 4 3 5" -D P_d=2 -D P_e=4 -D P_c=2 -D R_d=3 -D R_e=2
# PRL: (weight, id) tuples combined by a user operator, in registers, the
# local tree and the grid kernel
run prl "7 29" -D L_i=2 -D L_j=4 -D P_j=2 -D G_j=2
run prl "5 13"
run gaussian2d "7 9" -D L_j=2 -D L_b=2 -D P_a=2 -D G_a=2 -D M_x=2 -D M_w=2
run ccsdt "3 3 5 3 1 3 5" -D L_h7=2 -D P_p4=2 -D L_h1=2 -D G_h7=2 -D M_t2=3
# MCC at a small odd shape (N K P Q C R S); its long mask line before the
# loads once hid that the line ended a statement from lego gen
run mcc "1 3 5 5 3 3 3" -D L_q=2 -D L_c=2 -D P_k=2 -D G_r=2 -D M_x=4 -D M_f=2
# The double buffer (M_2 = 2): six rounds of k read as vectors; two
# groups along k whose last round is past K; the odometer over MCC's three
# reduced dims (c, r, s)
run matmul "17 19 11" -D L_i=2 -D L_j=2 -D P_i=8 -D P_j=4 -D O_i=3 -D O_j=3 \
	-D P_k=2 -D M_A=4 -D M_B=3 -D M_2=2
run matmul "17 19 13" -D L_i=2 -D L_j=2 -D L_k=2 -D P_k=2 -D G_k=2 -D M_A=2 \
	-D M_B=3 -D M_2=2
run mcc "1 3 5 5 3 3 3" -D L_q=2 -D L_c=2 -D P_k=2 -D G_r=2 -D M_x=4 -D M_f=2 \
	-D M_2=2

# The vector variant (W_d > 1: OpenCL vectors along the outputs' last
# dim, src/mdh/vector.c): whole vectors and vectors past the end, with a
# staged input that does not use the dim and with R = 2, on every example
# that has a vector dim (a stencil's window, MCC's image: vectors read at
# any offset); it stays off the tree and the grid level (a constraint)
# (the first in a PoCL cache of its own: below, its object code)
POCL_CACHE_DIR=$TMP/pocl
export POCL_CACHE_DIR
run matmul "13 29 7" -D L_i=1 -D L_j=1 -D P_i=8 -D P_j=16 -D O_j=2 -D W_j=16
unset POCL_CACHE_DIR
# the scalar function and its fold, two statements, contracted into fused
# multiply-adds (kernel.c) where the CPU has them: PoCL's object of that
# kernel has vfmadd, not vmulps then vaddps
if grep -qw fma /proc/cpuinfo && command -v objdump > /dev/null; then
	so=$(find "$TMP/pocl" -name 'matmul.so' | head -n 1)
	n=$(objdump -d "$so" 2> /dev/null | grep -c 'vfmadd')
	if [ "$n" -gt 0 ]; then
		ok "the vector MatMul's multiply-adds fused ($n vfmadd)"
	else
		ko "no vfmadd in PoCL's object of the vector MatMul ($so)"
	fi
fi
run matmul "17 19 5" -D L_i=1 -D L_j=2 -D P_i=4 -D P_j=8 -D O_j=2 -D W_j=8 \
	-D M_A=2 -D P_k=2
run bmatmul "3 5 7 9" -D L_j=1 -D P_i=2 -D P_j=8 -D O_j=2 -D W_j=4 -D P_k=2
run contraction "3 5 7 3 5" -D L_c=1 -D P_c=4 -D O_c=2 -D W_c=4 -D P_d=2 \
	-D R_e=2
run conv1d "17 3" -D L_i=2 -D P_i=4 -D O_i=2 -D W_i=4
run gaussian2d "7 9" -D L_j=1 -D P_j=8 -D O_j=2 -D W_j=8 -D P_i=2 -D M_w=2
run mcc "1 3 5 5 3 3 3" -D L_q=1 -D P_q=4 -D O_q=2 -D W_q=2 -D P_k=2 -D M_f=2
# the work-groups' order (B_ord = 2: the first dim's groups fastest), with
# vectors, scalars and a grid level over k, three ++ dims, symbolic sizes
run matmul "13 29 7" -D M=13 -D N=29 -D K=7 -D L_i=1 -D L_j=1 -D P_i=4 \
	-D P_j=16 -D O_j=2 -D W_j=16 -D B_ord=2
run matmul "17 19 5" -D L_i=2 -D L_j=2 -D P_i=2 -D O_i=2 -D L_k=2 -D G_k=2 \
	-D B_ord=2
run bmatmul "3 5 7 9" -D L_j=1 -D P_i=2 -D P_j=8 -D O_j=2 -D W_j=4 -D B_ord=2
if "$LEGO" mdh "$EX/matmul.mdh" -D L_j=1 -D P_j=4 -D O_j=2 -D W_j=4 \
	-D G_k=2 > /dev/null 2> "$TMP/err"; then
	ko "W_j = 4 with G_k = 2 accepted"
elif grep -q "assume W_j == 1 || L_k \* G_k == 1" "$TMP/err"; then
	ok "W_j = 4 with G_k = 2 names its constraint"
else
	ko "W_j with G_k: $(cat "$TMP/err")"
fi

# The vector stores (S_d = 2, src/mdh/store.c): runs of 4 adjacent
# outputs along the store dim stored as one vector where the run is inside
# the output and 16-byte aligned, else by scalars: the contraction with
# rows of 10 (runs misaligned, runs past the end) and of 12 (aligned),
# matmul with the tree and with the grid level (scratch: scalars), matvec
# in both orders that give adjacent runs, two stencils
run ccsdt "3 3 5 3 5 10 5" -D L_p4=2 -D P_p4=4 -D O_p4=3 -D L_h1=2 \
	-D P_p6=2 -D M_t2=3 -D M_v2=4 -D S_p4=2
run ccsdt "3 2 3 3 3 12 5" -D L_p4=2 -D P_p4=4 -D O_p4=3 -D P_h2=2 -D S_p4=2
run matmul "17 19 13" -D L_i=2 -D L_j=2 -D P_i=2 -D P_j=4 -D O_j=2 \
	-D L_k=2 -D S_j=2
run matmul "17 20 13" -D L_i=2 -D L_j=2 -D P_j=8 -D O_j=3 -D L_k=2 -D G_k=2 \
	-D S_j=2
run matvec "11 13" -D L_i=2 -D P_i=4 -D O_i=3 -D S_i=2
run matvec "16 5" -D P_i=8 -D O_i=2 -D S_i=2
# programs without reduced dims (stored after the tile, M_Y = 1)
run jacobi1d "19" -D L_i=2 -D P_i=4 -D O_i=3 -D S_i=2
run jacobi2d "7 13" -D L_j=2 -D P_j=4 -D O_j=2 -D S_j=2 -D P_i=2
if "$LEGO" mdh "$EX/jacobi1d.mdh" -D P_i=4 -D O_i=2 -D S_i=2 -D M_y=2 \
	> /dev/null 2> "$TMP/err"; then
	ko "S_i = 2 with M_y = 2 accepted"
elif grep -q "assume S_i % 2 == 1 || M_y == 1" "$TMP/err"; then
	ok "S_i = 2 with M_y = 2 names its constraint"
else
	ko "S_i with M_y: $(cat "$TMP/err")"
fi
if "$LEGO" mdh "$EX/matvec.mdh" -D P_i=2 -D O_i=2 -D S_i=2 \
	> /dev/null 2> "$TMP/err"; then
	ko "S_i = 2 with P_i = 2 accepted"
elif grep -q "assume S_i % 2 == 1 || (O_i > 1 && P_i % 4 == 0)" "$TMP/err"
then
	ok "S_i = 2 with P_i = 2 names its constraint"
else
	ko "S_i with P_i: $(cat "$TMP/err")"
fi

# Every 8th configuration of the matvec space at 3 x 5 with its inputs in
# global memory (the whole space, 378 configurations: sh
# tests/mdh/sweep.sh build/lego DIR 3 5; tests/mdh/pocl/README.md says
# why the staged placements are not swept with PoCL's optimiser on).
if sh "$HERE/sweep.sh" "$LEGO" "$TMP/sweep" 3 5 8 > "$TMP/sweep.log" 2>&1; then
	ok "matvec at 3 x 5: $(tail -n 1 "$TMP/sweep.log") of the space"
else
	ko "sweep: $(cat "$TMP/sweep.log")"
fi

# The staged placements PoCL 3.1's optimiser gets wrong
# (tests/mdh/pocl/README.md): right as C with a thread per work-item,
# turns in both orders and every barrier checked, and right on PoCL with
# its optimiser off.
P="$HERE/pocl"
for m in "-D M_M=1 -D M_v=2" "-D M_M=2 -D M_v=1" "-D M_M=2 -D M_v=2"; do
	d="-D L_i=2 -D G_k=4 $m"
	# shellcheck disable=SC2086
	if sh "$P/threads.sh" "$LEGO" matvec "$TMP/th" 3 5 -D I=3 -D K=5 $d \
		> "$TMP/th.log" 2>&1
	then
		ok "matvec 3 x 5 $d as C threads: barriers and result"
	else
		ko "matvec 3 x 5 $d as C threads: $(cat "$TMP/th.log")"
	fi
	# shellcheck disable=SC2086
	if POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable sh "$HERE/measure.sh" \
		"$LEGO" matvec "$TMP/th" "" 3 5 -- -D I=3 -D K=5 $d \
		> "$TMP/th.log" 2>&1; then
		ok "matvec 3 x 5 $d on PoCL, optimiser off"
	else
		ko "matvec 3 x 5 $d on PoCL, optimiser off: $(cat "$TMP/th.log")"
	fi
done
# the harness fails on a barrier reached by work-item 0 alone
"$LEGO" mdh "$EX/matvec.mdh" -D I=3 -D K=5 -D L_i=2 -D G_k=4 -D M_v=2 |
	awk '/barrier\(CLK_LOCAL_MEM_FENCE\);/ && ++n == 2 {
		sub(/barrier/, "if (mdh_lid == 0) barrier") } { print }' \
	> "$TMP/diverge.cl"
if sh "$P/threads.sh" "$LEGO" matvec "$TMP/th" 3 5 -D I=3 -D K=5 -D L_i=2 \
	-D G_k=4 -D M_v=2 \
	--kernel "$TMP/diverge.cl" > "$TMP/th.log" 2>&1; then
	ko "threads.sh accepts a barrier reached by work-item 0 alone"
elif grep -q "a barrier not reached by all" "$TMP/th.log"; then
	ok "threads.sh reports a barrier reached by work-item 0 alone"
else
	ko "threads.sh on a divergent barrier: $(cat "$TMP/th.log")"
fi
# the reduction without MDH: right with PoCL's optimiser off; with it on
# its result is a note (PoCL 3.1: WRONG; ok once PoCL is fixed)
if ${CC:-cc} -std=c11 -O1 -Wall -Wextra -Werror "$P/repro.c" -lOpenCL -lm \
	-o "$TMP/repro" && "$TMP/repro" "$P/partial.cl" -cl-opt-disable \
	> "$TMP/th.log" 2>&1; then
	ok "pocl/partial.cl right with -cl-opt-disable"
	echo "NOTE pocl/partial.cl with PoCL's optimiser: $("$TMP/repro" \
		"$P/partial.cl" | tail -n 1)"
else
	ko "pocl/partial.cl with -cl-opt-disable: $(cat "$TMP/th.log")"
fi

# conv1d at 17 x 3 with the grid kernel and x staged in two slots, wrong
# on PoCL 5.0 (issue 19), and its neighbours: right as C threads run
# through their own host code (tests/mdh/pocl/README.md)
c="-D L_d=2 -D P_i=2"
for d in "-D G_d=2 -D M_x=5 -D M_2=1" "-D G_d=2 -D M_x=3 -D M_2=2" \
	"-D G_d=1 -D M_x=5 -D M_2=2" "-D G_d=2 -D M_x=5 -D M_2=2"; do
	# shellcheck disable=SC2086
	if sh "$P/threads.sh" "$LEGO" conv1d "$TMP/th" 17 3 $c $d \
		> "$TMP/th.log" 2>&1; then
		ok "conv1d 17 x 3 $c $d as C threads: barriers and result"
	else
		ko "conv1d 17 x 3 $c $d as C threads: $(cat "$TMP/th.log")"
	fi
done
# planted PART W SED WANT: threads.sh on the last conv1d (its kernel and
# host code kept in $TMP/pl) at 17 x W with its kernel (PART k.cl) or
# host code (h.h) edited by SED fails, saying WANT.
cp -r "$TMP/th" "$TMP/pl"
planted() {
	sed "$3" "$TMP/pl/$1" > "$TMP/planted"
	if cmp -s "$TMP/planted" "$TMP/pl/$1"; then
		ko "planted '$3': no such code"
		return
	fi
	opt=--kernel
	[ "$1" = h.h ] && opt=--host
	# shellcheck disable=SC2086
	if sh "$P/threads.sh" "$LEGO" conv1d "$TMP/th" 17 "$2" $c $d \
		$opt "$TMP/planted" > "$TMP/th.log" 2>&1; then
		ko "threads.sh accepts conv1d 17 x $2 with '$3'"
	elif grep -q "$4" "$TMP/th.log"; then
		ok "threads.sh rejects conv1d 17 x $2 with '$3'"
	else
		ko "threads.sh on conv1d 17 x $2 with '$3': $(cat "$TMP/th.log")"
	fi
}
# the tree's barrier reached by work-item 0 alone; the barrier that
# publishes the staged x left out; the second work-group's partial sums
# written over the first's (the rest of the scratch never written); x's
# tile read without the window offset; half the work-groups launched;
# at 17 x 9 (3 rounds) the next round's tile prefetched into the slot
# being read
T="$(printf '\t')"
planted k.cl 3 "s/^$T${T}barrier(/${T}${T}if (mdh_lid == 0) barrier(/" \
	"a barrier not reached by all"
planted k.cl 3 "/^$T${T}if (1) {\$/{n;s/barrier(CLK_LOCAL_MEM_FENCE)/(void)0/;}" \
	"order: element"
planted k.cl 3 "s/(long)N \* mdh_g_d\]/(long)N * 0]/" "got nan"
planted k.cl 3 "s/(mdh_l_d + mdh_l_i + t290_0)/(mdh_l_i + t290_0)/" \
	"order: element"
planted h.h 3 "s/mdh_global = 128LL/mdh_global = 64LL/" "got nan"
planted k.cl 9 "s/mdh_st_x\[65 \* (1 - mdh_b) + mdh_h_x\]/mdh_st_x[65 * mdh_b + mdh_h_x]/" \
	"order: element"

# every 256th configuration of the whole space, staged placements with
# it, on PoCL with its optimiser off (46 configurations, 5 s)
if POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable sh "$HERE/sweep.sh" "$LEGO" \
	"$TMP/sweep2" 3 5 256 "" > "$TMP/sweep.log" 2>&1; then
	ok "matvec at 3 x 5, every placement, PoCL optimiser off: $(tail -n 1 "$TMP/sweep.log")"
else
	ko "sweep of every placement: $(cat "$TMP/sweep.log")"
fi

# CUDA: the kernels free of shadowing (--target nvrtc, through
# cuda_shim.h), and with their launch function compiled for sm_90 by nvcc
# where present (they run on the GPU only: bench/mdh).
for t in "matmul -D L_i=4 -D L_j=8 -D L_k=4 -D G_k=2" "absmax -D L_j=8" \
	"prl -D L_j=8" "jacobi3d -D L_k=32 -D P_i=4 -D M_x=5" \
	"jacobi3d -D L_k=32 -D L_j=8 -D P_i=16 -D O_i=2 -D M_y=2 -D V_x=2" \
	"ccsdt -D L_p4=2 -D P_p4=4 -D O_p4=3 -D S_p4=4" "ccsdt -D S_p4=3" \
	"matmul -D L_i=4 -D L_j=8 -D L_k=4 -D G_k=2 -D M_A=4 -D M_2=2 -D R_k=2" \
	"matmul -D L_i=4 -D L_j=8 -D L_k=4 -D G_k=2 -D M_A=3 -D B_red=2" \
	"dot -D L_k=32 -D B_red=2" "matvec -D L_i=4 -D L_k=8 -D B_red=2" \
	"absmax -D L_i=4 -D L_j=16 -D B_red=2" "prl -D L_j=8 -D B_red=2"; do
	set -- $t
	n=$1
	shift
	if "$LEGO" mdh "$EX/$n.mdh" --target nvrtc "$@" -o "$TMP/$n.nv.cu" &&
	   shadow_free "$TMP/$n.nv.cu"; then
		ok "$n.cu has no shadowing: $*"
	else
		ko "$n.cu shadows: $* $(cat "$TMP/shadow.err")"
	fi
	command -v nvcc >/dev/null 2>&1 || continue
	if "$LEGO" mdh "$EX/$n.mdh" --target cuda "$@" -o "$TMP/$n.cu" &&
	   nvcc -arch=sm_90 -c "$TMP/$n.cu" -o "$TMP/$n.o" \
		2> "$TMP/nvcc.err"; then
		ok "$n compiles with nvcc: $*"
	else
		ko "$n with nvcc: $(cat "$TMP/nvcc.err")"
	fi
done

# The warp layer (B_red = 2, src/mdh/warp.c; run on the GPU by
# bench/mdh/warp.sh): the shuffles replace the tree, so the kernel has no
# tree's buffer nor the tree's two barriers, and one shuffle in the
# butterfly's loop; B_red = 1 keeps the tree.
"$LEGO" mdh "$EX/dot.mdh" --target cuda -D L_k=32 -D B_red=2 -o "$TMP/w2.cu"
"$LEGO" mdh "$EX/dot.mdh" --target cuda -D L_k=32 -D B_red=1 -o "$TMP/w1.cu"
if ! grep -q "mdh_sh_" "$TMP/w2.cu" &&
   [ "$(grep -c "__syncthreads" "$TMP/w1.cu")" -eq \
     $(($(grep -c "__syncthreads" "$TMP/w2.cu") + 2)) ] &&
   [ "$(grep -c "__shfl_xor_sync" "$TMP/w2.cu")" -eq 1 ] &&
   grep -q "__shared__ float mdh_sh_r" "$TMP/w1.cu"; then
	ok "B_red = 2: shuffles, no __shared__ tree"
else
	ko "B_red = 2: the kernel still has a tree, or no shuffle"
fi
# The space: matvec at I = 37 with all but L_i, L_k and B_red fixed.  By
# hand: pairs with L_i <= 32 (L_i * P_i <= 37) and L_i * L_k <= 256 are
# 9 + 8 + 7 + 6 + 5 + 4 = 39 (B_red = 1); with B_red = 2 also 2 <= L_k <=
# 32: 5 + 5 + 5 + 5 + 4 + 3 = 27.  And brute force over the list: every
# B_red = 2 configuration is a B_red = 1 one with 2 <= L_k <= 32.
"$LEGO" mdh "$EX/matvec.mdh" --target cuda --template -o "$TMP/mv.tpl"
"$LEGO" tune "$TMP/mv.tpl" --list -D I=37 -D K=1001 -D P_i=1 -D P_k=1 \
	-D O_i=1 -D O_k=1 -D G_k=1 -D R_k=1 -D M_M=1 -D M_v=1 -D M_2=1 \
	-D B_sm=1 -D S_i=1 > "$TMP/mv.list" 2>&1
n1=$(grep -c "B_red=1" "$TMP/mv.list")
n2=$(grep -c "B_red=2" "$TMP/mv.list")
b2=$(awk '/B_red=1/ { split($2, k, "="); if (k[2] >= 2 && k[2] <= 32)
	want[$1 " " $2] = 1 }
	/B_red=2/ { if (!want[$1 " " $2]) bad++; n++ }
	END { print n - bad }' "$TMP/mv.list")
if [ "$n1" -eq 39 ] && [ "$n2" -eq 27 ] && [ "$b2" -eq 27 ]; then
	ok "B_red's space: 39 + 27 matvec configurations (by hand)"
else
	ko "B_red's space: $n1 + $n2, $b2 allowed: $(head -n 3 "$TMP/mv.list")"
fi
# Not offered where it cannot hold: OpenCL keeps the tree (the -D is
# refused), and a reduced dim before a ++ dim puts a point's work-items
# L_i apart, not in consecutive lanes.
"$LEGO" mdh "$EX/matvec.mdh" -D B_red=2 > /dev/null 2> "$TMP/err"
printf 'size I, K\nmd_hom vm(k < K : +, i < I : ++)\nin float M : (k, i) -> (i, k)\nout float w : (k, i) -> (i)\nscalar { w = M; }\n' \
	> "$TMP/vm.mdh"
"$LEGO" mdh "$TMP/vm.mdh" --target cuda --template -o "$TMP/vm.tpl"
if grep -q "matvec.mdh.tpl: error: -D B_red: no sym 'B_red' is declared" \
	"$TMP/err" && ! grep -q "B_red" "$TMP/vm.tpl"; then
	ok "B_red: not in OpenCL, nor with a reduced dim first"
else
	ko "B_red offered: $(cat "$TMP/err")"
fi

# NVRTC (what lego tune --runner cuda compiles): --target nvrtc, the
# kernels alone, compile; the same kernels for nvcc do not (includes, the
# launch function).
for t in "matmul -D L_i=4 -D L_j=8 -D L_k=4 -D G_k=2" "absmax -D L_j=8" \
	"prl -D L_j=8"; do
	set -- $t
	n=$1
	shift
	"$LEGO" mdh "$EX/$n.mdh" --target nvrtc "$@" -o "$TMP/$n.nv.cu" &&
	"$LEGO" mdh "$EX/$n.mdh" --target cuda "$@" -o "$TMP/$n.nvcc.cu" || {
		ko "$n: lego mdh --target nvrtc"
		continue
	}
	python3 "$HERE/nvrtc.py" "$TMP/$n.nv.cu" > "$TMP/nvrtc.log" 2>&1
	r=$?
	[ $r -eq 77 ] && break
	if [ $r -eq 0 ] && ! python3 "$HERE/nvrtc.py" "$TMP/$n.nvcc.cu" \
		> /dev/null 2>&1; then
		ok "$n --target nvrtc compiles with NVRTC: $*"
	else
		ko "$n with NVRTC: $(cat "$TMP/nvrtc.log")"
	fi
done

# CUDA, what the two compiler-facing parameters do to the machine code:
# B_sm = 2 caps the registers of the double-buffered 128 x 128 MatMul
# (151 without the bound, nvcc 13.0) at 65536 / (2 * 256) = 128, and R_k = 3
# unrolls the k loop of the same tiles (16 steps of 8 x 8 FMAs).
if command -v nvcc >/dev/null 2>&1; then
	mm="-D M=4096 -D N=4096 -D K=4096 -D L_i=16 -D L_j=16 -D P_i=8 \
-D P_j=8 -D M_A=4 -D M_B=3 -D P_k=16 -D O_i=3 -D O_j=3"
	regs() { # the registers of the kernel matmul for these -D
		# shellcheck disable=SC2086
		"$LEGO" mdh "$EX/matmul.mdh" --target cuda $mm "$@" \
			-o "$TMP/mmr.cu" &&
		nvcc -arch=sm_90 -cubin -w -Xptxas -v "$TMP/mmr.cu" \
			-o "$TMP/mmr.cubin" 2>&1 |
		awk '/entry function .*6matmulP/ {on = 1}
		     on && /Used/ {print $5; exit}'
	}
	r1=$(regs -D M_2=2 -D B_sm=1)
	r2=$(regs -D M_2=2 -D B_sm=2)
	if [ "${r1:-0}" -gt 128 ] && [ "${r2:-999}" -le 128 ]; then
		ok "B_sm = 2 caps the registers at 128 ($r1 without)"
	else
		ko "B_sm: $r1 registers with B_sm = 1, $r2 with 2"
	fi
	fma() { # the FMAs of matmul's PTX for these -D
		# shellcheck disable=SC2086
		"$LEGO" mdh "$EX/matmul.mdh" --target cuda $mm "$@" \
			-o "$TMP/mmf.cu" &&
		nvcc -arch=sm_90 -ptx -w "$TMP/mmf.cu" -o - |
		grep -c 'fma.rn.f32'
	}
	f1=$(fma -D R_k=1)
	f3=$(fma -D R_k=3)
	if [ "${f1:-0}" -lt 1024 ] && [ "${f3:-0}" -ge 1024 ]; then
		ok "R_k = 3 unrolls the k loop ($f3 FMAs, $f1 with R_k = 1)"
	else
		ko "R_k: $f1 FMAs with R_k = 1, $f3 with 3"
	fi
fi

# Tuning: the template of matvec searched by lego tune on PoCL, every
# candidate checked by measure.sh; then the best kernel from the cache.
"$LEGO" mdh "$EX/matvec.mdh" --template -o "$TMP/matvec.cl.tpl"
fixed="-D I=9 -D K=33 -D L_i=1 -D P_i=1 -D O_i=1 -D P_k=1"
if (cd "$TMP" && "$LEGO" tune matvec.cl.tpl --target opencl \
	--strategy random --seed 3 --evals 4 --db t.db $fixed \
	--run "sh $HERE/measure.sh $LEGO matvec $TMP/cand {kernel} 9 33 \
-- $fixed -D L_k={L_k} -D O_k={O_k} -D G_k={G_k} --time") \
	> "$TMP/best" 2> "$TMP/tune.err" &&
   grep -q "random, 4 evaluations (4 measured, 0 failed)" "$TMP/tune.err" &&
   grep -q "^best: L_k=" "$TMP/best"; then
	ok "lego tune on the matvec template: $(cat "$TMP/best")"
else
	ko "lego tune: $(cat "$TMP/tune.err" "$TMP/best")"
fi
best=$(sed -n 's/^best: \([^ ]*\) \([^ ]*\) \([^ ]*\) .*/-D \1 -D \2 -D \3/p' \
	"$TMP/best")
if (cd "$TMP" && "$LEGO" gen matvec.cl.tpl --target opencl --tuned t.db \
	$fixed > tuned.cl 2> tuned.err) &&
   sh "$HERE/measure.sh" "$LEGO" matvec "$TMP/tuned" "$TMP/tuned.cl" 9 33 \
	-- $fixed $best > "$TMP/log" 2>&1; then
	ok "lego gen --tuned: the best kernel ($best) checked"
else
	ko "lego gen --tuned: $(cat "$TMP/tuned.err" "$TMP/log")"
fi

echo "mdh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
