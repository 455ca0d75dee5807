"""v_div_scale / v_div_fmas / v_div_fixup: the compiler's division sequences give IEEE quotients.

The sequences are the ones llc-22 emits for `fdiv float|double|half` on gfx90a (a test checks
that llc still emits them when it is installed). References: numpy's correctly rounded division,
exact rationals (fractions) for the fused scale of v_div_fmas, and the ISA guide's case table for
v_div_scale and v_div_fixup written out by hand.
"""
from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from fractions import Fraction

import numpy as np
import pytest

from semhelpers import RNG, run

F16, F32, F64, U16, U32, U64 = np.float16, np.float32, np.float64, np.uint16, np.uint32, np.uint64

# llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a, `define float @f(float %a, float %b) { fdiv }`:
# a in v0, b in v1, the quotient in v0
FDIV_F32 = """\
v_div_scale_f32 v2, s[4:5], v1, v1, v0
v_rcp_f32_e32 v3, v2
v_fma_f32 v4, -v2, v3, 1.0
v_fmac_f32_e32 v3, v4, v3
v_div_scale_f32 v4, vcc, v0, v1, v0
v_mul_f32_e32 v5, v4, v3
v_fma_f32 v6, -v2, v5, v4
v_fmac_f32_e32 v5, v6, v3
v_fma_f32 v2, -v2, v5, v4
v_div_fmas_f32 v2, v2, v3, v5
v_div_fixup_f32 v0, v2, v1, v0
"""
# the same for double: a in v[0:1], b in v[2:3]
FDIV_F64 = """\
v_div_scale_f64 v[4:5], s[4:5], v[2:3], v[2:3], v[0:1]
v_rcp_f64_e32 v[6:7], v[4:5]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fmac_f64_e32 v[6:7], v[6:7], v[8:9]
v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
v_fmac_f64_e32 v[6:7], v[6:7], v[8:9]
v_div_scale_f64 v[8:9], vcc, v[0:1], v[2:3], v[0:1]
v_mul_f64 v[10:11], v[8:9], v[6:7]
v_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]
s_nop 1
v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]
v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]
"""
# and for half (computed in f32, then v_div_fixup_f16): a in v0, b in v1
FDIV_F16 = """\
v_cvt_f32_f16_e32 v2, v1
v_cvt_f32_f16_e32 v3, v0
v_rcp_f32_e32 v4, v2
v_mul_f32_e32 v5, v3, v4
v_mad_f32 v6, -v2, v5, v3
v_mac_f32_e32 v5, v6, v4
v_mad_f32 v2, -v2, v5, v3
v_mul_f32_e32 v2, v2, v4
v_and_b32_e32 v2, 0xff800000, v2
v_add_f32_e32 v2, v2, v5
v_cvt_f16_f32_e32 v2, v2
v_div_fixup_f16 v0, v2, v1, v0
"""

LLC = shutil.which("llc-22")


def _llc_body(ty: str) -> str:
    ir = f"define {ty} @f({ty} %a, {ty} %b) {{\n  %q = fdiv {ty} %a, %b\n  ret {ty} %q\n}}\n"
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-o", "-"], input=ir,
                         capture_output=True, text=True, check=True).stdout
    lines = [ln.split(";")[0].strip() for ln in asm.splitlines()]
    body = [ln for ln in lines if re.match(r"[sv]_", ln) and not ln.startswith(("s_waitcnt", "s_setpc"))]
    return "\n".join(body) + "\n"


@pytest.mark.skipif(LLC is None, reason="llc-22 is not installed")
@pytest.mark.parametrize("ty,seq", [("float", FDIV_F32), ("double", FDIV_F64), ("half", FDIV_F16)])
def test_the_sequences_are_what_llc_emits(ty, seq):
    assert _llc_body(ty) == seq


