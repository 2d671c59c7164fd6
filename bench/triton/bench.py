"""Section 6.1 of the LEGO paper on one GPU, in one process: the generated
Triton kernels of examples/triton (imported as `lego gen` wrote them)
against hand-written Triton in the tutorials' style (baselines.py, same
tile configurations), cuBLAS (torch.matmul, torch._scaled_mm for FP8),
torch.softmax with the device's copy bandwidth, and one torch.matmul per
GEMM of a group.

Every kernel is first checked against PyTorch on the same random inputs
(output poisoned with NaN first; relative Frobenius error < 1e-2, or 1e-4
for softmax): a wrong result marks the run failed (exit status 1) but
the others are still measured.  Then each is timed with
triton.testing.do_bench (median; it flushes the L2 between runs).

Kernels are compiled first by a pool of processes (they fill Triton's
disk cache), so that the whole run fits in one call of the device tool.
Writes OUT/results.json, OUT/table.md and OUT/fig12.png; prints the table.

Usage: PYTHONUNBUFFERED=1 OUT=dir python3 bench/triton/bench.py [--quick] [--variants]
(--variants: also the TMA matmul with 4 stages and C stored in halves, for
the 128x256 tiles; measured once, not better: bench/triton/results.md)
"""
import importlib.util
import json
import multiprocessing as mp
import os
import sys
import time
import traceback

import torch
import triton
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EX = os.path.join(ROOT, "examples", "triton")
sys.path.insert(0, HERE)
import baselines  # noqa: E402
import configs  # noqa: E402
import plot  # noqa: E402

OUT = os.environ.get("OUT", "/tmp/bench_triton")
QUICK = "--quick" in sys.argv
START = time.time()
BUDGET_S = 480            # stop timing (not checking) past this
ROUNDS = 6                # interleaved timing rounds (run_case)
VARIANTS = "--variants" in sys.argv   # also the 4-stage TMA configuration
LAYOUTS = configs.LAYOUTS
FP16_SIZES, FP8_SIZES = configs.FP16_SIZES, configs.FP8_SIZES
SOFTMAX_N, GROUPED_N = configs.SOFTMAX_N, configs.GROUPED_N
if QUICK:
    FP16_SIZES = [(256, 256, 256), (1000, 1000, 1000)]
    FP8_SIZES = [(1024, 1024, 1024)]
    SOFTMAX_N = [1024]
    GROUPED_N = [512]
