"""Hardware counters of our forward beside the copies of the same bytes, read
by Nsight Compute (ncu): every kernel launched REPS times on one input set,
each launch between cudaProfilerStart and Stop, so that ncu (started with
--profile-from-start off) sees exactly these launches, in the order of the
labels file.  ncu's default --cache-control all flushes the L2 before every
profiled launch: gpu__time_duration is then one launch on a cold L2 timed on
the device, no launch cost and no earlier call's y still leaving L2.
Usage (on the device, in bench/layernorm; bench/run_eval_device.sh does it):
  ncu --profile-from-start off --clock-control none --print-units base --csv \\
      --page raw --metrics "$(python3 profile.py metrics)" --log-file OUT/ncu.csv \\
      python3 profile.py OUT/labels.txt
  python3 profile.py summary OUT/ncu.csv OUT/labels.txt      (anywhere: the table)
"""
import csv
import statistics
import sys

REPS = 5
# (N, dtype name): our configurations (BM, warps, G, stages, tma; G = -1 is
# the programs the device holds at once, ops.fwd_resident) and the copies
# (ceiling.py's names).
KERNELS = {
    (2048, "float16"): ([(2, 8, 528, 2, 0), (2, 8, -1, 3, 0), (2, 4, 0, 1, 0), (4, 8, 0, 1, 0),
                         (1, 1, 0, 1, 0)],
                        ["cuda U4 G0 cs", "cuda U1 G0", "triton 8192/8", "torch mul"]),
    (4096, "float16"): ([(1, 8, 396, 2, 0), (1, 8, -1, 3, 0), (1, 8, 0, 1, 0), (2, 8, 0, 1, 0)],
                        ["triton 8192/8", "cuda U4 G0 cs"]),
    (2048, "float32"): ([(4, 4, 0, 1, 0), (2, 8, -1, 3, 0)], ["triton ptr 16K/8", "cuda U4 G0 cs"]),
}
METRICS = {
    "gpu__time_duration.sum": ("us", 1e-3),
    "dram__bytes_read.sum": ("MB read", 1e-6),
    "dram__bytes_write.sum": ("MB written", 1e-6),
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": ("DRAM % of peak", 1),
    "sm__warps_active.avg.pct_of_peak_sustained_active": ("achieved occupancy %", 1),
    "sm__maximum_warps_per_active_cycle_pct": ("theoretical occupancy %", 1),
    "launch__waves_per_multiprocessor": ("waves", 1),
    "launch__registers_per_thread": ("registers", 1),
    "sm__inst_executed.sum": ("M instructions", 1e-6),
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": ("SM % of peak", 1),
}


def run(labels_path):
    import torch

    import bench
    import ceiling
    import ops
    labels = []
    for (N, dname), (ours, copies) in KERNELS.items():
        dtype = getattr(torch, dname)
        x, w, b, _ = bench.inputs(dtype, N, seed=1000)
        yref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
        o = torch.empty_like(x)
        calls = {}
        for c in ours:
            bm, warps, g, stages, tma = c
            if g < 0:
                g = ops.fwd_resident(N, dtype, bm, warps, stages, tma) * ops.sms()
            c = (bm, warps, g, stages, tma)
            err = bench.rel(ops.layer_norm(x, w, b, fwd=c), yref)
            if err > (1e-2 if dtype == torch.float16 else 1e-4):
                print(f"{dname} {N}: ours {c} WRONG ({err:.1e}): not profiled")
                continue
            calls[f"ours {c}"] = (lambda c: lambda: ops.layer_norm(x, w, b, fwd=c))(c)
        for name in copies:
            op = ceiling.COPIES[name]
            if not ceiling.exact(op, x):
                print(f"{dname} {N}: {name} WRONG: not profiled")
                continue
            calls[name] = (lambda op: lambda: op(o, x))(op)
        for name, call in calls.items():
            call()  # compiled and warm before the profiled launches
            torch.cuda.synchronize()
            for _ in range(REPS):
                torch.cuda.profiler.start()
                call()
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
                labels.append(f"{dname} {N}\t{name}")
    with open(labels_path, "w") as f:
        f.write("\n".join(labels) + "\n")


def summary(csv_path, labels_path):
    labels = [line.rstrip("\n").split("\t") for line in open(labels_path) if line.strip()]
    rows = [r for r in csv.DictReader(line for line in open(csv_path) if not line.startswith("=="))
            if r.get("ID", "").isdigit()]
    if len(rows) != len(labels):
        sys.exit(f"profile: {len(rows)} profiled launches, {len(labels)} labels")
    values = {}
    for (cell, name), r in zip(labels, rows):
        for m in METRICS:
            v = float(r[m].replace(",", "")) if r.get(m, "").replace(",", "").replace(".", "").isdigit() else None
            values.setdefault((cell, name, m), []).append(v)
    cols = list(METRICS)
    print("| cell | kernel | " + " | ".join(METRICS[m][0] for m in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    seen = []
    for cell, name in labels:
        if (cell, name) in seen:
            continue
        seen.append((cell, name))
        cells = []
        for m in cols:
            vs = [v for v in values[(cell, name, m)] if v is not None]
            cells.append(f"{statistics.median(vs) * METRICS[m][1]:.{1 if m != 'launch__waves_per_multiprocessor' else 2}f}"
                         if vs else "-")
        print(f"| {cell} | {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "metrics":
        print(",".join(METRICS))
    elif sys.argv[1] == "summary":
        summary(sys.argv[2], sys.argv[3])
    else:
        run(sys.argv[1])
