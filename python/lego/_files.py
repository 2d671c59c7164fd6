"""`.lego` files read into layouts and layouts written as `.lego` files."""
from __future__ import annotations

import os
from typing import Dict, Iterator, Mapping, Union

from . import _lego
from ._layout import Layout, spec_text


class LegoFile(Mapping[str, Layout]):
    """The layouts of a .lego text by name (``spec["A"]``)."""

    def __init__(self, text: str, filename: str = "<string>"):
        # Parsed alone first, so that errors point into the file itself.
        names = _lego.Spec(text, filename).layouts()
        block = text if text.endswith("\n") else text + "\n"
        self.text = text
        self._layouts: Dict[str, Layout] = {
            n: Layout((block,), n, True) for n in names}

    def __getitem__(self, name: str) -> Layout:
        return self._layouts[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._layouts)

    def __len__(self) -> int:
        return len(self._layouts)


def load(path: Union[str, os.PathLike]) -> LegoFile:
    """Reads a .lego file; errors are LegoError with its file:line:col."""
    with open(path, encoding="utf-8") as f:
        return LegoFile(f.read(), os.fspath(path))


def loads(text: str, filename: str = "<string>") -> LegoFile:
    """Parses .lego text."""
    return LegoFile(text, filename)


def dumps(**layouts: Layout) -> str:
    """A .lego text declaring each layout under its keyword's name."""
    text = spec_text(layouts)
    _lego.Spec(text, "<dumps>")  # what is written must parse
    return text


def save(path: Union[str, os.PathLike], **layouts: Layout) -> None:
    """Writes dumps(**layouts) to path."""
    text = dumps(**layouts)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
