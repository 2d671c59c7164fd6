"""table.py compare.json - the study's table (Markdown): the tuned kernel's
TFLOP/s and its speed relative to each baseline (baseline time / tuned
time: above 1 the tuned kernel is faster), with the issue's targets."""
import json
import sys


def main():
    rows = json.load(open(sys.argv[1]))
    print("| cell | tuned config | tuned TFLOP/s | vs hand | vs gen@hand | "
          "vs autotune | vs cuBLAS | targets |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "ms" not in r:
            print(f"| {r['v']} {r['M']}x{r['N']}x{r['K']} | failed: {r['failed']} |")
            continue
        ms, t = r["ms"], r["ms"]["tuned"]
        flop = 2 * r["M"] * r["N"] * r["K"]
        x = {k: ms[k] / t for k in ("hand", "gen@hand", "autotune", "cuBLAS")}
        floor = 0.85 if r["M"] in (1000, 4097) else 0.90
        missed = [k for k in ("hand", "autotune") if x[k] < 1.0]
        if x["cuBLAS"] < floor:
            missed.append(f"cuBLAS < {floor}")
        c = r["tuned"]
        cfg = f"{c['BM']}x{c['BN']}x{c['BK']} GM{c['GM']} s{c['STAGES']} w{c['WARPS']}"
        print(f"| {r['v']} {r['M']}x{r['N']}x{r['K']} | {cfg} | "
              f"{flop / (t * 1e-3) / 1e12:.0f} | "
              + " | ".join(f"{x[k]:.2f}" for k in ("hand", "gen@hand", "autotune", "cuBLAS"))
              + f" | {'met' if not missed else 'missed: ' + ', '.join(missed)} |")


if __name__ == "__main__":
    main()
