"""The forward at one N and dtype measured again, every provider and the
copy interleaved in R rounds on both footings (bench.py's fwd and fwd_kept,
copy_dropped and copy), so that a difference can be set against the spread
of one measure: prints each one's median, min and max over the rounds.
Usage: python3 bench/layernorm/repeat.py AUTHORS_LAYERNORM_PY N dtype R [fwd config ...]
(a config as BM,warps,G,stages,tma)."""
import statistics
import sys

import torch

import bench
import ops
import tutorial


def main():
    path, N, dtype, rounds = sys.argv[1], int(sys.argv[2]), getattr(torch, sys.argv[3]), int(sys.argv[4])
    configs = [tuple(int(v) for v in a.split(",")) for a in sys.argv[5:]]
    sets = bench.Sets(dtype, N)
    fns = {f"liblego {c}": (lambda c: lambda x, w, b: ops.layer_norm(x, w, b, fwd=c))(c) for c in configs}
    fns.update(tutorial=tutorial.layer_norm, authors=bench.authors(path),
               torch=lambda x, w, b: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5))
    x, w, b, _ = bench.inputs(dtype, N, seed=1000)
    yref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
    for name, fn in fns.items():
        print(f"{name}: y error {bench.rel(fn(x, w, b), yref):.1e}")
    times = {}
    for _ in range(rounds):
        for name, fn in fns.items():
            times.setdefault((name, "dropped"), []).append(bench.graph_ms(sets.fwd(fn)))
            times.setdefault((name, "kept"), []).append(bench.graph_ms(sets.fwd_kept(fn)))
        for footing, make in (("dropped", sets.copy_dropped), ("kept", sets.copy)):
            times.setdefault(("copy", footing), []).append(min(bench.graph_ms(make(op)) for op in bench.COPIES))
    size = 2 * bench.M * N * x.element_size()
    big = bench.copy_bandwidth()[1]
    print(f"{torch.cuda.get_device_name()}: N = {N}, {sys.argv[3]}, {rounds} rounds; "
          f"1 GiB copy {big:.0f} GB/s (graph replays)")
    print("| footing | kernel | median us | min | max | GB/s (median) | / 1 GiB copy |")
    print("|---|---|---|---|---|---|---|")
    for (name, footing), ts in sorted(times.items(), key=lambda t: (t[0][1], statistics.median(t[1]))):
        med = statistics.median(ts)
        print(f"| {footing} | {name} | {med * 1e3:.1f} | {min(ts) * 1e3:.1f} | {max(ts) * 1e3:.1f} | "
              f"{size / med / 1e6:.0f} | {size / med / 1e6 / big:.3f} |")


if __name__ == "__main__":
    main()
