"""Generated Triton code checked by running it on the CPU.

1. Index expressions (tests/gen/index.py.tpl through each matmul spec) are
   evaluated with numpy standing in for tl.arange and compared element by
   element with `lego table`.
2. The generated kernels of examples/triton run in Triton's interpreter
   against numpy references (matmul x 4 layouts: plain, with pointers
   stepped by the proved stride, masked for any sizes, and through tensor
   descriptors; softmax; grouped GEMM, plain and
   through tensor descriptors),
   and tests/gen/cases/floor.py.tpl checks floor // and %, min, max and
   select on tensors (the interpreter's // and % truncate, as on the GPU).

Usage: python3 test_triton.py BUILD_DIR.  Prints one line per check and
`gen-triton: N passed, N failed` last.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import types

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples", "triton")
LEGO = os.path.join(os.path.abspath(sys.argv[1]), "lego")
results = []
TMPDIR = tempfile.mkdtemp()


def check(name, ok, detail=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail))


def lego(*args):
    return subprocess.run([LEGO, *args], check=True, capture_output=True,
                          text=True).stdout


def table(spec, name, sizes):
    defs = [x for k, v in sizes.items() for x in ("-D", f"{k}={v}")]
    return np.array(lego("table", spec, name, *defs).split(), dtype=np.int64)


# numpy as Triton's tl for index arithmetic: tl.arange is np.arange.
TL = types.SimpleNamespace(arange=lambda lo, hi: np.arange(lo, hi))

MATMUL_SIZES = [dict(M=8, N=12, K=6, BM=2, BN=3, BK=3, GM=2),
                dict(M=12, N=4, K=8, BM=2, BN=2, BK=4, GM=3)]


def check_index_exprs(variant, s):
    spec = os.path.join(EX, f"matmul_{variant}.lego")
    code = lego("gen", spec, os.path.join(ROOT, "tests", "gen", "index.py.tpl"))
    npm, npn, nk = s["M"] // s["BM"], s["N"] // s["BN"], s["K"] // s["BK"]
    sizes = dict(s, npm=npm, npn=npn)
    ta = table(spec, "A", sizes).reshape(npm, nk, s["BM"], s["BK"])
    tb = table(spec, "B", sizes).reshape(nk, npn, s["BK"], s["BN"])
    tc = table(spec, "C", sizes).reshape(npm, npn, s["BM"], s["BN"])
    tp = table(spec, "P", sizes).reshape(npm, npn)
    bad = []
    for pm in range(npm):
        for pn in range(npn):
            for k in range(nk):
                env = dict(sizes, tl=TL, pid_m=pm, pid_n=pn, k=k,
                           pid=int(tp[pm, pn]))
                exec(code, env)
                if not np.array_equal(np.broadcast_to(env["a"], ta[pm, k].shape), ta[pm, k]):
                    bad.append(f"A[{pm},{k}]")
                if not np.array_equal(env["a_rows"], ta[pm, k, 2:]):
                    bad.append(f"A[{pm},{k},2:BM]")
                if not np.array_equal(np.broadcast_to(env["b"], tb[k, pn].shape), tb[k, pn]):
                    bad.append(f"B[{k},{pn}]")
                if not np.array_equal(np.broadcast_to(env["c"], tc[pm, pn].shape), tc[pm, pn]):
                    bad.append(f"C[{pm},{pn}]")
                if (env["pm"], env["pn"]) != (pm, pn):
                    bad.append(f"P.inv({tp[pm, pn]})")
    check(f"index expressions matmul_{variant} {s}", not bad, ", ".join(bad[:5]))


def run_interpreter_tests():
    try:
        import interp
    except ImportError as e:
        print(f"SKIP Triton interpreter tests: {e}")
        return
    rng = np.random.default_rng(1)

    def memory(x, major):
        """The buffer of x stored row- or column-major."""
        return x if major == "Row" else x.T.copy()

    for variant, a_major, b_major in [("ab", "Row", "Row"), ("abt", "Row", "Col"),
                                      ("atb", "Col", "Row"), ("atbt", "Col", "Col")]:
        for name in ("matmul", "matmul_inc"):
            mod = interp.load(os.path.join(EX, f"{name}_{variant}.py"))
            kernel = getattr(mod, f"{name}_kernel")
            for M, N, K, GM in [(64, 32, 48, 2), (48, 64, 32, 3)]:
                a = rng.random((M, K)).astype(np.float16)
                b = rng.random((K, N)).astype(np.float16)
                A, B = interp.Buffer(memory(a, a_major)), interp.Buffer(memory(b, b_major))
                C = interp.Buffer(np.full((M, N), np.nan, np.float16))
                kernel[(M // 16 * N // 16,)](A, B, C, M, N, K, BM=16, BN=16, BK=16, GM=GM)
                ref = a.astype(np.float32) @ b.astype(np.float32)
                err = np.abs(C.array.astype(np.float32) - ref).max()
                check(f"interpreter {name}_{variant} M={M} N={N} K={K} GM={GM}", err < 0.05,
                      f"max error {err}")

    # Sizes the tiles do not divide: masked loads and stores, TMA clipping
    # (C poisoned with NaN: every element must be written).
    for variant, a_major, b_major in [("ab", "Row", "Row"), ("abt", "Row", "Col"),
                                      ("atb", "Col", "Row"), ("atbt", "Col", "Col")]:
        masked = interp.load(os.path.join(EX, f"matmul_masked_{variant}.py"))
        tma = interp.load(os.path.join(EX, f"matmul_tma_{variant}.py"))
        for M, N, K, GM in [(40, 24, 40, 2), (64, 48, 32, 3)]:
            a = rng.random((M, K)).astype(np.float16)
            b = rng.random((K, N)).astype(np.float16)
            ref = a.astype(np.float32) @ b.astype(np.float32)
            A, B = interp.Buffer(memory(a, a_major)), interp.Buffer(memory(b, b_major))
            for name in ("masked", "tma"):
                C = interp.Buffer(np.full((M, N), np.nan, np.float16))
                if name == "masked":
                    grid = (-(-M // 16) * -(-N // 16),)
                    masked.matmul_masked_kernel[grid](A, B, C, M, N, K, BM=16, BN=16, BK=16, GM=GM)
                else:
                    tma.matmul_tma(A, B, C, M, N, K, 16, 16, 16, GM, 3, 1, 4, SUBTILE=M == 40)
                err = np.abs(C.array.astype(np.float32) - ref).max()
                check(f"interpreter matmul_{name}_{variant} M={M} N={N} K={K} GM={GM}",
                      err < 0.05, f"max error {err}")

    floor_py = os.path.join(TMPDIR, "floor.py")
    with open(floor_py, "w") as f:
        f.write(lego("gen", os.path.join(ROOT, "tests", "gen", "cases", "floor.py.tpl")))
    mod = interp.load(floor_py)
    i = np.arange(64)
    for d in (3, 7):
        out = interp.Buffer(np.zeros(192, np.int64))
        mod.floor_kernel[(1,)](out, d)
        want = np.concatenate([(i - 20) // d, (i - 20) % d,
                               np.minimum(i, 30) - np.maximum(i - 40, 3) + np.where(i < 10, 7, 0)])
        check(f"interpreter floor //, %, min, max, select on tensors D={d}",
              np.array_equal(out.array, want), f"got {out.array}")

    mod = interp.load(os.path.join(EX, "softmax.py"))
    M, N, S = 10, 32, 40
    x = rng.standard_normal((M, S)).astype(np.float32)
    X, Y = interp.Buffer(x), interp.Buffer(np.full((M, S), 7.0, np.float32))
    mod.softmax_kernel[(4,)](Y, X, M, S, N=N, NUM_STAGES=2)
    e = np.exp(x[:, :N] - x[:, :N].max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    err = np.abs(Y.array[:, :N] - ref).max()
    untouched = np.all(Y.array[:, N:] == 7.0)
    check(f"interpreter softmax M={M} N={N} S={S}", err < 1e-5 and untouched,
          f"max error {err}, padding untouched: {untouched}")

    mod = interp.load(os.path.join(EX, "grouped_gemm.py"))
    G, M, N, K = 3, 64, 32, 32
    a = [rng.random((M, K)).astype(np.float16) for _ in range(G)]
    b = [rng.random((K, N)).astype(np.float16) for _ in range(G)]
    A = [interp.Buffer(x) for x in a]
    B = [interp.Buffer(x) for x in b]
    C = [interp.Buffer(np.zeros((M, N), np.float16)) for _ in range(G)]
    ptrs = [interp.Buffer(np.array([t.data_ptr() for t in L], np.int64)) for L in (A, B, C)]
    mod.grouped_matmul_kernel[(4,)](*ptrs, G, M, N, K, NUM_SM=4, BM=16, BN=16, BK=16, GM=2,
                                    FLATTEN=True)
    err = max(np.abs(C[g].array.astype(np.float32) - a[g].astype(np.float32) @ b[g].astype(np.float32)).max()
              for g in range(G))
    check(f"interpreter grouped_gemm G={G} M={M} N={N} K={K}", err < 0.05, f"max error {err}")

    mod = interp.load(os.path.join(EX, "grouped_gemm_tma.py"))
    C = [interp.Buffer(np.full((M, N), np.nan, np.float16)) for _ in range(G)]
    ptrs[2] = interp.Buffer(np.array([t.data_ptr() for t in C], np.int64))
    mod.grouped_matmul_tma_kernel[(5,)](*ptrs, G, M, N, K, NUM_SM=5, BM=16, BN=16, BK=16, GM=2)
    err = max(np.abs(C[g].array.astype(np.float32) - a[g].astype(np.float32) @ b[g].astype(np.float32)).max()
              for g in range(G))
    check(f"interpreter grouped_gemm_tma G={G} M={M} N={N} K={K}", err < 0.05, f"max error {err}")


def main():
    for variant in ("ab", "abt", "atb", "atbt"):
        for s in MATMUL_SIZES:
            check_index_exprs(variant, s)
    try:
        run_interpreter_tests()
    finally:
        shutil.rmtree(TMPDIR, ignore_errors=True)
    failed = results.count(False)
    print(f"gen-triton: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
