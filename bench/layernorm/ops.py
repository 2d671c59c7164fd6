"""Layer normalisation through the generated kernels of layernorm.py, as a
torch.autograd.Function (the way the benchmark and the authors time it).

Launch parameters (all powers of two, and divisors as layernorm.lego
assumes): the forward takes BM rows per program so that a program holds at
least 2048 elements; the backward's first kernel the same BM, with G = 256
programs (fewer when M/BM is smaller), each over STEPS = M / (BM G) tiles;
the second kernel BG x BN tiles of the G x N partial sums.
"""
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layernorm as gen  # noqa: E402


def fwd_config(M, N):
    bm = min(M, max(1, 2048 // N))
    return bm, min(16, max(1, bm * N // 512))


def bwd_config(M, N):
    bm = min(M, max(1, 2048 // N))
    g = min(256, M // bm)
    return bm, g, M // (bm * g), min(16, max(1, bm * N // 256))


def check_shape(M, N):
    if N & (N - 1) or M & (M - 1) or N < 16:
        raise ValueError(f"layernorm: M and N must be powers of two, N >= 16 (M={M}, N={N})")


def forward(x, w, b, eps):
    M, N = x.shape
    check_shape(M, N)
    y = torch.empty_like(x)
    mean = torch.empty(M, dtype=torch.float32, device=x.device)
    rstd = torch.empty(M, dtype=torch.float32, device=x.device)
    bm, warps = fwd_config(M, N)
    gen.layernorm_fwd[(M // bm,)](x, y, w, b, mean, rstd, M, eps, N=N, BM=bm, num_warps=warps)
    return y, mean, rstd


def backward(dy, x, w, mean, rstd):
    M, N = x.shape
    bm, g, steps, warps = bwd_config(M, N)
    dx = torch.empty_like(x)
    dwp = torch.empty((g, N), dtype=torch.float32, device=x.device)
    dbp = torch.empty((g, N), dtype=torch.float32, device=x.device)
    gen.layernorm_bwd_dx[(g,)](x, dy, dx, w, mean, rstd, dwp, dbp, M, g, N=N, BM=bm,
                               STEPS=steps, num_warps=warps)
    dw = torch.empty_like(w)
    db = torch.empty_like(w)
    bn, bg = min(N, 128), min(g, 32)
    gen.layernorm_bwd_dwdb[(N // bn,)](dwp, dbp, dw, db, g, N=N, BG=bg, BN=bn, num_warps=4)
    return dx, dw, db


class LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b, eps):
        y, mean, rstd = forward(x, w, b, eps)
        ctx.save_for_backward(x, w, mean, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, mean, rstd = ctx.saved_tensors
        dx, dw, db = backward(dy.contiguous(), x, w, mean, rstd)
        return dx, dw, db, None


def layer_norm(x, w, b, eps=1e-5):
    return LayerNorm.apply(x, w, b, eps)
