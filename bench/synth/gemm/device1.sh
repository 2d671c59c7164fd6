#!/bin/sh
# call 1 of synth4: per-instruction shared wavefronts of the generated GEMM, and the probes
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
ncu --version | tail -1 >> "$OUT/device.txt"
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_ldgsts.sum
S=smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum,smsp__sass_inst_executed_op_ldsm.sum
ncu --csv --metrics $M ./probe > "$OUT/probe.csv" 2>"$OUT/err.txt"
ncu --csv --metrics $S ./probe | grep '^"' | tail -n +2 >> "$OUT/probe.csv" 2>>"$OUT/err.txt"
ncu --csv -k regex:gemm_tn --metrics $M python3 bench.py --ncu > "$OUT/gemm.csv" 2>>"$OUT/err.txt"
ncu --csv -k regex:gemm_tn --metrics $S python3 bench.py --ncu | grep '^"' | tail -n +2 >> "$OUT/gemm.csv" 2>>"$OUT/err.txt"
ncu --section SourceCounters -k regex:^gemm_tn -o /tmp/src python3 bench.py --ncu >>"$OUT/err.txt" 2>&1
ncu -i /tmp/src.ncu-rep --page source --csv --print-source sass > "$OUT/src.csv" 2>>"$OUT/err.txt"
ncu --query-metrics 2>/dev/null | grep -i -E "shared|ldsm|ldgsts" > "$OUT/metrics.txt"
for f in probe gemm; do python3 -c 'import csv,sys
for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith("\"")): print(r["Kernel Name"][:12], r["Metric Name"], r["Metric Value"])' "$OUT/$f.csv"; done
grep -i -E "LDSM|LDGSTS|Wavefronts" "$OUT/src.csv" | head -5 | cut -c1-400
tail -5 "$OUT/err.txt"
