# torch_ref.py - the baselines of bench/mdh beside the generated kernels:
# torch.mv and torch.matmul in fp32 with TF32 off (cuBLAS SGEMM/SGEMV),
# median of 20 timed runs after 3 warm-ups, with CUDA events.
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def median_ms(f):
    for _ in range(3):
        f()
    ts = []
    for _ in range(20):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        f()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    return ts[len(ts) // 2]


g = torch.Generator(device="cuda").manual_seed(1)
M = torch.rand(8192, 8192, device="cuda", generator=g) * 2 - 1
v = torch.rand(8192, device="cuda", generator=g) * 2 - 1
ms = median_ms(lambda: torch.mv(M, v))
gb = 4.0 * (8192 * 8192 + 2 * 8192) / ms / 1e6
print(f"{'torch.mv (cuBLAS SGEMV)':44s} {ms:9.4f} ms {gb:8.1f} GB/s")
for n in (4096,):
    A = torch.rand(n, n, device="cuda", generator=g) * 2 - 1
    B = torch.rand(n, n, device="cuda", generator=g) * 2 - 1
    ms = median_ms(lambda: torch.matmul(A, B))
    print(f"{'torch.matmul fp32, TF32 off (cuBLAS SGEMM)':44s} {ms:9.4f} ms "
          f"{2.0 * n ** 3 / ms / 1e9:8.2f} TFLOP/s  ({n}^3)")
