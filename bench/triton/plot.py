"""The figure of the Triton benchmark, like figure 12 of the LEGO paper:
TFLOP/s (GB/s for softmax) against the size, square powers of two, one
panel per GEMM layout (FP16), FP8 ABt, softmax and grouped GEMM.  Free of
torch: python3 bench/triton/plot.py results.json fig.png  redraws it."""
import json
import sys

import configs


COLORS = {"cuBLAS": "black", "torch": "black", "copy": "gray", "hand": "tab:blue",
          "gen": "tab:orange", "gen-inc": "tab:purple", "hand-tma": "tab:green",
          "gen-tma": "tab:red", "hand-tma-s4": "tab:olive", "gen-tma-s4": "tab:brown"}


def plot(rows, path, device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 4, figsize=(20, 9))
    panels = [("gemm-fp16", v) for v, _, _ in configs.LAYOUTS] + \
        [("gemm-e5m2", "abt"), ("gemm-e4m3", "abt"), ("softmax", "row"), ("grouped", "row")]
    for ax, (sec, lay) in zip(axes.flat, panels):
        rs = [r for r in rows if r["section"] == sec and r["layout"] == lay and
              (sec == "softmax" or r["M"] == r["N"] == r["K"] and not r["N"] & (r["N"] - 1))]
        rs.sort(key=lambda r: r["N"])
        names = sorted({k for r in rs for k in r["times"]})
        for name in names:
            xs = [r["N"] for r in rs if name in r["times"]]
            if sec == "softmax":
                ys = [r["bytes"] / r["times"][name] / 1e6 for r in rs if name in r["times"]]
            else:
                ys = [r["flops"] / r["times"][name] / 1e9 for r in rs if name in r["times"]]
            ax.plot(xs, ys, marker="o", label=name, color=COLORS.get(name),
                    linestyle="--" if name.startswith("hand") else "-")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{sec} {lay}")
        ax.set_xlabel("N (columns)" if sec == "softmax" else "size")
        ax.set_ylabel("GB/s" if sec == "softmax" else "TFLOP/s")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"liblego generated Triton vs hand-written and vendor, {device}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    data = json.load(open(sys.argv[1]))
    plot(data["rows"], sys.argv[2], data["device"])
