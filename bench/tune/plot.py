"""plot.py HISTORY.csv OUT.png - the convergence of a `lego tune` run:
best time so far against evaluations (the CSV of `lego tune --csv`)."""
import csv
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py HISTORY.csv OUT.png")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    evals, best = [], []
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            if row["best_ms"]:
                evals.append(int(row["eval"]))
                best.append(float(row["best_ms"]))
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(evals, best, where="post")
    ax.set_xlabel("evaluations")
    ax.set_ylabel("best time so far (ms)")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
