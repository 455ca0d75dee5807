"""Vector floating-point semantics: IEEE rounding, NaN/inf/denormal rules, modifiers, exact fma.

References are computed independently of gcnemu's helpers: exact rational
arithmetic (fractions) rounded by a small round-to-nearest-even routine, or
numpy in a wider format rounded once.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from gcnemu.sim.fp import FloatMode
from semhelpers import RNG, f32_specials, rand_f32, run

F32, F16, F64, U32 = np.float32, np.float16, np.float64, np.uint32
QNAN = 0x7FC00000


def bits(x) -> np.ndarray:
    return np.asarray(x, dtype=F32).view(U32)


def same(got: np.ndarray, want: np.ndarray) -> bool:
    """Bitwise equal, except that any NaN matches any NaN (NaN bits are checked by dedicated tests)."""
    g, w = np.asarray(got), np.asarray(want)
    gn, wn = np.isnan(g), np.isnan(w)
    return bool((gn == wn).all() and (g.view(U32 if g.dtype == F32 else np.uint64 if g.dtype == F64 else np.uint16)[~gn]
                                      == w.view(U32 if w.dtype == F32 else np.uint64 if w.dtype == F64
                                                else np.uint16)[~wn]).all())


def round_fraction(q: Fraction, mant_bits: int, min_exp: int, max_exp: int) -> float:
    """Round an exact rational to a binary format (RNE), overflow to inf. mant_bits includes the hidden bit."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = math.floor(math.log2(q.numerator) - math.log2(q.denominator))
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    e = max(e, min_exp)  # denormals share the minimum exponent
    ulp = Fraction(2) ** (e - mant_bits + 1)
    n = q / ulp
    fl = math.floor(n)
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    value = fl * ulp
    if value >= Fraction(2) ** (max_exp + 1):
        return sign * math.inf
    return sign * float(value)


def ref_f32(q: Fraction) -> float:
    return round_fraction(q, 24, -126, 127)


def ref_f16(q: Fraction) -> float:
    return round_fraction(q, 11, -14, 15)


X = f32_specials()
Y = rand_f32()
Y[:21] = np.array([1.0, 0.0, -0.0, np.inf, np.inf, -np.inf, 1.0, -1e-40, 1e-40, 3.4e38, 1.0, 2.0, np.nan, -0.0,
                   0.0, 1e-45, 1.5, 2.0, 0.5, 1e8, 1.0], dtype=F32)


@pytest.mark.parametrize("op,fn", [("v_add_f32", np.add), ("v_sub_f32", np.subtract), ("v_mul_f32", np.multiply),
                                   ("v_subrev_f32", lambda a, b: b - a)])
def test_f32_arith_matches_ieee(op, fn):
    with np.errstate(all="ignore"):
        want = fn(X, Y).astype(F32)
    r = run(f"{op} v2, v0, v1\n{op}_e64 v3, v0, v1", v={0: X, 1: Y})
    assert same(r.f32(2), want) and same(r.f32(3), want)


def test_invalid_operations_give_the_positive_canonical_nan():
    r = run("v_add_f32 v2, v0, v1\nv_mul_f32 v3, v0, v4", v={0: np.full(64, np.inf, F32), 1: np.full(64, -np.inf, F32),
                                                            4: np.zeros(64, F32)})
    assert (r.v(2) == QNAN).all() and (r.v(3) == QNAN).all()


def test_nan_operand_propagates_quieted_payload():
    snan = np.full(64, 0xFF800123, U32).view(F32)  # negative signalling NaN with a payload
    qnan = np.full(64, 0x7FC00456, U32).view(F32)
    r = run("v_add_f32 v2, v0, v1\nv_mul_f32 v3, v1, v0\nv_add_f32 v4, 1.0, v1", v={0: snan, 1: qnan})
    assert (r.v(2) == 0xFFC00123).all(), "the first NaN operand wins, quieted, sign and payload kept"
    assert (r.v(3) == 0x7FC00456).all()
    assert (r.v(4) == 0x7FC00456).all()


@pytest.mark.parametrize("op,fn", [("v_add_f16", lambda a, b: a + b), ("v_mul_f16", lambda a, b: a * b),
                                   ("v_sub_f16", lambda a, b: a - b)])
