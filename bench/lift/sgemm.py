# sgemm.py - cuBLAS SGEMM at 4096 (torch.matmul in fp32, TF32 off), the
# matmul baseline of the Lift GPU study: median of 20 runs, CUDA events.
import torch

torch.backends.cuda.matmul.allow_tf32 = False
n = 4096
g = torch.Generator(device="cuda").manual_seed(1)
A = torch.rand(n, n, device="cuda", generator=g)
B = torch.rand(n, n, device="cuda", generator=g)
for _ in range(3):
    torch.matmul(A, B)
ts = []
for _ in range(20):
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    torch.matmul(A, B)
    b.record()
    b.synchronize()
    ts.append(a.elapsed_time(b))
ts.sort()
ms = ts[len(ts) // 2]
print(f"RESULT cublas     {n}^3 SGEMM {ms:9.4f} ms  {2.0 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
