# numpy_ref.py MM MV J3 - the CPU baselines of bench/mdh/cpu.sh: numpy's
# BLAS (float32 matmul and matvec) and the Jacobi 3D stencil written with
# numpy slices; the best of 5 runs in ms after one warm-up, the way
# tests/mdh/check.c times the PoCL kernels.
import sys
import time

import numpy as np


def best_ms(f):
    f()
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t0) * 1e3)
    return min(ts)


mm, mv, j3 = (int(a) for a in sys.argv[1:4])
rng = np.random.default_rng(1)
A = rng.random((mm, mm), dtype=np.float32)
B = rng.random((mm, mm), dtype=np.float32)
ms = best_ms(lambda: A @ B)
print(f"numpy matmul {mm}^3 (BLAS)            {ms:9.3f} ms "
      f"{2.0 * mm ** 3 / ms / 1e6:8.2f} GFLOP/s")
M = rng.random((mv, mv), dtype=np.float32)
v = rng.random(mv, dtype=np.float32)
ms = best_ms(lambda: M @ v)
print(f"numpy matvec {mv}^2 (BLAS)            {ms:9.3f} ms "
      f"{4.0 * mv * mv / ms / 1e6:8.2f} GB/s")
x = rng.random((j3 + 2,) * 3, dtype=np.float32)


def jacobi():
    c = slice(1, -1)
    return (x[:-2, c, c] + x[c, :-2, c] + x[c, c, :-2] + x[c, c, c] +
            x[c, c, 2:] + x[c, 2:, c] + x[2:, c, c]) / np.float32(7)


ms = best_ms(jacobi)
print(f"numpy jacobi3d {j3}^3 (slices)        {ms:9.3f} ms "
      f"{8.0 * j3 ** 3 / ms / 1e6:8.2f} GB/s")
