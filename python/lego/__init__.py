"""liblego from Python: the LEGO layout algebra, exact and simplified.

    >>> from lego import OrderBy, RegP, GenP, antidiag
    >>> G = (OrderBy(RegP([2, 2], [2, 1]), GenP([3, 3], antidiag))
    ...      .OrderBy(RegP([2, 3, 2, 3], [1, 3, 2, 4])).GroupBy([6, 6]))
    >>> G[4, 2]
    Expr(15)
    >>> [int(x) for x in G.inv(15)]
    [4, 2]

docs/python.md is the guide.
"""
from ._lego import Expr, LegoError, Spec, gen, smt_available
from ._terms import (And, Eq, Max, Min, Ne, Sym, Term, cdiv, isqrt, select,
                     symbols)
from ._layout import (Col, GenP, Layout, OrderBy, RegP, Row, TileOrderBy,
                      antidiag, morton, swizzle)
from ._files import LegoFile, dumps, load, loads, save

__version__ = "0.1.0"

__all__ = [
    "And", "Col", "Eq", "Expr", "GenP", "Layout", "LegoError", "LegoFile",
    "Max", "Min", "Ne", "OrderBy", "RegP", "Row", "Spec", "Sym", "Term",
    "TileOrderBy", "antidiag", "cdiv", "dumps", "gen", "isqrt", "load",
    "loads", "morton", "save", "select", "smt_available", "swizzle",
    "symbols",
]
