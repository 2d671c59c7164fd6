"""Layouts of the paper (RegP, GenP, OrderBy, GroupBy and the sugar Row,
Col, TileBy, TileOrderBy) built as .lego text and answered by liblego.

A Layout is immutable: its declarations (syms, user GenPs, assumptions,
whole .lego files it came from) and the layout expression.  Every question
parses that spec once per set of concrete sizes and keeps the result."""
from __future__ import annotations

import hashlib
from typing import Callable, Dict, Iterable, Optional, Sequence, Tuple, Union

from . import _lego
from ._lego import Expr, LegoError
from ._terms import Term, TermLike, local, term

SELF = "_self"
Index = Union[int, str, Term, Expr]


def _merge(*decl_lists: Iterable[str]) -> Tuple[str, ...]:
    """Declarations in order, each once, syms first (others use them)."""
    seen, syms, rest = set(), [], []
    for decls in decl_lists:
        for d in decls:
            if d not in seen:
                seen.add(d)
                (syms if d.startswith("sym ") else rest).append(d)
    return tuple(syms + rest)


def spec_text(layouts: "Dict[str, Layout]") -> str:
    """A .lego text declaring each layout under its name (a layout read
    from a file under its own name is declared by the file already)."""
    decls = _merge(*(l._decls for l in layouts.values()))
    lines = [f"layout {n} = {l._text}" for n, l in layouts.items()
             if l._text != n]
    return "\n".join(decls + tuple(lines)) + "\n"


def _sym_decls(terms: Iterable[Term]) -> Tuple[str, ...]:
    names = sorted(frozenset().union(*(t.syms for t in terms)))
    return tuple(f"sym {n}" for n in names)


def _list(xs: Sequence[TermLike]) -> Tuple[str, Tuple[Term, ...]]:
    ts = tuple(term(x) for x in xs)
    return "[" + ", ".join(t.text for t in ts) + "]", ts


