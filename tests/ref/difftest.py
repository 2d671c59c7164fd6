#!/usr/bin/env python3
"""difftest.py - differential test of the `lego` CLI against legoref.py.

Generates random layouts (seeded, reproducible), writes each as a .lego
file, runs `lego table/check/apply/inv` on it and compares every answer with
the independent reference.  Expected values come only from legoref.py.

    python3 difftest.py --build build --seed 1 --count 2000
    python3 difftest.py --build build --seed 1 --only 137 -v   # one case

The last line is `ref: N passed, N failed` (N = layouts checked).
"""
import argparse
import concurrent.futures
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import legoref as R  # noqa: E402

ERR_RE = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error: ", re.M)
ASSIGN_RE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*?);?\s*$")
PY_GLOBALS = {"math": math, "isqrt": math.isqrt, "min": min, "max": max,
              "__builtins__": {}}


class Failure(Exception):
    pass


# ------------------------------------------------------------ random shapes

def divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def split(rng, size, k):
    """k factors whose product is size."""
    out = []
    for _ in range(k - 1):
        ds = divisors(size)
        proper = ds[1:-1]
        # Mostly proper factors: dims of 1 are legal but test little.
        x = rng.choice(proper if proper and rng.random() < 0.8 else ds)
        out.append(x)
        size //= x
    out.append(size)
    rng.shuffle(out)
    return out


def rand_size(rng, cap):
    while True:
        s = R.prod(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))
        if s <= cap:
            return s


def rand_perm(rng, d):
    p = list(range(1, d + 1))
    rng.shuffle(p)
    return p


def log2(n):
    return n.bit_length() - 1


def pow2_part(n):
    return (n & -n).bit_length() - 1


# -------------------------------------------------------------- user genps
# Each returns (declaration text, GenP reference).  The Python functions are
# written here independently of the declaration text.

