# Split-K matrix multiply for the tuner's combined template (bench/tune/
# choice.sh, SPLIT_K of bench/tune/choice.lego), in one launch: where the
# tiles of C are too few to fill the GPU, SPLIT_K programs share a tile of
# C, program s summing the s-th equal run of its K tiles.  Each stores its
# partial sum in FP32 at W[s, C's index] and counts itself in the tile's
# counter; the last to arrive adds the other partials to its own, writes
# the tile of C and sets the counter back to 0 for the next call.  Every
# index comes from the layouts A, B, C and W of the spec, as in
# matmul.py.tpl (tiles dividing the sizes: no masks) and
# matmul_masked.py.tpl (masked loads and stores, any sizes).
import triton
import triton.language as tl


@triton.jit
def splitk_last(count_ptr, pid, parts):
    """Whether this program is the last of the tile's parts (split-K's
    and stream-K's, matmul_streamk.py.tpl): the barrier puts every
    thread's partial before the count (acq_rel: made visible to the
    last, whose loads bypass L1: .cg)."""
    tl.debug_barrier()
    return tl.atomic_add(count_ptr + pid, 1) == parts - 1


@triton.jit
def matmul_splitk_kernel(a_ptr, b_ptr, c_ptr, w_ptr, count_ptr, M, N, K,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         GM: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    s = tl.program_id(axis=1)
    pid_m, pid_n = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
    run = K // BK // SPLIT_K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(s * run, s * run + run):
        a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }})
        b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }})
        acc = tl.dot(a, b, acc)
    tl.store(w_ptr + {{ W[s, 0] }} + {{ C[pid_m, pid_n, :, :] }}, acc)
    if splitk_last(count_ptr, pid, SPLIT_K):
        for t in tl.static_range(1, SPLIT_K):
            u = (s + t) % SPLIT_K
            acc += tl.load(w_ptr + {{ W[u, 0] }} + {{ C[pid_m, pid_n, :, :] }}, cache_modifier=".cg")
        tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty))
        tl.atomic_xchg(count_ptr + pid, 0)


@triton.jit
def matmul_masked_splitk_kernel(a_ptr, b_ptr, c_ptr, w_ptr, count_ptr,
                                M, N, K,
                                BM: tl.constexpr, BN: tl.constexpr,
                                BK: tl.constexpr, GM: tl.constexpr,
                                SPLIT_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    s = tl.program_id(axis=1)
    pid_m, pid_n = {{ P.inv(pid)[0] }}, {{ P.inv(pid)[1] }}
    run = tl.cdiv(K, BK) // SPLIT_K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(s * run, s * run + run):
        a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }}, mask={{ mask(A[pid_m, k, :, :]) }}, other=0.0)
        b = tl.load(b_ptr + {{ B[k, pid_n, :, :] }}, mask={{ mask(B[k, pid_n, :, :]) }}, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(w_ptr + {{ W[s, 0] }} + {{ C[pid_m, pid_n, :, :] }}, acc, mask={{ mask(C[pid_m, pid_n, :, :]) }})
    if splitk_last(count_ptr, pid, SPLIT_K):
        for t in tl.static_range(1, SPLIT_K):
            u = (s + t) % SPLIT_K
            acc += tl.load(w_ptr + {{ W[u, 0] }} + {{ C[pid_m, pid_n, :, :] }}, mask={{ mask(C[pid_m, pid_n, :, :]) }}, other=0.0, cache_modifier=".cg")
        tl.store(c_ptr + {{ C[pid_m, pid_n, :, :] }}, acc.to(c_ptr.dtype.element_ty), mask={{ mask(C[pid_m, pid_n, :, :]) }})
        tl.atomic_xchg(count_ptr + pid, 0)
