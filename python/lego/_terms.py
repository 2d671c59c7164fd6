"""Symbolic sizes and the expressions built from them, kept as text of the
.lego language: they become the spec that liblego parses.  `N // B` and
`N / B` are both the language's floor division (exact when it is a tile
count of TileBy, which then carries the fact that B divides N)."""
from __future__ import annotations

import re
from typing import Iterable, Union

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Words of the .lego language that cannot name a symbol.
RESERVED = frozenset(
    "sym let assume index genp layout in inverse min max isqrt select RegP "
    "GenP Row Col OrderBy TileOrderBy GroupBy TileBy antidiag morton "
    "swizzle".split())


class Term:
    """An integer expression over symbols, as .lego text.

    Operators build new terms: ``+ - * // / % -x & | ^ << >>`` and the
    comparisons ``< <= > >=`` (0/1 conditions, for `assume`); use
    :func:`Eq` and :func:`Ne` for equality, since ``==`` compares terms.
    """

    __slots__ = ("text", "syms", "atom")

    def __init__(self, text: str, syms: Iterable[str] = (), atom: bool = False):
        self.text = text
        self.syms = frozenset(syms)
        self.atom = atom

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Term({self.text})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def _wrap(self) -> str:
        return self.text if self.atom else f"({self.text})"

    def _bin(self, op: str, other: "TermLike", swap: bool = False) -> "Term":
        a, b = self, term(other)
        if swap:
            a, b = b, a
        return Term(f"{a._wrap()} {op} {b._wrap()}", a.syms | b.syms)

    def __add__(self, o): return self._bin("+", o)
    def __radd__(self, o): return self._bin("+", o, True)
    def __sub__(self, o): return self._bin("-", o)
    def __rsub__(self, o): return self._bin("-", o, True)
    def __mul__(self, o): return self._bin("*", o)
    def __rmul__(self, o): return self._bin("*", o, True)
    def __floordiv__(self, o): return self._bin("/", o)
    def __rfloordiv__(self, o): return self._bin("/", o, True)
    def __truediv__(self, o): return self._bin("/", o)
    def __rtruediv__(self, o): return self._bin("/", o, True)
    def __mod__(self, o): return self._bin("%", o)
    def __rmod__(self, o): return self._bin("%", o, True)
    def __and__(self, o): return self._bin("&", o)
    def __rand__(self, o): return self._bin("&", o, True)
    def __or__(self, o): return self._bin("|", o)
    def __ror__(self, o): return self._bin("|", o, True)
    def __xor__(self, o): return self._bin("^", o)
    def __rxor__(self, o): return self._bin("^", o, True)
    def __lshift__(self, o): return self._bin("<<", o)
    def __rlshift__(self, o): return self._bin("<<", o, True)
    def __rshift__(self, o): return self._bin(">>", o)
    def __rrshift__(self, o): return self._bin(">>", o, True)
    def __lt__(self, o): return self._bin("<", o)
    def __le__(self, o): return self._bin("<=", o)
    def __gt__(self, o): return self._bin(">", o)
    def __ge__(self, o): return self._bin(">=", o)

    def __neg__(self) -> "Term":
        return Term(f"-{self._wrap()}", self.syms)

    def __pos__(self) -> "Term":
        return self

    def __bool__(self) -> bool:
        raise TypeError(f"the truth of {self.text} depends on its symbols "
                        "(Python's if/and/or cannot decide it; use select)")


TermLike = Union[Term, int, str]


def term(x: TermLike) -> Term:
    """An int, a Term or a name as a Term."""
    if isinstance(x, Term):
        return x
    if isinstance(x, bool):
        return Term(str(int(x)), atom=True)
    if isinstance(x, int):
        return Term(str(x) if x >= 0 else f"({x})", atom=True)
    if isinstance(x, float) and x.is_integer():
        return term(int(x))
    if isinstance(x, str) and _NAME.match(x):
        return Term(x, atom=True)
    if hasattr(x, "__index__"):
        return term(x.__index__())
    raise TypeError(f"expected an int, a lego symbol or a name, got {x!r}")


def Sym(name: str) -> Term:
    """A size symbol, a positive integer (the language's `sym`)."""
    if not isinstance(name, str) or not _NAME.match(name) or name in RESERVED:
        raise ValueError(f"not a symbol name: {name!r}")
    return Term(name, (name,), atom=True)


def symbols(names: str):
    """`symbols("M N K")` -> (M, N, K), SymPy's spelling (one name gives
    one symbol; commas or spaces separate names)."""
    out = tuple(Sym(n) for n in re.split(r"[\s,]+", names.strip()) if n)
    return out[0] if len(out) == 1 else out


def _call(fn: str, *args: TermLike) -> Term:
    ts = [term(a) for a in args]
    return Term(f"{fn}({', '.join(t.text for t in ts)})",
                frozenset().union(*(t.syms for t in ts)), atom=True)


def Min(a: TermLike, b: TermLike) -> Term:
    """min(a, b)."""
    return _call("min", a, b)


def Max(a: TermLike, b: TermLike) -> Term:
    """max(a, b)."""
    return _call("max", a, b)


def cdiv(a: TermLike, b: TermLike) -> Term:
    """ceil(a / b); as a TileBy tile count it pads the dim."""
    return _call("cdiv", a, b)


def select(c: TermLike, a: TermLike, b: TermLike) -> Term:
    """a where the 0/1 condition c holds, else b."""
    return _call("select", c, a, b)


def isqrt(a: TermLike) -> Term:
    """floor(sqrt(a)), a >= 0."""
    return _call("isqrt", a)


def Eq(a: TermLike, b: TermLike) -> Term:
    """The condition a == b."""
    return term(a)._bin("==", b)


def Ne(a: TermLike, b: TermLike) -> Term:
    """The condition a != b."""
    return term(a)._bin("!=", b)


def And(*conds: TermLike) -> Term:
    """Conditions joined by &&."""
    ts = [term(c) for c in conds]
    return Term(" && ".join(t._wrap() for t in ts),
                frozenset().union(*(t.syms for t in ts)))


def local(name: str) -> Term:
    """A name that declares nothing (a GenP's own index)."""
    return Term(name, atom=True)
