"""Evaluation of an Expr on ints or, vectorised, on numpy arrays: every
point exactly in 64 bits (an overflow is an error, never a wrapped value)."""
from __future__ import annotations


def evaluate(e, env: dict):
    """e(**env): an int when every value is an int, else a numpy int64
    array of the broadcast shape of the values."""
    if all(isinstance(v, int) for v in env.values()):
        return e.eval(env)
    import numpy as np
    names = tuple(env)
    arrays = np.broadcast_arrays(*(np.asarray(env[n], dtype=np.int64)
                                   for n in names))
    shape = arrays[0].shape if arrays else ()
    cols = tuple(np.ascontiguousarray(a, dtype=np.int64).ravel() for a in arrays)
    n = int(np.prod(shape)) if shape else 1
    out = e.eval_many(names, cols, n)
    return np.frombuffer(out, dtype=np.int64).reshape(shape).copy()
