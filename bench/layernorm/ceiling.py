"""The ceiling of the forward's copy target: every way we have of copying
the forward's bytes (x read, y written: M x N elements each way), timed on
the copy's footing (bench.py's `copy`: CUDA-graph replays, one copy on each
of K input sets, K outputs kept), in R interleaved rounds, beside the 1 GiB
copy each way, and beside our forward (its chosen launch parameters and
the TMA ones) on the same footing.  If no copy of the same bytes reaches
0.85x the 1 GiB copy at a size, no kernel that must read x and write y
reaches it there either.

The copies (each checked to reproduce x exactly before it is timed):
  memcpy          torch's copy_: cudaMemcpyAsync device to device (in a
                  graph, a memcpy node); also timed outside a graph, K
                  copies a round enqueued back to back ('memcpy, stream':
                  another footing, launches included)
  torch mul       torch's elementwise kernel (x * 1)
  triton B/w      a plain Triton copy, B elements a program, w warps
  triton ptr      block pointers (tl.make_block_ptr), a tile a program
  triton TMA      tensor descriptors over tiles of T rows (a box a
                  tile: bulk copies into and out of shared memory), G
                  persistent programs, s stages of Triton's pipeliner
  cuda U/G        a CUDA kernel (CuPy RawKernel, NVRTC): 16-byte loads and
                  stores, U loads in flight a thread before the stores,
                  grid-stride over G blocks of 256 threads (G = 0: one pass,
                  no loop); 'cs': the loads and stores streaming (__ldcs,
                  __stcs)
Usage: OUT=dir python3 bench/layernorm/ceiling.py [rounds]
Writes OUT/ceiling.json and prints the tables.  LN_OURS picks our forwards:
`chosen` (OURS below, the default), `tma` (and the TMA candidates: s7's
run), `all` (and every pointer candidate of ops.fwd_candidates: a sweep),
`late` (and the candidates with w and b reloaded after each tile's sums,
wb = 1, and those of one tile a program: s10's sweep), `one` (and those
of one tile a program, wb = 0 and 1: s11's), `warp` (and those of
layernorm_fwd_warp, a row to 1, 2 or 4 warps, chunk or row first: s13's;
s12 ran its first version, chunk first, w and b behind x, G = 0 or 4
programs a multiprocessor);
LN_CELLS=float16:2048,float16:4096 only those cells.
"""
import json
import os
import statistics
import sys

import cupy
import numpy
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

import bench
import ops

CELLS = [(2048, torch.float16), (4096, torch.float16), (2048, torch.float32), (4096, torch.float32)]
if os.environ.get("LN_CELLS"):
    CELLS = [(int(n), getattr(torch, d)) for d, n in (c.split(":") for c in os.environ["LN_CELLS"].split(","))]
# Our forward at each cell: the choice of s10's tables (bench.py, the forward
# alone at N = 2048, 4096).
OURS = {(2048, torch.float16): [(1, 4, 1056, 3, 0, 1)], (4096, torch.float16): [(2, 8, 264, 2, 0, 0)],
        (2048, torch.float32): [(2, 4, 1056, 2, 0, 0)], (4096, torch.float32): [(1, 8, 0, 1, 0, 0)]}


@triton.jit
def _copy_blockptr(x_ptr, o_ptr, R, C: tl.constexpr, T: tl.constexpr):
    i = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, (R, C), (C, 1), (i * T, 0), (T, C), (1, 0))
    dst = tl.make_block_ptr(o_ptr, (R, C), (C, 1), (i * T, 0), (T, C), (1, 0))
    tl.store(dst, tl.load(src))


@triton.jit
def _copy_tma(x_desc, o_desc, TILES, G, NUM_STAGES: tl.constexpr):
    for i in tl.range(tl.program_id(0), TILES, G, num_stages=NUM_STAGES):
        o_desc.store([i, 0, 0], x_desc.load([i, 0, 0]))


CUDA = r"""
extern "C" __global__ void copy16(const int4* __restrict__ x, int4* __restrict__ o, long long n)
{
    // n: int4s, a multiple of blockDim.x * U.  U independent loads a thread
    // in flight before its stores; grid-stride when the grid is smaller.
    long long step = (long long)gridDim.x * blockDim.x * U;
    for (long long i = (long long)blockIdx.x * blockDim.x * U + threadIdx.x; i < n; i += step) {
        int4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = LOAD(x + i + u * blockDim.x);
#pragma unroll
        for (int u = 0; u < U; u++)
            STORE(o + i + u * blockDim.x, v[u]);
    }
}
"""


