"""table.py compare.json[=LABEL] .. - the study's tables (Markdown): the tuned kernel's
TFLOP/s and its speed relative to each baseline (baseline time / tuned
time: above 1 the tuned kernel is faster), with the issue's targets and
their counts.  Two tables, never mixed: the time of a call as a caller
sees it (ms: the host's launch counts), then, when compare.py measured
it, the time from a CUDA graph (graph_ms: no host launch for any
provider); then, a table of its own, the tuned kernel's pre-bound
launch per call (bound_ms).  Several files: the cells of the first,
then those of later ones (older runs) that it lacks, labelled."""
import json
import sys

BASES = ("hand", "gen@hand", "autotune", "cuBLAS")


def table(rows, key, errors_key):
    print("| cell | tuned config | tuned TFLOP/s | vs hand | vs gen@hand | "
          "vs autotune | vs cuBLAS | targets |")
    print("|---|---|---|---|---|---|---|---|")
    # target -> [met, compared]
    count = {t: [0, 0] for t in ("hand", "autotune", "cuBLAS", "FP8 hand")}
    for r in rows:
        ms = r.get(key, {})
        if key not in r and "failed" not in r:
            continue                      # a run without this timing
        if "tuned" not in ms:
            why = r.get("failed") or r.get(errors_key, {}).get("tuned") \
                or r.get("errors", {}).get("tuned", "not measured")
            print(f"| {cell(r)} | failed: {why} |")
            continue
        t = ms["tuned"]
        flop = 2 * r["M"] * r["N"] * r["K"]
        x = {k: ms[k] / t for k in BASES if k in ms}
        floor = 0.85 if r["M"] in (1000, 4097) else 0.90
        # FP8's target is the hand-picked configuration alone
        fp8 = r["v"].endswith("_e4m3")
        missed = []
        for k, need in ((("hand", 1.0),) if fp8 else
                        (("hand", 1.0), ("autotune", 1.0), ("cuBLAS", floor))):
            name = "FP8 hand" if fp8 else k
            if k not in x:
                # a baseline that failed is not a miss of the tuned kernel
                why = r.get(errors_key, {}).get(k) or r.get("errors", {}).get(k)
                if why:
                    missed.append(f"{k} not compared ({why})")
                continue
            count[name][1] += 1
            if x[k] >= need:
                count[name][0] += 1
            else:
                missed.append(k if need == 1.0 else f"{k} < {need}")
        c = r["tuned"]
        cfg = f"{c['BM']}x{c['BN']}x{c['BK']} GM{c['GM']} s{c['STAGES']} w{c['WARPS']}"
        if "KERNEL" in c:                 # the template the tuner chose
            cfg = ("pointer", "masked", "TMA", "generic",
                   "stream-K")[c["KERNEL"] - 1] + " " + cfg
        if c.get("SPLIT_K", 1) > 1:
            cfg += f" split-K {c['SPLIT_K']}"
        if c.get("OCC", 1) > 1:
            cfg += f" {c['OCC']} an SM"
        print(f"| {cell(r)} | {cfg} | "
              f"{flop / (t * 1e-3) / 1e12:.0f} | "
              + " | ".join(f"{x[k]:.2f}" if k in x else "-" for k in BASES)
              + f" | {'met' if not missed else 'missed: ' + ', '.join(missed)} |")
    print()
    print("Targets met / cells compared: "
          + "; ".join(f"{k} {m}/{n}" for k, (m, n) in count.items()
                      if k != "cuBLAS")
          + f"; cuBLAS floor (0.90x, 0.85x at 1000 and 4097) "
          f"{count['cuBLAS'][0]}/{count['cuBLAS'][1]}")


def cell(r):
    """A row's cell, with the run it comes from when not the latest."""
    label = f" ({r['label']})" if r.get("label") else ""
    return f"{r['v']} {r['M']}x{r['N']}x{r['K']}{label}"


def load(args):
    """FILE[=LABEL] ..: every cell of the first, then the cells of each
    later one that no earlier file has, named with its LABEL."""
    rows, seen = [], set()
    for arg in args:
        path, _, label = arg.partition("=")
        for r in json.load(open(path)):
            key = (r["v"], r["M"], r["N"], r["K"])
            if key not in seen:
                seen.add(key)
                rows.append(dict(r, label=label))
    return rows


def main():
    rows = load(sys.argv[1:])
    print("Per call (the host's time of a launch counts: Python for the "
          "Triton kernels, C++ for cuBLAS):\n")
    table(rows, "ms", "errors")
    if any("graph_ms" in r for r in rows):
        print("\nFrom a CUDA graph (n calls replayed: no host launch for any "
              "provider; L2 not flushed between calls):\n")
        table(rows, "graph_ms", "graph_errors")
    if any(r.get("bound_ms") for r in rows):
        bound(rows)


def bound(rows):
    """The third timing, per call: the tuned kernel's launch pre-bound
    (its compiled launcher, arguments fixed) beside the tuned kernel's
    and cuBLAS's per-call times of the same rounds."""
    print("\nPer call, the tuned kernel's launch pre-bound (choice.py's "
          "lego_bind: its compiled launcher called with the arguments "
          "fixed, as a hot loop would; TMA has none), in us:\n")
    print("| cell | tuned, pre-bound | tuned (per call) | cuBLAS (per call) "
          "| cuBLAS / pre-bound |")
    print("|---|---|---|---|---|")
    for r in rows:
        b, ms = r.get("bound_ms", {}).get("bound"), r.get("ms", {})
        if b is None or "tuned" not in ms:
            continue
        blas = ms.get("cuBLAS")
        print(f"| {cell(r)} | {b * 1e3:.1f} | "
              f"{ms['tuned'] * 1e3:.1f} | "
              + (f"{blas * 1e3:.1f} | {blas / b:.2f} |" if blas else "- | - |"))


if __name__ == "__main__":
    main()
