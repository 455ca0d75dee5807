"""8-bit float conversions (gfx942: FNUZ formats, gfx950: OCP formats).

fp8 is E4M3 and bf8 is E5M2; gfx942 uses the FNUZ variants (no infinities, a
single NaN 0x80, exponent bias 8/16) and gfx950 the OCP ones (E4M3FN: NaN but no
inf, max 448; E5M2: IEEE-like with inf). Decoding is exact. Encoding rounds to
nearest even; a value beyond the format's range becomes NaN (inf for OCP E5M2):
the conversion does not saturate (llvm-mc accepts no clamp on it; HIP clamps in
software before converting when it wants saturation). The
byte (or word, for the packed forms) is chosen with SDWA `src0_sel`; the packed
encoder writes the word the destination bit of `op_sel` (its third entry) selects and keeps the other one.
"""
from __future__ import annotations

from functools import cache

import numpy as np

from ..context import Ctx
from ..fp import semantic_silent as semantic

U32 = np.uint32
F32 = np.float32

_FORMATS = {("fp8", "fnuz"): "float8_e4m3fnuz", ("bf8", "fnuz"): "float8_e5m2fnuz",
            ("fp8", "ocp"): "float8_e4m3fn", ("bf8", "ocp"): "float8_e5m2"}


@cache
def _ml_dtypes():
    """ml_dtypes, imported at the first fp8 conversion: importing it costs ~0.75 s here (its
    extension module), which every `gcnemu` command paid at start-up when it was imported with
    this module, for the few kernels that convert fp8."""
    import ml_dtypes
    return ml_dtypes


def fp8_dtype(ctx: Ctx, kind: str):
    """The numpy dtype of `kind` ('fp8' or 'bf8') on the context's target."""
    flavour = "ocp" if ctx.target == "gfx950" else "fnuz"
    return getattr(_ml_dtypes(), _FORMATS[(kind, flavour)])


def decode(byte: np.ndarray, dtype) -> np.ndarray:
    return (np.asarray(byte) & 0xFF).astype(np.uint8).view(dtype).astype(F32)


def encode(x: np.ndarray, dtype, saturate: bool) -> np.ndarray:
    x = np.asarray(x, dtype=F32)
    if saturate:
        top = F32(float(_ml_dtypes().finfo(dtype).max))
        x = np.where(np.isnan(x), x, np.clip(x, -top, top))
    return x.astype(dtype).view(np.uint8).astype(U32)


def _make_decode(kind: str) -> None:
    @semantic(f"v_cvt_f32_{kind}")
    def one(ctx: Ctx, ins) -> None:
        ctx.out_f32(0, decode(ctx.src(1, "u32"), fp8_dtype(ctx, kind)))

    @semantic(f"v_cvt_pk_f32_{kind}")
    def pair(ctx: Ctx, ins) -> None:
        """Bytes 0 and 1 of the (SDWA-selected) word to two f32 registers."""
        x = ctx.src(1, "u32")
        dt = fp8_dtype(ctx, kind)
        ctx.write_v(0, np.stack([decode(x, dt).view(U32), decode(x >> U32(8), dt).view(U32)]))


def _make_encode(kind: str) -> None:
    @semantic(f"v_cvt_pk_{kind}_f32")
    def op(ctx: Ctx, ins) -> None:
        dt = fp8_dtype(ctx, kind)
        lo = encode(ctx.src(1, "f32"), dt, ctx.clamp)
        hi = encode(ctx.src(2, "f32"), dt, ctx.clamp)
        word = lo | (hi << U32(8))
        sel = ctx._bit_list("op_sel", 3, 0)  # [src0, src1, dst]: the destination bit picks the word
        old = ctx.vector_value(ctx.op(0), "int", quiet=True)
        if sel[2]:
            ctx.write_v(0, (old & U32(0x0000FFFF)) | (word << U32(16)))
        else:
            ctx.write_v(0, (old & U32(0xFFFF0000)) | word)


for _k in ("fp8", "bf8"):
    _make_decode(_k)
    _make_encode(_k)
