"""The softmax runner of `lego tune` (run.sh): a server holding PyTorch,
Triton and one problem's input (rows of N float32, 256 MB in all, as
bench/triton/bench.py's softmax_case), and a client that `lego tune
--run` starts for each candidate.

  python3 runner.py serve SOCKET &
  lego tune SPEC softmax.py.tpl --run 'python3 runner.py measure SOCKET
      {kernel} {N} {WARPS} {STAGES} {OCC}' ...
  python3 runner.py committed N     # the committed choice, as -D values
  python3 runner.py warm LIST       # compile LIST's kernels on all cores
  python3 runner.py quit SOCKET

measure: the server imports the kernel file (a candidate, or the
committed examples/triton/softmax.py), launches softmax_kernel on
min(rows, SMs * OCC) programs, checks its output (poisoned with NaN
first) against torch.softmax in float64, and times it with
triton_runner.bench (the time of a call as a caller sees it); it prints
the time in ms, or exits 1 with the reason (recorded by lego tune).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))                     # triton_runner
sys.path.insert(0, os.path.join(HERE, "..", "..", "triton"))   # configs

import configs                                               # noqa: E402
import triton_runner                                         # noqa: E402

SMS = 132   # the H100's; the server checks the device's


def rows(n):
    return (1 << 26) // n


def committed(n):
    """The committed choice as lego tune's -D values."""
    c = configs.softmax_cfg(n, SMS)
    assert c["programs"] % SMS == 0
    return f"-D WARPS={c['warps']} -D STAGES={c['stages']} -D OCC={c['programs'] // SMS}"


def problem(torch, n):
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(rows(n), n, device="cuda", generator=g)
    ref = torch.softmax(x.double(), dim=-1).float()
    return x, torch.empty_like(x), ref


def launcher(kernel, bufs, n, cfg):
    x, y, _ = bufs
    grid = (min(rows(n), SMS * cfg["OCC"]),)
    return lambda: kernel[grid](y, x, rows(n), n, N=n,
                                NUM_STAGES=cfg["STAGES"],
                                num_warps=cfg["WARPS"])


def check(torch, run, bufs):
    _, y, ref = bufs
    y.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    err = (y - ref).abs().max().item()
    if not err < 1e-6:            # NaN fails too
        raise RuntimeError(f"wrong result: max error {err:.3g}")


def load(path):
    import importlib.util
    name = "lego_softmax_" + os.path.basename(path).replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.softmax_kernel


def answer(torch, triton, cells, req):
    n = req["N"]
    if n not in cells:
        cells.clear()                 # one problem at a time
        cells[n] = problem(torch, n)
    run = launcher(load(req["kernel"]), cells[n], n, req["cfg"])
    check(torch, run, cells[n])
    return triton_runner.bench(torch, triton, run)


def serve(path):
    import torch
    import triton
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    if sms != SMS:
        sys.exit(f"runner.py: {sms} SMs, the committed grid assumes {SMS}")
    cells = {}
    triton_runner.serve_loop(path, "softmax runner",
                             lambda req: answer(torch, triton, cells, req))


def compile_one(item):
    """Compiles (no launch) one kernel of warm's list for Triton's cache,
    which the server's launches of the same text then hit."""
    import torch
    path, n, w, st = item
    x = torch.empty(16, device="cuda")
    load(path).warmup(x, x, rows(n), n, N=n, NUM_STAGES=st, num_warps=w,
                      grid=(1,))
    return item


def warm(listing):
    """listing: lines "FILE N WARPS=w STAGES=s OCC=o" (lego tune --list);
    each (FILE, N, w, s) compiled once, by a pool of processes."""
    import concurrent.futures
    import multiprocessing
    items = set()
    for line in open(listing):
        f, n, *kv = line.split()
        d = dict(p.split("=") for p in kv)
        items.add((f, int(n), int(d["WARPS"]), int(d["STAGES"])))
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(os.cpu_count(),
                                                mp_context=ctx) as pool:
        for item in pool.map(compile_one, sorted(items)):
            print("compiled", *item, flush=True)


def measure(path, kernel, n, w, st, occ):
    triton_runner.ask(path, dict(
        kernel=os.path.abspath(kernel), N=int(n),
        cfg=dict(WARPS=int(w), STAGES=int(st), OCC=int(occ))))


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["serve"] and len(a) == 2:
        serve(a[1])
    elif a[:1] == ["measure"] and len(a) == 7:
        measure(*a[1:])
    elif a[:1] == ["committed"] and len(a) == 2:
        print(committed(int(a[1])))
    elif a[:1] == ["warm"] and len(a) == 2:
        warm(a[1])
    elif a[:1] == ["quit"] and len(a) == 2:
        triton_runner.quit_server(a[1])
    else:
        sys.exit(__doc__)
