# bench.py - bench/synth/mixed on the GPU: the FP16 x INT4 GEMM C = A W
# (A [M, K] f16, W [K, N] 4-bit with f16 scales a group of 128 along K),
# three ways side by side: ours (mixed.cu, written by `lego gen` from
# mixed.cu.tpl and mixed.lego), the Triton baseline (triton_w4.py) and
# cuBLAS in f16 on the dequantised weights (torch's linear).  Every kernel
# is checked against the dequantise-then-matmul reference (f32) before it
# is timed, on fresh random inputs, its output poisoned with NaN first.
# Each side's instances (our kernel's CONFIGS, the Triton tiles of
# triton_w4.configs) are all checked, and the fastest of 3 calls is kept,
# as Triton's autotune would.  Times: the median of REPS calls, each between
# CUDA events with the L2 flushed before it (a 256 MB write outside them).
# Usage: python3 bench.py [--quick] [--m M,..] [--no-triton] [--lib SO] [--each]
# (in the folder holding libmixed.so; --lib: another build of mixed.cu, e.g.
# an earlier one to compare with in the same call; --each: every checked
# instance's time of its 3 calls on stderr)
import ctypes
import sys

import torch

import triton_w4

SHAPES = [(4096, 4096), (11008, 4096), (4096, 11008), (8192, 8192), (28672, 8192),
          (8192, 28672)]  # (N, K): LLaMA-7B and -70B linear layers
MS = [1, 16, 64, 256]
REPS = 50
lib = ctypes.CDLL(sys.argv[sys.argv.index("--lib") + 1] if "--lib" in sys.argv else "./libmixed.so")


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


