# inproc.py LIST [ROUNDS] - MCC and the CCSD(T) contraction beside torch in
# one process: each variant of LIST (lines "TAG PROG SIZES.. -- DEFINES",
# TAG.so built from lib.cu by inproc-build.sh) is checked against torch
# in float64 (relative L2 error below 1e-4, or it is not timed), then
# ROUNDS rounds (default 5) each time, per shape, torch (conv2d: cuDNN in
# benchmark mode; einsum), every variant of the shape, then torch again
# (the ratio is against the mean of the two), fp32 with TF32 off, each the median of 20 launches, each launch after
# the L2 is flushed (a 256 MB buffer written) and timed alone with CUDA
# events.  Prints a line a round and, per variant, the median over the
# rounds of torch's time over ours in the same round, with the spread.
# With write.so beside (bench/mdh/write.cu, run 11), each round of a
# CCSD(T) shape also times the write ceiling of its output's bytes, as
# each kernel is timed: cudaMemset and a float4 store kernel (plain and
# streaming stores), and every time is printed with its GB/s of output
# written; the last lines give each one's median over the rounds.
import ctypes
import os
import sys

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True

flush_buf = torch.empty(64 * 1024 * 1024, dtype=torch.float32, device="cuda")


def median_ms(f, n=20):
    for _ in range(3):
        f()
    ts = []
    for _ in range(n):
        flush_buf.zero_()
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


def rand(*shape):
    return torch.rand(*shape, device="cuda", generator=g) * 2 - 1


class Shape:
    """The inputs of one program at one size, and torch's result."""

    def __init__(self, prog, s):
        self.prog, self.s = prog, s
        if prog == "mcc":
            n, k, p, q, c, r, w = s
            self.a = rand(n, c, p + r - 1, q + w - 1)
            self.b = rand(k, c, r, w)
            self.base = lambda: torch.nn.functional.conv2d(self.a, self.b)
            self.want = torch.nn.functional.conv2d(self.a.double(),
                                                   self.b.double())
        else:
            # t3[h3,h2,h1,p6,p5,p4] = -sum_h7 t2[h7,p4,p5,h1] v2[h3,h2,p6,h7]
            # (torch timed without the negation)
            h3, h2, h1, p6, p5, p4, h7 = s
            self.a = rand(h7, p4, p5, h1)
            self.b = rand(h3, h2, p6, h7)
            eq = "gdea,bcfg->bcafed"
            self.base = lambda: torch.einsum(eq, self.a, self.b)
            self.want = -torch.einsum(eq, self.a.double(), self.b.double())


class Variant:
    def __init__(self, tag, shape, label):
        self.tag, self.shape, self.label = tag, shape, label
        lib = ctypes.CDLL(f"./{tag}.so")
        self.fn = lib.mdh_launch
        self.fn.restype = ctypes.c_int
        s = (ctypes.c_int * 7)(*shape.s)
        lens = (ctypes.c_size_t * 4)()
        lib.mdh_lens(s, lens)
        self.y = torch.empty(lens[2], device="cuda")
        self.scr = torch.empty(max(lens[3], 1), device="cuda")
        if lens[0] != shape.a.numel() or lens[1] != shape.b.numel():
            raise SystemExit(f"{tag}: input lengths {lens[0]} {lens[1]}")
        self.args = (ctypes.c_void_p(shape.a.data_ptr()),
                     ctypes.c_void_p(shape.b.data_ptr()),
                     ctypes.c_void_p(self.y.data_ptr()),
                     ctypes.c_void_p(self.scr.data_ptr()), s)

    def run(self):
        e = self.fn(*self.args)
        if e:
            raise SystemExit(f"{self.tag}: cudaError {e}")

    def check(self):
        self.y.fill_(float("nan"))
        self.run()
        torch.cuda.synchronize()
        want = self.shape.want.reshape(-1)
        got = self.y.double()
        return float((got - want).norm() / want.norm())