def test_f16_arith_rounds_once(op, fn):
    a = (RNG.standard_normal(64) * 300).astype(F16)
    b = (RNG.standard_normal(64) * 0.01).astype(F16)
    a[:6] = [65504, 1.0, 6e-5, -0.0, np.inf, 2048]
    b[:6] = [32, 2 ** -11, 6e-8, 0.0, 1.0, 1.0]
    r = run(f"{op} v2, v0, v1", v={0: a.view(np.uint16).astype(U32), 1: b.view(np.uint16).astype(U32) | 0xABCD0000})
    with np.errstate(all="ignore"):
        want = np.array([ref_f16(fn(Fraction(float(x)), Fraction(float(y))))
                         if np.isfinite(x) and np.isfinite(y) and fn(F32(x), F32(y)) != 0
                         else float(fn(F32(x), F32(y))) for x, y in zip(a, b)], dtype=F64).astype(F16)
    assert same(r.f16(2), want)
    assert (r.v(2) >> 16 == 0).all(), "gfx9 zeroes the high half of a 16-bit result"


def fma_ref(a, b, c, rnd) -> np.ndarray:
    out = []
    for x, y, z in zip(a, b, c):
        if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
            out.append(float(F64(x) * F64(y) + F64(z)))
        else:
            out.append(rnd(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))))
    return np.array(out)


def hard_fma_cases_f32():
    """Products whose exact sum with c lies next to a rounding boundary (where a double rounding would err)."""
    a = rand_f32(scale=3.0)
    b = rand_f32(scale=3.0)
    c = -(a.astype(F64) * b.astype(F64)).astype(F32)  # catastrophic cancellation: result is the product's error
    one_eps = F32(1 + 2 ** -23)
    a[:4], b[:4], c[:4] = one_eps, one_eps, [-1.0, -1 - 2 ** -22, 2 ** -47, -(2 ** -47)]
    a[4], b[4], c[4] = 1e-20, 1e-20, 1e-45  # result in the denormal range
    return a, b, c


def test_fma_f32_is_exactly_rounded():
    a, b, c = hard_fma_cases_f32()
    r = run("v_fma_f32 v3, v0, v1, v2\nv_mov_b32 v4, v2\nv_fmac_f32 v4, v0, v1", v={0: a, 1: b, 2: c})
    want = fma_ref(a, b, c, ref_f32).astype(F32)
    assert same(r.f32(3), want)
    assert same(r.f32(4), want), "v_fmac_f32 accumulates into its destination"


def test_fma_f16_and_f64_exact():
    a16 = (RNG.standard_normal(64) * 10).astype(F16)
    b16 = (RNG.standard_normal(64) * 10).astype(F16)
    c16 = -(a16.astype(F32) * b16.astype(F32)).astype(F16)
    as_u32 = lambda x: x.view(np.uint16).astype(U32)  # noqa: E731
    a64 = RNG.standard_normal(64)
    b64 = RNG.standard_normal(64)
    c64 = -(a64 * b64)
    r = run("v_fma_f16 v3, v0, v1, v2\nv_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
            v={0: as_u32(a16), 1: as_u32(b16), 2: as_u32(c16), "v[4:5]": a64, "v[6:7]": b64, "v[8:9]": c64})
    assert same(r.f16(3), fma_ref(a16, b16, c16, ref_f16).astype(F16))
    want64 = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a64, b64, c64)])
    assert same(r.f64(10), want64)


def test_mad_and_mac_f32_are_unfused_and_flush_denormals():
    a, b, c = hard_fma_cases_f32()
    den = np.full(64, 1e-39, F32)
    r = run("""v_mad_f32 v3, v0, v1, v2
v_mov_b32 v4, v2
v_mac_f32 v4, v0, v1
v_mad_f32 v5, v6, 1.0, 0
v_mad_f32 v7, 0x3f000000, v6, 0""", v={0: a, 1: b, 2: c, 6: den}, target="gfx90a")
    with np.errstate(all="ignore"):
        want = (a * b) + c  # float32 product rounded, then the sum rounded
    want = np.where(np.abs(want) < 1.17549435e-38, np.copysign(0, want), want).astype(F32)
    assert same(r.f32(3), want) and same(r.f32(4), want)
    assert (r.f32(5) == 0).all() and (r.f32(7) == 0).all(), "denormal inputs are flushed by v_mad_f32"


