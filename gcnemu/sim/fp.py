"""Floating-point helpers shared by the VALU semantics: formats, rounding, MODE.

Everything works on numpy lane arrays and on raw bit patterns, because the
hardware's answers differ from a naive numpy expression in exactly the places
people debug: rounding of narrowing conversions, NaN payloads, signed zeros,
denormals and the clamp/omod output modifiers.

What is modelled (and why it is exact):

- f16 and bf16 narrowing round to nearest even (RNE), the default MODE.round;
  `round="rtz"` is offered for the instructions that truncate
  (v_cvt_pkrtz_f16_f32). Overflow gives inf under RNE and the largest finite
  value under RTZ, as IEEE 754 says.
- Arithmetic: numpy float32/float64 add/sub/mul are IEEE RNE. f16 arithmetic is
  done in float32 and rounded once to f16, which is exact for +, -, * (float32
  has more than 2p+2 = 24 significand bits). Fused multiply-add is computed
  exactly: the product in float64 is exact for f32/f16 inputs, the final sum is
  rounded to odd with an error-free TwoSum and then rounded to the target
  format, which gives the correctly rounded fma (round-to-odd with p+2 bits).
  f64 fma uses exact rational arithmetic per lane.
- NaN: a NaN input propagates quieted (payload kept, first NaN operand wins);
  a NaN created by an invalid operation (inf - inf, 0 * inf, sqrt(-1)) is the
  positive canonical quiet NaN 0x7fc00000 (0x7e00 for f16), not x86's
  negative default NaN that numpy would give.
- Denormals: `FloatMode` carries MODE.FP_DENORM. By default gcnemu preserves
  f32 and f16/f64 denormals, which is what LLVM-compiled HIP kernels request
  (`.amdhsa_float_denorm_mode_32 3`). Note that an `.amdhsa_kernel` block that
  omits the directive gets llvm-mc's default 0 (flush f32 denormals in and
  out); `float_mode_from_program` reads the directives so a launch can pass
  the kernel's real mode. v_mad_f32/v_mac_f32 always flush f32 denormals
  (hardware ignores the mode for them).
- Transcendentals (rcp, rsq, sqrt, exp, log, sin, cos): computed in float64
  and rounded once, i.e. correctly rounded. The hardware guarantees 1 ulp, so
  gcnemu's answer is within 1 ulp of what a GPU returns (not bit-exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gcnemu.sim import accel

U16 = np.uint16
U32 = np.uint32
U64 = np.uint64

QNAN_F32 = 0x7FC00000
QNAN_F16 = 0x7E00
QNAN_F64 = 0x7FF8000000000000
F32_MIN_NORMAL = np.float32(1.17549435e-38)
F16_MIN_NORMAL = np.float32(6.1035156e-05)
F64_MIN_NORMAL = np.float64(2.2250738585072014e-308)
ONE_MINUS_ULP_F32 = np.uint32(0x3F7FFFFF).view(np.float32)


@dataclass(frozen=True)
class FloatMode:
    """The parts of the MODE register that change VALU results.

    denorm_f32 / denorm_f16_f64: True = denormals preserved (FP_DENORM = 3),
    False = flushed on input and output (FP_DENORM = 0). ieee: MODE.IEEE
    (sNaN handling of min/max). dx10_clamp: clamp turns NaN into 0.
    """

    denorm_f32: bool = True
    denorm_f16_f64: bool = True
    ieee: bool = True
    dx10_clamp: bool = True


DEFAULT_MODE = FloatMode()


def float_mode_from_program(program) -> FloatMode:
    """MODE as a kernel descriptor sets it, from `.amdhsa_*` directives.

    Without any `.amdhsa_kernel` block, gcnemu's default (denormals preserved)
    applies; with a block, an omitted directive takes llvm-mc's default
    (`.amdhsa_float_denorm_mode_32 0`, `_16_64 3`, `ieee_mode 1`, `dx10_clamp 1`).
    """
    values: dict[str, int] = {}
    seen_kernel = False
    for s in getattr(program, "statements", []):
        name = getattr(s, "name", "")
        if not isinstance(name, str):
            continue
        if name == ".amdhsa_kernel":
            seen_kernel = True
        args = getattr(s, "args", None)
        if name.startswith(".amdhsa_") and args:
            try:
                values[name] = int(args[0], 0)
            except ValueError:
                pass
    if not seen_kernel and not values:
        return DEFAULT_MODE
    return FloatMode(
        denorm_f32=values.get(".amdhsa_float_denorm_mode_32", 0) == 3,
        denorm_f16_f64=values.get(".amdhsa_float_denorm_mode_16_64", 3) == 3,
        ieee=bool(values.get(".amdhsa_ieee_mode", 1)),
        dx10_clamp=bool(values.get(".amdhsa_dx10_clamp", 1)),
    )


# MODE register fields (gfx9): FP_ROUND [3:0], FP_DENORM [7:4] (f32 [5:4], f64/f16 [7:6]),
# DX10_CLAMP bit 8, IEEE bit 9. A denorm field of 3 keeps input and output denormals, 0 flushes both.
def mode_register(mode: FloatMode) -> int:
    """The MODE register value that `mode` corresponds to (round to nearest even)."""
    return ((3 if mode.denorm_f32 else 0) << 4) | ((3 if mode.denorm_f16_f64 else 0) << 6) | \
        (int(mode.dx10_clamp) << 8) | (int(mode.ieee) << 9)


def mode_from_register(value: int) -> FloatMode:
    return FloatMode(denorm_f32=(value >> 4) & 3 == 3, denorm_f16_f64=(value >> 6) & 3 == 3,
                     ieee=bool((value >> 9) & 1), dx10_clamp=bool((value >> 8) & 1))


def mode_register_notes(value: int) -> list[str]:
    """What gcnemu cannot honour in a MODE value (it models round-to-nearest-even and all-or-nothing denormals)."""
    notes = []
    if value & 0xF:
        notes.append(f"MODE.FP_ROUND = 0x{value & 0xF:x}: gcnemu rounds to nearest even only")
    for name, shift in (("f32", 4), ("f64/f16", 6)):
        field = (value >> shift) & 3
        if field in (1, 2):
            notes.append(f"MODE.FP_DENORM {name} = {field} (denormals kept on {'input' if field == 2 else 'output'} "
                         "only): gcnemu flushes both")
    return notes


# ---------------------------------------------------------------- bit views


def f32(bits: np.ndarray) -> np.ndarray:
    return np.asarray(bits, dtype=U32).view(np.float32)


def bits32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float32).view(U32)


def f64(bits: np.ndarray) -> np.ndarray:
    return np.asarray(bits, dtype=U64).view(np.float64)


def bits64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).view(U64)


def f16(bits: np.ndarray) -> np.ndarray:
    """Low 16 bits of each element as float16."""
    return (np.asarray(bits).astype(np.uint64) & 0xFFFF).astype(U16).view(np.float16)


def bits16(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float16).view(U16)


# ---------------------------------------------------------------- narrowing


def f32_to_f16_bits(x: np.ndarray, round: str = "rne") -> np.ndarray:
    """float32 -> f16 bit patterns (uint16), RNE or RTZ; NaN stays NaN (quieted, sign kept)."""
    x = np.asarray(x, dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        h = x.astype(np.float16)
    out = h.view(U16).copy()
    nan = np.isnan(x)
    if nan.any():
        sign = (bits32(x) >> U32(16)).astype(U16) & U16(0x8000)
        payload = ((bits32(x) >> U32(13)) & U32(0x1FF)).astype(U16)
        out[nan] = (sign | U16(0x7E00) | payload)[nan]
    if round == "rtz":
        back = h.astype(np.float32)
        away = np.isfinite(x) & (np.abs(back) > np.abs(x))
        out[away] -= U16(1)  # sign-magnitude: one ulp toward zero (inf -> largest finite)
    return out


def f32_to_bf16_bits(x: np.ndarray, round: str = "rne") -> np.ndarray:
    """float32 -> bf16 bit patterns (uint16), RNE or RTZ; NaN quieted."""
    b = bits32(np.asarray(x, dtype=np.float32)).astype(np.uint64)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    if round == "rtz":
        r = b >> 16
    else:
        r = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    r = np.where(nan, (b >> 16) | 0x40, r)
    return (r & 0xFFFF).astype(U16)


def f16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return f16(bits).astype(np.float32)


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return ((np.asarray(bits).astype(U32) & U32(0xFFFF)) << U32(16)).view(np.float32)


def f64_to_f32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 with RNE (numpy's cast), NaN payload quieted."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(x, dtype=np.float64).astype(np.float32)


# ---------------------------------------------------------------- denormals


def flush(x: np.ndarray) -> np.ndarray:
    """Denormals -> zero of the same sign (for float16/float32/float64 arrays)."""
    x = np.asarray(x)
    tiny = {np.dtype(np.float16): np.float16(6.1035156e-05), np.dtype(np.float32): F32_MIN_NORMAL,
            np.dtype(np.float64): F64_MIN_NORMAL}[x.dtype]
    den = (np.abs(x) < tiny) & (x != 0)
    if not den.any():
        return x
    return np.where(den, np.copysign(np.zeros_like(x), x), x)


def denorm_in(x: np.ndarray, mode: FloatMode) -> np.ndarray:
    """Apply the mode's input denormal handling to a float operand array."""
    keep = mode.denorm_f32 if x.dtype == np.float32 else mode.denorm_f16_f64
    return x if keep else flush(x)


