# The launch of the combined template that choice.sh writes (the pointer,
# masked, TMA, split-K and stream-K templates, the generic kernel, then this):
# KERNEL and SPLIT_K, tuned parameters of choice.lego, pick the kernel
# (KERNEL 5: stream-K on at most SMS * OCC programs, WS's first dimension);
# the runner (triton_runner.py) and compare.py call lego_launch;
# compare.py times lego_bind (a pre-bound launch) as a column of its own.
KERNEL = {{ KERNEL }}
SPLIT_K = {{ SPLIT_K }}
SMS = {{ SMS }}
OCC = {{ OCC }}
NUM_SMS = []
WORKSPACE = {}


def workspace(c, floats, counters):
    """Split-K's and stream-K's FP32 partials and their counters, one a
    tile of C, zero between calls (the last part of a tile resets its
    own): made once, kept across calls (a CUDA graph replays them)."""
    key = (c.device, floats, counters)
    if key not in WORKSPACE:
        import torch
        WORKSPACE[key] = (
            torch.empty(floats, device=c.device, dtype=torch.float32),
            torch.zeros(counters, device=c.device, dtype=torch.int32))
    return WORKSPACE[key]


def plan(a, b, c, M, N, K, BM, BN, BK, GM):
    """The kernel (not TMA: KERNEL 1, 2, 4 or 5), its grid and its
    arguments by name, split-K's and stream-K's workspace included."""
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    args = dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, BM=BM, BN=BN,
                BK=BK, GM=GM)
    if KERNEL == 5:
        # every program at least one iteration (the runs never empty)
        G = min(SMS * OCC, tiles * triton.cdiv(K, BK))
        w, count = workspace(c, SMS * OCC * 2 * BM * BN, tiles)
        whole = M % BM == 0 and N % BN == 0 and K % BK == 0
        kernel = matmul_streamk_kernel if whole \
            else matmul_masked_streamk_kernel
        return kernel, (G,), dict(args, ws_ptr=w, count_ptr=count, G=G)
    if SPLIT_K > 1:
        w, count = workspace(c, SPLIT_K * M * N, tiles)
        kernel = matmul_splitk_kernel if KERNEL == 1 \
            else matmul_masked_splitk_kernel
        return kernel, (tiles, SPLIT_K), dict(args, w_ptr=w, count_ptr=count,
                                              SPLIT_K=SPLIT_K)
    kernel = {1: matmul_kernel, 2: matmul_masked_kernel,
              4: matmul_generic_kernel}[KERNEL]
    return kernel, (tiles,), args


def lego_launch(a, b, c, M, N, K, BM, BN, BK, GM, num_stages, num_warps):
    if KERNEL == 3:
        if not NUM_SMS:
            props = triton.runtime.driver.active.utils.get_device_properties(
                c.device.index or 0)
            NUM_SMS.append(props["multiprocessor_count"])
        return matmul_tma(a, b, c, M, N, K, BM, BN, BK, GM, NUM_SMS[0],
                          num_stages, num_warps)
    kernel, grid, args = plan(a, b, c, M, N, K, BM, BN, BK, GM)
    kernel[grid](**args, num_stages=num_stages, num_warps=num_warps)


def lego_bind(a, b, c, M, N, K, BM, BN, BK, GM, num_stages, num_warps):
    """lego_launch pre-bound, as a caller's hot loop would hold it: one
    launch compiles (or finds) the kernel, then a call is its compiled
    launcher alone, the arguments fixed in order, on the current stream
    (no argument binding, specialisation key or cache lookup a call).
    None for TMA, whose launch builds host descriptors."""
    if KERNEL == 3:
        return None
    import torch
    kernel, grid, args = plan(a, b, c, M, N, K, BM, BN, BK, GM)
    compiled = kernel[grid](**args, num_stages=num_stages,
                            num_warps=num_warps)
    launch = compiled[tuple(grid) + (1,) * (3 - len(grid))]
    values = [args[n] for n in kernel.arg_names]
    stream = torch.cuda.current_stream(c.device).cuda_stream
    return lambda: launch(*values, stream=stream)
