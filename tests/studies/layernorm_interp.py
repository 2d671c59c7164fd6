"""bench/layernorm/layernorm.py (generated) run in Triton's interpreter on
the CPU against a numpy reference in float64: forward y, mean, 1/std and
backward dx, dw, db, for small shapes (a number of row groups R that does
not divide the number of tiles; rows split into S column blocks, read BK
columns at a time for the row sums) and both dtypes.
Usage: python3 layernorm_interp.py.  Last line: "layernorm: N passed, N failed".
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "gen"))
import interp  # noqa: E402  (sets TRITON_INTERPRET=1 before triton loads)

gen = interp.load(os.path.join(ROOT, "bench", "layernorm", "layernorm.py"))
results = []


def check(name, ok, detail):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail))


def reference(x, w, b, dy, eps):
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    xhat = (x - mean) * rstd
    wdy = w * dy
    n = x.shape[1]
    dx = (wdy - (xhat * (xhat * wdy).sum(axis=1, keepdims=True) / n
                 + wdy.sum(axis=1, keepdims=True) / n)) * rstd
    return xhat * w + b, mean[:, 0], rstd[:, 0], dx, (dy * xhat).sum(axis=0), dy.sum(axis=0)


def run(M, N, BM, R, BG, BN, dtype, S=1, BK=None, G=0, FS=1, TMA=0, WB=0, CW=0, RF=0):
    rng = np.random.default_rng(M * N)
    x, dy = (rng.standard_normal((M, N)) * s for s in (1.0, 0.1))
    w, b = rng.random(N), rng.random(N)
    x, dy, w, b = (a.astype(dtype) for a in (x, dy, w, b))
    want = reference(*(a.astype(np.float64) for a in (x, w, b, dy)), 1e-5)
    nan = lambda shape, t=dtype: interp.Buffer(np.full(shape, np.nan, t))  # noqa: E731
    X, W, B, DY = (interp.Buffer(a) for a in (x, w, b, dy))
    Y, MEAN, RSTD = nan((M, N)), nan(M, np.float32), nan(M, np.float32)
    G = G or M // BM
    if CW:
        gen.layernorm_fwd_warp[(G,)](X, Y, W, B, MEAN, RSTD, M, G, 1e-5, N=N, BM=BM, CW=CW,
                                     RF=RF)
    else:
        XA, YA = gen.fwd_descriptors(X, Y, M, N, BM) if TMA else (X, Y)
        gen.layernorm_fwd[(G,)](XA, YA, W, B, MEAN, RSTD, M, G, 1e-5, N=N, BM=BM, NUM_STAGES=FS,
                                TMA=TMA, WB=WB)
    DX, DWP, DBP = nan((M, N)), nan((R, N), np.float32), nan((R, N), np.float32)
    DW, DB = nan(N), nan(N)
    gen.layernorm_bwd_dx[(R * S,)](X, DY, DX, W, MEAN, RSTD, DWP, DBP, M, R * S, N=N, BM=BM,
                                   NB=N // S, BK=BK or N // S, NUM_STAGES=2)
    gen.layernorm_bwd_dwdb[(N // BN,)](DWP, DBP, DW, DB, R, N=N, BG=BG, BN=BN)
    got = [Y, MEAN, RSTD, DX, DW, DB]
    tol = 2e-2 if dtype == np.float16 else 1e-4
    for name, g, r in zip(["y", "mean", "rstd", "dx", "dw", "db"], got, want):
        a = g.array.astype(np.float64)
        err = np.linalg.norm(a - r) / np.linalg.norm(r)
        check(f"layernorm {name} M={M} N={N} BM={BM} G={G} FS={FS} TMA={TMA} WB={WB} CW={CW} RF={RF} R={R} BG={BG} "
              f"S={S} BK={BK} "
              f"{np.dtype(dtype).name}",
              bool(np.isfinite(a).all()) and err < tol, f"relative error {err}")


for dtype in (np.float32, np.float16):
    # R = 3 programs over 4 tiles: 2, 1 and 1 each; their 3 rows of partial
    # sums added 4 at a time, the fourth masked.  The forward: 3 programs
    # over 4 tiles too, the next tile loaded a step ahead (none after the last).
    run(16, 32, 4, 3, 4, 16, dtype, G=3, FS=2)
    run(8, 64, 1, 4, 4, 32, dtype, FS=2)
    # 3 stages: 3 programs over 8 tiles (3, 3, 2), two tiles loaded ahead.
    run(16, 32, 2, 3, 4, 16, dtype, G=3, FS=3)
    run(8, 64, 1, 5, 2, 32, dtype, G=3)  # 5 rows of sums 2 at a time: 2, 2, 1
    # 4 blocks of 16 columns, the other three read 8 columns at a time; 3
    # groups of 4 programs over 8 tiles of 2 rows (3, 3 and 2 tiles each).
    run(16, 64, 2, 3, 1, 16, dtype, S=4, BK=8)
    run(8, 64, 1, 2, 2, 32, dtype, S=2, BK=32)
    # The forward through TMA descriptors over X's tiles: one tile a
    # program, and 3 programs over 4 tiles with 2 stages.
    run(8, 64, 2, 2, 2, 32, dtype, TMA=1)
    run(16, 32, 4, 3, 4, 16, dtype, G=3, FS=2, TMA=1)
    # w and b loaded again after each tile's sums (WB = 1, 2 and 3 stages)
    # and, with one stage, right behind x.
    run(16, 32, 4, 3, 4, 16, dtype, G=3, FS=2, WB=1)
    run(16, 32, 2, 3, 4, 16, dtype, G=3, FS=3, WB=1)
    run(8, 64, 2, 2, 2, 32, dtype, WB=1)
    # A row to a warp (layernorm_fwd_warp), chunk first and row first:
    # rows as 4 chunks of 16 columns, 3 programs over 4 tiles of 4 rows
    # (2, 1, 1); 2 chunks of 32, one tile of 2 rows a program; one chunk
    # of the whole row.
    for rf in (0, 1):
        run(16, 64, 4, 3, 4, 16, dtype, G=3, CW=16, RF=rf)
        run(8, 64, 2, 2, 2, 32, dtype, CW=32, RF=rf)
        run(8, 64, 2, 2, 2, 32, dtype, CW=64, RF=rf)
passed = sum(results)
print(f"layernorm: {passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
