"""Optional numba kernels for the two numeric hot spots of both engines, and for the
functional engine's register moves.

Why: the correctly rounded fp32 fma (`fp.fma_f32`, a dozen float64 passes over the lanes in
numpy) and the MFMA exact sum (`mfma_exec.compute`: a matmul plus its exactness bound, or an
error-free TwoSum loop) dominate the functional engine's profile. A compiled loop does each
lane or output element in registers, in one pass. The moves (`gather_rows`, `gather_f32`,
`scatter_f32`) put loaded words and MFMA operands straight where they go in the engine's
(registers, waves, lanes) arrays, where numpy needs a gather plus a transposing copy or a
convert; they only copy bits (and round float64 to float32 as numpy's astype does).

The exact-sum kernel does the same IEEE float64 operations, in the same order, as the numpy
code it replaces (numba compiles without fast-math, so no reassociation and no fused
multiply-add). The fma kernel (`accel_fma`) is the CPU's own float32 fused multiply-add, which
is by IEEE 754 the one correctly rounded value that fp.fma_f32 reaches in float64 steps (~14x
faster than doing those steps lane by lane: 23 us against 320 us for 64K lanes here); its NaN
lanes are rewritten to the hardware's NaN rule. The results are bit-identical: the tests
compare them on random and edge-case inputs.

Used only when numba imports (``pip install gcnemu[fast]``) and the environment variable
``GCNEMU_NO_NUMBA`` is unset or empty; otherwise every caller keeps its numpy path. numba is
imported only once a process has done enough numeric work through the numpy paths to repay it
(`WARMUP` lane operations, ~0.5 s of that work; `GCNEMU_NUMBA_WARMUP=0` loads it at the first
call): importing numba and loading the cached kernels costs ~1.2 s (measured: import 0.7 s, the
first fma call 0.55 s), which a short run (a snippet, a unit test, a CLI call) would only lose.
Switching mid-run is invisible: the results are identical. The kernels are cached on disk
(``cache=True``): only the first run on a machine pays the JIT, ~2.8 s for all of them (fma
1.6 s, exact sum 0.6 s, the moves 0.6 s, measured on this 2-core machine under load).
"""
from __future__ import annotations

import os

import numpy as np

__all__ = ["enabled", "load", "fma_f32", "exact_sum", "gather_rows", "gather_f32", "scatter_f32", "WARMUP"]

WARMUP = int(os.environ.get("GCNEMU_NUMBA_WARMUP", 1 << 27))  # lane operations done by numpy before numba loads
_STATE: dict = {"work": 0}  # "kernels": the compiled namespace, or None when numba is off or missing


def _wanted() -> bool:
    return not os.environ.get("GCNEMU_NO_NUMBA")


def _ready(work: int):
    """The kernels once the process has done `WARMUP` lane operations (counting `work`), else
    None: a short run never pays numba's import."""
    if "kernels" in _STATE:
        return _STATE["kernels"]
    _STATE["work"] += work
    if _STATE["work"] < WARMUP:
        return None
    return load()


def load():
    """The jitted kernels, built (or loaded from the cache) now; None when numba is absent or
    switched off by GCNEMU_NO_NUMBA. Tests and benchmarks call it to skip the warm-up."""
    if "kernels" in _STATE:
        return _STATE["kernels"]
    k = None
    if _wanted():
        try:
            k = _build()
        except Exception:  # numba missing or unable to compile here: the numpy paths stay exact
            k = None
    _STATE["kernels"] = k
    return k


def enabled() -> bool:
    """Whether the numba kernels can be used (numba imports and GCNEMU_NO_NUMBA is not set)."""
    return load() is not None


def _build():
    import numba

    from .accel_fma import fma_f32_kernel
    njit = numba.njit(cache=True, nogil=True, error_model="numpy")

    @njit
    def exact_sum_kernel(a, b, c, out):
        """out[blk,i,j] = c + sum_k a[blk,i,k]*b[blk,k,j] by Ogita-Rump-Oishi Sum2 in k order, as
        mfma_exec._accurate_sum; returns False when any element is not finite. The j loop is
        innermost: its elements are independent, so it runs in SIMD registers without changing
        any element's order of operations (one element's k loop is a serial dependency chain)."""
        nb, m, kk = a.shape
        n = b.shape[2]
        finite = True
        s = np.empty(n, dtype=np.float64)
        err = np.empty(n, dtype=np.float64)
        for blk in range(nb):
            for i in range(m):
                for j in range(n):
                    s[j] = c[blk, i, j]
                    err[j] = 0.0
                for k in range(kk):
                    x = a[blk, i, k]
                    for j in range(n):
                        p = x * b[blk, k, j]
                        sj = s[j]
                        t = sj + p
                        bp = t - sj
                        err[j] += (sj - (t - bp)) + (p - bp)
                        s[j] = t
                for j in range(n):
                    r = s[j] + err[j]
                    out[blk, i, j] = r
                    if not np.isfinite(r):
                        finite = False
        return finite

    @njit
    def gather_rows_kernel(words, first, out):
        """out[k, g, l] = words[first[g, l] + k]: each lane's consecutive words into register
        rows (out may be a strided view of a register file). Indices are the caller's, checked.
        One register row at a time: sequential writes (1.5x faster than lane by lane measured
        for a ds_read_b128 over 1024 waves)."""
        dw, groups, lanes = out.shape
        for k in range(dw):
            for g in range(groups):
                for lane in range(lanes):
                    out[k, g, lane] = words[first[g, lane] + k]

    @njit
    def gather_f32_kernel(regs, table, out):
        """out[r, c] = the float32 in regs[table[r, c]], as float64 (exact)."""
        f = regs.view(np.float32)
        rows, cols = table.shape
        for r in range(rows):
            for c in range(cols):
                out[r, c] = np.float64(f[table[r, c]])

    @njit
    def scatter_f32_kernel(regs, table, values):
        """regs[table[r, c]] = values[r, c] rounded to float32 (to nearest even, as astype)."""
        f = regs.view(np.float32)
        rows, cols = table.shape
        for r in range(rows):
            for c in range(cols):
                f[table[r, c]] = np.float32(values[r, c])

    from . import accel_alu

    class K:
        pass

    # (the timed engine's compiled issue loop: gcnemu.sim.accel_alu, used by sim.alu_compiled)
    K.run_alu = njit(accel_alu.run_alu)

    K.fma_f32 = fma_f32_kernel
    K.exact_sum = exact_sum_kernel
    K.gather_rows = gather_rows_kernel
    K.gather_f32 = gather_f32_kernel
    K.scatter_f32 = scatter_f32_kernel
    return K


