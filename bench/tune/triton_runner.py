"""The Triton runner of `lego tune`: a server that holds PyTorch, Triton and
the inputs of the problem being tuned, and a client that `lego tune --run`
starts for each candidate (a Python start without torch: ~30 ms).

  python3 triton_runner.py serve SOCKET [call|graph] &
  lego tune SPEC matmul.py.tpl --run 'python3 triton_runner.py measure SOCKET
      {kernel} ab M N K {BM} {BN} {BK} {GM} {STAGES} {WARPS}' ...

measure: the server imports the generated kernel, runs it once on random
FP16 inputs (FP8 e4m3 for a layout like abt_e4m3) (output poisoned with NaN) and compares it with torch.matmul
in float32 (relative Frobenius error < 1e-2), then times it with bench()
below (compare.py times every provider with it too): the time of a call
as a caller sees it; `graph` times it with graph_bench() instead, with
no host launch (a CUDA graph's replay), to tune for callers that launch
from a graph (its capture sized by estimate(), not bench()).  It prints
the time in ms; a candidate that fails to compile or computes wrong exits
1 with the reason, which lego tune records.
"""
import importlib.util
import json
import os
import socket
import sys

LAYOUTS = {"ab": ("Row", "Row"), "abt": ("Row", "Col"),
           "atb": ("Col", "Row"), "atbt": ("Col", "Col")}


def split(v):
    """"abt" or "abt_e4m3": the layouts and the inputs' element type
    (FP16 by default; C is FP16 either way)."""
    lay, _, dtype = v.partition("_")
    return LAYOUTS[lay], dtype or "fp16"


def inputs(torch, v, M, N, K):
    (am, bm), dtype = split(v)
    dt = {"fp16": torch.float16, "e4m3": getattr(torch, "float8_e4m3fn", None)}[dtype]
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(M, K, device="cuda", generator=g).to(dt)
    b = torch.randn(K, N, device="cuda", generator=g).to(dt)
    a_mem = a if am == "Row" else a.T.contiguous()
    b_mem = b if bm == "Row" else b.T.contiguous()
    ref = torch.matmul(a.float(), b.float())
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    return a_mem, b_mem, c, ref


def load_kernel(path):
    name = "lego_tuned_" + os.path.basename(path).replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    # lego_launch: the combined template of choice.sh, whose KERNEL
    # picks the kernel and launches it
    for attr in ("lego_launch", "matmul_kernel", "matmul_masked_kernel"):
        if hasattr(mod, attr):
            return getattr(mod, attr)
    raise RuntimeError("no matmul_kernel in " + path)


def launcher(torch, triton, kernel, bufs, M, N, K, cfg):
    a, b, c, _ = bufs
    if getattr(kernel, "__name__", "") == "lego_launch":
        return lambda: kernel(a, b, c, M, N, K, cfg["BM"], cfg["BN"],
                              cfg["BK"], cfg["GM"], cfg["STAGES"],
                              cfg["WARPS"])
    grid = (triton.cdiv(M, cfg["BM"]) * triton.cdiv(N, cfg["BN"]),)

    def run():
        kernel[grid](a, b, c, M, N, K, BM=cfg["BM"], BN=cfg["BN"],
                     BK=cfg["BK"], GM=cfg["GM"], num_stages=cfg["STAGES"],
                     num_warps=cfg["WARPS"])
    return run


def check(torch, run, bufs):
    c, ref = bufs[2], bufs[3]
    c.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    err = (torch.linalg.norm(c.float() - ref) / torch.linalg.norm(ref)).item()
    if not err < 1e-2:            # NaN fails too
        raise RuntimeError(f"wrong result: relative error {err:.3g}")