gemm_cfg, grouped_cfg = configs.gemm_cfg, configs.grouped_cfg


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(EX, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = {name: load(name) for name in
       [f"matmul_{v}" for v, _, _ in LAYOUTS] +
       [f"matmul_inc_{v}" for v, _, _ in LAYOUTS] +
       [f"matmul_masked_{v}" for v, _, _ in LAYOUTS] +
       [f"matmul_tma_{v}" for v, _, _ in LAYOUTS] +
       ["softmax", "grouped_gemm", "grouped_gemm_tma"]}


def num_sms():
    return torch.cuda.get_device_properties(0).multi_processor_count


def set_allocator():
    """Global scratch for tensor descriptors made on the device."""
    triton.set_allocator(lambda size, align, stream:
                         torch.empty(size, device="cuda", dtype=torch.int8))


def softmax_cfg(n):
    return configs.softmax_cfg(n, num_sms())


FP8 = {"e5m2": getattr(torch, "float8_e5m2", None),
       "e4m3": getattr(torch, "float8_e4m3fn", None)}
DTYPES = {"fp16": torch.float16, **FP8}


# ------------------------------------------------------------------ cases

def gemm_case(dtype_name, layout, M, N, K, seed=0):
    """Inputs and providers of one GEMM: name -> callable (each writes c)."""
    v, am, bm = layout
    dtype = DTYPES[dtype_name]
    fp8 = dtype_name != "fp16"
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).to(dtype)
    b = torch.randn(K, N, device="cuda", generator=g).to(dtype)
    # The buffers in memory; a_view / b_view the logical matrices.
    a_mem = a if am == "Row" else a.T.contiguous()
    b_mem = b if bm == "Row" else b.T.contiguous()
    a_view = a_mem if am == "Row" else a_mem.T
    b_view = b_mem if bm == "Row" else b_mem.T
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    cfg = gemm_cfg(M, N, K, fp8)
    sms = num_sms()
    divisible = cfg["exact"]
    p = {}
    if not fp8:
        p["cuBLAS"] = lambda: torch.matmul(a_view, b_view, out=c)
    else:
        one = torch.ones((), device="cuda")
        p["cuBLAS"] = lambda: torch._scaled_mm(
            a_view, b_view, scale_a=one, scale_b=one, out_dtype=torch.float16)
    p["hand"] = lambda: baselines.matmul(a_view, b_view, c, cfg)
    kw = dict(BM=cfg["BM"], BN=cfg["BN"], BK=cfg["BK"], GM=cfg["GM"],
              num_stages=cfg["stages"], num_warps=cfg["warps"])
    grid = (triton.cdiv(M, cfg["BM"]) * triton.cdiv(N, cfg["BN"]),)
    if divisible:
        k = GEN[f"matmul_{v}"].matmul_kernel
    else:
        k = GEN[f"matmul_masked_{v}"].matmul_masked_kernel
    p["gen"] = lambda: k[grid](a_mem, b_mem, c, M, N, K, **kw)
    if divisible:
        kinc = GEN[f"matmul_inc_{v}"].matmul_inc_kernel
        p["gen-inc"] = lambda: kinc[grid](a_mem, b_mem, c, M, N, K, **kw)
    esz = a.element_size()
    if any(x * esz % 16 for x in (M, N, K)):
        why = "rows not 16-byte aligned: no TMA descriptor"
        p["hand-tma"] = p["gen-tma"] = why
    else:
        p["hand-tma"] = lambda fl=True: baselines.matmul_tma(a_view, b_view, c, cfg, sms, fl)
        p["gen-tma"] = lambda fl=True: GEN[f"matmul_tma_{v}"].matmul_tma(
            a_mem, b_mem, c, M, N, K, cfg["BM"], cfg["BN"], cfg["BK"], cfg["GM"],
            sms, cfg["stages"], cfg["warps"], FLATTEN=fl)
        if cfg["BN"] == 256 and VARIANTS:
            # A second configuration for the large tiles: C stored in two
            # halves, which leaves room for a 4th pipeline stage.
            c4 = dict(cfg, stages=4)
            p["hand-tma-s4"] = lambda fl=True: baselines.matmul_tma(a_view, b_view, c, c4, sms, fl, True)
            p["gen-tma-s4"] = lambda fl=True: GEN[f"matmul_tma_{v}"].matmul_tma(
                a_mem, b_mem, c, M, N, K, c4["BM"], c4["BN"], c4["BK"], c4["GM"],
                sms, c4["stages"], c4["warps"], FLATTEN=fl, SUBTILE=True)
    info = dict(section=f"gemm-{dtype_name}", layout=v, M=M, N=N, K=K, cfg=cfg,
                flops=2.0 * M * N * K, gen_kernel="plain" if divisible else "masked")

    def reference():
        return torch.matmul(a.float(), b.float())
    return info, p, c, reference


def softmax_case(n, seed=0):
    cfg = softmax_cfg(n)
    m = cfg["rows"]
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(m, n, device="cuda", generator=g)
    y = torch.empty_like(x)
    mod = GEN["softmax"]
    p = {"copy": lambda: y.copy_(x),
         "torch": lambda: torch.softmax(x, dim=-1),
         "hand": lambda: baselines.softmax(y, x, cfg["programs"], cfg["stages"], cfg["warps"]),
         "gen": lambda: mod.softmax_kernel[(cfg["programs"],)](
             y, x, m, n, N=n, NUM_STAGES=cfg["stages"], num_warps=cfg["warps"])}
    info = dict(section="softmax", layout="row", M=m, N=n, K=0, cfg=cfg,
                bytes=2.0 * m * n * 4)
    return info, p, y, lambda: torch.softmax(x.double(), dim=-1).float()


