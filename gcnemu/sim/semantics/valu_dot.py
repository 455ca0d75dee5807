"""Dot products, mixed-precision fma, 3-input bit operations and lane-swap permutes.

- v_dot2_f32_f16 / v_dot2_f32_bf16 (and the accumulating VOP2 `c` forms):
  S0.lo*S1.lo + S0.hi*S1.hi + S2 in f32. gcnemu rounds the exact sum once
  (a fused dot product); the ISA guide does not state the intermediate
  rounding, so results may differ from hardware by an ulp when the sum cancels.
- integer dots (dot2 16-bit, dot4 8-bit, dot8 4-bit, signed and unsigned) are
  exact; `clamp` saturates to the 32-bit range, otherwise the sum wraps.
- v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: each source is an f32
  register (op_sel_hi bit 0) or an f16 half (op_sel_hi bit 1, op_sel picks the
  half); the fma is fused in f32. mixlo/mixhi round to f16 and write one half of
  the destination, keeping the other.
- v_bitop3_b32/b16 (gfx950): each result bit is bit (S0<<2 | S1<<1 | S2) of the
  8-bit truth table `bitop3:`.
- v_permlane16_swap_b32 / v_permlane32_swap_b32 (gfx950): the odd rows of 16
  lanes (permlane16) or the upper 32 lanes (permlane32) of the first operand are
  exchanged with the even rows / lower 32 lanes of the second; both registers
  are written, in the lanes EXEC enables.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .. import fp
from ..context import Ctx
from ..fp import semantic_silent as semantic

U32, I64 = np.uint32, np.int64
F16, F32, F64 = np.float16, np.float32, np.float64
M32 = 0xFFFFFFFF


def exact_sum_to_f32(terms: list[np.ndarray]) -> np.ndarray:
    """Sum of float64 terms that are each exact, rounded once to f32 (exact rationals where f64 would round).

    A lane with a NaN or infinite term takes the float sum's IEEE answer (NaN propagates, inf plus
    a finite value is inf, inf + -inf is NaN): no rational exists for it, and the order of the
    additions cannot change which of those it is."""
    with np.errstate(all="ignore"):
        total = np.zeros_like(terms[0])
        inexact = np.zeros(total.shape, dtype=bool)
        finite = np.ones(total.shape, dtype=bool)
        for t in terms:
            s = total + t
            bp = s - total
            err = (total - (s - bp)) + (t - bp)
            inexact |= np.isfinite(s) & (err != 0)
            finite &= np.isfinite(t)
            total = s
        inexact &= finite
        out = total.astype(F32)
    for i in np.nonzero(inexact)[0]:
        exact = sum((Fraction(float(t[i])) for t in terms), Fraction(0))
        out[i] = _fraction_to_f32(exact)
    return out


def _fraction_to_f32(q: Fraction) -> np.float32:
    """Correct RNE rounding of a rational to float32 (via float64 round-to-odd)."""
    d = float(q)  # nearest float64
    if Fraction(d) != q:
        lo = d if Fraction(d) < q else float(np.nextafter(d, -np.inf))
        hi = float(np.nextafter(lo, np.inf))
        d = lo if int(np.float64(lo).view(np.uint64)) & 1 else hi  # the odd neighbour: round to odd
    with np.errstate(all="ignore"):
        return np.float32(d)


def _make_dot2_float(name: str, kind: str, accumulate: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a_lo, a_hi = ctx.pk16(1, kind)
        b_lo, b_hi = ctx.pk16(2, kind)
        c = ctx.dst_as_src(0, "f32") if accumulate else ctx.src(3, "f32")
        terms = [a_lo.astype(F64) * b_lo.astype(F64), a_hi.astype(F64) * b_hi.astype(F64), c.astype(F64)]
        r = exact_sum_to_f32(terms)
        ctx.out_f32(0, fp.fix_nans(r, c))


_make_dot2_float("v_dot2_f32_f16", "f16", False)
_make_dot2_float("v_dot2c_f32_f16", "f16", True)
_make_dot2_float("v_dot2_f32_bf16", "bf16", False)
_make_dot2_float("v_dot2c_f32_bf16", "bf16", True)


def _parts(x: np.ndarray, bits: int, signed: bool) -> list[np.ndarray]:
    out = []
    for k in range(0, 32, bits):
        v = ((x >> U32(k)) & U32((1 << bits) - 1)).astype(I64)
        if signed:
            v = np.where(v >= 1 << (bits - 1), v - (1 << bits), v)
        out.append(v)
    return out


def _make_dot_int(name: str, bits: int, signed: bool, accumulate: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Sum of the 32/bits element products plus S2 (or the destination), exact; clamp saturates."""
        if bits == 16 and not accumulate:
            kind = "i16" if signed else "u16"
            a = [x.astype(I64) for x in ctx.pk16(1, kind)]
            b = [x.astype(I64) for x in ctx.pk16(2, kind)]
        else:
            a = _parts(ctx.src(1, "u32"), bits, signed)
            b = _parts(ctx.src(2, "u32"), bits, signed)
        c = (ctx.dst_as_src(0, "i32" if signed else "u32") if accumulate else
             ctx.src(3, "i32" if signed else "u32")).astype(I64)
        total = c + sum(x * y for x, y in zip(a, b))
        if ctx.clamp:
            total = np.clip(total, -(2**31), 2**31 - 1) if signed else np.clip(total, 0, M32)
        ctx.write_v(0, (total & M32).astype(U32))


