"""Layer normalisation through the generated kernels of layernorm.py, as a
torch.autograd.Function (the way the benchmark and the authors time it).

Launch parameters (powers of two, and divisors as layernorm.lego assumes):
  forward   BM rows per program, `warps` warps;
  backward  the first kernel BM rows per step, G programs (any number up to
            M/BM: a multiple of the multiprocessors fills the device), each
            over the tiles p, p + G, ..., `warps` warps, loads issued
            `stages` - 1 steps ahead; the second kernel BG x BN tiles of the
            G x N partial sums (BG the largest power of two dividing G, at
            most 32; N / BN about 128 programs).
The defaults below are a heuristic; bench.py picks, per N and dtype, the
fastest of the candidates (fwd_candidates, bwd_candidates) and says which.
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


def sms():
    return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count


def bwd_default(N, elsize):
    bm = max(1, 2048 // N)
    return bm, 8 if N <= 8192 else 16, 2 if N * elsize <= 8192 else 1, 2 * sms()


def bwd_candidates(N, elsize, wide):
    """(BM, warps, stages, G): the default, and when `wide` the product of
    2 or 3 row counts (BM N from N to 8192 elements), 4 to 16 warps (8 to 64
    elements a thread), 1 or 2 stages and 1, 2 or 4 programs a
    multiprocessor (at most M / BM)."""
    out = {bwd_default(N, elsize)}
    if wide:
        for bm in (1, 2, 4, 8):
            for warps in (4, 8, 16):
                per_thread = bm * N // (32 * warps)
                if bm * N > max(N, 8192) or not 8 <= per_thread <= 64:
                    continue
                for stages in (1, 2):
                    for occ in (1, 2, 4):
                        out.add((bm, warps, stages, occ * sms()))
    return sorted(out)


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
        bm, warps, stages, g = ctx.bwd
        bm = min(M, bm)
        g = min(g, M // bm)
        dx = torch.empty_like(x)
        dwp = torch.empty((g, N), dtype=torch.float32, device=x.device)
        dbp = torch.empty((g, N), dtype=torch.float32, device=x.device)
        gen.layernorm_bwd_dx[(g,)](x, dy.contiguous(), dx, w, mean, rstd, dwp, dbp, M, g, N=N,
                                   BM=bm, NUM_STAGES=stages, num_warps=warps)
        dw = torch.empty_like(w)
        db = torch.empty_like(w)
        bn, bg = min(N, max(16, N // 128)), min(32, g & -g)
        gen.layernorm_bwd_dwdb[(N // bn,)](dwp, dbp, dw, db, g, N=N, BG=bg, BN=bn, num_warps=4)
        return dx, dw, db, None, None, None


def layer_norm(x, w, b, eps=1e-5, fwd=None, bwd=None):
    return LayerNorm.apply(x, w, b, eps, fwd, bwd)