def bitwise_equal(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per lane: the same bits, or both NaN."""
    u = {2: U16, 4: U32, 8: U64}[got.dtype.itemsize]
    return (got.view(u) == want.view(u)) | (np.isnan(got) & np.isnan(want))


def wide_f32(n: int = 64) -> np.ndarray:
    """f32 values over the whole exponent range, denormals and overflowing products included."""
    with np.errstate(over="ignore"):
        return (RNG.standard_normal(n) * np.exp2(RNG.integers(-150, 128, n).astype(F64))).astype(F32)


SPECIAL_F32 = np.array([0.0, -0.0, 1.0, -3.0, np.inf, -np.inf, np.nan, 1e-40, -1e-45, 3.4e38, 1.17549435e-38,
                        1.7e-38, 7.0, 1e-30, 1e30, 2.0 ** 100, 2.0 ** -100], dtype=F32)


def special_pairs(values: np.ndarray):
    """Every (numerator, denominator) pair of `values`, 64 lanes at a time (unused lanes divide 1/1)."""
    pairs = list(itertools.product(values, repeat=2))
    for k in range(0, len(pairs), 64):
        a = np.ones(64, dtype=values.dtype)
        b = np.ones(64, dtype=values.dtype)
        chunk = pairs[k:k + 64]
        a[:len(chunk)] = [p[0] for p in chunk]
        b[:len(chunk)] = [p[1] for p in chunk]
        yield a, b


@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_f32_division_sequence_gives_the_ieee_quotient(target):
    for _ in range(6):
        a, b = wide_f32(), wide_f32()
        r = run(FDIV_F32, target, v={0: a, 1: b})
        with np.errstate(all="ignore"):
            want = a / b
        bad = ~bitwise_equal(r.f32(0), want)
        assert not bad.any(), list(zip(a[bad], b[bad], r.f32(0)[bad], want[bad]))


def test_f32_division_special_operands():
    """0, -0, inf, NaN, denormals and the overflow/underflow edges: what IEEE division gives."""
    for a, b in special_pairs(SPECIAL_F32):
        r = run(FDIV_F32, v={0: a, 1: b})
        with np.errstate(all="ignore"):
            want = a / b
        bad = ~bitwise_equal(r.f32(0), want)
        assert not bad.any(), list(zip(a[bad], b[bad], r.f32(0)[bad], want[bad]))


def test_f32_division_ordinary_values_are_exact_quotients():
    a = (RNG.standard_normal(64) * 1000).astype(F32)
    b = (RNG.standard_normal(64) * 10).astype(F32)
    r = run(FDIV_F32, v={0: a, 1: b})
    assert (r.f32(0) == a / b).all()
    assert np.array_equal(r.f32(0), (a.astype(F64) / b.astype(F64)).astype(F32)), "correctly rounded"


def test_f64_division_sequence_gives_the_ieee_quotient():
    for _ in range(3):
        a = RNG.standard_normal(64) * np.exp2(RNG.integers(-1074, 1024, 64).astype(F64))
        b = RNG.standard_normal(64) * np.exp2(RNG.integers(-1074, 1024, 64).astype(F64))
        a[:6] = [0.0, 1.0, np.inf, 5e-324, 1.7e308, np.nan]
        b[:6] = [0.0, -0.0, np.inf, 3.0, 1e-300, 1.0]
        r = run(FDIV_F64, v={"v[0:1]": a, "v[2:3]": b})
        with np.errstate(all="ignore"):
            want = a / b
        bad = ~bitwise_equal(r.f64(0), want)
        assert not bad.any(), list(zip(a[bad], b[bad], r.f64(0)[bad], want[bad]))


def test_f16_division_sequence_gives_the_ieee_quotient():
    """Every bit pattern is fair game (NaNs, infinities, denormals): llc's f16 sequence ends in v_div_fixup_f16."""
    for _ in range(8):
        a = RNG.integers(0, 1 << 16, 64).astype(U16)
        b = RNG.integers(0, 1 << 16, 64).astype(U16)
        a[:4], b[:4] = [0, 0x7C00, 0x0001, 0x3C00], [0, 0x7C00, 0x0400, 0x8000]
        r = run(FDIV_F16, v={0: a.astype(U32) | 0xDEAD0000, 1: b.astype(U32)})
        with np.errstate(all="ignore"):
            want = a.view(F16) / b.view(F16)
        assert bitwise_equal(r.f16(0), want).all()
        assert (r.v(0) >> 16 == 0).all(), "gfx9 zeroes the high half of a 16-bit result"


# ---------------------------------------------------------------- v_div_scale, case by case


def test_div_scale_f32_cases():
    """The ISA guide's cases, in order: (S0, S1 = denominator, S2 = numerator) -> (D, lane set)."""
    t = 2.0 ** 64
    cases = [
        ((3.0, 3.0, 6.0), (3.0, 0)),  # nothing special: D = S0
        ((6.0, 3.0, 6.0), (6.0, 0)),
        ((0.0, 0.0, 1.0), (np.nan, 0)),  # zero denominator
        ((1.0, 1.0, 0.0), (np.nan, 0)),  # zero numerator
        ((2.0 ** -30, 2.0 ** -30, 2.0 ** 70), (2.0 ** 34, 1)),  # exponent gap >= 96: the denominator scales
        ((2.0 ** 70, 2.0 ** -30, 2.0 ** 70), (2.0 ** 70, 1)),  # ... the numerator does not
        ((1e-39, 1e-39, 2.0 ** -40), (F32(1e-39) * t, 0)),  # denormal denominator: scaled up
        ((1.0, 1e-39, 2.0 ** -40), (t, 0)),
        ((2.0 ** -120, 2.0 ** 10, 2.0 ** -120), (2.0 ** -56, 1)),  # denormal quotient: the numerator scales
        ((2.0 ** 10, 2.0 ** 10, 2.0 ** -120), (2.0 ** 10, 1)),
        ((2.0 ** -110, 2.0 ** -20, 2.0 ** -110), (2.0 ** -46, 0)),  # tiny numerator (exponent field <= 23)
        ((2.0 ** -20, 2.0 ** -20, 2.0 ** -110), (2.0 ** 44, 0)),
    ]
    n = len(cases)
    s0, s1, s2 = (np.ones(64, F32) for _ in range(3))
    for i, ((x0, x1, x2), _) in enumerate(cases):
        s0[i], s1[i], s2[i] = x0, x1, x2
    r = run("v_div_scale_f32 v3, s[6:7], v0, v1, v2\nv_div_scale_f32 v4, vcc, v0, v1, v2", v={0: s0, 1: s1, 2: s2})
    want_d = np.array([c[1][0] for c in cases], dtype=F32)
    want_m = np.array([c[1][1] for c in cases], dtype=bool)
    assert bitwise_equal(r.f32(3)[:n], want_d).all(), (r.f32(3)[:n], want_d)
    assert np.array_equal(r.mask(6)[:n], want_m) and np.array_equal(r.mask(106)[:n], want_m)
    assert np.isnan(r.f32(3)[2]) and r.v(3)[2] == 0x7FC00000
    assert not r.mask(6)[n:].any() and np.array_equal(r.v(4), r.v(3))


def test_div_scale_f64_cases():
    t = 2.0 ** 128
    s0 = np.ones(64)
    s1 = np.ones(64)
    s2 = np.ones(64)
    s0[:6] = [5.0, 2.0 ** -400, 1e-310, 2.0 ** 1023, 2.0 ** -1000, 2.0 ** -1000]
    s1[:6] = [2.0, 2.0 ** -400, 1e-310, 2.0 ** 1023, 2.0 ** 30, 2.0 ** -10]
    s2[:6] = [5.0, 2.0 ** 400, 2.0 ** -300, 2.0 ** 1000, 2.0 ** -1000, 2.0 ** -1000]
    r = run("v_div_scale_f64 v[6:7], s[8:9], v[0:1], v[2:3], v[4:5]",
            v={"v[0:1]": s0, "v[2:3]": s1, "v[4:5]": s2})
    want = [5.0, 2.0 ** -272, 1e-310 * t, 2.0 ** 895, 2.0 ** -872, 2.0 ** -872]
    # gap >= 768 (scaled, set); denormal denominator; 1/S1 denormal (scaled down); quotient denormal
    # (numerator scaled, set); tiny numerator (exponent field <= 53)
    assert list(r.f64(6)[:6]) == want
    assert list(r.mask(8)[:6]) == [False, True, False, False, True, False]


def test_div_scale_lane_mask_is_zero_in_inactive_lanes():
    s = np.full(64, 2.0 ** -30, F32)
    s2 = np.full(64, 2.0 ** 70, F32)
    exec_ = np.arange(64) % 2 == 0
    r = run("v_div_scale_f32 v3, vcc, v0, v0, v1", v={0: s, 1: s2}, exec=exec_, vcc=(1 << 64) - 1)
    assert np.array_equal(r.mask(106), exec_)


# ---------------------------------------------------------------- v_div_fmas


def round_f32(q: Fraction) -> float:
    """Round an exact rational to float32 (RNE, denormals, overflow to inf) via float64 round-to-odd."""
    if q == 0:
        return 0.0
    # float(q) is correctly rounded to float64; make it round-to-odd so the second rounding is exact
    d = float(q)
    if Fraction(d) != q and int(np.float64(d).view(U64)) % 2 == 0:
        d = float(np.nextafter(d, np.inf if Fraction(d) < q else -np.inf))
    with np.errstate(over="ignore"):
        return float(F32(d))


def test_div_fmas_f32_scales_by_vcc_with_one_rounding():
    a = (RNG.standard_normal(64) * 3).astype(F32)
    b = (RNG.standard_normal(64) * 3).astype(F32)
    c = (RNG.standard_normal(64) * 3).astype(F32)
    c[:8] = [2.0, -2.0, 1.9999999, -1.5, 3.0e38, 1e-30, 0.0, -1e-40]
    a[8], b[8], c[8] = 1 + 2 ** -23, 1 + 2 ** -23, -1.0  # exact value 2**-22 + 2**-46: rounded once when scaled
    a[10], b[10], c[10] = 2.0 ** -60, 2.0 ** -60, 2.0 ** -100  # scaled by 2**-64: a denormal, rounded once
    vcc = np.arange(64) % 3 != 0
    r = run("v_div_fmas_f32 v3, v0, v1, v2", v={0: a, 1: b, 2: c}, vcc=vcc)
    big = np.abs(c.astype(F64)) >= 2.0
    k = np.where(vcc, np.where(big, 64, -64), 0)
    want = np.array([round_f32((Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))) * Fraction(2) ** int(s))
                     for x, y, z, s in zip(a, b, c, k)], dtype=F32)
    assert bitwise_equal(r.f32(3), want).all(), np.nonzero(~bitwise_equal(r.f32(3), want))


