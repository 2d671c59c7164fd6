# bench.py - bench/synth/gemm on the GPU: the generated FP16 GEMMs (lego
# infer --cuda tests/synth/gemm.tile, block k 32, and gemm64.tile, block k
# 64), the first with hand-written swizzles (hand.cu), the wgmma kernel on
# gemm64's shared layout and copies (wgmma.cu) and cuBLAS (torch.matmul in
# fp16), C = A B^T at 4096 and 8192.  Each kernel is checked against an
# fp32 reference first.  `python3 bench.py --ncu` runs each kernel once at
# 4096, for ncu; SKIP=name,... leaves kernels out.
import ctypes
import os
import sys

import torch

lib = ctypes.CDLL("./libgemm.so")
KERNELS = [("lego", lib.gemm_tn_launch), ("lego64", lib.gemm_tn64_launch),
           ("hand", lib.hand_gemm_tn_launch), ("wgmma", lib.wgmma_tn_launch)]
# the wgmma pipeline's variants (build.sh), and EXTRA=name=LIB:SYMBOL,...
# more launchers from other libraries
for v in ("p0", "w0"):
    KERNELS.append(("wg_" + v, getattr(ctypes.CDLL(f"./libwg_{v}.so"),
                                       f"wgmma_{v}_launch")))
for x in filter(None, os.environ.get("EXTRA", "").split(",")):
    name, at = x.split("=")
    so, sym = at.split(":")
    KERNELS.append((name, getattr(ctypes.CDLL("./" + so), sym)))
KERNELS = [k for k in KERNELS if k[0] not in os.environ.get("SKIP", "").split(",")]


def launch(fn, a, b, c):
    m, k = a.shape
    n = b.shape[0]
    rc = fn(ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(b.data_ptr()),
            ctypes.c_void_p(c.data_ptr()), m, n, k,
            ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert rc == 0, "launch failed"


def timed(f, reps=20):
    for _ in range(3):
        f()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(reps):
        f()
    e1.record()
    torch.cuda.synchronize()
    return e0.elapsed_time(e1) / reps


def main():
    torch.manual_seed(0)
    if "--ncu" in sys.argv:
        a = torch.randn(4096, 4096, device="cuda", dtype=torch.half)
        b = torch.randn(4096, 4096, device="cuda", dtype=torch.half)
        c = torch.empty(4096, 4096, device="cuda", dtype=torch.half)
        for _, fn in KERNELS:
            launch(fn, a, b, c)
        torch.cuda.synchronize()
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"device: {torch.cuda.get_device_name()}")
    print(f"{'size':>6} {'kernel':>7} {'ms':>8} {'TFLOP/s':>8} {'max err':>9}"
          f" {'x hand':>7} {'x cuBLAS':>9}")
    for s in (4096, 8192):
        a = torch.randn(s, s, device="cuda", dtype=torch.half)
        b = torch.randn(s, s, device="cuda", dtype=torch.half)
        ref = a.float() @ b.float().t()
        flop = 2.0 * s ** 3
        res = {}
        for name, fn in KERNELS:
            c = torch.zeros(s, s, device="cuda", dtype=torch.half)
            launch(fn, a, b, c)
            torch.cuda.synchronize()
            err = (c.float() - ref).abs().max().item()
            ok = err <= 1e-2 * ref.abs().max().item()
            res[name] = (timed(lambda: launch(fn, a, b, c)), err, ok)
        c = torch.matmul(a, b.t())
        err = (c.float() - ref).abs().max().item()
        res["cuBLAS"] = (timed(lambda: torch.matmul(a, b.t())), err, True)
        for name, (ms, err, ok) in res.items():
            print(f"{s:>6} {name:>7} {ms:8.3f} {flop / ms / 1e9:8.1f} {err:9.4f}"
                  f" {res['hand'][0] / ms:7.3f} {res['cuBLAS'][0] / ms:9.3f}"
                  f"{'' if ok else '  WRONG'}")


main()
