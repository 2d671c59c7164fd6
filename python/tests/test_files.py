"""`.lego` files read and written, and errors carrying liblego's
message and position."""
import os

import pytest

import lego
from lego import LegoError, OrderBy, Row, symbols


def test_load_example_and_query(root):
    spec = lego.load(os.path.join(root, "examples", "fig9.lego"))
    G = spec["G"]
    assert G[4, 2] == 15
    assert "G" in spec and len(spec) >= 1


def test_load_gemm_spec_matches_cli(root, lego_cli):
    import subprocess
    path = os.path.join(root, "examples", "gemm.lego")
    A = lego.load(path)["A"]
    want = subprocess.run([lego_cli, "apply", path, "A", "tm", "tk", "r", "c"],
                          capture_output=True, text=True, check=True).stdout
    assert str(A["tm", "tk", "r", "c"]) == want.strip()


def test_dumps_save_and_load_round_trip(tmp_path):
    M, K, BM, BK = symbols("M K BM BK")
    A = OrderBy(Row(M, K)).TileBy([M // BM, K // BK], [BM, BK])
    P = OrderBy(Row(2, 2))
    path = tmp_path / "out.lego"
    lego.save(path, A=A, P=P)
    back = lego.load(path)
    assert list(back) == ["A", "P"]
    s = dict(M=4, K=6, BM=2, BK=3)
    assert (back["A"].table(**s) == A.table(**s)).all()
    assert "layout A = " in lego.dumps(A=A)


def test_parse_error_has_position(tmp_path):
    path = tmp_path / "bad.lego"
    path.write_text("sym M\nlayout A = Row(M, Z)\n")
    with pytest.raises(LegoError) as err:
        lego.load(path)
    e = err.value
    assert str(e) == f"{path}:2:19: error: unknown name 'Z'"
    assert (e.filename, e.line, e.col) == (str(path), 2, 19)


def test_api_errors():
    with pytest.raises(LegoError, match="rank 2, got 3"):
        OrderBy(Row(2, 3))[0, 1, 2]
    with pytest.raises(LegoError, match="permutation"):
        lego.RegP([2, 2], [1, 1])[0, 0]
    with pytest.raises(LegoError):
        OrderBy(Row(2, 3)).TileBy([2], [2]).check()  # 4 != 6 elements
    with pytest.raises(LegoError, match="no value"):
        OrderBy(Row(*symbols("M K"))).table()
    e = None
    try:
        OrderBy(Row(2, 3))[0, 1, 2]
    except LegoError as x:
        e = x
    assert e.line is None and isinstance(e, ValueError)


def test_pictures():
    L = OrderBy(Row(2, 2), Row(2, 2)).GroupBy([4, 4])
    text = L.show(ascii=True)
    assert "15" in text
    svg = L._repr_svg_()
    assert svg.startswith("<svg") or svg.lstrip().startswith("<?xml")
    assert OrderBy(Row(*symbols("M K")))._repr_svg_() is None
