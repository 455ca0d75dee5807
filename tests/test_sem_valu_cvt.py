"""Conversions: saturation and NaN -> 0 for float -> int, round-to-nearest-even narrowing (f16, bf16), RTZ packing."""
from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from semhelpers import RNG, f32_specials, run

F32, F16, F64, U32, U16 = np.float32, np.float16, np.float64, np.uint32, np.uint16


_F16_GRID = np.arange(0x7C00, dtype=U16).view(F16).astype(F64)  # every finite non-negative f16, ascending


def f16_bits_rne(x: float) -> int:
    """Reference f32 -> f16 rounding by search over all f16 values: nearest, ties to the even encoding."""
    if np.isnan(x):
        return 0x7E00
    sign = 0x8000 if np.signbit(x) else 0
    m = abs(float(x))
    if m >= 65520.0:  # halfway between the largest finite value and the next power: rounds to inf
        return sign | 0x7C00
    k = int(np.searchsorted(_F16_GRID, m))
    if k == len(_F16_GRID):
        return sign | 0x7BFF  # between 65504 and the halfway point to 65536
    if _F16_GRID[k] == m:
        return sign | k
    lo, hi = k - 1, k
    d_lo, d_hi = Fraction(m) - Fraction(_F16_GRID[lo]), Fraction(_F16_GRID[hi]) - Fraction(m)
    pick = lo if d_lo < d_hi or (d_lo == d_hi and lo % 2 == 0) else hi
    return sign | pick


def test_f32_to_f16_round_to_nearest_even():
    x = f32_specials()
    # halfway cases: 1 + 2**-11 (tie, even -> 1.0), 1 + 3*2**-11 (tie -> up), just above a tie
    x[25:32] = [1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-11 + 2**-20, 2**-25, 2**-25 * 3, 65519.99, -(1 + 2**-11)]
    r = run("v_cvt_f16_f32 v1, v0\nv_cvt_f16_f32_e64 v2, -v0", v={0: x, 1: 0xFFFF0000})
    want = [f16_bits_rne(float(v)) for v in x]
    got = r.v(1)
    nan = np.isnan(x)
    assert [int(g) for g in got[~nan]] == [w for w, n in zip(want, nan) if not n]
    assert (np.isnan(r.f16(1)[nan])).all() and (got >> 16 == 0).all()
    assert [int(g) for g in r.v(2)[~nan]] == [w ^ 0x8000 for w, n in zip(want, nan) if not n]


def test_f32_to_f16_random_magnitudes_including_denormals():
    x = (RNG.standard_normal(64) * np.exp2(RNG.integers(-30, 20, 64))).astype(F32)
    r = run("v_cvt_f16_f32 v1, v0", v={0: x})
    assert [int(v) for v in r.v(1)] == [f16_bits_rne(float(v)) for v in x]


def test_f16_to_f32_exact_and_denormals():
    h = np.array([0x0001, 0x03FF, 0x0400, 0x7BFF, 0xFC00, 0x7E01, 0x8000, 0x3C00] * 8, dtype=U16)
    r = run("v_cvt_f32_f16 v1, v0\nv_cvt_f32_f16_sdwa v2, v0 src0_sel:WORD_1", v={0: h.astype(U32) | (0x4000 << 16)})
    want = h.view(F16).astype(F32)
    assert (r.f32(1)[h != 0x7E01] == want[h != 0x7E01]).all() and np.isnan(r.f32(1)[5])
    assert (r.f32(2) == 2.0).all(), "SDWA WORD_1 converts the high half"