def writers(n):
    """The write ceiling for n floats, or none without write.so."""
    if not os.path.exists("./write.so"):
        return []
    lib = ctypes.CDLL("./write.so")
    y = torch.empty(n, device="cuda")
    p, c = ctypes.c_void_p(y.data_ptr()), ctypes.c_size_t(n)

    def call(e):
        if e:
            raise SystemExit(f"write.so: cudaError {e}")
    return [("memset", lambda: call(lib.mdh_memset(p, c)), y),
            ("store4", lambda: call(lib.mdh_store4(p, c, 0)), y),
            ("store4cs", lambda: call(lib.mdh_store4(p, c, 1)), y)]


def gbs(n, ms):
    return n * 4 / ms / 1e6


def main():
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    shapes, variants = {}, []
    for line in open(sys.argv[1]):
        if not line.strip() or line.startswith("#"):
            continue
        head, defs = line.split("--", 1)
        tag, prog, *sizes = head.split()
        key = (prog, tuple(int(x) for x in sizes))
        if key not in shapes:
            shapes[key] = Shape(prog, key[1])
        v = Variant(tag, shapes[key], defs.strip())
        rel = v.check()
        ok = rel < 1e-4
        print(f"check {tag} {prog} {' '.join(sizes)} rel {rel:.1e} "
              f"{'ok' if ok else 'FAILED'}", flush=True)
        if ok:
            variants.append(v)
    print(torch.cuda.get_device_name(), "torch", torch.__version__,
          "cudnn", torch.backends.cudnn.version(), flush=True)
    ratios = {v.tag: [] for v in variants}
    walls = {}
    for key, sh in shapes.items():
        if key[0] == "ccsdt":
            walls[key] = writers(sh.want.numel())
    wtimes = {}
    for r in range(rounds):
        for key, sh in shapes.items():
            # torch before and after the shape's variants: each ratio
            # takes the mean of the two, so that both orders count
            base = median_ms(sh.base)
            mine = [(v, median_ms(v.run)) for v in variants if v.shape is sh]
            base2 = median_ms(sh.base)
            name = "cudnn" if key[0] == "mcc" else "einsum"
            bm = (base + base2) / 2
            n = sh.want.numel()
            for w, f, _ in walls.get(key, []):
                ms = median_ms(f)
                wtimes.setdefault((key, w), []).append(ms)
                print(f"  round {r + 1} {key[0]} {' '.join(map(str, key[1]))}"
                      f" {w}: {ms:.4f} ms, {gbs(n, ms):.0f} GB/s; einsum "
                      f"{gbs(n, base):.0f} and {gbs(n, base2):.0f} GB/s",
                      flush=True)
            for v, ms in mine:
                ratios[v.tag].append(bm / ms)
                print(f"  round {r + 1} {key[0]} {' '.join(map(str, key[1]))}"
                      f" {v.tag}: ours {ms:.4f} ms, {name} {base:.4f} and "
                      f"{base2:.4f} ms, ratio {bm / ms:.3f}"
                      f"{f', {gbs(n, ms):.0f} GB/s' if key in walls else ''}",
                      flush=True)
    for v in variants:
        q = sorted(ratios[v.tag])
        print(f"{v.tag} {v.shape.prog} {' '.join(map(str, v.shape.s))} "
              f"[{v.label}] ROUNDS {rounds} torch/ours median "
              f"{q[len(q) // 2]:.3f} min {q[0]:.3f} max {q[-1]:.3f}",
              flush=True)
    for (key, w), ts in wtimes.items():
        ts.sort()
        print(f"{w} {key[0]} {' '.join(map(str, key[1]))} WRITE median "
              f"{ts[len(ts) // 2]:.4f} ms, {gbs(key_n(key), ts[len(ts) // 2]):.0f}"
              f" GB/s (min {ts[0]:.4f}, max {ts[-1]:.4f} ms)", flush=True)


def key_n(key):
    """Output elements of a CCSD(T) shape: 24^6 of 24^7."""
    h3, h2, h1, p6, p5, p4, _ = key[1]
    return h3 * h2 * h1 * p6 * p5 * p4


main()
