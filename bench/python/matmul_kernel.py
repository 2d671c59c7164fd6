"""The paper's layout-independent matrix multiply written with
lego.triton.jit, in the four layouts of examples/triton (A, B row- or
column-major in memory): the same kernel text as
examples/triton/matmul.py.tpl, filled when this module is imported."""
import triton.language as tl

import lego.triton
from matmul_layouts import layouts


def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GM: tl.constexpr):
    # Grouped ordering of the program ids: (pid_m, pid_n) = P.inv(pid).
    pid = tl.program_id(axis=0)
    npm = M // BM
    npn = N // BN
    pid_m, pid_n = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K // BK):
        a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }})
        b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }})
        acc = tl.dot(a, b, acc)
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, c)


KERNELS = {v: lego.triton.jit(**layouts(v))(matmul_kernel)
           for v in ("ab", "abt", "atb", "atbt")}