def grouped_case(n, seed=0, G=4):
    cfg = grouped_cfg(n)
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = [torch.randn(n, n, device="cuda", generator=g).half() for _ in range(G)]
    B = [torch.randn(n, n, device="cuda", generator=g).half() for _ in range(G)]
    C = [torch.empty(n, n, device="cuda", dtype=torch.float16) for _ in range(G)]
    ptrs = [torch.tensor([t.data_ptr() for t in L], device="cuda") for L in (A, B, C)]
    targs = baselines.grouped_args(A, B, C, torch)
    sms = num_sms()
    kw = dict(NUM_SM=sms, BM=cfg["BM"], BN=cfg["BN"], BK=cfg["BK"], GM=cfg["GM"],
              num_stages=cfg["stages"], num_warps=cfg["warps"])

    def torch_each():
        for a, b, c in zip(A, B, C):
            torch.matmul(a, b, out=c)
    p = {"torch": torch_each,
         "hand": lambda: baselines.grouped_matmul(targs, cfg, sms, False),
         "gen": lambda: GEN["grouped_gemm"].grouped_matmul_kernel[(sms,)](
             *ptrs, G, n, n, n, **kw),
         "hand-tma": lambda: baselines.grouped_matmul(targs, cfg, sms, True),
         "gen-tma": lambda: GEN["grouped_gemm_tma"].grouped_matmul_tma_kernel[(sms,)](
             *ptrs, G, n, n, n, **kw)}
    info = dict(section="grouped", layout="row", M=n, N=n, K=n, G=G, cfg=cfg,
                flops=2.0 * G * n ** 3)

    class Group:                     # the outputs, poisoned and compared together
        def fill_(self, v):
            for c in C:
                c.fill_(v)

        def float(self):
            return torch.stack([c.float() for c in C])
    return info, p, Group(), lambda: torch.stack([a.float() @ b.float() for a, b in zip(A, B)])


def all_cases():
    cases = [("gemm", ("fp16", lay, *s)) for s in FP16_SIZES for lay in LAYOUTS]
    cases += [("softmax", (n,)) for n in SOFTMAX_N]
    cases += [("grouped", (n,)) for n in GROUPED_N]
    cases += [("gemm", (d, lay, *s)) for d in ("e5m2", "e4m3") if FP8[d] is not None
              for s in FP8_SIZES for lay in LAYOUTS]
    return cases


def make(case):
    kind, args = case
    if kind == "gemm":
        return gemm_case(args[0], args[1], *args[2:])
    if kind == "softmax":
        return softmax_case(*args)
    return grouped_case(*args)


# ------------------------------------------------------------ compile pool

def call(fn, flatten):
    """Runs a provider (its result, if any); TMA providers of the matrix
    multiply take the FLATTEN choice."""
    if flatten is None:
        return fn()
    return fn(flatten)


def flatten_choices(info, name):
    """TMA matmuls try flatten=True (one pipelined loop over tiles and k)
    first, then False; other providers take no choice."""
    if "tma" in name and info["section"].startswith("gemm"):
        return (True, False)
    return (None,)


def first_run(info, name, fn, out):
    """Runs fn once: ("ok", flatten, result) or ("fail", message, None)."""
    last = None
    for fl in flatten_choices(info, name):
        try:
            out.fill_(float("nan"))
            got = call(fn, fl)
            torch.cuda.synchronize()
            return "ok", fl, got
        except Exception as e:
            last = repr(e).splitlines()[0][:200]
    return "fail", last, None


