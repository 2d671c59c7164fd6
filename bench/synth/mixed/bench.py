# bench.py - bench/synth/mixed on the GPU: the FP16 x INT4 GEMM C = A W
# (A [M, K] f16, W [K, N] 4-bit with f16 scales a group of 128 along K),
# three ways side by side: ours (mixed.cu, written by `lego gen` from
# mixed.cu.tpl and mixed.lego), the Triton baseline (triton_w4.py) and
# cuBLAS in f16 on the dequantised weights (torch's linear).  Every kernel
# is checked against the dequantise-then-matmul reference (f32) before it
# is timed, on fresh random inputs, its output poisoned with NaN first.
# Times: the median of REPS calls, each between CUDA events with the L2
# flushed before it (a 256 MB write outside the events).
# Usage: python3 bench.py [--quick]  (in the folder holding libmixed.so)
import ctypes
import sys

import torch

import triton_w4

SHAPES = [(4096, 4096), (11008, 4096), (4096, 11008), (8192, 8192), (28672, 8192),
          (8192, 28672)]  # (N, K): LLaMA-7B and -70B linear layers
MS = [1, 16, 64, 256]
REPS = 50
lib = ctypes.CDLL("./libmixed.so")


def pack_ours(q):
    """The format of mixed.lego's Wq, written here from its description:
    k = 128 kt + 32 t + 8 w + 4 s + 2 h + e, n = 8 nt + g, nibbles in the
    order nt, kt, g, t, w, e, s, h (outermost first), 8 a 32-bit word."""
    k, n = q.shape
    p = q.to(torch.int64).reshape(k // 128, 4, 4, 2, 2, 2, n // 8, 8)
    p = p.permute(6, 0, 7, 1, 2, 5, 3, 4).reshape(-1, 8)
    words = torch.zeros(p.shape[0], dtype=torch.int64, device=q.device)
    for j in range(8):
        words |= p[:, j] << (4 * j)
    return torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)


def scales_ours(s):
    """mixed.lego's Sc: scale (kt, 8 nt + g) at 8 (nt K / 128 + kt) + g."""
    kt, n = s.shape
    return s.reshape(kt, n // 8, 8).permute(1, 0, 2).contiguous()


def ours(a, words, sc, c):
    m, k = a.shape
    n = c.shape[1]
    rc = lib.w4a16_launch(ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(words.data_ptr()),
                          ctypes.c_void_p(sc.data_ptr()), ctypes.c_void_p(c.data_ptr()),
                          m, n, k, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert rc == 0, f"launch failed: {rc}"


def timed(f, flush, reps):
    f()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        flush.zero_()
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        f()
        e1.record()
        times.append((e0, e1))
    torch.cuda.synchronize()
    return sorted(e0.elapsed_time(e1) for e0, e1 in times)[reps // 2]


def problem(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.half)
    q = torch.randint(0, 16, (k, n), device="cuda", dtype=torch.int32)
    s = (torch.rand(k // 128, n, device="cuda") * 0.02 + 0.002).half()
    wdeq = (q - 8).half() * s.repeat_interleave(128, dim=0)  # [K, N] f16, as the kernels round
    return a, q, s, wdeq


def check(name, run, m, n, k, ref):
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.half)
    run(c)
    torch.cuda.synchronize()
    rel = ((c.float() - ref).norm() / ref.norm()).item()
    ok = bool(torch.isfinite(c).all().item()) and rel < 2e-3
    return c, rel, ok


def main():
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    quick = "--quick" in sys.argv
    reps = 5 if quick else REPS
    flush = torch.empty(256 << 20, device="cuda", dtype=torch.uint8)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {triton_w4.triton.__version__}")
    print("times: median of %d calls, L2 flushed before each (CUDA events)" % reps)
    print(f"{'N':>6} {'K':>6} {'M':>4} {'ours us':>8} {'triton us':>9} {'cuBLAS us':>9}"
          f" {'x triton':>8} {'x cuBLAS':>8} {'ours GB/s':>9}  triton tile  rel err (ours/tri/cuB)")
    failed = 0
    for n, k in SHAPES:
        for m in MS:
            a, q, s, wdeq = problem(m, n, k)
            ref = a.float() @ wdeq.float()
            words, sc = pack_ours(q), scales_ours(s)
            twords = triton_w4.pack(q)
            wt = wdeq.t().contiguous()  # [N, K], as nn.Linear keeps it
            del q
            runs = {
                "ours": lambda c: ours(a, words, sc, c),
                "cuBLAS": lambda c: c.copy_(torch.nn.functional.linear(a, wt)),
            }
            res = {}
            for name, run in runs.items():
                _, rel, ok = check(name, run, m, n, k, ref)
                res[name] = rel, ok
            # The baseline's tiles: the fastest correct one, as autotune would pick.
            best = None
            ct = torch.empty(m, n, device="cuda", dtype=torch.half)
            for cfg in triton_w4.configs(m):
                run = lambda c, cfg=cfg: triton_w4.launch(a, twords, s, c, cfg)
                try:
                    _, rel, ok = check("triton", run, m, n, k, ref)
                except Exception as exc:  # a tile that does not compile (shared memory)
                    print(f"# triton {cfg}: {type(exc).__name__}", file=sys.stderr)
                    continue
                if not ok:
                    res["triton"] = rel, False
                    continue
                ms = timed(lambda cfg=cfg: triton_w4.launch(a, twords, s, ct, cfg), flush, 3)
                if best is None or ms < best[0]:
                    best = ms, cfg, rel
            if best is not None:
                res["triton"] = best[2], True
            c = torch.empty(m, n, device="cuda", dtype=torch.half)
            t_ours = timed(lambda: ours(a, words, sc, c), flush, reps)
            t_cub = timed(lambda: torch.nn.functional.linear(a, wt), flush, reps)
            t_tri = timed(lambda: triton_w4.launch(a, twords, s, c, best[1]), flush, reps) \
                if best else float("nan")
            bytes_ = words.numel() * 4 + sc.numel() * 2 + a.numel() * 2 + m * n * 2
            bad = [name for name, (_, ok) in res.items() if not ok]
            failed += len(bad)
            tile = "x".join(map(str, best[1][:3])) + f"/{best[1][3]}w{best[1][4]}s" if best else "-"
            print(f"{n:>6} {k:>6} {m:>4} {t_ours * 1e3:8.1f} {t_tri * 1e3:9.1f} {t_cub * 1e3:9.1f}"
                  f" {t_tri / t_ours:8.2f} {t_cub / t_ours:8.2f} {bytes_ / t_ours / 1e6:9.0f}"
                  f"  {tile:>11}  {res['ours'][0]:.1e}/{res.get('triton', (float('nan'),))[0]:.1e}"
                  f"/{res['cuBLAS'][0]:.1e}{'  WRONG: ' + ' '.join(bad) if bad else ''}",
                  flush=True)
            del a, words, sc, twords, wt, wdeq, ref
    print("all checked: ok" if failed == 0 else f"{failed} WRONG")


main()
