"""Registers and spilled bytes a thread of the backward's first kernel
(layernorm_bwd_dx) as Triton compiles it for this device, per launch
parameters (ops.bwd_candidates), so that a spill is seen, not guessed.
Usage: python3 bench/layernorm/regs.py [N ...]   (default 8192 16384)
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layernorm as gen  # noqa: E402
import ops  # noqa: E402

M = 4096
for N in [int(a) for a in sys.argv[1:]] or [8192, 16384]:
    for dtype in (torch.float16, torch.float32):
        x, dy, dx = (torch.zeros((M, N), dtype=dtype, device="cuda") for _ in range(3))
        w = torch.zeros(N, dtype=dtype, device="cuda")
        stats = torch.zeros(M, dtype=torch.float32, device="cuda")
        for bm, warps, stages, g, s, bk in ops.bwd_candidates(N, x.element_size(), True):
            part = torch.empty((g // s, N), dtype=torch.float32, device="cuda")
            k = gen.layernorm_bwd_dx[(g,)](x, dy, dx, w, stats, stats, part, part, M, g, N=N,
                                           BM=bm, NB=N // s, BK=bk, NUM_STAGES=stages,
                                           num_warps=warps)
            print(f"N={N} {str(dtype)[6:]} (BM, warps, stages, G, S, BK)="
                  f"{(bm, warps, stages, g, s, bk)}: {k.n_regs} registers, {k.n_spills} bytes spilled")