for _sgn, _s in (("i", True), ("u", False)):
    _make_dot_int(f"v_dot2_{_sgn}32_{_sgn}16", 16, _s, False)
    _make_dot_int(f"v_dot4_{_sgn}32_{_sgn}8", 8, _s, False)
    _make_dot_int(f"v_dot8_{_sgn}32_{_sgn}4", 4, _s, False)
_make_dot_int("v_dot2c_i32_i16", 16, True, True)
_make_dot_int("v_dot4c_i32_i8", 8, True, True)
_make_dot_int("v_dot8c_i32_i4", 4, True, True)


# ---------------------------------------------------------------- mixed precision fma


def _mix_source(ctx: Ctx, i: int) -> np.ndarray:
    """f32 value of a mix source: an f32 register, or the f16 half op_sel picks when op_sel_hi is set."""
    s = ctx.src_number(i)
    operand = ctx.op(i)
    is_f16 = ctx._bit_list("op_sel_hi", 3, 0)[s]
    neg = ctx._bit_list("neg_lo", 3, 0)[s]
    absolute = ctx._bit_list("neg_hi", 3, 0)[s]  # for mix instructions neg_hi is the abs modifier
    if is_f16:
        half = ctx._bit_list("op_sel", 3, 0)[s]
        inner = getattr(operand, "inner", operand)
        bits = ctx._raw_lanes(inner, "f16", s, False).astype(U32)
        h = ((bits >> U32(16)) if half else bits) & U32(0xFFFF)
        x = fp.denorm_in(h.astype(np.uint16).view(F16), ctx.mode).astype(F32)
    else:
        inner = getattr(operand, "inner", operand)
        x = fp.denorm_in(ctx._raw_lanes(inner, "f32", s, False).astype(U32).view(F32), ctx.mode)
    if getattr(operand, "abs", False) or absolute:
        x = np.abs(x)
    if getattr(operand, "neg", False) != bool(neg):
        x = -x
    return x


def _mix(ctx: Ctx) -> np.ndarray:
    a, b, c = (_mix_source(ctx, k) for k in (1, 2, 3))
    return fp.fma_f32(a, b, c)


@semantic("v_fma_mix_f32")
def v_fma_mix_f32(ctx: Ctx, ins) -> None:
    ctx.out_f32(0, _mix(ctx))


def _make_mix16(name: str, high: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Round the f32 fma to f16 and write one half of the destination, keeping the other."""
        r = _mix(ctx)
        if ctx.clamp:
            r = fp.apply_clamp(r, ctx.mode)
        bits = fp.denorm_out(fp.f32_to_f16_bits(r).view(F16), ctx.mode).view(np.uint16).astype(U32)
        old = ctx.vector_value(ctx.op(0), "int", quiet=True)
        ctx.write_v(0, (old & U32(0xFFFF)) | (bits << U32(16)) if high else (old & U32(0xFFFF0000)) | bits)


_make_mix16("v_fma_mixlo_f16", False)
_make_mix16("v_fma_mixhi_f16", True)


# ---------------------------------------------------------------- bitop3 (gfx950)


def bitop3(a: np.ndarray, b: np.ndarray, c: np.ndarray, table: int) -> np.ndarray:
    """Each result bit is table[(a << 2) | (b << 1) | c] of the operands' bits."""
    out = np.zeros_like(a)
    for idx in range(8):
        if (table >> idx) & 1:
            out |= (a if idx & 4 else ~a) & (b if idx & 2 else ~b) & (c if idx & 1 else ~c)
    return out


@semantic("v_bitop3_b32")
def v_bitop3_b32(ctx: Ctx, ins) -> None:
    table = int(ins.modifier("bitop3", 0))
    ctx.write_v(0, bitop3(ctx.src(1, "u32"), ctx.src(2, "u32"), ctx.src(3, "u32"), table))


@semantic("v_bitop3_b16")
def v_bitop3_b16(ctx: Ctx, ins) -> None:
    table = int(ins.modifier("bitop3", 0))
    ctx.write_v16(0, bitop3(ctx.src(1, "u16"), ctx.src(2, "u16"), ctx.src(3, "u16"), table))


# ---------------------------------------------------------------- lane swaps (gfx950)


def _make_permlane_swap(name: str, size: int) -> None:
    lanes = np.arange(64)
    first_part = (lanes // size) % 2 == 1  # odd rows / upper half of the first operand
    partner = lanes - size  # ... pair with the even rows / lower half of the second

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        x = ctx.vector_value(ctx.op(0), "int")
        y = ctx.vector_value(ctx.op(1), "int")
        new_x, new_y = x.copy(), y.copy()
        odd = np.nonzero(first_part)[0]
        new_x[odd] = y[partner[odd]]
        new_y[partner[odd]] = x[odd]
        ctx.write_v(0, new_x)
        ctx.write_v(1, new_y)


_make_permlane_swap("v_permlane16_swap_b32", 16)
_make_permlane_swap("v_permlane32_swap_b32", 32)
