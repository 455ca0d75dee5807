"""Vector ALU floating-point semantics: f32, f16 and f64 arithmetic, min/max, rounding, transcendentals.

Numerics (see `gcnemu.sim.fp` for why each is exact):
- add/sub/mul round once to the destination format (f16 computed in float32);
- v_fma_* / v_fmac_* are fused and correctly rounded; v_mad_f32/v_mac_f32 (and
  the f16 mad/mac) are unfused and flush denormals whatever MODE says, as the
  hardware does;
- min/max follow MODE.IEEE: a signalling NaN gives a quiet NaN, a single quiet
  NaN gives the other operand, -0 orders below +0;
- NaN results carry the first NaN operand's payload (quieted) or the canonical
  +qNaN;
- transcendentals (TRANSCENDENTAL below) are computed in float64 and rounded
  once: correctly rounded, so within the hardware's 1 ulp but not bit-exact.
Output modifiers: omod then clamp (`Ctx.finish`), output denormals per MODE.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from .. import fp
from ..context import Ctx
from ..fp import semantic_silent as semantic
from . import vector_f32_op

F32, F16, F64 = np.float32, np.float16, np.float64

# Instructions executed by the transcendental unit (quarter rate on CDNA); the
# timing model and the opcode table classify them by this set.
TRANSCENDENTAL = frozenset({
    "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32", "v_exp_f32", "v_log_f32", "v_sin_f32",
    "v_cos_f32", "v_rcp_f16", "v_rsq_f16", "v_sqrt_f16", "v_exp_f16", "v_log_f16", "v_sin_f16", "v_cos_f16",
    "v_rcp_f64", "v_rsq_f64", "v_sqrt_f64",
})

# 16-bit VALU results whose high half gfx9 preserves (LLVM GCNSubtarget::zeroesHigh16BitsOfDest).
PRESERVES_HIGH16 = frozenset({"v_mac_f16", "v_madak_f16", "v_madmk_f16", "v_fmac_f16"})


def _f(kind: str):
    return {"f32": F32, "f16": F16, "f64": F64}[kind]


def _out(ctx: Ctx, kind: str, x: np.ndarray, flush: bool | None = None) -> None:
    if kind == "f32":
        ctx.out_f32(0, np.asarray(x, dtype=F32), flush=flush)
    elif kind == "f16":
        x = np.asarray(x, dtype=F16)
        if flush:
            x = fp.flush(x)
        ctx.out_f16(0, x, preserve_high=ctx.base in PRESERVES_HIGH16)
    else:
        ctx.out_f64(0, np.asarray(x, dtype=F64))


def _compute(kind: str, fn: Callable, *args: np.ndarray) -> np.ndarray:
    """fn over the operands, rounded once to `kind` (f16 computed in float32), NaNs per the hardware rule."""
    with np.errstate(all="ignore"):
        if kind == "f16":
            r = np.asarray(fn(*(a.astype(F32) for a in args)), dtype=F32).astype(F16)
        else:
            r = np.asarray(fn(*args), dtype=_f(kind))
    return fp.fix_nans(r, *args)


# ---------------------------------------------------------------- add / sub / mul


_BINARY: dict[str, Callable] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "subrev": lambda a, b: b - a, "mul": lambda a, b: a * b,
}


def _make_binary(name: str, kind: str, fn: Callable) -> None:
    lanes = functools.partial(_compute, kind, fn)
    if kind == "f32":  # in the table the engine compiles issue plans from (gcnemu.sim.plans)
        vector_f32_op(name, 2, False, lanes)

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a, b = ctx.src(1, kind), ctx.src(2, kind)
        _out(ctx, kind, lanes(a, b))


for _op, _fn in _BINARY.items():
    for _k in ("f32", "f16"):
        _make_binary(f"v_{_op}_{_k}", _k, _fn)
_make_binary("v_add_f64", "f64", _BINARY["add"])
_make_binary("v_mul_f64", "f64", _BINARY["mul"])


def _mul_legacy(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """DX9 multiply: 0 times anything (inf, NaN included) is +0."""
    return np.where((a == 0) | (b == 0), F32(0.0), a * b)


_mul_legacy_f32 = functools.partial(_compute, "f32", _mul_legacy)
vector_f32_op("v_mul_legacy_f32", 2, False, _mul_legacy_f32)


@semantic("v_mul_legacy_f32")
def v_mul_legacy_f32(ctx: Ctx, ins) -> None:
    a, b = ctx.src(1, "f32"), ctx.src(2, "f32")
    _out(ctx, "f32", _mul_legacy_f32(a, b))


# ---------------------------------------------------------------- fused and unfused multiply-add


_FMA = {"f32": fp.fma_f32, "f16": fp.fma_f16, "f64": fp.fma_f64}


def _make_fma(name: str, kind: str, form: str) -> None:
    """form: 'abc' (D = S0*S1+S2), 'acc' (D = S0*S1+D), 'ak' (D = S0*S1+K), 'mk' (D = S0*K+S1)."""
    if kind == "f32":  # every form reads its sources in operand order (then D for 'acc'): see _operands
        vector_f32_op(name, 2 if form == "acc" else 3, form == "acc", _FMA[kind])

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a, b, c = _operands(ctx, kind, form)
        _out(ctx, kind, _FMA[kind](a, b, c))


def _operands(ctx: Ctx, kind: str, form: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if form == "abc":
        return ctx.src(1, kind), ctx.src(2, kind), ctx.src(3, kind)
    if form == "acc":
        return ctx.src(1, kind), ctx.src(2, kind), ctx.dst_as_src(0, kind)
    if form == "ak":
        return ctx.src(1, kind), ctx.src(2, kind), ctx.src(3, kind)
    return ctx.src(1, kind), ctx.src(2, kind), ctx.src(3, kind)  # mk: S0, K, S1 in operand order


for _k in ("f32", "f16", "f64"):
    _make_fma(f"v_fma_{_k}", _k, "abc")
_make_fma("v_fma_legacy_f16", "f16", "abc")
_make_fma("v_fmac_f32", "f32", "acc")
_make_fma("v_fmac_f64", "f64", "acc")
_make_fma("v_fmac_f16", "f16", "acc")
_make_fma("v_fmaak_f32", "f32", "ak")
_make_fma("v_fmamk_f32", "f32", "mk")


def _make_mad(name: str, kind: str, form: str, legacy: bool = False) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Unfused: the product is rounded (and denormals flushed) before the add."""
        a, b, c = (fp.flush(x) for x in _operands(ctx, kind, form))
        with np.errstate(all="ignore"):
            if kind == "f16":
                prod = fp.flush((a.astype(F32) * b.astype(F32)).astype(F16))
                r = (prod.astype(F32) + c.astype(F32)).astype(F16)
            else:
                prod = fp.flush(_mul_legacy(a, b) if legacy else a * b)
                r = prod + c
        _out(ctx, kind, fp.fix_nans(r, a, b, c), flush=True)


