# numpy_ref.py ROUNDS PROGRAM SIZE DIR... | --blas - the CPU baselines
# of bench/mdh/cpu.sh, timed in strict alternation with the PoCL kernels:
# numpy's BLAS (float32 matmul, matvec) or the Jacobi 3D stencil written
# with numpy slices.  Each DIR holds a kernel built by tests/mdh/measure.sh
# (DIR/check, which checks the kernel against plain C when it starts and
# then times it on request: --serve) and its label (DIR/label).  ROUNDS
# rounds; in each, per kernel, numpy's program then the kernel, each the
# best of 5 runs in ms (numpy's after one warm-up run); the ratio is
# numpy's time over the kernel's in the same pair.  Prints a line a
# round, then a table row a kernel ("|"): the median ratio with its
# spread, the median times and the load average over the rounds.
# --blas prints which BLAS numpy calls, its core type and thread count.
import ctypes
import glob
import os
import statistics
import subprocess
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


def best_ms(f):
    f()
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t0) * 1e3)
    return min(ts)


def program(name, n):
    """numpy's version of NAME at size N: (function, the kernel's sizes,
    the work in units of 1e6, its unit)."""
    rng = np.random.default_rng(1)
    if name == "matmul":
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        return (lambda: a @ b), [n] * 3, 2.0 * n ** 3 / 1e6, "GFLOP/s"
    if name == "matvec":
        m = rng.random((n, n), dtype=np.float32)
        v = rng.random(n, dtype=np.float32)
        return (lambda: m @ v), [n] * 2, 4.0 * n * n / 1e6, "GB/s"
    if name == "jacobi3d":
        x = rng.random((n + 2,) * 3, dtype=np.float32)
        c = slice(1, -1)

        def jacobi():
            return (x[:-2, c, c] + x[c, :-2, c] + x[c, c, :-2] + x[c, c, c]
                    + x[c, c, 2:] + x[c, 2:, c] + x[2:, c, c]) / np.float32(7)
        return jacobi, [n] * 3, 8.0 * n ** 3 / 1e6, "GB/s"
    sys.exit(f"numpy_ref.py: no program {name}")


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    if sys.argv[1:] == ["--blas"]:
        print(blas_line())
        return
    rounds, name, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    f, sizes, work, unit = program(name, n)
    kernels = []
    for d in sys.argv[4:]:
        with open(os.path.join(d, "label")) as lf:
            label = lf.read().strip()
        # it checks its kernel, then waits for a line a timing
        p = subprocess.Popen([os.path.join(d, "check"), d] +
                             [str(s) for s in sizes] + ["--serve"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
        kernels.append({"label": label, "proc": p, "np": [], "ours": [],
                        "ratio": [], "load": []})
    for r in range(rounds):
        for k in kernels:
            if k["proc"] is None:
                continue
            np_ms = best_ms(f)
            k["proc"].stdin.write("\n")
            k["proc"].stdin.flush()
            line = k["proc"].stdout.readline()
            if not line:
                print(f"{name} {k['label']}: FAILED (its check, above)")
                k["proc"].wait()
                k["proc"] = None
                continue
            ms = float(line)
            k["np"].append(np_ms)
            k["ours"].append(ms)
            k["ratio"].append(np_ms / ms)
            k["load"].append(load())
            print(f"round {r + 1} load {k['load'][-1]:5.2f}  {name} {n}  "
                  f"numpy {np_ms:9.3f} ms  pocl {ms:9.3f} ms "
                  f"({work / ms:7.2f} {unit})  {np_ms / ms:5.2f}  "
                  f"{k['label']}", flush=True)
    for k in kernels:
        if k["proc"] is not None:
            k["proc"].stdin.close()
            k["proc"].wait()
        if not k["ratio"]:
            print(f"| {name} | {n} | `{k['label']}` | FAILED | | | |")
            continue
        ours = statistics.median(k["ours"])
        print(f"| {name} | {n} | `{k['label']}` "
              f"| {statistics.median(k['np']):.3f} "
              f"| {ours:.3f} ({work / ours:.1f} {unit}) "
              f"| **{statistics.median(k['ratio']):.2f}** "
              f"({min(k['ratio']):.2f} to {max(k['ratio']):.2f}, "
              f"{len(k['ratio'])} rounds) "
              f"| {min(k['load']):.1f} to {max(k['load']):.1f} |")


main()
