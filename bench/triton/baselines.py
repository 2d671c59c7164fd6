"""Hand-written Triton baselines, in the style Triton users write by hand:
explicit strides, offsets computed by hand, the tutorial's grouped program
ordering.  Each follows the Triton tutorial that the paper compares
against (03 matrix multiplication, 09 persistent matmul through tensor
descriptors, 02 fused softmax, 08 grouped GEMM); written in this project,
launched with the same tile configurations as the generated kernels."""
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


# ------------------------------------------------------------ tutorial 03

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def matmul(a, b, c, cfg):
    """a (M x K), b (K x N): torch views with any strides; c row-major."""
    M, K = a.shape
    N = b.shape[1]
    grid = (triton.cdiv(M, cfg["BM"]) * triton.cdiv(N, cfg["BN"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        BLOCK_SIZE_M=cfg["BM"], BLOCK_SIZE_N=cfg["BN"],
                        BLOCK_SIZE_K=cfg["BK"], GROUP_SIZE_M=cfg["GM"],
                        num_stages=cfg["stages"], num_warps=cfg["warps"])


# ------------------------------------------------------------ tutorial 09

@triton.jit
def matmul_tma_persistent_kernel(a_desc, b_desc, c_desc, M, N, K,
                                 A_T: tl.constexpr, B_T: tl.constexpr,
                                 BLOCK_SIZE_M: tl.constexpr,
                                 BLOCK_SIZE_N: tl.constexpr,
                                 BLOCK_SIZE_K: tl.constexpr,
                                 GROUP_SIZE_M: tl.constexpr,
                                 NUM_SMS: tl.constexpr, FLATTEN: tl.constexpr,
                                 EPILOGUE_SUBTILE: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            if A_T:
                a = a_desc.load([offs_k, offs_am]).T
            else:
                a = a_desc.load([offs_am, offs_k])
            if B_T:
                b = b_desc.load([offs_bn, offs_k]).T
            else:
                b = b_desc.load([offs_k, offs_bn])
            accumulator = tl.dot(a, b, accumulator)
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c_desc.store([offs_am, offs_bn], acc0.to(c_desc.dtype))
            c_desc.store([offs_am, offs_bn + BLOCK_SIZE_N // 2], acc1.to(c_desc.dtype))
        else:
            c_desc.store([offs_am, offs_bn], accumulator.to(c_desc.dtype))


def _descriptor(x, block):
    """Descriptor of the 2-D view x with its contiguous dim last (TMA needs
    it): a column-major x is described through x.T, its tiles transposed."""
    if x.stride(1) == 1:
        return TensorDescriptor(x, list(x.shape), [x.stride(0), 1], list(block)), False
    xt = x.T
    return TensorDescriptor(xt, list(xt.shape), [xt.stride(0), 1],
                            [block[1], block[0]]), True


def matmul_tma(a, b, c, cfg, num_sms, flatten, subtile=False):
    M, K = a.shape
    N = b.shape[1]
    a_desc, a_t = _descriptor(a, (cfg["BM"], cfg["BK"]))
    b_desc, b_t = _descriptor(b, (cfg["BK"], cfg["BN"]))
    c_desc, _ = _descriptor(c, (cfg["BM"], cfg["BN"] // 2 if subtile else cfg["BN"]))
    grid = (min(num_sms, triton.cdiv(M, cfg["BM"]) * triton.cdiv(N, cfg["BN"])),)
    matmul_tma_persistent_kernel[grid](
        a_desc, b_desc, c_desc, M, N, K, A_T=a_t, B_T=b_t,
        BLOCK_SIZE_M=cfg["BM"], BLOCK_SIZE_N=cfg["BN"], BLOCK_SIZE_K=cfg["BK"],
        GROUP_SIZE_M=cfg["GM"], NUM_SMS=num_sms, FLATTEN=flatten,
        EPILOGUE_SUBTILE=subtile,
        num_stages=cfg["stages"], num_warps=cfg["warps"])


# ------------------------------------------------------------ tutorial 02

@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(y, x, programs, stages, warps):
    n_rows, n_cols = x.shape
    softmax_kernel[(programs,)](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                BLOCK_SIZE=triton.next_power_of_2(n_cols),
                                num_stages=stages, num_warps=warps)


# ------------------------------------------------------------ tutorial 08

@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs,
                          group_gemm_sizes, g_lds, group_size,
                          NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                          BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_k = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :]
            tl.store(c_ptrs, c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


@triton.jit
def grouped_matmul_tma_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs,
                              group_gemm_sizes, g_lds, group_size,
                              NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                              BLOCK_SIZE_N: tl.constexpr,
                              BLOCK_SIZE_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        if tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            a_desc = tl.make_tensor_descriptor(a_ptr, shape=[gm, gk], strides=[lda, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
            b_desc = tl.make_tensor_descriptor(b_ptr, shape=[gk, gn], strides=[ldb, 1],
                                               block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N])
            c_desc = tl.make_tensor_descriptor(c_ptr, shape=[gm, gn], strides=[ldc, 1],
                                               block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
            while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
                k = gk
                tile_idx_in_gemm = tile_idx - last_problem_end
                tile_m_idx = tile_idx_in_gemm // num_n_tiles
                tile_n_idx = tile_idx_in_gemm % num_n_tiles
                offs_am = tile_m_idx * BLOCK_SIZE_M
                offs_bn = tile_n_idx * BLOCK_SIZE_N
                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                    a = a_desc.load([offs_am, kk * BLOCK_SIZE_K])
                    b = b_desc.load([kk * BLOCK_SIZE_K, offs_bn])
                    accumulator += tl.dot(a, b)
                c_desc.store([offs_am, offs_bn], accumulator.to(tl.float16))
                tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


def grouped_args(a_list, b_list, c_list, torch):
    """The tutorial's launch arguments: pointer arrays, sizes and leading
    dims of each product (on the device)."""
    dev = a_list[0].device
    sizes, lds = [], []
    for a, b, c in zip(a_list, b_list, c_list):
        sizes += [a.shape[0], b.shape[1], a.shape[1]]
        lds += [a.stride(0), b.stride(0), c.stride(0)]
    ptrs = [torch.tensor([t.data_ptr() for t in lst], device=dev)
            for lst in (a_list, b_list, c_list)]
    return (*ptrs, torch.tensor(sizes, dtype=torch.int32, device=dev),
            torch.tensor(lds, dtype=torch.int32, device=dev), len(a_list))


def grouped_matmul(args, cfg, num_sm, tma):
    kernel = grouped_matmul_tma_kernel if tma else grouped_matmul_kernel
    kernel[(num_sm,)](*args, NUM_SM=num_sm, BLOCK_SIZE_M=cfg["BM"],
                      BLOCK_SIZE_N=cfg["BN"], BLOCK_SIZE_K=cfg["BK"],
                      num_stages=cfg["stages"], num_warps=cfg["warps"])
