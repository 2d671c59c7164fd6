#!/usr/bin/env python3
"""legoref.py - an independent reference implementation of SEMANTICS.md.

Plain Python 3, standard library only, written from the specification page
(shared/design/SEMANTICS.md), never from the C code.  Every piece has
dims(), apply(idx) -> flat, inv(flat) -> idx and text() (its spelling in the
.lego language of docs/language.md).  `python3 legoref.py --selftest` checks
it on the worked numbers of the page.
"""
import math
import sys


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def flatten(dims, idx):
    """B_n: row-major flatten."""
    f = 0
    for n, i in zip(dims, idx):
        f = f * n + i
    return f


def unflatten(dims, f):
    """B_n^-1: the first coordinate keeps the quotient (no modulo)."""
    out = [0] * len(dims)
    for k in range(len(dims) - 1, 0, -1):
        out[k] = f % dims[k]
        f //= dims[k]
    if dims:
        out[0] = f
    return tuple(out)


def is_perm(perm, d):
    return len(perm) == d and sorted(perm) == list(range(1, d + 1))


def perm_inverse(perm):
    """sigma^-1 as a 1-based list: inv[sigma[k]-1] = k+1."""
    inv = [0] * len(perm)
    for k, s in enumerate(perm):
        inv[s - 1] = k + 1
    return inv


def gather(xs, perm):
    """sigma(x) = (x[sigma1], ..., x[sigma_d])."""
    return [xs[s - 1] for s in perm]


def sigma_dq(d, q):
    """sigma_{d x q} = flatten(A), A[k][h] = k+1+d*h."""
    return [k + 1 + d * h for k in range(d) for h in range(q)]


def join(xs):
    return ", ".join(str(x) for x in xs)


class LegoError(Exception):
    pass


# ------------------------------------------------------------ permutations

class RegP:
    def __init__(self, dims, perm, sugar=None):
        if not is_perm(perm, len(dims)):
            raise LegoError("not a permutation: %r" % (perm,))
        self.n = list(dims)
        self.perm = list(perm)
        self.sugar = sugar  # "Row" / "Col": how text() spells it

    def dims(self):
        return self.n

    def apply(self, idx):
        return flatten(gather(self.n, self.perm), gather(idx, self.perm))

    def inv(self, f):
        y = unflatten(gather(self.n, self.perm), f)
        x = [0] * len(self.n)
        for k, s in enumerate(self.perm):
            x[s - 1] = y[k]
        return tuple(x)

    def text(self):
        if self.sugar:
            return "%s(%s)" % (self.sugar, join(self.n))
        return "RegP([%s], [%s])" % (join(self.n), join(self.perm))


def Row(*dims):
    return RegP(dims, list(range(1, len(dims) + 1)), "Row")


def Col(*dims):
    return RegP(dims, list(range(len(dims), 0, -1)), "Col")


class GenP:
    """GenP(n, f, f_inv); fname is how text() names the function."""

    def __init__(self, dims, f, finv, fname):
        self.n = list(dims)
        self.f = f
        self.finv = finv
        self.fname = fname

    def dims(self):
        return self.n

    def apply(self, idx):
        return self.f(tuple(idx))

    def inv(self, x):
        return tuple(self.finv(x))

    def text(self):
        return "GenP([%s], %s)" % (join(self.n), self.fname)


def antidiag_f(n, i, j):
    """Figure 8."""
    a = i + j + 1
    if a <= n:
        return i + a * (a - 1) // 2
    a = 2 * n - a
    return n * n - n + i - a * (a - 1) // 2


def antidiag_inv(n, x0):
    s = n * (n + 1) // 2
    x = x0 if x0 < s else n * n - 1 - x0
    a = math.isqrt(2 * x)
    a += 1 if x >= a * (a + 1) // 2 else 0
    i = x - a * (a - 1) // 2
    j = a - i - 1
    return (i, j) if x0 < s else (n - 1 - i, n - 1 - j)


def Antidiag(n):
    return GenP([n, n], lambda ij: antidiag_f(n, ij[0], ij[1]),
                lambda x: antidiag_inv(n, x), "antidiag")


def is_pow2(n):
    return n >= 1 and n & (n - 1) == 0


def morton_f(rows, cols, i, j):
    """Z-order: bit k of the column goes to bit 2k, bit k of the row to
    bit 2k+1, while both have bits; the rest of the longer one on top.
    (SEMANTICS.md does not fix the convention; this is the usual one.)"""
    rb, cb = rows.bit_length() - 1, cols.bit_length() - 1
    f, pos = 0, 0
    for k in range(max(rb, cb)):
        if k < cb:
            f |= ((j >> k) & 1) << pos
            pos += 1
        if k < rb:
            f |= ((i >> k) & 1) << pos
            pos += 1
    return f


