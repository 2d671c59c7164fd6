"""Figure of the layernorm study from bench.py's layernorm.json:
  python3 bench/layernorm/plot.py layernorm.json [OUT_DIR]
writes OUT_DIR/layernorm.png (default bench/layernorm)."""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    data = json.load(open(sys.argv[1]))
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
    names = list(dict.fromkeys(r["provider"] for r in data["rows"]))
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for i, mode in enumerate(("fwd", "bwd")):
        for j, dtype in enumerate(("float16", "float32")):
            ax = axes[i][j]
            for name in names:
                pts = [(r["N"], r[f"{mode}_gbs"]) for r in data["rows"]
                       if r["provider"] == name and r["dtype"] == dtype and f"{mode}_gbs" in r]
                if pts:
                    ax.plot(*zip(*pts), marker="o", label=name, lw=2.5 if name == "liblego" else 1.2)
            if mode == "fwd":
                ax.axhline(data["copy_gbs"], color="k", ls="--", lw=0.8, label="device copy")
            ax.set_xscale("log", base=2)
            ax.set_title(f"{'forward' if mode == 'fwd' else 'backward'}, {dtype}")
            ax.set_xlabel("N (M = 4096)")
            ax.set_ylabel("GB/s")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Layer normalisation, {data['device']} (higher is better)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "layernorm.png"), dpi=110)


if __name__ == "__main__":
    main()
