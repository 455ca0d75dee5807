"""The numba fp32 fma kernel of `accel` (this module imports numba: only `accel._build` imports it).

Why a module of its own: the kernel calls LLVM's fused multiply-add through a numba intrinsic,
and numba's on-disk cache can only key a kernel that reaches the intrinsic as a module global
(as a closure variable, the intrinsic pickles differently in every process: no cache hit ever).
"""
from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic

_QUIET = np.uint32(0x00400000)
_CANONICAL_NAN = np.uint32(0x7FC00000)


@intrinsic
def fma32(typingctx, a, b, c):
    """LLVM's llvm.fma.f32: a*b+c rounded once in float32 (one vfmadd on a CPU with FMA, a
    correctly rounded libm fmaf call elsewhere)."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        f32 = ir.FloatType()
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(f32, [f32, f32, f32]), "llvm.fma.f32")
        return builder.call(fn, args)
    return sig, codegen


_EXPONENT = np.uint32(0x7F800000)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _any_special(au, bu, cu):
    """Whether some lane has an infinite or NaN operand (exponent bits all ones): an integer
    OR over the lanes, which runs in SIMD registers."""
    acc = np.uint32(0)
    for i in range(au.size):
        acc |= ((au[i] & _EXPONENT) == _EXPONENT) | ((bu[i] & _EXPONENT) == _EXPONENT) | \
            ((cu[i] & _EXPONENT) == _EXPONENT)
    return acc != 0


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _fma_f32_nan_rule(a, b, c, out):
    """The lane loop with the hardware NaN rule: a NaN result becomes the first NaN operand
    quieted, else the canonical qNaN (x86 picks its own NaN)."""
    ou = out.view(np.uint32)
    for i in range(a.size):
        x = a[i]
        y = b[i]
        z = c[i]
        r = fma32(x, y, z)
        if r == r:
            out[i] = r
        elif x != x:
            ou[i] = np.float32(x).view(np.uint32) | _QUIET
        elif y != y:
            ou[i] = np.float32(y).view(np.uint32) | _QUIET
        elif z != z:
            ou[i] = np.float32(z).view(np.uint32) | _QUIET
        else:
            ou[i] = _CANONICAL_NAN


@numba.njit(cache=True, nogil=True, error_model="numpy")
def fma_f32_kernel(a, b, c, out):
    """out = the correctly rounded a*b+c of float32 lanes (flat, contiguous): the CPU's fused
    multiply-add in float32, one IEEE rounding with subnormal results kept (numpy leaves MXCSR's
    flush-to-zero and denormals-are-zero off), which is the value fp.fma_f32 computes in float64
    steps. `out` may be one of the operands (a register written in place): each lane reads its
    operands before it writes.

    A NaN result needs a NaN or infinite operand (the fused product of finite operands is exact,
    and a sum too large rounds to an infinity, not a NaN): lanes without one take a plain loop
    that runs in SIMD registers; otherwise the loop that applies the NaN rule lane by lane
    (measured on 64K lanes: 35 us against 180 us for the lane-by-lane loop everywhere)."""
    if _any_special(a.view(np.uint32), b.view(np.uint32), c.view(np.uint32)):
        _fma_f32_nan_rule(a, b, c, out)
        return
    for i in range(a.size):
        out[i] = fma32(a[i], b[i], c[i])
