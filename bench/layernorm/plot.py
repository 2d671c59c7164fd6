"""Figure and tables of the layernorm study from bench.py's layernorm.json:
  python3 bench/layernorm/plot.py [-o OUT_DIR] layernorm.json [later.json ...]
writes OUT_DIR/layernorm.png (default bench/layernorm) and prints the
tables of results.md (bench.py prints them too).  Rows of a later file
(a run of some N only, LN_NS) replace those of earlier files for the same
provider, dtype and N."""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def render(data, names):
    """The tables of results.md: graph replays first, then launched from Python."""
    rows = data["rows"]
    NS = sorted({r["N"] for r in rows})
    lines = [f"device: {data['device']}; M = {data['M']}; copy bandwidth of a 1 GiB copy: "
             f"{data['copy_gbs']:.0f} GB/s as graph replays, {data['copy_gbs_python']:.0f} GB/s "
             "launched from Python (L2 flushed); 'copy' below: the same-sized copy (x to y) "
             "on the graph's input sets", ""]
    for how, suffix in (("CUDA-graph replays, input sets rotated past L2", ""),
                        ("launched from Python, L2 flushed", "_python")):
        for mode in ("fwd", "bwd"):
            for dtype in ("float16", "float32"):
                extra = ["copy", "liblego / copy"] if mode == "fwd" and not suffix else []
                cfg_name = "fwd (BM, warps, G, stages)" if mode == "fwd" else "bwd (BM, warps, stages, G, S, BK)"
                heads = ["N", *names, "liblego / best other", *extra]
                heads += [f"ours {cfg_name.split(' ', 1)[1]}"] if not suffix else []
                lines += [f"{mode} {dtype}, GB/s (median; {how})",
                          "| " + " | ".join(heads) + " |", "|---" * len(heads) + "|"]
                for N in NS:
                    got = {r["provider"]: r for r in rows if r["dtype"] == dtype and r["N"] == N}
                    cells, others = [], []
                    for p in names:
                        r = got.get(p, {})
                        v = r.get(f"{mode}{suffix}_gbs")
                        cells.append((f"{v:.0f}" + ("" if r.get("ok") else " (wrong)")) if v else "n/a")
                        if v and p != "liblego":
                            others.append(v)
                    ours = got.get("liblego", {})
                    mine = ours.get(f"{mode}{suffix}_gbs")
                    cells.append(f"{mine / max(others):.2f}" if mine and others else "-")
                    if extra:
                        copy = ours.get("copy_gbs")
                        cells += [f"{copy:.0f}" if copy else "-",
                                  f"{mine / copy:.2f}" if mine and copy else "-"]
                    if not suffix:
                        # Earlier runs named (BM, warps, stages, G) for the backward (S = 1,
                        # BK = N) and (BM, warps) for the forward (G = 0, 1 stage).
                        cfg = next((list(v) + [1, N][len(v) - 4:] if mode == "bwd" else list(v) + [0, 1][len(v) - 2:]
                                    for k, v in ours.get("config", {}).items()
                                    if k.startswith(mode)), None)
                        cells.append(str(tuple(cfg)) if cfg else "-")
                    lines.append(f"| {N} | " + " | ".join(cells) + " |")
                lines.append("")
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    out = os.path.dirname(os.path.abspath(__file__))
    if args[:1] == ["-o"]:
        out, args = args[1], args[2:]
    runs = [json.load(open(a)) for a in args]
    rows = {(r["provider"], r["dtype"], r["N"]): r for run in runs for r in run["rows"]}
    data = dict(runs[-1], rows=list(rows.values()))
    names = list(dict.fromkeys(r["provider"] for r in data["rows"]))
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for i, mode in enumerate(("fwd", "bwd")):
        for j, dtype in enumerate(("float16", "float32")):
            ax = axes[i][j]
            for name in names:
                pts = [(r["N"], r[f"{mode}_gbs"]) for r in data["rows"]
                       if r["provider"] == name and r["dtype"] == dtype and f"{mode}_gbs" in r]
                if pts:
                    ax.plot(*zip(*sorted(pts)), marker="o", label=name, lw=2.5 if name == "liblego" else 1.2)
            if mode == "fwd":
                pts = [(r["N"], r["copy_gbs"]) for r in data["rows"]
                       if r["provider"] == "liblego" and r["dtype"] == dtype and "copy_gbs" in r]
                ax.plot(*zip(*sorted(pts)), color="k", ls="--", lw=0.8, label="copy, same size")
            ax.set_xscale("log", base=2)
            ax.set_title(f"{'forward' if mode == 'fwd' else 'backward'}, {dtype}")
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