denorm_out = denorm_in  # output flushing follows the same bit of MODE


# ---------------------------------------------------------------- NaN rules


def _is_snan(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype == np.float32:
        b = x.view(U32)
        return np.isnan(x) & ((b & U32(0x00400000)) == 0)
    if x.dtype == np.float16:
        b = x.view(U16)
        return np.isnan(x) & ((b & U16(0x0200)) == 0)
    b = x.view(U64)
    return np.isnan(x) & ((b & U64(0x0008000000000000)) == 0)


def quieted(x: np.ndarray) -> np.ndarray:
    """Set the quiet bit of NaNs (payload and sign kept)."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        q = U32(0x00400000)
        return np.where(np.isnan(x), (x.view(U32) | q).view(np.float32), x)
    if x.dtype == np.float16:
        return np.where(np.isnan(x), (x.view(U16) | U16(0x0200)).view(np.float16), x)
    return np.where(np.isnan(x), (x.view(U64) | U64(0x0008000000000000)).view(np.float64), x)


def canonical_nan(dtype) -> np.generic:
    dt = np.dtype(dtype)
    if dt == np.float32:
        return np.uint32(QNAN_F32).view(np.float32)
    if dt == np.float16:
        return np.uint16(QNAN_F16).view(np.float16)
    return np.uint64(QNAN_F64).view(np.float64)


def fix_nans(result: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """Hardware NaN results: the first NaN input (quieted), else the canonical +qNaN."""
    result = np.asarray(result)
    nan = np.isnan(result)
    if not np.count_nonzero(nan):  # (cheaper than nan.any(): called for every float result)
        return result
    out = np.where(nan, canonical_nan(result.dtype), result)
    for x in reversed(inputs):  # the first NaN operand wins: apply in reverse order
        x = np.asarray(x)
        if x.dtype != result.dtype:
            continue
        sel = nan & np.isnan(x)
        if sel.any():
            out = np.where(sel, quieted(x), out)
    return out


def fmin(a: np.ndarray, b: np.ndarray, mode: FloatMode = DEFAULT_MODE) -> np.ndarray:
    """v_min_*: IEEE mode: sNaN -> quieted NaN, one qNaN -> the other operand; -0 < +0."""
    return _minmax(a, b, mode, np.less)


def fmax(a: np.ndarray, b: np.ndarray, mode: FloatMode = DEFAULT_MODE) -> np.ndarray:
    """v_max_*: as `fmin`, choosing the larger."""
    return _minmax(a, b, mode, np.greater)


def _minmax(a, b, mode, better) -> np.ndarray:
    a = np.asarray(a)
    b = np.asarray(b)
    sa_neg, sb_neg = np.signbit(a), np.signbit(b)
    # equal values: the signed zero rule (-0 is the smaller), else either operand
    prefer_a_on_tie = (sa_neg == sb_neg) | (sa_neg if better is np.less else ~sa_neg)
    out = np.where(better(a, b) | ((a == b) & prefer_a_on_tie), a, b)
    an, bn = np.isnan(a), np.isnan(b)
    out = np.where(an & ~bn, b, out)
    out = np.where(bn & ~an, a, out)
    out = np.where(an & bn, quieted(a), out)
    if mode.ieee:
        sa, sb = _is_snan(a), _is_snan(b)
        out = np.where(sa, quieted(a), np.where(sb, quieted(b), out))
    return out


# ---------------------------------------------------------------- output modifiers


def apply_omod(x: np.ndarray, omod: int) -> np.ndarray:
    """omod: 0 none, 1 mul:2, 2 mul:4, 3 div:2 (applied before clamp)."""
    if omod == 0:
        return x
    factor = {1: 2.0, 2: 4.0, 3: 0.5}[omod]
    return (x * x.dtype.type(factor)).astype(x.dtype)


def apply_clamp(x: np.ndarray, mode: FloatMode = DEFAULT_MODE) -> np.ndarray:
    """clamp to [0, 1]; NaN -> 0 when MODE.DX10_CLAMP (the default), else NaN passes."""
    zero, one = x.dtype.type(0.0), x.dtype.type(1.0)
    out = np.minimum(np.maximum(x, zero), one)  # -0 -> +0 by np.maximum(-0, 0)? ensure below
    out = np.where(out == 0, zero, out)
    nan = np.isnan(x)
    if nan.any():
        out = np.where(nan, zero if mode.dx10_clamp else x, out)
    return out


# ---------------------------------------------------------------- exact fused multiply-add


M64_ONES = (1 << 64) - 1


def _round_to_odd_sum(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """p + c in float64 rounded to odd (exact inputs), via the error-free TwoSum.

    Callers run it with numpy's over/invalid warnings off (inf - inf lanes); it sets no
    errstate of its own, which would cost as much as the arithmetic (an fma per VALU issue).
    """
    s = p + c
    bp = s - c
    e = (p - bp) + (c - (s - bp))
    if not np.count_nonzero(e):  # every lane's sum exact (usual): nothing to round to odd
        return s
    # an inexact sum whose last bit is even moves one ulp toward the exact value (s + e), which
    # makes the last bit odd: +1 on the bit pattern when e has s's sign (away from zero), else -1
    # (s is not zero here: an inexact sum never is). Integer steps on the bits, as np.nextafter
    # would give, at a fraction of its cost.
    bits = s.view(U64)
    fix = ((bits & U64(1)) == 0) & (e != 0) & np.isfinite(s)
    if fix.any():
        step = np.where(np.signbit(s) == np.signbit(e), U64(1), U64(M64_ONES))  # +1 or -1 (mod 2**64)
        s = (bits + np.where(fix, step, U64(0))).view(np.float64)
    return s


_BELOW_F32_ULP = U64((1 << 29) - 1)  # the bits of a float64 significand below a float32 ulp
_F32_MIDPOINT = U64(1 << 28)  # ... holding exactly half a float32 ulp


def fma_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Correctly rounded a*b+c in float32 (inputs float32).

    The product is exact in float64 and s = p + c is rounded once. Rounding s to float32 gives
    the correctly rounded fma unless s lies exactly on a float32 rounding midpoint (a midpoint
    strictly between the exact sum and s would be a float64 closer to the sum than s) or in
    the float32 subnormal range (whose midpoints sit higher): only those lanes, rare, take the
    round-to-odd sum. Bit-identical to rounding every lane to odd, in fewer passes.
    With numba (`accel`), the CPU's float32 fused multiply-add gives the same values.
    `out` (optional, float32 of the result's shape, may be an operand) receives the result:
    the functional engine writes a whole group's register row in place.
    """
    fast = accel.fma_f32(a, b, c, out)
    if fast is not None:
        return fast
    with np.errstate(over="ignore", invalid="ignore"):
        a64, b64, c64 = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
        p = a64 * b64  # exact: 24+24 bits fit in 53
        s = p + c64
        suspect = (s.view(U64) & _BELOW_F32_ULP) == _F32_MIDPOINT
        suspect |= (np.abs(s) < 2.0 ** -125) & (s != 0)
        if suspect.any():
            # (a lane with an inf or NaN in p or c has a non-finite s = p + c, which rounding
            # to odd leaves as it is: no special case for them)
            s[suspect] = _round_to_odd_sum(p[suspect], c64[suspect])
        result = fix_nans(s.astype(np.float32), a, b, c)
    if out is None:
        return result
    np.copyto(out, result)
    return out


def fma_f16(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded a*b+c in float16 (inputs float16)."""
    with np.errstate(over="ignore", invalid="ignore"):
        a64, b64, c64 = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
        p = a64 * b64
        s = _round_to_odd_sum(p, c64)
        special = ~np.isfinite(p) | ~np.isfinite(c64)
        s = np.where(special, p + c64, s)
        # float64 -> float16 must not pass through float32 (a second rounding): round directly
        out = _f64_to_f16(s)
    return fix_nans(out, a, b, c)


def _f64_to_f16(x: np.ndarray) -> np.ndarray:
    """float64 -> float16 rounded once (numpy rounds float64 -> float16 directly, RNE)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(x, dtype=np.float64).astype(np.float16)


def fma_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded a*b+c in float64, exact rational arithmetic for finite lanes."""
    # flat copies of one common shape (one wave's lanes, or the functional engine's group of
    # waves), indexed one element at a time below, and the result given back in that shape
    a, b, c = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, c)))
    shape = a.shape
    a, b, c = (v.ravel() for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):
        out = a * b + c
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    for i in np.nonzero(finite)[0]:
        exact = Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))
        if exact == 0:
            # an exact zero sum is +0 under RNE unless both addends are -0
            prod_zero_neg = (a[i] == 0 or b[i] == 0) and bool(np.signbit(a[i]) != np.signbit(b[i]))
            out[i] = -0.0 if (prod_zero_neg and c[i] == 0 and np.signbit(c[i])) else 0.0
            continue
        try:
            out[i] = float(exact)
        except OverflowError:
            out[i] = np.inf if exact > 0 else -np.inf
    return fix_nans(out, a, b, c).reshape(shape)


# ---------------------------------------------------------------- transcendentals (within 1 ulp)


def transcendental(fn: str, x: np.ndarray) -> np.ndarray:
    """rcp/rsq/sqrt/exp/log/sin/cos in float64, rounded once to x's format.

    exp/log are base 2 (v_exp_f32 = 2**x, v_log_f32 = log2 x); sin/cos take the
    angle in revolutions (v_sin_f32(x) = sin(2*pi*x)), as the ISA defines them.
    """
    x = np.asarray(x)
    with np.errstate(all="ignore"):
        d = x.astype(np.float64)
        if fn == "rcp":
            r = 1.0 / d
        elif fn == "rsq":
            r = 1.0 / np.sqrt(d)
            r = np.where(d == 0, np.copysign(np.inf, d), r)
        elif fn == "sqrt":
            r = np.sqrt(d)
        elif fn == "exp":
            r = np.exp2(d)
        elif fn == "log":
            r = np.log2(d)
            r = np.where(d == 0, -np.inf, r)  # log(-0) = -inf too
        elif fn == "sin":
            r = np.sin(2.0 * np.pi * np.fmod(d, 1.0))
        elif fn == "cos":
            r = np.cos(2.0 * np.pi * np.fmod(d, 1.0))
        else:
            raise ValueError(fn)
        out = r.astype(x.dtype) if x.dtype != np.float16 else _f64_to_f16(r)
    return fix_nans(out, x)


def silent(fn):
    """Run a semantic function with numpy's floating-point warnings off.

    The GPU raises no exceptions for NaN, overflow or invalid operations (it
    produces the IEEE results), so numpy's RuntimeWarnings would only be noise.
    """
    import functools

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return wrapped


def semantic_silent(*names: str):
    """`@semantic(...)` for VALU modules: registers the function wrapped in `silent`."""
    from .semantics import semantic

    def register(fn):
        semantic(*names)(silent(fn))
        return fn
    return register
