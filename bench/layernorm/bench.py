"""Layer normalisation on the GPU, M = 4096 rows, N = 128 .. 16384, fp16 and
fp32: the generated kernels (ops.py over layernorm.py) beside the tutorial-
style baseline (tutorial.py), the LEGO authors' kernel (their layernorm.py,
run unchanged: executed without its last lines, which run its own tests and
tables) and torch.nn.functional.layer_norm.

Every provider is first checked against torch in float64 on the same random
inputs (forward y; backward dx, dw, db): relative Frobenius error under
1e-2 in fp16, 1e-4 in fp32.  A wrong provider is still timed, and marked.
Times, median: the forward is the function call, captured in a CUDA graph
and replayed (triton.testing.do_bench_cudagraph: the kernels' time without
Python's launch overhead, which dominates below N = 2048), and also
launched from Python (triton.testing.do_bench, as the authors' table; in
the JSON); the backward is y.backward(dy) through autograd for every
provider, launched from Python (as the tutorial and the authors time it:
autograd runs the backward on the forward's stream, so it cannot be
captured apart from the forward).  GB/s as in the tutorial: 2 M N bytes per element size for the
forward, 3 M N for the backward.  The device's copy bandwidth: a 1 GiB
device-to-device copy, bytes read plus written.
Ours: for each N and dtype the fastest of ops.fwd_candidates (forward) and
ops.bwd_candidates (backward) launch parameters, timed the same way; the
table says which.  Note: below about N = 2048 (fp16) the matrices fit the
50 MB L2 and graph replays find them there: forward GB/s above the copy
bandwidth are L2 figures, for every provider alike.  The baselines keep their own launch heuristics.

Usage: OUT=dir python3 bench/layernorm/bench.py [AUTHORS_LAYERNORM_PY]
Writes OUT/layernorm.json and OUT/layernorm.md, prints the table.
"""
import json
import os
import sys

import torch
import triton
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops  # noqa: E402
import tutorial  # noqa: E402

M = 4096
NS = [2 ** k for k in range(7, 15)]


def authors(path):
    """The authors' lego_layer_norm, from their script minus its last lines."""
    src = open(path).read()
    src = src[:src.index("\ntest_layer_norm(")]
    ns = {"__name__": "authors_layernorm", "__file__": path}
    exec(compile(src, path, "exec"), ns)
    return lambda x, w, b: ns["lego_layer_norm"](x, w.shape, w, b, 1e-5)


def rel(a, b):
    return (torch.linalg.norm((a.double() - b).flatten()) / torch.linalg.norm(b.flatten())).item()


def bench_ms(fn, grad_to_none=None, graph=True):
    if graph:
        with torch.cuda.stream(torch.cuda.Stream()):
            return triton.testing.do_bench_cudagraph(fn, grad_to_none=grad_to_none,
                                                     return_mode="median")
    return triton.testing.do_bench(fn, grad_to_none=grad_to_none, return_mode="median")


def copy_bandwidth():
    """GB/s of a 1 GiB copy: launched from Python, and as graph replays."""
    a = torch.empty(2 ** 29, dtype=torch.float16, device="cuda").normal_()
    b = torch.empty_like(a)
    return [2 * a.numel() * a.element_size() / bench_ms(lambda: b.copy_(a), graph=g) / 1e6
            for g in (False, True)]


def inputs(dtype, N):
    gen = torch.Generator(device="cuda").manual_seed(N)
    x = (-2.3 + 0.5 * torch.randn((M, N), device="cuda", generator=gen)).to(dtype)
    w = torch.rand(N, device="cuda", generator=gen).to(dtype)
    b = torch.rand(N, device="cuda", generator=gen).to(dtype)
    dy = (0.1 * torch.randn((M, N), device="cuda", generator=gen)).to(dtype)
    return x, w, b, dy


def timings(fn, x, w, b, dy, graph):
    """Forward ms (graph replays when graph is set) and backward ms."""
    mine = [t.clone().requires_grad_(True) for t in (x, w, b)]
    fms = bench_ms(lambda: fn(x, w, b), graph=graph)
    y = fn(*mine)
    bms = bench_ms(lambda: y.backward(dy, retain_graph=True), grad_to_none=mine, graph=False)
    return fms, bms