@pytest.mark.parametrize("op,lo,hi,rounding", [
    ("v_cvt_i32_f32", -2**31, 2**31 - 1, np.trunc), ("v_cvt_u32_f32", 0, 2**32 - 1, np.trunc),
    ("v_cvt_flr_i32_f32", -2**31, 2**31 - 1, np.floor), ("v_cvt_rpi_i32_f32", -2**31, 2**31 - 1,
                                                           lambda v: np.floor(v + 0.5)),
])
def test_float_to_int_saturates_and_nan_is_zero(op, lo, hi, rounding):
    x = f32_specials()
    x[25:31] = [2.5e9, -2.5e9, 2147483520.0, -2147483648.0, -0.7, 4294967040.0]
    r = run(f"{op} v1, v0", v={0: x})
    with np.errstate(all="ignore"):
        want = np.where(np.isnan(x), 0, np.clip(rounding(x.astype(F64)), lo, hi)).astype(np.int64) & 0xFFFFFFFF
    assert (r.v(1) == want).all()


def test_int_to_float_round_to_nearest_even():
    v = np.array([2**24 + 1, 2**24 + 3, 2**31 - 1, -(2**31), 0, -1, 16777217 * 3, 0x7FFFFFBF] * 8, dtype=np.int64)
    r = run("v_cvt_f32_i32 v1, v0\nv_cvt_f32_u32 v2, v0", v={0: v})
    want_i = [float(np.float32(Fraction(int(x)).__float__())) for x in v]
    assert list(r.f32(1).astype(F64)) == [float(F32(float(int(x)))) for x in v] == want_i
    u = (v & 0xFFFFFFFF).astype(np.uint64)
    assert list(r.f32(2).astype(F64)) == [float(F32(float(int(x)))) for x in u]
    assert r.f32(1)[0] == 16777216.0 and r.f32(1)[1] == 16777220.0, "ties go to even"


def test_f64_conversions():
    d = RNG.standard_normal(64) * 1e10
    d[:6] = [np.nan, 3e9, -3e9, 1e300, 2**-1074, -0.0]
    r = run("""v_cvt_f32_f64 v2, v[0:1]
v_cvt_i32_f64 v3, v[0:1]
v_cvt_u32_f64 v4, v[0:1]
v_cvt_f64_f32 v[6:7], v2
v_cvt_f64_i32 v[8:9], v3
v_cvt_f64_u32 v[10:11], v4""", v={"v[0:1]": d})
    with np.errstate(all="ignore"):
        f = d.astype(F32)
        assert np.array_equal(r.f32(2), f, equal_nan=True)
        assert (r.v(3).view(np.int32) == np.where(np.isnan(d), 0, np.clip(np.trunc(d), -2**31, 2**31 - 1))).all()
        assert (r.v(4) == np.where(np.isnan(d), 0, np.clip(np.trunc(d), 0, 2**32 - 1))).all()
    assert np.array_equal(r.f64(6), f.astype(F64), equal_nan=True)
    assert (r.f64(8) == r.v(3).view(np.int32)).all() and (r.f64(10) == r.v(4)).all()


def test_pkrtz_truncates_and_pk_bf16_rounds():
    a = np.array([1 + 2**-11 + 2**-20, -(1 + 2**-11 + 2**-20), 70000.0, 1.0 + 2**-8, np.nan, 1e-8, -1e-8, 0.1] * 8,
                 dtype=F32)
    b = a[::-1].copy()
    r = run("v_cvt_pkrtz_f16_f32 v2, v0, v1", v={0: a, 1: b})
    lo, hi = r.v(2) & 0xFFFF, r.v(2) >> 16
    assert lo[0] == 0x3C00 and lo[1] == 0xBC00, "toward zero, not to nearest"
    assert lo[2] == 0x7BFF, "overflow truncates to the largest finite value"
    assert np.isnan(r.f16(2)[4]) and lo[5] == 0 and lo[6] == 0x8000
    assert (hi[:8] == np.array([r.v(2)[7 - k] & 0xFFFF for k in range(8)])).all()
    r = run("v_cvt_pk_bf16_f32 v2, v0, v1", v={0: a, 1: b}, target="gfx950")
    want = np.stack([a.astype(ml_dtypes.bfloat16).view(U16), b.astype(ml_dtypes.bfloat16).view(U16)])
    assert ((r.v(2) & 0xFFFF) == want[0]).all() and ((r.v(2) >> 16) == want[1]).all()