def fma_f32(a, b, c, out: np.ndarray | None = None) -> np.ndarray | None:
    """fp.fma_f32(a, b, c) computed by the numba kernel (into `out` when given: a contiguous
    float32 array of the operands' shape, which may be one of them), or None (use numpy) when
    numba is off or the operands are not float32 arrays of one shape."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and isinstance(c, np.ndarray)):
        return None
    if a.dtype != np.float32 or b.dtype != np.float32 or c.dtype != np.float32:
        return None
    shape = a.shape
    if b.shape != shape or c.shape != shape:
        return None
    if out is not None and (out.dtype != np.float32 or out.shape != shape or not out.flags.c_contiguous):
        return None
    k = _ready(a.size)
    if k is None:
        return None
    a1 = np.ascontiguousarray(a).reshape(-1)
    b1 = np.ascontiguousarray(b).reshape(-1)
    c1 = np.ascontiguousarray(c).reshape(-1)
    result = np.empty(shape, dtype=np.float32) if out is None else out
    k.fma_f32(a1, b1, c1, result.reshape(-1))
    return result


def exact_sum(a64: np.ndarray, b64: np.ndarray, c64: np.ndarray) -> np.ndarray | None:
    """C + A @ B per (blocks, M, N) element as the exact sum rounded by Sum2 (float64), or None
    when numba is off or some element is not finite (the numpy path owns NaN/Inf propagation)."""
    k = _ready(np.size(c64) * np.shape(a64)[-1])
    if k is None:
        return None
    a = np.ascontiguousarray(a64, dtype=np.float64)
    b = np.ascontiguousarray(b64, dtype=np.float64)
    c = np.ascontiguousarray(c64, dtype=np.float64)
    if a.ndim != 3 or b.ndim != 3 or c.ndim != 3:
        return None
    out = np.empty(c.shape, dtype=np.float64)
    if not k.exact_sum(a, b, c, out):
        return None
    return out


def gather_rows(words: np.ndarray, first: np.ndarray, out: np.ndarray) -> bool:
    """out[k, g, l] = words[first[g, l] + k] for uint32 words, int64 first (G, 64) and a uint32
    (dw, G, 64) destination (a view of register rows), in one compiled pass: the functional
    engine's loads, where numpy needs a gather and then a transposing copy into the rows.
    Every index must lie inside `words` (the caller checked the addresses). False (nothing
    written; use numpy) when numba is off or the arrays are not of those kinds."""
    if words.dtype != np.uint32 or out.dtype != np.uint32 or first.dtype != np.int64 or words.ndim != 1 \
            or out.ndim != 3 or first.shape != out.shape[1:] or not out.flags.writeable:
        return False
    k = _ready(out.size)
    if k is None:
        return False
    k.gather_rows(words, first, out)
    return True


def _flat_words(regs: np.ndarray, table: np.ndarray) -> bool:
    return regs.dtype == np.uint32 and regs.ndim == 1 and regs.flags.c_contiguous and table.dtype == np.int64 \
        and table.ndim == 2


def gather_f32(regs: np.ndarray, table: np.ndarray) -> np.ndarray | None:
    """float64 (rows, cols): the float32 values at flat positions `table` of the uint32 register
    words `regs` (one pass for numpy's take, view and convert: MFMA C operands). None when
    numba is off or the arrays are not of those kinds. Positions must be inside `regs`."""
    if not _flat_words(regs, table):
        return None
    k = _ready(table.size)
    if k is None:
        return None
    out = np.empty(table.shape, dtype=np.float64)
    k.gather_f32(regs, table, out)
    return out


def scatter_f32(regs: np.ndarray, table: np.ndarray, values: np.ndarray) -> bool:
    """regs[table] = float32(values) (float64 (rows, cols), rounded as numpy's astype rounds):
    an MFMA's D into its registers in one pass. False (nothing written) when numba is off or
    the arrays are not of those kinds. Positions must be inside `regs`."""
    if not _flat_words(regs, table) or values.dtype != np.float64 or values.shape != table.shape \
            or not regs.flags.writeable:
        return False
    k = _ready(table.size)
    if k is None:
        return False
    k.scatter_f32(regs, table, values)
    return True