def test_div_fmas_f64_scales_by_vcc():
    a, b, c = RNG.standard_normal(64), RNG.standard_normal(64), RNG.standard_normal(64) * 4
    c[:3] = [2.0, 1e-300, -5.0]
    vcc = np.arange(64) % 2 == 0
    r = run("v_div_fmas_f64 v[6:7], v[0:1], v[2:3], v[4:5]", v={"v[0:1]": a, "v[2:3]": b, "v[4:5]": c}, vcc=vcc)
    k = np.where(vcc, np.where(np.abs(c) >= 2.0, 128, -128), 0)
    want = np.array([float((Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))) * Fraction(2) ** int(s))
                     for x, y, z, s in zip(a, b, c, k)])
    assert np.array_equal(r.f64(6), want)


def test_div_fmas_keeps_denormal_inputs_when_mode_flushes():
    from gcnemu.sim.fp import FloatMode
    a = np.full(64, 1e-40, F32)
    r = run("v_div_fmas_f32 v3, v0, v1, v2", v={0: a, 1: np.full(64, 2.0 ** 30, F32), 2: np.zeros(64, F32)},
            vcc=0, mode=FloatMode(denorm_f32=False))
    assert (r.f32(3) == F32(F64(F32(1e-40)) * 2.0 ** 30)).all(), "input denormals are not flushed"


