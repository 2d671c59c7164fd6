"""Layer normalisation on the GPU, M = 4096 rows, N = 128 .. 16384, fp16 and
fp32: the generated kernels (ops.py over layernorm.py) beside the tutorial-
style baseline (tutorial.py), the LEGO authors' kernel (their layernorm.py,
run unchanged: executed without its last lines, which run its own tests and
tables) and torch.nn.functional.layer_norm.

Every provider is first checked against torch in float64 on the same random
inputs (forward y; backward dx, dw, db): relative Frobenius error under
1e-2 in fp16, 1e-4 in fp32.  A wrong provider is still timed, and marked.
Ours: every candidate of the tuning is checked so before it is timed (a
wrong one is not timed, and listed in the JSON's wrong_candidates).

Times, median, on one footing for every provider and for the copy:
  graph   the calls captured in one CUDA graph and replayed (graph_ms): no
          Python or launch overhead.  The graph holds one call on each of K
          input sets, K * (bytes of a call) >= 3x the L2, so that each call
          finds its data in device memory, not in L2.  The forward is
          fn(x, w, b), timed twice: fwd, y dropped after each call (the
          graph's pool hands the same block to every call, whose lines
          may still be in L2 when the next call writes them), and
          fwd_kept, each call's y kept (K outputs, as the copy writes:
          the copy's footing, on which ours is tuned); the backward
          torch.autograd.grad(y, (x, w, b), dy) with y computed beforehand on the capture stream (autograd runs a
          backward on its forward's stream), so it holds exactly what
          autograd launches for the provider's backward (its allocations,
          zeroing and kernels).  The copy: x copied into another tensor on
          the same K sets (the forward's bytes), the fastest of a memcpy,
          torch's elementwise kernel and a Triton copy (COPIES), into K
          outputs (copy) and into one allocated in each call and dropped
          (copy_dropped, fwd's footing).
  python  the same calls launched from Python one at a time, L2 flushed
          before each (triton.testing.do_bench, as the tutorial and the
          authors time them).
GB/s as in the tutorial: 2 M N elements for the forward, 3 M N for the
backward.  The device's copy bandwidth: also a 1 GiB copy, both ways.
Ours: for each N and dtype the fastest (graph) of ops.fwd_candidates and
ops.bwd_candidates (wide from N = 2048, while time allows: main); the
table says which, and the JSON has every candidate's time.  The
baselines keep their own launch heuristics.

Usage: OUT=dir [LN_NS=N,N..] [LN_DIRS=fwd] python3 bench/layernorm/bench.py [AUTHORS_LAYERNORM_PY]
Writes OUT/layernorm.json and OUT/layernorm.md, prints the table.
"""
import json
import os
import sys
import time

import torch
import triton
import triton.language as tl
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops  # noqa: E402
import plot  # noqa: E402
import tutorial  # noqa: E402

M = 4096
# LN_NS=4096,8192: only those N (a device call for the sizes a change affects).
NS = [int(n) for n in os.environ.get("LN_NS", "").split(",") if n] or [2 ** k for k in range(7, 15)]
# LN_DIRS=fwd: the forward alone (no backward tuned, checked or timed).
DIRS = os.environ.get("LN_DIRS", "fwd,bwd").split(",")


def authors(path):
    """The authors' lego_layer_norm, from their script minus its last lines."""
    src = open(path).read()
    src = src[:src.index("\ntest_layer_norm(")]
    ns = {"__name__": "authors_layernorm", "__file__": path}
    exec(compile(src, path, "exec"), ns)
    return lambda x, w, b: ns["lego_layer_norm"](x, w.shape, w, b, 1e-5)


def rel(a, b):
    return (torch.linalg.norm((a.double() - b).flatten()) / torch.linalg.norm(b.flatten())).item()


