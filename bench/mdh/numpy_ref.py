# numpy_ref.py MM MV J3 | --blas - the CPU baselines of bench/mdh/cpu.sh:
# numpy's BLAS (float32 matmul and matvec) and the Jacobi 3D stencil
# written with numpy slices; the best of 5 runs in ms after one warm-up,
# the way tests/mdh/check.c times the PoCL kernels.  --blas prints which
# BLAS numpy calls, its core type and its thread count.
import ctypes
import glob
import os
import sys
import time

import numpy as np


def blas_line():
    # numpy's wheels bundle scipy-openblas; ask the library itself
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), "..",
                                  "numpy.libs", "libscipy_openblas*.so"))
    if not libs:
        return "numpy " + np.__version__ + ": BLAS not found in numpy.libs"
    lib = ctypes.CDLL(libs[0])
    lib.scipy_openblas_get_config64_.restype = ctypes.c_char_p
    lib.scipy_openblas_get_corename64_.restype = ctypes.c_char_p
    return (f"numpy {np.__version__}: "
            f"{lib.scipy_openblas_get_config64_().decode()}, core "
            f"{lib.scipy_openblas_get_corename64_().decode()}, "
            f"{lib.scipy_openblas_get_num_threads64_()} thread(s)")


if sys.argv[1:] == ["--blas"]:
    print(blas_line())
    sys.exit(0)


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