def test_bf16_to_f32_on_gfx950():
    h = np.array([0x3F80, 0xC000, 0x7F80, 0x0001] * 16, dtype=U32) | 0x12340000
    r = run("v_cvt_f32_bf16 v1, v0", v={0: h}, target="gfx950")
    assert (r.v(1) == (h & 0xFFFF) << 16).all()


def test_norm_and_integer_packing():
    a = np.array([0.5, -0.5, 1.5, -2.0, np.nan, 1e-5, 0.99999, -1.0] * 8, dtype=F32)
    b = RNG.uniform(-1.2, 1.2, 64).astype(F32)
    r = run("""v_cvt_pknorm_i16_f32 v2, v0, v1
v_cvt_pknorm_u16_f32 v3, v0, v1
v_cvt_pk_u16_u32 v4, v5, v6
v_cvt_pk_i16_i32 v7, v5, v6""", v={0: a, 1: b, 5: np.arange(64) * 3000 - 40000, 6: 70000})
    snorm = lambda x: (np.rint(np.clip(np.nan_to_num(x.astype(F64)), -1, 1) * 32767).astype(np.int64)  # noqa: E731
                       & 0xFFFF)
    unorm = lambda x: np.rint(np.clip(np.nan_to_num(x.astype(F64)), 0, 1) * 65535).astype(np.int64)  # noqa: E731
    assert (r.v(2) == snorm(a) | (snorm(b) << 16)).all()
    assert (r.v(3) == unorm(a) | (unorm(b) << 16)).all()
    s = (np.arange(64) * 3000 - 40000)
    assert (r.v(4) == np.minimum(s & 0xFFFFFFFF, 0xFFFF) | (0xFFFF << 16)).all()
    assert (r.v(7) == (np.clip(s, -32768, 32767) & 0xFFFF) | (0x7FFF << 16)).all()


def test_byte_conversions():
    x = np.arange(64, dtype=U32) * 0x01030507
    r = run("""v_cvt_f32_ubyte0 v1, v0
v_cvt_f32_ubyte1 v2, v0
v_cvt_f32_ubyte3 v3, v0
v_cvt_pk_u8_f32 v4, v5, 2, v0
v_cvt_off_f32_i4 v6, v0""", v={0: x, 5: np.linspace(-10, 300, 64).astype(F32)})
    assert (r.f32(1) == (x & 0xFF)).all() and (r.f32(2) == (x >> 8 & 0xFF)).all()
    assert (r.f32(3) == (x >> 24)).all()
    byte = np.clip(np.rint(np.linspace(-10, 300, 64).astype(F32)), 0, 255).astype(U32)
    assert (r.v(4) == (x & ~np.uint32(0xFF0000)) | (byte << 16)).all()
    nib = (x & 0xF).astype(np.int64)
    assert (r.f32(6) == np.where(nib >= 8, nib - 16, nib) / 16).all()


def test_f16_int_conversions():
    with np.errstate(over="ignore"):
        h = np.array([1.5, -1.5, 70000, -70000, np.nan, 65504, -0.0, 3.9] * 8, dtype=F32).astype(F16)
    r = run("""v_cvt_u16_f16 v1, v0
v_cvt_i16_f16 v2, v0
v_cvt_f16_u16 v3, v4
v_cvt_f16_i16 v5, v4""", v={0: h.view(U16).astype(U32), 4: np.arange(64) * 1031 - 3})
    with np.errstate(all="ignore"):
        t = np.where(np.isnan(h), 0, np.trunc(h.astype(F64)))
    assert (r.v(1) == np.clip(t, 0, 65535)).all()
    assert (r.v(2) == (np.clip(t, -32768, 32767).astype(np.int64) & 0xFFFF)).all()
    u = ((np.arange(64) * 1031 - 3) & 0xFFFF)
    with np.errstate(over="ignore"):
        assert (r.f16(3) == u.astype(F64).astype(F16)).all()
        assert (r.f16(5) == u.astype(U16).view(np.int16).astype(F64).astype(F16)).all()
