"""compare.py CELLS DIR - the tuned kernels side by side with the hand-picked
configuration (bench/triton/configs.py) of the hand-written kernel and of
the committed generated kernel, @triton.autotune over the tuner's space,
and cuBLAS.  Each line of CELLS is `v M N K SPACE TUNED [NAME=V ..]`:
SPACE lists the configurations (`lego tune --list`), TUNED is the kernel
`lego gen --tuned` wrote with the best configuration, whose values are on
its first line, and NAME=V the parameters fixed by -D.
All are checked against torch.matmul, then timed twice, each in 3
interleaved rounds (median of the rounds): per call, as the tuner's
runner times (triton_runner.bench: the host's time of a launch counts,
Python for the Triton kernels, C++ for cuBLAS), and from a CUDA graph
(triton_runner.graph_bench: n calls replayed, no host launch for any
provider).  The two are kept apart (ms, graph_ms); a ratio never mixes
them.  A third, per call only (bound_ms): the tuned kernel launched
through its compiled launcher with the arguments pre-bound (choice.py's
lego_bind), as a caller's hot loop would, in the same rounds.  Writes DIR/compare.json and prints a table."""
import json
import os
import statistics
import sys
import time

import torch
import triton
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "triton"))
import baselines  # noqa: E402
import configs  # noqa: E402
import triton_runner as tr  # noqa: E402

# do_bench's ms a per-call timing (COMPARE_REP: fewer to fit a device call)
REP = int(os.environ.get("COMPARE_REP", "60"))


def parse_cfg(text, fixed=None):
    d = dict(kv.split("=") for kv in text.split())
    return dict(fixed or {}, **{k: int(v) for k, v in d.items()})


def committed(v, exact):
    name = f"matmul_{v}" if exact else f"matmul_masked_{v}"
    return tr.load_kernel(os.path.join(ROOT, "examples", "triton", name + ".py"))


def autotuned(kernel, space, exact, M, N, K):
    # the tile space (a template choice, KERNEL, is not autotune's to
    # make), and for the pointer kernel (exact) the tiles dividing the
    # sizes: a TMA configuration may have BN > N, out of its bounds
    tiles = sorted({(c["BM"], c["BN"], c["BK"], c["GM"], c["STAGES"],
                     c["WARPS"]) for c in space
                    if not exact or M % c["BM"] + N % c["BN"] + K % c["BK"] == 0})
    cfgs = [triton.Config({"BM": bm, "BN": bn, "BK": bk, "GM": gm},
                          num_stages=st, num_warps=w)
            for bm, bn, bk, gm, st, w in tiles]
    # Timed as the tuner's runner times (do_bench, 10 + 40 ms), so that
    # its cost compares with the tuner's.
    bench = lambda fn, quantiles=None: triton.testing.do_bench(
        fn, warmup=10, rep=40, quantiles=quantiles)
    try:
        return triton.autotune(configs=cfgs, key=["M", "N", "K"],
                               do_bench=bench)(kernel)
    except TypeError:                      # an older Triton
        return triton.autotune(configs=cfgs, key=["M", "N", "K"])(kernel)