def test_fmaak_fmamk_madak_madmk():
    a, b = rand_f32(), rand_f32()
    r = run("v_fmaak_f32 v2, v0, v1, 0x41200000\nv_fmamk_f32 v3, v0, 0x41200000, v1", v={0: a, 1: b},
            target="gfx942")
    assert same(r.f32(2), fma_ref(a, b, np.full(64, 10, F32), ref_f32).astype(F32))
    assert same(r.f32(3), fma_ref(a, np.full(64, 10, F32), b, ref_f32).astype(F32))
    r = run("v_madak_f32 v2, v0, v1, 0x41200000\nv_madmk_f32 v3, v0, 0x41200000, v1", v={0: a, 1: b})
    with np.errstate(all="ignore"):
        assert same(r.f32(2), (a * b + F32(10)).astype(F32))
        assert same(r.f32(3), (a * F32(10) + b).astype(F32))


def test_min_max_ieee_nan_and_signed_zero():
    snan = U32(0x7F800001).view(F32)
    a = np.array([1.0, np.nan, 2.0, snan, 0.0, -0.0, -np.inf, 5.0] * 8, dtype=F32)
    b = np.array([2.0, 3.0, np.nan, 4.0, -0.0, 0.0, 1.0, snan] * 8, dtype=F32)
    r = run("v_min_f32 v2, v0, v1\nv_max_f32 v3, v0, v1", v={0: a, 1: b})
    mn, mx = r.f32(2)[:8], r.f32(3)[:8]
    assert list(bits(mn)) == list(bits(np.array([1.0, 3.0, 2.0, np.nan, -0.0, -0.0, -np.inf, np.nan], F32)))[:3] + \
        [0x7FC00001, 0x80000000, 0x80000000, bits(np.float32(-np.inf)), 0x7FC00001]
    assert list(bits(mx)) == [bits(F32(2.0)), bits(F32(3.0)), bits(F32(2.0)), 0x7FC00001, 0, 0, bits(F32(1.0)),
                              0x7FC00001]


def test_min_max_non_ieee_mode_returns_the_number_for_snan():
    snan = U32(0x7F800001).view(F32)
    r = run("v_max_f32 v2, v0, v1", v={0: np.full(64, snan), 1: np.full(64, 3.0, F32)},
            mode=FloatMode(ieee=False))
    assert (r.f32(2) == 3.0).all()


def test_min3_max3_med3_f32():
    a, b, c = rand_f32(), rand_f32(), rand_f32()
    c[0] = np.nan
    r = run("v_min3_f32 v3, v0, v1, v2\nv_max3_f32 v4, v0, v1, v2\nv_med3_f32 v5, v0, v1, v2",
            v={0: a, 1: b, 2: c})
    s = np.stack([a, b, c])
    assert same(r.f32(3)[1:], s.min(axis=0)[1:]) and same(r.f32(4)[1:], s.max(axis=0)[1:])
    assert same(r.f32(5)[1:], np.sort(s, axis=0)[1][1:])
    assert r.f32(5)[0] == np.fmin(a[0], b[0]), "with a NaN operand med3 is min3 of the others"


def test_source_modifiers_and_output_modifiers():
    a, b = rand_f32(), rand_f32()
    a[0] = np.nan
    r = run("""v_add_f32_e64 v2, -v0, |v1|
v_mul_f32_e64 v3, v0, v1 mul:2
v_mul_f32_e64 v4, v0, v1 div:2
v_add_f32_e64 v5, v0, v1 clamp
v_mul_f32_e64 v6, -|v0|, v1 clamp mul:4""", v={0: a, 1: b})
    with np.errstate(all="ignore"):
        assert same(r.f32(2), (-a + np.abs(b)).astype(F32))
        assert same(r.f32(3), (a * b * 2).astype(F32))
        assert same(r.f32(4), (a * b / 2).astype(F32))
        clamp = lambda x: np.where(np.isnan(x), 0, np.clip(x, 0, 1)).astype(F32)  # noqa: E731
        assert same(r.f32(5), clamp(a + b)) and r.f32(5)[0] == 0, "clamp turns NaN into 0 (DX10 clamp)"
        assert same(r.f32(6), clamp(-np.abs(a) * b * 4))


