"""Builds the Python package `lego`: the CPython extension lego._lego
compiled together with liblego's C sources (src/*/*.c), so that the wheel
needs no installed library.  Z3 is used when its header is present (set
LEGO_NO_Z3=1 to build without it).  The metadata is in pyproject.toml."""
import glob
import os
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def sources():
    own = sorted(glob.glob("python/src/*.c"))
    lib = sorted(glob.glob("src/*/*.c"))
    return own + lib


def z3():
    """Macros and libraries for Z3, when its header is installed."""
    if os.environ.get("LEGO_NO_Z3") == "1":
        return [], []
    if any(os.path.exists(os.path.join(d, "z3.h"))
           for d in ("/usr/include", "/usr/local/include")):
        return [("LEGO_HAVE_Z3", None)], ["z3"]
    return [], []


class ParallelBuildExt(build_ext):
    """Compiles the ~100 C files of the one extension on every core
    (setuptools parallelises across extensions only)."""

    def build_extension(self, ext):
        compiler = self.compiler
        serial = compiler.compile

        def compile_parallel(srcs, output_dir=None, macros=None,
                             include_dirs=None, debug=0, extra_preargs=None,
                             extra_postargs=None, depends=None):
            macros, objects, extra, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, srcs, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def one(obj):
                src, ext_ = build[obj]
                compiler._compile(obj, src, ext_, cc_args, extra, pp_opts)

            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                list(pool.map(one, objects))
            return objects

        compiler.compile = compile_parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial


macros, libs = z3()
setup(
    ext_modules=[Extension(
        "lego._lego",
        sources=sources(),
        include_dirs=["include", "src"],
        define_macros=macros + [("_POSIX_C_SOURCE", "200809L")],
        libraries=libs + ["m"],
        extra_compile_args=["-std=c11", "-O2", "-Wno-unused-parameter"],
    )],
    cmdclass={"build_ext": ParallelBuildExt},
    # Apart from make's objects in build/.
    options={"build": {"build_base": "build/python"}},
)
