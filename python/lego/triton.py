"""Triton kernels written with {{ }} placeholders, filled from layouts when
the module is imported: no generation step, no generated file to keep.

    @lego.triton.jit(A=A, B=B, C=C, P=P)
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, ...):
        ...
        a = tl.load(a_ptr + {{ A[pid_m, k, :, :] }})

The function's source is a `lego gen` template (docs/templates.md) whose
spec is the layouts given by name; the filled source is compiled by
triton.jit.  Sizes stay symbols (kernel arguments) unless listed in
`specialize`: those become constants of the spec, from the values a launch
passes, with one kernel per set of values.  A mistake in a placeholder is
a LegoError at its line and column of the Python file.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import tempfile
import textwrap
import types
from typing import Callable, Dict, Iterable, Mapping, Optional, Tuple

from . import _lego
from ._layout import Layout, spec_text


def _cache_dir() -> str:
    d = os.environ.get("LEGO_CACHE") or os.path.join(
        tempfile.gettempdir(), f"lego-triton-{os.getuid()}")
    os.makedirs(d, exist_ok=True)
    return d


def spec_block(layouts: Mapping[str, Layout]) -> str:
    """The layouts as a template's {% lego %} block (left out of the
    output)."""
    return "# {% lego %}\n" + spec_text(dict(layouts)) + "# {% end %}\n"


def fill(text: str, layouts: Mapping[str, Layout], filename: str = "<kernel>",
         defines: Optional[Dict[str, int]] = None, first_line: int = 1) -> str:
    """A template text (its first line being line `first_line` of
    `filename`, for messages) with its placeholders filled from `layouts`
    for Triton; `defines` turn sizes into constants."""
    body = "\n" * (first_line - 1) + text
    if not body.endswith("\n"):
        body += "\n"
    return _lego.gen(body + spec_block(layouts), filename, "triton",
                     defines or {})


class Template:
    """A function's source as a template: the text from its `def` on,
    placed at its line of the file (so that messages point there)."""

    def __init__(self, fn: Callable, layouts: Mapping[str, Layout]):
        lines, first = inspect.getsourcelines(fn)
        start = next(k for k, l in enumerate(lines)
                     if l.lstrip().startswith(("def ", "async def ")))
        self.name = fn.__name__
        self.filename = inspect.getsourcefile(fn) or "<kernel>"
        self.body = textwrap.dedent("".join(lines[start:]))
        self.first_line = first + start
        self.layouts = dict(layouts)
        self.syms = frozenset(d[4:] for l in layouts.values()
                              for d in l._decls if d.startswith("sym "))

    def fill(self, defines: Optional[Dict[str, int]] = None) -> str:
        """The filled source (lines as in the file, spec block dropped)."""
        return fill(self.body, self.layouts, self.filename, defines,
                    self.first_line)


def _compile(tpl: Template, source: str, globals_: dict, jit_options: dict):
    """triton.jit of the function defined by source, living in the
    caller's module globals; the source is written to a cache file so that
    Triton (and tracebacks) can read it."""
    import triton
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    path = os.path.join(_cache_dir(), f"{tpl.name}_{digest}.py")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(source)
        os.replace(tmp, path)
    # Defined in a copy of the module's globals (its annotations, such as
    # tl.constexpr, are evaluated there), then bound to the module's own
    # globals, which Triton reads when it compiles.
    ns = dict(globals_)
    exec(compile(source, path, "exec"), ns)
    raw = ns[tpl.name]
    fn = types.FunctionType(raw.__code__, globals_, raw.__name__,
                            raw.__defaults__, raw.__closure__)
    fn.__kwdefaults__ = raw.__kwdefaults__
    fn.__annotations__ = dict(raw.__annotations__)
    fn.__doc__ = raw.__doc__
    return triton.jit(**jit_options)(fn)


class Specialized:
    """A kernel filled once per set of values of the `specialize` sizes:
    ``kernel[grid](*args)`` as with a triton.jit function."""

    def __init__(self, fn: Callable, tpl: Template, names: Tuple[str, ...],
                 jit_options: dict):
        self._fn = fn
        self._tpl = tpl
        self._names = names
        self._sig = inspect.signature(fn)
        self._jit = jit_options
        self._kernels: Dict[tuple, object] = {}
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def kernel(self, **values: int):
        """The triton.jit function for these values of the sizes."""
        key = tuple(int(values[n]) for n in self._names)
        k = self._kernels.get(key)
        if k is None:
            defs = {n: v for n, v in zip(self._names, key) if n in self._tpl.syms}
            k = _compile(self._tpl, self._tpl.fill(defs), self._fn.__globals__,
                         self._jit)
            self._kernels[key] = k
        return k

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            bound = self._sig.bind_partial(*args, **kwargs).arguments
            missing = [n for n in self._names if n not in bound]
            if missing:
                raise TypeError(f"{self.__name__}: no value for {missing}")
            return self.kernel(**{n: bound[n] for n in self._names})[grid](
                *args, **kwargs)
        return launch


def jit(fn: Optional[Callable] = None, *, specialize: Iterable[str] = (),
        jit_options: Optional[dict] = None, **layouts: Layout):
    """Decorator: fills the function's {{ }} placeholders from `layouts`
    (keyword name -> Layout, the names the placeholders use) and returns a
    triton.jit function; with `specialize` (names of constexpr sizes), an
    object launched as one, filling a kernel per set of their values."""
    names = tuple(specialize)
    opts = dict(jit_options or {})

    def wrap(f: Callable):
        tpl = Template(f, layouts)
        if names:
            return Specialized(f, tpl, names, opts)
        return _compile(tpl, tpl.fill(), f.__globals__, opts)

    return wrap(fn) if fn is not None else wrap


def source(fn: Callable, defines: Optional[Dict[str, int]] = None,
           **layouts: Layout) -> str:
    """The filled source of a kernel function (what jit compiles)."""
    return Template(fn, layouts).fill(defines)
