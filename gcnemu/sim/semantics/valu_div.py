"""The division macro's helpers: v_div_scale, v_div_fmas and v_div_fixup (f32, f64; fixup also f16).

Compilers divide as: scale the numerator and denominator away from the denormal and overflow
ranges (v_div_scale, which also sets a lane mask when the quotient needs scaling back), refine
rcp(denominator) with Newton-Raphson fmas, take the last fma with the scale undone
(v_div_fmas, reading VCC), and patch the special cases (v_div_fixup: 0/0, x/0, inf/inf, NaNs).

Facts (CDNA3 ISA guide pseudo-code, unless said):
- v_div_scale D = S0, sdst lane = 0, then the first case that applies: S1 or S2 zero -> NaN;
  exponent(S2) - exponent(S1) >= 96 (768 for f64) -> lane set, D = S0 * 2**64 (2**128) when
  S0 == S1; S1 denormal -> D = S0 * 2**64; 1/S1 denormal (f64 arithmetic) and S2/S1 denormal ->
  lane set, D scaled up when S0 == S1; 1/S1 denormal -> D = S0 * 2**-64; S2/S1 denormal -> lane
  set, D scaled up when S0 == S2; exponent(S2) <= 23 (53) -> D scaled up. `exponent` is the
  biased exponent field. (AMD's bit-exact model of the RDNA4 instruction, goc
  `division_scale_value`, differs in intermediate details: it sets the lane for exponent
  differences <= -96 rather than for a denormal S2/S1, scales S0 up when exponent(S2) <= 24, and
  gives 0xffc00000 for a zero operand. The guide's version is the one modelled: with it, the
  quotients of the compiler's division sequences, the only use of these values, are IEEE's.)
- v_div_fmas D = S0 * S1 + S2, and where VCC is set the result is scaled by 2**64 (2**128 for f64)
  when S2's biased exponent exceeds the bias (|S2| >= 2) and by 2**-64 (2**-128) otherwise, with
  one rounding. The guide's pseudo-code writes a fixed 2**32 (2**64); the direction and size
  here are those of AMD's own bit-exact model of the instruction (goc `division_fmas`), and the
  only ones that undo v_div_scale's 2**64 (a quotient of a scaled denominator needs 2**+64, of a
  scaled numerator 2**-64). Input denormals are not flushed; output denormals follow MODE.
- v_div_fixup D = +-|S0| with the sign of S1 * S2, except: a NaN S2 then S1 (quieted); 0/0 and
  inf/inf -> 0xffc00000 (0xfff8...0, 0xfe00); x/0 and inf/y -> +-inf; x/inf and 0/y -> +-0;
  exponent(S2) - exponent(S1) < -150 (-1075) -> +-0 (the quotient rounds to zero); a quotient S0
  that is inf or NaN (the sequence overflowed) -> +-inf. The guide words this last clause as
  exponent(S1) == 255, which the NaN and inf cases before it already take; goc tests S0, and
  without it an overflowing f32 quotient (1e30 / 1e-30) comes out NaN. f16 has neither exponent
  clause. v_div_fixup_legacy_f16 is the same operation in the gfx8 opcode (no op_sel).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ...asm.program import Special
from .. import fp
from ..context import Ctx
from ..fp import semantic_silent as semantic


@dataclass(frozen=True)
class _Format:
    dtype: type
    uint: type
    mant: int  # fraction bits
    bias: int
    scale: int  # v_div_scale / v_div_fmas exponent step
    big: int  # exponent(S2) - exponent(S1) at or above which the quotient may overflow
    tiny: int  # exponent(S2) at or below which the numerator is tiny
    underflow: int  # exponent(S2) - exponent(S1) below which the quotient rounds to zero
    invalid: int  # v_div_fixup's NaN for 0/0 and inf/inf

    def exponent(self, x: np.ndarray) -> np.ndarray:
        bits = x.view(self.uint).astype(np.int64)
        return (bits >> self.mant) & ((1 << (8 * x.itemsize - 1 - self.mant)) - 1)

    def denormal(self, x: np.ndarray) -> np.ndarray:
        return (self.exponent(x) == 0) & (x != 0)


F32 = _Format(np.float32, np.uint32, 23, 127, 64, 96, 23, -150, 0xFFC00000)
F64 = _Format(np.float64, np.uint64, 52, 1023, 128, 768, 53, -1075, 0xFFF8000000000000)
F16 = _Format(np.float16, np.uint16, 10, 15, 0, 0, 0, 0, 0xFE00)
_FORMATS = {"f32": F32, "f64": F64, "f16": F16}


def div_scale(s0: np.ndarray, s1: np.ndarray, s2: np.ndarray, f: _Format) -> tuple[np.ndarray, np.ndarray]:
    """(D, lane mask) of v_div_scale for S0 (value to scale), S1 (denominator), S2 (numerator)."""
    up = np.ldexp(s0, f.scale).astype(f.dtype)
    down = np.ldexp(s0, -f.scale).astype(f.dtype)
    e1, e2 = f.exponent(s1), f.exponent(s2)
    rcp_denormal = F64.denormal(1.0 / s1.astype(np.float64))
    q_denormal = f.denormal((s2 / s1).astype(f.dtype))
    cases = [  # (condition, sets the lane, new D or None (D stays S0) where it applies)
        ((s2 == 0) | (s1 == 0), False, np.full_like(s0, fp.canonical_nan(f.dtype))),
        (e2 - e1 >= f.big, True, np.where(s0 == s1, up, s0)),
        (f.denormal(s1), False, up),
        (rcp_denormal & q_denormal, True, np.where(s0 == s1, up, s0)),
        (rcp_denormal, False, down),
        (q_denormal, True, np.where(s0 == s2, up, s0)),
        (e2 <= f.tiny, False, up),
    ]
    d, vcc = s0.copy(), np.zeros(s0.shape, dtype=bool)
    open_ = np.ones(s0.shape, dtype=bool)  # lanes no earlier case took
    for cond, sets, value in cases:
        take = open_ & cond
        d = np.where(take, value, d)
        if sets:
            vcc |= take
        open_ &= ~cond
    return d, vcc


def _scaled_fma_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(a*b + c) * 2**k rounded once to float32: the exact product and a sum rounded to odd in
    float64 (53 >= 24 + 2 bits), scaled exactly, then rounded to nearest even."""
    a64, b64, c64 = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    s = fp._round_to_odd_sum(a64 * b64, c64)
    return fp.fix_nans(np.ldexp(s, k).astype(np.float32), a, b, c)