# ---------------------------------------------------------------- v_div_fixup


QNAN_NEG = 0xFFC00000


def test_div_fixup_f32_special_cases():
    """(quotient S0, denominator S1, numerator S2) -> D, the ISA guide's cases."""
    nan_payload = np.uint32(0x7F800123).view(F32)  # a signalling NaN
    rows = [
        ((1.5, 2.0, 3.0), 1.5),  # ordinary: |S0| with the sign of S1*S2
        ((1.5, -2.0, 3.0), -1.5),
        ((-1.5, -2.0, -3.0), 1.5),
        ((7.0, 0.0, 0.0), None),  # 0/0 -> 0xffc00000
        ((7.0, np.inf, -np.inf), None),  # inf/inf -> 0xffc00000
        ((7.0, -0.0, 3.0), -np.inf),  # x/0
        ((7.0, 3.0, -np.inf), -np.inf),  # inf/y
        ((7.0, np.inf, 3.0), 0.0),  # x/inf
        ((7.0, -3.0, 0.0), -0.0),  # 0/y
        ((7.0, 2.0 ** 100, 2.0 ** -60), 0.0),  # exponent gap < -150: the quotient rounds to 0
        ((np.inf, 2.0 ** -100, 2.0 ** 100), np.inf),  # a quotient that overflowed stays inf
        ((np.nan, 2.0 ** -100, -(2.0 ** 100)), -np.inf),  # ... whatever the NaN the sequence made
    ]
    n = len(rows)
    s0, s1, s2 = (np.ones(64, F32) for _ in range(3))
    for i, ((x0, x1, x2), _) in enumerate(rows):
        s0[i], s1[i], s2[i] = x0, x1, x2
    s2[n], s1[n + 1] = nan_payload, nan_payload  # NaN numerator, NaN denominator: quieted, payload kept
    r = run("v_div_fixup_f32 v3, v0, v1, v2", v={0: s0, 1: s1, 2: s2})
    for i, (_, want) in enumerate(rows):
        if want is None:
            assert r.v(3)[i] == QNAN_NEG, i
        else:
            assert r.v(3)[i] == np.array(want, dtype=F32).view(U32), (i, r.f32(3)[i], want)
    assert r.v(3)[n] == 0x7FC00123 and r.v(3)[n + 1] == 0x7FC00123