def cuda_copy(unroll, blocks, streaming):
    """The CUDA copy of U = `unroll`, over `blocks` blocks (0: one pass)."""
    load, store = ("__ldcs", "__stcs") if streaming else ("PLAIN_LOAD", "PLAIN_STORE")
    src = ("#define PLAIN_LOAD(p) (*(p))\n#define PLAIN_STORE(p, v) (*(p) = (v))\n"
           f"#define U {unroll}\n#define LOAD {load}\n#define STORE {store}\n" + CUDA)
    kernel = cupy.RawKernel(src, "copy16")

    def op(o, x):
        n = x.numel() * x.element_size() // 16
        grid = blocks or n // (256 * unroll)
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            kernel((grid,), (256,), (numpy.uint64(x.data_ptr()), numpy.uint64(o.data_ptr()),
                                    numpy.int64(n)))
    return op


def triton_plain(block, warps):
    def op(o, x):
        bench._copy[(x.numel() // block,)](x, o, BLOCK=block, num_warps=warps)
    return op


def rows_for(x, nbytes):
    """Rows of x making a tile of `nbytes` (at least one)."""
    return max(1, nbytes // (x.shape[1] * x.element_size()))


def triton_blockptr(nbytes, warps):
    def op(o, x):
        t = rows_for(x, nbytes)
        _copy_blockptr[(x.shape[0] // t,)](x, o, x.shape[0], C=x.shape[1], T=t, num_warps=warps)
    return op


def triton_tma(nbytes, per_sm, stages, warps):
    def op(o, x):
        t = rows_for(x, nbytes)
        shape, strides, box = [x.shape[0] // t, t, x.shape[1]], [t * x.shape[1], x.shape[1], 1], [1, t, x.shape[1]]
        g = min(per_sm * ops.sms(), shape[0])
        _copy_tma[(g,)](TensorDescriptor(x, shape, strides, box), TensorDescriptor(o, shape, strides, box),
                        shape[0], g, NUM_STAGES=stages, num_warps=warps)
    return op


COPIES = {
    "memcpy": lambda o, x: o.copy_(x),
    "torch mul": lambda o, x: torch.mul(x, 1, out=o),
    "triton 8192/8": triton_plain(8192, 8),
    "triton 4096/4": triton_plain(4096, 4),
    "triton 16384/16": triton_plain(16384, 16),
    "triton ptr 16K/8": triton_blockptr(16384, 8),
    "triton TMA 8K G4 s2": triton_tma(8192, 4, 2, 4),
    "triton TMA 16K G2 s3": triton_tma(16384, 2, 3, 4),
    "triton TMA 16K G4 s2": triton_tma(16384, 4, 2, 4),
    "triton TMA 32K G2 s2": triton_tma(32768, 2, 2, 8),
    "cuda U1 G0": cuda_copy(1, 0, False),
    "cuda U4 G0": cuda_copy(4, 0, False),
    "cuda U4 G0 cs": cuda_copy(4, 0, True),
    "cuda U2 G1056": cuda_copy(2, 1056, False),
    "cuda U4 G1056 cs": cuda_copy(4, 1056, True),
    "cuda U8 G528": cuda_copy(8, 528, False),
}


def stream_ms(sets, op, reps=10):
    """Median ms of one copy outside a graph: K copies (one a set) enqueued
    back to back between two events, after a warm-up."""
    outs = [torch.empty_like(s[0]) for s in sets.sets]
    for _ in range(3):
        for o, s in zip(outs, sets.sets):
            op(o, s[0])
    times = []
    for _ in range(reps):
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        start.record()
        for o, s in zip(outs, sets.sets):
            op(o, s[0])
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / len(outs))
    return sorted(times)[reps // 2]


def exact(op, x):
    """Whether op copies x exactly into an output poisoned beforehand."""
    o = torch.full_like(x, float("nan"))
    op(o, x)
    torch.cuda.synchronize()
    return torch.equal(o, x)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = os.environ.get("OUT", ".")
    big = torch.empty((2 ** 29 // 4096, 4096), dtype=torch.float16, device="cuda").normal_()
    big_out = torch.empty_like(big)
    cells = {c: bench.Sets(c[1], c[0]) for c in CELLS}
    ours = {}
    for (N, dtype), sets in cells.items():
        x, w, b, _ = bench.inputs(dtype, N, seed=1000)
        yref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
        mode = os.environ.get("LN_OURS", "chosen")
        # The modes before s12 as they were: layernorm_fwd's candidates (6 fields).
        more = [c for c in ops.fwd_candidates(N, dtype, True)
                if (len(c) == 6 and ((mode == "all" and not c[4]) or (mode == "tma" and c[4])
                                     or (mode == "late" and (c[5] or not (c[2] or c[4])))
                                     or (mode == "one" and not (c[2] or c[4]))))
                or (mode == "warp" and len(c) == 8)]
        for c in OURS[(N, dtype)] + [c for c in more if c not in OURS[(N, dtype)]]:
            fn = (lambda c: lambda x, w, b: ops.layer_norm(x, w, b, fwd=c))(c)
            try:
                err = bench.rel(fn(x, w, b), yref)
            except Exception as e:  # noqa: BLE001 (refused by the compiler or the device)
                print(f"N={N} {dtype}: ours {c} refused: {type(e).__name__}: {str(e)[:160]}")
                continue
            ok = err < (1e-2 if dtype == torch.float16 else 1e-4)
            print(f"N={N} {dtype}: ours {c} y error {err:.1e}{'' if ok else ' WRONG: not timed'}")
            if ok:
                ours[(N, dtype, c)] = fn
    copies = {}
    for name, op in COPIES.items():
        try:
            good = all(exact(op, s.sets[0][0]) for s in cells.values()) and exact(op, big)
        except Exception as e:  # noqa: BLE001
            print(f"copy {name} refused: {type(e).__name__}: {str(e)[:160]}")
            continue
        print(f"copy {name}: {'exact' if good else 'WRONG: not timed'}")
        if good:
            copies[name] = op
    times = {}
    for _ in range(rounds):
        for name, op in copies.items():
            times.setdefault(("1 GiB", name), []).append(bench.graph_ms(lambda: [lambda: op(big_out, big)]))
        for (N, dtype), sets in cells.items():
            cell = f"{str(dtype)[6:]} {N}"
            for name, op in copies.items():
                times.setdefault((cell, name), []).append(bench.graph_ms(sets.copy(op)))
            times.setdefault((cell, "memcpy, stream"), []).append(stream_ms(sets, COPIES["memcpy"]))
            for (n, d, c), fn in ours.items():
                if (n, d) == (N, dtype):
                    times.setdefault((cell, f"ours {c}"), []).append(bench.graph_ms(sets.fwd_kept(fn)))
    med = {k: statistics.median(v) for k, v in times.items()}
    nbytes = {f"{str(d)[6:]} {N}": 2 * bench.M * N * torch.tensor([], dtype=d).element_size() for N, d in CELLS}
    nbytes["1 GiB"] = 2 * big.numel() * big.element_size()
    best = max(nbytes["1 GiB"] / med[("1 GiB", name)] / 1e6 for name in copies)
    lines = [f"{torch.cuda.get_device_name()}: {rounds} interleaved rounds, CUDA-graph replays, "
             f"K outputs kept (the copy's footing); the 1 GiB copy: {best:.0f} GB/s (the fastest below)"]
    for cell in ["1 GiB"] + [f"{str(d)[6:]} {N}" for N, d in CELLS]:
        rows = sorted((k[1] for k in med if k[0] == cell), key=lambda n: med[(cell, n)])
        lines += ["", f"{cell} ({nbytes[cell] / 1e6:.1f} MB moved a call)",
                  "| kernel | median us | min | max | GB/s | / 1 GiB copy |", "|---|---|---|---|---|---|"]
        for name in rows:
            ts = times[(cell, name)]
            gbs = nbytes[cell] / med[(cell, name)] / 1e6
            lines.append(f"| {name} | {med[(cell, name)] * 1e3:.1f} | {min(ts) * 1e3:.1f} | "
                         f"{max(ts) * 1e3:.1f} | {gbs:.0f} | {gbs / best:.3f} |")
    table = "\n".join(lines)
    with open(os.path.join(out, "ceiling.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rounds": rounds, "copy_1gib_gbs": best,
                   "bytes": nbytes, "times_ms": [[k[0], k[1], v] for k, v in times.items()]}, f, indent=1)
    print(table)


if __name__ == "__main__":
    main()
