# The launch of the combined template that choice.sh writes (the pointer,
# masked and TMA templates of examples/triton, then this): KERNEL, a
# tuned parameter of choice.lego, picks the kernel; the runner
# (triton_runner.py) and compare.py call lego_launch.
KERNEL = {{ KERNEL }}
NUM_SMS = []


def lego_launch(a, b, c, M, N, K, BM, BN, BK, GM, num_stages, num_warps):
    if KERNEL == 3:
        if not NUM_SMS:
            props = triton.runtime.driver.active.utils.get_device_properties(
                c.device.index or 0)
            NUM_SMS.append(props["multiprocessor_count"])
        return matmul_tma(a, b, c, M, N, K, BM, BN, BK, GM, NUM_SMS[0],
                          num_stages, num_warps)
    kernel = matmul_kernel if KERNEL == 1 else matmul_masked_kernel
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    kernel[grid](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, GM=GM,
                 num_stages=num_stages, num_warps=num_warps)
