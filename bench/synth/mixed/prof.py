# prof.py - one call of one instance of our kernel at one shape, for ncu:
#   ncu --clock-control none -k regex:w4a16 --section ... python3 prof.py N K M NAME..
# (each NAME as bench.py prints it, e.g. "gemv 1x1x2x0").  Checked against the
# reference first, as bench.py checks.
import sys

import torch

import bench


def main():
    n, k, m = map(int, sys.argv[1:4])
    cfgs = dict((nm, i) for i, nm in bench.our_configs())
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    a, q, s, wdeq = bench.problem(m, n, k)
    ref = a.float() @ wdeq.float()
    words, sc = bench.pack_ours(q), bench.scales_ours(s)
    for name in sys.argv[4:]:
        cfg = cfgs[name]
        ws = bench.workspace(m, n, k, cfg)
        rel, ok = bench.check(lambda c: bench.ours(a, words, sc, c, cfg, ws), ref)
        print(f"{n} x {k}, M = {m}, {name}: rel err {rel:.1e} {'ok' if ok else 'WRONG'}")


main()
