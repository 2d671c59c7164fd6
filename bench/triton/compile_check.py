"""Compiles every Triton kernel of bench.py for the H100/H200 (sm_90) on a
machine without a GPU (Triton ships ptxas), with the argument
specialisations the benchmark's launches get (16-byte aligned pointers,
sizes divisible by 16 or not, strides equal to 1 as constants), and
reports for each: compiled or the error, its shared memory against the
227 KB a block may have, and whether the PTX uses wgmma (Hopper's MMA).

Usage: python3 bench/triton/compile_check.py [JOBS]   (needs triton, no torch)
"""
import importlib.util
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
EX = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "triton")
sys.path.insert(0, HERE)
import configs  # noqa: E402

SMEM_LIMIT = 232448
NUM_SMS = 132
TY = {"fp16": "fp16", "e5m2": "fp8e5", "e4m3": "fp8e4nv"}


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def kernel(name):
    """(module file, function) -> the JIT function."""
    path, fn = name
    mod = load(os.path.join(HERE if path == "baselines" else EX, path + ".py"))
    return getattr(mod, fn)


def i32(v):
    """The signature entry of an int argument: 1 is a constant, others i32
    (divisible by 16 or not: the attribute)."""
    return ("constexpr", 1) if v == 1 else ("i32", v)


def desc(ty, block):
    return (f"tensordesc<{ty}[{block[0]}, {block[1]}]>", None)


