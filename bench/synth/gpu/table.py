#!/usr/bin/env python3
"""table.py DIR - joins ncu's shared-memory counters of each smem.cu kernel
(DIR/ncu.csv, DIR/ncu_ops.csv; launches in manifest order) with liblego's
predictions (DIR/model.txt) and prints a markdown table."""
import csv
import sys


def counters(path):
    """{launch id: {metric: value}}"""
    out = {}
    try:
        with open(path) as f:
            rows = [l for l in f if l.startswith('"')]
    except OSError:
        return out
    for row in csv.DictReader(rows):
        val = row["Metric Value"].replace(",", "")
        try:
            out.setdefault(int(row["ID"]), {})[row["Metric Name"]] = int(float(val))
        except ValueError:
            pass
    return out


def main():
    d = sys.argv[1]
    model = [l.split() for l in open(d + "/model.txt") if l.strip()]
    total = counters(d + "/ncu.csv")
    ops = counters(d + "/ncu_ops.csv")
    wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
    bc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
    print("| layout | access | liblego: wavefronts (ideal) | ncu: ld + st wavefronts | ncu: bank conflicts | ncu: all shared wavefronts | agree |")
    print("|---|---|---|---|---|---|---|")
    agree = 0
    for k, (ident, kind, w, ideal) in enumerate(model):
        t, o = total.get(k, {}), ops.get(k, {})
        # ldmatrix is counted with the loads (op_ld)
        parts = [o.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % n)
                 for n in ("ld", "st")]
        got = None if None in parts else sum(parts)
        same = got is not None and got == int(w)
        agree += same
        print("| %s | %s | %s (%s) | %s | %s | %s | %s |" % (
            ident.rsplit(".", 1)[0], kind, w, ideal, "-" if got is None else got,
            t.get(bc, "-"), t.get(wf, "-"), "yes" if same else "NO"))
    print("\n%d of %d kernels: liblego's count equals ncu's" % (agree, len(model)))


main()
