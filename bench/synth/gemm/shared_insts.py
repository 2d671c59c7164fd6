# shared_insts.py SOURCE.csv... - the shared-memory instructions of ncu's
# source page (ncu -i REPORT --page source --csv --print-source sass):
# per kernel and instruction, executions, "L1 Wavefronts Shared", its
# "Ideal" and "Excessive", as one CSV on stdout.  ncu 2025.3 prints a
# kernel's listing twice when the report holds several kernels: each
# address is kept once.
import csv
import sys

COLS = ["Instructions Executed", "L1 Wavefronts Shared",
        "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive"]
print("kernel,address,sass,executed,wavefronts,ideal,excessive")
for path in sys.argv[1:]:
    head, kernel, seen = None, "?", set()
    for r in csv.reader(open(path)):
        if r and r[0] == "Kernel Name":
            kernel = r[1]
        elif r and r[0] == "Address":
            head = r
        elif head and len(r) >= len(head):
            d = dict(zip(head, r))
            key = (kernel, d["Address"])
            if key not in seen and d["L1 Wavefronts Shared"] not in (
                    "0", "-", ""):
                seen.add(key)
                vals = [d[c].replace(",", "") for c in COLS]
                print(",".join([kernel, d["Address"][-5:],
                                '"' + d["Source"].strip() + '"'] + vals))