def gemm_jobs():
    jobs = []
    for d, sizes in (("fp16", configs.FP16_SIZES), ("e5m2", configs.FP8_SIZES),
                     ("e4m3", configs.FP8_SIZES)):
        t = TY[d]
        for M, N, K in sizes:
            c = configs.gemm_cfg(M, N, K, d != "fp16")
            opts = {"num_warps": c["warps"], "num_stages": c["stages"]}
            tiles = dict(BM=c["BM"], BN=c["BN"], BK=c["BK"], GM=c["GM"])
            for v, am, bm in configs.LAYOUTS:
                ptrs = [("*" + t, 0), ("*" + t, 0), ("*fp16", 0)]
                sizes_ = [i32(M), i32(N), i32(K)]
                gen = f"matmul_{v}" if c["exact"] else f"matmul_masked_{v}"
                gfn = "matmul_kernel" if c["exact"] else "matmul_masked_kernel"
                jobs.append((f"gen {d} {v} {M}x{N}x{K}", (gen, gfn), ptrs + sizes_, tiles, opts))
                if c["exact"]:
                    jobs.append((f"gen-inc {d} {v} {M}x{N}x{K}", (f"matmul_inc_{v}", "matmul_inc_kernel"),
                                 ptrs + sizes_, tiles, opts))
                sa = (K, 1) if am == "Row" else (1, M)
                sb = (N, 1) if bm == "Row" else (1, K)
                hand_args = ptrs + sizes_ + [i32(x) for x in (*sa, *sb, N, 1)]
                jobs.append((f"hand {d} {v} {M}x{N}x{K}", ("baselines", "matmul_kernel"), hand_args,
                             dict(BLOCK_SIZE_M=c["BM"], BLOCK_SIZE_N=c["BN"],
                                  BLOCK_SIZE_K=c["BK"], GROUP_SIZE_M=c["GM"]), opts))
                esz = 2 if d == "fp16" else 1
                if any(x * esz % 16 for x in (M, N, K)):
                    continue
                a_t, b_t = am == "Col", bm == "Col"
                da = desc(t, (c["BK"], c["BM"]) if a_t else (c["BM"], c["BK"]))
                db = desc(t, (c["BN"], c["BK"]) if b_t else (c["BK"], c["BN"]))
                dc = desc("fp16", (c["BM"], c["BN"]))
                for who, fn, names in (("gen-tma", (f"matmul_tma_{v}", "matmul_tma_kernel"),
                                        ("BM", "BN", "BK", "GM")),
                                       ("hand-tma", ("baselines", "matmul_tma_persistent_kernel"),
                                        ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"))):
                    const = dict(zip(names, (c["BM"], c["BN"], c["BK"], c["GM"])))
                    sub = "SUBTILE" if who == "gen-tma" else "EPILOGUE_SUBTILE"
                    const.update(A_T=a_t, B_T=b_t, NUM_SMS=NUM_SMS, FLATTEN=True, **{sub: False})
                    jobs.append((f"{who} {d} {v} {M}x{N}x{K}", fn, [da, db, dc] + sizes_, const, opts))
                    if c["BN"] == 256:
                        dc2 = desc("fp16", (c["BM"], c["BN"] // 2))
                        jobs.append((f"{who}-s4 {d} {v} {M}x{N}x{K}", fn, [da, db, dc2] + sizes_,
                                     dict(const, **{sub: True}), dict(opts, num_stages=4)))
    return jobs


def other_jobs():
    jobs = []
    for n in configs.SOFTMAX_N:
        c = configs.softmax_cfg(n, NUM_SMS)
        opts = {"num_warps": c["warps"]}
        jobs.append((f"gen softmax {n}", ("softmax", "softmax_kernel"),
                     [("*fp32", 0), ("*fp32", 0), i32(c["rows"]), i32(n)],
                     dict(N=n, NUM_STAGES=c["stages"]), opts))
        jobs.append((f"hand softmax {n}", ("baselines", "softmax_kernel"),
                     [("*fp32", 0), ("*fp32", 0), i32(n), i32(n), i32(c["rows"]), i32(n)],
                     dict(BLOCK_SIZE=n, num_stages=c["stages"]), opts))
    for n in configs.GROUPED_N:
        c = configs.grouped_cfg(n)
        opts = {"num_warps": c["warps"], "num_stages": c["stages"]}
        ptrs = [("*i64", 0)] * 3
        gen_c = dict(NUM_SM=NUM_SMS, BM=c["BM"], BN=c["BN"], BK=c["BK"], GM=c["GM"])
        jobs.append((f"gen grouped {n} flatten", ("grouped_gemm", "grouped_matmul_kernel"),
                     ptrs + [i32(4), i32(n), i32(n), i32(n)], dict(gen_c, FLATTEN=True), opts))
        hand_c = dict(NUM_SM=NUM_SMS, BLOCK_SIZE_M=c["BM"], BLOCK_SIZE_N=c["BN"],
                      BLOCK_SIZE_K=c["BK"])
        jobs.append((f"gen grouped {n}", ("grouped_gemm", "grouped_matmul_kernel"),
                     ptrs + [i32(4), i32(n), i32(n), i32(n)], dict(gen_c, FLATTEN=False), opts))
        jobs.append((f"gen-tma grouped {n}", ("grouped_gemm_tma", "grouped_matmul_tma_kernel"),
                     ptrs + [i32(4), i32(n), i32(n), i32(n)], gen_c, opts))
        for who, fn in (("hand", ("baselines", "grouped_matmul_kernel")),
                        ("hand-tma", ("baselines", "grouped_matmul_tma_kernel"))):
            jobs.append((f"{who} grouped {n}", fn, ptrs + [("*i32", 0), ("*i32", 0), i32(4)], hand_c, opts))
    return jobs


def compile_one(job):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    label, fn_name, args, const, opts = job
    fn = kernel(fn_name)
    names = fn.arg_names
    sig, constexprs, attrs = {}, dict(const), {}
    runtime = [n for n in names if n not in const]
    for i, (n, (ty, val)) in enumerate(zip(runtime, args)):
        if ty == "constexpr":
            constexprs[n] = val
            sig[n] = "constexpr"
            continue
        sig[n] = ty
        if ty.startswith("*") or (ty == "i32" and val % 16 == 0):
            attrs[(names.index(n),)] = [["tt.divisibility", 16]]
    for n in const:
        sig[n] = "constexpr"
    sig = {n: sig[n] for n in names}
    t0 = time.time()
    try:
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=attrs),
                           target=GPUTarget("cuda", 90, 32), options=opts)
    except Exception as e:
        msg = str(e).strip().splitlines()
        return label, False, f"compile error: {msg[-1] if msg else repr(e)}"[:300]
    shared = k.metadata.shared
    ptx = k.asm["ptx"]
    mma = "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else "no mma"
    tma = " tma" if "cp.async.bulk.tensor" in ptx else ""
    ok = shared <= SMEM_LIMIT
    return label, ok, (f"smem {shared // 1024} KB{'' if ok else ' > 227 KB: out of resources'}, "
                       f"{mma}{tma}, {time.time() - t0:.1f} s")


def progress(done, total, start):
    """[done/total, elapsed, estimated time left] of a long run."""
    elapsed = time.time() - start
    left = elapsed / done * (total - done)
    return f"[{done}/{total}, {elapsed:.0f} s, about {left:.0f} s left]"


def main():
    jobs = gemm_jobs() + other_jobs()
    if len(sys.argv) > 2:
        jobs = [j for j in jobs if re.search(sys.argv[2], j[0])]
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count()
    bad = 0
    start = time.time()
    print(f"compile-check: {len(jobs)} kernels on {workers} processes", flush=True)
    with ProcessPoolExecutor(workers) as ex:
        for done, (label, ok, msg) in enumerate(ex.map(compile_one, jobs), 1):
            bad += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {label}: {msg}  {progress(done, len(jobs), start)}",
                  flush=True)
    print(f"compile-check: {len(jobs) - bad} ok, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
