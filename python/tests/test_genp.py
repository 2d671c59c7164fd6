"""GenPs: the built-ins against independent Python definitions, and GenPs
from Python callables (checked bijective), exhaustively."""
import itertools

import pytest

from lego import (GenP, LegoError, OrderBy, Row, antidiag, morton, select,
                  swizzle, symbols)


def antidiag_ref(n):
    """The anti-diagonal order of an n x n square, by walking it."""
    order = [(i, a - i) for a in range(2 * n - 1) for i in range(n)
             if 0 <= a - i < n]
    return {ij: k for k, ij in enumerate(order)}


@pytest.mark.parametrize("n", [1, 3, 5])
def test_antidiag(n):
    L = OrderBy(GenP([n, n], antidiag))
    ref = antidiag_ref(n)
    t = L.table()
    e = L["i", "j"]
    for (i, j), k in ref.items():
        assert t[i, j] == k
        assert e(i=i, j=j) == k


def test_antidiag_symbolic_size():
    n = symbols("n")
    L = OrderBy(GenP([n, n], antidiag))
    e = L["i", "j"]
    p, q = L.inv("x")
    for size in (2, 4):
        for (i, j), k in antidiag_ref(size).items():
            assert e(i=i, j=j, n=size) == k
            assert (p(x=k, n=size), q(x=k, n=size)) == (i, j)


def test_morton():
    L = OrderBy(GenP([4, 8], morton))
    t = L.table()
    for i, j in itertools.product(range(4), range(8)):
        # Z-order: bits of j and i interleaved, j's in the even places
        # while both have bits, j's extra bits on top.
        z = 0
        for b in range(2):
            z |= ((j >> b) & 1) << (2 * b) | ((i >> b) & 1) << (2 * b + 1)
        z |= (j >> 2) << 4
        assert t[i, j] == z


def test_swizzle_is_cutes_formula():
    L = OrderBy(GenP([8, 8], swizzle(3, 0, 3)))
    t = L.table()
    for i, j in itertools.product(range(8), range(8)):
        o = 8 * i + j
        assert t[i, j] == o ^ ((o >> 3) & 7)


def test_genp_from_callables():
    n = 4
    xor = GenP([n, n], lambda i, j: i * n + (j ^ i),
               lambda x: (x // n, (x % n) ^ (x // n)))
    # Tiles of 4 x 4, each XOR-swizzled; (tile row, tile col, row, col).
    L = OrderBy(Row(2, 2), xor).TileBy([2, 2], [n, n])
    assert L.check()
    t = L.table()
    for bi, bj, i, j in itertools.product(range(2), range(2), range(n), range(n)):
        want = (bi * 2 + bj) * 16 + i * n + (j ^ i)
        assert t[bi, bj, i, j] == want


def test_genp_callables_with_symbolic_size_and_select():
    n = symbols("n")
    # Rows read right to left on odd rows: a boustrophedon.
    snake = GenP([n, n], lambda i, j: i * n + select(i % 2 > 0, n - 1 - j, j),
                 lambda x: (x // n, select((x // n) % 2 > 0, n - 1 - x % n, x % n)))
    L = OrderBy(snake)
    assert L.check(n=5)
    t = L.table(n=3)
    assert t.tolist() == [[0, 1, 2], [5, 4, 3], [6, 7, 8]]


def test_genp_not_bijective_is_refused():
    with pytest.raises(LegoError, match="bijecti"):
        GenP([2, 2], lambda i, j: i, lambda x: (x, 0))
    n = symbols("n")
    L = OrderBy(GenP([n, n], lambda i, j: i * n + j, lambda x: (x % n, x // n)))
    with pytest.raises(LegoError):
        L.check(n=3)


def test_genp_callable_cannot_branch_in_python():
    with pytest.raises(TypeError, match="select"):
        GenP([2, 2], lambda i, j: i if i > 0 else j, lambda x: (x, x))
