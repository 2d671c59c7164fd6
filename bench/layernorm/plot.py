"""Figure and tables of the layernorm study from bench.py's layernorm.json:
  python3 bench/layernorm/plot.py [-o OUT_DIR] layernorm.json [later.json ...] [ceiling.json]
writes OUT_DIR/layernorm.png (default bench/layernorm) and prints the
tables of results.md (bench.py prints them too).  A ceiling.py file adds
to the forward's panels the fastest of its copies of the same bytes (the
median of its rounds) at each N it measured.  The figures of a later
file (a run of some N only, LN_NS, or of the forward alone, LN_DIRS)
replace those of earlier files for the same provider, dtype and N; the
others stay.  The figure's forward is on the copy's footing (y kept) where
a run measured it."""
import json
import os
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def right(row, mode):
    """Whether the provider's check passed for this direction: y for the
    forward, dx, dw and db for the backward (all four in rows without
    errors, as a run whose provider failed to run gives)."""
    errors = row.get("errors")
    if not errors:
        return row.get("ok", False)
    tol = 1e-2 if row["dtype"] == "float16" else 1e-4
    return all(e < tol for e in (errors[:1] if mode.startswith("fwd") else errors[1:]))


def render(data, names):
    """The tables of results.md: graph replays first (the forward twice:
    y dropped after each call, and y kept, the copy's footing), then
    launched from Python; a table without figures (an older run, or a run
    of the forward alone) is left out."""
    rows = data["rows"]
    NS = sorted({r["N"] for r in rows})
    lines = [f"device: {data['device']}; M = {data['M']}; copy bandwidth of a 1 GiB copy: "
             f"{data['copy_gbs']:.0f} GB/s as graph replays, {data['copy_gbs_python']:.0f} GB/s "
             "launched from Python (L2 flushed); 'copy' below: the same-sized copy (x to y) "
             "on the graph's input sets and the table's footing (y dropped: its output "
             "allocated in each call; y kept: K outputs; in runs before s6, K outputs in both); "
             "'liblego / 1 GiB copy': against the 1 GiB copy of the run that measured the row's forward", ""]
    hows = {"fwd": "CUDA-graph replays, input sets rotated past L2; y dropped after each call",
            "fwd_kept": "CUDA-graph replays, input sets rotated past L2; each call's y kept, as the copy's",
            "bwd": "CUDA-graph replays, input sets rotated past L2"}
    for suffix in ("", "_python"):
        for mode in ("fwd", "fwd_kept", "bwd") if not suffix else ("fwd", "bwd"):
            for dtype in ("float16", "float32"):
                if not any(f"{mode}{suffix}_gbs" in r for r in rows if r["dtype"] == dtype):
                    continue
                how = hows[mode] if not suffix else "launched from Python, L2 flushed"
                extra = (["copy", "liblego / copy", "liblego / 1 GiB copy"]
                         if mode.startswith("fwd") and not suffix else [])
                cfg_name = ("fwd (BM, warps, G, stages, TMA, WB)" if mode.startswith("fwd")
                            else "bwd (BM, warps, stages, G, S, BK)")
                heads = ["N", *names, "liblego / best other", *extra]
                heads += [f"ours {cfg_name.split(' ', 1)[1]}"] if not suffix else []
                lines += [f"{mode[:3]} {dtype}, GB/s (median; {how})",
                          "| " + " | ".join(heads) + " |", "|---" * len(heads) + "|"]
                for N in NS:
                    got = {r["provider"]: r for r in rows if r["dtype"] == dtype and r["N"] == N}
                    cells, others = [], []
                    for p in names:
                        r = got.get(p, {})
                        v = r.get(f"{mode}{suffix}_gbs")
                        cells.append((f"{v:.0f}" + ("" if right(r, mode) else " (wrong)")) if v else "n/a")
                        if v and p != "liblego":
                            others.append(v)
                    ours = got.get("liblego", {})
                    mine = ours.get(f"{mode}{suffix}_gbs")
                    cells.append(f"{mine / max(others):.2f}" if mine and others else "-")
                    if extra:  # the copy on the table's footing
                        copy = ours.get("copy_gbs" if mode == "fwd_kept" else "copy_dropped_gbs",
                                        ours.get("copy_gbs"))
                        cells += [f"{copy:.0f}" if copy else "-",
                                  f"{mine / copy:.2f}" if mine and copy else "-",
                                  f"{mine / ours.get('copy_1gib_gbs', data['copy_gbs']):.2f}" if mine else "-"]
                    if not suffix:
                        # Earlier runs named (BM, warps, stages, G) for the backward (S = 1,
                        # BK = N) and (BM, warps), (BM, warps, G, stages) or, before s10,
                        # (BM, warps, G, stages, TMA) for the forward (G = 0, 1 stage, no
                        # TMA, WB = 0).
                        cfg = next((list(v) + [1, N][len(v) - 4:] if mode == "bwd" else list(v) + [0, 1, 0, 0][len(v) - 2:]
                                    for k, v in ours.get("config", {}).items()
                                    if k.startswith(mode[:3])), None)
                        cells.append(str(tuple(cfg)) if cfg else "-")
                    lines.append(f"| {N} | " + " | ".join(cells) + " |")
                lines.append("")
    return "\n".join(lines)