def cell(v, M, N, K, space_path, tuned_path, fixed):
    bufs = tr.inputs(torch, v, M, N, K)
    a, b, c, ref = bufs
    (am, bm), dtype = tr.split(v)
    fp8 = dtype != "fp16"
    a_view = a if am == "Row" else a.T
    b_view = b if bm == "Row" else b.T
    space = [parse_cfg(l, fixed)
             for l in open(space_path).read().splitlines() if l]
    with open(tuned_path) as f:
        best = parse_cfg(f.readline().lstrip("# ").split(":", 1)[1], fixed)
    hand = configs.gemm_cfg(M, N, K, fp8)
    hcfg = dict(BM=hand["BM"], BN=hand["BN"], BK=hand["BK"], GM=hand["GM"],
                STAGES=hand["stages"], WARPS=hand["warps"])
    exact = all(x % 64 == 0 for x in (M, N, K))   # as study.sh's cells
    gen = committed(v.partition("_")[0], exact)
    one = torch.ones((), device="cuda")
    blas = (lambda: torch._scaled_mm(a_view, b_view, scale_a=one, scale_b=one,
                                     out_dtype=torch.float16, out=c)) if fp8 \
        else (lambda: torch.matmul(a_view, b_view, out=c))
    p = {"cuBLAS": blas,
         "hand": lambda: baselines.matmul(a_view, b_view, c, hand),
         "gen@hand": tr.launcher(torch, triton, gen, bufs, M, N, K, hcfg),
         "tuned": tr.launcher(torch, triton, tr.load_kernel(tuned_path), bufs,
                              M, N, K, best)}
    errors = {}
    try:
        bound = bound_launch(tuned_path, bufs, M, N, K, best)
        if bound:
            p["bound"] = bound
    except Exception as e:                # a launcher API it does not know
        errors["bound"] = " ".join(str(e).split())[:200]
    auto = autotuned(gen, space, exact, M, N, K)
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    p["autotune"] = lambda: auto[grid](a, b, c, M, N, K)
    t0 = time.time()
    p["autotune"]()                       # its tuning: every config timed
    torch.cuda.synchronize()
    auto_s = time.time() - t0
    for name, run in p.items():
        try:
            tr.check(torch, run, bufs)
        except Exception as e:
            errors[name] = str(e)
    times = {k: [] for k in p if k not in errors}
    for r in range(3):
        order = list(times) if r % 2 == 0 else list(reversed(times))
        for name in order:
            times[name].append(tr.bench(torch, triton, p[name], rep=REP))
    med = {k: statistics.median(t) for k, t in times.items()}
    # the pre-bound launch: a column of its own, per call only (from a
    # graph it is the tuned kernel)
    bound_ms = {k: med.pop(k) for k in ("bound",) if k in med}
    # the second timing: the host's launch removed for every provider
    # alike (tr.graph_bench), in interleaved rounds too
    graph = {k: [] for k in med}
    graph_errors = {}
    for r in range(3):
        order = list(graph) if r % 2 == 0 else list(reversed(graph))
        for name in order:
            if name in graph_errors:
                continue
            try:
                graph[name].append(tr.graph_bench(torch, p[name], med[name]))
            except Exception as e:
                graph_errors[name] = " ".join(str(e).split())[:200]
    graph_med = {k: statistics.median(t) for k, t in graph.items()
                 if k not in graph_errors}
    return dict(v=v, M=M, N=N, K=K, ms=med, bound_ms=bound_ms, errors=errors,
                graph_ms=graph_med, graph_errors=graph_errors, tuned=best,
                hand=hcfg, space=len(space), autotune_evals=len(auto.configs),
                autotune_first_call_s=auto_s,
                autotune_choice=str(auto.best_config))


def bound_launch(path, bufs, M, N, K, cfg):
    """The tuned kernel's launch pre-bound (choice.py's lego_bind, a
    compiled launcher called with its arguments fixed), or None (TMA, or
    a template without it)."""
    a, b, c, _ = bufs
    bind = getattr(tr.load_kernel(path), "__globals__", {}).get("lego_bind")
    if bind is None:
        return None
    return bind(a, b, c, M, N, K, cfg["BM"], cfg["BN"], cfg["BK"], cfg["GM"],
                cfg["STAGES"], cfg["WARPS"])


def main():
    out = sys.argv[2]
    rows = []
    until = float(os.environ.get("COMPARE_UNTIL", "inf"))
    for line in open(sys.argv[1]).read().splitlines():
        v, M, N, K, space, tuned, *fixed = line.split()
        fixed = parse_cfg(" ".join(fixed))
        if time.time() > until:
            print(f"{v} {M}x{N}x{K}: not compared (time guard)", flush=True)
            continue
        try:
            rows.append(cell(v, int(M), int(N), int(K), space, tuned,
                             fixed))
        except Exception as e:
            rows.append(dict(v=v, M=int(M), N=int(N), K=int(K), failed=str(e)))
        r = rows[-1]
        if "ms" in r:
            ms = r["ms"]
            flop = 2 * r["M"] * r["N"] * r["K"]
            tf = {k: flop / (t * 1e-3) / 1e12 for k, t in ms.items()}
            t = ms.get("tuned")
            ratio = lambda k: f"{ms[k] / t:.2f}" if t and k in ms else "-"
            print(f"{v:4} {M}x{N}x{K}: tuned {tf.get('tuned', 0):.0f} TFLOP/s; "
                  f"tuned vs hand {ratio('hand')}, vs gen@hand {ratio('gen@hand')}, "
                  f"vs autotune {ratio('autotune')}, vs cuBLAS {ratio('cuBLAS')}"
                  f" (x = other time / tuned time); errors {r['errors']}",
                  flush=True)
            g, gt = r["graph_ms"], r["graph_ms"].get("tuned")
            gx = lambda k: f"{g[k] / gt:.2f}" if gt and k in g else "-"
            print(f"     graph (no host launch): tuned "
                  f"{flop / (gt * 1e-3) / 1e12 if gt else 0:.0f} TFLOP/s; "
                  f"vs hand {gx('hand')}, vs gen@hand {gx('gen@hand')}, "
                  f"vs autotune {gx('autotune')}, vs cuBLAS {gx('cuBLAS')}; "
                  f"capture errors {r['graph_errors']}", flush=True)
        else:
            print(f"{v} {M}x{N}x{K}: failed: {r['failed']}", flush=True)
        with open(os.path.join(out, "compare.json"), "w") as f:
            json.dump(rows, f, indent=1)      # after each cell: kept if cut


if __name__ == "__main__":
    main()
