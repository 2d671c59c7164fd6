#!/bin/sh
# call 2 of synth5: the timings again (each wgmma change on its own:
# wg_p0, wg_w0, wgmma; libold.so: the kernels as they were, EXTRA), and
# per-instruction shared wavefronts of the new gemm_tn, gemm_tn64, wgmma_tn
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
ncu --version | tail -1 >> "$OUT/device.txt"
export EXTRA=lego_old=libold.so:old_gemm_tn_launch,wg_old=libold.so:old_wgmma_tn_launch${EXTRA2:+,$EXTRA2}
for r in 1 2; do python3 bench.py > "$OUT/bench$r.txt" 2>&1; cat "$OUT/bench$r.txt"; done
ncu --section SourceCounters -k 'regex:^gemm_tn|^wgmma_tn$' -o /tmp/src python3 bench.py --ncu >"$OUT/err.txt" 2>&1
ncu -i /tmp/src.ncu-rep --page source --csv --print-source sass > "$OUT/src.csv" 2>>"$OUT/err.txt"
python3 -c 'import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); h=None; t={}; k="?"
for r in rows:
  if r and r[0]=="Kernel Name": k=r[1]; continue
  if r and r[0]=="Address": h=r; continue
  if not h or len(r)<len(h): continue
  d=dict(zip(h,r))
  if d["L1 Wavefronts Shared"] in ("0","-",""): continue
  op=k+" "+d["Source"].split()[0]
  x=t.setdefault(op,[0,0,0])
  for j,c in enumerate(["Instructions Executed","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal"]): x[j]+=int(d[c].replace(",",""))
print("per op: instructions, wavefronts, ideal")
for o,x in t.items(): print(o, x)' "$OUT/src.csv" | tee "$OUT/shared-insts.txt"
tail -3 "$OUT/err.txt"
