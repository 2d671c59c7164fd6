"""choice_check.py LEGO ROOT - the study's combined template (bench/tune/
choice.sh) without a GPU.  First its space: `lego tune --list` at nine
problems (FP16 with BK fixed and with BK tuned, FP8) against
brute_force, the raw cross product filtered one configuration at a time
by the rules of choice.lego and the specs restated here.  Then its
kernels, with triton and torch replaced by a small numpy stand-in that
runs the generated kernels program by program: for each layout and four
problems (tiles dividing the sizes: the pointer, generic and split-K
pointer kernels; not dividing: the masked and split-K masked kernels;
each at BK = 64 and, unsplit, at BK = 128), every configuration of the space
with KERNEL 1, 2, 4 or 5 (TMA needs a GPU) is generated and launched
twice through lego_launch; its C must equal numpy's product of the same
small integers exactly (FP16 holds them) both times (split-K's and
stream-K's counters reset themselves; stream-K's programs share tiles in
every way the small problems allow).  Every TMA configuration of the
spaces is generated too: its assertion that the tile strides step by the
tile must hold (`lego gen` folds it to 1 == 1).  Outputs and the split-K workspace start as NaN, so an
element left unwritten shows; an unmasked access out of its buffer, or
a negative one, raises.  Prints "ok" or the failures."""
import importlib.util
import itertools
import os
import subprocess
import sys
import tempfile
import types

import numpy as np


class T(np.ndarray):
    """A block value: numpy's array with Triton's .to(dtype)."""

    def to(self, dtype):
        return self.astype(dtype).view(T)


class Ptr:
    """A pointer (or block of pointers): a flat buffer and offsets."""

    def __init__(self, buf, off=0):
        self.buf, self.off = buf, off
        self.dtype = types.SimpleNamespace(element_ty=buf.dtype)
        self.device = "cpu"

    def __add__(self, off):
        return Ptr(self.buf, self.off + off)

    __radd__ = __add__


def where(ptr, mask):
    off = np.asarray(ptr.off)
    if mask is None:
        mask = np.ones(off.shape, dtype=bool)
    mask = np.broadcast_to(mask, off.shape)
    bad = mask & ((off < 0) | (off >= ptr.buf.size))
    if bad.any():
        raise IndexError(f"access out of the buffer at {off[bad][:4]}")
    return off, mask


def load(ptr, mask=None, other=None, cache_modifier=None):
    off, mask = where(ptr, mask)
    val = ptr.buf[np.where(mask, off, 0)]
    return np.where(mask, val, 0 if other is None else other).view(T)


def store(ptr, val, mask=None):
    off, mask = where(ptr, mask)
    val = np.broadcast_to(np.asarray(val), off.shape)
    ptr.buf[off[mask]] = val[mask]


def atomic(ptr, val, op):
    """A scalar atomic (the programs run one after another): the old
    value."""
    old = ptr.buf[ptr.off].copy()
    ptr.buf[ptr.off] = op(old, val)
    return old


class Grid:
    """kernel[grid](...): the body run once for each program id, in
    order; a helper's call runs it."""

    def __init__(self, fn, state):
        self.fn, self.state = fn, state

    def __call__(self, *args):
        return self.fn(*args)

    def __getitem__(self, grid):
        def launch(*args, num_stages=None, num_warps=None, **kw):
            for pid in itertools.product(*(range(g) for g in grid)):
                self.state["pid"] = pid
                self.fn(*args, **kw)
        return launch