def warm(case):
    """In a pool process: run every Triton provider of the case once, so
    that its kernels are compiled into the disk cache.  Returns what
    happened to each ({name: (status, flatten or message)}): the main
    process does not run again a kernel that failed here (a fault would
    end its CUDA context, and every measurement after it)."""
    global _CONTEXT_LOST
    if _CONTEXT_LOST:             # nothing known: the main process compiles
        return {}
    seen = {}
    try:
        set_allocator()
        info, p, out, _ = make(case)
        for name, fn in p.items():
            if callable(fn) and name not in ("cuBLAS", "torch", "copy"):
                status, what, _ = first_run(info, name, fn, out)
                seen[name] = (status, what)
                if status == "fail" and "CUDA" in str(what):
                    _CONTEXT_LOST = True
                    break
    except Exception:
        pass
    return seen


_CONTEXT_LOST = False         # in a pool process: a kernel faulted


# ------------------------------------------------------------- measuring

def rel_error(out, ref):
    o = out.float()
    if torch.isnan(o).any():
        return float("nan")
    return (torch.linalg.norm(o - ref) / torch.linalg.norm(ref)).item()


def run_case(case, log, failures, prior):
    set_allocator()
    info, p, out, reference = make(case)
    ref = reference()
    tol = 1e-4 if info["section"] == "softmax" else 1e-2
    row = dict(info, times={}, errors={}, notes={})
    for name, fn in p.items():
        if not callable(fn):
            row["notes"][name] = fn
            continue
        status, what = prior.get(name, ("ok", None))
        if status == "fail":
            row["notes"][name] = "failed: " + str(what)
            log(f"  {name}: FAILED TO RUN (compile pool): {what}")
            continue
        status, fl, got = first_run(info, name, fn, out)
        if status == "fail":
            row["notes"][name] = "failed: " + str(fl)
            log(f"  {name}: FAILED TO RUN: {fl}")
            continue
        if fl is False:
            row["notes"][name] = "flatten=True failed, FLATTEN=False"
        # torch.softmax and torch._scaled_mm return their result; the
        # others write the poisoned output.
        res = got if isinstance(got, torch.Tensor) and got.shape == ref.shape else out
        err = 0.0 if name == "copy" else rel_error(res, ref)
        row["errors"][name] = err
        if not err <= tol:
            failures.append(f"{info['section']} {info['layout']} {info['M']}x{info['N']}x{info['K']} {name}: error {err}")
            log(f"  {name}: WRONG RESULT, relative error {err}")
            continue
        row["flatten"] = row.get("flatten", {})
        row["flatten"][name] = fl
    # ROUNDS rounds over the providers, every other one in reverse order,
    # each a do_bench median: a provider is not always measured right
    # after the same one, and drifts of the clock (this GPU slows down
    # under sustained load) reach all providers alike.  The figure is the
    # median over the rounds; the spread, (max - min) / median, is the
    # noise.
    timed = [n for n in p if n in row["errors"] and row["errors"][n] <= tol]
    rounds = {}
    for i in range(ROUNDS):
        for name in (timed if i % 2 == 0 else timed[::-1]):
            if time.time() - START > BUDGET_S:
                row["notes"][name] = "not timed: time budget"
                continue
            fl = row["flatten"][name]
            f = (lambda fn=p[name], fl=fl: call(fn, fl))
            rounds.setdefault(name, []).append(
                triton.testing.do_bench(f, warmup=2, rep=10, return_mode="median"))
    row["spread"] = {}
    for name, ts in rounds.items():
        row["times"][name] = median(ts)
        row["spread"][name] = (max(ts) - min(ts)) / median(ts)
    del ref
    return row


GENERATED = ("gen", "gen-inc", "gen-tma", "gen-tma-s4")
PAIRS = (("gen", "hand"), ("gen-inc", "hand"), ("gen-tma", "hand-tma"),
         ("gen-tma-s4", "hand-tma-s4"))