class Layout:
    """A LEGO layout.  ``L[i, j]`` is the simplified physical index of the
    logical index (i, j): an :class:`Expr`.  Indices are ints, names (index
    variables over their dim), lego terms or Exprs of the same layout."""

    __slots__ = ("_decls", "_text", "_chain", "_specs")

    def __init__(self, decls: Tuple[str, ...], text: str, chain: bool):
        self._decls = decls
        self._text = text
        self._chain = chain       # may take .OrderBy/.GroupBy/.TileBy
        self._specs: Dict[tuple, _lego.Spec] = {}

    # ------------------------------------------------------------ building
    def _then(self, method: str, args: str, decls=()) -> "Layout":
        if not self._chain:
            raise LegoError(f"{method} cannot follow a GroupBy or TileBy view")
        return Layout(_merge(self._decls, decls),
                      f"{self._text}.{method}({args})", method == "OrderBy")

    def OrderBy(self, *levels: "Layout") -> "Layout":
        """The chain followed by one more reordering (applied first)."""
        lv = _levels(levels)
        return self._then("OrderBy", ", ".join(p._text for p in lv),
                          _merge(*(p._decls for p in lv)))

    def GroupBy(self, *groups: Sequence[TermLike]) -> "Layout":
        """The logical view of the chain: groups of its dims."""
        parts = [_list(g) for g in groups]
        return self._then("GroupBy", ", ".join(p[0] for p in parts),
                          _sym_decls(t for p in parts for t in p[1]))

    def TileBy(self, *sizes: Sequence[TermLike]) -> "Layout":
        """The tiled logical view: one list of sizes per level, outermost
        first (`N // B` as a tile count is exact: it implies B divides N;
        `cdiv(N, B)` pads)."""
        parts = [_list(s) for s in sizes]
        return self._then("TileBy", ", ".join(p[0] for p in parts),
                          _sym_decls(t for p in parts for t in p[1]))

    def assume(self, *conds: TermLike) -> "Layout":
        """The same layout with facts about its sizes (``M % BM == 0``
        spelled ``Eq(M % BM, 0)``, ``BK <= K``, joined by And)."""
        ts = [term(c) for c in conds]
        return Layout(_merge(self._decls, _sym_decls(ts),
                             [f"assume {t.text}" for t in ts]),
                      self._text, self._chain)

    # ------------------------------------------------------------- the spec
    def lego(self, name: str = "L") -> str:
        """The layout as a .lego file defining `name`."""
        return spec_text({name: self})

    def spec(self, extra: Iterable[str] = (), **sizes: int) -> _lego.Spec:
        """The parsed spec (layout `_self`), `sizes` turning syms into
        constants; `extra` declares more syms (of index terms)."""
        key = (tuple(sorted(sizes.items())), tuple(sorted(extra)))
        s = self._specs.get(key)
        if s is None:
            decls = _merge(self._decls, (f"sym {n}" for n in key[1]))
            text = "\n".join(decls + (f"layout {SELF} = {self._text}",)) + "\n"
            s = self._specs[key] = _lego.Spec(text, "<layout>", dict(sizes))
        return s

    def _declared(self) -> frozenset:
        return frozenset(d[4:] for d in self._decls if d.startswith("sym "))

    # ----------------------------------------------------------- questions
    def _index_spec(self, idx: Sequence[Index]):
        """The spec for these indices and the indices as it takes them."""
        extra = ()
        out = list(idx)
        for k, x in enumerate(idx):
            if isinstance(x, (str, int, Expr)):
                continue
            x = term(x)
            extra = x.syms.union(extra)
            out[k] = x.text
        if extra:
            extra = extra - self._declared()
        return self.spec(extra), out

    def __getitem__(self, idx) -> Expr:
        if not isinstance(idx, tuple):
            idx = (idx,)
        spec, args = self._index_spec(idx)
        return spec.apply(SELF, args)

    def apply(self, *idx: Index, simplify: bool = True) -> Expr:
        """L[idx]; simplify=False gives the expression straight from the
        semantics."""
        spec, args = self._index_spec(idx)
        return spec.apply(SELF, args, simplify)

    def inv(self, flat: Index, simplify: bool = True) -> Tuple[Expr, ...]:
        """The logical index of the physical index `flat`."""
        spec, args = self._index_spec((flat,))
        return spec.inv(SELF, args[0], simplify)

    @property
    def dims(self) -> Tuple[Expr, ...]:
        """The logical dims."""
        return self.spec().dims(SELF)

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def size(self) -> Expr:
        """The number of elements."""
        return self.spec().size(SELF)

    def stride(self, k: int) -> Expr:
        """The step of the physical index along logical dim k, proved the
        same everywhere (LegoError when it depends on the index)."""
        return self.spec().stride(SELF, k)

    def table(self, **sizes: int):
        """The whole mapping as a numpy int64 array of the logical shape:
        ``L.table()[i, j] == L[i, j]`` (-1 at padding)."""
        import numpy as np
        s = self.spec(**sizes)
        shape = tuple(int(d) for d in _concrete(s.dims(SELF)))
        return np.frombuffer(s.table(SELF), dtype=np.int64).reshape(shape)

    def check(self, **sizes: int) -> bool:
        """Enumerates the layout for concrete sizes: True when it is a
        bijection whose inverse inverts it; LegoError with a witness
        otherwise."""
        self.spec(**sizes).check(SELF)
        return True

    def show(self, inverse: bool = False, ascii: bool = False,
             **sizes: int) -> str:
        """The layout drawn as a text grid (concrete sizes)."""
        return self.spec(**sizes).show(SELF, inverse=inverse, ascii=ascii)

    def svg(self, inverse: bool = False, title: Optional[str] = None,
            **sizes: int) -> str:
        """The layout drawn as SVG (concrete sizes)."""
        return self.spec(**sizes).show(SELF, svg=True, inverse=inverse,
                                       title=title)

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter draws a layout whose sizes are all constants."""
        try:
            return self.svg()
        except LegoError:
            return None

    def __repr__(self) -> str:
        return f"Layout({self._text})"


def _concrete(dims):
    for d in dims:
        try:
            yield int(d)
        except TypeError:
            raise LegoError(f"size {d} has no value: give it, e.g. "
                            f"table({'='.join([str(d), '4'])})") from None


def _levels(levels: Sequence[Layout]) -> Tuple[Layout, ...]:
    for p in levels:
        if not isinstance(p, Layout):
            raise TypeError(f"an OrderBy level is a RegP, GenP, Row or Col, "
                            f"got {p!r}")
    return tuple(levels)


def _piece(text: str, decls: Iterable[str]) -> Layout:
    return Layout(tuple(decls), text, True)


def RegP(dims: Sequence[TermLike], perm: Sequence[int]) -> Layout:
    """A regular permutation of the tile dims (1-based, as in the paper)."""
    d, ts = _list(dims)
    p = "[" + ", ".join(str(int(x)) for x in perm) + "]"
    return _piece(f"RegP({d}, {p})", _sym_decls(ts))


def Row(*dims: TermLike) -> Layout:
    """Row-major: RegP with the identity permutation."""
    ts = tuple(term(x) for x in dims)
    return _piece("Row(" + ", ".join(t.text for t in ts) + ")", _sym_decls(ts))


def Col(*dims: TermLike) -> Layout:
    """Column-major: RegP with the reversed permutation."""
    ts = tuple(term(x) for x in dims)
    return _piece("Col(" + ", ".join(t.text for t in ts) + ")", _sym_decls(ts))


class GenPFn:
    """A built-in GenP function (antidiag, morton, swizzle(B, M, S))."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