def test_inline_constants_and_literals_in_float_ops():
    x = rand_f32()
    r = run("""v_add_f32 v1, 1.0, v0
v_add_f32 v2, 0x3f800000, v0
v_add_f32 v3, 1, v0
v_add_f32 v4, -4.0, v0
v_mul_f32 v5, 0.15915494, v0
v_add_f32 v6, 2.5, v0
v_add_f32 v7, -1, v0""", v={0: x})
    assert same(r.f32(1), x + F32(1)) and same(r.f32(2), x + F32(1))
    assert same(r.f32(3), x + U32(1).view(F32)), "integer inline 1 is the bit pattern 1 (a denormal)"
    assert same(r.f32(4), x - F32(4))
    assert same(r.f32(5), x * U32(0x3E22F983).view(F32))
    assert same(r.f32(6), x + F32(2.5))
    assert np.isnan(r.f32(7)).all(), "integer inline -1 is 0xffffffff: a NaN"


def test_f64_ops_and_literals():
    a, b = RNG.standard_normal(64) * 1e3, RNG.standard_normal(64)
    r = run("""v_add_f64 v[4:5], v[0:1], v[2:3]
v_mul_f64 v[6:7], v[0:1], -v[2:3]
v_fract_f64 v[8:9], 0x3ff80000
v_mul_f64 v[10:11], 0.5, v[0:1]
v_max_f64 v[12:13], v[0:1], v[2:3]
v_fma_f64 v[14:15], v[0:1], v[2:3], 1.0""", v={"v[0:1]": a, "v[2:3]": b})
    assert same(r.f64(4), a + b) and same(r.f64(6), a * -b)
    assert (r.f64(8) == 0.5).all(), "a 32-bit literal is the high half of an f64: 0x3ff80000 is 1.5"
    assert same(r.f64(10), a * 0.5) and same(r.f64(12), np.maximum(a, b))


def test_rounding_family():
    x = f32_specials()
    x[30:36] = [-0.5, 0.5, 1.5, 2.5, -2.5, -1e-10]
    r = run("""v_trunc_f32 v1, v0
v_ceil_f32 v2, v0
v_floor_f32 v3, v0
v_rndne_f32 v4, v0
v_fract_f32 v5, v0""", v={0: x})
    with np.errstate(all="ignore"):
        assert same(r.f32(1), np.trunc(x)) and same(r.f32(2), np.ceil(x)) and same(r.f32(3), np.floor(x))
        assert same(r.f32(4), np.rint(x)), "ties to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2"
    fr = r.f32(5)
    finite = np.isfinite(x)
    with np.errstate(all="ignore"):
        assert same(fr[finite], np.minimum(x - np.floor(x), np.nextafter(F32(1), F32(0)))[finite])
    assert fr[35] < 1.0, "a tiny negative's fract stays below 1.0"
    assert np.isnan(fr[~finite]).all()


def test_ldexp_frexp():
    x = f32_specials()
    n = RNG.integers(-300, 300, 64).astype(np.int32)
    r = run("""v_ldexp_f32 v2, v0, v1
v_frexp_mant_f32 v3, v0
v_frexp_exp_i32_f32 v4, v0""", v={0: x, 1: n.view(U32)})
    with np.errstate(all="ignore"):
        want = np.array([ref_f32(Fraction(float(v)) * Fraction(2) ** int(k)) if np.isfinite(v) and v != 0 else v
                         for v, k in zip(x, n)], dtype=F64).astype(F32)
    assert same(r.f32(2), want)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)
    finite = np.isfinite(x)
    assert same(r.f32(3)[finite], m[finite])
    # +-inf and NaN pass through (ISA pseudocode of V_FREXP_MANT_F32: D0 = S0), not a NaN for inf
    assert same(r.f32(3)[~finite], x[~finite])
    assert (r.v(4).view(np.int32) == np.where(finite, e, 0)).all()


