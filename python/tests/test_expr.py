"""Expressions: printing per language, exact evaluation (scalar and
vectorised, checked against the numeric table), arithmetic, strides."""
import itertools

import numpy as np
import pytest

import lego
from lego import LegoError, OrderBy, Row, Col, GenP, swizzle, symbols


def test_print_languages():
    M, K = symbols("M K")
    L = OrderBy(Col(M, K))
    e = L["i", "j"] // 3
    assert e.print("python") == str(e)
    assert "//" in e.print("python")
    assert "/" in e.print("c") and "//" not in e.print("c")
    assert e.print("cuda") == e.print("c")
    with pytest.raises(ValueError):
        e.print("fortran")


def test_triton_print_is_exact_for_negative_numerators():
    L = OrderBy(Row(4, 4))
    e = (L["i", "j"] - 9) // 4
    text = e.print("triton")
    # Evaluate the printed Triton text with numpy standing in for tl,
    # under C's truncating division like the GPU's.
    tl = type("tl", (), {"where": staticmethod(np.where),
                         "minimum": staticmethod(np.minimum),
                         "maximum": staticmethod(np.maximum)})
    for i, j in itertools.product(range(4), range(4)):
        py = eval(text.replace("//", "/"),
                  {"tl": tl, "i": _Trunc(i), "j": _Trunc(j)})
        assert int(py) == (4 * i + j - 9) // 4


class _Trunc(int):
    """An int whose / and % truncate toward zero, as Triton's on the GPU."""

    def _w(self, v):
        return _Trunc(v)

    def __add__(self, o): return _Trunc(int(self) + int(o))
    __radd__ = __add__
    def __sub__(self, o): return _Trunc(int(self) - int(o))
    def __rsub__(self, o): return _Trunc(int(o) - int(self))
    def __mul__(self, o): return _Trunc(int(self) * int(o))
    __rmul__ = __mul__
    def __neg__(self): return _Trunc(-int(self))
    def __truediv__(self, o):
        q = abs(int(self)) // abs(int(o))
        return _Trunc(q if (int(self) >= 0) == (int(o) > 0) else -q)
    def __rtruediv__(self, o): return _Trunc(o).__truediv__(self)
    def __mod__(self, o):
        return _Trunc(int(self) - int(o) * int(self.__truediv__(o)))
    def __rmod__(self, o): return _Trunc(o).__mod__(self)


def test_symbolic_equals_numeric_everywhere():
    # Differential: the simplified expression of a tiled, swizzled layout
    # against liblego's numeric table, exhaustively.
    L = OrderBy(Row(2, 2), GenP([4, 8], swizzle(2, 0, 3))).GroupBy([8, 16])
    t = L.table()
    e = L["i", "j"]
    i, j = np.meshgrid(np.arange(8), np.arange(16), indexing="ij")
    assert np.array_equal(e(i=i, j=j), t)
    a, b = L.inv("x")
    for x in range(128):
        assert t[a(x=x), b(x=x)] == x


def test_inverse_expressions_invert_the_table():
    M, N = symbols("M N")
    L = OrderBy(Col(M, N))
    p, q = L.inv("x")
    t = L.table(M=3, N=5)
    for x in range(15):
        env = dict(x=x, M=3, N=5)
        assert t[p(**env), q(**env)] == x


def test_vectorised_matches_scalar_and_broadcasts():
    M, K = symbols("M K")
    e = OrderBy(Row(M, K))["i", "j"]
    v = e(i=np.arange(3)[:, None], j=np.arange(4)[None, :], K=4, M=3)
    assert v.shape == (3, 4)
    assert v.tolist() == [[e(i=a, j=b, K=4, M=3) for b in range(4)]
                          for a in range(3)]


def test_overflow_is_an_error_not_a_wrapped_value():
    M, K = symbols("M K")
    e = OrderBy(Row(M, K))["i", "j"]
    with pytest.raises(LegoError):
        e(i=2 ** 62, j=0, K=4)
    with pytest.raises(LegoError):
        e(i=np.array([1, 2 ** 62]), j=0, K=4)
    with pytest.raises(LegoError):
        e(j=0, K=4)  # i unbound


def test_arithmetic_equality_and_substitution():
    M, K = symbols("M K")
    L = OrderBy(Row(M, K))
    e = L["i", "j"]
    assert (e + 1) - 1 == e
    assert (2 * e).simplify() == (e + e).simplify()
    assert ((e * 4) % 2).simplify() == 0
    assert e.subs({"K": 5, "i": 2})(j=1) == 11
    assert e.symbols() == {"i", "j", "K"}
    with pytest.raises(LegoError):
        e + OrderBy(Row(M, K))["i", "j"]  # another spec
    assert int(OrderBy(Row(2, 3))[1, 2]) == 5
    with pytest.raises(TypeError):
        int(e)


def test_symbols_of_a_shared_dag():
    # Each link doubles the tree: a walk of the tree would take 2^60 steps.
    M, K = symbols("M K")
    e = OrderBy(Row(M, K))["i", "j"]
    for _ in range(60):
        e = e * e + 1
    assert e.symbols() == {"i", "j", "K"}


def test_stride_and_not_strided():
    M, K = symbols("M K")
    A = OrderBy(Col(M, K))
    assert A.stride(0) == 1
    assert str(A.stride(1)) == "M"
    G = OrderBy(Row(2, 2), GenP([4, 8], swizzle(2, 0, 3))).GroupBy([8, 16])
    with pytest.raises(LegoError, match="not strided"):
        G.stride(1)
    with pytest.raises(LegoError, match="expected a dim"):
        A.stride(2)


def test_index_text_terms_and_words_of_the_language():
    L = OrderBy(Row(4, 4))
    e = L["min(a, b)", "a + 1"]
    for a in range(3):
        for b in range(4):
            assert e(a=a, b=b) == 4 * min(a, b) + a + 1
    K = lego.Sym("K")
    assert OrderBy(Row(K, 4))[K - 1, 0](K=3) == 8
    with pytest.raises(LegoError, match="Row"):
        L["Row", 0]