def graph_ms(make_calls, reps=10, warm_ms=20):
    """Median ms of one call: make_calls() (run on the capture stream)
    returns the calls; they are run twice (compiles, autograd's set-up),
    captured once in a CUDA graph, the graph replayed for `warm_ms` (the
    clocks up again after the CPU-bound compiles: one measure of the first
    run, taken right after its candidates' compiles, read 15% slow) and then
    timed over `reps` replays."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        calls = make_calls()
        for _ in range(2):
            for call in calls:
                call()
        stream.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            for call in calls:
                call()
        start = time.time()
        while time.time() - start < warm_ms / 1e3:
            graph.replay()
            stream.synchronize()
        times = []
        for _ in range(reps):
            start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
            start.record(stream)
            graph.replay()
            end.record(stream)
            end.synchronize()
            times.append(start.elapsed_time(end) / len(calls))
    del graph, calls
    return sorted(times)[reps // 2]


def try_ms(make_calls):
    """graph_ms, or infinity for launch parameters the device refuses."""
    try:
        return graph_ms(make_calls)
    except Exception as e:  # noqa: BLE001 (out of resources: registers, shared memory)
        print(f"  candidate refused: {type(e).__name__}: {str(e)[:120]}", flush=True)
        return float("inf")


def python_ms(fn):
    return triton.testing.do_bench(fn, return_mode="median")


@triton.jit
def _copy(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs))


def triton_copy(o, x, block=8192):
    """x into o, BLOCK elements a program (numel a multiple of BLOCK)."""
    _copy[(x.numel() // block,)](x, o, BLOCK=block, num_warps=8)


# Ways to copy x into o: in a CUDA graph, a device-to-device memcpy (copy_)
# can become a copy-engine node, slower than the SMs (2414 against 3001
# GB/s for 1 GiB on the H100, 2026-11-24); torch's elementwise kernel and a
# plain Triton copy run on the SMs.  The copy bandwidth is the fastest.
COPIES = (lambda o, x: o.copy_(x), lambda o, x: torch.mul(x, 1, out=o), triton_copy)


def copy_bandwidth():
    """GB/s of a 1 GiB copy: launched from Python, and as graph replays."""
    a = torch.empty(2 ** 29, dtype=torch.float16, device="cuda").normal_()
    b = torch.empty_like(a)
    gbs = lambda ms: 2 * a.numel() * a.element_size() / ms / 1e6  # noqa: E731
    return (max(gbs(python_ms(lambda: op(b, a))) for op in COPIES),
            max(gbs(graph_ms(lambda: [lambda: op(b, a)])) for op in COPIES))


def inputs(dtype, N, seed=0):
    gen = torch.Generator(device="cuda").manual_seed(N + 7919 * seed)
    x = (-2.3 + 0.5 * torch.randn((M, N), device="cuda", generator=gen)).to(dtype)
    w = torch.rand(N, device="cuda", generator=gen).to(dtype)
    b = torch.rand(N, device="cuda", generator=gen).to(dtype)
    dy = (0.1 * torch.randn((M, N), device="cuda", generator=gen)).to(dtype)
    return x, w, b, dy


class Sets:
    """K input sets of one dtype and N, K * 3 M N elements >= 150 MB (3x the
    H100's L2)."""

    def __init__(self, dtype, N):
        bytes_ = 3 * M * N * torch.tensor([], dtype=dtype).element_size()
        self.sets = [inputs(dtype, N, k) for k in range(max(2, -(-150 * 2 ** 20 // bytes_)))]

    def fwd(self, fn):
        return lambda: [(lambda x, w, b: lambda: fn(x, w, b))(*s[:3]) for s in self.sets]

    def fwd_kept(self, fn):
        """The forward with each call's y kept until the graph is freed: K
        outputs at K addresses, as the copy writes, where fwd's y, dropped
        at once, is one block of the graph's pool that every call reuses
        (its lines may still sit in L2 when the next call writes them)."""
        def make():
            ys = []  # appended to, never freed during the capture
            return [(lambda x, w, b: lambda: ys.append(fn(x, w, b)))(*s[:3]) for s in self.sets]
        return make

    def bwd(self, fn):
        def make():
            calls = []
            for x, w, b, dy in self.sets:
                leaves = [t.clone().requires_grad_(True) for t in (x, w, b)]
                y = fn(*leaves)
                calls.append((lambda y, leaves, dy: lambda: torch.autograd.grad(
                    y, leaves, dy, retain_graph=True))(y, leaves, dy))
            return calls
        return make

    def copy(self, op):
        outs = [torch.empty_like(s[0]) for s in self.sets]
        return lambda: [(lambda o, x: lambda: op(o, x))(o, s[0]) for o, s in zip(outs, self.sets)]

    def copy_dropped(self, op):
        """The copy on fwd's footing: each call's output allocated in the
        call and dropped, as a provider's y."""
        return lambda: [(lambda x: lambda: op(torch.empty_like(x), x))(s[0]) for s in self.sets]


def backward_call(fn, x, w, b, dy):
    leaves = [t.clone().requires_grad_(True) for t in (x, w, b)]
    y = fn(*leaves)
    return lambda: torch.autograd.grad(y, leaves, dy, retain_graph=True)


def check(fn, x, w, b, dy, refs):
    mine = [t.clone().requires_grad_(True) for t in (x, w, b)]
    y = fn(*mine)
    grads = torch.autograd.grad(y, mine, dy)
    return [rel(got, want) for got, want in zip([y.detach(), *grads], refs)]


def measure(name, fn, dtype, N, sets, tune=None):
    x, w, b, dy = inputs(dtype, N, seed=1000)
    leaves = [t.double().requires_grad_(True) for t in (x, w, b)]
    yref = torch.nn.functional.layer_norm(leaves[0], (N,), leaves[1], leaves[2], 1e-5)
    yref.backward(dy.double())
    refs = [yref.detach()] + [t.grad for t in leaves]
    row = {"provider": name, "dtype": str(dtype).split(".")[-1], "N": N, "sets": len(sets.sets)}
    tol = 1e-2 if dtype == torch.float16 else 1e-4
    if tune:  # ours: each candidate checked, the fastest of each direction (graph), checked again
        fwds, bwds = tune
        tried = {"fwd": {}, "bwd": {}}
        wrong = []

        def checked(c, kw, timer):
            """The candidate's time, or infinity (and noted) when its y, dx,
            dw or db misses torch's."""
            cand = lambda *a: fn(*a, **{kw: c})  # noqa: E731
            try:
                errs = check(cand, x, w, b, dy, refs)
            except Exception as e:  # noqa: BLE001 (refused by the compiler or the device)
                print(f"  candidate {c} refused: {type(e).__name__}: {str(e)[:160]}", flush=True)
                return float("inf")
            if not all(e < tol for e in errs):
                wrong.append([kw, list(c), errs])
                return float("inf")
            return try_ms(timer(cand))
        for c in fwds:  # the forward on the copy's footing (fwd_kept)
            tried["fwd"][c] = checked(c, "fwd", sets.fwd_kept)
        for c in bwds:
            tried["bwd"][c] = checked(c, "bwd", sets.bwd)
            torch.cuda.empty_cache()
        row["wrong_candidates"] = wrong
        f_best, b_best = (min(t, key=t.get) if t else None for t in (tried["fwd"], tried["bwd"]))
        row["config"] = {"fwd (BM, warps, G, stages, TMA, WB)": f_best, "bwd (BM, warps, stages, G, S, BK)": b_best}
        row["tried"] = {k: [[list(c), ms] for c, ms in t.items()] for k, t in tried.items()}
        fn = (lambda f, g: lambda *a: f(*a, fwd=g[0], bwd=g[1]))(fn, (f_best, b_best))
    errs = check(fn, x, w, b, dy, refs)
    row.update(errors=errs, ok=all(e < tol for e in errs))
    size = M * N * x.element_size()
    timers = {"fwd": lambda: graph_ms(sets.fwd(fn)),
              "fwd_kept": lambda: graph_ms(sets.fwd_kept(fn)),
              "bwd": lambda: graph_ms(sets.bwd(fn)),
              "fwd_python": lambda: python_ms(lambda: fn(x, w, b)),
              "bwd_python": lambda: python_ms(backward_call(fn, x, w, b, dy))}
    for key, timer in timers.items():
        if key[:3] not in DIRS:
            continue
        try:
            ms = timer()
        except Exception as e:  # noqa: BLE001 (a provider that cannot be captured)
            row[key + "_error"] = f"{type(e).__name__}: {str(e)[:200]}"
            continue
        row[key + "_ms"] = ms
        row[key + "_gbs"] = (2 if key.startswith("fwd") else 3) * size / ms / 1e6
    if name == "liblego":  # the copy: the fastest of COPIES, on each footing
        row["copy_ms"] = min(graph_ms(sets.copy(op)) for op in COPIES)
        row["copy_gbs"] = 2 * size / row["copy_ms"] / 1e6
        row["copy_dropped_ms"] = min(graph_ms(sets.copy_dropped(op)) for op in COPIES)
        row["copy_dropped_gbs"] = 2 * size / row["copy_dropped_ms"] / 1e6
    return row


def main():
    """LN_WIDE_UNTIL_S (seconds, default 400): past it, ours is tuned over the
    narrow candidate set only, so that the run ends within a device call."""
    out = os.environ.get("OUT", ".")
    wide_until = time.time() + float(os.environ.get("LN_WIDE_UNTIL_S", "400"))
    providers = [("liblego", ops.layer_norm), ("tutorial", tutorial.layer_norm)]
    if len(sys.argv) > 1:
        providers.append(("authors", authors(sys.argv[1])))
    providers.append(("torch", lambda x, w, b: torch.nn.functional.layer_norm(x, (x.shape[1],), w, b, 1e-5)))
    data = {"device": torch.cuda.get_device_name(), "M": M, "rows": []}
    data["copy_gbs_python"], data["copy_gbs"] = copy_bandwidth()
    names = [p for p, _ in providers]
    for N in reversed(NS):  # the largest first: they get the wide tuning
        for dtype in (torch.float16, torch.float32):
            esize = torch.tensor([], dtype=dtype).element_size()
            sets = Sets(dtype, N)
            for name, fn in providers:
                wide = N >= 2048 and time.time() < wide_until
                tune = ((ops.fwd_candidates(N, dtype, wide),
                         ops.bwd_candidates(N, esize, wide) if "bwd" in DIRS else [])
                        if name == "liblego" else None)
                try:
                    row = measure(name, fn, dtype, N, sets, tune)
                except Exception as e:  # a provider that cannot run this size
                    row = {"provider": name, "dtype": str(dtype).split(".")[-1], "N": N,
                           "ok": False, "error": f"{type(e).__name__}: {str(e)[:200]}"}
                data["rows"].append(row)
                print(json.dumps({k: v for k, v in row.items() if k != "tried"}), flush=True)
                with open(os.path.join(out, "layernorm.json"), "w") as f:
                    json.dump(data, f, indent=1)
                torch.cuda.empty_cache()
            del sets
            torch.cuda.empty_cache()
    table = plot.render(data, names)
    with open(os.path.join(out, "layernorm.md"), "w") as f:
        f.write(table)
    print(table)
    bad = [r for r in data["rows"] if r["provider"] == "liblego" and not r.get("ok")]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
