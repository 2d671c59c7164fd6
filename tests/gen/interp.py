"""Runs generated Triton kernels in Triton's interpreter (TRITON_INTERPRET=1)
on the CPU, with numpy arrays standing in for torch tensors."""
import os
os.environ["TRITON_INTERPRET"] = "1"

import importlib.util

import numpy as np
import triton.runtime.interpreter as interp


class Buffer:
    """The part of a torch tensor the interpreter reads: an address and a
    dtype (the memory is the numpy array's, on the same CPU)."""

    def __init__(self, array):
        self.array = np.ascontiguousarray(array)
        self.dtype = Dtype.of(self.array.dtype)

    def data_ptr(self):
        return self.array.ctypes.data


class Dtype:
    NAMES = {"float16": "torch.float16", "float32": "torch.float32",
             "int64": "torch.int64", "int32": "torch.int32"}

    # Triton caches argument types by the identity of the dtype object:
    # one living object per dtype, or a new one at a freed address would
    # take the type of the old.
    ALL = {}

    def __init__(self, name):
        self.name = name
        self.itemsize = np.dtype(name[len("torch."):]).itemsize

    @classmethod
    def of(cls, np_dtype):
        name = cls.NAMES[np.dtype(np_dtype).name]
        return cls.ALL.setdefault(name, cls(name))

    def __str__(self):
        return self.name


def _same_memory(self, args, kwargs):
    return list(args), dict(kwargs)


interp.GridExecutor._init_args_hst = _same_memory
interp.GridExecutor._restore_args_dev = lambda self, *a: None


def load(path):
    """The module of a generated .py file."""
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
