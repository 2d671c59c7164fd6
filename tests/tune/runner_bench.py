"""runner_bench.py - bench/tune/triton_runner.py's bench() without a GPU:
torch and triton replaced by stand-ins whose kernel time is fixed and
whose call costs the host a known sleep.  The time must be the larger
of the two (the host's time counted, as a caller sees it).  graph_bench()
likewise, with a stand-in CUDA graph whose replay takes the kernel's
time per captured call: its time must be the kernel's alone, whatever
the host's.  Prints "ok" or the failure."""
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


def graph_fakes(kernel_ms):
    """A torch whose graph counts the calls captured and whose replay
    takes kernel_ms per captured call (events report it)."""
    state = {"capturing": False, "captured": 0, "replays": 0}

    class Graph:
        def replay(self):
            state["replays"] += 1

    class Capture:
        def __init__(self, g):
            pass

        def __enter__(self):
            state["capturing"] = True

        def __exit__(self, *exc):
            state["capturing"] = False

    class Event:
        def __init__(self, enable_timing):
            pass

        def record(self):
            self.at = state["replays"]

        def synchronize(self):
            pass

        def elapsed_time(self, end):
            return (end.at - self.at) * state["captured"] * kernel_ms

    class Nothing:
        def __enter__(self):
            pass

        def __exit__(self, *exc):
            pass

    stream = types.SimpleNamespace(wait_stream=lambda s: None)
    cuda = types.SimpleNamespace(
        synchronize=lambda: None, Stream=lambda: stream,
        current_stream=lambda: stream, stream=lambda s: Nothing(),
        CUDAGraph=Graph, graph=Capture, Event=Event)
    return types.SimpleNamespace(cuda=cuda), state


def host(ms):
    return lambda: time.sleep(ms / 1e3)


def main():
    bad = []
    # host-bound: 2 ms of host a call behind a 0.5 ms kernel; the bound
    # above is the host's own time of such a call, measured here (a
    # loaded machine oversleeps: 5-6 ms seen at a load of 9 on 2 cores)
    t = tr.bench(*fakes(0.5), host(2.0))
    t0 = time.perf_counter()
    for _ in range(20):
        host(2.0)()
    own = (time.perf_counter() - t0) * 1e3 / 20
    if not 2.0 <= t < 2 * max(own, 2.0):
        bad.append(f"host-bound: {t:.3f} ms, not the host's 2 ms "
                   f"({own:.3f} ms measured alone)")
    # kernel-bound: the host's 0 ms hidden behind a 3 ms kernel
    t = tr.bench(*fakes(3.0), lambda: None)
    if t != 3.0:
        bad.append(f"kernel-bound: {t:.3f} ms, not the kernel's 3 ms")
    # from a graph: the host's 2 ms a call is not there, the kernel's
    # 0.5 ms is, and the calls captured are the per-call time's share of
    # the budget (5 ms / 2 ms: the floor of 10)
    torch, state = graph_fakes(0.5)
    slow = host(2.0)
    run = lambda: (slow() if not state["capturing"] else None,
                   state.__setitem__("captured", state["captured"]
                                     + state["capturing"]))
    t = tr.graph_bench(torch, run, 2.0)
    if t != 0.5 or state["captured"] != 10:
        bad.append(f"graph: {t} ms over {state['captured']} calls, not the "
                   "kernel's 0.5 ms over 10")
    torch, state = graph_fakes(0.01)
    run = lambda: state.__setitem__("captured", state["captured"]
                                    + state["capturing"])
    t = tr.graph_bench(torch, run, 0.01)
    if abs(t - 0.01) > 1e-12 or state["captured"] != 200:
        bad.append(f"graph: {t} ms over {state['captured']} calls, not "
                   "0.01 ms over 200")
    print("; ".join(bad) or "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
