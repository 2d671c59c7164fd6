"""The tile configurations of the Triton benchmark: a small fixed table
(no autotuning), the same for the generated and the hand-written kernels.
Free of torch, so that compile_check.py can use it on a machine without a
GPU."""


def cdiv(a, b):
    return (a + b - 1) // b


def group_m(npm):
    """GROUP_SIZE_M: 8, or the largest power of two dividing npm (the
    plain generated kernel's P needs GM | npm)."""
    return next(g for g in (8, 4, 2, 1) if npm % g == 0)


def gemm_cfg(M, N, K, fp8):
    if N <= 256 and M >= 4096:        # skinny: enough tiles for the SMs
        c = dict(BM=64, BN=128, BK=64, stages=4, warps=4)
    elif min(M, N) <= 512:
        c = dict(BM=64, BN=64, BK=64, stages=4, warps=4)
    elif min(M, N) < 4096:
        c = dict(BM=128, BN=128, BK=64, stages=4, warps=4)
    else:
        c = dict(BM=128, BN=256, BK=64, stages=3, warps=8)
    if fp8:
        c["BK"] = 128
    c["exact"] = M % c["BM"] == 0 and N % c["BN"] == 0 and K % c["BK"] == 0
    c["GM"] = group_m(cdiv(M, c["BM"])) if c["exact"] else 8
    return c


def grouped_cfg(n):
    if n <= 512:
        c = dict(BM=64, BN=64, BK=64, stages=4, warps=4)
    elif n < 4096:
        c = dict(BM=128, BN=128, BK=64, stages=4, warps=4)
    else:
        c = dict(BM=128, BN=256, BK=64, stages=3, warps=8)
    c["GM"] = group_m(n // c["BM"])
    return c


def softmax_cfg(n, sms):
    """Rows of n float32 columns, 256 MB in all."""
    warps = 4 if n <= 1024 else 8 if n <= 4096 else 16
    rows = (1 << 26) // n
    return dict(rows=rows, warps=warps, stages=2, programs=min(rows, sms * 8))


FP16_SIZES = [(s, s, s) for s in (128, 256, 512, 1024, 2048, 4096, 8192)] + \
    [(1000, 1000, 1000), (4097, 4097, 4097), (8192, 128, 8192)]
FP8_SIZES = [(s, s, s) for s in (1024, 4096, 8192)]
SOFTMAX_N = [512, 1024, 2048, 4096, 8192, 16384]
GROUPED_N = [128, 512, 1024, 2048, 4096, 8192]
LAYOUTS = [("ab", "Row", "Row"), ("abt", "Row", "Col"),
           ("atb", "Col", "Row"), ("atbt", "Col", "Col")]
