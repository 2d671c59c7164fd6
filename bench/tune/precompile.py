"""precompile.py LIST [JOBS] [--ordered] - fills Triton's disk cache before a tuning
run, in a pool of processes: each line of LIST is `KERNEL.py v M N K BM BN
BK GM STAGES WARPS`; each kernel is launched once on its problem (which
compiles it).  The tuning run then measures without compiling, one
candidate at a time (or beside it, --ordered: study.sh's OVERLAP=1, for a
graph-timed run, which the host's load does not disturb).  Prints how many compiled and failed."""
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def work(lines):
    import torch
    fails = sum(not compile_one(line) for line in lines)
    torch.cuda.synchronize()
    return len(lines), fails


CELLS = {}                # a worker's inputs, one problem at a time


def compile_one(line):
    import torch
    import triton
    import triton_runner as tr
    path, v, M, N, K, BM, BN, BK, GM, ST, W = line.split()
    M, N, K = int(M), int(N), int(K)
    cfg = dict(BM=int(BM), BN=int(BN), BK=int(BK), GM=int(GM),
               STAGES=int(ST), WARPS=int(W))
    try:
        key = (v, M, N, K)
        if key not in CELLS:
            CELLS.clear()
            CELLS[key] = tr.inputs(torch, *key)
        tr.launcher(torch, triton, tr.load_kernel(path), CELLS[key],
                    M, N, K, cfg)()
        return True
    except Exception:                     # measured (and recorded) later
        return False


def main():
    lines = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    # --ordered: in the list's order, all workers at its head (a tuning
    # run started beside it finds its first candidates compiled);
    # otherwise consecutive lines share a problem: each worker a run.
    ordered = sys.argv[3:] == ["--ordered"]
    n = len(lines)
    chunks = [lines[i * n // jobs:(i + 1) * n // jobs] for i in range(jobs)]
    t0 = time.time()
    with mp.get_context("spawn").Pool(jobs) as pool:
        if ordered:
            ok = list(pool.imap(compile_one, lines, chunksize=2))
            res = [(len(ok), ok.count(False))]
        else:
            res = pool.map(work, [c for c in chunks if c])
    n = sum(r[0] for r in res)
    print(f"precompile: {n} kernels, {sum(r[1] for r in res)} failed, "
          f"{time.time() - t0:.1f} s with {jobs} processes", flush=True)


if __name__ == "__main__":
    main()
