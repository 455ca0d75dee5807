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


@numba.njit(cache=True, nogil=True, error_model="numpy")
def fma_f32_kernel(a, b, c, out):
    """out = the correctly rounded a*b+c of float32 lanes (flat, contiguous): the CPU's fused
    multiply-add in float32, one IEEE rounding with subnormal results kept (numpy leaves MXCSR's
    flush-to-zero and denormals-are-zero off), which is the value fp.fma_f32 computes in float64
    steps. Only NaN lanes differ (x86 picks its own NaN): they get the hardware rule here.
    `out` may be one of the operands (a register written in place): each lane reads all three
    operands before it writes."""
    ou = out.view(np.uint32)
    for i in range(a.size):
        x = a[i]
        y = b[i]
        z = c[i]
        r = fma32(x, y, z)
        if r == r:
            out[i] = r
        elif x != x:  # NaN (rare): the first NaN operand quieted, else the canonical qNaN
            ou[i] = np.float32(x).view(np.uint32) | _QUIET
        elif y != y:
            ou[i] = np.float32(y).view(np.uint32) | _QUIET
        elif z != z:
            ou[i] = np.float32(z).view(np.uint32) | _QUIET
        else:
            ou[i] = _CANONICAL_NAN
