"""Shared set-up: the repository root, the `lego` CLI of the build (for
cross-checks, when LEGO_BUILD names it) and Triton's interpreter."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def lego_cli():
    build = os.environ.get("LEGO_BUILD")
    exe = os.path.join(os.path.abspath(build), "lego") if build else None
    if not exe or not os.path.exists(exe):
        pytest.skip("LEGO_BUILD does not name a build with the lego tool")
    return exe


@pytest.fixture
def interp(tmp_path, monkeypatch):
    """tests/gen/interp.py: Triton's CPU interpreter on numpy buffers."""
    monkeypatch.setenv("LEGO_CACHE", str(tmp_path))
    os.environ["TRITON_INTERPRET"] = "1"
    pytest.importorskip("triton")
    sys.path.insert(0, os.path.join(ROOT, "tests", "gen"))
    try:
        import interp as module
    finally:
        sys.path.pop(0)
    return module