def morton_inv(rows, cols, f):
    rb, cb = rows.bit_length() - 1, cols.bit_length() - 1
    i = j = pos = 0
    for k in range(max(rb, cb)):
        if k < cb:
            j |= ((f >> pos) & 1) << k
            pos += 1
        if k < rb:
            i |= ((f >> pos) & 1) << k
            pos += 1
    return (i, j)


def Morton(rows, cols):
    if not (is_pow2(rows) and is_pow2(cols)):
        raise LegoError("morton needs powers of two")
    return GenP([rows, cols], lambda ij: morton_f(rows, cols, *ij),
                lambda f: morton_inv(rows, cols, f), "morton")


def swizzle_o(b, m, s, o):
    return o ^ ((o >> s) & (((1 << b) - 1) << m))


def Swizzle(b, m, s, dims):
    """CuTe Swizzle<B,M,S> on the row-major flat offset.  With S >= B the
    bits read are never written, so it is its own inverse; it stays in
    range when 2^(M+B) divides the size."""
    dims = list(dims)
    return GenP(dims, lambda idx: swizzle_o(b, m, s, flatten(dims, idx)),
                lambda f: unflatten(dims, swizzle_o(b, m, s, f)),
                "swizzle(%d, %d, %d)" % (b, m, s))


# ----------------------------------------------------------------- OrderBy

class OrderBy:
    def __init__(self, levels):
        self.levels = list(levels)

    def dims(self):
        return [n for p in self.levels for n in p.dims()]

    def apply(self, idx):
        f, at = 0, 0
        for p in self.levels:
            d = len(p.dims())
            f = p.apply(idx[at:at + d]) + f * prod(p.dims())
            at += d
        return f

    def inv(self, f):
        parts = []
        for p in reversed(self.levels):
            size = prod(p.dims())
            parts.append(tuple(p.inv(f % size)))
            f //= size
        return tuple(x for part in reversed(parts) for x in part)

    def text(self, name="OrderBy"):
        return "%s(%s)" % (name, ", ".join(p.text() for p in self.levels))


class GroupBy:
    """GroupBy(groups, O1..Ov): chain outermost first, apply runs Ov first.
    form: how text() writes the view ("GroupBy", "TileBy" or "" for a bare
    chain that takes the dims of its last OrderBy)."""

    def __init__(self, groups, chain, form="GroupBy", tiles=None):
        self.groups = [list(g) for g in groups]
        self.chain = list(chain)
        self.form = form
        self.tiles = tiles
        if not all(isinstance(n, int) for n in self.dims()):
            return  # spelled with symbols: sizes checked by value later
        size = prod(self.dims())
        for o in self.chain:
            if prod(o.dims()) != size:
                raise LegoError("chain sizes differ: %d vs %d"
                                % (prod(o.dims()), size))

    def dims(self):
        return [n for g in self.groups for n in g]

    def apply(self, idx):
        f = flatten(self.dims(), idx)
        for o in reversed(self.chain):
            f = o.apply(unflatten(o.dims(), f))
        return f

    def inv(self, f):
        for o in self.chain:
            f = flatten(o.dims(), o.inv(f))
        return unflatten(self.dims(), f)

    def text(self):
        chain = ".".join(o.text() for o in self.user_chain())
        if self.form == "GroupBy":
            return "%s.GroupBy(%s)" % (chain, ", ".join(
                "[%s]" % join(g) for g in self.groups))
        if self.form == "TileBy":
            return "%s.TileBy(%s)" % (chain, ", ".join(
                "[%s]" % join(t) for t in self.tiles))
        return chain

    def user_chain(self):
        return self.chain if self.form != "TileBy" else self.chain[:-1:2]


def Chain(chain):
    """A chain without GroupBy: logical dims of its last OrderBy."""
    return GroupBy([chain[-1].dims()], chain, form="")


def regp_of_orderby(o):
    """The single-level OrderBy a bare permutation stands for."""
    return o if isinstance(o, OrderBy) else OrderBy([o])


