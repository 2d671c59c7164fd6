"""Figure and table of the LUD study from the logs of the device run:
  python3 bench/lud/plot.py lud.log lud-authors.log [OUT_DIR]
writes OUT_DIR/lud.png (default bench/lud) and prints the markdown table of
bench/lud/results.md (ms for the whole factorisation, median of 5)."""
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SIZES = (4096, 8192, 16384)
THEIRS = ["lud-orig16", "lud-orig32", "lud-lego2", "lud-lego4", "lud-lego8", "lud-lego16"]
LABEL = {"lud-orig16": "Rodinia WG 16", "lud-orig32": "Rodinia WG 32",
         "lud-lego2": "authors R2", "lud-lego4": "authors R4", "lud-lego8": "authors R8",
         "lud-lego16": "authors R16"}


def parse(ours_log, theirs_log):
    ours = {}
    for m in re.finditer(r"lud n=(\d+)\s+R=(\d+)\s+(\S+)\s+(ok|WRONG)\s+median\s+([\d.]+) ms",
                         open(ours_log).read()):
        n, r, tiles, status, ms = m.groups()
        if status == "ok":
            ours[(f"ours R{r}" + ("" if tiles == "padded" else f" {tiles}"), int(n))] = float(ms)
    theirs = {}
    name = n = None
    for line in open(theirs_log):
        h = re.match(r"== (\S+) -s (\d+)", line)
        if h:
            name, n = h.group(1), int(h.group(2))
        m = re.search(r"median=([\d.]+)", line)
        if m and name:
            theirs[(LABEL[name], n)] = float(m.group(1))
    return ours, theirs


def table(ours, theirs):
    names_t = [LABEL[t] for t in THEIRS]
    names_o = sorted({k for k, _ in ours}, key=lambda s: (len(s), s))
    rows = ["| n | " + " | ".join(names_t + names_o) + " | best ours / best theirs |",
            "|---" * (len(names_t) + len(names_o) + 2) + "|"]
    for n in SIZES:
        cells = [theirs.get((k, n)) for k in names_t] + [ours.get((k, n)) for k in names_o]
        bt = min(v for v in cells[:len(names_t)] if v) if any(cells[:len(names_t)]) else None
        bo = min(v for v in cells[len(names_t):] if v) if any(cells[len(names_t):]) else None
        ratio = f"{bt / bo:.2f}x" if bt and bo else "-"
        rows.append(f"| {n} | " + " | ".join(f"{v:.2f}" if v else "-" for v in cells)
                    + f" | {ratio} |")
    return "\n".join(rows)


def figure(ours, theirs, path):
    names = [LABEL[t] for t in THEIRS] + sorted({k for k, _ in ours}, key=lambda s: (len(s), s))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.5))
    for ax, n in zip(axes, SIZES):
        vals = [theirs.get((k, n)) or ours.get((k, n)) or 0 for k in names]
        colors = ["tab:gray" if k.startswith("Rodinia") else "tab:orange" if k.startswith("authors")
                  else "tab:blue" for k in names]
        ax.barh(range(len(names)), vals, color=colors)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("ms, whole factorisation")
        ax.set_title(f"n = {n}")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("LU decomposition, H100 (lower is better): Rodinia (grey), the authors' LEGO "
                 "(orange), ours from lud.cuh.tpl (blue)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    ours, theirs = parse(sys.argv[1], sys.argv[2])
    out = sys.argv[3] if len(sys.argv) > 3 else os.path.dirname(os.path.abspath(__file__))
    figure(ours, theirs, os.path.join(out, "lud.png"))
    print(table(ours, theirs))