def fmt_row(r):
    t = r["times"]
    if r["section"] == "softmax":
        vals = {k: f"{r['bytes'] / v / 1e6:7.0f}GB/s" for k, v in t.items()}
    else:
        vals = {k: f"{r['flops'] / v / 1e9:6.0f}TF" for k, v in t.items()}
    base = t.get("cuBLAS", t.get("torch", t.get("copy")))
    ratios = []
    for k in GENERATED:
        if k in t and base:
            ratios.append(f"{k}/{'cuBLAS' if 'cuBLAS' in t else 'torch' if 'torch' in t else 'copy'}={base / t[k]:.2f}")
    for g, h in PAIRS:
        if g in t and h in t:
            ratios.append(f"{g}/{h}={t[h] / t[g]:.2f}")
    shape = f"{r['M']}x{r['N']}" + (f"x{r['K']}" if r["K"] else "")
    notes = "; ".join(f"{k}: {v}" for k, v in r["notes"].items())
    return (f"{r['section']:10s} {r['layout']:5s} {shape:16s} " +
            " ".join(f"{k}={v}" for k, v in vals.items()) + "  " + " ".join(ratios) +
            (f"  [{notes}]" if notes else ""))


def md_table(rows):
    """Markdown: TFLOP/s (GB/s for softmax) of each provider and the ratios
    of speed (time of the reference over time of the kernel)."""
    provs = ["hand", "gen", "gen-inc", "hand-tma", "gen-tma", "hand-tma-s4", "gen-tma-s4"]
    gens = [g for g in GENERATED]
    head = (["section", "layout", "size", "reference"] + provs + [f"{g}/ref" for g in gens] +
            [f"{g}/{h}" for g, h in PAIRS] + ["notes"])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        t = dict(r["times"])
        ref = "copy" if r["section"] == "softmax" else next(
            (k for k in ("cuBLAS", "torch") if k in t), None)
        unit = r["bytes"] / 1e6 if r["section"] == "softmax" else r["flops"] / 1e9
        refv = f"{ref} {unit / t[ref]:.0f}" if ref in t else "-"
        if r["section"] == "softmax" and "torch" in t:
            refv += f" (torch {unit / t['torch']:.0f})"

        def q(a, b):
            return f"{t[b] / t[a]:.2f}" if a in t and b in t else "-"
        shape = f"{r['M']}x{r['N']}" + (f"x{r['K']}" if r["K"] else "")
        notes = "; ".join(f"{k}: {v}" for k, v in r["notes"].items()).replace("|", "/")
        spread = max(r.get("spread", {}).values(), default=0)
        cells = ([r["section"], r["layout"], shape, refv] +
                 [f"{unit / t[c]:.0f}" if c in t else "-" for c in provs] +
                 [q(g, ref) if ref else "-" for g in gens] + [q(g, h) for g, h in PAIRS] +
                 [f"{notes + '; ' if notes else ''}spread {spread:.1%}"])
        out.append("| " + " | ".join(cells) + " |")
    return out


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if not n else xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def summarize(rows):
    """Each target of the issue: the figures and met or not."""
    out = []

    def ratio(r, num, den):          # speed of `den` over ... : t_num / t_den
        t = r["times"]
        return t[num] / t[den] if num in t and den in t else None

    def line(name, figs, met):
        out.append(f"| {name} | {figs} | {'met' if met else 'NOT met'} |")
    sections = sorted({(r["section"], r["layout"]) for r in rows})
    for sec, lay in sections:
        rs = [r for r in rows if r["section"] == sec and r["layout"] == lay and
              r["N"] >= 1024 and (sec == "softmax" or r["M"] >= 1024)]
        for g, h in PAIRS:
            xs = [x for x in (ratio(r, h, g) for r in rs) if x]
            if xs:
                m = median(xs)
                line(f"{sec} {lay}: {g} / {h}, median over sizes >= 1024",
                     f"{m:.3f} (n={len(xs)}, min {min(xs):.2f}, max {max(xs):.2f})", m >= 1.0)
    for r in rows:
        if r["section"] == "gemm-fp16" and r["M"] == r["N"] == r["K"] and r["M"] in (4096, 8192):
            best = max((ratio(r, "cuBLAS", g) or 0) for g in GENERATED)
            figs = ", ".join(f"{g} {ratio(r, 'cuBLAS', g):.3f}" for g in GENERATED
                             if ratio(r, "cuBLAS", g))
            line(f"FP16 {r['layout']} {r['M']}: generated / cuBLAS >= 0.90", figs, best >= 0.9)
        if r["section"] == "softmax" and r["N"] >= 8192:
            bw = ratio(r, "copy", "gen")
            tv = ratio(r, "torch", "gen")
            if bw and tv:
                line(f"softmax N={r['N']}: gen / copy bandwidth >= 0.90, faster than torch",
                     f"{bw:.3f} of copy, {tv:.3f}x torch.softmax", bw >= 0.9 and tv > 1.0)
        if r["section"] == "grouped" and r["N"] >= 4096:
            xs = {g: ratio(r, "torch", g) for g in GENERATED}
            figs = ", ".join(f"{g} {x:.3f}" for g, x in xs.items() if x)
            line(f"grouped N={r['N']}: generated / torch.matmul per GEMM >= 0.90", figs,
                 max((x or 0) for x in xs.values()) >= 0.9)
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    logf = open(os.path.join(OUT, "bench.log"), "w")

    def log(s):
        print(s, flush=True)
        logf.write(s + "\n")
        logf.flush()
    dev = torch.cuda.get_device_name()
    log(f"device {dev}, {num_sms()} SMs; torch {torch.__version__} (CUDA {torch.version.cuda}), "
        f"triton {triton.__version__}; command: {' '.join(sys.argv)}")
    cases = all_cases()
    priors = [{} for _ in cases]
    t0 = time.time()
    workers = int(os.environ.get("BENCH_WORKERS", "12"))
    if workers > 0:
        with mp.get_context("spawn").Pool(workers) as pool:
            try:
                priors = pool.map_async(warm, cases, chunksize=1).get(timeout=300)
            except mp.TimeoutError:
                log("compile pool: timed out, the rest compiles on first use")
    log(f"compiled {len(cases)} cases in {time.time() - t0:.0f} s")
    rows, failures = [], []
    for case, prior in zip(cases, priors):
        try:
            r = run_case(case, log, failures, prior)
        except Exception:
            failures.append(f"{case}: exception {traceback.format_exc().splitlines()[-1]}")
            log(f"{case}: EXCEPTION\n{traceback.format_exc()}")
            continue
        rows.append(r)
        log(fmt_row(r))
        torch.cuda.empty_cache()
    try:
        summary = summarize(rows)
    except Exception:
        summary = ["summary failed: " + traceback.format_exc().splitlines()[-1]]
    log("\n| target | figures | |\n|---|---|---|")
    for s in summary:
        log(s)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(dict(device=dev, sms=num_sms(), torch=torch.__version__,
                       triton=triton.__version__, rows=rows, failures=failures,
                       summary=summary, seconds=time.time() - START), f, indent=1)
    with open(os.path.join(OUT, "table.md"), "w") as f:
        f.write("\n".join(md_table(rows) + ["", "| target | figures | |", "|---|---|---|"] +
                          summary) + "\n")
    try:
        plot.plot(rows, os.path.join(OUT, "fig12.png"), dev)
    except Exception:
        log("plot failed: " + traceback.format_exc().splitlines()[-1])
    log(f"failures: {len(failures)}")
    for f_ in failures:
        log("  " + f_)
    log(f"total {time.time() - START:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