_make_mad("v_mad_f32", "f32", "abc")
_make_mad("v_mac_f32", "f32", "acc")
_make_mad("v_madak_f32", "f32", "ak")
_make_mad("v_madmk_f32", "f32", "mk")
_make_mad("v_mad_legacy_f32", "f32", "abc", legacy=True)
_make_mad("v_mad_f16", "f16", "abc")
_make_mad("v_mad_legacy_f16", "f16", "abc")
_make_mad("v_mac_f16", "f16", "acc")
_make_mad("v_madak_f16", "f16", "ak")
_make_mad("v_madmk_f16", "f16", "mk")


# ---------------------------------------------------------------- min / max / med3


def _med3(a: np.ndarray, b: np.ndarray, c: np.ndarray, mode: fp.FloatMode) -> np.ndarray:
    """ISA pseudo-code: any NaN -> min3; else the max of the two operands that are not the max3."""
    mx = fp.fmax(fp.fmax(a, b, mode), c, mode)
    any_nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    out = np.where(mx == a, fp.fmax(b, c, mode), np.where(mx == b, fp.fmax(a, c, mode), fp.fmax(a, b, mode)))
    return np.where(any_nan, fp.fmin(fp.fmin(a, b, mode), c, mode), out)


def _make_minmax(name: str, kind: str, nsrc: int, fn: Callable) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        vals = [ctx.src(1 + k, kind) for k in range(nsrc)]
        _out(ctx, kind, fn(*vals, ctx.mode))


for _k in ("f32", "f16", "f64"):
    _make_minmax(f"v_min_{_k}", _k, 2, fp.fmin)
    _make_minmax(f"v_max_{_k}", _k, 2, fp.fmax)
for _k in ("f32", "f16"):
    _make_minmax(f"v_min3_{_k}", _k, 3, lambda a, b, c, m: fp.fmin(fp.fmin(a, b, m), c, m))
    _make_minmax(f"v_max3_{_k}", _k, 3, lambda a, b, c, m: fp.fmax(fp.fmax(a, b, m), c, m))
    _make_minmax(f"v_med3_{_k}", _k, 3, _med3)


