"""Figure and table of the stencil study from the logs of the device runs:
  python3 bench/stencil/plot.py [-o OUT_DIR] LOG...
reads ours (stencil_bench's lines) and the authors' (their programs' output,
its "Dims: NX=N" line giving N) from every log, a later log's figures
replacing an earlier one's for the same kernel and N; writes
OUT_DIR/stencil.png (default bench/stencil) and prints the markdown table of
bench/stencil/results.md (ms per launch, speed-ups)."""
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OURS = re.compile(r"(cube|star)\s+N=(\d+) R=(\d) (\S+)\s+(row-major|bricks)\s+(direct|tiled|ghost)\s+"
                  r"(ok|WRONG)\s+([\d.]+) ms(?:.*?with it ([\d.]+) ms)?")
THEIRS = re.compile(r"(f3d|laplacian)_(naive|bricks)\s*:.*\(([\d.]+) ms / launch\)")


def parse(logs):
    ours, theirs = {}, {}
    for log in logs:
        for m in OURS.finditer(open(log).read()):
            kind, n, r, shape, _, variant, status, ms, with_fill = m.groups()
            ours[(kind, int(n), int(r), shape, variant)] = (float(ms), status == "ok")
            if with_fill:  # the ghost-zone kernel with its fill
                ours[(kind, int(n), int(r), shape, "ghost+fill")] = (float(with_fill), status == "ok")
        r = n = None
        for line in open(log):
            h = re.match(r"Dims: NX=(\d+) .*\| radius=(\d)", line)
            if h:
                n, r = int(h.group(1)), int(h.group(2))
            m = THEIRS.search(line)
            if m:
                kind = "cube" if m.group(1) == "f3d" else "star"
                theirs[(kind, n, r, m.group(2))] = float(m.group(3))
    return ours, theirs


def best(ours, kind, n, r, bricks, variants=("direct", "tiled")):
    """The fastest correct kernel: (ms, "shape variant") over the brick
    shapes (bricks) or the row-major grid, among the given variants."""
    found = [(ms, f"{s} {v}") for (k, nn, rr, s, v), (ms, ok) in ours.items()
             if (k, nn, rr) == (kind, n, r) and (s != "1x1x1") == bricks and v in variants and ok]
    return min(found) if found else (None, None)


def table(ours, theirs):
    rows = ["| stencil | N | R | authors' naive | authors' bricks (inexact) | ours row-major "
            "direct | ours row-major best | ours bricks best (shape, variant) | ghost kernel; "
            "with fill (shapes) | bricks / authors' naive | bricks / authors' bricks | bricks / "
            "row-major direct | bricks / row-major best | ghost kernel / row-major best |",
            "|---" * 14 + "|"]
    f = lambda v: f"{v:.3f}" if v else "-"  # noqa: E731
    q = lambda a, b: f"{a / b:.2f}x" if a and b else "-"  # noqa: E731
    for kind in ("cube", "star"):
        for n in (384, 512):
            for r in (1, 2, 3, 4):
                direct = best(ours, kind, n, r, False, ("direct",))[0]
                row, rname = best(ours, kind, n, r, False)
                ms, shape = best(ours, kind, n, r, True)
                gms, gshape = best(ours, kind, n, r, True, ("ghost",))
                gfill, fshape = best(ours, kind, n, r, True, ("ghost+fill",))
                tn, tb = theirs.get((kind, n, r, "naive")), theirs.get((kind, n, r, "bricks"))
                rows.append(f"| {kind} | {n} | {r} | {f(tn)} | {f(tb)} | {f(direct)} | {f(row)} "
                            f"({rname.split()[1] if rname else '-'}) | {f(ms)} ({shape}) | {f(gms)} "
                            f"({gshape.split()[0] if gshape else '-'}); {f(gfill)} "
                            f"({fshape.split()[0] if fshape else '-'}) | {q(tn, ms)} | "
                            f"{q(tb, ms)} | {q(direct, ms)} | {q(row, ms)} | {q(row, gms)} |")
    return "\n".join(rows)


def figure(ours, theirs, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    width = 0.12
    for i, kind in enumerate(("cube", "star")):
        for j, n in enumerate((384, 512)):
            ax = axes[i][j]
            series = [("authors' naive (row-major)", lambda r: theirs.get((kind, n, r, "naive"))),
                      ("authors' bricks (inexact)", lambda r: theirs.get((kind, n, r, "bricks"))),
                      ("ours, row-major direct", lambda r: best(ours, kind, n, r, False, ("direct",))[0]),
                      ("ours, row-major tiled", lambda r: best(ours, kind, n, r, False, ("tiled",))[0]),
                      ("ours, bricks (exact; best shape, direct or tiled)",
                       lambda r: best(ours, kind, n, r, True)[0]),
                      ("ours, ghost-zone bricks, kernel alone", lambda r: best(ours, kind, n, r, True, ("ghost",))[0]),
                      ("ours, ghost-zone bricks, kernel + fill",
                       lambda r: best(ours, kind, n, r, True, ("ghost+fill",))[0])]
            for k, (label, get) in enumerate(series):
                xs = [r + (k - 3) * width for r in (1, 2, 3, 4) if get(r)]
                ys = [get(r) for r in (1, 2, 3, 4) if get(r)]
                ax.bar(xs, ys, width, label=label)
            ax.set_yscale("log")
            ax.set_title(f"{'cube (2R+1)^3' if kind == 'cube' else 'star 6R+1'}, N = {n}")
            ax.set_xticks([1, 2, 3, 4])
            ax.set_xlabel("radius R")
            ax.set_ylabel("ms per launch (log)")
            ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("3-D stencils, H100 (lower is better); the authors' programs at 512^3: "
                 "their literals rewritten (authors_at.sh)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    args = sys.argv[1:]
    out = os.path.dirname(os.path.abspath(__file__))
    if args[:1] == ["-o"]:
        out, args = args[1], args[2:]
    ours, theirs = parse(args)
    figure(ours, theirs, os.path.join(out, "stencil.png"))
    print(table(ours, theirs))