antidiag = GenPFn("antidiag")
morton = GenPFn("morton")


def swizzle(b: int, m: int, s: int) -> GenPFn:
    """CuTe's Swizzle<B, M, S> on the row-major flat offset."""
    return GenPFn(f"swizzle({int(b)}, {int(m)}, {int(s)})")


def GenP(dims: Sequence[TermLike], fn: Union[GenPFn, Callable[..., TermLike]],
         inv: Optional[Callable[[Term], Sequence[TermLike]]] = None) -> Layout:
    """A general permutation of a tile.  `fn` is a built-in (antidiag,
    morton, swizzle(B, M, S)) or a callable taking the logical index (one
    term per dim) and returning the flat physical index, with `inv` taking
    the flat index and returning the logical one.  Callables are traced
    once with symbolic indices, so they use lego operators only (no `if`:
    select).  With constant dims the pair is checked to be a bijection
    now; with symbolic ones, by `check(...)` with sizes."""
    d, ts = _list(dims)
    if isinstance(fn, GenPFn):
        return _piece(f"GenP({d}, {fn.text})", _sym_decls(ts))
    if not callable(fn) or not callable(inv):
        raise TypeError("GenP takes a built-in, or two callables fn and inv")
    idx = [local(f"i{k}") for k in range(len(ts))]
    flat = term(fn(*idx))
    back = inv(local("x"))
    back = [term(b) for b in (back if isinstance(back, (tuple, list)) else [back])]
    if len(back) != len(ts):
        raise LegoError(f"GenP: inv returns {len(back)} coordinates, "
                        f"the tile has {len(ts)} dims")
    params = ", ".join(f"_d{k}" for k in range(len(ts)))
    body = (f"[{params}]({', '.join(i.text for i in idx)}) = {flat.text} "
            f"inverse (x) = ({', '.join(b.text for b in back)})")
    name = "_genp_" + hashlib.sha1(body.encode()).hexdigest()[:12]
    used = _sym_decls([flat, *back, *ts])
    piece = _piece(f"GenP({d}, {name})", _merge(used, [f"genp {name}{body}"]))
    if not any(t.syms for t in ts):
        OrderBy(piece).check()
    return piece


def OrderBy(*levels: Layout) -> Layout:
    """A reordering with levels (RegP, GenP, Row, Col), outermost first."""
    lv = _levels(levels)
    return Layout(_merge(*(p._decls for p in lv)),
                  "OrderBy(" + ", ".join(p._text for p in lv) + ")", True)


def TileOrderBy(*levels: Layout) -> Layout:
    """OrderBy over a hierarchical tiling (the paper's TileOrderBy)."""
    lv = _levels(levels)
    return Layout(_merge(*(p._decls for p in lv)),
                  "TileOrderBy(" + ", ".join(p._text for p in lv) + ")", True)