def ours(a, words, sc, c, cfg, ws):
    m, k = a.shape
    n = c.shape[1]
    rc = lib.w4a16_launch_cfg(ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(words.data_ptr()),
                              ctypes.c_void_p(sc.data_ptr()), ctypes.c_void_p(c.data_ptr()),
                              ctypes.c_void_p(ws[0].data_ptr()), ctypes.c_void_p(ws[1].data_ptr()),
                              m, n, k, cfg,
                              ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert rc == 0, f"launch failed: {rc}"


def workspace(m, n, k, cfg):
    """The partial sums of shared tiles and the tile counters (both zeroed,
    the kernel leaves them so) instance cfg needs."""
    out = (ctypes.c_longlong * 2)()
    lib.w4a16_workspace(m, n, k, cfg, out)
    return (torch.zeros(max(out[0], 1), device="cuda", dtype=torch.float32),
            torch.zeros(max(out[1], 1), device="cuda", dtype=torch.int32))


def our_configs():
    """Our kernel's instances: (index, name)."""
    name = ctypes.c_char_p()
    found = []
    for i in range(lib.w4a16_config(-1, ctypes.byref(name))):
        lib.w4a16_config(i, ctypes.byref(name))
        found.append((i, name.value.decode()))
    return found


def tune(cands, m, n, ref, flush):
    """Checks every candidate (name, launch(c)), times the correct ones
    briefly, returns (fastest name, its launch, largest error, wrong names)."""
    best, wrong, worst = None, [], 0.0
    ct = torch.empty(m, n, device="cuda", dtype=torch.half)
    for name, launch in cands:
        try:
            rel, ok = check(launch, ref)
        except Exception as exc:  # a Triton tile that does not fit (shared memory)
            print(f"# {name}: {type(exc).__name__}", file=sys.stderr)
            continue
        worst = max(worst, rel)
        if not ok:
            wrong.append(name)
            continue
        ms = timed(lambda: launch(ct), flush, 3)
        if "--each" in sys.argv:
            print(f"# {name}: {ms * 1e3:.1f} us", file=sys.stderr)
        if best is None or ms < best[0]:
            best = ms, name, launch
    if best is None:
        return "-", lambda c: c.fill_(float("nan")), worst, wrong or (["every instance"] if cands else [])
    return best[1], best[2], worst, wrong


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


def check(run, ref):
    c = torch.full(ref.shape, float("nan"), device="cuda", dtype=torch.half)
    run(c)
    torch.cuda.synchronize()
    rel = ((c.float() - ref).norm() / ref.norm()).item()
    return rel, bool(torch.isfinite(c).all().item()) and rel < 2e-3


def main():
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    quick = "--quick" in sys.argv
    no_triton = "--no-triton" in sys.argv  # a quick look at ours (its column: nan)
    ms = [int(x) for x in sys.argv[sys.argv.index("--m") + 1].split(",")] if "--m" in sys.argv \
        else MS
    reps = 5 if quick else REPS
    flush = torch.empty(256 << 20, device="cuda", dtype=torch.uint8)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {triton_w4.triton.__version__}")
    print("times: median of %d calls, L2 flushed before each (CUDA events)" % reps)
    print(f"{'N':>6} {'K':>6} {'M':>4} {'ours us':>8} {'triton us':>9} {'cuBLAS us':>9}"
          f" {'x triton':>8} {'x cuBLAS':>8} {'ours GB/s':>9} {'ours':>20} {'triton':>15}"
          f"  max rel err (ours/triton/cuBLAS)")
    failed = 0
    for n, k in SHAPES:
        for m in ms:
            a, q, s, wdeq = problem(m, n, k)
            ref = a.float() @ wdeq.float()
            words, sc = pack_ours(q), scales_ours(s)
            twords = triton_w4.pack(q)
            wt = wdeq.t().contiguous()  # [N, K], as nn.Linear keeps it
            del q
            # Each side's instances all checked; the fastest kept, as autotune would.
            if "--each" in sys.argv:
                print(f"# N {n} K {k} M {m}", file=sys.stderr)
            o_name, o_run, o_err, o_bad = tune(
                [(name, lambda c, i=i, ws=workspace(m, n, k, i): ours(a, words, sc, c, i, ws))
                 for i, name in our_configs()],
                m, n, ref, flush)
            t_name, t_run, t_err, t_bad = tune(
                [("x".join(map(str, cfg[:3])) + f"/{cfg[3]}w{cfg[4]}s",
                  lambda c, cfg=cfg: triton_w4.launch(a, twords, s, c, cfg))
                 for cfg in triton_w4.configs(m) if not no_triton], m, n, ref, flush)
            c_err, c_ok = check(lambda c: c.copy_(torch.nn.functional.linear(a, wt)), ref)
            c = torch.empty(m, n, device="cuda", dtype=torch.half)
            t_ours = timed(lambda: o_run(c), flush, reps)
            t_tri = timed(lambda: t_run(c), flush, reps)
            t_cub = timed(lambda: torch.nn.functional.linear(a, wt), flush, reps)
            o_again = check(o_run, ref)[1]  # the workspace left zero by every call
            bytes_ = words.numel() * 4 + sc.numel() * 2 + a.numel() * 2 + m * n * 2
            bad = [f"ours {x}" for x in o_bad] + [f"triton {x}" for x in t_bad] + \
                ([] if c_ok else ["cuBLAS"]) + ([] if o_again else [f"ours {o_name} after timing"])
            failed += len(bad)
            print(f"{n:>6} {k:>6} {m:>4} {t_ours * 1e3:8.1f} {t_tri * 1e3:9.1f} {t_cub * 1e3:9.1f}"
                  f" {t_tri / t_ours:8.2f} {t_cub / t_ours:8.2f} {bytes_ / t_ours / 1e6:9.0f}"
                  f" {o_name:>20} {t_name:>15}  {o_err:.1e}/{t_err:.1e}/{c_err:.1e}"
                  f"{'  WRONG: ' + ', '.join(bad) if bad else ''}", flush=True)
    print("all checked: ok" if failed == 0 else f"{failed} WRONG")


if __name__ == "__main__":
    main()
