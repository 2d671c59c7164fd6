# ncu11.py TAG.. - for ncu (run 11): the CCSD(T) inputs at 24^7, einsum
# once (fp32, as inproc.py times it), then each variant TAG.so (built by
# inproc-build.sh) once, so that ncu profiles each kernel beside
# einsum's.  Each variant is checked against einsum afterwards.
import ctypes
import sys

import torch

torch.backends.cuda.matmul.allow_tf32 = False
s = (24,) * 7
g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand(24, 24, 24, 24, device="cuda", generator=g) * 2 - 1
b = torch.rand(24, 24, 24, 24, device="cuda", generator=g) * 2 - 1
torch.cuda.synchronize()
want = torch.einsum("gdea,bcfg->bcafed", a, b)
torch.cuda.synchronize()
c = (ctypes.c_int * 7)(*s)
for tag in sys.argv[1:]:
    lib = ctypes.CDLL(f"./{tag}.so")
    y = torch.empty(24 ** 6, device="cuda")
    scr = torch.empty(24 ** 6, device="cuda")
    e = lib.mdh_launch(ctypes.c_void_p(a.data_ptr()),
                       ctypes.c_void_p(b.data_ptr()),
                       ctypes.c_void_p(y.data_ptr()),
                       ctypes.c_void_p(scr.data_ptr()), c)
    torch.cuda.synchronize()
    rel = float((y + want.reshape(-1)).norm() / want.norm())
    print(f"{tag}: cudaError {e}, rel {rel:.1e}", flush=True)
