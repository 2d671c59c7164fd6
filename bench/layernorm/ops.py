"""Layer normalisation through the generated kernels of layernorm.py, as a
torch.autograd.Function (the way the benchmark and the authors time it).

Launch parameters (powers of two, and divisors as layernorm.lego assumes):
  forward   BM rows per program, `warps` warps;
  backward  the first kernel BM = max(1, 2048 // N) rows per step, G
            programs (at most M/BM), each over STEPS = M / (BM G) steps,
            `warps` warps, loads issued `stages` - 1 steps ahead; the
            second kernel BG x BN tiles of the G x N partial sums.
The defaults below are a heuristic; bench.py picks, per N and dtype, the
fastest of a few candidates (FWD_CANDIDATES, BWD_CANDIDATES) and says which.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layernorm as gen  # noqa: E402


def fwd_default(N):
    bm = max(1, 4096 // N)
    return bm, min(16, max(1, bm * N // 1024))


def fwd_candidates(N):
    bm, warps = fwd_default(N)
    out = {(bm, warps), (bm, max(1, warps // 2)), (bm, min(16, warps * 2)),
           (max(1, bm // 4), max(1, warps // 4))}
    return sorted(out)


def bwd_default(N, elsize):
    warps = 8 if N <= 8192 else 16
    stages = 2 if max(1, 2048 // N) * N * elsize * 4 <= 64 * 1024 else 1
    return warps, stages, 256


def bwd_candidates(N, elsize):
    warps, stages, g = bwd_default(N, elsize)
    return sorted({(warps, stages, g), (warps, 1, g), (max(4, warps // 2), stages, g),
                   (min(16, warps * 2), 1, g), (warps, stages, 1024), (max(4, warps // 2), stages, 1024)})


class LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b, eps, fwd, bwd):
        M, N = x.shape
        if N & (N - 1) or M & (M - 1) or N < 16:
            raise ValueError(f"layernorm: M and N must be powers of two, N >= 16 (M={M}, N={N})")
        bm, warps = fwd or fwd_default(N)
        bm = min(bm, M)
        y = torch.empty_like(x)
        mean = torch.empty(M, dtype=torch.float32, device=x.device)
        rstd = torch.empty(M, dtype=torch.float32, device=x.device)
        gen.layernorm_fwd[(M // bm,)](x, y, w, b, mean, rstd, M, eps, N=N, BM=bm, num_warps=warps)
        ctx.save_for_backward(x, w, mean, rstd)
        ctx.bwd = bwd or bwd_default(N, x.element_size())
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, mean, rstd = ctx.saved_tensors
        M, N = x.shape
        warps, stages, g = ctx.bwd
        bm = min(M, max(1, 2048 // N))
        g = min(g, M // bm)
        dx = torch.empty_like(x)
        dwp = torch.empty((g, N), dtype=torch.float32, device=x.device)
        dbp = torch.empty((g, N), dtype=torch.float32, device=x.device)
        gen.layernorm_bwd_dx[(g,)](x, dy.contiguous(), dx, w, mean, rstd, dwp, dbp, M, g, N=N,
                                   BM=bm, STEPS=M // (bm * g), NUM_STAGES=stages,
                                   num_warps=warps)
        dw = torch.empty_like(w)
        db = torch.empty_like(w)
        bn, bg = min(N, 128), min(g, 32)
        gen.layernorm_bwd_dwdb[(N // bn,)](dwp, dbp, dw, db, g, N=N, BG=bg, BN=bn, num_warps=4)
        return dx, dw, db, None, None, None


def layer_norm(x, w, b, eps=1e-5, fwd=None, bwd=None):
    return LayerNorm.apply(x, w, b, eps, fwd, bwd)
