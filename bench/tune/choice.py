# The launch of the combined template that choice.sh writes (the pointer,
# masked, TMA and split-K templates, the generic kernel, then this):
# KERNEL and SPLIT_K, tuned parameters of choice.lego, pick the kernel;
# the runner (triton_runner.py) and compare.py call lego_launch.
KERNEL = {{ KERNEL }}
SPLIT_K = {{ SPLIT_K }}
NUM_SMS = []
WORKSPACE = {}


def workspace(c, SPLIT_K, M, N, tiles):
    """Split-K's FP32 partials (SPLIT_K x M x N) and its counters, one a
    tile of C, zero between calls (the last program of a tile resets
    its own): made once, kept across calls (a CUDA graph replays them)."""
    key = (c.device, SPLIT_K, M, N, tiles)
    if key not in WORKSPACE:
        import torch
        WORKSPACE[key] = (
            torch.empty(SPLIT_K * M * N, device=c.device, dtype=torch.float32),
            torch.zeros(tiles, device=c.device, dtype=torch.int32))
    return WORKSPACE[key]


def lego_launch(a, b, c, M, N, K, BM, BN, BK, GM, num_stages, num_warps):
    if KERNEL == 3:
        if not NUM_SMS:
            props = triton.runtime.driver.active.utils.get_device_properties(
                c.device.index or 0)
            NUM_SMS.append(props["multiprocessor_count"])
        return matmul_tma(a, b, c, M, N, K, BM, BN, BK, GM, NUM_SMS[0],
                          num_stages, num_warps)
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    if SPLIT_K > 1:
        w, count = workspace(c, SPLIT_K, M, N, tiles)
        kernel = matmul_splitk_kernel if KERNEL == 1 \
            else matmul_masked_splitk_kernel
        kernel[(tiles, SPLIT_K)](a, b, c, w, count, M, N, K, BM=BM, BN=BN,
                                 BK=BK, GM=GM, SPLIT_K=SPLIT_K,
                                 num_stages=num_stages, num_warps=num_warps)
        return
    kernel = {1: matmul_kernel, 2: matmul_masked_kernel,
              4: matmul_generic_kernel}[KERNEL]
    kernel[(tiles,)](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, GM=GM,
                     num_stages=num_stages, num_warps=num_warps)
