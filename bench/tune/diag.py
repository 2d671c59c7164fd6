"""diag.py DIR - is a configuration's speed the kernel's or the moment's?
For a few cells of the study, the kernel `lego gen` specialised for a
configuration and the committed generic kernel at the same configuration,
timed in 5 interleaved rounds of do_bench (median of the rounds), and each
once more alone as the tuning run measured it.  DIR holds the specialised
kernels: DIR/<v>_<M>_<cfg index>.py, listed in DIR/list as
`v M N K file BM BN BK GM STAGES WARPS`."""
import os
import statistics
import sys

import torch
import triton
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import triton_runner as tr  # noqa: E402


def main():
    d = sys.argv[1]
    rows = [l.split() for l in open(os.path.join(d, "list")) if l.strip()]
    cells = {}
    for v, M, N, K, path, *vals in rows:
        cells.setdefault((v, int(M), int(N), int(K)), []).append((path, vals))
    for (v, M, N, K), items in cells.items():
        bufs = tr.inputs(torch, v, M, N, K)
        gen = tr.load_kernel(os.path.join(ROOT, "examples", "triton",
                                          f"matmul_{v}.py"))
        p = {}
        for path, vals in items:
            cfg = dict(zip(["BM", "BN", "BK", "GM", "STAGES", "WARPS"],
                           map(int, vals)))
            tag = "x".join(vals)
            p["spec " + tag] = tr.launcher(torch, triton, tr.load_kernel(path),
                                           bufs, M, N, K, cfg)
            p["gen  " + tag] = tr.launcher(torch, triton, gen, bufs, M, N, K, cfg)
        for run in p.values():
            tr.check(torch, run, bufs)
        times = {k: [] for k in p}
        for r in range(5):
            for k in (list(p) if r % 2 == 0 else list(reversed(list(p)))):
                times[k].append(triton.testing.do_bench(
                    p[k], warmup=10, rep=40, return_mode="median"))
        flop = 2 * M * N * K
        for k, t in times.items():
            med = statistics.median(t)
            print(f"{v} {M}x{N}x{K} {k}: {med:.4f} ms "
                  f"({flop / med / 1e9:.0f} TFLOP/s), rounds "
                  + " ".join(f"{x:.4f}" for x in t), flush=True)


if __name__ == "__main__":
    main()
