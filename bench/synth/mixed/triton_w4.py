# triton_w4.py - the baseline of bench/synth/mixed: an FP16 x INT4 GEMM in
# Triton that dequantises in the kernel the way Triton's own examples do
# (load the packed int32 words, shift and mask out each nibble, subtract the
# zero point, scale, tl.dot in f32).  Our own code.
#
# Format: q[K, N] in 0..15 packed 8 along K a word, nibble j of word
# (k // 8, n) being q[8 (k // 8) + j, n] (bits 4 j .. 4 j + 3); scales
# [K / 128, N] row-major; W = (q - 8) * scale.
import torch
import triton
import triton.language as tl


@triton.jit
def w4a16_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 GROUP: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + (kk[:, None] // 8) * N + rn[None, :])
        b = (b >> ((kk[:, None] % 8) * 4)) & 0xF
        s = tl.load(s_ptr + (kk[:, None] // GROUP) * N + rn[None, :])
        w = (b - 8).to(tl.float16) * s
        acc += tl.dot(a, w)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=rm[:, None] < M)


def pack(q):
    """q: int [K, N] in 0..15 -> int32 [K / 8, N]."""
    k, n = q.shape
    q = q.to(torch.int64).reshape(k // 8, 8, n)
    words = torch.zeros(k // 8, n, dtype=torch.int64, device=q.device)
    for j in range(8):
        words |= q[:, j, :] << (4 * j)
    return torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)


def configs(m):
    """The tile sizes tried for M rows (the best is kept, as autotune would)."""
    bms = [16] if m <= 16 else [64] if m <= 64 else [64, 128]
    return [(bm, bn, bk, warps, stages) for bm in bms for bn in (32, 64, 128)
            for bk in (64, 128) for warps, stages in ((4, 3), (4, 4))]


def launch(a, words, scales, c, cfg):
    m, k = a.shape
    n = words.shape[1]
    bm, bn, bk, warps, stages = cfg
    grid = (triton.cdiv(m, bm), n // bn)
    w4a16_kernel[grid](a, words, scales, c, m, n, k, BM=bm, BN=bn, BK=bk, GROUP=128,
                       num_warps=warps, num_stages=stages)
