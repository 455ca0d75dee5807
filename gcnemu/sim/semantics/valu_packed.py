"""Packed math (VOP3P): v_pk_* on two 16-bit halves, or two f32 halves of a 64-bit pair (gfx90a+).

Each source half is chosen by op_sel (for the low result) and op_sel_hi (for
the high result, default 1) and negated by neg_lo/neg_hi (floats only); this is
`Ctx.pk16`/`Ctx.pk32`. An inline float constant is an f16 value in the low
half with 0 in the high half (integer constants are sign-extended 32-bit
values), which is why compilers write `op_sel_hi:[1,0]` to use a constant for
both halves. `clamp` clamps floats to [0, 1] and saturates integers.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import fp
from ..context import Ctx
from ..fp import semantic_silent as semantic

U32 = np.uint32
F32, F16 = np.float32, np.float16


def _write_pk16(ctx: Ctx, lo: np.ndarray, hi: np.ndarray) -> None:
    ctx.write_v(0, (lo.astype(U32) & U32(0xFFFF)) | ((hi.astype(U32) & U32(0xFFFF)) << U32(16)))


def _finish16(ctx: Ctx, x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=F16)
    if ctx.clamp:
        x = fp.apply_clamp(x, ctx.mode)
    return fp.denorm_out(x, ctx.mode).view(np.uint16)


def _make_pk_f16(name: str, nsrc: int, fn: Callable) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        srcs = [ctx.pk16(1 + k, "f16") for k in range(nsrc)]
        halves = []
        for h in (0, 1):
            args = [s[h] for s in srcs]
            halves.append(_finish16(ctx, fn(ctx, *args)))
        _write_pk16(ctx, *halves)


def _arith16(fn: Callable) -> Callable:
    def run(ctx: Ctx, *args: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            r = np.asarray(fn(*(a.astype(F32) for a in args)), dtype=F32).astype(F16)
        return fp.fix_nans(r, *args)
    return run


_make_pk_f16("v_pk_add_f16", 2, _arith16(lambda a, b: a + b))
_make_pk_f16("v_pk_mul_f16", 2, _arith16(lambda a, b: a * b))
_make_pk_f16("v_pk_fma_f16", 3, lambda ctx, a, b, c: fp.fma_f16(a, b, c))
_make_pk_f16("v_pk_max_f16", 2, lambda ctx, a, b: fp.fmax(a, b, ctx.mode))
_make_pk_f16("v_pk_min_f16", 2, lambda ctx, a, b: fp.fmin(a, b, ctx.mode))


@semantic("v_pk_fmac_f16")
def v_pk_fmac_f16(ctx: Ctx, ins) -> None:
    """D = S0 * S1 + D per half (the accumulator is the destination, low and high halves)."""
    a, b = ctx.pk16(1, "f16"), ctx.pk16(2, "f16")
    d = ctx.dst_as_src(0, "u32")
    acc = ((d & U32(0xFFFF)).astype(np.uint16).view(F16), (d >> U32(16)).astype(np.uint16).view(F16))
    _write_pk16(ctx, *(_finish16(ctx, fp.fma_f16(a[h], b[h], acc[h])) for h in (0, 1)))


# ---------------------------------------------------------------- packed 16-bit integers

_SAT = {"u16": (0, 0xFFFF), "i16": (-(2**15), 2**15 - 1)}


def _make_pk_int(name: str, kind: str, nsrc: int, fn: Callable, saturating: bool = True) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        srcs = [ctx.pk16(1 + k, kind) for k in range(nsrc)]
        halves = []
        for h in (0, 1):
            exact = fn(*(s[h].astype(np.int64) for s in srcs))
            if ctx.clamp and saturating:
                exact = np.clip(exact, *_SAT[kind])
            halves.append(exact & 0xFFFF)
        _write_pk16(ctx, *halves)


for _k in ("u16", "i16"):
    _make_pk_int(f"v_pk_add_{_k}", _k, 2, lambda a, b: a + b)
    _make_pk_int(f"v_pk_sub_{_k}", _k, 2, lambda a, b: a - b)
    _make_pk_int(f"v_pk_max_{_k}", _k, 2, np.maximum, False)
    _make_pk_int(f"v_pk_min_{_k}", _k, 2, np.minimum, False)
    _make_pk_int(f"v_pk_mad_{_k}", _k, 3, lambda a, b, c: a * b + c)
_make_pk_int("v_pk_mul_lo_u16", "u16", 2, lambda a, b: a * b, False)
_make_pk_int("v_pk_lshlrev_b16", "u16", 2, lambda a, b: b << (a & 15), False)
_make_pk_int("v_pk_lshrrev_b16", "u16", 2, lambda a, b: b >> (a & 15), False)
_make_pk_int("v_pk_ashrrev_i16", "i16", 2, lambda a, b: b >> (a & 15), False)


# ---------------------------------------------------------------- packed f32 (gfx90a+)


def _make_pk_f32(name: str, nsrc: int, fn: Callable) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        srcs = [ctx.pk32(1 + k) for k in range(nsrc)]
        out = []
        for h in (0, 1):
            args = [s[h] for s in srcs]
            out.append(ctx.finish(fn(*args)).view(U32))
        ctx.write_v(0, np.stack(out))


def _arith32(fn: Callable) -> Callable:
    def run(*args: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            r = np.asarray(fn(*args), dtype=F32)
        return fp.fix_nans(r, *args)
    return run


_make_pk_f32("v_pk_add_f32", 2, _arith32(lambda a, b: a + b))
_make_pk_f32("v_pk_mul_f32", 2, _arith32(lambda a, b: a * b))
_make_pk_f32("v_pk_fma_f32", 3, fp.fma_f32)


def _pk_ieee3(pick: Callable) -> Callable:
    def run(ctx: Ctx, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        return pick(pick(a, b), c)
    return run


def _maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 maximum: NaN if either is NaN; -0 < +0."""
    out = fp.fmax(a, b, fp.FloatMode(ieee=False))
    return np.where(np.isnan(a) | np.isnan(b), fp.fix_nans(a + b, a, b), out)


def _minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = fp.fmin(a, b, fp.FloatMode(ieee=False))
    return np.where(np.isnan(a) | np.isnan(b), fp.fix_nans(a + b, a, b), out)


_make_pk_f16("v_pk_maximum3_f16", 3, _pk_ieee3(_maximum))
_make_pk_f16("v_pk_minimum3_f16", 3, _pk_ieee3(_minimum))