# ---------------------------------------------------------------- rounding, fract, ldexp, frexp


_ROUND: dict[str, Callable] = {"trunc": np.trunc, "ceil": np.ceil, "floor": np.floor, "rndne": np.rint}
_FRACT_MAX = {"f32": np.uint32(0x3F7FFFFF).view(F32), "f16": np.uint16(0x3BFF).view(F16),
              "f64": np.uint64(0x3FEFFFFFFFFFFFFF).view(F64)}


def _make_unary(name: str, kind: str, fn: Callable) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        x = ctx.src(1, kind)
        with np.errstate(all="ignore"):
            r = np.asarray(fn(x), dtype=_f(kind))
        _out(ctx, kind, fp.fix_nans(r, x))


def _fract(kind: str) -> Callable:
    def fn(x: np.ndarray) -> np.ndarray:
        """x - floor(x), kept below 1.0 (tiny negatives would round up to 1); +-inf -> NaN."""
        r = np.minimum(x - np.floor(x), _FRACT_MAX[kind])
        return np.where(np.isinf(x), fp.canonical_nan(x.dtype), r)
    return fn


for _k in ("f32", "f16", "f64"):
    for _op, _fn in _ROUND.items():
        _make_unary(f"v_{_op}_{_k}", _k, _fn)
    _make_unary(f"v_fract_{_k}", _k, _fract(_k))
    # +-inf and NaN pass through unchanged (ISA pseudocode: `if S0 == +-INF or isNAN(S0) then D0 = S0`)
    _make_unary(f"v_frexp_mant_{_k}", _k,
                lambda x: np.where(np.isfinite(x), np.frexp(np.where(np.isfinite(x), x, 0))[0], x))


def _make_transcendental(name: str, kind: str, fn: str) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        _out(ctx, kind, fp.transcendental(fn, ctx.src(1, kind)))


for _name in TRANSCENDENTAL:
    _parts = _name.split("_")
    _make_transcendental(_name, _parts[-1], "rcp" if _parts[1] == "rcp" else _parts[1])


def _make_ldexp(name: str, kind: str, exp_kind: str) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D = S0 * 2**S1, rounded once (denormal results rounded to nearest even)."""
        x = ctx.src(1, kind)
        n = np.clip(ctx.src(2, exp_kind).astype(np.int64), -2000, 2000).astype(np.int32)
        with np.errstate(all="ignore"):
            r = np.ldexp(x.astype(F64), n) if kind == "f16" else np.ldexp(x, n)
            r = fp._f64_to_f16(r) if kind == "f16" else r
        _out(ctx, kind, fp.fix_nans(np.asarray(r, dtype=_f(kind)), x))


_make_ldexp("v_ldexp_f32", "f32", "i32")
_make_ldexp("v_ldexp_f64", "f64", "i32")
_make_ldexp("v_ldexp_f16", "f16", "i16")


def _frexp_exp(x: np.ndarray) -> np.ndarray:
    """Exponent of frexp (x = m * 2**e, 0.5 <= |m| < 1); 0 for zero, inf and NaN."""
    e = np.frexp(np.where(np.isfinite(x), x, 0))[1]
    return np.where(np.isfinite(x), e, 0)


@semantic("v_frexp_exp_i32_f32", "v_frexp_exp_i32_f64")
def v_frexp_exp_i32(ctx: Ctx, ins) -> None:
    kind = "f64" if ctx.base.endswith("f64") else "f32"
    ctx.write_v(0, _frexp_exp(ctx.src(1, kind)).astype(np.int32).view(np.uint32))


@semantic("v_frexp_exp_i16_f16")
def v_frexp_exp_i16_f16(ctx: Ctx, ins) -> None:
    ctx.write_v16(0, _frexp_exp(ctx.src(1, "f16")).astype(np.int16).view(np.uint16))


# ---------------------------------------------------------------- NaN-propagating maximum/minimum (gfx950), packing


def ieee_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 maximum: any NaN operand gives NaN; -0 < +0."""
    out = fp.fmax(a, b, fp.FloatMode(ieee=False))
    return np.where(np.isnan(a) | np.isnan(b), fp.fix_nans(a + b, a, b), out)


