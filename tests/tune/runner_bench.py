"""runner_bench.py - bench/tune/triton_runner.py's bench() without a GPU:
torch and triton replaced by stand-ins whose kernel time is fixed and
whose call costs the host a known sleep.  The time must be the larger
of the two (the host's time counted, as a caller sees it).  Prints
"ok" or the failure."""
import os
import sys
import time
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "bench", "tune"))
import triton_runner as tr  # noqa: E402


def fakes(kernel_ms):
    torch = types.SimpleNamespace(cuda=types.SimpleNamespace(
        synchronize=lambda: None))
    testing = types.SimpleNamespace(
        do_bench=lambda fn, warmup, rep, return_mode: kernel_ms)
    return torch, types.SimpleNamespace(testing=testing)


def host(ms):
    return lambda: time.sleep(ms / 1e3)


def main():
    bad = []
    # host-bound: 2 ms of host a call behind a 0.5 ms kernel
    t = tr.bench(*fakes(0.5), host(2.0))
    if not 2.0 <= t < 4.0:
        bad.append(f"host-bound: {t:.3f} ms, not the host's 2 ms")
    # kernel-bound: the host's 0 ms hidden behind a 3 ms kernel
    t = tr.bench(*fakes(3.0), lambda: None)
    if t != 3.0:
        bad.append(f"kernel-bound: {t:.3f} ms, not the kernel's 3 ms")
    print("; ".join(bad) or "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
