#!/bin/sh
# call of synth5: timings of the kernels with the strength-reduced copies
# and the overlapped wgmma pipeline, beside the kernels as they were
# (libold.so: EXTRA, built from the previous gemm.cu, gemm64.cu and
# wgmma.cu with their names prefixed old_), twice; then ncu: instructions,
# issue stalls and shared-memory counters of the k-32 GEMMs and the wgmma.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
ncu --version | tail -1 >> "$OUT/device.txt"
export EXTRA=lego_old=libold.so:old_gemm_tn_launch,wg_old=libold.so:old_wgmma_tn_launch
for r in 1 2; do python3 bench.py > "$OUT/bench$r.txt" 2>&1; cat "$OUT/bench$r.txt"; done
M=gpu__time_duration.sum,launch__registers_per_thread,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
ncu --csv -k 'regex:gemm_tn$|wgmma' --section WarpStateStats --section InstructionStats --metrics $M python3 bench.py --ncu > "$OUT/ncu.csv" 2>"$OUT/err.txt"
python3 -c 'import csv,sys
for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith("\"")): print(r["Kernel Name"][:14], r["Metric Name"], r["Metric Value"])' "$OUT/ncu.csv"
tail -3 "$OUT/err.txt"