def test_div_fixup_f64_special_cases():
    s0 = np.full(64, 2.5)
    s1 = np.array([0.0, np.inf, 0.0, 2.0 ** 600, -2.0] + [3.0] * 59)
    s2 = np.array([0.0, np.inf, -1.0, 2.0 ** -500, 4.0] + [1.0] * 59)
    r = run("v_div_fixup_f64 v[6:7], v[0:1], v[2:3], v[4:5]", v={"v[0:1]": s0, "v[2:3]": s1, "v[4:5]": s2})
    got = r.v64(6)
    assert got[0] == got[1] == 0xFFF8000000000000
    assert r.f64(6)[2] == -np.inf and r.f64(6)[3] == 0.0 and r.f64(6)[4] == -2.5 and (r.f64(6)[5:] == 2.5).all()


def test_div_fixup_f16_and_its_legacy_spelling():
    s0 = np.full(64, 0x3E00, U32)  # 1.5
    s1 = np.array([0, 0x7C00, 0x8000, 0x4000, 0x7C00] + [0xC000] * 59, dtype=U32)
    s2 = np.array([0, 0xFC00, 0x3C00, 0x0000, 0x3C00] + [0x4200] * 59, dtype=U32)
    r = run("v_div_fixup_f16 v3, v0, v1, v2\nv_div_fixup_legacy_f16 v4, v0, v1, v2\n"
            "v_mov_b32 v5, -1\nv_div_fixup_f16 v5, v0, v1, v2 op_sel:[0,0,0,1]",
            v={0: s0 | 0x12340000, 1: s1, 2: s2})
    want = np.array([0xFE00, 0xFE00, 0xFC00, 0x0000, 0x0000] + [0xBE00] * 59, dtype=U32)
    assert np.array_equal(r.v(3), want) and np.array_equal(r.v(4), want)
    assert np.array_equal(r.v(5), (want << 16) | 0xFFFF), "op_sel[3] writes the high half, keeps the low"