def stand_ins():
    state = {}
    tl = types.ModuleType("triton.language")
    tl.constexpr = int
    tl.float32 = np.float32
    tl.program_id = lambda axis: state["pid"][axis]
    tl.arange = lambda lo, hi: np.arange(lo, hi, dtype=np.int64).view(T)
    tl.zeros = lambda shape, dtype: np.zeros(shape, dtype=dtype).view(T)
    tl.dot = lambda a, b, acc: (acc + a.astype(np.float32) @
                                b.astype(np.float32)).view(T)
    tl.cdiv = lambda a, b: -(-a // b)
    tl.maximum, tl.minimum = np.maximum, np.minimum
    tl.static_range = range
    tl.load, tl.store = load, store
    tl.debug_barrier = lambda: None
    tl.atomic_add = lambda ptr, val: atomic(ptr, val, lambda o, v: o + v)
    tl.atomic_xchg = lambda ptr, val: atomic(ptr, val, lambda o, v: v)
    triton = types.ModuleType("triton")
    triton.language = tl
    triton.cdiv = tl.cdiv
    triton.jit = lambda fn: Grid(fn, state)
    tools = types.ModuleType("triton.tools")
    desc = types.ModuleType("triton.tools.tensor_descriptor")
    desc.TensorDescriptor = None
    torch = types.ModuleType("torch")
    torch.float32, torch.int32 = np.float32, np.int32
    torch.empty = lambda n, device, dtype: Ptr(np.full(n, np.nan, dtype))
    torch.zeros = lambda n, device, dtype: Ptr(np.zeros(n, dtype))
    sys.modules.update({"triton": triton, "triton.language": tl,
                        "triton.tools": tools,
                        "triton.tools.tensor_descriptor": desc,
                        "torch": torch})


def run(path, v, M, N, K, cfg):
    spec = importlib.util.spec_from_file_location("k" + str(id(cfg)), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(M * N + K)
    a = rng.integers(-1, 2, (M, K)).astype(np.float16)
    b = rng.integers(-1, 2, (K, N)).astype(np.float16)
    a_mem = a if v in ("ab", "abt") else a.T        # atb, atbt: A by columns
    b_mem = b if v in ("ab", "atb") else b.T        # abt, atbt: B by columns
    want = a.astype(np.float32) @ b.astype(np.float32)
    # twice: split-K's counters must be back at 0 for the second call
    for _ in range(2):
        c = np.full(M * N, np.nan, np.float16)
        mod.lego_launch(Ptr(a_mem.ravel().copy()), Ptr(b_mem.ravel().copy()),
                        Ptr(c), M, N, K, cfg["BM"], cfg["BN"], cfg["BK"],
                        cfg["GM"], cfg["STAGES"], cfg["WARPS"])
        if not np.array_equal(c.reshape(M, N).astype(np.float32), want):
            return False
    return True


def brute_force(M, N, K, BK, GM, esize):
    """The study's space (bench/tune/README.md) enumerated from the raw
    cross product: which kernel runs where, and where split-K may split,
    as choice.lego's comments say it, checked one configuration at a
    time.  BK None: tuned over the spec's K steps (FP16), each
    configuration naming its BK."""
    cd = lambda a, b: -(-a // b)
    out, fixed_bk = set(), BK is not None
    fp16 = esize == 2
    for BM, BN, bk, ST, W, KER, S, OCC in itertools.product(
            (32, 64, 128), (32, 64, 128, 256), (32, 64, 128) if BK is None
            else (BK,), (3, 4, 5) if fp16 else (3, 4), (4, 8), (1, 2, 3, 4, 5),
            (1, 2, 4, 8), (1, 2)):
        under_two_waves = cd(M, 64) * cd(N, 64) < 2 * 132
        if (BM < 64 or BN < 64) and not under_two_waves:
            continue                     # small tiles: under two waves only
        if fp16 and (bk > 64 or ST > 4) and not under_two_waves:
            continue                     # K step 128, 5 stages: likewise
        if (bk * esize != 128 or ST > 4) and (
                BM < 64 or BN < 64 or S > 1 or KER == 5):
            continue                     # and only unsplit, tiles of 64 up
        BK = bk
        stages = (BM * BK + BK * BN) * esize * ST
        if stages > 232448:
            continue
        whole = (M % BM, N % BN, K % BK) == (0, 0, 0)
        every_mask = ((M % BM or K % BK) and (K % BK or N % BN)
                      and (M % BM or N % BN))
        if KER in (1, 4) and not whole:
            continue                     # pointer kernels: no masks
        if KER == 2 and not every_mask:
            continue                     # a mask proved true
        if KER == 3 and (M % 8 or N % 8 or K % 8
                         or stages + BM * BN * 2 > 232448
                         or BN == N or BK == K):
            continue                     # TMA: alignment, C's tile staged,
                                         # more than one tile of N and K
        if KER == 5 and (not (whole or every_mask)
                         or cd(M, BM) * cd(N, BN) % 132 == 0
                         or cd(M, BM) * cd(N, BN) >= 16 * 132):
            continue                     # stream-K: a partial last wave
        if OCC > 1 and (KER != 5 or 2 * (stages + 1024) > 233472):
            continue                     # two stream-K blocks an SM
        if KER == 4 and cd(M, BM) % GM:
            continue                     # the tutorial's grouping
        tiles, ktiles = cd(M, BM) * cd(N, BN), cd(K, BK)
        if S > 1 and (KER > 2 or ktiles % S or ktiles // S < ST
                      or tiles >= 132 or tiles * S > 4 * 132):
            continue
        out.add(f"BM={BM} BN={BN} " + ("" if fixed_bk else f"BK={bk} ") +
                f"STAGES={ST} WARPS={W} KERNEL={KER} SPLIT_K={S} OCC={OCC}")
    return out


def space_check(lego, root, tmp):
    """`lego tune --list` of the study's spaces against brute_force."""
    failures = []
    # BK fixed as the study fixes it, and (FP16) tuned, as FREE_BK=1 runs
    for v, BK, esize in (("atb", 64, 2), ("abt_e4m3", 128, 1), ("atb", None, 2)):
        subprocess.run(["sh", os.path.join(root, "bench/tune/choice.sh"),
                        root, v, tmp], check=True)
        for M, N, K in ((1000, 1000, 1000), (1024, 1024, 1024),
                        (2048, 2048, 2048), (4097, 4097, 4097),
                        (8192, 128, 8192), (96, 200, 1000), (512, 768, 384),
                        (1024, 128, 1024), (1024, 1024, 128)):
            d = [f"-D{k}={x}" for k, x in
                 dict(M=M, N=N, K=K, BK=BK, GM=8).items() if x is not None]
            got = subprocess.run(
                [lego, "tune", os.path.join(tmp, f"matmul_choice_{v}.lego"),
                 "/dev/null", "--list"] + d, check=True, capture_output=True,
                text=True).stdout.splitlines()
            want = brute_force(M, N, K, BK, 8, esize)
            if len(got) != len(set(got)) or set(got) != want:
                failures.append(f"space {v} {M}x{N}x{K}: {len(got)} listed, "
                                f"{len(want)} by brute force; differ: "
                                f"{sorted(set(got) ^ want)[:3]}")
            if M in (1024, 8192):
                failures += tma_check(lego, tmp, v, d, got)
    return failures


def tma_check(lego, tmp, v, d, space):
    """Every TMA configuration of a space passes the template's assertion
    on the tile strides (a configuration left in that fails it is an
    error at every call on the GPU)."""
    failures = []
    for line in space:
        if "KERNEL=3" not in line:
            continue
        out = os.path.join(tmp, "tma.py")
        subprocess.run([lego, "gen", os.path.join(tmp, f"matmul_choice_{v}.lego"),
                        os.path.join(tmp, f"matmul_choice_{v}.py.tpl"), "-o",
                        out] + d + [f"-D{kv}" for kv in line.split()], check=True)
        with open(out) as f:
            asserts = [x.strip() for x in f if x.strip().startswith("assert")]
        if "assert 1 == 1" not in asserts:
            failures.append(f"TMA {v} {' '.join(d)} {line}: {asserts[:2]}")
    return failures


def main():
    lego, root = sys.argv[1], sys.argv[2]
    stand_ins()
    # tiles dividing the sizes (GM = 1: the generic kernel's grouping
    # needs GM | M / BM), then not (the masked kernels, grouped); at the
    # study's K step (12 K tiles: splits of 2 and 4 over 3 stages), then
    # at 128 (the unsplit kernels alone, choice.lego)
    problems = ((128, 192, 768, 1, 64), (100, 136, 720, 8, 64),
                (128, 192, 512, 1, 128), (100, 136, 360, 8, 128))
    failures, runs, seen = [], 0, set()
    with tempfile.TemporaryDirectory() as tmp:
        failures += space_check(lego, root, tmp)
        for v in ("ab", "abt", "atb", "atbt"):
            subprocess.run(["sh", os.path.join(root, "bench/tune/choice.sh"),
                            root, v, tmp], check=True)
            spec = os.path.join(tmp, f"matmul_choice_{v}.lego")
            tpl = os.path.join(tmp, f"matmul_choice_{v}.py.tpl")
            for M, N, K, GM, BK in problems:
                fixed = dict(BK=BK, GM=GM, STAGES=3, WARPS=4)
                d = [f"-D{k}={x}" for k, x in
                     dict(fixed, M=M, N=N, K=K).items()]
                space = subprocess.run([lego, "tune", spec, tpl, "--list"] + d,
                                       check=True, capture_output=True,
                                       text=True).stdout.split("\n")
                for line in filter(None, space):
                    cfg = dict(fixed, **{k: int(x) for k, x in
                                         (kv.split("=") for kv in line.split())})
                    if cfg["KERNEL"] == 3:
                        continue
                    seen.add((cfg["KERNEL"], cfg["SPLIT_K"], cfg["OCC"]))
                    out = os.path.join(tmp, "k.py")
                    subprocess.run([lego, "gen", spec, tpl, "-o", out] + d +
                                   [f"-D{kv}" for kv in line.split()],
                                   check=True)
                    runs += 1
                    try:
                        if not run(out, v, M, N, K, cfg):
                            failures.append(f"{v} {M}x{N}x{K} {line}: wrong C")
                    except Exception as e:
                        failures.append(f"{v} {M}x{N}x{K} {line}: {e!r}")
    # the space must reach every kernel and split it claims to
    want = {(k, s, 1) for k in (1, 2) for s in (1, 2, 4)} | \
        {(4, 1, 1), (5, 1, 1), (5, 1, 2)}
    if not want <= seen:
        failures.append(f"kernels and splits not reached: {sorted(want - seen)}")
    print("\n".join(failures) if failures else f"ok ({runs} kernels)")


if __name__ == "__main__":
    main()
