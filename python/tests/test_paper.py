"""The paper's examples with the paper's values (SEMANTICS.md quotes them),
and the LEGO authors' layout specs with only the import changed."""
import itertools

import numpy as np
import pytest

import lego
from lego import (Col, GenP, Max, Min, OrderBy, RegP, Row, antidiag,
                  symbols)


def fig9():
    return (OrderBy(RegP([2, 2], [2, 1]), GenP([3, 3], antidiag))
            .OrderBy(RegP([2, 3, 2, 3], [1, 3, 2, 4])).GroupBy([6, 6]))


def test_fig9_apply_inv_and_bijection():
    G = fig9()
    assert G[4, 2] == 15
    assert [int(x) for x in G.inv(15)] == [4, 2]
    t = G.table()
    assert t.shape == (6, 6)
    assert sorted(t.ravel()) == list(range(36))
    assert G.check()
    # The symbolic expression agrees with the table at every point.
    e = G["i", "j"]
    for i, j in itertools.product(range(6), range(6)):
        assert e(i=i, j=j) == t[i, j]


def test_tileby_tables_of_the_paper():
    row = OrderBy(Row(4, 6)).TileBy([2, 3], [2, 2])
    col = OrderBy(Col(4, 6)).TileBy([2, 3], [2, 2])
    assert row.table().ravel().tolist() == [
        0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, 12, 13, 18, 19, 14, 15, 20,
        21, 16, 17, 22, 23]
    assert col.table().ravel().tolist() == [
        0, 4, 1, 5, 8, 12, 9, 13, 16, 20, 17, 21, 2, 6, 3, 7, 10, 14, 11,
        15, 18, 22, 19, 23]


def test_gemm_index_is_the_papers_formula():
    M, K, BM, BK = symbols("M K BM BK")
    A = OrderBy(Row(M, K)).TileBy([M // BM, K // BK], [BM, BK])
    e = A["tm", "tk", "r", "c"]
    # No division or modulo is left: the ranges removed them all.
    assert "//" not in str(e) and "%" not in str(e)
    s = dict(M=8, K=12, BM=2, BK=3)
    tm, tk, r, c = np.meshgrid(*(np.arange(n) for n in (4, 4, 2, 3)),
                               indexing="ij")
    want = (tm * s["BM"] + r) * s["K"] + tk * s["BK"] + c
    assert np.array_equal(e(tm=tm, tk=tk, r=r, c=c, **s), want)
    assert np.array_equal(A.table(**s), want)
    assert A.stride(3) == 1
    assert str(A.stride(2)) == "K"


def tutorial_pid(pid, npm, npn, gm):
    """The Triton tutorial's grouped ordering, written out."""
    group = gm * npn
    first = (pid // group) * gm
    size = min(npm - first, gm)
    return first + (pid % group) % size, (pid % group) // size


@pytest.mark.parametrize("npm,npn,gm", [(8, 6, 4), (4, 5, 2), (6, 3, 3)])
def test_grouped_program_ids_match_the_triton_tutorial(npm, npn, gm):
    m, n, g = symbols("npm npn GM")
    P = (OrderBy(Col(Max(m // g, 1), 1), Col(Min(m, g), n))
         .TileBy([m, n]).assume(lego.Eq(m % g, 0)))
    pm, pn = P.inv("pid")
    for pid in range(npm * npn):
        env = dict(pid=pid, npm=npm, npn=npn, GM=gm)
        assert (pm(**env), pn(**env)) == tutorial_pid(pid, npm, npn, gm)


def test_authors_bricks_spec_runs_unchanged():
    # Their generator script, with `from lego import symbols` in place of
    # SymPy's: OrderBy(Row(N//B, ..), Row(B, ..)).TileBy([N//B]*3, [B]*3).
    N, B = symbols("N B")
    L = OrderBy(Row(N // B, N // B, N // B), Row(B, B, B)).TileBy(
        [N // B] * 3, [B] * 3)
    e = L["bx", "by", "bz", "i", "j", "k"]
    n, b = 8, 2
    nb = n // b
    got = L.table(N=n, B=b)
    for bx, by, bz, i, j, k in itertools.product(range(nb), range(nb),
                                                 range(nb), range(b),
                                                 range(b), range(b)):
        want = ((bx * nb + by) * nb + bz) * b ** 3 + (i * b + j) * b + k
        assert got[bx, by, bz, i, j, k] == want
        assert e(bx=bx, by=by, bz=bz, i=i, j=j, k=k, N=n, B=b) == want


def test_package_docstring_examples():
    import doctest
    res = doctest.testmod(lego)
    assert res.attempted > 0 and res.failed == 0