def fastest(ceiling, ours=False):
    """GB/s of the fastest copy (or, `ours`, of our fastest forward), median
    over the rounds, at each of a ceiling.py file's cells ('float16 2048')."""
    best = {}
    for cell, name, ms in ceiling["times_ms"]:  # ms: one a round
        if cell != "1 GiB" and name != "memcpy, stream" and name.startswith("ours") == ours:
            best[cell] = min(best.get(cell, float("inf")), statistics.median(ms))
    return {cell: ceiling["bytes"][cell] / ms / 1e6 for cell, ms in best.items()}


def main():
    args = sys.argv[1:]
    out = os.path.dirname(os.path.abspath(__file__))
    if args[:1] == ["-o"]:
        out, args = args[1], args[2:]
    runs = [json.load(open(a)) for a in args]
    ceilings = [r for r in runs if "times_ms" in r]
    runs = [r for r in runs if "times_ms" not in r]
    rows = {}
    for run, r in ((run, r) for run in runs for r in run["rows"]):
        if "fwd_gbs" in r:  # the forward's figures against its own run's 1 GiB copy
            r = dict(r, copy_1gib_gbs=run["copy_gbs"])
        old = rows.setdefault((r["provider"], r["dtype"], r["N"]), {})
        new = {k: v for k, v in r.get("config", {}).items() if v}  # a direction's, by its key's prefix
        config = {**{k: v for k, v in old.get("config", {}).items() if k[:3] not in {n[:3] for n in new}}, **new}
        errors = list(r.get("errors") or [])
        if errors and "bwd_gbs" not in r and old.get("errors"):  # the forward alone: y's error
            errors[1:] = old["errors"][1:]
        old.update(r, **({"config": config} if config else {}), **({"errors": errors} if errors else {}))
    data = dict(runs[-1], rows=list(rows.values()))
    names = list(dict.fromkeys(r["provider"] for r in data["rows"]))
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for i, mode in enumerate(("fwd", "bwd")):
        for j, dtype in enumerate(("float16", "float32")):
            ax = axes[i][j]
            key = lambda r: f"{mode}_kept_gbs" if f"{mode}_kept_gbs" in r else f"{mode}_gbs"  # noqa: E731
            for name in names:
                pts = [(r["N"], r[key(r)]) for r in data["rows"]
                       if r["provider"] == name and r["dtype"] == dtype and key(r) in r]
                if pts:
                    ax.plot(*zip(*sorted(pts)), marker="o", label=name, lw=2.5 if name == "liblego" else 1.2)
            if mode == "fwd":
                pts = [(r["N"], r["copy_gbs"]) for r in data["rows"]
                       if r["provider"] == "liblego" and r["dtype"] == dtype and "copy_gbs" in r]
                ax.plot(*zip(*sorted(pts)), color="k", ls="--", lw=0.8, label="copy, same size")
                ax.axhline(0.85 * data["copy_gbs"], color="grey", ls=":", lw=1,
                           label="0.85x the 1 GiB copy (the target)")
                for ours, color, label in ((False, "k", "fastest of ceiling.py's copies"),
                                           (True, "tab:blue", "liblego, fastest in ceiling.py's rounds")):
                    pts = [(int(cell.split()[1]), gbs) for c in ceilings
                           for cell, gbs in fastest(c, ours).items() if cell.split()[0] == dtype]
                    if pts:
                        ax.plot(*zip(*sorted(pts)), color=color, marker="x", ls="none", label=label)
            ax.set_xscale("log", base=2)
            ax.set_title(f"{'forward (y kept, as the copy)' if mode == 'fwd' else 'backward'}, {dtype}")
            ax.set_xlabel("N (M = 4096)")
            ax.set_ylabel("GB/s")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Layer normalisation, {data['device']}, CUDA-graph replays (higher is better)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "layernorm.png"), dpi=110)
    print(render(data, names))


if __name__ == "__main__":
    main()
