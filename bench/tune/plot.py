"""plot.py OUT.png [LABEL=]HISTORY.csv ... - the convergence of `lego tune`
runs: the best time so far against evaluations, one line per history
(the CSV of `lego tune --csv`), normalised by the best of all of them."""
import csv
import sys


def read(path):
    evals, best = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["best_ms"]:
                evals.append(int(row["eval"]))
                best.append(float(row["best_ms"]))
    return evals, best


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = []
    for arg in sys.argv[2:]:
        label, _, path = arg.rpartition("=")
        runs.append((label or path, *read(path)))
    floor = min(min(b) for _, _, b in runs if b)
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, evals, best in runs:
        ax.step(evals, [b / floor for b in best], where="post", label=label)
    ax.axhline(1.02, color="grey", lw=0.8, ls="--", label="within 2%")
    ax.set_xlabel("evaluations")
    ax.set_ylabel("best time so far / best time")
    ax.set_ylim(0.98, 1.6)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=120)


if __name__ == "__main__":
    main()
