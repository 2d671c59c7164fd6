"""The layouts of the paper's matrix multiply, as its authors write them,
in the four variants of examples/triton (matmul_*.lego)."""
from lego import Col, Eq, Max, Min, OrderBy, Row, symbols

M, N, K, BM, BN, BK, npm, npn, GM = symbols("M N K BM BN BK npm npn GM")
VARIANTS = ("ab", "abt", "atb", "atbt")


def layouts(variant):
    """ab, abt, atb, atbt: A is M x K, B is K x N; a `t` stores it
    transposed (column-major)."""
    a = Col if variant.startswith("at") else Row
    b = Col if variant.endswith("bt") else Row
    return dict(
        A=OrderBy(a(M, K)).TileBy([M // BM, K // BK], [BM, BK]),
        B=OrderBy(b(K, N)).TileBy([K // BK, N // BN], [BK, BN]),
        C=OrderBy(Row(M, N)).TileBy([M // BM, N // BN], [BM, BN]),
        P=(OrderBy(Col(Max(npm // GM, 1), 1), Col(Min(npm, GM), npn))
           .TileBy([npm, npn]).assume(Eq(npm % GM, 0))))
