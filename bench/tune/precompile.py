"""precompile.py LIST [JOBS] - fills Triton's disk cache before a tuning
run, in a pool of processes: each line of LIST is `KERNEL.py v M N K BM BN
BK GM STAGES WARPS`; each kernel is launched once on its problem (which
compiles it).  The tuning run then measures without compiling, one
candidate at a time.  Prints how many compiled and failed."""
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def work(lines):
    import torch
    import triton
    import triton_runner as tr
    cells, fails = {}, 0
    for line in lines:
        path, v, M, N, K, BM, BN, BK, GM, ST, W = line.split()
        M, N, K = int(M), int(N), int(K)
        cfg = dict(BM=int(BM), BN=int(BN), BK=int(BK), GM=int(GM),
                   STAGES=int(ST), WARPS=int(W))
        try:
            key = (v, M, N, K)
            if key not in cells:
                cells.clear()
                cells[key] = tr.inputs(torch, *key)
            tr.launcher(torch, triton, tr.load_kernel(path), cells[key],
                        M, N, K, cfg)()
        except Exception:                 # measured (and recorded) later
            fails += 1
    torch.cuda.synchronize()
    return len(lines), fails


def main():
    lines = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    # Consecutive lines share a problem: give each worker a run of them.
    n = len(lines)
    chunks = [lines[i * n // jobs:(i + 1) * n // jobs] for i in range(jobs)]
    t0 = time.time()
    with mp.get_context("spawn").Pool(jobs) as pool:
        res = pool.map(work, [c for c in chunks if c])
    n = sum(r[0] for r in res)
    print(f"precompile: {n} kernels, {sum(r[1] for r in res)} failed, "
          f"{time.time() - t0:.1f} s with {jobs} processes", flush=True)


if __name__ == "__main__":
    main()
