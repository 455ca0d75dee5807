"""Vector conversions among f64/f32/f16/bf16 and 32/16/8-bit integers (v_cvt_*).

Rules (ISA guide; fp helpers in `gcnemu.sim.fp`):
- float -> int truncates toward zero (v_cvt_flr floors, v_cvt_rpi rounds half up),
  saturates to the destination range and turns NaN into 0;
- int -> float and float narrowing round to nearest even (v_cvt_pkrtz truncates);
- norm conversions clamp to [-1, 1] / [0, 1], scale and round to nearest even;
- input and output denormals follow MODE per format;
- 16-bit results zero the high half of the destination (gfx9).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import fp
from ..context import Ctx
from ..fp import semantic_silent as semantic

U32, U16 = np.uint32, np.uint16
F32, F16, F64 = np.float32, np.float16, np.float64


def float_to_int(x: np.ndarray, lo: int, hi: int, rounding: Callable = np.trunc) -> np.ndarray:
    """Round, saturate to [lo, hi], NaN -> 0; returns int64."""
    with np.errstate(invalid="ignore"):
        x = np.asarray(x, dtype=F64)
        r = np.clip(rounding(np.nan_to_num(x, nan=0.0, posinf=hi, neginf=lo)), lo, hi)
    return r.astype(np.int64)


def _round_half_up(x: np.ndarray) -> np.ndarray:
    """floor(x + 0.5) with the add done in x's own format, as the ISA pseudocode of v_cvt_rpi_i32_f32
    writes it (`floor(S0.f32 + 0.5F)`): 0.49999997 + 0.5 rounds to 1.0 in f32, so the result is 1."""
    with np.errstate(all="ignore"):  # (x arrives widened to f64 by float_to_int: exact, so narrow it back)
        return np.floor((x.astype(np.float32) + np.float32(0.5)).astype(np.float64))


_I32, _U32 = (-(2**31), 2**31 - 1), (0, 2**32 - 1)
_I16, _U16 = (-(2**15), 2**15 - 1), (0, 2**16 - 1)


def _make_f2i(name: str, kind: str, bounds: tuple[int, int], rounding: Callable = np.trunc) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        r = float_to_int(ctx.src(1, kind), *bounds, rounding)
        if bounds in (_I16, _U16):
            ctx.write_v16(0, (r & 0xFFFF).astype(U16))
        else:
            ctx.write_v(0, (r & 0xFFFFFFFF).astype(U32))


_make_f2i("v_cvt_i32_f32", "f32", _I32)
_make_f2i("v_cvt_u32_f32", "f32", _U32)
_make_f2i("v_cvt_i32_f64", "f64", _I32)
_make_f2i("v_cvt_u32_f64", "f64", _U32)
_make_f2i("v_cvt_i16_f16", "f16", _I16)
_make_f2i("v_cvt_u16_f16", "f16", _U16)
_make_f2i("v_cvt_rpi_i32_f32", "f32", _I32, _round_half_up)
_make_f2i("v_cvt_flr_i32_f32", "f32", _I32, np.floor)


@semantic("v_cvt_f32_i32")
def v_cvt_f32_i32(ctx: Ctx, ins) -> None:
    ctx.out_f32(0, ctx.src(1, "i32").astype(F64).astype(F32))  # exact in f64, then one RNE rounding


@semantic("v_cvt_f32_u32")
def v_cvt_f32_u32(ctx: Ctx, ins) -> None:
    ctx.out_f32(0, ctx.src(1, "u32").astype(F64).astype(F32))


@semantic("v_cvt_f64_i32")
def v_cvt_f64_i32(ctx: Ctx, ins) -> None:
    ctx.out_f64(0, ctx.src(1, "i32").astype(F64))


@semantic("v_cvt_f64_u32")
def v_cvt_f64_u32(ctx: Ctx, ins) -> None:
    ctx.out_f64(0, ctx.src(1, "u32").astype(F64))


@semantic("v_cvt_f16_u16")
def v_cvt_f16_u16(ctx: Ctx, ins) -> None:
    with np.errstate(over="ignore"):
        ctx.out_f16(0, fp._f64_to_f16(ctx.src(1, "u16").astype(F64)))


@semantic("v_cvt_f16_i16")
def v_cvt_f16_i16(ctx: Ctx, ins) -> None:
    ctx.out_f16(0, fp._f64_to_f16(ctx.src(1, "i16").astype(F64)))


@semantic("v_cvt_f32_f64")
def v_cvt_f32_f64(ctx: Ctx, ins) -> None:
    x = ctx.src(1, "f64")
    ctx.out_f32(0, fp.quieted(fp.f64_to_f32(x)))


@semantic("v_cvt_f64_f32")
def v_cvt_f64_f32(ctx: Ctx, ins) -> None:
    x = ctx.src(1, "f32")
    ctx.out_f64(0, fp.quieted(x.astype(F64)))


@semantic("v_cvt_f16_f32")
def v_cvt_f16_f32(ctx: Ctx, ins) -> None:
    bits = fp.f32_to_f16_bits(ctx.src(1, "f32"))
    ctx.out_f16(0, bits.view(F16))


@semantic("v_cvt_f32_f16")
def v_cvt_f32_f16(ctx: Ctx, ins) -> None:
    x = ctx.src(1, "f16")
    ctx.out_f32(0, fp.quieted(x.astype(F32)))


@semantic("v_cvt_f32_bf16")
def v_cvt_f32_bf16(ctx: Ctx, ins) -> None:
    """bf16 (low half, or the half SDWA selects) -> f32: exact."""
    ctx.out_f32(0, fp.quieted(ctx.src(1, "bf16")))


def _make_ubyte(k: int) -> None:
    @semantic(f"v_cvt_f32_ubyte{k}")
    def op(ctx: Ctx, ins) -> None:
        ctx.out_f32(0, ((ctx.src(1, "u32") >> U32(8 * k)) & U32(0xFF)).astype(F32))


for _k in range(4):
    _make_ubyte(_k)


@semantic("v_cvt_off_f32_i4")
def v_cvt_off_f32_i4(ctx: Ctx, ins) -> None:
    """S0[3:0] as a signed 4-bit value / 16: -0.5 .. 0.4375."""
    nib = (ctx.src(1, "u32") & U32(0xF)).astype(np.int64)
    ctx.out_f32(0, (np.where(nib >= 8, nib - 16, nib) / 16.0).astype(F32))


# ---------------------------------------------------------------- packing conversions


def _pack16(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return (lo.astype(U32) & U32(0xFFFF)) | ((hi.astype(U32) & U32(0xFFFF)) << U32(16))


def _f16_out(ctx: Ctx, bits: np.ndarray) -> np.ndarray:
    """f16 results follow the f16 output denormal mode."""
    return fp.denorm_out(bits.view(F16), ctx.mode).view(U16)


@semantic("v_cvt_pkrtz_f16_f32")
def v_cvt_pkrtz_f16_f32(ctx: Ctx, ins) -> None:
    """D = {f16_rtz(S1), f16_rtz(S0)}: round toward zero."""
    lo = _f16_out(ctx, fp.f32_to_f16_bits(ctx.src(1, "f32"), "rtz"))
    hi = _f16_out(ctx, fp.f32_to_f16_bits(ctx.src(2, "f32"), "rtz"))
    ctx.write_v(0, _pack16(lo, hi))


@semantic("v_cvt_pk_f16_f32")
def v_cvt_pk_f16_f32(ctx: Ctx, ins) -> None:
    """D = {f16(S1), f16(S0)}, round to nearest even (gfx950)."""
    lo = _f16_out(ctx, fp.f32_to_f16_bits(ctx.src(1, "f32")))
    hi = _f16_out(ctx, fp.f32_to_f16_bits(ctx.src(2, "f32")))
    ctx.write_v(0, _pack16(lo, hi))


@semantic("v_cvt_pk_bf16_f32")
def v_cvt_pk_bf16_f32(ctx: Ctx, ins) -> None:
    """D = {bf16(S1), bf16(S0)}, round to nearest even (gfx950)."""
    ctx.write_v(0, _pack16(fp.f32_to_bf16_bits(ctx.src(1, "f32")), fp.f32_to_bf16_bits(ctx.src(2, "f32"))))


def _norm(x: np.ndarray, signed: bool) -> np.ndarray:
    """Clamp to [-1, 1] (signed) or [0, 1], scale to 16 bits, round to nearest even; NaN -> 0."""
    x = np.nan_to_num(np.asarray(x, dtype=F64), nan=0.0)
    if signed:
        return np.rint(np.clip(x, -1.0, 1.0) * 32767.0).astype(np.int64)
    return np.rint(np.clip(x, 0.0, 1.0) * 65535.0).astype(np.int64)


def _make_pknorm(name: str, kind: str, signed: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        ctx.write_v(0, _pack16(_norm(ctx.src(1, kind), signed), _norm(ctx.src(2, kind), signed)))


_make_pknorm("v_cvt_pknorm_i16_f32", "f32", True)
_make_pknorm("v_cvt_pknorm_u16_f32", "f32", False)
_make_pknorm("v_cvt_pknorm_i16_f16", "f16", True)
_make_pknorm("v_cvt_pknorm_u16_f16", "f16", False)


def _make_norm16(name: str, signed: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        ctx.write_v16(0, (_norm(ctx.src(1, "f16"), signed) & 0xFFFF).astype(U16))


_make_norm16("v_cvt_norm_i16_f16", True)
_make_norm16("v_cvt_norm_u16_f16", False)


@semantic("v_cvt_pk_u16_u32")
def v_cvt_pk_u16_u32(ctx: Ctx, ins) -> None:
    """D = {sat_u16(S1), sat_u16(S0)}."""
    lo = np.minimum(ctx.src(1, "u32"), U32(0xFFFF))
    hi = np.minimum(ctx.src(2, "u32"), U32(0xFFFF))
    ctx.write_v(0, _pack16(lo, hi))


@semantic("v_cvt_pk_i16_i32")
def v_cvt_pk_i16_i32(ctx: Ctx, ins) -> None:
    """D = {sat_i16(S1), sat_i16(S0)}."""
    lo = np.clip(ctx.src(1, "i32"), *_I16)
    hi = np.clip(ctx.src(2, "i32"), *_I16)
    ctx.write_v(0, _pack16(lo.astype(np.int64) & 0xFFFF, hi.astype(np.int64) & 0xFFFF))


@semantic("v_cvt_pk_u8_f32")
def v_cvt_pk_u8_f32(ctx: Ctx, ins) -> None:
    """D = S2 with byte S1[1:0] replaced by u8(S0) (rounded to nearest even, saturated, NaN -> 0)."""
    byte = float_to_int(ctx.src(1, "f32"), 0, 255, np.rint).astype(U32)
    shift = U32(8) * (ctx.src(2, "u32") & U32(3))
    old = ctx.src(3, "u32")
    ctx.write_v(0, (old & ~(U32(0xFF) << shift)) | (byte << shift))


@semantic("v_sat_pk_u8_i16")
def v_sat_pk_u8_i16(ctx: Ctx, ins) -> None:
    """D[15:0] = {sat_u8(S0[31:16]), sat_u8(S0[15:0])} (signed 16-bit inputs)."""
    x = ctx.src(1, "u32")
    lo = np.clip((x & U32(0xFFFF)).astype(U16).view(np.int16), 0, 255).astype(U32)
    hi = np.clip((x >> U32(16)).astype(U16).view(np.int16), 0, 255).astype(U32)
    ctx.write_v16(0, (lo | (hi << U32(8))).astype(U16))