def measure(name, fn, dtype, N, tune=None):
    x, w, b, dy = inputs(dtype, N)
    leaves = [t.double().requires_grad_(True) for t in (x, w, b)]
    yref = torch.nn.functional.layer_norm(leaves[0], (N,), leaves[1], leaves[2], 1e-5)
    yref.backward(dy.double())
    refs = [yref.detach()] + [t.grad for t in leaves]
    row = {"provider": name, "dtype": str(dtype).split(".")[-1], "N": N}
    if tune:  # ours: the fastest candidate of each direction, then checked
        fwds, bwds = tune
        f_best = min(fwds, key=lambda c: timings(lambda *a: fn(*a, fwd=c), x, w, b, dy, True)[0])
        b_best = min(bwds, key=lambda c: timings(lambda *a: fn(*a, bwd=c), x, w, b, dy, True)[1])
        row["config"] = {"fwd (BM, warps)": f_best, "bwd (warps, stages, G)": b_best}
        fn = (lambda f, g: lambda *a: f(*a, fwd=g[0], bwd=g[1]))(fn, (f_best, b_best))
    mine = [t.clone().requires_grad_(True) for t in (x, w, b)]
    y = fn(*mine)
    y.backward(dy)
    errs = [rel(got, want) for got, want in zip([y.detach()] + [t.grad for t in mine], refs)]
    tol = 1e-2 if dtype == torch.float16 else 1e-4
    row.update(errors=errs, ok=all(e < tol for e in errs))
    size = M * N * x.element_size()
    for graph, tag in ((True, ""), (False, "_nograph")):
        try:
            fms, bms = timings(fn, x, w, b, dy, graph)
        except Exception as e:  # noqa: BLE001 (a provider that cannot be captured)
            row["timing_error" + tag] = f"{type(e).__name__}: {str(e)[:200]}"
            continue
        row.update({f"fwd_ms{tag}": fms, f"fwd_gbs{tag}": 2 * size / fms / 1e6})
        if graph:
            row.update(bwd_ms=bms, bwd_gbs=3 * size / bms / 1e6)
    return row


def main():
    out = os.environ.get("OUT", ".")
    providers = [("liblego", ops.layer_norm), ("tutorial", tutorial.layer_norm)]
    if len(sys.argv) > 1:
        providers.append(("authors", authors(sys.argv[1])))
    providers.append(("torch", lambda x, w, b: torch.nn.functional.layer_norm(x, (x.shape[1],), w, b, 1e-5)))
    device = torch.cuda.get_device_name()
    copy, copy_graph = copy_bandwidth()
    rows = []
    for dtype in (torch.float16, torch.float32):
        for N in NS:
            for name, fn in providers:
                esize = torch.tensor([], dtype=dtype).element_size()
                tune = (ops.fwd_candidates(N), ops.bwd_candidates(N, esize)) if name == "liblego" else None
                try:
                    rows.append(measure(name, fn, dtype, N, tune))
                except Exception as e:  # a provider that cannot run this size
                    rows.append({"provider": name, "dtype": str(dtype).split(".")[-1], "N": N,
                                 "ok": False, "error": f"{type(e).__name__}: {str(e)[:200]}"})
                torch.cuda.empty_cache()
    with open(os.path.join(out, "layernorm.json"), "w") as f:
        json.dump({"device": device, "M": M, "copy_gbs": copy, "copy_gbs_graph": copy_graph,
                   "rows": rows}, f, indent=1)
    table = render(device, copy, copy_graph, rows, [p for p, _ in providers])
    with open(os.path.join(out, "layernorm.md"), "w") as f:
        f.write(table)
    print(table)
    bad = [r for r in rows if r["provider"] == "liblego" and not r.get("ok")]
    sys.exit(1 if bad else 0)


def render(device, copy, copy_graph, rows, names):
    lines = [f"device: {device}; M = {M}; copy bandwidth {copy:.0f} GB/s launched from Python "
             f"(L2 flushed), {copy_graph:.0f} GB/s as graph replays; liblego / copy uses the "
             "first and ours launched from Python", ""]
    for mode in ("fwd", "bwd"):
        for dtype in ("float16", "float32"):
            lines.append(f"{mode} {dtype}, GB/s (median; "
                         + ("CUDA-graph replays)" if mode == "fwd" else "launched from Python)"))
            lines.append("| N | " + " | ".join(names) + " | liblego / best other |"
                         + (" liblego / copy |" if mode == "fwd" else "")
                         + (" ours (BM, warps) |" if mode == "fwd" else " ours (warps, stages, G) |"))
            lines.append("|---" * (len(names) + (4 if mode == "fwd" else 3)) + "|")
            for N in NS:
                got = {r["provider"]: r for r in rows if r["dtype"] == dtype and r["N"] == N}
                cells, others = [], []
                for p in names:
                    r = got.get(p, {})
                    v = r.get(f"{mode}_gbs")
                    cells.append((f"{v:.0f}" + ("" if r["ok"] else " (wrong)")) if v else "n/a")
                    if v and p != "liblego":
                        others.append(v)
                mine = got.get("liblego", {}).get(f"{mode}_gbs")
                ratio = f"{mine / max(others):.2f}" if mine and others else "-"
                plain = got.get("liblego", {}).get("fwd_gbs_nograph")
                extra = f" {plain / copy:.2f} |" if mode == "fwd" and plain else (" - |" if mode == "fwd" else "")
                cfg = got.get("liblego", {}).get("config", {})
                cfg = cfg.get("fwd (BM, warps)" if mode == "fwd" else "bwd (warps, stages, G)")
                lines.append(f"| {N} | " + " | ".join(cells) + f" | {ratio} |" + extra
                             + f" {tuple(cfg) if cfg else '-'} |")
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
