"""study_check.py LEGO ROOT - the NW and softmax studies' spaces without
a GPU (bench/tune/nw, bench/tune/softmax): `lego tune --list` of each
against the raw cross product filtered by the rules restated here, at
every size of their benchmarks and a few more; the committed choice in
every softmax space; and a softmax candidate of the tuned spec run in
Triton's interpreter against numpy (skipped when triton is missing).
Prints "ok (N spaces)" last, or what differs; exits 1 on any failure."""
import itertools
import os
import subprocess
import sys
import tempfile

import numpy as np


def listed(lego, files, defs):
    args = [lego, "tune", *files, "--list"]
    for k, v in defs.items():
        args += ["-D", f"{k}={v}"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return {tuple(sorted(line.split())) for line in out.splitlines()}


def brute(values, keep):
    names = list(values)
    return {tuple(sorted(f"{k}={v}" for k, v in zip(names, c)))
            for c in itertools.product(*values.values())
            if keep(dict(zip(names, c)))}


def nw_rule(n):
    """nw.cu.tpl: B | N, and the static shared memory (48 KiB)."""
    return lambda c: n % c["B"] == 0 and \
        ((c["B"] + 1) * (c["B"] + 2) + c["B"] ** 2) * 4 <= 49152


def softmax_rule(n):
    """tune.lego: 4 to 64 floats of a row a thread."""
    return lambda c: n <= 64 * 32 * c["WARPS"] and 4 * 32 * c["WARPS"] <= n


def spaces(lego, root, tmp, fails):
    nw = os.path.join(root, "bench/tune/nw/nw.cu.tpl")
    count = 0
    for n in (8192, 16384, 32768, 192, 208, 100):
        got = listed(lego, [nw], {"N": n})
        want = brute({"B": (16, 32, 64, 128), "S": (0, 1, 2, 3)}, nw_rule(n))
        count += 1
        if got != want:
            fails.append(f"nw N={n}: {len(got)} listed, {len(want)} by brute force")
    spec = os.path.join(tmp, "softmax.lego")
    with open(spec, "w") as f:
        for p in ("examples/triton/softmax.lego", "bench/tune/softmax/tune.lego"):
            f.write(open(os.path.join(root, p)).read())
    sys.path.insert(0, os.path.join(root, "bench/tune/softmax"))
    import runner
    for n in (512, 1024, 2048, 4096, 8192, 16384, 128, 65536):
        got = listed(lego, [spec, "/dev/null"], {"N": n, "S": n})
        want = brute({"WARPS": (1, 2, 4, 8, 16, 32), "STAGES": (1, 2, 3),
                      "OCC": (1, 2, 4, 8, 16)}, softmax_rule(n))
        count += 1
        if got != want:
            fails.append(f"softmax N={n}: {len(got)} listed, {len(want)} by brute force")
        if n in (512, 1024, 2048, 4096, 8192, 16384):   # SOFTMAX_N
            c = tuple(sorted(runner.committed(n).replace("-D ", "").split()))
            if c not in got:
                fails.append(f"softmax N={n}: the committed {c} is not in the space")
    return spec, count


def interpreted(lego, root, spec, tmp, fails):
    """A candidate (N = 128, rows of stride 160) in the interpreter."""
    try:
        sys.path.insert(0, os.path.join(root, "tests/gen"))
        import interp
    except ImportError:
        return "interpreter skipped (no triton)"
    out = os.path.join(tmp, "cand.py")
    subprocess.run([lego, "gen", spec, os.path.join(root, "examples/triton/softmax.py.tpl"),
                    "-D", "N=128", "-D", "S=160", "-D", "WARPS=1", "-D", "STAGES=3",
                    "-D", "OCC=16", "-o", out], check=True)
    mod = interp.load(out)
    m, n, s = 10, 128, 160
    x = np.random.default_rng(1).standard_normal((m, s)).astype(np.float32)
    X, Y = interp.Buffer(x), interp.Buffer(np.full((m, s), 7.0, np.float32))
    mod.softmax_kernel[(4,)](Y, X, m, s, N=n, NUM_STAGES=3)
    e = np.exp(x[:, :n] - x[:, :n].max(axis=1, keepdims=True))
    err = np.abs(Y.array[:, :n] - e / e.sum(axis=1, keepdims=True)).max()
    if not (err < 1e-6 and np.all(Y.array[:, n:] == 7.0)):
        fails.append(f"softmax candidate in the interpreter: max error {err}")
    return "interpreter ran a candidate"


def main():
    lego, root = sys.argv[1], sys.argv[2]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        spec, count = spaces(lego, root, tmp, fails)
        print(interpreted(lego, root, spec, tmp, fails))
    for f in fails:
        print("FAIL", f)
    if fails:
        sys.exit(1)
    print(f"ok ({count} spaces)")


if __name__ == "__main__":
    main()