def bench(torch, triton, run, rep=40):
    """The time of a call as a caller sees it, in ms: the larger of the
    kernel's time (do_bench's median, L2 flushed before each run) and the
    time a call takes back to back (median of 3 rounds of about 10 ms).
    do_bench alone hides the host's time of a call (the TMA launch builds
    three descriptors in Python) behind its L2 flush, but only while that
    time stays under the flush's: near it, the same kernel measured 8 or
    20 us from one run to the next (h100-choice, size 1024), and the
    tuner chose a kernel that loses side by side."""
    import time
    gpu = triton.testing.do_bench(run, warmup=10, rep=rep,
                                  return_mode="median")
    n = max(10, int(10 / max(gpu, 1e-3)))
    rounds = []
    for _ in range(3):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            run()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - t0) * 1e3 / n)
    return max(gpu, sorted(rounds)[1])


def estimate(torch, run, calls=5):
    """A rough time of a call in ms (a few back to back): enough to size
    graph_bench's capture, at a few ms instead of bench's ~80 (a
    graph-timed tuning run measures hundreds of candidates)."""
    import time
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        run()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3 / calls


def graph_bench(torch, run, per_call_ms, budget_ms=5.0):
    """The time of a call without the host's time of a launch, in ms: n
    calls back to back captured in one CUDA graph, the graph replayed 5
    times (CUDA events, median / n).  The same for every provider (Triton
    kernels, autotune's chosen kernel, cuBLAS): a replay launches the
    captured kernels from the GPU's queue, no Python, no C++ launch
    path.  L2 is not flushed between the calls.  per_call_ms (bench's)
    sets n to about budget_ms of work, 10 to 200 calls."""
    n = max(10, min(200, int(budget_ms / max(per_call_ms, 1e-3))))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):             # warm up off the capture
        for _ in range(3):
            run()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            run()
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(5):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / n)
    del g
    return sorted(times)[2]


def serve_loop(path, name, answer):
    """Answers the requests on the Unix socket path, one JSON line each,
    until one says quit: answer(req) gives the time in ms; an exception
    is the candidate's failure, sent as "ERR ..." (recorded by lego
    tune).  Also the softmax runner's (softmax/runner.py)."""
    if os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(4)
    print(name + ": serving on", path, flush=True)
    while True:
        conn, _ = srv.accept()
        with conn:
            req = json.loads(conn.makefile().readline())
            if req.get("quit"):
                return
            try:
                reply = f"{answer(req):.6f}\n"
            except Exception as e:             # recorded by lego tune
                msg = " ".join(str(e).split())[:300]
                reply = f"ERR {type(e).__name__}: {msg}\n"
            conn.sendall(reply.encode())


def serve(path, timing="call"):
    import torch
    import triton
    import triton.testing
    cells = {}

    def answer(req):
        key = (req["v"], req["M"], req["N"], req["K"])
        if key not in cells:
            cells.clear()             # one problem at a time
            cells[key] = inputs(torch, *key)
        bufs = cells[key]
        run = launcher(torch, triton, load_kernel(req["kernel"]), bufs,
                       req["M"], req["N"], req["K"], req["cfg"])
        check(torch, run, bufs)
        if timing == "graph":
            return graph_bench(torch, run, estimate(torch, run))
        return bench(torch, triton, run)
    serve_loop(path, "triton_runner", answer)


def ask(path, req):
    """The client's side: sends req, prints the time, or the reason on
    stderr and exits 1."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall((json.dumps(req) + "\n").encode())
    reply = s.makefile().readline().strip()
    if reply.startswith("ERR") or not reply:
        print(reply or "ERR no reply", file=sys.stderr)
        sys.exit(1)
    print(reply)


def measure(argv):
    path, kernel, v, M, N, K, BM, BN, BK, GM, ST, W = argv
    cfg = dict(BM=int(BM), BN=int(BN), BK=int(BK), GM=int(GM),
               STAGES=int(ST), WARPS=int(W))
    req = dict(kernel=os.path.abspath(kernel), v=v, M=int(M), N=int(N),
               K=int(K), cfg=cfg)
    ask(path, req)


def quit_server(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b'{"quit": true}\n')


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "serve" and \
            sys.argv[3:] in ([], ["call"], ["graph"]):
        serve(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "quit":
        quit_server(sys.argv[2])
    elif len(sys.argv) == 14 and sys.argv[1] == "measure":
        measure(sys.argv[2:])
    else:
        sys.exit(__doc__)
