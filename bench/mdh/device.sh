#!/bin/sh
# device.sh OUT - the whole GPU study in one device call, from a folder
# holding: gen/ (build.sh's output), lego (the binary, built here),
# matmul.cu.tpl (lego mdh examples/mdh/matmul.mdh --target cuda
# --template), gpu.cu and tune1.sh.  Writes OUT/results.txt (the torch
# baselines and every variant, checked then timed) and OUT/tune.txt,
# OUT/tune.csv (lego tune over the matmul space on the GPU, each
# candidate checked); bench/mdh/README.md.
out=$1
cd "$(dirname "$0")" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/results.txt"
sh gen/compile.sh 2> "$out/compile.err"
(cd gen && sh run.sh) 2>&1 | tee -a "$out/results.txt"
# lego tune on the GPU: the k loop in one thread a step (L_k = 1, one
# block along k), tiles read as vectors where they can be; the tuner
# picks the work-items, the private tiles and their orders.
./lego tune matmul.cu.tpl --target cuda \
	--run "sh $PWD/tune1.sh {kernel} matmul 4096 4096 4096" \
	-D M=4096 -D N=4096 -D K=4096 -D L_k=1 -D G_k=1 -D O_k=1 \
	-D M_A=4 -D M_B=3 \
	--seconds "${TUNE_SECONDS:-120}" --seed 1 --db "$out/tune.db" \
	--csv "$out/tune.csv" 2>&1 | tail -n 5 | tee "$out/tune.txt"