def TileBy(chain, tiles):
    """chain.TileBy(n^1..n^q), built as the GroupBy of SEMANTICS.md."""
    chain = [regp_of_orderby(o) for o in chain]
    q, d = len(tiles), len(tiles[0])
    n = [x for t in tiles for x in t]
    full = []
    for o in chain:
        qo = len(o.levels)
        do = len(o.levels[0].dims())
        if any(len(p.dims()) != do for p in o.levels):
            raise LegoError("TileBy: levels of different dimensionality")
        so = sigma_dq(do, qo)
        full += [o, OrderBy([RegP(gather(o.dims(), so), perm_inverse(so))])]
    full.append(OrderBy([RegP(n, sigma_dq(d, q))]))
    return GroupBy([n], full, form="TileBy", tiles=[list(t) for t in tiles])


def TileOrderBy(levels):
    o = OrderBy(levels)
    d, q = len(levels[0].dims()), len(levels)
    s = sigma_dq(d, q)
    return TileOrderByLayout(
        [o, OrderBy([RegP(gather(o.dims(), s), perm_inverse(s))])], levels)


class TileOrderByLayout(GroupBy):
    def __init__(self, chain, levels):
        GroupBy.__init__(self, [chain[-1].dims()], chain, form="")
        self.levels = levels

    def text(self):
        return "TileOrderBy(%s)" % ", ".join(p.text() for p in self.levels)


# --------------------------------------------------------------- whole maps

def indices(dims):
    """Every index of the space, row-major."""
    size = prod(dims)
    return (unflatten(dims, f) for f in range(size))


def table(layout):
    return [layout.apply(i) for i in indices(layout.dims())]


def is_bijection(layout):
    size = prod(layout.dims())
    t = table(layout)
    return sorted(t) == list(range(size))


def triton_grouped(pid, npm, npn, gm):
    """The hand-written grouped ordering of the Triton matmul tutorial."""
    in_group = gm * npn
    group_id = pid // in_group
    first_m = group_id * gm
    size_m = min(npm - first_m, gm)
    pid_m = first_m + (pid % in_group) % size_m
    pid_n = (pid % in_group) // size_m
    return (pid_m, pid_n)