def ieee_minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = fp.fmin(a, b, fp.FloatMode(ieee=False))
    return np.where(np.isnan(a) | np.isnan(b), fp.fix_nans(a + b, a, b), out)


_make_minmax("v_maximum3_f32", "f32", 3, lambda a, b, c, m: ieee_maximum(ieee_maximum(a, b), c))
_make_minmax("v_minimum3_f32", "f32", 3, lambda a, b, c, m: ieee_minimum(ieee_minimum(a, b), c))


@semantic("v_pack_b32_f16")
def v_pack_b32_f16(ctx: Ctx, ins) -> None:
    """D = {S1.f16, S0.f16}: two halves (op_sel picks each source's half; neg/abs flip sign bits)."""
    lo = ctx.src(1, "f16", flush=False).view(np.uint16).astype(np.uint32)
    hi = ctx.src(2, "f16", flush=False).view(np.uint16).astype(np.uint32)
    ctx.write_v(0, lo | (hi << np.uint32(16)))


# ---------------------------------------------------------------- v_trig_preop_f64


def _two_over_pi_words(count: int = 37) -> tuple[int, ...]:
    """The fraction bits of 2/pi as 32-bit words (word 0 holds bits 1-32 after the binary
    point), computed here with integer arithmetic: pi by Machin's formula with guard bits."""
    bits = 32 * count + 64  # guard bits beyond the table

    def arctan_inv(x: int) -> int:  # atan(1/x) * 2**bits
        total = term = (1 << bits) // x
        n, sign, x2 = 1, -1, x * x
        while term:
            term //= x2
            n += 2
            total += sign * (term // n)
            sign = -sign
        return total
    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)  # pi * 2**bits
    frac = (2 << (2 * bits)) // pi  # 2/pi * 2**bits
    frac >>= 64  # drop the guard bits: 32 * count bits of fraction
    return tuple((frac >> (32 * (count - 1 - k))) & 0xFFFFFFFF for k in range(count))


TWO_OVER_PI = _two_over_pi_words()
_TWO_OVER_PI_WORDS = np.array(TWO_OVER_PI, dtype=np.uint64)


@semantic("v_trig_preop_f64")
def v_trig_preop_f64(ctx: Ctx, ins) -> None:
    """D.f64 = the 53-bit segment of 2/pi that range reduction of S0.f64 needs, selected by
    S1.u32[4:0] (ISA guide: "Look Up 2/PI (S0.d) with segment select S1.u[4:0] ... Rounding is
    always round-to-zero. Large inputs (exp > 1968) are scaled to avoid loss of precision through
    denormalization"). The bit positions follow LLVM's constant folding of llvm.amdgcn.trig.preop
    (AMDGPUInstCombineIntrinsic.cpp), which must agree with the hardware: shift = segment * 53,
    plus (exponent - 1077) when S0's biased exponent exceeds 1077; the result is the 53 bits of
    2/pi after the first `shift` fraction bits, times 2**(-53 - shift) (2**(75 - shift) when the
    exponent is 1968 or more); 0 once the segment runs past the 1184-bit table; NaN in gives the
    quieted NaN. The sign of S0 plays no part."""
    x = ctx.src(1, "f64", flush=False)
    seg = ctx.src(2, "u32").astype(np.int64) & 31
    exponent = ((x.view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    shift = seg * 53 + np.where(exponent > 1077, exponent - 1077, 0)
    # element-wise over any shape (one wave's lanes, or the functional engine's group of waves):
    # the 64 bits of 2/pi from bit `shift` on are words idx, idx+1 and the top of idx+2, moved left by b
    idx, b = shift >> 5, (shift & 31).astype(np.uint64)
    inside = idx + 2 < len(TWO_OVER_PI)
    at = np.where(inside, idx, 0)
    hi = (_TWO_OVER_PI_WORDS[at] << np.uint64(32)) | _TWO_OVER_PI_WORDS[at + 1]
    lo = _TWO_OVER_PI_WORDS[at + 2] << np.uint64(32)
    spill = np.where(b > 0, lo >> (np.uint64(64) - np.maximum(b, np.uint64(1))), np.uint64(0))  # no shift by 64
    bits53 = ((hi << b) | spill) >> np.uint64(11)  # exact in a float64
    scale = -53 - shift + np.where(exponent >= 1968, 128, 0)
    out = np.where(inside, np.ldexp(bits53.astype(F64), scale.astype(np.int32)), 0.0)
    out = np.where(np.isnan(x), fp.quieted(x), out)
    _out(ctx, "f64", out)
