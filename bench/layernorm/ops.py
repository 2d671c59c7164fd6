"""Layer normalisation through the generated kernels of layernorm.py, as a
torch.autograd.Function (the way the benchmark and the authors time it).

Launch parameters (powers of two, and divisors as layernorm.lego assumes):
  forward   BM rows per step, `warps` warps, G programs over the M / BM
            tiles (G = 0: one tile a program; else G a few programs a
            multiprocessor, each over the tiles p, p + G, ..., with 2
            `stages` the next tile's load issued before this one's sums,
            with 3 the next two tiles'),
            `tma` 1: x and y through TMA descriptors (bulk copies through
            shared memory, `stages` tiles of x in flight a program),
            `wb` 1: with 2 or 3 stages, w and b loaded again after each
            tile's sums, not held in registers across the tiles; with one
            stage, loaded right behind x, before the sums (wb = 0: after
            them); a configuration of five fields, as the runs before s10
            wrote them, is wb = 0;
            `cw` > 0 (s12): layernorm_fwd_warp, the tile as N / cw chunks of
            cw columns of its BM rows, chunk first or (`rf` 1) row first,
            a row to one warp (BM >= warps, cw 32 lanes of 16 bytes: its
            sums with no block barrier) or to k = warps / BM (cw k times
            wider: one exchange a sum) where Triton lays the rows on the
            warps (rf 0 with Triton 3.9, rf 1 with 3.6), one stage, w and b
            after the sums; stages, tma and wb unused; six fields are cw =
            0, seven rf = 0;
  backward  the first kernel BM rows per step, G programs in R = G / S
            groups of S (R any number up to M/BM: G a multiple of the
            multiprocessors fills the device), group q over the tiles q,
            q + R, ..., program c of a group owning the block c of N / S
            columns (S = 1: the whole row; S > 1 at large N, where a whole
            row and dw, db, w exceed the registers: the row sums read the
            other blocks BK columns at a time), `warps` warps, loads issued
            `stages` - 1 steps ahead; the second kernel BG x BN tiles of the
            R x N partial sums (BG the power of two from R up, at most 32,
            rows past R masked; N / BN about 128 programs).
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
    return bm, min(16, max(1, bm * N // 1024)), 0, 1, 0, 0


def fwd_config(c):
    """(BM, warps, G, stages, tma, wb, cw, rf) of a configuration of five
    to eight fields."""
    return tuple(c) + (0,) * (8 - len(c))


def fwd_candidates(N, dtype, persistent=False):
    """(BM, warps, G, stages, tma, wb): one tile a program, the default and three
    neighbours; when `persistent`, also twice the rows (BM) at the default
    and twice the warps, and G = 2, 4 or 8 programs a multiprocessor, 1 or
    2 stages, at the default BM and warps and at twice the warps; and, at
    BM and twice BM, those warps and 1, 2 or 3 stages (3: two tiles loaded
    ahead), G = the programs the device
    holds at once (fwd_resident): one wave, every program resident, the
    tiles dealt evenly (a G beyond it runs in waves, not persistent: at
    fp16 N = 4096 on the H100, 3 programs of the 2-stage kernel at 8 warps
    fit a multiprocessor, not the 8 of G = 1056).  When `persistent`, also
    through TMA (tma = 1) at the default BM, half and the default warps
    (a bulk copy needs no threads to keep bytes in flight): one tile a
    program, and the resident G with 2 or 3 stages.  When `persistent`,
    also (s10) one tile a program at four times the warps, and w and b
    reloaded after each tile's sums (wb = 1) at the resident G, 2 or 3
    stages, half, the default and twice BM, the default warps, twice and
    four times them, where a thread holds 8 to 64 elements of a tile:
    fewer registers a thread, more programs and tiles of x in flight; and
    each one-tile candidate with w and b loaded behind x (wb = 1)."""
    bm, warps = fwd_default(N)[:2]
    out = {(bm, warps), (bm, max(1, warps // 2)), (bm, min(16, warps * 2)),
           (max(1, bm // 4), max(1, warps // 4))}
    out = {(b, w, 0, 1, 0, 0) for b, w in out}
    if persistent:
        out.add((bm, min(16, warps * 4), 0, 1, 0, 0))
        for w in {warps, min(16, warps * 2)}:
            out.add((2 * bm, w, 0, 1, 0, 0))
            for stages in (1, 2, 3):
                for occ in (2, 4, 8) if stages < 3 else ():
                    out.add((bm, w, occ * sms(), stages, 0, 0))
                for b in (bm, 2 * bm):
                    out.add((b, w, fwd_resident(N, dtype, b, w, stages) * sms(), stages, 0, 0))
        for w in {max(1, warps // 2), warps}:
            out.add((bm, w, 0, 1, 1, 0))
            for stages in (2, 3):
                out.add((bm, w, fwd_resident(N, dtype, bm, w, stages, 1) * sms(), stages, 1, 0))
        for b in {max(1, bm // 2), bm, 2 * bm}:
            for w in {warps, min(16, warps * 2), min(16, warps * 4)}:
                if 8 <= b * N // (32 * w) <= 64:
                    for stages in (2, 3):
                        out.add((b, w, fwd_resident(N, dtype, b, w, stages, 0, 1) * sms(), stages, 0, 1))
        out |= {c[:5] + (1,) for c in out if c[2:] == (0, 1, 0, 0)}
        out |= set(fwd_warp_candidates(N, dtype))
    return sorted(out)


def fwd_warp_candidates(N, dtype):
    """(BM, warps, 0, 1, 0, 0, cw, rf): layernorm_fwd_warp, one tile a
    program (s12: every G = 4 programs a multiprocessor slower), at 4 or 8
    warps, a row to k = 1, 2 or 4 warps (BM = warps / k, cw = k times 32
    lanes of 16 bytes: Triton lays a chunk on k warps before it lays
    rows), where a thread holds 16 to 64 elements (more spill: 255
    registers at fp16 N = 4096, a row to a warp), chunk first and, where
    BM > 1 (else the two are one), row first."""
    lanes = 512 // torch.tensor([], dtype=dtype).element_size()
    out = []
    for warps in (4, 8):
        for k in (1, 2, 4):
            bm, cw = warps // k, lanes * k
            if cw <= N and 16 <= bm * N // (32 * warps) <= 64:
                out += [(bm, warps, 0, 1, 0, 0, cw, rf) for rf in ((0, 1) if bm > 1 else (0,))]
    return out


def fwd_resident(N, dtype, bm, warps, stages, tma=0, wb=0):
    """Programs of the forward a multiprocessor holds at once: registers,
    threads and shared memory of the compiled kernel, counted as the CUDA
    occupancy calculator does on sm_90 (registers a warp in units of 256;
    sm_90's figures where torch's properties lack one).  The kernel is
    compiled by one launch of one program on one tile (M, G as the one-
    tile candidates pass them, so the same compiled kernel)."""
    x = torch.zeros((bm, N), dtype=dtype, device="cuda")
    stat = torch.empty(bm, dtype=torch.float32, device="cuda")
    xa, ya = gen.fwd_descriptors(x, torch.empty_like(x), bm, N, bm) if tma else (x, torch.empty_like(x))
    k = gen.layernorm_fwd[(1,)](xa, ya, x[0], x[0], stat, stat, 4096, 4096 // bm,
                                1e-5, N=N, BM=bm, NUM_STAGES=stages, TMA=tma, WB=wb, num_warps=warps)
    props = torch.cuda.get_device_properties(x.device)
    regs_warp = -(-k.n_regs * 32 // 256) * 256
    by_regs = getattr(props, "regs_per_multiprocessor", 65536) // (regs_warp * warps)
    by_threads = getattr(props, "max_threads_per_multi_processor", 2048) // (32 * warps)
    by_shared = (getattr(props, "shared_memory_per_multiprocessor", 233472)
                 // (k.metadata.shared + 1024))
    return max(1, min(by_regs, by_threads, by_shared, 32))


def sms():
    return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count


def bwd_default(N, elsize):
    bm = max(1, 2048 // N)
    if N > 8192:
        return 1, 8, 1, 2 * sms(), 4, 2048
    return bm, 8, 2 if N * elsize <= 8192 else 1, 2 * sms(), 1, N


def bwd_candidates(N, elsize, wide):
    """(BM, warps, stages, G, S, BK): the default, and when `wide` the
    product of 2 or 3 row counts (BM N from N to 8192 elements), 4 to 16
    warps (8 to 64 elements a thread), 1 or 2 stages and 1 or 2 programs a
    multiprocessor, whole rows (S = 1); above N = 8192 also S = 2 or 4
    blocks of a row (BM = 1), BK = 2048 or N / S (the other blocks read
    whole; 1024 was the slowest of all on the H100), 8 or 16 warps, 1
    stage (the inner loop over BK keeps Triton from pipelining the outer
    one: 2 stages compile to the same registers)."""
    out = {bwd_default(N, elsize)}
    if wide:
        for bm in (1, 2, 4, 8):
            for warps in (4, 8, 16):
                per_thread = bm * N // (32 * warps)
                if bm * N > max(N, 8192) or not 8 <= per_thread <= 64:
                    continue
                for stages in (1, 2):
                    for occ in (1, 2):
                        out.add((bm, warps, stages, occ * sms(), 1, N))
        for s in (2, 4) if N > 8192 else ():
            for warps in (8, 16):
                for bk in (2048, N // s):
                    for occ in (1, 2):
                        out.add((1, warps, 1, occ * sms(), s, bk))
    return sorted(out)


class LayerNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b, eps, fwd, bwd):
        M, N = x.shape
        if N & (N - 1) or M & (M - 1) or N < 16:
            raise ValueError(f"layernorm: M and N must be powers of two, N >= 16 (M={M}, N={N})")
        bm, warps, g, stages, tma, wb, cw, rf = fwd_config(fwd or fwd_default(N))
        bm = min(bm, M)
        g = min(g or M // bm, M // bm)
        y = torch.empty_like(x)
        mean = torch.empty(M, dtype=torch.float32, device=x.device)
        rstd = torch.empty(M, dtype=torch.float32, device=x.device)
        if cw:
            gen.layernorm_fwd_warp[(g,)](x, y, w, b, mean, rstd, M, g, eps, N=N, BM=bm, CW=cw,
                                         RF=rf, num_warps=warps)
        else:
            xa, ya = gen.fwd_descriptors(x, y, M, N, bm) if tma else (x, y)
            gen.layernorm_fwd[(g,)](xa, ya, w, b, mean, rstd, M, g, eps, N=N, BM=bm,
                                    NUM_STAGES=stages, TMA=tma, WB=wb, num_warps=warps)
        ctx.save_for_backward(x, w, mean, rstd)
        ctx.bwd = bwd or bwd_default(N, x.element_size())
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, mean, rstd = ctx.saved_tensors
        M, N = x.shape
        bm, warps, stages, g, s, bk = ctx.bwd
        bm = min(M, bm)
        r = min(g // s, M // bm)  # groups of s programs, each a row of partial sums
        dx = torch.empty_like(x)
        dwp = torch.empty((r, N), dtype=torch.float32, device=x.device)
        dbp = torch.empty((r, N), dtype=torch.float32, device=x.device)
        gen.layernorm_bwd_dx[(r * s,)](x, dy.contiguous(), dx, w, mean, rstd, dwp, dbp, M, r * s,
                                       N=N, BM=bm, NB=N // s, BK=bk, NUM_STAGES=stages,
                                       num_warps=warps)
        dw = torch.empty_like(w)
        db = torch.empty_like(w)
        bn, bg = min(N, max(16, N // 128)), min(32, 1 << (r - 1).bit_length())
        gen.layernorm_bwd_dwdb[(N // bn,)](dwp, dbp, dw, db, r, N=N, BG=bg, BN=bn, num_warps=4)
        return dx, dw, db, None, None, None


def layer_norm(x, w, b, eps=1e-5, fwd=None, bwd=None):
    return LayerNorm.apply(x, w, b, eps, fwd, bwd)
