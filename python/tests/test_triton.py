"""lego.triton.jit: the paper's layout-independent matmul written once in
this file, filled for several layouts and run in Triton's interpreter
against numpy; the filled text against `lego gen`; kernels per set of
constexpr values; errors at the placeholder's line of this file."""
import inspect
import os
import re
import subprocess

os.environ["TRITON_INTERPRET"] = "1"

import numpy as np
import pytest

import lego
import lego.triton
from lego import Col, LegoError, Max, Min, OrderBy, Row, symbols

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")

M, N, K, BM, BN, BK = symbols("M N K BM BN BK")
npm, npn, GM = symbols("npm npn GM")


def layouts(a_major, b_major):
    """A (M x K) and B (K x N) row- or column-major in memory, C row-major,
    program ids in groups of GM tile rows."""
    maj = {"row": Row, "col": Col}
    A = OrderBy(maj[a_major](M, K)).TileBy([M // BM, K // BK], [BM, BK])
    B = OrderBy(maj[b_major](K, N)).TileBy([K // BK, N // BN], [BK, BN])
    C = OrderBy(Row(M, N)).TileBy([M // BM, N // BN], [BM, BN])
    P = (OrderBy(Col(Max(npm // GM, 1), 1), Col(Min(npm, GM), npn))
         .TileBy([npm, npn]).assume(lego.Eq(npm % GM, 0)))
    return dict(A=A, B=B, C=C, P=P)


# The kernel of the paper: no layout in it, only placeholders.
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(axis=0)
    npm = M // BM
    npn = N // BN
    pid_m, pid_n = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K // BK):
        a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }})
        b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }})
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty))


def memory(x, major):
    return x if major == "row" else np.ascontiguousarray(x.T)


@pytest.mark.parametrize("a_major,b_major", [("row", "row"), ("col", "row"),
                                             ("row", "col")])
def test_matmul_runs_in_every_layout(interp, a_major, b_major):
    kernel = lego.triton.jit(**layouts(a_major, b_major))(matmul)
    rng = np.random.default_rng(1)
    m, n, k, bm, bn, bk, gm = 32, 48, 32, 16, 16, 16, 2
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    A, B = interp.Buffer(memory(a, a_major)), interp.Buffer(memory(b, b_major))
    C = interp.Buffer(np.full((m, n), np.nan, np.float32))
    # The constexpr parameters stay constexpr (the GPU compiler needs it).
    assert "constexpr" in str(kernel.fn.__annotations__.get("BM"))
    kernel[((m // bm) * (n // bn),)](A, B, C, m, n, k, bm, bn, bk, gm)
    want = a.astype(np.float32) @ b.astype(np.float32)
    assert np.allclose(C.array, want, atol=1e-2)


@pytest.mark.parametrize("variant", ["ab", "abt", "atb", "atbt"])
def test_filled_text_is_lego_gens(root, lego_cli, tmp_path, variant):
    ex = os.path.join(root, "examples", "triton")
    tpl = open(os.path.join(ex, "matmul.py.tpl")).read()
    body = tpl[tpl.index("def matmul_kernel"):]
    mod = tmp_path / "kern.py"
    mod.write_text("import triton.language as tl\n" + body)
    ns = {}
    exec(compile(mod.read_text(), str(mod), "exec"), ns)
    spec = lego.load(os.path.join(ex, f"matmul_{variant}.lego"))
    ours = lego.triton.source(ns["matmul_kernel"], **spec).lstrip("\n")
    cli = subprocess.run([lego_cli, "gen", os.path.join(ex, f"matmul_{variant}.lego"),
                          os.path.join(ex, "matmul.py.tpl")],
                         capture_output=True, text=True, check=True).stdout
    # Temporaries are named by the line their run of lines starts on
    # (t<line>_k): the function starts on another line here than in the
    # template file.
    def norm(text):
        return re.sub(r"\bt\d+_(\d+)\b", r"t_\1", text)
    assert norm(ours) == norm(cli[cli.index("def matmul_kernel"):])


def test_one_kernel_per_set_of_constexpr_values(interp):
    k = lego.triton.jit(specialize=("BM", "BN", "BK"),
                        **layouts("row", "row"))(matmul)
    k1 = k.kernel(BM=16, BN=16, BK=16)
    assert k.kernel(BM=16, BN=16, BK=16) is k1
    assert k.kernel(BM=16, BN=32, BK=16) is not k1
    text = lego.triton.source(matmul, {"BM": 16, "BN": 16, "BK": 16},
                              **layouts("row", "row"))
    assert "BK * k" not in text and "16 * k" in text
    # And it launches like a triton.jit function.
    a = np.ones((32, 32), np.float16)
    A, B = interp.Buffer(a), interp.Buffer(a)
    C = interp.Buffer(np.zeros((32, 32), np.float32))
    k[(4,)](A, B, C, 32, 32, 32, 16, 16, 16, 2)
    assert (C.array == 32).all()


def bad(x_ptr, M):
    tl.store(x_ptr + {{ Q[0, 0] }}, 1)


def test_error_points_into_this_file():
    line = inspect.getsourcelines(bad)[1] + 1
    with pytest.raises(LegoError) as err:
        lego.triton.jit(A=OrderBy(Row(M, K)))(bad)
    e = err.value
    assert (e.filename, e.line) == (__file__, line)
    assert "unknown name 'Q'" in str(e)
