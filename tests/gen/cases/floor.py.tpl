# Floor division, modulo, min and max over tensors, run by test_triton.py in
# Triton's interpreter (where // and % truncate, as on the GPU).
# {% lego %}
sym D
index i in [0, 64)
# {% end %}
import triton
import triton.language as tl


@triton.jit
def floor_kernel(out_ptr, D):
    i = tl.arange(0, 64)
    tl.store(out_ptr + i, {{ (i - 20) / D }})
    tl.store(out_ptr + 64 + i, {{ (i - 20) % D }})
    tl.store(out_ptr + 128 + i, {{ min(i, 30) - max(i - 40, 3) + select(i < 10, 7, 0) }})
