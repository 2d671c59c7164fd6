# torch_ref.py [GROUP..] - the baselines of bench/mdh beside the
# generated kernels, fp32 with TF32 off: torch.mv and torch.matmul
# (cuBLAS SGEMV/SGEMM), torch.nn.functional.conv2d at the MCC shapes
# (cuDNN, benchmark mode: its fastest algorithm), torch.einsum for the
# CCSD(T) contraction.  Median of 20 timed runs after 3 warm-ups, with
# CUDA events, the way gpu.cu times the kernels.
import sys

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True


def median_ms(f):
    for _ in range(3):
        f()
    ts = []
    for _ in range(20):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        f()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    return ts[len(ts) // 2]


def rand(*shape):
    return torch.rand(*shape, device="cuda", generator=g) * 2 - 1


def show(label, ms, rate):
    print(f"{label:44s} {ms:9.4f} ms {rate}", flush=True)


g = torch.Generator(device="cuda").manual_seed(1)
groups = sys.argv[1:] or ["matvec", "matmul", "mcc", "ccsdt"]
if "matvec" in groups:
    M, v = rand(8192, 8192), rand(8192)
    ms = median_ms(lambda: torch.mv(M, v))
    show("torch.mv (cuBLAS SGEMV) 8192^2", ms,
         f"{4.0 * (8192 * 8192 + 2 * 8192) / ms / 1e6:8.1f} GB/s")
if "matmul" in groups:
    A, B = rand(4096, 4096), rand(4096, 4096)
    ms = median_ms(lambda: torch.matmul(A, B))
    show("torch.matmul (cuBLAS SGEMM) 4096^3", ms,
         f"{2.0 * 4096 ** 3 / ms / 1e9:8.2f} TFLOP/s")
if "mcc" in groups:
    # N K P Q C R S as in variants-mcc.sh: output P x Q, no padding
    for n, k, p, q, c, r, s in ((1, 64, 54, 54, 64, 3, 3),
                                (1, 128, 26, 26, 128, 3, 3),
                                (1, 256, 12, 12, 256, 3, 3),
                                (1, 512, 5, 5, 512, 3, 3),
                                (1, 256, 56, 56, 64, 1, 1),
                                (1, 64, 56, 56, 256, 1, 1)):
        x, f = rand(n, c, p + r - 1, q + s - 1), rand(k, c, r, s)
        ms = median_ms(lambda: torch.nn.functional.conv2d(x, f))
        show(f"torch conv2d (cuDNN) {n} {k} {p} {q} {c} {r} {s}", ms,
             f"{2.0 * n * k * p * q * c * r * s / ms / 1e9:8.2f} TFLOP/s")
if "ccsdt" in groups:
    for e in (16, 24):
        t2, v2 = rand(e, e, e, e), rand(e, e, e, e)
        # t3[h3,h2,h1,p6,p5,p4] = sum_h7 t2[h7,p4,p5,h1] v2[h3,h2,p6,h7]
        # (the kernel writes the negated sum; torch is timed without the
        # negation)
        ms = median_ms(lambda: torch.einsum("gdea,bcfg->bcafed", t2, v2))
        show(f"torch.einsum CCSD(T) sd_t_d1_1 {e}^7", ms,
             f"{2.0 * e ** 7 / ms / 1e9:8.2f} TFLOP/s")
