#!/bin/sh
# tune-nvrtc.sh DIR OUT [SECONDS] - on the device: lego tune over the
# MatMul space at 4096^3 in process (--runner cuda: NVRTC compiles each
# candidate of DIR/matmul.nvrtc.tpl, written by lego mdh --target nvrtc
# --template; each checked against matmul_ref.cu on small-integer inputs,
# then timed with events, the L2 cleared before each launch).  The k loop
# in one thread a step (L_k = G_k = 1, P_k = 16), A and B staged and
# read as vectors as in the best kernels (M_A=4 M_B=3, O = 3,3), one
# buffer; the tuner picks the tiles (L_i, L_j, P_i, P_j), R_k and B_sm.
# OUT/tune-nvrtc.txt and .csv.
dir=$1 out=$2
"$dir/lego" tune "$dir/matmul.nvrtc.tpl" --target cuda --runner cuda \
	--kernel matmul --args 'A:M*K B:K*N C:M*N:out S:M*N M:int N:int K:int' \
	--global '(M/(P_i*L_i))*(N/(P_j*L_j))*L_i*L_j' --local 'L_i*L_j' \
	--reference "$dir/matmul_ref.cu" --ref-global 'M*N' \
	-D M=4096 -D N=4096 -D K=4096 -D L_k=1 -D G_k=1 -D O_k=1 -D P_k=16 -D O_i=3 -D O_j=3 \
	-D M_A=4 -D M_B=3 -D M_2=1 --timeout 0.1 --jobs 8 \
	--seconds "${3:-120}" --seed 1 --db "$out/tune-nvrtc.db" \
	--csv "$out/tune-nvrtc.csv" > "$out/tune-nvrtc.txt" 2>&1
tail -n 8 "$out/tune-nvrtc.txt"