def g_rot(dims):
    a, b = dims
    decl = ("genp rot[a, b](i, j) = i*b + (j + i) % b "
            "inverse (x) = (x / b, (x % b - x / b) % b)")
    return decl, R.GenP(dims, lambda ij: ij[0] * b + (ij[1] + ij[0]) % b,
                        lambda x: (x // b, (x % b - x // b) % b), "rot")


def g_colmajor(dims):
    a, b = dims
    decl = "genp cm[a, b](i, j) = j*a + i inverse (x) = (x % a, x / a)"
    return decl, R.GenP(dims, lambda ij: ij[1] * a + ij[0],
                        lambda x: (x % a, x // a), "cm")


def g_xor(dims):
    a, b = dims
    decl = ("genp xr[a, b](i, j) = i*b + (j ^ (i % b)) "
            "inverse (x) = (x / b, (x % b) ^ ((x / b) % b))")
    return decl, R.GenP(dims, lambda ij: ij[0] * b + (ij[1] ^ (ij[0] % b)),
                        lambda x: (x // b, (x % b) ^ ((x // b) % b)), "xr")


def bitrev(k, v):
    return sum(((v >> t) & 1) << (k - 1 - t) for t in range(k))


def rev_text(k, e):
    return " | ".join("((((%s) >> %d) & 1) << %d)" % (e, t, k - 1 - t)
                      for t in range(k))


def g_brev(dims):
    k = log2(R.prod(dims))
    if len(dims) == 1:
        name = "brev%d_1" % k
        decl = "genp %s[a](i) = %s inverse (x) = (%s)" % (
            name, rev_text(k, "i"), rev_text(k, "x"))
        return decl, R.GenP(dims, lambda i: bitrev(k, i[0]),
                            lambda x: (bitrev(k, x),), name)
    b = dims[1]
    name = "brev%d_2" % k
    rx = "(%s)" % rev_text(k, "x")
    decl = "genp %s[a, b](i, j) = %s inverse (x) = (%s / b, %s %% b)" % (
        name, rev_text(k, "i*b + j"), rx, rx)
    return decl, R.GenP(dims, lambda ij: bitrev(k, ij[0] * b + ij[1]),
                        lambda x: (bitrev(k, x) // b, bitrev(k, x) % b), name)


def g_mul(dims, rng):
    n = dims[0]
    p = rng.choice([p for p in range(2, 2 * n + 2) if math.gcd(p, n) == 1])
    q = pow(p, -1, n) if n > 1 else 0
    name = "mul%d_%d" % (p, n)
    decl = "genp %s[a](i) = (i * %d) %% a inverse (x) = ((x * %d) %% a)" % (
        name, p, q)
    return decl, R.GenP(dims, lambda i: (i[0] * p) % n,
                        lambda x: ((x * q) % n,), name)


def g_cyc(dims):
    a, b, c = dims
    decl = ("genp cyc[a, b, c](i, j, k) = (i*b + j)*c + (k + i + j) % c "
            "inverse (x) = (x / (b*c), (x / c) % b, "
            "(x % c - x / (b*c) - (x / c) % b) % c)")

    def f(ijk):
        i, j, k = ijk
        return (i * b + j) * c + (k + i + j) % c

    def finv(x):
        i, j = x // (b * c), (x // c) % b
        return (i, j, (x % c - i - j) % c)
    return decl, R.GenP(dims, f, finv, "cyc")


# ------------------------------------------------------------------ pieces

class Gen:
    """Random layouts for one case; collects the genp declarations."""

    def __init__(self, rng):
        self.rng = rng
        self.decls = []

    def declare(self, pair):
        decl, piece = pair
        if decl not in self.decls:
            self.decls.append(decl)
        return piece

    def piece(self, dims):
        """A random RegP or GenP over dims."""
        rng, d, size = self.rng, len(dims), R.prod(dims)
        opts = ["regp", "regp", "row", "col"]
        if d == 2 and dims[0] == dims[1]:
            opts += ["antidiag"] * 3
        if d == 2 and R.is_pow2(dims[0]) and R.is_pow2(dims[1]):
            opts += ["morton"] * 2
        if pow2_part(size) >= 1:
            opts += ["swizzle"]
        if d == 2:
            opts += ["rot", "cm"]
            if R.is_pow2(dims[1]):
                opts += ["xr"]
        if d <= 2 and R.is_pow2(size) and size >= 2:
            opts += ["brev"]
        if d == 1 and size >= 2:
            opts += ["mul"]
        if d == 3:
            opts += ["cyc"]
        kind = rng.choice(opts)
        if kind == "regp":
            return R.RegP(dims, rand_perm(rng, d))
        if kind == "row":
            return R.Row(*dims)
        if kind == "col":
            return R.Col(*dims)
        if kind == "antidiag":
            return R.Antidiag(dims[0])
        if kind == "morton":
            return R.Morton(*dims)
        if kind == "swizzle":
            v = pow2_part(size)
            b = rng.randint(1, min(3, v))
            m = rng.randint(0, v - b)
            s = rng.randint(b, b + 3)
            return R.Swizzle(b, m, s, dims)
        if kind == "mul":
            return self.declare(g_mul(dims, rng))
        return self.declare({"rot": g_rot, "cm": g_colmajor, "xr": g_xor,
                             "brev": g_brev, "cyc": g_cyc}[kind](dims))

    def level_dims(self, size):
        """dims of 1..3 entries for one level of that size."""
        rng = self.rng
        r = math.isqrt(size)
        if r * r == size and rng.random() < 0.3:
            return [r, r]
        return split(rng, size, rng.randint(1, 3))

    def free_level(self):
        """A level whose shape is chosen for a given kind of piece."""
        rng = self.rng
        pick = rng.random()
        if pick < 0.15:
            return self.piece([rng.randint(1, 9)] * 2)
        if pick < 0.25:
            return self.piece([1 << rng.randint(0, 3), 1 << rng.randint(0, 4)])
        d = rng.randint(1, 3)
        return self.piece([rng.randint(1, 6) for _ in range(d)])

    def orderby_of_size(self, size):
        q = self.rng.randint(1, 3)
        return R.OrderBy([self.piece(self.level_dims(s))
                          for s in split(self.rng, size, q)])

    def maybe_bare(self, chain):
        """A single-level first OrderBy may be written as a bare piece."""
        if len(chain[0].levels) == 1 and self.rng.random() < 0.5:
            chain[0] = BareOrderBy(chain[0].levels)
        return chain


class BareOrderBy(R.OrderBy):
    def text(self, name="OrderBy"):
        return self.levels[0].text()


def gen_concrete(g):
    """A random valid layout of one family; returns (family, layout)."""
    rng = g.rng
    fam = rng.choice(["piece", "orderby", "orderby", "chain", "groupby",
                      "groupby", "tileby", "tileby", "tileby",
                      "tileorderby", "big"])
    if fam == "big":
        # Larger built-in GenPs: isqrt exactness, many morton bits.
        pick = rng.random()
        if pick < 0.5:
            return fam, R.Antidiag(rng.randint(10, 70))
        if pick < 0.8:
            return fam, R.Morton(1 << rng.randint(0, 6), 1 << rng.randint(0, 6))
        return fam, R.Swizzle(3, rng.randint(0, 2), rng.randint(3, 5),
                              [1 << rng.randint(3, 5), 1 << rng.randint(5, 7)])
    if fam == "piece":
        return fam, g.free_level()
    if fam == "orderby":
        levels = []
        while not levels or (R.prod(R.prod(p.dims()) for p in levels) < 2000
                             and len(levels) < rng.randint(1, 3)):
            levels.append(g.free_level())
        return fam, R.OrderBy(levels)
    size = rand_size(rng, 1500)
    if fam in ("chain", "groupby"):
        chain = g.maybe_bare([g.orderby_of_size(size)
                              for _ in range(rng.randint(1, 3))])
        if fam == "chain":
            return fam, R.Chain(chain)
        groups = [split(rng, s, rng.randint(1, 3))
                  for s in split(rng, size, rng.randint(1, 3))]
        return fam, R.GroupBy(groups, chain)
    if fam == "tileby":
        return fam, gen_tileby(g)
    d, q = rng.randint(1, 3), rng.randint(1, 3)
    while True:
        levels = [[rng.randint(1, 4) for _ in range(d)] for _ in range(q)]
        if R.prod(R.prod(t) for t in levels) <= 3000:
            break
    return fam, R.TileOrderBy([g.piece(t) for t in levels])


def gen_tileby(g):
    rng = g.rng
    d, q = rng.randint(1, 3), rng.randint(1, 3)
    while True:
        tiles = [[rng.randint(1, 4) for _ in range(d)] for _ in range(q)]
        if R.prod(R.prod(t) for t in tiles) <= 3000:
            break
    untiled = [R.prod(t[k] for t in tiles) for k in range(d)]
    if d > 1 and rng.random() < 0.35:
        # A reshape: the chain's dims multiply to the same total but differ
        # per dim.  Padding comes only from cdiv, so this is the bijective
        # GroupBy of SEMANTICS.md even where an outer size happens to be
        # the ceiling of the chain's dim by the inner ones.
        untiled = split(rng, R.prod(untiled), d)
    chain = []
    for _ in range(rng.randint(1, 3)):
        qo = rng.randint(1, 3)
        parts = [split(rng, n, qo) for n in untiled]
        chain.append(R.OrderBy([g.piece([parts[k][h] for k in range(d)])
                                for h in range(qo)]))
    return R.TileBy(g.maybe_bare(chain), tiles)


# ------------------------------------------------------- symbolic templates
# A template is f(D, rng_choices) where D(spec) gives the dim: the spec
# itself (lego text) or its value under an env.  `vals(rng)` picks values
# that respect the divisibility the layout implies.

def sym_value(spec, env):
    return eval(spec.replace("/", "//"), {"__builtins__": {}}, env)


def sym_cases(rng):
    """(symbol list, assume text, build(D), vals(rng)) for one case."""
    kind = rng.choice(["regp", "orderby", "chain", "tile", "tile", "tile",
                       "tile2", "pid"])
    if kind == "regp":
        d = rng.randint(1, 3)
        syms = ["A%d" % k for k in range(d)]
        perm = rand_perm(rng, d)
        how = rng.choice(["row", "col", "regp"])

        def build(D):
            dims = [D(s) for s in syms]
            if how == "row":
                return R.Row(*dims)
            if how == "col":
                return R.Col(*dims)
            return R.RegP(dims, perm)
        return syms, "", build, lambda r: {s: r.randint(1, 7) for s in syms}
    if kind == "orderby":
        shape = [rng.randint(1, 2) for _ in range(rng.randint(1, 3))]
        syms = ["A%d" % k for k in range(sum(shape))]
        hows = [rng.choice(["row", "col", "regp"]) for _ in shape]
        perms = [rand_perm(rng, d) for d in shape]

        def build(D):
            levels, at = [], 0
            for d, how, perm in zip(shape, hows, perms):
                dims = [D(s) for s in syms[at:at + d]]
                at += d
                levels.append(R.Row(*dims) if how == "row" else
                              R.Col(*dims) if how == "col" else
                              R.RegP(dims, perm))
            return R.OrderBy(levels)
        return syms, "", build, lambda r: {s: r.randint(1, 5) for s in syms}
    if kind == "chain":
        syms = ["A", "B", "C"]
        p1, p2 = rand_perm(rng, 3), rand_perm(rng, 3)

        def build(D):
            a, b, c = D("A"), D("B"), D("C")
            return R.Chain([R.OrderBy([R.RegP([a, b, c], p1)]),
                            R.OrderBy([R.RegP([c, a, b], p2)])])
        return syms, "", build, lambda r: {s: r.randint(1, 6) for s in syms}
    if kind == "pid":
        syms = ["npm", "npn", "GM"]

        def build(D):
            npm, npn, gm = D("npm"), D("npn"), D("GM")
            return R.TileBy([R.OrderBy([
                R.Col(D("max(npm/GM, 1)") if isinstance(npm, str)
                      else max(npm // gm, 1), 1),
                R.Col(D("min(npm, GM)") if isinstance(npm, str)
                      else min(npm, gm), npn)])], [[npm, npn]])

        def vals(r):
            gm = r.randint(1, 5)
            return {"GM": gm, "npm": gm * r.randint(1, 5),
                    "npn": r.randint(1, 7)}
        return syms, "assume npm % GM == 0", build, vals
    # Tiled: untiled N_k, level sizes P^h_k / P^(h+1)_k, innermost P^q_k.
    d, q = rng.randint(1, 3), rng.randint(2 if kind == "tile2" else 1, 3)
    names = [["P%d%d" % (h, k) for k in range(d)] for h in range(q)]
    syms = [s for row in names for s in row]
    how = rng.choice(["row", "col", "regp"])
    perm = rand_perm(rng, d)
    assume = ""
    if kind == "tile2":
        # Row(P0/P1) before the TileBy needs the fact: sizes are proved
        # positive where they are written.
        assume = "assume " + " && ".join(
            "%s %% %s == 0" % (names[0][k], names[1][k]) for k in range(d))

    def tile(D, h, k):
        if h == q - 1:
            return D(names[h][k])
        return D("%s/%s" % (names[h][k], names[h + 1][k]))

    def build(D):
        untiled = [D(names[0][k]) for k in range(d)]
        if kind == "tile2":
            # Two-level OrderBy splitting each coordinate at P^1.
            inner = [D(names[1][k]) for k in range(d)]
            outer = [D("%s/%s" % (names[0][k], names[1][k]))
                     for k in range(d)]
            o = R.OrderBy([R.Row(*outer), R.RegP(inner, perm)])
        else:
            o = (R.Row(*untiled) if how == "row" else R.Col(*untiled)
                 if how == "col" else R.RegP(untiled, perm))
        return R.TileBy([o], [[tile(D, h, k) for k in range(d)]
                              for h in range(q)])

    def vals(r):
        env = {}
        for k in range(d):
            v = r.randint(1, 4)
            for h in range(q - 1, -1, -1):
                env[names[h][k]] = v
                v *= r.randint(1, 3)
        return env
    return syms, assume, build, vals


# --------------------------------------------------------------- the cases

class Case:
    def __init__(self, num, kind, text, layout=None, env=None, sym=None,
                 expect_error=None):
        self.num = num
        self.kind = kind
        self.text = text
        self.layout = layout
        self.sym = sym
        self.expect_error = expect_error


def lego_file(decls, name, layout_text, extra=()):
    lines = ["# difftest case"] + list(extra) + list(decls)
    lines.append("layout %s = %s" % (name, layout_text))
    return "\n".join(lines) + "\n"


INVALID = [
    ("bad permutation", "RegP([2, 3], [1, 1])"),
    ("bad permutation", "RegP([2, 3], [1, 3])"),
    ("bad permutation", "RegP([2, 3, 4], [2, 1])"),
    ("bad permutation", "RegP([2, 3], [0, 1])"),
    ("chain sizes differ", "OrderBy(Row(2, 3)).OrderBy(Row(4, 2))"),
    ("group sizes differ", "OrderBy(Row(2, 3)).GroupBy([5])"),
    ("group sizes differ", "OrderBy(Row(2, 3), Col(2)).GroupBy([3], [3])"),
    ("tile sizes differ", "Row(4, 6).TileBy([2, 3], [2, 3])"),
    ("antidiag not square", "GenP([2, 3], antidiag)"),
    ("morton not powers of two", "GenP([3, 4], morton)"),
    ("unknown genp", "GenP([3, 3], nosuchgenp)"),
    ("unknown name", "Row(2, nosuchsize)"),
    ("syntax", "OrderBy(Row(2, 3)"),
    ("syntax", "Row(2, 3)).GroupBy([6])"),
    ("grouped pid, GM does not divide npm",
     "OrderBy(Col(max(5/2, 1), 1), Col(min(5, 2), 3)).TileBy([5, 3])"),
]

BAD_GENPS = [
    ("genp half[a, b](i, j) = (i*b + j) / 2 "
     "inverse (x) = (x*2 / b, x*2 % b)", "GenP([4, 4], half)"),
    ("genp shift[a, b](i, j) = i*b + j + 1 "
     "inverse (x) = ((x - 1) / b, (x - 1) % b)", "GenP([3, 5], shift)"),
    ("genp badinv[a, b](i, j) = i*b + j "
     "inverse (x) = (x % a, x / a)", "GenP([2, 5], badinv)"),
    ("genp sq[a](i) = (i * i) % a inverse (x) = (x)", "GenP([6], sq)"),
    ("genp xr[a, b](i, j) = i*b + (j ^ (i % b)) "
     "inverse (x) = (x / b, (x % b) ^ ((x / b) % b))", "GenP([3, 3], xr)"),
]


def make_case(seed, num, fixed):
    rng = random.Random(seed * 1000003 + num)
    if num < len(fixed):
        text, layout = fixed[num]
        return Case(num, "fixed", text, layout)
    pick = rng.random()
    if pick < 0.06:
        what, body = rng.choice(INVALID)
        if rng.random() < 0.5:
            d = rng.randint(1, 4)
            dims = [rng.randint(1, 5) for _ in range(d)]
            perm = [rng.randint(0, d + 1) for _ in range(d + rng.choice(
                [-1, 0, 0, 1]))]
            if R.is_perm(perm, d):
                perm.append(d + 1)
            what, body = "bad permutation", "RegP([%s], [%s])" % (
                R.join(dims), R.join(perm))
        return Case(num, "invalid", lego_file([], "L", body),
                    expect_error=what)
    if pick < 0.09:
        decl, body = rng.choice(BAD_GENPS)
        return Case(num, "badgenp", lego_file([decl], "L", body),
                    expect_error="not a bijection")
    if pick < 0.25:
        syms, assume, build, vals = sym_cases(rng)
        extra = ["sym " + ", ".join(syms)] + ([assume] if assume else [])
        text = lego_file([], "L", build(lambda s: s).text(), extra)
        envs = [vals(rng) for _ in range(4)]
        return Case(num, "symbolic", text, sym=(syms, build, envs))
    g = Gen(rng)
    fam, layout = gen_concrete(g)
    return Case(num, fam, lego_file(g.decls, "L", layout.text()), layout)


def fixed_cases():
    o1 = R.OrderBy([R.RegP([2, 2], [2, 1]), R.Antidiag(3)])
    o2 = R.OrderBy([R.RegP([2, 3, 2, 3], [1, 3, 2, 4])])
    out = [R.GroupBy([[6, 6]], [o1, o2]),
           R.TileBy([R.OrderBy([R.Row(4, 6)])], [[2, 3], [2, 2]]),
           R.TileBy([R.OrderBy([R.Col(4, 6)])], [[2, 3], [2, 2]])]
    # Sizes that multiply to the total but not per dim: reshapes (issue
    # 12), whose outer sizes are or are not ceilings of the chain's dims.
    for dims, tiles in [((4, 6), [[2, 2], [3, 2]]),
                        ((4, 6), [[3, 2], [2, 2]]),
                        ((6, 4), [[3, 1], [2, 4]]),
                        ((7, 5), [[5, 1], [1, 7]]),
                        ((2, 3, 4), [[1, 2, 2], [2, 1, 3]])]:
        out.append(R.TileBy([R.OrderBy([R.Row(*dims)])], tiles))
        out.append(R.TileBy([R.OrderBy([R.Col(*dims)])], tiles))
    for npm, npn, gm in [(8, 6, 4), (4, 5, 2), (6, 3, 3), (16, 16, 8),
                         (4, 5, 8), (3, 7, 5), (5, 2, 5), (1, 3, 2)]:
        out.append(R.grouped_pid_layout(npm, npn, gm))
    return [(lego_file([], "L", l.text()), l) for l in out]


# --------------------------------------------------------------- the runner

class Runner:
    def __init__(self, lego, tmp, samples, timeout=30):
        self.lego = lego
        self.tmp = tmp
        self.samples = samples
        self.timeout = timeout

    def cli(self, args, defs=None):
        cmd = [self.lego] + args
        for k, v in (defs or {}).items():
            cmd += ["-D", "%s=%d" % (k, v)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise Failure("timed out: %s" % " ".join(cmd))
        return cmd, p.returncode, p.stdout, p.stderr

    def ok(self, args, defs=None):
        cmd, rc, out, err = self.cli(args, defs)
        if rc != 0:
            raise Failure("exit %d: %s\n%s%s" % (rc, " ".join(cmd), out, err))
        return cmd, out

    def run(self, case):
        path = os.path.join(self.tmp, "case%05d.lego" % case.num)
        with open(path, "w") as f:
            f.write(case.text)
        try:
            if case.expect_error:
                self.check_error(case, path)
            elif case.sym:
                self.check_symbolic(case, path)
            else:
                self.check_concrete(case, path, case.layout, {})
            return None
        except Failure as e:
            return str(e)
        except Exception as e:  # a crash of the tester is a failure too
            return "tester exception: %r" % (e,)

    # -- errors
    def check_error(self, case, path):
        if case.kind == "badgenp":
            cmd, rc, out, err = self.cli(["check", path, "L"])
            if rc == 0:
                raise Failure("`%s` accepted a GenP that is not a "
                              "bijection:\n%s" % (" ".join(cmd), out))
            if not re.search(r"witness.*\d", out + err):
                raise Failure("`%s` names no witness:\n%s%s"
                              % (" ".join(cmd), out, err))
            return
        for args in (["table", path, "L"], ["check", path, "L"]):
            cmd, rc, out, err = self.cli(args)
            if rc == 0:
                raise Failure("`%s` accepted an invalid layout (%s):\n%s"
                              % (" ".join(cmd), case.expect_error, out))
            if not ERR_RE.search(out + err):
                raise Failure("`%s` (%s): no file:line:col: error: message:"
                              "\n%s%s" % (" ".join(cmd), case.expect_error,
                                          out, err))
            if "Sanitizer" in err or rc < 0 or rc > 125:
                raise Failure("`%s` crashed (rc %d):\n%s"
                              % (" ".join(cmd), rc, err))

    # -- concrete sizes
    def check_concrete(self, case, path, layout, defs, rng=None):
        dims = layout.dims()
        size = R.prod(dims)
        want = R.table(layout)
        cmd, out = self.ok(["table", path, "L"], defs)
        got = out.split()
        if got != [str(v) for v in want]:
            k = next((k for k in range(max(len(got), len(want)))
                      if k >= len(got) or k >= len(want)
                      or got[k] != str(want[k])), None)
            raise Failure("`%s`: first difference at logical %s (row-major "
                          "%d): got %s, want %s (%d vs %d entries)"
                          % (" ".join(cmd), idx_at(dims, k), k,
                             got[k] if k < len(got) else "nothing",
                             want[k] if k < len(want) else "nothing",
                             len(got), len(want)))
        self.ok(["check", path, "L"], defs)
        rng = rng or random.Random(case.num)
        names = ["ix%d" % k for k in range(len(dims))]
        # Symbolic index, concrete sizes.
        cmd, out = self.ok(["apply", path, "L"] + names +
                           ["--lang", "python"], defs)
        fn = compile_py(out, names, 1, cmd)
        for f in self.sample(rng, size):
            idx = R.unflatten(dims, f)
            got1 = call(fn, idx, cmd)
            if got1 != (want[f],):
                raise Failure("`%s` at %s: got %s, want %d\n%s" % (
                    " ".join(cmd), fmt_idx(names, idx), got1[0], want[f],
                    out))
        cmd, out = self.ok(["inv", path, "L", "fx", "--lang", "python"],
                           defs)
        fn = compile_py(out, ["fx"], len(dims), cmd)
        inv = [0] * size
        for f in range(size):
            inv[want[f]] = f
        for x in self.sample(rng, size):
            got_idx = call(fn, (x,), cmd)
            want_idx = R.unflatten(dims, inv[x])
            if got_idx != tuple(want_idx) or tuple(want_idx) != tuple(
                    layout.inv(x)):
                raise Failure("`%s` at fx = %d: got %s, want %s\n%s" % (
                    " ".join(cmd), x, got_idx, want_idx, out))
        # Concrete index.
        f = rng.randrange(size)
        idx = R.unflatten(dims, f)
        cmd, out = self.ok(["apply", path, "L"] + [str(i) for i in idx] +
                           ["--lang", "python"], defs)
        if out.split() != [str(want[f])]:
            raise Failure("`%s`: got %r, want %d" % (" ".join(cmd),
                                                     out.strip(), want[f]))
        x = rng.randrange(size)
        cmd, out = self.ok(["inv", path, "L", str(x)], defs)
        if out.split() != [str(i) for i in R.unflatten(dims, inv[x])]:
            raise Failure("`%s`: got %r, want %s" % (
                " ".join(cmd), out.strip(), R.unflatten(dims, inv[x])))

    def sample(self, rng, size):
        if size <= self.samples:
            return range(size)
        return sorted({0, size - 1} | set(rng.sample(range(size),
                                                     self.samples - 2)))

    # -- symbolic sizes
    def check_symbolic(self, case, path):
        syms, build, envs = case.sym
        rng = random.Random(case.num)
        text_layout = build(lambda s: s)
        rank = len(text_layout.dims())
        names = ["ix%d" % k for k in range(rank)]
        cmd, out = self.ok(["apply", path, "L"] + names + ["--lang",
                                                           "python"])
        fn_apply = compile_py(out, names + syms, 1, cmd)
        acmd, aout = cmd, out
        cmd, out = self.ok(["inv", path, "L", "fx", "--lang", "python"])
        fn_inv = compile_py(out, ["fx"] + syms, rank, cmd)
        icmd, iout = cmd, out
        for env in envs:
            layout = build(lambda s: sym_value(s, env))
            dims = layout.dims()
            size = R.prod(dims)
            vals = tuple(env[s] for s in syms)
            where = ", ".join("%s=%d" % kv for kv in env.items())
            for f in self.sample(rng, size):
                idx = R.unflatten(dims, f)
                want = layout.apply(idx)
                got = call(fn_apply, tuple(idx) + vals, acmd)
                if got != (want,):
                    raise Failure("`%s` with %s at %s: got %s, want %d\n%s"
                                  % (" ".join(acmd), where,
                                     fmt_idx(names, idx), got[0], want,
                                     aout))
                got = call(fn_inv, (want,) + vals, icmd)
                if got != tuple(idx):
                    raise Failure("`%s` with %s at fx = %d: got %s, want "
                                  "%s\n%s" % (" ".join(icmd), where, want,
                                              got, tuple(idx), iout))
        # The same layout with -D, numerically.
        self.check_concrete(case, path, build(lambda s: sym_value(s, envs[0])),
                            envs[0], rng)


def idx_at(dims, k):
    if k is None or k >= R.prod(dims):
        return "(past the end)"
    return str(R.unflatten(dims, k))


def fmt_idx(names, idx):
    return ", ".join("%s=%d" % p for p in zip(names, idx))


def compile_py(out, params, nresults, cmd):
    """The CLI's Python output as a function of params: statements
    `t = expr` followed by nresults expressions (or assignments)."""
    stmts, exprs = [], []
    for line in out.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = ASSIGN_RE.match(line)
        if m:
            stmts.append("    %s = %s" % (m.group(1), m.group(2)))
            exprs.append(None)
        else:
            exprs.append(line.strip())
    results = [e for e in exprs if e is not None]
    if len(results) != nresults:
        targets = [s.split("=", 1)[0].strip() for s in stmts]
        if len(results) == 0 and len(targets) >= nresults:
            results = targets[len(targets) - nresults:]
        else:
            raise Failure("`%s`: expected %d result(s), cannot read:\n%s"
                          % (" ".join(cmd), nresults, out))
    src = "def _f(%s):\n%s\n    return (%s,)\n" % (
        ", ".join(params), "\n".join(stmts), ", ".join(results))
    scope = {}
    try:
        exec(src, dict(PY_GLOBALS), scope)
    except SyntaxError as e:
        raise Failure("`%s`: not valid Python (%s):\n%s"
                      % (" ".join(cmd), e, out))
    return scope["_f"]


def call(fn, args, cmd):
    try:
        return fn(*args)
    except Exception as e:
        raise Failure("`%s`: evaluating the printed Python with %s raised "
                      "%r" % (" ".join(cmd), args, e))


def dry_run(cases):
    total = 0
    for case in cases:
        print("case %d (%s)\n%s" % (case.num, case.kind, case.text), end="")
        layout = case.layout
        if case.sym:
            env = case.sym[2][0]
            layout = case.sym[1](lambda s: sym_value(s, env))
            print("# at %s" % env)
        if layout is not None:
            t = R.table(layout)
            total += len(t)
            assert sorted(t) == list(range(len(t))), "not a bijection"
            assert all(layout.inv(layout.apply(i)) == tuple(i)
                       for i in R.indices(layout.dims()))
            print("# %d elements: %s" % (len(t), " ".join(map(str, t[:24]))))
    print("dry: %d cases, %d elements" % (len(cases), total))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--only", type=int, help="run only this case number")
    ap.add_argument("--samples", type=int, default=600,
                    help="indices evaluated per printed expression")
    ap.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--extra-failed", type=int, default=0,
                    help="failures to add (the selftest's, from run.sh)")
    ap.add_argument("--keep", action="store_true", help="keep the files")
    ap.add_argument("--dry", action="store_true",
                    help="print the cases and their reference tables only")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    lego = os.path.join(args.build, "lego")
    fixed = fixed_cases()
    nums = [args.only] if args.only is not None else range(args.count)
    cases = [make_case(args.seed, n, fixed) for n in nums]
    if args.dry:
        return dry_run(cases)
    if not os.access(lego, os.X_OK):
        print("difftest: %s is missing (make %s)" % (lego, lego))
        print("ref: 0 passed, %d failed" % (1 + args.extra_failed))
        return 1
    tmp = tempfile.mkdtemp(prefix="lego-difftest-")
    runner = Runner(os.path.abspath(lego), tmp, args.samples)
    failed, kinds = 0, {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for case, err in zip(cases, pool.map(runner.run, cases)):
            kinds[case.kind] = kinds.get(case.kind, 0) + 1
            if err is None:
                if args.verbose:
                    print("ok   case %d (%s)" % (case.num, case.kind))
                continue
            failed += 1
            if failed <= 20:
                print("FAIL case %d (%s), reproduce with: python3 %s "
                      "--build %s --seed %d --only %d\n--- .lego:\n%s--- "
                      "%s\n" % (case.num, case.kind, sys.argv[0],
                                args.build, args.seed, case.num,
                                case.text, err))
    if not args.keep:
        shutil.rmtree(tmp)
    else:
        print("files kept in %s" % tmp)
    print("difftest seed %d: %s" % (args.seed, ", ".join(
        "%d %s" % (v, k) for k, v in sorted(kinds.items()))))
    print("ref: %d passed, %d failed" % (len(cases) - failed,
                                         failed + args.extra_failed))
    return 1 if failed + args.extra_failed else 0


if __name__ == "__main__":
    sys.exit(main())