@pytest.mark.parametrize("op,fn,domain", [
    ("v_rcp_f32", lambda x: 1 / x, (0.001, 1e6)), ("v_rsq_f32", lambda x: 1 / np.sqrt(x), (1e-6, 1e6)),
    ("v_sqrt_f32", np.sqrt, (0, 1e30)), ("v_exp_f32", np.exp2, (-100, 100)),
    ("v_log_f32", np.log2, (1e-30, 1e30)), ("v_sin_f32", lambda x: np.sin(2 * np.pi * x), (-4, 4)),
    ("v_cos_f32", lambda x: np.cos(2 * np.pi * x), (-4, 4)),
])
def test_transcendentals_within_one_ulp(op, fn, domain):
    lo, hi = domain
    x = RNG.uniform(lo, hi, 64).astype(F32)
    r = run(f"{op} v1, v0", v={0: x})
    want = fn(x.astype(F64))
    got = r.f32(1).astype(F64)
    ulp = np.spacing(np.abs(want).astype(F32)).astype(F64)
    assert (np.abs(got - want) <= ulp).all()


def test_transcendental_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, -1.0, np.nan] * 11, dtype=F32)[:64]
    r = run("v_rcp_f32 v1, v0\nv_rsq_f32 v2, v0\nv_sqrt_f32 v3, v0\nv_log_f32 v4, v0\nv_exp_f32 v5, v0",
            v={0: x})
    k = slice(0, 6)
    assert list(r.f32(1)[k][:5]) == [np.inf, -np.inf, 0.0, -0.0, -1.0]
    assert list(r.f32(2)[k][:3]) == [np.inf, -np.inf, 0.0] and np.isnan(r.f32(2)[3:5]).all()
    assert same(r.f32(3)[k][:4], np.array([0.0, -0.0, np.inf, np.nan], F32))
    assert list(r.f32(4)[k][:3]) == [-np.inf, -np.inf, np.inf] and np.isnan(r.f32(4)[4])
    assert list(r.f32(5)[k][:4]) == [1.0, 1.0, np.inf, 0.0]


def test_denormal_modes():
    den = np.full(64, 1e-39, F32)
    preserve = run("v_add_f32 v1, v0, 0\nv_mul_f32 v2, v0, 1.0", v={0: den})
    assert (preserve.f32(1) == den).all() and (preserve.f32(2) == den).all()
    flush = run("v_add_f32 v1, v0, 0\nv_mul_f32 v2, v0, 1.0\nv_mov_b32 v3, v0", v={0: den},
                mode=FloatMode(denorm_f32=False))
    assert (flush.v(1) == 0).all() and (flush.v(2) == 0).all()
    assert (flush.f32(3) == den).all(), "moves are bitwise: no flushing"


def test_f16_ops_with_op_sel_and_mac_preserving_high():
    a = (RNG.standard_normal(64) * 4).astype(F16)
    b = (RNG.standard_normal(64) * 4).astype(F16)
    old = np.full(64, 0x12340000, U32)
    packed = a.view(np.uint16).astype(U32) << 16 | b.view(np.uint16).astype(U32)
    r = run("""v_fma_f16 v2, v0, v0, v0 op_sel:[1,0,1,0]
v_mac_f16 v3, v0, v0
v_max3_f16 v4, v0, v0, v0 op_sel:[1,0,0,1]""", v={0: packed, 3: old | 0x3C00, 4: old})
    want = fma_ref(a, b, a, ref_f16).astype(F16)
    assert same(r.f16(2), want) and (r.v(2) >> 16 == 0).all()
    mac = (b.astype(F32) * b.astype(F32)).astype(F16)
    mac = (mac.astype(F32) + F32(1)).astype(F16)
    assert same(r.f16(3), mac) and (r.v(3) >> 16 == 0x1234).all(), "v_mac_f16 keeps the high half on gfx9"
    assert same(r.f16(4, hi=True), np.maximum(a, b)) and (r.v(4) & 0xFFFF == 0).all()


def test_mul_legacy():
    r = run("v_mul_legacy_f32 v2, v0, v1", v={0: np.array([0.0, np.inf, np.nan, 2.0] * 16, F32),
                                              1: np.array([np.inf, 0.0, 0.0, 3.0] * 16, F32)})
    assert list(r.f32(2)[:4]) == [0.0, 0.0, 0.0, 6.0]


