#!/bin/sh
# call 2 of synth4: timings of lego (k 32), lego64 (k 64), hand, wgmma, cuBLAS; per-instruction shared wavefronts
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
ncu --version | tail -1 >> "$OUT/device.txt"
python3 bench.py > "$OUT/bench.txt" 2>&1 || { echo "full bench failed; again without wgmma" >> "$OUT/bench.txt"; SKIP=wgmma python3 bench.py >> "$OUT/bench.txt" 2>&1; }
cat "$OUT/bench.txt"
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_ldgsts.sum,gpu__time_duration.sum,launch__registers_per_thread
ncu --csv -k 'regex:gemm_tn|wgmma_tn' --metrics $M python3 bench.py --ncu > "$OUT/ncu.csv" 2>"$OUT/err.txt"
ncu --section SourceCounters -k 'regex:gemm_tn64|wgmma_tn' -o /tmp/src2 python3 bench.py --ncu >>"$OUT/err.txt" 2>&1
ncu -i /tmp/src2.ncu-rep --page source --csv --print-source sass > "$OUT/src2.csv" 2>>"$OUT/err.txt"
python3 -c 'import csv,sys
for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith("\"")): print(r["Kernel Name"][:14], r["Metric Name"], r["Metric Value"])' "$OUT/ncu.csv"
python3 -c 'import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); h=None; t={}; k="?"
for r in rows:
  if r and r[0]=="Kernel Name": k=r[1]; continue
  if r and r[0]=="Address": h=r; continue
  if not h or len(r)<len(h): continue
  d=dict(zip(h,r))
  if d["L1 Wavefronts Shared"] in ("0","-",""): continue
  op=k+" "+d["Source"].split()[0].split(".")[0]
  x=t.setdefault(op,[0,0,0,0])
  for j,c in enumerate(["Instructions Executed","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal","L1 Wavefronts Shared Excessive"]): x[j]+=int(d[c].replace(",",""))
print("per op: instructions, wavefronts, ideal, excessive")
for o,x in t.items(): print(o, x)' "$OUT/src2.csv"
tail -3 "$OUT/err.txt"