def grouped_pid_layout(npm, npn, gm):
    return TileBy([OrderBy([Col(max(npm // gm, 1), 1),
                            Col(min(npm, gm), npn)])], [[npm, npn]])


# ----------------------------------------------------------------- selftest

def selftest():
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append("%s: got %r, want %r" % (what, got, want))

    # Figure 8: antidiag of 3x3 (hand-enumerated order of anti-diagonals).
    ad = Antidiag(3)
    check("antidiag 3 table", table(ad), [0, 1, 3, 2, 4, 6, 5, 7, 8])
    for n in range(1, 60):
        a = Antidiag(n)
        t = table(a)
        check("antidiag %d bijective" % n, sorted(t), list(range(n * n)))
        check("antidiag %d inverse" % n,
              [a.inv(a.apply(i)) for i in indices([n, n])],
              list(indices([n, n])))
        # Elements come in the order of anti-diagonals, i ascending.
        order = sorted(indices([n, n]), key=lambda ij: (sum(ij), ij[0]))
        check("antidiag %d order" % n, [a.apply(ij) for ij in order],
              list(range(n * n)))
    # isqrt must be exact where floating sqrt is not.
    big = 3037000499
    check("antidiag big", antidiag_inv(big, antidiag_f(big, big - 5, 7)),
          (big - 5, 7))

    # Figure 9.
    o1 = OrderBy([RegP([2, 2], [2, 1]), Antidiag(3)])
    o2 = OrderBy([RegP([2, 3, 2, 3], [1, 3, 2, 4])])
    g = GroupBy([[6, 6]], [o1, o2])
    check("fig9 apply(4,2)", g.apply((4, 2)), 15)
    check("fig9 after O2", o2.apply(unflatten(o2.dims(), 4 * 6 + 2)), 23)
    check("fig9 inv(15)", g.inv(15), (4, 2))
    check("fig9 bijective", is_bijection(g), True)
    check("fig9 text", g.text(),
          "OrderBy(RegP([2, 2], [2, 1]), GenP([3, 3], antidiag))"
          ".OrderBy(RegP([2, 3, 2, 3], [1, 3, 2, 4])).GroupBy([6, 6])")

    # sigma examples.
    check("sigma 2x2", sigma_dq(2, 2), [1, 3, 2, 4])
    check("sigma 2x3", sigma_dq(2, 3), [1, 3, 5, 2, 4, 6])
    check("sigma 3x2", sigma_dq(3, 2), [1, 4, 2, 5, 3, 6])

    # Row / Col.
    check("Col(2,3)", table(Col(2, 3)), [0, 2, 4, 1, 3, 5])
    check("Row(2,3)", table(Row(2, 3)), [0, 1, 2, 3, 4, 5])
    check("RegP inv", RegP([2, 3, 4], [3, 1, 2]).inv(
        RegP([2, 3, 4], [3, 1, 2]).apply((1, 2, 3))), (1, 2, 3))

    # TileBy tables.
    t_row = TileBy([OrderBy([Row(4, 6)])], [[2, 3], [2, 2]])
    check("TileBy Row table", table(t_row),
          [0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, 12, 13, 18, 19, 14, 15,
           20, 21, 16, 17, 22, 23])
    t_col = TileBy([OrderBy([Col(4, 6)])], [[2, 3], [2, 2]])
    check("TileBy Col table", table(t_col),
          [0, 4, 1, 5, 8, 12, 9, 13, 16, 20, 17, 21, 2, 6, 3, 7, 10, 14,
           11, 15, 18, 22, 19, 23])
    check("TileBy text", t_row.text(),
          "OrderBy(Row(4, 6)).TileBy([2, 3], [2, 2])")
    # Row(M,K).TileBy([M/BM,K/BK],[BM,BK]): (tm*BM+r)*K + tk*BK + c.
    m, k, bm, bk = 12, 10, 3, 5
    tl = TileBy([Row(m, k)], [[m // bm, k // bk], [bm, bk]])
    check("TileBy formula", table(tl),
          [(tm * bm + r) * k + tk * bk + c
           for tm, tk, r, c in indices([m // bm, k // bk, bm, bk])])

    # Grouped program ids vs the Triton tutorial.
    # GM dividing npm, and GM >= npm (one partial group, sizes agree).
    for npm, npn, gm in [(8, 6, 4), (4, 5, 2), (6, 3, 3), (16, 16, 8),
                         (4, 5, 8), (3, 7, 5), (5, 2, 5)]:
        p = grouped_pid_layout(npm, npn, gm)
        check("grouped %d,%d,%d" % (npm, npn, gm),
              [p.inv(pid) for pid in range(npm * npn)],
              [triton_grouped(pid, npm, npn, gm)
               for pid in range(npm * npn)])
    # Not a bijection of 0..npm*npn-1 when GM does not divide npm
    # (SEMANTICS.md): here the sizes of the chain disagree.
    try:
        grouped_pid_layout(5, 3, 2)
        fails.append("grouped 5,3,2 accepted")
    except LegoError:
        pass

    # TileOrderBy: 2 levels of 2-d tiles visit tile-major order.
    tob = TileOrderBy([Row(2, 3), Row(2, 2)])
    check("TileOrderBy dims", tob.dims(), [2, 2, 3, 2])
    # logical (ti, ri, tj, rj) over [2,2,3,2] -> OrderBy index (ti,tj,ri,rj)
    check("TileOrderBy table", table(tob),
          [(ti * 3 + tj) * 4 + ri * 2 + rj
           for ti, ri, tj, rj in indices([2, 2, 3, 2])])

    # Morton 4x4 is the Z order; swizzle is an involution.
    check("morton 4x4", table(Morton(4, 4)),
          [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15])
    check("morton 2x4", table(Morton(2, 4)), [0, 1, 4, 5, 2, 3, 6, 7])
    for rows, cols in [(1, 8), (8, 2), (4, 16), (32, 4)]:
        mo = Morton(rows, cols)
        check("morton %dx%d bijective" % (rows, cols), is_bijection(mo),
              True)
        check("morton inverse", [mo.inv(mo.apply(i))
                                 for i in indices(mo.dims())],
              list(indices(mo.dims())))
    sw = Swizzle(3, 3, 3, [8, 64])
    check("swizzle 3,3,3 bijective", is_bijection(sw), True)
    check("swizzle value", sw.apply((1, 0)), 64 ^ 8)
    check("swizzle inverse", [sw.inv(sw.apply(i)) for i in indices([8, 64])],
          list(indices([8, 64])))

    # Errors.
    for bad in (lambda: RegP([2, 3], [1, 1]),
                lambda: GroupBy([[5]], [OrderBy([Row(2, 3)])])):
        try:
            bad()
            fails.append("accepted an invalid layout")
        except LegoError:
            pass

    for f in fails:
        print("FAIL " + f)
    print("legoref selftest: %d failed" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(selftest())
    print("usage: legoref.py --selftest", file=sys.stderr)
    sys.exit(2)