def _scaled_fma_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(a*b + c) * 2**k rounded once to float64: exact rationals for finite lanes."""
    out = np.ldexp(a * b + c, k)
    for i in np.nonzero(np.isfinite(a) & np.isfinite(b) & np.isfinite(c))[0]:
        exact = (Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))) * Fraction(2) ** int(k[i])
        if exact == 0:
            continue  # the zero (and its sign) of the unscaled sum
        try:
            out[i] = float(exact)
        except OverflowError:
            out[i] = np.inf if exact > 0 else -np.inf
    return fp.fix_nans(out, a, b, c)


def div_fmas(a: np.ndarray, b: np.ndarray, c: np.ndarray, vcc: np.ndarray, f: _Format) -> np.ndarray:
    """a*b + c, scaled by 2**+-scale where `vcc` is set (up when |c| >= 2), one rounding."""
    fma = fp.fma_f32 if f is F32 else fp.fma_f64
    out = fma(a, b, c)
    if vcc.any():
        k = np.where(f.exponent(c) > f.bias, f.scale, -f.scale).astype(np.int32)
        scaled = (_scaled_fma_f32 if f is F32 else _scaled_fma_f64)(a[vcc], b[vcc], c[vcc], k[vcc])
        out = out.copy()
        out[vcc] = scaled
    return out


def div_fixup(s0: np.ndarray, s1: np.ndarray, s2: np.ndarray, f: _Format) -> np.ndarray:
    """v_div_fixup: the quotient S0 of S2 / S1 with every special case of IEEE division applied."""
    neg = np.signbit(s1) ^ np.signbit(s2)
    one = np.ones_like(s0)

    def signed(x):
        return np.where(neg, -x * one, x * one)

    inf1, inf2 = np.isinf(s1), np.isinf(s2)
    cases = [
        (np.isnan(s2), fp.quieted(s2)),
        (np.isnan(s1), fp.quieted(s1)),
        (((s1 == 0) & (s2 == 0)) | (inf1 & inf2), np.full_like(s0, f.uint(f.invalid).view(f.dtype))),
        ((s1 == 0) | inf2, signed(np.inf)),
        (inf1 | (s2 == 0), signed(0.0)),
    ]
    if f is not F16:
        cases.append((f.exponent(s2) - f.exponent(s1) < f.underflow, signed(0.0)))
    out = signed(np.abs(s0))
    if f is not F16:
        cases.append((f.exponent(s0) == f.exponent(np.asarray(np.inf, dtype=f.dtype)), signed(np.inf)))
    for cond, value in reversed(cases):  # the first case that applies wins: apply in reverse
        out = np.where(cond, value, out)
    return out.astype(f.dtype)


def _kind(ctx: Ctx) -> str:
    return ctx.base.rsplit("_", 1)[1]


def _out(ctx: Ctx, kind: str, x: np.ndarray) -> None:
    if kind == "f32":
        ctx.out_f32(0, x)
    elif kind == "f64":
        ctx.out_f64(0, x)
    else:
        ctx.out_f16(0, x)


@semantic("v_div_scale_f32", "v_div_scale_f64")
def v_div_scale(ctx: Ctx, ins) -> None:
    """vdst, sdst, S0, S1, S2: S0 scaled for the division S2 / S1; sdst: quotient needs rescaling."""
    kind = _kind(ctx)
    d, vcc = div_scale(ctx.src(2, kind), ctx.src(3, kind), ctx.src(4, kind), _FORMATS[kind])
    _out(ctx, kind, d)
    ctx.write_lane_mask(1, vcc & ctx.lanes_written())


@semantic("v_div_fmas_f32", "v_div_fmas_f64")
def v_div_fmas(ctx: Ctx, ins) -> None:
    """D = S0 * S1 + S2, rescaled where VCC (set by v_div_scale) says so."""
    kind = _kind(ctx)
    a, b, c = (ctx.src(i, kind, flush=False) for i in (1, 2, 3))
    vcc = ctx.lane_mask(Special("vcc", ins.span))
    _out(ctx, kind, div_fmas(a, b, c, vcc, _FORMATS[kind]))


@semantic("v_div_fixup_f32", "v_div_fixup_f64", "v_div_fixup_f16", "v_div_fixup_legacy_f16")
def v_div_fixup(ctx: Ctx, ins) -> None:
    """D = the quotient S0 of S2 / S1 with division's special cases applied."""
    kind = _kind(ctx)
    _out(ctx, kind, div_fixup(ctx.src(1, kind), ctx.src(2, kind), ctx.src(3, kind), _FORMATS[kind]))