def test_float_mode_from_kernel_descriptor_directives():
    """llvm-mc's default for an .amdhsa_kernel without the directive flushes f32 denormals; compilers emit 3."""
    import gcnemu
    from gcnemu.sim.fp import DEFAULT_MODE, float_mode_from_program
    block = ".amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n{extra}.end_amdhsa_kernel\n"
    assert float_mode_from_program(gcnemu.parse("s_endpgm\n")) == DEFAULT_MODE
    flushed = float_mode_from_program(gcnemu.parse(block.format(extra="")))
    assert not flushed.denorm_f32 and flushed.denorm_f16_f64 and flushed.ieee and flushed.dx10_clamp
    kept = float_mode_from_program(gcnemu.parse(block.format(extra="  .amdhsa_float_denorm_mode_32 3\n"
                                                                   "  .amdhsa_ieee_mode 0\n")))
    assert kept.denorm_f32 and not kept.ieee


def test_maximum3_minimum3_propagate_nan_on_gfx950():
    a, b, c = rand_f32(), rand_f32(), rand_f32()
    a[0], b[1] = np.nan, np.uint32(0x7F800001).view(F32)
    a[2], b[2], c[2] = -0.0, 0.0, -1.0
    r = run("v_maximum3_f32 v3, v0, v1, v2\nv_minimum3_f32 v4, v0, v1, v2", v={0: a, 1: b, 2: c}, target="gfx950")
    s = np.stack([a, b, c])
    assert np.isnan(r.f32(3)[:2]).all() and np.isnan(r.f32(4)[:2]).all(), "NaN wins (unlike v_max3)"
    assert same(r.f32(3)[3:], s.max(axis=0)[3:]) and same(r.f32(4)[3:], s.min(axis=0)[3:])
    assert bits(r.f32(3)[2]) == 0 and r.f32(4)[2] == -1.0, "maximum(-0, +0, -1) is +0"


def test_pack_b32_f16_halves_and_modifiers():
    a, b = rand_f32(), rand_f32()
    r = run("v_pack_b32_f16 v2, v0, -v1 op_sel:[1,0,0]", v={0: a, 1: b})
    au, bu = a.view(U32), b.view(U32)
    assert (r.v(2) == (au >> 16) | (((bu & 0xFFFF) ^ 0x8000) << 16)).all()


def test_fma_f32_rounds_once_where_a_float64_sum_would_land_on_a_float32_midpoint():
    """(1 + 2**-12)**2 + 2**-80: the float64 sum is exactly halfway between two float32 values,
    the exact value is just above it, so the correctly rounded fma is the upper one (round to
    odd in float64 keeps the sticky bit; a plain float64 sum would round to even, one ulp low)."""
    from gcnemu.sim import fp
    a = np.array([1 + 2 ** -12], dtype=np.float32)
    c = np.array([2.0 ** -80], dtype=np.float32)
    assert fp.fma_f32(a, a, c)[0] == np.float32(1 + 2 ** -11 + 2 ** -23)


def test_fma_f32_shortcut_equals_rounding_every_lane_to_odd():
    """fma_f32 rounds to odd only lanes whose float64 sum is on a float32 midpoint (or tiny):
    the result must be the same bits as the error-free path on every lane, midpoints included."""
    from gcnemu.sim import fp
    rng = np.random.default_rng(3)
    n = 4096
    k = rng.integers(1, 24, n)
    cases = [  # wide spreads, and (1 + 2^-k)(1 + 2^-(24-k)) + tiny: exact sums on midpoints
        ((rng.standard_normal(n) * np.exp2(rng.integers(-80, 80, n))).astype(np.float32),
         (rng.standard_normal(n) * np.exp2(rng.integers(-80, 80, n))).astype(np.float32),
         (rng.standard_normal(n) * np.exp2(rng.integers(-149, 128, n))).astype(np.float32)),
        ((1 + np.exp2(-k.astype(float))).astype(np.float32), (1 + np.exp2(k - 24.0)).astype(np.float32),
         (np.exp2(-rng.integers(30, 90, n).astype(float)) * rng.choice([-1, 1], n)).astype(np.float32)),
    ]
    a, b, c = (x.copy() for x in cases[0])
    a[::50], b[::70], c[::30], a[::41] = np.nan, np.inf, -0.0, 0
    cases.append((a, b, c))
    for a, b, c in cases:
        with np.errstate(over="ignore", invalid="ignore"):
            p = a.astype(np.float64) * b
            ref = fp.fix_nans(fp._round_to_odd_sum(p, c.astype(np.float64)).astype(np.float32), a, b, c)
            got = fp.fma_f32(a, b, c)
        assert np.array_equal(got.view(np.uint32), ref.view(np.uint32))
